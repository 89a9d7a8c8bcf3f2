"""Activations: ``relu``, ``sigmoid``, ``leaky_relu``, ``gelu``, ``softmax``, ``log_softmax`` and
``logsigmoid`` (tools/autograd/derivatives.yaml; aten/src/ATen/native/Activation.cpp and
aten/src/ATen/native/cpu/Activation.cpp).

Each is a Function named after the node PyTorch records (``ReluBackward0``, ``SoftmaxBackward0``, ...).
Where PyTorch's gradient is one op (``threshold_backward``, ``sigmoid_backward``, ``gelu_backward``,
``_softmax_backward_data``, ``log_sigmoid_backward``), it is one Function here too, so that a second
backward records PyTorch's node (``GeluBackwardBackward0``, whose own formula is FunctionsManual.cpp's
gelu_double_backward). ``gelu`` is ``x * Phi(x)``, Phi the standard normal's CDF, or its tanh
approximation (``approximate='tanh'``). (``tanh`` is with the other hyperbolic functions, in unary.py.)
"""
import math

import numpy as np

from .._tensor import Tensor
from ..autograd.function import Function
from ._helpers import contiguous, to_float, where_or_zero, check_tensor
from .binary import AddScalar, MulScalar, SubScalar


class Sigmoid(Function):
    """1 / (1 + e**-x).  d/dx = s (1 - s)."""
    node_name = "SigmoidBackward0"
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, x):
        data = to_float(x._data)
        with np.errstate(over="ignore"):        # exp(-x) = inf for x < -88 gives 1 / inf = 0: right
            result = Tensor(1 / (1 + np.exp(-data)))
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        # grad * result * (1 - result), computed as one node: fewer ops than three Tensor ops, and
        # PyTorch's name, SigmoidBackwardBackward0, in a second backward
        return SigmoidBackward.apply(grad, result)


class SigmoidBackward(Function):
    """grad * y * (1 - y) as one node: one op, not three, and PyTorch's name in a second backward."""
    node_name = "SigmoidBackwardBackward0"
    saved_names = ("grad_output", "output")

    @staticmethod
    def forward(ctx, grad, result):
        ctx.save_for_backward(grad, result)
        return Tensor(grad._data * result._data * (1 - result._data))

    @staticmethod
    def backward(ctx, grad):
        """derivatives.yaml, sigmoid_backward: ``grad_output`` first, then ``output``."""
        grad_output, result = ctx.saved_tensors
        grad_grad_output = SigmoidBackward.apply(grad, result) if ctx.needs_input_grad[0] else None
        grad_result = (grad * grad_output * AddScalar.apply(MulScalar.apply(result, -2), 1)
                       if ctx.needs_input_grad[1] else None)
        return grad_grad_output, grad_result


class Relu(Function):
    """max(x, 0), nan at nan and -0 at -0 (PyTorch's clamp_min).  d/dx = 0 where the result is <= 0,
    else 1: the gradient passes at nan."""
    node_name = "ReluBackward0"
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, x):
        result = Tensor(np.maximum(0, x._data))      # 0 first: numpy keeps the second of equals, -0
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        # grad where result > 0, else 0, as one node: PyTorch's name, ThresholdBackwardBackward0
        return ThresholdBackward.apply(grad, result)


class ThresholdBackward(Function):
    """0 where the result is <= 0, else grad: relu's backward as one op, as in PyTorch
    (derivatives.yaml, relu: ``threshold_backward(grad, result, 0)``, whose kernel is
    ``x <= threshold ? 0 : grad``: a nan result passes the gradient)."""
    node_name = "ThresholdBackwardBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, grad, result):
        ctx.save_for_backward(result)
        return Tensor(where_or_zero(~(result._data <= 0), grad._data))

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return ThresholdBackward.apply(grad, result), Tensor(np.zeros_like(result._data))


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


def _softmax_parts(data, dim):
    """x - max(x) along ``dim`` (so exp cannot overflow) and the sum of its exponentials."""
    if data.size == 0:                  # nothing to normalise (numpy's max has no identity)
        return data.copy(), data.copy(), np.zeros_like(data)
    with np.errstate(invalid="ignore", over="ignore"):      # rows of inf give nan, as in PyTorch
        shifted = data - data.max(axis=dim, keepdims=True)
        exp = np.exp(shifted)
        return shifted, exp, exp.sum(axis=dim, keepdims=True)


def _one_dim(data):
    """A 0-d array as a 1-element one: softmax of a 0-d tensor runs along its one (dim 0 or -1)."""
    return data.reshape(1) if data.ndim == 0 else data


class Softmax(Function):
    """exp(x) / sum(exp(x)) along ``dim``.  d/dx = result * (grad - sum(grad * result))."""
    node_name = "SoftmaxBackward0"
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, x, dim):
        ctx.dim = dim
        data = _one_dim(x._data)
        _, exp, total = _softmax_parts(data, dim)
        with np.errstate(invalid="ignore"):
            exp /= total
        result = Tensor(contiguous(exp.reshape(x._data.shape)))       # row by row, as PyTorch's
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return SoftmaxBackwardData.apply(grad, result, ctx.dim), None


class SoftmaxBackwardData(Function):
    """y * (grad - sum(grad * y)): softmax's backward as one op, differentiable again."""
    node_name = "SoftmaxBackwardDataBackward0"
    saved_names = ("grad_output", "output")

    @staticmethod
    def forward(ctx, grad, result, dim):
        ctx.dim = dim
        ctx.save_for_backward(grad, result)
        g, y = _one_dim(grad._data), _one_dim(result._data)
        with np.errstate(invalid="ignore", over="ignore"):      # nan and inf go through, as in PyTorch
            return Tensor((y * (g - (g * y).sum(axis=dim, keepdims=True))).reshape(grad._data.shape))

    @staticmethod
    def backward(ctx, gg):
        grad, result = ctx.saved_tensors
        grad_grad = SoftmaxBackwardData.apply(gg, result, ctx.dim) if ctx.needs_input_grad[0] else None
        grad_result = None
        if ctx.needs_input_grad[1]:     # FunctionsManual.cpp: softmax_double_backward
            dim = ctx.dim
            grad_result = (grad * gg - (result * grad).sum(dim, keepdim=True) * gg
                           - grad * (result * gg).sum(dim, keepdim=True))
        return grad_grad, grad_result, None


class LogSoftmax(Function):
    """x - log(sum(exp(x))) along ``dim``, computed stably.  d/dx = grad - exp(result) * sum(grad)."""
    node_name = "LogSoftmaxBackward0"
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, x, dim):
        ctx.dim = dim
        data = _one_dim(x._data)
        shifted, _, total = _softmax_parts(data, dim)
        with np.errstate(invalid="ignore", divide="ignore"):
            shifted -= np.log(total)
        result = Tensor(contiguous(shifted.reshape(x._data.shape)))   # row by row, as PyTorch's
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return LogSoftmaxBackwardData.apply(grad, result, ctx.dim), None


class LogSoftmaxBackwardData(Function):
    """grad - exp(y) * sum(grad): log_softmax's backward as one op, differentiable again."""
    node_name = "LogSoftmaxBackwardDataBackward0"
    saved_names = ("grad_output", "output")

    @staticmethod
    def forward(ctx, grad, result, dim):
        ctx.dim = dim
        ctx.save_for_backward(grad, result)
        g, y = _one_dim(grad._data), _one_dim(result._data)
        with np.errstate(invalid="ignore", over="ignore"):
            return Tensor((g - np.exp(y) * g.sum(axis=dim, keepdims=True)).reshape(grad._data.shape))

    @staticmethod
    def backward(ctx, gg):
        grad, result = ctx.saved_tensors
        dim = ctx.dim          # derivatives.yaml, _log_softmax_backward_data
        grad_grad = gg - (gg * result.exp()).sum(dim, keepdim=True) if ctx.needs_input_grad[0] else None
        grad_result = -grad.sum(dim, keepdim=True) * result.exp() * gg if ctx.needs_input_grad[1] else None
        return grad_grad, grad_result, None


def _softplus_neg(x):
    """log(1 + exp(-x)), computed without overflow."""
    return np.log1p(np.exp(-np.abs(x))) + np.maximum(-x, 0)


class LogSigmoid(Function):
    """log(sigmoid(x)) = -softplus(-x), computed without overflow (PyTorch's log_sigmoid_forward)."""
    node_name = "LogSigmoidBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        with np.errstate(over="ignore"):
            return Tensor(np.asarray(-_softplus_neg(x._data), dtype=x._data.dtype))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return LogSigmoidBackward.apply(grad, x)


class LogSigmoidBackward(Function):
    """grad * (1 - sigmoid(x)): log_sigmoid's backward as one op (``log_sigmoid_backward``)."""
    node_name = "LogSigmoidBackwardBackward0"
    saved_names = ("grad_output", "self")

    @staticmethod
    def forward(ctx, grad, x):
        ctx.save_for_backward(grad, x)
        with np.errstate(over="ignore"):
            return Tensor(np.asarray(grad._data / (1 + np.exp(x._data)), dtype=grad._data.dtype))

    @staticmethod
    def backward(ctx, gg):
        """derivatives.yaml, log_sigmoid_backward; FunctionsManual.cpp, log_sigmoid_double_backward."""
        grad, x = ctx.saved_tensors
        grad_grad = LogSigmoidBackward.apply(gg, x) if ctx.needs_input_grad[0] else None
        grad_x = None
        if ctx.needs_input_grad[1]:
            z = x.sigmoid()
            grad_x = gg * grad * SubScalar.apply(z, 1) * z
        return grad_grad, grad_x


_erf = np.frompyfunc(math.erf, 1, 1)


M_SQRT2, M_SQRT1_2, M_2_SQRTPI = math.sqrt(2), math.sqrt(0.5), 2 / math.sqrt(math.pi)


SQRT1_2 = M_SQRT1_2                          # kAlpha


NORMAL_PDF = M_2_SQRTPI * M_SQRT1_2 * 0.5    # kBeta of 'none': 1 / sqrt(2 pi)


TANH_BETA = M_SQRT2 * M_2_SQRTPI * 0.5       # kBeta of 'tanh': sqrt(2 / pi)


TANH_KAPPA = 0.044715


def _rounded(function, x):
    """``function`` (erf, exp, tanh) of x, computed in float64 and rounded to x's dtype."""
    return np.asarray(function(x.astype(np.float64)), dtype=np.float64).astype(x.dtype)


def _erf_of(x):
    return _rounded(_erf, x)


def _constants(dtype, *values):
    return tuple(dtype.type(v) for v in values)


def _gelu(x, approximate):
    """The values, step by step in x's dtype as PyTorch's CPU kernel computes them
    (aten/src/ATen/native/cpu/Activation.cpp, GeluKernelImpl): float32 rounds after each step."""
    one, half = _constants(x.dtype, 1, 0.5)
    if approximate == "tanh":
        beta, kappa = _constants(x.dtype, TANH_BETA, TANH_KAPPA)
        inner = beta * (x + kappa * (x * x * x))
        return half * x * (one + _rounded(np.tanh, inner))
    (alpha,) = _constants(x.dtype, SQRT1_2)
    return x * half * (one + _erf_of(x * alpha))


def _gelu_slope(x, approximate):
    """d gelu / dx at x, in x's dtype (aten/src/ATen/native/cpu/Activation.cpp, GeluBackwardKernelImpl)."""
    one, half = _constants(x.dtype, 1, 0.5)
    if approximate == "tanh":
        beta, kappa, three = _constants(x.dtype, TANH_BETA, TANH_KAPPA, 3)
        x_sq = x * x
        tanh_inner = _rounded(np.tanh, beta * (x + kappa * (x * x * x)))
        left_derivative = half * (one + tanh_inner)
        inner_derivative = beta * (one + three * kappa * x_sq)
        right_derivative = (half * x) * (one - tanh_inner * tanh_inner) * inner_derivative
        return left_derivative + right_derivative
    alpha, beta, minus_half = _constants(x.dtype, SQRT1_2, NORMAL_PDF, -0.5)
    cdf = half * (one + _erf_of(x * alpha))
    pdf = beta * _rounded(np.exp, x * x * minus_half)
    return cdf + x * pdf


class Gelu(Function):
    """gelu(x) = x * Phi(x)."""
    node_name = "GeluBackward0"
    saved_names = ("self",)
    saved_fields = ("approximate",)

    @staticmethod
    def forward(ctx, x, approximate):
        ctx.approximate = approximate
        ctx.save_for_backward(x)
        with np.errstate(over="ignore", invalid="ignore"):
            return Tensor(np.asarray(_gelu(x._data, approximate)))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return GeluBackward.apply(grad, x, ctx.approximate), None


class GeluBackward(Function):
    """``gelu_backward(grad, self, approximate)``: grad times gelu's slope at self, as one op."""
    node_name = "GeluBackwardBackward0"
    saved_names = ("grad_output", "self")
    saved_fields = ("approximate",)

    @staticmethod
    def forward(ctx, grad, x, approximate):
        ctx.approximate = approximate
        ctx.save_for_backward(grad, x)
        with np.errstate(over="ignore", invalid="ignore"):
            return Tensor(np.asarray(grad._data * _gelu_slope(x._data, approximate)))

    @staticmethod
    def backward(ctx, gg):
        """derivatives.yaml, gelu_backward: grad_output: ``gelu_backward(grad, self, approximate)``;
        self: ``gelu_double_backward(grad, grad_output, self, approximate)``."""
        grad_output, x = ctx.saved_tensors
        grad_grad = GeluBackward.apply(gg, x, ctx.approximate) if ctx.needs_input_grad[0] else None
        grad_x = (_gelu_double_backward(gg, grad_output, x, ctx.approximate) if ctx.needs_input_grad[1]
                  else None)
        return grad_grad, grad_x, None


def _gelu_double_backward(ggI, gO, x, approximate):
    """FunctionsManual.cpp, gelu_double_backward: ``ggI * gO * (second derivative of gelu at x)``."""
    if approximate == "tanh":
        inner = (x + x.pow(3) * TANH_KAPPA) * TANH_BETA
        tanh_inner = inner.tanh()
        sech_inner = 1 / ((inner.exp() + (-inner).exp()) * 0.5)
        f = x * 0.5
        g = 1 - tanh_inner * tanh_inner
        h = (1 + x * x * (3 * TANH_KAPPA)) * TANH_BETA
        f_prime_gh = g * h * 0.5
        g_prime = (sech_inner * 2) * (-sech_inner * tanh_inner) * h
        g_prime_fh = f * h * g_prime
        h_prime_fg = f * g * (x * (6 * TANH_KAPPA * TANH_BETA))
        return ggI * gO * (f_prime_gh * 2 + g_prime_fh + h_prime_fg)
    input_sq = x * x
    pdf = (input_sq * -0.5).exp() * NORMAL_PDF
    return ggI * gO * (pdf * 2 - input_sq * pdf)


def gelu(x, *, approximate="none"):
    """``torch.nn.functional.gelu``: ``x * Phi(x)``, or its tanh approximation."""
    check_tensor(x, "gelu")
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    if not x.dtype.is_floating_point:
        raise NotImplementedError(f"\"GeluKernelImpl\" not implemented for '{x.dtype.scalar_name}'")
    return Gelu.apply(x, approximate)
