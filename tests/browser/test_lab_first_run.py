"""The first run: `make lab` on a fresh clone, and `make lab` / `make test` without Graphviz.

`make lab` is run for real (the Makefile's recipe, in a copy of the repository
whose .venv is this one) with LAB_ARGS for a free port and a token. The URL it
would open in the learner's browser is caught through $BROWSER and opened in
headless Chromium. The page must show chapter 00 alone: no other tab (even if
an earlier JupyterLab session left tabs open in its default workspace), no
notification toast (news, updates), no dialog, no side panel but the file
browser. Chapter 00 is then run from the Run menu and its set-up check must
say all is well.
"""
import json
import os
import secrets
import shutil
import subprocess
import time
from pathlib import Path

import nbformat
import pytest

import labtools

WELCOME = labtools.NOTEBOOK_DIR / "00_welcome.ipynb"
MAKE = shutil.which("make")


def fresh_clone(dest: Path):
    """What `git clone` gives, plus this checkout's .venv (so no install runs)."""
    dest.mkdir()
    for name in ("Makefile", "pyproject.toml"):
        shutil.copy(labtools.ROOT / name, dest / name)
    labtools.copy_notebooks(labtools.NOTEBOOK_DIR, dest / "notebooks", clear_outputs=False)
    (dest / ".venv").symlink_to(labtools.ROOT / ".venv")
    return dest


def make_command(*targets, **variables):
    # -o: never (re)install the venv from the test; `make test` has just done it.
    return [MAKE, "--no-print-directory", "-o", ".venv/.installed", *targets,
            *(f"{k}={v}" for k, v in variables.items())]


def seed_default_workspace(workspaces_dir: Path):
    """JupyterLab's 'default' workspace as an earlier session left it: a file of the course open in a tab.

    Plain `jupyter lab` restores it beside whatever it is asked to open.
    """
    tab = "editor:coursetools.py"
    layout = {"main": {"dock": {"type": "tab-area", "currentIndex": 0, "widgets": [tab]}, "current": tab},
              "down": {"size": 0, "widgets": []},
              "left": {"collapsed": False, "visible": True, "current": "filebrowser",
                       "widgets": ["filebrowser"]},
              "right": {"collapsed": True, "visible": True, "widgets": []}}
    workspace = {"data": {"layout-restorer:data": layout,
                          tab: {"data": {"path": "coursetools.py", "factory": "Editor"}}},
                 "metadata": {"id": "default"}}
    (workspaces_dir / "default-37a8.jupyterlab-workspace").write_text(json.dumps(workspace))


@pytest.mark.skipif(MAKE is None, reason="make is not installed")
@pytest.mark.skipif(not WELCOME.exists(), reason="chapter 00 (notebooks/00_welcome.ipynb) is not written yet")
@pytest.mark.skipif(not (labtools.ROOT / ".venv" / "bin" / "jupyter").exists(),
                    reason="`make lab` runs .venv/bin/jupyter: create it with `make venv`")
@pytest.mark.skipif(shutil.which("dot") is None, reason="`make lab` needs Graphviz's dot program")
def test_make_lab_opens_chapter_00_alone(browser, tmp_path, artifacts):
    clone = fresh_clone(tmp_path / "clone")
    home = tmp_path / "home"
    opened = tmp_path / "opened-url"
    recorder = tmp_path / "record-url"
    recorder.write_text(f"#!/bin/sh\nprintf '%s\\n' \"$1\" > '{opened}'\n")
    recorder.chmod(0o755)
    env = labtools.isolated_env(home, BROWSER=f"{recorder} %s")
    seed_default_workspace(Path(env["JUPYTERLAB_WORKSPACES_DIR"]))
    port, token = labtools.free_port(), secrets.token_hex(16)
    lab_args = (f"--ServerApp.ip=127.0.0.1 --ServerApp.port={port} --ServerApp.port_retries=0"
                f" --IdentityProvider.token={token}")
    server = labtools.LabServer(make_command("lab", LAB_ARGS=lab_args), cwd=clone, env=env,
                                log_path=tmp_path / "make-lab.log", port=port, token=token)
    try:
        server.wait_ready()
        deadline = time.monotonic() + 30
        while not opened.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert opened.exists(), f"make lab opened no browser:\n{server.log_tail()}"
        url = opened.read_text().strip()

        # `make lab` wrote the same settings overrides the other browser tests use.
        overrides = labtools.ROOT / ".venv" / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
        assert json.loads(overrides.read_text()) == labtools.LAB_OVERRIDES

        page = browser.new_page()
        try:
            page.goto(url)  # a file:// page that redirects to the server, as in a learner's browser
            notebook = labtools.NotebookPage(page, server, "00_welcome.ipynb")
            notebook.wait_kernel_idle()
            page.wait_for_timeout(3000)  # news and update checks run shortly after start-up
            assert page.url.split("?")[0].endswith("/tree/00_welcome.ipynb"), page.url
            tabs = page.evaluate("() => Array.from("
                                 "document.querySelectorAll('#jp-main-dock-panel .lm-TabBar-tab'))"
                                 ".map(e => e.innerText.trim())")
            assert tabs == ["00_welcome.ipynb"], f"main area tabs: {tabs}"
            assert notebook.toasts() == [], f"notifications: {notebook.toasts()}"
            assert notebook.dialogs() == [], f"dialogs: {notebook.dialogs()}"
            panels = page.evaluate(
                "() => Object.fromEntries(['jp-left-stack', 'jp-right-stack', 'jp-down-stack'].map(id => {"
                " const e = document.getElementById(id);"
                " return [id, !!e && !e.classList.contains('lm-mod-hidden')"
                " && e.offsetWidth > 0 && e.offsetHeight > 0]; }))")
            assert panels == {"jp-left-stack": True, "jp-right-stack": False, "jp-down-stack": False}, panels
            left = page.evaluate("() => Array.from(document.querySelectorAll('.jp-SideBar.jp-mod-left"
                                 " .lm-TabBar-tab.lm-mod-current')).map(e => e.getAttribute('data-id'))")
            assert left == ["filebrowser"], f"left side panel: {left}"
            page.screenshot(path=str(artifacts / "first-run-make-lab.png"))

            notebook.run_all()
            source = nbformat.read(WELCOME, as_version=4)
            checks = [i for i, c in enumerate(source.cells)
                      if c.cell_type == "code" and "setup_check(" in c.source]
            assert checks, "chapter 00 has no cell calling coursetools.setup_check()"
            for index in checks:
                cell = page.locator(".jp-NotebookPanel .jp-Notebook .jp-Cell").nth(index)
                output = cell.locator(".jp-OutputArea").evaluate("e => e.textContent")
                assert "❌" not in output and "All set" in output, (
                    f"chapter 00's set-up check says:\n{output}")
                cell.scroll_into_view_if_needed()
            page.screenshot(path=str(artifacts / "first-run-set-up-check.png"))
        finally:
            page.close()
    finally:
        server.stop()
        assert server.proc.returncode is not None


@pytest.mark.skipif(MAKE is None, reason="make is not installed")
@pytest.mark.parametrize("target", ["lab", "test"])
def test_make_without_dot_says_what_to_install(target, tmp_path):
    clone = tmp_path / "clone"
    clone.mkdir()
    for name in ("Makefile", "pyproject.toml"):
        shutil.copy(labtools.ROOT / name, clone / name)
    # No .venv and no `dot` on PATH: make must stop before installing anything.
    env = dict(os.environ, PATH=str(tmp_path / "empty-bin"))
    run = subprocess.run([MAKE, "--no-print-directory", target], cwd=clone, env=env,
                         capture_output=True, text=True, timeout=60)
    assert run.returncode != 0
    assert "'dot' was not found" in run.stderr
    for hint in ("apt-get install graphviz", "brew install graphviz", "conda install", "then run make again"):
        assert hint in run.stderr, run.stderr
    assert "Traceback" not in run.stdout + run.stderr
    assert not (clone / ".venv").exists(), "make created the venv before checking for dot"
