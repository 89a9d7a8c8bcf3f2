"""nan and inf through every op, forward and backward, against PyTorch 2.13 (issue 27).

Each backward formula has its own behaviour at nan and inf, set by derivatives.yaml
and the kernels: ``abs`` goes through ``sgn``, and ``sgn(nan)`` is 0, so abs passes no
gradient at nan; ``relu``'s ``threshold_backward`` is ``x <= 0 ? 0 : grad``, so it
passes the gradient at nan; ``0 * inf`` is nan where a formula multiplies and 0 where
it selects. The sweep below runs every differentiable op mini_autograd has (190
entries of ``OPS``: ops/*.py, nn.functional's losses and layers, in-place forms) with
nan, inf and -inf put into one of its inputs (one element, or every element), in
float32 and float64, backpropagates numbers near 1, zeros, or a gradient holding nan
or inf, then backpropagates again through the gradients (``create_graph=True``), and
compares the result and every gradient with PyTorch's: values, nan where nan, the sign
of each zero, dtype, shape, the error raised, if any, and the warnings (numpy's
"invalid value encountered" is one PyTorch never gives): 11,226 cases. The first part
replays the findings of the issue and of the sweep.
"""
import textwrap
import warnings

import numpy as np
import pytest

try:
    from crosscheck import assert_same
except ImportError:  # tests/ made a package
    from tests.crosscheck import assert_same

torch = pytest.importorskip("torch")

import mini_autograd  # noqa: E402  (after the skip: without torch there is nothing to compare with)

NAN, INF = float("nan"), float("inf")
SPECIALS = {"nan": NAN, "inf": INF, "-inf": -INF}

CASES = []


def case(id, code, error=None):
    CASES.append(pytest.param(textwrap.dedent(code), error, id=id))


# ------------------------------------------------------------------------ the two findings
case("abs_of_a_loss_whose_targets_are_all_ignored", """
    import torch.nn.functional as F
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    v2 = F.nll_loss(F.log_softmax(a.unsqueeze(-2), dim=1), torch.tensor([-100]))
    v2.retain_grad()
    abs(v2).sum().backward()     # abs' gradient is grad * sgn(nan), and sgn(nan) is 0
    print(v2, v2.grad, a.grad)
""")
case("relu_passes_the_gradient_at_nan", """
    import torch.nn.functional as F
    a = torch.tensor([[1.0]], requires_grad=True)
    v1 = F.cross_entropy(a, torch.tensor([-100]), weight=torch.tensor([2.707]))
    torch.relu(a.sub(v1)).sum().backward()      # threshold_backward: nan <= 0 is false
    print(v1, a.grad)
""")

case("sign_and_sgn_of_nan_are_0", """
    x = torch.tensor([float("nan"), float("inf"), -float("inf"), -0.0, 2.0], requires_grad=True)
    print(torch.sign(x), x.sign(), x.abs())
    (x.abs() * 2).sum().backward()       # abs' gradient: grad * sgn(x)
    print(x.grad)
""")
case("relu_keeps_nan_and_minus_0_and_passes_the_gradient_at_nan", """
    x = torch.tensor([float("nan"), -0.0, 0.0, -float("inf"), float("inf")], requires_grad=True)
    y = torch.relu(x)
    print(y)
    y.backward(torch.tensor([1., 2., 3., 4., 5.]))
    print(x.grad)
""")
case("max_of_a_tensor_holding_nan_sends_the_gradient_to_the_nan", """
    x = torch.tensor([[1.0, float("nan")], [float("nan"), 3.0]], requires_grad=True)
    x.max().backward()
    print(x.grad)
    x.grad = None
    x.min().backward()
    print(x.grad)
""")
case("pow_half_is_sqrt_and_zero_base_has_no_nan_gradient", """
    x = torch.tensor([-float("inf"), 4.0, float("nan")], requires_grad=True)
    print(x ** 0.5, x ** -0.5)
    (x ** 0.5).sum().backward()
    print(x.grad)
    e = torch.tensor([2.0, 0.0, -1.0, float("nan")], requires_grad=True)
    y = 0 ** e
    y.sum().backward()
    print(y, e.grad)
""")
case("binary_cross_entropy_checks_each_element_input_then_target", """
    import torch.nn.functional as F
    p = torch.tensor([0.5, 0.2, 0.7])
    for target in ([0., 1.5, 0.], [float("nan"), 0., 1.], [0., 1., -0.1]):
        try:
            F.binary_cross_entropy(p, torch.tensor(target))
        except RuntimeError as e:
            print(e)
    try:
        F.binary_cross_entropy(torch.tensor([0.5, 2.0, 0.5]), torch.tensor([0.0, 0.0, 3.0]))
    except RuntimeError as e:
        print(e)
    F.binary_cross_entropy(torch.tensor([0.5, 0.5]), torch.tensor([2.0, 0.0]))
""", "RuntimeError")
case("inf_minus_inf_and_zero_times_inf_without_warnings", """
    import torch.nn.functional as F
    x = torch.tensor([float("inf"), 0.0, -float("inf")], requires_grad=True)
    y = (x - x) + x * 0 + (x @ x) + x.sin() + F.linear(x.unsqueeze(0), x.unsqueeze(0)).sum()
    print(y)
    y.sum().backward()
    print(x.grad)
""")
case("leaky_relu_in_place_with_a_negative_slope_refuses_backward", """
    import torch.nn.functional as F
    x = torch.tensor([1., -2.], requires_grad=True)
    y = F.leaky_relu(x * 1, -0.1, inplace=True)
    print(y)
    y.sum().backward()
""", "RuntimeError")
case("embedding_double_backward_skips_the_padding_row", """
    import torch.nn.functional as F
    w = torch.tensor([[1., 2.], [3., 4.], [5., 6.]], requires_grad=True)
    out = F.embedding(torch.tensor([0, 2, 2, 1]), w, padding_idx=2)
    go = torch.ones(4, 2, requires_grad=True)
    (g,) = torch.autograd.grad(out, w, go, create_graph=True)
    print(g)
    print(torch.autograd.grad((g * torch.tensor([[1., 2.], [3., 4.], [5., 6.]])).sum(), go))
""")

case("softmax_of_a_0d_tensor_runs_its_formula", """
    import torch.nn.functional as F
    for value in (0.7, float("nan"), float("inf")):
        x = torch.tensor(value, requires_grad=True)
        for f in (F.softmax, F.log_softmax):
            (g,) = torch.autograd.grad(f(x, 0), x, torch.tensor(float("nan") if value == 0.7 else 1.0))
            print(f.__name__, value, g)
""")


@pytest.mark.parametrize("code, error", CASES)
def test_same_as_torch(code, error):
    assert_same(code, error=error)


# ============================================================================== the sweep
def _grid(shape, low=-1.7, high=1.9):
    """Values spread over [low, high], none near 0 or equal to another (no kinks, no ties)."""
    count = int(np.prod(shape, dtype=np.int64))
    values = np.linspace(low, high, count + 1)[:count]
    values = np.where(np.abs(values) < 0.2, values + 0.35, values)
    return np.random.default_rng(count).permutation(values).reshape(shape)


def _positive(shape):
    return np.abs(_grid(shape)) + 0.3


def _probabilities(shape):
    return (np.abs(_grid(shape)) + 0.1) / 2.2


def _F(T):
    return T.nn.functional


class Classes:
    """Integer data (class indices, a mask): passed as it is, never given nan or inf."""

    def __init__(self, values, dtype="int64"):
        self.values, self.dtype = values, dtype

    def make(self, T):
        return T.tensor(self.values, dtype=getattr(T, self.dtype))


def _inplace(name, *args, **kwargs):
    """An in-place method on a non-leaf copy of the first input."""
    def run(T, x, *rest):
        return getattr(x * 1, name)(*args, *rest, **kwargs)
    return run


def _setitem(T, x, y):
    z = x * 1
    z[0] = y[0]
    z[[1, 1], 0] = y[1:3]
    return z


def _through_views(T, x, y):
    """In-place ops on views of a non-leaf: CopySlices, and as_strided for the transposed view."""
    z = x * 1
    z[1:].mul_(y)
    z.t()[0].sigmoid_()
    return z


def _masked_fill_tensor(T, x, v):
    return x.masked_fill(T.tensor([[True, False, False], [False, True, False]]), v)


def _like(T, x, values):
    """A tensor of ``values`` in x's dtype (a loss's weights)."""
    return T.tensor(values, dtype=x.dtype)


def _batch_norm(training):
    def run(T, x, w, b):
        mean, var = T.zeros(3, dtype=x.dtype), T.ones(3, dtype=x.dtype)
        return _F(T).batch_norm(x, mean, var, w, b, training=training)
    return run


M23, M32, V3 = (2, 3), (3, 2), (3,)

# (id, f(T, *inputs), the inputs: numpy arrays (float32 tensors requiring grad, given nan and inf)
# or Classes (integer data)). Every differentiable op of mini_autograd: ops/*.py, nn.functional.
OPS = [
    # ---------------------------------------------------------------- pointwise, one input
    ("neg", lambda T, x: -x, [_grid(M23)]),
    ("abs", lambda T, x: x.abs(), [_grid(M23)]),
    ("exp", lambda T, x: x.exp(), [_grid(M23)]),
    ("log", lambda T, x: x.log(), [_positive(M23)]),
    ("sqrt", lambda T, x: x.sqrt(), [_positive(M23)]),
    ("sin", lambda T, x: x.sin(), [_grid(M23)]),
    ("cos", lambda T, x: x.cos(), [_grid(M23)]),
    ("tanh", lambda T, x: x.tanh(), [_grid(M23)]),
    ("sigmoid", lambda T, x: x.sigmoid(), [_grid(M23)]),
    ("relu", lambda T, x: x.relu(), [_grid(M23)]),
    ("reciprocal", lambda T, x: x.reciprocal(), [_grid(M23)]),
    ("sign", lambda T, x: T.sign(x), [_grid(M23)]),
    ("square", lambda T, x: T.square(x), [_grid(M23)]),
    ("leaky_relu", lambda T, x: _F(T).leaky_relu(x, 0.1), [_grid(M23)]),
    ("F_relu", lambda T, x: _F(T).relu(x), [_grid(M23)]),
    ("F_tanh", lambda T, x: _F(T).tanh(x), [_grid(M23)]),
    ("F_sigmoid", lambda T, x: _F(T).sigmoid(x), [_grid(M23)]),
    ("to_float64", lambda T, x: x.double(), [_grid(M23)]),
    ("clone", lambda T, x: x.clone(), [_grid(M23)]),
    # ---------------------------------------------------------------- a tensor and a number
    ("pow_3", lambda T, x: x ** 3, [_grid(M23)]),
    ("pow_2", lambda T, x: x ** 2, [_grid(M23)]),
    ("pow_half", lambda T, x: x ** 0.5, [_positive(M23)]),
    ("pow_minus_1", lambda T, x: x ** -1, [_grid(M23)]),
    ("pow_minus_half", lambda T, x: x ** -0.5, [_positive(M23)]),
    ("pow_zero", lambda T, x: x ** 0, [_grid(M23)]),
    ("pow_one", lambda T, x: x ** 1, [_grid(M23)]),
    ("pow_inf", lambda T, x: x ** INF, [_grid(M23)]),
    ("pow_nan", lambda T, x: x ** NAN, [_grid(M23)]),
    ("rpow_2", lambda T, x: 2 ** x, [_grid(M23)]),
    ("rpow_half", lambda T, x: 0.5 ** x, [_grid(M23)]),
    ("rpow_1", lambda T, x: 1 ** x, [_grid(M23)]),
    ("rpow_0", lambda T, x: 0 ** x, [_grid(M23)]),
    ("rpow_inf", lambda T, x: INF ** x, [_grid(M23)]),
    ("mul_scalar", lambda T, x: x * 3, [_grid(M23)]),
    ("mul_inf", lambda T, x: x * INF, [_grid(M23)]),
    ("mul_nan", lambda T, x: x * NAN, [_grid(M23)]),
    ("mul_zero", lambda T, x: x * 0, [_grid(M23)]),
    ("div_scalar", lambda T, x: x / 3, [_grid(M23)]),
    ("div_zero", lambda T, x: x / 0, [_grid(M23)]),
    ("div_inf", lambda T, x: x / INF, [_grid(M23)]),
    ("add_inf", lambda T, x: x + INF, [_grid(M23)]),
    ("add_alpha", lambda T, x, y: T.add(x, y, alpha=INF), [_grid(M23), _grid(V3)]),
    ("sub_alpha", lambda T, x, y: T.sub(x, y, alpha=2.5), [_grid(M23), _grid(V3)]),
    ("rsub", lambda T, x: 2 - x, [_grid(M23)]),
    ("rsub_inf", lambda T, x: INF - x, [_grid(M23)]),
    ("rdiv", lambda T, x: 2 / x, [_grid(M23)]),
    ("rdiv_inf", lambda T, x: INF / x, [_grid(M23)]),
    ("clamp", lambda T, x: x.clamp(-0.5, 1.0), [_grid(M23)]),
    ("clamp_min", lambda T, x: x.clamp(min=-0.5), [_grid(M23)]),
    ("clamp_max", lambda T, x: x.clamp(max=0.5), [_grid(M23)]),
    ("clamp_inf_bounds", lambda T, x: x.clamp(-INF, INF), [_grid(M23)]),
    ("clamp_nan_min", lambda T, x: x.clamp(min=NAN), [_grid(M23)]),
    ("clamp_nan_max", lambda T, x: x.clamp(max=NAN), [_grid(M23)]),
    ("clamp_crossed", lambda T, x: x.clamp(1.0, -1.0), [_grid(M23)]),
    ("clamp_tensor_min", lambda T, x, lo: x.clamp(min=lo), [_grid(M23), _grid(V3) / 2]),
    ("clamp_tensor_max", lambda T, x, hi: x.clamp(max=hi), [_grid(M23), _grid(V3) / 2]),
    ("clamp_tensor_both", lambda T, x, lo, hi: x.clamp(lo, hi), [_grid(M23), _grid(V3) - 1, _grid(V3) + 1]),
    ("masked_fill", lambda T, x: x.masked_fill(x > 0, 0.5), [_grid(M23)]),
    ("masked_fill_nan", lambda T, x: x.masked_fill(x > 0, NAN), [_grid(M23)]),
    ("masked_fill_tensor", _masked_fill_tensor, [_grid(M23), np.array(0.25)]),
    # ---------------------------------------------------------------- two tensors
    ("add", lambda T, x, y: x + y, [_grid(M23), _grid(V3)]),
    ("sub", lambda T, x, y: x - y, [_grid(M23), _grid(V3)]),
    ("mul", lambda T, x, y: x * y, [_grid(M23), _grid(V3)]),
    ("div", lambda T, x, y: x / y, [_grid(M23), _grid(V3)]),
    ("pow_tensor", lambda T, x, y: x ** y, [_positive(M23), _grid(V3)]),
    ("pow_tensor_negative_base", lambda T, x, y: x ** y, [_grid(M23), np.array([2., 3., -1.])]),
    ("maximum", lambda T, x, y: T.maximum(x, y), [_grid(M23), _grid(V3)]),
    ("minimum", lambda T, x, y: T.minimum(x, y), [_grid(M23), _grid(V3)]),
    ("max_binary", lambda T, x, y: T.max(x, y), [_grid(M23), _grid(V3)]),
    ("where", lambda T, x, y: T.where(x > 0, x, y), [_grid(M23), _grid(V3)]),
    ("where_mask", lambda T, x, y: T.where(T.tensor([True, False, True]), x, y), [_grid(M23), _grid(V3)]),
    # ---------------------------------------------------------------- reductions
    ("sum", lambda T, x: x.sum(), [_grid(M23)]),
    ("sum_dim", lambda T, x: x.sum(1), [_grid(M23)]),
    ("sum_keepdim", lambda T, x: x.sum(0, keepdim=True), [_grid(M23)]),
    ("mean", lambda T, x: x.mean(), [_grid(M23)]),
    ("mean_dim", lambda T, x: x.mean(1), [_grid(M23)]),
    ("max", lambda T, x: x.max(), [_grid(M23)]),
    ("min", lambda T, x: x.min(), [_grid(M23)]),
    ("max_dim", lambda T, x: x.max(1).values, [_grid(M23)]),
    ("max_dim_indices", lambda T, x: x.max(1).indices, [_grid(M23)]),
    ("min_dim", lambda T, x: x.min(0, keepdim=True)[0], [_grid(M23)]),
    ("min_dim_indices", lambda T, x: x.min(0)[1], [_grid(M23)]),
    ("argmax", lambda T, x: x.argmax(), [_grid(M23)]),
    ("argmax_dim", lambda T, x: x.argmax(1), [_grid(M23)]),
    ("argmin_dim", lambda T, x: x.argmin(0), [_grid(M23)]),
    ("amax", lambda T, x: x.amax(1), [_grid(M23)]),
    ("amin", lambda T, x: x.amin((0, 1)), [_grid(M23)]),
    ("norm", lambda T, x: x.norm(), [_grid(M23)]),
    ("norm_dim", lambda T, x: x.norm(dim=1), [_grid(M23)]),
    ("norm_p1", lambda T, x: x.norm(p=1), [_grid(M23)]),
    ("norm_p3", lambda T, x: x.norm(p=3, dim=0), [_grid(M23)]),
    ("norm_p1_5", lambda T, x: x.norm(p=1.5), [_grid(M23)]),
    ("norm_p0_5", lambda T, x: x.norm(p=0.5, dim=1), [_grid(M23)]),
    ("norm_p0", lambda T, x: x.norm(p=0) + x.sum(), [_grid(M23)]),
    ("norm_inf", lambda T, x: x.norm(p=INF), [_grid(M23)]),
    ("norm_minus_inf", lambda T, x: x.norm(p=-INF, dim=1), [_grid(M23)]),
    ("softmax", lambda T, x: _F(T).softmax(x, 1), [_grid(M23)]),
    ("softmax_dim0", lambda T, x: x.softmax(0), [_grid(M23)]),
    ("log_softmax", lambda T, x: _F(T).log_softmax(x, 1), [_grid(M23)]),
    ("log_softmax_dim0", lambda T, x: x.log_softmax(0), [_grid(M23)]),
    ("softmax_0d", lambda T, x: _F(T).softmax(x, 0), [np.array(0.7)]),
    ("log_softmax_0d", lambda T, x: _F(T).log_softmax(x, -1), [np.array(0.7)]),
    ("max_0d", lambda T, x: x.max() + x.max(0).values, [np.array(0.7)]),
    # ---------------------------------------------------------------- matrix products
    ("mm", lambda T, a, b: a @ b, [_grid(M23), _grid(M32)]),
    ("mv", lambda T, a, b: a @ b, [_grid(M23), _grid(V3)]),
    ("vm", lambda T, a, b: a @ b, [_grid(V3), _grid(M32)]),
    ("dot", lambda T, a, b: a @ b, [_grid(V3), _grid(V3)]),
    ("bmm", lambda T, a, b: T.bmm(a, b), [_grid((2, 2, 3)), _grid((2, 3, 2))]),
    ("matmul_folded", lambda T, a, b: a @ b, [_grid((2, 2, 3)), _grid(M32)]),
    ("matmul_batched", lambda T, a, b: a @ b, [_grid((2, 1, 2, 3)), _grid((3, 3, 2))]),
    ("linear", lambda T, x, w, b: _F(T).linear(x, w, b), [_grid(M23), _grid((4, 3)), _grid((4,))]),
    ("linear_no_bias", lambda T, x, w: _F(T).linear(x, w), [_grid(M23), _grid((4, 3))]),
    ("linear_1d", lambda T, x, w, b: _F(T).linear(x, w, b), [_grid(V3), _grid((4, 3)), _grid((4,))]),
    # ---------------------------------------------------------------- views, indexing, joins
    ("view", lambda T, x: x.view(3, 2), [_grid(M23)]),
    ("reshape_copy", lambda T, x: x.t().reshape(6), [_grid(M23)]),
    ("transpose", lambda T, x: x.transpose(0, 1), [_grid(M23)]),
    ("permute", lambda T, x: x.permute(1, 0), [_grid(M23)]),
    ("unsqueeze", lambda T, x: x.unsqueeze(1), [_grid(M23)]),
    ("squeeze", lambda T, x: x.squeeze(), [_grid((2, 1, 3))]),
    ("expand", lambda T, x: x.expand(2, 3), [_grid(V3)]),
    ("flatten", lambda T, x: x.t().flatten(), [_grid(M23)]),
    ("reshape_alias", lambda T, x: x.t().reshape(3, 1, 2), [_grid(M23)]),
    ("inplace_through_views", _through_views, [_grid((3, 3)), _grid((2, 3))]),
    ("select", lambda T, x: x[1], [_grid(M23)]),
    ("slice", lambda T, x: x[:, 1:], [_grid(M23)]),
    ("index", lambda T, x: x[[0, 0, 1], 1:], [_grid(M23)]),
    ("mask", lambda T, x: x[T.tensor([[True, False, True], [False, True, True]])], [_grid(M23)]),
    ("mask_of_itself", lambda T, x: x[x > 0], [_grid(M23)]),
    ("setitem", _setitem, [_grid((3, 2)), _grid(V3)]),
    ("cat", lambda T, x, y: T.cat([x, y], 0), [_grid(M23), _grid((1, 3))]),
    ("stack", lambda T, x, y: T.stack([x, y], 1), [_grid(M23), _grid(M23)]),
    ("meshgrid", lambda T, x, y: T.meshgrid(x, y, indexing="ij")[0] * T.meshgrid(x, y, indexing="ij")[1],
     [_grid(V3), _grid((2,))]),
    # ---------------------------------------------------------------- in place
    ("add_", _inplace("add_"), [_grid(M23), _grid(V3)]),
    ("sub_", _inplace("sub_", alpha=2), [_grid(M23), _grid(V3)]),
    ("mul_", _inplace("mul_"), [_grid(M23), _grid(V3)]),
    ("div_", _inplace("div_"), [_grid(M23), _grid(V3)]),
    ("pow_", _inplace("pow_", 3), [_grid(M23)]),
    ("exp_", _inplace("exp_"), [_grid(M23)]),
    ("log_", _inplace("log_"), [_positive(M23)]),
    ("sqrt_", _inplace("sqrt_"), [_positive(M23)]),
    ("sin_", _inplace("sin_"), [_grid(M23)]),
    ("cos_", _inplace("cos_"), [_grid(M23)]),
    ("tanh_", _inplace("tanh_"), [_grid(M23)]),
    ("sigmoid_", _inplace("sigmoid_"), [_grid(M23)]),
    ("relu_", _inplace("relu_"), [_grid(M23)]),
    ("abs_", _inplace("abs_"), [_grid(M23)]),
    ("neg_", _inplace("neg_"), [_grid(M23)]),
    ("reciprocal_", _inplace("reciprocal_"), [_grid(M23)]),
    ("clamp_", _inplace("clamp_", -0.5, 1.0), [_grid(M23)]),
    ("leaky_relu_", lambda T, x: _F(T).leaky_relu(x * 1, 0.1, inplace=True), [_grid(M23)]),
    ("fill_", _inplace("fill_"), [_grid(M23), np.array(0.5)]),
    ("fill_nan", _inplace("fill_", NAN), [_grid(M23)]),
    ("zero_", lambda T, x: (x * 1).zero_() + x, [_grid(M23)]),
    ("copy_", _inplace("copy_"), [_grid(M23), _grid(V3)]),
    # ---------------------------------------------------------------- losses
    ("mse", lambda T, x, y: _F(T).mse_loss(x, y), [_grid(M23), _grid(M23) / 2]),
    ("mse_sum", lambda T, x, y: _F(T).mse_loss(x, y, reduction="sum"), [_grid(M23), _grid(M23) / 2]),
    ("mse_none", lambda T, x, y: _F(T).mse_loss(x, y, reduction="none"), [_grid(M23), _grid(M23) / 2]),
    ("l1", lambda T, x, y: _F(T).l1_loss(x, y), [_grid(M23), _grid(M23) / 2]),
    ("l1_none", lambda T, x, y: _F(T).l1_loss(x, y, reduction="none"), [_grid(M23), _grid(M23) / 2]),
    ("smooth_l1", lambda T, x, y: _F(T).smooth_l1_loss(x, y), [_grid(M23), _grid(M23) / 2]),
    ("smooth_l1_none", lambda T, x, y: _F(T).smooth_l1_loss(x, y, reduction="none", beta=0.5),
     [_grid(M23), _grid(M23) / 2]),
    ("smooth_l1_beta_0", lambda T, x, y: _F(T).smooth_l1_loss(x, y, beta=0.0), [_grid(M23), _grid(M23) / 2]),
    ("huber", lambda T, x, y: _F(T).huber_loss(x, y), [_grid(M23), _grid(M23) / 2]),
    ("huber_none", lambda T, x, y: _F(T).huber_loss(x, y, reduction="none", delta=0.5),
     [_grid(M23), _grid(M23) / 2]),
    ("bce", lambda T, p, t: _F(T).binary_cross_entropy(p, t), [_probabilities(M23), _probabilities(M23)]),
    ("bce_none", lambda T, p, t: _F(T).binary_cross_entropy(p, t, reduction="none"),
     [_probabilities(M23), _probabilities(M23)]),
    ("bce_weight", lambda T, p, t: _F(T).binary_cross_entropy(p, t, _like(T, p, [1., 2., 3.])),
     [_probabilities(M23), _probabilities(M23)]),
    ("bce_logits", lambda T, x, t: _F(T).binary_cross_entropy_with_logits(x, t),
     [_grid(M23), _probabilities(M23)]),
    ("bce_logits_none", lambda T, x, t: _F(T).binary_cross_entropy_with_logits(x, t, reduction="none"),
     [_grid(M23), _probabilities(M23)]),
    ("bce_logits_weights", lambda T, x, t: _F(T).binary_cross_entropy_with_logits(
        x, t, weight=_like(T, x, [1., 2., 3.]), pos_weight=_like(T, x, [2., 0.5, 1.]), reduction="sum"),
     [_grid(M23), _probabilities(M23)]),
    ("nll", lambda T, x, y: _F(T).nll_loss(x, y), [_grid(M23), Classes([1, 0])]),
    ("nll_sum", lambda T, x, y: _F(T).nll_loss(x, y, reduction="sum"), [_grid(M23), Classes([1, 2])]),
    ("nll_none", lambda T, x, y: _F(T).nll_loss(x, y, reduction="none"), [_grid(M23), Classes([2, 0])]),
    ("nll_1d", lambda T, x, y: _F(T).nll_loss(x, y), [_grid(V3), Classes(1)]),
    ("nll_ignored", lambda T, x, y: _F(T).nll_loss(x, y), [_grid(M23), Classes([1, -100])]),
    ("nll_all_ignored", lambda T, x, y: _F(T).nll_loss(x, y), [_grid(M23), Classes([-100, -100])]),
    ("nll_all_ignored_none", lambda T, x, y: _F(T).nll_loss(x, y, reduction="none"),
     [_grid(M23), Classes([-100, -100])]),
    ("nll_weight", lambda T, x, y: _F(T).nll_loss(x, y, weight=_like(T, x, [0.5, 2., 1.])),
     [_grid(M23), Classes([1, 0])]),
    ("nll_zero_weight", lambda T, x, y: _F(T).nll_loss(x, y, weight=_like(T, x, [0., 2., 1.])),
     [_grid(M23), Classes([0, 0])]),
    ("cross_entropy", lambda T, x, y: _F(T).cross_entropy(x, y), [_grid(M23), Classes([0, 2])]),
    ("cross_entropy_sum", lambda T, x, y: _F(T).cross_entropy(x, y, reduction="sum"),
     [_grid(M23), Classes([0, 2])]),
    ("cross_entropy_1d", lambda T, x, y: _F(T).cross_entropy(x, y), [_grid(V3), Classes(2)]),
    ("cross_entropy_weight", lambda T, x, y: _F(T).cross_entropy(x, y, weight=_like(T, x, [2.7, 1., 0.5])),
     [_grid(M23), Classes([0, -100])]),
    ("cross_entropy_all_ignored", lambda T, x, y: _F(T).cross_entropy(x, y),
     [_grid(M23), Classes([-100, -100])]),
    # ---------------------------------------------------------------- layers
    ("batch_norm_train", _batch_norm(True), [_grid((4, 3)), _positive(V3), _grid(V3)]),
    ("batch_norm_eval", _batch_norm(False), [_grid((4, 3)), _positive(V3), _grid(V3)]),
    ("embedding", lambda T, w, i: _F(T).embedding(i, w), [_grid((4, 3)), Classes([[0, 2], [2, 3]])]),
    ("embedding_padding", lambda T, w, i: _F(T).embedding(i, w, padding_idx=2),
     [_grid((4, 3)), Classes([0, 2])]),
    ("dropout_p1", lambda T, x: _F(T).dropout(x, 1.0), [_grid(M23)]),
    ("dropout_eval", lambda T, x: _F(T).dropout(x, 0.5, training=False), [_grid(M23)]),
]


# ------------------------------------------------------------------------------ running a case
def _with_special(array, value, where):
    """``array`` with ``value`` at its first element ("one") or at every element ("all")."""
    array = np.array(array, dtype=np.float64, copy=True)
    if where == "all":
        array[...] = value
    else:
        array.reshape(-1)[0] = value
    return array


def _tensors(T, arrays, dtype):
    return [a.make(T) if isinstance(a, Classes) else T.tensor(a.tolist(), dtype=getattr(T, dtype),
                                                              requires_grad=True)
            for a in arrays]


def _plain(t):
    """A tensor as what one sees of it: dtype, shape, and its values as float64 (nan, inf and -0 kept).

    PyTorch's sgn gives a second gradient that is a ZeroTensor (FunctionsManual.cpp, sgn_backward:
    ``at::_efficientzerotensor``), whose tolist() raises: its values are read with numpy(force=True).
    mini_autograd has no ZeroTensor and gives zeros."""
    t = t.detach()
    values = t.numpy(force=True) if hasattr(t, "_is_zerotensor") else t.numpy()
    return str(t.dtype).split(".")[-1], tuple(t.shape), np.array(values, dtype=np.float64)


def _near_one(shape):
    """Numbers of ``shape``, all different, in [0.5, 1.5]: no sum of them cancels exactly."""
    return 0.5 + _probabilities(shape) if shape else np.array(1.25)


def _upstream(T, out, upstream):
    """The gradient sent back from ``out``: numbers near 1, zeros, or those numbers with a nan or
    inf at the first element."""
    shape = tuple(out.shape)
    grad = np.zeros(shape) if upstream == "zeros" else _near_one(shape)
    if upstream in SPECIALS:
        grad.reshape(-1)[0] = SPECIALS[upstream]
    return T.tensor(grad.tolist(), dtype=out.dtype)


def outcome(T, fn, arrays, upstream, dtype="float32", order=1):
    """What running ``fn`` on ``arrays`` shows: its result, then each input's gradient after
    backward from ``upstream``, or the error that stopped it. ``order=2``: the gradients are
    made with ``create_graph=True``, and the second gradients are those of their weighted sum,
    so the backward formulas' own backward formulas run too."""
    seen = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _run(T, fn, arrays, upstream, dtype, order, seen)
    # numpy's "invalid value encountered" and the like are warnings PyTorch does not give
    seen += [("warning", w.category.__name__, str(w.message)) for w in caught]
    return seen


def _run(T, fn, arrays, upstream, dtype, order, seen):
    try:
        inputs = _tensors(T, arrays, dtype)
        out = fn(T, *inputs)
        seen.append(("result", _plain(out)))
        if not out.requires_grad:
            return
        wrt = [t for t in inputs if t.requires_grad]
        grads = T.autograd.grad(out, wrt, _upstream(T, out, upstream), create_graph=order == 2,
                                allow_unused=True)
        seen += [("grad", None if g is None else _plain(g)) for g in grads]
        if order == 2:
            terms = [(g * _upstream(T, g, "ones")).sum() for g in grads if g is not None and g.requires_grad]
            if terms:
                second = T.autograd.grad(sum(terms), wrt, allow_unused=True)
                seen += [("second grad", None if g is None else _plain(g)) for g in second]
    except Exception as error:        # the error, and how far it got, is part of what is compared
        seen.append(("error", type(error).__name__, str(error)))


def _same_values(a, b, dtype):
    """Equal within rounding, nan where nan, the same infinities, and zeros of the same sign."""
    if a.shape != b.shape:
        return False
    if not np.array_equal(np.isnan(a), np.isnan(b)):
        return False
    zeros = (a == 0) & (b == 0)
    if not np.array_equal(np.signbit(a[zeros]), np.signbit(b[zeros])):
        return False
    finite = np.isfinite(a) & np.isfinite(b)
    infinite = ~finite & ~np.isnan(a)
    if not np.array_equal(a[infinite], b[infinite]):
        return False
    rtol = 1e-5 if dtype == "float32" else 1e-10
    return np.allclose(a[finite], b[finite], rtol=rtol, atol=rtol / 10)


def _same(expected, got, dtype):
    if len(expected) != len(got):
        return False
    for e, g in zip(expected, got, strict=True):
        if e[0] != g[0]:
            return False
        if e[0] in ("error", "warning"):
            if e != g:
                return False
        elif (e[1] is None) != (g[1] is None) or (
                e[1] is not None and (e[1][:2] != g[1][:2] or not _same_values(e[1][2], g[1][2], dtype))):
            return False
    return True


def _cases(arrays):
    """(label, arrays, upstream, order) for one op: nan, inf and -inf in each float input, at one
    element or at all, with numbers near 1 and zeros flowing back (and a second backward from the
    first); then finite inputs with a nan or inf in the gradient that flows back."""
    for i, array in enumerate(arrays):
        if isinstance(array, Classes):
            continue
        for name, value in SPECIALS.items():
            for where in ("one", "all") if np.size(array) > 1 else ("all",):
                changed = list(arrays)
                changed[i] = _with_special(array, value, where)
                label = f"input {i} {name} at {where}"
                yield f"{label}, gradient near 1", changed, "ones", 1
                yield f"{label}, zero gradient", changed, "zeros", 1
                yield f"{label}, second backward", changed, "ones", 2
    for upstream in SPECIALS:
        yield f"{upstream} in the gradient", arrays, upstream, 1
        yield f"{upstream} in the gradient, second backward", arrays, upstream, 2


DTYPES = ("float32", "float64")


def _show(seen):
    """An outcome on one line: each value's name, then its numbers (or the error)."""
    parts = []
    for item in seen:
        if item[0] in ("error", "warning") or item[1] is None:
            parts.append(" ".join(map(str, item)))
        else:
            dtype, shape, values = item[1]
            parts.append(f"{item[0]} {dtype}{list(shape)} {np.array2string(values.reshape(-1), precision=5)}")
    return "; ".join(parts)


def differences(op_id, fn, arrays, dtype):
    """Every case of ``op_id`` where mini_autograd shows something else than PyTorch."""
    found = []
    for label, changed, upstream, order in _cases(arrays):
        expected = outcome(torch, fn, changed, upstream, dtype, order)
        got = outcome(mini_autograd, fn, changed, upstream, dtype, order)
        if not _same(expected, got, dtype):
            found.append(f"{op_id} ({dtype}), {label}:\n    torch:         {_show(expected)}\n"
                         f"    mini_autograd: {_show(got)}")
    return found


def _sweep_params():
    for op_id, fn, arrays in OPS:
        for dtype in DTYPES:
            yield pytest.param(op_id, fn, arrays, dtype, id=f"{op_id}-{dtype}")


@pytest.mark.parametrize("op_id, fn, arrays, dtype", list(_sweep_params()))
def test_nonfinite_like_torch(op_id, fn, arrays, dtype):
    found = differences(op_id, fn, arrays, dtype)
    assert not found, f"{len(found)} cases differ from PyTorch:\n" + "\n".join(found)


def test_sweep_ids_unique():
    ids = [op[0] for op in OPS]
    assert len(ids) == len(set(ids))


def sweep_size():
    """How many op x value combinations the sweep compares (each: the result and every gradient)."""
    return len(DTYPES) * sum(len(list(_cases(arrays))) for _, _, arrays in OPS)


def test_sweep_size():
    assert sweep_size() == 11226         # the number the docstring gives
