"""AdamW: Adam whose weight decay shrinks the parameters directly, outside the running averages.

PyTorch counterpart: torch/optim/adamw.py (``AdamW`` is ``Adam`` with ``decoupled_weight_decay=True``).
"""
from .adam import Adam


class AdamW(Adam):
    """Loshchilov & Hutter (2019), with PyTorch's defaults (lr=1e-3, betas=(0.9, 0.999), eps=1e-8,
    weight_decay=1e-2): each step first does ``p = p * (1 - lr * weight_decay)``, then Adam's update."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, *,
                 maximize=False, foreach=None, capturable=False, differentiable=False, fused=None):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach, maximize=maximize,
                         capturable=capturable, differentiable=differentiable, fused=fused,
                         decoupled_weight_decay=True)
