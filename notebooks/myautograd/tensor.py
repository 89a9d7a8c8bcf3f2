"""Tensor: a numpy array plus the autograd fields PyTorch keeps beside it.

PyTorch counterpart: torch.Tensor (torch/_tensor.py) and its AutogradMeta
(torch/csrc/autograd/variable.h). Parts marked "(given)" are done for you:
data, printing, operators. The steps are yours.
"""
import warnings
import weakref

import numpy as np

from mini_autograd._dtype import from_numpy_dtype          # (given) dtypes, printed as torch.float32
from mini_autograd._printing import tensor_repr            # (given) PyTorch's printing

from .grad_mode import is_grad_enabled

NON_LEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad "
    "field to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. "
    "If you access the non-leaf Tensor by mistake, make sure you access the leaf Tensor "
    "instead. See github.com/pytorch/pytorch/pull/30531 for more information.")

NON_LEAF_REQUIRES_GRAD_ERROR = (
    "you can only change requires_grad flags of leaf variables. If you want to use a computed "
    "variable in a subgraph that doesn't require differentiation use var_no_grad = var.detach().")


class VersionCounter:
    """(given) How many in-place changes a tensor's numbers have had (step 07.1).

    PyTorch: c10::VariableVersion (c10/core/TensorImpl.h). A tensor and the tensors
    ``detach()`` makes from it share one counter, as they share their numbers (step 06.2).
    """

    def __init__(self):
        self.version = 0


class Tensor:
    """An n-dimensional array that can record the operations made with it."""

    def __init__(self, data, requires_grad=False):
        """Step 01.1: a tensor's autograd fields.

        PyTorch: AutogradMeta (torch/csrc/autograd/variable.h).
        The data part is given. Add the three autograd fields:
        - ``self.requires_grad``: the switch. Only floating-point tensors may
          switch it on; otherwise raise ``RuntimeError("Only Tensors of floating
          point and complex dtype can require gradients")``.
          (``self.dtype.is_floating_point`` tells.)
        - ``self._grad``: the gradient backward will leave here; None until then
          (read it as ``.grad``, a given property below).
        - ``self.grad_fn``: the node that made this tensor; None for a tensor you create.
        """
        self._data = np.asarray(data)           # (given) the numbers
        self.retains_grad = False               # (given) step 04.2 switches it on
        self._version_counter = VersionCounter()  # (given) in-place changes so far (step 07.1)
        raise NotImplementedError("Step 01.1: Tensor.__init__")

    # ------------------------------------------------------------ (given) data
    @property
    def dtype(self):
        return from_numpy_dtype(self._data.dtype)

    @property
    def shape(self):
        return self._data.shape

    @property
    def ndim(self):
        return self._data.ndim

    def numel(self):
        return self._data.size

    def item(self):
        return self._data.item()

    def tolist(self):
        return self._data.tolist()

    def numpy(self):
        if self.requires_grad:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. "
                               "Use tensor.detach().numpy() instead.")
        return self._data

    @property
    def _version(self):
        """(given) The version of this tensor's numbers: its counter's (``x._version += 1`` bumps it)."""
        return self._version_counter.version

    @_version.setter
    def _version(self, value):
        self._version_counter.version = value

    def __repr__(self):
        grad_fn = None if self.grad_fn is None else self.grad_fn.name()
        return tensor_repr(self._data, self.dtype, requires_grad=self.requires_grad, grad_fn_name=grad_fn)

    @property
    def grad(self):
        """(given) The gradient; PyTorch warns when you read it on a non-leaf that has none (chapter 04)."""
        if self.grad_fn is not None and not self.retains_grad and self._grad is None:
            warnings.warn(NON_LEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value):
        self._grad = value

    # ------------------------------------------------------ (given) operators
    def __add__(self, other): return ops.Add.apply(self, ops.as_tensor(other, self))
    def __radd__(self, other): return ops.Add.apply(ops.as_tensor(other, self), self)
    def __sub__(self, other): return ops.Sub.apply(self, ops.as_tensor(other, self))
    def __rsub__(self, other): return ops.Sub.apply(ops.as_tensor(other, self), self)
    def __mul__(self, other): return ops.Mul.apply(self, ops.as_tensor(other, self))
    def __rmul__(self, other): return ops.Mul.apply(ops.as_tensor(other, self), self)
    def __truediv__(self, other): return self * ops.as_tensor(other, self) ** -1
    def __neg__(self): return ops.Neg.apply(self)
    def __pow__(self, exponent): return ops.Pow.apply(self, exponent)
    def __matmul__(self, other): return ops.MatMul.apply(self, other)

    def exp(self): return ops.Exp.apply(self)
    def log(self): return ops.Log.apply(self)
    def tanh(self): return ops.Tanh.apply(self)
    def mean(self): return ops.Mean.apply(self)

    def sum(self, dim=None, keepdim=False):
        return ops.Sum.apply(self) if dim is None else ops.SumDim.apply(self, dim, keepdim)

    def max(self, dim, keepdim=False):
        """(given) The largest values along ``dim``, as a constant: no gradient flows through it here."""
        return Tensor(self._data.max(axis=dim, keepdims=keepdim))

    # --------------------------------------------- (given) in-place operations
    def add_(self, other): return self._write(self._data + self._operand(other))
    def sub_(self, other): return self._write(self._data - self._operand(other))
    def mul_(self, other): return self._write(self._data * self._operand(other))
    def zero_(self): return self._write(np.zeros_like(self._data))

    def _operand(self, other):
        """(given) ``other``'s numbers for an in-place operation, refused as PyTorch refuses them: the
        result must keep this tensor's shape, and fit its dtype (no float numbers into an integer tensor,
        no integers into a bool one).
        """
        data = ops.as_tensor(other, self)._data
        mine = (1,) * (data.ndim - self.ndim) + self.shape          # both shapes, padded to one length
        theirs = (1,) * (self.ndim - data.ndim) + data.shape
        for dim in reversed(range(len(mine))):
            if mine[dim] != theirs[dim] and 1 not in (mine[dim], theirs[dim]):
                raise RuntimeError(f"The size of tensor a ({mine[dim]}) must match the size of tensor b "
                                   f"({theirs[dim]}) at non-singleton dimension {dim}")
        shape = np.broadcast_shapes(self.shape, data.shape)
        if shape != self.shape:
            raise RuntimeError(f"output with shape {list(self.shape)} doesn't match the broadcast shape "
                               f"{list(shape)}")
        kinds = {"b": 0, "u": 1, "i": 1, "f": 2}                    # bool < integers < floats (canCast)
        if kinds[data.dtype.kind] > kinds[self._data.dtype.kind]:
            raise RuntimeError(f"result type {from_numpy_dtype(data.dtype).scalar_name} can't be cast to the "
                               f"desired output type {from_numpy_dtype(self._data.dtype).scalar_name}")
        return data

    def _write(self, data):
        """Step 07.1: what every in-place operation does: write ``data`` into this tensor's numbers.

        PyTorch: the version bump of every in-place op (VariableVersion::bump).
        - A leaf that requires grad, while recording is on, must not change under
          autograd's feet: raise ``RuntimeError("a leaf Variable that requires grad
          is being used in an in-place operation.")``.
        - A non-leaf that requires grad, while recording: PyTorch records the
          change in the graph; myautograd does not, so raise ``RuntimeError(
          "myautograd records no in-place operations: use them under no_grad")``.
        - Else this tensor's own numpy array now holds ``data`` (the same array
          object: a ``detach()``ed tensor shares it and must see the change),
          ``self._version`` is one higher, and the method returns ``self``.
        """
        raise NotImplementedError("Step 07.1: Tensor._write")

    # ---------------------------------------------------------------- autograd
    def backward(self, gradient=None, retain_graph=False):
        """Step 03.3, then 07.2: start backward from this tensor.

        PyTorch: Tensor.backward (torch/_tensor.py) and _make_grads (torch/autograd/__init__.py).
        PyTorch checks in this order, and so does yours (the first problem found is the one named):
        - A ``gradient`` of another shape than the tensor's: raise PyTorch's
          ``RuntimeError(f"Mismatch in shape: grad_output[0] has a shape of
          torch.Size({list(gradient.shape)}) and output[0] has a shape of
          torch.Size({list(self.shape)}).")``.
        - A tensor that neither requires grad nor has a grad_fn cannot start a
          backward: raise ``RuntimeError("element 0 of tensors does not require
          grad and does not have a grad_fn")``.
        - No ``gradient`` given: allowed only when the tensor has one element
          (else raise ``RuntimeError("grad can be implicitly created only for
          scalar outputs")``); start from ones shaped like the tensor.
        - A ``gradient`` of another dtype is cast to the tensor's
          (``Tensor(gradient._data.astype(self._data.dtype))``): a float32 result
          gives float32 gradients, whatever dtype the starting gradient has.
        Then hand over to ``engine.run_backward(self, gradient)``.
        Hint: ``ones_like`` lives in ``creation.py``.
        Step 07.2 (chapter 07): pass ``retain_graph`` on to ``run_backward`` too.
        """
        # (given) Before anything else, PyTorch refuses a gradient that is not a Tensor (a list, a number).
        if gradient is not None and not isinstance(gradient, Tensor):
            raise TypeError(f"gradients can be either Tensors or None, but got {type(gradient).__name__}")
        raise NotImplementedError("Step 03.3: Tensor.backward")

    @property
    def is_leaf(self):
        """Step 04.1: True for tensors that were not made by a recorded operation.

        PyTorch: Tensor.is_leaf. Tensors that do not require grad are leaves too.
        """
        raise NotImplementedError("Step 04.1: Tensor.is_leaf")

    def retain_grad(self):
        """Step 04.2: keep this non-leaf tensor's gradient in ``.grad`` too.

        PyTorch: Tensor.retain_grad (torch/csrc/autograd/variable.cpp), built on a hook.
        - requires_grad False: raise ``RuntimeError("can't retain_grad on Tensor
          that has requires_grad=False")``.
        - a leaf: nothing to do (its .grad is filled anyway).
        - else set ``self.retains_grad = True`` and put a hook first in
          ``self.grad_fn.pre_hooks`` (``insert(0, hook)``): a function the engine
          calls with the gradient arriving at that node (step 03.2). First, because
          PyTorch runs the retain_grad hook before the node's own pre-hooks, whenever
          they were registered: ``.grad`` is the gradient as it arrived. Let it store a
          copy of the gradient the first time, and afterwards make ``self._grad`` the sum
          ``self._grad + grad``, a new tensor: unlike a leaf's, PyTorch's retained
          gradient is not summed in place, so a ``.grad`` read before a second backward
          keeps its numbers. It returns None (no change), and keeps nothing when the
          gradient is None (from step 08.2 on, a node that only None reached calls its
          pre-hooks with None). The hook holds ``self`` only weakly
          (``weakref.ref(self)``), as PyTorch's does: the graph must not keep the
          tensor alive after the program let go of it.
        """
        raise NotImplementedError("Step 04.2: Tensor.retain_grad")

    def detach(self):
        """Step 06.2: the same numbers, cut from the graph.

        PyTorch: Tensor.detach. A new leaf that shares this tensor's numpy array
        (no copy) and does not require grad. It shares the version counter too
        (``detached._version_counter = self._version_counter``): an in-place change
        made through either tensor counts for both, so a saved tensor changed through
        its detached twin still stops backward with PyTorch's error (step 07.1).
        """
        raise NotImplementedError("Step 06.2: Tensor.detach")

    def requires_grad_(self, requires_grad=True):
        """Step 06.2: switch requires_grad on a leaf, in place; return self.

        PyTorch: Tensor.requires_grad_. A non-leaf already requires grad: asking
        for True changes nothing, asking for False raises
        ``RuntimeError(NON_LEAF_REQUIRES_GRAD_ERROR)``. A tensor that is not
        floating point cannot switch it on: ``RuntimeError("only Tensors of floating
        point dtype can require gradients")`` (PyTorch's words here differ from step 01.1's).
        """
        # (given) PyTorch's argument check: True or False, not 1.
        if not isinstance(requires_grad, bool):
            raise TypeError("requires_grad_(): argument 'requires_grad' (position 1) must be bool, "
                            f"not {type(requires_grad).__name__}")
        raise NotImplementedError("Step 06.2: Tensor.requires_grad_")


# (given) imported last: both modules use Tensor.
from . import engine, ops  # noqa: E402
