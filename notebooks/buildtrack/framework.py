"""The machinery behind the build track's checks: steps, verdicts, loading the learner's package.

A step's check is a function that takes the freshly loaded ``myautograd`` package
and either returns a sentence (done) or raises:

- ``Wrong(message)``: the piece runs but behaves wrongly; the message names the
  likely mistake;
- ``NotImplementedError`` from a stub: the piece is not written yet.

Anything else the learner's code raises becomes a ❌ naming the exception and
the line of ``myautograd`` it came from. No verdict ever shows a traceback.
"""
import ast
import contextlib
import dataclasses
import functools
import hashlib
import importlib
import inspect
import json
import os
import pathlib
import re
import shutil
import signal
import sys
import textwrap
import threading
import traceback
import warnings
from dataclasses import dataclass

from .i18n import LOCALE, _, language

NOTEBOOKS = pathlib.Path(__file__).resolve().parent.parent
LEARNER_PACKAGE = NOTEBOOKS / "myautograd"
ANSWER_KEY = NOTEBOOKS.parent / "answers" / "myautograd"
PACKAGE_NAME = "myautograd"
SECONDS_PER_STEP = 20

STUB_MESSAGE = re.compile(r"Step (\d\d\.\d): (\S+)")


class Wrong(Exception):
    """The piece runs, but its result is not what PyTorch (or mini_autograd) gives."""


class CheckTimeout(BaseException):
    """A check used up its CPU time. Not an ``Exception``: no ``except Exception`` on the way (in the
    learner's code, or hypothesis taking it for a failing case to shrink) can swallow it."""


@dataclass
class Step:
    id: str            # "02.2": chapter 02, second step
    title: str         # what the learner writes, in a few words
    pieces: str        # the stubs to fill in, e.g. "Function.apply in function.py"
    check: callable    # check(package) -> sentence, or raises
    rewrites: tuple = ()   # ("file.py", "Class.method"): pieces that ship working and this step rewrites
    uses: dict = None      # {"engine.run_backward": "release_saved"}: a rewrite of the learner's own code
    after: str = None      # waits only for the steps up to this one, and for its own chapter's: "06.2"
    begun: dict = None     # {"engine.run_backward": "retain_graph"}: a word that shows the rewrite has begun

    @property
    def chapter(self):
        return self.id[:2]

    def needs(self):
        """The earlier steps this one waits for: all of them, or those up to ``after`` and its chapter's."""
        earlier = list(STEPS)[:list(STEPS).index(self.id)]
        if self.after is None:
            return earlier
        return [s for s in earlier if s <= self.after or s[:2] == self.chapter]

    def rewritten(self):
        """``[(file, qualified name)]`` of the working code this step rewrites."""
        from .swap import file_of
        named = [qualified.removeprefix("engine.") for qualified in self.uses]
        return list(self.rewrites) + [(file_of(name), name) for name in named]


STEPS = {}


def step(step_id, title, pieces, rewrites=(), uses=None, after=None, begun=None):
    """Register a check function as the check of one step.

    A step that asks the learner to rewrite code that already runs cannot see a
    ``NotImplementedError``. It is "not done yet" while ``rewrites`` (shipped
    pieces) are still exactly as shipped. For ``uses`` (``"engine.run_backward":
    "release_saved"``) the check decides: a rewrite that behaves right is done,
    whatever it calls; one that fails and does not mention the word yet is
    "not done yet" (not started), otherwise wrong; a function that uses its ``begun`` word
    (``"engine.run_backward": "retain_graph"``) has been started, and is judged as it is.
    """
    def register(check):
        STEPS[step_id] = Step(step_id, title, pieces, check, tuple(rewrites), uses or {}, after, begun or {})
        return check
    return register


def _still_shipped(the_step, directory):
    """Why a rewrite step has not been started (its pieces are as shipped), or None."""
    from .stubs import function_dumps
    from .swap import _answer_file
    for file, name in the_step.rewrites:
        shipped = _answer_file(file)[2].get(name)
        mine = function_dumps(ast.parse((pathlib.Path(directory) / file).read_text())).get(name)
        if shipped is not None and mine == shipped:
            return (_("not done yet: rewrite {name} in myautograd/{file} "
                      "(it is still the version it shipped with).").format(name=name, file=file))
    return None


def _word_missing(the_step, package):
    """``(function, word)`` for the first ``uses`` word the learner's code does not mention yet, or None."""
    for qualified, word in the_step.uses.items():
        if not _mentions(package, qualified, word):
            begun = the_step.begun.get(qualified)
            if begun and _mentions(package, qualified, begun, body_only=True):
                continue                 # the rewrite has begun, without the word: it is judged as it is
            return qualified.split(".", 1)[-1], word
    return None


def _mentions(package, qualified, word, body_only=False):
    """Does the code of ``package``'s function ``qualified`` (no docstring, no comments; ``body_only``: nor
    its signature) use ``word``?"""
    target = package
    for part in qualified.split("."):
        target = getattr(target, part)
    function = ast.parse(textwrap.dedent(inspect.getsource(getattr(target, "fget", target)))).body[0]
    if ast.get_docstring(function):
        function.body = function.body[1:]
    if body_only:
        return any(word in ast.unparse(statement) for statement in function.body)
    return word in ast.unparse(function)


def _rewritten_later(the_step, package, function):
    """The later step whose rewrite of ``function`` your code already shows (it uses that step's word),
    or None: then a word of ``the_step`` missing from it is a regression, not a step not started."""
    for later in STEPS.values():
        for qualified, word in later.uses.items():
            if (later.id > the_step.id and qualified.split(".", 1)[-1] == function
                    and _mentions(package, qualified, word)):
                return later.id
    return None


@dataclass
class Verdict:
    status: str        # "done", "todo" or "wrong"
    message: str
    differential: bool = False   # found by a random program (differential.py), not by a named scenario
    culprit_step: str = None     # the step whose piece the failure comes from, when it is another one

    @property
    def mark(self):
        return {"done": "✅", "todo": "⏳", "wrong": "❌"}[self.status]


# ----------------------------------------------------------------- loading
def package_dir(answers=False):
    """The learner's package, or the answer key (also when BUILDTRACK_ANSWERS=1, as in CI's run of the
    chapters)."""
    return ANSWER_KEY if answers or os.environ.get("BUILDTRACK_ANSWERS") == "1" else LEARNER_PACKAGE


def _fingerprint(directory):
    digest = hashlib.sha256()
    for path in sorted(pathlib.Path(directory).glob("*.py")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def load(directory):
    """Import the package in ``directory`` afresh as ``myautograd`` (edits since the last run count)."""
    directory = pathlib.Path(directory).resolve()
    for name in [n for n in sys.modules if n == PACKAGE_NAME or n.startswith(PACKAGE_NAME + ".")]:
        del sys.modules[name]
    # Always from the source: a cached .pyc can look current after an edit made within the same second.
    shutil.rmtree(directory / "__pycache__", ignore_errors=True)
    importlib.invalidate_caches()
    sys.path.insert(0, str(directory.parent))
    writes_bytecode, sys.dont_write_bytecode = sys.dont_write_bytecode, True
    try:
        return importlib.import_module(PACKAGE_NAME)
    finally:
        sys.dont_write_bytecode = writes_bytecode
        sys.path.remove(str(directory.parent))


# ---------------------------------------------------------------- verdicts
def _learner_frame(tb, directory, file_only=False):
    """``myautograd/engine.py, line 57, in run_backward``: the last frame of the learner's package
    (``file_only``: ``myautograd/engine.py``)."""
    where = None
    for frame in traceback.extract_tb(tb):
        path = pathlib.Path(frame.filename)
        if path.parent == directory:
            where = (f"{PACKAGE_NAME}/{path.name}" if file_only else
                     _("{package}/{file}, line {line}, in {function}").format(
                         package=PACKAGE_NAME, file=path.name, line=frame.lineno, function=frame.name))
    return where


def _check_line(tb):
    """The line of a step's check (``ch*.py``) that called the code that raised: the case it was trying
    (``leaf.backward()``), or None."""
    import linecache
    found = None
    for frame in traceback.extract_tb(tb):
        path = pathlib.Path(frame.filename)
        if path.parent == pathlib.Path(__file__).parent and path.name.startswith("ch"):
            found = linecache.getline(frame.filename, frame.lineno).strip() or None
    return found


def _stub_step(error):
    """``("02.2", "Function.apply")`` when ``error`` comes from a shipped stub, else None."""
    found = STUB_MESSAGE.match(str(error)) if isinstance(error, NotImplementedError) else None
    return found.groups() if found else None


@contextlib.contextmanager
def _time_limit(seconds):
    """Stop a check that runs too long (an endless loop), where signals allow it.

    The limit is CPU time (``ITIMER_PROF``), not the clock's: a busy machine or a slow Binder makes a
    check take longer, not use more of the processor."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    def stop(signum, frame):
        raise CheckTimeout(f"used more than {seconds} s of CPU time")

    previous = signal.signal(signal.SIGPROF, stop)
    signal.setitimer(signal.ITIMER_PROF, seconds, 1.0)     # and every second after, should one be lost
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)


def _run_one(the_step, directory, ran):
    """The verdict of one step on the package in ``directory``, earlier steps not considered.

    Pieces of other steps that are still stubs run as the answer key's (``swap.unwritten``): a step
    never waits for a later one, nor for an earlier one it does not need (``Step.after``).
    """
    from . import swap
    directory = pathlib.Path(directory).resolve()
    try:
        package = load(directory)
    except Exception as error:                                  # a syntax error, say
        where = _learner_frame(error.__traceback__, directory)
        if isinstance(error, SyntaxError):
            where = _("{package}/{file}, line {line}").format(
                package=PACKAGE_NAME, file=pathlib.Path(error.filename or "?").name, line=error.lineno)
        if where:
            result = Verdict("wrong", _("myautograd does not import: {error_type}: {error} ({where})").format(
                error_type=type(error).__name__, error=error, where=where))
        else:
            result = Verdict("wrong", _("myautograd does not import: {error_type}: {error}").format(
                error_type=type(error).__name__, error=error))
        result.kept = False                                    # (nothing ran: not remembered)
        return result
    _note_calls(package, directory, ran)
    shipped = _still_shipped(the_step, directory)
    if shipped:
        return Verdict("todo", shipped)
    step_of = {(file, name): step for file, name, step in swap.answer_pieces()}
    stand_ins = {piece for piece in swap.unwritten(directory) if step_of[piece] != the_step.id}
    later_stand_ins = {piece for piece in stand_ins if step_of[piece] > the_step.id}
    written = {name for file, name, step in swap.answer_pieces(the_step.id) if (file, name) not in stand_ins}
    calls_to_later = []           # (your piece, a later step's piece it calls, still a stub)
    try:
        with _time_limit(SECONDS_PER_STEP), warnings.catch_warnings(), \
                swap.answer_key_for(package, stand_ins), \
                swap.calls_from_written_code(package, later_stand_ins, written, calls_to_later):
            warnings.simplefilter("ignore")
            try:
                sentence = _checks(the_step, package, explain=False)
            except Exception as error:                      # a Wrong, or any error your code raised
                # A mistake in a later step's piece is that step's to report: with every later piece
                # from the answer key, does this step pass?
                sentence = _passes_without_later_pieces(the_step, package, stand_ins, error)
                if sentence is None:
                    if getattr(error, "unexplained", False):    # a random program differed: find the
                        _checks(the_step, package, explain=True)  # smallest, and the piece (it raises)
                        raise _answered_two_ways(error) from None
                    if isinstance(error, Wrong) and not getattr(error, "differential", False):
                        error.culprit = _culprit_of_named(the_step, package, stand_ins)
                    raise
    except Wrong as error:
        missing = _word_missing(the_step, package)
        if missing:
            function, word = missing
            later = _rewritten_later(the_step, package, function)
            if later is not None:
                return Verdict("wrong", _("{function} no longer uses {word}, which step {step} asked "
                                          "for: did your rewrite for step {later} drop it? The check says: "
                                          "{error}").format(function=function, word=word, step=the_step.id,
                                                            later=later, error=error))
            return Verdict("todo", _("not done yet: {function} does not use {word} yet, and the check "
                                     "says: {error}").format(function=function, word=word, error=error))
        message, culprit = str(error), getattr(error, "culprit", None)
        if culprit is not None and not getattr(error, "differential", False):
            message = _("{message} The piece at fault: {piece} (step {step}): with the answer key's "
                        "{piece} instead of yours, this check passes.").format(
                            message=message, piece=culprit[0], step=culprit[1])
        return Verdict("wrong", message, getattr(error, "differential", False),
                       culprit[1] if culprit else None)
    except RecursionError as error:
        where = _learner_frame(error.__traceback__, directory)
        return Verdict("wrong", _("RecursionError ({where}): Python ran out of nested calls. "
                                  "The engine must use a loop and a list as its stack, not call itself.")
                       .format(where=where))
    except CheckTimeout:
        result = Verdict("wrong", _("the check used more than {seconds} s of CPU time: is there an "
                                    "endless loop (a node put back on the stack or queue again and again)?")
                         .format(seconds=SECONDS_PER_STEP))
        result.kept = False                                    # (a slow machine: not remembered)
        return result
    except Exception as error:
        stub = _stub_step(error)
        if stub is not None:
            stub_id, piece = stub
            if stub_id != the_step.id:
                return Verdict("todo", _("{piece} (step {step}) is not written yet.").format(
                    piece=piece, step=stub_id))
            where = _learner_frame(error.__traceback__, directory, file_only=True)
            if where is None:                           # several pieces at once, named by the check
                return Verdict("todo", _("not done yet: fill in {pieces}.").format(pieces=_(the_step.pieces)))
            return Verdict("todo", _("not done yet: fill in {piece} in {file}.").format(
                piece=piece, file=where))
        where = _learner_frame(error.__traceback__, directory)
        case = _check_line(error.__traceback__)
        if where and case:
            return Verdict("wrong", _("{error_type}: {error} (raised in {where}, while the check ran "
                                      "`{case}`)")
                           .format(error_type=type(error).__name__, error=error, where=where, case=case))
        if where:
            return Verdict("wrong", _("{error_type}: {error} (raised in {where})").format(
                error_type=type(error).__name__, error=error, where=where))
        return Verdict("wrong", f"{type(error).__name__}: {error}")
    if calls_to_later:
        caller, piece = calls_to_later[0]
        return Verdict("wrong", _("your {caller} calls {piece} (step {step}), which you have not written "
                                  "yet: run as it is, your {caller} raises NotImplementedError there (this "
                                  "check ran the answer key's {piece} in its place). Write {caller} without "
                                  "it, or write step {step} first.").format(caller=caller, piece=piece,
                                                               step=step_of[(swap.file_of(piece), piece)]))
    return Verdict("done", sentence)


def _answered_two_ways(error):
    """The verdict when a random program differed once and the same checks, run again, all agreed: your code
    gave two answers to one program (an order that depends on id() or on a set's order, say)."""
    from .differential import message
    program, found, _theirs = error.first_failure
    wrong = Wrong(message(program, found, None) + "\n\n" + _(
        "Run again, the same program agreed: your myautograd gives different results from one run to the "
        "next. Does its order depend on something that changes from run to run, such as id() of objects or "
        "the order of a set?"))
    wrong.differential = True
    return wrong


def _checks(the_step, package, explain=True):
    """The step's named scenarios, then its random programs (``differential``). ``explain=False``: a
    random program that differs raises at once, unexplained (no smallest program, no culprit): the
    costly part waits until the failure is known to be this step's."""
    sentence = the_step.check(package)
    from . import differential          # (it imports this module)
    differential.check_step(package, the_step, explain)
    return sentence


def _passes_without_later_pieces(the_step, package, stand_ins, error):
    """The step's sentence if its checks pass with every piece of a later step from the answer key, else
    None. (Not for a stub of this step: that is a verdict already.)"""
    from . import swap
    stub = _stub_step(error)
    if stub is not None and stub[0] == the_step.id:
        return None
    later = {(file, name) for file, name, step in swap.answer_pieces() if step > the_step.id}
    if not later - stand_ins:
        return None
    return _sentence_with(lambda: _checks(the_step, package, explain=False), package, later - stand_ins)


def _sentence_with(run, package, pieces):
    """What ``run()`` returns with ``pieces`` from the answer key, or None if it raises."""
    from . import swap
    try:
        with swap.answer_key_for(package, pieces):
            return run()
    except Exception:
        return None


def _culprit_of_named(the_step, package, stand_ins, tries=8):
    """``(piece, step)``: the earlier piece whose answer-key version makes the failing check pass, or None.

    With every earlier piece swapped at once the check still fails: the mistake is this step's own
    (the usual case, one extra run). Otherwise try them one at a time, newest first, at most ``tries``
    of them (a count, not a time: the same code gets the same message on any machine).
    """
    from . import swap
    own = set(the_step.rewritten()) | {(file, name) for file, name, step in swap.answer_pieces()
                                       if step == the_step.id}
    earlier = [(file, name, step) for file, name, step in swap.answer_pieces(the_step.id)
               if step < the_step.id]
    earlier += [(file, name, before.id) for before in STEPS.values() if before.id < the_step.id
                for file, name in before.rewritten()]
    earlier = [(file, name, step) for file, name, step in earlier
               if (file, name) not in own and (file, name) not in stand_ins]

    def passes(pieces):
        return _sentence_with(lambda: the_step.check(package), package, pieces) is not None

    if not earlier or not passes({(file, name) for file, name, _ in earlier}):
        return None
    for file, name, step in sorted(earlier, key=lambda piece: piece[2], reverse=True)[:tries]:
        if passes({(file, name)}):
            return name, step
    return None


# ------------------------------------------------------------------ caching
# A verdict depends on the code the check ran. While a step is checked, a tracer notes which of
# your functions ran; the verdict is kept (in memory and in .buildtrack_cache/) with a hash of each
# of them and of the files' other code (imports, classes, names). Edit a function no check of a
# step ran, and that step's verdict comes back at once; edit one it ran, and it runs again.
# The tests and the tools keep theirs elsewhere (BUILDTRACK_CACHE_DIR), never in the learner's.
CACHE = pathlib.Path(os.environ.get("BUILDTRACK_CACHE_DIR") or NOTEBOOKS / ".buildtrack_cache")
KEEP = 40                                  # cached verdicts per step
_memory = {}


@functools.cache
def _checks_fingerprint():
    """The checks, the answer key and mini_autograd: a verdict made by other versions of them is stale."""
    digest = hashlib.sha256()
    for folder in (pathlib.Path(__file__).parent, ANSWER_KEY, NOTEBOOKS.parent / "mini_autograd"):
        for path in sorted(folder.rglob("*.py")):
            digest.update(path.read_bytes())
    for path in sorted(LOCALE.rglob("*.mo")):              # the translations of the messages
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _hash(text):
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@functools.lru_cache(maxsize=8)
def _package_index(directory, fingerprint):
    """``{file: (hash of the code outside functions, {function: (first line, hash of its body)})}``."""
    from .stubs import _functions, function_dumps
    index = {}
    for path in sorted(pathlib.Path(directory).glob("*.py")):
        try:
            tree = ast.parse(path.read_text())
        except SyntaxError:
            continue
        dumps = function_dumps(tree)
        functions = {name: (min([function.lineno] + [d.lineno for d in function.decorator_list]),
                            _hash(dumps[name]))
                     for name, function, _ in _functions(tree)}
        for _name, function, _class_doc in _functions(tree):
            function.body = []                      # what is left: imports, classes, names, signatures
        index[path.name] = (_hash(ast.dump(tree)), functions)
    return index


def _note_calls(package, directory, ran):
    """Make each function of the freshly loaded ``package`` add ``"file:Class.method"`` to ``ran`` the
    first time it is called (then it puts the original back), so a verdict knows what it depends on."""
    bindings = {}                                 # id(function) -> [(owner, name, how it was stored)]
    originals = {}
    for module_name, module in list(sys.modules.items()):
        if module_name != package.__name__ and not module_name.startswith(package.__name__ + "."):
            continue
        for name, value in list(vars(module).items()):
            owners = [(module, name, value)]
            if inspect.isclass(value) and value.__module__ == module_name:
                owners = [(value, attribute, stored) for attribute, stored in vars(value).items()]
            for owner, attribute, stored in owners:
                function = getattr(stored, "__func__", getattr(stored, "fget", stored))
                code = getattr(function, "__code__", None)
                if code is None or pathlib.Path(code.co_filename).parent != directory:
                    continue
                originals[id(function)] = function
                bindings.setdefault(id(function), []).append((owner, attribute, stored))

    def noted(function, key, places):
        @functools.wraps(function)
        def first_call(*args, **kwargs):
            ran.add(key)
            for owner, attribute, stored in places:          # from now on, the function itself
                setattr(owner, attribute, stored)
            return function(*args, **kwargs)
        return first_call

    for identity, places in bindings.items():
        function = originals[identity]
        file = pathlib.Path(function.__code__.co_filename).name
        wrapper = noted(function, f"{file}:{function.__qualname__}", places)
        for owner, attribute, stored in places:
            if isinstance(stored, property):
                replacement = property(wrapper, stored.fset, stored.fdel, stored.__doc__)
            elif isinstance(stored, (staticmethod, classmethod)):
                replacement = type(stored)(wrapper)
            else:
                replacement = wrapper
            setattr(owner, attribute, replacement)


def _digest(function, with_line):
    """A function's hash, with the line it starts on when the verdict's message may name a line."""
    first, digest = function
    return f"{first}:{digest}" if with_line else digest


def _dependencies(ran, index, with_lines):
    """``{"file" or "file:function": hash}`` of the functions that ran, and of each touched file's other
    code (imports, classes, names). ``with_lines``: a "wrong" message names a line of your code, so
    a function that moved (lines added above it) makes the verdict stale too."""
    found = {"__init__.py": index.get("__init__.py", ("", {}))[0]}
    for key in ran:
        file, _colon, name = key.partition(":")
        if file in index:
            skeleton, functions = index[file]
            found[file] = skeleton
            if name in functions:
                found[key] = _digest(functions[name], with_lines)
    return found


def _still_valid(entry, index, stand_ins):
    if entry["checks"] != _checks_fingerprint() or entry["stand_ins"] != stand_ins:
        return False
    if entry.get("language", "en") != language():          # a message is in one language
        return False
    with_lines = entry["verdict"]["status"] != "done"
    for key, digest in entry["dependencies"].items():
        file, _colon, name = key.partition(":")
        skeleton, functions = index.get(file, (None, {}))
        if name:
            function = functions.get(name)
            now = None if function is None else _digest(function, with_lines)
        else:
            now = skeleton
        if now != digest:
            return False
    return True


def _entries(step_id):
    if step_id not in _memory:
        _memory[step_id] = []
        path = CACHE / f"{step_id}.json"
        if os.environ.get("BUILDTRACK_CACHE", "1") != "0" and path.exists():
            with contextlib.suppress(ValueError, OSError):
                _memory[step_id] = json.loads(path.read_text())
    return _memory[step_id]


def _remember(step_id, entry):
    entries = _entries(step_id)
    entries.insert(0, entry)
    del entries[KEEP:]
    if os.environ.get("BUILDTRACK_CACHE", "1") == "0":
        return
    with contextlib.suppress(OSError):                # a read-only checkout: memory only
        CACHE.mkdir(exist_ok=True)
        temporary = CACHE / f"{step_id}.json.{os.getpid()}"
        temporary.write_text(json.dumps(entries))
        os.replace(temporary, CACHE / f"{step_id}.json")


def _cached(step_id, directory, fingerprint):
    """The step's verdict: remembered if the code its check ran is unchanged, else run now."""
    from .swap import unwritten
    directory = pathlib.Path(directory).resolve()
    index = _package_index(directory, fingerprint)
    stand_ins = sorted(f"{file}:{name}" for file, name in unwritten(directory, fingerprint))
    for entry in _entries(step_id):
        if _still_valid(entry, index, stand_ins):
            return Verdict(**entry["verdict"])
    from .swap import answer_pieces
    the_step = STEPS[step_id]
    # What ran, and what the step reads without running it (its pieces, whether rewritten yet).
    ran = {f"{file}:{name}" for file, name, step in answer_pieces() if step == step_id}
    ran |= {f"{file}:{name}" for file, name in the_step.rewritten()}
    result = _run_one(the_step, directory, ran)
    if not getattr(result, "kept", True):
        return result                             # (nothing ran, or a slow machine: not kept)
    _remember(step_id, {"checks": _checks_fingerprint(), "stand_ins": stand_ins, "language": language(),
                        "dependencies": _dependencies(ran, index, result.status != "done"),
                        "verdict": dataclasses.asdict(result)})
    return result


def verdict(step_id, directory):
    """The step's verdict, with the earlier steps it needs first: a step after an unfinished one waits."""
    if step_id not in STEPS:
        raise KeyError(_("no step {step!r}; the steps are {steps}").format(
            step=step_id, steps=", ".join(STEPS)))
    fingerprint = _fingerprint(directory)
    for earlier_id in STEPS[step_id].needs():
        result = _cached(earlier_id, directory, fingerprint)
        if result.status == "todo":
            return Verdict("todo", _("finish step {step} ({title}) first: it is not done yet.").format(
                step=earlier_id, title=_(STEPS[earlier_id].title)))
        if result.status == "wrong":
            # Perhaps broken by this very step's rewrite of shared code: if this step's own check names
            # a mistake, that message is the more useful one.
            own = _cached(step_id, directory, fingerprint)
            if own.status == "wrong" and not own.differential:
                return Verdict("wrong", _("{message} (Step {step} fails its check now too.)").format(
                    message=own.message, step=earlier_id))
            return Verdict("wrong", _("step {step} ({title}) fails its check now: {message}").format(
                step=earlier_id, title=_(STEPS[earlier_id].title), message=result.message))
    return _cached(step_id, directory, fingerprint)
