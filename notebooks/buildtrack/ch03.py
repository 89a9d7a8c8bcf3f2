"""Checks of chapter 03: backward formulas, a first engine, Tensor.backward."""
import contextlib

import numpy as np

from ._testing import (DEPTH_PROBE, TooManyWalks, blocking_function, count_edge_reads, doubling_graph,
                       expect, expect_close, expect_raises, grad_of, in_new_thread, numeric_vjp, probe_run,
                       probe_walk, recording_off, reference, show, values)
from .package import Wrong
from .steps import step
from .i18n import N_, _

RNG = np.random.default_rng(3)
A = RNG.uniform(0.5, 1.5, (2, 3))
B = RNG.uniform(0.5, 1.5, (2, 3))
M = RNG.uniform(-1, 1, (3, 2))
UP = RNG.uniform(-2, 2, (2, 3))          # a gradient arriving from upstream, not all ones

# name, how to call it on tensors (the learner's, or mini_autograd's for finite differences),
# inputs, the upstream gradient
FORMULAS = [
    ("Add", lambda a, b: a + b, (A, B), UP),
    ("Mul", lambda a, b: a * b, (A, B), UP),
    ("Pow", lambda a: a ** 3, (A,), UP),
    ("Pow", lambda a: a ** 0, (A * [[0, 1, 1], [1, 0, 1]],), UP),     # c = 0, and a = 0 at two entries
    ("Pow", lambda a: a ** 2, (A * [[0, 1, 1], [1, 0, 1]],), UP),     # a = 0 at two entries
    ("Exp", lambda a: a.exp(), (A,), UP),
    ("Sum", lambda a: a.sum(), (A,), np.array(1.7)),
    ("Mean", lambda a: a.mean(), (A,), np.array(1.7)),
    ("MatMul", lambda a, b: a @ b, (A, M), RNG.uniform(-2, 2, (2, 2))),
]

MISTAKES = {   # what a formula's numbers look like for a typical mistake -> what to say
    "upstream": N_("it ignores grad, the gradient arriving from upstream: multiply by it (the chain rule)."),
    "zeros": N_("it gives all zeros."),
    "Mean": N_("it is off by a factor of n = 6: divide by the number of entries."),
    "Pow": N_("it looks like c * a ** c: in the derivative of a ** c, the power goes down by one."),
    "Pow0": N_("for a ** 0 at a = 0 the formula c * a ** (c - 1) gives 0 * 0 ** -1 = 0 * inf = nan. "
             "a ** 0 is the constant 1, whose gradient is 0 everywhere: for c = 0 return zeros shaped "
             "like a, as PyTorch's pow_backward does."),
    "Pow at 0": N_("for a ** 2 at a = 0 it gives nan where the gradient is 0: a formula that divides by a "
                   "(a ** c / a) gives 0 / 0 there. Write c * a ** (c - 1), as PyTorch's pow_backward does."),
    "Pow0 nonfinite": N_(" a ** 0 is the constant 1: its gradient is zeros whatever arrives from upstream, "
                         "and grad * 0 is not zeros where grad is inf or nan (inf * 0 = nan). Return zeros "
                         "shaped like a, as PyTorch's pow_backward does."),
}


def _run_formula(m, name, make, inputs, upstream, dtype="float64"):
    """The learner's backward for one op, called directly on its node, with recording off."""
    tensors = [m.tensor(a, dtype=getattr(m, dtype), requires_grad=True) for a in inputs]
    out = make(*tensors)
    grad = m.tensor(upstream, dtype=getattr(m, dtype))
    given = grad._data.copy()
    try:
        with recording_off(m):
            grads = out.grad_fn.apply(grad)
    except NotImplementedError:
        raise
    except RuntimeError as error:
        raise Wrong(f"{name}.backward: {error}") from None
    except ValueError as error:                   # numpy refused to multiply the shapes
        raise Wrong(_("{name}.backward: the shapes do not fit ({error}). For out = a @ b with a of shape "
                      "[n, k] and b of shape [k, m], grad has shape [n, m]: grad @ bᵀ is [n, k], aᵀ @ grad "
                      "is [k, m].").format(name=name, error=error)) from None
    if not np.array_equal(grad._data, given, equal_nan=True):
        raise Wrong(_("{name}.backward changed the gradient it was given, in place: the engine hands the "
                      "same gradient tensor to several nodes (Add passes it to both inputs), so a backward "
                      "must compute new tensors (grad * ...) and leave grad as it was.").format(name=name))
    return grads


def _check_dtypes(m, name, make, inputs, upstream):
    """A float32 input gets a float32 gradient, as in PyTorch."""
    grads = _run_formula(m, name, make, inputs, upstream, dtype="float32")
    for index, grad in enumerate(grads):
        if grad is not None and str(grad._data.dtype) != "float32":
            raise Wrong(_("{name}.backward gives a float32 input a {grad_dtype} gradient: make any "
                          "new array with the gradient's dtype (np.ones(shape, dtype=grad._data.dtype)), "
                          "as PyTorch keeps a gradient in its input's dtype (input {index}).")
                          .format(name=name, grad_dtype=grad._data.dtype, index=index))


def _check_formula(m, name, make, inputs, upstream):
    grads = _run_formula(m, name, make, inputs, upstream)
    for index, (grad, a) in enumerate(zip(grads, inputs, strict=True)):
        which = _("{name}.backward, the gradient for input {index}").format(name=name, index=index)
        if grad is not None and not isinstance(grad, m.Tensor):
            raise Wrong(_("{which} is a {type_name}: return Tensors, written with Tensor "
                          "operations (grad * ctx.b).").format(which=which, type_name=type(grad).__name__))
        want = numeric_vjp(make, inputs, upstream, index)
        expect(grad is not None, _("{which} is None; it is needed.").format(which=which))
        got = values(grad)
        if got.shape != want.shape:
            raise Wrong(_("{which} has shape {got_shape}, expected {want_shape}, the shape of "
                          "that input: each entry of the input gets its own gradient.")
                          .format(which=which, got_shape=list(got.shape), want_shape=list(want.shape)))
        if np.allclose(got, want, rtol=1e-4, atol=1e-5):
            continue
        ones = np.ones_like(upstream)
        if np.allclose(got, numeric_vjp(make, inputs, ones, index), rtol=1e-4, atol=1e-5):
            hint = _(MISTAKES["upstream"])
        elif np.allclose(got, 0):
            hint = _(MISTAKES["zeros"])
        elif name == "Mean" and np.allclose(got, want * a.size):
            hint = _(MISTAKES["Mean"])
        elif name == "Pow" and np.allclose(got, upstream * 3 * a ** 3):
            hint = _(MISTAKES["Pow"])
        elif name == "Pow" and np.any(np.isnan(got)) and not np.any(np.isnan(want)) and np.all(want == 0):
            hint = _(MISTAKES["Pow0"])
        elif name == "Pow" and np.any(np.isnan(got)) and not np.any(np.isnan(want)):
            hint = _(MISTAKES["Pow at 0"])
        else:
            hint = _("compare with the derivative by hand.")
        raise Wrong(_("{which} is wrong: got {got}, expected {want} (finite differences); {hint}")
                    .format(which=which, got=show(got), want=show(want), hint=hint))


NONFINITE = np.array([np.inf, np.nan, -0.0, -np.inf])


def _nonfinite_upstreams(upstream):
    """Upstream gradients with inf, nan, -0.0 and -inf among their entries (one at a time for a scalar)."""
    upstream = np.asarray(upstream, dtype=float)
    if upstream.ndim == 0:
        return [np.array(value) for value in NONFINITE]
    flat = upstream.ravel().copy()
    flat[:len(NONFINITE)] = NONFINITE[:flat.size]
    return [flat.reshape(upstream.shape)]


def _check_nonfinite(m, name, make, inputs, upstream):
    """inf and nan arriving from upstream go where PyTorch sends them: the same entries, the same values."""
    ref = reference()
    for arriving in _nonfinite_upstreams(upstream):
        grads = _run_formula(m, name, make, inputs, arriving)
        tensors = [ref.tensor(a, dtype=ref.float64, requires_grad=True) for a in inputs]
        make(*tensors).backward(ref.tensor(arriving, dtype=ref.float64))
        for index, (grad, tensor) in enumerate(zip(grads, tensors, strict=True)):
            got, want = values(grad), values(tensor.grad)
            if got is not None and got.shape == want.shape and np.allclose(got, want, equal_nan=True):
                continue
            hint = _(MISTAKES["Pow0 nonfinite"]) if name == "Pow" and np.all(want == 0) else ""
            raise Wrong(_("{name}.backward, for the upstream gradient {arriving}, gives input {index} the "
                          "gradient {got}; mini_autograd and PyTorch give {want}.{hint}")
                        .format(name=name, arriving=show(arriving), index=index,
                                got="None" if got is None else show(got), want=show(want), hint=hint))


@step("03.1", "backward formulas", "the backward of Add, Mul, Pow, Exp, Sum, Mean, MatMul in ops.py")
def check_formulas(m):
    unwritten = []
    for name, make, inputs, upstream in FORMULAS:
        try:
            _check_formula(m, name, make, inputs, upstream)
            _check_dtypes(m, name, make, inputs, upstream)
            _check_nonfinite(m, name, make, inputs, upstream)
        except NotImplementedError as error:
            if not str(error).startswith("Step 03.1"):
                raise
            unwritten.append(f"{name}.backward")
    if unwritten:
        raise NotImplementedError(f"Step 03.1: {', '.join(unwritten)}")
    return _("All seven formulas agree with finite differences, for an upstream gradient that is not all "
             "ones.")


def _engine_backward(m, out):
    m.engine.run_backward(out, m.ones_like(out))


def _seed(torch):
    x = torch.ones(2, 2, requires_grad=True)
    y = x + 2
    return x, (y * y * 3).mean()


@step("03.2", "a first engine",
      "topological_order, run_backward in engine.py; AccumulateGrad.apply in function.py")
def check_engine(m):
    # The order itself: every node once, each before the nodes it sends gradients to.
    x = m.tensor([1.0, 2.0], requires_grad=True)
    a = x * 2
    b = a * 3
    out = (a + b).sum()                     # a reaches the sum directly and through b
    order = m.engine.topological_order(out.grad_fn)
    expect(isinstance(order, list), _("topological_order returned a {type_name}, expected a list.")
           .format(type_name=type(order).__name__))
    expect(order and order[0] is out.grad_fn, _("topological_order must start with the root, out.grad_fn."))
    expect(len(order) == len({id(n) for n in order}), _("topological_order lists a node twice: each node "
                                                        "once."))
    expect(len(order) == 5, _("topological_order found {count} nodes, expected 5 "
           "(SumBackward0, AddBackward0, two MulBackward0, AccumulateGrad): "
           "follow every edge in next_functions.").format(count=len(order)))
    _check_before(order)

    # The seed example: 4.5, with the two paths of y * y added.
    x, out = _seed(m)
    _engine_backward(m, out)
    got = grad_of(x)
    if got is not None and np.allclose(values(got), 2.25):
        raise Wrong(_("x.grad is 2.25, expected 4.5: where two paths meet (y * y uses y twice) the gradients "
                      "must be added, not overwritten."))
    expect_close(got, np.full((2, 2), 4.5), _("seed example: x.grad is {got}, expected {want}."))
    expect(m.is_grad_enabled(), _("after backward, recording is still off: put the old value back "
                                  "(finally)."))
    # Broadcasting: b of shape [3] was added to every row of x.
    x = m.tensor(np.arange(6.0).reshape(2, 3), requires_grad=True)
    b = m.tensor([1.0, 2.0, 3.0], requires_grad=True)
    _engine_backward(m, ((x + b) * x).sum())
    got = grad_of(b)
    if got is not None and values(got).shape == (2, 3):
        raise Wrong(_("b.grad has shape [2, 3], expected [3]: b was broadcast over the rows of x, so its "
                      "gradient must be summed back, sum_to(grad, node.input_shapes[i])."))
    expect_close(got, np.arange(6.0).reshape(2, 3).sum(0),
                 _("b.grad for (x + b) * x is {got}, expected {want}."))

    # Hooks on a node: called once, with the summed gradient, and able to change it.
    x, out = _seed(m)
    y_node = out.grad_fn.next_functions[0][0].next_functions[0][0].next_functions[0][0]   # AddBackward0
    seen, recorded = [], []
    y_node.pre_hooks.append(
        lambda grad: seen.append(values(grad)) or recorded.append(grad.grad_fn) or grad * 10)
    _engine_backward(m, out)
    if recorded and recorded[0] is not None:
        raise Wrong(_("the gradient arriving at AddBackward0 has a grad_fn ({recorded_name}): "
                      "your engine recorded the backward formulas. Run them with recording off "
                      "(grad_mode._state.grad_enabled = False).").format(recorded_name=recorded[0].name()))
    expect(len(seen) == 1, _("the hook in AddBackward0.pre_hooks was called {count} times, "
           "expected once, with the gradient summed over both paths.").format(count=len(seen)))
    expect(np.allclose(seen[0], 4.5), _("the hook got {seen}, expected 4.5 everywhere: "
           "call hooks once all gradients for the node have been added.").format(seen=show(seen[0])))
    expect_close(grad_of(x), np.full((2, 2), 45.0), _("a hook returning grad * 10 must change what flows on: "
                 "x.grad is {got}, expected {want}."))

    # The hooks run with recording off too: PyTorch's engine switches it off for the whole backward.
    x = m.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2.0
    modes = []
    y.grad_fn.pre_hooks.append(lambda grad: modes.append(m.is_grad_enabled()))
    _engine_backward(m, y.sum())
    expect(modes == [False], _("for y = x * 2.0, a pre-hook on y.grad_fn that notes is_grad_enabled() saw "
           "{modes}; in PyTorch it sees [False]: switch recording off once, around the whole loop over the "
           "nodes (hooks included), not only around node.apply.").format(modes=modes))
    # A backward started inside a backward (from a hook here; from a Function's backward in checkpointing).
    w = m.tensor([1.0], requires_grad=True)
    inner = (w * 2.0).sum()
    y = m.tensor([1.0], requires_grad=True) * 3.0
    y.grad_fn.pre_hooks.append(lambda grad: _engine_backward(m, inner))
    _engine_backward(m, y.sum())
    expect(m.is_grad_enabled(), _("after a backward whose hook ran another backward, recording is off: keep "
           "the value to put back in a local variable of run_backward, not in the module (the inner "
           "backward overwrote it with its own, False)."))

    # Recording is put back as it was: after a hook raised, and when backward ran with recording off.
    x, out = _seed(m)
    out.grad_fn.pre_hooks.append(lambda grad: 1 / 0)
    with contextlib.suppress(ZeroDivisionError):
        _engine_backward(m, out)
    expect(m.is_grad_enabled(), _("a hook raised an error during backward, and afterwards recording is still "
           "off: put the old value back in a finally block, so that it happens even after an error."))
    x, out = _seed(m)
    m.grad_mode._state.grad_enabled = False
    try:
        _engine_backward(m, out)
        still_off = not m.is_grad_enabled()
    finally:
        m.grad_mode._state.grad_enabled = True
    expect(still_off, _("backward ran with recording off (inside no_grad, say), and afterwards recording is "
           "on: put back the value it had before backward, not True."))

    # Gradients that meet are added into a new tensor: Add hands one tensor to both its inputs.
    p, q = m.tensor(1.0, requires_grad=True), m.tensor(1.0, requires_grad=True)
    u, v = p * 2, q * 3
    s = u + v
    _engine_backward(m, s + u)                        # u: from s + u, and through s
    if grad_of(q) is not None and np.allclose(values(grad_of(q)), 6.0):
        raise Wrong(_("for u = p * 2; v = q * 3; s = u + v; out = s + u, q.grad is 6; PyTorch gives 3. The "
                      "gradient arriving at u's node was added in place into the one already there, and that "
                      "tensor was the same one Add handed to s's node, and then to v's: add into a new "
                      "tensor, next_grad + buffers[next_node], never with +=."))
    expect_close(grad_of(q), 3.0, _("for u = p * 2; v = q * 3; s = u + v; out = s + u, q.grad is {got}; "
                 "PyTorch gives {want}."))
    expect_close(grad_of(p), 4.0, _("for u = p * 2; v = q * 3; s = u + v; out = s + u, p.grad is {got}; "
                 "PyTorch gives {want}: u gets a gradient from both paths."))

    # Two leaves fed the same gradient tensor by Add must not share one .grad.
    a = m.tensor(1.0, requires_grad=True)
    b = m.tensor(2.0, requires_grad=True)
    _engine_backward(m, a + b)
    expect(grad_of(a) is not grad_of(b), _("a.grad and b.grad are the same tensor: Add hands the same "
           "gradient to both inputs, so AccumulateGrad must store a copy (Tensor(grad._data.copy()))."))

    # A Function whose backward sends None: the node below it gets no gradient from it.
    block = blocking_function(m)
    x = m.tensor(1.0, requires_grad=True)
    a = x * 2
    out = block.apply(a * 1.0) + a              # a * 1.0's node receives only None
    try:
        _engine_backward(m, out)
    except (KeyError, AttributeError, TypeError) as error:
        raise Wrong(_("for a = x * 2; out = Block.apply(a * 1.0) + a, where Block's backward returns None, "
                      "your engine raised {type_name}: {error}. A node that no gradient reached "
                      "(only None was sent to it) has nothing to pass on: skip it.")
                      .format(type_name=type(error).__name__, error=error)) from None
    expect_close(grad_of(x), 2.0, _("for a = x * 2; out = Block.apply(a * 1.0) + a, where Block's backward "
                 "returns None, x.grad is {got}; PyTorch gives {want}: the gradient that reaches a directly "
                 "still counts."))

    x = m.tensor([1.0, 1.0], requires_grad=True)
    y = x * 2
    y.grad_fn.next_functions[0][0].pre_hooks.append(lambda g: g * 10)
    _engine_backward(m, y.sum())
    expect_close(grad_of(x), [20.0, 20.0], _("y = x * 2; a pre-hook that multiplies by 10 on x's "
                 "AccumulateGrad (y.grad_fn.next_functions[0][0]); backward from y.sum() gives x.grad {got}, "
                 "expected {want}: the engine runs every node's pre-hooks, an AccumulateGrad's too."))
    check_shared_graph(m, lambda m, h: m.engine.topological_order(h.grad_fn), "topological_order")
    check_shared_graph(m, _engine_backward, "run_backward")
    check_graph_from_another_thread(m, _engine_backward, m.engine.topological_order)

    # A chain of 10,000 operations: no recursion, in the walk or in the run. (Additions: the cheapest
    # nodes to make and run, so that the check's time goes on what it checks.)
    x = m.tensor(1.0, dtype=m.float64, requires_grad=True)
    h = x
    for _step in range(10_000):
        h = h + 1.0
    deepest, compared = probe_walk(m, m.engine.topological_order, 1.0001)
    expect(compared <= 20 * DEPTH_PROBE, _("on a chain of {DEPTH_PROBE} multiplications, topological_order "
           "compared nodes with == {compared:,} times: a list of nodes searched with `in` costs one "
           "comparison per element, so the walk takes time growing with the square of the graph (a "
           "40,000-op chain: seconds instead of milliseconds). Keep the nodes seen in a set.")
           .format(DEPTH_PROBE=DEPTH_PROBE, compared=compared))
    expect(deepest < 100, _("on a chain of {DEPTH_PROBE} multiplications, topological_order nested "
           "{deepest:,} calls of your code deep: it calls itself once per node. Raising Python's recursion "
           "limit gets it through this chain, not through a deeper one (PyTorch's graphs have no depth "
           "limit): walk with a list of nodes still to visit.")
           .format(DEPTH_PROBE=DEPTH_PROBE, deepest=deepest))
    deepest = probe_run(m, _engine_backward)
    expect(deepest < 100, _("on a chain of {DEPTH_PROBE} additions, run_backward nested {deepest:,} calls of "
           "your code deep: something calls itself once per node. Raising Python's recursion limit gets it "
           "through this chain, not through a deeper one (PyTorch's graphs have no depth limit): run the "
           "nodes in a loop over topological_order's list.")
           .format(DEPTH_PROBE=DEPTH_PROBE, deepest=deepest))
    expect(len(m.engine.topological_order(h.grad_fn)) == 10_001, _("topological_order of a chain of 10,000 "
           "operations must list 10,001 nodes (and the AccumulateGrad)."))
    _engine_backward(m, h)
    expect_close(grad_of(x), 1.0, _("the 10,000-op chain gives x.grad {got}, expected {want}."))
    return (_("Paths meet and add up (4.5), broadcasting is summed away, hooks see the summed gradient, "
              "and a 10,000-op chain runs."))


DOUBLINGS = 30         # h = h + h, 30 times: 33 nodes, but 2 ** 30 paths from the root to x


def check_shared_graph(m, backward, pieces):
    """Heavy sharing: each node once, not once per path. A walk without a set of the nodes seen still gets
    the right numbers, in exponential time (24 doublings took 8.7 s; PyTorch's engine, microseconds)."""
    x, h = doubling_graph(m, DOUBLINGS)
    reads = count_edge_reads(h.grad_fn, budget=20 * (DOUBLINGS + 3))
    try:
        result = backward(m, h)
    except TooManyWalks:
        raise Wrong(_("for h = x * 1.0, then h = h + h {times} times (a graph of {nodes} nodes, with 2 ** "
                      "{times} paths from h to x), {pieces} read the nodes' next_functions more than "
                      "{reads:,} times, and would go on for about 2 ** {times}: a node is walked once per "
                      "path that reaches it. Keep a set of the nodes already visited, and walk each node "
                      "once.")
                    .format(times=DOUBLINGS, nodes=DOUBLINGS + 3, pieces=pieces,
                            reads=reads[0] - 1)) from None
    if result is not None:                     # topological_order's list: nothing was run
        return
    expect_close(grad_of(x), 2.0 ** DOUBLINGS, _("for h = x * 1.0, then h = h + h {times} times, x.grad is "
                 "{{got}}, expected 2 ** {times} = {{want}}.").format(times=DOUBLINGS))


def _check_before(order):
    """Each node of ``order`` (a topological_order) comes after every node that sends it a gradient."""
    position = {id(n): i for i, n in enumerate(order)}
    for node in order:
        for next_node, _input_nr in node.next_functions:
            if next_node is not None and position.get(id(next_node), -1) < position[id(node)]:
                raise Wrong(_("topological_order lists {next_node_name} before {node_name}, "
                              "which sends it a gradient: a node must come after every node that feeds it, "
                              "or it runs before all of its gradients have arrived.")
                              .format(next_node_name=next_node.name(), node_name=node.name()))


def check_graph_from_another_thread(m, backward, topological_order=None):
    """Part of the graph made in another thread, whose sequence numbers start again from 0: the order must
    come from the edges, not from when (or where) the nodes were made."""
    for _node in range(3):
        m.tensor(1.0, requires_grad=True) * 2.0         # this thread has made nodes before a's
    x = m.tensor([1.0, 2.0], requires_grad=True)
    a = x * 2                                           # this thread: a higher sequence_nr
    c = in_new_thread(lambda: a.exp() * 3)              # another thread: sequence_nr 0 and 1
    out = (c + a).sum()
    if topological_order is not None:
        order = topological_order(out.grad_fn)
        try:
            _check_before(order)
        except Wrong as error:
            raise Wrong(_("for a = x * 2; c = a.exp() * 3 made in another thread; out = (c + a).sum(): "
                          "{error} Each thread numbers the nodes it makes from 0 (sequence_nr), so c's nodes "
                          "have lower numbers than a's though they come after it: the order must come from "
                          "the edges, not from sequence_nr.").format(error=error)) from None
    backward(m, out)
    want = 6 * np.exp(2 * np.array([1.0, 2.0])) + 2
    expect_close(grad_of(x), want, _("for a = x * 2; c = a.exp() * 3 made in another thread; out = (c + "
                 "a).sum(), x.grad is {got}; PyTorch gives {want}. Each thread numbers the nodes it makes "
                 "from 0 (sequence_nr), so c's nodes have lower numbers than a's though they come after it: "
                 "the order of a first engine must come from the edges (a node after every node that sends "
                 "it a gradient), not from sequence_nr."))


@step("03.3", "Tensor.backward", "Tensor.backward in tensor.py")
def check_tensor_backward(m):
    x, out = _seed(m)
    out.backward()
    expect_close(grad_of(x), np.full((2, 2), 4.5), _("out.backward() gives x.grad {got}, expected {want}."))
    x = m.tensor([1.0, 2.0, 3.0], requires_grad=True)
    expect_raises(lambda: (x ** 2).backward(), RuntimeError,
                  "grad can be implicitly created only for scalar outputs",
                  _("y.backward() for y = x ** 2 with 3 elements"))
    try:
        (x ** 2).backward(m.ones_like(x))
    except RuntimeError as error:
        raise Wrong(_("y.backward(torch.ones_like(y)) raised RuntimeError: {error}. "
                      "With a gradient given, a result of any shape can start backward.")
                      .format(error=error)) from None
    expect_close(grad_of(x), [2.0, 4.0, 6.0],
                 _("y.backward(torch.ones_like(y)) gives x.grad {got}, expected {want}."))
    x = m.tensor([1.0, 2.0, 3.0], requires_grad=True)
    (x ** 2).backward(m.tensor([1.0, 0.5, 2.0]))
    expect_close(grad_of(x), [2.0, 2.0, 12.0],
                 _("y.backward(v) with v = [1, 0.5, 2] gives x.grad {got}, expected {want}: "
                   "start from the gradient you were given."))
    x = m.tensor([2.0], requires_grad=True)
    try:
        (x * 3).backward()
    except RuntimeError:
        raise Wrong(_("(x * 3).backward() for x of shape [1] raised: one element is enough, the rule counts "
                      "elements (numel()), not dimensions.")) from None
    expect_close(grad_of(x), [3.0], _("(x * 3).backward() gives x.grad {got}, expected {want}."))
    x = m.ones(1, 1, requires_grad=True)
    try:
        (x * 2).backward()
    except RuntimeError:
        raise Wrong(_("(x * 2).backward() for x = ones(1, 1) raised: one element is enough, whatever the "
                      "shape ([1, 1], [1, 1, 1], ...); the rule counts elements (numel()), not the shape.")) \
            from None
    expect_close(grad_of(x), [[2.0]], _("(x * 2).backward() for x = ones(1, 1) gives x.grad {got}, expected "
                 "{want}."))
    x = m.tensor([1.0, 2.0], requires_grad=True)
    expect_raises(lambda: (x * 2).backward(m.tensor([1.0, 1.0, 1.0])), RuntimeError,
                  "Mismatch in shape: grad_output[0] has a shape of torch.Size([3]) and output[0] has a "
                  "shape of torch.Size([2]).", _("y.backward(g) for y of shape [2] and g of shape [3]"))
    expect_raises(lambda: (x * 2).backward(m.tensor([[1.0, 1.0]])), RuntimeError,
                  "Mismatch in shape: grad_output[0] has a shape of torch.Size([1, 2]) and output[0] has a "
                  "shape of torch.Size([2]).", _("y.backward(g) for y of shape [2] and g of shape [1, 2]"))
    expect_raises(lambda: (x * 2).backward(m.tensor(1.0)), RuntimeError,
                  "Mismatch in shape: grad_output[0] has a shape of torch.Size([]) and output[0] has a "
                  "shape of torch.Size([2]).", _("y.backward(tensor(1.0)) for y of shape [2] (a 0-d "
                                                 "gradient is a shape like any other: it must be y's)"))
    empty = m.tensor(np.zeros(0, dtype=np.float32), requires_grad=True)
    expect_raises(lambda: (empty * 2).backward(), RuntimeError,
                  "grad can be implicitly created only for scalar outputs",
                  _("y.backward() for y of shape [0] (no element: only a result of exactly one element "
                    "gets the implicit gradient 1, so test numel() != 1)"))
    # PyTorch's order: the gradient's shape first, then whether the tensor can start a backward at all.
    expect_raises(lambda: m.tensor([1.0, 2.0]).backward(m.ones(3)), RuntimeError,
                  "Mismatch in shape: grad_output[0] has a shape of torch.Size([3]) and output[0] has a "
                  "shape of torch.Size([2]).", _("tensor([1., 2.]).backward(ones(3)) (no grad required, and "
                                                 "a gradient of another shape: PyTorch checks the shape "
                                                 "first)"))
    expect_raises(lambda: m.tensor([1.0, 2.0]).backward(), RuntimeError,
                  "element 0 of tensors does not require grad and does not have a grad_fn",
                  _("tensor([1., 2.]).backward() (two elements, no grad required: PyTorch makes no starting "
                    "gradient for a tensor that does not require grad, so it names that)"))
    x = m.tensor([1.0, 2.0], requires_grad=True)
    returned = (x * 2).sum().backward()
    expect(returned is None, _("(x * 2).sum().backward() returned {returned!r}; PyTorch's Tensor.backward "
           "returns None: what it computes goes into .grad.").format(returned=returned))
    y = x * 3
    seen = []
    y.grad_fn.pre_hooks.append(seen.append)
    g = m.tensor([1.0, 1.0])
    y.backward(g)
    what = _("nothing") if not seen else _("a copy of g")
    expect(bool(seen) and seen[0] is g, _("y.backward(g), with a pre-hook on y.grad_fn, hands the hook "
           "{what}; in PyTorch the hook gets g itself: a gradient of the right shape and dtype goes to the "
           "engine as it is, not copied (a hook that changes it in place changes the caller's g).")
           .format(what=what))
    x = m.tensor([1.0, 2.0], requires_grad=True)
    (x * 2).backward(m.tensor([1.0, 1.0], dtype=m.float64))
    got = grad_of(x)
    expect(got is not None and str(got._data.dtype) == "float32", _("y.backward(g) for a float32 y and a "
           "float64 g leaves x.grad {value}; PyTorch's is float32: the starting gradient is cast to the "
           "tensor's dtype (Tensor(gradient._data.astype(self._data.dtype))).")
           .format(value='None' if got is None else got._data.dtype))
    x = m.tensor([1.0], requires_grad=True)
    (x * 3.0).backward(m.tensor([0.3], dtype=m.float64))
    got = grad_of(x)
    expect(got is not None and np.array_equal(values(got), np.float32([np.float32(0.3) * np.float32(3.0)])),
           _("y.backward(tensor([0.3], dtype=float64)) for y = x * 3.0, float32, gives x.grad {value}; "
             "PyTorch's is [0.90000004], computed in float32 from 0.3 cast to float32: cast the starting "
             "gradient to the tensor's dtype before backward runs (the whole backward is then float32).")
           .format(value="None" if got is None else repr(values(got).tolist())))
    leaf = m.tensor(2.0, requires_grad=True)
    leaf.backward()
    expect_close(grad_of(leaf), 1.0, _("x.backward() on a leaf gives x.grad {got}, expected {want}: "
                 "the engine starts at gradient_edge(x), its AccumulateGrad."))
    expect_raises(lambda: m.tensor(3.0).backward(), RuntimeError,
                  "element 0 of tensors does not require grad and does not have a grad_fn",
                  "tensor(3.0).backward()")
    ref = reference()
    x_ref = ref.tensor([1.0, 2.0, 3.0], requires_grad=True)
    ((x_ref * 2).exp().mean() * 3).backward()
    x = m.tensor([1.0, 2.0, 3.0], requires_grad=True)
    ((x * 2).exp().mean() * 3).backward()
    expect_close(grad_of(x), values(x_ref.grad),
                 _("3·mean(exp(2x)) gives x.grad {got}; mini_autograd gives {want}."))
    return (_("backward() starts from 1 for one-element results, from gradient= otherwise (of the tensor's "
              "shape, cast to its dtype), with PyTorch's errors."))
