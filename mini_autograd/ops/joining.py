"""Joining and splitting: ``cat`` along an existing dimension, ``stack`` along a new one; ``split``,
``chunk`` and ``unbind`` (tools/autograd/derivatives.yaml; aten/src/ATen/native/TensorShape.cpp).

The pieces of a split are views of the input, all outputs of one node (``SplitBackward0``,
``SplitWithSizesBackward0``, ``UnbindBackward0``), whose backward puts the pieces' gradients back
together: ``cat`` for split, ``stack`` for unbind (FunctionsManual.cpp, split_with_sizes_backward and
unbind_backward, a piece without a gradient counting as zeros). Such views are marked as the outputs of a
function that returns several views: PyTorch refuses to change them in place while recording
(ops/views.py, ``view_rebase_message``), and so does mini_autograd.

``chunk`` is PyTorch's ``split`` with the size rounded up (aten/src/ATen/native/TensorShape.cpp, chunk),
so its node is ``SplitBackward0`` too.
"""
import numpy as np

from .. import grad_mode
from .._tensor import Tensor
from ..autograd.function import Function
from ._helpers import cast, result_dtype, wrap_dim, check_tensor, view_of
from .views import join_out
from ._saved import shown_dim


class Cat(Function):
    """cat(tensors, dim).  Each input gets its own slice of the gradient back."""
    node_name = "CatBackward0"
    tensor_list = True     # one argument, Tensor[] tensors: a pruning backward computes all or none

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
    tensor_list = True     # one argument, Tensor[] tensors: a pruning backward computes all or none

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


def _views(ctx, x, dim, bounds):
    """The views of ``x`` between each pair of ``bounds`` along ``dim``, marked as the outputs of a
    node that returns several views (``MULTI_OUTPUT_NODE`` in variable.h)."""
    pieces = []
    for start, stop in zip(bounds[:-1], bounds[1:], strict=True):
        piece = view_of(x, x._data[(slice(None),) * dim + (slice(start, stop),)], ctx)
        _mark_multi_output(piece, ctx)
        pieces.append(piece)
    return tuple(pieces)


def _mark_multi_output(view, ctx):
    if view._base is not None and ctx._grad_enabled and not grad_mode.is_inference_mode_enabled() \
            and view._creation_meta != "INFERENCE_MODE":
        view._creation_meta = "MULTI_OUTPUT_NODE"


def _filled(grads, shapes, dtype):
    """Each piece's gradient, zeros for one that got none."""
    return [Tensor(np.zeros(shape, dtype)) if g is None else g
            for g, shape in zip(grads, shapes, strict=True)]


class SplitWithSizes(Function):
    """``x.split([2, 3], dim)``: pieces of the given sizes along ``dim``."""
    node_name = "SplitWithSizesBackward0"
    saved_fields = ("dim", "split_sizes", "self_sym_sizes")

    @staticmethod
    def forward(ctx, x, sizes, dim):
        """``dim``: as given."""
        ctx.split_sizes, ctx.self_sym_sizes = tuple(sizes), tuple(x.shape)
        ctx.dim, ctx.axis = shown_dim(dim), wrap_dim(dim, x.ndim)
        return _views(ctx, x, ctx.axis, np.concatenate([[0], np.cumsum(sizes, dtype=np.int64)]).tolist())

    @staticmethod
    def backward(ctx, *grads):
        """FunctionsManual.cpp, split_with_sizes_backward: ``at::cat(grads_all_defined, dim)``."""
        dtype = next(g for g in grads if g is not None)._data.dtype
        sizes, dim = ctx.self_sym_sizes, ctx.axis
        shapes = [sizes[:dim] + (n,) + sizes[dim + 1:] for n in ctx.split_sizes]
        return cat(_filled(grads, shapes, dtype), dim), None, None


class Split(SplitWithSizes):
    """``x.split(2, dim)``: pieces of one size (the last may be smaller) along ``dim``."""
    node_name = "SplitBackward0"
    saved_fields = ("dim", "split_size", "self_sym_sizes")

    @staticmethod
    def forward(ctx, x, sizes, dim):
        """``sizes``: each piece's size; ``split_size`` is the first's (what PyTorch's node keeps)."""
        ctx.split_size = sizes[0]
        return SplitWithSizes.forward(ctx, x, sizes, dim)


class Unbind(Function):
    """``x.unbind(dim)``: every position along ``dim``, that dimension removed."""
    node_name = "UnbindBackward0"
    saved_fields = ("dim",)

    @staticmethod
    def forward(ctx, x, dim):
        """``dim``: as given."""
        ctx.dim, ctx.axis = shown_dim(dim), wrap_dim(dim, x.ndim)
        dim = ctx.axis
        pieces = []
        for i in range(x.shape[dim]):
            piece = view_of(x, x._data[(slice(None),) * dim + (i,)], ctx)
            _mark_multi_output(piece, ctx)
            pieces.append(piece)
        return tuple(pieces)

    @staticmethod
    def backward(ctx, *grads):
        """FunctionsManual.cpp, unbind_backward: ``at::stack(grads_tensors, dim)``."""
        known = next(g for g in grads if g is not None)
        return stack(_filled(grads, [known.shape] * len(grads), known._data.dtype), ctx.axis), None


def split(x, split_size_or_sections, dim=0):
    """Pieces of ``split_size`` along ``dim`` (the last may be smaller), or of each size in a list."""
    check_tensor(x, "split")
    if x.ndim == 0:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    given, dim = dim, wrap_dim(dim, x.ndim)
    length = x.shape[dim]
    if isinstance(split_size_or_sections, (list, tuple)):
        sizes = [int(s) for s in split_size_or_sections]
        if any(s < 0 for s in sizes):
            raise RuntimeError(f"split_with_sizes expects split_sizes have only non-negative entries, but "
                               f"got split_sizes={sizes}")
        if sum(sizes) != length:
            raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {length} (input "
                               f"tensor's size at dimension {dim}), but got split_sizes={sizes}")
        return SplitWithSizes.apply(x, sizes, given)
    size = int(split_size_or_sections)
    if size < 0:
        raise RuntimeError(f"split expects split_size be non-negative, but got split_size={size}")
    if size == 0 and length != 0:
        raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got dimension size of "
                           f"{length}")
    count = max(1, -(-length // size)) if size else 1
    sizes = [size] * (count - 1) + [length - size * (count - 1)]
    return Split.apply(x, sizes, given)


def chunk(x, chunks, dim=0):
    """``chunks`` pieces of equal size along ``dim`` (the last may be smaller; there may be fewer)."""
    check_tensor(x, "chunk")
    if x.ndim == 0:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    length = x.shape[wrap_dim(dim, x.ndim)]
    size = -(-length // chunks)
    if size == 0 and length == 0:          # an empty dimension: `chunks` empty pieces
        return SplitWithSizes.apply(x, [0] * chunks, dim)
    return split(x, size, dim)


def unbind(x, dim=0):
    """Every position along ``dim``, each a view with that dimension removed."""
    check_tensor(x, "unbind")
    if x.ndim == 0:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    wrap_dim(dim, x.ndim)
    return Unbind.apply(x, dim)
