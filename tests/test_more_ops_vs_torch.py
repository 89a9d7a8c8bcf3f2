"""The operations the programs after the course reach for, against PyTorch 2.13: ``var``/``std``
(``unbiased``, ``correction``, ``keepdim``), ``log10``/``log2``, ``tril``/``triu``, ``prod``,
``cumsum``, ``sort``/``argsort``/``topk``, ``gather``, ``index_select``, ``chunk``/``split``/
``unbind``, ``flip``, ``repeat``, the roundings, ``isnan``, ``logsumexp``, ``outer`` and
``histogram``; and the switches of ``torch.utils.backcompat``.

Each case prints values, node names and saved attributes, records first and second
derivatives (``create_graph=True``: the second backward runs what the first recorded),
and raises PyTorch's errors in PyTorch's words; see tests/crosscheck.py.
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


# Shared by the cases: a leaf, a function of it, and its first and second derivatives recorded.
SETUP = """
    x = torch.tensor([[1.5, -2.0, 3.25, 0.5], [4.0, 0.75, -1.25, 2.5], [0.25, 5.0, 1.0, -3.5]],
                     dtype=torch.float64, requires_grad=True)

    def check(name, f):
        y = f(x)
        print(name, node(y))
        w = torch.linspace(-1.0, 1.3, y.numel(), dtype=torch.float64).reshape(y.shape)
        loss = (y * y * w).sum()
        g, = torch.autograd.grad(loss, x, create_graph=True)
        record(name + " value", y)
        record(name + " grad", g)
        print(name, "second backward:", g.grad_fn.name())
        gg, = torch.autograd.grad((g * g).sum(), x, allow_unused=True)
        record(name + " grad of grad", gg)
"""


def ops_case(id, body):
    case(id, SETUP + body)


# ------------------------------------------------------------------ var and std
ops_case("var_std_values_and_gradients", """
    check("var", lambda t: t.var())
    check("var dim", lambda t: t.var(1))
    check("var dim keepdim", lambda t: t.var(0, keepdim=True))
    check("var unbiased False", lambda t: t.var(1, False))
    check("var correction", lambda t: t.var(dim=(0, 1), correction=2))
    check("var correction 0", lambda t: torch.var(t, -1, correction=0, keepdim=True))
    check("std", lambda t: t.std())
    check("std dim", lambda t: t.std(0))
    check("std unbiased", lambda t: torch.std(t, dim=1, unbiased=False, keepdim=True))
""")
case("var_std_signatures", """
    x = torch.tensor([[1., 2., 3.], [4., 5., 7.]], requires_grad=True)
    print(x.var(), x.var(False), x.var(0), x.var(0, False), x.var(0, False, True), x.var([0]))
    print(x.var(dim=None, keepdim=True), x.var(keepdim=True), x.var(axis=1), x.var(1, correction=2.5))
    print(torch.var(x, 1, keepdim=True), torch.std(x, dim=1, unbiased=False), x.std(unbiased=True))
    v = x.var()
    print(v.grad_fn._saved_correction, v.grad_fn._saved_dim, v.grad_fn._saved_keepdim)
    v = x.var(1, unbiased=False)
    print(v.grad_fn._saved_correction, v.grad_fn._saved_dim, v.grad_fn._saved_keepdim)
    s = x.std(correction=0)
    print(s.grad_fn._saved_correction, s.grad_fn._saved_result)
    print(sorted(a for a in dir(s.grad_fn) if a.startswith("_saved")))
    print(x.double().var(), torch.zeros(2, 0).var(1))
""")
case("var_with_no_degrees_of_freedom_warns", """
    x = torch.tensor([[1., 2.], [3., 5.]], requires_grad=True)
    v = x.var(1, correction=2)
    print(v)
    v.sum().backward()
    print(x.grad)
    z = torch.tensor([2.], requires_grad=True)
    s = z.var()
    s.backward()
    print(s, z.grad, torch.tensor(1.).std(), torch.tensor([]).var())
    z = torch.tensor([2., 2.], requires_grad=True)
    s = z.std()
    s.backward()
    print(s, z.grad)
""")
case("float32_std_takes_the_root_before_rounding", """
    i = torch.arange(400.).reshape(40, 10)
    x = i * 0.3711 - i * i * 0.00173
    print(x.std(1).tolist())
    print(x.std(0, keepdim=True).tolist(), x.var(1).tolist())
""")
case("var_of_integers", "torch.tensor([1, 2]).var()", "RuntimeError")
case("var_unbiased_and_correction", "torch.ones(3).var(unbiased=False, correction=1)", "TypeError")
case("var_unknown_keyword", "torch.ones(3).var(foo=1)", "TypeError")
case("std_dim_out_of_range", "torch.ones(2, 3).std(5)", "IndexError")

# ------------------------------------------------------------------ logs, roundings, tests
ops_case("log10_log2_values_and_gradients", """
    check("log10", lambda t: (t * t + 1).log10())
    check("log2", lambda t: torch.log2(t.abs() + 0.5))
""")
case("logs_and_roundings", """
    x = torch.tensor([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 0.25, 7.75, float('nan'), float('inf')],
                     requires_grad=True)
    for f in (torch.floor, torch.ceil, torch.round, torch.trunc):
        y = f(x)
        print(y, node(y))
        y.sum().backward()
        print(x.grad)
        x.grad = None
    r = torch.tensor([1.2345, 2.5, 3.5, -0.555], requires_grad=True).round(decimals=2)
    print(r, node(r), torch.round(torch.tensor([1234.5]), decimals=-2))
    print(torch.tensor([1, 2]).floor(), torch.tensor([3]).round(), torch.tensor([10, 100]).log10())
    print(torch.log2(torch.tensor([8.])))
    print(x.isnan(), torch.isinf(x), x.isfinite(), torch.tensor([1]).isnan(), torch.tensor([1]).isfinite())
    print(torch.log10(torch.tensor([0., -1., 1e-30])), torch.tensor([3.7], dtype=torch.float64).floor())
""")
case("roundings_in_place", """
    x = torch.tensor([-2.5, -1.25, 0.5, 1.75, 2.5], requires_grad=True)
    for name in ("floor_", "ceil_", "trunc_", "round_"):
        y = x * 1
        getattr(y, name)()
        print(name, y, node(y), y._version)
        y.sum().backward()
        print(x.grad)
        x.grad = None
    y = x * 1
    y.round_(decimals=1)
    print(y, node(y))
    z = x.detach().clone()
    print(z.floor_(), z._version, torch.tensor([7]).ceil_(), torch.tensor([7]).round_()._version)
    print(node(x.round(decimals=0)))
    print(sorted(a for a in dir(x.round(decimals=2).grad_fn) if a.startswith("_saved")))
""")
case("round_decimals_of_integers", "torch.tensor([3]).round(decimals=1)", "NotImplementedError")
case("round_zero_decimals_of_integers", "torch.tensor([3]).round(decimals=0)", "NotImplementedError")
case("floor_of_bools", "torch.tensor([True]).floor()", "NotImplementedError")
case("trunc_in_place_of_bools", "torch.tensor([True]).trunc_()", "NotImplementedError")
case("round_in_place_of_integers", "torch.tensor([3]).round_(decimals=2)", "NotImplementedError")
case("floor_in_place_of_a_leaf", "torch.ones(2, requires_grad=True).floor_()", "RuntimeError")

# ------------------------------------------------------------------ tril, triu, flip, repeat, outer
ops_case("tril_triu_flip_repeat_values_and_gradients", """
    check("tril", lambda t: t.tril())
    check("triu", lambda t: torch.triu(t, 1))
    check("tril neg", lambda t: torch.tril(t * t, diagonal=-1))
    check("flip", lambda t: (t * t).flip(0))
    check("flip two", lambda t: torch.flip(t * t, [0, 1]))
    check("repeat", lambda t: (t * t).repeat(2, 3))
    check("repeat more dims", lambda t: (t * t).repeat(2, 1, 1))
    check("repeat zero", lambda t: (t * t).repeat(0, 1))
    check("outer", lambda t: torch.outer(t[0], t[1] * t[1]))
""")
case("tril_triu_flip_repeat_outer", """
    x = torch.arange(12.).reshape(3, 4).requires_grad_()
    print(x.tril(-1), x.triu(2), torch.ones(2, 2, 3).triu(1), torch.tril(torch.ones(3, 3), diagonal=1))
    t = x.tril(1)
    print(t.grad_fn._saved_diagonal, x.flip(1).grad_fn._saved_dims, x.flip(0, 1))
    r = x.repeat(2, 1, 2)
    print(r.shape, r.grad_fn._saved_repeats, r.grad_fn._saved_self_sym_sizes)
    print(torch.tensor([1, 2]).repeat(2, 2), torch.tensor([1, 2]).repeat((2,)))
    print(x.repeat(torch.Size([1, 2])).shape)
    o = torch.outer(x[0], torch.tensor([1., 2.]))
    print(o, node(o), torch.tensor([1., 2.]).ger(torch.tensor([3., 4.])))
    print(torch.outer(torch.tensor([1, 2]), torch.tensor([3, 4])))
    print(torch.tril(torch.tensor([[True, True], [True, True]])))
""")
case("tril_of_a_vector", "torch.ones(3).tril()", "RuntimeError")
case("flip_with_an_int", "torch.flip(torch.ones(2, 2), 1)", "TypeError")
case("flip_the_same_dim_twice", "torch.ones(2, 2).flip([1, 1])", "RuntimeError")
case("repeat_with_fewer_dims", "torch.ones(2, 2).repeat(2)", "RuntimeError")
case("outer_of_a_matrix", "torch.outer(torch.ones(2, 2), torch.ones(2))", "RuntimeError")
case("outer_with_a_matrix", "torch.outer(torch.ones(2), torch.ones(2, 2))", "RuntimeError")

# ------------------------------------------------------------------ prod, cumsum, logsumexp
ops_case("prod_cumsum_logsumexp_values_and_gradients", """
    check("prod", lambda t: t.prod())
    check("prod dim", lambda t: t.prod(1))
    check("prod keepdim", lambda t: torch.prod(t, 0, keepdim=True))
    check("cumsum", lambda t: (t * t).cumsum(1))
    check("cumsum dim0", lambda t: torch.cumsum(t * t, dim=0))
    check("cumprod", lambda t: t.cumprod(1))
    check("cumprod dim0", lambda t: torch.cumprod(t * 0.5, dim=0))
    check("logsumexp", lambda t: t.logsumexp(1))
    check("logsumexp keepdim", lambda t: torch.logsumexp(t, 0, keepdim=True))
    check("logsumexp all", lambda t: torch.logsumexp(t, (0, 1)))
""")
case("prod_with_zeros", """
    x = torch.tensor([[2., 0., 3.], [1., 4., 5.], [0., 0., 2.]], requires_grad=True)
    p = x.prod(1)
    p.sum().backward()
    print(p, x.grad)
    x.grad = None
    x.prod().backward()
    print(x.grad)
    y = torch.tensor([2., 0., 3.], requires_grad=True)
    y.prod().backward()
    print(y.grad)
""")
case("prod_and_cumprod_with_zeros_twice", """
    datas = [[[2., 0., 3., 1.5], [1., 4., 0., 0.]], [[0., 2., -1.], [1.5, 2., 3.]], [[2., 0., 0., 3., 1.]]]
    for data in datas:
        for dim in (0, 1):
            x = torch.tensor(data, dtype=torch.float64, requires_grad=True)
            w = torch.linspace(-1, 1.5, x.numel(), dtype=torch.float64).reshape(x.shape)
            for f in (lambda t: t.cumprod(dim), lambda t: t.prod(dim), lambda t: t.prod()):
                y = f(x)
                g, = torch.autograd.grad((y * y * w.reshape(-1)[:y.numel()].reshape(y.shape)).sum(), x,
                                         create_graph=True)
                print(node(y), node(g))
                record(f"{data} {dim} {node(y)} grad", g)
                gg, = torch.autograd.grad((g * g).sum(), x)
                record(f"{data} {dim} {node(y)} grad of grad", gg)
                plain, = torch.autograd.grad(f(x).sum() * 3, x)
                record(f"{data} {dim} {node(y)} grad without graph", plain)
""")
case("cumprod", """
    x = torch.tensor([[1.5, 2.], [0.5, -3.]], requires_grad=True)
    y = torch.cumprod(x, dim=1)
    print(y, node(y), sorted(a for a in dir(y.grad_fn) if a.startswith("_saved")), y.grad_fn._saved_dim)
    print(torch.tensor([1, 2, 3]).cumprod(0), torch.tensor([True, False]).cumprod(0))
    print(torch.tensor(2.).cumprod(0))
    print(torch.cumprod(torch.tensor([1., 2.]), 0, dtype=torch.float64), x.cumprod(-1).grad_fn._saved_dim)
    i = torch.arange(40.).reshape(4, 10)
    print((1 + (i * 0.37 - 7) * 0.01).cumprod(1).tolist())
""")
case("cumprod_without_dim", "torch.ones(2).cumprod()", "TypeError")
case("negative_dims_as_the_nodes_show_them", """
    x = torch.ones(2, 3, requires_grad=True)
    ys = [x.cumsum(-1), x.cumprod(-1), x.prod(-1), x.logsumexp(-1), x.logsumexp((0, -1)), x.var(-1),
          x.var(), x.var(dim=[1, -2]), x.std(-2), x.gather(-1, torch.tensor([[0], [1]])),
          x.index_select(-1, torch.tensor([0])), x.sort()[0], x.sort(0)[0], x.topk(1)[0], x.flip(-1),
          x.flip((0, -1)), x.chunk(3, -1)[0], x.chunk(2)[0], x.split([1, 2], -1)[0], x.split(2, -1)[0],
          x.unbind(-1)[0]]
    for y in ys:
        print(node(y), {a: getattr(y.grad_fn, a) for a in dir(y.grad_fn) if a.startswith("_saved_dim")})
""")
case("prod_cumsum_logsumexp", """
    x = torch.tensor([[3., 1., 2., 1.], [0., float('nan'), -1., 5.]], requires_grad=True)
    print(x.prod(), x.prod(1, keepdim=True), torch.tensor([1, 2, 3]).prod())
    print(torch.tensor([True, True]).prod())
    print(torch.tensor([1, 2, 3]).prod(dtype=torch.float64), torch.tensor(3.).prod(0))
    p = x.prod(1)
    print(node(p), p.grad_fn._saved_dim, p.grad_fn._saved_keepdim)
    print(sorted(a for a in dir(p.grad_fn) if a.startswith("_saved")))
    c = x.cumsum(1)
    print(c, node(c), c.grad_fn._saved_dim, torch.tensor([1, 2]).cumsum(0))
    print(torch.tensor([True, True]).cumsum(0))
    print(torch.cumsum(torch.tensor([1, 2]), dim=0, dtype=torch.float32), torch.tensor(2.).cumsum(0))
    l = x.logsumexp(1)
    print(l, node(l), l.grad_fn._saved_dim, l.grad_fn._saved_keepdim)
    print(torch.logsumexp(torch.tensor([1, 2]), 0))
    print(torch.logsumexp(torch.tensor([float('-inf'), float('-inf')]), 0), x.logsumexp(dim=1, keepdim=True))
    print(torch.logsumexp(torch.tensor([1e30, 1e30]), 0), torch.logsumexp(torch.zeros(2, 0), 1))
""")
case("prod_over_a_tuple", "torch.ones(2, 2).prod((0, 1))", "TypeError")
case("logsumexp_without_dim", "torch.logsumexp(torch.ones(2))", "TypeError")
case("cumsum_without_dim", "torch.ones(2).cumsum()", "TypeError")

# ------------------------------------------------------------------ sort, argsort, topk
ops_case("sort_topk_values_and_gradients", """
    check("sort", lambda t: t.sort(1)[0])
    check("sort desc", lambda t: torch.sort(t, 0, descending=True).values)
    check("topk", lambda t: t.topk(2)[0])
    check("topk smallest", lambda t: torch.topk(t, 2, dim=0, largest=False).values)
""")
case("sort_argsort_topk", """
    x = torch.tensor([[3., 1., 2., 1.], [0., float('nan'), -1., 5.]], requires_grad=True)
    print(x.sort(), x.sort(descending=True), torch.sort(x, 0), torch.sort(x, stable=True, descending=True))
    print(x.argsort(dim=1, descending=True), torch.argsort(x), type(x.sort()).__name__)
    print(x.topk(2), x.topk(2, largest=False), torch.topk(x, 1, dim=0), x.topk(0))
    print(torch.tensor([3, 1, 2]).sort(), torch.tensor(3.).sort(), torch.tensor(3.).topk(1))
    v, i = x.sort(1)
    print(node(v), i.grad_fn, i.requires_grad, v.grad_fn._saved_dim, v.grad_fn._saved_indices)
    print(sorted(a for a in dir(v.grad_fn) if a.startswith("_saved")))
    values, indices = x.topk(3, dim=1)
    (values * torch.tensor([1., 2., 3.])).sum().backward()
    print(x.grad)
    s = torch.tensor([2., 2., 1., 2.], requires_grad=True)
    print(s.sort(), s.sort(descending=True), s.argsort(), s.topk(2))
""")
case("topk_too_large", "torch.ones(2, 3).topk(4)", "RuntimeError")
case("topk_negative", "torch.ones(3).topk(-1)", "RuntimeError")

# ------------------------------------------------------------------ gather, index_select
ops_case("gather_index_select_values_and_gradients", """
    index = torch.tensor([[0, 0, 3], [2, 1, 1], [3, 3, 0]])
    check("gather", lambda t: t.gather(1, index))
    check("gather dim0", lambda t: torch.gather(t, 0, torch.tensor([[2, 0, 1, 1]])))
    check("index_select", lambda t: t.index_select(1, torch.tensor([3, 0, 3])))
    check("index_select dim0", lambda t: torch.index_select(t * t, 0, torch.tensor([2, 2])))
""")
case("gather_index_select", """
    x = torch.tensor([[3., 1., 2., 1.], [0., 7., -1., 5.]], requires_grad=True)
    i = torch.tensor([[0, 0], [1, 0]])
    g = torch.gather(x, 1, i)
    print(g, node(g), g.grad_fn._saved_dim, g.grad_fn._saved_sparse_grad, torch.gather(x, 1, i.int()))
    print(sorted(a for a in dir(g.grad_fn) if a.startswith("_saved")))
    s = x.index_select(1, torch.tensor([3, 0, 3]))
    print(s, node(s), s.grad_fn._saved_dim, s.grad_fn._saved_self_sym_sizes)
    print(x.index_select(1, torch.tensor([3, 0], dtype=torch.int32)), x.index_select(1, torch.tensor(2)))
    (s * torch.arange(6.).reshape(2, 3)).sum().backward()
    print(x.grad)
    print(torch.gather(torch.tensor(5.), 0, torch.tensor(0)))
""")
case("gather_then_change_the_input", """
    x = torch.tensor([1., 2., 3.], requires_grad=True)
    y = x * 1
    g = y.gather(0, torch.tensor([2, 0]))
    y.mul_(2)
    g.sum().backward()
""", "RuntimeError")
case("gather_float_index", "torch.gather(torch.ones(2, 2), 1, torch.zeros(2, 1))", "RuntimeError")
case("gather_fewer_dims", "torch.gather(torch.ones(2, 2), 1, torch.tensor([0]))", "RuntimeError")
case("gather_out_of_bounds", "torch.gather(torch.ones(2, 4), 1, torch.tensor([[7]]))", "RuntimeError")
case("gather_negative_index", "torch.gather(torch.ones(2, 4), 1, torch.tensor([[-1]]))", "RuntimeError")
case("gather_index_too_large", "torch.gather(torch.ones(2, 4), 1, torch.zeros(3, 1, dtype=torch.long))",
     "RuntimeError")
case("index_select_float_index", "torch.ones(2, 2).index_select(1, torch.tensor([1.]))", "RuntimeError")
case("index_select_matrix_index", "torch.ones(2, 2).index_select(1, torch.tensor([[1]]))", "IndexError")
case("index_select_out_of_range", "torch.ones(2, 4).index_select(1, torch.tensor([4]))", "RuntimeError")
case("index_select_negative", "torch.ones(2, 4).index_select(1, torch.tensor([-1]))", "RuntimeError")
case("gather_index_select_pack_the_index", """
    x = torch.tensor([[3., 1., 2., 1.], [0., 7., -1., 5.]], requires_grad=True)
    i, j = torch.tensor([[0, 3], [1, 0]]), torch.tensor([2, 0])
    packed = []
    def pack(t):
        packed.append((t.shape, t.dtype))
        return t
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        x.gather(1, i), x.index_select(1, j)
    g, s = x.gather(1, i), x.index_select(1, j)
    print(packed, g.grad_fn._saved_index is i, g.grad_fn._saved_self is x, s.grad_fn._saved_index is j)
    c = torch.tensor(3., requires_grad=True)
    y = c.index_select(0, torch.tensor([0]))
    g, = torch.autograd.grad(y * y, c, create_graph=True)
    print(y, g, node(g))
""")
case("gather_then_change_the_index", """
    x = torch.tensor([1., 2., 3.], requires_grad=True)
    i = torch.tensor([2, 0])
    g = x.gather(0, i)
    i[0] = 1
    g.sum().backward()
""", "RuntimeError")
case("index_select_then_change_the_index", """
    x = torch.tensor([1., 2., 3.], requires_grad=True)
    i = torch.tensor([2, 0])
    s = x.index_select(0, i)
    i.zero_()
    s.sum().backward()
""", "RuntimeError")
case("index_select_out_of_range_dim0", "torch.ones(2, 4).index_select(0, torch.tensor([2]))", "IndexError")
case("index_select_out_of_range_dim2", "torch.ones(2, 3, 4).index_select(2, torch.tensor([-1]))",
     "IndexError")
case("index_select_out_of_range_vector", "torch.ones(4).index_select(0, torch.tensor([0, 4]))", "IndexError")
case("index_select_scalar_two_indices", "torch.tensor(3.).index_select(0, torch.tensor([0, 0]))",
     "RuntimeError")
case("index_select_scalar_out_of_range", "torch.tensor(3.).index_select(0, torch.tensor([1]))", "IndexError")
case("index_select_empty_axis", "torch.ones(3, 0).index_select(1, torch.tensor([0]))", "RuntimeError")
case("topk_of_bools", "torch.tensor([True, False]).topk(1)", "RuntimeError")
case("flip_without_dims", "torch.ones(2).flip()", "TypeError")
case("torch_flip_without_dims", "torch.flip(torch.ones(2))", "TypeError")
case("flip_dims_keyword_int", "torch.ones(2).flip(dims=0)", "TypeError")
case("repeat_negative", "torch.ones(2, 3).repeat(1, 2, -3)", "RuntimeError")
case("split_negative_size", "torch.ones(2, 3).split([4, -1], 1)", "RuntimeError")
case("softmax_without_dim", "torch.softmax(torch.ones(2))", "TypeError")
case("index_select_empty_input", "torch.ones(3, 0).index_select(0, torch.tensor([5]))", "RuntimeError")

# ------------------------------------------------------------------ chunk, split, unbind
ops_case("chunk_split_unbind_values_and_gradients", """
    check("chunk", lambda t: t.chunk(2, 1)[1])
    check("split", lambda t: torch.split(t, 2)[0])
    check("split sizes", lambda t: t.split([1, 3], 1)[1] * t.split([1, 3], 1)[0])
    check("unbind", lambda t: torch.stack([p * p for p in t.unbind(1)][::-1], 1))
""")
case("chunk_split_unbind", """
    x = torch.arange(6.).reshape(2, 3).requires_grad_()
    print(torch.split(x, 1), torch.chunk(x, 2, dim=1), torch.unbind(x, dim=1), x.split(split_size=2, dim=1))
    print(torch.split(x, split_size_or_sections=2, dim=1), x.split([1, 2], 1), x.chunk(3), x.chunk(5, 1))
    print([t.shape for t in torch.arange(10).chunk(4)], [t.shape for t in torch.arange(10).chunk(6)])
    print([t.shape for t in torch.arange(5).chunk(6)], [t.shape for t in torch.arange(10).split(3)])
    print([t.shape for t in torch.arange(0).split(3)], [t.shape for t in torch.arange(0).chunk(3)])
    parts = x.split([1, 2], 1)
    print(parts[0].grad_fn._saved_split_sizes, parts[0].grad_fn._saved_dim)
    print(x.split(2, 1)[0].grad_fn._saved_split_size)
    print([p._is_view() for p in parts], [p._base is x for p in parts], x.unbind(1)[2].grad_fn._saved_dim)
    a, b = x.unbind(0)
    (a * 2).sum().backward()
    print(x.grad)
    d = x.detach()
    r, s = d.unbind(0)
    r.mul_(2)
    print(d)
""")
case("unbind_view_changed_in_place", "a, b = (torch.ones(2, 2, requires_grad=True) * 1).unbind(0); a.mul_(2)",
     "RuntimeError")
case("split_view_changed_in_place",
     "a, b = (torch.ones(2, 4, requires_grad=True) * 1).split(2, 1); b.add_(1)", "RuntimeError")
case("chunk_base_changed_in_place", """
    y = torch.ones(2, 2, requires_grad=True) * 1
    p, q = y.chunk(2)
    y.mul_(2)
    p.sum().backward()
""", "RuntimeError")
case("unbind_of_a_detached_tensor_changed_with_a_graph",
     "d = torch.ones(2, 2); a, b = d.unbind(0); a.mul_(torch.ones(2, requires_grad=True))", "RuntimeError")
case("chunk_zero", "torch.ones(3).chunk(0)", "RuntimeError")
case("chunk_negative", "torch.ones(3).chunk(-1)", "RuntimeError")
case("chunk_of_a_number", "torch.tensor(3.).chunk(2)", "RuntimeError")
case("split_zero", "torch.ones(2, 3).split(0, 1)", "RuntimeError")
case("split_negative", "torch.ones(3).split(-1)", "RuntimeError")
case("split_sizes_wrong_sum", "torch.ones(2, 3).split([1, 1], 1)", "RuntimeError")
case("unbind_of_a_number", "torch.unbind(torch.tensor(3.))", "IndexError")
case("unbind_dim_out_of_range", "torch.ones(2, 3).unbind(3)", "IndexError")

# ------------------------------------------------------------------ histogram
case("histogram", """
    x = torch.tensor([0.5, 1.0, 1.5, 3.75, 2.0, 2.0, 0.0, 4.0], requires_grad=True)
    h = torch.histogram(x * 1, bins=4)
    print(h, type(h).__name__, h.hist.grad_fn.name(), node(h.bin_edges))
    print(torch.histogram(x.detach(), bins=8, range=(0., 4.), density=True))
    print(torch.histogram(x.detach(), bins=4, weight=torch.linspace(0, 1, 8)))
    print(x.detach().histogram(torch.tensor([0., 1.5, 4.])), torch.histogram(torch.tensor([1., 1.]), bins=2))
""")
case("histogram_backward",
     "torch.histogram(torch.ones(3, requires_grad=True) * 2, bins=2).hist.sum().backward()", "RuntimeError")
case("histogram_of_integers", "torch.histogram(torch.tensor([1, 2]))", "NotImplementedError")
case("histogram_edges_and_weights", """
    v = torch.tensor([1., 2., 2.5, 4.])
    print(torch.histogram(torch.tensor([]), 2), torch.histogram(v, 2, range=(1., 1.)))
    print(torch.histogram(v, 2, weight=torch.ones(2, 2)))
    print(torch.histogram(torch.tensor([0.5, 1.]), torch.tensor([1., 3.])))
""")
case("histogram_no_bins", "torch.histogram(torch.ones(3), 0)", "RuntimeError")
case("histogram_negative_bins", "torch.histogram(torch.ones(3), -2)", "RuntimeError")
case("histogram_one_edge", "torch.histogram(torch.ones(3), torch.tensor([1.]))", "RuntimeError")
case("histogram_min_above_max", "torch.histogram(torch.ones(3), 2, range=(0.1, 1e-7))", "RuntimeError")
case("histogram_range_not_finite", "torch.histogram(torch.tensor([1., float('inf')]), 2)", "RuntimeError")
case("histogram_range_of_three", "torch.histogram(torch.ones(3), 2, range=(0, 1, 2))", "RuntimeError")
case("histogram_edges_of_two_dims", "torch.histogram(torch.ones(3), torch.ones(1, 2))", "RuntimeError")
case("histogram_edges_of_other_dtype", "torch.histogram(torch.ones(3).double(), torch.tensor([0., 1.]))",
     "RuntimeError")
case("histogram_weight_of_other_dtype", "torch.histogram(torch.ones(3), 2, weight=torch.ones(3).double())",
     "RuntimeError")
case("histogram_weight_of_other_size",
     "torch.histogram(torch.ones(3), torch.tensor([0., 1.]), weight=torch.ones(2))", "RuntimeError")
case("histogram_of_integers_in_a_range", "torch.histogram(torch.tensor([1, 2]), 2, range=(0., 1.))",
     "NotImplementedError")

# ------------------------------------------------------------------ the broadcasting notes' switches
case("backcompat_switches", """
    import torch.utils.backcompat
    print(torch.utils.backcompat.broadcast_warning.enabled, torch.utils.backcompat.keepdim_warning.enabled)
    torch.utils.backcompat.broadcast_warning.enabled = True
    torch.utils.backcompat.keepdim_warning.enabled = True
    print(torch.utils.backcompat.broadcast_warning.enabled, torch.add(torch.ones(4, 1), torch.ones(4)).shape)
    print(torch.ones(2, 3).sum(1).shape, type(torch.utils.backcompat.keepdim_warning).__name__)
    torch.utils.backcompat.broadcast_warning.enabled = False
    torch.utils.backcompat.keepdim_warning.enabled = False
    print(torch.utils.backcompat.broadcast_warning.enabled)
""")
case("backcompat_switch_takes_a_bool", "torch.utils.backcompat.broadcast_warning.enabled = 1", "RuntimeError")


@pytest.mark.parametrize("code, error, message", CASES)
def test_same_as_torch(code, error, message):
    assert_same(code, error=error, message=message)
