"""Benchmark 4: memory of one training step at batch 4096, mini_autograd vs hand-written numpy.

The MLP and step of benchmark 1 (784 -> 256 -> ReLU -> 10, cross-entropy,
SGD), at batch 4096 so that activations dominate. Memory is what numpy
allocates, as seen by ``tracemalloc`` (numpy reports every array buffer to
it); both implementations are measured the same way, in the same process,
the peak taken relative to the memory in use just before the step.

Two questions:

1. Peak: how much more than numpy does the engine hold at once (saved
   tensors, gradient buffers)? Target: at most 1.3x the numpy peak.
2. Release: once ``backward()`` returns, the graph's saved tensors are freed
   (retain_graph=False), so the memory in use is back to what it was before
   the forward pass: parameters, their ``.grad`` (kept from the previous
   step: ``zero_grad(set_to_none=False)``) and the batch. Reported in bytes,
   with the loss tensor still alive and after dropping it.

    python benchmarks/bench_memory.py [--threads 1] [--quick]
"""
import _common

ARGS = _common.parse_args(__doc__)      # before numpy: it fixes the BLAS thread count

import gc                                 # noqa: E402
import tracemalloc                        # noqa: E402

import numpy as np                        # noqa: E402

import mini_autograd as mt                # noqa: E402
from bench_mlp_step import NumpyMLP       # noqa: E402

TARGET = 1.3
NUMPY_DOMAIN = 389047      # numpy reports array buffers to tracemalloc under this domain


def numpy_bytes():
    """Bytes held in numpy array buffers right now (a tracemalloc snapshot, numpy's domain only)."""
    snapshot = tracemalloc.take_snapshot().filter_traces([tracemalloc.DomainFilter(True, NUMPY_DOMAIN)])
    return sum(trace.size for trace in snapshot.traces)


def measure(step):
    """(peak bytes above the starting point, bytes in use after the step above the starting point)."""
    gc.collect()
    tracemalloc.reset_peak()
    before = tracemalloc.get_traced_memory()[0]
    result = step()
    current, peak = tracemalloc.get_traced_memory()
    del result
    return peak - before, current - before


def run(args):
    batch, sizes = (64, (20, 16, 4)) if args.quick else (4096, (784, 256, 10))
    rng = np.random.default_rng(0)
    x_np = rng.standard_normal((batch, sizes[0])).astype(np.float32)
    y_np = rng.integers(0, sizes[2], batch)

    mt.manual_seed(0)
    model = mt.nn.Sequential(mt.nn.Linear(sizes[0], sizes[1]), mt.nn.ReLU(), mt.nn.Linear(sizes[1], sizes[2]))
    optimizer = mt.optim.SGD(model.parameters(), lr=0.01)
    loss_fn = mt.nn.CrossEntropyLoss()
    x, y = mt.tensor(x_np), mt.tensor(y_np)
    numpy_model = NumpyMLP(*(p.detach().numpy().copy() for p in model.parameters()))
    param_bytes = sum(p.numel() * 4 for p in model.parameters())

    def mini_step():
        optimizer.zero_grad(set_to_none=False)     # keep the .grad buffers: steady state
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        return loss

    def numpy_step():
        loss = numpy_model.step(x_np, y_np, 0.01)
        # NumpyMLP keeps its forward pass's arrays on itself for backward (bench_step_breakdown times the
        # phases apart): dropped after the step, as a step written in one function frees them, or they
        # would count in the memory in use before the next step, not in the step's peak above it.
        del numpy_model.h, numpy_model.a, numpy_model.log_probs
        return loss

    tracemalloc.start()
    try:
        for _ in range(2):                         # warm-up: .grad buffers exist from here on
            mini_step(), numpy_step()
        peaks = {"mini_autograd": [], "numpy": []}
        for _ in range(3):
            peaks["mini_autograd"].append(measure(mini_step)[0])
            peaks["numpy"].append(measure(numpy_step)[0])

        # Release: numpy buffers before the forward pass, after it, after backward (loss alive),
        # and after del loss.
        optimizer.zero_grad(set_to_none=False)
        before = numpy_bytes()
        loss = loss_fn(model(x), y)
        after_forward = numpy_bytes()
        loss.backward()
        after_backward = numpy_bytes()
        del loss
        after_del = numpy_bytes()
    finally:
        tracemalloc.stop()

    peak = {name: min(values) for name, values in peaks.items()}
    return {
        "batch": batch, "sizes": sizes, "param_bytes": param_bytes,
        "activation_bytes": x_np.nbytes,
        "peak_bytes": peak,
        "peak_ratio": peak["mini_autograd"] / peak["numpy"],
        "graph_bytes_after_forward": after_forward - before,
        "after_backward_minus_before_forward": after_backward - before,
        "after_del_loss_minus_before_forward": after_del - before,
        "target": TARGET,
    }


def report(results):
    mib = 2 ** 20
    rows = [(name, f"{b / mib:.2f}") for name, b in results["peak_bytes"].items()]
    ratio = results["peak_ratio"]
    return (f"Memory of one training step, batch {results['batch']}, "
            f"{' -> '.join(map(str, results['sizes']))} "
            "(tracemalloc, above the memory in use before the step; "
            f"parameters {results['param_bytes'] / mib:.2f} MiB, "
            f"batch {results['activation_bytes'] / mib:.2f} MiB)\n\n"
            + _common.table(["implementation", "peak MiB"], rows)
            + f"\n\nmini_autograd / numpy peak = {ratio:.3f} (target <= {TARGET}: "
              f"{'met' if ratio <= TARGET else 'MISSED'})\n"
              "numpy buffers held by the graph after forward: "
              f"{results['graph_bytes_after_forward'] / mib:.2f} MiB; "
              f"after backward: {results['after_backward_minus_before_forward']:+d} bytes "
              "vs before the forward pass (the loss is alive); "
              f"after del loss: {results['after_del_loss_minus_before_forward']:+d} bytes")


if __name__ == "__main__":
    results = run(ARGS)
    _common.finish(ARGS, results, report(results))
