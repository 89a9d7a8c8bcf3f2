"""The last differences from random testing (issue 20, section 3), against PyTorch 2.13.

Random programs run under PyTorch and mini_autograd found a few wrong gradients, errors
PyTorch does not raise (and one it raises), and node names that differ in the graphs
``create_graph=True`` builds. Each case replays a finding, and its neighbours,
under both libraries (``crosscheck.assert_same``: printed output, warnings, errors).
"""
import textwrap

import pytest

try:
    from crosscheck import assert_same, full
except ImportError:  # tests/ made a package
    from tests.crosscheck import assert_same, full

torch = pytest.importorskip("torch")

CASES = []


def case(id, code, error=None, message=full):
    CASES.append(pytest.param(textwrap.dedent(code), error, message, id=id))


# ------------------------------------------------------------------------------ wrong gradients
_VIEW_PROBE = """
    def probe(v):
        out = []
        for name in ["requires_grad", "is_leaf", "grad_fn", "grad", "retains_grad"]:
            try:
                value = getattr(v, name)
                out.append(f"{name}={value.name() if hasattr(value, 'name') else value}")
            except RuntimeError as e:
                out.append(f"{name}: {e}")
        print(*out, sep="\\n  ")
        print(v)
"""
case("view_made_under_no_grad_then_base_changed_in_place", _VIEW_PROBE + """
    a = torch.tensor([1., 2., 3., 4., 5., 6.], requires_grad=True)
    x = a * 2
    with torch.no_grad():
        v = x.view(2, 3)
    x.mul_(2)
    probe(v)                     # grad: None, no warning; printed with grad_fn=<Invalid>
    try:
        (v * 1).sum().backward()
    except RuntimeError as e:
        print(e)
""")
case("view_made_under_no_grad_of_base_that_does_not_require_grad", _VIEW_PROBE + """
    a = torch.tensor([1., 2., 3., 4., 5., 6.], requires_grad=True)
    x = torch.tensor([1., 2., 3., 4., 5., 6.])
    with torch.no_grad():
        v = x.view(2, 3)
    x.mul_(a)                    # x now requires grad; v was made under no_grad all the same
    probe(v)
    try:
        (v * 1).sum().backward()
    except RuntimeError as e:
        print(e)
""")
case("view_made_under_no_grad_changed_in_place_by_a_tensor_requiring_grad", """
    a = torch.tensor([1., 2.], requires_grad=True)
    b = torch.ones(4)
    with torch.no_grad():
        u = b[1:3]
    u.mul_(a)
""", "RuntimeError")
case("view_of_view_keeps_its_no_grad_mark", """
    a = torch.tensor([1., 2., 3., 4.], requires_grad=True)
    x = a * 1
    with torch.no_grad():
        v = x[0:3]
    w = v[1:]                    # made with grad mode on, of a no_grad view
    print(w.requires_grad, w.grad_fn)
    w.mul_(2)
""", "RuntimeError")
case("views_made_under_inference_mode", _VIEW_PROBE + """
    a = torch.ones(4, requires_grad=True)
    x = a * 2
    with torch.inference_mode():
        v = x[1:3]
    try:
        v.mul_(2)
    except RuntimeError as e:
        print(e)
    x.mul_(2)
    probe(v)
    with torch.inference_mode():
        i = torch.ones(3, requires_grad=True)
        iv = i[1:]
        print(iv._base is None, iv._is_view(), iv.requires_grad, iv.is_leaf)
    b = torch.ones(4)
    with torch.inference_mode():
        u = b[1:3]
    try:
        u.mul_(a[:2])
    except RuntimeError as e:
        print(e)
    print(u.mul_(2))
""")
# -------------------------------------------------------------------- errors PyTorch does not raise
case("backward_with_float32_gradient_for_float64_output", """
    a = torch.tensor([[1., 2., 3.], [4., 5., 6.]], dtype=torch.float64, requires_grad=True)
    b = torch.tensor([[1., 0.], [2., 1.], [0., 3.]], dtype=torch.float64, requires_grad=True)
    c = torch.tensor([1., 2., 3.], dtype=torch.float64, requires_grad=True)
    outputs = {"mm": lambda: a @ b, "mv": lambda: a @ c, "vm": lambda: c @ b, "dot": lambda: c @ c,
               "bmm": lambda: a.unsqueeze(0) @ b.unsqueeze(0), "view": lambda: (a @ b).view(4),
               "t": lambda: (a @ b).t(), "linear": lambda: torch.nn.functional.linear(a, b.t(), c[:2]),
               "inplace": lambda: (a @ b).mul_(2), "cat": lambda: torch.cat([a @ b, a @ b])}
    for name, make in outputs.items():
        for dtype in (torch.float32, torch.int64):
            a.grad = b.grad = c.grad = None
            v = make()
            v.backward(torch.ones(v.shape, dtype=dtype))
            print(name, dtype, [None if t.grad is None else t.grad.dtype for t in (a, b, c)])
    (g,) = torch.autograd.grad(a @ b, [a], torch.ones(2, 2))
    print(g.dtype)
""")
case("double_backward_through_max_of_0d_tensor", """
    c = torch.tensor(2., requires_grad=True)
    y = c.max() * c
    (g,) = torch.autograd.grad(y, c, create_graph=True)
    walk(g)
    g.backward()
    print(c.grad)
    a = torch.tensor([[1., 3.], [3., 2.]], requires_grad=True)
    (g,) = torch.autograd.grad(a.max() * a.sum(), a, create_graph=True)
    walk(g)
    g.sum().backward()
    print(a.grad)
""")
case("fill_under_no_grad_of_a_view_made_under_no_grad", """
    a = torch.tensor([1., 2., 3., 4.], requires_grad=True)
    x = a * 2
    with torch.no_grad():
        v = x[1:3]
        print(v.fill_(5.))
        print(v.fill_(torch.tensor(7.)))
        print(v.fill_(a[0]))
    print(x, v)
    x2 = a * 2
    with torch.no_grad():
        w = x2[1:3]
    x2.mul_(2)
    with torch.no_grad():
        print(w.fill_(1.))
    print(x2)
""")

case("detach_in_place_of_a_view_under_inference_mode", """
    c = torch.ones(3)
    with torch.inference_mode():
        ci = torch.ones(3)
        cv = ci[1:]
        dv = c[1:]
        print(cv.detach_(), dv.detach_())
    print(cv._base is ci, cv._is_view(), dv._base is c, dv._is_view(), dv.is_inference(), cv.is_inference())
    print(cv.detach_())
    e = torch.ones(3, requires_grad=True)
    x = e * 2
    v = x[1:]
    with torch.inference_mode():
        print(v.detach_(), x.detach_())       # autograd is off in inference mode: nothing changes
        ev = e[1:]
        print(ev.detach_())
    print(x.grad_fn, v.grad_fn, ev.requires_grad)
    try:
        v.detach_()
    except RuntimeError as err:
        print(err)
""")
case("cat_skips_1d_empty_tensors", """
    a = torch.ones(2, 3, requires_grad=True)
    e = torch.tensor([])
    for tensors, dim in [([a, e], 0), ([e, a], 0), ([e, a], 1), ([a, e], -1), ([e, e], 0),
                         ([a, torch.tensor([], dtype=torch.int64)], 0),
                         ([a, torch.tensor([], dtype=torch.float64)], 0),
                         ([a, torch.zeros(0, requires_grad=True)], 0), ([a, torch.zeros(0, 3)], 0),
                         ([e, torch.ones(2, 2, 2)], 2)]:
        y = torch.cat(tensors, dim)
        print(y.shape, y.dtype, node(y))
    b = torch.zeros(0, requires_grad=True)
    torch.cat([a, b, a]).sum().backward()
    print(a.grad, b.grad)
    (g,) = torch.autograd.grad(torch.cat([a]).sum(), a, create_graph=True)
    print(g)
    for bad in ([a, torch.zeros(0, 2)], [torch.tensor(1.), e]):
        try:
            torch.cat(bad)
        except RuntimeError as err:
            print(err)
    try:
        torch.cat([a, e], 5)
    except IndexError as err:
        print(err)
""")

# ------------------------------------------------------------------ an error PyTorch raises
case("backward_twice_through_a_node_with_no_edges", """
    a = torch.tensor(3., requires_grad=True)
    with torch.no_grad():
        b = a.t()
    c = b.max()
    print(node(c))
    c.backward()
    print(a.grad)
    c.backward()
""", "RuntimeError")

@pytest.mark.parametrize("code, error, message", CASES)
def test_same_as_torch(code, error, message):
    assert_same(code, error=error, message=message)


def test_case_ids_unique():
    ids = [c.id for c in CASES]
    assert len(ids) == len(set(ids))
