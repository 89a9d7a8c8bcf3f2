"""Grading a class: every student's build track with one command, ``python -m buildtrack grade``.

The teacher's side of the checks (nbgrader's ``autograde`` and Gradescope's autograder play this part in other
courses). ``SUBMISSIONS`` holds one entry per student: a folder holding that student's ``myautograd/`` (at any
depth), or a ``.zip`` of one. For each, ``OUT`` receives:

- a row of ``grades.csv``: ``student``, one column per step (1 done, 0 not), ``total`` and ``seconds``;
- ``STUDENT.json``: every step's verdict and message, and the reasons for any step set to 0;
- ``STUDENT.html``: the feedback page, in the class's language (``--lang zh``), with the ❌ messages;
- ``grading.json``: the seed, the date and the limits, so that the grades can be made again.

What makes the grades hard to game:

- From a submission the grader takes only the ``myautograd/*.py`` files, into a folder of its own. The checks,
  the answer key and mini_autograd are the grader's own copies.
- Each submission is checked in a process of its own, with a CPU-time and a memory limit
  (``--cpu-seconds``, ``--memory-mb``): an endless loop or a memory bomb costs that student, not the run.
  The process runs in a sandbox (``sandbox.py``: bubblewrap where it works: no network, a read-only file
  system, every process it starts ended with it, uid 65534 when the grader runs as root; else a process
  group), with a limit on processes (a fork bomb). A step that gives no verdict within ``--step-seconds`` of
  wall-clock time (it waits: a sleep, a lock, ``input()``) is stopped and set to 0, and a new process checks
  the steps after it: a step that waits costs only itself (and the steps that need it).
- The random programs are drawn afresh from the grader's seed (``--seed``; a new one each run, written into
  ``grading.json``), not read from the shipped ``programs.json``.
- The code is read before it runs (``screen``). Importing anything but numpy and a short list of the standard
  library, importing mini_autograd beyond what the package ships with, or reaching for the interpreter's
  insides (``__import__``, frames, ``__globals__``, ``exec``, ``open``, ...) sets to 0 the steps whose
  pieces do it and every step that needs them, with the reason in the feedback; at the top level of a file,
  every step.
- While it runs, an audit hook (``sys.addaudithook``) notes what the code does that reading it could miss
  (a file opened, a frame taken, text run as code, by names put together at run time): the step being
  checked then gets 0 too. The verdicts travel to the grader in a file of its own, not through the
  output a submission can print to.
"""
import argparse
import ast
import concurrent.futures
import csv
import datetime
import html
import json
import os
import pathlib
import random
import stat
import sys
import tempfile
import threading
import time
import zipfile
import zlib

from . import differential, sandbox, stubs
from .cache import verdict, with_blame
from .i18n import _, language
from .package import ANSWER_KEY, PACKAGE_NAME
from .steps import STEPS
from .swap import answer_pieces
from .verdicts import Verdict

# What a submission's code may import: numpy and the standard library's pure-computation modules.
ALLOWED_MODULES = {"numpy", "math", "cmath", "itertools", "functools", "heapq", "weakref", "threading",
                   "warnings", "collections", "contextlib", "operator", "copy", "dataclasses", "typing",
                   "numbers", "enum", "abc", "statistics", "queue", "bisect", "__future__"}
# Names that reach the interpreter's insides, the file system or the checker: never needed to build autograd.
FORBIDDEN_NAMES = {"__import__", "__builtins__", "builtins", "importlib", "__globals__", "__code__",
                   "__closure__", "__subclasses__", "__loader__", "__spec__", "__path__", "__file__",
                   "_getframe", "f_back", "f_globals", "f_locals", "f_code", "f_builtins", "currentframe",
                   "tb_frame", "gi_frame", "exec", "eval", "compile", "open", "globals", "breakpoint",
                   "setprofile", "settrace", "modules",
                   # builtins and classes reached through objects: vars(len.__self__), type(x).__mro__, ...
                   "vars", "__self__", "__dict__", "__mro__", "__base__", "__bases__", "__reduce__",
                   "__reduce_ex__", "__getattribute__", "__objclass__", "__wrapped__",
                   # modules the allowed ones hold as attributes (warnings.sys, contextlib._sys, ...)
                   "sys", "_sys", "os", "_os", "io", "subprocess", "pathlib", "shutil", "ctypes", "inspect",
                   "gc", "runpy", "pickle", "marshal", "signal", "resource", "atexit", "multiprocessing",
                   "socket", "tempfile", "fcntl", "posix", "_thread"}
# numpy's ways to read or write files and to call C.
FORBIDDEN_NUMPY = {"load", "loadtxt", "genfromtxt", "fromfile", "memmap", "save", "savez", "savetxt",
                   "tofile", "ctypeslib", "lib", "DataSource", "fromregex"}
SUBMISSION_LIMIT = 2_000_000          # bytes of Python a submission may hold (a zip is read no further)


# ------------------------------------------------------------------ taking a submission
RESERVED = {"grades", "grading"}          # OUT's own files: grades.csv, grading.json


def entries(folder):
    """``[(student, path)]``: each folder and ``.zip`` in ``folder``, by name. A name is made printable (a
    file name that is not UTF-8), and made unique: ``ann`` and ``ann.zip`` give ``ann`` and ``ann (2)``; a
    student called ``grading`` becomes ``grading (student)``, beside the run's own grading.json."""
    found, names = [], set()
    for path in sorted(pathlib.Path(folder).iterdir()):
        if path.is_dir() and not path.name.startswith("."):     # (a link the teacher made: followed)
            name = path.name
        elif path.suffix.lower() == ".zip" and path.is_file():
            name = path.stem
        else:
            continue
        name = name.encode("utf-8", "replace").decode("utf-8").replace("/", "_")
        if name.lower() in RESERVED:
            name += " (student)"
        unique, count = name, 1
        while unique in names:
            count += 1
            unique = f"{name} ({count})"
        names.add(unique)
        found.append((unique, path))
    return found


def _package_files(names, changed=None):
    """``{file name: member}``: the ``*.py`` files of the shallowest ``myautograd/`` folder among ``names``
    (paths with ``/``), or of the top folder when the entry itself is the package (holds ``__init__.py``).
    ``changed(name)``, a member's modification time: of several ``myautograd/`` folders (a whole course:
    ``notebooks/myautograd/`` and the Chinese edition's ``notebooks/zh/myautograd/``), the one saved last."""
    folders = {}
    for name in names:
        parts = pathlib.PurePosixPath(name).parts
        if len(parts) >= 2 and parts[-2] == PACKAGE_NAME and parts[-1].endswith(".py"):
            folders.setdefault(parts[:-1], {})[parts[-1]] = name
        elif len(parts) == 1 and parts[0].endswith(".py"):
            folders.setdefault((), {})[parts[0]] = name
    candidates = [folder for folder in folders if folder and folder[-1] == PACKAGE_NAME]
    if not candidates and "__init__.py" in folders.get((), {}):
        candidates = [()]
    if not candidates:
        return {}
    if changed is not None and len(candidates) > 1:
        def saved(folder):
            return max(changed(name) for name in folders[folder].values()), -len(folder)
        return folders[max(candidates, key=saved)]
    return folders[min(candidates, key=len)]


class Unreadable(Exception):
    """A submission the grader cannot take: the reason, in the student's feedback."""


def _regular(path):
    """A file of its own: not a folder named ``x.py``, a link, a pipe or a device (reading a pipe waits)."""
    try:
        return stat.S_ISREG(path.lstat().st_mode)
    except OSError:
        return False


def take(entry, target):
    """Copy the submission's ``myautograd/*.py`` files, and nothing else, into ``target``/myautograd.
    Returns that folder, or None when the entry holds no package; raises ``Unreadable`` when it cannot be
    read (a broken or encrypted zip, more than SUBMISSION_LIMIT bytes of Python, no ``__init__.py``)."""
    package = pathlib.Path(target) / PACKAGE_NAME
    package.mkdir(parents=True)
    entry = pathlib.Path(entry)
    if entry.is_dir():
        names = [path.relative_to(entry).as_posix() for path in entry.rglob("*.py")
                 if ".ipynb_checkpoints" not in path.parts and _regular(path)]
        files = _package_files(names, changed=lambda name: (entry / name).stat().st_mtime)
        _within_limit(file_size=lambda name: (entry / name).lstat().st_size, files=files)
        for file, name in files.items():
            (package / file).write_bytes((entry / name).read_bytes())
    else:
        try:
            with zipfile.ZipFile(entry) as archive:
                members = {info.filename: info for info in archive.infolist() if not info.is_dir()}
                files = _package_files(list(members), changed=lambda name: members[name].date_time)
                _within_limit(file_size=lambda name: members[name].file_size, files=files)
                for file, name in files.items():
                    with archive.open(name) as member:
                        data = member.read(SUBMISSION_LIMIT + 1)       # (a size the header may lie about)
                    if len(data) > SUBMISSION_LIMIT:
                        raise Unreadable(_("more than {limit:,} bytes of Python").format(
                            limit=SUBMISSION_LIMIT))
                    (package / file).write_bytes(data)
        except (zipfile.BadZipFile, zipfile.LargeZipFile, RuntimeError, NotImplementedError, OSError,
                EOFError, zlib.error) as error:
            raise Unreadable(_("the zip file cannot be read ({error})").format(error=error)) from None
    if files and "__init__.py" not in files:
        raise Unreadable(_("myautograd/ has no __init__.py: submit the whole package, as shipped"))
    return package if files else None


def _within_limit(file_size, files):
    if sum(file_size(name) for name in files.values()) > SUBMISSION_LIMIT:
        raise Unreadable(_("more than {limit:,} bytes of Python").format(limit=SUBMISSION_LIMIT))


# ------------------------------------------------------------------ reading the code first
_PARSING = threading.Lock()


def _parsed(path):
    """``path``'s syntax tree, made one thread at a time: grade() screens submissions in threads, and
    CPython 3.11's ast.parse is not safe in two threads at once (SystemError: AST constructor recursion
    depth mismatch)."""
    with _PARSING:
        return ast.parse(path.read_text())


def _shipped_imports(file):
    """The imports the package ships with in ``file`` (mini_autograd's given parts), as ``_import_key``s; for
    a file of the student's own (a helper, a backup copy), the imports any shipped file has."""
    paths = [ANSWER_KEY / file] if (ANSWER_KEY / file).exists() else sorted(ANSWER_KEY.glob("*.py"))
    return {_import_key(node) for path in paths for node in ast.walk(_parsed(path))
            if isinstance(node, (ast.Import, ast.ImportFrom))}


def shipped_modules():
    """The modules the shipped package imports by name (``mini_autograd._dtype``, ...)."""
    return {alias.name if isinstance(node, ast.Import) else node.module
            for path in sorted(ANSWER_KEY.glob("*.py")) for node in ast.walk(_parsed(path))
            if isinstance(node, (ast.Import, ast.ImportFrom)) and not getattr(node, "level", 0)
            for alias in (node.names if isinstance(node, ast.Import) else [None])}


def _import_key(node):
    if isinstance(node, ast.Import):
        return ("import", tuple(alias.name for alias in node.names))
    return (node.module or "", node.level, tuple(alias.name for alias in node.names))


def _problem(node, shipped):
    """Why ``node`` may not be in a submission, or None."""
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        if isinstance(node, ast.ImportFrom) and node.level > 0:
            return None                                         # the package's own modules
        modules = [alias.name for alias in node.names] if isinstance(node, ast.Import) else [node.module]
        for module in modules:
            if module.split(".")[0] not in ALLOWED_MODULES and _import_key(node) not in shipped:
                return _("imports {module}").format(module=module)
        return None
    if isinstance(node, ast.Name) and node.id in FORBIDDEN_NAMES:
        return _("uses {name}").format(name=node.id)
    if isinstance(node, ast.Attribute):
        if node.attr == "__dict__" and isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
            return None                                 # an object's own fields (a copy of a tensor, say)
        if node.attr in FORBIDDEN_NAMES:
            return _("uses .{name}").format(name=node.attr)
        if (node.attr in FORBIDDEN_NUMPY and isinstance(node.value, ast.Name)
                and node.value.id in ("np", "numpy")):
            return _("uses {module}.{name}").format(module=node.value.id, name=node.attr)
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and len(node.args) >= 2
            and node.func.id in ("getattr", "setattr", "delattr", "hasattr")
            and isinstance(node.args[1], (ast.BinOp, ast.JoinedStr, ast.Call))):
        return _("uses {name} with a name put together at run time").format(name=node.func.id)
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in FORBIDDEN_NAMES:
        return _("names {text!r}").format(text=node.value)             # getattr(x, "__globals__")
    return None


def _problems(path):
    """``[(line, piece or None, problem)]`` for the code of one file, each problem once per piece."""
    try:
        tree = _parsed(path)
    except (SyntaxError, ValueError, UnicodeDecodeError):
        return []                                       # the verdicts say so
    shipped = _shipped_imports(path.name)
    pieces = {id(function): name for name, function, _class_doc in stubs.functions_of(tree)}
    found, stack = [], [(tree, None)]
    while stack:
        node, piece = stack.pop()
        piece = pieces.get(id(node), piece)
        problem = _problem(node, shipped)
        if problem is not None and all((problem, piece) != (p, q) for _line, q, p in found):
            found.append((getattr(node, "lineno", 0), piece, problem))
        stack.extend((child, piece) for child in ast.iter_child_nodes(node))
    return sorted(found, key=lambda item: item[0])


def screen(package):
    """``{step: [reason, ...]}``: the steps a submission's code sets to 0, and why. A problem in a piece of
    step S costs S and every step that needs S; anywhere else (the top level of a file, a function of your
    own), every step."""
    step_of = {(file, name): step for file, name, step in answer_pieces()}
    found = {}
    for path in sorted(pathlib.Path(package).glob("*.py")):
        where = f"{PACKAGE_NAME}/{path.name}"
        for line, piece, problem in _problems(path):
            step = step_of.get((path.name, piece))
            if step is None:
                users = list(STEPS)
                reason = _("{where}, line {line}: {problem}").format(where=where, line=line, problem=problem)
            else:
                users = [s for s in STEPS if s == step or step in STEPS[s].needs()]
                reason = _("{where}, line {line}, in {piece} (step {step}): {problem}").format(
                    where=where, line=line, piece=piece, step=step, problem=problem)
            for step_id in users:
                found.setdefault(step_id, []).append(reason)
    return found


# ------------------------------------------------------------------ one submission, in a process of its own
# What the worker watches while your code runs (``sys.addaudithook``): reading or writing files, frames,
# running text as code. Code that reads clean can still do these by names put together at run time.
AUDITED = {"open", "sys._getframe", "sys._current_frames", "exec", "compile", "os.system",
           "subprocess.Popen", "object.__getattr__", "ctypes.dlopen", "socket.connect"}


def _audit(package, seen):
    """An audit hook that notes in ``seen`` each audited event your package's code caused: the nearest
    frame outside Python's and numpy's own files is one of your files."""
    package = str(pathlib.Path(package).resolve())
    ours = (str(pathlib.Path(__file__).resolve().parent),                  # the checks, and mini_autograd
            str(pathlib.Path(differential.mini_autograd.__file__).resolve().parent))
    busy = []

    def hook(event, args):
        if event not in AUDITED or busy:
            return
        busy.append(True)                              # (sys._getframe below is an audited event too)
        try:
            frame = sys._getframe(1)
            while frame is not None:
                path = frame.f_code.co_filename
                if path.startswith(package):
                    seen.add(_("{event} at run time ({file}, line {line})").format(
                        event=event, file=f"{PACKAGE_NAME}/{pathlib.Path(path).name}", line=frame.f_lineno))
                    return
                if path.startswith(ours) or path.startswith("<frozen importlib"):
                    return                                     # (an import: read before it ran)
                frame = frame.f_back
        finally:
            busy.pop()
    return hook


def _guarded_import(package, seen):
    """``__import__`` for the worker: an import made by your package's code (``__import__`` reached by any
    road) gets only numpy, the allowed standard modules and what the package ships with; anything else
    raises ImportError, and is noted in ``seen``. The checks' own imports pass."""
    import builtins
    real, package = builtins.__import__, str(pathlib.Path(package).resolve())
    allowed = shipped_modules()

    def guarded(name, globals=None, locals=None, fromlist=(), level=0):
        if level == 0 and name.split(".")[0] not in ALLOWED_MODULES and name not in allowed:
            caller = sys._getframe(1)
            while caller is not None and caller.f_code.co_filename.startswith("<frozen importlib"):
                caller = caller.f_back
            if caller is not None and caller.f_code.co_filename.startswith(package):
                seen.add(_("imports {module} at run time ({file}, line {line})").format(
                    module=name, file=f"{PACKAGE_NAME}/{pathlib.Path(caller.f_code.co_filename).name}",
                    line=caller.f_lineno))
                raise ImportError(f"the grader does not let a submission import {name}")
        return real(name, globals, locals, fromlist, level)
    return guarded


def worker(package, seed, results, steps):
    """Write one JSON line per verdict of ``steps`` (in order) to the file ``results`` (in the sandbox
    ``grade_one`` starts), with what your code did at run time that it may not (``AUDITED``, and imports)."""
    import builtins
    sandbox.limit_processes()
    differential.draw_afresh(seed)
    seen = set()
    sys.addaudithook(_audit(package, seen))
    builtins.__import__ = _guarded_import(package, seen)
    with open(results, "w") as out:
        for step_id in steps:
            result = verdict(step_id, package, own_words=False)
            out.write(json.dumps({"step": step_id, "status": result.status, "message": result.message,
                                  "culprit_step": result.culprit_step, "run_time": sorted(seen)}) + "\n")
            out.flush()
            seen.clear()


def _lines(results):
    try:
        return results.read_text().splitlines()
    except (OSError, UnicodeDecodeError):
        return []


def _watch(process, results, step_seconds, deadline):
    """Wait for a worker: ``"ended"`` when it ends, ``"blocked"`` when no new verdict came for
    ``step_seconds`` of wall-clock time, ``"late"`` past ``deadline`` (``time.monotonic()``). The worker is
    stopped then."""
    count, last = 0, time.monotonic()
    while process.poll() is None:
        now = time.monotonic()
        written = len(_lines(results))
        if written > count:
            count, last = written, now
        if now - last > step_seconds or now > deadline:
            sandbox.stop(process)
            return "blocked" if now - last > step_seconds else "late"
        time.sleep(0.2)
    sandbox.stop(process)                               # (what the code started and left behind)
    return "ended"


def _waiting(step_id, verdicts):
    """The verdict of a step that was not checked because an earlier step it needs blocked: as ``verdict``
    words it, after the first earlier step that is not done."""
    for earlier_id in STEPS[step_id].needs():
        earlier = verdicts.get(earlier_id)
        if earlier is None or earlier.status == "done":
            continue
        title = _(STEPS[earlier_id].title)
        if earlier.status == "todo":
            return Verdict("todo", _("finish step {step} ({title}) first: it is not done yet.").format(
                step=earlier_id, title=title), waits_for=earlier_id)
        return Verdict("wrong", _("step {step} ({title}) fails its check now: {message}").format(
            step=earlier_id, title=title, message=earlier.message), waits_for=earlier_id)
    return None


def _check(package, run, seed, steps, cpu_seconds, memory_mb, step_seconds):
    """``({step: Verdict}, {step: [what the code did at run time]})`` for ``steps`` and the steps they need,
    checked in that order by workers in the sandbox, each writing into the folder ``run``. A step that gives
    no verdict within ``step_seconds`` of wall-clock time (it waits: a sleep, a lock, ``input()``) is stopped
    and set to 0, and a new worker checks the other steps, but those that need it."""
    environment = dict(os.environ, BUILDTRACK_LANG=language(), OPENBLAS_NUM_THREADS="1",
                       BUILDTRACK_CACHE_DIR=str(run / "cache"), PYTHONDONTWRITEBYTECODE="1",
                       HOME=str(run), TMPDIR="/tmp", HYPOTHESIS_STORAGE_DIRECTORY=str(run / "hypothesis"))
    environment.pop("BUILDTRACK_ANSWERS", None)
    results = run / "results.jsonl"
    steps = [s for s in STEPS if s in steps or any(s in STEPS[t].needs() for t in steps)]    # in order
    verdicts, notes, blocked = {}, {}, []
    deadline = time.monotonic() + cpu_seconds * 3 + 60
    # The CPU limit is for the whole submission. A worker started after a step that blocked gets what is
    # left of it, where what each worker used is taken to be its wall-clock time: an upper bound for
    # checks that run in one thread (on a busy machine a generous one), and the blocked step is charged
    # the step_seconds it waited.
    cpu_left = cpu_seconds
    outcome = "ended"
    while True:
        # Every step but those that blocked or need one that did: a new worker checks the earlier steps again
        # (their verdicts mostly come from the cache), one line each, so that no step waits in silence.
        todo = [s for s in steps if s not in blocked and not set(blocked) & set(STEPS[s].needs())]
        if all(s in verdicts for s in todo) or cpu_left < 1:
            break
        results.unlink(missing_ok=True)
        started = time.monotonic()
        process = sandbox.start(
            [sys.executable, "-m", "buildtrack.grading", "--worker", str(package), str(seed), str(results),
             ",".join(todo)],
            readable=[package, pathlib.Path(__file__).resolve().parent.parent.parent],
            writable=[run], cwd=pathlib.Path(__file__).resolve().parent.parent, env=environment,
            cpu_seconds=int(cpu_left), memory_mb=memory_mb)
        outcome = _watch(process, results, step_seconds, deadline)
        cpu_left -= time.monotonic() - started
        lines = _lines(results)
        for line in lines:
            found = json.loads(line)
            if found["step"] in verdicts:
                continue                                # (checked again by a new worker)
            verdicts[found["step"]] = Verdict(found["status"], found["message"],
                                              culprit_step=found.get("culprit_step"))
            if found["run_time"]:
                notes.setdefault(found["step"], []).extend(found["run_time"])
        if outcome != "blocked" or len(lines) >= len(todo):
            break
        stuck = todo[len(lines)]
        verdicts[stuck] = Verdict("wrong", _("not graded: this step took more than {seconds} s of wall-clock "
                                             "time (it waited or looped).").format(seconds=step_seconds))
        blocked.append(stuck)
    for step_id in steps:
        if step_id not in verdicts and set(blocked) & set(STEPS[step_id].needs()):
            verdicts[step_id] = _waiting(step_id, verdicts)
    if any(s not in verdicts for s in steps):          # (sys.exit(0) or os._exit(0) in a piece, say)
        stopped = Verdict("wrong", _("not graded: the checks of this submission stopped here (the "
                                     "code ended the process, or took more than {seconds} s of CPU or "
                                     "{memory} MB of memory in all, or waited too long).").format(
                                         seconds=cpu_seconds, memory=memory_mb))
        verdicts.update({s: stopped for s in steps if s not in verdicts})
    return verdicts, notes


def grade_one(student, entry, workspace, seed, cpu_seconds, memory_mb, step_seconds=60, steps=None):
    """``(student, {step: Verdict}, {step: [reason]}, seconds)`` for one submission. ``steps``: the steps to
    check, in order (all of them unless given; the tests check a few)."""
    started = time.monotonic()
    steps = list(STEPS) if steps is None else list(steps)
    try:
        package = take(entry, pathlib.Path(workspace) / "submissions" / student)
    except Unreadable as why:
        unread = Verdict("wrong", _("not graded: {why}.").format(why=why))
        return student, {step_id: unread for step_id in steps}, {}, time.monotonic() - started
    if package is None:
        missing = Verdict("wrong", _("no myautograd/ folder with Python files in this submission."))
        return student, {step_id: missing for step_id in steps}, {}, 0.0
    reasons = {step_id: why for step_id, why in screen(package).items() if step_id in steps}
    verdicts = {}
    if len(reasons) < len(steps):                      # (code rejected everywhere is not run at all)
        run = pathlib.Path(workspace) / "runs" / student       # all the worker may write: results, cache
        run.mkdir(parents=True)
        verdicts, notes = _check(package, run, seed, steps, cpu_seconds, memory_mb, step_seconds)
        for step_id, what in notes.items():
            reasons.setdefault(step_id, []).extend(what)
        verdicts = with_blame(verdicts)
    for step_id, why in reasons.items():
        verdicts[step_id] = Verdict("wrong", _("set to 0 by the grader: {reasons}. The grader takes your "
                                               "package's own code only.").format(reasons="; ".join(why)))
    return student, {step_id: verdicts[step_id] for step_id in steps}, reasons, time.monotonic() - started


# ------------------------------------------------------------------ the outputs
def _page(student, verdicts):
    """The student's feedback page."""
    done = sum(v.status == "done" for v in verdicts.values())
    rows = []
    for step_id, result in verdicts.items():
        message = "" if result.status == "done" else f"<pre>{html.escape(result.message)}</pre>"
        rows.append(f"<tr class='{result.status}'><td>{result.mark}</td><td>{step_id}</td>"
                    f"<td>{html.escape(_(STEPS[step_id].title))}</td><td>{message}</td></tr>")
    title = html.escape(_("Build track: {student}").format(student=student))
    summary = html.escape(_("{done} of {total} steps done.").format(done=done, total=len(verdicts)))
    lang = "zh-CN" if language() == "zh" else "en"
    return (f"<!DOCTYPE html>\n<html lang='{lang}'><head><meta charset='utf-8'>"
            f"<title>{title}</title>"
            f"<style>body{{font-family:sans-serif;margin:2em}}"
            f"td{{vertical-align:top;padding:.2em .6em}}pre{{white-space:pre-wrap;margin:0}}"
            f"tr.wrong{{background:#fff0f0}}</style></head><body><h1>{title}</h1><p>{summary}</p>"
            f"<table>{''.join(rows)}</table></body></html>\n")


def write(out, results, seed, limits):
    out = pathlib.Path(out)
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "grades.csv", "w", newline="") as table:
        writer = csv.writer(table)
        writer.writerow(["student", *STEPS, "total", "seconds"])
        for student, verdicts, _reasons, seconds in results:
            marks = [int(verdicts[s].status == "done") for s in STEPS]
            writer.writerow([student, *marks, sum(marks), f"{seconds:.1f}"])
    for student, verdicts, reasons, seconds in results:
        (out / f"{student}.json").write_text(json.dumps({
            "student": student, "seconds": round(seconds, 1),
            "steps": {s: {"status": v.status, "done": int(v.status == "done"), "message": v.message}
                      for s, v in verdicts.items()},
            "set_to_zero": reasons}, indent=1, ensure_ascii=False) + "\n")
        (out / f"{student}.html").write_text(_page(student, verdicts))
    (out / "grading.json").write_text(json.dumps({
        "seed": seed, "language": language(), "students": len(results),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"), **limits},
        indent=1) + "\n")


def _grade_one_safely(student, *arguments):
    """``grade_one``, and a verdict of "not graded" for whatever the grader itself could not handle: one
    submission never stops the class's grades."""
    try:
        return grade_one(student, *arguments)
    except Exception as error:
        failed = Verdict("wrong", _("not graded: the grader could not handle this submission ({error_type}: "
                                    "{error}); tell your teacher.").format(error_type=type(error).__name__,
                                                                          error=error))
        return student, {step_id: failed for step_id in STEPS}, {}, 0.0


def grade(submissions, out, jobs=None, seed=None, cpu_seconds=600, memory_mb=3000, on_done=None,
          step_seconds=60):
    """Grade every entry of ``submissions`` into ``out``; returns the results, in the entries' order.
    ``on_done(result)``: called as each submission is graded."""
    seed = random.randrange(2**31) if seed is None else seed
    jobs = jobs or os.cpu_count() or 1
    found = entries(submissions)
    results = {}
    with tempfile.TemporaryDirectory() as workspace, \
            concurrent.futures.ThreadPoolExecutor(jobs) as pool:     # (threads that wait on processes)
        futures = [pool.submit(_grade_one_safely, student, entry, workspace, seed, cpu_seconds,
                               memory_mb, step_seconds) for student, entry in found]
        for future in concurrent.futures.as_completed(futures):
            result = future.result()
            results[result[0]] = result
            if on_done is not None:
                on_done(result)
    results = [results[student] for student, _entry in found]
    write(out, results, seed, {"cpu_seconds": cpu_seconds, "memory_mb": memory_mb,
                               "step_seconds": step_seconds, "jobs": jobs, "sandbox": sandbox.kind()})
    return results


def _print_result(result):
    student, verdicts, _reasons, seconds = result
    done = sum(v.status == "done" for v in verdicts.values())
    print(f"{student}: {done}/{len(verdicts)} ({seconds:.0f} s)", flush=True)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m buildtrack grade", description=_(
        "Grade every student's build track: one folder or .zip per student in SUBMISSIONS; grades.csv, one "
        ".json and one .html page per student, and grading.json in OUT."))
    parser.add_argument("submissions")
    parser.add_argument("--out", required=True)
    parser.add_argument("--jobs", type=int, default=None, help=_("submissions checked at once (default: "
                                                                  "the machine's cores)"))
    parser.add_argument("--seed", type=int, default=None, help=_("the random programs' seed (default: a "
                                                                  "new one, written into grading.json)"))
    parser.add_argument("--lang", choices=["en", "zh"], default=None, help=_("the feedback's language"))
    parser.add_argument("--cpu-seconds", type=int, default=600, help=_("CPU time per submission"))
    parser.add_argument("--memory-mb", type=int, default=3000, help=_("memory per submission"))
    parser.add_argument("--step-seconds", type=int, default=60, help=_(
        "wall-clock seconds a step may take: a step that waits longer (a sleep, a lock, input()) is stopped "
        "and set to 0, and the steps after it are checked in a new process (default: 60)"))
    arguments = parser.parse_args(argv)
    if arguments.lang:
        os.environ["BUILDTRACK_LANG"] = arguments.lang
    print(_("Each submission runs in a sandbox: {kind}.").format(kind=sandbox.kind()), flush=True)
    grade(arguments.submissions, arguments.out, arguments.jobs, arguments.seed, arguments.cpu_seconds,
          arguments.memory_mb, on_done=_print_result, step_seconds=arguments.step_seconds)
    print(_("Grades written to {out}").format(out=arguments.out))
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--worker"]:                  # PACKAGE SEED RESULTS STEPS (01.1,01.2,...)
        worker(sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5].split(","))
    else:
        sys.exit(main())
