"""mini_autograd.optim: SGD and Adam against PyTorch, and the Optimizer machinery.

The headline check: a small MLP starting from the same weights, fed the same
batches, gives the same losses and parameters as PyTorch after 20 steps of SGD
with momentum and of Adam, to float32 tolerance.
"""
import copy as copy_module
import textwrap

import numpy as np
import pytest

import mini_autograd as mt
from mini_autograd import nn

try:
    from crosscheck import assert_same, full
except ImportError:  # tests/ made a package
    from tests.crosscheck import assert_same, full

# float32 arithmetic done in a different order (numpy vs ATen kernels) differs
# in the last places; after 20 steps the parameters agree to about 1e-7.
RTOL, ATOL = 1e-5, 1e-6


# ---------------------------------------------------------------------------
# training side by side with PyTorch

def _mlp(lib, sizes=(6, 16, 8, 3)):
    layers = []
    for i, (fan_in, fan_out) in enumerate(zip(sizes[:-1], sizes[1:], strict=True)):
        if i:
            layers.append(lib.nn.ReLU())
        layers.append(lib.nn.Linear(fan_in, fan_out))
    return lib.nn.Sequential(*layers)


def _batches(steps=20, batch=32, features=6, classes=3, seed=0):
    """Random inputs; each label is the argmax of a fixed linear map, so there is something to learn."""
    rng = np.random.default_rng(seed)
    teacher = rng.standard_normal((features, classes))
    batches = []
    for _ in range(steps):
        x = rng.standard_normal((batch, features)).astype(np.float32)
        batches.append((x, (x @ teacher).argmax(axis=1).astype(np.int64)))
    return batches


def _train_both(make_optimizer, loss_name="cross_entropy", steps=20):
    """Train the same MLP in both libraries; return both loss curves and final parameters."""
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    reference = _mlp(torch)
    model = _mlp(mt)
    model.load_state_dict({k: mt.tensor(v.numpy()) for k, v in reference.state_dict().items()})

    results = []
    for lib, net in ((torch, reference), (mt, model)):
        optimizer = make_optimizer(lib, net.parameters())
        losses = []
        for x, y in _batches(steps):
            optimizer.zero_grad()
            out = net(lib.tensor(x))
            if loss_name == "cross_entropy":
                loss = lib.nn.functional.cross_entropy(out, lib.tensor(y))
            else:
                target = np.eye(3, dtype=np.float32)[y]
                loss = lib.nn.functional.mse_loss(out, lib.tensor(target))
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
        params = {name: p.detach().numpy().copy() for name, p in net.named_parameters()}
        results.append((losses, params, optimizer))
    return results


def _assert_same_training(results):
    (torch_losses, torch_params, _), (mini_losses, mini_params, _) = results
    np.testing.assert_allclose(mini_losses, torch_losses, rtol=RTOL, atol=ATOL)
    assert list(mini_params) == list(torch_params)
    for name in torch_params:
        np.testing.assert_allclose(mini_params[name], torch_params[name], rtol=RTOL, atol=ATOL, err_msg=name)
    assert torch_losses[-1] < 0.9 * torch_losses[0]      # it did learn something


def test_sgd_momentum_20_steps_matches_pytorch():
    results = _train_both(lambda lib, params: lib.optim.SGD(params, lr=0.1, momentum=0.9))
    _assert_same_training(results)


def test_adam_20_steps_matches_pytorch():
    results = _train_both(lambda lib, params: lib.optim.Adam(params, lr=0.01))
    _assert_same_training(results)


SGD_VARIANTS = [
    dict(lr=0.05),
    dict(lr=0.05, momentum=0.8, dampening=0.3),
    dict(lr=0.05, momentum=0.9, nesterov=True),
    dict(lr=0.05, momentum=0.9, weight_decay=0.01),
    dict(lr=0.05, maximize=True),
]
ADAM_VARIANTS = [
    dict(),
    dict(lr=0.02, betas=(0.8, 0.99), eps=1e-6),
    dict(lr=0.01, weight_decay=0.1),
    dict(lr=0.01, weight_decay=0.1, decoupled_weight_decay=True),
    dict(lr=0.01, amsgrad=True),
    dict(lr=0.01, maximize=True),
]


@pytest.mark.parametrize("kwargs", SGD_VARIANTS, ids=str)
def test_sgd_variants_match_pytorch(kwargs):
    results = _train_both(lambda lib, params: lib.optim.SGD(params, **kwargs), "mse", steps=8)
    (torch_losses, torch_params, _), (mini_losses, mini_params, _) = results
    np.testing.assert_allclose(mini_losses, torch_losses, rtol=RTOL, atol=ATOL)
    for name in torch_params:
        np.testing.assert_allclose(mini_params[name], torch_params[name], rtol=RTOL, atol=ATOL)


@pytest.mark.parametrize("kwargs", ADAM_VARIANTS, ids=str)
def test_adam_variants_match_pytorch(kwargs):
    results = _train_both(lambda lib, params: lib.optim.Adam(params, **kwargs), "mse", steps=8)
    (torch_losses, torch_params, torch_opt), (mini_losses, mini_params, mini_opt) = results
    np.testing.assert_allclose(mini_losses, torch_losses, rtol=RTOL, atol=ATOL)
    for name in torch_params:
        np.testing.assert_allclose(mini_params[name], torch_params[name], rtol=RTOL, atol=ATOL)
    torch_state, mini_state = torch_opt.state_dict(), mini_opt.state_dict()
    assert torch_state["param_groups"] == mini_state["param_groups"]
    assert list(torch_state["state"]) == list(mini_state["state"])
    for index, values in torch_state["state"].items():
        assert list(values) == list(mini_state["state"][index])
        for key, value in values.items():
            np.testing.assert_allclose(mini_state["state"][index][key].numpy(), value.numpy(),
                                       rtol=RTOL, atol=ATOL)


@pytest.mark.parametrize("make", [
    lambda lib, p: lib.optim.SGD(p, lr=0.1),
    lambda lib, p: lib.optim.SGD(p, lr=0.1, momentum=0.9, weight_decay=0.1),
    lambda lib, p: lib.optim.Adam(p),
    lambda lib, p: lib.optim.Adam(p, amsgrad=True, weight_decay=0.1),
], ids=["sgd", "sgd_momentum", "adam", "adam_amsgrad"])
def test_step_bumps_versions_as_pytorch(make):
    """step() changes parameters (and state tensors) in place: the version counters say how often."""
    torch = pytest.importorskip("torch")
    versions = []
    for lib in (torch, mt):
        lin = lib.nn.Linear(3, 2)
        optimizer = make(lib, lin.parameters())
        seen = []
        for _ in range(2):
            before = lin.weight._version
            optimizer.zero_grad()
            lin(lib.ones(2, 3)).sum().backward()
            optimizer.step()
            seen.append((lin.weight._version - before,
                         [(k, getattr(v, "_version", None)) for k, v in optimizer.state[lin.weight].items()]))
        versions.append(seen)
    assert versions[0] == versions[1]


# ---------------------------------------------------------------------------
# printing, state_dict and errors, against PyTorch

CASES = []


def case(id, code, error=None, message=full):
    CASES.append(pytest.param("import torch\n" + textwrap.dedent(code), error, message, id=id))


SETUP = """
    lin = torch.nn.Linear(3, 2)
    with torch.no_grad():
        lin.weight.copy_(torch.tensor([[0.1, -0.2, 0.3], [0.4, 0.5, -0.6]]))
        lin.bias.copy_(torch.tensor([0.05, -0.05]))
    x = torch.tensor([[1.0, 2.0, 3.0], [-1.0, 0.5, 0.0]])
    def train(opt, steps=2):
        for _ in range(steps):
            opt.zero_grad()
            torch.nn.functional.mse_loss(lin(x), torch.ones(2, 2)).backward()
            opt.step()
"""

case("repr_sgd_adam", SETUP + """
    print(torch.optim.SGD(lin.parameters(), lr=0.1, momentum=0.9))
    print(torch.optim.Adam(lin.parameters()))
    print(torch.optim.SGD([{"params": [lin.weight]}, {"params": [lin.bias], "lr": 0.5}], lr=0.1))
""")
# Values go through record() (a float tolerance): printed to 4 decimals, a
# last-place difference in float32 can flip the rounding.
SHOW_STATE = """
    state = opt.state_dict()
    print(state["param_groups"])
    print({index: list(values) for index, values in state["state"].items()})
    for index, values in state["state"].items():
        for key, value in values.items():
            record(f"{index}.{key}", value)
    record("weight", lin.weight)
    record("bias", lin.bias)
"""
case("state_dict_sgd", SETUP + """
    opt = torch.optim.SGD(lin.parameters(), lr=0.1, momentum=0.9)
    print(opt.state_dict())
    train(opt)
""" + SHOW_STATE + """
    print(opt.param_groups[0]["params"][1] is lin.bias)
    print(opt.defaults)
""")
case("state_dict_adam", SETUP + """
    opt = torch.optim.Adam(lin.parameters(), lr=0.1)
    train(opt)
""" + SHOW_STATE + """
    print(opt.state_dict()["state"][0]["step"])
""")
case("zero_grad_modes", SETUP + """
    opt = torch.optim.SGD(lin.parameters(), lr=0.1)
    train(opt, 1)
    print(lin.weight.grad)
    opt.zero_grad(set_to_none=False)
    print(lin.weight.grad, lin.bias.grad)
    opt.zero_grad()
    print(lin.weight.grad)
""")
case("step_skips_params_without_grad_and_records_nothing", SETUP + """
    opt = torch.optim.SGD(lin.parameters(), lr=0.1, momentum=0.5)
    lin.bias.requires_grad_(False)
    train(opt, 1)
    print(lin.bias, lin.bias.grad, len(opt.state))
    print(lin.weight.grad_fn, lin.weight.is_leaf, lin.weight.requires_grad)
""")
case("closure", SETUP + """
    opt = torch.optim.SGD(lin.parameters(), lr=0.1)
    def closure():
        opt.zero_grad()
        loss = torch.nn.functional.mse_loss(lin(x), torch.ones(2, 2))
        loss.backward()
        return loss
    with torch.no_grad():
        print(opt.step(closure))
    print(opt.step(closure))
""")

case("error_empty_params", "torch.optim.SGD([], lr=0.1)", error="ValueError")
case("error_empty_params_adam", "torch.optim.Adam([])", error="ValueError")
case("error_empty_generator", "torch.optim.SGD(torch.nn.ReLU().parameters(), lr=0.1)", error="ValueError")
case("error_negative_lr", "torch.optim.SGD(torch.nn.Linear(2, 2).parameters(), lr=-0.1)", error="ValueError")
case("error_negative_lr_adam", "torch.optim.Adam(torch.nn.Linear(2, 2).parameters(), lr=-0.1)",
     error="ValueError")
case("error_negative_momentum", "torch.optim.SGD(torch.nn.Linear(2, 2).parameters(), lr=0.1, momentum=-1)",
     error="ValueError")
case("error_negative_weight_decay", "torch.optim.SGD(torch.nn.Linear(2, 2).parameters(), weight_decay=-1)",
     error="ValueError")
case("error_nesterov", "torch.optim.SGD(torch.nn.Linear(2, 2).parameters(), lr=0.1, nesterov=True)",
     error="ValueError")
case("error_adam_eps", "torch.optim.Adam(torch.nn.Linear(2, 2).parameters(), eps=-1e-3)", error="ValueError")
case("error_adam_beta0", "torch.optim.Adam(torch.nn.Linear(2, 2).parameters(), betas=(1.0, 0.9))",
     error="ValueError")
case("error_adam_beta1", "torch.optim.Adam(torch.nn.Linear(2, 2).parameters(), betas=(0.9, -0.9))",
     error="ValueError")
case("error_adam_weight_decay", "torch.optim.Adam(torch.nn.Linear(2, 2).parameters(), weight_decay=-1.0)",
     error="ValueError")
case("error_params_is_a_tensor", "torch.optim.SGD(torch.ones(3, requires_grad=True), lr=0.1)",
     error="TypeError")
case("error_params_not_tensors", "torch.optim.SGD([1.0], lr=0.1)", error="TypeError")
case("error_non_leaf", "torch.optim.SGD([torch.ones(3, requires_grad=True) * 2], lr=0.1)", error="ValueError")
case("error_unknown_option", "torch.optim.SGD(torch.nn.Linear(2, 2).parameters(), lr=0.1, foo=1)",
     error="TypeError")
case("error_param_set", """
    opt = torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=0.1)
    opt.add_param_group({"params": {torch.ones(1, requires_grad=True)}})
""", error="TypeError")
case("warn_duplicate_params", """
    p = torch.ones(2, requires_grad=True)
    print(len(torch.optim.SGD([p, p], lr=0.1).param_groups[0]["params"]))
""")


@pytest.mark.parametrize("code, error, message", CASES)
def test_same_as_pytorch(code, error, message):
    assert_same(code, error=error, message=message)


# ---------------------------------------------------------------------------
# the machinery on its own

def test_step_runs_without_recording_even_with_grad_enabled():
    lin = nn.Linear(3, 2)
    opt = mt.optim.Adam(lin.parameters())
    lin(mt.ones(4, 3)).sum().backward()
    assert mt.is_grad_enabled()
    opt.step()
    assert mt.is_grad_enabled()
    assert all(p.is_leaf and p.grad_fn is None for p in lin.parameters())
    assert all(not v.requires_grad for s in opt.state.values() for v in s.values())


def test_sgd_formula_by_hand():
    p = nn.Parameter(mt.tensor([1.0, -2.0]))
    opt = mt.optim.SGD([p], lr=0.5, momentum=0.9, weight_decay=0.1)
    p.grad = mt.tensor([0.2, 0.4])
    opt.step()                      # g = grad + 0.1 p = [0.3, 0.2]; buf = g; p -= 0.5 buf
    np.testing.assert_allclose(p.detach().numpy(), [0.85, -2.1], rtol=1e-6)
    opt.step()                      # g = [0.285, 0.19]; buf = 0.9 [0.3, 0.2] + g
    np.testing.assert_allclose(p.detach().numpy(), [0.85 - 0.5 * 0.555, -2.1 - 0.5 * 0.37], rtol=1e-6)


def test_param_groups_have_their_own_settings():
    a, b = nn.Parameter(mt.ones(2)), nn.Parameter(mt.ones(2))
    opt = mt.optim.SGD([{"params": [a]}, {"params": b, "lr": 1.0}], lr=0.1)
    assert [g["lr"] for g in opt.param_groups] == [0.1, 1.0]
    a.grad, b.grad = mt.ones(2), mt.ones(2)
    opt.step()
    assert a.tolist() == pytest.approx([0.9, 0.9]) and b.tolist() == [0.0, 0.0]
    with pytest.raises(ValueError, match="some parameters appear in more than one parameter group"):
        opt.add_param_group({"params": [a]})


def test_load_state_dict_restores_training():
    mt.manual_seed(0)
    model = nn.Linear(3, 2)
    opt = mt.optim.Adam(model.parameters(), lr=0.1)
    x = mt.ones(4, 3)
    for _ in range(3):
        opt.zero_grad()
        model(x).pow(2).sum().backward()
        opt.step()
    copy = nn.Linear(3, 2)
    copy.load_state_dict(model.state_dict())
    copy_opt = mt.optim.Adam(copy.parameters(), lr=0.5)
    copy_opt.load_state_dict(copy_module.deepcopy(opt.state_dict()))    # as torch.save and load give it
    assert copy_opt.param_groups[0]["lr"] == 0.1
    for m, o in ((model, opt), (copy, copy_opt)):
        o.zero_grad()
        m(x).pow(2).sum().backward()
        o.step()
    np.testing.assert_allclose(copy.weight.detach().numpy(), model.weight.detach().numpy(), rtol=1e-6)
    assert opt.state[model.weight]["exp_avg"] is not copy_opt.state[copy.weight]["exp_avg"]
    # Loaded straight from another optimizer, the state tensors are shared, as in PyTorch (no copy).
    copy_opt.load_state_dict(opt.state_dict())
    assert opt.state[model.weight]["exp_avg"] is copy_opt.state[copy.weight]["exp_avg"]


def test_unsupported_modes_say_so():
    params = list(nn.Linear(2, 2).parameters())
    with pytest.raises(NotImplementedError, match="fused"):
        mt.optim.SGD(params, fused=True)
    with pytest.raises(NotImplementedError, match="differentiable"):
        mt.optim.Adam(params, differentiable=True)
