"""``torch.utils.data`` against PyTorch: datasets, samplers, ``DataLoader``, ``random_split``, collation.

Orders that are not random are compared as they are. Shuffles and splits are compared
too: mini_autograd draws PyTorch's random numbers, so the batches must be the same,
which checks that its loader draws as PyTorch's does (a seed from the default
generator per pass, a ``Generator`` seeded with it, ``randperm``).
"""
import textwrap

import pytest

import mini_autograd as torch

try:
    from crosscheck import assert_same, compare, describe, full
    from test_tutorial_programs import run_program
except ImportError:  # tests/ made a package
    from tests.crosscheck import assert_same, compare, describe, full
    from tests.test_tutorial_programs import run_program

real_torch = pytest.importorskip("torch")

CASES = []


def case(id, code, error=None, message=full):
    CASES.append(pytest.param(textwrap.dedent(code), error, message, id=id))


DATA = """
    from torch.utils.data import DataLoader, Dataset, TensorDataset, Subset, random_split
    x = torch.arange(14.).reshape(7, 2)
    y = torch.arange(7)
    ds = TensorDataset(x, y)
"""

case("tensor_dataset", DATA + """
    print(len(ds), ds[2], ds[-1][1])
    print(ds[1:3])
""")
case("tensor_dataset_size_mismatch", DATA + "    TensorDataset(x, torch.arange(3))", "AssertionError")
case("loader_in_order", DATA + """
    loader = DataLoader(ds, batch_size=3)
    print(len(loader))
    for xb, yb in loader:
        print(xb, yb)
    print(len(DataLoader(ds, batch_size=3, drop_last=True)), [yb.tolist() for _, yb in
          DataLoader(ds, batch_size=3, drop_last=True)])
    print(next(iter(DataLoader(ds))))
""")
case("loader_pin_memory_without_an_accelerator", DATA + """
    print(len(list(DataLoader(ds, batch_size=4, pin_memory=True))))
""")
case("loader_without_batching", DATA + """
    loader = DataLoader(ds, batch_size=None)
    print(len(loader), next(iter(loader)))
""")
case("collate_numbers_dicts_lists", """
    from torch.utils.data import DataLoader, Dataset
    import collections
    Point = collections.namedtuple("Point", "x y")
    class Items(Dataset):
        def __len__(self):
            return 5
        def __getitem__(self, i):
            return {"float": float(i) / 2, "int": i, "bool": i % 2 == 0, "pair": (i, [i, -i]),
                    "point": Point(i, torch.tensor([i, i])), "name": f"item{i}"}
    for batch in DataLoader(Items(), batch_size=2):
        print(batch)
""")
case("collate_of_unequal_lists", """
    from torch.utils.data import DataLoader
    print(next(iter(DataLoader([[1, 2], [3]], batch_size=2))))
""", "RuntimeError")
case("collate_of_something_else", """
    from torch.utils.data import DataLoader
    print(next(iter(DataLoader([object(), object()], batch_size=2))))
""", "TypeError", message=lambda m: m.split(";")[0])
case("loader_custom_collate_and_lists", """
    from torch.utils.data import DataLoader
    data = [torch.tensor([float(i), 2. * i]) for i in range(5)]
    print([b for b in DataLoader(data, batch_size=2)])
    print([b for b in DataLoader(data, batch_size=2, collate_fn=lambda batch: len(batch))])
    print(list(DataLoader(list(range(5)), batch_size=2)))
""")
case("loader_options_that_exclude_each_other", DATA + """
    from torch.utils.data import SequentialSampler
    for kwargs in ({"sampler": SequentialSampler(ds), "shuffle": True},
                   {"batch_size": None, "drop_last": True}, {"batch_sampler": [[0, 1]], "batch_size": 2},
                   {"num_workers": -1}, {"batch_size": 0}):
        try:
            DataLoader(ds, **kwargs)
        except ValueError as e:
            print(e)
""")
case("loader_samplers", DATA + """
    from torch.utils.data import BatchSampler, SequentialSampler
    print(list(BatchSampler(SequentialSampler(range(7)), 3, False)), list(BatchSampler(range(7), 3, True)))
    print(len(BatchSampler(range(7), 3, False)), len(BatchSampler(range(7), 3, True)))
    for xb, yb in DataLoader(ds, batch_sampler=[[0, 6], [3]]):
        print(yb)
    for xb, yb in DataLoader(ds, sampler=[6, 5, 4], batch_size=2):
        print(yb)
""")
case("subset_and_concat", DATA + """
    sub = Subset(ds, [4, 0, 2])
    print(len(sub), sub[0], [yb.tolist() for _, yb in DataLoader(sub, batch_size=2)])
    both = ds + sub
    print(len(both), both[8], both[-1])
""")
case("iterable_dataset", """
    from torch.utils.data import DataLoader, IterableDataset
    class Count(IterableDataset):
        def __iter__(self):
            return iter(range(7))
    print(list(DataLoader(Count(), batch_size=3)), list(DataLoader(Count(), batch_size=3, drop_last=True)))
    print(list(DataLoader(Count(), batch_size=None))[:3])
""")
case("iterable_dataset_no_shuffle", """
    from torch.utils.data import DataLoader, IterableDataset
    class Count(IterableDataset):
        def __iter__(self):
            return iter(range(7))
    DataLoader(Count(), shuffle=True)
""", "ValueError")
case("dataset_without_getitem", """
    from torch.utils.data import Dataset
    Dataset()[0]
""", "NotImplementedError")
case("random_split_lengths", DATA + """
    a, b = random_split(ds, [5, 2], generator=torch.Generator().manual_seed(42))
    print(len(a), len(b), type(a).__name__, sorted(a.indices + b.indices))
    parts = random_split(range(10), [0.3, 0.3, 0.4])
    print([len(p) for p in parts], [len(p) for p in random_split(range(11), [0.5, 0.5])])
    print([len(p) for p in random_split(range(3), [0.1, 0.9])])
""")
case("random_split_bad_sum", DATA + "    random_split(ds, [3, 3])", "ValueError")
case("random_split_bad_fraction", "from torch.utils.data import random_split\n"
     "random_split(range(4), [1.5, -0.5])", "ValueError")


@pytest.mark.parametrize("code, error, message", CASES)
def test_same_as_torch(code, error, message):
    assert_same(code, error=error, message=message)


# ------------------------------------------------------------------ shuffles: same seed, same batches
SHUFFLED = {
    "shuffle_epochs": DATA + """
    torch.manual_seed(0)
    loader = DataLoader(ds, batch_size=3, shuffle=True)
    for epoch in range(3):
        print([yb.tolist() for _, yb in loader])
    print(torch.randn(2))           # the loader drew from the default generator as PyTorch's does
    """,
    "shuffle_with_a_generator": DATA + """
    g = torch.Generator().manual_seed(3)
    print([yb.tolist() for _, yb in DataLoader(ds, batch_size=2, shuffle=True, drop_last=True, generator=g)])
    g.manual_seed(3)
    print([yb.tolist() for _, yb in DataLoader(ds, batch_size=2, shuffle=True, drop_last=True, generator=g)])
    """,
    "random_split_then_load": DATA + """
    train, test = random_split(ds, [0.7, 0.3], generator=torch.Generator().manual_seed(42))
    print(train.indices, test.indices)
    print([yb.tolist() for _, yb in DataLoader(train, batch_size=2, shuffle=True)])
    """,
    "random_sampler_with_replacement": DATA + """
    from torch.utils.data import RandomSampler, WeightedRandomSampler, SubsetRandomSampler
    print(list(RandomSampler(ds, replacement=True, num_samples=40)))
    print(list(WeightedRandomSampler([0.1, 0.9, 0.0], 6)), list(SubsetRandomSampler([5, 6, 7])))
    """,
}


@pytest.mark.parametrize("name", SHUFFLED)
def test_shuffles_and_splits_draw_as_pytorch_does(name):
    code = textwrap.dedent(SHUFFLED[name])
    ref, got = run_program(code, real_torch), run_program(code, torch)
    assert ref["error"] is None, ref["traceback"]
    problems = compare(code, ref, got)
    assert not problems, describe(code, ref, got, problems)


def test_a_shuffle_is_a_permutation_and_changes_between_passes():
    from mini_autograd.utils.data import DataLoader, TensorDataset
    torch.manual_seed(0)
    loader = DataLoader(TensorDataset(torch.arange(20)), batch_size=5, shuffle=True)
    passes = [[i for (batch,) in loader for i in batch.tolist()] for _ in range(2)]
    assert sorted(passes[0]) == sorted(passes[1]) == list(range(20)) and passes[0] != passes[1]
    torch.manual_seed(0)
    assert [i for (batch,) in loader for i in batch.tolist()] == passes[0]


def test_num_workers_runs_in_this_process():
    from mini_autograd.utils.data import DataLoader, get_worker_info
    assert get_worker_info() is None
    batches = DataLoader(list(range(5)), batch_size=2, num_workers=2)
    assert [b.tolist() for b in batches] == [[0, 1], [2, 3], [4]]
