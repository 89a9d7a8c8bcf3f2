"""层和损失：模型由它们组成。PyTorch 中对应的文件：torch/nn/modules/linear.py、torch/nn/functional.py。

在这里，任何有 ``__call__`` 和 ``parameters()`` 的对象都是模型；PyTorch 的 ``nn.Module``
还多做一些簿记工作（注册、``named_parameters``、``train()`` 等）。
"""
import numpy as np

from . import creation
from .function import Function
from .ops import transpose
from .tensor import Tensor


class Parameter(Tensor):
    """（已给出）属于某个模型、需要梯度的叶子张量。PyTorch：torch.nn.Parameter。"""

    def __init__(self, data, requires_grad=True):
        super().__init__(data._data if isinstance(data, Tensor) else data, requires_grad=requires_grad)
        if isinstance(data, Tensor):     # 数值相同，所以版本计数器也相同，和 PyTorch 一样
            self._version_counter = data._version_counter

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()


class Linear:
    """全连接层：``y = x @ weightᵀ + bias``。PyTorch：torch.nn.Linear。"""

    def __init__(self, in_features, out_features):
        """步骤 10.1：这一层的两个参数。

        PyTorch 中对应 Linear.reset_parameters。``self.weight``：形状为
        ``(out_features, in_features)`` 的 Parameter；``self.bias``：形状为 ``(out_features,)``。
        两者都从 ``[-k, k]`` 上均匀抽取，其中 ``k = 1 / sqrt(in_features)``（是平方根，
        不是 1 / in_features）；先抽权重，再抽偏置，和 PyTorch 的顺序一样（这样同一个种子给出同样的
        数）。提示：``creation.uniform(low, high, shape)``（已给出）从设了种子（``manual_seed``）
        的生成器中抽取 float32 数。
        """
        raise NotImplementedError("Step 10.1: Linear.__init__")

    def __call__(self, x):
        """步骤 10.1：对形状为 ``(n, in_features)`` 的一批输入 ``x``，计算
        ``x @ weightᵀ + bias``。

        PyTorch 中对应 torch.nn.functional.linear（记录为一个 AddmmBackward0 节点；你的版本记录的是
        MmBackward0、TBackward0 和 AddBackward0）。``transpose`` 已在 ops 中给出。
        """
        raise NotImplementedError("Step 10.1: Linear.__call__")

    def parameters(self):
        """（已给出）优化器要更新的那些张量。"""
        return [self.weight, self.bias]


def cross_entropy(logits, targets):
    """步骤 10.2：分类损失，在整批上取平均。

    PyTorch 中对应 torch.nn.functional.cross_entropy（先 log_softmax，再 nll_loss）。``logits``：
    形状为 ``(n, classes)``；``targets``：由 n 个类别编号组成的张量。对每一行：
    log_softmax = logits - log(sum(exp(logits)))，损失是正确类别的对数概率取负，再在 n 行上取平均。
    - 大的 logit 取 exp 会上溢：先减去每一行最大的 logit（``logits.max(dim=1, keepdim=True)``，
      已给出，是一个常量），在精确算术下这不改变任何结果。每一行减它自己的最大值：如果某些行远低于整
      批中最大的 logit，它们的 exp 会全部下溢为 0，而 log(0) = -inf。
    - 用 ``one_hot(targets, classes)``（已给出）挑出正确的类别：它是一个由 0 和 1 组成的常量张量，
      乘进去再求和即可。
    - 取负要照 PyTorch 的 nll_loss 那样从 0 减：写 ``0.0 - picked``，而不是 ``-picked``。两者只在
      和为 0 时（只有一个类别）有区别：PyTorch 打印 ``tensor(0.)``，而 ``-picked`` 得到 ``tensor(-0.)``。
    """
    raise NotImplementedError("Step 10.2: cross_entropy")


# 目标不允许使用的 dtype 在 PyTorch 报错信息里的名字。
TARGET_DTYPES = {"float16": "Half", "float32": "Float", "float64": "Double", "int32": "Int", "int16": "Short",
                 "int8": "Char", "bool": "Bool"}


def one_hot(targets, classes):
    """（已给出）第 i 行在第 targets[i] 列为 1：形状为 (n, classes)，float32。

    不是类别编号（0 到 classes - 1）的目标，会抛出和 PyTorch 一样的
    ``IndexError: Target 2 is out of bounds.``；int64 和 uint8 以外 dtype 的目标（比如浮点数）会抛出
    PyTorch 的 ``RuntimeError``。
    """
    labels = np.asarray(targets._data if isinstance(targets, Tensor) else targets)
    if labels.dtype not in (np.int64, np.uint8):
        raise RuntimeError("expected target dtype to be Long or Byte, but got "
                           + TARGET_DTYPES.get(labels.dtype.name, labels.dtype.name))
    for label in labels.reshape(-1):        # numpy 会把 -1 当作最后一个类别，PyTorch 拒绝它
        if not 0 <= label < classes:
            raise IndexError(f"Target {label} is out of bounds.")
    return Tensor(np.eye(classes, dtype=np.float32)[labels])


class MseLoss(Function):
    """（已给出）mean((a - b)²)，和 PyTorch 一样记录为一个节点。"""
    node_name = "MseLossBackward0"

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return Tensor(np.asarray(((a._data - b._data) ** 2).mean(), dtype=a._data.dtype))

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        difference = (a - b) * (2 / a.numel())
        return grad * difference, -(grad * difference)


class MSELoss:
    """（已给出）PyTorch：torch.nn.MSELoss，用法为 ``MSELoss()(prediction, target)``。"""

    def __call__(self, prediction, target):
        return MseLoss.apply(prediction, target)
