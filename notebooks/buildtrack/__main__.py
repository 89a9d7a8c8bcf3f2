"""``python -m buildtrack [--answers]``: the progress table (``make progress``)."""
import argparse

from . import progress

parser = argparse.ArgumentParser(prog="python -m buildtrack", description=__doc__)
parser.add_argument("--answers", action="store_true", help="check the answer key instead of your package")
arguments = parser.parse_args()
print("Checking",
      "the answer key (answers/myautograd)" if arguments.answers else "your package (notebooks/myautograd)")
progress(answers=arguments.answers)
