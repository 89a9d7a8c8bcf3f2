"""Checks of chapters 01 (the tensor and the recording rule) and 02 (nodes, edges, Function.apply)."""
import contextlib
import weakref

import numpy as np

from ._testing import expect, expect_raises, grad_of, left_alive, node_names, recording_off, reference
from .package import Wrong
from .steps import step
from .i18n import _

FLOAT_ONLY = "Only Tensors of floating point and complex dtype can require gradients"
# Tensors PyTorch refuses to let require grad (torch.tensor(True, requires_grad=True) raises), and some it
# accepts: (how the learner would write it, the value).
NOT_FLOATING = [("tensor(True, requires_grad=True)", True),
                ("tensor(np.uint8(3), requires_grad=True)", np.uint8(3)),
                ("tensor(np.array([1, 2], dtype=np.int8), requires_grad=True)",
                 np.array([1, 2], dtype=np.int8)),
                ("tensor(np.array([1, 2], dtype=np.int32), requires_grad=True)",
                 np.array([1, 2], dtype=np.int32)),
                ("tensor([True, False], requires_grad=True)", [True, False]),
                ("tensor(np.array([], dtype=np.int64), requires_grad=True)", np.array([], dtype=np.int64))]
FLOATING = [("tensor(np.array([1.0, 2.0]), requires_grad=True)", np.array([1.0, 2.0]))]      # float64


@step("01.1", "a tensor's autograd fields", "Tensor.__init__ in tensor.py")
def check_tensor_fields(m):
    x = m.tensor(2.0, requires_grad=True)
    for field in ("requires_grad", "_grad", "grad_fn"):
        expect(hasattr(x, field), _("a Tensor has no field {field!r}: set self.{field} in __init__.")
               .format(field=field))
    expect(x.requires_grad is True, _("tensor(2.0, requires_grad=True).requires_grad is "
           "{x_requires_grad!r}, expected True: store the switch you were given.")
           .format(x_requires_grad=x.requires_grad))
    expect(m.tensor(2.0).requires_grad is False, _("tensor(2.0).requires_grad must be False: "
           "tracking is off unless asked for."))
    expect(grad_of(x) is None, _("a new tensor's .grad is {x_grad!r}, expected None: nothing has been "
           "computed yet, and PyTorch says so with None (not 0).").format(x_grad=grad_of(x)))
    expect(x.grad_fn is None, _("a tensor you create has grad_fn {x_grad_fn!r}, expected None: "
           "no operation made it.").format(x_grad_fn=x.grad_fn))
    expect_raises(lambda: m.tensor(2, requires_grad=True), RuntimeError, FLOAT_ONLY,
                  _("tensor(2, requires_grad=True) (an integer tensor)"))
    # Every dtype that is not floating point is refused, not only int64: bools and the other integers too.
    for made, value in NOT_FLOATING:
        expect_raises(lambda value=value: m.tensor(value, requires_grad=True), RuntimeError, FLOAT_ONLY,
                      _("{made} (dtype {dtype}, not floating point)").format(
                          made=made, dtype=np.asarray(value).dtype))
    for made, value in FLOATING:
        try:
            m.tensor(value, requires_grad=True)
        except RuntimeError as error:
            raise Wrong(_("{made} raised RuntimeError: {error}. {dtype} is a floating-point dtype, and "
                          "PyTorch lets it require grad: ask self.dtype.is_floating_point, not for one dtype "
                          "by name.")
                        .format(made=made, error=error, dtype=np.asarray(value).dtype)) from None
    try:
        integer = m.tensor(2)
    except RuntimeError as error:
        raise Wrong(_("tensor(2) raised RuntimeError: {error}. An integer tensor is fine as long as it does "
                      "not ask to require grad: test requires_grad too.").format(error=error)) from None
    expect(integer.requires_grad is False, _("tensor(2).requires_grad must be False."))
    return _("A tensor carries requires_grad, .grad and grad_fn, and integers cannot require grad.")


@step("01.2", "the recording rule", "compute_requires_grad in function.py")
def check_recording_rule(m):
    x = m.tensor(2.0, requires_grad=True)
    c = m.tensor(3.0)
    def rule(*inputs):
        try:
            return m.compute_requires_grad(*inputs)
        except AttributeError as error:
            raise Wrong(_("compute_requires_grad{args} raised AttributeError ({error}): inputs can be plain "
                          "numbers, which never require grad (check isinstance(t, Tensor) first).")
                          .format(args=_args(inputs), error=error)) from None

    answer = rule(x, c)
    expect(bool(answer), _("compute_requires_grad(x, c) is False, expected True: one input that "
           "requires grad is enough."))
    expect(answer is True, _("compute_requires_grad(x, c) returned {answer!r}: return True or False "
           "(a list or a tensor would end up in requires_grad and print wrongly).").format(answer=answer))
    neither = rule(c, c)
    expect(not neither, _("compute_requires_grad(c, c) is {neither!r}, expected False: neither input "
           "requires grad. Recording being on is not enough: both must hold, recording on and an input that "
           "requires grad.").format(neither=neither))
    expect(neither is False, _("compute_requires_grad(c, c) returned {neither!r}: return True or False.")
           .format(neither=neither))
    expect(bool(rule(2.0, x)), _("compute_requires_grad(2.0, x) is False, expected True: x requires grad."))
    expect(not rule(c, 2.0), _("compute_requires_grad(c, 2.0) is True, expected False: "
           "neither input requires grad."))
    expect(bool(rule(c, 2.0, c, x)), _("compute_requires_grad(c, 2.0, c, x) is False, expected True: the "
           "fourth input requires grad. Look at every input, however many there are."))
    with recording_off(m):
        off = rule(x, c)
    expect(not off, _("with recording switched off (as inside no_grad), compute_requires_grad(x, c) is True, "
           "expected False: check is_grad_enabled() too."))

    class Subclass(m.Tensor):                       # as nn.Parameter is (step 10.1)
        pass
    p = Subclass(np.array([1.0, 2.0], dtype=np.float32), requires_grad=True)
    expect(bool(rule(p, c)), _("compute_requires_grad(p, c), with p an instance of a subclass of Tensor "
           "that requires grad (as nn.Parameter is, step 10.1), is False, expected True: a subclass's "
           "instance is a Tensor too (test isinstance(t, Tensor), not type(t) is Tensor)."))
    return _("A result requires grad when an input does and recording is on.")


def _check_forward_around(m):
    """What PyTorch's apply does around a forward written with Tensor operations (step 11.2 writes one)."""
    seen = []

    class Peek(m.Function):
        @staticmethod
        def forward(ctx, a):
            seen.append(m.grad_mode.is_grad_enabled())
            return a * 2

        @staticmethod
        def backward(ctx, grad):
            return grad * 2

    class Fails(m.Function):
        @staticmethod
        def forward(ctx, a):
            raise ValueError("forward failed")

    class Same(m.Function):
        @staticmethod
        def forward(ctx, a):
            return a

        @staticmethod
        def backward(ctx, grad):
            return grad

    class Fresh(m.Function):
        @staticmethod
        def forward(ctx, a):
            return m.Tensor(a._data * 2, requires_grad=True)

    x = m.tensor([1.0, 2.0], requires_grad=True)
    Peek.apply(x)
    expect(seen == [False], _("inside forward, is_grad_enabled() is True: PyTorch runs forward with "
           "recording off (set_grad_enabled(False), and the mode from before put back in a finally), so that "
           "the operations forward uses are not recorded, only the Function's own node."))
    expect(m.grad_mode.is_grad_enabled() is True, _("after Function.apply, recording is off: put back the "
           "mode from before the call."))
    with contextlib.suppress(ValueError):
        Fails.apply(x)
    expect(m.grad_mode.is_grad_enabled() is True, _("after a forward that raised, recording is still off: "
           "put the mode back in a finally, which runs whether forward returns or raises."))
    same = Same.apply(x)
    expect(same is not x, _("Same.apply(x), whose forward returns its input as it is, returned x itself; "
           "PyTorch returns a new tensor over the same numbers (Tensor(result._data)) and records the node "
           "on it, so that x stays what it was."))
    expect(x.grad_fn is None and x.is_leaf, _("after Same.apply(x), whose forward returns its input as it "
           "is, x has a grad_fn: the node belongs on a new tensor over x's numbers, and x stays a leaf."))
    expect(same.grad_fn is not None and np.shares_memory(same._data, x._data), _("Same.apply(x), whose "
           "forward returns its input as it is, must give a tensor that shares x's numbers "
           "(Tensor(result._data)) and has the node as its grad_fn."))
    x._version += 1                                 # what an in-place change of x does (step 07.1)
    expect(same._version == x._version, _("after same = Same.apply(x), whose forward returns its input as "
           "it is, an in-place change of x leaves same._version at {same_version} and x._version at "
           "{x_version}; in PyTorch same is a view of x and shares its version counter "
           "(view._version_counter = result._version_counter), so a change of either shows on both.")
           .format(same_version=same._version, x_version=x._version))
    c = m.tensor([1.0, 2.0])
    fresh = Fresh.apply(c)
    expect(fresh.requires_grad is False, _("Fresh.apply(c), whose forward returns Tensor(..., "
           "requires_grad=True) while no input requires grad, gives a result that requires grad; PyTorch's "
           "does not: when nothing is recorded, the result's requires_grad is False."))
    plain = Same.apply(c)
    expect(plain is not c, _("Same.apply(c), whose forward returns its input as it is, returned c itself "
           "when no input requires grad; PyTorch returns a new tensor over c's numbers whether a node is "
           "recorded or not."))
    c._version += 1                                 # what an in-place change of c does (step 07.1)
    expect(plain._version == c._version, _("after plain = Same.apply(c), with no input requiring grad, an "
           "in-place change of c leaves plain._version at {plain_version} and c._version at {c_version}; "
           "PyTorch's result is a view of c whether a node is recorded or not, and shares c's version "
           "counter.").format(plain_version=plain._version, c_version=c._version))


def _check_lifetimes(m):
    """A node keeps its edges and what forward saved, nothing more: in PyTorch an input that does not require
    grad, and the result itself, are freed as soon as nobody else holds them (no cycle, no gc.collect())."""
    class Plus(m.Function):                          # saves nothing
        @staticmethod
        def forward(ctx, a, b):
            return m.Tensor(a._data + b._data)

        @staticmethod
        def backward(ctx, grad):
            return grad, grad

    x = m.tensor([1.0, 2.0], requires_grad=True)
    c = m.tensor([3.0, 4.0])
    c_ref = weakref.ref(c)
    y = Plus.apply(x, c)
    del c
    expect(c_ref() is None, _("y = Plus.apply(x, c), whose forward saves nothing, then del c: c is still "
           "alive, held by y's graph. A node keeps its edges and what forward saved, nothing more: apply "
           "must not keep the inputs on the node (ctx.inputs) or anywhere else."))
    y_ref = weakref.ref(y)
    del y
    expect(y_ref() is None, _("y = Plus.apply(x, c), then del y: y is still alive until the garbage "
           "collector runs; in PyTorch it is gone at once. The node must not hold its own result "
           "(ctx.output = result makes a cycle y -> grad_fn -> y): apply gives the result its grad_fn and "
           "keeps nothing of it."))
    # Nothing recorded, nothing kept: an input goes as soon as the program lets go of it.
    a, b = m.tensor([1.0, 2.0]), m.tensor([3.0, 4.0])
    product = a * b
    a_ref = weakref.ref(a)
    del a
    expect(a_ref() is None, _("a and b require no grad; c = a * b; del a: a is still alive (c is alive). "
           "Nothing was recorded, so in PyTorch nothing holds a: when no input requires grad, apply keeps "
           "no node (and nothing forward saved) anywhere."))
    del product, b
    # Once the program lets go of everything, everything goes: nothing kept on a class or in the module.
    alive = left_alive(m)
    expect(not alive, _("x = tensor([1., 2.], requires_grad=True); y = x * 2.0; out = (y * y).sum(), "
           "everything made in a function that then returns: {alive} still alive; in PyTorch all of it is "
           "gone at once. Does apply keep the last node (or ctx) on the class, or in a list of the "
           "module?").format(alive=", ".join(alive)))


def _args(inputs):
    return "(" + ", ".join("x" if hasattr(t, "grad_fn") and t.requires_grad else "c" if hasattr(t, "grad_fn")
                           else repr(t) for t in inputs) + ")"


@step("02.1", "edges: gradient_edge and AccumulateGrad", "gradient_edge in function.py")
def check_gradient_edge(m):
    x = m.tensor([1.0, 2.0], requires_grad=True)
    c = m.tensor([1.0, 2.0])
    edge = m.gradient_edge(c)
    expect(isinstance(edge, tuple) and len(edge) == 2, _("gradient_edge(c) returned {edge!r}; an edge is a "
           "pair (node, input_nr): (None, 0) for a tensor that needs no gradient.").format(edge=edge))
    expect(edge == (None, 0), _("gradient_edge(c) for a tensor that does not require grad is {edge!r}, "
           "expected (None, 0): no gradient goes there.").format(edge=edge))
    edge = m.gradient_edge(x)
    expect(isinstance(edge, tuple) and len(edge) == 2, _("gradient_edge(x) returned {edge!r}; an edge is a "
           "pair (node, input_nr).").format(edge=edge))
    node, input_nr = edge
    expect(isinstance(node, m.AccumulateGrad) and input_nr == 0, _("gradient_edge(x) for a leaf that "
           "requires grad is {edge!r}, expected (AccumulateGrad node, 0).").format(edge=edge))
    expect(node.variable is x, _("the AccumulateGrad node of x must hold x itself as .variable."))
    y = m.Tensor(np.ones(2, dtype=np.float32))
    y.requires_grad, y.grad_fn = True, m.Node()
    edge = m.gradient_edge(y)
    expect(edge == (y.grad_fn, 0), _("y has a grad_fn, so it is not a leaf: its edge is (y.grad_fn, 0), "
           "got {edge!r}. Check grad_fn before requires_grad.").format(edge=edge))
    with recording_off(m):
        edge = m.gradient_edge(x)
    expect(edge[0] is not None and isinstance(edge[0], m.AccumulateGrad), _("with recording off (inside "
           "no_grad), gradient_edge(x) for a leaf that requires grad is {edge!r}, expected (AccumulateGrad "
           "node, 0): an edge says where a gradient goes, whatever the mode; x.backward() works inside "
           "no_grad too.").format(edge=edge))
    return _("Edges lead to a grad_fn, to a leaf's AccumulateGrad, or nowhere: (None, 0).")


def _seed_graph(torch):
    x = torch.ones(2, 2, requires_grad=True)
    y = x + 2
    z = y * y * 3
    return x, y, z, z.mean()


@step("02.2", "Function.apply records a node", "Function.apply in function.py")
def check_function_apply(m):
    c = m.tensor([1.0, 2.0])
    constant = c * 3
    expect(constant.grad_fn is None and not constant.requires_grad, _("c * 3, with no input that requires "
           "grad, got a grad_fn or requires_grad: record a node only when compute_requires_grad(*inputs)."))
    x = m.tensor([1.0, 2.0], requires_grad=True)
    product = x * c
    expect(product.grad_fn is not None, _("x * c has no grad_fn though x requires grad: make the node the "
           "result's grad_fn."))
    expect(product.requires_grad is True, _("x * c has a grad_fn but requires_grad is not True: set both."))
    expect(c.requires_grad is False and c.grad_fn is None, _("after x * c, c.requires_grad is "
           "{c_requires_grad!r} and c.grad_fn is {c_grad_fn!r}: recording changes the result, never the "
           "inputs (c does not require grad, before or after).")
           .format(c_requires_grad=c.requires_grad, c_grad_fn=c.grad_fn))
    expect(product.grad_fn.name() == "MulBackward0", _("x * c's grad_fn is named {product_grad_fn_name!r}, "
           "expected 'MulBackward0'.").format(product_grad_fn_name=product.grad_fn.name()))
    edges = product.grad_fn.next_functions
    expect(type(edges) is tuple and all(type(edge) is tuple for edge in edges),
           _("x * c's next_functions is a {kind} of {inner}; PyTorch's is a tuple of (node, input_nr) "
             "tuples, which a program can print, compare and hash: make it with tuple(...).")
           .format(kind=type(edges).__name__,
                   inner=", ".join(sorted({type(edge).__name__ for edge in edges})) or "nothing"))
    expect(len(edges) == 2, _("MulBackward0 of x * c has {count} edge(s), expected 2: "
           "one edge per Tensor input, (None, 0) for an input that needs no gradient.")
           .format(count=len(edges)))
    expect(edges[1] == (None, 0) and isinstance(edges[0][0], m.AccumulateGrad),
           _("x * c's edges are {edges!r}: expected (AccumulateGrad of x, 0), then (None, 0) for c.")
           .format(edges=edges))
    square = x ** 2
    expect(getattr(square.grad_fn, "exponent", None) == 2, _("x ** 2's grad_fn does not know the exponent "
           "that Pow.forward stored on its ctx: the node must be the very ctx forward received."))
    expect(len(square.grad_fn.next_functions) == 1, _("x ** 2 has one Tensor input, so one edge; the "
           "exponent "
           "2 is a number and gets none (got {count}).").format(count=len(square.grad_fn.next_functions)))
    expect(tuple(getattr(product.grad_fn, "input_shapes", ())) == ((2,), (2,)), _("x * c's node must "
           "remember its Tensor inputs' shapes: ctx.input_shapes = ((2,), (2,))."))
    shapes = tuple(getattr(square.grad_fn, "input_shapes", ()))
    expect(shapes == ((2,),), _("x ** 2's node has input_shapes {shapes!r}, expected ((2,),): one shape per "
           "Tensor input, in the order of the edges; the exponent 2 is a number, with no edge and no "
           "shape (the engine pairs edge i with input_shapes[i]).").format(shapes=shapes))
    with recording_off(m):
        off = x * 3
    expect(off.grad_fn is None, _("with recording off, x * 3 still got a grad_fn: use "
                                  "compute_requires_grad."))
    _check_forward_around(m)
    _check_lifetimes(m)

    mine, ref = _seed_graph(m)[3], _seed_graph(reference())[3]
    expect(repr(mine) == repr(ref), _("out prints as {mine!r}; PyTorch prints {ref!r}.")
           .format(mine=mine, ref=ref))
    mine_shape, ref_shape = node_names(mine.grad_fn), node_names(ref.grad_fn)
    if mine_shape != ref_shape:
        raise Wrong(_("the seed graph (x + 2, y * y * 3, mean) differs from PyTorch's: "
                      "yours {mine_shape}, PyTorch's {ref_shape}.")
                      .format(mine_shape=mine_shape, ref_shape=ref_shape))
    return (_("The seed graph has PyTorch's node names and edges: "
              "MeanBackward0 → MulBackward0 → ... → AccumulateGrad."))
