"""Checking backward formulas against finite differences. PyTorch: torch/autograd/gradcheck.py."""
import numpy as np

from .tensor import Tensor  # noqa: F401  (given) for the gradient you start each backward with


class GradcheckError(RuntimeError):
    """(given) Raised when the two Jacobians disagree, as PyTorch's gradcheck raises it."""


def gradcheck(function, inputs, eps=1e-6, atol=1e-5, rtol=1e-3):
    """Step 11.1: compare the Jacobian backward computes with one from finite differences.

    PyTorch: torch.autograd.gradcheck (torch/autograd/gradcheck.py, slow mode).
    Takes ``function``, which returns one tensor, and ``inputs``, a tuple of
    float64 tensors. Only the inputs that require grad are checked, and they are
    the ones numbered i below (the first input that requires grad is input 0);
    if none does, raise PyTorch's ``ValueError("gradcheck expects at least one
    input tensor to require gradient, but none of them have requires_grad=True.")``.
    Returns True when, for every input i, the two Jacobians below agree
    (``np.allclose(analytical, numerical, rtol=rtol, atol=atol)``); otherwise
    raises ``GradcheckError`` whose message starts with PyTorch's words,
    ``Jacobian mismatch for output 0 with respect to input {i},`` and goes on
    with the two matrices.

    Both matrices have PyTorch's layout: one row per entry of input i, one column
    per entry of the output (the transpose of the textbook dy/dx).
    - numerical: central differences, (out(x + eps) - out(x - eps)) / (2 eps),
      one input entry nudged at a time. ``inputs[i]._data.reshape(-1)`` is a view
      you can write into; every entry must be back to its value afterwards.
    - analytical: what backward says, one output entry at a time: the gradient
      that reaches ``inputs[i].grad`` when backward starts from a gradient that
      is 1 at that entry and 0 elsewhere (write the 1 with ``.flat[k]``: the
      output may be transposed, and ``reshape(-1)`` of a transposed array is a
      copy). Gradients accumulate into ``.grad``, so each backward must start
      from cleared ``.grad``s.
      When ``inputs[i].grad`` stays None after a backward, no gradient reached
      input i: that column is zeros (if nudging input i moves nothing either, the
      two agree, and PyTorch returns True).
    - compare with the ``eps``, ``atol`` and ``rtol`` you were given: an entry passes
      when |analytical - numerical| <= atol + rtol * |numerical|, every entry of both
      matrices, every input.
    - an output that does not require grad (no input reaches it through recorded
      operations) has no backward to run: its analytical Jacobian is zeros.
    Afterwards every input's ``.grad`` is what it was before the call, whether
    gradcheck returns or raises (PyTorch's gradcheck leaves them alone: None stays
    None, a gradient stays).
    """
    raise NotImplementedError("Step 11.1: gradcheck")
