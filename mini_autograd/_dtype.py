"""The dtypes of the subset (float32, float64, the integers int8 to int64, uint8, bool), printed the way
PyTorch prints them.

PyTorch counterpart: ``torch.dtype`` (torch/headeronly/core/ScalarType.h: ``enum class ScalarType``,
which c10/core/ScalarType.h includes).
"""
import numpy as np


class dtype:
    """A tensor element type: a name, a numpy dtype, and whether it is floating point."""

    __slots__ = ("name", "numpy", "is_floating_point", "itemsize", "scalar_name", "c_name")

    def __init__(self, name, numpy_dtype, is_floating_point, scalar_name, c_name):
        self.name = name
        self.numpy = np.dtype(numpy_dtype)
        self.is_floating_point = is_floating_point
        self.itemsize = self.numpy.itemsize
        self.scalar_name = scalar_name    # PyTorch's ScalarType name in messages: "Float"
        self.c_name = c_name              # the C type some messages name instead: "float"

    @property
    def legacy_name(self):
        """The legacy type name that ``Tensor.type()`` and many messages give: ``torch.FloatTensor``."""
        return f"torch.{self.scalar_name}Tensor"

    def __repr__(self):
        return f"torch.{self.name}"

    def __reduce__(self):
        return (_from_name, (self.name,))


float32 = dtype("float32", np.float32, True, "Float", "float")
float64 = dtype("float64", np.float64, True, "Double", "double")
int64 = dtype("int64", np.int64, False, "Long", "long int")
int32 = dtype("int32", np.int32, False, "Int", "int")
int16 = dtype("int16", np.int16, False, "Short", "short int")
int8 = dtype("int8", np.int8, False, "Char", "signed char")
uint8 = dtype("uint8", np.uint8, False, "Byte", "unsigned char")
bool_ = dtype("bool", np.bool_, False, "Bool", "bool")

float = float32  # torch.float is an alias of torch.float32
double = float64
long = int64
int = int32      # torch.int is int32, as in C
short = int16

_ALL = (float32, float64, int64, int32, int16, int8, uint8, bool_)
_BY_NUMPY = {d.numpy: d for d in _ALL}
_BY_NAME = {d.name: d for d in _ALL}
_BY_LEGACY_NAME = {d.legacy_name: d for d in _ALL}


def by_legacy_name(name):
    """``torch.FloatTensor`` -> float32."""
    return _BY_LEGACY_NAME[name]


def _from_name(name):
    return _BY_NAME[name]


def from_numpy_dtype(np_dtype):
    """Map a numpy dtype onto the subset: other floats -> float32/64, other integers -> int64."""
    np_dtype = np.dtype(np_dtype)
    if np_dtype in _BY_NUMPY:
        return _BY_NUMPY[np_dtype]
    if np_dtype.kind == "f":
        return float64 if np_dtype.itemsize > 4 else float32
    if np_dtype.kind in "iu":
        return int64
    if np_dtype.kind == "b":
        return bool_
    raise TypeError(f"can't convert np.ndarray of type numpy.{np_dtype} to a tensor; "
                    f"the supported types are: {SUPPORTED_NUMPY_TYPES}.")


SUPPORTED_NUMPY_TYPES = "float64, float32, int64, int32, int16, int8, uint8 and bool"
