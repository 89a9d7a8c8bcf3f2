"""The checks of chapter 12's exercises (12.1 to 12.4), run by their check cells: ``check_exercise("12.1")``."""
import math

import numpy as np

import mini_autograd as torch
from coursetools import can_check, check, check_answer, not_answered, run_check, tr
from mini_autograd import viz

from . import exercise


def by_autograd(w, b, x, y):
    w = torch.tensor(w, dtype=torch.float64, requires_grad=True)
    b = torch.tensor(b, dtype=torch.float64, requires_grad=True)
    loss = (torch.tanh(w * x + b) - y) ** 2
    loss.backward()
    return w.grad.item(), b.grad.item()


CASES = [(0.5, -0.2, 1.5, 1.0), (-1.0, 0.3, 0.8, -0.5), (2.0, 0.1, -0.7, 0.2)]


def slip(got, w, b, x, y):
    """The likely mistake behind a wrong pair, or "" when none of the usual ones fits."""
    a = math.tanh(w * x + b)
    right_w, right_b = 2 * (a - y) * (1 - a * a) * x, 2 * (a - y) * (1 - a * a)
    candidates = [
        ((right_b, right_w), "The two numbers are swapped: return (dL/dw, dL/db)."),
        ((right_w / 2, right_b / 2), "Both are half the right value: d/da (a - y)² is 2(a - y)."),
        ((-right_w, -right_b), "The sign is flipped: d/da (a - y)² is 2(a - y), not 2(y - a)."),
        ((2 * (a - y) * x, 2 * (a - y)), "The factor tanh'(p) = 1 - tanh²(p) is missing."),
        ((right_w, right_w), "dL/db has a factor x too many: dp/db = 1."),
        ((2 * (a - y) * (1 - (w * x + b) ** 2) * x, 2 * (a - y) * (1 - (w * x + b) ** 2)),
         "tanh'(p) is 1 - tanh²(p) = 1 - a², with a = tanh(p), not 1 - p²."),
    ]
    for (want_w, want_b), words in candidates:
        if math.isclose(got[0], want_w, rel_tol=1e-6, abs_tol=1e-9) and \
                math.isclose(got[1], want_b, rel_tol=1e-6, abs_tol=1e-9):
            return words
    return ""


@exercise("12.1")
def check_12_1(by_hand):
    hint = ("Go backwards one factor at a time: dL/da = 2(a - y), da/dp = 1 - tanh²(p) = 1 - a², "
            "dp/dw = x, dp/db = 1; multiply along the path.")

    def check_by_hand():
        for w, b, x, y in CASES:
            got = by_hand(w, b, x, y)
            if got is ...:
                return not_answered(hint, what="your code")
            if got is None:
                return check(False, "", f"Your function returned None: is the `return` missing? Hint: {hint}")
            if not can_check(got, hint, kind=(tuple, list), what="a pair of numbers (dL_dw, dL_db)", length=2):
                return False
            try:
                got = [float(g) for g in got]
            except (TypeError, ValueError):
                return check(False, "", f"Both entries should be numbers, not {got!r}. Hint: {hint}")
            want = by_autograd(w, b, x, y)
            if not all(math.isclose(g, v, rel_tol=1e-6, abs_tol=1e-9) for g, v in zip(got, want, strict=True)):
                likely = slip(got, w, b, x, y)
                return check(False, "", f"For w={w}, b={b}, x={x}, y={y} your function gives "
                                        f"({got[0]:.6g}, {got[1]:.6g}); autograd gives ({want[0]:.6g}, "
                                        f"{want[1]:.6g})." + (f" {likely}" if likely else "") + f" Hint: {hint}")
        w, b, x, y = CASES[0]
        return check(True, right=f"By hand and by autograd agree on all three: for w={w}, b={b}, x={x}, y={y} "
                                 f"both give ({by_autograd(w, b, x, y)[0]:.6g}, {by_autograd(w, b, x, y)[1]:.6g}). "
                                 "Autograd did the same multiplications, one node at a time.", hint="")

    if can_check(by_hand, hint, kind=callable, what="a function by_hand(w, b, x, y)"):
        run_check(check_by_hand, hint)


def check_graphs():
    """The four graphs: (what, loss), each built fresh."""
    x = torch.tensor(2.0, requires_grad=True)
    h = x * x
    yield "loss = x * x + 3 * x (section 3)", h + 3 * x
    x = torch.ones(2, 2, requires_grad=True)
    y = x + 2
    yield "out = (y * y * 3).mean(), y = x + 2", (y * y * 3).mean()
    x = torch.tensor([0.5, 1.0], requires_grad=True)
    p, q = x.exp(), x.tanh()
    yield "p = x.exp(); q = x.tanh(); (q * p).sum()", (q * p).sum()
    w = torch.tensor([1.0, -1.0], requires_grad=True)
    b = torch.tensor(0.5, requires_grad=True)
    a = w * 2
    yield "a = w * 2; (a.tanh() * (a + b).sigmoid() + w).sum()", (a.tanh() * (a + b).sigmoid() + w).sum()


def edges_into(root):
    """Every node under root, and the nodes with an edge to it."""
    parents, stack, seen = {root: []}, [root], {root}
    while stack:
        node = stack.pop()
        for next_node, _input_nr in node.next_functions:
            if next_node is not None:
                parents.setdefault(next_node, []).append(node)
                if next_node not in seen:
                    seen.add(next_node)
                    stack.append(next_node)
    return parents


@exercise("12.2")
def check_12_2(engine_order):
    hint = ("Count dependencies first; then take ready nodes newest first (highest _sequence_nr()), and a "
            "node becomes ready when its count reaches 0.")

    def check_engine_order():
        for what, loss in check_graphs():
            got = engine_order(loss.grad_fn)
            if got is ...:
                return not_answered(hint, what="your code")
            if got is None:
                return check(False, "", f"Your function returned None: is the `return` missing? Hint: {hint}")
            if not can_check(got, hint, kind=(list, tuple), what="a list of nodes"):
                return False
            trace = viz.trace_backward(loss)          # the real engine, traced
            ids, want = trace.graph.ids, trace.order  # node -> "n3"; ["n0 AddBackward0", ...]
            name_of = {entry.split()[0]: entry for entry in want}
            if any(isinstance(node, str) for node in got):
                return check(False, "", "Return the nodes themselves (as found in next_functions), not "
                                        "their names: two nodes can have the same name. Hint: " + hint)
            if any(node is None for node in got):
                return check(False, "", "Your list contains None: skip the None entries of "
                                        "next_functions, they are inputs that need no gradient.")
            strangers = [node for node in got if node not in ids]
            if strangers:
                return check(False, "", f"Your list holds {strangers[0]!r}, which is not a node of the graph. "
                                        f"Hint: {hint}")
            names = [name_of[ids[node]] for node in got]
            where = f"On the graph of {what}, your order is {names}; the engine's is {want}."
            if len(set(names)) < len(names):
                return check(False, "", f"{where} A node appears more than once: the engine runs each node "
                                        "once, when all its gradients have arrived. Hint: " + hint)
            if len(names) < len(want):
                missing = [name for name in want if name not in names]
                return check(False, "", f"{where} Missing: {missing}. Every node runs, the "
                                        "AccumulateGrad nodes too. Hint: " + hint)
            if names != want:
                parents, position = edges_into(loss.grad_fn), {node: i for i, node in enumerate(got)}
                valid = all(position[p] < position[node] for node in got for p in parents[node])
                why = ("Every node of yours does come after the nodes that send it gradients, so your order "
                       "would compute the same gradients; but among the ready nodes the engine always takes "
                       "the newest (highest _sequence_nr()) first." if valid else
                       "Some node of yours runs before a node that still has to send it a gradient: count "
                       "the dependencies, and make a node ready only when its count reaches 0.")
                return check(False, "", tr(where) + " " + tr(why))    # (each part found in chapters.po)
        return check(True, right="The engine's order on all four graphs: dependency counts decide when a node "
                                 "may run, sequence numbers decide which ready node runs first.", hint="")

    if can_check(engine_order, hint, kind=callable, what="a function engine_order(root)"):
        run_check(check_engine_order, hint)


@exercise("12.3")
def check_12_3(train, *, make_model, mse, x_data, y_data):
    hint = ("Each bug breaks one lesson of the course: the loss must be connected to the parameters, .grad "
            "must be cleared before backward() (not after it), and a loss kept for later is a number.")

    def losses_of(steps, clear=True):
        """The reference: the five lines of chapter 10, with or without zero_grad()."""
        model, optimizer = make_model()
        losses = []
        for _step in range(steps):
            if clear:
                optimizer.zero_grad()
            loss = mse(model(x_data), y_data)
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
        return losses

    def check_train():
        try:
            got = train()
        except RuntimeError as error:
            text = (str(error).splitlines() or [""])[0]
            if "does not require grad" in text:
                return check(False, "", f"train() raised RuntimeError: {text}. The loss has no graph behind it: "
                                        "something cut it off from the parameters (chapter 06).")
            raise
        if got is ...:
            return not_answered(hint, what="your code")
        if got is None:
            return check(False, "", "train() returned None: is `return losses` missing?")
        if not can_check(got, hint, kind=(list, tuple), what="the list of losses"):
            return False
        if len(got) != 30:
            return check(False, "", f"train() returned {len(got)} losses; one per step is 30. Hint: {hint}")
        if any(hasattr(value, "grad_fn") for value in got):
            return check(False, "", "The losses are tensors. Append loss.item(), a plain Python number: a tensor "
                                    "with a grad_fn keeps its step's whole graph alive for as long as the list "
                                    "lives, one graph per step.")
        try:
            got = [float(value) for value in got]
        except (TypeError, ValueError):
            return check(False, "", f"The losses should be numbers, not {got[:3]!r}... Hint: {hint}")
        right = losses_of(30)
        if np.allclose(got, right, atol=1e-6):
            return check(True, right=f"The loss falls from {right[0]:.4f} to {right[-1]:.4f}: zero_grad, forward, "
                                     "loss, backward, step, and the loss recorded as a number.", hint="")
        if np.allclose(got, got[0]):
            return check(False, "", f"The loss never changes ({got[0]:.4f} at every step): no parameter moves. "
                                    "Does step() find any gradients when it runs? zero_grad() between backward() "
                                    "and step() throws them away (chapter 10).")
        if np.allclose(got, losses_of(30, clear=False), atol=1e-6):
            return check(False, "", "The loss moves, but like chapter 10's loop without zero_grad(): the "
                                    "gradients of all the steps pile up in .grad. Clear them at the top of "
                                    "each step (chapter 05).")
        return check(False, "", f"Your losses start {np.round(got[:3], 4).tolist()}, expected "
                                f"{np.round(right[:3], 4).tolist()}. Hint: {hint}")

    if can_check(train, hint, kind=callable, what="a function train(steps=30)"):
        run_check(check_train, hint)


@exercise("12.4")
def check_12_4(answer_12_4, *, RebindingSGD, make_model, mse, x_data, y_data):
    answer = answer_12_4

    def losses_with(optimizer_class, steps=30):
        """Chapter 10's five lines on make_model()'s model, with an optimizer of the given class."""
        model, _optimizer = make_model()
        optimizer = optimizer_class(model.parameters(), lr=0.1)
        losses = []
        for _step in range(steps):
            optimizer.zero_grad()
            loss = mse(model(x_data), y_data)
            loss.backward()
            optimizer.step()
            losses.append(loss.item())
        return losses

    rebinding = losses_with(RebindingSGD)
    real = losses_with(torch.optim.SGD)
    hint = ("`p = ...` gives the loop's name p a new tensor. Which tensors does the model compute with, and did "
            "their numbers change?")
    if isinstance(answer, (int, float)) and not isinstance(answer, bool) and abs(answer - real[-1] / real[0]) < 0.01:
        check(False, "", f"{real[-1] / real[0]:.3f} is what torch.optim.SGD gives, which changes the parameters. "
                         f"Hint: {hint}")
    else:
        check_answer(answer, rebinding[-1] / rebinding[0],
                     right=f"The loss stays at {rebinding[0]:.4f} for all 30 steps: the model's weight and bias "
                           "never change.", hint=hint, atol=1e-3)
