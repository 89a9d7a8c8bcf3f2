"""Checks of chapters 04 (leaves), 05 (accumulation) and 06 (no_grad, detach)."""
import gc
import threading
import weakref

import numpy as np

from ._testing import expect, expect_close, expect_raises, grad_of, show, values
from .cases import raised
from .package import Wrong
from .steps import step
from .i18n import N_, _


@step("04.1", "one AccumulateGrad per leaf; is_leaf",
      "gradient_edge (again) in function.py; Tensor.is_leaf in tensor.py")
def check_one_accumulator(m):
    x = m.tensor(2.0, requires_grad=True)
    square = x * x
    (first, _first_nr), (second, _second_nr) = square.grad_fn.next_functions
    expect(first is second, _("the two edges of x * x lead to two different AccumulateGrad nodes: a leaf has "
           "one, however often it is used. Keep it on the tensor (x._grad_accumulator) and reuse it."))
    square.backward()
    expect_close(grad_of(x), 4.0, _("x * x at x = 2 gives x.grad {got}, expected {want}."))
    node = m.gradient_edge(x)[0]
    alive = weakref.ref(node)
    held_by_x = any(value is node for value in vars(x).values())
    del node, first, second, square
    gc.collect()
    if alive() is not None and not held_by_x:
        raise Wrong(_("x's AccumulateGrad is still alive after the graph is gone, and x holds it only "
                      "weakly, as it should: something else keeps it (a list of the module, an attribute set "
                      "by the engine or by AccumulateGrad.apply). In PyTorch the node goes with the last "
                      "graph that used it."))
    expect(alive() is None, _("x keeps its AccumulateGrad alive after the graph is gone: "
           "the node holds the leaf (node.variable), so the leaf must hold the node only weakly, "
           "with weakref.ref, as PyTorch does."))
    again = m.gradient_edge(x)[0]
    expect(isinstance(again, m.AccumulateGrad), _("after the old AccumulateGrad died, "
           "gradient_edge(x) must make a new one."))
    expect(m.gradient_edge(x)[0] is again, _("after the old AccumulateGrad died, gradient_edge(x) made a "
           "new one, and the next call made another: keep the new one too (x._grad_accumulator), each time "
           "you make one."))
    del again
    gc.collect()
    kept = x * 2.0                                        # its graph keeps x's AccumulateGrad alive
    x.requires_grad = False                               # (as requires_grad_(False) does, step 06.2)
    try:
        edge = m.gradient_edge(x)
    finally:
        x.requires_grad = True
    expect(edge == (None, 0), _("after x.requires_grad is switched off, gradient_edge(x) is {edge!r}, "
           "expected (None, 0), though x's AccumulateGrad is still alive (y = x * 2.0 holds it): a leaf that "
           "does not require grad gets no gradient. Test requires_grad before reusing the node.")
           .format(edge=edge))
    del kept
    c = m.tensor(1.0)
    y = x * 2
    for tensor, name, leaf in [(x, "x = tensor(2.0, requires_grad=True)", True),
                               (c, "c = tensor(1.0)", True), (y, "y = x * 2", False)]:
        got = tensor.is_leaf
        expect(got is leaf, _("{name}: is_leaf is {got!r}, expected {leaf}. A leaf is a tensor that no "
               "recorded operation made (grad_fn is None), whether or not it requires grad.")
               .format(name=name, got=got, leaf=leaf))
    # A backward started at a leaf starts at its AccumulateGrad: the one its graph holds, hooks and all.
    x = m.tensor([1.0, 1.0], requires_grad=True)
    y = x * 2
    accumulator = y.grad_fn.next_functions[0][0]
    accumulator.pre_hooks.append(lambda g: g * 10)
    y.backward(m.ones(2))
    through_y = grad_of(x)
    expect(through_y is not None and np.array_equal(values(through_y), [20.0, 20.0]), _("y = x * 2; a "
           "pre-hook that multiplies by 10 on x's AccumulateGrad (y.grad_fn.next_functions[0][0]); "
           "y.backward(ones(2)) gives x.grad {got}; PyTorch's is [20.0, 20.0]: the engine runs every node's "
           "pre-hooks, an AccumulateGrad's too (run_backward in engine.py).").format(
               got="None" if through_y is None else show(values(through_y))))
    x.grad = None
    x.backward(m.ones(2))
    got = grad_of(x)
    expect(got is not None and np.array_equal(values(got), [10.0, 10.0]), _("y = x * 2; a pre-hook that "
           "multiplies by 10 on x's AccumulateGrad (y.grad_fn.next_functions[0][0]); x.backward(ones(2)) "
           "gives x.grad {got}; PyTorch's is [10.0, 10.0]: a backward from a leaf starts at "
           "gradient_edge(x), the leaf's one AccumulateGrad, not at a new node (run_backward in "
           "engine.py).").format(got="None" if got is None else show(values(got))))
    return _("A leaf has one AccumulateGrad, held weakly; is_leaf means 'no grad_fn'.")


@step("04.2", "retain_grad", "Tensor.retain_grad in tensor.py")
def check_retain_grad(m):
    x = m.tensor([1.0, 2.0], requires_grad=True)
    try:
        x.retain_grad()
    except Exception as error:
        raise Wrong(_("x.retain_grad() on a leaf raised {type_name}: {error}. "
                      "For a leaf retain_grad does nothing: its .grad is filled anyway.")
                      .format(type_name=type(error).__name__, error=error)) from None
    expect(x.retains_grad is False, _("after x.retain_grad() on a leaf, x.retains_grad is True; PyTorch "
           "keeps it False: retains_grad says that a non-leaf keeps its gradient, and a leaf does nothing "
           "special."))
    returned = (x * 3).retain_grad(), x.retain_grad()
    expect(returned == (None, None), _("(x * 3).retain_grad() and x.retain_grad() returned {returned!r}; "
           "PyTorch's return None.").format(returned=returned))
    (x * 3).sum().backward()
    expect_close(grad_of(x), [3.0, 3.0], _("after x.retain_grad() on a leaf, (x * 3).sum().backward() gives "
                 "x.grad {got}; PyTorch gives {want}: a leaf's .grad is filled by its AccumulateGrad "
                 "already, so retain_grad on a leaf adds no hook (one would count the gradient twice)."))
    x = m.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    y.retain_grad()
    y.retain_grad()                               # twice: still one copy of the gradient
    expect(y.retains_grad is True, _("after y.retain_grad(), y.retains_grad must be True."))
    (y * y).sum().backward()
    got = grad_of(y)
    if got is not None and np.allclose(values(got), 2 * 2 * values(y)):
        raise Wrong(_("y.grad is twice what it should be after calling y.retain_grad() twice: "
                      "when retains_grad is already True, do nothing."))
    expect_close(got, 2 * values(y), _("y.grad for (y * y).sum() is {got}, expected 2y = {want}."))
    expect_close(grad_of(x), 18 * values(x), _("x.grad is {got}, expected 18x = {want}: "
                 "retain_grad must not change what flows on."))
    x = m.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    y.retain_grad()
    loss = (y * y).sum()
    loss.backward(retain_graph=True)
    loss.backward(retain_graph=True)
    got = grad_of(y)
    if got is not None and np.allclose(values(got), 2 * values(y)):
        raise Wrong(_("after two backward() calls through (y * y).sum(), y.grad is 2y, expected 4y: a "
                      "retained "
                      "gradient accumulates like a leaf's: add into y._grad when it is already there."))
    expect_close(got, 4 * values(y), _("after two backward() calls, y.grad is {got}, expected {want}."))
    expect_raises(lambda: m.tensor([1.0]).retain_grad(), RuntimeError,
                  "can't retain_grad on Tensor that has requires_grad=False", "tensor([1.0]).retain_grad()")
    # From step 08.2 on, a node that only None reached calls its pre-hooks with None: nothing to keep.
    x = m.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    before = list(y.grad_fn.pre_hooks)
    y.retain_grad()
    added = [hook for hook in y.grad_fn.pre_hooks if hook not in before]
    try:
        returned = [hook(None) for hook in added]
    except Exception as error:
        raise Wrong(_("y = x * 3; y.retain_grad(): the hook it put in y.grad_fn.pre_hooks, called with None, "
                      "raised {type_name}: {error}. From step 08.2 on, a node that only None reached calls "
                      "its pre-hooks with None, as PyTorch does; PyTorch's retain_grad then keeps nothing: "
                      "when the gradient is None, leave y.grad as it is.")
                    .format(type_name=type(error).__name__, error=error)) from None
    expect(grad_of(y) is None and returned == [None] * len(added), _("y = x * 3; y.retain_grad(): the hook "
           "it put in y.grad_fn.pre_hooks, called with None, made y.grad {got} and returned {returned}; "
           "PyTorch keeps nothing and changes nothing: when the gradient is None, do nothing and return "
           "None.")
           .format(got=None if grad_of(y) is None else show(values(grad_of(y))),
                   returned=returned))
    # The retained gradient is a copy of what arrived: not the user's tensor.
    x = m.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    y.retain_grad()
    v = m.tensor([1.0, 1.0])
    y.backward(v)
    expect(grad_of(y) is not v, _("after y.retain_grad(); y.backward(v), y.grad is v itself, the tensor "
           "you passed in; PyTorch's is a copy: store Tensor(grad._data.copy()) the first time, as "
           "AccumulateGrad does, or changing v would change y.grad."))
    expect(grad_of(y) is None or not np.shares_memory(grad_of(y)._data, v._data), _("after y.retain_grad(); "
           "y.backward(v), y.grad shares its numbers with v: store a copy (Tensor(grad._data.copy()))."))
    # A later backward adds into a new tensor: a retained .grad read before keeps its numbers.
    x = m.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    y.retain_grad()
    loss = (y * y).sum()
    loss.backward(retain_graph=True)
    first = grad_of(y)
    first_numbers = values(first).copy() if first is not None else None
    loss.backward()
    if first is not None and not np.array_equal(values(first), first_numbers):
        raise Wrong(_("y = x * 3; y.retain_grad(); loss = (y * y).sum(); loss.backward(retain_graph=True); "
                      "g1 = y.grad; loss.backward(): g1 changed from {before} to {after}; PyTorch's g1 stays "
                      "{before}. Unlike a leaf's, a retained gradient is not summed in place: make "
                      "self._grad + grad, a new tensor.")
                    .format(before=show(first_numbers), after=show(values(first)))) from None
    # retain_grad on a leaf, after it was used: still nothing to do.
    x = m.tensor(2.0, requires_grad=True)
    y = x * 2
    x.retain_grad()
    y.backward()
    expect_close(grad_of(x), 2.0, _("y = x * 2; x.retain_grad(); y.backward() gives x.grad {got}; PyTorch "
                 "gives {want}: x is a leaf, whose AccumulateGrad fills .grad already, so retain_grad adds "
                 "no hook, whether it is called before or after x is used (and x.retains_grad stays False)."))
    expect(x.retains_grad is False, _("after x.retain_grad() on a leaf x that was used already, "
           "x.retains_grad is True; PyTorch keeps it False."))
    # The hook holds the tensor weakly: the graph does not keep it alive.
    x = m.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    y.retain_grad()
    alive = weakref.ref(y)
    loss = (y + 1.0).sum()
    del y
    gc.collect()
    expect(alive() is None, _("y = x * 3; y.retain_grad(); loss = (y + 1.0).sum(); del y: y is still alive, "
           "kept by the graph through your hook (a closure over self). In PyTorch it is gone: the hook holds "
           "the tensor only weakly (weakref.ref(self)), and does nothing once it is gone."))
    loss.backward()
    expect_close(grad_of(x), [3.0, 3.0], _("after y was let go of, loss.backward() gives x.grad {got}, "
                 "expected {want}."))
    z = x * 2
    z.sum().backward()
    expect(grad_of(z) is None, _("z = x * 2 did not ask to retain its gradient, yet z.grad is {z_grad}: only "
           "leaves (and tensors that called retain_grad) get a .grad.")
           .format(z_grad=show(values(grad_of(z)))))
    x = m.tensor(2.0, requires_grad=True)
    y = x * 3
    y.grad_fn.pre_hooks.append(lambda g: g * 10)
    y.retain_grad()
    (y * 1).backward()
    got = grad_of(y)
    expect(got is not None and values(got) == 1.0, _("y = x * 3; a pre-hook on y.grad_fn that multiplies by "
           "10; y.retain_grad(); (y * 1).backward() gives y.grad {got}; PyTorch's is 1.0: it runs the "
           "retain_grad hook before the node's own pre-hooks, whenever they were registered (put yours "
           "first: pre_hooks.insert(0, hook)).").format(got="None" if got is None else show(values(got))))
    return _("Non-leaves keep their gradient only on request, through a hook on their grad_fn.")


@step("05.1", "gradients accumulate", "AccumulateGrad.apply (again) in function.py")
def check_accumulation(m):
    x = m.tensor(2.0, requires_grad=True)
    (x * x).backward()
    first = grad_of(x)
    expect_close(first, 4.0, _("after one backward of x * x, x.grad is {got}, expected {want}."))
    (x * x).backward()
    got = grad_of(x)
    if got is not None and np.allclose(values(got), 4.0):
        raise Wrong(_("x.grad is 4, expected 8 after two backward() calls: "
                      ".grad was overwritten instead of added to."))
    expect_close(got, 8.0, _("after two backward() calls x.grad is {got}, expected {want}: 4 + 4."))
    z = m.tensor(1.0, requires_grad=True)
    (z * -0.0).backward()
    zero = grad_of(z)
    expect(zero is not None and values(zero) == 0 and np.signbit(values(zero)), _("(x * -0.0).backward() "
           "gives x.grad {got}; PyTorch gives -0.0: the first gradient is kept as it arrived (a copy of it), "
           "not added to zeros (0.0 + -0.0 is 0.0).")
           .format(got="None" if zero is None else float(values(zero))))
    expect(got is first, _("x.grad is a new tensor after the second backward: "
           "add into the existing one in place (variable._grad._data += grad._data), as PyTorch does."))
    x = m.tensor(2.0, requires_grad=True)
    (x * x).backward()
    numbers = x.grad.numpy()                         # shares x.grad's memory
    (x * x).backward()
    expect(float(numbers) == 8.0, _("numbers = x.grad.numpy() taken after the first backward shows "
           "{numbers:g} after the second, where PyTorch's shows 8: the sum went into a new array "
           "(variable._grad._data = ... + ...), not into the one x.grad had. Add in place: "
           "variable._grad._data += grad._data.").format(numbers=float(numbers)))
    a = m.tensor(1.0, requires_grad=True)
    b = m.tensor(2.0, requires_grad=True)
    (a + b).backward()
    (a + b).backward()
    expect_close(grad_of(a), 2.0, _("after two backward() calls of a + b, a.grad is {got}, expected {want}: "
                 "a.grad and b.grad must not be one tensor (store a copy of the first gradient)."))
    # Micro-batches: two halves, accumulated, equal one batch.
    data = np.array([0.5, -1.0, 2.0, 1.5])
    w_batch = m.tensor(0.3, requires_grad=True)
    ((w_batch * m.tensor(data) - 1.0) ** 2).mean().backward()
    w_micro = m.tensor(0.3, requires_grad=True)
    for half in (data[:2], data[2:]):
        (((w_micro * m.tensor(half) - 1.0) ** 2).mean() * 0.5).backward()
    expect_close(grad_of(w_micro), values(grad_of(w_batch)), _("two accumulated micro-batches give w.grad "
                 "{got}, one batch gives {want}."))
    x = m.tensor(2.0, requires_grad=True)
    (x * x).backward()
    g = x.grad
    version = g._version
    (x * x).backward()
    expect(g._version == version + 1, _("a second backward added into x.grad and left its _version at "
           "{now}, where it was {before}: adding in place changes the gradient tensor, and PyTorch's "
           "variable_grad += new_grad bumps its version by one (variable._grad._version += 1).")
           .format(now=g._version, before=version))
    x = m.tensor([1.0, 2.0], requires_grad=True)
    (x * m.tensor([3.0, 4.0], dtype=m.float64)).sum().backward()
    got = grad_of(x)
    expect(got is not None and str(got._data.dtype) == "float32", _("for a float32 leaf x times a float64 "
           "tensor, backward leaves x.grad {value}; PyTorch's is float32, the leaf's dtype: its engine casts "
           "each gradient to its input's dtype (grad._data.astype(variable._data.dtype)).")
           .format(value="None" if got is None else got._data.dtype))
    x = m.tensor(2.0, requires_grad=True)
    y = x * 3
    x.requires_grad = False
    y.backward()
    got = grad_of(x)
    expect(got is None, _("y = x * 3, then x.requires_grad = False, then y.backward() leaves x.grad {value}; "
           "PyTorch's stays None: AccumulateGrad gives nothing to a leaf that no longer requires grad.")
           .format(value="None" if got is None else show(values(got))))
    return _("4 then 8, in the same tensor; two micro-batches equal one batch.")


@step("05.2", "zero_grad", "zero_grad in optim.py")
def check_zero_grad(m):
    x = m.tensor([1.0, 2.0], requires_grad=True)
    w = m.tensor([3.0], requires_grad=True)             # no gradient yet
    (x * x).sum().backward()
    g = grad_of(x)
    version = g._version
    m.optim.zero_grad([x, w], set_to_none=False)
    got = grad_of(x)
    expect(got is not None, _("zero_grad(params, set_to_none=False) left x.grad None: "
           "fill the existing gradient with zeros instead."))
    expect(isinstance(got, m.Tensor), _("after zero_grad(set_to_none=False), x.grad is {got!r}, "
           "expected a tensor of zeros.").format(got=got))
    expect(np.all(values(got) == 0) and values(got).shape == (2,), _("after zero_grad(set_to_none=False), "
           "x.grad is {got}, expected [0.0, 0.0].").format(got=show(values(got))))
    expect(got is g, _("zero_grad(set_to_none=False) replaced x.grad by a new tensor: "
           "zero the existing one in place (p.grad._data[...] = 0)."))
    expect(grad_of(w) is None, _("w had no gradient; zero_grad must leave it None."))
    expect(g._version == version + 1, _("zero_grad(params, set_to_none=False) left x.grad._version at {now}, "
           "where it was {before}: zeroing is an in-place change, and PyTorch's p.grad.zero_() bumps the "
           "version by one (p.grad._version += 1).").format(now=g._version, before=version))
    x = m.tensor([1.0, 2.0, 3.0], requires_grad=True)
    (x * m.tensor([-1.0, -np.inf, np.nan])).sum().backward()         # x.grad: [-1, -inf, nan]
    m.optim.zero_grad([x], set_to_none=False)
    got = values(grad_of(x))
    if got is None or got.shape != (3,) or np.any(got != 0) or np.any(np.signbit(got)):
        raise Wrong(_("x.grad was [-1.0, -inf, nan]; after zero_grad([x], set_to_none=False) it is {got}; "
                      "PyTorch's is [0.0, 0.0, 0.0]. Multiplying by 0, or subtracting the gradient from "
                      "itself, keeps the sign of -1 (-0.0) and turns inf and nan into nan: write zeros into "
                      "it, p.grad._data[...] = 0.").format(got="None" if got is None else got.tolist()))
    m.optim.zero_grad([x, w])
    expect(grad_of(x) is None,
           _("zero_grad(params) (set_to_none=True, PyTorch's default) must set x.grad to None."))
    frozen = m.tensor([1.0, 2.0], requires_grad=True)
    (frozen * 3.0).sum().backward()
    frozen.requires_grad = False                  # frozen after its gradient came (requires_grad_, step 06.2)
    m.optim.zero_grad([frozen])
    expect(grad_of(frozen) is None, _("a parameter frozen after backward (requires_grad switched off) keeps "
           "its .grad {got} after zero_grad([p]); PyTorch's zero_grad clears every parameter that has a "
           ".grad, whether or not it requires grad.").format(got=show(values(grad_of(frozen)))))
    x = m.tensor([1.0, 2.0], requires_grad=True)
    (x * 3.0).sum().backward()
    m.optim.zero_grad([x], set_to_none=1)
    expect(grad_of(x) is None, _("zero_grad([x], set_to_none=1) leaves x.grad {got}; PyTorch's sets it to "
           "None: any true value means set to None (if set_to_none:), not only True.")
           .format(got=show(values(grad_of(x))) if grad_of(x) is not None else "None"))
    x = m.tensor([1.0, 2.0], requires_grad=True)
    x.grad = m.tensor([3.0, 4.0], requires_grad=True)
    m.optim.zero_grad([x], set_to_none=False)
    expect(not grad_of(x).requires_grad, _("x.grad = tensor([3., 4.], requires_grad=True); zero_grad([x], "
           "set_to_none=False): x.grad still requires grad; PyTorch's zero_grad switches that off before it "
           "zeroes the gradient (p.grad.requires_grad_(False)): a gradient is no leaf of any graph."))
    return _("zero_grad sets .grad to None by default, or zeroes it in place.")


@step("06.1", "no_grad", "no_grad.__enter__ and no_grad.__exit__ in grad_mode.py")
def check_no_grad(m):
    x = m.tensor([1.0, 2.0], requires_grad=True)
    with m.no_grad():
        inside = x * 2
        enabled_inside = m.is_grad_enabled()
    expect(not enabled_inside, _("inside no_grad(), is_grad_enabled() is still True: switch recording off in "
           "__enter__."))
    expect(inside.grad_fn is None and not inside.requires_grad, _("x * 2 inside no_grad() got a grad_fn: "
           "nothing may be recorded inside."))
    expect(m.is_grad_enabled(),
           _("after a no_grad() block, recording is still off: __exit__ must switch it back."))
    with m.no_grad():
        with m.no_grad():
            pass
        after_inner = m.is_grad_enabled()
    expect(not after_inner, _("after an inner no_grad() block ends inside an outer one, recording is back "
           "on: __exit__ must restore the value from before __enter__, not True."))
    expect(m.is_grad_enabled(), _("after nested no_grad() blocks, recording is still off."))
    try:
        with m.no_grad():
            raise ValueError("inside")
    except ValueError:
        pass
    else:
        raise Wrong(_("an exception raised inside no_grad() disappeared: __exit__ must not return True."))
    expect(m.is_grad_enabled(), _("after an exception inside no_grad(), recording is still off."))
    with m.no_grad() as entered:
        pass
    expect(entered is None, _("with no_grad() as g: g is {entered!r}; PyTorch's no_grad gives None there: "
           "__enter__ returns nothing.").format(entered=entered))
    m.set_grad_enabled(False)
    try:
        with m.no_grad():
            off_inside = m.is_grad_enabled()
        off_after = m.is_grad_enabled()
    finally:
        m.set_grad_enabled(True)
    expect(off_inside is False, _("with recording already off, inside no_grad() is_grad_enabled() is True: "
           "__enter__ must switch recording off (set it to False), whatever it was, not flip it."))
    expect(off_after is False, _("with recording off before a no_grad() block, it is on after the block: "
           "__exit__ must put back the value from before the block, not flip it or set True."))
    m.set_grad_enabled(False)
    try:
        with m.no_grad():
            raise ValueError("inside")
    except ValueError:
        swallowed = False
    else:
        swallowed = True
    finally:
        m.set_grad_enabled(True)
    expect(not swallowed, _("with recording off before it, an exception raised inside no_grad() "
           "disappeared: __exit__ must return nothing (None), whatever the mode was, or Python takes the "
           "exception as handled."))
    block = m.no_grad()                      # made first, entered later: the mode is read on entering
    m.set_grad_enabled(False)
    try:
        with block:
            pass
        after_late_entry = m.is_grad_enabled()
    finally:
        m.set_grad_enabled(True)
    expect(after_late_entry is False, _("block = no_grad(); set_grad_enabled(False); with block: pass leaves "
           "recording on: the value to put back is the one when the block is entered, so read it in "
           "__enter__, not in __init__."))
    _check_generators(m)
    _check_two_threads(m)
    _check_reused_block(m)
    (x * 2).sum().backward()
    expect_close(grad_of(x), [2.0, 2.0], _("after no_grad blocks, (x * 2).sum().backward() gives x.grad "
                 "{got}, expected {want}."))
    return _("Nothing is recorded inside; blocks nest and exceptions pass through.")


def _check_reused_block(m):
    """One no_grad object entered twice, one after the other and one inside the other: PyTorch's keeps
    one value on self (``self.prev``), read on each __enter__ and put back by each __exit__
    (torch/autograd/grad_mode.py: no_grad.__enter__, no_grad.__exit__), so the inner entry's value is the
    one both exits put back."""
    block = m.no_grad()
    try:
        with block:
            pass
        m.set_grad_enabled(False)
        with block:
            pass
        after_second = m.is_grad_enabled()
        m.set_grad_enabled(True)
        with block:
            with block:
                pass
            after_inner = m.is_grad_enabled()
        after_outer = m.is_grad_enabled()
    except Exception as error:               # (AttributeError: a value deleted in __exit__)
        m.set_grad_enabled(True)
        raise Wrong(_("block = no_grad(), entered once and then again inside itself (with block: with "
                      "block: pass), {error}; PyTorch's keeps the value from before the block on self and "
                      "overwrites it at each __enter__: never delete it.").format(error=raised(m, error))) \
            from None
    m.set_grad_enabled(True)
    expect(after_second is False, _("block = no_grad(); with block: pass; set_grad_enabled(False); with "
           "block: pass leaves recording {after!r}; PyTorch's leaves it False: each __enter__ reads the mode "
           "anew, also on a block entered before.").format(after=after_second))
    expect(after_inner is False and after_outer is False, _("block = no_grad(); with block: (with block: "
           "pass) leaves recording {inner!r} after the inner with and {outer!r} after the outer; PyTorch's "
           "leaves False and False: one value on self, which the inner __enter__ overwrites with False, and "
           "both __exit__ put back.").format(inner=after_inner, outer=after_outer))


@step("06.2", "detach and requires_grad_", "Tensor.detach and Tensor.requires_grad_ in tensor.py")
def check_detach(m):
    x = m.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    d = y.detach()
    expect(d is not y, _("y.detach() returned y itself: return a new tensor."))
    expect(d.grad_fn is None and d.requires_grad is False, _("y.detach() still has a grad_fn or requires "
           "grad: it is a new leaf, cut from the graph."))
    expect(np.shares_memory(d._data, y._data), _("y.detach() copied the numbers: "
           "it shares them with y (no copy), as PyTorch's does."))
    c = m.tensor([1.0, 2.0])
    expect(c.requires_grad_() is c, _("c.requires_grad_() must return c itself."))
    expect(c.requires_grad is True, _("after c.requires_grad_(), c.requires_grad is not True."))
    c.requires_grad_(False)
    expect(c.requires_grad is False, _("after c.requires_grad_(False), c.requires_grad is not False."))
    expect(y.requires_grad_() is y,
           _("y.requires_grad_() on a non-leaf asks for what it has: return y, no error."))
    expect_raises(lambda: y.requires_grad_(False), RuntimeError,
                  "you can only change requires_grad flags of leaf variables.",
                  _("y.requires_grad_(False) for y = x * 3"))
    expect_raises(lambda: m.tensor([1, 2]).requires_grad_(), RuntimeError,
                  "only Tensors of floating point dtype can require gradients",
                  _("tensor([1, 2]).requires_grad_() (an integer tensor)"))
    integers = m.tensor([1, 2])
    try:
        integers.requires_grad_(False)
    except RuntimeError as error:
        raise Wrong(_("tensor([1, 2]).requires_grad_(False) raised RuntimeError: {error}. Asking an integer "
                      "tensor not to require grad is fine (it never does): only True is refused.")
                      .format(error=error)) from None
    x = m.tensor(2.0, requires_grad=True)
    (x * 1.0).backward()
    d = x.detach()
    expect(grad_of(d) is None, _("x = tensor(2.0, requires_grad=True); (x * 1.0).backward(); d = x.detach(): "
           "d.grad is {d_grad}; PyTorch's is None. detach() makes a new tensor with x's numbers and nothing "
           "else of x: no .grad, no AccumulateGrad (copy.copy(self) would copy them).")
           .format(d_grad=show(values(grad_of(d)))))
    d.requires_grad_()
    (d * 5.0).backward()
    expect_close(grad_of(x), 1.0, _("after d = x.detach(); d.requires_grad_(); (d * 5.0).backward(), x.grad "
                 "is {got}; PyTorch's stays {want}: d is a leaf of its own, with its own AccumulateGrad, and "
                 "a gradient for d never reaches x."))
    expect_close(grad_of(d), 5.0, _("after d = x.detach(); d.requires_grad_(); (d * 5.0).backward(), d.grad "
                 "is {got}, expected {want}."))
    x = m.tensor([1.0, 2.0])
    d = x.detach()
    d._version += 1                                 # what an in-place change through d does (step 07.1)
    expect(x._version == 1 and d._version == 1, _("after d = x.detach(); d._version += 1 (as an in-place "
           "change through d does), x._version is {x_version} and d._version {d_version}; PyTorch's are 1 "
           "and 1: d shares x's numbers and its version counter (detached._version_counter = "
           "self._version_counter), so that a change made through d still stops a backward that saved x.")
           .format(x_version=x._version, d_version=d._version))
    x = m.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    x.requires_grad_()                              # already True: nothing changes
    z = x * 3
    same = y.grad_fn.next_functions[0][0] is z.grad_fn.next_functions[0][0]
    expect(same, _("y = x * 2; x.requires_grad_() (x requires grad already); z = x * 3: y's and z's edges "
           "lead to two AccumulateGrad nodes of x; PyTorch's lead to one: requires_grad_ changes the switch "
           "only, and x keeps its AccumulateGrad (a hook on it must see both gradients)."))
    x = m.tensor([1.0, 2.0], requires_grad=True)
    source = x * 3
    d = source.detach()
    source_ref = weakref.ref(source)
    del source
    expect(source_ref() is None, _("y = x * 3; d = y.detach(); del y: y is still alive, held by d. In "
           "PyTorch d shares y's numbers and version counter, and holds nothing of y itself: y is gone at "
           "once."))
    parameter = m.nn.Parameter(m.tensor([1.0, 2.0]))
    detached_type = type(parameter.detach())
    expect(detached_type is m.Tensor, _("p = nn.Parameter(tensor([1., 2.])); p.detach() is a {type_name}; "
           "PyTorch's is a plain Tensor: make a Tensor, not type(self).").format(
               type_name=detached_type.__name__))
    return (_("detach() shares the numbers and the version counter and drops the history; requires_grad_ "
              "changes leaves only."))


def _check_generators(m):
    """Blocks that end in another order than they began: two generators, each paused inside no_grad, closed
    first-in first-out. Each block puts back the value it found, kept on its own no_grad object."""
    def paused_inside_no_grad():
        with m.no_grad():
            yield

    first, second = paused_inside_no_grad(), paused_inside_no_grad()
    try:
        next(first)                       # recording was on: first keeps True
        next(second)                      # recording was off: second keeps False
        first.close()
        after_first = m.is_grad_enabled()
        second.close()
        after_second = m.is_grad_enabled()
    finally:
        m.set_grad_enabled(True)
    expect((after_first, after_second) == (True, False), _("two generators, each paused inside a no_grad() "
           "block, closed in the order they started: is_grad_enabled() is {after_first} after the first is "
           "closed and {after_second} after the second; PyTorch gives True, then False. Each block puts back "
           "the value it found when it began, kept on its own no_grad object (self), whatever order the "
           "blocks end in: not on a stack the blocks share.").format(after_first=after_first,
                                                                   after_second=after_second))


def _check_two_threads(m):
    """Each thread has its own switch: no_grad in one thread leaves another's as it was (PyTorch's
    GradMode is thread-local), also when the two blocks interleave."""
    inside, leave = threading.Event(), threading.Event()
    seen = {}

    def other():
        with m.no_grad():
            inside.set()
            leave.wait(5)
        seen["other thread, after its block"] = m.is_grad_enabled()

    m.set_grad_enabled(False)                      # this thread: recording off, then a no_grad block
    try:
        with m.no_grad():
            thread = threading.Thread(target=other)
            thread.start()
            inside.wait(5)                          # the other thread is inside its own no_grad now
            seen["this thread, inside its block"] = m.is_grad_enabled()
        seen["this thread, after its block"] = m.is_grad_enabled()
        leave.set()
        thread.join(5)
    finally:
        leave.set()
        m.set_grad_enabled(True)
    want = {N_("this thread, inside its block"): False, N_("this thread, after its block"): False,
            N_("other thread, after its block"): True}
    for what, value in want.items():
        expect(seen.get(what) is value, _("two threads, each in a no_grad block at the same time (this one "
               "with recording already off before its block): {what}, is_grad_enabled() is "
               "{seen!r}, expected {value}. Keep the value from before the block on self (the "
               "no_grad object of this block), not on the class or in a global: each block, in each thread, "
               "puts back its own.").format(what=_(what), seen=seen.get(what), value=value))
