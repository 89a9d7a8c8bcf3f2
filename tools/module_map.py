"""The module map's pages, made from chapter 12's MODULE_MAP, so they cannot disagree with it.

Chapter 12 (notebooks/src/12_summary.py) holds the map as a Python list and checks it
against the package. This script renders the same list as the table of the module-map
pages, in English (docs/modules.md, linked from the README) and in Chinese
(book/zh/modules.md, the Chinese website's page; its words are the Chinese chapter 12's,
from the chapters' catalogue):

    python tools/module_map.py                # print the English table
    python tools/module_map.py --zh           # print the Chinese table
    python tools/module_map.py --write        # put both into their pages, between the module-map markers

tests/test_packaging.py checks that both pages hold exactly what this script writes.
"""
import argparse
import ast
import contextlib
import os
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "notebooks")]
from coursetools import module_table  # noqa: E402  (notebooks/coursetools.py, which chapter 12 uses too)

CHAPTER = ROOT / "notebooks" / "src" / "12_summary.py"
PAGES = {"en": ROOT / "docs" / "modules.md", "zh": ROOT / "book" / "zh" / "modules.md"}
BEGIN, END = "<!-- module-map: made by tools/module_map.py -->", "<!-- /module-map -->"


def module_map():
    """Chapter 12's MODULE_MAP: [(modules, what it holds, chapters, PyTorch counterpart), ...]."""
    tree = ast.parse(CHAPTER.read_text())
    for node in tree.body:
        names = [t.id for t in getattr(node, "targets", []) if isinstance(t, ast.Name)]
        if names == ["MODULE_MAP"]:
            return ast.literal_eval(node.value)
    raise LookupError(f"no MODULE_MAP in {CHAPTER}")


@contextlib.contextmanager
def _language(edition):
    """The course's messages in this edition's language (BUILDTRACK_LANG: buildtrack/i18n.py's first rule)."""
    before = os.environ.get("BUILDTRACK_LANG")
    os.environ["BUILDTRACK_LANG"] = edition
    try:
        yield
    finally:
        if before is None:
            del os.environ["BUILDTRACK_LANG"]
        else:
            os.environ["BUILDTRACK_LANG"] = before


def table(edition="en"):
    with _language(edition):
        return module_table(module_map())


def page_with_table(text, edition="en"):
    """A page's text with the table between its markers made anew."""
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    return text[:start] + "\n" + table(edition) + "\n" + text[end:]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--zh", action="store_true", help="print the Chinese table")
    args = parser.parse_args(argv)
    if args.write:
        for edition, page in PAGES.items():
            page.write_text(page_with_table(page.read_text(encoding="utf-8"), edition), encoding="utf-8")
    else:
        print(table("zh" if args.zh else "en"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
