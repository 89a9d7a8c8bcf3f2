"""The checks of chapter 07's exercises (7.1 to 7.3), run by their check cells: ``check_exercise("7.1")``."""
import numpy as np

import mini_autograd as torch
from coursetools import check_answer

from . import exercise


@exercise("7.1")
def check_7_1(answer_7_1):
    x = torch.tensor([-1.0, 0.0, 2.0], requires_grad=True)
    s = x.sigmoid()
    saves_result = np.allclose(s.grad_fn._saved_result.detach().numpy(), s.detach().numpy())
    expected = "result" if saves_result else "self"
    check_answer(answer_7_1, expected,
                 right="The derivative is written in terms of σ(x) itself, so the result is saved "
                       "(grad_fn._saved_result), as for exp and tanh.",
                 hint="Look at what the derivative formula needs: x, or σ(x)?")


@exercise("7.2")
def check_7_2(answer_7_2, *, saved_bytes):
    a = torch.randn(1000, requires_grad=True)
    w = torch.randn(1000, requires_grad=True)
    b = a * w
    c = b.exp()
    d = c.sum()
    check_answer(answer_7_2, saved_bytes(d),
                 right="a and w (saved by the multiplication, each for the other's gradient) and c "
                       "(exp's result): 3 x 4,000 bytes. b itself is not saved: exp keeps its output, "
                       "not its input, and sum keeps only a shape.",
                 hint="Go node by node: what does MulBackward0 keep when both inputs require grad? "
                      "What does ExpBackward0 keep? And SumBackward0?")


@exercise("7.3")
def check_7_3(answer_7_3):
    x_np = np.array([0.0, 1.0, 2.0])
    by_hand = 2 * (np.exp(x_np) + 1) * np.exp(x_np)       # d/dx (e^x + 1)^2
    check_answer(answer_7_3, by_hand,
                 right="y = y + 1 makes a new tensor, so exp's saved result stays at version 0; "
                       "the gradient is 2(e^x + 1)e^x.",
                 hint="exp saved its result y; add_ changes y in place. Make the shifted value a new "
                      "tensor instead.", atol=1e-3)
