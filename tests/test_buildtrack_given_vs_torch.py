"""The answer key's given pieces against PyTorch 2.13.

The in-place operand checks (``Tensor._operand`` in answers/myautograd/tensor.py) refuse what PyTorch
refuses, with PyTorch's exception and words: an operand that would change the tensor's shape, and a result
that does not fit the tensor's dtype (float numbers into an integer tensor, integers into a bool one). What
they accept gives PyTorch's numbers. A layer's parameters are drawn in place (version 1), each sharing its
drawn tensor's version counter, as ``nn.Parameter`` does.
"""
import itertools
import pathlib
import sys

import numpy as np
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "notebooks"))
from buildtrack.package import ANSWER_KEY, load  # noqa: E402

DTYPES = ["bool", "uint8", "int64", "float32", "float64"]
SHAPES = [((2,), (2,)), ((2,), ()), ((2, 3), (3,)), ((2,), (3,)), ((3,), (2, 3)), ((1,), (2,))]


def outcome(run):
    try:
        result = run()
    except (RuntimeError, TypeError) as error:
        return type(error).__name__, str(error).splitlines()[0]
    return "ok", str(result.dtype), np.asarray(result.tolist()).tolist()


@pytest.mark.parametrize("mine, theirs", list(itertools.product(DTYPES, DTYPES)))
@pytest.mark.parametrize("shapes", SHAPES, ids=str)
@pytest.mark.parametrize("name", ["add_", "mul_"])
def test_in_place_operands_are_refused_as_pytorch_refuses_them(mine, theirs, shapes, name):
    torch = pytest.importorskip("torch")
    key = load(ANSWER_KEY)
    rng = np.random.default_rng(0)
    self_numbers = rng.integers(0, 3, shapes[0]).astype(mine)
    other_numbers = rng.integers(0, 3, shapes[1]).astype(theirs)

    def in_key():
        return getattr(key.Tensor(self_numbers.copy()), name)(key.Tensor(other_numbers.copy()))

    def in_torch():
        return getattr(torch.from_numpy(self_numbers.copy()), name)(torch.from_numpy(other_numbers.copy()))

    got, want = outcome(in_key), outcome(in_torch)
    if want[0] == "ok" and got[0] == "ok":
        assert got[2] == want[2]
        assert got[1].rsplit(".", 1)[-1] == want[1].rsplit(".", 1)[-1]
    else:
        assert got[:2] == want[:2]


@pytest.mark.parametrize("seed", [0, 1])
def test_a_layers_parameters_have_pytorchs_numbers_and_versions(seed):
    torch = pytest.importorskip("torch")
    key = load(ANSWER_KEY)
    key.manual_seed(seed)
    torch.manual_seed(seed)
    mine, theirs = key.nn.Linear(3, 2), torch.nn.Linear(3, 2)
    for name in ("weight", "bias"):
        assert getattr(mine, name)._version == getattr(theirs, name)._version == 1
        np.testing.assert_array_equal(getattr(mine, name)._data, getattr(theirs, name).detach().numpy())
    drawn, drawn_theirs = key.creation.uniform(0.0, 1.0, (2,)), torch.empty(2).uniform_(0.0, 1.0)
    parameter, parameter_theirs = key.nn.Parameter(drawn), torch.nn.Parameter(drawn_theirs)
    drawn._version += 1                          # an in-place change of the drawn tensor
    with torch.no_grad():
        drawn_theirs.add_(0)
    assert parameter._version == parameter_theirs._version == 2
    assert key.nn.Parameter(key.tensor([1.0]))._version == torch.nn.Parameter(torch.tensor([1.0]))._version
