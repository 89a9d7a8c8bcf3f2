"""The README's module map, made from chapter 12's MODULE_MAP, so the two cannot disagree.

Chapter 12 (notebooks/src/12_summary.py) holds the map as a Python list and checks it
against the package. This script renders the same list as the README's table:

    python tools/module_map.py           # print the table
    python tools/module_map.py --write   # put it into README.md, between the module-map markers

tests/test_packaging.py checks that README.md holds exactly what this script writes.
"""
import argparse
import ast
import importlib
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
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


def file_of(module_name):
    """mini_autograd.ops.pointwise -> ops/pointwise.py; a package -> its __init__.py (as in chapter 12)."""
    path = module_name.replace("mini_autograd", "").lstrip(".").replace(".", "/")
    if hasattr(importlib.import_module(module_name), "__path__"):
        return (path + "/__init__.py").lstrip("/")
    return path + ".py"


def table():
    rows = ["| file in `mini_autograd/` | what it holds | chapters | PyTorch counterpart |",
            "|---|---|---|---|"]
    for modules, holds, chapters, counterpart in module_map():
        files = ", ".join(f"`{file_of(m)}`" for m in modules)
        rows.append(f"| {files} | {holds} | {chapters} | {counterpart} |")
    return "\n".join(rows)


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
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
