"""用有限差分检查反向公式。PyTorch 中对应的文件：torch/autograd/gradcheck.py。"""
import numpy as np

from .tensor import Tensor  # noqa: F401  （已给出）用来构造每次反向传播的起始梯度


class GradcheckError(RuntimeError):
    """（已给出）两个雅可比矩阵不一致时抛出，和 PyTorch 的 gradcheck 一样。"""


def gradcheck(function, inputs, eps=1e-6, atol=1e-5, rtol=1e-3):
    """步骤 11.1：把反向传播算出的雅可比矩阵，与用有限差分得到的雅可比矩阵相比较。

    PyTorch 中对应 torch.autograd.gradcheck（慢速模式），出处：torch/autograd/gradcheck.py。
    参数 ``function``
    返回一个张量；``inputs`` 是由 float64 张量组成的元组。只检查其中需要梯度的输入，下面的编号 i
    也只数它们（第一个需要梯度的输入是输入 0）；一个都不需要梯度时，抛出 PyTorch 的
    ``ValueError("gradcheck expects at least one input tensor to require gradient, but none of
    them have requires_grad=True.")``。如果对每个输入 i，
    下面的两个雅可比矩阵都一致（``np.allclose(analytical, numerical, rtol=rtol, atol=atol)``），
    就返回 True；否则抛出 ``GradcheckError``，它的信息以 PyTorch 的措辞
    ``Jacobian mismatch for output 0 with respect to input {i},`` 开头，后面接着两个矩阵。

    两个矩阵都采用 PyTorch 的布局：输入 i 的每个元素一行，输出的每个元素一列（即教科书上
    dy/dx 的转置）。
    - numerical（数值雅可比矩阵）：中心差分 (out(x + eps) - out(x - eps)) / (2 eps)，一次只推动一个
      输入元素。``inputs[i]._data.reshape(-1)`` 是一个可以往里写的视图；推动之后，每个元素都必
      须恢复原值。
    - analytical（解析雅可比矩阵）：backward 给出的结果，一次求一个输出元素：从一个在该元素处为 1、
      其余处为 0 的梯度开始反向传播，到达 ``inputs[i].grad`` 的那个梯度（用 ``.flat[k]`` 写入这个 1：
      输出可能是转置过的，而转置数组的 ``reshape(-1)`` 是一份副本）。梯度会累加进 ``.grad``，
      所以每次反向传播都必须从清空了的 ``.grad`` 开始。如果一次反向传播之后 ``inputs[i].grad`` 仍是
      None，说明没有梯度到达输入 i：那一列全为零（如果推动输入 i 也什么都不改变，两者就一致，PyTorch
      返回 True）。
    - 用传入的 ``eps``、``atol`` 和 ``rtol`` 比较：
      |analytical - numerical| <= atol + rtol * |numerical| 时，一个元素就算通过；两个矩阵的每个元
      素、每个输入都要通过。
    - 不需要梯度的输出（没有哪个输入经由记录下来的运算到达它）没有反向传播可以运行：它的解析雅可比
      矩阵全为零。
    调用结束后，无论 gradcheck 是返回还是抛出异常，每个输入的 ``.grad`` 都和调用之前一样（PyTorch
    的 gradcheck 不动它们：None 仍是 None，已有的梯度仍在）。
    """
    raise NotImplementedError("Step 11.1: gradcheck")
