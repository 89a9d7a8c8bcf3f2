"""``torch.utils``: ``data`` (datasets and the loader that batches them), ``hooks`` (the handle a module
hook's registration returns) and ``backcompat`` (the broadcasting notes' warning switches).

PyTorch counterpart: torch/utils/.
"""
from . import backcompat, data, hooks

__all__ = ["backcompat", "data", "hooks"]
