"""Count the numpy calls of one MLP training step, engine by engine (issue 29, item 3).

The step is benchmark 1's Tanh step (batch 256, 784 -> 256 -> Tanh -> 10, cross-entropy, SGD lr 0.01),
in the hand-written numpy step, mini_autograd, DeZero and HIPS autograd (the last two when installed;
PyTorch makes no numpy calls). Every numpy call costs its Python-to-C crossing, argument parsing and
dispatch whatever the array's size: an engine's extra calls are part of its bookkeeping. One step is run
first (a warm-up: the ``.grad`` tensors exist, caches are filled), then one step is counted.

What counts as a numpy call, seen with ``sys.setprofile``:

- a ``c_call`` event whose builtin belongs to numpy: a function of a numpy module (``np.empty``,
  ``np.array``), a method of a numpy object (``ndarray.sum``, ``ndarray.astype``, ``np.add.reduce``), or
  a ufunc (``isinstance(fn, np.ufunc)``);
- a ``call`` event of a Python function defined in numpy's own files (``np.sum``, ``np.broadcast_to``;
  ``np.dot`` and the other C functions of ``__array_function__`` announce themselves this way, through
  their Python dispatcher), except the ``*_dispatcher`` helpers that numpy calls before the function;
- a call of a ufunc (``np.add(a, b)``, ``np.tanh(x)``). Python 3.11's profiler makes no event for these
  (``c_call`` is emitted for builtin functions and method descriptors only, and a ufunc is neither), so
  while counting, every reference to a ufunc in numpy's namespace, in other packages' module globals and
  in closures (HIPS autograd's wrapped primitives keep theirs in one) is replaced by a counting wrapper
  that forwards the call and its attributes; it is put back afterwards. A ufunc reached another way (a
  ``staticmethod`` class attribute, a tuple) is not seen. The counted step is checked to compute exactly
  what a twin that is not counted computes.

Only the outermost numpy level counts: what a numpy function calls inside numpy (``ndarray.sum`` ->
``_methods._sum`` -> ``np.add.reduce``) is one call, ``ndarray.sum``. Not seen at all, because they make
no call event: array operators and indexing (``a + b``, ``a @ b``, ``a[i]``, ``a.T``, ``h += b``), which
numpy runs through the type's slots, and numpy types called as constructors (``np.float32(x)``). So the
hand-written step, written with operators, shows few calls; HIPS autograd's operators on its boxes call
``anp.add`` and friends, which are counted.

For mini_autograd, each call is also attributed to its call site: the file:line in mini_autograd/ nearest
to the call (the caller itself, or the closest frame below it in mini_autograd/), so that an engineer
can see which calls come from where, and which could go.

    python benchmarks/count_numpy_calls.py [--quick] [--json PATH]
"""
import _common

ARGS = _common.parse_args(__doc__)      # before numpy: it fixes the BLAS thread count

import collections                        # noqa: E402
import gc                                 # noqa: E402
import linecache                          # noqa: E402
import os                                 # noqa: E402
import sys                                # noqa: E402
import types                              # noqa: E402

import numpy as np                        # noqa: E402

import _peers                             # noqa: E402
import mini_autograd as mt                # noqa: E402
from _mlp import NumpyMLP, make_batch, mini_model, training_step  # noqa: E402

NUMPY_DIR = os.path.dirname(np.__file__) + os.sep
MINI_DIR = os.path.dirname(mt.__file__) + os.sep
TOP = 15


def _is_numpy_name(module_name):
    return isinstance(module_name, str) and module_name.split(".")[0] == "numpy"


def numpy_builtin_name(fn):
    """The name of ``fn`` (the argument of a ``c_call`` event) when it belongs to numpy, else None."""
    if isinstance(fn, np.ufunc):
        return f"np.{fn.__name__}"
    owner = getattr(fn, "__self__", None)
    name = getattr(fn, "__name__", "?")
    if isinstance(owner, np.ufunc):
        return f"np.{owner.__name__}.{name}"                 # np.add.reduce, np.add.at
    if isinstance(owner, types.ModuleType):
        return f"np.{name}" if _is_numpy_name(owner.__name__) else None
    if owner is not None and _is_numpy_name(type(owner).__module__):
        return f"{type(owner).__name__}.{name}"              # ndarray.sum, float32.item
    if _is_numpy_name(getattr(fn, "__module__", None)):
        return f"np.{name}"
    return None


class NumpyCallCounter:
    """Counts numpy calls at the outermost numpy level, with the call site of each."""

    def __init__(self):
        self.calls = collections.Counter()                  # numpy function -> calls
        self.sites = collections.Counter()                  # (site, caller, numpy function) -> calls
        self._inside = []                                   # per open call: is it numpy's?
        self.depth = 0                                      # open numpy calls

    def count(self, name, frame):
        self.calls[name] += 1
        site = frame
        while site is not None and not site.f_code.co_filename.startswith(MINI_DIR):
            site = site.f_back
        site = site or frame                                # outside mini_autograd: the caller itself
        self.sites[(site.f_code.co_filename, site.f_lineno, site.f_code.co_name, name)] += 1

    def _push(self, inside):
        self._inside.append(inside)
        self.depth += inside

    def _pop(self):
        if self._inside:                                   # a frame opened before counting began: ignore
            self.depth -= self._inside.pop()

    def profile(self, frame, event, arg):
        if event == "call":
            code = frame.f_code
            inside = code.co_filename.startswith(NUMPY_DIR)
            if inside and not self.depth and not code.co_name.endswith("_dispatcher"):
                self.count(f"np.{code.co_qualname}", frame.f_back)
            self._push(inside)
        elif event == "return":
            self._pop()
        elif event == "c_call":
            name = numpy_builtin_name(arg)
            if name is not None and not self.depth:
                self.count(name, frame)
            self._push(name is not None)
        elif event in ("c_return", "c_exception"):
            self._pop()


class CountedUfunc:
    """Stands in for a ufunc while counting: counts the call (at the outermost numpy level), then makes it.

    Equal to the ufunc and hashed as it, so that it is found in sets and dicts keyed by ufuncs; every
    other attribute (``__name__``, ``reduce``, ``nin``) is the ufunc's."""

    def __init__(self, ufunc, counter):
        self._ufunc, self._counter = ufunc, counter

    def __call__(self, *args, **kwargs):
        counter = self._counter
        if not counter.depth:
            counter.count(f"np.{self._ufunc.__name__}", sys._getframe(1))
        counter.depth += 1
        try:
            return self._ufunc(*args, **kwargs)
        finally:
            counter.depth -= 1

    def __getattr__(self, name):
        return getattr(self._ufunc, name)

    def __eq__(self, other):
        return other is self._ufunc or other is self

    def __hash__(self):
        return hash(self._ufunc)


def patch_ufuncs(counter):
    """Replace the references to numpy's ufuncs that the engines call through (numpy's namespace, other
    packages' module globals, closures outside numpy) by ``CountedUfunc``s; return the undo list."""
    ufuncs = {id(u): u for u in vars(np).values() if isinstance(u, np.ufunc)}
    wrappers = {key: CountedUfunc(u, counter) for key, u in ufuncs.items()}
    module_dicts = {id(vars(m)): name for name, m in list(sys.modules.items())
                    if isinstance(m, types.ModuleType)}
    undo = []
    for referrer in gc.get_referrers(*ufuncs.values()):
        if isinstance(referrer, dict):
            owner = module_dicts.get(id(referrer))
            if owner is None or (_is_numpy_name(owner) and owner != "numpy"):
                continue                                    # numpy's internals call their own ufuncs
            for key, value in list(referrer.items()):
                if id(value) in ufuncs and ufuncs[id(value)] is value:
                    referrer[key] = wrappers[id(value)]
                    undo.append((referrer, key, value))
        elif isinstance(referrer, types.CellType) and not _cell_is_numpys(referrer):
            value = referrer.cell_contents
            referrer.cell_contents = wrappers[id(value)]
            undo.append((referrer, None, value))
    return undo


def _cell_is_numpys(cell):
    """Whether the cell belongs to the closure of functions defined in numpy only."""
    owners = [f for closure in gc.get_referrers(cell) if isinstance(closure, tuple)
              for f in gc.get_referrers(closure)
              if isinstance(f, types.FunctionType) and f.__closure__ is closure]
    return bool(owners) and all(f.__code__.co_filename.startswith(NUMPY_DIR) for f in owners)


def unpatch(undo):
    for referrer, key, value in reversed(undo):
        if key is None:
            referrer.cell_contents = value
        else:
            referrer[key] = value


def count_step(step):
    """The numpy calls of one call of ``step()`` and the step's result."""
    counter = NumpyCallCounter()
    undo = patch_ufuncs(counter)
    try:
        sys.setprofile(counter.profile)
        try:
            result = step()
        finally:
            sys.setprofile(None)
    finally:
        unpatch(undo)
    return counter, result


def make_steps(batch, sizes, peers):
    """``{name: (step, twin)}``: two copies of each implementation's step from the same weights and data."""
    x_np, y_np = make_batch(batch, sizes)
    x, y = mt.tensor(x_np), mt.tensor(y_np)
    mt.manual_seed(0)
    weights = [p.detach().numpy().copy() for p in mini_model(sizes, "tanh").parameters()]

    def mini_step():
        model = mini_model(sizes, "tanh")
        with mt.no_grad():
            for param, w in zip(model.parameters(), weights, strict=True):
                param.copy_(mt.tensor(w))
        return training_step(model, mt.nn.CrossEntropyLoss(), mt.optim.SGD(model.parameters(), lr=0.01), x, y)

    def numpy_step():
        model = NumpyMLP(*weights, "tanh")
        return lambda: float(model.step(x_np, y_np, 0.01))

    makers = {"numpy": numpy_step, "mini_autograd": mini_step}
    for key, module in peers.items():
        if key in _peers.MLP_STEPS:
            makers[key] = (lambda key=key, module=module:
                           _peers.MLP_STEPS[key](module, weights, x_np, y_np, "tanh", 0.01))
    return {name: (make(), make()) for name, make in makers.items()}


def run(args):
    batch, sizes = (8, (20, 16, 4)) if args.quick else (256, (784, 256, 10))
    steps = make_steps(batch, sizes, _peers.load_all())
    results = {"batch": batch, "sizes": sizes, "implementations": {}}
    for name, (step, twin) in steps.items():
        step(), twin()                                       # the warm-up step, for both
        counter, loss = count_step(step)
        assert loss == twin(), f"{name}: the counted step computed another loss than its twin"
        sites = sorted(counter.sites.items(), key=lambda item: (item[0][0], item[0][1], -item[1]))
        results["implementations"][name] = {
            "total": sum(counter.calls.values()),
            "calls": dict(counter.calls.most_common()),
            "sites": [{"file": _relative(file), "line": line, "caller": caller, "function": function,
                       "calls": calls, "source": linecache.getline(file, line).strip()}
                      for (file, line, caller, function), calls in sites],
        }
    return results


def _relative(path):
    return os.path.relpath(path, _common.ROOT) if path.startswith(_common.ROOT) else path


def report(results):
    sizes = " -> ".join(map(str, results["sizes"][:2])) + f" -> Tanh -> {results['sizes'][2]}"
    found = results["implementations"]
    lines = [f"numpy calls in one MLP training step (batch {results['batch']}, {sizes}, cross-entropy, SGD), "
             "after one warm-up step; operators and indexing (a + b, a @ b, a[i]) are not calls and are not "
             "counted", "",
             _common.table(["implementation", "numpy calls per step", "distinct numpy functions"],
                           [(_peers.NAMES[name], r["total"], len(r["calls"])) for name, r in found.items()])]
    compared = [name for name in ("mini_autograd", _peers.HIPS) if name in found]
    tops = [list(found[name]["calls"].items())[:TOP] for name in compared]
    rows = []
    for rank in range(max(len(top) for top in tops)):
        row = [rank + 1]
        for top in tops:
            row += [f"`{top[rank][0]}`", top[rank][1]] if rank < len(top) else ["", ""]
        rows.append(row)
    header = ["#"]
    for name in compared:
        header += [f"{_peers.NAMES[name]}: function", "calls"]
    lines += ["", f"The top {TOP} numpy functions by calls", "", _common.table(header, rows)]
    rows = [(f"{site['file']}:{site['line']}", site["caller"], f"`{site['function']}`", site["calls"],
             "`" + site["source"][:70].replace("|", "\\|").replace("`", "'") + "`")
            for site in found["mini_autograd"]["sites"]]
    lines += ["", "mini_autograd's numpy calls by call site (the nearest line in mini_autograd/), "
                  "in file order",
              "", _common.table(["call site", "in", "numpy function", "calls", "line"], rows)]
    return "\n".join(lines)


if __name__ == "__main__":
    results = run(ARGS)
    _common.finish(ARGS, results, report(results))
