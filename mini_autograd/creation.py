"""Making tensors: from data, filled with a value, ranges, and seeded random numbers.

PyTorch counterpart: torch/csrc/utils/tensor_new.cpp (``torch.tensor``: dtype
inference, ragged-list errors) and the factory functions of ATen.
"""
import numbers
import warnings

import numpy as np

from . import _dtype
from ._tensor import Tensor

_generator = np.random.default_rng(0)


def manual_seed(seed):
    """Seed ``rand``/``randn``: the same seed gives the same numbers (not PyTorch's numbers)."""
    global _generator
    _generator = np.random.default_rng(int(seed))
    return _generator


def _resolve_dtype(dtype, default):
    if dtype is None:
        return default
    if isinstance(dtype, _dtype.dtype):
        return dtype
    raise TypeError(f"dtype must be a mini_autograd dtype (float32, float64, int64, bool), not {dtype!r}")


def _infer_dtype(data, path=()):
    """Walk nested lists like torch.tensor: check they are rectangular, find the widest type."""
    if isinstance(data, Tensor):
        return data.dtype.name, data.shape
    if isinstance(data, (np.ndarray, np.generic)):
        return _dtype.from_numpy_dtype(data.dtype).name, data.shape
    if isinstance(data, bool) or isinstance(data, np.bool_):
        return "bool", ()
    if isinstance(data, numbers.Integral):
        return "int64", ()
    if isinstance(data, numbers.Real):
        return "float", ()
    if isinstance(data, (list, tuple)):
        if len(data) == 0:
            return "float", (0,)
        kinds, shapes = zip(*(_infer_dtype(item, path + (i,)) for i, item in enumerate(data)))
        for shape in shapes[1:]:
            if shapes[0] and not shape:
                raise TypeError("not a sequence")          # [[1], 2]: torch's words
            if shape and not shapes[0]:
                raise TypeError("'list' object cannot be interpreted as an integer")   # [1, [2]]
        for i, shape in enumerate(shapes):
            if len(shape) != len(shapes[0]):
                raise ValueError(f"expected sequence of length {shapes[0][0] if shapes[0] else 0} at "
                                 f"dim {len(path) + 1} (got {shape[0] if shape else 0})")
            if shape != shapes[0]:
                dim = next(d for d, (a, b) in enumerate(zip(shapes[0], shape)) if a != b)
                raise ValueError(f"expected sequence of length {shapes[0][dim]} at dim "
                                 f"{len(path) + 1 + dim} (got {shape[dim]})")
        order = ["bool", "int64", "float32", "float64", "float"]
        return max(kinds, key=order.index), (len(data),) + tuple(shapes[0])
    if isinstance(data, str):
        raise TypeError(f"new(): invalid data type '{type(data).__name__}'")
    raise RuntimeError(f"Could not infer dtype of {type(data).__name__}")


def tensor(data, dtype=None, requires_grad=False):
    """A new leaf tensor holding a copy of ``data`` (a number, nested lists, an array or a Tensor)."""
    kind, _ = _infer_dtype(data)
    default = {"bool": _dtype.bool_, "int64": _dtype.int64, "float": _dtype.float32,
               "float32": _dtype.float32, "float64": _dtype.float64}[kind]
    if isinstance(data, np.ndarray):
        default = _dtype.from_numpy_dtype(data.dtype)
    dtype = _resolve_dtype(dtype, default)
    if isinstance(data, Tensor):
        warnings.warn("To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() "
                      "or sourceTensor.detach().clone().requires_grad_(True), rather than "
                      "torch.tensor(sourceTensor).", UserWarning, stacklevel=2)
        array = data._data.astype(dtype.numpy, copy=True)
    else:
        array = np.array(_unwrap(data), dtype=dtype.numpy)
    return Tensor(array, requires_grad=requires_grad)


def _unwrap(data):
    if isinstance(data, Tensor):
        return data._data
    if isinstance(data, (list, tuple)):
        return [_unwrap(item) for item in data]
    return data


def from_numpy(array):
    """A tensor sharing memory with ``array`` (float32, float64, int64 or bool)."""
    _dtype.from_numpy_dtype(array.dtype)
    if array.dtype not in _dtype._BY_NUMPY:
        raise TypeError(f"can't convert np.ndarray of type numpy.{array.dtype}; the supported types "
                        "are: float64, float32, int64 and bool.")
    return Tensor(array)


def _shape(size, name="zeros"):
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    for s in size:
        if not isinstance(s, (int, np.integer)) or isinstance(s, bool):
            raise TypeError(f"{name}(): argument 'size' (position 1) must be tuple of ints, not "
                            f"{type(s).__name__}")
        if s < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: {list(size)}")
    return tuple(int(s) for s in size)


def zeros(*size, dtype=None, requires_grad=False):
    return Tensor(np.zeros(_shape(size, "zeros"), _resolve_dtype(dtype, _dtype.float32).numpy), requires_grad)


def ones(*size, dtype=None, requires_grad=False):
    return Tensor(np.ones(_shape(size, "ones"), _resolve_dtype(dtype, _dtype.float32).numpy), requires_grad)


def full(size, fill_value, dtype=None, requires_grad=False):
    default = _dtype.float32 if isinstance(fill_value, float) else (
        _dtype.bool_ if isinstance(fill_value, bool) else _dtype.int64)
    return Tensor(np.full(_shape((size,)), fill_value, _resolve_dtype(dtype, default).numpy), requires_grad)


def zeros_like(t, dtype=None, requires_grad=False):
    return Tensor(np.zeros(t._data.shape, _resolve_dtype(dtype, t.dtype).numpy), requires_grad)


def ones_like(t, dtype=None, requires_grad=False):
    return Tensor(np.ones(t._data.shape, _resolve_dtype(dtype, t.dtype).numpy), requires_grad)


def full_like(t, fill_value, dtype=None, requires_grad=False):
    return Tensor(np.full(t._data.shape, fill_value, _resolve_dtype(dtype, t.dtype).numpy), requires_grad)


def arange(start, end=None, step=1, dtype=None, requires_grad=False):
    if end is None:
        start, end = 0, start
    is_float = any(isinstance(v, float) for v in (start, end, step))
    dtype = _resolve_dtype(dtype, _dtype.float32 if is_float else _dtype.int64)
    return Tensor(np.arange(start, end, step).astype(dtype.numpy), requires_grad)


def linspace(start, end, steps, dtype=None, requires_grad=False):
    dtype = _resolve_dtype(dtype, _dtype.float32)
    return Tensor(np.linspace(start, end, steps).astype(dtype.numpy), requires_grad)


def rand(*size, dtype=None, requires_grad=False):
    """Uniform on [0, 1), from the generator seeded by ``manual_seed``."""
    dtype = _resolve_dtype(dtype, _dtype.float32)
    return Tensor(_generator.random(_shape(size, "rand")).astype(dtype.numpy), requires_grad)


def randn(*size, dtype=None, requires_grad=False):
    """Standard normal, from the generator seeded by ``manual_seed``."""
    dtype = _resolve_dtype(dtype, _dtype.float32)
    return Tensor(_generator.standard_normal(_shape(size, "randn")).astype(dtype.numpy), requires_grad)


def randint(low, high=None, size=(), dtype=None):
    if high is None:
        low, high = 0, low
    return Tensor(_generator.integers(low, high, size=_shape((size,))).astype(
        _resolve_dtype(dtype, _dtype.int64).numpy))


def randperm(n):
    return Tensor(_generator.permutation(n).astype(np.int64))
