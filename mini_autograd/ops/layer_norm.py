"""Layer normalization: each row (the last ``len(normalized_shape)`` dimensions) made to mean 0 and
variance 1, then scaled by ``weight`` and shifted by ``bias``.

PyTorch's ``F.layer_norm`` calls ``native_layer_norm``, whose node is ``NativeLayerNormBackward0``;
it keeps the input, the parameters and the rows' mean and 1/std (``_saved_result1``,
``_saved_result2``). Its backward is one op, ``native_layer_norm_backward``
(derivatives.yaml: native_layer_norm), whose own backward is FunctionsManual.cpp's
layer_norm_double_backward (``NativeLayerNormBackwardBackward0``).
"""
import math
import numpy as np

from .._tensor import Tensor
from ..autograd.function import Function
from ._helpers import check_tensor
from .nn_layers import ABSENT


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
