"""What the Chinese chapters show under their code cells is Chinese, outside code and PyTorch's own words.

- Every output stored in notebooks/zh/*.ipynb (streams, text/plain, text/markdown, the text of HTML, the
  words of the SVG pictures and their alt texts) is read as a learner reads it. A run of three or more
  English words left there fails, except in what is not prose: code (a listing of ``show_source``, a
  ``<pre>`` block, `backquotes`, calls and reprs such as ``tensor([1.], requires_grad=True)``), the
  message of an error (``RuntimeError: ...``: mini_autograd raises PyTorch's words, which stay as they
  are), and the few PyTorch messages printed on a line of their own (ALLOWED, kept short).
- The words a chapter draws in a plot (title, axis labels, legend entries, annotations, colour-bar and
  tick labels) are stored as pixels, so they are checked in the sources: each English text a chapter hands
  to matplotlib goes through ``tr(...)`` (coursetools), which gives the Chinese edition its translation.
- The check can fail: the English chapters, read the same way, are found to be English.
(tests/test_zh.py checks that both editions show the same values; tests/test_viz_zh.py draws each kind of
picture in Chinese.)
"""
import ast
import base64
import html
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ZH_NOTEBOOKS = sorted((ROOT / "notebooks" / "zh").glob("[0-9][0-9]_*.ipynb"))
EN_NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
SOURCES = sorted((ROOT / "notebooks" / "src").glob("[0-9][0-9]_*.py"))
HAN = re.compile(r"[\u3400-\u9fff]")

# PyTorch's own words, printed on a line of their own (not after an error's name): gradcheck's message.
ALLOWED = ("Jacobian mismatch for output",)


# ---------------------------------------------------------------- reading the outputs
def _svg_words(svg):
    return [html.unescape(re.sub(r"<[^<>]*>", "", text))
            for text in re.findall(r"<text\b[^>]*>(.*?)</text>", svg, flags=re.DOTALL)]


def _html_words(markup):
    """What a browser shows of an HTML output: its text without <pre> blocks (code and what code printed),
    each picture's alt text, and the words of the SVG pictures it embeds."""
    words = []
    for payload in re.findall(r"data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)", markup):
        words += _svg_words(base64.b64decode(payload).decode("utf-8"))
    words += [html.unescape(alt) for alt in re.findall(r'alt="([^"]*)"', markup)]
    shown = re.sub(r"<pre\b.*?</pre>", " ", markup, flags=re.DOTALL)
    player = re.findall(r'<script type="application/json"[^>]*>(.*?)</script>', markup, flags=re.DOTALL)
    for payload in player:                  # a trace's player: its words reach its script as JSON
        words += _json_words(json.loads(payload))
    shown = re.sub(r"<svg\b.*?</svg>|<img\b[^>]*>|<style\b.*?</style>|<script\b.*?</script>", " ", shown,
                   flags=re.DOTALL)
    words.append(html.unescape(re.sub(r"<[^<>]*>", " ", shown)))
    return words


def _json_words(value):
    """The strings of a JSON value, but not its pictures (data: URIs) nor its keys."""
    if isinstance(value, str):
        return [] if value.startswith("data:") else [value]
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else []
    return [text for item in items for text in _json_words(item)]


LISTING_HEADING = re.compile(r"^# \S+\.py(?::|：)")


def _without_listings(text):
    """A stream without ``show_source``'s listings: a heading ``# file.py：name ...``, then the source's lines
    (``def``, ``class``, a decorator, indented or blank lines) up to the first line that is none of these."""
    kept, listing = [], False
    for line in text.split("\n"):
        if LISTING_HEADING.match(line):
            listing = True
            continue
        if listing and (not line.strip() or line[:1].isspace() or line.startswith(("def ", "class ", "@"))):
            continue
        listing = False
        kept.append(line)
    return "\n".join(kept)


def shown_texts(path):
    """``[(cell index, text)]``: what each code cell of a stored notebook shows, as a reader reads it."""
    notebook = json.loads(path.read_text(encoding="utf-8"))
    found = []
    for index, cell in enumerate(notebook["cells"]):
        if cell["cell_type"] != "code":
            continue
        streams = {}                               # (one print may reach the notebook in several pieces)
        for output in cell.get("outputs", []):
            if output["output_type"] == "stream":
                streams[output["name"]] = streams.get(output["name"], "") + "".join(output["text"])
            elif output["output_type"] == "error":
                continue                           # (the error PyTorch, or mini_autograd as PyTorch, raised)
            else:
                data = output.get("data", {})
                # (a listing shown folded, coursetools.answer_fold: its text form is a line, then the listing)
                found.append((index, _without_listings("".join(data.get("text/plain", "")))))
                found.append((index, "".join(data.get("text/markdown", ""))))
                found += [(index, text) for text in _html_words("".join(data.get("text/html", "")))]
                if "image/svg+xml" in data:
                    found += [(index, text) for text in _svg_words("".join(data["image/svg+xml"]))]
        found += [(index, _without_listings(text)) for text in streams.values()]
    return [(index, text) for index, text in found if text.strip()]


def english_runs(text):
    """Runs of three or more English words in ``text`` that are prose: not code, not an error's message."""
    text = re.sub(r"<[^<>\n]*>", " ", text)                                   # <MulBackward0 object at 0x...>
    text = re.sub(r"`[^`\n]*`|'(?:[^'\\\n]|\\.)*'|\"(?:[^\"\\\n]|\\.)*\"", " ", text)   # code, names quoted
    error = r"\w*(?:Error|Exception|Warning)\b(?:\(|（|: |：)[^\u3400-\u9fff\uff08-\uff1b\u3001\u3002]*"
    text = re.sub(error, " ", text)                                           # an error's own words
    for allowed in ALLOWED:
        text = re.sub(re.escape(allowed) + r"[^\n]*", " ", text)
    for _depth in range(4):
        text = re.sub(r"[\w.]+\([^()]*\)", " ", text)                         # calls and reprs
    return re.findall(r"(?<![\w.])[A-Za-z]{2,}(?:[ ,]+[a-z]{2,}){2,}(?![\w(.])", text)


def english_left(path):
    return [(index, run) for index, text in shown_texts(path) for run in english_runs(text)]


# ---------------------------------------------------------------- the tests
def test_the_reading_finds_english_prose_and_passes_code():
    assert english_runs("after one backward:  tensor(4.)") == ["after one backward"]
    assert english_runs("一次 backward 之后：tensor([1., 2.], requires_grad=True)") == []
    assert english_runs("RuntimeError: Trying to backward through the graph a second time") == []
    assert english_runs("抛出了 RuntimeError: element 0 of tensors does not require grad") == []
    assert english_runs("`pip install torch==2.13.0`，<AddBackward0 object at 0x7f>") == []
    listing = "# mini_autograd/_tensor.py：Tensor.backward\n    def backward(self):\n        return a b c\n"
    assert english_runs(_without_listings(listing + "之后的一行")) == []
    assert english_runs(_without_listings(listing + "and then some prose")) == ["and then some prose"]


@pytest.mark.parametrize("path", ZH_NOTEBOOKS, ids=lambda path: path.stem)
def test_a_chinese_chapter_shows_no_english_prose(path):
    """Fails until the Chinese chapters are executed again (tools/nbbuild.py --zh) after a chapter's printed
    words changed, or while a printed English text has no ``tr(...)`` or no translation in chapters.po."""
    left = english_left(path)
    assert not left, f"{path.name}: English prose in the outputs of " + "; ".join(
        f"cell {index}: {run!r}" for index, run in left[:30])


def test_the_english_chapters_read_the_same_way_are_english():
    found = {path.stem: english_left(path) for path in EN_NOTEBOOKS}
    assert sum(map(len, found.values())) > 50, found
    assert not any(HAN.search(text) for path in EN_NOTEBOOKS for _index, text in shown_texts(path))


# ---------------------------------------------------------------- the words a chapter draws
DRAWN = {"set_title", "set_xlabel", "set_ylabel", "suptitle", "title", "xlabel", "ylabel", "text", "annotate",
         "set_xticks", "set_yticks", "set_xticklabels", "set_yticklabels", "legend", "barh", "bar", "plot",
         "scatter", "colorbar", "axhline", "axvline", "fill_between", "hist", "contourf", "contour"}
DRAWN_KEYWORDS = {"label", "labels", "title"}


CODE_WORDS = {"tanh", "relu", "sigmoid"}      # names of functions, drawn as they are written


def _english(node):
    """Is ``node`` a string (or f-string) with English words of its own (outside its fields and $math$):
    two words in a row, or one whole word (``"function"``), not a name of code?"""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        words = node.value
    elif isinstance(node, ast.JoinedStr):
        words = " ".join(v.value for v in node.values if isinstance(v, ast.Constant))
    else:
        return False
    words = re.sub(r"\$[^$]*\$", " ", words).strip()
    return bool(re.search(r"(?<![\w.])[A-Za-z]{2,}[ ,:;]+[A-Za-z]{2,}(?![\w(])", words)) or (
        bool(re.fullmatch(r"[A-Z]?[a-z]{3,}", words)) and words.lower() not in CODE_WORDS)


def _drawn_texts(tree):
    """The texts handed to matplotlib: ``(line, text)`` of each string argument of a drawing call, or of a
    list or tuple of them (tick labels), that no ``tr(...)`` wraps."""
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and getattr(node.func, "attr", None) in DRAWN):
            continue
        arguments = [*node.args, *(k.value for k in node.keywords if k.arg in DRAWN_KEYWORDS)]
        for argument in arguments:
            items = argument.elts if isinstance(argument, (ast.List, ast.Tuple)) else [argument]
            found += [(item.lineno, ast.unparse(item)) for item in items if _english(item)]
    return found


def test_the_check_of_drawn_words_can_fail():
    tree = ast.parse('ax.set_title("Memory of one step")\nax.plot(x, label=tr("step"))\n'
                     'ax.set_yticks([1, 0], ["inference step", tr("training step")])\n'
                     'ax.set_xlabel("$x_1$")\nax.text(3, 1, f"{total:.0f} µs")\n'
                     'ax.plot(xs, ys, "k.", label="tanh(x)")\n')
    assert [line for line, _text in _drawn_texts(tree)] == [1, 3]


@pytest.mark.parametrize("source", SOURCES, ids=lambda path: path.stem)
def test_the_words_a_chapter_draws_go_through_tr(source):
    left = _drawn_texts(ast.parse(source.read_text(encoding="utf-8")))
    assert not left, f"{source.name}: plot words without tr(...): " + "; ".join(
        f"line {line}: {text}" for line, text in left)
