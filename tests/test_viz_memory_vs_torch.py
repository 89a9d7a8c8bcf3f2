"""viz.record_memory's saved bytes against PyTorch 2.13 (skipped without torch).

For the same network, with the same weights and inputs, node by node: the tensors each node of
mini_autograd's graph keeps in its ``_saved`` slots have the sizes of the tensors PyTorch's node exposes as
``grad_fn._saved_*``; and the peak of the memory curve is what PyTorch's ``saved_tensors_hooks`` pack hook
receives, each storage counted once, the parameters and the input batch left out (chapter 07, section 4,
counts the same way). One difference is known and checked as such: ``NllLossBackward0`` keeps the targets
and the total weight as plain attributes in mini_autograd (``_saved_target``, ``_saved_total_weight``), not
in ``_saved`` (chapter 07 says so): PyTorch's total has those 4 bytes of total weight more.
"""
from collections import deque

import numpy as np
import pytest

import mini_autograd
from mini_autograd import viz
from mini_autograd.viz.memory import saved_arrays

torch = pytest.importorskip("torch")


def bfs(root):
    seen, order, queue = set(), [], deque([root])
    while queue:
        node = queue.popleft()
        if node is None or node in seen:
            continue
        seen.add(node)
        order.append(node)
        queue.extend(next_node for next_node, _nr in node.next_functions)
    return order


def torch_saved(node):
    """{name: tensor} of what a PyTorch node saved (``_saved_*`` attributes holding tensors)."""
    found = {}
    for name in dir(node):
        if name.startswith("_saved_") and not name.endswith("_sym_sizes"):
            value = getattr(node, name)
            if isinstance(value, torch.Tensor):
                found[name[len("_saved_"):]] = value
    return found


def networks(lib, depth, loss_kind):
    """The same tanh MLP (64 inputs, ``depth`` hidden layers of 128, 10 outputs) in ``lib``, from the same
    numbers; returns (a function computing the loss, the parameters, the input batch)."""
    rng = np.random.default_rng(0)
    sizes = [64] + [128] * depth + [10]
    layers = []
    for fan_in, fan_out in zip(sizes, sizes[1:], strict=False):
        linear = lib.nn.Linear(fan_in, fan_out)
        with lib.no_grad():
            linear.weight.copy_(lib.tensor(rng.standard_normal((fan_out, fan_in), dtype=np.float32) * 0.1))
            linear.bias.copy_(lib.tensor(rng.standard_normal(fan_out, dtype=np.float32) * 0.1))
        layers += [linear, lib.nn.Tanh()]
    model = lib.nn.Sequential(*layers[:-1])
    x = lib.tensor(rng.standard_normal((32, 64), dtype=np.float32))
    targets = lib.tensor(rng.integers(0, 10, 32))
    target_values = lib.tensor(rng.standard_normal((32, 10), dtype=np.float32))
    if loss_kind == "cross_entropy":
        def loss():
            return lib.nn.functional.cross_entropy(model(x), targets)
    else:
        def loss():
            return ((model(x) - target_values) ** 2).mean()
    return loss, list(model.parameters()), x, targets


def torch_total_saved(loss, skip_tensors):
    """Bytes PyTorch's pack hook receives, each storage once, ``skip_tensors``' storages left out."""
    storages = {}

    def pack(t):
        storages[t.untyped_storage().data_ptr()] = t.untyped_storage().nbytes()
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        out = loss()
    skip = {t.untyped_storage().data_ptr() for t in skip_tensors}
    return sum(n for ptr, n in storages.items() if ptr not in skip), out


@pytest.mark.parametrize("loss_kind", ["mse", "cross_entropy"])
@pytest.mark.parametrize("depth", [1, 3])
def test_saved_bytes_per_node_are_pytorchs(depth, loss_kind):
    mini_loss, _, _, _ = networks(mini_autograd, depth, loss_kind)
    torch_loss, _, _, _ = networks(torch, depth, loss_kind)
    mine, theirs = bfs(mini_loss().grad_fn), bfs(torch_loss().grad_fn)
    assert [n.name() for n in mine] == [n.name() for n in theirs]
    for ours, pytorchs in zip(mine, theirs, strict=True):
        saved = torch_saved(pytorchs)
        if ours.name() == "NllLossBackward0":          # kept outside _saved by mini_autograd (see above)
            assert sorted(saved) == ["self", "target", "total_weight"]
            assert saved["total_weight"].nbytes == 4
            saved = {"self": saved["self"]}
        mini_sizes = sorted(array.nbytes for array in saved_arrays(ours))
        torch_sizes = sorted(t.nbytes for t in saved.values())
        assert mini_sizes == torch_sizes, ours.name()


@pytest.mark.parametrize("loss_kind", ["mse", "cross_entropy"])
@pytest.mark.parametrize("depth", [1, 3])
def test_the_curves_peak_is_pytorchs_total_saved_bytes(depth, loss_kind):
    mini_loss, mini_params, mini_x, _ = networks(mini_autograd, depth, loss_kind)
    torch_loss, torch_params, torch_x, torch_targets = networks(torch, depth, loss_kind)
    curve = viz.record_memory(mini_loss, "training", exclude=[*mini_params, mini_x])
    total, out = torch_total_saved(torch_loss, [*torch_params, torch_x, torch_targets])
    known = 4 if loss_kind == "cross_entropy" else 0   # NllLossBackward0's total weight (see above)
    assert curve.peak_saved == curve.saved[curve.backward_start] == total - known
    # depth tanh results (each also the next layer's mat1), and the 32 x 10 log-probabilities (or difference)
    assert curve.peak_saved == depth * 32 * 128 * 4 + 32 * 10 * 4
    out.backward()
    assert curve.saved[-1] == 0 and curve.buffered[-1] == 0


def test_the_chapters_network_vs_torch():
    """Chapter 07's numbers: the training peak of its deep network (17 activations of 128 x 128 float32
    and the 128 x 10 log-probabilities) is PyTorch's total, less NllLoss's total weight."""
    results = {}
    for lib in (mini_autograd, torch):
        lib.manual_seed(0)
        stem = lib.nn.Sequential(lib.nn.Linear(64, 128), lib.nn.Tanh())
        segments = [lib.nn.Sequential(*[m for _ in range(4)
                                        for m in (lib.nn.Linear(128, 128), lib.nn.Tanh())])
                    for _ in range(4)]
        head = lib.nn.Linear(128, 10)
        parameters = [*stem.parameters(), *[p for s in segments for p in s.parameters()], *head.parameters()]
        x = lib.randn(128, 64)
        targets = lib.randint(0, 10, (128,))

        def loss(lib=lib, stem=stem, segments=segments, head=head, x=x, targets=targets):
            h = stem(x)
            for segment in segments:
                h = segment(h)
            return lib.nn.functional.cross_entropy(head(h), targets)

        if lib is torch:
            results["torch"], _ = torch_total_saved(loss, [*parameters, x, targets])
        else:
            results["mini"] = viz.record_memory(loss, "training", exclude=[*parameters, x]).peak_saved
    assert results["mini"] == 17 * 128 * 128 * 4 + 128 * 10 * 4 == 1_119_232
    assert results["torch"] == results["mini"] + 4
