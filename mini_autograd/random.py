"""``torch.random`` and ``torch.Generator``: PyTorch's CPU random numbers, bit for bit.

A ``Generator`` is PyTorch's: a Mersenne Twister (mt19937) whose 624 words of
state a seed fills in the same way, so ``torch.manual_seed(0)`` then
``torch.rand(5)`` gives PyTorch's five numbers. Every random function (``rand``,
``randn``, ``randint``, ``randperm``, ``normal``, ``multinomial``, ``bernoulli_``,
``dropout``, the ``nn.init`` fillers, ``DataLoader(shuffle=True)``, ...) takes
``generator=``; without it, it draws from ``default_generator``, which
``torch.manual_seed`` seeds and which, as in PyTorch, starts from a seed of the
operating system's in each process. How those functions turn the generator's
32-bit words into numbers is in ``_distributions.py``.

``get_state()`` is PyTorch's format too: the bytes of ``CPUGeneratorImplState``,
so a state saved by PyTorch loads here and the other way round.

PyTorch counterpart: torch/random.py; ``torch.Generator`` (aten/src/ATen/core/Generator.h),
aten/src/ATen/CPUGeneratorImpl.cpp (the CPU generator and its state),
aten/src/ATen/core/MT19937RNGEngine.h (the engine).
"""
import os

import numpy as np

from . import _dtype
from ._device import check_device, device as _device

__all__ = ["Generator", "default_generator", "get_rng_state", "initial_seed", "manual_seed", "seed",
           "set_rng_state"]

# the seed of a new Generator (c10/core/GeneratorImpl.h: default_rng_seed_val)
DEFAULT_SEED = 67280421310721

STATE_WORDS = 624   # MERSENNE_STATE_N

# CPUGeneratorImplState (CPUGeneratorImpl.cpp), byte for byte: get_state() returns these 5056 bytes.
# The state words are stored as 64-bit numbers (a legacy of TH); normal_x and normal_rho are unused.
STATE_LAYOUT = np.dtype([
    ("the_initial_seed", "<u8"), ("left", "<i4"), ("seeded", "<i4"), ("next", "<u8"),
    ("state", "<u8", STATE_WORDS),
    ("normal_x", "<f8"), ("normal_y", "<f8"), ("normal_rho", "<f8"), ("normal_is_valid", "<i4"),
    ("padding", "V4"),
    ("next_float_normal_sample", "<f4"), ("is_next_float_normal_sample_valid", "u1"), ("padding2", "V3"),
])
assert STATE_LAYOUT.itemsize == 5056


def _check_seed(seed, name="manual_seed"):
    """The seed as PyTorch takes it: anything ``int()`` accepts, wrapped into 64 bits."""
    if isinstance(seed, float) and not seed.is_integer():
        raise RuntimeError(f"{name} expected a long, but got float")
    seed = int(seed)
    if not -2**63 <= seed < 2**64:
        raise ValueError("Overflow when unpacking long long")
    return seed % 2**64


def seeded_words(seed):
    """The 624 state words a seed gives (MT19937RNGEngine.h: init_with_uint32; its low 32 bits only)."""
    words = [seed & 0xFFFFFFFF]
    for j in range(1, STATE_WORDS):
        words.append((1812433253 * (words[-1] ^ (words[-1] >> 30)) + j) & 0xFFFFFFFF)
    return np.array(words, dtype=np.uint32)


def temper(words):
    """The output of mt19937 for state words, shuffled once more (the end of ``operator()`` in
    MT19937RNGEngine.h)."""
    y = words ^ (words >> np.uint32(11))
    y ^= (y << np.uint32(7)) & np.uint32(0x9D2C5680)
    y ^= (y << np.uint32(15)) & np.uint32(0xEFC60000)
    return y ^ (y >> np.uint32(18))


class Generator:
    """A random number generator with its own state: ``torch.Generator().manual_seed(42)``.

    The state is PyTorch's: 624 words, ``next`` (the word to read next) and ``left`` (a count
    down to the twist that makes 624 new words: ``left == 1`` means twist first). numpy's
    ``MT19937`` is the same engine, so it does the twisting and tempering, fast.
    """

    def __init__(self, device="cpu"):
        check_device(device)
        self._twister = np.random.MT19937(0)
        self.manual_seed(DEFAULT_SEED)

    @property
    def device(self):
        return _device("cpu")

    def manual_seed(self, seed):
        """Restart from ``seed``; returns the generator, so ``Generator().manual_seed(0)`` chains."""
        self._seed = _check_seed(seed)
        self._words, self._next, self._left = seeded_words(self._seed), 0, 1
        # Box-Muller makes normal numbers in pairs; the second waits here for the next draw
        self._next_double_normal = self._next_float_normal = None
        return self

    def seed(self):
        """Seed from the operating system's entropy (64 bits, as PyTorch); returns the seed chosen."""
        seed = int.from_bytes(os.urandom(8), "little")
        self.manual_seed(seed)
        return seed

    def initial_seed(self):
        """The seed the generator was last seeded with."""
        return self._seed

    # ----------------------------------------------------------- drawing (CPUGeneratorImpl.cpp)
    def _random(self, count):
        """The next ``count`` 32-bit words, as uint32 (CPUGeneratorImpl::random, once per word)."""
        ready = min(count, self._left - 1, STATE_WORDS - self._next)   # words before the next twist
        head = temper(self._words[self._next:self._next + ready])
        self._next, self._left = self._next + ready, self._left - ready
        if ready == count:
            return head
        self._twister.state = {"bit_generator": "MT19937",
                               "state": {"key": self._words, "pos": STATE_WORDS}}  # pos 624: twist first
        tail = self._twister.random_raw(count - ready).astype(np.uint32)
        after = self._twister.state["state"]
        self._words, self._next = after["key"], int(after["pos"])
        self._left = STATE_WORDS + 1 - self._next
        return np.concatenate([head, tail])

    def _random64(self, count):
        """The next ``count`` 64-bit numbers: two words each, the first one the high half
        (CPUGeneratorImpl::random64)."""
        words = self._random(2 * count).astype(np.uint64)
        return (words[0::2] << np.uint64(32)) | words[1::2]

    # ----------------------------------------------------------- the state, in PyTorch's bytes
    def get_state(self):
        """The whole state, as PyTorch's uint8 tensor of 5056 bytes (``set_state`` takes it back)."""
        from ._tensor import Tensor
        state = np.zeros((), STATE_LAYOUT)
        state["the_initial_seed"], state["left"], state["seeded"] = self._seed, self._left, 1
        state["next"], state["state"] = self._next, self._words
        if self._next_double_normal is not None:
            state["normal_is_valid"], state["normal_y"] = 1, self._next_double_normal
        if self._next_float_normal is not None:
            state["is_next_float_normal_sample_valid"] = 1
            state["next_float_normal_sample"] = self._next_float_normal
        return Tensor(np.frombuffer(state.tobytes(), dtype=np.uint8).copy())

    def set_state(self, new_state):
        """Take a state made by ``get_state`` (or by PyTorch's); returns the generator."""
        from ._tensor import Tensor
        if not isinstance(new_state, Tensor):
            raise TypeError(f"expected a torch.ByteTensor, but got {type(new_state).__name__}")
        if new_state.dtype is not _dtype.uint8:
            raise TypeError("RNG state must be a torch.ByteTensor")
        if not new_state.is_contiguous():
            raise RuntimeError("RNG state must be contiguous")
        if new_state.numel() != STATE_LAYOUT.itemsize:
            raise RuntimeError(f"Expected a CPUGeneratorImplState of size {STATE_LAYOUT.itemsize} but found "
                               f"the input RNG state size to be {new_state.numel()}")
        state = np.frombuffer(new_state._data.tobytes(), STATE_LAYOUT)[0]
        left, next_ = int(state["left"]), int(state["next"]) & 0xFFFFFFFF
        if not (state["seeded"] and 0 < left <= STATE_WORDS and next_ <= STATE_WORDS):
            raise RuntimeError("Invalid mt19937 state")
        self._seed, self._left, self._next = int(state["the_initial_seed"]), left, next_
        self._words = state["state"].astype(np.uint32)        # the low 32 bits of each, as PyTorch
        self._next_double_normal = float(state["normal_y"]) if state["normal_is_valid"] else None
        self._next_float_normal = (np.float32(state["next_float_normal_sample"])
                                  if state["is_next_float_normal_sample_valid"] else None)
        return self

    def __repr__(self):
        return f"<torch._C.Generator object at {id(self):#x}>"


default_generator = Generator()
default_generator.seed()           # PyTorch seeds it from the operating system too


def generator_or_default(generator, function="random function"):
    """The generator to draw from: ``generator``, or the default one; PyTorch's error for another object."""
    if generator is None:
        return default_generator
    if not isinstance(generator, Generator):
        raise TypeError(f"{function}() received an invalid combination of arguments - got "
                        f"generator={type(generator).__name__}, but expected torch.Generator")
    return generator


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
