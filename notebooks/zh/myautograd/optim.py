"""优化器：改变参数的东西。PyTorch 中对应的文件：torch/optim/optimizer.py。"""
from .grad_mode import no_grad


def zero_grad(parameters, set_to_none=True):
    """步骤 05.2：在下一次反向传播之前，清掉 ``parameters`` 的梯度。

    PyTorch 中对应 Optimizer.zero_grad，出处：torch/optim/optimizer.py。不返回任何东西。调用之后：若
    ``set_to_none=True``（PyTorch 的默认值），每个参数的 ``.grad`` 都是 None；若
    ``set_to_none=False``，每个已有的 ``.grad`` 都全为零，并且仍是原来那个张量对象：它像 PyTorch 的
    ``p.grad.zero_()`` 那样被原地修改，``_version`` 加一。需要梯度的 ``.grad``（程序自己设置的）
    不再需要梯度，就像 PyTorch 在 ``zero_()`` 之前调用 ``p.grad.requires_grad_(False)``。``.grad``
    为 None 的参数，两种情况下都仍是 None。
    """
    raise NotImplementedError("Step 05.2: zero_grad")


class SGD:
    """最朴素的随机梯度下降：``p -= lr * p.grad``。PyTorch：torch.optim.SGD。"""

    def __init__(self, parameters, lr):
        self.parameters = list(parameters)      # （已给出）生成器遍历一遍就用完了
        self.lr = lr

    def zero_grad(self, set_to_none=True):
        """（已给出）清掉每个参数的梯度：用的是你在步骤 05.2 中写的 zero_grad。"""
        zero_grad(self.parameters, set_to_none)

    def step(self):
        """步骤 10.3：让每个参数逆着它的梯度走一步。

        PyTorch 中对应 SGD.step，出处：torch/optim/sgd.py。不返回任何东西。调用之后，
        每个有梯度的参数都存放着
        ``p - lr * p.grad``，并且仍是原来那个张量对象，仍是叶子张量（原地修改，步骤 07.1）；
        更新过程没有被记录下来：它不属于任何模型，而且需要梯度的叶子张量只能在关闭记录时被原地修改
        （步骤 06.1）。``.grad`` 为 None 的参数保持不变；其他参数都要写入，包括 ``requires_grad`` 被关掉
        的参数（它仍保持关闭），以及 ``lr`` 为 0 的时候（写入照样让版本计数器加一）。
        """
        raise NotImplementedError("Step 10.3: SGD.step")
