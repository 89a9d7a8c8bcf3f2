"""Small helpers the course notebooks share: reading the engine's source, checking exercises.

They live beside the notebooks, not in ``mini_autograd``: they are about the
course, not about autograd.
"""
import inspect
import pathlib

import numpy as np

import mini_autograd

_PACKAGE_ROOT = pathlib.Path(mini_autograd.__file__).resolve().parent.parent


def show_source(obj):
    """Print the real source of a function or class of mini_autograd, with its file."""
    obj = inspect.unwrap(obj)           # a decorated function: show the function itself
    path = pathlib.Path(inspect.getsourcefile(obj)).resolve()
    try:
        where = path.relative_to(_PACKAGE_ROOT)
    except ValueError:
        where = path.name
    print(f"# {where}: {obj.__qualname__}")
    print(inspect.getsource(obj).rstrip())


def _values(x):
    """A plain numpy array from a mini_autograd tensor, a torch tensor, a number or a list."""
    if hasattr(x, "detach"):
        x = x.detach()
    if hasattr(x, "numpy"):
        x = x.numpy()
    return np.asarray(x, dtype=float)


def _has_words(expected):
    """A list or tuple holding strings or None somewhere (node names, say), not only numbers."""
    return isinstance(expected, (list, tuple)) and any(
        isinstance(e, (str, type(None))) or _has_words(e) for e in expected)


def _as_tuples(x):
    """Lists and tuples, nested, as tuples: ``[["a", 0]]`` and ``(("a", 0),)`` compare equal."""
    return tuple(_as_tuples(e) for e in x) if isinstance(x, (list, tuple)) else x


def check(condition, right, hint):
    """Print a verdict: ``right`` when ``condition`` holds, else ``hint``."""
    if condition:
        print(f"✅ Correct. {right}")
    else:
        print(f"❌ Not yet. {hint}")
    return bool(condition)


def check_answer(answer, expected, *, right="", hint="", atol=1e-4):
    """Compare an answer (tensor, number, list, string, bool) with the expected one, and say why not."""
    if answer is None or answer is ...:
        print(f"⏳ Not answered yet: replace the placeholder with your answer. Hint: {hint}")
        return False
    if isinstance(expected, (str, bool, type(None))):
        return check(answer == expected, right, f"{hint} (your answer: {answer!r})")
    if _has_words(expected):              # e.g. ("MulBackward0", None): compare item by item
        return check(_as_tuples(answer) == _as_tuples(expected), right, f"{hint} (your answer: {answer!r})")
    try:
        got, want = _values(answer), _values(expected)
    except (TypeError, ValueError):
        return check(False, right, f"{hint} (could not read {answer!r} as numbers)")
    if got.shape != want.shape:
        return check(False, right, f"{hint} (shape {list(got.shape)}, expected {list(want.shape)})")
    return check(np.allclose(got, want, atol=atol), right, f"{hint} (your answer: {np.round(got, 4).tolist()})")


# ---------------------------------------------------------------- set-up check (chapter 00)

GRAPHVIZ_INSTALL_HINT = """\
Install Graphviz (the program, not only the Python package), then run the check again
(if dot is still not found, restart JupyterLab from a terminal where `dot -V` works):
  conda:          conda install -c conda-forge graphviz python-graphviz
  Debian/Ubuntu:  sudo apt-get install graphviz
  macOS:          brew install graphviz"""


def _package_version(name):
    """The installed version of a distribution, or None; reads metadata only (no import)."""
    from importlib import metadata
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


def _dot_version():
    """``(path, version)`` of Graphviz's ``dot`` program; ``(None, None)`` when it is not on PATH."""
    import re
    import shutil
    import subprocess
    path = shutil.which("dot")
    if path is None:
        return None, None
    try:
        run = subprocess.run([path, "-V"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return path, None
    found = re.search(r"version\s+(\S+)", run.stderr + run.stdout)   # dot -V writes to stderr
    return path, found.group(1) if found else None


def print_versions():
    """Print the versions of everything the course uses (they vary from machine to machine)."""
    import platform
    rows = [("Python", platform.python_version()),
            ("numpy", np.__version__),
            ("mini_autograd", mini_autograd.__version__),
            ("matplotlib", _package_version("matplotlib") or "not installed"),
            ("graphviz (Python package)", _package_version("graphviz") or "not installed")]
    path, version = _dot_version()
    rows.append(("dot (Graphviz program)",
                 "not found" if path is None else f"found, version {version or 'unknown'}"))
    torch_version = _package_version("torch")
    rows.append(("PyTorch", "not installed (optional)" if torch_version is None
                 else f"installed ({torch_version.split('+')[0]})"))
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"{name + ':':<{width + 1}} {value}")


def setup_check():
    """Check that the course can run here: one line per requirement, with the fix when one fails.

    PyTorch is optional (chapter 12 compares with it when present), so it is not checked.
    """
    import sys
    ok = True

    def verdict(condition, good, bad):
        nonlocal ok
        ok = ok and bool(condition)
        print(f"✅ {good}" if condition else f"❌ {bad}")

    verdict(sys.version_info >= (3, 10), "Python 3.10 or newer",
            f"Python {sys.version_info.major}.{sys.version_info.minor} is too old: the course needs 3.10 or newer.")
    for name, purpose in [("numpy", "does the arithmetic"), ("matplotlib", "draws the plots"),
                          ("graphviz", "describes the graph pictures for dot")]:
        verdict(_package_version(name) is not None, f"{name} is installed: it {purpose}",
                f"{name} is missing: run `pip install -e '.[course]'` in the repository "
                "(or create the conda environment from environment.yml).")
    verdict(callable(getattr(mini_autograd, "tensor", None)), "mini_autograd imports",
            "mini_autograd is broken: reinstall the repository with `pip install -e .`.")
    path, _ = _dot_version()
    verdict(path is not None, "Graphviz's dot program is found: graph pictures will render",
            "Graphviz's dot program was not found on PATH, so graph pictures fall back to text.\n"
            + GRAPHVIZ_INSTALL_HINT)
    print("\nAll set: the course can run here." if ok else "\nFix the lines marked ❌, then run this cell again.")
