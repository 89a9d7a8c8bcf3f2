"""Helpers for the browser tests: a JupyterLab server, headless Chromium, and what a notebook should show.

- ``LabServer``: starts ``jupyter lab`` (or ``make lab``) on a free localhost
  port with a random token, talks to its REST API, and shuts kernels and
  server down through that API (killing the process group only as a last resort).
- ``launch_chromium``: Debian's ``chromium`` driven by playwright through
  ``executable_path`` (no browser is ever downloaded).
- ``expected_cells``: what each code cell of a notebook should show, read from
  the notebook as shipped (its stored outputs and NBVAL markers).
- ``NotebookPage``: opens a notebook, runs it through JupyterLab's own Run menu,
  waits for the kernel to go idle, reads each cell back (model and DOM), and
  takes screenshots.
- ``problems``: compares what the page shows with what was expected.
"""
from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# The notebooks under test. BROWSER_TEST_NOTEBOOKS points elsewhere while the
# test itself is being developed (e.g. at a folder of trial notebooks).
NOTEBOOK_DIR = Path(os.environ.get("BROWSER_TEST_NOTEBOOKS", ROOT / "notebooks")).resolve()
ARTIFACTS = ROOT / "test-artifacts" / "browser"

CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    # Without these Chromium phones home, and this machine refuses the connections.
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
VIEWPORT = {"width": 1280, "height": 900}
# What `make lab` writes to <sys.prefix>/share/jupyter/lab/settings/overrides.json:
# no news or update pop-ups (schema: @jupyterlab/apputils-extension notification.json).
LAB_OVERRIDES = {"@jupyterlab/apputils-extension:notification": {"checkForUpdates": False,
                                                                 "fetchNews": "false"}}

RAISES_MARKER = re.compile(r"^\s*#\s*NBVAL_RAISES_EXCEPTION\s*$", re.M)
# A Python object shown by its default repr instead of as a picture or table.
OBJECT_REPR = re.compile(r"<([A-Za-z_][\w.]*) (?:object )?at 0x[0-9a-fA-F]+>")
# Reprs that mean a picture or plot was printed instead of shown, even when the
# stored notebook has them too.
NEVER_AS_TEXT = [
    (re.compile(r"<Figure size [^>]*>"), "a matplotlib figure shown as text"),
    (re.compile(r"<(?:mini_autograd\.viz|graphviz|matplotlib|IPython\.core\.display)\.[\w.]*"),
     "a picture object shown as its repr"),
]


def find_chromium():
    """Path of Debian's chromium, or None."""
    for candidate in ("/usr/bin/chromium", shutil.which("chromium"), shutil.which("chromium-browser")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def isolated_env(home: Path, **extra):
    """Environment for a lab server that ignores this user's Jupyter config, kernels, settings and
    workspaces."""
    env = dict(os.environ)
    env.pop("MPLBACKEND", None)  # a learner's kernel uses the inline backend
    for name, sub in [("JUPYTER_CONFIG_DIR", "config"), ("JUPYTER_DATA_DIR", "data"),
                      ("JUPYTER_RUNTIME_DIR", "runtime"), ("JUPYTERLAB_SETTINGS_DIR", "lab-user-settings"),
                      ("JUPYTERLAB_WORKSPACES_DIR", "lab-workspaces"), ("IPYTHONDIR", "ipython")]:
        (home / sub).mkdir(parents=True, exist_ok=True)
        env[name] = str(home / sub)
    env.update(extra)
    return env


def copy_notebooks(src: Path, dest: Path, clear_outputs: bool):
    """Copy a notebooks folder as a fresh clone has it; with clear_outputs, the chapters come without
    outputs."""
    import nbformat

    shutil.copytree(src, dest, ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"))
    if clear_outputs:
        for path in dest.glob("[0-9][0-9]_*.ipynb"):
            nb = nbformat.read(path, as_version=4)
            for cell in nb.cells:
                if cell.cell_type == "code":
                    cell.outputs = []
                    cell.execution_count = None
            nbformat.write(nb, path)
    return dest


# ---------------------------------------------------------------- the server


class LabServer:
    """A JupyterLab server on 127.0.0.1 with a random token; stop() shuts it down through its API."""

    def __init__(self, command, *, cwd, env, log_path: Path, port: int, token: str):
        self.port, self.token = port, token
        self.base = f"http://127.0.0.1:{port}"
        self.log_path = log_path
        # A session of its own, so that a last-resort kill reaches make, jupyter and kernels alike.
        # The server writes the log through its own copy of the file descriptor; ours is closed at once.
        with open(log_path, "w") as log:
            self.proc = subprocess.Popen(command, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL, start_new_session=True)

    @classmethod
    def start(cls, root_dir: Path, home: Path, *, extra_args=(), timeout=90):
        """``python -m jupyterlab`` serving root_dir, with settings overrides like `make lab` writes."""
        port, token = free_port(), secrets.token_hex(16)
        app_settings = home / "lab-app-settings"
        app_settings.mkdir(parents=True, exist_ok=True)
        (app_settings / "overrides.json").write_text(json.dumps(LAB_OVERRIDES))
        command = [sys.executable, "-m", "jupyterlab", "--no-browser",
                   "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
                   f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root_dir}",
                   f"--LabApp.app_settings_dir={app_settings}", *extra_args]
        if os.geteuid() == 0:
            command.append("--allow-root")
        server = cls(command, cwd=root_dir, env=isolated_env(home), log_path=home / "jupyter-lab.log",
                     port=port, token=token)
        try:
            server.wait_ready(timeout)
        except BaseException:
            server.stop()
            raise
        return server

    def url(self, path):
        sep = "&" if "?" in path else "?"
        return f"{self.base}{path}{sep}token={self.token}"

    def api(self, method, path, timeout=10):
        request = urllib.request.Request(self.base + path, method=method,
                                         data=b"" if method == "POST" else None,
                                         headers={"Authorization": f"token {self.token}"})
        with urllib.request.urlopen(request, timeout=timeout) as response:
            body = response.read()
        return json.loads(body) if body else None

    def wait_ready(self, timeout=90):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"jupyter lab exited with {self.proc.returncode}:\n{self.log_tail()}")
            try:
                self.api("GET", "/api/status", timeout=2)
                return
            except (OSError, urllib.error.URLError):
                time.sleep(0.3)
        raise RuntimeError(f"jupyter lab did not answer on {self.base} within {timeout} s:\n"
                           f"{self.log_tail()}")

    def log_tail(self, chars=3000):
        return self.log_path.read_text(errors="replace")[-chars:]

    def kernels(self):
        return self.api("GET", "/api/kernels")

    def shutdown_kernels(self):
        for session in self.api("GET", "/api/sessions"):
            self.api("DELETE", f"/api/sessions/{session['id']}")
        for kernel in self.api("GET", "/api/kernels"):
            self.api("DELETE", f"/api/kernels/{kernel['id']}")

    def stop(self, timeout=20):
        """Kernels and server down through the API; the process group is killed only if that fails."""
        if self.proc.poll() is None:
            try:
                self.shutdown_kernels()
                self.api("POST", "/api/shutdown")
            except (OSError, urllib.error.URLError):
                pass
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGTERM)
                try:
                    self.proc.wait(10)
                except subprocess.TimeoutExpired:
                    os.killpg(self.proc.pid, signal.SIGKILL)
                    self.proc.wait()


# ---------------------------------------------------------------- the browser


def launch_chromium(playwright, profile_dir: Path, executable: str):
    """A headless Chromium (Debian's) with a fresh profile."""
    return playwright.chromium.launch_persistent_context(
        str(profile_dir), executable_path=executable, headless=True, args=CHROMIUM_ARGS,
        viewport=VIEWPORT, device_scale_factor=1)


# ---------------------------------------------------------------- what a notebook should show


@dataclass
class CellExpectation:
    index: int                 # position among all cells (markdown included)
    pictures: int = 0          # <img> graph pictures and png plots in the stored outputs
    raises: bool = False       # marked as raising on purpose
    tagged_raises: bool = False  # has the raises-exception tag Run All needs to go on past it
    reprs_allowed: set = field(default_factory=set)  # class names printed as <X object at 0x..> on purpose
    svg_only: int = 0          # stored image/svg+xml with no <img>/png form: blank in an untrusted notebook


def pictures_in(output):
    """How many pictures an output shows: a png, or each <img> of its HTML (a trace has one per frame)."""
    data = output.get("data", {})
    return int("image/png" in data) + "".join(data.get("text/html", "")).count("<img")


def output_text(output):
    if output.get("output_type") == "stream":
        return "".join(output.get("text", ""))
    if output.get("output_type") == "error":
        return "\n".join(output.get("traceback", []))
    return "".join(output.get("data", {}).get("text/plain", ""))


def expected_cells(path: Path):
    """{cell index: CellExpectation} for the code cells of the notebook as shipped."""
    import nbformat

    nb = nbformat.read(path, as_version=4)
    expected = {}
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        tags = cell.get("metadata", {}).get("tags", [])
        e = CellExpectation(index=i, tagged_raises="raises-exception" in tags)
        e.raises = bool(RAISES_MARKER.search(cell.source)) or e.tagged_raises
        for output in cell.get("outputs", []):
            if pictures_in(output):
                e.pictures += pictures_in(output)
            elif "image/svg+xml" in output.get("data", {}):
                e.svg_only += 1
            for match in OBJECT_REPR.finditer(output_text(output)):
                if not any(rule.search(match.group(0)) for rule, _ in NEVER_AS_TEXT):
                    e.reprs_allowed.add(match.group(1))
        expected[i] = e
    return expected


# ---------------------------------------------------------------- the page

# Reads every cell of the current notebook: the model's outputs (kind, error
# name) and what the DOM shows (prompt, rendered text, pictures).
READ_CELLS_JS = r"""
() => {
  const panel = window.jupyterapp.shell.currentWidget;
  const notebook = panel.content;
  return notebook.widgets.map((cell, index) => {
    const model = cell.model;
    const facts = {index, type: model.type};
    if (model.type !== 'code') return facts;
    facts.executionCount = model.executionCount;
    facts.trusted = model.trusted;
    facts.prompt = ((cell.node.querySelector('.jp-InputPrompt') || {}).textContent || '').trim();
    facts.outputs = [];
    for (let k = 0; k < model.outputs.length; k++) {
      const o = model.outputs.get(k).toJSON();
      facts.outputs.push({type: o.output_type, mimes: Object.keys(o.data || {}), name: o.name || null,
                          ename: o.ename || null, evalue: (o.evalue || '').slice(0, 300)});
    }
    facts.rendered = Array.from(cell.node.querySelectorAll('.jp-OutputArea-output')).map(el => ({
      mime: el.getAttribute('data-mime-type'),
      text: el.querySelector('img') ? '' : el.textContent.slice(0, 5000),
    }));
    facts.images = cell.node.querySelectorAll('.jp-OutputArea-output img').length;
    return facts;
  });
}
"""


WATCH_PROMPTS_JS = r"""
() => {
  window.__runAllSeen = false;
  if (window.__runAllObserver) window.__runAllObserver.disconnect();
  window.__runAllObserver = new MutationObserver(records => {
    for (const r of records) {
      const el = r.target.nodeType === 1 ? r.target : r.target.parentElement;
      const prompt = el && el.closest('.jp-InputPrompt');
      if (prompt && prompt.textContent.trim() === '[*]:') window.__runAllSeen = true;
    }
  });
  window.__runAllObserver.observe(document.querySelector('.jp-NotebookPanel .jp-Notebook'),
                                  {subtree: true, childList: true, characterData: true});
}
"""


class NotebookPage:
    """One notebook open in JupyterLab, in a page of its own.

    Waiting and running use only what a learner sees (the menu, the prompts,
    the status bar) and the server's API; reading cells back (cells()) also
    needs the app exposed in the page (--LabApp.expose_app_in_browser).
    """

    def __init__(self, page, server: LabServer, relpath: str):
        self.page, self.server, self.relpath = page, server, relpath
        self.page.wait_for_selector(".jp-NotebookPanel .jp-Notebook .jp-Cell", timeout=90_000)

    @classmethod
    def open(cls, context, server: LabServer, relpath: str):
        page = context.new_page()
        # A workspace of its own, so no other notebook is restored beside it.
        page.goto(server.url(f"/lab/workspaces/t{secrets.token_hex(4)}/tree/{relpath}"))
        return cls(page, server, relpath)

    def close(self):
        self.page.close()

    def wait_rendered(self, timeout=60):
        """Until every code cell shows as many outputs as its model holds (rendering is asynchronous)."""
        self.page.wait_for_function(
            "() => { const p = window.jupyterapp && window.jupyterapp.shell.currentWidget;"
            " if (!p || !p.content || !p.context.isReady) return false;"
            " return p.content.widgets.every(c => c.model.type !== 'code'"
            " || c.node.querySelectorAll('.jp-OutputArea-child').length === c.model.outputs.length); }",
            timeout=timeout * 1000)

    # -- kernel

    def kernel_state(self):
        for session in self.server.api("GET", "/api/sessions"):
            if session.get("path") == self.relpath and session.get("kernel"):
                return session["kernel"]["execution_state"]
        return None

    def status_bar_idle(self):
        return self.page.evaluate(
            "() => Array.from(document.querySelectorAll('#jp-main-statusbar .jp-StatusBar-TextItem'))"
            ".some(e => / \\| Idle$/.test(e.innerText.trim()) && !/^No Kernel/.test(e.innerText.trim()))")

    def wait_kernel_idle(self, timeout=90):
        """Until the notebook's kernel is idle on the server and the status bar says so."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.kernel_state() == "idle" and self.status_bar_idle():
                return
            time.sleep(0.3)
        raise AssertionError(f"{self.relpath}: kernel not idle after {timeout} s "
                             f"(state {self.kernel_state()!r})")

    def prompts(self):
        return self.page.evaluate(
            "() => Array.from(document.querySelectorAll('.jp-NotebookPanel .jp-CodeCell .jp-InputPrompt'))"
            ".map(e => e.textContent.trim())")  # innerText is empty in cells scrolled out of view

    # -- running

    def run_all(self, timeout=180):
        """Run > Run All Cells, then wait until no cell is queued or running and the kernel is idle."""
        self.wait_kernel_idle()
        self.page.locator("#jp-main-dock-panel .lm-TabBar-tab.lm-mod-current").first.click()
        # Start is seen when a prompt turns [*] (queued or running), however short the run.
        self.page.evaluate(WATCH_PROMPTS_JS)
        self.page.locator("#jp-MainMenu .lm-MenuBar-item", has_text=re.compile(r"^\s*Run\s*$")).click()
        self.page.locator(".lm-Menu-item[data-command='runmenu:run-all']").click()
        started = time.monotonic()
        deadline = started + timeout
        while not self.page.evaluate("() => window.__runAllSeen"):
            if time.monotonic() > started + 30:
                raise AssertionError(f"{self.relpath}: Run All started nothing within 30 s")
            time.sleep(0.1)
        quiet = 0
        while quiet < 3:
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.relpath}: still running after {timeout} s: "
                                     f"prompts {self.prompts()}")
            busy = "[*]:" in self.prompts() or self.kernel_state() != "idle" or not self.status_bar_idle()
            quiet = 0 if busy else quiet + 1
            time.sleep(0.3)
        return time.monotonic() - started

    # -- reading

    def cells(self):
        return self.page.evaluate(READ_CELLS_JS)

    def cell_locator(self, index):
        return self.page.locator(".jp-NotebookPanel .jp-Notebook .jp-Cell").nth(index)

    def picture_facts(self, index):
        """Each picture in a cell's outputs, scrolled into view: loaded, decoded size, shown size, visible."""
        facts = []
        images = self.cell_locator(index).locator(".jp-OutputArea-output img")
        for k in range(images.count()):
            image = images.nth(k)
            image.scroll_into_view_if_needed(timeout=10_000)
            self.page.wait_for_function("img => img.complete", arg=image.element_handle(), timeout=10_000)
            info = image.evaluate("img => ({natural: img.naturalWidth, naturalHeight: img.naturalHeight,"
                                  " src: img.src.slice(0, 40)})")
            box = image.bounding_box()
            info["visible"] = image.is_visible() and bool(box) and box["width"] > 0 and box["height"] > 0
            facts.append(info)
        return facts

    def toasts(self):
        return self.page.evaluate("() => Array.from(document.querySelectorAll('.Toastify__toast'))"
                                  ".map(e => e.innerText.trim())")

    def dialogs(self):
        return self.page.evaluate("() => Array.from(document.querySelectorAll('.jp-Dialog'))"
                                  ".map(e => e.innerText.trim().slice(0, 300))")

    # -- screenshots

    def screenshot_cell(self, index, path: Path, max_height=16_000):
        """One cell, input and outputs; the window is made tall enough to hold it."""
        cell = self.cell_locator(index)
        cell.scroll_into_view_if_needed(timeout=10_000)
        height = cell.evaluate("e => e.getBoundingClientRect().height")
        if height + 200 > VIEWPORT["height"]:
            self.page.set_viewport_size({"width": VIEWPORT["width"],
                                         "height": min(int(height) + 300, max_height)})
        try:
            cell.scroll_into_view_if_needed(timeout=10_000)
            cell.screenshot(path=str(path), timeout=20_000)
        finally:
            self.page.set_viewport_size(VIEWPORT)

    def screenshot_whole(self, path: Path, max_height=16_000):
        """The whole notebook in one picture: the window is made as tall as the notebook for the shot."""
        scroller = ".jp-NotebookPanel .jp-WindowedPanel-outer"
        content_height, visible_height = self.page.evaluate(
            f"() => {{ const e = document.querySelector('{scroller}'); "
            "return [e.scrollHeight, e.clientHeight]; }")
        height = min(VIEWPORT["height"] - visible_height + content_height, max_height)
        self.page.set_viewport_size({"width": VIEWPORT["width"], "height": height})
        try:
            self.page.evaluate(f"() => document.querySelector('{scroller}').scrollTo(0, 0)")
            self.page.wait_for_timeout(500)
            self.page.screenshot(path=str(path))
        finally:
            self.page.set_viewport_size(VIEWPORT)


# ---------------------------------------------------------------- comparing


def never_ran(cells):
    return [c["index"] for c in cells if c["type"] == "code" and c["executionCount"] is None]


def problems(name, expected, cells, pictures, *, ran=True):
    """What is wrong with the page, one line each, naming the notebook and the cell.

    expected: {index: CellExpectation}; cells: READ_CELLS_JS result;
    pictures: {index: picture_facts(index)} for cells with pictures; ran: Run All was used.
    """
    found = []

    def report(index, what):
        found.append(f"{name} cell {index}: {what}")

    if ran:
        skipped = never_ran(cells)
        if skipped:
            stoppers = [c["index"] for c in cells if c["type"] == "code" and c["index"] < skipped[0]
                        and any(o["type"] == "error" for o in c["outputs"])]
            why = ""
            if stoppers:
                stop = stoppers[-1]
                why = f": Run All stopped at the error of cell {stop}"
                if expected.get(stop) and expected[stop].raises and not expected[stop].tagged_raises:
                    why += (" (it raises on purpose: give it the cell tag `raises-exception` so"
                            " JupyterLab's Run All goes on past it)")
            found.append(f"{name}: cells {skipped} never ran{why}")
    for cell in cells:
        if cell["type"] != "code":
            continue
        i = cell["index"]
        e = expected.get(i, CellExpectation(index=i))
        errors = [o for o in cell["outputs"] if o["type"] == "error"]
        if errors and not e.raises:
            report(i, "error output " + "; ".join(f"{o['ename']}: {o['evalue']}" for o in errors))
        if ran and e.raises and not errors and cell["executionCount"] is not None:
            report(i, "marked NBVAL_RAISES_EXCEPTION but raised nothing")
        for r in cell["rendered"]:
            text = r["text"]
            if r["mime"] == "application/vnd.jupyter.stderr" and "Traceback (most recent call last)" in text \
                    and not errors:
                report(i, "a traceback printed on stderr: " + text.strip().splitlines()[-1][:200])
            for rule, what in NEVER_AS_TEXT:
                match = rule.search(text)
                if match:
                    report(i, f"{what}: {match.group(0)!r}")
            for match in OBJECT_REPR.finditer(text):
                if match.group(1) not in e.reprs_allowed and not any(rule.search(match.group(0))
                                                                     for rule, _ in NEVER_AS_TEXT):
                    report(i, f"an object shown as its bare repr: {match.group(0)!r}")
        shown = pictures.get(i, [])
        if len(shown) < e.pictures:
            report(i, f"{e.pictures} picture(s) expected (as in the stored notebook), {len(shown)} shown")
        for k, p in enumerate(shown, 1):
            if not p["natural"]:
                report(i, f"picture {k} did not load or decode (naturalWidth 0, src {p['src']}...)")
            elif not p["visible"]:
                report(i, f"picture {k} is not visible on the page")
    return found


def serve_fresh_copy(tmp_path_factory, clear_outputs):
    """A JupyterLab server on a copy of the chapters, as a fresh clone has them.

    ``clear_outputs=True`` drops the stored outputs, so a test that runs the cells sees
    only what the run drew; False keeps them, as a learner first sees the notebooks.
    """
    root = tmp_path_factory.mktemp("fresh-clone")
    copy_notebooks(NOTEBOOK_DIR, root / "notebooks", clear_outputs=clear_outputs)
    return LabServer.start(root / "notebooks", tmp_path_factory.mktemp("jupyter-home"),
                           extra_args=["--LabApp.expose_app_in_browser=True"])


# ---------------------------------------------------------------- the course as `make lab` serves it

# Variables of this shell that would make a learner's kernel answer otherwise than on a fresh clone: the
# answer key checked instead of the learner's package, a forced language, a verdict cache kept elsewhere.
COURSE_ENV_OVERRIDES = ("BUILDTRACK_ANSWERS", "BUILDTRACK_LANG", "BUILDTRACK_CACHE_DIR")


def lab_hidden_globs(makefile: Path = ROOT / "Makefile"):
    """The names `make lab` hides from JupyterLab's file browser: the Makefile's ``LAB_HIDDEN``, each passed
    as ``--ContentsManager.hide_globs``."""
    match = re.search(r"^LAB_HIDDEN\s*:=(.*)$", makefile.read_text(), re.M)
    if match is None:
        raise AssertionError(f"{makefile} defines no LAB_HIDDEN (the globs `make lab` hides)")
    return match.group(1).split()


def serve_like_make_lab(tmp_path: Path, *, clear_outputs=False):
    """A JupyterLab server on a fresh clone's ``notebooks/`` (with ``answers/`` beside it, where the build
    track finds its answer key), as `make lab` starts it: notebooks/ as the root, the hide_globs of
    ``LAB_HIDDEN``, the settings overrides (``LabServer.start``); the app exposed in the page to read it
    back. The shell's BUILDTRACK_* variables are left out of the server's (and its kernels') environment."""
    root = tmp_path / "fresh-clone"
    copy_notebooks(NOTEBOOK_DIR, root / "notebooks", clear_outputs=clear_outputs)
    shutil.rmtree(root / "notebooks" / ".buildtrack_cache", ignore_errors=True)   # this checkout's verdicts
    shutil.copytree(ROOT / "answers", root / "answers",
                    ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"))
    extra = ["--LabApp.expose_app_in_browser=True",
             *(f"--ContentsManager.hide_globs={glob}" for glob in lab_hidden_globs())]
    # The venv may hold the classroom extra (nbgrader); a learner's install (the course extra) has no
    # Nbgrader menu or panel, so neither has this JupyterLab (page_config.json of its own config folder).
    labconfig = tmp_path / "jupyter-home" / "config" / "labconfig"
    labconfig.mkdir(parents=True, exist_ok=True)
    (labconfig / "page_config.json").write_text(
        json.dumps({"disabledExtensions": {"@jupyter/nbgrader": True}}))
    saved = {name: os.environ.get(name) for name in (*COURSE_ENV_OVERRIDES, "PYTHONPATH")}
    for name in COURSE_ENV_OVERRIDES:
        os.environ.pop(name, None)
    # The venv's editable install maps buildtrack, coursetools and exercises to this checkout's notebooks/.
    # A chapter's kernel finds the copy's own in its working directory, except in the Chinese edition's
    # (notebooks/zh/ holds none of them): there it would check this checkout's zh/myautograd. A clone's
    # editable install maps them to its own notebooks/; PYTHONPATH does it for the copy.
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(root / "notebooks"), saved["PYTHONPATH"]]))
    try:
        return LabServer.start(root / "notebooks", tmp_path / "jupyter-home", extra_args=extra)
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def screenshot_region(page, locators, path: Path, margin=8, max_height=16_000):
    """One picture of the area the locators cover (cells of a notebook, say), the first one scrolled to the
    top; the window is made tall enough to hold it all."""
    first = locators[0]
    first.evaluate("e => e.scrollIntoView({block: 'start'})")
    page.wait_for_timeout(200)
    boxes = [locator.bounding_box() for locator in locators]
    boxes = [box for box in boxes if box]
    top = min(b["y"] for b in boxes)
    bottom = max(b["y"] + b["height"] for b in boxes)
    grown = bottom + margin > page.viewport_size["height"]
    if grown:
        page.set_viewport_size({"width": VIEWPORT["width"],
                                "height": min(int(bottom - top) + 400, max_height)})
        first.evaluate("e => e.scrollIntoView({block: 'start'})")
        page.wait_for_timeout(300)
        boxes = [b for b in (locator.bounding_box() for locator in locators) if b]
        top = min(b["y"] for b in boxes)
        bottom = max(b["y"] + b["height"] for b in boxes)
    left = min(b["x"] for b in boxes)
    right = max(b["x"] + b["width"] for b in boxes)
    try:
        page.screenshot(path=str(path), clip={"x": max(left - margin, 0), "y": max(top - margin, 0),
                                              "width": right - left + 2 * margin,
                                              "height": bottom - top + 2 * margin})
    finally:
        if grown:
            page.set_viewport_size(VIEWPORT)
