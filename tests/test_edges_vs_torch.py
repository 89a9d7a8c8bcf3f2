"""Edge cases where mini_autograd once gave a wrong number, a nan, or a numpy error, against PyTorch.

Found by random differential testing (issue 12): a ``dim`` on a 0-d tensor, empty
tensors, bool arithmetic, duplicate dims, concatenating 0-d tensors, losses whose
targets are all ignored. Each case runs under both libraries (``crosscheck.assert_same``).
"""
import textwrap

import pytest

try:
    from crosscheck import assert_same
except ImportError:  # tests/ made a package
    from tests.crosscheck import assert_same

CASES = []


def case(id, code, error=None):
    CASES.append(pytest.param(textwrap.dedent(code), error, id=id))


case("dim_on_0d_tensor", """
    x = torch.tensor(3., requires_grad=True)
    for y in [x.sum(0), x.sum(-1, keepdim=True), x.sum((0,)), x.mean(-1), x.mean(0, keepdim=True),
              x.max(0).values, x.max(-1, keepdim=True)[0], x.transpose(0, -1), x.squeeze(0),
              x.unsqueeze(0), x.t()]:
        print(y, y.shape)
    print(x.max(0), x.argmax(0, keepdim=True), x.argmax(-1), x.argmax())
    (x.sum(0) + x.mean(-1) * 2 + x.max(0)[0] * 3 + x.transpose(0, -1) * 4).backward()
    print(x.grad)
""")
case("dim_out_of_range_on_0d", """
    torch.tensor(3.).sum(1)
""", "IndexError")
case("softmax_of_empty", """
    import torch.nn.functional as F
    e = torch.zeros(0, 3, requires_grad=True)
    print(F.softmax(e, 1), F.log_softmax(e, 1), F.softmax(e, 0))
    print(F.softmax(torch.zeros(0), 0), F.log_softmax(torch.zeros(0), -1))
    F.softmax(e, 1).sum().backward()
    print(e.grad)
""")
case("sub_bool_tensor", """
    x = torch.ones(2)
    x - True
""", "RuntimeError")
case("rsub_bool_tensor", """
    True - torch.ones(2)
""", "RuntimeError")
case("sub_of_bool_tensors", """
    torch.tensor([True, False]) - torch.tensor([True, True])
""", "RuntimeError")
case("sum_duplicate_dims", """
    torch.ones(2, 3).sum((1, -1))
""", "RuntimeError")
case("mean_duplicate_dims", """
    torch.ones(2, 3).mean([0, 0])
""", "RuntimeError")
case("cat_0d", """
    torch.cat([torch.tensor(1.), torch.tensor(2.)])
""", "RuntimeError")
case("stack_bad_dim", """
    x = torch.ones(2, 3)
    torch.stack([x, x], 5)
""", "IndexError")
case("stack_negative_dims", """
    x = torch.arange(6.).reshape(2, 3)
    for d in range(-3, 3):
        print(d, torch.stack([x, x + 1], d).shape)
""")
case("cross_entropy_all_targets_ignored", """
    import torch.nn.functional as F
    a = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
    loss = F.cross_entropy(a, torch.tensor([-100, -100]))
    print(loss)
    loss.backward()
    print(a.grad)
    b = torch.tensor([1., 2.], requires_grad=True)
    loss = F.cross_entropy(b, torch.tensor(-100))
    loss.backward()
    print(loss, b.grad)
    c = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
    F.nll_loss(c, torch.tensor([-100, 1]), reduction="sum").backward()
    print(c.grad)
""")
case("max_of_empty_dim", """
    torch.zeros(0, 3).max(0)
""", "IndexError")


@pytest.mark.parametrize("code, error", CASES)
def test_same_as_torch(code, error):
    assert_same(code, error=error)
