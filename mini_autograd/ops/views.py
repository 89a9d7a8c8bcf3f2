"""Views and in-place changes: how a view keeps its gradient right when its base changes.

A view (``x[0:2]``, ``x.t()``, ``x.view(...)``, ...) shares memory with its *base*,
the tensor that owns the data, and shares the base's version counter. Two things
follow, as in PyTorch (torch/csrc/autograd/variable.cpp: ``VariableHooks::grad_fn``
and ``CopySlices`` in torch/csrc/autograd/functions/tensor.cpp):

- An in-place change of the base (or of another view of it) changes the view's
  numbers too, so the view's old ``grad_fn`` no longer describes them. The next time
  the view's ``grad_fn`` is read, a new one is made: ``AsStridedBackward0``, whose
  gradient is read out of the gradient of the base as it is *now*.
- An in-place change *through* a view changes the base: the base gets a
  ``CopySlices`` node, which runs the in-place op's own backward on the viewed
  elements and passes the rest of the base's gradient through unchanged.

Both need to know which elements of the base a view covers. When the base is one dense
block of memory (the usual case), ``strided_geometry`` gives the view's sizes, strides
and offset in it, and both backward passes are PyTorch's, op for op: the gradient is
written into fresh memory through the view's geometry and read back through another
(``as_strided_backward``, ``CopySlices.apply``), so ``create_graph=True`` records the
graph PyTorch records. Otherwise ``element_positions`` works out each element's index
in the base from the two numpy arrays' memory layout, and gathers and scatters do it.
"""
import math
import numpy as np

from .._layout import element_strides, empty_like_dense, is_non_overlapping_and_dense
from ..autograd.function import Function
from ..autograd.graph import SECOND_BACKWARD_MESSAGE, Node, _op_name, current_graph_task, gradient_edge
from .._tensor import Tensor

OVERLAP_MESSAGE = ("unsupported operation: more than one element of the written-to tensor refers to a "
                   "single memory location. Please clone() the tensor before performing the operation.")


# ------------------------------------------------------------------ memory layout
def _memory_offsets(array, start):
    """The offset (in elements, from ``start``) in memory of every element of ``array``."""
    offsets = np.full(array.shape, start, dtype=np.int64)
    for d, (size, stride) in enumerate(zip(array.shape, array.strides, strict=True)):
        shape = [1] * array.ndim
        shape[d] = size
        offsets = offsets + (np.arange(size, dtype=np.int64) * (stride // array.itemsize)).reshape(shape)
    return offsets


def element_positions(base, view):
    """For each element of ``view``, its index in ``base.reshape(-1)`` (both numpy arrays, same memory)."""
    start = (view.__array_interface__["data"][0] - base.__array_interface__["data"][0]) // base.itemsize
    offsets = _memory_offsets(view, start)
    if base.flags.c_contiguous:
        positions = offsets
    else:
        base_offsets = _memory_offsets(base, 0).reshape(-1)
        order = np.argsort(base_offsets, kind="stable")
        found = np.clip(np.searchsorted(base_offsets[order], offsets), 0, max(base.size - 1, 0))
        positions = order[found] if base.size else found
        if base.size and not np.array_equal(base_offsets[positions], offsets):
            raise RuntimeError("mini_autograd could not find this view's elements in its base's memory "
                               "(was the base's .data replaced?)")
    if positions.size and (positions.min() < 0 or positions.max() >= base.size):
        raise RuntimeError("mini_autograd could not find this view's elements in its base's memory "
                           "(was the base's .data replaced?)")
    return positions


PARTIAL_OVERLAP_MESSAGE = ("unsupported operation: some elements of the input tensor and the written-to "
                           "tensor refer to a single memory location. Please clone() the tensor before "
                           "performing the operation.")


def check_no_partial_overlap(written, read):
    """PyTorch refuses an in-place op whose input shares only part of the written memory
    (MemoryOverlap.cpp: get_overlap_status, assert_no_partial_overlap): the same memory read the
    same way is fine, and so is anything where either tensor is not one dense block ("too hard")."""
    if written is read or written.size == 0 or read.size == 0 or not np.may_share_memory(written, read):
        return
    if not (is_non_overlapping_and_dense(written) and is_non_overlapping_and_dense(read)):
        return
    a_start = written.__array_interface__["data"][0]
    b_start = read.__array_interface__["data"][0]
    a_end, b_end = a_start + written.nbytes, b_start + read.nbytes
    if a_start == b_start and a_end == b_end and written.strides == read.strides:
        return
    if a_start < b_end and b_start < a_end:
        raise RuntimeError(PARTIAL_OVERLAP_MESSAGE)


def has_internal_overlap(array):
    """True when two elements share memory (a stride of 0 over a size > 1), as after ``expand``."""
    if array.flags.c_contiguous:
        return False
    return any(stride == 0 and size > 1 for size, stride in zip(array.shape, array.strides, strict=True))


def iterator_out(dtype, *arrays, converted=True):
    """An empty result for an elementwise op on ``arrays``, laid out as PyTorch lays it out, or None
    when every operand is laid out row by row (numpy's result is then row by row too).

    PyTorch's TensorIterator sorts the dims by the operands' strides, the first operand that tells
    two dims apart deciding; a broadcast dim tells nothing (TensorIterator.cpp:
    TensorIteratorBase::reorder_dimensions). So ``a.t() + b`` is laid out as ``a.t()``, ``b + a.t()``
    row by row, where numpy's ufuncs would give row by row for both: a later ``reshape`` is then a
    view in one library and a copy in the other. With ``converted``, an operand of another dtype is
    first converted to ``dtype``, as PyTorch does, and so has its copy's layout: its own if it is one
    dense block, else row by row.
    """
    if all(a.flags.c_contiguous for a in arrays):
        return None
    shape = np.broadcast_shapes(*(a.shape for a in arrays))
    ndim = len(shape)
    strides = []
    for a in arrays:
        kept = not converted or a.dtype == dtype or is_non_overlapping_and_dense(a)
        own = a.strides if kept else np.empty(a.shape, np.int8).strides
        lead = ndim - a.ndim
        strides.append([0] * lead + [0 if n == 1 and shape[lead + i] != 1 else s
                                     for i, (n, s) in enumerate(zip(a.shape, own, strict=True))])

    def should_swap(d0, d1):        # 1: d0 is the slower, -1: the faster, 0: no operand tells
        for st in strides:
            s0, s1 = st[d0], st[d1]
            if s0 == 0 or s1 == 0:
                continue
            if s0 != s1:
                return 1 if s0 > s1 else -1
            if shape[d0] > shape[d1]:
                return 1
        return 0

    perm = list(range(ndim - 1, -1, -1))          # the fastest dim first; insertion sort, as PyTorch's
    for i in range(1, ndim):
        d1 = i
        for d0 in range(i - 1, -1, -1):
            comparison = should_swap(perm[d0], perm[d1])
            if comparison > 0:
                perm[d0], perm[d1] = perm[d1], perm[d0]
                d1 = d0
            elif comparison < 0:
                break
    order = perm[::-1]                              # the slowest first
    return np.empty([shape[d] for d in order], dtype).transpose(np.argsort(order))


def empty_like_preserve(source, dtype):
    """An empty array laid out as PyTorch's ``empty_like(source)`` (memory_format=preserve) lays it out:
    with ``source``'s very strides when ``source`` is one dense block (a transposed tensor), else dense,
    its dims in the order of ``source``'s strides (ExpandUtils.cpp: infer_dense_strides, which sorts them
    as TensorIterator does: ``iterator_out`` with ``source`` alone)."""
    if is_non_overlapping_and_dense(source):
        return empty_like_dense(source, dtype)
    return iterator_out(dtype, source, converted=False)


def laid_out_like(source, result):
    """``result`` (an array of ``source``'s shape) laid out as PyTorch lays out a result made with
    ``empty_like(source)`` (flip, sort, zeros_like, ...): see ``empty_like_preserve``."""
    if element_strides(result) == element_strides(source) and is_non_overlapping_and_dense(source):
        return result                               # already laid out so (the usual row-major case)
    out = empty_like_preserve(source, result.dtype)
    if out.strides == result.strides:
        return result
    out[...] = result
    return out


def join_out(dtype, arrays, axis, stack=False, row_by_row=False):
    """An empty result for ``cat`` (``stack``) of ``arrays`` along ``axis``, laid out as PyTorch's cat
    lays it out: row by row, unless every input is 4-D (5-D) and laid out channels-last (TensorBase.h:
    TensorBase::suggest_memory_format), where numpy's concatenate would follow the inputs' layout.
    PyTorch stacks by a cat along ``axis`` and a view, or, along a new last dim, by a cat of the inputs
    unsqueezed there."""
    sizes = arrays[0].shape
    if stack and axis < len(sizes):
        out = join_out(dtype, arrays, axis, row_by_row=row_by_row)
        return out.reshape(sizes[:axis] + (len(arrays),) + sizes[axis:])      # a view: one dim split
    geometries = [(a.shape, [st // a.itemsize for st in a.strides]) for a in arrays]
    if stack:
        geometries = [(shape + (1,), strides + [1]) for shape, strides in geometries]
    shape = list(geometries[0][0])
    shape[axis] = sum(g[0][axis] for g in geometries)
    if not row_by_row and len(shape) in (4, 5) and all(_channels_last(*g) for g in geometries):
        order = (0, *range(2, len(shape)), 1)          # N, (D,) H, W, then C fastest
        return np.empty([shape[d] for d in order], dtype).transpose(np.argsort(order))
    return np.empty(shape, dtype)


def _channels_last(sizes, strides):
    """PyTorch's test of a channels-last layout from strides, ambiguous cases row by row
    (c10/core/MemoryFormat.h: is_channels_last_strides_2d_s4, and its 3-D twin)."""
    if strides[1] == 0:
        return False
    smallest = 0
    for d in ((1, 3, 2, 0) if len(sizes) == 4 else (1, 4, 3, 2, 0)):
        if sizes[d] == 0 or strides[d] < smallest or (d == 0 and smallest == strides[1]):
            return False
        smallest = strides[d] * (sizes[d] if sizes[d] > 1 else 1)
    return True


def expand_array(array, sizes):
    """``array`` broadcast to ``sizes`` without copying, writable (PyTorch allows writing to it
    when the written elements do not overlap; ``has_internal_overlap`` catches the rest)."""
    lead = len(sizes) - array.ndim
    strides = [0] * lead + [0 if old == 1 and new != 1 else stride
                            for old, new, stride in zip(array.shape, sizes[lead:], array.strides,
                                                        strict=True)]
    return np.lib.stride_tricks.as_strided(array, shape=tuple(sizes), strides=strides)


# ------------------------------------------------------------- strided geometry
def strided_geometry(base, view):
    """``view``'s (sizes, strides, offset), in elements, in the memory of ``base`` (numpy arrays),
    as PyTorch's as_strided sees a view in its base's storage; None unless ``base`` is one dense
    block with no negative stride and ``view`` has no negative stride and lies inside it (then
    positions are used, and checked)."""
    if not is_non_overlapping_and_dense(base) or any(st < 0 for st in base.strides + view.strides):
        return None
    start = (view.__array_interface__["data"][0] - base.__array_interface__["data"][0]) // base.itemsize
    sizes, strides = tuple(view.shape), tuple(st // view.itemsize for st in view.strides)
    if start < 0 or _storage_size(sizes, strides, start) > base.size:
        return None                      # not inside base's memory (its .data was replaced)
    return sizes, strides, start


def _storage_size(sizes, strides, offset):
    """How many elements of memory a view of this geometry reaches (as_strided's _min_storage_size)."""
    if any(size == 0 for size in sizes):
        return 0
    return 1 + offset + sum((size - 1) * stride for size, stride in zip(sizes, strides, strict=True))


def _overlaps(sizes, strides):
    """Whether two elements of a view of this geometry share memory (an expanded tensor's do)."""
    return any(stride == 0 and size > 1 for size, stride in zip(sizes, strides, strict=True))


class AsStridedView(Function):
    """``x.as_strided(sizes, strides, offset)``: a view of ``x``'s memory, x a dense tensor laid out
    with no negative stride (the fresh memory the two backward passes below write into)."""
    node_name = "AsStridedBackward0"

    @staticmethod
    def forward(ctx, x, sizes, strides, offset):
        from ._helpers import view_of       # (_helpers imports this module)
        data = x._data
        ctx.self_geometry = strided_geometry(data, data)
        ctx.sizes, ctx.strides, ctx.offset = sizes, strides, offset
        memory = np.lib.stride_tricks.as_strided(data, (data.size,), (data.itemsize,))
        layout = [st * data.itemsize for st in strides]
        array = np.lib.stride_tricks.as_strided(memory[offset:], sizes, layout)
        return view_of(x, array, ctx)

    @staticmethod
    def backward(ctx, grad):
        view_geometry = (ctx.sizes, ctx.strides, ctx.offset)
        return as_strided_backward(grad, ctx.self_geometry, view_geometry), None, None, None


def as_strided_backward(grad, input_geometry, view_geometry):
    """The gradient of a view of the given geometry, for the input of the given geometry.

    FunctionsManual.cpp: as_strided_backward. Zeros stand for the memory; the gradient is
    copied in through the view's geometry (an in-place copy through a view: CopySlices),
    and read out through the input's (AsStridedBackward0). Written elements that repeat
    (an expanded view) add up instead (PyTorch uses index_add_ there).
    """
    sizes, strides, offset = view_geometry
    size = max(_storage_size(*input_geometry), _storage_size(sizes, strides, offset))
    storage = Tensor(np.zeros(size, grad._data.dtype))
    if _overlaps(sizes, strides):
        positions = strided_positions(sizes, strides, offset)
        storage = PutPositions.apply(grad, (size,), positions)
    else:
        AsStridedView.apply(storage, sizes, strides, offset).copy_(grad)
    return AsStridedView.apply(storage, *input_geometry)


def strided_positions(sizes, strides, offset):
    """The memory index of every element of a view of this geometry."""
    positions = np.full(sizes, offset, dtype=np.int64)
    for d, (size, stride) in enumerate(zip(sizes, strides, strict=True)):
        shape = [1] * len(sizes)
        shape[d] = size
        positions = positions + (np.arange(size, dtype=np.int64) * stride).reshape(shape)
    return positions


# ------------------------------------------------ gathering and scattering positions
class TakePositions(Function):
    """The elements of ``x`` at ``positions`` (indices into ``x.reshape(-1)``), in their shape."""
    node_name = "AsStridedBackward0"

    @staticmethod
    def forward(ctx, x, positions):
        ctx.self_sym_sizes, ctx.positions = tuple(x.shape), positions
        return Tensor(np.ascontiguousarray(x._data).reshape(-1)[positions])

    @staticmethod
    def backward(ctx, grad):
        return PutPositions.apply(grad, ctx.self_sym_sizes, ctx.positions), None


class PutPositions(Function):
    """Zeros of ``shape`` with ``grad`` added at ``positions`` (repeated positions add up)."""
    node_name = "AsStridedBackward0"      # PyTorch's as_strided_backward ends in an as_strided view too

    @staticmethod
    def forward(ctx, grad, shape, positions):
        ctx.positions = positions
        size = math.prod(shape)
        out = np.bincount(positions.reshape(-1), weights=grad._data.reshape(-1), minlength=size)
        return Tensor(out.astype(grad._data.dtype, copy=False).reshape(shape))

    @staticmethod
    def backward(ctx, grad):
        return TakePositions.apply(grad, ctx.positions), None, None


class ReplacePositions(Function):
    """``grad`` with the elements at ``positions`` replaced by ``values`` (by zeros if None)."""
    node_name = "CopySlicesBackward0"

    @staticmethod
    def forward(ctx, grad, positions, values):
        ctx.positions = positions
        out = grad._data.copy()
        out.reshape(-1)[positions.reshape(-1)] = 0 if values is None else values._data.reshape(-1)
        return Tensor(out)

    @staticmethod
    def backward(ctx, grad):
        rest = ReplacePositions.apply(grad, ctx.positions, None)
        return rest, None, TakePositions.apply(grad, ctx.positions) if ctx.needs_input_grad[2] else None


class AsStrided(Function):
    """The node a view gets when its base changed in place: its gradient is read from the base's.

    Never called through ``apply``: ``refresh_view_grad_fn`` makes the node directly,
    for a view that already exists.
    """
    node_name = "AsStridedBackward0"

    @staticmethod
    def backward(ctx, grad):
        if ctx.geometry is not None:
            return as_strided_backward(grad, ctx.base_geometry, ctx.geometry)
        return PutPositions.apply(grad, ctx.base_sizes, ctx.positions)


def set_history(tensor, node):
    """Make ``node`` the tensor's ``grad_fn`` (output 0); a ``retain_grad`` moves with it."""
    old, old_output_nr = tensor._grad_fn, tensor._output_nr
    tensor._grad_fn, tensor._output_nr = node, 0
    if (tensor._retains_grad and old is not None and old._retains_grad_hooks
            and old._retains_grad_hooks.pop(old_output_nr, None) is not None):
        node._register_retains_grad_hook(tensor)


def refresh_view_grad_fn(view):
    """The ``grad_fn`` of a view whose base changed in place since it was set: a new AsStridedBackward0.

    variable.cpp: VariableHooks::grad_fn. Called by ``Tensor.grad_fn`` only when the
    version counter moved on.
    """
    base = view._base
    version = view._version_counter.value
    if view._grad_fn is None and not base.requires_grad:
        return None
    if view._creation_meta != "DEFAULT":
        raise RuntimeError(view_rebase_message(view, indirect=True))
    node = AsStrided._backward_cls()
    node.needs_input_grad = (True,)
    node._arg_is_tensor = (True,)
    node.next_functions = (gradient_edge(base),)
    node._input_metadata = ((view._data.shape, view._data.dtype),)
    node.base_sizes = base._data.shape
    node.geometry = strided_geometry(base._data, view._data)
    node.base_geometry = strided_geometry(base._data, base._data)
    node.positions = None if node.geometry is not None else element_positions(base._data, view._data)
    set_history(view, node)
    view._view_version = version
    return node


def view_rebase_message(view, indirect):
    """PyTorch's error for an in-place change that involves a view made under no_grad or
    inference_mode (or a view of one): of the view itself, or (``indirect``) of its base or
    another view of it (variable.cpp: handle_view_on_rebase)."""
    modified = "its base or another view of its base has been" if indirect else "is being"
    if view._creation_meta == "MULTI_OUTPUT_NODE":          # split, chunk, unbind (ops/splitting.py)
        if view._grad_fn is None:
            who = f"A view was created in no_grad mode and {modified} modified inplace with grad mode enabled"
        else:
            who = f"Output {view._output_nr} of {_op_name(view._grad_fn)} is a view and {modified} modified"
            who += " inplace"
        return (f"{who}. This view is the output of a function that returns multiple views. Such functions "
                "do not allow the output views to be modified inplace. You should replace the inplace "
                "operation by an out-of-place one.")
    if view._creation_meta == "INFERENCE_MODE":
        made, mode, block = "inference mode", "in normal mode", "inference_mode"
    else:
        made, mode, block = "no_grad mode", "with grad mode enabled", "no_grad"
    if view._grad_fn is None:
        who = "A view was created"
    else:                        # a view (made with grad mode on) of such a view
        who = f"Output {view._output_nr} of {_op_name(view._grad_fn)} is a view of a view which was created"
    return (f"{who} in {made} and {modified} modified inplace {mode}. Given that this use "
            "case is ambiguous and error-prone, it is forbidden. You can clarify your code by moving both "
            f"the view and the inplace either both inside the {block} block (if you don't want the inplace "
            "to be tracked) or both outside (if you want the inplace to be tracked).")


class CopySlices(Node):
    """The base's node after an in-place op through one of its views (functions/tensor.cpp: CopySlices).

    ``fn`` is the node the op recorded on the view. Backward: the gradient of the
    elements the view covers goes through ``fn``; the others pass unchanged.
    Edges: the base's previous history, then ``fn``'s edges other than the view's.
    """

    def __init__(self, base_edge, base, view, fn):
        super().__init__()
        self.next_functions = (base_edge,) + tuple(fn.next_functions[1:])
        self._input_metadata = ((base.shape, base.dtype),)
        self.geometry = strided_geometry(base, view)          # the view's, in the base's memory
        self.base_geometry = strided_geometry(base, base)
        if self.geometry is None:
            self.positions = element_positions(base, view)
            self.overlapping = np.unique(self.positions).size != self.positions.size
        else:
            self.overlapping = _overlaps(*self.geometry[:2])
        self.fn = fn

    def name(self):
        return "torch::autograd::CopySlices"

    def apply(self, grad_outputs):
        if self.fn is None:
            raise RuntimeError(SECOND_BACKWARD_MESSAGE)
        if self.overlapping:                # the view wrote some elements more than once (after expand)
            raise RuntimeError(OVERLAP_MESSAGE)
        grad = grad_outputs[0]
        if grad is None:
            return (None,) * len(self.next_functions)
        self._update_exec_info()
        if self.geometry is not None:
            return self._apply_strided(grad)
        results = self.fn.apply([TakePositions.apply(grad, self.positions)])
        self_grad = results[0]
        if self_grad is not None and self_grad._data.shape != self.positions.shape:
            from ..autograd.engine import sum_to
            self_grad = sum_to(self_grad, self.positions.shape)
        return (ReplacePositions.apply(grad, self.positions, self_grad),) + tuple(results[1:])

    def _update_exec_info(self):
        """functions/tensor.cpp, CopySlices::update_exec_info: ``fn``'s first edge leads to the view's old
        node, not to the base's, so a pruning backward (autograd.grad) has no verdict on it; it gets this
        node's, so that ``fn`` computes the gradient this node needs (Node.task_should_compute_output)."""
        task = current_graph_task.task
        fn_node = self.fn.next_functions[0][0]
        if task is None or not task.exec_info or fn_node is None or fn_node in task.exec_info:
            return
        if self.task_should_compute_output(0):
            task.exec_info[fn_node] = True

    def _apply_strided(self, grad):
        """functions/tensor.cpp, CopySlices::apply_impl: the gradient copied into fresh memory laid
        out as the base; the view's part of it (as_strided) goes through ``fn``, whose result is
        copied back into that part (a second CopySlices, under create_graph)."""
        from ..autograd.engine import sum_to
        from .shape import Clone
        shape, strides, _ = self.base_geometry
        memory = np.empty(_storage_size(shape, strides, 0), grad._data.dtype)
        layout = [st * memory.itemsize for st in strides]
        result = Tensor(np.lib.stride_tricks.as_strided(memory, shape, layout))
        result.copy_(grad)
        grad_slice = AsStridedView.apply(result, *self.geometry)
        results = self.fn.apply([Clone.apply(grad_slice, True)])
        self_grad = results[0]
        if self_grad is None:
            return (None,) + tuple(results[1:])        # PyTorch leaves the base's gradient undefined too
        if self_grad._data.shape != grad_slice._data.shape:
            self_grad = sum_to(self_grad, grad_slice._data.shape)
        grad_slice.copy_(self_grad)
        return (result,) + tuple(results[1:])

    def release_variables(self):
        """Drop ``fn`` (not its saved tensors: a graph built by ``create_graph`` may still use them)."""
        self.fn = None
