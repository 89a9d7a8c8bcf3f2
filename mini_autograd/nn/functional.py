"""``torch.nn.functional`` in miniature: the layers and losses as plain functions.

Each function checks its arguments with PyTorch's error messages and records
the node PyTorch records: ``linear`` on a batch is one ``AddmmBackward0``,
``cross_entropy`` is ``NllLossBackward0`` over ``LogSoftmaxBackward0``,
``mse_loss`` is ``MseLossBackward0``. The Functions themselves are in
``mini_autograd/ops/`` (losses.py, activations.py, normalization.py).

PyTorch counterpart: torch/nn/functional.py.
"""
import math
import warnings

import numpy as np

from .. import grad_mode, ops
from .._tensor import Tensor
from ..creation import empty_like, zeros
from ..ops import activations
from ..ops._helpers import check_broadcast, check_tensor as _check_tensor, wrap_dim
from ..ops.losses import (REDUCTIONS, BinaryCrossEntropy, BinaryCrossEntropyWithLogits,
    ClassTargets, LossWeights, MseLoss, NllLoss)
from ..ops.linalg import Addmm
from ..ops.activations import LogSoftmax, Softmax
from ..ops.normalization import ABSENT, NativeBatchNorm, RunningStats
from ..ops.indexing import Embedding, Indices
from ..ops.losses import HuberLoss, SmoothL1Loss
from ..ops.activations import gelu
from ..ops.normalization import layer_norm

__all__ = ["linear", "relu", "tanh", "sigmoid", "softmax", "log_softmax", "nll_loss", "mse_loss",
           "cross_entropy", "binary_cross_entropy", "binary_cross_entropy_with_logits", "l1_loss", "dropout",
           "batch_norm", "embedding", "one_hot", "smooth_l1_loss", "huber_loss", "leaky_relu", "gelu",
           "layer_norm", "scaled_dot_product_attention", "softsign"]

def _type_name(tensor):
    return tensor.dtype.scalar_name


# ---------------------------------------------------------------------- layers
def linear(input, weight, bias=None):
    """``input @ weight.T + bias``: what ``nn.Linear`` computes.

    A batch (2-D input) is one ``Addmm`` node, as in PyTorch. A single sample
    (1-D) or a stack of batches (N-D) is flattened to 2-D around it with views.
    The arguments are checked by the ops each path runs, so errors come in PyTorch's order.
    """
    _check_tensor(input, "linear", "input", 1)
    _check_tensor(weight, "linear", "weight", 2)
    if input.ndim == 0 or weight.ndim == 0:
        raise RuntimeError(f"both arguments to linear need to be at least 1D, but they are "
                           f"{input.ndim}D and {weight.ndim}D")
    if weight.ndim != 2:
        raise NotImplementedError(f"mini_autograd's linear takes a 2-D weight (out_features, "
                                  f"in_features); got shape {list(weight.shape)}")
    if bias is not None:
        _check_tensor(bias, "linear", "bias", 3)

    # the same choice of ops as PyTorch's linear (aten/src/ATen/native/Linear.cpp)
    if input.ndim == 2 and bias is not None:
        return _addmm(bias, input, weight.t())
    if bias is not None and _bias_likely_fusable(bias) and input.is_contiguous():
        # aten/src/ATen/native/Linear.cpp, _flatten_nd_linear: the batch dimensions folded into rows,
        # one addmm, then a view
        rows = math.prod(input.shape[:-1])
        output = _addmm(bias, input.reshape(rows, input.shape[-1]), weight.t())
        return output.view(tuple(input.shape[:-1]) + (weight.shape[0],))
    output = ops.matmul(input, weight.t())
    if bias is not None:
        output.add_(bias)
    return output


def _bias_likely_fusable(bias):
    """A bias that is one row of numbers, laid out contiguously (aten/src/ATen/native/Linear.cpp's
    ``is_bias_likely_fusable``): linear then folds any input into one addmm."""
    return (bias.ndim == 1 or bias.squeeze().ndim == 1) and bias.is_contiguous()


def _addmm(bias, mat1, mat2):
    """bias + mat1 @ mat2 (``AddmmBackward0``), after the checks of PyTorch's addmm, in its order
    (aten/src/ATen/native/LinearAlgebra.cpp: the dtypes, the shapes, then the bias's expand)."""
    if bias.dtype is not mat2.dtype:
        raise RuntimeError(f"self and mat2 must have the same dtype, but got {_type_name(bias)} and "
                           f"{_type_name(mat2)}")
    if mat1.dtype is not mat2.dtype:
        raise RuntimeError(f"mat1 and mat2 must have the same dtype, but got {_type_name(mat1)} and "
                           f"{_type_name(mat2)}")
    (rows, inner), (inner2, columns) = mat1.shape, mat2.shape
    if inner != inner2:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({rows}x{inner} and "
                           f"{inner2}x{columns})")
    _check_bias(bias, (rows, columns))
    return Addmm.apply(bias, mat1, mat2)


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
        _check_not_differentiable(weight, "nll_loss_forward", "weight")
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
    input, target = _loss_operands("mse_loss", input, target, reduction)
    if not (input.dtype.is_floating_point or target.dtype.is_floating_point):
        raise NotImplementedError(f'"mse_cpu" not implemented for \'{_type_name(input)}\'')
    return MseLoss.apply(input, target, reduction)


def _loss_operands(name, input, target, reduction):
    """A pointwise loss's checks, in PyTorch's order: two tensors; a target of another shape is warned
    about and broadcast against the input (torch.broadcast_tensors); then the reduction."""
    _check_tensor(input, name, "input", 1)
    _check_tensor(target, name, "target", 2)
    if target.shape != input.shape:
        _warn_target_size(input, target)
        check_broadcast(input, target)
        input, target = _broadcast_tensors(input, target)
    _check_reduction(reduction)
    return input, target


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
            _check_not_differentiable(extra, "binary_cross_entropy_with_logits", name)
    # then the kernel's errors (aten/src/ATen/native/Loss.cpp, binary_cross_entropy_with_logits):
    # ``(pos_weight - 1).mul(target)`` into the loss, then ``loss.mul_(weight)``, in place
    if pos_weight is not None:
        _check_in_place_broadcast(input, np.broadcast_shapes(_broadcast_checked(pos_weight, target)))
    if weight is not None:
        _check_in_place_broadcast(input, _broadcast_checked(input, weight))
    return BinaryCrossEntropyWithLogits.apply(input, target, LossWeights(weight, pos_weight), reduction)


def _broadcast_checked(a, b):
    """The shape ``a`` and ``b`` broadcast to, or PyTorch's error naming them tensor a and b."""
    check_broadcast(a, b)
    return np.broadcast_shapes(a._data.shape, b._data.shape)


def _check_in_place_broadcast(tensor, shape):
    """An in-place op on ``tensor`` cannot make it larger (TensorIterator's resize check)."""
    if tuple(shape) != tuple(tensor.shape):
        raise RuntimeError(f"output with shape {list(tensor.shape)} doesn't match the broadcast shape "
                           f"{list(shape)}")


def _broadcast_shapes(*shapes):
    """torch.broadcast_shapes (torch/_refs/__init__.py, _broadcast_shapes): the common shape, or the
    error naming the first dimension, from the last, of the first shape that does not fit."""
    common = [1] * max(len(shape) for shape in shapes)
    for index, shape in enumerate(shapes):
        for dim in range(-1, -1 - len(shape), -1):
            if common[dim] == 1:
                common[dim] = shape[dim]
            elif shape[dim] not in (1, common[dim]):
                raise RuntimeError(f"Attempting to broadcast a dimension of length {shape[dim]} at {dim}! "
                                   f"Mismatching argument at index {index} had {shape!r}; but expected "
                                   f"shape should be broadcastable to {common}")
    return tuple(common)


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    """Binary cross-entropy between probabilities ``input`` (in [0, 1]) and ``target``."""
    _check_tensor(input, "binary_cross_entropy", "input", 1)
    _check_tensor(target, "binary_cross_entropy", "target", 2)
    _check_reduction(reduction)
    if target.shape != input.shape:           # torch/nn/functional.py, binary_cross_entropy
        raise ValueError(f"Using a target size ({target.shape}) that is different to the input size "
                         f"({input.shape}) is deprecated. Please ensure they have the same size.")
    if weight is not None:                    # expanded to the target's shape, as torch/nn/functional.py does
        weight = weight.expand(_broadcast_shapes(target.size(), weight.size()))
        _check_not_differentiable(weight, "binary_cross_entropy", "weight")
    if target.dtype is not input.dtype:
        raise RuntimeError(f"Found dtype {_type_name(target)} but expected {_type_name(input)}")
    _check_probabilities(input, target)
    if weight is not None:                    # the kernel's ``loss.mul_(weight)``, in place
        _check_in_place_broadcast(input, weight.shape)
    return BinaryCrossEntropy.apply(input, target, LossWeights(weight), reduction)


def _check_probabilities(input, target):
    """PyTorch's kernel checks each element in turn, its input and then its target, and stops at the
    first outside [0, 1], nan included (aten/src/ATen/native/Loss.cpp, binary_cross_entropy_out_cpu:
    ``TORCH_CHECK((input_val >= 0) && (input_val <= 1), ...)``, then the same for ``target_val``)."""
    def outside(values):
        return ~((values >= 0) & (values <= 1)).reshape(-1)

    bad_input, bad_target = outside(input._data), outside(target._data)
    bad = bad_input | bad_target
    if bad.any():
        first = int(np.argmax(bad))
        which = "input" if bad_input[first] else "target"
        raise RuntimeError(f"all elements of {which} should be between 0 and 1")


def _check_not_differentiable(tensor, function, argument):
    """PyTorch refuses an input it has no derivative for when that input requires grad."""
    if tensor.requires_grad and grad_mode.is_grad_enabled():
        raise RuntimeError(f"The function '{function}' is not differentiable with respect to argument "
                           f"'{argument}'. This input cannot have requires_grad True.")


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    """The mean (or sum) of the absolute differences."""
    input, target = _loss_operands("l1_loss", input, target, reduction)
    loss = (input - target).abs()
    if reduction == "none":
        return loss
    return loss.mean() if reduction == "mean" else loss.sum()


# ------------------------------------------------- dropout, batch norm, lookups, smooth L1
# (their Functions are in mini_autograd/ops/normalization.py, indexing.py and losses.py)
def dropout(input, p=0.5, training=True, inplace=False):
    """Zero each element with probability ``p`` and scale the rest by 1 / (1 - p), in training only.

    As PyTorch does on the CPU (aten/src/ATen/native/Dropout.cpp: _dropout_impl), it is a
    multiplication by a random mask (``MulBackward0``, the mask saved as ``other``). With
    ``p == 0``, ``training=False`` or an empty input, the input itself comes back.
    """
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    _check_tensor(input, "dropout", "input", 1)
    if p == 0 or not training or input.numel() == 0:
        return input
    if p == 1:
        zero = zeros((), dtype=input.dtype)     # PyTorch multiplies by a 0-d zero
        return input.mul_(zero) if inplace else input * zero
    noise = empty_like(input).bernoulli_(1 - p)
    noise.div_(1 - p)
    return input.mul_(noise) if inplace else input * noise


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1,
               eps=1e-5):
    """Normalise each channel (dimension 1) to mean 0 and variance 1, then scale by ``weight`` and shift
    by ``bias`` (``NativeBatchNormBackward0``).

    Training uses the batch's statistics and moves ``running_mean`` / ``running_var`` (when given)
    towards them by ``momentum``; evaluation uses the running ones.
    """
    _check_tensor(input, "batch_norm", "input", 1)
    if training:
        size = list(input.shape)
        if size[0] * math.prod(size[2:]) == 1:
            raise ValueError(f"Expected more than 1 value per channel when training, got input size "
                             f"{input.shape}")
    if training and eps <= 0.0:
        raise ValueError(f"batch_norm eps must be positive during training, but got {eps}")
    if eps < 0.0:
        raise ValueError(f"batch_norm eps must be non-negative, but got {eps}")
    if input.ndim < 2:
        raise RuntimeError(f"batch_norm: expected at least a 2-D input (batch, channels); got "
                           f"{input.ndim}-D")
    channels = input.shape[1]
    for name, value in (("running_mean", running_mean), ("running_var", running_var), ("weight", weight),
                        ("bias", bias)):
        if value is not None and value.numel() != channels:
            raise RuntimeError(f"{name} should contain {channels} elements not {value.numel()}")
        if value is not None and value.dtype is not input.dtype:
            raise RuntimeError("mixed dtype (CPU): all inputs must share same datatype.")
    if not training and (running_mean is None or running_var is None):
        raise RuntimeError("running_mean and running_var must be defined in evaluation mode")
    weight = ABSENT if weight is None else weight
    bias = ABSENT if bias is None else bias
    return NativeBatchNorm.apply(input, weight, bias, RunningStats(running_mean, running_var), bool(training),
                                 momentum, eps)


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
              sparse=False):
    """The rows of ``weight`` at the integer indices ``input``: a lookup table (``EmbeddingBackward0``).

    The ``padding_idx`` row gets no gradient; with ``max_norm``, the rows looked up are first
    rescaled in place (without recording) so that their norm is at most ``max_norm``.
    """
    _check_tensor(input, "embedding", "indices", 2)
    _check_tensor(weight, "embedding", "weight", 1)
    padding_idx = -1 if padding_idx is None else padding_index(padding_idx, weight.size(0))
    if weight.ndim != 2:
        raise RuntimeError("'weight' must be 2-D")
    if input.dtype.name not in ("int64", "int32"):
        raise RuntimeError(f"Expected tensor for argument #1 'indices' to have one of the following scalar "
                           f"types: Long, Int; but got {input.dtype.legacy_name} instead (while checking "
                           "arguments for embedding)")
    values = input._data
    if values.size and ((values < 0) | (values >= weight.shape[0])).any():
        raise IndexError("index out of range in self")
    if max_norm is not None:                    # numpy on weight's memory: nothing is recorded
        rows = np.unique(values)
        norms = np.linalg.norm(weight._data[rows].astype(np.float64), ord=norm_type, axis=1)
        scale = np.where(norms > max_norm, max_norm / (norms + 1e-7), 1.0)
        weight._data[rows] = (weight._data[rows] * scale[:, None]).astype(weight._data.dtype)
        weight._bump_version()
    return Embedding.apply(weight, Indices(input), padding_idx, scale_grad_by_freq, sparse)


def padding_index(padding_idx, num_embeddings):
    """``padding_idx`` checked against the table's size, a negative one counted from the end."""
    if not -num_embeddings <= padding_idx < num_embeddings:
        raise AssertionError("Padding_idx must be within num_embeddings")
    return padding_idx + num_embeddings if padding_idx < 0 else padding_idx


def one_hot(tensor, num_classes=-1):
    """Class indices as rows of 0s with a 1 at the index: shape ``tensor.shape + (num_classes,)``, int64.

    ``num_classes=-1`` takes one more than the largest index.
    """
    _check_tensor(tensor, "one_hot", "self", 1)
    if tensor.dtype.name != "int64":
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    values = tensor._data
    if num_classes == -1:
        if values.size == 0:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        num_classes = int(values.max()) + 1
    if values.size:
        if values.min() < 0:
            raise RuntimeError("Class values must be non-negative.")
        if values.max() >= num_classes:
            raise RuntimeError("Class values must be smaller than num_classes.")
    return Tensor((values[..., None] == np.arange(num_classes)).astype(np.int64))


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    """Squared error where ``|input - target| < beta`` (halved, over beta), absolute error beyond:
    less swayed by outliers than ``mse_loss`` (``SmoothL1LossBackward0``; ``beta=0`` is ``l1_loss``)."""
    input, target = _loss_operands("smooth_l1_loss", input, target, reduction)
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    if beta == 0.0:
        return l1_loss(input, target, reduction=reduction)     # as PyTorch's kernel does
    return SmoothL1Loss.apply(input, target, reduction, beta)


def huber_loss(input, target, reduction="mean", delta=1.0, weight=None):
    """Squared error (halved) where ``|input - target| < delta``, ``delta`` times the absolute error
    (less delta / 2) beyond (``HuberLossBackward0``)."""
    if weight is not None:
        raise NotImplementedError("mini_autograd's huber_loss has no weight")
    input, target = _loss_operands("huber_loss", input, target, reduction)
    if delta <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    return HuberLoss.apply(input, target, reduction, delta)


def leaky_relu(input, negative_slope=0.01, inplace=False):
    """input where it is positive, else negative_slope * input (``LeakyReluBackward0``)."""
    _check_tensor(input, "leaky_relu", "input", 1)
    return (activations.leaky_relu_(input, negative_slope) if inplace
            else activations.leaky_relu(input, negative_slope))


def softsign(input):
    """input / (1 + |input|), elementwise: PyTorch writes it in Python from three ops
    (``torch/nn/functional.py: softsign``), so it records ``DivBackward0``, ``AddBackward0``,
    ``AbsBackward0``."""
    return input / (input.abs() + 1)


from .attention import scaled_dot_product_attention  # noqa: E402  (it builds on the functions above)
