"""Chapter 13's claims about PyTorch's engine, against PyTorch 2.13: a leaf's hooks and its AccumulateGrad
node (``torch.autograd.graph.get_gradient_edge``), the layout of the first gradient (the Gradient Layout
Contract of ``functions/accumulate_grad.h``: ``Tensor.stride()`` of ``.grad``), the nodes ``autograd.grad``
and ``backward(inputs=...)`` run, and the threads of nested (reentrant) backwards past ``MAX_DEPTH``
(``engine.h``). Each case runs under both libraries (``crosscheck.assert_same``) and compares what it prints.

What mini_autograd does not do, PyTorch's stealing of a first gradient nobody else holds, is checked as a
difference (``test_stealing_is_a_stated_difference``), so that the chapter and docs/limits.md stay true.
"""
import textwrap
import threading

import pytest

import mini_autograd

try:
    from crosscheck import assert_same
except ImportError:  # tests/ made a package
    from tests.crosscheck import assert_same

CASES = []


def case(id, code):
    CASES.append(pytest.param(textwrap.dedent(code), id=id))


case("leaf_hooks_live_on_the_tensor_node_is_made_anew", """
    ran = []
    x = torch.ones(2, requires_grad=True)
    edge = torch.autograd.graph.get_gradient_edge(x)
    print(x.grad_fn, edge.node.name(), edge.output_nr, type(edge).__name__)
    edge.node.register_prehook(lambda g: ran.append("node"))
    x.register_hook(lambda g: ran.append("tensor"))
    (x * 2).sum().backward()
    del edge
    (x * 2).sum().backward()
    y = x * 2
    print(ran, y.grad_fn.next_functions[0][0] is torch.autograd.graph.get_gradient_edge(x).node)
""")
case("get_gradient_edge_of_a_non_leaf_and_an_error", """
    x = torch.ones(2, requires_grad=True)
    y = x.exp()
    edge = torch.autograd.graph.get_gradient_edge(y)
    print(edge.node is y.grad_fn, edge.output_nr, edge.ownership_token)
    try:
        torch.autograd.graph.get_gradient_edge(torch.ones(2))
    except RuntimeError as error:
        print(error)
""")
case("strides_and_data_ptr", """
    a = torch.tensor([[1., 2., 3.], [4., 5., 6.]])
    t = a.t()
    print(a.stride(), t.stride(), t.stride(0), t.stride(-1), t.is_contiguous(), a.is_contiguous())
    print(t.data_ptr() == a.data_ptr(), a[1].data_ptr() - a.data_ptr() == 3 * a.element_size())
    print(torch.ones(3, 1).stride(), torch.zeros(0, 3).stride(), torch.zeros(2, 0, 3).stride(),
          torch.ones(3).expand(2, 3).stride())
""")
case("first_gradient_keeps_the_parameters_layout", """
    for make in (lambda: torch.randn(3, 2).t(), lambda: torch.randn(2, 3, 4).permute(2, 0, 1),
                 lambda: torch.randn(4, 4)[:, ::2], lambda: torch.randn(3)):
        w = make().detach().requires_grad_()
        (w * 2).sum().backward()
        first = w.grad.stride()
        (w * 3).sum().backward()
        print(w.shape, w.stride(), first, w.grad.stride(), w.grad.sum().item())
    w = torch.randn(3, 2).t().detach().requires_grad_()
    (torch.ones(3, 2) @ w).sum().backward()
    print(w.grad.stride())
""")
case("post_accumulate_hook_optimizer_in_backward", """
    w1 = torch.tensor([[0.5, -0.2], [0.1, 0.4]], requires_grad=True)
    w2 = torch.tensor([[1.0], [-1.0]], requires_grad=True)
    params = {"w1": w1, "w2": w2}
    events = []
    def step(p):
        name = [n for n, q in params.items() if q is p][0]
        events.append((name, sum(q.grad is not None for q in params.values())))
        with torch.no_grad():
            p -= 0.1 * p.grad
        p.grad = None
    for p in params.values():
        p.register_post_accumulate_grad_hook(step)
    ((torch.tensor([[1.0, 2.0]]) @ w1).tanh() @ w2).sum().backward()
    print(events, w1.grad, w2.grad, w1, w2)
""")
case("pruning_which_nodes_run", """
    def nodes(root):
        seen, stack = [], [root]
        while stack:
            n = stack.pop()
            if n is None or n in seen:
                continue
            seen.append(n)
            stack.extend(f for f, _ in n.next_functions)
        return seen
    a = torch.tensor([1., 2.], requires_grad=True)
    b = torch.tensor([3., 4.], requires_grad=True)
    u = b.sin().cos().tanh()
    y = (a.exp() * u).sum()
    ran = []
    for n in nodes(y.grad_fn):
        n.register_prehook(lambda g, n=n: ran.append(n.name()))
    for run in (lambda: torch.autograd.grad(y, a, retain_graph=True),
                lambda: torch.autograd.grad(y, b, retain_graph=True),
                lambda: torch.autograd.grad(y, u, retain_graph=True),
                lambda: torch.autograd.grad(y, [u, a], retain_graph=True),
                lambda: y.backward(inputs=[b], retain_graph=True),
                lambda: y.backward(inputs=[u], retain_graph=True),
                lambda: y.backward()):
        run()
        print(ran, a.grad, b.grad)
        ran.clear()
""")
NESTED = """
    import threading
    def nested(levels):
        records = []
        class Nest(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x, level):
                ctx.level = level
                return x.clone()
            @staticmethod
            def backward(ctx, grad):
                records.append((ctx.level, threading.get_ident(), torch.is_grad_enabled()))
                if ctx.level < levels:
                    with torch.enable_grad():
                        inner = torch.ones(1, requires_grad=True)
                        torch.autograd.grad(Nest.apply(inner, ctx.level + 1).sum(), inner)
                return grad, None
        Nest.apply(torch.ones(1, requires_grad=True), 0).sum().backward()
        threads = {threading.get_ident(): 0}
        return [(level, threads.setdefault(t, len(threads)), mode) for level, t, mode in records]
"""
case("reentrant_same_thread_up_to_max_depth", NESTED + """
    print(nested(60))
    print(nested(61))
""")
case("reentrant_levels_past_max_depth_switch_thread", NESTED + """
    print(nested(130))
""")
case("reentrant_backward_call_inside_backward_and_error", """
    class Inner(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2
        @staticmethod
        def backward(ctx, grad):
            with torch.enable_grad():
                z = torch.ones(2, requires_grad=True)
                (z * z).sum().backward()
            print("inner z.grad", z.grad, torch.is_grad_enabled())
            return grad * 2
    x = torch.ones(2, requires_grad=True)
    Inner.apply(x).sum().backward()
    print(x.grad)
""")


@pytest.mark.parametrize("code", CASES)
def test_same_as_torch(code):
    assert_same(code)


def test_an_error_past_max_depth_reaches_the_caller():
    """An error raised in a backward run on the hand-off thread is raised again in the waiting thread."""
    torch = mini_autograd

    class Nest(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, level):
            ctx.level = level
            return x.clone()

        @staticmethod
        def backward(ctx, grad):
            if ctx.level == 65:
                raise ValueError(f"from level 65 on thread {threading.get_ident()}")
            with torch.enable_grad():
                inner = torch.ones(1, requires_grad=True)
                torch.autograd.grad(Nest.apply(inner, ctx.level + 1).sum(), inner)
            return grad, None

    with pytest.raises(ValueError, match="from level 65 on thread") as caught:
        Nest.apply(torch.ones(1, requires_grad=True), 0).sum().backward()
    assert str(threading.get_ident()) not in str(caught.value)
    assert torch.is_grad_enabled()
    from mini_autograd.autograd import engine
    assert engine._worker.current_depth == 0 and not engine._worker.in_backward


STEAL = """
    returned = {}
    class Triple(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.clone()
        @staticmethod
        def backward(ctx, grad):
            result = grad * 3
            returned["address"] = result.data_ptr()
            return result
    x = torch.ones(3, requires_grad=True)
    Triple.apply(x).sum().backward()
    print(x.grad.data_ptr() == returned["address"], x.grad)
"""


def test_stealing_is_a_stated_difference():
    """PyTorch makes a first gradient nobody else holds ``.grad`` without a copy; mini_autograd copies it
    (chapter 13, section 1c; docs/limits.md)."""
    from crosscheck import run_snippet
    torch = pytest.importorskip("torch")
    code = textwrap.dedent(STEAL)
    assert run_snippet(code, torch)["stdout"].startswith("True")
    assert run_snippet(code, mini_autograd)["stdout"].startswith("False")


PRUNING_PROGRAMS = 40


def pruning_program(seed):
    """A random graph over three leaves, a post-hook on every node recording which gradients it returns,
    then ``autograd.grad`` or ``backward(inputs=...)`` for a random part of the leaves and intermediates."""
    import random
    rng = random.Random(seed)
    lines = ["leaves = [torch.tensor([0.5, -1.0], requires_grad=True), torch.tensor([2.0, 0.25], "
             "requires_grad=True), torch.tensor([1.5, 3.0], requires_grad=True)]",
             "values = list(leaves)"]
    for _ in range(rng.randint(3, 7)):
        a, b = rng.randrange(100), rng.randrange(100)
        op = rng.choice(["values[{a}] * values[{b}]", "values[{a}] + values[{b}]",
                         "values[{a}] - values[{b}]", "values[{a}].exp() * values[{b}].sin()",
                         "torch.cat([values[{a}], values[{b}]])[1:3]",
                         "torch.stack([values[{a}], values[{b}]]).sum(0)",
                         "values[{a}] / (values[{b}] ** 2 + 1)",
                         "torch.where(values[{a}] > 0, values[{a}], values[{b}])"])
        lines.append(f"values.append({op.format(a=f'{a} % len(values)', b=f'{b} % len(values)')})")
    wanted = sorted(rng.sample(range(3), rng.randint(1, 2)))
    middle = rng.randrange(3, 100)
    lines += [
        "out = (values[-1] * values[-2]).sum()",
        "returned = []",
        "seen, stack = set(), [out.grad_fn]",
        "while stack:",
        "    node = stack.pop()",
        "    if node is None or node in seen:",
        "        continue",
        "    seen.add(node)",
        "    node.register_hook(lambda grad_inputs, grad_outputs, node=node: returned.append(",
        "        (node.name(), [None if g is None else [round(v, 4) for v in g.reshape(-1).tolist()]",
        "                       for g in grad_inputs])))",
        "    stack.extend(n for n, _ in node.next_functions)",
        f"inputs = [leaves[i] for i in {wanted}] + [values[{middle} % len(values)]]",
    ]
    if rng.random() < 0.5:
        lines += ["grads = torch.autograd.grad(out, inputs, allow_unused=True)",
                  "print([None if g is None else g.tolist() for g in grads])"]
    else:
        lines += ["out.backward(inputs=inputs[:-1])",
                  "print([None if t.grad is None else t.grad.tolist() for t in leaves])"]
    lines += ["print(sorted(returned, key=repr))"]
    return "\n".join(lines)


@pytest.mark.parametrize("seed", range(PRUNING_PROGRAMS))
def test_pruned_edges_get_no_gradient_as_in_torch(seed):
    """A built-in node computes only the gradients the pruning backward needs (node.h:
    task_should_compute_output): its post-hook sees None on the other edges, in both libraries."""
    pytest.importorskip("torch")
    assert_same(pruning_program(seed))
