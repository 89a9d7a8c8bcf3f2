"""Checks of chapters 01 (the tensor and the recording rule) and 02 (nodes, edges, Function.apply)."""
import numpy as np

from ._testing import expect, expect_raises, grad_of, node_names, recording_off, reference
from .framework import Wrong, step

FLOAT_ONLY = "Only Tensors of floating point and complex dtype can require gradients"


@step("01.1", "a tensor's autograd fields", "Tensor.__init__ in tensor.py")
def check_tensor_fields(m):
    x = m.tensor(2.0, requires_grad=True)
    for field in ("requires_grad", "_grad", "grad_fn"):
        expect(hasattr(x, field), f"a Tensor has no field {field!r}: set self.{field} in __init__.")
    expect(x.requires_grad is True, f"tensor(2.0, requires_grad=True).requires_grad is "
           f"{x.requires_grad!r}, expected True: store the switch you were given.")
    expect(m.tensor(2.0).requires_grad is False, "tensor(2.0).requires_grad must be False: "
           "tracking is off unless asked for.")
    expect(grad_of(x) is None, f"a new tensor's .grad is {grad_of(x)!r}, expected None: nothing has been "
           "computed yet, and PyTorch says so with None (not 0).")
    expect(x.grad_fn is None, f"a tensor you create has grad_fn {x.grad_fn!r}, expected None: "
           "no operation made it.")
    expect_raises(lambda: m.tensor(2, requires_grad=True), RuntimeError, FLOAT_ONLY,
                  "tensor(2, requires_grad=True) (an integer tensor)")
    try:
        integer = m.tensor(2)
    except RuntimeError as error:
        raise Wrong(f"tensor(2) raised RuntimeError: {error}. An integer tensor is fine as long as it does "
                    "not ask to require grad: test requires_grad too.") from None
    expect(integer.requires_grad is False, "tensor(2).requires_grad must be False.")
    return "A tensor carries requires_grad, .grad and grad_fn, and integers cannot require grad."


@step("01.2", "the recording rule", "compute_requires_grad in function.py")
def check_recording_rule(m):
    x = m.tensor(2.0, requires_grad=True)
    c = m.tensor(3.0)
    def rule(*inputs):
        try:
            return m.compute_requires_grad(*inputs)
        except AttributeError as error:
            raise Wrong(f"compute_requires_grad{_args(inputs)} raised AttributeError ({error}): "
                        "inputs can be plain numbers, which never require grad "
                        "(check isinstance(t, Tensor) first).") from None

    answer = rule(x, c)
    expect(bool(answer), "compute_requires_grad(x, c) is False, expected True: one input that "
           "requires grad is enough.")
    expect(answer is True, f"compute_requires_grad(x, c) returned {answer!r}: return True or False "
           "(a list or a tensor would end up in requires_grad and print wrongly).")
    expect(rule(c, c) is False, f"compute_requires_grad(c, c) returned {rule(c, c)!r}: return True or False.")
    expect(bool(rule(2.0, x)), "compute_requires_grad(2.0, x) is False, expected True: x requires grad.")
    expect(not rule(c, c), "compute_requires_grad(c, c) is True, expected False: "
           "neither input requires grad.")
    expect(not rule(c, 2.0), "compute_requires_grad(c, 2.0) is True, expected False: "
           "neither input requires grad.")
    with recording_off(m):
        off = rule(x, c)
    expect(not off, "with recording switched off (as inside no_grad), compute_requires_grad(x, c) is True, "
           "expected False: check is_grad_enabled() too.")
    return "A result requires grad when an input does and recording is on."


def _args(inputs):
    return "(" + ", ".join("x" if hasattr(t, "grad_fn") and t.requires_grad else "c" if hasattr(t, "grad_fn")
                           else repr(t) for t in inputs) + ")"


@step("02.1", "edges: gradient_edge and AccumulateGrad", "gradient_edge in function.py")
def check_gradient_edge(m):
    x = m.tensor([1.0, 2.0], requires_grad=True)
    c = m.tensor([1.0, 2.0])
    edge = m.gradient_edge(c)
    expect(isinstance(edge, tuple) and len(edge) == 2, f"gradient_edge(c) returned {edge!r}; an edge is a "
           "pair (node, input_nr): (None, 0) for a tensor that needs no gradient.")
    expect(edge == (None, 0), f"gradient_edge(c) for a tensor that does not require grad is {edge!r}, "
           "expected (None, 0): no gradient goes there.")
    edge = m.gradient_edge(x)
    expect(isinstance(edge, tuple) and len(edge) == 2, f"gradient_edge(x) returned {edge!r}; an edge is a "
           "pair (node, input_nr).")
    node, input_nr = edge
    expect(isinstance(node, m.AccumulateGrad) and input_nr == 0, f"gradient_edge(x) for a leaf that "
           f"requires grad is {edge!r}, expected (AccumulateGrad node, 0).")
    expect(node.variable is x, "the AccumulateGrad node of x must hold x itself as .variable.")
    y = m.Tensor(np.ones(2, dtype=np.float32))
    y.requires_grad, y.grad_fn = True, m.Node()
    edge = m.gradient_edge(y)
    expect(edge == (y.grad_fn, 0), f"y has a grad_fn, so it is not a leaf: its edge is (y.grad_fn, 0), "
           f"got {edge!r}. Check grad_fn before requires_grad.")
    return "Edges lead to a grad_fn, to a leaf's AccumulateGrad, or nowhere: (None, 0)."


def _seed_graph(torch):
    x = torch.ones(2, 2, requires_grad=True)
    y = x + 2
    z = y * y * 3
    return x, y, z, z.mean()


@step("02.2", "Function.apply records a node", "Function.apply in function.py")
def check_function_apply(m):
    c = m.tensor([1.0, 2.0])
    constant = c * 3
    expect(constant.grad_fn is None and not constant.requires_grad, "c * 3, with no input that requires "
           "grad, got a grad_fn or requires_grad: record a node only when compute_requires_grad(*inputs).")
    x = m.tensor([1.0, 2.0], requires_grad=True)
    product = x * c
    expect(product.grad_fn is not None, "x * c has no grad_fn though x requires grad: make the node the "
           "result's grad_fn.")
    expect(product.requires_grad is True, "x * c has a grad_fn but requires_grad is not True: set both.")
    expect(c.requires_grad is False and c.grad_fn is None, "after x * c, c.requires_grad is "
           f"{c.requires_grad!r} and c.grad_fn is {c.grad_fn!r}: recording changes the result, never the "
           "inputs (c does not require grad, before or after).")
    expect(product.grad_fn.name() == "MulBackward0", f"x * c's grad_fn is named {product.grad_fn.name()!r}, "
           "expected 'MulBackward0'.")
    edges = product.grad_fn.next_functions
    expect(len(edges) == 2, f"MulBackward0 of x * c has {len(edges)} edge(s), expected 2: "
           "one edge per Tensor input, (None, 0) for an input that needs no gradient.")
    expect(edges[1] == (None, 0) and isinstance(edges[0][0], m.AccumulateGrad),
           f"x * c's edges are {edges!r}: expected (AccumulateGrad of x, 0), then (None, 0) for c.")
    square = x ** 2
    expect(getattr(square.grad_fn, "exponent", None) == 2, "x ** 2's grad_fn does not know the exponent "
           "that Pow.forward stored on its ctx: the node must be the very ctx forward received.")
    expect(len(square.grad_fn.next_functions) == 1, "x ** 2 has one Tensor input, so one edge; the exponent "
           f"2 is a number and gets none (got {len(square.grad_fn.next_functions)}).")
    expect(tuple(getattr(product.grad_fn, "input_shapes", ())) == ((2,), (2,)), "x * c's node must "
           "remember its Tensor inputs' shapes: ctx.input_shapes = ((2,), (2,)).")
    with recording_off(m):
        off = x * 3
    expect(off.grad_fn is None, "with recording off, x * 3 still got a grad_fn: use compute_requires_grad.")

    mine, ref = _seed_graph(m)[3], _seed_graph(reference())[3]
    expect(repr(mine) == repr(ref), f"out prints as {mine!r}; PyTorch prints {ref!r}.")
    mine_shape, ref_shape = node_names(mine.grad_fn), node_names(ref.grad_fn)
    if mine_shape != ref_shape:
        raise Wrong("the seed graph (x + 2, y * y * 3, mean) differs from PyTorch's: "
                    f"yours {mine_shape}, PyTorch's {ref_shape}.")
    return ("The seed graph has PyTorch's node names and edges: "
            "MeanBackward0 → MulBackward0 → ... → AccumulateGrad.")
