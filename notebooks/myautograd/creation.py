"""(given) Making tensors. PyTorch counterparts: torch.tensor, torch.ones, ... (ATen factories).

中文：（已给出）创建张量。对应 PyTorch 的 torch.tensor、torch.ones 等（ATen 的工厂函数）。
"""
import numpy as np

from mini_autograd.creation import tensor as _reference_tensor   # dtype inference, as torch.tensor does it
                                                                 # 中文：像 torch.tensor 那样推断 dtype

from .tensor import Tensor

_generator = np.random.default_rng(0)


def tensor(data, dtype=None, requires_grad=False):
    """A new leaf tensor holding a copy of ``data``: ``tensor([1., 2.], requires_grad=True)``.

    中文：一个新的叶子张量，存放 ``data`` 的一份副本：``tensor([1., 2.], requires_grad=True)``。
    """
    return Tensor(_reference_tensor(data, dtype=dtype).numpy().copy(), requires_grad=requires_grad)


def _filled(value, size, dtype, requires_grad):
    shape = tuple(size[0]) if len(size) == 1 and isinstance(size[0], (tuple, list)) else size
    numpy_dtype = np.float32 if dtype is None else dtype.numpy
    return Tensor(np.full(shape, value, dtype=numpy_dtype), requires_grad=requires_grad)


def zeros(*size, dtype=None, requires_grad=False):
    return _filled(0, size, dtype, requires_grad)


def ones(*size, dtype=None, requires_grad=False):
    return _filled(1, size, dtype, requires_grad)


def ones_like(t, requires_grad=False):
    return Tensor(np.ones_like(t._data), requires_grad=requires_grad)


def zeros_like(t, requires_grad=False):
    return Tensor(np.zeros_like(t._data), requires_grad=requires_grad)


def manual_seed(seed):
    global _generator
    _generator = np.random.default_rng(seed)


def randn(*size, dtype=None, requires_grad=False):
    numpy_dtype = np.float32 if dtype is None else dtype.numpy
    return Tensor(_generator.standard_normal(size).astype(numpy_dtype), requires_grad=requires_grad)


def uniform(low, high, shape):
    """Numbers drawn uniformly from [low, high), float32, from the seeded generator.

    中文：从设了种子的生成器中，在 [low, high) 上均匀抽取的 float32 数。
    """
    return Tensor(_generator.uniform(low, high, shape).astype(np.float32))
