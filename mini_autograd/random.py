"""``torch.random`` and ``torch.Generator``: seeded sources of random numbers, and the default one.

Every random function (``rand``, ``randn``, ``randint``, ``randperm``, ``normal``,
``multinomial``, ``bernoulli_``, ``dropout``, the ``nn.init`` fillers, ...) takes
``generator=``; without it, it draws from ``default_generator``, which
``torch.manual_seed`` seeds. The same seed gives the same numbers, as in PyTorch,
but not PyTorch's numbers: the bits come from numpy's PCG64, not from PyTorch's
Mersenne Twister.

PyTorch counterpart: torch/random.py, and ``torch.Generator`` (aten/src/ATen/core/Generator.h,
aten/src/ATen/CPUGeneratorImpl.cpp).
"""
import os
import pickle

import numpy as np

from . import _dtype
from ._device import check_device, device as _device

__all__ = ["Generator", "default_generator", "get_rng_state", "initial_seed", "manual_seed", "seed",
           "set_rng_state"]

# PyTorch's default seed (c10/core/GeneratorImpl.h: default_rng_seed_val).
DEFAULT_SEED = 67280421310721


def _check_seed(seed, name="manual_seed"):
    """The seed as PyTorch takes it: anything ``int()`` accepts, wrapped into 64 bits."""
    if isinstance(seed, float) and not seed.is_integer():
        raise RuntimeError(f"{name} expected a long, but got float")
    seed = int(seed)
    if not -2**63 <= seed < 2**64:
        raise ValueError("Overflow when unpacking long long")
    return seed % 2**64


class Generator:
    """A random number generator with its own state: ``torch.Generator().manual_seed(42)``."""

    def __init__(self, device="cpu"):
        check_device(device)
        self._initial_seed = DEFAULT_SEED
        self._rng = np.random.default_rng(DEFAULT_SEED)

    @property
    def device(self):
        return _device("cpu")

    def manual_seed(self, seed):
        """Restart from ``seed``; returns the generator, so ``Generator().manual_seed(0)`` chains."""
        self._initial_seed = _check_seed(seed)
        self._rng = np.random.default_rng(self._initial_seed)
        return self

    def seed(self):
        """Seed from the operating system's entropy; returns the seed chosen."""
        seed = int.from_bytes(os.urandom(8), "little") >> 1
        self.manual_seed(seed)
        return seed

    def initial_seed(self):
        """The seed the generator was last seeded with."""
        return self._initial_seed

    def get_state(self):
        """The whole state, as a uint8 tensor (``set_state`` takes it back)."""
        from ._tensor import Tensor
        blob = pickle.dumps((self._initial_seed, self._rng.bit_generator.state))
        return Tensor(np.frombuffer(blob, dtype=np.uint8).copy())

    def set_state(self, new_state):
        from ._tensor import Tensor
        if not isinstance(new_state, Tensor):
            raise TypeError(f"expected a torch.ByteTensor, but got {type(new_state).__name__}")
        if new_state.dtype is not _dtype.uint8:
            raise TypeError("RNG state must be a torch.ByteTensor")
        try:
            seed, state = pickle.loads(new_state._data.tobytes())
            self._rng.bit_generator.state = state
        except Exception:
            raise RuntimeError("Expected an RNG state made by Generator.get_state(), but found one of "
                               f"size {new_state.numel()}") from None
        self._initial_seed = seed
        return self

    def __repr__(self):
        return f"<torch._C.Generator object at {id(self):#x}>"


default_generator = Generator()


def numpy_rng(generator, function="random function"):
    """The numpy generator to draw from: ``generator``'s, or the default one's."""
    if generator is None:
        return default_generator._rng
    if not isinstance(generator, Generator):
        raise TypeError(f"{function}() received an invalid combination of arguments - got "
                        f"generator={type(generator).__name__}, but expected torch.Generator")
    return generator._rng


def manual_seed(seed):
    """Seed the default generator (what every random function draws from by default)."""
    return default_generator.manual_seed(seed)


def seed():
    """Seed the default generator from the operating system's entropy; returns that seed."""
    return default_generator.seed()


def initial_seed():
    return default_generator.initial_seed()


def get_rng_state():
    return default_generator.get_state()


def set_rng_state(new_state):
    default_generator.set_state(new_state)
