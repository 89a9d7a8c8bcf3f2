"""How a tensor's elements lie in memory: strides in elements, and c10's "non-overlapping and dense".

PyTorch counterpart: c10/core/TensorImpl.h (``is_non_overlapping_and_dense``), written in Python as
``_is_non_overlapping_and_dense_or_false`` in torch/_prims_common/__init__.py.

A tensor's numbers are a numpy array; numpy counts strides in bytes, PyTorch in elements. No tensor has a
negative stride (``from_numpy`` refuses such an array, as PyTorch does); a flipped numpy array made inside
an op counts here by the size of its steps, as one block of memory read backwards.
"""
import numpy as np


def element_strides(array):
    """The strides of ``array`` in elements, as ``Tensor.stride()`` gives them."""
    return tuple(s // array.itemsize for s in array.strides)


def is_non_overlapping_and_dense(array):
    """The elements fill one block of memory, each exactly once, in some order of the dims: a transposed
    matrix does; a slice with a step (gaps) or an expanded tensor (repeats) does not. An array of 0 or 1
    element always does."""
    if array.size < 2:
        return True
    strides = element_strides(array)
    dims = sorted((abs(stride), size) for size, stride in zip(array.shape, strides, strict=True) if size != 1)
    expected = 1
    for stride, size in dims:
        if stride != expected:
            return False
        expected *= size
    return True


def empty_like_dense(array, dtype):
    """An uninitialised array of ``array``'s shape with exactly its strides in elements, ``array`` being
    non-overlapping and dense: PyTorch's ``empty_strided(sizes, strides)``, which ``clone`` and
    ``empty_like`` (memory_format=preserve) and AccumulateGrad's layout contract use for such a tensor.
    numpy's ``empty_like`` keeps the order of the dims but not the strides of dims of size 1."""
    memory = np.empty(max(array.size, 1), dtype=dtype)
    strides = tuple(stride * memory.itemsize for stride in element_strides(array))
    return np.lib.stride_tricks.as_strided(memory, array.shape, strides)
