"""RMSprop: divide each step by a running root-mean-square of the gradient.

PyTorch counterpart: torch/optim/rmsprop.py (``_single_tensor_rmsprop``).
"""
from .. import creation, grad_mode
from .optimizer import Optimizer


class RMSprop(Optimizer):
    """Hinton's RMSprop, with PyTorch's defaults (lr=1e-2, alpha=0.99, eps=1e-8)::

        v = alpha * v + (1 - alpha) * g * g             (square_avg)
        avg = sqrt(v) + eps      (centered: sqrt(v - mean(g)**2) + eps)
        p = p - lr * g / avg     (momentum: buf = momentum * buf + g / avg; p = p - lr * buf)
    """

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0, centered=False,
                 capturable=False, foreach=None, maximize=False, differentiable=False):
        if not lr >= 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not eps >= 0.0:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not momentum >= 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if not weight_decay >= 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not alpha >= 0.0:
            raise ValueError(f"Invalid alpha value: {alpha}")
        defaults = dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps, centered=centered,
                        weight_decay=weight_decay, capturable=capturable, foreach=foreach, maximize=maximize,
                        differentiable=differentiable)
        self._check_unsupported(differentiable=differentiable)
        super().__init__(params, defaults)

    @grad_mode.no_grad()
    def step(self, closure=None):
        """One update of every parameter that has a gradient; in place, never recorded."""
        loss = self._run_closure(closure)
        for group in self.param_groups:
            lr, alpha, eps = group["lr"], group["alpha"], group["eps"]
            momentum, weight_decay = group["momentum"], group["weight_decay"]
            for param, grad in self._params_with_grad(group):
                state = self.state[param]
                if not state:
                    state["step"] = creation.tensor(0.0)
                    state["square_avg"] = creation.zeros_like(param)
                    if momentum > 0:
                        state["momentum_buffer"] = creation.zeros_like(param)
                    if group["centered"]:
                        state["grad_avg"] = creation.zeros_like(param)
                state["step"].add_(1)
                if weight_decay != 0:
                    grad = grad + param * weight_decay
                square_avg = state["square_avg"]
                square_avg.mul_(alpha).add_(grad * grad * (1 - alpha))      # PyTorch: addcmul_
                if group["centered"]:
                    grad_avg = state["grad_avg"]
                    grad_avg.add_((grad - grad_avg) * (1 - alpha))            # PyTorch: lerp_
                    avg = (square_avg - grad_avg * grad_avg).sqrt() + eps
                else:
                    avg = square_avg.sqrt() + eps
                if momentum > 0:
                    buf = state["momentum_buffer"]
                    buf.mul_(momentum).add_(grad / avg)                       # PyTorch: addcdiv_
                    param.add_(buf * -lr)
                else:
                    param.add_(grad / avg * -lr)                              # PyTorch: addcdiv_
        return loss
