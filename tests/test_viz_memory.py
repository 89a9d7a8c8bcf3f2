"""viz.record_memory and viz.plot_memory: memory over one forward and backward pass (torch-free).

The curve rises by one activation per layer in the forward pass, starts backward at what chapter 07's graph
walk counts, falls node by node to zero; stays flat at zero under no_grad; does not fall with
retain_graph=True; peaks lower with checkpointing, whose recomputation shows inside backward. Function.apply
is given back as it was, also after an error. The plot is drawn in both languages.
"""
import matplotlib
import pytest

import mini_autograd as torch
from mini_autograd import nn, viz
from mini_autograd.autograd.function import Function

matplotlib.use("Agg")
ACT = 16 * 32 * 4             # one hidden activation: 16 x 32 float32


class Checkpoint(torch.autograd.Function):
    """Chapter 07's checkpoint."""

    @staticmethod
    def forward(ctx, fn, *inputs):
        ctx.fn = fn
        ctx.save_for_backward(*inputs)
        return fn(*inputs)

    @staticmethod
    def backward(ctx, grad_output):
        inputs = [x.detach().requires_grad_(x.requires_grad) for x in ctx.saved_tensors]
        with torch.enable_grad():
            output = ctx.fn(*inputs)
        torch.autograd.backward(output, grad_output)
        return (None,) + tuple(x.grad for x in inputs)


@pytest.fixture
def net():
    torch.manual_seed(0)
    stem = nn.Sequential(nn.Linear(8, 32), nn.Tanh())
    segments = [nn.Sequential(nn.Linear(32, 32), nn.Tanh(), nn.Linear(32, 32), nn.Tanh()) for _ in range(3)]
    head = nn.Linear(32, 4)
    params = [*stem.parameters(), *[p for s in segments for p in s.parameters()], *head.parameters()]
    x = torch.randn(16, 8)

    def loss(checkpoint=False):
        h = stem(x)
        for segment in segments:
            h = Checkpoint.apply(segment, h) if checkpoint else segment(h)
        return (head(h) ** 2).mean()

    return loss, [*params, x]


def test_training_rises_then_falls_to_zero(net):
    loss, exclude = net
    curve = viz.record_memory(loss, "training", exclude=exclude)
    start = curve.backward_start
    assert curve.saved[0] == 0 and curve.phases[:start] == ["forward"] * start
    assert curve.saved[start - 1] == curve.saved[start] == curve.peak_saved == 7 * ACT + 16 * 4 * 4
    assert all(a <= b for a, b in zip(curve.saved[:start], curve.saved[1:start], strict=False))
    assert all(a >= b for a, b in zip(curve.saved[start:], curve.saved[start + 1:], strict=False))
    assert curve.at_end() == (0, 0) and curve.buffered[start] == 4      # the seed gradient, a float32
    assert curve.forward_steps == 3 * 7 + 2 + 1 + 1 and curve.names[-1] == "AccumulateGrad"
    assert curve.peak == max(s + b for s, b in zip(curve.saved, curve.buffered, strict=True))


def test_no_grad_is_flat_at_zero_and_as_long(net):
    loss, exclude = net
    training = viz.record_memory(loss, "training", exclude=exclude)

    def no_grad():
        with torch.no_grad():
            return loss()

    flat = viz.record_memory(no_grad, "no_grad", exclude=exclude)
    assert flat.backward_start is None and set(flat.saved) == {0} and set(flat.buffered) == {0}
    assert flat.forward_steps == training.forward_steps


def test_retain_graph_keeps_everything(net):
    loss, exclude = net
    curve = viz.record_memory(loss, "retain", exclude=exclude, retain_graph=True)
    assert set(curve.saved[curve.backward_start:]) == {curve.peak_saved}


def test_checkpointing_lowers_the_peak_and_recomputes_in_backward(net):
    loss, exclude = net
    plain = viz.record_memory(loss, "plain", exclude=exclude)
    ckpt = viz.record_memory(lambda: loss(checkpoint=True), "checkpoint", exclude=exclude)
    assert ckpt.peak_saved < plain.peak_saved
    assert "recorded in backward" in ckpt.phases
    assert ckpt.saved[ckpt.backward_start] == 4 * ACT + 16 * 4 * 4       # 3 segment inputs, the last output
    assert max(ckpt.saved[ckpt.backward_start:]) > ckpt.saved[ckpt.backward_start]
    assert ckpt.at_end() == (0, 0)


def test_function_apply_is_restored(net):
    loss, exclude = net
    original = Function.__dict__["apply"]

    def failing():
        loss()
        raise ValueError("boom")

    with pytest.raises(ValueError):
        viz.record_memory(failing, "x")
    assert Function.__dict__["apply"] is original
    viz.record_memory(loss, "y")
    assert Function.__dict__["apply"] is original


def test_the_start_of_backward_is_chapter_07s_count(net):
    """What the curve holds when backward starts is what the graph walk of chapter 07 counts."""
    loss, exclude = net
    from mini_autograd.viz.memory import distinct_bytes, saved_arrays
    out = loss()
    nodes, stack, seen = [], [out.grad_fn], set()
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        nodes.append(node)
        stack.extend(n for n, _ in node.next_functions)
    skip = {id(t._data.base if t._data.base is not None else t._data) for t in exclude}
    walked = distinct_bytes([a for n in nodes for a in saved_arrays(n)], skip)
    curve = viz.record_memory(loss, "training", exclude=exclude)
    assert curve.saved[curve.backward_start] == walked


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_plot_speaks_the_editions_language(net, monkeypatch, lang):
    import re

    import matplotlib.pyplot as plt
    monkeypatch.setenv("BUILDTRACK_LANG", lang)
    loss, exclude = net
    curves = [viz.record_memory(loss, "training", exclude=exclude)]
    ax = viz.plot_memory(curves)
    words = [ax.get_xlabel(), ax.get_ylabel(), ax.get_title(), *[t.get_text() for t in ax.texts],
             *[t.get_text() for t in ax.get_legend().get_texts()][1:]]
    han = [bool(re.search(r"[\u3400-\u9fff]", w)) for w in words]
    assert all(han) if lang == "zh" else not any(han), words
    assert len(ax.lines) >= 3                      # saved, buffered, the line where backward starts
    plt.close(ax.figure)
