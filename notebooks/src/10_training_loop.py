# %% [markdown]
# # 10 — The training loop
#
# Every chapter so far computed gradients and stopped there. Training does one thing more: it
# uses the gradients to change the parameters, and does it again, and again. This chapter puts
# the pieces together into the five lines at the heart of every PyTorch training script, and
# trains a small classifier with them.
#
# **What you will learn**
#
# - the five lines of a training step — `zero_grad`, forward, loss, `backward`, `step` — and
#   what each one does to the graph, to `.grad` and to the parameters
# - the division of labour: `backward()` only computes gradients, `optimizer.step()` changes the
#   parameters, `optimizer.zero_grad()` clears the old gradients — each checked on a real model
# - what `nn.Module`, `nn.Linear` and `optim.SGD` do inside (they are short)
# - why `zero_grad()` comes before every update, and what a loop without it does
# - a network with two hidden layers trained on two spirals in well under a second: its loss curve and its
#   decision boundary
# - to give your `myautograd` a `Linear` layer, the `cross_entropy` loss and `SGD.step`, and train the same
#   spiral classifier on your own engine
#
# **Seed sections:** article 000 §6, the "典型训练片段" (typical training fragment) at the end
# of "backward() 到底做了什么"; article 000 §10, "为什么梯度会累加" (clearing the gradients before
# each update); and the closing paragraph of article 003, where the skeleton of a training loop
# first becomes visible.
#
# **mini_autograd pieces introduced:** `nn.Module` (`__call__`, `parameters`,
# `named_parameters`), `nn.Parameter`, `nn.Linear`, `nn.Sequential`, `nn.Tanh`, `nn.MSELoss`,
# `nn.CrossEntropyLoss` (all in `nn/`), and `optim.Optimizer`, `optim.SGD`, `optim.Adam`
# (in `optim/`).
#
# **Time:** about 35 minutes to read and run, and about 20 more for the three build steps.

# %%
import time

import numpy as np
import matplotlib.pyplot as plt

import mini_autograd as torch
from mini_autograd import viz
from coursetools import show_source, expect_error, tr
from exercises import check_exercise

# %% [markdown]
# ## 1. Where article 003 leaves off
#
# Article 003 stops where this course has now arrived: the machinery that turns a forward pass
# into gradients in `.grad` is in place, and a training loop is the next thing to build on it.
# What it names as still to learn before that, the course has covered: when `.grad` must be
# emptied (chapter 05, and section 4 below), which tensors get a `.grad` at all (chapter 04),
# and where `detach()` and `no_grad()` go (chapter 06).
#
# Article 000 §6 writes the loop's body down as five lines. Here they are, with the comments of
# chapter 03:
#
# ```python
# optimizer.zero_grad()     # empty every parameter's .grad
# pred = model(x)           # run the model; each operation records its node
# loss = loss_fn(pred, y)   # one number, at the top of the recorded graph
# loss.backward()           # walk the graph back and fill .grad
# optimizer.step()          # move each parameter against its .grad
# ```
#
# Three objects appear that the earlier chapters did not need: a `model` (an `nn.Module`), a
# `loss_fn` (also a module) and an `optimizer`. The next section runs the five lines one at a
# time on the smallest possible model and looks at everything after each line.

# %% [markdown]
# ## 2. The five lines, one at a time
#
# The model is one linear layer, $\hat y = x W^\top + b$, with two inputs and one output. Its
# weights start random; we set them by hand so that every number below is exactly what PyTorch
# prints for the same code. The data are four samples.

# %%
model = torch.nn.Linear(2, 1)
with torch.no_grad():                       # setting values is not part of the graph
    model.weight.copy_(torch.tensor([[0.5, -0.3]]))
    model.bias.fill_(0.1)
loss_fn = torch.nn.MSELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

x = torch.tensor([[1.0, 1.0], [2.0, -1.0], [0.0, 2.0], [-1.0, 0.5]])
y = torch.tensor([[1.0], [2.0], [-1.0], [0.0]])

print(model)
for name, param in model.named_parameters():
    print(tr(f"{name}: shape {list(param.shape)}, is_leaf={param.is_leaf}, requires_grad={param.requires_grad}"))

# %% [markdown]
# The layer owns two **parameters**, `weight` (1×2) and `bias` (1). Both are leaf tensors that
# require grad — exactly the tensors chapter 04 called the ones whose `.grad` gets filled.
# `model.parameters()` hands them to the optimizer, which keeps a list of them.
#
# To see what each line changes, two small helpers: a copy of every parameter's values, and a
# comparison with such a copy.

# %%
def snapshot(model):
    """A copy of every parameter's values, by name."""
    return {name: p.detach().numpy().copy() for name, p in model.named_parameters()}


def changed(before, model):
    """Did any parameter's values change since the snapshot `before`?"""
    return any(not np.array_equal(before[name], p.detach().numpy())
               for name, p in model.named_parameters())

# %% [markdown]
# **Line 1: `optimizer.zero_grad()`.** Nothing has run yet, so there is nothing to clear; the
# gradients are `None` (chapter 05: `zero_grad()` sets them to `None` by default).

# %%
optimizer.zero_grad()
print("weight.grad:", model.weight.grad, "| bias.grad:", model.bias.grad)

# %% [markdown]
# **Line 2: `pred = model(x)`.** The forward pass. Calling the module runs its `forward`, and
# since the parameters require grad, every operation is recorded:

# %%
before = snapshot(model)
pred = model(x)
print(pred)
print(tr("parameters changed by the forward pass:"), changed(before, model))

# %% [markdown]
# One prediction per sample: $0.5\cdot 1 - 0.3\cdot 1 + 0.1 = 0.3$ for the first, and so on.
# `grad_fn=<AddmmBackward0>`: the whole layer is one operation, `addmm` ("add a matrix
# product": $b + x W^\top$ in one go), as in PyTorch.
#
# **Line 3: `loss = loss_fn(pred, y)`.** The mean squared error, one number. It is the root of
# the graph: `backward()` will start here.

# %%
loss = loss_fn(pred, y)
print(loss)

# %% [markdown]
# Here is the graph this forward pass built, with the parameters labelled by their names
# (`dict(model.named_parameters())` maps each name to its tensor):

# %%
viz.draw(loss, params=dict(model.named_parameters()), names={"loss": loss})

# %% [markdown]
# Read from the top: `MseLossBackward0` made the loss; below it `AddmmBackward0`, the linear
# layer, with three inputs — the bias (straight to its `AccumulateGrad`), the input `x` (no
# gradient needed: `None`), and the transposed weight, `TBackward0`, then the weight's
# `AccumulateGrad`. The target `y` is the second `None`. This is the ledger (账本) of article
# 000, booked by the forward pass and ready to be read in reverse.
#
# **Line 4: `loss.backward()`.** The gradients are computed and accumulated into the
# parameters' `.grad`. Watch the parameters themselves:

# %%
before = snapshot(model)
loss.backward()
print("weight.grad:", model.weight.grad)
print("bias.grad:  ", model.bias.grad)
print(tr("parameters changed by backward():"), changed(before, model))

# %% [markdown]
# The gradients are there, and the parameters have not moved by a single bit. That is the
# point article 000 insists on: **`backward()` only computes gradients.** The numbers can be
# checked by hand. With $N = 4$ samples and residuals $r = \hat y - y$, the mean squared error
# $\frac1N\sum r_i^2$ has $\partial L/\partial \hat y = 2r/N$, and the chain rule through
# $\hat y = xW^\top + b$ gives $\partial L/\partial W = (2r/N)^\top x$ and $\partial L/\partial b
# = \sum_i 2r_i/N$:

# %%
r = pred.detach().numpy() - y.numpy()
dL_dpred = 2 * r / len(r)
print(tr("by hand, weight.grad:"), np.round(dL_dpred.T @ x.numpy(), 4), " bias.grad:", np.round(dL_dpred.sum(axis=0), 4))
print(tr("autograd agrees:"), np.allclose(dL_dpred.T @ x.numpy(), model.weight.grad.numpy()),
      np.allclose(dL_dpred.sum(axis=0), model.bias.grad.numpy()))

# %% [markdown]
# **Line 5: `optimizer.step()`.** Now the parameters move. Plain SGD subtracts the learning rate
# times the gradient: $p \leftarrow p - 0.1\,\nabla_p L$.

# %%
before = snapshot(model)
optimizer.step()
print(tr("parameters changed by step():"), changed(before, model))
print("weight:", model.weight.detach(), " bias:", model.bias.detach())
print("new = old - lr * grad:",
      np.allclose(model.weight.detach().numpy(), before["weight"] - 0.1 * model.weight.grad.numpy()),
      np.allclose(model.bias.detach().numpy(), before["bias"] - 0.1 * model.bias.grad.numpy()))

# %% [markdown]
# `weight` went from `[0.5, -0.3]` to `[0.5675, -0.3313]`: each entry moved by $-0.1$ times its
# gradient `[-0.675, 0.3125]`.
# But `step()` did not touch the gradients — they are still there after the update:

# %%
print(tr("after step():      weight.grad ="), model.weight.grad)
optimizer.zero_grad()
print(tr("after zero_grad(): weight.grad ="), model.weight.grad)

# %% [markdown]
# If the next round's `backward()` found them there, it would add to them (chapter 05). That is
# why the loop starts with `zero_grad()`. Three calls, three separate jobs:
#
# | call | computes gradients | changes parameters | clears gradients |
# |---|---|---|---|
# | `loss.backward()` | yes (adds into `.grad`) | no | no |
# | `optimizer.step()` | no | yes (reads `.grad`) | no |
# | `optimizer.zero_grad()` | no | no | yes (`.grad = None`) |

# %% [markdown]
# ## 3. Open the hood: module, layer, optimizer
#
# None of these three objects is magic; each is a short piece of Python. Calling a module runs
# its `forward`:

# %%
show_source(torch.nn.Module.__call__)

# %% [markdown]
# PyTorch's `Module.__call__` (`torch/nn/modules/module.py`) does one thing more: it runs the
# forward pre-hooks and hooks that users and libraries can register, around `forward`. The
# linear layer's `forward` is one call:

# %%
show_source(torch.nn.Linear.forward)

# %% [markdown]
# `F.linear` checks the shapes and, for a batch of rows, records a single `Addmm` node: the
# `AddmmBackward0` of the graph in section 2.
#
# <details><summary>In PyTorch: Module.__call__ and F.linear</summary>
#
# - `Module.__call__` is `_wrapped_call_impl` → `_call_impl` (`torch/nn/modules/module.py`),
#   which runs the global and the module's forward pre-hooks, `forward`, then the forward hooks.
# - `torch/nn/modules/linear.py: Linear.forward` calls `F.linear`, implemented in C++ in
#   `aten/src/ATen/native/Linear.cpp: linear`, which calls `addmm` for a 2-D input with a bias.
#
# </details>
#
# Where does `parameters()` find the weight and the bias? Assigning a `Parameter` to a module
# attribute registers it in the module's `_parameters` dictionary (`Module.__setattr__`);
# `parameters()` walks those dictionaries through every submodule:

# %%
show_source(torch.nn.Module.parameters)
print()
print(tr("model._parameters keys:"), list(model._parameters))
print(tr("weight is an nn.Parameter:"), isinstance(model.weight, torch.nn.Parameter))

# %% [markdown]
# PyTorch: `torch/nn/modules/module.py: Module.parameters` and `named_parameters`, and
# `torch/nn/parameter.py: Parameter`. The optimizer's `zero_grad` loops over the parameter list
# it was given and sets each `.grad` to `None` (or fills it with zeros):

# %%
show_source(torch.optim.Optimizer.zero_grad)
show_source(torch.optim.optimizer.forget_grad)

# %% [markdown]
# PyTorch: `torch/optim/optimizer.py: Optimizer.zero_grad`. And `SGD.step`, the update:

# %%
show_source(torch.optim.SGD.step)

# %% [markdown]
# For each parameter with a gradient: add weight decay if asked, fold the gradient into a
# momentum buffer if asked, then `param.add_(grad, alpha=-lr)`, PyTorch's own line: $p \leftarrow p + (-\text{lr})\,g$,
# an **in-place** update of the leaf.
# The `@grad_mode.no_grad()` decorator matters. Try the same in-place update with recording on:
#
# The next cell fails on purpose, with a `RuntimeError`: `p` is a leaf that requires grad, and recording is on.

# %%
p = torch.tensor([1.0, 2.0], requires_grad=True)
with expect_error(RuntimeError):
    p.sub_(0.1)

# %% [markdown]
# Autograd refuses: changing a leaf that requires grad in place, while recording, would make
# the update part of the graph and rewrite the very values the graph is about. Under
# `no_grad()` the same line is allowed and recorded nowhere:

# %%
with torch.no_grad():
    p.sub_(0.1)
print(p)

# %% [markdown]
# <details><summary>In PyTorch: SGD.step</summary>
#
# `torch/optim/sgd.py: SGD.step` does the same through `sgd()` and `_single_tensor_sgd` (or
# `_multi_tensor_sgd`, which updates many parameters per call with `torch._foreach_*` kernels);
# its decorator `_use_grad_for_differentiable` (`torch/optim/optimizer.py`) turns grad mode off
# the same way.
#
# </details>
#
# So the loop is: `Module.__call__` builds the graph, the loss is its root, the engine of
# chapters 03 and 08 fills `.grad` through `AccumulateGrad`, and the optimizer reads `.grad`
# and edits the parameters in place.

# %% [markdown]
# ## 4. Why `zero_grad()` comes before every update
#
# Chapter 05 showed that `backward()` adds into `.grad` instead of writing over it (article 000
# §10 explains why PyTorch chose this). A loop that wants each update to follow only the current
# batch's gradient must therefore empty `.grad` before computing it:
#
# ```python
# optimizer.zero_grad()
# loss.backward()
# optimizer.step()
# ```
#
# What happens without the first line? Train the little regression model for 40 steps both
# ways, from the same start:

# %%
def train_linear(clear_grads, steps=40, lr=0.1):
    model = torch.nn.Linear(2, 1)
    with torch.no_grad():
        model.weight.copy_(torch.tensor([[0.5, -0.3]]))
        model.bias.fill_(0.1)
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    losses = []
    for _ in range(steps):
        if clear_grads:
            optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses


with_zero_grad, without_zero_grad = train_linear(True), train_linear(False)
print(tr(f"loss after 40 steps, with zero_grad:    {with_zero_grad[-1]:.3f}"))
print(tr(f"loss after 40 steps, without zero_grad: {without_zero_grad[-1]:.3f}"))

# %%
fig, ax = plt.subplots(figsize=(6, 3.5))
ax.plot(with_zero_grad, label=tr("optimizer.zero_grad() every step"))
ax.plot(without_zero_grad, label=tr("no zero_grad()"), color="tab:red")
ax.set_xlabel(tr("step"))
ax.set_ylabel(tr("MSE loss"))
ax.set_title(tr("The same loop, with and without zero_grad()"))
ax.set_ylim(0.1, 0.45)
ax.legend(loc="upper right", fontsize=8)
plt.show()

# %% [markdown]
# With `zero_grad()` the loss falls smoothly towards the best a line can do on these four
# points. Without it, each step's `.grad` holds the sum of *all* gradients so far: the update
# keeps pushing in directions that were right many steps ago, overshoots, and the loss swings
# up and down instead of settling. Nothing crashes and no warning appears — the usual symptom
# of this bug is a loss curve that looks "unstable".
#
# The rule is "clear before every *update*", not "before every `backward()`". Chapter 05 §5
# used the difference on purpose: $k$ micro-batches, each loss scaled by $1/k$, accumulated in
# `.grad`, give exactly the gradient of the whole batch. In a training loop that is one change,
# `zero_grad()` and `step()` move out of the inner loop:
#
# ```python
# optimizer.zero_grad()
# for xb, yb in micro_batches:            # k pieces of one big batch
#     loss = loss_fn(model(xb), yb) / k
#     loss.backward()                     # .grad collects the sum
# optimizer.step()                        # one update for the whole batch
# ```

# %% [markdown]
# ## 5. A classifier on two spirals
#
# Now a real task: two interleaved spirals of points in the plane, one per class. No straight
# line separates them, so the model needs hidden layers. The data come from numpy with a fixed
# seed:

# %%
def two_spirals(n_per_class=150, turns=1.5, noise=0.3, seed=0):
    """Two interleaved spirals in the plane: points X (n, 2) in float32 and labels (n,) 0 or 1."""
    rng = np.random.default_rng(seed)
    points, labels = [], []
    for label, sign in [(0, 1.0), (1, -1.0)]:
        angle = np.sqrt(rng.uniform(0, 1, n_per_class)) * turns * 2 * np.pi
        xy = sign * np.stack([angle * np.cos(angle), angle * np.sin(angle)], axis=1)
        points.append(xy + rng.normal(0, noise, (n_per_class, 2)))
        labels.append(np.full(n_per_class, label))
    X = np.concatenate(points) / (turns * np.pi)          # scale into about [-2, 2]
    return X.astype(np.float32), np.concatenate(labels).astype(np.int64)


X_np, labels_np = two_spirals()
X, labels = torch.tensor(X_np), torch.tensor(labels_np)
print("X:", X.shape, X.dtype, "| labels:", labels.shape, labels.dtype, tr("| per class:"), np.bincount(labels_np))

# %%
fig, ax = plt.subplots(figsize=(4.5, 4.5))
ax.scatter(X_np[:, 0], X_np[:, 1], c=labels_np, cmap="coolwarm", s=10, edgecolors="k", linewidths=0.3)
ax.set_xlabel("$x_1$")
ax.set_ylabel("$x_2$")
ax.set_title(tr("Two spirals: class 0 (blue), class 1 (red)"))
ax.set_aspect("equal")
plt.show()

# %% [markdown]
# The model: two hidden layers of 32 units with `tanh` between them, and 2 outputs, one score
# (a *logit*) per class. `nn.Sequential` chains the layers. The loss is the cross-entropy, the
# standard loss for classification: it turns the two scores into probabilities with a softmax
# and takes minus the log of the probability given to the right class.
#
# `torch.manual_seed(0)` makes the random starting weights the same on every run, and the same
# as PyTorch's: mini_autograd's random number generator is PyTorch's, so the same seed gives the
# same numbers.

# %%
torch.manual_seed(0)
net = torch.nn.Sequential(
    torch.nn.Linear(2, 32), torch.nn.Tanh(),
    torch.nn.Linear(32, 32), torch.nn.Tanh(),
    torch.nn.Linear(32, 2),
)
loss_fn = torch.nn.CrossEntropyLoss()
print(net)
print(tr("parameters:"), sum(p.numel() for p in net.parameters()))

# %% [markdown]
# One forward pass and the graph it records, with each parameter labelled by its name
# (`0.weight` is the weight of layer 0, and so on). It is the same kind of graph as before, just
# taller: three `AddmmBackward0` (the linear layers), two `TanhBackward0`, and at the top the
# cross-entropy, which PyTorch records as `NllLossBackward0` over `LogSoftmaxBackward0`.

# %%
loss = loss_fn(net(X), labels)
print(loss)
viz.draw(loss, params=dict(net.named_parameters()), names={"loss": loss}, show_values=False)

# %% [markdown]
# The starting loss is about $\ln 2 \approx 0.693$: with random weights the network gives each
# class a probability near one half.
#
# Now the loop. It is the five lines of article 000, repeated 300 times on the whole data set
# (full batch). The optimizer is Adam, which adapts a step size per parameter; the loop does not
# care which optimizer it calls. Swapping in `torch.optim.SGD(net.parameters(), lr=0.1,
# momentum=0.9)` changes one line, and that loop trains too, but far more slowly on this problem:
# after the same 300 steps its loss is about 0.07 (97.7% of the points right), against Adam's
# 0.001 (PyTorch 2.13 and mini_autograd agree on both runs).

# %%
optimizer = torch.optim.Adam(net.parameters(), lr=0.02)
losses = []
start = time.perf_counter()
for _ in range(300):
    optimizer.zero_grad()
    pred = net(X)
    loss = loss_fn(pred, labels)
    loss.backward()
    optimizer.step()
    losses.append(loss.item())
seconds = time.perf_counter() - start

print(tr(f"300 steps in {seconds:.2f} s, {seconds / 300 * 1e3:.2f} ms per step"))
print(tr(f"loss at step 0: {losses[0]:.4f}"))
print(tr("loss after 300 steps below 0.01:"), losses[-1] < 0.01)

# %% [markdown]
# (The timings depend on the machine; on a laptop the whole run takes about a second or less.)
# The loss went from 0.68 to below 0.01. The curve, on a log scale:

# %%
fig, ax = plt.subplots(figsize=(6, 3.5))
ax.plot(losses)
ax.set_yscale("log")
ax.set_xlabel(tr("step"))
ax.set_ylabel(tr("cross-entropy loss (log scale)"))
ax.set_title(tr("Training the spiral classifier"))
plt.show()

# %% [markdown]
# A short plateau at first (the network still guesses), then a steep fall once the hidden
# units start bending the boundary around the spirals, then a slow polish.
#
# **Accuracy** is the fraction of points whose highest score is their own class. It is a
# measurement, not part of training, so it runs under `torch.no_grad()`: no graph is recorded
# (chapter 06).

# %%
with torch.no_grad():
    logits = net(X)
    predicted = logits.argmax(dim=1)
    train_accuracy = (predicted == labels).float().mean().item()
print(tr(f"training accuracy: {train_accuracy:.1%}"))
print(tr("above 95%:"), train_accuracy > 0.95)

# %% [markdown]
# Every training point is classified correctly. To see *how* the network separates the
# classes, evaluate it on a grid covering the plane — 40,000 points in one forward pass, again
# under `no_grad()` — and colour each point by the probability of class 1:

# %%
grid_x1, grid_x2 = np.meshgrid(np.linspace(-2.3, 2.3, 200), np.linspace(-2.3, 2.3, 200))
grid = torch.tensor(np.stack([grid_x1.ravel(), grid_x2.ravel()], axis=1).astype(np.float32))
with torch.no_grad():
    probability = torch.nn.functional.softmax(net(grid), dim=1)[:, 1]
probability = probability.numpy().reshape(grid_x1.shape)

fig, ax = plt.subplots(figsize=(5, 4.5))
filled = ax.contourf(grid_x1, grid_x2, probability, levels=np.linspace(0, 1, 11), cmap="coolwarm", alpha=0.7)
ax.contour(grid_x1, grid_x2, probability, levels=[0.5], colors="k", linewidths=1)
ax.scatter(X_np[:, 0], X_np[:, 1], c=labels_np, cmap="coolwarm", s=10, edgecolors="k", linewidths=0.3)
fig.colorbar(filled, ax=ax, label=tr("P(class 1)"))
ax.set_xlabel("$x_1$")
ax.set_ylabel("$x_2$")
ax.set_title(tr("Decision boundary (black line: P = 0.5)"))
ax.set_aspect("equal")
plt.show()

# %% [markdown]
# The black line, where both classes are equally likely, winds between the two arms. Every bend
# of it came from 300 repetitions of the same five lines: build the graph, read it backwards,
# step, clear.

# %% [markdown]
# ## 6. Build it: `Linear`, `cross_entropy`, `SGD.step`
#
# Your `myautograd` already has everything a training step needs under the hood: graphs (chapter 02), an engine
# (chapters 03 and 08), gradients that accumulate on leaves (chapters 04 and 05), `no_grad` (chapter 06) and
# in-place writes with versions (chapter 07). What it lacks are the three objects of section 3: a layer, a loss
# and an optimizer. Its model is simpler than `nn.Module`: any object with `__call__` and `parameters()` is a
# model (`parameters()` is given), and a network is layers called one after the other, with `tanh` between.
#
# ### Step 10.1: `Linear`
#
# In [myautograd/nn.py](myautograd/nn.py#Linear.__init__), write `Linear.__init__` and `Linear.__call__`. `__init__` makes the
# two parameters of section 2, `weight` of shape `(out_features, in_features)` and `bias` of shape
# `(out_features,)`, each a `Parameter` (given: a leaf that requires grad), drawn uniformly from $[-k, k]$ with
# `k = 1 / sqrt(in_features)`: that is what PyTorch draws, so that a layer's outputs start neither tiny
# nor huge, whatever its width. `__call__` computes $x W^\top + b$ for a batch `x` of shape `(n, in_features)`,
# with the given `transpose`. The bias of shape `(out_features,)` is broadcast over the `n` rows; its gradient
# arrives shaped `(n, out_features)`, and your engine's `sum_to` (step 03.2) sums it back over the rows, the
# same sum the hand computation of section 2 wrote as $\sum_i 2r_i/N$.
#
# <details><summary>Hint 1</summary>
#
# PyTorch's `nn.Linear` holds two `Parameter`s, drawn uniformly from $[-k, k]$ with `k = 1 / sqrt(in_features)`,
# and its forward is one expression of tensor operations on them. Because it is built from recorded operations, the
# parameters get gradients with no extra code.
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# The weight's shape is `(out_features, in_features)`, so the batch is multiplied by its transpose. `k` is one over
# the *square root* of `in_features` (`1 / in_features` draws numbers twenty times too small for 400 inputs). Draw
# from the whole interval, `-k` to `k` (the weight first, then the bias, as PyTorch draws them), from the generator
# as the caller seeded it: no `manual_seed` inside `Linear`. In `__call__` use the `Parameter`s themselves, not
# their `_data`: numpy arithmetic records nothing, and the layer would never get a gradient. The check builds
# layers of random shapes after random seeds and compares them, and their outputs and gradients, with PyTorch's.
#
# </details>
#
# <details><summary>A sketch</summary>
#
# ```python
# def __init__(self, in_features, out_features):
#     k = ___
#     self.weight = Parameter(creation.uniform(___, ___, (___, ___)))
#     self.bias = Parameter(creation.uniform(___, ___, (___,)))
#
# def __call__(self, x):
#     return x @ ___ + ___
# ```
#
# </details>

# %%
import buildtrack

buildtrack.check("10.1")

# %% [markdown]
# `mini_autograd`'s `Linear.forward` is the one line of section 3, `F.linear`, which records one
# `AddmmBackward0` node where yours records three (`MmBackward0`, `TBackward0`, `AddBackward0`): the same
# gradients, in more steps. Its parameters are drawn by `reset_parameters`, PyTorch's code: Kaiming's uniform
# initialisation with $a = \sqrt 5$, a roundabout way of writing your bound `1 / sqrt(in_features)`:

# %%
show_source(torch.nn.Linear.reset_parameters)

# %% [markdown]
# ### Step 10.2: `cross_entropy`
#
# Section 5 used `nn.CrossEntropyLoss`, which PyTorch computes as `log_softmax` followed by `nll_loss` (the
# two nodes at the top of the spiral classifier's graph). Write `cross_entropy(logits, targets)` in
# [myautograd/nn.py](myautograd/nn.py#cross_entropy) from operations your package has. For each row $z$ of the logits,
# $\log\operatorname{softmax}(z)_j = z_j - \log\sum_k e^{z_k}$, and the loss is minus the entry $j$ of the right
# class, averaged over the rows. Two details, both in the docstring:
#
# - $e^{1000}$ overflows to `inf` (the largest float32 is about $3.4 \cdot 10^{38}$, or $e^{88.7}$). Subtracting
#   each row's largest logit $c$ first changes nothing in exact arithmetic, since $(z_j - c) - \log\sum_k
#   e^{z_k - c} = z_j - \log\sum_k e^{z_k}$, and then every exponent is at most $e^0 = 1$. The given
#   `logits.max(dim=1, keepdim=True)` returns $c$ as a constant, with no node: the gradients through the two
#   places $c$ appears would cancel anyway.
# - To pick the right class of each row, multiply by the given `one_hot(targets, classes)`, a constant of 0s
#   and 1s, and sum.
#
# <details><summary>Hint 1</summary>
#
# PyTorch computes the loss as `log_softmax` followed by `nll_loss`: per row, the log-probability of each class, then
# minus the one of the right class, averaged over the batch. Your package has every piece: a row's maximum (a
# constant), subtraction with broadcasting, `exp`, `sum(dim=1, keepdim=True)`, `log`, and the one-hot constant.
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# A row's sum must keep its dimension (`[n, 1]`) to be subtracted from the row (`[n, classes]`). Shift every row by
# its own largest logit before `exp`, or $e^{1000}$ overflows; the largest logit of the whole batch will not do (for
# `[[1000, 0], [0, 1]]` the second row becomes `[-1000, -999]`, whose exps all underflow to 0). Take
# `shifted - log(sum(exp(shifted)))`; `log(softmax)` would take the log of a probability that rounds to 0. Average
# over the `n` rows only: a mean over every entry of the `[n, classes]` product divides by `n * classes`. And mind
# the sign. If you write the loss as one `Function` with a hand-written backward, as PyTorch does, that backward
# returns $(\operatorname{softmax} - \text{onehot})/n$ *times the `grad` arriving from upstream*: the check runs
# backward from `loss * 3` too, and random logits up to $10^4$, rows far apart, in float32 and float64.
#
# </details>
#
# <details><summary>A sketch</summary>
#
# ```python
# n, classes = logits.shape
# shifted = logits - ___
# log_probs = shifted - ___                # log of each row's sum of exp(shifted), kept as a column
# picked = (one_hot(targets, classes) * log_probs).___
# return ___                               # minus, averaged over the n rows
# ```
#
# </details>

# %%
buildtrack.check("10.2")

# %% [markdown]
# `mini_autograd`'s `F.cross_entropy` calls `log_softmax` and then `nll_loss`, each one `Function` with a
# backward written by hand. The shift by the row's maximum is the first line of the helper its `LogSoftmax`
# calls, in numpy:

# %%
from mini_autograd.ops.activations import _softmax_parts

show_source(_softmax_parts)

# %% [markdown]
# Yours is built from the operations of chapter 03, so its graph is taller; the engine differentiates it
# without a formula of its own. Here are both graphs, for one `Linear` layer and the loss on three samples
# (`mini_autograd`, like PyTorch, keeps the loss in `nn.functional`; your package has it in `nn`):

# %%
def linear_and_loss(torch):
    """One Linear layer and the cross-entropy of its outputs on three samples, in either package."""
    torch.manual_seed(0)
    layer = torch.nn.Linear(2, 3)
    x = torch.tensor([[1.0, 2.0], [0.5, -1.0], [-2.0, 0.0]])
    targets = torch.tensor([0, 2, 1])
    cross_entropy = torch.nn.functional.cross_entropy if hasattr(torch.nn, "functional") else torch.nn.cross_entropy
    return cross_entropy(layer(x), targets)


buildtrack.compare_graphs(linear_and_loss, "10.2", show_values=False)

# %% [markdown]
# Two nodes of `mini_autograd` (`NllLossBackward0` over `LogSoftmaxBackward0`) become about nine of yours with
# the docstring's recipe, one per operation you wrote: the two subtractions, `ExpBackward0`, `SumBackward1` (the
# sum over `dim=1`), `LogBackward0`, the multiplication by the one-hot constant, the sum, the minus sign and the
# division by $n$. PyTorch writes
# the loss as two operations with hand-written backwards instead, for speed and accuracy: together they send
# back $(\operatorname{softmax}(z) - \text{onehot})/n$ in one go, where yours takes a chain of formulas to the
# same numbers.
#
# ### Step 10.3: `SGD.step`
#
# Last, the update. Write `SGD.step` in [myautograd/optim.py](myautograd/optim.py#SGD.step): for each parameter with a
# gradient, $p \leftarrow p - \text{lr} \cdot \nabla_p L$, written into `p` in place (`p.sub_(...)`, whose
# version bump you wrote in step 07.1) and with recording off (your `no_grad` of step 06.1). Section 3 showed
# why both: `mini_autograd`'s `SGD.step` does `param.add_(grad, alpha=-lr)` under `no_grad`, and an in-place change
# of a leaf that requires grad is refused while recording. In place matters for one more reason: the model and
# the optimizer hold the same tensor objects, so `p = p - lr * p.grad` would give the loop's name `p` a new
# tensor, and the model would never see it.
#
# The check then trains section 5's spiral classifier on your engine: three of your `Linear` layers with `tanh`
# between, your `cross_entropy`, plain SGD with learning rate 0.3, 1000 full-batch steps in float64, from the
# weights your `Linear` drew after `manual_seed(0)`; and `mini_autograd` runs the same from the same weights.
#
# <details><summary>Hint 1</summary>
#
# PyTorch's `SGD.step` updates each parameter in place with recording off (`param.add_(grad, alpha=-lr)` under
# `no_grad`). The model and the optimizer hold the same tensor objects, so the step must change those objects, not
# make new ones.
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# Five ways to get it wrong: `p = p - lr * p.grad` rebinds a name and the model never sees it; writing into
# `p._data` directly skips the version bump, so chapter 07's "step between forward and backward" gives a wrong
# gradient instead of an error; `p.grad.mul_(lr)` then `p.sub_(p.grad)` changes the gradient itself; without
# `no_grad`, the in-place change of a leaf that requires grad is refused; `set_grad_enabled(False)` with nothing
# switching it back leaves recording off after the step, and the next forward records nothing (its backward fails
# with "element 0 of tensors does not require grad"): `with no_grad():` puts back the mode it found. A parameter whose
# `.grad` is None is left alone.
#
# </details>
#
# <details><summary>A sketch</summary>
#
# ```python
# with ___:
#     for p in self.parameters:
#         if ___:
#             continue
#         p.___(___)                       # in place, through _write: the version goes up
# ```
#
# </details>

# %%
buildtrack.check("10.3")

# %% [markdown]
# The check compares the two loss curves step by step over the first 150 steps only (within $10^{-5}$), and the
# accuracy at the end: full-batch SGD at this learning rate passes through loss spikes, where rounding
# differences of $10^{-16}$ (the two engines add the same numbers in different orders) grow until two correct
# engines part visibly. The figure shows both: `mini_autograd`'s curve always, yours on top once step 10.3 is
# done, with their difference below it.

# %%
from buildtrack.ch10 import SPIRAL_COMPARED, SPIRAL_LR, SPIRAL_STEPS, train_spiral

torch.manual_seed(0)                     # the weights a Linear like PyTorch's draws after manual_seed(0)
start = [(layer.weight.detach().numpy().astype(np.float64), layer.bias.detach().numpy().astype(np.float64))
         for layer in [torch.nn.Linear(2, 32), torch.nn.Linear(32, 32), torch.nn.Linear(32, 2)]]
mine = buildtrack.mine("10.3")
if mine:                                 # your engine, from the weights your Linear drew
    my_losses, my_accuracy, start = train_spiral(mine, SPIRAL_STEPS, SPIRAL_LR)
sgd_losses, sgd_accuracy, _ = train_spiral(torch, SPIRAL_STEPS, SPIRAL_LR, init=start)
print(tr(f"mini_autograd:   loss {sgd_losses[0]:.4f} at step 1, {sgd_losses[SPIRAL_COMPARED - 1]:.4f} at step "
         f"{SPIRAL_COMPARED}; after {SPIRAL_STEPS} steps below 0.1: {sgd_losses[-1] < 0.1}, "
         f"training accuracy at least 95%: {sgd_accuracy >= 0.95}"))
if mine:
    print(tr(f"your myautograd: loss {my_losses[0]:.4f} at step 1, {my_losses[SPIRAL_COMPARED - 1]:.4f} at step "
             f"{SPIRAL_COMPARED}; after {SPIRAL_STEPS} steps {my_losses[-1]:.4f}, "
             f"training accuracy {my_accuracy:.1%} (mini_autograd: {sgd_losses[-1]:.4f}, {sgd_accuracy:.1%})"))
    difference = np.abs(my_losses - sgd_losses)
    print(tr(f"largest difference: {difference[:SPIRAL_COMPARED].max():.1e} over the first {SPIRAL_COMPARED} steps, "
             f"{difference.max():.1e} over all {SPIRAL_STEPS}"))

fig, axes = plt.subplots(2 if mine else 1, 1, figsize=(6, 5.5 if mine else 3.5), sharex=True, squeeze=False)
ax = axes[0, 0]
ax.plot(sgd_losses, color="tab:blue", linewidth=4, alpha=0.4, label="mini_autograd")
if mine:
    ax.plot(my_losses, color="tab:orange", linewidth=1, label=tr("your myautograd"))
ax.axvline(SPIRAL_COMPARED, color="gray", linestyle=":", linewidth=1)
ax.set_yscale("log")
ax.set_ylabel(tr("cross-entropy loss (log scale)"))
ax.set_title(tr(f"Plain SGD, lr {SPIRAL_LR}, both engines from the same start (dotted: end of the steps the check compares)")
             if mine else
             tr(f"Plain SGD, lr {SPIRAL_LR}, on mini_autograd (dotted: end of the steps the check compares)"), fontsize=9)
ax.legend(fontsize=8)
if mine:
    ax = axes[1, 0]
    ax.plot(np.maximum(difference, 1e-18), color="tab:red", linewidth=1)
    ax.axhline(1e-5, color="gray", linestyle="--", linewidth=1)
    ax.axvline(SPIRAL_COMPARED, color="gray", linestyle=":", linewidth=1)
    ax.set_yscale("log")
    ax.set_ylabel(tr("|your loss - mini_autograd's|"))
    ax.text(300, 2e-6, tr("tolerance 1e-5 (compared steps only)"), fontsize=8, color="gray")
axes[-1, 0].set_xlabel(tr("step"))
plt.show()

# %% [markdown]
# The `mini_autograd` line shows what every run shares: the loss starts at 0.6804, is down to 0.4921 at step 150, ends below
# 0.1 after 1000 steps, and at least 95% of the points are classified right. The curve shows the rest. It falls
# slowly at first, and some time after step 150 it jumps up (a step too large for the narrow valley it has
# reached), recovers and goes on falling; it may jump again later. Where the later spikes come, how many there
# are and the exact last loss depend on the machine (the last paragraph says why). Plain SGD is much slower than
# section 5's Adam: Adam was below 0.01 after 300 steps, while SGD after 1000 is below 0.1 but, in every run
# measured for this course, still at 0.04 or more.
#
# Your curve lies on `mini_autograd`'s: the difference stays at the level of rounding, $10^{-16}$, until a
# spike, where it grows by many orders of magnitude. Right after the spike the two curves can part visibly: with the
# course's answer key the largest gap was 0.05 in the loss on one machine and 0.88 on another, a few steps after
# the spike. Within a few dozen steps they settle side by side again. Nothing in either engine is wrong there; the spike amplifies a last-digit
# difference, as it would between any two correct programs that round differently.
#
# The same goes for two machines running the same engine, which is why the `mini_autograd` line prints the loss
# to four decimals only up to step 150, and after that only whether it is below 0.1. Up to the first spike, every
# machine gives the same numbers. After it, the last digits depend on your computer: numpy hands each matrix
# product to a BLAS library, which picks a kernel for your CPU, and kernels add the same products in different
# orders. With one kernel the second spike comes at step 569, with another at step 580, and the 1000th loss
# rounds to 0.0446, 0.0444 or 0.0439 (the accuracy was 98.3% with each of the six kernels tried); even the
# memory address a numpy array happens to get can change the order of a sum. Every one of these runs is
# correct.

# %% [markdown]
# ## Exercises
#
# **Exercise 10.1.** The five lines of a training step got shuffled. Put them back in the order
# of article 000's fragment; answer with a list of the five strings.

# %%
lines = ["loss.backward()", "optimizer.step()", "pred = model(x)",
         "optimizer.zero_grad()", "loss = loss_fn(pred, y)"]

# %% [markdown]
# <details><summary>Hint 1</summary>
#
# Each line needs what the line before it made: the loss needs the prediction, backward needs the loss.
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# The gradients must be cleared before `backward()` adds new ones, and `step()` uses them after.
#
# </details>
#
# <details><summary>A sketch</summary>
#
# `answer_10_1 = ["___zero_grad()", "pred = ___", "loss = ___", "___backward()", "___step()"]`.
#
# </details>

# %%
# Exercise 10.1
answer_10_1 = ...  # your answer here: a list of the five strings above, in order

# %% tags=["hide-input"]
check_exercise("10.1")

# %% [markdown]
# <details><summary>Show solution</summary>
#
# ```python
# # Exercise 10.1
# answer_10_1 = ["optimizer.zero_grad()", "pred = model(x)", "loss = loss_fn(pred, y)",
#           "loss.backward()", "optimizer.step()"]
# ```
#
# `loss` needs `pred`, `backward()` needs `loss`, and `step()` needs the gradients `backward()`
# made. `zero_grad()` must come before `backward()` (otherwise the old gradients are added to);
# article 000 puts it first. The check runs your order for three steps and compares the weights
# with the reference loop, so an order that moves `zero_grad()` to just after the forward pass
# passes too: it is equivalent. Putting it between `backward()` and `step()` is not — the
# optimizer would find no gradients and skip every parameter.
#
# </details>

# %% [markdown]
# **Exercise 10.2.** This loop forgets `zero_grad()`. The loss $2w$ has the same gradient,
# $\partial L/\partial w = 2$, at every $w$. Without running it, what is `w` after the loop?
# (With `zero_grad()` it would be $-4 \cdot 0.1 \cdot 2 = -0.8$.)
#
# ```python
# w = torch.tensor(0.0, requires_grad=True)
# optimizer = torch.optim.SGD([w], lr=0.1)
# for _ in range(4):
#     loss = 2 * w
#     loss.backward()
#     optimizer.step()
# ```
#
# <details><summary>Hint 1</summary>
#
# Without `zero_grad()`, `w.grad` after the $n$-th backward holds the sum of all gradients so far.
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# So the $n$-th step moves `w` by $-0.1 \cdot 2n$.
#
# </details>
#
# <details><summary>A sketch</summary>
#
# Add up the four moves, for $n = 1, 2, 3, 4$: `answer_10_2 = ___`.
#
# </details>

# %%
# Exercise 10.2
answer_10_2 = ...  # your answer here: a number

# %% tags=["hide-input"]
check_exercise("10.2")

# %% [markdown]
# <details><summary>Show solution</summary>
#
# ```python
# # Exercise 10.2
# answer_10_2 = -2.0
# ```
#
# After the $n$-th `backward()`, `w.grad` holds $2n$, so the $n$-th step moves $w$ by $-0.1
# \cdot 2n$: $-0.2, -0.4, -0.6, -0.8$, in total $-2.0$ instead of $-0.8$. The effective learning
# rate grows with every step ($n$ times `lr` at step $n$) — which is why the loss curve of
# section 4 swung instead of settling. The fix is `optimizer.zero_grad()` at the top of the loop.
#
# </details>

# %% [markdown]
# **Exercise 10.3.** Write `accuracy(logits, labels)`: the fraction of rows of `logits` (shape
# `[N, C]`, one score per class) whose largest score is at the index given by `labels` (shape
# `[N]`, integers), as a Python float. Use tensor operations; `argmax`, `==`, `.float()`,
# `.mean()` and `.item()` are all available.
#
# <details><summary>Hint 1</summary>
#
# The predicted class of a row is the index of its largest score.
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# `argmax(dim=1)` gives one index per row; `==` compares them with `labels`; booleans become 0 and 1 with `.float()`.
#
# </details>
#
# <details><summary>A sketch</summary>
#
# `return (logits.___(dim=1) == labels).___().___().item()`.
#
# </details>

# %%
# Exercise 10.3
def accuracy(logits, labels):
    return ...  # your code here

# %% tags=["hide-input"]
check_exercise("10.3")

# %% [markdown]
# <details><summary>Show solution</summary>
#
# ```python
# # Exercise 10.3
# def accuracy(logits, labels):
#     return (logits.argmax(dim=1) == labels).float().mean().item()
# ```
#
# `argmax(dim=1)` gives the predicted class of each row; `==` compares it with the labels
# (a tensor of booleans); `.float().mean()` turns the booleans into 0 and 1 and averages them;
# `.item()` makes a Python number. Rows 1, 2 and 5 of the sample are right: 0.6.
#
# </details>

# %% [markdown]
# ## Recap
#
# - A training step is five lines (article 000 §6): `optimizer.zero_grad()` clears last round's
#   gradients; `pred = model(x)` runs the forward pass and builds the graph; `loss =
#   loss_fn(pred, y)` makes its root; `loss.backward()` computes the gradients into `.grad`;
#   `optimizer.step()` updates the parameters.
# - Each call has one job, checked above: `backward()` changes no parameter, `step()` changes
#   them and leaves `.grad` alone, `zero_grad()` clears `.grad`.
# - Inside: `Module.__call__` runs `forward`; `nn.Linear` is one `addmm` node; parameters are
#   leaf tensors registered in `_parameters` and found by `parameters()`; `SGD.step` is an
#   in-place `p -= lr * grad` under `no_grad` (PyTorch: `torch/nn/modules/module.py`,
#   `torch/nn/modules/linear.py`, `torch/optim/optimizer.py`, `torch/optim/sgd.py`).
# - Without `zero_grad()` the gradients pile up and each step is too large by a growing factor:
#   the loss swings instead of settling, silently.
# - Gradient accumulation (chapter 05) is the one deliberate exception: `zero_grad()` once per
#   update, not once per `backward()`.
# - A two-hidden-layer network learns the two spirals in 300 full-batch steps (100% training
#   accuracy); the decision boundary, computed under `no_grad()`, winds between the arms.
# - Your `myautograd` now has a `Linear` layer drawn like PyTorch's, a `cross_entropy` built from your own
#   operations (shifted by each row's maximum, so it never overflows), and an `SGD.step` that updates in place
#   under `no_grad`: the spiral classifier trains on your engine, with the same losses as `mini_autograd`'s
#   until rounding differences meet a loss spike (steps 10.1 to 10.3).
#
# [Next: 11 — Extending autograd](11_extending.ipynb)
