"""``torch.utils``: only ``data`` (datasets and the loader that batches them).

PyTorch counterpart: torch/utils/.
"""
from . import data

__all__ = ["data"]
