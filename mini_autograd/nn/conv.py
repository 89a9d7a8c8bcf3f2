"""``Conv1d``, ``Conv2d``, ``MaxPool2d``, ``AvgPool2d``: names only. mini_autograd has no convolutions
or pooling; the classes exist so that code that merely names them (``type(m) == nn.Conv2d`` in an
initialiser) runs, and making one says clearly what is missing.

PyTorch counterpart: torch/nn/modules/conv.py and torch/nn/modules/pooling.py.
"""
from .module import Module


class _Missing(Module):
    def __init__(self, *args, **kwargs):
        raise NotImplementedError(f"mini_autograd has no convolutions or pooling: nn.{type(self).__name__} "
                                  "is not implemented")


class Conv1d(_Missing):
    pass


class Conv2d(_Missing):
    pass


class MaxPool2d(_Missing):
    pass


class AvgPool2d(_Missing):
    pass
