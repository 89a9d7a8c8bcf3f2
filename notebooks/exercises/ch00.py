"""The check of chapter 00's exercise (0.1), run by its check cell: ``check_exercise("0.1")``."""
from coursetools import check_answer

from . import exercise


@exercise("0.1")
def check_0_1(answer_0_1):
    x5 = 5.0
    check_answer(answer_0_1, 2 * x5,  # dz/dx = 2x
                 right="dz/dx = 2x, so at x = 5 the gradient is 10.",
                 hint="z = x**2 + 3*y, so dz/dx = 2x; evaluate it at x = 5.")
