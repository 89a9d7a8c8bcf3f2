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


case("double_backward_graphs", """
    import warnings
    import torch.nn.functional as F
    warnings.simplefilter("ignore")
    def names(t):
        out, seen, stack = [], set(), [t.grad_fn]
        while stack:
            f = stack.pop()
            if f is None or id(f) in seen:
                continue
            seen.add(id(f))
            out.append(f.name())
            stack.extend(n for n, _ in f.next_functions)
        return sorted(out)
    exprs = ["x[0]", "x[:,1:]", "x[[0,1]]", "x[x>2]", "x.relu()", "x.abs()", "x.max()", "x.max(1)[0]",
             "x.exp()", "x.sigmoid()", "x.tanh()", "x*x", "x.sqrt()", "x.log()", "x/2", "1/x", "x.t()",
             "x.sum(1)", "x.mean(0)", "x.mean()", "F.softmax(x,1)", "F.log_softmax(x,1)", "x.pow(3)",
             "x.reshape(3,2)", "x.expand(2,2,3)", "x.unsqueeze(0)", "x.transpose(0,1)",
             "torch.maximum(x, torch.ones(3, dtype=torch.float64))", "F.mse_loss(x, torch.ones(2,3))",
             "F.cross_entropy(x, torch.tensor([0,1]))", "x.clamp(min=1)",
             "x @ torch.ones(3, dtype=torch.float64)", "x.squeeze()", "x.sin()", "x.cos()", "x.norm()",
             "x.amax(1)", "x.min()", "torch.where(x > 2, x, x * 2)",
             "F.binary_cross_entropy_with_logits(x, torch.ones(2,3) * 0.3)", "F.l1_loss(x, torch.ones(2,3))",
             "torch.cat([x, x], 0)", "torch.stack([x, x], 1)", "x.flatten()", "x.view(-1)", "2 ** x",
             "x ** x", "x - 1", "1 - x", "-x", "x.t() @ x",
             "F.linear(x, torch.ones(4, 3, dtype=torch.float64), torch.ones(4, dtype=torch.float64))"]
    for e in exprs:
        x = torch.tensor([[0.5, 1.5, 2.5], [3., 0.7, 1.2]], dtype=torch.float64, requires_grad=True)
        y = eval(e)
        g, = torch.autograd.grad((y * y).sum(), x, create_graph=True)
        gg, = torch.autograd.grad((g * g).sum(), x)
        print(e, names(g))
        record(e, gg)
""")
case("gradient_summed_to_a_0d_input_is_one_sum", """
    x = torch.tensor(2., dtype=torch.float64, requires_grad=True)
    v = torch.tensor([1., 2., 3.], dtype=torch.float64, requires_grad=True)
    (g,) = torch.autograd.grad((x * v).sum(), x, create_graph=True)    # broadcast x summed back: SumBackward0
    print(g, node(g))
    (h,) = torch.autograd.grad((x.expand(3) * v).sum(), x, create_graph=True)
    print(h, node(h))
    print(torch.autograd.functional.jvp(lambda a: (a * a).sum(), (v,), (v.detach(),), create_graph=True))
""")
case("bce_dtype_mismatch", """
    import torch.nn.functional as F
    F.binary_cross_entropy(torch.ones(2, dtype=torch.float64) * 0.5, torch.ones(2))
""", "RuntimeError")
case("matmul_dtype_mismatch_messages", """
    a = torch.ones(2, 3, dtype=torch.float64)
    v = torch.ones(3)
    for f in [lambda: a @ v, lambda: v @ a.t(), lambda: torch.dot(v, v.double()),
              lambda: torch.bmm(torch.ones(2, 2, 3), torch.ones(2, 3, 2, dtype=torch.float64))]:
        try:
            f()
        except RuntimeError as e:
            print(e)
""")


@pytest.mark.parametrize("code, error", CASES)
def test_same_as_torch(code, error):
    assert_same(code, error=error)
