"""The last differences from random testing (issue 20, section 3), against PyTorch 2.13.

Random programs run under PyTorch and mini_autograd found a few wrong gradients, errors
PyTorch does not raise (and one it raises), and node names that differ in the graphs
``create_graph=True`` builds. The first part replays each finding, and its neighbours,
under both libraries (``crosscheck.assert_same``: printed output, warnings, errors).

The second part is a sweep: for every differentiable op mini_autograd has, it builds the
gradient with ``create_graph=True``, then the gradient of that gradient, and compares the
two graphs node by node (names and ``next_functions``, walked depth first) with PyTorch's.
"""
import textwrap
import warnings

import numpy as np
import pytest

try:
    from crosscheck import assert_same, full
except ImportError:  # tests/ made a package
    from tests.crosscheck import assert_same, full

torch = pytest.importorskip("torch")

import mini_autograd  # noqa: E402  (after the skip: without torch there is nothing to compare with)

CASES = []


def case(id, code, error=None, message=full):
    CASES.append(pytest.param(textwrap.dedent(code), error, message, id=id))


# ------------------------------------------------------------------------------ wrong gradients
case("nll_loss_every_target_ignored_then_tanh", """
    import torch.nn.functional as F
    a = torch.tensor([[0.5, -1.0, 2.0]], requires_grad=True)
    y = F.nll_loss(F.log_softmax(a, 1), torch.tensor([-100]))
    print(y)
    y.tanh().backward()          # tanh's backward sends nan; an ignored target's gradient stays 0
    print(a.grad)
""")
case("nll_loss_ignored_samples_get_zero_whatever_arrives", """
    import torch.nn.functional as F
    a = torch.tensor([[0.5, -1.0, 2.0], [1.0, 0.0, -2.0]], requires_grad=True)
    y = F.nll_loss(a, torch.tensor([0, -100]), reduction="none")
    y.backward(torch.tensor([float("nan"), float("nan")]))
    print(a.grad)
    a.grad = None
    (F.nll_loss(a, torch.tensor([1, -100])) * float("nan")).backward()
    print(a.grad)
    a.grad = None
    F.nll_loss(a[0], torch.tensor(-100), reduction="sum").backward(torch.tensor(float("inf")))
    print(a.grad)
    a.grad = None
    y = F.nll_loss(F.log_softmax(a, 1), torch.tensor([-100, -100]))
    y.tanh().backward()
    print(y, a.grad)
""")
case("nll_loss_zero_weights_mean_is_nan_as_in_torch", """
    import torch.nn.functional as F
    a = torch.tensor([[0.5, -1.0, 2.0], [1.0, 0.0, -2.0]], requires_grad=True)
    y = F.nll_loss(F.log_softmax(a, 1), torch.tensor([0, 0]), weight=torch.tensor([0., 1., 1.]))
    y.backward()
    print(y, a.grad)
    b = torch.tensor([[0.5, -float("inf"), 2.0]], requires_grad=True)
    print(F.nll_loss(b, torch.tensor([-100]), reduction="none"))
    print(F.nll_loss(b, torch.tensor([1]), weight=torch.tensor([1., 0., 1.]), reduction="none"))
""")

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

# ------------------------------------------------------------------- node names in create_graph
case("create_graph_node_names_of_the_issue", """
    import torch.nn.functional as F
    a = torch.tensor([0.5, 1.5, 2.0], requires_grad=True)
    b = torch.tensor([1.0, -2.0, 0.25], requires_grad=True)
    for name, f in [("reciprocal", lambda: a.reciprocal().sum()), ("div", lambda: (a / b).sum()),
                    ("sigmoid", lambda: a.sigmoid().sum()), ("mse_loss", lambda: F.mse_loss(a, b))]:
        grads = torch.autograd.grad(f(), [a, b], create_graph=True, allow_unused=True)
        for g in grads:
            print(name, None if g is None else edges(g.grad_fn))
        second = torch.autograd.grad(sum(g.sum() for g in grads if g is not None and g.requires_grad),
                                     [a, b], create_graph=True, allow_unused=True)
        for g in second:
            if g is not None and g.grad_fn is not None:
                walk(g)
""")

# ------------------------------------------------------------------ found on the way, same kind
case("binary_cross_entropy_target_gradient_at_0_and_1", """
    import torch.nn.functional as F
    p = torch.tensor([0., 1., 0.5], requires_grad=True)
    t = torch.tensor([0., 1., 0.3], requires_grad=True)
    print(torch.autograd.grad(F.binary_cross_entropy(p, t), [p, t]))
    print(torch.autograd.grad(F.binary_cross_entropy(p, t, reduction="none").sum(), [p, t]))
    w = torch.tensor([1., 2., 3.])
    print(node(F.binary_cross_entropy(p, t, weight=w)))
    print(node(F.binary_cross_entropy_with_logits(p, t, weight=w, pos_weight=w)))
""")
case("binary_cross_entropy_saved_weights", """
    import torch.nn.functional as F
    p = torch.tensor([0.2, 0.7], requires_grad=True)
    t = torch.tensor([0., 1.])
    w = torch.tensor([1., 2.])
    y = F.binary_cross_entropy(p, t, weight=w)
    print(y.grad_fn._saved_weight, y.grad_fn._saved_self, y.grad_fn._saved_target, y.grad_fn._saved_reduction)
    print(F.binary_cross_entropy(p, t).grad_fn._saved_weight)
    y = F.binary_cross_entropy_with_logits(p, t, weight=w, pos_weight=w * 2)
    print(y.grad_fn._saved_weight, y.grad_fn._saved_pos_weight, y.grad_fn._saved_reduction)
    y = F.binary_cross_entropy_with_logits(p, t)
    print(y.grad_fn._saved_weight, y.grad_fn._saved_pos_weight, y.grad_fn._saved_self)
""")
case("binary_cross_entropy_saves_its_weights_in_pytorchs_order", """
    import torch.nn.functional as F
    p = torch.tensor([0.2, 0.7], requires_grad=True)
    t = torch.tensor([0., 1.], requires_grad=True)
    w = torch.tensor([1., 2.])

    def pack(x):
        print("pack", x)
        return x

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda x: x):
        F.binary_cross_entropy(p, t, weight=w)
        F.binary_cross_entropy_with_logits(p, t, weight=w, pos_weight=w * 2)
        y = F.binary_cross_entropy_with_logits(p, t)
    print(y.grad_fn._saved_weight, y.grad_fn._saved_pos_weight)
""")
case("binary_cross_entropy_weight_requiring_grad", """
    import torch.nn.functional as F
    p = torch.tensor([0.2, 0.7], requires_grad=True)
    F.binary_cross_entropy(p, torch.tensor([0., 1.]), weight=torch.ones(2, requires_grad=True))
""", "RuntimeError")
case("binary_cross_entropy_with_logits_pos_weight_requiring_grad", """
    import torch.nn.functional as F
    p = torch.tensor([0.2, 0.7], requires_grad=True)
    pos_weight = torch.ones(2, requires_grad=True)
    F.binary_cross_entropy_with_logits(p, torch.tensor([0., 1.]), pos_weight=pos_weight)
""", "RuntimeError")
case("sum_and_mean_with_dim_none_and_keepdim", """
    x = torch.ones(2, 3, requires_grad=True)
    for y in [x.sum(dim=None, keepdim=True), x.mean(dim=None, keepdim=True), x.sum((), keepdim=True)]:
        print(y.shape, y.grad_fn.name())
        y.sum().backward()
    print(x.grad)
""")
case("norm_p0_has_no_gradient", """
    x = torch.tensor([1., 0., 2.], requires_grad=True)
    print(torch.autograd.grad(x.norm(p=0), x, allow_unused=True))
    x.norm(p=0).backward()
    print(x.grad)
    print(torch.autograd.grad(x.norm(p=0) + x.sum(), x))
""")


# ---------------------------------------------- issue 27 item 4: which check comes first, and its words
_ERRORS = """
    def show(f):
        try:
            r = f()
            print("ok", tuple(r.shape) if hasattr(r, "shape") else r)
        except Exception as e:
            print(type(e).__name__, e)
"""
case("stack_and_cat_check_the_dim_before_the_shapes", _ERRORS + """
    a, b = torch.ones(2, 3), torch.ones(3, 3)
    for dim in (3, -4, 2, -1, 0):
        show(lambda: torch.stack([a, b], dim))
    show(lambda: torch.stack([a, torch.ones(2, 3, 1)], 5))
    show(lambda: torch.stack([a, b], "a"))
    show(lambda: torch.stack([], "a"))
    show(lambda: torch.stack([], 7))
    show(lambda: torch.stack([a, 3], 7))
    show(lambda: torch.cat([a, torch.ones(3, 2, 1)], 3))
    show(lambda: torch.cat([torch.zeros(0), a, torch.ones(2, 3, 4)], 9))
    show(lambda: torch.cat([a, torch.ones(2, 3, 4)], 1))
""")
case("dot_mm_and_linear_check_in_pytorchs_order", _ERRORS + """
    import torch.nn.functional as F
    f32, f64 = torch.float32, torch.float64
    show(lambda: torch.dot(torch.ones(3), torch.ones(4, dtype=f64)))
    show(lambda: torch.dot(torch.ones(3, 1), torch.ones(4, dtype=f64)))
    for x in (torch.ones(3), torch.ones(2, 3), torch.ones(2, 2, 3), torch.ones(2, 3, 2).transpose(1, 2)):
        for bias in (None, torch.ones(4), torch.ones(5, dtype=f64), torch.ones(1, 4), torch.ones(4, 1),
                     torch.ones(2, 4), torch.ones(1, 1, 4)):
            for w in (torch.ones(4, 3), torch.ones(4, 3, dtype=f64), torch.ones(4, 5)):
                show(lambda: F.linear(x, w, bias))
    x = torch.ones(2, 2, 3, requires_grad=True)
    for bias in (torch.ones(4), torch.ones(1, 4), torch.ones(2, 1, 4)):
        print(node(F.linear(x, torch.ones(4, 3), bias)))
""")
case("broadcast_errors_name_the_operands_as_pytorch_does", _ERRORS + """
    import torch.nn.functional as F
    x = torch.ones(2, 3)
    show(lambda: x.expand(3, 3, 4))
    show(lambda: x.expand(-1, 3, 4))
    show(lambda: x.expand(2, 1, 3))
    show(lambda: x.masked_fill(torch.ones(4) > 0, 1.0))
    show(lambda: x.masked_fill(torch.ones(2, 1, 3) > 0, 1.0))
    for shape in ((4,), (2, 2, 3), (3, 3), (2, 3, 1), (1, 3), (1, 1, 3)):
        show(lambda: torch.ones(2, 3).copy_(torch.ones(*shape)))
    show(lambda: torch.ones(1, 3).copy_(torch.ones(2, 3)))
    show(lambda: torch.clamp(x, torch.ones(4), torch.ones(5)))
    show(lambda: torch.clamp(x, torch.ones(3), torch.ones(5)))
    show(lambda: torch.clamp(x, max=torch.ones(2, 1, 3)))
    show(lambda: F.binary_cross_entropy(x * 0.5, torch.ones(3)))
    show(lambda: F.binary_cross_entropy(x * 0.5, torch.ones(3), reduction="x"))
    show(lambda: F.binary_cross_entropy_with_logits(x, torch.ones(3)))
""")
case("index_errors_name_pytorchs_dimension", _ERRORS + """
    x = torch.ones(2, 3)
    for index in [(0, 5), (None, 0, 5), (..., -4), (None, slice(None), -4), (True, 0, 5), (..., None, 7),
                  ([0, 1], 5), (5, [0, 1]), ([0, 5],), (slice(None), [0, 5]), ([0, 1], [0, 5]),
                  (None, [0, 1], [-7, 1]), ([[0, 1], [1, 9]], [[0], [9]]), ([[9, 1], [1, 0]], [[0], [1]])]:
        show(lambda: x[index])
    show(lambda: torch.ones(2, 3, 4)[:, None, 1, -9])
    show(lambda: torch.ones(2, 3, 4)[:, [0, 1], [[0], [5]]])
    show(lambda: torch.ones(2, 3, 4)[torch.ones(2, 3) > 0, [0, 7]])
    show(lambda: torch.ones(0, 3)[[0, 5]])
    show(lambda: torch.ones(2, 0)[[0, 9]])
    show(lambda: torch.ones(0, 3)[[]])
    for index in [(0, 9), (None, 0, 9), (slice(None), [0, 9]), ([0, 1], [0, 9])]:
        try:
            x[index] = 1.0
        except IndexError as e:
            print(e)
""")
case("indexing_tensors_that_do_not_broadcast", _ERRORS + """
    x = torch.ones(2, 3, 4)
    show(lambda: x[[0, 1, 1, 0], [0, 1]])
    show(lambda: x[torch.tensor([0, 1, 1, 0]), torch.tensor([0, 1])])
    show(lambda: x[[0, 1, 1, 0], :, [0, 1]])
    show(lambda: x[[0, 1, 1], [0, 1], [1]])
    show(lambda: x[[0, 9, 1, 0], [0, 1]])
    show(lambda: x[[0, 1], torch.ones(3, 4) > 0])
    show(lambda: x[torch.ones(2, 3) > 0, [0, 7, 1]])
    y = torch.ones(2, 3)
    for value in (1.0, torch.ones(3)):
        try:
            y[[0, 1, 1, 0], [0, 1]] = value
        except IndexError as e:
            print(e)
""")
case("indexing_a_0d_tensor", _ERRORS + """
    s = torch.tensor(3.0)
    for index in (0, 1, -1, torch.tensor(0), (0,), (None, 0), [0], True, False, None, Ellipsis):
        show(lambda: s[index])
    show(lambda: torch.ones(2)[0][0])
    show(lambda: torch.ones(2, 3)[0][0][0])
    for index in (0, 1, torch.tensor(0)):
        try:
            s[index] = 1.0
        except IndexError as e:
            print(e)
""")

case("retain_grad_of_a_no_grad_view_changed_in_place", _ERRORS + """
    a = torch.tensor([1., 2.], requires_grad=True)
    for make in (lambda: torch.tensor(2., requires_grad=True), lambda: (a * 2).sum(), lambda: (a * 2)[0],
                 lambda: a * 2):
        b = make()
        torch.set_grad_enabled(False)
        v = b[()]                      # a view made with grad mode off
        torch.set_grad_enabled(True)
        with torch.no_grad():
            v.fill_(3.0)
        v.retain_grad()                # a leaf by its grad_fn field: nothing to do, no view check
        print(v.retains_grad, v.requires_grad)
        show(lambda: v.grad_fn)        # reading grad_fn does check the view
        show(lambda: v.is_leaf)
""")

case("max_and_min_return_torch_return_types", _ERRORS + """
    import copy
    import pickle
    x = torch.tensor([[1., 5.], [4., 2.]])
    for r in (x.max(0), torch.max(x, 1, keepdim=True), x.min(1), torch.min(x, 0), torch.tensor(3.).max(0)):
        t = type(r)
        print(t, t.__name__, t.__qualname__, t.__module__, isinstance(r, tuple), t.n_fields)
        print(r)
        print(hasattr(r, "_fields"), hasattr(r, "_asdict"), r[0] is r.values, r[1] is r.indices)
        print(type(pickle.loads(pickle.dumps(r))), type(copy.copy(r)))
    for r in (x.sort(1), torch.sort(x, 0, descending=True), x.topk(1), torch.topk(x, 1, 0)):
        print(type(r), type(r).__module__, type(r).n_fields, hasattr(r, "_fields"))
        print(type(pickle.loads(pickle.dumps(r))))
        print(r)
    print(torch.return_types.max is type(x.max(0)), torch.return_types.min is type(x.min(0)),
          torch.return_types.sort is type(x.sort()), torch.return_types.topk is type(x.topk(1)))
    r = x.max(0)
    show(lambda: setattr(r, "values", 1))
    show(lambda: setattr(r, "other", 1))
    print(torch.return_types.max((x, x)), type(r).values)
    show(lambda: torch.return_types.max((x,)))
    show(lambda: torch.return_types.min(5))
""")

case("modified_saved_tensor_messages", """
    class Out(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            r = x.exp()
            ctx.save_for_backward(r)
            return r

        @staticmethod
        def backward(ctx, g):
            (r,) = ctx.saved_tensors
            return g * r

    programs = [
        "x = a * 2; y = x * b; x.add_(1); y.sum().backward()",             # an input, now AddBackward0's
        "x = a * 2; y = x * b; x.add_(1); x.mul_(3); y.sum().backward()",
        "y = a.exp(); y.add_(1); y.sum().backward()",                      # an output: its own node
        "y = a.max(); y.mul_(2); y.backward()",                            # MaxBackward1: Max1
        "y = a.min(); z = y * 1; y.add_(1); z.backward()",
        "y = a.norm(); z = y * 1; y.add_(1); z.backward()",
        "y = a * b\\nwith torch.no_grad():\\n    a.add_(1)\\ny.sum().backward()",   # a leaf: no node named
        "c = torch.ones(2, 3, dtype=torch.bool); y = a * c; c.fill_(False); y.sum().backward()",
        "c = torch.ones(2, 3, dtype=torch.int32); y = a * c; c.add_(1); y.sum().backward()",
        "c = torch.ones(2, 3, dtype=torch.uint8); y = a * c; c.add_(1); y.sum().backward()",
        "d = a.double(); y = d * d; d.add_(1); y.sum().backward()",
        "s = (a * 2).sum(); y = s * s; s.add_(1); y.backward()",
        "x = a * 2; v = x[0]; y = v * v; x.add_(1); y.sum().backward()",   # a view: AsStrided
        "x = a * 2; v = x.t()[0]; x.add_(1); y = v * v; x.mul_(2); y.sum().backward()",
        "x = a * 1; y = x * x; x[0] = 5.; y.sum().backward()",             # CopySlices
        "x = a * 2; d = x.detach(); y = d * b; x.add_(1); y.sum().backward()",
        "y = Out.apply(a); y.add_(1); y.sum().backward()",                 # a custom Function: Out
        "x = (a * 1).t(); y = x * x; x.add_(1); y.sum().backward()",
        "x = 2 - a; z = x * x; x.mul_(2); z.sum().backward()",
    ]
    for program in programs:
        a = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)
        b = torch.tensor([[1., 0., 1.], [2., 1., 0.]], requires_grad=True)
        try:
            exec(program)
        except RuntimeError as e:
            print(e)
""")

case("small_integer_tensors_and_python_numbers", """
    for dtype in (torch.uint8, torch.int8, torch.int16, torch.bool):
        c = torch.ones(3, dtype=dtype)
        print(c + 1, c * 300, c * 2.5, torch.add(c, c, alpha=3) if dtype != torch.bool else None)
        if dtype != torch.bool:
            print(c - 2, c.add_(1), c.mul_(200))
""")

case("binary_cross_entropy_weights_checked_in_pytorchs_order", _ERRORS + """
    import torch.nn.functional as F
    x = torch.ones(2, 3) * 0.5
    p = torch.ones(2, 3, requires_grad=True) * 0.5
    for w in (torch.ones(4), torch.ones(3, 3), torch.ones(2, 2, 3), torch.ones(4, 3), torch.ones(2, 1),
              torch.ones(5, 1, 1), torch.ones(3, requires_grad=True), torch.ones(4, requires_grad=True)):
        show(lambda: F.binary_cross_entropy(x, x, weight=w))
        show(lambda: F.binary_cross_entropy(x * 2, x, weight=w))
    print(F.binary_cross_entropy(p, x, weight=torch.ones(3)).grad_fn._saved_weight)
    for kw in (dict(weight=torch.ones(2, 2, 3)), dict(pos_weight=torch.ones(2, 2, 3)),
               dict(pos_weight=torch.ones(4), weight=torch.ones(5)),
               dict(weight=torch.ones(4), pos_weight=torch.ones(3)),
               dict(weight=torch.ones(4, requires_grad=True), pos_weight=torch.ones(5, requires_grad=True)),
               dict(pos_weight=torch.ones(5, requires_grad=True), weight=torch.ones(3))):
        show(lambda: F.binary_cross_entropy_with_logits(x, x, **kw))
""")

# Issue 35 (found while holding the build track's Functions and gradcheck to PyTorch): what a custom
# Function's apply gives back when it records no node, and gradcheck with no differentiable output.
case("custom_function_outputs_without_a_node", """
    class Same(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a
        @staticmethod
        def backward(ctx, g):
            return g
    class Two(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a * 2, torch.ones(2, requires_grad=True)
        @staticmethod
        def backward(ctx, g, h):
            return g * 2
    a = torch.tensor([1., 2.])
    out = Same.apply(a)
    print(out is a, out.requires_grad, out.is_leaf)
    b = torch.tensor([1., 2.], requires_grad=True)
    with torch.no_grad():
        out = Same.apply(b)
    print(out is b, out.requires_grad, out.is_leaf, b.requires_grad)
    both = Two.apply(a)
    print(type(both).__name__, [t.requires_grad for t in both])
""")

case("gradcheck_without_a_differentiable_output", """
    a = torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True)
    print(torch.autograd.gradcheck(lambda x: x.detach() * 0 + 1, (a,)))
    print(torch.autograd.gradcheck(lambda x: x.detach() * 2, (a,), raise_exception=False))
    torch.autograd.gradcheck(lambda x: x.detach() * 2, (a,))
""", error="GradcheckError")


@pytest.mark.parametrize("code, error, message", CASES)
def test_same_as_torch(code, error, message):
    assert_same(code, error=error, message=message)


def test_case_ids_unique():
    ids = [c.id for c in CASES]
    assert len(ids) == len(set(ids))


# =============================================================================== the node-name sweep
def _values(shape, seed, low=-2.0, high=2.0):
    """Random values kept away from 0 (the kinks of abs, relu, clamp bounds)."""
    values = np.random.default_rng(seed).uniform(low, high, size=shape)
    return np.where(np.abs(values) < 0.2, values + np.sign(values + 1e-9) * 0.3, values)


def _positive(shape, seed):
    return np.random.default_rng(seed).uniform(0.3, 2.0, size=shape)


def _probabilities(shape, seed):
    return np.random.default_rng(seed).uniform(0.1, 0.9, size=shape)


def _F(T):
    return T.nn.functional


def _through_view_inplace(T, x, y):
    z = x * 1
    z[1:].mul_(y)
    z.t()[0].sigmoid_()
    return z


def _view_after_base_change(T, x):
    z = x * 1
    view = z[1:]
    z.add_(x * x)
    return view * view


def _inplace_through_transposed_views(T, x, y):
    z = (x * 1).t().clone()          # a base laid out column by column
    z.t()[1].mul_(y)
    z[:, 0].add_(y[:2])
    return z


def _view_of_view_inplace(T, x, y):
    z = x * 1
    z[1:][0].mul_(y)
    return z.exp()


def _transposed_view_after_base_change(T, x):
    z = x * 1
    view = z.t()[0]
    z.mul_(x)
    return view * 2


def _setitem_mask(T, x):
    z = x * 1
    z[z > 0] = 0.5
    return z * x


def _setitem(T, x, y):
    z = x * 2
    z[0] = y[0]
    z[[1, 2], 0] = y[1:2]
    return z * z


# (id, f(T, *inputs) with T the library, the inputs' values): every differentiable op of
# tests/test_vs_torch.py and tests/test_second_order.py, and their variants (scalars, dims, reductions)
OPS = [
    ("add", lambda T, x, y: x + y, [_values((2, 3), 1), _values((3,), 2)]),
    ("sub", lambda T, x, y: x - y, [_values((2, 3), 1), _values((3,), 2)]),
    ("rsub", lambda T, x: 2 - x, [_values((3,), 1)]),
    ("mul", lambda T, x, y: x * y, [_values((2, 3), 1), _values((3,), 2)]),
    ("mul_scalar", lambda T, x: x * 3, [_values((3,), 1)]),
    ("div", lambda T, x, y: x / y, [_values((2, 3), 1), _values((3,), 2)]),
    ("div_scalar", lambda T, x: x / 3, [_values((3,), 1)]),
    ("rdiv", lambda T, x: 2 / x, [_values((3,), 1)]),
    ("neg", lambda T, x: -x, [_values((3,), 1)]),
    ("abs", lambda T, x: x.abs(), [_values((3,), 1)]),
    ("exp", lambda T, x: x.exp(), [_values((3,), 1)]),
    ("log", lambda T, x: x.log(), [_positive((3,), 1)]),
    ("sqrt", lambda T, x: x.sqrt(), [_positive((3,), 1)]),
    ("sin", lambda T, x: x.sin(), [_values((3,), 1)]),
    ("cos", lambda T, x: x.cos(), [_values((3,), 1)]),
    ("tanh", lambda T, x: x.tanh(), [_values((3,), 1)]),
    ("sigmoid", lambda T, x: x.sigmoid(), [_values((3,), 1)]),
    ("relu", lambda T, x: x.relu(), [_values((3,), 1)]),
    ("reciprocal", lambda T, x: x.reciprocal(), [_positive((3,), 1)]),
    ("pow_scalar", lambda T, x: x ** 3, [_values((3,), 1)]),
    ("pow_half", lambda T, x: x ** 0.5, [_positive((3,), 1)]),
    ("pow_zero", lambda T, x: x ** 0 + x, [_values((3,), 1)]),
    ("pow_tensor", lambda T, x, y: x ** y, [_positive((3,), 1), _values((3,), 2)]),
    ("rpow", lambda T, x: 2 ** x, [_values((3,), 1)]),
    ("clamp", lambda T, x: x.clamp(-0.5, 1.0), [_values((2, 3), 18)]),
    ("clamp_min", lambda T, x: x.clamp(min=-0.5), [_values((2, 3), 18)]),
    ("clamp_tensor", lambda T, x, lo: x.clamp(min=lo), [_values((2, 3), 19), _values((3,), 20)]),
    ("clamp_tensor_both", lambda T, x, lo, hi: x.clamp(lo, hi),
     [_values((2, 3), 19), _values((3,), 20) - 1, _values((3,), 21) + 1]),
    ("maximum", lambda T, x, y: T.maximum(x, y), [_values((2, 3), 12), _values((3,), 13)]),
    ("minimum", lambda T, x, y: T.minimum(x, y), [_values((2, 3), 14), _values((2, 3), 15)]),
    ("where", lambda T, x, y: T.where(x > 0, x, y), [_values((2, 3), 16), _values((3,), 17)]),
    ("sum", lambda T, x: x.sum(), [_values((2, 3), 1)]),
    ("sum_dim", lambda T, x: x.sum(1), [_values((2, 3), 1)]),
    ("sum_keepdim", lambda T, x: x.sum(0, keepdim=True), [_values((2, 3), 1)]),
    ("mean", lambda T, x: x.mean(), [_values((2, 3), 1)]),
    ("mean_dim", lambda T, x: x.mean(1), [_values((2, 3), 1)]),
    ("max", lambda T, x: x.max(), [_values((2, 3), 7)]),
    ("max_0d", lambda T, x: x.max(), [np.array(1.5)]),
    ("min", lambda T, x: x.min(), [_values((2, 3), 7)]),
    ("max_dim", lambda T, x: x.max(0, keepdim=True).values, [_values((2, 3), 9)]),
    ("min_dim", lambda T, x: x.min(1)[0], [_values((2, 3), 8)]),
    ("max_dim_0d", lambda T, x: x.max(0)[0], [np.array(1.5)]),
    ("amax", lambda T, x: x.amax(1), [_values((2, 3), 10)]),
    ("amin", lambda T, x: x.amin((0, 1)), [_values((2, 3), 11)]),
    ("norm", lambda T, x: x.norm(), [_values((2, 3), 3)]),
    ("norm_dim", lambda T, x: x.norm(dim=1, keepdim=True), [_values((2, 3), 4)]),
    ("norm_p1", lambda T, x: x.norm(p=1), [_values((4,), 5)]),
    ("norm_p3", lambda T, x: x.norm(p=3, dim=0), [_values((2, 3), 6)]),
    ("norm_p1_5", lambda T, x: x.norm(p=1.5), [_values((2, 3), 6)]),
    ("norm_p0_5", lambda T, x: x.norm(p=0.5, dim=1), [_values((2, 3), 6)]),
    ("norm_inf", lambda T, x: x.norm(p=float("inf")), [_values((2, 3), 6)]),
    ("mm", lambda T, a, b: a @ b, [_values((2, 3), 30), _values((3, 2), 31)]),
    ("mm_t", lambda T, a, b: a @ b.t(), [_values((2, 3), 30), _values((2, 3), 31)]),
    ("mv", lambda T, a, b: a @ b, [_values((2, 3), 30), _values((3,), 31)]),
    ("vm", lambda T, a, b: a @ b, [_values((3,), 30), _values((3, 2), 31)]),
    ("dot", lambda T, a, b: a @ b, [_values((3,), 30), _values((3,), 31)]),
    ("bmm", lambda T, a, b: T.bmm(a, b), [_values((2, 2, 3), 30), _values((2, 3, 2), 31)]),
    ("matmul_batched", lambda T, a, b: a @ b, [_values((2, 1, 2, 3), 32), _values((3, 3, 2), 33)]),
    ("matmul_folded", lambda T, a, b: a @ b, [_values((2, 2, 3), 34), _values((3, 2), 35)]),
    ("matmul_vector", lambda T, a, b: a @ b, [_values((3,), 36), _values((2, 3, 2), 37)]),
    ("linear", lambda T, x, w, b: _F(T).linear(x, w, b), [_values((2, 3), 38), _values((4, 3), 39),
                                                          _values((4,), 40)]),
    ("linear_1d", lambda T, x, w: _F(T).linear(x, w), [_values((3,), 38), _values((4, 3), 39)]),
    ("linear_3d", lambda T, x, w, b: _F(T).linear(x, w, b), [_values((2, 2, 3), 38), _values((4, 3), 39),
                                                             _values((4,), 40)]),
    ("view", lambda T, x: x.view(3, 2), [_values((2, 3), 1)]),
    ("reshape_copy", lambda T, x: x.t().reshape(6), [_values((2, 3), 1)]),
    ("transpose", lambda T, x: x.transpose(0, 1), [_values((2, 3), 1)]),
    ("t", lambda T, x: x.t(), [_values((2, 3), 1)]),
    ("T", lambda T, x: x.T, [_values((2, 3), 1)]),
    ("permute", lambda T, x: x.permute(2, 0, 1), [_values((2, 3, 2), 1)]),
    ("unsqueeze", lambda T, x: x.unsqueeze(1), [_values((2, 3), 1)]),
    ("squeeze", lambda T, x: x.squeeze(), [_values((2, 1, 3), 1)]),
    ("squeeze_dim", lambda T, x: x.squeeze(1), [_values((2, 1, 3), 1)]),
    ("expand", lambda T, x: x.expand(2, 3), [_values((3,), 1)]),
    ("flatten", lambda T, x: x.t().flatten(), [_values((2, 3), 29)]),
    ("clone", lambda T, x: x.clone(), [_values((2, 3), 1)]),
    ("to_float32", lambda T, x: x.float(), [_values((2, 3), 1)]),
    ("select", lambda T, x: x[1], [_values((2, 3), 1)]),
    ("slice", lambda T, x: x[:, 1:], [_values((2, 3), 1)]),
    ("select_slice", lambda T, x: x[1, ::2] + x[0, 0], [_values((2, 3), 64)]),
    ("index", lambda T, x: x[[0, 0, 1], 1:], [_values((2, 3), 62)]),
    ("mask", lambda T, x: x[x > 0], [_values((2, 3), 63)]),
    ("cat", lambda T, x, y: T.cat([x, y], 0), [_values((2, 3), 65), _values((1, 3), 66)]),
    ("cat_one", lambda T, x: T.cat([x], 1), [_values((2, 3), 65)]),
    ("stack", lambda T, x, y: T.stack([x, y], 1), [_values((2, 3), 65), _values((2, 3), 66)]),
    ("softmax", lambda T, x: _F(T).softmax(x, 1), [_values((2, 3), 44)]),
    ("log_softmax", lambda T, x: _F(T).log_softmax(x, 0), [_values((2, 3), 45)]),
    ("softmax_0d", lambda T, x: _F(T).softmax(x, 0), [np.array(0.7)]),
    ("log_softmax_0d", lambda T, x: _F(T).log_softmax(x, -1), [np.array(0.7)]),
    ("cross_entropy", lambda T, x: _F(T).cross_entropy(x, T.tensor([0, 2])), [_values((2, 3), 46)]),
    ("nll", lambda T, x: _F(T).nll_loss(x, T.tensor([1, 0])), [_values((2, 3), 47)]),
    ("nll_sum", lambda T, x: _F(T).nll_loss(x, T.tensor([1, 0]), reduction="sum"), [_values((2, 3), 47)]),
    ("nll_none", lambda T, x: _F(T).nll_loss(x, T.tensor([1, 0]), reduction="none"), [_values((2, 3), 47)]),
    ("nll_1d", lambda T, x: _F(T).nll_loss(x, T.tensor(1)), [_values((3,), 47)]),
    ("nll_ignored", lambda T, x: _F(T).nll_loss(x, T.tensor([1, -100])), [_values((2, 3), 47)]),
    ("mse", lambda T, x, y: _F(T).mse_loss(x, y), [_values((2, 3), 48), _values((2, 3), 49)]),
    ("mse_sum", lambda T, x, y: _F(T).mse_loss(x, y, reduction="sum"), [_values((2, 3), 48),
                                                                        _values((2, 3), 49)]),
    ("mse_none", lambda T, x, y: _F(T).mse_loss(x, y, reduction="none"), [_values((2, 3), 48),
                                                                          _values((2, 3), 49)]),
    ("mse_broadcast", lambda T, x, y: _F(T).mse_loss(x, y), [_values((2, 3), 50), _values((3,), 51)]),
    ("l1", lambda T, x, y: _F(T).l1_loss(x, y), [_values((3,), 52), _values((3,), 53) + 5]),
    ("bce", lambda T, p, t: _F(T).binary_cross_entropy(p, t), [_probabilities((3,), 54),
                                                               _probabilities((3,), 55)]),
    ("bce_none", lambda T, p, t: _F(T).binary_cross_entropy(p, t, reduction="none"),
     [_probabilities((2, 2), 56), _probabilities((2, 2), 57)]),
    ("bce_weight", lambda T, p, t: _F(T).binary_cross_entropy(p, t, T.tensor([1., 2., 3.], dtype=T.float64)),
     [_probabilities((3,), 54), _probabilities((3,), 55)]),
    ("bce_logits", lambda T, x, t: _F(T).binary_cross_entropy_with_logits(x, t), [_values((3,), 58),
                                                                                  _probabilities((3,), 59)]),
    ("bce_logits_weights", lambda T, x, t: _F(T).binary_cross_entropy_with_logits(
        x, t, weight=T.tensor([1., 2., 3.], dtype=T.float64),
        pos_weight=T.tensor([2., 0.5, 1.], dtype=T.float64), reduction="sum"),
     [_values((3,), 60), _probabilities((3,), 61)]),
    ("smooth_l1", lambda T, x, y: _F(T).smooth_l1_loss(x, y), [_values((2, 3), 85), _values((2, 3), 86) / 2]),
    ("smooth_l1_none", lambda T, x, y: _F(T).smooth_l1_loss(x, y, reduction="none", beta=0.5),
     [_values((2, 3), 85), _values((2, 3), 86) / 2]),
    ("huber", lambda T, x, y: _F(T).huber_loss(x, y), [_values((2, 3), 85), _values((2, 3), 86) / 2]),
    ("huber_none", lambda T, x, y: _F(T).huber_loss(x, y, reduction="none", delta=0.5),
     [_values((2, 3), 85), _values((2, 3), 86) / 2]),
    ("leaky_relu", lambda T, x: _F(T).leaky_relu(x, 0.1), [_values((2, 3), 87)]),
    ("leaky_relu_inplace", lambda T, x: _F(T).leaky_relu(x * 1, 0.1, inplace=True), [_values((2, 3), 87)]),
    ("sign", lambda T, x: T.sign(x) * x, [_values((2, 3), 88)]),
    ("rpow_0", lambda T, x: 0 ** x, [_values((3,), 89)]),
    ("embedding", lambda T, w: _F(T).embedding(T.tensor([0, 2, 2]), w), [_values((4, 3), 90)]),
    ("embedding_padding", lambda T, w: _F(T).embedding(T.tensor([[0, 2], [2, 3]]), w, padding_idx=2),
     [_values((4, 3), 90)]),
    ("batch_norm", lambda T, x, w, b: _F(T).batch_norm(x, T.zeros(3, dtype=T.float64),
                                                       T.ones(3, dtype=T.float64), w, b, training=True),
     [_values((4, 3), 91), _values((3,), 92), _values((3,), 93)]),
    ("batch_norm_4d", lambda T, x, w, b: _F(T).batch_norm(x, None, None, w, b, training=True),
     [_values((2, 2, 2, 2), 94), _values((2,), 95), _values((2,), 96)]),
    ("batch_norm_eval", lambda T, x, w, b: _F(T).batch_norm(x, T.zeros(2, dtype=T.float64),
                                                            T.ones(2, dtype=T.float64) * 2, w, b),
     [_values((3, 2, 2), 97), _values((2,), 98), _values((2,), 99)]),
    ("batch_norm_no_affine", lambda T, x: _F(T).batch_norm(x, None, None, training=True),
     [_values((4, 3), 91)]),
    ("inplace_through_views", _through_view_inplace, [_values((3, 3), 67), _values((2, 3), 68)]),
    ("view_after_base_change", _view_after_base_change, [_values((3, 2), 69)]),
    ("setitem", _setitem, [_values((3, 2), 70), _values((3,), 71)]),
    ("setitem_mask", _setitem_mask, [_values((2, 3), 70)]),
    ("inplace_through_transposed_views", _inplace_through_transposed_views,
     [_values((3, 2), 80), _values((3,), 81)]),
    ("view_of_view_inplace", _view_of_view_inplace, [_values((3, 2), 82), _values((2,), 83)]),
    ("transposed_view_after_base_change", _transposed_view_after_base_change, [_values((2, 3), 84)]),
    ("inplace_chain", lambda T, x: (x * 2).add_(x).mul_(x).clamp_(max=5).exp_(), [_positive((3,), 72)]),
    ("inplace_unary", lambda T, x: (x * 1).tanh_().sigmoid_().relu_(), [_values((3,), 73)]),
    ("inplace_div_sub", lambda T, x, y: (x * 1).div_(y).sub_(y), [_values((3,), 74), _values((3,), 75)]),
    ("inplace_pow", lambda T, x: (x * 1).pow_(3), [_values((3,), 74)]),
    ("fill_tensor", lambda T, x, v: (x * 1).fill_(v), [_values((3,), 76), np.array(0.5)]),
    ("copy_", lambda T, x, y: (x * 1).copy_(y), [_values((2, 3), 77), _values((3,), 78)]),
    ("zero_", lambda T, x: (x * 1).zero_() + x, [_values((3,), 79)]),
]

def _leaves(T, arrays):
    return [T.tensor(a.tolist(), dtype=T.float64, requires_grad=True) for a in arrays]


def _walk(node, depth, lines, names):
    """The graph under ``node``, depth first, one node a line: its name, or the leaf it writes."""
    if node is None:
        lines.append("  " * depth + "None")
        return
    line = "  " * depth + node.name()
    if hasattr(node, "variable"):
        line += " " + names.get(id(node.variable), "?")
    lines.append(line)
    for child, _ in node.next_functions:
        _walk(child, depth + 1, lines, names)


def _describe(gradients, names):
    lines = []
    for i, g in enumerate(gradients):
        lines.append(f"[{i}] " + ("None" if g is None else f"requires_grad={g.requires_grad}"))
        if g is not None:
            _walk(g.grad_fn, 1, lines, names)
    return lines


def gradient_graphs(T, fn, arrays, upstream):
    """The graphs of the gradients of ``fn``'s output (made with create_graph=True), then of the
    gradients of the sum of their squares. ``upstream``: "sum" backpropagates from ``out.sum()``,
    "leaf" from ``out`` with a gradient that is itself a leaf requiring grad (so its path shows)."""
    inputs = _leaves(T, arrays)
    names = {id(t): f"input{i}" for i, t in enumerate(inputs)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")      # mse_loss's broadcast warning
        out = fn(T, *inputs)
        if upstream == "sum":
            root, grad_output = out.sum(), None
        else:
            values = np.random.default_rng(5).uniform(0.5, 1.5, size=tuple(out.shape))
            grad_output = T.tensor(values.tolist(), dtype=out.dtype, requires_grad=True)
            names[id(grad_output)] = "grad_output"
            root = out
        first = T.autograd.grad(root, inputs, grad_output, create_graph=True, allow_unused=True)
        lines = ["first:"] + _describe(first, names)
        squares = [(g * g).sum() for g in first if g is not None and g.requires_grad]
        if squares:
            wrt = inputs + ([grad_output] if grad_output is not None else [])
            second = T.autograd.grad(sum(squares), wrt, create_graph=True, allow_unused=True)
            lines += ["second:"] + _describe(second, names)
    return lines


def _sweep_params():
    for op_id, fn, arrays in OPS:
        for upstream in ("sum", "leaf"):
            yield pytest.param(fn, arrays, upstream, id=f"{op_id}-{upstream}")


def _outcome(T, fn, arrays, upstream):
    """The graphs, or the error that stopped them (compared the same way)."""
    try:
        return gradient_graphs(T, fn, arrays, upstream)
    except RuntimeError as error:
        return [f"RuntimeError: {error}"]


@pytest.mark.parametrize("fn, arrays, upstream", list(_sweep_params()))
def test_create_graph_gradient_graph_like_torch(fn, arrays, upstream):
    expected = _outcome(torch, fn, arrays, upstream)
    got = _outcome(mini_autograd, fn, arrays, upstream)
    if got != expected:
        import difflib
        diff = "\n".join(difflib.unified_diff(expected, got, "torch", "mini_autograd", lineterm="", n=3))
        raise AssertionError("the gradient graphs differ from PyTorch's:\n" + diff)


def test_sweep_ids_unique():
    ids = [op[0] for op in OPS]
    assert len(ids) == len(set(ids))
