"""Cutting a tensor into pieces: ``split``, ``chunk`` and ``unbind``.

The pieces are views of the input, all outputs of one node (``SplitBackward0``,
``SplitWithSizesBackward0``, ``UnbindBackward0``), whose backward puts the pieces'
gradients back together: ``cat`` for split, ``stack`` for unbind (FunctionsManual.cpp,
split_with_sizes_backward and unbind_backward, a piece without a gradient counting as
zeros). Such views are marked as the outputs of a function that returns several views:
PyTorch refuses to change them in place while recording (ops/views.py,
``view_rebase_message``), and so does mini_autograd.

``chunk`` is PyTorch's ``split`` with the size rounded up (aten/src/ATen/native/TensorShape.cpp,
chunk), so its node is ``SplitBackward0`` too.
"""
import numpy as np

from .._tensor import Tensor
from ..autograd.function import Function
from .. import grad_mode
from ._helpers import check_tensor, view_of, wrap_dim
from ._saved import shown_dim
from .join import cat, stack


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
