"""Random draws shaped by tensors: ``normal``, ``bernoulli``, ``multinomial`` and the in-place fillers.

Each takes ``generator=`` (a ``torch.Generator``; by default the one ``manual_seed``
seeds) and makes PyTorch's checks, in PyTorch's order, before it draws; the numbers
are PyTorch's (``_distributions.py`` has its kernels). ``torch.normal`` with a tensor
mean or std records a node, ``NormalBackward1`` to ``NormalBackward3``, whose
gradient is zero: the draw is not a differentiable function of its parameters
(tools/autograd/derivatives.yaml, ``normal.Tensor_float`` and the others).

PyTorch counterpart: aten/src/ATen/native/Distributions.cpp; aten/src/ATen/native/DistributionTemplates.h
(``uniform_impl_``, ``normal_impl_``, ``random_from_to_impl``, ``bernoulli_impl_`` and their checks).
"""
import math
import numbers
import warnings

import numpy as np

from .. import _distributions as draw, _dtype
from ..creation import check_floating
from ..random import generator_or_default
from .._tensor import Tensor
from ..autograd.function import Function
from ._helpers import check_broadcast_shapes, check_tensor


def _zeros_of(shape, grad):
    return Tensor(np.zeros(shape, grad._data.dtype))


def _standard_normal(shape, dtype, generator):
    """``empty(shape).normal_(0, 1)``, contiguous: what the tensor overloads of ``normal`` start from."""
    count = math.prod(shape)
    return draw.normal(generator, count, dtype).reshape(shape)


class NormalTensorFloat(Function):
    """``normal(mean_tensor, std_float)``: ``empty_like(mean).normal_(0, std)``, then ``+ mean``."""
    node_name = "NormalBackward1"

    @staticmethod
    def forward(ctx, mean, std, generator):
        ctx.mean_shape = mean._data.shape
        dtype = mean._data.dtype
        z = draw.normal(generator, mean._data.size, dtype, 0.0, std).reshape(mean._data.shape)
        return Tensor(np.asarray(z + mean._data, dtype))

    @staticmethod
    def backward(ctx, grad):
        return _zeros_of(ctx.mean_shape, grad), None, None


class NormalFloatTensor(Function):
    """``normal(mean_float, std_tensor)``: ``empty_like(std).normal_()``, then ``* std + mean``."""
    node_name = "NormalBackward2"

    @staticmethod
    def forward(ctx, mean, std, generator):
        ctx.std_shape = std._data.shape
        dtype = std._data.dtype
        z = _standard_normal(std._data.shape, dtype, generator)
        return Tensor(np.asarray(z * std._data + dtype.type(mean), dtype))

    @staticmethod
    def backward(ctx, grad):
        return None, _zeros_of(ctx.std_shape, grad), None


class NormalTensorTensor(Function):
    """``normal(mean_tensor, std_tensor)``, broadcast together, in mean's dtype: ``normal_()``, then
    ``* std`` and ``+ mean``, each rounded to that dtype."""
    node_name = "NormalBackward3"

    @staticmethod
    def forward(ctx, mean, std, generator):
        ctx.mean_shape, ctx.std_shape = mean._data.shape, std._data.shape
        dtype = mean._data.dtype
        z = _standard_normal(np.broadcast_shapes(mean._data.shape, std._data.shape), dtype, generator)
        scaled = np.asarray(z * std._data, dtype)
        return Tensor(np.asarray(scaled + mean._data, dtype))

    @staticmethod
    def backward(ctx, grad):
        return _zeros_of(ctx.mean_shape, grad), _zeros_of(ctx.std_shape, grad), None


def check_std(std):
    """PyTorch's error for a negative standard deviation (a number)."""
    if std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std:g}")


def _check_std_tensor(std):
    if std._data.size and (std._data < 0).any():
        raise RuntimeError("normal expects all elements of std >= 0.0")


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
    generator = generator_or_default(generator, "normal")
    mean_is_tensor, std_is_tensor = isinstance(mean, Tensor), isinstance(std, Tensor)
    if not mean_is_tensor and not std_is_tensor:
        if size is None:
            raise TypeError(f"normal() received an invalid combination of arguments - got "
                            f"({type(mean).__name__}, {type(std).__name__}), but expected one of:\n"
                            + _NORMAL_SIGNATURES)
        from ..creation import _resolve_dtype, _shape
        from .._device import check_device
        check_device(device)
        dtype = _resolve_dtype(dtype, _dtype.float32)
        shape = _shape((size,), "normal")
        values = normal_values(np.empty(shape, dtype.numpy), mean, std, generator=generator)
        return Tensor(values, requires_grad)
    if size is not None:
        raise TypeError("normal() received an invalid combination of arguments: size= goes with a float "
                        "mean and std only")
    if mean_is_tensor and std_is_tensor:
        check_floating(mean.dtype, "normal_kernel_cpu")
        if mean._data.shape != std._data.shape:
            check_broadcast_shapes(mean._data.shape, std._data.shape)
        _check_std_tensor(std)
        return NormalTensorTensor.apply(mean, std, generator)
    if mean_is_tensor:
        check_floating(mean.dtype, "normal_kernel_cpu")
        if not isinstance(std, numbers.Real):
            check_tensor(std, "normal", "std", 2)
        check_std(std)
        return NormalTensorFloat.apply(mean, std, generator)
    check_floating(std.dtype, "normal_kernel_cpu")
    _check_std_tensor(std)
    return NormalFloatTensor.apply(float(mean), std, generator)


# ------------------------------------------------------------------ the in-place fillers' values
# Each returns the array ``target.xxx_(...)`` writes, laid out as ``target`` (a numpy array, maybe a
# view), after PyTorch's checks.
def _bounds_message(name, dtype):
    return f"{name} is out of bounds for {dtype.c_name}"


def uniform_values(target, low, high, *, generator):
    """``target.uniform_(low, high)`` (native/DistributionTemplates.h: uniform_impl_)."""
    dtype = _dtype.from_numpy_dtype(target.dtype)
    check_floating(dtype, "check_uniform_bounds")
    lowest, highest = float(np.finfo(target.dtype).min), float(np.finfo(target.dtype).max)
    for name, value in (("from", low), ("to", high)):
        if not lowest <= value <= highest:
            raise RuntimeError(_bounds_message(name, dtype))
    if low > high:
        raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found from={low:g} > "
                           f"to={high:g}")
    if high - low > highest:
        raise RuntimeError(f"uniform_ expects to-from <= std::numeric_limits<{dtype.scalar_name}>::max(), "
                           f"but found to={high:g} and from={low:g} which result in to-from to exceed the "
                           "limit")
    values = draw.uniform(generator, target.size, target.dtype, low, high)
    return draw.place(values, target)


def normal_values(target, mean, std, *, generator):
    """``target.normal_(mean, std)`` (native/DistributionTemplates.h: normal_impl_, then the kernel)."""
    check_std(std)
    if target.size == 0:
        return target.copy()
    check_floating(_dtype.from_numpy_dtype(target.dtype), "normal_kernel_cpu")
    values = draw.normal(generator, target.size, target.dtype, mean, std, target.flags.c_contiguous)
    return draw.place(values, target)


def bernoulli_values(target, p, *, generator):
    """``target.bernoulli_(p)``: 1 with probability ``p`` (a number, or a tensor broadcast to target)."""
    if target.size == 0:
        return target.copy()
    if isinstance(p, Tensor):
        probabilities = p.detach().expand(*target.shape)._data        # PyTorch's error if p does not fit
        if not p.dtype.is_floating_point:
            raise NotImplementedError(f'"bernoulli_tensor_cpu_p_" not implemented for '
                                      f"'{p.dtype.scalar_name}'")
        probabilities = _in_iteration_order(probabilities, target)
        bad = ~((probabilities >= 0) & (probabilities <= 1))
        if bad.any():      # PyTorch checks each p as it draws: the ones before the bad one are drawn
            draw.bernoulli_tensor(generator, probabilities[:np.argmax(bad)])
            raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this "
                               "error message be improved?  If so, please report an enhancement request "
                               "to PyTorch.)")
        ones = draw.bernoulli_tensor(generator, probabilities)
    else:
        if not 0 <= p <= 1:
            raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={p:g}")
        ones = draw.bernoulli(generator, target.size, p)
    return draw.place(ones.astype(target.dtype), target)


def _in_iteration_order(values, target):
    """``values`` (shaped as ``target``) flattened in the order ``place`` fills ``target``."""
    axes = sorted(range(target.ndim), key=lambda d: -target.strides[d] if target.shape[d] > 1 else 0)
    return np.transpose(values, axes).reshape(-1)


def random_values(target, low=None, high=None, *, generator, bounded=True):
    """``target.random_(low, high)``: integers in [low, high)
    (native/DistributionTemplates.h: random_from_to_impl); ``high=None``: up to the dtype's largest;
    ``bounded=False``: ``random_()``, the dtype's whole range (random_impl)."""
    if not bounded:
        ints = draw.random_of_dtype(generator, target.size, target.dtype)
    elif high is not None:
        ints = _random_from_to(target, low, high, generator)
    elif low != -2**63:
        ints = _random_from(target, low, generator)
    else:                                   # random_(-2**63, None): any int64
        ints = draw.random_full_range(generator, target.size)
    return draw.place(ints.astype(target.dtype), target)


def _random_from_to(target, low, high, generator):
    dtype = _dtype.from_numpy_dtype(target.dtype)
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    if dtype.is_floating_point:
        low, high = _update_from(low, dtype), _update_to(high, dtype)
        if low >= high:
            raise RuntimeError(f"random_ expects 'from' casted to dtype to be less than 'to' casted to "
                               f"dtype, but got from={low} >= to={high}")
    _check_from_to_in_range(low, high - 1, dtype)
    return draw.random_from_to(generator, target.size, high - low, low)


def _random_from(target, low, generator):
    dtype = _dtype.from_numpy_dtype(target.dtype)
    if dtype.is_floating_point:
        high_inclusive = 2 ** (np.finfo(target.dtype).nmant + 1)
        low = _update_from(low, dtype)
        if low >= high_inclusive:
            raise RuntimeError(f"random_ expects 'from' casted to dtype to be less than or equal to 'to_inc' "
                               f"casted to dtype, but got from={low} > to_inc={high_inclusive}")
    else:
        high_inclusive = 1 if dtype is _dtype.bool_ else int(np.iinfo(target.dtype).max)
    _check_from_to_in_range(low, high_inclusive, dtype)
    return draw.random_from_to(generator, target.size, high_inclusive - low + 1, low)


_RANDOM_SIGNATURES = (" * (*, torch.Generator generator = None)\n"
                      " * (int from, int to, *, torch.Generator generator = None)\n"
                      " * (int to, *, torch.Generator generator = None)\n")


def random_bounds(args, kwargs):
    """``(from, to)`` as PyTorch's three signatures of ``x.random_(...)`` read the arguments:
    ``random_(to)``, ``random_(from, to)`` (``to`` may be None: up to the dtype's largest), and
    ``random_()``, which gives ``()``."""
    if len(args) > 2:
        raise TypeError(f"random_() takes 2 positional arguments but {len(args)} were given")
    names = ("from", "to") if len(args) == 2 or "to" in kwargs else ("to",)
    bounds = dict(zip(names, args, strict=False))
    unknown, twice = set(kwargs) - {"from", "to"}, set(kwargs) & set(bounds)
    bounds.update(kwargs)
    if not bounds:
        return ()
    low, high = bounds.get("from", 0), bounds.get("to", "missing")
    if unknown or twice or not _is_int(low) or not (_is_int(high) or (high is None and "from" in bounds)):
        got = ", ".join(type(a).__name__ for a in args) + (", " if args and kwargs else "")
        got += "".join(f"{name}={type(value).__name__}, " for name, value in sorted(kwargs.items()))
        raise TypeError(f"random_() received an invalid combination of arguments - got ({got}), but expected "
                        f"one of:\n" + _RANDOM_SIGNATURES)
    return int(low), None if high is None else int(high)


def _is_int(value):
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def _check_from_to_in_range(low, high_inclusive, dtype):
    """native/DistributionTemplates.h: check_from_to_in_range: an error outside an integer dtype, a warning
    outside the integers a float dtype holds exactly."""
    if dtype.is_floating_point:
        digits = np.finfo(dtype.numpy).nmant + 1
        for name, value in (("from", low), ("to - 1", high_inclusive)):
            if value < -(2**digits) or value > 2**digits:
                warnings.warn(f"{name} is out of bounds [-(2^{digits}), 2^{digits}]. Due to precision "
                              f"limitations {dtype.c_name} can support discrete uniform distribution only "
                              "within this range. This warning will become an error in version 1.7 release, "
                              "please fix the code in advance", UserWarning, stacklevel=6)
        return
    lowest, highest = (0, 1) if dtype is _dtype.bool_ else (int(np.iinfo(dtype.numpy).min),
                                                             int(np.iinfo(dtype.numpy).max))
    for name, value in (("from", low), ("to - 1", high_inclusive)):
        if not lowest <= value <= highest:
            raise RuntimeError(_bounds_message(name, dtype))


def _update_from(low, dtype):
    """native/DistributionTemplates.h: update_from: ``low``, or the next integer up that its float does not
    round below."""
    low_plus_1 = int(dtype.numpy.type(low + 1))
    if low_plus_1 < low:
        low = low_plus_1 + (1 << (abs(low + 1).bit_length() - 1 - np.finfo(dtype.numpy).nmant))
    return low


def _update_to(high, dtype):
    """native/DistributionTemplates.h: update_to: ``high``, or the next integer down that its float does not
    round up to."""
    high_minus_1 = int(dtype.numpy.type(high - 1))
    if high_minus_1 >= high:
        high = high_minus_1 - (1 << (abs(high - 1).bit_length() - 1 - np.finfo(dtype.numpy).nmant))
    return high


# ------------------------------------------------------------------ bernoulli, multinomial
def bernoulli(input, p=None, *, generator=None):
    """0 or 1 drawn for each element: 1 with probability ``input`` (or ``p``, when given)."""
    check_tensor(input, "bernoulli")
    generator = generator_or_default(generator, "bernoulli")
    result = np.empty(input._data.shape, input._data.dtype)          # contiguous, as PyTorch's
    return Tensor(bernoulli_values(result, input if p is None else p, generator=generator))


def multinomial(input, num_samples, replacement=False, *, generator=None):
    """Indices drawn from the categories of each row of ``input``, weighted by its (non-negative) values."""
    check_tensor(input, "multinomial")
    generator = generator_or_default(generator, "multinomial")
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
    rows = input._data.reshape(-1, categories)
    if replacement and num_samples > 1:      # MultinomialKernel.cpp: each row checked, then drawn from
        samples = np.empty((len(rows), num_samples), dtype=np.int64)
        for i, row in enumerate(rows):
            _check_weights(row)
            samples[i] = draw.multinomial_with_replacement(generator, row, num_samples)
    else:      # Distributions.cpp: without replacement, or one sample
        if not np.isfinite(rows).all() or (rows < 0).any():
            raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
        if (rows.sum(axis=1) == 0).any():
            raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
        samples = draw.multinomial_without_replacement(generator, rows, num_samples)
    return Tensor(samples.reshape(input.shape[:-1] + (num_samples,)))


def _check_weights(row):
    """The checks of a row in MultinomialKernel.cpp, weight after weight: the first bad one names the
    error."""
    bad = ~(row >= 0) | ~np.isfinite(row)
    if bad.any():
        first = row[np.argmax(bad)]
        raise RuntimeError("invalid multinomial distribution (encountering probability entry "
                           + ("< 0)" if not first >= 0 else "= infinity or NaN)"))
    if not row.sum() > 0:
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
