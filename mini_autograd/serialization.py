"""``torch.save`` and ``torch.load``: tensors, parameters and the containers that hold them
(``state_dict``), to a file and back.

A file is a pickle in which each tensor is its numpy array and ``requires_grad``: a tensor
comes back as a new leaf, as PyTorch's does. It is not PyTorch's format (a zip archive):
files are exchanged only between mini_autograd programs. ``load`` unpickles only tensors,
numbers, strings and containers unless ``weights_only=False``, as PyTorch 2.6 and later do.

PyTorch counterpart: torch/serialization.py and torch/_weights_only_unpickler.py.
"""
import codecs
import collections
import os
import pickle

import numpy as np

from ._tensor import Tensor


def _rebuild_tensor(array, requires_grad):
    return Tensor(array, requires_grad)


def _rebuild_parameter(array, requires_grad):
    from .nn.parameter import Parameter
    return Parameter(Tensor(array), requires_grad)


class _Pickler(pickle.Pickler):
    def reducer_override(self, obj):
        if isinstance(obj, Tensor):
            from .nn.parameter import Parameter
            rebuild = _rebuild_parameter if isinstance(obj, Parameter) else _rebuild_tensor
            return rebuild, (np.array(obj._data), obj.requires_grad)
        return NotImplemented


# What a weights-only load may rebuild: tensors, and the containers a state_dict uses.
_SAFE = {("mini_autograd.serialization", "_rebuild_tensor"): _rebuild_tensor,
         ("mini_autograd.serialization", "_rebuild_parameter"): _rebuild_parameter,
         ("collections", "OrderedDict"): collections.OrderedDict,
         ("_codecs", "encode"): codecs.encode,          # how protocol 2 writes bytes
         ("numpy", "ndarray"): np.ndarray, ("numpy", "dtype"): np.dtype}
for _name in ("numpy.core.multiarray", "numpy._core.multiarray"):
    _SAFE[(_name, "_reconstruct")] = np.ndarray.__reduce__(np.zeros(0))[0]
    _SAFE[(_name, "scalar")] = np.float64(0).__reduce__()[0]
_SAFE.update({("numpy.dtypes", name): getattr(np.dtypes, name) for name in dir(np.dtypes)
              if name.endswith("DType")})


class _WeightsUnpickler(pickle.Unpickler):
    def find_class(self, module, name):
        if (module, name) in _SAFE:
            return _SAFE[(module, name)]
        raise pickle.UnpicklingError(
            "Weights only load failed. This file can still be loaded, to do so you have two options, "
            "do those steps only if you trust the source of the checkpoint. \n\t(1) Re-running `torch.load` "
            "with `weights_only` set to `False` will likely succeed, but it can result in arbitrary code "
            f"execution. \n\tWeightsUnpickler error: Unsupported global: GLOBAL {module}.{name}")


def save(obj, f, pickle_module=pickle, pickle_protocol=2, _use_new_zipfile_serialization=True):
    """Write ``obj`` to ``f`` (a path or a binary file object)."""
    if isinstance(f, (str, os.PathLike)):
        with open(f, "wb") as file:
            _Pickler(file, protocol=pickle_protocol).dump(obj)
    else:
        _Pickler(f, protocol=pickle_protocol).dump(obj)


def load(f, map_location=None, pickle_module=None, *, weights_only=None, mmap=None, **pickle_load_args):
    """Read back what ``save`` wrote (``map_location`` is accepted: everything is on the CPU)."""
    unpickler = pickle.Unpickler if weights_only is False else _WeightsUnpickler
    if isinstance(f, (str, os.PathLike)):
        with open(f, "rb") as file:
            return unpickler(file).load()
    return unpickler(f).load()
