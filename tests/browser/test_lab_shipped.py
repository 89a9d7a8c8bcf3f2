"""What a learner sees on first opening a chapter, before running anything.

A freshly cloned notebook is untrusted: JupyterLab will not render its stored
``image/svg+xml`` outputs (nor any HTML with scripts), only ``<img>`` inside
``text/html`` and ``image/png``. Each chapter is opened with its stored outputs,
not run, and every stored picture must be on the page, loaded and visible.
"""
import pytest

import labtools

NOTEBOOKS = sorted(labtools.NOTEBOOK_DIR.glob("[0-9][0-9]_*.ipynb"))


@pytest.fixture(scope="module")
def lab(chromium_path, tmp_path_factory):
    server = labtools.serve_fresh_copy(tmp_path_factory, clear_outputs=False)
    yield server
    server.stop()


@pytest.mark.skipif(not NOTEBOOKS, reason=f"no chapters in {labtools.NOTEBOOK_DIR} yet")
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_stored_pictures_show_in_an_untrusted_notebook(path, lab, browser, artifacts):
    expected = labtools.expected_cells(path)
    notebook = labtools.NotebookPage.open(browser, lab, path.name)
    try:
        notebook.wait_rendered()
        cells = notebook.cells()
        trusted = [c["index"] for c in cells if c.get("trusted") and c.get("outputs")]
        assert not trusted, f"cells {trusted} are trusted: the test must see an untrusted notebook"
        pictures = {i: notebook.picture_facts(i) for i, e in expected.items() if e.pictures}
        found = labtools.problems(path.stem, expected, cells, pictures, ran=False)
        found += [f"{path.stem} cell {i}: {e.svg_only} stored image/svg+xml output(s) with no <img> or png"
                  " form: blank in an untrusted notebook" for i, e in expected.items() if e.svg_only]
        found += [f"{path.stem}: notification on the page: {t!r}" for t in notebook.toasts()]
        if pictures:
            (artifacts / "as-shipped").mkdir(exist_ok=True)
            notebook.screenshot_cell(min(pictures), artifacts / "as-shipped" / f"{path.stem}.png")
    finally:
        notebook.close()
        lab.shutdown_kernels()
    assert not found, "\n".join(found)
