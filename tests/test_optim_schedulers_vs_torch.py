"""AdamW, Adagrad and Adadelta, and the learning-rate schedules of ``torch.optim.lr_scheduler``, against
PyTorch 2.13: parameters after each step, ``param_groups``, ``state_dict``/``load_state_dict``, the
arguments' errors, each schedule's learning rates (``get_last_lr``) and PyTorch's warnings (a
scheduler stepped before the optimizer, ``step(epoch)``). See tests/crosscheck.py.
"""
import textwrap

import pytest

try:
    from crosscheck import assert_same, full
except ImportError:  # tests/ made a package
    from tests.crosscheck import assert_same, full

pytest.importorskip("torch")

CASES = []


def case(id, code, error=None, message=full):
    CASES.append(pytest.param(textwrap.dedent(code), error, message, id=id))


# A quadratic bowl in float64 (so that the steps agree to many digits), two parameter groups.
BOWL = """
    def losses(opt, w, b, steps=6, scheduler=None):
        for i in range(steps):
            opt.zero_grad()
            loss = ((w - torch.tensor([1.0, -2.0, 0.5], dtype=torch.float64)) ** 2).sum() + (b * b * 3).sum()
            loss.backward()
            opt.step()
            if scheduler is not None:
                scheduler.step()
            record(f"w {i}", w)
            record(f"b {i}", b)
        return loss.item()

    def fresh():
        return (torch.tensor([0.3, 0.7, -1.1], dtype=torch.float64, requires_grad=True),
                torch.tensor([2.0, -0.5], dtype=torch.float64, requires_grad=True))
"""

case("adamw", BOWL + """
    w, b = fresh()
    opt = torch.optim.AdamW([w, b], lr=0.1)
    print(opt)
    record("loss", losses(opt, w, b))
    sd = opt.state_dict()
    print(sorted(sd["state"][0]), sd["state"][0]["step"], sd["param_groups"])
    w, b = fresh()
    opt = torch.optim.AdamW([{"params": [w]}, {"params": [b], "lr": 0.05, "weight_decay": 0.5}], lr=0.1,
                            betas=(0.8, 0.99), amsgrad=True)
    record("groups", losses(opt, w, b))
    print(opt.param_groups[1]["lr"], opt.param_groups[1]["weight_decay"], opt.defaults["weight_decay"])
""")
case("adam_addcdiv_order", BOWL + """
    w, b = fresh()
    opt = torch.optim.Adam([w.float().detach().requires_grad_()], lr=0.3)
    p = opt.param_groups[0]["params"][0]
    for i in range(20):
        opt.zero_grad()
        ((p - 1.3) ** 2 * torch.tensor([1.0, 10.0, 100.0])).sum().backward()
        opt.step()
    print(p)
""")
case("adagrad", BOWL + """
    w, b = fresh()
    opt = torch.optim.Adagrad([w, b], lr=0.5)
    print(opt, sorted(opt.state_dict()["state"][1]), opt.state_dict()["state"][1]["sum"])
    record("loss", losses(opt, w, b))
    w, b = fresh()
    opt = torch.optim.Adagrad([w, b], lr=0.5, lr_decay=0.1, weight_decay=0.2, initial_accumulator_value=0.3,
                              eps=1e-6, maximize=False)
    record("options", losses(opt, w, b))
    print(opt.state_dict()["state"][0]["step"], opt.state_dict()["param_groups"])
""")
case("adadelta", BOWL + """
    w, b = fresh()
    opt = torch.optim.Adadelta([w, b])
    print(opt, opt.state_dict())
    record("loss", losses(opt, w, b, steps=10))
    print(sorted(opt.state_dict()["state"][0]), opt.state_dict()["state"][0]["step"])
    w, b = fresh()
    opt = torch.optim.Adadelta([{"params": [w], "lr": 2.0}, {"params": [b]}], rho=0.8, eps=1e-4,
                               weight_decay=0.1)
    record("options", losses(opt, w, b, steps=10))
""")
case("optimizer_state_dict_round_trip", BOWL + """
    for make in (lambda p: torch.optim.AdamW(p, lr=0.1), lambda p: torch.optim.Adagrad(p, lr=0.3),
                 lambda p: torch.optim.Adadelta(p, lr=1.5)):
        w, b = fresh()
        opt = make([w, b])
        losses(opt, w, b, steps=3)
        saved = opt.state_dict()
        w2, b2 = w.detach().clone().requires_grad_(), b.detach().clone().requires_grad_()
        opt2 = make([w2, b2])
        opt2.load_state_dict(saved)
        record("continued", losses(opt, w, b, steps=2))
        record("reloaded", losses(opt2, w2, b2, steps=2))
        print(type(opt2).__name__, torch.equal(w, w2), torch.equal(b, b2))
""")
case("adagrad_negative_lr", "torch.optim.Adagrad([torch.ones(1, requires_grad=True)], lr=-1)", "ValueError")
case("adagrad_negative_lr_decay", "torch.optim.Adagrad([torch.ones(1, requires_grad=True)], lr_decay=-1)",
     "ValueError")
case("adagrad_negative_accumulator",
     "torch.optim.Adagrad([torch.ones(1, requires_grad=True)], initial_accumulator_value=-1)", "ValueError")
case("adadelta_rho_too_large", "torch.optim.Adadelta([torch.ones(1, requires_grad=True)], rho=1.5)",
     "ValueError")
case("adadelta_negative_eps", "torch.optim.Adadelta([torch.ones(1, requires_grad=True)], eps=-1)",
     "ValueError")
case("adamw_bad_beta", "torch.optim.AdamW([torch.ones(1, requires_grad=True)], betas=(1.0, 0.9))",
     "ValueError")

# ------------------------------------------------------------------ schedulers
SCHEDULE = """
    def schedule(make, steps=12, lr=0.1, groups=1):
        params = [torch.zeros(1, requires_grad=True) for _ in range(groups)]
        opt = torch.optim.SGD([{"params": [p]} for p in params], lr=lr)
        sched = make(opt)
        rates = [sched.get_last_lr()]
        for _ in range(steps):
            opt.step()
            sched.step()
            rates.append(sched.get_last_lr())
        record("rates", rates)
        print(type(sched).__name__, sched.last_epoch, [round(r[0], 6) for r in rates])
        return opt, sched
"""
case("schedulers", SCHEDULE + """
    from torch.optim import lr_scheduler
    schedule(lambda o: lr_scheduler.StepLR(o, step_size=3, gamma=0.5))
    schedule(lambda o: lr_scheduler.MultiStepLR(o, milestones=[2, 5, 5, 9], gamma=0.1))
    schedule(lambda o: lr_scheduler.ExponentialLR(o, gamma=0.9))
    schedule(lambda o: lr_scheduler.LambdaLR(o, lr_lambda=lambda epoch: 0.95 ** epoch))
    schedule(lambda o: lr_scheduler.LambdaLR(o, [lambda e: 1 / (e + 1), lambda e: e]), groups=2)
    schedule(lambda o: lr_scheduler.MultiplicativeLR(o, lr_lambda=lambda epoch: 0.9))
    schedule(lambda o: lr_scheduler.CosineAnnealingLR(o, T_max=5), steps=14)
    schedule(lambda o: lr_scheduler.CosineAnnealingLR(o, T_max=4, eta_min=0.01), steps=14)
    schedule(lambda o: lr_scheduler.ConstantLR(o, factor=0.5, total_iters=4))
    schedule(lambda o: lr_scheduler.LinearLR(o, start_factor=0.25, total_iters=6))
    opt, sched = schedule(lambda o: lr_scheduler.StepLR(o, 4))
    print(opt.param_groups[0]["initial_lr"], sched.base_lrs, sorted(sched.state_dict()))
    print(sorted(opt.state_dict()["param_groups"][0]))
""")
case("two_schedulers_chain", SCHEDULE + """
    from torch.optim import lr_scheduler
    p = torch.zeros(1, requires_grad=True)
    opt = torch.optim.SGD([p], lr=1.0)
    first, second = lr_scheduler.ExponentialLR(opt, 0.9), lr_scheduler.MultiStepLR(opt, [3, 6], 0.1)
    for _ in range(8):
        opt.step()
        first.step()
        second.step()
        print(round(first.get_last_lr()[0], 8), round(second.get_last_lr()[0], 8))
""")
case("scheduler_before_optimizer_warns", """
    p = torch.zeros(1, requires_grad=True)
    opt = torch.optim.SGD([p], lr=0.1)
    sched = torch.optim.lr_scheduler.StepLR(opt, 1, 0.5)
    sched.step()
    sched.step()
    opt.step()
    print(sched.get_last_lr(), sched._step_count)
""")
case("scheduler_step_with_epoch_warns", """
    p = torch.zeros(1, requires_grad=True)
    opt = torch.optim.SGD([p], lr=0.1)
    sched = torch.optim.lr_scheduler.StepLR(opt, 2, 0.5)
    opt.step()
    sched.step(5)
    print(sched.get_last_lr(), sched.last_epoch)
    cos = torch.optim.lr_scheduler.CosineAnnealingLR(opt, 10)
    cos.step(3)
    print(cos.get_last_lr())
""")
case("get_lr_outside_step_warns", """
    p = torch.zeros(1, requires_grad=True)
    opt = torch.optim.SGD([p], lr=0.1)
    sched = torch.optim.lr_scheduler.ExponentialLR(opt, 0.5)
    opt.step()
    sched.step()
    print(sched.get_lr())
""")
case("scheduler_state_dict_round_trip", """
    class Warmup:
        def __init__(self, steps):
            self.steps = steps
        def __call__(self, epoch):
            return min(1.0, (epoch + 1) / self.steps)
    p = torch.zeros(1, requires_grad=True)
    opt = torch.optim.SGD([p], lr=0.2)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, Warmup(4))
    for _ in range(2):
        opt.step()
        sched.step()
    state = sched.state_dict()
    print(state["lr_lambdas"], state["last_epoch"], state["base_lrs"], state["_last_lr"])
    opt2 = torch.optim.SGD([p], lr=0.2)
    sched2 = torch.optim.lr_scheduler.LambdaLR(opt2, Warmup(10))
    sched2.load_state_dict(state)
    opt2.step()
    sched2.step()
    print(sched2.lr_lambdas[0].steps, sched2.get_last_lr(), sched2.last_epoch)
""")
case("resume_without_initial_lr", """
    opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1)
    torch.optim.lr_scheduler.StepLR(opt, 2, last_epoch=3)
""", "KeyError")
case("scheduler_of_a_model", """
    opt = torch.nn.Linear(2, 2)
    torch.optim.lr_scheduler.StepLR(opt, 2)
""", "TypeError")
case("lambda_count_mismatch", """
    opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1)
    torch.optim.lr_scheduler.LambdaLR(opt, [lambda e: 1, lambda e: 2])
""", "ValueError")
case("reduce_on_plateau", """
    p = torch.zeros(1, requires_grad=True)
    opt = torch.optim.SGD([p], lr=1.0)
    sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, patience=2, factor=0.5, cooldown=1, min_lr=0.1)
    for metric in [5, 4, 4, 4, 4, 3.9999, 4, 4, 4, 4, 4, 4, 4, 4, 4]:
        sched.step(torch.tensor(metric))
        print(sched.get_last_lr(), sched.num_bad_epochs, sched.best)
    high = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode="max", threshold=0.1, threshold_mode="abs")
    print(high.mode_worse, high._is_better(2.0, 1.85), high._is_better(2.0, 1.95))
""")
case("reduce_on_plateau_factor", """
    opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1)
    torch.optim.lr_scheduler.ReduceLROnPlateau(opt, factor=2.0)
""", "ValueError")


@pytest.mark.parametrize("code, error, message", CASES)
def test_same_as_torch(code, error, message):
    assert_same(code, error=error, message=message)
