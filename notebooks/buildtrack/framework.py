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
import hashlib
import importlib
import inspect
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

NOTEBOOKS = pathlib.Path(__file__).resolve().parent.parent
LEARNER_PACKAGE = NOTEBOOKS / "myautograd"
ANSWER_KEY = NOTEBOOKS.parent / "answers" / "myautograd"
PACKAGE_NAME = "myautograd"
SECONDS_PER_STEP = 20

STUB_MESSAGE = re.compile(r"Step (\d\d\.\d): (\S+)")


class Wrong(Exception):
    """The piece runs, but its result is not what PyTorch (or mini_autograd) gives."""


@dataclass
class Step:
    id: str            # "02.2": chapter 02, second step
    title: str         # what the learner writes, in a few words
    pieces: str        # the stubs to fill in, e.g. "Function.apply in function.py"
    check: callable    # check(package) -> sentence, or raises
    rewrites: tuple = ()   # ("file.py", "Class.method"): pieces that ship working and this step rewrites
    uses: dict = None      # {"engine.run_backward": "release_saved"}: a rewrite of the learner's own code

    @property
    def chapter(self):
        return self.id[:2]


STEPS = {}


def step(step_id, title, pieces, rewrites=(), uses=None):
    """Register a check function as the check of one step.

    A step that asks the learner to rewrite code that already runs cannot see a
    ``NotImplementedError``; it is "not done yet" while ``rewrites`` (shipped
    pieces) are still as shipped, or while each function named in ``uses`` does not
    yet mention its word (``"engine.run_backward": "release_saved"``).
    """
    def register(check):
        STEPS[step_id] = Step(step_id, title, pieces, check, tuple(rewrites), uses or {})
        return check
    return register


def _not_started(the_step, package, directory):
    """Why a rewrite step has not been started, or None."""
    from .stubs import function_dumps, shipped_functions
    for file, name in the_step.rewrites:
        shipped = shipped_functions((ANSWER_KEY / file).read_text()).get(name)
        mine = function_dumps(ast.parse((pathlib.Path(directory) / file).read_text())).get(name)
        if shipped is not None and mine == shipped:
            return (f"not done yet: rewrite {name} in myautograd/{file} "
                    "(it is still the version it shipped with).")
    for qualified, word in the_step.uses.items():
        target = package
        for part in qualified.split("."):
            target = getattr(target, part)
        function = ast.parse(textwrap.dedent(inspect.getsource(getattr(target, "fget", target)))).body[0]
        if ast.get_docstring(function):
            function.body = function.body[1:]
        if word not in ast.unparse(function):                # code only: no docstring, no comments
            short = qualified.split(".", 1)[-1] if "." in qualified else qualified
            return f"not done yet: {short} does not use {word} yet."
    return None


@dataclass
class Verdict:
    status: str        # "done", "todo" or "wrong"
    message: str
    differential: bool = False   # found by a random program (differential.py), not by a named scenario

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
def _learner_frame(tb, directory):
    """``myautograd/engine.py, line 57, in run_backward``: the last frame of the learner's package."""
    where = None
    for frame in traceback.extract_tb(tb):
        path = pathlib.Path(frame.filename)
        if path.parent == directory:
            where = f"{PACKAGE_NAME}/{path.name}, line {frame.lineno}, in {frame.name}"
    return where


def _stub_step(error):
    """``("02.2", "Function.apply")`` when ``error`` comes from a shipped stub, else None."""
    found = STUB_MESSAGE.match(str(error)) if isinstance(error, NotImplementedError) else None
    return found.groups() if found else None


@contextlib.contextmanager
def _time_limit(seconds):
    """Stop a check that runs too long (an endless loop), where signals allow it."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    def stop(signum, frame):
        raise TimeoutError(f"took more than {seconds} s")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _run_one(the_step, directory):
    """The verdict of one step on the package in ``directory``, earlier steps not considered."""
    directory = pathlib.Path(directory).resolve()
    try:
        package = load(directory)
    except Exception as error:                                  # a syntax error, say
        where = _learner_frame(error.__traceback__, directory)
        if isinstance(error, SyntaxError):
            where = f"{PACKAGE_NAME}/{pathlib.Path(error.filename or '?').name}, line {error.lineno}"
        return Verdict("wrong", f"myautograd does not import: {type(error).__name__}: {error}"
                       + (f" ({where})" if where else ""))
    try:
        not_started = _not_started(the_step, package, directory)
        if not_started:
            return Verdict("todo", not_started)
        with _time_limit(SECONDS_PER_STEP), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            sentence = the_step.check(package)
            from . import differential          # (it imports this module)
            if the_step.id in differential.STEPS:
                differential.check(package, the_step.id)
    except Wrong as error:
        return Verdict("wrong", str(error), getattr(error, "differential", False))
    except RecursionError as error:
        where = _learner_frame(error.__traceback__, directory)
        return Verdict("wrong", f"RecursionError ({where}): Python ran out of nested calls. "
                       "The engine must use a loop and a list as its stack, not call itself.")
    except TimeoutError:
        return Verdict("wrong", f"the check took more than {SECONDS_PER_STEP} s: is there an endless loop "
                       "(a node put back on the stack or queue again and again)?")
    except Exception as error:
        stub = _stub_step(error)
        if stub is not None:
            stub_id, piece = stub
            if stub_id != the_step.id:
                return Verdict("todo", f"{piece} (step {stub_id}) is not written yet.")
            where = _learner_frame(error.__traceback__, directory)
            if where is None:                           # several pieces at once, named by the check
                return Verdict("todo", f"not done yet: fill in {the_step.pieces}.")
            return Verdict("todo", f"not done yet: fill in {piece} in {where.split(',')[0]}.")
        where = _learner_frame(error.__traceback__, directory)
        return Verdict("wrong",
                       f"{type(error).__name__}: {error}" + (f" (raised in {where})" if where else ""))
    return Verdict("done", sentence)


_cache = {}


def _cached(step_id, directory, fingerprint):
    key = (step_id, str(directory), fingerprint)
    if key not in _cache:
        _cache[key] = _run_one(STEPS[step_id], directory)
    return _cache[key]


def verdict(step_id, directory):
    """The step's verdict, with earlier steps first: a step after an unfinished one waits for it."""
    if step_id not in STEPS:
        raise KeyError(f"no step {step_id!r}; the steps are {', '.join(STEPS)}")
    fingerprint = _fingerprint(directory)
    for earlier_id in list(STEPS)[:list(STEPS).index(step_id)]:
        result = _cached(earlier_id, directory, fingerprint)
        if result.status == "todo":
            return Verdict("todo",
                           f"finish step {earlier_id} ({STEPS[earlier_id].title}) first: it is not done yet.")
        if result.status == "wrong":
            # Perhaps broken by this very step's rewrite of shared code: if this step's own check names
            # a mistake, that message is the more useful one.
            own = _cached(step_id, directory, fingerprint)
            if own.status == "wrong" and not own.differential:
                return Verdict("wrong", f"{own.message} (Step {earlier_id} fails its check now too.)")
            return Verdict("wrong", f"step {earlier_id} ({STEPS[earlier_id].title}) fails its check now: "
                           f"{result.message}")
    return _cached(step_id, directory, fingerprint)
