"""The rest of PyTorch's element-by-element maths: ``log1p``, ``expm1``, ``exp2``, ``rsqrt``, the
hyperbolic and inverse trigonometric functions, ``erf``/``erfc``/``erfinv``, ``logit``, ``sinc``,
``frac``, ``deg2rad``/``rad2deg``, ``nan_to_num``, ``signbit``, and of two tensors ``atan2``,
``xlogy``, ``hypot``, ``logaddexp`` and ``logaddexp2``.

Each node has PyTorch's name (``Log1PBackward0``, ...) and saves what PyTorch's saves (``self`` or
``result``). The gradients are derivatives.yaml's, written with tensor operations in the order its
formula applies them, so that ``create_graph=True`` records PyTorch's graph: ``2.0 / sqrt(M_PI) *
exp(-(self.pow(2))) * grad`` for erf is ``pow``, ``neg``, ``exp``, a multiplication by a number
(``MulBackward1``), then by ``grad``. C++'s ``1 - t`` is ``empty_like(t).fill_(1).sub_(t)``
(``SubBackward0``), its ``1 + t`` is ``t.add(1)`` (``AddBackward1``).

A float32 result is computed in float64 and rounded once, as ``exp`` and ``log`` are here
(pointwise.py: ``_rounded_from_float64``); integers and bools are taken as float32 first, as
PyTorch takes them.
"""
import math

import numpy as np

from .. import grad_mode
from .._tensor import Tensor
from ..autograd.function import Function
from ._helpers import as_tensor_operand, check_broadcast, check_tensor, result_dtype, to_float
from .pointwise import AddScalar, MaskedFill, MulScalar, Where
from .views import iterator_out


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
        from .pointwise import SubScalar
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


# ----------------------------------------------------------------- of two tensors
def _float_operands(a, b):
    """The dtype of a two-tensor float op: PyTorch's promotion, integers and bools as float32."""
    dtype = result_dtype(a, b)
    return dtype if dtype.kind == "f" else np.dtype(np.float32)


def _binary64(compute, a, b, dtype):
    """``compute(a, b)`` in float64, rounded once to ``dtype``, broadcast and laid out as PyTorch's."""
    try:
        out = iterator_out(dtype, a._data, b._data)
        with np.errstate(all="ignore"):
            result = compute(a._data.astype(np.float64), b._data.astype(np.float64)).astype(dtype)
    except ValueError:
        check_broadcast(a, b)
        raise
    if out is None:
        return Tensor(np.ascontiguousarray(result) if result.ndim else result)
    out[...] = result
    return Tensor(out)


class Atan2(Function):
    """The angle of the point (other, self): arctan(self / other) in the right quadrant."""
    node_name = "Atan2Backward0"
    saved_names = ("other", "self")

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(b, a)
        return _binary64(np.arctan2, a, b, _float_operands(a, b))

    @staticmethod
    def backward(ctx, grad):
        """FunctionsManual.cpp, atan2_backward: ``recip`` is ``1 / (self * self + other * other)``, then
        ``grad * other * recip`` and ``grad * -self * recip``. torch 2.13 also sets ``recip`` to 0 where the
        denominator is 0, by a masked_fill (measured: its graph has MaskedFillBackward0 there, and the
        gradient at (0, 0) is 0, not nan)."""
        b, a = ctx.saved_tensors
        denominator = a * a + b * b
        recip = MaskedFill.apply(denominator.reciprocal(), denominator._data == 0, 0.0)
        needs_a, needs_b = ctx.needs_input_grad
        return (grad * b * recip if needs_a else None), (grad * -a * recip if needs_b else None)


def _xlogy(x, y):
    """x * log(y), 0 where x is 0 (unless y is nan): PyTorch's xlogy kernel."""
    return np.where(np.isnan(y), np.nan, np.where(x == 0, 0.0, x * np.log(y)))


class Xlogy(Function):
    """x * log(y), 0 where x == 0 (``xlogy.Tensor``)."""
    node_name = "XlogyBackward0"
    saved_names = ("other", "self")

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(b, a)
        return _binary64(_xlogy, a, b, _float_operands(a, b))

    @staticmethod
    def backward(ctx, grad):
        """derivatives.yaml, xlogy.Tensor: ``other``: ``grad * self / other``; ``self``:
        ``at::xlogy(grad, other).masked_fill((self == 0.) & (other <= 0.), 0.)``."""
        b, a = ctx.saved_tensors
        needs_a, needs_b = ctx.needs_input_grad
        grad_b = grad * a / b if needs_b else None
        grad_a = None
        if needs_a:
            logs = xlogy(grad, b)
            grad_a = MaskedFill.apply(logs, np.broadcast_to((a._data == 0) & (b._data <= 0), logs.shape), 0.0)
        return grad_a, grad_b


class XlogyScalarOther(Function):
    """xlogy(x, number) (``xlogy.Scalar_Other``)."""
    node_name = "XlogyBackward2"
    saved_names = ("self",)
    saved_fields = ("other",)

    @staticmethod
    def forward(ctx, a, other):
        ctx.other = other
        ctx.save_for_backward(a)
        b = as_tensor_operand(other, "xlogy")
        return _binary64(_xlogy, a, b, _float_operands(a, b))

    @staticmethod
    def backward(ctx, grad):
        """``other > 0 ? xlogy(grad, other) : xlogy(grad, other).masked_fill(self == 0., 0.)``."""
        (a,) = ctx.saved_tensors
        logs = XlogyScalarOther.apply(grad, ctx.other)
        if ctx.other > 0:
            return logs, None
        return MaskedFill.apply(logs, np.broadcast_to(a._data == 0, logs.shape), 0.0), None


class XlogyScalarSelf(Function):
    """xlogy(number, y) (``xlogy.Scalar_Self``): only y gets a gradient, ``grad * self / other``."""
    node_name = "XlogyBackward1"
    saved_names = ("other",)
    saved_fields = ("self",)

    @staticmethod
    def forward(ctx, number, b):
        ctx.self = number
        ctx.save_for_backward(b)
        a = as_tensor_operand(number, "xlogy")
        return _binary64(_xlogy, a, b, _float_operands(a, b))

    @staticmethod
    def backward(ctx, grad):
        (b,) = ctx.saved_tensors
        return None, MulScalar.apply(grad, ctx.self) / b


class Hypot(Function):
    """sqrt(self**2 + other**2), without overflow.  d/dself = self / result, d/dother = other / result."""
    node_name = "HypotBackward0"
    saved_names = ("other", "self", "result")

    @staticmethod
    def forward(ctx, a, b):
        result = _binary64(np.hypot, a, b, _float_operands(a, b))
        ctx.save_for_backward(b, a, result)
        return result

    @staticmethod
    def backward(ctx, grad):
        b, a, result = ctx.saved_tensors
        needs_a, needs_b = ctx.needs_input_grad
        grad_b = grad * b / result if needs_b else None
        grad_a = grad * a / result if needs_a else None
        return grad_a, grad_b


def _logaddexp(x, y):
    """log(e**x + e**y): PyTorch's kernel (``x`` itself where both are the same infinity)."""
    biggest = np.maximum(x, y)
    return np.where(np.isinf(x) & (x == y), x, biggest + np.log1p(np.exp(-np.abs(x - y))))


def _logaddexp2(x, y):
    biggest = np.maximum(x, y)
    return np.where(np.isinf(x) & (x == y), x, biggest + np.log1p(np.exp2(-np.abs(x - y))) / math.log(2))


class Logaddexp(Function):
    """log(e**self + e**other).  d/dself = 1 / (1 + e**(other - self))."""
    node_name = "LogaddexpBackward0"
    saved_names = ("other", "self")
    compute = staticmethod(_logaddexp)

    @classmethod
    def forward(cls, ctx, a, b):
        ctx.save_for_backward(b, a)
        return _binary64(cls.compute, a, b, _float_operands(a, b))

    @staticmethod
    def backward(ctx, grad):
        """``other``: ``grad / (1 + exp(self - other))``, then ``self``: ``grad / (1 + exp(other -
        self))``."""
        b, a = ctx.saved_tensors
        needs_a, needs_b = ctx.needs_input_grad
        grad_b = grad / AddScalar.apply((a - b).exp(), 1) if needs_b else None
        grad_a = grad / AddScalar.apply((b - a).exp(), 1) if needs_a else None
        return grad_a, grad_b


class Logaddexp2(Logaddexp):
    """log2(2**self + 2**other).  d/dself = 1 / (1 + 2**(other - self))."""
    node_name = "Logaddexp2Backward0"
    compute = staticmethod(_logaddexp2)

    @staticmethod
    def backward(ctx, grad):
        """``other``: ``grad / (1 + pow(2, self - other))``, then ``self``: ``grad / (1 + pow(2, other -
        self))``."""
        b, a = ctx.saved_tensors
        needs_a, needs_b = ctx.needs_input_grad
        grad_b = grad / AddScalar.apply(2 ** (a - b), 1) if needs_b else None
        grad_a = grad / AddScalar.apply(2 ** (b - a), 1) if needs_a else None
        return grad_a, grad_b


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


def _two_tensors(name, a, b):
    check_tensor(a, name)
    check_tensor(b, name, "other", 2)


def _floats_only(name, a, b):
    """hypot and logaddexp have no integer kernel in PyTorch."""
    dtype = result_dtype(a, b)
    if dtype.kind != "f":
        from .._dtype import from_numpy_dtype
        kind = from_numpy_dtype(dtype).scalar_name
        raise NotImplementedError(f'"{name}_cpu" not implemented for \'{kind}\'')


def atan2(input, other):
    """``torch.atan2``: the angle of (other, input), in (-pi, pi]."""
    _two_tensors("atan2", input, other)
    return Atan2.apply(input, other)


def xlogy(input, other):
    """``torch.xlogy``: input * log(other), 0 where input is 0; either may be a number."""
    if not isinstance(input, Tensor):
        check_tensor(other, "xlogy", "other", 2)
        return XlogyScalarSelf.apply(input, other)
    if not isinstance(other, Tensor):
        return XlogyScalarOther.apply(input, other)
    return Xlogy.apply(input, other)


def hypot(input, other):
    """``torch.hypot``: sqrt(input**2 + other**2)."""
    _two_tensors("hypot", input, other)
    _floats_only("hypot", input, other)
    return Hypot.apply(input, other)


def logaddexp(input, other):
    """``torch.logaddexp``: log(exp(input) + exp(other)), without overflow."""
    _two_tensors("logaddexp", input, other)
    _floats_only("logaddexp", input, other)
    return Logaddexp.apply(input, other)


def logaddexp2(input, other):
    """``torch.logaddexp2``: log2(2**input + 2**other), without overflow."""
    _two_tensors("logaddexp2", input, other)
    _floats_only("logaddexp2", input, other)
    return Logaddexp2.apply(input, other)


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
