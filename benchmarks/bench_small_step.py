"""Benchmark 1c: a small training step where bookkeeping dominates, chapter 10's spiral classifier.

Benchmark 1's step spends most of its time in numpy's matrix products (256x784 @ 784x256); this one
is chapter 10's classifier on two spirals (``notebooks/src/10_training_loop.py``, section 5): 300
points in the plane, ``Linear(2, 32), Tanh, Linear(32, 32), Tanh, Linear(32, 2)``, cross-entropy,
full batch. Its arrays are at most 300x32, so numpy's arithmetic takes tens of microseconds and what
an engine spends per op (making tensors and nodes, running the backward pass) is most of the step.

The update is plain SGD with the chapter's SGD learning rate, 0.1 (the chapter trains with Adam, and
names ``SGD(lr=0.1, momentum=0.9)`` as the alternative; momentum is left out so that the update is
the same one line in every engine, as in benchmark 1). The step runs in:

- numpy, with the backward pass written by hand (the zero-overhead limit);
- mini_autograd and PyTorch (``zero_grad``, forward, ``backward``, ``step``);
- DeZero and HIPS autograd (``_peers.py``), when installed.

All start from the same weights (mini_autograd's ``manual_seed(0)``, as the chapter's
``torch.manual_seed(0)``) and must compute the same first loss. No target: the figures place
mini_autograd among the engines (run_all.py's table of the peers).

    python benchmarks/bench_small_step.py [--threads 1] [--quick]
"""
import _common

ARGS = _common.parse_args(__doc__)      # before numpy: it fixes the BLAS thread count

import numpy as np                        # noqa: E402

import _peers                             # noqa: E402
import mini_autograd as mt                # noqa: E402
from _mlp import torch_training_step, training_step  # noqa: E402
from buildtrack.ch10 import two_spirals  # noqa: E402  (chapter 10's data; the chapter is a notebook)

SIZES = (2, 32, 32, 2)
LR = 0.1


def layers(nn, sizes):
    """``Linear, Tanh, ..., Linear`` in mini_autograd's or PyTorch's ``nn``."""
    modules = []
    for index, (n_in, n_out) in enumerate(zip(sizes[:-1], sizes[1:], strict=True)):
        if index:
            modules.append(nn.Tanh())
        modules.append(nn.Linear(n_in, n_out))
    return nn.Sequential(*modules)


class NumpyTanhMLP:
    """The same MLP (any number of layers, tanh between them) and SGD step, backward written by hand."""

    def __init__(self, weights):
        self.params = [np.array(w, dtype=np.float32) for w in weights]

    def step(self, x, y, lr):
        params, n_layers, n = self.params, len(self.params) // 2, len(y)
        inputs = []                                       # each layer's input
        h = x
        for layer in range(n_layers):
            if layer:
                h = np.tanh(h)
            inputs.append(h)
            h = h @ params[2 * layer].T
            h += params[2 * layer + 1]
        shifted = h - h.max(axis=1, keepdims=True)
        log_probs = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
        rows = np.arange(n)
        loss = -log_probs[rows, y].mean()
        d = np.exp(log_probs)                             # softmax
        d[rows, y] -= 1
        d /= n
        grads = [None] * len(params)
        for layer in reversed(range(n_layers)):
            a = inputs[layer]
            grads[2 * layer] = d.T @ a
            grads[2 * layer + 1] = d.sum(axis=0)
            if layer:
                d = d @ params[2 * layer]
                d *= 1 - a * a
        for param, grad in zip(params, grads, strict=True):
            param -= lr * grad
        return float(loss)


def make_steps(n_per_class, torch, peers):
    """The step in every implementation, from the same weights and data (each returns its loss)."""
    x_np, y_np = two_spirals(n_per_class)
    mt.manual_seed(0)
    model = layers(mt.nn, SIZES)
    weights = [p.detach().numpy().copy() for p in model.parameters()]
    optimizer = mt.optim.SGD(model.parameters(), lr=LR)
    loss_fn = mt.nn.CrossEntropyLoss()
    x, y = mt.tensor(x_np), mt.tensor(y_np)

    numpy_model = NumpyTanhMLP(weights)
    steps = {"mini_autograd": training_step(model, loss_fn, optimizer, x, y),
             "numpy": lambda: numpy_model.step(x_np, y_np, LR)}
    if torch is not None:
        steps["torch"] = torch_training_step(torch, layers(torch.nn, SIZES), weights, x_np, y_np, LR)
    steps.update(_peers.mlp_steps(peers, weights, x_np, y_np, "tanh", LR))
    return steps


def run(args):
    torch = _common.load_torch(args.threads)
    n_per_class, rounds = (20, 5) if args.quick else (150, 500)
    steps = make_steps(n_per_class, torch, _peers.load_all())
    # The first two losses agree (the second checks each engine's gradients, through the first update).
    first_losses = [{name: step() for name, step in steps.items()} for _ in range(2)]
    for losses in first_losses:
        assert all(abs(v - losses["numpy"]) < 1e-4 * max(1.0, abs(losses["numpy"]))
                   for v in losses.values()), losses
    timings = _common.alternate(steps, rounds=rounds, warmup=10)
    wall, cpu = timings.wall, timings.cpu
    return {
        "points": 2 * n_per_class, "sizes": SIZES, "lr": LR, "rounds": rounds, "threads": args.threads,
        "first_loss": first_losses[0]["numpy"],
        "median_ms": {name: _common.median(t) * 1e3 for name, t in wall.items()},
        "iqr": {name: _common.spread(t) for name, t in wall.items()},
        "ratio_vs_numpy": {name: _common.paired_ratio(wall, name, "numpy") for name in wall},
        "cpu_median_ms": {name: _common.median(t) * 1e3 for name, t in cpu.items()},
        "cpu_iqr": {name: _common.spread(t) for name, t in cpu.items()},
        "cpu_ratio_vs_numpy": {name: _common.paired_ratio(cpu, name, "numpy") for name in cpu},
    }


def report(results):
    rows = [(_peers.NAMES.get(name, name), f"{ms:.3f}", f"{results['ratio_vs_numpy'][name]:.2f}",
             f"{results['iqr'][name]:.0%}", f"{results['cpu_median_ms'][name]:.3f}",
             f"{results['cpu_ratio_vs_numpy'][name]:.2f}", f"{results['cpu_iqr'][name]:.0%}")
            for name, ms in results["median_ms"].items()]
    sizes = list(map(str, results["sizes"]))
    layers_ = f"{sizes[0]} -> " + " -> Tanh -> ".join(sizes[1:])
    return (f"Spiral step (chapter 10): {results['points']} points, {layers_}, cross-entropy, SGD lr "
            f"{results['lr']}, {results['rounds']} alternating rounds, {results['threads']} thread(s); "
            f"first loss {results['first_loss']:.4f} in every implementation\n\n"
            + _common.table(["implementation", "median ms/step", "x numpy (median of paired ratios)",
                             "IQR/median", "CPU ms/step", "CPU x numpy", "CPU IQR/median"], rows))


if __name__ == "__main__":
    results = run(ARGS)
    _common.finish(ARGS, results, report(results))
