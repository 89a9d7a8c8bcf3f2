"""Helpers the ops share: scalars to tensors, type promotion, broadcast errors, views, float32 maths rounded
from float64, and two backward helpers of PyTorch's (aten/src/ATen/native/ReduceOps.cpp and
torch/csrc/autograd/FunctionsManual.cpp).
"""
import math
import numbers

import numpy as np

from .. import _dtype, grad_mode
from .._tensor import Tensor
from .views import has_internal_overlap


# Category of each dtype for type promotion: bool < integer < floating point.
_CATEGORY = {np.dtype(np.bool_): 0, np.dtype(np.int64): 1, np.dtype(np.float32): 2, np.dtype(np.float64): 2,
             np.dtype(np.int32): 1, np.dtype(np.int16): 1, np.dtype(np.int8): 1, np.dtype(np.uint8): 1}


_DEFAULT_FOR_CATEGORY = {0: np.dtype(np.bool_), 1: np.dtype(np.int64), 2: np.dtype(np.float32)}


# The dtype each plain python number type is wrapped with.
_PYTHON_NUMBERS = {bool: np.bool_, int: np.int64, float: np.float64}


def as_tensor_operand(value, op_name):
    """A python number becomes a 0-d "wrapped number" tensor, as PyTorch wraps scalars."""
    if isinstance(value, Tensor):
        return value
    if type(value) in _PYTHON_NUMBERS:     # the common case first: the numbers.* checks are slow
        array = np.array(value, dtype=_PYTHON_NUMBERS[type(value)])
    elif isinstance(value, (bool, np.bool_)):
        array = np.array(value, dtype=np.bool_)
    elif isinstance(value, numbers.Integral):
        array = np.array(value, dtype=np.int64)
    elif isinstance(value, numbers.Real):
        array = np.array(value, dtype=np.float64)
    elif isinstance(value, np.ndarray):
        return Tensor(value.astype(_dtype.from_numpy_dtype(value.dtype).numpy, copy=False))
    else:
        raise TypeError(f"unsupported operand type(s) for {op_name}: 'Tensor' and '{type(value).__name__}'")
    wrapped = Tensor(array)
    wrapped._wrapped_number = True
    return wrapped


def _priority(t):
    """Dimensioned tensors outrank 0-d tensors, which outrank python numbers (TypeProperties.cpp)."""
    if t._wrapped_number:
        return 0
    return 1 if t._data.ndim == 0 else 2


def result_dtype(*tensors):
    """The numpy dtype PyTorch's type promotion gives for an op on these tensors."""
    if len(tensors) == 2:
        # The common cases first: equal dtypes, or a python number that does not widen the tensor.
        a, b = tensors
        da, db = a._data.dtype, b._data.dtype
        if da == db and not (a._wrapped_number or b._wrapped_number):
            return da
        if b._wrapped_number and not a._wrapped_number and _CATEGORY[db] <= _CATEGORY[da]:
            return da
        if a._wrapped_number and not b._wrapped_number and _CATEGORY[da] <= _CATEGORY[db]:
            return db
    category = max(_CATEGORY[t._data.dtype] for t in tensors)
    same_category = [t for t in tensors if _CATEGORY[t._data.dtype] == category]
    top = max(_priority(t) for t in same_category)
    if top == 0:
        return _DEFAULT_FOR_CATEGORY[category]
    return _widest([t._data.dtype for t in same_category if _priority(t) == top])


def _widest(dtypes):
    """The dtype that holds all of these (one category): the widest; uint8 and a signed integer make
    a signed integer of at least 16 bits, as in PyTorch (c10/core/ScalarType.cpp: promoteTypes)."""
    signed = [d for d in dtypes if d.kind == "i"]
    if signed and any(d.kind == "u" for d in dtypes):
        widest_signed = max(signed, key=lambda d: d.itemsize)
        return widest_signed if widest_signed.itemsize > 1 else np.dtype(np.int16)
    return max(dtypes, key=lambda d: d.itemsize)


def cast(array, dtype):
    return array if array.dtype == dtype else astype(array, dtype)


def astype(array, dtype):
    """A converted copy laid out as PyTorch lays out a copy: like the input, unless the input
    repeats memory (an expanded tensor), whose copy is row by row (numpy's "K" order is not)."""
    if not has_internal_overlap(array):
        return array.astype(dtype)
    return array.astype(dtype, order="C")


def to_float(array):
    """Integer input to a floating-point op (exp, log, ...) computes in float32, as PyTorch does."""
    return array if array.dtype.kind == "f" else array.astype(np.float32)


def check_broadcast(a, b):
    """Raise PyTorch's message when two tensors' shapes cannot broadcast (ExpandUtils.cpp: infer_size)."""
    check_broadcast_shapes(a._data.shape, b._data.shape)


def check_broadcast_shapes(sa, sb):
    """``check_broadcast`` for two shapes."""
    ndim = max(len(sa), len(sb))
    for i in range(ndim - 1, -1, -1):
        offset = ndim - 1 - i
        size_a = sa[len(sa) - 1 - offset] if offset < len(sa) else 1
        size_b = sb[len(sb) - 1 - offset] if offset < len(sb) else 1
        if size_a != size_b and size_a != 1 and size_b != 1:
            raise RuntimeError(f"The size of tensor a ({size_a}) must match the size of tensor b "
                               f"({size_b}) at non-singleton dimension {i}")


def view_of(base, array, ctx):
    """A tensor over ``array``, a view into ``base``'s data: it shares base's version counter.

    Its ``_base`` is the tensor that owns the memory (a view of a view has the same base).
    It remembers how it was made (``_creation_meta``, as PyTorch's views do): ``"DEFAULT"``
    with grad mode on, ``"NO_GRAD_MODE"`` under ``no_grad``, ``"INFERENCE_MODE"`` under
    ``inference_mode``; a view of such a view keeps its mark (variable.h:
    propagate_creation_meta). ``ctx`` is the forward's ctx, which knows the grad mode the op
    was called in. A view of an inference tensor is not a view for autograd: no ``_base``.
    """
    out = Tensor(array)
    out._version_counter = base._version_counter
    out._is_inference = base._is_inference
    if base._is_inference:
        return out
    root = base if base._base is None else base._base
    out._base = root
    out._view_version = base._version_counter.value
    if grad_mode.is_inference_mode_enabled():
        creation_meta = "INFERENCE_MODE"
    else:
        creation_meta = "DEFAULT" if ctx._grad_enabled else "NO_GRAD_MODE"
    if base._base is not None:            # a view of a view
        previous = base._creation_meta
        if creation_meta == "DEFAULT" or previous == "INFERENCE_MODE":
            creation_meta = previous
    out._creation_meta = creation_meta
    return out


def wrap_dim(dim, ndim):
    bound = max(ndim, 1)
    if not isinstance(dim, (int, np.integer)):
        raise TypeError(f"dim must be an int, not {type(dim).__name__}")
    if not -bound <= dim < bound:
        raise IndexError(f"Dimension out of range (expected to be in range of "
                         f"[{-bound}, {bound - 1}], but got {dim})")
    return int(dim) % bound


def dims_tuple(dim, ndim):
    """Normalise ``dim`` (an int, a tuple of ints, or None for all) to a sorted tuple.

    A 0-d tensor accepts dim 0 or -1 (PyTorch treats it as having one dimension of
    size 1 there) and has no axes to reduce: the tuple is then empty.
    """
    if dim is None or (isinstance(dim, (list, tuple)) and len(dim) == 0):
        return tuple(range(ndim))          # no dims given: reduce over all, as PyTorch does
    if isinstance(dim, (list, tuple)):
        dims = [wrap_dim(d, ndim) for d in dim]
        for d in dims:
            if dims.count(d) > 1:
                raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
        return tuple(sorted(dims)) if ndim else ()
    dim = wrap_dim(dim, ndim)
    return (dim,) if ndim else ()


def check_tensor(value, op_name, arg="input", position=1):
    """PyTorch's error for a non-tensor argument, e.g. ``exp(): argument 'input' (position 1) ...``."""
    if not isinstance(value, Tensor):
        raise TypeError(f"{op_name}(): argument '{arg}' (position {position}) must be Tensor, not "
                        f"{type(value).__name__}")
    return value


def quiet_mean(array, axis=None, keepdims=False):
    """numpy's mean without its warning for empty input (the result is nan there, as in PyTorch)."""
    count = array.size if axis is None else math.prod([array.shape[d] for d in axis])
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        dtype = array.dtype if array.dtype.kind == "f" else None
        total = array.sum(axis=axis, keepdims=keepdims, dtype=dtype)
        return np.asarray(np.true_divide(total, count), dtype=dtype)


def contiguous(array):
    """``array`` laid out row by row (a copy only if it is not); 0-d arrays stay 0-d."""
    array = np.asarray(array)
    return array if array.flags.c_contiguous else array.copy(order="C")


def where_or_zero(mask, data):
    """``data`` where ``mask`` is True, else +0: ``np.where(mask, data, 0)`` for float data, 12x faster.

    np.where branches on every element, and a mask with no pattern (relu's) defeats the
    branch predictor: 210 us against 17 us for 256x256 floats, a tenth of the MLP step of
    benchmarks/bench_mlp_step.py. So the float's bits are ANDed with a mask of all-ones
    (kept) or all-zeros (+0.0) instead. Unlike ``data * mask`` this keeps -0.0 and gives
    +0 (not nan) where the dropped value is inf or nan, exactly as np.where does. Both
    steps write into the result, so no other array of data's size is made.
    """
    out = np.empty_like(data)
    bits = out.view(f"u{data.itemsize}")                 # the same memory, read as unsigned ints
    np.subtract(0, mask, out=bits, dtype=bits.dtype)     # 0 - True wraps to all ones; 0 - False is 0
    np.bitwise_and(bits, data.view(bits.dtype), out=bits)
    return out


ROUND_FROM_FLOAT64 = True   # benchmarks/bench_mlp_step.py turns it off for a moment, to measure its cost


def _rounded_from_float64(ufunc, data):
    """``ufunc`` of float32 data computed in float64 and rounded back to float32.

    numpy's float32 exp/log/tanh are 1 ulp away from the correctly rounded value (which
    PyTorch gives) for 17-39% of inputs: enough to change a printed digit of exp in 1% of
    values, and the 4th digit of a tutorial's trained coefficients. Rounded from float64
    they match PyTorch's printout all but 0.03% of the time, for about 4% of a Tanh MLP's
    training step (benchmarks/README.md).
    """
    if data.dtype == np.float32 and ROUND_FROM_FLOAT64:
        return ufunc(data, dtype=np.float64).astype(np.float32)     # dtype=: no float64 copy of data first
    return ufunc(data)


def unsqueeze_multiple(t, dims):
    """FunctionsManual.cpp, unsqueeze_multiple: the reduced dimensions ``dims`` put back, as size 1, in
    increasing order (PyTorch goes through them as a bitset)."""
    for d in sorted(dims):
        t = t.unsqueeze(d)
    return t


def value_selecting_reduction_backward(grad, dim, indices, sizes, keepdim):
    """aten/src/ATen/native/ReduceOps.cpp, value_selecting_reduction_backward_symint: the backward of the
    reductions that select values (max(dim), min(dim), median(dim), sort, topk): ``zeros(sizes)
    .scatter_(dim, indices, grad)``, with ``dim`` put back in grad and indices first unless ``keepdim``.
    ``dim`` is wrapped; a 0-d input's only element was the one selected."""
    from .indexing import Scatter           # (indexing imports this module)
    zeros = Tensor(np.zeros(sizes, grad._data.dtype))
    if not sizes:
        return Scatter.apply(zeros, grad, dim, None)
    if keepdim:
        return Scatter.apply(zeros, grad, dim, indices._data)
    return Scatter.apply(zeros, grad.unsqueeze(dim), dim, np.expand_dims(indices._data, dim))
