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
    raise NotImplementedError("Step 11.1: gradcheck")
