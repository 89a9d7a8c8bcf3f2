"""``torch.nn.utils``: clipping gradients, and parameters as one vector.

PyTorch counterpart: torch/nn/utils/clip_grad.py and torch/nn/utils/convert_parameters.py.
"""
import math

from .. import creation, grad_mode, ops
from .._tensor import Tensor


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False, foreach=None):
    """Scale the gradients down, in place, so that their joint norm is at most ``max_norm``;
    returns that norm (before the scaling)."""
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    grads = [p.grad for p in parameters if p.grad is not None]
    with grad_mode.no_grad():
        if not grads:
            return creation.tensor(0.0)
        norm_type = float(norm_type)
        norms = [g.norm(norm_type) for g in grads]
        total_norm = ops.stack(norms).norm(norm_type)
        if error_if_nonfinite and not math.isfinite(total_norm.item()):
            raise RuntimeError(f"The total norm of order {norm_type} for gradients from `parameters` is "
                               "non-finite, so it cannot be clipped. To disable this error and scale the "
                               "gradients by the non-finite norm anyway, set `error_if_nonfinite=False`")
        clip_coef = max_norm / (total_norm + 1e-6)
        clip_coef_clamped = ops.clamp(clip_coef, max=1.0)
        for g in grads:
            g.mul_(clip_coef_clamped)
    return total_norm


def clip_grad_value_(parameters, clip_value, foreach=None):
    """Clamp every gradient, in place, to [-clip_value, clip_value]."""
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    with grad_mode.no_grad():
        for p in parameters:
            if p.grad is not None:
                p.grad.clamp_(min=-clip_value, max=clip_value)


def parameters_to_vector(parameters):
    """The parameters, flattened and joined into one vector."""
    return ops.cat([p.reshape(-1) for p in parameters])


def vector_to_parameters(vec, parameters):
    """Copy consecutive pieces of ``vec`` into the parameters (their ``.data``)."""
    pointer = 0
    for param in parameters:
        count = param.numel()
        param.data = vec[pointer:pointer + count].view_as(param).data
        pointer += count
