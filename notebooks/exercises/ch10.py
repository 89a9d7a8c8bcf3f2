"""The checks of chapter 10's exercises (10.1 to 10.3), run by their check cells: ``check_exercise("10.1")``."""
import numbers

import numpy as np

import mini_autograd as torch
from coursetools import can_check, check, check_answer, not_answered, run_check

from . import exercise

# Exercise 10.1's shuffled lines and section 2's data, as the chapter has them.
LINES = ["loss.backward()", "optimizer.step()", "pred = model(x)",
         "optimizer.zero_grad()", "loss = loss_fn(pred, y)"]


def section_2_data():
    x = torch.tensor([[1.0, 1.0], [2.0, -1.0], [0.0, 2.0], [-1.0, 0.5]])
    y = torch.tensor([[1.0], [2.0], [-1.0], [0.0]])
    return x, y


def small_setup():
    """The linear model of section 2 with its loss and optimizer, as a namespace to run lines in."""
    x, y = section_2_data()
    model = torch.nn.Linear(2, 1)
    with torch.no_grad():
        model.weight.copy_(torch.tensor([[0.5, -0.3]]))
        model.bias.fill_(0.1)
    return {"model": model, "loss_fn": torch.nn.MSELoss(), "x": x, "y": y,
            "optimizer": torch.optim.SGD(model.parameters(), lr=0.1)}


def weights(env):
    return np.concatenate([env["model"].weight.detach().numpy().ravel(), env["model"].bias.detach().numpy()])


def run_steps(order, steps=3):
    """Run the lines of `order` `steps` times, in that order; return the model's weights."""
    env = small_setup()
    for _step in range(steps):
        for line in order:
            exec(line, env)
    return weights(env)


@exercise("10.1")
def check_10_1(answer_10_1):
    answer, lines = answer_10_1, LINES
    env = small_setup()                     # the reference: three rounds of the loop of section 2
    x, y = env["x"], env["y"]
    for _step in range(3):
        env["optimizer"].zero_grad()
        env["loss_fn"](env["model"](x), y).backward()
        env["optimizer"].step()
    reference = weights(env)
    hint = "Clear, forward, loss, backward, update: each line needs what the line before it made."
    if not can_check(answer, hint, kind=(list, tuple), what="a list of the five strings", length=5):
        return
    if not all(isinstance(line, str) for line in answer) or sorted(answer) != sorted(lines):
        check(False, "", f"{hint} (use each of the five strings exactly once)")
        return
    try:
        trained = run_steps(answer)
        check(np.allclose(trained, reference),
              right="zero_grad → forward → loss → backward → step: your order trains the model "
                    "exactly like article 000's loop.",
              hint=f"{hint} (your order runs, but trains the model differently)")
    except Exception as error:
        check(False, "", f"{hint} (your order fails: {type(error).__name__}: {error})")


@exercise("10.2")
def check_10_2(answer_10_2):
    w = torch.tensor(0.0, requires_grad=True)
    forgetful = torch.optim.SGD([w], lr=0.1)
    for _step in range(4):
        (2 * w).backward()
        forgetful.step()
    check_answer(answer_10_2, w.detach(),
                 right="w.grad grows 2, 4, 6, 8: step n moves w n times too far, as if the learning "
                       "rate were n · 0.1. Total: -0.1 · (2 + 4 + 6 + 8) = -2.",
                 hint="Nothing clears w.grad: after the n-th backward it holds n · 2. Add up the four "
                      "updates -lr · w.grad.")


def reference(logits, labels, dim=1):
    """The accuracy computed with numpy; dim=0 gives what the common slip computes."""
    predicted = np.argmax(logits.detach().numpy(), axis=dim)
    if predicted.shape != labels.shape:
        return None
    return float(np.mean(predicted == labels.numpy()))


@exercise("10.3")
def check_10_3(accuracy, *, net, X, labels):
    sample_logits = torch.tensor([[2.0, 1.0], [0.5, 1.5], [3.0, -1.0], [0.0, 0.2], [1.0, 0.0]])
    sample_labels = torch.tensor([0, 1, 1, 0, 0])
    square_logits = torch.tensor([[0.1, 2.0, 0.3], [1.0, 0.0, 3.0], [0.2, 0.9, 0.1]])   # N = C = 3
    square_labels = torch.tensor([1, 2, 0])
    hint = "Take the index of the largest score in each row (dim=1), compare with the labels, average."
    DIM_HINT = ("argmax(dim=0) runs down the columns: one index per class, not one per row. "
                "The predicted class of each row (sample) is argmax(dim=1).")

    def verdict_on(logits, labels, what):
        """None when accuracy() is right on this data, else the message saying what is wrong."""
        try:
            got = accuracy(logits, labels)
        except Exception as error:
            text = (str(error).splitlines() or [""])[0]
            if "must match the size" in text or "Mismatch" in text:
                return f"Running it on {what} raised {type(error).__name__}: {text}. {DIM_HINT}"
            if "dtype" in text and "mean" in text:
                return (f"Running it on {what} raised {type(error).__name__}: {text}. `==` gives booleans; "
                        "turn them into 0.0 and 1.0 with .float() before .mean().")
            return f"Running it on {what} raised {type(error).__name__}: {text}."
        if got is ...:
            return ...
        if got is None:
            return "Your function returned None: is the `return` missing?"
        if hasattr(got, "shape") and hasattr(got, "item"):
            return (f"Your function returned a tensor ({got!r}), not a Python float: "
                    "finish with .item().")
        if isinstance(got, bool) or not isinstance(got, numbers.Real):
            return f"Your function returned a {type(got).__name__} ({got!r:.60}); it should return a float."
        want = reference(logits, labels)
        if abs(got - want) < 1e-6:
            return None
        if reference(logits, labels, dim=0) is not None and abs(got - reference(logits, labels, dim=0)) < 1e-6:
            return f"On {what} your function gives {got}, expected {want}. {DIM_HINT}"
        flat_index = int(np.argmax(logits.detach().numpy()))
        if abs(got - float(np.mean(labels.numpy() == flat_index))) < 1e-6:
            return (f"On {what} your function gives {got}, expected {want}. argmax() without a dim "
                    "gives one index for the whole (flattened) tensor; each row needs its own: dim=1.")
        return f"On {what} your function gives {got!r}, expected {want}."

    def check_accuracy():
        for logits, labels_, what in [(sample_logits, sample_labels, "the 5 sample rows"),
                                      (square_logits, square_labels, "a 3 × 3 sample"),
                                      (net(X).detach(), labels, "the spirals and the trained network")]:
            problem = verdict_on(logits, labels_, what)
            if problem is ...:
                return not_answered(hint, what="your code")
            if problem is not None:
                return check(False, "", f"{problem} Hint: {hint}")
        return check(True, right="3 of the 5 sample rows are right: 60%; and your function agrees on "
                                 "a square sample and on the spirals.", hint="")

    if can_check(accuracy, hint, kind=callable, what="a function accuracy(logits, labels)"):
        run_check(check_accuracy, hint)
