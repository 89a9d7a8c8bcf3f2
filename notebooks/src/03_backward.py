# %% [markdown]
# # 03 — backward(): reading the graph in reverse
#
# Chapter 02 showed that every operation leaves a note behind: the `grad_fn` node, linked to the
# nodes before it through `next_functions`. This chapter calls `backward()` on that graph and
# follows what happens, step by step.
#
# **What you will learn**
#
# - what `loss.backward()` does, and what it does not do: it does not run the model again; it
#   starts at the loss, walks the graph backwards, runs each node's backward formula and adds
#   the results into the leaves' `.grad`
# - the chain rule as the engine applies it: one local derivative per node, multiplied in turn
# - the vector-Jacobian product, and what the `gradient=` argument of `backward()` means
#   ("the gradient arriving from upstream")
# - why `backward()` without arguments needs a scalar, and the two ways around it
# - how to write backward yourself, in your `myautograd`: the formulas, a first engine, `Tensor.backward`;
#   and why an engine must be a loop rather than a recursion
#
# **Seed sections:** article 003, "backward()：从结果往回推" (backward works from the result back)
# and "非标量怎么处理" (what to do with non-scalar results); article 000 §6,
# "backward() 到底做了什么" (what backward() really does).
#
# **mini_autograd pieces introduced:** `Tensor.backward`, `autograd.backward` and its
# `_make_grads` (where the scalar rule lives), and the chain of calls into the engine
# (`autograd/engine.py`: `run_backward`, `execute`, `evaluate_function`). Chapter 08 takes the
# engine apart line by line.
#
# **Time:** about 45 minutes to read and run, and about 45 more for the three build steps.

# %%
import inspect
import time

import numpy as np

import mini_autograd as torch
from mini_autograd import viz
from coursetools import show_source, answer_fold, expect_error, tr
from exercises import check_exercise

# %% [markdown]
# ## 1. The classic example
#
# The same four lines as in chapter 02, plus one call: `out.backward()`.

# %%
x = torch.ones(2, 2, requires_grad=True)
y = x + 2
z = y * y * 3
out = z.mean()
out.backward()
print(x.grad)

# %% [markdown]
# Every entry of `x.grad` is 4.5. Check it by hand. Written out in one formula,
#
# $$\text{out} = \frac{1}{4}\sum_{i,j} 3\,(x_{ij}+2)^2 ,$$
#
# so the derivative with respect to one entry is
#
# $$\frac{\partial\,\text{out}}{\partial x_{ij}} = \frac{1}{4}\cdot 6\,(x_{ij}+2) = \frac{3}{2}\,(x_{ij}+2),$$
#
# which at $x_{ij}=1$ is $\frac{3}{2}\cdot 3 = 4.5$. The same formula, evaluated with plain numpy:

# %%
by_hand = 1.5 * (x.detach().numpy() + 2)
print(by_hand)
print(tr("autograd agrees with the hand derivation:"), np.allclose(x.grad.numpy(), by_hand))

# %% [markdown]
# ## 2. The graph after backward
#
# Here is the graph `out` was built on, with the leaf `x` named. Since `backward()` has run,
# the leaf box also shows `x.grad`.

# %%
viz.draw(out, params={"x": x})

# %% [markdown]
# Read the picture (or its text) from top to bottom: that is the order in which backward
# visits the nodes. `MeanBackward0` is the root, the node that made `out`. The gradient goes
# through the two `MulBackward0` nodes (`* 3`, then `y * y`), then `AddBackward0` (`x + 2`),
# and ends in `AccumulateGrad`, which writes `x.grad`. The double arrow into `AddBackward0`
# is `y` used twice in `y * y`. The `None` entries in the text are the constants 2 and 3:
# nothing needs their gradient, so the picture draws no edge for them.
#
# Article 000 compares autograd to an **account book** (a ledger, 账本): during the forward
# pass every operation is booked as one entry — who took part, what came out, and how to hand
# the gradient back. `backward()` opens the book at the last page and reads it in reverse, entry
# by entry, to the first.

# %% [markdown]
# ## 3. What `backward()` does — and what it does not do
#
# A common misconception is that `loss.backward()` "runs the model backwards", or runs it
# again. It does neither. The forward pass has already run; what `backward()` has is the
# ledger. To see that no forward operation runs again, put a `print` in a small model:

# %%
def model(x):
    print(tr("  forward: computing y, z and out"))
    y = x + 2
    z = y * y * 3
    return z.mean()


x = torch.ones(2, 2, requires_grad=True)
print(tr("calling the model:"))
out = model(x)
print(tr("calling out.backward():"))
out.backward()
print("x.grad:", x.grad.tolist())

# %% [markdown]
# The model's code ran once, during the forward pass. `backward()` did four things, all on
# the graph:
#
# 1. **Start at the root.** The root is `out.grad_fn`, and the gradient it starts with is
#    $\partial\,\text{out} / \partial\,\text{out} = 1$.
# 2. **Walk the graph backwards**, along `next_functions`, from the loss towards the leaves.
# 3. **At each node, run that node's backward logic**: it takes the gradient arriving at the
#    node's output and returns one gradient per input of the forward operation.
# 4. **At the leaves, accumulate**: the `AccumulateGrad` node adds the gradient into `.grad`
#    (*adds*, not overwrites; chapter 05 is about this).
#
# ## 4. The chain rule, one node at a time
#
# Step 3 is the chain rule. Each node knows only its *local* derivative: how its output changes
# with its inputs. The gradient arriving from above is multiplied by that local derivative and
# passed on. For the classic example, with $g$ the gradient arriving at each stage:
#
# | node (forward operation) | gradient arriving | local derivative | gradient sent on |
# |---|---|---|---|
# | `MeanBackward0` (out = mean of z, 4 entries) | $g=1$ | $\partial\,\text{out}/\partial z_{ij} = 1/4$ | $0.25$ |
# | `MulBackward0` (z = u · 3, with u = y·y) | $0.25$ | $\partial z/\partial u = 3$ | $0.75$ |
# | `MulBackward0` (u = y · y) | $0.75$ | $\partial u/\partial y = y$ for each factor | $0.75 \cdot 3 = 2.25$, twice |
# | `AddBackward0` (y = x + 2) | $2.25 + 2.25 = 4.5$ | $\partial y/\partial x = 1$ | $4.5$ |
# | `AccumulateGrad` (x) | $4.5$ | — | `x.grad += 4.5` |
#
# Two details matter. First, `y * y` uses `y` twice, so two gradients arrive at `AddBackward0`
# and are **summed**: that is the multivariable chain rule. Second, nothing here ever builds
# the full formula $\frac{3}{2}(x+2)$: the engine only multiplies numbers that flow through
# the graph.
#
# ## 5. The vector-Jacobian product: what `gradient=` means
#
# With tensors, the "local derivative" of a node is a **Jacobian** matrix: for an output
# $\mathbf{y}$ with $m$ entries and an input $\mathbf{x}$ with $n$ entries, $J_{ij} =
# \partial y_i / \partial x_j$. A node never builds $J$. It receives a vector $\mathbf{v}$
# shaped like its output — the gradient of the final loss with respect to that output, *the
# gradient arriving from upstream* — and returns
#
# $$\mathbf{v}^\top J \;=\; \Big(\sum_i v_i \,\frac{\partial y_i}{\partial x_j}\Big)_j ,$$
#
# the gradient of the loss with respect to its input. That is a **vector-Jacobian product**
# (VJP), and every backward formula is one.
#
# For a scalar loss the very first $\mathbf{v}$ is just the number 1, and `backward()` fills it
# in. For a result with several entries, there is no single obvious starting vector, so
# `backward()` refuses to guess:
#
# The next cell fails on purpose, with a `RuntimeError`: `y` holds three numbers, and `backward()` has no
# starting gradient for them. It prints the error as PyTorch's traceback ends, `RuntimeError: ...`; so does
# every cell of the course that fails on purpose.

# %%
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x ** 2
with expect_error(RuntimeError):
    y.backward()

# %% [markdown]
# `grad can be implicitly created only for scalar outputs`: "implicitly created" is the
# starting gradient that `backward()` would have made up for you. For a vector you pass it
# yourself, as the `gradient=` argument, shaped like `y`. Article 003's example:

# %%
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x ** 2
y.backward(torch.ones_like(y))
print(x.grad)

# %% [markdown]
# The result is $2x$ = `[2., 4., 6.]`. Here $J$ is diagonal ($\partial y_i/\partial x_j = 2x_i$
# when $i=j$, else 0) and $\mathbf{v}$ is all ones, so $\mathbf{v}^\top J = 2x$. The same
# product in numpy, Jacobian and all — exactly what the engine avoids building:

# %%
x_values = np.array([1.0, 2.0, 3.0])
J = np.diag(2 * x_values)          # the Jacobian of y = x**2
v = np.ones(3)                     # the gradient arriving from upstream
print("J =\n", J)
print("v @ J =", v @ J)

# %% [markdown]
# Passing `gradient=v` means: "pretend the final loss was $L = \sum_i v_i\,y_i$". With all
# ones, that $L$ is just `y.sum()`. So the other way around the scalar rule is to reduce the
# result to a scalar first — in practice a loss is always a `sum()` or `mean()` of something:

# %%
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x ** 2
y.sum().backward()
print(x.grad)

# %% [markdown]
# The same `[2., 4., 6.]`. Other vectors weight the entries differently:
# `y.backward(torch.tensor([1.0, 0.5, 2.0]))` computes the gradient of
# $1\cdot y_0 + 0.5\cdot y_1 + 2\cdot y_2$:

# %%
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x ** 2
y.backward(torch.tensor([1.0, 0.5, 2.0]))
print(x.grad)

# %% [markdown]
# Article 003 lets beginners leave `gradient=` aside, and in everyday training that works: a loss
# is one number, so its `backward()` needs no argument. When an output has more numbers than one,
# there are two ways on: hand `backward()` a gradient shaped like the output, or reduce the output
# to one number first. The idea behind the argument, though, is everywhere: each node is handed
# the gradient of the final result with respect to its output, and passes a vector-Jacobian
# product on. That is how the whole engine works.

# %% [markdown]
# ## 6. Open the hood: from `Tensor.backward` to the engine
#
# `Tensor.backward` itself does almost nothing: it hands its arguments to `autograd.backward`.
# In PyTorch this is `torch/_tensor.py: Tensor.backward`.

# %%
show_source(torch.Tensor.backward)

# %% [markdown]
# `autograd.backward` prepares the starting gradients. Here is where the scalar rule lives
# (PyTorch: `torch/autograd/__init__.py: _make_grads`): when no gradient is given, a tensor of
# ones is created for a one-element output, and anything bigger raises the error you saw above.
# A gradient you do pass must have the output's shape. Its dtype need not match: an integer
# gradient such as `torch.tensor([2, 1, -1])` is accepted, and the engine casts it to the
# output's dtype before it starts (chapter 08). PyTorch refuses only a complex gradient for a
# real output, or the reverse, and mini_autograd has no complex numbers.

# %%
show_source(torch.autograd._make_grads)

# %% [markdown]
# Then the engine takes over. To see the whole chain of calls at the moment a gradient reaches
# a leaf, register a *hook* on `x` — a function the engine calls with `x`'s gradient
# (chapter 11 covers hooks) — and let it print the call stack, keeping only the frames that
# are in `mini_autograd`:

# %%
def print_call_chain(grad):
    frames = [f for f in inspect.stack() if "mini_autograd" in f.filename]
    for depth, frame in enumerate(reversed(frames)):
        where = frame.filename.split("mini_autograd", 1)[1].lstrip("/\\")
        print(f"{'  ' * depth}{where}: {frame.function}")


x = torch.tensor(2.0, requires_grad=True)
x.register_hook(print_call_chain)
(x * x).backward()

# %% [markdown]
# Read from the top: `Tensor.backward` → `autograd.backward` → `engine.run_backward` →
# `execute_reentrant_aware` and `_execute_here` (which only count how deeply backwards nest and hand
# a trace on to a nested backward, chapter 13) → `execute` → `evaluate_function` for each node →
# `call_function`, which runs the node's hooks and its backward formula.
#
# `execute` holds the main loop. It counts how many gradients each node must wait for, puts the
# root in a ready queue, and then pops and runs nodes until the queue is empty.
# `evaluate_function` runs one node and hands each gradient it produced to the next node along
# `next_functions`; a node joins the ready queue only when every gradient it waits for has
# arrived. That is all of `backward()`: no recursion, one loop over a queue. Chapter 08 reads
# the engine's loop line by line, on a graph where two paths meet.
#
# <details><summary>In PyTorch: the same call chain</summary>
#
# `Tensor.backward` is in `torch/_tensor.py` and `autograd.backward` in
# `torch/autograd/__init__.py`. `engine.run_backward` is where PyTorch crosses from Python into
# C++ (`torch/csrc/autograd/python_engine.cpp: THPEngine_run_backward`); the rest is in
# `torch/csrc/autograd/engine.cpp`: `Engine::execute`, `Engine::evaluate_function` for each
# node, and `call_function`.
#
# </details>

# %% [markdown]
# ## 7. Build it: backward formulas, a first engine, `Tensor.backward`
#
# Now your `myautograd` learns to run backward. Three steps: the formulas each node applies, the loop that visits
# the nodes, and the `backward()` method that starts it.
#
# ### Step 03.1: backward formulas
#
# In [myautograd/ops.py](myautograd/ops.py#Add.backward), each operation's `forward` is given. Write the `backward` of `Add`,
# `Mul`, `Pow`, `Exp`, `Sum`, `Mean` and `MatMul`. Each receives `grad`, the gradient arriving at the operation's
# output (the $\mathbf{v}$ of section 5), and returns the vector-Jacobian product for each Tensor input, as a
# Tensor: for `out = a * b` that is `grad * b` for `a` and `grad * a` for `b`. What a formula needs from the
# forward pass, `forward` has saved on `ctx` with `ctx.save_for_backward(...)`, and `ctx.saved_tensors` gives it
# back (chapter 07 is about these saved tensors). `Sub` and `Neg` are written
# for you, as examples. The check calls each formula with an upstream gradient that is not all ones, and
# compares with finite differences: nudging each input by a little and watching the output.
#
# <details><summary>Hint 1</summary>
#
# Each backward is the chain rule at one node: the gradient arriving from upstream, `grad`, times the local
# derivative of the output with respect to each input. Return one Tensor per Tensor input (a tuple when there are
# two), computed with Tensor operations, in the order of `forward`'s inputs.
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# The mistakes the check names: forgetting to multiply by `grad`; a power that does not go down by one; a mean that
# does not divide by the number of entries. `Sum` and `Mean` must return a gradient shaped like their input
# (`ctx.shape`), and any array you make needs `grad`'s dtype, or a float32 leaf gets a float64 gradient. Never change
# `grad` itself (`grad *= ...`): `Add` hands one and the same gradient to both of its inputs. For `MatMul`, let the
# shapes guide you: `a` is `[n, k]`, `b` is `[k, m]`, `grad` is `[n, m]`. And `a ** 0` is the constant 1: the
# textbook formula gives `0 * 0 ** -1 = nan` at `a = 0`, where PyTorch's `pow_backward` returns zeros for a zero
# exponent; so does yours (the docstring says how).
#
# </details>
#
# <details><summary>A sketch</summary>
#
# ```python
# # Pow: ctx.exponent is the number c
# a, = ctx.saved_tensors
# return grad * ___ * a ** ___
# # Sum: every entry of a gets grad
# return grad * Tensor(np.ones(___, dtype=___))
# # Mean: the same, but each entry gets 1/n of it, n = the number of entries of a
# # MatMul: [n, k] and [k, m] from grad [n, m]
# a, b = ctx.saved_tensors
# return grad @ ___, ___ @ grad
# ```
#
# </details>

# %%
import buildtrack

buildtrack.check("03.1")

# %% [markdown]
# Compare with `mini_autograd`'s `Mul` (its `forward` keeps only what the other input's gradient needs, a
# refinement chapter 07 explains). It is the answer of step 03.1 for `Mul`, so it is folded: open it once your check
# says done.

# %%
from mini_autograd.ops.binary import Mul

with answer_fold("03.1"):
    show_source(Mul)

# %% [markdown]
# ### Step 03.2: a first engine
#
# The engine has two jobs. First an order: every node must run after all the nodes that send it a gradient,
# or it would pass on a gradient before all of its parts had arrived. Following `next_functions` depth first and
# listing each node after everything below it gives such an order (read backwards, the root comes first): a
# *topological order*. Then one pass in that order: take the gradient that arrived at the node, run
# `node.apply(grad)`, and **add** each gradient it returns into what the next node has received so far, since
# paths can meet (`y * y`). Two more duties, both the engine's in PyTorch too: undo broadcasting (a gradient for
# `b` in `x + b`, with `b` of shape `[3]` and `x` of shape `[2, 3]`, arrives shaped `[2, 3]`: the given `sum_to`
# sums it back to `[3]`), and run the formulas with recording off, since a gradient is not part of any graph.
#
# Why "a loop with your own stack" in the docstring? The obvious depth-first search calls itself once per
# node along a path. The cell below runs it on the seed's graph, then on a chain of 10,000 multiplications,
# where it fails on purpose: Python stops it with a `RecursionError`, which the cell catches and prints.

# %%
def depth_first(node, order, seen):
    """The obvious recursive version: list `node` after everything below it."""
    if node is None or node in seen:
        return order
    seen.add(node)
    for next_node, _ in node.next_functions:
        depth_first(next_node, order, seen)
    order.append(node)
    return order


def long_chain(torch, n, factor):
    """x, and h = x multiplied n times by factor: a graph that is one long chain."""
    x = torch.tensor(1.0, dtype=torch.float64, requires_grad=True)
    h = x
    for _ in range(n):
        h = h * factor
    return x, h


x = torch.ones(2, 2, requires_grad=True)
y = x + 2
out = (y * y * 3).mean()
print(tr("the seed graph:"), [node.name() for node in reversed(depth_first(out.grad_fn, [], set()))])
x, h = long_chain(torch, 10_000, 1.0001)
try:
    depth_first(h.grad_fn, [], set())
except RecursionError as error:
    print(tr(f"a chain of 10,000 multiplications: {type(error).__name__}: {str(error)[:32]}"))

# %% [markdown]
# Python allows only a limited depth of nested calls (about a thousand by default), and a chain of 10,000
# multiplications is not exotic: it is what an RNN unrolled over many time steps looks like. So write
# `topological_order` with a loop and a Python list as the stack, then `run_backward`, in
# [myautograd/engine.py](myautograd/engine.py#topological_order); and `AccumulateGrad.apply`, the last node of every path, in
# [myautograd/function.py](myautograd/function.py#AccumulateGrad.apply): for now it stores a copy of the gradient in the leaf's
# `.grad` (chapter 05 changes what happens when there is one already). A node that no gradient reached (every
# backward that leads to it returned None for it, as a custom `Function` of chapter 11 may) has nothing to pass
# on: skip it. The check runs your engine on the seed example, on broadcasting, on hooks (chapter 04 uses them),
# on a `Function` whose backward returns None, on a chain of 10,000 operations, and then on random programs.
#
# <details><summary>Hint 1</summary>
#
# A node may run only when every node that sends it a gradient has run; then its gradient is complete. A depth-first
# walk that lists each node *after* everything below it (post-order), reversed, gives such an order. The pass then
# keeps a dict `{node: gradient arrived so far}`: take the node's gradient, run the hooks, `node.apply`, and add each
# result into the dict entry of the node it goes to.
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# Five mistakes the check names:
#
# - Listing a node when it is first popped (pre-order) can run it before all its gradients arrived: on
#   `y = x * 2; z = y * 3; out = z + y`, x.grad comes out 2 instead of 8. Push a node twice: once to push its
#   children, once, marked, to list it after them.
# - Add arriving gradients as a new tensor (`old + new`), not into `old._data`: the old tensor may be one a node
#   handed to two places (`Add` passes the same gradient to both inputs).
# - A hook that returns None only observes: `grad = hook(grad)` would turn the gradient into None.
# - A node that nothing but None reached is not in the dict: `arrived.pop(node, None)`, and skip it when None.
# - Remember the grad mode before switching it off and put back *that* value in a `finally`: a hook may raise, and
#   backward may run inside `no_grad`.
#
# In `AccumulateGrad.apply`, store a copy of `grad`, for the same reason as the second point.
#
# </details>
#
# <details><summary>A sketch</summary>
#
# ```python
# def topological_order(root):
#     order, visited, stack = [], set(), [(root, False)]   # (node, "its children are listed")
#     while stack:
#         node, children_listed = stack.pop()
#         if children_listed:
#             ___                          # list it now
#         elif node not in visited:
#             visited.add(node)
#             stack.append((node, ___))    # come back to it after its children
#             ___                          # push each child: skip None and nodes already visited
#     return ___                           # the root first
#
#
# def run_backward(tensor, gradient, retain_graph=False):
#     root, _ = gradient_edge(tensor)
#     arrived = {root: gradient}
#     previous = ___
#     grad_mode._state.grad_enabled = False
#     try:
#         for node in topological_order(root):
#             grad = arrived.pop(node, None)
#             if grad is None:             # no gradient reached this node
#                 continue
#             ___                          # each hook in node.pre_hooks: a result that is not None replaces grad
#             for i, ((next_node, _), next_grad) in enumerate(zip(node.next_functions, node.apply(grad))):
#                 if ___:                  # no node there, or no gradient
#                     continue
#                 next_grad = sum_to(next_grad, ___)
#                 arrived[next_node] = ___ # added to what is there, as a new tensor
#     finally:
#         ___
# ```
#
# </details>

# %%
buildtrack.check("03.2")

# %% [markdown]
# `mini_autograd`'s engine is PyTorch's design, which needs no topological order at all: it counts how many
# gradients each node waits for and runs a node when its count reaches zero. Chapter 08 reads it line by line,
# and you rewrite your engine that way there. The broadcasting duty is the same as yours: `mini_autograd` sums
# gradients back in `validate_outputs`, with its own `sum_to`:

# %%
show_source(torch.autograd.engine.sum_to)

# %% [markdown]
# ### Step 03.3: `Tensor.backward`
#
# Last, the method you call. Write `Tensor.backward(gradient=None)` in
# [myautograd/tensor.py](myautograd/tensor.py#Tensor.backward), with the scalar-only rule of section 5 and the same error
# messages as PyTorch, then hand over to your `run_backward`. Compare with `Tensor.backward` and
# `autograd._make_grads` of section 6: a `gradient` given must have the tensor's shape ("Mismatch in shape"),
# and one of another dtype is cast to the tensor's, so a float32 result gives float32 gradients.
#
# <details><summary>Hint 1</summary>
#
# `backward()` is a thin front door. PyTorch's `_make_grads` makes the starting gradient when none is given (ones,
# shaped like the tensor) and refuses what cannot start a backward; then the engine does the work.
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# Check in PyTorch's order: a tensor with more than one problem gets the error of the first one found. First a
# `gradient` of another shape, refused with `_make_grads`'s words (the docstring has them):
# `tensor([1., 2.]).backward(ones(3))` names the shape, although that tensor does not require grad either. Then a
# tensor that does not require grad (a constant, or a result made under `no_grad`): it cannot start at all, with or
# without a `gradient`. A leaf can: your engine starts at `gradient_edge(tensor)`, its `AccumulateGrad`. Then, with
# no `gradient` given, the scalar-only rule: in section 6's `_make_grads` it sits inside `if out.requires_grad`, so
# `tensor([1., 2.]).backward()` names the missing grad, not the scalar rule. Ones are only implied for a result with
# one element: the rule counts elements (`numel()`), not dimensions, so a tensor of shape `[1]` is fine; with
# `gradient=` given, any shape can start. Last, a `gradient` of another dtype becomes one of the tensor's (`astype`).
#
# </details>
#
# <details><summary>A sketch</summary>
#
# ```python
# from .creation import ones_like
# if gradient is not None and ___:         # first: a gradient of another shape
#     raise RuntimeError(___)              # "Mismatch in shape: ...", as in the docstring
# if ___:
#     raise RuntimeError("element 0 of tensors does not require grad and does not have a grad_fn")
# if gradient is None:
#     if ___:
#         raise RuntimeError("grad can be implicitly created only for scalar outputs")
#     gradient = ___
# if ___:                                  # another dtype than the tensor's
#     gradient = Tensor(___)
# engine.run_backward(self, gradient)
# ```
#
# </details>

# %%
buildtrack.check("03.3")

# %% [markdown]
# Once all three steps are done, your package runs the chapter's examples: the seed's 4.5, article 003's
# `[2., 4., 6.]`, and chains of 10,000 and 100,000 operations, which the engine runs as easily as short ones.

# %%
mine = buildtrack.mine("03.3")
if mine:
    x = mine.ones(2, 2, requires_grad=True)
    y = x + 2
    (y * y * 3).mean().backward()
    print(x.grad)
    x = mine.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x ** 2
    y.backward(mine.ones_like(y))
    print(x.grad)
    for n, factor in [(10_000, 1.0001), (100_000, 1.00001)]:
        x, h = long_chain(mine, n, factor)
        h.backward()
        print(tr(f"{n:,} operations: x.grad = {x.grad.item():.4f}, expected {factor ** n:.4f}"))

# %% [markdown]
# None of these examples uses a leaf twice, and for now that matters. Your `gradient_edge` of step 02.1 makes a new
# `AccumulateGrad` each time a leaf is used, and each one stores what reaches it (step 03.2). So a leaf used twice
# in one expression gets the wrong gradient: with `x = tensor(2., requires_grad=True)`, `(x * x).backward()`
# leaves `x.grad` at 2, where PyTorch gives 4. Each of the two nodes stores its own copy of 2, the second over the
# first. A non-leaf used twice is fine, like the seed's `y` in `y * y`: both of its gradients reach one node, its
# `grad_fn`, and your engine adds them there. Chapter 04's step 04.1 fixes the leaf's case: one `AccumulateGrad`
# per leaf, where the engine adds the two gradients before they reach `.grad`.

# %% [markdown]
# ## 8. The real engine on long chains
#
# `mini_autograd`'s engine runs the same chains. $h = x \cdot 1.0001^{10000}$, so
# $dh/dx = 1.0001^{10000} \approx e$; and ten times longer, $1.00001^{100000} \approx e$ again:

# %%
for n, factor in [(10_000, 1.0001), (100_000, 1.00001)]:
    x, h = long_chain(torch, n, factor)
    start = time.perf_counter()
    h.backward()
    seconds = time.perf_counter() - start
    print(tr(f"{n:,} nodes: x.grad = {x.grad.item():.4f}, expected {factor ** n:.4f}; backward took {seconds * 1e3:.1f} ms"))
del x, h

# %% [markdown]
# No recursion limit is involved, because the engine never calls itself: it keeps its own stack and queue in
# ordinary Python lists, as yours does. PyTorch's C++ engine does the same for the same reason: a recursive walk
# would overflow the C++ stack on deep graphs. Article 000 §7 makes the same point about PyTorch: what runs
# backward is not a function calling itself but a scheduler, which counts how many gradients each node still
# waits for, keeps the nodes that may run in a queue, and adds gradients up where paths meet. Chapter 08 opens
# it.
#
# <details><summary>In PyTorch: the explicit stack</summary>
#
# `compute_dependencies` in `torch/csrc/autograd/engine.cpp` walks the graph with a `std::vector` as its stack,
# and `Engine::execute` runs the nodes from a `ReadyQueue`, never calling itself.
#
# </details>

# %% [markdown]
# ## 9. backward() in a training step
#
# Article 000 §6 shows where `backward()` sits in a training step, in a fragment of five lines
# (the comments are ours):
#
# ```python
# optimizer.zero_grad()     # empty every parameter's .grad
# pred = model(x)           # run the model; each operation records its node
# loss = loss_fn(pred, y)   # one number, at the top of the recorded graph
# loss.backward()           # walk the graph back and fill .grad
# optimizer.step()          # move each parameter against its .grad
# ```
#
# The division of labour is strict: `backward()` **only computes** gradients; it changes no
# parameter. `optimizer.step()` updates the parameters, and `optimizer.zero_grad()` clears the
# old gradients. mini_autograd has `nn` and `optim`, so the fragment runs as it is:

# %%
torch.manual_seed(0)
model = torch.nn.Linear(3, 1)
loss_fn = torch.nn.MSELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.randn(8, 3)
y = torch.randn(8, 1)

optimizer.zero_grad()
pred = model(x)
loss = loss_fn(pred, y)
weight_before = model.weight.detach().numpy().copy()
print(tr("before backward, weight.grad is"), model.weight.grad)

loss.backward()
print(tr("after backward:  weight.grad has shape"), list(model.weight.grad.shape),
      tr("| weight changed:"), not np.array_equal(model.weight.detach().numpy(), weight_before))

optimizer.step()
print(tr("after step:      weight changed:"), not np.array_equal(model.weight.detach().numpy(), weight_before))

# %% [markdown]
# `backward()` filled `weight.grad` and left the weight alone; `step()` moved it. Chapter 10
# trains a real model with this loop.

# %% [markdown]
# ## Exercises
#
# **Exercise 3.1.** Let `x = [1., 2., 3.]` and `out = (x ** 3).mean()`. Work out `x.grad` by
# hand (no code), and write it as a list.
#
# <details><summary>Hint 1</summary>
#
# Write the mean out: $\text{out} = \frac{1}{3}(x_1^3 + x_2^3 + x_3^3)$.
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# Differentiate with respect to one $x_i$: only its own term counts, and the $\frac{1}{3}$ stays.
#
# </details>
#
# <details><summary>A sketch</summary>
#
# $\partial\,\text{out}/\partial x_i = \frac{1}{3} \cdot ___$; put in $x = 1, 2, 3$ and write the list.
#
# </details>

# %%
# Exercise 3.1
answer_3_1 = ...  # your answer here, e.g. [0.0, 0.0, 0.0]

# %% tags=["hide-input"]
check_exercise("3.1")

# %% [markdown]
# <details><summary>Show solution</summary>
#
# ```python
# # Exercise 3.1
# answer_3_1 = [1.0, 4.0, 9.0]
# ```
#
# $\text{out} = \frac{1}{3}(x_1^3 + x_2^3 + x_3^3)$, so $\partial\,\text{out}/\partial x_i =
# \frac{1}{3}\cdot 3x_i^2 = x_i^2$: `[1., 4., 9.]`. The engine gets the same from
# `MeanBackward0` (each entry gets 1/3) followed by `PowBackward0` (times $3x^2$).
#
# </details>

# %% [markdown]
# **Exercise 3.2.** With `x = [1., 2., 3.]` and `y = x ** 2`, you want `x.grad` to hold the
# gradient of the weighted sum $L = 2\,y_0 + y_1 - y_2$ — without building `L`, by calling
# `y.backward(v)`. Which tensor `v` do you pass? Set `answer_3_2` to it.
#
# <details><summary>Hint 1</summary>
#
# `y.backward(v)` computes the gradient of `(v * y).sum()`.
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# So `v` holds the weight of each $y_i$ in $L$: the number in front of $y_0$, $y_1$ and $y_2$.
#
# </details>
#
# <details><summary>A sketch</summary>
#
# `answer_3_2 = torch.tensor([___, ___, ___])`, shaped like `y`.
#
# </details>

# %%
# Exercise 3.2
answer_3_2 = ...  # your answer here: v, a tensor shaped like y

# %% tags=["hide-input"]
check_exercise("3.2")

# %% [markdown]
# <details><summary>Show solution</summary>
#
# ```python
# # Exercise 3.2
# answer_3_2 = torch.tensor([2.0, 1.0, -1.0])
# ```
#
# The `gradient=` argument is the gradient arriving from upstream: $\partial L/\partial y$.
# For $L = 2y_0 + y_1 - y_2$ that is `[2, 1, -1]`. The vector-Jacobian product with the
# diagonal Jacobian $2x$ then gives `x.grad = [4., 4., -6.]`. The integer tensor
# `torch.tensor([2, 1, -1])` works as well: the engine casts the starting gradient to `y`'s
# dtype (float32), in PyTorch as here.
#
# </details>

# %% [markdown]
# **Exercise 3.3.** Predict, without running them, which of these three results can call
# `.backward()` with no argument. Answer with a tuple of three booleans, e.g.
# `(True, False, False)`.
#
# ```python
# x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
# a = x.sum()          # shape []
# b = x[0:1] * 2       # shape [1]
# c = x * 2            # shape [3]
# ```
#
# <details><summary>Hint 1</summary>
#
# Look at `_make_grads` in section 6: what does it test before it makes a starting gradient of ones?
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# It counts elements (`out.numel()`), not dimensions. How many numbers does each of `a`, `b`, `c` hold?
#
# </details>
#
# <details><summary>A sketch</summary>
#
# For each result: one element → `True`, more → `False`. Answer `(___, ___, ___)`.
#
# </details>

# %%
# Exercise 3.3
answer_3_3 = ...  # your answer here: (a works?, b works?, c works?)

# %% tags=["hide-input"]
check_exercise("3.3")

# %% [markdown]
# <details><summary>Show solution</summary>
#
# ```python
# # Exercise 3.3
# answer_3_3 = (True, True, False)
# ```
#
# `_make_grads` raises only when `out.numel() != 1`. `a` is a 0-d scalar and `b` has shape
# `[1]`: both hold a single number, so a starting gradient of 1 is unambiguous. `c` has three
# entries: `backward()` raises `grad can be implicitly created only for scalar outputs`.
#
# </details>

# %% [markdown]
# ## Recap
#
# - `loss.backward()` does not rerun the model. It starts at the root (`loss.grad_fn`) with
#   gradient 1, walks the graph backwards, runs each node's backward formula and accumulates
#   the results into the leaves' `.grad` — the ledger read from the last entry to the first.
# - Each node applies the chain rule locally: gradient arriving × local derivative. Where two
#   paths meet, the gradients are summed.
# - Every backward formula is a vector-Jacobian product: the node receives $\mathbf{v}$, the
#   gradient from upstream, and returns $\mathbf{v}^\top J$ without building $J$.
# - `backward()` with no argument needs a one-element output
#   (`grad can be implicitly created only for scalar outputs`). Otherwise pass `gradient=`
#   (shaped like the output; `y.backward(v)` is the gradient of `(v * y).sum()`), or reduce
#   first with `sum()` / `mean()`.
# - The call chain: `Tensor.backward` → `autograd.backward` → `engine.run_backward` →
#   `execute` → `evaluate_function` (PyTorch's C++ engine has the same steps). The engine is
#   a loop over a ready queue, so a 100,000-node chain is no problem; a recursive backward
#   hits Python's recursion limit.
# - `backward()` only computes gradients; `optimizer.step()` updates the parameters and
#   `optimizer.zero_grad()` clears the old gradients.
# - Your `myautograd` now runs backward: seven formulas, a topological-order engine that adds gradients where
#   paths meet and undoes broadcasting, and `Tensor.backward` with PyTorch's rules (steps 03.1 to 03.3). A leaf
#   used twice in one expression still gets a wrong gradient (`x * x`); step 04.1 fixes that.
#
# [Next: 04 — Leaves](04_leaves.ipynb)
