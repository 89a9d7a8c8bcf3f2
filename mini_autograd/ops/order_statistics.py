"""``median`` and ``unique``.

``median`` is the lower of the two middle values of an even count, as in PyTorch, and nan if there is
one. Its index along a dim is PyTorch's: the middle element in the order of (value, index), so the
first nan, and among equal values the one the order puts in the middle. ``median()`` gives its
gradient to every element equal to it, split evenly (``MedianBackward0``); ``median(dim)`` to the
element at its index (``MedianBackward1``).

``unique`` has no derivative in PyTorch: its node (``Unique2Backward0``, ``UniqueDimBackward0`` with a
dim) raises in backward.
"""
import numpy as np

from .. import return_types
from .._tensor import Tensor
from ..autograd.function import Function
from ._helpers import check_tensor, contiguous, wrap_dim
from ._saved import shown_dim
from .pointwise import MaskedFillTensor
from .reduction import Scatter


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
        """``zeros(sizes).scatter_(dim, indices, grad)``, the reduced dim put back first."""
        (indices,) = ctx.saved_tensors
        zeros = Tensor(np.zeros(ctx.self_sym_sizes, grad._data.dtype))
        if not ctx.self_sym_sizes:
            return Scatter.apply(zeros, grad, ctx.axis, None), None, None
        index = indices._data if ctx.keepdim else np.expand_dims(indices._data, ctx.axis)
        grad = grad if ctx.keepdim else grad.unsqueeze(ctx.axis)
        return Scatter.apply(zeros, grad, ctx.axis, index), None, None


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
