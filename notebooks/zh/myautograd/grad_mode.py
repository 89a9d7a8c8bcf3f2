"""梯度模式：决定运算是否被记录的开关。

PyTorch 中对应的文件：torch/autograd/grad_mode.py、c10/core/GradMode.h。和 PyTorch 一样，
每个线程都有自己的开关。
"""
import threading


class _ThreadState(threading.local):
    """（已给出）一个线程的开关；每个新线程开始时，记录都是开着的。"""
    grad_enabled = True


_state = _ThreadState()


def is_grad_enabled():
    """（已给出）新的运算会被记录进计算图时为 True（默认如此）。"""
    return _state.grad_enabled


def set_grad_enabled(mode):
    """（已给出）从这里开始打开或关闭记录。PyTorch：torch.set_grad_enabled。"""
    _state.grad_enabled = bool(mode)


class no_grad:
    """步骤 06.1：一个 ``with`` 代码块，块内什么都不记录。

    PyTorch 中对应 torch.no_grad，出处：torch/autograd/grad_mode.py。``__enter__`` 关闭记录
    （``_state.grad_enabled = False``），``__exit__`` 恢复进入之前的值：这样代码块可以嵌套，no_grad
    也可以用在本来就关闭了记录的代码里。提示：在 ``__enter__`` 中把原来的值记在 ``self`` 上。
    """

    def __enter__(self):
        raise NotImplementedError("Step 06.1: no_grad.__enter__")

    def __exit__(self, *exc_info):
        raise NotImplementedError("Step 06.1: no_grad.__exit__")
