"""The differentiable operations: forward in numpy (given), backward formulas (yours).

PyTorch counterparts: the nodes (AddBackward0, MulBackward0, ...) generated from
tools/autograd/derivatives.yaml. Every backward is a vector-Jacobian product:
given ``grad``, the gradient arriving at the output, return the gradient of each
Tensor input. Write them with Tensor operations (``grad * b``), not numpy.
Broadcasting is undone by the engine (step 03.2), not here: ``Add.backward``
may return gradients shaped like the output.

中文：可微运算：forward 用 numpy 写成（已给出），反向公式由你来写。

PyTorch 中对应的是由导数定义文件（见上文）生成的那些节点（AddBackward0、MulBackward0 等）。每个
backward 都是一个向量-雅可比积：给定 ``grad``，即到达输出的梯度，返回每个 Tensor 输入的梯度。请用
Tensor 运算来写（``grad * b``），不要用 numpy。撤销广播由引擎负责（步骤 03.2），不在这里做：
``Add.backward`` 可以返回形状与输出相同的梯度。
"""
import numpy as np

from .function import Function
from .tensor import Tensor


def as_tensor(value, like):
    """(given) A Python number as a tensor of ``like``'s dtype; tensors pass through.

    myautograd keeps one dtype per operation, where PyTorch promotes: an integer
    tensor times 1.5 is float32 in PyTorch. Rather than cut 1.5 down to 1, a float
    number with an integer or bool tensor raises ``TypeError``.

    中文：（已给出）把 Python 数变成 dtype 与 ``like`` 相同的张量；张量则原样返回。

    myautograd 的每个运算只用一种 dtype，而 PyTorch 会做类型提升：在 PyTorch 中，整数张量乘以 1.5
    得到 float32。与其把 1.5 截成 1，浮点数遇上整数或布尔张量时会抛出 ``TypeError``。
    """
    if isinstance(value, Tensor):
        return value
    if isinstance(value, float) and like._data.dtype.kind in "biu":
        raise TypeError(f"myautograd does no type promotion: a {like.dtype} tensor with the float {value!r}; "
                        "make the tensor a floating-point one first (PyTorch's result would be float32)")
    return Tensor(np.asarray(value, dtype=like._data.dtype))


class Add(Function):
    node_name = "AddBackward0"

    @staticmethod
    def forward(ctx, a, b):
        return Tensor(a._data + b._data)

    @staticmethod
    def backward(ctx, grad):
        """Step 03.1: out = a + b. d out/d a = 1, d out/d b = 1.

        中文：步骤 03.1：out = a + b。d out/d a = 1，d out/d b = 1。
        """
        ### BEGIN SOLUTION
        return grad, grad
        ### END SOLUTION


class Sub(Function):
    """(given, as an example) out = a - b.

    中文：（已给出，作为示例）out = a - b。
    """
    node_name = "SubBackward0"

    @staticmethod
    def forward(ctx, a, b):
        return Tensor(a._data - b._data)

    @staticmethod
    def backward(ctx, grad):
        return grad, -grad


class Neg(Function):
    """(given, as an example) out = -a.

    中文：（已给出，作为示例）out = -a。
    """
    node_name = "NegBackward0"

    @staticmethod
    def forward(ctx, a):
        return Tensor(-a._data)

    @staticmethod
    def backward(ctx, grad):
        return -grad


class Mul(Function):
    node_name = "MulBackward0"

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)           # what backward will need
                                              # 中文：backward 将会用到的东西
        return Tensor(a._data * b._data)

    @staticmethod
    def backward(ctx, grad):
        """Step 03.1: out = a * b. d out/d a = b, d out/d b = a (times ``grad``).

        Hint: ``a, b = ctx.saved_tensors`` gives back what forward saved.

        中文：步骤 03.1：out = a * b。d out/d a = b，d out/d b = a（都要再乘以 ``grad``）。

        提示：``a, b = ctx.saved_tensors`` 取回 forward 保存的东西。
        """
        ### BEGIN SOLUTION
        a, b = ctx.saved_tensors
        return grad * b, grad * a
        ### END SOLUTION


class Pow(Function):
    node_name = "PowBackward0"

    @staticmethod
    def forward(ctx, a, exponent):            # exponent: a Python number, not a Tensor
                                              # 中文：exponent 是一个 Python 数，不是 Tensor
        ctx.save_for_backward(a)
        ctx.exponent = exponent               # a number: kept as a plain attribute
                                              # 中文：一个数：作为普通属性保存
        return Tensor(a._data ** exponent)

    @staticmethod
    def backward(ctx, grad):
        """Step 03.1: out = a ** c for a number c. d out/d a = c * a ** (c - 1).

        For c = 0 the result is the constant 1, and its gradient is zeros shaped like a
        (``Tensor(np.zeros_like(a._data))``), as PyTorch's pow_backward returns: the formula
        would give 0 * 0 ** -1 = nan at a = 0.

        中文：步骤 03.1：out = a ** c，c 是一个数。d out/d a = c * a ** (c - 1)。

        c = 0 时结果是常数 1，它的梯度是形状与 a 相同的全零张量
        （``Tensor(np.zeros_like(a._data))``），和 PyTorch 的 pow_backward 返回的一样：
        套用公式的话，在 a = 0 处会得到 0 * 0 ** -1 = nan。
        """
        ### BEGIN SOLUTION
        a, = ctx.saved_tensors
        if ctx.exponent == 0:
            return Tensor(np.zeros_like(a._data))
        return grad * ctx.exponent * a ** (ctx.exponent - 1)
        ### END SOLUTION


class Exp(Function):
    node_name = "ExpBackward0"

    @staticmethod
    def forward(ctx, a):
        result = Tensor(np.exp(a._data))
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad):
        """Step 03.1: out = exp(a). d out/d a = exp(a): the result, which forward saved.

        中文：步骤 03.1：out = exp(a)。d out/d a = exp(a)：也就是 forward 保存下来的结果。
        """
        ### BEGIN SOLUTION
        result, = ctx.saved_tensors
        return grad * result
        ### END SOLUTION


class Sum(Function):
    node_name = "SumBackward0"

    @staticmethod
    def forward(ctx, a):
        ctx.shape = a.shape
        return Tensor(a._data.sum())

    @staticmethod
    def backward(ctx, grad):
        """Step 03.1: out = a.sum(), a scalar. Every entry of a gets ``grad``.

        Hint: the result must have a's shape, ``ctx.shape``: ``grad * ones``
        (``Tensor(np.ones(ctx.shape, ...))``) broadcasts to it.

        中文：步骤 03.1：out = a.sum()，一个标量。a 的每个元素都得到 ``grad``。

        提示：结果必须具有 a 的形状 ``ctx.shape``：``grad * ones``
        （``Tensor(np.ones(ctx.shape, ...))``）会广播成这个形状。
        """
        ### BEGIN SOLUTION
        return grad * Tensor(np.ones(ctx.shape, dtype=grad._data.dtype))
        ### END SOLUTION


class Mean(Function):
    node_name = "MeanBackward0"

    @staticmethod
    def forward(ctx, a):
        ctx.shape = a.shape
        return Tensor(a._data.mean())

    @staticmethod
    def backward(ctx, grad):
        """Step 03.1: out = a.mean() over n entries. Each entry gets ``grad / n``, shaped like a.

        中文：步骤 03.1：out = a.mean()，对 n 个元素取平均。每个元素得到 ``grad / n``，
        形状与 a 相同。
        """
        ### BEGIN SOLUTION
        n = int(np.prod(ctx.shape))
        return grad * Tensor(np.ones(ctx.shape, dtype=grad._data.dtype) / n)
        ### END SOLUTION


class MatMul(Function):
    node_name = "MmBackward0"

    @staticmethod
    def forward(ctx, a, b):                   # two matrices: (n, k) @ (k, m)
                                              # 中文：两个矩阵：(n, k) @ (k, m)
        if a.ndim != 2 or b.ndim != 2:
            raise RuntimeError("myautograd's @ takes two 2-D tensors")
        ctx.save_for_backward(a, b)
        return Tensor(a._data @ b._data)

    @staticmethod
    def backward(ctx, grad):
        """Step 03.1: out = a @ b. d/d a: grad @ bᵀ; d/d b: aᵀ @ grad.

        Hint: ``Tensor.T`` is not in myautograd; ``transpose(t)`` below is given.

        中文：步骤 03.1：out = a @ b。对 a 的梯度：grad @ bᵀ；对 b 的梯度：aᵀ @ grad。

        提示：myautograd 没有 ``Tensor.T``；下面已给出 ``transpose(t)``。
        """
        ### BEGIN SOLUTION
        a, b = ctx.saved_tensors
        return grad @ transpose(b), transpose(a) @ grad
        ### END SOLUTION


class Log(Function):
    """(given) out = log(a). d out/d a = 1 / a.

    中文：（已给出）out = log(a)。d out/d a = 1 / a。
    """
    node_name = "LogBackward0"

    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return Tensor(np.log(a._data))

    @staticmethod
    def backward(ctx, grad):
        a, = ctx.saved_tensors
        return grad / a


class Tanh(Function):
    """(given) out = tanh(a). d out/d a = 1 - tanh(a)², from the saved result.

    中文：（已给出）out = tanh(a)。d out/d a = 1 - tanh(a)²，由保存的结果算出。
    """
    node_name = "TanhBackward0"

    @staticmethod
    def forward(ctx, a):
        result = Tensor(np.tanh(a._data))
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad):
        result, = ctx.saved_tensors
        return grad * (1 - result * result)


class SumDim(Function):
    """(given) out = a.sum(dim, keepdim): each entry of a gets the gradient of its sum.

    中文：（已给出）out = a.sum(dim, keepdim)：a 的每个元素得到它所在那个和的梯度。
    """
    node_name = "SumBackward1"

    @staticmethod
    def forward(ctx, a, dim, keepdim):
        ctx.shape, ctx.dim, ctx.keepdim = a.shape, dim, keepdim
        return Tensor(a._data.sum(axis=dim, keepdims=keepdim))

    @staticmethod
    def backward(ctx, grad):
        kept = grad if ctx.keepdim else Tensor(np.expand_dims(grad._data, ctx.dim))
        return kept * Tensor(np.ones(ctx.shape, dtype=grad._data.dtype))


class Transpose(Function):
    """(given) out = aᵀ for a matrix.

    中文：（已给出）矩阵的转置：out = aᵀ。
    """
    node_name = "TBackward0"

    @staticmethod
    def forward(ctx, a):
        return Tensor(a._data.T)

    @staticmethod
    def backward(ctx, grad):
        return transpose(grad)


def transpose(t):
    """(given) The transpose of a matrix, recorded like any operation.

    中文：（已给出）矩阵的转置，和其他运算一样被记录下来。
    """
    return Transpose.apply(t)
