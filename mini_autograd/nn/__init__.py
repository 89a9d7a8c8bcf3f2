"""``torch.nn`` in miniature: modules with parameters, layers, losses, and ``functional``.

PyTorch counterpart: torch/nn/.
"""
from . import functional, init
from .activation import LogSoftmax, ReLU, Sigmoid, Softmax, Tanh
from .container import Sequential
from .linear import Linear
from .loss import CrossEntropyLoss, MSELoss, NLLLoss
from .module import Module
from .parameter import Parameter

__all__ = ["Module", "Parameter", "Linear", "Sequential", "ReLU", "Tanh", "Sigmoid", "Softmax",
           "LogSoftmax", "MSELoss", "CrossEntropyLoss", "NLLLoss", "functional", "init"]
