"""mini_autograd.viz: graph pictures and the engine trace.

- DOT source and text description of the seeds' graphs: node names, leaves,
  saved tensors, edge direction, colours;
- determinism: the same graph gives byte-identical output, in one process and
  in fresh processes with different hash seeds; no memory addresses anywhere;
- what Jupyter receives: text/html with an <img> data URI (masked by the nbval
  sanitize file) and text/plain, never image/svg+xml;
- the fallback without the `dot` program (a subprocess with a PATH that lacks it);
- a 5,000-op chain drawn in seconds;
- the trace of a diamond graph in the engine's order and in PyTorch's.
"""
import base64
import itertools
import json
import os
import re
import subprocess
import sys
import textwrap
import time
from collections import deque
from pathlib import Path

import pytest

import mini_autograd as torch
from mini_autograd import viz

REPO = Path(__file__).resolve().parents[1]
HAS_DOT = viz.picture.shutil.which("dot") is not None
needs_dot = pytest.mark.skipif(not HAS_DOT, reason="the graphviz program 'dot' is not installed")


def seed_graph():
    """003, "计算图": x = ones(2, 2); y = x + 2; z = y * y * 3; out = z.mean()."""
    x = torch.ones(2, 2, requires_grad=True)
    y = x + 2
    z = y * y * 3
    out = z.mean()
    return x, y, z, out


def diamond(lib):
    """a feeds two branches that meet again: the engine must wait for both."""
    x = lib.tensor([0.5, -1.0], requires_grad=True)
    a = x * 2
    b = a.exp()
    c = a.tanh()
    out = (b * c).sum()
    return x, out


def shared_two_leaves(lib):
    """Two leaves, h used three times, x reached along two paths."""
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    w = lib.tensor([0.5, -1.0], requires_grad=True)
    h = x * w
    u = h + x
    v = h * w
    out = (u * v).sum() + h.sum()
    return (x, w), out


def edges(source):
    """The ``a -> b`` pairs of a DOT source, in order."""
    return re.findall(r"^\t(\w+) -> (\w+)", source, flags=re.MULTILINE)


def node_attrs(source, name):
    match = re.search(rf"^\t{name} \[(.*)\]$", source, flags=re.MULTILINE)
    assert match, f"no node {name} in the DOT source"
    return match.group(1)


def sanitize_rules():
    """The (regex, replace) pairs of tests/nbval_sanitize.cfg, as nbval reads them."""
    lines = (REPO / "tests" / "nbval_sanitize.cfg").read_text(encoding="utf-8").splitlines()
    return [(line[len("regex: "):], nxt[len("replace: "):])
            for line, nxt in itertools.pairwise(lines)
            if line.startswith("regex: ") and nxt.startswith("replace: ")]


def sanitize(text):
    for regex, replace in sanitize_rules():
        text = re.sub(regex, replace, text)
    return text


# ------------------------------------------------------------------ draw
SEED_TEXT = """\
backward graph of out: 5 nodes, 1 leaf
  (arrows point the way gradients flow in backward())
  output out scalar = 27. -> n0 MeanBackward0
  n0 MeanBackward0 -> n1 MulBackward0
  n1 MulBackward0 -> n2 MulBackward0, None
  n2 MulBackward0 -> n3 AddBackward0, n3 AddBackward0
  n3 AddBackward0 -> n4 AccumulateGrad, None
  n4 AccumulateGrad -> leaf x [2, 2] = [[1., 1.], [1., 1.]]"""


def test_seed_graph_in_words():
    x, _, _, out = seed_graph()
    picture = viz.draw(out, params={"x": x}, names={"out": out})
    assert picture.text == SEED_TEXT
    assert repr(picture) == str(picture) == SEED_TEXT


def test_seed_graph_dot_source():
    x, _, _, out = seed_graph()
    source = viz.draw(out, params={"x": x}).source
    # Arrows go the way gradients flow: output -> grad_fn -> ... -> AccumulateGrad -> leaf.
    assert edges(source) == [("out0", "n0"), ("n0", "n1"), ("n1", "n2"), ("n2", "n3"), ("n2", "n3"),
                             ("n3", "n4"), ("n4", "leaf_n4")]
    for name, op in [("n0", "MeanBackward0"), ("n1", "MulBackward0"), ("n3", "AddBackward0"),
                     ("n4", "AccumulateGrad")]:
        assert f"<B>{op}</B>" in node_attrs(source, name)
    # torchviz's colours: outputs green, leaves light blue, backward nodes grey.
    assert "fillcolor=darkolivegreen1" in node_attrs(source, "out0")
    assert "fillcolor=lightblue" in node_attrs(source, "leaf_n4")
    assert "<B>x</B>" in node_attrs(source, "leaf_n4")
    assert "fillcolor=lightgrey" in node_attrs(source, "n2")
    assert "direction gradients flow in backward()" in node_attrs(source, "legend")
    assert "rankdir=TB" in source


def test_thirty_second_example():
    """003, "30 秒的例子": z = x ** 2 + y * 3 with two scalar leaves."""
    x = torch.tensor(2.0, requires_grad=True)
    y = torch.tensor(3.0, requires_grad=True)
    z = x ** 2 + y * 3
    z.backward()
    text = viz.draw(z, params={"x": x, "y": y}, names={"z": z}).text
    assert text == textwrap.dedent("""\
        backward graph of z: 5 nodes, 2 leaves
          (arrows point the way gradients flow in backward())
          output z scalar = 13. -> n0 AddBackward0
          n0 AddBackward0 -> n1 PowBackward0, n2 MulBackward0
          n1 PowBackward0 -> n3 AccumulateGrad
          n2 MulBackward0 -> n4 AccumulateGrad, None
          n3 AccumulateGrad -> leaf x scalar = 2., grad = 4.
          n4 AccumulateGrad -> leaf y scalar = 3., grad = 3.""")


def test_saved_tensors_listed_then_marked_freed():
    x, y, _, out = seed_graph()
    before = viz.draw(out, params={"x": x}, names={"y": y}, show_saved=True)
    assert "      saved self = y [2, 2] = [[3., 3.], [3., 3.]]" in before.text
    assert "      saved other = y [2, 2] = [[3., 3.], [3., 3.]]" in before.text
    assert "fillcolor=orange" in node_attrs(before.source, "saved_n2")
    assert ("n2", "saved_n2") in edges(before.source)

    out.backward()
    after = viz.draw(out, params={"x": x}, names={"y": y}, show_saved=True)
    assert "      saved self (freed)" in after.text
    assert "      saved other (freed)" in after.text
    assert "freed" in node_attrs(after.source, "saved_n2")
    assert "dashed" in node_attrs(after.source, "saved_n2")
    assert "grad = [[4.5000, 4.5000], [4.5000, 4.5000]]" in after.text


def test_saved_tensors_hidden_by_default():
    x, _, _, out = seed_graph()
    picture = viz.draw(out, params={"x": x})
    assert "saved" not in picture.text
    assert "saved_" not in picture.source


def test_retain_grad_and_outputs_are_distinct():
    x, y, z, out = seed_graph()
    y.retain_grad()
    out.backward()
    picture = viz.draw([out, z], params={"x": x, "y": y})
    lines = picture.text.splitlines()
    assert lines[0] == "backward graph of output 0, output 1: 5 nodes, 1 leaf"
    assert "  output 0 scalar = 27. -> n0 MeanBackward0" in lines
    assert "  output 1 [2, 2] = [[27., 27.], [27., 27.]] -> n1 MulBackward0" in lines
    assert ("  retains grad y [2, 2] = [[3., 3.], [3., 3.]], grad = [[4.5000, 4.5000], [4.5000, 4.5000]]"
            " -> n3 AddBackward0") in lines
    assert "#fff59d" in node_attrs(picture.source, "retained_n3_0")       # yellow
    assert "fillcolor=darkolivegreen1" in node_attrs(picture.source, "out1")
    assert ("n3", "retained_n3_0") in edges(picture.source)


def test_shared_subgraph_drawn_once():
    (x, w), out = shared_two_leaves(torch)
    picture = viz.draw(out, params=[("x", x), ("w", w)])    # (name, tensor) pairs, like named_parameters()
    node_lines = [line for line in picture.text.splitlines() if re.match(r"  n\d+ ", line)]
    ids = [line.split()[0] for line in node_lines]
    assert ids == [f"n{i}" for i in range(len(ids))]         # every node once, numbered in order
    assert sum(line.split()[1] == "AccumulateGrad" for line in node_lines) == 2
    assert "leaf x [2] = [1., 2.]" in picture.text and "leaf w [2] = [ 0.5000, -1.0000]" in picture.text
    declared = re.findall(r"^\t(n\d+) \[", picture.source, flags=re.MULTILINE)
    assert declared == ids                                   # one box per node in the picture


def test_params_accepts_a_module_like_object():
    x, _, _, out = seed_graph()

    class Module:
        def named_parameters(self):
            yield "weight", x

    assert "leaf weight [2, 2]" in viz.draw(out, params=Module()).text
    with pytest.raises(TypeError, match="not a Tensor"):
        viz.draw(out, params={"x": 1.0})


def test_unnamed_leaves_and_tensors_without_graph():
    x, _, _, out = seed_graph()
    assert "n4 AccumulateGrad -> leaf 0 [2, 2]" in viz.draw(out).text
    plain = torch.ones(2)
    text = viz.draw(plain).text
    assert text.splitlines()[0] == "backward graph of output: 0 nodes, 0 leaves"
    assert "no grad_fn" in text
    leaf_only = viz.draw(x, params={"x": x}).text        # a leaf as the output: its AccumulateGrad
    assert "n0 AccumulateGrad -> leaf x [2, 2]" in leaf_only


def test_values_hidden_for_big_tensors_and_on_request():
    x = torch.ones(4, 4, requires_grad=True)
    out = (x * 2).sum()
    text = viz.draw(out, params={"x": x}).text
    assert text.endswith("n2 AccumulateGrad -> leaf x [4, 4]")     # 16 values: not printed
    assert "output scalar = 32. -> n0 SumBackward0" in text
    assert "output scalar -> n0 SumBackward0" in viz.draw(out, show_values=False).text


def test_same_graph_same_output_twice():
    pictures = []
    for _ in range(2):
        x, y, _, out = seed_graph()
        pictures.append(viz.draw(out, params={"x": x}, names={"y": y}, show_saved=True))
    assert pictures[0].source == pictures[1].source
    assert pictures[0].text == pictures[1].text


def test_same_output_in_fresh_processes():
    script = textwrap.dedent("""
        import json
        import mini_autograd as torch
        from mini_autograd import viz
        x = torch.ones(2, 2, requires_grad=True)
        y = x + 2
        z = y * y * 3
        out = z.mean()
        picture = viz.draw(out, params={"x": x}, names={"y": y}, show_saved=True)
        print(json.dumps([picture.source, picture.text]))
    """)
    results = []
    for seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                             env=env, cwd=REPO, check=True)
        results.append(json.loads(run.stdout))
    x, y, _, out = seed_graph()
    here = viz.draw(out, params={"x": x}, names={"y": y}, show_saved=True)
    assert results[0] == results[1] == [here.source, here.text]


def test_no_memory_addresses():
    x, y, _, out = seed_graph()
    picture = viz.draw(out, params={"x": x}, show_saved=True)
    trace = viz.trace_backward(out, params={"x": x})
    for text in (picture.text, picture.source, repr(trace)):
        assert "0x" not in text and " at " not in text
    if HAS_DOT:
        for html in (picture._repr_html_(), trace._repr_html_()):
            assert "0x" not in sanitize(html)


# ------------------------------------------------------------ in Jupyter
@needs_dot
def test_jupyter_gets_html_img_and_text_not_svg():
    from IPython.core.formatters import DisplayFormatter

    x, _, _, out = seed_graph()
    picture = viz.draw(out, params={"x": x}, names={"out": out})
    data, _ = DisplayFormatter().format(picture)
    assert set(data) == {"text/plain", "text/html"}
    assert data["text/plain"] == SEED_TEXT
    html = data["text/html"]
    payload = re.search(r'src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)"', html).group(1)
    assert "<svg" in base64.b64decode(payload).decode("utf-8")
    # The sanitize file masks the picture's bytes, and nothing else varies.
    assert sanitize(html) == (
        '<div style="max-width:100%;overflow-x:auto"><img src="data:image/svg+xml;base64,PICTURE" '
        'alt="backward graph of out" style="max-width:100%;height:auto"></div>')


@needs_dot
@pytest.mark.parametrize("suffix, magic", [(".svg", b"<?xml"), (".png", b"\x89PNG"), (".pdf", b"%PDF"),
                                           (".dot", b"digraph")])
def test_save(tmp_path, suffix, magic):
    x, _, _, out = seed_graph()
    path = viz.draw(out, params={"x": x}).save(tmp_path / f"graph{suffix}")
    assert path.read_bytes().startswith(magic)


def test_save_rejects_other_formats(tmp_path):
    x, _, _, out = seed_graph()
    with pytest.raises(ValueError, match="svg, .png, .pdf"):
        viz.draw(out).save(tmp_path / "graph.jpg")


NO_DOT_SCRIPT = """
import json, warnings
from IPython.core.formatters import DisplayFormatter
import mini_autograd as torch
from mini_autograd import viz

x = torch.ones(2, 2, requires_grad=True)
out = ((x + 2) * (x + 2) * 3).mean()
picture = viz.draw(out, params={"x": x})
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    first, _ = DisplayFormatter().format(picture)
    second, _ = DisplayFormatter().format(picture)
    trace, _ = DisplayFormatter().format(viz.trace_backward(out, params={"x": x}))
try:
    picture.save("graph.png")
    save_error = None
except viz.DotNotFoundError as error:
    save_error = str(error)
print(json.dumps({"first": first, "second": second, "trace": trace, "text": picture.text,
                  "warnings": [str(w.message) for w in caught], "save_error": save_error}))
"""


def test_without_dot_text_and_a_warning(tmp_path):
    """Run with a PATH that has no `dot`: no exception, the text shown, the hints given once."""
    env = dict(os.environ, PATH=str(tmp_path))
    run = subprocess.run([sys.executable, "-c", NO_DOT_SCRIPT], capture_output=True, text=True,
                         env=env, cwd=tmp_path, check=True)
    assert "Traceback" not in run.stderr
    result = json.loads(run.stdout)
    assert result["first"] == {"text/plain": result["text"]}        # no html: the text shows
    assert result["second"] == {"text/plain": result["text"]}
    assert set(result["trace"]) == {"text/plain"}
    assert result["trace"]["text/plain"].startswith("backward trace of output: 6 steps")
    assert len(result["warnings"]) == 1                               # once per session
    hint = result["warnings"][0]
    for command in ("conda install -c conda-forge graphviz python-graphviz",
                    "sudo apt-get install graphviz", "brew install graphviz"):
        assert command in hint
    assert "brew install graphviz" in result["save_error"]


# ----------------------------------------------------------- big graphs
def chain(length):
    x = torch.ones(2, requires_grad=True)
    y = x
    for _ in range(length):
        y = y * 1.0001
    return x, y


@needs_dot
def test_5000_op_chain_draws_in_seconds():
    x, y = chain(5000)
    start = time.perf_counter()
    picture = viz.draw(y, params={"x": x})
    html = picture._repr_html_()
    elapsed = time.perf_counter() - start
    assert elapsed < 5, f"drawing a 5,000-op chain took {elapsed:.1f} s"
    assert html.startswith("<div") and len(html) < 50_000
    assert picture.text.splitlines()[0] == "backward graph of output: 5001 nodes, 1 leaf"
    assert "  n0 MulBackward0 \u00d75000 (n0..n4999) -> n5000 AccumulateGrad, None" in picture.text
    assert "\u00d7N: a chain of N nodes" in node_attrs(picture.source, "legend")


def test_long_chain_in_full_and_cut():
    x, y = chain(300)
    full = viz.draw(y, max_nodes=None)
    assert len([line for line in full.text.splitlines() if "MulBackward0 ->" in line]) == 300
    x = torch.ones(3, requires_grad=True)
    total = x.sum()
    for i in range(150):                  # not a chain: each Add has two inputs
        total = total + (x * float(i)).sum()
    cut = viz.draw(total, max_nodes=50)
    assert cut.text.endswith("... 402 more nodes not drawn (raise max_nodes to see them)")
    assert "more" in {target for _, target in edges(cut.source)}


# ----------------------------------------------------------------- trace
DIAMOND_ORDER = ["n0 SumBackward0", "n1 MulBackward0", "n3 TanhBackward0", "n2 ExpBackward0",
                 "n4 MulBackward0", "n5 AccumulateGrad"]


def test_trace_diamond_in_engine_order():
    x, out = diamond(torch)
    trace = viz.trace_backward(out, params={"x": x})
    # Tanh (made after Exp, so a higher sequence number) runs first; the a = x * 2 node
    # waits for both branches.
    assert trace.order == DIAMOND_ORDER
    start, *steps = trace.frames
    assert start.received == ["1."] and start.ready == ["n0"]
    assert [(node_id, count) for node_id, count, _ in start.waiting] == [
        ("n1", 1), ("n2", 1), ("n3", 1), ("n4", 2), ("n5", 1)]
    after_mul = steps[1]
    assert after_mul.ready == ["n3", "n2"]                     # next to run first
    after_tanh = steps[2]
    assert after_tanh.ready == ["n2"]
    assert after_tanh.waiting[0][:2] == ("n4", 1) and after_tanh.waiting[0][2] != ["None"]
    last = steps[-1]
    assert last.writes == ["x.grad = [ 6.4237, -0.2418]"]
    assert last.ready == [] and last.waiting == []
    assert x.grad.tolist() == pytest.approx([6.4237, -0.2418], abs=1e-4)


def test_trace_gives_the_same_grads_as_backward():
    (x, w), out = shared_two_leaves(torch)
    viz.trace_backward(out)
    (x2, w2), out2 = shared_two_leaves(torch)
    out2.backward()
    assert x.grad.tolist() == x2.grad.tolist() and w.grad.tolist() == w2.grad.tolist()


def traced_seed_text():
    x, y, _, out = seed_graph()
    y.retain_grad()
    return repr(viz.trace_backward(out, params={"x": x}, names={"y": y, "out": out}))


def test_trace_text_and_retained_writes():
    text = traced_seed_text()
    assert text.splitlines()[0] == "backward trace of out: 5 steps, in the engine's order"
    assert "step 4: n3 AddBackward0 runs" in text
    assert "  wrote:         y.grad = [[4.5000, 4.5000], [4.5000, 4.5000]]" in text
    assert "  wrote:         x.grad = [[4.5000, 4.5000], [4.5000, 4.5000]]" in text
    assert "-> None (this input needs no gradient)" in text
    assert text == traced_seed_text()


def test_trace_frees_saved_tensors_unless_retain_graph():
    _, out = diamond(torch)
    viz.trace_backward(out)
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        out.backward()
    _, out = diamond(torch)
    viz.trace_backward(out, retain_graph=True)
    out.backward()


def test_trace_of_a_leaf_and_of_a_long_chain():
    s = torch.tensor(2.0, requires_grad=True)
    trace = viz.trace_backward(s, params={"s": s})
    assert repr(trace).splitlines()[0] == "backward trace of s: 1 step, in the engine's order"
    assert trace[1].writes == ["s.grad = 1."]

    _, y = chain(150)
    trace = viz.trace_backward(y.sum())
    assert len(trace) == 153
    assert trace._repr_html_() is None                       # too big for a picture per step
    text = repr(trace)
    assert "  ... and 139 more nodes" in text and text.endswith("... 113 more steps: see trace.frame(i)")


@needs_dot
def test_trace_display_is_small_and_masked():
    from IPython.core.formatters import DisplayFormatter

    x, out = diamond(torch)
    trace = viz.trace_backward(out, params={"x": x})
    data, _ = DisplayFormatter().format(trace)
    assert set(data) == {"text/plain", "text/html"}
    html = data["text/html"]
    assert len(html) < 400_000
    assert html.count("<img ") == 1 and "data:image/gif;base64," in html   # test_viz_trace_player.py
    masked = sanitize(html)
    assert masked.count("data:image/svg+xml;base64,PICTURE") == len(trace) == 7
    assert "step 3: n3 TanhBackward0 runs" in masked
    assert "n4 MulBackward0: 1 more to come; buffer holds [1.1416, 0.0096]" in masked


@needs_dot
def test_trace_frame_picture(tmp_path):
    x, out = diamond(torch)
    frame = viz.trace_backward(out, params={"x": x}).frame(3)
    assert frame.text.splitlines()[0] == "step 3: n3 TanhBackward0 runs"
    source = frame.source
    assert "#c62828" in node_attrs(source, "n3")          # the node running now
    assert "dashed" in node_attrs(source, "n2")           # ready
    assert "#9e9e9e" in node_attrs(source, "n1")          # done
    assert "waits for 1" in node_attrs(source, "n4")
    assert re.search(r"^\tn3 -> n4 \[.*#c62828", source, flags=re.MULTILINE)   # the gradient it sent
    assert frame.save(tmp_path / "frame.png").read_bytes().startswith(b"\x89PNG")
    assert "step 3: n3 TanhBackward0 runs" in frame.file_digraph().source


@needs_dot
def test_trace_frames_keep_one_layout():
    """Only colours and status words change from frame to frame: every node stays put."""
    x, out = diamond(torch)
    trace = viz.trace_backward(out, params={"x": x})

    def positions(picture):
        plain = picture.digraph.pipe(format="plain").decode()
        return [line.split()[1:6] for line in plain.splitlines() if line.startswith("node ")]

    layouts = [positions(trace.frame(i)) for i in range(len(trace))]
    assert all(layout == layouts[0] for layout in layouts)


# ----------------------------------------------------- against PyTorch
def torch_engine_order(out):
    """Number PyTorch's nodes as viz does, and record the order its engine runs them in."""
    ids = {out.grad_fn: "n0"}
    queue = deque([out.grad_fn])
    while queue:
        node = queue.popleft()
        for next_node, _ in node.next_functions:
            if next_node is not None and next_node not in ids:
                ids[next_node] = f"n{len(ids)}"
                queue.append(next_node)
    order = []
    for node, node_id in ids.items():
        name = f"{node_id} {node.name().rsplit('::', 1)[-1]}"
        node.register_prehook(lambda grads, name=name: order.append(name))
    out.backward()
    return order


@pytest.mark.parametrize("build", [diamond, shared_two_leaves])
def test_trace_order_matches_pytorch(build):
    real_torch = pytest.importorskip("torch")
    _, torch_out = build(real_torch)
    _, mini_out = build(torch)
    assert viz.trace_backward(mini_out).order == torch_engine_order(torch_out)


def test_diamond_order_is_pytorchs_recorded_order():
    real_torch = pytest.importorskip("torch")
    assert torch_engine_order(diamond(real_torch)[1]) == DIAMOND_ORDER
