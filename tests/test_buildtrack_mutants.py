"""The checks of the checks (issue 35): every one-change mutant of the answer key is rejected by some
step's check, or listed in buildtrack_mutant_survivors.py with the reason it changes nothing a program can
observe.

tools/mutants.py makes the mutants (an operator swapped, a condition negated, a constant changed, a
statement deleted, in each piece of the answer key) and runs every step's check on each. A new survivor
fails here: plant what kills it (a named case or a random program a step's check runs), or, if it is
equivalent, list it with the reason. A listed survivor that some check now rejects fails too: take it off
the list.

All 329 mutants take about 2 minutes of CPU (6 Dec 2026: `.venv/bin/python tools/mutants.py`, one process,
which keeps the verdicts of the steps a mutant does not touch in memory).
"""
import collections
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "tests"))

import mutants  # noqa: E402
from buildtrack_mutant_survivors import SURVIVORS  # noqa: E402

STEPS_WITH_MUTANTS = sorted({mutant[1] for mutant in mutants.all_mutants()})
SCORE = 0.95


@pytest.mark.parametrize("step_id", STEPS_WITH_MUTANTS)
def test_every_mutant_is_rejected_or_listed_as_equivalent(step_id, tmp_path, monkeypatch):
    monkeypatch.setenv("BUILDTRACK_CACHE", "0")
    found = collections.Counter(mutants.survivors(step_id, work=tmp_path))
    listed = collections.Counter((step, piece, mutant) for step, piece, mutant, _why in SURVIVORS
                                 if step == step_id)
    new = sorted((found - listed).elements())
    assert not new, ("mutants of the answer key that every step accepts (plant what rejects them, or list "
                     "them in tests/buildtrack_mutant_survivors.py with why they are equivalent):\n"
                     + "\n".join(f"  {step} {piece}: {mutant}" for step, piece, mutant in new))
    stale = sorted((listed - found).elements())
    assert not stale, ("listed as survivors, but some step rejects them now (take them off the list):\n"
                       + "\n".join(f"  {step} {piece}: {mutant}" for step, piece, mutant in stale))


def test_the_checks_kill_at_least_95_percent_of_the_mutants():
    """With the listed survivors the only ones (the test above holds that), the score is what is killed."""
    total = len(mutants.all_mutants())
    assert total >= 300, total
    assert (total - len(SURVIVORS)) / total >= SCORE, f"{len(SURVIVORS)} of {total} mutants survive"
    assert all(len(why) > 40 for *_key, why in SURVIVORS), "each survivor needs its reason"
