"""The Chinese edition (notebooks/zh/): its catalogues complete and current, its code the English code.

- Every catalogue in notebooks/src/zh/ translates every markdown cell of its English chapter, none fuzzy,
  none lost a link, heading, box, piece of code or formula (tools/translations.py check).
- Every Chinese chapter is built from the English source and its catalogue (nbbuild's check), and its
  code cells, and what they print, are the English chapter's, cell for cell; except where the words differ
  by design:
  - a check cell (the build track's, an exercise's, the set-up check) prints its verdicts in Chinese
    (notebooks/buildtrack/i18n.py): there the same outputs, lines and ⏳/✅/❌ marks are asked for (and a
    picture it shows, ``buildtrack.compare_graphs``, is compared by its values, as below);
  - a cell that shows a picture or a listing (``viz.``, ``show_source(``, ``module_table(``, ``SideBySide(``)
    or prints the chapter's own words through ``tr(`` (coursetools; or calls a function of the chapter that
    does): there each output must hold the same values, the node names and ids (``n3 MulBackward0``,
    ``AccumulateGrad``), the bracketed values (shapes, tensors' entries, lists), the numbers and
    ``True``/``False``/``None``, in any order (a Chinese sentence may put them elsewhere).
  Every other cell's output must be the English one exactly.
- Its links lead somewhere: the Chinese chapters, the Chinese edition's own myautograd/, or one folder up
  to chapters not yet translated.
- The merge that keeps the catalogues in step marks a translation fuzzy when its English cell changes,
  and clears the mark when the cell is back to what was translated.
"""
import pathlib
import re
import sys

import nbformat
import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import nbbuild  # noqa: E402
import translations  # noqa: E402

CATALOGUED = translations.translated_chapters()
ZH_NOTEBOOKS = sorted((ROOT / "notebooks" / "zh").glob("[0-9][0-9]_*.ipynb"))


def _sanitize_rules():
    """nbval's rules (tests/nbval_sanitize.cfg): a ``regex:`` line, then its ``replace:`` line."""
    lines = [line for line in (ROOT / "tests" / "nbval_sanitize.cfg").read_text().splitlines()
             if line.startswith(("regex: ", "replace: "))]
    return [(re.compile(lines[i][len("regex: "):]), lines[i + 1][len("replace: "):])
            for i in range(0, len(lines), 2)]


SANITIZE = _sanitize_rules()


@pytest.mark.parametrize("chapter", CATALOGUED)
def test_the_catalogue_is_complete_and_current(chapter):
    assert translations.problems(chapter) == []


def test_every_complete_catalogue_has_its_chinese_chapter():
    built = nbbuild.zh_chapters()
    assert [path.stem for path in ZH_NOTEBOOKS] == built
    assert [problem for problem in nbbuild.check_sources() if problem.startswith("zh/")] == []


def _shown(cell):
    """What a code cell shows, as text, with what legitimately varies masked (nbval's rules)."""
    texts = []
    for output in cell.outputs:
        kind = output.output_type
        if kind == "stream":
            kind, text = f"stream {output.name}", output.text
            if texts and texts[-1][0] == kind:      # one print may reach the notebook in two pieces
                texts[-1] = (kind, texts[-1][1] + text)
                continue
        elif kind == "error":
            text = f"{output.ename}: {output.evalue}"
        else:
            text = output.get("data", {}).get("text/plain", "")
        texts.append((kind, text))
    return [(kind, _sanitized(text)) for kind, text in texts]


def _sanitized(text):
    for pattern, replace in SANITIZE:
        text = pattern.sub(replace, text)
    return text


MARKS = ("⏳", "✅", "❌")
CHECKS = re.compile(r"\b(buildtrack\.\w+|check_exercise|check_answer|check|can_check|run_check|not_answered|"
                    r"setup_check|print_versions)\(")


def _is_check_cell(cell):
    """A cell whose output the checks write (in the edition's language): it calls the build track or an
    exercise or set-up check, or what it prints starts a line with a verdict's mark."""
    printed = "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")
    return bool(CHECKS.search(cell.source)) or any(line.startswith(MARKS) for line in printed.splitlines())


def _verdicts(shown):
    """What a check cell shows, with its words left out: each output's kind, its number of lines and the
    verdict mark of each line (a picture, or anything not printed, by its values: see ``_values``)."""
    return [(kind, [line[:1] if line.startswith(MARKS) else "" for line in text.split("\n")])
            if kind.startswith("stream") else _values([(kind, text)])[0] for kind, text in shown]


# What shows words in the edition's language: a picture or listing, or the chapter's words through tr().
WORDS = re.compile(r"\bviz\.|\bshow_source\(|\bmodule_table\(|\bSideBySide\(|(?<![\w.])tr\(")
# What must stay the same in such a cell, in either language: node names (with their ids), AccumulateGrad,
# bracketed values, numbers, and Python's True/False/None.
VALUES = re.compile(r"(?<![A-Za-z0-9_])(?:n\d+ )?[A-Za-z0-9_]+Backward\d*(?![A-Za-z0-9_])"
                    r"|(?<![A-Za-z0-9_])AccumulateGrad(?![A-Za-z0-9_])"
                    r"|\[[^\[\]\n]*\]"
                    r"|(?<![A-Za-z0-9_.])-?\d+(?:\.\d*)?(?:e[-+]?\d+)?"
                    r"|(?<![A-Za-z0-9_])(?:True|False|None)(?![A-Za-z0-9_])")


def _words_cells(notebook):
    """Indices of the code cells whose words follow the edition: they match WORDS, or call a function
    defined in the chapter whose body does (a helper that prints through tr, draws with viz)."""
    import ast
    sources = {i: cell.source for i, cell in enumerate(notebook.cells) if cell.cell_type == "code"}
    bodies = {}
    for source in sources.values():
        try:
            tree = ast.parse(source)
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                bodies[node.name] = ast.get_source_segment(source, node) or ""
    speaking = {name for name, body in bodies.items() if WORDS.search(body)}
    while True:                                   # (a function calling such a function speaks too)
        more = {name for name, body in bodies.items() if name not in speaking
                and any(re.search(rf"(?<![\w.]){re.escape(other)}\(", body) for other in speaking)}
        if not more:
            break
        speaking |= more
    names = "|".join(map(re.escape, sorted(speaking)))
    calls = re.compile(rf"(?<![\w.])(?:{names})\(") if speaking else None
    return {i for i, source in sources.items()
            if WORDS.search(source) or (calls is not None and calls.search(source))}


def _values(shown):
    """What a cell shows, with its words left out: each output's kind and the values it holds, sorted."""
    return [(kind, sorted(VALUES.findall(text))) for kind, text in shown]


def test_the_values_comparison_still_tells_numbers_apart():
    english = [("stream stdout", "after one backward:  tensor(4.) | n3 MulBackward0 [1., 2.] True\n")]
    chinese = [("stream stdout", "一次 backward 之后：  tensor(4.) | n3 MulBackward0 [1., 2.] True\n")]
    assert _values(chinese) == _values(english)
    for old, new in [("tensor(4.)", "tensor(5.)"), ("n3 Mul", "n4 Mul"), ("[1., 2.]", "[1., 3.]"),
                     ("True", "False"), ("MulBackward0", "AddBackward0"), ("4.)", "4.5)")]:
        changed = [(kind, text.replace(old, new)) for kind, text in chinese]
        assert _values(changed) != _values(english), (old, new)


@pytest.mark.parametrize("path", ZH_NOTEBOOKS, ids=lambda p: p.stem)
def test_the_chinese_chapter_runs_the_english_code_and_shows_the_same(path):
    chinese = nbformat.read(path, as_version=4)
    english = nbformat.read(ROOT / "notebooks" / path.name, as_version=4)
    assert [c.cell_type for c in chinese.cells] == [c.cell_type for c in english.cells]
    speaking = _words_cells(english)
    for index, (zh_cell, en_cell) in enumerate(zip(chinese.cells, english.cells, strict=True)):
        if en_cell.cell_type == "code":
            assert zh_cell.source == en_cell.source, f"code cell {index}"
            if _is_check_cell(en_cell):
                assert _verdicts(_shown(zh_cell)) == _verdicts(_shown(en_cell)), f"verdicts of cell {index}"
            elif index in speaking:
                assert _values(_shown(zh_cell)) == _values(_shown(en_cell)), f"values code cell {index} shows"
            else:
                assert _shown(zh_cell) == _shown(en_cell), f"what code cell {index} shows"


@pytest.mark.parametrize("path", ZH_NOTEBOOKS, ids=lambda p: p.stem)
def test_the_chinese_chapter_links_lead_somewhere(path):
    for cell in nbformat.read(path, as_version=4).cells:
        if cell.cell_type != "markdown":
            continue
        for target in re.findall(r"\]\(([^)\s:#]+)[)#]", cell.source):
            assert (path.parent / target).exists(), f"{path.name}: a link to {target}, which is not there"


# ------------------------------------------------------------------ the tool itself
@pytest.fixture
def scratch(tmp_path, monkeypatch):
    """A copy of one short English chapter and an empty catalogue folder, for the tool to work on."""
    sources, catalogues = tmp_path / "src", tmp_path / "src" / "zh"
    catalogues.mkdir(parents=True)
    (sources / "09_dynamic_graphs.py").write_text((ROOT / "notebooks/src/09_dynamic_graphs.py").read_text())
    monkeypatch.setattr(translations, "SOURCES", sources)
    monkeypatch.setattr(translations, "CATALOGUES", catalogues)
    translations.update("09_dynamic_graphs")
    catalogue = translations.read("09_dynamic_graphs")
    for entry in catalogue:
        entry.msgstr = entry.msgid + "\n\n（译文）"
    catalogue.save()
    return sources / "09_dynamic_graphs.py"


def test_a_changed_english_cell_makes_its_translation_fuzzy_until_it_is_back(scratch):
    assert translations.problems("09_dynamic_graphs") == []
    english = scratch.read_text()
    scratch.write_text(english.replace("# ## 2. Two inputs, two graphs", "# ## 2. Two inputs, new graphs"))
    translations.update("09_dynamic_graphs")
    found = translations.problems("09_dynamic_graphs")
    assert len(found) == 1 and "fuzzy" in found[0], found
    (entry,) = [e for e in translations.read("09_dynamic_graphs") if e.fuzzy]
    assert entry.previous_msgid.startswith("## 2. Two inputs, two graphs")
    assert entry.msgstr.startswith("## 2. Two inputs, two graphs")      # the old translation, kept
    scratch.write_text(english)
    translations.update("09_dynamic_graphs")
    assert translations.problems("09_dynamic_graphs") == []


def test_a_new_english_cell_is_untranslated_and_a_removed_one_goes(scratch):
    english = scratch.read_text()
    scratch.write_text(english + "\n# %% [markdown]\n# A new closing remark.\n")
    translations.update("09_dynamic_graphs")
    assert [p for p in translations.problems("09_dynamic_graphs") if "not translated" in p]
    scratch.write_text(english)
    translations.update("09_dynamic_graphs")
    assert translations.problems("09_dynamic_graphs") == []


@pytest.mark.parametrize("chinese, words", [
    ("见 [引擎](myautograd/ops.py)。", "links"),
    ("调用 `x.grad` 和 `backwards()`。", "code lost"),
    ("一个标题", "headings"),
    ("<details><summary>提示</summary>", "</details>"),
])
def test_a_translation_that_loses_structure_is_refused(chinese, words):
    english = "## Title\n\nSee [the engine](myautograd/engine.py): call `x.grad` and `backward()`.\n" \
              "<details><summary>Hint</summary>\n\n$y = x^2$\n\n</details>"
    assert translations.structure_problems(english, english) == []
    assert any(words in problem for problem in translations.structure_problems(english, chinese))
