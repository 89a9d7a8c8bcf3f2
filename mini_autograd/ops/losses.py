"""Losses: ``nll_loss``, ``mse_loss``, ``binary_cross_entropy`` (with and without logits), ``smooth_l1_loss``
and ``huber_loss`` (tools/autograd/derivatives.yaml; aten/src/ATen/native/Loss.cpp and
aten/src/ATen/native/LossNLL.cpp).

Each is a Function named after the node PyTorch records (``NllLossBackward0``, ``MseLossBackward0``, ...),
with the backward formula of derivatives.yaml written in Tensor operations, so ``create_graph=True`` can
differentiate it again. The checks of the arguments (shapes, dtypes, target ranges) live in
``nn.functional``, which is what users call. What is not differentiable (class indices, weights) is passed
wrapped, so no edge is recorded for it, as in PyTorch.
"""
import numpy as np

from .. import grad_mode
from .._tensor import Tensor
from ..autograd.function import Function
from ._helpers import as_tensor_operand, cast, quiet_mean, result_dtype
from .activations import LogSigmoid, _softplus_neg
from .binary import AddScalar, DivScalar, MulScalar, Sub
from .unary import Logit


# PyTorch's loss reductions as the integers its nodes keep (aten/src/ATen/core/Reduction.h).
REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}


REDUCTION_NAMES = {number: name for name, number in REDUCTIONS.items()}


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
        kept = ctx.target._data.reshape(-1) != ignore_index
        with np.errstate(invalid="ignore"):       # an ignored sample adds 0, whatever its input
            picked = -data[np.arange(len(classes)), classes] * picked_weight
        losses = np.where(kept, picked, 0).astype(data.dtype) if not kept.all() else picked
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
        reduction = REDUCTION_NAMES[ctx.reduction]
        return (NllLossBackward.apply(grad, log_probs, ClassTargets(ctx.target, ctx.weight), reduction,
                                      ctx.ignore_index, ctx.total_weight._data), None, None, None)


class NllLossBackward(Function):
    """nll_loss's backward as one op, differentiable again (``NllLossBackwardBackward0``).

    As PyTorch's kernel (aten/src/ATen/native/LossNLL.cpp: nll_loss_backward_out_frame): zeros,
    with ``-weight[t] * grad`` (divided by the total weight for the mean) written at each
    sample's class t, and nothing written for an ignored sample: its gradient is 0 even when
    the incoming gradient is nan or inf. It is linear in ``grad``: differentiated again, it
    gives ``nll_loss`` of the incoming gradient (derivatives.yaml: nll_loss_backward).
    """
    node_name = "NllLossBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, log_probs, targets, reduction, ignore_index, total_weight):
        """``log_probs`` is an input only as PyTorch's is: the result does not depend on it."""
        ctx.targets, ctx.reduction, ctx.ignore_index = targets, reduction, ignore_index
        dtype = grad._data.dtype
        target = targets.target._data.reshape(-1)
        classes, picked_weight = _picked(target, targets.weight, ignore_index, dtype)
        kept = np.nonzero(target != ignore_index)[0]
        g = grad._data
        if reduction == "mean":
            with np.errstate(divide="ignore", invalid="ignore"):
                g = g / total_weight                          # a total weight of 0 gives inf, as in PyTorch
        per_sample = g.reshape(-1)[kept] if g.ndim else g     # "none": one gradient per sample
        out = np.zeros((len(classes), log_probs.shape[-1]), dtype)
        with np.errstate(invalid="ignore"):
            out[kept, classes[kept]] = -(picked_weight[kept] * per_sample)
        return Tensor(out.reshape(log_probs.shape))

    @staticmethod
    def backward(ctx, gg):
        grad_grad = None
        if ctx.needs_input_grad[0]:
            grad_grad = NllLoss.apply(gg, ctx.targets, ctx.reduction, ctx.ignore_index)
        return grad_grad, Tensor(np.zeros_like(gg._data)), None, None, None, None


def _picked(classes, weight, ignore_index, dtype):
    """Each sample's class (0 where ignored, so it can index) and weight (0 where ignored)."""
    keep = classes != ignore_index
    ignores_some = not keep.all()
    if ignores_some:
        classes = np.where(keep, classes, 0)
    picked_weight = np.ones(len(classes), dtype) if weight is None else weight._data[classes].astype(dtype)
    if ignores_some:
        picked_weight = np.where(keep, picked_weight, 0).astype(dtype, copy=False)
    return classes, picked_weight


def _reduce_losses(losses, reduction):
    """The per-element losses as they are ("none"), or their mean or sum, as a tensor."""
    if reduction == "none":
        return Tensor(losses)
    with np.errstate(invalid="ignore", over="ignore"):
        reduced = quiet_mean(losses) if reduction == "mean" else losses.sum()
    return Tensor(np.asarray(reduced, dtype=losses.dtype))


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
        """derivatives.yaml, mse_loss: one mse_loss_backward each, the target's with the roles swapped."""
        x, target = ctx.saved_tensors
        needs_x, needs_target = ctx.needs_input_grad[:2]
        grad_x = MseLossBackward.apply(grad, x, target, ctx.reduction) if needs_x else None
        grad_target = MseLossBackward.apply(grad, target, x, ctx.reduction) if needs_target else None
        return grad_x, grad_target, None


class MseLossBackward(Function):
    """norm * (input - target) * grad (norm = 2, or 2/n for the mean): mse_loss's backward as one op."""
    node_name = "MseLossBackwardBackward0"
    saved_names = ("grad_output", "self", "target")

    @staticmethod
    def forward(ctx, grad, x, target, reduction):
        ctx.reduction = reduction
        ctx.norm = (2 / x.numel() if x.numel() else float("inf")) if reduction == REDUCTIONS["mean"] else 2
        ctx.save_for_backward(grad, x, target)
        dtype = result_dtype(x, target)
        diff = cast(x._data, dtype) - cast(target._data, dtype)
        return Tensor((ctx.norm * diff * grad._data).astype(dtype, copy=False))

    @staticmethod
    def backward(ctx, gg):
        """derivatives.yaml, mse_loss_backward: for grad_output, self, then target."""
        grad, x, target = ctx.saved_tensors
        needs = ctx.needs_input_grad
        grad_grad = MseLossBackward.apply(gg, x, target, ctx.reduction) if needs[0] else None
        grad_x = _mse_double_backward(gg * grad, x, ctx.reduction) if needs[1] else None
        grad_target = -_mse_double_backward(gg * grad, target, ctx.reduction) if needs[2] else None
        return grad_grad, grad_x, grad_target, None


def _mse_double_backward(grad, x, reduction):
    """FunctionsManual.cpp, mse_loss_double_backward: 2 * grad, divided by x's size for the mean."""
    return _divide_for_mean(MulScalar.apply(grad, 2), reduction, x.numel())


class LossWeights:
    """A loss's ``weight`` and ``pos_weight`` tensors: data, not graph inputs (PyTorch records no edge
    for them, and refuses them when they require grad: nn.functional checks that)."""

    def __init__(self, weight=None, pos_weight=None):
        self.weight, self.pos_weight = weight, pos_weight


_BCE_EPS = 1e-12        # aten/src/ATen/native/Loss.cpp: EPSILON, and FunctionsManual.cpp's eps


def _one_minus(x):
    """``1 - x`` as C++ spells it: a SubBackward0 whose first input is a number (no edge)."""
    return Sub.apply(as_tensor_operand(1, "-"), x)


def _divide_for_mean(grad, reduction, numel):
    """A loss gradient divided by the element count for the mean reduction (``div_(numel)``)."""
    return DivScalar.apply(grad, numel) if reduction == REDUCTIONS["mean"] else grad


def _weighted_mean_grad(grad, weight, reduction, numel):
    """A loss gradient times the loss's ``weight`` (if any; in place, ``mul_``, as PyTorch's formulas),
    then divided by the element count for the mean reduction."""
    if weight is not None:
        grad = grad.mul_(weight)
    return _divide_for_mean(grad, reduction, numel)


class BinaryCrossEntropyWithLogits(Function):
    """-[y log sigmoid(x) + (1 - y) log(1 - sigmoid(x))], from logits x, computed stably.

    With ``pos_weight`` p the positive term is weighted: (1 - y) x + (1 + (p - 1) y) softplus(-x);
    ``weight`` multiplies each element's loss. Its backward is FunctionsManual.cpp's
    binary_cross_entropy_with_logits_backward and binary_cross_entropy_with_logits_target_backward, op for op.
    """
    node_name = "BinaryCrossEntropyWithLogitsBackward0"
    saved_names = ("pos_weight", "self", "target", "weight")   # PyTorch's order (saved_tensors_hooks)

    @staticmethod
    def forward(ctx, x, target, weights, reduction):
        ctx.reduction = REDUCTIONS[reduction]
        weight, pos_weight = weights.weight, weights.pos_weight
        ctx.save_for_backward(pos_weight, x, target, weight)
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
        pos_weight, x, target, weight = ctx.saved_tensors
        grad_x = grad_target = None
        if ctx.needs_input_grad[0]:
            if pos_weight is None:
                grad_x = x.sigmoid() - target
            else:
                t = pos_weight * target
                grad_x = (AddScalar.apply(t, 1) - target) * x.sigmoid() - t
            grad_x = grad_x * grad
            if weight is not None:
                grad_x = grad_x * weight
            grad_x = _divide_for_mean(grad_x, ctx.reduction, x.numel())
        if ctx.needs_input_grad[1]:
            if pos_weight is None:
                grad_target = -x * grad
            else:   # in place, as PyTorch: log_sigmoid(-x).sub_(log_sigmoid(x).mul_(pos_weight)).mul_(grad)
                grad_target = LogSigmoid.apply(-x).sub_(LogSigmoid.apply(x).mul_(pos_weight)).mul_(grad)
            grad_target = _weighted_mean_grad(grad_target, weight, ctx.reduction, target.numel())
        return grad_x, grad_target, None, None


class BinaryCrossEntropy(Function):
    """-w [y log(x) + (1 - y) log(1 - x)] for probabilities x; each log is clamped at -100, as in PyTorch."""
    node_name = "BinaryCrossEntropyBackward0"
    saved_names = ("self", "target", "weight")

    @staticmethod
    def forward(ctx, x, target, weights, reduction):
        ctx.reduction = REDUCTIONS[reduction]
        weight = weights.weight
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
        """derivatives.yaml, binary_cross_entropy: self, then target."""
        x, target, weight = ctx.saved_tensors
        grad_x = grad_target = None
        if ctx.needs_input_grad[0]:
            grad_x = BinaryCrossEntropyBackward.apply(grad, x, target, LossWeights(weight), ctx.reduction)
        if ctx.needs_input_grad[1]:      # FunctionsManual.cpp: binary_cross_entropy_target_backward
            grad_target = Logit.apply(x, None).neg_().mul_(grad)
            grad_target = _weighted_mean_grad(grad_target, weight, ctx.reduction, target.numel())
        return grad_x, grad_target, None, None


class BinaryCrossEntropyBackward(Function):
    """grad * (x - y) / max((1 - x) x, 1e-12) [* w] [/ n]: binary_cross_entropy's backward as one op."""
    node_name = "BinaryCrossEntropyBackwardBackward0"
    saved_names = ("grad_output", "self", "target", "weight")

    @staticmethod
    def forward(ctx, grad, x, target, weights, reduction):
        ctx.reduction = reduction
        ctx.save_for_backward(grad, x, target, weights.weight)
        xd, yd = x._data, target._data.astype(x._data.dtype, copy=False)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            out = grad._data * (xd - yd) / np.maximum((1 - xd) * xd, _BCE_EPS)
            if weights.weight is not None:
                out = out * weights.weight._data
            if reduction == REDUCTIONS["mean"]:
                out = out / x.numel()
        return Tensor(np.asarray(out, dtype=x._data.dtype))

    @staticmethod
    def backward(ctx, gg):
        """derivatives.yaml, binary_cross_entropy_backward: grad_output, self, then target; the three
        formulas are FunctionsManual.cpp's binary_cross_entropy_double_backward_grad_output,
        binary_cross_entropy_double_backward and binary_cross_entropy_double_backward_target."""
        grad, x, target, weight = ctx.saved_tensors
        reduction, needs = ctx.reduction, ctx.needs_input_grad
        grad_grad = grad_x = grad_target = None
        if needs[0]:
            x_eps, one_minus_x_eps = AddScalar.apply(x, _BCE_EPS), AddScalar.apply(_one_minus(x), _BCE_EPS)
            grad_grad = (x - target) / (x_eps * one_minus_x_eps)
            grad_grad = grad_grad.mul_(gg)
            grad_grad = _weighted_mean_grad(grad_grad, weight, reduction, x.numel())
        if needs[1]:
            numerator = x * x - MulScalar.apply(x, 2) * target + target
            x_eps, one_minus_x_eps = AddScalar.apply(x, _BCE_EPS), AddScalar.apply(_one_minus(x), _BCE_EPS)
            denominator = x_eps ** 2 * one_minus_x_eps ** 2
            grad_x = (numerator / denominator).mul_(gg * grad)
            grad_x = _weighted_mean_grad(grad_x, weight, reduction, x.numel())
        if needs[2]:
            grad_target = -gg * grad
            if weight is not None:
                grad_target = grad_target.mul_(weight)
            denominator = _one_minus(x).mul_(x)
            with grad_mode.no_grad():
                denominator.clamp_(min=_BCE_EPS)
            grad_target = _divide_for_mean(grad_target.div_(denominator), reduction, target.numel())
        return grad_grad, grad_x, grad_target, None, None


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
