"""Benchmark 2: the cost of one recorded operation, forward and backward, vs PyTorch.

A chain of 1,000 elementwise operations on a one-element tensor, so that the
arithmetic is nothing and everything measured is bookkeeping: making the
result tensor and the node, and in backward running the node through the
engine. The chain cycles through ``* 0.9``, ``+ 0.1`` and ``tanh()``; ``.sum()``
at the end makes a scalar to call ``backward()`` on. Reported per operation,
in microseconds; forward and backward are timed separately in each round.

The peers (``_peers.py``, when installed) run the same chain: DeZero on a
``Variable``, HIPS autograd as a function traced by ``make_vjp`` (the forward
pass) and its ``vjp(1.0)`` (the backward pass). Before timing, every engine's
gradient is checked against mini_autograd's, on a 30-op chain (whose gradient
is about 0.0055; the 1,000-op chain's is below float32's range and comes out 0).

Target (issue 21): mini_autograd spends at most twice what PyTorch spends per operation.

    python benchmarks/bench_op_overhead.py [--threads 1] [--quick]
"""
import _common

ARGS = _common.parse_args(__doc__)      # before numpy: it fixes the BLAS thread count

import time                               # noqa: E402

import _peers                             # noqa: E402
import mini_autograd as mt                # noqa: E402
import numpy as np                        # noqa: E402

OPS = 1000
TARGET = 2.0           # times PyTorch's per-op time (issue 21)


def chain_timer(lib, ops):
    """A function that builds the chain, runs backward, returns (forward s, backward s, CPU s, gradient)."""
    def run():
        x = lib.tensor([1.0], requires_grad=True)
        start_cpu = time.process_time()
        start = time.perf_counter()
        loss = _common.elementwise_chain(x, lib.Tensor.tanh, ops).sum()
        middle = time.perf_counter()
        loss.backward()
        end = time.perf_counter()
        cpu = time.process_time() - start_cpu
        return middle - start, end - middle, cpu, x.grad.item()
    return run


def make_timers(libs, peers, ops):
    """``{name: run}`` for mini_autograd, PyTorch and the peers: each builds a chain of ``ops``, runs it."""
    timers = {name: chain_timer(lib, ops) for name, lib in libs.items()}
    timers.update({key: _peers.CHAIN_TIMERS[key](module, ops)
                   for key, module in peers.items() if key in _peers.CHAIN_TIMERS})
    return timers


def check_gradients(libs, peers, ops):
    """Every engine's gradient of the chain equals mini_autograd's (float32 against float64: to 1e-4)."""
    grads = {name: run()[3] for name, run in make_timers(libs, peers, ops).items()}
    assert all(np.isclose(g, grads["mini_autograd"], rtol=1e-4, atol=1e-12) for g in grads.values()), grads
    return grads


def run(args):
    torch = _common.load_torch(args.threads)
    ops, rounds = (30, 5) if args.quick else (OPS, 200)
    peers = _peers.load_all()
    libs = {"mini_autograd": mt}
    if torch is not None:
        libs["torch"] = torch
    check_gradients(libs, peers, 30)
    check_gradients(libs, peers, ops)
    timers = make_timers(libs, peers, ops)
    split = {name: [] for name in timers}

    def recorder(name):
        return lambda: split[name].append(timers[name]())

    _common.alternate({name: recorder(name) for name in timers}, rounds=rounds, warmup=3)
    results = {"ops": ops, "rounds": rounds, "threads": args.threads, "us_per_op": {}, "target": TARGET}
    totals, cpu_totals = {}, {}
    for name, runs in split.items():
        runs = runs[3:]                     # drop the warm-up rounds
        forward = [f / ops * 1e6 for f, _, _, _ in runs]
        backward = [b / ops * 1e6 for _, b, _, _ in runs]
        totals[name] = [f + b for f, b in zip(forward, backward, strict=True)]
        cpu_totals[name] = [c / ops * 1e6 for _, _, c, _ in runs]
        results["us_per_op"][name] = {"forward": _common.median(forward),
                                      "backward": _common.median(backward),
                                      "total": _common.median(totals[name]),
                                      "total_iqr": _common.spread(totals[name]),
                                      "cpu_total": _common.median(cpu_totals[name]),
                                      "cpu_total_iqr": _common.spread(cpu_totals[name])}
    if "torch" in totals:
        results["ratio_vs_torch"] = _common.paired_ratio(totals, "mini_autograd", "torch")
        results["cpu_ratio_vs_torch"] = _common.paired_ratio(cpu_totals, "mini_autograd", "torch")
        # every engine's, for run_all.py's table of the peers (mini_autograd's is the line above)
        results["cpu_ratios_vs_torch"] = {name: _common.paired_ratio(cpu_totals, name, "torch")
                                          for name in cpu_totals}
    # The same chain with the garbage collector on, as in a program that does not switch it off:
    # a Python engine's nodes are Python objects, and allocating thousands of them triggers it.
    with_gc = [sum(timers["mini_autograd"]()[:2]) / ops * 1e6 for _ in range(max(3, rounds // 4))]
    results["mini_autograd_total_with_gc"] = _common.median(with_gc)
    return results


def report(results):
    ratios = results.get("cpu_ratios_vs_torch", {})
    rows = [(_peers.NAMES.get(name, name), f"{v['forward']:.2f}", f"{v['backward']:.2f}", f"{v['total']:.2f}",
             f"{v['total_iqr']:.0%}", f"{v['cpu_total']:.2f}", f"{v['cpu_total_iqr']:.0%}",
             f"{ratios[name]:.2f}" if name in ratios else "-")
            for name, v in results["us_per_op"].items()]
    text = (f"Per-op overhead: chain of {results['ops']} elementwise ops on a 1-element tensor, "
            f"{results['rounds']} alternating rounds\n\n"
            + _common.table(["implementation", "forward us/op", "backward us/op", "total us/op",
                             "IQR/median", "CPU us/op", "CPU IQR/median", "CPU x PyTorch"], rows))
    if "ratio_vs_torch" in results:
        ratio, cpu_ratio = results["ratio_vs_torch"], results["cpu_ratio_vs_torch"]
        text += ("\n\nmini_autograd / torch per op (median of paired ratios) = "
                 f"{cpu_ratio:.2f} in CPU time, {ratio:.2f} in wall-clock time "
                 f"(target <= {TARGET}: {'met' if cpu_ratio <= TARGET else 'MISSED'})")
    text += (f"\nmini_autograd with the garbage collector on (it is off above, as in timeit): "
             f"{results['mini_autograd_total_with_gc']:.2f} us/op")
    return text


if __name__ == "__main__":
    results = run(ARGS)
    _common.finish(ARGS, results, report(results))
