"""``Flatten`` and ``Unflatten``: layers that only reshape.

PyTorch counterpart: torch/nn/modules/flatten.py.
"""
from .module import Module


class Flatten(Module):
    """Merge dimensions ``start_dim`` .. ``end_dim`` into one (by default all but the batch dimension)."""

    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input):
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self):
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Unflatten(Module):
    """Split dimension ``dim`` into ``unflattened_size``."""

    def __init__(self, dim, unflattened_size):
        super().__init__()
        self.dim = dim
        self.unflattened_size = tuple(unflattened_size)

    def forward(self, input):
        dim = self.dim % input.ndim
        shape = tuple(input.shape[:dim]) + self.unflattened_size + tuple(input.shape[dim + 1:])
        return input.view(shape)

    def extra_repr(self):
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"
