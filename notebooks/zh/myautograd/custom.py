"""你自己的运算，写法和 PyTorch 用户写自己的运算一样：一个带 forward 和 backward 的 Function。"""
import numpy as np

from .function import Function
from .tensor import Tensor


class Sigmoid(Function):
    """步骤 11.2：sigmoid(a) = 1 / (1 + exp(-a))，写成一个自定义 Function。

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
        raise NotImplementedError("Step 11.2: Sigmoid.forward")

    @staticmethod
    def backward(ctx, grad):
        raise NotImplementedError("Step 11.2: Sigmoid.backward")
