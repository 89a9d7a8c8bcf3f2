"""The Chinese edition's chapters: gettext catalogues of the English chapters' markdown cells.

Each English chapter ``notebooks/src/NN_slug.py`` has a catalogue ``notebooks/src/zh/NN_slug.po``: one
entry per markdown cell, whose ``msgid`` is the English cell as it stands and whose ``msgstr`` is the
Chinese cell. Code cells are not in it: the Chinese chapter ``notebooks/zh/NN_slug.ipynb`` is the English
source with each markdown cell replaced by its translation (``tools/nbbuild.py --zh`` builds it), so the
two editions' code is one and the same.

Kept in step the gettext way: after an English cell changes, ``update`` keeps the old translation (of
the most similar old cell) but marks it *fuzzy*, with the English text it translated as its previous
msgid (the ``#| msgid`` lines), so a translator sees what changed. A chapter builds, and the tests pass,
only while every cell of its catalogue is translated and none is fuzzy. (polib reads and writes the
files; Babel's ``Catalog.update`` does the same merge but mangles long previous msgids.)

    python tools/translations.py update [NN_slug ...]   # new and changed English cells into the catalogues
    python tools/translations.py check                  # every catalogue complete and current?
    python tools/translations.py status                 # cells translated, fuzzy and missing, per chapter

Any gettext editor (Poedit, Lokalize, a text editor) edits the ``.po`` files; keep each translation's
markdown structure (headings, lists, tables, ``<details>`` boxes, code in backquotes). Links to the
learner's package (``myautograd/...``) stay as in English: the build makes them point one folder up.
"""
import argparse
import difflib
import pathlib
import re
import sys

import polib

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCES = ROOT / "notebooks" / "src"
CATALOGUES = SOURCES / "zh"
sys.path.insert(0, str(ROOT / "tools"))

from nbbuild import cells_of  # noqa: E402

HEADER = """The Chinese edition of the mini_autograd course: chapter {chapter}.
One entry per markdown cell of notebooks/src/{chapter}.py; see tools/translations.py."""
SIMILAR = 0.5     # an old cell this similar to a new one lends it its translation, marked fuzzy


def chapters():
    return sorted(path.stem for path in SOURCES.glob("[0-9][0-9]_*.py"))


def catalogue_path(chapter):
    return CATALOGUES / f"{chapter}.po"


def english_cells(chapter):
    """``[(cell index, markdown)]`` of the English chapter."""
    cells = cells_of((SOURCES / f"{chapter}.py").read_text())
    return [(index, source) for index, (kind, source) in enumerate(cells) if kind == "markdown"]


def read(chapter):
    return polib.pofile(str(catalogue_path(chapter)), wrapwidth=0)


def new_catalogue(chapter):
    catalog = polib.POFile(wrapwidth=0)
    catalog.header = HEADER.format(chapter=chapter)
    catalog.metadata = {"Project-Id-Version": "mini_autograd course", "Language": "zh_CN",
                        "MIME-Version": "1.0", "Content-Type": "text/plain; charset=utf-8",
                        "Content-Transfer-Encoding": "8bit"}
    return catalog


def update(chapter):
    """Merge the English chapter's cells into its catalogue (made if missing)."""
    old = {entry.msgid: entry for entry in read(chapter)} if catalogue_path(chapter).exists() else {}
    wanted = english_cells(chapter)
    kept = {source for _, source in wanted if source in old}
    spare = [entry for msgid, entry in old.items() if msgid not in kept and entry.msgstr]
    catalog = new_catalogue(chapter)
    for index, source in wanted:
        entry = polib.POEntry(msgid=source, msgstr="", comment=f"cell-{index:03d}")
        if source in old:
            entry.msgstr, entry.flags = old[source].msgstr, list(old[source].flags)
            entry.previous_msgid = old[source].previous_msgid
        elif spare:
            similar = max(spare, key=lambda e: difflib.SequenceMatcher(None, e.msgid, source).ratio())
            if difflib.SequenceMatcher(None, similar.msgid, source).ratio() >= SIMILAR:
                spare.remove(similar)
                entry.msgstr, entry.flags = similar.msgstr, ["fuzzy"]
                # what the translation was made from: the old cell, or what a fuzzy one was made from
                entry.previous_msgid = similar.previous_msgid if similar.fuzzy else similar.msgid
        if entry.fuzzy and entry.previous_msgid == source:   # back to the text that was translated
            entry.flags.remove("fuzzy")
            entry.previous_msgid = None
        catalog.append(entry)
    catalog.save(str(catalogue_path(chapter)))


def problems(chapter):
    """What keeps the chapter's Chinese edition from being built: ``[text]``, empty when none."""
    if not catalogue_path(chapter).exists():
        return [f"{chapter}: no catalogue (python tools/translations.py update {chapter})"]
    entries = {entry.msgid: entry for entry in read(chapter)}
    found = []
    for index, source in english_cells(chapter):
        entry = entries.get(source)
        where = f"{chapter} cell-{index:03d} ({source.splitlines()[0][:50]!r})"
        if entry is None:
            found.append(f"{where}: not in the catalogue (run update)")
        elif not entry.msgstr:
            found.append(f"{where}: not translated")
        elif entry.fuzzy:
            found.append(f"{where}: fuzzy: the English cell changed since it was translated")
        else:
            found += [f"{where}: {problem}" for problem in structure_problems(source, entry.msgstr)]
    wanted = {source for _, source in english_cells(chapter)}
    found += [f"{chapter}: an entry for a cell that is gone ({msgid[:50]!r}): run update"
              for msgid in entries if msgid not in wanted]
    return found


FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
LINK = re.compile(r"\]\(([^)\s]+)\)")
CODE = re.compile(r"`([^`]+)`")            # (a span may run over a line break)
MATH = re.compile(r"\$\$.+?\$\$|\$[^$]+\$", re.DOTALL)    # (inline ones may run over a line break too)


def _code_of(block):
    """A fenced block's code without its comments (a translation may translate those)."""
    return [re.sub(r"\s*#.*$", "", line) for line in block.splitlines()]


def structure_problems(english, chinese):
    """What a translation lost of its English cell: links, headings, boxes, code, code names, formulas."""
    found = []
    if sorted(LINK.findall(english)) != sorted(LINK.findall(chinese)):
        found.append(f"links {sorted(LINK.findall(english))} became {sorted(LINK.findall(chinese))}")
    if [_code_of(b) for b in FENCE.findall(english)] != [_code_of(b) for b in FENCE.findall(chinese)]:
        found.append("a code block differs (only its comments may be translated)")
    prose = {text: FENCE.sub("", text) for text in (english, chinese)}
    levels = {text: [line.split()[0] for line in prose[text].splitlines() if re.match(r"#+ ", line)]
              for text in (english, chinese)}
    if levels[english] != levels[chinese]:
        found.append(f"headings {levels[english]} became {levels[chinese]}")
    for tag in ("<details>", "</details>", "<summary>"):
        if english.count(tag) != chinese.count(tag):
            found.append(f"{english.count(tag)} {tag} became {chinese.count(tag)}")
    flat = " ".join(chinese.split())
    lost = sorted({span for span in CODE.findall(prose[english])
                   if f"`{' '.join(span.split())}`" not in flat})
    if lost:
        found.append(f"code lost (keep it in backquotes, as it is): {', '.join('`' + s + '`' for s in lost)}")
    formulas = sorted({formula for formula in MATH.findall(CODE.sub("", prose[english]))
                       if " ".join(formula.split()) not in flat})
    if formulas:
        found.append(f"formulas lost: {', '.join(formulas)}")
    return found


def translation(chapter):
    """``{English cell: Chinese cell}`` of the chapter's catalogue."""
    return {entry.msgid: entry.msgstr for entry in read(chapter)}


def translated_chapters():
    """The chapters that have a catalogue (complete or not)."""
    return [chapter for chapter in chapters() if catalogue_path(chapter).exists()]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=["update", "check", "status"])
    parser.add_argument("chapters", nargs="*")
    args = parser.parse_args(argv)
    names = args.chapters or (chapters() if args.command == "update" else translated_chapters())
    if args.command == "update":
        CATALOGUES.mkdir(exist_ok=True)
        for chapter in names:
            update(chapter)
            print(f"updated {catalogue_path(chapter).relative_to(ROOT)}")
        return 0
    if args.command == "status":
        for chapter in names:
            entries = list(read(chapter))
            done = sum(1 for entry in entries if entry.msgstr and not entry.fuzzy)
            fuzzy = sum(1 for entry in entries if entry.fuzzy)
            print(f"{chapter:26} {done:3} of {len(entries):3} translated, {fuzzy} fuzzy")
        return 0
    found = [problem for chapter in names for problem in problems(chapter)]
    print("\n".join(found) or f"{len(names)} catalogues complete and current")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
