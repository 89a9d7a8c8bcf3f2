"""The engine: runs the backward graph from a tensor down to the leaves.

PyTorch counterpart: torch/csrc/autograd/engine.cpp. This first engine visits
the nodes in topological order; chapter 08 replaces it with PyTorch's own
scheme (dependency counts and a ready queue).
"""
from . import grad_mode
from .function import gradient_edge


def sum_to(grad, shape):
    """(given) Sum ``grad`` down to ``shape``: the gradient of broadcasting.

    PyTorch: at::sum_to (ATen/ExpandUtils.h), called in engine.cpp's validate_outputs.
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


def run_backward(tensor, gradient):
    """Step 03.2: send ``gradient`` (d out / d tensor) back through the graph to the leaves.

    PyTorch: Engine::execute (engine.cpp). Start at ``gradient_edge(tensor)``'s
    node; keep a dict ``{node: gradient arriving there}``. For each node in
    topological order:
    1. take its gradient, pass it through each hook in ``node.pre_hooks``
       (a hook returning something other than None replaces it);
    2. ``node.apply(grad)``: one gradient per edge in ``node.next_functions``;
    3. for each edge ``(next_node, _)`` with a node and a gradient that is not
       None: ``sum_to`` the input's shape (``node.input_shapes[i]``), then *add*
       it to what ``next_node`` has already received: paths can meet.
    Run the formulas with recording off (set ``grad_mode._state.grad_enabled``
    to False, and put the old value back in a ``finally``): a gradient is not
    part of any graph.
    """
    raise NotImplementedError("Step 03.2: run_backward")
