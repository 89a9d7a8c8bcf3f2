"""The project's own cross-check programs, run on your myautograd and on mini_autograd, compared.

The course's tests hold mini_autograd to PyTorch 2.13 with hundreds of small torch programs (the files
``tests/*_vs_torch.py``, the seed articles' snippets, the nan/inf sweep). Those that the finished build track
can run are stored in ``corpus.json``, each tagged with the step from which your package has every piece it
needs (``tools/buildtrack_corpus.py`` writes the file). A step's check runs the programs of its tag on your
package and on mini_autograd and compares all they show: what they print, the warnings, the error raised and
its message, and the values they record. A situation added to test mini_autograd then tests you too.

A program that differs is made smaller (its statements dropped one at a time while it still differs) and
shown, runnable, with the first line of output that differs and the piece at fault.
"""
import ast
import builtins
import contextlib
import functools
import io
import json
import math
import pathlib
import re
import textwrap
import warnings

import mini_autograd
from .i18n import _
from .package import Wrong
from .swap import answer_pieces, swapped

CORPUS_FILE = pathlib.Path(__file__).with_name("corpus.json")
ADDRESS = re.compile(r"0x[0-9a-fA-F]+")
RTOL, ATOL = 1e-5, 1e-6          # for recorded values, as tests/crosscheck.py compares them

# The helpers the cross-check programs may call (tests/crosscheck.py defines the same ones).
HELPERS = {
    "edges": '''def edges(node):
    """node.next_functions as [(name or None, input_nr), ...]"""
    return [(None if f is None else f.name(), i) for f, i in node.next_functions]
''',
    "node": '''def node(tensor):
    """None, or tensor.grad_fn as (name, edges)"""
    f = tensor.grad_fn
    return None if f is None else (f.name(), edges(f))
''',
    "walk": '''def walk(root, _depth=0):
    """Print the backward graph under root (a tensor or a node), depth first."""
    node = root.grad_fn if hasattr(root, "grad_fn") else root
    if node is None:
        print("  " * _depth + "None")
        return
    line = "  " * _depth + node.name()
    if hasattr(node, "variable"):
        line += " " + str(tuple(node.variable.shape))
    print(line)
    for child, _ in node.next_functions:
        walk(child, _depth + 1)
''',
}


@functools.cache
def programs():
    """``{step: [(test, code)]}``: the stored programs, by the step that first runs them."""
    by_step = {}
    for entry in json.loads(CORPUS_FILE.read_text())["programs"]:
        by_step.setdefault(entry["step"], []).append((entry["test"], entry["code"]))
    return by_step


# ------------------------------------------------------------------ running one program
def _importer(module):
    """An ``__import__`` under which ``import torch`` (and ``torch.nn``, ...) gives ``module``."""
    def snippet_import(name, globals=None, locals=None, fromlist=(), level=0):
        if level == 0 and (name == "torch" or name.startswith("torch.")):
            name = module.__name__ + name[len("torch"):]
        return builtins.__import__(name, globals, locals, fromlist, level)
    return snippet_import


def _portable(value):
    """A recorded value as plain Python: ``("tensor", dtype, shape, nested lists)``, a number, or None."""
    if hasattr(value, "tolist") and hasattr(value, "shape"):
        return ("tensor", str(getattr(value, "dtype", "")), tuple(value.shape), value.detach().tolist())
    if isinstance(value, (list, tuple)):
        return [_portable(item) for item in value]
    return value


def outcome(code, module):
    """What running ``code`` with ``torch`` bound to ``module`` shows: ``{"stdout", "warnings", "error",
    "records"}`` (memory addresses masked; an error is ``(type name, message)``)."""
    records = []
    namespace = {"__builtins__": {**vars(builtins), "__import__": _importer(module)},
                 "__name__": "__snippet__", "torch": module,
                 "record": lambda label, value: records.append((label, _portable(value)))}
    for helper in HELPERS.values():
        exec(helper, namespace)
    out, error = io.StringIO(), None
    enabled = _grad_mode(module)
    with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(out):
        warnings.simplefilter("always")
        try:
            exec(compile(code, "<program>", "exec"), namespace)
        except Exception as exc:                           # the program's error is part of what it shows
            error = (type(exc).__name__, ADDRESS.sub("0x...", str(exc)))
        finally:                                           # a program's set_grad_enabled(False) ends with it
            if enabled is not None:
                with contextlib.suppress(Exception):
                    module.set_grad_enabled(enabled)
    return {"stdout": ADDRESS.sub("0x...", out.getvalue()),
            "warnings": [(w.category.__name__, ADDRESS.sub("0x...", str(w.message))) for w in caught],
            "error": error, "records": records}


def _grad_mode(module):
    """``module.is_grad_enabled()``, or None where that is not written yet."""
    try:
        return module.is_grad_enabled()
    except Exception:
        return None


def _same_value(a, b):
    if isinstance(a, tuple) and isinstance(b, tuple) and a[:1] == b[:1] == ("tensor",):
        return a[1:3] == b[1:3] and _same_value(a[3], b[3])
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same_value(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) and isinstance(b, float) and not (math.isnan(a) or math.isnan(b)):
        return math.isclose(a, b, rel_tol=RTOL, abs_tol=ATOL) and math.copysign(1, a) == math.copysign(1, b)
    return type(a) is type(b) and (a == b or a != a and b != b)


def agree(mine, theirs):
    """Do two outcomes show the same (recorded values within float32's rounding, signs of zero too)?"""
    return (mine["stdout"] == theirs["stdout"] and mine["warnings"] == theirs["warnings"]
            and mine["error"] == theirs["error"] and len(mine["records"]) == len(theirs["records"])
            and all(la == lb and _same_value(a, b)
                    for (la, a), (lb, b) in zip(mine["records"], theirs["records"], strict=True)))


# ------------------------------------------------------------------ the check
def check_step(package, the_step):
    """Run the programs tagged ``the_step``; raise ``Wrong`` with the smallest one that differs."""
    differing = []
    for test, code in programs().get(the_step.id, ()):
        theirs = outcome(code, mini_autograd)
        if not agree(outcome(code, package), theirs):
            differing.append((code, test))
    if not differing:
        return
    code, test = min(differing, key=lambda found: (len(_statements(found[0])), len(found[0])))
    code = smallest(code, package)
    piece = culprit(code, package, the_step.id)
    error = Wrong(message(code, test, outcome(code, package), outcome(code, mini_autograd), piece))
    error.differential, error.culprit = True, piece
    raise error


def _statements(code):
    tree = ast.parse(textwrap.dedent(code))
    return [ast.get_source_segment(textwrap.dedent(code), statement) for statement in tree.body]


def smallest(code, package):
    """``code`` with each statement dropped, last first, while mini_autograd still runs it to the same
    kind of end (the same error, or none) and your package still shows something else."""
    statements = _statements(code)
    ends = outcome(code, mini_autograd)["error"]
    index = len(statements) - 1
    while index >= 0 and len(statements) > 1:
        fewer = statements[:index] + statements[index + 1:]
        candidate = "\n".join(fewer)
        theirs = outcome(candidate, mini_autograd)
        if ((theirs["error"] or (None,))[0] == (ends or (None,))[0]
                and (theirs["stdout"] or theirs["records"] or theirs["error"])
                and not agree(outcome(candidate, package), theirs)):
            statements = fewer
        index -= 1
    return "\n".join(statements)


def culprit(code, package, step_id):
    """``(piece, step)``: your piece, up to ``step_id`` and newest first, whose answer-key version makes
    ``code`` agree, or None."""
    theirs = outcome(code, mini_autograd)
    for file, name, step in sorted(answer_pieces(step_id), key=lambda piece: piece[2], reverse=True):
        try:
            with swapped(package, file, name):
                agrees = agree(outcome(code, package), theirs)
        except Exception:
            continue
        if agrees:
            return name, step
    return None


# ------------------------------------------------------------------ the message
IMPORTS = ((re.compile(r"^(\s*)import torch$", re.M), r"\1import myautograd as torch"),
           (re.compile(r"^(\s*)import torch\.(\w+) as (\w+)$", re.M), r"\1import myautograd.\2 as \3"),
           (re.compile(r"^(\s*)from torch(\.\w+)? import", re.M), r"\1from myautograd\2 import"))


def runnable(code):
    """``code`` as a program you can run: myautograd imported as torch, the helpers it calls defined."""
    for pattern, replacement in IMPORTS:
        code = pattern.sub(replacement, code)
    used = [name for name in HELPERS if re.search(rf"\b{name}\(", code)]
    if "node" in used and "edges" not in used:
        used.insert(0, "edges")
    header = ["import myautograd as torch"] + [HELPERS[name] for name in HELPERS if name in used]
    if re.search(r"\brecord\(", code):
        header.append("def record(label, value):\n    print(label, value)\n")
    return "\n".join(header) + "\n" + code.strip("\n")


def _first_difference(mine, theirs):
    """``(what, yours, mini_autograd's)`` for the first thing the two outcomes show differently."""
    a, b = mine["stdout"].splitlines(), theirs["stdout"].splitlines()
    for index in range(max(len(a), len(b))):
        yours, reference = (a[index] if index < len(a) else None), (b[index] if index < len(b) else None)
        if yours != reference:
            return (_("printed line {n}").format(n=index + 1),
                    _("(nothing)") if yours is None else repr(yours),
                    _("(nothing)") if reference is None else repr(reference))
    if mine["error"] != theirs["error"]:
        return (_("the error"), _("none") if mine["error"] is None else "{}: {}".format(*mine["error"]),
                _("none") if theirs["error"] is None else "{}: {}".format(*theirs["error"]))
    if mine["warnings"] != theirs["warnings"]:
        return (_("the warnings"), repr(mine["warnings"]) or _("none"), repr(theirs["warnings"]) or _("none"))
    for (label, yours), (_label, reference) in zip(mine["records"], theirs["records"], strict=False):
        if not _same_value(yours, reference):
            return (_("the value recorded as {label!r}").format(label=label), repr(yours), repr(reference))
    return _("the values recorded"), repr(mine["records"]), repr(theirs["records"])


def message(code, test, mine, theirs, piece):
    """The verdict's words: the program (from which test), what differs first, and the piece at fault."""
    what, yours, reference = _first_difference(mine, theirs)
    source = runnable(code).split("\n")
    width = len(str(len(source)))
    lines = [_("a program from the course's own tests ({test}, where mini_autograd prints what PyTorch 2.13 "
               "prints) gives a different result on your myautograd; made as small as it goes, it is:")
             .format(test=test), ""]
    lines += [f"    {number:>{width}}  {line}" for number, line in enumerate(source, start=1)]
    lines += ["", _("    {what}: yours {yours}; mini_autograd {reference}").format(
        what=what, yours=yours, reference=reference)]
    if piece is not None:
        name, step = piece
        lines += ["", _("The piece at fault: {name} (step {step}): with the answer key's {name} "
                        "instead of yours, this program agrees.").format(name=name, step=step)]
    return "\n".join(lines)
