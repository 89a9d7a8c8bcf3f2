"""Adadelta: steps scaled by the ratio of running root-mean-squares of past steps and of gradients.

PyTorch counterpart: torch/optim/adadelta.py (``_single_tensor_adadelta``).
"""
from .. import creation, grad_mode
from .optimizer import Optimizer


class Adadelta(Optimizer):
    """Zeiler (2012), with PyTorch's defaults (lr=1.0, rho=0.9, eps=1e-6, weight_decay=0)::

        g = grad + weight_decay * p
        v = rho * v + (1 - rho) * g * g                       (square_avg)
        delta = sqrt(u + eps) / sqrt(v + eps) * g
        u = rho * u + (1 - rho) * delta * delta               (acc_delta)
        p = p - lr * delta
    """

    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *, capturable=False,
                 maximize=False, differentiable=False):
        if not lr >= 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        if not eps >= 0.0:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not weight_decay >= 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = dict(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay, maximize=maximize,
                        capturable=capturable, foreach=foreach, differentiable=differentiable)
        self._check_unsupported(differentiable=differentiable)
        super().__init__(params, defaults)

    @grad_mode.no_grad()
    def step(self, closure=None):
        """One update of every parameter that has a gradient; in place, never recorded."""
        loss = self._run_closure(closure)
        for group in self.param_groups:
            lr, rho, eps, weight_decay = group["lr"], group["rho"], group["eps"], group["weight_decay"]
            for param, grad in self._params_with_grad(group):
                state = self.state[param]
                if not state:
                    state["step"] = creation.tensor(0.0)
                    state["square_avg"] = creation.zeros_like(param)
                    state["acc_delta"] = creation.zeros_like(param)
                state["step"].add_(1)
                if weight_decay != 0:
                    grad = grad.add(param, alpha=weight_decay)
                square_avg, acc_delta = state["square_avg"], state["acc_delta"]
                square_avg.mul_(rho).add_(grad * (1 - rho) * grad)          # PyTorch: addcmul_
                std = square_avg.add(eps).sqrt_()
                delta = acc_delta.add(eps).sqrt_().div_(std).mul_(grad)
                acc_delta.mul_(rho).add_(delta * (1 - rho) * delta)         # PyTorch: addcmul_
                param.add_(delta, alpha=-lr)
        return loss
