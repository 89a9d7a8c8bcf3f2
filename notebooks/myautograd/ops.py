"""The differentiable operations: forward in numpy (given), backward formulas (yours).

PyTorch counterparts: the nodes (AddBackward0, MulBackward0, ...) generated from
tools/autograd/derivatives.yaml. Every backward is a vector-Jacobian product:
given ``grad``, the gradient arriving at the output, return the gradient of each
Tensor input. Write them with Tensor operations (``grad * b``), not numpy.
Broadcasting is undone by the engine (step 03.2), not here: ``Add.backward``
may return gradients shaped like the output.
"""
import numpy as np

from .function import Function
from .tensor import Tensor


def as_tensor(value, like):
    """(given) A Python number as a tensor of ``like``'s dtype; tensors pass through.

    myautograd keeps one dtype per operation, where PyTorch promotes: an integer
    tensor times 1.5 is float32 in PyTorch. Rather than cut 1.5 down to 1, a float
    number with an integer or bool tensor raises ``TypeError``.
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
        """Step 03.1: out = a + b. d out/d a = 1, d out/d b = 1."""
        raise NotImplementedError("Step 03.1: Add.backward")


class Sub(Function):
    """(given, as an example) out = a - b."""
    node_name = "SubBackward0"

    @staticmethod
    def forward(ctx, a, b):
        return Tensor(a._data - b._data)

    @staticmethod
    def backward(ctx, grad):
        return grad, -grad


class Neg(Function):
    """(given, as an example) out = -a."""
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
        return Tensor(a._data * b._data)

    @staticmethod
    def backward(ctx, grad):
        """Step 03.1: out = a * b. d out/d a = b, d out/d b = a (times ``grad``).

        Hint: ``a, b = ctx.saved_tensors`` gives back what forward saved.
        """
        raise NotImplementedError("Step 03.1: Mul.backward")


class Pow(Function):
    node_name = "PowBackward0"

    @staticmethod
    def forward(ctx, a, exponent):            # exponent: a Python number, not a Tensor
        ctx.save_for_backward(a)
        ctx.exponent = exponent               # a number: kept as a plain attribute
        return Tensor(a._data ** exponent)

    @staticmethod
    def backward(ctx, grad):
        """Step 03.1: out = a ** c for a number c. d out/d a = c * a ** (c - 1).

        For c = 0 the result is the constant 1, and its gradient is zeros shaped like a
        (``Tensor(np.zeros_like(a._data))``), as PyTorch's pow_backward returns: the formula
        would give 0 * 0 ** -1 = nan at a = 0.
        """
        raise NotImplementedError("Step 03.1: Pow.backward")


class Exp(Function):
    node_name = "ExpBackward0"

    @staticmethod
    def forward(ctx, a):
        result = Tensor(np.exp(a._data))
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad):
        """Step 03.1: out = exp(a). d out/d a = exp(a): the result, which forward saved."""
        raise NotImplementedError("Step 03.1: Exp.backward")


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
        """
        raise NotImplementedError("Step 03.1: Sum.backward")


class Mean(Function):
    node_name = "MeanBackward0"

    @staticmethod
    def forward(ctx, a):
        ctx.shape = a.shape
        return Tensor(a._data.mean())

    @staticmethod
    def backward(ctx, grad):
        """Step 03.1: out = a.mean() over n entries. Each entry gets ``grad / n``, shaped like a."""
        raise NotImplementedError("Step 03.1: Mean.backward")


class MatMul(Function):
    node_name = "MmBackward0"

    @staticmethod
    def forward(ctx, a, b):                   # two matrices: (n, k) @ (k, m)
        if a.ndim != 2 or b.ndim != 2:
            raise RuntimeError("myautograd's @ takes two 2-D tensors")
        ctx.save_for_backward(a, b)
        return Tensor(a._data @ b._data)

    @staticmethod
    def backward(ctx, grad):
        """Step 03.1: out = a @ b. d/d a: grad @ bᵀ; d/d b: aᵀ @ grad.

        Hint: ``Tensor.T`` is not in myautograd; ``transpose(t)`` below is given.
        """
        raise NotImplementedError("Step 03.1: MatMul.backward")


class Log(Function):
    """(given) out = log(a). d out/d a = 1 / a."""
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
    """(given) out = tanh(a). d out/d a = 1 - tanh(a)², from the saved result."""
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
    """(given) out = a.sum(dim, keepdim): each entry of a gets the gradient of its sum."""
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
    """(given) out = aᵀ for a matrix."""
    node_name = "TBackward0"

    @staticmethod
    def forward(ctx, a):
        return Tensor(a._data.T)

    @staticmethod
    def backward(ctx, grad):
        return transpose(grad)


def transpose(t):
    """(given) The transpose of a matrix, recorded like any operation."""
    return Transpose.apply(t)
