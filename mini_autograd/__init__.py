"""mini_autograd: PyTorch's autograd in miniature, on numpy.

``import mini_autograd as torch`` and the course's PyTorch snippets run and
print what PyTorch prints. This file only re-exports the public names.
"""
from . import _dtype
from ._dtype import bool_ as bool, double, float, float32, float64, int64, long
from ._tensor import Size, Tensor
from ._printing import get_printoptions, set_printoptions
from .creation import (arange, from_numpy, full, full_like, linspace, manual_seed, ones, ones_like, rand,
                       randint, randn, randperm, tensor, zeros, zeros_like)
from .grad_mode import (enable_grad, inference_mode, is_grad_enabled, is_inference_mode_enabled, no_grad,
                        set_grad_enabled)
from .ops import (abs, add, cat, clamp, clone, div, dot, exp, log, matmul, max, mean, mm, mul, mv, neg, pow,
                  relu, reshape, sigmoid, sqrt, squeeze, stack, sub, sum, t, tanh, transpose, unsqueeze)
from .ops import argmax, clamp as clip
from . import autograd

__version__ = "0.1.0"


def is_tensor(obj):
    return isinstance(obj, Tensor)


def numel(t):
    return t.numel()

from . import nn, optim  # noqa: E402  (they build on everything above)
