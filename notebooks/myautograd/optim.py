"""Optimizers: what changes the parameters. PyTorch counterpart: torch/optim/optimizer.py."""


def zero_grad(parameters, set_to_none=True):
    """Step 05.2: clear the gradients of ``parameters`` before the next backward.

    PyTorch: Optimizer.zero_grad. ``set_to_none=True`` (PyTorch's default): set
    each ``p.grad`` to None. ``set_to_none=False``: fill the existing ``.grad``
    with zeros in place (``p.grad._data[...] = 0``), keeping the same tensor.
    A parameter whose ``.grad`` is None stays None either way.
    """
    raise NotImplementedError("Step 05.2: zero_grad")
