# %% [markdown]
# # 08 — The engine: what really runs when you call `loss.backward()`
#
# Chapter 03 followed `backward()` from the outside: start at the loss, run each node's
# backward formula, add the results into the leaves' `.grad`. This chapter opens the machine
# that does it. `loss.backward()` is one line, but behind it sits a small execution engine,
# with a task object, dependency counting, a priority queue, per-node input buffers and, at
# the end of every path, the node that writes `.grad`.
#
# **What you will learn**
#
# - the two layers of autograd: a Python API for convenience, and an engine (in PyTorch, C++)
#   that executes the graph; and the exact chain of calls from `Tensor.backward()` into it
# - the core objects, as the source names them: `Tensor`, `Node`, `Edge`, `GraphTask`,
#   `ReadyQueue`, `InputBuffer`, `AccumulateGrad`
# - how the engine decides *when* a node may run (dependency counts) and *which* ready node
#   runs next (the newest, by sequence number), and why a valid order falls out of counting
# - how two gradients for the same tensor meet in an input buffer and are summed before the
#   node runs
# - the engine at work, frame by frame, on a graph where two paths meet — and the same order
#   recorded from real PyTorch
# - where each piece lives in PyTorch's source (`torch/csrc/autograd/engine.cpp` and friends)
# - to rewrite your `myautograd`'s engine as PyTorch's: dependency counts, a ready queue by
#   sequence number, input buffers — and to check that it runs the diamond in PyTorch's order
#
# **Seed sections:** article 000 §7, "从 Python 进入 C++ Engine" (from Python into the C++
# engine), and §12, "从源码角度看 Autograd 的核心对象" (the core objects of autograd, seen from
# the source).
#
# **mini_autograd pieces introduced:** the whole of `autograd/engine.py` — `run_backward`,
# `execute`, `GraphTask`, `compute_dependencies`, `ReadyQueue`, `InputBuffer`,
# `evaluate_function`, `call_function`, `validate_outputs` — and again `AccumulateGrad`
# (`autograd/graph.py`), now as the last step of the engine.
#
# **Time:** about 45 minutes to read and run, and about 40 more for the two build steps.

# %%
import mini_autograd as torch
from mini_autograd import viz
from mini_autograd.autograd import engine
from mini_autograd.autograd.engine import GraphTask, ReadyQueue, InputBuffer, compute_dependencies
from mini_autograd.autograd.graph import AccumulateGrad
import numpy as np
from coursetools import show_source, tr
from exercises import check_exercise

# %% [markdown]
# ## 1. Two layers: a Python API and an engine
#
# Autograd, as article 000 describes it, has two layers. On top sits the **Python API**:
# `loss.backward()`, `torch.autograd.backward()`, `torch.autograd.grad()`. It exists to be
# convenient: it accepts a tensor or a list, fills in missing arguments, checks them. Below sits
# the **autograd engine** (引擎), which actually executes the backward graph. In PyTorch the
# engine is C++; in mini_autograd it is the Python module `autograd/engine.py`, built the same
# way and with the same names.
#
# Follow one call down. `Tensor.backward` does nothing itself; it passes its arguments on to
# `autograd.backward` (the listing of `Tensor.backward` is in chapter 03; PyTorch:
# `torch/_tensor.py: Tensor.backward`).
#
# `autograd.backward` (PyTorch: `torch/autograd/__init__.py: backward`) gathers what the
# engine needs: the output tensors as a tuple, one starting gradient per output (made by
# `_make_grads`: a `1` for a scalar, the error from chapter 03 otherwise), and the flags. Most
# of its lines check arguments; these are the ones that matter here:

# %%
show_source(torch.autograd.backward, only=["tensors = _as_tuple(tensors)", "if retain_graph is None",
                                           "retain_graph = create_graph", "grads = _make_grads",
                                           "engine.run_backward(", "allow_unused=True"])

# %% [markdown]
# Note `retain_graph`: left at `None`, it becomes `create_graph`, which is `False` by default —
# that is why a graph is freed after one backward unless you ask otherwise (chapter 07).
#
# `engine.run_backward` is the doorway into the engine. Its job is small but essential: turn
# each output *tensor* into an *edge* of the graph — the node a gradient for that tensor must
# enter — and call `execute`. From here on, the engine sees only nodes and edges, never
# tensors. The conversion is `gradient_edge`: a tensor made by an operation leads to its
# `grad_fn`, a leaf that requires grad to its `AccumulateGrad` (chapter 04):

# %%
from mini_autograd.autograd.graph import gradient_edge

w = torch.tensor([1.0, 2.0], requires_grad=True)
s = (w * 3).sum()
print("gradient_edge(s):", gradient_edge(s))
print("gradient_edge(w):", gradient_edge(w))

# %% [markdown]
# <details><summary>In PyTorch: where Python hands over to C++</summary>
#
# `torch/autograd/graph.py: _engine_run_backward` calls
# `Variable._execution_engine.run_backward(...)`, a function written in C++
# (`torch/csrc/autograd/python_engine.cpp: THPEngine_run_backward`). It does what
# mini_autograd's `run_backward` does: it turns each tensor into an edge with
# `torch::autograd::impl::gradient_edge` (`variable.h`) and calls `Engine::execute`.
#
# </details>

# %% [markdown]
# So the chain is:
#
# | step | mini_autograd | PyTorch |
# |---|---|---|
# | 1 | `Tensor.backward` | `torch/_tensor.py: Tensor.backward` |
# | 2 | `autograd.backward`, `_make_grads` | `torch/autograd/__init__.py: backward`, `_make_grads` |
# | 3 | `engine.run_backward` | `torch/autograd/graph.py: _engine_run_backward` → **C++**: `python_engine.cpp: THPEngine_run_backward` |
# | 4 | `engine.execute` | `engine.cpp: Engine::execute` (creates the `GraphTask`, counts dependencies, seeds the ready queue) |
# | 5 | `evaluate_function`, once per node | `engine.cpp: Engine::evaluate_function`, called from the loop of `Engine::thread_main`, which for a CPU graph runs on the thread that called `backward()` |
# | 6 | `AccumulateGrad.apply` at each leaf | `functions/accumulate_grad.h: AccumulateGrad` writes `.grad` |
#
# Steps 1 to 3 only hand the call on. The work is in steps 4 to 6: counting how many gradients
# each node waits for, choosing which node runs next, and adding gradients up where paths meet.
# The rest of this chapter takes them apart one at a time.

# %% [markdown]
# ## 2. The cast: six objects
#
# Article 000 §12 names the objects to hold on to. The key point: autograd's core is not the
# tensor itself but the *history* behind it.
#
# | object | what it is | in mini_autograd |
# |---|---|---|
# | **Tensor** | the data, plus autograd metadata: `requires_grad`, `grad_fn`, `grad`, `is_leaf` | `Tensor` (`_tensor.py`) |
# | **Node** | one execution step of the backward graph; it knows its own backward formula | `Node`; each `grad_fn` is one (`autograd/graph.py`) |
# | **Edge** | a connection between nodes: where a gradient flows next | a pair `(node, input_nr)` in `next_functions` |
# | **GraphTask** | the context of *one* call of backward: counts, buffers, flags | `GraphTask` (`autograd/engine.py`) |
# | **ReadyQueue** | the nodes whose dependencies are satisfied, waiting to run | `ReadyQueue` (`autograd/engine.py`) |
# | **AccumulateGrad** | the node at a leaf that adds the gradient into `.grad` | `AccumulateGrad` (`autograd/graph.py`) |
#
# A seventh helper, the **InputBuffer**, collects the gradients arriving at a node; it will
# matter in section 8. Three of the six can be seen on any tensor right away: the metadata,
# the node, and its edges.

# %%
x = torch.tensor([0.5, 1.0], requires_grad=True)
a = x * 2
print(tr("Tensor a:"), a)
print(tr("  metadata: requires_grad ="), a.requires_grad, "| is_leaf =", a.is_leaf)
print(tr("  its Node (a.grad_fn):"), a.grad_fn)
print(tr("  the Node's Edges (a.grad_fn.next_functions):"), a.grad_fn.next_functions)

# %% [markdown]
# Each edge is a pair `(node, input_nr)`: the node that gets the gradient, and which of that
# node's inputs it is for. The first edge leads to `x`'s `AccumulateGrad`; the second is
# `(None, 0)`, because the constant `2` needs no gradient.
#
# <details><summary>In PyTorch: Node and Edge in C++</summary>
#
# An edge is `torch/csrc/autograd/edge.h: struct Edge` with the fields `function` and
# `input_nr`, and a node keeps its edges in `next_edges_` (`torch/csrc/autograd/node.h:
# struct Node`). `grad_fn.next_functions` is the Python view of `next_edges_`.
#
# </details>

# %% [markdown]
# ## 3. A graph where two paths meet
#
# A chain is too simple to show what the engine does. This chapter's example uses `a` twice,
# so two paths leave `a` and meet again further down — a **diamond**:
#
# ```
#             out = p.sum()
#                   |
#               p = b * c
#             /           \
#      b = a.exp()     c = a.tanh()
#             \           /
#               a = x * 2
#                   |
#                   x
# ```

# %%
x = torch.tensor([0.5, 1.0], requires_grad=True)
a = x * 2
b = a.exp()
c = a.tanh()
p = b * c
out = p.sum()
print(out)

# %%
viz.draw(out, params={"x": x})

# %% [markdown]
# Six nodes. The arrows point the way gradients will flow. `n1 MulBackward0` (for `p = b * c`) sends
# gradients down two edges, to `n2 ExpBackward0` and `n3 TanhBackward0`; both of those send
# theirs to the same node, `n4 MulBackward0` (for `a = x * 2`). So `n4` must not run until
# *both* gradients have arrived: the gradient of `out` with respect to `a` is the sum of what
# comes down the two paths. Getting that right, for any graph, is the engine's whole job.
#
# To talk about the nodes by name, here is a small helper that numbers them as the pictures do
# (breadth first from the root, `n0`, `n1`, ...). It works on PyTorch's nodes too, which section
# 12 will use. Beside each name: the line of the forward pass that made the node.

# %%
def number_nodes(root):
    """{node: "n3 TanhBackward0", ...}: every node reachable from root, numbered breadth first."""
    names, queue = {}, [root]
    while queue:
        node = queue.pop(0)
        if node is None or node in names:
            continue
        names[node] = f"n{len(names)} {node.name().split('::')[-1]}"
        queue.extend(next_node for next_node, _ in node.next_functions)
    return names


names = number_nodes(out.grad_fn)
made_by = {out.grad_fn: "out = p.sum()", p.grad_fn: "p = b * c", b.grad_fn: "b = a.exp()",
           c.grad_fn: "c = a.tanh()", a.grad_fn: "a = x * 2", a.grad_fn.next_functions[0][0]: tr("x (the leaf)")}
for node, name in names.items():
    print(f"{name:<18} {made_by[node]}")

# %% [markdown]
# ## 4. Watch the engine run it
#
# Before reading any more engine code, watch it work. `viz.trace_backward` runs one real
# backward through `engine.run_backward`, with an observer that records each step: which node
# ran, what it received and sent, and the state it left the engine in — the ready queue and the
# nodes still waiting, with how many gradients each still waits for and what its buffer already
# holds. (In each picture: red = runs now, blue dashed = ready, plain grey = still waiting,
# faded = done.) Press play, or step with the buttons, the slider or the arrow keys, and click a
# node to see what its buffer holds, what it sent and what it saved. A notebook you have not run
# yet shows the steps as an animation instead: run the cell to get the player.

# %%
trace = viz.trace_backward(out, params={"x": x})
trace

# %% [markdown]
# The same run as one compact table, one row per step:

# %%
short = {node.id: f"{node.id} {node.name}" for node in trace.graph.nodes}
print(tr("step node that ran     received            ready queue afterwards            waiting"))
for frame in trace[1:]:
    ready = ", ".join(short[node_id] for node_id in frame.ready) or tr("(empty)")
    waiting = ", ".join(tr(f"{node_id} needs {count}") for node_id, count, _ in frame.waiting) or "-"
    print(f"{frame.step:<5}{short[frame.node_id]:<18}{', '.join(frame.received):<20}{ready:<34}{waiting}")
print("x.grad =", x.grad)

# %% [markdown]
# Read it row by row:
#
# 1. The root `n0 SumBackward0` runs first, with the starting gradient `1.`, and sends `[1., 1.]`
#    to `n1`.
# 2. `n1 MulBackward0` (`b * c`) sends `c` to `ExpBackward0` and `b` to `TanhBackward0`. Both are
#    now ready, and **`n3 TanhBackward0` goes first**, although `ExpBackward0` is `n1`'s first
#    edge. Section 7 explains why: `c = a.tanh()` was created after `b = a.exp()`.
# 3. `TanhBackward0` sends its gradient to `n4`. But `n4` waits for two gradients; it has one, so
#    it stays off the queue, its gradient parked in its buffer (the "buffer holds" line of step
#    3 in the frames above).
# 4. `ExpBackward0` delivers the second gradient; the buffer now holds the **sum**
#    `[3.2118, 7.6453]`, and `n4` becomes ready.
# 5. `n4 MulBackward0` (`a = x * 2`) runs once, on the summed gradient, and sends `2 ×` it on.
# 6. `n5 AccumulateGrad` writes `x.grad`.
#
# Every node ran exactly once, and only after all of its gradients had arrived. The next
# sections show the code that makes this happen.

# %% [markdown]
# ## 5. The loop that runs it all: `execute`
#
# `execute` is the engine's main function (PyTorch: `torch/csrc/autograd/engine.cpp:
# Engine::execute`). Read it top to bottom: it creates a `GraphTask`, checks the starting
# gradients with `validate_outputs` (the check every node's results go through, section 9; it
# casts each one to the dtype of the output it is for, as PyTorch's does), puts the starting
# gradient into the root's `InputBuffer`, counts dependencies, pushes the root into a
# `ReadyQueue`, and then loops — pop a ready node, evaluate it — until the queue is empty.
# (The `tracer` lines are the hooks `trace_backward` used above; without a tracer they are skipped.)

# %%
show_source(engine.execute)

# %% [markdown]
# Four details:
#
# - **One root, or a `GraphRoot`.** With a single output (the usual `loss.backward()`), its node
#   is the root. With several outputs, `torch.autograd.backward([loss1, loss2])`, a `GraphRoot`
#   node is put in front of them, whose only job is to hand out the starting gradients.
#   PyTorch does the same (`functions/basic_ops.h: GraphRoot`, skipped for a single root).
# - **Grad mode during backward.** Recording is switched off while the backward formulas run,
#   unless `create_graph=True` (chapter 11 uses that for second derivatives).
# - **`output_edges`** is for `autograd.grad(out, inputs)` and `backward(inputs=...)`: then only
#   the nodes on a path to those inputs run (`init_to_execute`, PyTorch:
#   `GraphTask::init_to_execute`). With plain `backward()` every node runs.
# - **The thread's current graph task.** While the loop runs, `current_graph_task.task` is this
#   graph task (PyTorch sets its `current_graph_task` with a `GraphTaskGuard`, `graph_task.h`), and the
#   outer one again afterwards. A built-in node reads it to leave out the gradients such a pruned
#   backward will not use (chapter 13 shows it).
#
# ## 6. `GraphTask` and the dependency count
#
# A `GraphTask` is everything one backward call needs to remember: `keep_graph` (the
# `retain_graph` flag), `create_graph`, `dependencies` (for each node, how many gradients are
# still to come), `not_ready` (the `InputBuffer` of each node still waiting), and for
# `autograd.grad` which nodes to run and which gradients to capture. It lives only for the
# duration of that call; the graph itself is not changed by it. (PyTorch:
# `torch/csrc/autograd/graph_task.h: struct GraphTask`, with fields `keep_graph_`,
# `dependencies_`, `not_ready_`, `exec_info_` and `captured_vars_`.)
#
# Its `dependencies` are filled by `compute_dependencies` (PyTorch: `Engine::compute_dependencies`
# in `engine.cpp`). It walks the graph once, from the root, with an explicit stack, and counts
# for every node **how many edges point at it** — that is, how many gradients it will receive.

# %%
show_source(compute_dependencies)

# %% [markdown]
# Run it on the diamond. (Backward has already run on this graph and freed what its nodes
# saved; the nodes and their edges stay as long as `out` exists, and counting reads only the
# edges.)

# %%
graph_task = GraphTask(keep_graph=True, create_graph=False)
print(tr(f"a GraphTask's fields: {', '.join(vars(graph_task))}"))
compute_dependencies(out.grad_fn, graph_task)
for node, name in names.items():
    count = graph_task.dependencies.get(node, 0)
    print(tr(f"{name:<18} {made_by[node]:<14} waits for {count} gradient{'s' if count != 1 else ''}"))

# %% [markdown]
# The root waits for nothing: its gradient is the starting `1`. Every other node waits for one
# gradient per edge pointing at it. `n4 MulBackward0` — the node of `a = x * 2` — has two
# edges pointing at it, one from `exp` and one from `tanh`, so it waits for **2**.
#
# The rule the loop follows is: *a node joins the ready queue only when its count reaches 0*.
# That single rule guarantees a correct order. A node runs only after every node that sends it
# a gradient has run — which is exactly what a topological order of the graph means. The
# engine never sorts the graph; the order falls out of counting (computer scientists know this
# as Kahn's algorithm). Section 11 shows it in a dozen lines of code.
#
# ## 7. The ready queue: newest node first
#
# When several nodes are ready at once, which one runs? After step 2 of the trace, both
# `ExpBackward0` and `TanhBackward0` were ready. The `ReadyQueue` (PyTorch: `struct ReadyQueue`
# in `engine.h`) is a priority queue ordered by the node's **sequence number**:

# %%
show_source(ReadyQueue)

# %% [markdown]
# Every node gets a sequence number when it is created, from a counter that only goes up. So a
# higher number means *created later in the forward pass*. The queue pops the highest number
# first: **the newest node first**. For the diamond, relative to the first node (`a = x * 2`):

# %%
first = a.grad_fn._sequence_nr()
for node, name in names.items():
    if isinstance(node, AccumulateGrad):
        print(tr(f"{name:<18} sequence number: the maximum (runs as soon as it is ready)"))
    else:
        print(tr(f"{name:<18} sequence number: first + {node._sequence_nr() - first}"))

# %% [markdown]
# `c = a.tanh()` was created one step after `b = a.exp()`, so `TanhBackward0` outranks
# `ExpBackward0`: that is why it ran first in step 3, although `ExpBackward0` sits on
# `p = b * c`'s first edge. The order of the edges plays no role. (Both PyTorch and
# mini_autograd expose the number in Python as the method `grad_fn._sequence_nr()`.) Each
# thread counts on its own (`ATen/SequenceNumber.h`: "a simple thread local enumeration"): a
# node recorded in a new thread starts again from 0, so it counts as older than this thread's.
#
# Why newest first? It replays the forward pass in reverse, as the ledger picture suggests:
# the last entry booked is the first one read back. Nodes made late in the forward pass tend to
# be the ones closest to the loss, so their gradients are ready early, and the memory they
# saved for backward can be released soon after (chapter 07).
#
# **`AccumulateGrad` is the exception.** It is created without a number from the counter; it
# gets the largest possible one. So as soon as a leaf's gradient is complete, its
# `AccumulateGrad` jumps the queue and writes `.grad`. That frees the buffer at once and lets
# anything waiting for a parameter's gradient start early — in distributed training, the hooks
# that send gradients between machines.
#
# Note that the priority only picks among nodes that are *already ready*. It can never make a
# node run before its count reaches 0; correctness comes from the counts, and the priority only
# chooses which ready node goes next.
#
# And when two ready nodes have the same number, such as the `AccumulateGrad` nodes of several
# leaves? mini_autograd's queue hands them out in the order they arrived: that is what the
# arrival count in `push` above is for. This is mini_autograd's own rule, not PyTorch's.
# PyTorch's queue is a C++ `std::priority_queue`, a binary heap, and a heap keeps no order
# among equal keys. An example: join four leaves with `torch.cat` and call backward on the sum.
# `CatBackward0` makes the four `AccumulateGrad` nodes ready together, in the order of its
# edges 0, 1, 2, 3. PyTorch 2.13 runs them in the order 0, 2, 1, 3 (seen with a hook on each
# leaf); mini_autograd runs them 0, 1, 2, 3. The gradients are the same either way. Only
# side effects such as hooks can tell the difference, so code should never depend on the
# order of ties.
#
# <details><summary>In PyTorch: the queue's comparison in C++</summary>
#
# `ReadyQueue::push` and `ReadyQueue::pop` are in `torch/csrc/autograd/engine.cpp`; the order
# is `CompareNodeTaskTime` inside `struct ReadyQueue` (`engine.h`). Apart from special cases for
# shutdown tasks and reentrant backward calls, it returns
# `t1.fn_->sequence_nr() < t2.fn_->sequence_nr()`, so the top of the heap is the largest
# sequence number. The heap itself is a `std::priority_queue<NodeTask, std::vector<NodeTask>,
# CompareNodeTaskTime>` (`engine.h`), which does not keep equal keys in arrival order. `AccumulateGrad`'s number is `UINT64_MAX`, set by its constructor in
# `functions/accumulate_grad.cpp` and explained in `NOTE [ Sequence Number]` in `node.h`.
#
# </details>
#
# ## 8. `InputBuffer`: where two paths meet
#
# A node waiting for several gradients needs somewhere to keep the ones that have arrived.
# That is its `InputBuffer` (PyTorch: `input_buffer.h`, `InputBuffer::add` in
# `input_buffer.cpp`): one slot per input of the node, and `add` **sums** into the slot.

# %%
show_source(InputBuffer)

# %% [markdown]
# In the trace, after step 3, `n4`'s buffer held `[1.1416, 0.5220]` (from `tanh`); step 4 added
# `[2.0702, 7.1233]` (from `exp`), and `n4` ran once on `[3.2118, 7.6453]`. Check the sum by hand:
# $\partial\,\text{out}/\partial a = c\,e^{a} + e^{a}(1-\tanh^2 a)$:

# %%
a_val = a.detach().numpy()
via_exp = np.tanh(a_val) * np.exp(a_val)              # through b = exp(a): c * e^a
via_tanh = np.exp(a_val) * (1 - np.tanh(a_val) ** 2)  # through c = tanh(a): b * (1 - tanh²a)
print(tr("via exp: "), via_exp.round(4))
print(tr("via tanh:"), via_tanh.round(4))
print(tr("sum:     "), (via_exp + via_tanh).round(4))
print(tr("x.grad = 2 * sum:"), (2 * (via_exp + via_tanh)).round(4))

# %% [markdown]
# This is the multivariable chain rule, done by a buffer: where a tensor is used twice, its
# gradient is the sum of the gradients from each use. The sum happens **before** the node runs,
# so `n4`'s backward formula runs once, not twice. (The buffers of waiting nodes are kept in the
# `GraphTask`'s `not_ready` map — PyTorch's `not_ready_`.)
#
# ## 9. One node's turn: `evaluate_function`, `call_function`, `validate_outputs`
#
# Each pop of the ready queue calls `evaluate_function` (PyTorch: `Engine::evaluate_function`,
# called from the loop of `thread_main`, which for a CPU graph runs on the thread that called
# `backward()`; section 13's box says more). It runs the node, frees what the node saved (unless
# `retain_graph=True`; chapter 07: this is why a second backward fails), then delivers each
# gradient it produced along the node's edges: decrement the target's count, add the gradient into the target's
# buffer (creating the buffer on first delivery), and push the target into the ready queue when
# its count reaches 0.

# %%
show_source(engine.evaluate_function)

# %% [markdown]
# The first line (`if graph_task.exec_info and not run_or_capture(...)`) only matters for
# `autograd.grad` and `backward(inputs=...)`: `run_or_capture` keeps the gradients
# `autograd.grad` returns and says whether the node must run. The loop at the end is where the
# trace's "waiting" lines came from. Like PyTorch's, it counts each delivery first, then skips
# a node that `autograd.grad` does not need.
#
# Running the node itself is `call_function` (PyTorch: `call_function` in `engine.cpp`). Hooks
# registered on the tensor or the node run first (chapter 11), then the node's own backward
# formula (`node.apply`); the results go through `validate_outputs`, then through the node's
# post-hooks. Only when `call_function` has returned does `evaluate_function` release the saved
# tensors, so a post-hook can still read them. (PyTorch's `call_function` tells the node before
# running it, with `fn.will_release_variables()`; the release itself is in `evaluate_function`.)

# %%
show_source(engine.call_function)

# %% [markdown]
# How does `node.apply` reach the `backward` you wrote for an op? When a `Function` subclass such
# as `Mul` is defined, `Function.__init_subclass__` makes its node class, `MulBackward0`, and
# gives it a pointer back: `_forward_cls`. Recording `x * w` creates one `MulBackward0` object,
# which is also the `ctx` that `Mul.forward` saved into. So the engine needs no table of ops:

# %%
from mini_autograd.autograd.function import BackwardFunction

x, w = torch.tensor(2.0, requires_grad=True), torch.tensor(3.0, requires_grad=True)
node = (x * w).grad_fn
print(type(node).__name__, tr("| a BackwardFunction:"), isinstance(node, BackwardFunction),
      tr("| its _forward_cls:"), node._forward_cls.__name__,
      tr("| the backward it runs:"), node._forward_cls.backward.__qualname__)
show_source(BackwardFunction.apply)
show_source(BackwardFunction._call_backward, only=["grads = self._forward_cls.backward"])

# %% [markdown]
# `apply` passes "no gradient" straight on for a built-in op whose gradients did not arrive,
# fills in zeros for a custom `Function` that asks for them (chapter 11), and then calls
# `_forward_cls.backward(self, *grads)` with the node itself as `ctx`: that is the line where
# the engine hands over to the formula of `Mul.backward`. (The first `if` after it drops the
# gradients `backward` returned for arguments that were not tensors, such as the exponent `2` of
# `x.pow(2)`; the second, under `autograd.grad` or `backward(inputs=...)`, replaces a built-in op's
# gradients for the nodes that will not run with `None`, as PyTorch's nodes leave them out.) This
# is PyTorch's own design for custom Python `Function`s: their node class is made from
# `BackwardCFunction` with the same `_forward_cls` link (`torch/autograd/function.py`), and its
# `apply` calls `self._forward_cls.backward(self, *args)`. PyTorch's built-in ops are C++ nodes instead, each
# with its formula compiled into its own `apply` (`MulBackward0::apply` in the generated
# `torch/csrc/autograd/generated/Functions.cpp`); mini_autograd writes its built-in ops as
# `Function`s too, so one path serves both.
#
# `validate_outputs` (PyTorch: `validate_outputs` in `engine.cpp`) is the engine's guard: a
# backward formula must return one gradient per edge, each with the shape of the input it is
# for, or the engine raises "Function ... returned an invalid gradient". Where the shapes differ
# only by broadcasting, it sums the gradient down to the input's shape with `sum_to` (chapter
# 03): this is where the gradient of a broadcast `x + bias` gets the shape of `bias`.

# %% [markdown]
# ## 10. The end of each path: `AccumulateGrad`
#
# Every leaf that requires grad gets one `AccumulateGrad` node (PyTorch:
# `torch/csrc/autograd/functions/accumulate_grad.h`). For the engine it is a node like any other:
# it has a dependency count, a buffer, a place in the ready queue. Its `apply` is special only in
# what it does with the gradient: instead of passing it on (it has no edges), it stores it in the
# leaf's `.grad` — copied the first time, added in place after that. Its source is listed in
# two parts: the class and its link to the leaf in chapter 04, `apply` in chapter 05. Seen from
# the engine, it is the node with no edges:

# %%
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
accumulate = y.grad_fn.next_functions[0][0]
print(accumulate.name(), "| next_functions:", accumulate.next_functions, "| variable is x:", accumulate.variable is x)
y.sum().backward()
print("x.grad:", x.grad)

# %% [markdown]
# With that, the list of article 000 §7 is complete: `Tensor.backward()` →
# `autograd.backward()` → `run_backward` → `execute` creates a `GraphTask`, counts dependencies,
# puts runnable nodes into the `ReadyQueue` → `evaluate_function` runs each node and feeds the
# `InputBuffer`s → `AccumulateGrad` writes the leaves' `.grad`.
#
# ## 11. The order falls out of counting
#
# To see that counting alone produces a valid order, here is the engine's schedule without any
# gradients: the real `GraphTask`, `compute_dependencies` and `ReadyQueue`, and the
# "decrement, push at zero" rule from `evaluate_function`.

# %%
def schedule(root):
    """The order in which the engine runs the nodes below root: counts, and a queue."""
    graph_task = GraphTask(keep_graph=True, create_graph=False)
    compute_dependencies(root, graph_task)
    counts = graph_task.dependencies
    queue = ReadyQueue()
    queue.push(root, None)
    order = []
    while queue:
        node, _ = queue.pop()
        order.append(node)
        for next_node, _ in node.next_functions:
            if next_node is not None:
                counts[next_node] -= 1
                if counts[next_node] == 0:        # every gradient for it has been delivered
                    queue.push(next_node, None)
    return order


order = [names[node] for node in schedule(out.grad_fn)]
print(order)
print(tr("the same order as the trace:"), order == trace.order)

# %% [markdown]
# A dozen lines, and the same order as the real run. Two properties follow from the rule, whatever
# the graph:
#
# - *No node runs too early*: it is pushed only when its count is 0, i.e. after all its senders.
# - *No node is forgotten*: every edge is counted once and decremented once, so every count
#   reaches 0.
#
# The priority is a choice on top. With a first-in-first-out queue instead, the order changes
# (`ExpBackward0` before `TanhBackward0`), and the gradients do not: both orders respect every
# edge, and addition does not care in which order the buffer is filled.
#
# Compare chapter 03's tiny backward, which first sorted the graph with a recursive depth-first
# search. The engine needs no sort and no recursion: counting plus a queue does both jobs, and
# works on a graph of any depth.
#
# ## 12. The same graph in real PyTorch
#
# Does PyTorch really run the nodes in this order? Each node accepts a *pre-hook*
# (`grad_fn.register_prehook(fn)`), a function called just before the node runs (chapter 11 has
# more on hooks). The function below registers one on every node, each appending the node's
# name to a list, and runs backward. It uses only the PyTorch API, so it runs unchanged on both
# libraries.

# %%
def execution_order(out):
    """Run out.backward() and return the nodes' names in the order they ran."""
    ran = []
    for node, name in number_nodes(out.grad_fn).items():
        node.register_prehook(lambda grad_outputs, name=name: ran.append(name))
    out.backward()
    return ran


x = torch.tensor([0.5, 1.0], requires_grad=True)
a = x * 2
b = a.exp()
c = a.tanh()
mini_order = execution_order((b * c).sum())
print("mini_autograd:", mini_order)
print("x.grad =", x.grad)

# %% [markdown]
# Now the same code with PyTorch, if it is installed (it is optional for this course; the
# stored output below is from PyTorch 2.13):

# %%
try:
    import torch as real_torch                # the real one; `torch` here is mini_autograd
except ImportError:
    real_torch = None

if real_torch is None:
    print(tr("PyTorch is not installed: skipped (pip install torch==2.13.0 to compare)"))
else:
    xt = real_torch.tensor([0.5, 1.0], requires_grad=True)
    at = xt * 2
    bt = at.exp()
    ct = at.tanh()
    torch_order = execution_order((bt * ct).sum())
    print(tr("PyTorch ran the nodes in this order:"))
    for step, name in enumerate(torch_order, start=1):
        print(f"  {step}. {name}")
    print("x.grad =", xt.grad)
    print(tr("same order as mini_autograd:"), torch_order == mini_order)

# %% [markdown]
# The same six nodes in the same order, `TanhBackward0` before `ExpBackward0` included, and the
# same gradient. PyTorch's engine counts dependencies and picks the highest sequence number
# exactly as described above.
#
# ## 13. Where each piece lives in PyTorch
#
# | mini_autograd | PyTorch source |
# |---|---|
# | `Tensor.backward` (`_tensor.py`) | `torch/_tensor.py: Tensor.backward` |
# | `autograd.backward`, `_make_grads` (`autograd/__init__.py`) | `torch/autograd/__init__.py: backward`, `_make_grads` |
# | `engine.run_backward` | `torch/autograd/graph.py: _engine_run_backward` → `torch/csrc/autograd/python_engine.cpp: THPEngine_run_backward` |
# | `engine.execute` | `torch/csrc/autograd/engine.cpp: Engine::execute` (then `execute_with_graph_task`, `thread_main`) |
# | `GraphTask` | `torch/csrc/autograd/graph_task.h: struct GraphTask` |
# | `compute_dependencies` | `engine.cpp: Engine::compute_dependencies` |
# | `ReadyQueue.push` / `.pop` | `engine.cpp: ReadyQueue::push`, `ReadyQueue::pop`; order: `CompareNodeTaskTime` in `engine.h` |
# | `InputBuffer` | `torch/csrc/autograd/input_buffer.h`, `input_buffer.cpp: InputBuffer::add` |
# | `evaluate_function` | `engine.cpp: Engine::evaluate_function` (`call_function`, then `release_variables()` unless `keep_graph_`) |
# | `call_function` | `engine.cpp: call_function` (hooks, `will_release_variables()`, `fn(inputs)`, `validate_outputs`, post-hooks) |
# | `validate_outputs`, `sum_to` | `engine.cpp: validate_outputs`; `at::sum_to` in `ATen/ExpandUtils.h` |
# | `Node`, `next_functions`, `_sequence_nr` | `torch/csrc/autograd/node.h: struct Node` (`next_edges_`, `sequence_nr()`) |
# | an edge `(node, input_nr)` | `torch/csrc/autograd/edge.h: struct Edge` |
# | `AccumulateGrad` | `torch/csrc/autograd/functions/accumulate_grad.h` and `accumulate_grad.cpp` |
# | `GraphRoot` | `torch/csrc/autograd/functions/basic_ops.h: GraphRoot` |
#
# The steps and their order are the same in both; the machinery around them is bigger in
# PyTorch, for speed on real hardware, not for a different answer.
#
# <details><summary>In PyTorch: what its engine does that mini_autograd's does not</summary>
#
# - **Threads and devices.** Each backward call's `GraphTask` has a ready queue of its own for
#   CPU work (`cpu_ready_queue_` in `graph_task.h`), and the thread that called `backward()`
#   works through it: `Engine::execute_with_graph_task` in `engine.cpp` has that thread run
#   `thread_main` itself. Only accelerators such as GPUs have queues shared by every backward,
#   one per device, each served by a worker thread of its own (`device_ready_queues_` in
#   `engine.h`; `engine.cpp`'s `Engine::ready_queue` picks the queue). A gradient produced on
#   one device is pushed to the queue of the device its next node runs on. Here a single loop
#   with a single queue does everything.
# - **Waiting for the end.** Because several threads work on one `GraphTask`, it counts its
#   outstanding tasks (`outstanding_tasks_`) and signals completion through a future; errors
#   raised on a worker thread are stored and re-raised in the caller.
# - **Reentrant backward.** A backward formula may itself call `backward()`, and gradient
#   checkpointing does so today: in PyTorch 2.13, `checkpoint()` called without `use_reentrant`
#   warns and then takes `use_reentrant=True`, and `torch/utils/checkpoint.py`'s
#   `CheckpointFunction.backward` calls `torch.autograd.backward`, as chapter 07's `Checkpoint`
#   does. The inner call is a second `GraphTask`, which the same thread runs to its end while the
#   outer one waits (past a maximum depth PyTorch hands it to a thread of a pool instead, and
#   its queue's priority also looks at the depth). mini_autograd's engine runs the inner backward to
#   its end inside the node too, and past the same maximum depth in a new thread
#   ([chapter 13](13_deeper_engine.ipynb)).
# - **Streams.** On GPUs, `InputBuffer::add` also synchronises CUDA streams before summing.
#
# None of this changes the answer; it makes it faster on real hardware.
#
# </details>

# %% [markdown]
# ## 14. Build it: PyTorch's engine in your `myautograd`
#
# Your engine of chapter 03 sorts the graph first and then runs it in that order. It gives the right
# gradients, but not PyTorch's order, and it keeps a list of the whole graph that PyTorch never makes. Two
# steps turn it into the engine of this chapter.
#
# ### Step 08.1: dependency counts
#
# Write `compute_dependencies(root)` in [myautograd/engine.py](myautograd/engine.py#compute_dependencies): section 6's walk from the
# root along `next_functions`, visiting each node once, returning a dict `{node: number of edges pointing at
# it}` rather than filling a `GraphTask`. Count edges, not nodes: `y * y` gives `y`'s `AccumulateGrad` two (as
# in exercise 8.1). Use a loop and a list as the stack, as in step 03.2: the check counts a chain of 10,000
# operations.
#
# <details><summary>Hint 1</summary>
#
# PyTorch's `compute_dependencies` walks the graph once from the root and, for every edge it meets, adds one to the
# count of the node the edge points at. A node's count is the number of gradients it will receive.
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# Count edges, walk nodes once. `y * y` has two edges into `y`'s node: count 2. A node reached along two paths must
# still have its own edges followed once, or everything below it is counted twice: count on every edge, but push a
# node on the stack only the first time you see it. Skip the `(None, 0)` edges, and key the dict by the nodes
# themselves.
#
# </details>
#
# <details><summary>A sketch</summary>
#
# ```python
# counts, seen, stack = {}, {root}, [root]
# while stack:
#     node = stack.pop()
#     for next_node, _ in node.next_functions:
#         if next_node is None:
#             continue
#         counts[next_node] = ___          # one more edge points at it
#         if ___:                          # first time: walk it later
#             ___
# return counts
# ```
#
# </details>

# %%
import buildtrack

buildtrack.check("08.1")

# %% [markdown]
# Compare with `mini_autograd`'s `compute_dependencies`, listed in section 6: the same walk, with a `seen` set
# so that a node's own edges are followed once, however many edges point at it.
#
# ### Step 08.2: the ready queue and the input buffers
#
# Now rewrite `run_backward` in [myautograd/engine.py](myautograd/engine.py#run_backward) as `execute` (section 5) and
# `evaluate_function` (section 9) run the graph, with no sorting:
#
# - count the dependencies first (step 08.1);
# - the dict of gradients your engine already keeps becomes the **input buffers** (section 8): a gradient
#   arriving along an edge is added into the target's buffer;
# - after each delivery, take one from the target's count; at 0 the target is **ready**;
# - the **ready queue** (section 7) is a list kept as a heap by `heapq`, of tuples
#   `(-node.sequence_nr, arrival number, node)`: `heapq` pops the smallest tuple, so the minus sign makes the
#   newest node come out first; the arrival number (from `itertools.count()`) decides between equal sequence
#   numbers (every `AccumulateGrad` has the maximum), since two nodes cannot be compared with `<`;
# - pop, run, deliver, until the queue is empty.
#
# Keep what your engine already does around each node: the pre-hooks, `sum_to`, recording off while the
# formulas run, and `release_saved` unless `retain_graph` (step 07.2). Section 11's `schedule` is the skeleton,
# without the gradients. The check runs your engine on two graphs where paths meet and compares its order with
# `mini_autograd`'s. Each of them has one leaf, so no two ready nodes share a sequence number, and there
# `mini_autograd`'s order is PyTorch's (checked with PyTorch 2.13). Then it runs a graph where a custom
# `Function`'s backward returns None (every edge counts, even one that carries None: a node whose count reaches 0
# with only None in its buffer is ready too; its pre-hooks are called with None, as PyTorch calls them with
# `(None,)`, and may not put a gradient in its place; it unpacks what it saved, `node.unpack_saved()`, as
# PyTorch's nodes do before anything else, and passes None on), a chain of 10,000 operations, and random
# programs with up to three leaves, whose order is compared with `mini_autograd`'s too. In those,
# `a * b` of two leaves makes both `AccumulateGrad` nodes ready at once: a tie, which the check expects broken by
# arrival, `mini_autograd`'s rule (section 7). PyTorch 2.13 happens to run such a pair in that order too, but it
# promises no order among ties (section 7's four leaves ran 0, 2, 1, 3).
#
# <details><summary>Hint 1</summary>
#
# No sorting: a node is ready when every gradient it waits for has arrived (its count reaches 0), and of the ready
# nodes the one with the highest `sequence_nr`, the newest, runs first (PyTorch's `ReadyQueue`). The check judges
# what your engine does, not which helpers it calls (your `compute_dependencies` or counting inline are both fine):
# the order in which your nodes run, recorded with a pre-hook on each and compared with `mini_autograd`'s, and the
# gradients, on graphs where paths meet, on `y = x * x; y * y`, on a backward that returns None, on a chain of
# 10,000 operations and on random programs.
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# A plain list used as a stack or as a first-in-first-out queue gives correct gradients in another order: with
# `p = x.exp(); q = x.tanh(); out = (q * p).sum()`, `TanhBackward0` must run before `ExpBackward0`, the older node,
# although the two became ready together. Push a node once, when its count reaches 0, not at every delivery, or it
# runs more than once. `heapq` compares tuples item by item and two nodes cannot be compared, so a unique arrival
# number must come before the node. Take one off the count for every edge, also one whose gradient is None, or a
# node waits forever for a gradient that never comes (`Block.apply(y) + y` with a backward that returns None). Keep
# the rest as it was: hooks, `sum_to`, adding as a new tensor, recording off with `finally`, freeing unless
# `retain_graph`.
#
# </details>
#
# <details><summary>A sketch</summary>
#
# ```python
# root, _ = gradient_edge(tensor)
# counts = ___                             # how many gradients each node waits for
# buffers = {root: gradient}
# arrival = itertools.count()
# ready = [(___, next(arrival), root)]
# # (recording off, try:)
# while ready:
#     _, _, node = heapq.heappop(ready)
#     grad = buffers.pop(node, None)       # None: only None arrived
#     ___                                  # the pre-hooks, also with None (which none may replace)
#     next_grads = ___                     # None: node.unpack_saved(), and None goes on; else node.apply
#     ___                                  # freeing: as before
#     for i, ((next_node, _), next_grad) in enumerate(zip(node.next_functions, next_grads)):
#         if next_node is None:
#             continue
#         ___                              # a gradient that is not None: sum_to, then into buffers[next_node]
#         counts[next_node] -= 1           # every edge, None or not
#         if ___:                          # every gradient for it has arrived
#             heapq.heappush(ready, (___, ___, next_node))
# # (finally: recording back as it was)
# ```
#
# </details>

# %%
buildtrack.check("08.2")

# %% [markdown]
# Compare with `mini_autograd`'s listings in this chapter: `execute` (section 5), `ReadyQueue` (section 7),
# `InputBuffer` (section 8) and `evaluate_function` (section 9). The scheme is yours; it is spread over
# classes there because PyTorch's engine also serves `autograd.grad`, several roots and worker threads, and
# your `run_backward` does all of it in one function.
#
# Once the step is done, here is the order in which your engine runs the nodes of section 3's diamond, recorded
# as in section 12, but with your nodes' `pre_hooks` list (a hook there receives the gradient arriving at the
# node), beside `mini_autograd`'s order from section 12:

# %%
def diamond(torch):
    """Section 3's graph: a = x * 2 feeds both b = a.exp() and c = a.tanh()."""
    x = torch.tensor([0.5, 1.0], requires_grad=True)
    a = x * 2
    b = a.exp()
    c = a.tanh()
    return x, (b * c).sum()


mine = buildtrack.mine("08.2")
if mine:
    x_mine, out_mine = diamond(mine)
    my_order = []
    for node, name in number_nodes(out_mine.grad_fn).items():
        node.pre_hooks.append(lambda grad, name=name: my_order.append(name))
    out_mine.backward()
    print("mini_autograd:  ", mini_order)
    print(tr("your myautograd:"), my_order)
    print(tr("the same order:"), my_order == mini_order, "| x.grad:", x_mine.grad)

# %% [markdown]
# `viz.trace_backward` traces your engine too, in one call: given a tensor of your `myautograd`, it puts a
# pre-hook on every node, runs your engine (`engine=`, here your `run_backward`; without it, your
# `Tensor.backward`) and plays its steps as section 4's player does: the order, what each node received and
# sent, the `.grad` written. Your engine's queue is its own, so its frames leave out the queue.

# %%
from IPython.display import display

if mine:
    x_mine, out_mine = diamond(mine)
    my_trace = viz.trace_backward(out_mine, params={"x": x_mine}, engine=mine.engine.run_backward)
    display(my_trace)
    print(tr("the same order:"), my_trace.order == trace.order)

# %% [markdown]
# ## Exercises
#
# **Exercise 8.1.** In this graph, how many gradients does `w`'s `AccumulateGrad` node wait for
# (its dependency count, as `compute_dependencies` computes it)? Think about edges, not
# tensors.
#
# ```python
# w = torch.tensor(1.5, requires_grad=True)
# u = w * w
# v = u + w
# out = v * u
# ```
#
# <details><summary>Hint 1</summary>
#
# Count edges, not tensors: one edge per use of `w` in an operation.
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# `w * w` uses `w` twice, so its node has two edges to `w`'s `AccumulateGrad`.
#
# </details>
#
# <details><summary>A sketch</summary>
#
# Go through the lines that use `w` and add up its uses: `answer_8_1 = ___`.
#
# </details>

# %%
# Exercise 8.1
answer_8_1 = ...  # your answer here: a whole number

# %% tags=["hide-input"]
check_exercise("8.1")

# %% [markdown]
# <details><summary>Show solution</summary>
#
# ```python
# # Exercise 8.1
# answer_8_1 = 3
# ```
#
# `w * w` makes a `MulBackward0` whose `next_functions` are `((AccumulateGrad, 0),
# (AccumulateGrad, 0))`: two edges to the same node, one per factor. `u + w` adds a third. The
# number of tensors does not matter (there is only one leaf, `w`); the number of edges does. The
# three gradients arriving along them are summed in the node's `InputBuffer`, and `.grad` is
# written once.
#
# </details>

# %% [markdown]
# **Exercise 8.2.** After the root `MulBackward0` (for `out = q * p`) has run, its two next
# nodes, `TanhBackward0` and `ExpBackward0`, are both ready. Which runs first? Answer with its
# name, e.g. `"MulBackward0"`.
#
# ```python
# x = torch.tensor(2.0, requires_grad=True)
# q = x.tanh()
# p = x.exp()
# out = q * p
# ```
#
# <details><summary>Hint 1</summary>
#
# Section 7: among the nodes that are ready, which one does the ready queue pop first?
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# The one with the highest sequence number: the one created *last* in the forward pass. The order of the edges plays no role.
#
# </details>
#
# <details><summary>A sketch</summary>
#
# Which of `q = x.tanh()` and `p = x.exp()` ran later? `answer_8_2 = "___Backward0"`.
#
# </details>

# %%
# Exercise 8.2
answer_8_2 = ...  # your answer here: a node name as a string

# %% tags=["hide-input"]
check_exercise("8.2")

# %% [markdown]
# <details><summary>Show solution</summary>
#
# ```python
# # Exercise 8.2
# answer_8_2 = "ExpBackward0"
# ```
#
# Both `ExpBackward0` and `TanhBackward0` become ready when the root has run. The ready queue
# pops the highest sequence number, and `p = x.exp()` was created after `q = x.tanh()`. The
# position in `out = q * p` plays no role: `TanhBackward0` is on the first edge and still runs
# second. (This is the diamond's lesson turned around: there, `tanh` was created last and ran
# first.) The full order is `MulBackward0`, `ExpBackward0`, `TanhBackward0`, `AccumulateGrad`;
# `x`'s `AccumulateGrad` waits for both. PyTorch 2.13 runs the same graph in the same order.
#
# </details>

# %% [markdown]
# **Exercise 8.3.** In the graph below, the node of `a = x + 1` (an `AddBackward0`) receives
# several gradients, summed in its `InputBuffer` before it runs. Predict (1) the value the
# buffer holds when the node runs, and (2) how many gradients were summed into it. Answer with
# a pair, e.g. `(5.0, 2)`.
#
# ```python
# x = torch.tensor(2.0, requires_grad=True)
# a = x + 1
# b = a * a
# out = b + a
# ```
#
# <details><summary>Hint 1</summary>
#
# Count the edges that end at `a`'s node: `a` is used in `a * a` (twice) and in `b + a`.
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# Work out what each edge carries: `+` hands on the gradient as it is (1); each factor of `a * a` gets the other factor, $a = 3$.
#
# </details>
#
# <details><summary>A sketch</summary>
#
# `answer_8_3 = (sum of what the ___ edges carry, number of edges)`.
#
# </details>

# %%
# Exercise 8.3
answer_8_3 = ...  # your answer here: (value in the buffer, number of gradients summed)

# %% tags=["hide-input"]
check_exercise("8.3")

# %% [markdown]
# <details><summary>Show solution</summary>
#
# ```python
# # Exercise 8.3
# answer_8_3 = (7.0, 3)
# ```
#
# Three edges end at `a`'s node: one from `AddBackward0` (`out = b + a`), carrying 1, and two
# from `MulBackward0` (`b = a * a`), each carrying $1 \cdot a = 3$ (the other factor). The buffer
# sums them to $1 + 3 + 3 = 7 = \partial\,\text{out}/\partial a = 2a + 1$. Only then does the
# node run, once, and pass 7 on to `x`.
#
# </details>

# %% [markdown]
# ## Recap
#
# - Two layers: the Python API (`Tensor.backward` → `autograd.backward`, which prepares outputs,
#   starting gradients and `retain_graph`) and the engine (`run_backward` → `execute`). In
#   PyTorch the switch from Python to C++ happens at `Variable._execution_engine.run_backward`
#   (`python_engine.cpp: THPEngine_run_backward`).
# - The cast: **Tensor** (data + autograd metadata), **Node** (a backward step that knows its
#   formula), **Edge** (`(node, input_nr)`: where the gradient goes), **GraphTask** (one
#   backward's context), **ReadyQueue** (nodes whose dependencies are met), **InputBuffer**
#   (gradients arriving at a node, summed), **AccumulateGrad** (writes `.grad`).
# - `compute_dependencies` counts the edges into each node. A node is pushed to the ready
#   queue when its count reaches 0, so it runs once, after all its senders: a topological
#   order, without sorting and without recursion.
# - Among ready nodes the newest (highest sequence number) runs first; `AccumulateGrad` has
#   the maximum number, so `.grad` is written as soon as it is complete. Real PyTorch runs the
#   diamond in the same order.
# - Where paths meet, the `InputBuffer` sums the gradients before the node runs: the
#   multivariable chain rule.
# - PyTorch adds worker threads for accelerators, completion tracking, reentrant backward and stream
#   synchronisation around the same steps.
# - Your `myautograd`'s engine is now PyTorch's (steps 08.1 and 08.2): it counts dependencies, runs the
#   newest ready node first from a `heapq`, sums arriving gradients in input buffers, and runs the
#   diamond in the same order as `mini_autograd` and PyTorch.
#
# [Next: 09 — Dynamic graphs](09_dynamic_graphs.ipynb)
