"""Views, in-place changes and indexing, against PyTorch.

The cases here come from issue 12: a view left on the old graph after an in-place
change of its base (a silently wrong gradient), in-place ops refused because a
saved input shared memory with the changed tensor, writes through views
(``CopySlices``), ``x[i] = v``, and the graph shapes PyTorch records for
indexing. Each case runs under PyTorch and under mini_autograd
(``crosscheck.assert_same``): printed output, warnings and errors must agree.
"""
import textwrap

import pytest

try:
    from crosscheck import assert_same, full, run_snippet, until
except ImportError:  # tests/ made a package
    from tests.crosscheck import assert_same, full, run_snippet, until

CASES = []
BEFORE_HINT = until(" Hint:")


def case(id, code, error=None, message=full):
    CASES.append(pytest.param(textwrap.dedent(code), error, message, id=id))

# ------------------------------------------------------------------ views of a changed base
case("view_sees_inplace_change_of_base", """
    a = torch.tensor([1., 2.], requires_grad=True)
    x = a * 1
    v = x[0:1]
    print(node(v))
    x.mul_(3)
    print(node(v), v)
    v.sum().backward()
    print(a.grad)
""")
case("select_view_after_base_change", """
    a = torch.tensor([1., 2., 3.], requires_grad=True)
    x = a * 2
    v = x[1]
    t = x.view(3, 1)
    x.add_(torch.tensor([1., 1., 1.]))
    print(node(v), node(t), v._version, x._version)
    (v * t.sum()).backward()
    print(a.grad)
""")
case("view_of_view_after_base_change", """
    a = torch.arange(6., requires_grad=True)
    x = a.reshape(2, 3) * 1
    v = x.t()[1:]
    x.mul_(2)
    print(node(v))
    v.pow(2).sum().backward()
    print(a.grad)
""")
case("view_after_base_change_under_no_grad", """
    a = torch.tensor([1., 2.], requires_grad=True)
    x = a * 1
    v = x[0:1]
    with torch.no_grad():
        x.mul_(3)
    print(node(v), v)
    v.sum().backward()
    print(a.grad)
""")
case("view_retain_grad_after_base_change", """
    a = torch.tensor([1., 2., 3.], requires_grad=True)
    x = a * 1
    v = x[1:]
    v.retain_grad()
    x.mul_(2)
    (v * v).sum().backward()
    print(v.grad, a.grad)
""")

# ------------------------------------------------------------------ in-place that saves its input
case("mul_by_tensor_requiring_grad", """
    a = torch.tensor([1., 2.], requires_grad=True)
    b = torch.tensor([3., 4.], requires_grad=True)
    x = a * 1
    x.mul_(b)
    print(x.grad_fn.name())
    x.sum().backward()
    print(a.grad, b.grad)
""")
case("div_by_tensor_requiring_grad", """
    a = torch.tensor([1., 2.], requires_grad=True)
    b = torch.tensor([3., 4.], requires_grad=True)
    x = a * 1
    x /= b
    x.sum().backward()
    print(a.grad, b.grad)
""")
case("mul_by_itself_still_caught", """
    a = torch.tensor([1., 2.], requires_grad=True)
    x = a * 1
    x.mul_(x)
    x.sum().backward()
""", "RuntimeError", BEFORE_HINT)
case("inplace_on_saved_output_still_caught", """
    a = torch.tensor([1., 2.], requires_grad=True)
    y = a.exp()
    y.mul_(2)
    y.sum().backward()
""", "RuntimeError", BEFORE_HINT)
case("inplace_on_saved_input_still_caught", """
    a = torch.tensor([1., 2.], requires_grad=True)
    w = torch.tensor([3., 4.], requires_grad=True)
    x = a * 1
    y = x * w
    x.add_(1)
    y.sum().backward()
""", "RuntimeError", BEFORE_HINT)

# ------------------------------------------------------------------ writing through views
case("inplace_through_slice_view", """
    a = torch.tensor([1., 2., 3.], requires_grad=True)
    x = a * 1
    v = x[1:]
    v.mul_(2)
    print(node(x), node(v))
    x.sum().backward()
    print(a.grad)
""")
case("inplace_through_view_with_other_requiring_grad", """
    a = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
    b = torch.tensor([10., 20.], requires_grad=True)
    x = a * 1
    x[0].add_(b)
    x.t()[1].mul_(b)
    print(node(x))
    (x * x).sum().backward()
    print(a.grad, b.grad)
""")
case("inplace_view_of_view", """
    a = torch.tensor([1., 2., 3.], requires_grad=True)
    b = torch.tensor([2.], requires_grad=True)
    x = a * 1
    v = x[1:]
    w = v[0:1]
    w.mul_(b)
    print(node(x), node(v), node(w))
    (x * torch.tensor([1., 2., 3.])).sum().backward()
    print(a.grad, b.grad)
""")
case("inplace_on_view_of_leaf_refused", """
    a = torch.tensor([1., 2., 3.], requires_grad=True)
    a[1:].mul_(2)
""", "RuntimeError")
case("inplace_on_view_made_under_no_grad_refused", """
    a = torch.tensor([1., 2., 3.], requires_grad=True)
    x = a * 1
    with torch.no_grad():
        v = x[1:]
    print(v.requires_grad, v.grad_fn, v.is_leaf)
    v.mul_(2)
""", "RuntimeError")
case("view_made_under_no_grad_requires_grad", """
    a = torch.ones(3, requires_grad=True)
    with torch.no_grad():
        v = a[0:2]
        d = a.detach()
    print(v.requires_grad, v.grad_fn, v.is_leaf, d.requires_grad)
    s = (v * 2).sum()
    print([n for n, _ in s.grad_fn.next_functions])
""")
case("inplace_through_view_under_no_grad", """
    a = torch.tensor([1., 2., 3.], requires_grad=True)
    x = a * 1
    with torch.no_grad():
        x[1:].mul_(2)
    print(x)
    x.sum().backward()
    print(a.grad)
""")
case("write_into_expanded_rejected", """
    t = torch.ones(1, 3)
    e = t.expand(2, 3)
    e.add_(1)
""", "RuntimeError")
case("write_row_of_expanded", """
    t = torch.ones(1, 3)
    e = t.expand(2, 3)
    e[0] = 5.
    print(t, e)
    e.zero_()
    print(t)
""")
case("copy_into_expanded_rejected", """
    t = torch.ones(1, 3)
    t.expand(2, 3).copy_(torch.zeros(2, 3))
""", "RuntimeError")

case("inplace_on_view_that_saves_its_input", """
    t0 = torch.tensor([[[-1.82, -0.1, -1.37]], [[-1.71, 0.74, 1.0]]], dtype=torch.float64, requires_grad=True)
    t3 = (t0 / 2).reshape(-1)
    t3.clamp_(min=-0.2)
    (t3 * torch.linspace(-1, 2, 6, dtype=torch.float64)).sum().backward()
    print(t0.grad)
    a = torch.tensor([1., -2., 3.], requires_grad=True)
    b = torch.tensor([2., 2., 2.], requires_grad=True)
    x = a * 1
    x[1:].mul_(b[1:])
    x.abs().sum().backward()
    print(a.grad, b.grad)
""")
case("inplace_on_view_that_saves_its_output_then_double_backward", """
    t0 = torch.tensor([[-0.48, 0.9, -0.71]], dtype=torch.float64, requires_grad=True)
    t2 = (t0 + 1).max(1)[0]
    t2.t().sigmoid_()
    t4 = torch.nn.functional.softmax(t2 * torch.tensor([1., 2.], dtype=torch.float64).sum(), 0)
    grads = torch.autograd.grad((t4 * 3).sum() + t2.sum() ** 2, [t0], create_graph=True)
    print(grads)
    sum((g * g).sum() for g in grads).backward()
    print(t0.grad)
""")
case("zero_through_expanded_view_then_backward_refused", """
    x = torch.tensor([1.], requires_grad=True)
    t1 = x * 2
    t2 = t1.expand(2, 1)
    t2.zero_()
    print(t1, t2)
    t1.sum().backward()
""", "RuntimeError")
case("expanded_view_after_base_change", """
    x = torch.tensor([1.], requires_grad=True)
    t1 = x * 2
    t2 = t1.expand(2, 1)
    t1.mul_(2)
    t2.sum().backward()
    print(x.grad)
""")
case("saved_tensor_detached_in_place_refused", """
    a = torch.tensor([1., 2.], requires_grad=True)
    x = a * 2
    y = x.clamp(max=3.)
    x.detach_()
    y.sum().backward()
""", "RuntimeError")

case("partial_overlap_of_input_and_output_refused", """
    x = torch.arange(4.)
    x.add_(x)
    x[:2].copy_(x[2:])
    x[::2].mul_(x[::2])
    print(x)
    x[1:].add_(x[:-1])
""", "RuntimeError")
case("partial_overlap_copy_refused", """
    x = torch.arange(4.)
    x[:2].copy_(x[1:3])
""", "RuntimeError")

case("copy_onto_itself_and_index_put_overlap", """
    t1 = torch.tensor(0.93)
    t3 = t1.expand(2).t()
    t3.copy_(t3.detach())
    print(t3)
    x = torch.tensor([1., 2., 3.])
    x[torch.tensor([0, 1])] = x[:2]
""", "RuntimeError")
case("inplace_promotion_keeps_the_tensors_dtype_for_gradients", """
    t0 = torch.tensor([-1.53], dtype=torch.float64, requires_grad=True)
    t1 = torch.tensor([[-1.81, -0.08, 0.62], [0.39, -1.79, -1.01]])
    t1.mul_(t0)
    t1.retain_grad()
    (t1 * torch.linspace(-1, 2, 6).reshape(2, 3)).sum().backward()
    print(t1.grad, t0.grad)
""")

# ------------------------------------------------------------------ x[index] = value
case("setitem_variants", """
    a = torch.tensor([1., 2., 3.], requires_grad=True)
    b = torch.tensor(5., requires_grad=True)
    for label, f in [
            ("x[:]=b", lambda x: x.__setitem__(slice(None), b)),
            ("x[...]=b", lambda x: x.__setitem__(Ellipsis, b)),
            ("x[1]=b", lambda x: x.__setitem__(1, b)),
            ("x[1]=5", lambda x: x.__setitem__(1, 5.)),
            ("x[[0,2]]=b", lambda x: x.__setitem__([0, 2], b)),
            ("x[x>1]=0", lambda x: x.__setitem__(x > 1, 0.)),
            ("x.fill_(2)", lambda x: x.fill_(2)),
            ("x.zero_()", lambda x: x.zero_()),
            ("x.copy_(b)", lambda x: x.copy_(b)),
            ("x.copy_(double)", lambda x: x.copy_(torch.ones(3, dtype=torch.double))),
            ("x[1:].zero_()", lambda x: x[1:].zero_()),
            ("x[1:].fill_(b)", lambda x: x[1:].fill_(b)),
            ("x[0:2].add_(b)", lambda x: x[0:2].add_(b))]:
        x = a * 1
        f(x)
        print(label, node(x), x)
        (x * x).sum().backward()
        print("   ", a.grad, b.grad)
        a.grad = None
        b.grad = None
""")
case("setitem_value_with_leading_ones_is_viewed", """
    v = torch.arange(6.).reshape(2, 3).requires_grad_().t()[None]   # (1, 3, 2), not contiguous
    y = torch.zeros(4, 3, 2)
    y[[0, 2]] = v                       # the leading 1 is dropped with a view: ViewBackward0
    print(node(y), y.grad_fn.next_functions[1][0].name())
    z = torch.zeros(4, 3, 2)
    z[1:3] = v                          # the same, before the value is expanded to the target
    print(node(z), z.grad_fn.next_functions[1][0].next_functions[0][0].name())
""")
case("setitem_on_plain_tensor_with_grad_value", """
    b = torch.tensor(5., requires_grad=True)
    z = torch.zeros(3)
    z[1] = b
    print(node(z), z)
    z2 = torch.zeros(2, 3)
    z2[0, [1]] = b
    z2[1, 1:] = torch.tensor([[7., 8.]])
    print(node(z2), z2)
    (z.sum() + (z2 * z2).sum()).backward()
    print(b.grad)
""")
case("setitem_in_custom_backward", """
    class MyReLU(torch.autograd.Function):
        @staticmethod
        def forward(ctx, input):
            ctx.save_for_backward(input)
            return input.clamp(min=0)

        @staticmethod
        def backward(ctx, grad_output):
            input, = ctx.saved_tensors
            grad_input = grad_output.clone()
            grad_input[input < 0] = 0
            return grad_input

    x = torch.tensor([-1., 2., -3., 4.], requires_grad=True)
    y = MyReLU.apply(x)
    print(y)
    (y * torch.tensor([1., 2., 3., 4.])).sum().backward()
    print(x.grad)
""")
case("setitem_leaf_requiring_grad_refused", """
    a = torch.tensor([1., 2., 3.], requires_grad=True)
    a[0] = 2.
""", "RuntimeError")
case("setitem_whole_leaf_requiring_grad_refused", """
    a = torch.tensor([1., 2., 3.], requires_grad=True)
    a[...] = 2.
""", "RuntimeError")
case("setitem_leaf_under_no_grad", """
    a = torch.tensor([1., 2., 3.], requires_grad=True)
    with torch.no_grad():
        a[0] = 10.
        a[[1, 2]] = torch.tensor([20., 30.])
    print(a, a._version)
""")
case("setitem_bad_shape", """
    x = torch.zeros(2, 3)
    x[0] = torch.ones(2)
""", "RuntimeError")

# ------------------------------------------------------------------ indexing graph shapes
case("indexing_graph_shapes", """
    x = torch.arange(6.).reshape(2, 3).requires_grad_()
    def chain(t):
        out, f = [], t.grad_fn
        while f is not None and f.name() != "torch::autograd::AccumulateGrad":
            out.append(f.name())
            f = f.next_functions[0][0]
        return out
    for idx in ["0:2, 0", "0:100, 0", ":2, 0", "-2:, 0", "0:, 0", "::1, 0", ":, 0", "0:2", "0:2, :",
                "..., 0", "0, ...", "0, ..., 1", "None, ...", "..., None", "torch.tensor(1)",
                "torch.tensor(1), 0", "[1]", "[1], 0", "0, [1]", "x>2", "1, None, :",
                "[0,1], [1,2]", ":, [0,1]", "[0,1], :", "None, [0,1]", "..., [0, 1]", "0:1, [0,1]",
                ":", "...", "()", ":, :", "None, ::1"]:
        r = eval(f"x[{idx}]")
        print(f"{idx:20}", chain(r), tuple(r.shape))
""")
case("second_backward_through_advanced_indexing", """
    a = torch.tensor([1., 2., 3.], requires_grad=True)
    y = a[[0, 0, 2]].sum()
    y.backward()
    print(a.grad)
    y.backward()
""", "RuntimeError")
case("second_backward_through_slicing_is_fine", """
    a = torch.tensor([1., 2., 3.], requires_grad=True)
    y = a[0:2].sum() + a[1]
    y.backward()
    y.backward()
    print(a.grad)
""")
case("retain_graph_through_advanced_indexing", """
    a = torch.tensor([1., 2., 3.], requires_grad=True)
    y = a[[0, 0, 2]].sum()
    y.backward(retain_graph=True)
    y.backward()
    print(a.grad)
""")


@pytest.mark.parametrize("code, error, message", CASES)
def test_same_as_torch(code, error, message):
    assert_same(code, error=error, message=message)


def test_case_ids_unique():
    ids = [p.id for p in CASES]
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)


def test_cases_deterministic_under_torch():
    torch = pytest.importorskip("torch")
    for param in CASES:
        code = param.values[0]
        first, second = run_snippet(code, torch), run_snippet(code, torch)
        assert first["stdout"] == second["stdout"], param.id


def test_view_outside_its_base_memory_is_refused_not_misread():
    """After ``b.data = ...`` a view of b no longer lies in b's memory: an in-place change through it
    raises (a limit: PyTorch keeps the old storage), rather than reading or writing past the new array."""
    import mini_autograd as torch
    x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    b = x * 1
    v = b[1:]
    b.data = torch.zeros(4)
    with pytest.raises(RuntimeError, match="could not find this view's elements in its base's memory"):
        v.mul_(2)
        b.sum().backward()
