"""The engine trace as a player (mini_autograd/viz/player.py), and the trace of a learner's own engine.

- One frame of the player per step of the engine, each with its picture, its table and what every node
  holds; the animated GIF (what an untrusted notebook shows) has one frame per step shown, up to the
  trace's ``max_frames``, and the same trace gives the same bytes.
- The HTML: one ``<img>`` (the GIF), the frames as JSON with their pictures as masked data URIs, and ids
  that differ between two players, and between two displays of one trace, yet are the same in every run.
- The words in Chinese when the edition is Chinese.
- ``trace_backward`` of a tensor of the build track's answer key, through its engine: the steps in the
  order that engine ran them, its hooks gone afterwards.
(tests/browser/test_site.py and test_lab_trace_player.py drive the player in a browser.)
"""
import base64
import io
import itertools
import json
import re
from pathlib import Path

import pytest

import mini_autograd as torch
from mini_autograd import viz
from mini_autograd.viz import player

ROOT = Path(__file__).resolve().parents[1]
HAS_DOT = viz.picture.shutil.which("dot") is not None
pytestmark = pytest.mark.skipif(not HAS_DOT, reason="the graphviz program 'dot' is not installed")
HAN = re.compile(r"[\u3400-\u9fff]")
DIAMOND_ORDER = ["n0 SumBackward0", "n1 MulBackward0", "n3 TanhBackward0", "n2 ExpBackward0",
                 "n4 MulBackward0", "n5 AccumulateGrad"]


def diamond(module):
    x = module.tensor([0.5, 1.0], requires_grad=True)
    a = x * 2
    return x, (a.exp() * a.tanh()).sum()


def traced():
    x, out = diamond(torch)
    return viz.trace_backward(out, params={"x": x})


def sanitize(text):
    lines = (ROOT / "tests" / "nbval_sanitize.cfg").read_text(encoding="utf-8").splitlines()
    for line, nxt in itertools.pairwise(lines):
        if line.startswith("regex: ") and nxt.startswith("replace: "):
            text = re.sub(line[len("regex: "):], nxt[len("replace: "):], text)
    return text


def data_of(markup):
    return json.loads(re.search(r'<script type="application/json" class="mat-trace-data">(.*?)</script>',
                                markup, flags=re.DOTALL).group(1))


def gif_frames(markup):
    from PIL import Image
    payload = re.search(r'src="data:image/gif;base64,([A-Za-z0-9+/=]+)"', markup).group(1)
    return Image.open(io.BytesIO(base64.b64decode(payload))).n_frames


# ---------------------------------------------------------------- the player's HTML
def test_one_frame_per_engine_step():
    trace = traced()
    data = data_of(trace._repr_html_())
    assert len(data["frames"]) == len(trace) == 7
    assert [frame["step"] for frame in data["frames"]] == list(range(7))
    assert data["frames"][3]["caption"] == "step 3: n3 TanhBackward0 runs"
    assert ["received", ["[2.7183, 7.3891]"]] in data["frames"][3]["rows"]
    for frame in data["frames"]:
        assert frame["svg"].startswith("data:image/svg+xml;base64,")
        assert set(frame["nodes"]) == {f"n{k}" for k in range(6)}
    # What a click on a node shows: n4's buffer while it waits, what it saved, what it received once run.
    n4 = dict(map(tuple, data["frames"][3]["nodes"]["n4"]))
    assert n4 == {"state": ["waits for 1 more"], "input buffer": ["[1.1416, 0.5220]"],
                  "saved for backward": ["other = 2"]}
    n4 = dict(map(tuple, data["frames"][6]["nodes"]["n4"]))
    assert n4["received"] == ["[3.2118, 7.6453]"] and n4["saved for backward"] == ["other: freed"]
    assert dict(map(tuple, data["frames"][6]["nodes"]["n5"]))["wrote"] == ["x.grad = [ 6.4237, 15.2906]"]
    assert dict(map(tuple, data["frames"][1]["nodes"]["n1"]))["input buffer"] == ["[1., 1.]"]   # ready
    assert data["outputs"] == {"out0": "n0"}


def test_the_html_shows_one_animated_image_and_is_masked():
    markup = traced()._repr_html_()
    assert markup.count("<img") == 1            # the GIF; the browser tests count it as the cell's picture
    assert "<svg" not in markup and "</script" not in markup.split("<script>", 1)[1][:-len("</script></div>")]
    masked = sanitize(markup)
    assert masked.count("data:image/gif;base64,PICTURE") == 1
    assert masked.count("data:image/svg+xml;base64,PICTURE") == 7
    assert "0xADDRESS" not in masked and "TIME" not in masked
    assert len(markup) < 400_000


def test_ids_are_unique_and_the_same_in_every_run():
    first, second = traced(), traced()
    ids = [re.search(r'<div class="mat-trace" id="([^"]+)"', trace._repr_html_()).group(1)
           for trace in (first, second, first)]
    assert len(set(ids)) == 3
    digests = {re.sub(r"-\d+$", "", uid) for uid in ids}
    assert len(digests) == 1                     # the same words: the same digest; the count tells them apart
    other = viz.trace_backward((torch.ones(2, requires_grad=True) * 3).sum())
    assert re.sub(r"-\d+$", "", re.search(r'id="([^"]+)"', other._repr_html_()).group(1)) not in digests


def test_the_same_trace_gives_the_same_bytes():
    one, two = traced(), traced()
    assert player.animated_gif(one) == player.animated_gif(two)
    assert re.sub(r"mat-trace-(\w+)-\d+", "ID", one._repr_html_()) == re.sub(r"mat-trace-(\w+)-\d+", "ID",
                                                                             two._repr_html_())


def test_the_animation_has_a_frame_per_step_up_to_the_cap():
    trace = traced()
    assert gif_frames(trace._repr_html_()) == len(trace) == 7
    capped = traced()
    capped.max_frames = 4
    markup = capped._repr_html_()
    assert gif_frames(markup) == 4 and len(data_of(markup)["frames"]) == 4
    assert data_of(markup)["more"] == "... 3 more steps: see trace.frame(i)"
    assert capped.frame(6).text.startswith("step 6:")          # the rest stay reachable
    assert repr(capped).endswith("... 3 more steps: see trace.frame(i)")


def test_the_words_are_chinese_in_the_chinese_edition(monkeypatch):
    monkeypatch.setenv("BUILDTRACK_LANG", "zh")
    trace = traced()
    markup = trace._repr_html_()
    data = data_of(markup)
    for key, word in data["words"].items():
        assert HAN.search(word), (key, word)
    assert all(HAN.search(frame["caption"]) for frame in data["frames"])
    assert all(HAN.search(heading) for frame in data["frames"] for heading, _lines in frame["rows"])
    assert all(HAN.search(heading) for frame in data["frames"] for rows in frame["nodes"].values()
               for heading, _lines in rows)
    still = markup.split('<script type="application/json"')[0]
    assert HAN.search(re.sub(r"<[^>]*>", "", still)) and not re.search(r"\b[a-z]{4,}\b", re.sub(
        r"<[^>]*>|data:[^\"]*", "", still))
    monkeypatch.setenv("BUILDTRACK_LANG", "en")
    assert not HAN.search(json.dumps(data_of(trace._repr_html_())["words"], ensure_ascii=False))


def test_print_and_frame_keep_working():
    trace = traced()
    assert trace.order == DIAMOND_ORDER
    assert str(trace).splitlines()[0] == "backward trace of output: 6 steps, in the engine's order"
    assert trace.frame(3)._repr_html_().count("<img") == 1


# ---------------------------------------------------------------- a learner's engine
@pytest.fixture
def answer_key():
    from buildtrack.package import ANSWER_KEY, load
    return load(ANSWER_KEY)


@pytest.mark.parametrize("through", ["engine", "backward"])
def test_trace_of_the_learners_engine(answer_key, through):
    x, out = diamond(answer_key)
    engine = answer_key.engine.run_backward if through == "engine" else None
    nodes = [out.grad_fn, out.grad_fn.next_functions[0][0]]
    trace = viz.trace_backward(out, params={"x": x}, engine=engine)
    assert trace.order == DIAMOND_ORDER                 # the answer key runs PyTorch's order
    name = "myautograd.engine.run_backward" if engine else "myautograd.Tensor.backward"
    assert trace.title == f"backward trace of output: 6 steps, in the order {name} ran them"
    assert trace[0].received == ["1."] and trace[0].ready is None
    assert trace[3].sent == [("n4 MulBackward0", "[1.1416, 0.5220]")] and trace[3].edges == [("n3", 0)]
    assert trace[6].writes == ["x.grad = [ 6.4237, 15.2906]"]
    assert x.grad.tolist() == pytest.approx([6.4237, 15.2906], abs=1e-4)
    assert all(node.pre_hooks == [] and "apply" not in vars(node) for node in nodes)   # the hooks are gone
    text = repr(trace)
    assert "ready queue" not in text and "waiting" not in text
    data = data_of(trace._repr_html_())
    assert len(data["frames"]) == 7
    assert dict(map(tuple, data["frames"][2]["nodes"]["n4"])) == {"state": ["not run yet"]}


def test_a_mini_autograd_tensor_takes_no_engine():
    _x, out = diamond(torch)
    with pytest.raises(TypeError, match="another engine"):
        viz.trace_backward(out, engine=print)
