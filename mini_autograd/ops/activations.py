"""GELU, the activation of transformer blocks: ``x * Phi(x)``, Phi the standard normal's CDF, or its
tanh approximation (``approximate='tanh'``).

Its gradient is one op, ``gelu_backward`` (derivatives.yaml, gelu: ``gelu_backward(grad, self,
approximate)``), so that a second backward records PyTorch's ``GeluBackwardBackward0``, whose own
formula is FunctionsManual.cpp's gelu_double_backward.
"""
import math

import numpy as np

from .._tensor import Tensor
from ..autograd.function import Function
from ._helpers import check_tensor

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
