"""``torch.nn`` in miniature: modules with parameters, layers, losses, and ``functional``.

PyTorch counterpart: torch/nn/.
"""
from . import functional, init, utils
from .activation import GELU, LeakyReLU, LogSoftmax, ReLU, Sigmoid, Softmax, Softsign, Tanh
from .batchnorm import BatchNorm1d, BatchNorm2d
from .container import ModuleDict, ModuleList, Sequential
from .conv import AvgPool2d, Conv1d, Conv2d, MaxPool2d
from .dropout import Dropout
from .flatten import Flatten, Unflatten
from .linear import Identity, Linear
from .loss import (BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, HuberLoss, L1Loss, MSELoss, NLLLoss,
                   SmoothL1Loss)
from .module import Module
from .normalization import LayerNorm
from .parameter import Parameter
from .sparse import Embedding

__all__ = ["Module", "Parameter", "Linear", "Sequential", "ReLU", "Tanh", "Sigmoid", "Softmax",
           "LogSoftmax", "MSELoss", "CrossEntropyLoss", "NLLLoss", "BCELoss", "BCEWithLogitsLoss", "L1Loss",
           "SmoothL1Loss", "HuberLoss", "Flatten", "Unflatten", "Identity", "Dropout", "BatchNorm1d",
           "BatchNorm2d", "Embedding", "Conv1d", "Conv2d", "MaxPool2d", "AvgPool2d", "LeakyReLU",
           "ModuleList", "ModuleDict", "functional", "init", "utils", "GELU", "LayerNorm",
           "Softsign"]
