"""``torch.optim`` in miniature: ``Optimizer``, ``SGD``, ``Adam`` and ``RMSprop``.

PyTorch counterpart: torch/optim/.
"""
from .adam import Adam
from .optimizer import Optimizer
from .rmsprop import RMSprop
from .sgd import SGD

__all__ = ["Optimizer", "SGD", "Adam", "RMSprop"]
