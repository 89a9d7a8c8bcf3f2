"""The public PyTorch programs a learner runs after the course, under PyTorch and under mini_autograd.

Each program in ``tests/tutorial_programs/`` (see the README there) runs twice:
with ``import torch`` bound to real PyTorch and to ``mini_autograd``
(``crosscheck.run_snippet``), each drawing its own random numbers: mini_autograd's
are PyTorch's (tests/test_rng_vs_torch.py), so the same seed gives the same data,
initial weights, dropout masks and ``DataLoader`` shuffles. Both runs start from
``manual_seed(0)`` and ``random.seed(0)`` (see ``run_program``). What they print
must then agree: the same text, with every number equal to a relative 1e-4 or an
absolute 1e-5 (float32 arithmetic rounds differently in numpy and in PyTorch's
kernels, and long training loops carry that into the last printed digits; a column
of a printed tensor may be padded differently when a number near zero changes
sign), the same warnings and the same errors. A program whose numbers need more
says so, and why, in a line ``# compare: atol=...``.
"""
import contextlib
import math
import pathlib
import random
import re

import pytest

try:
    from crosscheck import run_snippet
except ImportError:  # tests/ made a package
    from tests.crosscheck import run_snippet

torch = pytest.importorskip("torch")
import mini_autograd  # noqa: E402

PROGRAMS = sorted((pathlib.Path(__file__).parent / "tutorial_programs").glob("*.py"))
NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")
RTOL, ATOL = 1e-4, 1e-5


# ------------------------------------------------------------------ running a program
def run_program(code, library):
    """Run ``code`` with ``import torch`` bound to ``library``, both from the same starting state:
    ``manual_seed(0)``, since PyTorch seeds its default generator from the operating system in each
    process (a program that does not seed draws other numbers in two runs of PyTorch itself), and
    Python's ``random.seed(0)`` (dynamic_net draws its depth with Python's ``random``). Nothing
    else is shared: each library draws its own numbers, PyTorch's."""
    library.manual_seed(0)
    random.seed(0)
    with one_thread(library):
        return run_snippet(code, library)


@contextlib.contextmanager
def one_thread(library):
    """PyTorch on one thread: with more, its matrix products may use as many threads as happen to be
    free (MKL's dynamic threading), which changes their float32 rounding from run to run; a jumpy
    optimiser (Adam) then makes two runs of the same program part."""
    if library.__name__ != "torch":
        yield
        return
    threads = library.get_num_threads()
    library.set_num_threads(1)
    try:
        yield
    finally:
        library.set_num_threads(threads)


# ------------------------------------------------------------------ comparing what they print
def last_place(*numbers):
    """One unit in the last printed decimal place (1e-5 for ``0.00461``): two values that agree to the
    tolerance can still round to neighbouring last digits (0.004605 prints as 0.00461 or 0.00460)."""
    decimals = [len(n.split(".")[1]) for n in numbers if "." in n and "e" not in n.lower()]
    return 1.001 * 10.0 ** -max(decimals) if decimals else 0.0


def same_text(a, b, rtol=RTOL, atol=ATOL):
    """Equal apart from numbers, and every number equal to a tolerance. Returns the first difference."""
    lines_a, lines_b = a.splitlines(), b.splitlines()
    if len(lines_a) != len(lines_b):
        return f"{len(lines_a)} lines vs {len(lines_b)} lines"
    for line_a, line_b in zip(lines_a, lines_b, strict=True):
        if " ".join(NUMBER.sub("#", line_a).split()) != " ".join(NUMBER.sub("#", line_b).split()):
            return f"{line_a!r}\n  vs {line_b!r}"
        for x, y in zip(NUMBER.findall(line_a), NUMBER.findall(line_b), strict=True):
            if not math.isclose(float(x), float(y), rel_tol=rtol, abs_tol=max(atol, last_place(x, y))):
                return f"{x} vs {y} in\n  {line_a!r}\n  {line_b!r}"
    return None


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_program_prints_what_pytorch_prints(path):
    code = path.read_text()
    if "import matplotlib" in code:
        pytest.importorskip("matplotlib")      # the course extra installs it; the test extra need not
    ref = run_program(code, torch)
    assert ref["error"] is None, f"the program fails under PyTorch:\n{ref['traceback']}"
    got = run_program(code, mini_autograd)
    assert got["error"] is None, f"the program fails under mini_autograd:\n{got['traceback']}"
    tolerance = re.search(r"^# compare: atol=(\S+)", code, re.M)      # a program's own, with its reason
    atol = float(tolerance.group(1)) if tolerance else ATOL
    difference = same_text(ref["stdout"], got["stdout"], atol=atol)
    assert difference is None, f"{path.name} prints differently:\n  {difference}"
    assert [w[0] for w in ref["warnings"]] == [w[0] for w in got["warnings"]], (
        ref["warnings"], got["warnings"])
    for (_, message_a), (_, message_b) in zip(ref["warnings"], got["warnings"], strict=True):
        assert same_text(message_a, message_b) is None, (message_a, message_b)


def test_programs_are_there():
    assert len(PROGRAMS) >= 30


def test_same_text_tolerates_rounding_only():
    assert same_text("loss 1.2345678 at step 3", "loss 1.2345679 at step 3") is None
    assert same_text("loss 1.2345678", "loss 1.3345678") is not None
    assert same_text("tensor([1., 2.])", "tensor([1., 2.], grad_fn=<X>)") is not None
