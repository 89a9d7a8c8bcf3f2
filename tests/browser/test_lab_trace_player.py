"""Chapter 08's engine trace in JupyterLab: an animation before the cell runs, a player after.

A fresh clone's chapter is untrusted, so JupyterLab runs none of its stored outputs' scripts: the trace
(mini_autograd/viz/player.py) must show its animated GIF, loaded and visible, and no player. Then the
cells up to the trace are run the way a learner runs them (Run > Run All Above Selected Cell, then the
cell itself): JupyterLab trusts what it just made, the trace's script replaces the animation by the
player, and stepping forward (a click, then the right arrow key) changes the step shown, its counter and
its picture; a click on a node shows what it holds. Screenshot: docs/screenshots/trace-player-lab-en.png.
"""
import re

import nbformat
import pytest

import labtools

CHAPTER = labtools.NOTEBOOK_DIR / "08_engine.ipynb"
SCREENSHOTS = labtools.ROOT / "docs" / "screenshots"


def trace_cell(path):
    """The index of the cell that shows the trace (``trace = viz.trace_backward(...)``)."""
    cells = nbformat.read(path, as_version=4).cells
    return next(i for i, cell in enumerate(cells)
                if cell.cell_type == "code" and cell.source.startswith("trace = viz.trace_backward("))


@pytest.fixture(scope="module")
def lab(chromium_path, tmp_path_factory):
    server = labtools.serve_fresh_copy(tmp_path_factory, clear_outputs=False)
    yield server
    server.stop()


def run_menu(notebook, label):
    """Run > ``label`` in JupyterLab's menu bar."""
    notebook.page.locator("#jp-MainMenu .lm-MenuBar-item", has_text=re.compile(r"^\s*Run\s*$")).click()
    notebook.page.locator(".lm-Menu-itemLabel", has_text=re.compile(rf"^{re.escape(label)}$")).click()


@pytest.mark.skipif(not CHAPTER.exists(), reason="no chapter 08")
def test_the_trace_animates_then_plays_and_steps(lab, browser):
    index = trace_cell(CHAPTER)
    notebook = labtools.NotebookPage.open(browser, lab, CHAPTER.name)
    try:
        notebook.wait_rendered()
        cell = notebook.cell_locator(index)
        output = cell.locator(".jp-OutputArea-output").first
        output.scroll_into_view_if_needed()
        assert not notebook.cells()[index]["trusted"], "the chapter must open untrusted, as after git clone"
        gif = output.locator(".mat-trace-still img")
        gif.wait_for(timeout=10_000)
        facts = gif.evaluate("img => ({src: img.src.slice(0, 22), natural: img.naturalWidth})")
        assert facts["src"] == "data:image/gif;base64," and facts["natural"] > 0
        assert gif.is_visible()
        assert output.locator(".mat-player").count() == 0, "a player in an untrusted notebook"

        cell.locator(".jp-InputArea-editor").click()              # select the trace's cell
        notebook.page.keyboard.press("Escape")                    # command mode
        run_menu(notebook, "Run All Above Selected Cell")
        notebook.wait_kernel_idle()
        run_menu(notebook, "Run Selected Cell")
        notebook.wait_kernel_idle()
        player = cell.locator(".mat-player")
        player.wait_for(timeout=30_000)
        assert cell.locator(".mat-trace-still").count() == 0
        count = player.locator(".mat-count")
        picture = player.locator(".mat-graph img")
        assert count.inner_text() == "step 0 of 6"
        first = picture.get_attribute("src")
        player.locator("button.mat-forward").click()
        player.locator("button.mat-forward").click()
        assert count.inner_text() == "step 2 of 6"
        assert picture.get_attribute("src") != first
        player.focus()
        notebook.page.keyboard.press("ArrowRight")
        assert count.inner_text() == "step 3 of 6"
        assert "step 3: n3 TanhBackward0 runs" in player.locator(".mat-step").inner_text()
        player.locator("svg.mat-hit g.node[data-node='n4']").first.click()
        panel = player.locator(".mat-node").inner_text()
        assert "n4 MulBackward0" in panel and "input buffer" in panel and "[1.1416, 0.5220]" in panel
        assert picture.evaluate("img => img.naturalWidth") > 0 and picture.is_visible()
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        labtools.screenshot_region(notebook.page, [cell], SCREENSHOTS / "trace-player-lab-en.png")
    finally:
        notebook.close()
        lab.shutdown_kernels()
