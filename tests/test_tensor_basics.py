"""Tensor basics: creation, dtype inference, attributes, numpy sharing, .data/.detach, seeding.

Expectations are PyTorch 2.13's behaviour on the subset (float32, float64,
int64, bool).
"""
import numpy as np
import pytest

import mini_autograd as torch


# ------------------------------------------------------------------ creation
@pytest.mark.parametrize("data, dtype, shape", [
    (1, torch.int64, ()),
    (1.0, torch.float32, ()),
    (True, torch.bool, ()),
    ([1, 2], torch.int64, (2,)),
    ([1, 2.0], torch.float32, (2,)),
    ([True, False], torch.bool, (2,)),
    ([True, 1], torch.int64, (2,)),
    ([1.5, True], torch.float32, (2,)),
    ([[1, 2], [3, 4]], torch.int64, (2, 2)),
    ((1, 2, 3), torch.int64, (3,)),
    ([[[1.0]], [[2.0]]], torch.float32, (2, 1, 1)),
    ([], torch.float32, (0,)),
    ([[], []], torch.float32, (2, 0)),
])
def test_tensor_dtype_and_shape_inference(data, dtype, shape):
    t = torch.tensor(data)
    assert t.dtype is dtype
    assert t.shape == shape
    assert t.ndim == len(shape) and t.dim() == len(shape)


@pytest.mark.parametrize("array, dtype", [
    (np.array([1.0, 2.0]), torch.float64),
    (np.array([1.0], dtype=np.float32), torch.float32),
    (np.array([1, 2]), torch.int64),
    (np.array([True]), torch.bool),
    (np.float64(2.0), torch.float64),
    (np.int64(3), torch.int64),
])
def test_tensor_from_numpy_values_keeps_their_dtype(array, dtype):
    assert torch.tensor(array).dtype is dtype


def test_tensor_copies_its_data():
    a = np.array([1.0, 2.0])
    t = torch.tensor(a)
    a[0] = 100.0
    assert t.tolist() == [1.0, 2.0]
    lst = [1.0, 2.0]
    t = torch.tensor(lst)
    lst[0] = 5.0
    assert t.tolist() == [1.0, 2.0]


def test_tensor_dtype_argument():
    assert torch.tensor([1, 2], dtype=torch.float64).dtype is torch.float64
    assert torch.tensor([1, 2], dtype=torch.float32).tolist() == [1.0, 2.0]
    assert torch.tensor([1.7, -2.2], dtype=torch.int64).tolist() == [1, -2]
    assert torch.tensor([0, 2], dtype=torch.bool).tolist() == [False, True]
    assert torch.tensor(3, dtype=torch.float64).item() == 3.0
    assert torch.float is torch.float32 and torch.double is torch.float64 and torch.long is torch.int64


def test_tensor_requires_grad_argument():
    t = torch.tensor([1.0, 2.0], requires_grad=True)
    assert t.requires_grad and t.is_leaf and t.grad is None and t.grad_fn is None
    assert not torch.tensor([1.0]).requires_grad


def test_zeros_ones_full():
    z = torch.zeros(2, 3)
    assert z.dtype is torch.float32 and z.shape == (2, 3) and z.tolist() == [[0.0] * 3] * 2
    assert torch.zeros((2, 3)).shape == (2, 3)
    assert torch.zeros([2, 3]).shape == (2, 3)
    assert torch.zeros(()).shape == () and torch.zeros(()).item() == 0.0
    assert torch.zeros(0).shape == (0,)
    assert torch.zeros(2, 0).numel() == 0
    o = torch.ones(3, dtype=torch.float64, requires_grad=True)
    assert o.dtype is torch.float64 and o.requires_grad and o.tolist() == [1.0, 1.0, 1.0]
    assert torch.full((2,), 1.5).dtype is torch.float32
    assert torch.full((2,), 1).dtype is torch.int64
    assert torch.full((2,), True).dtype is torch.bool
    assert torch.full((2, 2), 7.0).tolist() == [[7.0, 7.0], [7.0, 7.0]]
    assert torch.full((2,), 3, dtype=torch.float64).tolist() == [3.0, 3.0]


def test_arange():
    assert torch.arange(5).tolist() == [0, 1, 2, 3, 4]
    assert torch.arange(5).dtype is torch.int64
    assert torch.arange(1, 4).tolist() == [1, 2, 3]
    assert torch.arange(0, 10, 3).tolist() == [0, 3, 6, 9]
    a = torch.arange(0.0, 1.0, 0.25)
    assert a.dtype is torch.float32 and a.tolist() == [0.0, 0.25, 0.5, 0.75]
    assert torch.arange(3, dtype=torch.float64).dtype is torch.float64
    assert torch.arange(6.).reshape(2, 3).tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]


def test_like_functions_keep_shape_and_dtype():
    x = torch.ones(2, 3, dtype=torch.float64)
    for t, value in ((torch.zeros_like(x), 0.0), (torch.ones_like(x), 1.0), (torch.full_like(x, 3.5), 3.5)):
        assert t.shape == (2, 3) and t.dtype is torch.float64
        assert t.tolist() == [[value] * 3] * 2
        assert not t.requires_grad
    assert torch.ones_like(x, dtype=torch.int64).dtype is torch.int64
    i = torch.tensor([1, 2])
    assert torch.zeros_like(i).dtype is torch.int64
    y = torch.zeros_like(torch.ones(2, requires_grad=True))
    assert not y.requires_grad and y.is_leaf
    assert torch.zeros_like(x, requires_grad=True).requires_grad


def test_rand_randn_shapes_dtypes_ranges():
    torch.manual_seed(3)
    r = torch.rand(1000)
    assert r.dtype is torch.float32 and r.shape == (1000,)
    values = r.numpy()
    assert values.min() >= 0.0 and values.max() < 1.0
    assert 0.4 < values.mean() < 0.6
    n = torch.randn(2, 500)
    assert n.dtype is torch.float32 and n.shape == (2, 500)
    assert abs(n.numpy().mean()) < 0.15 and 0.85 < n.numpy().std() < 1.15
    assert torch.rand(2, dtype=torch.float64).dtype is torch.float64
    assert torch.randn((3, 2)).shape == (3, 2)
    assert torch.randn(3, requires_grad=True).requires_grad


def test_manual_seed_reproducibility():
    torch.manual_seed(0)
    a, b = torch.rand(5), torch.randn(3)
    torch.manual_seed(0)
    c, d = torch.rand(5), torch.randn(3)
    assert a.tolist() == c.tolist() and b.tolist() == d.tolist()
    torch.manual_seed(1)
    assert torch.rand(5).tolist() != a.tolist()
    torch.manual_seed(0)
    assert torch.rand(5).tolist() == a.tolist()
    assert torch.rand(5).tolist() != a.tolist()          # the stream moves on


# ---------------------------------------------------------------- attributes
def test_shape_size_numel():
    x = torch.arange(24.).reshape(2, 3, 4)
    assert x.shape == (2, 3, 4) and isinstance(x.shape, tuple)
    assert repr(x.shape) == "torch.Size([2, 3, 4])"
    assert x.size() == x.shape
    assert x.size(0) == 2 and x.size(-1) == 4 and x.size(1) == 3
    assert x.shape[1] == 3
    assert x.numel() == 24 and torch.numel(x) == 24
    assert x.ndim == 3 and x.dim() == 3
    assert len(x) == 2
    assert repr(torch.tensor(1.0).shape) == "torch.Size([])"
    with pytest.raises(IndexError, match=r"Dimension out of range \(expected to be in range of \[-3, 2\], "
                                         r"but got 3\)"):
        x.size(3)


def test_item_and_tolist():
    x = torch.tensor([[1.5, 2.0], [3.0, 4.0]])
    assert x.tolist() == [[1.5, 2.0], [3.0, 4.0]]
    assert x[0, 0].item() == 1.5 and type(x[0, 0].item()) is float
    assert torch.tensor(3).item() == 3 and type(torch.tensor(3).item()) is int
    assert torch.tensor(True).item() is True
    assert torch.tensor([7.0]).item() == 7.0               # one element, any shape
    assert torch.tensor(2.5).tolist() == 2.5
    assert type(torch.tensor([1, 2]).tolist()[0]) is int
    assert float(torch.tensor(2.5)) == 2.5 and int(torch.tensor(3)) == 3


def test_numpy_shares_memory():
    y = torch.tensor([1.0, 2.0])
    arr = y.numpy()
    assert isinstance(arr, np.ndarray) and arr.dtype == np.float32
    arr[1] = 7.0
    assert y.tolist() == [1.0, 7.0]
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    a = x.detach().numpy()
    a[0] = 10.0
    assert x.tolist() == [10.0, 2.0, 3.0]
    assert np.shares_memory(x.detach().numpy(), x.detach().numpy())


def test_from_numpy_shares_memory():
    a = np.array([1.0, 2.0])
    t = torch.from_numpy(a)
    assert t.dtype is torch.float64
    a[0] = 5.0
    assert t.tolist() == [5.0, 2.0]


def test_data_is_detached_with_its_own_version_counter():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    d = x.data
    assert not d.requires_grad and d.is_leaf and d.grad_fn is None
    d[0] = 5.0                                    # shares memory ...
    assert x.tolist() == [5.0, 2.0]
    assert d._version == 1 and x._version == 0    # ... but not the version counter
    d.add_(1)
    assert x._version == 0
    y = x * 2
    assert not y.data.requires_grad and y.data.tolist() == [12.0, 6.0]


def test_changes_through_data_are_invisible_to_autograd():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * x                                     # saves x
    x.data.mul_(10)                               # no version bump: no error, new values used
    y.sum().backward()
    assert x.grad.tolist() == [20.0, 40.0]


def test_data_setter_replaces_the_values():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    x.data = torch.tensor([9.0, 9.0])
    assert x.tolist() == [9.0, 9.0] and x.requires_grad and x.is_leaf


def test_detach_shares_data_and_version_counter():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    d = y.detach()
    assert not d.requires_grad and d.is_leaf and d.grad_fn is None
    assert np.shares_memory(d.numpy(), y.detach().numpy())
    d.add_(1)
    assert y.tolist() == [3.0, 5.0]
    assert d._version == 1 and y._version == 1
    e = x.detach()
    e.zero_()
    assert x._version == 1 and x.tolist() == [0.0, 0.0]


def test_detach_in_place():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    assert y.detach_() is y
    assert y.grad_fn is None and not y.requires_grad and y.is_leaf


def test_requires_grad_setter_and_method():
    x = torch.tensor([1.0, 2.0])
    assert x.requires_grad_() is x and x.requires_grad
    x.requires_grad_(False)
    assert not x.requires_grad
    x.requires_grad = True
    assert x.requires_grad and (x * 2).requires_grad


def test_zero_and_fill_under_no_grad():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    (x * 3).sum().backward()
    x.grad.zero_()
    assert x.grad.tolist() == [0.0, 0.0]
    with torch.no_grad():
        x.zero_()
    assert x.tolist() == [0.0, 0.0] and x.requires_grad


def test_assign_grad():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    x.grad = torch.tensor([0.5, 0.5])
    assert x.grad.tolist() == [0.5, 0.5]
    (x * 2).sum().backward()
    assert x.grad.tolist() == [2.5, 2.5]
    x.grad = None
    assert x.grad is None


def test_comparison_gives_bool_tensors_outside_the_graph():
    x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
    m = x > 0
    assert m.dtype is torch.bool and m.tolist() == [True, False, True]
    assert not m.requires_grad and m.grad_fn is None
    assert (x == 3.0).tolist() == [False, False, True]


def test_is_tensor_and_isinstance():
    t = torch.tensor([1.0])
    assert torch.is_tensor(t) and isinstance(t, torch.Tensor)
    assert not torch.is_tensor([1.0])


# ------------------------------------------------------------------ printing
def test_printing_basics():
    assert repr(torch.tensor(7.0)) == "tensor(7.)"
    assert repr(torch.tensor([1.0, 2.5])) == "tensor([1.0000, 2.5000])"
    assert repr(torch.tensor([1, 2])) == "tensor([1, 2])"
    assert repr(torch.tensor([True, False])) == "tensor([ True, False])"
    assert repr(torch.tensor([1.0], dtype=torch.float64)) == "tensor([1.], dtype=torch.float64)"
    assert repr(torch.tensor(2.0, requires_grad=True)) == "tensor(2., requires_grad=True)"
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    assert repr((x * 3).mean()) == "tensor(6., grad_fn=<MeanBackward0>)"
    assert repr(torch.float32) == "torch.float32" and repr(torch.int64) == "torch.int64"
    assert str(torch.tensor(7.0)) == "tensor(7.)"


def test_printing_grad_fn_node():
    x = torch.tensor(1.0, requires_grad=True)
    node = (x + 1).grad_fn
    text = repr(node)
    assert text.startswith("<AddBackward0 object at 0x") and text.endswith(">")
