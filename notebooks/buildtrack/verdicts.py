"""One step's verdict on a package: its checks run, with stand-ins for the pieces not written yet and within
a limit of CPU time; a failure is explained (the smallest program, the piece at fault) and put in words.

Anything the learner's code raises becomes a ❌ naming the exception and the line of ``myautograd`` it came
from. No verdict ever shows a traceback.
"""
import contextlib
import pathlib
import re
import signal
import threading
import traceback
import warnings
from dataclasses import dataclass

from . import cases, corpus, differential, swap
from .i18n import _
from .package import PACKAGE_NAME, Wrong, learner_frame, load
from .steps import STEPS, rewritten_later, still_shipped, word_missing

SECONDS_PER_STEP = 20

STUB_MESSAGE = re.compile(r"Step (\d\d\.\d): (\S+)")


class CheckTimeout(BaseException):
    """A check used up its CPU time. Not an ``Exception``: no ``except Exception`` on the way (in the
    learner's code, or hypothesis taking it for a failing case to shrink) can swallow it."""


@dataclass
class Verdict:
    status: str        # "done", "todo" or "wrong"
    message: str
    differential: bool = False   # found by a random program (differential.py), not by a named scenario
    culprit_step: str = None     # the step whose piece the failure comes from, when it is another one
    waits_for: str = None        # the earlier step this verdict is about ("finish step 01.1 first")

    @property
    def mark(self):
        return {"done": "✅", "todo": "⏳", "wrong": "❌"}[self.status]


def check_line(tb):
    """The line of a step's check (``ch*.py``) that called the code that raised: the case it was trying
    (``leaf.backward()``), or None."""
    found = None
    for frame in traceback.extract_tb(tb):
        path = pathlib.Path(frame.filename)
        if path.parent == pathlib.Path(__file__).parent and path.name.startswith("ch"):
            found = frame.line or None
    return found


def stub_step(error):
    """``("02.2", "Function.apply")`` when ``error`` comes from a shipped stub, else None."""
    found = STUB_MESSAGE.match(str(error)) if isinstance(error, NotImplementedError) else None
    return found.groups() if found else None


@contextlib.contextmanager
def time_limit(seconds):
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


def run_one(the_step, directory, on_load=None):
    """The verdict of one step on the package in ``directory``, earlier steps not considered. ``on_load``:
    called with the package once it is loaded, before the checks run (the cache notes the calls then).

    Pieces of other steps that are still stubs run as the answer key's (``swap.unwritten``): a step
    never waits for a later one, nor for an earlier one it does not need (``Step.after``).
    """
    directory = pathlib.Path(directory).resolve()
    try:
        package = load(directory)
    except Exception as error:                                  # a syntax error, say
        where = learner_frame(error.__traceback__, directory)
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
    if on_load is not None:
        on_load(package)
    shipped = still_shipped(the_step, directory)
    if shipped:
        return Verdict("todo", shipped)
    step_of = {(file, name): step for file, name, step in swap.answer_pieces()}
    stand_ins = {piece for piece in swap.unwritten(directory) if step_of[piece] != the_step.id}
    later_stand_ins = {piece for piece in stand_ins if step_of[piece] > the_step.id}
    written = {name for file, name, step in swap.answer_pieces(the_step.id) if (file, name) not in stand_ins}
    calls_to_later = []           # (your piece, a later step's piece it calls, still a stub)
    try:
        with time_limit(SECONDS_PER_STEP), warnings.catch_warnings(), \
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
                        raise answered_two_ways(error) from None
                    if isinstance(error, Wrong) and not getattr(error, "differential", False):
                        error.culprit = _culprit_of_named(the_step, package, stand_ins)
                    raise
    except Wrong as error:
        missing = word_missing(the_step, package)
        if missing:
            function, word = missing
            later = rewritten_later(the_step, package, function)
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
        where = learner_frame(error.__traceback__, directory)
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
        stub = stub_step(error)
        if stub is not None:
            stub_id, piece = stub
            if stub_id != the_step.id:
                return Verdict("todo", _("{piece} (step {step}) is not written yet.").format(
                    piece=piece, step=stub_id))
            where = learner_frame(error.__traceback__, directory, file_only=True)
            if where is None:                           # several pieces at once, named by the check
                return Verdict("todo", _("not done yet: fill in {pieces}.").format(pieces=_(the_step.pieces)))
            return Verdict("todo", _("not done yet: fill in {piece} in {file}.").format(
                piece=piece, file=where))
        where = learner_frame(error.__traceback__, directory)
        case = check_line(error.__traceback__)
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


def answered_two_ways(error):
    """The verdict when a random program differed once and the same checks, run again, all agreed: your code
    gave two answers to one program (an order that depends on id() or on a set's order, say)."""
    program, found, _theirs = error.first_failure
    wrong = Wrong(differential.message(program, found, None) + "\n\n" + _(
        "Run again, the same program agreed: your myautograd gives different results from one run to the "
        "next. Does its order depend on something that changes from run to run, such as id() of objects or "
        "the order of a set?"))
    wrong.differential = True
    return wrong


def _checks(the_step, package, explain=True):
    """The step's named scenarios, its random programs (``differential``), then the programs of the
    course's own tests that it can run (``corpus``). ``explain=False``: a
    random program that differs raises at once, unexplained (no smallest program, no culprit): the
    costly part waits until the failure is known to be this step's."""
    sentence = the_step.check(package)
    differential.check_step(package, the_step, explain)
    corpus.check_step(package, the_step)
    return sentence


def _passes_without_later_pieces(the_step, package, stand_ins, error):
    """The step's sentence if its checks pass with every piece of a later step from the answer key, else
    None. (Not for a stub of this step: that is a verdict already.)"""
    stub = stub_step(error)
    if stub is not None and stub[0] == the_step.id:
        return None
    later = {(file, name) for file, name, step in swap.answer_pieces() if step > the_step.id}
    if not later - stand_ins:
        return None
    return _sentence_with(lambda: _checks(the_step, package, explain=False), package, later - stand_ins)


def _sentence_with(run, package, pieces):
    """What ``run()`` returns with ``pieces`` from the answer key, or None if it raises (a failing case is
    not shrunk: only whether it passes counts here)."""
    try:
        with swap.answer_key_for(package, pieces), cases.without_shrinking():
            return run()
    except Exception:
        return None


def _culprit_of_named(the_step, package, stand_ins, tries=8):
    """``(piece, step)``: the earlier piece whose answer-key version makes the failing check pass, or None.

    With every earlier piece swapped at once the check still fails: the mistake is this step's own
    (the usual case, one extra run). Otherwise try them one at a time, newest first, at most ``tries``
    of them (a count, not a time: the same code gets the same message on any machine).
    """
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
