"""How long a learner waits for a build-track check cell, and for `make progress`.

A finished package (a copy of the answer key) is checked the way a learner meets it:

- **after an edit**: for each step, one of its pieces is edited (a line that changes
  nothing is added, which still changes the function's source hash), then a fresh
  process imports buildtrack and times ``buildtrack.check(step)``: the verdicts of
  steps whose code did not change come from the cache, the rest run;
- **cold**: the same call with no cache at all (``BUILDTRACK_CACHE=0``), which is a
  first check in a new checkout;
- **progress**: ``make progress``'s table (``python -m buildtrack``) cold, then again
  with nothing changed.

Prints each step's times and the medians and maxima. Run on a quiet machine:

    .venv/bin/python benchmarks/buildtrack_check_times.py
"""
import argparse
import os
import pathlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
sys.path.insert(0, str(NOTEBOOKS))

from buildtrack import swap  # noqa: E402
from buildtrack.framework import ANSWER_KEY, STEPS  # noqa: E402

TIMED = """
import sys, time
sys.path.insert(0, {notebooks!r})
import buildtrack
from buildtrack.framework import verdict
start = time.perf_counter()
result = verdict({step!r}, {directory!r})
print(time.perf_counter() - start, result.status)
"""


def edit_one_piece(directory, step_id):
    """Add a line that does nothing to the first piece of ``step_id`` (or the code it rewrites)."""
    pieces = [(file, name) for file, name, step in swap.answer_pieces() if step == step_id]
    pieces += STEPS[step_id].rewritten()
    if not pieces:                          # "AccumulateGrad.apply (again) in function.py"
        described = STEPS[step_id].pieces.split(";")[0]
        pieces = [(described.rsplit(" in ", 1)[1].strip(), described.split()[0])]
    file, name = pieces[0]
    path = directory / file
    lines = path.read_text().split("\n")
    def_line = f"def {name.rsplit('.', 1)[-1]}("
    start = next(i for i, line in enumerate(lines) if line.strip().startswith(def_line))
    begin = next(i for i in range(start, len(lines)) if lines[i].strip() == "### BEGIN SOLUTION")
    indent = lines[begin][: len(lines[begin]) - len(lines[begin].lstrip())]
    lines.insert(begin + 1, f"{indent}_edited = {time.time_ns()}")
    path.write_text("\n".join(lines))


def _environment(directory, cache):
    """The checks' environment: one BLAS thread, and the cache on or off, kept beside the copy (never the
    learner's ``notebooks/.buildtrack_cache``)."""
    return dict(os.environ, BUILDTRACK_CACHE="1" if cache else "0", OPENBLAS_NUM_THREADS="1",
                BUILDTRACK_CACHE_DIR=str(pathlib.Path(directory).parent / "cache"))


def timed_check(step_id, directory, cache):
    environment = _environment(directory, cache)
    code = TIMED.format(notebooks=str(NOTEBOOKS), step=step_id, directory=str(directory))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=environment,
                         check=True, cwd=NOTEBOOKS).stdout.split()
    assert out[1] == "done", (step_id, out)
    return float(out[0])


def timed_progress(directory, cache):
    environment = _environment(directory, cache)
    code = (f"import sys; sys.path.insert(0, {str(NOTEBOOKS)!r})\nimport buildtrack\n"
            "from buildtrack.framework import STEPS, verdict\n"
            f"[verdict(s, {str(directory)!r}) for s in STEPS]")
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, env=environment, cwd=NOTEBOOKS)
    return time.perf_counter() - start


def main():
    argparse.ArgumentParser(description=__doc__.split("\n")[0]).parse_args()
    work = pathlib.Path(tempfile.mkdtemp())
    directory = work / "myautograd"
    shutil.copytree(ANSWER_KEY, directory)
    cold_progress = timed_progress(directory, cache=False)
    timed_progress(directory, cache=True)                       # fills the cache
    warm_progress = timed_progress(directory, cache=True)
    rows = []
    for step_id in STEPS:
        cold = timed_check(step_id, directory, cache=False)
        edit_one_piece(directory, step_id)
        after_edit = timed_check(step_id, directory, cache=True)
        rows.append((step_id, after_edit, cold))
        print(f"{step_id}  after an edit {after_edit:5.2f} s   cold {cold:5.2f} s", flush=True)
    shutil.rmtree(work)
    for label, column in (("after an edit", 1), ("cold", 2)):
        times = [row[column] for row in rows]
        print(f"check cell, {label}: median {statistics.median(times):.2f} s, slowest {max(times):.2f} s "
              f"({max(rows, key=lambda row: row[column])[0]})")
    print(f"progress table (python -m buildtrack): {cold_progress:.1f} s cold, {warm_progress:.1f} s "
          "unchanged (whole process, imports included)")


if __name__ == "__main__":
    main()
