"""Tensor: a numpy array plus the autograd metadata PyTorch keeps beside it.

PyTorch counterpart: ``torch.Tensor`` (torch/_tensor.py) and its
``AutogradMeta`` (torch/csrc/autograd/variable.h): ``requires_grad``, ``grad``,
``grad_fn``, ``output_nr``, the version counter and the weak link to the
leaf's ``AccumulateGrad`` node.
"""
import math
import numbers
import warnings
import weakref

import numpy as np

from . import _dtype, random as _random
from ._device import CPU, check_device
from ._printing import tensor_repr
from .grad_mode import _state as _grad_state, is_grad_enabled, is_inference_mode_enabled


def type_name(value):
    """How PyTorch names a value's type in messages: ``torch.FloatTensor``, ``int``, ..."""
    return value.dtype.legacy_name if isinstance(value, Tensor) else type(value).__name__


class Size(tuple):
    """A tensor's shape: a tuple that prints as ``torch.Size([2, 3])``."""

    def __repr__(self):
        return f"torch.Size({list(self)})"

    def numel(self):
        return math.prod(self)


class VersionCounter:
    """Counts in-place changes to a tensor's data; shared by a tensor and its views.

    A saved tensor remembers the version it was saved at, so backward can tell that
    the data it needs was overwritten (c10/core/TensorImpl.h: VariableVersion).
    """

    value = 0      # a new counter starts at 0; the first in-place change gives it its own value


_NON_LEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad "
    "field to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. "
    "If you access the non-leaf Tensor by mistake, make sure you access the leaf Tensor "
    "instead. See github.com/pytorch/pytorch/pull/30531 for more information.")


_NO_DATA = object()


class Tensor:
    """An n-dimensional array that can record the operations made with it."""

    # What a new tensor starts with: class attributes, so that making a tensor costs only the assignments
    # that differ. (PyTorch's AutogradMeta, in variable.h, starts the same: no grad, no grad_fn, output_nr 0.)
    _grad = None                 # filled by backward, read as ``.grad``
    _grad_fn = None              # the Node that made this tensor; None for leaves (see grad_fn)
    _output_nr = 0               # which output of grad_fn this tensor is
    _requires_grad = False       # the switch set by requires_grad=True (see requires_grad)
    _grad_accumulator = None     # weakref to the leaf's AccumulateGrad node
    _hooks = None                # a leaf's tensor hooks (non-leaf hooks live on grad_fn)
    _post_accumulate_grad_hooks = None   # a leaf's hooks run after its .grad is written
    _retains_grad = False
    _is_inference = False        # made in inference_mode
    _base = None                 # the tensor this one is a view of (see ops/views.py)
    _wrapped_number = False      # a python scalar turned into a tensor by an op

    def __init__(self, data=_NO_DATA, requires_grad=False, *sizes):
        """Prefer ``mini_autograd.tensor(...)``; this takes a numpy array as it is.

        Called the legacy PyTorch way, ``torch.Tensor([1, 2])`` or ``torch.Tensor(2, 3)``,
        it makes a float32 tensor from the list, or of that shape.
        """
        if not isinstance(data, np.ndarray):
            if isinstance(data, np.generic):      # numpy turns 0-d results into scalars
                data = np.asarray(data)
            else:
                from .creation import legacy_new
                args = () if data is _NO_DATA else (data,)
                if isinstance(data, (int, np.integer)) and not isinstance(requires_grad, bool):
                    args += (requires_grad,) + sizes
                data, requires_grad = legacy_new(args, _dtype.float32), False
        self._data = data
        self._version_counter = VersionCounter()
        if _grad_state.inference_mode:
            self._is_inference = True
        if requires_grad:
            if not self.dtype.is_floating_point:
                raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
            self._requires_grad = True

    # ------------------------------------------------------------------ data
    @property
    def dtype(self):
        return _dtype._BY_NUMPY[self._data.dtype]

    @property
    def shape(self):
        return Size(self._data.shape)

    @property
    def ndim(self):
        return self._data.ndim

    def size(self, dim=None):
        if dim is None:
            return self.shape
        return self._data.shape[_wrap_dim(dim, self.ndim)]

    def dim(self):
        return self._data.ndim

    def numel(self):
        return self._data.size

    nelement = numel        # PyTorch's other name for it

    def __len__(self):
        if self.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def is_floating_point(self):
        return self.dtype.is_floating_point

    def element_size(self):
        return self._data.itemsize

    @property
    def data(self):
        """The same numbers, detached from the graph, with a version counter of its own.

        Changes made through ``.data`` are invisible to autograd: prefer ``detach()``.
        """
        return Tensor(self._data)

    @data.setter
    def data(self, new):
        if not isinstance(new, Tensor):
            raise TypeError(f"data must be a Tensor, not {type(new).__name__}")
        self._data = new._data

    @property
    def _version(self):
        return self._version_counter.value

    def item(self):
        if self._data.size != 1:
            raise RuntimeError(f"a Tensor with {self._data.size} elements cannot be converted to Scalar")
        return self._data.reshape(()).item()

    def tolist(self):
        return self._data.tolist()

    def numpy(self):
        if self.requires_grad:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. "
                               "Use tensor.detach().numpy() instead.")
        return self._data

    def __array__(self, dtype=None, copy=None):
        return self.numpy() if dtype is None else self.numpy().astype(dtype)

    def __repr__(self):
        try:
            grad_fn = self.grad_fn
            grad_fn_name = None if grad_fn is None else grad_fn.name().rsplit("::", 1)[-1]
        except RuntimeError:        # a view whose grad_fn cannot be made (torch/_tensor_str.py does the same)
            grad_fn_name = "Invalid"
        return tensor_repr(self._data, self.dtype, requires_grad=self.requires_grad,
                           grad_fn_name=grad_fn_name,
                           is_inference=self._is_inference)

    def __format__(self, spec):
        if self.ndim == 0:
            return format(self.item(), spec)
        return format(repr(self), spec)

    def __bool__(self):
        if self._data.size != 1:
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return bool(self._data)

    def __float__(self):
        if self.requires_grad and is_grad_enabled():
            warnings.warn("Converting a tensor with requires_grad=True to a scalar may lead to unexpected "
                          "behavior.\nConsider using tensor.detach() first.", UserWarning, stacklevel=2)
        return float(self._one_element())

    def __int__(self):
        return int(self._one_element())

    def __complex__(self):
        return complex(self._one_element())

    def _one_element(self):
        """The value of a one-element tensor, for float(), int() and complex() (math.isfinite too)."""
        if self._data.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return self._data.reshape(()).item()

    def __index__(self):
        if self.dtype.is_floating_point or self._data.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self.item())

    def __hash__(self):
        return id(self)

    # -------------------------------------------------------------- autograd
    @property
    def grad_fn(self):
        """The node that made this tensor (``None`` for leaves).

        A view whose base was changed in place since its ``grad_fn`` was set gets a new one,
        ``AsStridedBackward0``, that reads its gradient out of the base's (ops/views.py).
        """
        if self._base is None or self._view_version == self._version_counter.value:
            return self._grad_fn
        return ops.views.refresh_view_grad_fn(self)

    @property
    def requires_grad(self):
        if self._requires_grad or self._grad_fn is not None:
            return True
        base = self._base       # a view of a tensor that requires grad requires grad too
        return base is not None and base.requires_grad

    @requires_grad.setter
    def requires_grad(self, flag):
        if flag and self.grad_fn is None and not self.dtype.is_floating_point:
            raise RuntimeError("only Tensors of floating point and complex dtype can require gradients")
        self.requires_grad_(flag)

    def requires_grad_(self, requires_grad=True):
        if self.grad_fn is not None:
            if requires_grad:
                return self        # a non-leaf already requires grad: nothing to change
            raise RuntimeError(
                "you can only change requires_grad flags of leaf variables. If you want to use a "
                "computed variable in a subgraph that doesn't require differentiation use "
                "var_no_grad = var.detach().")
        if requires_grad and not self.dtype.is_floating_point:
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        if requires_grad and self._is_inference and not is_inference_mode_enabled():
            raise RuntimeError("Setting requires_grad=True on inference tensor outside InferenceMode "
                               "is not allowed.")
        self._requires_grad = bool(requires_grad)
        return self

    @property
    def is_leaf(self):
        """Leaves are the tensors autograd did not make: ``grad_fn is None``."""
        return self.grad_fn is None

    @property
    def grad(self):
        # PyTorch warns only on a non-leaf that does not retain its gradient and has none
        # (TensorBody.h: Tensor::grad). Leaf or not by the grad_fn as it is set, without making
        # a view's new one: grad() asks is_leaf(), which reads the field.
        if self._grad_fn is not None and not self._retains_grad and self._grad is None:
            warnings.warn(_NON_LEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, new_grad):
        if new_grad is not None:
            if not isinstance(new_grad, Tensor):
                raise TypeError(f"assigned grad expected to be a Tensor or None but got grad of type "
                                f"{type(new_grad).__name__}")
            if new_grad.shape != self.shape:
                raise RuntimeError(f"attempting to assign a gradient of size '{list(new_grad.shape)}' to a "
                                   f"tensor of size '{list(self.shape)}'. Please ensure that the gradient "
                                   "and the tensor are the same size")
            if new_grad.dtype is not self.dtype:
                # PyTorch's words here mix the two namings: "Float", but "double" and "long int".
                names = {"float32": "Float", "float64": "double", "int64": "long int", "bool": "bool"}
                raise RuntimeError("attempting to assign a gradient with dtype "
                                   f"'{names[new_grad.dtype.name]}' to a tensor with grad_dtype "
                                   f"'{names[self.dtype.name]}'. The gradient "
                                   "must match the tensor's grad_dtype (defaults to the tensor's dtype). You "
                                   "can set the tensor's grad_dtype attribute with a specific dtype, or None "
                                   "to allow any dtype. Set grad_dtype with caution. Diverging the dtypes of "
                                   "a tensor and its gradient may break downstream systems that assume they "
                                   "match.")
        self._grad = new_grad

    @property
    def retains_grad(self):
        return self._retains_grad

    def _is_view(self):
        """Whether this tensor is a view of another for autograd (its ``_base``)."""
        return self._base is not None

    def is_inference(self):
        return self._is_inference

    def _get_grad_accumulator(self):
        """The leaf's AccumulateGrad node, made on first use and held weakly, as in PyTorch."""
        node = self._grad_accumulator() if self._grad_accumulator is not None else None
        if node is None:
            from .autograd.graph import AccumulateGrad
            node = AccumulateGrad(self)
            self._grad_accumulator = weakref.ref(node)
        return node

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        """Compute the gradient of this tensor w.r.t. the graph leaves.

        Like ``torch.Tensor.backward`` (torch/_tensor.py), it only forwards its arguments
        to ``autograd.backward``.
        """
        from . import autograd
        autograd.backward(self, gradient, retain_graph, create_graph, inputs=inputs)

    def register_hook(self, hook):
        """Call ``hook(grad)`` when this tensor's gradient is computed; it may return a new grad."""
        if not self.requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        from .autograd.graph import RemovableHandle
        if self.grad_fn is None:
            if self._hooks is None:
                self._hooks = {}
            return RemovableHandle(self._hooks, hook)
        return self.grad_fn._register_tensor_pre_hook(self._output_nr, hook)

    def register_post_accumulate_grad_hook(self, hook):
        """Call ``hook(self)`` each time backward has written this leaf's ``.grad``; PyTorch's
        optimizers-in-backward use it to step a parameter as soon as its gradient is ready.

        torch/_tensor.py: Tensor.register_post_accumulate_grad_hook. The hooks live on the tensor, as a
        leaf's other hooks do (its AccumulateGrad node is held only weakly, and may be made anew).
        """
        if not self.requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self.grad_fn is not None:
            raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf tensors")
        from .autograd.graph import RemovableHandle
        if self._post_accumulate_grad_hooks is None:
            self._post_accumulate_grad_hooks = {}
        return RemovableHandle(self._post_accumulate_grad_hooks, hook)

    def retain_grad(self):
        """Keep this non-leaf tensor's gradient in ``.grad``; built on a hook, as in PyTorch.

        A leaf here is one whose ``grad_fn`` field is empty, read without making a view's new
        one (variable.cpp: VariableHooks::retain_grad asks ``is_leaf()``, which reads the field):
        for a view made under no_grad of a tensor that requires grad, it does nothing, even after
        an in-place change that would make ``grad_fn`` raise.
        """
        if not self.requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if self._grad_fn is None or self._retains_grad:
            return
        self.grad_fn._register_retains_grad_hook(self)
        self._retains_grad = True

    def detach(self):
        """The same data, cut from the graph: a new leaf sharing data and version counter."""
        out = Tensor(self._data)
        out._version_counter = self._version_counter
        out._is_inference = self._is_inference    # as in PyTorch: detach() of an inference tensor is one too
        return out

    def detach_(self):
        """Cut this tensor from the graph in place: it becomes a leaf.

        ``retains_grad`` is kept, as in PyTorch. Under ``inference_mode`` it changes nothing:
        autograd is off there, and PyTorch's autograd kernel of detach_ does not run.
        """
        if is_inference_mode_enabled():
            return self
        if self._base is not None:
            raise RuntimeError("Can't detach views in-place. Use detach() instead. If you are using "
                               "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view "
                               "is set as True, gradients are views of DDP buckets, and hence detach_() "
                               "cannot be called on these gradients. To fix this error, please refer to "
                               "the Optimizer.zero_grad() function in torch/optim/optimizer.py as the "
                               "solution.")
        self._grad_fn = None
        self._output_nr = 0
        self._requires_grad = False
        return self

    # ----------------------------------------------------- in-place helpers
    def _check_inplace(self, check_overlap=True, requires_grad=None):
        """The checks PyTorch makes before any in-place operation.

        ``requires_grad``: whether any input of the operation requires grad (this tensor's own
        flag if not given); only then are the autograd rules checked, as in PyTorch
        (torch/csrc/autograd/VariableTypeUtils.h: check_inplace, can_mutate_inplace).
        """
        if self._is_inference and not is_inference_mode_enabled():
            raise RuntimeError(
                "Inplace update to inference tensor outside InferenceMode is not allowed.You can "
                "make a clone to get a normal tensor before doing inplace update.See "
                "https://github.com/pytorch/rfcs/pull/17 for more details.")
        if requires_grad is None:
            requires_grad = self.requires_grad
        if requires_grad and is_grad_enabled():
            base = self._base
            if base is not None:
                if self._creation_meta != "DEFAULT":
                    raise RuntimeError(ops.views.view_rebase_message(self, indirect=False))
                if base._grad_fn is None and self.requires_grad:
                    raise RuntimeError("a view of a leaf Variable that requires grad is being used in an "
                                       "in-place operation.")
            if self._grad_fn is None and self._requires_grad:
                raise RuntimeError("a leaf Variable that requires grad is being used "
                                   "in an in-place operation.")
        if check_overlap and ops.views.has_internal_overlap(self._data):
            raise RuntimeError(ops.views.OVERLAP_MESSAGE)

    def _bump_version(self):
        self._version_counter.value += 1

    # The operators and methods below all defer to ``ops``, where each is a Function.
    # Operators return NotImplemented for other types, so Python raises its usual TypeError.
    def __add__(self, other):
        return ops.add(self, other) if isinstance(other, _OPERANDS) else NotImplemented

    def __radd__(self, other):
        return ops.add(self, other) if isinstance(other, _OPERANDS) else NotImplemented

    def __sub__(self, other):
        return ops.sub(self, other) if isinstance(other, _OPERANDS) else NotImplemented

    def __rsub__(self, other):
        return ops.rsub(self, other) if isinstance(other, _OPERANDS) else NotImplemented

    def __mul__(self, other):
        return ops.mul(self, other) if isinstance(other, _OPERANDS) else NotImplemented

    def __rmul__(self, other):
        return ops.mul(self, other) if isinstance(other, _OPERANDS) else NotImplemented

    def __truediv__(self, other):
        return ops.div(self, other) if isinstance(other, _OPERANDS) else NotImplemented

    def __rtruediv__(self, other):
        return ops.rdiv(self, other) if isinstance(other, _OPERANDS) else NotImplemented

    def __pow__(self, other):
        return ops.pow(self, other) if isinstance(other, _OPERANDS) else NotImplemented

    def __rpow__(self, other):
        return ops.rpow(self, other) if isinstance(other, _OPERANDS) else NotImplemented

    def __matmul__(self, other):
        return ops.matmul(self, other) if isinstance(other, Tensor) else NotImplemented

    def __rmatmul__(self, other):
        return ops.matmul(other, self) if isinstance(other, Tensor) else NotImplemented

    def __neg__(self): return ops.neg(self)
    def __pos__(self): return self
    def __abs__(self): return ops.abs(self)
    def __getitem__(self, index): return ops.getitem(self, index)
    def __setitem__(self, index, value): ops.setitem(self, index, value)
    def __iadd__(self, other): return self.add_(other)
    def __isub__(self, other): return self.sub_(other)
    def __imul__(self, other): return self.mul_(other)
    def __itruediv__(self, other): return self.div_(other)
    def __mod__(self, other):
        return ops.binary.remainder(self, other) if isinstance(other, _OPERANDS) else NotImplemented
    def __rmod__(self, other):
        return ops.binary.remainder(other, self) if isinstance(other, _OPERANDS) else NotImplemented
    def __imod__(self, other): return self.remainder_(other)
    def __eq__(self, other): return ops.compare(np.equal, self, other)
    def __ne__(self, other): return ops.compare(np.not_equal, self, other)
    def __lt__(self, other): return ops.compare(np.less, self, other)
    def __le__(self, other): return ops.compare(np.less_equal, self, other)
    def __gt__(self, other): return ops.compare(np.greater, self, other)
    def __ge__(self, other): return ops.compare(np.greater_equal, self, other)

    def add(self, other, *, alpha=1): return ops.add(self, other, alpha)
    def sub(self, other, *, alpha=1): return ops.sub(self, other, alpha)
    def mul(self, other): return ops.mul(self, other)
    def div(self, other, *, rounding_mode=None): return ops.div(self, other, rounding_mode)
    def pow(self, exponent): return ops.pow(self, exponent)
    def neg(self): return ops.neg(self)
    def abs(self): return ops.abs(self)
    def exp(self): return ops.exp(self)
    def log(self): return ops.log(self)
    def sqrt(self): return ops.sqrt(self)
    def tanh(self): return ops.tanh(self)
    def sigmoid(self): return ops.sigmoid(self)
    def relu(self): return ops.relu(self)
    def reciprocal(self): return ops.reciprocal(self)
    def clamp(self, min=None, max=None): return ops.clamp(self, min, max)
    def clip(self, min=None, max=None): return ops.clamp(self, min, max)
    def clamp_(self, min=None, max=None): return ops.inplace_ops.run_inplace(self, ops.clamp, (min, max))
    # numpy's names ``axis=`` and ``keepdims=`` are accepted as well, as PyTorch accepts them
    def sum(self, dim=None, keepdim=False, **kw): return ops.sum(self, *_dim_args(dim, keepdim, kw, "sum"))
    def mean(self, dim=None, keepdim=False, **kw): return ops.mean(self, *_dim_args(dim, keepdim, kw, "mean"))
    def max(self, dim=None, keepdim=False, **kw): return ops.max(self, *_dim_args(dim, keepdim, kw, "max"))
    def argmax(self, dim=None, keepdim=False, **kw):
        return ops.argmax(self, *_dim_args(dim, keepdim, kw, "argmax"))
    def matmul(self, other): return ops.matmul(self, other)
    def mm(self, other): return ops.mm(self, other)
    def mv(self, other): return ops.mv(self, other)
    def bmm(self, other): return ops.bmm(self, other)

    @property
    def mT(self):
        """The last two dimensions swapped (a batch of transposed matrices)."""
        if self.ndim < 2:
            raise RuntimeError(f"tensor.mT is only supported on matrices or batches of matrices. Got "
                               f"{self.ndim}-D tensor.")
        return ops.transpose(self, -2, -1)

    def is_contiguous(self):
        return self._data.flags.c_contiguous

    def stride(self, dim=None):
        """How many elements apart neighbours are along each dimension (numpy's byte strides divided by
        the element size); ``stride(dim)`` for one dimension. A transposed matrix has ``(1, rows)``."""
        if self._data.size == 0:              # no memory to step through: PyTorch's row-major strides
            strides, step = [], 1
            for size in reversed(self._data.shape):
                strides.insert(0, step)
                step *= max(size, 1)
            strides = tuple(strides)
        else:
            strides = tuple(s // self._data.itemsize for s in self._data.strides)
        if dim is None:
            return strides
        return strides[_wrap_dim(dim, self.ndim)]

    def data_ptr(self):
        """The address of the tensor's first element: equal for two tensors that share their memory."""
        return self._data.__array_interface__["data"][0]

    def contiguous(self):
        """This tensor if its elements are laid out row by row in memory, else a copy that is."""
        return self if self._data.flags.c_contiguous else ops.clone(self, "contiguous")
    def dot(self, other): return ops.dot(self, other)
    def reshape(self, *shape): return ops.reshape(self, shape)
    def view(self, *shape): return ops.view(self, shape)
    def transpose(self, dim0, dim1): return ops.transpose(self, dim0, dim1)
    def permute(self, *dims):
        if not dims:
            raise TypeError('permute() missing 1 required positional arguments: "dims"')
        return ops.permute(self, dims)
    def t(self): return ops.t(self)
    @property
    def T(self):
        if self.ndim == 0:
            warnings.warn("Tensor.T is deprecated on 0-D tensors. This function is the identity in "
                          "these cases.", UserWarning, stacklevel=2)
        elif self.ndim != 2:
            warnings.warn("The use of `x.T` on tensors of dimension other than 2 to reverse their shape "
                          "is deprecated and it will throw an error in a future release. Consider `x.mT` "
                          "to transpose batches of matrices or `x.permute(*torch.arange(x.ndim - 1, -1, "
                          "-1))` to reverse the dimensions of a tensor.", UserWarning, stacklevel=2)
        return ops.permute(self, tuple(reversed(range(self.ndim))))
    def unsqueeze(self, dim=None, **kw): return ops.unsqueeze(self, _dim_args(dim, None, kw, "unsqueeze")[0])
    def squeeze(self, dim=None, **kw): return ops.squeeze(self, _dim_args(dim, None, kw, "squeeze")[0])
    def expand(self, *sizes): return ops.expand(self, sizes)
    def clone(self, memory_format=None): return ops.clone(self, memory_format)
    def float(self): return ops.to_dtype(self, _dtype.float32)
    def double(self): return ops.to_dtype(self, _dtype.float64)
    def long(self): return ops.to_dtype(self, _dtype.int64)
    def bool(self): return ops.to_dtype(self, _dtype.bool_)
    def int(self): return ops.to_dtype(self, _dtype.int32)
    def short(self): return ops.to_dtype(self, _dtype.int16)
    def char(self): return ops.to_dtype(self, _dtype.int8)
    def byte(self): return ops.to_dtype(self, _dtype.uint8)

    def to(self, *args, dtype=None, device=None, copy=False, non_blocking=False):
        """``x.to(dtype)``, ``x.to(device)``, ``x.to(device, dtype)``, ``x.to(other_tensor)``.

        Only the CPU is here: moving to it changes nothing (``x.to("cpu") is x``).
        """
        for arg in args:
            if isinstance(arg, _dtype.dtype):
                dtype = arg
            elif isinstance(arg, Tensor):
                dtype = arg.dtype
            else:
                device = arg
        check_device(device)
        result = self if dtype is None else ops.to_dtype(self, dtype)
        return result.clone() if copy and result is self else result

    def type(self, dtype=None):
        """The legacy type name (``'torch.FloatTensor'``), or a copy converted to ``dtype``."""
        if dtype is None:
            return self.dtype.legacy_name
        if isinstance(dtype, str):
            dtype = _dtype.by_legacy_name(dtype)
        return ops.to_dtype(self, dtype)

    @property
    def device(self):
        return CPU

    is_cuda = False

    def cpu(self):
        return self

    def cuda(self, device=None, non_blocking=False):
        check_device("cuda")

    # more maths, reductions and shapes (each defers to ops)
    def sin(self): return ops.sin(self)
    def cos(self): return ops.cos(self)
    def min(self, dim=None, keepdim=False, **kw): return ops.min(self, *_dim_args(dim, keepdim, kw, "min"))
    def amax(self, dim=(), keepdim=False, **kw): return ops.amax(self, *_dim_args(dim, keepdim, kw, "amax"))
    def amin(self, dim=(), keepdim=False, **kw): return ops.amin(self, *_dim_args(dim, keepdim, kw, "amin"))
    def argmin(self, dim=None, keepdim=False, **kw):
        return ops.argmin(self, *_dim_args(dim, keepdim, kw, "argmin"))

    def norm(self, p="fro", dim=None, keepdim=False, dtype=None):
        return ops.norm(self, p, dim, keepdim, dtype)

    def maximum(self, other): return ops.maximum(self, other)
    def minimum(self, other): return ops.minimum(self, other)
    def where(self, condition, other): return ops.where(condition, self, other)
    def flatten(self, start_dim=0, end_dim=-1): return ops.flatten(self, start_dim, end_dim)
    def expand_as(self, other): return ops.expand(self, tuple(other.shape))
    def view_as(self, other): return ops.view(self, tuple(other.shape))
    def reshape_as(self, other): return ops.reshape(self, tuple(other.shape))
    def eq(self, other): return self == other
    def ne(self, other): return self != other
    def lt(self, other): return self < other
    def le(self, other): return self <= other
    def gt(self, other): return self > other
    def ge(self, other): return self >= other
    def all(self, dim=None, keepdim=False, **kw):
        return ops.logical_reduce(np.all, self, *_dim_args(dim, keepdim, kw, "all"))
    def any(self, dim=None, keepdim=False, **kw):
        return ops.logical_reduce(np.any, self, *_dim_args(dim, keepdim, kw, "any"))

    def equal(self, other):
        """True if ``other`` has the same shape and the same values (``torch.equal``)."""
        if not isinstance(other, Tensor):
            raise TypeError(f"equal(): argument 'other' (position 1) must be Tensor, not "
                            f"{type(other).__name__}")
        return self._data.shape == other._data.shape and bool(np.array_equal(self._data, other._data))
    def logical_not(self): return ops.logical(np.logical_not, self)
    def __invert__(self): return ops.invert(self)
    def __and__(self, other): return ops.bitwise(np.bitwise_and, self, other, "&")
    def __or__(self, other): return ops.bitwise(np.bitwise_or, self, other, "|")
    def __xor__(self, other): return ops.bitwise(np.bitwise_xor, self, other, "^")
    __rand__, __ror__, __rxor__ = __and__, __or__, __xor__

    # in-place versions of the unary ops: the same node as the op, recorded on this tensor
    def neg_(self): return ops.inplace_ops.run_inplace(self, ops.neg, ())
    def exp_(self): return ops.inplace_ops.run_inplace(self, ops.exp, ())
    def relu_(self): return ops.inplace_ops.run_inplace(self, ops.relu, ())
    def sigmoid_(self): return ops.inplace_ops.run_inplace(self, ops.sigmoid, ())
    def tanh_(self): return ops.inplace_ops.run_inplace(self, ops.tanh, ())
    def sqrt_(self): return ops.inplace_ops.run_inplace(self, ops.sqrt, ())
    def reciprocal_(self): return ops.inplace_ops.run_inplace(self, ops.reciprocal, ())
    def abs_(self): return ops.inplace_ops.run_inplace(self, ops.abs, ())
    def log_(self): return ops.inplace_ops.run_inplace(self, ops.log, ())
    def sin_(self): return ops.inplace_ops.run_inplace(self, ops.sin, ())
    def cos_(self): return ops.inplace_ops.run_inplace(self, ops.cos, ())
    def pow_(self, exponent): return ops.inplace_ops.run_inplace(self, ops.pow, (exponent,))

    # random fillers, in place: from ``generator``, by default the one ``manual_seed`` seeds
    def uniform_(self, a=0.0, b=1.0, *, generator=None):
        """Fill with values drawn from U(a, b)."""
        return self._fill_random(ops.random.uniform_values, (a, b), generator, "uniform_")

    def normal_(self, mean=0.0, std=1.0, *, generator=None):
        """Fill with values drawn from N(mean, std**2)."""
        return self._fill_random(ops.random.normal_values, (mean, std), generator, "normal_")

    def bernoulli_(self, p=0.5, *, generator=None):
        """Fill with 1 (probability ``p``) or 0."""
        return self._fill_random(ops.random.bernoulli_values, (p,), generator, "bernoulli_")

    def random_(self, *args, generator=None, **kwargs):
        """Fill with integers drawn uniformly from [from, to): ``random_(from, to)``, ``random_(to)``;
        ``random_(from, None)``: up to the dtype's largest; ``random_()``: the dtype's range."""
        bounds = ops.random.random_bounds(args, kwargs)
        return self._fill_random(ops.random.random_values, bounds, generator, "random_",
                                 bounded=bool(bounds))

    def _fill_random(self, values, args, generator, name, **kwargs):
        """Check the write, draw PyTorch's numbers (``values(array, *args, generator)``), write them."""
        generator = _random.generator_or_default(generator, name)
        self._check_inplace()
        return ops.inplace_ops.copy_(self, Tensor(values(self._data, *args, generator=generator, **kwargs)))

    def multinomial(self, num_samples, replacement=False, *, generator=None):
        return ops.random.multinomial(self, num_samples, replacement, generator=generator)

    # a few more (ops/unary.py, binary.py), and the methods PyTorch has for nn.functional's softmaxes
    def sign(self): return ops.unary.sign(self)
    def square(self): return ops.unary.square(self)
    def masked_fill(self, mask, value): return ops.binary.masked_fill(self, mask, value)

    # statistics, sorting, reading by index, pieces, rearrangements (ops/statistics.py, ops/sorting.py,
    # ops/indexing.py, ops/joining.py, ops/rearranging.py, ops/unary.py)
    def var(self, dim=None, unbiased=None, keepdim=False, *, correction=None, **kw):
        return ops.statistics.var(self, dim, unbiased, keepdim, correction=correction, **kw)
    def std(self, dim=None, unbiased=None, keepdim=False, *, correction=None, **kw):
        return ops.statistics.std(self, dim, unbiased, keepdim, correction=correction, **kw)
    def logsumexp(self, *args, **kwargs): return ops.reductions.logsumexp(self, *args, **kwargs)
    def prod(self, dim=None, keepdim=False, *, dtype=None):
        return ops.reductions.prod(self, dim, keepdim, dtype=dtype)
    def cumsum(self, *args, **kwargs): return ops.reductions.cumsum(self, *args, **kwargs)
    def cumprod(self, *args, **kwargs): return ops.reductions.cumprod(self, *args, **kwargs)
    def histogram(self, *args, **kwargs): return ops.statistics.histogram(self, *args, **kwargs)
    def sort(self, dim=-1, descending=False, *, stable=None):
        return ops.sorting.sort(self, dim, descending, stable)
    def argsort(self, dim=-1, descending=False, *, stable=False):
        return ops.sorting.argsort(self, dim, descending, stable)
    def topk(self, k, dim=-1, largest=True, sorted=True):
        return ops.sorting.topk(self, k, dim, largest, sorted)
    def gather(self, dim, index, *, sparse_grad=False): return ops.indexing.gather(self, dim, index)
    def index_select(self, dim, index): return ops.indexing.index_select(self, dim, index)
    def split(self, split_size, dim=0): return ops.joining.split(self, split_size, dim)
    def chunk(self, chunks, dim=0): return ops.joining.chunk(self, chunks, dim)
    def unbind(self, dim=0): return ops.joining.unbind(self, dim)
    def flip(self, *dims, **kw):
        if "dims" in kw:
            return ops.rearranging.flip(self, dims=kw.pop("dims"))
        if not dims:                                     # x.flip(): PyTorch's parser names the argument
            return ops.rearranging.flip(self)
        return ops.rearranging.flip(self, dims[0] if len(dims) == 1 and isinstance(dims[0], (list, tuple))
                                  else dims)
    def repeat(self, *sizes): return ops.rearranging.repeat(self, sizes)
    def tril(self, diagonal=0): return ops.rearranging.tril(self, diagonal)
    def triu(self, diagonal=0): return ops.rearranging.triu(self, diagonal)
    def outer(self, vec2): return ops.linalg.outer(self, vec2)
    ger = outer
    def log10(self): return ops.unary.log10(self)
    def log2(self): return ops.unary.log2(self)
    def floor(self): return ops.unary.floor(self)
    def ceil(self): return ops.unary.ceil(self)
    def trunc(self): return ops.unary.trunc(self)
    def round(self, *, decimals=None): return ops.unary.round(self, decimals=decimals)
    def floor_(self): return ops.unary.floor_(self)
    def ceil_(self): return ops.unary.ceil_(self)
    def trunc_(self): return ops.unary.trunc_(self)
    def round_(self, *, decimals=None): return ops.unary.round_(self, decimals=decimals)
    def isnan(self): return ops.unary.isnan(self)
    def isinf(self): return ops.unary.isinf(self)
    def isfinite(self): return ops.unary.isfinite(self)
    # the rest of the elementwise maths (ops/unary.py, binary.py), each with its in-place version
    def log1p(self): return ops.unary.log1p(self)
    def log1p_(self): return ops.unary.log1p_(self)
    def expm1(self): return ops.unary.expm1(self)
    def expm1_(self): return ops.unary.expm1_(self)
    def exp2(self): return ops.unary.exp2(self)
    def exp2_(self): return ops.unary.exp2_(self)
    def rsqrt(self): return ops.unary.rsqrt(self)
    def rsqrt_(self): return ops.unary.rsqrt_(self)
    def sinh(self): return ops.unary.sinh(self)
    def sinh_(self): return ops.unary.sinh_(self)
    def cosh(self): return ops.unary.cosh(self)
    def cosh_(self): return ops.unary.cosh_(self)
    def tan(self): return ops.unary.tan(self)
    def tan_(self): return ops.unary.tan_(self)
    def asin(self): return ops.unary.asin(self)
    def asin_(self): return ops.unary.asin_(self)
    def acos(self): return ops.unary.acos(self)
    def acos_(self): return ops.unary.acos_(self)
    def atan(self): return ops.unary.atan(self)
    def atan_(self): return ops.unary.atan_(self)
    def asinh(self): return ops.unary.asinh(self)
    def asinh_(self): return ops.unary.asinh_(self)
    def acosh(self): return ops.unary.acosh(self)
    def acosh_(self): return ops.unary.acosh_(self)
    def atanh(self): return ops.unary.atanh(self)
    def atanh_(self): return ops.unary.atanh_(self)
    def erf(self): return ops.unary.erf(self)
    def erf_(self): return ops.unary.erf_(self)
    def erfc(self): return ops.unary.erfc(self)
    def erfc_(self): return ops.unary.erfc_(self)
    def erfinv(self): return ops.unary.erfinv(self)
    def erfinv_(self): return ops.unary.erfinv_(self)
    def sinc(self): return ops.unary.sinc(self)
    def sinc_(self): return ops.unary.sinc_(self)
    def deg2rad(self): return ops.unary.deg2rad(self)
    def deg2rad_(self): return ops.unary.deg2rad_(self)
    def rad2deg(self): return ops.unary.rad2deg(self)
    def rad2deg_(self): return ops.unary.rad2deg_(self)
    def frac(self): return ops.unary.frac(self)
    def frac_(self): return ops.unary.frac_(self)
    def logit(self, eps=None): return ops.unary.logit(self, eps)
    def logit_(self, eps=None): return ops.unary.logit_(self, eps)
    def nan_to_num(self, nan=0.0, posinf=None, neginf=None):
        return ops.unary.nan_to_num(self, nan, posinf, neginf)
    def nan_to_num_(self, nan=0.0, posinf=None, neginf=None):
        return ops.unary.nan_to_num_(self, nan, posinf, neginf)
    def signbit(self): return ops.unary.signbit(self)
    def remainder(self, other): return ops.binary.remainder(self, other, method=True)
    def remainder_(self, other): return ops.binary.in_place(ops.binary.remainder, self, other)
    def roll(self, shifts, dims=None): return ops.rearranging.roll(self, shifts, dims)
    def repeat_interleave(self, repeats=None, dim=None, *, output_size=None):
        return ops.rearranging.repeat_interleave(self, repeats, dim, output_size=output_size)
    def diag(self, diagonal=0): return ops.rearranging.diag(self, diagonal)
    def diagonal(self, offset=0, dim1=0, dim2=1): return ops.rearranging.diagonal(self, offset, dim1, dim2)
    def narrow(self, dim, start, length): return ops.rearranging.narrow(self, dim, start, length)
    def movedim(self, source, destination): return ops.rearranging.movedim(self, source, destination)
    moveaxis = movedim
    def median(self, dim=None, keepdim=False): return ops.sorting.median(self, dim, keepdim)
    def unique(self, sorted=True, return_inverse=False, return_counts=False, dim=None):
        return ops.sorting.unique(self, sorted, return_inverse, return_counts, dim)
    def fmod(self, other): return ops.binary.fmod(self, other, method=True)
    def fmod_(self, other): return ops.binary.in_place(ops.binary.fmod, self, other)
    def atan2(self, other): return ops.binary.atan2(self, other)
    def atan2_(self, other): return ops.unary.atan2_(self, other)
    def xlogy(self, other): return ops.binary.xlogy(self, other)
    def xlogy_(self, other): return ops.unary.xlogy_(self, other)
    def hypot(self, other): return ops.binary.hypot(self, other)
    def hypot_(self, other): return ops.unary.hypot_(self, other)
    def logaddexp(self, other): return ops.binary.logaddexp(self, other)
    def logaddexp2(self, other): return ops.binary.logaddexp2(self, other)
    arcsin, arccos, arctan, arcsinh, arccosh, arctanh, arctan2 = asin, acos, atan, asinh, acosh, atanh, atan2
    arcsin_, arccos_, arctan_, arcsinh_, arccosh_, arctanh_, arctan2_ = (
        asin_, acos_, atan_, asinh_, acosh_, atanh_, atan2_)

    def softmax(self, dim, dtype=None):
        from .nn import functional
        return functional.softmax(self, dim, dtype=dtype)

    def log_softmax(self, dim, dtype=None):
        from .nn import functional
        return functional.log_softmax(self, dim, dtype=dtype)

    def type_as(self, other):
        return self.to(other.dtype)

    def new_zeros(self, *size, dtype=None, device=None, requires_grad=False):
        from . import creation
        return creation.zeros(*size, dtype=dtype or self.dtype, device=device, requires_grad=requires_grad)

    def new_ones(self, *size, dtype=None, device=None, requires_grad=False):
        from . import creation
        return creation.ones(*size, dtype=dtype or self.dtype, device=device, requires_grad=requires_grad)

    def new_full(self, size, fill_value, dtype=None, device=None, requires_grad=False):
        from . import creation
        return creation.full(size, fill_value, dtype=dtype or self.dtype, device=device,
                             requires_grad=requires_grad)

    def new_tensor(self, data, dtype=None, device=None, requires_grad=False):
        from . import creation
        return creation.tensor(data, dtype=dtype or self.dtype, device=device, requires_grad=requires_grad)

    def add_(self, other, *, alpha=1): return ops.inplace(ops.add, self, other, alpha)
    def sub_(self, other, *, alpha=1): return ops.inplace(ops.sub, self, other, alpha)
    def mul_(self, other): return ops.inplace(ops.mul, self, other)
    def div_(self, other): return ops.inplace(ops.div, self, other)

    def zero_(self):
        """Fill with zeros in place (what ``optimizer.zero_grad(set_to_none=False)`` does)."""
        return ops.inplace_ops.zero_(self)

    def fill_(self, value):
        return ops.inplace_ops.fill_(self, value)

    def copy_(self, src):
        """Copy ``src``'s values (broadcast, converted to this dtype) into this tensor, in place."""
        return ops.inplace_ops.copy_(self, src)


def _dim_args(dim, keepdim, kwargs, name):
    """``(dim, keepdim)``, given as such or under numpy's names ``axis`` and ``keepdims``, which PyTorch
    accepts too; any other keyword is an error."""
    if kwargs:
        dim = kwargs.pop("axis", dim)
        keepdim = kwargs.pop("keepdims", keepdim)
        if kwargs:
            raise TypeError(f"{name}() got an unexpected keyword argument '{next(iter(kwargs))}'")
    return dim, keepdim


# Tensors, python numbers and numpy arrays can meet a Tensor in + - * / ** (float and int first: they
# answer at once, where the numbers.Number check costs ~0.1 us).
_OPERANDS = (Tensor, float, int, numbers.Number, np.ndarray, np.generic)


def _wrap_dim(dim, ndim):
    """Turn a possibly negative dim into a positive one, with PyTorch's error."""
    bound = max(ndim, 1)
    if not -bound <= dim < bound:
        raise IndexError(f"Dimension out of range (expected to be in range of "
                         f"[{-bound}, {bound - 1}], but got {dim})")
    return dim % bound


from . import ops  # noqa: E402  (ops needs Tensor; Tensor's methods need ops)
