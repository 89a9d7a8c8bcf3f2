"""The listings the chapters show are mini_autograd's code as it is now.

A chapter prints mini_autograd's own source with ``coursetools.show_source``; its stored output holds that
source as it was when the chapter was built. Edit one of those functions (a comment will do) and the
stored chapter is out of date: nbval says so, cell by cell, with a diff. This test says it first, and says
which chapter to rebuild: every listing of every stored chapter, both editions, must still be the code of
the object it names, line for line, in order (``...`` marks lines a listing leaves out).
"""
import importlib
import json
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")) + sorted(
    (ROOT / "notebooks" / "zh").glob("[0-9][0-9]_*.ipynb"))
# show_source's first line: "# mini_autograd/ops/binary.py: Mul", and for part of a listing a few words
# after it in the chapter's language ("Mul, some lines (...)", "Mul 的部分行").
STDOUT = {"output_type": "stream", "name": "stdout"}
HEADER = re.compile(r"# (mini_autograd/[\w/]+\.py)[:：] ?([\w.]+)(.*)")


def listings(text):
    """``[(file, qualified name, whole, [lines])]`` of the listings in one output's text: ``whole`` when the
    listing is the whole source; its lines run to the end of the output (what else the cell printed too)."""
    found = []
    for line in text.split("\n"):
        header = HEADER.fullmatch(line)
        if header:
            found.append((header.group(1), header.group(2), not header.group(3).strip(), []))
        elif found:
            found[-1][3].append(line)
    return found


def source_lines(file, qualified):
    """The current source of ``qualified`` in mini_autograd's ``file``, as lines (None: it is gone)."""
    import inspect
    module_name = file.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
    obj = importlib.import_module(module_name)
    for part in qualified.split("."):
        obj = vars(obj).get(part) if isinstance(obj, type) else getattr(obj, part, None)
        if isinstance(obj, (property, staticmethod, classmethod)):
            obj = getattr(obj, "fget", None) or obj.__func__
        if obj is None:
            return None
    return inspect.getsource(inspect.unwrap(obj)).rstrip().split("\n")


def printed_text(cell):
    """What a cell printed, its pieces joined: standard output, and the plain text of what it displayed (a
    listing folded away as a build step's answer, coursetools.answer_fold)."""
    pieces = []
    for output in cell.get("outputs", []):
        if output.get("output_type") == "stream" and output.get("name") == "stdout":
            pieces.append("".join(output["text"]))
        elif output.get("output_type") in ("display_data", "execute_result"):
            pieces.append("\n" + "".join(output.get("data", {}).get("text/plain", "")) + "\n")
    return "".join(pieces)


def stale(notebook):
    """The listings of a stored chapter whose code changed since it was built: ``[(qualified, file)]``."""
    found = []
    for cell in json.loads(notebook.read_text())["cells"]:
        if cell["cell_type"] != "code" or "show_source(" not in "".join(cell["source"]):
            continue
        printed = printed_text(cell)
        for file, qualified, whole, shown in listings(printed):
            current = source_lines(file, qualified)
            if current is None or not (shown[:len(current)] == current if whole
                                       else _in_order(shown, current)):
                found.append((qualified, file))
    return found


def _in_order(shown, current):
    """The lines of part of a listing are lines of ``current``, in the same order (``...`` marks lines left
    out). The listing ends at the first line that is not code (what the cell printed next); a line of code
    that is not in ``current`` any more makes it stale."""
    position = 0
    for line in shown:
        if not line.strip() or line.strip() == "...":
            continue
        try:
            position = current.index(line, position) + 1
        except ValueError:
            # printed after the listing (the def line matched), or changed code
            return position > 0 and not line.startswith((" ", "\t"))
    return position > 0


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT / "notebooks")))
def test_every_listing_a_chapter_shows_is_the_code_as_it_is(notebook):
    found = stale(notebook)
    source = f"notebooks/src/{notebook.stem}.py"
    zh = " --zh" if notebook.parent.name == "zh" else ""
    assert not found, (f"{notebook.relative_to(ROOT)} shows code that has changed since it was built: "
                       + ", ".join(f"{name} ({file})" for name, file in found)
                       + f". Rebuild it: .venv/bin/python tools/nbbuild.py{zh} {source}")


def test_the_chapters_show_listings():
    """The test above reads something: the chapters hold dozens of listings, each found and resolved."""
    count = sum(len(listings(printed_text(cell)))
                for notebook in NOTEBOOKS for cell in json.loads(notebook.read_text())["cells"]
                if cell["cell_type"] == "code")
    assert count >= 100, count


def test_a_changed_line_makes_a_listing_stale(tmp_path):
    """A planted change: a stored listing of Mul with one line that is no longer Mul's."""
    current = source_lines("mini_autograd/ops/binary.py", "Mul")
    assert current and _in_order(current, current)
    changed = current[:2] + [current[2] + "  # an edit"] + current[3:]
    assert not _in_order(changed, current)
    notebook = tmp_path / "99_planted.ipynb"
    text = "# mini_autograd/ops/binary.py: Mul\n" + "\n".join(changed) + "\n"
    notebook.write_text(json.dumps({"cells": [{"cell_type": "code", "source": ["show_source(Mul)"],
                                               "outputs": [STDOUT | {"text": [text]}]}]}))
    assert stale(notebook) == [("Mul", "mini_autograd/ops/binary.py")]


def test_a_changed_line_makes_part_of_a_listing_stale(tmp_path):
    """A planted change in part of a listing (a zh header, ``...`` for lines left out): stale; the same
    listing unchanged, followed by what the cell printed next: current."""
    current = source_lines("mini_autograd/autograd/function.py", "Function.apply")
    part = [current[0], "        ...", current[-1]]
    for lines, expected in ((part, []), (part[:2] + [current[-1] + "  # an edit"], ["Function.apply"])):
        notebook = tmp_path / "99_planted.ipynb"
        text = ("# mini_autograd/autograd/function.py：Function.apply 的部分行（... 表示略去的行）\n"
                + "\n".join(lines) + "\nwhat the cell printed next\n")
        notebook.write_text(json.dumps({"cells": [{"cell_type": "code", "source": ["show_source(x)"],
                                                   "outputs": [STDOUT | {"text": [text]}]}]}))
        assert [name for name, _file in stale(notebook)] == expected
