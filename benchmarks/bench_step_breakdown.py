"""Where the MLP step's extra time goes: phase by phase, at two batch sizes, and one op warm and cold.

Benchmark 1 gives one ratio for the whole step. This script splits it, to show
what the gap to the numpy step is made of:

1. **Phases.** mini_autograd's step (``zero_grad`` + forward, ``backward``,
   ``step``) beside the numpy step's forward, hand-written backward and SGD
   update, timed phase by phase in alternating rounds, at batch 256 (benchmark 1's
   size) and at batch 8, where the arithmetic is small and what is left is mostly
   Python bookkeeping.
2. **Counts.** How many ``Function.apply`` calls and engine nodes one step makes.
3. **One op, warm and cold.** ``weight.t()`` (one recorded view op) timed in a
   tight loop, where the interpreter's code and objects sit in the CPU caches,
   and right after the 256x784 @ 784x256 matrix product of the first layer,
   which evicts them, as happens to every op inside a real step.
4. **One op, layer by layer.** A recorded ``z * 0.9`` (as in benchmark 2),
   then the same with one layer peeled off at a time: ``ops.mul`` (no
   ``Tensor.__mul__``), ``Mul.apply`` with the number already wrapped, the node
   and ``forward`` alone, and those plus ``_record``. The differences are what
   each layer costs.
5. **One engine node.** ``backward()`` through a chain of 1,000 ``+ 0.1``, per
   node: ``AddBackward0`` hands its gradient on unchanged, so this is the
   engine's own work per node.

    python benchmarks/bench_step_breakdown.py [--threads 1] [--quick]
"""
import _common

ARGS = _common.parse_args(__doc__)      # before numpy: it fixes the BLAS thread count

import gc                                 # noqa: E402
import statistics                         # noqa: E402
import time                               # noqa: E402

import mini_autograd as mt                # noqa: E402
from mini_autograd.autograd import engine, function  # noqa: E402
from _mlp import NumpyMLP, make_batch, mini_model  # noqa: E402

SIZES = (784, 256, 10)
PHASES = ("forward", "backward", "update")


def make_pair(batch_size, sizes):
    """mini_autograd's phased step and benchmark 1's numpy step, from the same weights and data."""
    mt.manual_seed(0)
    model = mini_model(sizes)
    optimizer = mt.optim.SGD(model.parameters(), lr=0.01)
    loss_fn = mt.nn.CrossEntropyLoss()
    x_np, y_np = make_batch(batch_size, sizes)
    x, y = mt.tensor(x_np), mt.tensor(y_np)
    numpy_model = NumpyMLP(*(p.detach().numpy().copy() for p in model.parameters()))

    def mini_step(clock):
        times = []
        start = clock()
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        times.append(clock() - start)
        start = clock()
        loss.backward()
        times.append(clock() - start)
        start = clock()
        optimizer.step()
        times.append(clock() - start)
        return times

    def numpy_step(clock):
        times = []
        start = clock()
        float(numpy_model.forward(x_np, y_np))
        times.append(clock() - start)
        start = clock()
        grads = numpy_model.backward(x_np, y_np)
        times.append(clock() - start)
        start = clock()
        numpy_model.update(grads, 0.01)
        times.append(clock() - start)
        return times

    return {"mini_autograd": mini_step, "numpy": numpy_step}, model, x


def phases(batch, sizes, rounds):
    """Median milliseconds per phase, for each implementation (alternating A B, B A, ...)."""
    steps, _, _ = make_pair(batch, sizes)
    names = list(steps)
    samples = {name: [] for name in names}
    gc.disable()
    try:
        for round_nr in range(rounds + 3):
            order = names if round_nr % 2 == 0 else names[::-1]
            for name in order:
                times = steps[name](time.perf_counter)
                if round_nr >= 3:                       # three warm-up rounds
                    samples[name].append(times)
    finally:
        gc.enable()
    return {name: {phase: statistics.median(t[i] for t in runs) * 1e3 for i, phase in enumerate(PHASES)}
            for name, runs in samples.items()}


def counts(batch, sizes):
    """``Function.apply`` calls and engine nodes of one mini_autograd step (counted, not timed)."""
    steps, _, _ = make_pair(batch, sizes)
    steps["mini_autograd"](time.perf_counter)          # a first step makes the .grad tensors
    tally = {"Function.apply": 0, "engine nodes": 0}
    apply, call_function = function.Function.__dict__["apply"].__func__, engine.call_function

    def counting_apply(cls, *args):
        tally["Function.apply"] += 1
        return apply(cls, *args)

    def counting_call_function(graph_task, node, inputs):
        tally["engine nodes"] += 1
        return call_function(graph_task, node, inputs)

    function.Function.apply = classmethod(counting_apply)
    engine.call_function = counting_call_function
    try:
        steps["mini_autograd"](time.perf_counter)
    finally:
        function.Function.apply = classmethod(apply)
        engine.call_function = call_function
    return tally


def one_op_warm_and_cold(sizes, rounds):
    """Microseconds for ``weight.t()``: in a tight loop, and right after the first layer's product."""
    _, model, x = make_pair(256, sizes)
    weight = model[0].weight
    warm, cold = [], []
    gc.disable()
    try:
        for _ in range(rounds):
            start = time.perf_counter()
            for _ in range(20):
                weight.t()
            warm.append((time.perf_counter() - start) / 20)
            x._data @ weight._data.T                     # 256x784 @ 784x256: the caches fill with its data
            start = time.perf_counter()
            weight.t()
            cold.append(time.perf_counter() - start)
    finally:
        gc.enable()
    return {"warm_us": statistics.median(warm) * 1e6, "cold_us": statistics.median(cold) * 1e6}


def one_op_layer_by_layer(number):
    """Microseconds for a recorded ``z * 0.9``, and with its outer layers peeled off one at a time."""
    from mini_autograd.ops import mul
    from mini_autograd.ops._helpers import as_tensor_operand
    from mini_autograd.ops.binary import Mul

    z = mt.tensor([1.0], requires_grad=True) * 1.0          # a non-leaf, as inside a chain
    wrapped = as_tensor_operand(0.9, "*")

    def node_and_forward():
        ctx = Mul._backward_cls()
        ctx.needs_input_grad, ctx._grad_enabled = (True, False), True
        return ctx, Mul.forward(ctx, z, wrapped)

    def node_forward_and_record():
        ctx, out = node_and_forward()
        return function._record(ctx, (z, wrapped), (out,))

    layers = {"z * 0.9": lambda: z * 0.9,
              "ops.mul(z, 0.9)": lambda: mul(z, 0.9),
              "Mul.apply(z, wrapped 0.9)": lambda: Mul.apply(z, wrapped),
              "the node, forward and _record": node_forward_and_record,
              "the node and forward": node_and_forward,
              "wrapping 0.9 (as_tensor_operand)": lambda: as_tensor_operand(0.9, "*")}
    return {name: _best_of(f, number) for name, f in layers.items()}


def one_engine_node(rounds):
    """Microseconds per node of backward() through 1,000 ``+ 0.1`` (AddBackward0 passes grad on as it is)."""
    per_node = []
    gc.disable()
    try:
        for _ in range(rounds):
            x = mt.tensor([1.0], requires_grad=True)
            y = x
            for _ in range(1000):
                y = y + 0.1
            loss = y.sum()
            start = time.perf_counter()
            loss.backward()
            per_node.append((time.perf_counter() - start) / 1002)   # 1,000 adds, the sum, AccumulateGrad
    finally:
        gc.enable()
    return statistics.median(per_node) * 1e6


def _best_of(function_, number):
    """timeit's way: the fastest of five repeats of ``number`` calls, in microseconds per call."""
    import timeit
    return min(timeit.repeat(function_, number=number, repeat=5)) / number * 1e6


def run(args):
    sizes = (20, 16, 4) if args.quick else SIZES
    rounds = 5 if args.quick else 200
    batches = (8, 4) if args.quick else (256, 8)
    return {"sizes": sizes, "rounds": rounds, "threads": args.threads,
            "phases_ms": {str(batch): phases(batch, sizes, rounds) for batch in batches},
            "counts": counts(batches[0], sizes),
            "one_op": one_op_warm_and_cold(sizes, rounds),
            "layers_us": one_op_layer_by_layer(1000 if args.quick else 100_000),
            "engine_node_us": one_engine_node(3 if args.quick else 100)}


def report(results):
    lines = [f"MLP step ({' -> '.join(map(str, results['sizes']))}, ReLU, SGD), phase by phase: median ms "
             f"of {results['rounds']} alternating rounds, {results['threads']} thread(s)", ""]
    rows = []
    for batch, by_name in results["phases_ms"].items():
        mini, numpy_ = by_name["mini_autograd"], by_name["numpy"]
        for phase in PHASES + ("step",):
            m = sum(mini.values()) if phase == "step" else mini[phase]
            n = sum(numpy_.values()) if phase == "step" else numpy_[phase]
            rows.append((batch, phase, f"{m:.3f}", f"{n:.3f}", f"{m - n:+.3f}"))
    lines.append(_common.table(["batch", "phase", "mini_autograd ms", "numpy ms", "difference ms"], rows))
    tally = results["counts"]
    op = results["one_op"]
    lines += ["", f"One step makes {tally['Function.apply']} Function.apply calls and runs "
                  f"{tally['engine nodes']} engine nodes.",
              f"One recorded op (weight.t()): {op['warm_us']:.1f} us in a tight loop, {op['cold_us']:.1f} us "
              f"right after the first layer's matrix product ({op['cold_us'] / op['warm_us']:.1f}x).", "",
              "One recorded op, layer by layer (timeit, best of 5; each of the first five rows is the one "
              "above without its outermost layer; the last is the wrapping of the number alone):", ""]
    rows = [(name, f"{us:.2f}") for name, us in results["layers_us"].items()]
    lines.append(_common.table(["call", "us"], rows))
    lines += ["", f"One engine node (backward through 1,000 `+ 0.1`): {results['engine_node_us']:.2f} us "
                  "per node."]
    return "\n".join(lines)


if __name__ == "__main__":
    results = run(ARGS)
    _common.finish(ARGS, results, report(results))
