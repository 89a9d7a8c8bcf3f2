"""Random small torch programs, run under PyTorch and under mini_autograd, must agree.

Hypothesis writes each program one line at a time, running it under real PyTorch
as it goes so that every line it keeps is valid for the shapes at hand (a line
PyTorch rejects is sometimes kept, as the program's last, to compare the errors).
A program mixes:

- leaves of random small shapes, float64 (so gradients compare to 1e-7) and
  sometimes float32, requiring grad or not;
- pointwise ops, unary and binary with broadcasting and python scalars;
- reductions with and without ``dim`` and ``keepdim``; softmax, log_softmax;
- views (reshape, view, t, transpose, permute, unsqueeze, squeeze, expand) and
  indexing (ints, slices, None, ellipsis, index lists, masks), cat and stack;
- in-place ops on results and on views (``add_``, ``mul_``, ``x[i] = v``,
  ``copy_``, ``zero_``, ``clamp_``), ``no_grad`` blocks, ``detach``,
  ``retain_grad``;
- then one of: ``backward()`` of a weighted sum of the results, ``autograd.grad``
  with ``create_graph=True`` and a second backward through the gradients, or a
  second ``backward()`` on the same graph.

For each tensor the program prints its shape, dtype, ``requires_grad``, ``is_leaf``
and the name of its ``grad_fn``, and records its values; after backward it records
the gradients of the leaves and of the tensors that retain theirs. Both libraries
must print the same, record the same values (to a tolerance), and raise the same
exception type. ``tests/test_properties.py::test_programs_agree`` runs a few hundred
programs (``MINI_AUTOGRAD_PROPERTY_EXAMPLES`` sets how many); the hypothesis
profile is derandomized, so CI runs the same programs every time.
"""
import os
import textwrap
import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")
hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

import mini_autograd  # noqa: E402

try:
    from crosscheck import compare, describe, run_snippet
except ImportError:  # tests/ made a package
    from tests.crosscheck import compare, describe, run_snippet

EXAMPLES = int(os.environ.get("MINI_AUTOGRAD_PROPERTY_EXAMPLES", "400"))
settings.register_profile("mini_autograd_ci", deadline=None, derandomize=True, print_blob=True,
                          suppress_health_check=list(HealthCheck))
PROFILE = settings.get_profile("mini_autograd_ci")

SHAPES = [(), (1,), (3,), (2, 3), (3, 1), (1, 3), (2, 1, 3), (2, 3, 1), (4,), (2, 2)]

UNARY = [
    "{x}.exp()", "{x}.tanh()", "{x}.sigmoid()", "{x}.relu()", "{x}.abs()", "-{x}",
    "({x}.abs() + 1).log()", "({x}.abs() + 1).sqrt()", "{x} ** 2", "{x}.pow(3)", "{x} * 2.5",
    "2 - {x}", "{x} / 2", "1 / ({x}.abs() + 1)", "{x}.clone()", "{x}.detach()", "{x} + 1",
    "{x}.clamp(min=-0.5)", "{x}.clamp(-0.5, 0.5)", "{x}.clamp(max=0.3)", "torch.exp({x})",
    "{x}.reciprocal()", "{x}.float()", "{x}.double()", "2 ** {x}", "{x}.sin()", "{x}.cos()",
    "Cube.apply({x})", "Scale.apply({x}, 1.5)[0]", "Scale.apply({x}, -2.0)[1]",
]
REDUCE = [
    "{x}.sum()", "{x}.mean()", "{x}.max()", "{x}.sum({d})", "{x}.sum({d}, keepdim=True)",
    "{x}.mean({d})", "{x}.mean({d}, keepdim=True)", "{x}.max({d})[0]", "{x}.max({d}, keepdim=True).values",
    "torch.nn.functional.softmax({x}, {d})", "torch.nn.functional.log_softmax({x}, {d})",
    "{x}.sum(({d}, {d2}))", "{x}.norm()", "{x}.amax({d})", "{x}.min()", "{x}.min({d})[0]",
]
VIEW = [
    "{x}.reshape(-1)", "{x}.view(-1)", "{x}.t()", "{x}.transpose({d}, {d2})", "{x}.unsqueeze({u})",
    "{x}.squeeze()", "{x}.squeeze({d})", "{x}.expand(2, *{x}.shape)",
    "{x}.permute(*reversed(range({x}.ndim)))",
    "{x}.reshape({x}.numel(), 1)", "{x}.flatten()", "{x}.T", "{x}.expand_as({y})",
]
INDEX = [
    "0", "-1", "1:", ":1", "::2", "...", "None", "[0, 0]", ":, 0", "..., 0", "0, ...", ":, 1:",
    "None, ..., None",
    "[1, 0]", "{x} > 0", ":, [0, 0, 1]", "1, None", "(), ", ":, :", "::1, None", "[[0, 1], [1, 0]]",
    "..., [0]", "0:1, ..., ::2", "-2:", "torch.tensor([0, 1])", "torch.tensor(0)",
]
BINARY = ["{x} + {y}", "{x} - {y}", "{x} * {y}", "{x} / ({y}.abs() + 0.5)", "torch.max({x}, {y})",
          "{x} @ {y}", "torch.cat([{x}, {y}], {d})", "torch.stack([{x}, {y}], {d})", "{x} * 0 + {y}",
          "torch.minimum({x}, {y})", "torch.maximum({x}, {y})", "torch.where({x} > {y}, {x}, {y})"]
LOSSES = ["torch.nn.functional.mse_loss({x}, {y})", "torch.nn.functional.l1_loss({x}, {y}.detach())",
          "torch.nn.functional.mse_loss({x}, {y}, reduction='sum')",
          "torch.nn.functional.binary_cross_entropy_with_logits({x}, {x}.detach().sigmoid())",
          "torch.nn.functional.binary_cross_entropy({x}.sigmoid(), {y}.detach().sigmoid(), reduction='none')",
          "torch.nn.functional.cross_entropy({x}.reshape(-1, {x}.shape[-1]), "
          "torch.zeros({x}.numel() // {x}.shape[-1], dtype=torch.long))",
          "torch.nn.functional.cross_entropy({x}.reshape(-1, {x}.shape[-1]), "
          "torch.zeros({x}.numel() // {x}.shape[-1], dtype=torch.long), reduction='none')",
          "torch.nn.functional.nll_loss(torch.nn.functional.log_softmax({x}.reshape(-1, {x}.shape[-1]), 1), "
          "torch.zeros({x}.numel() // {x}.shape[-1], dtype=torch.long), reduction='sum')"]
INPLACE = ["{x}.add_({y})", "{x}.mul_({y})", "{x}.sub_(0.5)", "{x}.div_(2)", "{x}[{i}] = {y}",
           "{x}[{i}] = 1.5", "{x}.zero_()", "{x}.copy_({y})", "{x}.clamp_(min=-0.2)", "{x} += {y}",
           "{x}.mul_(2)", "{x}.fill_(0.5)", "{x} *= {y}", "{x}.neg_()", "{x}.exp_()", "{x}.relu_()",
           "{x}.detach_()", "{x}.sigmoid_()", "{x}.pow_(2)", "{x}.abs_()", "{x}.div_({y}.abs() + 1)",
           "{x}[{i}] *= 2", "{x}.copy_({y}.detach())"]

KINDS = ["leaf", "unary", "unary", "reduce", "view", "view", "index", "binary", "binary", "inplace",
         "inplace", "nograd", "retain", "linear", "loss"]
MAX_STEPS = 10

PRELUDE = textwrap.dedent('''
    class Cube(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        def backward(ctx, grad):
            x, = ctx.saved_tensors
            return grad * 3 * x ** 2


    class Scale(torch.autograd.Function):
        @staticmethod
        def forward(x, factor):
            return x * factor, x.detach() * 0 + factor

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.factor = inputs[1]
            ctx.mark_non_differentiable(output[1])

        @staticmethod
        def backward(ctx, grad, _):
            return grad * ctx.factor, None


    def describe(name, t):
        fn = t.grad_fn
        print(name, tuple(t.shape), str(t.dtype), t.requires_grad, t.is_leaf,
              None if fn is None else fn.name())
        record(name, t)
''')


class Builder:
    """A program under construction, run under PyTorch line by line."""

    def __init__(self, data):
        self.data = data
        self.lines = []
        self.names = []          # tensors defined so far
        self.leaves = []         # leaves that require grad
        self.retained = []
        self.env = self._fresh_env()
        self.failed = False

    @staticmethod
    def _fresh_env():
        env = {"torch": torch, "record": lambda *a: None}
        exec("import torch.nn.functional as F", env)
        return env

    def draw(self, strategy):
        return self.data.draw(strategy)

    def tensor(self, name):
        return self.env[name]

    def try_line(self, line, keep_errors=True):
        """Run ``line`` under PyTorch; keep it if it works (or, sometimes, as the failing last line)."""
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")     # compared later, when the whole program runs
                exec(line, self.env)
        except Exception:
            if keep_errors and self.draw(st.integers(0, 9)) == 0:
                self.lines.append(line)
                self.failed = True
                return False
            self.env = self._fresh_env()           # an error may have left half-made changes: replay
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                exec("\n".join(self.lines), self.env)
            return False
        self.lines.append(line)
        return True

    # ------------------------------------------------------------------ pieces
    def new_leaf(self):
        shape = self.draw(st.sampled_from(SHAPES))
        seed = self.draw(st.integers(0, 2**16))
        rng = np.random.default_rng(seed)
        values = np.round(rng.uniform(-2, 2, size=shape), 2)
        dtype = self.draw(st.sampled_from(["torch.float64"] * 5 + ["torch.float32"]))
        requires_grad = self.draw(st.booleans()) or not self.leaves
        name = f"t{len(self.names)}"
        self.lines.append(f"{name} = torch.tensor({values.tolist()!r}, dtype={dtype}, "
                          f"requires_grad={requires_grad})")
        exec(self.lines[-1], self.env)
        self.names.append(name)
        if requires_grad:
            self.leaves.append(name)
        return name

    def pick(self):
        return self.draw(st.sampled_from(self.names))

    def dims(self, name):
        ndim = max(self.tensor(name).ndim, 1)
        return self.draw(st.integers(-ndim, ndim - 1)), self.draw(st.integers(-ndim, ndim - 1))

    def fill(self, template, x, y=None):
        d, d2 = self.dims(x)
        u = self.draw(st.integers(-self.tensor(x).ndim - 1, self.tensor(x).ndim))
        i = self.draw(st.sampled_from(INDEX)).format(x=x)
        return template.format(x=x, y=y if y is not None else x, d=d, d2=d2, u=u, i=i)

    def step(self):
        kind = self.draw(st.sampled_from(KINDS))
        if kind == "leaf":
            self.new_leaf()
            return
        if kind == "linear":
            x = self.pick()
            t = self.tensor(x)
            if t.ndim == 0 or not t.dtype.is_floating_point:
                return
            out = self.draw(st.integers(1, 3))
            seed = self.draw(st.integers(0, 2**16))
            weight = np.round(np.random.default_rng(seed).uniform(-1, 1, (out, t.shape[-1])), 2)
            w = f"t{len(self.names)}"
            self.lines.append(f"{w} = torch.tensor({weight.tolist()!r}, dtype={t.dtype}, requires_grad=True)")
            exec(self.lines[-1], self.env)
            self.names.append(w)
            self.leaves.append(w)
            bias = self.draw(st.sampled_from(["None", f"{w}[:, 0].detach() * 0.5", f"{w}.sum(1)"]))
            name = f"t{len(self.names)}"
            if self.try_line(f"{name} = torch.nn.functional.linear({x}, {w}, {bias})"):
                self.names.append(name)
            return
        if kind == "loss":
            x, y = self.pick(), self.pick()
            if self.tensor(x).ndim == 0:
                return
            name = f"t{len(self.names)}"
            if self.try_line(f"{name} = " + self.fill(self.draw(st.sampled_from(LOSSES)), x, y)):
                self.names.append(name)
            return
        x = self.pick()
        name = f"t{len(self.names)}"
        if kind == "retain":
            t = self.tensor(x)
            try:
                _ = t.requires_grad, t.is_leaf
            except RuntimeError:       # a view PyTorch no longer lets us look at (its base changed)
                return
            if self.draw(st.booleans()):
                if (t.requires_grad and not t.is_leaf and x not in self.retained
                        and self.try_line(f"{x}.retain_grad()", keep_errors=False)):
                    self.retained.append(x)
            elif t.requires_grad and t._base is None:
                # (not on views: PyTorch 2.13 crashes hooking a view whose base another view changed)
                self.try_line(f"_ = {x}.register_hook(lambda g: g * 2)", keep_errors=False)
            return
        if kind == "unary":
            expr = self.fill(self.draw(st.sampled_from(UNARY)), x)
        elif kind == "reduce":
            expr = self.fill(self.draw(st.sampled_from(REDUCE)), x)
        elif kind == "view":
            expr = self.fill(self.draw(st.sampled_from(VIEW)), x, self.pick())
        elif kind == "index":
            expr = f"{x}[{self.draw(st.sampled_from(INDEX)).format(x=x)}]"
        elif kind == "binary":
            expr = self.fill(self.draw(st.sampled_from(BINARY)), x, self.pick())
        elif kind == "nograd":
            # (no views here: a node whose inputs are all no-grad views is skipped by mini_autograd's
            # backward, so an in-place change of what it saved goes unreported; see docs/limits.md)
            inner = self.fill(self.draw(st.sampled_from(UNARY + INPLACE[:4])), x, self.pick())
            if "=" in inner.replace("==", "") and "_(" not in inner:
                return
            line = f"with torch.no_grad():\n    {name} = {inner}"
            if self.try_line(line):
                self.names.append(name)
            return
        else:   # in place, on the tensor itself, or on a view of it
            if self.draw(st.booleans()):
                view = self.fill(self.draw(st.sampled_from(VIEW[:9] + ["{x}[{i}]"])), x)
                if not self.try_line(f"{name} = {view}"):
                    return
                self.names.append(name)
                x, name = name, f"t{len(self.names)}"
            statement = self.fill(self.draw(st.sampled_from(INPLACE)), x, self.pick())
            self.try_line(statement)
            return
        if self.try_line(f"{name} = {expr}"):
            self.names.append(name)

    def finish(self):
        """The end: describe every tensor, then differentiate."""
        body = list(self.lines)
        if not self.failed:
            for name in self.names:
                body.append(f"describe({name!r}, {name})")
            ending = self.draw(st.sampled_from(["backward", "backward", "grad_create_graph", "twice",
                                                "backward_inputs"]))
            outputs = [n for n in self.names if _safe_requires_grad(self.tensor(n))
                       and self.tensor(n).dtype.is_floating_point]
            chosen = self.draw(st.lists(st.sampled_from(outputs), min_size=1, max_size=3, unique=True)) \
                if outputs else []
            if chosen:
                weights = [f"({n} * torch.linspace(-1, 2, {n}.numel(), dtype={n}.dtype)"
                           f".reshape({n}.shape)).sum()" for n in chosen]
                body.append("loss = " + " + ".join(weights))
                leaves = ", ".join(self.leaves)
                if ending == "grad_create_graph":
                    body.append(f"grads = torch.autograd.grad(loss, [{leaves}], create_graph=True, "
                                "allow_unused=True)")
                    body.append("for g in grads:\n    record('grad', None if g is None else g.clone())\n"
                                "    print(None if g is None else (g.requires_grad, "
                                "None if g.grad_fn is None else g.grad_fn.name()))")
                    body.append("second = sum((g * g).sum() for g in grads if g is not None "
                                "and g.requires_grad)")
                    body.append("if isinstance(second, torch.Tensor):\n    second.backward()")
                elif ending == "twice":
                    body.append("loss.backward()")
                    body.append("loss.backward()")
                elif ending == "backward_inputs":
                    body.append(f"loss.backward(inputs=[{self.leaves[0]}])")
                else:
                    body.append("loss.backward()")
                # (.clone(): PyTorch may leave an "efficient zero tensor" in .grad, which cannot tolist())
                for name in self.leaves + self.retained:
                    body.append(f"record('grad {name}', "
                                f"None if {name}.grad is None else {name}.grad.clone())")
        return PRELUDE + "\n".join(body) + "\n"


def _safe_requires_grad(t):
    try:
        return t.requires_grad and t.grad_fn is not None or t.is_leaf and t.requires_grad
    except RuntimeError:
        return False


def build_program(data):
    builder = Builder(data)
    builder.new_leaf()
    steps = data.draw(st.integers(1, MAX_STEPS))
    for _ in range(steps):
        builder.step()
        if builder.failed:
            break
    return builder.finish()


# ------------------------------------------------------------------ comparison
def compare_programs(code):
    """Run under both libraries; the differences: stdout, warning categories, exception types, and
    recorded values (float64 within 1e-7 relative, float32 within 2e-5)."""
    ref = run_snippet(code, torch)
    got = run_snippet(code, mini_autograd)
    problems = compare(code, ref, got, message=lambda text: "", warning_messages=False,
                       tolerance=(1e-7, 1e-9), float32_tolerance=(2e-5, 1e-5))
    return ref, got, problems


@settings(PROFILE, max_examples=EXAMPLES)
@given(st.data())
def test_programs_agree(data):
    code = build_program(data)
    ref, got, problems = compare_programs(code)
    assert not problems, describe(code, ref, got, problems)
