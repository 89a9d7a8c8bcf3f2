"""The rest of the elementwise maths (mini_autograd/ops/unary.py and binary.py) against PyTorch 2.13.

``log1p``, ``expm1``, ``exp2``, ``rsqrt``, ``reciprocal``, ``sinh``/``cosh``/``tan``, the inverse
trigonometric and hyperbolic functions, ``erf``/``erfc``/``erfinv``, ``logit``, ``sinc``, ``frac``,
``deg2rad``/``rad2deg``, ``nan_to_num``, ``signbit``, ``atan2``, ``xlogy``, ``hypot``, ``logaddexp`` and
``logaddexp2``: for each, its node's name and saved attributes, its values in float64 and float32, its
gradient, the graph ``create_graph=True`` records for that gradient (PyTorch's formula, op by op), the
gradient of the gradient, nan, inf and -0.0 going in, the in-place version, integer input and the errors.
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

    def check(name, f, values, *others):
        x = torch.tensor(values, dtype=torch.float64, requires_grad=True)
        y = f(x, *others)
        print(name, node(y), sorted(a for a in dir(y.grad_fn) if a.startswith("_saved")))
        record(name + " float64", y)
        record(name + " float32", f(x.detach().float(),
                                    *[o.float() if torch.is_tensor(o) else o for o in others]))
        w = torch.linspace(-1.0, 1.5, y.numel(), dtype=torch.float64).reshape(y.shape)
        g, = torch.autograd.grad((y * w).sum(), x, create_graph=True)
        record(name + " grad", g)
        print("\\n".join(names(g.grad_fn)) if g.requires_grad else "a gradient without a graph")
        if g.requires_grad:
            gg, = torch.autograd.grad((g * g).sum(), x, allow_unused=True)
            record(name + " grad of grad", gg)
"""


def ops_case(id, body):
    case(id, SETUP + body)


ops_case("logs_and_exponentials", """
    check("log1p", torch.log1p, [-0.5, 1e-10, 0.25, 3.0])
    check("expm1", torch.expm1, [-2.0, 1e-10, 0.25, 3.0])
    check("exp2", torch.exp2, [-2.0, 0.0, 0.5, 3.5])
    check("rsqrt", torch.rsqrt, [0.25, 1.0, 2.0, 9.0])
    check("reciprocal", torch.reciprocal, [0.25, -1.0, 2.0, 9.0])
    check("log1p method", lambda t: t.log1p(), [0.5, 2.0])
""")
ops_case("hyperbolic_and_trigonometric", """
    check("sinh", torch.sinh, [-2.0, 0.0, 0.5, 3.0])
    check("cosh", torch.cosh, [-2.0, 0.0, 0.5, 3.0])
    check("tan", torch.tan, [-1.0, 0.0, 0.5, 1.2])
    check("asin", torch.asin, [-0.9, 0.0, 0.5, 0.75])
    check("acos", torch.acos, [-0.9, 0.0, 0.5, 0.75])
    check("atan", torch.atan, [-3.0, 0.0, 0.5, 10.0])
    check("asinh", torch.asinh, [-3.0, 0.0, 0.5, 10.0])
    check("acosh", torch.acosh, [1.5, 2.0, 3.5, 10.0])
    check("atanh", torch.atanh, [-0.9, 0.0, 0.5, 0.75])
    check("arcsin", torch.arcsin, [0.25])
    check("arctan method", lambda t: t.arctan(), [0.25])
""")
ops_case("error_function", """
    check("erf", torch.erf, [-2.5, -0.5, 0.0, 0.3, 1.5, 4.0])
    check("erfc", torch.erfc, [-2.5, -0.5, 0.0, 0.3, 1.5, 6.0])
    check("erfinv", torch.erfinv, [-0.999, -0.5, 0.0, 0.3, 0.9, 0.999999])
""")
ops_case("logit_sinc_frac_degrees", """
    check("logit", torch.logit, [0.1, 0.5, 0.75, 0.999])
    check("logit eps", lambda t: torch.logit(t, eps=0.2), [0.1, 0.5, 0.75, 0.9])
    check("logit eps method", lambda t: t.logit(0.05), [0.01, 0.5, 0.97])
    check("sinc", torch.sinc, [-1.5, 0.25, 0.5, 2.25])
    check("frac", torch.frac, [-2.75, -0.5, 0.25, 3.5])
    check("deg2rad", torch.deg2rad, [-90.0, 0.0, 45.0, 180.0])
    check("rad2deg", torch.rad2deg, [-3.0, 0.0, 0.5, 3.14])
    check("nan_to_num", torch.nan_to_num, [-3.0, 0.0, 0.5, 3.14])
""")
ops_case("two_tensors", """
    o = torch.tensor([[0.5], [-2.0], [3.0]], dtype=torch.float64, requires_grad=True)
    check("atan2", torch.atan2, [[1.0, -2.0, 0.5, 3.0]], o)
    check("atan2 of other", lambda t: torch.atan2(o, t), [[1.0, -2.0, 0.5, 3.0]])
    p = torch.tensor([[0.5], [2.0], [3.0]], dtype=torch.float64, requires_grad=True)
    check("xlogy", torch.xlogy, [[1.0, 0.0, 0.5, 3.0]], p)
    q = torch.tensor([[1.0, 0.0, 2.0, -1.0]], dtype=torch.float64)
    check("xlogy of other", lambda t: torch.xlogy(q, t),
          [[0.5], [2.0], [3.0]])
    check("xlogy number", lambda t: torch.xlogy(t, 2.5), [1.0, 0.0, 0.5, 3.0])
    check("xlogy number below zero", lambda t: torch.xlogy(t, -2.0), [1.0, 0.0, 0.5, 3.0])
    check("xlogy of a number", lambda t: torch.xlogy(2.5, t), [1.0, 0.5, 3.0])
    check("hypot", torch.hypot, [[1.0, -2.0, 0.5, 3.0]], o)
    check("logaddexp", torch.logaddexp, [[1.0, -2.0, 0.5, 3.0]], o)
    check("logaddexp2", torch.logaddexp2, [[1.0, -2.0, 0.5, 3.0]], o)
    check("xlogy method", lambda t: t.xlogy(p), [[1.0, 0.5]])
""")
case("saved_attributes", """
    x = torch.tensor([0.25, 0.5], requires_grad=True)
    print(torch.logit(x, 0.1).grad_fn._saved_eps, torch.logit(x).grad_fn._saved_eps)
    print(torch.expm1(x).grad_fn._saved_result, torch.log1p(x).grad_fn._saved_self)
    print(torch.xlogy(x, 2.).grad_fn._saved_other, torch.xlogy(2., x).grad_fn._saved_self)
    print(torch.hypot(x, x).grad_fn._saved_result, torch.atan2(x, x * 2).grad_fn._saved_other)
    for f in (torch.erfinv, torch.sinc, torch.frac, torch.deg2rad, torch.nan_to_num, torch.tan, torch.exp2,
              torch.rsqrt):
        print(sorted(a for a in dir(f(x).grad_fn) if a.startswith("_saved")))
""")
case("nan_inf_and_signed_zeros", """
    nan, inf = float("nan"), float("inf")
    special = torch.tensor([nan, inf, -inf, 0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 1e-30])
    for f in (torch.log1p, torch.expm1, torch.exp2, torch.rsqrt, torch.reciprocal, torch.sinh, torch.cosh,
              torch.tan, torch.asin, torch.acos, torch.atan, torch.asinh, torch.acosh, torch.atanh, torch.erf,
              torch.erfc, torch.erfinv, torch.logit, torch.sinc, torch.frac, torch.deg2rad, torch.rad2deg,
              torch.nan_to_num, torch.signbit):
        y = f(special)
        print(f.__name__, y.dtype, (torch.signbit(y) & ~torch.isnan(y)).tolist())
        record(f.__name__, y)
        record(f.__name__ + " double", f(special.double()))
    print(torch.logit(special, eps=0.25), torch.nan_to_num(special, nan=7.0, posinf=8.0, neginf=-9.0))
    print(torch.nan_to_num(special.double()), torch.nan_to_num(special, posinf=1e300))
    b = special[:6]
    for f in (torch.atan2, torch.xlogy, torch.hypot, torch.logaddexp, torch.logaddexp2):
        y = f(b.unsqueeze(1), b)
        record(f.__name__, y)
        print(f.__name__, torch.isnan(y).sum().item(), torch.isinf(y).sum().item(),
              (torch.signbit(y) & ~torch.isnan(y)).sum().item())
""")
case("gradients_at_nan_inf_and_the_edges", """
    x = torch.tensor([float("nan"), float("inf"), float("-inf"), 0.0, -0.0, 1.0, -1.0], requires_grad=True)
    for f in (torch.log1p, torch.expm1, torch.rsqrt, torch.tan, torch.asin, torch.atanh, torch.erf,
              torch.erfinv, torch.logit, lambda t: torch.logit(t, 0.1), torch.sinc, torch.frac,
              torch.nan_to_num):
        g, = torch.autograd.grad(f(x).sum(), x)
        record("grad", g)
    y = torch.tensor([0.0, 0.0, 1.0, 2.0], requires_grad=True)
    z = torch.tensor([0.0, -1.0, 0.0, float("nan")], requires_grad=True)
    torch.xlogy(y, z).sum().backward()
    print(y.grad, z.grad)
    y.grad = None
    torch.xlogy(y, -1.0).sum().backward()
    print(y.grad)
    a = torch.tensor([0.0, float("inf")], requires_grad=True)
    torch.hypot(a, a).sum().backward()
    print(a.grad)
    a.grad = None
    torch.logaddexp(a, a).sum().backward()
    torch.atan2(a, a).sum().backward()
    print(a.grad)
""")
case("in_place_versions", """
    x = torch.tensor([0.2, 0.5, 0.7], requires_grad=True)
    for name in ("log1p_", "expm1_", "exp2_", "rsqrt_", "sinh_", "cosh_", "tan_", "asin_", "acos_", "atan_",
                 "erf_", "erfc_", "erfinv_", "sinc_", "frac_", "deg2rad_", "rad2deg_", "logit_",
                 "nan_to_num_", "arcsin_", "reciprocal_"):
        y = x * 1
        r = getattr(y, name)()
        print(name, r is y, node(y), y._version)
        record(name, y)
        y.sum().backward()
        record(name + " grad", x.grad)
        x.grad = None
    for name in ("asinh_", "acosh_", "atanh_", "arcsinh_"):
        y = x * 2 + 1 if name == "acosh_" else x * 1
        getattr(y, name)()
        print(name, node(y), sorted(a for a in dir(y.grad_fn) if a.startswith("_saved")))
        record(name, y)
        with torch.no_grad():
            print(getattr(x * 1 + 1, name)())
    for name in ("atan2_", "xlogy_", "hypot_", "arctan2_"):
        x.grad = None
        y = x * 1
        getattr(y, name)(torch.tensor([0.5, 2.0, 3.0]))
        y.sum().backward()
        print(name, node(y), x.grad)
    y = x.detach().clone()
    print(y.logit_(0.25), y.nan_to_num_(), y.xlogy_(2.0))
    print(torch.tensor([1.0, float("nan")]).nan_to_num_(nan=3.0))
""")
case("in_place_asinh_has_no_derivative", """
    x = torch.tensor([0.2, 0.5], requires_grad=True)
    y = x * 1
    y.asinh_()
    (y * 2).sum().backward()
""", "NotImplementedError")
case("in_place_atanh_has_no_derivative",
     "x = torch.tensor([0.2], requires_grad=True); torch.autograd.grad((x * 1).atanh_().sum(), x)",
     "NotImplementedError")
case("in_place_on_a_leaf", "torch.ones(2, requires_grad=True).log1p_()", "RuntimeError")
case("in_place_on_integers", "torch.tensor([1, 2]).expm1_()", "RuntimeError")
case("in_place_keeps_a_saved_input", """
    x = torch.tensor([0.2, 0.5], requires_grad=True)
    y = x * 1
    z = y.sinh()
    y.mul_(2)
    z.sum().backward()
""", "RuntimeError")
case("integers_and_bools", """
    i, b = torch.tensor([1, 2, 0]), torch.tensor([True, False, True])
    for f in (torch.log1p, torch.expm1, torch.exp2, torch.rsqrt, torch.sinh, torch.tan, torch.asin, torch.erf,
              torch.erfc, torch.erfinv, torch.logit, torch.sinc, torch.deg2rad, torch.rad2deg,
              torch.nan_to_num, torch.signbit, torch.reciprocal):
        print(f.__name__, f(i).dtype, f(b).dtype)
        record(f.__name__, f(i))
        record(f.__name__, f(b))
    print(torch.atan2(i, i).dtype, torch.xlogy(i, i).dtype, torch.xlogy(i, 2).dtype, torch.xlogy(2, i).dtype)
    print(torch.atan2(i, torch.ones(3, dtype=torch.float64)).dtype)
    print(torch.hypot(torch.ones(3), torch.ones(3).double()))
    print(torch.nan_to_num(i) is i, torch.nan_to_num(b))
""")
case("frac_of_integers", "torch.frac(torch.tensor([1, 2]))", "NotImplementedError")
case("hypot_of_integers", "torch.hypot(torch.tensor([1]), torch.tensor([2]))", "NotImplementedError")
case("logaddexp_of_integers", "torch.logaddexp(torch.tensor([1]), torch.tensor([2]))", "NotImplementedError")
case("atan2_of_a_number", "torch.atan2(torch.ones(2), 2.0)", "TypeError")
case("hypot_of_a_number", "torch.hypot(torch.ones(2), 2.0)", "TypeError")
case("logaddexp_of_a_number", "torch.logaddexp(torch.ones(2), 1.0)", "TypeError")
case("log1p_of_a_list", "torch.log1p([1.0])", "TypeError")
case("atan2_shapes", "torch.atan2(torch.ones(2, 3), torch.ones(4))", "RuntimeError")
case("layout_follows_the_input", """
    x = torch.arange(12.).reshape(3, 4).t()
    for f in (torch.log1p, torch.erf, torch.sinc, torch.frac, torch.nan_to_num, torch.deg2rad):
        print(f.__name__, f(x).is_contiguous(), f(x[::2]).is_contiguous())
    print(torch.atan2(x, torch.ones(4, 3)).is_contiguous(), torch.hypot(torch.ones(4, 3), x).is_contiguous())
""")


@pytest.mark.parametrize("code, error, message", CASES)
def test_same_as_torch(code, error, message):
    assert_same(code, error=error, message=message)


def test_case_ids_unique():
    ids = [c.id for c in CASES]
    assert len(ids) == len(set(ids))
