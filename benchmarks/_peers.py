"""The peers: the benchmarks' workloads written in two other numpy autograd engines, DeZero and HIPS autograd.

mini_autograd is measured against hand-written numpy (no engine at all) and PyTorch (an engine in C++).
Two engines written, like it, in Python on top of numpy show where a Python engine lands:

- **DeZero** (``dezero``, 0.0.13 on PyPI), the engine built step by step in the book "Deep Learning from
  Scratch 3" (Koki Saitoh): ``Variable`` and ``Function`` objects, a backward run over a list of
  functions sorted by generation.
- **HIPS autograd** (``autograd``), the classic numpy autograd: a function of numpy arrays is traced
  with boxes (``ArrayBox``) around the arrays, and a backward pass walks the recorded nodes.

Both record a graph of Python objects per operation and run a backward pass per step, as mini_autograd
does. Neither is a dependency: ``pip install -e '.[bench]'`` installs them, and every function here
takes the loaded module (or None when it is missing, in which case the scripts leave its columns out).

Each workload is written the way the engine's own documentation writes it (DeZero: its book's training
loop, ``model.cleargrads(); loss.backward(); optimizer.update()``; HIPS autograd: a loss function of a
list of weight arrays and ``value_and_grad``), with the weights, data and dtypes of the other
implementations, so that all compute the same first loss.

Import it after ``_common`` (which fixes the BLAS thread count before numpy loads).
"""
import importlib.metadata
import importlib.util
import time

import numpy as np

import _common

# The keys of the results (JSON) and the names the tables show, without the version.
DEZERO, HIPS = "dezero", "hips_autograd"
NAMES = {"numpy": "numpy", "torch": "PyTorch", DEZERO: "DeZero", HIPS: "HIPS autograd",
         "mini_autograd": "mini_autograd"}
DISTRIBUTIONS = {"torch": "torch", DEZERO: "dezero", HIPS: "autograd"}     # the packages on PyPI


def load_dezero():
    """DeZero 0.0.13, or None when it is not installed."""
    if importlib.util.find_spec("dezero") is None:
        return None
    # DeZero 0.0.13 names ``np.int`` when it loads (``transforms.ToInt``'s default argument), an alias of
    # ``int`` that numpy deprecated in 1.20 and removed in 1.24: without it, ``import dezero`` raises
    # AttributeError under numpy 2. The alias is put back only while DeZero loads, and taken away again so
    # that the rest of the process sees numpy as it is (the only other uses, in ``datasets.get_spiral``
    # and ``datasets.Cifar10``, are never called here).
    had_int = "int" in vars(np)
    np.int = int
    try:
        import dezero
        import dezero.functions
        import dezero.models
        import dezero.optimizers
    finally:
        if not had_int:
            del np.int
    return dezero


def load_hips():
    """HIPS autograd (the ``autograd`` package), or None when it is not installed."""
    if importlib.util.find_spec("autograd") is None:
        return None
    import autograd
    import autograd.core
    import autograd.numpy
    return autograd


def load_all(torch=None):
    """``{key: module}`` for the peers that are installed (and PyTorch, when given)."""
    peers = {"torch": torch, DEZERO: load_dezero(), HIPS: load_hips()}
    return {key: module for key, module in peers.items() if module is not None}


def version(key):
    """The installed version of ``key``'s package (importlib.metadata), or None."""
    try:
        return importlib.metadata.version(DISTRIBUTIONS[key])
    except importlib.metadata.PackageNotFoundError:
        return None


def label(key):
    """A column header: the engine's name and its installed version, shortened to major.minor (``PyTorch
    2.13``, ``HIPS autograd 1.9``) except for 0.x releases, whose third number is the release
    (``DeZero 0.0.13``)."""
    name = NAMES[key]
    found = version(key) if key in DISTRIBUTIONS else None
    if found is None:
        return name
    parts = found.split("+")[0].split(".")
    return f"{name} {'.'.join(parts if parts[0] == '0' else parts[:2])}"


# ---------------------------------------------------------------------------------------------------
# Benchmark 2: the 1,000-op chain (bench_op_overhead.py), forward and backward timed apart
# ---------------------------------------------------------------------------------------------------

def dezero_chain_timer(dezero, ops):
    """``run() -> (forward s, backward s, CPU s, gradient)``: the chain ``* 0.9, + 0.1, tanh`` in DeZero."""
    F = dezero.functions

    def run():
        x = dezero.Variable(np.array([1.0]))
        start_cpu = time.process_time()
        start = time.perf_counter()
        loss = F.sum(_common.elementwise_chain(x, F.tanh, ops))
        middle = time.perf_counter()
        loss.backward()
        end = time.perf_counter()
        cpu = time.process_time() - start_cpu
        return middle - start, end - middle, cpu, float(x.grad.data[0])
    return run


def hips_chain_timer(autograd, ops):
    """The same chain in HIPS autograd: the forward pass is ``make_vjp(f, x)`` (it traces ``f``), the
    backward pass the ``vjp(1.0)`` call."""
    anp, make_vjp = autograd.numpy, autograd.core.make_vjp

    def chain(x):
        return anp.sum(_common.elementwise_chain(x, anp.tanh, ops))

    def run():
        x = np.array([1.0])
        start_cpu = time.process_time()
        start = time.perf_counter()
        vjp, _ = make_vjp(chain, x)
        middle = time.perf_counter()
        grad = vjp(1.0)
        end = time.perf_counter()
        cpu = time.process_time() - start_cpu
        return middle - start, end - middle, cpu, float(grad[0])
    return run


CHAIN_TIMERS = {DEZERO: dezero_chain_timer, HIPS: hips_chain_timer}


# ---------------------------------------------------------------------------------------------------
# Benchmark 3: backward through deep chains ``y = y * 1.0`` (bench_deep_chain.py)
# ---------------------------------------------------------------------------------------------------

def dezero_deep_chain(dezero, length):
    """(wall s, CPU s) of DeZero's ``backward()`` through ``length`` multiplications by 1.0."""
    x = dezero.Variable(np.array([1.0]))
    y = x
    for _ in range(length):
        y = y * 1.0
    loss = dezero.functions.sum(y)
    start, start_cpu = time.perf_counter(), time.process_time()
    loss.backward()
    elapsed, elapsed_cpu = time.perf_counter() - start, time.process_time() - start_cpu
    assert float(x.grad.data[0]) == 1.0
    return elapsed, elapsed_cpu


def hips_deep_chain(autograd, length):
    """(wall s, CPU s) of HIPS autograd's backward pass (``vjp(1.0)``) through the same chain."""
    anp = autograd.numpy

    def chain(x):
        y = x
        for _ in range(length):
            y = y * 1.0
        return anp.sum(y)

    vjp, _ = autograd.core.make_vjp(chain, np.array([1.0]))
    start, start_cpu = time.perf_counter(), time.process_time()
    grad = vjp(1.0)
    elapsed, elapsed_cpu = time.perf_counter() - start, time.process_time() - start_cpu
    assert float(grad[0]) == 1.0
    return elapsed, elapsed_cpu


DEEP_CHAINS = {DEZERO: dezero_deep_chain, HIPS: hips_deep_chain}


# ---------------------------------------------------------------------------------------------------
# Benchmark 1 and the spiral step: an MLP's SGD step (bench_mlp_step.py, bench_small_step.py)
# ---------------------------------------------------------------------------------------------------

def dezero_mlp_step(dezero, weights, x, y, activation, lr):
    """One SGD step of an MLP in DeZero, as its book writes the training loop; returns the loss.

    ``weights`` are ``[w1, b1, w2, b2, ...]`` in PyTorch's layout (weight ``(out, in)``, float32), the
    activation (``"relu"`` or ``"tanh"``) goes between the layers, the loss is the cross-entropy. DeZero's
    ``Linear`` computes ``x @ W + b`` with ``W`` of shape ``(in, out)``: it gets each weight transposed
    (a contiguous copy, as its own initialisation makes). The labels are given as uint8, the dtype of
    DeZero's MNIST loader: ``softmax_cross_entropy``'s backward subtracts a one-hot of the labels' dtype
    from the float32 softmax, which int64 labels would turn into float64. Under numpy 2 its backward
    runs in float64 all the same: it scales the incoming gradient by ``1/N``, a float64 0-d array
    (``as_array``), and numpy 2 (NEP 50) no longer keeps float32 * float64 0-d arrays in float32 as
    numpy 1 did; every gradient DeZero makes here, and the products that make them, are float64
    (the forward pass and the weights stay float32).
    """
    F = dezero.functions
    pairs = list(zip(weights[::2], weights[1::2], strict=True))
    act = F.relu if activation == "relu" else F.tanh
    model = dezero.models.MLP([w.shape[0] for w, _ in pairs], activation=act)
    for layer, (w, b) in zip(model.layers, pairs, strict=True):
        layer.in_size = w.shape[1]
        layer.W.data = np.ascontiguousarray(w.T, dtype=np.float32)
        layer.b.data = np.array(b, dtype=np.float32)
    optimizer = dezero.optimizers.SGD(lr).setup(model)
    labels = y.astype(np.uint8)
    assert (labels == y).all()

    def step():
        loss = F.softmax_cross_entropy(model(x), labels)
        model.cleargrads()
        loss.backward()
        optimizer.update()
        return float(loss.data)

    return step


def hips_mlp_step(autograd, weights, x, y, activation, lr):
    """One SGD step of the same MLP in HIPS autograd: a loss function of the list of weight arrays,
    ``value_and_grad``, and the update ``w -= lr * g`` in numpy; returns the loss."""
    anp = autograd.numpy
    params = [np.array(w, dtype=np.float32) for w in weights]
    rows = np.arange(len(y))

    def loss_fn(params):
        h = x
        for index in range(0, len(params), 2):
            if index:
                h = anp.maximum(h, 0) if activation == "relu" else anp.tanh(h)
            h = anp.dot(h, params[index].T) + params[index + 1]
        shifted = h - anp.max(h, axis=1, keepdims=True)
        log_probs = shifted - anp.log(anp.sum(anp.exp(shifted), axis=1, keepdims=True))
        return -anp.mean(log_probs[rows, y])

    value_and_grad = autograd.value_and_grad(loss_fn)

    def step():
        loss, grads = value_and_grad(params)
        for param, grad in zip(params, grads, strict=True):
            param -= lr * grad
        return float(loss)

    return step


MLP_STEPS = {DEZERO: dezero_mlp_step, HIPS: hips_mlp_step}


def mlp_steps(peers, weights, x, y, activation, lr):
    """``{key: step}`` for the peers in ``peers`` (PyTorch is left to the scripts)."""
    return {key: MLP_STEPS[key](module, weights, x, y, activation, lr)
            for key, module in peers.items() if key in MLP_STEPS}
