"""引擎：从一个张量出发，沿反向计算图一直运行到叶子张量。

PyTorch 中对应的文件：torch/csrc/autograd/engine.cpp。第一个引擎（步骤 03.2）按拓扑序访问各个节点；
第 08 章把它换成 PyTorch
自己的方案：依赖计数和就绪队列（步骤 08.2）。
"""
import heapq
import itertools

from . import grad_mode
from .function import gradient_edge


def sum_to(grad, shape):
    """（已给出）把 ``grad`` 求和成 ``shape`` 的形状：广播在反向传播中就是这样处理的。

    PyTorch 中对应 at::sum_to，出处：ATen/ExpandUtils.h、engine.cpp。如果输入的形状是 (3,)，
    形状为 (2, 3) 的梯度就沿第一维求
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
    """步骤 03.2：从 ``root`` 能到达的每个节点，每个都排在它要传梯度给的那些节点之前。

    PyTorch 并不保存这样一个列表（第 08 章会讲它的做法），而这第一个引擎需要它。沿着
    ``next_functions``（跳过 ``None``）做深度优先遍历，一个节点要等它下面的所有节点都列出之后才列
    出；最后把这个列表反转再返回，让 ``root`` 排在最前。请用循环和你自己的栈（一个 Python 列表）：
    递归函数在 10,000 个运算组成的链上会失败。
    """
    raise NotImplementedError("Step 03.2: topological_order")


def compute_dependencies(root):
    """步骤 08.1：``root`` 下面的每个节点，各会收到多少份梯度。

    PyTorch 中对应 compute_dependencies，出处：engine.cpp。从 ``root`` 出发沿着 ``next_functions``
    遍历计算图，每个节点只访问一次，并统计指向每个节点的*边*有几条：例如 ``y * y`` 中，y
    的节点有两条。返回 ``{node: count}``；根节点本身没有边指向它，可以不在其中。和步骤 03.2 一样，
    用循环加一个当作栈的列表。
    """
    raise NotImplementedError("Step 08.1: compute_dependencies")


def run_backward(tensor, gradient, retain_graph=False):
    """步骤 03.2，之后是 07.2 和 08.2：把 ``gradient``（d out / d tensor）沿计算图往回传。

    PyTorch 中对应 Engine::execute，出处：engine.cpp。从 ``gradient_edge(tensor)`` 的节点出发；用一个字典
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
    raise NotImplementedError("Step 03.2: run_backward")
