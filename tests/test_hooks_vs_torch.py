"""A leaf's post-accumulate-grad hooks (``Tensor.register_post_accumulate_grad_hook``) against PyTorch.

PyTorch's AccumulateGrad (torch/csrc/autograd/functions/accumulate_grad.h) runs them after it wrote
``.grad``, each time the node runs: also when no gradient reached it, or when the leaf's requires_grad
was switched off since; not when backward never runs the node (``inputs=``, ``autograd.grad``). Each
case runs under both libraries (``crosscheck.assert_same``) and compares what it prints or raises.
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


case("after_grad_is_written_each_backward", """
    log = []
    v = torch.tensor([0., 0., 0.], requires_grad=True)
    def hook(p):
        log.append((p is v, p.grad.tolist(), torch.is_grad_enabled()))
    h = v.register_post_accumulate_grad_hook(hook)
    v.register_hook(lambda g: log.append(("tensor hook", g.tolist())))
    (v * 2).sum().backward()
    (v * 3).sum().backward()
    h.remove()
    (v * 3).sum().backward()
    print(log, type(h).__name__, v.grad)
""")
case("an_optimizer_in_backward", """
    v = torch.tensor([0., 0., 0.], requires_grad=True)
    def step(p):
        with torch.no_grad():
            p.sub_(0.01 * p.grad)
        p.grad = None
    v.register_post_accumulate_grad_hook(step)
    v.backward(torch.tensor([1., 2., 3.]))
    print(v, v.grad, v._version)
""")
case("once_after_every_path_has_added", """
    log = []
    v = torch.ones(2, requires_grad=True)
    v.register_post_accumulate_grad_hook(lambda p: log.append(p.grad.tolist()))
    v.register_post_accumulate_grad_hook(lambda p: log.append("second"))
    (v * 2 + v * 3).sum().backward()
    print(log)
""")
case("run_when_only_none_arrived", """
    log = []
    class Block(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a * 1
        @staticmethod
        def backward(ctx, g):
            return None
    v = torch.ones(2, requires_grad=True)
    w = torch.ones(2, requires_grad=True)
    v.register_post_accumulate_grad_hook(lambda p: log.append(("v", p.grad)))
    (Block.apply(v) + w).sum().backward()
    print(log)
""")
case("run_when_requires_grad_was_switched_off", """
    log = []
    v = torch.ones(2, requires_grad=True)
    v.register_post_accumulate_grad_hook(lambda p: log.append(p.grad))
    y = (v * 2).sum()
    v.requires_grad_(False)
    y.backward()
    print(log, v.grad)
""")
case("not_run_where_backward_skips_the_leaf", """
    log = []
    v = torch.ones(2, requires_grad=True)
    w = torch.ones(2, requires_grad=True)
    v.register_post_accumulate_grad_hook(lambda p: log.append("v"))
    torch.autograd.backward((v * 2).sum() + (w * 2).sum(), inputs=[w])
    torch.autograd.grad((v * 2).sum(), v)
    print(log, v.grad, w.grad)
""")
case("recording_on_under_create_graph", """
    log = []
    v = torch.ones(2, requires_grad=True)
    v.register_post_accumulate_grad_hook(lambda p: log.append(torch.is_grad_enabled()))
    (v * v).sum().backward(create_graph=True)
    print(log)
""")
case("a_tensor_returned", """
    v = torch.ones(2, requires_grad=True)
    v.register_post_accumulate_grad_hook(lambda p: p * 2)
    (v * 2).sum().backward()
""", "RuntimeError")
case("a_number_returned", """
    v = torch.ones(2, requires_grad=True)
    v.register_post_accumulate_grad_hook(lambda p: 5)
    (v * 2).sum().backward()
""", "TypeError")
case("refused_on_a_non_leaf", """
    (torch.ones(2, requires_grad=True) * 2).register_post_accumulate_grad_hook(print)
""", "RuntimeError")
case("refused_without_requires_grad", """
    torch.ones(2).register_post_accumulate_grad_hook(print)
""", "RuntimeError")


@pytest.mark.parametrize("code, error", CASES)
def test_same_as_torch(code, error):
    assert_same(code, error=error)
