"""Memory: saved tensors are released by backward, and graphs die by reference counting.

A graph must die the moment its output is dropped, not wait for the cycle
collector: saved outputs are kept as bare data and a leaf holds its
AccumulateGrad weakly, as in PyTorch. Every check that a graph is gone runs with
the cycle collector disabled (``no_cycle_collector``), so an object kept alive
only by a reference cycle shows up as a live weakref.
"""
import contextlib
import gc
import tracemalloc
import weakref

import numpy as np
import pytest

import mini_autograd as torch
from mini_autograd import autograd


@contextlib.contextmanager
def no_cycle_collector():
    gc.collect()
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def graph_nodes(tensor):
    """Every node reachable from tensor.grad_fn (iterative walk)."""
    seen, stack, nodes = set(), [tensor.grad_fn], []
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        nodes.append(node)
        stack.extend(n for n, _ in node.next_functions)
    return nodes


def saved_of(tensor):
    """(node, SavedTensor) for every saved tensor in the graph."""
    return [(node, s) for node in graph_nodes(tensor) for s in getattr(node, "_saved", ()) if s is not None]


def assert_dead(refs, what="object"):
    alive = [r() for r in refs if r() is not None]
    assert not alive, f"{len(alive)} {what}(s) still alive: {alive[:3]}"


# --------------------------------------------------------- saved tensor release
def test_backward_releases_saved_tensors():
    x = torch.randn(4, 3, requires_grad=True)
    w = torch.randn(3, 2, requires_grad=True)
    a = x.exp()                 # ExpBackward0 saves its result
    b = (a @ w).tanh()          # MmBackward0 saves a and w; TanhBackward0 saves its result
    loss = (b * b).sigmoid().sum()
    saved = saved_of(loss)
    assert len(saved) >= 5
    names = {node.name() for node, _ in saved}
    assert {"ExpBackward0", "MmBackward0", "TanhBackward0", "MulBackward0", "SigmoidBackward0"} <= names
    assert not any(s.freed for _, s in saved)
    loss.backward()
    for node, s in saved:
        assert s.freed, node.name()
        assert s.data is None, node.name()


def test_retain_graph_keeps_saved_tensors():
    x = torch.randn(3, requires_grad=True)
    loss = (x.exp() * x).sum()
    saved = saved_of(loss)
    loss.backward(retain_graph=True)
    assert saved and all(not s.freed and s.data is not None for _, s in saved)
    loss.backward()
    assert all(s.freed and s.data is None for _, s in saved)


def test_saved_intermediate_arrays_are_deallocated_after_backward():
    """The arrays only the graph kept are gone after backward, though the graph still exists."""
    x = torch.randn(5, requires_grad=True)
    loss = (x.exp().tanh() * x.sigmoid()).sum()
    with no_cycle_collector():
        refs = [weakref.ref(s.data) for _, s in saved_of(loss) if s.data is not x._data]
        assert len(refs) >= 3
        loss.backward()
        assert_dead(refs, "saved array")
        assert loss.grad_fn is not None          # the graph is still there, only emptied


def test_autograd_grad_releases_saved_tensors():
    x = torch.randn(3, requires_grad=True)
    y = (x.tanh() * x.exp()).sum()
    saved = saved_of(y)
    autograd.grad(y, x)
    assert saved and all(s.freed for _, s in saved)


def test_saved_output_is_stored_as_data_not_as_the_output_tensor():
    x = torch.randn(3, requires_grad=True)
    for y in (x.exp(), x.tanh(), x.sigmoid(), x.exp().sqrt(), x.relu(), x.reciprocal()):
        (s,) = [s for s in y.grad_fn._saved if s is not None]
        assert s.is_output
        assert s.tensor is None                  # no Tensor -> node -> Tensor cycle
        assert s.data is y._data


# ------------------------------------------------------ graphs die by refcount
def _check_graph_dies(build):
    """build() -> (output, extra tensors to watch). Dropping the output frees the whole graph."""
    with no_cycle_collector():
        out, watched = build()
        node_refs = [weakref.ref(n) for n in graph_nodes(out)]
        tensor_refs = [weakref.ref(t) for t in watched]
        assert node_refs
        del out, watched
        assert_dead(node_refs, "graph node")
        assert_dead(tensor_refs, "intermediate tensor")


def test_plain_graph_dies_with_its_output():
    x = torch.randn(3, requires_grad=True)

    def build():
        a = x * 2
        b = a.exp()
        return (b * a).sum(), [a, b]

    _check_graph_dies(build)


def test_graph_dies_after_backward():
    x = torch.randn(3, requires_grad=True)

    def build():
        a = x.tanh()
        out = (a * a).sum()
        out.backward()
        return out, [a]

    _check_graph_dies(build)
    assert x.grad is not None


def test_graph_with_saved_outputs_dies():
    x = torch.randn(3, requires_grad=True)

    def build():
        e = x.exp()
        t = e.tanh()
        s = t.sigmoid()
        r = s.sqrt()
        return r.sum(), [e, t, s, r]

    _check_graph_dies(build)


def test_graph_with_retain_grad_dies():
    x = torch.randn(3, requires_grad=True)

    def build():
        a = x * 3
        a.retain_grad()
        b = a.tanh()
        b.retain_grad()
        out = b.sum()
        out.backward(retain_graph=True)
        assert a.grad is not None
        return out, [a, b]

    _check_graph_dies(build)


def test_graph_with_hooks_dies():
    x = torch.randn(3, requires_grad=True)

    def build():
        a = x.exp()
        a.register_hook(lambda g: g * 2)
        a.grad_fn.register_prehook(lambda grads: None)
        a.grad_fn.register_hook(lambda grad_inputs, grad_outputs: None)
        out = (a * a).sum()
        out.backward(retain_graph=True)
        return out, [a]

    _check_graph_dies(build)


def test_graph_with_views_and_indexing_dies():
    x = torch.randn(4, 3, requires_grad=True)

    def build():
        v = x.view(3, 4).t()
        s = v[1:, [0, 0, 2]]
        m = s.max(0)
        out = (m.values * v.sum(0)[:3]).sum() + x.unsqueeze(0).expand(2, 4, 3).mean()
        return out, [v, s, m.values, m.indices]

    _check_graph_dies(build)


def test_graph_with_inplace_ops_dies():
    x = torch.randn(3, requires_grad=True)

    def build():
        a = x * 1
        a.mul_(2)
        a.add_(x)
        out = a.exp().sum()
        return out, [a]

    _check_graph_dies(build)


def test_graph_with_custom_function_dies():
    class Square(autograd.Function):
        @staticmethod
        def forward(ctx, t):
            ctx.save_for_backward(t)
            result = t * t
            return result

        @staticmethod
        def backward(ctx, grad):
            (t,) = ctx.saved_tensors
            return 2 * t * grad

    x = torch.randn(3, requires_grad=True)

    def build():
        a = x.exp()
        b = Square.apply(a)
        out = b.sum()
        return out, [a, b]

    _check_graph_dies(build)


def test_create_graph_gradients_die_with_autograd_grad():
    x = torch.randn(3, requires_grad=True)

    def build():
        y = (x ** 3).sum()
        (g,) = autograd.grad(y, x, create_graph=True)
        (h,) = autograd.grad(g.sum(), x, create_graph=True)
        return h.sum(), [y, g, h]

    _check_graph_dies(build)


def test_accumulate_grad_node_is_held_weakly_by_the_leaf():
    x = torch.randn(3, requires_grad=True)
    with no_cycle_collector():
        y = x * 2
        acc = y.grad_fn.next_functions[0][0]
        assert acc.variable is x
        acc_ref = weakref.ref(acc)
        del acc
        assert acc_ref() is not None             # the graph holds it
        del y
        assert acc_ref() is None                 # the leaf does not
    z = x * 2
    assert z.grad_fn.next_functions[0][0].variable is x   # a new one is made on demand


def test_leaf_outlives_graph_and_graph_does_not_keep_leaf_alive_after_drop():
    with no_cycle_collector():
        x = torch.randn(3, requires_grad=True)
        out = (x.exp() * x).sum()
        out.backward()
        x_ref = weakref.ref(x)
        del x
        assert x_ref() is not None               # the graph's AccumulateGrad holds the leaf
        del out
        assert x_ref() is None


def test_training_like_loop_leaves_nothing_behind():
    torch.manual_seed(0)
    x = torch.randn(16, 3)
    target = torch.randn(16, 1)
    w = torch.randn(3, 1, requires_grad=True)
    b = torch.zeros(1, requires_grad=True)
    losses = []
    with no_cycle_collector():
        refs = []
        for _ in range(20):
            hidden = (x @ w + b).tanh()
            loss = ((hidden - target) ** 2).mean()
            refs.extend(weakref.ref(n) for n in graph_nodes(loss))
            refs.append(weakref.ref(hidden))
            loss.backward()
            with torch.no_grad():
                w -= 0.1 * w.grad
                b -= 0.1 * b.grad
            w.grad = None
            b.grad = None
            losses.append(loss.item())
        del hidden, loss
        assert_dead(refs, "graph object")
    assert losses[-1] < losses[0]


def test_exception_in_backward_does_not_leak_the_graph():
    x = torch.randn(3, requires_grad=True)
    with no_cycle_collector():
        a = x * 2
        y = (a * a).sum()
        a.add_(1)
        refs = [weakref.ref(n) for n in graph_nodes(y)]
        with pytest.raises(RuntimeError, match="modified by an inplace operation"):
            y.backward()
        del a, y
        # pytest's ExceptionInfo keeps the traceback (and its frames) alive until here
    gc.collect()
    assert_dead(refs, "graph node")


# ------------------------------------------------------------------ tracemalloc
N = 1_000_000        # 4 MB per float32 array


def test_memory_returns_to_baseline_after_backward():
    x = torch.ones(N, requires_grad=True)
    with no_cycle_collector():
        tracemalloc.start()
        try:
            baseline = tracemalloc.get_traced_memory()[0]
            a = x * 0.5
            b = a.exp()
            c = (b * a).tanh()
            loss = c.sigmoid().sum()
            del a, b, c
            forward = tracemalloc.get_traced_memory()[0] - baseline
            loss.backward()
            after_backward = tracemalloc.get_traced_memory()[0] - baseline
            del loss
            after_drop = tracemalloc.get_traced_memory()[0] - baseline
        finally:
            tracemalloc.stop()
    mb = 4 * N / 1e6
    print(f"\nforward holds {forward / 1e6:.1f} MB, after backward {after_backward / 1e6:.1f} MB, "
          f"after dropping the output {after_drop / 1e6:.1f} MB (one array is {mb:.0f} MB)")
    assert forward > 3.5 * 4 * N                 # the graph really held four big arrays
    assert after_backward < 4 * N + 1_000_000    # only x.grad (4 MB) remains, plus slack
    assert after_drop < 4 * N + 1_000_000
    # loss = sum(sigmoid(tanh(0.5 x * exp(0.5 x)))); at x = 1 each element's derivative is:
    u = 0.5 * np.exp(0.5)
    s = 1 / (1 + np.exp(-np.tanh(u)))
    expected = s * (1 - s) * (1 - np.tanh(u) ** 2) * 0.75 * np.exp(0.5)
    np.testing.assert_allclose(x.grad.numpy()[[0, N // 2, N - 1]], expected, rtol=1e-5)


def test_memory_is_kept_with_retain_graph_and_freed_by_the_last_backward():
    x = torch.ones(N, requires_grad=True)
    with no_cycle_collector():
        tracemalloc.start()
        try:
            baseline = tracemalloc.get_traced_memory()[0]
            loss = (x.exp() * 2).tanh().sum()
            loss.backward(retain_graph=True)
            retained = tracemalloc.get_traced_memory()[0] - baseline
            loss.backward()
            released = tracemalloc.get_traced_memory()[0] - baseline
        finally:
            tracemalloc.stop()
    assert retained > 2 * 4 * N                  # exp and tanh results still saved, plus x.grad
    assert released < 4 * N + 1_000_000
    assert retained - released > 4 * N


def test_dropping_an_unused_graph_frees_its_memory():
    x = torch.ones(N, requires_grad=True)
    with no_cycle_collector():
        tracemalloc.start()
        try:
            baseline = tracemalloc.get_traced_memory()[0]
            loss = (x.exp().tanh() * x).sum()
            held = tracemalloc.get_traced_memory()[0] - baseline
            del loss
            after = tracemalloc.get_traced_memory()[0] - baseline
        finally:
            tracemalloc.stop()
    assert held > 4 * N
    assert after < 500_000
