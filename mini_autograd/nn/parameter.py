"""``Parameter``: the tensor type of a module's learnable weights.

PyTorch counterpart: torch/nn/parameter.py.
"""
import numpy as np

from .._tensor import Tensor


class _PrintedAsPyTorch(type):
    """``type(param)`` prints as PyTorch's class, ``<class 'torch.nn.parameter.Parameter'>`` (a program
    that prints it, as d2l's parameter chapter does, shows what PyTorch shows); subclasses print as usual."""

    def __repr__(cls):
        return "<class 'torch.nn.parameter.Parameter'>" if cls.__name__ == "Parameter" and \
            cls.__module__ == __name__ else super().__repr__()


class Parameter(Tensor, metaclass=_PrintedAsPyTorch):
    """A leaf tensor that requires grad and that a ``Module`` registers when assigned to it.

    ``Parameter(t)`` shares ``t``'s data (and version counter) but is a fresh leaf,
    whatever ``t``'s history. Results of operations on a Parameter are plain Tensors.
    """

    __slots__ = ()

    def __init__(self, data=None, requires_grad=True):
        if data is None:
            data = Tensor(np.empty(0, dtype=np.float32))
        if not isinstance(data, Tensor):
            raise TypeError(f"Parameter(data) expects a Tensor, not {type(data).__name__}")
        super().__init__(data._data)
        self._version_counter = data._version_counter
        if requires_grad:
            if not data.dtype.is_floating_point:
                raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
            self._requires_grad = True

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()
