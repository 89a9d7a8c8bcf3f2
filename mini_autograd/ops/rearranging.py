"""Rearranging a tensor's elements: ``flip``, ``roll``, ``repeat``, ``repeat_interleave``, ``tril``/``triu``,
``diag``/``diagonal``, ``narrow`` and ``movedim`` (tools/autograd/derivatives.yaml;
aten/src/ATen/native/TensorShape.cpp).

Each records what PyTorch records. ``flip``, ``roll``, ``repeat``, ``tril`` and ``triu`` are one node each
(tools/autograd/derivatives.yaml: flip, repeat, tril and triu; flip's gradient is ``grad.flip(dims)``,
tril's ``grad.tril_symint(diagonal)``). ``diagonal`` is a view (``DiagonalBackward0``); ``diag`` of a
matrix is a copy of it (``DiagonalBackward0_copy``, PyTorch's ``diagonal_copy``), ``diag`` of a vector a
new matrix (``DiagEmbedBackward0``). ``narrow`` is a slice (``SliceBackward0``) and ``movedim`` a
``permute``. ``repeat_interleave`` by a number is, as in PyTorch, ``unsqueeze``, ``expand``, a contiguous
``clone`` and a ``flatten``; by a tensor of counts, an ``index_select``.
"""
import numbers

import numpy as np

from .._tensor import Tensor
from ..autograd.function import Function
from ._helpers import check_tensor, view_of, wrap_dim, contiguous, dims_tuple
from ._saved import shown_dim, shown_dims
from .views import laid_out_like


# ----------------------------------------------------------------- roll
class Roll(Function):
    """The elements shifted along ``dims`` by ``shifts``, those that fall off one end coming back at the
    other; with no dims, over the flattened tensor.  The gradient is rolled back."""
    node_name = "RollBackward0"
    saved_fields = ("dims", "shifts")

    @staticmethod
    def forward(ctx, x, shifts, dims):
        ctx.given = (shifts, dims)
        ctx.shifts, ctx.dims = shown_dims(shifts), shown_dims(dims)
        data = x._data
        if not dims:
            return Tensor(np.roll(data.reshape(-1), shifts[0]).reshape(data.shape))
        rolled = np.roll(data, shifts, axis=tuple(wrap_dim(d, data.ndim) for d in dims))
        return Tensor(np.ascontiguousarray(rolled))       # row by row, as PyTorch's

    @staticmethod
    def backward(ctx, grad):
        """derivatives.yaml, roll: ``grad.roll(-shifts, dims)``, both lists reversed."""
        shifts, dims = ctx.given
        return Roll.apply(grad, tuple(-s for s in reversed(shifts)), tuple(reversed(dims))), None, None


def _int_list(value):
    return tuple(int(v) for v in value) if isinstance(value, (tuple, list)) else (int(value),)


def roll(input, shifts, dims=None):
    """``torch.roll``: ``input`` shifted by ``shifts`` along ``dims`` (all of it, flattened, without)."""
    check_tensor(input, "roll")
    shifts = _int_list(shifts)
    dims = () if dims is None else _int_list(dims)
    if (not dims and len(shifts) != 1) or (dims and len(shifts) != len(dims)):
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:{len(dims)}")
    for d in dims:
        wrap_dim(d, input.ndim)
    return Roll.apply(input, shifts, dims)


# ----------------------------------------------------------------- diagonal, diag
def _diagonal_view(data, offset, dim1, dim2):
    """The diagonal of ``data`` over dims ``dim1`` and ``dim2`` as a writable view, laid out as PyTorch's:
    the other dims first, the diagonal last, stepping both dims at once."""
    n1, n2 = data.shape[dim1], data.shape[dim2]
    size = max(0, min(n1, n2 - offset) if offset >= 0 else min(n1 + offset, n2))
    start = [0] * data.ndim
    if size:
        start[dim2 if offset >= 0 else dim1] = abs(offset)
    base = data[tuple(slice(s, None) for s in start)] if size else data
    others = [d for d in range(data.ndim) if d not in (dim1, dim2)]
    shape = [data.shape[d] for d in others] + [size]
    strides = [data.strides[d] for d in others] + [data.strides[dim1] + data.strides[dim2]]
    return np.lib.stride_tricks.as_strided(base, shape, strides)


def _diagonal_dims(x, offset, dim1, dim2):
    d1, d2 = wrap_dim(dim1, x.ndim), wrap_dim(dim2, x.ndim)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    return d1, d2


class Diagonal(Function):
    """The diagonal over two dims, ``offset`` above (below, if negative) the main one: a view."""
    node_name = "DiagonalBackward0"
    saved_fields = ("dim1", "dim2", "offset", "self_sym_sizes")

    @classmethod
    def forward(cls, ctx, x, offset, dim1, dim2):
        ctx.given = (offset, dim1, dim2)
        ctx.dim1, ctx.dim2, ctx.offset = shown_dim(dim1), shown_dim(dim2), shown_dim(offset)
        ctx.self_sym_sizes = tuple(x.shape)
        d1, d2 = _diagonal_dims(x, offset, dim1, dim2)
        return cls.result(x, _diagonal_view(x._data, offset, d1, d2), ctx)

    @staticmethod
    def result(x, array, ctx):
        return view_of(x, array, ctx)

    @staticmethod
    def backward(ctx, grad):
        """derivatives.yaml, diagonal: ``diagonal_backward(grad, self.sizes(), offset, dim1, dim2)``."""
        return DiagonalBackward.apply(grad, ctx.self_sym_sizes, *ctx.given), None, None, None


class DiagonalCopy(Diagonal):
    """``diag`` of a matrix: the diagonal copied (PyTorch's diagonal_copy), not a view."""
    node_name = "DiagonalBackward0_copy"

    @staticmethod
    def result(x, array, ctx):
        return Tensor(np.ascontiguousarray(array))


class DiagonalBackward(Function):
    """zeros(sizes) with ``grad`` on the diagonal: diagonal's backward, differentiable again
    (its gradient is ``grad.diagonal(offset, dim1, dim2)``)."""
    node_name = "DiagonalBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, sizes, offset, dim1, dim2):
        ctx.given = (offset, dim1, dim2)
        out = np.zeros(sizes, grad._data.dtype)
        d1, d2 = wrap_dim(dim1, len(sizes)), wrap_dim(dim2, len(sizes))
        _diagonal_view(out, offset, d1, d2)[...] = grad._data
        return Tensor(out)

    @staticmethod
    def backward(ctx, grad):
        return diagonal(grad, *ctx.given), None, None, None, None


class DiagEmbed(Function):
    """``diag`` of a vector: a matrix with the vector on its ``offset`` diagonal, zeros elsewhere."""
    node_name = "DiagEmbedBackward0"
    saved_fields = ("dim1", "dim2", "offset")

    @staticmethod
    def forward(ctx, x, offset, dim1, dim2):
        ctx.given = (offset, dim1, dim2)
        ctx.dim1, ctx.dim2, ctx.offset = shown_dim(dim1), shown_dim(dim2), shown_dim(offset)
        n = x.shape[-1] + abs(offset)
        out = np.zeros(x.shape[:-1] + (n, n), x._data.dtype)
        _diagonal_view(out, offset, out.ndim - 2, out.ndim - 1)[...] = x._data
        return Tensor(out)

    @staticmethod
    def backward(ctx, grad):
        """derivatives.yaml, diag_embed: ``grad.diagonal(offset, dim1, dim2)``."""
        return diagonal(grad, *ctx.given), None, None, None


def diagonal(input, offset=0, dim1=0, dim2=1):
    """``torch.diagonal``: the diagonal over ``dim1`` and ``dim2`` (a view), last in the result."""
    check_tensor(input, "diagonal")
    return Diagonal.apply(input, int(offset), int(dim1), int(dim2))


def diag(input, diagonal=0):
    """``torch.diag``: of a vector, the square matrix with it on the ``diagonal``-th diagonal; of a
    matrix, that diagonal (a copy)."""
    check_tensor(input, "diag")
    if input.ndim == 1:
        return DiagEmbed.apply(input, int(diagonal), -2, -1)
    if input.ndim == 2:
        return DiagonalCopy.apply(input, int(diagonal), 0, 1)
    raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {input.ndim}D")


# ----------------------------------------------------------------- narrow, movedim
def narrow(input, dim, start, length):
    """``torch.narrow``: ``length`` elements of ``dim`` from ``start`` (a view: ``SliceBackward0``)."""
    from .indexing import Slice
    check_tensor(input, "narrow")
    if input.ndim == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    if isinstance(start, Tensor):
        if start.ndim != 0 or start.dtype.is_floating_point:
            raise RuntimeError("start must be an 0-dim integral Tensor.")
        start = int(start.item())
    start, length = int(start), int(length)
    if length < 0:
        raise RuntimeError("narrow(): length must be non-negative.")
    given, dim = dim, wrap_dim(dim, input.ndim)
    size = input.shape[dim]
    if not -size <= start <= size:
        raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], but got "
                         f"{start})")
    if start < 0:
        start += size
    if start > size - length:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({size}).")
    return Slice.apply(input, dim, slice(start, start + length), given)


def movedim(input, source, destination):
    """``torch.movedim``: the dims ``source`` moved to ``destination``, the others in their order (a
    ``permute``)."""
    from .shape import permute
    check_tensor(input, "movedim")
    source, destination = _int_list(source), _int_list(destination)
    if len(source) != len(destination):
        raise RuntimeError(f"movedim: Invalid source or destination dims: source ({list(source)} dims) "
                           f"should contain the same number of dims as destination ({list(destination)} "
                           "dims)")
    ndim = input.ndim
    source = [wrap_dim(d, ndim) for d in source]
    destination = [wrap_dim(d, ndim) for d in destination]
    for name, dims in (("source", source), ("destination", destination)):
        if len(set(dims)) != len(dims):
            raise RuntimeError(f"movedim: repeated dim in `{name}` ({dims})")
    order = [-1] * max(ndim, 1)
    for s, d in zip(source, destination, strict=True):
        order[d] = s
    rest = iter(d for d in range(ndim) if d not in source)
    order = [next(rest) if o == -1 else o for o in order][:ndim]
    return permute(input, tuple(order))


# ----------------------------------------------------------------- repeat_interleave
def repeat_interleave(input, repeats=None, dim=None, *, output_size=None):
    """``torch.repeat_interleave``: each element (each slice of ``dim``) repeated ``repeats`` times, in
    place (``[a, b] -> [a, a, b, b]``); ``repeats`` a number or a tensor of counts. Alone, a tensor of
    counts gives the indices ``[0] * c0 + [1] * c1 + ...``."""
    from .indexing import IndexSelect
    check_tensor(input, "repeat_interleave")
    if repeats is None:
        return _count_indices(input, output_size)
    source = input if dim is not None else input.flatten()
    dim = wrap_dim(0 if dim is None else dim, input.ndim)
    if isinstance(repeats, Tensor):
        if repeats.ndim == 0 or (repeats.ndim == 1 and repeats.shape[0] == 1):
            size = source.shape[dim] if source.ndim else 1
            counts = np.full(size, int(repeats._data.reshape(-1)[0]), np.int64)
        elif repeats.ndim == 1:
            if repeats.shape[0] != (source.shape[dim] if source.ndim else 1):
                raise RuntimeError("repeats must have the same size as input along dim, but got "
                                   f"repeats.size(0) = {repeats.shape[0]} and input.size({dim}) = "
                                   f"{source.shape[dim]}")
            counts = repeats._data
        else:
            raise RuntimeError("repeats must be 0-dim or 1-dim tensor")
        index = _count_indices(Tensor(np.asarray(counts)), output_size)
        return IndexSelect.apply(source, dim, index._data, (index,))
    if not isinstance(repeats, numbers.Integral):
        raise TypeError(f"repeat_interleave(): argument 'repeats' (position 1) must be Tensor, not "
                        f"{type(repeats).__name__}")
    if repeats < 0:
        raise RuntimeError("Repeats must be non-negative")
    if output_size is not None and output_size != (source.shape[dim] if source.ndim else 1) * repeats:
        raise RuntimeError("Value of output_size does not match the value of repeats and input size")
    if source.ndim == 0:
        source = source.reshape(1)
    expanded = source.unsqueeze(dim + 1)
    sizes = list(expanded.shape)
    sizes[dim + 1] = repeats
    return expanded.expand(*sizes).clone(memory_format="contiguous").flatten(dim, dim + 1)


def _count_indices(counts, output_size=None):
    """``repeat_interleave(counts)``: index i repeated counts[i] times."""
    if counts.ndim != 1:
        raise RuntimeError("repeat_interleave only accept 1D vector as repeat")
    if counts.dtype.name not in ("int64", "int32"):
        raise NotImplementedError(f'"repeat_interleave_cpu" not implemented for '
                                  f'\'{counts.dtype.scalar_name}\'')
    values = counts._data.astype(np.int64)
    if values.size and values.min() < 0:
        raise RuntimeError("repeats can not be negative")
    if output_size is not None and output_size != int(values.sum()):
        raise RuntimeError("allocated size does not match required size")
    return Tensor(np.repeat(np.arange(values.size, dtype=np.int64), values))


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
