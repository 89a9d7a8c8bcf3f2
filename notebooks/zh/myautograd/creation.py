"""（已给出）创建张量。对应 PyTorch 的 torch.tensor、torch.ones 等（ATen 的工厂函数）。"""
import numpy as np

from mini_autograd.creation import empty as _reference_empty, randn as _reference_randn
from mini_autograd.creation import tensor as _reference_tensor   # 像 torch.tensor 那样推断 dtype
from mini_autograd.random import Generator

from .tensor import Tensor

_generator = Generator()   # PyTorch 的生成器（mt19937）：同一个种子给出和 PyTorch 一样的数


def _check_switch(function, requires_grad):
    """与 PyTorch 的参数检查一样：``requires_grad`` 只能是 True 或 False，不能是 1 或 None。"""
    if not isinstance(requires_grad, bool):
        kind = type(requires_grad)
        name = f"numpy.{kind.__name__}" if isinstance(requires_grad, np.generic) else kind.__name__
        raise TypeError(f"{function}(): argument 'requires_grad' must be bool, not {name}")


def tensor(data, dtype=None, requires_grad=False):
    """一个新的叶子张量，存放 ``data`` 的一份副本：``tensor([1., 2.], requires_grad=True)``。"""
    _check_switch("tensor", requires_grad)
    return Tensor(_reference_tensor(data, dtype=dtype).numpy().copy(), requires_grad=requires_grad)


def _filled(value, size, dtype, requires_grad, function):
    _check_switch(function, requires_grad)
    shape = tuple(size[0]) if len(size) == 1 and isinstance(size[0], (tuple, list)) else size
    numpy_dtype = np.float32 if dtype is None else dtype.numpy
    return Tensor(np.full(shape, value, dtype=numpy_dtype), requires_grad=requires_grad)


def zeros(*size, dtype=None, requires_grad=False):
    return _filled(0, size, dtype, requires_grad, "zeros")


def ones(*size, dtype=None, requires_grad=False):
    return _filled(1, size, dtype, requires_grad, "ones")


def ones_like(t, requires_grad=False):
    _check_switch("ones_like", requires_grad)
    return Tensor(np.ones_like(t._data), requires_grad=requires_grad)


def zeros_like(t, requires_grad=False):
    _check_switch("zeros_like", requires_grad)
    return Tensor(np.zeros_like(t._data), requires_grad=requires_grad)


def manual_seed(seed):
    """为 randn 和 uniform 所用的生成器设种子：对应 torch.manual_seed。"""
    return _generator.manual_seed(seed)


def randn(*size, dtype=None, requires_grad=False):
    """从标准正态分布中抽取的数，同一个种子下与 PyTorch 的相同：对应 torch.randn。"""
    drawn = _reference_randn(*size, dtype=dtype, generator=_generator)
    return Tensor(drawn.numpy(), requires_grad=requires_grad)


def uniform(low, high, shape):
    """在 [low, high) 上均匀抽取的 float32 数，同一个种子下与 PyTorch 的相同：
    ``torch.empty(shape).uniform_(low, high)``。
    """
    drawn = Tensor(_reference_empty(shape).uniform_(low, high, generator=_generator).numpy())
    drawn._version = 1           # （由 uniform_ 原地写入过一次，和 PyTorch 一样）
    return drawn
