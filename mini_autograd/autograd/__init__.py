"""The Python face of autograd: ``backward``, ``grad``, ``Function``, ``gradcheck``.

PyTorch counterpart: torch/autograd/__init__.py (``backward``, ``grad``,
``_make_grads``), which hands over to the engine in C++; here to ``engine.py``.
"""
import warnings

from .._tensor import Tensor
from .. import creation
from . import engine, graph
from . import function
from .function import Function, FunctionCtx, once_differentiable
from .gradcheck import GradcheckError, gradcheck, gradgradcheck

__all__ = ["backward", "grad", "Function", "FunctionCtx", "gradcheck", "gradgradcheck", "GradcheckError",
           "graph", "functional", "function", "Variable", "once_differentiable"]


def Variable(data, requires_grad=False, volatile=False):
    """The pre-0.4 wrapper, kept by PyTorch for old code: now it just returns a tensor.

    ``Variable(t, requires_grad=True)`` is a new leaf sharing ``t``'s data.
    """
    if not isinstance(data, Tensor):
        raise TypeError("Variable data has to be a tensor, but got " + type(data).__name__)
    return data.detach().requires_grad_(requires_grad)


def _as_tuple(tensors):
    if tensors is None:
        return ()
    if isinstance(tensors, Tensor):
        return (tensors,)
    return tuple(tensors)


def _make_grads(outputs, grads):
    """Check the starting gradients, or create ``1`` for scalar outputs (torch/autograd/__init__.py)."""
    new_grads = []
    for i, (out, grad) in enumerate(zip(outputs, grads, strict=True)):
        if isinstance(grad, Tensor):
            if grad.shape != out.shape:
                raise RuntimeError(f"Mismatch in shape: grad_output[{i}] has a shape of {grad.shape} "
                                   f"and output[{i}] has a shape of {out.shape}.")
            # No dtype check: PyTorch refuses only a complex gradient for a real output (or the reverse),
            # and mini_autograd has no complex dtypes. Any other dtype is accepted here, an int64
            # gradient included; the engine casts it to the output's dtype (validate_outputs).
            new_grads.append(grad)
        elif grad is None:
            if out.requires_grad:
                if out.numel() != 1:
                    raise RuntimeError("grad can be implicitly created only for scalar outputs")
                if not out.dtype.is_floating_point:
                    raise RuntimeError("grad can be implicitly created only for real scalar outputs "
                                       f"but got {out.dtype}")
                new_grads.append(creation.ones_like(out))
            else:
                new_grads.append(None)
        else:
            raise TypeError("gradients can be either Tensors or None, but got " + type(grad).__name__)
    return new_grads


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None):
    """Accumulate the gradients of ``tensors`` into the ``.grad`` of the graph's leaves."""
    if inputs is not None and len(_as_tuple(inputs)) == 0:
        raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
    tensors = _as_tuple(tensors)
    inputs = _as_tuple(inputs)
    grad_tensors = _as_tuple(grad_tensors) or (None,) * len(tensors)
    for grad in grad_tensors:
        if grad is not None and not isinstance(grad, Tensor):
            raise TypeError("gradients can be either Tensors or None, but got " + type(grad).__name__)
    if len(grad_tensors) != len(tensors):
        raise RuntimeError(f"got {len(tensors)} tensors and {len(grad_tensors)} gradients")
    if retain_graph is None:
        retain_graph = create_graph
    if create_graph:
        warnings.warn("Using backward() with create_graph=True will create a reference cycle between the "
                      "parameter and its gradient which can cause a memory leak. We recommend using "
                      "autograd.grad when creating the graph to avoid this. If you have to use this "
                      "function, make sure to reset the .grad fields of your parameters to None after use "
                      "to break the cycle and avoid the leak.", UserWarning, stacklevel=3)
    grads = _make_grads(tensors, grad_tensors)
    engine.run_backward(tensors, grads, retain_graph, create_graph, inputs,
                        allow_unused=True, accumulate_grad=True)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, allow_unused=None,
         materialize_grads=False):
    """Return the gradients of ``outputs`` w.r.t. ``inputs``, leaving every ``.grad`` alone."""
    outputs = _as_tuple(outputs)
    inputs = _as_tuple(inputs)
    grad_outputs = _as_tuple(grad_outputs) or (None,) * len(outputs)
    if len(grad_outputs) != len(outputs):
        raise RuntimeError(f"grad requires one grad_output per output: got {len(grad_outputs)} "
                           f"grad_outputs and {len(outputs)} outputs")
    if allow_unused is None:
        allow_unused = materialize_grads
    if retain_graph is None:
        retain_graph = create_graph
    grads = _make_grads(outputs, grad_outputs)
    result = engine.run_backward(outputs, grads, retain_graph, create_graph, inputs,
                                 allow_unused=allow_unused, accumulate_grad=False)
    if materialize_grads:
        result = [creation.zeros_like(i) if g is None else g for g, i in zip(result, inputs, strict=True)]
    return tuple(result)


from . import functional  # noqa: E402  (functional builds on grad above)
