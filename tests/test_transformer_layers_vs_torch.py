"""The layers a small GPT block needs, and the module machinery around them, against PyTorch 2.13:
``nn.LayerNorm``/``F.layer_norm``, ``nn.GELU``/``F.gelu`` (both approximations),
``F.scaled_dot_product_attention``, ``torch.softmax``, forward hooks and
forward pre-hooks, buffers (persistent or not) in ``state_dict``, and ``nn.Linear`` with all five
arguments by position. Values, gradients and second derivatives are recorded; see
tests/crosscheck.py.
"""
import textwrap

import pytest

try:
    from crosscheck import assert_same, full
except ImportError:  # tests/ made a package
    from tests.crosscheck import assert_same, full

pytest.importorskip("torch")

CASES = []


def case(id, code, error=None, message=full):
    CASES.append(pytest.param(textwrap.dedent(code), error, message, id=id))


INPUT = """
    import torch.nn as nn
    import torch.nn.functional as F
    x = torch.tensor([[[0.5, -1.0, 2.0, 0.25], [1.5, 0.0, -2.0, 3.0]],
                      [[-0.5, 3.0, 1.0, -1.5], [2.5, 1.0, 0.0, -0.75]]],
                     dtype=torch.float64, requires_grad=True)
    mix = torch.linspace(-1.0, 1.5, 16, dtype=torch.float64).reshape(2, 2, 4)

    def second(name, y, *inputs):
        grads = torch.autograd.grad((y * y * mix).sum(), inputs, create_graph=True)
        for i, g in enumerate(grads):
            record(f"{name} grad {i}", g)
        print(name, [g.grad_fn.name() for g in grads], [edges(g.grad_fn) for g in grads])
        again = torch.autograd.grad(sum((g * g).sum() for g in grads), inputs, allow_unused=True)
        for i, g in enumerate(again):
            record(f"{name} grad of grad {i}", g)
"""

# ------------------------------------------------------------------ layer norm
case("layer_norm_module", INPUT + """
    ln = nn.LayerNorm(4)
    print(ln, nn.LayerNorm([2, 4], elementwise_affine=False), nn.LayerNorm(4, bias=False))
    print(nn.LayerNorm(4, 1e-3, True, False, None, torch.float64), list(ln.state_dict()), ln.normalized_shape)
    print([(n, p.shape) for n, p in ln.named_parameters()], ln.weight, ln.bias)
    y = ln(x.float())
    record("y", y)
    print(node(y), sorted(a for a in dir(y.grad_fn) if a.startswith("_saved")))
    print(y.grad_fn._saved_normalized_shape, y.grad_fn._saved_result1.shape, y.grad_fn._saved_result2.shape)
    record("mean", y.grad_fn._saved_result1)
    record("rstd", y.grad_fn._saved_result2)
    (y * mix.float()).sum().backward()
    record("weight grad", ln.weight.grad)
    record("bias grad", ln.bias.grad)
""")
case("layer_norm_packs_bias_input_weight", INPUT + """
    w, b = torch.randn(4, requires_grad=True), torch.randn(4, requires_grad=True)
    names = {id(x): "input", id(w): "weight", id(b): "bias"}
    packed = []
    with torch.autograd.graph.saved_tensors_hooks(lambda t: packed.append(names.get(id(t), t.shape)) or t,
                                                  lambda t: t):
        y = F.layer_norm(x.float(), (4,), w, b)
        F.layer_norm(x.float(), (4,), None, b)
        torch.autograd.grad((y * y).sum(), (w, b), create_graph=True)
    print(packed)
""")
case("layer_norm_second_derivatives", INPUT + """
    w = torch.tensor([1.5, -0.5, 2.0, 0.75], dtype=torch.float64, requires_grad=True)
    b = torch.tensor([0.1, 0.2, -0.3, 0.4], dtype=torch.float64, requires_grad=True)
    second("affine", F.layer_norm(x, (4,), w, b), x, w, b)
    second("weight only", F.layer_norm(x, [4], w), x, w)
    second("plain", F.layer_norm(x, (2, 4)), x)
    second("eps", F.layer_norm(x, torch.Size([4]), w, b, eps=0.5), x, w)
""")
case("layer_norm_shapes_and_dtypes", INPUT + """
    print(F.layer_norm(torch.ones(3, 4), (4,)), F.layer_norm(torch.arange(6.).reshape(2, 3), [2, 3]))
    ln = nn.LayerNorm(3).double()
    print(ln(torch.arange(6., dtype=torch.float64).reshape(2, 3)), ln.weight.dtype)
    print(F.layer_norm(torch.tensor([[1e-3, 2e-3, 4e-3]]), (3,)), F.layer_norm(torch.zeros(2, 2), (2,)))
""")
case("layer_norm_wrong_shape", "import torch.nn.functional as F; F.layer_norm(torch.ones(2, 3, 4), (3,))",
     "RuntimeError")
case("layer_norm_too_many_dims", "import torch.nn.functional as F; F.layer_norm(torch.ones(3, 4), [2, 3, 4])",
     "RuntimeError")
case("layer_norm_wrong_weight", """
    import torch.nn.functional as F
    F.layer_norm(torch.ones(2, 4), (4,), torch.ones(3))
""", "RuntimeError")
case("layer_norm_wrong_bias", """
    import torch.nn.functional as F
    F.layer_norm(torch.ones(2, 4), (4,), None, torch.ones(3))
""", "RuntimeError")
case("layer_norm_int_shape", "import torch.nn.functional as F; F.layer_norm(torch.ones(2, 4), 4)",
     "TypeError")

# ------------------------------------------------------------------ gelu
case("gelu", INPUT + """
    for approximate in ("none", "tanh"):
        y = F.gelu(x, approximate=approximate)
        record("gelu " + approximate, y)
        saved = sorted(a for a in dir(y.grad_fn) if a.startswith("_saved"))
        print(node(y), y.grad_fn._saved_approximate, saved)
        second("gelu " + approximate, y, x)
    g = nn.GELU()
    print(g, nn.GELU("tanh"), nn.GELU(approximate="tanh"), g(x.float()).dtype, F.gelu(torch.tensor(0.5)))
    # float64 here: in float32 PyTorch runs oneDNN's gelu, whose erf differs in the last digits
    wide = torch.tensor([-3.0, -0.5, 0.0, 0.5, 3.0, 10.0, -10.0], dtype=torch.float64)
    print(F.gelu(wide), F.gelu(wide, approximate="tanh"))
    record("float32", F.gelu(wide.float()))
    record("float32 tanh", F.gelu(wide.float(), approximate="tanh"))
""")
case("gelu_bad_approximation", "import torch.nn.functional as F; F.gelu(torch.ones(2), approximate='foo')",
     "RuntimeError")
case("gelu_of_integers", "import torch.nn.functional as F; F.gelu(torch.tensor([1, 2]))",
     "NotImplementedError")

# ------------------------------------------------------------------ attention
case("scaled_dot_product_attention", INPUT + """
    k = torch.linspace(-1, 1, 16, dtype=torch.float64).reshape(2, 1, 2, 4).requires_grad_()
    masks = [{}, {"is_causal": True}, {"scale": 0.3},
             {"attn_mask": torch.tensor([[True, False], [True, True]])},
             {"attn_mask": torch.tensor([[0.0, -1.0], [0.5, 0.0]], dtype=torch.float64)}]
    for kw in masks:
        q, v = x.reshape(2, 1, 2, 4), (x * 0.5).reshape(2, 1, 2, 4)
        y = F.scaled_dot_product_attention(q, k, v, **kw)
        record(str(kw), y)
        g = torch.autograd.grad((y * y).sum(), (x, k))
        record(str(kw) + " grads", list(g))
    print(torch.softmax(torch.tensor([0.1, -0.2, 0.3]), dim=-1))
    print(torch.log_softmax(torch.tensor([0.1, 0.3]), 0))
""")
case("attention_mask_and_causal", """
    import torch.nn.functional as F
    q = torch.ones(1, 2, 3)
    F.scaled_dot_product_attention(q, q, q, attn_mask=torch.ones(2, 2, dtype=torch.bool), is_causal=True)
""", "RuntimeError")
case("attention_value_of_one_dim", """
    import torch.nn.functional as F
    F.scaled_dot_product_attention(torch.ones(2, 3), torch.ones(2, 3), torch.ones(4))
""", "RuntimeError")
case("attention_key_of_other_dtype", """
    import torch.nn.functional as F
    F.scaled_dot_product_attention(torch.ones(2, 3), torch.ones(2, 3).double(), torch.ones(2, 3))
""", "RuntimeError")
case("attention_integer_mask", """
    import torch.nn.functional as F
    q = torch.ones(2, 3)
    F.scaled_dot_product_attention(q, q, q, attn_mask=torch.ones(2, 2).long())
""", "RuntimeError")
case("attention_mask_of_other_shape", """
    import torch.nn.functional as F
    q = torch.ones(2, 3, 4)
    F.scaled_dot_product_attention(q, q, q, attn_mask=torch.ones(3, 2))
""", "RuntimeError")
case("attention_dropout_above_one", """
    import torch.nn.functional as F
    F.scaled_dot_product_attention(torch.ones(2, 3), torch.ones(2, 3), torch.ones(2, 3), dropout_p=1.5)
""", "RuntimeError")
case("attention_negative_dropout_drops_nothing", """
    import torch.nn.functional as F
    q = torch.ones(2, 3)
    print(F.scaled_dot_product_attention(q, q, q, dropout_p=-0.5))
""")
case("layer_norm_of_integers", "torch.nn.functional.layer_norm(torch.tensor([[1, 2]]), (2,))",
     "NotImplementedError")
case("layer_norm_empty_shape", "torch.nn.functional.layer_norm(torch.ones(2, 3), ())", "RuntimeError")

# ------------------------------------------------------------------ hooks
case("forward_hooks", """
    import torch.nn as nn
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(3, 2), nn.ReLU(), nn.Linear(2, 1))
    seen = []
    h1 = net[0].register_forward_hook(
        lambda m, inp, out: seen.append(("fwd", type(m).__name__, inp[0].shape, out.shape)))
    h2 = net[1].register_forward_pre_hook(lambda m, inp: seen.append(("pre", len(inp))))
    h3 = net[2].register_forward_hook(lambda m, inp, out: out * 0 + 7)
    x = torch.ones(4, 3)
    print(net(x), seen)
    h3.remove()
    print(net(x).shape, type(h1).__name__, h1.id < h2.id)
    h4 = net[1].register_forward_pre_hook(lambda m, inp: (inp[0] * 0,))
    print(net[1](x[:, :2]), net(x).grad_fn)
    h4.remove()
    with net[0].register_forward_hook(lambda m, i, o: print("in with")):
        net(x)
    net(x)
    order = []
    net[2].register_forward_hook(lambda m, i, o: order.append("first"))
    net[2].register_forward_hook(lambda m, i, o: order.append("prepended"), prepend=True)
    net[2].register_forward_pre_hook(lambda m, args, kwargs: order.append(sorted(kwargs)), with_kwargs=True)
    net[2].register_forward_hook(lambda m, args, kwargs, out: order.append("with kwargs"), with_kwargs=True)
    net(x)
    print(order, len(net[2]._forward_hooks), len(net[2]._forward_pre_hooks))
    h1.remove(); h2.remove(); h1.remove()
    print(len(net[0]._forward_hooks), len(net[1]._forward_pre_hooks))
""")
case("forward_pre_hook_with_kwargs_bad_result", """
    import torch.nn as nn
    lin = nn.Linear(2, 2)
    lin.register_forward_pre_hook(lambda m, a, k: 5, with_kwargs=True)
    lin(torch.ones(2))
""", "RuntimeError")
case("activations_by_hook", """
    import torch.nn as nn
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 3))
    activations = {}
    def keep(name):
        def hook(module, inputs, output):
            activations[name] = output.detach()
        return hook
    for name, layer in model.named_children():
        layer.register_forward_hook(keep(name))
    out = model(torch.linspace(-1, 1, 8).reshape(2, 4))
    print({k: v.shape for k, v in activations.items()}, torch.equal(activations["2"], out.detach()))
""")

# ------------------------------------------------------------------ buffers and state
case("buffers_persistent_or_not", """
    import torch.nn as nn
    class Head(nn.Module):
        def __init__(self):
            super().__init__()
            self.register_buffer("tril", torch.tril(torch.ones(3, 3)))
            self.register_buffer("scratch", torch.zeros(2), persistent=False)
            self.proj = nn.Linear(3, 3, False)
        def forward(self, x):
            return self.proj(x).masked_fill(self.tril == 0, float("-inf"))
    head = Head()
    print(list(head.state_dict()), [n for n, _ in head.named_buffers()], head.scratch)
    other = Head()
    print(other.load_state_dict(head.state_dict()), torch.equal(other.proj.weight, head.proj.weight))
    print(other.load_state_dict({**head.state_dict(), "scratch": torch.ones(2)}, strict=False))
    head.register_buffer("scratch", torch.ones(2))
    print(list(head.state_dict()))
    print(head(torch.ones(3, 3)))
    del head.tril
    print(list(head.state_dict()), list(head._buffers))
    head.double()
    print(head.scratch.dtype)
""")
case("linear_with_five_positional_arguments", """
    import torch.nn as nn
    class Scaled(nn.Linear):
        def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
            super().__init__(in_features, out_features, bias, device, dtype)
    layer = Scaled(3, 2, False, "cpu", torch.float64)
    print(layer, layer.weight.dtype, layer.bias, nn.Linear(2, 2, True, None, None).bias.shape)
    print(nn.Linear(2, 3, device="cpu", dtype=torch.float64).weight.dtype)
""")
case("linear_on_cuda", "import torch.nn as nn; nn.Linear(2, 2, True, 'cuda')", "AssertionError")


@pytest.mark.parametrize("code, error, message", CASES)
def test_same_as_torch(code, error, message):
    assert_same(code, error=error, message=message)
