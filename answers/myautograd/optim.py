"""Optimizers: what changes the parameters. PyTorch counterpart: torch/optim/optimizer.py.

中文：优化器：改变参数的东西。PyTorch 中对应的文件见上文。
"""
from .grad_mode import no_grad


def zero_grad(parameters, set_to_none=True):
    """Step 05.2: clear the gradients of ``parameters`` before the next backward.

    PyTorch: Optimizer.zero_grad (torch/optim/optimizer.py). Returns nothing.
    Afterwards, with ``set_to_none=True`` (PyTorch's default) every parameter's
    ``.grad`` is None. With ``set_to_none=False`` every existing ``.grad`` holds
    zeros and is still the same tensor object as before, changed in place as
    PyTorch's ``p.grad.zero_()`` changes it: its ``_version`` goes up by one. A
    ``.grad`` that requires grad (one the program set) no longer does, as
    PyTorch's ``p.grad.requires_grad_(False)`` before ``zero_()``. A parameter
    whose ``.grad`` is None stays None either way.

    中文：步骤 05.2：在下一次反向传播之前，清掉 ``parameters`` 的梯度。

    PyTorch 中对应 Optimizer.zero_grad，出处见上文。不返回任何东西。调用之后：若
    ``set_to_none=True``（PyTorch 的默认值），每个参数的 ``.grad`` 都是 None；若
    ``set_to_none=False``，每个已有的 ``.grad`` 都全为零，并且仍是原来那个张量对象：它像 PyTorch 的
    ``p.grad.zero_()`` 那样被原地修改，``_version`` 加一。需要梯度的 ``.grad``（程序自己设置的）
    不再需要梯度，就像 PyTorch 在 ``zero_()`` 之前调用 ``p.grad.requires_grad_(False)``。``.grad``
    为 None 的参数，两种情况下都仍是 None。
    """
    ### BEGIN SOLUTION
    for p in parameters:
        if p.grad is None:
            continue
        if set_to_none:
            p.grad = None
        else:
            p.grad.requires_grad = False
            p.grad._data[...] = 0
            p.grad._version += 1
    ### END SOLUTION


class SGD:
    """Plain stochastic gradient descent: ``p -= lr * p.grad``. PyTorch: torch.optim.SGD.

    中文：最朴素的随机梯度下降：``p -= lr * p.grad``。PyTorch：torch.optim.SGD。
    """

    def __init__(self, parameters, lr):
        self.parameters = list(parameters)      # (given) a generator would be used up after one pass
                                                # 中文：（已给出）生成器遍历一遍就用完了
        self.lr = lr

    def zero_grad(self, set_to_none=True):
        """(given) Clear every parameter's gradient: your zero_grad of step 05.2.

        中文：（已给出）清掉每个参数的梯度：用的是你在步骤 05.2 中写的 zero_grad。
        """
        zero_grad(self.parameters, set_to_none)

    def step(self):
        """Step 10.3: move each parameter a step against its gradient.

        PyTorch: SGD.step (torch/optim/sgd.py). Returns nothing. Afterwards each
        parameter with a gradient holds ``p - lr * p.grad`` and is still the same
        tensor object, a leaf (changed in place, step 07.1), and nothing about the
        update was recorded: it is not part of any model, and a leaf that requires
        grad may only be changed in place with recording off (step 06.1).
        Parameters whose ``.grad`` is None are left as they are; every other one
        is written, also one whose ``requires_grad`` was switched off (it stays
        off) and also when ``lr`` is 0 (the write still bumps its version).

        中文：步骤 10.3：让每个参数逆着它的梯度走一步。

        PyTorch 中对应 SGD.step，出处见上文。不返回任何东西。调用之后，每个有梯度的参数都存放着
        ``p - lr * p.grad``，并且仍是原来那个张量对象，仍是叶子张量（原地修改，步骤 07.1）；
        更新过程没有被记录下来：它不属于任何模型，而且需要梯度的叶子张量只能在关闭记录时被原地修改
        （步骤 06.1）。``.grad`` 为 None 的参数保持不变；其他参数都要写入，包括 ``requires_grad`` 被关掉
        的参数（它仍保持关闭），以及 ``lr`` 为 0 的时候（写入照样让版本计数器加一）。
        """
        ### BEGIN SOLUTION
        with no_grad():
            for p in self.parameters:
                if p.grad is not None:
                    p.sub_(self.lr * p.grad)
        ### END SOLUTION
