"""The checks of chapter 03's exercises (3.1 to 3.3), run by their check cells: ``check_exercise("3.1")``."""
import mini_autograd as torch
from coursetools import can_check, check_answer, run_check

from . import exercise


@exercise("3.1")
def check_3_1(answer_3_1):
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    (x ** 3).mean().backward()
    check_answer(answer_3_1, x.grad,
                 right="d/dx_i of (x_1³ + x_2³ + x_3³)/3 is 3x_i²/3 = x_i².",
                 hint="The mean divides by 3, and d(x³)/dx = 3x². Combine the two for each entry.",
                 parts=("x.grad[0]", "x.grad[1]", "x.grad[2]"))


@exercise("3.2")
def check_3_2(answer_3_2):
    v = answer_3_2
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x ** 2
    (2 * y[0] + y[1] - y[2]).backward()
    expected = x.grad.clone()                       # the gradient of L, built the long way

    x.grad = None
    hint = "v holds the weight of each y_i in L: y.backward(v) computes the gradient of sum(v * y)."

    def backward_with_v():
        (x ** 2).backward(v)
        return check_answer(x.grad, expected, right="y.backward(v) is the gradient of sum(v * y), "
                            "here 2·y0 + y1 − y2: x.grad = v · 2x = [4., 4., -6.].", hint=hint)

    if can_check(v, hint, none_hint="v = None is backward()'s default, which works only when y holds a single "
                                    "number: pass a tensor of weights shaped like y."):
        run_check(backward_with_v, hint)


def backward_works(make):
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    try:
        make(x).backward()
        return True
    except RuntimeError:
        return False


@exercise("3.3")
def check_3_3(answer_3_3):
    expected = (backward_works(lambda x: x.sum()),
                backward_works(lambda x: x[0:1] * 2),
                backward_works(lambda x: x * 2))
    check_answer(answer_3_3, expected,
                 right="The rule counts elements, not dimensions: one element is enough.",
                 hint="Look at how _make_grads decides: it checks out.numel(), the number of elements.",
                 parts=("a", "b", "c"))
