"""Random cases for the checks of chapters 10 and 11, and the small tools their messages share.

``smallest_failure`` draws cases with hypothesis (derandomized, no database: the same code always
gets the same verdict), shrinks a failing one, and returns the message of the smallest it found.
hypothesis never speaks for itself: its own complaints (Flaky, a health check) are about the check.
"""
import contextlib
import pathlib

import numpy as np

from .i18n import _
from .package import Wrong, learner_frame


class _Stop(BaseException):
    """Carries an error that ends the search at once (a stub, a Wrong) past hypothesis."""


SHRINK_TRIES = 100          # cases tried to make a failing case smaller, at most (a count, not a time:
                            # the same code gets the same message on any machine)
_shrinking = [True]         # False while a verdict only asks whether a check passes (verdicts.py)


@contextlib.contextmanager
def without_shrinking():
    """Inside, a failing case is not made smaller: the first one found ends the search. For the reruns that
    only ask whether a check passes (with other pieces swapped in); the message comes from the first run."""
    _shrinking.append(False)
    try:
        yield
    finally:
        _shrinking.pop()


def smallest_failure(strategy, trial, examples):
    """The message of the smallest case on which ``trial`` (case -> None, or a message, or a function that
    makes it) finds a difference. None when every case agrees.

    hypothesis draws ``examples`` cases, derandomized and without a database, and shrinks a failing one to
    the smallest that still fails, trying SHRINK_TRIES cases at most. Its own complaints (Flaky, a health
    check) are about the check, never the learner's code: then the failures noted so far count.
    """
    from hypothesis import HealthCheck, given, settings
    failures, tried_since = [], []

    @settings(database=None, derandomize=True, max_examples=examples, deadline=None,
              suppress_health_check=list(HealthCheck), print_blob=False, report_multiple_bugs=False)
    @given(strategy)
    def agrees(case):
        if failures:
            tried_since.append(case)
            if len(tried_since) > (SHRINK_TRIES if _shrinking[-1] else 0):
                raise _Stop(None)                        # small enough: the last failure is the smallest yet
        try:
            problem = trial(case)
        except (NotImplementedError, RecursionError, Wrong) as error:
            raise _Stop(error) from None
        if problem is not None:
            failures.append(problem)
            raise AssertionError("differs")

    try:
        agrees()
    except _Stop as stop:
        if stop.args[0] is not None:
            raise stop.args[0] from None
    except Exception:               # AssertionError("differs"), or hypothesis' own Flaky...: see failures
        pass
    if not failures:
        return None
    return failures[-1]() if callable(failures[-1]) else failures[-1]


def raised(m, error):
    """``raised TypeError: ... (myautograd/nn.py, line 40, in cross_entropy)``."""
    where = learner_frame(error.__traceback__, pathlib.Path(m.__file__).resolve().parent)
    words = str(error).splitlines()[0] if str(error) else ""
    if where:
        return _("raised {error_type}: {words} ({where})").format(
            error_type=type(error).__name__, words=words, where=where)
    return _("raised {error_type}: {words}").format(error_type=type(error).__name__, words=words)


def close(got, want, rtol=1e-4, atol=1e-5):
    got, want = np.asarray(got, dtype=float), np.asarray(want, dtype=float)
    return got.shape == want.shape and np.allclose(got, want, rtol=rtol, atol=atol, equal_nan=True)


def dtype_name(t):
    return str(getattr(t, "dtype", "?")).replace("torch.", "")


def quarters(values_):
    """Numbers rounded to quarters: exact in float32 and float64, short in a message."""
    return np.round(np.asarray(values_, dtype=float) * 4) / 4
