"""The checks of chapter 08's exercises (8.1 to 8.3), run by their check cells: ``check_exercise("8.1")``."""
import mini_autograd as torch
from coursetools import can_check, check, check_answer, tr
from mini_autograd.autograd.engine import GraphTask, compute_dependencies

from . import exercise


@exercise("8.1")
def check_8_1(answer_8_1):
    w = torch.tensor(1.5, requires_grad=True)
    u = w * w
    v = u + w
    out_81 = v * u
    task_81 = GraphTask(keep_graph=True, create_graph=False)
    compute_dependencies(out_81.grad_fn, task_81)
    check_answer(answer_8_1, task_81.dependencies[u.grad_fn.next_functions[0][0]],
                 right="w * w has two edges to w's AccumulateGrad, u + w one more: 3.",
                 hint="Count the edges that end at w's AccumulateGrad: one per use of w in an operation.")


@exercise("8.2")
def check_8_2(answer_8_2, *, execution_order):
    answer = answer_8_2
    x = torch.tensor(2.0, requires_grad=True)
    q = x.tanh()
    p = x.exp()
    out_82 = q * p
    on_first_edge = out_82.grad_fn.next_functions[0][0].name()       # TanhBackward0: q is the first factor
    newest = max([q.grad_fn, p.grad_fn], key=lambda node: node._sequence_nr()).name()
    runs_first = execution_order(out_82)[1].split()[1]              # what the engine really did
    if can_check(answer, "Section 7: among nodes that are ready, which one does the ready queue pop?",
                 kind=str, what='a node name in quotes, e.g. "MulBackward0"'):
        if answer == runs_first:
            check(True, f"{runs_first} has the higher sequence number: p = x.exp() was created after "
                        "q = x.tanh(), so it is popped first, although TanhBackward0 is on the first edge.", "")
        elif answer == on_first_edge:
            check(False, "", f"{answer} is on the root's first edge (q is the first factor of q * p), and it "
                             "was created first. Neither counts: the order of the edges plays no role, and "
                             "backward replays the forward pass in reverse. Among ready nodes the ready queue "
                             "pops the one created last, the highest sequence number.")
        else:
            check(False, "", f"{answer!r} is not one of the two ready nodes: answer \"{on_first_edge}\" "
                             f"or \"{newest}\".")


@exercise("8.3")
def check_8_3(answer_8_3):
    x = torch.tensor(2.0, requires_grad=True)
    a = x + 1
    b = a * a
    out_83 = b + a
    buffer_83 = []
    a.grad_fn.register_prehook(lambda grad_outputs: buffer_83.append(grad_outputs[0].item()))
    task_83 = GraphTask(keep_graph=True, create_graph=False)
    compute_dependencies(out_83.grad_fn, task_83)
    delivered = task_83.dependencies[a.grad_fn]
    out_83.backward()
    check_answer(answer_8_3, (buffer_83[0], delivered),
                 right="1 from out = b + a, and a = 3 twice from b = a * a: 1 + 3 + 3 = 7, three gradients.",
                 hint="Count the edges into a's node (a * a counts twice), and work out what each "
                      "one carries: d(b + a)/da = 1, and each factor of a * a gets the other factor.",
                 parts=(tr("the value in the buffer"), tr("the number of gradients")))
