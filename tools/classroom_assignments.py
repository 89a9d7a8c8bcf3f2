"""Write the nbgrader and otter assignments stored in ``deploy/`` from ``buildtrack.exports`` (the steps,
their titles): after adding or renaming a step, run ``.venv/bin/python tools/classroom_assignments.py``.
``tests/test_classroom_exports.py`` fails while they differ.

The stored copies are for reading; a teacher makes a whole assignment, stubs included, with
``python -m buildtrack export nbgrader COURSE`` or ``python -m buildtrack export otter FOLDER``.
"""
import pathlib
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "notebooks"))

from buildtrack import exports  # noqa: E402

STORED = {  # in deploy/: written by export as
    "nbgrader/nbgrader_config.py": "nbgrader/nbgrader_config.py",
    "nbgrader/source/ps1/build_track.ipynb": "nbgrader/source/ps1/build_track.ipynb",
    "otter/build_track.ipynb": "otter/build_track.ipynb",
}


def main():
    with tempfile.TemporaryDirectory() as folder:
        made = pathlib.Path(folder)
        with exports.speaking("en"):
            exports.write_nbgrader(made / "nbgrader")
            exports.write_otter(made / "otter")
        for stored, written in STORED.items():
            target = ROOT / "deploy" / stored
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text((made / written).read_text())
            print(f"wrote deploy/{stored}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
