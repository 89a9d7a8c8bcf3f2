"""The backward graph: nodes, edges, saved tensors, hooks and AccumulateGrad.

PyTorch counterparts: torch/csrc/autograd/node.h (``Node``), edge.h (``Edge``),
torch/csrc/autograd/saved_variable.h (``SavedVariable``) and
torch/csrc/autograd/functions/accumulate_grad.h (``AccumulateGrad``).

Vocabulary, as in PyTorch: a node's *inputs* are the gradients flowing into it
(one per output of the forward operation) and its *outputs* are the gradients it
sends along ``next_functions`` (one per input of the forward operation).
"""
import itertools
import threading
from typing import NamedTuple

import numpy as np

from .._dtype import from_numpy_dtype
from .._layout import empty_like_dense, is_non_overlapping_and_dense
from .._tensor import Tensor
from ..grad_mode import is_grad_enabled, no_grad



class _SequenceNumbers(threading.local):
    """One counter per thread: PyTorch's ``at::sequence_number`` is "a simple thread local enumeration"
    (ATen/SequenceNumber.h). A node made in a new thread starts again from 0."""

    def __init__(self):
        self.counter = itertools.count()


_sequence_numbers = _SequenceNumbers()

# Nodes made without a sequence number run as soon as they are ready, as PyTorch's AccumulateGrad does
# (functions/accumulate_grad.cpp: UINT64_MAX; node.h: ``NOTE [ Sequence Number]``).
MAX_SEQUENCE_NR = 2**64 - 1


class RemovableHandle:
    """Returned by ``register_hook``: ``handle.remove()`` takes the hook out again."""

    _ids = itertools.count()

    def __init__(self, hooks_dict, hook):
        self.id = next(RemovableHandle._ids)
        self._hooks_dict = hooks_dict
        hooks_dict[self.id] = hook

    def remove(self):
        self._hooks_dict.pop(self.id, None)


class _CurrentGraphTask(threading.local):
    """The graph task running in this thread, set by ``engine.execute`` while it runs (graph_task.h:
    GraphTaskGuard, which sets engine.cpp's thread_local ``current_graph_task``)."""
    task = None


current_graph_task = _CurrentGraphTask()


class Node:
    """One step of the backward graph: knows its backward formula and where to send grads.

    torch/csrc/autograd/node.h: struct Node.
    """

    # Hooks are rare: these stay None (shared class defaults) until one is registered.
    _pre_hooks = None          # id -> fn(grad_outputs) -> new grad_outputs or None
    _post_hooks = None         # id -> fn(grad_inputs, grad_outputs) -> new grad_inputs or None
    _tensor_pre_hooks = None   # hooks of the tensors this node made: id -> (output_nr, {id: fn})
    _retains_grad_hooks = None  # output_nr -> hook filling that tensor's .grad

    # Filled in when the node is wired into the graph (function.py: _record); empty until then.
    next_functions = ()       # one (node, input_nr) edge per forward input; (None, 0) if no grad
    _input_metadata = ()      # (shape, dtype) of each forward output: what grads must look like

    def __init__(self, sequence_nr=None):
        self._sequence_number = next(_sequence_numbers.counter) if sequence_nr is None else sequence_nr

    def name(self):
        return type(self).__name__

    def _sequence_nr(self):
        """The order of creation: the engine runs newer nodes first (PyTorch's ``_sequence_nr()``)."""
        return self._sequence_number

    def __repr__(self):
        return f"<{type(self).__name__} object at {id(self):#x}>"

    @property
    def num_inputs(self):
        return len(self._input_metadata)

    def apply(self, grad_outputs):
        """Given the grads of the forward outputs, return the grads of the forward inputs."""
        raise NotImplementedError

    def release_variables(self):
        """Free what was saved for backward (called after backward unless retain_graph)."""

    def task_should_compute_output(self, index):
        """Whether the backward running now wants the gradient for ``next_functions[index]``: the edge leads
        to a node, and the graph task will run that node or capture its gradient (node.h:
        Node::task_should_compute_output; autograd.grad and backward(inputs=...) prune the others)."""
        next_node = self.next_functions[index][0]
        task = current_graph_task.task
        return next_node is not None and (task is None or task.should_execute(next_node))

    # hooks -------------------------------------------------------------
    def register_hook(self, fn):
        """``fn(grad_inputs, grad_outputs)`` runs after this node; it may return new grad_inputs."""
        if self._post_hooks is None:
            self._post_hooks = {}
        return RemovableHandle(self._post_hooks, fn)

    def register_prehook(self, fn):
        """``fn(grad_outputs)`` runs before this node; it may return new grad_outputs."""
        if self._pre_hooks is None:
            self._pre_hooks = {}
        return RemovableHandle(self._pre_hooks, fn)

    def _register_tensor_pre_hook(self, output_nr, fn):
        if self._tensor_pre_hooks is None:
            self._tensor_pre_hooks = {}
        hooks = {}
        handle = RemovableHandle(hooks, fn)
        self._tensor_pre_hooks[handle.id] = (output_nr, hooks)
        return handle

    def _register_retains_grad_hook(self, tensor):
        if self._retains_grad_hooks is None:
            self._retains_grad_hooks = {}
        self._retains_grad_hooks[tensor._output_nr] = RetainGradHook(tensor)

    def tensor_pre_hooks(self):
        """The hooks registered with ``tensor.register_hook``, as (output_nr, fn), oldest first."""
        if not self._tensor_pre_hooks:
            return []
        return [(output_nr, fn) for output_nr, hooks in self._tensor_pre_hooks.values()
                for fn in hooks.values()]


class RetainGradHook:
    """Writes a non-leaf tensor's gradient into its ``.grad`` (variable.cpp: retain_grad).

    It holds the tensor weakly, so the hook does not keep the tensor alive.
    """

    def __init__(self, tensor):
        import weakref
        self.tensor_ref = weakref.ref(tensor)

    def __call__(self, grad):
        tensor = self.tensor_ref()
        if tensor is not None and grad is not None:
            if tensor._grad is None:
                tensor._grad = grad.clone() if is_grad_enabled() else Tensor(grad._data.copy())
            else:
                tensor._grad = tensor._grad + grad
        return grad


class AccumulateGrad(Node):
    """The node at each leaf that requires grad: adds the incoming gradient into ``leaf.grad``.

    torch/csrc/autograd/functions/accumulate_grad.h. It holds its leaf (``variable``)
    strongly while the leaf holds it weakly, so no reference cycle forms.
    """

    def __init__(self, variable):
        super().__init__(sequence_nr=MAX_SEQUENCE_NR)
        self.variable = variable
        self._input_metadata = ((variable._data.shape, variable._data.dtype),)

    def name(self):
        return "torch::autograd::AccumulateGrad"

    def tensor_pre_hooks(self):
        hooks = self.variable._hooks
        return [(0, fn) for fn in hooks.values()] if hooks else []

    def apply(self, grad_outputs):
        self._accumulate(grad_outputs[0])
        hooks = self.variable._post_accumulate_grad_hooks
        if hooks:       # accumulate_grad.cpp: then the leaf's post-accumulate-grad hooks, whatever arrived
            self._call_post_accumulate_grad_hooks(list(hooks.values()))
        return ()

    def _call_post_accumulate_grad_hooks(self, hooks):
        for hook in hooks:
            result = hook(self.variable)
            if isinstance(result, Tensor):
                raise RuntimeError("Tensor post accumulate grad hooks should return None.")
            if result is not None:
                raise TypeError(f"expected Variable, but hook returned '{type(result).__name__}'")

    def _accumulate(self, new_grad):
        variable = self.variable
        if new_grad is None or not variable.requires_grad:
            return             # no gradient arrived, or requires_grad was switched off since
        if variable._grad is None:
            # The first gradient: keep a private copy (or, building a graph, a recorded copy), laid out
            # as the leaf is (a transposed leaf gets a transposed .grad: the "Gradient Layout Contract").
            if is_grad_enabled():
                from ..ops.shape import CopyForGrad
                variable._grad = CopyForGrad.apply(new_grad)
            else:
                variable._grad = Tensor(_clone_obey_contract(new_grad._data, variable._data))
        elif not is_grad_enabled():
            variable._grad._data += new_grad._data        # accumulate in place
            variable._grad._bump_version()
        else:
            variable._grad = variable._grad + new_grad     # create_graph: out of place, recorded


def _clone_obey_contract(grad, variable):
    """grad_layout_contract.h: clone_obey_contract. A dense parameter's gradient is copied into memory with
    the parameter's strides (a transposed parameter gets a transposed gradient); any other parameter's
    into row-major memory."""
    if not is_non_overlapping_and_dense(variable):
        return np.array(grad, order="C", copy=True)
    out = empty_like_dense(variable, grad.dtype)
    np.copyto(out, grad)
    return out


class GraphRoot(Node):
    """The starting node when backward begins from several tensors (functions/basic_ops.h)."""

    def __init__(self, edges, grads):
        super().__init__(sequence_nr=MAX_SEQUENCE_NR)
        self.next_functions = tuple(edges)
        self.grads = grads

    def apply(self, grad_outputs):
        return self.grads


SECOND_BACKWARD_MESSAGE = (
    "Trying to backward through the graph a second time (or directly access saved tensors after they "
    "have already been freed). Saved intermediate values of the graph are freed when you call "
    ".backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the "
    "graph a second time or if you need to access saved tensors after calling backward.")


class SavedTensor:
    """A tensor saved for backward, stamped with the version it had when saved.

    torch/csrc/autograd/saved_variable.h: SavedVariable. A node's own output is
    saved as its bare data (not the output Tensor, which points back at the node:
    that would be a reference cycle) and rebuilt on unpacking.
    """

    __slots__ = ("tensor", "data", "is_output", "saved_version", "version_counter",
                 "requires_grad", "freed", "output_nr", "was_leaf", "packed")

    def __init__(self, tensor, is_output):
        if tensor._is_inference:
            raise RuntimeError(
                "Inference tensors cannot be saved for backward. Please do not use Tensors created "
                "in inference mode in computation tracked by autograd. To work around this, you can "
                "make a clone to get a normal tensor and use it in autograd, or use "
                "`torch.no_grad()` instead of `torch.inference_mode()`.")
        self.is_output = is_output
        self.tensor = None if is_output else tensor
        self.data = tensor._data
        self.version_counter = tensor._version_counter
        self.saved_version = tensor._version_counter.value
        self.requires_grad = tensor.requires_grad
        self.output_nr = tensor._output_nr
        self.was_leaf = tensor._grad_fn is None
        self.freed = False
        self.packed = None
        if _hooks_stack and not tensor._wrapped_number and not _packing_deferred_for(tensor):
            self.packed = PackedTensor(tensor, *_hooks_stack[-1])    # under saved_tensors_hooks: keep only
            # what pack_hook returns
            self.tensor = self.data = None

    def unpack(self, node):
        if self.freed:
            raise RuntimeError(SECOND_BACKWARD_MESSAGE)
        if self.packed is not None:
            return self.packed.unpack(self, node)
        current = self.version_counter.value
        if current != self.saved_version:
            grad_fn = node if self.is_output else self.tensor.grad_fn
            output_nr = self.output_nr if self.is_output else self.tensor._output_nr
            origin = "" if grad_fn is None else f", which is output {output_nr} of {_op_name(grad_fn)},"
            raise RuntimeError(
                "one of the variables needed for gradient computation has been modified by an "
                f"inplace operation: [{_type_name(self.data)} {list(self.data.shape)}]{origin} "
                f"is at version {current}; expected version {self.saved_version} instead. Hint: "
                "enable anomaly detection to find the operation that failed to compute its "
                "gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False).")
        if not self.is_output:
            if not self.was_leaf and self.tensor._grad_fn is None:
                raise RuntimeError("Trying to use a saved tensor that has been detached in-place, i.e. with "
                                   ".detach_().This is not supported, please use out-of-place `.detach()` "
                                   "instead")
            return self.tensor
        out = Tensor(self.data)
        out._version_counter = self.version_counter
        if self.requires_grad:
            out._grad_fn = node       # a saved output is rebuilt pointing at its own node
            out._output_nr = self.output_nr
        return out

    def release(self):
        self.tensor = None
        self.data = None
        self.packed = None
        self.freed = True


# ----------------------------------------------------------------------------- saved tensors hooks
class _ThreadStack(threading.local):
    """A list of its own in each thread (``append``, ``pop``, ``[-1]``, truth): PyTorch keeps the
    saved tensors hooks and their "disabled" message per thread (aten/src/ATen/SavedTensorHooks.cpp:
    ``thread_local impl::SavedTensorDefaultHooksTLS tls``), so hooks opened in one thread never
    change what another thread saves, and a new thread starts with none."""

    def __init__(self):
        self.items = []

    def __bool__(self):
        return bool(self.items)

    def __len__(self):
        return len(self.items)

    def __getitem__(self, index):
        return self.items[index]

    def append(self, item):
        self.items.append(item)

    def pop(self):
        return self.items.pop()


_hooks_stack = _ThreadStack()       # (pack_hook, unpack_hook) of each open saved_tensors_hooks block,
                                    # innermost last
_hooks_disabled = _ThreadStack()    # the messages of the open disable_saved_tensors_hooks blocks
_packing_deferred = _ThreadStack()  # an in-place op's old values: saved as they are, then packed as their
                                    # clone (ops/inplace.py: run_inplace and _keep_old_values)


def _packing_deferred_for(tensor):
    return bool(_packing_deferred) and _packing_deferred[-1] is tensor


class saved_tensors_hooks:
    """``with saved_tensors_hooks(pack_hook, unpack_hook):`` every tensor saved for backward inside the
    block is kept as ``pack_hook(tensor)``, whatever that returns, and given back to backward as
    ``unpack_hook(packed)``, which must return a tensor with the same values.

    The innermost block's hooks apply, in the thread that opened it only (PyTorch's are thread-local
    too). ``pack_hook`` runs once, at the save, with grad mode off;
    ``unpack_hook`` runs at each use of the saved tensor (in backward, or ``grad_fn._saved_self``).
    PyTorch counterpart: torch/autograd/graph.py: saved_tensors_hooks.
    """

    def __init__(self, pack_hook, unpack_hook):
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self):
        if _hooks_disabled:
            raise RuntimeError(_hooks_disabled[-1])
        _hooks_stack.append((self.pack_hook, self.unpack_hook))
        return self

    def __exit__(self, *exc_info):
        _hooks_stack.pop()


class save_on_cpu(saved_tensors_hooks):
    """Saved tensors go to the CPU and come back to their device for backward (all are on the CPU here)."""

    def __init__(self, pin_memory=False, device_type="cuda"):
        def pack_to_cpu(tensor):
            return (tensor.device, tensor.cpu())

        def unpack_from_cpu(packed):
            device, tensor = packed
            return tensor.to(device, non_blocking=pin_memory)

        super().__init__(pack_to_cpu, unpack_from_cpu)


class disable_saved_tensors_hooks:
    """Inside the block, opening ``saved_tensors_hooks`` raises ``RuntimeError(error_message)``."""

    def __init__(self, error_message):
        self.error_message = error_message

    def __enter__(self):
        _hooks_disabled.append(self.error_message)

    def __exit__(self, *exc_info):
        _hooks_disabled.pop()


class PackedTensor:
    """What a SavedTensor keeps under saved_tensors_hooks: ``pack_hook``'s result (not the tensor), the
    unpack hook, and the autograd metadata that the unpacked tensor gets back
    (saved_variable.cpp: SavedVariable::set_hooks_and_pack_data and unpack)."""

    __slots__ = ("value", "unpack_hook", "grad_fn", "grad_accumulator")

    def __init__(self, tensor, pack_hook, unpack_hook):
        self.unpack_hook = unpack_hook
        self.grad_fn = tensor._grad_fn                    # kept by inputs made by an op (outputs: the node)
        self.grad_accumulator = tensor._grad_accumulator   # a leaf's, held weakly as the leaf holds it
        version = tensor._version_counter.value
        with no_grad():
            self.value = pack_hook(tensor)
        if tensor._version_counter.value != version:
            raise RuntimeError("A saved tensor pack hook is modifying its input in place. Tensors provided "
                               "as input to pack hook cannot be modified by in-place operations as this can "
                               "lead to unexpected side-effects. Please open an issue if you need to perform "
                               "in-place operations on the input to a pack hook.")

    def unpack(self, saved, node):
        """A new tensor over ``unpack_hook``'s result, with the saved tensor's history: ``node`` for the
        node's own output, the saved input's ``grad_fn``, or the leaf's gradient accumulator."""
        data = self.unpack_hook(self.value)
        if not isinstance(data, Tensor):
            raise TypeError("Output of saved tensor unpack_hook expected to be a Tensor but got result of "
                            f"type {type(data).__name__}")
        out = Tensor(data._data)
        out._version_counter = data._version_counter
        if saved.is_output and saved.requires_grad:
            out._grad_fn, out._output_nr = node, saved.output_nr
        elif not saved.is_output and self.grad_fn is not None:
            out._grad_fn, out._output_nr = self.grad_fn, saved.output_nr
        elif saved.requires_grad:
            out._requires_grad = True
            out._grad_accumulator = self.grad_accumulator
        return out


def _op_name(node):
    """How PyTorch names a node's operation in error messages (node.h: Node::forward_op_name): without
    ``Backward`` and a number after it, unless the number is not 0 (``MulBackward0`` -> ``Mul``,
    ``MaxBackward1`` -> ``Max1``, ``MyFnBackward`` -> ``MyFn``); a name with anything else after its last
    ``Backward`` stays whole (``CopyBackwards``)."""
    name = node.name()
    head, found, suffix = name.rpartition("Backward")
    if not found or not (suffix.isdigit() or suffix == ""):
        return name
    return head if suffix in ("", "0") else head + suffix


def _type_name(array):
    """The tensor's type in the saved-tensor error (TensorBase.h: TensorBase::toString): its legacy
    name, ``torch.FloatTensor``; a bool tensor, which has none there, is ``CPUBoolType``."""
    dtype = from_numpy_dtype(array.dtype)
    return "CPUBoolType" if dtype.name == "bool" else dtype.legacy_name


def gradient_edge(tensor):
    """The edge a gradient for ``tensor`` travels along (variable.h: impl::gradient_edge)."""
    grad_fn = tensor.grad_fn
    if grad_fn is not None:
        return (grad_fn, tensor._output_nr)
    if tensor._requires_grad:
        return (tensor._get_grad_accumulator(), 0)
    return (None, 0)


class GradientEdge(NamedTuple):
    """Where a tensor's gradient is computed: a node and which of its inputs (torch/autograd/graph.py:
    GradientEdge). For a leaf, its AccumulateGrad node and 0."""

    node: Node
    output_nr: int
    ownership_token: Node | None = None


def get_gradient_edge(tensor):
    """The edge a gradient for ``tensor`` travels along, for tensors that require grad
    (torch/autograd/graph.py: get_gradient_edge). A leaf's AccumulateGrad node is made here if no graph
    holds one; the leaf holds it only weakly, so once nothing else does, the next call makes a new one."""
    if not tensor.requires_grad:
        raise RuntimeError("It is not possible to get the gradient edge for a Tensor that does not require "
                           "gradients")
    return GradientEdge(*gradient_edge(tensor))
