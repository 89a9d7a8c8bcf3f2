"""More element-by-element operations: ``log10``, ``log2``, the roundings (``floor``, ``ceil``,
``round``, ``trunc``) and the tests ``isnan``, ``isinf``, ``isfinite``.

The logs' gradients are derivatives.yaml's (log10: ``grad / (self.conj() * 2.3025850929940456)``);
a rounding's gradient is zero (``zeros_like(grad)``); the tests give bool tensors, never part of
the graph.
"""
import numpy as np

from .._tensor import Tensor
from ..autograd.function import Function
from ._helpers import check_tensor, to_float
from .pointwise import MulScalar, _rounded_from_float64


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
