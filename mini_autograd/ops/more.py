"""More operations, beyond the course's core, that the programs learners run next use:
``sign``, ``square``, ``leaky_relu``, ``masked_fill``.

Each records the node PyTorch records: ``square`` is ``pow(x, 2)`` (``PowBackward0``),
``sign`` has ``SignBackward0`` with a zero gradient.
"""
import numpy as np

from .._tensor import Tensor
from ..autograd.function import Function
from ._helpers import check_tensor
from .pointwise import sign_of


class Sign(Function):
    """-1, 0 or 1 by the sign of each element, 0 at nan; the gradient is zero (derivatives.yaml: sign)."""
    node_name = "SignBackward0"

    @staticmethod
    def forward(ctx, x):
        return Tensor(sign_of(x._data))

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
        return Tensor(_leaky(x._data, x._data, negative_slope))

    @staticmethod
    def backward(ctx, grad):
        """derivatives.yaml, leaky_relu: ``leaky_relu_backward(grad, self, negative_slope, false)``."""
        (x,) = ctx.saved_tensors
        return LeakyReluBackward.apply(grad, x, ctx.negative_slope, False), None


class LeakyReluOfResult(Function):
    """leaky_relu_ (in place): the same values, its gradient read off the result (``LeakyReluBackward1``)."""
    node_name = "LeakyReluBackward1"
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, x, negative_slope):
        ctx.negative_slope = negative_slope
        result = Tensor(_leaky(x._data, x._data, negative_slope))
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad):
        """derivatives.yaml, leaky_relu_: ``leaky_relu_backward(grad, result, negative_slope, true)``."""
        (result,) = ctx.saved_tensors
        return LeakyReluBackward.apply(grad, result, ctx.negative_slope, True), None


class LeakyReluBackward(Function):
    """grad where x > 0, else grad * negative_slope: leaky_relu's backward as one op, so that a second
    backward records PyTorch's node (derivatives.yaml, leaky_relu_backward: grad_output gets the same
    op of the incoming gradient, self gets zeros)."""
    node_name = "LeakyReluBackwardBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, grad, x, negative_slope, self_is_result):
        """``self_is_result``: x is leaky_relu_'s result, whose sign says nothing with a negative slope."""
        if self_is_result and negative_slope < 0:
            raise RuntimeError(_INPLACE_NEGATIVE_SLOPE)
        ctx.negative_slope = negative_slope
        ctx.save_for_backward(x)
        return Tensor(_leaky(x._data, grad._data, negative_slope))

    @staticmethod
    def backward(ctx, gg):
        (x,) = ctx.saved_tensors
        grad_grad = (LeakyReluBackward.apply(gg, x, ctx.negative_slope, False)
                     if ctx.needs_input_grad[0] else None)
        return grad_grad, Tensor(np.zeros_like(gg._data)) if ctx.needs_input_grad[1] else None, None, None


# aten/src/ATen/native/Activation.cpp, leaky_relu_backward: TORCH_CHECK(!self_is_result || negval >= 0.0, ...)
_INPLACE_NEGATIVE_SLOPE = (
    "In-place leakyReLu backward calculation is triggered with a negative slope which is not supported. "
    "This is caused by calling in-place forward function with a negative slope, please call out-of-place "
    "version instead. File an issue at https://github.com/pytorch/pytorch if you do require supporting "
    "in-place leakRelu backward calculation with negative slope")


def _leaky(x, values, negative_slope):
    """``values`` where x > 0, else ``values * negative_slope`` (aten/src/ATen/native/cpu/Activation.cpp,
    leaky_relu_kernel and leaky_relu_backward_kernel: ``a > 0 ? a : a * negval``)."""
    return np.where(x > 0, values, values * values.dtype.type(negative_slope))


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
    if mask.shape != x.shape:      # the mask first: PyTorch's masked_fill calls expand_outplace(mask, self)
        check_broadcast_shapes(mask._data.shape, shape)
        shape = np.broadcast_shapes(shape, mask._data.shape)     # the mask may make the result larger
    where = np.broadcast_to(mask._data, shape)
    if isinstance(value, Tensor):
        if value.ndim != 0:
            raise RuntimeError(f"masked_fill_ only supports a 0-dimensional value tensor, but got tensor "
                               f"with {value.ndim} dimension(s).")
        return MaskedFillTensor.apply(x, value, where)
    return MaskedFill.apply(x, where, value)
