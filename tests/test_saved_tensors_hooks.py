"""``torch.autograd.graph.saved_tensors_hooks`` against PyTorch: when the hooks run, on what, in which
order, what the unpacked tensor looks like, nesting, errors, and ``save_on_cpu``."""
import textwrap

import pytest

try:
    from crosscheck import assert_same, full
except ImportError:  # tests/ made a package
    from tests.crosscheck import assert_same, full

CASES = []


def case(id, code, error=None, message=full):
    CASES.append(pytest.param(textwrap.dedent(code), error, message, id=id))


LOGGING_HOOKS = """
    def pack_hook(t):
        print("packing", t)
        return t
    def unpack_hook(t):
        print("unpacking", t)
        return t
    hooks = torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook)
"""

case("tutorial_pack_and_unpack", LOGGING_HOOKS + """
    a = torch.ones(5, requires_grad=True)
    b = torch.ones(5, requires_grad=True) * 2
    with hooks:
        y = a * b
    print("forward done")
    y.sum().backward()
    print(a.grad, b.grad)
""")
case("each_op_saves_what_pytorch_saves", LOGGING_HOOKS + """
    x = torch.tensor([1., 2.], requires_grad=True)
    w = torch.tensor([[3., 4.], [5., 6.]], requires_grad=True)
    with hooks:
        h = (x * w).exp()
        out = (h @ w).tanh().sigmoid().relu().sum() + (x / w).pow(2).mean() + (x ** w).sum()
        out = out + torch.maximum(x, w[0]).sum() + x.log().sum() + x.sin().sqrt().sum()
    out.backward()
    print(x.grad, w.grad)
""")
case("custom_function_and_linear", LOGGING_HOOKS + """
    class Double(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * 2
        @staticmethod
        def backward(ctx, grad):
            x, = ctx.saved_tensors
            return grad * 2
    layer = torch.nn.Linear(2, 1)
    with torch.no_grad():
        layer.weight.fill_(0.5)
        layer.bias.fill_(0.1)
    x = torch.tensor([[1., 2.]], requires_grad=True)
    with hooks:
        y = Double.apply(layer(x)).sum()
    y.backward()
    print(x.grad, layer.weight.grad)
""")
case("in_place_op_packs_the_old_values_clone", LOGGING_HOOKS + """
    a0 = torch.tensor([1., 2., 3.], requires_grad=True)
    b = torch.tensor([4., 5., 6.], requires_grad=True)
    a = a0 * 1
    with hooks:
        a.mul_(b)
    a.mul_(10)              # changes a again: backward must still see a's values before the first mul_
    a.sum().backward()
    print(a0.grad, b.grad)
""")
case("unpacked_is_a_new_tensor", """
    with torch.autograd.graph.saved_tensors_hooks(lambda x: x, lambda x: x):
        x = torch.tensor([1., 2., 3.], requires_grad=True)
        y = x * x
    s = y.grad_fn._saved_self
    print(s is x, s is y.grad_fn._saved_other, s.equal(x), s, s.is_leaf, s.requires_grad)
    seen = []
    with torch.autograd.graph.saved_tensors_hooks(lambda t: seen.append(t) or t, lambda p: p):
        e = x.exp()
    print(seen[0] is e, seen[0] is x, e.grad_fn._saved_result, e.grad_fn._saved_result is e)
    h = x * 2
    with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda p: p):
        z = h.exp() * h
    print(z.grad_fn._saved_self, z.grad_fn._saved_other)
""")
case("hooks_change_what_backward_sees", """
    x = torch.tensor([1., 2., -1.], requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(lambda t: t * 4, lambda t: t / 4):
        y = torch.pow(x, 2)
    y.sum().backward()
    print(x.grad, x.grad.equal(2 * x))
    x.grad = None
    with torch.autograd.graph.saved_tensors_hooks(lambda t: t * 0, lambda t: t):
        y = x * x
    y.sum().backward()
    print(x.grad)
    storage = []
    def pack(t):
        storage.append(t)
        return len(storage) - 1
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda i: storage[i]):
        y = x * x
    x.grad = None
    y.sum().backward()
    print(x.grad, len(storage))
    with torch.autograd.graph.saved_tensors_hooks(lambda t: repr(t), lambda s: eval("torch." + s)):
        y = x * x
    x.grad = None
    y.sum().backward()
    print(x.grad)
""")
case("grad_mode_in_the_hooks", """
    def pack(t):
        print("pack: grad enabled", torch.is_grad_enabled())
        return t
    def unpack(t):
        print("unpack: grad enabled", torch.is_grad_enabled())
        return t
    x = torch.tensor([1., 2.], requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
        y = (x * x).sum()
    g, = torch.autograd.grad(y, x, create_graph=True)
    g.sum().backward()
    print(g, x.grad)
""")
case("nesting_innermost_wins", """
    log = []
    outer = torch.autograd.graph.saved_tensors_hooks(lambda t: log.append("outer") or t, lambda p: p)
    inner = torch.autograd.graph.saved_tensors_hooks(lambda t: log.append("inner") or t, lambda p: p)
    a = torch.ones(3, requires_grad=True)
    with outer:
        a.exp()
        with inner:
            a.exp()
        a.exp()
    a.exp()
    print(log)
""")
case("wrapped_numbers_are_not_packed", LOGGING_HOOKS + """
    x = torch.tensor([1., 2.], requires_grad=True)
    with hooks:
        y = (x * 3 + 1).sum() + (x / 2).sum()
    y.backward()
    print(x.grad)
""")
case("freed_after_backward", """
    x = torch.tensor([1., 2.], requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
        y = x.exp()
    y.sum().backward()
    y.grad_fn._saved_result
""", "RuntimeError")
case("retain_graph_unpacks_again", """
    x = torch.tensor([1., 2.], requires_grad=True)
    count = []
    with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: count.append(1) or t):
        y = x.exp().sum()
    y.backward(retain_graph=True)
    y.backward()
    print(len(count), x.grad)
""")
case("unpack_must_give_a_tensor", """
    a = torch.ones(3, requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda p: 5):
        y = a.exp()
    y.grad_fn._saved_result
""", "TypeError")
case("pack_must_not_change_its_input", """
    a = torch.ones(3, requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(lambda t: t.mul_(2), lambda p: p):
        a.detach().requires_grad_() * a
""", "RuntimeError")
case("save_on_cpu", """
    import torch.nn as nn
    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            self.w = nn.Parameter(torch.tensor([1., 2., 3.]))
        def forward(self, x):
            with torch.autograd.graph.save_on_cpu(pin_memory=True):
                return self.w * x
    model = Model()
    model(torch.tensor([4., 5., 6.])).sum().backward()
    print(model.w.grad)
""")
case("disabled_hooks", """
    with torch.autograd.graph.disable_saved_tensors_hooks("no hooks here"):
        with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
            pass
""", "RuntimeError")


@pytest.mark.parametrize("code, error, message", CASES)
def test_same_as_torch(code, error, message):
    assert_same(code, error=error, message=message)


def test_packed_tensor_is_not_kept():
    """What the hooks are for: the graph keeps pack_hook's result, not the tensor."""
    import weakref

    import mini_autograd as torch
    x = torch.ones(1000, requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(lambda t: t.shape, lambda shape: torch.ones(shape)):
        h = x * 2
        y = h * h                             # MulBackward0 saves h twice: as self and as other
    ref = weakref.ref(h)
    del h
    assert ref() is None                      # the graph kept only pack_hook's results, h's shape
    y.sum().backward()
    assert x.grad.tolist() == [4.0] * 1000    # 2 * 2 * ones, the ones unpack_hook made
