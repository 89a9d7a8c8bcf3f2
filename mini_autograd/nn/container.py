"""``Sequential``: modules run one after another.

PyTorch counterpart: torch/nn/modules/container.py.
"""
import collections

from .module import Module


class Sequential(Module):
    """``Sequential(a, b, c)(x)`` is ``c(b(a(x)))``; the parts are named "0", "1", "2".

    Also ``Sequential(OrderedDict([("fc", ...), ("act", ...)]))`` for names of your own.
    """

    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], collections.OrderedDict):
            for name, module in args[0].items():
                self.add_module(name, module)
        else:
            for index, module in enumerate(args):
                self.add_module(str(index), module)

    def forward(self, input):
        for module in self._modules.values():
            input = module(input)
        return input

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def __getitem__(self, index):
        if isinstance(index, slice):
            return Sequential(collections.OrderedDict(list(self._modules.items())[index]))
        size = len(self)
        if not -size <= index < size:
            raise IndexError(f"index {index} is out of range")
        return list(self._modules.values())[index % size]

    def append(self, module):
        self.add_module(str(len(self)), module)
        return self
