"""PyTorch's random numbers: the same seed draws the same bits in mini_autograd as in PyTorch 2.13.

Every case runs one program under both libraries (crosscheck.assert_same) and prints
the draws with ``tolist()``, which shows every bit of a float, and a digest of the
generator's state afterwards: the state must match too, or the next draw would not.
The cases cover each drawing function, on both sides of ``randn``'s 16-element
threshold, in float32 and float64, from the default generator and from a
``Generator`` of the program's, one after another (hypothesis writes such sequences
too), and the state's bytes, which go from one library to the other both ways.
How often the floats that need ``log``/``sin``/``cos`` differ over large samples is
measured by tools/rng_bits_vs_torch.py (CONTRIBUTING.md has the figures).
"""
import textwrap

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import mini_autograd

try:
    from crosscheck import assert_same
except ImportError:  # tests/ made a package
    from tests.crosscheck import assert_same

torch = pytest.importorskip("torch")

# Prints a digest of a generator's state (the default one's without an argument).
STATE = textwrap.dedent("""
    import hashlib
    def state(g=None):
        s = torch.get_rng_state() if g is None else g.get_state()
        return hashlib.sha256(bytes(s.tolist())).hexdigest()[:16]
""")

SEEDS = [0, 1, 42, 2**32 + 7, 2**64 - 1, -5]


def same(code, **kwargs):
    assert_same(STATE + textwrap.dedent(code), **kwargs)


# ------------------------------------------------------------------ each drawing function
DRAWS = {
    "rand": "torch.rand({n}, dtype={dtype}{g})",
    "randn": "torch.randn({n}, dtype={dtype}{g})",
    "rand_like": "torch.rand_like(torch.zeros({n}, dtype={dtype}){g})",
    "randn_like": "torch.randn_like(torch.zeros({n}, dtype={dtype}){g})",
    "uniform_": "torch.empty({n}, dtype={dtype}).uniform_(-0.37, 2.5{g})",
    "normal_": "torch.empty({n}, dtype={dtype}).normal_(0.3, 1.7{g})",
    "normal_size": "torch.normal(0.3, 1.7, size=({n},), dtype={dtype}{g})",
    "normal_tensor_float": "torch.normal(torch.arange({n}, dtype={dtype}), 2.0{g})",
    "normal_float_tensor": "torch.normal(-1.0, torch.arange({n}, dtype={dtype}) / {n} + 0.25{g})",
    "normal_tensor_tensor": ("torch.normal(torch.arange({n}, dtype={dtype}), "
                             "torch.arange({n}) / {n} + 0.25{g})"),
    "bernoulli_": "torch.empty({n}, dtype={dtype}).bernoulli_(0.3{g})",
    "bernoulli_tensor_p": "torch.empty({n}).bernoulli_(torch.arange({n}, dtype={dtype}) / {n}{g})",
    "bernoulli": "torch.bernoulli(torch.arange({n}, dtype={dtype}) / {n}{g})",
    "bernoulli_p": "torch.bernoulli(torch.zeros({n}, dtype={dtype}), 0.6{g})",
    "random_": "torch.empty({n}, dtype={dtype}).random_({g_only})",
    "random_to": "torch.empty({n}, dtype={dtype}).random_(7{g})",
    "random_from_to": "torch.empty({n}, dtype={dtype}).random_(-3, 2**30{g})",
    "random_from": "torch.empty({n}, dtype={dtype}).random_(5, None{g})",
    "randint": "torch.randint(-4, 9, ({n},), dtype={dtype}{g})",
    "randint_large": "torch.randint(0, 2**40, ({n},){g})",
    "randperm": "torch.randperm({n}, dtype={dtype}{g})",
    "multinomial_replacement": ("torch.multinomial(torch.arange({n}, dtype={dtype}) / {n} + 0.125, 20, "
                                "True{g})"),
    "multinomial": "torch.multinomial(torch.arange({n}, dtype={dtype}) / {n} + 0.125, {n} // 2 + 1{g})",
    "multinomial_one": "torch.multinomial(torch.arange({n}, dtype={dtype}) / {n} + 0.125, 1, True{g})",
}
INTEGER_DRAWS = {"random_", "random_to", "random_from_to", "random_from", "randint", "randperm",
                 "bernoulli_"}


def draw_cases():
    for name, template in DRAWS.items():
        dtypes = ["torch.float32", "torch.float64"] + (["torch.int64"] if name in INTEGER_DRAWS else [])
        for n in (1, 5, 15, 16, 17, 40, 1000):
            for dtype in dtypes:
                for explicit in (False, True):
                    seed = SEEDS[(n + len(name) + explicit) % len(SEEDS)]
                    yield pytest.param(name, template, n, dtype, explicit, seed,
                                       id=f"{name}-{n}-{dtype[6:]}-{'g' if explicit else 'default'}")


@pytest.mark.parametrize("name, template, n, dtype, explicit, seed", list(draw_cases()))
def test_draw_and_the_state_after_it(name, template, n, dtype, explicit, seed):
    g = ", generator=g" if explicit else ""
    code = template.format(n=n, dtype=dtype, g=g, g_only=g[2:])
    same(f"""
        torch.manual_seed({seed})
        g = torch.Generator().manual_seed({seed % 1000 + 1})
        x = {code}
        print(x.dtype, x.shape)
        print(x.tolist())
        print(state(), state(g))
        print({code}.tolist())          # and the draw after it
    """)


# ------------------------------------------------------------------ one draw after another
@pytest.mark.parametrize("seed", SEEDS)
def test_interleaved_draws(seed):
    same(f"""
        torch.manual_seed({seed})
        print(torch.randn(3).tolist())            # one at a time: the last sine is kept...
        print(torch.randn(3, dtype=torch.float64).tolist())   # ...and comes first here
        print(torch.randn(20).tolist(), torch.rand(2).tolist())
        print(torch.randn(1).tolist(), state())
        print(torch.empty(5, 4).t().normal_().tolist())       # not contiguous: one at a time, in memory order
        print(torch.empty(4, 6).t().uniform_().tolist(), torch.empty(3, 5)[:, ::2].bernoulli_(0.5).tolist())
        print(torch.randint(0, 5, (7,)).tolist(), torch.randperm(9).tolist(), state())
        g = torch.Generator().manual_seed({seed})
        print(torch.randn(3, generator=g).tolist(), torch.randn(3).tolist())
        print(torch.randn(2, generator=g).tolist())
        print(state(), state(g))
    """)


def test_the_one_by_one_path_and_the_16_at_a_time_path_share_nothing_but_the_words():
    same("""
        torch.manual_seed(3)
        torch.randn(1)                          # a sine waits...
        print(torch.randn(32).tolist())         # ...the 16-at-a-time fill does not use it...
        print(torch.randn(1).tolist())          # ...the next small draw does
        print(state())
    """)


# ------------------------------------------------------------------ hypothesis: programs of draws
OPERATIONS = [
    "torch.rand({n}{g})", "torch.randn({n}{g})", "torch.randn({n}, dtype=torch.float64{g})",
    "torch.rand({n}, dtype=torch.float64{g})", "torch.empty({n}).normal_(1.5, 0.25{g})",
    "torch.empty({n}, dtype=torch.float64).uniform_(-2, 3{g})", "torch.empty({n}).bernoulli_(0.5{g})",
    "torch.randint(0, 100, ({n},){g})", "torch.randperm({n}{g})",
    "torch.empty({n}, dtype=torch.int64).random_({gg})",
    "torch.multinomial(torch.ones({n} + 1), 1{g})", "torch.normal(torch.zeros({n}), torch.ones({n}){g})",
]


@settings(max_examples=60, derandomize=True, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(-2**63, 2**64 - 1),
       steps=st.lists(st.tuples(st.sampled_from(OPERATIONS), st.integers(0, 70), st.booleans()),
                      min_size=1, max_size=6))
def test_random_programs_of_draws(seed, steps):
    lines = [f"torch.manual_seed({seed})", f"g = torch.Generator().manual_seed({seed} % 1000)"]
    for operation, n, explicit in steps:
        g = ", generator=g" if explicit else ""
        lines.append(f"print({operation.format(n=n, g=g, gg=g[2:])}.tolist())")
    lines.append("print(state(), state(g))")
    same("\n".join(lines))


# ------------------------------------------------------------------ the state, in PyTorch's bytes
def test_a_state_saved_by_pytorch_loads_in_mini_autograd_and_back():
    torch.manual_seed(11)
    torch.randn(3)                                          # a normal number waits in the state
    saved = torch.get_rng_state()
    mini_autograd.set_rng_state(mini_autograd.tensor(saved.numpy(), dtype=mini_autograd.uint8))
    assert np.array_equal(mini_autograd.get_rng_state().numpy(), saved.numpy())
    assert mini_autograd.initial_seed() == torch.initial_seed() == 11
    for draw in ("randn(5)", "rand(3, dtype={lib}.float64)", "randn(40)", "randperm(10)"):
        ours, theirs = (eval(f"lib.{draw.format(lib='lib')}", {"lib": lib}) for lib in (mini_autograd, torch))
        assert np.array_equal(ours.numpy(), theirs.numpy()), draw
    mini_autograd.randn(7)
    torch.set_rng_state(torch.tensor(mini_autograd.get_rng_state().numpy()))      # and back
    assert np.array_equal(torch.get_rng_state().numpy(), mini_autograd.get_rng_state().numpy())
    assert np.array_equal(torch.randn(9).numpy(), mini_autograd.randn(9).numpy())


def test_a_generator_state_goes_both_ways():
    g_torch = torch.Generator().manual_seed(2**40 + 3)
    torch.randn(5, generator=g_torch)
    g_mini = mini_autograd.Generator().set_state(mini_autograd.tensor(g_torch.get_state().numpy()))
    assert g_mini.initial_seed() == 2**40 + 3
    assert np.array_equal(mini_autograd.randn(5, generator=g_mini).numpy(),
                          torch.randn(5, generator=g_torch).numpy())
    g_torch.set_state(torch.from_numpy(g_mini.get_state().numpy()))
    assert np.array_equal(g_torch.get_state().numpy(), g_mini.get_state().numpy())


def test_every_field_of_the_state_survives_the_trip():
    """Both normal-number caches, and a state in the middle of the 624 words, one word from a twist."""
    fields = mini_autograd.random.STATE_LAYOUT
    g = torch.Generator().manual_seed(5)
    torch.randint(0, 10, (623,), generator=g)
    state = np.frombuffer(g.get_state().numpy().tobytes(), fields)[0].copy()
    state["normal_is_valid"], state["normal_y"] = 1, -0.625
    state["is_next_float_normal_sample_valid"], state["next_float_normal_sample"] = 1, 1.25
    crafted = np.frombuffer(state.tobytes(), np.uint8).copy()
    g.set_state(torch.from_numpy(crafted))
    mine = mini_autograd.Generator().set_state(mini_autograd.tensor(crafted))
    assert np.array_equal(mine.get_state().numpy(), g.get_state().numpy())
    assert np.array_equal(mine.get_state().numpy(), crafted)
    assert mini_autograd.randn(3, generator=mine).tolist() == torch.randn(3, generator=g).tolist()
    assert np.array_equal(mine.get_state().numpy(), g.get_state().numpy())


def test_a_state_whose_words_are_not_read_in_order():
    """``left`` and ``next`` need not add up to 625: the words up to the twist come first."""
    fields = mini_autograd.random.STATE_LAYOUT
    state = np.frombuffer(torch.Generator().get_state().numpy().tobytes(), fields)[0].copy()
    state["left"], state["next"] = 600, 10
    crafted = np.frombuffer(state.tobytes(), np.uint8).copy()
    g = torch.Generator().set_state(torch.from_numpy(crafted))
    mine = mini_autograd.Generator().set_state(mini_autograd.tensor(crafted))
    assert mini_autograd.randint(0, 2**20, (1500,), generator=mine).tolist() == \
        torch.randint(0, 2**20, (1500,), generator=g).tolist()
    assert np.array_equal(mine.get_state().numpy(), g.get_state().numpy())


@pytest.mark.parametrize("code", [
    "torch.set_rng_state(torch.zeros(10, dtype=torch.uint8))",
    "torch.set_rng_state(torch.zeros(5056, dtype=torch.uint8))",
    "torch.set_rng_state(torch.zeros(5056, dtype=torch.int64))",
    "torch.set_rng_state(torch.get_rng_state().reshape(2, 2528).t().reshape(-1)[:5056])",
    "torch.Generator().set_state(torch.get_rng_state()[::2])",
])
def test_bad_states(code):
    same(code, error="RuntimeError" if "int64" not in code else "TypeError")


def test_get_state_is_a_new_tensor_each_time():
    same("""
        torch.manual_seed(0)
        s = torch.get_rng_state()
        print(s.dtype, s.shape, s.is_contiguous())
        torch.rand(1)
        print(torch.equal(s, torch.get_rng_state()), s[:24].tolist())
    """)


def test_seeds_and_initial_seed():
    same("""
        for seed in (0, 1, 2**32, 2**63, 2**64 - 1, -1, -2**63, 7.0):
            torch.manual_seed(seed)
            print(torch.initial_seed(), torch.rand(2).tolist(), state())
        g = torch.Generator()
        print(g.initial_seed(), torch.rand(2, generator=g).tolist(), state(g))
    """)


# ------------------------------------------------------------------ what draws from the generator for you
def test_linear_and_embedding_start_from_pytorchs_weights():
    same("""
        torch.manual_seed(0)
        model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.ReLU(),
                                    torch.nn.Linear(4, 2, dtype=torch.float64))
        for name, p in model.named_parameters():
            print(name, p.tolist())
        emb = torch.nn.Embedding(5, 3, padding_idx=1)
        print(emb.weight.tolist(), state())
    """)


def test_dropout_masks():
    same("""
        torch.manual_seed(0)
        x = torch.ones(4, 5)
        print(torch.nn.functional.dropout(x, 0.3).tolist())
        print(torch.nn.Dropout(0.5)(x).tolist(), torch.dropout(x, 0.2, True).tolist())
        print(torch.nn.functional.dropout(x.double(), 0.7, inplace=True).tolist(), state())
    """)


def test_init_fillers():
    same("""
        torch.manual_seed(0)
        init = torch.nn.init
        g = torch.Generator().manual_seed(1)
        for fill in (lambda w: init.uniform_(w, -0.5, 0.25), lambda w: init.normal_(w, 0.1, 0.02),
                     init.xavier_uniform_, init.xavier_normal_, init.kaiming_uniform_, init.kaiming_normal_,
                     lambda w: init.kaiming_uniform_(w, a=0.2, mode="fan_out", nonlinearity="leaky_relu"),
                     lambda w: init.uniform_(w, generator=g), lambda w: init.normal_(w, generator=g)):
            print(fill(torch.empty(6, 5)).tolist(), state())
    """)


def test_dataloader_shuffles_and_splits():
    same("""
        from torch.utils.data import (DataLoader, RandomSampler, SubsetRandomSampler, TensorDataset,
                                      WeightedRandomSampler, random_split)
        torch.manual_seed(0)
        ds = TensorDataset(torch.arange(20.0), torch.arange(20))
        loader = DataLoader(ds, batch_size=6, shuffle=True)
        for epoch in range(2):
            print([y.tolist() for _, y in loader])
        print(state())
        g = torch.Generator().manual_seed(3)
        print([y.tolist() for _, y in DataLoader(ds, batch_size=4, shuffle=True, generator=g)], state(g))
        a, b = random_split(ds, [0.7, 0.3], generator=torch.Generator().manual_seed(42))
        print(a.indices, b.indices)
        c, d = random_split(range(10), [3, 7])
        print(list(c), list(d), state())
        print(list(RandomSampler(ds, replacement=True, num_samples=40)))
        print(list(WeightedRandomSampler([0.1, 0.9, 0.0, 0.4], 7)))
        print(list(WeightedRandomSampler([1., 2., 3.], 3, False)))
        print(list(SubsetRandomSampler([5, 6, 7, 8])), state())
    """)


def test_gradgradcheck_draws_its_grad_outputs_as_pytorch():
    same("""
        torch.manual_seed(0)
        x = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
        print(torch.autograd.gradgradcheck(lambda a: (a ** 3).sum(1), (x,)), state())
        print(torch.autograd.gradgradcheck(lambda a: a.exp() * 2, (x,), gen_non_contig_grad_outputs=True))
        print(state())
        print(torch.rand(2).tolist())
    """)


# ------------------------------------------------------------------ errors, before anything is drawn
@pytest.mark.parametrize("code, error", [
    ("torch.empty(3).uniform_(2, 1)", "RuntimeError"),
    ("torch.empty(3).uniform_(-3e38, 3e38)", "RuntimeError"),
    ("torch.empty(3).uniform_(0, 1e39)", "RuntimeError"),
    ("torch.empty(3, dtype=torch.float64).uniform_(float('nan'), 1)", "RuntimeError"),
    ("torch.empty(3, dtype=torch.int64).uniform_()", "NotImplementedError"),
    ("torch.empty(3, dtype=torch.int64).normal_()", "NotImplementedError"),
    ("torch.empty(3).normal_(0, -1)", "RuntimeError"),
    ("torch.empty(2, dtype=torch.int8).random_(0, 300)", "RuntimeError"),
    ("torch.empty(2, dtype=torch.uint8).random_(-3, 3)", "RuntimeError"),
    ("torch.empty(2, dtype=torch.bool).random_(0, 3)", "RuntimeError"),
    ("torch.empty(2).random_(5, 3)", "RuntimeError"),
    ("torch.empty(2).random_(1.5)", "TypeError"),
    ("torch.empty(2).random_(to=None)", "TypeError"),
    ("torch.empty(2).random_(1, 2, 3)", "TypeError"),
    ("torch.empty(3).bernoulli_(torch.tensor([0.5, 2.0, 0.1]))", "RuntimeError"),
    ("torch.empty(3).bernoulli_(torch.tensor([0.5, 0.1]))", "RuntimeError"),
    ("torch.empty(3).bernoulli_(torch.tensor([1, 0, 1]))", "NotImplementedError"),
    ("torch.empty(2).bernoulli_(float('nan'))", "RuntimeError"),
    ("torch.multinomial(torch.tensor([0.2, -0.8]), 3, True)", "RuntimeError"),
    ("torch.multinomial(torch.tensor([0.2, float('inf')]), 3, True)", "RuntimeError"),
    ("torch.multinomial(torch.tensor([0.2, float('nan')]), 3, True)", "RuntimeError"),
    ("torch.multinomial(torch.tensor([0., 0.]), 3, True)", "RuntimeError"),
    ("torch.randperm(-1)", "RuntimeError"),
    ("torch.randn(2, requires_grad=True).uniform_()", "RuntimeError"),
])
def test_errors_and_the_state_after_them(code, error):
    same(f"""
        torch.manual_seed(0)
        try:
            {code}
        finally:
            print(state())
    """, error=error)


def test_random_beyond_the_floats_integers_warns():
    same("""
        torch.manual_seed(0)
        print(torch.empty(3).random_(0, 2**25).tolist())
        print(torch.empty(2).random_(2**24 + 1, 2**24 + 2).tolist())
        print(state())
    """)


def test_a_bad_row_is_found_after_the_rows_before_it_were_drawn():
    same("""
        torch.manual_seed(0)
        try:
            torch.multinomial(torch.tensor([[0.5, 0.5], [0.2, 0.8], [1.0, -1.0]]), 4, True)
        finally:
            print(state())
    """, error="RuntimeError")


def test_like_functions_fill_a_transposed_tensor_in_memory_order():
    same("""
        torch.manual_seed(0)
        print(torch.rand_like(torch.zeros(3, 2).t()).tolist())
        print(torch.randn_like(torch.zeros(3, 2).t()).tolist())
        print(torch.randn_like(torch.zeros(8, 4).t()).tolist(), state())     # not contiguous: one at a time
        print(torch.randn_like(torch.zeros(8, 4)[:, ::2]).tolist(), state())  # with gaps: row by row
        print(torch.rand_like(torch.zeros(2, 3, 4).permute(2, 0, 1), dtype=torch.float64).tolist())
    """)


def test_multinomial_lists_zero_weights_in_topks_order():
    """More samples than categories of positive weight: the rest tie at 0, and come in the order
    PyTorch's topk (libstdc++'s nth_element, partial_sort, sort) leaves them."""
    same("""
        torch.manual_seed(0)
        for weights, n in (([1., 0, 0, 0, 0, 1, 0, 0], 8), ([0., 0, 2, 0, 0, 0, 1, 0, 0, 0], 10),
                           ([[0., 3, 0, 0, 1], [1, 1, 0, 0, 0]], 4)):
            print(torch.multinomial(torch.tensor(weights), n).tolist())
        w = torch.zeros(300)
        w[5], w[150] = 1., 2.
        print(torch.multinomial(w, 4).tolist(), torch.multinomial(w, 3).tolist(), state())
    """)
