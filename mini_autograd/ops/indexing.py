"""Indexing: ``x[...]`` and ``x[...] = value``, ``gather``, ``scatter``, ``index_select``, ``masked_select``,
and ``embedding`` (tools/autograd/derivatives.yaml; TensorAdvancedIndexing.cpp and
torch/csrc/autograd/python_variable_indexing.cpp).

As in PyTorch (torch/csrc/autograd/python_variable_indexing.cpp: ``THPVariable_getitem``,
``applySlicing``), the index is applied one dimension at a time: ``w[0, 1]`` is two selects; inside a
tuple a slice that keeps a whole dimension is skipped, and an index that changes nothing gives an
``AliasBackward0`` view. Integer and slice steps give views (``SelectBackward0``, ``SliceBackward0``);
list, array, tensor and mask indices gather a copy (``IndexBackward0``). Each step's backward puts the
gradient back into a zero tensor of the input's shape.

Assignment follows ``THPVariable_setitem``: the basic part of the index gives a view, and the value is
copied into it (``copy_``, ``fill_``, or ``index_put_`` for advanced indices), in place, so a recorded
graph gets ``CopySlices`` (views.py).

``gather`` and ``index_select`` add each read element's gradient back where it came from
(derivatives.yaml, gather: ``gather_backward(grad, self, dim, index, sparse_grad)``, a ``scatter_add``
into zeros; index_select: ``index_select_backward_symint``, an ``index_add_`` into zeros), so a second
backward records ``ScatterAddBackward0`` and ``IndexAddBackward0``, as PyTorch's does.

Attributes a node keeps use PyTorch's names, so that ``grad_fn._saved_<name>`` shows what PyTorch's shows:
``self_sym_sizes`` is the input's shape (``sym``: PyTorch's sizes may be symbolic, for torch.compile; here
they are plain ints).
"""
import math
import numbers

import numpy as np

from .._tensor import Tensor
from ..autograd.function import Function
from ._saved import shown_dim
from ._helpers import contiguous, view_of, check_tensor, wrap_dim
from .views import PARTIAL_OVERLAP_MESSAGE, has_internal_overlap
from .binary import MaskedFill


class Select(Function):
    """x.select(dim, i): one position along one dimension (a view)."""
    node_name = "SelectBackward0"

    @staticmethod
    def forward(ctx, x, dim, index):
        ctx.self_sym_sizes, ctx.dim, ctx.index = tuple(x.shape), dim, index
        return view_of(x, x._data[(slice(None),) * dim + (index, Ellipsis)], ctx)

    @staticmethod
    def backward(ctx, grad):
        return SelectBackward.apply(grad, ctx.self_sym_sizes, ctx.dim, ctx.index), None, None


class SelectBackward(Function):
    """zeros(sizes) with ``grad`` at position ``index`` of ``dim``: Select's backward, differentiable."""
    node_name = "SelectBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, sizes, dim, index):
        ctx.dim, ctx.index = dim, index
        out = np.zeros(sizes, dtype=grad._data.dtype)
        out[(slice(None),) * dim + (index,)] = grad._data
        return Tensor(out)

    @staticmethod
    def backward(ctx, grad):
        return Select.apply(grad, ctx.dim, ctx.index), None, None, None


class Slice(Function):
    """x[start:stop:step] along one dimension (a view). ``given_dim``: the dim as the program gave it,
    which the node shows (``narrow(-1, ...)``'s is -1)."""
    node_name = "SliceBackward0"
    saved_fields = ("dim", "end", "self_sym_sizes", "start", "step")

    @staticmethod
    def forward(ctx, x, dim, key, given_dim=None):
        ctx.self_sym_sizes, ctx.axis, ctx.key = tuple(x.shape), dim, key
        ctx.dim = dim if given_dim is None else shown_dim(given_dim)
        start, stop, step = key.indices(x.shape[dim])
        ctx.start, ctx.end, ctx.step = start, max(stop, start), step
        return view_of(x, x._data[(slice(None),) * dim + (key,)], ctx)

    @staticmethod
    def backward(ctx, grad):
        return SliceBackward.apply(grad, ctx.self_sym_sizes, ctx.axis, ctx.key), None, None, None


class SliceBackward(Function):
    """zeros(sizes) with ``grad`` at the slice: Slice's backward, differentiable."""
    node_name = "SliceBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, sizes, dim, key):
        ctx.dim, ctx.key = dim, key
        out = np.zeros(sizes, dtype=grad._data.dtype)
        out[(slice(None),) * dim + (key,)] = grad._data
        return Tensor(out)

    @staticmethod
    def backward(ctx, grad):
        return Slice.apply(grad, ctx.dim, ctx.key), None, None, None


class Alias(Function):
    """x[...] or x[:, :]: an index that selects everything is a new view of the same elements."""
    node_name = "AliasBackward0"

    @staticmethod
    def forward(ctx, x):
        return view_of(x, x._data[...], ctx)

    @staticmethod
    def backward(ctx, grad):
        return grad


class Index(Function):
    """x[index_tensor]: gather (a copy). Repeated indices add up in backward."""
    node_name = "IndexBackward0"
    saved_attributes = ("key",)      # PyTorch saves the index tensors: freed after backward

    @staticmethod
    def forward(ctx, x, key):
        ctx.self_sym_sizes, ctx.key = tuple(x.shape), key
        return Tensor(contiguous(x._data[key]))     # numpy may lay a gather out column-wise

    @staticmethod
    def backward(ctx, grad):
        zeros = Tensor(np.zeros(ctx.self_sym_sizes, dtype=grad._data.dtype))
        return IndexBackwardScatter.apply(zeros, grad, ctx.key), None


class IndexBackwardScatter(Function):
    """``grad`` added at ``key`` into zeros: the backward of indexing, itself differentiable.

    As PyTorch's ``_index_put_impl_(zeros, indices, grad, accumulate=True)``, the zeros are
    an input too (an edge to nothing), then the values.
    """
    node_name = "IndexPutImplBackward0"
    saved_attributes = ("key",)

    @staticmethod
    def forward(ctx, zeros, grad, key):
        ctx.key = key
        out = zeros._data.copy()
        np.add.at(out, key, grad._data)
        return Tensor(out)

    @staticmethod
    def backward(ctx, grad):
        return grad if ctx.needs_input_grad[0] else None, Index.apply(grad, ctx.key), None


def _as_index_array(index):
    return index._data if isinstance(index, Tensor) else np.asarray(index)


def _index_arrays(index, shape, dim):
    """A list/array/Tensor index as numpy integer arrays, one per dimension it covers (its bounds
    are checked later, by ``_check_indices``).

    An integer index covers one dimension; a boolean mask covers as many as it has.
    """
    array = _as_index_array(index)
    if array.dtype == np.bool_:
        covered = shape[dim:dim + array.ndim]
        if tuple(array.shape) != tuple(covered):
            bad = next(i for i, (a, b) in enumerate(zip(array.shape, covered, strict=False)) if a != b)
            raise IndexError(f"The shape of the mask {list(array.shape)} at index {bad} does not match "
                             f"the shape of the indexed tensor {list(shape)} at index {dim + bad}")
        return np.nonzero(array)
    if array.size == 0 and array.dtype.kind == "f" and not isinstance(index, Tensor):
        array = array.astype(np.int64)            # x[[]]: an empty list indexes nothing
    if array.dtype.kind not in "iu":
        raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
    return (array,)


def _check_indices(arrays, sizes, other_numel, check_bounds):
    """PyTorch's checks of the index arrays (``sizes``: of the dimensions they index), in its order
    (ATen/native/TensorAdvancedIndexingUtils.h, make_info; ATen/native/IndexingUtils.h, AdvancedIndex;
    then the kernel's ATen/native/cpu/IndexKernelUtils.h, Indexer::get); returns arrays that are safe
    to index with.

    The arrays must broadcast together; a dimension of size 0 cannot be indexed by a non-empty
    index; and, when the result has elements (``other_numel``: those of the dimensions not indexed),
    each index must lie in its dimension, checked element by element of the result, each element's
    indices in turn: the error names the index's rank among the index arrays, not the tensor's
    dimension. Without ``check_bounds`` (only the result's shape is wanted) or when the result is
    empty, out-of-range indices are replaced by 0.
    """
    try:
        shape = np.broadcast_shapes(*[a.shape for a in arrays])
    except ValueError:
        shapes = ", ".join(str(list(a.shape)) for a in arrays)
        raise IndexError(f"shape mismatch: indexing tensors could not be broadcast together with shapes "
                         f"{shapes}") from None
    if 0 in sizes and 0 not in shape:
        raise IndexError("index is out of bounds for dimension with size 0")
    if not (check_bounds and other_numel and math.prod(shape)):
        return [np.zeros(a.shape, np.int64) if size else a for a, size in zip(arrays, sizes, strict=True)]
    outside = np.stack([np.broadcast_to((a >= size) | (a < -size), shape).reshape(-1)
                        for a, size in zip(arrays, sizes, strict=True)], axis=1)
    if outside.any():
        element, rank = divmod(int(np.argmax(outside)), len(arrays))
        value = np.broadcast_to(arrays[rank], shape).reshape(-1)[element]
        raise IndexError(f"index {int(value)} is out of bounds for dimension {rank} with size {sizes[rank]}")
    return arrays


def _is_python_integer(item):
    """An int (not a bool, not a tensor): ``x[i]`` takes PyTorch's fast path, without the tuple's checks."""
    return isinstance(item, (int, np.integer)) and not isinstance(item, (bool, np.bool_))


def _is_integer_index(item):
    return (isinstance(item, (int, np.integer)) and not isinstance(item, (bool, np.bool_))) or (
        isinstance(item, Tensor) and item.ndim == 0 and item.dtype.name == "int64")


def _is_mask(item):
    return isinstance(item, (list, np.ndarray, Tensor)) and _as_index_array(item).dtype == np.bool_


def _is_scalar_mask(item):
    return isinstance(item, (bool, np.bool_)) or (
        isinstance(item, (np.ndarray, Tensor)) and item.ndim == 0 and _as_index_array(item).dtype == np.bool_)


_SEQUENCE_INDEX_WARNING = (
    "Using a non-tuple sequence for multidimensional indexing is deprecated and will be changed in pytorch "
    "2.9; use x[tuple(seq)] instead of x[seq]. In pytorch 2.9 this will be interpreted as tensor index, "
    "x[torch.tensor(seq)], which will result either in an error or a different result")


def _as_tuple_index(index):
    """The index as a tuple of per-dimension items (python_variable_indexing.cpp: wrapTuple).

    A list holding slices, None, ..., tensors or other sequences is still read as a tuple,
    with PyTorch's deprecation warning; any other single index is a 1-tuple.
    """
    if isinstance(index, tuple):
        return index
    if isinstance(index, list) and len(index) < 32 and any(
            item is None or item is Ellipsis or isinstance(item, (slice, Tensor, list, tuple, np.ndarray))
            for item in index):
        import warnings
        warnings.warn(_SEQUENCE_INDEX_WARNING, UserWarning, stacklevel=4)
        return tuple(index)
    return (index,)


_ZERO_DIM_INDEX = ("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in "
                   "C++ to convert a 0-dim tensor to a number")


def _select(x, dim, item, position=0):
    """One integer index (ATen/TensorIndexing.h, applySelect): the error names the index's ``position``
    in the index tuple (None and ... count too), not the dimension it selects from."""
    i = int(item)
    if x.ndim == 0:
        raise IndexError(_ZERO_DIM_INDEX if i == 0 else
                         f"index {i} is out of bounds for dimension 0 with size 0")
    size = x.shape[dim]
    if not -size <= i < size:
        raise IndexError(f"index {i} is out of bounds for dimension {position} with size {size}")
    return Select.apply(x, dim, i % size if size else i)


def _slice(x, dim, item, optimize):
    """One slice step; with ``optimize`` a slice that keeps the whole dimension is skipped (PyTorch)."""
    for part in (item.start, item.stop, item.step):
        if part is not None and not _is_integer_index(part):
            raise TypeError("slice indices must be integers or None or have an __index__ method")
    step = 1 if item.step is None else int(item.step)
    if step <= 0:
        raise ValueError("step must be greater than zero")
    start = 0 if item.start is None else int(item.start)
    if optimize and start == 0 and step == 1 and (item.stop is None or int(item.stop) >= x.shape[dim]):
        return x
    return Slice.apply(x, dim, slice(start, None if item.stop is None else int(item.stop), step))


def _apply_slicing(x, index):
    """Ints, slices and None of a tuple index, in order (applySlicing); the advanced ones are collected.

    Returns the view so far and a list of (dim, index) for the advanced indices.
    """
    n_ellipsis = sum(i is Ellipsis for i in index)
    if n_ellipsis > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    consumed = sum(_as_index_array(i).ndim if _is_mask(i) else 1
                   for i in index if i is not None and i is not Ellipsis and not _is_scalar_mask(i))
    if consumed > x.ndim:
        raise IndexError(f"too many indices for tensor of dimension {x.ndim}")

    result, dim, advanced = x, 0, []
    for position, item in enumerate(index):
        if item is None:
            result = result.unsqueeze(dim)
            dim += 1
        elif item is Ellipsis:
            dim += x.ndim - consumed
        elif _is_scalar_mask(item):
            # a 0-d mask (True, False, or a 0-d bool tensor): a new dimension, of size 1 or 0
            result = result.unsqueeze(dim)
            advanced.append((dim, np.array([bool(_as_index_array(item))])))
            dim += 1
        elif _is_integer_index(item):
            result = _select(result, dim, item, position)
        elif isinstance(item, slice):
            result = _slice(result, dim, item, optimize=True)
            dim += 1
        elif isinstance(item, (list, tuple, range, np.ndarray, Tensor)):   # range(...): as a list
            advanced.append((dim, item))
            dim += _as_index_array(item).ndim if _is_mask(item) else 1
        else:
            raise IndexError("only integers, slices (`:`), ellipsis (`...`), None and long or byte "
                             "Variables are valid indices (got " + type(item).__name__ + ")")
    return result, advanced


def _advanced_key(result, advanced, check_bounds=True):
    """The numpy key for the advanced indices, checked (``_check_indices``), with ``:`` for the
    dimensions between them."""
    key, at = [], dict(advanced)
    while len(key) < result.ndim:            # one entry per dimension: an index array, or ``:``
        d = len(key)
        key.extend(_index_arrays(at[d], result.shape, d) if d in at else (slice(None),))
    indexed = [d for d, k in enumerate(key) if not isinstance(k, slice)]
    other_numel = math.prod([size for d, size in enumerate(result.shape) if d not in indexed])
    checked = _check_indices([key[d] for d in indexed], [result.shape[d] for d in indexed], other_numel,
                             check_bounds)
    for d, array in zip(indexed, checked, strict=True):
        key[d] = array
    while key and isinstance(key[-1], slice):
        key.pop()
    return tuple(key)


def getitem(x, index):
    if index is None:
        return x.unsqueeze(0)
    if index is Ellipsis:
        return Alias.apply(x)
    if _is_python_integer(index):
        return _select(x, 0, index)
    if isinstance(index, slice):
        if x.ndim == 0:
            raise IndexError("slice() cannot be applied to a 0-dim tensor.")
        return _slice(x, 0, index, optimize=False)   # a lone slice always records SliceBackward0
    index = _as_tuple_index(index)
    result, advanced = _apply_slicing(x, index)
    if not advanced:
        return Alias.apply(result) if result is x else result
    return Index.apply(result, _advanced_key(result, advanced))


def setitem(x, index, value):
    """``x[index] = value`` in place (python_variable_indexing.cpp: THPVariable_setitem, set_item)."""
    value = _value_as_tensor(x, value)
    if index is False:
        return
    if index is Ellipsis:
        return _copy_to(x, value)
    if index is None or index is True:
        return _copy_to(x.unsqueeze(0), value)
    if _is_python_integer(index):
        return _copy_to(_select(x, 0, index), value)
    if isinstance(index, slice):
        if x.ndim == 0:
            raise IndexError("slice() cannot be applied to a 0-dim tensor.")
        return _copy_to(_slice(x, 0, index, optimize=True), value)
    index = _as_tuple_index(index)
    sliced, advanced = _apply_slicing(x, index)
    if not advanced:
        return _copy_to(sliced, value)
    _put_advanced(sliced, advanced, value)


def _value_as_tensor(x, value):
    """The right-hand side of ``x[index] = value`` as a tensor; a number takes x's dtype."""
    if isinstance(value, Tensor):
        return value
    if isinstance(value, (numbers.Number, np.number, np.bool_)):
        return Tensor(np.array(value, dtype=x._data.dtype))
    raise TypeError(f"can't assign a {type(value).__name__} to a {x.dtype.legacy_name}")


def _put_advanced(sliced, advanced, value):
    """``sliced[advanced] = value`` by index_put_, after PyTorch's checks, in PyTorch's order."""
    from .inplace import index_put_
    # PyTorch's in-place checks come before the indices are checked
    sliced._check_inplace(False, sliced.requires_grad or value.requires_grad)
    if np.may_share_memory(sliced._data, value._data) and np.shares_memory(sliced._data, value._data):
        raise RuntimeError(PARTIAL_OVERLAP_MESSAGE)
    value = _without_leading_ones(value)
    _check_value_fits(sliced, advanced, value)
    if has_internal_overlap(sliced._data):       # PyTorch allows it, with a deprecation warning
        _warn_expanded_target(advanced, value)
    index_put_(sliced, _advanced_key(sliced, advanced), value)


def _without_leading_ones(value):
    """``value`` without its leading dimensions of size 1 (they broadcast away anyway)."""
    leading_ones = 0
    while leading_ones < value.ndim and value.shape[leading_ones] == 1:
        leading_ones += 1
    return value.view(tuple(value.shape[leading_ones:])) if leading_ones else value    # a view, as in PyTorch


def _check_value_fits(sliced, advanced, value):
    """PyTorch checks that the value broadcasts to the indexed shape before it checks the indices."""
    indexed = np.broadcast_to(np.empty((), bool), tuple(sliced.shape))[_advanced_key(sliced, advanced, False)]
    try:
        fits = np.broadcast_shapes(tuple(value.shape), indexed.shape) == indexed.shape
    except ValueError:
        fits = False
    if not fits:
        raise RuntimeError(f"shape mismatch: value tensor of shape {list(value.shape)} cannot be broadcast "
                           f"to indexing result of shape {list(indexed.shape)}")


def _warn_expanded_target(advanced, value):
    """PyTorch's deprecation warnings for writing through indices into an expanded tensor."""
    import warnings
    # stacklevel 5: the user's line, above Tensor.__setitem__, setitem and _put_advanced
    warnings.warn("Use of index_put_ on expanded tensors is deprecated. Please clone() the tensor before "
                  "performing this operation. This also applies to advanced indexing e.g. "
                  "tensor[indices] = tensor", UserWarning, stacklevel=5)
    if len(advanced) == 1 and _is_mask(advanced[0][1]) and value.ndim == 0:
        warnings.warn("Use of masked_fill_ on expanded tensors is deprecated. Please clone() the tensor "
                      "before performing this operation. This also applies to advanced indexing e.g. "
                      "tensor[mask] = scalar", UserWarning, stacklevel=5)


def _copy_to(dst, src):
    """Copy ``src`` into ``dst`` in place: copy_ for equal shapes, fill_ for a 0-d src, else broadcast."""
    if dst.shape == src.shape:
        dst.copy_(src)
    elif src.ndim == 0:
        dst.fill_(src)
    else:
        dst.copy_(_without_leading_ones(src).expand(tuple(dst.shape)))


def _positions(index, dim):
    """The numpy index that addresses, along ``dim``, the elements ``index`` names (as torch.gather)."""
    where = list(np.indices(index.shape, sparse=True))
    where[dim] = index
    return tuple(where)


class Scatter(Function):
    """``zeros.scatter_(dim, index, src)``: src put at ``index`` along ``dim`` (how max(dim) sends its
    gradient back). ``zeros`` is a fresh tensor, never differentiated; ``index`` None: a 0-d tensor."""
    node_name = "ScatterBackward0"

    @staticmethod
    def forward(ctx, zeros, src, dim, index):
        ctx.dim, ctx.index = dim, index
        if index is None:                  # a 0-d input: its only element was the one selected
            return Tensor(src._data.copy())
        out = zeros._data.copy()
        out[_positions(index, dim)] = src._data
        return Tensor(out)

    @staticmethod
    def backward(ctx, grad):
        """derivatives.yaml, scatter.src: src: grad.gather(dim, index)."""
        return None, Gather.apply(grad, ctx.dim, ctx.index, _held(ctx.index)), None, None


class ScatterAdd(Function):
    """``zeros.scatter_add(dim, index, src)``: src added at ``index`` along ``dim`` (gather's backward)."""
    node_name = "ScatterAddBackward0"

    @staticmethod
    def forward(ctx, zeros, src, dim, index):
        ctx.dim, ctx.index = dim, index
        if index is None:
            return Tensor(zeros._data + src._data)
        out = zeros._data.copy()
        np.add.at(out, _positions(index, dim), src._data)
        return Tensor(out)

    @staticmethod
    def backward(ctx, grad):
        """derivatives.yaml, scatter_add: self: grad; src: grad.gather(dim, index)."""
        return (grad if ctx.needs_input_grad[0] else None,
                Gather.apply(grad, ctx.dim, ctx.index, _held(ctx.index)), None, None)


class Gather(Function):
    """The elements of x at ``index`` along ``dim``: ``torch.gather``, and the backward of scatter and
    scatter_add (``grad.gather(dim, index)``). It saves the index and its input as PyTorch's node does
    (``_saved_index``, ``_saved_self``, packed in that order), so an in-place change of either is caught in
    backward."""
    node_name = "GatherBackward0"
    saved_names = ("index", "self")
    saved_fields = ("dim", "sparse_grad")

    @staticmethod
    def forward(ctx, x, dim, positions, held_index):
        """``positions``: the index as an array (None: a 0-d x and index); ``held_index``: the index tensor
        in a 1-tuple (as an argument of its own it would become an input of the node)."""
        ctx.save_for_backward(held_index[0], x)
        ctx.sparse_grad = False
        ctx.axis = wrap_dim(dim, x.ndim)
        ctx.self_sym_sizes, ctx.index = tuple(x.shape), positions
        ctx.dim = shown_dim(dim)              # (dim as given, as the node shows it)
        if positions is None:
            return Tensor(x._data.copy())
        return Tensor(x._data[_positions(positions, ctx.axis)])

    @staticmethod
    def backward(ctx, grad):
        """TensorAdvancedIndexing.cpp, gather_backward: ``zeros(self.sizes()).scatter_add(dim, index,
        grad)``."""
        _ = ctx.saved_tensors                 # unpacked, so an in-place change of them is caught
        zeros = Tensor(np.zeros(ctx.self_sym_sizes, grad._data.dtype))
        return ScatterAdd.apply(zeros, grad, ctx.axis, ctx.index), None, None, None


def _held(index):
    """The index array of a scatter as the index tensor ``Gather`` saves (a 0-d input's: 0)."""
    return (Tensor(np.zeros((), np.int64) if index is None else index),)


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


class Indices:
    """An embedding's indices: read, never differentiated, so passed without an edge."""

    def __init__(self, tensor):
        self.tensor = tensor


class Embedding(Function):
    """Rows of ``weight`` picked by integer ``indices``: weight[indices].

    The gradient adds each incoming row into the row it was read from (a row read
    twice gets both), except the ``padding_idx`` row, which gets none.
    """
    node_name = "EmbeddingBackward0"
    saved_attributes = ("indices",)
    saved_fields = ("indices", "padding_idx", "scale_grad_by_freq", "sparse", "weight_sym_argsize_0")

    @staticmethod
    def forward(ctx, weight, indices, padding_idx, scale_grad_by_freq, sparse):
        indices = ctx.indices = indices.tensor
        ctx.padding_idx, ctx.scale_grad_by_freq, ctx.sparse = padding_idx, scale_grad_by_freq, sparse
        ctx.weight_sym_argsize_0 = weight.shape[0]
        return Tensor(weight._data[indices._data])

    @staticmethod
    def backward(ctx, grad):
        grad_weight = EmbeddingDenseBackward.apply(grad, ctx.indices._data, ctx.weight_sym_argsize_0,
                                                   ctx.padding_idx, ctx.scale_grad_by_freq)
        return grad_weight, None, None, None, None


class EmbeddingDenseBackward(Function):
    """Embedding's backward as one op: differentiated again, it reads the rows back."""
    node_name = "EmbeddingDenseBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, indices, num_weights, padding_idx, scale_grad_by_freq):
        ctx.indices, ctx.padding_idx = indices, padding_idx
        flat = indices.reshape(-1)
        rows = grad._data.reshape(flat.size, -1)
        if scale_grad_by_freq:
            counts = np.bincount(flat, minlength=num_weights)
            rows = rows / counts[flat][:, None].astype(rows.dtype)
        out = np.zeros((num_weights, rows.shape[1]), grad._data.dtype)
        np.add.at(out, flat, rows)
        if padding_idx >= 0:
            out[padding_idx] = 0
        return Tensor(out)

    @staticmethod
    def backward(ctx, gg):
        """FunctionsManual.cpp, embedding_dense_double_backward_symint: the rows read back
        (``index_select``), 0 for the padding row's (``masked_fill_``), viewed in the indices' shape.
        The frequency scaling is not undone, as in PyTorch."""
        flat = ctx.indices.reshape(-1)
        rows = IndexSelect.apply(gg, 0, flat, (Tensor(flat),))
        if ctx.padding_idx >= 0:
            rows = MaskedFill.apply(rows, (flat == ctx.padding_idx)[:, None], 0.0)
        return rows.view(ctx.indices.shape + (-1,)), None, None, None, None
