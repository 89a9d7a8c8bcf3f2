"""The public PyTorch programs a learner runs after the course, under PyTorch and under mini_autograd.

Each program in ``tests/tutorial_programs/`` (see the README there) runs twice:
with ``import torch`` bound to real PyTorch and to ``mini_autograd``
(``crosscheck.run_snippet``). Both runs draw the *same* random numbers: while a
program runs, ``randn``/``rand`` and the initialisers ``nn.Linear`` uses
(``nn.init.kaiming_uniform_``/``uniform_``, ``Tensor.uniform_``) draw from one
seeded numpy generator, and Python's ``random`` is seeded the same way. What
they print must then agree: the same text, with every number equal to a
relative 1e-4 or an absolute 1e-5 (long float32 training loops round
differently in the last digits; a column of a printed tensor may be padded
differently when a number near zero changes sign), the same warnings and the
same errors.
"""
import contextlib
import math
import pathlib
import random
import re

import numpy as np
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


# ------------------------------------------------------------------ the same random numbers
def _shape(size, size_kw):
    if size_kw is not None:
        return tuple(size_kw) if isinstance(size_kw, (tuple, list)) else (size_kw,)
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        return tuple(size[0])
    return tuple(int(s) for s in size)


@contextlib.contextmanager
def same_random_numbers(library, seed=0):
    """Make ``library``'s random tensors come from one numpy generator seeded with ``seed``."""
    rng = np.random.default_rng(seed)
    random.seed(seed)
    init = library.nn.init

    def make(values, dtype, requires_grad):
        dtype = library.float32 if dtype is None else dtype
        return library.tensor(values.tolist() if values.ndim else float(values), dtype=dtype,
                              requires_grad=requires_grad)

    def randn(*size, dtype=None, device=None, requires_grad=False, generator=None, size_=None, **kw):
        return make(rng.standard_normal(_shape(size, kw.pop("size", size_))), dtype, requires_grad)

    def rand(*size, dtype=None, device=None, requires_grad=False, generator=None, size_=None, **kw):
        return make(rng.random(_shape(size, kw.pop("size", size_))), dtype, requires_grad)

    def fill(tensor, values):
        with library.no_grad():
            data = values.tolist() if values.ndim else float(values)
            tensor.copy_(library.tensor(data, dtype=tensor.dtype))
        return tensor

    def uniform_(tensor, a=0.0, b=1.0, generator=None):
        return fill(tensor, rng.uniform(a, b, tuple(tensor.shape)))

    def tensor_uniform_(self, a=0.0, b=1.0, generator=None):
        return self.copy_(library.tensor(rng.uniform(a, b, tuple(self.shape)).tolist(), dtype=self.dtype))

    def kaiming_uniform_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
        fan_in, fan_out = init._calculate_fan_in_and_fan_out(tensor)
        fan = fan_in if mode == "fan_in" else fan_out
        bound = math.sqrt(3.0) * init.calculate_gain(nonlinearity, a) / math.sqrt(fan)
        return uniform_(tensor, -bound, bound)

    def manual_seed(value):
        nonlocal rng
        rng = np.random.default_rng(int(value))

    patches = [(library, "randn", randn), (library, "rand", rand), (library, "manual_seed", manual_seed),
               (init, "uniform_", uniform_), (init, "kaiming_uniform_", kaiming_uniform_),
               (library.Tensor, "uniform_", tensor_uniform_)]
    missing = object()
    saved = [(owner, name, vars(owner).get(name, missing)) for owner, name, _ in patches]
    try:
        for owner, name, value in patches:
            setattr(owner, name, value)
        yield
    finally:
        for owner, name, value in saved:
            if value is missing:
                delattr(owner, name)          # it was inherited: uncover the inherited one
            else:
                setattr(owner, name, value)


def run_program(code, library):
    with same_random_numbers(library):
        return run_snippet(code, library)


# ------------------------------------------------------------------ comparing what they print
def same_text(a, b, rtol=RTOL, atol=ATOL):
    """Equal apart from numbers, and every number equal to a tolerance. Returns the first difference."""
    lines_a, lines_b = a.splitlines(), b.splitlines()
    if len(lines_a) != len(lines_b):
        return f"{len(lines_a)} lines vs {len(lines_b)} lines"
    for line_a, line_b in zip(lines_a, lines_b, strict=True):
        if " ".join(NUMBER.sub("#", line_a).split()) != " ".join(NUMBER.sub("#", line_b).split()):
            return f"{line_a!r}\n  vs {line_b!r}"
        for x, y in zip(NUMBER.findall(line_a), NUMBER.findall(line_b), strict=True):
            if not math.isclose(float(x), float(y), rel_tol=rtol, abs_tol=atol):
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
    difference = same_text(ref["stdout"], got["stdout"])
    assert difference is None, f"{path.name} prints differently:\n  {difference}"
    assert [w[0] for w in ref["warnings"]] == [w[0] for w in got["warnings"]], (
        ref["warnings"], got["warnings"])
    for (_, message_a), (_, message_b) in zip(ref["warnings"], got["warnings"], strict=True):
        assert same_text(message_a, message_b) is None, (message_a, message_b)


def test_programs_are_there():
    assert len(PROGRAMS) >= 15


def test_same_random_numbers_in_both_libraries():
    results = []
    for library in (torch, mini_autograd):
        with same_random_numbers(library, seed=3):
            layer = library.nn.Linear(3, 2)
            results.append((library.randn(2, 3).tolist(), library.rand(size=(2,)).tolist(),
                            layer.weight.tolist(), layer.bias.tolist(), random.random()))
    assert np.allclose(np.array(results[0][0]), np.array(results[1][0]))
    assert np.allclose(results[0][2], results[1][2]) and np.allclose(results[0][3], results[1][3])
    assert results[0][4] == results[1][4]


def test_same_text_tolerates_rounding_only():
    assert same_text("loss 1.2345678 at step 3", "loss 1.2345679 at step 3") is None
    assert same_text("loss 1.2345678", "loss 1.3345678") is not None
    assert same_text("tensor([1., 2.])", "tensor([1., 2.], grad_fn=<X>)") is not None
