"""Operations that copy a tensor's elements into a new arrangement: ``flip``, ``repeat``, ``tril``,
``triu``; and ``outer``, which PyTorch builds from a reshape and a product.

Nodes and backward formulas: tools/autograd/derivatives.yaml: flip, repeat, tril and triu (flip's
gradient is ``grad.flip(dims)``, tril's ``grad.tril_symint(diagonal)``).
"""
import numpy as np

from .._tensor import Tensor
from ..autograd.function import Function
from ._helpers import check_tensor, contiguous, dims_tuple
from ._saved import shown_dims
from .views import laid_out_like


class Flip(Function):
    """The elements in reverse order along ``dims`` (a copy, not a view)."""
    node_name = "FlipBackward0"
    saved_fields = ("dims",)

    @staticmethod
    def forward(ctx, x, dims):
        """``dims``: a tuple of dims as given."""
        ctx.given, ctx.dims = dims, shown_dims(dims)
        axes = dims_tuple(dims, x.ndim) if dims and x.ndim else ()
        flipped = laid_out_like(x._data, np.flip(x._data, axis=axes) if axes else x._data)
        return Tensor(flipped.copy() if np.may_share_memory(flipped, x._data) else flipped)   # a copy

    @staticmethod
    def backward(ctx, grad):
        """derivatives.yaml, flip: ``grad.flip(dims)``."""
        return Flip.apply(grad, ctx.given), None


MISSING = object()      # an argument not given, where PyTorch's parser names it


def flip(x, *given, dims=MISSING):
    """``x`` reversed along each of ``dims`` (a list or tuple of ints), given by position or as ``dims=``
    (PyTorch's parser words a wrong type in the two ways)."""
    keyword = not given
    if given:
        dims, = given
    elif dims is MISSING:
        raise TypeError('flip() missing 1 required positional arguments: "dims"')
    check_tensor(x, "flip")
    if isinstance(dims, int):
        where = "" if keyword else " (position 2)"
        raise TypeError(f"flip(): argument 'dims'{where} must be tuple of ints, not {type(dims).__name__}")
    dims = tuple(dims)
    if dims:
        dims_tuple(dims, x.ndim)                 # (checked here; the node keeps dims as given)
    return Flip.apply(x, dims)


class Repeat(Function):
    """``x`` tiled ``repeats`` times along each dimension (leading dimensions added as needed)."""
    node_name = "RepeatBackward0"
    saved_fields = ("repeats", "self_sym_sizes")

    @staticmethod
    def forward(ctx, x, repeats):
        ctx.repeats, ctx.self_sym_sizes = repeats, tuple(x.shape)
        data = x._data.reshape((1,) * (len(repeats) - x.ndim) + x._data.shape)
        return Tensor(np.tile(data, repeats))

    @staticmethod
    def backward(ctx, grad):
        """FunctionsManual.cpp, repeat_backward: zeros if a repeat is 0; else the added leading
        dimensions summed away, then one reshape to (repeat, size) pairs and one sum over the repeats."""
        repeats, sizes = ctx.repeats, ctx.self_sym_sizes
        if 0 in repeats:
            return Tensor(np.zeros(sizes, grad._data.dtype)), None
        for _ in range(len(repeats) - len(sizes)):
            grad = grad.sum(0)
        grad_size, sum_dims = [], []
        for repeat, size in zip(repeats[len(repeats) - len(sizes):], sizes, strict=True):
            if repeat != 1:
                grad_size.append(repeat)
                sum_dims.append(len(grad_size) - 1)
            grad_size.append(size)
        if sum_dims:
            grad = grad.reshape(grad_size).sum(tuple(sum_dims))
        return grad, None


def repeat(x, repeats):
    """``x.repeat(2, 3)``: ``repeats`` (ints, or one tuple of them) copies along each dimension."""
    if not repeats:
        raise TypeError('repeat() missing 1 required positional arguments: "repeats"')
    if len(repeats) == 1 and isinstance(repeats[0], (tuple, list)):
        repeats = repeats[0]
    repeats = tuple(int(r) for r in repeats)
    if len(repeats) < x.ndim:
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number of dimensions "
                           "of tensor")
    sizes = [r * s for r, s in zip(repeats, (1,) * (len(repeats) - x.ndim) + tuple(x.shape), strict=True)]
    negative = [s for s in sizes if s < 0]
    if negative:
        raise RuntimeError(f"Trying to create tensor with negative dimension {negative[0]}: {sizes}")
    return Repeat.apply(x, repeats)


class Tril(Function):
    """The lower triangle of the last two dimensions (from ``diagonal`` down); zeros above it."""
    node_name = "TrilBackward0"
    saved_fields = ("diagonal",)
    keep = staticmethod(np.tril)

    @classmethod
    def forward(cls, ctx, x, diagonal):
        ctx.diagonal = diagonal
        return Tensor(contiguous(cls.keep(x._data, diagonal)))      # row by row, as PyTorch's

    @classmethod
    def backward(cls, ctx, grad):
        """derivatives.yaml, tril: ``grad.tril_symint(diagonal)`` (triu: ``grad.triu_symint(diagonal)``)."""
        return cls.apply(grad, ctx.diagonal), None


class Triu(Tril):
    """The upper triangle of the last two dimensions (from ``diagonal`` up); zeros below it."""
    node_name = "TriuBackward0"
    keep = staticmethod(np.triu)


def _triangle(function, name, x, diagonal):
    check_tensor(x, name)
    if x.ndim < 2:
        raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")
    return function.apply(x, int(diagonal))


def tril(x, diagonal=0):
    return _triangle(Tril, "tril", x, diagonal)


def triu(x, diagonal=0):
    return _triangle(Triu, "triu", x, diagonal)


def outer(x, vec2):
    """The outer product of two vectors: ``x.reshape(n, 1) * vec2``, which is how PyTorch computes it
    (aten/src/ATen/native/LinearAlgebra.cpp, outer), so its node is ``MulBackward0``."""
    check_tensor(x, "outer")
    check_tensor(vec2, "outer", "vec2", 2)
    for name, vector in (("self", x), ("vec2", vec2)):
        if vector.ndim != 1:
            raise RuntimeError(f"outer: Expected 1-D argument {name}, but got {vector.ndim}-D")
    return x.reshape(x.shape[0], 1) * vec2
