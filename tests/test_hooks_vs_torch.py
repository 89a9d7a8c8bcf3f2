"""A leaf's post-accumulate-grad hooks (``Tensor.register_post_accumulate_grad_hook``) against PyTorch,
and what any hook may return in place of the gradients it got.

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


# What a hook returns in place of a gradient (python_hook.cpp: check_result, check_single_result; then
# custom_function.cpp: check_variable_result): for a node's pre- and post-hooks a tuple of as many entries,
# for a tensor's hook one value; each None or a tensor of the gradient's dtype and shape, and a gradient
# that is None stays None.
REGISTER = {
    "node_prehook": ("y.grad_fn.register_prehook(lambda g: {returned})", "g[0]"),
    "node_posthook": ("y.grad_fn.register_hook(lambda gi, go: {returned})", "gi[0]"),
    "tensor_hook": ("y.register_hook(lambda g: {returned})", "g"),
    "leaf_hook": ("x.register_hook(lambda g: {returned})", "g"),
}
RETURNED = {
    "itself_doubled": "{grad} * 2", "a_tuple_of_it": "({grad} * 2,)", "two_entries": "({grad}, {grad})",
    "a_list": "[{grad} * 2]", "a_number": "3", "a_tuple_of_a_number": "(3,)", "float64": "{grad}.double()",
    "float64_in_a_tuple": "({grad}.double(),)", "a_slice": "{grad}[:1]",
    "a_slice_in_a_tuple": "({grad}[:1],)",
    "none_in_a_tuple": "(None,)", "the_tuple_it_got": "g", "a_new_tuple_of_the_same": "tuple(g)",
}
for kind, (register, grad) in REGISTER.items():
    for what, returned in RETURNED.items():
        hook = register.format(returned=returned.format(grad=grad))
        case(f"{kind}_returns_{what}", f"""
            x = torch.tensor([1., 2.], requires_grad=True)
            y = x * 2
            {hook}
            try:
                y.sum().backward()
                print(x.grad)
            except Exception as error:
                print(type(error).__name__, error)
        """)
case("a_none_gradient_replaced_by_a_prehook", """
    class Block(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a * 1.0
        @staticmethod
        def backward(ctx, g):
            return None
    x = torch.tensor(1.0, requires_grad=True)
    a = x * 2
    b = a * 3.0
    seen = []
    b.grad_fn.register_prehook(lambda g: seen.append(g) or (torch.tensor(5.0),))
    try:
        (Block.apply(b) + a).backward()
    except RuntimeError as error:
        print(error)
    print(seen, x.grad)
""")
case("a_hook_without_a_name", """
    import functools
    x = torch.tensor([1., 2.], requires_grad=True)
    y = x * 2
    y.register_hook(functools.partial(lambda g, k: g[:1], k=1))
    y.sum().backward()
""", "RuntimeError")


@pytest.mark.parametrize("code, error", CASES)
def test_same_as_torch(code, error):
    assert_same(code, error=error)
