"""Check a function's gradients against finite differences.

PyTorch counterpart: torch/autograd/gradcheck.py (``gradcheck``, slow mode):
build the Jacobian twice, once by nudging each input element by ``eps`` in both
directions (numerical), once by backpropagating one unit vector per output
element (analytical), and compare them with ``atol`` and ``rtol``.
"""
import warnings

import numpy as np

from .._tensor import Tensor


class GradcheckError(RuntimeError):
    """Raised by ``gradcheck`` when the two Jacobians disagree (a RuntimeError, as in PyTorch)."""


def _as_tuple(x):
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def numerical_jacobian(func, inputs, input_index, output_index, eps):
    """Column j: (f(x + eps e_j) - f(x - eps e_j)) / 2 eps, for one input and one output."""
    data = inputs[input_index]._data
    columns = []
    for index in np.ndindex(data.shape):   # nudge x itself, element by element, in place
        original = data[index]
        data[index] = original + eps
        plus = _as_tuple(func(*inputs))[output_index]._data.astype(np.float64)
        data[index] = original - eps
        minus = _as_tuple(func(*inputs))[output_index]._data.astype(np.float64)
        data[index] = original
        columns.append(((plus - minus) / (2 * eps)).reshape(-1))
    return np.stack(columns, axis=1) if columns else np.zeros((0, 0))


def analytical_jacobian(outputs, output_index, inputs, input_index):
    """Row i: the gradient of output element i, from one backward each."""
    from . import grad as autograd_grad
    out = outputs[output_index]
    x = inputs[input_index]
    rows = []
    for i in range(out.numel()):
        unit = np.zeros(out._data.size, dtype=out._data.dtype)
        unit[i] = 1
        (g,) = autograd_grad(out, x, grad_outputs=Tensor(unit.reshape(out._data.shape)),
                             retain_graph=True, allow_unused=True)
        rows.append(np.zeros(x._data.size) if g is None else g._data.astype(np.float64).reshape(-1))
    return np.stack(rows, axis=0)


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True):
    """True if ``func``'s analytical gradients match finite differences, else raise (or False)."""
    from .._printing import tensor_repr
    from .. import _dtype
    inputs = _as_tuple(inputs)
    differentiable = [i for i, x in enumerate(inputs) if isinstance(x, Tensor) and x.requires_grad]
    if not differentiable:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, but none "
                         "of them have requires_grad=True.")
    for i in differentiable:
        if inputs[i].dtype is not _dtype.float64:
            warnings.warn(f"Input #{i} requires gradient and is not a double precision floating point "
                          "or complex. This check will likely fail if all the inputs are not of double "
                          "precision floating point or complex. ", UserWarning, stacklevel=2)
    outputs = _as_tuple(func(*inputs))
    if not any(out.requires_grad for out in outputs):
        # No output to run backward from: every numerical Jacobian must then be zero
        # (torch/autograd/gradcheck.py: _check_no_differentiable_outputs).
        for o in range(len(outputs)):
            for i in differentiable:
                if np.any(numerical_jacobian(func, inputs, i, o, eps) != 0):
                    if not raise_exception:
                        return False
                    raise GradcheckError("Numerical gradient for function expected to be zero")
        return True
    for o, out in enumerate(outputs):
        if not out.requires_grad:
            continue
        for i in differentiable:
            numerical = numerical_jacobian(func, inputs, i, o, eps)
            analytical = analytical_jacobian(outputs, o, inputs, i)
            if not np.allclose(analytical, numerical, rtol=rtol, atol=atol):
                if not raise_exception:
                    return False
                # printed as PyTorch prints them: one row per input entry (the transpose)
                def show(m):
                    return tensor_repr(np.ascontiguousarray(m.T), _dtype.float64)
                raise GradcheckError(f"Jacobian mismatch for output {o:d} with respect to input {i:d},\n"
                                     f"numerical:{show(numerical)}\nanalytical:{show(analytical)}\n")
    return True


def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-6, atol=1e-5, rtol=1e-3,
                  gen_non_contig_grad_outputs=False, raise_exception=True, **unused):
    """True if the second derivatives of ``func`` match finite differences of its first ones.

    As in PyTorch (torch/autograd/gradcheck.py: gradgradcheck): with random ``grad_outputs``
    (made here when not given), it gradchecks the function
    ``(inputs, grad_outputs) -> autograd.grad(func(inputs), inputs, grad_outputs, create_graph=True)``.
    """
    from . import grad as autograd_grad
    inputs = _as_tuple(inputs)
    outputs = _as_tuple(func(*inputs))
    if grad_outputs is None:
        grad_outputs = tuple(_random_grad_output(o, gen_non_contig_grad_outputs)
                             for o in outputs if isinstance(o, Tensor) and o.requires_grad)
    grad_outputs = _as_tuple(grad_outputs)
    count = len(grad_outputs)

    def first_derivatives(*args):
        input_args, grad_args = args[:-count] if count else args, args[-count:] if count else ()
        outs = tuple(o for o in _as_tuple(func(*input_args)) if isinstance(o, Tensor) and o.requires_grad)
        differentiable = tuple(i for i in input_args if isinstance(i, Tensor) and i.requires_grad)
        grads = autograd_grad(outs, differentiable, grad_args, create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(first_derivatives, inputs + tuple(grad_outputs), eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception)


def _random_grad_output(output, noncontiguous):
    """The gradient gradgradcheck makes up for ``output``, as PyTorch's (torch/testing/_creation.py:
    make_tensor, with low=-1 and high=1): ``empty(shape).uniform_(-1, 1)``, float64 for an output
    that is not floating-point; twice as long in the last dimension and every other element kept
    when ``noncontiguous``."""
    from .. import creation, _dtype
    dtype = output.dtype if output.dtype.is_floating_point else _dtype.float64
    shape = tuple(output.shape)
    noncontiguous = noncontiguous and output.numel() > 1
    if noncontiguous:
        shape = shape[:-1] + (2 * shape[-1],)
    values = creation.empty(shape, dtype=dtype).uniform_(-1, 1)
    if noncontiguous:
        values = values[..., 1::2]
    return values.requires_grad_()
