"""Run the same torch program under PyTorch and under mini_autograd, and compare.

A *snippet* is a short Python program written against the torch API.  It is
executed with the name ``torch`` bound to a module (real ``torch`` or
``mini_autograd``); ``import torch`` / ``import torch.nn as nn`` /
``from torch import nn`` inside the snippet resolve to that same module (and
its submodules), so seed code runs verbatim.

``run_snippet(code, module)`` returns what a reader would see:

* ``stdout``: everything printed;
* ``warnings``: ``(category name, message)`` for every warning, in order
  (the filter is ``"always"``, so repeated warnings are all recorded);
* ``error``: ``None`` or ``(exception type name, message)`` for the exception
  that ended the snippet (whatever was printed before it is kept);
* ``records``: values passed to ``record(label, value)`` (see below).

Memory addresses (``0x7f...``) are masked to ``0x...`` everywhere: they are the
one thing that legitimately differs between two runs.

``assert_same(code)`` runs the snippet under both libraries and asserts that
stdout, warnings, the exception type and the exception message are equal, and
that recorded values agree to a float tolerance.  On failure it shows the
snippet and both outcomes side by side.

Helpers available inside every snippet (plain Python over the torch API, so
they behave identically under both libraries):

* ``edges(node)``: a node's ``next_functions`` as ``[(name or None, input_nr)]``;
* ``node(tensor)``: ``None``, or its ``grad_fn`` as ``(name, edges(grad_fn))``;
* ``walk(tensor_or_node)``: prints the backward graph depth first, one node a
  line, indented, ``AccumulateGrad`` nodes with the shape of their variable;
* ``record(label, value)``: keep a tensor / number / None to compare with a
  tolerance (``rtol=1e-5, atol=1e-6``) instead of through printed text.
"""
from __future__ import annotations

import builtins
import contextlib
import io
import math
import re
import traceback
import warnings
from collections.abc import Callable

ADDRESS = re.compile(r"0x[0-9a-fA-F]+")

# PyTorch appends the C++ source location to warnings raised from C++
# (" (Triggered internally at /__w/pytorch/.../TensorBody.h:493.)").  That is a
# build path inside PyTorch, not part of the message a numpy engine can or
# should reproduce, so it is removed before comparing.
TRIGGERED_INTERNALLY = re.compile(r"\s*\(Triggered internally at [^\n]*\)\s*$")

RTOL = 1e-5
ATOL = 1e-6

HELPERS = '''
def edges(node):
    """node.next_functions as [(name or None, input_nr), ...]"""
    return [(None if f is None else f.name(), i) for f, i in node.next_functions]


def node(tensor):
    """None, or tensor.grad_fn as (name, edges)"""
    f = tensor.grad_fn
    return None if f is None else (f.name(), edges(f))


def walk(root, _depth=0):
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
'''


def mask(text: str) -> str:
    """Mask memory addresses, the one legitimate run-to-run difference."""
    return ADDRESS.sub("0x...", text)


def _importer(module):
    """An ``__import__`` that resolves ``torch`` and ``torch.*`` to ``module``."""
    real_import = builtins.__import__
    target = module.__name__

    def snippet_import(name, globals=None, locals=None, fromlist=(), level=0):
        if level == 0 and (name == "torch" or name.startswith("torch.")):
            name = target + name[len("torch"):]
        return real_import(name, globals, locals, fromlist, level)

    return snippet_import


def _portable(value):
    """A recorded value as plain Python: nested lists of floats, a number, or None."""
    if value is None or isinstance(value, (bool, int, float)):
        return value
    if hasattr(value, "tolist"):
        dtype = str(getattr(value, "dtype", ""))
        return ("tensor", dtype, tuple(value.shape), value.detach().tolist())
    if isinstance(value, (list, tuple)):
        return [_portable(v) for v in value]
    raise TypeError(f"record() cannot keep a {type(value).__name__}")


def run_snippet(code: str, module) -> dict:
    """Execute ``code`` with ``torch`` bound to ``module``; return what it showed."""
    snippet_builtins = dict(vars(builtins))
    snippet_builtins["__import__"] = _importer(module)
    records: list = []

    def record(label, value):
        records.append((label, _portable(value)))

    namespace = {"__builtins__": snippet_builtins, "__name__": "__snippet__",
                 "torch": module, "record": record}
    exec(compile(HELPERS, "<crosscheck helpers>", "exec"), namespace)

    out = io.StringIO()
    error = None
    tb = None
    # torch.set_grad_enabled(False) called as a function changes a global
    # mode; put it back so one snippet cannot leak into the next.
    is_enabled = getattr(module, "is_grad_enabled", None)
    grad_mode_before = is_enabled() if callable(is_enabled) else None
    # PyTorch raises some warnings only once per process (TORCH_WARN_ONCE,
    # e.g. backward(create_graph=True)'s reference-cycle warning), so what a
    # snippet shows would depend on which tests ran before it.  A snippet is
    # compared as if it ran in a fresh process: warn-always on the torch side,
    # the "always" filter on both sides.
    warn_always_before = None
    if module.__name__ == "torch" and hasattr(module, "set_warn_always"):
        warn_always_before = module.is_warn_always_enabled()
        module.set_warn_always(True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with contextlib.redirect_stdout(out):
            try:
                exec(compile(code, "<snippet>", "exec"), namespace)
            except Exception as exc:  # the snippet's own error is part of its output
                error = (type(exc).__name__, mask(str(exc)))
                tb = "".join(traceback.format_exception(exc))
            finally:
                if grad_mode_before is not None:
                    module.set_grad_enabled(grad_mode_before)
                if warn_always_before is not None:
                    module.set_warn_always(warn_always_before)
    return {
        "stdout": mask(out.getvalue()),
        "warnings": [(w.category.__name__, mask(TRIGGERED_INTERNALLY.sub("", str(w.message))))
                     for w in caught],
        "error": error,
        "traceback": tb,
        "records": records,
    }


# ---------------------------------------------------------------------------
# message comparison policies


def full(message: str) -> str:
    """Compare the whole message (the default)."""
    return message


def first_sentence(message: str) -> str:
    """Compare up to and including the first '.' that ends a sentence."""
    m = re.search(r"\.(\s|$)", message)
    return message[: m.start() + 1] if m else message


def until(marker: str) -> Callable[[str], str]:
    """Compare the message up to (not including) ``marker``; all of it if absent."""

    def policy(message: str) -> str:
        return message.split(marker, 1)[0]

    policy.__name__ = f"until({marker!r})"
    return policy


def prefix(text: str) -> Callable[[str], str]:
    """Require the message to start with ``text`` (the rest is not compared)."""

    def policy(message: str) -> str:
        return text if message.startswith(text) else message

    policy.__name__ = f"prefix({text!r})"
    return policy


# ---------------------------------------------------------------------------
# comparing two outcomes


def _same_records(a, b, tolerance=(RTOL, ATOL), float32_tolerance=None) -> bool:
    """Recorded values equal within ``tolerance`` (rtol, atol); float32 tensors within
    ``float32_tolerance`` when it is given."""
    if isinstance(a, tuple) and isinstance(b, tuple) and a[:1] == b[:1] == ("tensor",):
        if a[1:3] != b[1:3]:
            return False
        if float32_tolerance is not None and "float32" in a[1]:
            tolerance = float32_tolerance
        return _same_records(a[3], b[3], tolerance, float32_tolerance)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same_records(x, y, tolerance, float32_tolerance)
                                        for x, y in zip(a, b, strict=True))
    if isinstance(a, bool) or isinstance(b, bool) or a is None or b is None:
        return a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return math.isclose(a, b, rel_tol=tolerance[0], abs_tol=tolerance[1])
    return a == b


def _side_by_side(left: str, right: str, titles=("torch", "mini_autograd")) -> str:
    """Two texts in columns, '!' marking differing lines; stacked when too wide."""
    a, b = left.splitlines(), right.splitlines()
    width = max([len(titles[0])] + [len(s) for s in a]) + 2
    if width > 72:  # too wide for columns: line pairs, one above the other
        rows = []
        for i in range(max(len(a), len(b))):
            x = a[i] if i < len(a) else "<missing>"
            y = b[i] if i < len(b) else "<missing>"
            if x == y:
                rows.append(f"  {'both':<13}: {x}")
            else:
                rows.append(f"! {titles[0]:<13}: {x}")
                rows.append(f"! {titles[1]:<13}: {y}")
        return "\n".join(rows)
    rows = [f"  {titles[0]:<{width}}   {titles[1]}", f"  {'-' * width}   {'-' * max(8, width)}"]
    for i in range(max(len(a), len(b))):
        x = a[i] if i < len(a) else "<missing>"
        y = b[i] if i < len(b) else "<missing>"
        mark = " " if x == y else "!"
        rows.append(f"{mark} {x:<{width}} | {y}")
    return "\n".join(rows)


def describe(code: str, ref: dict, got: dict, problems: list[str]) -> str:
    """A failure message: what differs, the snippet, and both outcomes side by side."""
    parts = ["snippet differs from PyTorch: " + "; ".join(problems), "", "snippet:"]
    parts += ["    " + line for line in code.strip("\n").splitlines()]
    parts += ["", "stdout:", _side_by_side(ref["stdout"], got["stdout"])]
    if ref["warnings"] or got["warnings"]:
        parts += ["", "warnings:", _side_by_side("\n".join(map(repr, ref["warnings"])),
                                                 "\n".join(map(repr, got["warnings"])))]
    parts += ["", "error:", f"  torch:         {ref['error']!r}", f"  mini_autograd: {got['error']!r}"]
    if ref["records"] or got["records"]:
        parts += ["", "records:", _side_by_side("\n".join(map(repr, ref["records"])),
                                                "\n".join(map(repr, got["records"])))]
    if got["traceback"] and got["error"] != ref["error"]:
        parts += ["", "mini_autograd traceback:", got["traceback"]]
    return "\n".join(parts)


def compare(code: str, ref: dict, got: dict, message: Callable[[str], str] = full, *,
            warning_messages=True, tolerance=(RTOL, ATOL), float32_tolerance=None) -> list[str]:
    """The list of differences between two outcomes (empty when they agree).

    ``message`` chooses what part of an exception's message must agree; without
    ``warning_messages`` only the warnings' categories are compared.
    """
    problems = []
    if ref["stdout"] != got["stdout"]:
        problems.append("stdout")
    def shown(warnings_list):
        return warnings_list if warning_messages else [category for category, _ in warnings_list]
    if shown(ref["warnings"]) != shown(got["warnings"]):
        problems.append("warnings")
    ref_err, got_err = ref["error"], got["error"]
    if (ref_err is None) != (got_err is None):
        problems.append("one raised, the other did not")
    elif ref_err is not None:
        if ref_err[0] != got_err[0]:
            problems.append("exception type")
        if message(ref_err[1]) != message(got_err[1]):
            problems.append(f"exception message ({getattr(message, '__name__', 'policy')})")
    if len(ref["records"]) != len(got["records"]) or not all(
            la == lb and _same_records(va, vb, tolerance, float32_tolerance)
            for (la, va), (lb, vb) in zip(ref["records"], got["records"], strict=True)):
        problems.append("recorded values")
    return problems


def reference_outcome(code: str, error: str | None = None) -> dict:
    """Run under real PyTorch and check the snippet is a sound test case.

    A case must print something or raise the error it was written for; a case
    that raises where none was intended (or another error) is a broken test,
    reported as such rather than as a mini_autograd failure.
    """
    import pytest

    torch = pytest.importorskip("torch")
    ref = run_snippet(code, torch)
    raised = ref["error"][0] if ref["error"] else None
    if raised != error:
        raise AssertionError(
            f"broken test case: under PyTorch it raised {ref['error']!r}, expected {error!r}\n"
            + (ref["traceback"] or ""))
    if error is None and not ref["stdout"] and not ref["records"]:
        raise AssertionError("broken test case: prints nothing under PyTorch")
    return ref


def assert_same(code: str, *, error: str | None = None,
                message: Callable[[str], str] = full) -> dict:
    """Run ``code`` under PyTorch and mini_autograd; assert they show the same.

    ``error``: the exception type name the snippet is meant to raise under
    PyTorch (``None``: it must not raise).  ``message``: how much of the
    exception message to compare (``full``, ``first_sentence``, ``prefix(...)``).
    Returns PyTorch's outcome.
    """
    ref = reference_outcome(code, error)
    import mini_autograd

    got = run_snippet(code, mini_autograd)
    problems = compare(code, ref, got, message)
    if problems:
        raise AssertionError(describe(code, ref, got, problems))
    return ref
