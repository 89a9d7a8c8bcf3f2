"""The checks of chapter 01's exercises (1.1 to 1.3), run by their check cells: ``check_exercise("1.1")``."""
import numpy as np

import mini_autograd as torch
from coursetools import agrees, can_check, check, check_answer, count_backward_calls, run_check

from . import exercise


@exercise("1.1")
def check_1_1(answer_1_1):
    x0, y0 = 1.5, -0.5
    by_hand = (3 * x0**2 - 2 * y0, -2 * x0)        # dz/dx = 3x² - 2y, dz/dy = -2x
    check_answer(answer_1_1, by_hand,
                 right="dz/dx = 3x² - 2y = 7.75 and dz/dy = -2x = -3, as autograd says.",
                 hint="Create x and y with requires_grad=True, compute z = x**3 - 2*x*y, call z.backward(), "
                      "then answer_1_1 = (x.grad, y.grad).",
                 none_hint="A .grad is None until backward() has run, and stays None for a tensor "
                           "created without requires_grad=True.",
                 parts=("x.grad", "y.grad"))


@exercise("1.2")
def check_1_2(answer_1_2):
    p = torch.tensor(1.0, requires_grad=True)
    q = torch.tensor(2.0)
    c = p * q
    d = q * 3
    e = d + c
    with torch.no_grad():
        n = p * 2
    check_answer(answer_1_2, (c.requires_grad, d.requires_grad, e.requires_grad, n.requires_grad),
                 right="One input that requires grad is enough (c, and e through c); none gives none (d); "
                       "no_grad records nothing (n).",
                 hint="A result requires grad when at least one input does and recording is on; "
                      "inside no_grad() nothing is recorded.",
                 parts=("c.requires_grad", "d.requires_grad", "e.requires_grad", "n.requires_grad"))


@exercise("1.3")
def check_1_3(derivatives):
    hint = ("Put the points in one tensor with requires_grad=True, compute h elementwise, "
            "call .sum().backward() once and return x.grad.")

    def check_derivatives():
        answer = derivatives([0.0, 1.0, 2.0, 3.0])
        if not can_check(answer, hint, none_hint="backward() returns None: run it, then return x.grad."):
            return False
        others = [-1.5, 0.5, 4.0]
        again, calls = count_backward_calls(torch, lambda: derivatives(others))
        if calls != 1:
            return check(False, "", f"derivatives() started {calls} backward passes; the exercise asks for one. "
                                    f"{hint}")
        want = 3 * np.array(others) ** 2 - 1                       # h'(x) = 3x² - 1
        if not agrees(again, want):
            return check(False, "", f"derivatives({others}) gives {again!r}, expected {want.tolist()}. {hint}")
        return check_answer(answer, 3 * np.array([0.0, 1.0, 2.0, 3.0]) ** 2 - 1,
                            right="h'(x) = 3x² - 1 gives -1, 2, 11, 26: one backward on the sum computed "
                                  "all four.", hint=hint)

    run_check(check_derivatives, hint)
