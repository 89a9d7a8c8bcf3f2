"""The answer key's known differences from PyTorch 2.13, as docs/buildtrack.md lists them ("Where the answer
key differs from PyTorch", both editions). Each test runs the program on the answer key and on PyTorch and
holds the difference the page describes: when the key is mended, its test fails, and the page's item goes.
(The last item, numbers that differ in the last bit, depends on the CPU's vector instructions: not held.)
"""
import gc
import pathlib
import sys
import weakref

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "notebooks"))
from buildtrack.package import ANSWER_KEY, load  # noqa: E402

torch = pytest.importorskip("torch")


@pytest.fixture
def key():
    return load(ANSWER_KEY)


def test_a_gradient_on_its_way_keeps_its_formulas_dtype(key):
    def retained(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = x * 2
        y.retain_grad()
        (y * lib.tensor([1.0, 1.0], dtype=lib.float64)).sum().backward()
        return str(y.grad.dtype), str(x.grad.dtype)
    assert retained(torch) == ("torch.float32", "torch.float32")
    assert retained(key) == ("torch.float64", "torch.float32")


@pytest.mark.parametrize("name", ["exp", "tanh", "sigmoid"])
def test_a_saved_result_lives_until_the_garbage_collector_runs(key, name):
    def freed_at_once(lib, make):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = make(x)
        ref = weakref.ref(y)
        del y
        at_once = ref() is None
        gc.collect()
        return at_once, ref() is None
    key_make = {"exp": lambda x: x.exp(), "tanh": lambda x: x.tanh(),
                "sigmoid": lambda x: key.custom.Sigmoid.apply(x)}[name]
    assert freed_at_once(torch, lambda x: getattr(torch, name)(x)) == (True, True)
    assert freed_at_once(key, key_make) == (False, True)


def test_a_number_before_a_tensor_takes_no_gradient_place(key):
    def run(lib, base, gradients):
        class Scale(base):
            @staticmethod
            def forward(ctx, k, a):
                return a * k if lib is torch else lib.Tensor(a._data * k)

            @staticmethod
            def backward(ctx, grad):
                return gradients(grad)
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        Scale.apply(2.0, x).sum().backward()
        return x.grad.tolist()
    assert run(torch, torch.autograd.Function, lambda g: (None, g * 2)) == [2.0, 2.0]
    assert run(key, key.Function, lambda g: g * 2) == [2.0, 2.0]
    with pytest.raises(RuntimeError, match="incorrect number of gradients"):
        run(key, key.Function, lambda g: (None, g * 2))


def test_the_version_of_a_grad_summed_in_the_input_buffer(key):
    def version(lib):
        w = lib.tensor([1.0, -2.0], requires_grad=True)
        (w * w).sum().backward()
        return w.grad._version
    assert version(torch) == 1
    assert version(key) == 0

