"""mini_autograd.nn: modules, parameters, layers, losses and functional.

Three kinds of test:

* cross-checks against PyTorch (``assert_same``: the same torch program prints
  the same under both; skipped without torch): reprs, node names and graph
  structure, state_dict keys, values, error types and messages;
* gradients of the new Functions (ops/losses.py, activations.py, linalg.py) against finite differences in
  float64, first and second order;
* the Module machinery on its own (registration, traversal, modes, state).
"""
import math
import textwrap

import numpy as np
import pytest

import mini_autograd as mt
from mini_autograd import nn
from mini_autograd.autograd import gradcheck
from mini_autograd.nn import functional as F

try:
    from crosscheck import assert_same, first_sentence, full
except ImportError:  # tests/ made a package
    from tests.crosscheck import assert_same, first_sentence, full


# ---------------------------------------------------------------------------
# against PyTorch

# Fixed weights: the two libraries draw different random numbers, so every
# snippet that prints values sets them.
SETUP = """
import torch
import torch.nn as nn
import torch.nn.functional as F
def set_linear(layer, scale=0.1):
    out_f, in_f = layer.weight.shape
    with torch.no_grad():
        layer.weight.copy_(torch.arange(out_f * in_f, dtype=torch.float32).reshape(out_f, in_f) * scale - 0.3)
        if layer.bias is not None:
            layer.bias.copy_(torch.arange(out_f, dtype=torch.float32) * -scale)
    return layer
x = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75], [0.0, 1.0, 1.0], [-2.0, 0.5, 0.125]])
"""

CASES = []


IMPORTS = "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"


def case(id, code, error=None, message=full):
    setup = SETUP if code.startswith(SETUP) else ""
    code = IMPORTS + setup + textwrap.dedent(code[len(setup):])
    CASES.append(pytest.param(code, error, message, id=id))


# repr ----------------------------------------------------------------------
case("repr_linear_sequential", """
    print(nn.Linear(784, 256))
    print(nn.Linear(3, 2, bias=False))
    print(nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 10)))
    print(nn.Sequential(nn.Linear(2, 3), nn.Tanh(), nn.Sequential(nn.Linear(3, 3), nn.Sigmoid())))
    print(nn.Sequential())
    print(nn.ReLU(), nn.Tanh(), nn.Sigmoid(), nn.MSELoss(), nn.CrossEntropyLoss(), nn.Module())
    print(nn.MSELoss(reduction="sum"), nn.CrossEntropyLoss(reduction="none"))
    print(nn.Softmax(dim=1), nn.LogSoftmax(dim=-1), nn.NLLLoss())
""")
case("repr_custom_module", """
    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = nn.Linear(4, 3)
            self.act = nn.ReLU()
            self.fc2 = nn.Linear(3, 2)
        def forward(self, x):
            return self.fc2(self.act(self.fc1(x)))
    net = Net()
    print(net)
    print([name for name, _ in net.named_parameters()])
    print([tuple(p.shape) for p in net.parameters()])
    print(list(net.children()))
    print([name for name, _ in net.named_modules()])
    print(list(net.state_dict().keys()))
    print(net.state_dict().keys())
    print(sum(p.numel() for p in net.parameters()))
""")
case("repr_parameter", """
    p = nn.Parameter(torch.tensor([1.0, 2.5]))
    print(p)
    print(repr(p))
    print(p.is_leaf, p.requires_grad, p.grad_fn, isinstance(p, torch.Tensor))
    print(nn.Parameter(torch.tensor([1, 2]), requires_grad=False))
    print(nn.Parameter(torch.tensor([[1.0], [2.0]], dtype=torch.float64)))
    print(nn.Parameter())
    print(type(p * 2).__name__, type(p.detach()).__name__, p * 2)
""")
case("repr_state_dict", SETUP + """
    lin = set_linear(nn.Linear(3, 2))
    sd = lin.state_dict()
    print(sd)
    print(sd["weight"].requires_grad, sd["weight"].is_leaf)
    print(nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 1)).state_dict().keys())
""")
case("repr_slicing_sequential", """
    s = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
    print(s[0])
    print(s[-1])
    print(s[1:])
    print(len(s), [type(m).__name__ for m in s])
""")

# node names and graph structure ---------------------------------------------
case("graph_linear_2d", SETUP + """
    lin = set_linear(nn.Linear(3, 2))
    y = lin(x)
    print(y)
    walk(y)
    print(edges(y.grad_fn))
    print(y.grad_fn._saved_alpha, y.grad_fn._saved_beta, y.grad_fn._saved_mat1_sym_sizes)
    print(y.grad_fn._saved_mat2_sym_sizes)
    xr = x.clone().requires_grad_()
    walk(lin(xr))
""")
case("graph_linear_1d_and_3d", SETUP + """
    lin = set_linear(nn.Linear(3, 2))
    v = torch.tensor([1.0, -1.0, 0.5], requires_grad=True)
    y = lin(v)
    print(y)
    walk(y)
    x3 = x.reshape(2, 2, 3).requires_grad_()
    y3 = lin(x3)
    print(y3)
    walk(y3)
""")
case("graph_linear_non_contiguous_3d", SETUP + """
    lin = set_linear(nn.Linear(3, 2))
    leaf = torch.arange(24.0).reshape(2, 4, 3).requires_grad_()
    y = lin(leaf.transpose(0, 1))
    print(y.shape)
    walk(y)
    y.sum().backward()
    print(leaf.grad[0])
    print(lin.bias.grad)
""")
case("graph_linear_no_bias", SETUP + """
    lin = set_linear(nn.Linear(3, 2, bias=False))
    xr = x.clone().requires_grad_()
    walk(lin(xr))
    walk(lin(xr[0]))
    walk(lin(xr.reshape(2, 2, 3)))
    print(lin(x))
""")
case("graph_activations", SETUP + """
    for f in (F.relu, F.tanh, F.sigmoid, nn.ReLU(), nn.Tanh(), nn.Sigmoid()):
        print(f(x.requires_grad_()).grad_fn.name())
    s = F.softmax(x, dim=1)
    print(s)
    print(s.grad_fn, s.grad_fn._saved_dim)
    ls = F.log_softmax(x, dim=0)
    print(ls)
    print(ls.grad_fn.name(), ls.grad_fn._saved_dim)
""")
case("graph_cross_entropy", SETUP + """
    lin = set_linear(nn.Linear(3, 4))
    target = torch.tensor([0, 3, 1, 2])
    loss = F.cross_entropy(lin(x), target)
    print(loss)
    walk(loss)
    print(loss.grad_fn._saved_reduction, loss.grad_fn._saved_total_weight)
    print(loss.grad_fn._saved_target)
    print(loss.grad_fn._saved_weight)
    loss.backward()
    record("weight.grad", lin.weight.grad)
    record("bias.grad", lin.bias.grad)
""")
case("graph_mse", SETUP + """
    lin = set_linear(nn.Linear(3, 2))
    target = torch.tensor([[1.0, 0.0], [0.0, 1.0], [0.5, 0.5], [2.0, -1.0]])
    loss = nn.MSELoss()(lin(x), target)
    print(loss)
    walk(loss)
    print(edges(loss.grad_fn))
    loss.backward()
    print(lin.weight.grad)
    print(lin.bias.grad)
""")

# values --------------------------------------------------------------------
case("values_softmax_stable", """
    big = torch.tensor([[1000.0, 0.0, -1000.0], [1.0, 2.0, 3.0]])
    print(F.softmax(big, dim=1))
    print(F.log_softmax(big, dim=1))
    print(F.softmax(big, dim=0))
    print(F.softmax(torch.tensor(2.0), 0), F.log_softmax(torch.tensor(2.0), 0))
    print(F.softmax(torch.tensor([1.0, 2.0]), dim=0, dtype=torch.float64))
""")
case("values_cross_entropy_reductions", SETUP + """
    target = torch.tensor([0, 2, 1, 2])
    for reduction in ("mean", "sum", "none"):
        print(F.cross_entropy(x, target, reduction=reduction))
        print(nn.CrossEntropyLoss(reduction=reduction)(x, target))
    print(F.cross_entropy(x[0], target[0]))
    print(F.cross_entropy(x, torch.tensor([0, -100, 1, 2])))
    print(F.cross_entropy(x, torch.tensor([0, -100, 1, 2]), reduction="none"))
    print(F.cross_entropy(x, torch.tensor([-100, -100, -100, -100])))
    print(F.cross_entropy(x, torch.tensor([1, 5, 1, 1]), ignore_index=5))
    w = torch.tensor([1.0, 2.0, 0.5])
    l = F.cross_entropy(x, target, weight=w)
    print(l, l.grad_fn._saved_total_weight if l.grad_fn else None)
    print(nn.CrossEntropyLoss(weight=w)(x, target), nn.CrossEntropyLoss(weight=w).state_dict())
    print(F.nll_loss(F.log_softmax(x, 1), target), F.nll_loss(x, target, reduction="sum"))
""")
case("values_cross_entropy_grads", SETUP + """
    xr = x.clone().requires_grad_()
    target = torch.tensor([0, 2, 1, 2])
    w = torch.tensor([1.0, 2.0, 0.5])
    for kwargs in ({}, {"reduction": "sum"}, {"weight": w}, {"ignore_index": 1}):
        xr.grad = None
        F.cross_entropy(xr, target, **kwargs).backward()
        record(str(kwargs), xr.grad)
    xr.grad = None
    F.cross_entropy(xr, target, reduction="none").backward(torch.tensor([1.0, 2.0, 3.0, 4.0]))
    record("none", xr.grad)
""")
case("values_mse", SETUP + """
    t = torch.tensor([[1.0, 0.0, 0.5], [0.0, 1.0, -1.0], [0.5, 0.5, 0.5], [2.0, -1.0, 0.0]])
    for reduction in ("mean", "sum", "none"):
        print(F.mse_loss(x, t, reduction=reduction))
    xr = x.clone().requires_grad_()
    tr = t.clone().requires_grad_()
    F.mse_loss(xr, tr).backward()
    print(xr.grad)
    print(tr.grad)
    print(F.mse_loss(torch.tensor([1.0, 2.0]), torch.tensor([1, 4])))
""")
case("values_mse_broadcast_warns", SETUP + """
    xr = x.clone().requires_grad_()
    loss = F.mse_loss(xr, torch.tensor([1.0, 0.0, -1.0]))
    print(loss)
    loss.backward()
    print(xr.grad)
""")
case("softmax_implicit_dim_warns", SETUP + """
    print(F.softmax(x))
    print(F.log_softmax(x[0]))
""")

# module behaviour ------------------------------------------------------------
case("module_train_eval_zero_grad", SETUP + """
    net = nn.Sequential(set_linear(nn.Linear(3, 2)), nn.ReLU())
    print(net.training, net[0].training)
    print(net.eval() is net, net.training, net[0].training)
    print(net.train().training, net[1].training)
    net(x).sum().backward()
    print(net[0].weight.grad)
    net.zero_grad()
    print(net[0].weight.grad)
    net(x).sum().backward()
    net.zero_grad(set_to_none=False)
    print(net[0].bias.grad)
""")
case("module_load_state_dict", SETUP + """
    a = set_linear(nn.Linear(3, 2))
    b = nn.Linear(3, 2)
    print(b.load_state_dict(a.state_dict()))
    print(b.weight)
    print(b(x))
    s = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
    print(s.load_state_dict({"0.weight": torch.zeros(3, 2)}, strict=False))
    print(s[0].weight)
""")
case("module_getattr_setattr", """
    m = nn.Linear(3, 2)
    m.extra = 5
    print(m.extra, "extra" in m.__dict__)
    m.bias = None
    print(m.bias, m)
    print([n for n, _ in m.named_parameters()])
    del m.weight
    print([n for n, _ in m.named_parameters()])
""")
case("shared_parameter_listed_once", """
    a = nn.Linear(2, 2)
    s = nn.Sequential(a, nn.ReLU(), a)
    print(len(list(s.parameters())), list(s.state_dict().keys()))
    print(len(list(s.named_parameters(remove_duplicate=False))))
    print(len(list(s.modules())), len(list(s.children())))
""")

# errors --------------------------------------------------------------------
case("error_linear_wrong_features", SETUP + "nn.Linear(3, 2)(torch.ones(4, 5))", error="RuntimeError")
case("error_linear_wrong_features_1d", SETUP + "nn.Linear(3, 2)(torch.ones(5))", error="RuntimeError")
case("error_linear_wrong_features_3d", SETUP + "nn.Linear(3, 2)(torch.ones(2, 4, 5))", error="RuntimeError")
case("error_linear_0d", SETUP + "nn.Linear(3, 2)(torch.tensor(1.0))", error="RuntimeError")
case("error_linear_dtype", SETUP + "nn.Linear(3, 2)(x.double())", error="RuntimeError")
case("error_linear_long", SETUP + "nn.Linear(3, 2)(torch.ones(4, 3, dtype=torch.long))", error="RuntimeError")
case("error_linear_bias_shape", SETUP + "F.linear(x, torch.ones(2, 3), torch.ones(3))", error="RuntimeError")
case("error_linear_bias_dtype", SETUP + "F.linear(x, torch.ones(2, 3), torch.ones(2).double())",
     error="RuntimeError")
case("error_linear_not_tensor", "import torch.nn.functional as F\nF.linear([1.0, 2.0], torch.ones(2, 2))",
     error="TypeError", message=first_sentence)
case("error_ce_float_target", SETUP + "F.cross_entropy(x, torch.tensor([0.0, 1.0, 2.0, 0.0]))",
     error="RuntimeError")
case("error_ce_bool_target", SETUP + "F.cross_entropy(x, torch.tensor([True, False, True, True]))",
     error="RuntimeError")
case("error_ce_long_probabilities", SETUP + "F.cross_entropy(x, torch.zeros(4, 3, dtype=torch.long))",
     error="RuntimeError")
case("error_ce_target_too_big", SETUP + "nn.CrossEntropyLoss()(x, torch.tensor([0, 1, 2, 3]))",
     error="IndexError")
case("error_ce_target_negative", SETUP + "nn.CrossEntropyLoss()(x, torch.tensor([0, 1, -1, 2]))",
     error="IndexError")
case("error_ce_batch_mismatch", SETUP + "F.cross_entropy(x, torch.tensor([0, 1, 2]))", error="ValueError")
case("error_ce_2d_target", SETUP + "F.cross_entropy(x, torch.tensor([[0, 1, 2, 1]]))", error="ValueError")
case("error_ce_1d_input_batch", SETUP + "F.cross_entropy(x[0], torch.tensor([1, 1]))", error="ValueError")
case("error_ce_reduction", SETUP + "F.cross_entropy(x, torch.tensor([0, 1, 2, 0]), reduction='avg')",
     error="ValueError")
case("error_ce_weight_shape", SETUP + "F.cross_entropy(x, torch.tensor([0, 1, 2, 0]), weight=torch.ones(2))",
     error="RuntimeError")
case("error_ce_weight_requires_grad",
     SETUP + "F.cross_entropy(x, torch.tensor([0, 1, 2, 0]), weight=torch.ones(3, requires_grad=True))",
     error="RuntimeError")
case("error_ce_long_input", SETUP + "F.cross_entropy(x.long(), torch.tensor([0, 1, 2, 0]))",
     error="NotImplementedError")
case("error_mse_reduction", SETUP + "nn.MSELoss(reduction='avg')(x, x)", error="ValueError")
case("error_mse_shapes", SETUP + "F.mse_loss(x, torch.ones(4, 2))", error="RuntimeError")
case("error_mse_long",
     "import torch.nn.functional as F\nF.mse_loss(torch.tensor([1, 2]), torch.tensor([1, 2]))",
     error="NotImplementedError")
case("error_softmax_dim", SETUP + "F.softmax(x, dim=2)", error="IndexError")
case("error_parameter_int", "torch.nn.Parameter(torch.tensor([1, 2]))", error="RuntimeError")
case("error_assign_tensor_to_parameter", "m = torch.nn.Linear(3, 2)\nm.weight = torch.zeros(2, 3)",
     error="TypeError")
case("error_missing_attribute", "torch.nn.Linear(3, 2).foo", error="AttributeError")
case("error_no_forward", "torch.nn.Module()(1)", error="NotImplementedError")
case("error_sequential_not_module", "torch.nn.Sequential(1)", error="TypeError")
case("error_sequential_index", "torch.nn.Sequential(torch.nn.ReLU())[3]", error="IndexError")
case("error_load_state_dict_missing",
     "s = torch.nn.Sequential(torch.nn.Linear(2, 3))\ns.load_state_dict({'0.weight': torch.zeros(3, 2)})",
     error="RuntimeError")
case("error_load_state_dict_unexpected", """
    s = torch.nn.Sequential(torch.nn.Linear(2, 3))
    sd = s.state_dict()
    sd["foo"] = torch.zeros(1)
    s.load_state_dict(sd)
""", error="RuntimeError")
case("error_load_state_dict_shape", """
    s = torch.nn.Sequential(torch.nn.Linear(2, 3))
    sd = s.state_dict()
    sd["0.weight"] = torch.zeros(3, 3)
    s.load_state_dict(sd)
""", error="RuntimeError")
case("error_load_state_dict_not_tensor", """
    s = torch.nn.Sequential(torch.nn.Linear(2, 3))
    sd = s.state_dict()
    sd["0.weight"] = 1.0
    s.load_state_dict(sd)
""", error="RuntimeError")


@pytest.mark.parametrize("code, error, message", CASES)
def test_same_as_pytorch(code, error, message):
    assert_same(code, error=error, message=message)


# ---------------------------------------------------------------------------
# gradients of the new Functions, against finite differences (float64)

def _rand(*shape, requires_grad=True, seed=0):
    rng = np.random.default_rng(seed + len(shape) * 7 + sum(shape))
    return mt.tensor(rng.standard_normal(shape), dtype=mt.float64, requires_grad=requires_grad)


def _second_order(func, inputs):
    """A function whose outputs are the first derivatives of ``sum(func * v)``: gradcheck it."""
    def first_derivatives(*xs):
        with mt.enable_grad():           # gradcheck evaluates its function under no_grad
            out = func(*xs)
            v = mt.tensor(np.linspace(-1, 1, out.numel()).reshape(out.shape), dtype=mt.float64)
            return mt.autograd.grad((out * v).sum(), xs, create_graph=True)
    return gradcheck(first_derivatives, inputs)


@pytest.mark.parametrize("shape", [(4, 3), (3,), (2, 2, 3)])
@pytest.mark.parametrize("bias", [True, False])
def test_linear_gradcheck(shape, bias):
    inputs = [_rand(*shape), _rand(2, 3), _rand(2)] if bias else [_rand(*shape), _rand(2, 3)]
    assert gradcheck(F.linear, inputs)
    assert _second_order(F.linear, inputs)


def test_addmm_saves_only_what_backward_needs():
    x = _rand(4, 3, requires_grad=False)
    lin = nn.Linear(3, 2, dtype=mt.float64)
    node = lin(x).grad_fn
    assert node.name() == "AddmmBackward0"
    assert node._saved_mat1 is x          # needed for the weight's gradient
    assert node._saved_mat2 is None       # the input needs no gradient, so weight.t() is not kept


@pytest.mark.parametrize("dim", [0, 1, -1])
@pytest.mark.parametrize("function", [F.softmax, F.log_softmax])
def test_softmax_gradcheck(function, dim):
    x = _rand(3, 4)
    assert gradcheck(lambda t: function(t, dim), [x])
    assert _second_order(lambda t: function(t, dim), [x])


@pytest.mark.parametrize("kwargs", [{}, {"reduction": "sum"}, {"reduction": "none"}, {"ignore_index": 2},
                                    {"weight": "w"}, {"weight": "w", "reduction": "sum"}])
def test_cross_entropy_gradcheck(kwargs):
    x = _rand(5, 4)
    target = mt.tensor([0, 3, 2, 1, 2])
    if kwargs.get("weight") == "w":
        kwargs = dict(kwargs, weight=mt.tensor([1.0, 0.5, 2.0, 1.5], dtype=mt.float64))
    assert gradcheck(lambda t: F.cross_entropy(t, target, **kwargs), [x])
    assert _second_order(lambda t: F.cross_entropy(t, target, **kwargs), [x])


def test_cross_entropy_single_sample_gradcheck():
    assert gradcheck(lambda t: F.cross_entropy(t, mt.tensor(2)), [_rand(4)])


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("target_shape", [(3, 4), (4,)])
def test_mse_gradcheck(reduction, target_shape):
    x, target = _rand(3, 4), _rand(*target_shape, seed=1)
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")       # the broadcasting warning
        assert gradcheck(lambda a, b: F.mse_loss(a, b, reduction=reduction), [x, target])
        assert _second_order(lambda a, b: F.mse_loss(a, b, reduction=reduction), [x, target])


def test_cross_entropy_is_stable_for_huge_scores():
    x = mt.tensor([[1e4, 0.0, -1e4], [0.0, 0.0, 0.0]], requires_grad=True)
    loss = F.cross_entropy(x, mt.tensor([1, 0]))
    loss.backward()
    assert math.isfinite(loss.item())
    assert np.isfinite(x.grad.numpy()).all()
    np.testing.assert_allclose(loss.item(), (1e4 + math.log(3)) / 2, rtol=1e-6)


def test_losses_free_the_graph_after_backward():
    lin = nn.Linear(3, 2)
    loss = F.cross_entropy(lin(mt.ones(4, 3)), mt.tensor([0, 1, 1, 0]))
    loss.backward()
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        loss.backward()


# ---------------------------------------------------------------------------
# Module machinery

class TwoLayer(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = nn.Linear(4, 8)
        self.out = nn.Linear(8, 2)

    def forward(self, x):
        return self.out(self.hidden(x).relu())


def test_registration_and_traversal():
    net = TwoLayer()
    assert list(net._modules) == ["hidden", "out"]
    assert [n for n, _ in net.named_parameters()] == ["hidden.weight", "hidden.bias",
                                                      "out.weight", "out.bias"]
    assert all(isinstance(p, nn.Parameter) and p.requires_grad and p.is_leaf for p in net.parameters())
    assert [n for n, _ in net.named_parameters(recurse=False)] == []
    assert list(net.children()) == [net.hidden, net.out]
    assert [n for n, _ in net.named_modules()] == ["", "hidden", "out"]
    net.scale = nn.Parameter(mt.ones(1))
    assert "scale" in net._parameters and net.scale is net._parameters["scale"]
    net.hidden = nn.Linear(4, 8)        # replacing a submodule keeps its place
    assert list(net._modules) == ["hidden", "out"]
    assert "hidden" in dir(net)


def test_assignments_before_init_are_errors():
    class Broken(nn.Module):
        def __init__(self):
            self.w = nn.Parameter(mt.ones(1))
    with pytest.raises(AttributeError, match=r"cannot assign parameters before Module.__init__\(\) call"):
        Broken()


def test_register_parameter_rejects_non_leaf():
    m = nn.Module()
    with pytest.raises(TypeError, match="cannot assign 'torch.FloatTensor' object to parameter 'w'"):
        m.register_parameter("w", mt.ones(2))
    with pytest.raises(KeyError, match="contain"):
        m.register_parameter("a.b", None)


def test_call_runs_forward_and_training_flag_propagates():
    net = TwoLayer()
    x = mt.ones(3, 4)
    assert net(x).shape == (3, 2)
    net.eval()
    assert not any(m.training for m in net.modules())
    net.train()
    assert all(m.training for m in net.modules())
    with pytest.raises(ValueError, match="training mode is expected to be boolean"):
        net.train("yes")


def test_zero_grad_modes():
    net = TwoLayer()
    net(mt.ones(3, 4)).sum().backward()
    grad = net.out.weight.grad
    net.zero_grad(set_to_none=False)
    assert net.out.weight.grad is grad and not grad.numpy().any()
    net.zero_grad()
    assert all(p.grad is None for p in net.parameters())


def test_state_dict_roundtrip_shares_nothing_after_load():
    a, b = TwoLayer(), TwoLayer()
    state = a.state_dict()
    assert list(state) == ["hidden.weight", "hidden.bias", "out.weight", "out.bias"]
    assert not state["out.bias"].requires_grad
    assert np.shares_memory(state["out.bias"].numpy(), a.out.bias.detach().numpy())   # detached, not copied
    version = b.out.weight._version
    assert repr(b.load_state_dict(state)) == "<All keys matched successfully>"
    assert b.out.weight._version == version + 1          # copied in place
    for (_, p), (_, q) in zip(a.named_parameters(), b.named_parameters(), strict=True):
        np.testing.assert_array_equal(p.detach().numpy(), q.detach().numpy())
        assert not np.shares_memory(p.detach().numpy(), q.detach().numpy())
    assert b.hidden.weight.is_leaf and b.hidden.weight.requires_grad


def test_linear_init_is_seeded_and_bounded():
    mt.manual_seed(3)
    a = nn.Linear(100, 50)
    mt.manual_seed(3)
    b = nn.Linear(100, 50)
    np.testing.assert_array_equal(a.weight.detach().numpy(), b.weight.detach().numpy())
    bound = 1 / math.sqrt(100)
    for p in (a.weight, a.bias):
        values = p.detach().numpy()
        assert values.dtype == np.float32
        assert np.abs(values).max() <= bound
        assert np.abs(values).max() > 0.9 * bound          # spread over the whole interval
    assert a.weight._version == 1 and a.bias._version == 1  # filled in place once, as in PyTorch
    assert nn.Linear(3, 2, dtype=mt.float64).weight.dtype is mt.float64


def test_parameter_shares_data_and_version_counter():
    t = mt.ones(3)
    p = nn.Parameter(t)
    assert np.shares_memory(p.detach().numpy(), t.numpy())
    with mt.no_grad():
        p.mul_(2)
    assert t._version == 1 and t.tolist() == [2.0, 2.0, 2.0]
    made = nn.Parameter(mt.ones(2, requires_grad=True) * 3)    # a fresh leaf, whatever the history
    assert made.is_leaf and made.grad_fn is None


def test_sequential_append_and_ordered_dict():
    import collections
    s = nn.Sequential(collections.OrderedDict([("fc", nn.Linear(2, 3)), ("act", nn.ReLU())]))
    s.append(nn.Linear(3, 1))
    assert list(s._modules) == ["fc", "act", "2"]
    assert s(mt.ones(5, 2)).shape == (5, 1)


def test_model_trains():
    """A tiny classifier learns XOR-like data: the pieces work together."""
    mt.manual_seed(0)
    x = mt.tensor([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
    y = mt.tensor([0, 1, 1, 0])
    model = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 2))
    opt = mt.optim.Adam(model.parameters(), lr=0.05)
    for _ in range(200):
        opt.zero_grad()
        loss = nn.CrossEntropyLoss()(model(x), y)
        loss.backward()
        opt.step()
    assert loss.item() < 0.05
    assert model(x).argmax(dim=1).tolist() == [0, 1, 1, 0]


def test_training_step_memory_returns_after_backward():
    """Once backward has run, the graph's saved activations are freed (not at the next step)."""
    import gc
    import tracemalloc
    numpy_domain = 389047          # numpy reports its array buffers to tracemalloc under this domain

    def numpy_bytes():
        snapshot = tracemalloc.take_snapshot().filter_traces([tracemalloc.DomainFilter(True, numpy_domain)])
        return sum(trace.size for trace in snapshot.traces)

    model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 10))
    optimizer = mt.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    x, y = mt.randn(256, 64), mt.randint(0, 10, (256,))
    tracemalloc.start()
    try:
        for _ in range(2):                      # .grad and momentum buffers exist from here on
            optimizer.zero_grad(set_to_none=False)
            nn.CrossEntropyLoss()(model(x), y).backward()
            optimizer.step()
        gc.collect()
        before = numpy_bytes()
        loss = nn.CrossEntropyLoss()(model(x), y)
        held = numpy_bytes() - before
        loss.backward()
        after_backward = numpy_bytes() - before
        optimizer.step()
        del loss
        assert gc.collect() == 0                # nothing was waiting for the cycle collector
        after_step = numpy_bytes() - before
    finally:
        tracemalloc.stop()
    assert held > 256 * 128 * 4                 # the forward pass keeps the hidden activations...
    assert after_backward <= 64                 # ...and backward frees them (the loss itself remains)
    assert after_step <= 64
