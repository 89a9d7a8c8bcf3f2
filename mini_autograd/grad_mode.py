"""Grad modes: switches that decide whether operations record a graph.

PyTorch counterpart: torch/autograd/grad_mode.py (``no_grad``, ``enable_grad``,
``set_grad_enabled``, ``inference_mode``) over c10/core/GradMode.h and
c10/core/InferenceMode.h. Each thread has its own switches, as in PyTorch.
"""
import functools
import inspect
import threading

class _ThreadState(threading.local):
    """The switches of one thread; every new thread starts from these defaults."""
    grad_enabled = True
    inference_mode = False


_state = _ThreadState()


def is_grad_enabled():
    """True when new operations are recorded in the graph (the default)."""
    return _state.grad_enabled


def is_inference_mode_enabled():
    """True inside ``inference_mode()``."""
    return _state.inference_mode


def _set_grad_enabled(mode):
    _state.grad_enabled = bool(mode)


class _DecoratorContextManager:
    """A context manager that also works as a decorator, with or without parentheses."""

    def __new__(cls, *args, **kwargs):
        # ``@no_grad`` without parentheses passes the function itself.
        if cls is not set_grad_enabled and len(args) == 1 and callable(args[0]) and not kwargs:
            return cls()(args[0])
        return super().__new__(cls)

    def clone(self):
        return self.__class__()

    def __call__(self, func):
        if inspect.isgeneratorfunction(func):
            @functools.wraps(func)
            def decorated_generator(*args, **kwargs):
                generator = func(*args, **kwargs)
                while True:
                    with self.clone():               # the mode holds while the generator runs
                        try:
                            value = next(generator)
                        except StopIteration as stop:
                            return stop.value
                    yield value

            return decorated_generator

        @functools.wraps(func)
        def decorated(*args, **kwargs):
            with self.clone():
                return func(*args, **kwargs)

        return decorated


class no_grad(_DecoratorContextManager):
    """Inside it, operations are not recorded: results have ``requires_grad=False``."""

    def __enter__(self):
        self.prev = is_grad_enabled()
        _set_grad_enabled(False)

    def __exit__(self, *exc):
        _set_grad_enabled(self.prev)


class enable_grad(_DecoratorContextManager):
    """Turns recording back on, for example inside a ``no_grad`` block."""

    def __enter__(self):
        self.prev = is_grad_enabled()
        _set_grad_enabled(True)

    def __exit__(self, *exc):
        _set_grad_enabled(self.prev)


class set_grad_enabled(_DecoratorContextManager):
    """Sets grad mode on or off; takes effect at once, and is undone on ``__exit__``."""

    def __init__(self, mode):
        self.prev = is_grad_enabled()
        self.mode = bool(mode)
        _set_grad_enabled(self.mode)

    def clone(self):
        return self.__class__(self.mode)

    def __call__(self, func):
        _set_grad_enabled(self.prev)   # as a decorator, the mode applies only inside the calls
        return super().__call__(func)

    def __enter__(self):
        pass

    def __exit__(self, *exc):
        _set_grad_enabled(self.prev)


class inference_mode(_DecoratorContextManager):
    """Like ``no_grad``, and the tensors made inside are marked as inference tensors.

    PyTorch gives inference tensors no version counter at all; here they keep one,
    but as in PyTorch they can never be saved for backward later.
    """

    def __init__(self, mode=True):
        self.mode = bool(mode)

    def clone(self):
        return self.__class__(self.mode)

    def __enter__(self):
        self.prev = (is_grad_enabled(), is_inference_mode_enabled())
        _state.inference_mode = self.mode
        _set_grad_enabled(not self.mode)

    def __exit__(self, *exc):
        _set_grad_enabled(self.prev[0])
        _state.inference_mode = self.prev[1]
