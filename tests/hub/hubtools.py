"""Helpers of the hub test: JupyterHub on localhost (deploy/jupyterhub/jupyterhub_config.py), and a student.

- ``find_proxy``: npm's ``configurable-http-proxy`` (``make hub-proxy`` puts it in ``.ci/.tools/hub``).
- ``HubServer``: starts ``jupyterhub`` with a small config of the test's own that loads the deployment's
  config and changes only what a test on one machine must: users who are not system users
  (``SimpleLocalProcessSpawner``, homes in a temporary folder), free ports on 127.0.0.1, ``--allow-root``
  when run as root, JupyterLab's app exposed to the page. It stops the hub with SIGTERM, which stops the
  students' servers and the proxy (JupyterHub's cleanup), and kills its process group only if that fails.
- ``Student``: one browser context (cookies of its own) that follows the nbgitpuller link, logs in, and
  runs a cell of the chapter it lands on.
"""
from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "browser"))
import labtools  # noqa: E402

DEPLOY_CONFIG = ROOT / "deploy" / "jupyterhub" / "jupyterhub_config.py"
ARTIFACTS = ROOT / "test-artifacts" / "hub"
VENV_BIN = Path(sys.executable).parent
PROXY_NAME = "configurable-http-proxy"

TEST_CONFIG = """\
# The hub test's config: the deployment's, with what a test on one machine changes (tests/hub/hubtools.py).
c = get_config()  # noqa: F821
load_subconfig({deploy!r})  # noqa: F821
c.JupyterHub.spawner_class = "simple"           # users who are not users of the machine, homes below
c.SimpleLocalProcessSpawner.home_dir_template = {homes!r} + "/{{username}}"
c.JupyterHub.bind_url = "http://127.0.0.1:{port}"
c.JupyterHub.hub_bind_url = "http://127.0.0.1:{hub_port}"
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{proxy_port}"
c.ConfigurableHTTPProxy.command = [{proxy!r}]
c.Spawner.args = list(c.Spawner.args) + {extra_args!r}
c.Spawner.http_timeout = 20                      # a server that cannot start fails fast
c.Spawner.start_timeout = 60
"""


def load_tool(name):
    """A module of tools/ (tools/collect.py: ``load_tool("collect")``)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(f"tool_{name}", ROOT / "tools" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def find_proxy():
    """npm's configurable-http-proxy: ``.ci/.tools/hub`` (make hub-proxy), else on the PATH."""
    local = ROOT / ".ci" / ".tools" / "hub" / "node_modules" / ".bin" / PROXY_NAME
    if local.exists():
        return str(local)
    return shutil.which(PROXY_NAME)


def missing():
    """Why the hub test cannot run here, or None."""
    for module, package in (("jupyterhub", "jupyterhub"), ("nbgitpuller", "nbgitpuller"),
                            ("playwright.sync_api", "playwright")):
        try:
            __import__(module)
        except ImportError:
            return f"the {package} Python package is not installed (pip install -e '.[test,hub]')"
    if not (VENV_BIN / "jupyterhub").exists():
        return f"no jupyterhub program beside {sys.executable}"
    if find_proxy() is None:
        return f"npm's {PROXY_NAME} was not found (make hub-proxy installs it into .ci/.tools/hub)"
    if labtools.find_chromium() is None:
        return "no chromium browser found (sudo apt-get install chromium; never `playwright install`)"
    if shutil.which("git") is None:
        return "git is not installed"
    return None


def get(url, timeout=5, token=None):
    request = urllib.request.Request(url, headers={"Authorization": f"token {token}"} if token else {})
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return response.status, response.read()


class HubServer:
    def __init__(self, workdir: Path, env: dict, *, extra_args=()):
        self.workdir = workdir
        self.homes = workdir / "homes"
        self.homes.mkdir(parents=True, exist_ok=True)
        state = workdir / "state"
        state.mkdir(exist_ok=True)
        self.port = labtools.free_port()
        ports = {labtools.free_port() for _ in range(4)} - {self.port}
        hub_port, proxy_port = sorted(ports)[:2]
        args = list(extra_args) + (["--allow-root"] if os.geteuid() == 0 else [])
        self.config = workdir / "hub_config.py"
        self.config.write_text(TEST_CONFIG.format(
            deploy=str(DEPLOY_CONFIG), homes=str(self.homes), port=self.port, hub_port=hub_port,
            proxy_port=proxy_port, proxy=find_proxy(), extra_args=args))
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = state / "jupyterhub.log"
        self.env = dict(env, COURSE_HUB_STATE=str(state))
        self.proc = None

    def start(self, timeout=60):
        # The hub's environment: the venv's programs first (jupyterhub-singleuser, and node for the proxy).
        env = dict(self.env, PATH=f"{VENV_BIN}{os.pathsep}{self.env.get('PATH', os.defpath)}")
        with open(self.log_path, "w") as log:
            self.proc = subprocess.Popen([str(VENV_BIN / "jupyterhub"), "-f", str(self.config)],
                                         cwd=self.workdir / "state", env=env, stdout=log,
                                         stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                         start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"jupyterhub exited with {self.proc.returncode}:\n{self.log_tail()}")
            try:
                if get(self.url + "/hub/health", timeout=2)[0] == 200:
                    return self
            except (OSError, urllib.error.URLError):
                pass
            time.sleep(0.3)
        raise RuntimeError(f"jupyterhub did not answer on {self.url} within {timeout} s:\n{self.log_tail()}")

    def log_tail(self, chars=4000):
        return self.log_path.read_text(errors="replace")[-chars:] if self.log_path.exists() else ""

    def stop(self, timeout=30):
        """SIGTERM: JupyterHub stops the students' servers and the proxy, then exits."""
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()

    def memory_mb(self):
        """{user: MB}: the resident memory of each student's server and its kernels (from /proc, Linux)."""
        children, rss, user = {}, {}, {}
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                status = (entry / "status").read_text()
                environ = (entry / "environ").read_bytes().split(b"\0")
            except OSError:
                continue
            fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
            pid, ppid = int(entry.name), int(fields["PPid"])
            children.setdefault(ppid, []).append(pid)
            rss[pid] = int(fields.get("VmRSS", "0 kB").split()[0]) / 1024
            for item in environ:
                if item.startswith(b"JUPYTERHUB_USER="):
                    user[pid] = item.split(b"=", 1)[1].decode()

        def tree(pid):
            return rss.get(pid, 0) + sum(tree(child) for child in children.get(pid, []))
        return {user[pid]: round(tree(pid)) for pid in children.get(self.proc.pid, []) if pid in user}

    def servers_running(self, token):
        """{user: ready} for every user's default server, through the hub's API."""
        import json
        _status, body = get(self.url + "/hub/api/users", token=token)
        return {u["name"]: bool((u.get("servers") or {}).get("", {}).get("ready")) for u in json.loads(body)}


# ---------------------------------------------------------------- a student in the browser

# The cell whose source holds `needle`: its index in the open notebook.
FIND_CELL_JS = """
needle => window.jupyterapp.shell.currentWidget.content.widgets
  .findIndex(cell => cell.model.sharedModel.getSource().includes(needle))
"""
# What a code cell shows: its execution count and the text of its outputs.
CELL_JS = """
index => {
  const cell = window.jupyterapp.shell.currentWidget.content.widgets[index];
  return {count: cell.model.executionCount,
          text: Array.from(cell.node.querySelectorAll('.jp-OutputArea-output'))
                  .map(e => e.textContent).join('\\n')};
}
"""
SAVE_JS = """
async ([path, content]) => {
  await window.jupyterapp.serviceManager.contents.save(path, {type: 'file', format: 'text', content});
  const saved = await window.jupyterapp.serviceManager.contents.get(
    path, {type: 'file', format: 'text', content: true});
  return saved.content;
}
"""

SETTING_JS = """
async ([plugin, key]) => {
  const settings = await window.jupyterapp.serviceManager.settings.fetch(plugin);
  return settings.schema.properties[key].default;
}
"""


class Student:
    def __init__(self, browser, hub: HubServer, name: str, password: str):
        self.hub, self.name, self.password = hub, name, password
        self.context = browser.new_context(viewport=labtools.VIEWPORT, device_scale_factor=1)
        self.page = self.context.new_page()

    def close(self):
        self.context.close()

    def follow(self, link, timeout=120):
        """Click the course link: log in if asked, wait for the server and the pull, until JupyterLab shows
        the notebook the link opens."""
        self.page.goto(link)
        self.page.wait_for_selector("#username_input, .jp-NotebookPanel", timeout=timeout * 1000)
        if self.page.locator("#username_input").count():
            self.page.fill("#username_input", self.name)
            self.page.fill("#password_input", self.password)
            self.page.click("#login_submit")
        self.page.wait_for_selector(".jp-NotebookPanel .jp-Notebook .jp-Cell", timeout=timeout * 1000)
        self.page.wait_for_function("() => window.jupyterapp && window.jupyterapp.shell.currentWidget"
                                    " && window.jupyterapp.shell.currentWidget.context"
                                    " && window.jupyterapp.shell.currentWidget.context.isReady",
                                    timeout=timeout * 1000)
        return self.page.url

    def open(self, path, timeout=90):
        """Open another notebook of the student's server (a path below their home)."""
        self.page.goto(f"{self.hub.url}/user/{self.name}/lab/tree/{path}")
        self.page.wait_for_selector(".jp-NotebookPanel .jp-Notebook .jp-Cell", timeout=timeout * 1000)
        self.page.wait_for_function("p => window.jupyterapp && window.jupyterapp.shell.currentWidget"
                                    " && window.jupyterapp.shell.currentWidget.context"
                                    " && window.jupyterapp.shell.currentWidget.context.isReady"
                                    " && window.jupyterapp.shell.currentWidget.context.path === p",
                                    arg=path, timeout=timeout * 1000)

    def save(self, path, content):
        """Save a file through JupyterLab's contents service, as its editor does."""
        return self.page.evaluate(SAVE_JS, [path, content])

    def run_cell(self, needle, timeout=120):
        """Run the cell holding ``needle`` the way a learner does (click into it, Shift+Enter); returns its
        output text once it ran in this kernel (execution count 1: the first cell run there)."""
        index = self.page.evaluate(FIND_CELL_JS, needle)
        assert index >= 0, f"{self.name}: no cell holds {needle!r}"
        cell = self.cells().nth(index)
        cell.scroll_into_view_if_needed(timeout=10_000)
        # Wait for the kernel (its status in the notebook's toolbar) before running.
        self.page.wait_for_function(
            "() => { const p = window.jupyterapp.shell.currentWidget;"
            " const k = p.sessionContext.session && p.sessionContext.session.kernel;"
            " return k && k.status === 'idle'; }", timeout=timeout * 1000)
        cell.locator(".jp-InputArea-editor").click()
        self.page.keyboard.press("Shift+Enter")
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            shown = self.page.evaluate(CELL_JS, index)
            if shown["count"] == 1 and shown["text"].strip():
                idle = self.page.evaluate("() => window.jupyterapp.shell.currentWidget.sessionContext"
                                          ".session.kernel.status === 'idle'")
                if idle:
                    self.page.wait_for_timeout(300)
                    return index, self.page.evaluate(CELL_JS, index)["text"]
            time.sleep(0.3)
        raise AssertionError(f"{self.name}: the cell {needle!r} did not run within {timeout} s")

    def toasts(self):
        """The notifications on the page (the settings of lab-settings/ turn off news and update checks)."""
        return self.page.evaluate("() => Array.from(document.querySelectorAll('.Toastify__toast'))"
                                  ".map(e => e.innerText.trim())")

    def lab_setting(self, plugin, key):
        """A JupyterLab setting's default as the student's server gives it (overrides.json applied)."""
        return self.page.evaluate(SETTING_JS, [plugin, key])

    def cells(self):
        """The cells of the notebook in view (a notebook opened before stays in the page, hidden)."""
        return self.page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook .jp-Cell")

    def screenshot_cell(self, index, path: Path):
        cell = self.cells().nth(index)
        cell.scroll_into_view_if_needed(timeout=10_000)
        cell.screenshot(path=str(path), timeout=20_000)


def verdict_line(text, step):
    """The line of a check's output that gives ``step``'s verdict (English or Chinese)."""
    for line in text.splitlines():
        if re.search(rf"(Step|步骤) {re.escape(step)}\b", line):
            return line.strip()
    return text.strip().splitlines()[0] if text.strip() else ""
