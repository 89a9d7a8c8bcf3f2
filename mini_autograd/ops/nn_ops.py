"""The operations ``mini_autograd.nn`` is built on: addmm, softmax, log_softmax, nll_loss, mse_loss.

Each is a ``Function`` named after the node PyTorch records for it, with the
backward formula of tools/autograd/derivatives.yaml written in Tensor
operations, so ``create_graph=True`` can differentiate it again. The checks of
the arguments (shapes, dtypes, target ranges) live in ``nn.functional``, which
is what users call.
"""
import numpy as np

from ..autograd.function import Function
from .._tensor import Tensor
from ._helpers import cast, quiet_mean, result_dtype
from .linalg import is_column_major, mm_mat1_backward, mm_mat2_backward
from .pointwise import DivScalar

# PyTorch's loss reductions as the integers its nodes keep (aten/src/ATen/core/Reduction.h).
REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}


class Addmm(Function):
    """bias + mat1 @ mat2: one node for a whole ``nn.Linear`` on a batch (mat2 is ``weight.t()``).

    d/dbias = grad (the engine sums it over the batch to the bias's shape),
    d/dmat1 = grad @ mat2.T, d/dmat2 = mat1.T @ grad. Each matrix is saved only
    when the *other* one needs a gradient: the input batch of the first layer
    needs none, so ``mat2`` is not kept for it.

    When mat2 is a transposed matrix (``weight.t()``), its gradient is computed
    as ``(grad.T @ mat1).T``: the same numbers, laid out so that ``weight.grad``
    comes out contiguous (PyTorch's ``mm_mat2_backward`` does the same).
    """
    node_name = "AddmmBackward0"
    saved_names = ("mat1", "mat2")

    @staticmethod
    def forward(ctx, bias, mat1, mat2):
        _, needs_mat1, needs_mat2 = ctx.needs_input_grad
        ctx.save_for_backward(mat1 if needs_mat2 else None, mat2 if needs_mat1 else None)
        ctx.alpha = ctx.beta = 1   # read only as grad_fn._saved_alpha and _saved_beta, as PyTorch shows them
        # the inputs' shapes, under PyTorch's names (grad_fn._saved_mat1_sym_sizes; "sym": maybe symbolic)
        ctx.mat1_sym_sizes, ctx.mat2_sym_sizes = tuple(mat1.shape), tuple(mat2.shape)
        ctx.mat1_is_transposed = is_column_major(mat1._data)
        ctx.mat2_is_transposed = is_column_major(mat2._data)
        out = mat1._data @ mat2._data
        out += bias._data        # in place on the fresh product: no second (batch, out) array
        return Tensor(out)

    @staticmethod
    def backward(ctx, grad):
        mat1, mat2 = ctx.saved_tensors
        needs_bias, needs_mat1, needs_mat2 = ctx.needs_input_grad
        return (grad if needs_bias else None,
                mm_mat1_backward(grad, mat2, ctx.mat1_is_transposed) if needs_mat1 else None,
                mm_mat2_backward(grad, mat1, ctx.mat2_is_transposed) if needs_mat2 else None)


def _softmax_parts(data, dim):
    """x - max(x) along ``dim`` (so exp cannot overflow) and the sum of its exponentials."""
    if data.size == 0:                  # nothing to normalise (numpy's max has no identity)
        return data.copy(), data.copy(), np.zeros_like(data)
    with np.errstate(invalid="ignore", over="ignore"):      # rows of inf give nan, as in PyTorch
        shifted = data - data.max(axis=dim, keepdims=True)
        exp = np.exp(shifted)
        return shifted, exp, exp.sum(axis=dim, keepdims=True)


class Softmax(Function):
    """exp(x) / sum(exp(x)) along ``dim``.  d/dx = result * (grad - sum(grad * result))."""
    node_name = "SoftmaxBackward0"
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, x, dim):
        ctx.dim = dim
        data = x._data.reshape(1) if x.ndim == 0 else x._data
        _, exp, total = _softmax_parts(data, dim)
        with np.errstate(invalid="ignore"):
            exp /= total
        result = Tensor(exp.reshape(x._data.shape))
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return SoftmaxBackwardData.apply(grad, result, ctx.dim), None


class SoftmaxBackwardData(Function):
    """y * (grad - sum(grad * y)): softmax's backward as one op, differentiable again."""
    node_name = "SoftmaxBackwardDataBackward0"
    saved_names = ("grad_output", "output")

    @staticmethod
    def forward(ctx, grad, result, dim):
        ctx.dim = dim
        ctx.save_for_backward(grad, result)
        g, y = grad._data, result._data
        if y.ndim == 0:
            return Tensor(np.zeros_like(g))
        return Tensor(y * (g - (g * y).sum(axis=dim, keepdims=True)))

    @staticmethod
    def backward(ctx, gg):
        grad, result = ctx.saved_tensors
        if result.ndim == 0:
            return Tensor(np.zeros_like(gg._data)), Tensor(np.zeros_like(gg._data)), None
        grad_grad = SoftmaxBackwardData.apply(gg, result, ctx.dim) if ctx.needs_input_grad[0] else None
        grad_result = None
        if ctx.needs_input_grad[1]:
            grad_result = (gg * (grad - (grad * result).sum(ctx.dim, keepdim=True))
                           - grad * (gg * result).sum(ctx.dim, keepdim=True))
        return grad_grad, grad_result, None


class LogSoftmax(Function):
    """x - log(sum(exp(x))) along ``dim``, computed stably.  d/dx = grad - exp(result) * sum(grad)."""
    node_name = "LogSoftmaxBackward0"
    saved_names = ("result",)

    @staticmethod
    def forward(ctx, x, dim):
        ctx.dim = dim
        data = x._data.reshape(1) if x.ndim == 0 else x._data
        shifted, _, total = _softmax_parts(data, dim)
        with np.errstate(invalid="ignore", divide="ignore"):
            shifted -= np.log(total)
        result = Tensor(shifted.reshape(x._data.shape))
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return LogSoftmaxBackwardData.apply(grad, result, ctx.dim), None


class LogSoftmaxBackwardData(Function):
    """grad - exp(y) * sum(grad): log_softmax's backward as one op, differentiable again."""
    node_name = "LogSoftmaxBackwardDataBackward0"
    saved_names = ("grad_output", "output")

    @staticmethod
    def forward(ctx, grad, result, dim):
        ctx.dim = dim
        ctx.save_for_backward(grad, result)
        g, y = grad._data, result._data
        if y.ndim == 0:
            return Tensor(np.zeros_like(g))
        return Tensor(g - np.exp(y) * g.sum(axis=dim, keepdims=True))

    @staticmethod
    def backward(ctx, gg):
        grad, result = ctx.saved_tensors
        if result.ndim == 0:
            return Tensor(np.zeros_like(gg._data)), Tensor(np.zeros_like(gg._data)), None
        probs = result.exp()
        grad_grad = gg - (gg * probs).sum(ctx.dim, keepdim=True) if ctx.needs_input_grad[0] else None
        grad_result = -gg * probs * grad.sum(ctx.dim, keepdim=True) if ctx.needs_input_grad[1] else None
        return grad_grad, grad_result, None


class ClassTargets:
    """The class indices (and optional class weights) of ``NllLoss``: data, not graph inputs.

    Passed wrapped so that no edge is recorded for them: in PyTorch they are not
    differentiable, and ``NllLossBackward0`` has a single edge, to its input.
    """

    def __init__(self, target, weight=None):
        self.target, self.weight = target, weight


class NllLoss(Function):
    """The negative log-likelihood of class-index targets, given log-probabilities.

    input (N, C) or (C,); target (N,) or () of class indices. Each picked
    ``-input[i, target[i]]`` is weighted by ``weight[target[i]]`` (1 without
    weights, 0 where ``target == ignore_index``); ``mean`` divides by the total
    weight. The gradient is that same weighting, negated, at the picked places.
    """
    node_name = "NllLossBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, log_probs, targets, reduction, ignore_index):
        ctx.reduction, ctx.ignore_index = REDUCTIONS[reduction], ignore_index
        ctx.target, ctx.weight = targets.target, targets.weight
        ctx.save_for_backward(log_probs)
        data = log_probs._data.reshape(-1, log_probs.shape[-1])   # (N, C), also for a single sample
        classes, picked_weight = _picked(ctx.target._data.reshape(-1), ctx.weight, ignore_index, data.dtype)
        losses = -data[np.arange(len(classes)), classes] * picked_weight
        ctx.total_weight = Tensor(np.asarray(picked_weight.sum(), dtype=data.dtype))
        if reduction == "none":
            return Tensor(losses.reshape(ctx.target.shape))
        if reduction == "sum":
            return Tensor(np.asarray(losses.sum()))
        with np.errstate(invalid="ignore", divide="ignore"):       # all targets ignored: nan
            return Tensor(np.asarray(losses.sum() / ctx.total_weight._data))

    @staticmethod
    def backward(ctx, grad):
        (log_probs,) = ctx.saved_tensors
        dtype = grad._data.dtype
        classes, picked_weight = _picked(ctx.target._data.reshape(-1), ctx.weight, ctx.ignore_index, dtype)
        scale = np.zeros((len(classes), log_probs.shape[-1]), dtype=dtype)
        scale[np.arange(len(classes)), classes] = 0.0 - picked_weight   # (0 - 0 is 0, not -0)
        if ctx.reduction == REDUCTIONS["mean"] and ctx.total_weight._data != 0:
            scale /= ctx.total_weight._data      # every target ignored: the gradient stays 0, as in PyTorch
        scale = scale.reshape(log_probs.shape)
        per_sample = ctx.reduction == REDUCTIONS["none"] and log_probs.ndim == 2
        return NllLossBackward.apply(grad, log_probs, scale, per_sample), None, None, None


class NllLossBackward(Function):
    """grad times the fixed weights of the picked classes: nll_loss's backward, differentiable again.

    It is linear in ``grad``: differentiated again it gives nll_loss's own weighting back.
    """
    node_name = "NllLossBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, log_probs, scale, per_sample):
        """``log_probs`` is an input only as PyTorch's is: the result does not depend on it."""
        ctx.scale, ctx.per_sample = scale, per_sample
        g = grad._data[:, None] if per_sample else grad._data
        return Tensor((g * scale).astype(scale.dtype, copy=False))

    @staticmethod
    def backward(ctx, gg):
        weighted = gg * Tensor(ctx.scale)
        grad_grad = weighted.sum(1) if ctx.per_sample else weighted.sum()
        return grad_grad, Tensor(np.zeros_like(gg._data)), None, None


def _picked(classes, weight, ignore_index, dtype):
    """Each sample's class (0 where ignored, so it can index) and weight (0 where ignored)."""
    keep = classes != ignore_index
    classes = np.where(keep, classes, 0)
    picked_weight = np.ones(len(classes), dtype) if weight is None else weight._data[classes].astype(dtype)
    return classes, np.where(keep, picked_weight, 0).astype(dtype, copy=False)


def _reduce_losses(losses, reduction):
    """The per-element losses as they are ("none"), or their mean or sum, as a tensor."""
    if reduction == "none":
        return Tensor(losses)
    return Tensor(np.asarray(quiet_mean(losses) if reduction == "mean" else losses.sum(), dtype=losses.dtype))


def _weighted_mean_grad(grad, weight, mean, count):
    """A loss's gradient times the element weights, divided by the count for the mean (in that order)."""
    if weight is not None:
        grad = grad * weight
    return DivScalar.apply(grad, count) if mean else grad


class MseLoss(Function):
    """(input - target)**2, then mean, sum or nothing.  d/dinput = 2 (input - target) grad [/ n]."""
    node_name = "MseLossBackward0"
    saved_names = ("self", "target")

    @staticmethod
    def forward(ctx, x, target, reduction):
        ctx.reduction = REDUCTIONS[reduction]
        ctx.save_for_backward(x, target)
        dtype = result_dtype(x, target)
        with np.errstate(over="ignore", invalid="ignore"):
            squared = np.square(cast(x._data, dtype) - cast(target._data, dtype))
        return _reduce_losses(squared, reduction)

    @staticmethod
    def backward(ctx, grad):
        x, target = ctx.saved_tensors
        grad_input = MseLossBackward.apply(grad, x, target, ctx.reduction)
        return (grad_input if ctx.needs_input_grad[0] else None,
                -grad_input if ctx.needs_input_grad[1] else None,
                None)


class MseLossBackward(Function):
    """norm * (input - target) * grad (norm = 2, or 2/n for the mean): mse_loss's backward as one op."""
    node_name = "MseLossBackwardBackward0"
    saved_names = ("grad_output", "self", "target")

    @staticmethod
    def forward(ctx, grad, x, target, reduction):
        ctx.norm = (2 / x.numel() if x.numel() else float("inf")) if reduction == REDUCTIONS["mean"] else 2
        ctx.save_for_backward(grad, x, target)
        dtype = result_dtype(x, target)
        diff = cast(x._data, dtype) - cast(target._data, dtype)
        return Tensor((ctx.norm * diff * grad._data).astype(dtype, copy=False))

    @staticmethod
    def backward(ctx, gg):
        grad, x, target = ctx.saved_tensors
        from .pointwise import MulScalar
        grad_grad = MulScalar.apply(x - target, ctx.norm) * gg if ctx.needs_input_grad[0] else None
        both = MulScalar.apply(grad * gg, ctx.norm) if any(ctx.needs_input_grad[1:3]) else None
        return (grad_grad, both if ctx.needs_input_grad[1] else None,
                -both if ctx.needs_input_grad[2] else None, None)


def _softplus_neg(x):
    """log(1 + exp(-x)), computed without overflow."""
    return np.log1p(np.exp(-np.abs(x))) + np.maximum(-x, 0)


class BinaryCrossEntropyWithLogits(Function):
    """-[y log sigmoid(x) + (1 - y) log(1 - sigmoid(x))], from logits x, computed stably.

    With ``pos_weight`` p the positive term is weighted: (1 - y) x + (1 + (p - 1) y) softplus(-x);
    ``weight`` multiplies each element's loss.
    d/dx = ((1 + (p - 1) y) sigmoid(x) - p y) * weight;  d/dy = ((p - 1) softplus(-x) - x) * weight.
    """
    node_name = "BinaryCrossEntropyWithLogitsBackward0"
    saved_names = ("self", "target", "weight", "pos_weight")

    @staticmethod
    def forward(ctx, x, target, weight, pos_weight, reduction):
        ctx.reduction = REDUCTIONS[reduction]
        ctx.save_for_backward(x, target, weight, pos_weight)
        dtype = result_dtype(x, target)
        xd, yd = cast(x._data, dtype), cast(target._data, dtype)
        with np.errstate(over="ignore", invalid="ignore"):
            if pos_weight is None:
                losses = (1 - yd) * xd + _softplus_neg(xd)
            else:
                losses = (1 - yd) * xd + (1 + (pos_weight._data - 1) * yd) * _softplus_neg(xd)
            if weight is not None:
                losses = losses * weight._data
        return _reduce_losses(losses.astype(dtype, copy=False), reduction)

    @staticmethod
    def backward(ctx, grad):
        x, target, weight, pos_weight = ctx.saved_tensors
        mean = ctx.reduction == REDUCTIONS["mean"]
        grad_x = grad_target = None
        if ctx.needs_input_grad[0]:
            sigmoid = x.sigmoid()
            if pos_weight is None:
                grad_x = (sigmoid - target) * grad
            else:
                grad_x = ((1 + (pos_weight - 1) * target) * sigmoid - pos_weight * target) * grad
            # as PyTorch: the weight, then the division for the mean, come last
            grad_x = _weighted_mean_grad(grad_x, weight, mean, x.numel())   # as PyTorch: dividing comes last
        if ctx.needs_input_grad[1]:
            if pos_weight is None:
                grad_target = -x * grad
            else:   # softplus(-x) = log(1 + exp(-|x|)) + relu(-x), in Tensor ops so it differentiates again
                softplus = (1 + (-x.abs()).exp()).log() + (-x).relu()
                grad_target = ((pos_weight - 1) * softplus - x) * grad
            grad_target = _weighted_mean_grad(grad_target, weight, mean, x.numel())
        return grad_x, grad_target, None, None, None


class BinaryCrossEntropy(Function):
    """-w [y log(x) + (1 - y) log(1 - x)] for probabilities x; each log is clamped at -100, as in PyTorch."""
    node_name = "BinaryCrossEntropyBackward0"
    saved_names = ("self", "target", "weight")

    @staticmethod
    def forward(ctx, x, target, weight, reduction):
        ctx.reduction = REDUCTIONS[reduction]
        ctx.save_for_backward(x, target, weight)
        dtype = result_dtype(x, target)
        xd, yd = cast(x._data, dtype), cast(target._data, dtype)
        with np.errstate(divide="ignore", invalid="ignore"):
            log_x = np.maximum(np.log(xd), -100)
            log_1mx = np.maximum(np.log(1 - xd), -100)
        losses = -(yd * log_x + (1 - yd) * log_1mx)
        if weight is not None:
            losses = losses * weight._data
        return _reduce_losses(losses.astype(dtype, copy=False), reduction)

    @staticmethod
    def backward(ctx, grad):
        x, target, weight = ctx.saved_tensors
        mean = ctx.reduction == REDUCTIONS["mean"]
        grad_x = grad_target = None
        if ctx.needs_input_grad[0]:
            # in Tensor ops (not numpy constants), so that create_graph differentiates them again
            grad_x = grad * (x - target) / ((1 - x) * x).clamp(min=1e-12)
            grad_x = _weighted_mean_grad(grad_x, weight, mean, x.numel())
        if ctx.needs_input_grad[1]:
            grad_target = grad * ((1 - x).log().clamp(min=-100) - x.log().clamp(min=-100))
            grad_target = _weighted_mean_grad(grad_target, weight, mean, x.numel())
        return grad_x, grad_target, None, None
