"""The grader's verdicts in the formats of the tools a class already uses: ``python -m buildtrack export``.

The verdicts are ``grading.py``'s, made the same way (the submission's ``myautograd/*.py`` files only, in a
process of its own, with limits, against programs drawn from a fresh seed); only their form changes:

- **Gradescope**: ``export gradescope OUT`` turns a graded ``OUT`` (``python -m buildtrack grade``) into one
  ``STUDENT.results.json`` per student in Gradescope's autograder format: one test per step, 1 point each,
  its output the step's message in the class's language. ``deploy/gradescope/`` grades one submission per
  container with it.
- **GitHub Classroom**: ``export github-classroom OUT --student S`` prints the ``result=`` line that
  ``classroom-resources/autograding-grading-reporter`` reads (one test per step, with its points).
  ``deploy/github-classroom/`` holds the workflow.
- **nbgrader**: ``export nbgrader COURSE`` writes a course directory (``nbgrader_config.py``,
  ``source/ps1/``: a notebook whose autograded cells assert each step's verdict, and the stubs).
- **otter-grader**: ``export otter FOLDER`` writes the master notebook of an otter assignment (one question
  per step, OK-format tests) and the stubs beside it, for ``otter assign``; ``otter run`` then writes a
  ``results.json`` in Gradescope's format too.

In a notebook (nbgrader's, otter's), ``verdicts_of(".")`` grades the ``myautograd/`` beside the notebook as
``grade`` does, and ``passed`` / ``done`` turn one step's verdict into the bool a test asserts.
"""
import argparse
import base64
import contextlib
import csv
import hashlib
import json
import os
import pathlib
import random
import sys
import tempfile

from . import grading, stubs
from .i18n import _, language
from .package import ANSWER_KEY, PACKAGE_NAME
from .steps import STEPS
from .verdicts import Verdict

ASSIGNMENT = "ps1"                   # nbgrader's assignment
NOTEBOOK = "build_track.ipynb"       # the notebook of the nbgrader and otter assignments


@contextlib.contextmanager
def speaking(lang):
    """Messages in ``lang`` (``"en"``, ``"zh"``; None: as they are) while the block runs."""
    if not lang:
        yield
        return
    before = os.environ.get("BUILDTRACK_LANG")
    os.environ["BUILDTRACK_LANG"] = lang
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("BUILDTRACK_LANG", None)
        else:
            os.environ["BUILDTRACK_LANG"] = before


def _title(step_id):
    return f"{step_id} {_(STEPS[step_id].title)}"


# ------------------------------------------------------------------ a graded OUT, read back
def read_graded(out):
    """``(language, [(student, {step: Verdict}, reasons, seconds)])`` from the files ``grade`` wrote."""
    out = pathlib.Path(out)
    lang = json.loads((out / "grading.json").read_text()).get("language", "en")
    with open(out / "grades.csv", newline="") as table:
        students = [row["student"] for row in csv.DictReader(table)]
    results = []
    for student in students:
        found = json.loads((out / f"{student}.json").read_text())
        verdicts = {step_id: Verdict(step["status"], step["message"])
                    for step_id, step in found["steps"].items()}
        results.append((student, verdicts, found.get("set_to_zero", {}), found.get("seconds", 0)))
    return lang, results


def _one(out, student):
    lang, results = read_graded(out)
    for result in results:
        if result[0] == student:
            return lang, result
    raise SystemExit(f"no student {student!r} in {out}")


# ------------------------------------------------------------------ Gradescope
def gradescope(verdicts, seconds=None):
    """Gradescope's ``results.json`` for one student: a test per step (1 point), its output the step's
    message; the top-level ``score`` is the steps done."""
    tests = []
    for step_id in STEPS:
        result = verdicts[step_id]
        done = result.status == "done"
        tests.append({"name": _title(step_id), "number": step_id, "score": int(done), "max_score": 1,
                      "status": "passed" if done else "failed",
                      "output": f"{result.mark} {result.message}", "output_format": "text",
                      "visibility": "visible"})
    done = sum(test["score"] for test in tests)
    results = {"score": done,
               "output": _("{done} of {total} steps done.").format(done=done, total=len(tests)),
               "output_format": "text", "stdout_visibility": "hidden", "tests": tests}
    if seconds is not None:
        results["execution_time"] = round(seconds)
    return results


def write_gradescope(out, student=None, to=None):
    """Write ``OUT/STUDENT.results.json`` for every student of a graded ``out`` (or ``student``'s alone, to
    ``to`` if given). Returns the paths written."""
    lang, results = read_graded(out)
    written = []
    with speaking(lang):
        for name, verdicts, _reasons, seconds in results:
            if student is not None and name != student:
                continue
            path = pathlib.Path(to) if to else pathlib.Path(out) / f"{name}.results.json"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(gradescope(verdicts, seconds), indent=1, ensure_ascii=False) + "\n")
            written.append(path)
    if student is not None and not written:
        raise SystemExit(f"no student {student!r} in {out}")
    return written


# ------------------------------------------------------------------ GitHub Classroom
def github_classroom(verdicts):
    """The results that ``classroom-resources/autograding-grading-reporter`` reads from a runner: a test
    per step, with its score."""
    tests = []
    for step_id in STEPS:
        result = verdicts[step_id]
        done = result.status == "done"
        tests.append({"name": _title(step_id), "status": "pass" if done else "fail", "score": int(done),
                      "message": "" if done else result.message, "test_code": f"step {step_id}",
                      "filename": "", "line_no": 0, "execution_time": ""})
    return {"version": 1, "status": "pass" if all(t["status"] == "pass" for t in tests) else "fail",
            "max_score": len(tests), "tests": tests}


def github_classroom_output(out, student):
    """``result=BASE64``: the line a workflow step appends to ``$GITHUB_OUTPUT``."""
    lang, (_student, verdicts, _reasons, _seconds) = _one(out, student)
    with speaking(lang):
        payload = json.dumps(github_classroom(verdicts), ensure_ascii=False).encode()
    return "result=" + base64.b64encode(payload).decode()


# ------------------------------------------------------------------ in a notebook: one submission's verdicts
class Verdicts(dict):
    """``{step: Verdict}`` of one submission, with the language its messages are in."""
    lang = None


_graded = {}


def _files_hash(folder):
    digest = hashlib.sha256()
    for path in sorted(pathlib.Path(folder).rglob("*.py")):
        if ".ipynb_checkpoints" not in path.parts:
            digest.update(str(path.relative_to(folder)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def verdicts_of(folder=".", lang=None, seed=None, cpu_seconds=600, memory_mb=3000):
    """``{step: Verdict}`` for the ``myautograd/`` in ``folder``, made as ``python -m buildtrack grade``
    makes them (the package's ``*.py`` files only, read first, then checked in a process of its own), with
    the random programs drawn from ``seed`` (default: ``BUILDTRACK_SEED``, else a new one). Writes no file
    outside a temporary folder. The same files graded again in this process give the same verdicts."""
    folder = pathlib.Path(folder).resolve()
    if seed is None:
        seed = int(os.environ["BUILDTRACK_SEED"]) if os.environ.get("BUILDTRACK_SEED") else None
    key = (str(folder), _files_hash(folder), lang, seed)
    if key not in _graded:
        drawn = random.randrange(2**31) if seed is None else seed
        with speaking(lang), tempfile.TemporaryDirectory() as workspace:
            _student, found, _reasons, _seconds = grading.grade_one(
                "submission", folder, workspace, drawn, cpu_seconds, memory_mb)
        _graded[key] = Verdicts(found)
        _graded[key].lang = lang or language()
    return _graded[key]


def passed(verdicts, step_id):
    """Print one step's verdict (✅, ⏳ or ❌ and its message) and return whether it is done: what an
    nbgrader cell asserts."""
    result = verdicts[step_id]
    with speaking(getattr(verdicts, "lang", None)):
        print(_("{mark} Step {step} ({title}): {message}").format(
            mark=result.mark, step=step_id, title=_(STEPS[step_id].title), message=result.message))
    return result.status == "done"


def done(step_id, lang=None, folder="."):
    """True when the step is done; otherwise print its verdict and return False: what an otter test
    compares (it expects ``True`` alone, so a step not done shows its message in the test's output)."""
    verdicts = verdicts_of(folder, lang)
    if verdicts[step_id].status == "done":
        return True
    passed(verdicts, step_id)
    return False


# ------------------------------------------------------------------ notebooks
def _source(text):
    lines = text.split("\n")
    return [line + "\n" for line in lines[:-1]] + [lines[-1]]


def _cell(kind, text, **extra):
    cell = {"cell_type": kind, "metadata": extra.pop("metadata", {}), "source": _source(text)}
    if kind == "code":
        cell.update(execution_count=extra.pop("execution_count", None), outputs=extra.pop("outputs", []))
    return cell


def _notebook(cells, lang):
    for number, cell in enumerate(cells):
        cell["id"] = f"cell-{number:02d}"
    return {"cells": cells, "metadata": {
        "kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"},
        "language_info": {"name": "python"}, "buildtrack": {"language": lang}},
        "nbformat": 4, "nbformat_minor": 5}


def _introduction():
    return _("# The build track, graded\n\n"
             "Your work for this assignment is the package `myautograd/` beside this notebook: write its "
             "pieces as the course's build track asks, step by step. Leave this notebook as it is: it only "
             "checks your package. Run all its cells to see where you stand. Each step's cell checks it as "
             "your teacher's grader will: your `myautograd/*.py` files alone, in a process of their own, on "
             "random programs drawn afresh. A ✅ is a point; a ⏳ or a ❌ says what is missing or wrong.")


def _cell_id(step_id):
    return "step_" + step_id.replace(".", "_")


def nbgrader_notebook(lang):
    """The nbgrader assignment's notebook: a locked cell that grades the package, then one autograded
    test cell (1 point) per step that asserts ``passed``."""
    def meta(grade_id, grade, points=None):
        found = {"grade": grade, "grade_id": grade_id, "locked": True, "schema_version": 3,
                 "solution": False, "task": False}
        if points is not None:
            found["points"] = points
        return {"nbgrader": found}

    with speaking(lang):
        cells = [_cell("markdown", _introduction(), metadata=meta("introduction", False)),
                 _cell("code", "from buildtrack import exports\n\n"
                               f'verdicts = exports.verdicts_of(".", lang="{lang}")',
                       metadata=meta("grade_the_package", False))]
        for step_id in STEPS:
            cells.append(_cell("code", f"# {_title(step_id)}\n"
                                       f'assert exports.passed(verdicts, "{step_id}")',
                               metadata=meta(_cell_id(step_id), True, 1)))
    return _notebook(cells, lang)


def nbgrader_config(assignment=ASSIGNMENT):
    """``nbgrader_config.py`` of the course: the package's files are the student's (never overwritten by
    the source's stubs at autograding), and a cell may take as long as grading a package does."""
    files = sorted(f"{PACKAGE_NAME}/{path.name}" for path in ANSWER_KEY.glob("*.py"))
    listed = "".join(f'    "{file}",\n' for file in files)
    return (f'"""nbgrader\'s configuration for the build track (written by `python -m buildtrack export '
            f'nbgrader`)."""\n'
            f"c = get_config()  # noqa: F821  (nbgrader defines it)\n\n"
            f'c.CourseDirectory.course_id = "mini_autograd"\n'
            f"# Grading a package takes seconds, a minute on a busy machine: nbgrader's default is 30 s.\n"
            f"c.Execute.timeout = 900\n"
            f"# The student's package is the work: autograde keeps their files, not the source's stubs.\n"
            f'c.Autograde.exclude_overwriting = {{"{assignment}": [\n{listed}]}}\n')


def write_stubs(folder):
    """The learner's package as shipped (stubs made from the answer key, in the class's language) into
    ``folder``/myautograd."""
    package = pathlib.Path(folder) / PACKAGE_NAME
    package.mkdir(parents=True, exist_ok=True)
    for path in sorted(ANSWER_KEY.glob("*.py")):
        (package / path.name).write_text(stubs.make_stub(path.read_text(), lang=language()))
    return package


def _write_notebook(path, notebook):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n")


def write_nbgrader(course, lang="en", assignment=ASSIGNMENT):
    """An nbgrader course directory: ``nbgrader_config.py`` and ``source/ASSIGNMENT/`` (the notebook and
    the stubs)."""
    course = pathlib.Path(course)
    course.mkdir(parents=True, exist_ok=True)
    (course / "nbgrader_config.py").write_text(nbgrader_config(assignment))
    _write_notebook(course / "source" / assignment / NOTEBOOK, nbgrader_notebook(lang))
    write_stubs(course / "source" / assignment)
    return course


def otter_master(lang):
    """The master notebook of an otter assignment: one question per step (1 point), whose OK-format test
    expects ``done(step)`` to print nothing and return True. Its outputs are stored, as ``otter assign``
    reads them (the answer key's)."""
    files = "".join(f"      - {PACKAGE_NAME}/{path.name}\n" for path in sorted(ANSWER_KEY.glob("*.py")))
    config = ("# ASSIGNMENT CONFIG\n"
              "name: build_track\n"
              "files:\n"
              f"  - {PACKAGE_NAME}\n"
              "run_tests: false\n"
              "init_cell: true\n"
              "check_all_cell: false\n"
              "export_cell:\n"
              "  pdf: false\n"
              "  run_tests: false\n"
              "  files:\n"
              f"{files}"
              "generate:\n"
              "  pdf: false")
    with speaking(lang):
        cells = [_cell("raw", config), _cell("markdown", _introduction())]
        for step_id, step in STEPS.items():
            cells += [_cell("raw", f"# BEGIN QUESTION\nname: {_cell_id(step_id)}\npoints: 1"),
                      _cell("markdown", f"**{_title(step_id)}**: {_(step.pieces)}"),
                      _cell("raw", "# BEGIN TESTS"),
                      _cell("code", "from buildtrack import exports\n"
                                    f'exports.done("{step_id}", lang="{lang}")',
                            outputs=[{"output_type": "execute_result", "execution_count": None,
                                      "metadata": {}, "data": {"text/plain": ["True"]}}]),
                      _cell("raw", "# END TESTS"),
                      _cell("raw", "# END QUESTION")]
    return _notebook(cells, lang)


def write_otter(folder, lang="en"):
    """The otter assignment's master notebook and the stubs beside it: ``otter assign`` takes it from
    there."""
    folder = pathlib.Path(folder)
    _write_notebook(folder / NOTEBOOK, otter_master(lang))
    write_stubs(folder)
    return folder


# ------------------------------------------------------------------ python -m buildtrack export
def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m buildtrack export", description=_(
        "The grader's verdicts in the formats of Gradescope, GitHub Classroom, nbgrader and otter-grader."))
    tools = parser.add_subparsers(dest="tool", required=True)
    tool = tools.add_parser("gradescope", help=_("one STUDENT.results.json per student of a graded OUT"))
    tool.add_argument("out")
    tool.add_argument("--student", help=_("only this student"))
    tool.add_argument("--to", help=_("where to write that student's results.json"))
    tool = tools.add_parser("github-classroom", help=_("the result= line of one student, for "
                                                       "GitHub Classroom's reporter"))
    tool.add_argument("out")
    tool.add_argument("--student", required=True)
    for name, what in (("nbgrader", _("an nbgrader course directory, its assignment in source/")),
                       ("otter", _("an otter assignment's master notebook, and the stubs beside it"))):
        tool = tools.add_parser(name, help=what)
        tool.add_argument("folder")
        tool.add_argument("--lang", choices=["en", "zh"], default="en", help=_("the notebook's language"))
    arguments = parser.parse_args(argv)
    if arguments.tool == "gradescope":
        for path in write_gradescope(arguments.out, arguments.student, arguments.to):
            print(path)
    elif arguments.tool == "github-classroom":
        print(github_classroom_output(arguments.out, arguments.student))
    elif arguments.tool == "nbgrader":
        print(write_nbgrader(arguments.folder, arguments.lang))
    else:
        print(write_otter(arguments.folder, arguments.lang))
    return 0


if __name__ == "__main__":
    sys.exit(main())
