"""Shared by the benchmark scripts: thread settings, timing by alternation, tables.

Import this module *before* numpy (``import _common`` is the first import of
every script): it fixes the number of BLAS/OpenMP threads through environment
variables, which numpy's OpenBLAS and PyTorch read once, when they load.

How timings are taken: all implementations run in one process, in turns
(A B C, B C A, C A B, ...), so that a burst of noise on this shared 2-core
machine hits all of them alike. Each turn is timed twice: wall-clock
(``time.perf_counter``) and CPU time of this process (``time.process_time``,
user + system, all threads). We report medians per implementation and, for
ratios, the median of the per-round ratios (each round's A/B, measured back to
back). Verdicts use the CPU-time ratios: other processes on the machine take
the core away from us for whole milliseconds, which inflates wall-clock time
but not CPU time; both are printed.
"""
import argparse
import gc
import os
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)                 # run from a checkout, installed or not


def parse_args(description, argv=None):
    """The options every script takes; also sets the thread count, so call it before importing numpy.

    --threads N   BLAS/OpenMP threads for numpy and PyTorch alike (default 1)
    --quick       tiny sizes and few repeats: checks that the script runs, measures nothing
    --json PATH   also write the results as JSON (run_all.py collects them)
    """
    parser = argparse.ArgumentParser(description=description.split("\n\n")[0])
    parser.add_argument("--threads", type=int, default=1,
                        help="BLAS/OpenMP threads for numpy and PyTorch alike (default 1)")
    parser.add_argument("--quick", action="store_true", help="tiny sizes and few repeats (a smoke test)")
    parser.add_argument("--json", metavar="PATH", help="also write the results to PATH as JSON")
    args = parser.parse_args(argv)
    set_threads(args.threads)
    return args


def finish(args, results, markdown):
    """Print the markdown report; write the JSON results when asked."""
    print(markdown)
    if args.json:
        import json
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


def set_threads(n):
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[name] = str(n)


def load_torch(threads):
    """PyTorch with ``threads`` intra-op threads, or None when it is not installed."""
    try:
        import torch
    except ImportError:
        return None
    torch.set_num_threads(threads)
    return torch


class Timings:
    """Seconds per call, by implementation: ``wall`` (perf_counter) and ``cpu`` (process_time).

    CPU time is what this process itself spent: other processes competing for the
    2 cores do not inflate it (though they still evict our data from the caches).
    """

    def __init__(self, names):
        self.wall = {name: [] for name in names}
        self.cpu = {name: [] for name in names}


def alternate(implementations, rounds, warmup=2):
    """Time each of ``{name: fn}`` ``rounds`` times, in turns; return their ``Timings``.

    The order rotates from round to round (A B C, B C A, C A B, ...): whichever runs
    right after another finds the caches full of the other's data, and rotating
    shares that penalty out evenly. The garbage collector is off while timing (as
    ``timeit`` does): mini_autograd's graphs are freed by reference counting.
    """
    names = list(implementations)
    for _ in range(warmup):
        for fn in implementations.values():
            fn()
    timings = Timings(names)
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        for round_index in range(rounds):
            shift = round_index % len(names)
            for name in names[shift:] + names[:shift]:
                fn = implementations[name]
                start, start_cpu = time.perf_counter(), time.process_time()
                fn()
                timings.cpu[name].append(time.process_time() - start_cpu)
                timings.wall[name].append(time.perf_counter() - start)
    finally:
        if gc_was_enabled:
            gc.enable()
    return timings


def median(values):
    return statistics.median(values)


def paired_ratio(times, numerator, denominator):
    """The median of the per-round ratios numerator/denominator."""
    return statistics.median(a / b for a, b in zip(times[numerator], times[denominator], strict=True))


def spread(values):
    """The interquartile range relative to the median, a rough noise figure."""
    q = statistics.quantiles(values, n=4)
    return (q[2] - q[0]) / statistics.median(values)


def table(header, rows):
    """A markdown table."""
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(str(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def environment(threads):
    import platform

    import numpy as np
    torch = load_torch(threads)
    parts = [f"Python {platform.python_version()}", f"numpy {np.__version__}",
             f"{os.cpu_count()} CPUs", f"{threads} BLAS thread(s)"]
    if torch is not None:
        parts.insert(2, f"torch {torch.__version__}")
    return ", ".join(parts)


def elementwise_chain(y, tanh, ops):
    """Benchmark 2's chain on ``y``: ``ops`` elementwise ops, ``* 0.9``, ``+ 0.1`` and ``tanh`` in turn,
    written once for every engine. ``tanh`` is the engine's: ``Tensor.tanh`` of mini_autograd or
    PyTorch (the same call as ``y.tanh()``), DeZero's ``F.tanh``, ``autograd.numpy.tanh``."""
    for _ in range(ops // 3):
        y = y * 0.9
        y = y + 0.1
        y = tanh(y)
    for _ in range(ops % 3):
        y = y * 0.9
    return y
