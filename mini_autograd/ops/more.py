"""More operations, beyond the course's core, that the programs learners run next use:
``sign``, ``square``, ``leaky_relu``, ``masked_fill``.

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


class LeakyRelu(Function):
    """x where x > 0, else negative_slope * x (``LeakyReluBackward0``)."""
    node_name = "LeakyReluBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x, negative_slope):
        ctx.negative_slope = negative_slope
        ctx.save_for_backward(x)
        data = x._data
        return Tensor(np.where(data > 0, data, data * data.dtype.type(negative_slope)))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        slope = Tensor(np.where(x._data > 0, 1, ctx.negative_slope).astype(grad._data.dtype))
        return grad * slope, None


class LeakyReluOfResult(Function):
    """leaky_relu_ (in place): the same values, its gradient read off the result (``LeakyReluBackward1``)."""
    node_name = "LeakyReluBackward1"
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, x, negative_slope):
        ctx.negative_slope = negative_slope
        data = x._data
        result = Tensor(np.where(data > 0, data, data * data.dtype.type(negative_slope)))
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        slope = Tensor(np.where(result._data > 0, 1, ctx.negative_slope).astype(grad._data.dtype))
        return grad * slope, None


def leaky_relu(x, negative_slope=0.01):
    check_tensor(x, "leaky_relu")
    return LeakyRelu.apply(x, negative_slope)


def leaky_relu_(x, negative_slope=0.01):
    """leaky_relu in place."""
    from .inplace import run_inplace
    return run_inplace(x, LeakyReluOfResult.apply, (negative_slope,))


def masked_fill(x, mask, value):
    """x with ``value`` (a number or a 0-d tensor) where the bool ``mask`` holds."""
    from .pointwise import MaskedFill, MaskedFillTensor
    from ._helpers import check_broadcast_shapes
    check_tensor(x, "masked_fill")
    check_tensor(mask, "masked_fill", "mask", 2)
    if mask.dtype.name != "bool":
        raise RuntimeError(f"masked_fill_ only supports boolean masks, but got mask with dtype "
                           f"{mask.dtype.c_name}")
    shape = x._data.shape
    if mask.shape != x.shape:
        check_broadcast_shapes(shape, mask._data.shape)
        shape = np.broadcast_shapes(shape, mask._data.shape)     # the mask may make the result larger
    where = np.broadcast_to(mask._data, shape)
    if isinstance(value, Tensor):
        if value.ndim != 0:
            raise RuntimeError(f"masked_fill_ only supports a 0-dimensional value tensor, but got tensor "
                               f"with {value.ndim} dimension(s).")
        return MaskedFillTensor.apply(x, value, where)
    return MaskedFill.apply(x, where, value)
