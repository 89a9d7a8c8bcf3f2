"""What each of PyTorch's steps costs mini_autograd per op: the line-by-line account behind issue 29.

Benchmark 2's chain (``* 0.9``, ``+ 0.1``, ``tanh()`` on a one-element tensor, 999 ops and a sum)
costs mini_autograd about 13 us per op, forward and backward, against about 10 for HIPS autograd,
which records a node per op too but keeps no version counters, runs no checks and differentiates
with numpy arrays. This script measures what the steps PyTorch takes, and HIPS autograd does not,
cost mini_autograd per op, in two ways:

1. **Taken out, in place.** One step at a time is replaced by a stand-in that skips it (only
   for this measurement, and put back at once), and the chain is timed again, forward and
   backward apart; the difference is what that step costs inside the chain, with the caches as
   a real run leaves them. Medians of alternating rounds (with and without the step).
2. **Alone.** The pieces that cannot be taken out without breaking the chain are timed alone
   with ``timeit`` (best of 5): wrapping a python number, making a node, a saved tensor and its
   unpacking, one backward formula as a Tensor op against the same numpy call.

    python benchmarks/bench_op_costs.py [--quick]
"""
import _common

ARGS = _common.parse_args(__doc__)      # before numpy: it fixes the BLAS thread count

import gc                                 # noqa: E402
import statistics                         # noqa: E402
import time                               # noqa: E402
import timeit                             # noqa: E402

import numpy as np                        # noqa: E402

import mini_autograd as mt                # noqa: E402
from mini_autograd import grad_mode       # noqa: E402
from mini_autograd.autograd import engine, function, graph  # noqa: E402
from mini_autograd.ops import binary   # noqa: E402
from mini_autograd.ops._helpers import as_tensor_operand  # noqa: E402


def chain(ops):
    x = mt.tensor([1.0], requires_grad=True)
    return _common.elementwise_chain(x, mt.Tensor.tanh, ops).sum()


def forward_backward(ops):
    """(forward s, backward s) of one chain."""
    start = time.perf_counter()
    loss = chain(ops)
    middle = time.perf_counter()
    loss.backward()
    return middle - start, time.perf_counter() - middle


# ------------------------------------------------------------------ the stand-ins that skip one step
def _record_without_checks(node, args, outputs):
    """_record without the aliasing check, the non-differentiable outputs and the general loops: the
    edges, the grad_fn, the metadata and the saved tensors only (one output, as in the chain)."""
    node.next_functions = tuple([graph.gradient_edge(a) for a in args])
    out = outputs[0]
    out._grad_fn = node
    node._input_metadata = ((out._data.shape, out._data.dtype),)
    node._saved = tuple([None if t is None else graph.SavedTensor(t, False) for t in node._to_save])
    node._to_save = ()
    return outputs


def _no_validation(edges, grads, node=None):
    """validate_outputs taken out: the gradients go on as the formula returned them (the chain's
    gradients all have their inputs' shapes and dtypes already)."""
    return grads


STEPS = [
    ("numpy's warnings off around each +, - and * (np.errstate in ops/binary.py: _binary)",
     binary, "_binary", binary._binary.__wrapped__),
    ("_record's checks: an output that is an input, non-differentiable outputs",
     function, "_record", _record_without_checks),
    ("validate_outputs: each gradient's shape and dtype against its input's",
     engine, "validate_outputs", _no_validation),
    ("tensor hooks and retain_grad hooks, looked up at each node (call_tensor_pre_hooks)",
     engine, "call_tensor_pre_hooks", lambda node, inputs: inputs),
    ("freeing the saved tensors after each node (release_variables)",
     function.BackwardFunction, "release_variables", lambda self: None),
]


def without(step, ops, rounds):
    """Median forward and backward us/op with and without ``step``, in alternating rounds."""
    _, owner, name, stand_in = step
    real = getattr(owner, name)
    timings = {True: [], False: []}
    gc.disable()
    try:
        for round_index in range(rounds):
            for keep in ((True, False) if round_index % 2 else (False, True)):
                setattr(owner, name, real if keep else stand_in)
                try:
                    timings[keep].append(forward_backward(ops))
                finally:
                    setattr(owner, name, real)
    finally:
        gc.enable()
    per_op = {keep: [statistics.median(t[i] for t in runs) / ops * 1e6 for i in (0, 1)]
              for keep, runs in timings.items()}
    return per_op[True], [a - b for a, b in zip(per_op[True], per_op[False], strict=True)]


def alone(statement, namespace, number):
    return min(timeit.repeat(statement, globals=namespace, number=number, repeat=5)) / number * 1e6


def run(args):
    ops, rounds, number = (30, 3, 200) if args.quick else (999, 100, 100_000)
    for _ in range(3):
        forward_backward(ops)                     # warm up
    results = {"ops": ops, "rounds": rounds, "taken_out": [], "alone": []}
    for step in STEPS:
        with_step, cost = without(step, ops, rounds)
        results["taken_out"].append({"step": step[0], "forward_us_per_op": with_step[0],
                                     "backward_us_per_op": with_step[1],
                                     "forward_cost": cost[0], "backward_cost": cost[1]})
    y = mt.tensor([1.0], requires_grad=True) * 1.0
    wrapped = as_tensor_operand(0.9, "*")
    saved = graph.SavedTensor(wrapped, is_output=False)
    grad, other = mt.tensor([1.0]), mt.tensor([0.9])
    namespace = {"as_tensor_operand": as_tensor_operand, "Mul": binary.Mul, "graph": graph, "y": y,
                 "wrapped": wrapped, "saved": saved, "grad_mode": grad_mode, "grad": grad, "other": other,
                 "np": np, "g": grad._data, "b": other._data, "node": y.grad_fn}
    pieces = [
        ("wrapping the python number 0.9 into a 0-d tensor (as_tensor_operand)",
         "as_tensor_operand(0.9, '*')"),
        ("a node, with its sequence number (Mul._backward_cls())", "Mul._backward_cls()"),
        ("grad mode off and on again around forward (Function.apply)",
         "grad_mode._set_grad_enabled(False); grad_mode._set_grad_enabled(True)"),
        ("a saved tensor: the version stamp and what unpacking checks (SavedTensor)",
         "graph.SavedTensor(wrapped, is_output=False)"),
        ("unpacking it, its version checked (SavedTensor.unpack)", "saved.unpack(node)"),
        ("a backward formula as a Tensor op, no graph recorded: grad * other (Mul.backward's)",
         "grad_mode._set_grad_enabled(False); grad * other; grad_mode._set_grad_enabled(True)"),
        ("the same product in numpy, as HIPS autograd's backward computes it: g * b", "g * b"),
    ]
    for label, statement in pieces:
        results["alone"].append({"piece": label, "us": alone(statement, namespace, number)})
    return results


def report(results):
    rows = [(r["step"], f"{r['forward_cost']:+.2f}", f"{r['backward_cost']:+.2f}")
            for r in results["taken_out"]]
    first = results["taken_out"][0]
    text = (f"What each step costs per op in benchmark 2's chain ({results['ops']} ops; with every step: "
            f"forward {first['forward_us_per_op']:.2f} us/op, backward {first['backward_us_per_op']:.2f} "
            f"us/op), median of {results['rounds']} alternating rounds with and without it\n\n"
            + _common.table(["step taken out", "forward us/op saved", "backward us/op saved"], rows))
    rows = [(r["piece"], f"{r['us']:.2f}") for r in results["alone"]]
    text += ("\n\nPieces timed alone (timeit, best of 5)\n\n"
             + _common.table(["piece", "us"], rows))
    return text


if __name__ == "__main__":
    results = run(ARGS)
    _common.finish(ARGS, results, report(results))
