"""Normalization: batch norm and layer norm (tools/autograd/derivatives.yaml;
aten/src/ATen/native/Normalization.cpp).

``F.batch_norm`` records ``NativeBatchNormBackward0``; its running statistics are updated in place, never
graph inputs, so they are passed wrapped, without an edge. ``F.layer_norm`` calls ``native_layer_norm``,
whose node is ``NativeLayerNormBackward0``; it keeps the input, the parameters and the rows' mean and
1/std (``_saved_result1``, ``_saved_result2``). Each backward is one op (``native_batch_norm_backward``,
``native_layer_norm_backward``), whose own backward is FunctionsManual.cpp's batchnorm_double_backward or
layer_norm_double_backward.
"""
import math

import numpy as np

from .._tensor import Tensor
from ..autograd.function import Function
from ._helpers import check_tensor
from .binary import DivScalar, MulScalar


class RunningStats:
    """A batch norm's running mean and variance (or None): updated in place, never graph inputs."""

    def __init__(self, mean, var):
        self.mean, self.var = mean, var


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


def _rows(shape, normalized_shape):
    """(M, N): the number of rows and the size of each, for an input of ``shape``."""
    axis = len(shape) - len(normalized_shape)
    return math.prod(shape[:axis]), math.prod(shape[axis:])


class NativeLayerNorm(Function):
    """``(x - mean) / sqrt(var + eps) * weight + bias`` over the last dimensions. It saves bias, input
    and weight in that order, the order PyTorch's node packs them in (saved_tensors_hooks see it)."""
    node_name = "NativeLayerNormBackward0"
    saved_names = ("bias", "input", "weight", "result1", "result2")
    saved_fields = ("normalized_shape",)

    @staticmethod
    def forward(ctx, x, weight, bias, normalized_shape, eps):
        """The mean and the biased variance of each row, ``rstd = 1 / sqrt(max(var, 0) + eps)``, as PyTorch's
        CPU kernel computes them (in float32 there; in float64 here, then rounded)."""
        ctx.normalized_shape = normalized_shape
        weight, bias = (None if t is ABSENT else t for t in (weight, bias))
        m, n = _rows(x.shape, normalized_shape)
        data = x._data.astype(np.float64).reshape(m, n)
        mean = data.mean(axis=1, keepdims=True) if n else np.full((m, 1), np.nan)
        with np.errstate(divide="ignore", invalid="ignore"):
            rstd = 1 / np.sqrt(np.maximum(((data - mean) ** 2).mean(axis=1, keepdims=True), 0) + eps)
        out = ((data - mean) * rstd).reshape(x._data.shape)
        if weight is not None:
            out = out * weight._data
        if bias is not None:
            out = out + bias._data
        stat_shape = tuple(x.shape[:x.ndim - len(normalized_shape)]) + (1,) * len(normalized_shape)
        dtype = x._data.dtype
        mean_t = Tensor(mean.reshape(stat_shape).astype(dtype))
        rstd_t = Tensor(rstd.reshape(stat_shape).astype(dtype))
        ctx.save_for_backward(bias, x, weight, mean_t, rstd_t)
        return Tensor(out.astype(dtype))

    @staticmethod
    def backward(ctx, grad):
        """derivatives.yaml, native_layer_norm: ``native_layer_norm_backward_symint(grad, input,
        normalized_shape, result1, result2, weight, bias, grad_input_mask)``."""
        bias, x, weight, mean, rstd = ctx.saved_tensors
        mask = ctx.needs_input_grad[:3]
        grads = NativeLayerNormBackward.apply(grad, x, mean, rstd, _given(weight), _given(bias),
                                              ctx.normalized_shape, mask)
        return tuple(g if wanted else None for g, wanted in zip(grads, mask, strict=True)) + (None, None)


class NativeLayerNormBackward(Function):
    """``native_layer_norm_backward``: the gradients of the input, weight and bias, as one op."""
    node_name = "NativeLayerNormBackwardBackward0"
    saved_names = ("grad_out", "input", "mean", "rstd", "weight")
    saved_fields = ("normalized_shape",)

    @staticmethod
    def forward(ctx, grad, x, mean, rstd, weight, bias, normalized_shape, mask):
        weight = None if weight is ABSENT else weight
        ctx.normalized_shape, ctx.has_bias = normalized_shape, bias is not ABSENT
        ctx.save_for_backward(grad, x, mean, rstd, weight)
        m, n = _rows(x.shape, normalized_shape)
        dtype = x._data.dtype
        dy = grad._data.astype(np.float64).reshape(m, n)
        rows = x._data.astype(np.float64).reshape(m, n)
        x_hat = (rows - mean._data.reshape(m, 1)) * rstd._data.reshape(m, 1)
        g = dy if weight is None else dy * weight._data.astype(np.float64).reshape(1, n)
        with np.errstate(invalid="ignore"):
            dx = rstd._data.reshape(m, 1) * (g - g.mean(axis=1, keepdims=True)
                                             - x_hat * (g * x_hat).mean(axis=1, keepdims=True))
        param_shape = tuple(normalized_shape)
        d_weight = (dy * x_hat).sum(axis=0).reshape(param_shape)
        d_bias = dy.sum(axis=0).reshape(param_shape)
        return (Tensor(dx.reshape(x._data.shape).astype(dtype)), Tensor(d_weight.astype(dtype)),
                Tensor(d_bias.astype(dtype)))

    @staticmethod
    def backward(ctx, ggI, ggG, ggB):
        """derivatives.yaml, native_layer_norm_backward: input, weight, grad_out:
        ``layer_norm_double_backward(input, weight, grads[0], grads[1], grads[2], grad_out, mean, rstd,
        normalized_shape, grad_input_mask)``."""
        grad_out, x, mean, rstd, weight = ctx.saved_tensors
        if weight is None:
            ggG = None
        if not ctx.has_bias:
            ggB = None
        gI, gG, ggO = layer_norm_double_backward(x, weight, ggI, ggG, ggB, grad_out, mean, rstd,
                                                 ctx.normalized_shape)
        return ggO, gI, None, None, gG, None, None, None


def layer_norm_double_backward(x_t, gamma, ggI, ggG, ggB, gO_t, mean_t, rstd_t, normalized_shape):
    """FunctionsManual.cpp, layer_norm_double_backward, in tensor operations (so recorded in turn):
    returns the gradients of the input, the weight and the first backward's incoming gradient."""
    m, n = _rows(x_t.shape, normalized_shape)
    x, gO = x_t.reshape(m, n), gO_t.reshape(m, n)
    x_mu = x - mean_t.reshape(m, 1)
    invstd = rstd_t.reshape(m, 1)
    invstd2, invstd3 = invstd.pow(2), invstd.pow(3)
    affine = gamma is not None
    gamma_e = gamma.reshape(1, n) if affine else Tensor(np.ones(1, x._data.dtype))
    ggI_e = None if ggI is None else ggI.reshape(m, n)
    x_mu_invstd3 = x_mu * invstd3

    gI = None
    if ggI_e is not None:
        gxhat = gO * gamma_e
        gxhat_mu_sum = (gxhat * x_mu).sum(1, True)
        gxhat_sum = gxhat.sum(1, True)
        ggI_sum = ggI_e.sum(1, True)
        ggI_mu_sum = (ggI_e * x_mu).sum(1, True)
        all_sub = ((ggI_sum * gxhat_sum) / n - (ggI_e * gxhat).sum(1, True)
                   + (invstd2 * gxhat_mu_sum * ggI_mu_sum) * (3.0 / n))
        gI = ((x_mu_invstd3 * all_sub) / n
              + (ggI_mu_sum * invstd3) / n * (gxhat_sum / n - gxhat)
              + (gxhat_mu_sum * invstd3) / n * (ggI_sum / n - ggI_e))
    if affine and ggG is not None:
        ggG_e = ggG.reshape(1, n)
        term = (gO * ggG_e * invstd + (invstd * (gO * ggG_e).sum(1, True)) / -n
                + (x_mu_invstd3 * (gO * ggG_e * x_mu).sum(1, True)) / -n)
        gI = term if gI is None else gI + term
    if gI is not None:
        gI = gI.reshape(tuple(x_t.shape))

    def first_backward(gO_local, gamma_local):
        """The first backward's gradient of the input, for an incoming ``gO_local``."""
        h1 = gO_local * n - gO_local.sum(1, True) - (x_mu * invstd2) * (gO_local * x_mu).sum(1, True)
        return (gamma_local * invstd) / n * h1

    gG = None
    if affine and ggI_e is not None:
        one = Tensor(np.ones((), x._data.dtype))
        gG = (gO * first_backward(ggI_e, one)).sum(0).reshape(tuple(gamma.shape))
    ggO = None
    if ggI_e is not None:
        ggO = first_backward(ggI_e, gamma_e)
    if affine and ggG is not None:
        term = ggG.reshape(1, n) * x_mu * invstd
        ggO = term if ggO is None else ggO + term
    if ggB is not None:
        term = ggB.reshape(1, n)
        ggO = term if ggO is None else ggO + term
    if ggO is not None:
        ggO = ggO.expand(m, n).reshape(tuple(x_t.shape))
    return gI, gG, ggO


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """``torch.nn.functional.layer_norm``: normalize over the last ``len(normalized_shape)`` dimensions."""
    check_tensor(input, "layer_norm")
    if isinstance(normalized_shape, int) or not isinstance(normalized_shape, (tuple, list)):
        raise TypeError(f"layer_norm(): argument 'normalized_shape' (position 2) must be tuple of ints, not "
                        f"{type(normalized_shape).__name__}")
    shape = tuple(int(s) for s in normalized_shape)
    if not shape:
        raise RuntimeError("Expected normalized_shape to be at least 1-dimensional, i.e., containing at "
                           "least one element, but got normalized_shape = []")
    for name, param in (("weight", weight), ("bias", bias)):
        if param is not None and tuple(param.shape) != shape:
            raise RuntimeError(f"Expected {name} to be of same shape as normalized_shape, but got {name} of "
                               f"shape {list(param.shape)} and normalized_shape = {list(shape)}")
    if input.ndim < len(shape) or tuple(input.shape[input.ndim - len(shape):]) != shape:
        raise RuntimeError(f"Given normalized_shape={list(shape)}, expected input with shape "
                           f"[*, {', '.join(map(str, shape))}], but got input of size{list(input.shape)}")
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f'"LayerNormKernelImpl" not implemented for \'{input.dtype.scalar_name}\'')
    return NativeLayerNorm.apply(input, _given(weight), _given(bias), shape, eps)


def _given(tensor):
    """A missing weight or bias as nn_layers.ABSENT: an input without a gradient, so that the node has
    PyTorch's edges, (None, 0) for it."""
    return ABSENT if tensor is None else tensor
