"""The checks of chapter 06's exercises (6.1 to 6.3), run by their check cells: ``check_exercise("6.1")``."""
import mini_autograd as torch
from coursetools import can_check, check, check_answer, run_check

from . import exercise


@exercise("6.1")
def check_6_1(answer_6_1):
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    a = w * 2
    with torch.no_grad():
        b = w * 2
        with torch.enable_grad():
            c = w * 2
    d = a.detach() * w
    with torch.inference_mode():
        e = w * 2
    f = b * 2
    expected = tuple(t.grad_fn is not None for t in (a, b, c, d, e, f))

    check_answer(answer_6_1, expected,
                 right="a, c and d are recorded. b and e were made with recording off, and f's only "
                       "tensor input, b, does not require grad.",
                 hint="An operation is recorded when grad mode is on and at least one input requires grad. "
                      "Check both conditions for each line.",
                 parts=("a", "b", "c", "d", "e", "f"))


@exercise("6.2")
def check_6_2(answer_6_2, train_with_logging, *, train):
    answer = answer_6_2
    hint = "The detach() cuts layer1 out of the graph. Detach only the value that goes into the log."

    def check_logging():
        for steps, lr in [(30, 0.1), (200, 0.2)]:             # train() of section 11 is the reference
            final_loss, log = train_with_logging(steps, lr)
            want = train(steps=steps, lr=lr)[0][-1]
            if any(isinstance(entry, torch.Tensor) for entry in log):
                return check(False, "", "The log holds tensors, and each one keeps its graph alive: "
                                        "log plain numbers (.item()).")
            if len(log) != steps:
                return check(False, "", f"The log has {len(log)} entries after {steps} steps, expected {steps}.")
            if abs(final_loss - want) > 1e-4:
                return check(False, "", f"{hint} (train_with_logging({steps}, {lr}) ends at loss "
                                        f"{final_loss:.4f}, the correct run at {want:.4f})")
        final_loss, _log = answer
        return check(abs(final_loss - want) < 1e-4,
                     right=f"The final loss is back to {want:.4f}: layer1 learns again, and the log "
                           "holds plain numbers.",
                     hint=f"{hint} (your answer's final loss: {final_loss:.4f}; set answer_6_2 = train_with_logging())")

    if can_check(answer, hint, kind=tuple, what="what train_with_logging() returns: (final loss, log)", length=2):
        run_check(check_logging, hint)


@exercise("6.3")
def check_6_3(answer_6_3):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    d = y.detach()
    d[0] = 100.0
    expected = (d.is_leaf, d.requires_grad, y[0].item(), y._version)
    check_answer(answer_6_3, expected,
                 right="d is a leaf that does not require grad; it shares y's data (so y[0] is 100) and "
                       "its version counter (so y._version is 1).",
                 hint="detach() gives a new leaf without grad, but over the same data and the same "
                      "version counter.",
                 parts=("d.is_leaf", "d.requires_grad", "y[0].item()", "y._version"))
