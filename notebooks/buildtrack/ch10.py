"""Checks of chapter 10: Linear, cross_entropy, SGD (the spiral classifier trains).

Each check runs named scenarios first (the mistakes people make, each with its own message), then random
cases drawn by hypothesis (derandomized, no database: the same code always gets the same verdict), each
compared with mini_autograd, which the course's tests keep equal to PyTorch 2.13. On a difference the
message shows the smallest case hypothesis found, in words: the inputs, what PyTorch gives, what yours
gives.
"""

import pathlib
import weakref

import numpy as np

from ._testing import expect, expect_close, grad_of, reference, show, values
from .cases import close, dtype_name, quarters, raised, smallest_failure
from .package import Wrong, learner_frame
from .steps import step
from .i18n import _


def two_spirals(n_per_class=150, turns=1.5, noise=0.3, seed=0):
    """Chapter 10's data: two interleaved spirals, X (n, 2) float32 and labels (n,) 0 or 1."""
    rng = np.random.default_rng(seed)
    points, labels = [], []
    for label, sign in [(0, 1.0), (1, -1.0)]:
        angle = np.sqrt(rng.uniform(0, 1, n_per_class)) * turns * 2 * np.pi
        xy = sign * np.stack([angle * np.cos(angle), angle * np.sin(angle)], axis=1)
        points.append(xy + rng.normal(0, noise, (n_per_class, 2)))
        labels.append(np.full(n_per_class, label))
    X = np.concatenate(points) / (turns * np.pi)
    return X.astype(np.float32), np.concatenate(labels).astype(np.int64)



# ------------------------------------------------------------------------ 10.1
LINEAR_EXAMPLES = 40
# k's that people write instead of PyTorch's 1/sqrt(in_features), for Linear(400, 30)
OTHER_BOUNDS = {"1/in_features = 1/400": 1 / 400, "1/sqrt(out_features) = 1/sqrt(30)": 1 / np.sqrt(30),
                "1/out_features = 1/30": 1 / 30, "sqrt(6/(in_features + out_features))": np.sqrt(6 / 430),
                "1/sqrt(in_features + out_features)": 1 / np.sqrt(430), "sqrt(in_features)": 20.0,
                "1": 1.0, "sqrt(2/in_features)": np.sqrt(2 / 400), "sqrt(3/in_features)": np.sqrt(3 / 400)}


def _bound_message(largest):
    """What a weight whose entries reach ``largest`` (instead of 0.05) says about the learner's k."""
    guess = [name for name, k in OTHER_BOUNDS.items() if 0.97 * k <= largest <= k * (1 + 1e-6)]
    said = _(" That is k = {guess}.").format(guess=guess[0]) if guess else ""
    return (_("Linear(400, 30).weight has entries up to {largest:.4g}, so it was drawn from about "
              "[-{largest:.4g}, {largest:.4g}].{said} PyTorch draws from [-k, k] with k = "
              "1/sqrt(in_features) = 1/sqrt(400) = 0.05: 1 over the square root of the number of inputs, so "
              "that a layer's outputs start neither tiny nor huge, whatever its width.")
            .format(largest=largest, said=said))


@step("10.1", "Linear", "Linear.__init__ and Linear.__call__ in nn.py", after="06.2")
def check_linear(m):
    m.manual_seed(0)
    layer = m.nn.Linear(400, 30)
    w, b = layer.weight, layer.bias
    expect(isinstance(w, m.nn.Parameter) and isinstance(b, m.nn.Parameter),
           _("weight and bias must be Parameters (nn.Parameter(...)): leaves that require grad."))
    expect(tuple(w.shape) == (30, 400), _("Linear(400, 30).weight has shape {w_shape}, "
           "expected [30, 400]: (out_features, in_features), as in PyTorch.").format(w_shape=list(w.shape)))
    expect(tuple(b.shape) == (30,), _("Linear(400, 30).bias has shape {b_shape}, expected [30].")
           .format(b_shape=list(b.shape)))
    bound = 1 / np.sqrt(400)
    largest = float(np.abs(values(w)).max())
    if largest > bound * (1 + 1e-6):
        guess = [name for name, k in OTHER_BOUNDS.items() if 0.97 * k <= largest <= k * (1 + 1e-6)]
        if guess:
            raise Wrong(_("Linear(400, 30).weight has entries up to {largest:.3f}, beyond k = 1/sqrt(400) = "
                          "0.05 (it looks like k = {guess}): draw uniformly from [-k, k] with k = "
                          "1/sqrt(in_features).").format(largest=largest, guess=guess[0]))
        raise Wrong(_("Linear(400, 30).weight has entries up to {largest:.3f}, beyond k = 1/sqrt(400) = "
                      "0.05: "
                      "draw uniformly from [-k, k] with k = 1/sqrt(in_features).").format(largest=largest))
    if 0 < largest < 0.97 * bound:               # (12000 draws: the largest is within 0.1% of k)
        raise Wrong(_bound_message(largest))
    spread = values(w).std()
    expect(spread > bound / 3, _("Linear(400, 30).weight has a spread of {spread:.4f}; uniform on "
           "[-0.05, 0.05] gives about {value:.4f}: draw it from the whole interval [-k, k].")
           .format(spread=spread, value=bound / np.sqrt(3)))
    bias = values(b)
    expect(np.all(np.abs(bias) <= bound * (1 + 1e-6)), _("Linear(400, 30).bias has entries up to "
           "{max:.3f}, beyond k = 1/sqrt(400) = 0.05: draw it from [-k, k] too, the same k "
           "as the weight's.").format(max=np.abs(bias).max()))
    expect(bias.std() > bound / 3, _("Linear(400, 30).bias has a spread of {std:.4f}; uniform on "
           "[-0.05, 0.05] gives about {value:.4f}: PyTorch draws the bias too, from the same "
           "[-k, k] as the weight (it does not start at zero).")
           .format(std=bias.std(), value=bound / np.sqrt(3)))
    for i, o in ((400, 30), (6, 4)):       # (1/sqrt(6) rounds apart in float32 and in float64)
        problem = _drawn_like_pytorch(m, i, o, 0)
        if problem:
            raise Wrong(problem)
    x = m.tensor(np.arange(8.0).reshape(2, 4))
    layer = m.nn.Linear(4, 3)
    try:
        y = layer(x)
    except Exception as error:
        raise Wrong(_("Linear(4, 3) on a batch of shape [2, 4] raised {type_name}: {error}. "
                      "Compute x @ weightᵀ + bias, with transpose(weight).")
                      .format(type_name=type(error).__name__, error=error)) from None
    expect(isinstance(y, m.Tensor) and y.requires_grad, _("Linear(4, 3)(x) does not require grad: compute it "
           "with Tensor operations on the Parameters (x @ transpose(self.weight) + self.bias), not with "
           "numpy."))
    expect(tuple(y.shape) == (2, 3), _("Linear(4, 3) on a batch of shape [2, 4] gave shape {y_shape}, "
           "expected [2, 3].").format(y_shape=list(y.shape)))
    want = values(x) @ values(layer.weight).T + values(layer.bias)
    expect(np.allclose(values(y), want, atol=1e-5), _("Linear(4, 3)(x) is {y}, expected x @ "
           "weightᵀ + bias = {want}.").format(y=show(values(y)), want=show(want)))
    y.sum().backward()
    expect(grad_of(layer.weight) is not None and grad_of(layer.bias) is not None, _("after backward, the "
           "layer's weight and bias have no .grad: use the Parameters themselves in the computation."))
    failure = smallest_failure(_linear_cases(), lambda case: _linear_trial(m, case), LINEAR_EXAMPLES)
    if failure:
        raise Wrong(_("on random layers, yours and PyTorch's differ; the smallest case found: {failure}")
                    .format(failure=failure))
    x = m.tensor(np.ones((2, 4), dtype=np.float32))
    layer(x).sum().backward()
    x_ref = weakref.ref(x)
    del x
    expect(x_ref() is None, _("layer = Linear(4, 3); layer(x).sum().backward(); del x: x is still alive, and "
           "only the layer can hold it; in PyTorch it is gone at once. A layer keeps its parameters, not "
           "what it was called with."))
    return (_("Linear draws its parameters like PyTorch, for every seed and shape tried, and computes "
              "x @ weightᵀ + bias, value and gradients equal to F.linear's."))


def _linear_cases():
    from hypothesis import strategies as st
    return st.fixed_dictionaries({"in": st.integers(1, 8), "out": st.integers(1, 5), "n": st.integers(1, 3),
                                  "seed": st.integers(0, 999), "upstream": st.booleans()})


def _linear_trial(m, case):
    """None if Linear(in, out) after manual_seed(seed) draws and computes what PyTorch does, else why not."""
    ref = reference()
    i, o, n, seed = case["in"], case["out"], case["n"], case["seed"]
    made = _("Linear({i}, {o}) made after manual_seed({seed})").format(i=i, o=o, seed=seed)
    try:
        m.manual_seed(seed)
        layer = m.nn.Linear(i, o)
    except Exception as error:
        return f"{made} {raised(m, error)}."
    problem = _drawn_like_pytorch(m, i, o, seed, layer)
    if problem:
        return problem
    rng = np.random.default_rng(seed)
    x_values = quarters(rng.uniform(-2, 2, (n, i))).astype(np.float32)
    upstream = quarters(rng.uniform(-2, 2, (n, o))) if case["upstream"] else np.ones((n, o))
    upstream = upstream.astype(np.float32)
    on = _("{made}, on x = {x_values} (float32, requires grad)").format(made=made, x_values=show(x_values))
    x = m.tensor(x_values, requires_grad=True)
    try:
        y = layer(x)
        y.backward(m.tensor(upstream))
    except Exception as error:
        return _("{on}: layer(x) then y.backward(g) {raised}.").format(on=on, raised=raised(m, error))
    weight, bias = (ref.tensor(values(p).astype(np.float32), requires_grad=True)
                    for p in (layer.weight, layer.bias))
    x_ref = ref.tensor(x_values, requires_grad=True)
    y_ref = ref.nn.functional.linear(x_ref, weight, bias)
    y_ref.backward(ref.tensor(upstream))
    if not close(values(y), values(y_ref)):
        return (_("{on}: layer(x) is {y}; PyTorch's F.linear(x, weight, bias) with the same "
                  "weight and bias gives {y_ref}: x @ weightᵀ + bias, the bias added to every "
                  "row.").format(on=on, y=show(values(y)), y_ref=show(values(y_ref))))
    if dtype_name(y) != dtype_name(y_ref):
        return (_("{on}: layer(x) is {y}; PyTorch's is {y_ref}, like x and the "
                  "parameters.").format(on=on, y=dtype_name(y), y_ref=dtype_name(y_ref)))
    seeded = _("{on}, backward from y.backward(g) with g = {upstream}").format(on=on, upstream=show(upstream))
    for name, mine, theirs in (("x", x, x_ref), ("weight", layer.weight, weight), ("bias", layer.bias, bias)):
        got = grad_of(mine)
        if got is None or not close(values(got), values(theirs.grad)):
            return (_("{seeded}: {name}.grad is {value}; PyTorch's is {theirs_grad}. Compute layer(x) with "
                      "Tensor operations on the Parameters themselves (x @ transpose(self.weight) + "
                      "self.bias): the engine then finds every gradient.")
                      .format(seeded=seeded, name=name, value='None' if got is None else show(values(got)),
                              theirs_grad=show(values(theirs.grad))))
    return None


def reference_linear(i, o, seed):
    """``(weight, bias)`` of mini_autograd's nn.Linear(i, o) after manual_seed(seed): PyTorch's numbers,
    bit for bit. mini_autograd's generator is left as it was."""
    ref = reference()
    state = ref.get_rng_state()
    try:
        ref.manual_seed(seed)
        layer = ref.nn.Linear(i, o)
        return values(layer.weight), values(layer.bias)
    finally:
        ref.set_rng_state(state)


def _head(array, count=6):
    """A tensor's numbers for a message: all of them, or the first ``count`` and an ellipsis."""
    flat = np.asarray(array).reshape(-1)
    if flat.size <= count:
        return str(show(array))
    return "[" + ", ".join(str(number) for number in show(flat[:count])) + ", …]"


def _drawn_like_pytorch(m, i, o, seed, layer=None):
    """None if Linear(i, o) after manual_seed(seed) holds PyTorch's weight and bias bit for bit, else why.

    ``layer``: the learner's layer, made after that seed (made here if None)."""
    made = _("Linear({i}, {o}) made after manual_seed({seed})").format(i=i, o=o, seed=seed)
    k = 1 / np.sqrt(i)
    want = dict(zip(("weight", "bias"), reference_linear(i, o, seed), strict=True))
    m.manual_seed(seed)
    drawn = values(m.creation.uniform(-k, k, (o, i)))
    if not np.array_equal(drawn, want["weight"]):
        return (_("after manual_seed({seed}), your creation.uniform(-k, k, ({o}, {i})) gives {drawn}, where "
                  "PyTorch's torch.empty({o}, {i}).uniform_(-k, k) gives {want} (k = 1/sqrt({i})): "
                  "creation.py is given, and yours is not the course's. Take the course's current "
                  "creation.py, which draws with PyTorch's generator.")
                .format(seed=seed, o=o, i=i, drawn=_head(drawn), want=_head(want["weight"])))
    if layer is None:
        m.manual_seed(seed)
        layer = m.nn.Linear(i, o)
    bias_first = {}
    m.manual_seed(seed)
    bias_first["bias"] = values(m.creation.uniform(-k, k, (o,)))
    bias_first["weight"] = values(m.creation.uniform(-k, k, (o, i)))
    m.manual_seed(seed)
    k32 = np.float32(1) / np.sqrt(np.float32(i))
    bound_in_float32 = {"weight": values(m.creation.uniform(-k32, k32, (o, i)))}
    bound_in_float32["bias"] = values(m.creation.uniform(-k32, k32, (o,)))
    m.manual_seed(0)
    seed_0 = {"weight": values(m.creation.uniform(-k, k, (o, i)))}
    seed_0["bias"] = values(m.creation.uniform(-k, k, (o,)))
    for name in ("weight", "bias"):
        parameter = getattr(layer, name)
        got = values(parameter)
        if got.shape != want[name].shape:
            return (_("{made}: its {name} has shape {got}; PyTorch's has shape {want}: the weight is "
                      "(out_features, in_features), the bias (out_features,).")
                    .format(made=made, name=name, got=list(got.shape), want=list(want[name].shape)))
        if dtype_name(parameter) != "float32":
            return (_("{made}: its {name} is {dtype}; PyTorch's is float32, what creation.uniform gives.")
                    .format(made=made, name=name, dtype=dtype_name(parameter)))
        if np.array_equal(got, want[name]):
            continue
        if np.array_equal(got, bias_first[name]) and got.size:
            why = _("Those are the numbers PyTorch gives when the bias is drawn before the weight: draw the "
                    "weight first, then the bias.")
        elif np.array_equal(got, bound_in_float32[name]):
            why = _("Those are the numbers k = 1/sqrt({i}) computed in float32 gives: PyTorch computes k in "
                    "float64 (a Python float, 1 / math.sqrt(in_features)) and passes it to uniform_; in "
                    "float32 it rounds differently for some sizes.").format(i=i)
        elif seed and np.array_equal(got, seed_0[name]):
            why = _("It holds what manual_seed(0) gives: does your Linear call manual_seed itself? "
                    "Seeding is the caller's: draw from the generator as it is.")
        else:
            ratio = np.abs(got).max() / max(np.abs(want[name]).max(), 1e-30)
            why = (_("It is PyTorch's draws scaled by {ratio:.4g}: draw from [-k, k] with k = "
                     "1/sqrt(in_features) = 1/sqrt({i}), not from another interval.").format(ratio=ratio, i=i)
                   if close(got, want[name] * ratio, 1e-5, 0) and not np.isclose(ratio, 1) else
                   _("Draw the weight first, then the bias, each with one creation.uniform(-k, k, shape) "
                     "call, k = 1/sqrt(in_features) = 1/sqrt({i}).").format(i=i))
        return (_("{made}: its {name} is {got}; the same seed gives PyTorch's draws "
                  "{want} (uniform on [-{k:.4f}, {k:.4f}], the weight first, then the bias). "
                  "{why}").format(made=made, name=name, got=_head(got), want=_head(want[name]), k=k, why=why))
    return None


# ------------------------------------------------------------------------ 10.2
CROSS_ENTROPY_EXAMPLES = 60
ROW_OFFSETS = [0.0, 1000.0, -1000.0, 10000.0, -10000.0, 3000.0, -400.0]


@step("10.2", "cross_entropy", "cross_entropy in nn.py", after="06.2")
def check_cross_entropy(m):
    ref = reference()
    logits = np.array([[2.0, -1.0, 0.5], [0.1, 0.2, 0.3], [-3.0, 4.0, 1.0], [1.0, 1.0, 1.0]],
                      dtype=np.float32)
    targets = np.array([0, 2, 1, 1])
    case = _called(logits, targets)
    mine = m.tensor(logits, requires_grad=True)
    try:
        loss = m.nn.cross_entropy(mine, m.tensor(targets))
    except ValueError as error:                       # numpy could not broadcast
        raise Wrong(_("{case} raised ValueError: {error} ({where}). A row's largest logit, or a row's "
                      "sum, is one "
                      "number per row, of shape [4]: to be subtracted from the rows of the logits, of shape "
                      "[4, 3], it must keep its dimension, shape [4, 1]: logits.max(dim=1, keepdim=True) and "
                      "sum(dim=1, keepdim=True).").format(case=case, error=error, where=_line_of(m, error))
                    ) from None
    expect(isinstance(loss, m.Tensor) and tuple(loss.shape) == (),
           _("{case} has shape {shape}; PyTorch's loss is one number, a tensor of shape [] (0-d): the mean "
             "of the rows' losses, so sum every entry (.sum() with no dim) before dividing by n.")
           .format(case=case, shape=list(getattr(loss, "shape", ["?"]))))
    theirs = ref.tensor(logits, requires_grad=True)
    want = ref.nn.functional.cross_entropy(theirs, ref.tensor(targets))
    got, wanted = float(values(loss)), float(values(want))
    if np.isclose(got, wanted / logits.shape[1], rtol=1e-4):
        raise Wrong(_("{case} is {got:.4f}, PyTorch's {want:.4f} divided by the number "
                      "of classes: average over the n rows only, not over every entry.")
                      .format(case=case, got=got, want=wanted))
    if np.isclose(got, wanted * len(targets), rtol=1e-4):
        raise Wrong(_("{case} is {got:.4f}, {count} times PyTorch's {want:.4f}: "
                      "average over the batch (divide by n).")
                      .format(case=case, got=got, count=len(targets), want=wanted))
    if np.isclose(got, -wanted, rtol=1e-4):
        raise Wrong(_("{case} is {got:.4f}, PyTorch's with the sign flipped: the loss is minus the "
                      "log-probability of the right class.").format(case=case, got=got))
    expect(np.isclose(got, wanted, rtol=1e-4, atol=1e-6), _("{case} is {got:.4f}; "
           "PyTorch's F.cross_entropy gives {want:.4f} on the same logits and targets.")
           .format(case=case, got=got, want=wanted))
    loss.backward()
    want.backward()
    expect_close(grad_of(mine), values(theirs.grad), _("after {case}, then loss.backward(), logits.grad "
                 "is {{got}}; PyTorch's is {{want}}.").format(case=case))
    _check_upstream(m, logits, targets)
    big = m.tensor([[1000.0, 0.0]], requires_grad=True)
    value = float(values(m.nn.cross_entropy(big, m.tensor([0]))))
    if np.isnan(value) or np.isinf(value):
        raise Wrong(_("cross_entropy of the logits [[1000., 0.]] with target 0 is {value}, expected 0. "
                      "Either exp(1000) overflows (subtract each row's largest logit before exp), "
                      "or a probability rounds to 0 and its log is -inf "
                      "(take log_softmax as shifted - log(sum(exp(shifted))), not log(softmax)).")
                      .format(value=value))
    expect(abs(value) < 1e-3,
           _("cross_entropy of the logits [[1000., 0.]] with target 0 is {value}, expected 0.")
           .format(value=value))
    _check_rows_apart(m)
    for logits, targets in TARGETS_OUT_OF_BOUNDS:       # PyTorch refuses a class number that does not exist
        problem = _cross_entropy_trial(m, {"logits": logits, "targets": targets, "dtype": "float32",
                                           "scale": 1.0})
        if problem:
            raise Wrong(problem)
    failure = smallest_failure(_cross_entropy_cases(), lambda case: _cross_entropy_trial(m, case),
                               CROSS_ENTROPY_EXAMPLES)
    if failure:
        raise Wrong(_("on random logits, yours and PyTorch's F.cross_entropy differ; the smallest case "
                      "found: {failure}").format(failure=failure))
    return (_("cross_entropy equals PyTorch's, value and gradient, in float32 and float64, on random logits "
              "up to 10⁴ with rows far apart, passes on the gradient arriving from upstream, and refuses "
              "targets out of bounds as PyTorch does."))


# (logits, targets) with a class number that does not exist: 2 of 2 classes, -1, one among right ones
TARGETS_OUT_OF_BOUNDS = [([[1.0, 2.0]], [2]), ([[1.0, 2.0]], [-1]),
                         ([[0.5, 1.0, 2.0], [1.0, 0.0, 0.0]], [1, 3])]


def _called(logits, targets):
    """``cross_entropy(logits, targets) with logits = [[...]] and targets = [...]``: a case, for a message."""
    return (_("cross_entropy(logits, targets) with logits = {logits} and targets = {targets}")
            .format(logits=show(logits), targets=np.asarray(targets).tolist()))


def _line_of(m, error):
    """``myautograd/nn.py, line 97, in cross_entropy: shifted = logits - logits.max(dim=1)``: the line of
    the learner's cross_entropy where ``error`` was raised (inside the operations it called)."""
    directory = pathlib.Path(m.__file__).resolve().parent
    return learner_frame(error.__traceback__, directory, function="cross_entropy") or raised(m, error)


def _check_upstream(m, logits, targets):
    """The gradient of loss * 3: three times the gradient of the loss (a fused backward must use grad)."""
    ref = reference()
    mine, theirs = m.tensor(logits, requires_grad=True), ref.tensor(logits, requires_grad=True)
    (m.nn.cross_entropy(mine, m.tensor(targets)) * 3.0).backward()
    (ref.nn.functional.cross_entropy(theirs, ref.tensor(targets)) * 3.0).backward()
    got, want = grad_of(mine), values(theirs.grad)
    shown = (_("with logits = {logits} and targets = {targets}")
             .format(logits=show(logits), targets=np.asarray(targets).tolist()))
    if got is not None and close(values(got) * 3, want):
        raise Wrong(_("{shown}, after (cross_entropy(logits, targets) * 3).backward(), logits.grad is "
                      "{got}: the same as for the loss alone, where PyTorch's is 3 times that, "
                      "{want}. The gradient arriving from upstream (here 3) is dropped: a backward "
                      "returns grad times the local derivative, ((softmax - onehot) / n) * grad for a "
                      "hand-written one.").format(shown=shown, got=show(values(got)), want=show(want)))
    expect_close(got, want, _("{shown}, after (cross_entropy(logits, targets) * 3).backward(), "
                              "logits.grad is "
                 "{{got}}; PyTorch's is {{want}}.").format(shown=shown))


def _check_rows_apart(m):
    """Two rows far apart: each must be shifted by its own largest logit, not by the batch's."""
    ref = reference()
    logits, targets = [[1000.0, 0.0], [0.0, 1.0]], [0, 1]
    want = float(values(ref.nn.functional.cross_entropy(ref.tensor(logits), ref.tensor(targets))))
    got = float(values(m.nn.cross_entropy(m.tensor(logits, requires_grad=True), m.tensor(targets))))
    if not np.isfinite(got):
        raise Wrong(_("cross_entropy of the logits [[1000., 0.], [0., 1.]] with targets [0, 1] is {got}; "
                      "PyTorch gives {want:.4f}. Shifted by the largest logit of the whole batch (1000), the "
                      "second row becomes [-1000., -999.], whose exps all underflow to 0, and log(0) = -inf. "
                      "Shift each row by its own largest logit, logits.max(dim=1, keepdim=True): one maximum "
                      "per row.").format(got=got, want=want))
    expect(np.isclose(got, want, rtol=1e-4), _("cross_entropy of the logits [[1000., 0.], [0., 1.]] with "
           "targets [0, 1] is {got:.4f}; PyTorch gives {want:.4f}: shift each row by its own largest logit, "
           "logits.max(dim=1, keepdim=True).").format(got=got, want=want))


def _cross_entropy_cases():
    from hypothesis import strategies as st

    @st.composite
    def case(draw):
        n, classes = draw(st.integers(1, 4)), draw(st.integers(1, 4))
        offsets = [draw(st.sampled_from(ROW_OFFSETS)) for _ in range(n)]
        logits = [[offset + draw(st.integers(-400, 400)) / 4 for _ in range(classes)] for offset in offsets]
        targets = [draw(st.integers(0, classes - 1)) for _ in range(n)]
        if draw(st.integers(0, 5)) == 0:               # a class number that does not exist
            targets[draw(st.integers(0, n - 1))] = draw(st.sampled_from([classes, classes + 1, -1, -2]))
        return {"logits": logits, "targets": targets,
                "dtype": draw(st.sampled_from(["float32", "float64"])),
                "scale": draw(st.sampled_from([1.0, 3.0, -0.5, 2.5]))}
    return case()


def _cross_entropy_trial(m, case):
    """None if cross_entropy, value and gradient, is PyTorch's on this case, else why not."""
    ref = reference()
    logits, targets, scale = np.array(case["logits"]), np.array(case["targets"]), case["scale"]
    dtype = case["dtype"]
    shown = (_("logits = {logits} ({dtype}, requires grad), targets = {targets}, backward from {loss}")
             .format(logits=show(logits), dtype=dtype, targets=targets.tolist(),
                     loss=f"loss * {scale}" if scale != 1 else "loss"))
    theirs = ref.tensor(logits, dtype=getattr(ref, dtype), requires_grad=True)
    try:
        want = ref.nn.functional.cross_entropy(theirs, ref.tensor(targets))
    except IndexError as error:                       # a target out of bounds
        refused = str(error)
        try:
            loss = m.nn.cross_entropy(m.tensor(logits, dtype=getattr(m, dtype)), m.tensor(targets))
        except IndexError as mine_error:
            if str(mine_error) == refused:
                return None
            said = raised(m, mine_error)
        except Exception as mine_error:
            said = raised(m, mine_error)
        else:
            said = _("gives {loss}").format(loss=show(values(loss)))
        return (_("{case}: yours {said}; PyTorch raises IndexError: {refused} A target is a class number, 0 "
                  "to classes - 1 = {last}: pick the class with the given one_hot(targets, classes), which "
                  "raises that error, not with an index that wraps around (targets % classes, or a numpy "
                  "index of -1, which counts from the end).")
                .format(case=_called(logits, targets), said=said, refused=refused, last=logits.shape[1] - 1))
    (want * scale if scale != 1 else want).backward()
    mine = m.tensor(logits, dtype=getattr(m, dtype), requires_grad=True)
    try:
        loss = m.nn.cross_entropy(mine, m.tensor(targets))
        (loss * scale if scale != 1 else loss).backward()
    except Exception as error:
        return (_("{shown}: cross_entropy then backward {raised}.")
                .format(shown=shown, raised=raised(m, error)))
    if tuple(loss.shape) != ():
        return (_("{shown}: your loss has shape {shape}; PyTorch's is one number, of shape [] (0-d).")
                .format(shown=shown, shape=list(loss.shape)))
    got = values(loss)
    # Right formulas differ in their last bits; in float32 with logits near 10⁴ a bit is 0.001.
    atol = 1e-5 + 8 * np.finfo(dtype).eps * np.abs(logits).max()
    if not close(got, values(want), atol=atol):
        why = (_(" exp overflowed or underflowed somewhere: shift each row by its own largest logit "
                 "(logits.max(dim=1, keepdim=True)) and take log_softmax as shifted - "
                 "log(sum(exp(shifted))), not log(softmax), whose log of a probability rounded to 0 is -inf.")
               if not np.all(np.isfinite(got)) else "")
        return (_("{shown}: your loss is {got}; PyTorch's is {want}.{why}")
                .format(shown=shown, got=show(got), want=show(values(want)), why=why))
    if values(want) == 0 and np.signbit(got) != np.signbit(values(want)):
        return (_("{shown}: your loss is {got}; PyTorch's is {want}. Take minus the sum as nll_loss does, "
                  "from 0: 0.0 - picked, not -picked (-0.0 is what -picked gives when the sum is 0).")
                .format(shown=shown, got=show(got), want=show(values(want))))
    if dtype_name(loss) != dtype_name(want):
        return (_("{shown}: your loss is {loss}; PyTorch's is {want}, the logits' "
                  "dtype.").format(shown=shown, loss=dtype_name(loss), want=dtype_name(want)))
    gradient = grad_of(mine)
    if gradient is None or not close(values(gradient), values(theirs.grad), atol=atol):
        found = "None" if gradient is None else show(values(gradient))
        why = ""
        if gradient is not None and scale != 1 and close(values(gradient) * scale, values(theirs.grad),
                                                          atol=atol):
            why = (_(" Yours is the gradient of the loss alone: the gradient arriving from upstream "
                     "({scale}) is dropped. A backward returns grad times the local derivative.")
                     .format(scale=scale))
        elif gradient is not None and not np.all(np.isfinite(values(gradient))):
            why = _(" Shift each row by its own largest logit before exp.")
        return (_("{shown}: logits.grad is {found}; PyTorch's is {theirs_grad}.{why}")
                .format(shown=shown, found=found, theirs_grad=show(values(theirs.grad)), why=why))
    if dtype_name(gradient) != dtype_name(theirs.grad):
        return (_("{shown}: logits.grad is {gradient}; PyTorch's is {theirs_grad}.")
                .format(shown=shown, gradient=dtype_name(gradient), theirs_grad=dtype_name(theirs.grad)))
    return None


# ------------------------------------------------------------------------ 10.3
def train_spiral(torch, steps, lr, init=None):
    """Chapter 10's classifier in float64, trained with plain SGD; returns (losses, accuracy, start values).

    float64, so that two engines doing the same arithmetic in a different order stay within 1e-5 of each
    other over a thousand steps (float32 rounding differences grow when a loss spikes).
    """
    X_np, labels_np = two_spirals()
    X, labels = torch.tensor(X_np.astype(np.float64)), torch.tensor(labels_np)
    if init is not None:                                    # mini_autograd, from the learner's start values
        layers = [torch.nn.Linear(2, 32), torch.nn.Linear(32, 32), torch.nn.Linear(32, 2)]
        for layer, (w, b) in zip(layers, init, strict=True):
            layer.weight = torch.nn.Parameter(torch.tensor(w))
            layer.bias = torch.nn.Parameter(torch.tensor(b))
        loss_fn = torch.nn.functional.cross_entropy
    else:
        torch.manual_seed(0)
        layers = [torch.nn.Linear(2, 32), torch.nn.Linear(32, 32), torch.nn.Linear(32, 2)]
        for layer in layers:
            layer.weight = torch.nn.Parameter(torch.tensor(values(layer.weight), dtype=torch.float64))
            layer.bias = torch.nn.Parameter(torch.tensor(values(layer.bias), dtype=torch.float64))
        loss_fn = torch.nn.cross_entropy
    parameters = [p for layer in layers for p in layer.parameters()]
    start = [(values(layer.weight).copy(), values(layer.bias).copy()) for layer in layers]
    optimizer = torch.optim.SGD(parameters, lr=lr)

    def forward(x):
        return layers[2](layers[1](layers[0](x).tanh()).tanh())

    losses = []
    for _step in range(steps):
        optimizer.zero_grad()
        loss = loss_fn(forward(X), labels)
        loss.backward()
        optimizer.step()
        losses.append(float(values(loss)))
    with torch.no_grad():
        accuracy = float(np.mean(np.argmax(values(forward(X)), axis=1) == labels_np))
    return np.array(losses), accuracy, start


# Full-batch SGD on the spirals goes through loss spikes, where any difference in rounding (1e-16 in
# float64) grows: two correct engines part by more than 1e-5 after about 200 steps. So the losses
# are compared step by step over the first SPIRAL_COMPARED steps, and the accuracy at the end.
SPIRAL_STEPS, SPIRAL_LR, SPIRAL_COMPARED = 1000, 0.3, 150


@step("10.3", "SGD: the spiral classifier trains", "SGD.step in optim.py", after="06.2")
def check_sgd(m):
    w = m.tensor([1.0, -2.0], requires_grad=True)
    (w * w).sum().backward()
    optimizer = m.optim.SGD([w, m.tensor([5.0], requires_grad=True)], lr=0.1)
    try:
        returned = optimizer.step()
    except RuntimeError as error:
        if "in-place" in str(error):
            raise Wrong(_("SGD.step raised '{error}': update the parameters inside `with "
                          "no_grad():`.").format(error=error)) from None
        raise
    except TypeError as error:
        raise Wrong(_("SGD.step raised TypeError: {error}. A parameter whose .grad is None "
                      "(it took no part in the loss) must be skipped.").format(error=error)) from None
    if not m.is_grad_enabled():
        m.set_grad_enabled(True)
        raise Wrong(_("after SGD.step, recording is off: your step switched it off and left it so, and the "
                      "next forward records nothing (its loss.backward() then fails with 'element 0 of "
                      "tensors does not require grad'). PyTorch's step runs under `with no_grad():`, which "
                      "switches recording back to what it was when the block ends, also if the update "
                      "raises: use `with no_grad():`, not set_grad_enabled(False)."))
    expect(returned is None, _("optimizer.step() returned {returned!r}; PyTorch's SGD.step returns None (a "
           "loss only when it is given a closure): the step changes the parameters in place.")
           .format(returned=returned))
    got = values(w)
    if np.allclose(got, [1.0, -2.0]):
        raise Wrong(_("after SGD.step, w is still [1.0, -2.0]: the step did not change the parameter itself. "
                      "Rebinding a name (p = p - ...) changes nothing; update in place with p.sub_(...)."))
    if np.allclose(got, [1.2, -2.4]):
        raise Wrong(_("after one step w is [1.2, -2.4]: that climbs the gradient. Subtract lr * grad."))
    expect(np.allclose(got, [0.8, -1.6]), _("after one step with lr = 0.1 and grad [2, -4], w is {got}, "
           "expected [0.8, -1.6]: w - lr * w.grad.").format(got=show(got)))
    expect(w.grad_fn is None and w.is_leaf, _("after SGD.step, w has a grad_fn: update in place under "
           "no_grad, so w stays the same leaf."))
    expect(grad_of(w) is not None, _("after SGD.step, w.grad is None: the step reads the gradient and must "
           "leave it as backward left it. Clearing it is zero_grad's work, which the training loop calls "
           "before the next backward."))
    kept = values(grad_of(w))
    expect(np.allclose(kept, [2.0, -4.0]), _("after SGD.step, w.grad is {kept}, expected [2.0, -4.0] "
           "as backward left it: the step reads the gradient, it must not change it (p.grad.mul_(lr) "
           "scales the gradient itself).").format(kept=show(kept)))
    expect(w._version == 1, _("after one SGD.step, w._version is {w_version}, expected 1: write through an "
           "in-place operation (p.sub_), which bumps the version, so that a backward through a graph that "
           "saved w before the step is refused (chapter 07) instead of giving a wrong gradient.")
           .format(w_version=w._version))
    with m.no_grad():
        optimizer.step()
        still_off = not m.is_grad_enabled()
    m.set_grad_enabled(True)
    expect(still_off, _("SGD.step called inside `with no_grad():` switched recording back on before the "
           "block ended: the step must put back the mode it found (recording was off), as `with no_grad():` "
           "inside the step does."))
    grad_ref = weakref.ref(w.grad)
    w.grad = None
    expect(grad_ref() is None, _("after optimizer.step(), w.grad = None: the gradient the step used is still "
           "alive, and only the optimizer can hold it; in PyTorch it is gone at once. The step reads each "
           "p.grad, and keeps none of them."))
    for case in SGD_SCENARIOS:
        problem = _sgd_trial(m, case)
        if problem:
            raise Wrong(problem)
    failure = smallest_failure(_sgd_cases(), lambda case: _sgd_trial(m, case), SGD_EXAMPLES)
    if failure:
        raise Wrong(_("on random parameters, your SGD.step and PyTorch's differ; the smallest case found: "
                      "{failure}").format(failure=failure))
    losses, accuracy, start = train_spiral(m, SPIRAL_STEPS, SPIRAL_LR)
    reference_losses, _accuracy, _start = train_spiral(reference(), SPIRAL_COMPARED, SPIRAL_LR, init=start)
    compared = np.abs(losses[:SPIRAL_COMPARED] - reference_losses)
    worst = int(np.argmax(compared))
    expect(compared[worst] <= 1e-5, _("on the spirals, your loss at step {worst} is {losses:.6f}; "
           "mini_autograd's, from the same start, is {reference_losses:.6f}.")
           .format(worst=worst, losses=losses[worst], reference_losses=reference_losses[worst]))
    expect(accuracy >= 0.95, _("the spiral classifier reaches {accuracy:.1%} training accuracy after "
           "{SPIRAL_STEPS} steps, expected at least 95%.")
           .format(accuracy=accuracy, SPIRAL_STEPS=SPIRAL_STEPS))
    return (_("SGD.step updates parameters as PyTorch's does (values, versions, flags, gradients, frozen "
              "parameters and lr = 0 included), and the spiral classifier trains on your engine to "
              "{accuracy:.1%}; its losses equal mini_autograd's within 1e-5 at each of the first "
              "{SPIRAL_COMPARED} steps.").format(accuracy=accuracy, SPIRAL_COMPARED=SPIRAL_COMPARED))


SGD_EXAMPLES = 30
NAMES = "wvu"
# Named cases: lr = 0 still writes (a version bump); a frozen parameter stays frozen, and is updated.
SGD_SCENARIOS = [
    {"params": [{"values": [1.0, -2.0], "grad": [2.0, -4.0], "frozen": False}], "dtype": "float32", "lr": 0.0,
     "no_grad": False, "saved": True, "steps": 1},
    {"params": [{"values": [1.0, 2.0], "grad": [3.0, 3.0], "frozen": True}], "dtype": "float32", "lr": 0.1,
     "no_grad": False, "saved": False, "steps": 1},
]


def _sgd_cases():
    from hypothesis import strategies as st
    quarters = st.integers(-12, 12).map(lambda v: v / 4)

    @st.composite
    def case(draw):
        size = draw(st.integers(1, 3))
        params = [{"values": [draw(quarters) for _ in range(size)],
                   "grad": draw(st.one_of(st.none(), st.lists(quarters, min_size=size, max_size=size))),
                   "frozen": draw(st.booleans())} for _ in range(draw(st.integers(1, 3)))]
        return {"params": params, "dtype": draw(st.sampled_from(["float32", "float64"])),
                "lr": draw(st.sampled_from([0.5, 0.0, 0.25, 2.0])), "no_grad": draw(st.booleans()),
                "saved": draw(st.booleans()), "steps": draw(st.integers(1, 2))}
    return case()


def _sgd_run(package, case, sgd):
    """What a program sees of ``case`` run with ``package`` and its optimizer class ``sgd``."""
    dtype = getattr(package, case["dtype"])
    params = [package.tensor(spec["values"], dtype=dtype, requires_grad=True) for spec in case["params"]]
    for p, spec in zip(params, case["params"], strict=True):
        if spec["grad"] is not None:
            p.grad = package.tensor(spec["grad"], dtype=dtype)
    loss = (params[0] * params[0]).sum() if case["saved"] else None     # saves the first one
    for p, spec in zip(params, case["params"], strict=True):
        if spec["frozen"]:
            p.requires_grad_(False)
    grads = [p.grad for p in params]
    seen = {"raised": None, "backward": None}
    try:
        optimizer = sgd(params, lr=case["lr"])
        if case["no_grad"]:
            with package.no_grad():
                for _step in range(case["steps"]):
                    optimizer.step()
                seen["recording"] = package.is_grad_enabled()
        else:
            for _step in range(case["steps"]):
                optimizer.step()
            seen["recording"] = package.is_grad_enabled()
    except Exception as error:
        seen["raised"] = error
    package.set_grad_enabled(True)
    seen["values"] = [values(p) for p in params]
    seen["dtype"] = [dtype_name(p) for p in params]
    seen["version"] = [p._version for p in params]
    seen["requires_grad"] = [p.requires_grad for p in params]
    seen["leaf"] = [p.grad_fn is None for p in params]
    seen["grad kept"] = [p.grad is g and (g is None or np.array_equal(values(g), spec["grad"]))
                         for p, g, spec in zip(params, grads, case["params"], strict=True)]
    if loss is not None and seen["raised"] is None:
        try:
            loss.backward()
        except Exception as error:
            seen["backward"] = error
    return seen


def _sgd_shown(case):
    """``w = [1.0, 2.0] (float32, requires grad), w.grad = [3.0, 3.0], then w.requires_grad_(False); ...``"""
    parts = []
    for name, spec in zip(NAMES, case["params"], strict=False):
        part = _("{name} = {values} ({dtype}, requires grad), {name}.grad = {grad}").format(
            name=name, values=spec["values"], dtype=case["dtype"], grad=spec["grad"])
        if spec["frozen"]:
            part += _(", then {name}.requires_grad_(False)").format(name=name)
        parts.append(part)
    names = ", ".join(NAMES[:len(case["params"])])
    call = f"SGD([{names}], lr={case['lr']:g}).step()" + (" × 2" if case["steps"] == 2 else "")
    if case["no_grad"]:
        call = _("{call} inside `with no_grad():`").format(call=call)
    text = _("{parameters}; {call}").format(parameters="; ".join(parts), call=call)
    if case["saved"]:
        text += _(" (loss = (w * w).sum() recorded before the step, loss.backward() after it)")
    return text


def _sgd_trial(m, case):
    """None if the learner's SGD.step does to ``case`` what PyTorch's does (mini_autograd's, which agrees with
    PyTorch 2.13 on this), everything a program sees compared; else why not."""
    ref = reference()
    mine, theirs = _sgd_run(m, case, m.optim.SGD), _sgd_run(ref, case, ref.optim.SGD)
    shown = _sgd_shown(case)
    if (mine["raised"] is None) != (theirs["raised"] is None):
        said = raised(m, mine["raised"]) if mine["raised"] is not None else _("raised nothing")
        return (_("{shown}: yours {said}; PyTorch's {theirs}.")
                .format(shown=shown, said=said, theirs=_("raises {error}").format(error=theirs["raised"])
                        if theirs["raised"] is not None else _("updates the parameters")))
    if mine["raised"] is not None:
        return None
    for index, name in enumerate(NAMES[:len(case["params"])]):
        spec = case["params"][index]
        got, want = mine["values"][index], theirs["values"][index]
        eps = np.finfo(case["dtype"]).eps          # PyTorch's update is one fused operation: the last bit
                                                   # may differ
        if got.shape != want.shape or not np.allclose(got, want, rtol=4 * eps, atol=4 * eps):
            if spec["frozen"] and spec["grad"] is not None and np.array_equal(got, spec["values"]):
                why = _("PyTorch's step updates every parameter whose .grad is not None, whether it requires "
                        "grad or not: skip only the parameters whose .grad is None.")
            elif spec["grad"] is None:
                why = _("A parameter whose .grad is None is left as it is.")
            else:
                why = _("Each parameter with a gradient becomes p - lr * p.grad, once per step.")
            return (_("{shown}: after the step {name} is {got}; PyTorch's is {want}. {why}")
                    .format(shown=shown, name=name, got=show(got), want=show(want), why=why))
        if mine["dtype"][index] != theirs["dtype"][index]:
            return (_("{shown}: after the step {name} is {got}; PyTorch's stays {want}: write into the "
                      "parameter itself.").format(shown=shown, name=name, got=mine["dtype"][index],
                                                 want=theirs["dtype"][index]))
        if mine["requires_grad"][index] != theirs["requires_grad"][index]:
            return (_("{shown}: after the step {name}.requires_grad is {got}; PyTorch's is {want}, as it was "
                      "before the step. Switch recording off with `with no_grad():` around the update; do "
                      "not "
                      "switch requires_grad off and on around the write: a parameter the user froze would "
                      "come "
                      "back requiring grad.").format(shown=shown, name=name, got=mine["requires_grad"][index],
                                                     want=theirs["requires_grad"][index]))
        if mine["version"][index] != theirs["version"][index]:
            why = (_("PyTorch writes into every parameter whose .grad is not None, p.add_(grad, alpha=-lr), "
                     "even when lr is 0: the write bumps the version, so a graph that saved the parameter "
                     "before the step refuses a backward after it. Do not skip the write when lr is 0.")
                   if case["lr"] == 0 and mine["version"][index] < theirs["version"][index] else
                   _("Write each update through one in-place operation (p.sub_), which bumps the version "
                     "once per step."))
            return (_("{shown}: after the step {name}._version is {got}; PyTorch's is {want}. {why}")
                    .format(shown=shown, name=name, got=mine["version"][index], want=theirs["version"][index],
                            why=why))
        if not mine["leaf"][index]:
            return (_("{shown}: after the step {name} has a grad_fn: update in place under no_grad, so "
                      "{name} stays the same leaf.").format(shown=shown, name=name))
        if not mine["grad kept"][index]:
            return (_("{shown}: after the step {name}.grad is not the gradient it had before the step: the "
                      "step reads the gradient, it must leave it as it found it, the same tensor with the "
                      "same numbers.").format(shown=shown, name=name))
    if mine["recording"] != theirs["recording"]:
        return (_("{shown}: after the step, recording is {got}; PyTorch's step puts back the mode it "
                  "found: use `with no_grad():`.").format(shown=shown, got=mine["recording"]))
    if (mine["backward"] is None) != (theirs["backward"] is None):
        said = (_("runs, and gives a gradient from the numbers the step overwrote")
                if mine["backward"] is None else raised(m, mine["backward"]))
        why = (_(" Do not skip the write when lr is 0: PyTorch writes (and bumps the version) all the same.")
               if case["lr"] == 0 else "")
        return (_("{shown}: loss.backward() after the step {said}; PyTorch's {theirs}.{why}")
                .format(shown=shown, said=said, why=why, theirs=_("raises {error}").format(
                    error=theirs["backward"]) if theirs["backward"] is not None else _("runs")))
    return None
