"""Elementwise operations, each a Function named after PyTorch's backward node.

The backward formulas follow tools/autograd/derivatives.yaml in PyTorch, and are
written with Tensor operations so that ``create_graph=True`` can differentiate
them again, into the graph PyTorch records: the same ops, in the same order.
PyTorch's generated nodes compute their inputs' gradients in the alphabetical
order of the inputs' names (tools/autograd/load_derivatives.py:
``for raw_names in sorted(defn.keys())``): ``other`` before ``self``, for
example, so the gradients below are made in that order too. Broadcasting needs
no code here: the engine sums each gradient back to its input's shape
(engine.py: validate_outputs).
"""
import math
import numpy as np

from ..autograd.function import Function
from .._tensor import Tensor
from ._helpers import (as_tensor_operand, astype, cast, check_broadcast, check_broadcast_shapes, contiguous,
                       result_dtype, to_float, where_or_zero)
from .views import iterator_out


ROUND_FROM_FLOAT64 = True   # benchmarks/bench_mlp_step.py turns it off for a moment, to measure its cost


def _rounded_from_float64(ufunc, data):
    """``ufunc`` of float32 data computed in float64 and rounded back to float32.

    numpy's float32 exp/log/tanh are 1 ulp away from the correctly rounded value (which
    PyTorch gives) for 17-39% of inputs: enough to change a printed digit of exp in 1% of
    values, and the 4th digit of a tutorial's trained coefficients. Rounded from float64
    they match PyTorch's printout all but 0.03% of the time, for about 4% of a Tanh MLP's
    training step (benchmarks/README.md).
    """
    if data.dtype == np.float32 and ROUND_FROM_FLOAT64:
        return ufunc(data, dtype=np.float64).astype(np.float32)     # dtype=: no float64 copy of data first
    return ufunc(data)


@np.errstate(all="ignore")     # inf and nan (inf - inf, 0 * inf, an overflow) come silently, as in PyTorch
def _binary(ufunc, a, b):
    """Apply a numpy ufunc with PyTorch's type promotion and PyTorch's broadcast error."""
    dtype = result_dtype(a, b)
    try:
        # dtype= makes numpy convert the inputs as it goes, without a converted copy of each; "unsafe":
        # the dtype is PyTorch's promotion, which may narrow a python number (uint8 tensor + 1); the
        # result laid out as PyTorch lays it out (iterator_out)
        out = None if a._data.flags.c_contiguous and b._data.flags.c_contiguous else \
            iterator_out(dtype, a._data, b._data)
        return Tensor(ufunc(a._data, b._data, out=out, dtype=dtype, casting="unsafe"))
    except ValueError:
        check_broadcast(a, b)
        raise


def _keep(grad, mask):
    """grad where ``mask`` holds, else 0 (+0, not -0): PyTorch's ``where(mask, grad, 0)``, as Where."""
    return Where.apply(grad, Tensor(np.zeros((), grad._data.dtype)), np.asarray(mask))


# --------------------------------------------------------------------- binary
@np.errstate(all="ignore")
def _scaled(a, b, alpha):
    """``alpha * b`` for ``a + alpha * b``, in the result's dtype: alpha takes no part in type promotion."""
    scaled = Tensor(np.multiply(b._data, alpha, dtype=result_dtype(a, b), casting="unsafe"))
    scaled._wrapped_number = b._wrapped_number
    return scaled


class Add(Function):
    """a + alpha * b (alpha is 1 unless given: ``p.add_(g, alpha=-lr)``).  d/da = 1, d/db = alpha."""
    node_name = "AddBackward0"

    @staticmethod
    def forward(ctx, a, b, alpha=1):
        ctx.alpha = alpha        # read only as grad_fn._saved_alpha (PyTorch shows it)
        return _binary(np.add, a, b if alpha == 1 else _scaled(a, b, alpha))

    @staticmethod
    def backward(ctx, grad):
        if ctx.alpha == 1:
            return grad, grad
        return grad, MulScalar.apply(grad, ctx.alpha), None     # derivatives.yaml: grad * alpha


class Sub(Function):
    """a - alpha * b (alpha is 1 unless given).  d/da = 1, d/db = -alpha."""
    node_name = "SubBackward0"

    @staticmethod
    def forward(ctx, a, b, alpha=1):
        ctx.alpha = alpha        # read only as grad_fn._saved_alpha (PyTorch shows it)
        return _binary(np.subtract, a, b if alpha == 1 else _scaled(a, b, alpha))

    @staticmethod
    def backward(ctx, grad):
        if ctx.alpha == 1:
            return grad, -grad
        return grad, MulScalar.apply(-grad, ctx.alpha), None    # derivatives.yaml: -grad * alpha


class Rsub(Function):
    """scalar - a (PyTorch's ``rsub`` with a Scalar: the scalar is not a graph input)."""
    node_name = "RsubBackward1"

    @staticmethod
    def forward(ctx, a, scalar):
        ctx.alpha = 1            # rsub's alpha, read only as grad_fn._saved_alpha (PyTorch shows it)
        return _binary(np.subtract, as_tensor_operand(scalar, "-"), a)

    @staticmethod
    def backward(ctx, grad):
        return -grad, None


class Mul(Function):
    """a * b.  d/da = b, d/db = a: each input is saved only if the other needs its grad."""
    node_name = "MulBackward0"
    saved_names = ("other", "self")        # PyTorch's order, which saved_tensors_hooks see

    @staticmethod
    def forward(ctx, a, b):
        needs_a, needs_b = ctx.needs_input_grad
        ctx.save_for_backward(b if needs_a else None, a if needs_b else None)
        return _binary(np.multiply, a, b)

    @staticmethod
    def backward(ctx, grad):
        b, a = ctx.saved_tensors
        grad_b = grad * a if ctx.needs_input_grad[1] else None      # ``other`` first, as PyTorch
        grad_a = grad * b if ctx.needs_input_grad[0] else None
        return grad_a, grad_b


class Div(Function):
    """a / b (true division).  d/da = 1/b, d/db = -a/b**2."""
    node_name = "DivBackward0"
    saved_names = ("other", "self")        # PyTorch's order, which saved_tensors_hooks see

    @staticmethod
    def forward(ctx, a, b):
        needs_a, needs_b = ctx.needs_input_grad
        ctx.save_for_backward(b if needs_a or needs_b else None, a if needs_b else None)
        dtype = result_dtype(a, b)
        if dtype.kind != "f":
            dtype = np.dtype(np.float32)     # integer division gives floats in PyTorch
        with np.errstate(divide="ignore", invalid="ignore"):
            try:
                return Tensor(np.true_divide(a._data, b._data, out=iterator_out(dtype, a._data, b._data),
                                             dtype=dtype, casting="unsafe"))
            except ValueError:
                check_broadcast(a, b)
                raise

    @staticmethod
    def backward(ctx, grad):
        """FunctionsManual.cpp: div_tensor_other_backward, then div_tensor_self_backward."""
        b, a = ctx.saved_tensors
        grad_b = -grad * ((a / b) / b) if ctx.needs_input_grad[1] else None
        grad_a = grad / b if ctx.needs_input_grad[0] else None
        return grad_a, grad_b


class Maximum(Function):
    """The larger of a and b, elementwise: the gradient goes to the larger (half each on ties)."""
    node_name = "MaximumBackward0"
    saved_names = ("other", "self")        # PyTorch's order

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(b, a)
        return _binary(np.maximum, a, b)

    @staticmethod
    def backward(ctx, grad):
        b, a = ctx.saved_tensors
        return _tie_split(grad, a._data, b._data, ctx.needs_input_grad)


def _tie_split(grad, a, b, needs):
    """maximum(a, b)'s backward: the gradient to the larger, half each on ties (derivatives.yaml: maximum,
    ``at::where(self == other, grad / 2, grad).masked_fill_(self < other, 0)``), for ``other`` first."""
    grad_b = _half_on_ties(grad, a, b, b < a) if needs[1] else None
    grad_a = _half_on_ties(grad, a, b, a < b) if needs[0] else None
    return grad_a, grad_b


def _half_on_ties(grad, a, b, loses):
    return MaskedFill.apply(Where.apply(DivScalar.apply(grad, 2), grad, a == b), loses, 0.0)


class MaskedFill(Function):
    """x with ``value`` where ``mask`` holds (``masked_fill`` with a number): d/dx = grad masked to 0."""
    node_name = "MaskedFillBackward0"

    @staticmethod
    def forward(ctx, x, mask, value):
        ctx.mask = mask
        return Tensor(contiguous(np.where(mask, np.asarray(value, x._data.dtype), x._data)))

    @staticmethod
    def backward(ctx, grad):
        return MaskedFill.apply(grad, ctx.mask, 0.0), None, None


class MaskedFillTensor(Function):
    """x with the 0-d tensor ``value`` where ``mask`` holds: the value gets the sum of the masked gradient."""
    node_name = "MaskedFillBackward1"

    @staticmethod
    def forward(ctx, x, value, mask):
        ctx.mask = mask
        return Tensor(contiguous(np.where(mask, value._data.astype(x._data.dtype), x._data)))

    @staticmethod
    def backward(ctx, grad):
        """derivatives.yaml, masked_fill.Tensor; the value's is masked_fill_backward:
        ``grad.masked_select(mask).sum()``."""
        grad_x = MaskedFill.apply(grad, ctx.mask, 0.0) if ctx.needs_input_grad[0] else None
        grad_value = MaskedSelect.apply(grad, ctx.mask).sum() if ctx.needs_input_grad[1] else None
        return grad_x, grad_value, None


class MaskedSelect(Function):
    """The elements of x where ``mask`` holds, in a 1-D tensor (torch.masked_select)."""
    node_name = "MaskedSelectBackward0"

    @staticmethod
    def forward(ctx, x, mask):
        ctx.mask = mask
        return Tensor(np.broadcast_to(x._data, mask.shape)[mask].reshape(-1))

    @staticmethod
    def backward(ctx, grad):
        """TensorAdvancedIndexing.cpp, masked_select_backward: ``zeros.masked_scatter_(mask, grad)``
        (the engine sums it back to x's shape if the mask broadcast x)."""
        zeros = Tensor(np.zeros(ctx.mask.shape, grad._data.dtype))
        return MaskedScatter.apply(zeros, ctx.mask, grad), None


class MaskedScatter(Function):
    """x with the elements where ``mask`` holds replaced, in order, by those of ``source``."""
    node_name = "MaskedScatterBackward0"

    @staticmethod
    def forward(ctx, x, mask, source):
        ctx.mask, ctx.source_sizes = mask, tuple(source.shape)
        out = x._data.copy()
        out[mask] = source._data.reshape(-1)[:int(mask.sum())]
        return Tensor(out)

    @staticmethod
    def backward(ctx, grad):
        """derivatives.yaml, masked_scatter; the source's is masked_scatter_backward: the selected
        gradient, padded with zeros to the source's size, viewed in its shape."""
        grad_x = MaskedFill.apply(grad, ctx.mask, 0.0) if ctx.needs_input_grad[0] else None
        grad_source = None
        if ctx.needs_input_grad[2]:
            selected = MaskedSelect.apply(grad, ctx.mask)
            missing = math.prod(ctx.source_sizes) - selected.numel()
            if missing > 0:
                from .join import cat
                selected = cat([selected, Tensor(np.zeros(missing, grad._data.dtype))])
            grad_source = selected.view(ctx.source_sizes)
        return grad_x, None, grad_source


class Minimum(Function):
    """The smaller of a and b, elementwise: the gradient goes to the smaller (half each on ties)."""
    node_name = "MinimumBackward0"
    saved_names = ("other", "self")        # PyTorch's order

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(b, a)
        return _binary(np.minimum, a, b)

    @staticmethod
    def backward(ctx, grad):
        b, a = ctx.saved_tensors
        return _tie_split(grad, b._data, a._data, ctx.needs_input_grad)


class Where(Function):
    """where(condition, a, b): a where the condition holds, else b.  The gradient is split the same way."""
    node_name = "WhereBackward0"
    saved_names = ("condition",)

    @staticmethod
    def forward(ctx, a, b, condition):
        """``condition`` is a numpy bool array: not a graph input (no edge), as in PyTorch."""
        ctx.condition = condition
        try:
            dtype = result_dtype(a, b)
            result = np.where(condition, a._data, b._data).astype(dtype, copy=False)
            out = iterator_out(dtype, condition, a._data, b._data, converted=False)   # PyTorch's layout
            if out is None:
                return Tensor(result)
            out[...] = result
            return Tensor(out)
        except ValueError:
            check_broadcast_shapes(condition.shape, a._data.shape)
            check_broadcast_shapes(condition.shape, b._data.shape)
            check_broadcast(a, b)
            raise

    @staticmethod
    def backward(ctx, grad):
        """``other``: where(condition, 0, grad); then ``self``: where(condition, grad, 0)."""
        mask = ctx.condition
        zero = Tensor(np.zeros((), grad._data.dtype))
        grad_b = Where.apply(zero, grad, mask) if ctx.needs_input_grad[1] else None
        grad_a = Where.apply(grad, zero, mask) if ctx.needs_input_grad[0] else None
        return grad_a, grad_b, None


class PowTensorScalar(Function):
    """x ** c for a number c.  d/dx = c * x**(c-1)."""
    node_name = "PowBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x, exponent):
        ctx.save_for_backward(x)
        ctx.exponent = exponent
        base = to_float(x._data) if isinstance(exponent, float) or exponent < 0 else x._data
        with np.errstate(divide="ignore", invalid="ignore"):
            return Tensor(cast(_power(base, exponent), result_dtype(x, as_tensor_operand(exponent, "**"))))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        if ctx.exponent == 0:
            return Tensor(np.zeros_like(x._data)), None      # zeros_like(self): no graph, as PyTorch
        # MulScalar, not ``* ctx.exponent`` (MulBackward0): PyTorch's formula records MulBackward1
        return grad * MulScalar.apply(x ** (ctx.exponent - 1), ctx.exponent), None


def _power(base, exponent):
    """``base ** exponent`` as PyTorch's kernel computes it (aten/src/ATen/native/cpu/PowKernel.cpp,
    pow_tensor_scalar_kernel): exponents 0.5 and -0.5 of floats are sqrt and 1 / sqrt, so
    (-inf) ** 0.5 is nan, not inf (numpy's power follows C's pow)."""
    if base.dtype.kind == "f" and exponent in (0.5, -0.5):
        root = np.sqrt(base)
        return root if exponent > 0 else np.reciprocal(root)
    return np.power(base, exponent)


class MulScalar(Function):
    """x * c for a number c that is not a graph input (what C++ code calls: ``mul(Scalar)``)."""
    node_name = "MulBackward1"

    @staticmethod
    def forward(ctx, x, scalar):
        ctx.other = scalar
        return _binary(np.multiply, x, as_tensor_operand(scalar, "*"))

    @staticmethod
    def backward(ctx, grad):
        return MulScalar.apply(grad, ctx.other), None


class DivScalar(Function):
    """x / c for a number c that is not a graph input (``div(Scalar)`` in backward formulas)."""
    node_name = "DivBackward1"

    @staticmethod
    def forward(ctx, x, scalar):
        ctx.other = scalar
        dtype = result_dtype(x, as_tensor_operand(scalar, "/"))
        if dtype.kind != "f":
            dtype = np.dtype(np.float32)
        with np.errstate(divide="ignore", invalid="ignore"):
            return Tensor(np.true_divide(x._data, scalar, dtype=dtype))

    @staticmethod
    def backward(ctx, grad):
        return DivScalar.apply(grad, ctx.other), None


class PowTensorTensor(Function):
    """x ** y for tensors.  d/dx = y * x**(y-1), d/dy = x**y * log(x)."""
    node_name = "PowBackward1"
    saved_names = ("exponent", "self", "result")        # PyTorch's order

    @staticmethod
    def forward(ctx, x, y):
        dtype = result_dtype(x, y)
        with np.errstate(divide="ignore", invalid="ignore"):
            try:
                result = Tensor(np.power(cast(x._data, dtype), cast(y._data, dtype),
                                         out=iterator_out(dtype, x._data, y._data)))
            except ValueError:
                check_broadcast(x, y)
                raise
        ctx.save_for_backward(y, x, result)
        return result

    @staticmethod
    def backward(ctx, grad):
        """FunctionsManual.cpp: pow_backward_self and pow_backward_exponent."""
        y, x, result = ctx.saved_tensors
        zero = Tensor(np.zeros((), grad._data.dtype))
        grad_x = grad_y = None
        if ctx.needs_input_grad[1]:      # ``exponent`` first; 0 where x == 0 and y >= 0 (not nan)
            grad_y = grad * Where.apply(zero, result * x.log(), (x._data == 0) & (y._data >= 0))
        if ctx.needs_input_grad[0]:      # 0 where the exponent is 0 (not 0 * inf = nan)
            grad_x = Where.apply(zero, grad * (y * x ** SubScalar.apply(y, 1)), y._data == 0)
        return grad_x, grad_y


class AddScalar(Function):
    """x + c for a number c that is not a graph input (``add(Scalar)`` in backward formulas)."""
    node_name = "AddBackward1"

    @staticmethod
    def forward(ctx, x, scalar):
        return _binary(np.add, x, as_tensor_operand(scalar, "+"))

    @staticmethod
    def backward(ctx, grad):
        return grad, None


class SubScalar(Function):
    """x - c for a number c that is not a graph input (``sub(Scalar)`` in backward formulas)."""
    node_name = "SubBackward1"

    @staticmethod
    def forward(ctx, x, scalar):
        return _binary(np.subtract, x, as_tensor_operand(scalar, "-"))

    @staticmethod
    def backward(ctx, grad):
        return grad, None


class PowScalarTensor(Function):
    """c ** x for a number c.  d/dx = c**x * log(c).  x is saved too, as PyTorch saves ``exponent``."""
    node_name = "PowBackward2"
    saved_names = ("exponent", "result")

    @staticmethod
    def forward(ctx, base, x):
        ctx.self = base
        data = to_float(x._data) if isinstance(base, float) or x._data.dtype.kind == "f" else x._data
        with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
            if data.dtype == np.float32:       # numpy's float32 pow is less exact than PyTorch's
                result = Tensor(contiguous(np.power(float(base), data.astype(np.float64)).astype(np.float32)))
            else:                              # (row by row, as PyTorch's result)
                result = Tensor(contiguous(np.power(np.array(base, dtype=data.dtype), data)))
        ctx.save_for_backward(x, result)
        return result

    @staticmethod
    def backward(ctx, grad):
        """FunctionsManual.cpp, pow_backward_exponent (a Scalar base): ``grad * result * log(base)``;
        for base 0, 0 where the exponent is >= 0 (not 0 * -inf = nan)."""
        exponent, result = ctx.saved_tensors
        with np.errstate(divide="ignore"):
            log_base = float(np.log(ctx.self))
        if ctx.self == 0:
            zero = Tensor(np.zeros((), grad._data.dtype))
            return None, grad * Where.apply(zero, MulScalar.apply(result, log_base), exponent._data >= 0)
        return None, grad * MulScalar.apply(result, log_base)


# ---------------------------------------------------------------------- unary
class Neg(Function):
    """-x."""
    node_name = "NegBackward0"

    @staticmethod
    def forward(ctx, x):
        return Tensor(np.negative(x._data))

    @staticmethod
    def backward(ctx, grad):
        return -grad


class Sin(Function):
    """sin(x).  d/dx = cos(x)."""
    node_name = "SinBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        with np.errstate(invalid="ignore"):         # sin(inf) is nan, silently as in PyTorch
            return Tensor(_rounded_from_float64(np.sin, to_float(x._data)))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * x.cos()


class Cos(Function):
    """cos(x).  d/dx = -sin(x)."""
    node_name = "CosBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        with np.errstate(invalid="ignore"):         # cos(inf) is nan, silently as in PyTorch
            return Tensor(_rounded_from_float64(np.cos, to_float(x._data)))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * -x.sin()


def sign_of(data):
    """-1, 0 or 1 by the sign of each element, and 0 for nan: PyTorch's kernel
    (aten/src/ATen/native/cpu/UnaryOpsKernel.cpp, sign_kernel: ``(0 < a) - (a < 0)``),
    where numpy's np.sign gives nan."""
    return (data > 0).astype(data.dtype) - (data < 0).astype(data.dtype)


class Sgn(Function):
    """sign(x) (-1, 0 or 1; 0 at nan): the gradient of abs; its own gradient is zero."""
    node_name = "SgnBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        return Tensor(sign_of(x._data))

    @staticmethod
    def backward(ctx, grad):
        return Tensor(np.zeros_like(grad._data))


class Abs(Function):
    """|x|.  d/dx = sgn(x) (derivatives.yaml, abs: ``grad * self.sgn()``): 0 at nan, where no gradient
    passes."""
    node_name = "AbsBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return Tensor(np.abs(x._data))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * Sgn.apply(x)


class Exp(Function):
    """e**x.  d/dx = e**x, so the *result* is saved, not x."""
    node_name = "ExpBackward0"
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, x):
        with np.errstate(over="ignore"):
            result = Tensor(_rounded_from_float64(np.exp, to_float(x._data)))
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return grad * result


class Log(Function):
    """log(x).  d/dx = 1/x."""
    node_name = "LogBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        with np.errstate(divide="ignore", invalid="ignore"):
            return Tensor(_rounded_from_float64(np.log, to_float(x._data)))

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad / x


class Sqrt(Function):
    """sqrt(x).  d/dx = 1 / (2 sqrt(x))."""
    node_name = "SqrtBackward0"
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, x):
        with np.errstate(invalid="ignore"):
            result = Tensor(np.sqrt(to_float(x._data)))
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return grad / MulScalar.apply(result, 2)


class Tanh(Function):
    """tanh(x).  d/dx = 1 - tanh(x)**2."""
    node_name = "TanhBackward0"
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, x):
        result = Tensor(_rounded_from_float64(np.tanh, to_float(x._data)))
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        # grad * (1 - result * result), computed as one node: fewer ops than three Tensor ops (the
        # benchmarks' tanh chain), and PyTorch's name, TanhBackwardBackward0, in a second backward
        return TanhBackward.apply(grad, result)


def _one_minus_square(y):
    """1 - y * y rounded once, as PyTorch's CPU tanh_backward gives it for float32 (its compiler fuses the
    multiply and subtract: 30% of the elements differ in the last bit otherwise); float32 y squared is
    exact in float64, and so is 1 minus it."""
    if y.dtype == np.float32:
        return (1.0 - np.square(y, dtype=np.float64)).astype(np.float32)
    return 1 - y * y


class TanhBackward(Function):
    """grad * (1 - y**2) as one node: one op, not three, and PyTorch's name in a second backward."""
    node_name = "TanhBackwardBackward0"
    saved_names = ("grad_output", "output")

    @staticmethod
    def forward(ctx, grad, result):
        ctx.save_for_backward(grad, result)
        return Tensor(grad._data * _one_minus_square(result._data))

    @staticmethod
    def backward(ctx, grad):
        """derivatives.yaml, tanh_backward: ``grad_output`` first, then ``output``."""
        grad_output, result = ctx.saved_tensors
        grad_grad_output = TanhBackward.apply(grad, result) if ctx.needs_input_grad[0] else None
        grad_result = grad * (MulScalar.apply(result, -2) * grad_output) if ctx.needs_input_grad[1] else None
        return grad_grad_output, grad_result


class Sigmoid(Function):
    """1 / (1 + e**-x).  d/dx = s (1 - s)."""
    node_name = "SigmoidBackward0"
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, x):
        data = to_float(x._data)
        with np.errstate(over="ignore"):        # exp(-x) = inf for x < -88 gives 1 / inf = 0: right
            result = Tensor(1 / (1 + np.exp(-data)))
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        # grad * result * (1 - result), computed as one node: fewer ops than three Tensor ops, and
        # PyTorch's name, SigmoidBackwardBackward0, in a second backward
        return SigmoidBackward.apply(grad, result)


class SigmoidBackward(Function):
    """grad * y * (1 - y) as one node: one op, not three, and PyTorch's name in a second backward."""
    node_name = "SigmoidBackwardBackward0"
    saved_names = ("grad_output", "output")

    @staticmethod
    def forward(ctx, grad, result):
        ctx.save_for_backward(grad, result)
        return Tensor(grad._data * result._data * (1 - result._data))

    @staticmethod
    def backward(ctx, grad):
        """derivatives.yaml, sigmoid_backward: ``grad_output`` first, then ``output``."""
        grad_output, result = ctx.saved_tensors
        grad_grad_output = SigmoidBackward.apply(grad, result) if ctx.needs_input_grad[0] else None
        grad_result = (grad * grad_output * AddScalar.apply(MulScalar.apply(result, -2), 1)
                       if ctx.needs_input_grad[1] else None)
        return grad_grad_output, grad_result


class Relu(Function):
    """max(x, 0), nan at nan and -0 at -0 (PyTorch's clamp_min).  d/dx = 0 where the result is <= 0,
    else 1: the gradient passes at nan."""
    node_name = "ReluBackward0"
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, x):
        result = Tensor(np.maximum(0, x._data))      # 0 first: numpy keeps the second of equals, -0
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        # grad where result > 0, else 0, as one node: PyTorch's name, ThresholdBackwardBackward0
        return ThresholdBackward.apply(grad, result)


class ThresholdBackward(Function):
    """0 where the result is <= 0, else grad: relu's backward as one op, as in PyTorch
    (derivatives.yaml, relu: ``threshold_backward(grad, result, 0)``, whose kernel is
    ``x <= threshold ? 0 : grad``: a nan result passes the gradient)."""
    node_name = "ThresholdBackwardBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, grad, result):
        ctx.save_for_backward(result)
        return Tensor(where_or_zero(~(result._data <= 0), grad._data))

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return ThresholdBackward.apply(grad, result), Tensor(np.zeros_like(result._data))


class Clamp(Function):
    """min(max(x, min), max) for numbers min, max (either may be None).  d/dx = 1 inside the bounds."""
    node_name = "ClampBackward1"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x, low, high):
        ctx.save_for_backward(x)
        ctx.min, ctx.max = low, high
        dtype = x._data.dtype
        if dtype.kind != "f" and any(isinstance(b, float) for b in (low, high)):
            dtype = np.dtype(np.float32)          # an integer tensor clamped by a float gives floats
        data = cast(x._data, dtype)
        if low is not None:
            data = np.maximum(data, np.array(low, dtype=dtype))
        if high is not None:
            data = np.minimum(data, np.array(high, dtype=dtype))
        return Tensor(data)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        inside = np.ones(x._data.shape, dtype=bool)
        if ctx.min is not None:
            inside &= x._data >= ctx.min
        if ctx.max is not None:
            inside &= x._data <= ctx.max
        return _keep(grad, inside), None, None


class ClampTensor(Function):
    """min(max(x, min), max) for tensors min, max (either may be None); derivatives.yaml: clamp.Tensor."""
    node_name = "ClampBackward0"
    saved_names = ("self", "min", "max")

    @staticmethod
    def forward(ctx, x, low, high):
        ctx.save_for_backward(x, low, high)
        dtype = result_dtype(*[t for t in (x, low, high) if t is not None])
        data = cast(x._data, dtype)
        if low is not None:
            data = np.maximum(data, cast(low._data, dtype))
        if high is not None:
            data = np.minimum(data, cast(high._data, dtype))
        return Tensor(np.array(data, dtype=dtype))

    @staticmethod
    def backward(ctx, grad):
        x, low, high = ctx.saved_tensors
        inside = np.asarray(True)
        grad_low = grad_high = None
        if low is not None:
            inside = inside & (x._data >= low._data)
        if high is not None:
            inside = inside & (x._data <= high._data)
        if low is not None and ctx.needs_input_grad[1]:
            picks_low = x._data < low._data
            if high is not None:
                picks_low = picks_low & (low._data < high._data)
            grad_low = _keep(grad, picks_low)
        if high is not None and ctx.needs_input_grad[2]:
            picks_high = x._data > high._data
            if low is not None:
                picks_high = picks_high | (high._data < low._data)
            grad_high = _keep(grad, picks_high)
        return _keep(grad, inside), grad_low, grad_high


class Reciprocal(Function):
    """1/x.  d/dx = -1/x**2."""
    node_name = "ReciprocalBackward0"
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, x):
        with np.errstate(divide="ignore"):
            result = Tensor(np.reciprocal(to_float(x._data)))
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return -grad * (result * result)


class ToCopy(Function):
    """x.to(dtype).  The gradient goes back in the input's dtype."""
    node_name = "ToCopyBackward0"

    @staticmethod
    def forward(ctx, x, dtype):
        ctx.input_dtype = x.dtype
        return Tensor(astype(x._data, dtype.numpy))

    @staticmethod
    def backward(ctx, grad):
        return grad.to(ctx.input_dtype), None
