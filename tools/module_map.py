"""The README's module map, made from chapter 12's MODULE_MAP, so the two cannot disagree.

Chapter 12 (notebooks/src/12_summary.py) holds the map as a Python list and checks it
against the package. This script renders the same list as the README's table:

    python tools/module_map.py           # print the table
    python tools/module_map.py --write   # put it into README.md, between the module-map markers

tests/test_packaging.py checks that README.md holds exactly what this script writes.
"""
import argparse
import ast
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "notebooks")]
from coursetools import module_table  # noqa: E402  (notebooks/coursetools.py, which chapter 12 uses too)

CHAPTER = ROOT / "notebooks" / "src" / "12_summary.py"
README = ROOT / "README.md"
BEGIN, END = "<!-- module-map: made by tools/module_map.py -->", "<!-- /module-map -->"


def module_map():
    """Chapter 12's MODULE_MAP: [(modules, what it holds, chapters, PyTorch counterpart), ...]."""
    tree = ast.parse(CHAPTER.read_text())
    for node in tree.body:
        names = [t.id for t in getattr(node, "targets", []) if isinstance(t, ast.Name)]
        if names == ["MODULE_MAP"]:
            return ast.literal_eval(node.value)
    raise LookupError(f"no MODULE_MAP in {CHAPTER}")


def table():
    return module_table(module_map())


def readme_with_table(text):
    start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
    return text[:start] + "\n" + table() + "\n" + text[end:]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args(argv)
    if args.write:
        README.write_text(readme_with_table(README.read_text()))
    else:
        print(table())
    return 0


if __name__ == "__main__":
    sys.exit(main())
