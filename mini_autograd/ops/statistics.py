"""Statistics: ``var``, ``std``, ``var_mean``, ``std_mean`` and ``histogram``
(tools/autograd/derivatives.yaml; aten/src/ATen/native/ReduceOps.cpp and Histogram.cpp).

Each is a Function with PyTorch's node (``VarBackward0``, ``StdBackward0``, ``VarMeanBackward0``,
``StdMeanBackward0``) and the backward formula of derivatives.yaml, written with tensor operations so that
``create_graph=True`` records a second backward, as PyTorch's does. ``histogram`` has no derivative in
PyTorch: its node is ``NotImplemented``.

float32 input is reduced in float64 and rounded, as PyTorch's CPU kernels accumulate (Welford's variance
keeps a double; std takes the square root of that double before rounding).
"""
import math
import warnings

import numpy as np

from .._tensor import Tensor
from ..autograd.function import Function
from ._helpers import check_tensor, dims_tuple, quiet_mean, unsqueeze_multiple
from ._saved import shown_dims
from .binary import DivScalar, MaskedFill, MulScalar


def _reduced_count(shape, dims):
    return math.prod([shape[d] for d in dims]) if shape else 1


# ------------------------------------------------------------------ var and std
class Var(Function):
    """The variance: the squared deviations from the mean, summed and divided by n - correction."""
    node_name = "VarBackward0"
    saved_names = ("self",)
    saved_fields = ("correction", "dim", "keepdim")

    @staticmethod
    def forward(ctx, x, dim, correction, keepdim):
        """``dim``: the dims as given (None: all); ``correction``: as given (None means 1)."""
        ctx.axis, ctx.dim, ctx.correction, ctx.keepdim = dim, shown_dims(dim), correction, keepdim
        ctx.save_for_backward(x)
        return Tensor(_variance(x._data, dim, correction, keepdim).astype(x._data.dtype, order="C"))

    @staticmethod
    def backward(ctx, grad):
        """derivatives.yaml, var.correction: ``var_backward(grad, self, dim, correction, keepdim)``."""
        (x,) = ctx.saved_tensors
        return var_backward(grad, x, ctx.axis, ctx.correction, ctx.keepdim), None, None, None


class Std(Function):
    """The standard deviation: the square root of the variance."""
    node_name = "StdBackward0"
    saved_names = ("self", "result")
    saved_fields = ("correction", "dim", "keepdim")

    @staticmethod
    def forward(ctx, x, dim, correction, keepdim):
        ctx.axis, ctx.dim, ctx.correction, ctx.keepdim = dim, shown_dims(dim), correction, keepdim
        deviation = np.sqrt(_variance(x._data, dim, correction, keepdim))
        result = Tensor(deviation.astype(x._data.dtype, order="C"))
        ctx.save_for_backward(x, result)
        return result

    @staticmethod
    def backward(ctx, grad):
        """FunctionsManual.cpp, std_backward: ``(grad / (result * 2)).masked_fill_(result == 0, 0)``,
        then var_backward."""
        x, result = ctx.saved_tensors
        grad_var = MaskedFill.apply(grad / MulScalar.apply(result, 2), result._data == 0, 0.0)
        return var_backward(grad_var, x, ctx.axis, ctx.correction, ctx.keepdim), None, None, None


def _variance(data, dim, correction, keepdim):
    """The variance in float64 (inf or nan where n - correction <= 0), not yet rounded."""
    axis = None if dim is None else dims_tuple(dim, data.ndim)
    wide = data.astype(np.float64)
    count = wide.size if axis is None else _reduced_count(data.shape, axis)
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = wide.mean(axis=axis, keepdims=True) if wide.size else np.float64(np.nan)
        squares = ((wide - mean) ** 2).sum(axis=axis, keepdims=keepdim)
        dof = max(0.0, count - (1 if correction is None else correction))
        return np.asarray(squares / dof, dtype=np.float64)


def var_backward(grad, x, dim, correction, keepdim):
    """FunctionsManual.cpp, var_backward: ``(2 / (n - correction)) * grad * (self - self.mean(dim))``;
    over everything with n - correction <= 0, ``grad * where(self == self.mean(), nan, inf)``, whose
    ``where`` of two python floats is a float32 tensor (the default dtype): times a float64 0-d ``grad``
    that is float32 too, which the engine casts back (ToCopyBackward0 under ``create_graph``)."""
    correction = 1 if correction is None else correction
    if x.ndim == 0 or dim is None:
        dof = x.numel() - correction
        if dof <= 0:
            mean = x.mean()
            return grad * Tensor(np.where(x._data == mean._data, np.nan, np.inf).astype(np.float32))
        return MulScalar.apply(grad, 2.0 / dof) * (x - x.mean())
    dims = dims_tuple(dim, x.ndim)
    if not keepdim and x.ndim > 1:
        grad = unsqueeze_multiple(grad, dims)
    with np.errstate(divide="ignore"):
        scale = float(np.float64(2.0) / np.float64(_reduced_count(x.shape, dims) - correction))
    return MulScalar.apply(grad, scale) * (x - x.mean(dims, keepdim=True))


_VAR_OVERLOADS = (" * (tuple of ints dim, bool unbiased = True, bool keepdim = False)\n"
                  " * (tuple of ints dim = None, *, Number correction = None, bool keepdim = False)\n"
                  " * (bool unbiased = True)\n")


_VAR_MEAN_OVERLOADS = (" * (Tensor input, tuple of ints dim, bool unbiased = True, bool keepdim = False)\n"
                       " * (Tensor input, tuple of ints dim = None, *, Number correction = None, "
                       "bool keepdim = False)\n"
                       " * (Tensor input, bool unbiased = True)\n")


def _spread(function, name, x, dim, unbiased, keepdim, correction, kwargs, overloads=_VAR_OVERLOADS, got=""):
    """``var``/``std`` with PyTorch's overloads: ``(dim, unbiased, keepdim)``, ``(dim, *, correction,
    keepdim)`` and ``(unbiased)``; numpy's ``axis``/``keepdims`` are accepted too."""
    dim = kwargs.pop("axis", dim)
    keepdim = kwargs.pop("keepdims", keepdim)
    if kwargs or (unbiased is not None and correction is not None):
        given = dict(kwargs, **{k: v for k, v in (("correction", correction), ("unbiased", unbiased))
                                if v is not None})
        if got:                                # the function's form: the tensor first, no trailing comma
            got = ", ".join([got] + [f"{key}={type(value).__name__}" for key, value in sorted(given.items())])
        else:
            got = "".join(f"{key}={type(value).__name__}, " for key, value in sorted(given.items()))
        tail = (f"      didn't match because some of the keywords were incorrect: {', '.join(kwargs)}\n"
                if kwargs else "")
        raise TypeError(f"{name}() received an invalid combination of arguments - got ({got}), but "
                        f"expected one of:\n{overloads}{tail}")
    check_tensor(x, name)
    if isinstance(dim, bool):                  # x.var(False): the (bool unbiased) overload
        dim, unbiased = None, dim
    if not x.dtype.is_floating_point:
        raise RuntimeError(f"{name if name.endswith('_mean') else 'std and var'} only support floating point "
                           "and complex dtypes")
    if unbiased is not None:
        correction = 1 if unbiased else 0
    elif correction is None and dim is not None:
        correction = 1       # PyTorch's (dim, unbiased=True, keepdim) overload: its node shows correction 1
    if isinstance(dim, int):
        dim = (dim,)
    if dim is not None:
        dims = dims_tuple(tuple(dim), x.ndim)
        dim = tuple(dim)
    else:
        dims = tuple(range(x.ndim))
    count = _reduced_count(tuple(x.shape), dims) if x.ndim else 1
    if count - (1 if correction is None else correction) <= 0:
        # PyTorch's warning (its C++ reduction kernel gives it); the result is inf or nan
        warnings.warn(f"{name}(): degrees of freedom is <= 0. Correction should be strictly less than the "
                      "reduction factor (input numel divided by output numel).", UserWarning, stacklevel=3)
    return function.apply(x, dim, correction, keepdim)


def var(x, dim=None, unbiased=None, keepdim=False, *, correction=None, **kwargs):
    """The variance over ``dim`` (all by default), divided by n - 1 (``unbiased``), or n - ``correction``."""
    return _spread(Var, "var", x, dim, unbiased, keepdim, correction, kwargs)


def std(x, dim=None, unbiased=None, keepdim=False, *, correction=None, **kwargs):
    """The standard deviation over ``dim``: the square root of ``var`` with the same arguments."""
    return _spread(Std, "std", x, dim, unbiased, keepdim, correction, kwargs)


# ------------------------------------------------------------------ var_mean and std_mean
class VarMean(Function):
    """The variance and the mean over ``dim``, as a pair, from one node."""
    node_name = "VarMeanBackward0"
    saved_names = ("self",)
    saved_fields = ("correction", "dim", "keepdim")

    @classmethod
    def forward(cls, ctx, x, dim, correction, keepdim):
        ctx.axis, ctx.dim, ctx.correction, ctx.keepdim = dim, shown_dims(dim), correction, keepdim
        ctx.set_materialize_grads(False)    # an output without a gradient adds nothing (PyTorch: undefined)
        spread = cls.spread(_variance(x._data, dim, correction, keepdim))
        axes = tuple(range(x.ndim)) if dim is None else dims_tuple(dim, x.ndim)
        mean = quiet_mean(x._data.astype(np.float64), axis=axes, keepdims=keepdim)
        result0 = Tensor(np.asarray(spread).astype(x._data.dtype, order="C"))
        cls.save(ctx, x, result0)
        return result0, Tensor(np.asarray(mean).astype(x._data.dtype, order="C"))

    spread = staticmethod(lambda variance: variance)

    @staticmethod
    def save(ctx, x, result0):
        ctx.save_for_backward(x)

    @classmethod
    def backward(cls, ctx, grad_var, grad_mean):
        """FunctionsManual.cpp, var_mean_backward: var_backward of the first gradient, plus mean_backward of
        the second (``grad`` expanded back over ``dim``, divided by the count)."""
        x = ctx.saved_tensors[0]
        grad = None if grad_var is None else cls.first_backward(ctx, grad_var)
        if grad_mean is not None:
            dims = tuple(range(x.ndim)) if ctx.axis is None else dims_tuple(ctx.axis, x.ndim)
            if not ctx.keepdim and ctx.axis is not None and x.ndim:
                grad_mean = unsqueeze_multiple(grad_mean, dims)
            count = _reduced_count(tuple(x.shape), dims)
            mean_grad = DivScalar.apply(grad_mean.expand(tuple(x.shape)), count)
            grad = mean_grad if grad is None else grad + mean_grad
        return grad, None, None, None

    @staticmethod
    def first_backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return var_backward(grad, x, ctx.axis, ctx.correction, ctx.keepdim)


class StdMean(VarMean):
    """The standard deviation and the mean over ``dim``, as a pair, from one node."""
    node_name = "StdMeanBackward0"
    saved_names = ("self", "result0")
    spread = staticmethod(np.sqrt)

    @staticmethod
    def save(ctx, x, result0):
        ctx.save_for_backward(x, result0)

    @staticmethod
    def first_backward(ctx, grad):
        """FunctionsManual.cpp, std_mean_backward: std_backward of the first gradient."""
        x, result = ctx.saved_tensors
        grad_var = MaskedFill.apply(grad / MulScalar.apply(result, 2), result._data == 0, 0.0)
        return var_backward(grad_var, x, ctx.axis, ctx.correction, ctx.keepdim)


def var_mean(x, dim=None, unbiased=None, keepdim=False, *, correction=None, **kwargs):
    """``torch.var_mean``: ``(var, mean)`` over ``dim``, with ``var``'s arguments."""
    return _spread(VarMean, "var_mean", x, dim, unbiased, keepdim, correction, kwargs, _VAR_MEAN_OVERLOADS,
                   type(x).__name__)


def std_mean(x, dim=None, unbiased=None, keepdim=False, *, correction=None, **kwargs):
    """``torch.std_mean``: ``(std, mean)`` over ``dim``, with ``std``'s arguments."""
    return _spread(StdMean, "std_mean", x, dim, unbiased, keepdim, correction, kwargs, _VAR_MEAN_OVERLOADS,
                   type(x).__name__)


# ------------------------------------------------------------------ histogram
class _HistogramResult(tuple):
    """``(hist, bin_edges)``, printed as ``torch.return_types.histogram(...)``."""

    __slots__ = ()

    def __new__(cls, hist, bin_edges):
        return super().__new__(cls, (hist, bin_edges))

    hist = property(lambda self: self[0])
    bin_edges = property(lambda self: self[1])

    def __repr__(self):
        return f"torch.return_types.histogram(\nhist={self.hist!r},\nbin_edges={self.bin_edges!r})"


_HistogramResult.__name__ = _HistogramResult.__qualname__ = "histogram"


class Histogram(Function):
    """The counts of ``x``'s elements in each bin. PyTorch records a node whose backward refuses to run
    (``torch::autograd::NotImplemented``): the counts have no derivative."""
    node_name = "NotImplemented"

    @staticmethod
    def forward(ctx, x, bounds, weights, density):
        """Each element in the bin whose edges hold it, the last edge in the last bin, elements outside
        (and nan) left out: the bins of ``LINEAR_INTERPOLATION_WITH_LOCAL_SEARCH`` in
        aten/src/ATen/native/cpu/HistogramKernel.cpp, which gives the same as a binary search of the
        edges. ``bounds`` and ``weights`` are numpy arrays (not graph inputs)."""
        data = x._data.reshape(-1)
        bins = bounds.size - 1
        inside = (data >= bounds[0]) & (data <= bounds[-1])
        values = data[inside]
        weights = None if weights is None else weights.reshape(-1)[inside]
        pos = np.minimum(np.searchsorted(bounds, values, side="right") - 1, bins - 1)
        hist = np.bincount(pos, weights=weights, minlength=bins).astype(x._data.dtype)
        if density:                    # divided by the total, then by each bin's width, as PyTorch does
            with np.errstate(invalid="ignore", divide="ignore"):
                hist = hist / hist.dtype.type(hist.sum()) / np.diff(bounds)
        return Tensor(hist), Tensor(bounds.copy())

    @staticmethod
    def backward(ctx, *grads):
        raise RuntimeError("derivative for aten::histogram is not implemented")


Histogram._backward_cls.name = lambda self: "torch::autograd::NotImplemented"


def histogram(x, bins=100, *, range=None, weight=None, density=False):
    """``(hist, bin_edges)``: ``bins`` equal bins over ``range`` (by default from the smallest element to
    the largest), or the edges ``bins`` gives. The checks come in the order of Histogram.cpp's
    (histogramdd_prepare_out, select_outer_bin_edges, histogramdd_check_inputs), with its words."""
    check_tensor(x, "histogram")
    if isinstance(bins, Tensor):
        _check_histogram_inputs(x, bins, weight)
        _check_bin_count(bins.numel() - 1)
        edges = bins
    else:
        bins = int(bins)
        _check_bin_count(bins)
        low, high = _outer_bin_edges(x, range)
        if not x.dtype.is_floating_point:
            raise _not_implemented("histogram_cpu", x)
        from ..creation import linspace
        edges = linspace(low, high, bins + 1, dtype=x.dtype)
        _check_histogram_inputs(x, edges, weight)
    if not x.dtype.is_floating_point:
        raise _not_implemented("histogram_cpu", x)
    weights = None if weight is None else weight._data.reshape(-1)
    hist, edges = Histogram.apply(x, edges._data, weights, bool(density))
    return _HistogramResult(hist, edges)


def _not_implemented(kernel, x):
    return NotImplementedError(f"\"{kernel}\" not implemented for '{x.dtype.scalar_name}'")


def _check_bin_count(count):
    """Histogram.cpp, histogramdd_prepare_out: at least one bin."""
    if count <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {count} for dimension 0")


def _outer_bin_edges(x, range):
    """Histogram.cpp, select_outer_bin_edges: ``range``, else the smallest and largest element (0 and 1
    for an empty input); finite, min <= max, and widened by 0.5 each way when they are equal."""
    low, high = 0.0, 1.0
    if range is not None:
        if len(range) != 2:
            raise RuntimeError(f"torch.histogramdd: for a 1-dimensional histogram range should have 2 "
                               f"elements, but got {len(range)}")
        low, high = float(range[0]), float(range[1])
    elif x.numel():
        if not x.dtype.is_floating_point:
            raise _not_implemented("histogramdd", x)
        low, high = float(x._data.min()), float(x._data.max())
    if not (np.isfinite(low) and np.isfinite(high)):
        raise RuntimeError(f"torch.histogramdd: dimension 0's range [{low:g}, {high:g}] is not finite")
    if low > high:
        raise RuntimeError(f"torch.histogramdd: min should not exceed max, but got min {low:g} max {high:g} "
                           f"for dimension 0")
    if low == high:
        low, high = low - 0.5, high + 0.5
    return low, high


def _check_histogram_inputs(x, edges, weight):
    """Histogram.cpp, histogramdd_check_inputs, for the (numel, 1) input a histogram makes of x."""
    if edges.dtype is not x.dtype:
        raise RuntimeError(f"torch.histogramdd: input tensor and bins tensors should have the same dtype, "
                           f"but got input with dtype {x.dtype.c_name} and bins for dimension 0 with dtype "
                           f"{edges.dtype.c_name}")
    if edges.ndim != 1:
        raise RuntimeError(f"torch.histogramdd: bins tensor should have one dimension, but got {edges.ndim} "
                           f"dimensions in the bins tensor for dimension 0")
    if edges.numel() == 0:
        raise RuntimeError("torch.histogramdd: bins tensor should have at least 1 element, but got 0 "
                           "elements in the bins tensor for dimension 0")
    if weight is not None:
        if weight.dtype is not x.dtype:
            raise RuntimeError(f"torch.histogramdd: if weight tensor is provided, input tensor and weight "
                               f"tensor should have the same dtype, but got input({x.dtype.c_name}), and "
                               f"weight({weight.dtype.c_name})")
        if weight.numel() != x.numel():
            raise RuntimeError(f"torch.histogramdd: if weight tensor is provided it should have the same "
                               f"shape as the input tensor excluding its innermost dimension, but got input "
                               f"with shape [{x.numel()}, 1] and weight with shape [{weight.numel()}]")
