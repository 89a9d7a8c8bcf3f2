"""``torch.nn.functional`` in miniature: the layers and losses as plain functions.

Each function checks its arguments with PyTorch's error messages and records
the node PyTorch records: ``linear`` on a batch is one ``AddmmBackward0``,
``cross_entropy`` is ``NllLossBackward0`` over ``LogSoftmaxBackward0``,
``mse_loss`` is ``MseLossBackward0``. The Functions themselves are in
``mini_autograd/ops/nn_ops.py``.

PyTorch counterpart: torch/nn/functional.py.
"""
import math
import warnings

import numpy as np

from .. import grad_mode, ops
from ..ops._helpers import check_broadcast, check_tensor as _check_tensor, wrap_dim
from ..ops.nn_ops import (REDUCTIONS, Addmm, BinaryCrossEntropy, BinaryCrossEntropyWithLogits, ClassTargets,
                          LogSoftmax, MseLoss, NllLoss, Softmax)

__all__ = ["linear", "relu", "tanh", "sigmoid", "softmax", "log_softmax", "nll_loss", "mse_loss",
           "cross_entropy", "binary_cross_entropy", "binary_cross_entropy_with_logits", "l1_loss"]

def _type_name(tensor):
    return tensor.dtype.scalar_name


# ---------------------------------------------------------------------- layers
def linear(input, weight, bias=None):
    """``input @ weight.T + bias``: what ``nn.Linear`` computes.

    A batch (2-D input) is one ``Addmm`` node, as in PyTorch. A single sample
    (1-D) or a stack of batches (N-D) is flattened to 2-D around it with views.
    """
    _check_tensor(input, "linear", "input", 1)
    _check_tensor(weight, "linear", "weight", 2)
    if input.ndim == 0 or weight.ndim == 0:
        raise RuntimeError(f"both arguments to linear need to be at least 1D, but they are "
                           f"{input.ndim}D and {weight.ndim}D")
    if weight.ndim != 2:
        raise NotImplementedError(f"mini_autograd's linear takes a 2-D weight (out_features, "
                                  f"in_features); got shape {list(weight.shape)}")
    out_features, in_features = weight.shape
    rows = math.prod(input.shape[:-1])
    if input.shape[-1] != in_features:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({rows}x{input.shape[-1]} and "
                           f"{in_features}x{out_features})")
    if input.dtype is not weight.dtype:
        raise RuntimeError(f"mat1 and mat2 must have the same dtype, but got {_type_name(input)} and "
                           f"{_type_name(weight)}")
    if bias is not None:
        _check_tensor(bias, "linear", "bias", 3)
        _check_bias(bias, (rows, out_features))
        if bias.dtype is not weight.dtype:
            raise RuntimeError(f"self and mat2 must have the same dtype, but got {_type_name(bias)} and "
                               f"{_type_name(weight)}")

    # the same choice of ops as PyTorch's linear (aten/src/ATen/native/Linear.cpp)
    if input.ndim == 2 and bias is not None:
        return Addmm.apply(bias, input, weight.t())
    if bias is not None and input.is_contiguous() and (input.ndim == 3 or bias.ndim == 1):
        out_shape = tuple(input.shape[:-1]) + (out_features,)
        return Addmm.apply(bias, input.reshape(rows, in_features), weight.t()).view(out_shape)
    output = ops.matmul(input, weight.t())
    if bias is not None:
        output.add_(bias)
    return output


def _check_bias(bias, target):
    """The bias must broadcast to (rows, out_features); PyTorch's expand error otherwise."""
    sizes, shape = list(target), list(bias.shape)
    if len(shape) > len(sizes):
        raise RuntimeError(f"expand(torch.{_type_name(bias)}Tensor{{{shape}}}, size={sizes}): the number "
                           f"of sizes provided ({len(sizes)}) must be greater or equal to the number of "
                           f"dimensions in the tensor ({len(shape)})")
    for i in range(1, len(shape) + 1):
        if shape[-i] != sizes[-i] and shape[-i] != 1:
            dim = len(sizes) - i
            raise RuntimeError(f"The expanded size of the tensor ({sizes[-i]}) must match the existing "
                               f"size ({shape[-i]}) at non-singleton dimension {dim}.  Target sizes: "
                               f"{sizes}.  Tensor sizes: {shape}")


def relu(input, inplace=False):
    """max(input, 0), elementwise (``ReluBackward0``); ``inplace=True`` changes ``input`` itself."""
    _check_tensor(input, "relu", "input", 1)
    return input.relu_() if inplace else ops.relu(input)


def tanh(input):
    """tanh, elementwise (``TanhBackward0``)."""
    return ops.tanh(_check_tensor(input, "tanh", "input", 1))


def sigmoid(input):
    """1 / (1 + exp(-input)), elementwise (``SigmoidBackward0``)."""
    return ops.sigmoid(_check_tensor(input, "sigmoid", "input", 1))


# --------------------------------------------------------------------- softmax
def _softmax_dim(name, input, dim, stacklevel):
    if dim is None:
        warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call to "
                      "include dim=X as an argument.", UserWarning, stacklevel=stacklevel)
        dim = 0 if input.ndim in (0, 1, 3) else 1
    if not isinstance(dim, int):
        raise TypeError(f"{name}(): argument 'dim' (position 1) must be int, not {type(dim).__name__}")
    return wrap_dim(dim, input.ndim)


def _floating_input(input, kernel, dtype):
    if dtype is not None:
        input = input.to(dtype)
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_type_name(input)}\'')
    return input


def softmax(input, dim=None, dtype=None):
    """exp(input) normalised to sum to 1 along ``dim`` (``SoftmaxBackward0``)."""
    _check_tensor(input, "softmax", "input", 1)
    dim = _softmax_dim("softmax", input, dim, stacklevel=3)
    return Softmax.apply(_floating_input(input, "softmax_lastdim_kernel_impl", dtype), dim)


def log_softmax(input, dim=None, dtype=None):
    """log(softmax(input)), computed without overflow (``LogSoftmaxBackward0``)."""
    _check_tensor(input, "log_softmax", "input", 1)
    dim = _softmax_dim("log_softmax", input, dim, stacklevel=3)
    return LogSoftmax.apply(_floating_input(input, "log_softmax_lastdim_kernel_impl", dtype), dim)


# ---------------------------------------------------------------------- losses
def _check_reduction(reduction):
    if reduction not in REDUCTIONS:
        raise ValueError(f"{reduction} is not a valid value for reduction")


def nll_loss(input, target, weight=None, ignore_index=-100, reduction="mean"):
    """The negative log-likelihood of class-index ``target`` under log-probabilities ``input``."""
    _check_tensor(input, "nll_loss_nd", "input", 1)
    _check_tensor(target, "nll_loss_nd", "target", 2)
    _check_reduction(reduction)
    _check_class_targets(input, target, weight, ignore_index)
    return NllLoss.apply(input, ClassTargets(target, weight), reduction, ignore_index)


def _check_class_targets(input, target, weight, ignore_index):
    """PyTorch's checks of class-index targets (aten/src/ATen/native/LossNLL.cpp)."""
    if input.ndim == 0:
        raise IndexError("Dimension out of range (expected to be in range of [-1, 0], but got 1)")
    if input.ndim > 2:
        raise NotImplementedError("mini_autograd's nll_loss and cross_entropy take input of shape (C,) "
                                  f"or (N, C); got {list(input.shape)}")
    if input.ndim == 2 and (target.ndim == 0 or target.shape[0] != input.shape[0]):
        raise ValueError(f"Expected input batch_size ({input.shape[0]}) to match target batch_size "
                         f"({target.shape[0] if target.ndim else 0}).")
    if target.ndim > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if input.ndim == 1 and target.ndim == 1 and target.shape[0] != 1:
        raise ValueError(f"For 1D input, 1D target must have size 1, but got target size: {target.shape[0]}")
    if target.dtype.name != "int64":
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {_type_name(target)}")
    classes = input.shape[-1]
    if weight is not None:
        _check_tensor(weight, "nll_loss_nd", "weight", 3)
        if weight.shape != (classes,):
            raise RuntimeError(f"weight tensor should be defined either for all {classes} classes or no "
                               f"classes but got weight tensor of shape: {list(weight.shape)}")
        if weight.requires_grad and grad_mode.is_grad_enabled():
            raise RuntimeError("The function 'nll_loss_forward' is not differentiable with respect to "
                               "argument 'weight'. This input cannot have requires_grad True.")
        if weight.dtype is not input.dtype:
            raise RuntimeError(f"expected scalar type {_type_name(input)} but found {_type_name(weight)}")
    values = target._data.reshape(-1)
    bad = values[((values < 0) | (values >= classes)) & (values != ignore_index)]
    if bad.size:
        raise IndexError(f"Target {bad[0]} is out of bounds.")


def cross_entropy(input, target, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
    """log_softmax over the classes, then nll_loss: the classifier's loss, from raw scores.

    ``input`` holds unnormalised scores, shape (N, C) or (C,); ``target`` the class
    indices (int64), shape (N,) or (). Never computes softmax then log (which
    overflows): log_softmax subtracts the row's maximum first.
    """
    _check_tensor(input, "cross_entropy_loss", "input", 1)
    _check_tensor(target, "cross_entropy_loss", "target", 2)
    _check_reduction(reduction)
    if label_smoothing != 0.0:
        raise NotImplementedError("mini_autograd's cross_entropy has no label_smoothing")
    if target.shape == input.shape and input.ndim > 0:      # PyTorch reads these as class probabilities
        if not target.dtype.is_floating_point:
            raise RuntimeError(f"Expected floating point type for target with class probabilities, got "
                               f"{_type_name(target)}")
        raise NotImplementedError("mini_autograd's cross_entropy takes class-index targets (int64); "
                                  "class-probability targets are not implemented")
    _check_class_targets(input, target, weight, ignore_index)
    class_dim = 0 if input.ndim == 1 else 1
    return NllLoss.apply(log_softmax(input, class_dim), ClassTargets(target, weight), reduction,
                         ignore_index)


def _warn_target_size(input, target):
    """PyTorch's warning when a pointwise loss's target would be broadcast against its input."""
    warnings.warn(f"Using a target size ({target.shape}) that is different to the input size "
                  f"({input.shape}). This will likely lead to incorrect results due to "
                  "broadcasting. Please ensure they have the same size.", UserWarning, stacklevel=3)


def mse_loss(input, target, reduction="mean"):
    """The mean (or sum) of the squared differences (``MseLossBackward0``)."""
    _check_tensor(input, "mse_loss", "input", 1)
    _check_tensor(target, "mse_loss", "target", 2)
    _check_reduction(reduction)
    if target.shape != input.shape:
        _warn_target_size(input, target)
        check_broadcast(input, target)
        input, target = _broadcast_tensors(input, target)
    if not (input.dtype.is_floating_point or target.dtype.is_floating_point):
        raise NotImplementedError(f'"mse_cpu" not implemented for \'{_type_name(input)}\'')
    return MseLoss.apply(input, target, reduction)


def _broadcast_tensors(*tensors):
    """Expand the tensors to their common shape (only those not already of it), as torch.broadcast_tensors."""
    shape = np.broadcast_shapes(*[tuple(t.shape) for t in tensors])
    return tuple(t if tuple(t.shape) == shape else t.expand(shape) for t in tensors)


def _check_same_size(input, target, reduction):
    _check_reduction(reduction)
    if target.shape != input.shape:
        raise ValueError(f"Target size ({target.shape}) must be the same as input size ({input.shape})")


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None,
                                     reduction="mean", pos_weight=None):
    """Binary cross-entropy from logits (raw scores), without computing sigmoid then log."""
    _check_tensor(input, "binary_cross_entropy_with_logits", "input", 1)
    _check_tensor(target, "binary_cross_entropy_with_logits", "target", 2)
    _check_same_size(input, target, reduction)
    for name, extra in (("weight", weight), ("pos_weight", pos_weight)):
        if extra is not None:
            _check_tensor(extra, "binary_cross_entropy_with_logits", name, 3)
            check_broadcast(input, extra)
    return BinaryCrossEntropyWithLogits.apply(input, target, weight, pos_weight, reduction)


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    """Binary cross-entropy between probabilities ``input`` (in [0, 1]) and ``target``."""
    _check_tensor(input, "binary_cross_entropy", "input", 1)
    _check_tensor(target, "binary_cross_entropy", "target", 2)
    _check_same_size(input, target, reduction)
    if target.dtype is not input.dtype:
        raise RuntimeError(f"Found dtype {_type_name(target)} but expected {_type_name(input)}")
    values = input._data
    if values.size and ((values < 0) | (values > 1) | np.isnan(values)).any():
        raise RuntimeError("all elements of input should be between 0 and 1")
    return BinaryCrossEntropy.apply(input, target, weight, reduction)


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """The mean (or sum) of the absolute differences."""
    _check_tensor(input, "l1_loss", "input", 1)
    _check_tensor(target, "l1_loss", "target", 2)
    _check_reduction(reduction)
    if target.shape != input.shape:
        _warn_target_size(input, target)
    loss = (input - target).abs()
    if reduction == "none":
        return loss
    return loss.mean() if reduction == "mean" else loss.sum()
