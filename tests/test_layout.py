"""The memory-layout helpers (mini_autograd/_layout.py) and the arrays a tensor may be made from.

``is_non_overlapping_and_dense`` is the one test of "one block of memory" that AccumulateGrad's layout
contract, clone, in-place overlap checks and elementwise results share. It is checked on arrays whose
answer is known, then against PyTorch's own (torch/_prims_common/__init__.py) over many random
layouts made the same way in both libraries.
"""
import numpy as np
import pytest

import mini_autograd
from mini_autograd._layout import element_strides, is_non_overlapping_and_dense

KNOWN = [
    ("row-major matrix", lambda: np.zeros((3, 4)), True),
    ("transposed", lambda: np.zeros((3, 4)).T, True),
    ("permuted 3-d", lambda: np.zeros((2, 3, 4)).transpose(2, 0, 1), True),
    ("every other column", lambda: np.zeros((3, 4))[:, ::2], False),
    ("expanded row", lambda: np.broadcast_to(np.zeros((1, 4)), (3, 4)), False),
    ("one element, odd strides", lambda: np.zeros((5, 5))[2:3, 1:2], True),
    ("empty", lambda: np.zeros((0, 3))[:, ::2], True),
    ("sizes of 1 with any stride", lambda: np.zeros((4, 1, 3))[:, :, :], True),
    ("a column of a matrix", lambda: np.zeros((3, 4))[:, 1], False),
]


@pytest.mark.parametrize("make, expected", [(make, expected) for _, make, expected in KNOWN],
                         ids=[name for name, _, _ in KNOWN])
def test_known_layouts(make, expected):
    assert is_non_overlapping_and_dense(make()) is expected


def test_element_strides_are_tensor_strides():
    x = mini_autograd.zeros(2, 3, 4).permute(2, 0, 1)
    assert element_strides(x._data) == x.stride() == (1, 12, 4)


VIEWS = ("permute", "step", "expand", "transpose")       # moves after which every stride is PyTorch's
ALL_MOVES = VIEWS + ("squeeze", "clone", "select", "reshape", "times two")


def random_layouts(lib, rng, moves=VIEWS, count=300, longest=3):
    """The same tensor layouts made in ``lib`` (mini_autograd or torch), from one stream of choices:
    ``count`` random zeros tensors, each moved by up to ``longest`` random ``moves``."""
    for _ in range(count):
        x = lib.zeros(*[int(n) for n in rng.integers(1, 4, size=rng.integers(1, 4))])
        for _ in range(rng.integers(0, longest + 1)):
            move = moves[rng.integers(0, len(moves))]
            if move == "permute" and x.dim() > 1:
                x = x.permute(*[int(d) for d in rng.permutation(x.dim())])
            elif move == "step":
                dim = int(rng.integers(0, x.dim()))
                x = x.narrow(dim, 0, max(1, x.shape[dim] - 1))[(slice(None),) * dim + (slice(None, None, 2),)]
            elif move == "expand":
                dim = int(rng.integers(0, x.dim() + 1))
                sizes = list(x.unsqueeze(dim).shape)
                sizes[dim] = int(rng.integers(1, 3))
                x = x.unsqueeze(dim).expand(*sizes)
            elif move == "transpose":
                x = x.transpose(0, -1)
            elif move == "squeeze" and x.dim() > 1:
                x = x.squeeze(int(rng.integers(0, x.dim())))
            elif move == "clone":
                x = x.clone()
            elif move == "select" and x.dim() > 1:
                x = x[0]
            elif move == "reshape":
                x = x.reshape(-1)
            elif move == "times two":
                x = x * 2
            yield x


def test_dense_as_pytorch_decides():
    torch = pytest.importorskip("torch")
    from torch._prims_common import is_non_overlapping_and_dense_or_false as pytorch_dense
    mine = random_layouts(mini_autograd, np.random.default_rng(0))
    theirs = random_layouts(torch, np.random.default_rng(0))
    answers = set()
    for x, y in zip(mine, theirs, strict=True):
        assert x.stride() == y.stride(), (x.shape, x.stride(), y.stride())
        answer = is_non_overlapping_and_dense(x._data)
        assert answer == pytorch_dense(y), (tuple(x.shape), x.stride())
        answers.add(answer)
    assert answers == {True, False}       # both kinds were drawn


ARRAYS = {
    "flipped": lambda: np.arange(6.0)[::-1],
    "flipped columns": lambda: np.zeros((2, 3))[:, ::-1],
    "strides not whole elements": lambda: np.ndarray((3,), np.float32, buffer=np.zeros(20, np.uint8),
                                                     strides=(6,)),
    "a list": lambda: [1.0, 2.0],
}


@pytest.mark.parametrize("name", ARRAYS)
@pytest.mark.parametrize("factory", ["tensor", "as_tensor", "from_numpy"])
def test_arrays_refused_as_pytorch_refuses(name, factory):
    torch = pytest.importorskip("torch")
    outcomes = []
    for lib in (mini_autograd, torch):
        try:
            result = getattr(lib, factory)(ARRAYS[name]())
            outcomes.append(("ok", result.tolist()))
        except (TypeError, ValueError) as error:
            outcomes.append((type(error).__name__, str(error)))
    assert outcomes[0] == outcomes[1]


def test_flipped_array_refused_without_torch():
    with pytest.raises(ValueError, match="negative"):
        mini_autograd.from_numpy(np.arange(3.0)[::-1])
    assert mini_autograd.tensor(np.arange(3.0)[::-1].copy()).tolist() == [2.0, 1.0, 0.0]


def test_clone_and_unsqueeze_keep_pytorch_strides():
    """Strides of dims of size 1 too: ``clone`` of a dense tensor copies them (empty_strided), and
    ``unsqueeze`` makes the new dim's stride as PyTorch's inferUnsqueezeGeometry does."""
    torch = pytest.importorskip("torch")
    mine = list(random_layouts(mini_autograd, np.random.default_rng(1)))
    theirs = list(random_layouts(torch, np.random.default_rng(1)))
    for x, y in zip(mine, theirs, strict=True):
        for dim in range(x.dim() + 1):
            assert x.unsqueeze(dim).stride() == y.unsqueeze(dim).stride(), (tuple(x.shape), x.stride(), dim)
        assert x.clone().stride() == y.clone().stride(), (tuple(x.shape), x.stride())


def test_strides_of_dims_larger_than_one_are_pytorchs():
    """docs/limits.md: only the strides of dimensions of size 1 may differ from PyTorch's."""
    torch = pytest.importorskip("torch")
    mine = random_layouts(mini_autograd, np.random.default_rng(2), ALL_MOVES, count=400, longest=5)
    theirs = random_layouts(torch, np.random.default_rng(2), ALL_MOVES, count=400, longest=5)
    for x, y in zip(mine, theirs, strict=True):
        assert tuple(x.shape) == tuple(y.shape)
        mine_strides = [st for st, n in zip(x.stride(), x.shape, strict=True) if n > 1]
        their_strides = [st for st, n in zip(y.stride(), y.shape, strict=True) if n > 1]
        assert mine_strides == their_strides, (tuple(x.shape), x.stride(), y.stride())
