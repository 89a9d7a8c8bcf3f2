"""The checks of chapter 04's exercises (4.1 to 4.3), run by their check cells: ``check_exercise("4.1")``."""
import numpy as np

import mini_autograd as torch
from coursetools import can_check, check, check_answer

from . import exercise


@exercise("4.1")
def check_4_1(answer_4_1):
    answer = answer_4_1
    p = torch.tensor([1.0, 2.0], requires_grad=True)        # the exercise's tensors, as the chapter makes them
    q = p * 3
    r = q.detach()
    s = torch.tensor([4.0, 5.0]) + 1
    t = r * p
    tensors = {"p": p, "q": q, "r": r, "s": s, "t": t}
    expected = {name for name, tensor in tensors.items() if tensor.is_leaf}
    hint = "A leaf is a tensor with grad_fn None: not made by an operation that was recorded."
    if can_check(answer, hint, kind=(set, frozenset, list, tuple), what='a set of names, such as {"p", "q"}'):
        if not all(isinstance(name, str) for name in answer):
            check(False, "", f'{hint} (answer with the names as strings, such as {{"p", "q"}})')
        elif set(answer) - tensors.keys():
            check(False, "", f"{hint} (there is no tensor named {', '.join(sorted(set(answer) - tensors.keys()))}: "
                             "the names are p, q, r, s and t)")
        else:
            extra, missing = len(set(answer) - expected), len(expected - set(answer))
            check(set(answer) == expected,
                  right="p was created by you; r is detached; s was made from tensors needing no grad.",
                  hint=f"{hint} (your answer: {sorted(answer)}; names in it that are not leaves: {extra}; "
                       f"leaves missing from it: {missing})")


@exercise("4.2")
def check_4_2(answer_4_2):
    w = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)   # the exercise cell's u
    x = torch.tensor([2.0, 1.0, 0.5])
    u = w * x + 1
    check_answer(answer_4_2, 2 * u.detach() / u.numel(),
                 right="u.retain_grad() before backward() keeps d loss / d u = 2u / 3 in u.grad.",
                 hint="u is not a leaf, so u.grad stays None unless you ask autograd to keep it "
                      "before calling backward().",
                 none_hint="u.grad is None: backward() computed u's gradient on the way to w, but "
                           "dropped it.")


@exercise("4.3")
def check_4_3(answer_4_3):
    w = answer_4_3
    hint = ("Do the scaling first, on a tensor that does not require grad, then switch requires_grad "
            "on for the result.")
    torch.manual_seed(0)                        # the exercise cell's seed: its first two draws of randn(3)
    draws = [torch.randn(3).numpy(), torch.randn(3).numpy()]

    def whats_wrong_43(w):
        """What is wrong with w, in a sentence; None when it is what the exercise asks for."""
        if not w.is_leaf:
            return (f"w is not a leaf: its grad_fn is {w.grad_fn.name()}, so the operation that made it was "
                    "recorded, and w.grad will stay None.")
        if not w.requires_grad:
            return "w is a leaf but does not require grad: backward() would not compute a gradient for it."
        if list(w.shape) != [3]:
            return f"w has shape {list(w.shape)}; w_buggy has shape [3]."
        values = w.detach().numpy()
        if not values.any():
            return "w is all zeros: the exercise asks for random numbers, from torch.randn."
        if any(np.allclose(values, draw, atol=1e-6) for draw in draws):
            return "w holds torch.randn's numbers unscaled: multiply them by 0.1 first."
        if not any(np.allclose(values, 0.1 * draw, atol=1e-6) for draw in draws):
            return ("w's numbers are not torch.randn(3) * 0.1 after torch.manual_seed(0). Run the exercise "
                    "cell again from its first line (it seeds the generator), and use randn, not rand.")
        return None

    if can_check(w, hint, kind=torch.Tensor, what="a tensor"):
        problem = whats_wrong_43(w)
        if problem is not None:
            check(False, "", f"{problem} {hint}")
        else:
            w = w.detach().requires_grad_()         # (a copy: the learner's w keeps its .grad as it was)
            (w * 2).sum().backward()
            check(w.grad is not None,
                  right=f"w is a leaf that requires grad and holds randn's numbers scaled by 0.1, so "
                        f"backward() filled w.grad: {w.grad}.", hint=hint)
