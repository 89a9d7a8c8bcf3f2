"""Indexing ``x[...]``: integers select, slices slice, lists and tensors gather.

As in PyTorch (torch/csrc/autograd/python_variable_indexing.cpp: applySlicing),
the index is applied one dimension at a time: ``w[0, 1]`` is two selects, and a
full ``:`` is skipped. Each step's backward puts the gradient back into a
zero tensor of the input's shape.
"""
import numpy as np

from ..autograd.function import Function
from .._tensor import Tensor
from ._helpers import view_of


class _Gather(Function):
    """Shared backward of the indexing ops: scatter the gradient into zeros."""

    @staticmethod
    def backward(ctx, grad):
        return IndexBackwardScatter.apply(grad, ctx.self_sym_sizes, ctx.key), None


class Select(_Gather):
    """x.select(dim, i): one position along one dimension."""
    node_name = "SelectBackward0"

    @staticmethod
    def forward(ctx, x, key):
        ctx.self_sym_sizes, ctx.key = tuple(x.shape), key
        return view_of(x, x._data[key])


class Slice(_Gather):
    """x[start:stop:step] along one dimension."""
    node_name = "SliceBackward0"

    @staticmethod
    def forward(ctx, x, key):
        ctx.self_sym_sizes, ctx.key = tuple(x.shape), key
        return view_of(x, x._data[key])


class Index(_Gather):
    """x[index_tensor]: gather (a copy). Repeated indices add up in backward."""
    node_name = "IndexBackward0"

    @staticmethod
    def forward(ctx, x, key):
        ctx.self_sym_sizes, ctx.key = tuple(x.shape), key
        return Tensor(x._data[key])


class IndexBackwardScatter(Function):
    """zeros(shape) with ``grad`` added at ``key``: the backward of indexing, itself differentiable."""
    node_name = "IndexPutBackward0"

    @staticmethod
    def forward(ctx, grad, shape, key):
        ctx.key = key
        out = np.zeros(shape, dtype=grad._data.dtype)
        np.add.at(out, key, grad._data)
        return Tensor(out)

    @staticmethod
    def backward(ctx, grad):
        return Index.apply(grad, ctx.key), None, None


def _as_index_array(index):
    return index._data if isinstance(index, Tensor) else np.asarray(index)


def _index_arrays(index, shape, dim):
    """A list/array/Tensor index as numpy integer arrays, checked: one per dimension it covers.

    An integer index covers one dimension; a boolean mask covers as many as it has.
    """
    array = _as_index_array(index)
    if array.dtype == np.bool_:
        covered = shape[dim:dim + array.ndim]
        if tuple(array.shape) != tuple(covered):
            bad = next(i for i, (a, b) in enumerate(zip(array.shape, covered)) if a != b)
            raise IndexError(f"The shape of the mask {list(array.shape)} at index {bad} does not match "
                             f"the shape of the indexed tensor {list(shape)} at index {dim + bad}")
        return np.nonzero(array)
    if array.dtype.kind not in "iu":
        raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
    size = shape[dim]
    bad = array[(array >= size) | (array < -size)]
    if bad.size:
        raise IndexError(f"index {int(bad.reshape(-1)[0])} is out of bounds for dimension {dim} with size {size}")
    return (array,)


def getitem(x, index):
    if not isinstance(index, tuple):
        index = (index,)
    n_ellipsis = sum(i is Ellipsis for i in index)
    if n_ellipsis > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    consumed = sum(_as_index_array(i).ndim if _is_mask(i) else 1
                   for i in index if i is not None and i is not Ellipsis)
    if consumed > x.ndim:
        raise IndexError(f"too many indices for tensor of dimension {x.ndim}")
    if n_ellipsis:
        at = index.index(Ellipsis)
        index = index[:at] + (slice(None),) * (x.ndim - consumed) + index[at + 1:]

    result, dim, advanced = x, 0, []
    for item in index:
        if item is None:
            result = result.unsqueeze(dim)
            dim += 1
        elif isinstance(item, (bool, np.bool_)):
            raise IndexError("mini_autograd does not support indexing with a python bool")
        elif isinstance(item, (int, np.integer)) or (isinstance(item, Tensor) and item.ndim == 0
                                                      and not item.dtype.is_floating_point
                                                      and item.dtype.name != "bool"):
            i, size = int(item), result.shape[dim]
            if not -size <= i < size:
                raise IndexError(f"index {i} is out of bounds for dimension {dim} with size {size}")
            result = Select.apply(result, (slice(None),) * dim + (i,))
        elif isinstance(item, slice):
            if item.step is not None and item.step <= 0:
                raise ValueError("step must be greater than zero")
            if item != slice(None):
                result = Slice.apply(result, (slice(None),) * dim + (item,))
            dim += 1
        elif isinstance(item, (list, np.ndarray, Tensor)):
            advanced.append((dim, item))
            dim += _as_index_array(item).ndim if _is_mask(item) else 1
        else:
            raise IndexError("only integers, slices (`:`), ellipsis (`...`), None and long or byte "
                             "Variables are valid indices (got " + type(item).__name__ + ")")
    if advanced:
        key, d, at = [], 0, dict(advanced)
        while d < result.ndim:
            arrays = _index_arrays(at[d], result.shape, d) if d in at else (slice(None),)
            key.extend(arrays)
            d += len(arrays)
        result = Index.apply(result, tuple(key))
    return result


def _is_mask(item):
    return isinstance(item, (list, np.ndarray, Tensor)) and _as_index_array(item).dtype == np.bool_


def setitem(x, index, value):
    """``x[index] = value`` in place; recorded graphs do not support it here."""
    from ..grad_mode import is_grad_enabled
    if is_grad_enabled() and x.grad_fn is None and x._requires_grad:
        raise RuntimeError("a view of a leaf Variable that requires grad is being used in an in-place operation.")
    x._check_inplace()
    if is_grad_enabled() and (x.requires_grad or getattr(value, "requires_grad", False)):
        raise RuntimeError("mini_autograd supports x[index] = value only on tensors that do not "
                           "require grad, or under no_grad()")
    key = tuple(i._data if isinstance(i, Tensor) else i for i in (index if isinstance(index, tuple) else (index,)))
    x._data[key] = value._data if isinstance(value, Tensor) else value
    x._bump_version()
