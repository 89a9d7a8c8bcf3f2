"""The bottom of the build track's checks: where the two packages are, loading one afresh, and ``Wrong``.

A step's check is a function that takes the freshly loaded ``myautograd`` package and either returns a
sentence (done) or raises ``Wrong(message)`` (the piece runs but behaves wrongly; the message names the
likely mistake), or ``NotImplementedError`` from a stub (the piece is not written yet).

The modules of ``buildtrack`` import one way, each only from those below it:

    i18n, stubs, package      the messages' language; the stubs; where the packages are, loading one
    swap                      the answer key's pieces, swapped in for a while
    steps                     the steps and their registry (@step)
    _testing, cases           small tools the checks share; random cases of chapters 10 and 11
    differential              random programs, run on both packages and compared
    corpus                    the programs of the course's own tests, run on both packages and compared
    ch01_02 ... ch11          the checks, one function per step
    verdicts                  one step's verdict: the checks run, a failure explained and put in words
    cache                     verdicts kept while the code they ran is unchanged; verdict(), which checks
                              the earlier steps first
    notebook, __init__        what a chapter calls: check(), progress(), mine()
"""
import hashlib
import importlib
import importlib.machinery
import os
import pathlib
import shutil
import sys
import traceback

from .i18n import _, language

NOTEBOOKS = pathlib.Path(__file__).resolve().parent.parent
# The learner's package, one per edition: the same stubs, their docstrings and comments in the edition's
# language (stubs.make_stub(..., lang=)). The Chinese edition's sits beside its chapters, in notebooks/zh/.
LEARNER_PACKAGE = NOTEBOOKS / "myautograd"
LEARNER_PACKAGES = {"en": LEARNER_PACKAGE, "zh": NOTEBOOKS / "zh" / "myautograd"}
ANSWER_KEY = NOTEBOOKS.parent / "answers" / "myautograd"
PACKAGE_NAME = "myautograd"


class Wrong(Exception):
    """The piece runs, but its result is not what PyTorch (or mini_autograd) gives."""


def learner_package(lang=None):
    """The learner's package of the edition in use (``i18n.language()``: the chapter's folder, or
    ``BUILDTRACK_LANG``), or of ``lang``: ``notebooks/myautograd``, ``notebooks/zh/myautograd``."""
    return LEARNER_PACKAGES[lang or language()]


def package_dir(answers=False):
    """The learner's package of the edition in use, or the answer key (also when BUILDTRACK_ANSWERS=1, as in
    CI's run of the chapters)."""
    return ANSWER_KEY if answers or os.environ.get("BUILDTRACK_ANSWERS") == "1" else learner_package()


def fingerprint(directory):
    digest = hashlib.sha256()
    for path in sorted(pathlib.Path(directory).glob("*.py")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


class _SourceLoader(importlib.machinery.SourceFileLoader):
    """Loads a file of the package from its source, never from a cached .pyc (which can look current after
    an edit made within the same second), and compiles each text once per process: a step's check loads the
    package afresh, and the steps before it loaded the same files."""
    compiled = {}                              # (path, source) -> code

    def get_code(self, fullname):
        path = self.get_filename(fullname)
        source = self.get_data(path)
        if (path, source) not in self.compiled:
            self.compiled[path, source] = self.source_to_code(source, path)
        return self.compiled[path, source]


def load(directory):
    """Import the package in ``directory`` afresh as ``myautograd`` (edits since the last run count)."""
    directory = pathlib.Path(directory).resolve()
    for name in [n for n in sys.modules if n == PACKAGE_NAME or n.startswith(PACKAGE_NAME + ".")]:
        del sys.modules[name]
    shutil.rmtree(directory / "__pycache__", ignore_errors=True)       # (left by a plain import, say)
    importlib.invalidate_caches()
    parent = str(directory.parent)
    previous = sys.path_importer_cache.get(parent)
    for folder in (parent, str(directory)):                  # the package, then its modules
        sys.path_importer_cache[folder] = importlib.machinery.FileFinder(folder, (_SourceLoader, [".py"]))
    sys.path.insert(0, parent)
    try:
        return importlib.import_module(PACKAGE_NAME)
    finally:
        sys.path.remove(parent)
        if previous is None:
            del sys.path_importer_cache[parent]
        else:
            sys.path_importer_cache[parent] = previous


def learner_frame(tb, directory, file_only=False, function=None):
    """``myautograd/engine.py, line 57, in run_backward``: the last frame of the learner's package
    (``file_only``: ``myautograd/engine.py``; ``function``: the last frame of that function, with its
    line of code: ``myautograd/nn.py, line 97, in cross_entropy: shifted = ...``)."""
    where = None
    for frame in traceback.extract_tb(tb):
        path = pathlib.Path(frame.filename)
        if path.parent != directory or function not in (None, frame.name):
            continue
        where = (f"{PACKAGE_NAME}/{path.name}" if file_only else
                 _("{package}/{file}, line {line}, in {function}").format(
                     package=PACKAGE_NAME, file=path.name, line=frame.lineno, function=frame.name))
        if function is not None:
            where += f": {frame.line}"
    return where
