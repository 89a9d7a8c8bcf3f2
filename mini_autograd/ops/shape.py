"""Shape operations: views of the same data (view, transpose, expand, ...) and clone.

A view shares its base's memory and version counter, so an in-place change
through one is seen (and counted) by the other, as in PyTorch.

Attributes a node keeps use PyTorch's names, so that ``grad_fn._saved_<name>`` shows
what PyTorch's shows: ``self_sym_sizes`` is the input's shape (``sym``: PyTorch's sizes
may be symbolic, for torch.compile; here they are plain ints).
"""
import math
import warnings

import numpy as np

from ..autograd.function import Function
from .._tensor import Tensor
from ._helpers import view_of, wrap_dim
from .views import empty_like_preserve, expand_array


def _infer_shape(shape, numel):
    """Resolve one ``-1`` and check the element count (PyTorch's infer_size)."""
    shape = tuple(int(s) for s in shape)
    if shape.count(-1) > 1:
        raise RuntimeError("only one dimension can be inferred")
    known = math.prod([s for s in shape if s != -1])
    if -1 in shape:
        if known == 0 or numel % known:
            raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
        shape = tuple(numel // known if s == -1 else s for s in shape)
    elif known != numel:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    return shape


def _normalize_shape(shape):
    if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
        return tuple(shape[0])
    return tuple(shape)


def _try_view(array, shape):
    """The array reshaped without copying, or None when the strides make that impossible."""
    view = array.view()
    try:
        view.shape = shape
    except AttributeError:
        return None
    return view


class View(Function):
    """x.view(shape): same data, new shape.  The gradient is reshaped back."""
    node_name = "ViewBackward0"
    saved_fields = ("self_sym_sizes",)

    @staticmethod
    def forward(ctx, x, shape):
        ctx.self_sym_sizes = tuple(x.shape)
        array = _try_view(x._data, shape)
        if array is None:
            raise RuntimeError("view size is not compatible with input tensor's size and stride (at "
                               "least one dimension spans across two contiguous subspaces). Use "
                               ".reshape(...) instead.")
        return view_of(x, array, ctx)

    @staticmethod
    def backward(ctx, grad):
        return grad.reshape(ctx.self_sym_sizes), None


class ReshapeAlias(View):
    """The reshape of a tensor that is not laid out row by row but can still be viewed (no copy)."""
    node_name = "ReshapeAliasBackward0"


class UnsafeView(Function):
    """The reshape of a fresh copy (what ``reshape`` does when a view is impossible)."""
    node_name = "UnsafeViewBackward0"
    saved_fields = ("self_sym_sizes",)

    @staticmethod
    def forward(ctx, x, shape):
        ctx.self_sym_sizes = tuple(x.shape)
        return Tensor(x._data.reshape(shape))

    @staticmethod
    def backward(ctx, grad):
        return grad.reshape(ctx.self_sym_sizes), None


class Clone(Function):
    """A copy with its own memory.  The gradient passes through unchanged.

    As PyTorch's ``clone()`` (memory_format=preserve): a tensor that fills one block of
    memory keeps its strides (a transposed tensor's clone is transposed too); any other is copied
    into one block, its dims in the order of its strides (``empty_like_preserve``). A clone made
    with ``contiguous=True`` (``x.contiguous()``) is row by row.
    """
    node_name = "CloneBackward0"

    @staticmethod
    def forward(ctx, x, contiguous=False):
        data = x._data
        if contiguous:
            return Tensor(data.copy(order="C"))
        out = empty_like_preserve(data, data.dtype)
        out[...] = data
        return Tensor(out)

    @staticmethod
    def backward(ctx, grad):
        return grad, None


class CopyForGrad(Clone):
    """The copy AccumulateGrad makes of a first gradient under ``create_graph=True``."""
    node_name = "CopyBackwards"


class Transpose(Function):
    """x.transpose(d0, d1).  The gradient is transposed back."""
    node_name = "TransposeBackward0"

    @staticmethod
    def forward(ctx, x, dim0, dim1):
        ctx.dim0, ctx.dim1 = dim0, dim1
        if x.ndim == 0:
            return view_of(x, x._data[...], ctx)
        return view_of(x, np.swapaxes(x._data, dim0, dim1), ctx)

    @staticmethod
    def backward(ctx, grad):
        return grad.transpose(ctx.dim0, ctx.dim1), None, None


class T(Function):
    """x.t() for tensors of at most 2 dimensions."""
    node_name = "TBackward0"

    @staticmethod
    def forward(ctx, x):
        return view_of(x, x._data.T, ctx)

    @staticmethod
    def backward(ctx, grad):
        return grad.t()


class Permute(Function):
    """x.permute(dims) (also ``x.T``).  The gradient is permuted back with the inverse order."""
    node_name = "PermuteBackward0"
    saved_fields = ("dims",)

    @staticmethod
    def forward(ctx, x, dims):
        ctx.dims = dims
        return view_of(x, np.transpose(x._data, dims), ctx)

    @staticmethod
    def backward(ctx, grad):
        return grad.permute(tuple(np.argsort(ctx.dims).tolist())), None


class Unsqueeze(Function):
    """x.unsqueeze(dim): a new dimension of size 1."""
    node_name = "UnsqueezeBackward0"

    @staticmethod
    def forward(ctx, x, dim):
        ctx.dim = dim
        data = x._data          # the new dim's stride as PyTorch's inferUnsqueezeGeometry makes it
        stride = data.itemsize if dim == data.ndim else data.shape[dim] * data.strides[dim]
        array = np.lib.stride_tricks.as_strided(data, data.shape[:dim] + (1,) + data.shape[dim:],
                                                data.strides[:dim] + (stride,) + data.strides[dim:],
                                                writeable=data.flags.writeable)
        return view_of(x, array, ctx)

    @staticmethod
    def backward(ctx, grad):
        return grad.squeeze(ctx.dim), None


class Squeeze(Function):
    """x.squeeze(): drop every dimension of size 1."""
    node_name = "SqueezeBackward0"

    @staticmethod
    def forward(ctx, x, dims):
        ctx.self_sym_sizes, ctx.dims = tuple(x.shape), tuple(sorted(dims))
        return view_of(x, x._data.squeeze(axis=dims), ctx)

    @staticmethod
    def backward(ctx, grad):
        for d in ctx.dims:                  # PyTorch's unsqueeze_to: nothing to do if nothing was squeezed
            grad = grad.unsqueeze(d)
        return grad, None


class SqueezeDim(Squeeze):
    """x.squeeze(dim): drop that dimension if its size is 1."""
    node_name = "SqueezeBackward1"


class SqueezeDims(Squeeze):
    """The squeeze ``matmul`` uses after multiplying a vector as a 1-row matrix.

    PyTorch squeezes that fresh product in place (``squeeze_``), so the result is not a
    view of anything: an in-place op on it later changes only it.
    """
    node_name = "SqueezeBackward4"

    @staticmethod
    def forward(ctx, x, dims):
        ctx.self_sym_sizes, ctx.dims = tuple(x.shape), tuple(sorted(dims))
        return Tensor(x._data.squeeze(axis=dims))


class Expand(Function):
    """x.expand(sizes): repeat size-1 dimensions without copying.  The gradient is summed back."""
    node_name = "ExpandBackward0"

    @staticmethod
    def forward(ctx, x, sizes):
        ctx.self_sym_sizes = tuple(x.shape)
        return view_of(x, expand_array(x._data, sizes), ctx)

    @staticmethod
    def backward(ctx, grad):
        from ..autograd.engine import sum_to
        return sum_to(grad, ctx.self_sym_sizes), None


def view(x, shape):
    shape = _infer_shape(_normalize_shape(shape), x.numel())
    return View.apply(x, shape)


def reshape(x, shape):
    """A view when the strides allow one, else a copy (PyTorch's reshape)."""
    shape = _infer_shape(_normalize_shape(shape), x.numel())
    if x._data.flags.c_contiguous:
        return View.apply(x, shape)
    if _try_view(x._data, shape) is not None:
        return ReshapeAlias.apply(x, shape)
    return UnsafeView.apply(Clone.apply(x, True), shape)


def flatten(x, start_dim=0, end_dim=-1):
    """The dimensions start_dim..end_dim merged into one (a reshape; a 0-d tensor becomes 1-d)."""
    if x.ndim == 0:
        wrap_dim(start_dim, 0), wrap_dim(end_dim, 0)
        return reshape(x, (1,))
    start, end = wrap_dim(start_dim, x.ndim), wrap_dim(end_dim, x.ndim)
    if start > end:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if start == end:
        return x
    shape = tuple(x.shape)
    merged = math.prod(shape[start:end + 1])
    return reshape(x, shape[:start] + (merged,) + shape[end + 1:])


def clone(x, memory_format=None):
    return Clone.apply(x, memory_format is not None and "contiguous" in str(memory_format))


def transpose(x, dim0, dim1):
    dim0, dim1 = wrap_dim(dim0, x.ndim), wrap_dim(dim1, x.ndim)
    return Transpose.apply(x, dim0, dim1)


def t(x):
    if x.ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {x.ndim}D")
    return T.apply(x)


def permute(x, dims):
    dims = _normalize_shape(dims)
    if len(dims) != x.ndim:
        raise RuntimeError(f"permute(sparse_coo): number of dimensions in the tensor input does not match "
                           f"the length of the desired ordering of dimensions i.e. input.dim() = {x.ndim} "
                           f"is not equal to len(dims) = {len(dims)}")
    dims = tuple(wrap_dim(d, x.ndim) for d in dims)
    if len(set(dims)) != len(dims):
        raise RuntimeError("permute(): duplicate dims are not allowed.")
    return Permute.apply(x, dims)


def unsqueeze(x, dim):
    return Unsqueeze.apply(x, wrap_dim(dim, x.ndim + 1))


def squeeze(x, dim=None):
    if dim is None:
        return Squeeze.apply(x, tuple(i for i, s in enumerate(x.shape) if s == 1))
    dim = wrap_dim(dim, x.ndim)
    return SqueezeDim.apply(x, (dim,) if x.ndim and x.shape[dim] == 1 else ())


def squeeze_for_matmul(x, dim):
    return SqueezeDims.apply(x, (dim,))


def expand(x, sizes):
    sizes = _normalize_shape(sizes)
    if len(sizes) < x.ndim:
        raise RuntimeError(f"expand({x.dtype.name}{{{list(x.shape)}}}, size={list(sizes)}): the number of "
                           f"sizes provided ({len(sizes)}) must be greater or equal to the number of "
                           f"dimensions in the tensor ({x.ndim})")
    lead = len(sizes) - x.ndim
    target = [0] * len(sizes)
    for i in reversed(range(len(sizes))):        # from the last one (ATen/ExpandUtils.h, inferExpandGeometry)
        size, current = sizes[i], x.shape[i - lead] if i >= lead else 1
        if size == -1:
            if i < lead:
                raise RuntimeError(f"The expanded size of the tensor (-1) isn't allowed in a leading, "
                                   f"non-existing dimension {i}")
            size = current
        if current != size and current != 1:
            raise RuntimeError(f"The expanded size of the tensor ({size}) must match the existing size "
                               f"({current}) at non-singleton dimension {i}.  Target sizes: "
                               f"{list(sizes)}.  Tensor sizes: {list(x.shape)}")
        target[i] = int(size)
    return Expand.apply(x, tuple(target))


def meshgrid(*tensors, indexing=None):
    """Coordinate grids from 1-D tensors: ``meshgrid(x, y, indexing="ij")`` gives two tensors of shape
    (len(x), len(y)); ``indexing="xy"`` gives (len(y), len(x)), the layout of an image.

    Each grid is a view: the input reshaped (``ViewBackward0``) and expanded (``ExpandBackward0``).
    Without ``indexing`` it is "ij", with PyTorch's warning (which PyTorch gives once a process, and
    every time under ``torch.set_warn_always(True)``; here, every time).
    """
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    if indexing is None:
        warnings.warn("torch.meshgrid: in an upcoming release, it will be required to pass the indexing "
                      "argument.", UserWarning, stacklevel=2)
        indexing = "ij"
    if not tensors:
        raise RuntimeError("meshgrid expects a non-empty TensorList")
    for t in tensors:
        if not isinstance(t, Tensor):
            raise TypeError(f"meshgrid(): argument 'tensors' must be tuple of Tensors, not "
                            f"{type(t).__name__}")
    if any(t.dtype is not tensors[0].dtype for t in tensors):
        raise RuntimeError("meshgrid expects all tensors to have the same dtype")
    if indexing not in ("xy", "ij"):
        raise RuntimeError(f'torch.meshgrid: indexing must be one of "xy" or "ij", but received: {indexing}')
    tensors = list(tensors)
    swap = indexing == "xy" and len(tensors) >= 2
    if swap:
        tensors[0], tensors[1] = tensors[1], tensors[0]
    for t in tensors:
        if t.ndim > 1:
            raise RuntimeError(f"torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: "
                               f"{t.dtype.legacy_name}{{{','.join(map(str, t.shape))}}}")
    shape = tuple(t.numel() for t in tensors)
    grids = []
    for i, t in enumerate(tensors):
        view_shape = [1] * len(tensors)
        view_shape[i] = -1
        grids.append(t.view(*view_shape).expand(*shape))
    if swap:
        grids[0], grids[1] = grids[1], grids[0]
    return tuple(grids)
