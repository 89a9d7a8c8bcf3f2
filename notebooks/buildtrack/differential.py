"""Differential checks: small random programs, run on your myautograd and on mini_autograd, compared.

A step's hand-written scenarios catch the mistakes people usually make. This module
catches the rest: it writes small programs out of the pieces built so far (chains,
diamonds, a tensor used several times, broadcasting, float32 and float64, hooks,
retain_grad, several backwards, no_grad, detach, in-place changes, optimizer steps),
runs each one on both packages and compares everything a program can see: values,
gradients and their dtypes, which gradient is which tensor, the flags, node names,
the engine's order and the errors raised. mini_autograd stands for PyTorch here
(the course's tests check it against PyTorch 2.13).

hypothesis writes the programs: derandomized and without a database, so the same
code always gets the same verdict. On a difference it shrinks the program to the
smallest one that still differs, which the message shows, runnable, with both
results. Then each piece you wrote is swapped, one at a time, for the answer key's;
the piece whose swap removes the difference is named, with its step.
"""
import contextlib
import dataclasses
import functools
import hashlib
import json
import pathlib
import re
import sys
import textwrap
import warnings

import numpy as np

import mini_autograd
from ._testing import (array_of, grad_of, labels_shown, learner_prehook, node_label,
                       record_order, reference_prehook, values)
from .i18n import N_, _
from .package import Wrong
from .steps import STEPS as ALL_STEPS
from .swap import answer_key_for, answer_pieces, swapped

# ------------------------------------------------------------------ the programs
# What each step adds to the programs; a step's programs use its own features and all earlier ones.
FEATURES = {
    "03.2": {"engine", "hooks", "functions", "integers", "new_thread"},
    "03.3": {"backward"},
    "04.1": {"is_leaf", "leaf_reuse"},
    "04.2": {"retain_grad"},
    "05.1": {"accumulate"},
    "05.2": {"zero_grad"},
    "06.1": {"no_grad", "threads"},
    "06.2": {"detach"},
    "07.1": {"in_place"},
    "07.2": {"free"},
    "08.2": {"order"},
    "10.3": {"sgd"},
}
# 0-d, vectors, matrices, broadcastable ones and empty ones (drawn less often: shapes repeat).
SHAPES = [(), (3,), (2, 3), (1, 3), (2, 1), (), (3,), (2, 3), (0,), (2, 0), (1,), (1, 1)]
# The steps whose check ends with random programs: each brings something the programs can use.
STEPS = list(FEATURES)
# Steps that bring nothing new to the programs run those of a later level, with the pieces of the
# steps in between (and the code those steps rewrite) from the answer key: only your pieces up to
# the step itself are on trial.
LATER_LEVEL = {"01.1": "03.2", "01.2": "03.2", "02.1": "03.2", "02.2": "03.2", "03.1": "03.2",
               "08.1": "08.2"}


def features_for(step_id):
    found = set()
    for step, new in FEATURES.items():
        if step <= step_id:
            found |= new
    return found


@dataclasses.dataclass
class Program:
    """A program: statements (each one or more lines of Python), and the helpers it uses."""
    statements: list
    helpers: tuple = ()              # names of HELPERS, in the order they are shown

    def header(self, package="myautograd"):
        lines = [f"import {package} as torch"]
        for name in self.helpers:
            lines += HELPERS[name][package].strip().split("\n")
        return lines

    def source(self, package="myautograd"):
        lines = self.header(package)
        for statement in self.statements:
            lines += statement.split("\n")
        return "\n".join(lines)

    def first_lines(self):
        """The line of the shown program (your myautograd's) on which each statement starts."""
        number, starts = len(self.header()) + 1, []
        for statement in self.statements:
            starts.append(number)
            number += statement.count("\n") + 1
        return starts


# A thread of its own: it numbers the nodes it makes from 0 (sequence_nr) and starts with recording on.
NEW_THREAD_HELPER = """import threading
def in_new_thread(make):  # make() in a new thread: it starts with recording on
    out = []
    def run():
        try:
            out.append(make())
        except Exception as error:
            out.append(error)
    worker = threading.Thread(target=run)
    worker.start()
    worker.join()
    if isinstance(out[0], Exception):
        raise out[0]
    return out[0]"""

# Two threads: each has its own recording switch (PyTorch's GradMode is thread-local). The same text
# for both packages.
THREAD_HELPERS = """import threading
def beside_no_grad(make):  # make() here while another thread is inside no_grad
    entered, leave = threading.Event(), threading.Event()
    def other():
        try:
            with torch.no_grad():
                entered.set()
                leave.wait(5)
        finally:
            entered.set()
    worker = threading.Thread(target=other)
    worker.start()
    entered.wait(5)
    try:
        return make()
    finally:
        leave.set()
        worker.join()"""

# Helpers a program may use, for each package. The programs shown to you use myautograd's.
HELPERS = {
    "new_thread": {"myautograd": NEW_THREAD_HELPER, "mini_autograd": NEW_THREAD_HELPER},
    "threads": {"myautograd": THREAD_HELPERS, "mini_autograd": THREAD_HELPERS},
    # Until Tensor.backward exists (step 03.3) the programs call your engine directly.
    "backward": {
        "myautograd": "def backward(t):  # (until step 03.3: your engine, straight)\n"
                      "    torch.engine.run_backward(t, torch.ones_like(t))",
        "mini_autograd": "def backward(t):\n    t.backward(torch.ones_like(t))",
    },
    # A hook on a node, called with the gradient arriving there; PyTorch's is register_prehook (with
    # tuples). Where only None arrived, PyTorch calls it with None, and so does your engine from step 08.2
    # on (step 08.2's check holds that): these programs leave such calls out, on both sides.
    "prehook": {
        "myautograd": "def prehook(node, fn):  # PyTorch: node.register_prehook, with tuples of gradients\n"
                      "    node.pre_hooks.append(lambda g: None if g is None else fn(g))"
                      "  # (None: from step 08.2 on)\n"
                      "seen = []  # what the hooks saw",
        "mini_autograd": "def prehook(node, fn):\n"
                         "    def on_tuple(grads):\n"
                         "        if grads[0] is None:\n"
                         "            return None\n"
                         "        new = fn(grads[0])\n"
                         "        return None if new is None else (new,)\n"
                         "    node.register_prehook(on_tuple)\n"
                         "seen = []",
    },
    # Two Functions whose backward sends None: to its only input, or to its second one. (Where only
    # None arrives, your engine runs no backward; PyTorch would call it with zeros, unless told not to.)
    "block": {
        "myautograd": "class Block(torch.Function):  # its backward sends no gradient back\n"
                      "    @staticmethod\n"
                      "    def forward(ctx, a):\n"
                      "        return torch.Tensor(a._data * 1.0)\n"
                      "    @staticmethod\n"
                      "    def backward(ctx, grad):\n"
                      "        return None",
        "mini_autograd": "class Block(torch.autograd.Function):\n"
                         "    @staticmethod\n"
                         "    def forward(ctx, a):\n"
                         "        ctx.set_materialize_grads(False)\n"
                         "        return a * 1.0\n"
                         "    @staticmethod\n"
                         "    def backward(ctx, grad):\n"
                         "        return None",
    },
    "pick": {
        "myautograd": "class Pick(torch.Function):  # a + b, whose backward sends no gradient to b\n"
                      "    @staticmethod\n"
                      "    def forward(ctx, a, b):\n"
                      "        return torch.Tensor(a._data + b._data)\n"
                      "    @staticmethod\n"
                      "    def backward(ctx, grad):\n"
                      "        return grad, None",
        "mini_autograd": "class Pick(torch.autograd.Function):\n"
                         "    @staticmethod\n"
                         "    def forward(ctx, a, b):\n"
                         "        ctx.set_materialize_grads(False)\n"
                         "        return a + b\n"
                         "    @staticmethod\n"
                         "    def backward(ctx, grad):\n"
                         "        return grad, None",
    },
    # The order the engine runs the nodes in (the check names each node with the line that made it; this
    # shorter version with the name that holds its tensor, so that two nodes of one kind print apart).
    "run_order": {
        "myautograd": "def run_order(out):  # a hook on every node, noting the order they run in\n"
                      "    def label(node):  # MulBackward0 of t2, AccumulateGrad of a\n"
                      "        held = [name for name, value in globals().items() if value is getattr(node, "
                      "'variable', None) or getattr(value, 'grad_fn', None) is node]\n"
                      "        return node.name().split('::')[-1] + (' of ' + held[0] if held else '')\n"
                      "    names, stack, hooked = [], [out.grad_fn], set()\n"
                      "    while stack:\n"
                      "        node = stack.pop()\n"
                      "        if node is not None and node not in hooked:\n"
                      "            hooked.add(node)\n"
                      "            node.pre_hooks.append(lambda g, name=label(node): names.append(name))\n"
                      "            stack += [next_node for next_node, _ in node.next_functions]\n"
                      "    return names",
        "mini_autograd": "",
    },
}


def _number(value, code=True):
    if not np.isfinite(value):                  # inf, -inf and nan, as Python writes them (code) or says them
        return f"float('{value}')" if code else f"{value}"
    if value == 0 and np.signbit(value):
        return "-0.0"
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return text if text not in ("-0", "") else "0.0"


def _literal(values, code=True):
    """Numbers as a program writes them (``code``), or as a message shows them."""
    if np.ndim(values) == 0:
        return _number(float(values), code)
    return "[" + ", ".join(_literal(v, code) for v in values) + "]"


def _broadcast(a, b):
    try:
        return np.broadcast_shapes(a, b)
    except ValueError:
        return None


@functools.cache
def _integers(low, high):
    """One strategy object per range, made once: hypothesis draws from a strategy it has seen faster."""
    from hypothesis import strategies as st
    return st.integers(low, high)


@functools.cache
def _choice(options):
    from hypothesis import strategies as st
    return st.sampled_from(options)


@functools.cache
def _booleans():
    from hypothesis import strategies as st
    return st.booleans()


@functools.cache
def _numbers(size):
    """``size`` integers from -8 to 8: a tensor's numbers, in quarters once divided by 4."""
    from hypothesis import strategies as st
    return st.lists(_integers(-8, 8), min_size=size, max_size=size)


def programs(step_id):
    """A hypothesis strategy: programs made of what ``step_id`` and the steps before it built."""
    from hypothesis import strategies as st
    features = features_for(step_id)

    @st.composite
    def program(draw):
        statements, tensors = [], {}          # name -> (shape, requires grad, leaf)
        helpers = ["backward"] if "engine" in features and "backward" not in features else []
        extra_saves, base_of = set(), {}
        leaf_uses = {}                        # before step 04.1 a leaf is used once (see below)
        consumed = set()                      # tensors some operation used
        count = draw(_integers(1, 3))
        dtype = draw(_choice(("float32", "float64")))     # one dtype: no type promotion
        for i in range(count):
            name = "abc"[i]
            shape = draw(_choice(tuple(SHAPES)))
            requires = draw(_booleans()) if i else True
            size = int(np.prod(shape))
            numbers = draw(_numbers(size))
            offset = draw(_choice((0.125, 0.0)))            # 0.0: zeros among the values
            scale = draw(_choice((1.0, 1.0, 1.0, 100.0)))   # 100: exp overflows, logs of big numbers
            array = ((np.array(numbers, dtype=float) / 4 + offset) * scale).reshape(shape)
            flag = ", requires_grad=True" if requires else ""
            made = f"{name} = torch.tensor({_literal(array)}, dtype=torch.{dtype}{flag})"
            if "no_grad" in features and draw(_integers(0, 5)) == 0:
                made = "with torch.no_grad():  # a leaf made here still requires grad\n    " + made
            statements.append(made)
            tensors[name] = (shape, requires, True)
            if "retain_grad" in features and requires and draw(_integers(0, 5)) == 0:
                statements.append(f"{name}.retain_grad()  # a leaf: nothing changes")
        names = list(tensors)
        # Block and Pick, or in-place changes, not both before step 08.2: where only None arrives PyTorch
        # still runs the node, which unpacks what it saved first (and raises if it was changed in place or
        # freed); your engine skips such a node until step 08.2 asks for that.
        with_functions = "functions" in features and ("in_place" not in features or draw(_booleans()))
        apart = with_functions and "order" not in features
        if "integers" in features and draw(_integers(0, 4)) == 0:
            statements += _integer_statements(draw, features)

        def usable(n):
            """Before step 04.1 (one AccumulateGrad per leaf) a leaf that requires grad is used once:
            until then a new AccumulateGrad per use, each storing a copy, is what the steps ask for."""
            shape, requires, leaf = tensors[n]
            return "leaf_reuse" in features or not (leaf and requires and n in "abc") or not leaf_uses.get(n)

        def use(n):
            leaf_uses[n] = leaf_uses.get(n, 0) + 1
            consumed.add(n)
            return n

        def may_change_in_place():
            """Not a tensor that only myautograd saves (see extra_saves), nor a detached twin of one
            (it shares its version counter)."""
            return [n for n in names if n not in extra_saves and base_of.get(n) not in extra_saves]

        for j in range(draw(_integers(1, 6))):
            target = f"t{j + 1}"
            kind = draw(_choice(("add", "mul", "sub", "scale", "pow", "exp", "sum", "mean",
                                 "matmul", "sum_dim", "log", "tanh", "reuse", "block", "pick")))
            choices = [n for n in names if usable(n)] or names
            u = choices[draw(_integers(0, len(choices) - 1))]
            v = choices[draw(_integers(0, len(choices) - 1))]
            su, ru, _leaf_u = tensors[u]
            sv, rv, _leaf_v = tensors[v]
            expression = None
            twice_allowed = u != v or "leaf_reuse" in features or not tensors[u][2]   # (see usable)
            if kind in ("add", "mul", "sub") and twice_allowed and _broadcast(su, sv) is not None:
                symbol = {"add": "+", "mul": "*", "sub": "-"}[kind]
                expression, shape, requires = f"{use(u)} {symbol} {use(v)}", _broadcast(su, sv), ru or rv
                if kind == "mul":
                    # PyTorch saves a for a * b only when b's gradient is wanted; myautograd always does.
                    # An in-place change of a would then stop only myautograd's backward: leave a alone.
                    extra_saves.update(x for x, other in ((u, rv), (v, ru)) if not other)
            elif kind == "matmul" and u != v and len(su) == 2 and len(sv) == 2 and su[1] == sv[0]:
                expression, shape, requires = f"{use(u)} @ {use(v)}", (su[0], sv[1]), ru or rv
                extra_saves.update(x for x, other in ((u, rv), (v, ru)) if not other)
            elif kind == "pick" and with_functions and u != v and _broadcast(su, sv) is not None:
                expression, shape, requires = f"Pick.apply({use(u)}, {use(v)})", _broadcast(su, sv), ru or rv
                helpers.append("pick")
            elif kind == "block" and with_functions:
                expression, shape, requires = f"Block.apply({use(u)})", su, ru
                helpers.append("block")
            elif kind == "reuse" and not tensors[u][2]:          # a node used three times
                expression, shape, requires = f"{use(u)} * {u} + {u}", su, ru
            elif kind == "pow":
                exponent = draw(_choice((2, 3, 0, -1, 0.5)))
                base = use(u)
                if exponent == 0.5:
                    # At -0.0 PyTorch's kernel takes x ** -0.5 as 1 / sqrt(x) = -inf, numpy's pow gives +inf:
                    # a sign no learner's formula should have to copy. -0.0 + 0.0 is 0.0.
                    base = f"({base} + 0.0)"
                expression, shape, requires = f"{base} ** {exponent}", su, ru
            elif kind in ("exp", "log", "tanh"):
                expression, shape, requires = f"{use(u)}.{kind}()", su, ru
            elif kind in ("sum", "mean") and su != ():    # (not of a 0-d tensor: see _scalar)
                expression, shape, requires = f"{use(u)}.{kind}()", (), ru
            elif kind == "sum_dim" and len(su) == 2 and su != (1, 1):
                # (Not over a dimension of size 1: PyTorch's backward then hands a leaf a view of the gradient
                # it got, which its AccumulateGrad keeps as .grad: a gradient passed in would change with it.)
                dims = [k for k in (0, 1) if su[k] != 1]
                dim, keep = dims[draw(_integers(0, len(dims) - 1))], draw(_booleans())
                shape = tuple(1 if k == dim else n for k, n in enumerate(su)) if keep else \
                    tuple(n for k, n in enumerate(su) if k != dim)
                expression, requires = f"{use(u)}.sum(dim={dim}, keepdim={keep})", ru
            else:
                factor = draw(_choice((2.0, -0.5, 3.0)))
                # (PyTorch's x * 2.0 saves no tensor; myautograd's makes 2.0 a tensor and saves x,
                # which an in-place change of x would then trip over: with in-place ops, add instead.)
                symbol = "+" if "in_place" in features else "*"
                if draw(_booleans()):
                    expression = f"{use(u)} {symbol} {_number(factor)}"
                else:
                    expression = f"{_number(factor)} {symbol} {use(u)}"
                shape, requires = su, ru
            statement = f"{target} = {expression}"
            # (One new thread per program: two would number their nodes alike, and PyTorch's ready queue keeps
            # no order among nodes with the same sequence_nr.)
            new_thread_free = "new_thread" not in helpers
            if "threads" in features and draw(_integers(0, 9)) == 0:
                if draw(_booleans()) or not new_thread_free:     # recorded: other threads' no_grad isn't ours
                    helpers.append("threads")
                    statement = f"{target} = beside_no_grad(lambda: {expression})"
                else:                        # recorded: made in a thread of its own, which records
                    helpers.append("new_thread")
                    statement = f"with torch.no_grad():\n    {target} = in_new_thread(lambda: {expression})"
            elif "new_thread" in features and new_thread_free and draw(_integers(0, 7)) == 0:
                helpers.append("new_thread")     # its nodes numbered from 0 again, after this thread's
                statement = f"{target} = in_new_thread(lambda: {expression})"
            elif "no_grad" in features and draw(_integers(0, 5)) == 0:
                nested = draw(_booleans())
                inner = f"        {statement}" if nested else f"    {statement}"
                statement = ("with torch.no_grad():\n    with torch.no_grad():\n" + inner if nested
                             else "with torch.no_grad():\n" + inner)
                requires = False
            tensors[target] = (shape, requires, not requires)
            names.append(target)
            statements.append(statement)
            if "retain_grad" in features and requires and draw(_integers(0, 3)) == 0:
                statements.append(f"{target}.retain_grad()")
            if "retain_grad" in features and draw(_integers(0, 7)) == 0:       # a leaf used already
                used_leaves = [n for n in "abc" if n in consumed and tensors[n][1]]
                if used_leaves:
                    statements.append(f"{draw(_choice(tuple(used_leaves)))}.retain_grad()  # a leaf: nothing "
                                      "changes")
            if "detach" in features and draw(_integers(0, 6)) == 0:
                detached = f"d{j + 1}"
                statements.append(f"{detached} = {target}.detach()")
                tensors[detached] = (shape, False, True)
                base_of[detached] = base_of.get(target, target)
                names.append(detached)
            if "in_place" in features and not apart and may_change_in_place() \
                    and draw(_integers(0, 5)) == 0:
                victim = draw(_choice(tuple(may_change_in_place())))
                method = draw(_choice(("add_(1.0)", "mul_(2.0)", "sub_(0.5)", "mul_(1.0)", "zero_()")))
                if draw(_booleans()):
                    statements.append(f"with torch.no_grad():\n    {victim}.{method}")
                else:
                    statements.append(f"{victim}.{method}")
            if "no_grad" in features and draw(_integers(0, 9)) == 0:
                statements.append("torch.no_grad()  # made, never entered: changes nothing")
        # the loss: a scalar that requires grad, if any tensor does
        candidates = [n for n in names if tensors[n][1]]
        if not candidates:
            return Program(statements, tuple(dict.fromkeys(helpers)))
        last = candidates[-1]
        if "backward" in features and tensors[last][0] != () and draw(_booleans()):
            loss = last                                   # non-scalar: backward(gradient)
            shape = tensors[last][0]
            if draw(_integers(0, 7)) == 0:              # a gradient of another shape: refused
                shape = draw(_choice(((1,) + shape, shape[1:] or (2,), (5,))))
            # of the tensor's dtype, mostly; else cast to it
            seed_dtype = draw(_choice((dtype, dtype, dtype, "float32", "float64", "int64")))
            gradient = np.arange(int(np.prod(shape)), dtype=float).reshape(shape) - 1
            gradient = gradient if seed_dtype == "int64" else gradient / 2
            if seed_dtype != "int64" and gradient.size and draw(_integers(0, 5)) == 0:
                flat = gradient.reshape(-1)         # inf, nan and -0.0 arriving from upstream
                flat[:3] = np.array([np.inf, np.nan, -0.0])[:flat.size][::draw(_choice((1, -1)))]
            statements.append(f"g = torch.tensor({_literal(gradient)}, dtype=torch.{seed_dtype})")
            seed = "g"
        else:                                  # every result nothing used since flows into the loss
            loss = "loss"
            sinks = [n for n in candidates if n not in consumed] or [last]
            statements.append("loss = " + " + ".join(_scalar(n, tensors[n][0]) for n in sinks))
            extra_saves.update(n for n in sinks if int(np.prod(tensors[n][0])) == 1)   # (n * 1.0: see above)
            seed = None
        if "hooks" in features:
            for node_name in draw(st.lists(_choice(tuple(candidates)), max_size=2)):
                if tensors[node_name][2]:                 # a leaf: no grad_fn to hook
                    continue
                kind = draw(_choice(("observe", "replace", "return_none")))
                helpers.append("prehook")
                hook = {"observe": "lambda g: seen.append(g.sum().item())",
                        "replace": "lambda g: g * 2.0",
                        "return_none": "lambda g: None"}[kind]
                statements.append(f"prehook({node_name}.grad_fn, {hook})")
                if "retain_grad" in features and draw(_integers(0, 2)) == 0:   # (PyTorch runs its hook first)
                    statements.append(f"{node_name}.retain_grad()")
        if "order" in features:
            helpers.append("run_order")
            statements.append(f"order = run_order({loss})")
        times = draw(_integers(1, 3)) if "accumulate" in features else 1
        for k in range(times):
            last_call = k == times - 1
            retain = "" if last_call and ("free" in features and draw(_booleans())) else "retain_graph=True"
            if "backward" in helpers:
                call = f"backward({loss})"
            elif seed is not None:                 # (retain_graph=True unless freeing is what is tested:
                call = f"{loss}.backward({seed}{', ' + retain if retain else ''})"   # before step 07.2
            else:                                   # your engine frees nothing, PyTorch's does)
                call = f"{loss}.backward({retain})"
            statements.append(call)
            if "accumulate" in features and not last_call and draw(_booleans()):
                keeping = ["a"] + [n for n in names if n not in "abc" and tensors[n][1] and
                                   any(line == f"{n}.retain_grad()" for line in statements)]
                kept = draw(_choice(tuple(keeping)))
                statements.append(f"first_grad = {kept}.grad")
                if kept == "a" and draw(_booleans()):
                    statements.append("first_numbers = a.grad.numpy()  # shares a.grad's memory")
            if "in_place" in features and not last_call and not apart and may_change_in_place() \
                    and draw(_integers(0, 3)) == 0:
                statements.append(f"with torch.no_grad():\n    {draw(_choice(tuple(may_change_in_place())))}"
                                  f".add_(1.0)  # between two backwards")
            if "zero_grad" in features and not last_call and draw(_integers(0, 2)) == 0:
                none = draw(_booleans())
                statements.append(f"torch.optim.SGD([{', '.join(n for n in 'abc' if n in tensors)}], lr=0.1)"
                                  f".zero_grad(set_to_none={none})")
        # (Not with Block or Pick before step 08.2: a node that only None reaches is skipped by your engine,
        # where PyTorch runs it, and its first act, unpacking what it saved, raises once the graph was freed.)
        if "free" in features and draw(_integers(0, 3)) == 0 and not apart:
            statements.append(f"{loss}.backward()  # once more, after the graph was freed")
        if "detach" in features and "a" in tensors and tensors["a"][1] and draw(_integers(0, 5)) == 0:
            statements += ["late = a.detach()  # after backward: no .grad, a leaf of its own",
                           "late.requires_grad_()",
                           "(late * 2.0).sum().backward()" if tensors["a"][0] else "(late * 2.0).backward()"]
        if "sgd" in features:
            params = ", ".join(n for n in "abc" if n in tensors and tensors[n][1])
            statements.append(f"torch.optim.SGD([{params}], lr=0.1).step()")
        if "in_place" in features and not apart and may_change_in_place() \
                and draw(_integers(0, 3)) == 0:
            statements.append(f"{draw(_choice(tuple(may_change_in_place())))}.add_(1.0)  # after backward")
        return Program(statements, tuple(dict.fromkeys(helpers)))

    return program()


def _scalar(name, shape):
    """``t.sum()``, or ``t * 1.0`` for a 0-d ``t`` (``(t * 1.0).sum()`` for one element in more dimensions):
    PyTorch 2.13's SumBackward0 hands on a view of the gradient it got when that view has the input's layout
    (a 0-d tensor, or one element), and its AccumulateGrad keeps that view as .grad. Then ``a.sum() +
    c.sum()`` of two such leaves gives a.grad and c.grad one memory, and a second backward adds twice into
    it (a.grad 3 instead of 2). mini_autograd does not copy that slip, and the programs stay clear of it."""
    if shape == ():
        return f"{name} * 1.0"
    return f"({name} * 1.0).sum()" if int(np.prod(shape)) == 1 else f"{name}.sum()"


def _integer_statements(draw, features):
    """An integer tensor: its operations are never recorded, and it cannot require grad."""
    statements = ["i = torch.tensor([1, 2, 3])", f"j = i {draw(_choice(('* 2', '+ i', '- 1')))}"]
    if draw(_booleans()):
        statements.append("k = torch.tensor([1, 2], requires_grad=True)  # integers cannot require grad")
    if "detach" in features and draw(_booleans()):
        statements.append(draw(_choice(("i.requires_grad_(False)", "i.requires_grad_()"))))
    return statements


# --------------------------------------------------------------- running them
def run_order_helper(torch, namespace, made_by):
    """``run_order(out)``: hooks that record the order the engine runs out's nodes in (chapter 08's check),
    each node named with the line that made it: two nodes can share a name."""
    prehook = learner_prehook if hasattr(torch, "engine") and hasattr(torch, "custom") else reference_prehook
    return lambda out: record_order(out, prehook, label=lambda node: node_label(node, namespace, made_by))


IN_PLACE_REFUSAL = "myautograd records no in-place operations: use them under no_grad"


def _refused_in_place(namespace, statement, torch):
    """mini_autograd (and PyTorch) record an in-place change of a non-leaf; myautograd refuses it
    (step 07.1)."""
    if "with torch.no_grad" in statement or "_(" not in statement or "\n" in statement:
        return False
    name = statement.split(".", 1)[0].strip()
    t = namespace.get(name)
    return (t is not None and getattr(t, "requires_grad", False) and t.grad_fn is not None
            and torch.is_grad_enabled())


def run(program, torch, features=frozenset()):
    """Everything ``program`` shows when ``torch`` is the package: a dict, comparable between packages.

    ``torch`` is myautograd, mini_autograd or PyTorch itself (which takes mini_autograd's helpers).
    Errors are keyed by the line of the program as shown (your myautograd's version of it).
    """
    name = "myautograd" if hasattr(torch, "engine") and hasattr(torch, "custom") else "mini_autograd"
    made_by = {}                                       # t2 -> "t2 = a * b": names for the nodes
    namespace = {"torch": torch}
    with _fresh_grad_mode(torch), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for helper in program.helpers:
            exec(_compiled(HELPERS[helper][name]), namespace)
        namespace["run_order"] = run_order_helper(torch, namespace, made_by)
        seen, stopped_midway = {}, False
        for line, statement in zip(program.first_lines(), program.statements, strict=True):
            if name == "mini_autograd" and _refused_in_place(namespace, statement, torch):
                seen[f"line {line}"] = f"RuntimeError: {_words(RuntimeError(IN_PLACE_REFUSAL))}"
                continue
            assignment = re.match(r"\s*(\w+) = (.+)$", statement.split("\n")[-1])
            if assignment:
                made_by[assignment.group(1)] = assignment.group(0).strip()
            try:
                exec(_compiled(statement), namespace)
            except NotImplementedError:
                raise
            except Exception as error:                        # an error is an output too
                seen[f"line {line}"] = f"{type(error).__name__}: {_words(error)}"
                stopped_midway = stopped_midway or "backward(" in statement
        seen["recording on at the end"] = torch.is_grad_enabled()
        # Which nodes still hold their saved tensors, unless an error stopped a backward halfway (where it
        # stopped depends on the engine's order, PyTorch's only from step 08.2), or a node that only None
        # reached may have been skipped (PyTorch runs it, and frees it: step 08.2 asks for that).
        compare_saved = "free" in features and not any(key.startswith("line ") for key in seen) and (
            "order" in features or not {"block", "pick"} & set(program.helpers))
        # Which .grad a backward that raised halfway had written depends on the order it ran the nodes in:
        # PyTorch's only from step 08.2 on.
        partial = stopped_midway and "order" not in features
        seen.update(_observe(namespace, torch, features, compare_saved, partial))
    return seen


@functools.lru_cache(maxsize=4096)
def _compiled(source):
    """A statement compiled once: a cold check runs the same statements on several packages."""
    return compile(source, "<string>", "exec")


def _words(error):
    text = str(error)
    return text[:60] + ("..." if len(text) > 60 else "")


@contextlib.contextmanager
def _fresh_grad_mode(torch):
    """Recording on before and after a program, whatever a wrong engine left behind."""
    torch.set_grad_enabled(True)
    try:
        yield
    finally:
        torch.set_grad_enabled(True)


def _observe(namespace, torch, features, compare_saved=False, partial=False):
    found, objects, arrays = {}, {}, {}
    for name, value in namespace.items():
        if partial and name.startswith("first_"):          # a .grad kept from a backward that raised
            continue
        if isinstance(value, np.ndarray):                  # numbers taken out with .numpy()
            arrays[name] = value
            found[name] = ("values", values(value), str(value.dtype))
            continue
        if not isinstance(value, torch.Tensor):
            if name == "seen" and isinstance(value, list):       # numbers the hooks saw, in order
                found[name] = ("values", np.asarray(value, dtype=float), "numbers")
            elif name == "order" and isinstance(value, list):
                found[name] = value
            continue
        objects[name] = value
        found[name] = ("values", values(value), str(value.dtype))
        found[f"{name}.requires_grad"] = bool(value.requires_grad)
        found[f"{name}.is_leaf"] = value.is_leaf if "is_leaf" in features else value.grad_fn is None
        if "retain_grad" in features:
            found[f"{name}.retains_grad"] = bool(value.retains_grad)
        found[f"{name}.grad_fn"] = None if value.grad_fn is None else value.grad_fn.name()
        if name[0] in "abcdt" or name == "loss":     # (not a .grad kept under another name)
            found[f"{name}._version"] = value._version
        if compare_saved and value.grad_fn is not None:
            found[f"{name}.grad_fn's saved tensors"] = _saved_state(value.grad_fn)
        grad = grad_of(value)
        if partial:
            found[f"{name}.grad"] = NOT_COMPARED
        elif grad is None:
            found[f"{name}.grad"] = None
        else:
            objects[f"{name}.grad"] = grad
            found[f"{name}.grad"] = ("values", values(grad), str(grad.dtype))
    # which of these are one and the same tensor (a .grad handed out twice, a .grad kept across backwards)
    groups = {}
    for name, value in objects.items():
        groups.setdefault(id(value), []).append(name)
    found["the same tensor"] = sorted(sorted(g) for g in groups.values() if len(g) > 1)
    # which share their numbers without being one tensor (detach(); numpy(); a gradient not copied)
    memory = {name: array_of(value) for name, value in objects.items()}
    memory.update(arrays)
    found["sharing memory"] = _sharing(memory, groups)
    return found


NOT_COMPARED = "(not compared)"


def _saved_state(node):
    """"freed" or "kept": what a node holds of the tensors its forward saved. The two packages save
    different things for some operations (myautograd's x * 2.0 saves x, PyTorch's saves nothing), so a
    node that saves nothing is not compared."""
    if hasattr(node, "release_saved"):                 # myautograd: release_saved() sets saved = None
        saved = getattr(node, "saved", ())
        if saved is None:
            return "freed"
        return "kept" if saved else NOT_COMPARED
    if hasattr(node, "_saved"):                        # mini_autograd: SavedTensor slots, marked freed
        saved = [slot for slot in node._saved if slot is not None]
        if not saved:
            return NOT_COMPARED
        return "freed" if any(slot.freed for slot in saved) else "kept"
    # PyTorch: each saved tensor has a _raw_saved_<name>; reading _saved_<name> once freed raises
    # (a custom Function's node has _raw_saved_tensors; the programs' Block and Pick save nothing)
    names = [attribute[len("_raw_saved_"):] for attribute in dir(node)
             if attribute.startswith("_raw_saved_") and attribute != "_raw_saved_tensors"]
    if not names:
        return NOT_COMPARED
    for name in names:
        try:
            getattr(node, "_saved_" + name)
        except RuntimeError as error:               # freed, or changed in place since it was saved
            if "a second time" in str(error):
                return "freed"
    return "kept"


def _sharing(memory, groups):
    """Pairs of names whose arrays overlap in memory, between different tensors (empty ones never do)."""
    same = {name: key for key, names in groups.items() for name in names}
    names = [n for n, a in memory.items() if isinstance(a, np.ndarray) and a.size]
    pairs = []
    for i, first in enumerate(names):
        for second in names[i + 1:]:
            if first in same and same.get(first) == same.get(second):
                continue                                   # one tensor under two names: counted above
            if np.shares_memory(memory[first], memory[second]):
                pairs.append(f"{first} and {second}")
    return pairs


def _equal(mine, theirs):
    if NOT_COMPARED in (mine, theirs):
        return True
    if isinstance(mine, tuple) and isinstance(theirs, tuple) and mine[:1] == theirs[:1] == ("values",):
        return (mine[2] == theirs[2] and mine[1].shape == theirs[1].shape
                and _same_numbers(mine[1], theirs[1]))
    return mine == theirs


def _same_numbers(mine, theirs):
    """Equal up to rounding, and exactly where rounding plays no part: nan where nan is, and the sign of
    every zero (``(x * -0.0).backward()`` leaves ``x.grad`` -0.0 in PyTorch, and a gradient made as zeros
    and then added to holds 0.0)."""
    if mine.tobytes() == theirs.tobytes():                  # (the same bits: the usual case, fast)
        return True
    if not np.allclose(mine, theirs, rtol=1e-4, atol=1e-5, equal_nan=True):
        return False
    zeros = (mine == 0) & (theirs == 0)
    return bool(np.array_equal(np.signbit(mine[zeros]), np.signbit(theirs[zeros])))


SAVED_STATES = {"freed": N_("freed"), "kept": N_("kept")}


def _show(value, key=""):
    if value == "(missing)":
        if key.startswith("line "):
            return _("no error")
        return _("nothing (the line that makes it raised an error, or never ran)")
    if isinstance(value, tuple) and value[:1] == ("values",):
        if value[2] == "numbers":
            return _literal(np.round(value[1], 4), code=False)
        return f"{_literal(np.round(value[1], 4), code=False)} ({value[2].replace('torch.', '')})"
    if key == "order" and isinstance(value, list) and all(isinstance(label, str) for label in value):
        return labels_shown(value)
    if key == "sharing memory" and isinstance(value, list) and all(
            isinstance(pair, str) and " and " in pair for pair in value):
        pairs = [pair.split(" and ", 1) for pair in value]
        return "[" + ", ".join(repr(_("{first} and {second}").format(first=first, second=second))
                               for first, second in pairs) + "]"
    if isinstance(value, str) and value in SAVED_STATES:
        return repr(_(SAVED_STATES[value]))
    return repr(value)


def _what(key):
    """What a program's result is called, in a message: ``line 7``, ``a.grad``, ``the same tensor``."""
    if key.startswith("line "):
        return _("line {number}").format(number=key[5:])
    if key.endswith(".grad_fn's saved tensors"):
        return _("{node}'s saved tensors").format(node=key[:-len("'s saved tensors")])
    named = {"the same tensor": N_("the same tensor"), "sharing memory": N_("sharing memory"),
             "recording on at the end": N_("recording on at the end")}
    return _(named[key]) if key in named else key


def differences(mine, theirs):
    """``[(what, yours, the reference's)]`` for everything that differs."""
    found = []
    for key in list(theirs) + [k for k in mine if k not in theirs]:
        a, b = mine.get(key, "(missing)"), theirs.get(key, "(missing)")
        if not _equal(a, b):
            found.append((key, _show(a, key), _show(b, key)))
    # what stopped the program first (your code outside its lines, then errors by line), then the rest
    found.sort(key=lambda item: (item[0] != "error", not item[0].startswith("line "),
                                 int(item[0][5:]) if item[0].startswith("line ") else 0))
    return found


# ------------------------------------------------------------------- culprits
def culprit(program, package, level, up_to_step, reference_result):
    """``(qualified name, step)`` of the piece, up to ``up_to_step``, whose answer-key version makes
    ``program`` (of ``level``) agree, or None. Only pieces the program runs are candidates."""
    called = _functions_called(program, package, features_for(level))
    for file, qualified, step in answer_pieces(up_to_step):
        if (file, qualified) not in called:
            continue
        try:
            with swapped(package, file, qualified):
                agrees = not differences(_safe_run(program, package, features_for(level)),
                                         reference_result)
        except Exception:
            continue
        if agrees:
            return qualified, step
    return None


def _functions_called(program, package, features):
    """``{(file, qualified name)}`` of your package's functions that run while ``program`` runs."""
    directory = pathlib.Path(package.__file__).resolve().parent
    called, codes = set(), {}

    def note(frame, event, arg):
        if event == "call":
            code = frame.f_code
            if code not in codes:
                path = pathlib.Path(code.co_filename)
                codes[code] = ((path.name, getattr(code, "co_qualname", code.co_name))
                               if path.parent == directory else None)
            if codes[code] is not None:
                called.add(codes[code])

    previous = sys.getprofile()
    sys.setprofile(note)
    try:
        _safe_run(program, package, features)
    finally:
        sys.setprofile(previous)
    return called


def _safe_run(program, package, features):
    """``run`` on your package; an error outside the program's lines (reading its results) is a result."""
    try:
        return run(program, package, features)
    except Exception as error:
        return {"error": f"{type(error).__name__}: {_words(error)}"}


# ------------------------------------------------------------------- the check
EXAMPLES = 60
SEED = 26          # hypothesis' seed: the same programs for every test function (derandomize alone derives
                   # one from the function), so the search that explains a difference finds the one seen
DRAWN_AFRESH = False    # True: every level's programs drawn from SEED now, programs.json unused (draw_afresh)
SHRINK_TRIES = 150      # programs hypothesis may try to make a differing one smaller (a count, not a
                        # time: the same code gets the same message on any machine)


class _EnoughShrinking(BaseException):
    """Ends hypothesis' search once SHRINK_TRIES programs were tried after the first that differed."""


def check_step(package, the_step, explain=True):
    """The random programs of ``the_step`` (a ``steps.Step``), if it has any."""
    if the_step.id in STEPS:
        check(package, the_step.id, explain=explain)
    elif the_step.id in LATER_LEVEL:
        level = LATER_LEVEL[the_step.id]
        between = [s for s in ALL_STEPS.values() if the_step.id < s.id <= level]
        pieces = {(file, name) for file, name, _ in answer_pieces(level, after_step=the_step.id)}
        pieces |= {piece for s in between for piece in s.rewritten()}
        with answer_key_for(package, pieces):
            check(package, level, on_trial=the_step.id, explain=explain)


def check(package, step_id, examples=EXAMPLES, on_trial=None, explain=True):
    """Run ``examples`` random programs of ``step_id``'s level on ``package`` and on mini_autograd.

    Raises ``Wrong`` with the smallest differing program, both results and the piece at fault,
    looked for among the pieces of the steps up to ``on_trial`` (``step_id`` by default). hypothesis
    never speaks for itself: whatever it raises, the verdict rests on the programs that differed.
    ``explain=False``: a ``Wrong`` marked ``unexplained`` as soon as a program differs, nothing more.
    """
    features = features_for(step_id)
    first_failure = next(((program, found, theirs) for program, theirs in reference_runs(step_id, examples)
                          if (found := differences(_safe_run(program, package, features), theirs))), None)
    if first_failure is None:
        return                                       # the usual case: no hypothesis run at all
    if not explain:
        error = Wrong(_("a random program gives a different result on your myautograd"))
        error.differential, error.unexplained, error.first_failure = True, True, first_failure
        raise error
    from hypothesis import HealthCheck, given, seed, settings      # (only now: importing it takes 0.2 s)
    failures, tried_since = [], []

    @seed(SEED)
    @settings(database=None, derandomize=True, max_examples=examples, deadline=None,
              suppress_health_check=list(HealthCheck), print_blob=False)
    @given(programs(step_id))
    def agrees(program):
        if failures:
            tried_since.append(program)
            if len(tried_since) > SHRINK_TRIES:
                raise _EnoughShrinking()
        theirs = run(program, mini_autograd, features)
        found = differences(_safe_run(program, package, features), theirs)
        if found:
            failures.append((program, found, theirs))
            raise AssertionError("differs")

    try:
        agrees()
    except _EnoughShrinking:
        pass
    except Exception:       # AssertionError, or hypothesis' own (Flaky*: your code answered two ways)
        pass
    # (hypothesis may write other programs than the shipped ones: another version of it, say. Then the
    # shipped program that differed is shown, made smaller by shrink alone.)
    failures = failures or [first_failure]
    program, found, theirs = shrink(*min(failures, key=_size), package, features)
    piece = culprit(program, package, step_id, on_trial or step_id, theirs)
    error = Wrong(message(program, found, piece, later_steps_of=on_trial if on_trial != step_id else None))
    error.differential, error.culprit = True, piece
    raise error from None


@functools.cache
def reference_runs(step_id, examples):
    """``[(program, mini_autograd's result)]``: the programs of ``step_id``'s level, each run once on
    mini_autograd, once per process (the steps 01.1 to 03.1 share 03.2's). The programs come written in
    programs.json when it is current; else hypothesis writes them (the same ones: it is derandomized).
    mini_autograd's results come from reference_runs.json while mini_autograd is the one that gave them."""
    features = features_for(step_id)
    shipped = examples == EXAMPLES and not DRAWN_AFRESH
    written = shipped_programs().get(step_id) if shipped else None
    results = shipped_reference_results().get(step_id) if shipped and written else None
    if results is not None and len(results) == len(written):
        return tuple(zip(written, results, strict=True))
    return tuple((program, run(program, mini_autograd, features))
                 for program in (written or write_programs(step_id, examples)))


def draw_afresh(seed):
    """Draw every level's programs from ``seed`` from now on, not those of programs.json: the grader's way
    (``grading.py``), so that no code can be tuned to the programs the course ships."""
    global SEED, DRAWN_AFRESH
    SEED, DRAWN_AFRESH = seed, True
    reference_runs.cache_clear()


def write_programs(step_id, examples=EXAMPLES):
    """The programs hypothesis writes for ``step_id``'s level, in its order. Derandomized, it writes the
    same ones for any package until one differs (then it goes on to explain the difference)."""
    from hypothesis import HealthCheck, given, seed, settings
    written = []

    @seed(SEED)
    @settings(database=None, derandomize=True, max_examples=examples, deadline=None,
              suppress_health_check=list(HealthCheck), print_blob=False)
    @given(programs(step_id))
    def note(program):
        written.append(program)

    note()
    return written


# Writing a level's programs takes hypothesis 0.15 to 0.3 s of CPU; a cold check of a late step needs a
# dozen levels. So the programs ship written, in programs.json (tools/buildtrack_programs.py writes it,
# a test keeps it current), and are used while this file is the one that wrote them.
PROGRAMS_FILE = pathlib.Path(__file__).with_name("programs.json")


def generator_fingerprint():
    """A hash of this file: the programs in programs.json are current while it is unchanged."""
    return hashlib.sha256(pathlib.Path(__file__).read_bytes()).hexdigest()[:16]


@functools.cache
def shipped_programs():
    """``{level: [Program, ...]}`` from programs.json, or ``{}`` if it is missing or out of date."""
    try:
        shipped = json.loads(PROGRAMS_FILE.read_text())
    except (OSError, ValueError):
        return {}
    if shipped.get("generator") != generator_fingerprint() or shipped.get("examples") != EXAMPLES:
        return {}
    return {level: [Program(p["statements"], tuple(p["helpers"])) for p in programs]
            for level, programs in shipped["levels"].items()}


# mini_autograd's result of each shipped program: a third of a cold check's time was spent computing them.
# Stale (another mini_autograd, another way of running the programs) they are not used, and computed again.
REFERENCE_FILE = pathlib.Path(__file__).with_name("reference_runs.json")


def reference_fingerprint():
    """A hash of what mini_autograd's results depend on: this file, _testing.py and mini_autograd itself
    (not its pictures, mini_autograd.viz, which no program calls)."""
    digest = hashlib.sha256()
    here = pathlib.Path(__file__)
    package = pathlib.Path(mini_autograd.__file__).parent
    engine = [path for path in sorted(package.rglob("*.py")) if path.relative_to(package).parts[0] != "viz"]
    for path in [here, here.with_name("_testing.py"), *engine]:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _encoded(value):
    """A result as JSON holds it: numbers as a list (exact: JSON keeps -0.0, NaN and Infinity)."""
    if isinstance(value, tuple) and value[:1] == ("values",):
        return {"values": value[1].ravel().tolist(), "shape": list(value[1].shape), "dtype": value[2]}
    return value


def _decoded(value):
    if isinstance(value, dict) and "values" in value:
        return "values", np.array(value["values"], dtype=float).reshape(value["shape"]), value["dtype"]
    return value


@functools.cache
def shipped_reference_results():
    """``{level: [result, ...]}`` from reference_runs.json, or ``{}`` if it is missing or stale."""
    try:
        shipped = json.loads(REFERENCE_FILE.read_text())
    except (OSError, ValueError):
        return {}
    made_by = (shipped.get("reference"), shipped.get("programs"))
    if made_by != (reference_fingerprint(), generator_fingerprint()):
        return {}
    return {level: [{key: _decoded(value) for key, value in result.items()} for result in results]
            for level, results in shipped["levels"].items()}


def reference_file_text():
    """What reference_runs.json should hold: mini_autograd's result of every shipped program."""
    levels = {}
    for level, programs_ in shipped_programs().items():
        features = features_for(level)
        results = (run(program, mini_autograd, features) for program in programs_)
        levels[level] = [{key: _encoded(value) for key, value in result.items()} for result in results]
    return json.dumps({"programs": generator_fingerprint(), "reference": reference_fingerprint(),
                       "levels": levels}, separators=(",", ":")) + "\n"


def programs_file_text():
    """What programs.json should hold: every level's programs, as hypothesis writes them here."""
    levels = {level: [{"statements": p.statements, "helpers": list(p.helpers)} for p in write_programs(level)]
              for level in STEPS}
    return json.dumps({"generator": generator_fingerprint(), "examples": EXAMPLES, "levels": levels},
                      indent=1) + "\n"


def _size(failure):
    """Smaller programs first; of two the same size, the one found first (``min`` keeps it)."""
    program = failure[0]
    return len(program.statements), len(program.source())


def shrink(program, found, theirs, package, features):
    """Make the program smaller while it still differs: hypothesis shrinks the choices that made it, this
    removes what those choices could not. Each pass tries, statement by statement from the last, a simpler
    version of it (``_simpler``: a term of the loss left out, an expression taken out of its thread helper),
    then the program without it (an unused intermediate); passes repeat while one makes it smaller."""
    for _pass in range(3):
        before = program.statements
        index = len(program.statements) - 1
        while index >= 0:
            candidates = [program.statements[:index] + [simpler] + program.statements[index + 1:]
                          for simpler in _simpler(program.statements[index])]
            candidates.append(program.statements[:index] + program.statements[index + 1:])
            for statements in candidates:
                smaller = _still_differs(program, statements, package, features)
                if smaller is not None:
                    program, found, theirs = smaller
                    break
            index = min(index, len(program.statements)) - 1
        if program.statements == before:
            break
    return program, found, theirs


def _still_differs(program, statements, package, features):
    """``(program, found, theirs)`` for ``program`` made of ``statements``, if it still runs on mini_autograd
    and still differs on ``package``; else None."""
    smaller = dataclasses.replace(program, statements=statements,
                                  helpers=_helpers_needed(program.helpers, statements))
    try:
        reference_result = run(smaller, mini_autograd, features)
    except Exception:                      # the program no longer makes sense (a name it needs)
        return None
    errors = [value for value in reference_result.values() if isinstance(value, str)]
    if any(value.startswith("NameError") for value in errors):
        return None
    smaller_found = differences(_safe_run(smaller, package, features), reference_result)
    return (smaller, smaller_found, reference_result) if smaller_found else None


def _simpler(statement):
    """Simpler versions of one statement: the loss without one of its terms, an expression made here rather
    than in another thread or beside one."""
    found = []
    loss = re.fullmatch(r"loss = (.+)", statement)
    if loss and " + " in loss.group(1):
        terms = loss.group(1).split(" + ")
        found += ["loss = " + " + ".join(terms[:i] + terms[i + 1:]) for i in range(len(terms))]
    helper = re.fullmatch(r"(?:with torch\.no_grad\(\):\n    )?(\w+) = "
                          r"(?:in_new_thread|beside_no_grad)\(lambda: (.+)\)", statement)
    if helper:
        found.append(f"{helper.group(1)} = {helper.group(2)}")
    if "retain_graph=True" in statement:
        found.append(statement.replace(", retain_graph=True", "").replace("retain_graph=True", ""))
    return found


def _helpers_needed(helpers, statements):
    """The helpers that ``statements`` still call."""
    calls = {"backward": re.compile(r"(?<![.\w])backward\("), "prehook": re.compile(r"\bprehook\("),
             "block": re.compile(r"\bBlock\.apply\("), "pick": re.compile(r"\bPick\.apply\("),
             "run_order": re.compile(r"\brun_order\("),
             "threads": re.compile(r"\bbeside_no_grad\("), "new_thread": re.compile(r"\bin_new_thread\(")}
    text = "\n".join(statements)
    return tuple(h for h in helpers if calls[h].search(text))


# The comments the programs carry (HELPERS, and the statements programs() writes): a message shows them in
# the learner's language (a test checks that every comment of the programs is here).
PROGRAM_COMMENTS = (
    N_("make() here while another thread is inside no_grad"),
    N_("make() in a new thread: it starts with recording on"),
    N_("(until step 03.3: your engine, straight)"),
    N_("PyTorch: node.register_prehook, with tuples of gradients"),
    N_("what the hooks saw"),
    N_("(None: from step 08.2 on)"),
    N_("its backward sends no gradient back"),
    N_("a + b, whose backward sends no gradient to b"),
    N_("a hook on every node, noting the order they run in"),
    N_("a leaf made here still requires grad"),
    N_("a leaf: nothing changes"),
    N_("made, never entered: changes nothing"),
    N_("shares a.grad's memory"),
    N_("once more, after the graph was freed"),
    N_("after backward"),
    N_("between two backwards"),
    N_("MulBackward0 of t2, AccumulateGrad of a"),
    N_("after backward: no .grad, a leaf of its own"),
    N_("integers cannot require grad"),
)


def _comments_shown(source):
    """``source`` with the programs' comments in the learner's language (the lines stay where they are)."""
    def line(text):
        code, mark, comment = text.partition("  # ")
        return code + mark + _(comment) if mark and comment in PROGRAM_COMMENTS else text
    return "\n".join(line(text) for text in source.split("\n"))


# What a shown program prints at its end, for a result that differs: a name, or a name's attribute.
PRINTABLE = re.compile(r"[A-Za-z_]\w*(\.(grad|requires_grad|is_leaf|retains_grad|grad_fn|_version))?")


def _printed(found):
    """``print(...)`` lines that show, when the program is run, the results that differ."""
    return [f"print({what!r}, {what})" for what, _yours, _theirs in found if PRINTABLE.fullmatch(what)]


def message(program, found, piece, later_steps_of=None):
    """The verdict's words: the smallest program (numbered, with prints of what differs at its end), the
    results that differ, and the piece at fault. ``later_steps_of``: the step on trial, when the program
    comes from a later step's level (it then runs pieces of steps after it)."""
    shown = found[:3]
    source = "\n".join([program.source()] + _printed(shown))
    lines = [_("a random program gives a different result on your myautograd than on mini_autograd (which "
               "agrees with PyTorch 2.13 on this), and this is the smallest such program:"), "",
             textwrap.indent(_numbered(_comments_shown(source)), "    "), ""]
    for what, yours, reference in shown:
        if what == "error":
            lines.append(_("    running it, your myautograd raised {yours}: mini_autograd ran it to the end")
                         .format(yours=yours))
        elif IN_PLACE_REFUSAL[:40] in reference:
            lines.append(_("    {what}: yours {yours}; the rule {reference}").format(
                what=_what(what), yours=yours, reference=reference))
        else:
            lines.append(_("    {what}: yours {yours}; mini_autograd {reference}").format(
                what=_what(what), yours=yours, reference=reference))
    if any(IN_PLACE_REFUSAL[:40] in reference for _what_, _yours, reference in shown):
        lines.append(_("    (the rule: myautograd's rule (step 07.1; PyTorch records the change instead))"))
    if piece is not None:
        name, step = piece
        lines += ["", _("The piece at fault: {name} (step {step}): with the answer key's {name} "
                        "instead of yours, this program agrees.").format(name=name, step=step)]
    if later_steps_of is not None:
        lines += ["", _("(The program also runs pieces of steps after {step}, which the check took from the "
                        "answer key: run as it is, it may stop where one of them is still a stub.)")
                  .format(step=later_steps_of)]
    return "\n".join(lines)


def _numbered(source):
    """The program with its line numbers, as the message names them ("line 7")."""
    lines = source.split("\n")
    width = len(str(len(lines)))
    return "\n".join(f"{number:>{width}}  {line}" for number, line in enumerate(lines, start=1))
