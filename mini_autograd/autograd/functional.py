"""``torch.autograd.functional``: Jacobians, Hessians and their products, from ``autograd.grad``.

Each function calls ``func`` on fresh copies of the inputs that require grad, then
asks ``autograd.grad`` for one vector-Jacobian product per row it needs. ``jvp``
and ``hvp`` use the double-backward trick (a vjp of a vjp), as PyTorch's do.

PyTorch counterpart: torch/autograd/functional.py.
"""
import numpy as np

from .._tensor import Tensor
from .. import grad_mode

__all__ = ["vjp", "jvp", "jacobian", "hessian", "vhp", "hvp"]


def _as_tuple(value, arg_name, fn_name):
    is_tuple = isinstance(value, tuple)
    values = value if is_tuple else (value,)
    for i, v in enumerate(values):
        if not isinstance(v, Tensor):
            if is_tuple:
                raise TypeError(f"The {arg_name} given to {fn_name} must be either a Tensor or a tuple of "
                                f"Tensors but the value at index {i} has type {type(v)}.")
            raise TypeError(f"The {arg_name} given to {fn_name} must be either a Tensor or a tuple of "
                            f"Tensors but the given {arg_name} has type {type(v)}.")
    return is_tuple, values


def _grad_preprocess(inputs, create_graph, need_graph):
    """Inputs the function can be differentiated at: views that keep the graph, or fresh leaves."""
    out = []
    for inp in inputs:
        if create_graph and inp.requires_grad:
            out.append(inp.view_as(inp))
        else:
            out.append(inp.detach().requires_grad_(need_graph))
    return tuple(out)


def _grad_postprocess(values, create_graph):
    if isinstance(values[0], Tensor) if values else False:
        return tuple(v if create_graph else v.detach() for v in values)
    return tuple(_grad_postprocess(v, create_graph) for v in values)


def _tuple_postprocess(values, is_tuple):
    """Undo the tupling: a single input (and/or output) gets back a Tensor instead of a 1-tuple."""
    if isinstance(is_tuple, tuple):
        if not is_tuple[1]:
            values = tuple(v[0] for v in values)
        if not is_tuple[0]:
            values = values[0]
        return values
    return values if is_tuple else values[0]


def _autograd_grad(outputs, inputs, grad_outputs=None, create_graph=False, retain_graph=None):
    from . import grad
    if grad_outputs is None:
        grad_outputs = (None,) * len(outputs)
    new_outputs, new_grad_outputs = [], []
    for out, grad_out in zip(outputs, grad_outputs, strict=True):
        if out is not None and out.requires_grad:
            new_outputs.append(out)
            new_grad_outputs.append(grad_out)
    if not new_outputs:
        return (None,) * len(inputs)
    return grad(new_outputs, inputs, new_grad_outputs, allow_unused=True, create_graph=create_graph,
                retain_graph=retain_graph)


def _fill_in_zeros(grads, refs, strict):
    """Zeros (shaped like ``refs``) for the gradients that are None; under ``strict``, an error."""
    result = []
    for i, (g, ref) in enumerate(zip(grads, refs, strict=True)):
        if g is None:
            if strict:
                raise RuntimeError(f"The output of the user-provided function is independent of input {i}. "
                                   "This is not allowed in strict mode.")
            g = Tensor(np.zeros(ref._data.shape, ref._data.dtype))
        result.append(g)
    return tuple(result)


def vjp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), v^T J): the vector-Jacobian product at ``inputs``."""
    with grad_mode.enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "vjp")
        inputs = _grad_preprocess(inputs, create_graph=create_graph, need_graph=True)
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "vjp")
        if v is not None:
            _, v = _as_tuple(v, "v", "vjp")
            v = tuple(x.detach() for x in v)
            for i, (o, vi) in enumerate(zip(outputs, v, strict=True)):
                if o.shape != vi.shape:
                    raise RuntimeError(f"Mismatch in shape: grad_output[{i}] has a shape of {vi.shape} and "
                                       f"output[{i}] has a shape of {o.shape}.")
        else:
            if len(outputs) != 1 or outputs[0].numel() != 1:
                raise RuntimeError("The vector v can only be None if the user-provided function returns a "
                                   "single Tensor with a single element.")
        grad_res = _autograd_grad(outputs, inputs, v, create_graph=create_graph)
        vjp_result = _fill_in_zeros(grad_res, inputs, strict)
    outputs = _grad_postprocess(outputs, create_graph)
    vjp_result = _grad_postprocess(vjp_result, create_graph)
    return _tuple_postprocess(outputs, is_outputs_tuple), _tuple_postprocess(vjp_result, is_inputs_tuple)


def jacobian(func, inputs, create_graph=False, strict=False, vectorize=False, strategy="reverse-mode"):
    """The Jacobian of ``func`` at ``inputs``: for each output and input, shape output.shape + input.shape."""
    if strategy not in ("forward-mode", "reverse-mode"):
        raise ValueError('Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your '
                         'function has more outputs than inputs, "forward-mode" tends to be more performant. '
                         'Otherwise, prefer to use "reverse-mode".')
    with grad_mode.enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
        inputs = _grad_preprocess(inputs, create_graph=create_graph, need_graph=True)
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "jacobian")
        jacobians = []
        for i, out in enumerate(outputs):
            rows = [[] for _ in inputs]
            flat = out.reshape(-1)
            for j in range(flat.numel()):
                grads = _autograd_grad((flat[j],), inputs, retain_graph=True, create_graph=create_graph)
                for k, (g, inp) in enumerate(zip(grads, inputs, strict=True)):
                    if g is None:
                        if strict:
                            raise RuntimeError(f"Output {i} of the user-provided function is independent of "
                                               f"input {k}. This is not allowed in strict mode.")
                        g = Tensor(np.zeros(inp._data.shape, inp._data.dtype))
                    rows[k].append(g)
            from ..ops import stack
            per_input = []
            for k, inp in enumerate(inputs):
                if rows[k]:
                    jac = stack(rows[k], 0).view(tuple(out.shape) + tuple(inp.shape))
                else:
                    jac = Tensor(np.zeros(tuple(out.shape) + tuple(inp.shape), inp._data.dtype))
                per_input.append(jac)
            jacobians.append(tuple(per_input))
        jacobians = _grad_postprocess(tuple(jacobians), create_graph)
        return _tuple_postprocess(jacobians, (is_outputs_tuple, is_inputs_tuple))


def hessian(func, inputs, create_graph=False, strict=False, vectorize=False,
            outer_jacobian_strategy="reverse-mode"):
    """The Hessian of a scalar ``func`` at ``inputs``: the Jacobian of its gradient."""
    is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "hessian")

    def ensure_single_output_function(*inp):
        out = func(*inp)
        is_out_tuple, t_out = _as_tuple(out, "outputs of the user-provided function", "hessian")
        if is_out_tuple or not isinstance(out, Tensor):
            raise RuntimeError("The function given to hessian should return a single Tensor")
        if out.numel() != 1:
            raise RuntimeError("The Tensor returned by the function given to hessian should contain a "
                               "single element")
        return out.squeeze()

    def jac_func(*inp):
        inp = tuple(t.requires_grad_(True) for t in inp)
        return jacobian(ensure_single_output_function, inp, create_graph=True)

    res = jacobian(jac_func, inputs, create_graph=create_graph, strict=strict)
    return _tuple_postprocess(res, (is_inputs_tuple, is_inputs_tuple))


def jvp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), J v): the Jacobian-vector product, by the double-backward trick."""
    with grad_mode.enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jvp")
        inputs = _grad_preprocess(inputs, create_graph=create_graph, need_graph=True)
        if v is not None:
            _, v = _as_tuple(v, "v", "jvp")
        else:
            if len(inputs) != 1 or inputs[0].numel() != 1:
                raise RuntimeError("The vector v can only be None if the input to the user-provided "
                                   "function is a single Tensor with a single element.")
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "jvp")
        grad_outputs = tuple(Tensor(np.zeros(o._data.shape, o._data.dtype)).requires_grad_(True)
                             for o in outputs)
        grad_inputs = _autograd_grad(outputs, inputs, grad_outputs, create_graph=True)
        grad_res = _autograd_grad(grad_inputs, grad_outputs, v, create_graph=create_graph)
        jvp_result = _fill_in_zeros(grad_res, outputs, strict)
    outputs = _grad_postprocess(outputs, create_graph)
    jvp_result = _grad_postprocess(jvp_result, create_graph)
    return _tuple_postprocess(outputs, is_outputs_tuple), _tuple_postprocess(jvp_result, is_outputs_tuple)


def vhp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), v^T H) for a scalar ``func``."""
    with grad_mode.enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "vhp")
        inputs = _grad_preprocess(inputs, create_graph=create_graph, need_graph=True)
        if v is not None:
            _, v = _as_tuple(v, "v", "vhp")
        elif len(inputs) != 1 or inputs[0].numel() != 1:
            raise RuntimeError("The vector v can only be None if the input to the user-provided function "
                               "is a single Tensor with a single element.")
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "vhp")
        if is_outputs_tuple or not isinstance(outputs[0], Tensor):
            raise RuntimeError("The function given to vhp should return a single Tensor")
        if outputs[0].numel() != 1:
            raise RuntimeError("The Tensor returned by the function given to vhp should contain a single "
                               "element")
        jac = _autograd_grad(outputs, inputs, create_graph=True)
        grad_res = _autograd_grad(jac, inputs, v, create_graph=create_graph)
        result = _fill_in_zeros(grad_res, inputs, strict)
    outputs = _grad_postprocess(outputs, create_graph)
    result = _grad_postprocess(result, create_graph)
    return _tuple_postprocess(outputs, is_outputs_tuple), _tuple_postprocess(result, is_inputs_tuple)


def hvp(func, inputs, v=None, create_graph=False, strict=False):
    """(func(inputs), H v) for a scalar ``func`` (the Hessian is symmetric: the same as vhp)."""
    return vhp(func, inputs, v, create_graph, strict)
