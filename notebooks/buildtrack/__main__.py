"""``python -m buildtrack [--answers]``: the progress table (``make progress``).

``python -m buildtrack grade SUBMISSIONS --out OUT``: a whole class's grades (``grading.py``).

``python -m buildtrack export TOOL ...``: those grades for Gradescope, GitHub Classroom, nbgrader or
otter-grader (``exports.py``).

In Chinese with ``BUILDTRACK_LANG=zh``, from the Chinese edition's folder, or with a Chinese locale
(``make progress LANG=zh``; see ``i18n.py``). ``--translations update|check`` keeps the Chinese catalogues
of the messages in step with the code (``i18n.py``).
"""
import argparse
import os
import sys

from . import exports, grading, i18n, package, progress
from .i18n import _

if not os.environ.get("BUILDTRACK_LANG") and i18n.locale_is_chinese():
    os.environ["BUILDTRACK_LANG"] = "zh"          # a command line speaks the locale's language
if sys.argv[1:2] == ["grade"]:                    # python -m buildtrack grade SUBMISSIONS --out OUT
    sys.exit(grading.main(sys.argv[2:]))
if sys.argv[1:2] == ["export"]:                   # python -m buildtrack export gradescope OUT, ...
    sys.exit(exports.main(sys.argv[2:]))
parser = argparse.ArgumentParser(prog="python -m buildtrack", description=_(
    "``python -m buildtrack [--answers]``: the progress table (``make progress``)."))
parser.add_argument("--answers", action="store_true", help=_("check the answer key instead of your package"))
parser.add_argument("--translations", choices=["update", "check"],
                    help="update or check the Chinese catalogues of the messages (for the course's authors)")
arguments = parser.parse_args()
if arguments.translations:
    sys.exit(i18n.main([arguments.translations]))
print(_("Checking the answer key (answers/myautograd)") if arguments.answers
      else _("Checking your package ({folder})").format(
          folder=package.learner_package().relative_to(package.NOTEBOOKS.parent).as_posix()))
progress(answers=arguments.answers)
