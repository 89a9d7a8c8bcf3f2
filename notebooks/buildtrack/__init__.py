"""The build track: checks for the pieces of ``myautograd`` you write, chapter by chapter.

In a chapter: ``buildtrack.check("02.2")`` reloads your package (so your latest
edits count) and prints one line: ✅ done, ⏳ not done yet, or ❌ with the likely
mistake. ``buildtrack.progress()`` prints every step; so does ``make progress``.
The checks live here, outside the files you edit.
"""
from . import ch01_02, ch03, ch04_06, ch07_08, ch10, ch11  # noqa: F401  (registers the steps, in order)
from .framework import STEPS, Verdict, package_dir, verdict
from .notebook import compare_graphs, mine

__all__ = ["check", "progress", "mine", "compare_graphs", "STEPS"]


def check(step_id, answers=False):
    """Check one step of your package and print the verdict."""
    result = verdict(step_id, package_dir(answers))
    print(f"{result.mark} Step {step_id} ({STEPS[step_id].title}): {result.message}")


def progress(answers=False, chapters=None):
    """One row per step: ✅ done, ⏳ not done yet, ❌ wrong (with the message)."""
    verdicts = {s.id: verdict(s.id, package_dir(answers)) for s in STEPS.values()}
    # A later check that found the mistake in an earlier step's piece marks that step too.
    for step_id, result in list(verdicts.items()):
        blamed = result.culprit_step
        if blamed and blamed != step_id and verdicts.get(blamed) and verdicts[blamed].status == "done":
            verdicts[blamed] = Verdict("wrong", f"step {step_id}'s check found a mistake in this step's "
                                       f"code: see step {step_id}.")
    rows = [(s, verdicts[s.id]) for s in STEPS.values() if chapters is None or s.chapter in chapters]
    width = max(len(s.title) for s, _ in rows)
    for s, result in rows:
        message = "" if result.status == "done" else result.message
        print(f"{result.mark} {s.id}  {s.title:<{width}}  {message}".rstrip())
    done = sum(result.status == "done" for _, result in rows)
    print(f"\n{done} of {len(rows)} steps done.")
