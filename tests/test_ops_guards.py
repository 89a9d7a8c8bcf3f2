"""Guards for the traps of adding an op: built in by where it lives, PyTorch's form of node name, one class
per node name.

A Function defined in a module of ``mini_autograd.ops`` is a built-in op (``autograd/function.py``,
``_in_builtin_package``): its node passes "no gradient" on as PyTorch's C++ nodes do, and prints as
``<MulBackward0 object ...>``. There is no list of modules to keep up to date.
"""
import collections
import re
import sys

import pytest

import mini_autograd
from mini_autograd.autograd.function import Function

# Node names of PyTorch's that are not "<Name>Backward<N>" (torch/csrc/autograd/functions/*.h and
# tools/autograd/derivatives.yaml's *_copy names).
PYTORCH_OTHER_NAMES = {"CopyBackwards", "torch::autograd::CopyBackwards", "NotImplemented",
                       "torch::autograd::NotImplemented", "DelayedError", "DiagonalBackward0_copy"}
# Node names several classes record, on purpose: PyTorch records AsStridedBackward0 for as_strided, and
# mini_autograd writes take/put and a refreshed view through as_strided too.
SHARED = {"AsStridedBackward0": {"views.AsStrided", "views.AsStridedView", "views.TakePositions",
                                 "views.PutPositions"}}
# Defined twice, saving different things under one name: none since issue 39's regrouping of ops/ kept one
# of each (GatherBackward0, IndexSelectBackward0, LogitBackward0). The test fails when one goes, so that this
# list only shrinks.
TWICE = {}
FORM = re.compile(r"[A-Z][A-Za-z0-9]*Backward[0-9]+")


def functions():
    """Every Function subclass mini_autograd's modules define (not the ones these tests plant)."""
    found, stack = [], [Function]
    while stack:
        for sub in stack.pop().__subclasses__():
            if sub.__module__.startswith("mini_autograd") and sub.__module__ in sys.modules:
                found.append(sub)
            stack.append(sub)
    return found


def _label(cls):
    return f"{cls.__module__.rsplit('.', 1)[-1]}.{cls.__qualname__}"


def _abstract(cls):
    """A base of other ops, never applied itself: no node name of its own, and subclasses that have one."""
    return "node_name" not in cls.__dict__ and any(sub.__dict__.get("node_name")
                                                   for sub in cls.__subclasses__())


def bad_names(classes):
    """``[(class label, node name)]`` of the ops whose node name is not of PyTorch's form."""
    return [(_label(cls), cls._backward_cls.__name__) for cls in classes
            if not _abstract(cls) and not FORM.fullmatch(cls._backward_cls.__name__)
            and cls._backward_cls.__name__ not in PYTORCH_OTHER_NAMES]


def shared_names(classes):
    """``{node name: {class labels}}`` for the names two or more ops record."""
    by_name = collections.defaultdict(set)
    for cls in classes:
        if not _abstract(cls):
            by_name[cls._backward_cls.__name__].add(_label(cls))
    return {name: labels for name, labels in by_name.items() if len(labels) > 1}


def test_every_function_of_ops_is_built_in_and_no_other_is():
    ops = [cls for cls in functions() if cls.__module__.startswith("mini_autograd.ops.")]
    assert len(ops) > 150
    assert all(cls._is_builtin for cls in ops), [_label(c) for c in ops if not c._is_builtin]
    assert [cls for cls in functions() if cls._is_builtin and cls not in ops] == [
        mini_autograd.autograd.function._DelayedError]          # (PyTorch's DelayedError node, declared so)


def test_a_new_module_of_ops_needs_no_list():
    """Planted: a Function defined in a module of ops that nothing lists is built in; the same class in a
    notebook (__main__) is a custom Function, and prints as PyTorch prints a custom Function's node."""
    def make(module):
        return type("Atan", (Function,), {"__module__": module, "node_name": "AtanBackward0",
                                          "forward": staticmethod(lambda ctx, x: x * 1.0),
                                          "backward": staticmethod(lambda ctx, grad: grad)})
    assert make("mini_autograd.ops.trigonometry")._is_builtin
    custom = make("__main__")
    assert not custom._is_builtin
    x = mini_autograd.tensor([1.0], requires_grad=True)
    assert "torch.autograd.function" in repr(custom.apply(x).grad_fn)


def test_every_node_name_has_pytorchs_form():
    assert bad_names(functions()) == []


def test_a_name_not_of_pytorchs_form_is_found():
    planted = type("Atan", (Function,), {"__module__": "mini_autograd.ops.trigonometry", "node_name": "Atan"})
    assert bad_names([planted]) == [("trigonometry.Atan", "Atan")]


def test_no_two_ops_share_a_node_name_unless_declared():
    shared = shared_names(functions())
    assert {name: labels for name, labels in shared.items() if name not in SHARED and name not in TWICE} == {}
    for name, labels in {**SHARED, **TWICE}.items():
        assert shared.get(name) == labels, (name, "update SHARED/TWICE in this test: the classes changed")


@pytest.mark.parametrize("name", ["MulBackward0"])
def test_a_second_class_with_a_name_is_found(name):
    planted = type("Mul2", (Function,), {"__module__": "mini_autograd.ops.planted", "node_name": name})
    assert shared_names(functions() + [planted])[name] == {"binary.Mul", "planted.Mul2"}
