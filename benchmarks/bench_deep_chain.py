"""Benchmark 3: backward through chains of 1,000, 10,000 and 100,000 operations.

The engine must be linear in the size of the graph: no recursion, no
quadratic bookkeeping (a ready queue scanned instead of a heap, gradients
copied from node to node, ...). Each chain is built and run backward several
times, the lengths taking turns; reported are the median backward times and
their ratios (the median of each round's ratio; also in CPU time).

Target: backward(100k) / backward(10k) at most 12 (exactly linear is 10).

The peers (``_peers.py``, when installed) run the same chains after
mini_autograd's rounds, in fewer rounds of their own (3; their figures are
there to show whether they scale, not for a verdict): DeZero's
``backward()`` and HIPS autograd's ``vjp(1.0)``. A length at which a peer
fails (a RecursionError, say) is reported as "fails: <error>" and the others
still run; the recursion limit is left as it is.

    python benchmarks/bench_deep_chain.py [--threads 1] [--quick]
"""
import _common

ARGS = _common.parse_args(__doc__)      # before numpy: it fixes the BLAS thread count

import gc                                 # noqa: E402
import time                               # noqa: E402

import _peers                             # noqa: E402
import mini_autograd as mt                # noqa: E402

TARGET = 12
PEER_ROUNDS = 3


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
    peers = {key: peer_chains(key, module, lengths, 1 if args.quick else PEER_ROUNDS)
             for key, module in _peers.load_all().items() if key in _peers.DEEP_CHAINS}
    return {
        "lengths": list(lengths), "rounds": rounds,
        "median_s": {str(n): m for n, m in medians.items()},
        "us_per_node": {str(n): m / n * 1e6 for n, m in medians.items()},
        "ratio_large_middle": _common.paired_ratio(times, large, middle),
        "ratio_middle_small": _common.paired_ratio(times, middle, small),
        "ratio_of_medians_large_middle": medians[large] / medians[middle],
        "cpu_ratio_large_middle": _common.paired_ratio(cpu_times, large, middle),
        "target": TARGET,
        "peers": peers,
    }


def peer_chains(key, module, lengths, rounds):
    """A peer's median backward times (s) by length, and the error of the lengths at which it fails."""
    deep_chain = _peers.DEEP_CHAINS[key]
    times = {n: [] for n in lengths}
    cpu_times = {n: [] for n in lengths}
    failures = {}
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        deep_chain(module, lengths[0])                 # warm-up
        for _ in range(rounds):
            for n in lengths:
                if n in failures:
                    continue
                try:
                    wall, cpu = deep_chain(module, n)
                except Exception as error:           # reported, not raised (see the docstring)
                    failures[n] = f"{type(error).__name__}: {error}"[:200]
                    continue
                times[n].append(wall)
                cpu_times[n].append(cpu)
    finally:
        if gc_was_enabled:
            gc.enable()
    result = {"rounds": rounds,
              "median_s": {str(n): _common.median(t) for n, t in times.items() if t},
              "cpu_median_s": {str(n): _common.median(t) for n, t in cpu_times.items() if t},
              "failures": {str(n): error for n, error in failures.items()}}
    small, middle, large = lengths
    if large not in failures and middle not in failures:
        result["cpu_ratio_large_middle"] = _common.paired_ratio(cpu_times, large, middle)
    return result


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
              f"(target <= {TARGET}: {'met' if cpu_ratio <= TARGET else 'MISSED'})"
            + peers_report(results))


def peers_report(results):
    if not results["peers"]:
        return ""
    lengths = [str(n) for n in results["lengths"]]
    rows = []
    for key, peer in results["peers"].items():
        cells = []
        for n in lengths:
            if n in peer["failures"]:
                cells.append(f"fails: {peer['failures'][n]}")
            else:
                seconds = peer["median_s"][n]
                cells.append(f"{seconds * 1e3:.1f} ms ({seconds / int(n) * 1e6:.2f} us/node)")
        ratio = peer.get("cpu_ratio_large_middle")
        rows.append([_peers.NAMES[key], *cells, "-" if ratio is None else f"{ratio:.2f}"])
    rounds = next(iter(results["peers"].values()))["rounds"]
    return (f"\n\nThe peers, the same chains ({rounds} round{'s' if rounds != 1 else ''} each, after "
            "mini_autograd's): median backward "
            "time (wall)\n\n"
            + _common.table(["engine", *(f"{int(n):,} ops" for n in lengths),
                             f"backward({int(lengths[2]):,}) / backward({int(lengths[1]):,}), CPU"], rows))


if __name__ == "__main__":
    results = run(ARGS)
    _common.finish(ARGS, results, report(results))
