"""Making tensors: from data, filled with a value, ranges, and seeded random numbers.

PyTorch counterpart: torch/csrc/utils/tensor_new.cpp (``torch.tensor``: dtype
inference, ragged-list errors) and the factory functions of ATen.
"""
import math
import numbers
import warnings

import numpy as np

from . import _dtype
from ._device import check_device
from . import _distributions
from .random import generator_or_default, manual_seed  # noqa: F401  (manual_seed: kept importable from here)
from ._tensor import Size, Tensor


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
    if isinstance(data, (bool, np.bool_)):
        return "bool", ()
    if isinstance(data, numbers.Integral):
        return "int64", ()
    if isinstance(data, numbers.Real):
        return "float", ()
    if isinstance(data, (list, tuple)):
        if len(data) == 0:
            return "float", (0,)
        kinds, shapes = zip(*(_infer_dtype(item, path + (i,)) for i, item in enumerate(data)), strict=True)
        for shape in shapes[1:]:
            if shapes[0] and not shape:
                raise TypeError("not a sequence")          # [[1], 2]: torch's words
            if shape and not shapes[0]:
                raise TypeError("'list' object cannot be interpreted as an integer")   # [1, [2]]
        for shape in shapes:
            if len(shape) != len(shapes[0]):
                raise ValueError(f"expected sequence of length {shapes[0][0] if shapes[0] else 0} at "
                                 f"dim {len(path) + 1} (got {shape[0] if shape else 0})")
            if shape != shapes[0]:
                dim = next(d for d, (a, b) in enumerate(zip(shapes[0], shape, strict=True)) if a != b)
                raise ValueError(f"expected sequence of length {shapes[0][dim]} at dim "
                                 f"{len(path) + 1 + dim} (got {shape[dim]})")
        order = ["bool", "uint8", "int8", "int16", "int32", "int64", "float32", "float64", "float"]
        return max(kinds, key=order.index), (len(data),) + tuple(shapes[0])
    if isinstance(data, str):
        raise TypeError(f"new(): invalid data type '{type(data).__name__}'")
    raise RuntimeError(f"Could not infer dtype of {type(data).__name__}")


def tensor(data, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """A new leaf tensor holding a copy of ``data`` (a number, nested lists, an array or a Tensor)."""
    check_device(device)
    if isinstance(data, np.ndarray):
        _check_numpy_strides(data)
    kind, _ = _infer_dtype(data)
    default = _dtype.float32 if kind == "float" else _dtype._BY_NAME[kind]
    if isinstance(data, np.ndarray):
        default = _dtype.from_numpy_dtype(data.dtype)
    dtype = _resolve_dtype(dtype, default)
    if isinstance(data, Tensor):
        warnings.warn("To copy construct from a tensor, it is recommended to use "
                      "sourceTensor.detach().clone() or sourceTensor.detach().clone().requires_grad_(True), "
                      "rather than torch.tensor(sourceTensor).", UserWarning, stacklevel=2)
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


def _check_numpy_strides(array):
    """PyTorch reads an array's memory through its strides, which must be whole, non-negative numbers of
    elements: torch/csrc/utils/tensor_numpy.h, tensor_from_numpy (for ``tensor``, ``as_tensor`` and
    ``from_numpy`` alike). A flipped array (``a[::-1]``) has a negative stride."""
    if any(stride % array.itemsize for stride in array.strides):
        raise ValueError("given numpy array strides not a multiple of the element byte size. "
                         "Copy the numpy array to reallocate the memory.")
    if any(stride < 0 for stride in array.strides):
        raise ValueError("At least one stride in the given numpy array is negative, and tensors with "
                         "negative strides are not currently supported. (You can probably work around "
                         "this by making a copy of your array  with array.copy().) ")


def from_numpy(array):
    """A tensor sharing memory with ``array`` (float32, float64, an integer dtype or bool)."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(array).__name__})")
    _check_numpy_strides(array)
    _dtype.from_numpy_dtype(array.dtype)
    if array.dtype not in _dtype._BY_NUMPY:
        raise TypeError(f"can't convert np.ndarray of type numpy.{array.dtype}; the supported types "
                        f"are: {_dtype.SUPPORTED_NUMPY_TYPES}.")
    return Tensor(array)


def _shape(size, name="zeros"):
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    for s in size:
        if isinstance(s, Tensor) and s.ndim == 0 and not s.dtype.is_floating_point:
            continue
        if not isinstance(s, (int, np.integer)) or isinstance(s, bool):
            raise TypeError(f"{name}(): argument 'size' (position 1) must be tuple of ints, not "
                            f"{type(s).__name__}")
        if s < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: {list(size)}")
    return tuple(int(s) for s in size)


def _factory_shape(name, size, device, kwargs):
    """The shape from ``zeros(2, 3)``, ``zeros((2, 3))`` or ``zeros(size=(2, 3))``, after the checks
    every factory makes: the device, and no keyword it does not know."""
    check_device(device)
    size_kw = kwargs.pop("size", None)
    if size_kw is not None:
        if size:
            raise TypeError(f"{name}() got multiple values for argument 'size'")
        size = (size_kw,)
    shape = _shape(size, name)
    _no_more(kwargs, name)
    return shape


def zeros(*size, dtype=None, device=None, requires_grad=False, **kwargs):
    shape = _factory_shape("zeros", size, device, kwargs)
    return Tensor(np.zeros(shape, _resolve_dtype(dtype, _dtype.float32).numpy), requires_grad)


def ones(*size, dtype=None, device=None, requires_grad=False, **kwargs):
    shape = _factory_shape("ones", size, device, kwargs)
    return Tensor(np.ones(shape, _resolve_dtype(dtype, _dtype.float32).numpy), requires_grad)


def empty(*size, dtype=None, device=None, requires_grad=False, **kwargs):
    """A tensor whose values are to be filled in (zeros here; PyTorch leaves memory as it was)."""
    shape = _factory_shape("empty", size, device, kwargs)
    return Tensor(np.zeros(shape, _resolve_dtype(dtype, _dtype.float32).numpy), requires_grad)


def _no_more(kwargs, name):
    kwargs.pop("layout", None), kwargs.pop("pin_memory", None), kwargs.pop("memory_format", None)
    if kwargs:
        raise TypeError(f"{name}() got an unexpected keyword argument '{next(iter(kwargs))}'")


def full(size, fill_value, dtype=None, device=None, requires_grad=False):
    check_device(device)
    if isinstance(fill_value, Tensor):
        fill_value = fill_value.item()
    default = _dtype.float32 if isinstance(fill_value, float) else (
        _dtype.bool_ if isinstance(fill_value, bool) else _dtype.int64)
    return Tensor(np.full(_shape((size,)), fill_value, _resolve_dtype(dtype, default).numpy), requires_grad)


def eye(n, m=None, dtype=None, device=None, requires_grad=False):
    """The identity matrix, n x n (or n x m)."""
    check_device(device)
    for name, value in (("n", n), ("m", m)):
        if value is not None and value < 0:
            raise RuntimeError(f"{name} must be greater or equal to 0, got {value}")
    return Tensor(np.eye(n, n if m is None else m, dtype=_resolve_dtype(dtype, _dtype.float32).numpy),
                  requires_grad)


def _like(t, values):
    """``values`` laid out as PyTorch's ``*_like`` lay out their result: as ``t`` (see ``_kept_layout``)."""
    from .ops.views import laid_out_like
    return laid_out_like(t._data, values)


def zeros_like(t, dtype=None, device=None, requires_grad=False):
    check_device(device)
    return Tensor(_like(t, np.zeros(t._data.shape, _resolve_dtype(dtype, t.dtype).numpy)), requires_grad)


def ones_like(t, dtype=None, device=None, requires_grad=False):
    check_device(device)
    return Tensor(_like(t, np.ones(t._data.shape, _resolve_dtype(dtype, t.dtype).numpy)), requires_grad)


def empty_like(t, dtype=None, device=None, requires_grad=False):
    """Zeros, as ``empty`` gives here."""
    return zeros_like(t, dtype, device, requires_grad)


def full_like(t, fill_value, dtype=None, device=None, requires_grad=False):
    check_device(device)
    return Tensor(_like(t, np.full(t._data.shape, fill_value, _resolve_dtype(dtype, t.dtype).numpy)),
                  requires_grad)


def rand_like(t, dtype=None, device=None, requires_grad=False, generator=None):
    """``rand`` in ``t``'s shape; drawn in the order of ``t``'s memory when ``t`` is dense, as PyTorch's
    ``empty_like(t).uniform_()`` keeps ``t``'s layout (a transposed ``t`` is filled column by column)."""
    check_device(device)
    generator = generator_or_default(generator, "rand_like")
    dtype = _resolve_dtype(dtype, t.dtype)
    check_floating(dtype, "check_uniform_bounds")
    values = _distributions.uniform(generator, t._data.size, dtype.numpy)
    return Tensor(_like(t, _distributions.place(values, _kept_layout(t._data))), requires_grad)


def randn_like(t, dtype=None, device=None, requires_grad=False, generator=None):
    """``randn`` in ``t``'s shape; drawn in the order of ``t``'s memory when ``t`` is dense (see
    ``rand_like``); then a transposed ``t`` is not contiguous, so its numbers come one at a time."""
    check_device(device)
    generator = generator_or_default(generator, "randn_like")
    dtype = _resolve_dtype(dtype, t.dtype)
    check_floating(dtype, "normal_kernel_cpu")
    layout = _kept_layout(t._data)
    values = _distributions.normal(generator, t._data.size, dtype.numpy, contiguous=layout.flags.c_contiguous)
    return Tensor(_like(t, _distributions.place(values, layout)), requires_grad)


def _kept_layout(array):
    """The layout ``empty_like`` gives in PyTorch (MemoryFormat::Preserve): ``array``'s own when its
    elements fill their memory without gaps (a transposed tensor), else row by row."""
    dims = sorted((d for d in range(array.ndim) if array.shape[d] != 1), key=lambda d: array.strides[d])
    step = array.itemsize
    for d in dims:
        if array.strides[d] != step:
            return np.empty(array.shape, array.dtype)
        step *= array.shape[d]
    return array


def check_floating(dtype, kernel):
    """PyTorch's error when a random kernel that draws floats is asked for another dtype."""
    if not dtype.is_floating_point:
        raise NotImplementedError(f'"{kernel}" not implemented for \'{dtype.scalar_name}\'')


def arange(start, end=None, step=1, dtype=None, device=None, requires_grad=False):
    check_device(device)
    if end is None:
        start, end = 0, start
    is_float = any(isinstance(v, float) for v in (start, end, step))
    dtype = _resolve_dtype(dtype, _dtype.float32 if is_float else _dtype.int64)
    return Tensor(np.arange(start, end, step).astype(dtype.numpy), requires_grad)


def linspace(start, end, steps, dtype=None, device=None, requires_grad=False):
    """``steps`` evenly spaced values from ``start`` to ``end``, computed in ``dtype`` as PyTorch does:
    the first half as start + i * step, the second half back from the end (RangeFactoriesKernel.cpp).
    (PyTorch's vectorised kernel can still differ in the last bit of some values.)"""
    check_device(device)
    if not isinstance(steps, (int, np.integer)) or isinstance(steps, bool):
        raise TypeError(f"linspace(): argument 'steps' must be int, not {type(steps).__name__}")
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    dtype = _resolve_dtype(dtype, _dtype.float32)
    if not dtype.is_floating_point:
        return Tensor(np.linspace(start, end, steps).astype(dtype.numpy), requires_grad)
    kind = dtype.numpy.type
    first, last = kind(start), kind(end)
    if steps == 1:
        return Tensor(np.array([first], dtype.numpy), requires_grad)
    step = kind((last - first) / kind(steps - 1))
    index = np.arange(steps).astype(dtype.numpy)
    values = np.where(np.arange(steps) < steps // 2, first + step * index,
                      last - step * (kind(steps - 1) - index)).astype(dtype.numpy)
    return Tensor(values, requires_grad)


def rand(*size, dtype=None, device=None, requires_grad=False, generator=None, **kwargs):
    """Uniform on [0, 1), from ``generator`` (by default the one ``manual_seed`` seeds): PyTorch's
    ``empty(size).uniform_(0, 1)`` (TensorFactories.cpp), so PyTorch's numbers."""
    generator = generator_or_default(generator, "rand")
    shape = _factory_shape("rand", size, device, kwargs)
    dtype = _resolve_dtype(dtype, _dtype.float32)
    check_floating(dtype, "check_uniform_bounds")
    values = _distributions.uniform(generator, _count(shape), dtype.numpy)
    return Tensor(values.reshape(shape), requires_grad)


def randn(*size, dtype=None, device=None, requires_grad=False, generator=None, **kwargs):
    """Standard normal, from ``generator`` (by default the one ``manual_seed`` seeds): PyTorch's
    ``empty(size).normal_(0, 1)`` (TensorFactories.cpp), so PyTorch's numbers."""
    generator = generator_or_default(generator, "randn")
    shape = _factory_shape("randn", size, device, kwargs)
    dtype = _resolve_dtype(dtype, _dtype.float32)
    check_floating(dtype, "normal_kernel_cpu")
    values = _distributions.normal(generator, _count(shape), dtype.numpy)
    return Tensor(values.reshape(shape), requires_grad)


def _count(shape):
    return math.prod(shape)


def randint(*args, size=None, generator=None, dtype=None, device=None, requires_grad=False, low=None,
            high=None):
    """Integers drawn uniformly from [low, high): ``randint(high, size)`` or ``randint(low, high, size)``."""
    check_device(device)
    args = list(args)
    if size is None and args and isinstance(args[-1], (tuple, list)):
        size = args.pop()
    if len(args) == 2:
        low, high = args
    elif len(args) == 1:
        if high is None:
            high = args[0]
        else:
            low = args[0]
    elif args:
        raise TypeError("randint() received an invalid combination of arguments")
    if size is None or high is None:
        raise TypeError("randint() missing required arguments: 'high' and 'size'")
    low = 0 if low is None else int(low)
    high = int(high)
    from .ops.random import random_values
    target = np.empty(_shape((size,), "randint"), _resolve_dtype(dtype, _dtype.int64).numpy)
    values = random_values(target, low, high, generator=generator_or_default(generator, "randint"))
    return Tensor(values, requires_grad)


def randperm(n, generator=None, dtype=None, device=None, requires_grad=False):
    """A random permutation of 0, ..., n - 1: PyTorch's (TensorFactories.cpp: randperm_cpu)."""
    generator = generator_or_default(generator, "randperm")
    check_device(device)
    n = _shape((n,), "randperm")[0]
    values = _distributions.randperm(generator, n)
    return Tensor(values.astype(_resolve_dtype(dtype, _dtype.int64).numpy), requires_grad)


def legacy_new(args, dtype):
    """``torch.Tensor(...)`` / ``torch.FloatTensor(...)``, PyTorch's legacy constructors.

    No argument: an empty tensor; integers or a ``torch.Size``: a tensor of that shape (zeros
    here; PyTorch leaves it uninitialised); a sequence: its values, converted to ``dtype``.
    """
    if not args:
        return np.zeros((0,), dtype.numpy)
    if len(args) == 1 and isinstance(args[0], Tensor):
        return args[0]._data
    if len(args) == 1 and isinstance(args[0], Size):           # torch.Tensor(x.shape)
        args = tuple(args[0])
    if all(isinstance(a, (int, np.integer)) and not isinstance(a, bool) for a in args):
        return np.zeros(_shape(args, "new"), dtype.numpy)
    if len(args) == 1 and isinstance(args[0], (list, tuple, np.ndarray)):
        _infer_dtype(args[0])                     # PyTorch's checks of ragged lists
        return np.array(_unwrap(args[0]), dtype=dtype.numpy)
    if len(args) == 1 and isinstance(args[0], (numbers.Number, np.number)):
        raise TypeError(f"new(): data must be a sequence (got {type(args[0]).__name__})")
    raise TypeError("new() received an invalid combination of arguments - got (" +
                    ", ".join(type(a).__name__ for a in args) + ")")


def _legacy_class(name, dtype):
    """``torch.FloatTensor`` and friends: calling one makes a tensor of that dtype."""

    def new(*args, **kwargs):
        if kwargs:
            raise TypeError(f"new() received an invalid combination of arguments - got an unexpected "
                            f"keyword argument '{next(iter(kwargs))}'")
        return Tensor(legacy_new(args, dtype))

    new.__name__ = new.__qualname__ = name
    new.__doc__ = f"``torch.{name}(...)``: the legacy constructor of {dtype!r} tensors."
    return new


FloatTensor = _legacy_class("FloatTensor", _dtype.float32)
DoubleTensor = _legacy_class("DoubleTensor", _dtype.float64)
LongTensor = _legacy_class("LongTensor", _dtype.int64)
IntTensor = _legacy_class("IntTensor", _dtype.int32)
ByteTensor = _legacy_class("ByteTensor", _dtype.uint8)
BoolTensor = _legacy_class("BoolTensor", _dtype.bool_)
