"""(given) Making tensors. PyTorch counterparts: torch.tensor, torch.ones, ... (ATen factories)."""
import numpy as np

from mini_autograd.creation import empty as _reference_empty, randn as _reference_randn
from mini_autograd.creation import tensor as _reference_tensor   # dtype inference, as torch.tensor does it
from mini_autograd.random import Generator

from .tensor import Tensor

_generator = Generator()   # PyTorch's generator (mt19937): a seed gives PyTorch's numbers


def _check_switch(function, requires_grad):
    """PyTorch's argument check: ``requires_grad`` is True or False, not 1 nor None."""
    if not isinstance(requires_grad, bool):
        kind = type(requires_grad)
        name = f"numpy.{kind.__name__}" if isinstance(requires_grad, np.generic) else kind.__name__
        raise TypeError(f"{function}(): argument 'requires_grad' must be bool, not {name}")


def tensor(data, dtype=None, requires_grad=False):
    """A new leaf tensor holding a copy of ``data``: ``tensor([1., 2.], requires_grad=True)``."""
    _check_switch("tensor", requires_grad)
    return Tensor(_reference_tensor(data, dtype=dtype).numpy().copy(), requires_grad=requires_grad)


def _filled(value, size, dtype, requires_grad, function):
    _check_switch(function, requires_grad)
    shape = tuple(size[0]) if len(size) == 1 and isinstance(size[0], (tuple, list)) else size
    numpy_dtype = np.float32 if dtype is None else dtype.numpy
    return Tensor(np.full(shape, value, dtype=numpy_dtype), requires_grad=requires_grad)


def zeros(*size, dtype=None, requires_grad=False):
    return _filled(0, size, dtype, requires_grad, "zeros")


def ones(*size, dtype=None, requires_grad=False):
    return _filled(1, size, dtype, requires_grad, "ones")


def ones_like(t, requires_grad=False):
    _check_switch("ones_like", requires_grad)
    return Tensor(np.ones_like(t._data), requires_grad=requires_grad)


def zeros_like(t, requires_grad=False):
    _check_switch("zeros_like", requires_grad)
    return Tensor(np.zeros_like(t._data), requires_grad=requires_grad)


def manual_seed(seed):
    """Seed the generator that randn and uniform draw from: torch.manual_seed."""
    return _generator.manual_seed(seed)


def randn(*size, dtype=None, requires_grad=False):
    """Numbers drawn from the standard normal distribution, PyTorch's for the same seed: torch.randn."""
    drawn = _reference_randn(*size, dtype=dtype, generator=_generator)
    return Tensor(drawn.numpy(), requires_grad=requires_grad)


def uniform(low, high, shape):
    """Numbers drawn uniformly from [low, high), float32, PyTorch's for the same seed:
    ``torch.empty(shape).uniform_(low, high)``.
    """
    drawn = Tensor(_reference_empty(shape).uniform_(low, high, generator=_generator).numpy())
    drawn._version = 1           # (written in place once, by uniform_, as in PyTorch)
    return drawn
