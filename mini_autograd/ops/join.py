"""Joining tensors: ``cat`` along an existing dimension, ``stack`` along a new one."""
import numpy as np

from ..autograd.function import Function
from .._tensor import Tensor
from ._helpers import cast, result_dtype, wrap_dim
from .views import join_out


class Cat(Function):
    """cat(tensors, dim).  Each input gets its own slice of the gradient back."""
    node_name = "CatBackward0"

    @staticmethod
    def forward(ctx, dim, *tensors):
        """Skipped tensors (see ``_is_skipped``) add nothing but still take part in the dtype."""
        ctx.dim = dim
        ctx.sizes = [None if _is_skipped(t) else t.shape[dim] for t in tensors]
        dtype = result_dtype(*tensors)
        kept = [cast(t._data, dtype) for t in tensors if not _is_skipped(t)]
        if not kept:
            return Tensor(np.zeros(0, dtype))
        out = join_out(dtype, kept, dim, row_by_row=len(kept) < len(tensors))     # PyTorch's layout
        return Tensor(np.concatenate(kept, axis=dim, out=out))

    @staticmethod
    def backward(ctx, grad):
        """FunctionsManual.cpp, cat_tensors_backward: a narrow (slice) of the gradient for each input,
        an empty gradient for a skipped one."""
        from .indexing import Slice
        grads, start = [], 0
        for size in ctx.sizes:
            if size is None:
                grads.append(Tensor(np.zeros(0, grad._data.dtype)))
                continue
            grads.append(Slice.apply(grad, ctx.dim, slice(start, start + size)))
            start += size
        return (None, *grads)


def _is_skipped(tensor):
    """A 1-D tensor with no elements: torch.cat leaves it out of every shape check (a legacy rule,
    aten/src/ATen/WrapDimUtils.h: legacy_cat_wrap_dim)."""
    return tensor.ndim == 1 and tensor.shape[0] == 0


class Stack(Function):
    """stack(tensors, dim).  Each input gets one position of the gradient back."""
    node_name = "StackBackward0"

    @staticmethod
    def forward(ctx, dim, *tensors):
        ctx.dim = dim
        dtype = result_dtype(*tensors)
        arrays = [cast(t._data, dtype) for t in tensors]
        return Tensor(np.stack(arrays, axis=dim, out=join_out(dtype, arrays, dim, stack=True)))

    @staticmethod
    def backward(ctx, grad):
        count = grad.shape[ctx.dim]
        return (None, *(grad[(slice(None),) * ctx.dim + (i,)] for i in range(count)))


def _check_list(tensors, name):
    _check_list_type(tensors, name)
    _check_not_empty(tensors, name)


def _check_list_type(tensors, name):
    """A list or tuple of tensors, as PyTorch's argument parser wants it."""
    if isinstance(tensors, Tensor) or not isinstance(tensors, (list, tuple)):
        raise TypeError(f"{name}(): argument 'tensors' (position 1) must be tuple of Tensors, not "
                        f"{type(tensors).__name__}")
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got {type(t).__name__}")


def _check_not_empty(tensors, name):
    if not tensors:
        if name == "cat":
            raise ValueError("torch.cat(): expected a non-empty list of Tensors")
        raise RuntimeError(f"{name} expects a non-empty TensorList")


def cat(tensors, dim=0):
    _check_list(tensors, "cat")
    for i, t in enumerate(tensors):
        if t.ndim == 0:
            raise RuntimeError(f"zero-dimensional tensor (at position {i}) cannot be concatenated")
    kept = [(n, t) for n, t in enumerate(tensors) if not _is_skipped(t)]
    if not kept:                              # nothing but 1-D empty tensors: an empty result
        return Cat.apply(dim, *tensors)
    first = kept[0][1]
    # the dim before the shapes (aten/src/ATen/WrapDimUtils.h, legacy_cat_wrap_dim)
    dim = wrap_dim(dim, first.ndim)
    for _, t in kept[1:]:
        if t.ndim != first.ndim:
            raise RuntimeError(f"Tensors must have same number of dimensions: got {first.ndim} and {t.ndim}")
    for n, t in kept[1:]:
        for d in range(first.ndim):
            if d != dim and t.shape[d] != first.shape[d]:
                raise RuntimeError(f"Sizes of tensors must match except in dimension {dim}. Expected size "
                                   f"{first.shape[d]} but got size {t.shape[d]} for tensor number {n} "
                                   "in the list.")
    return Cat.apply(dim, *tensors)


def stack(tensors, dim=0):
    """The checks in PyTorch's order (aten/src/ATen/native/TensorShape.cpp: stack): the arguments'
    types, a non-empty list, the dim in range, then the shapes."""
    _check_list_type(tensors, "stack")
    if not isinstance(dim, (int, np.integer)) or isinstance(dim, bool):
        raise TypeError(f"stack(): argument 'dim' (position 2) must be int, not {type(dim).__name__}")
    _check_not_empty(tensors, "stack")
    dim = wrap_dim(dim, tensors[0].ndim + 1)
    for n, t in enumerate(tensors[1:], start=1):
        if t.shape != tensors[0].shape:
            raise RuntimeError("stack expects each tensor to be equal size, "
                               f"but got {list(tensors[0].shape)} at entry 0 "
                               f"and {list(t.shape)} at entry {n}")
    return Stack.apply(dim, *tensors)
