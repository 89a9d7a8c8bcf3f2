"""How PyTorch's CPU kernels turn a generator's 32-bit words into numbers, number for number.

Each function takes a ``Generator`` (random.py) and draws the words PyTorch's kernel
draws, in the same order, and transforms them with the same arithmetic:

- a uniform float32 in [0, 1) is the low 24 bits of one word times 2^-24; a float64, the
  low 53 bits of two words (the first one high) times 2^-53;
- ``uniform_(a, b)`` is ``x * (b - a) + a``, rounded once (the compiler makes it a fused
  multiply-add, ``fma``);
- ``normal_`` (so ``randn``) on 16 elements and more, contiguous, draws all the uniforms
  first and transforms them 16 at a time with Box-Muller (``normal_fill``: the first 8 are
  the radii, the last 8 the angles); the float32 ``log``/``sin``/``cos`` are the vectorised
  ones of ``_avx_mathfun.py``, the float64 ones the C library's (Python's ``math``). Fewer
  elements, or a view that is not contiguous: one element at a time, each pair of
  uniforms giving two normal numbers, the second kept in the generator for the next draw;
- integers are ``word % range + low``, from one word when the range is below 2^28, else
  from two; ``randperm`` swaps with ``word % (n - i)``;
- ``bernoulli_(p)`` is ``uniform < p``; ``multinomial`` searches a cumulative sum (with
  replacement) or takes the largest ``p / Exp(1)`` (without).

The float32 numbers are PyTorch's to the bit; the float64 ``randn`` and ``normal_`` too where
the C library computes ``log``, ``cos`` and ``sin`` the same way (see CONTRIBUTING.md for the
measurements).

PyTorch counterpart: aten/src/ATen/core/TransformationHelper.h and
aten/src/ATen/core/DistributionsHelper.h (one number from one or two words),
aten/src/ATen/native/cpu/DistributionTemplates.h (the kernels),
aten/src/ATen/native/cpu/DistributionKernels.cpp, aten/src/ATen/native/cpu/MultinomialKernel.cpp,
aten/src/ATen/native/Distributions.cpp (``multinomial_out``) and
aten/src/ATen/native/TensorFactories.cpp (``randperm_cpu``).
"""
import math

import numpy as np

from ._avx_mathfun import fma as fma32, log256_ps, sincos256_ps

LOW_24_BITS, LOW_53_BITS = np.uint32(2**24 - 1), np.uint64(2**53 - 1)


# ------------------------------------------------------------------ helpers
def fma64(a, b, c):
    """a * b + c in float64, rounded once (C's ``fma``), where numpy would round a * b first.

    The product is split exactly into p + e (Dekker's two-product), p + c into s + t (Knuth's
    two-sum), and s + (t + e) is rounded once more: the exact result except in the rare cases
    where t + e itself lands across a tie (never seen, see CONTRIBUTING.md)."""
    a, b, c = (np.asarray(v, np.float64) for v in (a, b, c))
    with np.errstate(over="ignore", invalid="ignore"):          # inf and nan: see the last line
        p = a * b
        a_hi, a_lo = _split(a)
        b_hi, b_lo = _split(b)
        e = ((a_hi * b_hi - p) + a_hi * b_lo + a_lo * b_hi) + a_lo * b_lo
        s = p + c
        v = s - p
        t = (p - (s - v)) + (c - v)
        result = s + (t + e)
        return np.where(np.isfinite(result), result, p + c)   # no error terms to add to inf or nan


def _split(x):
    """x = hi + lo, each with at most 26 significant bits (Veltkamp's splitting)."""
    big = x * 134217729.0        # 2^27 + 1
    hi = big - (big - x)
    return hi, x - hi


_libm_log = np.frompyfunc(math.log, 1, 1)
_libm_log1p = np.frompyfunc(math.log1p, 1, 1)
_libm_cos = np.frompyfunc(math.cos, 1, 1)
_libm_sin = np.frompyfunc(math.sin, 1, 1)


def libm(function, x):
    """A float64 function of the C library (as PyTorch's scalar kernels call it), element by element:
    numpy's own ``log`` and ``log1p`` can differ from it in the last bit."""
    return function(x).astype(np.float64) if np.size(x) else np.zeros(np.shape(x))


def place(values, target):
    """``values``, drawn in the order PyTorch's TensorIterator walks ``target``'s memory (the
    dimension with the smallest stride innermost), laid out in ``target``'s shape: a transposed
    view is filled in the order of its memory, not row by row."""
    axes = sorted(range(target.ndim), key=lambda d: -target.strides[d] if target.shape[d] > 1 else 0)
    out = np.empty(target.shape, values.dtype)
    np.transpose(out, axes)[...] = values.reshape([target.shape[d] for d in axes])
    return out


# ------------------------------------------------------------------ uniform
def uniform_floats(generator, count, dtype):
    """``count`` uniform numbers in [0, 1): float32 from 24 bits of a word, float64 from 53 bits of
    two (TransformationHelper.h: uniform_real)."""
    if dtype == np.float64:
        return (generator._random64(count) & LOW_53_BITS).astype(np.float64) * 2.0**-53
    return (generator._random(count) & LOW_24_BITS).astype(np.float32) * np.float32(2.0**-24)


def uniform(generator, count, dtype, low=0.0, high=1.0):
    """U(low, high) in ``dtype`` (cpu/DistributionTemplates.h: uniform_kernel): x * (high - low) + low,
    fused, and ``low`` for a value that rounds up to ``high``."""
    dtype = np.dtype(dtype)
    low, high = dtype.type(low), dtype.type(high)
    fused = fma64 if dtype == np.float64 else fma32
    values = fused(uniform_floats(generator, count, dtype), high - low, low).astype(dtype)
    return np.where(values == high, low, values)


# ------------------------------------------------------------------ normal
def normal(generator, count, dtype, mean=0.0, std=1.0, contiguous=True):
    """N(mean, std^2) in ``dtype``, as PyTorch's CPU normal_kernel draws them: Box-Muller 16 at a
    time for 16 elements and more of a contiguous tensor, else one at a time."""
    dtype = np.dtype(dtype)
    if count >= 16 and contiguous:
        return normal_fill(generator, count, dtype, mean, std)
    return fma64(box_muller_one_by_one(generator, count), std, mean).astype(dtype)


def normal_fill(generator, count, dtype, mean, std):
    """cpu/DistributionTemplates.h: normal_fill. All the uniforms first; then each block of 16 becomes
    16 normal numbers; when ``count`` is not a multiple of 16, the last 16 elements are drawn again
    (16 new uniforms) and transformed as one more block."""
    fill_16 = normal_fill_16_float32 if dtype == np.float32 else normal_fill_16_float64
    values = uniform_floats(generator, count, dtype)
    blocks = count // 16 * 16
    values[:blocks] = fill_16(values[:blocks].reshape(-1, 16), mean, std).reshape(-1)
    if count % 16:
        values[-16:] = fill_16(uniform_floats(generator, 16, dtype).reshape(1, 16), mean, std).reshape(-1)
    return values


def normal_fill_16_float32(u, mean, std):
    """cpu/DistributionTemplates.h: NormalFill16, the AVX2 one for float: radius
    sqrt(-2 log(1 - u[:8])), angle 2 pi u[8:], then radius * (cos, sin) * std + mean (fused)."""
    f32 = np.float32
    radius = np.sqrt(f32(-2) * log256_ps(f32(1) - u[:, :8]))
    sin, cos = sincos256_ps(f32(2 * math.pi) * u[:, 8:])
    return np.concatenate([fma32(radius * cos, f32(std), f32(mean)),
                           fma32(radius * sin, f32(std), f32(mean))], axis=1)


def normal_fill_16_float64(u, mean, std):
    """cpu/DistributionTemplates.h: NormalFill16, the one for double, with the C library's log, cos
    and sin."""
    radius = np.sqrt(-2 * libm(_libm_log, 1 - u[:, :8]))
    angle = (2 * math.pi) * u[:, 8:]
    return np.concatenate([fma64(radius * libm(_libm_cos, angle), std, mean),
                           fma64(radius * libm(_libm_sin, angle), std, mean)], axis=1)


def box_muller_one_by_one(generator, count):
    """``count`` standard normal float64 numbers (DistributionsHelper.h: normal_distribution, in double).

    Two uniforms u1, u2 give r cos(theta) and r sin(theta), with r = sqrt(-2 log(1 - u2)) and
    theta = 2 pi u1; the sine waits in the generator and is the next number drawn, even by
    another call."""
    values = []
    if count and generator._next_double_normal is not None:
        values.append(generator._next_double_normal)
        generator._next_double_normal = None
    pairs = (count - len(values) + 1) // 2
    u = uniform_floats(generator, 2 * pairs, np.float64)
    radius = np.sqrt(-2.0 * libm(_libm_log1p, -u[1::2]))
    angle = (2.0 * math.pi) * u[0::2]
    cos, sin = radius * libm(_libm_cos, angle), radius * libm(_libm_sin, angle)
    values.extend(np.stack([cos, sin], axis=1).reshape(-1))
    if len(values) > count:                              # the last sine: for the next draw
        generator._next_double_normal = float(values.pop())
    return np.array(values, dtype=np.float64)


# ------------------------------------------------------------------ integers
def random_from_to(generator, count, span, low):
    """Integers in [low, low + span) as int64 (DistributionsHelper.h: uniform_int_from_to_distribution):
    ``word % span + low``, from one word, or from two when span >= 2^28."""
    words = generator._random64(count) if span >= 2**28 else generator._random(count).astype(np.uint64)
    return (words % np.uint64(span) + np.uint64(low % 2**64)).view(np.int64)


def random_full_range(generator, count):
    """Any int64 (``random_(-2**63, None)``): two words as a 64-bit number
    (TransformationHelper.h: uniform_int_full_range)."""
    return generator._random64(count).view(np.int64)


def random_of_dtype(generator, count, dtype):
    """``random_()`` with no bounds (TransformationHelper.h: uniform_int): [0, max] of an integer dtype,
    [0, 2^mantissa bits] of a float one, 0 or 1 for bool. Two words for int64 and float64, else one."""
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return (generator._random(count) & np.uint32(1)).astype(np.int64)
    span = 2 ** (np.finfo(dtype).nmant + 1) + 1 if dtype.kind == "f" else int(np.iinfo(dtype).max) + 1
    words = (generator._random64(count) if dtype in (np.float64, np.int64)
             else generator._random(count).astype(np.uint64))
    return (words % np.uint64(span)).astype(np.int64)


def randperm(generator, n):
    """A permutation of 0..n-1 (TensorFactories.cpp: randperm_cpu): for i = 0..n-2, swap element i
    with element i + word % (n - i); the words are drawn all at once, the swaps are a Python loop."""
    values = np.arange(n, dtype=np.int64)
    if n >= (2**32 - 1) // 20:                 # PyTorch's other branch, for n beyond any memory here
        raise RuntimeError(f"randperm: n={n} is too large for mini_autograd")
    offsets = generator._random(max(n - 1, 0)).astype(np.int64) % np.arange(n, 1, -1)
    for i, offset in enumerate(offsets.tolist()):
        j = i + offset
        values[i], values[j] = values[j], values[i]
    return values


# ------------------------------------------------------------------ bernoulli, exponential
def bernoulli(generator, count, p):
    """1 where a float64 uniform < p, else 0 (cpu/DistributionTemplates.h: bernoulli_kernel, for a number
    p; PyTorch's MKL kernel for this case is switched off in DistributionKernels.cpp)."""
    return uniform_floats(generator, count, np.float64) < p


def bernoulli_tensor(generator, probabilities):
    """1 where a uniform < p, element by element, with probabilities ``p`` (flat, in the order drawn):
    float64 uniforms for float64 p, float32 ones (one word each) for float32 p."""
    dtype = np.float64 if probabilities.dtype == np.float64 else np.float32
    return uniform_floats(generator, probabilities.size, dtype) < probabilities.astype(dtype)


def exponential(generator, count, lambd=1.0):
    """Exp(lambd) float64 numbers: -1 / lambd * log(1 - u) (TransformationHelper.h: exponential)."""
    u = uniform_floats(generator, count, np.float64)
    return (-1.0 / lambd) * libm(_libm_log1p, -u)


# ------------------------------------------------------------------ multinomial
def multinomial_with_replacement(generator, weights, num_samples):
    """``num_samples`` categories drawn from one row of weights
    (MultinomialKernel.cpp: multinomial_with_replacement_apply): the cumulative sum in the weights'
    dtype, divided by the total, the last set to 1; each sample is the first category whose
    cumulative weight reaches a float64 uniform."""
    cumulative = np.cumsum(weights, dtype=weights.dtype)            # one addition after another
    cumulative = cumulative / cumulative[-1]
    cumulative[-1] = 1
    u = uniform_floats(generator, num_samples, np.float64)
    return np.searchsorted(cumulative.astype(np.float64), u, side="left")


def multinomial_without_replacement(generator, rows, num_samples):
    """The categories of the ``num_samples`` largest ``weight / Exp(1)`` of each row, largest first
    (Distributions.cpp: multinomial_out, the Gumbel trick): a category of weight w comes first with
    probability w / total, and never twice. The exponentials are drawn for every element, in
    order, and rounded to the weights' dtype; one sample is the argmax, more are ``topk``'s, whose
    C++ sort leaves the categories of weight 0 (they tie at 0) in its own order (ops/sorting.py)."""
    from .ops.sorting import _topk_order
    q = exponential(generator, rows.size).astype(rows.dtype).reshape(rows.shape)
    keys = rows / q
    if num_samples == 1:
        return np.argmax(keys, axis=1)[:, None]
    return _topk_order(keys, num_samples, 1, True, True)
