"""mini_autograd: PyTorch's autograd in miniature, on numpy.

``import mini_autograd as torch`` and the course's PyTorch snippets run and
print what PyTorch prints. This file only re-exports the public names.
"""
import builtins
import functools

from ._dtype import (bool_ as bool, double, float, float32, float64, int, int8, int16, int32, int64, long,
                     short, uint8)
from ._device import device, get_default_device, set_default_device
from ._tensor import Size, Tensor
from ._printing import get_printoptions, set_printoptions
from .creation import (BoolTensor, ByteTensor, DoubleTensor, FloatTensor, IntTensor, LongTensor, arange,
                       empty, empty_like, eye, from_numpy, full, full_like, linspace, ones, ones_like, rand,
                       rand_like, randint, randn, randn_like, randperm, tensor, zeros, zeros_like)
from .random import (Generator, default_generator, get_rng_state, initial_seed, manual_seed, seed,
                         set_rng_state)
from .grad_mode import (enable_grad, inference_mode, is_grad_enabled, is_inference_mode_enabled, no_grad,
                        set_grad_enabled)
from .ops import (abs, add, amax, amin, argmax, argmin, bmm, cat, clamp, clone, cos, div, dot, exp, flatten,
                  log, matmul, max, maximum, min, minimum, mm, mul, mv, neg, norm, pow, reciprocal, relu,
                  reshape, sigmoid, sin, sqrt, squeeze, stack, sub, t, tanh, transpose, unsqueeze, where)
from .ops import clamp as clip
from . import ops as _ops
from .ops.unary import sign, square
from .ops.random import bernoulli, multinomial, normal
from .ops.shape import meshgrid
from .ops.unary import ceil, floor, isfinite, isinf, isnan, log10, log2, round, trunc
from .ops.unary import (acos, acosh, asin, asinh, atan, atanh, cosh, deg2rad, erf, erfc, erfinv,
    exp2, expm1, frac, log1p, logit, nan_to_num, rad2deg, rsqrt, signbit, sinc, sinh, tan)
from .ops.binary import atan2, hypot, logaddexp, logaddexp2, xlogy
from .ops.binary import fmod, remainder
from .ops.rearranging import diag, diagonal, movedim, narrow, repeat_interleave, roll
from .ops.rearranging import movedim as moveaxis
from .ops.einsum import einsum
from .ops.sorting import median, unique
from .ops.statistics import std_mean, var_mean
from .ops.unary import (acos as arccos, acosh as arccosh, asin as arcsin, asinh as arcsinh,
    atan as arctan, atanh as arctanh)
from .ops.binary import atan2 as arctan2
from .ops.rearranging import flip, tril, triu
from .ops.linalg import outer
from .ops.linalg import outer as ger
from .ops.indexing import gather, index_select
from .ops.sorting import argsort, sort, topk
from .ops.joining import chunk, split, unbind
from .ops.reductions import cumprod, cumsum, logsumexp, prod
from .ops.statistics import histogram, std, var
from .serialization import load, save
from . import autograd, accelerator, backends, cuda, random

# The public API, re-exported above and defined below (`from mini_autograd import *`).
__all__ = [
    "BoolTensor", "ByteTensor", "DoubleTensor", "FloatTensor", "Generator", "IntTensor", "LongTensor",
    "Size", "Tensor", "abs", "accelerator", "add", "all", "allclose", "amax", "amin", "any", "arange",
    "argmax", "argmin", "as_tensor", "autograd", "backends", "bernoulli", "bmm", "bool", "cat", "clamp",
    "clip", "clone", "concat", "concatenate", "cos", "cuda", "default_generator", "device", "div", "dot",
    "double", "dropout", "empty", "empty_like", "enable_grad", "eq", "equal", "exp", "eye", "flatten",
    "float", "float32", "float64", "from_numpy", "full", "full_like", "ge", "get_default_device",
    "get_printoptions", "get_rng_state", "gt", "inference_mode", "initial_seed", "int", "int16", "int32",
    "int64", "int8", "is_floating_point", "is_grad_enabled", "is_inference_mode_enabled", "is_tensor", "le",
    "linspace", "load", "log", "logical_not", "long", "lt", "manual_seed", "matmul", "max", "maximum",
    "mean", "meshgrid", "min", "minimum", "mm", "mul", "multinomial", "mv", "ne", "neg", "nn", "no_grad",
    "norm", "normal", "numel", "ones", "ones_like", "optim", "pow", "rand", "rand_like", "randint", "randn",
    "randn_like", "random", "randperm", "relu", "reshape", "save", "seed", "set_default_device",
    "set_grad_enabled", "set_printoptions", "set_rng_state", "short", "sigmoid", "sign", "sin", "sqrt",
    "square", "squeeze", "stack", "sub", "sum", "t", "tanh", "tensor", "transpose", "uint8", "unsqueeze",
    "utils", "where", "zeros", "zeros_like",
    "argsort", "ceil", "chunk", "cumprod", "cumsum", "flip", "floor", "gather", "ger", "histogram",
    "index_select", "isfinite", "isinf", "isnan", "log10", "log2", "logsumexp", "outer", "prod", "round",
    "sort", "split", "std", "topk", "tril", "triu", "trunc", "unbind", "var", "softmax", "log_softmax",
    "acos", "acosh", "arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctan2", "arctanh", "asin",
    "asinh", "atan", "atan2", "atanh", "cosh", "deg2rad", "erf", "erfc", "erfinv", "exp2", "expm1", "frac",
    "hypot", "log1p", "logaddexp", "logaddexp2", "logit", "nan_to_num", "rad2deg", "reciprocal", "rsqrt",
    "signbit", "sinc", "sinh", "tan", "xlogy", "fmod", "remainder",
    "diag", "diagonal", "einsum", "median", "moveaxis", "movedim", "narrow", "repeat_interleave", "roll",
    "std_mean", "unique", "var_mean",
]

__version__ = "0.1.0"


def is_tensor(obj):
    return isinstance(obj, Tensor)


def numel(t):
    return t.numel()


def equal(input, other):
    """True if the two tensors have the same shape and the same values."""
    from .ops._helpers import check_tensor
    check_tensor(input, "equal"), check_tensor(other, "equal", "other", 2)
    return input.equal(other)


def softmax(input, dim=None, dtype=None):
    """``torch.softmax(input, dim)``: ``nn.functional.softmax`` without its dim guessing."""
    if dim is None:
        raise TypeError('softmax() missing 1 required positional arguments: "dim"')
    return nn.functional.softmax(input, dim, dtype=dtype)


def log_softmax(input, dim=None, dtype=None):
    """``torch.log_softmax(input, dim)``: ``nn.functional.log_softmax`` without its dim guessing."""
    if dim is None:
        raise TypeError('log_softmax() missing 1 required positional arguments: "dim"')
    return nn.functional.log_softmax(input, dim, dtype=dtype)


def dropout(input, p, train):
    """``torch.dropout(input, p, train)``: ``nn.functional.dropout`` without defaults."""
    return nn.functional.dropout(input, p, train)


def as_tensor(data, dtype=None, device=None):
    """``data`` as a tensor: a Tensor of the right dtype is returned as it is, an array shares memory."""
    if isinstance(data, Tensor) and (dtype is None or data.dtype is dtype):
        return data
    if isinstance(data, Tensor):
        return data.to(dtype)
    import numpy
    if isinstance(data, numpy.ndarray) and (dtype is None or data.dtype == dtype.numpy):
        return from_numpy(data)
    return tensor(data, dtype=dtype, device=device)


def _compare(name):
    def compare(input, other):
        return getattr(input, name)(other)
    compare.__name__ = name
    return compare


eq, ne, lt, le, gt, ge = (_compare(n) for n in ("eq", "ne", "lt", "le", "gt", "ge"))


def all(input, dim=None, keepdim=False, **kwargs):
    return input.all(dim, keepdim, **kwargs)


def any(input, dim=None, keepdim=False, **kwargs):
    return input.any(dim, keepdim, **kwargs)


def logical_not(input):
    return input.logical_not()


def is_floating_point(input):
    return input.is_floating_point()


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    import numpy
    return numpy.allclose(input._data, other._data, rtol=rtol, atol=atol, equal_nan=equal_nan)

def _numpy_names(function):
    """``function`` taking numpy's names ``axis=`` and ``keepdims=`` for ``dim=`` and ``keepdim=``, as
    PyTorch's functions do."""
    @functools.wraps(function)
    def with_numpy_names(*args, **kwargs):
        if "axis" in kwargs:
            kwargs["dim"] = kwargs.pop("axis")
        if "keepdims" in kwargs:
            kwargs["keepdim"] = kwargs.pop("keepdims")
        return function(*args, **kwargs)
    return with_numpy_names


(sum, mean, max, min, amax, amin, argmax, argmin, cat, stack, squeeze, unsqueeze) = (
    _numpy_names(f) for f in (_ops.sum, _ops.mean, max, min, amax, amin, argmax, argmin, cat, stack, squeeze,
                              unsqueeze))


def _with_out(function):
    """``function`` taking ``out=``: the result is written into that tensor (resized to fit, with
    PyTorch's warning when it had other elements), which is returned. Nothing is recorded: as in
    PyTorch, no argument may require grad while grad mode is on."""
    name = function.__name__

    @functools.wraps(function)
    def with_out(*args, out=None, **kwargs):
        if out is None:
            return function(*args, **kwargs)
        import numpy
        tensors = [out, *kwargs.values()] + [a for arg in args for a in (arg if isinstance(arg, (list, tuple))
                                                                            else (arg,))]
        if is_grad_enabled() and builtins.any(isinstance(t, Tensor) and t.requires_grad for t in tensors):
            raise RuntimeError(f"{name}(): functions with out=... arguments don't support automatic "
                               "differentiation, but one of the arguments requires grad.")
        result = function(*args, **kwargs)
        _ops.inplace_ops.check_cast(result, out)
        if out.shape != result.shape:
            if out.numel():
                import warnings
                warnings.warn(f"An output with one or more elements was resized since it had shape "
                              f"{list(out.shape)}, which does not match the required output shape "
                              f"{list(result.shape)}. This behavior is deprecated, and in a future PyTorch "
                              "release outputs will not be resized unless they have zero elements. You can "
                              "explicitly reuse an out tensor t by resizing it, inplace, to zero elements "
                              "with t.resize_(0).", UserWarning, stacklevel=2)
            out._data = numpy.empty(result._data.shape, out._data.dtype)
        numpy.copyto(out._data, result._data, casting="unsafe")
        out._bump_version()
        return out
    return with_out


(add, sub, mul, div, matmul, mm, bmm, exp, log, sqrt, tanh, sigmoid, abs, neg, pow, sum, mean, cat, stack,
 maximum, minimum, clamp, clip, where) = (
    _with_out(f) for f in (add, sub, mul, div, matmul, mm, bmm, exp, log, sqrt, tanh, sigmoid, abs, neg, pow,
                           sum, mean, cat, stack, maximum, minimum, clamp, clip, where))
concat = concatenate = cat          # torch.concat and torch.concatenate are other names of torch.cat

from . import nn, optim, utils  # noqa: E402  (they build on everything above)
