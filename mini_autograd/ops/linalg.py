"""Matrix products: mm, mv, dot, and matmul choosing between them as PyTorch does."""
import numpy as np

from ..autograd.function import Function
from .._tensor import Tensor
from ._helpers import check_tensor


def _same_dtype(a, b):
    if a._data.dtype != b._data.dtype:
        names = {np.dtype(np.float32): "float", np.dtype(np.float64): "double", np.dtype(np.int64): "long int"}
        raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: "
                           f"{names.get(a._data.dtype, a._data.dtype)} != {names.get(b._data.dtype, b._data.dtype)}")


class Mm(Function):
    """A @ B for matrices.  dA = grad @ B.T, dB = A.T @ grad."""
    node_name = "MmBackward0"
    saved_names = ("self", "mat2")

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a if ctx.needs_input_grad[1:2] == (True,) else None,
                              b if ctx.needs_input_grad[:1] == (True,) else None)
        return Tensor(a._data @ b._data)

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        return (grad.mm(b.t()) if ctx.needs_input_grad[0] else None,
                a.t().mm(grad) if ctx.needs_input_grad[1] else None)


class Mv(Function):
    """A @ v for a matrix and a vector.  dA = outer(grad, v), dv = A.T @ grad."""
    node_name = "MvBackward0"
    saved_names = ("self", "vec")

    @staticmethod
    def forward(ctx, a, v):
        ctx.save_for_backward(a if ctx.needs_input_grad[1:2] == (True,) else None,
                              v if ctx.needs_input_grad[:1] == (True,) else None)
        return Tensor(a._data @ v._data)

    @staticmethod
    def backward(ctx, grad):
        a, v = ctx.saved_tensors
        return (grad.unsqueeze(1) * v.unsqueeze(0) if ctx.needs_input_grad[0] else None,
                a.t().mv(grad) if ctx.needs_input_grad[1] else None)


class Dot(Function):
    """u . v for vectors.  du = grad * v, dv = grad * u."""
    node_name = "DotBackward0"
    saved_names = ("self", "tensor")

    @staticmethod
    def forward(ctx, u, v):
        ctx.save_for_backward(u if ctx.needs_input_grad[1:2] == (True,) else None,
                              v if ctx.needs_input_grad[:1] == (True,) else None)
        return Tensor(np.asarray(u._data @ v._data))

    @staticmethod
    def backward(ctx, grad):
        u, v = ctx.saved_tensors
        return (grad * v if ctx.needs_input_grad[0] else None,
                grad * u if ctx.needs_input_grad[1] else None)


def mm(a, b):
    check_tensor(a, "mm", "input"), check_tensor(b, "mm", "mat2", 2)
    if a.ndim != 2:
        raise RuntimeError("self must be a matrix")
    if b.ndim != 2:
        raise RuntimeError("mat2 must be a matrix")
    if a.shape[1] != b.shape[0]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied "
                           f"({a.shape[0]}x{a.shape[1]} and {b.shape[0]}x{b.shape[1]})")
    _same_dtype(a, b)
    return Mm.apply(a, b)


def mv(a, v):
    check_tensor(a, "mv", "input"), check_tensor(v, "mv", "vec", 2)
    if a.ndim != 2 or v.ndim != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got 1, {a.ndim}, {v.ndim}")
    if a.shape[1] != v.shape[0]:
        raise RuntimeError(f"size mismatch, got input ({a.shape[0]}), mat ({a.shape[0]}x{a.shape[1]}), "
                           f"vec ({v.shape[0]})")
    _same_dtype(a, v)
    return Mv.apply(a, v)


def dot(u, v):
    check_tensor(u, "dot", "input"), check_tensor(v, "dot", "tensor", 2)
    if u.ndim != 1 or v.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {u.ndim}D and {v.ndim}D tensors")
    if u.shape[0] != v.shape[0]:
        raise RuntimeError(f"inconsistent tensor size, expected tensor [{u.shape[0]}] and src "
                           f"[{v.shape[0]}] to have the same number of elements, but got "
                           f"{u.shape[0]} and {v.shape[0]} elements respectively")
    _same_dtype(u, v)
    return Dot.apply(u, v)


def matmul(a, b):
    """The product PyTorch's ``matmul`` picks by dimensions (aten/src/ATen/native/LinearAlgebra.cpp)."""
    check_tensor(a, "matmul", "input"), check_tensor(b, "matmul", "other", 2)
    if a.ndim == 1 and b.ndim == 1:
        return dot(a, b)
    if a.ndim == 2 and b.ndim == 1:
        return mv(a, b)
    if a.ndim == 1 and b.ndim == 2:
        if a.shape[0] != b.shape[0]:
            raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied (1x{a.shape[0]} and "
                               f"{b.shape[0]}x{b.shape[1]})")
        from .shape import squeeze_for_matmul
        return squeeze_for_matmul(mm(a.unsqueeze(0), b), 0)
    if a.ndim == 2 and b.ndim == 2:
        return mm(a, b)
    if a.ndim == 0 or b.ndim == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are "
                           f"{a.ndim}D and {b.ndim}D")
    raise NotImplementedError(f"mini_autograd's matmul handles 1-D and 2-D tensors; got shapes "
                              f"{list(a.shape)} and {list(b.shape)}")
