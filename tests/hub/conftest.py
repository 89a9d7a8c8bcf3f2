"""The hub test (test_hub.py) runs only when asked: ``make hub-test`` sets HUB_TEST=1.

It needs JupyterHub, nbgitpuller, npm's configurable-http-proxy and Chromium, which `make test` does not
install, and starts a hub with two students' servers: so the default `make test` run does not collect it.
The release and collect tools' own tests (test_release_tools.py) run in every `make test`.
"""
import os

collect_ignore_glob = [] if os.environ.get("HUB_TEST") == "1" else ["test_hub.py"]
