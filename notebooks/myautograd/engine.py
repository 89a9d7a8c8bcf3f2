"""The engine: runs the backward graph from a tensor down to the leaves.

PyTorch counterpart: torch/csrc/autograd/engine.cpp. The first engine (step
03.2) visits the nodes in topological order; chapter 08 replaces it with
PyTorch's own scheme: dependency counts and a ready queue (step 08.2).
"""
import heapq
import itertools

from . import grad_mode
from .function import gradient_edge


def sum_to(grad, shape):
    """(given) Sum ``grad`` down to ``shape``: the gradient of broadcasting.

    PyTorch: at::sum_to (ATen/ExpandUtils.h), reached from engine.cpp's validate_outputs.
    A gradient of shape (2, 3) for an input of shape (3,) is summed over its first
    dimension; one for shape (2, 1) is summed over its second, keeping it.
    """
    from .tensor import Tensor
    data = grad._data
    while data.ndim > len(shape):
        data = data.sum(axis=0)
    for axis, size in enumerate(shape):
        if size == 1 and data.shape[axis] != 1:
            data = data.sum(axis=axis, keepdims=True)
    return grad if data is grad._data else Tensor(data)


def topological_order(root):
    """Step 03.2: every node reachable from ``root``, each before the nodes it sends gradients to.

    PyTorch keeps no such list (chapter 08 shows what it does instead); this
    first engine does. Follow ``next_functions`` (skip ``None``) depth first and
    list a node only after everything below it; return that list reversed, so
    ``root`` comes first. Use a loop with your own stack (a Python list): a
    recursive function fails on a chain of 10,000 operations.
    """
    raise NotImplementedError("Step 03.2: topological_order")


def compute_dependencies(root):
    """Step 08.1: for every node below ``root``, how many gradients it will receive.

    PyTorch: compute_dependencies (engine.cpp). Walk the graph from ``root`` along
    ``next_functions``, visiting each node once, and count the *edges* that point
    at each node: ``y * y`` gives y's node two. Return ``{node: count}``; the root
    itself, which nothing points at, need not be in it. Use a loop and a list as
    the stack, as in step 03.2.
    """
    raise NotImplementedError("Step 08.1: compute_dependencies")


def run_backward(tensor, gradient, retain_graph=False):
    """Step 03.2, then 07.2 and 08.2: send ``gradient`` (d out / d tensor) back through the graph.

    PyTorch: Engine::execute (engine.cpp). Start at ``gradient_edge(tensor)``'s
    node; keep a dict ``{node: gradient arriving there}``. For each node in
    topological order:
    1. take its gradient (a node that no gradient reached, because every backward
       above it returned None for it, has nothing to pass on: skip it), pass it
       through each hook in ``node.pre_hooks`` (a hook returning something other
       than None replaces it);
    2. ``node.apply(grad)``: one gradient per edge in ``node.next_functions``;
    3. for each edge ``(next_node, _)`` with a node and a gradient that is not
       None: ``sum_to`` the input's shape (``node.input_shapes[i]``), then *add*
       it to what ``next_node`` has already received: paths can meet.
    Run the formulas with recording off (set ``grad_mode._state.grad_enabled``
    to False, and put the old value back in a ``finally``): a gradient is not
    part of any graph.

    Step 07.2 (chapter 07): after a node has run, free what it saved,
    ``node.release_saved()``, unless ``retain_graph``.

    Step 08.2 (chapter 08): PyTorch's order instead of a topological list. Count
    dependencies first (step 08.1). The dict of gradients becomes the *input
    buffers*. A node is *ready* when its count reaches 0: push it on a ready queue,
    a heap (``heapq``) of ``(-node.sequence_nr, arrival number, node)``, so the
    newest node runs first (heapq pops the smallest; the arrival number breaks
    ties, since nodes cannot be compared; that tie rule is mini_autograd's, not
    PyTorch's, whose heap keeps no order among ties). Pop, run, pass gradients
    on, until the queue is empty. Every edge counts, also one whose gradient is
    None: a node whose count reaches 0 with nothing in its buffer (only None
    arrived) is ready too, and takes its turn passing None on, so that the
    counts below it still go down (PyTorch runs it with undefined gradients).
    Its pre-hooks run too, each called with None (PyTorch's get ``(None,)``);
    one that returns a gradient for it raises PyTorch's ``RuntimeError: can't
    replace a None gradient with a non-None value``. Then it reads back what it
    saved, ``node.unpack_saved()`` (given): PyTorch's nodes unpack their saved
    tensors before anything else, so a graph already freed, or a saved tensor
    changed in place, raises there too.
    """
    raise NotImplementedError("Step 03.2: run_backward")
