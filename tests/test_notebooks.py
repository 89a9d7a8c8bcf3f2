"""Checks on the course notebooks beyond nbval's replay of their stored outputs.

- Each notebook is what its percent-format source in notebooks/src builds.
- Each exercise's shipped solution, put in place of the placeholder, makes its
  check cell print a ✅ (so the checks can tell right from wrong).
- Each chapter has the frame the course promises: a first cell saying what you
  will learn, a recap, and a link to the next chapter.
"""
import pathlib
import re
import sys

import nbformat
import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
NOTEBOOK_DIR = ROOT / "notebooks"
NOTEBOOKS = sorted(NOTEBOOK_DIR.glob("[0-9][0-9]_*.ipynb"))
sys.path.insert(0, str(ROOT / "tools"))

import nbbuild  # noqa: E402

SOLUTION = re.compile(r"<details>.*?```python\n(.*?)```", re.S)


def exercises(nb):
    """(exercise cell index, check cell index, solution code) for each exercise."""
    found = []
    cells = nb.cells
    for i, cell in enumerate(cells):
        if cell.cell_type == "code" and cell.source.startswith("# Exercise"):
            check = i + 1
            solution_cell = cells[i + 2] if i + 2 < len(cells) else None
            match = SOLUTION.search(solution_cell.source) if solution_cell is not None else None
            found.append((i, check, match.group(1) if match else None))
    return found


def test_notebooks_exist():
    assert NOTEBOOKS, "no chapters in notebooks/"


def test_notebooks_match_their_sources():
    assert nbbuild.check_sources() == []


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_chapter_frame(path):
    nb = nbformat.read(path, as_version=4)
    first = nb.cells[0]
    assert first.cell_type == "markdown" and first.source.startswith("# "), "first cell: a title"
    text = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    if not path.stem.startswith("12"):
        number = int(path.stem[:2]) + 1
        assert re.search(rf"\]\({number:02d}_[a-z_]+\.ipynb\)", text), "a link to the next chapter"
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.execution_count is not None, "every code cell executed and stored"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_exercise_solutions_pass_their_checks(path):
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    found = exercises(nb)
    if path.stem[:2] not in ("00", "12"):
        assert len(found) >= 2, "two or three exercises per chapter"
    if not found:
        return
    for exercise, _, solution in found:
        assert solution is not None, (
            f"cell {exercise}: no <details> solution with a python block after the check")
        nb.cells[exercise].source = solution
    NotebookClient(nb, timeout=120, kernel_name="python3",
                   resources={"metadata": {"path": str(NOTEBOOK_DIR)}}).execute()
    for exercise, check, _ in found:
        output = "".join(o.get("text", "") for o in nb.cells[check].outputs if o.output_type == "stream")
        assert "✅" in output, f"the solution of the exercise in cell {exercise} does not pass: {output!r}"
