"""Elementwise functions of one tensor: ``neg``, ``abs``, ``sgn``/``sign``, ``exp``, ``log`` and the other
logs, ``sqrt``/``rsqrt``, the trigonometric and hyperbolic functions, ``erf``/``erfc``/``erfinv``,
``logit``, ``sinc``, ``frac``, the roundings, ``nan_to_num``,
``isnan``/``isinf``/``isfinite``/``signbit``, ``square``, ``reciprocal`` and dtype conversion
(tools/autograd/derivatives.yaml; the kernels in aten/src/ATen/native/cpu/UnaryOpsKernel.cpp).

Each is a Function named after PyTorch's backward node (``ExpBackward0``, ``Log1PBackward0``, ...) and
saves what PyTorch's saves (``self`` or ``result``). The gradients are derivatives.yaml's, written with
tensor operations in the order its formula applies them, so that ``create_graph=True`` records PyTorch's
graph: ``2.0 / sqrt(M_PI) * exp(-(self.pow(2))) * grad`` for erf is ``pow``, ``neg``, ``exp``, a
multiplication by a number (``MulBackward1``), then by ``grad``. C++'s ``1 - t`` is
``empty_like(t).fill_(1).sub_(t)`` (``SubBackward0``), its ``1 + t`` is ``t.add(1)`` (``AddBackward1``).

A float32 result is computed in float64 and rounded once (``_helpers._rounded_from_float64``); integers
and bools are taken as float32 first, as PyTorch takes them. A rounding's gradient is zero
(``zeros_like(grad)``); the tests give bool tensors, never part of the graph. ``sign`` (``SignBackward0``)
and ``sgn`` (``SgnBackward0``) are two nodes in PyTorch, so two classes here, with one kernel; ``square``
is ``pow(x, 2)`` (``PowBackward0``).
"""
import math

import numpy as np

from .. import grad_mode
from .._tensor import Tensor
from ..autograd.function import Function
from ._helpers import astype, to_float, check_tensor, _rounded_from_float64
from .views import iterator_out
from .binary import AddScalar, MulScalar, Where, atan2, hypot, xlogy


# ---------------------------------------------------------------------- unary
class Neg(Function):
    """-x."""
    node_name = "NegBackward0"

    @staticmethod
    def forward(ctx, x):
        return Tensor(np.negative(x._data))

    @staticmethod
    def backward(ctx, grad):
        return -grad


class Sin(Function):
    """sin(x).  d/dx = cos(x)."""
    node_name = "SinBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        with np.errstate(invalid="ignore"):         # sin(inf) is nan, silently as in PyTorch
            return Tensor(_rounded_from_float64(np.sin, to_float(x._data)))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * x.cos()


class Cos(Function):
    """cos(x).  d/dx = -sin(x)."""
    node_name = "CosBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        with np.errstate(invalid="ignore"):         # cos(inf) is nan, silently as in PyTorch
            return Tensor(_rounded_from_float64(np.cos, to_float(x._data)))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * -x.sin()


def sign_of(data):
    """-1, 0 or 1 by the sign of each element, and 0 for nan: PyTorch's kernel
    (aten/src/ATen/native/cpu/UnaryOpsKernel.cpp, sign_kernel: ``(0 < a) - (a < 0)``),
    where numpy's np.sign gives nan."""
    return (data > 0).astype(data.dtype) - (data < 0).astype(data.dtype)


class Sgn(Function):
    """sign(x) (-1, 0 or 1; 0 at nan): the gradient of abs; its own gradient is zero."""
    node_name = "SgnBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        return Tensor(sign_of(x._data))

    @staticmethod
    def backward(ctx, grad):
        return Tensor(np.zeros_like(grad._data))


class Abs(Function):
    """|x|.  d/dx = sgn(x) (derivatives.yaml, abs: ``grad * self.sgn()``): 0 at nan, where no gradient
    passes."""
    node_name = "AbsBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return Tensor(np.abs(x._data))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * Sgn.apply(x)


class Exp(Function):
    """e**x.  d/dx = e**x, so the *result* is saved, not x."""
    node_name = "ExpBackward0"
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, x):
        with np.errstate(over="ignore"):
            result = Tensor(_rounded_from_float64(np.exp, to_float(x._data)))
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return grad * result


class Log(Function):
    """log(x).  d/dx = 1/x."""
    node_name = "LogBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        with np.errstate(divide="ignore", invalid="ignore"):
            return Tensor(_rounded_from_float64(np.log, to_float(x._data)))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad / x


class Sqrt(Function):
    """sqrt(x).  d/dx = 1 / (2 sqrt(x))."""
    node_name = "SqrtBackward0"
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, x):
        with np.errstate(invalid="ignore"):
            result = Tensor(np.sqrt(to_float(x._data)))
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return grad / MulScalar.apply(result, 2)


class Tanh(Function):
    """tanh(x).  d/dx = 1 - tanh(x)**2."""
    node_name = "TanhBackward0"
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, x):
        result = Tensor(_rounded_from_float64(np.tanh, to_float(x._data)))
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        # grad * (1 - result * result), computed as one node: fewer ops than three Tensor ops (the
        # benchmarks' tanh chain), and PyTorch's name, TanhBackwardBackward0, in a second backward
        return TanhBackward.apply(grad, result)


def _one_minus_square(y):
    """1 - y * y rounded once, as PyTorch's CPU tanh_backward gives it for float32 (its compiler fuses the
    multiply and subtract: 30% of the elements differ in the last bit otherwise); float32 y squared is
    exact in float64, and so is 1 minus it."""
    if y.dtype == np.float32:
        return (1.0 - np.square(y, dtype=np.float64)).astype(np.float32)
    return 1 - y * y


class TanhBackward(Function):
    """grad * (1 - y**2) as one node: one op, not three, and PyTorch's name in a second backward."""
    node_name = "TanhBackwardBackward0"
    saved_names = ("grad_output", "output")

    @staticmethod
    def forward(ctx, grad, result):
        ctx.save_for_backward(grad, result)
        return Tensor(grad._data * _one_minus_square(result._data))

    @staticmethod
    def backward(ctx, grad):
        """derivatives.yaml, tanh_backward: ``grad_output`` first, then ``output``."""
        grad_output, result = ctx.saved_tensors
        grad_grad_output = TanhBackward.apply(grad, result) if ctx.needs_input_grad[0] else None
        grad_result = grad * (MulScalar.apply(result, -2) * grad_output) if ctx.needs_input_grad[1] else None
        return grad_grad_output, grad_result


class Reciprocal(Function):
    """1/x.  d/dx = -1/x**2."""
    node_name = "ReciprocalBackward0"
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, x):
        with np.errstate(divide="ignore"):
            result = Tensor(np.reciprocal(to_float(x._data)))
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return -grad * (result * result)


class ToCopy(Function):
    """x.to(dtype).  The gradient goes back in the input's dtype."""
    node_name = "ToCopyBackward0"

    @staticmethod
    def forward(ctx, x, dtype):
        ctx.input_dtype = x.dtype
        return Tensor(astype(x._data, dtype.numpy))

    @staticmethod
    def backward(ctx, grad):
        return grad.to(ctx.input_dtype), None


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


class Log10(Function):
    """log10(x).  d/dx = 1 / (x ln 10)."""
    node_name = "Log10Backward0"
    saved_names = ("self",)
    ufunc, ln_base = staticmethod(np.log10), 2.3025850929940456

    @classmethod
    def forward(cls, ctx, x):
        ctx.save_for_backward(x)
        with np.errstate(divide="ignore", invalid="ignore"):
            return Tensor(_rounded_from_float64(cls.ufunc, to_float(x._data)))

    @classmethod
    def backward(cls, ctx, grad):
        (x,) = ctx.saved_tensors
        return grad / MulScalar.apply(x, cls.ln_base)


class Log2(Log10):
    """log2(x).  d/dx = 1 / (x ln 2) (derivatives.yaml: ``grad / (self.conj() * 0.6931471805599453)``)."""
    node_name = "Log2Backward0"
    ufunc, ln_base = staticmethod(np.log2), 0.6931471805599453


def log10(x):
    return Log10.apply(check_tensor(x, "log10"))


def log2(x):
    return Log2.apply(check_tensor(x, "log2"))


class Floor(Function):
    """The largest integer <= x (as a float).  The gradient is zero (derivatives.yaml, floor:
    ``zeros_like(grad)``)."""
    node_name = "FloorBackward0"
    ufunc = staticmethod(np.floor)

    @classmethod
    def forward(cls, ctx, x):
        return Tensor(cls.ufunc(x._data))

    @staticmethod
    def backward(ctx, grad):
        return Tensor(np.zeros_like(grad._data))


class Ceil(Floor):
    """The smallest integer >= x."""
    node_name = "CeilBackward0"
    ufunc = staticmethod(np.ceil)


class Trunc(Floor):
    """x with its fractional part dropped (towards zero)."""
    node_name = "TruncBackward0"
    ufunc = staticmethod(np.trunc)


class Round(Floor):
    """The nearest integer, halves to the even one (0.5 -> 0, 1.5 -> 2), as PyTorch's nearbyint."""
    node_name = "RoundBackward0"
    ufunc = staticmethod(np.rint)


class RoundDecimals(Function):
    """x rounded to ``decimals`` decimal places (``round(x, decimals=2)``; its node keeps nothing)."""
    node_name = "RoundBackward1"

    @staticmethod
    def forward(ctx, x, decimals):
        return Tensor(np.round(x._data, decimals))

    @staticmethod
    def backward(ctx, grad):
        return Tensor(np.zeros_like(grad._data)), None


def _not_for(kernel, x):
    """PyTorch's words for a kernel its CPU build has no version of for x's dtype."""
    return NotImplementedError(f'"{kernel}" not implemented for \'{x.dtype.scalar_name}\'')


def _rounding(function, name, x):
    check_tensor(x, name)
    if x.dtype.name == "bool":
        raise _not_for(f"{name}_vml_cpu", x)
    if not x.dtype.is_floating_point:
        return x.clone()                  # integers are already whole: a copy, as in PyTorch
    return function.apply(x)


def floor(x):
    return _rounding(Floor, "floor", x)


def ceil(x):
    return _rounding(Ceil, "ceil", x)


def trunc(x):
    return _rounding(Trunc, "trunc", x)


def round(x, *, decimals=None):
    """``round(x)``, or with ``decimals`` given (even 0) the overload ``round.decimals`` (RoundBackward1),
    which integers do not have (round_cpu, round_vml_cpu for 0)."""
    if decimals is None:
        return _rounding(Round, "round", x)
    check_tensor(x, "round")
    if not x.dtype.is_floating_point:
        raise _not_for("round_vml_cpu" if decimals == 0 else "round_cpu", x)
    return RoundDecimals.apply(x, int(decimals))


def _rounding_in_place(name, rounded, x):
    """floor_, ceil_, trunc_, round_: x changed in place (an integer tensor is left as it is, its
    version counted up)."""
    from .inplace import run_inplace
    check_tensor(x, name + "_")
    if x.dtype.name == "bool":
        raise _not_for(f"{name}_vml_cpu", x)
    if not x.dtype.is_floating_point:
        x._bump_version()
        return x
    return run_inplace(x, rounded, ())


def floor_(x):
    return _rounding_in_place("floor", floor, x)


def ceil_(x):
    return _rounding_in_place("ceil", ceil, x)


def trunc_(x):
    return _rounding_in_place("trunc", trunc, x)


def round_(x, *, decimals=None):
    if decimals is not None and not check_tensor(x, "round_").dtype.is_floating_point:
        raise _not_for("round_vml_cpu" if decimals == 0 else "round_cpu", x)
    return _rounding_in_place("round", lambda t: round(t, decimals=decimals), x)


def _test(ufunc, name, x):
    check_tensor(x, name)
    if not x.dtype.is_floating_point:
        return Tensor(np.full(x._data.shape, ufunc is np.isfinite))
    return Tensor(np.asarray(ufunc(x._data)))


def isnan(x):
    """True where x is nan."""
    return _test(np.isnan, "isnan", x)


def isinf(x):
    """True where x is inf or -inf."""
    return _test(np.isinf, "isinf", x)


def isfinite(x):
    """True where x is neither nan nor infinite."""
    return _test(np.isfinite, "isfinite", x)


def _in_float64(compute, data):
    """``compute`` (float64 in, float64 out) of ``data`` in its floating dtype (float32 for integers and
    bools), rounded once, laid out as PyTorch lays out an elementwise result."""
    data = to_float(data)
    with np.errstate(all="ignore"):          # nan and inf come silently, as in PyTorch
        result = np.asarray(compute(data.astype(np.float64, copy=False))).astype(data.dtype, copy=False)
    return _laid_out_as_input(data, result)


def _laid_out_as_input(data, result):
    """``result`` laid out as PyTorch lays out the result of an elementwise op on ``data`` alone."""
    out = iterator_out(result.dtype, data)
    if out is None:
        return np.ascontiguousarray(result) if result.ndim else result
    out[...] = result
    return out


def _one_minus(t):
    """C++'s ``1 - t`` in a backward formula: ``empty_like(t).fill_(1).sub_(t)`` (SubBackward0)."""
    return Tensor(np.ones_like(t._data)).sub_(t)


class _Unary(Function):
    """A unary op: ``compute`` on float64 numbers; the node saves ``self`` (or ``result``)."""
    saved_names = ("self",)
    compute = None

    @classmethod
    def forward(cls, ctx, x):
        result = Tensor(_in_float64(cls.compute, x._data))
        ctx.save_for_backward(result if cls.saved_names == ("result",) else x)
        return result


class Log1p(_Unary):
    """log(1 + x), exact for small x.  d/dx = 1 / (1 + x)."""
    node_name = "Log1PBackward0"
    compute = staticmethod(np.log1p)

    @staticmethod
    def backward(ctx, grad):
        """FunctionsManual.cpp, log1p_backward: ``grad / (self + 1)``."""
        (x,) = ctx.saved_tensors
        return grad / AddScalar.apply(x, 1)


class Expm1(_Unary):
    """e**x - 1, exact for small x.  d/dx = result + 1 (derivatives.yaml: ``grad * (result.conj() + 1)``)."""
    node_name = "Expm1Backward0"
    saved_names = ("result",)
    compute = staticmethod(np.expm1)

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return grad * AddScalar.apply(result, 1)


class Exp2(_Unary):
    """2**x.  d/dx = result * ln 2 (``grad * result.conj() * M_LN2``)."""
    node_name = "Exp2Backward0"
    saved_names = ("result",)
    compute = staticmethod(np.exp2)

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return MulScalar.apply(grad * result, math.log(2))


def _rsqrt(data):
    with np.errstate(divide="ignore", invalid="ignore"):
        return 1 / np.sqrt(data)


class Rsqrt(_Unary):
    """1 / sqrt(x).  d/dx = -result**3 / 2 (``-0.5 * grad * result.pow(3).conj()``)."""
    node_name = "RsqrtBackward0"
    saved_names = ("result",)
    compute = staticmethod(_rsqrt)

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return MulScalar.apply(grad, -0.5) * result.pow(3)


class Sinh(_Unary):
    """sinh(x).  d/dx = cosh(x)."""
    node_name = "SinhBackward0"
    compute = staticmethod(np.sinh)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * cosh(x)


class Cosh(_Unary):
    """cosh(x).  d/dx = sinh(x)."""
    node_name = "CoshBackward0"
    compute = staticmethod(np.cosh)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * sinh(x)


class Tan(_Unary):
    """tan(x).  d/dx = 1 + tan(x)**2 (``grad * (1 + result.pow(2)).conj()``)."""
    node_name = "TanBackward0"
    saved_names = ("result",)
    compute = staticmethod(np.tan)

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return grad * AddScalar.apply(result.pow(2), 1)


class Asin(_Unary):
    """arcsin(x).  d/dx = 1 / sqrt(1 - x**2) (``grad * (-self * self + 1).rsqrt().conj()``)."""
    node_name = "AsinBackward0"
    compute = staticmethod(np.arcsin)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * rsqrt(AddScalar.apply(-x * x, 1))


class Acos(_Unary):
    """arccos(x).  d/dx = -1 / sqrt(1 - x**2) (``grad * -((-self * self + 1).rsqrt()).conj()``)."""
    node_name = "AcosBackward0"
    compute = staticmethod(np.arccos)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * -rsqrt(AddScalar.apply(-x * x, 1))


class Atan(_Unary):
    """arctan(x).  d/dx = 1 / (1 + x**2) (``grad / (self * self + 1).conj()``)."""
    node_name = "AtanBackward0"
    compute = staticmethod(np.arctan)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad / AddScalar.apply(x * x, 1)


class Asinh(_Unary):
    """arsinh(x).  d/dx = 1 / sqrt(x**2 + 1) (``grad * (self.pow(2) + 1).rsqrt().conj()``)."""
    node_name = "AsinhBackward0"
    compute = staticmethod(np.arcsinh)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * rsqrt(AddScalar.apply(x.pow(2), 1))


class Acosh(_Unary):
    """arcosh(x).  d/dx = 1 / sqrt(x**2 - 1) (real x: ``grad * (self * self - 1).rsqrt()``)."""
    node_name = "AcoshBackward0"
    compute = staticmethod(np.arccosh)

    @staticmethod
    def backward(ctx, grad):
        from .binary import SubScalar
        (x,) = ctx.saved_tensors
        return grad * rsqrt(SubScalar.apply(x * x, 1))


class Atanh(_Unary):
    """artanh(x).  d/dx = 1 / (1 - x**2) (``grad * 1 / (1 - self.pow(2)).conj()``)."""
    node_name = "AtanhBackward0"
    compute = staticmethod(np.arctanh)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return MulScalar.apply(grad, 1) / _one_minus(x.pow(2))


# ----------------------------------------------------------------- the error function
_erf_each = np.frompyfunc(math.erf, 1, 1)


_erfc_each = np.frompyfunc(math.erfc, 1, 1)


def _erf(data):
    return _erf_each(data).astype(np.float64)


def _erfc(data):
    return _erfc_each(data).astype(np.float64)


def _erfinv(data):
    """The inverse of erf on [-1, 1]: a first guess within 0.2% (Winitzki's formula), then Newton's
    steps on erf (erfc in the tails, where 1 - |x| is exact and erf would lose its digits)."""
    x = np.asarray(data, dtype=np.float64)
    a = 0.147
    with np.errstate(all="ignore"):
        ln = np.log1p(-x * x)
        first = 2 / (math.pi * a) + ln / 2
        y = np.copysign(np.sqrt(np.sqrt(first * first - ln / a) - first), x)
        tail = np.abs(x) > 0.5
        target = np.where(tail, 1 - np.abs(x), x)
        for _ in range(6):
            slope = 2 / math.sqrt(math.pi) * np.exp(-y * y)
            z = np.abs(y)
            miss = np.where(tail, _erfc(z) - target, _erf(y) - target)
            step = np.where(tail, -miss / slope * np.sign(y), miss / slope)
            y = np.where(np.isfinite(step) & (slope > 0), y - step, y)
        y = np.where(np.abs(x) == 1, np.copysign(np.inf, x), y)
        return np.where((np.abs(x) > 1) | np.isnan(x), np.nan, np.where(x == 0, x, y))


def _minus_square_exp(x):
    """exp(-(x.pow(2))), recorded as PyTorch's erf formulas record it: pow, neg, exp."""
    return (-x.pow(2)).exp()


class Erf(_Unary):
    """The error function.  d/dx = 2 / sqrt(pi) e**(-x**2) (``2.0 / sqrt(M_PI) * exp(-(self.pow(2))) *
    grad``)."""
    node_name = "ErfBackward0"
    compute = staticmethod(_erf)
    scale = 2.0 / math.sqrt(math.pi)

    @classmethod
    def backward(cls, ctx, grad):
        (x,) = ctx.saved_tensors
        return MulScalar.apply(_minus_square_exp(x), cls.scale) * grad


class Erfc(Erf):
    """1 - erf(x), exact for large x.  d/dx = -2 / sqrt(pi) e**(-x**2)."""
    node_name = "ErfcBackward0"
    compute = staticmethod(_erfc)
    scale = -2.0 / math.sqrt(math.pi)


class Erfinv(_Unary):
    """The inverse of erf.  d/dx = sqrt(pi) / 2 e**(erfinv(x)**2) (``0.5 * sqrt(M_PI) *
    exp(self.erfinv().pow(2)) * grad``: erfinv computed again, from the saved ``self``)."""
    node_name = "ErfinvBackward0"
    compute = staticmethod(_erfinv)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return MulScalar.apply(erfinv(x).pow(2).exp(), 0.5 * math.sqrt(math.pi)) * grad


# ----------------------------------------------------------------- logit, sinc, frac, degrees
class Logit(Function):
    """log(x / (1 - x)), x first clamped to [eps, 1 - eps] when eps is given."""
    node_name = "LogitBackward0"
    saved_names = ("self",)
    saved_fields = ("eps",)

    @staticmethod
    def forward(ctx, x, eps):
        ctx.eps = eps
        ctx.save_for_backward(x)

        def compute(data):
            if eps is not None:
                data = np.clip(data, eps, 1 - eps)
            return np.log(data / (1 - data))
        return Tensor(_in_float64(compute, x._data))

    @staticmethod
    def backward(ctx, grad):
        """derivatives.yaml, logit: recording a graph (``create_graph``), FunctionsManual.cpp's
        infinitely_differentiable_logit_backward: grad / (self * (1.0 - self)) where self is in [lo, hi],
        else 0 (nan for no eps), by a ``where``; else the logit_backward kernel, which differs at nan (kept,
        where the comparisons are false) and at 0 and 1 without eps (grad * inf, whatever the sign of 0)."""
        (x,) = ctx.saved_tensors
        lo, hi = (0.0, 1.0) if ctx.eps is None else (ctx.eps, 1.0 - ctx.eps)
        if not grad_mode.is_grad_enabled():
            return Tensor(_logit_backward_kernel(grad._data, x._data, ctx.eps, lo, hi)), None
        inside = (x._data >= lo) & (x._data <= hi)
        outside = Tensor(np.array(0.0 if ctx.eps is not None else np.nan, grad._data.dtype))
        return Where.apply(grad / (x * _one_minus(x)), outside, inside), None


@np.errstate(all="ignore")
def _logit_backward_kernel(grad, x, eps, lo, hi):
    """PyTorch's logit_backward kernel: 0 (nan without eps) outside [lo, hi]; without eps, grad * inf at
    0 and 1; else grad / (x * (1 - x))."""
    x = x.astype(grad.dtype, copy=False)
    quotient = grad / (x * (1 - x))
    if eps is not None:
        return np.where((x < lo) | (x > hi), grad.dtype.type(0), quotient)
    edge = np.where((x == 0) | (x == 1), grad * grad.dtype.type(np.inf), quotient)
    return np.where((x < 0) | (x > 1), grad.dtype.type(np.nan), edge)


class Sinc(Function):
    """sin(pi x) / (pi x) (1 at 0): PyTorch's normalized sinc."""
    node_name = "SincBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        """pi x rounded to x's dtype first, then its sine (rounded once) over it, as PyTorch's kernel."""
        ctx.save_for_backward(x)
        data = to_float(x._data)
        with np.errstate(all="ignore"):
            product = data * data.dtype.type(math.pi)
            sine = np.sin(product.astype(np.float64)).astype(data.dtype)
            result = np.where(data == 0, data.dtype.type(1), sine / product)
        return Tensor(_laid_out_as_input(data, result))

    @staticmethod
    def backward(ctx, grad):
        """FunctionsManual.cpp, sinc_backward: ``grad * ((self_pi * self_pi.cos() - self_pi.sin()) /
        self_squared_pi)``, 0 where ``self_squared_pi == 0``."""
        (x,) = ctx.saved_tensors
        x_pi = MulScalar.apply(x, math.pi)
        x_squared_pi = MulScalar.apply(x * x, math.pi)
        out = grad * ((x_pi * x_pi.cos() - x_pi.sin()) / x_squared_pi)
        return Where.apply(Tensor(np.zeros((), grad._data.dtype)), out, x_squared_pi._data == 0)


class Frac(Function):
    """x - trunc(x), the fractional part (with x's sign).  The gradient passes unchanged."""
    node_name = "FracBackward0"

    @staticmethod
    def forward(ctx, x):
        with np.errstate(invalid="ignore"):
            return Tensor(_in_float64(lambda d: d - np.trunc(d), x._data))

    @staticmethod
    def backward(ctx, grad):
        return grad


class Deg2Rad(Function):
    """Degrees to radians.  d/dx = pi / 180 (FunctionsManual.cpp, deg2rad_backward: ``grad * M_PI_180``)."""
    node_name = "Deg2RadBackward0"
    factor = math.pi / 180

    @classmethod
    def forward(cls, ctx, x):
        data = to_float(x._data)
        return Tensor(_in_float64(lambda d: d * data.dtype.type(cls.factor), data))

    @classmethod
    def backward(cls, ctx, grad):
        return MulScalar.apply(grad, cls.factor)


class Rad2Deg(Deg2Rad):
    """Radians to degrees.  d/dx = 180 / pi."""
    node_name = "Rad2DegBackward0"
    factor = 180 / math.pi


class NanToNum(Function):
    """nan, inf and -inf replaced by numbers (0, and the dtype's largest and smallest by default).
    d/dx = 1 where x is finite, else 0 (``grad * at::isfinite(self)``)."""
    node_name = "NanToNumBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x, nan, posinf, neginf):
        ctx.save_for_backward(x)
        with np.errstate(over="ignore"):      # a posinf too large for float32 is inf, silently
            return Tensor(np.nan_to_num(x._data, nan=0.0 if nan is None else nan, posinf=posinf,
                                        neginf=neginf))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * Tensor(np.isfinite(x._data)), None, None, None


# ----------------------------------------------------------------- the functions
def _unary(function, name):
    def op(input):
        return function.apply(check_tensor(input, name))
    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"``torch.{name}``: {function.__doc__.splitlines()[0]}"
    return op


log1p, expm1, exp2, rsqrt = (_unary(f, n) for f, n in ((Log1p, "log1p"), (Expm1, "expm1"), (Exp2, "exp2"),
                                                        (Rsqrt, "rsqrt")))


sinh, cosh, tan = (_unary(f, n) for f, n in ((Sinh, "sinh"), (Cosh, "cosh"), (Tan, "tan")))


asin, acos, atan = (_unary(f, n) for f, n in ((Asin, "asin"), (Acos, "acos"), (Atan, "atan")))


asinh, acosh, atanh = (_unary(f, n) for f, n in ((Asinh, "asinh"), (Acosh, "acosh"), (Atanh, "atanh")))


erf, erfc, erfinv = (_unary(f, n) for f, n in ((Erf, "erf"), (Erfc, "erfc"), (Erfinv, "erfinv")))


sinc, deg2rad, rad2deg = (_unary(f, n) for f, n in ((Sinc, "sinc"), (Deg2Rad, "deg2rad"),
                                                    (Rad2Deg, "rad2deg")))


def frac(input):
    """``torch.frac``: x - trunc(x); floats only (PyTorch has no integer kernel)."""
    check_tensor(input, "frac")
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f'"frac_cpu" not implemented for \'{input.dtype.scalar_name}\'')
    return Frac.apply(input)


def logit(input, eps=None):
    """``torch.logit``: log(x / (1 - x)), x clamped to [eps, 1 - eps] first when eps is given."""
    check_tensor(input, "logit")
    return Logit.apply(input, None if eps is None else float(eps))


def nan_to_num(input, nan=0.0, posinf=None, neginf=None):
    """``torch.nan_to_num``: nan -> ``nan``, inf -> ``posinf``, -inf -> ``neginf`` (by default 0 and the
    dtype's largest and smallest numbers); integers and bools come back as a copy."""
    check_tensor(input, "nan_to_num")
    if not input.dtype.is_floating_point:
        return input.clone()
    return NanToNum.apply(input, nan, posinf, neginf)


def signbit(input):
    """``torch.signbit``: True where the sign bit is set (-0.0 too, and negative numbers); a bool tensor."""
    check_tensor(input, "signbit")
    return Tensor(np.asarray(np.signbit(input._data)))


class NotImplementedInPlace(Function):
    """``asinh_``, ``acosh_``, ``atanh_``: PyTorch records their node (``AsinhBackward1``, ...) but has no
    derivative for it; backward through it raises (derivatives.yaml lists the in-place overloads with
    ``not_implemented``)."""
    function = None

    @classmethod
    def forward(cls, ctx, x):
        return cls.function(x.detach())

    @classmethod
    def backward(cls, ctx, grad):
        raise NotImplementedError(f"the derivative for 'inplace version of {cls.function.__name__}' is not "
                                  "implemented.")


class AsinhInPlace(NotImplementedInPlace):
    node_name = "AsinhBackward1"
    function = staticmethod(asinh)


class AcoshInPlace(NotImplementedInPlace):
    node_name = "AcoshBackward1"
    function = staticmethod(acosh)


class AtanhInPlace(NotImplementedInPlace):
    node_name = "AtanhBackward1"
    function = staticmethod(atanh)


def in_place(function, name=None):
    """``x.log1p_()`` and friends: the op's node, recorded on x (see inplace.run_inplace)."""
    def op(tensor, *args, **kwargs):
        from .inplace import run_inplace
        return run_inplace(tensor, lambda t, *a: function(t, *a, **kwargs), args)
    op.__name__ = op.__qualname__ = (name or function.__name__) + "_"
    return op


(log1p_, expm1_, exp2_, rsqrt_, sinh_, cosh_, tan_, asin_, acos_, atan_, erf_, erfc_, erfinv_, sinc_,
 deg2rad_, rad2deg_, frac_, logit_, nan_to_num_, atan2_, xlogy_, hypot_) = (
    in_place(f) for f in (log1p, expm1, exp2, rsqrt, sinh, cosh, tan, asin, acos, atan, erf, erfc, erfinv,
                          sinc, deg2rad, rad2deg, frac, logit, nan_to_num, atan2, xlogy, hypot))


asinh_, acosh_, atanh_ = (in_place(f.apply, f.function.__name__)
                          for f in (AsinhInPlace, AcoshInPlace, AtanhInPlace))
