"""The build track runs the course's own cross-check programs on the learner's package (corpus.py).

The programs are those of the tests that hold mini_autograd to PyTorch, each tagged with the step from which a
learner who did every step right runs it as mini_autograd does (``tools/buildtrack_corpus.py``).
"""
import importlib.util
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "notebooks"))
sys.path.insert(0, str(ROOT / "tools"))

import mini_autograd  # noqa: E402
from buildtrack import STEPS, corpus  # noqa: E402
from buildtrack.package import ANSWER_KEY, Wrong, load  # noqa: E402
from buildtrack_mistakes import plant  # noqa: E402

DETACH_OWN_COUNTER = ("tensor.py", "        detached._version_counter = self._version_counter\n", "")


def test_the_corpus_holds_programs_for_the_steps_that_build_the_api():
    by_step = corpus.programs()
    assert sum(map(len, by_step.values())) >= 100
    assert set(by_step) <= set(STEPS)
    for step_id in ("01.1", "03.3", "04.1", "05.1", "06.1", "06.2", "07.1", "07.2", "10.3"):
        assert by_step.get(step_id), step_id


def test_each_program_is_run_right_from_its_step_on_and_not_before(tmp_path):
    """The tags are current: a learner who did every step up to a program's tag right runs it as
    mini_autograd does, at that step and every later one; one step earlier, the package does not (so the
    program checks something of the step). After a change to the answer key or mini_autograd, run
    tools/buildtrack_corpus.py."""
    from buildtrack_corpus import package_at

    steps = sorted(STEPS)
    entries = json.loads(corpus.CORPUS_FILE.read_text())["programs"]
    packages = {}
    for step_id in ["00.0"] + steps:
        packages[step_id] = package_at(step_id, tmp_path / step_id)
    for step_id in ["00.0"] + steps:
        package = load(packages[step_id])
        for entry in entries:
            agrees = corpus.agree(corpus.outcome(entry["code"], package),
                                  corpus.outcome(entry["code"], mini_autograd))
            if step_id >= entry["step"]:
                assert agrees, f"{entry['test']} (tagged {entry['step']}) differs at step {step_id}"
            elif step_id == max(["00.0"] + [s for s in steps if s < entry["step"]]):
                assert not agrees, f"{entry['test']} (tagged {entry['step']}) already agrees at {step_id}"


@pytest.mark.skipif(importlib.util.find_spec("torch") is None,
                    reason="the corpus is collected against PyTorch")
def test_the_corpus_file_holds_every_program_of_the_cross_check_tests():
    """A program added to a cross-check test reaches the learner once tools/buildtrack_corpus.py has run."""
    run = subprocess.run([sys.executable, str(ROOT / "tools" / "buildtrack_corpus.py"), "--check"],
                         capture_output=True, text=True, cwd=ROOT, timeout=1200,
                         env=dict(os.environ, PYTEST_ADDOPTS=""))
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]


@pytest.fixture
def planted(tmp_path):
    directory = tmp_path / "myautograd"
    shutil.copytree(ANSWER_KEY, directory)
    plant(directory, *DETACH_OWN_COUNTER)
    return directory


def _corpus_verdict(directory, step_id):
    package = load(directory)
    with pytest.raises(Wrong) as caught:
        corpus.check_step(package, STEPS[step_id])
    return package, caught.value


def test_a_program_that_differs_is_shown_small_and_runnable_with_the_piece_at_fault(planted, monkeypatch):
    """A detach() with a version counter of its own: a cross-check program of step 07.1 shows it."""
    monkeypatch.setenv("BUILDTRACK_LANG", "en")
    package, error = _corpus_verdict(planted, "07.1")
    text = str(error)
    assert "error_version_counter_via_detach" in text
    assert "The piece at fault: Tensor.detach (step 06.2)" in text
    assert error.culprit == ("Tensor.detach", "06.2") and error.differential
    assert "the error: yours none; mini_autograd RuntimeError: one of the variables needed" in text
    # The program as shown: it runs on the planted package, and raises nothing there.
    shown = "\n".join(re.findall(r"^ +\d+  (.*)$", text, re.M))
    assert shown.startswith("import myautograd as torch")
    sys.path.insert(0, str(planted.parent))
    try:
        exec(compile(shown, "<shown>", "exec"), {"__name__": "__shown__"})   # raises nothing: the mistake
    finally:
        sys.path.remove(str(planted.parent))
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        exec(compile(shown.replace("import myautograd as torch", "import mini_autograd as torch"),
                     "<shown>", "exec"), {"__name__": "__shown__"})


def test_the_program_is_made_smaller_while_it_still_differs():
    wrong_print = {"stdout": "1\n", "warnings": [], "error": None, "records": []}

    class Package:          # stands for a package whose results differ from mini_autograd's in one print
        pass
    code = "a = 1\nb = 2\nprint(b)\nc = 3"
    real_outcome = corpus.outcome
    try:
        corpus.outcome = lambda program, module: (
            wrong_print if module is Package else real_outcome(program, module))
        assert corpus.smallest(code, Package) == "b = 2\nprint(b)"
    finally:
        corpus.outcome = real_outcome


def test_the_message_is_in_chinese_in_the_chinese_edition(planted, monkeypatch):
    monkeypatch.setenv("BUILDTRACK_LANG", "zh")
    _, error = _corpus_verdict(planted, "07.1")
    text = str(error)
    assert "出错的部件：Tensor.detach（步骤 06.2）" in text, text
    assert "a program from the course's own tests" not in text and "The piece at fault" not in text


def test_recorded_values_compare_within_float32_rounding_and_with_the_sign_of_zero():
    one = {"stdout": "", "warnings": [], "error": None, "records": [("g", ("tensor", "torch.float32", (2,),
                                                                          [1.0, 0.0]))]}
    close = {**one, "records": [("g", ("tensor", "torch.float32", (2,), [1.0000001, 0.0]))]}
    negative_zero = {**one, "records": [("g", ("tensor", "torch.float32", (2,), [1.0, -0.0]))]}
    other_dtype = {**one, "records": [("g", ("tensor", "torch.float64", (2,), [1.0, 0.0]))]}
    assert corpus.agree(close, one)
    assert not corpus.agree(negative_zero, one)
    assert not corpus.agree(other_dtype, one)
