"""The checks of chapter 09's exercises (9.1 to 9.3), run by their check cells: ``check_exercise("9.1")``."""
import numpy as np

import mini_autograd as torch
from coursetools import can_check, check, check_answer, run_check, tr

from . import exercise


@exercise("9.1")
def check_9_1(answer_9_1, *, forward, node_names):
    x_c = torch.tensor([3.0, 1.0], requires_grad=True)
    check_answer(answer_9_1, len(node_names(forward(x_c))),
                 right="h = [4.5, 1.5] is halved twice (2 DivBackward0), the sum is positive (TanhBackward0): "
                       "Sum, 3 × Mul (power), Tanh, 2 × Div, Mul (x * 1.5), AccumulateGrad = 9.",
                 hint="Follow the code: h = x * 1.5; how many halvings until max |h| <= 2? Which branch? "
                      "Then add the 3 multiplications of power(h, 5), the sum and the AccumulateGrad.")


def is_squaring(node):
    """x * x (a MulBackward0 with both edges to one node) or x ** 2 (a PowBackward0 of exponent 2)."""
    if node.name() == "MulBackward0":
        (first, _first_nr), (second, _second_nr) = node.next_functions
        return first is not None and first is second
    return node.name() == "PowBackward0" and node._saved_exponent == 2


def check_square_until_big(fn):
    """(True, "") when fn squares while below 100, else (False, what went wrong for which input)."""
    for start, squarings in [(2.0, 3), (1.5, 4), (200.0, 0)]:
        x = torch.tensor(start, requires_grad=True)
        y = fn(x)
        if y is None:
            return False, "square_until_big returned None: did you forget `return x` at the end?"
        if not isinstance(y, torch.Tensor):
            return False, f"square_until_big returned a {type(y).__name__}, not a tensor."
        nodes, queue = [], [y.grad_fn]                   # every node of y's graph, once
        while queue:
            node = queue.pop()
            if node is not None and node not in nodes:
                nodes.append(node)
                queue.extend(next_node for next_node, _input_nr in node.next_functions)
        found = sum(is_squaring(node) for node in nodes)
        others = [node.name() for node in nodes
                  if not is_squaring(node) and not node.name().endswith("AccumulateGrad")]
        if others:
            listed = ", ".join(f"{others.count(name)} x {name}" for name in dict.fromkeys(others))
            return False, (f"For x = {start:g} the graph has nodes that are not squarings: {listed}. "
                           "A squaring is x * x (both factors the same tensor) or x ** 2; do nothing "
                           "else to x.")
        if found != squarings:
            return False, (f"For x = {start:g} the graph has {found} squaring node(s) (MulBackward0 of "
                           f"x * x, or PowBackward0 of x ** 2), expected {squarings}: "
                           + ("the loop stopped too early." if found < squarings else
                              "too many; test the value before each squaring (while x < 100:)."))
        if squarings == 0:
            continue
        y.backward()
        k = 2 ** squarings
        if not np.isclose(x.grad.item(), k * start ** (k - 1), rtol=1e-4):
            return False, (f"For x = {start:g} the gradient is {x.grad.item():.6g}, expected "
                           f"{k * start ** (k - 1):.6g}.")
    return True, ""


@exercise("9.2")
def check_9_2(square_until_big):
    hint = ("Use a while loop whose condition reads the tensor (while x < 100:), and x = x * x "
            "(or x = x ** 2) inside; return x at the end.")

    def verdict_92():
        ok, problem = check_square_until_big(square_until_big)
        return check(ok, right="One squaring node per pass of the loop: 3 for x = 2, 4 for x = 1.5, "
                               "none for x = 200.", hint=f"{problem} Hint: {hint}")

    if can_check(square_until_big, hint, kind=callable, what="a function, def square_until_big(x): ..."):
        run_check(verdict_92, hint)


def g(x):
    if x > 0:
        return x * x
    return x * 3


@exercise("9.3")
def check_9_3(answer_9_3):
    grads_93 = []
    for start in (2.0, -2.0):
        x = torch.tensor(start, requires_grad=True)
        g(x).backward()
        grads_93.append(x.grad.item())
    check_answer(answer_9_3, grads_93,
                 right="Each input records only its own branch: 2x = 4 at x = 2, and 3 at x = -2.",
                 hint="Only the branch that ran is in the graph. Differentiate that branch alone.",
                 parts=(tr("the gradient at x = 2"), tr("the gradient at x = -2")))
