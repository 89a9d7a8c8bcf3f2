"""Sorting and order statistics: ``sort``, ``argsort``, ``topk``, ``median`` and ``unique``
(tools/autograd/derivatives.yaml; aten/src/ATen/native/cpu/SortingKernel.cpp and TopKImpl.h).

``sort`` and ``topk`` return ``(values, indices)``; only the values have a gradient, which goes back to
the positions the indices name (derivatives.yaml, sort and topk:
``value_selecting_reduction_backward_symint(grad, dim, indices, self.sym_sizes(), true)``, a scatter into
zeros: ``ScatterBackward0`` in a second backward).

nan counts as larger than every number. Which of two equal elements comes first is PyTorch's: a stable
sort keeps them in order, and so does ``sort`` of up to 16 elements (std::sort ends with an insertion
sort); otherwise it is where GCC's std::sort, std::nth_element and std::partial_sort leave them, which
ops/_stl.py does step by step. ``topk`` without ``sorted`` returns nth_element's order, as PyTorch does.

``median`` is the lower of the two middle values of an even count, as in PyTorch, and nan if there is one.
Its index along a dim is PyTorch's: the middle element in the order of (value, index), so the first nan,
and among equal values the one the order puts in the middle. ``median()`` gives its gradient to every
element equal to it, split evenly (``MedianBackward0``); ``median(dim)`` to the element at its index
(``MedianBackward1``).

``unique`` has no derivative in PyTorch: its node (``Unique2Backward0``, ``UniqueDimBackward0`` with a
dim) raises in backward.
"""
import numpy as np

from .. import return_types
from .._tensor import Tensor
from ..autograd.function import Function
from ._helpers import check_tensor, contiguous, value_selecting_reduction_backward, wrap_dim
from ._saved import shown_dim
from .views import laid_out_like
from .binary import MaskedFillTensor
from . import _stl


def _order(data, dim, descending):
    """The indices that sort ``data`` along ``dim``, stably, nan last (first when descending)."""
    if not descending:
        return np.argsort(data, axis=dim, kind="stable")
    flipped = np.argsort(np.flip(data, axis=dim), axis=dim, kind="stable")
    return data.shape[dim] - 1 - np.flip(flipped, axis=dim)


def _less(descending):
    """PyTorch's comparators (SortingKernel.cpp, KeyValueCompAsc and KeyValueCompDesc): nan is largest."""
    if descending:
        return lambda x, y: (x[0] != x[0] and y[0] == y[0]) or x[0] > y[0]
    return lambda x, y: (x[0] == x[0] and y[0] != y[0]) or x[0] < y[0]


def _has_ties(row):
    """Two elements neither of which comes before the other: equal numbers (0.0 and -0.0 too), or two nans."""
    nans = np.isnan(row) if row.dtype.kind == "f" else np.zeros(row.shape, bool)
    numbers = row[~nans]
    return nans.sum() > 1 or np.unique(numbers).size < numbers.size


def _rows(data, dim):
    """``data`` with ``dim`` moved last, as rows (a copy), and how to put results back."""
    moved = np.moveaxis(data, dim, -1)
    return moved.reshape(-1, moved.shape[-1]), lambda rows, n: np.moveaxis(
        rows.reshape(moved.shape[:-1] + (n,)), -1, dim)


def _sort_order(data, dim, descending, stable):
    """The indices ``sort`` gives: std::sort's order where a row of more than 16 elements has ties."""
    order = _order(data, dim, descending)
    if stable or data.shape[dim] <= _stl.THRESHOLD:
        return order
    rows, back = _rows(data, dim)
    ordered, _ = _rows(order, dim)
    for r, row in enumerate(rows):
        if _has_ties(row):
            queue = [(value, j) for j, value in enumerate(row.tolist())]
            _stl.sort(queue, 0, len(queue), _less(descending))
            ordered[r] = [j for _, j in queue]
    return back(ordered, rows.shape[1])


def _topk_order(data, k, dim, largest, sorted):
    """The indices ``topk`` gives (TopKImpl.h, topk_impl_loop): partial_sort when k * 64 <= n, else
    nth_element (and std::sort of the first k - 1 if ``sorted``)."""
    rows, back = _rows(data, dim)
    n = rows.shape[1]
    chosen = np.take(_order(rows, 1, largest), np.arange(k), axis=1)
    if k == 0:
        return back(chosen, k)
    for r, row in enumerate(rows):
        if sorted and not _has_ties(row):
            continue
        queue = [(value, j) for j, value in enumerate(row.tolist())]
        less = _less(largest)
        if k * 64 <= n:
            _stl.partial_sort(queue, 0, k, n, less)
        else:
            _stl.nth_element(queue, 0, k - 1, n, less)
            if sorted:
                _stl.sort(queue, 0, k - 1, less)
        chosen[r] = [j for _, j in queue[:k]]
    return back(chosen, k)


class _ValueSelecting(Function):
    """A Function whose values are elements of the input at ``indices`` along ``dim``."""
    saved_names = ("indices",)
    saved_fields = ("dim", "self_sym_sizes")

    @staticmethod
    def _outputs(ctx, x, dim, indices, keep_layout=False):
        """``dim``: as given (the node shows it); ``ctx.axis``: wrapped, set by forward. ``keep_layout``:
        sort's results are laid out as x (PyTorch's topk's, row by row)."""
        ctx.dim, ctx.self_sym_sizes = shown_dim(dim), tuple(x.shape)
        dim = ctx.axis
        if x.ndim == 0:
            values, indices = Tensor(x._data.copy()), Tensor(np.zeros((), np.int64))
        else:
            values = np.take_along_axis(x._data, indices, axis=dim)
            indices = np.ascontiguousarray(indices, dtype=np.int64)
            if keep_layout:
                values, indices = laid_out_like(x._data, values), laid_out_like(x._data, indices)
            else:
                values = np.ascontiguousarray(values)
            values, indices = Tensor(values), Tensor(indices)
        ctx.mark_non_differentiable(indices)
        ctx.save_for_backward(indices)
        return values, indices

    @staticmethod
    def backward(ctx, grad, grad_indices):
        """``value_selecting_reduction_backward_symint(grad, dim, indices, self.sym_sizes(), true)``."""
        (indices,) = ctx.saved_tensors
        grad = value_selecting_reduction_backward(grad, ctx.axis, indices, ctx.self_sym_sizes, True)
        return (grad,) + (None,) * (len(ctx.needs_input_grad) - 1)


class Sort(_ValueSelecting):
    """The elements sorted along ``dim``, with the indices they came from."""
    node_name = "SortBackward0"

    @classmethod
    def forward(cls, ctx, x, dim, descending, stable):
        ctx.axis = wrap_dim(dim, x.ndim)
        indices = _sort_order(x._data, ctx.axis, descending, stable) if x.ndim else None
        return cls._outputs(ctx, x, dim, indices, keep_layout=True)


class SortStable(Sort):
    """``sort(stable=...)``: PyTorch's other overload of sort, ``sort.stable`` (derivatives.yaml)."""
    node_name = "SortBackward1"


class Topk(_ValueSelecting):
    """The ``k`` largest (or smallest) elements along ``dim``, with their indices."""
    node_name = "TopkBackward0"

    @classmethod
    def forward(cls, ctx, x, k, dim, largest, sorted):
        ctx.axis = wrap_dim(dim, x.ndim)
        indices = _topk_order(x._data, k, ctx.axis, largest, sorted) if x.ndim else None
        return cls._outputs(ctx, x, dim, indices)


def sort(x, dim=-1, descending=False, stable=None):
    """``(values, indices)``: ``x`` sorted along ``dim`` (ascending unless ``descending``)."""
    check_tensor(x, "sort")
    function = Sort if stable is None else SortStable
    wrap_dim(dim, x.ndim)
    return return_types.sort(function.apply(x, dim, bool(descending), bool(stable)))


def argsort(x, dim=-1, descending=False, stable=False):
    """The indices that sort ``x`` along ``dim``: ``sort(...).indices``."""
    return sort(x, dim, descending, stable).indices


def topk(x, k, dim=-1, largest=True, sorted=True):
    """``(values, indices)`` of the ``k`` largest elements along ``dim`` (smallest unless ``largest``)."""
    check_tensor(x, "topk")
    size = x.shape[wrap_dim(dim, x.ndim)] if x.ndim else 1
    if not 0 <= k <= size:
        raise RuntimeError("selected index k out of range")
    if x.dtype.name == "bool":
        raise RuntimeError("topk does not support bool dtypes on CPU")
    return return_types.topk(Topk.apply(x, int(k), dim, bool(largest), bool(sorted)))


def _median_positions(data, axis):
    """The index of the median along ``axis``: the first nan, else the middle of a stable sort."""
    order = np.argsort(data, axis=axis, kind="stable")          # nan last, ties by index
    count = data.shape[axis]
    middle = np.take(order, [(count - 1) // 2], axis=axis)
    nan = np.isnan(data) if data.dtype.kind == "f" else np.zeros(data.shape, bool)
    first_nan = np.expand_dims(np.argmax(nan, axis=axis), axis)
    has_nan = np.expand_dims(nan.any(axis=axis), axis)
    return np.where(has_nan, first_nan, middle)


class Median(Function):
    """The median of all elements.  d/dx: the gradient split evenly between the elements equal to it
    (FunctionsManual.cpp, evenly_distribute_backward, as max() and min() do)."""
    node_name = "MedianBackward0"
    saved_names = ("self", "result")

    @staticmethod
    def forward(ctx, x):
        data = x._data.reshape(-1)
        if data.size == 0:
            result = Tensor(np.array(np.nan, x._data.dtype))
        else:
            result = Tensor(np.asarray(data[_median_positions(data, 0)[0]]))
        ctx.save_for_backward(x, result)
        return result

    @staticmethod
    def backward(ctx, grad):
        x, result = ctx.saved_tensors
        is_median = np.isnan(x._data) if np.isnan(result._data) else x._data == result._data
        share = grad / Tensor(np.asarray(is_median.sum(), dtype=np.int64))
        return MaskedFillTensor.apply(Tensor(np.zeros(x._data.shape, grad._data.dtype)), share, is_median)


class MedianDim(Function):
    """The medians along ``dim`` and their indices.  The gradient goes to the element at each index
    (derivatives.yaml, median.dim: ``value_selecting_reduction_backward``, as max(dim))."""
    node_name = "MedianBackward1"
    saved_names = ("indices",)
    saved_fields = ("dim", "keepdim", "self_sym_sizes")

    @staticmethod
    def forward(ctx, x, dim, keepdim):
        ctx.axis = axis = wrap_dim(dim, x.ndim)
        ctx.dim, ctx.keepdim, ctx.self_sym_sizes = shown_dim(dim), keepdim, tuple(x.shape)
        if x.ndim == 0:
            values, indices = Tensor(x._data.copy()), Tensor(np.zeros((), np.int64))
        else:
            if x.shape[axis] == 0:
                raise IndexError(f"median(): Expected reduction dim {axis} to have non-zero size.")
            positions = _median_positions(x._data, axis)
            values = np.take_along_axis(x._data, positions, axis=axis)
            if not keepdim:
                values, positions = values.squeeze(axis), positions.squeeze(axis)
            values, indices = Tensor(contiguous(values)), Tensor(contiguous(positions.astype(np.int64)))
        ctx.mark_non_differentiable(indices)
        ctx.save_for_backward(indices)
        return values, indices

    @staticmethod
    def backward(ctx, grad, grad_indices):
        """As derivatives.yaml has it for median(dim): ``value_selecting_reduction_backward_symint(grad, dim,
        indices, self.sym_sizes(), keepdim)``."""
        (indices,) = ctx.saved_tensors
        grad = value_selecting_reduction_backward(grad, ctx.axis, indices, ctx.self_sym_sizes, ctx.keepdim)
        return grad, None, None


def median(input, dim=None, keepdim=False):
    """``torch.median``: the median of all elements, or ``(values, indices)`` along ``dim``."""
    check_tensor(input, "median")
    if dim is None:
        return Median.apply(input)
    return return_types.median(MedianDim.apply(input, dim, keepdim))


# ----------------------------------------------------------------- unique
class Unique(Function):
    """The distinct elements, sorted, with the position of each input element among them (``inverse``)
    and how many times each appears (``counts``). Only the values are differentiable, and PyTorch has
    no derivative for them."""
    node_name = "Unique2Backward0"
    op = "_unique2"

    @staticmethod
    def forward(ctx, x, dim):
        data = x._data
        if dim is None:
            values, inverse, counts = np.unique(data.reshape(-1), return_inverse=True, return_counts=True,
                                                equal_nan=False)
            inverse = inverse.reshape(data.shape)
        else:
            values, inverse, counts = np.unique(data, return_inverse=True, return_counts=True, axis=dim)
            inverse = inverse.reshape(-1)
        inverse, counts = Tensor(inverse.astype(np.int64)), Tensor(counts.astype(np.int64))
        ctx.mark_non_differentiable(inverse, counts)
        return Tensor(contiguous(values)), inverse, counts

    @classmethod
    def backward(cls, ctx, *grads):
        raise NotImplementedError(f"the derivative for '{cls.op}' is not implemented.")


class UniqueDim(Unique):
    node_name = "UniqueDimBackward0"
    op = "unique_dim"


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """``torch.unique``: the distinct elements (slices along ``dim``), sorted, and on request the
    ``inverse`` indices and the ``counts``."""
    check_tensor(input, "unique")
    if dim is None:
        values, inverse, counts = Unique.apply(input, None)
    else:
        values, inverse, counts = UniqueDim.apply(input, wrap_dim(dim, input.ndim))
    if return_inverse and return_counts:
        return values, inverse, counts
    if return_inverse:
        return values, inverse
    if return_counts:
        return values, counts
    return values
