"""Each chapter with build steps, run top to bottom against the answer key, shows every step done.

The stored notebooks show the stubs' state (⏳), which nbval replays. This test runs
the same chapters with BUILDTRACK_ANSWERS=1, so every check cell loads the answer
key: each says ✅, and every cell that runs the learner's package runs it for real.
"""
import os
import pathlib
import re

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = pathlib.Path(__file__).resolve().parent.parent
NOTEBOOK_DIR = ROOT / "notebooks"
CHAPTERS = [path for path in sorted(NOTEBOOK_DIR.glob("[0-9][0-9]_*.ipynb"))
            if "buildtrack.check(" in path.read_text() or "buildtrack.mine(" in path.read_text()]


def texts(cell):
    for output in cell.get("outputs", []):
        if output.get("output_type") == "stream":
            yield output["text"]
        elif "data" in output:
            yield output["data"].get("text/plain", "")


def test_some_chapters_have_build_steps():
    assert len(CHAPTERS) >= 6


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_chapter_runs_every_build_step_with_the_answer_key(path, monkeypatch):
    monkeypatch.setenv("BUILDTRACK_ANSWERS", "1")
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", os.environ.get("OPENBLAS_NUM_THREADS", "1"))
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(NOTEBOOK_DIR)}}).execute()
    checks = 0
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        output = "".join(texts(cell))
        for line in output.splitlines():
            assert not re.match(r"[⏳❌] (Step \d|This part|\d\d\.\d)", line), f"{path.stem}: {line}"
        checks += len(re.findall(r"^✅ Step \d\d\.\d", output, re.M))
        if "raises-exception" not in cell.metadata.get("tags", []):
            assert not any(o.get("output_type") == "error" for o in cell.get("outputs", [])), cell.source
    assert checks == nb_source_checks(nb), "every check cell printed ✅"


def nb_source_checks(nb):
    return sum(len(re.findall(r"^buildtrack\.check\(", c.source, re.M))
               for c in nb.cells if c.cell_type == "code")
