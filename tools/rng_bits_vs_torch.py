"""How often mini_autograd's random floats differ from PyTorch's in their bits (needs torch installed).

    .venv/bin/python tools/rng_bits_vs_torch.py            # about 3 minutes on a 2-core machine
    .venv/bin/python tools/rng_bits_vs_torch.py --quick    # a tenth of the samples, no exhaustive pass

Where PyTorch's kernels are plain arithmetic (uniform numbers, integers, permutations,
bernoulli, the order of the draws) a difference is a bug, and the cross-checks
(tests/test_rng_vs_torch.py) look for one. This script measures the parts that compute
with ``log``, ``sin`` and ``cos`` or a fused multiply-add, over large samples:

- float32 ``randn``/``normal_`` of 16 elements and more, which PyTorch computes with the
  AVX2 polynomials of avx_mathfun.h (mini_autograd/_avx_mathfun.py). The exhaustive pass
  feeds every one of the 2^24 float32 uniforms PyTorch can draw through the logarithm
  (the angles held at 0) and through sine and cosine (the radius held at 1), by giving
  PyTorch's generator a state whose next words are chosen (``set_rng_state``);
- float64 ``randn``, of 16 elements and more and of fewer, which use the C library's
  ``log``/``log1p``, ``sin`` and ``cos``;
- ``normal_(mean, std)`` and ``uniform_(a, b)``, which round ``x * std + mean`` (or
  ``x * (b - a) + a``) once: float32 through float64, float64 through ``_distributions.fma64``.

It prints, for each, the number of elements whose bits differ out of the number compared.
"""
import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import mini_autograd  # noqa: E402
from mini_autograd import _distributions  # noqa: E402
from mini_autograd._avx_mathfun import log256_ps  # noqa: E402
from mini_autograd.random import STATE_LAYOUT  # noqa: E402

try:
    import torch
except ImportError:
    sys.exit("PyTorch is not installed: .venv/bin/pip install torch==2.13.0")


def differing(a, b):
    a, b = np.ascontiguousarray(a), np.ascontiguousarray(b)
    assert a.dtype == b.dtype and a.shape == b.shape, (a.dtype, b.dtype, a.shape, b.shape)
    bytes_a, bytes_b = a.view(np.uint8).reshape(a.size, -1), b.view(np.uint8).reshape(b.size, -1)
    return int((bytes_a != bytes_b).any(axis=1).sum())


def report(name, bad, total, seconds):
    print(f"{name:<58} {bad:>6} of {total:>10,} differ   ({seconds:.0f} s)", flush=True)


def same_program(draw, seeds):
    """Run ``draw(library)`` after manual_seed(seed) in both libraries; count differing elements."""
    bad = total = 0
    for seed in seeds:
        results = []
        for library in (torch, mini_autograd):
            library.manual_seed(seed)
            results.append(draw(library).numpy())
        bad += differing(*results)
        total += results[0].size
    return bad, total


def untemper(outputs):
    """The state words whose mt19937 outputs are ``outputs`` (the tempering undone)."""
    y = outputs.astype(np.uint64)
    y ^= y >> np.uint64(18)
    y ^= (y << np.uint64(15)) & np.uint64(0xEFC60000)
    t = y.copy()
    for _ in range(5):
        t = y ^ ((t << np.uint64(7)) & np.uint64(0x9D2C5680))
    y = t & np.uint64(0xFFFFFFFF)
    t = y.copy()
    for _ in range(3):
        t = y ^ (t >> np.uint64(11))
    return t & np.uint64(0xFFFFFFFF)


def state_drawing(words):
    """A PyTorch generator state whose next ``len(words)`` (at most 623) outputs are ``words``."""
    state = np.frombuffer(torch.get_rng_state().numpy().tobytes(), STATE_LAYOUT)[0].copy()
    state["left"], state["next"] = 624, 0            # 623 words before the next twist
    state["state"][:len(words)] = untemper(words)
    return torch.from_numpy(np.frombuffer(state.tobytes(), np.uint8).copy())


def torch_fill_of_blocks(blocks):
    """PyTorch's float32 normal_fill of the given 16-word blocks (38 blocks per generator state)."""
    out = np.empty(blocks.shape, np.float32)
    for start in range(0, len(blocks), 38):
        chunk = blocks[start:start + 38]
        torch.set_rng_state(state_drawing(chunk.reshape(-1)))
        out[start:start + 38] = torch.randn(chunk.size).numpy().reshape(chunk.shape)
    return out


def exhaustive_float32_fill():
    """Every float32 uniform through PyTorch's log (angles 0) and its sin/cos (radius exactly 1)."""
    every = np.arange(2**24, dtype=np.uint32)
    # a uniform whose radius sqrt(-2 log(1 - u)) is exactly 1 in PyTorch's float32 log
    radius_one = np.nonzero(log256_ps(1 - every.astype(np.float32) * np.float32(2.0**-24))
                            == np.float32(-0.5))[0][0]
    results = {}
    passes = (("log", lambda w: np.concatenate([w, np.zeros_like(w)], axis=1)),
              ("sin and cos", lambda w: np.concatenate([np.full_like(w, radius_one), w], axis=1)))
    for name, words_of in passes:
        start, bad, total = time.time(), 0, 0
        for first in range(0, 2**21, 2**16):
            words = words_of(every.reshape(-1, 8)[first:first + 2**16])
            mine = _distributions.normal_fill_16_float32(
                (words & 0xFFFFFF).astype(np.float32) * np.float32(2.0**-24), 0.0, 1.0)
            bad += differing(torch_fill_of_blocks(words), mine)
            total += mine.size
        results[name] = (bad, total, time.time() - start)
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of the samples, no exhaustive pass")
    args = parser.parse_args()
    scale = 0.1 if args.quick else 1.0
    seeds = range(int(40 * scale) or 1)
    torch.set_num_threads(1)
    print(f"torch {torch.__version__}, numpy {np.__version__}")
    cases = [
        ("float32 randn(100_000) (AVX2 log, sin, cos)", lambda lib: lib.randn(100_000)),
        ("float32 normal_(0.5, 3.0) on 100_000 (fma through float64)",
         lambda lib: lib.empty(100_000).normal_(0.5, 3.0)),
        ("float32 randn(15), 2,000 times (C library, cached sine)",
         lambda lib: lib.stack([lib.randn(15) for _ in range(2000)])),
        ("float64 randn(100_000) (C library log, sin, cos)",
         lambda lib: lib.randn(100_000, dtype=lib.float64)),
        ("float64 normal_(0.5, 3.0) on 100_000 (fma64)",
         lambda lib: lib.empty(100_000, dtype=lib.float64).normal_(0.5, 3.0)),
        ("float64 randn(15), 2,000 times (C library, cached sine)",
         lambda lib: lib.stack([lib.randn(15, dtype=lib.float64) for _ in range(2000)])),
        ("float32 uniform_(-0.37, 0.81) on 100_000", lambda lib: lib.empty(100_000).uniform_(-0.37, 0.81)),
        ("float64 uniform_(-3.7, 0.81) on 100_000 (fma64)",
         lambda lib: lib.empty(100_000, dtype=lib.float64).uniform_(-3.7, 0.81)),
    ]
    for name, draw in cases:
        start = time.time()
        report(name, *same_program(draw, seeds), time.time() - start)
    if not args.quick:
        for name, (bad, total, seconds) in exhaustive_float32_fill().items():
            report(f"float32 normal_fill, every uniform through {name}", bad, total, seconds)


if __name__ == "__main__":
    main()
