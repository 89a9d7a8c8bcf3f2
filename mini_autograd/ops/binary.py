"""Elementwise functions of two tensors (or a tensor and a number): the arithmetic ``+ - * / **``,
``maximum``, ``minimum``, ``clamp``, ``where``, ``masked_fill``, ``atan2``, ``xlogy``, ``hypot``,
``logaddexp``, ``remainder``, ``fmod`` and division with a rounding mode (tools/autograd/derivatives.yaml;
aten/src/ATen/native/BinaryOps.h).

Each is a Function named after PyTorch's backward node. The backward formulas follow derivatives.yaml,
written with Tensor operations so that ``create_graph=True`` can differentiate them again, into the graph
PyTorch records: the same ops, in the same order. PyTorch's generated nodes compute their inputs'
gradients in the alphabetical order of the inputs' names (tools/autograd/load_derivatives.py: ``for
raw_names in sorted(defn.keys())``): ``other`` before ``self``, for example, so the gradients below are
made in that order too. Broadcasting needs no code here: the engine sums each gradient back to its input's
shape (engine.py: validate_outputs).

``remainder`` takes the divisor's sign, as Python's ``%`` does (``-3 % 2`` is 1); ``fmod`` the dividend's,
as C's ``fmod`` (``fmod(-3, 2)`` is -1). By a number, the gradient passes unchanged
(``RemainderBackward0``, ``FmodBackward0``); by a tensor, the divisor gets ``-grad * self.div(other,
rounding_mode="floor")`` (``"trunc"`` for fmod), derivatives.yaml's remainder.Tensor and fmod.Tensor; a
number divided by a tensor has no derivative in PyTorch (its node is ``NotImplemented``). ``div(a, b,
rounding_mode=...)`` (``DivBackward2``, a number divisor wrapped in a tensor) has a zero gradient.
"""
import math
import numbers

import numpy as np

from .._tensor import Tensor
from ..autograd.function import Function
from ._helpers import (as_tensor_operand, cast, check_broadcast, check_broadcast_shapes, check_tensor,
                       contiguous, result_dtype, to_float)
from .views import iterator_out


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
                from .joining import cat
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


def masked_fill(x, mask, value):
    """x with ``value`` (a number or a 0-d tensor) where the bool ``mask`` holds."""
    from ._helpers import check_broadcast_shapes
    check_tensor(x, "masked_fill")
    check_tensor(mask, "masked_fill", "mask", 2)
    if mask.dtype.name != "bool":
        raise RuntimeError(f"masked_fill_ only supports boolean masks, but got mask with dtype "
                           f"{mask.dtype.c_name}")
    shape = x._data.shape
    if mask.shape != x.shape:      # the mask first: PyTorch's masked_fill calls expand_outplace(mask, self)
        check_broadcast_shapes(mask._data.shape, shape)
        shape = np.broadcast_shapes(shape, mask._data.shape)     # the mask may make the result larger
    where = np.broadcast_to(mask._data, shape)
    if isinstance(value, Tensor):
        if value.ndim != 0:
            raise RuntimeError(f"masked_fill_ only supports a 0-dimensional value tensor, but got tensor "
                               f"with {value.ndim} dimension(s).")
        return MaskedFillTensor.apply(x, value, where)
    return MaskedFill.apply(x, where, value)


# ----------------------------------------------------------------- of two tensors
def _float_operands(a, b):
    """The dtype of a two-tensor float op: PyTorch's promotion, integers and bools as float32."""
    dtype = result_dtype(a, b)
    return dtype if dtype.kind == "f" else np.dtype(np.float32)


def _binary64(compute, a, b, dtype):
    """``compute(a, b)`` in float64, rounded once to ``dtype``, broadcast and laid out as PyTorch's."""
    try:
        out = iterator_out(dtype, a._data, b._data)
        with np.errstate(all="ignore"):
            result = compute(a._data.astype(np.float64), b._data.astype(np.float64)).astype(dtype)
    except ValueError:
        check_broadcast(a, b)
        raise
    if out is None:
        return Tensor(np.ascontiguousarray(result) if result.ndim else result)
    out[...] = result
    return Tensor(out)


class Atan2(Function):
    """The angle of the point (other, self): arctan(self / other) in the right quadrant."""
    node_name = "Atan2Backward0"
    saved_names = ("other", "self")

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(b, a)
        return _binary64(np.arctan2, a, b, _float_operands(a, b))

    @staticmethod
    def backward(ctx, grad):
        """FunctionsManual.cpp, atan2_backward: ``recip`` is ``1 / (self * self + other * other)``, then
        ``grad * other * recip`` and ``grad * -self * recip``. torch 2.13 also sets ``recip`` to 0 where the
        denominator is 0, by a masked_fill (measured: its graph has MaskedFillBackward0 there, and the
        gradient at (0, 0) is 0, not nan)."""
        b, a = ctx.saved_tensors
        denominator = a * a + b * b
        recip = MaskedFill.apply(denominator.reciprocal(), denominator._data == 0, 0.0)
        needs_a, needs_b = ctx.needs_input_grad
        return (grad * b * recip if needs_a else None), (grad * -a * recip if needs_b else None)


def _xlogy(x, y):
    """x * log(y), 0 where x is 0 (unless y is nan): PyTorch's xlogy kernel."""
    return np.where(np.isnan(y), np.nan, np.where(x == 0, 0.0, x * np.log(y)))


class Xlogy(Function):
    """x * log(y), 0 where x == 0 (``xlogy.Tensor``)."""
    node_name = "XlogyBackward0"
    saved_names = ("other", "self")

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(b, a)
        return _binary64(_xlogy, a, b, _float_operands(a, b))

    @staticmethod
    def backward(ctx, grad):
        """derivatives.yaml, xlogy.Tensor: ``other``: ``grad * self / other``; ``self``:
        ``at::xlogy(grad, other).masked_fill((self == 0.) & (other <= 0.), 0.)``."""
        b, a = ctx.saved_tensors
        needs_a, needs_b = ctx.needs_input_grad
        grad_b = grad * a / b if needs_b else None
        grad_a = None
        if needs_a:
            logs = xlogy(grad, b)
            grad_a = MaskedFill.apply(logs, np.broadcast_to((a._data == 0) & (b._data <= 0), logs.shape), 0.0)
        return grad_a, grad_b


class XlogyScalarOther(Function):
    """xlogy(x, number) (``xlogy.Scalar_Other``)."""
    node_name = "XlogyBackward2"
    saved_names = ("self",)
    saved_fields = ("other",)

    @staticmethod
    def forward(ctx, a, other):
        ctx.other = other
        ctx.save_for_backward(a)
        b = as_tensor_operand(other, "xlogy")
        return _binary64(_xlogy, a, b, _float_operands(a, b))

    @staticmethod
    def backward(ctx, grad):
        """``other > 0 ? xlogy(grad, other) : xlogy(grad, other).masked_fill(self == 0., 0.)``."""
        (a,) = ctx.saved_tensors
        logs = XlogyScalarOther.apply(grad, ctx.other)
        if ctx.other > 0:
            return logs, None
        return MaskedFill.apply(logs, np.broadcast_to(a._data == 0, logs.shape), 0.0), None


class XlogyScalarSelf(Function):
    """xlogy(number, y) (``xlogy.Scalar_Self``): only y gets a gradient, ``grad * self / other``."""
    node_name = "XlogyBackward1"
    saved_names = ("other",)
    saved_fields = ("self",)

    @staticmethod
    def forward(ctx, number, b):
        ctx.self = number
        ctx.save_for_backward(b)
        a = as_tensor_operand(number, "xlogy")
        return _binary64(_xlogy, a, b, _float_operands(a, b))

    @staticmethod
    def backward(ctx, grad):
        (b,) = ctx.saved_tensors
        return None, MulScalar.apply(grad, ctx.self) / b


class Hypot(Function):
    """sqrt(self**2 + other**2), without overflow.  d/dself = self / result, d/dother = other / result."""
    node_name = "HypotBackward0"
    saved_names = ("other", "self", "result")

    @staticmethod
    def forward(ctx, a, b):
        result = _binary64(np.hypot, a, b, _float_operands(a, b))
        ctx.save_for_backward(b, a, result)
        return result

    @staticmethod
    def backward(ctx, grad):
        b, a, result = ctx.saved_tensors
        needs_a, needs_b = ctx.needs_input_grad
        grad_b = grad * b / result if needs_b else None
        grad_a = grad * a / result if needs_a else None
        return grad_a, grad_b


def _logaddexp(x, y):
    """log(e**x + e**y): PyTorch's kernel (``x`` itself where both are the same infinity)."""
    biggest = np.maximum(x, y)
    return np.where(np.isinf(x) & (x == y), x, biggest + np.log1p(np.exp(-np.abs(x - y))))


def _logaddexp2(x, y):
    biggest = np.maximum(x, y)
    return np.where(np.isinf(x) & (x == y), x, biggest + np.log1p(np.exp2(-np.abs(x - y))) / math.log(2))


class Logaddexp(Function):
    """log(e**self + e**other).  d/dself = 1 / (1 + e**(other - self))."""
    node_name = "LogaddexpBackward0"
    saved_names = ("other", "self")
    compute = staticmethod(_logaddexp)

    @classmethod
    def forward(cls, ctx, a, b):
        ctx.save_for_backward(b, a)
        return _binary64(cls.compute, a, b, _float_operands(a, b))

    @staticmethod
    def backward(ctx, grad):
        """``other``: ``grad / (1 + exp(self - other))``, then ``self``: ``grad / (1 + exp(other -
        self))``."""
        b, a = ctx.saved_tensors
        needs_a, needs_b = ctx.needs_input_grad
        grad_b = grad / AddScalar.apply((a - b).exp(), 1) if needs_b else None
        grad_a = grad / AddScalar.apply((b - a).exp(), 1) if needs_a else None
        return grad_a, grad_b


class Logaddexp2(Logaddexp):
    """log2(2**self + 2**other).  d/dself = 1 / (1 + 2**(other - self))."""
    node_name = "Logaddexp2Backward0"
    compute = staticmethod(_logaddexp2)

    @staticmethod
    def backward(ctx, grad):
        """``other``: ``grad / (1 + pow(2, self - other))``, then ``self``: ``grad / (1 + pow(2, other -
        self))``."""
        b, a = ctx.saved_tensors
        needs_a, needs_b = ctx.needs_input_grad
        grad_b = grad / AddScalar.apply(2 ** (a - b), 1) if needs_b else None
        grad_a = grad / AddScalar.apply(2 ** (b - a), 1) if needs_a else None
        return grad_a, grad_b


def _two_tensors(name, a, b):
    check_tensor(a, name)
    check_tensor(b, name, "other", 2)


def _floats_only(name, a, b):
    """hypot and logaddexp have no integer kernel in PyTorch."""
    dtype = result_dtype(a, b)
    if dtype.kind != "f":
        from .._dtype import from_numpy_dtype
        kind = from_numpy_dtype(dtype).scalar_name
        raise NotImplementedError(f'"{name}_cpu" not implemented for \'{kind}\'')


def atan2(input, other):
    """``torch.atan2``: the angle of (other, input), in (-pi, pi]."""
    _two_tensors("atan2", input, other)
    return Atan2.apply(input, other)


def xlogy(input, other):
    """``torch.xlogy``: input * log(other), 0 where input is 0; either may be a number."""
    if not isinstance(input, Tensor):
        check_tensor(other, "xlogy", "other", 2)
        return XlogyScalarSelf.apply(input, other)
    if not isinstance(other, Tensor):
        return XlogyScalarOther.apply(input, other)
    return Xlogy.apply(input, other)


def hypot(input, other):
    """``torch.hypot``: sqrt(input**2 + other**2)."""
    _two_tensors("hypot", input, other)
    _floats_only("hypot", input, other)
    return Hypot.apply(input, other)


def logaddexp(input, other):
    """``torch.logaddexp``: log(exp(input) + exp(other)), without overflow."""
    _two_tensors("logaddexp", input, other)
    _floats_only("logaddexp", input, other)
    return Logaddexp.apply(input, other)


def logaddexp2(input, other):
    """``torch.logaddexp2``: log2(2**input + 2**other), without overflow."""
    _two_tensors("logaddexp2", input, other)
    _floats_only("logaddexp2", input, other)
    return Logaddexp2.apply(input, other)


@np.errstate(all="ignore")
def _apply(ufunc, a, b, kernel):
    """``ufunc(a, b)`` in PyTorch's promoted dtype and layout; integers divided by 0 raise, as PyTorch's
    kernels do (a C++ ZeroDivisionError); bools have no kernel."""
    dtype = result_dtype(a, b)
    if dtype.kind == "b":
        raise NotImplementedError(f'"{kernel}_cpu" not implemented for \'Bool\'')
    if dtype.kind in "iu" and np.any(b._data == 0):
        raise RuntimeError("ZeroDivisionError")
    try:
        out = iterator_out(dtype, a._data, b._data)
        return Tensor(ufunc(a._data, b._data, out=out, dtype=dtype, casting="unsafe"))
    except ValueError:
        check_broadcast(a, b)
        raise


def _remainder(x, y, out=None, dtype=None, casting="unsafe"):
    """Python's ``%``: PyTorch's kernel for floats (``fmod``, plus the divisor when the signs differ), so
    that ``-0.0 % 2`` is -0.0 (numpy's remainder gives +0.0); numpy's for integers."""
    if np.dtype(dtype).kind != "f":
        return np.remainder(x, y, out=out, dtype=dtype, casting=casting)
    mod = np.fmod(x, y, out=out, dtype=dtype, casting=casting)
    divisor = np.broadcast_to(np.asarray(y, dtype=dtype), mod.shape)
    fix = (mod != 0) & ((divisor < 0) != (mod < 0))
    np.add(mod, divisor, out=mod, where=fix)
    return mod


class RemainderScalar(Function):
    """x % c for a number c (the sign of c).  The gradient passes unchanged."""
    node_name = "RemainderBackward0"
    ufunc, kernel = staticmethod(_remainder), "remainder"

    @classmethod
    def forward(cls, ctx, x, number):
        return _apply(cls.ufunc, x, as_tensor_operand(number, "%"), cls.kernel)

    @staticmethod
    def backward(ctx, grad):
        return grad, None


class FmodScalar(RemainderScalar):
    """fmod(x, c) for a number c (the sign of x).  The gradient passes unchanged."""
    node_name = "FmodBackward0"
    ufunc, kernel = staticmethod(np.fmod), "fmod"


class RemainderTensor(Function):
    """x % y for tensors.  d/dx = 1, d/dy = -(x // y) (derivatives.yaml, remainder.Tensor:
    ``-grad * self.div(other, /*rounding_mode=*/"floor")``)."""
    node_name = "RemainderBackward1"
    saved_names = ("other", "self")
    ufunc, kernel, rounding = staticmethod(_remainder), "remainder", "floor"

    @classmethod
    def forward(cls, ctx, a, b):
        ctx.save_for_backward(b, a)
        return _apply(cls.ufunc, a, b, cls.kernel)

    @classmethod
    def backward(cls, ctx, grad):
        b, a = ctx.saved_tensors
        needs_a, needs_b = ctx.needs_input_grad
        grad_b = -grad * div(a, b, rounding_mode=cls.rounding) if needs_b else None
        return (grad if needs_a else None), grad_b


class FmodTensor(RemainderTensor):
    """fmod(x, y) for tensors.  d/dx = 1, d/dy = -trunc(x / y) (derivatives.yaml, fmod.Tensor)."""
    node_name = "FmodBackward1"
    ufunc, kernel, rounding = staticmethod(np.fmod), "fmod", "trunc"


class RemainderOfNumber(Function):
    """number % tensor: PyTorch computes it, but records a node without a derivative."""
    node_name = "torch::autograd::NotImplemented"

    @staticmethod
    def forward(ctx, number, b):
        return _apply(_remainder, as_tensor_operand(number, "%"), b, "remainder")

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError("derivative for aten::remainder is not implemented")


def _divided(a, b, rounding_mode):
    """PyTorch's div with a rounding mode: the quotient truncated (``"trunc"``) or floored (``"floor"``);
    integers stay integers (and may not be divided by 0)."""
    dtype = result_dtype(a, b)
    x, y = a._data, b._data
    with np.errstate(all="ignore"):
        if dtype.kind in "iub":
            if np.any(y == 0):
                raise RuntimeError("ZeroDivisionError")
            if rounding_mode == "floor":
                return np.floor_divide(x, y, dtype=dtype, casting="unsafe")
            quotient = np.floor_divide(x, y, dtype=dtype, casting="unsafe")
            inexact = (np.remainder(x, y, dtype=dtype, casting="unsafe") != 0) & ((x < 0) != (y < 0))
            return quotient + inexact.astype(dtype)
        if rounding_mode == "floor":
            return np.floor_divide(x, y, dtype=dtype, casting="unsafe")
        return np.trunc(np.true_divide(x, y, dtype=dtype, casting="unsafe"))


class DivMode(Function):
    """a / b rounded (``div(a, b, rounding_mode=...)``): the gradient is zero (FunctionsManual.cpp,
    div_tensor_self_backward and div_tensor_other_backward: ``zeros_like`` with a rounding mode)."""
    node_name = "DivBackward2"
    saved_names = ("other", "self")
    saved_fields = ("rounding_mode",)

    @staticmethod
    def forward(ctx, a, b, rounding_mode):
        ctx.rounding_mode = rounding_mode
        ctx.save_for_backward(b, a)
        try:
            return Tensor(_divided(a, b, rounding_mode))
        except ValueError:
            check_broadcast(a, b)
            raise

    @staticmethod
    def backward(ctx, grad):
        b, a = ctx.saved_tensors
        zeros_a = Tensor(np.zeros_like(grad._data, a._data.dtype))
        return zeros_a, Tensor(np.zeros_like(grad._data, b._data.dtype)), None


def div(a, b, rounding_mode):
    """a / b with its quotient rounded by ``rounding_mode`` ("trunc" or "floor"), as torch.div does."""
    if rounding_mode not in ("trunc", "floor"):
        raise RuntimeError(f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but found "
                           f"'{rounding_mode}'")
    a = a if isinstance(a, Tensor) else as_tensor_operand(a, "/")      # a number is wrapped, as PyTorch's
    return DivMode.apply(a, b if isinstance(b, Tensor) else as_tensor_operand(b, "/"), rounding_mode)


def _is_operand(value):
    return isinstance(value, (Tensor, numbers.Number, np.ndarray, np.generic))


def _invalid_arguments(name, args, method=False):
    """PyTorch's argument parser's words when no overload of remainder or fmod takes ``args``."""
    got = ", ".join(type(a).__name__ for a in args)
    if method:
        overloads = "".join(f" * ({kind} other)\n      didn't match because some of the arguments have "
                            f"invalid types: (!{got}!)\n" for kind in ("Tensor", "Number"))
    else:
        number_self = ""
        if name == "remainder":
            marks = ", ".join(type(a).__name__ if i == 1 and isinstance(a, Tensor)
                              else f"!{type(a).__name__}!" for i, a in enumerate(args))
            number_self = (" * (Number self, Tensor other)\n      didn't match because some of the arguments "
                           f"have invalid types: ({marks})\n")
        overloads = (" * (Tensor input, Tensor other, *, Tensor out = None)\n" + number_self
                     + " * (Tensor input, Number other, *, Tensor out = None)\n")
    return TypeError(f"{name}() received an invalid combination of arguments - got ({got}), but expected one "
                     f"of:\n{overloads}")


def in_place(function, tensor, other):
    """``x.remainder_(y)``, ``x.fmod_(y)``, ``x %= y``: the op's node, recorded on x."""
    from .inplace import run_inplace
    if not _is_operand(other):
        return function(tensor, other, method=True)          # its error
    return run_inplace(tensor, function, (other,))


def remainder(input, other, method=False):
    """``torch.remainder`` (``input % other``): the remainder with the sign of ``other``; either may be a
    number."""
    tensors = isinstance(input, Tensor) or isinstance(other, Tensor)
    if not tensors or not (_is_operand(input) and _is_operand(other)):
        raise _invalid_arguments("remainder", (other,) if method else (input, other), method)
    if not isinstance(input, Tensor):
        return RemainderOfNumber.apply(input, other)
    if isinstance(other, Tensor):
        return RemainderTensor.apply(input, other)
    if isinstance(other, np.ndarray):
        return RemainderTensor.apply(input, as_tensor_operand(other, "%"))
    return RemainderScalar.apply(input, other)


def fmod(input, other, method=False):
    """``torch.fmod``: the remainder with the sign of ``input`` (C's fmod)."""
    if not isinstance(input, Tensor) or not _is_operand(other):
        raise _invalid_arguments("fmod", (other,) if method else (input, other), method)
    if isinstance(other, Tensor):
        return FmodTensor.apply(input, other)
    if isinstance(other, np.ndarray):
        return FmodTensor.apply(input, as_tensor_operand(other, "fmod"))
    return FmodScalar.apply(input, other)
