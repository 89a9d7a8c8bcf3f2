"""In-place operations: ``add_``, ``mul_``, ..., ``fill_``, ``zero_``, ``copy_`` and ``x[index] = value``.

Every one goes through ``run_inplace``: check that the change is allowed, compute the
new values out of place (recording a node when autograd must see the change), write
them into the tensor's memory, and bump the version counter. When the graph is
recorded the tensor's history is *rebased*: the new node becomes its ``grad_fn``; for
a view, its base gets a ``CopySlices`` node instead (see ``views.py``), as in
PyTorch (torch/csrc/autograd/VariableTypeUtils.h: ``rebase_history``).
"""
import weakref

import numpy as np

from .. import grad_mode
from ..autograd.function import Function
from ..autograd.graph import SavedTensor, _packing_deferred, gradient_edge
from .._tensor import Tensor
from ._helpers import check_broadcast_shapes
from .shape import Clone
from .views import CopySlices, check_no_partial_overlap, set_history


def run_inplace(tensor, compute, args, write=None, check_overlap=True, check_partial=True):
    """Change ``tensor`` in place to ``compute(tensor, *args)``; record it when autograd must see it.

    When the node ``compute`` records keeps the old values for backward (mul_, clamp_, ...),
    it gets a copy of them (PyTorch saves ``self.clone()`` for in-place ops too), so that
    the change made here does not alter what backward reads.
    ``write(array, *args)``: writes the result straight into the array, for when nothing
    is recorded (without it, the result is computed out of place and copied in).
    """
    requires_grad = tensor.requires_grad or any(isinstance(a, Tensor) and a.requires_grad for a in args)
    tensor._check_inplace(check_overlap, requires_grad)
    if check_partial:             # (fill_ reads its one value first: it may share memory with the target)
        for arg in args:
            if isinstance(arg, Tensor):
                check_no_partial_overlap(tensor._data, arg._data)
    recording = grad_mode._state.grad_enabled and requires_grad
    if not recording:
        if write is None:
            _write_result(tensor, compute(tensor, *args))
        else:
            write(tensor._data, *args)
        tensor._bump_version()
        return tensor

    old = Tensor(tensor._data)                       # the values before the change, for the graph
    old._grad_fn, old._output_nr = tensor.grad_fn, tensor._output_nr
    old._requires_grad = tensor._requires_grad
    _packing_deferred.append(old)     # under saved_tensors_hooks, what the node saves of it is packed
    try:                              # as its clone (_keep_old_values), the values backward will read
        result = compute(old, *args)
    finally:
        _packing_deferred.pop()
    node = result._grad_fn
    if node is not None:
        _keep_old_values(node, old)
    _write_result(tensor, result)
    tensor._bump_version()
    if node is None:
        return tensor
    # the node's output is now ``tensor``: gradients arrive in its dtype (float32 += float64 stays float32)
    node._input_metadata = ((tensor._data.shape, tensor._data.dtype),) + tuple(node._input_metadata[1:])
    for saved in node._saved:
        if saved is not None and saved.is_output:     # the node's output now lives in ``tensor``
            saved.data, saved.version_counter = tensor._data, tensor._version_counter
            saved.saved_version = tensor._version_counter.value
    base = tensor._base
    if base is None:
        set_history(tensor, node)
    else:
        copy_slices = CopySlices(gradient_edge(base), base._data, tensor._data, node)
        set_history(base, copy_slices)
        if any(saved is not None and saved.is_output for saved in node._saved):
            view_node = tensor.grad_fn        # the view's new history: AsStridedBackward0 -> CopySlices
            node._saved = tuple(InplaceViewSavedTensor.wrap(saved, view_node)
                                if saved is not None and saved.is_output else saved for saved in node._saved)
    return tensor


class InplaceViewSavedTensor(SavedTensor):
    """The saved output of an in-place op on a view (saved_variable.cpp: is_inplace_on_view).

    Unpacked, it has the view's history as it was after the op (AsStridedBackward0 ->
    CopySlices), held weakly; if that node is gone (the view was a temporary), it has
    the op's own node instead, as in PyTorch. The weak link keeps CopySlices -> node ->
    saved output -> view's node from being a reference cycle.
    """

    __slots__ = ("view_node",)

    @classmethod
    def wrap(cls, saved, view_node):
        new = cls.__new__(cls)
        for name in SavedTensor.__slots__:
            setattr(new, name, getattr(saved, name))
        new.view_node = weakref.ref(view_node)
        return new

    def unpack(self, node):
        out = super().unpack(node)
        view_node = self.view_node()
        if view_node is not None and out._grad_fn is not None:
            out._grad_fn, out._output_nr = view_node, 0
        return out


def _keep_old_values(node, old):
    """Give what ``node`` saved of ``old`` a copy of its values: ``old`` shares the memory about to change.

    The copy is ``old.clone()``, recorded (CloneBackward0), made after the node: PyTorch's generated
    in-place ops save ``original_self = self.clone()`` that way (a second backward goes through it).
    """
    clone = None
    kept = []
    for saved in node._saved:
        if saved is not None and not saved.is_output and saved.tensor is old:
            clone = Clone.apply(old) if clone is None else clone
            saved = SavedTensor(clone, is_output=False)      # packed now, under saved_tensors_hooks
        kept.append(saved)
    node._saved = tuple(kept)


def check_cast(result, tensor):
    """PyTorch's error when ``result`` cannot be written into ``tensor`` (in place, or as ``out=``)."""
    if result._data.dtype != tensor._data.dtype and not np.can_cast(result._data.dtype, tensor._data.dtype,
                                                                     casting="same_kind"):
        raise RuntimeError(f"result type {result.dtype.scalar_name} can't be cast to the desired "
                           f"output type {tensor.dtype.scalar_name}")


def _write_result(tensor, result):
    """Copy an out-of-place result into the tensor's memory, with PyTorch's checks."""
    check_cast(result, tensor)
    if result._data.shape != tensor._data.shape:
        raise RuntimeError(f"output with shape {list(tensor.shape)} doesn't match the broadcast shape "
                           f"{list(result.shape)}")
    np.copyto(tensor._data, result._data, casting="unsafe")


# ----------------------------------------------------------------- fill, zero, copy
class FillScalar(Function):
    """x.fill_(number): every element becomes the number; no gradient reaches the old values."""
    node_name = "FillBackward2"

    @staticmethod
    def forward(ctx, x, value):
        return Tensor(np.full(x._data.shape, value, dtype=x._data.dtype))

    @staticmethod
    def backward(ctx, grad):
        return Tensor(np.zeros_like(grad._data)), None


class FillTensor(Function):
    """x.fill_(value) with a 0-d tensor: the value's gradient is the sum of the gradient."""
    node_name = "FillBackward3"

    @staticmethod
    def forward(ctx, x, value):
        return Tensor(np.full(x._data.shape, value._data, dtype=x._data.dtype))

    @staticmethod
    def backward(ctx, grad):
        return Tensor(np.zeros_like(grad._data)), grad.sum()


class Zero(Function):
    """x.zero_()."""
    node_name = "ZeroBackward0"

    @staticmethod
    def forward(ctx, x):
        return Tensor(np.zeros_like(x._data))

    @staticmethod
    def backward(ctx, grad):
        return Tensor(np.zeros_like(grad._data))


class Copy(Function):
    """x.copy_(src): src, broadcast to x's shape and cast to x's dtype, replaces x's values."""
    node_name = "torch::autograd::CopyBackwards"

    @staticmethod
    def forward(ctx, x, src):
        return Tensor(np.broadcast_to(src._data, x._data.shape).astype(x._data.dtype))

    @staticmethod
    def backward(ctx, grad):
        # the engine sums the gradient to src's shape and casts it to src's dtype
        return Tensor(np.zeros_like(grad._data)), grad


def fill_(tensor, value):
    if isinstance(value, Tensor):
        if value.ndim != 0:
            raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor with "
                               f"{value.ndim} dimensions.")
        return run_inplace(tensor, FillTensor.apply, (value,), write=_fill_array, check_overlap=False,
                           check_partial=False)
    if not isinstance(value, (bool, int, float, np.number, np.bool_)):
        raise TypeError("fill_() received an invalid combination of arguments - "
                        f"got ({type(value).__name__}), "
                        "but expected one of:\n * (Tensor value)\n * (Number value)\n")
    return run_inplace(tensor, FillScalar.apply, (value,), write=_fill_array, check_overlap=False)


def zero_(tensor):
    return run_inplace(tensor, Zero.apply, (), write=_fill_array_zero, check_overlap=False)


def copy_(tensor, src):
    if not isinstance(src, Tensor):
        raise TypeError(f"copy_(): argument 'src' (position 1) must be Tensor, not {type(src).__name__}")
    if src._data.shape != tensor._data.shape:          # PyTorch's errors when src cannot broadcast to it
        check_broadcast_shapes(tensor._data.shape, src._data.shape)
        shape = np.broadcast_shapes(tensor._data.shape, src._data.shape)
        if shape != tensor._data.shape:
            raise RuntimeError(f"output with shape {list(tensor.shape)} doesn't match the broadcast shape "
                               f"{list(shape)}")
    a, b = tensor._data, src._data
    same_data = (a.__array_interface__["data"][0] == b.__array_interface__["data"][0] and a.shape == b.shape
                 and a.strides == b.strides and a.dtype == b.dtype)   # copying onto itself: nothing to check
    return run_inplace(tensor, Copy.apply, (src,), write=_copy_array, check_overlap=not same_data)


def _fill_array(array, value):
    array[...] = value._data if isinstance(value, Tensor) else value


def _fill_array_zero(array):
    array[...] = 0


def _copy_array(array, src):
    np.copyto(array, src._data, casting="unsafe")


# -------------------------------------------------------------------- index_put_
class IndexPut(Function):
    """x[index] = values for an advanced index: values (broadcast) replace the indexed elements.

    d/dx: the gradient, zero where x was overwritten; d/dvalues: the gradient at the index.
    """
    node_name = "IndexPutBackward0"
    saved_attributes = ("key",)      # PyTorch saves the index tensors: freed after backward

    @staticmethod
    def forward(ctx, x, values, key):
        ctx.key = key
        out = x._data.copy()
        out[key] = values._data
        return Tensor(out)

    @staticmethod
    def backward(ctx, grad):
        from .indexing import Index
        grad_self = IndexPut.apply(grad, Tensor(np.zeros((), grad._data.dtype)), ctx.key) \
            if ctx.needs_input_grad[0] else None
        grad_values = Index.apply(grad, ctx.key) if ctx.needs_input_grad[1] else None
        return grad_self, grad_values, None


def index_put_(tensor, key, values):
    """``tensor[key] = values`` for an advanced key (indexing._put_advanced checks it first)."""
    def compute(x, v):
        return IndexPut.apply(x, v, key)

    def write(array, v):
        array[key] = v._data

    return run_inplace(tensor, compute, (values,), write=write, check_overlap=False)
