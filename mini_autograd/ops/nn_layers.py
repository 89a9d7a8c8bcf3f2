"""The operations of the layers with state or lookups: batch norm, embedding, and the smooth L1 losses.

Each is a ``Function`` named after the node PyTorch records (``NativeBatchNormBackward0``,
``EmbeddingBackward0``, ``SmoothL1LossBackward0``, ``HuberLossBackward0``); the argument
checks live in ``nn.functional``. What is not differentiable (running statistics, class
indices) is passed wrapped, so no edge is recorded for it, as in PyTorch.
"""
import numpy as np

from .._tensor import Tensor
from ..autograd.function import Function
from ._helpers import cast, result_dtype
from .nn_ops import REDUCTIONS, _reduce_losses


class RunningStats:
    """A batch norm's running mean and variance (or None): updated in place, never graph inputs."""

    def __init__(self, mean, var):
        self.mean, self.var = mean, var


class Indices:
    """An embedding's indices: read, never differentiated, so passed without an edge."""

    def __init__(self, tensor):
        self.tensor = tensor


# Stands for a missing weight or bias of batch norm: an input without a gradient, so that the node
# has its three edges, (None, 0) for the missing ones, as PyTorch's has.
ABSENT = Tensor(np.zeros(0, np.float32))


def _channel_axes(ndim):
    """The axes batch norm reduces over: all but the channels (dimension 1)."""
    return (0,) + tuple(range(2, ndim))


def _per_channel(values, ndim):
    """A per-channel vector, shaped to broadcast against the input: (C,) -> (C, 1, ...)."""
    return values.reshape((-1,) + (1,) * (ndim - 2))


class NativeBatchNorm(Function):
    """(x - mean) / sqrt(var + eps) * weight + bias, per channel (dimension 1).

    Training: mean and biased var of this batch (saved as ``result1``, the mean, and
    ``result2``, 1/sqrt(var + eps)); the running statistics, when given, move towards
    the batch's mean and *unbiased* var by ``momentum``. Evaluation: the running
    statistics normalise. PyTorch counterpart: aten/src/ATen/native/Normalization.cpp.
    """
    node_name = "NativeBatchNormBackward0"
    saved_names = ("input", "weight", "result1", "result2")
    saved_fields = ("running_mean", "running_var", "training", "eps")

    @staticmethod
    def forward(ctx, x, weight, bias, running, training, momentum, eps):
        weight = None if weight is ABSENT else weight
        bias = None if bias is ABSENT else bias
        data = x._data
        axes, ndim = _channel_axes(data.ndim), data.ndim
        ctx.training, ctx.eps = training, eps
        ctx.running_mean, ctx.running_var = running.mean, running.var
        if training:
            wide = data.astype(np.float64)           # PyTorch sums float32 in double on the CPU
            mean = wide.mean(axis=axes)
            var = np.square(wide - _per_channel(mean, ndim)).mean(axis=axes)
            invstd = (1.0 / np.sqrt(var + eps)).astype(data.dtype)
            mean = mean.astype(data.dtype)
            if running.mean is not None:
                count = data.size // data.shape[1]
                unbiased = var * count / (count - 1) if count > 1 else np.full_like(var, np.nan)
                _move_towards(running.mean, mean, momentum)
                _move_towards(running.var, unbiased, momentum)
            result1, result2 = Tensor(mean), Tensor(invstd)
        else:
            mean = running.mean._data
            invstd = (1.0 / np.sqrt(running.var._data.astype(np.float64) + eps)).astype(data.dtype)
            result1, result2 = Tensor(np.zeros(0, data.dtype)), Tensor(np.zeros(0, data.dtype))
        alpha = invstd if weight is None else invstd * weight._data
        beta = -mean * alpha if bias is None else bias._data - mean * alpha
        out = data * _per_channel(alpha, ndim) + _per_channel(beta, ndim)
        ctx.save_for_backward(x, weight, result1, result2)
        ctx.mean, ctx.invstd = Tensor(mean.astype(data.dtype)), Tensor(invstd)
        return Tensor(out.astype(data.dtype, copy=False))

    @staticmethod
    def backward(ctx, grad):
        x, weight, _, _ = ctx.saved_tensors
        ndim = x.ndim
        axes = _channel_axes(ndim)
        mean, invstd = ctx.mean.reshape(_shape(ndim)), ctx.invstd.reshape(_shape(ndim))
        x_hat = (x - mean) * invstd
        sum_grad = grad.sum(axes, keepdim=True)
        sum_grad_x_hat = (grad * x_hat).sum(axes, keepdim=True)
        needs_input, needs_weight, needs_bias = ctx.needs_input_grad[:3]
        grad_input = None
        if needs_input:
            scale = invstd if weight is None else invstd * weight.reshape(_shape(ndim))
            if ctx.training:
                count = x.numel() // x.shape[1]
                grad_input = scale * (grad - sum_grad / count - x_hat * (sum_grad_x_hat / count))
            else:
                grad_input = grad * scale
        grad_weight = sum_grad_x_hat.reshape(-1) if needs_weight else None
        grad_bias = sum_grad.reshape(-1) if needs_bias else None
        return grad_input, grad_weight, grad_bias, None, None, None, None


def _shape(ndim):
    return (1, -1) + (1,) * (ndim - 2)


def _move_towards(buffer, value, momentum):
    """running = (1 - momentum) * running + momentum * value, in place (a version bump, as in PyTorch)."""
    data = buffer._data
    data[...] = ((1 - momentum) * data + momentum * value).astype(data.dtype)
    buffer._bump_version()


class Embedding(Function):
    """Rows of ``weight`` picked by integer ``indices``: weight[indices].

    The gradient adds each incoming row into the row it was read from (a row read
    twice gets both), except the ``padding_idx`` row, which gets none.
    """
    node_name = "EmbeddingBackward0"
    saved_attributes = ("indices",)
    saved_fields = ("indices", "padding_idx", "scale_grad_by_freq", "sparse", "weight_sym_argsize_0")

    @staticmethod
    def forward(ctx, weight, indices, padding_idx, scale_grad_by_freq, sparse):
        indices = ctx.indices = indices.tensor
        ctx.padding_idx, ctx.scale_grad_by_freq, ctx.sparse = padding_idx, scale_grad_by_freq, sparse
        ctx.weight_sym_argsize_0 = weight.shape[0]
        return Tensor(weight._data[indices._data])

    @staticmethod
    def backward(ctx, grad):
        grad_weight = EmbeddingDenseBackward.apply(grad, ctx.indices._data, ctx.weight_sym_argsize_0,
                                                   ctx.padding_idx, ctx.scale_grad_by_freq)
        return grad_weight, None, None, None, None


class EmbeddingDenseBackward(Function):
    """Embedding's backward as one op: differentiated again, it reads the rows back."""
    node_name = "EmbeddingDenseBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, indices, num_weights, padding_idx, scale_grad_by_freq):
        ctx.indices = indices
        flat = indices.reshape(-1)
        rows = grad._data.reshape(flat.size, -1)
        if scale_grad_by_freq:
            counts = np.bincount(flat, minlength=num_weights)
            rows = rows / counts[flat][:, None].astype(rows.dtype)
        out = np.zeros((num_weights, rows.shape[1]), grad._data.dtype)
        np.add.at(out, flat, rows)
        if padding_idx >= 0:
            out[padding_idx] = 0
        return Tensor(out)

    @staticmethod
    def backward(ctx, gg):
        return Embedding.apply(gg, Indices(Tensor(ctx.indices)), -1, False, False), None, None, None, None


class SmoothL1Loss(Function):
    """0.5 (x - y)**2 / beta where |x - y| < beta, else |x - y| - 0.5 beta; then mean, sum or nothing.

    d/dx = clamp((x - y) / beta, -1, 1) [/ n]. (``HuberLoss``, below, is delta times this loss with
    beta = delta.)
    """
    node_name = "SmoothL1LossBackward0"
    saved_names = ("self", "target")

    @staticmethod
    def forward(ctx, x, target, reduction, beta):
        ctx.reduction, ctx.beta = REDUCTIONS[reduction], beta
        ctx.save_for_backward(x, target)
        dtype = result_dtype(x, target)
        diff = np.abs(cast(x._data, dtype) - cast(target._data, dtype))
        with np.errstate(invalid="ignore", divide="ignore"):
            beta_, half = dtype.type(beta), dtype.type(0.5)
            losses = np.where(diff < beta_, half * diff * diff / beta_, diff - half * beta_)
        return _reduce_losses(losses.astype(dtype, copy=False), reduction)

    @staticmethod
    def backward(ctx, grad):
        x, target = ctx.saved_tensors
        grad_input = SmoothL1LossBackward.apply(grad, x, target, ctx.reduction, ctx.beta)
        return (grad_input if ctx.needs_input_grad[0] else None,
                -grad_input if ctx.needs_input_grad[1] else None, None, None)


class SmoothL1LossBackward(Function):
    """clamp((x - y) / beta, -1, 1) * grad [/ n]: smooth_l1_loss's backward as one op, differentiable
    again."""
    node_name = "SmoothL1LossBackwardBackward0"
    saved_names = ("grad_output", "self", "target")

    @staticmethod
    def forward(ctx, grad, x, target, reduction, beta):
        ctx.reduction, ctx.beta = reduction, beta
        ctx.save_for_backward(grad, x, target)
        dtype = result_dtype(x, target)
        diff = cast(x._data, dtype) - cast(target._data, dtype)
        slope = np.clip(diff / dtype.type(beta), -1, 1)
        out = slope * grad._data
        if reduction == REDUCTIONS["mean"]:
            out = out / dtype.type(x.numel())
        return Tensor(np.asarray(out, dtype))

    @staticmethod
    def backward(ctx, gg):
        grad, x, target = ctx.saved_tensors
        inside = Tensor((np.abs(x._data - target._data) < ctx.beta).astype(gg._data.dtype))
        slope = ((x - target) / ctx.beta).clamp(-1, 1)
        grad_grad = None
        if ctx.needs_input_grad[0]:
            grad_grad = _scaled(slope * gg, ctx.reduction, x.numel())
            if grad.ndim == 0:                   # a mean or sum: the loss was one number
                grad_grad = grad_grad.sum()
        both = _scaled(inside * grad * gg / ctx.beta, ctx.reduction, x.numel())
        return (grad_grad, both if ctx.needs_input_grad[1] else None,
                -both if ctx.needs_input_grad[2] else None, None, None)


class HuberLoss(Function):
    """0.5 (x - y)**2 where |x - y| < delta, else delta (|x - y| - 0.5 delta); then mean, sum or nothing."""
    node_name = "HuberLossBackward0"
    saved_names = ("self", "target")

    @staticmethod
    def forward(ctx, x, target, reduction, delta):
        ctx.reduction, ctx.delta = REDUCTIONS[reduction], delta
        ctx.save_for_backward(x, target)
        dtype = result_dtype(x, target)
        diff = np.abs(cast(x._data, dtype) - cast(target._data, dtype))
        delta_ = dtype.type(delta)
        half = dtype.type(0.5)
        losses = np.where(diff < delta_, half * diff * diff, delta_ * (diff - half * delta_))
        return _reduce_losses(losses.astype(dtype, copy=False), reduction)

    @staticmethod
    def backward(ctx, grad):
        x, target = ctx.saved_tensors
        slope = (x - target).clamp(-ctx.delta, ctx.delta)
        grad_input = _scaled(slope * grad, ctx.reduction, x.numel())
        return (grad_input if ctx.needs_input_grad[0] else None,
                -grad_input if ctx.needs_input_grad[1] else None, None, None)


def _scaled(grad, reduction, count):
    return grad / count if reduction == REDUCTIONS["mean"] else grad
