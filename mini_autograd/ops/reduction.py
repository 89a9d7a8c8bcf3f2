"""Reductions: sum, mean, max. Their backward spreads the gradient back over the input."""
import collections

import numpy as np

from ..autograd.function import Function
from .._tensor import Tensor
from ._helpers import check_tensor, dims_tuple, wrap_dim


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
        with np.errstate(invalid="ignore", over="ignore"):
            return Tensor(np.asarray(x._data.sum(axis=dims, keepdims=keepdim, dtype=_sum_dtype(x._data))))

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
        return grad.expand(ctx.self_sym_sizes) / ctx.self_sym_numel


class MeanDim(Function):
    """x.mean(dim, keepdim)."""
    node_name = "MeanBackward1"

    @staticmethod
    def forward(ctx, x, dims, keepdim):
        ctx.self_sym_sizes, ctx.dim, ctx.keepdim = tuple(x.shape), dims, keepdim
        ctx.self_sym_numel = x.numel()
        with np.errstate(invalid="ignore", over="ignore"):
            return Tensor(np.asarray(x._data.mean(axis=dims, keepdims=keepdim)))

    @staticmethod
    def backward(ctx, grad):
        count = int(np.prod([ctx.self_sym_sizes[d] for d in ctx.dim])) if ctx.self_sym_sizes else 1
        grad = _unsqueeze_dims(grad, ctx.dim, ctx.keepdim).expand(ctx.self_sym_sizes)
        return grad / count, None, None


class Max(Function):
    """x.max(): the gradient goes to the maximum (split evenly between ties)."""
    node_name = "MaxBackward1"
    saved_names = ("self", "result")

    @staticmethod
    def forward(ctx, x):
        if x.numel() == 0:
            raise RuntimeError("max(): Expected reduction dim to be specified for input.numel() == 0. "
                               "Specify the reduction dim with the 'dim' argument.")
        result = Tensor(np.asarray(x._data.max()))
        ctx.save_for_backward(x, result)
        return result

    @staticmethod
    def backward(ctx, grad):
        x, result = ctx.saved_tensors
        is_max = x._data == result._data
        share = Tensor((is_max / is_max.sum()).astype(grad._data.dtype))
        return grad * share


class MaxDim(Function):
    """x.max(dim) -> (values, indices): the gradient goes to the selected element of each row."""
    node_name = "MaxBackward0"
    saved_names = ("indices",)

    @staticmethod
    def forward(ctx, x, dim, keepdim):
        ctx.dim, ctx.keepdim, ctx.self_sym_sizes = dim, keepdim, tuple(x.shape)
        if x.ndim == 0:                  # a 0-d tensor is its own maximum, at index 0
            indices = Tensor(np.zeros((), np.int64))
            ctx.mark_non_differentiable(indices)
            ctx.save_for_backward(indices)
            return Tensor(x._data.copy()), indices
        if x.shape[dim] == 0:
            raise IndexError(f"max(): Expected reduction dim {dim} to have non-zero size.")
        indices = Tensor(np.asarray(x._data.argmax(axis=dim)))
        values = Tensor(np.asarray(np.take_along_axis(
            x._data, np.expand_dims(indices._data, dim), axis=dim).squeeze(axis=dim)))
        if keepdim:
            values, indices = Tensor(np.expand_dims(values._data, dim)), Tensor(np.expand_dims(indices._data, dim))
        ctx.dim, ctx.keepdim, ctx.self_sym_sizes = dim, keepdim, tuple(x.shape)
        ctx.mark_non_differentiable(indices)
        ctx.save_for_backward(indices)
        return values, indices

    @staticmethod
    def backward(ctx, grad, grad_indices):
        (indices,) = ctx.saved_tensors
        if not ctx.self_sym_sizes:
            return grad, None, None
        index = indices._data if ctx.keepdim else np.expand_dims(indices._data, ctx.dim)
        one_hot = np.zeros(ctx.self_sym_sizes, dtype=grad._data.dtype)
        np.put_along_axis(one_hot, index, 1, axis=ctx.dim)
        grad = _unsqueeze_dims(grad, (ctx.dim,), ctx.keepdim).expand(ctx.self_sym_sizes)
        return grad * Tensor(one_hot), None, None


class MaxResult(collections.namedtuple("max", ["values", "indices"])):
    """What ``x.max(dim)`` returns; prints like ``torch.return_types.max``."""

    def __repr__(self):
        return f"torch.return_types.max(\nvalues={self.values!r},\nindices={self.indices!r})"


MaxResult.__name__ = MaxResult.__qualname__ = "max"   # type(x.max(1)).__name__ == "max", as in PyTorch


def sum(x, dim=None, keepdim=False):
    check_tensor(x, "sum")
    if dim is None:
        return Sum.apply(x)
    return SumDim.apply(x, dims_tuple(dim, x.ndim), keepdim)


def mean(x, dim=None, keepdim=False):
    check_tensor(x, "mean")
    if not x.dtype.is_floating_point:
        raise RuntimeError("mean(): could not infer output dtype. Input dtype must be either a floating "
                           f"point or complex dtype. Got: {_dtype_word(x)}")
    if dim is None:
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
    return MaxResult(values, indices)


def argmax(x, dim=None, keepdim=False):
    check_tensor(x, "argmax")
    if x.numel() == 0:
        raise RuntimeError("argmax(): Expected reduction dim to be specified for input.numel() == 0."
                           if dim is None else
                           f"argmax(): Expected reduction dim {wrap_dim(dim, x.ndim)} to have non-zero size.")
    if dim is None:
        return Tensor(np.asarray(x._data.argmax()))
    dim = wrap_dim(dim, x.ndim)
    if x.ndim == 0:
        return Tensor(np.zeros((), np.int64))
    result = x._data.argmax(axis=dim)
    return Tensor(np.expand_dims(result, dim) if keepdim else np.asarray(result))


def _dtype_word(x):
    return {"int64": "Long", "bool": "Bool"}.get(x.dtype.name, x.dtype.name)
