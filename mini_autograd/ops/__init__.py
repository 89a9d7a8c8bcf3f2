"""The built-in differentiable operations, and the functions that pick the right one.

Each operation is a ``Function`` (see ``mini_autograd.autograd.function``) in one
of the modules here; the functions below check their arguments, turn python
numbers into tensors where PyTorch does, and call ``SomeOp.apply``.
"""
import numbers

import numpy as np

from .. import grad_mode
from .._tensor import Tensor
from ._helpers import as_tensor_operand, check_broadcast, check_tensor, result_dtype
from .pointwise import (Abs, Add, Div, Exp, Log, Mul, Neg, PowScalarTensor, PowTensorScalar,
                        PowTensorTensor, Reciprocal, Relu, Rsub, Sigmoid, Sqrt, Sub, Tanh, ToCopy)
from .reduction import argmax, max, mean, sum
from .linalg import dot, matmul, mm, mv
from .shape import clone, expand, permute, reshape, squeeze, t, transpose, unsqueeze, view
from .indexing import getitem, setitem
from .join import cat, stack


def _binary_operands(a, b, symbol):
    if not isinstance(a, Tensor):
        a = as_tensor_operand(a, symbol)
    return a, as_tensor_operand(b, symbol)


def add(a, b):
    return Add.apply(*_binary_operands(a, b, "+"))


def sub(a, b):
    return Sub.apply(*_binary_operands(a, b, "-"))


def rsub(a, number):
    """``number - a``: PyTorch's rsub, where the number is not a graph input."""
    if isinstance(number, Tensor):
        return sub(number, a)
    as_tensor_operand(number, "-")        # type check only
    return Rsub.apply(a, number)


def mul(a, b):
    return Mul.apply(*_binary_operands(a, b, "*"))


def div(a, b):
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
        raise TypeError(f"unsupported operand type(s) for ** or pow(): 'Tensor' and '{type(exponent).__name__}'")
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


def neg(x):
    return Neg.apply(check_tensor(x, "neg"))


def abs(x):
    return Abs.apply(check_tensor(x, "abs"))


def exp(x):
    return Exp.apply(check_tensor(x, "exp"))


def log(x):
    return Log.apply(check_tensor(x, "log"))


def sqrt(x):
    return Sqrt.apply(check_tensor(x, "sqrt"))


def tanh(x):
    return Tanh.apply(check_tensor(x, "tanh"))


def sigmoid(x):
    return Sigmoid.apply(check_tensor(x, "sigmoid"))


def relu(x):
    return Relu.apply(check_tensor(x, "relu"))


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


def inplace(op, tensor, other):
    """``tensor.add_(other)`` and friends: compute out of place, write back, bump the version.

    When the graph is recorded, the tensor takes the new node as its ``grad_fn`` (PyTorch
    calls this rebasing its history); the old value is what the node received as input.
    """
    tensor._check_inplace()
    recording = grad_mode.is_grad_enabled() and (
        tensor.requires_grad or (isinstance(other, Tensor) and other.requires_grad))
    if not recording and op in _UFUNC_OF and _write_in_place(_UFUNC_OF[op], tensor, other):
        return tensor
    if recording:
        old = Tensor(tensor._data)                       # the value before the change, for the graph
        old._version_counter = tensor._version_counter
        old.grad_fn, old._output_nr = tensor.grad_fn, tensor._output_nr
        old._requires_grad = tensor._requires_grad
        result = op(old, other)
    else:
        result = op(tensor, other)
    if result._data.dtype != tensor._data.dtype and not np.can_cast(result._data.dtype, tensor._data.dtype,
                                                                     casting="same_kind"):
        names = {"float32": "Float", "float64": "Double", "int64": "Long", "bool": "Bool"}
        raise RuntimeError(f"result type {names[result.dtype.name]} can't be cast to the desired output "
                           f"type {names[tensor.dtype.name]}")
    if result._data.shape != tensor._data.shape:
        raise RuntimeError(f"output with shape {list(tensor.shape)} doesn't match the broadcast shape "
                           f"{list(result.shape)}")
    np.copyto(tensor._data, result._data, casting="unsafe")
    tensor._bump_version()
    if recording:
        node = result.grad_fn
        if tensor._retains_grad and tensor.grad_fn is not None:   # the .grad hook moves to the new node
            tensor.grad_fn._retains_grad_hooks.pop(tensor._output_nr, None)
            tensor._retains_grad = False
            tensor.grad_fn, tensor._output_nr = node, 0
            tensor.retain_grad()
        tensor.grad_fn, tensor._output_nr = node, 0
        for saved in node._saved:
            if saved is not None and saved.is_output:   # the node's output now lives in ``tensor``
                saved.data, saved.version_counter = tensor._data, tensor._version_counter
                saved.saved_version = tensor._version_counter.value
    return tensor


def _write_in_place(ufunc, tensor, other):
    """Nothing to record: numpy writes the result straight into the tensor's memory (no copy).

    Only when the result already has the tensor's dtype and shape; ``inplace`` handles (and
    reports) every other case. Returns whether the update was done.
    """
    if not isinstance(other, (Tensor, int, float)):
        return False
    other = as_tensor_operand(other, ufunc.__name__)
    if result_dtype(tensor, other) != tensor._data.dtype:
        return False
    try:
        if np.broadcast_shapes(tensor._data.shape, other._data.shape) != tensor._data.shape:
            return False
    except ValueError:
        return False
    ufunc(tensor._data, other._data, out=tensor._data, dtype=tensor._data.dtype)
    tensor._bump_version()
    return True


_UFUNC_OF = {add: np.add, sub: np.subtract, mul: np.multiply}   # the in-place ops numpy can do directly
