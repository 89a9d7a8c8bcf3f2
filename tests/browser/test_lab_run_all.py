"""Every chapter, run the way a learner runs it: JupyterLab's Run > Run All Cells in headless Chromium.

The notebooks are copied as a fresh clone has them, with their outputs cleared,
so every picture on the page was made by running the cells in the page. After
the run (kernel idle, no cell queued) each cell must show:

- no error output, except in cells marked ``# NBVAL_RAISES_EXCEPTION`` (and
  those must raise); no traceback printed on stderr; no cell left unrun;
- at least as many pictures (graph ``<img>`` in text/html, matplotlib png) as
  the notebook's stored outputs have in that cell, each loaded
  (``naturalWidth > 0``) and visible once scrolled to;
- no picture or figure printed as text (``<Figure size ...>``,
  ``<mini_autograd.viz....>``), and no ``<X object at 0x...>`` repr unless the
  stored notebook prints the same class on purpose (PyTorch's node reprs).

Screenshots go to test-artifacts/browser/: NN_slug.png (the whole notebook)
and NN_slug/cell-CC.png (each cell with a picture, input and output).
"""
import json
import time

import pytest

import labtools

NOTEBOOKS = sorted(labtools.NOTEBOOK_DIR.glob("[0-9][0-9]_*.ipynb"))


@pytest.fixture(scope="module")
def lab(chromium_path, tmp_path_factory):
    server = labtools.serve_fresh_copy(tmp_path_factory, clear_outputs=True)
    yield server
    server.stop()


@pytest.mark.skipif(not NOTEBOOKS, reason=f"no chapters in {labtools.NOTEBOOK_DIR} yet")
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_run_all_in_jupyterlab(path, lab, browser, artifacts):
    expected = labtools.expected_cells(path)  # from the notebook as shipped, with its outputs
    started = time.monotonic()
    notebook = labtools.NotebookPage.open(browser, lab, path.name)
    found, report, finished = [], {"notebook": path.name}, False
    try:
        report["run_all_seconds"] = round(notebook.run_all(), 1)
        notebook.wait_rendered()
        cells = notebook.cells()
        pictures = {c["index"]: notebook.picture_facts(c["index"]) for c in cells if c.get("images")}
        found = labtools.problems(path.stem, expected, cells, pictures)
        found += [f"{path.stem}: dialog on the page: {d!r}" for d in notebook.dialogs()]
        found += [f"{path.stem}: notification on the page: {t!r}" for t in notebook.toasts()]
        shots = artifacts / path.stem
        shots.mkdir(exist_ok=True)
        for old in shots.glob("*.png"):
            old.unlink()
        for index in pictures:
            notebook.screenshot_cell(index, shots / f"cell-{index:02d}.png")
        notebook.screenshot_whole(artifacts / f"{path.stem}.png")
        report["pictures"] = sum(len(p) for p in pictures.values())
        finished = True
    finally:
        report["total_seconds"] = round(time.monotonic() - started, 1)
        report["problems"] = found
        (artifacts / f"{path.stem}.json").write_text(json.dumps(report, indent=1))
        try:
            if found or not finished:  # what the page showed when it went wrong
                notebook.page.screenshot(path=str(artifacts / f"{path.stem}-failed.png"))
        finally:
            notebook.close()
            lab.shutdown_kernels()
    assert not found, "\n".join(found)
