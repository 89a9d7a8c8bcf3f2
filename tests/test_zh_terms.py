"""One term per concept in the Chinese edition: the table "Terms in Chinese" of CONTRIBUTING.md.

Each row of that table names a concept, its Chinese term (the "中文" column: the spellings that are
right, in backquotes) and the other spellings not to use (the "not" column, in backquotes). This test
reads the table, so the table is the one place a term is decided, and fails on any spelling of the
"not" column in the Chinese texts:

- the chapters' catalogues, notebooks/src/zh/NN_slug.po (each msgstr: a Chinese markdown cell);
- the catalogues of the checks, the chapters' printed texts, the pictures and the plots:
  notebooks/buildtrack/locale/zh_CN/LC_MESSAGES/*.po and mini_autograd/viz/locale/zh_CN/LC_MESSAGES/viz.po
  (each msgstr);
- the Chinese site's own pages, book/zh/*.md.

What is not read, because it is not the course's Chinese prose: code in backquotes; the code of a
fenced block (its comments are read); a seed article's section title quoted with its section number
(`§5“叶子节点和非叶子节点”`, `第 5 节“…”`), which stays as the seed wrote it. A spelling of the
"not" column inside a spelling of the same row's "中文" column is no finding either (螺旋 in 螺旋线).

Chapter 00's glossary (its Chinese cell) gives each table term that it lists in the table's spelling,
and lists the terms that the later chapters introduce.

    .venv/bin/python tests/test_zh_terms.py      # every finding, with its place
"""
import re
import sys
from pathlib import Path

import polib
import pytest

ROOT = Path(__file__).resolve().parent.parent
CONTRIBUTING = ROOT / "CONTRIBUTING.md"
HEADING = "### Terms in Chinese"
CHAPTER_CATALOGUES = sorted((ROOT / "notebooks" / "src" / "zh").glob("[0-9][0-9]_*.po"))
BUILDTRACK_LOCALE = ROOT / "notebooks" / "buildtrack" / "locale" / "zh_CN" / "LC_MESSAGES"
MESSAGE_CATALOGUES = [*sorted(BUILDTRACK_LOCALE.glob("*.po")),
                      ROOT / "mini_autograd" / "viz" / "locale" / "zh_CN" / "LC_MESSAGES" / "viz.po"]
SITE_PAGES = sorted((ROOT / "book" / "zh").glob("*.md"))
SOURCES = CHAPTER_CATALOGUES + MESSAGE_CATALOGUES + SITE_PAGES

# The glossary must list these concepts (English column), which the chapters after 07 use.
GLOSSARY_MUST_LIST = ["hook", "version counter", "in-place operation", "ready queue", "input buffer",
                      "dependency count", "sequence number", "pre-hook", "spiral", "build step"]

CODE_SPAN = re.compile(r"`[^`]+`")
FENCE = re.compile(r"^```.*?^```", re.M | re.S)
CITED_TITLE = re.compile(r"(§\s*\d+|第\s*\d+\s*节)\s*“[^”\n]{1,40}”")


def term_table(text=None):
    """[(English, [right spellings], [other spellings])]: the rows of CONTRIBUTING.md's table."""
    text = CONTRIBUTING.read_text(encoding="utf-8") if text is None else text
    assert HEADING in text, f"CONTRIBUTING.md has no section {HEADING!r}"
    section = text.split(HEADING, 1)[1]
    section = re.split(r"^#{1,3} ", section, maxsplit=1, flags=re.M)[0]
    rows = [line for line in section.splitlines() if line.startswith("|")]
    assert rows and [cell.strip() for cell in rows[0].strip("|").split("|")][:3] == ["English", "中文", "not"]
    table = []
    for line in rows[2:]:
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        spans = [[span.strip("`") for span in CODE_SPAN.findall(cell)] for cell in cells[1:3]]
        table.append((cells[0], spans[0], spans[1]))
    return table


def prose(text):
    """What of a text is read: code spans and fenced code (not its comments) out, cited seed titles out."""
    def comments_only(match):
        lines = match.group(0).splitlines()[1:-1]
        return "\n".join(line.split("#", 1)[1] if "#" in line else "" for line in lines)
    text = FENCE.sub(comments_only, text)
    text = CODE_SPAN.sub(" ", text)
    return CITED_TITLE.sub(lambda match: match.group(1), text)


def findings(text, table):
    """[(other spelling, right spelling, context)] in a text."""
    text = prose(text)
    found = []
    for _, right, others in table:
        covered = set()
        for spelling in right:
            for match in re.finditer(re.escape(spelling), text):
                covered.update(range(match.start(), match.end()))
        for other in others:
            for match in re.finditer(re.escape(other), text):
                if not set(range(match.start(), match.end())) <= covered:
                    context = text[max(0, match.start() - 15):match.end() + 15].replace("\n", "⏎")
                    found.append((other, right[0] if right else "", context))
    return found


def texts(path):
    """[(place, Chinese text)] of a catalogue (its msgstrs) or a page."""
    if path.suffix == ".md":
        return [(path.name, path.read_text(encoding="utf-8"))]
    found = []
    for entry in polib.pofile(str(path), wrapwidth=0):
        where = (entry.comment or entry.msgid.splitlines()[0][:40]) if entry.msgid else "header"
        found += [(f"{path.name} {where}", text) for text in [entry.msgstr, *entry.msgstr_plural.values()]
                  if text]
    return found


def glossary_rows():
    """{English: 中文} of the Chinese glossary of chapter 00."""
    chinese = next(entry.msgstr for entry in polib.pofile(str(CHAPTER_CATALOGUES[0]), wrapwidth=0)
                   if entry.msgid.startswith("## Glossary"))
    rows = {}
    for line in chinese.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) == 4 and not set(cells[0]) <= set("-"):
            rows[cells[0]] = cells[1]
    return rows


def test_the_table_is_read():
    table = term_table()
    assert len(table) >= 20
    for english, right, others in table:
        assert right, f"{english}: no term in backquotes in the 中文 column"
        assert not set(right) & set(others), f"{english}: a spelling is both right and not"
    # Every row's term differs from every other row's other spellings (no contradicting rows).
    every_right = {spelling for _, right, _ in table for spelling in right}
    every_other = {spelling for _, _, others in table for spelling in others}
    assert not every_right & every_other


def test_what_is_read_and_what_is_not():
    table = [("leaf tensor", ["叶子张量", "叶子"], ["叶子节点"]), ("spiral", ["螺旋线"], ["螺旋"])]
    # An other spelling is found in prose, and in a code comment, ...
    assert [other for other, _, _ in findings("x 是叶子节点。", table)] == ["叶子节点"]
    assert [other for other, _, _ in findings("```python\nx = 1   # 叶子节点\n```", table)] == ["叶子节点"]
    # ... not in code, nor in a seed's title cited with its number, nor inside the right spelling.
    assert findings("`叶子节点` 与 `print('螺旋')`", table) == []
    assert findings("文章 000 第 5 节“叶子节点和非叶子节点”；§5“叶子节点和非叶子节点”", table) == []
    assert findings("两条螺旋线", table) == []
    assert [other for other, _, _ in findings("两条螺旋", table)] == ["螺旋"]
    # A quoted title without its number is the course's own text: found.
    assert [other for other, _, _ in findings("“叶子节点和非叶子节点”", table)] == ["叶子节点", "叶子节点"]


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: str(path.relative_to(ROOT)))
def test_each_concept_has_one_chinese_term(path):
    table = term_table()
    found = [(place, finding) for place, text in texts(path) for finding in findings(text, table)]
    assert not found, (f"{len(found)} spellings that CONTRIBUTING.md's \"Terms in Chinese\" replaces:\n"
                       + "\n".join(f"  {place}: {other} → {right}  (…{context}…)"
                                   for place, (other, right, context) in found))


def test_the_glossary_gives_the_table_terms():
    rows = glossary_rows()
    missing = [english for english in GLOSSARY_MUST_LIST if english not in rows]
    assert not missing, f"chapter 00's Chinese glossary lacks {missing}"
    wrong = [(english, rows[key], right[0]) for english, right, _ in term_table()
             for key in [re.sub(r"\s*\(.*\)$", "", english)]
             if key in rows and not any(spelling in rows[key] for spelling in right)]
    assert not wrong, f"the glossary and CONTRIBUTING.md's table disagree: {wrong}"


if __name__ == "__main__":
    table = term_table()
    total = 0
    for path in SOURCES:
        for place, text in texts(path):
            for other, right, context in findings(text, table):
                total += 1
                print(f"{place}: {other} → {right}  (…{context}…)")
    print(f"{total} findings")
    sys.exit(1 if total else 0)
