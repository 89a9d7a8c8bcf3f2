"""Checking backward formulas against finite differences. PyTorch: torch/autograd/gradcheck.py."""
import numpy as np


class GradcheckError(RuntimeError):
    """(given) Raised when the two Jacobians disagree, as PyTorch's gradcheck raises it."""


def gradcheck(function, inputs, eps=1e-6, atol=1e-5, rtol=1e-3):
    """Step 11.1: compare the Jacobian backward computes with one from finite differences.

    PyTorch: torch.autograd.gradcheck. ``inputs``: a tuple of float64 tensors that
    require grad; ``function(*inputs)`` returns one tensor. Build two matrices per
    input i, in PyTorch's layout: one row per entry of the input, one column per
    entry of the output.
    - numerical, row j: nudge entry j of the input's numbers by +eps and by -eps
      (``inputs[i]._data.reshape(-1)`` is a view you can write into; put the entry
      back afterwards!) and take (out(+) - out(-)) / (2 eps), flattened;
    - analytical, column k: run a fresh ``function(*inputs)`` and ``.backward()``
      it with a gradient that is 1 at output entry k and 0 elsewhere; what arrives
      in ``inputs[i].grad``, flattened, is column k. Clear every input's ``.grad``
      before each backward, or they accumulate.
    When the two disagree (``np.allclose(analytical, numerical, rtol=rtol,
    atol=atol)`` fails), raise ``GradcheckError`` with a message that starts with
    PyTorch's words, ``Jacobian mismatch for output 0 with respect to input {i},``
    followed by the two matrices. Else return True.
    """
    ### BEGIN SOLUTION
    from .creation import zeros_like
    output = function(*inputs)
    for i, tensor in enumerate(inputs):
        numerical = np.zeros((tensor.numel(), output.numel()))
        flat = tensor._data.reshape(-1)
        for j in range(tensor.numel()):
            original = flat[j]
            flat[j] = original + eps
            plus = function(*inputs)._data.copy()
            flat[j] = original - eps
            minus = function(*inputs)._data.copy()
            flat[j] = original
            numerical[j] = ((plus - minus) / (2 * eps)).reshape(-1)
        analytical = np.zeros_like(numerical)
        for k in range(output.numel()):
            for t in inputs:
                t.grad = None
            seed = zeros_like(output)
            seed._data.reshape(-1)[k] = 1
            function(*inputs).backward(seed)
            if tensor.grad is not None:
                analytical[:, k] = tensor.grad._data.reshape(-1)
        if not np.allclose(analytical, numerical, rtol=rtol, atol=atol):
            raise GradcheckError(f"Jacobian mismatch for output 0 with respect to input {i},\n"
                                 f"numerical:{numerical}\nanalytical:{analytical}\n")
    for t in inputs:
        t.grad = None
    return True
    ### END SOLUTION
