"""``torch.nn`` in miniature: modules with parameters, layers, losses, and ``functional``.

PyTorch counterpart: torch/nn/.
"""
from . import functional, init
from .activation import LogSoftmax, ReLU, Sigmoid, Softmax, Tanh
from .container import Sequential
from .flatten import Flatten, Unflatten
from .linear import Identity, Linear
from .loss import BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, L1Loss, MSELoss, NLLLoss
from .module import Module
from .parameter import Parameter

__all__ = ["Module", "Parameter", "Linear", "Sequential", "ReLU", "Tanh", "Sigmoid", "Softmax",
           "LogSoftmax", "MSELoss", "CrossEntropyLoss", "NLLLoss", "BCELoss", "BCEWithLogitsLoss", "L1Loss",
           "Flatten", "Unflatten", "Identity", "functional", "init"]
