"""How the build track's verdicts are shown (notebooks/buildtrack/notebook.py), and where its links lead.

- A check cell and the progress table show plain text in a terminal (as ``print`` and ``make progress`` always
  did) and HTML in JupyterLab: text that wraps between words, code as code, the learner's text escaped, and
  each mark a badge that says done / not done yet / wrong in words, which needs no emoji font (✅ ⏳ ❌ are
  empty boxes without one).
- The progress table counts the steps done and names the next one; the steps waiting for it say nothing more.
- The chapters' links to a piece of myautograd open the editor at its line (``#line=N``, counted from 0),
  in each edition's own stub.
"""
import html
import json
import pathlib
import re
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "notebooks"))

import buildtrack  # noqa: E402
from buildtrack import notebook  # noqa: E402
from buildtrack.steps import STEPS  # noqa: E402
from buildtrack.stubs import piece_line  # noqa: E402
from buildtrack.verdicts import Verdict  # noqa: E402

MARKS = "✅⏳❌"
TRICKY = ("x.grad is <none> & so is y's: `a < b` was False\n\n"
          "    1  a = torch.tensor([1.0]) < 2  # <script>\n    2  print(a)\n\nThe piece at fault: <Add>.")


def visible(html_text):
    """The text a browser shows of ``html_text``: hidden elements and tags out, entities read."""
    html_text = re.sub(r"<span hidden>.*?</span>", "", html_text, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", html_text))


@pytest.fixture
def english(monkeypatch):
    monkeypatch.setenv("BUILDTRACK_LANG", "en")


def test_a_verdict_is_text_in_a_terminal_and_html_in_a_notebook(english):
    shown = notebook.verdict_shown(Verdict("wrong", TRICKY), "03.1")
    assert repr(shown) == str(shown) == f"❌ Step 03.1 (backward formulas): {TRICKY}"
    page = shown._repr_html_()
    assert "<none>" not in page and "<script>" not in page and "<Add>" not in page      # escaped
    assert "x.grad is &lt;none&gt; &amp; so is y&#x27;s: <code>a &lt; b</code> was False" in page
    program = re.search(r"<pre[^>]*>(.*?)</pre>", page, re.S).group(1)     # the program, line for line
    assert html.unescape(program) == "    1  a = torch.tensor([1.0]) < 2  # <script>\n    2  print(a)"
    assert "The piece at fault: &lt;Add&gt;." in page
    assert "white-space:normal" in page and "word-break:normal" in page    # wraps between words
    assert "Step 03.1 (backward formulas)" in visible(page)


@pytest.mark.parametrize("status, word", [("done", "done"), ("todo", "not done yet"), ("wrong", "wrong")])
def test_each_mark_says_its_word_without_an_emoji_font(english, status, word):
    page = notebook.verdict_shown(Verdict(status, "a message"), "01.1")._repr_html_()
    shown = visible(page)
    assert not any(mark in shown for mark in MARKS), shown           # the emoji only hidden, for copying out
    assert f'title="{word}"' in page and f">{word}</span>" in page
    assert re.search(r"^\s*" + Verdict(status, "").mark, page, re.M)   # (the website finds check cells by it)


def test_the_marks_speak_chinese_in_the_chinese_edition(monkeypatch):
    monkeypatch.setenv("BUILDTRACK_LANG", "zh")
    words = [visible(notebook.badge(status)).strip() for status in ("done", "todo", "wrong")]
    assert words == ["已完成", "尚未完成", "有错误"]


def test_a_kernel_gets_both_and_a_terminal_the_text(english, capsys):
    buildtrack.check("01.1", answers=True)
    out = capsys.readouterr().out
    assert out.startswith("✅ Step 01.1 (a tensor's autograd fields): ") and "<" not in out


def test_the_progress_table_counts_and_names_the_next_step(english):
    ids = list(STEPS)
    verdicts = {step_id: Verdict("done", "fine") for step_id in ids[:3]}
    verdicts[ids[3]] = Verdict("todo", "not done yet: fill in gradient_edge <here>.")
    verdicts.update({step_id: Verdict("todo", f"finish step {ids[3]} (...) first: it is not done yet.",
                                      waits_for=ids[3]) for step_id in ids[4:]})
    verdicts[ids[5]] = Verdict("wrong", "step 02.2 fails its check now: ...", waits_for=ids[3])
    shown = notebook.progress_shown(verdicts)
    lines = shown.text.splitlines()
    assert lines[-1] == f"3 of {len(ids)} steps done; next: step {ids[3]} ({STEPS[ids[3]].title})."
    rows = lines[:len(ids)]
    assert [row[:1] for row in rows] == ["✅"] * 3 + ["⏳", "⏳", "❌"] + ["⏳"] * (len(ids) - 6)
    assert rows[3].endswith("not done yet: fill in gradient_edge <here>.")
    assert rows[5].endswith(f"step {ids[3]} fails its check: see its row.")
    assert not any("first" in row.split(STEPS[row[2:6]].title)[-1] for row in rows)   # said once, above
    page = shown._repr_html_()
    assert page.count("<tr") == len(ids) and "&lt;here&gt;" in page and "<here>" not in page
    assert visible(page).split()[:4] == ["3", "of", str(len(ids)), "steps"]
    done = {step_id: Verdict("done", "fine") for step_id in ids}
    assert notebook.progress_shown(done).text.splitlines()[-1] == f"{len(ids)} of {len(ids)} steps done."


# ---------------------------------------------------------------- the links to the stubs
def piece_links(path):
    for cell in json.loads(path.read_text())["cells"]:
        if cell["cell_type"] == "markdown":
            yield from re.findall(r"\]\((myautograd/(\w+\.py)(#[^)]*)?)\)", "".join(cell["source"]))


@pytest.mark.parametrize("folder", ["notebooks", "notebooks/zh"])
def test_the_chapters_links_open_the_stub_at_its_piece(folder):
    """Each link to a step's piece carries JupyterLab's ``#line=N`` fragment, N counted from 0, pointing at
    the piece's ``raise NotImplementedError`` (or the ``def`` of a piece that ships working), in the stub of
    the chapter's own edition (notebooks/zh/myautograd for the Chinese chapters)."""
    found = 0
    for path in sorted((ROOT / folder).glob("[0-9][0-9]_*.ipynb")):
        for _target, file, fragment in piece_links(path):
            if not fragment:
                continue
            number = re.fullmatch(r"#line=(\d+)", fragment)
            assert number, f"{path.name}: {fragment} (tools/nbbuild.py turns a piece's name into its line)"
            line = (ROOT / folder / "myautograd" / file).read_text().split("\n")[int(number.group(1))]
            assert re.match(r'\s*(raise NotImplementedError\("Step \d\d\.\d: |def |async def )', line), (
                f"{path.name}: myautograd/{file}{fragment} is the line {line.strip()!r}: rebuild the "
                "chapter, or run tools/nbbuild.py --relink")
            found += 1
    assert found >= 20


def test_a_piece_is_found_at_its_raise_or_its_def():
    stub = ('class A:\n    def f(self):\n        """Step 01.1: x."""\n'
            '        raise NotImplementedError("Step 01.1: A.f")\n\n    def g(self):\n        return 1\n')
    assert piece_line(stub, "A.f") == 4 and piece_line(stub, "A.g") == 6
    with pytest.raises(KeyError):
        piece_line(stub, "A.h")
