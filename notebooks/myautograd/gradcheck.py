"""Checking backward formulas against finite differences. PyTorch: torch/autograd/gradcheck.py."""
import numpy as np


class GradcheckError(RuntimeError):
    """(given) Raised when the two Jacobians disagree, as PyTorch's gradcheck raises it."""


def gradcheck(function, inputs, eps=1e-6, atol=1e-5, rtol=1e-3):
    """Step 11.1: compare the Jacobian backward computes with one from finite differences.

    PyTorch: torch.autograd.gradcheck. ``inputs``: a tuple of float64 tensors that
    require grad; ``function(*inputs)`` returns one tensor. For each input i:
    - numerical: nudge each entry of ``inputs[i]._data`` by +eps and -eps (put it
      back afterwards!) and take (out(+) - out(-)) / (2 eps), flattened: one column
      per entry;
    - analytical: for each entry j of the output, run a fresh ``function(*inputs)``
      and ``.backward()`` it with a gradient that is 1 at j and 0 elsewhere; the
      gradients that arrive in ``inputs[i].grad`` form row j. Clear every input's
      ``.grad`` before each backward, or they accumulate.
    When the two disagree (``np.allclose(analytical, numerical, rtol, atol)`` fails),
    raise ``GradcheckError(f"Jacobian mismatch for output 0 with respect to input
    {i},\\nnumerical:{numerical}\\nanalytical:{analytical}\\n")``. Else return True.
    """
    raise NotImplementedError("Step 11.1: gradcheck")
