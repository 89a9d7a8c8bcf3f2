"""The engine: runs the backward graph from a tensor down to the leaves.

PyTorch counterpart: torch/csrc/autograd/engine.cpp. The first engine (step
03.2) visits the nodes in topological order; chapter 08 replaces it with
PyTorch's own scheme: dependency counts and a ready queue (step 08.2).

中文：引擎：从一个张量出发，沿反向计算图一直运行到叶子张量。

PyTorch 中对应的文件见上文。第一个引擎（步骤 03.2）按拓扑序访问各个节点；第 08 章把它换成 PyTorch
自己的方案：依赖计数和就绪队列（步骤 08.2）。
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

    中文：（已给出）把 ``grad`` 求和成 ``shape`` 的形状：广播在反向传播中就是这样处理的。

    PyTorch 中对应 at::sum_to，出处见上文。如果输入的形状是 (3,)，形状为 (2, 3) 的梯度就沿第一维求
    和；如果输入的形状是 (2, 1)，梯度就沿第二维求和，并保留这一维。
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

    中文：步骤 03.2：从 ``root`` 能到达的每个节点，每个都排在它要传梯度给的那些节点之前。

    PyTorch 并不保存这样一个列表（第 08 章会讲它的做法），而这第一个引擎需要它。沿着
    ``next_functions``（跳过 ``None``）做深度优先遍历，一个节点要等它下面的所有节点都列出之后才列
    出；最后把这个列表反转再返回，让 ``root`` 排在最前。请用循环和你自己的栈（一个 Python 列表）：
    递归函数在 10,000 个运算组成的链上会失败。
    """
    ### BEGIN SOLUTION
    order, visited = [], set()
    stack = [(root, False)]
    while stack:
        node, children_listed = stack.pop()
        if children_listed:                        # everything below it is listed: list it
            order.append(node)
            continue
        if node in visited:
            continue
        visited.add(node)
        stack.append((node, True))
        for next_node, _ in node.next_functions:
            if next_node is not None and next_node not in visited:
                stack.append((next_node, False))
    return order[::-1]
    ### END SOLUTION


def compute_dependencies(root):
    """Step 08.1: for every node below ``root``, how many gradients it will receive.

    PyTorch: compute_dependencies (engine.cpp). Walk the graph from ``root`` along
    ``next_functions``, visiting each node once, and count the *edges* that point
    at each node: ``y * y`` gives y's node two. Return ``{node: count}``; the root
    itself, which nothing points at, need not be in it. Use a loop and a list as
    the stack, as in step 03.2.

    中文：步骤 08.1：``root`` 下面的每个节点，各会收到多少份梯度。

    PyTorch 中对应 compute_dependencies，出处见上文。从 ``root`` 出发沿着 ``next_functions``
    遍历计算图，每个节点只访问一次，并统计指向每个节点的*边*有几条：例如 ``y * y`` 中，y
    的节点有两条。返回 ``{node: count}``；根节点本身没有边指向它，可以不在其中。和步骤 03.2 一样，
    用循环加一个当作栈的列表。
    """
    ### BEGIN SOLUTION
    dependencies, seen, stack = {}, {root}, [root]
    while stack:
        node = stack.pop()
        for next_node, _ in node.next_functions:
            if next_node is None:
                continue
            dependencies[next_node] = dependencies.get(next_node, 0) + 1
            if next_node not in seen:
                seen.add(next_node)
                stack.append(next_node)
    return dependencies
    ### END SOLUTION


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

    中文：步骤 03.2，之后是 07.2 和 08.2：把 ``gradient``（d out / d tensor）沿计算图往回传。

    PyTorch 中对应 Engine::execute，出处见上文。从 ``gradient_edge(tensor)`` 的节点出发；用一个字典
    ``{node: 到达该节点的梯度}`` 记账。按拓扑序，对每个节点：
    1. 取出它的梯度（如果没有任何梯度到达这个节点，因为它上面的每个 backward 都给它返回了 None，
       它就没有东西可往下传：跳过它），再让梯度依次经过 ``node.pre_hooks`` 中的每个钩子（钩子返回的
       不是 None 时，用返回值替换梯度）；
    2. 调用 ``node.apply(grad)``：``node.next_functions`` 中的每条边各得到一个梯度；
    3. 对每条边 ``(next_node, _)``，只要边上有节点、梯度也不是 None：先用 ``sum_to`` 求和成该输入的
       形状（``node.input_shapes[i]``），再把它*加到* ``next_node`` 已经收到的梯度上：路径可能交汇。
    运行这些公式时要关闭记录（把 ``grad_mode._state.grad_enabled`` 设为 False，并在 ``finally``
    中恢复原来的值）：梯度不属于任何计算图。

    步骤 07.2（第 07 章）：节点运行完之后，释放它保存的东西，即调用 ``node.release_saved()``，除非
    ``retain_graph``。

    步骤 08.2（第 08 章）：用 PyTorch 的顺序代替拓扑序列表。先统计依赖（步骤 08.1）。梯度字典变成*输
    入缓冲区*。一个节点的计数降到 0 时，它就*就绪*了：把它压入就绪队列。这个队列是一个堆
    （``heapq``），元素为 ``(-node.sequence_nr, arrival number, node)``，这样最新的节点最先运行
    （heapq 弹出最小的元素；节点之间无法比较，所以由到达序号决定并列者的先后；这条规则是
    mini_autograd 的，不是 PyTorch 的，PyTorch 的堆对并列者不保证任何顺序）。弹出、运行、
    把梯度往下传，直到队列为空。每条边都要计数，梯度为 None 的边也不例外：一个节点的计数降到 0 时，
    即使缓冲区里什么也没有（到达的只有 None），它也同样就绪，轮到它时把 None 往下传，好让它下面的节
    点的计数继续下降（PyTorch 会用未定义的梯度运行它）。它的前置钩子照样运行，每个都以 None 调用
    （PyTorch 的钩子收到 ``(None,)``）；哪个钩子为它返回了梯度，就抛出 PyTorch 的
    ``RuntimeError: can't replace a None gradient with a non-None value``。然后它读回保存的东西，即
    调用 ``node.unpack_saved()``（已给出）：PyTorch 的节点在做任何事之前都会先解包保存的张量，所以计
    算图已经释放、或者保存的张量被原地修改过时，在这里同样会报错。
    """
    ### BEGIN SOLUTION
    root, _ = gradient_edge(tensor)
    dependencies = compute_dependencies(root)
    buffers = {root: gradient}                         # PyTorch's InputBuffer, one per node
    arrivals = itertools.count()
    ready = [(-root.sequence_nr, next(arrivals), root)]
    previous = grad_mode._state.grad_enabled
    grad_mode._state.grad_enabled = False
    try:
        while ready:
            _, _, node = heapq.heappop(ready)
            grad = buffers.pop(node, None)
            for hook in node.pre_hooks:
                new_grad = hook(grad)
                if new_grad is not None:
                    if grad is None:
                        raise RuntimeError("can't replace a None gradient with a non-None value")
                    grad = new_grad
            if grad is None:                           # only None arrived: nothing to pass on,
                node.unpack_saved()                    # but what it saved is read back, and checked
                next_grads = (None,) * len(node.next_functions)
            else:
                next_grads = node.apply(grad)
            if not retain_graph:
                node.release_saved()
            for i, ((next_node, _), next_grad) in enumerate(
                    zip(node.next_functions, next_grads, strict=True)):
                if next_node is None:
                    continue
                if next_grad is not None:
                    next_grad = sum_to(next_grad, node.input_shapes[i])
                    buffers[next_node] = next_grad + buffers[next_node] if next_node in buffers else next_grad
                dependencies[next_node] -= 1
                if dependencies[next_node] == 0:
                    heapq.heappush(ready, (-next_node.sequence_nr, next(arrivals), next_node))
    finally:
        grad_mode._state.grad_enabled = previous
    ### END SOLUTION
