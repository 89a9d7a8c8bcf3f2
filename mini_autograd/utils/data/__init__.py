"""``torch.utils.data``: datasets, samplers, and the ``DataLoader`` that batches them.

Plain Python over tensors, as PyTorch's own are; the loader runs in this process
(``num_workers`` is accepted and ignored), and draws its shuffles from the same
generators as every random function (``generator=``, or the default one that
``torch.manual_seed`` seeds).

PyTorch counterpart: torch/utils/data/.
"""
from .dataloader import DataLoader, default_collate, default_convert, get_worker_info
from .dataset import ConcatDataset, Dataset, IterableDataset, Subset, TensorDataset, random_split
from .sampler import (BatchSampler, RandomSampler, Sampler, SequentialSampler, SubsetRandomSampler,
                      WeightedRandomSampler)

__all__ = ["BatchSampler", "ConcatDataset", "DataLoader", "Dataset", "IterableDataset", "RandomSampler",
           "Sampler", "SequentialSampler", "Subset", "SubsetRandomSampler", "TensorDataset",
           "WeightedRandomSampler", "default_collate", "default_convert", "get_worker_info", "random_split"]
