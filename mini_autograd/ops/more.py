"""More operations, beyond the course's core, that the programs learners run next use:
``sign``, ``square``, the ``new_*`` factories and the softmax methods.

Each records the node PyTorch records: ``square`` is ``pow(x, 2)`` (``PowBackward0``),
``sign`` has ``SignBackward0`` with a zero gradient.
"""
import numpy as np

from .._tensor import Tensor
from ..autograd.function import Function
from ._helpers import check_tensor


class Sign(Function):
    """-1, 0 or 1 by the sign of each element; the gradient is zero (derivatives.yaml: sign)."""
    node_name = "SignBackward0"

    @staticmethod
    def forward(ctx, x):
        return Tensor(np.sign(x._data))

    @staticmethod
    def backward(ctx, grad):
        return Tensor(np.zeros_like(grad._data))


def sign(x):
    check_tensor(x, "sign")
    if x.dtype.name == "bool":
        return x.clone()
    return Sign.apply(x)


def square(x):
    """x ** 2, recorded as PyTorch records it: ``PowBackward0``."""
    check_tensor(x, "square")
    return x.pow(2)
