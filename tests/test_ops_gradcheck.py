"""Every op of the course's subset: values against numpy, gradients against finite differences.

The table of every op, with the ops after the course, is tests/op_table.py (run by
tests/test_op_table.py); this file keeps what the table does not check: the many ways of calling the
course's ops (indexing forms, dims, broadcasting drawn by hypothesis), compositions, and
``mini_autograd.autograd.gradcheck`` itself.

Each op is checked twice in float64:

* with ``mini_autograd.autograd.gradcheck`` (the engine's own checker), and
* with ``numeric_vjp`` below, an independent central-difference check that
  only evaluates the op on fresh tensors built from numpy arrays, so a bug in
  ``gradcheck`` cannot hide a bug in an op.

Inputs are kept away from points where an op is not differentiable (abs, relu
and max near 0 or ties; log, sqrt and pow on positive numbers).
"""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import mini_autograd as torch
from mini_autograd import autograd
from mini_autograd.autograd import GradcheckError, gradcheck

F64 = torch.float64
EPS = 1e-6


# --------------------------------------------------------------------- helpers
def as_tensors(arrays, requires_grad=True):
    return [torch.tensor(np.array(a, dtype=np.float64), dtype=F64, requires_grad=requires_grad)
            for a in arrays]


def evaluate(fn, arrays):
    """fn on fresh float64 tensors (no graph) -> numpy array of the output."""
    with torch.no_grad():
        out = fn(*as_tensors(arrays, requires_grad=False))
    return np.array(out.numpy(), dtype=np.float64)


def numeric_vjp(fn, arrays, cotangent, eps=EPS):
    """d/d(arrays) of sum(fn(arrays) * cotangent), by central differences."""
    grads = []
    for i, a in enumerate(arrays):
        g = np.zeros(np.shape(a), dtype=np.float64)
        for idx in np.ndindex(*np.shape(a)):
            plus = [np.array(x, dtype=np.float64, copy=True) for x in arrays]
            minus = [np.array(x, dtype=np.float64, copy=True) for x in arrays]
            plus[i][idx] += eps
            minus[i][idx] -= eps
            g[idx] = ((evaluate(fn, plus) * cotangent).sum()
                      - (evaluate(fn, minus) * cotangent).sum()) / (2 * eps)
        grads.append(g)
    return grads


def check_op(fn, arrays, reference=None, seed=0, rtol=1e-5, atol=1e-6):
    """Values vs ``reference`` (numpy), grads vs numeric_vjp, and autograd.gradcheck."""
    arrays = [np.array(a, dtype=np.float64) for a in arrays]
    inputs = as_tensors(arrays)
    out = fn(*inputs)
    assert out.dtype is F64
    assert out.requires_grad and out.grad_fn is not None
    if reference is not None:
        expected = np.asarray(reference(*[a.copy() for a in arrays]), dtype=np.float64)
        assert tuple(out.shape) == expected.shape
        np.testing.assert_allclose(out.detach().numpy(), expected, rtol=1e-12, atol=1e-12)
    cotangent = np.random.default_rng(seed).standard_normal(tuple(out.shape))
    out.backward(torch.tensor(cotangent, dtype=F64))
    expected_grads = numeric_vjp(fn, arrays, cotangent)
    for x, g in zip(inputs, expected_grads, strict=True):
        assert x.grad is not None, "no gradient reached an input"
        assert x.grad.dtype is F64
        assert tuple(x.grad.shape) == tuple(x.shape)
        np.testing.assert_allclose(x.grad.numpy(), g, rtol=rtol, atol=atol)
    assert gradcheck(fn, tuple(as_tensors(arrays)))


def rng_array(shape, seed, low=-2.0, high=2.0):
    return np.random.default_rng(seed).uniform(low, high, size=shape)


def away_from_zero(shape, seed, low=0.3, high=2.0):
    """Random magnitudes in [low, high] with random signs."""
    r = np.random.default_rng(seed)
    return r.uniform(low, high, size=shape) * r.choice([-1.0, 1.0], size=shape)


def distinct(shape, seed):
    """Values with no ties (gaps of at least 0.1), shuffled."""
    n = int(np.prod(shape))
    values = np.arange(n) * 0.37 - n * 0.15
    return np.random.default_rng(seed).permutation(values).reshape(shape)


def positive(shape, seed):
    return rng_array(shape, seed, 0.5, 2.0)


A = rng_array((3, 4), 1)
B = rng_array((3, 4), 2)
V4 = rng_array((4,), 3)
M34 = rng_array((3, 4), 4)
M45 = rng_array((4, 5), 5)
V3 = rng_array((3,), 6)
T234 = rng_array((2, 3, 4), 7)

# (id, fn, numpy reference, input arrays)
CASES = [
    ("add", lambda a, b: a + b, np.add, [A, B]),
    ("add_broadcast", lambda a, b: a + b, np.add, [rng_array((3, 1), 8), V4]),
    ("add_scalar", lambda a: a + 1.5, lambda a: a + 1.5, [A]),
    ("radd_scalar", lambda a: 1.5 + a, lambda a: 1.5 + a, [A]),
    ("torch_add", lambda a, b: torch.add(a, b), np.add, [A, B]),
    ("sub", lambda a, b: a - b, np.subtract, [A, B]),
    ("sub_broadcast", lambda a, b: a - b, np.subtract, [V4, rng_array((2, 3, 1), 9)]),
    ("sub_scalar", lambda a: a - 0.5, lambda a: a - 0.5, [A]),
    ("rsub_scalar", lambda a: 2.5 - a, lambda a: 2.5 - a, [A]),
    ("mul", lambda a, b: a * b, np.multiply, [A, B]),
    ("mul_broadcast", lambda a, b: a * b, np.multiply, [rng_array((2, 1, 4), 10), rng_array((3, 1), 11)]),
    ("mul_scalar", lambda a: a * 3.0, lambda a: a * 3.0, [A]),
    ("rmul_scalar", lambda a: 3 * a, lambda a: 3 * a, [A]),
    ("mul_same_input", lambda a: a * a, lambda a: a * a, [A]),
    ("div", lambda a, b: a / b, np.divide, [A, away_from_zero((3, 4), 12)]),
    ("div_broadcast", lambda a, b: a / b, np.divide, [A, away_from_zero((4,), 13)]),
    ("div_scalar", lambda a: a / 4.0, lambda a: a / 4.0, [A]),
    ("rdiv_scalar", lambda a: 2.0 / a, lambda a: 2.0 / a, [away_from_zero((3, 4), 14)]),
    ("pow_int", lambda a: a ** 3, lambda a: a ** 3, [A]),
    ("pow_float", lambda a: a ** 2.5, lambda a: a ** 2.5, [positive((3, 4), 15)]),
    ("pow_negative", lambda a: a ** -1.5, lambda a: a ** -1.5, [positive((3, 4), 16)]),
    ("pow_method", lambda a: a.pow(2), lambda a: a ** 2, [A]),
    ("pow_tensor_tensor", lambda a, b: a ** b, np.power, [positive((3, 4), 17), B]),
    ("pow_tensor_tensor_broadcast", lambda a, b: a ** b, np.power, [positive((3, 1), 18), V4]),
    ("pow_scalar_tensor", lambda a: 2.0 ** a, lambda a: 2.0 ** a, [A]),
    ("pow_int_scalar_tensor", lambda a: 3 ** a, lambda a: 3.0 ** a, [A]),
    ("neg", lambda a: -a, np.negative, [A]),
    ("neg_method", lambda a: a.neg(), np.negative, [A]),
    ("abs", lambda a: a.abs(), np.abs, [away_from_zero((3, 4), 19)]),
    ("abs_builtin", lambda a: abs(a), np.abs, [away_from_zero((3, 4), 20)]),
    ("exp", lambda a: a.exp(), np.exp, [A]),
    ("torch_exp", lambda a: torch.exp(a), np.exp, [A]),
    ("log", lambda a: a.log(), np.log, [positive((3, 4), 21)]),
    ("torch_log", lambda a: torch.log(a), np.log, [positive((3, 4), 22)]),
    ("sqrt", lambda a: a.sqrt(), np.sqrt, [positive((3, 4), 23)]),
    ("tanh", lambda a: a.tanh(), np.tanh, [A]),
    ("torch_tanh", lambda a: torch.tanh(a), np.tanh, [A]),
    ("sigmoid", lambda a: a.sigmoid(), lambda a: 1 / (1 + np.exp(-a)), [rng_array((3, 4), 24, -6, 6)]),
    ("torch_sigmoid", lambda a: torch.sigmoid(a), lambda a: 1 / (1 + np.exp(-a)), [A]),
    ("relu", lambda a: a.relu(), lambda a: np.maximum(a, 0), [away_from_zero((3, 4), 25)]),
    ("torch_relu", lambda a: torch.relu(a), lambda a: np.maximum(a, 0), [away_from_zero((3, 4), 26)]),
    ("reciprocal", lambda a: a.reciprocal(), np.reciprocal, [away_from_zero((3, 4), 27)]),
    ("sum", lambda a: a.sum(), np.sum, [A]),
    ("torch_sum", lambda a: torch.sum(a), np.sum, [A]),
    ("sum_dim", lambda a: a.sum(1), lambda a: a.sum(1), [T234]),
    ("sum_dim_keepdim", lambda a: a.sum(1, keepdim=True), lambda a: a.sum(1, keepdims=True), [T234]),
    ("sum_neg_dim", lambda a: a.sum(-1), lambda a: a.sum(-1), [T234]),
    ("sum_tuple_dims", lambda a: a.sum((0, 2)), lambda a: a.sum((0, 2)), [T234]),
    ("sum_tuple_dims_keepdim", lambda a: a.sum((2, 0), keepdim=True),
     lambda a: a.sum((0, 2), keepdims=True), [T234]),
    ("sum_empty_dims_means_all", lambda a: a.sum(()), lambda a: a.sum(), [A]),
    ("sum_empty_dims_keepdim", lambda a: a.sum([], keepdim=True), lambda a: a.sum(keepdims=True), [A]),
    ("mean_empty_dims_means_all", lambda a: a.mean(()), lambda a: a.mean(), [A]),
    ("mean", lambda a: a.mean(), np.mean, [A]),
    ("torch_mean", lambda a: torch.mean(a), np.mean, [A]),
    ("mean_dim", lambda a: a.mean(0), lambda a: a.mean(0), [T234]),
    ("mean_dim_keepdim", lambda a: a.mean(2, keepdim=True), lambda a: a.mean(2, keepdims=True), [T234]),
    ("mean_tuple_dims", lambda a: a.mean((0, 1)), lambda a: a.mean((0, 1)), [T234]),
    ("max", lambda a: a.max(), np.max, [distinct((3, 4), 28)]),
    ("max_dim_values", lambda a: a.max(1).values, lambda a: a.max(1), [distinct((3, 4), 29)]),
    ("max_dim_index0", lambda a: a.max(dim=0)[0], lambda a: a.max(0), [distinct((3, 4), 30)]),
    ("max_dim_keepdim", lambda a: a.max(-1, keepdim=True).values, lambda a: a.max(-1, keepdims=True),
     [distinct((2, 3, 4), 31)]),
    ("torch_max_binary", lambda a, b: torch.max(a, b), np.maximum, [A, B]),
    ("max_method_binary", lambda a, b: a.max(b), np.maximum, [A, B]),
    ("matmul_1d_1d", lambda a, b: a @ b, np.matmul, [V4, rng_array((4,), 32)]),
    ("matmul_2d_1d", lambda a, b: a @ b, np.matmul, [M34, V4]),
    ("matmul_1d_2d", lambda a, b: a @ b, np.matmul, [V3, M34]),
    ("matmul_2d_2d", lambda a, b: a @ b, np.matmul, [M34, M45]),
    ("torch_matmul", lambda a, b: torch.matmul(a, b), np.matmul, [M34, M45]),
    ("matmul_method", lambda a, b: a.matmul(b), np.matmul, [M34, V4]),
    ("mm", lambda a, b: a.mm(b), np.matmul, [M34, M45]),
    ("torch_mm", lambda a, b: torch.mm(a, b), np.matmul, [M34, M45]),
    ("mv", lambda a, b: a.mv(b), np.matmul, [M34, V4]),
    ("torch_mv", lambda a, b: torch.mv(a, b), np.matmul, [M34, V4]),
    ("dot", lambda a, b: a.dot(b), np.dot, [V4, rng_array((4,), 33)]),
    ("torch_dot", lambda a, b: torch.dot(a, b), np.dot, [V4, rng_array((4,), 34)]),
    ("reshape_view", lambda a: a.reshape(4, 6), lambda a: a.reshape(4, 6), [T234]),
    ("reshape_tuple_infer", lambda a: a.reshape((-1, 2)), lambda a: a.reshape(-1, 2), [T234]),
    ("reshape_copy", lambda a: a.transpose(0, 2).reshape(-1), lambda a: a.transpose(2, 1, 0).reshape(-1),
     [T234]),
    ("torch_reshape", lambda a: torch.reshape(a, (12,)), lambda a: a.reshape(12), [A]),
    ("view", lambda a: a.view(6, 4), lambda a: a.reshape(6, 4), [T234]),
    ("view_infer", lambda a: a.view(-1), lambda a: a.reshape(-1), [T234]),
    ("transpose", lambda a: a.transpose(0, 2), lambda a: a.transpose(2, 1, 0), [T234]),
    ("transpose_neg", lambda a: a.transpose(-1, 1), lambda a: a.swapaxes(-1, 1), [T234]),
    ("torch_transpose", lambda a: torch.transpose(a, 0, 1), lambda a: a.T, [A]),
    ("t", lambda a: a.t(), lambda a: a.T, [A]),
    ("torch_t", lambda a: torch.t(a), lambda a: a.T, [A]),
    ("T", lambda a: a.T, lambda a: a.T, [A]),
    ("T_3d", lambda a: a.permute(2, 1, 0), lambda a: a.transpose(2, 1, 0), [T234]),
    ("permute", lambda a: a.permute(2, 0, 1), lambda a: a.transpose(2, 0, 1), [T234]),
    ("permute_tuple", lambda a: a.permute((1, 2, 0)), lambda a: a.transpose(1, 2, 0), [T234]),
    ("unsqueeze", lambda a: a.unsqueeze(1), lambda a: a[:, None], [A]),
    ("unsqueeze_neg", lambda a: a.unsqueeze(-1), lambda a: a[..., None], [A]),
    ("torch_unsqueeze", lambda a: torch.unsqueeze(a, 0), lambda a: a[None], [A]),
    ("squeeze_all", lambda a: a.squeeze(), lambda a: a.squeeze(), [rng_array((1, 3, 1, 2), 35)]),
    ("squeeze_dim", lambda a: a.squeeze(2), lambda a: a.squeeze(2), [rng_array((1, 3, 1, 2), 36)]),
    ("squeeze_dim_not_one", lambda a: a.squeeze(1), lambda a: a, [rng_array((1, 3, 1, 2), 37)]),
    ("torch_squeeze", lambda a: torch.squeeze(a), lambda a: a.squeeze(), [rng_array((3, 1), 38)]),
    ("expand", lambda a: a.expand(2, 3, 4), lambda a: np.broadcast_to(a, (2, 3, 4)), [rng_array((3, 1), 39)]),
    ("expand_minus_one", lambda a: a.expand(3, -1), lambda a: np.broadcast_to(a, (3, 4)),
     [rng_array((1, 4), 40)]),
    ("index_int", lambda a: a[1], lambda a: a[1], [T234]),
    ("index_negative_int", lambda a: a[-1], lambda a: a[-1], [T234]),
    ("index_two_ints", lambda a: a[1, -2], lambda a: a[1, -2], [T234]),
    ("index_scalar_element", lambda a: a[0, 1, 2], lambda a: a[0, 1, 2], [T234]),
    ("slice", lambda a: a[1:3], lambda a: a[1:3], [A]),
    ("slice_step", lambda a: a[::2], lambda a: a[::2], [A]),
    ("slice_steps_2d", lambda a: a[:, 1:4:2], lambda a: a[:, 1:4:2], [A]),
    ("slice_steps_3d", lambda a: a[::2, ::2, 1::3], lambda a: a[::2, ::2, 1::3], [T234]),
    ("column", lambda a: a[:, 0], lambda a: a[:, 0], [A]),
    ("none", lambda a: a[None], lambda a: a[None], [A]),
    ("ellipsis", lambda a: a[..., 1], lambda a: a[..., 1], [T234]),
    ("ellipsis_front", lambda a: a[1, ...], lambda a: a[1, ...], [T234]),
    ("index_list", lambda a: a[[0, 2]], lambda a: a[[0, 2]], [A]),
    ("index_list_repeated", lambda a: a[[2, 0, 2, 2]], lambda a: a[[2, 0, 2, 2]], [A]),
    ("index_tensor_repeated", lambda a: a[torch.tensor([1, 1, 0, 1])], lambda a: a[[1, 1, 0, 1]], [V4]),
    ("index_tensor_2d_repeated", lambda a: a[torch.tensor([[0, 0], [2, 0]])], lambda a: a[[[0, 0], [2, 0]]],
     [A]),
    ("index_second_dim_list", lambda a: a[:, [3, 3, 1]], lambda a: a[:, [3, 3, 1]], [A]),
    ("index_two_lists", lambda a: a[[0, 1, 1], [2, 3, 2]], lambda a: a[[0, 1, 1], [2, 3, 2]], [A]),
    ("index_int_and_list", lambda a: a[1, [0, 0, 2]], lambda a: a[1, [0, 0, 2]], [T234]),
    ("mask_1d", lambda a: a[torch.tensor([True, False, True, True])], lambda a: a[[0, 2, 3]], [V4]),
    ("mask_rows", lambda a: a[torch.tensor([True, False, True])], lambda a: a[[0, 2]], [A]),
    ("mask_2d", lambda a: a[torch.tensor(A > 0)], lambda a: a[A > 0], [A]),
    ("mask_from_comparison", lambda a: a[a > 0], lambda a: a[a > 0], [away_from_zero((3, 4), 41)]),
    ("clone", lambda a: a.clone(), lambda a: a.copy(), [A]),
    ("torch_clone", lambda a: torch.clone(a), lambda a: a.copy(), [A]),
    ("cat_dim0", lambda a, b: torch.cat([a, b]), lambda a, b: np.concatenate([a, b]),
     [A, rng_array((2, 4), 42)]),
    ("cat_dim1", lambda a, b, c: torch.cat((a, b, c), dim=1), lambda a, b, c: np.concatenate([a, b, c], 1),
     [A, rng_array((3, 1), 43), rng_array((3, 2), 44)]),
    ("cat_neg_dim", lambda a, b: torch.cat([a, b], -1), lambda a, b: np.concatenate([a, b], -1),
     [A, B]),
    ("cat_same_tensor", lambda a: torch.cat([a, a]), lambda a: np.concatenate([a, a]), [A]),
    ("stack_dim0", lambda a, b: torch.stack([a, b]), lambda a, b: np.stack([a, b]), [A, B]),
    ("stack_dim_last", lambda a, b, c: torch.stack((a, b, c), dim=-1),
     lambda a, b, c: np.stack([a, b, c], -1),
     [V4, rng_array((4,), 45), rng_array((4,), 46)]),
    ("stack_dim1", lambda a, b: torch.stack([a, b], 1), lambda a, b: np.stack([a, b], 1), [A, B]),
    ("to_float64_noop", lambda a: a.to(torch.float64) * 1.0, lambda a: a, [A]),
    ("double", lambda a: a.double() + 0.0, lambda a: a, [A]),
    ("composite", lambda a, b: ((a * b).tanh() + (a - b).exp() / 3).sum(0),
     lambda a, b: (np.tanh(a * b) + np.exp(a - b) / 3).sum(0), [A, B]),
    ("chain_of_shapes", lambda a: a.t().unsqueeze(0).expand(2, 4, 3).transpose(1, 2)[:, 1].sum(-1),
     lambda a: np.broadcast_to(a.T[None], (2, 4, 3)).transpose(0, 2, 1)[:, 1].sum(-1), [A]),
]


@pytest.mark.parametrize("fn, reference, arrays", [pytest.param(f, r, a, id=i) for i, f, r, a in CASES])
def test_op_values_and_gradients(fn, reference, arrays):
    check_op(fn, arrays, reference)


def test_every_case_id_is_unique():
    ids = [c[0] for c in CASES]
    assert len(ids) == len(set(ids))


# ------------------------------------------------------- the numeric check bites
def test_numeric_vjp_detects_a_wrong_gradient():
    """The independent checker fails on a Function whose backward is wrong."""

    class WrongSquare(autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return grad * x          # should be 2 * grad * x

    with pytest.raises(AssertionError):
        check_op(WrongSquare.apply, [A])


def test_numeric_vjp_of_a_known_function():
    (g,) = numeric_vjp(lambda a: a * a, [np.array([1.0, -2.0, 3.0])], np.array([1.0, 1.0, 2.0]))
    np.testing.assert_allclose(g, [2.0, -4.0, 12.0], rtol=1e-7)


def test_inputs_of_binary_max_have_no_ties():
    assert np.abs(A - B).min() > 1e-3


def test_reductions_of_empty_tensors_are_silent():
    """PyTorch gives nan (mean) and 0 (sum) without any warning."""
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        x = torch.zeros(0, 3, requires_grad=True)
        s = x.sum()
        s.backward()
        assert s.item() == 0.0 and x.grad.shape == (0, 3)
        m = torch.zeros(0, requires_grad=True).mean()
        assert np.isnan(m.item())


# ---------------------------------------------------------------- dtype casts
def test_to_float64_from_float32_sends_float32_gradient_back():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x.to(torch.float64)
    assert y.dtype is torch.float64
    assert y.grad_fn.name() == "ToCopyBackward0"
    c = np.array([0.5, -1.25, 2.0])
    (y * torch.tensor(c, dtype=torch.float64)).sum().backward()
    assert x.grad.dtype is torch.float32
    np.testing.assert_array_equal(x.grad.numpy(), c.astype(np.float32))


def test_to_float32_from_float64_gradient_close_to_finite_differences():
    x = torch.tensor([0.3, -0.7], dtype=torch.float64, requires_grad=True)
    y = x.to(torch.float32)
    assert y.dtype is torch.float32
    (y * y).sum().backward()
    assert x.grad.dtype is torch.float64
    np.testing.assert_allclose(x.grad.numpy(), [0.6, -1.4], rtol=1e-6)


def test_to_same_dtype_returns_the_tensor_itself():
    x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    assert x.to(torch.float64) is x


# ------------------------------------------------------------- hypothesis: broadcasting
@st.composite
def broadcastable_shapes(draw):
    """Two shapes (up to 3-D, sizes 1-3) that broadcast together."""
    ndim = draw(st.integers(0, 3))
    full = draw(st.lists(st.integers(1, 3), min_size=ndim, max_size=ndim))
    shapes = []
    for _ in range(2):
        keep = draw(st.integers(0, ndim))
        shape = full[ndim - keep:]
        ones = draw(st.lists(st.booleans(), min_size=len(shape), max_size=len(shape)))
        shapes.append(tuple(1 if one else s for s, one in zip(shape, ones, strict=True)))
    return shapes[0], shapes[1]


BINARY = {
    "add": (lambda a, b: a + b, np.add, "any"),
    "sub": (lambda a, b: a - b, np.subtract, "any"),
    "mul": (lambda a, b: a * b, np.multiply, "any"),
    "div": (lambda a, b: a / b, np.divide, "nonzero"),
    "pow": (lambda a, b: a ** b, np.power, "positive"),
}


def _operands(shapes, kind, seed):
    r = np.random.default_rng(seed)
    a = r.uniform(-2, 2, size=shapes[0])
    if kind == "positive":
        a = r.uniform(0.5, 2, size=shapes[0])
    b = r.uniform(-2, 2, size=shapes[1])
    if kind == "nonzero":
        b = r.uniform(0.5, 2, size=shapes[1]) * r.choice([-1.0, 1.0], size=shapes[1])
    return a, b


@pytest.mark.parametrize("op", sorted(BINARY))
@settings(max_examples=25, deadline=None)
@given(shapes=broadcastable_shapes(), seed=st.integers(0, 2 ** 16))
def test_binary_op_broadcasting(op, shapes, seed):
    fn, reference, kind = BINARY[op]
    a, b = _operands(shapes, kind, seed)
    x, y = as_tensors([a, b])
    out = fn(x, y)
    expected = reference(a, b)
    assert tuple(out.shape) == np.shape(expected)
    np.testing.assert_allclose(out.detach().numpy(), expected, rtol=1e-12, atol=1e-12)
    cotangent = np.random.default_rng(seed + 1).standard_normal(np.shape(expected))
    out.backward(torch.tensor(cotangent, dtype=F64))
    ga, gb = numeric_vjp(fn, [a, b], cotangent)
    assert tuple(x.grad.shape) == a.shape and tuple(y.grad.shape) == b.shape
    np.testing.assert_allclose(x.grad.numpy(), ga, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(y.grad.numpy(), gb, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("op", sorted(BINARY))
@settings(max_examples=10, deadline=None)
@given(shapes=broadcastable_shapes(), seed=st.integers(0, 2 ** 16))
def test_binary_op_broadcasting_with_one_side_constant(op, shapes, seed):
    """Only the first operand requires grad; the constant one still broadcasts it."""
    fn, reference, kind = BINARY[op]
    a, b = _operands(shapes, kind, seed)
    x = torch.tensor(a, dtype=F64, requires_grad=True)
    y = torch.tensor(b, dtype=F64)
    out = fn(x, y)
    cotangent = np.random.default_rng(seed + 2).standard_normal(out.shape)
    out.backward(torch.tensor(cotangent, dtype=F64))
    (ga,) = numeric_vjp(lambda t: fn(t, torch.tensor(b, dtype=F64)), [a], cotangent)
    assert y.grad is None
    np.testing.assert_allclose(x.grad.numpy(), ga, rtol=1e-5, atol=1e-6)


@settings(max_examples=15, deadline=None)
@given(shapes=broadcastable_shapes(), seed=st.integers(0, 2 ** 16))
def test_binary_op_broadcasting_gradcheck(shapes, seed):
    a, b = _operands(shapes, "positive", seed)     # a > 0, so a ** b is defined
    assert gradcheck(lambda x, y: (x * y).tanh() + x ** y / (y * y + 1) - y, tuple(as_tensors([a, b])))


@settings(max_examples=15, deadline=None)
@given(shapes=broadcastable_shapes(), seed=st.integers(0, 2 ** 16))
def test_broadcast_gradient_equals_sum_over_broadcast_dims(shapes, seed):
    """d(sum(a * b))/da is b summed back to a's shape (an exact formula, no finite differences)."""
    a, b = _operands(shapes, "any", seed)
    x, y = as_tensors([a, b])
    (x * y).sum().backward()
    full_b = np.broadcast_to(b, np.broadcast_shapes(a.shape, b.shape))
    lead = full_b.ndim - a.ndim
    expected = full_b.sum(axis=tuple(range(lead)))
    expected = expected.sum(axis=tuple(i for i, s in enumerate(a.shape) if s == 1), keepdims=True)
    np.testing.assert_allclose(x.grad.numpy(), expected.reshape(a.shape), rtol=1e-12, atol=1e-12)


# ------------------------------------------------------------ second derivatives
def _second_derivative_check(fn, arrays, seed=0):
    """Differentiate ``x -> grad(sum(fn(x) * v), x)`` again: autograd vs finite differences."""
    arrays = [np.array(a, dtype=np.float64) for a in arrays]
    r = np.random.default_rng(seed)
    with torch.no_grad():
        out_shape = tuple(fn(*as_tensors(arrays, requires_grad=False)).shape)
    v = r.standard_normal(out_shape)
    us = [r.standard_normal(np.shape(a)) for a in arrays]

    def first_grads(*xs):
        with torch.enable_grad():
            leaves = [x.detach().requires_grad_() for x in xs]
            out = fn(*leaves)
            return autograd.grad(out, leaves, grad_outputs=torch.tensor(v, dtype=F64), allow_unused=True)

    def scalar_of_first_grads(*xs):
        grads = first_grads(*xs)
        total = torch.tensor(0.0, dtype=F64)
        for g, u in zip(grads, us, strict=True):
            if g is not None:
                total = total + (g * torch.tensor(u, dtype=F64)).sum()
        return total

    inputs = as_tensors(arrays)
    out = fn(*inputs)
    grads = autograd.grad(out, inputs, grad_outputs=torch.tensor(v, dtype=F64), create_graph=True)
    for g in grads:
        assert g.requires_grad and g.grad_fn is not None, "create_graph=True must record the backward"
    autograd.backward(list(grads), [torch.tensor(u, dtype=F64) for u in us])
    expected = numeric_vjp(scalar_of_first_grads, arrays, np.array(1.0))
    for x, e in zip(inputs, expected, strict=True):
        got = np.zeros(x.shape) if x.grad is None else x.grad.numpy()
        np.testing.assert_allclose(got, e, rtol=1e-4, atol=1e-6)


# One op's second derivative alone is checked for every op by tests/test_op_table.py; these are compositions.
SECOND_ORDER = [
    ("mul_self", lambda a: a * a * a, [A]),
    ("matmul", lambda a, b: (a @ b).tanh(), [M34, M45]),
    ("matmul_2d_1d", lambda a, b: (a @ b) ** 2, [M34, V4]),
    ("dot", lambda a, b: a.dot(b) ** 2, [V4, rng_array((4,), 56)]),
    ("mean_sum_broadcast", lambda a, b: ((a * b).mean(0) ** 2).sum(), [A, rng_array((4,), 57)]),
    ("indexing", lambda a: (a[[0, 0, 2]] ** 3)[:, 1:], [A]),
    ("max", lambda a: a.max(1).values ** 3, [distinct((3, 4), 58)]),
]
# mini_autograd's own gradcheck of a first derivative (what PyTorch's gradgradcheck does).
GRADGRADCHECK = [
    ("cube", lambda a: a ** 3, [A]),
    ("tanh", lambda a: a.tanh(), [A]),
    ("sigmoid", lambda a: a.sigmoid(), [A]),
    ("exp", lambda a: a.exp(), [A]),
    ("log", lambda a: a.log(), [positive((3, 4), 50)]),
    ("sqrt", lambda a: a.sqrt(), [positive((3, 4), 51)]),
]


@pytest.mark.parametrize("fn, arrays", [pytest.param(f, a, id=i) for i, f, a in SECOND_ORDER])
def test_second_derivative(fn, arrays):
    _second_derivative_check(fn, arrays)


def test_second_derivative_of_cube_at_two_is_twelve():
    x = torch.tensor(2.0, dtype=F64, requires_grad=True)
    (g,) = autograd.grad(x ** 3, x, create_graph=True)
    assert g.item() == pytest.approx(12.0)
    (h,) = autograd.grad(g, x)
    assert h.item() == pytest.approx(12.0)   # d2/dx2 x**3 = 6x = 12


def test_third_derivative_of_tanh():
    x = torch.tensor(0.4, dtype=F64, requires_grad=True)
    (d1,) = autograd.grad(x.tanh(), x, create_graph=True)
    (d2,) = autograd.grad(d1, x, create_graph=True)
    (d3,) = autograd.grad(d2, x)
    t = np.tanh(0.4)
    assert d1.item() == pytest.approx(1 - t ** 2)
    assert d2.item() == pytest.approx(-2 * t * (1 - t ** 2))
    assert d3.item() == pytest.approx(-2 * (1 - t ** 2) ** 2 + 4 * t ** 2 * (1 - t ** 2))


@pytest.mark.parametrize("fn, arrays", [pytest.param(f, a, id=i) for i, f, a in GRADGRADCHECK])
def test_gradgradcheck_through_gradcheck(fn, arrays):
    """gradcheck of the first derivative (what PyTorch's gradgradcheck does)."""

    def first_derivative(*xs):
        out = fn(*xs)
        return autograd.grad(out.sum(), xs, create_graph=True)[0]

    assert gradcheck(first_derivative, tuple(as_tensors(arrays)))


# ------------------------------------------------------------------- gradcheck
class _WrongSquare(autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return grad * x


def test_gradcheck_passes_a_correct_function():
    x = torch.tensor([0.5, -1.0, 2.0], dtype=F64, requires_grad=True)
    assert gradcheck(lambda t: (t * t).exp(), (x,)) is True


def test_gradcheck_accepts_a_single_tensor_and_several_outputs():
    x = torch.tensor([0.5, 1.0, 2.0], dtype=F64, requires_grad=True)
    y = torch.tensor([1.5, 0.25, 3.0], dtype=F64, requires_grad=True)
    assert gradcheck(lambda t: t.tanh(), x) is True
    assert gradcheck(lambda a, b: (a * b, a + b, (a / b).sum()), (x, y)) is True


def test_gradcheck_raises_gradcheck_error_by_default():
    x = torch.tensor([1.0, 2.0], dtype=F64, requires_grad=True)
    with pytest.raises(GradcheckError) as info:
        gradcheck(_WrongSquare.apply, (x,))
    assert isinstance(info.value, RuntimeError)
    assert str(info.value).startswith("Jacobian mismatch for output 0 with respect to input 0,\nnumerical:")
    assert "analytical:" in str(info.value)


def test_gradcheck_error_is_a_runtime_error_subclass():
    assert issubclass(GradcheckError, RuntimeError)
    assert GradcheckError.__name__ == "GradcheckError"


def test_gradcheck_raise_exception_false_returns_false():
    x = torch.tensor([1.0, 2.0], dtype=F64, requires_grad=True)
    assert gradcheck(_WrongSquare.apply, (x,), raise_exception=False) is False


def test_gradcheck_finds_wrong_gradient_of_second_input_only():
    class WrongSecond(autograd.Function):
        @staticmethod
        def forward(ctx, a, b):
            ctx.save_for_backward(a, b)
            return a * b

        @staticmethod
        def backward(ctx, grad):
            a, b = ctx.saved_tensors
            return grad * b, grad * b      # second should be grad * a

    a = torch.tensor([1.0, 2.0], dtype=F64, requires_grad=True)
    b = torch.tensor([3.0, -1.0], dtype=F64, requires_grad=True)
    with pytest.raises(GradcheckError, match="with respect to input 1"):
        gradcheck(WrongSecond.apply, (a, b))


def test_gradcheck_does_not_change_inputs_or_their_grad():
    x = torch.tensor([0.5, 1.5], dtype=F64, requires_grad=True)
    before = x.detach().numpy().copy()
    gradcheck(lambda t: t.exp() * t, (x,))
    np.testing.assert_array_equal(x.detach().numpy(), before)
    assert x.grad is None


def test_gradcheck_with_non_contiguous_input():
    """PyTorch's gradcheck nudges the input's elements wherever they live in memory."""
    base = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype=F64)
    x = base.t().detach().requires_grad_()          # a transposed (non-contiguous) leaf
    assert gradcheck(lambda t: (t * t).sum(0), (x,)) is True


def test_gradcheck_without_inputs_requiring_grad_raises_value_error():
    x = torch.tensor([1.0, 2.0], dtype=F64)
    with pytest.raises(ValueError) as info:
        gradcheck(lambda t: t * t, (x,))
    assert str(info.value) == ("gradcheck expects at least one input tensor to require gradient, but "
                               "none of them have requires_grad=True.")


def test_gradcheck_warns_for_float32_inputs():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with pytest.warns(UserWarning, match="Input #0 requires gradient and is not a double precision"):
        gradcheck(lambda t: t * t, (x,), eps=1e-3, atol=1e-2, raise_exception=False)
