"""``Sequential`` (modules run one after another) and ``ModuleList``.

PyTorch counterpart: torch/nn/modules/container.py.
"""
import collections

from .module import Module


class _ModuleSequence(Module):
    """What ``Sequential`` and ``ModuleList`` share: length, iteration, indexing and ``append``."""

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules.values())

    def _key(self, index):
        """The name of the submodule at ``index`` (negative counts from the end), or PyTorch's IndexError."""
        size = len(self)
        if not -size <= index < size:
            raise IndexError(f"index {index} is out of range")
        return list(self._modules)[index % size]

    def __getitem__(self, index):
        if isinstance(index, slice):
            return self._of_items(list(self._modules.items())[index])
        return self._modules[self._key(index)]

    def __setitem__(self, index, module):
        self.add_module(self._key(index), module)

    def append(self, module):
        self.add_module(str(len(self)), module)
        return self


class Sequential(_ModuleSequence):
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

    @staticmethod
    def _of_items(items):
        return Sequential(collections.OrderedDict(items))


class ModuleList(_ModuleSequence):
    """A list of modules, registered as submodules "0", "1", ... (their parameters are the list's)."""

    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.extend(modules)

    @staticmethod
    def _of_items(items):
        return ModuleList([module for _, module in items])

    def extend(self, modules):
        for module in modules:
            self.append(module)
        return self

    def __repr__(self):
        """Runs of equal modules are shown once: ``(0-1): 2 x Linear(...)``, as PyTorch shows them."""
        from .module import _addindent
        reprs = [repr(module) for module in self]
        if not reprs:
            return self._get_name() + "()"
        runs = []                                   # [first, last, repr]
        for i, text in enumerate(reprs):
            if runs and runs[-1][2] == text:
                runs[-1][1] = i
            else:
                runs.append([i, i, text])
        lines = [_addindent(f"({first}): {text}" if first == last else
                            f"({first}-{last}): {last - first + 1} x {text}", 2)
                 for first, last, text in runs]
        return self._get_name() + "(\n  " + "\n  ".join(lines) + "\n)"

    def insert(self, index, module):
        modules = list(self._modules.values())
        modules.insert(index, module)
        self._modules.clear()
        self.extend(modules)


class ModuleDict(Module):
    """A dict of modules, registered as submodules under their keys."""

    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key):
        return self._modules[key]

    def __setitem__(self, key, module):
        self.add_module(key, module)

    def __delitem__(self, key):
        del self._modules[key]

    def __len__(self):
        return len(self._modules)

    def __iter__(self):
        return iter(self._modules)

    def __contains__(self, key):
        return key in self._modules

    def keys(self):
        return self._modules.keys()

    def items(self):
        return self._modules.items()

    def values(self):
        return self._modules.values()

    def update(self, modules):
        items = modules.items() if hasattr(modules, "items") else modules
        for key, module in items:
            self[key] = module
