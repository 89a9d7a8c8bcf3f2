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
from .nn_ops import REDUCTIONS, _divide_for_mean, _reduce_losses
from .indexing import IndexBackwardScatter
from .pointwise import DivScalar, MaskedFill, MulScalar


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
        with np.errstate(all="ignore"):         # inf and nan go through silently, as in PyTorch
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
        """derivatives.yaml, native_batch_norm: ``native_batch_norm_backward``, one op for the three
        gradients, so that a second backward runs its own formula."""
        x, weight, _, _ = ctx.saved_tensors
        running = [ABSENT if t is None else t for t in (ctx.running_mean, ctx.running_var)]
        grads = NativeBatchNormBackward.apply(grad, x, ABSENT if weight is None else weight, *running,
                                              ctx.mean._data, ctx.invstd._data, ctx.training)
        needs_input, needs_weight, needs_bias = ctx.needs_input_grad[:3]
        return (grads[0] if needs_input else None, grads[1] if needs_weight else None,
                grads[2] if needs_bias else None, None, None, None, None)


class NativeBatchNormBackward(Function):
    """Batch norm's three gradients (input, weight, bias) as one op (``NativeBatchNormBackwardBackward0``),
    whose backward is FunctionsManual.cpp's batchnorm_double_backward: the mean and 1/std depend on the
    input, so a second derivative must go through them (the saved mean and 1/std come in as numbers)."""
    node_name = "NativeBatchNormBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, x, weight, running_mean, running_var, mean, invstd, training):
        ctx.set_materialize_grads(False)       # an unused gradient is undefined, as in PyTorch
        ctx.save_for_backward(grad, x, None if weight is ABSENT else weight)
        ctx.mean, ctx.invstd, ctx.training = mean, invstd, training
        g, data, shape = grad._data, x._data, _shape(x.ndim)
        axes = _channel_axes(data.ndim)
        with np.errstate(all="ignore"):         # nan and inf go through, as in PyTorch
            x_hat = (data - mean.reshape(shape)) * invstd.reshape(shape)
            sum_grad = g.sum(axis=axes, keepdims=True)
            sum_grad_x_hat = (g * x_hat).sum(axis=axes, keepdims=True)
            scale = invstd if weight is ABSENT else invstd * weight._data
            scale = scale.reshape(shape)
            if training:
                count = data.size // data.shape[1]
                grad_input = scale * (g - sum_grad / count - x_hat * (sum_grad_x_hat / count))
            else:
                grad_input = g * scale
        dtype = data.dtype
        return (Tensor(grad_input.astype(dtype, copy=False)),
                Tensor(sum_grad_x_hat.reshape(-1).astype(dtype)), Tensor(sum_grad.reshape(-1).astype(dtype)))

    @staticmethod
    def backward(ctx, gg_input, gg_weight, gg_bias):
        grad, x, weight = ctx.saved_tensors
        grad_x, grad_weight, grad_grad = _batchnorm_double_backward(
            x, weight, gg_input, gg_weight, gg_bias, grad, ctx.mean, ctx.invstd, ctx.training)
        return grad_grad, grad_x, grad_weight, None, None, None, None, None


def _batchnorm_double_backward(x, gamma, ggI, ggG, ggB, gO, mean, invstd, training):
    """FunctionsManual.cpp, batchnorm_double_backward, term by term: the gradients of the input, of
    the weight (``gamma``) and of the incoming gradient (``gO``), given those of batch norm's three
    gradients (``ggI``, ``ggG``, ``ggB``; None where undefined). Divisions and products by the count
    are by a number (``div_(M)``: DivBackward1), as in PyTorch."""
    shape = _shape(x.ndim)
    affine = gamma is not None
    count = x.numel() // x.shape[1]          # M in PyTorch's code

    def sum_but_channels(t, keepdim=True):   # sum_exclude_dim1: dimension 0, then the last ones, one by one
        total = t.sum(0, keepdim=keepdim)
        for d in range(total.ndim - 1, 1 if keepdim else 0, -1):
            total = total.sum(d, keepdim=keepdim)
        return total

    def per_channel(t):                      # expand_as_dim1: a (C,) tensor laid along dimension 1
        while t.ndim < x.ndim - 1:
            t = t.unsqueeze(1)
        return t.expand(tuple(x.shape))

    def over(t, number):
        return DivScalar.apply(t, number)

    gamma_e = per_channel(gamma) if affine else Tensor(np.ones((), x._data.dtype))
    input_sub_mu = x - Tensor(mean.reshape(shape))
    invstd_e = Tensor(invstd.reshape(shape))           # sigma2_eps_neg_1_2
    invstd_2, invstd_3 = invstd_e ** 2, invstd_e ** 3
    input_mu_invstd_3 = input_sub_mu * invstd_3
    gO_in_mu_sum = sum_but_channels(gO * input_sub_mu)
    gO_sum = sum_but_channels(gO)

    grad_input = None
    if ggI is not None and training:
        ggI_sum, ggI_in_mu_sum = sum_but_channels(ggI), sum_but_channels(ggI * input_sub_mu)
        all_sub = (over(ggI_sum * gO_sum, count) - sum_but_channels(gO * ggI)
                   + MulScalar.apply(invstd_2 * gO_in_mu_sum * ggI_in_mu_sum, 3.0 / count))
        term_0 = over(input_mu_invstd_3 * all_sub, count)
        term_1 = over(ggI_in_mu_sum * invstd_3, count) * (over(gO_sum, count) - gO)
        term_2 = over(gO_in_mu_sum * invstd_3, count) * (over(ggI_sum, count) - ggI)
        grad_input = gamma_e * (term_0 + term_1 + term_2)
    if affine and ggG is not None:
        if training:
            t0 = gO * invstd_e
            t1 = over(invstd_e * gO_sum, -count)
            t2 = over(input_mu_invstd_3 * sum_but_channels(gO * input_sub_mu), -count)
            term = per_channel(ggG) * (t0 + t1 + t2)
        else:
            term = per_channel(ggG) * invstd_e * gO
        grad_input = term if grad_input is None else grad_input + term

    def first_backward_grad_input(g, gamma_):
        h0 = over(gamma_ * invstd_e, count)
        h1 = (MulScalar.apply(g, count) - sum_but_channels(g)
              - input_sub_mu * invstd_2 * sum_but_channels(g * input_sub_mu))
        return h0 * h1

    grad_gamma = None
    if affine and ggI is not None:
        if training:
            ones = Tensor(np.ones((), x._data.dtype))
            grad_gamma = sum_but_channels(ggI * first_backward_grad_input(gO, ones), keepdim=False)
        else:
            grad_gamma = sum_but_channels(ggI * gO * invstd_e, keepdim=False)

    grad_gO = None
    if ggI is not None:
        grad_gO = first_backward_grad_input(ggI, gamma_e) if training else ggI * invstd_e * gamma_e
    if affine and ggG is not None:
        term = per_channel(ggG) * input_sub_mu * invstd_e
        grad_gO = term if grad_gO is None else grad_gO + term
    if affine and ggB is not None:
        term = per_channel(ggB)
        grad_gO = term if grad_gO is None else grad_gO + term
    return grad_input, grad_gamma, grad_gO


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
        ctx.indices, ctx.padding_idx = indices, padding_idx
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
        """FunctionsManual.cpp, embedding_dense_double_backward_symint: the rows read back
        (``index_select``), 0 for the padding row's (``masked_fill_``), viewed in the indices' shape.
        The frequency scaling is not undone, as in PyTorch."""
        flat = ctx.indices.reshape(-1)
        rows = IndexSelect.apply(gg, flat)
        if ctx.padding_idx >= 0:
            rows = MaskedFill.apply(rows, (flat == ctx.padding_idx)[:, None], 0.0)
        return rows.view(ctx.indices.shape + (-1,)), None, None, None, None


class IndexSelect(Function):
    """The rows of x at ``index`` (``x.index_select(0, index)``); the gradient adds each row back."""
    node_name = "IndexSelectBackward0"

    @staticmethod
    def forward(ctx, x, index):
        ctx.self_sym_sizes, ctx.index = tuple(x.shape), index
        return Tensor(x._data[index])

    @staticmethod
    def backward(ctx, grad):
        zeros = Tensor(np.zeros(ctx.self_sym_sizes, grad._data.dtype))
        return IndexBackwardScatter.apply(zeros, grad, (ctx.index,)), None


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
        """derivatives.yaml, smooth_l1_loss: one smooth_l1_loss_backward each, the target's with the
        roles of input and target swapped."""
        x, target = ctx.saved_tensors
        needs_x, needs_target = ctx.needs_input_grad[:2]
        reduction, beta = ctx.reduction, ctx.beta
        return (SmoothL1LossBackward.apply(grad, x, target, reduction, beta) if needs_x else None,
                SmoothL1LossBackward.apply(grad, target, x, reduction, beta) if needs_target else None,
                None, None)


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
        """derivatives.yaml, smooth_l1_loss_backward: grad_output, self, then target; the last two are
        FunctionsManual.cpp's smooth_l1_loss_double_backward of ``grad * grad_output``."""
        grad, x, target = ctx.saved_tensors
        needs, reduction, beta = ctx.needs_input_grad, ctx.reduction, ctx.beta
        grad_grad = None
        if needs[0]:
            grad_grad = SmoothL1LossBackward.apply(gg, x, target, reduction, beta)
            if grad.ndim == 0:                   # a mean or sum: the loss was one number
                grad_grad = grad_grad.sum()
        grad_x = _smooth_l1_double_backward(gg * grad, x, target, reduction, beta) if needs[1] else None
        grad_target = -_smooth_l1_double_backward(gg * grad, x, target, reduction, beta) if needs[2] else None
        return grad_grad, grad_x, grad_target, None, None


def _smooth_l1_double_backward(grad, x, target, reduction, beta):
    """FunctionsManual.cpp, smooth_l1_loss_double_backward: ``grad * (|x - target| < beta) / beta``,
    divided by x's size for the mean (nan where x or target is nan: the comparison is false, 0)."""
    inside = _closer_than(x, target, beta, grad._data.dtype)
    return _divide_for_mean(DivScalar.apply(grad * inside, beta), reduction, x.numel())


def _closer_than(x, target, bound, dtype):
    """``(|x - target| < bound)`` as a tensor of 0s and 1s of ``dtype`` (no graph)."""
    with np.errstate(invalid="ignore"):
        return Tensor((np.abs(x._data - target._data) < bound).astype(dtype))


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
        """derivatives.yaml, huber_loss: one huber_loss_backward each, the target's with the roles of
        input and target swapped."""
        x, target = ctx.saved_tensors
        needs_x, needs_target = ctx.needs_input_grad[:2]
        return (HuberLossBackward.apply(grad, x, target, ctx.reduction, ctx.delta) if needs_x else None,
                HuberLossBackward.apply(grad, target, x, ctx.reduction, ctx.delta) if needs_target else None,
                None, None)


class HuberLossBackward(Function):
    """clamp(x - y, -delta, delta) * grad [/ n]: huber_loss's backward as one op, differentiable again
    (aten/src/ATen/native/cpu/PointwiseOpsKernel.cpp, huber_backward_cpu_kernel)."""
    node_name = "HuberLossBackwardBackward0"
    saved_names = ("grad_output", "self", "target")

    @staticmethod
    def forward(ctx, grad, x, target, reduction, delta):
        ctx.reduction, ctx.delta = reduction, delta
        ctx.save_for_backward(grad, x, target)
        dtype = result_dtype(x, target)
        diff = cast(x._data, dtype) - cast(target._data, dtype)
        out = np.clip(diff, -dtype.type(delta), dtype.type(delta)) * grad._data
        if reduction == REDUCTIONS["mean"]:
            out = out / dtype.type(x.numel())
        return Tensor(np.asarray(out, dtype))

    @staticmethod
    def backward(ctx, gg):
        """derivatives.yaml, huber_loss_backward: grad_output (FunctionsManual.cpp,
        huber_loss_double_backward_grad_output), then self and target (huber_loss_double_backward of
        ``grad * grad_output``)."""
        grad, x, target = ctx.saved_tensors
        needs, reduction, delta = ctx.needs_input_grad, ctx.reduction, ctx.delta
        grad_grad = None
        if needs[0]:
            if reduction == REDUCTIONS["none"]:
                grad_grad = HuberLossBackward.apply(gg, x, target, reduction, delta)
            else:
                ones = Tensor(np.ones(grad._data.shape, grad._data.dtype))
                grad_grad = (HuberLossBackward.apply(ones, x, target, reduction, delta) * gg).sum()
        grad_x = _huber_double_backward(gg * grad, x, target, reduction, delta) if needs[1] else None
        grad_target = -_huber_double_backward(gg * grad, x, target, reduction, delta) if needs[2] else None
        return grad_grad, grad_x, grad_target, None, None


def _huber_double_backward(grad, x, target, reduction, delta):
    """FunctionsManual.cpp, huber_loss_double_backward: ``grad * (|x - target| < delta)``, divided by
    x's size for the mean."""
    return _divide_for_mean(grad * _closer_than(x, target, delta, grad._data.dtype), reduction, x.numel())
