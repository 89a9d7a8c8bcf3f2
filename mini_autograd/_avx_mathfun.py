"""The float32 ``log`` and ``sin``/``cos`` that PyTorch's ``randn`` uses on x86-64 CPUs, step for step.

For 16 elements and more, PyTorch's CPU ``normal_`` on float32 (so ``torch.randn``)
turns uniform numbers into normal ones 16 at a time with AVX2 instructions, and
takes ``log`` and ``sin``/``cos`` from avx_mathfun.h (Julien Pommier's Cephes-based
polynomials), not from the C library. The functions below are those, operation by
operation in float32, so that ``randn`` gives PyTorch's bits.

One thing is not in the header: the compiler (GCC, with ``-mfma``) fuses a
multiplication and the addition after it into one fused multiply-add (``fma``: one
rounding instead of two). Which pairs it fused was measured against torch 2.13 (every
float32 input of both functions, through ``torch.randn``): the Horner steps of each
polynomial, ``y * z + e * q1`` in ``log``, the three steps of the range reduction,
``y * z - z / 2`` and ``y2 * x + x`` in ``sin``/``cos``. They are written ``fma`` here.

PyTorch counterpart: aten/src/ATen/native/cpu/avx_mathfun.h (``log256_ps``, ``sincos256_ps``),
used by ``NormalFill16`` in aten/src/ATen/native/cpu/DistributionTemplates.h.
"""
import numpy as np

f32 = np.float32

# Cephes' log: log(x) = log(m) + e * log(2), m in [sqrt(1/2), sqrt(2)), log(1 + x) ~ x - x^2 / 2 + x^3 P(x)
LOG_P = [f32(c) for c in (7.0376836292E-2, -1.1514610310E-1, 1.1676998740E-1, -1.2420140846E-1,
                          1.4249322787E-1, -1.6668057665E-1, 2.0000714765E-1, -2.4999993993E-1,
                          3.3333331174E-1)]
LOG_Q1, LOG_Q2 = f32(-2.12194440e-4), f32(0.693359375)    # log(2) = Q2 - Q1, Q2 exact in few bits
SQRT_HALF = f32(0.707106781186547524)

# Cephes' sin/cos: x reduced to [-pi/4, pi/4] by j * pi/4 (pi/4 = -(DP1 + DP2 + DP3)), then a polynomial
FOUR_OVER_PI = f32(1.27323954473516)
MINUS_DP = [f32(-0.78515625), f32(-2.4187564849853515625e-4), f32(-3.77489497744594108e-8)]
COS_P = [f32(2.443315711809948E-005), f32(-1.388731625493765E-003), f32(4.166664568298827E-002)]
SIN_P = [f32(-1.9515295891E-4), f32(8.3321608736E-3), f32(-1.6666654611E-1)]

SIGN_BIT = np.int32(-2**31)


def fma(a, b, c):
    """a * b + c in float32, rounded once: float64 holds a * b exactly, and then rounds only the sum.

    (Rounding that sum to float64 and then to float32 can differ from one rounding in theory; for
    the numbers here it never did, see CONTRIBUTING.md.)"""
    return (np.asarray(a, np.float64) * np.float64(b) + np.asarray(c, np.float64)).astype(f32)


def _bits(x):
    return x.view(np.int32)


def log256_ps(x):
    """log(x) of float32 numbers x > 0 (avx_mathfun.h: log256_ps)."""
    x = np.maximum(np.asarray(x, f32), f32(np.finfo(f32).tiny))        # no subnormal numbers
    exponent = (_bits(x) >> 23) - 0x7F                                    # x = m * 2^exponent...
    x = ((_bits(x) & ~0x7F800000) | _bits(np.array(0.5, f32))).view(f32)  # ...with m in [0.5, 1)
    e = exponent.astype(f32) + f32(1)
    small = x < SQRT_HALF                   # then use 2m - 1 and e - 1, so that m is near 1
    x = x - f32(1) + np.where(small, x, f32(0))
    e = e - np.where(small, f32(1), f32(0))
    z = x * x
    y = np.full_like(x, LOG_P[0])
    for p in LOG_P[1:]:
        y = fma(y, x, p)                                                  # Horner, fused
    y = y * x
    y = fma(y, z, e * LOG_Q1)
    y = y - z * f32(0.5)
    return x + y + e * LOG_Q2


def sincos256_ps(x):
    """(sin(x), cos(x)) of float32 numbers (avx_mathfun.h: sincos256_ps)."""
    x = np.asarray(x, f32)
    sign_sin = _bits(x) & SIGN_BIT
    x = np.abs(x)
    j = (x * FOUR_OVER_PI).astype(np.int32)          # which eighth of the circle, truncated...
    j = (j + 1) & ~1                                 # ...rounded up to even
    y = j.astype(f32)
    for minus_dp in MINUS_DP:                        # x - j * pi/4, in three parts for precision
        x = fma(y, minus_dp, x)
    sign_sin = sign_sin ^ ((j & 4) << 29)
    sign_cos = (~(j - 2) & 4) << 29
    use_sin_polynomial_for_sin = (j & 2) == 0

    z = x * x
    cos_like = np.full_like(x, COS_P[0])             # cos(x) on [-pi/4, pi/4]
    for p in COS_P[1:]:
        cos_like = fma(cos_like, z, p)
    cos_like = cos_like * z
    cos_like = fma(cos_like, z, -(z * f32(0.5)))
    cos_like = cos_like + f32(1)
    sin_like = np.full_like(x, SIN_P[0])             # sin(x) on [-pi/4, pi/4]
    for p in SIN_P[1:]:
        sin_like = fma(sin_like, z, p)
    sin_like = sin_like * z
    sin_like = fma(sin_like, x, x)

    sin = np.where(use_sin_polynomial_for_sin, sin_like, cos_like)
    cos = np.where(use_sin_polynomial_for_sin, cos_like, sin_like)
    return (_bits(sin) ^ sign_sin).view(f32), (_bits(cos) ^ sign_cos).view(f32)
