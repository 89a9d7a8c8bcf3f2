"""The checks of chapter 05's exercises (5.1 to 5.3), run by their check cells: ``check_exercise("5.1")``."""
import numpy as np

import mini_autograd as torch
from coursetools import can_check, check, check_answer, run_check, tr, which_parts, with_parts

from . import exercise


def plain(number):
    """A number, from a tensor (which may require grad: ``float`` would warn) or a Python number."""
    return float(number.detach()) if hasattr(number, "detach") else float(number)


@exercise("5.1")
def check_5_1(answer_5_1):
    x = torch.tensor(3.0, requires_grad=True)
    for _step in range(3):
        y = x ** 2
        y.backward()
    check_answer(answer_5_1, x.grad,
                 right="Each backward adds dy/dx = 2x = 6, three times: 18.",
                 hint="Each backward computes the same gradient, 2x at x = 3, and adds it to .grad.")


@exercise("5.2")
def check_5_2(answer_5_2, train):
    answer = answer_5_2
    hint = "Each step's backward adds to the gradients of all the earlier steps: clear w.grad in the loop."

    def check_train():
        # With w.grad cleared, each step moves w by lr * 2(w - 3): w after n steps is 3 - 3(1 - 2 lr)^n.
        for steps, lr in [(20, 0.25), (3, 0.1), (5, 0.3)]:
            w = plain(train(steps, lr))
            want = 3 - 3 * (1 - 2 * lr) ** steps
            if abs(w - want) > 1e-4:
                return check(False, "", f"{hint} (train(steps={steps}, lr={lr}) ends at w = {w:.4f}, "
                                        f"expected {want:.4f})")
        return check(abs(plain(answer) - 3.0) < 1e-3,
                     right="With w.grad cleared every step, each update uses only the current gradient.",
                     hint=f"{hint} (your answer: {plain(answer):.4f}; set answer_5_2 = train())")

    if can_check(answer, hint, kind=(torch.Tensor, float, int), what="w, the number that train() returns"):
        if isinstance(answer, torch.Tensor) and answer.numel() != 1:
            check(False, "", f"{hint} (train() should return w, one number; your answer has shape {list(answer.shape)})")
        else:
            run_check(check_train, hint)


@exercise("5.3")
def check_5_3(answer_5_3, *, X, Y, mse):
    answer = answer_5_3
    w = torch.tensor([0.0, 0.0], requires_grad=True)
    b = torch.tensor(0.0, requires_grad=True)
    mse(w, b, X[:40], Y[:40]).backward()
    whole = np.concatenate([w.grad.numpy(), b.grad.numpy().reshape(1)])

    hint = "Write the mean over 40 samples as a weighted sum of the three pieces' means."

    def accumulate_with(factors):
        w.grad, b.grad = None, None
        for (start, stop), factor in zip([(0, 10), (10, 20), (20, 40)], factors, strict=True):
            (mse(w, b, X[start:stop], Y[start:stop]) * factor).backward()
        pieces = np.concatenate([w.grad.numpy(), b.grad.numpy().reshape(1)])
        if np.allclose(pieces, whole, atol=1e-5):
            return check(True, right="Each piece weighs by its share of the samples, n_j / N: 1/4, 1/4 and 1/2.",
                         hint="")
        which = which_parts(list(factors), [10 / 40, 10 / 40, 20 / 40],
                            parts=("answer_5_3[0]", "answer_5_3[1]", "answer_5_3[2]"))
        return check(False, "", with_parts(which, tr(f"{hint} (your factors give the gradient {np.round(pieces, 3)}, "
                                                     f"the whole batch {np.round(whole, 3)})")))

    if can_check(answer, hint, kind=(list, tuple, np.ndarray, torch.Tensor), what="a list of three numbers",
                 length=3):
        try:
            factors = [None if isinstance(factor, str) else float(factor) for factor in answer]
        except (TypeError, ValueError, RuntimeError):
            factors = [None]
        if None in factors:
            check(False, "", f"{hint} (the factors should be numbers; your answer: {answer!r})")
        else:
            run_check(lambda: accumulate_with(factors), hint)
