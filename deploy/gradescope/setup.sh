#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image (the zip that make_autograder.sh
# builds, unpacked in /autograder/source): it installs the grader, the course in course/ beside this file,
# into a virtual environment of its own. Paths can be changed for a trial run outside Gradescope:
# AUTOGRADER_ROOT (/autograder), BUILDTRACK_VENV, BUILDTRACK_NO_APT=1 (Python 3.10+ with venv is there).
set -euo pipefail

ROOT=${AUTOGRADER_ROOT:-/autograder}
COURSE=${BUILDTRACK_COURSE:-$ROOT/source/course}
VENV=${BUILDTRACK_VENV:-$ROOT/source/venv}

if [ -z "${BUILDTRACK_NO_APT:-}" ]; then
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3 python3-venv python3-pip
fi
python3 -m venv "$VENV"
"$VENV/bin/python" -m pip install --quiet --upgrade pip
# The grader needs the course's package (checks, answer key, mini_autograd) and hypothesis, not JupyterLab.
"$VENV/bin/python" -m pip install --quiet -e "$COURSE" hypothesis
# Fail the image's build now, not at the first submission.
test -f "$COURSE/answers/myautograd/engine.py"
(cd /tmp && "$VENV/bin/python" -c "import buildtrack.exports; print('grader installed:', buildtrack.exports.__file__)")
