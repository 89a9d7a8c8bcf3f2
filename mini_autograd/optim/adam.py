"""Adam: per-parameter step sizes from running averages of the gradient and its square.

PyTorch counterpart: torch/optim/adam.py (``_single_tensor_adam``).
"""
from .. import creation, grad_mode, ops
from .optimizer import Optimizer


class Adam(Optimizer):
    """Kingma & Ba (2015), with PyTorch's defaults (lr=1e-3, betas=(0.9, 0.999), eps=1e-8)::

        m = beta1 * m + (1 - beta1) * g            (exp_avg)
        v = beta2 * v + (1 - beta2) * g * g        (exp_avg_sq)
        p = p - lr / (1 - beta1**t) * m / (sqrt(v) / sqrt(1 - beta2**t) + eps)
    """

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False, *,
                 foreach=None, maximize=False, capturable=False, differentiable=False, fused=None,
                 decoupled_weight_decay=False):
        if not lr >= 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not eps >= 0.0:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        if not weight_decay >= 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not (isinstance(betas[0], float) and isinstance(betas[1], float)):
            raise ValueError("betas must be either both floats or both Tensors")
        defaults = dict(lr=lr, betas=tuple(betas), eps=eps, weight_decay=weight_decay, amsgrad=amsgrad,
                        maximize=maximize, foreach=foreach, capturable=capturable,
                        differentiable=differentiable, fused=fused,
                        decoupled_weight_decay=decoupled_weight_decay)
        self._check_unsupported(differentiable=differentiable, fused=fused)
        super().__init__(params, defaults)

    @grad_mode.no_grad()
    def step(self, closure=None):
        """One update of every parameter that has a gradient; in place, never recorded."""
        loss = self._run_closure(closure)
        for group in self.param_groups:
            lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
            weight_decay = group["weight_decay"]
            for param, grad in self._params_with_grad(group):
                state = self.state[param]
                if not state:
                    state["step"] = creation.tensor(0.0)
                    state["exp_avg"] = creation.zeros_like(param)
                    state["exp_avg_sq"] = creation.zeros_like(param)
                    if group["amsgrad"]:
                        state["max_exp_avg_sq"] = creation.zeros_like(param)
                exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
                state["step"].add_(1)
                step = state["step"].item()

                if weight_decay != 0:
                    if group["decoupled_weight_decay"]:      # AdamW
                        param.mul_(1 - lr * weight_decay)
                    else:
                        grad = grad + param * weight_decay
                exp_avg.add_((grad - exp_avg) * (1 - beta1))          # PyTorch: lerp_
                exp_avg_sq.mul_(beta2).add_(grad * (1 - beta2) * grad)  # PyTorch: addcmul_, value * g * g

                bias_correction1 = 1 - beta1 ** step
                bias_correction2_sqrt = (1 - beta2 ** step) ** 0.5
                if group["amsgrad"]:
                    max_exp_avg_sq = state["max_exp_avg_sq"]
                    max_exp_avg_sq.copy_(ops.max(max_exp_avg_sq, exp_avg_sq))
                    second_moment = max_exp_avg_sq
                else:
                    second_moment = exp_avg_sq
                denom = second_moment.sqrt() / bias_correction2_sqrt + eps
                param.add_(exp_avg * (-lr / bias_correction1) / denom)   # PyTorch: addcdiv_, value * m / d
        return loss
