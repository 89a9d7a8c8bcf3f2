"""The layers and functions after the basics, against PyTorch: dropout, batch norm, embeddings, one_hot,
the smooth L1 losses, ``Module.to``, ``meshgrid``, the smaller integer dtypes, and small tensor methods.

Values that come from random draws (dropout masks) are compared as they are: mini_autograd
draws PyTorch's random numbers (tests/test_rng_vs_torch.py); everything else as in
tests/test_vs_torch.py.
"""
import textwrap

import pytest

import mini_autograd as torch

try:
    from crosscheck import assert_same, compare, describe, full
    from test_tutorial_programs import run_program
except ImportError:  # tests/ made a package
    from tests.crosscheck import assert_same, compare, describe, full
    from tests.test_tutorial_programs import run_program

real_torch = pytest.importorskip("torch")

CASES = []


def case(id, code, error=None, message=full):
    CASES.append(pytest.param(textwrap.dedent(code), error, message, id=id))


# ------------------------------------------------------------------ dropout
case("dropout_returns_its_input", """
    import torch.nn.functional as F
    a = torch.ones(4, requires_grad=True)
    print(F.dropout(a, 0.0) is a, F.dropout(a, 0.5, training=False) is a, F.dropout(a[:0], 0.5).shape)
    print(F.dropout(a, 1.0), node(F.dropout(a, 1.0)), F.dropout(a, 1.0).grad_fn._saved_other)
    drop = torch.nn.Dropout(0.2)
    print(drop, torch.nn.Dropout(0.2, inplace=True), drop.training)
    drop.eval()
    print(drop.training, drop(a) is a)
    print(node(F.dropout(a, 0.5)), node(torch.dropout(a, 0.5, True)))
    print(node(F.dropout(a * 1, 0.5, inplace=True)))
""")
case("dropout_p_too_large", "torch.nn.functional.dropout(torch.ones(2), 1.5)", "ValueError")
case("dropout_p_negative", "torch.nn.Dropout(-0.1)", "ValueError")
case("dropout_of_integers", "torch.nn.functional.dropout(torch.ones(3, dtype=torch.int64), 0.5)",
     "RuntimeError")

# ------------------------------------------------------------------ batch norm
BN_INPUT = """
    import torch.nn as nn
    x = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.0, -2.0], [-0.5, 3.0, 1.0], [2.5, 1.0, 0.0]],
                     requires_grad=True)
"""
case("batch_norm_training", BN_INPUT + """
    bn = nn.BatchNorm1d(3)
    print(bn, list(bn.state_dict()), bn.num_batches_tracked.dtype, [n for n, _ in bn.named_parameters()])
    y = bn(x)
    print(y)
    print(node(y), sorted(a for a in dir(y.grad_fn) if a.startswith("_saved")))
    print(y.grad_fn._saved_eps, y.grad_fn._saved_training, y.grad_fn._saved_result1, y.grad_fn._saved_result2)
    print(bn.running_mean, bn.running_var, bn.num_batches_tracked)
    (y * torch.arange(12.).reshape(4, 3)).sum().backward()
    record("x.grad", x.grad)
    record("weight.grad", bn.weight.grad)
    record("bias.grad", bn.bias.grad)
    bn(x * 2)
    print(bn.running_mean, bn.running_var, bn.num_batches_tracked)
""")
case("batch_norm_eval", BN_INPUT + """
    bn = nn.BatchNorm1d(3, momentum=0.5)
    bn(x)
    bn.eval()
    print(bn.training, bn(x[:1]))
    y = bn(x)
    print(y.grad_fn._saved_training, y.grad_fn._saved_result1)
    (y * torch.arange(12.).reshape(4, 3)).sum().backward()
    record("x.grad", x.grad)
    record("weight.grad", bn.weight.grad)
    print(bn.running_mean, bn.num_batches_tracked)
    bn.train()
    print(bn.training)
""")
case("batch_norm_options", BN_INPUT + """
    plain = nn.BatchNorm1d(3, affine=False)
    print(plain, list(plain.state_dict()), edges(plain(x).grad_fn))
    untracked = nn.BatchNorm1d(3, track_running_stats=False)
    print(untracked, list(untracked.state_dict()), untracked.running_mean)
    untracked.eval()
    print(untracked(x))
    cumulative = nn.BatchNorm1d(3, momentum=None)
    cumulative(x)
    cumulative(x * 2)
    print(cumulative.running_mean, cumulative.running_var, cumulative.num_batches_tracked)
    print(nn.BatchNorm1d(3, bias=False))
    record("eps", nn.BatchNorm1d(3, eps=1e-3)(x.detach()))
    with torch.no_grad():
        print(nn.BatchNorm1d(3)(x).grad_fn)
""")
case("batch_norm_3d_input", BN_INPUT + """
    bn = nn.BatchNorm1d(2)
    z = torch.arange(24.).reshape(3, 2, 4).requires_grad_()
    y = bn(z)
    print(y[0], bn.running_mean, bn.running_var)
    (y * y).sum().backward()
    record("z.grad", z.grad)
""")
case("batch_norm_functional", BN_INPUT + """
    import torch.nn.functional as F
    mean, var = torch.zeros(3), torch.ones(3)
    y = F.batch_norm(x, mean, var, training=True, momentum=0.2)
    record("y", y)
    print(mean, var)
    print(F.batch_norm(x, mean, var))
""")
case("batch_norm_one_value_per_channel", BN_INPUT + "    nn.BatchNorm1d(3)(torch.ones(1, 3))", "ValueError")
case("batch_norm_wrong_channels", BN_INPUT + "    nn.BatchNorm1d(3)(torch.ones(4, 4))", "RuntimeError")
case("batch_norm_1d_input", BN_INPUT + "    nn.BatchNorm1d(3)(torch.ones(4))", "ValueError")
case("batch_norm_4d_input", BN_INPUT + "    nn.BatchNorm1d(3)(torch.ones(2, 3, 2, 2))", "ValueError")
case("batch_norm_mixed_dtypes", BN_INPUT + "    nn.BatchNorm1d(3)(torch.ones(4, 3, dtype=torch.float64))",
     "RuntimeError")

# ------------------------------------------------------------------ embedding
case("embedding", """
    import torch.nn as nn
    e = nn.Embedding(5, 3, padding_idx=1)
    with torch.no_grad():
        e.weight.copy_(torch.arange(15.).reshape(5, 3))
    idx = torch.tensor([[0, 1, 1], [4, 0, 2]])
    out = e(idx)
    print(e, out.shape, node(out), sorted(a for a in dir(out.grad_fn) if a.startswith("_saved")))
    print(out.grad_fn._saved_indices, out.grad_fn._saved_padding_idx, out.grad_fn._saved_weight_sym_argsize_0)
    (out * torch.arange(18.).reshape(2, 3, 3)).sum().backward()
    print(e.weight.grad)
    print(e(torch.tensor(2)), e(torch.tensor([3], dtype=torch.int32)))
    print(nn.Embedding(5, 3, padding_idx=-1).padding_idx, nn.Embedding(4, 2, max_norm=1.0, sparse=False))
    frozen = nn.Embedding.from_pretrained(torch.ones(3, 2))
    print(frozen.weight.requires_grad, frozen(torch.tensor([1])))
    w = torch.ones(4, 2, requires_grad=True)
    print(node(torch.nn.functional.embedding(torch.tensor([0, 0, 1]), w * 1)))
""")
case("embedding_double_backward", """
    w = torch.tensor([[1., 2.], [3., 4.], [5., 6.]], requires_grad=True)
    out = torch.nn.functional.embedding(torch.tensor([0, 2, 0]), w)
    g, = torch.autograd.grad((out ** 2).sum(), w, create_graph=True)
    print(g)
    g.sum().backward()
    print(w.grad)
""")
case("embedding_max_norm", """
    w = torch.tensor([[3., 4.], [0.3, 0.4], [6., 8.]])
    out = torch.nn.functional.embedding(torch.tensor([0, 1]), w, max_norm=1.0)
    record("out", out)
    record("w", w)
""")
case("embedding_scale_grad_by_freq", """
    w = torch.ones(3, 2, requires_grad=True)
    torch.nn.functional.embedding(torch.tensor([0, 0, 1]), w, scale_grad_by_freq=True).sum().backward()
    print(w.grad)
""")
case("embedding_index_too_large", "torch.nn.Embedding(5, 3)(torch.tensor([5]))", "IndexError")
case("embedding_index_negative", "torch.nn.Embedding(5, 3)(torch.tensor([-1]))", "IndexError")
case("embedding_float_indices", "torch.nn.Embedding(5, 3)(torch.tensor([1.]))", "RuntimeError")
case("embedding_padding_out_of_range", "torch.nn.Embedding(5, 3, padding_idx=5)", "AssertionError")

# ------------------------------------------------------------------ one_hot, smooth L1, Huber
case("one_hot", """
    import torch.nn.functional as F
    print(F.one_hot(torch.tensor([0, 3])), F.one_hot(torch.tensor([0, 3]), 5).dtype)
    print(F.one_hot(torch.tensor([[0, 1], [2, 0]])).shape, F.one_hot(torch.tensor(2), 4))
    print(F.one_hot(torch.tensor([], dtype=torch.int64), 3).shape)
""")
case("one_hot_too_few_classes", "torch.nn.functional.one_hot(torch.tensor([0, 3]), 3)", "RuntimeError")
case("one_hot_negative", "torch.nn.functional.one_hot(torch.tensor([0, -1]))", "RuntimeError")
case("one_hot_floats", "torch.nn.functional.one_hot(torch.tensor([0., 1.]))", "RuntimeError")
case("one_hot_int32", "torch.nn.functional.one_hot(torch.tensor([1], dtype=torch.int32), 3)", "RuntimeError")
case("one_hot_empty", "torch.nn.functional.one_hot(torch.tensor([], dtype=torch.int64))", "RuntimeError")
case("smooth_l1_and_huber", """
    import torch.nn.functional as F
    x = torch.tensor([0.5, 2.0, -3.0, 0.1], requires_grad=True)
    t = torch.tensor([0.0, 0.0, 0.0, 0.3])
    for beta in (1.0, 0.5, 0.0):
        loss = F.smooth_l1_loss(x, t, beta=beta)
        loss.backward()
        print(beta, loss, node(loss), x.grad)
        x.grad = None
    print(F.smooth_l1_loss(x, t, reduction="none"), F.smooth_l1_loss(x, t, reduction="sum"))
    print(torch.nn.SmoothL1Loss(beta=0.5), torch.nn.SmoothL1Loss(beta=0.5)(x, t))
    for delta in (1.0, 0.5, 2.0):
        loss = F.huber_loss(x, t, delta=delta)
        loss.backward()
        print(delta, loss, node(loss), x.grad)
        x.grad = None
    print(torch.nn.HuberLoss(reduction="sum", delta=0.5)(x, t), F.huber_loss(x, t, reduction="none"))
    print(F.smooth_l1_loss(x, torch.zeros(2, 4)))
    xx = x.double()
    g, = torch.autograd.grad(F.smooth_l1_loss(xx, t.double(), beta=0.7), xx, create_graph=True)
    print(g)
""")
case("smooth_l1_negative_beta", """
    torch.nn.functional.smooth_l1_loss(torch.ones(2), torch.zeros(2), beta=-1.0)
""", "RuntimeError")

# ------------------------------------------------------------------ Module.to, train and eval
case("module_to", """
    import torch.nn as nn
    model = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3), nn.Dropout(0.5))
    weight = model[0].weight
    model(torch.ones(4, 2)).sum().backward()
    print(model.to(torch.float64) is model, model[0].weight is weight, weight.dtype, weight.grad.dtype)
    print(model[1].running_mean.dtype, model[1].num_batches_tracked.dtype)
    print(weight.requires_grad, weight.is_leaf)
    print(model(torch.ones(4, 2, dtype=torch.float64)).dtype)
    print(model.to("cpu") is model, model.float()[0].bias.dtype, model.double()[0].bias.dtype)
    print(model.to(torch.device("cpu"), torch.float32)[0].weight.dtype, model.cpu() is model)
    print(model.to(dtype=torch.float64)[0].weight.dtype, model.to(torch.ones(1))[0].weight.dtype)
    model.eval()
    print(model.training, [m.training for m in model], model[2](torch.ones(2)))
    print(model.train() is model, [m.training for m in model])
""")
case("module_to_an_integer_dtype", "torch.nn.Linear(2, 3).to(torch.int64)", "TypeError")
case("module_to_cuda", "torch.nn.Linear(2, 3).to('cuda')", "AssertionError")

# ------------------------------------------------------------------ meshgrid
case("meshgrid", """
    a = torch.tensor([1., 2.], requires_grad=True)
    b = torch.tensor([3., 4., 5.], requires_grad=True)
    for kwargs in ({"indexing": "ij"}, {"indexing": "xy"}):
        xs, ys = torch.meshgrid(a, b, **kwargs)
        print(kwargs, xs, ys, node(xs), [node(g.grad_fn.next_functions[0][0] and g) for g in (xs, ys)])
        (xs * ys).sum().backward()
        print(a.grad, b.grad)
        a.grad = b.grad = None
    print(torch.meshgrid([a, b], indexing="ij")[0].shape, torch.meshgrid(a, indexing="ij"))
    print(torch.meshgrid(torch.tensor(3.), b, indexing="xy")[0].shape)
""")
case("meshgrid_warns_without_indexing", """
    grid = torch.meshgrid(torch.tensor([1., 2.]), torch.tensor([3., 4., 5.]))
    print(type(grid).__name__, grid[0].shape)
""")
case("meshgrid_bad_indexing", "torch.meshgrid(torch.ones(2), torch.ones(3), indexing='foo')", "RuntimeError")
case("meshgrid_2d_input", "torch.meshgrid(torch.ones(1, 2), torch.ones(3), indexing='ij')", "RuntimeError",
     message=lambda m: m.split(" but got")[0])      # (PyTorch then prints the tensor the C++ way)
case("meshgrid_mixed_dtypes", "torch.meshgrid(torch.ones(2), torch.tensor([1, 2]), indexing='ij')",
     "RuntimeError")
case("meshgrid_nothing", "torch.meshgrid(indexing='ij')", "RuntimeError")

# ------------------------------------------------------------------ integer dtypes and small methods
case("integer_dtypes", """
    a = torch.tensor([1, 2], dtype=torch.int32)
    print(a, a.dtype, torch.int, torch.short, a + torch.tensor([1, 2]), a * 2.5, a + 1, (a + 1).dtype)
    print(torch.tensor([1, 2], dtype=torch.int8) + torch.tensor([1, 2], dtype=torch.uint8))
    print(torch.tensor([3, 200], dtype=torch.uint8), torch.tensor([3], dtype=torch.int16) * torch.tensor(2))
    print(torch.tensor([1.7, -2.2]).int(), torch.tensor([1.7]).short())
    print(torch.tensor([3.]).byte(), torch.tensor([3.]).char())
    print(torch.tensor([1, 2]).to(torch.int32).type(), torch.IntTensor([1, 2]), torch.ByteTensor([1, 2]))
    print(torch.arange(3, dtype=torch.int32), torch.zeros(2, dtype=torch.uint8))
    print(a.float(), a.sum(), a.sum().dtype)
    print(torch.ones(3)[torch.tensor([0, 2], dtype=torch.int32)], a > 1, a.max(), a.tolist())
""")
case("integer_dtype_cannot_require_grad", "torch.tensor([1, 2], dtype=torch.int32, requires_grad=True)",
     "RuntimeError")
case("equal_nelement_range_keepdims", """
    x = torch.arange(6.).reshape(2, 3)
    print(x.nelement(), x.equal(x.clone()), torch.equal(x, x + 0), torch.equal(x, x[:1]))
    print(torch.equal(torch.tensor([1, 2]), torch.tensor([1., 2.])), torch.equal(torch.tensor([float("nan")]),
                                                                                 torch.tensor([float("nan")])))
    print(x[range(2)], x[range(2), range(2)], x[:, range(1, 3)], x[range(0)].shape)
    print(x.sum(1, keepdims=True), torch.sum(x, dim=1, keepdims=True), x.mean(0, keepdims=True))
    print(x.amax(1, keepdims=True), x.max(1, keepdims=True).values, x.argmax(1, keepdims=True))
    print((x > 2).any(1, keepdims=True), (x > 2).all(0, keepdims=True), torch.mean(x, 1, keepdims=True))
    w = x.clone().requires_grad_()
    w[range(2), range(2)].sum().backward()
    print(w.grad)
""")
case("numpy_names_axis_and_keepdims", """
    x = torch.arange(6.).reshape(2, 3)
    print(x.sum(axis=1), torch.sum(x, axis=1, keepdims=True), x.argmax(axis=1), torch.argmax(x, axis=1))
    print(torch.cat([x, x], axis=1).shape, torch.stack([x, x], axis=1).shape, x.unsqueeze(axis=0).shape)
    print(torch.max(x, axis=1).values, x.min(axis=0).indices, x.mean(axis=0), x[:1].squeeze(axis=0))
    print(torch.mean(x, axis=1, keepdims=True), x.amax(axis=1), (x > 2).any(axis=1))
""")
case("float_of_a_tensor_that_requires_grad", """
    import math
    a = torch.tensor(2., requires_grad=True)
    print(float(a), float(a * 2), int(a), f"{a:.2f}", a.item())
    with torch.no_grad():
        print(float(a))
    print(float(torch.ones(1, 1)), math.isfinite(torch.tensor(3.)))
""")
case("float_of_several_elements", "float(torch.zeros(3))", "ValueError")
case("int_of_several_elements", "int(torch.zeros(2))", "ValueError")
case("isfinite_of_several_elements", "import math\nmath.isfinite(torch.zeros(3))", "ValueError")
case("legacy_constructor_of_a_size", """
    x = torch.ones(2, 3)
    print(torch.Tensor(x.shape).shape, torch.Tensor((2, 3)), torch.FloatTensor(torch.Size([2])).shape)
    print((torch.Tensor(x.shape).uniform_(0, 1) >= 0).all())
""")
case("sign_square_and_tensor_helpers", """
    x = torch.tensor([1.5, -2., 0.], requires_grad=True)
    print(torch.square(x), x.square(), torch.sign(x), x.sign(), torch.sign(torch.tensor([True, False])))
    (torch.sign(x) + torch.square(x)).sum().backward()
    print(x.grad, torch.square(torch.tensor([2, -3])))
    print(x.softmax(0), x.log_softmax(dim=0), torch.tensor([1, 2]).type_as(x), x.type_as(torch.tensor([1])))
    print(x.new_zeros(2), x.new_ones((1, 2)), x.new_full((2,), 7.), x.new_tensor([1, 2]))
    print(x.new_zeros(2).dtype)
""")
case("conv_layers_are_missing_but_named", """
    import torch.nn as nn
    print(type(nn.Linear(2, 2)) == nn.Conv2d, isinstance(nn.Linear(2, 2), nn.Conv2d))
""")
case("save_and_load", """
    import io, os, tempfile
    x = torch.ones(2, requires_grad=True)
    for obj in [x, x * 2, torch.nn.Parameter(torch.ones(2)), torch.tensor([1, 2], dtype=torch.int32)]:
        buffer = io.BytesIO()
        torch.save(obj, buffer)
        buffer.seek(0)
        print(type(torch.load(buffer)).__name__, torch.load(io.BytesIO(buffer.getvalue())))
    buffer = io.BytesIO()
    torch.save({"a": [1, 2.5, "s", (1, 2)], "t": x, "n": None, "b": True}, buffer)
    buffer.seek(0)
    print(torch.load(buffer))
    model = torch.nn.Linear(2, 1)
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "model.pth")
        torch.save(model.state_dict(), path)
        again = torch.nn.Linear(2, 1)
        print(again.load_state_dict(torch.load(path, weights_only=True)), again.weight.equal(model.weight))
""")
case("load_refuses_other_objects", """
    import io, fractions
    buffer = io.BytesIO()
    torch.save(fractions.Fraction(1, 3), buffer)
    buffer.seek(0)
    print(torch.load(buffer, weights_only=False))
    buffer.seek(0)
    torch.load(buffer)
""", "UnpicklingError", message=lambda m: m.split(".")[0])
case("out_argument", """
    a = torch.ones(2, 2)
    out = torch.ones(3)
    print(torch.mul(a, a, out=out) is out, out, out._version)
    out = torch.empty(0)
    print(torch.add(a, 2, out=out), torch.matmul(a, a, out=torch.zeros(2, 2)))
    print(torch.sum(a, 0, out=torch.zeros(2)))
    print(torch.cat([a, a], out=torch.zeros(4, 2)).shape, torch.exp(torch.zeros(2), out=torch.ones(2)))
    x = torch.ones(2, requires_grad=True)
    with torch.no_grad():
        print(torch.mul(x, 2, out=torch.empty(2)))
""")
case("out_argument_with_grad", "torch.mul(torch.ones(2, requires_grad=True), 2, out=torch.empty(2))",
     "RuntimeError")
case("out_argument_that_requires_grad", "torch.mul(torch.ones(2), 2, out=torch.empty(2, requires_grad=True))",
     "RuntimeError")
case("out_argument_of_another_dtype", "torch.mul(torch.ones(2), 2.5, out=torch.ones(2, dtype=torch.int64))",
     "RuntimeError")
case("leaky_relu_masked_fill_module_list_clip_grad", """
    import torch.nn as nn
    import torch.nn.functional as F
    x = torch.tensor([-1., 2., 0.5], requires_grad=True)
    y = F.leaky_relu(x, 0.2); print(y, y.grad_fn.name(), nn.LeakyReLU(0.1), nn.LeakyReLU(), nn.LeakyReLU()(x))
    y.sum().backward(); print(x.grad)
    m = x.masked_fill(torch.tensor([True, False, True]), 0.); print(m, m.grad_fn.name())
    print(x.detach().masked_fill(torch.tensor([True, False, False]), torch.tensor(5.)))
    try: x.masked_fill(torch.tensor([1, 0, 0]), 0.)
    except Exception as e: print(type(e).__name__, e)
    ml = nn.ModuleList([nn.Linear(2, 2) for _ in range(2)]); ml.append(nn.ReLU())
    print(ml, len(ml), len(list(ml.parameters())), ml[-1], type(ml[:2]).__name__)
    md = nn.ModuleDict({"a": nn.Linear(1, 1), "b": nn.Tanh()}); print(md, list(md.keys()), "a" in md)
    w = torch.tensor([3., 4.], requires_grad=True); (w * w).sum().backward()
    print(nn.utils.clip_grad_norm_([w], 1.0), w.grad)
    nn.utils.clip_grad_value_([w], 0.1); print(w.grad)
    print(nn.utils.parameters_to_vector(nn.Linear(2, 1).parameters()).shape, torch.concat([x, x]).shape)
    print(torch.concatenate([x, x], axis=0).shape)
    print(nn.utils.clip_grad_norm_([torch.ones(2, requires_grad=True)], 1.0))
    h = torch.tensor([-1., 3.], requires_grad=True) * 1
    print(F.leaky_relu(h, 0.5, inplace=True), h.grad_fn.name())
""")
case("softsign_function_and_layer", """
    import torch.nn as nn
    import torch.nn.functional as F
    x = torch.tensor([-1.5, 0.25, 3., 0.], requires_grad=True)
    y = F.softsign(x); print(y, y.grad_fn.name(), [f.name() for f, _ in y.grad_fn.next_functions])
    print(nn.Softsign(), nn.Softsign()(x), nn.Sequential(nn.Linear(2, 2), nn.Softsign()))
    g, = torch.autograd.grad(y.sum(), x, create_graph=True); print(g)
    g[:3].sum().backward(); print(x.grad)  # not at 0: PyTorch's sgn gives a ZeroTensor, which keeps -0.0
    print(F.softsign(torch.tensor([1., -2.], dtype=torch.float64)), F.softsign(torch.tensor([2, -3])))
""")
case("softsign_of_a_list", "torch.nn.functional.softsign([1., 2.])", "AttributeError")
case("equal_with_a_number", "torch.equal(torch.tensor([1.]), 1)", "TypeError")
case("tensor_equal_with_a_list", "torch.tensor([1.]).equal([1.])", "TypeError")
case("sum_with_an_unknown_keyword", "torch.ones(2).sum(0, keepdimz=True)", "TypeError")


@pytest.mark.parametrize("code, error, message", CASES)
def test_same_as_torch(code, error, message):
    assert_same(code, error=error, message=message)


# ------------------------------------------------------------------ dropout's masks: same seed, same result
DRAWN = {
    "dropout_training_and_eval": """
    import torch.nn as nn
    torch.manual_seed(0)
    x = torch.ones(3, 4, requires_grad=True)
    drop = nn.Dropout(0.25)
    y = drop(x)
    print(y, y.grad_fn.name(), y.grad_fn._saved_other)
    (y * torch.arange(12.).reshape(3, 4)).sum().backward()
    print(x.grad)
    print(torch.nn.functional.dropout(x, 0.5, training=True))
    drop.eval()
    print(drop(x) is x)
    """,
    "dropout_inplace": """
    torch.manual_seed(1)
    h = torch.ones(2, 5, requires_grad=True) * 3
    out = torch.nn.functional.dropout(h, 0.4, inplace=True)
    print(out is h, h, h.grad_fn.name())
    """,
    "d2l_dropout_from_scratch_mask": """
    torch.manual_seed(2)
    X = torch.arange(16, dtype=torch.float32).reshape((2, 8))
    mask = (torch.rand(X.shape) > 0.5).float()
    print(mask * X / (1.0 - 0.5))
    """,
}


@pytest.mark.parametrize("name", DRAWN)
def test_dropout_masks_come_from_bernoulli_as_in_pytorch(name):
    code = textwrap.dedent(DRAWN[name])
    ref, got = run_program(code, real_torch), run_program(code, torch)
    assert ref["error"] is None, ref["traceback"]
    problems = compare(code, ref, got)
    assert not problems, describe(code, ref, got, problems)


def test_dropout_keeps_the_expected_share():
    torch.manual_seed(0)
    y = torch.nn.functional.dropout(torch.ones(20000), 0.3)
    kept = (y != 0).float().mean().item()
    assert abs(kept - 0.7) < 0.02
    assert {round(v, 5) for v in y.tolist()} <= {0.0, round(1 / 0.7, 5)}
