"""Your own operation, written as PyTorch users write theirs: a Function with forward and backward.

中文：你自己的运算，写法和 PyTorch 用户写自己的运算一样：一个带 forward 和 backward 的 Function。
"""
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

    中文：步骤 11.2：sigmoid(a) = 1 / (1 + exp(-a))，写成一个自定义 Function。

    PyTorch 文档中对应“Extending torch.autograd”一节（继承 torch.autograd.Function）。
    ``forward(ctx, a)``：用 numpy 计算它，用 ``ctx.save_for_backward`` 保存 backward 需要的东西，
    返回一个 dtype 与 ``a`` 相同的 Tensor。``backward(ctx, grad)``：导数是 s * (1 - s)，其中 s
    是结果（不是 a * (1 - a)）。要像 PyTorch 的 sigmoid 那样保存结果（如果改为保存输入，对 a 的原地
    修改就会让 backward 报错，而 PyTorch 的不会）。请写成 1 / (1 + exp(-a))：a = -1000 时，
    exp(1000) 是 inf，而 1 / inf = 0；写成 exp(a) / (1 + exp(a)) 的话，在 a = 1000 处会得到
    inf / inf = nan。它的节点按类名叫做 ``SigmoidBackward``。
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
