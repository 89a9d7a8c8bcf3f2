"""Nodes, edges and Function.apply: where the graph is recorded.

PyTorch counterparts: torch/csrc/autograd/node.h (Node),
torch/csrc/autograd/functions/utils.h (compute_requires_grad),
torch/csrc/autograd/functions/accumulate_grad.h (AccumulateGrad),
torch/csrc/autograd/variable.h (gradient_edge) and torch/autograd/function.py (Function).

中文：节点、边和 Function.apply：计算图就是在这里记录下来的。

PyTorch 中对应的各个文件见上文。
"""
import itertools
import re
import threading
import weakref

from .grad_mode import is_grad_enabled, set_grad_enabled
from .tensor import Tensor


def compute_requires_grad(*inputs):
    """Step 01.2: does the result of an operation on ``inputs`` require grad?

    PyTorch: compute_requires_grad (torch/csrc/autograd/functions/utils.h).
    True when recording is on (``is_grad_enabled()``) and at least one input is a
    Tensor that requires grad. Inputs may also be plain numbers: they never do.

    中文：步骤 01.2：对 ``inputs`` 做一次运算，结果需要梯度吗？

    PyTorch 中对应 compute_requires_grad，出处见上文。当记录开启（``is_grad_enabled()``），
    并且至少有一个输入是需要梯度的 Tensor 时，返回 True。输入也可能是普通的数：它们永远不需要梯度。
    """
    ### BEGIN SOLUTION
    return is_grad_enabled() and any(isinstance(t, Tensor) and t.requires_grad for t in inputs)
    ### END SOLUTION


class _SequenceNumbers(threading.local):
    """(given) One counter per thread, as PyTorch's at::sequence_number (ATen/SequenceNumber.h).

    中文：（已给出）每个线程一个计数器，和 PyTorch 的 at::sequence_number 一样。
    """

    def __init__(self):
        self.counter = itertools.count()


_sequence_numbers = _SequenceNumbers()


SECOND_BACKWARD_ERROR = (
    "Trying to backward through the graph a second time (or directly access saved tensors after they "
    "have already been freed). Saved intermediate values of the graph are freed when you call .backward() "
    "or autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second "
    "time or if you need to access saved tensors after calling backward.")


def modified_error(tensor, saved_version):
    """(given) PyTorch's words for a saved tensor changed in place since it was saved.

    中文：（已给出）保存的张量在保存之后被原地修改时，PyTorch 给出的那段报错文字。
    """
    # (PyTorch names the operation: Exp for ExpBackward0, Sigmoid for a custom Function's SigmoidBackward)
    # 中文：（PyTorch 写出运算的名字：ExpBackward0 写作 Exp，SigmoidBackward 写作 Sigmoid）
    made_by = ("" if tensor.grad_fn is None
               else f", which is output 0 of {re.sub(r'Backward[0-9]*$', '', tensor.grad_fn.name())},")
    return ("one of the variables needed for gradient computation has been modified by an inplace operation: "
            f"[{tensor.dtype.legacy_name} {list(tensor.shape)}]{made_by} is at version {tensor._version}; "
            f"expected version {saved_version} instead. Hint: enable anomaly detection to find the "
            "operation that failed to compute its gradient, with "
            "torch.autograd.set_detect_anomaly(True, check_nan=False).")


class Node:
    """(given) One step of the backward graph. PyTorch: struct Node (node.h).

    ``next_functions``: one ``(node, input_nr)`` edge per input of the forward
    operation, ``(None, 0)`` for an input that needs no gradient.
    ``pre_hooks``: functions the engine calls with the gradient arriving here.
    ``sequence_nr``: the order nodes were made in (chapter 08's engine uses it).

    中文：（已给出）反向计算图中的一步。PyTorch 中对应 struct Node，出处见上文。

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
        # PyTorch prints the name without its C++ namespace: <AccumulateGrad object at 0x...>
        # 中文：PyTorch 打印名字时不带 C++ 命名空间：<AccumulateGrad object at 0x...>
        return f"<{self.name().rsplit('::', 1)[-1]} object at {id(self):#x}>"

    def apply(self, grad):
        """The gradients of the forward inputs, given the gradient of the output.

        中文：给定输出的梯度，返回前向运算各个输入的梯度。
        """
        raise NotImplementedError

    def release_saved(self):
        """Free what was saved for backward; most nodes save nothing.

        中文：释放为反向传播保存的东西；大多数节点什么也不保存。
        """

    def unpack_saved(self):
        """Read back what was saved for backward, checking it: PyTorch's nodes do so first thing when they
        run, even when no gradient reached them (SavedVariable::unpack). Most nodes save nothing.

        中文：读回为反向传播保存的东西，并检查它：PyTorch 的节点一运行就先做这件事，即使没有任何梯度到达它
        （SavedVariable::unpack）。大多数节点什么也不保存。
        """


class AccumulateGrad(Node):
    """The node at a leaf: what arrives here is added into ``leaf.grad``.

    PyTorch: torch/csrc/autograd/functions/accumulate_grad.h.

    中文：叶子张量上的那个节点：到达这里的梯度会被加进 ``leaf.grad``。

    PyTorch 中对应的文件见上文。
    """

    def __init__(self, variable):
        super().__init__()
        self.variable = variable           # the leaf tensor
                                           # 中文：叶子张量
        self.sequence_nr = 2**64 - 1       # runs as soon as it is ready (PyTorch: UINT64_MAX)
                                           # 中文：一就绪就立即运行（PyTorch：UINT64_MAX）

    def name(self):
        return "torch::autograd::AccumulateGrad"

    def apply(self, grad):
        """Step 03.2, then 05.1: put ``grad`` into the leaf's ``.grad``.

        PyTorch: AccumulateGrad::apply (functions/accumulate_grad.h). Takes the
        gradient arriving at the leaf (``self.variable``); returns ``()``, since a
        leaf passes nothing on. Afterwards:
        - Step 03.2: a leaf without a gradient holds one equal to ``grad``, in a
          tensor of its own: the engine may hand the very same gradient tensor to
          another input too, so the leaf must not share it.
        - Step 05.1 (chapter 05): a leaf that already had a gradient holds the sum
          of the old one and ``grad``, and its ``.grad`` is still the same tensor
          object as before (changed in place, not replaced). Adding in place is a
          change of the gradient tensor: its ``_version`` goes up by one, as
          PyTorch's ``variable_grad += new_grad`` bumps it.
        - Step 05.1 too: the gradient is kept in the leaf's dtype (PyTorch's engine
          casts each gradient to its input's dtype: a float32 leaf times a float64
          tensor gets a float32 ``.grad``), and a leaf whose ``requires_grad`` was
          switched off after the graph was recorded (``x.requires_grad_(False)``)
          gets nothing at all, as in PyTorch, whose AccumulateGrad returns at once.

        中文：步骤 03.2，之后是 05.1：把 ``grad`` 放进叶子张量的 ``.grad``。

        PyTorch 中对应 AccumulateGrad::apply，出处见上文。接收到达叶子张量（``self.variable``）
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
        ### BEGIN SOLUTION
        variable = self.variable
        if not variable.requires_grad:             # switched off after recording: PyTorch returns at once
            return ()
        grad_data = grad._data.astype(variable._data.dtype)     # (a copy, in the leaf's dtype)
        if variable._grad is None:
            variable._grad = Tensor(grad_data)
        else:
            variable._grad._data += grad_data
            variable._grad._version += 1
        return ()
        ### END SOLUTION


def gradient_edge(tensor):
    """Step 02.1, then 04.1: the edge a gradient for ``tensor`` travels along.

    PyTorch: impl::gradient_edge (torch/csrc/autograd/variable.h).
    - a tensor made by an operation: ``(tensor.grad_fn, 0)``;
    - a leaf that requires grad: ``(its AccumulateGrad node, 0)``;
    - anything else: ``(None, 0)``: no gradient goes there.
    Step 04.1 (chapter 04): a leaf has *one* AccumulateGrad, however often it is
    used. Keep it on the tensor as ``tensor._grad_accumulator``, held only
    weakly (a ``weakref.ref``): the node holds the leaf, so the leaf must not
    keep the node alive. PyTorch's AutogradMeta does the same with a
    ``c10::weak_intrusive_ptr<Node> grad_accumulator_`` (variable.h). Make a new
    node only when there is none alive.

    中文：步骤 02.1，之后是 04.1：``tensor`` 的梯度要走的那条边。

    PyTorch 中对应 impl::gradient_edge，出处见上文。
    - 由运算产生的张量：``(tensor.grad_fn, 0)``；
    - 需要梯度的叶子张量：``(它的 AccumulateGrad 节点, 0)``；
    - 其他情况：``(None, 0)``：不会有梯度传到那里。
    步骤 04.1（第 04 章）：一个叶子张量只有*一个* AccumulateGrad，不管它被用了多少次。
    把它存在张量上，即 ``tensor._grad_accumulator``，并且只弱引用它（用一个 ``weakref.ref``）：
    节点握着叶子张量，所以叶子张量不能让节点一直活着。PyTorch 的 AutogradMeta 也是这样做的，用的是
    ``c10::weak_intrusive_ptr<Node> grad_accumulator_``（出处见上文）。只有在还没有一个活着的节点
    时，才新建一个。
    """
    ### BEGIN SOLUTION
    if tensor.grad_fn is not None:
        return (tensor.grad_fn, 0)
    if not tensor.requires_grad:
        return (None, 0)
    accumulator_ref = getattr(tensor, "_grad_accumulator", None)
    accumulator = accumulator_ref() if accumulator_ref is not None else None
    if accumulator is None:
        accumulator = AccumulateGrad(tensor)
        tensor._grad_accumulator = weakref.ref(accumulator)
    return (accumulator, 0)
    ### END SOLUTION


class BackwardFunction(Node):
    """(given) The node ``Function.apply`` records; it is also the ``ctx`` of forward and backward.

    PyTorch: BackwardCFunction (torch/autograd/function.py). Its name is the
    Function's ``node_name`` (``MulBackward0``), as in PyTorch.

    中文：（已给出）``Function.apply`` 记录下来的节点；它同时也是 forward 和 backward 的 ``ctx``。

    PyTorch 中对应 BackwardCFunction，出处见上文。和 PyTorch 一样，它的名字就是 Function 的
    ``node_name``（如 ``MulBackward0``）。
    """

    def __init__(self, function):
        super().__init__()
        self.function = function            # the Function class: Mul, Exp, ...
                                            # 中文：Function 类：Mul、Exp……
        self.saved = ()

    def save_for_backward(self, *tensors):
        """Step 07.1: keep tensors for backward, each with the version it has now.

        PyTorch: ctx.save_for_backward, stored as SavedVariable (saved_variable.h),
        which remembers the tensor's version. Keep pairs ``(tensor, tensor._version)``
        in ``self.saved``. PyTorch also takes None in the place of a tensor (a
        Function may save an optional input) and gives None back: keep ``(None, None)``.

        中文：步骤 07.1：为 backward 留住这些张量，每个都连同它此刻的版本一起保存。

        PyTorch 中对应 ctx.save_for_backward，存成会记住张量版本的 SavedVariable（出处见上文）。在
        ``self.saved`` 中保存 ``(tensor, tensor._version)`` 这样的二元组。PyTorch 也接受用 None 占
        一个张量的位置（Function 可能要保存一个可选的输入），取出时还给 None：保存 ``(None, None)``。
        """
        ### BEGIN SOLUTION
        self.saved = tuple((t, None if t is None else t._version) for t in tensors)
        ### SHIPPED
        # self.saved = tensors
        ### END SOLUTION

    @property
    def saved_tensors(self):
        """Step 07.1: what forward saved, in the same order, each checked first.

        PyTorch: SavedVariable::unpack. After backward freed them (step 07.2 sets
        ``self.saved = None``), raise ``RuntimeError(SECOND_BACKWARD_ERROR)``. A
        tensor whose ``_version`` moved on since it was saved was changed in place:
        raise ``RuntimeError(modified_error(tensor, saved_version))``.

        中文：步骤 07.1：forward 保存的东西，顺序不变，每个都先检查一遍。

        PyTorch：SavedVariable::unpack。反向传播释放了它们之后（步骤 07.2 会设置
        ``self.saved = None``），抛出 ``RuntimeError(SECOND_BACKWARD_ERROR)``。如果张量的
        ``_version`` 在保存之后变了，说明它被原地修改过：抛出
        ``RuntimeError(modified_error(tensor, saved_version))``。
        """
        ### BEGIN SOLUTION
        if self.saved is None:
            raise RuntimeError(SECOND_BACKWARD_ERROR)
        for tensor, version in self.saved:
            if tensor is not None and tensor._version != version:
                raise RuntimeError(modified_error(tensor, version))
        return tuple(tensor for tensor, _ in self.saved)
        ### SHIPPED
        # return self.saved
        ### END SOLUTION

    def release_saved(self):
        """(given) Free what forward saved: the engine calls this after the node ran (step 07.2).

        中文：（已给出）释放 forward 保存的东西：引擎在节点运行之后调用它（步骤 07.2）。
        """
        if self.saved:                      # (a node that saved nothing has nothing to free, nor to miss)
                                            # 中文：（什么也没保存的节点，既没有可释放的，也不会缺什么）
            self.saved = None

    def unpack_saved(self):
        """(given) What forward saved, checked (``saved_tensors``): the engine reads it from a node that
        only None reached, as PyTorch's nodes unpack their saved tensors before anything else (step 08.2).

        中文：（已给出）forward 保存的东西，经过检查（``saved_tensors``）：对于只收到 None 的节点，引擎
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
            grads = grads[:expected]            # extra Nones are allowed, as in PyTorch (python_function.cpp)
                                                # 中文：多出来的 None 是允许的，和 PyTorch 一样（出处见上）
        if len(grads) != expected:
            raise RuntimeError(f"function {self.name()} returned an incorrect number of gradients "
                               f"(expected {expected}, got {len(grads)})")
        return grads


class Function:
    """Base class of every differentiable operation. PyTorch: torch.autograd.Function.

    A subclass defines ``forward(ctx, *inputs)`` (numpy does the work) and
    ``backward(ctx, grad)``, and is called as ``Mul.apply(a, b)``. ``backward``
    returns one gradient per Tensor input, in order (a tuple when there are
    several). PyTorch's own Function also wants a None for each non-Tensor input.

    中文：所有可微运算的基类。PyTorch：torch.autograd.Function。

    子类定义 ``forward(ctx, *inputs)``（由 numpy 完成计算）和 ``backward(ctx, grad)``，调用方式是
    ``Mul.apply(a, b)``。``backward`` 按顺序为每个 Tensor 输入返回一个梯度（有多个时返回元组）。
    PyTorch 自己的 Function 还要求每个非 Tensor 输入对应一个 None。
    """

    node_name = None                          # e.g. "MulBackward0", as PyTorch names the node
                                              # 中文：例如 "MulBackward0"，和 PyTorch 给节点起的名字一样

    @staticmethod
    def forward(ctx, *inputs):
        raise NotImplementedError

    @staticmethod
    def backward(ctx, grad):
        raise NotImplementedError

    @classmethod
    def apply(cls, *inputs):
        """Step 02.2: run forward, and record a node when the result requires grad.

        PyTorch: Function.apply (torch/autograd/function.py; python_function.cpp).
        Takes the operation's inputs, Tensors and plain values (an exponent, say).
        Returns what ``cls.forward`` returns, with the graph recorded on it:
        - ``forward`` receives, as its ``ctx``, the node of this operation (a
          ``BackwardFunction`` of ``cls``), so what forward keeps on ctx is there
          for backward;
        - when the result requires grad by your rule of step 01.2, that node is the
          result's ``grad_fn``, the result's ``requires_grad`` is True, and the node
          has one edge per Tensor input, in input order (step 02.1), and knows the
          shape of each Tensor input (``input_shapes``: the engine undoes
          broadcasting with them, step 03.2);
        - otherwise the result has no ``grad_fn`` and does not require grad (even
          if forward made it with ``requires_grad=True``: PyTorch detaches it). Plain
          values never get an edge.
        Two more things PyTorch does, for Functions whose forward uses Tensor
        operations (step 11.2):
        - forward runs with recording off (``set_grad_enabled(False)``, given, and
          the old mode put back in a ``finally``): what forward computes is not
          recorded, only the node of ``cls`` is;
        - a forward that returns one of its inputs unchanged returns a new Tensor
          sharing that input's numbers (``Tensor(result._data)``) and its version
          counter (``_version_counter``: PyTorch makes a view), which gets the node:
          the input itself stays as it was (a leaf stays a leaf).

        中文：步骤 02.2：运行 forward，结果需要梯度时记录一个节点。

        PyTorch 中对应 Function.apply，出处见上文。参数是运算的输入：Tensor，以及普通的值（比如一个
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
        ### BEGIN SOLUTION
        ctx = BackwardFunction(cls)
        recording = is_grad_enabled()
        set_grad_enabled(False)
        try:
            result = cls.forward(ctx, *inputs)
        finally:
            set_grad_enabled(recording)
        if any(result is t for t in inputs):
            view = Tensor(result._data)              # a new tensor over the input's numbers (PyTorch: a view)
            view._version_counter = result._version_counter
            result = view
        if compute_requires_grad(*inputs):
            tensors = [t for t in inputs if isinstance(t, Tensor)]
            ctx.next_functions = tuple(gradient_edge(t) for t in tensors)
            ctx.input_shapes = tuple(t.shape for t in tensors)
            result.grad_fn = ctx
            result.requires_grad = True
        else:
            result.requires_grad = False
        return result
        ### END SOLUTION
