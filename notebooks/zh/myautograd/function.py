"""节点、边和 Function.apply：计算图就是在这里记录下来的。

PyTorch 中对应的各个文件：torch/csrc/autograd/node.h、torch/csrc/autograd/functions/utils.h、
torch/csrc/autograd/functions/accumulate_grad.h、torch/csrc/autograd/variable.h、
torch/autograd/function.py。
"""
import itertools
import re
import threading
import weakref

from .grad_mode import is_grad_enabled, set_grad_enabled
from .tensor import Tensor


def compute_requires_grad(*inputs):
    """步骤 01.2：对 ``inputs`` 做一次运算，结果需要梯度吗？

    PyTorch 中对应 compute_requires_grad，出处：torch/csrc/autograd/functions/utils.h。
    当记录开启（``is_grad_enabled()``），
    并且至少有一个输入是需要梯度的 Tensor 时，返回 True。输入也可能是普通的数：它们永远不需要梯度。
    """
    raise NotImplementedError("Step 01.2: compute_requires_grad")


class _SequenceNumbers(threading.local):
    """（已给出）每个线程一个计数器，和 PyTorch 的 at::sequence_number 一样。"""

    def __init__(self):
        self.counter = itertools.count()


_sequence_numbers = _SequenceNumbers()


SECOND_BACKWARD_ERROR = (
    "Trying to backward through the graph a second time (or directly access saved tensors after they "
    "have already been freed). Saved intermediate values of the graph are freed when you call .backward() "
    "or autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second "
    "time or if you need to access saved tensors after calling backward.")


def modified_error(tensor, saved_version):
    """（已给出）保存的张量在保存之后被原地修改时，PyTorch 给出的那段报错文字。"""
    # （PyTorch 写出运算的名字：ExpBackward0 写作 Exp，SigmoidBackward 写作 Sigmoid）
    made_by = ("" if tensor.grad_fn is None
               else f", which is output 0 of {re.sub(r'Backward[0-9]*$', '', tensor.grad_fn.name())},")
    return ("one of the variables needed for gradient computation has been modified by an inplace operation: "
            f"[{tensor.dtype.legacy_name} {list(tensor.shape)}]{made_by} is at version {tensor._version}; "
            f"expected version {saved_version} instead. Hint: enable anomaly detection to find the "
            "operation that failed to compute its gradient, with "
            "torch.autograd.set_detect_anomaly(True, check_nan=False).")


class Node:
    """（已给出）反向计算图中的一步。PyTorch 中对应 struct Node，出处：node.h。

    ``next_functions``：前向运算的每个输入对应一条 ``(node, input_nr)`` 边，不需要梯度的输入对应
    ``(None, 0)``。``pre_hooks``：引擎会拿到达这里的梯度去调用的那些函数。``sequence_nr``：
    节点被创建的先后顺序（第 08 章的引擎会用到它）。
    """

    def __init__(self):
        self.next_functions = ()
        self.pre_hooks = []
        self.sequence_nr = next(_sequence_numbers.counter)

    def name(self):
        return type(self).__name__

    def __repr__(self):
        # PyTorch 打印名字时不带 C++ 命名空间：<AccumulateGrad object at 0x...>
        return f"<{self.name().rsplit('::', 1)[-1]} object at {id(self):#x}>"

    def apply(self, grad):
        """给定输出的梯度，返回前向运算各个输入的梯度。"""
        raise NotImplementedError

    def release_saved(self):
        """释放为反向传播保存的东西；大多数节点什么也不保存。"""

    def unpack_saved(self):
        """读回为反向传播保存的东西，并检查它：PyTorch 的节点一运行就先做这件事，即使没有任何梯度到达它
        （SavedVariable::unpack）。大多数节点什么也不保存。
        """


class AccumulateGrad(Node):
    """叶子张量上的那个节点：到达这里的梯度会被加进 ``leaf.grad``。

    PyTorch 中对应的文件：torch/csrc/autograd/functions/accumulate_grad.h。
    """

    def __init__(self, variable):
        super().__init__()
        self.variable = variable           # 叶子张量
        self.sequence_nr = 2**64 - 1       # 一就绪就立即运行（PyTorch：UINT64_MAX）

    def name(self):
        return "torch::autograd::AccumulateGrad"

    def apply(self, grad):
        """步骤 03.2，之后是 05.1：把 ``grad`` 放进叶子张量的 ``.grad``。

        PyTorch 中对应 AccumulateGrad::apply，出处：functions/accumulate_grad.h。
        接收到达叶子张量（``self.variable``）
        的梯度；返回 ``()``，因为叶子张量不再往下传任何东西。调用之后：
        - 步骤 03.2：原本没有梯度的叶子张量，得到一个等于 ``grad`` 的梯度，放在一个只属于它的张量
          里：引擎可能把同一个梯度张量也交给另一个输入，所以叶子张量不能和别人共用它。
        - 步骤 05.1（第 05 章）：原本已有梯度的叶子张量，得到旧梯度与 ``grad`` 之和，而且它的
          ``.grad`` 仍是原来那个张量对象（原地修改，而不是替换）。原地相加也是对梯度张量的一次修改：
          它的 ``_version`` 要加一，就像 PyTorch 的 ``variable_grad += new_grad`` 会让版本计数器加一。
        - 同样在步骤 05.1：梯度按叶子张量的 dtype 保存（PyTorch 的引擎会把每个梯度转换成对应输入的
          dtype：float32 的叶子乘上 float64 的张量，得到的 ``.grad`` 是 float32），而记录计算图之后
          才关掉 ``requires_grad`` 的叶子（``x.requires_grad_(False)``）什么也得不到，和 PyTorch
          一样：它的 AccumulateGrad 会直接返回。
        """
        raise NotImplementedError("Step 03.2: AccumulateGrad.apply")


def gradient_edge(tensor):
    """步骤 02.1，之后是 04.1：``tensor`` 的梯度要走的那条边。

    PyTorch 中对应 impl::gradient_edge，出处：torch/csrc/autograd/variable.h。
    - 由运算产生的张量：``(tensor.grad_fn, 0)``；
    - 需要梯度的叶子张量：``(它的 AccumulateGrad 节点, 0)``；
    - 其他情况：``(None, 0)``：不会有梯度传到那里。
    步骤 04.1（第 04 章）：一个叶子张量只有*一个* AccumulateGrad，不管它被用了多少次。
    把它存在张量上，即 ``tensor._grad_accumulator``，并且只弱引用它（用一个 ``weakref.ref``）：
    节点握着叶子张量，所以叶子张量不能让节点一直活着。PyTorch 的 AutogradMeta 也是这样做的，用的是
    ``c10::weak_intrusive_ptr<Node> grad_accumulator_``（出处：torch/csrc/autograd/variable.h）。
    只有在还没有一个活着的节点
    时，才新建一个。
    """
    raise NotImplementedError("Step 02.1: gradient_edge")


class BackwardFunction(Node):
    """（已给出）``Function.apply`` 记录下来的节点；它同时也是 forward 和 backward 的 ``ctx``。

    PyTorch 中对应 BackwardCFunction，出处：torch/autograd/function.py。和 PyTorch 一样，
    它的名字就是 Function 的
    ``node_name``（如 ``MulBackward0``）。
    """

    def __init__(self, function):
        super().__init__()
        self.function = function            # Function 类：Mul、Exp……
        self.saved = ()

    def save_for_backward(self, *tensors):
        """步骤 07.1：为 backward 留住这些张量，每个都连同它此刻的版本一起保存。

        PyTorch 中对应 ctx.save_for_backward，存成会记住张量版本的 SavedVariable（出处：
        saved_variable.h）。在
        ``self.saved`` 中保存 ``(tensor, tensor._version)`` 这样的二元组。PyTorch 也接受用 None 占
        一个张量的位置（Function 可能要保存一个可选的输入），取出时还给 None：保存 ``(None, None)``。
        """
        self.saved = tensors

    @property
    def saved_tensors(self):
        """步骤 07.1：forward 保存的东西，顺序不变，每个都先检查一遍。

        PyTorch：SavedVariable::unpack。反向传播释放了它们之后（步骤 07.2 会设置
        ``self.saved = None``），抛出 ``RuntimeError(SECOND_BACKWARD_ERROR)``。如果张量的
        ``_version`` 在保存之后变了，说明它被原地修改过：抛出
        ``RuntimeError(modified_error(tensor, saved_version))``。
        """
        return self.saved

    def release_saved(self):
        """（已给出）释放 forward 保存的东西：引擎在节点运行之后调用它（步骤 07.2）。"""
        if self.saved:                      # （什么也没保存的节点，既没有可释放的，也不会缺什么）
            self.saved = None

    def unpack_saved(self):
        """（已给出）forward 保存的东西，经过检查（``saved_tensors``）：对于只收到 None 的节点，引擎
        也会读取它，因为 PyTorch 的节点在做任何事之前都会先解包它们保存的张量（步骤 08.2）。
        """
        return self.saved_tensors

    def name(self):
        return self.function.node_name or f"{self.function.__name__}Backward"

    def apply(self, grad):
        grads = self.function.backward(self, grad)
        grads = grads if isinstance(grads, tuple) else (grads,)
        expected = len(self.next_functions)
        if len(grads) > expected and all(g is None for g in grads[expected:]):
            grads = grads[:expected]            # 多出来的 None 是允许的，和 PyTorch 一样（出处见上）
        if len(grads) != expected:
            raise RuntimeError(f"function {self.name()} returned an incorrect number of gradients "
                               f"(expected {expected}, got {len(grads)})")
        return grads


class Function:
    """所有可微运算的基类。PyTorch：torch.autograd.Function。

    子类定义 ``forward(ctx, *inputs)``（由 numpy 完成计算）和 ``backward(ctx, grad)``，调用方式是
    ``Mul.apply(a, b)``。``backward`` 按顺序为每个 Tensor 输入返回一个梯度（有多个时返回元组）。
    PyTorch 自己的 Function 还要求每个非 Tensor 输入对应一个 None。
    """

    node_name = None                          # 例如 "MulBackward0"，和 PyTorch 给节点起的名字一样

    @staticmethod
    def forward(ctx, *inputs):
        raise NotImplementedError

    @staticmethod
    def backward(ctx, grad):
        raise NotImplementedError

    @classmethod
    def apply(cls, *inputs):
        """步骤 02.2：运行 forward，结果需要梯度时记录一个节点。

        PyTorch 中对应 Function.apply，出处：torch/autograd/function.py、python_function.cpp。
        参数是运算的输入：Tensor，以及普通的值（比如一个
        指数）。返回 ``cls.forward`` 返回的东西，并在它上面记录好计算图：
        - ``forward`` 收到的 ``ctx`` 就是这次运算的节点（一个 ``cls`` 的 ``BackwardFunction``），
          所以 forward 存放在 ctx 上的东西，backward 都能拿到；
        - 如果按你在步骤 01.2 中写的规则，结果需要梯度：这个节点就是结果的 ``grad_fn``，结果的
          ``requires_grad`` 为 True；节点按输入顺序为每个 Tensor 输入连一条边（步骤 02.1），
          并记住每个 Tensor 输入的形状（``input_shapes``：引擎靠它们撤销广播，步骤 03.2）；
        - 否则结果没有 ``grad_fn``，也不需要梯度（即使 forward 用 ``requires_grad=True`` 创建了它：
          PyTorch 会把它分离出来）。普通的值永远不会得到边。
        对于在 forward 里用 Tensor 运算的 Function（步骤 11.2），PyTorch 还做两件事：
        - forward 在关闭记录的状态下运行（用已给出的 ``set_grad_enabled(False)``，并在 ``finally``
          中恢复原来的模式）：forward 算了什么都不记录，只记录 ``cls`` 这一个节点；
        - forward 原样返回某个输入时，返回的是一个与该输入共用数值（``Tensor(result._data)``）和
          版本计数器（``_version_counter``：PyTorch 会建一个视图）的新 Tensor，节点挂在它上面：输入本身
          保持原样（叶子仍是叶子）。
        """
        raise NotImplementedError("Step 02.2: Function.apply")
