# %% [markdown]
# # 06 — no_grad, inference_mode, detach and retain_graph
#
# Autograd records every operation on tensors that require grad. Most of the time that is
# what you want; sometimes it is pure waste, and sometimes you want to cut a tensor loose from
# the record on purpose. PyTorch has several switches for this, and they are easy to confuse.
# This chapter takes them one at a time, shows what each does **and what it does not do**, and
# ends with the training bug they cause when they sit in the wrong place.
#
# **What you will learn**
#
# - `torch.no_grad()`: switch recording off for a block of code; `enable_grad()`,
#   `set_grad_enabled(mode)`, and the decorator form `@torch.no_grad()`
# - what recording costs: an inference loop timed with and without it
# - `torch.inference_mode()`: a stricter `no_grad` whose results are marked as inference
#   tensors (`is_inference()`), and the error when such a tensor is later used in training
# - `tensor.detach()`: a new tensor with the same data and no history; why it shares the
#   version counter, and why the old `.data` (which does not) is dangerous
# - `backward(retain_graph=True)`: keep the graph for a second backward
# - `zero_grad()`: the fourth look-alike, recalled from chapter 05
# - the most common training bug of all: a `detach()` or `no_grad()` in the wrong place, so
#   that part of the model never learns
# - to write `no_grad`, `detach` and `requires_grad_` for your `myautograd`, which completes chapters 01 to 06
#
# **Seed sections:** article 000 §3 (its closing remark: under `no_grad` or `inference_mode`
# nothing is recorded) and §9 on detach, no_grad and retain_graph, "三个容易混的点" (three
# easily confused things); article 003, "两个省内存的开关" (two switches that save memory).
#
# **mini_autograd pieces introduced:** `grad_mode.py` (`no_grad`, `enable_grad`,
# `set_grad_enabled`, `inference_mode`, `is_grad_enabled`), the grad-mode check in
# `Function.apply`, `Tensor.detach`, `Tensor.data`, `Tensor.is_inference`.
#
# **Time:** about 55 minutes to read and run, and about 15 more for the two build steps.

# %%
import contextlib
import time

import numpy as np
import matplotlib.pyplot as plt

import mini_autograd as torch
from mini_autograd import nn, viz
from coursetools import show_source, expect_error, tr
from exercises import check_exercise

# %% [markdown]
# ## 1. Four things that look alike
#
# Article 000 §9 puts four names side by side that learners mix up, since each sounds as if it
# were about gradients. The quickest way to tell them apart is to ask what each one acts on:
#
# | tool | acts on | its effect |
# |---|---|---|
# | `detach()` | **one tensor** | a new tensor on the same numbers, with no history behind it |
# | `no_grad()` | **a stretch of code** | while it is open, operations leave no nodes |
# | `retain_graph=True` | **one backward call** | the graph and what it saved outlive the call |
# | `zero_grad()` | **the parameters' `.grad`** | empties what earlier backward calls added up |
#
# Article 003 brings in the first two as ways to save memory. A forward pass run under
# `with torch.no_grad():` builds no graph, so it keeps nothing for a backward that will never
# come, and it runs faster. `detach()` gives you the same numbers in a tensor that autograd
# treats as a fresh start. Recall the scratch paper of chapter 02: autograd writes down every
# step it sees. `no_grad` puts the pencil down for a while; `detach()` points at one result and
# says "from here on, take this number as given": the same number, with none of the working that
# led to it.
#
# ## 2. `no_grad`: a block with recording off
#
# Article 000's example from chapter 01, $y = x^2 + 3x$ at $x = 2$, computed once inside
# `no_grad`:

# %%
x = torch.tensor(2.0, requires_grad=True)
with torch.no_grad():
    y = x * x + 3 * x
print(y)
print("requires_grad:", y.requires_grad, "| grad_fn:", y.grad_fn, "| is_leaf:", y.is_leaf)
print(tr("x.requires_grad is still"), x.requires_grad)

# %% [markdown]
# The value is right, 10, but nothing was written down: `y` has no `grad_fn`, does not require
# grad, and is a leaf (chapter 04). `x` is untouched — `no_grad` changes no tensor, it only
# decides whether *new* operations are recorded. Outside the block, recording is back:

# %%
y = x * x + 3 * x
print(y)
y.backward()
print(x.grad)

# %% [markdown]
# The switch behind it is one flag, which `torch.is_grad_enabled()` reads. `no_grad` turns it
# off on entry and restores the previous value on exit, even when the block raises:

# %%
print(tr("before:"), torch.is_grad_enabled())
with torch.no_grad():
    print(tr("inside:"), torch.is_grad_enabled())
print(tr("after: "), torch.is_grad_enabled())

# %% [markdown]
# Three relatives of `no_grad`:
#
# - `torch.enable_grad()` turns recording back **on** inside a `no_grad` block;
# - `torch.set_grad_enabled(mode)` sets it from a boolean — handy when one function serves
#   both training and evaluation;
# - each of them also works as a **decorator**, for a whole function.

# %%
x = torch.tensor(2.0, requires_grad=True)
with torch.no_grad():
    a = x * 2
    with torch.enable_grad():
        b = x * 2
    c = x * 2
print("a:", a, "| b:", b, "| c:", c)


def forward_pass(x, is_train):
    with torch.set_grad_enabled(is_train):
        return x * x + 3 * x


print("is_train=True: ", forward_pass(x, True))
print("is_train=False:", forward_pass(x, False))


@torch.no_grad()
def predict(x):
    return x * x + 3 * x


print("@torch.no_grad():", predict(x))

# %% [markdown]
# Only `b`, made under `enable_grad`, has a `grad_fn`. `set_grad_enabled` can also be called
# as a plain function, `torch.set_grad_enabled(False)`, which switches the mode until you
# switch it back — easy to forget, so prefer the `with` form.
#
# **What `no_grad` does not do.** It does not change `requires_grad` of any tensor, and it
# does not make the operations in the block disappear: they run, only unrecorded. That second
# point is exactly why optimizers use it. Updating a parameter in place *while recording*
# would have to be written into the graph, and PyTorch forbids it for leaves that require grad;
# under `no_grad` the same update is just arithmetic. So the first update in the cell below fails on
# purpose, with a `RuntimeError` (caught and printed), and the second one works:

# %%
w = torch.tensor([1.0, -2.0], requires_grad=True)
w.grad = torch.tensor([0.5, 0.5])
try:
    w -= 0.1 * w.grad
except RuntimeError as error:
    print(tr("recording on:"), "RuntimeError:", error)
with torch.no_grad():
    w -= 0.1 * w.grad
print(tr("under no_grad:"), w)

# %% [markdown]
# This is the `with torch.no_grad(): w -= lr * w.grad` you met in chapter 05's exercise, and
# what `optimizer.step()` does inside. mini_autograd's `SGD.step` is decorated with
# `@no_grad()`. PyTorch's is decorated with `_use_grad_for_differentiable` (in
# `torch/optim/optimizer.py`), which runs `step` with grad mode set from
# `self.defaults['differentiable']`: off, unless you built the optimizer with
# `differentiable=True` to differentiate through the update itself.
#
# One more thing it is not: `model.eval()`. That call switches layers such as dropout and
# batch norm to their evaluation behaviour; it leaves recording on. Evaluation code usually
# needs both:

# %%
torch.manual_seed(0)
model = nn.Linear(2, 1)
model.eval()
print(tr("after model.eval(), the output still requires grad:"), model(torch.ones(1, 2)).requires_grad)

# %% [markdown]
# ## 3. What the graph looks like with a hole in it
#
# `no_grad` in the middle of a computation leaves a hole in the graph. Here $x^2$ is
# recorded, and $3x$ is computed under `no_grad`:

# %%
x = torch.tensor(2.0, requires_grad=True)
a = x * x
with torch.no_grad():
    b = 3 * x
out = a + b
viz.draw(out, params={"x": x})

# %% [markdown]
# `AddBackward0` has a single arrow, to the `MulBackward0` of `x * x`. Its second input, `b`,
# gets no arrow at all (the text form lists it as `None`): to the graph, `b` is a constant that
# fell from the sky. So the gradient misses the $3x$ part:

# %%
out.backward()
print("x.grad:", x.grad, tr(" (the full derivative 2x + 3 would be 7)"))

# %% [markdown]
# No error, no warning — just a gradient of 4 instead of 7. Keep this picture in mind for
# section 11.

# %% [markdown]
# ## 4. What recording costs
#
# Why switch recording off at all? Because recording is work: every operation creates a node,
# links its edges, and keeps the tensors its backward formula will need (chapter 07 measures
# that memory). When you only want predictions, all of it is wasted. Let us time an inference
# loop — 200 forward passes of a small network — with recording on, under `no_grad` and under
# `inference_mode`. Each variant runs seven times and the fastest run counts, to damp the noise
# of a busy machine.

# %%
torch.manual_seed(0)
net = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 16), nn.Tanh(), nn.Linear(16, 1))
batch = torch.randn(32, 2)


def inference_loop(steps=200):
    for _ in range(steps):
        prediction = net(batch)
    return prediction


modes = {tr("recording"): contextlib.nullcontext, "no_grad": torch.no_grad,
         "inference_mode": torch.inference_mode}
times = {name: [] for name in modes}
for _ in range(7):                             # the modes take turns, so a busy moment hits all
    for name, mode in modes.items():
        start = time.perf_counter()
        with mode():
            prediction = inference_loop()
        times[name].append(time.perf_counter() - start)

timings = {name: min(t) for name, t in times.items()}
for name, seconds in timings.items():
    print(tr(f"{name:15} {seconds * 1e3:.1f} ms for 200 passes ({seconds / 200 * 1e6:.0f} µs each)"))

# %%
fig, ax = plt.subplots(figsize=(6, 3))
ax.barh(list(timings), [t * 1e3 for t in timings.values()], color=["tab:red", "tab:blue", "tab:green"])
ax.invert_yaxis()
ax.set_xlabel(tr("time for 200 forward passes (ms)"))
ax.set_title(tr("An inference loop, with and without recording"))
plt.show()

# %% [markdown]
# The exact numbers change from run to run and from machine to machine, but the recording run
# is the slow one: it does the same arithmetic plus the bookkeeping. The gap is largest for
# small tensors like these, where the bookkeeping is a big share of each operation; for huge
# matrices the arithmetic dominates, and the memory saving (chapter 07) matters more than the
# time. In mini_autograd `no_grad` and `inference_mode` do exactly the same work, so any
# difference between their two bars is noise; in PyTorch `inference_mode` is a little faster
# still, for the reason in the next section.

# %% [markdown]
# ## 5. `inference_mode`: a stricter `no_grad`
#
# `torch.inference_mode()` switches recording off like `no_grad`, and in addition marks every
# tensor it creates as an **inference tensor**:

# %%
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
with torch.inference_mode():
    print(tr("inside: inference mode on:"), torch.is_inference_mode_enabled(),
          tr("| grad mode on:"), torch.is_grad_enabled())
    y = x * 2
with torch.no_grad():
    z = x * 2
print("y:", y, "| requires_grad:", y.requires_grad, "| is_inference:", y.is_inference())
print("z:", z, "| requires_grad:", z.requires_grad, "| is_inference:", z.is_inference())

# %% [markdown]
# `y` and `z` hold the same numbers and neither requires grad; only `y` is an inference tensor.
# In PyTorch an inference tensor skips autograd's bookkeeping completely: it has no version
# counter (section 7 and chapter 07 explain what that counter is for) and views of it are not
# tracked. That saves a little time on every operation — and it has a price: autograd can
# never rely on an inference tensor later. If a recorded operation needs to **save** one for
# backward, PyTorch refuses.
#
# A realistic way to hit this: compute features with a frozen network under
# `inference_mode`, then train a small head on them.
#
# The cell below fails on purpose at its last line, with a `RuntimeError`: `head` would have to save
# `features`, an inference tensor, for backward.

# %%
torch.manual_seed(0)
backbone = nn.Linear(4, 3)          # frozen: we only use its outputs
head = nn.Linear(3, 1)              # trained on the backbone's features
data = torch.randn(5, 4)
with torch.inference_mode():
    features = backbone(data)
print("features.is_inference():", features.is_inference())
with expect_error(RuntimeError):
    prediction = head(features)

# %% [markdown]
# The error comes at the forward, not at `backward()`: `head` computes `features @ W.T + b`,
# and to get the gradient of `W` later it must save `features` — which it may not. (An
# operation that saves nothing would pass: adding a trainable bias, `features + b`, needs no
# copy of `features` for its gradient.) There are two fixes, both
# named in the message: compute the features under `no_grad`, or make a normal copy with
# `clone()` outside inference mode.

# %%
with torch.no_grad():
    features = backbone(data)
head(features).sum().backward()
print(tr("no_grad features:  head.weight.grad has shape"), list(head.weight.grad.shape))

head.zero_grad()
with torch.inference_mode():
    features = backbone(data)
head(features.clone()).sum().backward()
print(tr("cloned features:   head.weight.grad has shape"), list(head.weight.grad.shape))

# %% [markdown]
# Use `inference_mode` for code that only predicts — serving a model, evaluating a test set —
# and `no_grad` when the results may flow back into training. (Changing an inference tensor in
# place outside inference mode is refused too: "Inplace update to inference tensor outside
# InferenceMode is not allowed".)

# %% [markdown]
# ## 6. Open the hood: the grad-mode switches
#
# Here is mini_autograd's `no_grad`. `_DecoratorContextManager` is the base class that lets it
# work both as `with torch.no_grad():` and as `@torch.no_grad()`:

# %%
show_source(torch.no_grad)

# %% [markdown]
# It saves the current mode, switches it off, and restores it on exit. The mode itself lives
# in `_state`, a `threading.local` object: each thread has its own switch, so a `no_grad` in
# one thread does not stop another thread from training. `inference_mode` sets a second flag
# beside it:

# %%
show_source(torch.inference_mode)

# %% [markdown]
# Who reads the flag? `Function.apply`, the one place where every operation is recorded: its
# listing is in chapter 02. One line of it decides:
#
# ```python
# record = grad_enabled and any(needs_input_grad) and not grad_mode.is_inference_mode_enabled()
# ```
#
# An operation is recorded only when grad mode is on **and** an input requires grad (and
# inference mode is off). Otherwise `ctx` is a plain `FunctionCtx`, no node is made and the
# output gets no `grad_fn`. A quick check that `apply` reads the flag at call time:

# %%
x = torch.tensor(1.0, requires_grad=True)
print(tr("grad mode on: "), torch.exp(x).grad_fn)
with torch.no_grad():
    print(tr("grad mode off:"), torch.exp(x).grad_fn)

# %% [markdown]
# The flag for inference tensors is set where every tensor is born, in `Tensor.__init__`
# (`self._is_inference = is_inference_mode_enabled()`), and checked where a tensor would be
# saved for backward, in `SavedTensor.__init__` (chapter 07).
#
# **In PyTorch**, `torch/autograd/grad_mode.py` holds `no_grad`, `enable_grad`,
# `set_grad_enabled` and `inference_mode`, the same context managers and decorators
# (`no_grad.__enter__` calls `torch.set_grad_enabled(False)`); the flag itself lives in C++.
#
# <details><summary>In PyTorch: the flag in C++</summary>
#
# - `c10/core/GradMode.h`: `GradMode::is_enabled()` / `set_enabled()`, a thread-local flag, and
#   the RAII guards `AutoGradMode` and `NoGradGuard` that C++ code uses like a `with` block.
# - `torch/csrc/autograd/functions/utils.h: compute_requires_grad` returns `false` as soon as
#   `GradMode::is_enabled()` is false; the generated code of every built-in op calls it before
#   making a node — our `record = ...` line.
# - `c10/core/InferenceMode.h: struct InferenceMode`, the guard behind `inference_mode`: it
#   turns grad mode off *and* removes the autograd dispatch keys, so inference tensors are
#   created without autograd metadata or a version counter. `SavedVariable`'s constructor
#   (`torch/csrc/autograd/saved_variable.cpp`) raises "Inference tensors cannot be saved for
#   backward".
#
# </details>

# %% [markdown]
# ## 7. `detach()`: one tensor, cut loose
#
# `no_grad` acts on a block of code. `detach()` acts on one tensor: it returns a **new tensor
# with the same data and no history**.

# %%
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
d = y.detach()
print("y:", y)
print("d:", d)
print("d.requires_grad:", d.requires_grad, "| d.grad_fn:", d.grad_fn, "| d.is_leaf:", d.is_leaf)
print(tr("y is untouched:"), y.grad_fn.name(), "| y.requires_grad:", y.requires_grad)

# %% [markdown]
# `d` is a leaf that does not require grad; `y` keeps its `grad_fn` and stays in the graph.
# "Same data" is meant literally: `detach()` copies nothing. Write into `d`, and `y` changes:

# %%
d[0] = 100.0
print(tr("y after d[0] = 100.0:"), y)
print("y._version:", y._version, "| d._version:", d._version)

# %% [markdown]
# The two tensors also share their **version counter**, `_version`: every in-place change
# through either of them counts for both. (When you want an independent copy, write
# `y.detach().clone()`.) The shared counter is a safety net. Chapter 07 shows that some
# operations keep their inputs or outputs for backward; `exp` keeps its result, because
# $\frac{d}{dx}e^x = e^x$. If you change that result in place through a detached tensor,
# the counter tells backward that the saved value is stale: the backward in the cell below fails on
# purpose, with a `RuntimeError` (caught and printed).

# %%
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
e = x.exp()
e.detach().mul_(2)                      # in place, through a detached tensor
try:
    e.sum().backward()
except RuntimeError as error:
    print("RuntimeError:", error)

# %% [markdown]
# An error is the good outcome: the gradient would have been wrong. Older code uses `.data`
# instead of `detach()`. It also gives the same numbers without history, but with a **fresh**
# version counter, so autograd cannot see changes made through it:

# %%
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
e = x.exp()
e.data.mul_(2)                          # the same change, through .data
print("e._version:", e._version, tr(" (the change went unnoticed)"))
e.sum().backward()
print("x.grad:        ", x.grad)
print(tr("true gradient: "), torch.tensor([1.0, 2.0, 3.0]).exp(), " = e^x")

# %% [markdown]
# No error, and a gradient twice too large. That is why `.data` is considered dangerous: use
# `detach()` (or `no_grad`) in new code.
#
# In a graph, `detach()` is a **stop-gradient**: the detached value enters the computation as a
# constant. Here $a = x^2$ is detached before being multiplied by $x$ again:

# %%
x = torch.tensor(2.0, requires_grad=True)
a = x * x
out = a.detach() * x
viz.draw(out, params={"x": x})

# %% [markdown]
# Only one path reaches `x`: the one through the second factor. Backward treats `a` as the
# number 4, so the gradient is 4, not the $3x^2 = 12$ of $x^3$:

# %%
out.backward()
print("x.grad:", x.grad)

# %% [markdown]
# Sometimes that is exactly the intent (a fixed target in reinforcement learning, a frozen
# feature). Most often, `detach()` is used to take numbers **out** of the graph: for logging,
# for plotting, or before `.numpy()`, which refuses tensors that require grad.
#
# **Open the hood.** `Tensor.detach` takes a few lines: a new tensor over the same numpy
# array, sharing the version counter. The `.data` property builds a new tensor over the same
# array and gives it nothing else — so it gets a counter of its own:

# %%
show_source(torch.Tensor.detach)
show_source(torch.Tensor.data.fget)

# %% [markdown]
# <details><summary>In PyTorch: detach and .data</summary>
#
# `torch/csrc/autograd/VariableTypeManual.cpp: detach`. Its autograd kernel records nothing
# and passes the call down; the `ADInplaceOrView` kernel in the same file wraps the result as a
# view of the input (same storage, same version counter) that is not differentiable, so it has
# no `grad_fn`. `.data` goes through `torch/csrc/autograd/variable.cpp:
# VariableHooks::variable_data`, which makes a shallow copy with a new version counter, set to 0.
#
# </details>

# %% [markdown]
# ## 8. `retain_graph=True`: keep the graph for another backward
#
# Back to $y = x^2 + 3x$ at $x = 2$. One backward gives the derivative, 7:

# %%
x = torch.tensor(2.0, requires_grad=True)
y = x * x + 3 * x
y.backward()
print(x.grad)

# %% [markdown]
# A second `backward()` through the same graph fails:
#
# The next cell fails on purpose, with a `RuntimeError`: the first backward freed what the graph had saved.

# %%
with expect_error(RuntimeError):
    y.backward()

# %% [markdown]
# Backward reads the ledger from the last entry to the first — and, to save memory, throws away
# what each entry kept from the forward pass (the saved tensors: `x`, for `x * x`) as soon as
# it has used it. The message names the way out, `retain_graph=True`, which tells backward to
# keep them:

# %%
x = torch.tensor(2.0, requires_grad=True)
y = x * x + 3 * x
y.backward(retain_graph=True)
print(tr("after the first backward: "), x.grad)
y.backward()
print(tr("after the second backward:"), x.grad)

# %% [markdown]
# The second call works — and `x.grad` is 14: `retain_graph` keeps the graph, not the gradients
# from adding up (chapter 05). The second `backward()` frees the graph, since it does not pass
# `retain_graph=True` again.
#
# When is it needed? When two backward calls go through a shared part of the graph, for example
# two losses computed from one trunk. Usually it is simpler to add the losses and call
# backward once; both give the same gradients:

# %%
x = torch.tensor([1.0, 2.0], requires_grad=True)
trunk = x * x
loss1, loss2 = trunk.sum(), (trunk * 3).sum()
loss1.backward(retain_graph=True)          # the trunk's saved tensors are still needed...
loss2.backward()                           # ...here
print(tr("two backward calls:      "), x.grad)

x.grad = None
trunk = x * x
(trunk.sum() + (trunk * 3).sum()).backward()
print(tr("one backward on the sum: "), x.grad)

# %% [markdown]
# What `retain_graph=True` costs: every saved tensor stays in memory until the graph itself is
# dropped. Chapter 07 measures these saved tensors and shows exactly where backward frees them.
#
# ## 9. `zero_grad()`: the fourth look-alike
#
# Chapter 05 covered it; here it is only to complete the set. Gradients **accumulate** in
# `.grad`, and `zero_grad()` clears them before the next step:

# %%
torch.manual_seed(0)
model = nn.Linear(2, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
inputs = torch.ones(4, 2)
model(inputs).sum().backward()
first = model.bias.grad.clone()
model(inputs).sum().backward()
print(tr("bias.grad after one backward:"), first, tr("| after two:"), model.bias.grad)
optimizer.zero_grad()
print(tr("after optimizer.zero_grad(): "), model.bias.grad)

# %% [markdown]
# `zero_grad()` does not touch the graph or the grad mode, and it does not change any parameter;
# it only empties `.grad` (to `None`, by default).
#
# ## 10. The five side by side
#
# | | acts on | what it does | what it does **not** do | typical use |
# |---|---|---|---|---|
# | `t.detach()` | one tensor | returns a new leaf with `t`'s data and version counter, and no history | copy the data; change `t` or the graph behind `t`; turn off recording for later operations | take values out (logging, plots, `.numpy()`); stop the gradient along one path |
# | `with torch.no_grad():` | a block of code (in one thread) | operations in the block are not recorded: no `grad_fn`, `requires_grad=False` | change any tensor's `requires_grad`; free graphs built before the block; switch layers to eval behaviour | evaluation; in-place parameter updates (optimizers) |
# | `with torch.inference_mode():` | a block of code | like `no_grad`, and its results are inference tensors (in PyTorch: no version counter, a bit faster) | let its results be saved for backward later, or changed in place outside the mode | pure inference: serving, test-set evaluation |
# | `backward(retain_graph=True)` | one backward call | keeps the saved tensors, so the graph can be walked again | stop gradients from accumulating; record anything new | several backward passes through a shared graph |
# | `optimizer.zero_grad()` | the parameters' `.grad` | clears accumulated gradients (sets them to `None`) | touch the graph or grad mode; change the parameters | the start of every training step |
#
# Two more that are often mixed in: `.data` behaves like `detach()` without the version-counter
# safety net (avoid it), and `model.eval()` changes how some layers behave but does not switch
# off recording.

# %% [markdown]
# ## 11. The most common training bug: a switch in the wrong place
#
# Article 000 §9 warns that the bugs here are rarely in `backward()` itself. They come from a
# `no_grad` or a `detach()` where it does not belong: the code runs, the loss is printed, and
# part of the model silently stops learning.
#
# A small regression problem to see it: 200 points in the square $[-2, 2]^2$, target
# $\sin(1.5\,x_0)\cos(x_1)$, and a two-layer network (2 → 16 → 1, tanh) trained for 200 steps
# with SGD (learning rate 0.2, momentum 0.5). The training function can put a `detach()` in one
# of two places:

# %%
rng = np.random.default_rng(0)
X_np = rng.uniform(-2, 2, size=(200, 2)).astype(np.float32)
Y_np = (np.sin(1.5 * X_np[:, :1]) * np.cos(X_np[:, 1:])).astype(np.float32)
X, Y = torch.tensor(X_np), torch.tensor(Y_np)


def train(detach_at=None, steps=200, lr=0.2):
    """Train a 2-16-1 network; detach_at = None, "input" or "hidden" puts a detach() there."""
    torch.manual_seed(0)
    layer1, layer2 = nn.Linear(2, 16), nn.Linear(16, 1)
    optimizer = torch.optim.SGD([*layer1.parameters(), *layer2.parameters()], lr=lr, momentum=0.5)
    loss_fn = nn.MSELoss()
    losses = []
    for _ in range(steps):
        optimizer.zero_grad()
        inputs = X.detach() if detach_at == "input" else X
        hidden = layer1(inputs).tanh()
        if detach_at == "hidden":
            hidden = hidden.detach()              # the bug: layer1 is cut out of the graph
        loss = loss_fn(layer2(hidden), Y)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses, layer1, layer2


runs = {tr("correct"): train(), tr("detach() on the input"): train("input"),
        tr("detach() on the hidden layer"): train("hidden")}
for name, (losses, _, _) in runs.items():
    print(tr(f"{name:29} first loss {losses[0]:.4f}, final loss {losses[-1]:.4f}"))

# %%
fig, ax = plt.subplots(figsize=(6.5, 3.8))
styles = {tr("correct"): ("tab:blue", "-"), tr("detach() on the input"): ("tab:orange", "--"),
          tr("detach() on the hidden layer"): ("tab:red", "-")}
for name, (losses, _, _) in runs.items():
    color, linestyle = styles[name]
    ax.plot(losses, color=color, linestyle=linestyle, label=name)
ax.set_yscale("log")
ax.set_xlabel(tr("training step"))
ax.set_ylabel(tr("mean squared error (log scale)"))
ax.set_title(tr("The same network, with a detach() in three places"))
ax.legend()
plt.show()

# %% [markdown]
# Three lessons in one picture:
#
# - **`detach()` on the input changes nothing.** The data never required grad, so there was no
#   history to cut; the dashed curve lies exactly on the blue one.
# - **`detach()` on the hidden layer cuts `layer1` out of the graph.** Its weights keep their
#   random initial values; only `layer2` learns, fitting the best it can on fixed random
#   features. The loss still goes down — this is what makes the bug hard to see — but it gets
#   stuck well above the correct run's.
# - Nothing raised, nothing warned.
#
# The quickest diagnosis: after one `backward()`, look for parameters whose `.grad` is still
# `None`.

# %%
for name, (_, layer1, layer2) in runs.items():
    missing = [label for label, p in [("layer1.weight", layer1.weight), ("layer1.bias", layer1.bias),
                                      ("layer2.weight", layer2.weight), ("layer2.bias", layer2.bias)]
               if p.grad is None]
    print(tr(f"{name:29} parameters without a gradient: {missing or tr('none')}"))

# %% [markdown]
# `optimizer.step()` skips a parameter whose `.grad` is `None` (chapter 05), so `layer1` never
# moved. A `with torch.no_grad():` around the first layer does exactly the same damage.
#
# A `no_grad` around the **whole** forward pass is at least loud. The loss then has no
# `grad_fn`, and `backward()` has nothing to walk: the cell below fails on purpose at
# `loss.backward()`, with a `RuntimeError` (caught and printed).

# %%
torch.manual_seed(0)
model = nn.Linear(2, 1)
loss_fn = nn.MSELoss()
with torch.no_grad():                  # meant for "evaluation", left in the training loop
    prediction = model(X)
loss = loss_fn(prediction, Y)
print("loss:", loss, "| requires_grad:", loss.requires_grad)
try:
    loss.backward()
except RuntimeError as error:
    print(tr(f"loss.backward() raised {type(error).__name__}: {error}"))

# %% [markdown]
# "element 0 of tensors does not require grad and does not have a grad_fn": whenever you see
# this message, look for a `no_grad`, an `inference_mode` or a `detach()` between the
# parameters and the loss. (`model(X).detach()` gives the same error.)

# %% [markdown]
# ## 12. Build it: `no_grad`, `detach`, `requires_grad_`
#
# ### Step 06.1: `no_grad`
#
# Your engine already switches recording off while it runs the formulas (step 03.2), by setting
# `grad_mode._state.grad_enabled` and putting the old value back in a `finally`. `no_grad` packs that into a
# `with` block. Write its `__enter__` and `__exit__` in [myautograd/grad_mode.py](myautograd/grad_mode.py#no_grad.__enter__).
# Section 6 showed `mini_autograd`'s; mind the two cases the check tries: a `no_grad` block inside another one,
# and an exception raised inside the block.
#
# <details><summary>Hint 1</summary>
#
# `torch.no_grad` is a context manager: the switch moves in `__enter__`, not when the object is made
# (`torch.no_grad()` on its own changes nothing), and `__exit__` puts back the state from *before* the block. It is
# the save-and-restore your engine already does around backward.
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# Four wrong versions the check catches: switching off in `__init__`; toggling (`not enabled`), which turns
# recording back *on* in a nested block; putting back `True` instead of the saved value, which ends an inner block
# with recording on inside the outer one; keeping the saved values anywhere but on `self` (a global stack works for
# nested blocks, but two threads, each with its own switch, then put back each other's). And `__exit__` must return
# nothing (or False), so that an exception raised
# inside the block goes on.
#
# </details>
#
# <details><summary>A sketch</summary>
#
# ```python
# def __enter__(self):
#     self.previous = ___
#     _state.grad_enabled = ___
#
# def __exit__(self, *exc_info):
#     _state.grad_enabled = ___
# ```
#
# </details>

# %%
import buildtrack

buildtrack.check("06.1")

# %% [markdown]
# ### Step 06.2: `detach` and `requires_grad_`
#
# Write `Tensor.detach` (section 7: the same numbers, shared, not copied, and the same version counter; no
# history) and `Tensor.requires_grad_` (chapter 04, section 4: leaves only) in [myautograd/tensor.py](myautograd/tensor.py#Tensor.detach).
#
# <details><summary>Hint 1</summary>
#
# In PyTorch `detach()` returns a new tensor on the *same* memory, with no `grad_fn` and `requires_grad` False.
# `requires_grad_` flips the switch where it is a choice, on a leaf; a non-leaf's `requires_grad` comes from its
# history.
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# No copy: hand the same numpy array to the new `Tensor` (`np.asarray` keeps an array as it is; `.copy()` and
# `np.array` copy it), and give it the same `_version_counter` object: in PyTorch an in-place change made through
# the detached tensor counts for both, so a saved tensor changed that way still stops backward (chapter 07). For
# `requires_grad_`, the cases in order: a non-leaf asking for True changes nothing and asking for False raises; an
# integer tensor asking for True raises, with PyTorch's message for `requires_grad_` (which names floating point
# only, although a complex tensor may require grad too; mini_autograd has no complex numbers), and asking for False
# is fine; anything else sets the flag. Both return `self`.
#
# </details>
#
# <details><summary>A sketch</summary>
#
# ```python
# def detach(self):
#     detached = Tensor(___)               # the same array object
#     detached._version_counter = ___      # and the same counter
#     return detached
#
# def requires_grad_(self, requires_grad=True):
#     if not self.is_leaf:
#         if ___:
#             return self
#         raise RuntimeError(NON_LEAF_REQUIRES_GRAD_ERROR)
#     if ___:
#         raise RuntimeError("only Tensors of floating point dtype can require gradients")
#     ___
#     return ___
# ```
#
# </details>

# %%
buildtrack.check("06.2")

# %% [markdown]
# That completes the pieces of chapters 01 to 06. Your package now records graphs, runs backward through them,
# keeps gradients on leaves only (or on request), accumulates them, and knows when not to record. Your progress
# over every step so far (`make progress` in a terminal prints the same table):

# %%
buildtrack.progress()

# %% [markdown]
# ## Exercises
#
# **Exercise 6.1.** Which of these six results have a `grad_fn`? Answer with a tuple of six
# booleans, in the order `(a, b, c, d, e, f)`.
#
# ```python
# w = torch.tensor([1.0, 2.0], requires_grad=True)
# a = w * 2
# with torch.no_grad():
#     b = w * 2
#     with torch.enable_grad():
#         c = w * 2
# d = a.detach() * w
# with torch.inference_mode():
#     e = w * 2
# f = b * 2
# ```
#
# <details><summary>Hint 1</summary>
#
# A result has a `grad_fn` when recording is on and at least one input requires grad.
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# `enable_grad()` switches recording back on inside `no_grad()`; `inference_mode()` switches it off. A tensor made under `no_grad` does not require grad.
#
# </details>
#
# <details><summary>A sketch</summary>
#
# For each of `a` to `f`: is recording on at that line? Does an input require grad? Both yes → `True`. Answer a tuple of six booleans.
#
# </details>

# %%
# Exercise 6.1
answer_6_1 = ...  # your answer here: (a?, b?, c?, d?, e?, f?)

# %% tags=["hide-input"]
check_exercise("6.1")

# %% [markdown]
# <details><summary>Show solution</summary>
#
# ```python
# # Exercise 6.1
# answer_6_1 = (True, False, True, True, False, False)
# ```
#
# - `a`: recording on, `w` requires grad: recorded.
# - `b`: inside `no_grad`: not recorded.
# - `c`: `enable_grad` switches recording back on: recorded.
# - `d`: `a.detach()` requires no grad, but `w` does, and recording is on: recorded
#   (`MulBackward0`, with one edge to `w`).
# - `e`: `inference_mode` switches recording off (and `e` is an inference tensor).
# - `f`: recording is on, but no input requires grad: `b` was made under `no_grad`.
#
# </details>

# %% [markdown]
# **Exercise 6.2.** Someone added logging of the hidden layer's mean activation to the training
# loop and, to keep the graph out of the log, put a `detach()` on the hidden layer. Since then
# the loss ends higher. Fix `train_with_logging` so that the log still holds plain numbers (no
# tensors, no graph) but the model trains as in the correct run of section 11, then set
# `answer_6_2 = train_with_logging()`: the final loss and the log.
#
# <details><summary>Hint 1</summary>
#
# `detach()` cuts a tensor out of the graph. Which part of the model is now cut off from the loss?
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# The log needs a plain number; the model needs `hidden` in the graph. Detach only the value that goes into the log.
#
# </details>
#
# <details><summary>A sketch</summary>
#
# Keep `hidden = layer1(X).tanh()` as it was before the `detach()`, and log `hidden.___().mean().item()`; then `answer_6_2 = train_with_logging()`.
#
# </details>

# %%
# Exercise 6.2
def train_with_logging(steps=200, lr=0.2):
    torch.manual_seed(0)
    layer1, layer2 = nn.Linear(2, 16), nn.Linear(16, 1)
    optimizer = torch.optim.SGD([*layer1.parameters(), *layer2.parameters()], lr=lr, momentum=0.5)
    loss_fn = nn.MSELoss()
    mean_activation = []                          # logged, to plot later
    for _ in range(steps):
        optimizer.zero_grad()
        hidden = layer1(X).tanh().detach()        # "keep the graph out of the log"
        mean_activation.append(hidden.mean().item())
        loss = loss_fn(layer2(hidden), Y)
        loss.backward()
        optimizer.step()
    return loss.item(), mean_activation


answer_6_2 = ...  # your answer here: train_with_logging(), once it is fixed

# %% tags=["hide-input"]
check_exercise("6.2")

# %% [markdown]
# <details><summary>Show solution</summary>
#
# ```python
# # Exercise 6.2
# def train_with_logging(steps=200, lr=0.2):
#     torch.manual_seed(0)
#     layer1, layer2 = nn.Linear(2, 16), nn.Linear(16, 1)
#     optimizer = torch.optim.SGD([*layer1.parameters(), *layer2.parameters()], lr=lr, momentum=0.5)
#     loss_fn = nn.MSELoss()
#     mean_activation = []
#     for _ in range(steps):
#         optimizer.zero_grad()
#         hidden = layer1(X).tanh()                            # stays in the graph
#         mean_activation.append(hidden.detach().mean().item())  # detach only for the log
#         loss = loss_fn(layer2(hidden), Y)
#         loss.backward()
#         optimizer.step()
#     return loss.item(), mean_activation
#
#
# answer_6_2 = train_with_logging()
# ```
#
# The `detach()` belongs to the logging line, not to the model. (`.item()` alone would already
# give a plain number: `hidden.mean().item()` records a `MeanBackward0` node that is dropped at
# once, so even the `detach()` there is optional.)
#
# </details>

# %% [markdown]
# **Exercise 6.3.** Predict, without running it, what this code leaves behind. Answer with a
# tuple `(d.is_leaf, d.requires_grad, y[0].item(), y._version)`.
#
# ```python
# x = torch.tensor([1.0, 2.0], requires_grad=True)
# y = x * 3
# d = y.detach()
# d[0] = 100.0
# ```
#
# <details><summary>Hint 1</summary>
#
# `detach()` gives a new tensor without history. Is it a leaf? Does it require grad?
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# It shares the numbers with `y` (no copy), and also `y`'s version counter.
#
# </details>
#
# <details><summary>A sketch</summary>
#
# `answer_6_3 = (d.is_leaf, d.requires_grad, y[0] after the write, the number of in-place writes so far)` = `(___, ___, ___, ___)`.
#
# </details>

# %%
# Exercise 6.3
answer_6_3 = ...  # your answer here: (d.is_leaf, d.requires_grad, y[0].item(), y._version)

# %% tags=["hide-input"]
check_exercise("6.3")

# %% [markdown]
# <details><summary>Show solution</summary>
#
# ```python
# # Exercise 6.3
# answer_6_3 = (True, False, 100.0, 1)
# ```
#
# `detach()` returns a leaf (`grad_fn is None`) that does not require grad. It shares the data,
# so writing `d[0]` writes `y[0]`, and it shares the version counter, so the one in-place write
# raises `y._version` from 0 to 1. If a backward later needed the old `y`, the counter would
# catch the change (chapter 07).
#
# </details>

# %% [markdown]
# ## Recap
#
# - `with torch.no_grad():` switches recording off for a block: results have no `grad_fn` and do
#   not require grad; tensors themselves are not changed. `enable_grad()` switches it back on,
#   `set_grad_enabled(mode)` sets it from a boolean, and all three work as decorators. The
#   switch is a thread-local flag read by `Function.apply` (PyTorch:
#   `torch/autograd/grad_mode.py`).
# - Recording costs time and memory; inference code should not pay for it. Optimizers update
#   parameters in place under `no_grad`.
# - `inference_mode()` is `no_grad` plus inference tensors (`is_inference()`), which PyTorch
#   handles faster but which can never be saved for backward: "Inference tensors cannot be
#   saved for backward". Use `no_grad` when results may feed training.
# - `detach()` returns a leaf with the same data and version counter and no history: a
#   stop-gradient, and the way to take values out of the graph. `.data` does the same without
#   the version counter, so in-place changes through it go unnoticed.
# - `backward()` frees the saved tensors; a second one raises "Trying to backward through the
#   graph a second time" unless the first passed `retain_graph=True`. Gradients still
#   accumulate.
# - `zero_grad()` only clears `.grad`.
# - The training bug of article 000 §9: a `detach()` or `no_grad()` between a layer and the
#   loss freezes that layer without any error. Check which parameters have `.grad is None`
#   after the first backward.
# - Your `myautograd` has `no_grad`, `detach` and `requires_grad_` (steps 06.1 and 06.2): it now does what
#   chapters 01 to 06 describe.
#
# [Next: 07 — Saved tensors](07_saved_tensors.ipynb)
