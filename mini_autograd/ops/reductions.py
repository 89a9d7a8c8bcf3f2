"""Reductions and scans: ``sum``, ``mean``, ``max``, ``min``, ``amax``, ``amin``, ``norm``,
``argmax``/``argmin``, ``logsumexp``, ``prod``, ``cumsum`` and ``cumprod``
(tools/autograd/derivatives.yaml; aten/src/ATen/native/ReduceOps.cpp).

Their backward spreads the gradient back over the input; ``max(dim)``'s is
``_helpers.value_selecting_reduction_backward``, a scatter into zeros. Each is a Function with PyTorch's
node (``SumBackward1``, ``LogsumexpBackward0``, ``ProdBackward0``/``ProdBackward1``, ``CumsumBackward0``,
``CumprodBackward0``, ...) and the backward formula of derivatives.yaml, written with tensor operations so
that ``create_graph=True`` records a second backward, as PyTorch's does.

Attributes a node keeps use PyTorch's names, so that ``grad_fn._saved_<name>`` shows what PyTorch's shows:
``self_sym_sizes`` is the input's shape (``sym``: PyTorch's sizes may be symbolic, for torch.compile; here
they are plain ints). float32 input to cumsum is summed in float64 and rounded, as PyTorch's CPU kernel
keeps a double.
"""
import math

import numpy as np

from .. import grad_mode
from .. import return_types
from .._tensor import Tensor
from ..autograd.function import Function
from ._helpers import (check_tensor, contiguous, dims_tuple, quiet_mean, unsqueeze_multiple,
                       value_selecting_reduction_backward, wrap_dim)
from .binary import DivScalar, MaskedFill, MaskedFillTensor
from .unary import Sgn
from ._saved import shown_dim, shown_dims


def _sum_dtype(data):
    return np.int64 if data.dtype.kind in "bi" else data.dtype


class Sum(Function):
    """x.sum(): every element gets the gradient of the total."""
    node_name = "SumBackward0"

    @staticmethod
    def forward(ctx, x):
        ctx.self_sym_sizes = tuple(x.shape)
        with np.errstate(invalid="ignore", over="ignore"):
            return Tensor(np.asarray(x._data.sum(dtype=_sum_dtype(x._data))))

    @staticmethod
    def backward(ctx, grad):
        return grad.expand(ctx.self_sym_sizes)


class SumDim(Function):
    """x.sum(dim, keepdim)."""
    node_name = "SumBackward1"

    @staticmethod
    def forward(ctx, x, dims, keepdim):
        ctx.self_sym_sizes, ctx.dim, ctx.keepdim = tuple(x.shape), dims, keepdim
        # (a reduction's result is contiguous in PyTorch)
        with np.errstate(invalid="ignore", over="ignore"):
            return Tensor(contiguous(x._data.sum(axis=dims, keepdims=keepdim, dtype=_sum_dtype(x._data))))

    @staticmethod
    def backward(ctx, grad):
        grad = grad if ctx.keepdim else unsqueeze_multiple(grad, ctx.dim)
        return grad.expand(ctx.self_sym_sizes), None, None


class Mean(Function):
    """x.mean(): every element gets 1/n of the gradient."""
    node_name = "MeanBackward0"

    @staticmethod
    def forward(ctx, x):
        ctx.self_sym_sizes, ctx.self_sym_numel = tuple(x.shape), x.numel()
        if x.numel() == 0:
            return Tensor(np.array(np.nan, dtype=x._data.dtype))   # numpy would warn; PyTorch does not
        with np.errstate(invalid="ignore", over="ignore"):
            return Tensor(np.asarray(x._data.mean()))

    @staticmethod
    def backward(ctx, grad):
        return DivScalar.apply(grad.expand(ctx.self_sym_sizes), ctx.self_sym_numel)


class MeanDim(Function):
    """x.mean(dim, keepdim)."""
    node_name = "MeanBackward1"

    @staticmethod
    def forward(ctx, x, dims, keepdim):
        ctx.self_sym_sizes, ctx.dim, ctx.keepdim = tuple(x.shape), dims, keepdim
        ctx.self_sym_numel = x.numel()
        return Tensor(contiguous(quiet_mean(x._data, axis=dims, keepdims=keepdim)))

    @staticmethod
    def backward(ctx, grad):
        count = math.prod([ctx.self_sym_sizes[d] for d in ctx.dim]) if ctx.self_sym_sizes else 1
        grad = (grad if ctx.keepdim else unsqueeze_multiple(grad, ctx.dim)).expand(ctx.self_sym_sizes)
        return DivScalar.apply(grad, count), None, None


class Max(Function):
    """x.max(): the gradient goes to the maximum (split evenly between ties)."""
    node_name = "MaxBackward1"
    saved_names = ("self", "result")
    reduce, word = staticmethod(np.max), "max"

    @classmethod
    def forward(cls, ctx, x):
        if x.numel() == 0:
            raise RuntimeError(f"{cls.word}(): Expected reduction dim to be specified for "
                               "input.numel() == 0. "
                               "Specify the reduction dim with the 'dim' argument.")
        result = Tensor(np.asarray(cls.reduce(x._data)))
        ctx.save_for_backward(x, result)
        return result

    @staticmethod
    def backward(ctx, grad):
        """FunctionsManual.cpp, evenly_distribute_backward (its CPU branch): zeros, filled in place
        with grad / (number of maxima) at every maximum; when the maximum is nan, at every nan
        (``value.isnan().item<bool>() ? input.isnan() : input == value``)."""
        x, result = ctx.saved_tensors
        is_max = np.isnan(x._data) if np.isnan(result._data) else x._data == result._data
        share = grad / Tensor(np.asarray(is_max.sum(), dtype=np.int64))
        return MaskedFillTensor.apply(Tensor(np.zeros(x._data.shape, grad._data.dtype)), share, is_max)


class Min(Max):
    """x.min(): the gradient goes to the minimum (split evenly between ties)."""
    node_name = "MinBackward1"
    reduce, word = staticmethod(np.min), "min"


class MaxDim(Function):
    """x.max(dim) -> (values, indices): the gradient goes to the selected element of each row."""
    node_name = "MaxBackward0"
    saved_names = ("indices",)
    arg, word = staticmethod(np.argmax), "max"

    @classmethod
    def forward(cls, ctx, x, dim, keepdim):
        ctx.dim, ctx.keepdim, ctx.self_sym_sizes = dim, keepdim, tuple(x.shape)
        if x.ndim == 0:                  # a 0-d tensor is its own maximum, at index 0
            indices = Tensor(np.zeros((), np.int64))
            ctx.mark_non_differentiable(indices)
            ctx.save_for_backward(indices)
            return Tensor(x._data.copy()), indices
        if x.shape[dim] == 0:
            raise IndexError(f"{cls.word}(): Expected reduction dim {dim} to have non-zero size.")
        indices = Tensor(contiguous(cls.arg(x._data, axis=dim)))       # row by row, as PyTorch's results
        values = Tensor(contiguous(np.take_along_axis(
            x._data, np.expand_dims(indices._data, dim), axis=dim).squeeze(axis=dim)))
        if keepdim:
            values = Tensor(np.expand_dims(values._data, dim))
            indices = Tensor(np.expand_dims(indices._data, dim))
        ctx.mark_non_differentiable(indices)
        ctx.save_for_backward(indices)
        return values, indices

    @staticmethod
    def backward(ctx, grad, grad_indices):
        """As derivatives.yaml has it for max(dim): ``value_selecting_reduction_backward_symint(grad, dim,
        indices, self.sym_sizes(), keepdim)``."""
        (indices,) = ctx.saved_tensors
        grad = value_selecting_reduction_backward(grad, ctx.dim, indices, ctx.self_sym_sizes, ctx.keepdim)
        return grad, None, None


class MinDim(MaxDim):
    """x.min(dim) -> (values, indices)."""
    node_name = "MinBackward0"
    arg, word = staticmethod(np.argmin), "min"


class Amax(Function):
    """x.amax(dim): the largest values along dims; the gradient is split evenly between ties."""
    node_name = "AmaxBackward0"
    saved_names = ("self", "result")
    reduce, word = staticmethod(np.max), "amax"

    @classmethod
    def forward(cls, ctx, x, dims, keepdim):
        ctx.dim, ctx.keepdim = dims, keepdim
        for d in dims:
            if x.shape[d] == 0:
                raise IndexError(f"{cls.word}(): Expected reduction dim {d} to have non-zero size.")
        result = Tensor(contiguous(cls.reduce(x._data, axis=dims, keepdims=keepdim)))
        ctx.save_for_backward(x, result)
        return result

    @staticmethod
    def backward(ctx, grad):
        """scale_grad_by_count(restore_reduced_dims(grad), result == self): split evenly between ties."""
        x, result = ctx.saved_tensors
        kept = result._data if ctx.keepdim or not ctx.dim else np.expand_dims(result._data, ctx.dim)
        is_max = x._data == kept
        count = Tensor(np.asarray(is_max.sum(axis=ctx.dim, keepdims=True), dtype=np.int64))
        if not ctx.keepdim and ctx.dim:
            grad = grad.reshape(kept.shape)
        return grad / count * Tensor(is_max), None, None


class Amin(Amax):
    """x.amin(dim)."""
    node_name = "AminBackward0"
    reduce, word = staticmethod(np.min), "amin"


class VectorNorm(Function):
    """The p-norm over dims (``x.norm()``, ``torch.linalg.vector_norm``)."""
    node_name = "LinalgVectorNormBackward0"
    saved_names = ("self", "result")

    @staticmethod
    def forward(ctx, x, p, dims, keepdim, dim_given=True):
        """``dims``: the dimensions reduced; ``dim_given``: whether they were named (not ``dim=None``)."""
        ctx.ord, ctx.dim, ctx.keepdim, ctx.dim_given = p, dims, keepdim, dim_given
        data = np.abs(x._data)
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            if p == 2:
                out = np.sqrt((data * data).sum(axis=dims, keepdims=keepdim))
            elif p == 1:
                out = data.sum(axis=dims, keepdims=keepdim)
            elif p == float("inf"):
                out = data.max(axis=dims, keepdims=keepdim, initial=0)
            elif p == float("-inf"):
                out = data.min(axis=dims, keepdims=keepdim, initial=np.inf)
            elif p == 0:
                out = (data != 0).sum(axis=dims, keepdims=keepdim).astype(data.dtype)
            else:
                out = (data ** p).sum(axis=dims, keepdims=keepdim) ** (1.0 / p)
        result = Tensor(contiguous(np.asarray(out, dtype=x._data.dtype)))
        ctx.save_for_backward(x, result)
        return result

    @staticmethod
    def backward(ctx, grad):
        """FunctionsManual.cpp, linalg_vector_norm_backward (norm_backward), case by case."""
        x, norm = ctx.saved_tensors
        p = ctx.ord
        nones = (None, None, None, None)
        if not ctx.keepdim and x.ndim != 0 and ctx.dim_given:
            grad = unsqueeze_multiple(grad, ctx.dim)
            norm = unsqueeze_multiple(norm, ctx.dim)
        if p == 0:
            return (None,) + nones                   # an undefined gradient, as PyTorch's ``{}``
        if p == 1:
            return (Sgn.apply(x) * grad,) + nones
        if p == 2:
            return (grad * MaskedFill.apply(x / norm, norm._data == 0, 0.0),) + nones
        if p in (float("inf"), float("-inf")):
            x_abs = x.abs()
            is_max = Tensor((x_abs._data == norm._data) | np.isnan(x_abs._data))
            count = sum(is_max, ctx.dim, True)
            return (Sgn.apply(x) * ((grad / count) * is_max),) + nones
        # x.abs().pow_(...): in place, as PyTorch, so its saved input is a clone (CloneBackward0).
        # The right operand of a product first: the order C++ (GCC) evaluates them in, which
        # is the order PyTorch's nodes are made in, and so the order a second backward runs them.
        if p < 1:
            powered = MaskedFill.apply(x.abs().pow_(p - 1), x._data == 0, 0.0)
            scaled = Sgn.apply(x) * powered
            norm_powered = norm ** (1 - p)
            return (scaled * grad * norm_powered,) + nones
        if p < 2:
            powered = x.abs().pow_(p - 1)
            scaled = Sgn.apply(x) * powered
        else:
            scaled = x * x.abs().pow_(p - 2)
        scale = MaskedFill.apply(grad / norm ** (p - 1), norm._data == 0, 0.0)
        return (scaled * scale,) + nones


def sum(x, dim=None, keepdim=False):
    check_tensor(x, "sum")
    if dim is None and not keepdim:
        return Sum.apply(x)
    return SumDim.apply(x, dims_tuple(dim, x.ndim), keepdim)     # (dim=None, keepdim=True: every dim)


def mean(x, dim=None, keepdim=False):
    check_tensor(x, "mean")
    if not x.dtype.is_floating_point:
        raise RuntimeError("mean(): could not infer output dtype. Input dtype must be either a floating "
                           f"point or complex dtype. Got: {_dtype_word(x)}")
    if dim is None and not keepdim:
        return Mean.apply(x)
    return MeanDim.apply(x, dims_tuple(dim, x.ndim), keepdim)


def max(x, dim=None, keepdim=False):
    check_tensor(x, "max")
    if isinstance(dim, Tensor):
        from .binary import Maximum
        return Maximum.apply(x, dim)
    if dim is None:
        return Max.apply(x)
    values, indices = MaxDim.apply(x, wrap_dim(dim, x.ndim), keepdim)
    return return_types.max((values, indices))


def min(x, dim=None, keepdim=False):
    check_tensor(x, "min")
    if isinstance(dim, Tensor):
        from .binary import Minimum
        return Minimum.apply(x, dim)
    if dim is None:
        return Min.apply(x)
    values, indices = MinDim.apply(x, wrap_dim(dim, x.ndim), keepdim)
    return return_types.min((values, indices))


def amax(x, dim=(), keepdim=False):
    check_tensor(x, "amax")
    return Amax.apply(x, dims_tuple(dim, x.ndim), keepdim)


def amin(x, dim=(), keepdim=False):
    check_tensor(x, "amin")
    return Amin.apply(x, dims_tuple(dim, x.ndim), keepdim)


def norm(x, p="fro", dim=None, keepdim=False, dtype=None):
    """The vector p-norm of x (over ``dim``, or all of it): 2 by default ("fro" is 2 too)."""
    check_tensor(x, "norm")
    if p in ("fro", None):
        p = 2
    if isinstance(p, str):
        raise NotImplementedError(f"mini_autograd's norm has no p={p!r}; it takes a number")
    if not x.dtype.is_floating_point:
        raise RuntimeError(f"linalg.vector_norm: Expected a floating point or complex tensor as input. "
                           f"Got {_dtype_word(x)}")
    if dtype is not None:
        x = x.to(dtype)
    return VectorNorm.apply(x, float(p) if not isinstance(p, int) else p, dims_tuple(dim, x.ndim), keepdim,
                            dim is not None)


def _arg(x, dim, keepdim, name, function):
    check_tensor(x, name)
    if x.numel() == 0:
        raise RuntimeError(f"{name}(): Expected reduction dim to be specified for input.numel() == 0."
                           if dim is None else
                           f"{name}(): Expected reduction dim {wrap_dim(dim, x.ndim)} to have non-zero size.")
    if dim is None:
        result = np.asarray(function(x._data))
        return Tensor(result.reshape((1,) * x.ndim) if keepdim else result)
    dim = wrap_dim(dim, x.ndim)
    if x.ndim == 0:
        return Tensor(np.zeros((), np.int64))
    result = function(x._data, axis=dim)
    return Tensor(np.expand_dims(result, dim) if keepdim else np.asarray(result))


def argmax(x, dim=None, keepdim=False):
    return _arg(x, dim, keepdim, "argmax", np.argmax)


def argmin(x, dim=None, keepdim=False):
    return _arg(x, dim, keepdim, "argmin", np.argmin)


def _dtype_word(x):
    return {"int64": "Long", "bool": "Bool"}.get(x.dtype.name, x.dtype.name)


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
            grad, result = unsqueeze_multiple(grad, ctx.axis), unsqueeze_multiple(result, ctx.axis)
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
    from .joining import cat
    from .rearranging import flip
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
        from .rearranging import flip
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
    from .rearranging import flip
    if x.numel() <= 1 or x.ndim == 0 or x.shape[dim] == 1:
        return grad
    is_zero = x._data == 0
    if not is_zero.any():
        w = result * grad
        return flip(cumsum(flip(w, (dim,)), dim), (dim,)) / x
    if not grad_mode.is_grad_enabled():
        return Tensor(_cumprod_grad_with_zeros(grad._data, x._data, result._data, dim))
    from .joining import cat
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
