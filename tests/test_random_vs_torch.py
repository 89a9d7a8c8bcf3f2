"""Random numbers: ``torch.Generator``, ``generator=``, ``normal``, ``multinomial``, ``bernoulli``.

The cross-checks here compare what surrounds the numbers (shapes, dtypes, nodes,
errors, seeds); tests/test_rng_vs_torch.py compares the numbers themselves, which
are PyTorch's for the same seed. The rest is checked within mini_autograd: the same
seed gives the same numbers, a generator has its own stream, the helpers that stand
in for C's fused multiply-add and PyTorch's vectorised ``log``/``sin``/``cos`` are
what they say.
"""
import textwrap

import numpy as np
import pytest

import mini_autograd as torch

try:
    from crosscheck import assert_same, full
except ImportError:  # tests/ made a package
    from tests.crosscheck import assert_same, full

CASES = []


def case(id, code, error=None, message=full):
    CASES.append(pytest.param(textwrap.dedent(code), error, message, id=id))


case("generator_seeds", """
    g = torch.Generator()
    print(g.initial_seed())
    print(g.manual_seed(3) is g, g.initial_seed(), g.device)
    print(torch.Generator().manual_seed(-1).initial_seed())
    print(torch.Generator(device="cpu").manual_seed(2**63).initial_seed())
    torch.manual_seed(7.0)
    print(torch.initial_seed(), torch.random.initial_seed())
    print(type(torch.manual_seed(1)) is torch.Generator, torch.default_generator.initial_seed())
    print(torch.get_rng_state().dtype, torch.Generator().get_state().dim())
""")
case("generator_seed_float_error", "torch.Generator().manual_seed(1.5)", "RuntimeError")
case("generator_seed_overflow", "torch.manual_seed(2**64)", "ValueError")
case("generator_set_state_not_a_tensor", "torch.Generator().set_state([1, 2])", "TypeError")
case("generator_set_state_not_bytes", "torch.Generator().set_state(torch.zeros(3))", "TypeError")
case("random_functions_take_a_generator", """
    g = torch.Generator().manual_seed(0)
    print(torch.randn(2, 3, generator=g).shape, torch.rand(4, generator=g).dtype)
    print(torch.randint(3, (2,), generator=g).dtype, torch.randint(3, 5, (2, 2), generator=g).shape)
    print(torch.randint(low=3, high=5, size=(2,)).shape, torch.randint(5, size=(1,)).shape)
    print(torch.randperm(4, generator=g).dtype, torch.randperm(3, dtype=torch.int32).dtype)
    print(sorted(torch.randperm(5, generator=g).tolist()))
    print(torch.rand_like(torch.ones(2), generator=g).shape)
    print(torch.empty(3).normal_(generator=g).shape, torch.empty(2).uniform_(0, 1, generator=g).shape)
    print(torch.empty(3).bernoulli_(0.5, generator=g).dtype, torch.bernoulli(torch.tensor([0., 1.])))
    print(torch.empty(2, dtype=torch.int64).random_(3, 5).ge(3).all(), torch.empty(2).random_(4).lt(4).all())
""")
case("randint_low_not_below_high", "torch.randint(5, 3, (2,))", "RuntimeError")
case("randn_like_of_integers", "torch.randn_like(torch.ones(2, dtype=torch.int64))", "NotImplementedError")
case("rand_like_of_integers", "torch.rand_like(torch.ones(2, dtype=torch.int64))", "NotImplementedError")
case("bernoulli_p_out_of_range", "torch.empty(2).bernoulli_(1.5)", "RuntimeError")
case("bernoulli_of_bad_probabilities", "torch.bernoulli(torch.tensor([2., 1.]))", "RuntimeError")
case("bernoulli_on_leaf_that_requires_grad", "torch.randn(2, requires_grad=True).bernoulli_(0.5)",
     "RuntimeError")
case("random_from_not_below_to", "torch.empty(2, dtype=torch.int64).random_(5, 3)", "RuntimeError")

# ------------------------------------------------------------------ normal
case("normal_overloads", """
    m = torch.zeros(3, requires_grad=True)
    s = torch.ones(3, requires_grad=True)
    a = torch.normal(m, 1.0)
    b = torch.normal(m, s)
    c = torch.normal(0.0, s)
    d = torch.normal(2., 3., size=(2,), requires_grad=True)
    print(a.grad_fn.name(), edges(a.grad_fn), b.grad_fn.name(), edges(b.grad_fn), c.grad_fn.name())
    print(d.requires_grad, d.is_leaf, d.shape, d.dtype)
    (a.sum() + b.sum() + c.sum()).backward()
    print(m.grad, s.grad)
    print(torch.normal(torch.zeros(2, 1), torch.ones(3)).shape)
    print(torch.normal(torch.zeros(2), torch.ones(2, dtype=torch.float64)).dtype)
    print(torch.normal(torch.zeros(2, dtype=torch.float64), torch.ones(2)).dtype)
    print(torch.normal(0, 1, size=(2,)).dtype, torch.normal(0., 1., (2,), dtype=torch.float64).dtype)
    print(torch.normal(mean=torch.zeros(2), std=torch.ones(2), generator=torch.Generator()).shape)
""")
case("normal_floats_need_a_size", "torch.normal(0., 1.)", "TypeError")
case("normal_negative_std", "torch.normal(torch.zeros(2), -1.)", "RuntimeError")
case("normal_negative_std_tensor", "torch.normal(0., torch.ones(2) * -1)", "RuntimeError")
case("normal_shapes_do_not_broadcast", "torch.normal(torch.zeros(2), torch.ones(3))", "RuntimeError")
case("normal_of_integers", "torch.normal(torch.zeros(2, dtype=torch.int64), 1.)", "NotImplementedError")

# ------------------------------------------------------------------ multinomial
case("multinomial_shapes", """
    p = torch.tensor([0.2, 0.8])
    print(torch.multinomial(p, 4, replacement=True).shape, torch.multinomial(p, 4, True).dtype)
    print(sorted(torch.multinomial(p, 2).tolist()))
    print(torch.multinomial(torch.tensor([[0.2, 0.8], [1., 0.]]), 2)[1])
    print(torch.multinomial(torch.tensor([0., 0., 3.]), 1), p.multinomial(1, replacement=True).shape)
""")
case("multinomial_too_many_without_replacement", "torch.multinomial(torch.tensor([0.2, 0.8]), 4)",
     "RuntimeError")
case("multinomial_negative", "torch.multinomial(torch.tensor([0.2, -0.8]), 1)", "RuntimeError")
case("multinomial_all_zero", "torch.multinomial(torch.tensor([0., 0.]), 1)", "RuntimeError")
case("multinomial_of_integers", "torch.multinomial(torch.tensor([1, 2]), 1)", "RuntimeError")
case("multinomial_no_samples", "torch.multinomial(torch.tensor([1., 0.]), 0)", "RuntimeError")
case("multinomial_0d", "torch.multinomial(torch.tensor(1.), 1)", "RuntimeError")
case("multinomial_3d", "torch.multinomial(torch.ones(2, 2, 2), 1)", "RuntimeError")


@pytest.mark.parametrize("code, error, message", CASES)
def test_same_as_torch(code, error, message):
    assert_same(code, error=error, message=message)


# ------------------------------------------------------------------ within mini_autograd
DRAWS = {
    "randn": lambda g: torch.randn(3, 2, generator=g),
    "rand": lambda g: torch.rand(4, generator=g),
    "randint": lambda g: torch.randint(0, 100, (5,), generator=g),
    "randperm": lambda g: torch.randperm(10, generator=g),
    "normal": lambda g: torch.normal(torch.zeros(3), torch.ones(3), generator=g),
    "normal_size": lambda g: torch.normal(1.0, 2.0, size=(3,), generator=g),
    "multinomial": lambda g: torch.multinomial(torch.tensor([0.1, 0.2, 0.7]), 5, True, generator=g),
    "bernoulli_": lambda g: torch.empty(6).bernoulli_(0.5, generator=g),
    "normal_": lambda g: torch.empty(3).normal_(generator=g),
    "uniform_": lambda g: torch.empty(3).uniform_(generator=g),
    "init_normal_": lambda g: torch.nn.init.normal_(torch.empty(3), generator=g),
}


@pytest.mark.parametrize("name", DRAWS)
def test_same_seed_same_numbers(name):
    draw = DRAWS[name]
    first = draw(torch.Generator().manual_seed(5))
    again = draw(torch.Generator().manual_seed(5))
    other = draw(torch.Generator().manual_seed(6))
    assert first.equal(again)
    assert not first.equal(other)


@pytest.mark.parametrize("name", DRAWS)
def test_the_default_generator_is_what_manual_seed_seeds(name):
    draw = DRAWS[name]
    torch.manual_seed(11)
    first = draw(None)
    torch.manual_seed(11)
    assert draw(None).equal(first)
    assert draw(torch.Generator().manual_seed(11)).equal(first)


def test_a_generator_has_its_own_stream():
    g = torch.Generator().manual_seed(0)
    torch.manual_seed(0)
    a = torch.randn(3, generator=g)
    torch.randn(5)                          # the default generator moves on, g does not
    b = torch.randn(3, generator=g)
    g.manual_seed(0)
    assert torch.randn(3, generator=g).equal(a) and torch.randn(3, generator=g).equal(b)


def test_get_state_and_set_state_replay():
    g = torch.Generator().manual_seed(1)
    state = g.get_state()
    a = torch.rand(4, generator=g)
    g.set_state(state)
    assert torch.rand(4, generator=g).equal(a)
    torch.manual_seed(2)
    saved = torch.get_rng_state()
    b = torch.randn(2)
    torch.set_rng_state(saved)
    assert torch.randn(2).equal(b) and torch.initial_seed() == 2


def test_seed_picks_a_new_seed():
    g = torch.Generator()
    seed = g.seed()
    assert g.initial_seed() == seed and 0 <= seed < 2**64
    assert len({torch.Generator().seed() for _ in range(5)}) == 5


def test_the_default_generator_starts_from_a_seed_of_the_operating_system():
    import subprocess
    import sys
    code = "import mini_autograd as torch; print(torch.initial_seed(), torch.rand(1).item())"
    runs = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
            for _ in range(2)}
    assert len(runs) == 2


def test_a_generator_that_is_not_one():
    with pytest.raises(TypeError, match="invalid combination of arguments"):
        torch.randn(2, generator=3)


def test_multinomial_without_replacement_never_repeats_and_skips_zero_weights():
    g = torch.Generator().manual_seed(0)
    for _ in range(20):
        draw = torch.multinomial(torch.tensor([1., 0., 2., 3.]), 3, generator=g).tolist()
        assert len(set(draw)) == 3 and 1 not in draw


def test_normal_and_bernoulli_follow_their_distributions():
    g = torch.Generator().manual_seed(0)
    x = torch.normal(2.0, 3.0, size=(20000,), generator=g).numpy()
    assert abs(x.mean() - 2) < 0.1 and abs(x.std() - 3) < 0.1
    mask = torch.empty(20000).bernoulli_(0.3, generator=g).numpy()
    assert set(np.unique(mask)) <= {0.0, 1.0} and abs(mask.mean() - 0.3) < 0.02


def test_fma64_rounds_once():
    """a * b + c rounded once, against exact rational arithmetic."""
    from fractions import Fraction
    from mini_autograd._distributions import fma64
    rng = np.random.default_rng(0)
    a, b, c = rng.random(20000), rng.normal(size=20000) * 3, rng.normal(size=20000)
    exact = [float(Fraction(x) * Fraction(y) + Fraction(z)) for x, y, z in zip(a, b, c, strict=True)]
    assert np.array_equal(fma64(a, b, c), np.array(exact))
    assert not np.array_equal(a * b + c, np.array(exact))          # numpy's two roundings do differ
    assert fma64(np.inf, 2.0, 1.0) == np.inf and np.isnan(fma64(np.nan, 1.0, 0.0))


def test_the_vectorised_log_sin_and_cos_are_close_to_numpys():
    """avx_mathfun.h's polynomials: within 2 float32 ulps of the correctly rounded values."""
    from mini_autograd._avx_mathfun import log256_ps, sincos256_ps
    u = (np.arange(1, 2**24, 97, dtype=np.float32) * np.float32(2.0**-24))
    exact_log = np.log(u.astype(np.float64))
    assert (np.abs(log256_ps(u) - exact_log) <= 2 * np.spacing(np.abs(exact_log).astype(np.float32))).all()
    angle = np.float32(2 * np.pi) * u
    sin, cos = sincos256_ps(angle)
    assert np.abs(sin - np.sin(angle.astype(np.float64))).max() < 2e-7
    assert np.abs(cos - np.cos(angle.astype(np.float64))).max() < 2e-7


def test_state_bytes_round_trip():
    g = torch.Generator().manual_seed(2**63 + 5)
    torch.randn(3, generator=g)
    state = g.get_state()
    assert state.dtype is torch.uint8 and state.shape == (5056,)
    other = torch.Generator().set_state(state)
    assert other.initial_seed() == 2**63 + 5 and other.get_state().equal(state)
    assert torch.randn(5, generator=other).equal(torch.randn(5, generator=g))
