"""Repository-wide pytest setup.

- With --nbval (or --nbval-lax), nbval masks outputs that truly vary between
  runs (memory addresses, timings, graphviz's SVG bytes) with the rules in
  tests/nbval_sanitize.cfg. nbval opens the file given by
  --nbval-sanitize-with relative to the current directory, so it is wired in
  here by absolute path: `pytest --nbval` works from any directory.
- Jupyter's .ipynb_checkpoints copies are never collected.
- The build track's verdict cache of a test session is a temporary folder of its own.
- Notebook cells that compare with real PyTorch (they name `real_torch` or
  `pytorch`) still run when PyTorch is not installed, as they do for a
  learner (they print "not installed"), but their output is not compared:
  it is stored from a run with torch 2.13. So an error in such a cell, or in
  a later cell that needs what it set up, still fails. CI runs the notebooks
  both with and without torch.
"""

import importlib.util
import os
import re
import shutil
import tempfile
from pathlib import Path

SANITIZE_FILE = Path(__file__).resolve().parent / "tests" / "nbval_sanitize.cfg"


def pytest_configure(config):
    _own_buildtrack_cache(config)
    option = config.option
    if not (getattr(option, "nbval", False) or getattr(option, "nbval_lax", False)):
        return
    # Respect a file given on the command line (also nbval's deprecated
    # --sanitize-with alias, which nbval copies into nbval_sanitize_with).
    if getattr(option, "nbval_sanitize_with", None) or getattr(option, "sanitize_with", None):
        return
    # nbval reads config.option.nbval_sanitize_with when it sets up each
    # notebook (IPyNbFile.get_sanitize_files), after every pytest_configure.
    option.nbval_sanitize_with = str(SANITIZE_FILE)


def _own_buildtrack_cache(config):
    """The build track's verdicts of this test session go to a folder of its own, shared by the
    xdist workers and the notebook kernels they start (they inherit the environment), and removed at
    the end: a session never reuses verdicts from an earlier one, nor fills the learner's cache."""
    if os.environ.get("BUILDTRACK_CACHE_DIR"):
        return                          # set by the session that started this worker, or by the caller
    folder = tempfile.mkdtemp(prefix="buildtrack-cache-")
    os.environ["BUILDTRACK_CACHE_DIR"] = folder
    config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))


def pytest_report_header(config):
    """Name what makes numbers differ between machines: numpy's BLAS kernel, and whether torch is here."""
    lines = []
    import numpy  # noqa: F401  (loads the BLAS library, so threadpoolctl can see it)
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        lines.append("BLAS: threadpoolctl is not installed, kernel unknown")
    else:
        for info in threadpool_info():
            if info.get("user_api") == "blas":
                lines.append(f"BLAS: {info['internal_api']} {info.get('version')}, "
                             f"kernel {info.get('architecture')}, {info['num_threads']} thread(s)"
                             + (f", OPENBLAS_CORETYPE={os.environ['OPENBLAS_CORETYPE']}"
                                if os.environ.get("OPENBLAS_CORETYPE") else ""))
    lines.append("torch: " + ("installed" if importlib.util.find_spec("torch") is not None
                              else "not installed (the PyTorch cross-checks are skipped)"))
    return lines


def pytest_ignore_collect(collection_path, config):
    if ".ipynb_checkpoints" in collection_path.parts:
        return True
    return None


_USES_REAL_TORCH = re.compile(r"\b(real_torch|pytorch)\b")


def pytest_collection_modifyitems(config, items):
    if importlib.util.find_spec("torch") is not None:
        return
    for item in items:
        cell = getattr(item, "cell", None)              # nbval's notebook cells
        if cell is not None and _USES_REAL_TORCH.search(cell.get("source", "")):
            item.options["check"] = False               # run it, but do not compare its output
