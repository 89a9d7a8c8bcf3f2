"""The machinery behind the build track's checks: steps, verdicts, loading the learner's package.

A step's check is a function that takes the freshly loaded ``myautograd`` package
and either returns a sentence (done) or raises:

- ``Wrong(message)``: the piece runs but behaves wrongly; the message names the
  likely mistake;
- ``NotImplementedError`` from a stub: the piece is not written yet.

Anything else the learner's code raises becomes a ❌ naming the exception and
the line of ``myautograd`` it came from. No verdict ever shows a traceback.
"""
import contextlib
import hashlib
import importlib
import os
import pathlib
import re
import signal
import sys
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

    @property
    def chapter(self):
        return self.id[:2]


STEPS = {}


def step(step_id, title, pieces):
    """Register a check function as the check of one step."""
    def register(check):
        STEPS[step_id] = Step(step_id, title, pieces, check)
        return check
    return register


@dataclass
class Verdict:
    status: str        # "done", "todo" or "wrong"
    message: str

    @property
    def mark(self):
        return {"done": "✅", "todo": "⏳", "wrong": "❌"}[self.status]


# ----------------------------------------------------------------- loading
def package_dir(answers=False):
    """The learner's package, or the answer key (also when BUILDTRACK_ANSWERS=1, as in CI's run of the chapters)."""
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
    importlib.invalidate_caches()
    sys.path.insert(0, str(directory.parent))
    try:
        return importlib.import_module(PACKAGE_NAME)
    finally:
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
        with _time_limit(SECONDS_PER_STEP), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            sentence = the_step.check(package)
    except Wrong as error:
        return Verdict("wrong", str(error))
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
            place = f"in {where.split(',')[0]}" if where else f"({the_step.pieces})"
            return Verdict("todo", f"not done yet: fill in {piece} {place}.")
        where = _learner_frame(error.__traceback__, directory)
        return Verdict("wrong", f"{type(error).__name__}: {error}" + (f" (raised in {where})" if where else ""))
    return Verdict("done", sentence)


_cache = {}


def verdict(step_id, directory):
    """The step's verdict, with earlier steps first: a step after an unfinished one waits for it."""
    fingerprint = _fingerprint(directory)
    for earlier_id in STEPS:
        key = (earlier_id, str(directory), fingerprint)
        if key not in _cache:
            _cache[key] = _run_one(STEPS[earlier_id], directory)
        result = _cache[key]
        if earlier_id == step_id:
            return result
        if result.status != "done":
            state = "it is not done yet" if result.status == "todo" else "it fails its check"
            return Verdict("todo", f"finish step {earlier_id} ({STEPS[earlier_id].title}) first: {state}.")
    raise KeyError(f"no step {step_id!r}; the steps are {', '.join(STEPS)}")
