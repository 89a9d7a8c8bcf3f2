"""Layers and losses: what a model is made of. PyTorch: torch/nn/modules/linear.py, torch/nn/functional.py.

A model here is any object with ``__call__`` and ``parameters()``; PyTorch's
``nn.Module`` adds the bookkeeping (registration, ``named_parameters``, ``train()``...).
"""
import numpy as np

from . import creation
from .function import Function
from .ops import transpose
from .tensor import Tensor


class Parameter(Tensor):
    """(given) A leaf tensor that requires grad and belongs to a model. PyTorch: torch.nn.Parameter."""

    def __init__(self, data, requires_grad=True):
        super().__init__(data._data if isinstance(data, Tensor) else data, requires_grad=requires_grad)
        if isinstance(data, Tensor):     # the same numbers, so the same version counter, as in PyTorch
            self._version_counter = data._version_counter

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()


class Linear:
    """A fully connected layer: ``y = x @ weightᵀ + bias``. PyTorch: torch.nn.Linear."""

    def __init__(self, in_features, out_features):
        """Step 10.1: the layer's two parameters.

        PyTorch: Linear.reset_parameters. ``self.weight``: a Parameter of shape
        ``(out_features, in_features)``, ``self.bias``: of shape ``(out_features,)``,
        both drawn uniformly from ``[-k, k]`` with ``k = 1 / sqrt(in_features)`` (the
        square root: not 1 / in_features),
        the weight first, then the bias, as PyTorch does (so that the same seed
        gives the same numbers). Hint: ``creation.uniform(low, high, shape)`` (given) draws
        float32 numbers from the seeded generator (``manual_seed``).
        """
        raise NotImplementedError("Step 10.1: Linear.__init__")

    def __call__(self, x):
        """Step 10.1: ``x @ weightᵀ + bias`` for a batch ``x`` of shape ``(n, in_features)``.

        PyTorch: torch.nn.functional.linear (recorded as one AddmmBackward0 node;
        yours records MmBackward0, TBackward0 and AddBackward0). ``transpose`` is given in ops.
        """
        raise NotImplementedError("Step 10.1: Linear.__call__")

    def parameters(self):
        """(given) The tensors an optimizer updates."""
        return [self.weight, self.bias]


def cross_entropy(logits, targets):
    """Step 10.2: the classification loss, averaged over the batch.

    PyTorch: torch.nn.functional.cross_entropy (log_softmax, then nll_loss).
    ``logits``: shape ``(n, classes)``; ``targets``: a tensor of n class numbers.
    For each row: log_softmax = logits - log(sum(exp(logits))), and the loss is
    minus the log-probability of the right class, averaged over the n rows.
    - exp of a big logit overflows: subtract each row's largest logit first
      (``logits.max(dim=1, keepdim=True)``, given, a constant), which changes nothing
      in exact arithmetic. Each row its own: rows far below the batch's largest
      logit would underflow to exp = 0 everywhere, and log(0) = -inf.
    - pick the right class with ``one_hot(targets, classes)`` (given): a constant
      tensor of 0s and 1s, multiplied in and summed.
    - take minus the way PyTorch's nll_loss does, from 0: ``0.0 - picked``, not
      ``-picked``. The two differ only when the sum is 0 (a single class): PyTorch
      prints ``tensor(0.)``, and ``-picked`` gives ``tensor(-0.)``.
    """
    raise NotImplementedError("Step 10.2: cross_entropy")


# PyTorch's names of the dtypes a target may not have, as its error message prints them.
TARGET_DTYPES = {"float16": "Half", "float32": "Float", "float64": "Double", "int32": "Int", "int16": "Short",
                 "int8": "Char", "bool": "Bool"}


def one_hot(targets, classes):
    """(given) Row i has a 1 in column targets[i]: shape (n, classes), float32.

    A target that is not a class number (0 to classes - 1) raises PyTorch's
    ``IndexError: Target 2 is out of bounds.``, and targets of another dtype than
    int64 or uint8 (floats, say) PyTorch's ``RuntimeError``.
    """
    labels = np.asarray(targets._data if isinstance(targets, Tensor) else targets)
    if labels.dtype not in (np.int64, np.uint8):
        raise RuntimeError("expected target dtype to be Long or Byte, but got "
                           + TARGET_DTYPES.get(labels.dtype.name, labels.dtype.name))
    for label in labels.reshape(-1):        # numpy would take -1 for the last class: PyTorch refuses it
        if not 0 <= label < classes:
            raise IndexError(f"Target {label} is out of bounds.")
    return Tensor(np.eye(classes, dtype=np.float32)[labels])


class MseLoss(Function):
    """(given) mean((a - b)²), recorded as one node, as PyTorch records it."""
    node_name = "MseLossBackward0"

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return Tensor(np.asarray(((a._data - b._data) ** 2).mean(), dtype=a._data.dtype))

    @staticmethod
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        difference = (a - b) * (2 / a.numel())
        return grad * difference, -(grad * difference)


class MSELoss:
    """(given) PyTorch: torch.nn.MSELoss: ``MSELoss()(prediction, target)``."""

    def __call__(self, prediction, target):
        return MseLoss.apply(prediction, target)
