"""Your own operation, written as PyTorch users write theirs: a Function with forward and backward."""
import numpy as np

from .function import Function
from .tensor import Tensor


class Sigmoid(Function):
    """Step 11.2: sigmoid(a) = 1 / (1 + exp(-a)), as a custom Function.

    PyTorch: "Extending torch.autograd" (subclass torch.autograd.Function).
    ``forward(ctx, a)``: compute it with numpy, save what backward needs with
    ``ctx.save_for_backward``, return a Tensor of ``a``'s dtype. ``backward(ctx, grad)``:
    the derivative is s * (1 - s), where s is the result (not a * (1 - a)): save the
    result, as PyTorch's sigmoid does (saving the input instead would make an
    in-place change of a stop backward, where PyTorch's does not mind it). Write
    it as 1 / (1 + exp(-a)): at
    a = -1000, exp(1000) is inf and 1 / inf = 0, while exp(a) / (1 + exp(a)) would
    give inf / inf = nan at a = 1000. Its node is named ``SigmoidBackward``, after
    the class.
    """

    @staticmethod
    def forward(ctx, a):
        raise NotImplementedError("Step 11.2: Sigmoid.forward")

    @staticmethod
    def backward(ctx, grad):
        raise NotImplementedError("Step 11.2: Sigmoid.backward")
