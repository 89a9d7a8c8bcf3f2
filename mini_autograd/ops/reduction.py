"""Reductions: sum, mean, max, min, amax, amin, norm.

Their backward spreads the gradient back over the input.

Attributes a node keeps use PyTorch's names, so that ``grad_fn._saved_<name>`` shows
what PyTorch's shows: ``self_sym_sizes`` is the input's shape (``sym``: PyTorch's sizes
may be symbolic, for torch.compile; here they are plain ints).
"""
import math
import numpy as np

from ..autograd.function import Function
from .. import return_types
from .._tensor import Tensor
from ._helpers import check_tensor, contiguous, dims_tuple, quiet_mean, wrap_dim


def _unsqueeze_dims(grad, dims, keepdim):
    """Put back the reduced dimensions (as size 1) so the gradient can be expanded."""
    if not keepdim:
        for d in dims:
            grad = grad.unsqueeze(d)
    return grad


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
        return _unsqueeze_dims(grad, ctx.dim, ctx.keepdim).expand(ctx.self_sym_sizes), None, None


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
        grad = _unsqueeze_dims(grad, ctx.dim, ctx.keepdim).expand(ctx.self_sym_sizes)
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
        """value_selecting_reduction_backward: ``zeros(sizes).scatter_(dim, indices, grad)``."""
        (indices,) = ctx.saved_tensors
        zeros = Tensor(np.zeros(ctx.self_sym_sizes, grad._data.dtype))
        if not ctx.self_sym_sizes:
            return Scatter.apply(zeros, grad, ctx.dim, None), None, None
        index = indices._data if ctx.keepdim else np.expand_dims(indices._data, ctx.dim)
        grad = _unsqueeze_dims(grad, (ctx.dim,), ctx.keepdim)
        return Scatter.apply(zeros, grad, ctx.dim, index), None, None


def _positions(index, dim):
    """The numpy index that addresses, along ``dim``, the elements ``index`` names (as torch.gather)."""
    where = list(np.indices(index.shape, sparse=True))
    where[dim] = index
    return tuple(where)


class Scatter(Function):
    """``zeros.scatter_(dim, index, src)``: src put at ``index`` along ``dim`` (how max(dim) sends its
    gradient back). ``zeros`` is a fresh tensor, never differentiated; ``index`` None: a 0-d tensor."""
    node_name = "ScatterBackward0"

    @staticmethod
    def forward(ctx, zeros, src, dim, index):
        ctx.dim, ctx.index = dim, index
        if index is None:                  # a 0-d input: its only element was the one selected
            return Tensor(src._data.copy())
        out = zeros._data.copy()
        out[_positions(index, dim)] = src._data
        return Tensor(out)

    @staticmethod
    def backward(ctx, grad):
        """derivatives.yaml, scatter.src: src: grad.gather(dim, index)."""
        return None, Gather.apply(grad, ctx.dim, ctx.index), None, None


class Gather(Function):
    """The elements of x at ``index`` along ``dim`` (torch.gather)."""
    node_name = "GatherBackward0"

    @staticmethod
    def forward(ctx, x, dim, index):
        ctx.self_sym_sizes, ctx.dim, ctx.index = tuple(x.shape), dim, index
        if index is None:
            return Tensor(x._data.copy())
        return Tensor(x._data[_positions(index, dim)])

    @staticmethod
    def backward(ctx, grad):
        """TensorAdvancedIndexing.cpp, gather_backward:
        ``zeros(self.sizes()).scatter_add(dim, index, grad)``."""
        zeros = Tensor(np.zeros(ctx.self_sym_sizes, grad._data.dtype))
        return ScatterAdd.apply(zeros, grad, ctx.dim, ctx.index), None, None


class ScatterAdd(Function):
    """``zeros.scatter_add(dim, index, src)``: src added at ``index`` along ``dim`` (gather's backward)."""
    node_name = "ScatterAddBackward0"

    @staticmethod
    def forward(ctx, zeros, src, dim, index):
        ctx.dim, ctx.index = dim, index
        if index is None:
            return Tensor(zeros._data + src._data)
        out = zeros._data.copy()
        np.add.at(out, _positions(index, dim), src._data)
        return Tensor(out)

    @staticmethod
    def backward(ctx, grad):
        """derivatives.yaml, scatter_add: self: grad; src: grad.gather(dim, index)."""
        return (grad if ctx.needs_input_grad[0] else None, Gather.apply(grad, ctx.dim, ctx.index),
                None, None)


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
            grad = _unsqueeze_dims(grad, ctx.dim, False)
            norm = _unsqueeze_dims(norm, ctx.dim, False)
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


from .pointwise import DivScalar, MaskedFill, MaskedFillTensor, Sgn  # noqa: E402  (no import cycle)


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
        from .pointwise import Maximum
        return Maximum.apply(x, dim)
    if dim is None:
        return Max.apply(x)
    values, indices = MaxDim.apply(x, wrap_dim(dim, x.ndim), keepdim)
    return return_types.max((values, indices))


def min(x, dim=None, keepdim=False):
    check_tensor(x, "min")
    if isinstance(dim, Tensor):
        from .pointwise import Minimum
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
