"""Small tools the step checks share: numbers out of tensors, finite differences, the reference engine."""
import contextlib
import os
import sys
import weakref

import numpy as np

import mini_autograd
from .i18n import _
from .package import Wrong


def deepest_nesting(package, function, *arguments):
    """``function(*arguments)``'s result, and how deeply calls of ``package``'s own code nested while it ran:
    1 or 2 for a walk that keeps its own stack, about one level per node for a recursive one (which raising
    ``sys.setrecursionlimit`` lets through 10,000 nodes, but not through PyTorch's unlimited depth)."""
    folder = os.path.dirname(os.path.abspath(package.__file__))
    depth = deepest = 0
    ours = {}                              # code object -> whether it is the package's own code

    def profile(frame, event, _arg):
        nonlocal depth, deepest
        if event not in ("call", "return"):
            return
        code = frame.f_code
        if code not in ours:
            ours[code] = os.path.abspath(code.co_filename).startswith(folder)
        if ours[code]:
            depth += 1 if event == "call" else -1
            deepest = max(deepest, depth)
    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        result = function(*arguments)
    finally:
        sys.setprofile(previous)
    return result, deepest


def node_comparisons(package, function, *arguments):
    """``function(*arguments)``'s result, and how many times two nodes were compared with ``==`` while it
    ran: none when nodes sit in sets and dicts (found by hash and identity), about n * n / 2 when a list
    of n nodes is searched with ``in``, which makes a walk quadratic."""
    node_class = package.function.Node
    own = {name: node_class.__dict__[name] for name in ("__eq__", "__hash__") if name in node_class.__dict__}
    count = 0

    def counted(self, other):
        nonlocal count
        count += 1
        return own["__eq__"](self, other) if "__eq__" in own else self is other
    node_class.__eq__ = counted
    node_class.__hash__ = own.get("__hash__", object.__hash__)
    try:
        result = function(*arguments)
    finally:
        for name in ("__eq__", "__hash__"):
            if name in own:
                setattr(node_class, name, own[name])
            else:
                delattr(node_class, name)
    return result, count


DEPTH_PROBE = 500     # operations: a walk that calls itself once per node nests about this deep


def probe_walk(package, walk, factor):
    """``(deepest, compared)``: how deeply ``walk`` nests the learner's calls (``deepest_nesting``) and how
    often it compares nodes with ``==`` (``node_comparisons``), on a chain of ``DEPTH_PROBE``
    multiplications by ``factor``. The probes watch every call, so a short chain will do, and it runs
    before the long ones so that a quadratic walk fails fast."""
    short = package.tensor(1.0, dtype=package.float64, requires_grad=True)
    for _step in range(DEPTH_PROBE):
        short = short * factor
    _result, deepest = deepest_nesting(package, walk, short.grad_fn)
    _result, compared = node_comparisons(package, walk, short.grad_fn)
    return deepest, compared


def probe_run(package, backward):
    """How deeply ``backward(package, out)`` nests the learner's calls (``deepest_nesting``) on a chain of
    ``DEPTH_PROBE`` additions: a run that calls itself once per node nests about that deep."""
    out = package.tensor(1.0, dtype=package.float64, requires_grad=True)
    for _step in range(DEPTH_PROBE):
        out = out + 1.0
    _result, deepest = deepest_nesting(package, backward, package, out)
    return deepest


def weak_references(**objects):
    """``{name: weakref.ref(object)}`` of the objects that take weak references (a node of your package
    whose class has ``__slots__`` may not: it is left out)."""
    found = {}
    for name, value in objects.items():
        with contextlib.suppress(TypeError):
            found[name] = weakref.ref(value)
    return found


def left_alive(package, backward=False):
    """The names, among x, y, out (and x.grad) and the nodes, of what is still alive once the function that
    made ``x = tensor([1., 2.], requires_grad=True); y = x * 2.0; out = (y * y).sum()`` (then ran
    ``out.backward()``, with ``backward``) has returned. No gc.collect(): PyTorch frees them all by
    reference counting."""
    def made():
        x = package.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2.0
        out = (y * y).sum()
        if backward:
            out.backward()
        return weak_references(x=x, y=y, out=out, **{"x.grad": x.grad, "y.grad_fn": y.grad_fn,
                                                      "out.grad_fn": out.grad_fn})
    return [name for name, ref in made().items() if ref() is not None]


def values(t):
    """The numbers of a learner's tensor (or mini_autograd's, or a plain number) as a numpy array."""
    if t is None:
        return None
    return np.asarray(array_of(t), dtype=float)


def array_of(t):
    """The numpy array behind a tensor (myautograd's, mini_autograd's or PyTorch's), not a copy."""
    data = getattr(t, "_data", None)
    if data is None and hasattr(t, "detach"):       # a PyTorch tensor
        return t.detach().numpy()
    return t if data is None else data


def show(array):
    """Numbers as a short list for a message: ``[4.5, 4.5]`` or ``4.5``."""
    array = np.round(np.asarray(array, dtype=float), 4)
    return array.tolist() if array.ndim else float(array)


def expect(condition, message):
    if not condition:
        raise Wrong(message)


def expect_close(got, want, message):
    """``got`` (a tensor, an array or None) equals ``want``; the message gets both, formatted."""
    if got is None:
        raise Wrong(message.format(got="None", want=show(want)))
    got_values = values(got)
    want = np.asarray(want, dtype=float)
    if got_values.shape != want.shape or not np.allclose(got_values, want, rtol=1e-4, atol=1e-5):
        raise Wrong(message.format(got=show(got_values), want=show(want)))


def expect_raises(make, error_type, words, what):
    """``make()`` raises ``error_type`` whose message starts with PyTorch's ``words``."""
    try:
        make()
    except error_type as error:
        if not str(error).startswith(words):
            raise Wrong(_("{what} raised {error_type}({error!r}); PyTorch's words are {words!r}").format(
                what=what, error_type=error_type.__name__, error=str(error), words=words)) from None
        return
    except NotImplementedError:
        raise
    except Exception as error:                       # another error, from deeper in the code
        raise Wrong(_("{what} raised {raised}: {error}, where PyTorch raises {error_type}: {words}. "
                      "PyTorch tests for this case first: test for it before the line that raised, and raise "
                      "PyTorch's error there.").format(
                          what=what, raised=type(error).__name__, error=error, error_type=error_type.__name__,
                          words=words)) from None
    raise Wrong(_("{what} raised nothing; PyTorch raises {error_type}: {words}").format(
        what=what, error_type=error_type.__name__, words=words))


@contextlib.contextmanager
def recording_off(package):
    """Recording switched off by hand, as ``no_grad`` does (the learner's no_grad may not exist yet)."""
    package.grad_mode._state.grad_enabled = False
    try:
        yield
    finally:
        package.grad_mode._state.grad_enabled = True


def grad_of(t):
    """A tensor's .grad without the non-leaf warning."""
    return t._grad


def numeric_vjp(make, inputs, upstream, index, eps=1e-6):
    """Finite differences: the gradient of sum(upstream * make(*inputs)) with respect to inputs[index].

    ``make`` runs on mini_autograd float64 tensors; the differences are mini_autograd's
    ``gradcheck.numerical_jacobian``.
    """
    from mini_autograd.autograd.gradcheck import numerical_jacobian
    tensors = [mini_autograd.tensor(np.asarray(a, dtype=float), dtype=mini_autograd.float64) for a in inputs]
    jacobian = numerical_jacobian(make, tensors, index, 0, eps)
    return (np.ravel(upstream) @ jacobian).reshape(np.shape(inputs[index]))


def reference():
    """mini_autograd, the reference engine."""
    return mini_autograd


def walk_nodes(root):
    """Every node reachable from ``root``, breadth first, each once (the same numbering for both engines)."""
    from mini_autograd.viz.walk import number_nodes     # (viz is not loaded by import mini_autograd)
    return list(number_nodes([root]))


def node_names(node):
    """Breadth-first list of (name, [next names or None]) from ``node``: a graph's shape, comparable."""
    return [(n.name(), [None if m is None else m.name() for m, _ in n.next_functions])
            for n in walk_nodes(node)]


def blocking_function(m):
    """A Function (yours) whose backward sends no gradient back: it returns None."""
    class Block(m.Function):
        @staticmethod
        def forward(ctx, a):
            return m.Tensor(a._data * 1.0)

        @staticmethod
        def backward(ctx, grad):
            return None
    return Block


class TooManyWalks(BaseException):
    """A walk read the graph's edges far more often than the graph has nodes (not an ``Exception``: the
    learner's ``except Exception`` cannot swallow it)."""


def count_edge_reads(root, budget):
    """Make the edges of every node below ``root`` count how often they are read; past ``budget`` reads in
    all, reading raises ``TooManyWalks``. A count, not a time: the same code gets the same verdict anywhere.
    The edges stay a tuple (a subclass of it), so the engine sees nothing else."""
    reads = [0]

    def read():
        reads[0] += 1
        if reads[0] > budget:
            raise TooManyWalks(reads[0])

    class CountedEdges(tuple):
        def __iter__(self):
            read()
            return super().__iter__()

        def __getitem__(self, index):
            read()
            return super().__getitem__(index)

    for node in walk_nodes(root):
        node.next_functions = CountedEdges(node.next_functions)
    return reads


def count_order_comparisons(root, budget):
    """Make the sequence number of every node below ``root`` count how often it is compared (``<``, ``==``,
    ... also once negated, as in a heap's ``(-node.sequence_nr, ...)`` tuples); past ``budget`` comparisons
    in all, comparing raises ``TooManyWalks``. A count, not a time: a ready queue sorted or heapified at each
    step compares about as often as it has entries, a heap about the logarithm of that. The numbers stay
    ints (a subclass), so the engine sees nothing else. ``[count]``, or None where a node's sequence_nr
    cannot be replaced."""
    compared = [0]

    def counted(operation):
        def compare(self, other):
            compared[0] += 1
            if compared[0] > budget:
                raise TooManyWalks(compared[0])
            return getattr(int, operation)(self, other)
        return compare

    class CountedNumber(int):
        __hash__ = int.__hash__

        def __neg__(self):
            return CountedNumber(-int(self))

    for operation in ("__lt__", "__le__", "__gt__", "__ge__", "__eq__", "__ne__"):
        setattr(CountedNumber, operation, counted(operation))
    try:
        for node in walk_nodes(root):
            node.sequence_nr = CountedNumber(node.sequence_nr)
    except (AttributeError, TypeError):
        return None
    return compared


def doubling_graph(m, times):
    """``h = x * 1.0``, then ``h = h + h``, ``times`` times, from a float64 leaf x (used once: before step
    04.1 a leaf used twice gets two AccumulateGrads): ``times + 2`` nodes, ``2 ** times`` paths."""
    x = m.tensor(1.0, dtype=m.float64, requires_grad=True)
    h = x * 1.0
    for _step in range(times):
        h = h + h
    return x, h


def in_new_thread(make):
    """``make()`` run in a thread of its own (each thread numbers the nodes it makes from 0: sequence_nr)."""
    import threading
    out = []
    worker = threading.Thread(target=lambda: out.append(make()))
    worker.start()
    worker.join()
    return out[0]


# ------------------------------------------------ the engine's order, and the nodes named
def record_order(out, prehook, label=None):
    """Hooks on every node of ``out``'s graph; the list they fill with node names (or ``label(node)``)
    as the engine runs them."""
    names = []
    for node in walk_nodes(out.grad_fn):
        name = node.name() if label is None else label(node)
        prehook(node, lambda *args, name=name: names.append(name))
    return names


def learner_prehook(node, record):
    node.pre_hooks.append(lambda grad: record())


def reference_prehook(node, record):
    """mini_autograd's (and PyTorch's) hooks: a leaf's tensor hook stands for its AccumulateGrad's.

    A node that only None reached is recorded too: PyTorch runs it, its hooks called with None, as your
    engine does from step 08.2 on."""
    if node.name().endswith("AccumulateGrad"):
        node.variable.register_hook(lambda grad: record())
    else:
        node.register_prehook(lambda grads: record())


def label_shown(label):
    """A node's label (``node_label``, which stays in English: the two packages' runs compare them) in the
    learner's language: ``MulBackward0 of `t2 = a * b```."""
    name, of, made = label.partition(" of ")
    return _("{node} of {made}").format(node=name, made=made) if of else label


def labels_shown(labels):
    """A list of labels, printed as a list (``['SumBackward0', 'AccumulateGrad of x']``)."""
    return "[" + ", ".join(repr(label_shown(label)) for label in labels) + "]"


def node_label(node, namespace, made_by):
    """``MulBackward0 of `t2 = a * b```, ``AccumulateGrad of a``, or the bare name of an unnamed node."""
    name = node.name().rsplit("::", 1)[-1]
    for variable, value in namespace.items():
        if getattr(value, "grad_fn", None) is node and variable in made_by:
            return f"{name} of `{made_by[variable]}`"
        if value is getattr(node, "variable", None):
            return f"{name} of {variable}"
    return name
