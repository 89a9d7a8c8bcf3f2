"""Commit subjects read in a list: tools/commit_msg.py's rule, held over every commit since the hook came."""
import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import commit_msg  # noqa: E402

HOOK = ".githooks/commit-msg"


def _git(*args):
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True).stdout


@pytest.mark.parametrize("message, words", [
    ("Make verdicts faster\n\nThe details.", None),
    ("Build track: make verdicts faster", None),
    ("Added a check", "imperative"),
    ("Build track: adding a check", "imperative"),
    ("x" * 73, "73 characters"),
    ("Add a check.", "full stop"),
    ("Add a check\nthe detail at once", "blank line"),
    ("", "empty"),
    ("Seed the generator", None),
])
def test_the_rule(message, words):
    found = commit_msg.problems(message)
    if words is None:
        assert found == []
    else:
        assert any(words in problem for problem in found), found


def test_the_hook_refuses_a_long_subject(tmp_path):
    message = tmp_path / "MSG"
    message.write_text("A subject far longer than seventy-two characters, with the whole story in it\n")
    result = subprocess.run([sys.executable, str(ROOT / "tools" / "commit_msg.py"), str(message)],
                            capture_output=True, text=True)
    assert result.returncode == 1 and "at most 72" in result.stderr


def test_every_commit_since_the_hook_follows_the_rule():
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    added = _git("log", "--diff-filter=A", "--format=%H", "--", HOOK).split()
    if not added:
        pytest.skip("the hook is not committed yet")
    first = added[-1]
    shas = _git("rev-list", f"{first}..HEAD").split() + [first]
    wrong = {}
    for sha in shas:
        found = commit_msg.problems(_git("log", "-1", "--format=%B", sha))
        if found:
            wrong[sha[:7]] = found
    assert not wrong, wrong
