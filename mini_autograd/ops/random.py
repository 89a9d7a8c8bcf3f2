"""Random draws shaped by tensors: ``normal``, ``bernoulli``, ``multinomial`` and the in-place fillers.

Each takes ``generator=`` (a ``torch.Generator``; by default the one
``manual_seed`` seeds). ``torch.normal`` with a tensor mean or std records a node,
``NormalBackward1`` to ``NormalBackward3``, whose gradient is zero: the draw is
not a differentiable function of its parameters (tools/autograd/derivatives.yaml,
``normal.Tensor_float`` and the others).

PyTorch counterpart: aten/src/ATen/native/Distributions.cpp.
"""
import numbers

import numpy as np

from .. import _dtype
from ..creation import check_floating
from ..random import numpy_rng
from .._tensor import Tensor
from ..autograd.function import Function
from ._helpers import check_broadcast_shapes, check_tensor


def _zeros_of(shape, grad):
    return Tensor(np.zeros(shape, grad._data.dtype))


class NormalTensorFloat(Function):
    """``normal(mean_tensor, std_float)``: mean + std * z."""
    node_name = "NormalBackward1"

    @staticmethod
    def forward(ctx, mean, std, rng):
        ctx.mean_shape = mean._data.shape
        z = rng.standard_normal(mean._data.shape).astype(mean._data.dtype)
        return Tensor(np.asarray(z * mean._data.dtype.type(std) + mean._data))

    @staticmethod
    def backward(ctx, grad):
        return _zeros_of(ctx.mean_shape, grad), None, None


class NormalFloatTensor(Function):
    """``normal(mean_float, std_tensor)``."""
    node_name = "NormalBackward2"

    @staticmethod
    def forward(ctx, mean, std, rng):
        ctx.std_shape = std._data.shape
        z = rng.standard_normal(std._data.shape).astype(std._data.dtype)
        return Tensor(np.asarray(z * std._data + std._data.dtype.type(mean)))

    @staticmethod
    def backward(ctx, grad):
        return None, _zeros_of(ctx.std_shape, grad), None


class NormalTensorTensor(Function):
    """``normal(mean_tensor, std_tensor)``, broadcast together; the result has mean's dtype."""
    node_name = "NormalBackward3"

    @staticmethod
    def forward(ctx, mean, std, rng):
        ctx.mean_shape, ctx.std_shape = mean._data.shape, std._data.shape
        dtype = mean._data.dtype
        shape = np.broadcast_shapes(mean._data.shape, std._data.shape)
        z = rng.standard_normal(shape).astype(dtype)
        return Tensor(np.asarray(z * std._data.astype(dtype) + mean._data))

    @staticmethod
    def backward(ctx, grad):
        return _zeros_of(ctx.mean_shape, grad), _zeros_of(ctx.std_shape, grad), None




def check_std(std):
    """PyTorch's error for a negative standard deviation (a number)."""
    if std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std:g}")


_NORMAL_SIGNATURES = (
    " * (Tensor mean, Tensor std, *, torch.Generator generator = None, Tensor out = None)\n"
    " * (Tensor mean, float std = 1, *, torch.Generator generator = None, Tensor out = None)\n"
    " * (float mean, Tensor std, *, torch.Generator generator = None, Tensor out = None)\n"
    " * (float mean, float std, tuple of ints size, *, torch.Generator generator = None, Tensor out = None, "
    "torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, "
    "bool pin_memory = False, bool requires_grad = False)\n")


def normal(mean, std=1.0, size=None, *, generator=None, dtype=None, device=None, requires_grad=False,
           out=None, layout=None, pin_memory=False):
    """Draws from N(mean, std**2): ``normal(mean_tensor, std_tensor)``, ``normal(mean_tensor, 1.0)``,
    ``normal(0.0, std_tensor)`` or ``normal(0.0, 1.0, size=(2, 3))``."""
    rng = numpy_rng(generator, "normal")
    mean_is_tensor, std_is_tensor = isinstance(mean, Tensor), isinstance(std, Tensor)
    if not mean_is_tensor and not std_is_tensor:
        if size is None:
            raise TypeError(f"normal() received an invalid combination of arguments - got "
                            f"({type(mean).__name__}, {type(std).__name__}), but expected one of:\n"
                            + _NORMAL_SIGNATURES)
        from ..creation import _resolve_dtype, _shape
        from .._device import check_device
        check_device(device)
        check_std(std)
        dtype = _resolve_dtype(dtype, _dtype.float32)
        shape = _shape((size,), "normal")
        z = rng.standard_normal(shape).astype(dtype.numpy)
        values = z * dtype.numpy.type(std) + dtype.numpy.type(mean)
        return Tensor(np.asarray(values, dtype.numpy), requires_grad)
    if size is not None:
        raise TypeError("normal() received an invalid combination of arguments: size= goes with a float "
                        "mean and std only")
    if mean_is_tensor and std_is_tensor:
        check_floating(mean.dtype, "normal_kernel_cpu")
        if mean._data.shape != std._data.shape:
            check_broadcast_shapes(mean._data.shape, std._data.shape)
        if std._data.size and (std._data < 0).any():
            raise RuntimeError("normal expects all elements of std >= 0.0")
        return NormalTensorTensor.apply(mean, std, rng)
    if mean_is_tensor:
        check_floating(mean.dtype, "normal_kernel_cpu")
        if not isinstance(std, numbers.Real):
            check_tensor(std, "normal", "std", 2)
        check_std(std)
        return NormalTensorFloat.apply(mean, std, rng)
    check_floating(std.dtype, "normal_kernel_cpu")
    if std._data.size and (std._data < 0).any():
        raise RuntimeError("normal expects all elements of std >= 0.0")
    return NormalFloatTensor.apply(float(mean), std, rng)


def bernoulli(input, p=None, *, generator=None):
    """0 or 1 drawn for each element: 1 with probability ``input`` (or ``p``, when given)."""
    check_tensor(input, "bernoulli")
    if p is not None:
        return Tensor(np.empty_like(input._data)).bernoulli_(p, generator=generator)
    probabilities = input._data
    if probabilities.size and ((probabilities < 0) | (probabilities > 1) | np.isnan(probabilities)).any():
        raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error "
                           "message be improved?  If so, please report an enhancement request to PyTorch.)")
    draws = numpy_rng(generator, "bernoulli").random(probabilities.shape) < probabilities
    return Tensor(draws.astype(input._data.dtype))


def bernoulli_draws(tensor, p, generator):
    """The 0/1 values ``tensor.bernoulli_(p)`` writes, in the tensor's dtype."""
    if isinstance(p, Tensor):
        probabilities = p._data
        if probabilities.size and ((probabilities < 0) | (probabilities > 1)).any():
            raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.")
    else:
        if not 0 <= p <= 1:
            raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={p:g}")
        probabilities = p
    rng = numpy_rng(generator, "bernoulli_")
    return (rng.random(tensor._data.shape) < probabilities).astype(tensor._data.dtype)


def random_draws(tensor, low, high, generator):
    """The integers ``tensor.random_(from, to)`` writes: uniform on [low, high), or the dtype's range."""
    dtype = tensor._data.dtype
    if high is None and low != 0 and low is not None:
        low, high = 0, low                 # random_(to)
    low = 0 if low is None else int(low)
    if high is None:
        if dtype == np.bool_:
            high = 2
        elif dtype.kind == "f":
            high = 2 ** (np.finfo(dtype).nmant + 1) + 1
        else:
            high = int(np.iinfo(dtype).max) + 1
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    rng = numpy_rng(generator, "random_")
    return rng.integers(low, high, size=tensor._data.shape, dtype=np.int64 if high <= 2**63 else np.uint64
                        ).astype(dtype)


def multinomial(input, num_samples, replacement=False, *, generator=None):
    """Indices drawn from the categories of each row of ``input``, weighted by its (non-negative) values."""
    check_tensor(input, "multinomial")
    if input.ndim not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if not input.dtype.is_floating_point:
        raise RuntimeError(f"multinomial only supports floating-point dtypes for input, got: "
                           f"{input.dtype.scalar_name}")
    if num_samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    categories = input.shape[-1]
    if not replacement and num_samples > categories:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without replacement")
    rows = input._data.reshape(-1, categories).astype(np.float64)
    if not np.isfinite(rows).all() or (rows < 0).any():
        raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    totals = rows.sum(axis=1)
    if (totals <= 0).any():
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    rng = numpy_rng(generator, "multinomial")
    if replacement:
        samples = np.stack([rng.choice(categories, size=num_samples, p=row / total)
                            for row, total in zip(rows, totals, strict=True)])
    else:
        # PyTorch's way (Distributions.cpp): the largest p / E with E ~ Exp(1); categories of
        # weight 0 come last, so they are drawn once the others are used up
        keys = rows / rng.standard_exponential(rows.shape)
        samples = np.argsort(-keys, axis=1, kind="stable")[:, :num_samples]
    return Tensor(samples.reshape(input.shape[:-1] + (num_samples,)).astype(np.int64))
