"""``Function``: the one mechanism that records the graph, for built-in and custom ops.

PyTorch counterpart: torch/autograd/function.py (``Function``, ``FunctionCtx``,
``BackwardCFunction``) and torch/csrc/autograd/python_function.cpp
(``THPFunction_apply``, ``_save_variables``, ``_wrap_outputs``).

Every operation is a subclass with two static methods::

    class Exp(Function):
        @staticmethod
        def forward(ctx, x):                  # runs now, with grad mode off
            result = Tensor(np.exp(x._data))
            ctx.save_for_backward(result)
            return result

        @staticmethod
        def backward(ctx, grad):              # runs later, inside the engine
            result, = ctx.saved_tensors
            return grad * result

``Exp.apply(x)`` runs ``forward`` and, when ``x`` requires grad, makes a node of
class ``ExpBackward``: the ``ctx`` that forward wrote to *is* that node, as in
PyTorch. It becomes the output's ``grad_fn``.
"""
import functools

import numpy as np

from .._tensor import Tensor
from .. import grad_mode
from .graph import SECOND_BACKWARD_MESSAGE, Node, SavedTensor, current_graph_task, gradient_edge


class FunctionCtx:
    """What ``forward`` can leave for ``backward``: saved tensors and plain attributes."""

    _to_save = ()
    _non_differentiable = ()
    materialize_grads = True

    def save_for_backward(self, *tensors):
        """Keep these tensors (inputs or outputs of forward, or None) for backward."""
        for t in tensors:
            if t is not None and not isinstance(t, Tensor):
                raise TypeError("save_for_backward can only save variables, but argument "
                                f"{tensors.index(t)} is of type {type(t).__name__}")
        self._to_save = tensors

    def mark_non_differentiable(self, *tensors):
        """Outputs that no gradient flows through (e.g. the indices returned by max)."""
        self._non_differentiable = tensors

    def set_materialize_grads(self, value):
        """Whether missing output grads reach backward as zeros (True) or None."""
        self.materialize_grads = value


class BackwardFunction(Node, FunctionCtx):
    """A node made by ``Function.apply``; one subclass per Function, named like PyTorch's."""

    _forward_cls = None
    # Defaults until Function.apply and _record set them (class attributes: nothing to do per node)
    _saved = ()
    _arg_is_tensor = None       # which arguments were tensors; None: all of them (see _record)
    needs_input_grad = ()

    def __repr__(self):
        if self._forward_cls._is_builtin:
            return super().__repr__()
        # custom Functions' nodes print with their Python module, as in PyTorch
        return f"<torch.autograd.function.{type(self).__name__} object at {id(self):#x}>"

    @property
    def saved_tensors(self):
        return tuple([None if s is None else s.unpack(self) for s in self._saved])

    def release_variables(self):
        for saved in self._saved:
            if saved is not None:
                saved.release()

    def apply(self, grad_outputs):
        """Run ``backward`` for the gradients that arrived; one gradient per tensor input."""
        if self._forward_cls._is_builtin and self._nothing_to_do(grad_outputs):
            _ = self.saved_tensors      # unpacked anyway, as PyTorch's nodes do: a second backward fails
            return (None,) * len(self.next_functions)      # pass "no gradient" on, as PyTorch's C++ nodes do
        if self.materialize_grads and _has_none(grad_outputs):
            grad_outputs = self._materialize_missing_grads(grad_outputs)
        grads = self._call_backward(grad_outputs)
        if self._arg_is_tensor is not None:        # some arguments were not tensors (see _record)
            grads = self._drop_grads_of_non_tensor_args(grads)
        task = current_graph_task.task
        if task is not None and task.exec_info and self._forward_cls._is_builtin:
            grads = self._drop_grads_not_needed(grads)     # a pruning backward: only what it needs
        return grads

    def _nothing_to_do(self, grad_outputs):
        """No input takes a gradient, or no gradient arrived."""
        # Loops, not all() over a generator: this runs for every node, and the loops cost less.
        for node, _ in self.next_functions:
            if node is not None:
                break
        else:
            return True
        for g in grad_outputs:  # noqa: SIM110  (see above)
            if g is not None:
                return False
        return True

    def _materialize_missing_grads(self, grad_outputs):
        """Zeros in place of the gradients that did not arrive."""
        return [Tensor(np.zeros(shape, dtype)) if g is None else g
                for g, (shape, dtype) in zip(grad_outputs, self._input_metadata, strict=False)]

    def _call_backward(self, grad_outputs):
        """The Function's own ``backward``, its result checked: one Tensor or None per argument."""
        grads = self._forward_cls.backward(self, *grad_outputs)
        if not isinstance(grads, tuple):
            grads = (grads,)
        expected = len(self.next_functions if self._arg_is_tensor is None else self._arg_is_tensor)
        if len(grads) != expected:
            if len(grads) > expected and all(g is None for g in grads[expected:]):
                grads = grads[:expected]                # extra trailing Nones are allowed, as in PyTorch
            else:
                raise RuntimeError(f"function {self.name()} returned an incorrect number of gradients "
                                   f"(expected {expected}, got {len(grads)})")
        for g in grads:
            if g is not None and not isinstance(g, Tensor):
                raise TypeError(f"function {self.name()} returned a gradient of type "
                                f"{type(g).__name__}; backward must return Tensors or None")
        return grads

    def _drop_grads_not_needed(self, grads):
        """None for each edge this backward prunes (autograd.grad, backward(inputs=...)): PyTorch's built-in
        nodes compute a gradient only where ``task_should_compute_output`` says so, for each argument; the
        tensors of one ``Tensor[]`` argument (cat, stack) all get theirs if any of them is needed. A custom
        Function's backward returns what it returns."""
        needed = [self.task_should_compute_output(i) for i in range(len(grads))]
        if self._forward_cls.tensor_list:
            needed = [any(needed)] * len(grads)
        return tuple(g if keep else None for g, keep in zip(grads, needed, strict=True))

    def _drop_grads_of_non_tensor_args(self, grads):
        """Keep the gradients of the tensor arguments: the ones the node has edges for."""
        return tuple(g for g, is_tensor in zip(grads, self._arg_is_tensor, strict=True) if is_tensor)

    def __dir__(self):
        names = self._forward_cls.saved_names + self._forward_cls.saved_fields
        return sorted((set(super().__dir__()) - {"_saved"}) | {f"_saved_{n}" for n in names})

    def __getattr__(self, name):
        # ``grad_fn._saved_self`` and friends: read what forward saved, as PyTorch exposes it.
        if name.startswith("_saved_"):
            key = name[len("_saved_"):]
            names = getattr(self._forward_cls, "saved_names", ())
            if key in names:
                saved = self._saved[names.index(key)] if names.index(key) < len(self._saved) else None
                return None if saved is None else saved.unpack(self)
            if key in self.__dict__:
                return self.__dict__[key]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")


def _has_none(items):
    """``any(x is None for x in items)``, as a loop: it runs for every node, and costs less."""
    for item in items:  # noqa: SIM110
        if item is None:
            return True
    return False


class BackwardFunctionWithSavedAttributes(BackwardFunction):
    """The node of a Function that keeps, as plain ctx attributes, data PyTorch saves as tensors.

    The index arrays of ``x[[0, 2]]`` are an example: PyTorch frees them after backward, so a
    second backward through the node fails unless ``retain_graph=True``; so does this node.
    The attributes are named by the Function's ``saved_attributes``.
    """

    _released = False

    def release_variables(self):
        super().release_variables()
        for name in self._forward_cls.saved_attributes:
            self.__dict__.pop(name, None)
        self._released = True

    def apply(self, grad_outputs):
        if self._released:
            raise RuntimeError(SECOND_BACKWARD_MESSAGE)
        return super().apply(grad_outputs)


class Function:
    """Base class of every differentiable operation (torch/autograd/function.py: Function).

    Subclasses define ``forward(ctx, *args)`` and ``backward(ctx, *grads)``; call them
    through ``apply``. ``node_name`` sets the name of the backward node (PyTorch's
    built-in ops use names like ``MulBackward0``); custom functions get ``<Name>Backward``.
    """

    node_name = None
    _is_builtin = False  # True for the ops defined in mini_autograd.ops (BUILTIN_PACKAGE); never inherited
    saved_names = ()  # names under which saved tensors show as ``grad_fn._saved_<name>``
    saved_attributes = ()  # ctx attributes freed after backward, like saved tensors
    saved_fields = ()  # other ctx attributes PyTorch's node shows as ``_saved_<name>`` (listed by dir())
    tensor_list = False  # True when the tensors are one ``Tensor[]`` argument (cat, stack)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        name = cls.__dict__.get("node_name") or f"{cls.__name__}Backward"
        # Built-in ops' nodes pass a missing gradient on as "none"; custom Functions' get zeros
        # (ctx.materialize_grads). A class is built-in if it is defined in mini_autograd.ops, or says so:
        # a copy of ``Exp`` pasted into a notebook is a custom Function.
        cls._is_builtin = cls.__dict__.get("_is_builtin", _in_builtin_package(cls))
        base = BackwardFunctionWithSavedAttributes if cls.saved_attributes else BackwardFunction
        cls._backward_cls = type(name, (base,), {"_forward_cls": cls, "__module__": cls.__module__})
        if "vjp" in cls.__dict__ and "backward" not in cls.__dict__:
            cls.backward = cls.__dict__["vjp"]           # ``vjp`` is another name for backward
        if cls.setup_context is not Function.setup_context and (
                "forward" in cls.__dict__ or "setup_context" in cls.__dict__):
            cls.forward = staticmethod(_forward_then_setup_context(cls))

    @staticmethod
    def forward(ctx, *args):
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def setup_context(ctx, inputs, output):
        """The separate-ctx style (PyTorch 2.0+): ``forward(*args)`` computes, ``setup_context`` saves.

        A Function that defines it has a ``forward`` without ``ctx``; ``apply`` then calls
        ``forward(*args)`` and ``setup_context(ctx, args, output)`` in turn.
        """
        raise NotImplementedError("setup_context is not implemented.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement either the backward or vjp method for "
                                  "your custom autograd.Function to use it with backward mode AD.")

    @classmethod
    def apply(cls, *args):
        """Run forward; if any input requires grad (and grad mode is on), record a node."""
        needs_input_grad = tuple([isinstance(a, Tensor) and a.requires_grad for a in args])
        grad_enabled = grad_mode.is_grad_enabled()
        record = grad_enabled and any(needs_input_grad) and not grad_mode.is_inference_mode_enabled()
        ctx = cls._backward_cls() if record else FunctionCtx()
        ctx.needs_input_grad = needs_input_grad
        ctx._grad_enabled = grad_enabled            # for the views forward makes (ops/_helpers.py: view_of)

        if grad_enabled:
            grad_mode._set_grad_enabled(False)      # forward itself is never recorded
            try:
                outputs = cls.forward(ctx, *args)
            finally:
                grad_mode._set_grad_enabled(True)
        else:                                       # already off (in backward, under no_grad)
            outputs = cls.forward(ctx, *args)

        if isinstance(outputs, Tensor):
            if record:
                return _record(ctx, args, (outputs,))[0]
            return outputs if cls._is_builtin else _unrecorded(outputs, args)
        for out in outputs:
            if not isinstance(out, Tensor):
                raise TypeError(f"{cls.__name__}.forward must return Tensors, not {type(out).__name__}")
        if record:
            return _record(ctx, args, outputs)
        return outputs if cls._is_builtin else tuple([_unrecorded(out, args) for out in outputs])


BUILTIN_PACKAGE = "mini_autograd.ops"


def _in_builtin_package(cls):
    """Is ``cls`` defined in mini_autograd.ops (or a module under it)? Such a Function is a built-in op:
    its node passes "no gradient" on when none arrives, as PyTorch's C++ nodes do; a custom Function's
    node gets zeros instead."""
    return cls.__module__ == BUILTIN_PACKAGE or cls.__module__.startswith(BUILTIN_PACKAGE + ".")


def _forward_then_setup_context(cls):
    """A combined ``forward(ctx, *args)`` for a Function written with ``setup_context``."""
    forward = cls.__dict__.get("forward", cls.forward)
    forward = getattr(forward, "_user_forward", forward)
    setup_context = cls.setup_context

    def forward_with_ctx(ctx, *args):
        output = forward(*args)
        setup_context(ctx, args, output)
        return output

    forward_with_ctx._user_forward = forward
    forward_with_ctx.__doc__ = forward.__doc__
    return forward_with_ctx


def once_differentiable(backward):
    """Decorate a custom Function's ``backward`` that cannot itself be differentiated.

    It runs without recording; if a graph was wanted (``create_graph=True``), the gradients
    it returns raise an error when differentiated (torch/autograd/function.py).
    """
    @functools.wraps(backward)
    def wrapper(ctx, *args):
        with grad_mode.no_grad():
            outputs = backward(ctx, *args)
        if not grad_mode.is_grad_enabled():
            return outputs
        if not any(isinstance(a, Tensor) and a.requires_grad for a in args):
            return outputs
        single = not isinstance(outputs, tuple)
        wrapped = tuple(None if o is None else _DelayedError.apply(o)
                        for o in ((outputs,) if single else outputs))
        return wrapped[0] if single else wrapped

    return wrapper


def _record(node, args, outputs):
    """Wire ``node`` into the graph: edges to the inputs, outputs pointing back, saved tensors.

    torch/csrc/autograd/python_function.cpp: _wrap_outputs and _save_variables.
    """
    node.next_functions = tuple([gradient_edge(a) for a in args if isinstance(a, Tensor)])
    if len(node.next_functions) < len(args):    # some arguments are not tensors (a dim, a python number):
        node._arg_is_tensor = tuple([isinstance(a, Tensor) for a in args])   # backward answers them too

    wrapped, metadata = [], []
    for output_nr, out in enumerate(outputs):
        if _is_one_of(out, args):
            out = _alias(out)                  # forward returned an input: give back a new tensor
        if out._data.dtype.kind == "f" and not _is_one_of(out, node._non_differentiable):
            out._grad_fn = node
            out._output_nr = output_nr
        wrapped.append(out)
        metadata.append((out._data.shape, out._data.dtype))
    node._input_metadata = tuple(metadata)

    node._saved = tuple([None if t is None else SavedTensor(t, is_output=_is_one_of(t, outputs))
                         for t in node._to_save])
    node._to_save = ()
    return tuple(wrapped)


def _unrecorded(out, args):
    """An output of a custom Function's apply that recorded no node, as python_function.cpp's _wrap_outputs
    leaves it when there is no node: an input given back is a new alias of it, detached if it requires
    grad; any other output that requires grad is detached in place. With no input that requires grad (or
    grad mode off), no output does."""
    if _is_one_of(out, args):
        return _alias(out)
    if out.requires_grad:
        out.detach_()
    return out


def _is_one_of(tensor, tensors):
    """``tensor in tensors`` by identity (``in`` would compare values, elementwise)."""
    for t in tensors:  # noqa: SIM110  (a loop: any() over a generator costs ~0.2 us, run for every op)
        if t is tensor:
            return True
    return False


def _alias(tensor):
    out = Tensor(tensor._data)
    out._version_counter = tensor._version_counter
    return out


class _DelayedError(Function):
    """A gradient that must not be differentiated (see ``once_differentiable``)."""
    node_name = "DelayedError"
    _is_builtin = True

    @staticmethod
    def forward(ctx, x):
        return _alias(x)

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError("trying to differentiate twice a function that was marked with "
                           "@once_differentiable")


