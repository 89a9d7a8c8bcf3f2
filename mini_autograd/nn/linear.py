"""``Linear``: y = x @ W.T + b.

PyTorch counterpart: torch/nn/modules/linear.py.
"""
import math

import numpy as np

from .._device import check_device
from .._tensor import Tensor
from . import functional as F, init
from .module import Module
from .parameter import Parameter


class Linear(Module):
    """A fully connected layer: ``weight`` (out_features, in_features) and ``bias`` (out_features,).

    Initialised as PyTorch does: both drawn from U(-1/sqrt(in_features), 1/sqrt(in_features))
    (``kaiming_uniform_(a=sqrt(5))`` for the weight). On a batch its output's grad_fn is
    one ``AddmmBackward0`` node.
    """

    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        check_device(device)
        self.in_features = in_features
        self.out_features = out_features
        numpy_dtype = np.float32 if dtype is None else dtype.numpy
        self.weight = Parameter(Tensor(np.empty((out_features, in_features), dtype=numpy_dtype)))
        if bias:
            self.bias = Parameter(Tensor(np.empty(out_features, dtype=numpy_dtype)))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in = self.in_features
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input):
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self):
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"bias={self.bias is not None}")


class Identity(Module):
    """Returns its input unchanged (a placeholder layer)."""

    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input):
        return input
