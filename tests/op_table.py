"""One row per op of mini_autograd: the call, a numpy reference for its values, an input domain, dtypes.

``tests/test_op_table.py`` runs every row: values against the numpy reference (float32 and float64), first
and second gradients against central finite differences in float64 (no torch needed), and, when torch is
installed, values, gradients and node names against PyTorch 2.13's for the same inputs. A guard there fails
when a Function class defined under ``mini_autograd/ops/`` is reached by no row (its ``grad_fn`` nodes, also
those recorded by ``create_graph=True``) and is not in ``NOT_IN_TABLE`` below.

A row reads ``row(name, call, reference, *inputs, **options)``:

- ``call(t, *xs)`` runs unchanged with ``t`` = ``mini_autograd`` or ``torch``; the ``xs`` are the inputs that
  require grad (indices, masks and numbers are written in the call, built with ``t``). It returns a tensor
  or a tuple of tensors (floating ones only: sort's indices are left out).
- ``reference(*arrays)``: the values by numpy, from float64 copies of the inputs (a tuple for a tuple).
  ``None`` for random draws, whose values only PyTorch's generator gives (checked against torch).
- inputs: one domain each (``U``, ``POS``, ``NZ``, ``DISTINCT``...): a shape and a sampler that keeps away
  from points where the op is not differentiable (``avoid=``: no input within 0.05 of those points).
- options: ``dtypes`` (both by default), ``double`` (True, or why the second gradients are not checked),
  ``grad`` (True, or why no gradient is checked: PyTorch has none), ``numeric`` (True, or why finite
  differences cannot check the gradient, which is then checked against torch only), ``fd`` (finite-difference
  step and tolerance for ops whose float64 output is rounded, as ``to(float32)``).
"""
import math
import statistics
from collections.abc import Callable
from typing import NamedTuple

import numpy as np

F32, F64 = "float32", "float64"
BOTH = (F32, F64)


# ------------------------------------------------------------------------------------------ input domains
class Domain(NamedTuple):
    shape: tuple
    sample: Callable        # sample(rng, shape) -> float64 array

    def draw(self, rng):
        return np.asarray(self.sample(rng, self.shape), dtype=np.float64)


def U(*shape, lo=-2.0, hi=2.0, avoid=(), gap=0.05):
    """Uniform in [lo, hi], no number within ``gap`` of a point of ``avoid`` (a kink or a jump)."""
    def sample(rng, shape):
        x = rng.uniform(lo, hi, size=shape)
        for _ in range(100):
            near = np.zeros(x.shape, bool)
            for p in avoid:
                near |= np.abs(x - p) < gap
            if not near.any():
                return x
            x = np.where(near, rng.uniform(lo, hi, size=shape), x)
        raise ValueError("could not sample away from " + str(avoid))
    return Domain(tuple(shape), sample)


def POS(*shape, lo=0.5, hi=2.0):
    """Positive numbers (log, sqrt, a base of pow)."""
    return U(*shape, lo=lo, hi=hi)


def NZ(*shape, lo=0.3, hi=2.0):
    """Magnitudes in [lo, hi] with random signs: away from 0 (abs, relu, a divisor, sign)."""
    return Domain(tuple(shape), lambda rng, s: rng.uniform(lo, hi, size=s) * rng.choice([-1.0, 1.0], size=s))


def DISTINCT(*shape, gap=0.3):
    """No two numbers within ``gap`` of each other (max, sort, median: no ties), shuffled."""
    def sample(rng, shape):
        n = math.prod(shape)
        return rng.permutation(np.arange(n) * gap - n * gap / 2 + rng.uniform(0, gap / 4, n)).reshape(shape)
    return Domain(tuple(shape), sample)


ROUNDINGS = tuple(k / 2 for k in range(-6, 7))           # integers and halves: floor, round, remainder...


# -------------------------------------------------------------------------------------------- the rows
class Row(NamedTuple):
    name: str
    call: Callable
    reference: Callable
    inputs: tuple
    dtypes: tuple = BOTH
    double: object = True           # True, or the reason the second gradients are not checked
    grad: object = True             # True, or the reason no gradient is checked: PyTorch has none
    numeric: object = True          # True, or why finite differences cannot check the gradient (torch does)
    fd: tuple = (1e-6, 1e-5)        # finite-difference step, and the tolerance (relative and absolute)


def row(name, call, reference, *inputs, **options):
    return Row(name, call, reference, tuple(inputs), **options)


# numpy references
def erf(a):
    return np.vectorize(math.erf, otypes=[float])(a)


def erfinv(a):
    normal = statistics.NormalDist()
    return np.vectorize(lambda y: normal.inv_cdf((y + 1) / 2) / math.sqrt(2), otypes=[float])(a)


def softmax(a, axis):
    e = np.exp(a - a.max(axis, keepdims=True))
    return e / e.sum(axis, keepdims=True)


def log_softmax(a, axis):
    shifted = a - a.max(axis, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis, keepdims=True))


def logsigmoid(a):
    return -np.logaddexp(0, -a)


def logit(a):
    return np.log(a / (1 - a))


def sigmoid(a):
    return 1 / (1 + np.exp(-a))


def gelu(a):
    return 0.5 * a * (1 + erf(a / math.sqrt(2)))


def gelu_tanh(a):
    return 0.5 * a * (1 + np.tanh(math.sqrt(2 / math.pi) * (a + 0.044715 * a ** 3)))


def nll(logp, target):
    return -logp[np.arange(len(target)), target]


def huber(d, delta):
    return np.where(np.abs(d) < delta, 0.5 * d * d, delta * (np.abs(d) - 0.5 * delta))


def smooth_l1(d, beta):
    return np.where(np.abs(d) < beta, 0.5 * d * d / beta, np.abs(d) - 0.5 * beta)


def layer_norm(a, w, b, eps=1e-5):
    return (a - a.mean(-1, keepdims=True)) / np.sqrt(a.var(-1, keepdims=True) + eps) * w + b


def batch_norm(a, w, b, eps=1e-5):
    axes = (0,) + tuple(range(2, a.ndim))
    shape = (1, -1) + (1,) * (a.ndim - 2)
    return ((a - a.mean(axes, keepdims=True)) / np.sqrt(a.var(axes, keepdims=True) + eps)
            * w.reshape(shape) + b.reshape(shape))


def attention(q, k, v):
    return softmax(q @ np.swapaxes(k, -1, -2) / math.sqrt(q.shape[-1]), -1) @ v


def median(a, axis=None):
    s = np.sort(a.reshape(-1) if axis is None else a, axis=-1 if axis is None else axis)
    n = s.shape[-1 if axis is None else axis]
    return np.take(s, (n - 1) // 2, axis=-1 if axis is None else axis)


def put(a, index, values):
    a = a.copy()
    a[index] = values
    return a


def in_place_through_view(t, x):
    """``y[0].mul_(2)``: y's node becomes CopySlices, which runs MulBackward0 on its row."""
    y = x * 1
    y[0].mul_(2.0)
    return y


def in_place_through_view_of_strided_base(t, x):
    """The same in a base that is not one block of memory (from_numpy of every other column): CopySlices
    then finds the view's elements by their positions."""
    y = t.from_numpy(np.zeros((2, 6), str(x.dtype).rsplit(".", 1)[-1])[:, ::2])
    y.copy_(x)
    y[0].mul_(2.0)
    return y


def view_of_changed_base(t, x):
    """A view read after its base changed in place: its grad_fn is made anew (AsStridedBackward0)."""
    y = x * 1
    v = y[:, 1:]
    y.mul_(2.0)
    return v


def expanded_view_of_changed_base(t, x):
    """The same for an expanded view, whose elements share memory: the gradient is summed back."""
    y = x * 1
    v = y.unsqueeze(0).expand(2, 2, 3)
    y.mul_(2.0)
    return v


def set_items(t, x, v):
    """``y[index] = v`` with a tensor index: index_put_ (IndexPutBackward0)."""
    y = x * 1
    y[t.tensor([0, 1, 0]), t.tensor([2, 0, 1])] = v
    return y


def F(t):
    """``torch.nn.functional``, or mini_autograd's."""
    return t.nn.functional


def seeded(t, draw):
    """A random draw after ``manual_seed(0)``: the same numbers in torch and mini_autograd, and at every
    evaluation of the finite differences."""
    t.manual_seed(0)
    return draw()


def to_other_float(t, x):
    return x.to(t.float32 if x.dtype == t.float64 else t.float64)


DRAWN = ("PyTorch defines normal's gradients as zeros (derivatives.yaml: at::zeros_symint), not the "
         "derivative of the drawn numbers")
X = U(2, 3)                                 # the usual input
IDX = [[0, 2, 1], [1, 1, 0]]                # indices into dim 1 of a (2, 3) tensor
MASK = [[True, False, True], [False, True, True]]
W = [0.5, 1.5, 2.0]                         # class weights, pos_weight

ROWS = [
    # ----------------------------------------------------------------------------- unary (ops/unary.py)
    row("neg", lambda t, x: -x, np.negative, X),
    row("neg_method", lambda t, x: x.neg(), np.negative, X),
    row("abs", lambda t, x: t.abs(x), np.abs, NZ(2, 3)),
    row("sign", lambda t, x: t.sign(x), np.sign, NZ(2, 3)),
    row("exp", lambda t, x: t.exp(x), np.exp, X),
    row("exp_in_place", lambda t, x: x.clone().exp_(), np.exp, X),
    row("log", lambda t, x: t.log(x), np.log, POS(2, 3)),
    row("log10", lambda t, x: t.log10(x), np.log10, POS(2, 3)),
    row("log2", lambda t, x: x.log2(), np.log2, POS(2, 3)),
    row("log1p", lambda t, x: t.log1p(x), np.log1p, U(2, 3, lo=-0.5)),
    row("expm1", lambda t, x: t.expm1(x), np.expm1, X),
    row("exp2", lambda t, x: t.exp2(x), np.exp2, X),
    row("sqrt", lambda t, x: t.sqrt(x), np.sqrt, POS(2, 3)),
    row("rsqrt", lambda t, x: t.rsqrt(x), lambda a: 1 / np.sqrt(a), POS(2, 3)),
    row("square", lambda t, x: t.square(x), np.square, X),
    row("reciprocal", lambda t, x: t.reciprocal(x), np.reciprocal, NZ(2, 3)),
    row("sin", lambda t, x: t.sin(x), np.sin, X),
    row("cos", lambda t, x: t.cos(x), np.cos, X),
    row("tan", lambda t, x: t.tan(x), np.tan, U(2, 3, lo=-1.2, hi=1.2)),
    row("asin", lambda t, x: t.asin(x), np.arcsin, U(2, 3, lo=-0.9, hi=0.9)),
    row("acos", lambda t, x: t.acos(x), np.arccos, U(2, 3, lo=-0.9, hi=0.9)),
    row("atan", lambda t, x: t.atan(x), np.arctan, X),
    row("atan_method", lambda t, x: x.atan(), np.arctan, X),
    row("sinh", lambda t, x: t.sinh(x), np.sinh, X),
    row("cosh", lambda t, x: t.cosh(x), np.cosh, X),
    row("tanh", lambda t, x: t.tanh(x), np.tanh, X),
    row("asinh", lambda t, x: t.asinh(x), np.arcsinh, X),
    row("acosh", lambda t, x: t.acosh(x), np.arccosh, U(2, 3, lo=1.2, hi=3.0)),
    row("atanh", lambda t, x: t.atanh(x), np.arctanh, U(2, 3, lo=-0.9, hi=0.9)),
    row("asinh_in_place", lambda t, x: x.clone().asinh_(), np.arcsinh, X,
        grad="PyTorch has no derivative for asinh_ (derivatives.yaml: not_implemented)"),
    row("acosh_in_place", lambda t, x: x.clone().acosh_(), np.arccosh, U(2, 3, lo=1.2, hi=3.0),
        grad="PyTorch has no derivative for acosh_ (derivatives.yaml: not_implemented)"),
    row("atanh_in_place", lambda t, x: x.clone().atanh_(), np.arctanh, U(2, 3, lo=-0.9, hi=0.9),
        grad="PyTorch has no derivative for atanh_ (derivatives.yaml: not_implemented)"),
    row("erf", lambda t, x: t.erf(x), erf, X),
    row("erfc", lambda t, x: t.erfc(x), lambda a: 1 - erf(a), X),
    row("erfinv", lambda t, x: t.erfinv(x), erfinv, U(2, 3, lo=-0.9, hi=0.9)),
    row("sinc", lambda t, x: t.sinc(x), np.sinc, U(2, 3, avoid=(0,))),
    row("logit", lambda t, x: t.logit(x), logit, U(2, 3, lo=0.05, hi=0.95)),
    row("logit_eps", lambda t, x: t.logit(x, 0.2), lambda a: logit(np.clip(a, 0.2, 0.8)),
        U(2, 3, lo=0.05, hi=0.95, avoid=(0.2, 0.8))),
    row("deg2rad", lambda t, x: t.deg2rad(x), np.deg2rad, X),
    row("rad2deg", lambda t, x: t.rad2deg(x), np.rad2deg, X),
    row("nan_to_num", lambda t, x: t.nan_to_num(x), np.nan_to_num, X),
    row("floor", lambda t, x: t.floor(x), np.floor, U(2, 3, avoid=ROUNDINGS)),
    row("ceil", lambda t, x: t.ceil(x), np.ceil, U(2, 3, avoid=ROUNDINGS)),
    row("trunc", lambda t, x: t.trunc(x), np.trunc, U(2, 3, avoid=ROUNDINGS)),
    row("frac", lambda t, x: t.frac(x), lambda a: a - np.trunc(a), U(2, 3, avoid=ROUNDINGS)),
    row("round", lambda t, x: t.round(x), np.round, U(2, 3, avoid=ROUNDINGS)),
    row("round_decimals", lambda t, x: t.round(x, decimals=1), lambda a: np.round(a, 1),
        U(2, 3, avoid=tuple(k / 20 for k in range(-41, 42, 2)), gap=0.01)),
    row("to_float32", to_other_float, lambda a: a, X, dtypes=(F64,), fd=(1e-3, 1e-4)),
    row("to_float64", to_other_float, lambda a: a, X, dtypes=(F32,)),
    # --------------------------------------------------------------------------- binary (ops/binary.py)
    row("add", lambda t, x, y: x + y, np.add, X, U(3)),
    row("add_alpha", lambda t, x, y: t.add(x, y, alpha=2.5), lambda a, b: a + 2.5 * b, X, X),
    row("add_number", lambda t, x: x + 1.5, lambda a: a + 1.5, X),
    row("sub", lambda t, x, y: t.sub(x, y), np.subtract, X, U(2, 1)),
    row("sub_number", lambda t, x: x - 1.5, lambda a: a - 1.5, X),
    row("rsub", lambda t, x: 1.5 - x, lambda a: 1.5 - a, X),
    row("mul", lambda t, x, y: t.mul(x, y), np.multiply, X, X),
    row("mul_number", lambda t, x: x * 2.5, lambda a: a * 2.5, X),
    row("mul_in_place", lambda t, x, y: (x * 1).mul_(y), np.multiply, X, X),
    row("div", lambda t, x, y: x / y, np.divide, X, NZ(2, 3)),
    row("div_number", lambda t, x: x / 4.0, lambda a: a / 4.0, X),
    row("rdiv", lambda t, x: 2.0 / x, lambda a: 2.0 / a, NZ(2, 3)),
    row("div_floor", lambda t, x, y: t.div(x, y, rounding_mode="floor"), lambda a, b: np.floor(a / b),
        U(2, 3, lo=0.1, hi=0.9), POS(2, 3, lo=1.0, hi=2.0)),
    row("pow_int", lambda t, x: x ** 3, lambda a: a ** 3, X),
    row("pow_float", lambda t, x: t.pow(x, 2.5), lambda a: a ** 2.5, POS(2, 3)),
    row("pow_tensor", lambda t, x, y: x ** y, np.power, POS(2, 3), X),
    row("pow_of_number", lambda t, x: 2.0 ** x, lambda a: 2.0 ** a, X),
    row("maximum", lambda t, x, y: t.maximum(x, y), np.maximum, DISTINCT(2, 3), DISTINCT(2, 3, gap=0.31)),
    row("max_binary", lambda t, x, y: t.max(x, y), np.maximum, DISTINCT(2, 3), DISTINCT(2, 3, gap=0.31)),
    row("minimum", lambda t, x, y: t.minimum(x, y), np.minimum, DISTINCT(2, 3), DISTINCT(2, 3, gap=0.31)),
    row("clamp", lambda t, x: t.clamp(x, -0.5, 0.7), lambda a: np.clip(a, -0.5, 0.7),
        U(2, 3, avoid=(-0.5, 0.7))),
    row("clamp_tensors", lambda t, x, lo, hi: t.clamp(x, lo, hi), lambda a, lo, hi: np.clip(a, lo, hi),
        U(2, 3, avoid=(-1, 1), gap=0.1), U(2, 3, lo=-1.05, hi=-0.95), U(3, lo=0.95, hi=1.05)),
    row("clip", lambda t, x: x.clip(min=-0.5), lambda a: np.maximum(a, -0.5), U(2, 3, avoid=(-0.5,))),
    row("where", lambda t, x, y: t.where(t.tensor(MASK), x, y), lambda a, b: np.where(MASK, a, b), X, X),
    row("masked_fill", lambda t, x: x.masked_fill(t.tensor(MASK), 0.5), lambda a: np.where(MASK, 0.5, a), X),
    row("masked_fill_tensor", lambda t, x, v: x.masked_fill(t.tensor(MASK), v),
        lambda a, v: np.where(MASK, v, a),
        X, U()),
    row("atan2", lambda t, x, y: t.atan2(x, y), np.arctan2, NZ(2, 3), NZ(2, 3)),
    row("xlogy", lambda t, x, y: t.xlogy(x, y), lambda a, b: a * np.log(b), X, POS(2, 3)),
    row("xlogy_number_other", lambda t, x: t.xlogy(x, 2.5), lambda a: a * np.log(2.5), X),
    row("xlogy_number_self", lambda t, y: t.xlogy(2.5, y), lambda b: 2.5 * np.log(b), POS(2, 3)),
    row("hypot", lambda t, x, y: t.hypot(x, y), np.hypot, NZ(2, 3), NZ(2, 3)),
    row("logaddexp", lambda t, x, y: t.logaddexp(x, y), np.logaddexp, X, X),
    row("logaddexp2", lambda t, x, y: t.logaddexp2(x, y), np.logaddexp2, X, X),
    row("remainder_number", lambda t, x: t.remainder(x, 1.5), lambda a: np.mod(a, 1.5),
        U(2, 3, avoid=(-1.5, 0, 1.5))),
    row("remainder", lambda t, x, y: x % y, np.mod, U(2, 3, lo=0.1, hi=0.9), POS(2, 3, lo=1.0, hi=2.0)),
    row("remainder_of_number", lambda t, y: t.remainder(2.5, y), lambda b: np.mod(2.5, b),
        U(2, 3, lo=2.6, hi=3.0),
        grad="PyTorch has no derivative for remainder(Scalar, Tensor) (NotImplemented)"),
    row("fmod_number", lambda t, x: t.fmod(x, 1.5), lambda a: np.fmod(a, 1.5), U(2, 3, avoid=(-1.5, 0, 1.5))),
    row("fmod", lambda t, x, y: t.fmod(x, y), np.fmod, U(2, 3, lo=0.1, hi=0.9), POS(2, 3, lo=1.0, hi=2.0)),
    # ------------------------------------------------------------------- reductions (ops/reductions.py)
    row("sum", lambda t, x: t.sum(x), np.sum, X),
    row("sum_dim", lambda t, x: x.sum(1, keepdim=True), lambda a: a.sum(1, keepdims=True), X),
    row("mean", lambda t, x: t.mean(x), np.mean, X),
    row("mean_dim", lambda t, x: x.mean((0, 2)), lambda a: a.mean((0, 2)), U(2, 3, 2)),
    row("max", lambda t, x: t.max(x), np.max, DISTINCT(2, 3)),
    row("max_dim", lambda t, x: t.max(x, 1).values, lambda a: a.max(1), DISTINCT(2, 3)),
    row("min", lambda t, x: x.min(), np.min, DISTINCT(2, 3)),
    row("min_dim", lambda t, x: x.min(0, keepdim=True)[0], lambda a: a.min(0, keepdims=True), DISTINCT(2, 3)),
    row("amax", lambda t, x: t.amax(x, 1), lambda a: a.max(1), DISTINCT(2, 3)),
    row("amin", lambda t, x: t.amin(x, (0, 1)), np.min, DISTINCT(2, 3)),
    row("norm", lambda t, x: t.norm(x), np.linalg.norm, X),
    row("norm_p1_dim", lambda t, x: x.norm(1, dim=1), lambda a: np.abs(a).sum(1), NZ(2, 3)),
    row("norm_p3", lambda t, x: x.norm(3), lambda a: (np.abs(a) ** 3).sum() ** (1 / 3), NZ(2, 3)),
    row("norm_inf", lambda t, x: x.norm(float("inf")), lambda a: np.abs(a).max(), DISTINCT(2, 3)),
    row("logsumexp", lambda t, x: t.logsumexp(x, 1), lambda a: np.log(np.exp(a).sum(1)), X),
    row("prod", lambda t, x: t.prod(x), np.prod, NZ(2, 3)),
    row("prod_dim", lambda t, x: x.prod(1), lambda a: a.prod(1), NZ(2, 3)),
    row("cumsum", lambda t, x: t.cumsum(x, 1), lambda a: np.cumsum(a, 1), X),
    row("cumprod", lambda t, x: t.cumprod(x, 1), lambda a: np.cumprod(a, 1), NZ(2, 3)),
    # -------------------------------------------------------------------- statistics (ops/statistics.py)
    row("var", lambda t, x: t.var(x), lambda a: a.var(ddof=1), X),
    row("var_dim", lambda t, x: x.var(1, correction=0), lambda a: a.var(1), X),
    row("std", lambda t, x: t.std(x, 0), lambda a: a.std(0, ddof=1), X),
    row("var_mean", lambda t, x: t.var_mean(x, 1), lambda a: (a.var(1, ddof=1), a.mean(1)), X),
    row("std_mean", lambda t, x: t.std_mean(x), lambda a: (a.std(ddof=1), a.mean()), X),
    row("histogram", lambda t, x: t.histogram(x, 4, range=(-2.0, 2.0)),
        lambda a: tuple(np.histogram(a, 4, range=(-2.0, 2.0))), U(2, 3, avoid=(-1, 0, 1)),
        grad="PyTorch has no derivative for histogram (NotImplemented)"),
    # -------------------------------------------------------------------------- sorting (ops/sorting.py)
    row("median", lambda t, x: t.median(x), median, DISTINCT(2, 3)),
    row("median_dim", lambda t, x: x.median(1).values, lambda a: median(a, 1), DISTINCT(2, 4)),
    row("sort", lambda t, x: t.sort(x, 1).values, lambda a: np.sort(a, 1), DISTINCT(2, 3)),
    row("sort_stable", lambda t, x: x.sort(stable=True, dim=0, descending=True)[0], lambda a: -np.sort(-a, 0),
        DISTINCT(2, 3)),
    row("topk", lambda t, x: t.topk(x, 2).values, lambda a: -np.sort(-a, 1)[:, :2], DISTINCT(2, 3)),
    row("unique", lambda t, x: t.unique(x), lambda a: np.unique(a), DISTINCT(2, 3),
        grad="PyTorch has no derivative for _unique2 (not_implemented)"),
    row("unique_dim", lambda t, x: t.unique(x, dim=0), lambda a: np.unique(a, axis=0), DISTINCT(2, 3),
        grad="PyTorch has no derivative for unique_dim (not_implemented)"),
    # ---------------------------------------------------------------------------- linalg (ops/linalg.py)
    row("mm", lambda t, x, y: t.mm(x, y), np.matmul, X, U(3, 2)),
    row("mv", lambda t, x, y: x.mv(y), np.matmul, X, U(3)),
    row("dot", lambda t, x, y: t.dot(x, y), np.dot, U(3), U(3)),
    row("bmm", lambda t, x, y: t.bmm(x, y), np.matmul, U(2, 2, 3), U(2, 3, 2)),
    row("matmul_1d_2d", lambda t, x, y: x @ y, np.matmul, U(3), U(3, 2)),
    row("matmul_3d_2d", lambda t, x, y: x @ y, np.matmul, U(2, 2, 3), U(3, 2)),
    row("matmul_3d_1d", lambda t, x, y: t.matmul(x, y), np.matmul, U(2, 2, 3), U(3)),
    row("matmul_1d_3d", lambda t, x, y: t.matmul(x, y), np.matmul, U(3), U(2, 3, 2)),
    row("outer", lambda t, x, y: t.outer(x, y), np.outer, U(2), U(3)),
    row("linear", lambda t, x, w, b: F(t).linear(x, w, b), lambda a, w, b: a @ w.T + b,
        X, U(4, 3), U(4)),
    row("linear_3d", lambda t, x, w, b: F(t).linear(x, w, b), lambda a, w, b: a @ w.T + b,
        U(2, 2, 3), U(4, 3), U(4)),
    row("einsum_matmul", lambda t, x, y: t.einsum("ij,jk->ik", x, y), np.matmul, X, U(3, 2)),
    row("einsum_trace_outer", lambda t, x, y: t.einsum("ii,j->j", x, y), lambda a, b: np.trace(a) * b,
        U(2, 2), U(3)),
    row("einsum_batch", lambda t, x, y: t.einsum("bij,bjk->bik", x, y), np.matmul, U(2, 2, 3), U(2, 3, 2)),
    # ------------------------------------------------------------------- shape and views (ops/shape.py)
    row("view", lambda t, x: x.view(3, 2), lambda a: a.reshape(3, 2), X),
    row("reshape", lambda t, x: t.reshape(x, (-1,)), lambda a: a.reshape(-1), X),
    row("reshape_copy", lambda t, x: x.t().reshape(6), lambda a: a.T.reshape(6), X),
    row("reshape_alias", lambda t, x: x[:, :2].reshape(2, 1, 2), lambda a: a[:, :2].reshape(2, 1, 2), X),
    row("flatten", lambda t, x: t.flatten(x, 1), lambda a: a.reshape(2, 6), U(2, 3, 2)),
    row("clone", lambda t, x: t.clone(x), np.copy, X),
    row("contiguous", lambda t, x: x.t().contiguous(), lambda a: a.T.copy(), X),
    row("transpose", lambda t, x: t.transpose(x, 0, 2), lambda a: a.transpose(2, 1, 0), U(2, 3, 2)),
    row("t", lambda t, x: x.t(), lambda a: a.T, X),
    row("mT", lambda t, x: x.mT, lambda a: np.swapaxes(a, -1, -2), U(2, 3, 2)),
    row("permute", lambda t, x: x.permute(2, 0, 1), lambda a: a.transpose(2, 0, 1), U(2, 3, 2)),
    row("movedim", lambda t, x: t.movedim(x, 0, 2), lambda a: np.moveaxis(a, 0, 2), U(2, 3, 2)),
    row("unsqueeze", lambda t, x: t.unsqueeze(x, 1), lambda a: a[:, None], X),
    row("squeeze", lambda t, x: t.squeeze(x), np.squeeze, U(2, 1, 3)),
    row("squeeze_dim", lambda t, x: x.squeeze(1), lambda a: a.squeeze(1), U(2, 1, 3)),
    row("expand", lambda t, x: x.expand(2, 2, 3), lambda a: np.broadcast_to(a, (2, 2, 3)), U(2, 1)),
    row("view_as", lambda t, x, y: x.view_as(y), lambda a, b: a.reshape(b.shape), X, U(3, 2)),
    row("reshape_as", lambda t, x, y: x.reshape_as(y), lambda a, b: a.reshape(b.shape), X, U(6)),
    row("expand_as", lambda t, x, y: x.expand_as(y), lambda a, b: np.broadcast_to(a, b.shape), U(3), X),
    # ------------------------------------------------------------------------ indexing (ops/indexing.py)
    row("select", lambda t, x: x[1], lambda a: a[1], X),
    row("slice", lambda t, x: x[:, 1:], lambda a: a[:, 1:], X),
    row("narrow", lambda t, x: t.narrow(x, 1, 1, 2), lambda a: a[:, 1:3], X),
    row("alias", lambda t, x: x[...], lambda a: a, X),
    row("index", lambda t, x: x[[1, 0, 1]], lambda a: a[[1, 0, 1]], X),
    row("index_two_tensors", lambda t, x: x[t.tensor([0, 1, 1]), t.tensor([2, 2, 0])],
        lambda a: a[[0, 1, 1], [2, 2, 0]], X),
    row("index_mask", lambda t, x: x[t.tensor(MASK)], lambda a: a[np.array(MASK)], X),
    row("gather", lambda t, x: t.gather(x, 1, t.tensor(IDX)),
        lambda a: np.take_along_axis(a, np.array(IDX), 1), X),
    row("index_select", lambda t, x: t.index_select(x, 1, t.tensor([2, 0, 2])), lambda a: a[:, [2, 0, 2]], X),
    row("embedding", lambda t, w: F(t).embedding(t.tensor([[0, 2], [2, 1]]), w),
        lambda w: w[[[0, 2], [2, 1]]], U(3, 2)),
    # ----------------------------------------------------------------------- joining (ops/joining.py)
    row("cat", lambda t, x, y: t.cat([x, y], 1), lambda a, b: np.concatenate([a, b], 1), X, U(2, 2)),
    row("stack", lambda t, x, y: t.stack((x, y), -1), lambda a, b: np.stack([a, b], -1), X, X),
    row("split", lambda t, x: t.split(x, 2, 1), lambda a: (a[:, :2], a[:, 2:]), X),
    row("split_sizes", lambda t, x: x.split([1, 2], 1), lambda a: (a[:, :1], a[:, 1:]), X),
    row("chunk", lambda t, x: t.chunk(x, 2, 0), lambda a: (a[:1], a[1:]), X),
    row("meshgrid", lambda t, x, y: t.meshgrid(x, y, indexing="ij"),
        lambda a, b: tuple(np.meshgrid(a, b, indexing="ij")), U(2), U(3)),
    row("unbind", lambda t, x: t.unbind(x, 1), lambda a: tuple(a[:, i] for i in range(3)), X),
    # ---------------------------------------------------------------- rearranging (ops/rearranging.py)
    row("roll", lambda t, x: t.roll(x, 1, 1), lambda a: np.roll(a, 1, 1), X),
    row("flip", lambda t, x: t.flip(x, [0, 1]), lambda a: a[::-1, ::-1], X),
    row("repeat", lambda t, x: x.repeat(2, 1, 2), lambda a: np.tile(a, (2, 1, 2)), X),
    row("repeat_interleave", lambda t, x: t.repeat_interleave(x, 2, 1), lambda a: np.repeat(a, 2, 1), X),
    row("diagonal", lambda t, x: t.diagonal(x, 1), lambda a: np.diagonal(a, 1), U(3, 3)),
    row("diag_of_matrix", lambda t, x: t.diag(x), np.diag, U(3, 3)),
    row("diag_of_vector", lambda t, x: t.diag(x, -1), lambda a: np.diag(a, -1), U(3)),
    row("tril", lambda t, x: t.tril(x), np.tril, U(3, 3)),
    row("triu", lambda t, x: x.triu(1), lambda a: np.triu(a, 1), U(3, 3)),
    # ------------------------------------------------------------------ activations (ops/activations.py)
    row("sigmoid", lambda t, x: t.sigmoid(x), sigmoid, U(2, 3, lo=-4, hi=4)),
    row("relu", lambda t, x: t.relu(x), lambda a: np.maximum(a, 0), NZ(2, 3)),
    row("relu_in_place", lambda t, x: (x * 1).relu_(), lambda a: np.maximum(a, 0), NZ(2, 3)),
    row("leaky_relu", lambda t, x: F(t).leaky_relu(x, 0.1), lambda a: np.where(a > 0, a, 0.1 * a),
        NZ(2, 3)),
    row("leaky_relu_in_place", lambda t, x: F(t).leaky_relu(x * 1, 0.1, inplace=True),
        lambda a: np.where(a > 0, a, 0.1 * a), NZ(2, 3)),
    row("softmax", lambda t, x: t.softmax(x, 1), lambda a: softmax(a, 1), X),
    row("log_softmax", lambda t, x: F(t).log_softmax(x, 0), lambda a: log_softmax(a, 0), X),
    row("gelu", lambda t, x: F(t).gelu(x), gelu, X),
    row("gelu_tanh", lambda t, x: F(t).gelu(x, approximate="tanh"), gelu_tanh, X),
    row("softsign", lambda t, x: F(t).softsign(x), lambda a: a / (1 + np.abs(a)), NZ(2, 3)),
    # ---------------------------------------------------------------------------- losses (ops/losses.py)
    row("mse_loss", lambda t, x, y: F(t).mse_loss(x, y), lambda a, b: ((a - b) ** 2).mean(), X, X),
    row("mse_loss_none", lambda t, x, y: F(t).mse_loss(x, y, reduction="none"),
        lambda a, b: (a - b) ** 2, X, X),
    row("l1_loss", lambda t, x, y: F(t).l1_loss(x, y), lambda a, b: np.abs(a - b).mean(),
        U(2, 3, lo=0.2, hi=2.0), U(2, 3, lo=-2.0, hi=-0.2)),
    row("nll_loss", lambda t, x: F(t).nll_loss(x, t.tensor([2, 0])),
        lambda a: nll(a, [2, 0]).mean(), X),
    row("nll_loss_weight_sum",
        lambda t, x: F(t).nll_loss(x, t.tensor([2, 0]), t.tensor(W, dtype=x.dtype), reduction="sum"),
        lambda a: (nll(a, [2, 0]) * np.array(W)[[2, 0]]).sum(), X),
    row("cross_entropy", lambda t, x: F(t).cross_entropy(x, t.tensor([1, 2])),
        lambda a: nll(log_softmax(a, 1), [1, 2]).mean(), X),
    row("binary_cross_entropy", lambda t, x, y: F(t).binary_cross_entropy(x, y),
        lambda p, y: -(y * np.log(p) + (1 - y) * np.log(1 - p)).mean(),
        U(2, 3, lo=0.1, hi=0.9), U(2, 3, lo=0.0, hi=1.0)),
    row("bce_with_logits", lambda t, x, y: F(t).binary_cross_entropy_with_logits(x, y),
        lambda a, y: -(y * logsigmoid(a) + (1 - y) * logsigmoid(-a)).mean(), X, U(2, 3, lo=0.0, hi=1.0)),
    row("bce_with_logits_pos_weight",
        lambda t, x, y: F(t).binary_cross_entropy_with_logits(x, y, pos_weight=t.tensor(W, dtype=x.dtype)),
        lambda a, y: -(np.array(W) * y * logsigmoid(a) + (1 - y) * logsigmoid(-a)).mean(),
        X, U(2, 3, lo=0.0, hi=1.0)),
    row("smooth_l1_loss", lambda t, x, y: F(t).smooth_l1_loss(x, y, beta=0.5),
        lambda a, b: smooth_l1(a - b, 0.5).mean(), X, U(2, 3, lo=-0.1, hi=0.1)),
    row("huber_loss", lambda t, x, y: F(t).huber_loss(x, y, delta=0.5),
        lambda a, b: huber(a - b, 0.5).mean(), X, U(2, 3, lo=-0.1, hi=0.1)),
    # ------------------------------------------------------------- normalization (ops/normalization.py)
    row("layer_norm", lambda t, x, w, b: F(t).layer_norm(x, (3,), w, b), layer_norm,
        X, U(3), U(3)),
    row("batch_norm", lambda t, x, w, b: F(t).batch_norm(x, None, None, w, b, training=True),
        batch_norm, U(3, 2), U(2), U(2)),
    row("scaled_dot_product_attention",
        lambda t, q, k, v: F(t).scaled_dot_product_attention(q, k, v), attention,
        U(2, 3), U(4, 3), U(4, 2)),
    # -------------------------------------------------------------------------- random (ops/random.py)
    row("normal_mean", lambda t, m: seeded(t, lambda: t.normal(m, 0.5)), None, X, numeric=DRAWN),
    row("normal_std", lambda t, s: seeded(t, lambda: t.normal(0.5, s)), None, POS(2, 3), numeric=DRAWN),
    row("normal_mean_std", lambda t, m, s: seeded(t, lambda: t.normal(m, s)), None, X, POS(2, 3),
        numeric=DRAWN),
    row("dropout", lambda t, x: seeded(t, lambda: F(t).dropout(x, 0.5)), None, U(2, 8)),
    # ---------------------------------------------------------------- in place (ops/inplace.py, views.py)
    row("fill", lambda t, x: (x * 1).fill_(0.5), lambda a: np.full_like(a, 0.5), X),
    row("fill_tensor", lambda t, x, v: (x * 1).fill_(v), lambda a, v: np.full_like(a, v), X, U()),
    row("zero", lambda t, x: (x * 1).zero_(), np.zeros_like, X),
    row("copy", lambda t, x, y: (x * 1).copy_(y), lambda a, b: np.broadcast_to(b, a.shape), X, U(3)),
    row("set_items", set_items, lambda a, v: put(a, ([0, 1, 0], [2, 0, 1]), v), X, U(3)),
    row("in_place_through_view", in_place_through_view, lambda a: np.concatenate([2 * a[:1], a[1:]]), X),
    row("in_place_through_view_of_strided_base", in_place_through_view_of_strided_base,
        lambda a: np.concatenate([2 * a[:1], a[1:]]), X),
    row("view_of_changed_base", view_of_changed_base, lambda a: 2 * a[:, 1:], X),
    row("expanded_view_of_changed_base", expanded_view_of_changed_base,
        lambda a: np.broadcast_to(2 * a, (2, 2, 3)), X),
]

# Function classes under mini_autograd/ops/ that no row reaches, and why.
NOT_IN_TABLE = {
    "shape.CopyForGrad": "the engine's own node, not an op: a .grad accumulated under create_graph=True "
                         "(autograd/graph.py); tests/test_second_order.py covers it",
}

# Public calls with no row of their own, and why.
LEFT_OUT = {
    "aliases of a row's op (the same function)": [
        "arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctan2", "arctanh", "concat", "concatenate",
        "ger", "moveaxis", "Tensor.float", "Tensor.double (to_float32/to_float64)"],
    "in-place variants: they record their op's own node (exp_in_place, mul_in_place, relu_in_place stand "
    "for them)": ["Tensor.add_", "sub_", "div_", "pow_", "neg_", "abs_", "sigmoid_", "tanh_", "clamp_",
              "and every other <op>_ of a unary or binary op"],
    "integer or bool results, no gradient": [
        "argmax", "argmin", "argsort", "sort's and topk's indices", "unique's inverse and counts",
        "eq", "ne", "lt", "le", "gt", "ge", "isnan", "isinf", "isfinite", "signbit", "logical_not", "all",
        "any", "equal", "allclose", "F.one_hot", "numel"],
    "random draws with no input to differentiate": [
        "rand", "randn", "randint", "randperm", "rand_like", "randn_like", "bernoulli", "multinomial",
        "Tensor.normal_", "uniform_", "random_", "bernoulli_"],
    "creation, no input": ["zeros", "ones", "full", "empty", "arange", "linspace", "eye", "zeros_like",
                           "ones_like", "full_like", "empty_like", "tensor", "as_tensor", "from_numpy"],
    "no graph: detach, item, numpy, tolist, type casts to integers": [
        "Tensor.detach", "detach_", "item", "numpy", "tolist", "int", "long", "bool",
        "type_as to an integer"],
}
