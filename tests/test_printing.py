"""Tensors print exactly as PyTorch prints them (mini_autograd/_printing.py).

Two kinds of test:

- literal outputs, written out by hand from real PyTorch 2.13 runs, which
  need no torch installed;
- cross-checks against ``repr(torch.from_numpy(arr))`` over many arrays,
  print options and hypothesis-generated inputs, skipped without torch.
"""

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from mini_autograd import _dtype
from mini_autograd._printing import get_printoptions, set_printoptions, tensor_repr

DEFAULT_OPTIONS = {"precision": 4, "threshold": 1000, "edgeitems": 3, "linewidth": 80,
                   "sci_mode": None}


@pytest.fixture(autouse=True)
def default_printoptions():
    """Every test starts and ends with PyTorch's default print options."""
    set_printoptions(profile="default")
    yield
    set_printoptions(profile="default")


@pytest.fixture
def torch():
    """The real PyTorch, with its print options reset to the defaults afterwards."""
    torch = pytest.importorskip("torch")
    torch.set_printoptions(profile="default")
    yield torch
    torch.set_printoptions(profile="default")


# ---------------------------------------------------------------------------
# Literal outputs (obtained from torch 2.13.0; no torch needed to run)
# ---------------------------------------------------------------------------

F32, F64, I64, B = _dtype.float32, _dtype.float64, _dtype.int64, _dtype.bool_

LITERALS = [
    # id, values, dtype, tensor_repr keyword arguments, what PyTorch prints
    ("int_mode", [1., 2., 3.], F32, {}, "tensor([1., 2., 3.])"),
    ("fixed_point", [1., 2.5, -3.25], F32, {}, "tensor([ 1.0000,  2.5000, -3.2500])"),
    ("scalar_grad_fn", 27., F32, {"requires_grad": True, "grad_fn_name": "MeanBackward0"},
     "tensor(27., grad_fn=<MeanBackward0>)"),
    ("f64_leaf", [1., 2.], F64, {"requires_grad": True},
     "tensor([1., 2.], dtype=torch.float64, requires_grad=True)"),
    ("f64_grad_fn", [1., 2.], F64, {"requires_grad": True, "grad_fn_name": "MulBackward0"},
     "tensor([1., 2.], dtype=torch.float64, grad_fn=<MulBackward0>)"),
    ("inference", [1., 1.], F32, {"is_inference": True}, "tensor([1., 1.])"),
    ("sci_mode", [1e-5, 1.0, 1e5], F32, {}, "tensor([1.0000e-05, 1.0000e+00, 1.0000e+05])"),
    ("sci_mode_2d", [[1e-5, 2e-5, 3e-5]] * 2, F32, {},
     "tensor([[1.0000e-05, 2.0000e-05, 3.0000e-05],\n"
     "        [1.0000e-05, 2.0000e-05, 3.0000e-05]])"),
    ("nonfinite", [0., -0., math.nan, math.inf, -math.inf], F32, {},
     "tensor([0., -0., nan, inf, -inf])"),
    ("bool", [True, False], B, {}, "tensor([ True, False])"),
    ("int_matrix", [[1, -20], [300, 4]], I64, {}, "tensor([[  1, -20],\n        [300,   4]])"),
    ("three_d", np.arange(8.).reshape(2, 2, 2), F32, {},
     "tensor([[[0., 1.],\n         [2., 3.]],\n\n        [[4., 5.],\n         [6., 7.]]])"),
    ("empty_2d", np.zeros((0, 3)), F32, {}, "tensor([], size=(0, 3))"),
    ("empty_int", np.zeros(0), I64, {}, "tensor([], dtype=torch.int64)"),
    ("empty_1d", np.zeros(0), F32, {}, "tensor([])"),
    ("summarized", np.arange(2000), I64, {}, "tensor([   0,    1,    2,  ..., 1997, 1998, 1999])"),
    ("wrapped", np.arange(30.) / 7, F32, {},
     "tensor([0.0000, 0.1429, 0.2857, 0.4286, 0.5714, 0.7143, 0.8571, 1.0000, 1.1429,\n"
     "        1.2857, 1.4286, 1.5714, 1.7143, 1.8571, 2.0000, 2.1429, 2.2857, 2.4286,\n"
     "        2.5714, 2.7143, 2.8571, 3.0000, 3.1429, 3.2857, 3.4286, 3.5714, 3.7143,\n"
     "        3.8571, 4.0000, 4.1429])"),
    ("suffix_wraps", [1.5, 2.5, 3.5, 4.5, 5.5, 6.5], F64, {"requires_grad": True},
     "tensor([1.5000, 2.5000, 3.5000, 4.5000, 5.5000, 6.5000], dtype=torch.float64,\n"
     "       requires_grad=True)"),
    ("all_suffixes_wrap", np.arange(9.) / 3, F64, {"requires_grad": True},
     "tensor([0.0000, 0.3333, 0.6667, 1.0000, 1.3333, 1.6667, 2.0000, 2.3333, 2.6667],\n"
     "       dtype=torch.float64, requires_grad=True)"),
    ("scalar_int", 5, I64, {}, "tensor(5)"),
    ("scalar_bool", True, B, {}, "tensor(True)"),
    ("scalar_f64", 0.1, F64, {}, "tensor(0.1000, dtype=torch.float64)"),
]


@pytest.mark.parametrize("values, dtype, kwargs, expected",
                         [case[1:] for case in LITERALS], ids=[case[0] for case in LITERALS])
def test_literal_repr(values, dtype, kwargs, expected):
    assert tensor_repr(np.asarray(values, dtype=dtype.numpy), dtype, **kwargs) == expected


@pytest.mark.parametrize("options, values, dtype, expected", [
    ({"precision": 2}, [1.12345, 2.], F32, "tensor([1.12, 2.00])"),
    ({"threshold": 5}, np.arange(10), I64, "tensor([0, 1, 2,  ..., 7, 8, 9])"),
    ({"sci_mode": True}, [1.5, 2.], F32, "tensor([1.5000e+00, 2.0000e+00])"),
    ({"sci_mode": False}, [1e-8, 1e9], F32, "tensor([         0.0000, 1000000000.0000])"),
    ({"edgeitems": 0, "threshold": 3}, np.ones((2, 3)), F32, "tensor([...], size=(2, 3))"),
], ids=["precision", "threshold", "sci_on", "sci_off", "no_edgeitems"])
def test_literal_repr_with_options(options, values, dtype, expected):
    set_printoptions(**options)
    assert tensor_repr(np.asarray(values, dtype=dtype.numpy), dtype) == expected


def test_default_printoptions():
    assert get_printoptions() == DEFAULT_OPTIONS


@pytest.mark.parametrize("profile, expected", [
    ("default", DEFAULT_OPTIONS),
    ("short", {**DEFAULT_OPTIONS, "precision": 2, "edgeitems": 2}),
    ("full", {**DEFAULT_OPTIONS, "threshold": math.inf}),
])
def test_profiles(profile, expected):
    set_printoptions(precision=7, linewidth=33)
    set_printoptions(profile=profile)
    assert get_printoptions() == expected


def test_set_printoptions_always_resets_sci_mode():
    set_printoptions(sci_mode=True)
    set_printoptions(precision=2)
    assert get_printoptions() == {**DEFAULT_OPTIONS, "precision": 2}


def test_get_printoptions_round_trips():
    set_printoptions(precision=3, threshold=10, edgeitems=1, linewidth=50, sci_mode=False)
    saved = get_printoptions()
    set_printoptions(profile="default")
    set_printoptions(**saved)
    assert get_printoptions() == saved


# ---------------------------------------------------------------------------
# Cross-checks against PyTorch
# ---------------------------------------------------------------------------

def _fixed_cases():
    """Hand-picked arrays that exercise each rule of the formatter and layout."""
    nan, inf = math.nan, math.inf
    rng = np.random.default_rng(0)
    f32 = np.float32
    return {
        # 0-d
        "0d_int_valued": np.array(27., f32),
        "0d_fraction": np.array(3.14159, f32),
        "0d_neg_zero": np.array(-0., f32),
        "0d_nan": np.array(nan, f32),
        "0d_inf": np.array(-inf),
        "0d_tiny": np.array(1e-5, f32),
        "0d_huge": np.array(1e9),
        "0d_int": np.array(-5, np.int64),
        "0d_bool": np.array(False),
        # 1-d
        "int_valued_floats": np.array([1., -2., 300.], f32),
        "int_valued_f64": np.array([1., 2., 1e7]),
        "int_valued_sci": np.array([1., 1e9], f32),
        "fractions": np.array([0.5, -1.25, 100.125], f32),
        "mixed_magnitudes": np.array([1e-5, 1e5], f32),
        "ratio_just_over_1000": np.array([1., 1000.5]),
        "ratio_1000": np.array([0.5, 500.]),
        "tiny": np.array([1e-5, 2e-5, 3e-5], f32),
        "huge": np.array([1e9, 2e9]),
        "huge_fraction": np.array([1.5e8, 1.25]),
        "neg_zeros": np.array([-0., 0., -0.], f32),
        "neg_zero_with_fraction": np.array([-0., 1.5]),
        "neg_zero_with_sci": np.array([-0., 1e-7], f32),
        "all_nan": np.array([nan, nan], f32),
        "nan_inf_int_mode": np.array([nan, inf, -inf, 1., -2.], f32),
        "nan_inf_fraction": np.array([nan, inf, -inf, 0.5]),
        "nan_inf_sci": np.array([nan, -inf, 1e-9, 1.]),
        "subnormal": np.array([1e-45, 1.], f32),
        "f32_precision": np.array([0.1, 0.2, 0.3], f32),
        "rounding_up_width": np.array([9.99996, 0.5], f32),
        "ints": np.array([0, -1, 123456789], np.int64),
        "int_extremes": np.array([-2**63, 2**63 - 1], np.int64),
        "bools": np.array([True, False, True]),
        "all_true": np.array([True, True]),
        # 2-d and more
        "matrix": rng.standard_normal((3, 4)).astype(f32),
        "matrix_f64": rng.standard_normal((4, 3)),
        "int_matrix": rng.integers(-1000, 1000, (5, 5)),
        "bool_matrix": rng.random((3, 3)) > 0.5,
        "three_d": rng.standard_normal((2, 3, 4)).astype(f32),
        "four_d": rng.standard_normal((2, 2, 2, 3)),
        "column": rng.standard_normal((5, 1)).astype(f32),
        "transposed": np.arange(12.).reshape(3, 4).T,
        # long rows that wrap at linewidth 80
        "long_row": rng.standard_normal(50).astype(f32),
        "long_int_row": np.arange(100),
        "long_int_valued_row": np.arange(100.).astype(f32),
        "long_sci_row": (rng.standard_normal(30) * 1e-5).astype(f32),
        "long_bool_row": rng.random(40) > 0.5,
        "long_rows_2d": rng.standard_normal((3, 25)),
        "long_rows_3d": rng.standard_normal((2, 2, 30)).astype(f32),
        # more than 1000 elements: summarized with '...'
        "summ_1d": rng.standard_normal(2000).astype(f32),
        "summ_1d_f64": rng.standard_normal(1001),
        "summ_int": np.arange(2000),
        "summ_bool": rng.random(1500) > 0.5,
        "summ_2d": rng.standard_normal((100, 100)).astype(f32),
        "summ_2d_narrow": rng.standard_normal((1000, 2)),
        "summ_2d_wide": rng.standard_normal((2, 1000)).astype(f32),
        "summ_3d": rng.standard_normal((20, 20, 20)).astype(f32),
        "summ_sci": (rng.standard_normal(3000) * 1e6).astype(f32),
        "summ_hidden_outlier": np.concatenate([np.ones(10), [1e-9], np.ones(1000)]),
        "summ_hidden_nan": np.concatenate([np.arange(5.), [nan], np.arange(1000.)]),
        "exactly_threshold": np.arange(1000.).astype(f32),
        # empty
        "empty_f32": np.zeros(0, f32),
        "empty_f64": np.zeros(0),
        "empty_int": np.zeros(0, np.int64),
        "empty_bool": np.zeros(0, bool),
        "empty_0x3": np.zeros((0, 3), f32),
        "empty_3x0": np.zeros((3, 0)),
        "empty_2x0x4_int": np.zeros((2, 0, 4), np.int64),
        "empty_0x3_bool": np.zeros((0, 3), bool),
    }


def _random_cases():
    """randn * scale for several seeds, shapes and scales, in every dtype."""
    shapes = [(), (1,), (7,), (13,), (4, 5), (2, 3, 4), (40,), (3, 30), (1100,), (11, 11, 11)]
    scales = [1e-9, 1e-5, 1e-3, 0.1, 1., 10., 1e3, 1e5, 1e9, 1e12]
    cases = {}
    for seed in range(40):
        rng = np.random.default_rng(seed + 1)
        shape = shapes[seed % len(shapes)]
        scale = scales[(seed * 7) % len(scales)]
        values = np.asarray(rng.standard_normal(shape) * scale)
        cases[f"seed{seed}_f32"] = values.astype(np.float32)
        cases[f"seed{seed}_f64"] = values
        cases[f"seed{seed}_int"] = np.round(values).astype(np.int64)
        cases[f"seed{seed}_int_valued_f32"] = np.round(values).astype(np.float32)
        cases[f"seed{seed}_bool"] = values > 0
    return cases


CASES = {**_fixed_cases(), **_random_cases()}
FLOAT_CASES = {name: arr for name, arr in CASES.items() if arr.dtype.kind == "f"}


def torch_and_ours(torch, arr, variant="plain"):
    """(PyTorch's repr, our repr) of the same values, as a plain tensor, a leaf
    with requires_grad=True, or the result of ``leaf * 1`` (grad_fn=<MulBackward0>)."""
    dtype = _dtype.from_numpy_dtype(arr.dtype)
    t = torch.from_numpy(np.array(arr, order="C"))  # a writable contiguous copy, 0-d kept
    if variant == "plain":
        return repr(t), tensor_repr(arr, dtype)
    leaf = t.clone().requires_grad_()
    if variant == "leaf":
        return repr(leaf), tensor_repr(arr, dtype, requires_grad=True)
    out = leaf * 1
    grad_fn_name = type(out.grad_fn).__name__
    ours = tensor_repr(out.detach().numpy(), dtype, requires_grad=True, grad_fn_name=grad_fn_name)
    return repr(out), ours


def set_both(torch, **options):
    """Apply the same print options to PyTorch and to mini_autograd."""
    torch.set_printoptions(**options)
    set_printoptions(**options)


@pytest.mark.parametrize("name", list(CASES))
def test_matches_torch(torch, name):
    expected, ours = torch_and_ours(torch, CASES[name])
    assert ours == expected


@pytest.mark.parametrize("variant", ["leaf", "grad_fn"])
@pytest.mark.parametrize("name", list(FLOAT_CASES))
def test_matches_torch_with_autograd_suffixes(torch, name, variant):
    expected, ours = torch_and_ours(torch, FLOAT_CASES[name], variant)
    assert ours == expected


def test_mean_grad_fn_matches_torch(torch):
    leaf = torch.tensor([26., 28.], requires_grad=True)
    out = leaf.mean()
    ours = tensor_repr(out.detach().numpy(), _dtype.float32, requires_grad=True,
                       grad_fn_name=type(out.grad_fn).__name__)
    assert ours == repr(out)


def test_inference_tensors_print_nothing_extra(torch):
    with torch.inference_mode():
        t = torch.ones(2)
    assert t.is_inference()
    assert tensor_repr(t.numpy(), _dtype.float32, is_inference=True) == repr(t)


OPTION_SETS = {
    "precision2": {"precision": 2},
    "precision0": {"precision": 0},
    "precision8": {"precision": 8},
    "sci_on": {"sci_mode": True},
    "sci_off": {"sci_mode": False},
    "threshold5": {"threshold": 5},
    "threshold0": {"threshold": 0},
    "edgeitems1": {"edgeitems": 1},
    "edgeitems0": {"edgeitems": 0},
    "edgeitems0_threshold5": {"edgeitems": 0, "threshold": 5},
    "linewidth40": {"linewidth": 40},
    "linewidth5": {"linewidth": 5},
    "linewidth120": {"linewidth": 120},
    "short": {"profile": "short"},
    "full": {"profile": "full"},
    "short_precision6": {"profile": "short", "precision": 6, "sci_mode": False},
}

# A smaller set of arrays for the options product: one of each kind of case.
OPTION_CASES = [
    "0d_fraction", "0d_int", "0d_bool", "int_valued_floats", "fractions", "mixed_magnitudes",
    "huge", "neg_zero_with_fraction", "nan_inf_fraction", "nan_inf_int_mode", "all_nan", "ints",
    "bools", "matrix", "int_matrix", "bool_matrix", "three_d", "four_d", "long_row",
    "long_int_row", "long_rows_3d", "summ_1d", "summ_int", "summ_2d", "summ_3d", "summ_sci",
    "empty_0x3", "empty_int", "seed3_f64", "seed9_f32", "seed9_bool",
]


@pytest.mark.parametrize("name", OPTION_CASES)
@pytest.mark.parametrize("options", list(OPTION_SETS))
def test_matches_torch_with_printoptions(torch, options, name):
    set_both(torch, **OPTION_SETS[options])
    for variant in ["plain", "leaf"] if CASES[name].dtype.kind == "f" else ["plain"]:
        expected, ours = torch_and_ours(torch, CASES[name], variant)
        assert ours == expected


@pytest.mark.parametrize("calls", [
    [{"precision": 2}],
    [{"sci_mode": True}, {"threshold": 5}],
    [{"profile": "short"}, {"linewidth": 60, "sci_mode": False}],
    [{"profile": "full", "edgeitems": 1}],
    [{"precision": 9}, {"profile": "default"}],
    [{"profile": "no-such-profile", "precision": 3}],
], ids=str)
def test_printoptions_state_matches_torch(torch, calls):
    for call in calls:
        set_both(torch, **call)
    assert get_printoptions() == torch._tensor_str.get_printoptions()


# ---------------------------------------------------------------------------
# Property-based cross-check: random arrays under random print options
# ---------------------------------------------------------------------------

DTYPES = [np.float32, np.float64, np.int64, np.bool_]


@st.composite
def arrays(draw):
    """Any of the four dtypes, up to 4 dims, every float value allowed (nan,
    inf, -0.0, subnormals), sometimes with many values at mixed magnitudes."""
    dtype = np.dtype(draw(st.sampled_from(DTYPES)))
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=6))
    if dtype.kind == "f" and draw(st.booleans()):
        bound = float(dtype.type(10.0 ** draw(st.integers(-12, 12))))  # exact in dtype
        elements = st.floats(-bound, bound, width=8 * dtype.itemsize)
    else:
        elements = None
    return draw(hnp.arrays(dtype, shape, elements=elements))


printoptions = st.fixed_dictionaries({}, optional={
    "precision": st.integers(0, 10),
    "threshold": st.integers(0, 60),
    "edgeitems": st.integers(0, 4),
    "linewidth": st.integers(1, 130),
    "profile": st.sampled_from(["default", "short", "full"]),
    "sci_mode": st.sampled_from([None, True, False]),
})


@settings(max_examples=400, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(arr=arrays(), options=printoptions, variant=st.sampled_from(["plain", "leaf", "grad_fn"]))
def test_matches_torch_property(torch, arr, options, variant):
    if arr.dtype.kind != "f":
        variant = "plain"  # only floating point tensors can require grad
    try:
        set_both(torch, **options)
        expected, ours = torch_and_ours(torch, arr, variant)
    finally:
        set_both(torch, profile="default")
    assert ours == expected
