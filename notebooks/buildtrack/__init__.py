"""The build track: checks for the pieces of ``myautograd`` you write, chapter by chapter.

In a chapter: ``buildtrack.check("02.2")`` reloads your package (so your latest
edits count) and prints one line: ✅ done, ⏳ not done yet, or ❌ with the likely
mistake. ``buildtrack.progress()`` prints every step; so does ``make progress``.
The checks live here, outside the files you edit. They speak the language of the
edition you opened (English, or Chinese from ``notebooks/zh/``: see ``i18n.py``).
"""
import unicodedata

from . import ch01_02, ch03, ch04_06, ch07_08, ch10, ch11  # noqa: F401  (registers the steps, in order)
from .cache import every_verdict, verdict
from .i18n import _
from .notebook import compare_graphs, mine
from .package import package_dir
from .steps import STEPS

__all__ = ["check", "progress", "mine", "compare_graphs", "STEPS"]


def check(step_id, answers=False):
    """Check one step of your package and print the verdict."""
    result = verdict(step_id, package_dir(answers))
    print(_("{mark} Step {step} ({title}): {message}").format(
        mark=result.mark, step=step_id, title=_(STEPS[step_id].title), message=result.message))


def _width(text):
    """How many columns ``text`` takes in a terminal: a Chinese character takes two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def progress(answers=False, chapters=None):
    """One row per step: ✅ done, ⏳ not done yet, ❌ wrong (with the message)."""
    verdicts = every_verdict(package_dir(answers))
    rows = [(s, verdicts[s.id]) for s in STEPS.values() if chapters is None or s.chapter in chapters]
    titles = {s.id: _(s.title) for s, _result in rows}
    width = max(_width(title) for title in titles.values())
    for s, result in rows:
        message = "" if result.status == "done" else result.message
        title = titles[s.id] + " " * (width - _width(titles[s.id]))
        print(f"{result.mark} {s.id}  {title}  {message}".rstrip())
    done = sum(result.status == "done" for _step, result in rows)
    print()
    print(_("{done} of {total} steps done.").format(done=done, total=len(rows)))
