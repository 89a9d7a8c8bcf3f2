"""Checks of chapters 10 (Linear, cross_entropy, SGD: the spiral trains) and 11 (gradcheck, a custom
Function)."""
import numpy as np

from ._testing import expect, expect_close, grad_of, numeric_vjp, reference, show, values
from .framework import Wrong, step


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


@step("10.1", "Linear", "Linear.__init__ and Linear.__call__ in nn.py", after="06.2")
def check_linear(m):
    m.manual_seed(0)
    layer = m.nn.Linear(400, 30)
    w, b = layer.weight, layer.bias
    expect(isinstance(w, m.nn.Parameter) and isinstance(b, m.nn.Parameter),
           "weight and bias must be Parameters (nn.Parameter(...)): leaves that require grad.")
    expect(tuple(w.shape) == (30, 400), f"Linear(400, 30).weight has shape {list(w.shape)}, "
           "expected [30, 400]: (out_features, in_features), as in PyTorch.")
    expect(tuple(b.shape) == (30,), f"Linear(400, 30).bias has shape {list(b.shape)}, expected [30].")
    bound = 1 / np.sqrt(400)
    for name, p in (("weight", w), ("bias", b)):
        data = values(p)
        expect(np.all(np.abs(data) <= bound + 1e-7), f"Linear(400, 30).{name} has entries up to "
               f"{np.abs(data).max():.3f}, beyond k = 1/sqrt(400) = 0.05: draw uniformly from [-k, k].")
    for name, p in (("weight", w), ("bias", b)):
        spread = values(p).std()
        expect(spread > bound / 3, f"Linear(400, 30).{name} has a spread of {spread:.4f}; uniform on "
               f"[-0.05, 0.05] gives about {bound / np.sqrt(3):.4f}: draw it from the whole interval "
               "(PyTorch draws the bias too, it does not start at zero).")
    m.manual_seed(0)                          # PyTorch's order: the weight's numbers, then the bias's
    drawn = [values(m.creation.uniform(-bound, bound, shape)) for shape in ((30, 400), (30,))]
    expect(np.array_equal(values(w), drawn[0]) and np.array_equal(values(b), drawn[1]),
           "after manual_seed(0), Linear(400, 30)'s numbers are not the seed's first draws: draw the weight "
           "first, then the bias, each with one creation.uniform call, as PyTorch does (the same seed then "
           "gives the same layer).")
    x = m.tensor(np.arange(8.0).reshape(2, 4))
    layer = m.nn.Linear(4, 3)
    try:
        y = layer(x)
    except Exception as error:
        raise Wrong(f"Linear(4, 3) on a batch of shape [2, 4] raised {type(error).__name__}: {error}. "
                    "Compute x @ weightᵀ + bias, with transpose(weight).") from None
    expect(isinstance(y, m.Tensor) and y.requires_grad, "Linear(4, 3)(x) does not require grad: "
           "compute it with Tensor operations on the Parameters (x @ transpose(self.weight) + self.bias), "
           "not with numpy.")
    expect(tuple(y.shape) == (2, 3), f"Linear(4, 3) on a batch of shape [2, 4] gave shape {list(y.shape)}, "
           "expected [2, 3].")
    want = values(x) @ values(layer.weight).T + values(layer.bias)
    expect(np.allclose(values(y), want, atol=1e-5), f"Linear(4, 3)(x) is {show(values(y))}, "
           f"expected x @ weightᵀ + bias = {show(want)}.")
    y.sum().backward()
    expect(grad_of(layer.weight) is not None and grad_of(layer.bias) is not None, "after backward, "
           "the layer's weight and bias have no .grad: use the Parameters themselves in the computation.")
    return "Linear draws its parameters like PyTorch and computes x @ weightᵀ + bias."


@step("10.2", "cross_entropy", "cross_entropy in nn.py")
def check_cross_entropy(m):
    ref = reference()
    logits = np.array([[2.0, -1.0, 0.5], [0.1, 0.2, 0.3], [-3.0, 4.0, 1.0], [1.0, 1.0, 1.0]],
                      dtype=np.float32)
    targets = np.array([0, 2, 1, 1])
    mine = m.tensor(logits, requires_grad=True)
    try:
        loss = m.nn.cross_entropy(mine, m.tensor(targets))
    except ValueError as error:                       # numpy could not broadcast
        raise Wrong(f"cross_entropy raised ValueError: {error}. A row's sum must keep its dimension to be "
                    "subtracted from the row: sum(dim=1, keepdim=True).") from None
    theirs = ref.tensor(logits, requires_grad=True)
    want = ref.nn.functional.cross_entropy(theirs, ref.tensor(targets))
    got = float(values(loss))
    if np.isclose(got, float(values(want)) / logits.shape[1], rtol=1e-4):
        raise Wrong(f"cross_entropy is {got:.4f}, PyTorch's {float(values(want)):.4f} divided by the number "
                    "of classes: average over the n rows only, not over every entry.")
    if np.isclose(got, float(values(want)) * len(targets), rtol=1e-4):
        raise Wrong(f"cross_entropy is {got:.4f}, {len(targets)} times PyTorch's {float(values(want)):.4f}: "
                    "average over the batch (divide by n).")
    if np.isclose(got, -float(values(want)), rtol=1e-4):
        raise Wrong(f"cross_entropy is {got:.4f}, PyTorch's with the sign flipped: the loss is minus the "
                    "log-probability of the right class.")
    expect(np.isclose(got, float(values(want)), rtol=1e-4, atol=1e-6), f"cross_entropy is {got:.4f}; "
           f"PyTorch's F.cross_entropy gives {float(values(want)):.4f} on the same logits and targets.")
    loss.backward()
    want.backward()
    expect_close(grad_of(mine), values(theirs.grad), "the gradient of cross_entropy for the logits is {got}; "
                 "PyTorch's is {want}.")
    big = m.tensor([[1000.0, 0.0]], requires_grad=True)
    value = float(values(m.nn.cross_entropy(big, m.tensor([0]))))
    if np.isnan(value) or np.isinf(value):
        raise Wrong(f"cross_entropy of the logits [[1000., 0.]] with target 0 is {value}, expected 0. "
                    "Either exp(1000) overflows (subtract each row's largest logit before exp), "
                    "or a probability rounds to 0 and its log is -inf "
                    "(take log_softmax as shifted - log(sum(exp(shifted))), not log(softmax)).")
    expect(abs(value) < 1e-3,
           f"cross_entropy of the logits [[1000., 0.]] with target 0 is {value}, expected 0.")
    return "cross_entropy equals PyTorch's, value and gradient, and survives large logits."


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
    for _ in range(steps):
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


@step("10.3", "SGD: the spiral classifier trains", "SGD.step in optim.py")
def check_sgd(m):
    w = m.tensor([1.0, -2.0], requires_grad=True)
    (w * w).sum().backward()
    optimizer = m.optim.SGD([w, m.tensor([5.0], requires_grad=True)], lr=0.1)
    try:
        optimizer.step()
    except RuntimeError as error:
        if "in-place" in str(error):
            raise Wrong(f"SGD.step raised '{error}': "
                        "update the parameters inside `with no_grad():`.") from None
        raise
    except TypeError as error:
        raise Wrong(f"SGD.step raised TypeError: {error}. A parameter whose .grad is None "
                    "(it took no part in the loss) must be skipped.") from None
    got = values(w)
    if np.allclose(got, [1.0, -2.0]):
        raise Wrong("after SGD.step, w is still [1.0, -2.0]: the step did not change the parameter itself. "
                    "Rebinding a name (p = p - ...) changes nothing; update in place with p.sub_(...).")
    if np.allclose(got, [1.2, -2.4]):
        raise Wrong("after one step w is [1.2, -2.4]: that climbs the gradient. Subtract lr * grad.")
    expect(np.allclose(got, [0.8, -1.6]), f"after one step with lr = 0.1 and grad [2, -4], w is {show(got)}, "
           "expected [0.8, -1.6]: w - lr * w.grad.")
    expect(w.grad_fn is None and w.is_leaf, "after SGD.step, w has a grad_fn: update in place under no_grad, "
           "so w stays the same leaf.")
    kept = values(grad_of(w))
    expect(np.allclose(kept, [2.0, -4.0]), f"after SGD.step, w.grad is {show(kept)}, "
           "expected [2.0, -4.0] as backward left it: the step reads the gradient, it must not change it "
           "(p.grad.mul_(lr) scales the gradient itself).")
    expect(w._version == 1, f"after one SGD.step, w._version is {w._version}, expected 1: write through an "
           "in-place operation (p.sub_), which bumps the version, so that a backward through a graph that "
           "saved w before the step is refused (chapter 07) instead of giving a wrong gradient.")
    losses, accuracy, start = train_spiral(m, SPIRAL_STEPS, SPIRAL_LR)
    reference_losses, _, _ = train_spiral(reference(), SPIRAL_COMPARED, SPIRAL_LR, init=start)
    compared = np.abs(losses[:SPIRAL_COMPARED] - reference_losses)
    worst = int(np.argmax(compared))
    expect(compared[worst] <= 1e-5, f"on the spirals, your loss at step {worst} is {losses[worst]:.6f}; "
           f"mini_autograd's, from the same start, is {reference_losses[worst]:.6f}.")
    expect(accuracy >= 0.95, f"the spiral classifier reaches {accuracy:.1%} training accuracy after "
           f"{SPIRAL_STEPS} steps, expected at least 95%.")
    return (f"The spiral classifier trains on your engine to {accuracy:.1%}; "
            f"its losses equal mini_autograd's within 1e-5 at each of the first {SPIRAL_COMPARED} steps.")


def _wrong_exp(m):
    class WrongExp(m.Function):
        @staticmethod
        def forward(ctx, a):
            result = m.Tensor(np.exp(a._data))
            ctx.save_for_backward(result)
            return result

        @staticmethod
        def backward(ctx, grad):
            return grad                                # forgets the local derivative
    return WrongExp


def _wrong_second_input(m):
    class WrongMul(m.Function):
        @staticmethod
        def forward(ctx, a, b):
            ctx.save_for_backward(a, b)
            return m.Tensor(a._data * b._data)

        @staticmethod
        def backward(ctx, grad):
            a, b = ctx.saved_tensors
            return grad * b, grad * b                 # right for a, wrong for b
    return WrongMul


def _inputs(m, *shapes):
    rng = np.random.default_rng(11)
    return tuple(m.tensor(rng.uniform(0.5, 1.5, shape), dtype=m.float64, requires_grad=True)
                 for shape in shapes)


@step("11.1", "gradcheck", "gradcheck in gradcheck.py", after="06.2")
def check_gradcheck(m):
    gradcheck = m.gradcheck.gradcheck
    cases = [("a + b", lambda a, b: a + b, ((2, 3), (2, 3))), ("a * b", lambda a, b: a * b, ((2, 3), (2, 3))),
             ("a ** 3", lambda a: a ** 3, ((3,),)), ("a.exp()", lambda a: a.exp(), ((2, 2),)),
             ("a.sum()", lambda a: a.sum(), ((2, 3),)), ("a.mean()", lambda a: a.mean(), ((4,),)),
             ("a @ b", lambda a, b: a @ b, ((2, 3), (3, 2))), ("a.tanh()", lambda a: a.tanh(), ((3,),)),
             ("a.log()", lambda a: a.log(), ((3,),)),
             ("a * b with b broadcast", lambda a, b: a * b, ((2, 3), (3,)))]
    for number, (name, function, shapes) in enumerate(cases):
        inputs = _inputs(m, *shapes)
        if number % 2:                         # a gradient from before, which gradcheck must leave alone
            inputs[0].grad = m.tensor(np.full(shapes[0], 5.0))
        grads_before = [t.grad for t in inputs]
        before = [values(t).copy() for t in inputs]
        try:
            result = gradcheck(function, inputs)
        except m.gradcheck.GradcheckError as error:
            raise Wrong(f"your gradcheck rejects {name}, "
                        f"whose backward is right ({str(error).splitlines()[0]}). Things to check: "
                        "clear the inputs' .grad before each backward; put each nudged entry back; "
                        "nudge the input's own numbers (reshape(-1) is a view, flatten() a copy); "
                        "divide by 2 eps; seed each backward with 1 at one output entry.") from None
        expect(result is True,
               f"gradcheck returned {result!r} for {name}; return True when the Jacobians agree.")
        for t, old, grad in zip(inputs, before, grads_before, strict=True):
            expect(np.array_equal(values(t), old), f"gradcheck on {name} left an input changed: "
                   "put each nudged entry back.")
            left = grad_of(t)
            expect(left is grad and (grad is None or np.all(values(grad) == 5.0)),
                   f"after gradcheck on {name}, an input's .grad is "
                   f"{'None' if left is None else show(values(left))}, where before the call it was "
                   f"{'None' if grad is None else 'a tensor of 5s'}: PyTorch's gradcheck leaves .grad as it "
                   "found it (keep each input's .grad before you start, and put it back at the end).")
    wrong = _wrong_exp(m)
    try:
        result = gradcheck(lambda a: wrong.apply(a), _inputs(m, (3,)))
    except m.gradcheck.GradcheckError as error:
        expect(str(error).startswith("Jacobian mismatch for output 0 with respect to input 0"),
               "the GradcheckError must start with PyTorch's words "
               "'Jacobian mismatch for output 0 with respect to input 0', "
               f"not {str(error)[:60]!r}.")
    except RuntimeError as error:
        raise Wrong(f"your gradcheck raised a plain RuntimeError ({str(error).splitlines()[0]}): "
                    "raise GradcheckError (given in gradcheck.py), "
                    "PyTorch's own kind of RuntimeError.") from None
    else:
        raise Wrong(f"your gradcheck returned {result!r} for an exp whose backward forgets the local "
                    "derivative (it returns grad): it must raise GradcheckError.")
    wrong_mul = _wrong_second_input(m)
    try:
        result = gradcheck(lambda a, b: wrong_mul.apply(a, b), _inputs(m, (2,), (2,)))
    except m.gradcheck.GradcheckError as error:
        expect("input 1" in str(error).split("\n")[0], "for a product whose backward is wrong for its second "
               f"input only, your gradcheck's error says {str(error).splitlines()[0]!r}: it should name "
               "input 1.")
    else:
        raise Wrong(f"your gradcheck returned {result!r} for a product a * b whose backward is right for a "
                    "but wrong for b (the second input): check every input, not only the first.")
    return "Your gradcheck passes every op you wrote and catches planted wrong backwards, for every input."


@step("11.2", "a custom Function", "Sigmoid.forward and Sigmoid.backward in custom.py")
def check_custom_function(m):
    a, = _inputs(m, (2, 3))
    forward_result = m.custom.Sigmoid.forward(m.function.BackwardFunction(m.custom.Sigmoid), a)
    expect(isinstance(forward_result, m.Tensor), "Sigmoid.forward returned a "
           f"{type(forward_result).__name__}: wrap the numpy result in a Tensor (Tensor(array)).")
    out = m.custom.Sigmoid.apply(a)
    expect(isinstance(out, m.Tensor), f"Sigmoid.apply returned a {type(out).__name__}, expected a Tensor.")
    expect(np.allclose(values(out), 1 / (1 + np.exp(-values(a)))), "Sigmoid.apply(a) gives the wrong values: "
           "1 / (1 + exp(-a)).")
    expect(out.grad_fn is not None and out.grad_fn.name() == "SigmoidBackward",
           "Sigmoid.apply(a) records no node named SigmoidBackward.")
    upstream = np.random.default_rng(5).uniform(-1, 1, (2, 3))
    seed = m.tensor(upstream, dtype=m.float64)
    out.backward(seed)
    expect(np.array_equal(values(seed), upstream), "Sigmoid.backward changed the gradient it was given, in "
           "place: the same gradient tensor may go to several nodes, so compute a new tensor (grad * ...).")
    want = numeric_vjp(lambda x: x.sigmoid(), [values(a)], upstream, 0)
    got = grad_of(a)
    if got is not None and np.allclose(values(got), want / upstream):
        raise Wrong("Sigmoid.backward ignores grad, the gradient arriving from upstream: multiply by it.")
    if got is not None and np.allclose(values(got), upstream * values(a) * (1 - values(a))):
        raise Wrong("Sigmoid.backward uses a * (1 - a), with a the input: "
                    "the derivative is s * (1 - s) with s the result. Save the result in forward.")
    expect_close(got, want, "Sigmoid's gradient is {got}; finite differences give {want}.")
    return "Your Sigmoid runs forward and backward like a built-in op, named SigmoidBackward."
