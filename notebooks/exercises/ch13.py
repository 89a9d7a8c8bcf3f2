"""The checks of chapter 13's exercises (13.1 to 13.3), run by their check cells: ``check_exercise("13.1")``."""
import threading

import mini_autograd as torch
from coursetools import check_answer

from . import exercise


def _nodes(root):
    seen, stack = [], [root]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.append(node)
        stack.extend(next_node for next_node, _ in node.next_functions)
    return seen


@exercise("13.1")
def check_13_1(answer_13_1):
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0, 4.0], requires_grad=True)
    y = (a.exp() * b.sin()).sum()
    ran = []
    for node in _nodes(y.grad_fn):
        node.register_prehook(lambda grads, node=node: ran.append(node))
    torch.autograd.grad(y, b)
    check_answer(answer_13_1, len(ran),
                 right="SumBackward0, MulBackward0 and SinBackward0: the gradient of b is captured at its "
                       "AccumulateGrad, which does not run.",
                 hint="Count the nodes on a path from y to b, and remember what autograd.grad does with the "
                      "gradient that arrives at b's own node.")


@exercise("13.2")
def check_13_2(answer_13_2):
    idents = set()

    class Nest(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, level):
            ctx.level = level
            return x.clone()

        @staticmethod
        def backward(ctx, grad):
            idents.add(threading.get_ident())
            if ctx.level < 130:
                with torch.enable_grad():
                    inner = torch.ones(1, requires_grad=True)
                    torch.autograd.grad(Nest.apply(inner, ctx.level + 1).sum(), inner)
            return grad, None

    x = torch.ones(1, requires_grad=True)
    Nest.apply(x, 0).sum().backward()
    check_answer(answer_13_2, len(idents),
                 right="Levels 0 to 60 on the first thread, 61 to 121 on a second, 122 to 130 on a third.",
                 hint="Each thread runs at most MAX_DEPTH nested levels after the one it starts with, and the "
                      "count starts again on a new thread.")


@exercise("13.3")
def check_13_3(answer_13_3):
    w = torch.randn(4, 3).t().detach().requires_grad_()
    (w ** 2).sum().backward()
    check_answer(answer_13_3, w.grad.stride(),
                 right="The transposed w is one dense block with strides (1, 3); its first gradient gets "
                       "the same strides.",
                 hint="Work out w.stride() first: w is the transpose of a row-major 4x3 matrix. Then read "
                      "the Gradient Layout Contract in section 1c.")
