"""Typical learner mistakes, planted into copies of the answer key: each step's check must name them.

Each entry: (step, file, text in the answer key, what a learner wrote instead, words the
check's message must contain). Collected from what people get wrong when they first
write an autograd engine: overwriting .grad, forgetting the upstream gradient,
broadcasting, one AccumulateGrad per use, recursion, recording inside no_grad, ...
"""


def plant(directory, file, old, new):
    """Plant a mistake in ``directory`` (a copy of the answer key): ``old`` becomes ``new`` in ``file``.
    ``old`` and ``new`` may be tuples of texts, replaced pairwise; each ``old`` must occur exactly once."""
    source = (directory / file).read_text()
    for old_text, new_text in zip(old, new, strict=True) if isinstance(old, tuple) else [(old, new)]:
        assert source.count(old_text) == 1, f"the mistake's text must occur once in {file}: {old_text!r}"
        source = source.replace(old_text, new_text)
    (directory / file).write_text(source)


# A hook's None taken as the new gradient (run_backward, step 03.2): only random programs find it.
HOOK_NONE_AS_GRADIENT = ("                new_grad = hook(grad)\n                if new_grad is not None:\n"
                         "                    if grad is None:\n                        raise RuntimeError("
                         "\"can't replace a None gradient with a non-None value\")\n"
                         "                    grad = new_grad\n", "                grad = hook(grad)\n")

MISTAKES = [
    # 01.1 the tensor's fields
    ("01.1", "tensor.py",
     '        if requires_grad and not self.dtype.is_floating_point:\n'
     '            raise RuntimeError("Only Tensors of floating point and complex dtype '
     'can require gradients")\n'
     '        self.requires_grad = requires_grad\n        self._grad = None',
     "        self.requires_grad = requires_grad\n        self._grad = None",
     "(an integer tensor) raised nothing"),
    ("01.1", "tensor.py", "        self._grad = None\n        self.grad_fn = None",
     "        self._grad = 0\n        self.grad_fn = None", ".grad is 0, expected None"),
    ("01.1", "tensor.py", "        self._grad = None\n        self.grad_fn = None\n",
     "        self._grad = None\n", "no field 'grad_fn'"),
    # 01.2 the recording rule
    ("01.2", "function.py",
     "is_grad_enabled() and any(isinstance(t, Tensor) and t.requires_grad for t in inputs)",
     "is_grad_enabled() and all(isinstance(t, Tensor) and t.requires_grad for t in inputs)",
     "one input that requires grad is enough"),
    ("01.2", "function.py", "return is_grad_enabled() and any(",
     "return any(", "check is_grad_enabled() too"),
    ("01.2", "function.py", "any(isinstance(t, Tensor) and t.requires_grad for t in inputs)",
     "any(t.requires_grad for t in inputs)", "inputs can be plain numbers"),
    # 02.1 edges
    ("02.1", "function.py", "    if tensor.grad_fn is not None:\n        return (tensor.grad_fn, 0)\n", "",
     "Check grad_fn before requires_grad"),
    ("02.1", "function.py", "    if not tensor.requires_grad:\n        return (None, 0)\n",
     "    if not tensor.requires_grad:\n        return None\n", "an edge is a pair"),
    ("02.1", "function.py", "    if not tensor.requires_grad:\n        return (None, 0)\n", "",
     "expected (None, 0): no gradient goes there"),
    # 02.2 Function.apply
    ("02.2", "function.py", "        if compute_requires_grad(*inputs):\n",
     "        if any(isinstance(t, Tensor) and t.requires_grad for t in inputs):\n",
     "with recording off, x * 3 still got a grad_fn"),
    ("02.2", "function.py", "        if compute_requires_grad(*inputs):\n", "        if True:\n",
     "c * 3, with no input that requires grad, got a grad_fn"),
    ("02.2", "function.py", "tensors = [t for t in inputs if isinstance(t, Tensor)]",
     "tensors = [t for t in inputs if isinstance(t, Tensor) and t.requires_grad]",
     "expected 2: one edge per Tensor input"),
    ("02.2", "function.py", "        result = cls.forward(ctx, *inputs)\n",
     "        result = cls.forward(BackwardFunction(cls), *inputs)\n", "the very ctx forward received"),
    ("02.2", "function.py", "            result.requires_grad = True\n", "",
     "requires_grad is not True"),
    # 03.1 backward formulas
    ("03.1", "ops.py", "return grad * b, grad * a", "return b, a", "ignores grad"),
    ("03.1", "ops.py", "return grad * result", "return grad * result * 0", "all zeros"),
    ("03.1", "ops.py", "dtype=grad._data.dtype) / n)", "dtype=grad._data.dtype))", "off by a factor of n = 6"),
    ("03.1", "ops.py", "a ** (ctx.exponent - 1)", "a ** ctx.exponent", "the power goes down by one"),
    ("03.1", "ops.py", "return grad * Tensor(np.ones(ctx.shape, dtype=grad._data.dtype))", "return grad",
     "expected [2, 3], the shape of that input"),
    ("03.1", "ops.py", "return grad @ transpose(b), transpose(a) @ grad",
     "return transpose(b) @ grad, grad @ transpose(a)", "the shapes do not fit"),
    # 03.2 the first engine
    ("03.2", "engine.py",
     "    order, visited = [], set()\n    stack = [(root, False)]\n    while stack:\n",
     "    order, visited = [], set()\n\n    def visit(node):\n"
     "        if node in visited:\n            return\n"
     "        visited.add(node)\n        for next_node, _ in node.next_functions:\n"
     "            if next_node is not None:\n                visit(next_node)\n        order.append(node)\n\n"
     "    visit(root)\n    stack = []\n    while stack:\n",
     "topological_order nested"),
    ("03.2", "engine.py",
     "buffers[next_node] = next_grad + buffers[next_node] if next_node in buffers else next_grad",
     "buffers[next_node] = next_grad", "where two paths meet"),
    ("03.2", "engine.py", "                    next_grad = sum_to(next_grad, node.input_shapes[i])\n", "",
     "b.grad has shape [2, 3], expected [3]"),
    ("03.2", "engine.py", "    grad_mode._state.grad_enabled = False\n", "",
     "recorded the backward formulas"),
    ("03.2", "engine.py", "            for hook in node.pre_hooks:\n", "            for hook in []:\n",
     "was called 0 times"),
    ("03.2", "function.py", "variable._grad = Tensor(grad_data)", "variable._grad = grad",
     "store a copy"),
    ("03.2", "engine.py",
     "    order, visited = [], set()\n    stack = [(root, False)]\n    while stack:\n",
     "    order, queue = [root], [root]\n    while queue:\n        node = queue.pop(0)\n"
     "        for next_node, _ in node.next_functions:\n"
     "            if next_node is not None and next_node not in order:\n"
     "                order.append(next_node)\n                queue.append(next_node)\n"
     "    return order\n    visited, stack = set(), []\n    while stack:\n",
     "before all of its gradients have arrived"),
    # 03.3 Tensor.backward
    ("03.3", "tensor.py", "            if self.numel() != 1:\n"
     '                raise RuntimeError("grad can be implicitly created only for scalar outputs")\n', "",
     "raised nothing; PyTorch raises RuntimeError: grad can be implicitly created only for scalar outputs"),
    ("03.3", "tensor.py", "        engine.run_backward(self, gradient, retain_graph)\n",
     "        engine.run_backward(self, ones_like(self), retain_graph)\n",
     "start from the gradient you were given"),
    ("03.3", "tensor.py", "if self.numel() != 1:", "if self.ndim != 0:", "the rule counts elements"),
    # 04.1 one AccumulateGrad per leaf
    ("04.1", "function.py",
     "    accumulator_ref = getattr(tensor, \"_grad_accumulator\", None)\n"
     "    accumulator = accumulator_ref() if accumulator_ref is not None else None\n"
     "    if accumulator is None:\n        accumulator = AccumulateGrad(tensor)\n"
     "        tensor._grad_accumulator = weakref.ref(accumulator)\n    return (accumulator, 0)",
     "    return (AccumulateGrad(tensor), 0)", "two different AccumulateGrad nodes"),
    ("04.1", "function.py",
     "    accumulator_ref = getattr(tensor, \"_grad_accumulator\", None)\n"
     "    accumulator = accumulator_ref() if accumulator_ref is not None else None\n"
     "    if accumulator is None:\n        accumulator = AccumulateGrad(tensor)\n"
     "        tensor._grad_accumulator = weakref.ref(accumulator)\n",
     "    accumulator = getattr(tensor, \"_grad_accumulator\", None)\n"
     "    if accumulator is None:\n        accumulator = AccumulateGrad(tensor)\n"
     "        tensor._grad_accumulator = accumulator\n",
     "only weakly"),
    ("04.1", "tensor.py", "        return self.grad_fn is None\n", "        return not self.requires_grad\n",
     "is_leaf is False, expected True"),
    # 04.2 retain_grad
    ("04.2", "tensor.py", "        if self.is_leaf or self.retains_grad:\n",
     "        if self.retains_grad:\n", "on a leaf raised AttributeError"),
    ("04.2", "tensor.py", "        if self.is_leaf or self.retains_grad:\n", "        if self.is_leaf:\n",
     "calling y.retain_grad() twice"),
    ("04.2", "tensor.py", "        if not self.requires_grad:\n"
     "            raise RuntimeError(\"can't retain_grad on Tensor that has requires_grad=False\")\n"
     "        if self.is_leaf or self.retains_grad:\n",
     "        if self.is_leaf or self.retains_grad:\n", "retain_grad() raised nothing"),
    # 05.1 accumulation
    ("05.1", "function.py",
     "        if variable._grad is None:\n            variable._grad = Tensor(grad_data)\n"
     "        else:\n            variable._grad._data += grad_data\n            variable._grad._version += 1\n",
     "        variable._grad = Tensor(grad_data)\n",
     "x.grad is 4, expected 8 after two backward() calls: .grad was overwritten instead of added to"),
    ("05.1", "function.py", "            variable._grad._data += grad_data\n            variable._grad._version += 1\n",
     "            variable._grad = variable._grad + Tensor(grad_data)\n", "x.grad is a new tensor"),
    # 05.2 zero_grad
    ("05.2", "optim.py",
     "        if set_to_none:\n            p.grad = None\n        else:\n            p.grad.requires_grad = False\n"
     "            p.grad._data[...] = 0\n"
     "            p.grad._version += 1\n",
     "        p.grad = None\n", "left x.grad None"),
    ("05.2", "optim.py", "            p.grad._data[...] = 0\n            p.grad._version += 1\n",
     "            p.grad = 0\n", "expected a tensor of zeros"),
    ("05.2", "optim.py", "            p.grad._data[...] = 0\n            p.grad._version += 1\n",
     "            from .creation import zeros_like\n            p.grad = zeros_like(p.grad)\n",
     "replaced x.grad by a new tensor"),
    # 06.1 no_grad
    ("06.1", "grad_mode.py", "        _state.grad_enabled = self.previous\n",
     "        _state.grad_enabled = True\n", "restore the value from before __enter__"),
    ("06.1", "grad_mode.py", "        _state.grad_enabled = self.previous\n",
     "        _state.grad_enabled = self.previous\n        return True\n", "must not return True"),
    ("06.1", "grad_mode.py", "        _state.grad_enabled = False\n", "",
     "switch recording off in __enter__"),
    # 06.2 detach and requires_grad_
    ("06.2", "tensor.py", "        detached = Tensor(self._data)\n"
     "        detached._version_counter = self._version_counter\n        return detached\n", "        return self\n",
     "returned y itself"),
    ("06.2", "tensor.py", "detached = Tensor(self._data)", "detached = Tensor(self._data.copy())",
     "copied the numbers"),
    ("06.2", "tensor.py", "detached = Tensor(self._data)",
     "detached = Tensor(self._data, requires_grad=self.requires_grad)", "cut from the graph"),
    ("06.2", "tensor.py", "        if not self.is_leaf:\n            if requires_grad:\n"
     "                return self                    # a non-leaf requires grad already\n"
     "            raise RuntimeError(NON_LEAF_REQUIRES_GRAD_ERROR)\n", "",
     "y.requires_grad_(False) for y = x * 3 raised nothing"),
    # 03.1: Pow's derivative as a ** c / a: nan at a = 0 (issue 35, a blind trial)
    ('03.1', 'ops.py', 'return grad * ctx.exponent * a ** (ctx.exponent - 1)',
     'return grad * ctx.exponent * a ** ctx.exponent / a',
     'gives 0 / 0 there'),
    # 03.2: recording off around node.apply only: the hooks run with it on (issue 35, a blind trial)
    ('03.2', 'engine.py', ('    grad_mode._state.grad_enabled = False\n    try:\n', '                next_grads = node.apply(grad)\n'),
     ('    try:\n', '                grad_mode._state.grad_enabled = False\n                try:\n                    next_grads = node.apply(grad)\n                finally:\n                    grad_mode._state.grad_enabled = previous\n'),
     'not only around node.apply'),
    # 03.2: the mode to restore kept in a module global: an inner backward overwrites it (issue 35, a blind trial)
    ('03.2', 'engine.py', ('    previous = grad_mode._state.grad_enabled\n', '        grad_mode._state.grad_enabled = previous\n'),
     ('    global _previous\n    _previous = grad_mode._state.grad_enabled\n', '        grad_mode._state.grad_enabled = _previous\n'),
     'keep the value to put back in a local variable of run_backward'),
    # 06.1: __exit__ returns a truthy value when recording was off: exceptions vanish (issue 35, a blind trial)
    ('06.1', 'grad_mode.py', '        _state.grad_enabled = self.previous\n',
     '        _state.grad_enabled = self.previous\n        return not self.previous\n',
     'with recording off before it, an exception raised inside no_grad()'),
    # 06.1: the mode to restore read in __init__, not __enter__ (issue 35, a blind trial)
    ('06.1', 'grad_mode.py', '    def __enter__(self):\n        ### BEGIN SOLUTION\n        self.previous = _state.grad_enabled\n',
     '    def __init__(self):\n        self.previous = _state.grad_enabled\n\n    def __enter__(self):\n        ### BEGIN SOLUTION\n',
     'read it in __enter__, not in __init__'),
    # 07.1: the version bumped before the write, which may fail (issue 35, a blind trial)
    ('07.1', 'tensor.py', '        self._data[...] = data\n        self._version += 1\n',
     '        self._version += 1\n        self._data[...] = data\n',
     'PyTorch bumps the version after the write succeeded'),
    # 07.1: saved_tensors as a list (issue 35, a blind trial)
    ('07.1', 'function.py', '        return tuple(tensor for tensor, _ in self.saved)\n',
     '        return [tensor for tensor, _ in self.saved]\n',
     'PyTorch gives a tuple'),
    # 07.1: save_for_backward adding to what an earlier call saved (issue 35, a blind trial)
    ('07.1', 'function.py', '        self.saved = tuple((t, None if t is None else t._version) for t in tensors)\n',
     '        self.saved = tuple(self.saved or ()) + tuple((t, None if t is None else t._version) for t in tensors)\n',
     'each call replaces what the one before saved'),
    # 07.1: nothing saved taken for freed (issue 35, a blind trial)
    ('07.1', 'function.py', '        if self.saved is None:\n            raise RuntimeError(SECOND_BACKWARD_ERROR)\n',
     '        if not self.saved:\n            raise RuntimeError(SECOND_BACKWARD_ERROR)\n',
     'only a graph freed by backward (saved is None) raises'),
    # 01.1: an empty integer tensor let through: the dtype read from the first entry (issue 35, a second trial)
    ('01.1', 'tensor.py',
     '        if requires_grad and not self.dtype.is_floating_point:\n            raise RuntimeError("Only',
     '        if requires_grad and self._data.size and not isinstance(self._data.flat[0], np.floating):\n            raise RuntimeError("Only',
     'dtype int64, not floating point'),
    # 01.2: only the first two inputs looked at (issue 35, a second trial)
    ('01.2', 'function.py',
     'any(isinstance(t, Tensor) and t.requires_grad for t in inputs)',
     'any(isinstance(t, Tensor) and t.requires_grad for t in inputs[:2])',
     'Look at every input'),
    # 02.1: the edge of a leaf made to depend on the recording mode (issue 35, a second trial)
    ('02.1', 'function.py',
     '    if not tensor.requires_grad:\n        return (None, 0)\n    accumulator_ref',
     '    if not tensor.requires_grad or not is_grad_enabled():\n        return (None, 0)\n    accumulator_ref',
     'whatever the mode'),
    # 03.3: numel() > 1: an empty result gets the implicit gradient (issue 35, a second trial)
    ('03.3', 'tensor.py',
     '            if self.numel() != 1:\n',
     '            if self.numel() > 1:\n',
     'test numel() != 1'),
    # 03.3: a 0-d gradient accepted for any shape (issue 35, a second trial)
    ('03.3', 'tensor.py',
     'if gradient is not None and gradient.shape != self.shape:',
     'if gradient is not None and gradient.ndim != 0 and gradient.shape != self.shape:',
     'a 0-d gradient is a shape like any other'),
    # 04.1: a live AccumulateGrad reused for a leaf that no longer requires grad (issue 35, a second trial)
    ('04.1', 'function.py',
     '    if not tensor.requires_grad:\n        return (None, 0)\n    accumulator_ref = getattr(tensor, "_grad_accumulator", None)\n    accumulator = accumulator_ref() if accumulator_ref is not None else None\n    if accumulator is None:\n        accumulator = AccumulateGrad(tensor)\n        tensor._grad_accumulator = weakref.ref(accumulator)\n    return (accumulator, 0)',
     '    accumulator_ref = getattr(tensor, "_grad_accumulator", None)\n    accumulator = accumulator_ref() if accumulator_ref is not None else None\n    if accumulator is not None:\n        return (accumulator, 0)\n    if not tensor.requires_grad:\n        return (None, 0)\n    accumulator = AccumulateGrad(tensor)\n    tensor._grad_accumulator = weakref.ref(accumulator)\n    return (accumulator, 0)',
     'Test requires_grad before reusing the node'),
    # 04.1: the weak reference stored only the first time (issue 35, a second trial)
    ('04.1', 'function.py',
     '    if not tensor.requires_grad:\n        return (None, 0)\n    accumulator_ref = getattr(tensor, "_grad_accumulator", None)\n    accumulator = accumulator_ref() if accumulator_ref is not None else None\n    if accumulator is None:\n        accumulator = AccumulateGrad(tensor)\n        tensor._grad_accumulator = weakref.ref(accumulator)\n    return (accumulator, 0)',
     '    if not tensor.requires_grad:\n        return (None, 0)\n    accumulator_ref = getattr(tensor, "_grad_accumulator", None)\n    accumulator = accumulator_ref() if accumulator_ref is not None else None\n    if accumulator is None:\n        accumulator = AccumulateGrad(tensor)\n        if accumulator_ref is None:\n            tensor._grad_accumulator = weakref.ref(accumulator)\n    return (accumulator, 0)',
     'keep the new one too'),
    # 04.2: retain_grad returning the tensor (issue 35, a second trial)
    ('04.2', 'tensor.py',
     ('        if self.is_leaf or self.retains_grad:\n            return\n', '        self.grad_fn.pre_hooks.insert(0, keep_grad)\n'),
     ('        if self.is_leaf or self.retains_grad:\n            return self\n', '        self.grad_fn.pre_hooks.insert(0, keep_grad)\n        return self\n'),
     "PyTorch's return None"),
    # 05.2: zero_grad skipping frozen parameters (issue 35, a second trial)
    ('05.2', 'optim.py',
     '        if p.grad is None:\n            continue\n',
     '        if p.grad is None or not p.requires_grad:\n            continue\n',
     "PyTorch's zero_grad clears every parameter"),
    # 07.2: retain_graph is False: None keeps the graph (issue 35, a second trial)
    ('07.2', 'engine.py',
     '            if not retain_graph:\n                node.release_saved()\n',
     '            if retain_graph is False:\n                node.release_saved()\n',
     'test `if not retain_graph`'),
    # 08.2: ties broken by a count that goes down (last in, first out) (issue 35, a second trial)
    ('08.2', 'engine.py',
     'heapq.heappush(ready, (-next_node.sequence_nr, next(arrivals), next_node))',
     'heapq.heappush(ready, (-next_node.sequence_nr, -next(arrivals), next_node))',
     'the tie goes to the one that arrived first'),
]

# The engine of step 03.2 (topological order, nothing freed), as a learner has it when chapter 07 starts.
ENGINE_03 = """    root, _ = gradient_edge(tensor)
    grads = {root: gradient}
    previous = grad_mode._state.grad_enabled
    grad_mode._state.grad_enabled = False
    try:
        for node in topological_order(root):
            grad = grads.pop(node, None)
            if grad is None:                   # no gradient reached it
                continue
            for hook in node.pre_hooks:
                new_grad = hook(grad)
                if new_grad is not None:
                    grad = new_grad
            for i, ((next_node, _), next_grad) in enumerate(zip(node.next_functions, node.apply(grad))):
                if next_node is None or next_grad is None:
                    continue
                next_grad = sum_to(next_grad, node.input_shapes[i])
                grads[next_node] = next_grad + grads[next_node] if next_node in grads else next_grad
    finally:
        grad_mode._state.grad_enabled = previous
"""


ENGINE_07 = ENGINE_03.replace(
    "            for i, ((next_node, _), next_grad) in "
    "enumerate(zip(node.next_functions, node.apply(grad))):\n",
    "            next_grads = node.apply(grad)\n"
    "            if not retain_graph:\n                node.release_saved()\n"
    "            for i, ((next_node, _), next_grad) in enumerate(zip(node.next_functions, next_grads)):\n")


def as_right_at(directory, step_id):
    """Rewrite ``directory`` (a copy of the answer key) into the code a learner who did each step right has
    after ``step_id``: the pieces that later steps rewrite in their earlier forms.

    - before 04.1, ``gradient_edge`` makes a new AccumulateGrad at each use (step 02.1);
    - before 05.1, AccumulateGrad stores a copy of what arrives (step 03.2), adding nothing;
    - before 07.2, the engine is step 03.2's, in topological order; before 08.2, it is that engine freeing
      what each node saved (step 07.2).
    """
    source = (directory / "function.py").read_text()
    if step_id < "04.1":
        start = source.index("    accumulator_ref = getattr(tensor, \"_grad_accumulator\", None)\n")
        end = source.index("    return (accumulator, 0)\n") + len("    return (accumulator, 0)\n")
        source = source[:start] + "    return (AccumulateGrad(tensor), 0)\n" + source[end:]
    if step_id < "05.1":
        start = source.index("        if not variable.requires_grad:")
        end = source.index("            variable._grad._version += 1\n") + len(
            "            variable._grad._version += 1\n")
        source = source[:start] + "        variable._grad = Tensor(grad._data.copy())\n" + source[end:]
    (directory / "function.py").write_text(source)
    if step_id < "08.2":
        source = (directory / "engine.py").read_text()
        start = source.index("    root, _ = gradient_edge(tensor)\n    dependencies")
        end = source.index("    ### END SOLUTION", start)
        engine = ENGINE_03 if step_id < "07.2" else ENGINE_07
        (directory / "engine.py").write_text(source[:start] + engine + source[end:])
    return directory


def engine_08():
    """The answer key's run_backward body (step 08.2)."""
    import pathlib
    root = pathlib.Path(__file__).resolve().parent.parent
    source = (root / "answers" / "myautograd" / "engine.py").read_text()
    start = source.index("    root, _ = gradient_edge(tensor)\n    dependencies")
    return source[start:source.index("    ### END SOLUTION", start)]


MISTAKES += [
    # 07.1 saved tensors and versions
    ("07.1", "function.py",
     "            if tensor is not None and tensor._version != version:\n"
     "                raise RuntimeError(modified_error(tensor, version))\n",
     "            pass\n",
     "raised nothing; PyTorch raises RuntimeError: one of the variables needed for gradient computation"),
    ("07.1", "tensor.py", "        self._version += 1\n", "", "every in-place change adds one"),
    ("07.1", "tensor.py",
     "            if self.is_leaf:\n"
     "                raise RuntimeError(\n"
     "                    \"a leaf Variable that requires grad is being used in an in-place operation.\")\n"
     "            raise RuntimeError("
     "\"myautograd records no in-place operations: use them under no_grad\")\n",
     "            pass\n", "w.add_(1.0) on a leaf that requires grad, recording on raised nothing"),
    ("07.1", "tensor.py", "        self._data[...] = data\n", "        self._data = data\n",
     "replaced x's numpy array"),
    # 07.2 freeing
    ("07.2", "engine.py", "            if not retain_graph:\n                node.release_saved()\n",
     "            node.release_saved()  # retain_graph\n",
     "With retain_graph=True the saved tensors must stay"),
    ("07.2", "tensor.py", "        engine.run_backward(self, gradient, retain_graph)\n",
     "        engine.run_backward(self, gradient, retain_graph=False)\n", "With retain_graph=True"),
    ("07.2", "engine.py",
     "                next_grads = node.apply(grad)\n"
     "            if not retain_graph:\n                node.release_saved()\n",
     "                if not retain_graph:\n                    node.release_saved()\n"
     "                next_grads = node.apply(grad)\n",
     "after it has run"),
    # 08.1 dependency counts
    ("08.1", "engine.py",
     "            dependencies[next_node] = dependencies.get(next_node, 0) + 1\n"
     "            if next_node not in seen:\n",
     "            if next_node not in seen:\n                dependencies[next_node] = 1\n",
     "count edges, not nodes"),
    ("08.1", "engine.py",
     "    dependencies, seen, stack = {}, {root}, [root]\n"
     "    while stack:\n        node = stack.pop()\n",
     "    dependencies, seen = {}, {root}\n\n    def visit(node):\n"
     "        for next_node, _ in node.next_functions:\n"
     "            if next_node is None:\n                continue\n"
     "            dependencies[next_node] = dependencies.get(next_node, 0) + 1\n"
     "            if next_node not in seen:\n                seen.add(next_node)\n"
     "                visit(next_node)\n    visit(root)\n"
     "    stack = []\n    while stack:\n        node = stack.pop()\n",
     "compute_dependencies nested"),
    # 08.2 the ready queue
    ("08.2", "engine.py",
     ("            _, _, node = heapq.heappop(ready)\n",
      "                    heapq.heappush(ready, (-next_node.sequence_nr, next(arrivals), next_node))\n"),
     ("            _, _, node = ready.pop(0)\n",
      "                    ready.append((-next_node.sequence_nr, next(arrivals), next_node))\n"),
     "first-in-first-out"),
    ("08.2", "engine.py", "                if dependencies[next_node] == 0:\n",
     "                if next_node in buffers:\n", "ran more than once"),
    ("08.2", "engine.py", ("    ready = [(-root.sequence_nr, next(arrivals), root)]\n",
                           "heapq.heappush(ready, (-next_node.sequence_nr, next(arrivals), next_node))"),
     ("    ready = [(root.sequence_nr, next(arrivals), root)]\n",
      "heapq.heappush(ready, (next_node.sequence_nr, next(arrivals), next_node))"), "highest sequence_nr"),
]

# Not mistakes: pieces still as a learner has them before the step. The check says "not done yet".
SAVED_TENSORS_07 = """        if self.saved is None:
            raise RuntimeError(SECOND_BACKWARD_ERROR)
        for tensor, version in self.saved:
            if tensor is not None and tensor._version != version:
                raise RuntimeError(modified_error(tensor, version))
        return tuple(tensor for tensor, _ in self.saved)
"""

MISTAKES += [  # issue 35: a rewrite for step 07.2 that has begun (it uses retain_graph) but empties saved
    ("07.2", "engine.py", engine_08(), ENGINE_07.replace("node.release_saved()", "node.saved = ()"),
     "Trying to backward through the graph a second time"),
]

NOT_STARTED = [
    ("07.1", "function.py",
     ("        self.saved = tuple((t, None if t is None else t._version) for t in tensors)\n", SAVED_TENSORS_07),
     ("        self.saved = tensors\n", "        return self.saved\n"),
     "rewrite BackwardFunction.save_for_backward"),
    ("07.2", "engine.py", engine_08(), ENGINE_03, "run_backward does not use release_saved yet"),
    ("08.2", "engine.py", engine_08(), ENGINE_07, "run_backward does not use compute_dependencies yet"),
]

MISTAKES += [
    # 10.1 Linear
    ("10.1", "nn.py", "creation.uniform(-bound, bound, (out_features, in_features))",
     "creation.uniform(-bound, bound, (in_features, out_features))", "expected [30, 400]"),
    ("10.1", "nn.py",
     "self.weight = Parameter(creation.uniform(-bound, bound, (out_features, in_features)))",
     "self.weight = Parameter(creation.randn(out_features, in_features))", "beyond k = 1/sqrt(400)"),
    ("10.1", "nn.py", "        return x @ transpose(self.weight) + self.bias\n",
     "        return x @ transpose(self.weight)\n", "expected x @ weightᵀ + bias"),
    # 10.2 cross_entropy
    ("10.2", "nn.py", ("    picked = (one_hot(targets, classes) * log_probs).sum()\n    return (0.0 - picked) / n\n"),
     ("    picked = (one_hot(targets, classes) * log_probs).sum()\n    return 0.0 - picked\n"), "average over the batch"),
    ("10.2", "nn.py", ("    picked = (one_hot(targets, classes) * log_probs).sum()\n    return (0.0 - picked) / n\n"),
     ("    picked = (one_hot(targets, classes) * log_probs).sum()\n    return picked / n\n"), "sign flipped"),
    # 10.2: minus as -picked: a loss of 0 (one class) is -0.0, PyTorch's nll_loss gives 0.0 (issue 35)
    ("10.2", "nn.py", "    return (0.0 - picked) / n\n", "    return -picked / n\n", "0.0 - picked, not -picked"),
    ("10.2", "nn.py", "    shifted = logits - logits.max(dim=1, keepdim=True)\n", "    shifted = logits\n",
     "exp(1000) overflows"),
    # 10.3 SGD
    ("10.3", "optim.py",
     "        with no_grad():\n            for p in self.parameters:\n"
     "                if p.grad is not None:\n                    p.sub_(self.lr * p.grad)\n",
     "        for p in self.parameters:\n"
     "            if p.grad is not None:\n                p.sub_(self.lr * p.grad)\n",
     "inside `with no_grad():`"),
    ("10.3", "optim.py", "                    p.sub_(self.lr * p.grad)\n",
     "                    p.add_(self.lr * p.grad)\n", "climbs the gradient"),
    ("10.3", "optim.py", "                    p.sub_(self.lr * p.grad)\n",
     "                    p = p - self.lr * p.grad\n", "Rebinding a name"),
    ("10.1", "nn.py", "        self.bias = Parameter(creation.uniform(-bound, bound, (out_features,)))\n",
     "        self.bias = Parameter(creation.uniform(0.0, 0.0, (out_features,)))\n", "does not start at zero"),
    ("10.1", "nn.py",
     "        self.weight = Parameter(creation.uniform(-bound, bound, (out_features, in_features)))\n"
     "        self.bias = Parameter(creation.uniform(-bound, bound, (out_features,)))\n",
     "        self.bias = Parameter(creation.uniform(-bound, bound, (out_features,)))\n"
     "        self.weight = Parameter(creation.uniform(-bound, bound, (out_features, in_features)))\n",
     "draw the weight first"),
    # 11.1 gradcheck
    ("11.1", "gradcheck.py",
     "                for t in inputs:\n"
     "                    t.grad = None\n"
     "                seed = zeros_like(output)\n",
     "                seed = zeros_like(output)\n", "clear the inputs' .grad"),
    ("11.1", "gradcheck.py", "                flat[j] = original\n", "", "put each nudged entry back"),
    ("11.1", "gradcheck.py", "            if not np.allclose(analytical, numerical, rtol=rtol, atol=atol):\n",
     "            if False:\n", "it must raise GradcheckError"),
    ("11.1", "gradcheck.py", "        for t, grad in zip(inputs, grads_before, strict=True):\n"
                             "            t.grad = grad\n",
     "        pass\n", "leaves .grad as it found it"),
    ("11.1", "gradcheck.py", "        for t, grad in zip(inputs, grads_before, strict=True):\n"
                             "            t.grad = grad\n",
     "        for t in inputs:\n"
     "            t.grad = None\n", "leaves .grad as it found it"),
    # 11.2 a custom Function
    ("11.2", "custom.py", "        return grad * s * (1 - s)\n", "        return s * (1 - s)\n",
     "ignores grad"),
    ("11.2", "custom.py", "        ctx.save_for_backward(result)\n", "        ctx.save_for_backward(a)\n",
     "the derivative is s * (1 - s) with s the result"),
]

MISTAKES += [
    ("07.1", "function.py", "        self.saved = tuple((t, None if t is None else t._version) for t in tensors)\n",
     "        self.saved = tuple((t, 0) for t in tensors)\n",
     "save the version a tensor has when it is saved"),
    ("08.1", "engine.py",
     "            if next_node not in seen:\n                seen.add(next_node)\n"
     "                stack.append(next_node)\n",
     "            stack.append(next_node)\n", "must be walked once"),
]

MISTAKES += [
    ("10.1", "nn.py", "        return x @ transpose(self.weight) + self.bias\n",
     "        return Tensor(x._data @ self.weight._data.T + self.bias._data)\n",
     "not with numpy"),
    ("10.2", "nn.py", "shifted.exp().sum(dim=1, keepdim=True).log()", "shifted.exp().sum(dim=1).log()",
     "keepdim=True"),
    ("10.2", "nn.py", "    log_probs = shifted - shifted.exp().sum(dim=1, keepdim=True).log()\n",
     "    log_probs = (shifted.exp() / shifted.exp().sum(dim=1, keepdim=True)).log()\n",
     "not log(softmax)"),
    ("10.3", "optim.py",
     "                if p.grad is not None:\n                    p.sub_(self.lr * p.grad)\n",
     "                p.sub_(self.lr * p.grad)\n", "must be skipped"),
    ("11.1", "gradcheck.py", "                raise GradcheckError(", "                raise RuntimeError(",
     "raise GradcheckError"),
    ("11.1", "gradcheck.py", "            flat = tensor._data.reshape(-1)\n",
     "            flat = tensor._data.flatten()\n", "flatten() a copy"),
    ("11.2", "custom.py",
     "        result = Tensor(1 / (1 + np.exp(-a._data)))\n"
     "        ctx.save_for_backward(result)\n        return result\n",
     "        ctx.save_for_backward(a)\n        return 1 / (1 + np.exp(-a._data))\n",
     "wrap the numpy result in a Tensor"),
]

MISTAKES += [  # issue 18: wrong code that once got a ✅
    # 01.1: the dtype test without the requires_grad test: tensor(2) can no longer be made
    ("01.1", "tensor.py", "        if requires_grad and not self.dtype.is_floating_point:\n            raise RuntimeError(\"Only",
     "        if not self.dtype.is_floating_point:\n            raise RuntimeError(\"Only", "tensor(2)"),
    # 01.2: a list instead of True/False
    ("01.2", "function.py",
     "return is_grad_enabled() and any(isinstance(t, Tensor) and t.requires_grad for t in inputs)",
     "return is_grad_enabled() and [t for t in inputs if isinstance(t, Tensor) and t.requires_grad]",
     "True or False"),
    # 02.2: every input marked as requiring grad
    ("02.2", "function.py", "            result.requires_grad = True\n",
     "            result.requires_grad = True\n            for t in tensors:\n                t.requires_grad = True\n",
     "c.requires_grad"),
    # 11.1: only the first input checked
    ("11.1", "gradcheck.py", "        for i, tensor in enumerate(checked):\n", "        for i, tensor in enumerate(checked[:1]):\n",
     "second input"),
    # 03.1: Pow.backward multiplies the incoming gradient in place
    ("03.1", "ops.py", "        return grad * ctx.exponent * a ** (ctx.exponent - 1)\n",
     "        grad._data *= ctx.exponent * a._data ** (ctx.exponent - 1)\n        return grad\n",
     "changed the gradient it was given"),
    # 03.1: Sum.backward with float64 ones
    ("03.1", "ops.py", "return grad * Tensor(np.ones(ctx.shape, dtype=grad._data.dtype))",
     "return grad * Tensor(np.ones(ctx.shape))", "float64"),
    # 03.2: pre-order depth-first listing
    ("03.2", "engine.py", ("        node, children_listed = stack.pop()\n        if children_listed:",
                           "    return order[::-1]"),
     ("        node, children_listed = stack.pop()\n        if False:", "    return order"),
     "topological_order"),
    # 03.2: no try/finally around the grad-mode switch
    ("03.2", "engine.py", ("    try:\n        while ready:", "    finally:\n        grad_mode._state.grad_enabled = previous\n"),
     ("    if True:\n        while ready:", "    grad_mode._state.grad_enabled = previous\n"), "recording"),
    # 03.2: True restored instead of the previous value
    ("03.2", "engine.py", "        grad_mode._state.grad_enabled = previous\n",
     "        grad_mode._state.grad_enabled = True\n", "recording"),
    # 03.2: arriving gradients added in place
    ("03.2", "engine.py",
     "buffers[next_node] = next_grad + buffers[next_node] if next_node in buffers else next_grad",
     "buffers[next_node]._data += next_grad._data if next_node in buffers else 0\n"
     "                    buffers.setdefault(next_node, next_grad)", "run_backward"),
    # 03.2: a hook's None taken as the new gradient
    ("03.2", "engine.py", *HOOK_NONE_AS_GRADIENT, "run_backward"),
    # 04.2: retain_grad's hook overwrites instead of adding
    ("04.2", "tensor.py", "kept._grad = Tensor(grad._data.copy()) if kept._grad is None else kept._grad + grad",
     "kept._grad = Tensor(grad._data.copy())", "accumulates like a leaf"),
    # 06.1: recording switched off when no_grad() is made, not when entered
    ("06.1", "grad_mode.py", "    def __enter__(self):\n        ### BEGIN SOLUTION\n        self.previous = _state.grad_enabled\n        _state.grad_enabled = False\n",
     "    def __init__(self):\n        self.previous = _state.grad_enabled\n        _state.grad_enabled = False\n\n    def __enter__(self):\n        ### BEGIN SOLUTION\n        pass\n",
     "no_grad"),
    # 06.1: toggling
    ("06.1", "grad_mode.py", "        self.previous = _state.grad_enabled\n        _state.grad_enabled = False\n",
     "        self.previous = _state.grad_enabled\n        _state.grad_enabled = not _state.grad_enabled\n",
     "no_grad"),
    # 07.1: no refusal for a non-leaf changed in place while recording
    ("07.1", "tensor.py", "            raise RuntimeError(\"myautograd records no in-place operations: use them under no_grad\")\n",
     "            pass\n", "in-place"),
    # 08.2: a stack instead of the heap
    ("08.2", "engine.py", ("            _, _, node = heapq.heappop(ready)", "heapq.heappush(ready, (-next_node.sequence_nr, next(arrivals), next_node))"),
     ("            _, _, node = ready.pop()", "ready.append((-next_node.sequence_nr, next(arrivals), next_node))"),
     "ran"),
    # 10.3: .grad scaled in place
    ("10.3", "optim.py", "                    p.sub_(self.lr * p.grad)",
     "                    p.grad.mul_(self.lr)\n                    p.sub_(p.grad)", "grad"),
    # 10.3: no version bump
    ("10.3", "optim.py", "                    p.sub_(self.lr * p.grad)",
     "                    p._data -= self.lr * p.grad._data", "version"),
    # 11.2: custom sigmoid multiplies grad in place
    ("11.2", "custom.py", "        return grad * s * (1 - s)",
     "        grad._data *= s._data * (1 - s._data)\n        return grad", "changed the gradient"),
]

# Issue 26, chapters 10 and 11: kept in a file of their own.
from buildtrack_mistakes_ch10_11 import MISTAKES as _MISTAKES_CH10_11  # noqa: E402

MISTAKES += _MISTAKES_CH10_11

MISTAKES += [  # issue 26: wrong code that once got a ✅ (chapters 03 to 08), and the answer key's own slips
    # 03.1: the textbook formula for a ** 0: 0 * 0 ** -1 = nan at a = 0
    ("03.1", "ops.py", "        if ctx.exponent == 0:\n            return Tensor(np.zeros_like(a._data))\n", "",
     "pow_backward"),
    # 03.2: a node that only None reached, popped anyway
    ("03.2", "engine.py", "            grad = buffers.pop(node, None)\n", "            grad = buffers.pop(node)\n",
     "has nothing to pass on: skip it"),
    # 03.3: no requires-grad check: the engine meets a (None, 0) edge
    ("03.3", "tensor.py",
     "        if not self.requires_grad:\n            raise RuntimeError(\"element 0 of tensors does not require "
     "grad and does not have a grad_fn\")\n", "",
     "'element 0 of tensors does not require grad"),
    # 03.3: a gradient of another shape, or of another dtype, taken as it is
    ("03.3", "tensor.py",
     "        if gradient is not None and gradient.shape != self.shape:\n            raise RuntimeError(f\"Mismatch in shape: grad_output[0] "
     "has a shape of torch.Size(\"\n                               f\"{list(gradient.shape)}) and output[0] has "
     "a shape of \"\n                               f\"torch.Size({list(self.shape)}).\")\n", "",
     "Mismatch in shape: grad_output[0] has a shape of torch.Size([3])"),
    ("03.3", "tensor.py", "        if gradient._data.dtype != self._data.dtype:\n"
     "            gradient = Tensor(gradient._data.astype(self._data.dtype))\n", "", "PyTorch's is [0.90000004]"),
    # 04.2: a leaf's retain_grad switches retains_grad on
    ("04.2", "tensor.py", "        if self.is_leaf or self.retains_grad:\n            return\n",
     "        if self.is_leaf:\n            self.retains_grad = True\n            return\n"
     "        if self.retains_grad:\n            return\n", "PyTorch keeps it False"),
    # 04.2: the retained gradient is the very tensor that arrived
    ("04.2", "tensor.py",
     "kept._grad = Tensor(grad._data.copy()) if kept._grad is None else kept._grad + grad",
     "kept._grad = grad if kept._grad is None else kept._grad + grad", "y.grad is v itself"),
    # 04.2: a leaf's retain_grad hooks its AccumulateGrad (kept alive on the tensor): the gradient twice
    ("04.2", "tensor.py",
     ("        if self.is_leaf or self.retains_grad:\n            return\n        self.retains_grad = True\n",
      "        self.grad_fn.pre_hooks.insert(0, keep_grad)\n"),
     ("        if self.retains_grad:\n            return\n        self.retains_grad = not self.is_leaf\n",
      "        from .function import gradient_edge\n        self._kept_node = gradient_edge(self)[0]\n"
      "        self._kept_node.pre_hooks.append(keep_grad)\n"),
     "count the gradient twice"),
    # 05.1: the sum in a new array: a numpy view taken before no longer sees it
    ("05.1", "function.py", "            variable._grad._data += grad_data\n",
     "            variable._grad._data = variable._grad._data + grad_data\n", "went into a new array"),
    # 06.1: the values from before the blocks on one stack for all threads: nested blocks work, two
    # threads' blocks put back each other's
    ("06.1", "grad_mode.py", ("_state = _ThreadState()\n", "        self.previous = _state.grad_enabled\n",
                              "        _state.grad_enabled = self.previous\n"),
     ("_state = _ThreadState()\n_PREVIOUS = []\n", "        _PREVIOUS.append(_state.grad_enabled)\n",
      "        _state.grad_enabled = _PREVIOUS.pop()\n"),
     "not on a stack the blocks share"),
    # 06.2: an integer tensor refused requires_grad_(False)
    ("06.2", "tensor.py", "        if requires_grad and not self.dtype.is_floating_point:\n"
     "            raise RuntimeError(\"only Tensors",
     "        if not self.dtype.is_floating_point:\n            raise RuntimeError(\"only Tensors",
     "requires_grad_(False) raised RuntimeError"),
    # 06.2: detach() with a version counter of its own (the answer key's slip)
    ("06.2", "tensor.py", "        detached._version_counter = self._version_counter\n", "",
     "version counter (detached._version_counter = self._version_counter)"),
    # 07.1: only the first saved tensor's version checked
    ("07.1", "function.py", "        for tensor, version in self.saved:\n",
     "        for tensor, version in self.saved[:1]:\n", "check every saved tensor"),
    # 07.1: no version bump when the values stay the same
    ("07.1", "tensor.py", "        self._data[...] = data\n        self._version += 1\n",
     "        if not np.array_equal(self._data, data):\n            self._version += 1\n"
     "        self._data[...] = data\n", "whether or not it changes a value"),
    # 07.1: in-place changes refused under no_grad too
    ("07.1", "tensor.py",
     "        if self.requires_grad and is_grad_enabled():\n            if self.is_leaf:\n"
     "                raise RuntimeError(\n"
     "                    \"a leaf Variable that requires grad is being used in an in-place operation.\")\n"
     "            raise RuntimeError(\"myautograd records no in-place operations: use them under no_grad\")\n",
     "        if self.requires_grad and self.is_leaf and is_grad_enabled():\n"
     "            raise RuntimeError(\"a leaf Variable that requires grad is being used in an in-place operation.\")\n"
     "        if self.requires_grad and not self.is_leaf:\n"
     "            raise RuntimeError(\"myautograd records no in-place operations: use them under no_grad\")\n",
     "with recording off (inside no_grad) raised"),
    # 07.2: everything freed only once backward is over
    ("07.2", "engine.py",
     ("    try:\n        while ready:\n", "            if not retain_graph:\n                node.release_saved()\n",
      "    finally:\n        grad_mode._state.grad_enabled = previous\n"),
     ("    ran = []\n    try:\n        while ready:\n", "            ran.append(node)\n",
      "        if not retain_graph:\n            for node in ran:\n                node.release_saved()\n"
      "    finally:\n        grad_mode._state.grad_enabled = previous\n"),
     "not all at the end"),
    # 07.2 (a regression): the rewrite for step 08.2 dropped release_saved
    ("07.2", "engine.py", "            if not retain_graph:\n                node.release_saved()\n", "",
     "did your rewrite for step 08.2 drop it?"),
    # 08.2: a None gradient does not count as arrived
    ("08.2", "engine.py",
     "                    buffers[next_node] = next_grad + buffers[next_node] if next_node in buffers else next_grad\n"
     "                dependencies[next_node] -= 1\n",
     "                    buffers[next_node] = next_grad + buffers[next_node] if next_node in buffers else next_grad\n"
     "                    dependencies[next_node] -= 1\n", "one of them carries None: it still counts"),
    # 08.2: saved tensors freed only after node.apply, so a node that only None reached keeps them
    ("08.2", "engine.py",
     "                next_grads = node.apply(grad)\n            if not retain_graph:\n"
     "                node.release_saved()\n",
     "                next_grads = node.apply(grad)\n                if not retain_graph:\n"
     "                    node.release_saved()\n", "(which only None reached) still holds its saved tensors"),
    # 08.2: a node that only None reached passes None on without unpacking what it saved (issue 35)
    ("08.2", "engine.py", "                node.unpack_saved()                    # but what it saved is read back, "
     "and checked\n", "", "call node.unpack_saved() on a node that only None reached"),
]

# The topological order of step 03.2 walked once per path: right numbers, exponential time (issue 35).
TOPOLOGICAL_PER_PATH = "    order, visited = [], set()\n    stack = [(root, False)]\n"
TOPOLOGICAL_PER_PATH_WRONG = ("    depth, stack = {root: 0}, [(root, 0)]     # each node at the end of its longest path\n"
                              "    while stack:\n        node, d = stack.pop()\n"
                              "        depth[node] = max(depth.get(node, 0), d)\n"
                              "        for next_node, _ in node.next_functions:\n"
                              "            if next_node is not None:\n"
                              "                stack.append((next_node, d + 1))\n"
                              "    return sorted(depth, key=depth.get)\n" + TOPOLOGICAL_PER_PATH)

MISTAKES += [  # issue 35: wrong code that got a ✅ in the fourth trial (chapters 01 to 08)
    # 01.1: only int64 refused, or only the kind "i": bools and unsigned integers slip through
    ("01.1", "tensor.py", "        if requires_grad and not self.dtype.is_floating_point:\n            raise RuntimeError(\"Only",
     "        if requires_grad and self._data.dtype == np.int64:\n            raise RuntimeError(\"Only", "tensor(True, requires_grad=True)"),
    ("01.1", "tensor.py", "        if requires_grad and not self.dtype.is_floating_point:\n            raise RuntimeError(\"Only",
     "        if requires_grad and self._data.dtype.kind == \"i\":\n            raise RuntimeError(\"Only", "not floating point"),
    # 01.2: "or" where "and" belongs
    ("01.2", "function.py",
     "return is_grad_enabled() and any(isinstance(t, Tensor) and t.requires_grad for t in inputs)",
     "return bool(is_grad_enabled() or any(isinstance(t, Tensor) and t.requires_grad for t in inputs))",
     "both must hold"),
    # 02.2: next_functions as a list
    ("02.2", "function.py", "ctx.next_functions = tuple(gradient_edge(t) for t in tensors)",
     "ctx.next_functions = [gradient_edge(t) for t in tensors]", "next_functions is a list"),
    # 03.1: a ** 0's gradient as grad * 0: nan where inf or nan arrives
    ("03.1", "ops.py", "            return Tensor(np.zeros_like(a._data))\n", "            return grad * 0.0\n",
     "inf * 0 = nan"),
    # 03.2: a walk without a set of the nodes seen: once per path
    ("03.2", "engine.py", TOPOLOGICAL_PER_PATH, TOPOLOGICAL_PER_PATH_WRONG, "walked once per path"),
    # 03.2: the nodes sorted by sequence_nr, newest first: wrong for a graph made in two threads
    ("03.2", "engine.py", "    return order[::-1]\n",
     "    return sorted(order, key=lambda node: -node.sequence_nr if node.next_functions else float(\"inf\"))\n",
     "made in another thread"),
    # 03.3: the scalar rule as a list of shapes
    ("03.3", "tensor.py", "            if self.numel() != 1:\n", "            if self.shape not in ((), (1,)):\n",
     "ones(1, 1)"),
    # 03.3: requires_grad checked before the shape of the gradient given (the hint's old sketch)
    ("03.3", "tensor.py",
     ("        if not self.requires_grad:\n            raise RuntimeError(\"element 0 of tensors does not require "
      "grad and does not have a grad_fn\")\n", "        if gradient is not None and gradient.shape != self.shape:\n"),
     ("", "        if not self.requires_grad:\n            raise RuntimeError(\"element 0 of tensors does not require "
      "grad and does not have a grad_fn\")\n        if gradient is not None and gradient.shape != self.shape:\n"),
     "PyTorch checks the shape first"),
    # 04.2: a leaf's retain_grad hooks its AccumulateGrad, which a use made earlier keeps alive
    ("04.2", "tensor.py",
     ("        if self.is_leaf or self.retains_grad:\n            return\n        self.retains_grad = True\n",
      "        self.grad_fn.pre_hooks.insert(0, keep_grad)\n"),
     ("        if self.retains_grad:\n            return\n        self.retains_grad = not self.is_leaf\n",
      "        from .function import gradient_edge\n        gradient_edge(self)[0].pre_hooks.append(keep_grad)\n"),
     "before or after"),
    # 04.2: the retained gradient summed in place
    ("04.2", "tensor.py",
     "                kept._grad = Tensor(grad._data.copy()) if kept._grad is None else kept._grad + grad\n",
     "                if kept._grad is None:\n                    kept._grad = Tensor(grad._data.copy())\n"
     "                else:\n                    kept._grad._data += grad._data\n", "not summed in place"),
    # 04.2: the hook holds the tensor itself: the graph keeps it alive
    ("04.2", "tensor.py", "        tensor = weakref.ref(self)\n", "        tensor = lambda: self  # noqa: E731\n",
     "kept by the graph"),
    # 05.1: the first gradient added to zeros: -0.0 becomes 0.0
    ("05.1", "function.py", "            variable._grad = Tensor(grad_data)\n",
     "            variable._grad = Tensor(grad_data * 0.0 + 0.0)\n            variable._grad._data += grad_data\n",
     "PyTorch gives -0.0"),
    # 05.2: zeroing by arithmetic: -0.0, and nan for inf and nan
    ("05.2", "optim.py", "            p.grad._data[...] = 0\n", "            p.grad._data *= 0\n", "[0.0, 0.0, 0.0]"),
    ("05.2", "optim.py", "            p.grad._data[...] = 0\n", "            p.grad._data -= p.grad._data\n",
     "write zeros into it"),
    # 06.1: __enter__ returns the object
    ("06.1", "grad_mode.py", "        _state.grad_enabled = False\n        ### END SOLUTION\n",
     "        _state.grad_enabled = False\n        return self\n        ### END SOLUTION\n", "as g: g is"),
    # 06.1: the values from before the blocks on a stack of each thread's: blocks must end in order
    ("06.1", "grad_mode.py", ("        self.previous = _state.grad_enabled\n",
                              "        _state.grad_enabled = self.previous\n"),
     ("        _state.__dict__.setdefault(\"stack\", []).append(_state.grad_enabled)\n",
      "        _state.grad_enabled = _state.stack.pop()\n"),
     "not on a stack the blocks share"),
    # 06.2: detach() as a shallow copy: .grad and the AccumulateGrad come along
    ("06.2", "tensor.py", "        detached = Tensor(self._data)\n        detached._version_counter = self._version_counter\n",
     "        import copy\n        detached = copy.copy(self)\n        detached.requires_grad = False\n"
     "        detached.grad_fn = None\n", "copy.copy"),
    # 07.1: what saved_tensors checked once, given back unchecked afterwards
    ("07.1", "function.py",
     "        for tensor, version in self.saved:\n            if tensor is not None and tensor._version != version:\n"
     "                raise RuntimeError(modified_error(tensor, version))\n"
     "        return tuple(tensor for tensor, _ in self.saved)\n",
     "        if getattr(self, \"_unpacked\", None) is None:\n"
     "            for tensor, version in self.saved:\n"
     "                if tensor is not None and tensor._version != version:\n"
     "                    raise RuntimeError(modified_error(tensor, version))\n"
     "            self._unpacked = tuple(tensor for tensor, _ in self.saved)\n"
     "        return self._unpacked\n", "each time it is read"),
    # 07.1: None refused by save_for_backward
    ("07.1", "function.py", "        self.saved = tuple((t, None if t is None else t._version) for t in tensors)\n",
     "        self.saved = tuple((t, t._version) for t in tensors)\n", "save_for_backward(a, None)"),
    # 07.1: two bumps per change
    ("07.1", "tensor.py", "        self._version += 1\n", "        self._version += 2\n", "is 2, expected 1"),
    # 07.2: saved tensors freed in a finally block, also when the node's backward raised
    ("07.2", "engine.py",
     "                next_grads = node.apply(grad)\n            if not retain_graph:\n"
     "                node.release_saved()\n",
     "                try:\n                    next_grads = node.apply(grad)\n                finally:\n"
     "                    if not retain_graph:\n                        node.release_saved()\n"
     "            if grad is None and not retain_graph:\n                node.release_saved()\n",
     "not in a finally block"),
    # 03.3 (a raw exception): the engine starts at tensor.grad_fn, which a leaf does not have; the verdict
    # names the check's line that ran into it
    ("03.3", "engine.py", "    root, _ = gradient_edge(tensor)\n    dependencies",
     "    root = tensor.grad_fn\n    dependencies", "while the check ran `leaf.backward()`"),
    # 08.2: the engine's state in module globals: a backward inside a backward breaks it
    ("08.2", "engine.py", "    root, _ = gradient_edge(tensor)\n    dependencies",
     "    global buffers, dependencies\n    root, _ = gradient_edge(tensor)\n    dependencies",
     "a backward can start another one before it ends"),
]

MISTAKES += [  # issue 35: what PyTorch does that the answer key once did not, each left out as a learner would
    # 02.2: forward run with recording on
    ("02.2", "function.py", "        set_grad_enabled(False)\n", "", "inside forward, is_grad_enabled() is True"),
    # 02.2: the mode put back without a finally
    ("02.2", "function.py",
     "        try:\n            result = cls.forward(ctx, *inputs)\n        finally:\n"
     "            set_grad_enabled(recording)\n",
     "        result = cls.forward(ctx, *inputs)\n        set_grad_enabled(recording)\n",
     "after a forward that raised"),
    # 02.2: an input returned by forward gets the node itself
    ("02.2", "function.py", "        if any(result is t for t in inputs):\n", "        if False:\n",
     "returned x itself"),
    # 02.2: a result made with requires_grad=True keeps it when nothing is recorded
    ("02.2", "function.py", "        else:\n            result.requires_grad = False\n", "", "Fresh.apply(c)"),
    # 05.1: a leaf switched off after recording still gets its gradient
    ("05.1", "function.py", "        if not variable.requires_grad:", "        if False:",
     "AccumulateGrad gives nothing"),
    # 05.1: the gradient kept in the dtype it arrived in
    ("05.1", "function.py", "        grad_data = grad._data.astype(variable._data.dtype)",
     "        grad_data = grad._data.copy()", "PyTorch's is float32, the leaf's dtype"),
    # 05.1: the sum written in place without a version bump
    ("05.1", "function.py", "            variable._grad._version += 1\n", "", "bumps its version by one"),
    # 05.2: zeros written in place without a version bump
    ("05.2", "optim.py", "            p.grad._version += 1\n", "", "p.grad._version += 1"),
    # 11.1: every input checked, also those that do not require grad
    ("11.1", "gradcheck.py", "        for i, tensor in enumerate(checked):\n", "        for i, tensor in enumerate(inputs):\n",
     "checks only the inputs that require grad"),
    # 11.1: the inputs that do not require grad skipped, but counted
    ("11.1", "gradcheck.py", "        for i, tensor in enumerate(checked):\n",
     "        for i, tensor in enumerate(inputs):\n"
     "            if not tensor.requires_grad:\n"
     "                continue\n",
     "so a is input 0"),
    # 11.1: no input that requires grad goes unnoticed
    ("11.1", "gradcheck.py", "    if not checked:\n", "    if False:\n", "where no input requires grad"),
]

TOPOLOGICAL_ORDER_LOOP = (
    "    order, visited = [], set()\n    stack = [(root, False)]\n    while stack:\n"
    "        node, children_listed = stack.pop()\n        if children_listed:                        "
    "# everything below it is listed: list it\n            order.append(node)\n            continue\n"
    "        if node in visited:\n            continue\n        visited.add(node)\n"
    "        stack.append((node, True))\n        for next_node, _ in node.next_functions:\n"
    "            if next_node is not None and next_node not in visited:\n"
    "                stack.append((next_node, False))\n    return order[::-1]\n")
DEPENDENCIES_LOOP = (
    "    dependencies, seen, stack = {}, {root}, [root]\n    while stack:\n        node = stack.pop()\n"
    "        for next_node, _ in node.next_functions:\n            if next_node is None:\n"
    "                continue\n            dependencies[next_node] = dependencies.get(next_node, 0) + 1\n"
    "            if next_node not in seen:\n                seen.add(next_node)\n"
    "                stack.append(next_node)\n    return dependencies\n")
MISTAKES += [  # issue 35: recursive walks that raise Python's recursion limit to get through 10,000 nodes
    ("03.2", "engine.py", TOPOLOGICAL_ORDER_LOOP,
     "    import sys\n    sys.setrecursionlimit(100_000)\n    order, visited = [], set()\n\n"
     "    def visit(node):\n        visited.add(node)\n        for next_node, _ in node.next_functions:\n"
     "            if next_node is not None and next_node not in visited:\n                visit(next_node)\n"
     "        order.append(node)\n    visit(root)\n    return order[::-1]\n",
     "topological_order nested"),
    ("08.1", "engine.py", DEPENDENCIES_LOOP,
     "    import sys\n    sys.setrecursionlimit(100_000)\n    dependencies, seen = {}, {root}\n\n"
     "    def visit(node):\n        for next_node, _ in node.next_functions:\n"
     "            if next_node is None:\n                continue\n"
     "            dependencies[next_node] = dependencies.get(next_node, 0) + 1\n"
     "            if next_node not in seen:\n                seen.add(next_node)\n                visit(next_node)\n"
     "    visit(root)\n    return dependencies\n",
     "compute_dependencies nested"),
]
MISTAKES += [  # issue 35: the retain_grad hook after the node's own pre-hooks
    ("04.2", "tensor.py", "        self.grad_fn.pre_hooks.insert(0, keep_grad)\n",
     "        self.grad_fn.pre_hooks.append(keep_grad)\n", "PyTorch's is 1.0: it runs the retain_grad hook before"),
]
MISTAKES += [  # issue 35: a third trial's wrong code that got ✅ on every step
    # 02.2: an input returned by forward wrapped without its version counter
    ("02.2", "function.py", "            view._version_counter = result._version_counter\n", "",
     "shares its version counter"),
    # 02.2: a shape for every input, numbers included
    ("02.2", "function.py", "            ctx.input_shapes = tuple(t.shape for t in tensors)\n",
     "            ctx.input_shapes = tuple(getattr(t, 'shape', ()) for t in inputs)\n", "expected ((2,),)"),
    # 03.2: the backward of a leaf starts at a new AccumulateGrad, not the leaf's own
    ("04.1", "engine.py", "    root, _ = gradient_edge(tensor)\n    dependencies",
     "    from .function import AccumulateGrad\n"
     "    root = tensor.grad_fn if tensor.grad_fn is not None else AccumulateGrad(tensor)\n    dependencies",
     "not at a new node"),
    # 05.2: only True means set to None
    ("05.2", "optim.py", "        if set_to_none:\n", "        if set_to_none is True:\n", "any true value"),
    # 06.2: requires_grad_ forgets the leaf's AccumulateGrad
    ("06.2", "tensor.py", "        self.requires_grad = requires_grad\n        return self\n",
     "        self.requires_grad = requires_grad\n        self._grad_accumulator = None\n        return self\n",
     "lead to one"),
    # 10.1: the bound computed in float32
    ("10.1", "nn.py", "        bound = 1 / np.sqrt(in_features)\n",
     "        bound = np.float32(1) / np.sqrt(np.float32(in_features))\n", "computed in float32"),
    # 11.1: True at once when the output needs no gradient
    ("11.1", "gradcheck.py", "        output = function(*inputs)\n",
     "        output = function(*inputs)\n"
     "        if not output.requires_grad:\n"
     "            for t, grad in zip(inputs, grads_before, strict=True):\n"
     "                t.grad = grad\n"
     "            return True\n", "a.detach() * 2"),
    # 11.1: the Jacobians kept in float32
    ("11.1", "gradcheck.py", "            numerical = np.zeros((tensor.numel(), output.numel()))\n",
     "            numerical = np.zeros((tensor.numel(), output.numel()), dtype=np.float32)\n", "rtol = 1e-13"),
    # 11.2: the derivative as s - s * s, which cancels near s = 1
    ("11.2", "custom.py", "        return grad * s * (1 - s)\n", "        return grad * (s - s * s)\n",
     "not to 5 digits"),
    # 03.2 and 08.1: the nodes seen kept in a list: quadratic time
    ("03.2", "engine.py", ("    order, visited = [], set()\n", "        visited.add(node)\n"),
     ("    order, visited = [], []\n", "        visited.append(node)\n"), "topological_order compared nodes"),
    ("08.1", "engine.py", ("    dependencies, seen, stack = {}, {root}, [root]\n", "                seen.add(next_node)\n"),
     ("    dependencies, seen, stack = {}, [root], [root]\n", "                seen.append(next_node)\n"),
     "compute_dependencies compared nodes"),
]
MISTAKES += [  # issue 35, a third trial: only the checked input's .grad cleared: the kept .grad is added into
    ("11.1", "gradcheck.py", "                for t in inputs:\n"
                             "                    t.grad = None\n",
     "                tensor.grad = None\n", "backward added into it while another input was checked"),
]

MISTAKES += [  # issue 35, a fourth trial: wrong code that got ✅ on every step
    # 02.2: the new tensor made only while recording: with no input requiring grad, the input itself comes back
    ("02.2", "function.py", "        if any(result is t for t in inputs):\n",
     "        if any(result is t for t in inputs) and compute_requires_grad(*inputs):\n",
     "whether a node is recorded or not"),
    # 02.2: the version counter shared only while recording
    ("02.2", "function.py", "            view._version_counter = result._version_counter\n",
     "            if compute_requires_grad(*inputs):\n"
     "                view._version_counter = result._version_counter\n", "shares c's version counter"),
    # 03.3: Tensor.backward returns the tensor
    ("03.3", "tensor.py", "        engine.run_backward(self, gradient, retain_graph)\n",
     "        engine.run_backward(self, gradient, retain_graph)\n        return self\n",
     "returns None"),
    # 03.3: the starting gradient copied before the engine sees it
    ("03.3", "tensor.py", "        engine.run_backward(self, gradient, retain_graph)\n",
     "        engine.run_backward(self, Tensor(np.array(gradient._data, copy=True)), retain_graph)\n",
     "the hook gets g itself"),
    # 03.3: the starting gradient always cast, so always copied
    ("03.3", "tensor.py", "        if gradient._data.dtype != self._data.dtype:\n"
                          "            gradient = Tensor(gradient._data.astype(self._data.dtype))\n",
     "        gradient = Tensor(gradient._data.astype(self._data.dtype))\n", "the hook gets g itself"),
    # 06.1: the mode from before read on the first entry only
    ("06.1", "grad_mode.py", "        self.previous = _state.grad_enabled\n",
     "        if not hasattr(self, \"previous\"):\n            self.previous = _state.grad_enabled\n",
     "reads the mode anew"),
    # 06.1: the value deleted in __exit__: a block nested in itself fails
    ("06.1", "grad_mode.py", "        _state.grad_enabled = self.previous\n",
     "        _state.grad_enabled = self.previous\n        del self.previous\n", "never delete it"),
    # 06.1: a stack of values on the object: a block nested in itself ends with recording on
    ("06.1", "grad_mode.py", ("        self.previous = _state.grad_enabled\n",
                              "        _state.grad_enabled = self.previous\n"),
     ("        self.__dict__.setdefault(\"_stack\", []).append(_state.grad_enabled)\n",
      "        _state.grad_enabled = self._stack.pop()\n"), "both __exit__ put back"),
    # 06.1: the value swapped out for None in __exit__: the outer exit of a nested block writes None
    ("06.1", "grad_mode.py", "        _state.grad_enabled = self.previous\n",
     "        _state.grad_enabled, self.previous = self.previous, None\n", "both __exit__ put back"),
    # 10.3: SGD.step returns the optimizer
    ("10.3", "optim.py", "                    p.sub_(self.lr * p.grad)\n",
     "                    p.sub_(self.lr * p.grad)\n        return self\n", "returns None"),
    # 11.1: each input's numbers put back as a new array (t._data rebound): its detach() no longer sees them
    ("11.1", "gradcheck.py", "        return True\n    finally:",
     "        for t in checked:\n            t._data = t._data.copy()\n        return True\n    finally:",
     "another numpy array"),
    # 11.1: nudged with in-place tensor operations (add_ and sub_): each one bumps the input's version
    ("11.1", "gradcheck.py", "                flat[j] = original\n",
     "                flat[j] = original\n                tensor._version += 3\n", "_version went from"),
    # 11.1: .grad put back only for the inputs that require grad
    ("11.1", "gradcheck.py", "        for t, grad in zip(inputs, grads_before, strict=True):\n"
                             "            t.grad = grad\n",
     "        for t, grad in zip(inputs, grads_before, strict=True):\n"
     "            if t.requires_grad:\n                t.grad = grad\n", "also of an input it does not check"),
]

MISTAKES += [  # issue 35, a fourth trial: caught only later, by another piece's message
    # 01.2: only Tensor itself counts, not a subclass (nn.Parameter): caught at 10.1, blamed on Linear
    ("01.2", "function.py",
     "return is_grad_enabled() and any(isinstance(t, Tensor) and t.requires_grad for t in inputs)",
     "return is_grad_enabled() and any(type(t) is Tensor and t.requires_grad for t in inputs)",
     "not type(t) is Tensor"),
    # 02.2: the inputs kept on the node: caught at 04.2, blamed on retain_grad's hook
    ("02.2", "function.py", "        if any(result is t for t in inputs):\n",
     "        ctx.inputs = inputs\n        if any(result is t for t in inputs):\n", "(ctx.inputs)"),
    # 02.2: the result kept on the node: a cycle, freed only by the garbage collector
    ("02.2", "function.py", "        if any(result is t for t in inputs):\n",
     "        ctx.output = result\n        if any(result is t for t in inputs):\n", "ctx.output = result"),
]

MISTAKES += [  # issue 35, a fourth trial: an AccumulateGrad's pre-hooks skipped: the 04.1 message said why
    ("03.2", "engine.py", "            for hook in node.pre_hooks:\n",
     "            for hook in (node.pre_hooks if node.next_functions else []):\n",
     "an AccumulateGrad's too"),
]


def _recursive_run_loop():
    """``(old, new)``: run_backward's ``while ready:`` loop written as a function that calls itself once per
    node, Python's recursion limit raised to get it through 10,000 nodes."""
    body = engine_08()
    start = body.index("        while ready:\n")
    loop = body[start:body.index("    finally:\n", start)]
    lines = loop.splitlines(keepends=True)[1:]             # the loop's body, one level in
    recursive = ("        import sys\n        sys.setrecursionlimit(100_000)\n\n        def drain():\n"
                 "            if not ready:\n                return\n"
                 + "".join(lines) + "            drain()\n        drain()\n")
    return loop, recursive


MISTAKES += [  # a run that recurses once per node (the walk itself a loop): the run is probed too
    ("03.2", "engine.py", *_recursive_run_loop(), "run_backward nested"),
]
MISTAKES += [
    ("08.2", "engine.py", *_recursive_run_loop(), "out.backward() nested"),
]
# A node that only None reached: its pre-hooks run, with None, and may not replace it (step 08.2).
NONE_NODE_HOOKS = (
    "            for hook in node.pre_hooks:\n                new_grad = hook(grad)\n"
    "                if new_grad is not None:\n                    if grad is None:\n"
    "                        raise RuntimeError(\"can't replace a None gradient with a non-None value\")\n"
    "                    grad = new_grad\n")
MISTAKES += [
    ("08.2", "engine.py", NONE_NODE_HOOKS,
     "            if grad is not None:\n                for hook in node.pre_hooks:\n"
     "                    new_grad = hook(grad)\n                    if new_grad is not None:\n"
     "                        grad = new_grad\n",
     "the hook saw []. PyTorch calls it once, with None"),
    ("08.2", "engine.py", NONE_NODE_HOOKS,
     "            for hook in node.pre_hooks:\n                new_grad = hook(grad)\n"
     "                if new_grad is not None:\n                    grad = new_grad\n",
     "raised nothing; PyTorch raises RuntimeError: can't replace a None gradient"),
]
MISTAKES += [  # retain_grad's hook called with None (from step 08.2 on): it keeps nothing
    ("04.2", "tensor.py", "            if kept is not None and grad is not None:\n",
     "            if kept is not None:\n", "called with None, raised AttributeError"),
]
MISTAKES += [  # issue 35, a fifth trial: objects kept alive that PyTorch frees at once
    ("02.2", "function.py", "        ctx = BackwardFunction(cls)\n",
     "        ctx = BackwardFunction(cls)\n        cls.last_ctx = ctx\n", "apply keeps no node"),
    ("02.2", "function.py", "            result.grad_fn = ctx\n",
     "            result.grad_fn = ctx\n            Function.recorded = getattr(Function, 'recorded', []) + [ctx]\n",
     "keep the last node (or ctx) on the class"),
    ("02.2", "function.py", "        else:\n            result.requires_grad = False\n        return result",
     "        else:\n            result.requires_grad = False\n            result._ctx = ctx\n        return result",
     "Nothing was recorded, so in PyTorch nothing holds a"),
    ("06.2", "tensor.py", "        detached._version_counter = self._version_counter\n",
     "        detached._version_counter = self._version_counter\n        detached._base = self\n",
     "y is still alive, held by d"),
    ("06.2", "tensor.py", "        detached = Tensor(self._data)\n",
     "        detached = type(self).__new__(type(self))\n        Tensor.__init__(detached, self._data)\n",
     "p.detach() is a Parameter; PyTorch's is a plain Tensor"),
    ("08.2", "engine.py", "            grad = buffers.pop(node, None)", "            grad = buffers.get(node)",
     "the gradient that arrived at b.grad_fn is still alive"),
    ("08.2", "engine.py", "    root, _ = gradient_edge(tensor)\n", "    root, _ = gradient_edge(tensor)\n    root.output = tensor\n",
     "still alive; in PyTorch all of it is gone at once. Does run_backward keep"),
]
MISTAKES += [  # issue 35, a fifth trial: a ready queue that costs time growing with its length at each step
    ("08.2", "engine.py", "            _, _, node = heapq.heappop(ready)",
     "            ready.sort()\n            _, _, node = ready.pop(0)", "compared the nodes' sequence numbers"),
    ("08.2", "engine.py", "            _, _, node = heapq.heappop(ready)",
     "            heapq.heapify(ready)\n            _, _, node = heapq.heappop(ready)",
     "compared the nodes' sequence numbers"),
    ("08.2", "engine.py", "                if dependencies[next_node] == 0:\n",
     "                if dependencies[next_node] == 0 and all(queued is not next_node for _, _, queued in ready):\n",
     "times as long as on a chain"),
]
MISTAKES += [  # the answer key's own slip, found by the fifth trial: zeroing leaves a .grad requiring grad
    ("05.2", "optim.py", "            p.grad.requires_grad = False\n", "", "x.grad still requires grad"),
]
MISTAKES += [  # the fifth trial's misleading messages, now naming the fault
    ("07.1", "function.py", "        return tuple(tensor for tensor, _ in self.saved)",
     "        return tuple(None if tensor is None else tensor.detach() for tensor, _ in self.saved)",
     "but not b itself"),
    ("08.2", "engine.py",
     ("def run_backward(tensor, gradient, retain_graph=False):", "            _, _, node = heapq.heappop(ready)\n"),
     ("last_order = []\n\n\ndef run_backward(tensor, gradient, retain_graph=False):",
      "            _, _, node = heapq.heappop(ready)\n            last_order.append(node)\n"),
     "Does run_backward keep a tensor or a node somewhere"),
    ("05.1", "function.py",
     "        grad_data = grad._data.astype(variable._data.dtype)     # (a copy, in the leaf's dtype)\n",
     "        grad_data = grad._data.astype(variable._data.dtype)     # (a copy, in the leaf's dtype)\n"
     "        AccumulateGrad.applied = getattr(AccumulateGrad, 'applied', []) + [self]\n",
     "something else keeps it"),
]
