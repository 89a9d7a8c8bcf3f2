"""Your own operation, written as PyTorch users write theirs: a Function with forward and backward."""
import numpy as np

from .function import Function
from .tensor import Tensor


class Sigmoid(Function):
    """Step 11.2: sigmoid(a) = 1 / (1 + exp(-a)), as a custom Function.

    PyTorch: "Extending torch.autograd" (subclass torch.autograd.Function).
    ``forward(ctx, a)``: compute it with numpy, save what backward needs with
    ``ctx.save_for_backward``, return a Tensor. ``backward(ctx, grad)``: the
    derivative is s * (1 - s), where s is the result: save the result, not the
    input. Its node is named ``SigmoidBackward``, after the class.
    """

    @staticmethod
    def forward(ctx, a):
        ### BEGIN SOLUTION
        result = Tensor(1 / (1 + np.exp(-a._data)))
        ctx.save_for_backward(result)
        return result
        ### END SOLUTION

    @staticmethod
    def backward(ctx, grad):
        ### BEGIN SOLUTION
        s, = ctx.saved_tensors
        return grad * s * (1 - s)
        ### END SOLUTION
