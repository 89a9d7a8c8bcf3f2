"""Grad modes: no_grad, enable_grad, set_grad_enabled, inference_mode.

As context managers and as decorators (with and without parentheses),
nested, restored after exceptions, and thread-local, as in PyTorch
(torch/autograd/grad_mode.py). Every expectation here is PyTorch 2.13's
behaviour.
"""
import threading

import pytest

import mini_autograd as torch


@pytest.fixture(autouse=True)
def grad_mode_is_restored():
    """Every test starts and must end in the default modes."""
    assert torch.is_grad_enabled() and not torch.is_inference_mode_enabled()
    yield
    enabled, inference = torch.is_grad_enabled(), torch.is_inference_mode_enabled()
    torch.set_grad_enabled(True)
    assert enabled, "a test left grad mode off"
    assert not inference, "a test left inference mode on"


def leaf():
    return torch.tensor([1.0, 2.0], requires_grad=True)


def modes():
    return torch.is_grad_enabled(), torch.is_inference_mode_enabled()


# ------------------------------------------------------------------ defaults
def test_defaults():
    assert torch.is_grad_enabled() is True
    assert torch.is_inference_mode_enabled() is False
    x = leaf()
    assert (x * 2).requires_grad
    assert not x.is_inference() and not (x * 2).is_inference()


# ------------------------------------------------------------------- no_grad
def test_no_grad_context_manager():
    x = leaf()
    with torch.no_grad():
        assert not torch.is_grad_enabled()
        y = x * 2
        assert not y.requires_grad and y.grad_fn is None and y.is_leaf
        assert not y.is_inference()
        assert x.requires_grad                     # leaves keep their flag
    assert torch.is_grad_enabled()
    assert (x * 2).requires_grad


def test_no_grad_decorator_with_parentheses():
    @torch.no_grad()
    def double(t, factor=2):
        """doc"""
        return t * factor, torch.is_grad_enabled()

    y, enabled = double(leaf(), factor=3)
    assert not enabled and not y.requires_grad
    assert y.tolist() == [3.0, 6.0]
    assert double.__name__ == "double" and double.__doc__ == "doc"
    assert torch.is_grad_enabled()


def test_no_grad_decorator_without_parentheses():
    @torch.no_grad
    def double(t):
        return t * 2, torch.is_grad_enabled()

    y, enabled = double(leaf())
    assert not enabled and not y.requires_grad
    assert double.__name__ == "double"
    assert torch.is_grad_enabled()


def test_no_grad_decorator_on_a_method():
    class Model:
        scale = 4.0

        @torch.no_grad()
        def predict(self, t):
            return t * self.scale

    y = Model().predict(leaf())
    assert not y.requires_grad and y.tolist() == [4.0, 8.0]


def test_no_grad_decorated_function_called_repeatedly_and_recursively():
    @torch.no_grad()
    def countdown(n):
        assert not torch.is_grad_enabled()
        return 0 if n == 0 else 1 + countdown(n - 1)

    assert countdown(5) == 5
    assert countdown(2) == 2
    assert torch.is_grad_enabled()


def test_no_grad_decorates_generator_functions():
    """PyTorch wraps generators so the mode holds only while the generator body runs."""

    @torch.no_grad()
    def gen():
        yield torch.is_grad_enabled()
        yield torch.is_grad_enabled()

    g = gen()
    assert next(g) is False
    assert torch.is_grad_enabled()
    assert next(g) is False


def test_backward_works_inside_no_grad():
    x = torch.tensor(2.0, requires_grad=True)
    y = x ** 3
    with torch.no_grad():
        y.backward()
        assert not torch.is_grad_enabled()
    assert x.grad.item() == 12.0


# --------------------------------------------------------------- enable_grad
def test_enable_grad_inside_no_grad():
    x = leaf()
    with torch.no_grad():
        with torch.enable_grad():
            assert torch.is_grad_enabled()
            y = x * 2
        assert not torch.is_grad_enabled()
        z = x * 2
    assert y.requires_grad and y.grad_fn.name() == "MulBackward0"
    assert not z.requires_grad


def test_enable_grad_decorators():
    @torch.enable_grad
    def bare(t):
        return t * 2

    @torch.enable_grad()
    def called(t):
        return t * 2

    with torch.no_grad():
        assert bare(leaf()).requires_grad
        assert called(leaf()).requires_grad
        assert not torch.is_grad_enabled()


# ---------------------------------------------------------- set_grad_enabled
def test_set_grad_enabled_as_context_manager():
    x = leaf()
    with torch.set_grad_enabled(False):
        assert not torch.is_grad_enabled()
        assert not (x * 2).requires_grad
    assert torch.is_grad_enabled()
    with torch.no_grad():
        with torch.set_grad_enabled(True):
            assert torch.is_grad_enabled()
            assert (x * 2).requires_grad
        assert not torch.is_grad_enabled()


def test_set_grad_enabled_as_function_call_takes_effect_at_once():
    try:
        torch.set_grad_enabled(False)
        assert not torch.is_grad_enabled()
        assert not (leaf() * 2).requires_grad
    finally:
        torch.set_grad_enabled(True)
    assert torch.is_grad_enabled()
    assert (leaf() * 2).requires_grad


def test_set_grad_enabled_with_a_flag_variable():
    for is_train in (True, False):
        with torch.set_grad_enabled(is_train):
            assert (leaf() * 2).requires_grad is is_train
    assert torch.is_grad_enabled()


def test_set_grad_enabled_as_decorator():
    @torch.set_grad_enabled(False)
    def off():
        return torch.is_grad_enabled()

    assert torch.is_grad_enabled()          # decorating does not switch the mode
    assert off() is False
    assert torch.is_grad_enabled()


def test_set_grad_enabled_true_as_decorator_inside_no_grad():
    with torch.no_grad():
        @torch.set_grad_enabled(True)
        def on():
            return torch.is_grad_enabled()

        assert not torch.is_grad_enabled()
        assert on() is True
        assert not torch.is_grad_enabled()


# ------------------------------------------------------------ inference_mode
def test_inference_mode_context_manager():
    x = leaf()
    with torch.inference_mode():
        assert modes() == (False, True)
        t = torch.ones(2)
        y = x * 2
    assert modes() == (True, False)
    assert t.is_inference() and y.is_inference()
    assert not y.requires_grad and y.grad_fn is None
    assert not x.is_inference()
    assert not torch.ones(2).is_inference()


def test_inference_mode_decorators():
    @torch.inference_mode
    def bare():
        return modes(), torch.ones(1)

    @torch.inference_mode()
    def called():
        return modes(), torch.ones(1)

    for fn in (bare, called):
        state, t = fn()
        assert state == (False, True)
        assert t.is_inference()
        assert modes() == (True, False)


def test_inference_mode_false_is_normal_mode():
    @torch.inference_mode(False)
    def normal():
        return modes(), torch.ones(1)

    state, t = normal()
    assert state == (True, False) and not t.is_inference()
    with torch.inference_mode(False):
        assert modes() == (True, False)
        assert (leaf() * 2).requires_grad


def test_inference_mode_false_inside_inference_mode():
    with torch.inference_mode():
        with torch.inference_mode(False):
            assert not torch.is_inference_mode_enabled()
            assert not torch.ones(1).is_inference()
        assert torch.is_inference_mode_enabled()


def test_inference_mode_false_enables_grad():
    """inference_mode(False) turns grad mode on, as c10::InferenceMode(false) does."""
    with torch.no_grad():
        with torch.inference_mode(False):
            assert modes() == (True, False)
        assert modes() == (False, False)
    with torch.inference_mode():
        with torch.inference_mode(False):
            assert modes() == (True, False)
        assert modes() == (False, True)


def test_inference_mode_ignores_enable_grad():
    """Inside inference mode nothing is recorded, even with grad mode switched back on."""
    with torch.inference_mode(), torch.enable_grad():
        assert modes() == (True, True)
        x = torch.ones(2, requires_grad=True)
        y = x * 2
        assert not y.requires_grad and y.grad_fn is None
        assert y.is_inference() and x.is_inference()


def test_views_and_detach_of_normal_tensors_in_inference_mode_are_normal():
    x = leaf()
    with torch.inference_mode():
        d = x.detach()
        s = x[0]
        p = x * 2
    assert not d.is_inference()
    assert not s.is_inference()
    assert p.is_inference()


def test_no_grad_inside_inference_mode_and_back():
    with torch.inference_mode():
        with torch.no_grad():
            assert modes() == (False, True)
        with torch.enable_grad():
            assert modes() == (True, True)
        assert modes() == (False, True)
    assert modes() == (True, False)


# --------------------------------------------------------------------- nesting
def test_deep_nesting_restores_each_level():
    trail = []
    with torch.no_grad():
        trail.append(modes())
        with torch.enable_grad():
            trail.append(modes())
            with torch.set_grad_enabled(False):
                trail.append(modes())
                with torch.inference_mode():
                    trail.append(modes())
                    with torch.enable_grad():
                        trail.append(modes())
                    trail.append(modes())
                trail.append(modes())
            trail.append(modes())
        trail.append(modes())
    trail.append(modes())
    assert trail == [(False, False), (True, False), (False, False), (False, True), (True, True),
                     (False, True), (False, False), (True, False), (False, False), (True, False)]


def test_decorated_function_inside_other_mode():
    @torch.no_grad()
    def inner():
        return modes()

    @torch.enable_grad()
    def outer():
        return modes(), inner(), modes()

    with torch.no_grad():
        assert outer() == ((True, False), (False, False), (True, False))
        assert modes() == (False, False)


# ------------------------------------------------------ restoration on errors
@pytest.mark.parametrize("make", [
    pytest.param(lambda: torch.no_grad(), id="no_grad"),
    pytest.param(lambda: torch.enable_grad(), id="enable_grad"),
    pytest.param(lambda: torch.set_grad_enabled(False), id="set_grad_enabled"),
    pytest.param(lambda: torch.inference_mode(), id="inference_mode"),
])
def test_modes_restored_after_exception_in_with_block(make):
    with torch.no_grad():
        before = modes()
        with pytest.raises(ZeroDivisionError), make():
            raise ZeroDivisionError
        assert modes() == before
    assert modes() == (True, False)


@pytest.mark.parametrize("decorator", [
    pytest.param(torch.no_grad, id="no_grad"),
    pytest.param(torch.enable_grad, id="enable_grad"),
    pytest.param(torch.inference_mode, id="inference_mode"),
])
def test_modes_restored_after_exception_in_decorated_function(decorator):
    @decorator()
    def boom():
        raise KeyError("x")

    with pytest.raises(KeyError):
        boom()
    assert modes() == (True, False)


@pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph=True")
def test_mode_restored_after_failed_backward():
    x = leaf()
    y = (x * 2).sum()
    y.backward()
    with pytest.raises(RuntimeError):
        (x * 2).backward()                  # not a scalar
    assert torch.is_grad_enabled()
    z = (x * x).sum()
    z.backward()
    with pytest.raises(RuntimeError):
        z.backward(create_graph=True)       # freed graph, inside a create_graph run
    assert torch.is_grad_enabled()


# ------------------------------------------------------------ thread locality
def run_in_thread(fn):
    result = []
    thread = threading.Thread(target=lambda: result.append(fn()))
    thread.start()
    thread.join()
    return result[0]


def test_thread_started_inside_no_grad_has_grad_enabled():
    with torch.no_grad():
        assert run_in_thread(torch.is_grad_enabled) is True
        assert run_in_thread(lambda: (leaf() * 2).requires_grad) is True
        assert not torch.is_grad_enabled()


def test_thread_started_inside_inference_mode_is_not_in_inference_mode():
    with torch.inference_mode():
        assert run_in_thread(modes) == (True, False)
        assert run_in_thread(lambda: torch.ones(1).is_inference()) is False


def test_modes_set_in_a_thread_do_not_leak_out():
    def switch_off():
        torch.set_grad_enabled(False)
        with torch.inference_mode():
            inside = modes()
        return inside, modes()

    assert run_in_thread(switch_off) == ((False, True), (False, False))
    assert modes() == (True, False)


def test_two_threads_interleaved():
    barrier = threading.Barrier(2)
    seen = {}

    def worker(name, mode):
        with torch.set_grad_enabled(mode):
            barrier.wait()
            seen[name] = (torch.is_grad_enabled(), (leaf() * 2).requires_grad)
            barrier.wait()

    threads = [threading.Thread(target=worker, args=("on", True)),
               threading.Thread(target=worker, args=("off", False))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen == {"on": (True, True), "off": (False, False)}
