#!/usr/bin/env bash
# Builds Gradescope's autograder.zip: setup.sh and run_autograder at its top, and in course/ what the grader
# needs of this repository (pyproject.toml, README.md, mini_autograd/, answers/, notebooks/buildtrack/,
# notebooks/coursetools.py, notebooks/myautograd/), as they are in the working tree. The zip holds the
# answer key: upload it to Gradescope, do not hand it out.
#   deploy/gradescope/make_autograder.sh [ZIP]        (default: ./autograder.zip)
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
ZIP=$(realpath -m "${1:-autograder.zip}")

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/course" "$work/course/notebooks"
cp "$REPO/pyproject.toml" "$REPO/README.md" "$work/course/"
cp -r "$REPO/mini_autograd" "$REPO/answers" "$work/course/"
cp -r "$REPO/notebooks/buildtrack" "$REPO/notebooks/myautograd" "$REPO/notebooks/coursetools.py" \
    "$work/course/notebooks/"
find "$work/course" \( -name __pycache__ -o -name .buildtrack_cache -o -name '*.egg-info' \) -prune \
    -exec rm -rf {} +
cp "$HERE/setup.sh" "$HERE/run_autograder" "$work/"
chmod +x "$work/setup.sh" "$work/run_autograder"
rm -f "$ZIP"
(cd "$work" && python3 -m zipfile -c "$ZIP" setup.sh run_autograder course)
echo "$ZIP"
