"""The checks of chapter 11's exercises (11.1 to 11.3), run by their check cells: ``check_exercise("11.1")``."""
import numpy as np

import mini_autograd as torch
from coursetools import can_check, check, check_answer, not_answered, run_check

from . import exercise


@exercise("11.1")
def check_11_1(SmoothReLU):
    x_check = torch.tensor([-3.0, -0.5, 0.0, 0.7, 2.5], dtype=torch.float64, requires_grad=True)
    hint = "d/dx ln(1 + e^x) = e^x / (1 + e^x); and don't forget to multiply by grad_output."

    class _SavedX:                                     # just enough of a ctx to call backward directly
        saved_tensors = (x_check.detach(),)

    try:
        unanswered = SmoothReLU.backward(_SavedX(), torch.ones_like(x_check)) is ...
    except Exception:                                  # an error in your backward: reported below
        unanswered = False
    try:
        if unanswered:                                 # backward still returns the placeholder
            not_answered(hint, what="your code")
        elif torch.autograd.grad(SmoothReLU.apply(x_check).sum(), x_check, allow_unused=True)[0] is None:
            check(False, "", f"{hint} (your backward returned None: no gradient reached x)")
        else:
            check(torch.autograd.gradcheck(SmoothReLU.apply, (x_check,)),
                  right="gradcheck agrees: the derivative of softplus is the sigmoid, times grad_output.",
                  hint=hint)
    except Exception as error:                         # GradcheckError, or an error inside your backward
        check(False, "", f"{hint} ({type(error).__name__}: {(str(error).splitlines() or [''])[0]})")


@exercise("11.2")
def check_11_2(answer_11_2):
    x = torch.tensor(1.0, requires_grad=True)
    (first,) = torch.autograd.grad(x ** 4, x, create_graph=True)
    (second,) = torch.autograd.grad(first, x)
    check_answer(answer_11_2, second,
                 right="y' = 4x³ and y'' = 12x², which is 12 at x = 1.",
                 hint="Differentiate x⁴ twice by the power rule, then put x = 1.")


@exercise("11.3")
def check_11_3(double):
    hint = ("A tensor hook receives the gradient and returns the new one, a new tensor: "
            "leave grad itself as it is.")

    def check_double():
        x = torch.tensor([1.0, -2.0], requires_grad=True)
        h = x * 3                                   # an intermediate tensor: dL/dh = 2h = 6x
        seen = {}

        def watched(grad):                          # calls your hook, and watches what it does to grad
            before, version = grad.numpy().copy(), grad._version
            seen["returned"] = returned = double(grad)
            seen["changed in place"] = grad._version != version or not np.array_equal(grad.numpy(), before)
            seen["grad shape"] = list(grad.shape)
            usable = returned is None or getattr(returned, "shape", None) == grad.shape
            return returned if usable else None     # not a gradient: reported below, not by the engine

        h.register_hook(watched)
        (h ** 2).sum().backward()
        returned = seen["returned"]
        if seen["changed in place"]:
            return check(False, "", "Your hook changed the gradient it was given in place (an in-place "
                         "operation such as grad.mul_(2) or grad *= 2). PyTorch's documentation says a hook "
                         "must not modify its argument: the engine may be using that tensor elsewhere too. "
                         "Return a new tensor instead, computed from grad.")
        if returned is None:
            return check(False, "", f"Your hook returned None, so the gradient went on unchanged (x.grad = "
                         f"{x.grad}). {hint}")
        if not hasattr(returned, "shape"):
            return check(False, "", f"Your hook returned a {type(returned).__name__} ({returned!r:.40}), "
                         f"not a tensor. {hint}")
        if list(returned.shape) != seen["grad shape"]:
            return check(False, "", f"Your hook returned a tensor of shape {list(returned.shape)}; the gradient "
                         f"it replaces has shape {seen['grad shape']}, and so must the new one. {hint}")
        expected = 2 * (3 * 2 * 3 * np.array([1.0, -2.0]))     # twice 18x
        return check(x.grad is not None and x.grad.shape == (2,) and np.allclose(x.grad.numpy(), expected),
                     right="The gradient arriving at h was doubled, and the chain rule carried the factor 2 on to x.",
                     hint=f"{hint} (x.grad came out as {x.grad}, expected {expected.tolist()})")

    if can_check(double, hint, kind=callable, what="a function of grad, such as def double(grad): ..."):
        run_check(check_double, hint)
