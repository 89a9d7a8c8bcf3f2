"""The backward engine: graph shapes, execution order, hooks, retain_graph, grad, create_graph.

Uses only the public, torch-shaped API (plus ``_version``), so the expected
values are PyTorch's; one test cross-checks the execution order with PyTorch
itself when it is installed.
"""
import math
import sys
import time

import numpy as np
import pytest

import mini_autograd as torch
from mini_autograd import autograd

F64 = torch.float64


def scalar(value, dtype=F64):
    return torch.tensor(value, dtype=dtype, requires_grad=True)


def np_of(t):
    return t.detach().numpy()


# --------------------------------------------------------------- the diamond
def diamond_trace(lib):
    """x -> (a = 2x, b = exp x); c = tanh a; out = c * b.  Records every hook call in order."""
    order = []
    x = lib.tensor(1.5, dtype=lib.float64, requires_grad=True)
    a = x * 2
    b = x.exp()
    c = a.tanh()
    out = c * b
    for name, t in [("a", a), ("b", b), ("c", c), ("out", out)]:
        t.grad_fn.register_prehook(lambda grads, name=name: order.append("pre " + name))
        t.grad_fn.register_hook(lambda grad_inputs, grad_outputs, name=name: order.append("post " + name))
        t.register_hook(lambda grad, name=name: order.append("tensor " + name))
    accumulate = a.grad_fn.next_functions[0][0]
    accumulate.register_prehook(lambda grads: order.append("pre acc"))
    accumulate.register_hook(lambda grad_inputs, grad_outputs: order.append("post acc"))
    x.register_hook(lambda grad: order.append("tensor x"))
    out.backward()
    return order, x.grad.item()


DIAMOND_ORDER = ["tensor out", "pre out", "post out",
                 "tensor c", "pre c", "post c",      # TanhBackward0 is newer than ExpBackward0
                 "tensor b", "pre b", "post b",
                 "tensor a", "pre a", "post a",
                 "tensor x", "pre acc", "post acc"]


def test_diamond_values():
    x = scalar(1.5)
    a = x * 2
    b = x.exp()
    out = a.tanh() * b
    out.backward()
    t = math.tanh(3.0)
    expected = 2 * (1 - t * t) * math.exp(1.5) + t * math.exp(1.5)
    assert out.item() == pytest.approx(t * math.exp(1.5))
    assert x.grad.item() == pytest.approx(expected, rel=1e-12)


def test_diamond_execution_order_newest_node_first():
    order, grad = diamond_trace(torch)
    assert order == DIAMOND_ORDER
    t = math.tanh(3.0)
    assert grad == pytest.approx(2 * (1 - t * t) * math.exp(1.5) + t * math.exp(1.5))


def test_diamond_execution_order_matches_pytorch():
    real_torch = pytest.importorskip("torch")
    mine, mine_grad = diamond_trace(torch)
    theirs, their_grad = diamond_trace(real_torch)
    assert mine == theirs
    assert mine_grad == pytest.approx(their_grad, rel=1e-12)


def test_execution_order_follows_creation_order_not_graph_position():
    """Two independent branches: the branch made last runs first (higher sequence number)."""
    order = []
    x = scalar(0.5)
    first = x * 3          # made first
    second = x.exp()       # made second
    out = first + second
    first.grad_fn.register_prehook(lambda g: order.append("first"))
    second.grad_fn.register_prehook(lambda g: order.append("second"))
    out.backward()
    assert order == ["second", "first"]

    order.clear()
    x = scalar(0.5)
    second = x.exp()       # now made first
    first = x * 3
    out = first + second
    first.grad_fn.register_prehook(lambda g: order.append("first"))
    second.grad_fn.register_prehook(lambda g: order.append("second"))
    out.backward()
    assert order == ["first", "second"]


def test_node_waits_for_all_its_gradients():
    """A node used by two consumers runs once, with the sum of both gradients."""
    x = scalar(2.0)
    y = x * x                      # used twice below
    seen = []
    y.grad_fn.register_prehook(lambda grads: seen.append(grads[0].item()))
    out = y * 3 + y.exp()
    out.backward()
    assert seen == [pytest.approx(3 + math.exp(4.0))]
    assert x.grad.item() == pytest.approx((3 + math.exp(4.0)) * 4)


# ----------------------------------------------------- shared subexpressions
def test_shared_subexpression_used_three_times():
    x = torch.tensor([0.5, -1.0, 2.0], dtype=F64, requires_grad=True)
    y = x * x
    calls = []
    y.grad_fn.register_prehook(lambda grads: calls.append(1))
    z = y + y * 2 + y.tanh()                    # y used three times
    z.sum().backward()
    xs = np.array([0.5, -1.0, 2.0])
    expected = (1 + 2 + (1 - np.tanh(xs ** 2) ** 2)) * 2 * xs
    np.testing.assert_allclose(np_of(x.grad), expected, rtol=1e-12)
    assert calls == [1]


def test_same_tensor_as_both_operands():
    x = torch.tensor([1.5, -2.0], dtype=F64, requires_grad=True)
    (x * x * x).sum().backward()
    np.testing.assert_allclose(np_of(x.grad), 3 * np.array([1.5, -2.0]) ** 2)
    x.grad = None
    (x / x).sum().backward()
    np.testing.assert_allclose(np_of(x.grad), [0.0, 0.0], atol=1e-15)
    x.grad = None
    (x - x + x).sum().backward()
    np.testing.assert_allclose(np_of(x.grad), [1.0, 1.0])


def test_reused_leaf_in_many_places_accumulates_once_per_use():
    x = scalar(3.0)
    total = x
    for _ in range(9):
        total = total + x
    total.backward()
    assert x.grad.item() == 10.0


# --------------------------------------------------------------- long chains
def test_100000_op_chain_backward_is_iterative():
    x = scalar(1.0)
    y = x
    start = time.perf_counter()
    for _ in range(100_000):
        y = y * 1.00001
    built = time.perf_counter()
    y.backward()
    done = time.perf_counter()
    print(f"\n100,000-op chain: forward {built - start:.2f} s, backward {done - built:.2f} s")
    assert x.grad.item() == pytest.approx(1.00001 ** 100_000, rel=1e-9)
    assert x.grad.item() == pytest.approx(math.e, rel=1e-4)
    del y                                     # dropping the long graph must not crash either


def test_long_add_chain_under_a_small_recursion_limit():
    x = scalar(1.0)
    y = x
    for _ in range(5_000):
        y = y + 0
    depth, frame = 0, sys._getframe()
    while frame is not None:
        depth, frame = depth + 1, frame.f_back
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(depth + 100)       # far fewer frames than the chain has nodes
    try:
        y.backward()
    finally:
        sys.setrecursionlimit(limit)
    assert x.grad.item() == 1.0


# ---------------------------------------------------------------- tensor hooks
def test_tensor_hooks_run_in_registration_order_and_can_replace_the_grad():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    seen = []
    y.register_hook(lambda g: seen.append(("first", g.tolist())))
    y.register_hook(lambda g: g * 10)
    y.register_hook(lambda g: seen.append(("third", g.tolist())))
    y.sum().backward()
    assert seen == [("first", [1.0, 1.0]), ("third", [10.0, 10.0])]
    assert x.grad.tolist() == [20.0, 20.0]


def test_tensor_hook_handle_remove():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    handle = y.register_hook(lambda g: g * 10)
    z = y.sum()
    z.backward(retain_graph=True)
    assert x.grad.tolist() == [20.0, 20.0]
    handle.remove()
    handle.remove()                       # removing twice is harmless
    x.grad = None
    z.backward()
    assert x.grad.tolist() == [2.0, 2.0]


def test_leaf_hooks_change_what_is_accumulated():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    seen = []
    x.register_hook(lambda g: seen.append(g.tolist()))
    handle = x.register_hook(lambda g: g * 3)
    x.register_hook(lambda g: seen.append(g.tolist()))
    (x * x).sum().backward()
    assert seen == [[2.0, 4.0], [6.0, 12.0]]
    assert x.grad.tolist() == [6.0, 12.0]
    handle.remove()
    seen.clear()
    (x * x).sum().backward()
    assert seen == [[2.0, 4.0], [2.0, 4.0]]
    assert x.grad.tolist() == [8.0, 16.0]


def test_hook_registered_before_the_leaf_is_used():
    x = torch.tensor([1.0], requires_grad=True)
    x.register_hook(lambda g: g + 1)
    (x * 5).sum().backward()
    assert x.grad.tolist() == [6.0]


def test_hook_on_one_output_of_a_multi_output_node():
    x = torch.tensor([[1.0, 5.0], [7.0, 2.0]], requires_grad=True)
    values, indices = x.max(1)
    values.register_hook(lambda g: g * torch.tensor([1.0, 10.0]))
    values.sum().backward()
    assert x.grad.tolist() == [[0.0, 1.0], [10.0, 0.0]]
    assert not indices.requires_grad and indices.grad_fn is None


# ------------------------------------------------------------------ node hooks
def test_node_prehook_sees_and_replaces_incoming_grads():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    seen = []

    def pre(grad_outputs):
        seen.append((type(grad_outputs).__name__, len(grad_outputs), grad_outputs[0].tolist()))
        return (grad_outputs[0] * 5,)

    handle = y.grad_fn.register_prehook(pre)
    y.backward(torch.tensor([1.0, 2.0]), retain_graph=True)
    assert seen == [("tuple", 1, [1.0, 2.0])]
    assert x.grad.tolist() == [10.0, 20.0]
    handle.remove()
    x.grad = None
    y.backward(torch.tensor([1.0, 2.0]))
    assert x.grad.tolist() == [2.0, 4.0]


def test_node_posthook_sees_both_sides_and_replaces_outgoing_grads():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor([3.0, 4.0], requires_grad=True)
    y = x * w
    seen = []

    def post(grad_inputs, grad_outputs):
        seen.append(([g.tolist() for g in grad_inputs], [g.tolist() for g in grad_outputs]))
        return (grad_inputs[0] + 1, None)

    handle = y.grad_fn.register_hook(post)
    y.sum().backward(retain_graph=True)
    assert seen == [([[3.0, 4.0], [1.0, 2.0]], [[1.0, 1.0]])]
    assert x.grad.tolist() == [4.0, 5.0]
    assert w.grad is None                  # the hook dropped w's gradient
    handle.remove()
    x.grad = None
    y.sum().backward()
    assert x.grad.tolist() == [3.0, 4.0]
    assert w.grad.tolist() == [1.0, 2.0]


def test_accumulate_grad_node_hooks():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    node = y.grad_fn.next_functions[0][0]
    assert node.name() == "torch::autograd::AccumulateGrad"
    seen = []
    node.register_prehook(lambda grads: seen.append(("pre", grads[0].tolist(), x.grad)))
    node.register_hook(lambda gi, go: seen.append(("post", len(gi), go[0].tolist(), x.grad.tolist())))
    y.sum().backward()
    assert seen == [("pre", [3.0, 3.0], None), ("post", 0, [3.0, 3.0], [3.0, 3.0])]


# ----------------------------------------------------------------- retain_grad
def test_retain_grad_fills_non_leaf_grad():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    assert not y.retains_grad and not x.retains_grad
    y.retain_grad()
    y.retain_grad()                          # twice is harmless
    assert y.retains_grad
    x.retain_grad()                          # no-op on a leaf
    assert not x.retains_grad
    z = (y * y).sum()
    z.backward(retain_graph=True)
    assert y.grad.tolist() == [4.0, 8.0]
    assert x.grad.tolist() == [8.0, 16.0]
    z.backward()
    assert y.grad.tolist() == [8.0, 16.0]     # accumulates like a leaf's grad
    assert x.grad.tolist() == [16.0, 32.0]


def test_retain_grad_sees_the_grad_after_tensor_hooks():
    x = torch.tensor([1.0], requires_grad=True)
    y = x * 2
    y.retain_grad()
    y.register_hook(lambda g: g * 7)         # registered after retain_grad, still runs before it
    y.sum().backward()
    assert y.grad.tolist() == [7.0]
    assert x.grad.tolist() == [14.0]


def test_retained_grad_is_not_the_tensor_flowing_on():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 1
    y.retain_grad()
    z = y * 3
    z.sum().backward()
    y.grad.add_(100)                         # changing the retained grad changes nothing else
    assert x.grad.tolist() == [3.0, 3.0]


def test_retain_grad_follows_an_inplace_change():
    """After y.mul_(3), y.grad is the gradient of the new y (PyTorch moves the retain_grad hook)."""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.retain_grad()
    y.mul_(3)
    y.sum().backward()
    assert x.grad.tolist() == [6.0, 6.0]
    assert y.grad.tolist() == [1.0, 1.0]


def test_tensor_hook_registered_before_an_inplace_change_sees_the_old_value_grad():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    seen = []
    y.register_hook(lambda g: seen.append(g.tolist()))
    y.mul_(3)
    y.sum().backward()
    assert seen == [[3.0, 3.0]]


# ------------------------------------------------------------ retain_graph
def test_retain_graph_allows_second_backward_and_grads_double():
    x = torch.tensor([1.0, 2.0], dtype=F64, requires_grad=True)
    w = torch.tensor([0.5, -1.5], dtype=F64, requires_grad=True)
    y = ((x * w).exp() + x.tanh() * w).sum()
    y.backward(retain_graph=True)
    first_x, first_w = np_of(x.grad).copy(), np_of(w.grad).copy()
    y.backward()
    np.testing.assert_allclose(np_of(x.grad), 2 * first_x, rtol=1e-12)
    np.testing.assert_allclose(np_of(w.grad), 2 * first_w, rtol=1e-12)


def test_second_backward_without_retain_graph_raises():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward()
    with pytest.raises(RuntimeError, match=r"^Trying to backward through the graph a second time \(or "
                                           r"directly access saved tensors after they have already been "
                                           r"freed\)\."):
        y.backward()
    assert x.grad.tolist() == [2.0, 4.0]     # the failed call added nothing


def test_backward_without_saved_tensors_can_run_twice():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x + 1).sum()
    y.backward()
    y.backward()
    assert x.grad.tolist() == [2.0, 2.0]


def test_retain_graph_false_after_true_then_error():
    x = scalar(2.0)
    y = x.exp() * x
    y.backward(retain_graph=True)
    y.backward()
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        y.backward()


# ---------------------------------------------------------------- accumulation
def test_gradients_accumulate_across_graphs():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    (x * 2).sum().backward()
    first = x.grad
    (x * 3).sum().backward()
    assert x.grad.tolist() == [5.0, 5.0]
    assert x.grad is first                    # accumulated in place, as PyTorch does
    x.grad = None
    (x * 4).sum().backward()
    assert x.grad.tolist() == [4.0, 4.0]


def test_first_gradient_is_a_copy_of_the_incoming_one():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    g = torch.tensor([5.0, 6.0])
    x.backward(g)
    assert x.grad is not g
    g.add_(1)
    assert x.grad.tolist() == [5.0, 6.0]


def test_backward_with_explicit_gradient():
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    y = x * x
    y.backward(torch.tensor([[1.0, 0.0], [0.5, 2.0]]))
    assert x.grad.tolist() == [[2.0, 0.0], [3.0, 16.0]]


def test_autograd_backward_with_several_roots():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    autograd.backward([(x * 2).sum(), (x * x).sum()])
    assert x.grad.tolist() == [4.0, 6.0]
    x.grad = None
    autograd.backward([x * 2, x * x], [torch.tensor([1.0, 0.0]), torch.tensor([0.0, 1.0])])
    assert x.grad.tolist() == [2.0, 4.0]


# ------------------------------------------------------------- backward(inputs)
def test_backward_inputs_fills_only_those_tensors():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor([3.0, 4.0], requires_grad=True)
    (x * w * 2).sum().backward(inputs=[x])
    assert x.grad.tolist() == [6.0, 8.0]
    assert w.grad is None
    (x * w).sum().backward(inputs=[w, x])
    assert x.grad.tolist() == [9.0, 12.0]
    assert w.grad.tolist() == [1.0, 2.0]


def test_backward_inputs_single_tensor_and_non_leaf():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    z = (y * y).sum()
    z.backward(inputs=y)
    assert y.grad.tolist() == [4.0, 8.0]
    assert y.retains_grad
    assert x.grad is None


def test_backward_inputs_unreachable_leaf_gets_no_grad():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    (x * 2).sum().backward(inputs=[w])
    assert x.grad is None and w.grad is None


def test_backward_inputs_skips_unneeded_branches():
    x = torch.tensor([1.0], requires_grad=True)
    w = torch.tensor([2.0], requires_grad=True)
    ran = []
    wx = w.exp()
    wx.grad_fn.register_prehook(lambda g: ran.append("exp"))
    (x * 3 + wx).sum().backward(inputs=[x])
    assert ran == []
    assert x.grad.tolist() == [3.0]


# ----------------------------------------------------------------- autograd.grad
def test_autograd_grad_with_grad_outputs():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor([3.0, 4.0], requires_grad=True)
    gx, gw = autograd.grad(x * w, [x, w], grad_outputs=torch.tensor([1.0, 10.0]))
    assert gx.tolist() == [3.0, 40.0]
    assert gw.tolist() == [1.0, 20.0]
    assert x.grad is None and w.grad is None


def test_autograd_grad_returns_a_tuple_even_for_one_input():
    x = scalar(2.0)
    result = autograd.grad(x * x, x)
    assert isinstance(result, tuple) and len(result) == 1
    assert result[0].item() == 4.0
    assert not result[0].requires_grad


def test_autograd_grad_allow_unused():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor([3.0, 4.0], requires_grad=True)
    gx, gw = autograd.grad((x * 2).sum(), [x, w], allow_unused=True)
    assert gx.tolist() == [2.0, 2.0]
    assert gw is None
    with pytest.raises(RuntimeError, match="appears to not have been used in the graph"):
        autograd.grad((x * 2).sum(), [x, w])
    gx, gw = autograd.grad((x * 2).sum(), [x, w], materialize_grads=True)
    assert gw.tolist() == [0.0, 0.0]


def test_autograd_grad_leaves_grad_fields_alone():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor([3.0, 4.0], requires_grad=True)
    x.grad = torch.tensor([100.0, 100.0])
    y = x * w
    (g,) = autograd.grad(y.sum(), x)
    assert g.tolist() == [3.0, 4.0]
    assert x.grad.tolist() == [100.0, 100.0]
    assert w.grad is None


def test_autograd_grad_leaves_no_dependency_behind():
    """A node autograd.grad skips still has its count taken down and deleted (engine.cpp: the
    ``dependencies`` update comes before the ``should_execute`` test), so the task ends empty."""
    from mini_autograd.autograd import engine

    class Remember(engine.NoTracer):
        def on_finish(self, graph_task):
            self.dependencies, self.not_ready = dict(graph_task.dependencies), dict(graph_task.not_ready)

    x, w = scalar(2.0, F64).requires_grad_(), scalar(3.0, F64).requires_grad_()
    y = x * w                                   # w's AccumulateGrad is not needed for d/dx
    tracer = Remember()
    (gx,) = engine.run_backward((y,), (torch.ones_like(y),), False, False, inputs=(x,), accumulate_grad=False,
                                tracer=tracer)
    assert gx.item() == 3.0 and w.grad is None
    assert tracer.dependencies == {} and tracer.not_ready == {}


def test_autograd_grad_still_fills_retained_grads():
    """PyTorch runs retain_grad hooks of the nodes it executes, even in autograd.grad."""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * x
    y.retain_grad()
    (g,) = autograd.grad(y.sum(), x)
    assert g.tolist() == [2.0, 4.0]
    assert y.grad.tolist() == [1.0, 1.0]


def test_autograd_grad_of_non_leaf_input():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    z = (y * y).sum()
    (gy,) = autograd.grad(z, y, retain_graph=True)
    assert gy.tolist() == [6.0, 12.0]
    gx, gy2 = autograd.grad(z, [x, y])
    assert gx.tolist() == [18.0, 36.0]
    assert gy2.tolist() == [6.0, 12.0]


def test_autograd_grad_runs_tensor_hooks_on_captured_grad():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.register_hook(lambda g: g * 10)
    (gy,) = autograd.grad((y * y).sum(), y)
    assert gy.tolist() == [40.0, 80.0]


def test_autograd_grad_frees_the_graph_unless_retained():
    x = scalar(2.0)
    y = x * x
    autograd.grad(y, x)
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        autograd.grad(y, x)
    y = x * x
    autograd.grad(y, x, retain_graph=True)
    assert autograd.grad(y, x)[0].item() == 4.0


# --------------------------------------------------------------- create_graph
def test_create_graph_second_derivative_of_cube():
    x = torch.tensor(2.0, requires_grad=True)
    y = x ** 3
    with pytest.warns(UserWarning, match=r"^Using backward\(\) with create_graph=True will create a "
                                         r"reference cycle between the parameter and its gradient"):
        y.backward(create_graph=True)
    assert x.grad.item() == 12.0
    assert x.grad.requires_grad and x.grad.grad_fn is not None
    g = x.grad
    x.grad = None
    g.backward()
    assert x.grad.item() == 12.0             # d/dx 3x**2 = 6x = 12


def test_autograd_grad_create_graph_second_derivative_of_tanh():
    x = scalar(0.5)
    (g,) = autograd.grad(x.tanh(), x, create_graph=True)
    (h,) = autograd.grad(g, x)
    t = math.tanh(0.5)
    assert g.item() == pytest.approx(1 - t * t)
    assert h.item() == pytest.approx(-2 * t * (1 - t * t))


def test_without_create_graph_gradient_has_no_history():
    x = scalar(2.0)
    (g,) = autograd.grad(x ** 3, x)
    assert not g.requires_grad and g.grad_fn is None
    y = x ** 3
    y.backward()
    assert not x.grad.requires_grad


def test_create_graph_mixed_partials():
    x = scalar(1.5)
    w = scalar(-0.5)
    y = (x * w).exp() * x
    gx, gw = autograd.grad(y, [x, w], create_graph=True)
    (gxw,) = autograd.grad(gx, w, retain_graph=True)   # gx and gw share one graph
    (gwx,) = autograd.grad(gw, x)
    # d2/dxdw [x exp(xw)] = exp(xw) (2x + x^2 w)
    expected = math.exp(1.5 * -0.5) * (2 * 1.5 + 1.5 ** 2 * -0.5)
    assert gxw.item() == pytest.approx(expected)
    assert gwx.item() == pytest.approx(expected)


@pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph=True")
def test_grad_mode_restored_after_backward():
    x = scalar(2.0)
    (x ** 3).backward(create_graph=True)
    assert torch.is_grad_enabled()
    with torch.no_grad():
        y = x * 1
    with torch.enable_grad():
        (x * x).backward()
    assert torch.is_grad_enabled()
    assert not y.requires_grad


# ---------------------------------------------------------- graph structure
def test_accumulate_grad_node_identity():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    z = x.exp()
    node = y.grad_fn.next_functions[0][0]
    assert node.name() == "torch::autograd::AccumulateGrad"
    assert node.variable is x
    assert z.grad_fn.next_functions[0][0] is node    # one node per leaf while the graph lives
    assert node.next_functions == ()


def test_next_functions_for_scalar_operands():
    x = torch.tensor([1.0, 2.0], requires_grad=True)

    def edges(t):
        return [(None if n is None else n.name(), i) for n, i in t.grad_fn.next_functions]

    acc = ("torch::autograd::AccumulateGrad", 0)
    assert edges(x * 3) == [acc, (None, 0)]
    assert edges(3 * x) == [acc, (None, 0)]
    assert edges(x + 2) == [acc, (None, 0)]
    assert edges(x ** 2) == [acc]
    assert (2 - x).grad_fn.name() == "RsubBackward1"
    assert edges(2 - x) == [acc]
    assert edges(x - 2) == [acc, (None, 0)]
    assert edges(x / 2) == [acc, (None, 0)]
    assert (2 / x).grad_fn.name() == "MulBackward0"
    assert edges(2 / x) == [("ReciprocalBackward0", 0), (None, 0)]
    assert edges(2 ** x) == [acc]               # the python number is not an input
    assert edges(x * torch.tensor([1.0, 2.0])) == [acc, (None, 0)]
    assert edges(torch.tensor([1.0, 2.0]) * x) == [(None, 0), acc]


def test_next_functions_input_nr_of_multi_output_node():
    x = torch.tensor([[1.0, 5.0], [7.0, 2.0]], requires_grad=True)
    values, _ = x.max(1)
    y = values * 2
    node, input_nr = y.grad_fn.next_functions[0]
    assert node.name() == "MaxBackward0"
    assert input_nr == 0


def test_grad_fn_names_and_is_leaf():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    c = torch.tensor([1.0, 2.0])
    assert x.is_leaf and c.is_leaf and x.grad_fn is None
    y = x * 2
    assert not y.is_leaf and y.requires_grad
    assert y.grad_fn.name() == "MulBackward0"
    assert (x + 1).grad_fn.name() == "AddBackward0"
    assert x.sum().grad_fn.name() == "SumBackward0"
    assert x.mean().grad_fn.name() == "MeanBackward0"
    assert x.exp().grad_fn.name() == "ExpBackward0"
    assert (c * 2).grad_fn is None and not (c * 2).requires_grad
    with torch.no_grad():
        z = x * 2
    assert z.is_leaf and not z.requires_grad


def test_requires_grad_propagates_from_any_input():
    a = torch.tensor([1.0], requires_grad=True)
    b = torch.tensor([2.0])
    assert (a + b).requires_grad and (b + a).requires_grad
    assert not (b + b).requires_grad


# ------------------------------------------------------------- version counter
def test_version_increments_on_every_inplace_change():
    x = torch.ones(3)
    assert x._version == 0
    x.add_(1)
    x.mul_(2)
    x.sub_(1)
    x += 1
    x *= 2
    x[0] = 5.0
    assert x._version == 6
    x.zero_()
    assert x._version == 7
    y = x * 2                                 # out of place: no change
    assert x._version == 7 and y._version == 0


def test_views_and_detach_share_the_version_counter():
    x = torch.ones(4)
    v = x.view(2, 2)
    d = x.detach()
    v.add_(1)
    assert x._version == 1 and v._version == 1 and d._version == 1
    d.mul_(2)
    assert x._version == 2
    assert x.tolist() == [4.0, 4.0, 4.0, 4.0]


def test_modifying_a_saved_input_is_caught():
    a = torch.ones(3, requires_grad=True)
    b = a * 2
    c = b * b                                  # saves b
    b.add_(1)
    assert b._version == 1
    with pytest.raises(RuntimeError, match="one of the variables needed for gradient computation has "
                                           "been modified by an inplace operation"):
        c.sum().backward()


def test_modifying_a_saved_output_is_caught():
    a = torch.ones(3, requires_grad=True)
    b = a.exp()                                # saves its result
    b.mul_(2)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        b.sum().backward()


def test_modifying_a_leaf_under_no_grad_is_caught():
    a = torch.ones(3, requires_grad=True)
    b = (a * a).sum()
    with torch.no_grad():
        a.mul_(2)
    with pytest.raises(RuntimeError, match=r"\[torch.FloatTensor \[3\]\] is at version 1; expected "
                                           r"version 0 instead"):
        b.backward()


def test_inplace_on_a_tensor_nobody_saved_is_fine():
    a = torch.ones(3, requires_grad=True)
    b = a * 2                                  # MulBackward0 with a python number saves nothing of b
    b.add_(1)                                  # b's history now ends in AddBackward0
    assert b.grad_fn.name() == "AddBackward0"
    (b * 3).sum().backward()
    assert a.grad.tolist() == [6.0, 6.0, 6.0]


def test_inplace_mul_records_gradient_through_the_old_value():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = a * 1
    b.mul_(b.detach() + 1)                     # b = a * (a + 1) with the factor constant
    b.sum().backward()
    assert a.grad.tolist() == [2.0, 3.0]


# --------------------------------------------------------------- inference mode
def test_inference_mode_tensors():
    x = torch.ones(3, requires_grad=True)
    with torch.inference_mode():
        t = torch.ones(3)
        w = x * 2
        assert torch.is_inference_mode_enabled() and not torch.is_grad_enabled()
    assert t.is_inference() and w.is_inference()
    assert not w.requires_grad and w.grad_fn is None
    assert not x.is_inference() and not (x * 2).is_inference()
    assert not torch.is_inference_mode_enabled()


def test_inference_tensor_used_without_saving_is_fine():
    with torch.inference_mode():
        t = torch.ones(3)
    x = torch.ones(3, requires_grad=True)
    y = x + t                                  # Add saves nothing
    assert not y.is_inference() and y.requires_grad
    y.sum().backward()
    assert x.grad.tolist() == [1.0, 1.0, 1.0]


def test_inference_tensor_cannot_be_saved_for_backward():
    with torch.inference_mode():
        t = torch.ones(3)
    x = torch.ones(3, requires_grad=True)
    with pytest.raises(RuntimeError, match="^Inference tensors cannot be saved for backward"):
        x * t
    with pytest.raises(RuntimeError, match="^Inference tensors cannot be saved for backward"):
        t * x
    assert (t * torch.ones(3)).tolist() == [1.0, 1.0, 1.0]   # no graph, nothing saved


# -------------------------------------------------------------- gradient dtype
def test_gradient_dtype_follows_the_leaf():
    x = torch.tensor([1.0, 2.0], dtype=F64, requires_grad=True)
    (x * 2).sum().backward()
    assert x.grad.dtype is F64
    y = torch.tensor([1.0, 2.0], requires_grad=True)
    assert y.dtype is torch.float32
    (y * x).sum().backward()                   # float32 * float64 -> float64 result
    assert y.grad.dtype is torch.float32
    assert x.grad.dtype is F64
    assert y.grad.tolist() == [1.0, 2.0]
    assert x.grad.tolist() == [3.0, 4.0]


def test_gradient_of_python_scalar_ops_keeps_float32():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    (x * 2.5 + 1.0 / x - 3 ** x).sum().backward()
    assert x.grad.dtype is torch.float32


# ------------------------------------------------------------- custom Function
class ScaleAndIndex(autograd.Function):
    """y = x * factor (factor a python number); also returns a non-differentiable index."""

    @staticmethod
    def forward(ctx, x, w, factor, label):
        ctx.factor = factor
        ctx.label = label
        ctx.record = tuple(ctx.needs_input_grad)
        ctx.save_for_backward(x, w)
        index = torch.tensor([0])
        ctx.mark_non_differentiable(index)
        return x * w * factor, index

    @staticmethod
    def backward(ctx, grad, grad_index):
        x, w = ctx.saved_tensors
        return (grad * w * ctx.factor if ctx.needs_input_grad[0] else None,
                grad * x * ctx.factor if ctx.needs_input_grad[1] else None, None, None)


def test_custom_function_forward_backward():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor([3.0, 4.0], requires_grad=True)
    y, index = ScaleAndIndex.apply(x, w, 2.0, "hi")
    node = y.grad_fn
    assert node.name() == "ScaleAndIndexBackward"
    assert type(node).__name__ == "ScaleAndIndexBackward"
    assert node.needs_input_grad == (True, True, False, False)
    assert node.record == (True, True, False, False)
    assert node.label == "hi"
    assert y.tolist() == [6.0, 16.0]
    assert not index.requires_grad and index.grad_fn is None
    assert [e[0].name() for e in node.next_functions] == ["torch::autograd::AccumulateGrad"] * 2
    y.sum().backward()
    assert x.grad.tolist() == [6.0, 8.0]
    assert w.grad.tolist() == [2.0, 4.0]


def test_custom_function_needs_input_grad_for_constant_input():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor([3.0, 4.0])
    y, _ = ScaleAndIndex.apply(x, w, 1.0, None)
    assert y.grad_fn.needs_input_grad == (True, False, False, False)
    assert y.grad_fn.next_functions[1] == (None, 0)
    y.sum().backward()
    assert x.grad.tolist() == [3.0, 4.0]


def test_custom_function_without_grad_records_nothing():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with torch.no_grad():
        y, _ = ScaleAndIndex.apply(x, x, 1.0, None)
    assert y.grad_fn is None and not y.requires_grad
    z, _ = ScaleAndIndex.apply(torch.ones(2), torch.ones(2), 1.0, None)
    assert z.grad_fn is None and not z.requires_grad


def test_custom_function_gradient_checked():
    x = torch.tensor([0.5, -1.5], dtype=F64, requires_grad=True)
    w = torch.tensor([2.0, 0.25], dtype=F64, requires_grad=True)
    assert autograd.gradcheck(lambda a, b: ScaleAndIndex.apply(a, b, 3.0, None)[0], (x, w))


def test_custom_function_wrong_number_of_gradients():
    class Two(autograd.Function):
        @staticmethod
        def forward(ctx, x, y):
            return x * y

        @staticmethod
        def backward(ctx, grad):
            return grad

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match=r"^function TwoBackward returned an incorrect number of "
                                           r"gradients \(expected 2, got 1\)$"):
        Two.apply(x, x).sum().backward()


def test_custom_function_wrong_gradient_shape():
    class Bad(autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, grad):
            return torch.ones(5)

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match=r"^Function BadBackward returned an invalid gradient at index "
                                           r"0 - got \[5\] but expected shape compatible with \[2\]$"):
        Bad.apply(x).sum().backward()


class GradForFirstOnly(autograd.Function):
    """Returns None for its second input even when that input requires grad."""

    @staticmethod
    def forward(ctx, x, w):
        return x * w

    @staticmethod
    def backward(ctx, grad):
        return grad, None


def test_custom_function_returning_none_for_a_leaf_that_requires_grad():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor([3.0, 4.0], requires_grad=True)
    GradForFirstOnly.apply(x, w).sum().backward()
    assert x.grad.tolist() == [1.0, 1.0]
    assert w.grad is None                     # no gradient arrived: .grad stays None


def test_no_gradient_flowing_into_a_builtin_node_gives_none_not_zeros():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor([3.0, 4.0], requires_grad=True)
    GradForFirstOnly.apply(x, w.exp()).sum().backward()
    assert x.grad.tolist() == [1.0, 1.0]
    assert w.grad is None                     # PyTorch: ExpBackward0 passes the undefined grad on


def test_custom_function_returning_its_input():
    class Identity(autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, grad):
            return grad * 2

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = Identity.apply(x)
    assert y is not x and y.grad_fn.name() == "IdentityBackward"
    assert x.is_leaf and x.grad_fn is None
    y.sum().backward()
    assert x.grad.tolist() == [2.0, 2.0]


def test_custom_function_second_derivative():
    class Cube(autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            return grad * 3 * x * x            # written with tensor ops: differentiable again

    x = scalar(2.0)
    (g,) = autograd.grad(Cube.apply(x), x, create_graph=True)
    (h,) = autograd.grad(g, x)
    assert g.item() == 12.0 and h.item() == 12.0
