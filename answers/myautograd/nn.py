"""Layers and losses: what a model is made of. PyTorch: torch/nn/modules/linear.py, torch/nn/functional.py.

A model here is any object with ``__call__`` and ``parameters()``; PyTorch's
``nn.Module`` adds the bookkeeping (registration, ``named_parameters``, ``train()``...).

中文：层和损失：模型由它们组成。PyTorch 中对应的文件见上文。

在这里，任何有 ``__call__`` 和 ``parameters()`` 的对象都是模型；PyTorch 的 ``nn.Module``
还多做一些簿记工作（注册、``named_parameters``、``train()`` 等）。
"""
import numpy as np

from . import creation
from .function import Function
from .ops import transpose
from .tensor import Tensor


class Parameter(Tensor):
    """(given) A leaf tensor that requires grad and belongs to a model. PyTorch: torch.nn.Parameter.

    中文：（已给出）属于某个模型、需要梯度的叶子张量。PyTorch：torch.nn.Parameter。
    """

    def __init__(self, data, requires_grad=True):
        super().__init__(data._data if isinstance(data, Tensor) else data, requires_grad=requires_grad)
        if isinstance(data, Tensor):     # the same numbers, so the same version counter, as in PyTorch
                                         # 中文：数值相同，所以版本计数器也相同，和 PyTorch 一样
            self._version_counter = data._version_counter

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()


class Linear:
    """A fully connected layer: ``y = x @ weightᵀ + bias``. PyTorch: torch.nn.Linear.

    中文：全连接层：``y = x @ weightᵀ + bias``。PyTorch：torch.nn.Linear。
    """

    def __init__(self, in_features, out_features):
        """Step 10.1: the layer's two parameters.

        PyTorch: Linear.reset_parameters. ``self.weight``: a Parameter of shape
        ``(out_features, in_features)``, ``self.bias``: of shape ``(out_features,)``,
        both drawn uniformly from ``[-k, k]`` with ``k = 1 / sqrt(in_features)`` (the
        square root: not 1 / in_features),
        the weight first, then the bias, as PyTorch does (so that the same seed
        gives the same numbers). Hint: ``creation.uniform(low, high, shape)`` (given) draws
        float32 numbers from the seeded generator (``manual_seed``).

        中文：步骤 10.1：这一层的两个参数。

        PyTorch 中对应 Linear.reset_parameters。``self.weight``：形状为
        ``(out_features, in_features)`` 的 Parameter；``self.bias``：形状为 ``(out_features,)``。
        两者都从 ``[-k, k]`` 上均匀抽取，其中 ``k = 1 / sqrt(in_features)``（是平方根，
        不是 1 / in_features）；先抽权重，再抽偏置，和 PyTorch 的顺序一样（这样同一个种子给出同样的
        数）。提示：``creation.uniform(low, high, shape)``（已给出）从设了种子（``manual_seed``）
        的生成器中抽取 float32 数。
        """
        ### BEGIN SOLUTION
        bound = 1 / np.sqrt(in_features)
        self.weight = Parameter(creation.uniform(-bound, bound, (out_features, in_features)))
        self.bias = Parameter(creation.uniform(-bound, bound, (out_features,)))
        ### END SOLUTION

    def __call__(self, x):
        """Step 10.1: ``x @ weightᵀ + bias`` for a batch ``x`` of shape ``(n, in_features)``.

        PyTorch: torch.nn.functional.linear (recorded as one AddmmBackward0 node;
        yours records MmBackward0, TBackward0 and AddBackward0). ``transpose`` is given in ops.

        中文：步骤 10.1：对形状为 ``(n, in_features)`` 的一批输入 ``x``，计算
        ``x @ weightᵀ + bias``。

        PyTorch 中对应 torch.nn.functional.linear（记录为一个 AddmmBackward0 节点；你的版本记录的是
        MmBackward0、TBackward0 和 AddBackward0）。``transpose`` 已在 ops 中给出。
        """
        ### BEGIN SOLUTION
        return x @ transpose(self.weight) + self.bias
        ### END SOLUTION

    def parameters(self):
        """(given) The tensors an optimizer updates.

        中文：（已给出）优化器要更新的那些张量。
        """
        return [self.weight, self.bias]


def cross_entropy(logits, targets):
    """Step 10.2: the classification loss, averaged over the batch.

    PyTorch: torch.nn.functional.cross_entropy (log_softmax, then nll_loss).
    ``logits``: shape ``(n, classes)``; ``targets``: a tensor of n class numbers.
    For each row: log_softmax = logits - log(sum(exp(logits))), and the loss is
    minus the log-probability of the right class, averaged over the n rows.
    - exp of a big logit overflows: subtract each row's largest logit first
      (``logits.max(dim=1, keepdim=True)``, given, a constant), which changes nothing
      in exact arithmetic. Each row its own: rows far below the batch's largest
      logit would underflow to exp = 0 everywhere, and log(0) = -inf.
    - pick the right class with ``one_hot(targets, classes)`` (given): a constant
      tensor of 0s and 1s, multiplied in and summed.
    - take minus the way PyTorch's nll_loss does, from 0: ``0.0 - picked``, not
      ``-picked``. The two differ only when the sum is 0 (a single class): PyTorch
      prints ``tensor(0.)``, and ``-picked`` gives ``tensor(-0.)``.

    中文：步骤 10.2：分类损失，在整批上取平均。

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
    ### BEGIN SOLUTION
    n, classes = logits.shape
    shifted = logits - logits.max(dim=1, keepdim=True)
    log_probs = shifted - shifted.exp().sum(dim=1, keepdim=True).log()
    picked = (one_hot(targets, classes) * log_probs).sum()
    return (0.0 - picked) / n
    ### END SOLUTION


# PyTorch's names of the dtypes a target may not have, as its error message prints them.
# 中文：目标不允许使用的 dtype 在 PyTorch 报错信息里的名字。
TARGET_DTYPES = {"float16": "Half", "float32": "Float", "float64": "Double", "int32": "Int", "int16": "Short",
                 "int8": "Char", "bool": "Bool"}


def one_hot(targets, classes):
    """(given) Row i has a 1 in column targets[i]: shape (n, classes), float32.

    A target that is not a class number (0 to classes - 1) raises PyTorch's
    ``IndexError: Target 2 is out of bounds.``, and targets of another dtype than
    int64 or uint8 (floats, say) PyTorch's ``RuntimeError``.

    中文：（已给出）第 i 行在第 targets[i] 列为 1：形状为 (n, classes)，float32。

    不是类别编号（0 到 classes - 1）的目标，会抛出和 PyTorch 一样的
    ``IndexError: Target 2 is out of bounds.``；int64 和 uint8 以外 dtype 的目标（比如浮点数）会抛出
    PyTorch 的 ``RuntimeError``。
    """
    labels = np.asarray(targets._data if isinstance(targets, Tensor) else targets)
    if labels.dtype not in (np.int64, np.uint8):
        raise RuntimeError("expected target dtype to be Long or Byte, but got "
                           + TARGET_DTYPES.get(labels.dtype.name, labels.dtype.name))
    for label in labels.reshape(-1):        # numpy would take -1 for the last class: PyTorch refuses it
                                            # 中文：numpy 会把 -1 当作最后一个类别，PyTorch 拒绝它
        if not 0 <= label < classes:
            raise IndexError(f"Target {label} is out of bounds.")
    return Tensor(np.eye(classes, dtype=np.float32)[labels])


class MseLoss(Function):
    """(given) mean((a - b)²), recorded as one node, as PyTorch records it.

    中文：（已给出）mean((a - b)²)，和 PyTorch 一样记录为一个节点。
    """
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
    """(given) PyTorch: torch.nn.MSELoss: ``MSELoss()(prediction, target)``.

    中文：（已给出）PyTorch：torch.nn.MSELoss，用法为 ``MSELoss()(prediction, target)``。
    """

    def __call__(self, prediction, target):
        return MseLoss.apply(prediction, target)
