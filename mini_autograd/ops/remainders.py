"""``remainder`` (the ``%`` operator) and ``fmod``, and division with a rounding mode.

``remainder`` takes the divisor's sign, as Python's ``%`` does (``-3 % 2`` is 1); ``fmod`` the
dividend's, as C's ``fmod`` (``fmod(-3, 2)`` is -1). By a number, the gradient passes unchanged
(``RemainderBackward0``, ``FmodBackward0``); by a tensor, the divisor gets ``-grad * self.div(other,
rounding_mode="floor")`` (``"trunc"`` for fmod), derivatives.yaml's remainder.Tensor and fmod.Tensor;
a number divided by a tensor has no derivative in PyTorch (its node is ``NotImplemented``).
``div(a, b, rounding_mode=...)`` (``DivBackward2``, a number divisor wrapped in a tensor) has a zero
gradient.
"""
import numbers

import numpy as np

from .._tensor import Tensor
from ..autograd.function import Function
from ._helpers import as_tensor_operand, check_broadcast, result_dtype
from .views import iterator_out


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
