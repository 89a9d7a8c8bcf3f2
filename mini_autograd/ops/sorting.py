"""Sorting: ``sort``, ``argsort`` and ``topk``.

``sort`` and ``topk`` return ``(values, indices)``; only the values have a gradient, which
goes back to the positions the indices name (derivatives.yaml, sort and topk:
``value_selecting_reduction_backward_symint(grad, dim, indices, self.sym_sizes(), true)``,
a scatter into zeros: ``ScatterBackward0`` in a second backward).

nan counts as larger than every number. Which of two equal elements comes first is
PyTorch's: a stable sort keeps them in order, and so does ``sort`` of up to 16 elements
(std::sort ends with an insertion sort); otherwise it is where GCC's std::sort,
std::nth_element and std::partial_sort leave them, which ops/_stl.py does step by step.
``topk`` without ``sorted`` returns nth_element's order, as PyTorch does.
"""
import numpy as np

from .. import return_types
from .._tensor import Tensor
from ..autograd.function import Function
from . import _stl
from ._helpers import check_tensor, wrap_dim
from ._saved import shown_dim
from .views import laid_out_like
from .reduction import Scatter




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
        """``zeros(self_sym_sizes).scatter_(dim, indices, grad)``."""
        (indices,) = ctx.saved_tensors
        zeros = Tensor(np.zeros(ctx.self_sym_sizes, grad._data.dtype))
        index = None if not ctx.self_sym_sizes else indices._data
        return (Scatter.apply(zeros, grad, ctx.axis, index),) + (None,) * (len(ctx.needs_input_grad) - 1)


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
