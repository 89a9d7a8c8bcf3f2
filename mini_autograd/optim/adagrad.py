"""Adagrad: each parameter's step divided by the root of the sum of all its squared gradients so far.

PyTorch counterpart: torch/optim/adagrad.py (``_single_tensor_adagrad``).
"""
from .. import creation, grad_mode
from .optimizer import Optimizer


class Adagrad(Optimizer):
    """Duchi et al. (2011), with PyTorch's defaults (lr=1e-2, lr_decay=0, weight_decay=0,
    initial_accumulator_value=0, eps=1e-10)::

        g = grad + weight_decay * p
        clr = lr / (1 + (step - 1) * lr_decay)
        s = s + g * g                              (sum)
        p = p - clr * g / (sqrt(s) + eps)

    As in PyTorch, every parameter's state (``step``, ``sum``) is made here, before any step.
    """

    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0, eps=1e-10,
                 foreach=None, *, maximize=False, differentiable=False, fused=None):
        for name, value in (("learning rate", lr), ("lr_decay value", lr_decay),
                            ("weight_decay value", weight_decay),
                            ("initial_accumulator_value value", initial_accumulator_value),
                            ("epsilon value", eps)):
            if not value >= 0.0:
                raise ValueError(f"Invalid {name}: {value}")
        defaults = dict(lr=lr, lr_decay=lr_decay, eps=eps, weight_decay=weight_decay,
                        initial_accumulator_value=initial_accumulator_value, foreach=foreach,
                        maximize=maximize, differentiable=differentiable, fused=fused)
        self._check_unsupported(differentiable=differentiable, fused=fused)
        super().__init__(params, defaults)
        for group in self.param_groups:
            for param in group["params"]:
                state = self.state[param]
                state["step"] = creation.tensor(0.0)
                state["sum"] = creation.full_like(param, initial_accumulator_value)

    @grad_mode.no_grad()
    def step(self, closure=None):
        """One update of every parameter that has a gradient; in place, never recorded."""
        loss = self._run_closure(closure)
        for group in self.param_groups:
            lr, lr_decay, eps = group["lr"], group["lr_decay"], group["eps"]
            weight_decay = group["weight_decay"]
            for param, grad in self._params_with_grad(group):
                state = self.state[param]
                state["step"].add_(1)
                step = state["step"].item()
                if weight_decay != 0:
                    grad = grad.add(param, alpha=weight_decay)
                clr = lr / (1 + (step - 1) * lr_decay)
                state_sum = state["sum"]
                state_sum.add_(grad * grad)                        # PyTorch: addcmul_(grad, grad, value=1)
                std = state_sum.sqrt().add_(eps)
                param.add_(grad * -clr / std)                      # PyTorch: addcdiv_(grad, std, value=-clr)
        return loss
