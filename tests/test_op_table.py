"""Every row of tests/op_table.py: values, first and second gradients, and the same against PyTorch.

1. values: the call's output equals the row's numpy reference (float64 to 1e-12, float32 to PyTorch's own
   test tolerance, ``torch.testing``'s 1.3e-6 relative and 1e-5 absolute);
2. first gradients, in float64: backward's vector-Jacobian product with a seeded random cotangent equals
   central finite differences of the call (independent of ``mini_autograd.autograd.gradcheck``);
3. second gradients: the first gradients recorded with ``create_graph=True``, dotted with a seeded random
   vector and differentiated again, equal central finite differences of the first gradients;
4. with torch installed: values, gradients and ``grad_fn.name()`` equal PyTorch 2.13's for the same inputs.

1 to 3 need no torch. To run them as CI's first run does, with torch installed but hidden (4 is then
skipped by ``pytest.importorskip``)::

    .venv/bin/python -c "import sys, pytest; sys.modules['torch'] = None
    sys.exit(pytest.main(['tests/test_op_table.py']))"

The guard: every Function class defined under ``mini_autograd/ops/`` is reached by some row (a node of its
in the graph of the outputs, of the first gradients or of the second) or is listed in ``NOT_IN_TABLE``.
"""
import functools
import importlib
import pkgutil
import zlib

import numpy as np
import pytest

import mini_autograd
import mini_autograd.ops
from mini_autograd import autograd
from mini_autograd.autograd.function import Function

try:
    from op_table import F64, NOT_IN_TABLE, ROWS
except ImportError:  # tests/ made a package
    from tests.op_table import F64, NOT_IN_TABLE, ROWS

BY_NAME = {r.name: r for r in ROWS}
TOLERANCE = {"float64": dict(rtol=1e-12, atol=1e-12), "float32": dict(rtol=1.3e-6, atol=1e-5)}
TORCH_GRAD_TOLERANCE = {"float64": dict(rtol=1e-10, atol=1e-12), "float32": dict(rtol=1e-5, atol=1e-5)}


def _params(rows, dtypes=True):
    if not dtypes:
        return [pytest.param(r, id=r.name) for r in rows]
    return [pytest.param(r, d, id=f"{r.name}-{d}") for r in rows for d in r.dtypes]


# ------------------------------------------------------------------------------------------------ helpers
def _rng(row, salt):
    return np.random.default_rng(zlib.crc32(f"{row.name}/{salt}".encode()))


def inputs(row, dtype):
    """The row's input arrays, seeded by its name, in ``dtype``."""
    rng = _rng(row, "inputs")
    return [d.draw(rng).astype(dtype) for d in row.inputs]


def tensors(t, arrays, requires_grad=True):
    return [t.tensor(a, dtype=getattr(t, str(a.dtype)), requires_grad=requires_grad) for a in arrays]


def outputs(t, row, xs):
    out = row.call(t, *xs)
    return list(out) if isinstance(out, (tuple, list)) else [out]


def as_array(tensor):
    return np.asarray(tensor.detach().numpy())


def differentiable(outs):
    """The positions of the outputs that carry a gradient (not sort's indices, nor histogram's edges)."""
    return [i for i, o in enumerate(outs) if o.requires_grad]


def cotangents(row, outs, dtype=F64):
    rng = _rng(row, "cotangent")
    return [rng.standard_normal(tuple(o.shape)).astype(dtype) for o in outs]


def first_gradients(row, arrays, vs, create_graph=False):
    """The inputs, the cotangents and the gradients by backward of sum(call(arrays) * vs) with respect to
    every input (None if unused). With ``create_graph``, the cotangents require grad too, so that the graph
    of the gradients also holds the nodes of the backward formulas applied to them (``SelectBackward``...),
    as PyTorch's gradgradcheck has it."""
    xs = tensors(mini_autograd, arrays)
    outs = outputs(mini_autograd, row, xs)
    picked = [outs[i] for i in differentiable(outs)]
    vts = tensors(mini_autograd, vs, requires_grad=create_graph)
    grads = autograd.grad(picked, xs, grad_outputs=vts, create_graph=create_graph, allow_unused=True)
    return xs, vts, grads


def central_differences(f, arrays, eps):
    """d f(arrays) / d arrays by central differences, f returning a number."""
    result = []
    for i, a in enumerate(arrays):
        g = np.zeros(a.shape)
        for idx in np.ndindex(*a.shape):
            shifted = []
            for sign in (1, -1):
                moved = [b.copy() for b in arrays]
                moved[i][idx] += sign * eps
                shifted.append(f(moved))
            g[idx] = (shifted[0] - shifted[1]) / (2 * eps)
        result.append(g)
    return result


def _assert_close(got, expected, what, **tolerance):
    got, expected = np.asarray(got, dtype=np.float64), np.asarray(expected, dtype=np.float64)
    assert got.shape == expected.shape, f"{what}: shape {got.shape}, expected {expected.shape}"
    np.testing.assert_allclose(got, expected, err_msg=what, **tolerance)


def _hint(row):
    return (f"\n(row {row.name!r} of tests/op_table.py; run `pytest tests/test_op_table.py -k {row.name}`: "
            "a wrong gradient is the op's backward in mini_autograd/ops/, a wrong value its forward)")


# ------------------------------------------------------------------------------------------- 1. values
@pytest.mark.parametrize("row, dtype", _params(ROWS))
def test_values_equal_numpy(row, dtype):
    if row.reference is None:
        pytest.skip("random numbers: only PyTorch's generator gives the values (checked against torch)")
    arrays = inputs(row, dtype)
    outs = outputs(mini_autograd, row, tensors(mini_autograd, arrays))
    expected = row.reference(*[a.astype(np.float64) for a in arrays])
    expected = list(expected) if isinstance(expected, tuple) else [expected]
    assert len(outs) == len(expected), f"{row.name}: {len(outs)} outputs, the reference has {len(expected)}"
    for k, (out, ref) in enumerate(zip(outs, expected, strict=True)):
        _assert_close(as_array(out), ref, f"{row.name} ({dtype}): output {k} vs numpy" + _hint(row),
                      **TOLERANCE.get(str(out.dtype).rsplit(".", 1)[-1], dict(rtol=0, atol=0)))


# -------------------------------------------------------------------------------- 2. first gradients
def _value(row, arrays, vs, picked):
    """sum(call(arrays) * vs) over the differentiable outputs (positions ``picked``), in float64, no graph."""
    outs = outputs(mini_autograd, row, tensors(mini_autograd, arrays, requires_grad=False))
    return sum(float((as_array(outs[i]).astype(np.float64) * v).sum())
               for i, v in zip(picked, vs, strict=True))


def _skip_unless_numeric(row):
    if row.grad is not True:
        pytest.skip(row.grad)
    if row.numeric is not True:
        pytest.skip(row.numeric)
    if F64 not in row.dtypes:
        pytest.skip("finite differences need float64 inputs, and this row takes float32 ones only")


@pytest.mark.parametrize("row", _params(ROWS, dtypes=False))
def test_first_gradients_equal_finite_differences(row):
    _skip_unless_numeric(row)
    arrays = inputs(row, F64)
    outs = outputs(mini_autograd, row, tensors(mini_autograd, arrays))
    picked = differentiable(outs)
    assert picked, f"{row.name}: no output requires grad" + _hint(row)
    vs = cotangents(row, [outs[i] for i in picked])
    _, _, grads = first_gradients(row, arrays, vs)
    eps, tol = row.fd
    expected = central_differences(lambda a: _value(row, a, vs, picked), arrays, eps)
    for i, (g, e) in enumerate(zip(grads, expected, strict=True)):
        got = np.zeros(e.shape) if g is None else as_array(g)
        _assert_close(got, e, f"{row.name}: gradient of input {i} by backward vs central differences"
                      + _hint(row), rtol=tol, atol=tol)


# ------------------------------------------------------------------------------- 3. second gradients
@pytest.mark.parametrize("row", _params(ROWS, dtypes=False))
def test_second_gradients_equal_finite_differences(row):
    """d/dx and d/dv of (first gradient(x, v) . u), v the cotangent: what PyTorch's gradgradcheck checks."""
    _skip_unless_numeric(row)
    if row.double is not True:
        pytest.skip(row.double)
    arrays = inputs(row, F64)
    outs = outputs(mini_autograd, row, tensors(mini_autograd, arrays))
    vs = cotangents(row, [outs[i] for i in differentiable(outs)])
    rng = _rng(row, "second")
    us = [rng.standard_normal(a.shape) for a in arrays]

    def dotted(xs_and_vs):
        _, _, grads = first_gradients(row, xs_and_vs[:len(arrays)], xs_and_vs[len(arrays):])
        return sum(0.0 if g is None else float((as_array(g) * u).sum())
                   for g, u in zip(grads, us, strict=True))

    xs, vts, grads = first_gradients(row, arrays, vs, create_graph=True)
    recorded = [(g, u) for g, u in zip(grads, us, strict=True) if g is not None and g.requires_grad]
    if recorded:
        total = sum((g * mini_autograd.tensor(u)).sum() for g, u in recorded)
        second = autograd.grad(total, xs + vts, allow_unused=True)
    else:                               # backward gave constants (zeros_like(grad), for a rounding)
        second = [None] * (len(xs) + len(vts))
    eps, tol = row.fd
    expected = central_differences(dotted, arrays + vs, eps)
    for i, (g, e) in enumerate(zip(second, expected, strict=True)):
        got = np.zeros(e.shape) if g is None else as_array(g)
        what = f"input {i}" if i < len(arrays) else f"cotangent {i - len(arrays)}"
        _assert_close(got, e, f"{row.name}: second gradient (create_graph=True) with respect to {what} vs "
                      "central differences of the first" + _hint(row),
                      rtol=max(tol, 1e-4), atol=max(tol, 1e-5))


# ----------------------------------------------------------------------------------- 4. against torch
def _run(t, row, arrays):
    """Node names, values, and the gradients (or the error backward raises) of the row's call by ``t``."""
    xs = tensors(t, arrays)
    outs = outputs(t, row, xs)
    names = [o.grad_fn.name() if o.grad_fn is not None else None for o in outs]
    values = [as_array(o).copy() for o in outs]
    picked = [outs[i] for i in differentiable(outs)]
    vs = cotangents(row, picked, str(arrays[0].dtype))
    try:
        found = t.autograd.grad(picked, xs, grad_outputs=[t.tensor(v) for v in vs], allow_unused=True)
    except (RuntimeError, NotImplementedError) as error:
        if row.grad is True:
            raise
        return names, values, f"{type(error).__name__}: {error}"     # no derivative: the same error
    return names, values, [None if g is None else as_array(g) for g in found]


@pytest.mark.parametrize("row, dtype", _params(ROWS))
def test_same_as_torch(row, dtype):
    torch = pytest.importorskip("torch")
    arrays = inputs(row, dtype)
    names, values, grads = _run(mini_autograd, row, arrays)
    torch_names, torch_values, torch_grads = _run(torch, row, arrays)
    assert names == torch_names, (f"{row.name} ({dtype}): grad_fn {names}, PyTorch's {torch_names}"
                                  + _hint(row))
    for k, (got, expected) in enumerate(zip(values, torch_values, strict=True)):
        assert got.dtype == expected.dtype, (
            f"{row.name}: output {k} is {got.dtype}, PyTorch's {expected.dtype}")
        _assert_close(got, expected, f"{row.name} ({dtype}): output {k} vs PyTorch" + _hint(row),
                      **TOLERANCE.get(str(got.dtype), dict(rtol=0, atol=0)))
    if isinstance(torch_grads, str) or isinstance(grads, str):
        assert grads == torch_grads, f"{row.name} ({dtype}): backward gave {grads!r}, PyTorch {torch_grads!r}"
    else:
        for i, (g, e) in enumerate(zip(grads, torch_grads, strict=True)):
            assert (g is None) == (e is None), f"{row.name}: gradient of input {i} is {g}, PyTorch's {e}"
            if g is not None:
                _assert_close(g, e, f"{row.name} ({dtype}): gradient of input {i} vs PyTorch" + _hint(row),
                              **TORCH_GRAD_TOLERANCE[str(g.dtype)])


# ------------------------------------------------------------------------------------------- the guard
def _label(cls):
    return f"{cls.__module__.rsplit('.', 1)[-1]}.{cls.__qualname__}"


def ops_functions():
    """Every Function class defined in a module of mini_autograd/ops/ that records a node of its own (not
    a base of others, such as ``_Unary``)."""
    for module in pkgutil.iter_modules(mini_autograd.ops.__path__):
        importlib.import_module(f"mini_autograd.ops.{module.name}")
    found, stack = [], [Function]
    while stack:
        for sub in stack.pop().__subclasses__():
            stack.append(sub)
            abstract = "node_name" not in sub.__dict__ and any(s.__dict__.get("node_name")
                                                               for s in sub.__subclasses__())
            if sub.__module__.startswith("mini_autograd.ops.") and not abstract:
                found.append(sub)
    return found


def _walk(tensors, found):
    stack = [t.grad_fn for t in tensors if t is not None and t.grad_fn is not None]
    seen = set()
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        cls = getattr(type(node), "_forward_cls", None)
        if cls is not None:
            found.add(cls)
        stack.extend(n for n, _ in node.next_functions)


@functools.cache
def reached(name):
    """The Function classes whose nodes a row records: in its outputs' graph, and in the graphs of its first
    and second gradients recorded with create_graph=True."""
    row, found = BY_NAME[name], set()
    arrays = inputs(row, F64)
    xs = tensors(mini_autograd, arrays)
    outs = outputs(mini_autograd, row, xs)
    _walk(outs, found)
    try:
        xs, vts, grads = first_gradients(row, arrays, cotangents(row, [o for o in outs if o.requires_grad]),
                                         create_graph=True)
        _walk(grads, found)
        recorded = [g for g in grads if g is not None and g.requires_grad]
        if recorded:
            second = autograd.grad([(g * g).sum() for g in recorded], xs + vts, create_graph=True,
                                   allow_unused=True)
            _walk(second, found)
    except (RuntimeError, NotImplementedError):
        if row.grad is True and row.double is True:
            raise
    return frozenset(found)


def unreached(classes, reached_classes):
    """Messages for the classes no row reaches and NOT_IN_TABLE does not list."""
    return [f"{cls.__module__}.{cls.__qualname__} ({cls._backward_cls.__name__}) is reached by no row of "
            f"tests/op_table.py: add a row calling it to ROWS in tests/op_table.py, or its name "
            f"{_label(cls)!r} with the reason to NOT_IN_TABLE there"
            for cls in classes if cls not in reached_classes and _label(cls) not in NOT_IN_TABLE]


def test_every_function_of_ops_is_reached_by_a_row():
    classes = ops_functions()
    assert len(classes) > 150
    all_reached = set().union(*(reached(r.name) for r in ROWS))
    missing = unreached(classes, all_reached)
    assert not missing, "\n".join(missing)
    labels = {_label(c) for c in classes}
    stale = {k for k in NOT_IN_TABLE if k not in labels or any(_label(c) == k for c in all_reached)}
    assert not stale, f"NOT_IN_TABLE in tests/op_table.py lists classes gone or reached by a row: {stale}"


def test_the_guard_names_a_new_op_without_a_row():
    planted = type("Atan3", (Function,), {"__module__": "mini_autograd.ops.trigonometry",
                                          "node_name": "Atan3Backward0"})
    (message,) = unreached([planted], set())
    assert message.startswith("mini_autograd.ops.trigonometry.Atan3 (Atan3Backward0) is reached by no row")
    assert "tests/op_table.py" in message


def test_row_names_are_unique_and_usable_as_ids():
    names = [r.name for r in ROWS]
    assert len(names) == len(set(names))
    assert all(n.isidentifier() for n in names), [n for n in names if not n.isidentifier()]
