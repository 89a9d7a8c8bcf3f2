"""Checks of chapters 07 (saved tensors, versions, freeing) and 08 (PyTorch's engine)."""
import contextlib
import gc
import time

import numpy as np

from ._testing import (DEPTH_PROBE, TooManyWalks, blocking_function, count_order_comparisons, expect,
                       expect_close, expect_raises, grad_of, label_shown, labels_shown, learner_prehook,
                       left_alive, node_label, probe_run, probe_walk, record_order, recording_off,
                       reference, reference_prehook, show, walk_nodes, weak_references)
from .ch03 import check_graph_from_another_thread, check_shared_graph
from .package import Wrong
from .steps import step
from .i18n import _

SECOND_BACKWARD = "Trying to backward through the graph a second time"
MODIFIED = "one of the variables needed for gradient computation has been modified by an inplace operation"


@step("07.1", "saved tensors and the version counter",
      "BackwardFunction.save_for_backward, BackwardFunction.saved_tensors in function.py; "
      "Tensor._write in tensor.py",
      rewrites=[("function.py", "BackwardFunction.save_for_backward"),
                ("function.py", "BackwardFunction.saved_tensors")])
def check_versions(m):
    x = m.tensor([1.0, 2.0, 3.0])
    expect(x._version == 0, _("a new tensor's _version must be 0."))
    result = x.add_(1.0)
    expect(result is x, _("x.add_(1.0) must return x itself."))
    expect(x._version == 1, _("after x.add_(1.0), x._version is {x_version}, expected 1: every in-place "
           "change adds one.").format(x_version=x._version))
    expect(np.allclose(x._data, [2.0, 3.0, 4.0]), _("x.add_(1.0) did not change x's numbers in place."))
    view = x.detach()
    x.mul_(2.0)
    expect(np.allclose(view._data, [4.0, 6.0, 8.0]), _("x.mul_(2.0) replaced x's numpy array instead of "
           "writing into it: d = x.detach() shares x's numbers and no longer sees the change. "
           "Write with self._data[...] = data."))
    w = m.tensor([1.0, 2.0, 3.0], requires_grad=True)
    expect_raises(lambda: w.add_(1.0), RuntimeError,
                  "a leaf Variable that requires grad is being used in an in-place operation.",
                  _("w.add_(1.0) on a leaf that requires grad, recording on"))
    loss = (w * w).sum()
    _in_place_with_recording_off(m, lambda: w.sub_(0.1), _("w.sub_(0.1) for a leaf w that requires grad"))
    expect(w._version == 1, _("after w.sub_(0.1) under no_grad, w._version is {w_version}, expected 1: one "
           "in-place change adds one, once.").format(w_version=w._version))
    expect_raises(loss.backward, RuntimeError, MODIFIED + ": [torch.FloatTensor [3]] is at version 1; "
                  "expected version 0 instead.", _("loss.backward() after w changed in place"))
    y = m.tensor([1.0, 2.0], requires_grad=True).exp()
    z = y * 2
    _in_place_with_recording_off(m, lambda: y.add_(1.0), _("y.add_(1.0) for y = x.exp()"))
    expect_raises(lambda: z.sum().backward(), RuntimeError,
                  MODIFIED + ": [torch.FloatTensor [2]], which is output 0 of Exp, is at version 1; "
                  "expected version 0 instead.",
                  _("z.sum().backward() after y = x.exp() changed in place"))
    x = m.tensor([1.0, 2.0], requires_grad=True)
    scale = m.tensor([3.0, 3.0])
    scale.add_(1.0)                                    # changed before it is saved: version 1
    try:
        (x * scale).sum().backward()
    except RuntimeError as error:
        if str(error).startswith(MODIFIED):
            raise Wrong(_("backward found a 'modified by an inplace operation' error though scale did not "
                          "change after it was saved: save the version a tensor has when it is saved "
                          "(t._version), not 0.")) from None
        raise
    expect_close(grad_of(x), [4.0, 4.0],
                 _("with nothing changed since the save, x.grad is {got}, expected {want}."))
    # Every saved tensor is checked, not only the first one.
    x = m.tensor([1.0, 2.0, 3.0], requires_grad=True)
    w = m.tensor([10.0, 20.0, 30.0])
    y = (x * w).sum()
    _in_place_with_recording_off(m, lambda: w.mul_(2.0), "w.mul_(2.0)")
    expect_raises(y.backward, RuntimeError, MODIFIED + ": [torch.FloatTensor [3]] is at version 1; expected "
                  "version 0 instead.", _("y.backward() for y = (x * w).sum() after w changed in place (w is "
                  "x * w's second input: check every saved tensor, not only the first)"))
    # Each unpacking checks the versions again: a change between two backwards stops the second.
    x = m.tensor([1.0, 2.0, 3.0], requires_grad=True)
    w = m.tensor([4.0, 5.0, 6.0])
    y = (x * w).sum()
    y.backward(retain_graph=True)
    _in_place_with_recording_off(m, lambda: w.add_(1.0), "w.add_(1.0)")
    expect_raises(y.backward, RuntimeError, MODIFIED, _("y = (x * w).sum(); y.backward(retain_graph=True); "
                  "w.add_(1.0) under no_grad; y.backward() (saved_tensors checks the versions each time it "
                  "is read, not only the first time)"))
    # None in a tensor's place: PyTorch takes it and gives it back.
    x = m.tensor([1.0, 2.0], requires_grad=True)
    try:
        _saves_none(m).apply(x).sum().backward()
    except Exception as error:
        raise Wrong(_("a Function whose forward calls ctx.save_for_backward(a, None) and whose backward "
                      "reads a, nothing = ctx.saved_tensors: backward raised {error_type}: {error}. PyTorch "
                      "takes None in the place of a tensor (an optional input) and gives None back: keep "
                      "(None, None), and check the version of tensors only.")
                    .format(error_type=type(error).__name__, error=error)) from None
    expect_close(grad_of(x), [2.0, 2.0], _("with ctx.save_for_backward(a, None), x.grad is {got}, expected "
                 "{want}."))
    # A write that keeps the values is a write too.
    w = m.tensor([1.0, 2.0])
    w.mul_(1.0)
    expect(w._version == 1, _("after w.mul_(1.0), w._version is {w_version}, expected 1: PyTorch counts "
           "every in-place operation, whether or not it changes a value (it does not look at the numbers).")
           .format(w_version=w._version))
    # A write that fails (numbers that do not fit the tensor) changes nothing, its version neither. (The given
    # add_ refuses such shapes before it calls _write, as PyTorch does; _write itself must hold too.)
    x = m.tensor([0.0, 0.0, 0.0])
    with contextlib.suppress(Exception):
        x._write(np.ones((2, 3), dtype=np.float32))
    expect(x._version == 0, _("x = tensor([0., 0., 0.]); x._write(an array of shape [2, 3]) fails, and "
           "leaves x._version {x_version}, expected 0: PyTorch bumps the version after the write succeeded. "
           "Write first, then add one.").format(x_version=x._version))
    _check_saving(m)
    return _("In-place changes bump _version, and a changed saved tensor stops backward with PyTorch's "
             "error.")


def _check_saving(m):
    """What ctx.saved_tensors gives back: a tuple, of the last save_for_backward call only, empty when
    nothing was saved."""
    seen = []

    class SavesTwice(m.Function):
        @staticmethod
        def forward(ctx, a, b):
            ctx.save_for_backward(a)
            ctx.save_for_backward(b)              # PyTorch keeps this call's tensors, not both
            return m.Tensor(a._data * b._data)

        @staticmethod
        def backward(ctx, grad):
            seen.append(ctx.saved_tensors)
            return grad * 2.0, None

    class SavesNothing(m.Function):
        @staticmethod
        def forward(ctx, a):
            return m.Tensor(a._data * 3.0)

        @staticmethod
        def backward(ctx, grad):
            seen.append(ctx.saved_tensors)
            return grad * 3.0

    x, b = m.tensor([1.0, 2.0], requires_grad=True), m.tensor([5.0, 6.0])
    try:
        SavesTwice.apply(x, b).sum().backward()
        SavesNothing.apply(x).sum().backward()
    except NotImplementedError:
        raise
    except Exception as error:
        raise Wrong(_("a Function that calls ctx.save_for_backward twice, or saves nothing, then reads "
                      "ctx.saved_tensors in backward: backward raised {error_type}: {error}. PyTorch gives "
                      "back the tensors of the last call, and () when nothing was saved: only a graph freed "
                      "by backward (saved is None) raises.").format(error_type=type(error).__name__,
                                                                     error=error)) from None
    twice, nothing = seen
    expect(type(twice) is tuple and type(nothing) is tuple, _("ctx.saved_tensors is a {type_name}; PyTorch "
           "gives a tuple.").format(type_name=type(twice if type(twice) is not tuple else nothing).__name__))
    expect(len(twice) == 1, _("forward called ctx.save_for_backward(a), then "
           "ctx.save_for_backward(b); ctx.saved_tensors holds {count} tensors, expected (b,): each call "
           "replaces what the one before saved, as in PyTorch.").format(count=len(twice)))
    expect(twice[0] is b, _("forward called ctx.save_for_backward(a), then ctx.save_for_backward(b); "
           "ctx.saved_tensors holds one tensor, but not b itself: PyTorch gives back the very tensor saved "
           "(an input, with its requires_grad and grad_fn), not a copy or a detached twin."))
    expect(nothing == (), _("forward saved nothing, and ctx.saved_tensors is {nothing!r}, expected ()."
           ).format(nothing=nothing))


def _in_place_with_recording_off(m, change, what):
    """An in-place change under no_grad, which must be allowed (an optimizer's step)."""
    try:
        with recording_off(m):
            change()
    except RuntimeError as error:
        raise Wrong(_("{what} with recording off (inside no_grad) raised RuntimeError: {error}. Refuse an "
                      "in-place change only while recording is on (is_grad_enabled()): with recording off, "
                      "as in an optimizer's step, PyTorch allows it and bumps the version.")
                      .format(what=what, error=error)) from None


@step("07.2", "freeing saved tensors; retain_graph",
      "run_backward in engine.py and Tensor.backward in tensor.py",
      uses={"engine.run_backward": "release_saved", "Tensor.backward": "retain_graph"},
      begun={"engine.run_backward": "retain_graph"})
def check_freeing(m):
    x = m.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    try:
        y.backward()
    except RuntimeError as error:
        if str(error).startswith(SECOND_BACKWARD):
            raise Wrong(_("the first y.backward() already says the graph was freed: "
                          "free a node's saved tensors after it has run (node.apply), not before.")) from None
        raise
    expect_raises(y.backward, RuntimeError, SECOND_BACKWARD, _("a second y.backward() without retain_graph"))
    x = m.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    try:
        y.backward(retain_graph=True)
        y.backward()
    except RuntimeError as error:
        raise Wrong(_("y.backward(retain_graph=True) then y.backward() raised: {rstrip}. With "
                      "retain_graph=True the saved tensors must stay for the next backward: "
                      "Tensor.backward passes retain_graph on, and run_backward frees nothing then.")
                      .format(rstrip=str(error).rstrip('.'))) from None
    expect_close(grad_of(x), [4.0, 8.0], _("after two backward() calls through one graph, x.grad is {got}, "
                 "expected {want} (2x, twice)."))
    expect_raises(y.backward, RuntimeError, SECOND_BACKWARD,
                  _("a third y.backward(), after one without retain_graph"))
    x = m.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward(retain_graph=None)                   # PyTorch's default: None, which frees (as False does)
    expect_raises(y.backward, RuntimeError, SECOND_BACKWARD,
                  _("y.backward() after y.backward(retain_graph=None) (None is PyTorch's default, and frees "
                    "the graph as False does: test `if not retain_graph`)"))
    node = y.grad_fn.next_functions[0][0]
    expect(node.saved is None, _("after backward without retain_graph, MulBackward0 still holds its saved "
           "tensors: call node.release_saved() after each node has run."))
    # Node by node, during backward: not all at the end.
    x = m.tensor([1.0, 2.0], requires_grad=True)
    e = x.exp()
    out = (e * e).sum()
    mul_node = out.grad_fn.next_functions[0][0]
    held = []
    e.grad_fn.pre_hooks.append(lambda grad: held.append(mul_node.saved is not None))
    out.backward()
    expect(held == [False], _("for out = (e * e).sum() with e = x.exp(), when backward reached ExpBackward0, "
           "MulBackward0 (which had run already) still held its saved tensors: free what a node saved right "
           "after it has run, inside the loop, not all at the end. PyTorch frees them node by node, so the "
           "memory of a long graph goes down while backward runs."))
    # A backward that raised halfway can be run again: a node that raised keeps what it saved.
    x = m.tensor([1.0, 2.0], requires_grad=True)
    out = _fails_once(m).apply(x * x).sum()
    with contextlib.suppress(ValueError):
        out.backward()
    try:
        out.backward()
    except RuntimeError as error:
        raise Wrong(_("out = Fails.apply(x * x).sum(), where Fails' backward raises ValueError the first "
                      "time and works the second: out.backward() raised, and the second out.backward() "
                      "raised RuntimeError: {error}. PyTorch runs it: a node whose backward raised has not "
                      "run, so it keeps what it saved. Free a node's saved tensors after it ran, not in a "
                      "finally block.")
                    .format(error=str(error)[:70] + "...")) from None
    expect_close(grad_of(x), [2.0, 16.0], _("out = Fails.apply(x * x).sum(), run again after a backward that "
                 "raised halfway, gives x.grad {got}; PyTorch gives {want}."))
    return _("Saved tensors are freed after backward unless retain_graph=True, and a second backward says "
             "so.")


def _saves_none(m):
    """A Function (yours) that saves None beside its input: 2a, whose backward checks it gets None back."""
    class SavesNone(m.Function):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a, None)
            return m.Tensor(a._data * 2.0)

        @staticmethod
        def backward(ctx, grad):
            _a, nothing = ctx.saved_tensors
            if nothing is not None:
                raise TypeError(f"saved_tensors gave {nothing!r} back for None")
            return grad * 2.0
    return SavesNone


def _fails_once(m):
    """A Function (yours) that saves its input and whose backward raises ValueError the first time."""
    calls = []

    class Fails(m.Function):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            return m.Tensor(a._data * 1.0)

        @staticmethod
        def backward(ctx, grad):
            a, = ctx.saved_tensors
            if not calls:
                calls.append(True)
                raise ValueError("the first time")
            return grad * a
    return Fails


def _reentrant(m):
    """A Function (yours) whose backward runs a backward of its own, as gradient checkpointing does."""
    class Reentrant(m.Function):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            return m.Tensor(a._data * 1.0)

        @staticmethod
        def backward(ctx, grad):
            a, = ctx.saved_tensors
            previous = m.is_grad_enabled()
            m.set_grad_enabled(True)                      # (PyTorch: with torch.enable_grad())
            try:
                inner = m.tensor(a._data, requires_grad=True)
                (inner.exp() * 2.0).sum().backward()
            finally:
                m.set_grad_enabled(previous)
            return grad * m.Tensor(inner._grad._data)
    return Reentrant


def _diamond(torch):
    """A graph where two paths meet, and where edge order and creation order disagree."""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    a = x * 2                      # made first
    b = x.exp()                    # made second
    c = b * 3                      # made third, on b's path
    out = (a + c).sum()            # AddBackward0's first edge goes to a, made before c
    return x, out, {"a = x * 2": a, "b = x.exp()": b, "c = b * 3": c}


def _six_leaves(torch):
    """Pairs of leaves multiplied: each pair's two AccumulateGrads become ready together (a tie: both have
    the largest sequence number), and run in the order they arrived."""
    leaves = [torch.tensor([float(k + 1)], requires_grad=True) for k in range(6)]
    out = (leaves[5] * leaves[4] + leaves[3] * leaves[2] + leaves[1] * leaves[0]).sum()
    return leaves[0], out, {f"l{k}": leaf for k, leaf in enumerate(leaves)}


def _exp_then_tanh(torch):
    """Two branches made in one order (exp, then tanh) and joined in the other (q * p)."""
    x = torch.tensor([0.5, 1.0], requires_grad=True)
    p = x.exp()
    q = x.tanh()
    return x, (q * p).sum(), {"p = x.exp()": p, "q = x.tanh()": q}


@step("08.1", "dependency counts", "compute_dependencies in engine.py", after="06.2")
def check_dependencies(m):
    x, out, lines = _diamond(m)
    label = _labels(lines)
    nodes = walk_nodes(out.grad_fn)
    counts = m.engine.compute_dependencies(out.grad_fn)
    expect(isinstance(counts, dict), _("compute_dependencies returned a {type_name}, "
           "expected a dict {{node: count}}.").format(type_name=type(counts).__name__))
    want = {id(n): 0 for n in nodes}
    for node in nodes:
        for next_node, _input_nr in node.next_functions:
            if next_node is not None:
                want[id(next_node)] += 1
    if counts and all(isinstance(key, int) for key in counts):
        raise Wrong(_("compute_dependencies returned a dict keyed by numbers: key it by the nodes themselves "
                      "(nodes can be dict keys; the engine looks counts up by node)."))
    expect(counts.get(out.grad_fn, 0) == 0,
           _("the root has nothing pointing at it: its count is 0 (or leave it out)."))
    for node in nodes[1:]:
        got = counts.get(node, 0)
        if got != want[id(node)]:
            hint = (_(" It gets one gradient per edge pointing at it: count edges, not nodes.")
                    if want[id(node)] > 1 else "")
            raise Wrong(_("compute_dependencies gives {label} the count {got}, expected {want}.{hint}")
                          .format(label=label_shown(label(node)), got=got, want=want[id(node)], hint=hint))
    x = m.tensor([1.0, 2.0], requires_grad=True)
    a = x * 2                                        # a feeds two nodes: its node must be walked once
    shared = (a.exp() + a.tanh()).sum()
    accumulate = a.grad_fn.next_functions[0][0]
    got = m.engine.compute_dependencies(shared.grad_fn).get(accumulate)
    expect(got == 1, _("in (a.exp() + a.tanh()).sum() with a = x * 2, x's AccumulateGrad gets the count "
           "{got}, expected 1: a's node is reached twice but must be walked once "
           "(keep a set of the nodes seen).").format(got=got))
    y = m.tensor(2.0, requires_grad=True)
    counts = m.engine.compute_dependencies((y * y).grad_fn)
    accumulate = (y * y).grad_fn.next_functions[0][0]
    expect(counts.get(accumulate) == 2, _("for y * y, y's AccumulateGrad gets {get}, "
           "expected 2: y is used twice, so two gradients arrive.").format(get=counts.get(accumulate)))
    h = m.tensor(1.0, dtype=m.float64, requires_grad=True)
    for _step in range(CHAIN):
        h = h * 1.0
    deepest, compared = probe_walk(m, m.engine.compute_dependencies, 1.0)
    expect(compared <= 20 * DEPTH_PROBE, _("on a chain of {DEPTH_PROBE} multiplications, "
           "compute_dependencies compared nodes with == {compared:,} times: a list of nodes searched with "
           "`in` costs one comparison per element, so the walk takes time growing with the square of the "
           "graph. Keep the nodes seen in a set.").format(DEPTH_PROBE=DEPTH_PROBE, compared=compared))
    expect(deepest < 100, _("on a chain of {DEPTH_PROBE} multiplications, compute_dependencies nested "
           "{deepest:,} calls of your code deep: it calls itself once per node. Raising Python's recursion "
           "limit gets it through this chain, not through a deeper one (PyTorch's graphs have no depth "
           "limit): walk with a list of nodes still to visit, as PyTorch's compute_dependencies does.")
           .format(DEPTH_PROBE=DEPTH_PROBE, deepest=deepest))
    counted = len(m.engine.compute_dependencies(h.grad_fn))
    expect(counted in (CHAIN, CHAIN + 1), _("on a chain of {CHAIN:,} multiplications, "
           "compute_dependencies counts {counted} nodes, expected the {CHAIN:,} nodes below the root.")
           .format(CHAIN=CHAIN, counted=counted))
    return (_("Each node waits for one gradient per edge pointing at it; a {CHAIN:,}-op chain is counted "
              "too.")
            .format(CHAIN=CHAIN))


CHAIN = 10_000     # operations: 10 times Python's limit on nested calls, so a recursive walk fails


WIDTH = 3_000      # products summed: the ready queue holds them all at once


COUNTED_WIDTH = 500          # products summed for the count of comparisons
COMPARISONS_PER_NODE = 100   # the answer key's heap of 500: 46 per node; a sort or a scan: 1,000 and more


def _wide_sum(m, width):
    """x * 0.0 + x * 1.0 + ... for ``width`` products of one leaf, the products made first: in backward the
    additions run first, and the products wait in the ready queue, which grows to ``width`` nodes."""
    x = m.tensor(1.0, requires_grad=True)
    terms = [x * float(i) for i in range(width)]
    out = terms[0]
    for term in terms[1:]:
        out = out + term
    return out


def _order_comparisons(m, width):
    """How often out.backward() compares sequence numbers on a sum of ``width`` products of one leaf (its
    ready queue holds them all at once), stopped past COMPARISONS_PER_NODE per node; None if the numbers
    cannot be counted."""
    out = _wide_sum(m, width)
    compared = count_order_comparisons(out.grad_fn, COMPARISONS_PER_NODE * width)
    if compared is None:
        return None
    with contextlib.suppress(TooManyWalks):
        out.backward()
    return compared[0]


def _backward_times(m, width):
    """CPU seconds of out.backward() on a sum of ``width`` products of one leaf (the additions run first, and
    the products wait in the ready queue: it grows to ``width`` nodes), and on a chain of as many nodes (the
    queue holds one): a heap takes about as long on both, a queue sorted or scanned at each step far
    longer."""
    def timed(out):
        collecting = gc.isenabled()
        gc.disable()                                 # (a collection in one run and not the other: noise)
        try:
            start = time.process_time()
            out.backward()
            return time.process_time() - start
        finally:
            if collecting:
                gc.enable()

    wide = _wide_sum(m, width)
    chain = m.tensor(1.0, requires_grad=True)
    for _step in range(width - 1):
        chain = chain * 1.0 + 0.0
    return timed(wide), timed(chain * 1.0)


def _labels(lines):
    """``label(node)`` for record_order: a node named with the line of ``lines`` ({line: tensor}) that made it
    (two nodes can share a name: "MulBackward0 of `a = x * 2`"), as the random programs name them."""
    made_by = {line: line for line in lines}
    return lambda node: node_label(node, lines, made_by)


def _mine_order(m, out, lines):
    names = record_order(out, learner_prehook, label=_labels(lines))
    out.backward()
    return names


def _expect_reference_order(m, build, message):
    """Your engine runs ``build(m)``'s graph in mini_autograd's order, or ``message`` (with ``{order}`` and
    ``{want}``) says how it differs."""
    _x, out, lines = build(m)
    order = _mine_order(m, out, lines)
    want = reference_order(build)
    expect(order == want, message.format(order=labels_shown(order), want=labels_shown(want)))


def reference_order(build):
    """The order mini_autograd's engine runs the nodes of ``build(mini_autograd)``'s graph."""
    return engine_order(reference(), build)


def engine_order(torch, build):
    """The order in which ``torch`` (mini_autograd or PyTorch) runs the nodes of ``build(torch)``'s graph."""
    _x, out, lines = build(torch)
    names = record_order(out, reference_prehook, label=_labels(lines))
    out.backward()
    return names


@step("08.2", "PyTorch's engine: ready queue and input buffers", "run_backward in engine.py",
      uses={"engine.run_backward": "compute_dependencies"})
def check_ready_queue(m):
    x, out, lines = _diamond(m)
    order = _mine_order(m, out, lines)
    want = reference_order(_diamond)
    if order != want:
        fifo = ["SumBackward0", "AddBackward0", "MulBackward0", "MulBackward0", "ExpBackward0",
                "AccumulateGrad"]                        # (a's, then c's MulBackward0)
        if len(order) > len(want):
            hint = (_(" Some node ran more than once: a node joins the ready queue only when its dependency "
                      "count reaches 0."))
        elif [name.split(" of ")[0] for name in order] == fifo:
            hint = (_(" That is first-in-first-out (or oldest-first) order: the ready queue must pop the "
                      "newest node first, the highest sequence_nr (heapq with -sequence_nr)."))
        elif sorted(order) == sorted(want):
            hint = (_(" The same nodes in another order: of the ready nodes, the one with the highest "
                      "sequence_nr (the newest) runs first; heapq pops the smallest, so push -sequence_nr."))
        else:
            hint = ""
        raise Wrong(_("on the diamond graph your engine ran {order}; "
                      "mini_autograd and PyTorch run {want}.{hint}")
                      .format(order=labels_shown(order), want=labels_shown(want), hint=hint))
    expect_close(grad_of(x), 2 + 3 * np.exp([1.0, 2.0]),
                 _("on the diamond graph x.grad is {got}, expected {want}."))
    _expect_reference_order(m, _exp_then_tanh, _(
        "for p = x.exp(); q = x.tanh(); out = (q * p).sum() your engine ran {order}; "
        "mini_autograd and PyTorch run {want}: of the ready nodes the newest (highest sequence_nr) "
        "runs first, whatever order they became ready in, so the queue must be a priority queue "
        "(heapq), not a list used as a stack."))
    _expect_reference_order(m, _six_leaves, _(
        "for out = (l5 * l4 + l3 * l2 + l1 * l0).sum() your engine ran {order}; "
        "mini_autograd runs {want}: each product makes its two AccumulateGrads ready at once, with the "
        "same sequence_nr, and the tie goes to the one that arrived first (the arrival number after "
        "-sequence_nr in the heap's tuples, not id(node), not a count that goes down)."))
    x = m.tensor(2.0, requires_grad=True)
    y = x * x
    (y * y).backward()
    expect_close(grad_of(x), 4 * 2.0 ** 3, _("for (x*x)*(x*x) at x = 2, x.grad is {got}, expected {want}: "
                 "the gradients of both uses must be added in the input buffer before the node runs."))
    # A Function whose backward returns None: every edge counts, None or not.
    x = m.tensor(1.0, requires_grad=True)
    y = x * 3
    out = blocking_function(m).apply(y) + y
    out.backward()
    expect_close(grad_of(x), 3.0, _("for y = x * 3; out = Block.apply(y) + y, where Block's backward returns "
                 "None, x.grad is {got}; PyTorch gives {want}. Two edges point at y's node, and one of them "
                 "carries None: it still counts. Take one off the node's count for every edge, whatever "
                 "its gradient, and run a node whose count reaches 0 even if only None arrived (it passes "
                 "None on)."))
    # A node that only None reached takes its turn too, and frees what it saved after it.
    x = m.tensor([1.0, 2.0], requires_grad=True)
    e = x.exp()
    blocking_function(m).apply(e).sum().backward()
    expect(e.grad_fn.saved is None, _("for e = x.exp(); Block.apply(e).sum().backward(), where Block's "
           "backward returns None, ExpBackward0 (which only None reached) still holds its saved tensors "
           "afterwards. PyTorch runs such a node too, with no gradient, and frees what it saved right "
           "after, as after any node's turn: free after every node the queue pops (unless "
           "retain_graph), not only after node.apply."))
    # ... and, before anything else, it unpacks what it saved, as PyTorch's nodes do: changed, it raises.
    a, b = m.tensor([1.0, 2.0], requires_grad=True), m.tensor([3.0, 4.0], requires_grad=True)
    out = blocking_function(m).apply(a * b).sum()
    with m.no_grad():
        b.add_(1.0)
    expect_raises(out.backward, RuntimeError, "one of the variables needed for gradient computation has been "
                  "modified by an inplace operation",
                  _("for out = Block.apply(a * b).sum(), where Block's backward returns None, then "
                    "b.add_(1.0) under no_grad, out.backward() (MulBackward0 saved b, and only None reaches "
                    "it: PyTorch runs it anyway, and it unpacks what it saved before anything else; call "
                    "node.unpack_saved() on a node that only None reached)"))
    # ... and its pre-hooks run, called with None, which none of them may replace.
    x = m.tensor(1.0, requires_grad=True)
    a = x * 2.0
    seen = []
    a.grad_fn.pre_hooks.append(lambda grad: seen.append(grad))
    blocking_function(m).apply(a).backward()
    expect(seen == [None], _("for a = x * 2.0, with a pre-hook on a.grad_fn that notes what it gets, "
           "Block.apply(a).backward(), where Block's backward returns None: the hook saw {seen}. PyTorch "
           "calls it once, with None (its hooks get (None,)): a node that only None reached runs its "
           "pre-hooks too, then passes None on.").format(seen=seen))
    a = m.tensor(1.0, requires_grad=True) * 2.0
    a.grad_fn.pre_hooks.append(lambda grad: m.tensor(5.0))
    expect_raises(blocking_function(m).apply(a).backward, RuntimeError,
                  "can't replace a None gradient with a non-None value",
                  _("for a = x * 2.0, with a pre-hook on a.grad_fn that returns tensor(5.), "
                    "Block.apply(a).backward(), where Block's backward returns None, so only None reaches "
                    "a.grad_fn"))
    # A backward inside a backward (gradient checkpointing): the engine's state is its own call's.
    x = m.tensor([1.0, 2.0], requires_grad=True)
    out = (_reentrant(m).apply(x * 3.0) * x).sum()
    want = 6 * np.array([1.0, 2.0]) * np.exp([3.0, 6.0]) + 3 * np.array([1.0, 2.0])
    try:
        out.backward()
    except Exception as error:
        raise Wrong(_("out = (Reentrant.apply(x * 3.0) * x).sum(), where Reentrant's backward runs a "
                      "backward of its own (as gradient checkpointing does): out.backward() raised "
                      "{error_type}: {error}. PyTorch gives x.grad {want}. Keep the engine's state (counts, "
                      "buffers, the queue) in run_backward's local variables, not in the module: a backward "
                      "can start another one before it ends.")
                    .format(error_type=type(error).__name__, error=error, want=show(want))) from None
    expect_close(grad_of(x), want, _("out = (Reentrant.apply(x * 3.0) * x).sum(), where Reentrant's backward "
                 "runs a backward of its own (as gradient checkpointing does), gives x.grad {got}; PyTorch "
                 "gives {want}. Keep the engine's state in run_backward's local variables: a backward can "
                 "start another one before it ends."))
    expect(m.is_grad_enabled(), _("after out.backward(), where Reentrant's backward runs a backward of its "
           "own, recording is off: keep the value to put back in a local variable of run_backward, not in "
           "the module (the inner backward overwrote it with its own, False)."))
    check_shared_graph(m, lambda m, h: h.backward(), "run_backward")
    check_graph_from_another_thread(m, lambda m, out: out.backward())
    deepest = probe_run(m, lambda m, out: out.backward())
    expect(deepest < 100, _("on a chain of {DEPTH_PROBE} additions, out.backward() nested {deepest:,} calls "
           "of your code deep: something in run_backward calls itself once per node. Raising Python's "
           "recursion limit gets it through this chain, not through a deeper one (PyTorch's graphs have no "
           "depth limit): pop nodes from the ready queue in a loop until it is empty.")
           .format(DEPTH_PROBE=DEPTH_PROBE, deepest=deepest))
    h = x = m.tensor(1.0, dtype=m.float64, requires_grad=True)
    for _step in range(CHAIN):
        h = h + 1.0                                  # (additions: the cheapest nodes to make and run)
    h.backward()
    expect_close(grad_of(x), 1.0,
                 _("on a chain of {CHAIN:,} operations, x.grad is {{got}}, expected {{want}}.")
                 .format(CHAIN=CHAIN))
    # What the engine holds, it lets go of: an input buffer once its node has run, everything once backward
    # returns (PyTorch frees both by reference counting, with no garbage collector).
    x = m.tensor([1.0, 2.0], requires_grad=True)
    a = x * 2.0
    b = a * 3.0
    seen = {}
    b.grad_fn.pre_hooks.append(lambda grad: seen.update(weak_references(b=grad)))
    a.grad_fn.pre_hooks.append(lambda grad: seen.update(alive="b" in seen and seen["b"]() is not None))
    b.sum().backward()
    expect(not seen.get("alive"), _("a = x * 2.0; b = a * 3.0; b.sum().backward(): when a.grad_fn runs, "
           "the gradient that arrived at b.grad_fn is still alive. PyTorch frees a node's input buffer as "
           "soon as the node has run: take it out of the dict (buffers.pop), so that the engine holds no "
           "gradient it is done with."))
    alive = left_alive(m, backward=True)
    expect(not alive, _("x = tensor([1., 2.], requires_grad=True); y = x * 2.0; out = (y * y).sum(); "
           "out.backward(), all in a function that then returns: {alive} still alive; in PyTorch all of it "
           "is gone at once. Does run_backward keep a tensor or a node somewhere (on the root node, on the "
           "module)?").format(alive=", ".join(alive)))
    compared = _order_comparisons(m, COUNTED_WIDTH)
    limit = COMPARISONS_PER_NODE * COUNTED_WIDTH
    expect(compared is None or compared <= limit, _("out = x * 0.0 + x * 1.0 + ... + x * {last}.0 ({width:,} "
           "products: the ready queue grows to {width:,} nodes): out.backward() compared the nodes' sequence "
           "numbers more than {limit:,} times ({per_node} per node would do): "
           "the ready queue is sorted, heapified or searched at each step, which costs a time growing with "
           "its length. PyTorch's ready queue is a heap: use heapq.heappush and heapq.heappop only.")
           .format(last=COUNTED_WIDTH - 1, width=COUNTED_WIDTH, limit=limit, per_node=COMPARISONS_PER_NODE))
    wide, deep = _backward_times(m, WIDTH)
    if wide > 4 * deep + 0.02:                       # (measured again before it counts: a busy moment)
        wide, deep = _backward_times(m, WIDTH)
    expect(wide <= 4 * deep + 0.02, _("out = x * 0.0 + x * 1.0 + ... + x * {last}.0 ({width:,} products: "
           "the ready queue grows to {width:,} nodes): out.backward() took {wide:.2f} s of CPU, {ratio:.1f} "
           "times as long as on a chain of as many nodes ({deep:.2f} s). Each push and pop of PyTorch's "
           "ready queue, a heap, costs a time growing with the logarithm of its length: use "
           "heapq.heappush and heapq.heappop only, with no sort, heapify or scan of the queue at each "
           "step.").format(last=WIDTH - 1, width=WIDTH, wide=wide, deep=deep, ratio=wide / max(deep, 1e-9)))
    return (_("Your engine runs nodes in PyTorch's order (newest ready node first), with input buffers, "
              "None gradients and {CHAIN:,} ops too.").format(CHAIN=CHAIN))
