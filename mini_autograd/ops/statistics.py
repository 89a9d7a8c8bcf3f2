"""Statistics of a tensor: ``var``, ``std``, ``var_mean``, ``std_mean``, ``logsumexp``, ``prod``,
``cumsum``, ``cumprod``.

Each is a Function with PyTorch's node (``VarBackward0``, ``StdBackward0``, ``VarMeanBackward0``,
``StdMeanBackward0``, ``LogsumexpBackward0``, ``ProdBackward0``/``ProdBackward1``, ``CumsumBackward0``,
``CumprodBackward0``) and the backward formula of tools/autograd/derivatives.yaml, written with
tensor operations so
that ``create_graph=True`` records a second backward, as PyTorch's does.

float32 input is reduced in float64 and rounded, as PyTorch's CPU kernels accumulate
(Welford's variance and the running sum of cumsum keep a double; std takes the square
root of that double before rounding).
"""
import math
import warnings

import numpy as np

from .. import grad_mode
from .._tensor import Tensor
from ..autograd.function import Function
from ._helpers import check_tensor, contiguous, dims_tuple, quiet_mean, wrap_dim
from ._saved import shown_dim, shown_dims
from .pointwise import DivScalar, MaskedFill, MulScalar


def _unsqueeze_dims(grad, dims):
    """FunctionsManual.cpp, unsqueeze_multiple: the reduced dimensions put back, as size 1."""
    for d in sorted(dims):
        grad = grad.unsqueeze(d)
    return grad


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
        grad = _unsqueeze_dims(grad, dims)
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
                grad_mean = _unsqueeze_dims(grad_mean, dims)
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


# ------------------------------------------------------------------ logsumexp
class Logsumexp(Function):
    """log(sum(exp(x))) over ``dim``, computed stably (the maximum taken out first)."""
    node_name = "LogsumexpBackward0"
    saved_names = ("self", "result")
    saved_fields = ("dim", "keepdim")

    @staticmethod
    def forward(ctx, x, dim, keepdim):
        """aten/src/ATen/native/ReduceOps.cpp, logsumexp_out_impl: ``maxes = amax(self, dims, true)``,
        an infinite maximum taken as 0, then ``log(sum(exp(self - maxes))) + maxes``. ``dim``: as given."""
        ctx.dim, ctx.keepdim = shown_dims(dim), keepdim
        ctx.axis = dim = dims_tuple(dim, x.ndim)
        ctx.save_for_backward(x)
        data = x._data
        with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
            if data.size:
                maxes = np.amax(data, axis=dim, keepdims=True)
                maxes = np.where(np.isinf(maxes), np.zeros((), data.dtype), maxes)
                shifted = (data - maxes).astype(np.float64)
                total = np.exp(shifted).astype(data.dtype).sum(axis=dim, keepdims=keepdim)
                kept = maxes if keepdim else np.squeeze(maxes, axis=dim)
                out = np.log(total.astype(np.float64)).astype(data.dtype) + kept
            else:
                out = np.log(np.exp(data).sum(axis=dim, keepdims=keepdim))
        result = Tensor(contiguous(np.asarray(out, dtype=data.dtype)))
        ctx.save_for_backward(x, result)
        return result

    @staticmethod
    def backward(ctx, grad):
        """FunctionsManual.cpp, logsumexp_backward: ``grad * (self - result).exp()``, the reduced
        dimensions put back first."""
        x, result = ctx.saved_tensors
        if not ctx.keepdim and x.ndim != 0:
            grad, result = _unsqueeze_dims(grad, ctx.axis), _unsqueeze_dims(result, ctx.axis)
        return grad * (x - result).exp(), None, None


def _required(dim, name):
    """PyTorch's words (its argument parser's) for a missing ``dim``."""
    if dim is _MISSING:
        raise TypeError(f'{name}() missing 1 required positional arguments: "dim"')


_MISSING = object()


def logsumexp(x, dim=_MISSING, keepdim=False):
    """log(sum(exp(x), dim)); integer input is taken as float32, as PyTorch does."""
    _required(dim, "logsumexp")
    check_tensor(x, "logsumexp")
    if not x.dtype.is_floating_point:
        x = x.float()
    dims_tuple(dim, x.ndim)                  # (checked here; the node keeps dim as given)
    return Logsumexp.apply(x, dim, keepdim)


# ------------------------------------------------------------------ prod
class Prod(Function):
    """The product of all elements."""
    node_name = "ProdBackward0"
    saved_names = ("self", "result")

    @staticmethod
    def forward(ctx, x):
        result = Tensor(np.asarray(np.prod(x._data)))
        ctx.save_for_backward(x, result)
        return result

    @staticmethod
    def backward(ctx, grad):
        """derivatives.yaml, prod: ``prod_backward(grad, self.to(grad.scalar_type()), result)``."""
        x, result = ctx.saved_tensors
        return _prod_backward(grad, x, result, None)


class ProdDim(Function):
    """The products along one dimension."""
    node_name = "ProdBackward1"
    saved_names = ("self", "result")
    saved_fields = ("dim", "keepdim")

    @staticmethod
    def forward(ctx, x, dim, keepdim):
        """``dim``: as given."""
        ctx.dim, ctx.keepdim, ctx.axis = shown_dim(dim), keepdim, wrap_dim(dim, x.ndim)
        axis = ctx.axis if x.ndim else None
        result = Tensor(contiguous(np.prod(x._data, axis=axis, keepdims=keepdim and x.ndim > 0)))
        ctx.save_for_backward(x, result)
        return result

    @staticmethod
    def backward(ctx, grad):
        """derivatives.yaml, prod.dim_int: ``prod_backward(grad, self, result, dim, keepdim)``."""
        x, result = ctx.saved_tensors
        if x.ndim and not ctx.keepdim:
            grad, result = grad.unsqueeze(ctx.axis), result.unsqueeze(ctx.axis)
        return _prod_backward(grad, x, result, ctx.axis)[0], None, None


def _prod_backward(grad, x, result, dim):
    """FunctionsManual.cpp, prod_backward: ``grad * (result / input)`` when no input is 0; else the
    product of all the other elements, from exclusive cumulative products (prod_safe_zeros_backward),
    in tensor operations, so that a second backward goes through them (cumprod's) as PyTorch's does.
    ``dim`` None: the product of everything (more than one zero and no graph wanted: zeros)."""
    if x.ndim == 0:
        return (grad,)
    zeros = int((x._data == 0).sum())
    if zeros == 0:
        return (grad * (result / x),)
    if dim is not None:
        return (_prod_safe_zeros_backward(grad, x, dim),)
    if zeros > 1 and not grad_mode.is_grad_enabled():
        return (Tensor(np.zeros(x._data.shape, grad._data.dtype)),)
    return (_prod_safe_zeros_backward(grad, x.contiguous().view(-1), 0).view_as(x),)


def _along(dim, index):
    """The index that takes ``index`` (an int or a slice) along ``dim``, and everything elsewhere."""
    return (slice(None),) * dim + (index,)


def _ones_across(x, dim, dtype):
    """Ones of x's shape with ``dim`` of size 1 (PyTorch's ``ones_size[dim] = 1``)."""
    shape = list(x.shape)
    shape[dim] = 1
    return Tensor(np.ones(shape, dtype.numpy))


def _prod_safe_zeros_backward(grad, x, dim):
    """FunctionsManual.cpp, prod_safe_zeros_backward: ``grad`` times the product of the elements before
    each one (``cat({ones, input.narrow(dim, 0, n - 1)}).cumprod(dim)``) and of those after it (the same,
    flipped)."""
    from .join import cat
    from .rearrange import flip
    if x.numel() == 0:
        return grad.expand_as(x)
    n = x.shape[dim]
    if n == 1:
        return grad
    ones = _ones_across(x, dim, grad.dtype)
    before = cumprod(cat([ones, x[_along(dim, slice(0, n - 1))]], dim), dim)
    after = flip(cumprod(cat([ones, flip(x[_along(dim, slice(1, n))], (dim,))], dim), dim), (dim,))
    return grad * (before * after)


def prod(x, dim=None, keepdim=False, *, dtype=None):
    """The product of the elements (along ``dim``); integers and bools multiply as int64."""
    check_tensor(x, "prod")
    if isinstance(dim, (tuple, list)):
        raise TypeError("prod() received an invalid combination of arguments - got (tuple), but expected "
                        "one of:\n * (*, torch.dtype dtype = None)\n * (int dim, bool keepdim = False, *, "
                        "torch.dtype dtype = None)\n")
    if dtype is not None:
        x = x.to(dtype)
    elif not x.dtype.is_floating_point:
        x = x.long()
    if dim is None:
        return Prod.apply(x)
    wrap_dim(dim, x.ndim)
    return ProdDim.apply(x, dim, keepdim)


# ------------------------------------------------------------------ cumsum
class Cumsum(Function):
    """The running sums along ``dim``."""
    node_name = "CumsumBackward0"
    saved_fields = ("dim",)

    @staticmethod
    def forward(ctx, x, dim):
        """``dim``: as given."""
        ctx.dim, ctx.axis = shown_dim(dim), wrap_dim(dim, x.ndim)
        data = x._data
        if data.ndim == 0:
            return Tensor(data.copy())
        wide = np.float64 if data.dtype.kind == "f" else data.dtype
        return Tensor(np.cumsum(data, axis=ctx.axis, dtype=wide).astype(data.dtype, order="C"))

    @staticmethod
    def backward(ctx, grad):
        """FunctionsManual.cpp, cumsum_backward: ``grad.flip(dim).cumsum(dim).flip(dim)`` (grad as it is
        when it has one element, or one along dim)."""
        from .rearrange import flip
        if grad.numel() <= 1 or grad.shape[ctx.axis] == 1:
            return grad, None
        return flip(cumsum(flip(grad, (ctx.axis,)), ctx.axis), (ctx.axis,)), None


def cumsum(x, dim=_MISSING, *, dtype=None):
    """The running sums along ``dim``; integers and bools add up as int64."""
    _required(dim, "cumsum")
    check_tensor(x, "cumsum")
    if dtype is not None:
        x = x.to(dtype)
    elif not x.dtype.is_floating_point:
        x = x.long()
    wrap_dim(dim, x.ndim)
    return Cumsum.apply(x, dim)


# ------------------------------------------------------------------ cumprod
class Cumprod(Function):
    """The running products along ``dim`` (a float32 one kept in a double, as PyTorch's CPU kernel)."""
    node_name = "CumprodBackward0"
    saved_names = ("self", "result")
    saved_fields = ("dim",)

    @staticmethod
    def forward(ctx, x, dim):
        """``dim``: as given."""
        ctx.dim, ctx.axis = shown_dim(dim), wrap_dim(dim, x.ndim)
        data = x._data
        if data.ndim == 0:
            result = Tensor(data.copy())
        else:
            wide = np.float64 if data.dtype.kind == "f" else data.dtype
            result = Tensor(np.cumprod(data, axis=ctx.axis, dtype=wide).astype(data.dtype, order="C"))
        ctx.save_for_backward(x, result)
        return result

    @staticmethod
    def backward(ctx, grad):
        """derivatives.yaml, cumprod: ``cumprod_backward(grad.to(self.scalar_type()), self, dim, result)``."""
        x, result = ctx.saved_tensors
        return cumprod_backward(grad, x, ctx.axis, result), None


def cumprod_backward(grad, x, dim, result):
    """aten/src/ATen/native/ReduceOps.cpp, cumprod_backward: without zeros,
    ``reversed_cumsum(result * grad, dim) / input``. With zeros: the products that leave each element
    out, in tensor operations when a graph is recorded (create_graph=True; written into zeros slice by
    slice, CopySlices), else in numpy (its O(n) masks)."""
    from .rearrange import flip
    if x.numel() <= 1 or x.ndim == 0 or x.shape[dim] == 1:
        return grad
    is_zero = x._data == 0
    if not is_zero.any():
        w = result * grad
        return flip(cumsum(flip(w, (dim,)), dim), (dim,)) / x
    if not grad_mode.is_grad_enabled():
        return Tensor(_cumprod_grad_with_zeros(grad._data, x._data, result._data, dim))
    from .join import cat
    n = x.shape[dim]
    grad_input = Tensor(np.zeros(x._data.shape, grad._data.dtype))
    ones = _ones_across(x, dim, grad.dtype)
    for k in range(n):
        if k == 0:
            omitted = cat([ones, cumprod(x[_along(dim, slice(k + 1, None))], dim)], dim)
        elif k == n - 1:
            omitted = prod(x[_along(dim, slice(0, k))], dim, True)
        else:
            until = prod(x[_along(dim, slice(0, k))], dim, True)
            after = cumprod(x[_along(dim, slice(k + 1, None))], dim)
            omitted = cat([until, until.expand_as(after) * after], dim)
        grad_input[_along(dim, k)] = (grad[_along(dim, slice(k, None))] * omitted).sum(dim)
    return grad_input


def _cumprod_grad_with_zeros(grad, x, result, dim):
    """cumprod_backward's O(n) way with zeros, no graph: before the first zero, reversed_cumsum of
    result * grad over the input; at the first zero, the product before it times the sum of grad by the
    running products up to the second zero; 0 after it."""
    g, xx, y = (np.moveaxis(a, dim, -1) for a in (grad, x, result))
    w = y * g
    count = np.cumsum(xx == 0, axis=-1)
    out = np.zeros_like(g)
    before = count == 0
    with np.errstate(divide="ignore", invalid="ignore"):
        running = np.flip(np.cumsum(np.flip(np.where(before, w, 0), -1), -1), -1) / xx
    out[before] = running[before]
    between = count == 1
    first = np.argmax(between, axis=-1)[..., None]
    first_zero = np.zeros_like(between)
    np.put_along_axis(first_zero, first, True, axis=-1)
    first_zero &= between
    between &= ~first_zero
    total = (np.cumprod(np.where(between, xx, 1), -1) * np.where(count != 1, 0, g)).sum(-1, keepdims=True)
    previous = np.take_along_axis(y, np.maximum(first - 1, 0), axis=-1)
    total = total * np.where(first == 0, 1, previous)
    out[first_zero] = np.broadcast_to(total, out.shape)[first_zero]
    return np.ascontiguousarray(np.moveaxis(out, -1, dim)).astype(grad.dtype)


def cumprod(x, dim=_MISSING, *, dtype=None):
    """The running products along ``dim``; integers and bools multiply as int64."""
    _required(dim, "cumprod")
    check_tensor(x, "cumprod")
    if dtype is not None:
        x = x.to(dtype)
    elif not x.dtype.is_floating_point:
        x = x.long()
    wrap_dim(dim, x.ndim)
    return Cumprod.apply(x, dim)


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
