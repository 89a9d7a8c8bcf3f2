"""The graph pictures and the engine trace speak the edition's language (mini_autograd/viz/i18n.py).

- Every message of mini_autograd/viz has its translation in viz.po, none is unused, each keeps the fields
  of its template, viz.mo is viz.po compiled, and both ship with the package; no viz module rebinds ``_``.
- The language is chosen by the build track's rule (BUILDTRACK_LANG, else the Chinese edition's folder):
  buildtrack/i18n.py uses viz's rule itself.
- Each kind of picture the chapters show, drawn in Chinese, has no English prose left: graphs (named and
  unnamed tensors, saved tensors before and after backward, retain_grad, several outputs, values hidden,
  long chains collapsed and cut), the engine trace (every frame, its table, its text, a saved frame, a
  long trace), and the text shown without ``dot``. Checked in the DOT source's labels, the words Jupyter
  shows (text/plain, the trace's HTML tables, the pictures' alt texts) and, with ``dot``, the SVG's text.
  PyTorch's names (``grad_fn``, ``AccumulateGrad``, ``MulBackward0``, ``.grad``), the tensors' names and
  values stay. The same pictures drawn in English are found to be English (the check can fail).
- The Chinese chapters' stored pictures (notebooks/zh/*.ipynb, as executed from notebooks/zh/) have no
  English words of the pictures' vocabulary left either.
"""
import ast
import base64
import html
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import mini_autograd as torch
from mini_autograd import viz
from mini_autograd.viz import catalogue, i18n

ROOT = Path(__file__).resolve().parents[1]
HAS_DOT = viz.picture.shutil.which("dot") is not None
needs_dot = pytest.mark.skipif(not HAS_DOT, reason="the graphviz program 'dot' is not installed")
HAN = re.compile(r"[\u3400-\u9fff]")

# Words a Chinese picture keeps: PyTorch's names, the APIs the messages quote, the install commands.
KEPT = {"grad_fn", "AccumulateGrad", "None", "backward", "grad", "trace.frame", "max_nodes", "retain_grad",
        "graphviz", "dot", "PATH", "conda", "install", "forge", "python", "apt", "get", "sudo", "brew",
        "Debian", "Ubuntu", "macOS", "c", "i", "N", "nan", "inf"}
SLOTS = {"self", "other", "result", "input", "mat1", "mat2", "weight", "bias"}   # saved tensors' slots
NODE_NAME = re.compile(r"^(\w+Backward\d*|n\d+)$")                             # MulBackward0, n3


def english_words(text, names=()):
    """The English words in ``text`` that are neither PyTorch's names, nor the names given to the
    picture's tensors (``names``), nor the slot names of saved tensors (``self``, ``other``...)."""
    kept = KEPT | SLOTS | set(names)
    text = re.sub(r"\bsaved\[\d+\]", " ", text)           # a custom Function's saved slot: saved[0]
    words = re.findall(r"(?<![\w.])[A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*", text)
    return sorted({word for word in words if word.removesuffix(".grad") not in kept
                   and not NODE_NAME.match(word)})


def vocabulary():
    """The English words of the pictures' messages (``scalar``, ``freed``, ``buffer``...), less the names
    that stay in Chinese: a word of these in a Chinese picture is English prose left in it."""
    words = set()
    for msgid in catalogue.extracted():
        words |= set(re.findall(r"[a-z]{3,}", re.sub(r"\{[^{}]*\}", " ", msgid)))
    return words - {name.lower() for name in KEPT} - SLOTS - {"backward", "grad", "fn", "accumulategrad"}


# ---------------------------------------------------------------- the catalogue
def test_every_picture_message_is_translated_and_compiled():
    pytest.importorskip("polib")
    assert catalogue.problems() == []
    assert catalogue.extracted(), "no message found in mini_autograd/viz"


def test_the_translations_are_chinese():
    pytest.importorskip("polib")
    for entry in catalogue.read():
        if entry.msgid and entry.msgid not in ("{heading}:",):
            assert HAN.search(entry.msgstr), (entry.msgid, entry.msgstr)


def test_no_viz_module_rebinds_the_underscore():
    """``_`` is gettext's in viz: a ``for _ in`` or ``_ = ...`` would make a message a tuple's item."""
    for path in sorted((ROOT / "mini_autograd" / "viz").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets = []
            if isinstance(node, (ast.For, ast.comprehension)):
                targets = [node.target]
            elif isinstance(node, ast.Assign):
                targets = node.targets
            for target in targets:
                names = [n.id for n in ast.walk(target) if isinstance(n, ast.Name)]
                assert "_" not in names, f"{path.name}:{getattr(node, 'lineno', '?')} rebinds _"


def test_the_catalogue_ships_with_the_package():
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"mini_autograd.viz" = ["locale/*/LC_MESSAGES/*.po", "locale/*/LC_MESSAGES/*.mo"]' in text
    assert (i18n.LOCALE / "zh_CN" / "LC_MESSAGES" / "viz.mo").exists()


# ---------------------------------------------------------------- the language
def test_the_language_follows_the_edition_as_the_checks_do(monkeypatch, tmp_path):
    sys.path.insert(0, str(ROOT / "notebooks"))
    try:
        from buildtrack import i18n as checks
    finally:
        sys.path.remove(str(ROOT / "notebooks"))
    course = tmp_path / "course"
    (course / "zh").mkdir(parents=True)
    (course / "01_first_gradient.ipynb").write_text("{}")
    copy = tmp_path / "copy" / "zh"
    copy.mkdir(parents=True)
    (copy / "01_first_gradient.ipynb").write_text("{}")
    (tmp_path / "other" / "zh").mkdir(parents=True)
    monkeypatch.delenv("BUILDTRACK_LANG", raising=False)
    # One rule: buildtrack's language() is viz's (buildtrack/i18n.py imports it), so they cannot drift apart.
    assert checks.language is i18n.language and checks.locale_is_chinese is i18n.locale_is_chinese
    for folder, expected in [(ROOT / "notebooks" / "zh", "zh"), (ROOT / "notebooks", "en"), (copy, "zh"),
                             (course / "zh", "zh"), (tmp_path / "other" / "zh", "en"), (tmp_path, "en")]:
        monkeypatch.chdir(folder)
        assert i18n.language() == checks.language() == expected, folder
    for value, expected in [("zh", "zh"), ("zh_CN", "zh"), ("en", "en"), ("fr", "en")]:
        monkeypatch.setenv("BUILDTRACK_LANG", value)
        monkeypatch.chdir(ROOT / "notebooks" / "zh")
        assert i18n.language() == checks.language() == expected
    assert i18n.locale_is_chinese({"LANG": "zh_CN.UTF-8"})
    assert not i18n.locale_is_chinese({"LANGUAGE": "en", "LANG": "zh_CN.UTF-8"})
    assert i18n.locale_is_chinese({"LANGUAGE": "zh_CN:en"})


# ---------------------------------------------------------------- the pictures the chapters show
def _labels(source):
    """The words of a DOT source's labels: HTML-like labels without their tags, and plain ones."""
    texts = re.findall(r"label=<(.*?)>\s*(?:\w+=|\])", source, flags=re.DOTALL)
    texts += re.findall(r'label="((?:[^"\\]|\\.)*)"', source)
    return [html.unescape(re.sub(r"<[^<>]*>", " ", text)) for text in texts]


def _svg_text(svg):
    return [html.unescape(re.sub(r"<[^<>]*>", "", t)) for t in re.findall(r"<text\b[^>]*>(.*?)</text>", svg,
                                                                         flags=re.DOTALL)]


def _html_text(markup):
    """What a browser shows of Jupyter's HTML: the text, each picture's alt text, and the words of a trace's
    player (mini_autograd/viz/player.py), which reach its script as JSON; not the script's code."""
    alts = re.findall(r'alt="([^"]*)"', markup)
    player = [word for payload in re.findall(r'<script type="application/json"[^>]*>(.*?)</script>', markup,
                                             flags=re.DOTALL) for word in _player_words(json.loads(payload))]
    shown = re.sub(r"<script\b.*?</script>|<img\b[^>]*>", " ", markup, flags=re.DOTALL)
    return [html.unescape(re.sub(r"<[^<>]*>", " ", shown)), *map(html.unescape, alts), *player]


def _player_words(data):
    """The words a trace's player shows: its buttons, and each frame's caption, table and nodes' tables."""
    def strings(value):
        if isinstance(value, str):
            return [] if value.startswith("data:") else [value]
        items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else []
        return [text for item in items for text in strings(item)]
    return strings([data["words"], data["more"] or "", [{key: frame[key] for key in frame if key != "svg"}
                                                         for frame in data["frames"]]])


class Square(torch.autograd.Function):
    """A custom Function (chapters 07 and 11): its saved tensor has no name, only a slot, saved[0]."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx.saved_tensors
        return 2 * x * grad


def pictures():
    """``[(what, picture or trace, tensor names)]``: each kind of picture the chapters show."""
    made = []
    x = torch.ones(2, 2, requires_grad=True)                      # 00-02: named leaves and outputs
    y = x + 2
    z = (y * y * 3).mean()
    made.append(("named graph", viz.draw(z, params={"x": x}, names={"z": z}), {"x", "z"}))
    a = torch.tensor([2.0, 3.0], requires_grad=True)              # 03, 06: an unnamed output and leaf
    made.append(("unnamed graph", viz.draw((a * a).sum()), set()))
    w = torch.tensor([1.0, -2.0], requires_grad=True)             # 04: retain_grad, named and not
    h = w * 3
    h.retain_grad()
    g = h.exp()
    g.retain_grad()
    loss = (g * w).sum()
    made.append(("retain_grad", viz.draw(loss, params={"w": w}, names={"h": h, "loss": loss}),
                 {"w", "h", "loss"}))
    s = torch.tensor([0.5, 1.5], requires_grad=True)              # 07, 11, 12: saved, then freed
    out = (s.exp() * s).sum()
    made.append(("saved tensors", viz.draw(out, params={"s": s}, show_saved=True), {"s"}))
    out.backward()
    made.append(("freed saved tensors", viz.draw(out, params={"s": s}, show_saved=True), {"s"}))
    made.append(("custom Function", viz.draw(Square.apply(s).sum(), params={"s": s}, show_saved=True), {"s"}))
    big = torch.ones(4, 5, requires_grad=True)                    # 09, 10: values hidden, big tensors
    made.append(("values hidden", viz.draw((big * 2).sum(), params={"big": big}, show_values=False),
                 {"big"}))
    made.append(("two outputs", viz.draw([(a * 2).sum(), a.exp().sum()]), set()))
    made.append(("no graph", viz.draw(torch.tensor([1.0, 2.0])), set()))
    c = torch.ones(2, requires_grad=True)                         # a long chain: collapsed, then cut
    chain = c
    for _step in range(30):
        chain = chain * 1.5
    made.append(("collapsed chain", viz.draw(chain.sum(), max_nodes=10), set()))
    wide = torch.ones(2, requires_grad=True)
    made.append(("cut graph", viz.draw(sum((wide * k).sum() for k in range(1, 30)), max_nodes=10), set()))
    xd = torch.tensor([0.5, -1.0], requires_grad=True)            # 08: the diamond's trace
    ad = xd * 2
    diamond = (ad.exp() * ad.tanh()).sum()
    made.append(("trace", viz.trace_backward(diamond, params={"x": xd}), {"x"}))
    xr = torch.tensor([1.0, 2.0], requires_grad=True)             # a trace writing a retained .grad
    hr = xr * xr
    hr.retain_grad()
    made.append(("trace with retain_grad", viz.trace_backward((hr * 3).sum()), set()))
    many = torch.ones(2, requires_grad=True)                      # more steps and waiting nodes than shown
    parts = [(many * k).exp() for k in range(1, 16)]
    made.append(("long trace", viz.trace_backward(sum(p.sum() for p in parts)), set()))
    return made


def _words_of(picture, with_svg):
    """Everything a learner reads of ``picture``: its text, labels, HTML, and (with dot) the SVG's text."""
    texts = [repr(picture)]
    if isinstance(picture, viz.BackwardTrace):
        frames = [picture.frame(i) for i in range(len(picture))]
        texts += [frame.alt for frame in frames] + [frame.text for frame in frames]
        texts += [label for frame in frames for label in _labels(frame.file_digraph().source)]
        if with_svg:
            texts += _html_text(picture._repr_html_() or "")
            texts += [t for frame in frames[:3] for t in _svg_text(frame.svg())]
    else:
        texts += [picture.alt, *_labels(picture.source)]
        if with_svg:
            texts += _svg_text(picture.svg())
    return texts


@pytest.fixture
def chinese(monkeypatch):
    monkeypatch.setenv("BUILDTRACK_LANG", "zh")


@pytest.mark.parametrize("with_svg", [False, pytest.param(True, marks=needs_dot)], ids=["source", "svg"])
def test_the_pictures_have_no_english_prose_in_chinese(chinese, with_svg):
    found = []
    for what, picture, names in pictures():
        texts = _words_of(picture, with_svg)
        assert any(HAN.search(text) for text in texts), what
        for text in texts:
            left = english_words(text, names)
            if left:
                found.append(f"{what}: {left} in {text[:200]!r}")
    assert not found, "\n".join(found)


@pytest.mark.parametrize("with_svg", [False, pytest.param(True, marks=needs_dot)], ids=["source", "svg"])
def test_the_same_pictures_in_english_are_english(monkeypatch, with_svg):
    monkeypatch.setenv("BUILDTRACK_LANG", "en")
    for what, picture, names in pictures():
        texts = "\n".join(_words_of(picture, with_svg))
        assert not HAN.search(texts), what
        assert english_words(texts, names), what


def test_a_chinese_picture_uses_chinese_fonts_and_keeps_the_english_layout(chinese, monkeypatch):
    x = torch.ones(2, requires_grad=True)
    chinese_source = viz.draw((x * 2).sum(), params={"x": x}).source
    monkeypatch.setenv("BUILDTRACK_LANG", "en")
    english_source = viz.draw((x * 2).sum(), params={"x": x}).source
    assert "WenQuanYi Micro Hei" in chinese_source and "WenQuanYi" not in english_source
    edges = re.compile(r"^\t(\w+) -> (\w+)", re.M)
    assert edges.findall(chinese_source) == edges.findall(english_source)


def test_the_text_without_dot_is_chinese(tmp_path):
    """No ``dot`` on PATH, in a copy of the Chinese edition's folder: the text shows, and the install
    hint is Chinese."""
    script = ("import warnings, json, mini_autograd as torch\nfrom mini_autograd import viz\n"
              "x = torch.ones(2, requires_grad=True)\nwith warnings.catch_warnings(record=True) as caught:\n"
              "    warnings.simplefilter('always')\n    picture = viz.draw((x * 3).sum(), params={'x': x})\n"
              "    shown = picture._repr_html_()\n"
              "print(json.dumps({'html': shown, 'text': repr(picture), 'warnings': [str(w.message) "
              "for w in caught]}))\n")
    folder = tmp_path / "zh"
    folder.mkdir()
    (folder / "00_welcome.ipynb").write_text("{}")
    env = {"PATH": str(tmp_path), "HOME": str(tmp_path), "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=folder,
                         env=env, check=True)
    result = json.loads(run.stdout)
    assert result["html"] is None
    assert result["text"].startswith("输出的反向图：3 个节点，1 个叶子张量"), result["text"]
    (hint,) = result["warnings"]
    assert HAN.search(hint) and "sudo apt-get install graphviz" in hint
    assert english_words(hint) == [], hint


# ---------------------------------------------------------------- the Chinese chapters as stored
ZH_NOTEBOOKS = sorted((ROOT / "notebooks" / "zh").glob("[0-9][0-9]_*.ipynb"))
SVG = re.compile(r"data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)")


def _stored_picture_words(path):
    """``[(cell index, words)]`` of a stored notebook's graph pictures and traces: each SVG's text, and
    the text/plain and HTML tables Jupyter shows beside them."""
    notebook = json.loads(path.read_text(encoding="utf-8"))
    found = []
    for index, cell in enumerate(notebook["cells"]):
        if cell["cell_type"] != "code" or "viz." not in "".join(cell["source"]):
            continue
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            markup = "".join(data.get("text/html", ""))
            if "data:image/svg+xml" not in markup:
                continue
            for payload in SVG.findall(markup):
                found += [(index, text) for text in _svg_text(base64.b64decode(payload).decode("utf-8"))]
            found += [(index, text) for text in _html_text(markup)]
            found.append((index, "".join(data.get("text/plain", ""))))
    return found


@pytest.mark.parametrize("path", ZH_NOTEBOOKS, ids=lambda path: path.stem)
def test_the_chinese_chapters_stored_pictures_are_chinese(path):
    """Fails until the Chinese chapters are executed again (tools/nbbuild.py --zh) after a change of the
    pictures' words: their stored pictures are what the website and an untrusted notebook show."""
    english = vocabulary()
    left = sorted({(index, word) for index, text in _stored_picture_words(path)
                   for word in re.findall(r"(?<![\w.])[a-z]{3,}(?![\w(\[])", text) if word in english})
    assert not left, f"{path.name}: English words of the pictures left in cells " + ", ".join(
        f"{index} ({word})" for index, word in left[:40])
