"""The build track: checks for the pieces of ``myautograd`` you write, chapter by chapter.

In a chapter: ``buildtrack.check("02.2")`` reloads your package (so your latest
edits count) and shows one line: ✅ done, ⏳ not done yet, or ❌ with the likely
mistake (in JupyterLab as HTML, each mark a badge in words: ``notebook.py``).
``buildtrack.progress()`` shows how many steps are done, the next one, and every
step; so does ``make progress``.
The checks live here, outside the files you edit. They speak the language of the
edition you opened (English, or Chinese from ``notebooks/zh/``: see ``i18n.py``).
"""
import unicodedata

from . import ch01_02, ch03, ch04_06, ch07_08, ch10, ch11  # noqa: F401  (registers the steps, in order)
from .notebook import check, compare_graphs, mine, progress
from .steps import STEPS

__all__ = ["check", "progress", "mine", "compare_graphs", "STEPS"]


def _width(text):
    """How many columns ``text`` takes in a terminal: a Chinese character takes two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)
