"""Swapping one of your pieces for the answer key's, for a while.

Two uses:

- **Stand-ins.** A step's check runs your package with every piece you have not
  written yet (still the stub it shipped as) replaced by the answer key's, so no
  step waits for a later one: the random programs of step 05.2 can change a tensor
  in place before step 07.1's ``_write`` exists. Your own code is another matter:
  a piece of yours that calls a later step's stub (a ``zero_grad`` written with
  ``zero_()`` before ``_write``) would raise NotImplementedError when you run it,
  and ``calls_from_written_code`` notes it for the verdict.
- **Culprits.** When a check fails, swapping your earlier pieces in one at a time
  shows which one the failure comes from (``differential.culprit``, ``verdicts``).
"""
import ast
import contextlib
import functools
import pathlib
import sys
import textwrap

from . import stubs
from .package import ANSWER_KEY, fingerprint


@functools.cache
def _answer_source(file):
    return (ANSWER_KEY / file).read_text()


@functools.cache
def answer_file(file):
    """The answer key's pieces in ``file`` as ``[(step, name)]``, its stubs' and shipped functions' dumps."""
    source = _answer_source(file)
    return (list(stubs.solution_pieces(source).values()),
            stubs.function_dumps(ast.parse(stubs.make_stub(source))), stubs.shipped_functions(source))


@functools.cache
def answer_pieces(up_to_step="99.9", after_step="00.0"):
    """``[(file, qualified name, step)]`` of the pieces the learner writes, first asked for in
    ``after_step < step <= up_to_step``."""
    pieces = []
    for path in sorted(ANSWER_KEY.glob("*.py")):
        for step, name in answer_file(path.name)[0]:
            if after_step < step <= up_to_step:
                pieces.append((path.name, name, step))
    return tuple(pieces)


def file_of(qualified):
    """The answer-key file that holds the piece ``qualified`` (``"Tensor.backward"`` -> ``"tensor.py"``)."""
    for file, name, _ in answer_pieces():
        if name == qualified:
            return file
    raise KeyError(qualified)


def _answer_function(file, qualified):
    return _answer_functions(file)[qualified]


@functools.cache
def _answer_functions(file):
    """``{qualified name: its source}`` of every function in the answer key's ``file``, each as
    ``ast.get_source_segment`` gives it (the file read and split once, not once per function)."""
    source = _answer_source(file)
    lines = source.splitlines(keepends=True)
    found = {}
    for name, function, _ in stubs.functions_of(ast.parse(source)):
        first, last = function.lineno - 1, function.end_lineno - 1
        if first == last:
            text = lines[first].encode()[function.col_offset:function.end_col_offset].decode()
        else:
            text = (lines[first].encode()[function.col_offset:].decode() + "".join(lines[first + 1:last])
                    + lines[last].encode()[:function.end_col_offset].decode())
        found.setdefault(name, textwrap.dedent(text))      # (a property: its getter)
    return found


def unwritten(directory, directory_fingerprint=None):
    """``{(file, qualified name)}`` of the pieces in ``directory`` that are still exactly their stub
    (``directory_fingerprint``: ``package.fingerprint(directory)``, when the caller has it already)."""
    return set(_unwritten(str(directory), directory_fingerprint or fingerprint(directory)))


@functools.lru_cache(maxsize=16)
def _unwritten(directory, directory_fingerprint):
    """(``directory_fingerprint``, of the directory's files, keys the cache: an edit makes a new entry.)"""
    found = []
    for path in sorted(ANSWER_KEY.glob("*.py")):
        mine_path = pathlib.Path(directory) / path.name
        if not mine_path.exists():
            continue
        try:
            mine = stubs.function_dumps(ast.parse(mine_path.read_text()))
        except (SyntaxError, ValueError, UnicodeDecodeError):
            continue
        pieces, stub, shipped = answer_file(path.name)
        for _, name in pieces:
            if name not in shipped and name in mine and mine[name] == stub.get(name):
                found.append((path.name, name))
    return tuple(found)


@contextlib.contextmanager
def replaced(package, file, qualified, make):
    """``package`` with the piece ``qualified`` of ``file`` replaced by ``make(its function)`` wherever it is
    bound (a method, property, staticmethod or classmethod of its class; a module's function in every module
    of the package that imported it), put back afterwards."""
    module = sys.modules[f"{package.__name__}.{file.removesuffix('.py')}"]   # (package.gradcheck: a function)
    restore = []
    if "." in qualified:
        owner = getattr(module, qualified.split(".")[0])
        attribute = qualified.split(".")[1]
        old = owner.__dict__[attribute]
        if isinstance(old, property):
            replacement = property(make(old.fget), old.fset)
        elif isinstance(old, (staticmethod, classmethod)):
            replacement = type(old)(make(old.__func__))
        else:
            replacement = make(old)
        setattr(owner, attribute, replacement)
        restore.append((owner, attribute, old))
    else:
        old = getattr(module, qualified)
        new = make(old)
        modules = [m for name, m in sys.modules.items() if name.startswith(package.__name__ + ".")]
        for other in modules + [package]:
            if getattr(other, qualified, None) is old:
                setattr(other, qualified, new)
                restore.append((other, qualified, old))
    try:
        yield
    finally:
        for owner, attribute, old in restore:
            setattr(owner, attribute, old)


def swapped(package, file, qualified):
    """``package`` with one piece replaced by the answer key's (put back afterwards)."""
    module = sys.modules[f"{package.__name__}.{file.removesuffix('.py')}"]
    new_functions = {}
    # The module's own globals: the new function sees the module as it is now, other swaps included.
    exec(_answer_function(file, qualified), vars(module), new_functions)
    new = new_functions[qualified.rsplit(".", 1)[-1]]
    return replaced(package, file, qualified, lambda old: new)


@contextlib.contextmanager
def answer_key_for(package, pieces):
    """``package`` with each ``(file, qualified name)`` of ``pieces`` swapped for the answer key's."""
    with contextlib.ExitStack() as stack:
        for file, qualified in sorted(pieces):
            stack.enter_context(swapped(package, file, qualified))
        yield


@contextlib.contextmanager
def calls_from_written_code(package, pieces, written, found):
    """Note in ``found`` each ``(caller, piece)`` where a function of ``written`` (your pieces, by qualified
    name) calls, directly or through given code, one of ``pieces`` (``(file, qualified name)``, stand-ins of
    later steps). A check runs such a piece as the answer key's; your code, run as it is, would raise
    NotImplementedError there."""
    directory = pathlib.Path(package.__file__).resolve().parent

    def caller():
        """The nearest of your written pieces among the calls of your package just above (a check's own
        code, a hook say, ends the search: what it calls is the check's doing)."""
        frame = sys._getframe(2)
        while frame is not None and pathlib.Path(frame.f_code.co_filename).parent == directory:
            name = getattr(frame.f_code, "co_qualname", frame.f_code.co_name)
            if name in written:
                return name
            frame = frame.f_back
        return None

    def noting(function, qualified):
        def note_then_call(*args, **kwargs):
            by = caller()
            if by is not None and (by, qualified) not in found:
                found.append((by, qualified))
            return function(*args, **kwargs)
        return note_then_call

    with contextlib.ExitStack() as stack:
        for file, qualified in sorted(pieces):
            stack.enter_context(replaced(package, file, qualified,
                                         lambda old, qualified=qualified: noting(old, qualified)))
        yield
