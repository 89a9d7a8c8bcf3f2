"""The backward engine: runs the graph from the outputs back to the leaves.

PyTorch counterpart: torch/csrc/autograd/engine.cpp (``Engine::execute``,
``compute_dependencies``, ``evaluate_function``, ``call_function``,
``validate_outputs``), graph_task.h (``GraphTask``) and input_buffer.h
(``InputBuffer``). PyTorch runs this loop on worker threads, one per device;
here a single loop does the same steps in the same order.

The steps of one backward, in the order ``execute`` takes them:

1. Make a ``GraphTask`` and seed the root node's ``InputBuffer`` with the
   starting gradient.
2. ``compute_dependencies``: walk the graph once and count, for every node, how
   many edges point at it. A node may run only when all of them have delivered.
   (For ``autograd.grad``, ``init_to_execute`` then marks the nodes that must run.)
3. Put the root in the ``ReadyQueue``.
4. Loop: pop the ready node with the highest sequence number (the newest), call
   it, and add each gradient it returns into the ``InputBuffer`` of the node at
   the other end of the edge. When a node's count reaches zero it is ready.
   ``AccumulateGrad`` nodes, at the leaves, write ``.grad``.

No recursion anywhere: a chain of 100,000 operations runs in a loop.
"""
import heapq
import itertools
import threading

import numpy as np

from .. import grad_mode
from .._tensor import Tensor
from .graph import GraphRoot, current_graph_task


class InputBuffer:
    """The gradients arriving at one node, summed per input slot (input_buffer.h)."""

    __slots__ = ("buffer",)

    def __init__(self, size):
        self.buffer = [None] * size

    def add(self, pos, grad):
        if grad is None:
            return
        old = self.buffer[pos]
        self.buffer[pos] = grad if old is None else old + grad


class ReadyQueue:
    """Nodes whose inputs are complete, newest (highest sequence number) first.

    engine.cpp and engine.h: ReadyQueue and CompareNodeTaskTime. Ties (e.g. AccumulateGrad
    nodes, which all share the largest number) leave in the order they came in. That is
    mini_autograd's own rule: PyTorch's std::priority_queue keeps no order among ties (the four
    AccumulateGrad nodes under ``torch.cat`` of four leaves run in edge order 0, 2, 1, 3).
    """

    def __init__(self):
        self._heap = []
        self._arrival = itertools.count()

    def push(self, node, input_buffer):
        # heapq pops the smallest entry first: the sequence number is negated so the newest node
        # comes out first. The arrival count breaks ties (nodes cannot be compared) in arrival order.
        heapq.heappush(self._heap, (-node._sequence_nr(), next(self._arrival), node, input_buffer))

    def pop(self):
        _, _, node, input_buffer = heapq.heappop(self._heap)
        return node, input_buffer

    def __len__(self):
        return len(self._heap)

    def snapshot(self):
        """The waiting nodes in the order they will run (for pictures of the engine)."""
        return [entry[2] for entry in sorted(self._heap)]


class NoTracer:
    """A tracer whose reports do nothing: the base of mini_autograd.viz's, which draws each step."""

    def on_execute(self, node, input_buffer, graph_task, ready_queue):
        pass

    def on_outputs(self, node, outputs, graph_task):
        pass

    def on_finish(self, graph_task):
        pass



class GraphTask:
    """Everything one call of backward needs to know (graph_task.h: struct GraphTask)."""

    def __init__(self, keep_graph, create_graph):
        self.keep_graph = keep_graph
        self.create_graph = create_graph
        self.dependencies = {}   # node -> number of edges still to deliver a gradient
        self.not_ready = {}      # node -> InputBuffer, for nodes still waiting
        self.exec_info = {}      # node -> needed; empty means "run every node"
        self.captures = {}       # node -> [(input_nr, index into captured_grads)]
        self.captured_grads = []
        self.tracer = None       # observer of each step (mini_autograd.viz); by default, nobody

    def should_execute(self, node):
        return not self.exec_info or self.exec_info.get(node, False) or node in self.captures


def compute_dependencies(root, graph_task):
    """Count the edges into every node reachable from ``root`` (engine.cpp).

    The loop with its own stack does what this recursion would, without Python's recursion limit::

        def visit(node):
            for next_node, _ in node.next_functions:
                if next_node is not None:
                    dependencies[next_node] += 1
                    if next_node not in seen:
                        seen.add(next_node)
                        visit(next_node)
    """
    dependencies = graph_task.dependencies
    seen = {root}
    stack = [root]
    while stack:
        node = stack.pop()
        for next_node, _ in node.next_functions:
            if next_node is None:
                continue
            dependencies[next_node] = dependencies.get(next_node, 0) + 1
            if next_node not in seen:
                seen.add(next_node)
                stack.append(next_node)


def init_to_execute(root, graph_task, output_edges, accumulate_grad):
    """Mark only the nodes on a path from ``root`` to ``output_edges`` as needed.

    Used by ``autograd.grad`` and ``backward(inputs=...)`` (engine.cpp: GraphTask::init_to_execute).
    With ``accumulate_grad`` the target nodes run (they write ``.grad``); otherwise the
    gradient arriving at them is captured and returned, and they do not run.
    """
    targets = set()
    for index, (node, input_nr) in enumerate(output_edges):
        if accumulate_grad:
            targets.add(node)
        else:
            graph_task.captures.setdefault(node, []).append((input_nr, index))
    graph_task.captured_grads = [None] * len(output_edges)

    # Iterative post-order walk: a node is needed if one of its next nodes leads to a target.
    # It replaces this recursion (engine.cpp shows the same pseudocode above its loop):
    #
    #     def visit(node):                  # does node lead to a target?
    #         if node not in leads_to_target:
    #             needed = node in targets
    #             for child, _ in node.next_functions:
    #                 if child is not None and visit(child):
    #                     needed = True
    #             graph_task.exec_info[node] = needed
    #             leads_to_target[node] = needed or node in graph_task.captures
    #         return leads_to_target[node]
    leads_to_target = {}
    stack = [(root, iter(root.next_functions))]
    visited = {root}
    while stack:
        node, children = stack[-1]
        child = next(children, None)
        if child is not None:
            if child[0] is not None and child[0] not in visited:
                visited.add(child[0])
                stack.append((child[0], iter(child[0].next_functions)))
            continue
        stack.pop()
        needed = node in targets or any(
            leads_to_target.get(n, False) for n, _ in node.next_functions if n is not None)
        graph_task.exec_info[node] = needed
        leads_to_target[node] = needed or node in graph_task.captures


def execute(root_edges, root_grads, keep_graph, create_graph, output_edges=(), accumulate_grad=True,
            tracer=None):
    """Run one backward pass (engine.cpp: Engine::execute)."""
    graph_task = GraphTask(keep_graph, create_graph)
    graph_task.tracer = tracer
    root_grads = validate_outputs(root_edges, root_grads)      # the starting gradients, checked too
    # A single root is run directly; several share a GraphRoot in front of them.
    if len(root_edges) == 1:
        root = root_edges[0][0]
        root_buffer = InputBuffer(root.num_inputs)
        root_buffer.add(root_edges[0][1], root_grads[0])
    else:
        root = GraphRoot(root_edges, root_grads)
        root_buffer = InputBuffer(0)

    compute_dependencies(root, graph_task)
    if output_edges:
        init_to_execute(root, graph_task, output_edges, accumulate_grad)

    ready_queue = ReadyQueue()
    ready_queue.push(root, root_buffer)
    previous_mode = grad_mode.is_grad_enabled()
    grad_mode._set_grad_enabled(create_graph)   # backward formulas are recorded only for create_graph
    outer_task, current_graph_task.task = current_graph_task.task, graph_task   # graph_task.h: GraphTaskGuard
    try:
        with np.errstate(all="ignore"):         # as in PyTorch: inf and nan appear without warnings
            while ready_queue:
                node, input_buffer = ready_queue.pop()
                if tracer is not None:
                    tracer.on_execute(node, input_buffer, graph_task, ready_queue)
                evaluate_function(graph_task, node, input_buffer.buffer, ready_queue)
    finally:
        grad_mode._set_grad_enabled(previous_mode)
        current_graph_task.task = outer_task
    if tracer is not None:
        tracer.on_finish(graph_task)
    return graph_task.captured_grads


def evaluate_function(graph_task, node, inputs, ready_queue):
    """Run one node, free what it saved, hand its gradients on (engine.cpp: Engine::evaluate_function).

    Unless ``retain_graph``, the node's saved tensors are released right after ``call_function``
    returns: after its hooks, its formula, ``validate_outputs`` and its post-hooks.
    """
    if graph_task.exec_info and not run_or_capture(graph_task, node, inputs):
        return

    outputs = call_function(graph_task, node, inputs)
    if not graph_task.keep_graph:
        node.release_variables()     # after the node's hooks and checks, as in engine.cpp
    if graph_task.tracer is not None:
        graph_task.tracer.on_outputs(node, outputs, graph_task)

    dependencies = graph_task.dependencies
    not_ready = graph_task.not_ready
    for (next_node, input_nr), grad in zip(node.next_functions, outputs, strict=False):
        if next_node is None:
            continue
        remaining = dependencies[next_node] - 1       # one delivery fewer to wait for
        if remaining == 0:
            del dependencies[next_node]
        else:
            dependencies[next_node] = remaining
        buffer = not_ready.pop(next_node, None)        # the gradients it has received so far, if any
        if buffer is None:
            if graph_task.exec_info and not graph_task.should_execute(next_node):
                continue                               # autograd.grad: this node is not needed
            buffer = InputBuffer(next_node.num_inputs)
        buffer.add(input_nr, grad)
        if remaining == 0:
            ready_queue.push(next_node, buffer)        # all its gradients are in: it can run
        else:
            not_ready[next_node] = buffer


def run_or_capture(graph_task, node, inputs):
    """Under ``autograd.grad``: capture the gradients wanted at ``node``; say whether it must run."""
    needed = graph_task.exec_info.get(node, False)
    if not needed:
        inputs = call_tensor_pre_hooks(node, inputs)   # a captured gradient passes the tensor's hooks
    for input_nr, index in graph_task.captures.get(node, ()):
        graph_task.captured_grads[index] = inputs[input_nr]
    return needed


def call_tensor_pre_hooks(node, inputs):
    """Hooks from ``tensor.register_hook``, then the ``retain_grad`` ones (engine.cpp)."""
    hooks = node.tensor_pre_hooks()
    if not hooks and not node._retains_grad_hooks:
        return inputs
    inputs = list(inputs)
    for output_nr, hook in hooks:
        result = hook(inputs[output_nr])
        if result is not None and result is not inputs[output_nr]:
            check_single_result(inputs[output_nr], result, hook)
            inputs[output_nr] = result
    for output_nr, hook in (node._retains_grad_hooks or {}).items():
        hook(inputs[output_nr])
    return inputs


def call_function(graph_task, node, inputs):
    """Pre-hooks, the node's own backward, checks, post-hooks (engine.cpp: call_function)."""
    inputs = call_tensor_pre_hooks(node, inputs)
    if node._pre_hooks:
        for hook in list(node._pre_hooks.values()):
            grad_outputs = tuple(inputs)
            result = hook(grad_outputs)
            if result is not None and result is not grad_outputs:
                check_result(grad_outputs, result, hook)
                inputs = list(result)

    # engine.cpp calls fn.will_release_variables() here: only a notice that the release will come.
    # The release itself is in evaluate_function, once this function has returned.
    outputs = node.apply(inputs)
    outputs = validate_outputs(node.next_functions, outputs, node)

    if node._post_hooks:
        for hook in list(node._post_hooks.values()):
            grad_inputs = tuple(outputs)
            result = hook(grad_inputs, tuple(inputs))
            if result is not None and result is not grad_inputs:
                check_result(grad_inputs, result, hook)
                outputs = list(result)
    return outputs


def check_result(previous, result, hook):
    """What a node's pre- or post-hook returned, checked against what it got (python_hook.cpp:
    check_result): a tuple of as many gradients, each allowed by ``check_single_result``."""
    if not isinstance(result, tuple):
        raise TypeError(f"expected tuple, but hook returned '{type(result).__name__}'")
    if len(result) != len(previous):
        raise RuntimeError(f"hook '{_hook_name(hook)}' has returned an incorrect number of values "
                           f"(got {len(result)}, but expected {len(previous)})")
    for original, new in zip(previous, result, strict=True):
        check_single_result(original, new, hook)


def check_single_result(original, result, hook):
    """One gradient a hook returned in place of ``original`` (python_hook.cpp: check_single_result, then
    custom_function.cpp: check_variable_result): None, or a tensor of the same dtype and shape; a gradient
    that was None stays None."""
    if result is None:
        return
    if original is None:
        raise RuntimeError("can't replace a None gradient with a non-None value")
    if not isinstance(result, Tensor):
        raise TypeError(f"expected Variable, but hook returned '{type(result).__name__}'")
    if result.dtype != original.dtype:
        raise RuntimeError(f"hook '{_hook_name(hook)}' has changed the type of value (was "
                           f"{original.dtype.legacy_name} got {result.dtype.legacy_name})")
    if result.shape != original.shape:
        raise RuntimeError(f"hook '{_hook_name(hook)}' has changed the size of value")


def _hook_name(hook):
    """python_hook.cpp: hook_name."""
    name = getattr(hook, "__name__", None)
    return name if isinstance(name, str) else "<unknown>"


def validate_outputs(edges, grads, node=None):
    """Check each gradient against the input it is for; sum away broadcast dimensions.

    engine.cpp: validate_outputs, run on each node's results (``edges`` are its
    ``next_functions``) and, by Engine::execute, on the starting gradients (``edges``
    are the roots). This is where broadcasting is undone: a gradient of shape (2, 3)
    headed for an input of shape (3,) is summed over its first dimension. A gradient
    of another dtype is cast: ``y.backward(torch.tensor([2, 1, -1]))`` on a float32
    ``y`` starts from the float32 ``[2., 1., -1.]``.
    """
    if len(grads) != len(edges):
        raise RuntimeError(f"invalid number of gradients - expected {len(edges)}, but got {len(grads)}")
    grads = list(grads)
    for i, (next_node, input_nr) in enumerate(edges):
        grad = grads[i]
        if next_node is None or grad is None:
            continue
        shape, dtype = next_node._input_metadata[input_nr]
        if grad._data.shape != shape:
            if not _is_expandable_to(shape, grad._data.shape):
                returned = f"Function {node.name()} returned an " if node is not None else ""
                raise RuntimeError(
                    f"{returned}invalid gradient at index {i} - got "
                    f"{list(grad._data.shape)} but expected shape compatible with {list(shape)}")
            grads[i] = grad = sum_to(grad, shape)
        if grad._data.dtype != dtype:
            grads[i] = grad.to(_dtype_of(dtype))
    return grads


def _is_expandable_to(shape, desired):
    if len(shape) > len(desired):
        return False
    # compared from the right; desired may have more (leading) dimensions
    return all(size in (target, 1) for size, target in zip(reversed(shape), reversed(desired), strict=False))


def sum_to(grad, shape):
    """Sum ``grad`` down to ``shape``: the gradient of broadcasting (ExpandUtils.h: sum_to)."""
    if not shape:
        return grad.sum()                # a 0-d target: one sum of everything, as in PyTorch
    leading = grad.ndim - len(shape)
    dims = tuple(range(leading)) + tuple(
        leading + i for i, size in enumerate(shape) if size == 1 and grad.shape[leading + i] != 1)
    if dims:
        grad = grad.sum(dims, keepdim=True)
    if leading:
        grad = grad.view(shape)          # the sum is a fresh contiguous tensor: a view, as in PyTorch
    return grad


def _dtype_of(np_dtype):
    from .._dtype import from_numpy_dtype
    return from_numpy_dtype(np_dtype)


def run_backward(tensors, grad_tensors, keep_graph, create_graph, inputs=(), allow_unused=True,
                 accumulate_grad=True, tracer=None):
    """From tensors to graph edges, then ``execute`` (python_engine.cpp: THPEngine_run_backward).

    ``accumulate_grad=True`` is ``backward()``: leaves' ``.grad`` are written.
    ``accumulate_grad=False`` is ``autograd.grad()``: the gradients of ``inputs`` are returned.
    """
    from .graph import gradient_edge
    root_edges = []
    for i, tensor in enumerate(tensors):
        edge = gradient_edge(tensor)
        if edge[0] is None:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")
        root_edges.append(edge)

    output_edges = []
    for tensor in inputs:
        if not tensor.requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
        if accumulate_grad:
            tensor.retain_grad()   # backward(inputs=[non_leaf]) fills its .grad (python_engine.cpp)
        output_edges.append(gradient_edge(tensor))

    captured = execute_reentrant_aware(root_edges, list(grad_tensors), keep_graph, create_graph, output_edges,
                                       accumulate_grad, tracer)
    if not accumulate_grad and not allow_unused:
        for i, grad in enumerate(captured):
            if grad is None:
                raise RuntimeError(
                    f"The differentiated Tensor at index {i} appears to not have been used in the "
                    "graph. Set allow_unused=True if this is the desired behavior.")
    return captured


# engine.h: MAX_DEPTH. A backward started inside a backward (a reentrant one: a custom Function's backward
# that calls autograd.grad or backward, or checkpoint(use_reentrant=True)) runs on the thread that asked
# for it, nested in that thread's work, up to MAX_DEPTH levels in one thread; the next level goes to
# another thread, which again nests up to MAX_DEPTH levels (engine.cpp: Engine::execute_with_graph_task).
MAX_DEPTH = 60


class _WorkerState(threading.local):
    """Per thread, as engine.cpp's thread_local ``current_depth``: how many reentrant backwards are nested
    in this thread, and whether a backward is running in it at all."""
    current_depth = 0
    in_backward = False
    tracer = None   # the tracer of the backward running in this thread, if any (for mini_autograd.viz)


_worker = _WorkerState()


def execute_reentrant_aware(*args):
    """``execute(*args)``, here or, past MAX_DEPTH nested levels, in a new thread.

    Outside any backward, or inside one with fewer than MAX_DEPTH levels nested in this thread, it runs
    here (one level deeper); otherwise in a new thread (PyTorch's thread pool), which this one waits for.
    """
    if not _worker.in_backward:
        _worker.in_backward = True
        try:
            return _execute_here(args)
        finally:
            _worker.in_backward = False
    if _worker.current_depth >= MAX_DEPTH:
        return _execute_in_new_thread(args)
    _worker.current_depth += 1
    try:
        return _execute_here(args)
    finally:
        _worker.current_depth -= 1


def _execute_here(args):
    """``execute(*args)`` in this thread, whose tracer it is while it runs: a backward started inside it (a
    reentrant one) is reported to the same tracer, when it has none of its own (for mini_autograd.viz)."""
    *rest, tracer = args
    if tracer is None:
        tracer = _worker.tracer              # None, unless a traced backward runs in this thread
    outer_tracer, _worker.tracer = _worker.tracer, tracer
    try:
        return execute(*rest, tracer)
    finally:
        _worker.tracer = outer_tracer


def _execute_in_new_thread(args):
    """``execute(*args)`` in a thread of its own, with this thread's grad mode and saved tensors hooks
    (PyTorch's pool thread runs the graph task under the thread-local state it was made with); an error
    is raised again here, in the thread that waits."""
    from . import graph
    grad_enabled = grad_mode.is_grad_enabled()
    hooks, disabled = list(graph._hooks_stack.items), list(graph._hooks_disabled.items)
    result = {}

    def run():
        grad_mode._set_grad_enabled(grad_enabled)
        graph._hooks_stack.items[:] = hooks
        graph._hooks_disabled.items[:] = disabled
        _worker.in_backward = True
        try:
            result["value"] = execute(*args)
        except BaseException as error:
            result["error"] = error

    worker = threading.Thread(target=run, name="mini_autograd reentrant backward")
    worker.start()
    worker.join()
    if "error" in result:
        raise result["error"]
    return result["value"]
