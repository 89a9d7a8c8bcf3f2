"""Matrix products: ``mm``, ``mv``, ``dot``, ``bmm``, ``addmm``, ``outer``, and ``matmul`` choosing between
them as PyTorch does (tools/autograd/derivatives.yaml; LinearAlgebra.cpp and
aten/src/ATen/native/Blas.cpp).
"""
import math

import numpy as np

from .._tensor import Tensor
from ..autograd.function import Function
from ._helpers import check_broadcast_shapes, check_tensor


def _same_dtype(a, b):
    if a._data.dtype != b._data.dtype:
        raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: {a.dtype.c_name} != "
                           f"{b.dtype.c_name}")


def is_column_major(array):
    """A matrix laid out column by column (as ``w.t()`` is): PyTorch's test in mm_mat1/mat2_backward."""
    rows = array.shape[0]
    strides = [s // array.itemsize for s in array.strides]
    return strides[0] == 1 and strides[1] == rows


def mm_mat1_backward(grad, mat2, mat1_column_major):
    """grad @ mat2^T, laid out as mat1 was (FunctionsManual.cpp: mm_mat1_backward)."""
    return mat2.mm(grad.t()).t() if mat1_column_major else grad.mm(mat2.t())


def mm_mat2_backward(grad, mat1, mat2_column_major):
    """mat1^T @ grad, laid out as mat2 was (FunctionsManual.cpp: mm_mat2_backward)."""
    return grad.t().mm(mat1).t() if mat2_column_major else mat1.t().mm(grad)


@np.errstate(all="ignore")        # inf * 0 and inf - inf give nan, silently as in PyTorch
def matrix_product(a, b, bias=None):
    """a @ b for two matrices (numpy arrays), plus ``bias`` if given, added in place on the fresh
    product (no second array of its size). With one column times one row, each element is its one
    product, as PyTorch's mm gives it: numpy's matmul adds it to 0, turning -0 into +0."""
    out = a * b if a.shape[1] == 1 else a @ b
    if bias is not None:
        out += bias
    return out


class Mm(Function):
    """A @ B for matrices.  dA = grad @ B.T, dB = A.T @ grad."""
    node_name = "MmBackward0"
    saved_names = ("mat2", "self")        # in PyTorch's order (saved_tensors_hooks see them in it)

    @staticmethod
    def forward(ctx, a, b):
        needs_a, needs_b = ctx.needs_input_grad
        ctx.save_for_backward(b if needs_a else None, a if needs_b else None)
        ctx.self_column_major, ctx.mat2_column_major = is_column_major(a._data), is_column_major(b._data)
        return Tensor(matrix_product(a._data, b._data))

    @staticmethod
    def backward(ctx, grad):
        b, a = ctx.saved_tensors
        # ``mat2`` first, then ``self``: the order of PyTorch's MmBackward0 (see binary.py's docstring)
        grad_b = mm_mat2_backward(grad, a, ctx.mat2_column_major) if ctx.needs_input_grad[1] else None
        grad_a = mm_mat1_backward(grad, b, ctx.self_column_major) if ctx.needs_input_grad[0] else None
        return grad_a, grad_b


class Mv(Function):
    """A @ v for a matrix and a vector.  dA = outer(grad, v), dv = A.T @ grad."""
    node_name = "MvBackward0"
    saved_names = ("self", "vec")

    @staticmethod
    def forward(ctx, a, v):
        needs_a, needs_v = ctx.needs_input_grad
        ctx.save_for_backward(a if needs_v else None, v if needs_a else None)
        with np.errstate(all="ignore"):
            return Tensor(a._data @ v._data)

    @staticmethod
    def backward(ctx, grad):
        a, v = ctx.saved_tensors
        return (grad.reshape(-1, 1) * v if ctx.needs_input_grad[0] else None,     # outer(grad, v)
                a.t().mv(grad) if ctx.needs_input_grad[1] else None)


class Dot(Function):
    """u . v for vectors.  du = grad * v, dv = grad * u."""
    node_name = "DotBackward0"
    saved_names = ("self", "tensor")

    @staticmethod
    def forward(ctx, u, v):
        needs_u, needs_v = ctx.needs_input_grad
        ctx.save_for_backward(u if needs_v else None, v if needs_u else None)
        with np.errstate(all="ignore"):
            return Tensor(np.asarray(u._data @ v._data))

    @staticmethod
    def backward(ctx, grad):
        u, v = ctx.saved_tensors
        return (grad * v if ctx.needs_input_grad[0] else None,
                grad * u if ctx.needs_input_grad[1] else None)


class Bmm(Function):
    """A @ B for batches of matrices (B, n, m) @ (B, m, p).  dA = grad @ B^T, dB = A^T @ grad."""
    node_name = "BmmBackward0"
    saved_names = ("self", "mat2")

    @staticmethod
    def forward(ctx, a, b):
        needs_a, needs_b = ctx.needs_input_grad
        ctx.save_for_backward(a if needs_b else None, b if needs_a else None)
        with np.errstate(all="ignore"):
            return Tensor(np.matmul(a._data, b._data))

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        grad_b = bmm(a.transpose(1, 2), grad) if ctx.needs_input_grad[1] else None     # ``mat2`` first
        grad_a = bmm(grad, b.transpose(1, 2)) if ctx.needs_input_grad[0] else None
        return grad_a, grad_b


def bmm(a, b):
    check_tensor(a, "bmm", "input"), check_tensor(b, "bmm", "mat2", 2)
    if a.ndim != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if b.ndim != 3:
        raise RuntimeError("batch2 must be a 3D tensor")
    if b.shape[0] != a.shape[0] or b.shape[1] != a.shape[2]:
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: "
                           f"[{a.shape[0]}, {a.shape[2]}] but got: [{b.shape[0]}, {b.shape[1]}].")
    if a._data.dtype != b._data.dtype:
        raise RuntimeError(f"expected scalar type {a.dtype.scalar_name} but found "
                           f"{b.dtype.scalar_name}")
    return Bmm.apply(a, b)


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
    if a._data.dtype != v._data.dtype:
        words = v.dtype.scalar_name, a.dtype.scalar_name
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got {words[0]}, {words[1]}, "
                           f"and {words[0]}")
    return Mv.apply(a, v)


def dot(u, v):
    check_tensor(u, "dot", "input"), check_tensor(v, "dot", "tensor", 2)
    # aten/src/ATen/native/Blas.cpp, dot_check: the dimensions, the dtypes, then the sizes
    if u.ndim != 1 or v.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {u.ndim}D and {v.ndim}D tensors")
    if u._data.dtype != v._data.dtype:
        raise RuntimeError(f"dot : expected both vectors to have same dtype, but found "
                           f"{u.dtype.scalar_name} and {v.dtype.scalar_name}")
    if u.shape[0] != v.shape[0]:
        raise RuntimeError(f"inconsistent tensor size, expected tensor [{u.shape[0]}] and src "
                           f"[{v.shape[0]}] to have the same number of elements, but got "
                           f"{u.shape[0]} and {v.shape[0]} elements respectively")
    return Dot.apply(u, v)


def matmul(input, other):
    """The product PyTorch's ``matmul`` picks by dimensions (aten/src/ATen/native/LinearAlgebra.cpp)."""
    a, b = input, other
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
    if _should_fold(a, b):
        return _folded_matmul(a, b)
    return _batched_matmul(a, b)


def _should_fold(a, b):
    """Whether the batch of the larger operand can go into mm/mv as extra rows (LinearAlgebra.cpp)."""
    a_larger = a.ndim >= b.ndim
    t1 = a if a_larger else b.transpose(-2, -1).detach()
    small = b if a_larger else a
    if not (t1.ndim >= 3 and small.ndim <= 2):
        return False
    if small.requires_grad:
        return True
    if a.ndim == 2:
        return False
    if t1.numel() == 0:
        return True
    strides = [s // t1._data.itemsize for s in t1._data.strides]
    return all(strides[i] == strides[i + 1] * t1.shape[i + 1] for i in range(t1.ndim - 2))


def _folded_matmul(a, b):
    """N-D @ 1-D/2-D (or the reverse): one mm or mv on the batch folded into rows, then a view."""
    from .shape import UnsafeView
    transpose = b.ndim > a.ndim
    t1 = b.transpose(-2, -1) if transpose else a
    t2 = b if not transpose else (a.t() if a.ndim == 2 else a)
    out_shape = tuple(t1.shape[:-1])
    folded = t1.reshape(math.prod(out_shape), t1.shape[-1])
    if t2.ndim == 2:
        output = UnsafeView.apply(mm(folded, t2), out_shape + (t2.shape[1],))
        return output.transpose(-2, -1).contiguous() if transpose else output
    return UnsafeView.apply(mv(folded, t2), out_shape)


def _batched_matmul(a, b):
    """Batches of matrices: broadcast the batch dimensions, then one bmm (LinearAlgebra.cpp)."""
    from .shape import UnsafeView
    n = a.shape[-2] if a.ndim > 1 else 1
    m1 = a.shape[-1]
    batch1 = tuple(a.shape[:max(a.ndim - 2, 0)])
    m2 = b.shape[-2] if b.ndim > 1 else b.shape[0]
    p = b.shape[-1] if b.ndim > 1 else 1
    batch2 = tuple(b.shape[:max(b.ndim - 2, 0)])
    if a.ndim == 3 and b.ndim == 3 and batch1[0] != batch2[0]:
        if batch1[0] == 1 and a.requires_grad:
            return matmul(a.squeeze(0), b)
        if batch2[0] == 1 and b.requires_grad:
            return matmul(a, b.squeeze(0))
    check_broadcast_shapes(batch1, batch2)
    batch = tuple(np.broadcast_shapes(batch1, batch2))
    count = math.prod(batch)
    a_expanded = a.expand(batch + (n, m1)).reshape(count, n, m1)
    vector_rhs = b.ndim == 1
    if vector_rhs:
        b_expanded = b.expand(batch + (m2,)).reshape(count, m2).unsqueeze(2)
    else:
        b_expanded = b.expand(batch + (m2, p)).reshape(count, m2, p)
    out_shape = batch + ((n,) if a.ndim > 1 else ()) + ((p,) if b.ndim > 1 else ())
    product = bmm(a_expanded, b_expanded)
    return UnsafeView.apply(product.squeeze(-1) if vector_rhs else product, out_shape)


class Addmm(Function):
    """bias + mat1 @ mat2: one node for a whole ``nn.Linear`` on a batch (mat2 is ``weight.t()``).

    d/dbias = grad (the engine sums it over the batch to the bias's shape),
    d/dmat1 = grad @ mat2.T, d/dmat2 = mat1.T @ grad. Each matrix is saved only
    when the *other* one needs a gradient: the input batch of the first layer
    needs none, so ``mat2`` is not kept for it.

    When mat2 is a transposed matrix (``weight.t()``), its gradient is computed
    as ``(grad.T @ mat1).T``: the same numbers, laid out so that ``weight.grad``
    comes out contiguous (PyTorch's ``mm_mat2_backward`` does the same).
    """
    node_name = "AddmmBackward0"
    saved_names = ("mat1", "mat2")

    @staticmethod
    def forward(ctx, bias, mat1, mat2):
        _, needs_mat1, needs_mat2 = ctx.needs_input_grad
        ctx.save_for_backward(mat1 if needs_mat2 else None, mat2 if needs_mat1 else None)
        ctx.alpha = ctx.beta = 1   # read only as grad_fn._saved_alpha and _saved_beta, as PyTorch shows them
        # the inputs' shapes, under PyTorch's names (grad_fn._saved_mat1_sym_sizes; "sym": maybe symbolic)
        ctx.mat1_sym_sizes, ctx.mat2_sym_sizes = tuple(mat1.shape), tuple(mat2.shape)
        ctx.mat1_is_transposed = is_column_major(mat1._data)
        ctx.mat2_is_transposed = is_column_major(mat2._data)
        return Tensor(matrix_product(mat1._data, mat2._data, bias=bias._data))

    @staticmethod
    def backward(ctx, grad):
        mat1, mat2 = ctx.saved_tensors
        needs_bias, needs_mat1, needs_mat2 = ctx.needs_input_grad
        return (grad if needs_bias else None,
                mm_mat1_backward(grad, mat2, ctx.mat1_is_transposed) if needs_mat1 else None,
                mm_mat2_backward(grad, mat1, ctx.mat2_is_transposed) if needs_mat2 else None)


def outer(x, vec2):
    """The outer product of two vectors: ``x.reshape(n, 1) * vec2``, which is how PyTorch computes it
    (aten/src/ATen/native/LinearAlgebra.cpp, outer), so its node is ``MulBackward0``."""
    check_tensor(x, "outer")
    check_tensor(vec2, "outer", "vec2", 2)
    for name, vector in (("self", x), ("vec2", vec2)):
        if vector.ndim != 1:
            raise RuntimeError(f"outer: Expected 1-D argument {name}, but got {vector.ndim}-D")
    return x.reshape(x.shape[0], 1) * vec2
