# %% [markdown]
# # 09 — Dynamic graphs: a new graph every forward pass
#
# Chapter 02 showed **define-by-run** (边运行边建图): the graph is written down while your code
# runs, so a Python `if` or `for` simply works, and every call draws a fresh graph. This chapter
# takes that further. If the graph is whatever the code did *this time*, then a loop whose
# length depends on the data leaves as many nodes as it ran passes, a recursive function leaves
# the operations it performed on the way, and two inputs can give two quite different graphs.
# And because the record is made anew every time, it also costs something every time.
#
# **What you will learn**
#
# - a forward pass with a data-dependent `for`, an `if` and recursion, and the graph each
#   leaves behind
# - two inputs, one function, two different graphs — drawn side by side
# - why the `if` leaves no trace in the graph, and what that means for the gradient
# - what rebuilding the graph costs in a small training step, measured: building the graph
#   versus doing the arithmetic; and what happens to the old graph
# - in a few words, how `torch.compile` captures the graph once instead
# - that your own `myautograd` runs the same dynamic graphs, with no new piece: the engine you
#   wrote in chapter 08 runs whatever graph the forward pass left
#
# **Seed sections:** article 000 §11, "Autograd 和动态图的关系" (autograd and dynamic graphs), and
# the paragraph on the keyword "动态" (dynamic) in article 003's "计算图" section (the graph
# follows the code: define-by-run).
#
# **mini_autograd pieces introduced:** nothing new, on purpose: the dynamic graph is not a
# feature of the engine but a consequence of `Function.apply` recording each operation at the
# moment it runs (chapter 02). We open `Tensor.__bool__`, which lets an `if` read a tensor.
#
# **Time:** about 30 minutes to read and run; this chapter has no build step.

# %%
import html
import time
import weakref

import numpy as np
import matplotlib.pyplot as plt

import mini_autograd as torch
from mini_autograd import viz
from coursetools import show_source, tr
from exercises import check_exercise

# %% [markdown]
# ## 1. Three kinds of control flow in one forward pass
#
# Article 003 says the graph simply follows the code; article 000 §11 adds recursion, and models
# that change their path depending on the input. Here is a forward pass that uses all three
# kinds of control flow, each decided by the data:
#
# - a `for` loop that halves `h` until its largest entry is at most 2 — how many times it runs
#   depends on the data;
# - an `if` on the sign of `h.sum()` — which branch runs depends on the data;
# - a recursive function, `power`, that computes `h ** 5` by repeated squaring.

# %%
def power(h, n):
    """h ** n by repeated squaring: a recursive function (n >= 1)."""
    if n == 1:
        return h
    half = power(h, n // 2)
    result = half * half
    return result * h if n % 2 else result


def forward(x):
    h = x * 1.5
    for _ in range(10):              # for: halve until small; how often depends on the data
        if h.abs().max() <= 2:
            break
        h = h / 2
    if h.sum() > 0:                  # if: the branch depends on the sign of the sum
        h = h.tanh()
    else:
        h = h.exp()
    return power(h, 5).sum()         # recursion


x_a = torch.tensor([0.5, 1.0], requires_grad=True)
x_b = torch.tensor([-8.0, 2.0], requires_grad=True)
out_a = forward(x_a)
out_b = forward(x_b)
print("out_a =", out_a)
print("out_b =", out_b)

# %% [markdown]
# ## 2. Two inputs, two graphs
#
# Same function, different inputs. For `x_a = [0.5, 1.0]`, `h = x * 1.5 = [0.75, 1.5]` is
# already small, so the loop stops at once; the sum is positive, so `tanh` runs. For
# `x_b = [-8.0, 2.0]`, `h = [-12, 3]` must be halved three times (to `[-1.5, 0.375]`); the sum
# is then negative, so `exp` runs instead. Here are both graphs. The little helper puts pictures
# next to each other (in text form, one after the other):

# %%
class SideBySide:
    """Graph pictures in one row; as text, one after the other."""

    def __init__(self, pictures):
        self.pictures = pictures          # {heading: picture from viz.draw}

    def _repr_html_(self):
        cells = []
        for heading, picture in self.pictures.items():
            inner = picture._repr_html_()
            if inner is None:             # no graphviz: Jupyter shows the text form instead
                return None
            cells.append(f'<div style="flex:1;min-width:0"><p><b>{html.escape(heading)}</b></p>{inner}</div>')
        return f'<div style="display:flex;gap:24px;align-items:flex-start">{"".join(cells)}</div>'

    def __repr__(self):
        return "\n\n".join(f"{heading}:\n{picture}" for heading, picture in self.pictures.items())


SideBySide({"forward(x_a), x_a = [0.5, 1.0]": viz.draw(out_a, params={"x_a": x_a}, show_values=False),
            "forward(x_b), x_b = [-8.0, 2.0]": viz.draw(out_b, params={"x_b": x_b}, show_values=False)})

# %% [markdown]
# The two graphs differ in exactly the places where the code did something different:
#
# - `x_b`'s graph has a chain of three `DivBackward0` nodes — one per pass of the loop that
#   actually ran. `x_a`'s has none.
# - Where `x_a`'s has `TanhBackward0`, `x_b`'s has `ExpBackward0`: the branch each one took.
# - Both have the same three `MulBackward0` nodes of `power(h, 5)`: `h * h`, then
#   `(h²) * (h²)`, then `h⁴ * h`. The recursion itself (the calls of `power`) leaves no node —
#   only the multiplications it performed do.
#
# As lists of node names (breadth first from the loss, as the pictures number them):

# %%
def node_names(out):
    """The names of the nodes of out's graph, breadth first from out.grad_fn."""
    seen, names, queue = set(), [], [out.grad_fn]
    while queue:
        node = queue.pop(0)
        if node is None or node in seen:
            continue
        seen.add(node)
        names.append(node.name().split("::")[-1])
        queue.extend(next_node for next_node, _ in node.next_functions)
    return names


for label, out in [("x_a", out_a), ("x_b", out_b)]:
    names = node_names(out)
    print(tr(f"{label}: {len(names)} nodes: {', '.join(names)}"))

# %% [markdown]
# Seven nodes against ten. There is no single "graph of `forward`": each call leaves the
# graph of what it did. The engine from chapter 08 does not mind; it runs whatever graph it is
# given, with the same dependency counting. Both backward passes work:

# %%
out_a.backward()
out_b.backward()
print("x_a.grad =", x_a.grad)
print("x_b.grad =", x_b.grad)

# %% [markdown]
# ## 3. The `if` is not in the graph
#
# How did Python decide the branch? `h.sum() > 0` is a comparison. It returns a tensor of
# booleans that is not part of any graph — a comparison has no useful derivative — and `if`
# turns it into a plain Python `bool` through `Tensor.__bool__`, which reads the value:

# %%
h = torch.tensor([0.75, 1.5], requires_grad=True)
condition = h.sum() > 0
print(condition, "| requires_grad:", condition.requires_grad, "| grad_fn:", condition.grad_fn)
print("bool(condition) =", bool(condition))

# %%
show_source(torch.Tensor.__bool__)

# %% [markdown]
# So the graph only records the operations of the branch that ran, and the gradient is the
# gradient of *that* branch. For `x_a` the gradient contains the derivative of `tanh`; the
# derivative of `exp` was never computed, because nothing in the graph asks for it. A model
# with data-dependent control flow is, for autograd, a different differentiable function for
# each path — the same thing that happens inside `relu`, whose gradient is 1 on one side of 0
# and 0 on the other.
#
# ## 4. The price: rebuilding every step
#
# Article 000 names the downside: since the graph is rebuilt on every forward pass, there is a
# cost each time. How big is it? Take a small training step: a multilayer perceptron
# (2 → 32 → 32 → 1, `tanh`) on a batch of 64 points with a mean squared error loss, and measure
# four things:
#
# 1. the **arithmetic alone**: the same forward pass written in plain numpy;
# 2. the **forward pass under `no_grad`**: mini_autograd tensors, modules and `Function.apply`,
#    but nothing recorded;
# 3. the **forward pass with recording** (the normal training forward). The difference from (2)
#    is the cost of building the graph: creating the nodes, wiring the edges, saving tensors;
# 4. the **backward pass** on that graph.
#
# Timings vary from run to run, so each is the median of many repeats.

# %%
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(2, 32), torch.nn.Tanh(),
                            torch.nn.Linear(32, 32), torch.nn.Tanh(),
                            torch.nn.Linear(32, 1))
loss_fn = torch.nn.MSELoss()
rng = np.random.default_rng(0)
X_np = rng.normal(size=(64, 2)).astype(np.float32)
Y_np = rng.normal(size=(64, 1)).astype(np.float32)
X, Y = torch.tensor(X_np), torch.tensor(Y_np)
W1, b1, W2, b2, W3, b3 = [p.detach().numpy() for p in model.parameters()]


def numpy_forward():
    h = np.tanh(X_np @ W1.T + b1)
    h = np.tanh(h @ W2.T + b2)
    return ((h @ W3.T + b3 - Y_np) ** 2).mean()


def recorded_forward():
    return loss_fn(model(X), Y)


def no_grad_forward():
    with torch.no_grad():
        return loss_fn(model(X), Y)


loss = recorded_forward()
print(tr("the same loss from numpy and from the model:"), bool(np.isclose(numpy_forward(), loss.item())))
print(tr(f"nodes recorded by one forward pass: {len(node_names(loss))}"))
print(", ".join(node_names(loss)))

# %% [markdown]
# One forward pass records 15 nodes: nine for the operations (an `AddmmBackward0` per linear
# layer, with a `TBackward0` for its transposed weight, two `TanhBackward0`, and
# `MseLossBackward0`), plus an `AccumulateGrad` for each of the six parameters. Real PyTorch
# records the same 15. Now the timings:

# %%
def median_seconds(run, repeats=400):
    """The median time of run(), which returns the seconds to count (or None: time all of it)."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        counted = run()
        times.append(counted if isinstance(counted, float) else time.perf_counter() - start)
    return float(np.median(times))


def backward_only():
    loss = recorded_forward()              # a fresh graph each time (backward frees it)
    start = time.perf_counter()
    loss.backward()
    return time.perf_counter() - start


model.zero_grad()
t_numpy = median_seconds(lambda: numpy_forward() and None)
t_no_grad = median_seconds(lambda: no_grad_forward() and None)
t_recorded = median_seconds(lambda: recorded_forward() and None)
t_backward = median_seconds(backward_only)
for label, seconds in [(tr("numpy arithmetic (forward)"), t_numpy), (tr("forward under no_grad"), t_no_grad),
                       (tr("forward, recording the graph"), t_recorded), (tr("backward"), t_backward)]:
    print(f"{label:<30} {seconds * 1e6:.1f} µs")

# %% [markdown]
# The same numbers as two stacked bars: an inference step (forward only, nothing recorded) and a
# training step (forward with recording, then backward).

# %%
parts = [(tr("numpy arithmetic"), t_numpy, t_numpy, "#4c72b0"),
         (tr("tensors and modules (Python)"), t_no_grad - t_numpy, t_no_grad - t_numpy, "#8da0cb"),
         (tr("building the graph"), 0.0, t_recorded - t_no_grad, "#dd8452"),
         (tr("backward"), 0.0, t_backward, "#c44e52")]
fig, ax = plt.subplots(figsize=(7, 3))
left = np.zeros(2)
for label, inference, training, color in parts:
    widths = np.array([inference, training]) * 1e6
    ax.barh([1, 0], widths, left=left, color=color, label=label)
    left += widths
for row, total in zip([1, 0], left, strict=True):
    ax.text(total + 3, row, f"{total:.0f} µs", va="center", fontsize=9)
ax.set_yticks([1, 0], [tr("inference step\n(forward, no_grad)"), tr("training step\n(forward + backward)")])
ax.set_xlabel(tr("time per step (µs, median)"))
ax.set_title(tr("Where a small training step spends its time (mini_autograd)"))
ax.set_xlim(0, left.max() * 1.15)
ax.legend(loc="upper right", fontsize=8)
fig.tight_layout()
plt.show()

# %% [markdown]
# What the bars show, for a model this small:
#
# - The **arithmetic is the smallest part**: numpy does all of the forward pass's arithmetic in
#   a small fraction of the step.
# - **Building the graph** (orange) is a real share of the forward pass: for every operation a
#   node is created, its edges set, its tensors saved — work that the `no_grad` forward skips.
# - **Backward** is the biggest part: it runs every node's formula (each a few numpy operations,
#   usually more than the forward operation needed) and does the engine's bookkeeping from
#   chapter 08.
#
# The bookkeeping costs the same whatever the size of the tensors, so with big tensors — a
# real network on a GPU — the arithmetic dominates and the overhead fades into the background.
# PyTorch also does all of it in C++, much faster than Python. But the structure of the cost
# is the same: a per-operation price for recording, paid again on every forward pass. That is
# the "some overhead" article 000 mentions, and for models made of many small operations it is
# worth removing (section 5).
#
# It is paid again because the graph of the last step is thrown away. Chapter 02 showed that two
# calls make two separate graphs; the old one lives only as long as something refers to it.
# In a training loop, `loss = ...` in the next step drops the last reference, and the whole old
# graph is freed at once. A weak reference (Python's `weakref.ref`) lets us watch without
# keeping it alive. mini_autograd's nodes are Python objects, so the cell below takes a weak
# reference to `loss.grad_fn` itself. That line works on mini_autograd only: PyTorch's nodes are
# C++ objects whose Python type does not accept weak references, and there it raises
# `TypeError: cannot create weak reference to 'MseLossBackward0' object`. In PyTorch, watch a
# tensor that the graph saved as the *input* of a later node instead (the `h` of
# `loss = (h * h).sum()`): a `weakref.ref` to it stays alive as long as the graph keeps it, and
# goes dead when the graph is freed. Not every intermediate is kept that way: a tensor saved only
# as its own node's output, such as `e = w.exp()`, is kept as its data, not as the tensor
# (chapter 07), so after `loss = e.sum(); del e` a weak reference to `e` is already dead, in
# PyTorch as in mini_autograd.

# %%
loss = recorded_forward()
last_graph = weakref.ref(loss.grad_fn)
print(tr("last step's graph alive:          "), last_graph() is not None)
loss = recorded_forward()                   # the next step: `loss` now refers to a new graph
print(tr("alive after the next forward pass:"), last_graph() is not None)

# %% [markdown]
# ## 5. Capturing the graph once: `torch.compile` (in brief)
#
# Article 000 points ahead to `torch.compile`, PyTorch 2.x's answer. Nothing in this course runs
# it, but the idea fits in a paragraph:
#
# ```python
# model = torch.compile(model)     # PyTorch 2.x; the rest of the training loop is unchanged
# ```
#
# On the first call, **TorchDynamo** watches the Python code of the forward pass run and
# captures its tensor operations as a graph (an FX graph), together with **guards**: the
# conditions under which the capture stays valid (shapes, dtypes, the Python values that
# decided branches). **AOTAutograd** then derives the backward graph from it ahead of time, and a
# compiler (**Inductor**) turns both into fused, optimised code. On later calls, if the guards
# still hold, the compiled code runs directly: no per-operation recording, and the whole
# compiled region appears in the autograd graph as a single node. Where the control flow
# depends on tensor *values* — like this chapter's `if h.sum() > 0` — Dynamo cannot capture
# one graph for all inputs; it splits the code there (a "graph break") and lets ordinary
# Python decide, so the flexibility of the dynamic graph is kept.
#
# ## 6. Nothing here is special
#
# mini_autograd has no code for "dynamic graphs", and neither does PyTorch's engine. The
# flexibility comes from *when* the graph is recorded: inside `Function.apply`, at the moment
# each operation runs (chapter 02 read it line by line). `apply` does not know, and does not
# need to know, whether it was called from inside a loop, a branch, or the tenth level of a
# recursion. Python decides which operations run; each one that runs leaves its node; the engine
# then only ever sees a finished graph.
#
# The scratch-paper picture of article 003 says it best: the graph is not a plan drawn before
# the calculation; it is the scratch paper on which each step was jotted down as it happened.
#
# <details><summary>In PyTorch: where built-in operations record their nodes</summary>
#
# The generated `VariableType` code of each built-in operation
# (`torch/csrc/autograd/generated/VariableType_*.cpp`) creates its node at run time in the same
# way, and custom functions go through `torch/autograd/function.py: Function.apply`. The nodes
# are C++ objects held by `c10::intrusive_ptr<Node>` (a reference-counted pointer; the tensor's
# `grad_fn_` in `torch/csrc/autograd/variable.h` is one), freed when the last reference goes,
# as in section 4.
#
# </details>

# %% [markdown]
# ## 7. Your engine runs dynamic graphs too
#
# Section 6's point holds for your `myautograd` as well: it has no code for dynamic graphs and needs none. Its
# `Function.apply` (step 02.2) records each operation as it runs, and its engine (chapter 08) runs whatever
# graph it is given. So this chapter adds no piece to your package; it only runs section 1's forward pass on it.
#
# To run on either package, the forward pass takes the module as an argument, `torch`, which is
# `mini_autograd` or your `myautograd`: the form `buildtrack.compare_graphs` wants. Your package has fewer
# operations than `mini_autograd`, so this is a **variant** of section 1's `forward`, written with what both
# have. The control flow is the same (a data-dependent `for`, an `if`, the recursive `power`); three
# expressions change:
#
# - `h.abs().max() <= 2` becomes `max(abs(v) for v in h.tolist()) <= 2`, in plain Python: your `Tensor` has no
#   `abs`, and its `max` needs a `dim`;
# - `h / 2` becomes `h * 0.5`: your `/` multiplies by the inverse underneath, so its node would be a
#   `MulBackward0` where `mini_autograd` records a `DivBackward0`, and the two pictures would differ for no
#   reason;
# - `if h.sum() > 0` becomes `if h.sum().item() > 0`: your `Tensor` has no comparisons, so the number is read
#   with `item()` instead of through `__bool__` (section 3). Either way the condition leaves no node.

# %%
def dynamic_forward(torch, values):
    """Section 1's forward, with the operations both packages have; returns (x, out)."""
    x = torch.tensor(values, requires_grad=True)
    h = x * 1.5
    for _ in range(10):                                  # for: halve until small
        if max(abs(v) for v in h.tolist()) <= 2:
            break
        h = h * 0.5
    if h.sum().item() > 0:                               # if: the branch depends on the sign of the sum
        h = h.tanh()
    else:
        h = h.exp()
    return x, power(h, 5).sum()                          # recursion: section 1's power


import buildtrack

for values in ([0.5, 1.0], [-8.0, 2.0]):
    print(f"x = {values}")
    buildtrack.compare_graphs(lambda torch, values=values: dynamic_forward(torch, values)[1], "08.2",
                              show_values=False)

# %% [markdown]
# Two inputs, two graphs, on each package: 7 nodes for `[0.5, 1.0]`, and for `[-8.0, 2.0]` three more
# multiplications by 0.5, one per pass of the loop, and `ExpBackward0` in place of `TanhBackward0`. Once step
# 08.2 is done, your package draws the same two graphs as `mini_autograd`. Both engines then give the same
# gradients, for each input; and the variant computes what section 1's `forward` computed (section 2's
# `x_a.grad` and `x_b.grad`):

# %%
mini_grads = {}
for values, section_2_grad in [([0.5, 1.0], x_a.grad), ([-8.0, 2.0], x_b.grad)]:
    x, out = dynamic_forward(torch, values)
    out.backward()
    mini_grads[str(values)] = x.grad
    print(tr(f"x = {values}: mini_autograd's x.grad = {x.grad}   (the same as section 2: "
             f"{np.array_equal(x.grad.numpy(), section_2_grad.numpy())})"))
mine = buildtrack.mine("08.2")
if mine:
    for values in ([0.5, 1.0], [-8.0, 2.0]):
        x_mine, out_mine = dynamic_forward(mine, values)
        out_mine.backward()
        print(tr(f"x = {values}: your myautograd's x.grad = {x_mine.grad}   (the same as mini_autograd: "
                 f"{np.allclose(x_mine.grad.numpy(), mini_grads[str(values)].numpy())})"))

# %% [markdown]
# ## Exercises
#
# **Exercise 9.1.** How many nodes does the graph of `forward(x_c)` have, for
# `x_c = torch.tensor([3.0, 1.0], requires_grad=True)`? Count as `node_names` does (each node once,
# the `AccumulateGrad` included). Work it out from the code, without running it.
#
# <details><summary>Hint 1</summary>
#
# Follow the code with `x_c` by hand, as Python would run it: which lines run, how often does the loop turn?
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# `h = x * 1.5`; halve while the largest entry is above 2; then the branch on the sum; then `power(h, 5)` (three multiplications) and the sum.
#
# </details>
#
# <details><summary>A sketch</summary>
#
# Add up: 1 (`* 1.5`) + ___ (halvings) + 1 (branch) + 3 (`power`) + 1 (sum) + 1 (`AccumulateGrad`).
#
# </details>

# %%
# Exercise 9.1
answer_9_1 = ...  # your answer here: a whole number

# %% tags=["hide-input"]
check_exercise("9.1")

# %% [markdown]
# <details><summary>Show solution</summary>
#
# ```python
# # Exercise 9.1
# answer_9_1 = 9
# ```
#
# `h = x * 1.5 = [4.5, 1.5]` (one `MulBackward0`). The largest entry is 4.5, so the loop halves
# twice: `[2.25, 0.75]`, then `[1.125, 0.375]` (two `DivBackward0`). The sum is positive:
# `TanhBackward0`. `power(h, 5)` adds three `MulBackward0`, `.sum()` a `SumBackward0`, and the leaf
# its `AccumulateGrad`: 1 + 2 + 1 + 3 + 1 + 1 = 9 — between `x_a`'s 7 and `x_b`'s 10.
#
# </details>

# %% [markdown]
# **Exercise 9.2.** Write a function `square_until_big(x)` that takes a scalar tensor and keeps
# squaring it (`x = x * x`, or `x = x ** 2`) while its value is below 100, then returns it. Its
# graph then depends on the value of `x`: for `x = 2` it squares three times (2 → 4 → 16 → 256),
# for `x = 1.5` four times. The check runs it on 2, 1.5 and 200, counts the squaring nodes in
# each graph (`MulBackward0` for `x * x`, `PowBackward0` for `x ** 2`) and compares the gradients
# with $\frac{d}{dx} x^{2^k} = 2^k x^{2^k - 1}$.
#
# <details><summary>Hint 1</summary>
#
# A Python loop can read a tensor's value: `while x < 100:` asks the tensor each time round.
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# Inside the loop, give the name `x` the squared tensor; every turn records one node.
#
# </details>
#
# <details><summary>A sketch</summary>
#
# `def square_until_big(x):` / `while ___:` / `x = ___` / `return x`.
#
# </details>

# %%
# Exercise 9.2
square_until_big = ...  # your answer here: def square_until_big(x): ...

# %% tags=["hide-input"]
check_exercise("9.2")

# %% [markdown]
# <details><summary>Show solution</summary>
#
# ```python
# # Exercise 9.2
# def square_until_big(x):
#     while x < 100:
#         x = x * x
#     return x
# ```
#
# `x < 100` is a comparison (no node), read as a Python `bool` by `while`. Each pass that runs
# records one `MulBackward0` (with `x = x ** 2`: one `PowBackward0`). For `x = 200` the loop
# does not run at all, the function returns the leaf itself, and there is no graph — and no
# gradient — to speak of.
#
# </details>

# %% [markdown]
# **Exercise 9.3.** A function with a branch:
#
# ```python
# def g(x):
#     if x > 0:
#         return x * x
#     return x * 3
# ```
#
# Predict `x.grad` after `g(x).backward()` for `x = 2.0` and for `x = -2.0`. Answer with a list
# of two numbers.
#
# <details><summary>Hint 1</summary>
#
# Only the branch that ran is in the graph.
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# For `x = 2.0` the graph is `x * x`; for `x = -2.0` it is `x * 3`. Differentiate each alone.
#
# </details>
#
# <details><summary>A sketch</summary>
#
# `answer_9_3 = [derivative of x * x at 2, derivative of x * 3 at -2]` = `[___, ___]`.
#
# </details>

# %%
# Exercise 9.3
answer_9_3 = ...  # your answer here: [grad at x = 2, grad at x = -2]

# %% tags=["hide-input"]
check_exercise("9.3")

# %% [markdown]
# <details><summary>Show solution</summary>
#
# ```python
# # Exercise 9.3
# answer_9_3 = [4.0, 3.0]
# ```
#
# At `x = 2` the graph is `x * x` (one `MulBackward0` with two edges to `x`): the gradient is
# $2x = 4$. At `x = -2` the graph is `x * 3`: the gradient is 3. Autograd never sees the other
# branch, so it differentiates the function piece by piece, the piece the input landed on.
#
# </details>

# %% [markdown]
# ## Recap
#
# - Define-by-run (边运行边建图): each operation records its node while it runs, so the
#   backward graph is the graph of the code that actually ran. `for`/`while` loops leave one set
#   of nodes per pass, a branch leaves only the branch taken, recursion leaves the operations it
#   performed.
# - The same function can give different graphs for different inputs (here 7 nodes for
#   `x_a`, 10 for `x_b`); the engine runs whichever it gets.
# - Conditions (`h.sum() > 0`) are not in the graph: comparisons have no `grad_fn`, and `if`
#   reads the value through `Tensor.__bool__`. The gradient is that of the path taken.
# - Every forward pass builds a new graph; the old one is freed as soon as nothing refers to it.
# - The price: recording costs a fixed amount per operation on every step. For a small MLP in
#   mini_autograd, building the graph and running it backward cost far more than the numpy
#   arithmetic; with big tensors the arithmetic dominates. `torch.compile` captures the graph
#   once (with guards) and compiles it, breaking the graph where values decide the path.
# - Nothing in the engine is special-cased: `Function.apply` records at run time, and that is
#   all a dynamic graph is. Your `myautograd` shows it too: with no new piece, it records and runs
#   both graphs of a forward pass with a loop, a branch and recursion, with `mini_autograd`'s
#   gradients.
#
# [Next: 10 — The training loop](10_training_loop.ipynb)
