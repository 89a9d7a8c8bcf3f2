"""Optimizers: what changes the parameters. PyTorch counterpart: torch/optim/optimizer.py."""
from .grad_mode import no_grad


def zero_grad(parameters, set_to_none=True):
    """Step 05.2: clear the gradients of ``parameters`` before the next backward.

    PyTorch: Optimizer.zero_grad (torch/optim/optimizer.py). Returns nothing.
    Afterwards, with ``set_to_none=True`` (PyTorch's default) every parameter's
    ``.grad`` is None. With ``set_to_none=False`` every existing ``.grad`` holds
    zeros and is still the same tensor object as before, changed in place as
    PyTorch's ``p.grad.zero_()`` changes it: its ``_version`` goes up by one. A
    ``.grad`` that requires grad (one the program set) no longer does, as
    PyTorch's ``p.grad.requires_grad_(False)`` before ``zero_()``. A parameter
    whose ``.grad`` is None stays None either way.
    """
    raise NotImplementedError("Step 05.2: zero_grad")


class SGD:
    """Plain stochastic gradient descent: ``p -= lr * p.grad``. PyTorch: torch.optim.SGD."""

    def __init__(self, parameters, lr):
        self.parameters = list(parameters)      # (given) a generator would be used up after one pass
        self.lr = lr

    def zero_grad(self, set_to_none=True):
        """(given) Clear every parameter's gradient: your zero_grad of step 05.2."""
        zero_grad(self.parameters, set_to_none)

    def step(self):
        """Step 10.3: move each parameter a step against its gradient.

        PyTorch: SGD.step (torch/optim/sgd.py). Returns nothing. Afterwards each
        parameter with a gradient holds ``p - lr * p.grad`` and is still the same
        tensor object, a leaf (changed in place, step 07.1), and nothing about the
        update was recorded: it is not part of any model, and a leaf that requires
        grad may only be changed in place with recording off (step 06.1).
        Parameters whose ``.grad`` is None are left as they are; every other one
        is written, also one whose ``requires_grad`` was switched off (it stays
        off) and also when ``lr`` is 0 (the write still bumps its version).
        """
        raise NotImplementedError("Step 10.3: SGD.step")
