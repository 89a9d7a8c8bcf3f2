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
from . import reduction


class Gather(reduction.Gather):
    """``torch.gather``: reduction.Gather (what max(dim)'s second backward uses), saving its input as
    PyTorch's node does (``_saved_self``), so an in-place change of it is caught in backward."""
    node_name = "GatherBackward0"
    saved_names = ("self",)
    saved_fields = ("dim", "index", "sparse_grad")

    @staticmethod
    def forward(ctx, x, dim, index):
        ctx.save_for_backward(x)
        ctx.sparse_grad = False
        return reduction.Gather.forward(ctx, x, dim, index)

    @staticmethod
    def backward(ctx, grad):
        _ = ctx.saved_tensors                 # unpacked, so an in-place change of self is caught
        return reduction.Gather.backward(ctx, grad)


def _index_array(index, name, dtypes="int32/int64"):
    if index.dtype.name not in ("int64", "int32"):
        raise RuntimeError(f"{name}(): Expected dtype {dtypes} for index")
    return index._data.astype(np.int64, copy=False)


def gather(x, dim, index, *, sparse_grad=False):
    """The elements of ``x`` that ``index`` names along ``dim`` (``out[i][j] = x[i][index[i][j]]`` for
    dim 1)."""
    check_tensor(x, "gather")
    check_tensor(index, "gather", "index", 3)
    dim = wrap_dim(dim, x.ndim)
    positions = _index_array(index, "gather")
    if x.ndim == 0 and index.ndim == 0:
        if positions != 0:
            raise RuntimeError(f"index {int(positions)} is out of bounds for dimension 0 with size 1")
        return Gather.apply(x, dim, None)
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
    return Gather.apply(x, dim, positions)


class IndexSelect(Function):
    """The slices of ``x`` at ``index`` along ``dim``, in that order (a copy)."""
    node_name = "IndexSelectBackward0"
    saved_fields = ("dim", "index", "self_sym_sizes")

    @staticmethod
    def forward(ctx, x, dim, index):
        ctx.dim, ctx.index, ctx.self_sym_sizes = dim, index, tuple(x.shape)
        return Tensor(np.take(x._data, index, axis=dim))

    @staticmethod
    def backward(ctx, grad):
        """``at::zeros(self.sizes(), grad.options()).index_add_(dim, index, grad)``."""
        zeros = Tensor(np.zeros(ctx.self_sym_sizes, grad._data.dtype))
        return IndexAdd.apply(zeros, ctx.dim, ctx.index, grad), None, None


class IndexAdd(Function):
    """``x`` with ``source``'s slices added at ``index`` along ``dim`` (index_select's backward)."""
    node_name = "IndexAddBackward0"
    saved_fields = ("dim", "index")

    @staticmethod
    def forward(ctx, x, dim, index, source):
        ctx.dim, ctx.index = dim, index
        out = np.moveaxis(x._data.copy(), dim, 0)
        np.add.at(out, index, np.moveaxis(source._data, dim, 0))
        return Tensor(np.ascontiguousarray(np.moveaxis(out, 0, dim)))

    @staticmethod
    def backward(ctx, grad):
        """derivatives.yaml, index_add: self: ``grad``; source: ``grad.index_select(dim, index)``."""
        source = IndexSelect.apply(grad, ctx.dim, ctx.index) if ctx.needs_input_grad[3] else None
        return (grad if ctx.needs_input_grad[0] else None), None, None, source


def index_select(x, dim, index):
    """The slices of ``x`` along ``dim`` at the positions in ``index`` (a vector of ints)."""
    check_tensor(x, "index_select")
    check_tensor(index, "index_select", "index", 3)
    dim = wrap_dim(dim, x.ndim)
    positions = _index_array(index, "index_select", "int32 or int64")
    if index.ndim > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    positions = positions.reshape(-1)
    size = x.shape[dim] if x.ndim else 1
    outside = (positions < 0) | (positions >= size)
    if outside.any():
        raise RuntimeError(f"INDICES element is out of DATA bounds, id={positions[outside][0]} "
                           f"axis_dim={size}")
    if x.ndim == 0:
        return IndexSelect.apply(x.reshape(1), 0, positions).reshape(())
    return IndexSelect.apply(x, dim, positions)
