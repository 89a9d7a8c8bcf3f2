"""The checks of chapter 02's exercises (2.1 to 2.3), run by their check cells: ``check_exercise("2.1")``."""
import mini_autograd as torch
from coursetools import check_answer, tr

from . import exercise


@exercise("2.1")
def check_2_1(answer_2_1):
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    r = 2 * w.exp().sum()
    check_answer(answer_2_1, r.grad_fn.name(),
                 right="grad_fn belongs to the last operation that made r: the multiplication by 2.",
                 hint="grad_fn is the node of the *last* operation that produced the tensor. "
                      "Which operation runs last in 2 * w.exp().sum()?")


def count_nodes(tensor):
    """Distinct nodes reachable from tensor.grad_fn."""
    seen, stack = set(), [tensor.grad_fn]
    while stack:
        node = stack.pop()
        if node is not None and node not in seen:
            seen.add(node)
            stack.extend(next_node for next_node, _input_nr in node.next_functions)
    return len(seen)


@exercise("2.2")
def check_2_2(answer_2_2):
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0, 4.0], requires_grad=True)
    s = (a * b + a).sum()
    check_answer(answer_2_2, count_nodes(s),
                 right="SumBackward0, AddBackward0, MulBackward0 and one AccumulateGrad per leaf: a and b.",
                 hint="One node per operation (*, +, sum), plus one AccumulateGrad per leaf that requires grad. "
                      "A leaf used twice still has a single AccumulateGrad.")


@exercise("2.3")
def check_2_3(answer_2_3):
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.ones(2)
    u = a * 2 + b
    expected = tuple(None if node is None else node.name() for node, _input_nr in u.grad_fn.next_functions)
    check_answer(answer_2_3, expected,
                 right="The + node sends gradients to a * 2 (a MulBackward0) and nowhere for b, "
                       "which does not require grad.",
                 hint="u.grad_fn is the + node; it has one entry per input of the +, in order. "
                      "What made the first input, and does the second one need a gradient?",
                 parts=(tr("the first entry (for a * 2)"), tr("the second entry (for b)")))
