"""Checking backward formulas against finite differences. PyTorch: torch/autograd/gradcheck.py."""
import numpy as np

from .tensor import Tensor  # noqa: F401  (given) for the gradient you start each backward with


class GradcheckError(RuntimeError):
    """(given) Raised when the two Jacobians disagree, as PyTorch's gradcheck raises it."""


def gradcheck(function, inputs, eps=1e-6, atol=1e-5, rtol=1e-3):
    """Step 11.1: compare the Jacobian backward computes with one from finite differences.

    PyTorch: torch.autograd.gradcheck (torch/autograd/gradcheck.py, slow mode).
    Takes ``function``, which returns one tensor, and ``inputs``, a tuple of
    float64 tensors that require grad. Returns True when, for every input i, the
    two Jacobians below agree (``np.allclose(analytical, numerical, rtol=rtol,
    atol=atol)``); otherwise raises ``GradcheckError`` whose message starts with
    PyTorch's words, ``Jacobian mismatch for output 0 with respect to input {i},``
    and goes on with the two matrices.

    Both matrices have PyTorch's layout: one row per entry of input i, one column
    per entry of the output (the transpose of the textbook dy/dx).
    - numerical: central differences, (out(x + eps) - out(x - eps)) / (2 eps),
      one input entry nudged at a time. ``inputs[i]._data.reshape(-1)`` is a view
      you can write into; every entry must be back to its value afterwards.
    - analytical: what backward says, one output entry at a time: the gradient
      that reaches ``inputs[i].grad`` when backward starts from a gradient that
      is 1 at that entry and 0 elsewhere. Gradients accumulate into ``.grad``, so
      each backward must start from cleared ``.grad``s.
      When ``inputs[i].grad`` stays None after a backward, no gradient reached
      input i: that column is zeros (if nudging input i moves nothing either, the
      two agree, and PyTorch returns True).
    - compare with the ``eps``, ``atol`` and ``rtol`` you were given: an entry passes
      when |analytical - numerical| <= atol + rtol * |numerical|, every entry of both
      matrices, every input.
    Afterwards every input's ``.grad`` is what it was before the call (PyTorch's
    gradcheck leaves them alone: None stays None, a gradient stays).
    """
    ### BEGIN SOLUTION
    from .creation import zeros_like
    grads_before = [t.grad for t in inputs]
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
    for t, grad in zip(inputs, grads_before, strict=True):
        t.grad = grad
    return True
    ### END SOLUTION
