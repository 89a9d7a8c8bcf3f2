"""The public PyTorch programs a learner runs after the course, under PyTorch and under mini_autograd.

Each program in ``tests/tutorial_programs/`` (see the README there) runs twice:
with ``import torch`` bound to real PyTorch and to ``mini_autograd``
(``crosscheck.run_snippet``). Both runs draw the *same* random numbers: while a
program runs, every random function (``randn``, ``rand``, ``randint``, ``randperm``,
``normal``, ``multinomial``, ``bernoulli``, the ``_like`` ones), the fillers
(``Tensor.uniform_``/``normal_``/``bernoulli_``/``random_``, the ``nn.init`` ones) and
``torch.Generator`` draw from one seeded numpy generator (or from the program's own
``Generator``), so that dropout masks and ``DataLoader`` shuffles agree too; Python's
``random`` is seeded the same way (see ``same_random_numbers``). What
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


class SameGenerator:
    """``torch.Generator`` in both libraries while a program runs: its own numpy generator, so that
    ``Generator().manual_seed(42)`` gives the same draws in both."""

    def __init__(self, device="cpu"):
        self.manual_seed(67280421310721)

    def manual_seed(self, seed):
        self.rng, self._seed = np.random.default_rng(int(seed) % 2**64), int(seed)
        return self

    def initial_seed(self):
        return self._seed

    def seed(self):
        return self.manual_seed(random.getrandbits(63)).initial_seed()


def _values(array):
    """The drawn numbers as both libraries' ``tensor()`` takes them (a float64 or int64 array)."""
    array = np.asarray(array)
    return array.astype(np.float64 if array.dtype.kind in "fb" else np.int64)


def _dropout(library):
    """PyTorch's CPU dropout (aten/src/ATen/native/Dropout.cpp: _dropout_impl) in Python, so that its
    mask comes from ``Tensor.bernoulli_`` (replaced below); mini_autograd's own dropout is the same."""
    def dropout(input, p=0.5, training=True, inplace=False):
        if p < 0.0 or p > 1.0:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        if p == 0 or not training or input.numel() == 0:
            return input
        if p == 1:
            zero = library.zeros((), dtype=input.dtype)
            return input.mul_(zero) if inplace else input * zero
        noise = library.empty_like(input).bernoulli_(1 - p)
        noise.div_(1 - p)
        return input.mul_(noise) if inplace else input * noise

    def torch_dropout(input, p, train):
        return dropout(input, p, train)

    return dropout, torch_dropout


@contextlib.contextmanager
def same_random_numbers(library, seed=0):
    """Make ``library``'s random draws come from one numpy generator seeded with ``seed``.

    Every random function and filler is replaced by one that draws from it (or, given
    ``generator=`` a ``torch.Generator()`` of the program's, from that one's), in the same
    way for both libraries. Functions whose result carries more than numbers (``normal``'s
    graph node, ``multinomial``'s checks) run as they are, and get the drawn numbers written
    in. PyTorch's dropout draws its mask in C++, so it is replaced by its Python equivalent.
    """
    rng = np.random.default_rng(seed)
    random.seed(seed)
    init = library.nn.init

    def rng_for(generator):
        return generator.rng if isinstance(generator, SameGenerator) else rng

    def make(values, dtype, requires_grad, default=None):
        dtype = (default or library.float32) if dtype is None else dtype
        return library.tensor(_values(values), dtype=dtype, requires_grad=requires_grad)

    def randn(*size, dtype=None, device=None, requires_grad=False, generator=None, size_=None, **kw):
        return make(rng_for(generator).standard_normal(_shape(size, kw.pop("size", size_))), dtype,
                    requires_grad)

    def rand(*size, dtype=None, device=None, requires_grad=False, generator=None, size_=None, **kw):
        return make(rng_for(generator).random(_shape(size, kw.pop("size", size_))), dtype, requires_grad)

    def randn_like(t, dtype=None, requires_grad=False, generator=None, **kw):
        return randn(*t.shape, dtype=dtype or t.dtype, requires_grad=requires_grad, generator=generator)

    def rand_like(t, dtype=None, requires_grad=False, generator=None, **kw):
        return rand(*t.shape, dtype=dtype or t.dtype, requires_grad=requires_grad, generator=generator)

    def randint(*args, size=None, generator=None, dtype=None, low=None, high=None, requires_grad=False, **kw):
        args = list(args)
        if size is None and args and isinstance(args[-1], (tuple, list)):
            size = args.pop()
        if len(args) == 2:
            low, high = args
        elif len(args) == 1:
            low, high = (0, args[0]) if high is None else (args[0], high)
        values = rng_for(generator).integers(0 if low is None else low, high, size=_shape((), size))
        return make(values, dtype, requires_grad, library.int64)

    def randperm(n, generator=None, dtype=None, requires_grad=False, **kw):
        return make(rng_for(generator).permutation(int(n)), dtype, requires_grad, library.int64)

    def fill(tensor, values):
        with library.no_grad():
            tensor.copy_(library.tensor(_values(np.asarray(values)), dtype=tensor.dtype))
        return tensor

    def uniform_(tensor, a=0.0, b=1.0, generator=None):
        return fill(tensor, rng_for(generator).uniform(a, b, tuple(tensor.shape)))

    def normal_(tensor, mean=0.0, std=1.0, generator=None):
        return fill(tensor, rng_for(generator).normal(mean, std, tuple(tensor.shape)))

    def tensor_uniform_(self, a=0.0, b=1.0, *, generator=None):
        return self.copy_(library.tensor(_values(rng_for(generator).uniform(a, b, tuple(self.shape))),
                                         dtype=self.dtype))

    def tensor_normal_(self, mean=0.0, std=1.0, *, generator=None):
        return self.copy_(library.tensor(_values(rng_for(generator).normal(mean, std, tuple(self.shape))),
                                         dtype=self.dtype))

    def tensor_bernoulli_(self, p=0.5, *, generator=None):
        probabilities = p.detach().numpy() if isinstance(p, library.Tensor) else p
        draws = rng_for(generator).random(tuple(self.shape)) < probabilities
        return self.copy_(library.tensor(_values(draws.astype(np.float64)), dtype=self.dtype))

    def tensor_random_(self, *args, generator=None, **kw):
        draws = rng_for(generator).integers(0, 2**31, tuple(self.shape))     # a seed's worth of bits
        return self.copy_(library.tensor(_values(draws), dtype=self.dtype))

    def bernoulli(input, p=None, *, generator=None):
        probabilities = input.detach().numpy() if p is None else p
        draws = rng_for(generator).random(tuple(input.shape)) < probabilities
        return library.tensor(_values(draws.astype(np.float64)), dtype=input.dtype)

    def kaiming_uniform_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
        fan_in, fan_out = init._calculate_fan_in_and_fan_out(tensor)
        fan = fan_in if mode == "fan_in" else fan_out
        bound = math.sqrt(3.0) * init.calculate_gain(nonlinearity, a) / math.sqrt(fan)
        return uniform_(tensor, -bound, bound, generator)

    def as_array(value):
        return value.detach().numpy().astype(np.float64) if isinstance(value, library.Tensor) else value

    original_normal, original_multinomial = library.normal, library.multinomial

    def normal(mean, std=1.0, *args, generator=None, **kw):
        out = original_normal(mean, std, *args, **kw)          # the result's dtype, node and checks
        z = rng_for(generator).standard_normal(tuple(out.shape))
        return fill(out, as_array(mean) + as_array(std) * z)

    def multinomial(input, num_samples, replacement=False, *, generator=None):
        out = original_multinomial(input, num_samples, replacement)
        rows = input.detach().numpy().astype(np.float64).reshape(-1, input.shape[-1])
        draws = [rng_for(generator).choice(len(row), num_samples, replacement, row / row.sum())
                 for row in rows]
        return fill(out, np.array(draws).reshape(tuple(out.shape)))

    def manual_seed(value):
        nonlocal rng
        rng = np.random.default_rng(int(value))

    patches = [(library, "randn", randn), (library, "rand", rand), (library, "manual_seed", manual_seed),
               (library, "randn_like", randn_like), (library, "rand_like", rand_like),
               (library, "randint", randint), (library, "randperm", randperm), (library, "normal", normal),
               (library, "multinomial", multinomial), (library, "bernoulli", bernoulli),
               (library, "Generator", SameGenerator), (library.utils.data.dataset, "randperm", randperm),
               (init, "uniform_", uniform_), (init, "normal_", normal_),
               (init, "kaiming_uniform_", kaiming_uniform_),
               (library.Tensor, "uniform_", tensor_uniform_), (library.Tensor, "normal_", tensor_normal_),
               (library.Tensor, "bernoulli_", tensor_bernoulli_), (library.Tensor, "random_", tensor_random_)]
    if library.__name__ == "torch":
        dropout, torch_dropout = _dropout(library)
        patches += [(library.nn.functional, "dropout", dropout), (library, "dropout", torch_dropout)]
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
    with same_random_numbers(library), one_thread(library):
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


def test_the_other_random_functions_draw_the_same_in_both_libraries():
    results = []
    for library in (torch, mini_autograd):
        with same_random_numbers(library, seed=5):
            g = library.Generator().manual_seed(7)
            draws = [library.randint(0, 10, (4,)), library.randperm(6, generator=g),
                     library.randn(3, generator=g), library.normal(library.zeros(3), library.ones(3)),
                     library.normal(1.0, 2.0, size=(2,)),
                     library.multinomial(library.tensor([0.2, 0.3, 0.5]), 2),
                     library.empty(5).bernoulli_(0.5), library.rand_like(library.ones(2)),
                     library.nn.init.normal_(library.empty(3))]
            g.manual_seed(7)
            draws.append(library.randperm(6, generator=g))
            results.append([d.tolist() for d in draws])
    for a, b in zip(*results, strict=True):
        assert np.allclose(np.array(a, dtype=float), np.array(b, dtype=float))
    assert results[1][1] == results[1][-1]            # the same seed, the same draws


def test_same_text_tolerates_rounding_only():
    assert same_text("loss 1.2345678 at step 3", "loss 1.2345679 at step 3") is None
    assert same_text("loss 1.2345678", "loss 1.3345678") is not None
    assert same_text("tensor([1., 2.])", "tensor([1., 2.], grad_fn=<X>)") is not None
