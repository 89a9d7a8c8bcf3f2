"""Verdicts kept: a step's verdict stands while the code its check ran is unchanged, in memory and in
``notebooks/.buildtrack_cache/``. ``verdict(step, directory)`` is what the chapters and tools call: it
checks the earlier steps a step waits for first.
"""
import ast
import contextlib
import dataclasses
import functools
import hashlib
import inspect
import json
import os
import pathlib
import sys

from . import stubs
from .i18n import LOCALE, _, language
from .package import ANSWER_KEY, NOTEBOOKS, fingerprint
from .steps import STEPS
from .swap import answer_pieces, unwritten
from .verdicts import Verdict, run_one

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
def checks_fingerprint():
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
    index = {}
    for path in sorted(pathlib.Path(directory).glob("*.py")):
        try:
            tree = ast.parse(path.read_text())
        except (SyntaxError, ValueError, UnicodeDecodeError):   # (the verdicts say what is wrong)
            continue
        dumps = stubs.function_dumps(tree)
        functions = {name: (min([function.lineno] + [d.lineno for d in function.decorator_list]),
                            _hash(dumps[name]))
                     for name, function, _ in stubs.functions_of(tree)}
        for _name, function, _class_doc in stubs.functions_of(tree):
            function.body = []                      # what is left: imports, classes, names, signatures
        index[path.name] = (_hash(ast.dump(tree)), functions)
    return index


def note_calls(package, directory, ran):
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
    if entry["checks"] != checks_fingerprint() or entry["stand_ins"] != stand_ins:
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
    directory = pathlib.Path(directory).resolve()
    index = _package_index(directory, fingerprint)
    stand_ins = sorted(f"{file}:{name}" for file, name in unwritten(directory, fingerprint))
    for entry in _entries(step_id):
        if _still_valid(entry, index, stand_ins):
            return Verdict(**entry["verdict"])
    the_step = STEPS[step_id]
    # What ran, and what the step reads without running it (its pieces, whether rewritten yet).
    ran = {f"{file}:{name}" for file, name, step in answer_pieces() if step == step_id}
    ran |= {f"{file}:{name}" for file, name in the_step.rewritten()}
    result = run_one(the_step, directory, on_load=lambda package: note_calls(package, directory, ran))
    if not getattr(result, "kept", True):
        return result                             # (nothing ran, or a slow machine: not kept)
    _remember(step_id, {"checks": checks_fingerprint(), "stand_ins": stand_ins, "language": language(),
                        "dependencies": _dependencies(ran, index, result.status != "done"),
                        "verdict": dataclasses.asdict(result)})
    return result


def verdict(step_id, directory, own_words=True):
    """The step's verdict, with the earlier steps it needs first: a step after an unfinished one waits.
    After a failing earlier step, the step's own check runs too, for its words (``own_words``; the grader,
    for whom the step is 0 either way, skips it)."""
    if step_id not in STEPS:
        raise KeyError(_("no step {step!r}; the steps are {steps}").format(
            step=step_id, steps=", ".join(STEPS)))
    directory_fingerprint = fingerprint(directory)
    for earlier_id in STEPS[step_id].needs():
        result = _cached(earlier_id, directory, directory_fingerprint)
        if result.status == "todo":
            return Verdict("todo", _("finish step {step} ({title}) first: it is not done yet.").format(
                step=earlier_id, title=_(STEPS[earlier_id].title)), waits_for=earlier_id)
        if result.status == "wrong":
            # Perhaps broken by this very step's rewrite of shared code: if this step's own check names
            # a mistake, that message is the more useful one.
            own = _cached(step_id, directory, directory_fingerprint) if own_words else None
            if own is not None and own.status == "wrong" and not own.differential:
                return Verdict("wrong", _("{message} (Step {step} fails its check now too.)").format(
                    message=own.message, step=earlier_id))
            message = _("step {step} ({title}) fails its check now: {message}").format(
                step=earlier_id, title=_(STEPS[earlier_id].title), message=result.message)
            return Verdict("wrong", message, waits_for=earlier_id)
    return _cached(step_id, directory, directory_fingerprint)


def every_verdict(directory, each=None, own_words=True):
    """``{step: Verdict}`` for every step, in order, blamed (``with_blame``). ``each(step, verdict)`` is
    called as each verdict is made (the grader streams them)."""
    verdicts = {}
    for step_id in STEPS:
        verdicts[step_id] = verdict(step_id, directory, own_words)
        if each is not None:
            each(step_id, verdicts[step_id])
    return with_blame(verdicts)


def with_blame(verdicts):
    """``verdicts`` where a later check that found the mistake in an earlier step's piece marks that step
    wrong too (the progress table and the grader show the same)."""
    verdicts = dict(verdicts)
    for step_id, result in list(verdicts.items()):
        blamed = result.culprit_step
        if blamed and blamed != step_id and verdicts.get(blamed) and verdicts[blamed].status == "done":
            verdicts[blamed] = Verdict("wrong", _("step {step}'s check found a mistake in this step's "
                                                  "code: see step {step}.").format(step=step_id))
    return verdicts
