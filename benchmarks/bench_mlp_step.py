"""Benchmark 1: one training step of an MLP, mini_autograd vs hand-written numpy vs PyTorch (and the peers).

The step: batch 256, 784 -> 256 -> ReLU -> 10, cross-entropy, plain SGD
(``zero_grad``, forward, ``backward``, ``step``); then the same with Tanh in
place of ReLU, where a big tensor goes through an elementwise function. The numpy version computes
the same numbers with gradients written by hand: the zero-overhead limit for
an engine that does its arithmetic with numpy. PyTorch runs the same step with
the same number of threads as numpy's BLAS. DeZero and HIPS autograd, two other
autograd engines written in Python on numpy (``_peers.py``), run the same step
when they are installed (``pip install -e '.[bench]'``); their columns are left
out when they are not.

Target: mini_autograd's step takes at most 1.15x the numpy step.

    python benchmarks/bench_mlp_step.py [--threads 1] [--quick]
"""
import _common

ARGS = _common.parse_args(__doc__)      # before numpy: it fixes the BLAS thread count

import _peers                             # noqa: E402
import mini_autograd as mt                # noqa: E402
from _mlp import ACTIVATIONS, NumpyMLP, make_batch, mini_model, torch_training_step, training_step  # noqa: E402

TARGET = 1.15


FLOAT32_FUNCTIONS = "mini_autograd, numpy's float32 tanh"


def mini_step_function(model, x, y, float32_functions=False):
    """One SGD step of ``model``; with ``float32_functions``, tanh is numpy's float32 one, not rounded
    from float64 (ops/_helpers.py: ROUND_FROM_FLOAT64), to measure what the rounding costs."""
    step = training_step(model, mt.nn.CrossEntropyLoss(), mt.optim.SGD(model.parameters(), lr=0.01), x, y)

    def mini_step():
        mt.ops._helpers.ROUND_FROM_FLOAT64 = not float32_functions
        try:
            return step()
        finally:
            mt.ops._helpers.ROUND_FROM_FLOAT64 = True

    return mini_step


def make_models(batch_size, sizes, torch, activation="relu", peers=None):
    """Copies of one MLP (same initial weights) and their step functions (each returns the loss)."""
    mt.manual_seed(0)
    model = mini_model(sizes, activation)
    x_np, y_np = make_batch(batch_size, sizes)
    x, y = mt.tensor(x_np), mt.tensor(y_np)
    weights = [p.detach().numpy().copy() for p in model.parameters()]
    numpy_model = NumpyMLP(*weights, activation)
    steps = {"mini_autograd": mini_step_function(model, x, y),
             "numpy": lambda: float(numpy_model.step(x_np, y_np, 0.01))}
    if activation == "tanh":
        twin = mini_model(sizes, activation)
        twin.load_state_dict(model.state_dict())
        steps[FLOAT32_FUNCTIONS] = mini_step_function(twin, x, y, float32_functions=True)

    if torch is not None:
        t_model = torch.nn.Sequential(torch.nn.Linear(sizes[0], sizes[1]),
                                      getattr(torch.nn, ACTIVATIONS[activation])(),
                                      torch.nn.Linear(sizes[1], sizes[2]))
        steps["torch"] = torch_training_step(torch, t_model, weights, x_np, y_np, 0.01)
    steps.update(_peers.mlp_steps(peers or {}, weights, x_np, y_np, activation, 0.01))
    return steps


def run(args):
    torch = _common.load_torch(args.threads)
    peers = _peers.load_all()
    return {activation: run_one(args, torch, activation, peers) for activation in ACTIVATIONS}


def run_one(args, torch, activation, peers):
    batch, sizes, rounds = (8, (20, 16, 4), 5) if args.quick else (256, (784, 256, 10), 300)
    steps = make_models(batch, sizes, torch, activation, peers)
    # The first steps agree: the implementations compute the same thing. The peers too, to the same
    # tolerance, and on the second step as well, which checks their gradients through the first update
    # (DeZero's backward runs in float64, see _peers.dezero_mlp_step: its second loss differs from the
    # others' in the 7th digit, well within it).
    for _ in range(2):
        losses = {name: step() for name, step in steps.items()}
        assert all(abs(v - losses["numpy"]) < 1e-4 * max(1.0, abs(losses["numpy"]))
                   for v in losses.values()), losses
    timings = _common.alternate(steps, rounds=rounds, warmup=3)
    wall, cpu = timings.wall, timings.cpu
    return {
        "activation": activation, "batch": batch, "sizes": sizes, "rounds": rounds, "threads": args.threads,
        "median_ms": {name: _common.median(t) * 1e3 for name, t in wall.items()},
        "iqr": {name: _common.spread(t) for name, t in wall.items()},
        "cpu_iqr": {name: _common.spread(t) for name, t in cpu.items()},
        "ratio_vs_numpy": {name: _common.paired_ratio(wall, name, "numpy") for name in wall},
        "cpu_median_ms": {name: _common.median(t) * 1e3 for name, t in cpu.items()},
        "cpu_ratio_vs_numpy": {name: _common.paired_ratio(cpu, name, "numpy") for name in cpu},
        # the float32-tanh twin's CPU ratio (Tanh only), under a name of its own for run_all.py
        "float32_functions_cpu_ratio": (_common.paired_ratio(cpu, FLOAT32_FUNCTIONS, "numpy")
                                        if FLOAT32_FUNCTIONS in cpu else None),
        "target": TARGET,
    }


def report(all_results):
    return "\n\n".join(report_one(results) for results in all_results.values())


def report_one(results):
    rows = [(_peers.NAMES.get(name, name), f"{ms:.2f}", f"{results['ratio_vs_numpy'][name]:.3f}",
             f"{results['iqr'][name]:.0%}", f"{results['cpu_median_ms'][name]:.2f}",
             f"{results['cpu_ratio_vs_numpy'][name]:.3f}", f"{results['cpu_iqr'][name]:.0%}")
            for name, ms in results["median_ms"].items()]
    ratio = results["ratio_vs_numpy"]["mini_autograd"]
    cpu_ratio = results["cpu_ratio_vs_numpy"]["mini_autograd"]
    verdict = "met" if cpu_ratio <= TARGET else "MISSED"
    sizes = list(map(str, results["sizes"]))
    layers = " -> ".join(sizes[:2] + [ACTIVATIONS[results["activation"]]] + sizes[2:])
    return (f"MLP training step, batch {results['batch']}, {layers}, "
            f"{results['rounds']} alternating rounds, {results['threads']} thread(s)\n\n"
            + _common.table(["implementation", "median ms/step", "x numpy (median of paired ratios)",
                             "IQR/median", "CPU ms/step", "CPU x numpy", "CPU IQR/median"], rows)
            + f"\n\nmini_autograd / numpy = {cpu_ratio:.3f} in CPU time, {ratio:.3f} in wall-clock time "
              f"(target <= {TARGET}: {verdict})")


if __name__ == "__main__":
    results = run(ARGS)
    _common.finish(ARGS, results, report(results))
