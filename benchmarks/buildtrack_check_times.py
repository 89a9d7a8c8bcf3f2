"""How long a learner waits for a build-track verdict: right code and wrong code, in CPU seconds.

Every time is the CPU time (``time.process_time``) of the process that checks, around one
``verdict(step)`` call, imports excluded; the wall-clock time is printed beside it. Three kinds of
verdict, on a copy of the answer key:

- **right code, after an edit**: one of the step's pieces is edited (a line that changes nothing is
  added, which still changes the function's hash); the verdicts of steps whose code did not change
  come from the cache, the step's own check runs;
- **right code, cold**: no cache at all (``BUILDTRACK_CACHE=0``): a first check in a new checkout,
  every earlier step the step waits for checked too;
- **wrong code**: each planted mistake of ``tests/buildtrack_mistakes.py`` (the mistakes learners
  make, and the ones the random programs find), checked right after it was made: the earlier
  verdicts are cached from the right code, so the steps whose functions changed run again. The
  mistakes found by random programs (a differential verdict) are counted apart: they also shrink
  the program and look for the piece at fault.

Also ``make progress``'s table (``python -m buildtrack``) cold, then again with nothing changed.
Prints each time, then medians and maxima. Run on a quiet machine:

    .venv/bin/python benchmarks/buildtrack_check_times.py            # everything (about 10 minutes)
    .venv/bin/python benchmarks/buildtrack_check_times.py --mistakes 20   # every 6th mistake or so
"""
import argparse
import json
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
sys.path.insert(0, str(ROOT / "tests"))

from buildtrack import swap  # noqa: E402
from buildtrack.package import ANSWER_KEY  # noqa: E402
from buildtrack.steps import STEPS  # noqa: E402

TIMED = """
import json, sys, time
sys.path.insert(0, {notebooks!r})
import buildtrack
from buildtrack.cache import verdict
wall, cpu = time.perf_counter(), time.process_time()
result = verdict({step!r}, {directory!r})
print(json.dumps([time.process_time() - cpu, time.perf_counter() - wall, result.status, result.differential]))
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


def _environment(cache_dir, cache):
    """One BLAS thread, and the cache on or off, kept in ``cache_dir`` (never the learner's)."""
    return dict(os.environ, BUILDTRACK_CACHE="1" if cache else "0", OPENBLAS_NUM_THREADS="1",
                BUILDTRACK_CACHE_DIR=str(cache_dir))


def timed_verdict(step_id, directory, cache_dir, cache=True):
    """``(cpu seconds, wall seconds, status, found by random programs)`` of one verdict, in a new process."""
    code = TIMED.format(notebooks=str(NOTEBOOKS), step=step_id, directory=str(directory))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env=_environment(cache_dir, cache), cwd=NOTEBOOKS).stdout
    return tuple(json.loads(out.strip().splitlines()[-1]))


def timed_progress(directory, cache_dir, cache):
    code = (f"import sys; sys.path.insert(0, {str(NOTEBOOKS)!r})\nimport buildtrack\n"
            "from buildtrack.cache import verdict\nfrom buildtrack.steps import STEPS\n"
            f"[verdict(s, {str(directory)!r}) for s in STEPS]")
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, env=_environment(cache_dir, cache),
                   cwd=NOTEBOOKS)
    return time.perf_counter() - start


def summary(label, rows):
    """Median and maximum CPU time of ``rows`` (``(name, cpu, wall, ...)``)."""
    if not rows:
        return
    cpu = [row[1] for row in rows]
    slowest = max(rows, key=lambda row: row[1])
    print(f"{label} ({len(rows)}): CPU median {statistics.median(cpu):.2f} s, slowest {slowest[1]:.2f} s "
          f"({slowest[0]}); wall median {statistics.median(row[2] for row in rows):.2f} s")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mistakes", type=int, default=None, help="time about this many planted mistakes "
                        "(evenly spread) instead of all of them")
    arguments = parser.parse_args()
    from buildtrack_mistakes import MISTAKES, plant

    work = pathlib.Path(tempfile.mkdtemp())
    directory, cache_dir = work / "myautograd", work / "cache"
    shutil.copytree(ANSWER_KEY, directory)
    cold_progress = timed_progress(directory, cache_dir, cache=False)
    timed_progress(directory, cache_dir, cache=True)                    # fills the cache
    warm_progress = timed_progress(directory, cache_dir, cache=True)
    right_edit, right_cold = [], []
    for step_id in STEPS:
        cpu, wall, status, _ = timed_verdict(step_id, directory, cache_dir, cache=False)
        assert status == "done", step_id
        right_cold.append((step_id, cpu, wall))
        edited = work / "edited" / "myautograd"
        shutil.copytree(directory, edited)
        shutil.copytree(cache_dir, work / "edited" / "cache")
        edit_one_piece(edited, step_id)
        cpu_edit, wall_edit, status, _ = timed_verdict(step_id, edited, work / "edited" / "cache")
        assert status == "done", step_id
        right_edit.append((step_id, cpu_edit, wall_edit))
        shutil.rmtree(work / "edited")
        print(f"{step_id}  right code: after an edit {cpu_edit:5.2f} s CPU ({wall_edit:5.2f} s wall), "
              f"cold {cpu:5.2f} s CPU ({wall:5.2f} s wall)", flush=True)

    every = max(1, len(MISTAKES) // arguments.mistakes) if arguments.mistakes else 1
    wrong_named, wrong_random = [], []
    for index, (step_id, file, old, new, _) in list(enumerate(MISTAKES))[::every]:
        trial = work / f"mistake-{index}"
        shutil.copytree(directory, trial / "myautograd")
        shutil.copytree(cache_dir, trial / "cache")
        plant(trial / "myautograd", file, old, new)
        cpu, wall, status, differential = timed_verdict(step_id, trial / "myautograd", trial / "cache")
        shutil.rmtree(trial)
        name = f"{step_id}-{index}"
        (wrong_random if differential else wrong_named).append((name, cpu, wall))
        print(f"{name}  wrong code ({'random programs' if differential else 'named scenario'}): "
              f"{cpu:5.2f} s CPU ({wall:5.2f} s wall), {status}", flush=True)
    shutil.rmtree(work)

    summary("right code, after an edit", right_edit)
    summary("right code, cold (every step it waits for checked too)", right_cold)
    summary("wrong code found by a named scenario", wrong_named)
    summary("wrong code found by random programs", wrong_random)
    summary("every verdict after an edit (right and wrong code)", right_edit + wrong_named + wrong_random)
    print(f"progress table (python -m buildtrack): {cold_progress:.1f} s cold, {warm_progress:.1f} s "
          "unchanged (whole process, imports included)")


if __name__ == "__main__":
    main()
