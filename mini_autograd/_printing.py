"""How a tensor prints, e.g. ``tensor([1.0000, 2.5000], requires_grad=True)``.

PyTorch counterpart: ``torch/_tensor_str.py``.

The rules here are a port of PyTorch's, restricted to dense CPU tensors of
float32, float64, int64 and bool (no complex, quantized, sparse, nested or
named tensors, and no ``device=`` suffix).  In outline:

1. One ``_Formatter`` looks at *all* the values that will be shown and picks
   a single style for the whole tensor: integers as they are; floats either
   in "int mode" (``1.``), fixed point (``1.2500``) or scientific notation
   (``1.2500e+05``), and one common width so the columns line up.
2. ``_tensor_str_with_formatter`` walks the dimensions recursively, writing
   ``[...]`` blocks; 1-d rows wrap at ``linewidth``, deeper dimensions are
   separated by blank lines, and tensors with more than ``threshold``
   elements are summarized with ``...`` keeping ``edgeitems`` at each end.
3. ``_add_suffixes`` appends ``size=``, ``dtype=``, ``grad_fn=`` or
   ``requires_grad=True`` and closes the parenthesis.

Values are formatted the way PyTorch does it: each element is turned into a
Python float (a double, so a float32 is promoted exactly) and written with
``str.format`` specs such as ``'{:.4f}'``.
"""
import dataclasses
import math

import numpy as np

from . import _dtype

# mini_autograd has no ``set_default_dtype``: the default dtype is always float32.
_DEFAULT_DTYPE = _dtype.float32

# Dtypes whose name is left out of a non-empty tensor's repr: the values
# already show them (``1.`` is a float, ``1`` an int, ``True`` a bool).
_DTYPES_WITHOUT_SUFFIX = (_DEFAULT_DTYPE, _dtype.int64, _dtype.bool_)


# ---------------------------------------------------------------------------
# Print options
# ---------------------------------------------------------------------------

@dataclasses.dataclass
class _PrinterOptions:
    """The current print options, with PyTorch's defaults."""

    precision: int = 4
    threshold: float = 1000
    edgeitems: int = 3
    linewidth: int = 80
    sci_mode: bool | None = None


PRINT_OPTS = _PrinterOptions()

# The named presets accepted by ``set_printoptions(profile=...)``.
_PROFILES = {
    "default": dict(precision=4, threshold=1000, edgeitems=3, linewidth=80),
    "short": dict(precision=2, threshold=1000, edgeitems=2, linewidth=80),
    "full": dict(precision=4, threshold=math.inf, edgeitems=3, linewidth=80),
}


def set_printoptions(precision=None, threshold=None, edgeitems=None,
                     linewidth=None, profile=None, sci_mode=None):
    """Set the options used when printing tensors.

    precision: digits after the decimal point (default 4).
    threshold: more elements than this and the tensor is summarized (default 1000).
    edgeitems: items kept at each end of a summarized dimension (default 3).
    linewidth: characters per line before a row wraps (default 80).
    profile: a preset, ``'default'``, ``'short'`` or ``'full'``, applied first
        so the other arguments can override it (other names are ignored).
    sci_mode: True/False forces scientific notation on/off; None lets the
        formatter decide.  As in PyTorch, sci_mode is *always* set, so any call
        that leaves it out resets it to None.
    """
    if profile is not None:
        for name, value in _PROFILES.get(profile, {}).items():
            setattr(PRINT_OPTS, name, value)

    if precision is not None:
        PRINT_OPTS.precision = precision
    if threshold is not None:
        PRINT_OPTS.threshold = threshold
    if edgeitems is not None:
        PRINT_OPTS.edgeitems = edgeitems
    if linewidth is not None:
        PRINT_OPTS.linewidth = linewidth
    PRINT_OPTS.sci_mode = sci_mode


def get_printoptions():
    """Return the current options as a dict that ``set_printoptions(**d)`` accepts."""
    return dataclasses.asdict(PRINT_OPTS)


# ---------------------------------------------------------------------------
# Formatting single values
# ---------------------------------------------------------------------------

class _Formatter:
    """Chooses one style and one width for every element of a tensor.

    ``values`` are the elements that will actually be shown (already
    summarized for a large tensor).  For floats only the non-zero finite
    values decide the style:

    * int_mode: every such value is a whole number, so print ``3.`` style;
    * sci_mode: the values span more than 1000x, or are above 1e8, or below
      1e-4 (unless ``PRINT_OPTS.sci_mode`` forces it on or off).
    """

    def __init__(self, values, is_floating_point):
        self.floating_dtype = is_floating_point
        self.int_mode = True
        self.sci_mode = False
        self.max_width = 1

        flat = values.reshape(-1)
        if not self.floating_dtype:
            for value in flat.tolist():
                self.max_width = max(self.max_width, len(f"{value}"))
            return

        nonzero_finite_vals = flat[np.isfinite(flat) & (flat != 0)]
        if nonzero_finite_vals.size == 0:
            # Only zeros, nans and infs: keep int_mode and width 1.
            return

        self.int_mode = bool(np.all(nonzero_finite_vals == np.ceil(nonzero_finite_vals)))
        if PRINT_OPTS.sci_mode is None:
            self.sci_mode = _needs_sci_mode(nonzero_finite_vals)
        else:
            self.sci_mode = PRINT_OPTS.sci_mode

        for value in nonzero_finite_vals.tolist():
            self.max_width = max(self.max_width, len(self._width_sample(value)))

    def _width_sample(self, value):
        """How a non-zero finite value is written when measuring the column width."""
        if self.sci_mode:
            return f"{value:.{PRINT_OPTS.precision}e}"
        if self.int_mode:
            return f"{value:.0f}" + "."  # the '.' marks the tensor as floating point
        return f"{value:.{PRINT_OPTS.precision}f}"

    def width(self):
        """The width every formatted element is padded to."""
        return self.max_width

    def format(self, value):
        """Format one Python number, right-aligned to the common width."""
        if self.floating_dtype:
            if self.sci_mode:
                ret = f"{value:{self.max_width}.{PRINT_OPTS.precision}e}"
            elif self.int_mode:
                ret = f"{value:.0f}"
                if not (math.isinf(value) or math.isnan(value)):
                    ret += "."
            else:
                ret = f"{value:.{PRINT_OPTS.precision}f}"
        else:
            ret = f"{value}"
        return (self.max_width - len(ret)) * " " + ret


def _needs_sci_mode(nonzero_finite_vals):
    """PyTorch's automatic choice of scientific notation (computed in double)."""
    magnitudes = np.abs(nonzero_finite_vals).astype(np.float64)
    smallest = float(magnitudes.min())
    largest = float(magnitudes.max())
    return largest / smallest > 1000.0 or largest > 1.0e8 or smallest < 1.0e-4


# ---------------------------------------------------------------------------
# Laying out the nested brackets
# ---------------------------------------------------------------------------

def _scalar_str(values, formatter):
    """A 0-d tensor: just its one value."""
    return formatter.format(values.item())


def _vector_str(values, indent, summarize, formatter):
    """A 1-d row: ``[a, b, c]``, wrapped to fit ``linewidth``."""
    element_length = formatter.width() + 2  # the value plus ", "
    elements_per_line = max(1, math.floor((PRINT_OPTS.linewidth - indent) / element_length))
    edgeitems = PRINT_OPTS.edgeitems

    if summarize and not edgeitems:
        data = ["..."]
    elif summarize and values.shape[0] > 2 * edgeitems:
        data = ([formatter.format(v) for v in values[:edgeitems].tolist()]
                + [" ..."]
                + [formatter.format(v) for v in values[-edgeitems:].tolist()])
    else:
        data = [formatter.format(v) for v in values.tolist()]

    lines = [", ".join(data[i:i + elements_per_line])
             for i in range(0, len(data), elements_per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _tensor_str_with_formatter(values, indent, summarize, formatter):
    """Any number of dims: recurse over the first dimension.

    ``indent`` is the column of the opening bracket, so each level of nesting
    indents one more space; between sub-blocks of a d-dim tensor there are
    d - 1 newlines (a blank line between matrices of a 3-d tensor, and so on).
    """
    dim = values.ndim
    if dim == 0:
        return _scalar_str(values, formatter)
    if dim == 1:
        return _vector_str(values, indent, summarize, formatter)

    def sub_str(i):
        return _tensor_str_with_formatter(values[i], indent + 1, summarize, formatter)

    size = values.shape[0]
    edgeitems = PRINT_OPTS.edgeitems
    if summarize and size > 2 * edgeitems:
        slices = ([sub_str(i) for i in range(edgeitems)]
                  + ["..."]
                  + [sub_str(i) for i in range(size - edgeitems, size)])
    else:
        slices = [sub_str(i) for i in range(size)]

    return "[" + ("," + "\n" * (dim - 1) + " " * (indent + 1)).join(slices) + "]"


def _get_summarized_data(values):
    """The elements a summarized print will show (``edgeitems`` from each end of each dim)."""
    dim = values.ndim
    edgeitems = PRINT_OPTS.edgeitems
    if dim == 0:
        return values
    if dim == 1:
        if values.shape[0] > 2 * edgeitems:
            # With edgeitems == 0, values[-0:] is the whole row, as in PyTorch.
            return np.concatenate((values[:edgeitems], values[-edgeitems:]))
        return values
    if not edgeitems:
        return np.empty([0] * dim, dtype=values.dtype)
    size = values.shape[0]
    if size > 2 * edgeitems:
        rows = list(range(edgeitems)) + list(range(size - edgeitems, size))
    else:
        rows = range(size)
    return np.stack([_get_summarized_data(values[i]) for i in rows])


def _tensor_str(values, indent, is_floating_point):
    """The bracketed contents of a tensor (without ``tensor(`` and suffixes)."""
    if values.size == 0:
        return "[]"
    summarize = values.size > PRINT_OPTS.threshold
    shown = _get_summarized_data(values) if summarize else values
    formatter = _Formatter(shown, is_floating_point)
    return _tensor_str_with_formatter(values, indent, summarize, formatter)


def _add_suffixes(tensor_str, suffixes, indent, force_newline):
    """Append ``, suffix`` items and the closing ``)``, wrapping past ``linewidth``."""
    tensor_strs = [tensor_str]
    # Quirk kept from PyTorch: this overcounts by 2 when there is no newline.
    last_line_len = len(tensor_str) - tensor_str.rfind("\n") + 1
    for suffix in suffixes:
        suffix_len = len(suffix)
        if force_newline or last_line_len + suffix_len + 2 > PRINT_OPTS.linewidth:
            tensor_strs.append(",\n" + " " * indent + suffix)
            last_line_len = indent + suffix_len
            force_newline = False
        else:
            tensor_strs.append(", " + suffix)
            last_line_len += suffix_len + 2
    tensor_strs.append(")")
    return "".join(tensor_strs)


# ---------------------------------------------------------------------------
# The repr
# ---------------------------------------------------------------------------

def tensor_repr(data, dtype, *, requires_grad=False, grad_fn_name=None, is_inference=False):
    """The full repr of a tensor, exactly as PyTorch prints it.

    data: a numpy array of any shape (0-d and empty included).
    dtype: a ``mini_autograd._dtype.dtype`` (float32, float64, int64 or bool_).
    requires_grad: shown as ``requires_grad=True`` only when there is no grad_fn.
    grad_fn_name: the backward node's class name, e.g. ``'MeanBackward0'``.
    is_inference: accepted for the Tensor class's convenience; PyTorch prints
        nothing extra for inference tensors, so neither do we.

    >>> tensor_repr(np.array([1., 2.]), _dtype.float64, requires_grad=True)
    'tensor([1., 2.], dtype=torch.float64, requires_grad=True)'
    """
    del is_inference  # not part of the printed form
    values = np.asarray(data).astype(dtype.numpy, copy=False)
    prefix = "tensor("
    indent = len(prefix)
    suffixes = []

    if values.size == 0:
        # Show the shape unless it is (0,), as NumPy does; with no values to
        # look at, any dtype other than the default must be spelled out.
        if values.ndim != 1:
            suffixes.append(f"size={tuple(values.shape)}")
        if dtype is not _DEFAULT_DTYPE:
            suffixes.append(f"dtype={dtype}")
        tensor_str = "[]"
    else:
        if not PRINT_OPTS.edgeitems:
            suffixes.append(f"size={tuple(values.shape)}")
        if dtype not in _DTYPES_WITHOUT_SUFFIX:
            suffixes.append(f"dtype={dtype}")
        tensor_str = _tensor_str(values, indent, dtype.is_floating_point)

    if grad_fn_name is not None:
        suffixes.append(f"grad_fn=<{grad_fn_name}>")
    elif requires_grad:
        suffixes.append("requires_grad=True")

    return _add_suffixes(prefix + tensor_str, suffixes, indent, force_newline=False)
