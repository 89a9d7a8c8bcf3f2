"""The engine trace of chapter 13: pruning (``backward(inputs=...)``) and reentrant backwards.

- ``trace_backward(out, inputs=[b])`` runs ``backward(inputs=[b])``: the nodes the engine does not run
  (not on a path to the inputs: ``graph_task.exec_info``) are drawn as pruned in every frame and listed at
  step 0; the nodes that run are exactly the others, in the order a pre-hook on every node records, and
  the order PyTorch 2.13 runs them in (skipped without torch).
- A backward run inside a node's backward (a checkpoint: ``autograd.backward`` in a custom Function's
  backward; or ``autograd.grad``, two levels deep) is in the same trace as a nested graph task: its start,
  its depth, its own nodes in a cluster that appears at its start, its queue and counts, then the outer
  node returning and the outer graph task going on. The steps are those a pre-hook records, in PyTorch's
  order too.
- Without a trace the engine reports to nobody; a memory recording leaves a checkpoint's inner backward
  out, as before; the words are Chinese in the Chinese edition.
"""
import re

import pytest

import mini_autograd as torch
from mini_autograd import viz
from mini_autograd.autograd import engine

HAS_DOT = viz.picture.shutil.which("dot") is not None
needs_dot = pytest.mark.skipif(not HAS_DOT, reason="the graphviz program 'dot' is not installed")
HAN = re.compile(r"[\u3400-\u9fff]")


def all_nodes(root):
    seen, stack = [], [root]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.append(node)
        stack.extend(next_node for next_node, _ in node.next_functions)
    return seen


def record_runs(root, ran):
    """A pre-hook on every node behind ``root``: it appends the node's name when the node runs."""
    for node in all_nodes(root):
        node.register_prehook(lambda grads, node=node: ran.append(node.name().rsplit("::", 1)[-1]))


def names_of(order):
    return [name.split(" ", 1)[1] for name in order]


# ---------------------------------------------------------------- pruning
def two_branches(lib):
    a = lib.tensor([1.0, 2.0], requires_grad=True)
    b = lib.tensor([3.0, 4.0], requires_grad=True)
    return a, b, (a.exp() * b.sin()).sum()


def pruned_trace():
    a, b, y = two_branches(torch)
    ran = []
    record_runs(y.grad_fn, ran)
    trace = viz.trace_backward(y, params={"a": a, "b": b}, names={"y": y}, inputs=[b])
    return trace, ran, a, b


def test_the_pruned_nodes_are_the_ones_that_do_not_run():
    trace, ran, a, b = pruned_trace()
    assert trace.order == ["n0 SumBackward0", "n1 MulBackward0", "n3 SinBackward0", "n5 AccumulateGrad"]
    assert names_of(trace.order) == ran                  # what ran, in the order it ran
    assert trace.tasks[0].pruned == ["n2", "n4"]          # ExpBackward0 and a's AccumulateGrad
    assert {node.id for node in trace.graph.nodes} == {*trace.tasks[0].pruned, *(
        name.split()[0] for name in trace.order)}
    assert a.grad is None and b.grad.tolist() == pytest.approx([-2.6911, -4.8298], abs=1e-4)
    rows = dict(viz.trace.frame_rows(trace[0], trace._names))
    assert rows["pruned"] == ["not on a path to the inputs asked for: they will not run", "n2 ExpBackward0",
                              "n4 AccumulateGrad"]
    for frame in trace.frames:                           # in every frame: drawn pruned, never waiting
        states = viz.trace.overlay(trace.graph, frame, trace.tasks)["states"]
        assert states["n2"] == states["n4"] == ("pruned", "pruned")
        assert not {"n2", "n4"} & {node_id for node_id, _count, _grads in frame.waiting}
        assert ("n1", 0) not in frame.edges              # MulBackward0 sends n2 nothing
    assert trace[2].sent[0] == ("n2 ExpBackward0", "None")   # not computed (task_should_compute_output)
    assert "pruned" not in dict(viz.trace.frame_rows(trace[1], trace._names))   # listed at step 0 only


def test_a_trace_without_inputs_prunes_nothing():
    a, b, y = two_branches(torch)
    trace = viz.trace_backward(y, params={"a": a, "b": b})
    assert len(trace.order) == 6 and trace.tasks[0].pruned == [] and trace[0].pruned == []
    assert "pruned" not in trace.frame(0).source
    with pytest.raises(RuntimeError, match="cannot be empty"):
        viz.trace_backward(two_branches(torch)[2], inputs=[])


def test_a_non_leaf_input_is_drawn_retaining_its_grad():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = x * 3
    trace = viz.trace_backward((h.exp() + x).sum(), params={"x": x}, names={"h": h}, inputs=[h])
    assert h.grad.tolist() == pytest.approx([20.0855, 403.4288], abs=1e-3) and x.grad is None
    assert trace[-1].writes == ["h.grad = [ 20.0855, 403.4288]"]     # MulBackward0 runs: h retains its grad
    # h's own node runs too (PyTorch marks it needed: GraphTask::init_to_execute); x's AccumulateGrad does not
    assert trace.order == ["n0 SumBackward0", "n1 AddBackward0", "n2 ExpBackward0", "n4 MulBackward0"]
    assert trace.tasks[0].pruned == ["n3"]


@needs_dot
def test_the_pruned_nodes_are_drawn_so_in_every_picture():
    trace, _ran, _a, _b = pruned_trace()
    for index in range(len(trace)):
        source = trace.frame(index).source
        for node_id in ("n2", "n4"):
            line = next(line for line in source.splitlines() if line.strip().startswith(f"{node_id} "))
            assert "dashed" in line and "pruned" in line
        assert "not on a path to the inputs asked for" in source       # the legend says what it means


def test_pruning_runs_the_nodes_pytorch_runs():
    real = pytest.importorskip("torch")
    _a, b, y = two_branches(real)
    ran = []
    record_runs(y.grad_fn, ran)
    y.backward(inputs=[b])
    assert names_of(pruned_trace()[0].order) == ran


# ---------------------------------------------------------------- reentrant backward
def make_checkpoint(lib, ran):
    """Chapter 07's Checkpoint; its backward puts the pre-hooks on the graph it recomputes, then runs it."""

    class Checkpoint(lib.autograd.Function):
        @staticmethod
        def forward(ctx, fn, *inputs):
            ctx.fn = fn
            ctx.save_for_backward(*inputs)
            return fn(*inputs)

        @staticmethod
        def backward(ctx, grad_output):
            inputs = [x.detach().requires_grad_(x.requires_grad) for x in ctx.saved_tensors]
            with lib.enable_grad():
                output = ctx.fn(*inputs)
            record_runs(output.grad_fn, ran)
            lib.autograd.backward(output, grad_output)
            return (None,) + tuple(x.grad for x in inputs)

    return Checkpoint


def checkpointed(lib, ran):
    x = lib.tensor([0.5, -1.0], requires_grad=True)
    w1 = lib.tensor([1.0, 2.0], requires_grad=True)
    w2 = lib.tensor([-1.0, 0.5], requires_grad=True)

    def two_layers(h):
        return ((h * w1).tanh() * w2).tanh()

    out = make_checkpoint(lib, ran).apply(two_layers, x.exp()).sum()
    record_runs(out.grad_fn, ran)
    return x, w1, w2, out


def checkpoint_trace():
    ran = []
    x, w1, w2, out = checkpointed(torch, ran)
    trace = viz.trace_backward(out, params={"x": x, "w1": w1, "w2": w2}, names={"out": out})
    return trace, ran, (x, w1, w2)


def test_the_inner_backward_is_a_nested_graph_task_in_the_same_trace():
    trace, ran, (x, w1, w2) = checkpoint_trace()
    assert names_of(trace.order) == ran
    assert trace.order == ["n0 SumBackward0", "n1 CheckpointBackward", "n4 TanhBackward0", "n5 MulBackward0",
                           "n7 AccumulateGrad", "n6 TanhBackward0", "n8 MulBackward0", "n9 AccumulateGrad",
                           "n10 AccumulateGrad", "n2 ExpBackward0", "n3 AccumulateGrad"]
    outer, inner = trace.tasks
    assert (outer.number, outer.depth, outer.parent, outer.start) == (1, 0, None, 0)
    assert (inner.number, inner.depth, inner.parent, inner.start) == (2, 1, "n1", 3)
    assert inner.nodes == [f"n{k}" for k in range(4, 11)]
    # Step 2: the checkpoint node runs, and its backward starts graph task 2 before it sends anything.
    assert trace[2].node_id == "n1" and trace[2].started == 2 and trace[2].sent == []
    assert "n1" not in trace[2].done
    # Step 3: graph task 2's own step 0, with its seed, queue and counts; graph task 1 waits in n1.
    start = trace[3]
    assert (start.node_id, start.task, start.depth, start.received, start.ready) == (None, 2, 1, ["[1., 1.]"],
                                                                                    ["n4"])
    assert [node_id for node_id, _count, _grads in start.waiting] == ["n5", "n6", "n7", "n8", "n9", "n10"]
    assert [(paused.task, paused.node_id, paused.ready) for paused in start.paused] == [(1, "n1", [])]
    assert [node_id for node_id, _count, _grads in start.paused[0].waiting] == ["n2", "n3"]
    assert all(frame.task == 2 and frame.depth == 1 for frame in trace.frames[3:11])
    assert trace[10].ready == [] and dict(viz.trace.frame_rows(trace[10], trace._names))["ready queue"] == [
        "empty: graph task 2 is over"]
    # Step 11: the checkpoint node returns the input's gradient; graph task 1 goes on.
    back = trace[11]
    assert (back.node_id, back.task, back.returned, back.paused) == ("n1", 1, True, [])
    assert back.sent == [("n2 ExpBackward0", "[-0.0643,  0.5515]")]
    assert back.ready == ["n2"] and "n1" in back.done
    assert trace[-1].writes == ["x.grad = [-0.1059,  0.2029]"]
    assert [w.grad.tolist() for w in (w1, w2)] == [pytest.approx([-0.1059, 0.1014], abs=1e-4),
                                                   pytest.approx([0.4338, 0.5689], abs=1e-4)]


def test_the_words_say_which_graph_task():
    trace, _ran, _tensors = checkpoint_trace()
    text = str(trace)
    assert "step 2: n1 CheckpointBackward runs\n  received:      [1., 1.]\n" \
           "  sent:          nothing yet: its backward runs graph task 2 first\n" \
           "  ready queue:   empty for now: n1 CheckpointBackward is still running" in text
    assert "step 3: graph task 2 starts (dependencies counted, its root in its ready queue)\n" \
           "  graph task:    graph task 2, reentrant depth 1\n" \
           "                 graph task 1 waits in n1 CheckpointBackward" in text
    assert "step 5: n5 MulBackward0 runs (graph task 2)" in text
    assert "step 11: n1 CheckpointBackward returns, and graph task 1 goes on" in text
    states = viz.trace.overlay(trace.graph, trace[5], trace.tasks)["states"]
    assert states["n1"] == ("nested", "waits for graph task 2") and states["n5"] == ("running", "runs now")
    assert states["n2"] == ("waiting", "waits for 1 more")


@needs_dot
def test_the_nested_cluster_appears_when_its_graph_task_starts():
    trace, _ran, _tensors = checkpoint_trace()
    caption = "graph task 2, inside n1 CheckpointBackward (reentrant depth 1)"
    for index in range(len(trace)):
        source = trace.frame(index).source
        cluster = source[source.index("subgraph cluster_task2"):]
        assert caption in cluster and "n4 " in cluster and "n0 " not in cluster
        hidden = "style=invis" in cluster.split("\n", 3)[1] + cluster.split("\n", 3)[2]
        assert hidden == (index < 3), index
        assert ("waits for a nested graph task" in source) == (3 <= index < 11), index
    states = viz.trace.overlay(trace.graph, trace[2], trace.tasks)["states"]
    assert all(states[f"n{k}"][0] == "hidden" for k in range(4, 11))
    # Not filled: the player lays the picture over itself for the clicks; a filled box would hide its nodes.
    svg = trace.frame(5).svg()
    assert re.search(r'<title>cluster_task2</title>\s*<path fill="transparent"', svg)


def test_the_player_shows_the_nested_steps():
    if not HAS_DOT:
        pytest.skip("the graphviz program 'dot' is not installed")
    from test_viz_trace_player import data_of
    trace, _ran, _tensors = checkpoint_trace()
    data = data_of(trace._repr_html_())
    assert len(data["frames"]) == len(trace) == 14
    assert "n4" not in data["frames"][2]["nodes"] and "n4" in data["frames"][3]["nodes"]   # hidden: no click
    n1 = dict(map(tuple, data["frames"][5]["nodes"]["n1"]))
    assert n1["state"] == ["waits for graph task 2"]
    n2 = dict(map(tuple, data["frames"][5]["nodes"]["n2"]))
    assert n2["state"] == ["waits for 1 more"]


def test_the_nested_steps_are_pytorchs():
    real = pytest.importorskip("torch")
    ran = []
    _x, _w1, _w2, out = checkpointed(real, ran)
    out.backward()
    assert names_of(checkpoint_trace()[0].order) == ran


def nest(lib, ran, levels=2):
    """A Function whose backward runs autograd.grad on a new Nest one level deeper (chapter 13's)."""

    class Nest(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x, level):
            ctx.level = level
            return x.clone()

        @staticmethod
        def backward(ctx, grad):
            if ctx.level < levels:
                with lib.enable_grad():
                    inner = lib.ones(1, requires_grad=True)
                    y = Nest.apply(inner, ctx.level + 1).sum()
                record_runs(y.grad_fn, ran)
                lib.autograd.grad(y, inner)
            return grad, None

    x = lib.ones(1, requires_grad=True)
    out = Nest.apply(x, 0).sum()
    record_runs(out.grad_fn, ran)
    return out


def test_two_levels_deep_and_autograd_grad_captures():
    ran = []
    trace = viz.trace_backward(nest(torch, ran))
    assert names_of(trace.order) == ran
    assert [(task.number, task.depth, task.parent) for task in trace.tasks] == [(1, 0, None), (2, 1, "n1"),
                                                                               (3, 2, "n4")]
    assert trace.tasks[1].captured == ["n5"] and trace.tasks[2].captured == ["n8"]
    captured = [frame for frame in trace.frames if frame.captured]
    assert [(frame.node_id, frame.task) for frame in captured] == [("n8", 3), ("n5", 2)]
    assert str(trace).count("does not run: autograd.grad captures its gradient") == 2
    deepest = next(frame for frame in trace.frames if frame.task == 3 and frame.node_id is not None)
    assert [(paused.task, paused.node_id) for paused in deepest.paused] == [(1, "n1"), (2, "n4")]
    rows = dict(viz.trace.frame_rows(deepest, trace._names))
    assert rows["graph task"] == ["graph task 3, reentrant depth 2", "graph task 2 waits in n4 NestBackward",
                                  "graph task 1 waits in n1 NestBackward"]
    states = viz.trace.overlay(trace.graph, deepest, trace.tasks)["states"]
    assert states["n1"] == ("nested", "waits for graph task 2")
    assert states["n4"] == ("nested", "waits for graph task 3")
    real = pytest.importorskip("torch")
    torch_ran = []
    real.autograd.backward(nest(real, torch_ran))
    assert torch_ran == ran


# ---------------------------------------------------------------- nobody traces
def test_without_a_trace_nothing_is_reported(monkeypatch):
    reports = []
    monkeypatch.setattr(engine.NoTracer, "on_execute", lambda *args: reports.append(args))
    ran = []
    x, _w1, _w2, out = checkpointed(torch, ran)
    out.backward()
    assert reports == [] and engine._worker.tracer is None and x.grad is not None
    viz.trace_backward(checkpointed(torch, [])[3])
    assert engine._worker.tracer is None            # the tracer is the traced backward's only while it runs


def test_a_memory_recording_leaves_the_inner_backward_out():
    ran = []
    x, w1, w2, out = checkpointed(torch, ran)
    curve = viz.record_memory(lambda: checkpointed(torch, [])[3], "checkpointed")
    # The backward's samples: the start, then one after each of the outer graph task's 4 nodes.
    assert curve.names[curve.backward_start:].count("start") == 1
    backward = [name for name, phase in zip(curve.names, curve.phases, strict=True) if phase == "backward"]
    assert backward == ["start", "SumBackward0", "CheckpointBackward", "ExpBackward0", "AccumulateGrad"]


# ---------------------------------------------------------------- Chinese
def test_the_new_words_are_chinese(monkeypatch):
    from test_viz_zh import english_words
    monkeypatch.setenv("BUILDTRACK_LANG", "zh")
    pruned, _ran, _a, _b = pruned_trace()
    nested, _ran, _tensors = checkpoint_trace()
    grad_trace = viz.trace_backward(nest(torch, []))
    for trace, names in ((pruned, {"a", "b", "y"}), (nested, {"x", "w1", "w2", "out"}), (grad_trace, set())):
        texts = [repr(trace)]
        for frame in trace.frames:
            texts += [text for heading, lines in viz.trace.frame_rows(frame, trace._names)
                      for text in [heading, *lines]]
            drawn = viz.trace.overlay(trace.graph, frame, trace.tasks)
            texts += [state for _kind, state in drawn["states"].values()]
            texts += [caption for _task, caption, _ids, _shown in drawn["clusters"]]
        if HAS_DOT:
            from test_viz_zh import _labels
            texts += [label for index in range(len(trace)) for label in _labels(trace.frame(index).source)]
        kept = names | {"NestBackward", "CheckpointBackward", "autograd"}    # autograd.grad: PyTorch's name
        left = sorted({word for text in texts for word in english_words(text, kept)})
        assert left == [], left
    assert HAN.search(str(nested))


def test_the_outline_indents_the_nested_steps():
    trace, _ran, _tensors = checkpoint_trace()
    lines = trace.outline().splitlines()
    assert len(lines) == len(trace) and lines[2] == "step 2: n1 CheckpointBackward runs"
    assert lines[3] == "    step 3: graph task 2 starts (dependencies counted, its root in its ready queue)"
    assert lines[11] == "step 11: n1 CheckpointBackward returns, and graph task 1 goes on"


def test_a_click_on_the_waiting_node_says_it_runs_the_nested_task():
    if not HAS_DOT:
        pytest.skip("the graphviz program 'dot' is not installed")
    from mini_autograd.viz.player import node_rows
    trace, _ran, _tensors = checkpoint_trace()
    n1 = dict(node_rows(trace, 5)["n1"])
    assert n1["state"] == ["waits for graph task 2"] and n1["ran at"] == ["step 2"]
    assert n1["sent"] == ["nothing yet: its backward runs graph task 2 first"]
    assert dict(node_rows(trace, 12)["n1"])["sent"] == ["-> n2 ExpBackward0: [-0.0643,  0.5515]"]


def test_a_custom_functions_gradient_for_a_pruned_node_is_dropped():
    """A custom Function's backward returns every gradient; the engine drops the one for a pruned node
    (only built-in nodes ask task_should_compute_output), and the trace says so."""
    class Product(torch.autograd.Function):
        @staticmethod
        def forward(ctx, u, v):
            ctx.save_for_backward(u, v)
            return u * v

        @staticmethod
        def backward(ctx, grad):
            u, v = ctx.saved_tensors
            return grad * v, grad * u

    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0, 4.0], requires_grad=True)
    y = Product.apply(a.exp(), b.sin()).sum()
    trace = viz.trace_backward(y, params={"a": a, "b": b}, names={"y": y}, inputs=[b])
    target, text = trace[2].sent[0]
    assert target == "n2 ExpBackward0" and text.endswith("(dropped: the node is pruned)")
    assert a.grad is None and b.grad is not None
