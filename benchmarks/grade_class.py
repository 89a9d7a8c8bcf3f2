"""What grading a class costs: ``python -m buildtrack grade`` on a synthetic class, timed.

The class (``--students`` submissions, default 200) is, in turn: the answer key, the package as shipped
(every piece a stub), each planted mistake of ``tests/buildtrack_mistakes.py`` (one per submission, the
learners' typical mistakes), and random mixes (each piece the answer key's or its stub, by a coin). The
grader runs as a teacher would run it, ``--jobs`` at once (default: the machine's cores), each submission
in a process of its own.

Prints the wall time of the whole class, the CPU time per submission (median, 90th percentile, maximum,
from the ``seconds`` column and the children's ``getrusage``), the peak memory of one grading process, and
the time at a quarter, half and the whole of the class, to show how it grows. Run on a quiet machine:

    .venv/bin/python benchmarks/grade_class.py                  # 200 students (about 30 minutes on 2 cores)
    .venv/bin/python benchmarks/grade_class.py --students 40
"""
import argparse
import csv
import os
import pathlib
import random
import resource
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

from buildtrack.package import ANSWER_KEY  # noqa: E402
from buildtrack.stubs import BEGIN, END, SHIPPED, make_stub, solution_pieces  # noqa: E402
from buildtrack_mistakes import MISTAKES, plant  # noqa: E402


def _mixed(source, rng):
    """One answer-key file with each piece kept or made a stub, by a coin: a kept piece loses its markers
    (its SHIPPED lines are comments), so ``make_stub`` leaves it as written."""
    kept = {number for number in solution_pieces(source) if rng.random() < 0.5}
    lines, inside = [], False
    for number, line in enumerate(source.split("\n"), start=1):
        marker = line.strip()
        if marker == BEGIN and number in kept:
            inside = True
        elif inside and marker in (SHIPPED, END):
            inside = marker != END
        else:
            lines.append(line)
    return make_stub("\n".join(lines))


def make_class(folder, students, seed=0):
    rng = random.Random(seed)
    folder = pathlib.Path(folder)
    kinds = []
    for index in range(students):
        target = folder / f"s{index:03d}" / "myautograd"
        shutil.copytree(ANSWER_KEY, target, ignore=shutil.ignore_patterns("__pycache__"))
        if index == 0:
            kinds.append("answer key")
        elif index == 1:
            for path in target.glob("*.py"):
                path.write_text(make_stub(path.read_text()))
            kinds.append("stubs")
        elif index - 2 < len(MISTAKES) and index % 4 != 3:
            step, file, old, new, _words = MISTAKES[(index - 2) % len(MISTAKES)]
            plant(target, file, old, new)
            kinds.append(f"mistake {step}")
        else:
            for path in target.glob("*.py"):
                path.write_text(_mixed(path.read_text(), rng))
            kinds.append("mix")
    return kinds


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--students", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=os.cpu_count())
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as workspace:
        submissions, out = pathlib.Path(workspace) / "class", pathlib.Path(workspace) / "grades"
        kinds = make_class(submissions, args.students)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.monotonic()
        finished = []
        process = subprocess.Popen([sys.executable, "-u", "-m", "buildtrack", "grade", str(submissions),
                                    "--out", str(out), "--jobs", str(args.jobs), "--seed", "1"],
                                   cwd=NOTEBOOKS, stdout=subprocess.PIPE, text=True,
                                   env=dict(os.environ, BUILDTRACK_LANG="en"))
        for line in process.stdout:
            if line.startswith("s") and ":" in line:
                finished.append(time.monotonic() - started)
        process.wait()
        wall = time.monotonic() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        with open(out / "grades.csv") as table:
            rows = list(csv.DictReader(table))
    seconds = sorted(float(row["seconds"]) for row in rows)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    print(f"{args.students} submissions ({kinds.count('mix')} mixes, "
          f"{sum(k.startswith('mistake') for k in kinds)} planted mistakes), {args.jobs} jobs")
    print(f"wall time, whole class:          {wall:8.1f} s")
    print(f"CPU time, all processes:         {cpu:8.1f} s ({cpu / args.students:.1f} s per submission)")
    print(f"wall per submission (its process): median {statistics.median(seconds):.1f} s, "
          f"90th percentile {seconds[int(0.9 * (len(seconds) - 1))]:.1f} s, max {seconds[-1]:.1f} s")
    print(f"peak memory of one grading process: {after.ru_maxrss / 1024:.0f} MB")
    if len(finished) == args.students:
        for fraction in (0.25, 0.5, 1.0):
            count = max(1, int(fraction * args.students))
            print(f"first {count:4d} graded after {finished[count - 1]:8.1f} s")
    full = sum(row["total"] == str(len(rows[0]) - 3) for row in rows)
    print(f"full marks: {full} (the answer key, and mixes that happen to hold every piece)")


if __name__ == "__main__":
    main()
