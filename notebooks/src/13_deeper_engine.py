# %% [markdown]
# # 13 — Appendix: deeper into the engine
#
# Chapters 04, 05 and 08 showed `GraphTask`, the ready queue and `AccumulateGrad` as the two seed
# articles tell them. This appendix goes to three places where PyTorch 2.13's engine does more, and runs
# each in mini_autograd and, beside it, in PyTorch.
#
# **What you will learn**
#
# - what `AccumulateGrad` does beyond "copy, then add": hooks that run after `.grad` is written (an
#   optimizer step inside backward), hooks kept on the leaf tensor rather than on its node, and the
#   layout of the first gradient
# - how `autograd.grad(outputs, inputs)` and `backward(inputs=...)` run only the nodes on a path to
#   the inputs, and what PyTorch's topological number adds
# - what happens when a backward runs inside a backward, and where PyTorch moves it to another thread
#
# **Seed sections:** none; this goes past the seeds, into PyTorch's sources.
#
# **Time:** about 30 minutes.
#
# PyTorch is optional here: each cell that compares runs the same code on `real_torch` when it is
# installed, and otherwise says it is missing. The outputs stored in the notebook are PyTorch 2.13's.

# %%
import threading

import matplotlib.pyplot as plt

import mini_autograd as torch
from coursetools import tr
from exercises import check_exercise
from mini_autograd import viz
from mini_autograd.autograd.graph import get_gradient_edge

try:
    import torch as real_torch                # the real one; `torch` here is mini_autograd
except ImportError:
    real_torch = None


def rounded(tensor):
    return [round(v, 4) for v in tensor.flatten().tolist()]

# %% [markdown]
# ## 1. AccumulateGrad beyond "copy, then add"
#
# ### 1a. A hook after `.grad` is written: an optimizer step inside backward
#
# `Tensor.register_post_accumulate_grad_hook(hook)` runs `hook(param)` each time backward has written
# `param.grad` (`torch/_tensor.py: Tensor.register_post_accumulate_grad_hook`). The hook may update the
# parameter at once and then drop its gradient. The function below does that for two weight matrices,
# with a step of plain gradient descent, and records when each step runs and how many gradients are held
# at that moment. It takes the library as its argument, so that the same code runs on both.

# %%
def optimizer_in_backward(lib):
    w1 = lib.tensor([[0.5, -0.2], [0.1, 0.4]], requires_grad=True)
    w2 = lib.tensor([[1.0], [-1.0]], requires_grad=True)
    params = {"w1": w1, "w2": w2}
    events = []

    def step(param):                       # runs as soon as param.grad is written
        name = next(n for n, p in params.items() if p is param)
        held = sum(p.grad is not None for p in params.values())
        with lib.no_grad():
            param -= 0.1 * param.grad
        param.grad = None                  # the gradient is used up: free it
        events.append(f"{name} stepped ({held} gradient(s) held)")

    for param in params.values():
        param.register_post_accumulate_grad_hook(step)
    x = lib.tensor([[1.0, 2.0]])
    loss = ((x @ w1).tanh() @ w2).sum()
    loss.backward()
    events.append(f"after backward: w1.grad {w1.grad}, w2.grad {w2.grad}")
    events.append(f"w1 {rounded(w1)}, w2 {rounded(w2)}")
    return events


mini_events = optimizer_in_backward(torch)
print("\n".join(mini_events))

# %% [markdown]
# `w2` is stepped first: its `AccumulateGrad` is ready before `w1`'s, whose gradient must first pass
# through `tanh` and the first product. Each step sees one gradient held, its own, and after backward no
# `.grad` is left: the memory of all gradients at once is never needed. PyTorch's documentation of this
# hook shows the same use (`p.add_(p.grad, alpha=-lr)`). Now the same function on PyTorch:

# %%
if real_torch is None:
    print(tr("PyTorch is not installed: skipped (pip install torch==2.13.0 to compare)"))
else:
    torch_events = optimizer_in_backward(real_torch)
    print("\n".join(torch_events))
    print(tr("same as mini_autograd:"), torch_events == mini_events)

# %% [markdown]
# ### 1b. A leaf's hooks live on the tensor, not on its node
#
# A leaf has no `grad_fn`; its node is the `AccumulateGrad` at the end of its edges.
# `torch.autograd.graph.get_gradient_edge(x)` gives that node (`torch/autograd/graph.py:
# get_gradient_edge`; mini_autograd has it in `mini_autograd.autograd.graph`). The leaf holds its node
# only weakly: the graphs that use the leaf hold it, and once nothing does, the next operation on the
# leaf makes a new one. So a hook registered on the node goes away with the node, while a hook
# registered on the tensor (`x.register_hook`) is kept on the tensor and is given to every node made for
# it. The cell registers one of each, runs two backwards, and drops its own reference to the node in
# between.

# %%
def leaf_hooks(lib, get_edge):
    ran = []
    x = lib.ones(2, requires_grad=True)
    ran.append(f"x.grad_fn: {x.grad_fn}")
    edge = get_edge(x)
    ran.append(f"gradient edge: {edge.node.name()}, input {edge.output_nr}")
    edge.node.register_prehook(lambda grads: ran.append("  " + tr("node pre-hook ran")))
    x.register_hook(lambda grad: ran.append("  " + tr("tensor hook ran")))
    ran.append(tr("backward 1 (the node is held by `edge`):"))
    (x * 2).sum().backward()
    del edge                               # nothing holds the node now
    ran.append(tr("backward 2 (a new node):"))
    (x * 2).sum().backward()
    y = x * 2
    ran.append(f"{tr('the graph uses the node get_gradient_edge gives:')} "
               f"{y.grad_fn.next_functions[0][0] is get_edge(x).node}")
    return ran


mini_hooks = leaf_hooks(torch, get_gradient_edge)
print("\n".join(mini_hooks))

# %%
if real_torch is None:
    print(tr("PyTorch is not installed: skipped (pip install torch==2.13.0 to compare)"))
else:
    torch_hooks = leaf_hooks(real_torch, real_torch.autograd.graph.get_gradient_edge)
    print("\n".join(torch_hooks))
    print(tr("same as mini_autograd:"), torch_hooks == mini_hooks)

# %% [markdown]
# In the second backward the node's pre-hook did not run: the node it was registered on was freed with
# the first graph, and `x * 2` made a new `AccumulateGrad`. The tensor hook ran both times. This is why
# PyTorch keeps a leaf's hooks on the tensor (`functions/accumulate_grad.h` reads them from the variable
# each time, "lazily"), and mini_autograd does the same (`AccumulateGrad.tensor_pre_hooks` reads
# `variable._hooks`). The picture shows the graph of `y = x * 2`: the leaf's box and its `AccumulateGrad` node.

# %%
x = torch.ones(2, requires_grad=True)
y = x * 2
viz.draw(y, params={"x": x}, names={"y": y})

# %% [markdown]
# ### 1c. The first gradient: its layout, and stealing
#
# The Note "Gradient Layout Contract" in `functions/accumulate_grad.h` says what `.grad` looks like in
# memory: if the parameter is one dense block (a transposed matrix is), its gradient has the
# parameter's strides; otherwise the gradient is row-major. A stride is how many elements apart two
# neighbours along a dimension are: `(3, 1)` for a row-major 2×3 matrix, `(1, 3)` for its transpose, a
# 3×2 matrix over the same memory. mini_autograd's `Tensor.stride()` is numpy's byte strides divided by the element
# size, and its `AccumulateGrad` copies the first gradient into memory laid out as the parameter is
# (`_clone_obey_contract`, after `grad_layout_contract.h: clone_obey_contract`).
#
# The same Note says more: when nobody else holds the incoming gradient, PyTorch does not copy it at
# all, it "steals" it: the tensor becomes `.grad` (`functions/accumulate_grad.h: Case 1.1: Stealable
# dense new_grad`). The cell sees this with `data_ptr()`, the address of a tensor's first element: a
# custom `Function` records the address of the gradient its backward returns, and after backward the
# cell compares it with `x.grad.data_ptr()`.

# %%
def first_gradient(lib):
    lines = []
    w = lib.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]).t().detach().requires_grad_()
    (w * 2).sum().backward()
    lines.append(f"w: shape {tuple(w.shape)}, stride {w.stride()}, contiguous {w.is_contiguous()}")
    lines.append(f"w.grad: stride {w.grad.stride()}")

    returned = {}

    class Triple(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.clone()

        @staticmethod
        def backward(ctx, grad):
            result = grad * 3
            returned["address"] = result.data_ptr()
            return result

    x = lib.ones(3, requires_grad=True)
    Triple.apply(x).sum().backward()
    lines.append(f"{tr('x.grad is the tensor backward returned (same data_ptr):')} "
                 f"{x.grad.data_ptr() == returned['address']}")
    return lines


mini_first = first_gradient(torch)
print("\n".join(mini_first))

# %%
if real_torch is None:
    print(tr("PyTorch is not installed: skipped (pip install torch==2.13.0 to compare)"))
else:
    torch_first = first_gradient(real_torch)
    print("\n".join(torch_first))
    print(tr("same as mini_autograd:"), torch_first == mini_first)

# %% [markdown]
# The layout agrees: the transposed `w` has strides `(1, 3)` and so has its gradient, in both. The last
# line differs: PyTorch made the returned tensor `x.grad` without a copy, and mini_autograd copied it.
# mini_autograd always copies the first gradient. Stealing needs to know that no other tensor holds the
# gradient, which PyTorch reads from the tensor's reference count; in mini_autograd two tensors may
# share one numpy array, so a count of the tensor alone would not be enough. The values are the same
# either way; only the memory of one copy differs. `docs/limits.md` lists this difference.
#
# ## 2. Pruning: which nodes `autograd.grad` runs
#
# `autograd.grad(y, inputs)` and `y.backward(inputs=[...])` need only the gradients of some tensors.
# Before running, PyTorch's engine marks the nodes that lie on a path from `y` to one of them
# (`engine.cpp: GraphTask::init_to_execute`, which fills the graph task's `exec_info_`); a node that is
# not marked does not run. For `autograd.grad`, the input's own node does not run either: the gradient
# arriving at it is captured and returned. mini_autograd's engine has the same two pieces
# (`GraphTask.exec_info`, `init_to_execute` in `autograd/engine.py`).
#
# The cell records which nodes run by registering a pre-hook on every node of a graph with two branches,
# `y = (a.exp() * b.sin()).sum()`, then asks for three things in turn.

# %%
def all_nodes(root):
    seen, stack = [], [root]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.append(node)
        stack.extend(next_node for next_node, _ in node.next_functions)
    return seen


def which_nodes_run(lib):
    a = lib.tensor([1.0, 2.0], requires_grad=True)
    b = lib.tensor([3.0, 4.0], requires_grad=True)
    y = (a.exp() * b.sin()).sum()
    ran, lines = [], []
    for node in all_nodes(y.grad_fn):
        node.register_prehook(lambda grads, node=node: ran.append(node.name().replace("torch::autograd::", "")))
    (grad_a,) = lib.autograd.grad(y, a, retain_graph=True)
    lines.append(f"autograd.grad(y, a)      ran {ran}, gradient {rounded(grad_a)}")
    ran.clear()
    y.backward(inputs=[b], retain_graph=True)
    lines.append(f"y.backward(inputs=[b])   ran {ran}, a.grad {a.grad}")
    ran.clear()
    y.backward()
    lines.append(f"y.backward()             ran {ran}")
    return lines


mini_runs = which_nodes_run(torch)
print("\n".join(mini_runs))

# %%
if real_torch is None:
    print(tr("PyTorch is not installed: skipped (pip install torch==2.13.0 to compare)"))
else:
    torch_runs = which_nodes_run(real_torch)
    print("\n".join(torch_runs))
    print(tr("same as mini_autograd:"), torch_runs == mini_runs)

# %% [markdown]
# `autograd.grad(y, a)` ran three nodes: the `b` branch (`SinBackward0` and `b`'s `AccumulateGrad`)
# was skipped, and so was `a`'s `AccumulateGrad`, whose gradient was captured. `backward(inputs=[b])`
# ran the `b` branch to its `AccumulateGrad`, which wrote `b.grad`, and left `a.grad` at `None`. A plain
# `backward()` ran all six.
#
# `viz.trace_backward(y, inputs=[b])` runs `y.backward(inputs=[b])` and records each step the engine
# takes (chapter 08 traced a whole backward this way). The nodes the engine will not run are drawn grey
# and dashed in every step, and step 0 lists them as pruned.

# %%
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
y = (a.exp() * b.sin()).sum()
pruned_trace = viz.trace_backward(y, params={"a": a, "b": b}, names={"y": y}, inputs=[b])
pruned_trace

# %% [markdown]
# Step 0 lists `ExpBackward0` and `a`'s `AccumulateGrad` as pruned. The four steps after it run the four
# nodes the pre-hooks recorded for `y.backward(inputs=[b])` above, in the same order, and the last one
# writes `b.grad`. At step 2, `MulBackward0` sends `None` towards `ExpBackward0`: a built-in node asks
# the graph task which of its gradients are wanted (`node.h: Node::task_should_compute_output`) and
# computes only those. The cell below records, with a hook on `MulBackward0` that runs after it
# (`register_hook`), the gradients it returns, in both libraries.

# %%
def mul_returns(lib):
    a = lib.tensor([1.0, 2.0], requires_grad=True)
    b = lib.tensor([3.0, 4.0], requires_grad=True)
    y = (a.exp() * b.sin()).sum()
    mul = y.grad_fn.next_functions[0][0]
    returned = []
    mul.register_hook(lambda grad_inputs, grad_outputs: returned.extend(
        None if grad is None else rounded(grad) for grad in grad_inputs))
    y.backward(inputs=[b])
    return returned


mini_returns = mul_returns(torch)
print("mini_autograd:", mini_returns)
if real_torch is None:
    print(tr("PyTorch is not installed: skipped (pip install torch==2.13.0 to compare)"))
else:
    print("PyTorch:      ", mul_returns(real_torch))
    print(tr("same as mini_autograd:"), mul_returns(real_torch) == mini_returns)

# %% [markdown]
# `None` for `ExpBackward0`, and for `SinBackward0` the gradient `a.exp()`: `MulBackward0` did one of its
# two multiplications. A custom `Function`'s backward returns whatever it returns; the engine then
# drops a gradient headed for a pruned node, and the trace marks it "dropped".

# %% [markdown]
# PyTorch prunes once more, before `exec_info_` is filled: while it counts dependencies, it does not
# even walk below some nodes. Every node has a *topological number*, `topological_nr` in `node.h`
# (`NOTE [ Topological Number ]`): 0 for an `AccumulateGrad`, and otherwise one more than the largest
# number among its next nodes, that is, the length of the longest path from it down to a leaf. A path
# from X to Y implies that X's number is larger than Y's. `Engine::execute` takes the smallest number
# among the nodes of the inputs asked for, `min_topo_nr`, and `engine.cpp: Engine::compute_dependencies`
# skips the next nodes of any node whose number is smaller: no input can lie below it. PyTorch does not
# show these numbers to Python (a node has `_sequence_nr()` but no `_topological_nr()`), and
# mini_autograd's `compute_dependencies` walks the whole graph; the result is the same, only the walk
# is longer. The cell computes the numbers by their definition, for a graph where one input sits deep
# in one branch, and lists the nodes whose next nodes the counting would skip.

# %%
def topological_nr(node, memo):
    if node not in memo:
        children = [n for n, _ in node.next_functions if n is not None]
        memo[node] = 1 + max(topological_nr(n, memo) for n in children) if children else 0
    return memo[node]


p = torch.tensor([1.0, 2.0], requires_grad=True)
q = torch.tensor([3.0, 4.0], requires_grad=True)
u = q.sin().cos().tanh()
z = (p.exp() * u).sum()
numbers = {}
for node in all_nodes(z.grad_fn):
    topological_nr(node, numbers)
min_topo_nr = numbers[u.grad_fn]              # the input asked for is u: its node is TanhBackward0
print("min_topo_nr =", min_topo_nr, tr("(the number of u's node, TanhBackward0)"))
walked, stopped, seen, stack = [], [], {z.grad_fn}, [z.grad_fn]
while stack:                                  # compute_dependencies' walk, with PyTorch's pruning
    node = stack.pop()
    if numbers[node] < min_topo_nr:
        stopped.append(node)                  # reached, but its next nodes are not walked
        continue
    walked.append(node)
    for next_node, _ in node.next_functions:
        if next_node is not None and next_node not in seen:
            seen.add(next_node)
            stack.append(next_node)
for node, number in sorted(numbers.items(), key=lambda item: -item[1]):
    name = node.name().replace("torch::autograd::", "")
    state = (tr("walked past") if node in walked else tr("reached, not walked past") if node in stopped
             else tr("not reached"))
    print(f"  {name:16} topological_nr {number}  {state}")
ran = []
for node in all_nodes(z.grad_fn):
    node.register_prehook(lambda grads, node=node: ran.append(node.name()))
torch.autograd.grad(z, u)
print(tr("nodes that ran for autograd.grad(z, u):"), ran)

# %% [markdown]
# `ExpBackward0` (number 1) and `CosBackward0` (number 2) are below 3, so PyTorch does not walk past
# them: `SinBackward0` and the two `AccumulateGrad` nodes are never reached. Only `SumBackward0` and
# `MulBackward0` run: `TanhBackward0` is where the gradient of `u` is captured.
#
# ## 3. Reentrant backward: a backward inside a backward
#
# A custom `Function`'s backward may itself call `autograd.grad` or `backward()`. PyTorch's
# `checkpoint(..., use_reentrant=True)` does exactly that: `torch/utils/checkpoint.py`'s
# `CheckpointFunction.backward` runs the forward again and calls `torch.autograd.backward` on it. The
# inner call makes a second graph task. PyTorch runs it on the thread that is running the outer one,
# nested inside it, and counts how deep it is; past `MAX_DEPTH` levels in one thread (60, in `engine.h:
# MAX_DEPTH`), it hands the inner graph task to a thread of a pool and waits for it
# (`engine.cpp: Engine::execute_with_graph_task`, "If reached the max depth, switch to a different
# thread"); there the count starts again. The graph task knows its depth (`reentrant_depth_` in
# `graph_task.h`), and the ready queue pops the deepest task's nodes first, then the highest sequence
# number (`engine.h: CompareNodeTaskTime`), so an inner backward finishes before the outer one goes on.
# mini_autograd gives each graph task a queue of its own, which the inner backward empties before it
# returns: the same order. It counts the depth per thread as PyTorch does and, past `MAX_DEPTH`, runs the
# inner backward in a new thread, with the caller's grad mode, and waits for it.
#
# The `Function` below calls `autograd.grad` in its backward on a new `Nest` of one level less, so that
# one backward starts 70 more, each inside the one before. Each level records the thread that runs it
# and whether grad mode is on.

# %%
def nested_backwards(lib, levels):
    records = []

    class Nest(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x, level):
            ctx.level = level
            return x.clone()

        @staticmethod
        def backward(ctx, grad):
            records.append((ctx.level, threading.get_ident(), lib.is_grad_enabled()))
            if ctx.level < levels:
                with lib.enable_grad():
                    inner = lib.ones(1, requires_grad=True)
                    lib.autograd.grad(Nest.apply(inner, ctx.level + 1).sum(), inner)
            return grad, None

    x = lib.ones(1, requires_grad=True)
    Nest.apply(x, 0).sum().backward()
    threads = {threading.get_ident(): 0}            # thread 0: the one that called backward(); then 1, 2, ...
    numbered = [(level, threads.setdefault(ident, len(threads)), grad_mode) for level, ident, grad_mode in records]
    return numbered


def thread_ranges(numbered):
    ranges = {}
    for level, thread, _ in numbered:
        ranges.setdefault(thread, []).append(level)
    return [f"thread {t}: levels {min(ls)} to {max(ls)}" + (tr(" (the thread that called backward())") if t == 0 else "")
            for t, ls in ranges.items()]


mini_nested = nested_backwards(torch, 70)
print("\n".join(thread_ranges(mini_nested)))
print(tr("grad mode inside each backward:"), {grad_mode for _, _, grad_mode in mini_nested})

# %%
if real_torch is None:
    print(tr("PyTorch is not installed: skipped (pip install torch==2.13.0 to compare)"))
else:
    torch_nested = nested_backwards(real_torch, 70)
    print("\n".join(thread_ranges(torch_nested)))
    print(tr("grad mode inside each backward:"), {grad_mode for _, _, grad_mode in torch_nested})
    print(tr("same as mini_autograd:"), torch_nested == mini_nested)

# %% [markdown]
# Levels 0 to 60 ran on the thread that called `backward()`: the outer backward and 60 nested ones.
# Level 61 was the first past `MAX_DEPTH`, and it and the nine after it ran on a second thread. Inside
# every backward grad mode is off, as the graph tasks were made without `create_graph`. The plot shows
# the thread of each level for mini_autograd's run.

# %%
fig, ax = plt.subplots(figsize=(6, 2.2))
ax.step([level for level, _, _ in mini_nested], [thread for _, thread, _ in mini_nested], where="post")
ax.axvline(60.5, color="grey", linestyle=":")
ax.set_xlabel(tr("level of the nested backward"))
ax.set_ylabel(tr("thread"))
ax.set_yticks([0, 1])
ax.set_title(tr("Past MAX_DEPTH = 60, the next level runs on another thread"))
fig.tight_layout()
plt.show()

# %% [markdown]
# A trace shows one nested graph task step by step. The `Checkpoint` below is chapter 07's: its
# backward runs the segment's forward again, with recording on, and calls `torch.autograd.backward` on
# the result. Here the segment is one layer, `tanh(h * w)`, and `viz.trace_backward` traces a backward
# through it. The inner backward's steps come into the same trace, in the order they ran, as graph
# task 2. The cell prints each step's title, those of graph task 2 indented, and then shows the trace.

# %%
class Checkpoint(torch.autograd.Function):
    @staticmethod
    def forward(ctx, fn, *inputs):
        ctx.fn = fn
        ctx.save_for_backward(*inputs)
        return fn(*inputs)

    @staticmethod
    def backward(ctx, grad_output):
        inputs = [x.detach().requires_grad_(x.requires_grad) for x in ctx.saved_tensors]
        with torch.enable_grad():
            output = ctx.fn(*inputs)                # the forward again, recorded this time
        torch.autograd.backward(output, grad_output)   # the inner backward: a second graph task
        return (None,) + tuple(x.grad for x in inputs)


x = torch.tensor([0.5, -1.0], requires_grad=True)
w = torch.tensor([1.0, 2.0], requires_grad=True)
out = Checkpoint.apply(lambda h: (h * w).tanh(), x).sum()
nested_trace = viz.trace_backward(out, params={"x": x, "w": w}, names={"out": out})
print(nested_trace.outline())
nested_trace

# %% [markdown]
# At step 2 `CheckpointBackward` runs, and its backward starts graph task 2 before it sends anything:
# graph task 1 waits in it, with an empty ready queue and `x`'s `AccumulateGrad` still waiting. Step 3
# is graph task 2's own step 0, at reentrant depth 1: its dependencies counted and its root, the
# recomputed `TanhBackward0`, in its ready queue. Its nodes appear there, in a box of their own. Steps 4
# to 7 run them; the two `AccumulateGrad` nodes write the gradient of the recomputed input ("leaf 1" in
# the picture), which the checkpoint's backward returns, and `w.grad`. At step 8 `CheckpointBackward` returns that
# gradient, and graph task 1 goes on: `x`'s `AccumulateGrad` runs last.

# %% [markdown]
# ## Exercises
#
# **Exercise 13.1.** For `y = (a.exp() * b.sin()).sum()` of section 2, how many nodes run for
# `torch.autograd.grad(y, b)`? Answer with a whole number.

# %%
# Exercise 13.1
answer_13_1 = ...  # your answer here: a whole number

# %% tags=["hide-input"]
check_exercise("13.1")

# %% [markdown]
# <details><summary>Show solution</summary>
#
# ```python
# # Exercise 13.1
# answer_13_1 = 3
# ```
#
# `SumBackward0`, `MulBackward0` and `SinBackward0` run. The `a` branch is not on a path to `b`, and
# `b`'s `AccumulateGrad` does not run: `autograd.grad` captures the gradient arriving at it.
#
# </details>
#
# **Exercise 13.2.** With `nested_backwards(torch, 130)`, levels 0 to 130, how many threads in all run
# the levels? Answer with a whole number.

# %%
# Exercise 13.2
answer_13_2 = ...  # your answer here: a whole number

# %% tags=["hide-input"]
check_exercise("13.2")

# %% [markdown]
# <details><summary>Show solution</summary>
#
# ```python
# # Exercise 13.2
# answer_13_2 = 3
# ```
#
# The first thread runs levels 0 to 60. Level 61 goes to a second thread, where the count starts again:
# it runs levels 61 to 121. Level 122 goes to a third thread, which runs levels 122 to 130.
#
# </details>
#
# **Exercise 13.3.** A parameter is made as `w = torch.randn(4, 3).t().detach().requires_grad_()`, then
# `(w ** 2).sum().backward()`. What is `w.grad.stride()`? Answer with a tuple.

# %%
# Exercise 13.3
answer_13_3 = ...  # your answer here: a tuple of two whole numbers

# %% tags=["hide-input"]
check_exercise("13.3")

# %% [markdown]
# <details><summary>Show solution</summary>
#
# ```python
# # Exercise 13.3
# answer_13_3 = (1, 3)
# ```
#
# `w` is the transpose of a row-major 4×3 matrix: shape (3, 4), strides `(1, 3)`. It is one dense
# block, so by the Gradient Layout Contract its first gradient gets the same strides.
#
# </details>
#
# ## Recap
#
# - `register_post_accumulate_grad_hook` runs after `.grad` is written: a parameter can be stepped, and
#   its gradient dropped, while backward is still running.
# - A leaf's `AccumulateGrad` node is held weakly and made anew when needed; a leaf's hooks live on the
#   tensor, so they survive that, and a hook on the node does not.
# - The first gradient is laid out as its parameter (the Gradient Layout Contract). PyTorch also takes
#   a gradient nobody else holds as `.grad` without a copy; mini_autograd copies it.
# - `autograd.grad` and `backward(inputs=...)` run only the nodes on a path to the inputs
#   (`exec_info`); PyTorch's topological numbers also shorten the walk that counts dependencies.
# - A backward inside a backward runs on the same thread, up to `MAX_DEPTH` = 60 levels per thread; the
#   next level runs on another thread. It is a graph task of its own, which runs to its end inside the
#   node that started it: `viz.trace_backward` shows its steps in the outer backward's trace.
#
# [Back to 12 — Summary](12_summary.ipynb) · [Back to 00 — Welcome](00_welcome.ipynb)
