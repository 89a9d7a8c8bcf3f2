"""Tensor: a numpy array plus the autograd fields PyTorch keeps beside it.

PyTorch counterpart: torch.Tensor (torch/_tensor.py) and its AutogradMeta
(torch/csrc/autograd/variable.h). Parts marked "(given)" are done for you:
data, printing, operators. The steps are yours.

中文：Tensor：一个 numpy 数组，加上 PyTorch 放在它旁边的那些 autograd 字段。

PyTorch 中对应 torch.Tensor 及其 AutogradMeta，文件见上文。标着“(given)”（已给出）的部分已经替你写
好：数据、打印、运算符。各个步骤由你来写。
"""
import warnings
import weakref

import numpy as np

from mini_autograd._dtype import from_numpy_dtype          # (given) dtypes, printed as torch.float32
                                                           # 中文：（已给出）dtype，打印形如 torch.float32
from mini_autograd._printing import tensor_repr            # (given) PyTorch's printing
                                                           # 中文：（已给出）PyTorch 的打印格式

from .grad_mode import is_grad_enabled

NON_LEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad "
    "field to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. "
    "If you access the non-leaf Tensor by mistake, make sure you access the leaf Tensor "
    "instead. See github.com/pytorch/pytorch/pull/30531 for more information.")

NON_LEAF_REQUIRES_GRAD_ERROR = (
    "you can only change requires_grad flags of leaf variables. If you want to use a computed "
    "variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach().")


class VersionCounter:
    """(given) How many in-place changes a tensor's numbers have had (step 07.1).

    PyTorch: c10::VariableVersion (c10/core/TensorImpl.h). A tensor and the tensors
    ``detach()`` makes from it share one counter, as they share their numbers (step 06.2).

    中文：（已给出）一个张量的数值经历过多少次原地修改（步骤 07.1）。

    PyTorch 中对应 c10::VariableVersion，出处见上文。一个张量和由它 ``detach()`` 得到的张量共享同一
    个计数器，就像它们共享数值一样（步骤 06.2）。
    """

    def __init__(self):
        self.version = 0


class Tensor:
    """An n-dimensional array that can record the operations made with it.

    中文：一个 n 维数组，能记录用它做过的运算。
    """

    def __init__(self, data, requires_grad=False):
        """Step 01.1: a tensor's autograd fields.

        PyTorch: AutogradMeta (torch/csrc/autograd/variable.h).
        The data part is given. Add the three autograd fields:
        - ``self.requires_grad``: the switch. Only floating-point tensors may
          switch it on; otherwise raise ``RuntimeError("Only Tensors of floating
          point and complex dtype can require gradients")``.
          (``self.dtype.is_floating_point`` tells.)
        - ``self._grad``: the gradient backward will leave here; None until then
          (read it as ``.grad``, a given property below).
        - ``self.grad_fn``: the node that made this tensor; None for a tensor you create.

        中文：步骤 01.1：张量的 autograd 字段。

        PyTorch 中对应 AutogradMeta，出处见上文。数据部分已经给出。请加上三个 autograd 字段：
        - ``self.requires_grad``：开关。只有浮点张量可以打开它；否则抛出
          ``RuntimeError("Only Tensors of floating point and complex dtype can require gradients")``
          （``self.dtype.is_floating_point`` 告诉你是不是浮点）。
        - ``self._grad``：反向传播会把梯度留在这里；在那之前是 None（通过下面已给出的属性
          ``.grad`` 读取）。
        - ``self.grad_fn``：产生这个张量的节点；你自己创建的张量为 None。
        """
        self._data = np.asarray(data)           # (given) the numbers
                                                # 中文：（已给出）数值
        self.retains_grad = False               # (given) step 04.2 switches it on
                                                # 中文：（已给出）步骤 04.2 会把它打开
        self._version_counter = VersionCounter()  # (given) in-place changes so far (step 07.1)
                                                  # 中文：（已给出）到目前为止的原地修改次数（步骤 07.1）
        ### BEGIN SOLUTION
        if requires_grad and not self.dtype.is_floating_point:
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        self.requires_grad = requires_grad
        self._grad = None
        self.grad_fn = None
        ### END SOLUTION

    # ------------------------------------------------------------ (given) data
    # 中文：（已给出）数据
    @property
    def dtype(self):
        return from_numpy_dtype(self._data.dtype)

    @property
    def shape(self):
        return self._data.shape

    @property
    def ndim(self):
        return self._data.ndim

    def numel(self):
        return self._data.size

    def item(self):
        return self._data.item()

    def tolist(self):
        return self._data.tolist()

    def numpy(self):
        if self.requires_grad:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. "
                               "Use tensor.detach().numpy() instead.")
        return self._data

    @property
    def _version(self):
        """(given) The version of this tensor's numbers: its counter's (``x._version += 1`` bumps it).

        中文：（已给出）这个张量的数值的版本，即它的计数器的版本（``x._version += 1`` 让它加一）。
        """
        return self._version_counter.version

    @_version.setter
    def _version(self, value):
        self._version_counter.version = value

    def __repr__(self):
        grad_fn = None if self.grad_fn is None else self.grad_fn.name()
        return tensor_repr(self._data, self.dtype, requires_grad=self.requires_grad, grad_fn_name=grad_fn)

    @property
    def grad(self):
        """(given) The gradient; PyTorch warns when you read it on a non-leaf that has none (chapter 04).

        中文：（已给出）梯度；在没有梯度的非叶子张量上读取它时，PyTorch 会发出警告（第 04 章）。
        """
        if self.grad_fn is not None and not self.retains_grad and self._grad is None:
            warnings.warn(NON_LEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value):
        self._grad = value

    # ------------------------------------------------------ (given) operators
    # 中文：（已给出）运算符
    def __add__(self, other): return ops.Add.apply(self, ops.as_tensor(other, self))
    def __radd__(self, other): return ops.Add.apply(ops.as_tensor(other, self), self)
    def __sub__(self, other): return ops.Sub.apply(self, ops.as_tensor(other, self))
    def __rsub__(self, other): return ops.Sub.apply(ops.as_tensor(other, self), self)
    def __mul__(self, other): return ops.Mul.apply(self, ops.as_tensor(other, self))
    def __rmul__(self, other): return ops.Mul.apply(ops.as_tensor(other, self), self)
    def __truediv__(self, other): return self * ops.as_tensor(other, self) ** -1
    def __neg__(self): return ops.Neg.apply(self)
    def __pow__(self, exponent): return ops.Pow.apply(self, exponent)
    def __matmul__(self, other): return ops.MatMul.apply(self, other)

    def exp(self): return ops.Exp.apply(self)
    def log(self): return ops.Log.apply(self)
    def tanh(self): return ops.Tanh.apply(self)
    def mean(self): return ops.Mean.apply(self)

    def sum(self, dim=None, keepdim=False):
        return ops.Sum.apply(self) if dim is None else ops.SumDim.apply(self, dim, keepdim)

    def max(self, dim, keepdim=False):
        """(given) The largest values along ``dim``, as a constant: no gradient flows through it here.

        中文：（已给出）沿 ``dim`` 的最大值，作为常量返回：在这里没有梯度流经它。
        """
        return Tensor(self._data.max(axis=dim, keepdims=keepdim))

    # --------------------------------------------- (given) in-place operations
    # 中文：（已给出）原地操作
    def add_(self, other): return self._write(self._data + self._operand(other))
    def sub_(self, other): return self._write(self._data - self._operand(other))
    def mul_(self, other): return self._write(self._data * self._operand(other))
    def zero_(self): return self._write(np.zeros_like(self._data))

    def _operand(self, other):
        """(given) ``other``'s numbers for an in-place operation, refused as PyTorch refuses them: the
        result must keep this tensor's shape, and fit its dtype (no float numbers into an integer tensor,
        no integers into a bool one).

        中文：（已给出）原地操作所用的 ``other`` 的数值，按 PyTorch 的方式拒绝不合适的：结果必须保持
        这个张量的形状，也要放得进它的 dtype（浮点数不能写进整数张量，整数不能写进布尔张量）。
        """
        data = ops.as_tensor(other, self)._data
        mine = (1,) * (data.ndim - self.ndim) + self.shape          # both shapes, padded to one length
                                                                    # 中文：两个形状，补齐到同样的长度
        theirs = (1,) * (self.ndim - data.ndim) + data.shape
        for dim in reversed(range(len(mine))):
            if mine[dim] != theirs[dim] and 1 not in (mine[dim], theirs[dim]):
                raise RuntimeError(f"The size of tensor a ({mine[dim]}) must match the size of tensor b "
                                   f"({theirs[dim]}) at non-singleton dimension {dim}")
        shape = np.broadcast_shapes(self.shape, data.shape)
        if shape != self.shape:
            raise RuntimeError(f"output with shape {list(self.shape)} doesn't match the broadcast shape "
                               f"{list(shape)}")
        kinds = {"b": 0, "u": 1, "i": 1, "f": 2}                    # bool < integers < floats (canCast)
                                                                    # 中文：布尔 < 整数 < 浮点数（canCast）
        if kinds[data.dtype.kind] > kinds[self._data.dtype.kind]:
            raise RuntimeError(f"result type {from_numpy_dtype(data.dtype).scalar_name} can't be cast to the "
                               f"desired output type {from_numpy_dtype(self._data.dtype).scalar_name}")
        return data

    def _write(self, data):
        """Step 07.1: what every in-place operation does: write ``data`` into this tensor's numbers.

        PyTorch: the version bump of every in-place op (VariableVersion::bump).
        - A leaf that requires grad, while recording is on, must not change under
          autograd's feet: raise ``RuntimeError("a leaf Variable that requires grad
          is being used in an in-place operation.")``.
        - A non-leaf that requires grad, while recording: PyTorch records the
          change in the graph; myautograd does not, so raise ``RuntimeError(
          "myautograd records no in-place operations: use them under no_grad")``.
        - Else this tensor's own numpy array now holds ``data`` (the same array
          object: a ``detach()``ed tensor shares it and must see the change),
          ``self._version`` is one higher, and the method returns ``self``.

        中文：步骤 07.1：每个原地操作都要做的事：把 ``data`` 写进这个张量的数值。

        PyTorch 中对应每个原地操作都会做的版本加一（VariableVersion::bump）。
        - 需要梯度的叶子张量，在记录开启时，不能在 autograd 眼皮底下被改动：抛出
          ``RuntimeError("a leaf Variable that requires grad is being used in an in-place
          operation.")``。
        - 需要梯度的非叶子张量，在记录开启时：PyTorch 会把这次修改记录进计算图；myautograd 不记录，
          所以抛出
          ``RuntimeError("myautograd records no in-place operations: use them under no_grad")``。
        - 其他情况：这个张量自己的 numpy 数组现在存放着 ``data``（仍是同一个数组对象：``detach()``
          得到的张量共享它，必须看到这次修改），``self._version`` 加一，方法返回 ``self``。
        """
        ### BEGIN SOLUTION
        if self.requires_grad and is_grad_enabled():
            if self.is_leaf:
                raise RuntimeError(
                    "a leaf Variable that requires grad is being used in an in-place operation.")
            raise RuntimeError("myautograd records no in-place operations: use them under no_grad")
        self._data[...] = data
        self._version += 1
        return self
        ### END SOLUTION

    # ---------------------------------------------------------------- autograd
    # 中文：自动求导
    def backward(self, gradient=None, retain_graph=False):
        """Step 03.3, then 07.2: start backward from this tensor.

        PyTorch: Tensor.backward (torch/_tensor.py) and _make_grads (torch/autograd/__init__.py).
        PyTorch checks in this order, and so does yours (the first problem found is the one named):
        - A ``gradient`` of another shape than the tensor's: raise PyTorch's
          ``RuntimeError(f"Mismatch in shape: grad_output[0] has a shape of
          torch.Size({list(gradient.shape)}) and output[0] has a shape of
          torch.Size({list(self.shape)}).")``.
        - A tensor that neither requires grad nor has a grad_fn cannot start a
          backward: raise ``RuntimeError("element 0 of tensors does not require
          grad and does not have a grad_fn")``.
        - No ``gradient`` given: allowed only when the tensor has one element
          (else raise ``RuntimeError("grad can be implicitly created only for
          scalar outputs")``); start from ones shaped like the tensor.
        - A ``gradient`` of another dtype is cast to the tensor's
          (``Tensor(gradient._data.astype(self._data.dtype))``): a float32 result
          gives float32 gradients, whatever dtype the starting gradient has.
        Then hand over to ``engine.run_backward(self, gradient)``.
        Hint: ``ones_like`` lives in ``creation.py``.
        Step 07.2 (chapter 07): pass ``retain_graph`` on to ``run_backward`` too.

        中文：步骤 03.3，之后是 07.2：从这个张量开始反向传播。

        PyTorch 中对应 Tensor.backward 和 _make_grads，出处见上文。PyTorch 按下面的顺序检查，你的也一样
        （报出的是最先发现的那个问题）：
        - ``gradient`` 的形状与张量不同：抛出 PyTorch 的
          ``RuntimeError(f"Mismatch in shape: grad_output[0] has a shape of
          torch.Size({list(gradient.shape)}) and output[0] has a shape of
          torch.Size({list(self.shape)}).")``。
        - 既不需要梯度、也没有 grad_fn 的张量不能开始反向传播：抛出
          ``RuntimeError("element 0 of tensors does not require grad and does not have a
          grad_fn")``。
        - 没有给出 ``gradient``：只有张量只含一个元素时才允许（否则抛出
          ``RuntimeError("grad can be implicitly created only for scalar outputs")``）；
          这时从一个形状与张量相同的全 1 张量开始。
        - dtype 不同的 ``gradient`` 要转换成张量的 dtype
          （``Tensor(gradient._data.astype(self._data.dtype))``）：float32 的结果得到 float32 的梯
          度，不管起始梯度是什么 dtype。
        然后交给 ``engine.run_backward(self, gradient)``。提示：``ones_like`` 在
        ``creation.py`` 里。
        步骤 07.2（第 07 章）：把 ``retain_graph`` 也传给 ``run_backward``。
        """
        # (given) Before anything else, PyTorch refuses a gradient that is not a Tensor (a list, a number).
        # 中文：（已给出）PyTorch 首先拒绝不是 Tensor 的梯度（列表、数字等）。
        if gradient is not None and not isinstance(gradient, Tensor):
            raise TypeError(f"gradients can be either Tensors or None, but got {type(gradient).__name__}")
        ### BEGIN SOLUTION
        from .creation import ones_like
        if gradient is not None and gradient.shape != self.shape:
            raise RuntimeError(f"Mismatch in shape: grad_output[0] has a shape of torch.Size("
                               f"{list(gradient.shape)}) and output[0] has a shape of "
                               f"torch.Size({list(self.shape)}).")
        if not self.requires_grad:
            raise RuntimeError("element 0 of tensors does not require grad and does not have a grad_fn")
        if gradient is None:
            if self.numel() != 1:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            gradient = ones_like(self)
        if gradient._data.dtype != self._data.dtype:
            gradient = Tensor(gradient._data.astype(self._data.dtype))
        engine.run_backward(self, gradient, retain_graph)
        ### END SOLUTION

    @property
    def is_leaf(self):
        """Step 04.1: True for tensors that were not made by a recorded operation.

        PyTorch: Tensor.is_leaf. Tensors that do not require grad are leaves too.

        中文：步骤 04.1：不是由被记录的运算产生的张量，返回 True。

        PyTorch：Tensor.is_leaf。不需要梯度的张量也是叶子张量。
        """
        ### BEGIN SOLUTION
        return self.grad_fn is None
        ### END SOLUTION

    def retain_grad(self):
        """Step 04.2: keep this non-leaf tensor's gradient in ``.grad`` too.

        PyTorch: Tensor.retain_grad (torch/csrc/autograd/variable.cpp), built on a hook.
        - requires_grad False: raise ``RuntimeError("can't retain_grad on Tensor
          that has requires_grad=False")``.
        - a leaf: nothing to do (its .grad is filled anyway).
        - else set ``self.retains_grad = True`` and put a hook first in
          ``self.grad_fn.pre_hooks`` (``insert(0, hook)``): a function the engine
          calls with the gradient arriving at that node (step 03.2). First, because
          PyTorch runs the retain_grad hook before the node's own pre-hooks, whenever
          they were registered: ``.grad`` is the gradient as it arrived. Let it store a
          copy of the gradient the first time, and afterwards make ``self._grad`` the sum
          ``self._grad + grad``, a new tensor: unlike a leaf's, PyTorch's retained
          gradient is not summed in place, so a ``.grad`` read before a second backward
          keeps its numbers. It returns None (no change), and keeps nothing when the
          gradient is None (from step 08.2 on, a node that only None reached calls its
          pre-hooks with None). The hook holds ``self`` only weakly
          (``weakref.ref(self)``), as PyTorch's does: the graph must not keep the
          tensor alive after the program let go of it.

        中文：步骤 04.2：让这个非叶子张量的梯度也留在 ``.grad`` 里。

        PyTorch 中对应 Tensor.retain_grad，它基于一个钩子实现，出处见上文。
        - requires_grad 为 False：抛出
          ``RuntimeError("can't retain_grad on Tensor that has requires_grad=False")``。
        - 叶子张量：什么都不用做（它的 .grad 反正会被填上）。
        - 否则设置 ``self.retains_grad = True``，并把一个钩子放在 ``self.grad_fn.pre_hooks`` 的最前面
          （``insert(0, hook)``）：引擎会拿到达那个节点的梯度去调用这个函数（步骤 03.2）。放在最前面，
          是因为 PyTorch 总是先运行 retain_grad 的钩子，再运行节点自己的前置钩子，不管它们是何时注册的：
          ``.grad`` 是梯度到达时的样子。第一次让它存下梯度的一份副本，之后让
          ``self._grad`` 变成和 ``self._grad + grad``，这是一个新张量：和叶子张量不同，PyTorch 保留的
          梯度不是原地累加的，所以在第二次反向传播之前读出的 ``.grad`` 数值不变。钩子返回 None（不改变
          梯度）；梯度为 None 时什么也不存（从步骤 08.2 起，只有 None 到达的节点会用 None 调用它的前置
          钩子）。钩子只弱引用 ``self``（``weakref.ref(self)``），和 PyTorch 一样：程序放下这个张量之后，
          计算图不能让它继续活着。
        """
        ### BEGIN SOLUTION
        if not self.requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if self.is_leaf or self.retains_grad:
            return
        self.retains_grad = True
        tensor = weakref.ref(self)

        def keep_grad(grad):
            kept = tensor()
            if kept is not None and grad is not None:
                kept._grad = Tensor(grad._data.copy()) if kept._grad is None else kept._grad + grad

        self.grad_fn.pre_hooks.insert(0, keep_grad)
        ### END SOLUTION

    def detach(self):
        """Step 06.2: the same numbers, cut from the graph.

        PyTorch: Tensor.detach. A new leaf that shares this tensor's numpy array
        (no copy) and does not require grad. It shares the version counter too
        (``detached._version_counter = self._version_counter``): an in-place change
        made through either tensor counts for both, so a saved tensor changed through
        its detached twin still stops backward with PyTorch's error (step 07.1).

        中文：步骤 06.2：同样的数值，但与计算图断开。

        PyTorch：Tensor.detach。返回一个新的叶子张量，它与这个张量共享 numpy 数组（不复制），
        并且不需要梯度。它还共享版本计数器
        （``detached._version_counter = self._version_counter``）：通过任何一个张量做的原地修改，
        两个张量都算数；所以一个保存的张量即使是通过它分离出的孪生张量被修改的，反向传播仍会以
        PyTorch 的报错停下（步骤 07.1）。
        """
        ### BEGIN SOLUTION
        detached = Tensor(self._data)
        detached._version_counter = self._version_counter
        return detached
        ### END SOLUTION

    def requires_grad_(self, requires_grad=True):
        """Step 06.2: switch requires_grad on a leaf, in place; return self.

        PyTorch: Tensor.requires_grad_. A non-leaf already requires grad: asking
        for True changes nothing, asking for False raises
        ``RuntimeError(NON_LEAF_REQUIRES_GRAD_ERROR)``. A tensor that is not
        floating point cannot switch it on: ``RuntimeError("only Tensors of floating
        point dtype can require gradients")`` (PyTorch's words here differ from step 01.1's).

        中文：步骤 06.2：原地切换叶子张量的 requires_grad，并返回 self。

        PyTorch：Tensor.requires_grad_。非叶子张量本来就需要梯度：要求 True 什么也不改变，要求 False
        则抛出 ``RuntimeError(NON_LEAF_REQUIRES_GRAD_ERROR)``。不是浮点类型的张量不能打开它：抛出
        ``RuntimeError("only Tensors of floating point dtype can require gradients")``（PyTorch
        在这里的措辞与步骤 01.1 的不同）。
        """
        # (given) PyTorch's argument check: True or False, not 1.
        # 中文：（已给出）与 PyTorch 的参数检查一样：只接受 True 或 False，不接受 1。
        if not isinstance(requires_grad, bool):
            raise TypeError("requires_grad_(): argument 'requires_grad' (position 1) must be bool, "
                            f"not {type(requires_grad).__name__}")
        ### BEGIN SOLUTION
        if not self.is_leaf:
            if requires_grad:
                return self                    # a non-leaf requires grad already
            raise RuntimeError(NON_LEAF_REQUIRES_GRAD_ERROR)
        if requires_grad and not self.dtype.is_floating_point:
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        self.requires_grad = requires_grad
        return self
        ### END SOLUTION


# (given) imported last: both modules use Tensor.
# 中文：（已给出）放在最后导入：这两个模块都要用到 Tensor。
from . import engine, ops  # noqa: E402
