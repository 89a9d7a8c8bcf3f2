"""Benchmark 3: backward through chains of 1,000, 10,000 and 100,000 operations.

The engine must be linear in the size of the graph: no recursion, no
quadratic bookkeeping (a ready queue scanned instead of a heap, gradients
copied from node to node, ...). Each chain is built and run backward several
times, the lengths taking turns; reported are the median backward times and
their ratios (the median of each round's ratio; also in CPU time).

Target: backward(100k) / backward(10k) at most 12 (exactly linear is 10).

    python benchmarks/bench_deep_chain.py [--threads 1] [--quick]
"""
import _common

ARGS = _common.parse_args(__doc__)      # before numpy: it fixes the BLAS thread count

import gc                                 # noqa: E402
import time                               # noqa: E402

import mini_autograd as mt                # noqa: E402

TARGET = 12


def backward_time(length):
    """Build a chain of ``length`` ops on a 1-element tensor; return the (wall, CPU) seconds of backward."""
    x = mt.tensor([1.0], requires_grad=True)
    y = x
    for _ in range(length):
        y = y * 1.0
    loss = y.sum()
    start, start_cpu = time.perf_counter(), time.process_time()
    loss.backward()
    elapsed, elapsed_cpu = time.perf_counter() - start, time.process_time() - start_cpu
    assert x.grad.item() == 1.0
    return elapsed, elapsed_cpu


def run(args):
    lengths, rounds = ((100, 1000, 10000), 3) if args.quick else ((1000, 10000, 100000), 7)
    times = {n: [] for n in lengths}
    cpu_times = {n: [] for n in lengths}
    backward_time(lengths[-1])                 # warm-up
    gc_was_enabled = gc.isenabled()
    gc.disable()                               # graphs die by reference counting; no need for the collector
    try:
        for _ in range(rounds):
            for n in lengths:
                wall, cpu = backward_time(n)
                times[n].append(wall)
                cpu_times[n].append(cpu)
    finally:
        if gc_was_enabled:
            gc.enable()
    medians = {n: _common.median(t) for n, t in times.items()}
    small, middle, large = lengths
    return {
        "lengths": list(lengths), "rounds": rounds,
        "median_s": {str(n): m for n, m in medians.items()},
        "us_per_node": {str(n): m / n * 1e6 for n, m in medians.items()},
        "ratio_large_middle": _common.paired_ratio(times, large, middle),
        "ratio_middle_small": _common.paired_ratio(times, middle, small),
        "ratio_of_medians_large_middle": medians[large] / medians[middle],
        "cpu_ratio_large_middle": _common.paired_ratio(cpu_times, large, middle),
        "target": TARGET,
    }


def report(results):
    rows = [(f"{int(n):,}", f"{s * 1e3:.1f}", f"{results['us_per_node'][n]:.2f}")
            for n, s in results["median_s"].items()]
    small, middle, large = (f"{n:,}" for n in results["lengths"])
    ratio, cpu_ratio = results["ratio_large_middle"], results["cpu_ratio_large_middle"]
    return (f"Backward through deep chains ({results['rounds']} rounds, lengths in turn)\n\n"
            + _common.table(["ops in chain", "median backward ms", "us per node"], rows)
            + f"\n\nbackward({middle}) / backward({small}) = {results['ratio_middle_small']:.2f}; "
              f"backward({large}) / backward({middle}) = {cpu_ratio:.2f} in CPU time, "
              f"{ratio:.2f} in wall-clock time (ratio of the wall-clock medians "
              f"{results['ratio_of_medians_large_middle']:.2f}) "
              f"(target <= {TARGET}: {'met' if cpu_ratio <= TARGET else 'MISSED'})")


if __name__ == "__main__":
    results = run(ARGS)
    _common.finish(ARGS, results, report(results))
