"""Reading elements by index: ``gather`` and ``index_select``.

Their gradients add each read element's gradient back where it came from
(derivatives.yaml, gather: ``gather_backward(grad, self, dim, index, sparse_grad)``, a
``scatter_add`` into zeros; index_select: ``index_select_backward_symint``, an
``index_add_`` into zeros), so a second backward records ``ScatterAddBackward0`` and
``IndexAddBackward0``, as PyTorch's does.
"""
import numpy as np

from .._tensor import Tensor
from ..autograd.function import Function
from ._helpers import check_tensor, wrap_dim
from ._saved import shown_dim
from . import reduction


class Gather(reduction.Gather):
    """``torch.gather``: reduction.Gather (what max(dim)'s second backward uses), saving the index
    and its input as PyTorch's node does (``_saved_index``, ``_saved_self``, packed in that order),
    so an in-place change of either is caught in backward."""
    node_name = "GatherBackward0"
    saved_names = ("index", "self")
    saved_fields = ("dim", "sparse_grad")

    @staticmethod
    def forward(ctx, x, dim, positions, held_index):
        """``positions``: the index as an array; ``held_index``: the index tensor in a 1-tuple (as an
        argument of its own it would become an input of the node)."""
        ctx.save_for_backward(held_index[0], x)
        ctx.sparse_grad = False
        ctx.axis = wrap_dim(dim, x.ndim)
        out = reduction.Gather.forward(ctx, x, ctx.axis, positions)
        ctx.dim = shown_dim(dim)              # (dim as given, as the node shows it)
        return out

    @staticmethod
    def backward(ctx, grad):
        """TensorAdvancedIndexing.cpp, gather_backward: ``zeros(self.sizes()).scatter_add(dim, index,
        grad)``."""
        _ = ctx.saved_tensors                 # unpacked, so an in-place change of them is caught
        zeros = Tensor(np.zeros(ctx.self_sym_sizes, grad._data.dtype))
        return reduction.ScatterAdd.apply(zeros, grad, ctx.axis, ctx.index), None, None, None


def _index_array(index, name, dtypes="int32/int64"):
    if index.dtype.name not in ("int64", "int32"):
        raise RuntimeError(f"{name}(): Expected dtype {dtypes} for index")
    return index._data.astype(np.int64, copy=False)


def gather(x, dim, index, *, sparse_grad=False):
    """The elements of ``x`` that ``index`` names along ``dim`` (``out[i][j] = x[i][index[i][j]]`` for
    dim 1)."""
    check_tensor(x, "gather")
    check_tensor(index, "gather", "index", 3)
    given, dim = dim, wrap_dim(dim, x.ndim)
    positions = _index_array(index, "gather")
    if x.ndim == 0 and index.ndim == 0:
        if positions != 0:
            raise RuntimeError(f"index {int(positions)} is out of bounds for dimension 0 with size 1")
        return Gather.apply(x, given, None, (index,))
    if index.ndim != x.ndim:
        raise RuntimeError("Index tensor must have the same number of dimensions as input tensor")
    for d in range(x.ndim):
        if d != dim and index.shape[d] > x.shape[d]:
            raise RuntimeError(f"Size does not match at dimension {d} expected index {list(index.shape)} to "
                               f"be no larger than self {list(x.shape)} apart from dimension {dim}")
    outside = (positions < 0) | (positions >= x.shape[dim])
    if outside.any():
        raise RuntimeError(f"index {positions[outside].flat[0]} is out of bounds for dimension {dim} with "
                           f"size {x.shape[dim]}")
    return Gather.apply(x, given, positions, (index,))


class IndexSelect(Function):
    """The slices of ``x`` at ``index`` along ``dim``, in that order (a copy). Like PyTorch's node it
    saves the index tensor (``_saved_index``) when one is given, so an in-place change of it is caught."""
    node_name = "IndexSelectBackward0"
    saved_names = ("index",)
    saved_fields = ("dim", "self_sym_sizes")

    @staticmethod
    def forward(ctx, x, dim, index, held_index=(None,)):
        """``index``: the positions as an array; ``held_index``: the index tensor in a 1-tuple (as an
        argument of its own it would become an input of the node)."""
        ctx.given, ctx.axis = dim, wrap_dim(dim, x.ndim)
        ctx.dim, ctx.index, ctx.self_sym_sizes = shown_dim(dim), index, tuple(x.shape)
        ctx.save_for_backward(held_index[0])
        if x.ndim == 0:                       # a scalar: index is [0], the result a scalar too
            return Tensor(x._data.copy())
        return Tensor(np.take(x._data, index, axis=ctx.axis))

    @staticmethod
    def backward(ctx, grad):
        """``at::zeros(self.sizes(), grad.options()).index_add_(dim, index, grad)``."""
        _ = ctx.saved_tensors                 # unpacked, so an in-place change of the index is caught
        zeros = Tensor(np.zeros(ctx.self_sym_sizes, grad._data.dtype))
        return IndexAdd.apply(zeros, ctx.given, ctx.index, grad), None, None, None


class IndexAdd(Function):
    """``x`` with ``source``'s slices added at ``index`` along ``dim`` (index_select's backward)."""
    node_name = "IndexAddBackward0"
    saved_fields = ("dim", "index")

    @staticmethod
    def forward(ctx, x, dim, index, source):
        ctx.given, ctx.axis, ctx.dim, ctx.index = dim, wrap_dim(dim, x.ndim), shown_dim(dim), index
        if x.ndim == 0:                       # a scalar: index is [0]
            return Tensor(x._data + source._data.reshape(()))
        dim = ctx.axis
        out = np.moveaxis(x._data.copy(), dim, 0)
        np.add.at(out, index, np.moveaxis(source._data, dim, 0))
        return Tensor(np.ascontiguousarray(np.moveaxis(out, 0, dim)))

    @staticmethod
    def backward(ctx, grad):
        """derivatives.yaml, index_add: self: ``grad``; source: ``grad.index_select(dim, index)``."""
        source = IndexSelect.apply(grad, ctx.given, ctx.index) if ctx.needs_input_grad[3] else None
        return (grad if ctx.needs_input_grad[0] else None), None, None, source


def index_select(x, dim, index):
    """The slices of ``x`` along ``dim`` at the positions in ``index`` (a vector of ints)."""
    check_tensor(x, "index_select")
    check_tensor(index, "index_select", "index", 3)
    given, dim = dim, wrap_dim(dim, x.ndim)
    positions = _index_array(index, "index_select", "int32 or int64")
    if index.ndim > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    positions = positions.reshape(-1)
    if x.ndim == 0 and positions.size != 1:
        raise RuntimeError(f"index_select(): Index to scalar can have only 1 value, got {positions.size} "
                           f"value(s)")
    size = x.shape[dim] if x.ndim else 1
    if x.ndim > 1 and size == 0 and positions.size:
        raise RuntimeError("index_select(): self indexing axis dim should be positive")
    outside = (positions < 0) | (positions >= size)
    if outside.any():
        # TensorAdvancedIndexing.cpp, index_select_out_cpu_: dim 1 of a tensor of 2 or more dims takes
        # index_select_out_cpu_dim1_, and an empty one check_indexarray_range, which word it otherwise
        if x.ndim > 1 and (dim == 1 or x.numel() == 0):
            raise RuntimeError(f"INDICES element is out of DATA bounds, id={positions[outside][0]} "
                               f"axis_dim={size}")
        raise IndexError("index out of range in self")
    return IndexSelect.apply(x, given, positions, (index,))
