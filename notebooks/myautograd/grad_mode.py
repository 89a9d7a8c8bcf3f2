"""Grad mode: the switch that decides whether operations are recorded.

PyTorch counterpart: torch/autograd/grad_mode.py (``no_grad``) over c10/core/GradMode.h.
Each thread has its own switch, as in PyTorch.
"""
import threading


class _ThreadState(threading.local):
    """(given) The switch of one thread; every new thread starts with recording on."""
    grad_enabled = True


_state = _ThreadState()


def is_grad_enabled():
    """(given) True when new operations are recorded in the graph (the default)."""
    return _state.grad_enabled


def set_grad_enabled(mode):
    """(given) Switch recording on or off from here on. PyTorch: torch.set_grad_enabled."""
    _state.grad_enabled = bool(mode)


class no_grad:
    """Step 06.1: a ``with`` block inside which nothing is recorded.

    PyTorch: torch.no_grad (torch/autograd/grad_mode.py).
    ``__enter__`` switches recording off (``_state.grad_enabled = False``) and
    ``__exit__`` puts back whatever it was before: blocks can be nested, and
    no_grad can be used inside code that already runs with recording off.
    Hint: remember the previous value on ``self`` in ``__enter__``.
    """

    def __enter__(self):
        raise NotImplementedError("Step 06.1: no_grad.__enter__")

    def __exit__(self, *exc_info):
        raise NotImplementedError("Step 06.1: no_grad.__exit__")
