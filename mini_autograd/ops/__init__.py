"""The built-in differentiable operations, and the functions that pick the right one.

Each operation is a ``Function`` (see ``mini_autograd.autograd.function``) in one
of the modules here; the functions below check their arguments, turn python
numbers into tensors where PyTorch does, and call ``SomeOp.apply``.
"""
import numbers

import numpy as np

from .._tensor import Tensor
from ._helpers import (as_tensor_operand, check_broadcast, check_broadcast_shapes, check_tensor, dims_tuple,
                       result_dtype)
from .binary import (Add, Clamp, ClampTensor, Div, Maximum, Minimum, Mul, PowScalarTensor, PowTensorScalar,
                     PowTensorTensor, Rsub, Sub, Where)
from .unary import Abs, Cos, Exp, Log, Neg, Reciprocal, Sin, Sqrt, Tanh, ToCopy, _unary
from .activations import Relu, Sigmoid
from .reductions import amax, amin, argmax, argmin, max, mean, min, norm, sum
from .linalg import bmm, dot, matmul, mm, mv
from .shape import clone, expand, flatten, permute, reshape, squeeze, t, transpose, unsqueeze, view
from .indexing import getitem, setitem
from .joining import cat, stack
from . import views, inplace as inplace_ops  # noqa: F401  (views: its Functions)
# Every module of ops is imported here, so that its Functions exist: each Function defined in a module of
# mini_autograd.ops is a built-in op (autograd/function.py, _in_builtin_package), with no list to edit.
# One family a module.
from . import (activations, binary, einsum, indexing, joining, linalg, losses, normalization,  # noqa: F401
               random, rearranging, reductions, shape, sorting, statistics, unary)

# The operations, defined below or in the modules above (Tensor's methods and mini_autograd call them).
__all__ = ["abs", "add", "amax", "amin", "argmax", "argmin", "bitwise", "bmm", "cat", "clamp", "clone",
           "compare", "cos", "div", "dot", "exp", "expand", "flatten", "getitem", "inplace", "invert",
           "log", "logical", "logical_reduce", "matmul", "max", "maximum", "mean", "min", "minimum",
           "mm", "mul", "mv", "neg", "norm", "permute", "pow", "rdiv", "reciprocal", "relu", "reshape",
           "rpow", "rsub", "setitem", "sigmoid", "sin", "sqrt", "squeeze", "stack", "sub", "sum", "t",
           "tanh", "to_dtype", "transpose", "unsqueeze", "view", "where"]


def _binary_operands(a, b, symbol):
    if not isinstance(a, Tensor):
        a = as_tensor_operand(a, symbol)
    return a, as_tensor_operand(b, symbol)


def add(a, b, alpha=1):
    """``a + alpha * b``."""
    a, b = _binary_operands(a, b, "+")
    if not (alpha == 1 and type(alpha) is int):            # the common case, no alpha given, needs no check
        alpha = _checked_alpha(a, b, alpha, "add")
    return Add.apply(a, b) if alpha == 1 else Add.apply(a, b, alpha)


def _checked_alpha(a, b, alpha, name):
    """alpha must suit the result's dtype (aten/src/ATen/native/BinaryOps.h: alpha_check)."""
    if not isinstance(alpha, numbers.Number) or isinstance(alpha, complex):
        raise TypeError(f"{name}(): argument 'alpha' must be Number, not {type(alpha).__name__}")
    kind = result_dtype(a, b).kind
    if isinstance(alpha, (bool, np.bool_)) and kind != "b":
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
    if kind in "biu" and not isinstance(alpha, (numbers.Integral, np.bool_)):
        raise RuntimeError("For integral input tensors, argument alpha must not be a floating point number.")
    return alpha


_BOOL_SUB_MESSAGE = ("Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying "
                     "to invert a mask, use the `~` or `logical_not()` operator instead.")


def sub(a, b, alpha=1):
    """``a - alpha * b``."""
    a, b = _binary_operands(a, b, "-")
    if a._data.dtype == np.bool_ or b._data.dtype == np.bool_:
        if a._data.dtype == b._data.dtype:
            raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. "
                               "Use the `^` or `logical_xor()` operator instead.")
        raise RuntimeError(_BOOL_SUB_MESSAGE)
    if not (alpha == 1 and type(alpha) is int):
        alpha = _checked_alpha(a, b, alpha, "sub")
    return Sub.apply(a, b) if alpha == 1 else Sub.apply(a, b, alpha)


def rsub(a, number):
    """``number - a``: PyTorch's rsub, where the number is not a graph input."""
    if isinstance(number, Tensor):
        return sub(number, a)
    if as_tensor_operand(number, "-")._data.dtype == np.bool_ or a._data.dtype == np.bool_:
        raise RuntimeError(_BOOL_SUB_MESSAGE)
    return Rsub.apply(a, number)


def mul(a, b):
    return Mul.apply(*_binary_operands(a, b, "*"))


def div(a, b, rounding_mode=None):
    """``a / b``; with ``rounding_mode`` ("trunc", "floor") the quotient rounded (binary.py)."""
    if rounding_mode is not None:
        return binary.div(a, b, rounding_mode)
    return Div.apply(*_binary_operands(a, b, "/"))


def rdiv(a, number):
    """``number / a`` is ``a.reciprocal() * number`` in PyTorch (Tensor.__rtruediv__)."""
    return mul(reciprocal(a), number)


def pow(a, exponent):
    if not isinstance(a, Tensor):
        return rpow(exponent, a)
    if isinstance(exponent, Tensor):
        return PowTensorTensor.apply(a, exponent)
    if not isinstance(exponent, numbers.Real):
        raise TypeError("unsupported operand type(s) for ** or pow(): "
                        f"'Tensor' and '{type(exponent).__name__}'")
    if not a.dtype.is_floating_point and isinstance(exponent, numbers.Integral) and exponent < 0:
        raise RuntimeError("Integers to negative integer powers are not allowed.")
    return PowTensorScalar.apply(a, exponent)


def rpow(a, base):
    """``base ** a`` for a python number ``base``."""
    if isinstance(base, Tensor):
        return PowTensorTensor.apply(base, a)
    if not isinstance(base, numbers.Real):
        raise TypeError(f"unsupported operand type(s) for ** or pow(): '{type(base).__name__}' and 'Tensor'")
    return PowScalarTensor.apply(base, a)


# The functions of one tensor: check the argument, then apply the op (unary.py: _unary).
neg, abs, exp, log, sin, cos, sqrt, tanh, sigmoid, relu = (
    _unary(function, name) for function, name in (
        (Neg, "neg"), (Abs, "abs"), (Exp, "exp"), (Log, "log"), (Sin, "sin"), (Cos, "cos"), (Sqrt, "sqrt"),
        (Tanh, "tanh"), (Sigmoid, "sigmoid"), (Relu, "relu")))







def maximum(a, b):
    check_tensor(a, "maximum"), check_tensor(b, "maximum", "other", 2)
    return Maximum.apply(a, b)


def minimum(a, b):
    check_tensor(a, "minimum"), check_tensor(b, "minimum", "other", 2)
    return Minimum.apply(a, b)


def where(condition, input, other):
    """``input`` where ``condition`` holds, else ``other`` (numbers are allowed for either)."""
    check_tensor(condition, "where", "condition")
    if condition.dtype.name != "bool":
        raise RuntimeError(f"where expected condition to be a boolean tensor, but got a tensor with "
                           f"dtype {condition.dtype.scalar_name}")
    input = input if isinstance(input, Tensor) else as_tensor_operand(input, "where")
    other = other if isinstance(other, Tensor) else as_tensor_operand(other, "where")
    return Where.apply(input, other, condition._data)






def clamp(x, min=None, max=None):
    """Each element limited to [min, max] (``ClampBackward1``; ``ClampBackward0`` for tensor bounds)."""
    check_tensor(x, "clamp")
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        bounds = [b if b is None or isinstance(b, Tensor) else as_tensor_operand(b, "clamp")
                  for b in (min, max)]
        shape = x._data.shape             # PyTorch's broadcast error, the operands taken in order
        for bound in bounds:
            if bound is not None:
                check_broadcast_shapes(shape, bound._data.shape)
                shape = np.broadcast_shapes(shape, bound._data.shape)
        return ClampTensor.apply(x, *bounds)
    for bound in (min, max):
        if bound is not None and not isinstance(bound, numbers.Real):
            raise TypeError(f"clamp(): argument 'min' must be Number, not {type(bound).__name__}")
    return Clamp.apply(x, min, max)


def reciprocal(x):
    return Reciprocal.apply(check_tensor(x, "reciprocal"))


def to_dtype(x, dtype):
    if x.dtype is dtype:
        return x
    return ToCopy.apply(x, dtype)


def compare(ufunc, a, b):
    """==, <, ... : boolean results, never part of the graph."""
    if not isinstance(b, (Tensor, numbers.Number, np.ndarray)):
        return NotImplemented
    b = as_tensor_operand(b, ufunc.__name__)
    if a._data.shape != b._data.shape:
        check_broadcast(a, b)              # PyTorch's message, not numpy's ValueError
    return Tensor(np.asarray(ufunc(a._data, b._data)))


def logical_reduce(function, x, dim=None, keepdim=False):
    """x.all() / x.any(), over everything or along ``dim``: a bool tensor, never part of the graph."""
    check_tensor(x, function.__name__)
    if dim is None:
        return Tensor(np.asarray(function(x._data != 0)))
    dims = dims_tuple(dim, x.ndim)
    return Tensor(np.asarray(function(x._data != 0, axis=dims, keepdims=keepdim)))


def logical(function, x):
    return Tensor(np.asarray(function(x._data)))


def invert(x):
    """~x: logical not for bool tensors, bitwise not for integers (PyTorch's bitwise_not)."""
    if x.dtype.is_floating_point:
        raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type tensors")
    return Tensor(np.asarray(np.invert(x._data)))


def bitwise(function, a, b, symbol):
    """&, |, ^ on bool or integer tensors (masks): never part of the graph."""
    if not isinstance(b, (Tensor, bool, int, np.ndarray)):
        return NotImplemented
    b = as_tensor_operand(b, symbol)
    if a.dtype.is_floating_point or b.dtype.is_floating_point:
        name = {"&": "bitwise_and", "|": "bitwise_or", "^": "bitwise_xor"}[symbol]
        raise RuntimeError(f'"{name}_cpu" not implemented for \'Float\'')
    if a._data.shape != b._data.shape:
        check_broadcast(a, b)
    return Tensor(np.asarray(function(a._data, b._data)))


def inplace(op, tensor, other, alpha=1):
    """``tensor.add_(other)`` and friends: see ``inplace.run_inplace``.

    When the node keeps the tensor's old values (Mul and Div do, for the other input's
    gradient), ``run_inplace`` gives it a copy of them, as PyTorch saves ``self.clone()``.
    When nothing is recorded and ``other`` is a float tensor of the same shape and dtype
    (an optimizer's ``param.add_(update)``), numpy writes the result straight into the
    tensor: the same numbers, without a result array to copy in. ``alpha`` is add_'s and sub_'s.
    """
    if not (alpha == 1 and type(alpha) is int):
        alpha = _checked_alpha(tensor, as_tensor_operand(other, op.__name__), alpha, op.__name__ + "_")
    args = (other,) if alpha == 1 else (other, alpha)
    write = None
    if (op in _WRITE_IN_PLACE and isinstance(other, Tensor) and other._data.dtype == tensor._data.dtype
            and other._data.shape == tensor._data.shape and tensor._data.dtype.kind == "f"):
        write = _WRITE_IN_PLACE[op]
    return inplace_ops.run_inplace(tensor, op, args, write=write)


def _write_with(ufunc):
    """``array = ufunc(array, alpha * other)``, written into ``array``."""
    @np.errstate(all="ignore")
    def write(array, other, alpha=1):
        scaled = other._data if alpha == 1 else np.multiply(other._data, alpha, dtype=array.dtype)
        ufunc(array, scaled, out=array)
    return write


_WRITE_IN_PLACE = {add: _write_with(np.add), sub: _write_with(np.subtract), mul: _write_with(np.multiply)}
