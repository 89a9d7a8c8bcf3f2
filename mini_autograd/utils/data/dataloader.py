"""``DataLoader``: reads a dataset in batches, in order or shuffled, and collates each batch.

Everything runs in this process: ``num_workers`` is accepted and ignored, which gives
the same batches in the same order as PyTorch's worker processes give.

PyTorch counterpart: torch/utils/data/dataloader.py and torch/utils/data/_utils/collate.py.
"""
import collections.abc
import copy
import re
import warnings

import numpy as np

import mini_autograd as torch

from .dataset import IterableDataset
from .sampler import BatchSampler, RandomSampler, SequentialSampler

default_collate_err_msg_format = ("default_collate: batch must contain tensors, numpy arrays, numbers, "
                                  "dicts or lists; found {}")
_np_str_obj_array_pattern = re.compile(r"[SaUO]")


def default_collate(batch):
    """Put a list of samples together as one batch: tensors are stacked along a new first dimension,
    numbers become a tensor (floats as float64), and tuples, lists and dicts are collated field by field
    (a batch of tuples gives a list, as in PyTorch)."""
    elem = batch[0]
    elem_type = type(elem)
    if isinstance(elem, torch.Tensor):
        return torch.stack(batch, 0)
    if isinstance(elem, np.ndarray):
        if _np_str_obj_array_pattern.search(elem.dtype.str) is not None:
            raise TypeError(default_collate_err_msg_format.format(elem.dtype))
        return default_collate([torch.as_tensor(b) for b in batch])
    if isinstance(elem, np.generic):
        return torch.as_tensor(np.array(batch))
    if isinstance(elem, bool):
        return torch.tensor(batch)
    if isinstance(elem, float):
        return torch.tensor(batch, dtype=torch.float64)
    if isinstance(elem, int):
        return torch.tensor(batch)
    if isinstance(elem, (str, bytes)):
        return batch
    if isinstance(elem, collections.abc.Mapping):
        collated = {key: default_collate([d[key] for d in batch]) for key in elem}
        try:
            if isinstance(elem, collections.abc.MutableMapping):
                clone = copy.copy(elem)
                clone.update(collated)
                return clone
            return elem_type(collated)
        except TypeError:
            return collated
    if isinstance(elem, tuple) and hasattr(elem, "_fields"):       # a namedtuple
        return elem_type(*(default_collate(samples) for samples in zip(*batch, strict=False)))
    if isinstance(elem, collections.abc.Sequence):
        it = iter(batch)
        elem_size = len(next(it))
        if not all(len(elem) == elem_size for elem in it):
            raise RuntimeError("each element in list of batch should be of equal size")
        transposed = list(zip(*batch, strict=False))
        if isinstance(elem, tuple):
            return [default_collate(samples) for samples in transposed]
        try:
            if isinstance(elem, collections.abc.MutableSequence):
                clone = copy.copy(elem)
                for i, samples in enumerate(transposed):
                    clone[i] = default_collate(samples)
                return clone
            return elem_type([default_collate(samples) for samples in transposed])
        except TypeError:
            return [default_collate(samples) for samples in transposed]
    raise TypeError(default_collate_err_msg_format.format(elem_type))


def default_convert(data):
    """What a loader without batching (``batch_size=None``) does to each sample: numpy arrays become
    tensors, containers are converted item by item, anything else is kept."""
    if isinstance(data, torch.Tensor):
        return data
    if isinstance(data, np.ndarray):
        if _np_str_obj_array_pattern.search(data.dtype.str) is not None:
            return data
        return torch.as_tensor(data)
    if isinstance(data, np.generic):
        return torch.as_tensor(data)
    if isinstance(data, collections.abc.Mapping):
        return {key: default_convert(data[key]) for key in data}
    if isinstance(data, tuple) and hasattr(data, "_fields"):
        return type(data)(*(default_convert(d) for d in data))
    if isinstance(data, tuple):
        return [default_convert(d) for d in data]
    if isinstance(data, collections.abc.Sequence) and not isinstance(data, (str, bytes)):
        return [default_convert(d) for d in data]
    return data


def get_worker_info():
    """None: no worker processes here, the data are read in the main process."""
    return None


class _InfiniteConstantSampler:
    def __iter__(self):
        while True:
            yield None


class DataLoader:
    """Batches of a dataset: ``for xb, yb in DataLoader(TensorDataset(x, y), batch_size=64, shuffle=True)``.

    ``shuffle=True`` draws a new order for each pass (from ``generator``, or from the default
    generator); ``drop_last=True`` leaves out a last, smaller batch; ``collate_fn`` replaces
    ``default_collate``; ``sampler`` / ``batch_sampler`` choose the indices yourself.
    """

    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None, num_workers=0,
                 collate_fn=None, pin_memory=False, drop_last=False, timeout=0, worker_init_fn=None,
                 multiprocessing_context=None, generator=None, *, prefetch_factor=None,
                 persistent_workers=False, pin_memory_device="", in_order=True):
        if num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 to disable "
                             "multiprocessing.")
        if timeout < 0:
            raise ValueError("timeout option should be non-negative")
        self.dataset = dataset
        self.num_workers = num_workers
        self.prefetch_factor = prefetch_factor
        self.pin_memory = pin_memory
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.persistent_workers = persistent_workers
        self._is_iterable = isinstance(dataset, IterableDataset)
        if self._is_iterable:
            if isinstance(shuffle, bool) and shuffle:
                raise ValueError(f"DataLoader with IterableDataset: expected unspecified shuffle option, but "
                                 f"got shuffle={shuffle}")
            if sampler is not None:
                raise ValueError(f"DataLoader with IterableDataset: expected unspecified sampler option, but "
                                 f"got sampler={sampler}")
            if batch_sampler is not None:
                raise ValueError(f"DataLoader with IterableDataset: expected unspecified batch_sampler "
                                 f"option, but got batch_sampler={batch_sampler}")
        else:
            shuffle = bool(shuffle)
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, shuffle, "
                                 "sampler, and drop_last")
            batch_size = None
            drop_last = False
        elif batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually exclusive with "
                             "drop_last")
        if sampler is None:
            if self._is_iterable:
                sampler = _InfiniteConstantSampler()
            elif shuffle:
                sampler = RandomSampler(dataset, generator=generator)
            else:
                sampler = SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.generator = generator
        if collate_fn is None:
            collate_fn = default_collate if self._auto_collation else default_convert
        self.collate_fn = collate_fn

    @property
    def _auto_collation(self):
        return self.batch_sampler is not None

    @property
    def _index_sampler(self):
        return self.batch_sampler if self._auto_collation else self.sampler

    def __iter__(self):
        return _SingleProcessDataLoaderIter(self)

    def __len__(self):
        if self._is_iterable:
            length = len(self.dataset)
            if self.batch_size is not None:
                length = length // self.batch_size if self.drop_last else -(-length // self.batch_size)
            return length
        return len(self._index_sampler)


class _SingleProcessDataLoaderIter:
    """One pass over a DataLoader (torch/utils/data/dataloader.py: _SingleProcessDataLoaderIter)."""

    def __init__(self, loader):
        self._loader = loader
        self._dataset = loader.dataset
        self._auto_collation = loader._auto_collation
        self._collate_fn = loader.collate_fn
        if loader.pin_memory and not torch.accelerator.is_available():
            warnings.warn("'pin_memory' argument is set as true but no accelerator is found, then device "
                          "pinned memory won't be used.", stacklevel=3)
        self._sampler_iter = iter(loader._index_sampler)
        # PyTorch draws a seed for worker processes here, from the loader's generator; drawing it
        # too keeps the default generator's numbers in step with PyTorch's use of it
        self._base_seed = torch.empty((), dtype=torch.int64).random_(generator=loader.generator).item()
        if loader._is_iterable:
            self._dataset_iter = iter(self._dataset)

    def __iter__(self):
        return self

    def __len__(self):
        return len(self._loader._index_sampler)

    def __next__(self):
        index = next(self._sampler_iter)          # StopIteration ends the pass
        if self._loader._is_iterable:
            data = self._fetch_iterable(index)
        elif self._auto_collation:
            if callable(getattr(self._dataset, "__getitems__", None)):
                data = self._dataset.__getitems__(index)
            else:
                data = [self._dataset[idx] for idx in index]
        else:
            data = self._dataset[index]
        return self._collate_fn(data)

    def _fetch_iterable(self, batch_indices):
        if not self._auto_collation:
            return next(self._dataset_iter)
        data = []
        for _ in batch_indices:
            try:
                data.append(next(self._dataset_iter))
            except StopIteration:
                break
        if not data or (self._loader.drop_last and len(data) < len(batch_indices)):
            raise StopIteration
        return data
