"""Tensor functions the README listed as missing, against PyTorch 2.13: ``repeat_interleave``, ``roll``,
``diag`` (and ``diagonal``, ``movedim``), ``unique``, ``narrow``, ``remainder``/``fmod`` and the ``%``
operator (and ``div`` with a rounding mode), ``median``, ``var_mean``/``std_mean`` and ``einsum``.

For each: values, node names and saved attributes, gradients, the graph ``create_graph=True`` records
for the gradient and the gradient of the gradient, views and in-place use where they apply, and
PyTorch's errors in PyTorch's words. ``einsum`` records PyTorch's whole graph (permutes, views, ``bmm``)
for the equations programs use.
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


SETUP = """
    def names(n, depth=0, out=None):
        out = [] if out is None else out
        if n is not None:
            out.append("  " * depth + n.name())
            for m, _ in n.next_functions:
                names(m, depth + 1, out)
        return out

    def saved(t):
        return {a: getattr(t.grad_fn, a) for a in sorted(dir(t.grad_fn)) if a.startswith("_saved")
                and not torch.is_tensor(getattr(t.grad_fn, a))}

    x = torch.tensor([[1.5, -2.0, 3.25, 0.5], [4.0, 0.75, -1.25, 2.5], [0.25, 5.0, 1.0, -3.5]],
                     dtype=torch.float64, requires_grad=True)

    def check(name, f):
        y = f(x)
        y = y[0] if isinstance(y, tuple) else y
        print(name, tuple(y.shape), y.is_contiguous(), node(y), saved(y))
        print("\\n".join(names(y.grad_fn)))
        record(name + " value", y)
        w = torch.linspace(-1.0, 1.3, y.numel(), dtype=torch.float64).reshape(y.shape)
        g, = torch.autograd.grad((y * y * w).sum(), x, create_graph=True)
        record(name + " grad", g)
        print("\\n".join(names(g.grad_fn)) if g.requires_grad else "a gradient without a graph")
        if g.requires_grad:
            gg, = torch.autograd.grad((g * g).sum(), x, allow_unused=True)
            record(name + " grad of grad", gg)
"""


def ops_case(id, body):
    case(id, SETUP + body)


# ------------------------------------------------------------------ repeat_interleave
ops_case("repeat_interleave", """
    check("by a number", lambda t: t.repeat_interleave(2))
    check("by a number along 0", lambda t: t.repeat_interleave(2, dim=0))
    check("by a number along -1", lambda t: torch.repeat_interleave(t, 3, -1))
    check("by counts", lambda t: t.repeat_interleave(torch.tensor([1, 0, 2]), dim=0))
    check("by one count", lambda t: t.repeat_interleave(torch.tensor([2]), dim=1))
    check("by a 0-d count", lambda t: t.repeat_interleave(torch.tensor(2)))
    check("output_size", lambda t: t.repeat_interleave(torch.tensor([1, 2, 1, 1]), 1, output_size=5))
    check("transposed", lambda t: t.t().repeat_interleave(2, 0))
""")
case("repeat_interleave_values", """
    print(torch.repeat_interleave(torch.tensor([2, 0, 1])), torch.tensor([1, 2, 3]).repeat_interleave(2))
    print(torch.tensor(5.).repeat_interleave(3), torch.ones(2, 0).repeat_interleave(2, 1).shape)
    print(torch.repeat_interleave(torch.tensor([[1, 2], [3, 4]]), torch.tensor([1, 2]), dim=0))
    print(torch.tensor([True, False]).repeat_interleave(2), torch.repeat_interleave(torch.tensor([0, 0])))
    r = torch.tensor([1., 2.], requires_grad=True).repeat_interleave(torch.tensor([2, 1]))
    print(r, r.grad_fn._saved_index, r.grad_fn._saved_dim)
""")
case("repeat_interleave_negative", "torch.ones(2).repeat_interleave(-1)", "RuntimeError")
case("repeat_interleave_negative_counts", "torch.ones(2).repeat_interleave(torch.tensor([1, -1]))",
     "RuntimeError")
case("repeat_interleave_counts_of_other_size", "torch.ones(2, 3).repeat_interleave(torch.tensor([1, 2]), 1)",
     "RuntimeError")
case("repeat_interleave_counts_of_floats", "torch.repeat_interleave(torch.tensor([1.5, 2.0]))",
     "NotImplementedError")
case("repeat_interleave_counts_of_two_dims", "torch.repeat_interleave(torch.ones(2, 2, dtype=torch.long))",
     "RuntimeError")
case("repeat_interleave_dim_out_of_range", "torch.ones(2).repeat_interleave(2, 1)", "IndexError")
case("repeat_interleave_wrong_output_size",
     "torch.ones(3).repeat_interleave(torch.tensor([1, 1, 1]), 0, output_size=4)", "RuntimeError")

# ------------------------------------------------------------------ roll
ops_case("roll", """
    check("roll flat", lambda t: t.roll(2))
    check("roll dim", lambda t: t.roll(-1, 1))
    check("roll dims", lambda t: torch.roll(t, (1, -5), (0, -1)))
    check("roll list", lambda t: t.roll([3], [1]))
    check("roll of a view", lambda t: t.t().roll(1, 0))
""")
case("roll_values", """
    print(torch.roll(torch.arange(5), 7), torch.arange(6).reshape(2, 3).roll(1, 1), torch.tensor(3.).roll(1))
    print(torch.ones(0, 2).roll(1, 0).shape, torch.arange(4).roll(0))
""")
case("roll_shifts_and_dims_apart", "torch.ones(2, 2).roll((1, 1), 0)", "RuntimeError")
case("roll_two_shifts_without_dims", "torch.ones(2, 2).roll((1, 1))", "RuntimeError")
case("roll_dim_out_of_range", "torch.ones(2, 2).roll(1, 2)", "IndexError")

# ------------------------------------------------------------------ diag, diagonal, movedim
ops_case("diag_diagonal_movedim", """
    check("diag of a matrix", lambda t: torch.diag(t))
    check("diag above", lambda t: t.diag(1))
    check("diag below", lambda t: torch.diag(t, -2))
    check("diag of a vector", lambda t: torch.diag(t[0]))
    check("diag of a vector above", lambda t: torch.diag(t[1], 2))
    check("diag of a vector below", lambda t: t[:, 1].diag(-1))
    check("diagonal", lambda t: t.diagonal())
    check("diagonal offset", lambda t: torch.diagonal(t, 1))
    check("diagonal dims", lambda t: t.diagonal(-1, 1, 0))
    check("diagonal of 3 dims", lambda t: t.reshape(3, 2, 2).diagonal(0, -2, -1))
    check("movedim", lambda t: t.reshape(3, 2, 2).movedim(0, -1))
    check("movedim several", lambda t: torch.movedim(t.reshape(3, 2, 2), (0, 1), (2, 0)))
    check("moveaxis", lambda t: t.moveaxis(1, 0))
""")
case("diagonal_is_a_view", """
    x = torch.arange(9.).reshape(3, 3)
    d = x.diagonal()
    d.mul_(10)
    print(x, d._base is x, torch.diag(x)._base, d.is_contiguous())
    y = torch.ones(3, 3, requires_grad=True) * 1
    y.diagonal().zero_()
    print(y, node(y))
    print(torch.diag(torch.tensor([[1, 2], [3, 4]]), 5), torch.diag(torch.ones(2, 3), -3).shape)
""")
case("diag_of_three_dims", "torch.diag(torch.ones(2, 2, 2))", "RuntimeError")
case("diagonal_same_dims", "torch.ones(2, 2).diagonal(0, 1, 1)", "RuntimeError")
case("movedim_lengths_apart", "torch.ones(2, 3).movedim((0, 1), (0,))", "RuntimeError")
case("movedim_repeated", "torch.ones(2, 3).movedim((0, 0), (0, 1))", "RuntimeError")

# ------------------------------------------------------------------ narrow
ops_case("narrow", """
    check("narrow", lambda t: t.narrow(1, 1, 2))
    check("narrow negative start", lambda t: torch.narrow(t, -1, -3, 3))
    check("narrow tensor start", lambda t: t.narrow(0, torch.tensor(1), 2))
    check("narrow nothing", lambda t: t.narrow(0, 3, 0))
""")
case("narrow_is_a_view", """
    x = torch.arange(6.).reshape(2, 3)
    n = x.narrow(1, 1, 2)
    n.fill_(-1)
    print(x, n._base is x)
""")
case("narrow_of_a_number", "torch.tensor(1.).narrow(0, 0, 1)", "RuntimeError")
case("narrow_start_out_of_range", "torch.ones(3).narrow(0, 4, 0)", "IndexError")
case("narrow_too_long", "torch.ones(3).narrow(0, 1, 3)", "RuntimeError")
case("narrow_negative_length", "torch.ones(3).narrow(0, 1, -1)", "RuntimeError")

# ------------------------------------------------------------------ remainder, fmod, %, div rounding
ops_case("remainder_and_fmod", """
    y = torch.tensor([[2.0, -1.5, 3.0, 0.75]], dtype=torch.float64, requires_grad=True)
    check("% number", lambda t: t % 2.5)
    check("% negative number", lambda t: t % -2)
    check("remainder tensor", lambda t: torch.remainder(t, y))
    check("% tensor", lambda t: t % y)
    check("fmod number", lambda t: torch.fmod(t, 2.5))
    check("fmod tensor", lambda t: t.fmod(y))
    check("divisor's gradient", lambda t: torch.remainder(t.detach(), t + 5))
    check("fmod divisor's gradient", lambda t: torch.fmod(t.detach() * 3, t + 5))
""")
case("remainder_values", """
    a = torch.tensor([-7, -3, 3, 7])
    print(a % 3, a % -3, torch.fmod(a, 3), torch.fmod(a, -3), 7 % torch.tensor([3, -3]), a.remainder(2.5))
    f = torch.tensor([-7.5, -3.0, 3.0, 7.25, float("inf"), float("nan"), -0.0])
    print(f % 2, torch.fmod(f, 2), f % 0., torch.fmod(f, -2.), f % float("inf"))
    print(torch.div(a, 2, rounding_mode="trunc"), torch.div(a, 2, rounding_mode="floor"))
    print(a.div(-2, rounding_mode="floor"))
    print(torch.div(f, 2, rounding_mode="floor"), f.div(torch.full((7,), -2.), rounding_mode="trunc"))
    print(torch.tensor([5, 6], dtype=torch.uint8) % 4)
    print(torch.tensor([5.], dtype=torch.float64) % torch.tensor([2.]))
    print((torch.tensor([1, 2]) % 1.5).dtype, torch.remainder(torch.tensor([True, False]), 2))
""")
case("remainder_in_place_and_graph", """
    x = torch.tensor([5.5, -7.25, 3.0], requires_grad=True)
    y = x * 1
    y %= 2
    print(y, node(y))
    z = x * 1
    z.fmod_(torch.tensor([2.0, 3.0, -2.0]))
    print(z, node(z), sorted(a for a in dir(z.grad_fn) if a.startswith("_saved")))
    (y + z).sum().backward()
    print(x.grad)
    q = x.div(torch.tensor([2.0, 3.0, 4.0], requires_grad=True), rounding_mode="trunc")
    print(q, node(q), q.grad_fn._saved_rounding_mode, x.div(2, rounding_mode="floor").grad_fn.name())
    r = 5 % (x * 1)
    print(r, node(r))
""")
case("remainder_of_a_number_has_no_derivative",
     "(7 % torch.tensor([2.0, 3.0], requires_grad=True)).sum().backward()",
     "RuntimeError")
case("remainder_integer_by_zero", "torch.tensor([1, 2]) % 0", "RuntimeError")
case("fmod_integer_by_zero", "torch.fmod(torch.tensor([1, 2]), torch.tensor([1, 0]))", "RuntimeError")
case("remainder_of_bools", "torch.tensor([True]) % torch.tensor([True])", "NotImplementedError")
case("remainder_shapes", "torch.ones(2) % torch.ones(3)", "RuntimeError")
case("remainder_of_a_string", "torch.remainder(torch.ones(2), 'a')", "TypeError")
case("remainder_method_of_a_string", "torch.ones(2).remainder('a')", "TypeError")
case("fmod_of_a_string", "torch.fmod(torch.ones(2), 'a')", "TypeError")
case("percent_of_a_string", "torch.ones(2) % 'a'", "TypeError")
case("div_rounding_mode_unknown", "torch.div(torch.ones(2), 2, rounding_mode='round')", "RuntimeError")
case("div_integer_by_zero_floor", "torch.div(torch.tensor([1]), 0, rounding_mode='floor')", "RuntimeError")

# ------------------------------------------------------------------ median
ops_case("median", """
    check("median", lambda t: t.median())
    check("median dim", lambda t: t.median(1))
    check("median dim keepdim", lambda t: torch.median(t, 0, keepdim=True))
    ties = torch.tensor([[1., 2., 2., 3.], [2., 2., 2., 2.], [0., 5., 5., 1.]], dtype=torch.float64)
    check("median of ties", lambda t: (t * 0 + ties).median(1))
    check("median all ties", lambda t: (t.round() * 0 + 1).median())
""")
case("median_values_and_indices", """
    for v in ([1., 2., 2., 3.], [2., 1., 2., 3., 2.], [3., 1., 2., 2.], [5., 5., 5., 5.],
              [1., float("nan"), 0.], [4., 4., 1., 1.], [float("nan"), 1., float("nan")], [7.]):
        t = torch.tensor(v)
        print(v, t.median(), t.median(0), t.median(0).indices.dtype)
    a = torch.tensor([[1., 2., 2., 3.], [2., 2., 2., 2.], [0., 5., 5., 1.]])
    print(a.median(1), a.median(0), a.median(-1, True), torch.median(a.t(), 0))
    print(torch.tensor([]).median(), torch.tensor(3.).median(), torch.tensor(3.).median(0))
    print(torch.tensor([3, 1, 2]).median())
    m = a.median(1)
    print(type(m).__name__, m.values, m.indices)
    x = torch.tensor([1., float("nan"), 3., float("nan")], requires_grad=True)
    x.median().backward()
    print(x.grad)
""")
case("median_of_an_empty_dim", "torch.ones(2, 0).median(1)", "IndexError")
case("median_dim_out_of_range", "torch.ones(2).median(1)", "IndexError")

# ------------------------------------------------------------------ var_mean, std_mean
ops_case("var_mean_std_mean", """
    check("var_mean", lambda t: torch.var_mean(t))
    check("var_mean mean", lambda t: torch.var_mean(t, 1)[1])
    check("var_mean dim", lambda t: torch.var_mean(t, 1))
    check("var_mean correction", lambda t: torch.var_mean(t, (0, 1), correction=0, keepdim=True))
    check("std_mean", lambda t: torch.std_mean(t))
    check("std_mean dim", lambda t: torch.std_mean(t, 0, unbiased=False))
    check("std_mean mean", lambda t: torch.std_mean(t, -1, keepdim=True)[1])
    for f in (torch.var_mean, torch.std_mean):
        v, m = f(x, 1)
        print(type(f(x)).__name__, v.grad_fn is m.grad_fn, node(v), node(m), v.grad_fn._saved_dim,
              v.grad_fn._saved_correction, v.grad_fn._saved_keepdim,
              sorted(a for a in dir(v.grad_fn) if a.startswith("_saved")))
        s = (v * 2 + m * 3).sum()
        g, = torch.autograd.grad(s, x, create_graph=True)
        record(f.__name__ + " both", g)
        print("\\n".join(names(g.grad_fn)))
""")
case("var_mean_signatures", """
    x = torch.tensor([[1., 2., 3.], [4., 5., 7.]])
    print(torch.var_mean(x), torch.var_mean(x, 0), torch.var_mean(x, False))
    print(torch.var_mean(x, 1, False, True))
    print(torch.std_mean(x, dim=1, correction=2), torch.var_mean(x, [0, 1], keepdim=True),
          torch.std_mean(x.double()))
    print(torch.var_mean(torch.tensor([2.])), torch.std_mean(torch.tensor([])))
""")
case("var_mean_of_integers", "torch.var_mean(torch.tensor([1, 2]))", "RuntimeError")
case("std_mean_unbiased_and_correction", "torch.std_mean(torch.ones(3), unbiased=False, correction=1)",
     "TypeError")

# ------------------------------------------------------------------ unique
case("unique", """
    a = torch.tensor([[3, 1, 2], [3, 1, 5]])
    print(torch.unique(a), a.unique(return_inverse=True), a.unique(return_counts=True))
    print(torch.unique(a, sorted=False, return_inverse=True, return_counts=True), torch.unique(a, dim=0))
    print(torch.unique(a, dim=1, return_inverse=True, return_counts=True), torch.unique(torch.tensor([])))
    print(torch.unique(torch.tensor([2.5, float("nan"), 1.0, float("nan"), 2.5])))
    print(torch.tensor([True, False, True]).unique())
    x = torch.tensor([2., 1., 2.], requires_grad=True)
    u = torch.unique(x * 1)
    v, inverse, counts = torch.unique(x, return_inverse=True, return_counts=True)
    print(u, node(u), v.requires_grad, inverse.requires_grad, counts.requires_grad)
    print(node(torch.unique(x, dim=0)))
""")
case("unique_has_no_derivative", "torch.unique(torch.tensor([2., 1.], requires_grad=True)).sum().backward()",
     "NotImplementedError")
case("unique_dim_has_no_derivative",
     "torch.unique(torch.ones(2, 2, requires_grad=True), dim=1).sum().backward()", "NotImplementedError")

# ------------------------------------------------------------------ einsum
EINSUM = """
    torch.manual_seed(0)
    A, B = torch.randn(2, 3, requires_grad=True), torch.randn(3, 4, requires_grad=True)
    v, w = torch.randn(3, requires_grad=True), torch.randn(3, requires_grad=True)
    S = torch.randn(3, 3, requires_grad=True)
    Q, K = torch.randn(2, 2, 3, 4, requires_grad=True), torch.randn(2, 2, 5, 4, requires_grad=True)
    X, Y = torch.randn(2, 3, 4, requires_grad=True), torch.randn(2, 4, 5, requires_grad=True)
    W = torch.randn(4, 2, 3, requires_grad=True)
    leaves = (A, B, v, w, S, Q, K, X, Y)

    def run(equation, *operands):
        r = torch.einsum(equation, *operands)
        print(equation, tuple(r.shape), r.is_contiguous())
        print("\\n".join(names(r.grad_fn)))
        record(equation, r)
        weights = torch.linspace(-1, 1, r.numel()).reshape(r.shape)
        grads = torch.autograd.grad((r * r * weights).sum(), [o for o in operands if o.requires_grad],
                                    create_graph=True)
        record(equation + " grads", list(grads))
        print([g.grad_fn.name() for g in grads])
"""
case("einsum_graphs", SETUP + EINSUM + """
    for equation, operands in [("ij,jk->ik", (A, B)), ("ij,jk", (A, B)), ("bij,bjk->bik", (X, Y)),
                               ("ii->i", (S,)), ("ii", (S,)), ("ij->ji", (A,)), ("i,i->", (v, w)),
                               ("i,i", (v, w)), ("ij->", (A,)), ("ij->j", (A,)), ("bhqd,bhkd->bhqk", (Q, K)),
                               ("i,j->ij", (v, w)), ("ij,j->i", (A, v)),
                               ("...ij,...jk->...ik", (X, Y)), ("ij,ij->ij", (A, A)), ("ij,ij->i", (A, A)),
                               ("i->i", (v,)), ("ij,kj->ik", (A, A)), ("bij->bji", (X,)),
                               ("i,j,k->ijk", (v, w, v)),
                               ("ij,jk,kl->il", (A, B, B.t())), ("b i j, b j k -> b k i", (X, Y)),
                               ("...j,j->...", (X.transpose(1, 2), torch.ones(3))), ("ji,jk->ki", (A.t(), B)),
                               ("iij->j", (torch.ones(3, 3, 2, requires_grad=True),)), ("ab,ab->", (A, A)),
                               ("ijk->kij", (X,)), ("i,i,i->i", (v, w, v)), ("bn,anm,bm->ba", (A.t(), W, S))]:
        run(equation, *operands)
""")
case("einsum_forms_and_values", """
    a, b = torch.arange(6.).reshape(2, 3), torch.arange(12.).reshape(3, 4)
    print(torch.einsum("ij,jk->ik", [a, b]), torch.einsum(a, [0, 1], b, [1, 2], [0, 2]))
    print(torch.einsum(a, [0, 1]))
    print(torch.einsum(a, [Ellipsis, 1], [1]), torch.einsum("ij", a).shape, torch.einsum("ji", a).shape)
    print(torch.einsum("i,i->", torch.tensor([1, 2]), torch.tensor([3, 4])), torch.einsum("ij->ij", a) is a)
    print(torch.einsum("ij,kl->ijkl", torch.ones(1, 2), torch.ones(2, 1)).shape,
          torch.einsum("i,i", torch.ones(1), torch.ones(3)))
    print(torch.einsum("bij,bjk->bik", torch.ones(1, 2, 3), torch.ones(4, 3, 2)).shape)
""")
case("einsum_no_operands", "torch.einsum('i')", "ValueError")
case("einsum_too_few_operands", "torch.einsum('i,i', torch.ones(2))", "RuntimeError")
case("einsum_too_many_operands", "torch.einsum('i', torch.ones(2), torch.ones(2))", "RuntimeError")
case("einsum_wrong_subscript_count", "torch.einsum('ij', torch.ones(2))", "RuntimeError")
case("einsum_ellipsis_too_many", "torch.einsum('...ij', torch.ones(2))", "RuntimeError")
case("einsum_bad_subscript", "torch.einsum('i1', torch.ones(2, 2))", "RuntimeError")
case("einsum_bad_output_subscript", "torch.einsum('ij->k', torch.ones(2, 2))", "RuntimeError")
case("einsum_output_twice", "torch.einsum('ij->ii', torch.ones(2, 2))", "RuntimeError")
case("einsum_sizes_apart", "torch.einsum('i,i->', torch.ones(2), torch.ones(3))", "RuntimeError")
case("einsum_repeated_sizes_apart", "torch.einsum('ii->i', torch.ones(2, 3))", "RuntimeError")
case("einsum_lone_dot", "torch.einsum('i.->i', torch.ones(2, 2))", "RuntimeError")
case("einsum_two_ellipses", "torch.einsum('......', torch.ones(2, 2))", "RuntimeError")
case("einsum_not_a_tensor", "torch.einsum('i', [1, 2])", "TypeError")


@pytest.mark.parametrize("code, error, message", CASES)
def test_same_as_torch(code, error, message):
    assert_same(code, error=error, message=message)


def test_case_ids_unique():
    ids = [c.id for c in CASES]
    assert len(ids) == len(set(ids))
