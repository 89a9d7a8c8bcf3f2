"""First and second derivatives of every op against finite differences (no PyTorch needed).

``autograd.gradcheck`` compares each op's backward with central differences;
``autograd.gradgradcheck`` does the same for the backward of its backward, which
catches a backward formula written with numpy constants where a value that
depends on the input is needed (the first derivative is then right and the
second silently wrong). Inputs are float64 and kept away from kinks (0 for abs,
relu and clamp bounds, ties for max). In-place ops, writes through views and a
view whose base changed are included: their gradients go through CopySlices and
AsStridedBackward0.
"""
import warnings

import numpy as np
import pytest

import mini_autograd as torch
from mini_autograd.autograd import gradcheck, gradgradcheck

F = torch.nn.functional
F64 = torch.float64


def leaf(values):
    return torch.tensor(np.asarray(values, dtype=np.float64), dtype=F64, requires_grad=True)


def rng(shape, seed, low=-2.0, high=2.0):
    values = np.random.default_rng(seed).uniform(low, high, size=shape)
    return np.where(np.abs(values) < 0.2, values + np.sign(values + 1e-9) * 0.3, values)


def positive(shape, seed):
    return np.random.default_rng(seed).uniform(0.3, 2.0, size=shape)


def probabilities(shape, seed):
    return np.random.default_rng(seed).uniform(0.1, 0.9, size=shape)


def _through_view_inplace(x, y):
    z = x * 1
    z[1:].mul_(y)
    z.t()[0].sigmoid_()
    return z


def _view_after_base_change(x):
    z = x * 1
    view = z[1:]
    z.add_(x * x)
    return view * view


def _setitem(x, y):
    z = x * 2
    z[0] = y[0]
    z[[1, 2], 0] = y[1:2]
    return z * z


CASES = [
    ("sin", lambda x: x.sin(), [rng((2, 3), 1)]),
    ("cos", lambda x: torch.cos(x), [rng((3,), 2)]),
    ("norm", lambda x: x.norm(), [rng((2, 3), 3)]),
    ("norm_dim", lambda x: x.norm(dim=1, keepdim=True), [rng((2, 3), 4)]),
    ("norm_p1", lambda x: x.norm(p=1), [rng((4,), 5)]),
    ("norm_p3", lambda x: x.norm(p=3, dim=0), [rng((2, 3), 6)]),
    ("min", lambda x: x.min(), [rng((2, 3), 7)]),
    ("min_dim", lambda x: x.min(1)[0], [rng((2, 3), 8)]),
    ("max_dim", lambda x: x.max(0, keepdim=True).values, [rng((2, 3), 9)]),
    ("amax", lambda x: x.amax(1), [rng((2, 3), 10)]),
    ("amin", lambda x: x.amin((0, 1)), [rng((2, 3), 11)]),
    ("maximum", lambda x, y: torch.maximum(x, y) ** 2, [rng((2, 3), 12), rng((3,), 13)]),
    ("minimum", lambda x, y: torch.minimum(x, y) ** 2, [rng((2, 3), 14), rng((2, 3), 15)]),
    ("where", lambda x, y: torch.where(x > 0, x * x, y.exp()), [rng((2, 3), 16), rng((3,), 17)]),
    ("clamp", lambda x: x.clamp(-0.5, 1.0) ** 2, [rng((2, 3), 18)]),
    ("clamp_tensor", lambda x, lo: x.clamp(min=lo) ** 2, [rng((2, 3), 19), rng((3,), 20)]),
    ("abs", lambda x: x.abs() ** 3, [rng((4,), 21)]),
    ("relu", lambda x: x.relu() ** 2, [rng((4,), 22)]),
    ("sqrt", lambda x: x.sqrt(), [positive((3,), 23)]),
    ("reciprocal", lambda x: 1 / x, [positive((3,), 24)]),
    ("pow_tensor", lambda x, y: x ** y, [positive((3,), 25), rng((3,), 26)]),
    ("rpow", lambda x: 2 ** x, [rng((3,), 27)]),
    ("mean_dim", lambda x: (x * x).mean(1), [rng((2, 3), 28)]),
    ("flatten", lambda x: x.t().flatten() ** 2, [rng((2, 3), 29)]),
    ("bmm", lambda a, b: torch.bmm(a, b), [rng((2, 2, 3), 30), rng((2, 3, 2), 31)]),
    ("matmul_batched", lambda a, b: (a @ b) ** 2, [rng((2, 1, 2, 3), 32), rng((3, 3, 2), 33)]),
    ("matmul_folded", lambda a, b: (a @ b) ** 2, [rng((2, 2, 3), 34), rng((3, 2), 35)]),
    ("matmul_vector", lambda a, b: (a @ b) ** 2, [rng((3,), 36), rng((2, 3, 2), 37)]),
    ("linear_3d", lambda x, w, b: F.linear(x, w, b).tanh(),
     [rng((2, 2, 3), 38), rng((4, 3), 39), rng((4,), 40)]),
    ("linear_noncontiguous", lambda x, w, b: F.linear(x.transpose(0, 1), w, b).tanh(),
     [rng((3, 2, 3), 41), rng((2, 3), 42), rng((2,), 43)]),
    ("softmax", lambda x: F.softmax(x, 1), [rng((2, 3), 44)]),
    ("log_softmax", lambda x: F.log_softmax(x, 0), [rng((2, 3), 45)]),
    ("cross_entropy", lambda x: F.cross_entropy(x, torch.tensor([0, 2])), [rng((2, 3), 46)]),
    ("nll_none", lambda x: F.nll_loss(x, torch.tensor([1, 0]), reduction="none"), [rng((2, 3), 47)]),
    ("mse", lambda x, y: F.mse_loss(x, y), [rng((2, 3), 48), rng((2, 3), 49)]),
    ("mse_broadcast", lambda x, y: F.mse_loss(x, y), [rng((2, 3), 50), rng((3,), 51)]),
    ("l1", lambda x, y: F.l1_loss(x, y) ** 2, [rng((3,), 52), rng((3,), 53) + 5]),
    ("bce", lambda p, t: F.binary_cross_entropy(p, t), [probabilities((3,), 54), probabilities((3,), 55)]),
    ("bce_none", lambda p, t: F.binary_cross_entropy(p, t, reduction="none"),
     [probabilities((2, 2), 56), probabilities((2, 2), 57)]),
    ("bce_logits", lambda x, t: F.binary_cross_entropy_with_logits(x, t),
     [rng((3,), 58), probabilities((3,), 59)]),
    ("bce_logits_weights", lambda x, t: F.binary_cross_entropy_with_logits(
        x, t, weight=torch.tensor([1., 2., 3.], dtype=F64), pos_weight=torch.tensor([2., 0.5, 1.], dtype=F64),
        reduction="sum"), [rng((3,), 60), probabilities((3,), 61)]),
    ("index", lambda x: x[[0, 0, 1], 1:] ** 2, [rng((2, 3), 62)]),
    ("mask", lambda x: x[x > 0] ** 2, [rng((2, 3), 63)]),
    ("select_slice", lambda x: x[1, ::2] ** 2 + x[0, 0], [rng((2, 3), 64)]),
    ("cat_stack", lambda x, y: torch.cat([x, y], 0) * torch.stack([x, y], 1).sum(1).sum(0),
     [rng((2, 3), 65), rng((2, 3), 66)]),
    ("inplace_through_views", _through_view_inplace, [rng((3, 3), 67), rng((2, 3), 68)]),
    ("view_after_base_change", _view_after_base_change, [rng((3, 2), 69)]),
    ("setitem", _setitem, [rng((3, 2), 70), rng((3,), 71)]),
    ("inplace_chain", lambda x: (x * 2).add_(x).mul_(x).clamp_(max=5).exp_(), [positive((3,), 72)]),
]


@pytest.mark.parametrize("fn, arrays", [pytest.param(f, a, id=i) for i, f, a in CASES])
def test_first_and_second_derivatives(fn, arrays):
    inputs = tuple(leaf(a) for a in arrays)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")      # mse_loss's broadcast warning
        assert gradcheck(fn, inputs, eps=1e-6, atol=1e-5, rtol=1e-4)
        assert gradgradcheck(fn, inputs, eps=1e-6, atol=1e-5, rtol=1e-4)


def test_case_ids_unique():
    ids = [c[0] for c in CASES]
    assert len(ids) == len(set(ids))


def test_gradgradcheck_catches_a_constant_in_a_backward_formula():
    class BadSquare(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return grad * torch.tensor(2 * x.detach().numpy())     # right value, not differentiable in x

    x = leaf([1.0, -2.0])
    assert gradcheck(BadSquare.apply, (x,))
    assert not gradgradcheck(BadSquare.apply, (x,), raise_exception=False)
