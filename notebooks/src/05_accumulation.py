# %% [markdown]
# # 05 — Gradients accumulate
#
# Call `backward()` twice and the second gradient is added to the first. New users take it for
# a bug; it is a deliberate design, and the reason every training loop calls `zero_grad()`.
#
# **What you will learn**
#
# - `backward()` adds into `.grad`; it never overwrites it (gradient accumulation, 梯度累加)
# - where the adding happens: `AccumulateGrad.apply`, in place
# - two ways to clear a gradient, `x.grad = None` and `x.grad.zero_()`, and why they differ
#   (PyTorch's `optimizer.zero_grad()` sets to `None` by default)
# - why accumulation is useful: gradients of several losses, or of several micro-batches,
#   simply add up — k small batches give exactly the gradient of one big batch
# - to make your `myautograd` accumulate, in place, and write its `zero_grad`
#
# **Seed sections:** article 000 §10, "为什么梯度会累加" (why gradients accumulate), and
# article 003's second key point, "梯度是累积的，不是覆盖" (gradients accumulate, they are not
# overwritten).
#
# **mini_autograd pieces introduced:** `AccumulateGrad.apply` (`autograd/graph.py`),
# `Tensor.zero_`, `optim.Optimizer.zero_grad`.
#
# **Time:** about 40 minutes to read and run, and about 15 more for the two build steps.

# %%
import numpy as np
import matplotlib.pyplot as plt

import mini_autograd as torch
from mini_autograd import viz
from coursetools import show_source, tr
from exercises import check_exercise

# %% [markdown]
# ## 1. Twice `backward()`, twice the gradient
#
# Article 000's example: $y = x^2$ at $x = 2$, whose derivative is $2x = 4$.

# %%
x = torch.tensor(2.0, requires_grad=True)
y = x * x
y.backward()
print(x.grad)
y = x * x
y.backward()
print(x.grad)

# %% [markdown]
# The first call leaves 4 in `x.grad`, as expected. The second call computes 4 again — and
# `x.grad` becomes 8, not 4: the new gradient was **added** to the one already there. A third
# call would give 12.
#
# (Why build `y = x * x` a second time instead of calling `y.backward()` again? Because
# `backward()` frees the graph's saved values once it is done; a second `backward()` through
# the same graph raises an error unless the first was called with `retain_graph=True`.
# Chapters 06 and 07 come back to this.)
#
# Here is the graph of the second `y`. The leaf's box shows the accumulated `.grad`, 8:

# %%
viz.draw(y, params={"x": x}, names={"y": y})

# %% [markdown]
# ## 2. Open the hood: `AccumulateGrad.apply`
#
# The node at the end of every path to a leaf is `AccumulateGrad` (chapter 04 listed the start
# of the class). Its `apply` hands the incoming gradient to `_accumulate`, where the adding happens
# (then it runs the leaf's hooks registered with `register_post_accumulate_grad_hook`, if any):

# %%
show_source(torch.autograd.graph.AccumulateGrad._accumulate)

# %% [markdown]
# After an early return (no gradient arrived, or the leaf no longer requires grad), three cases:
#
# - **no gradient yet** (`variable._grad is None`): store a copy of the incoming gradient;
# - **a gradient is already there**, in a normal backward: add the new one **in place**
#   (`_data += ...`), so `x.grad` stays the same tensor object;
# - with `create_graph=True` (higher-order gradients, chapter 11): add out of place, so the
#   addition itself is recorded.
#
# PyTorch's `AccumulateGrad` has the same cases, and a few more (see the box). The in-place
# update is visible from Python: the `.grad` tensor keeps its identity across backward calls.
#
# <details><summary>In PyTorch: AccumulateGrad::accumulateGrad</summary>
#
# The counterpart is `torch/csrc/autograd/functions/accumulate_grad.h:
# AccumulateGrad::accumulateGrad`, with the same three cases, plus a few for sparse tensors and
# for reusing the incoming buffer without a copy when nobody else holds it.
#
# </details>

# %%
x = torch.tensor(2.0, requires_grad=True)
(x * x).backward()
first = x.grad
(x * x).backward()
print("x.grad:", x.grad, tr("| same tensor object as after the first backward:"), x.grad is first)
print(tr("and the old reference sees the new value:"), first)

# %% [markdown]
# ## 3. Clearing gradients: `None` or zeros
#
# Since `backward()` adds, a fresh gradient needs an empty `.grad`. There are two ways to
# empty it.
#
# **Set it to `None`**: forget the tensor. The next backward stores a fresh copy.

# %%
x.grad = None
print(tr("after x.grad = None:"), x.grad)
(x * x).backward()
print(tr("after one backward: "), x.grad)

# %% [markdown]
# **Fill it with zeros in place**, `x.grad.zero_()`: keep the tensor, overwrite its values.
# The next backward adds to zero.

# %%
x.grad.zero_()
print(tr("after x.grad.zero_():"), x.grad)
(x * x).backward()
print(tr("after one backward:  "), x.grad)

# %% [markdown]
# Both give 4 on the next backward, but they are not the same state. `None` says "no gradient
# here" and frees the memory; zeros says "the gradient is zero" and keeps a tensor of the
# parameter's size alive. Optimizers tell the two apart: they **skip** a parameter whose
# `.grad` is `None`, but they **update** one whose gradient is zero — with momentum or weight
# decay, a zero gradient still moves the parameter. A small demonstration with SGD and weight
# decay (the update is `p -= lr * (grad + weight_decay * p)`):

# %%
p = torch.tensor([1.0], requires_grad=True)
optimizer = torch.optim.SGD([p], lr=0.1, weight_decay=0.5)
(p * 3).sum().backward()

optimizer.zero_grad(set_to_none=False)
print(tr("grad after zero_grad(set_to_none=False):"), p.grad)
optimizer.step()
print(tr("p after step:"), p, tr(" <- moved by weight decay alone"))

optimizer.zero_grad()
print(tr("grad after zero_grad():"), p.grad)
optimizer.step()
print(tr("p after step:"), p, tr(" <- skipped: no gradient"))

# %% [markdown]
# This is why PyTorch's `Optimizer.zero_grad` sets gradients to `None` by default
# (`set_to_none=True` since PyTorch 2.0; `torch/optim/optimizer.py: Optimizer.zero_grad`): it
# saves memory and a pass of writing zeros. mini_autograd's version does the same:

# %%
show_source(torch.optim.Optimizer.zero_grad)
show_source(torch.optim.optimizer.forget_grad)

# %% [markdown]
# ## 4. Why accumulate at all?
#
# Because adding is exactly what the chain rule asks for whenever one tensor contributes to the
# loss in several ways. Inside a single graph you saw it already: `y * y` sends two gradients
# to `y`, and they are summed (chapter 03). Across several `backward()` calls, accumulation
# extends the same rule: the gradients of two losses, computed one after the other, add up to
# the gradient of their sum.

# %%
w = torch.tensor([1.0, -2.0], requires_grad=True)
loss_a = (w ** 2).sum()
loss_b = (3 * w).sum()

loss_a.backward()
loss_b.backward()
print("loss_a.backward(); loss_b.backward():", w.grad)

w.grad = None
loss_a = (w ** 2).sum()                  # the graphs were freed by backward: build them again
loss_b = (3 * w).sum()
(loss_a + loss_b).backward()
print("(loss_a + loss_b).backward():        ", w.grad)

# %% [markdown]
# Both give $2w + 3 = [5, -1]$. This is what makes **gradient accumulation** possible in
# training: when a batch is too big to fit in memory, split it into $k$ micro-batches, run
# forward and backward on each one in turn (only one micro-batch's graph exists at a time), and
# let `.grad` collect the sum. Then take one optimizer step. In a normal loop without
# accumulation you must clear the gradients before each update, as in article 000:
#
# ```python
# optimizer.zero_grad()
# loss.backward()
# optimizer.step()
# ```
#
# With accumulation, `zero_grad()` moves out of the inner loop:
#
# ```python
# optimizer.zero_grad()
# for xb, yb in micro_batches:          # k pieces of one big batch
#     loss = loss_fn(model(xb), yb) / k
#     loss.backward()                   # .grad collects the sum
# optimizer.step()                      # one update for the whole batch
# ```

# %% [markdown]
# ## 5. Micro-batches: k small batches equal one big batch
#
# Let us check that claim on a small linear regression, $\hat y = X w + b$ with the mean squared
# error as the loss. 64 samples with 2 features, from a seeded generator:

# %%
rng = np.random.default_rng(0)
X_np = rng.normal(size=(64, 2)).astype(np.float32)
y_np = (X_np @ np.array([2.0, -3.0], dtype=np.float32) + 0.5
        + 0.1 * rng.normal(size=64).astype(np.float32))
X, Y = torch.tensor(X_np), torch.tensor(y_np)

w = torch.tensor([0.0, 0.0], requires_grad=True)
b = torch.tensor(0.0, requires_grad=True)


def mse(w, b, xb, yb):
    """Mean squared error of the linear model xb @ w + b on one batch."""
    return ((xb @ w + b - yb) ** 2).mean()


print("X:", X.shape, " Y:", Y.shape)

# %% [markdown]
# First the gradient of the whole batch, in one backward:

# %%
mse(w, b, X, Y).backward()
big_batch = np.concatenate([w.grad.numpy(), b.grad.numpy().reshape(1)])
print(tr("big-batch gradient (w0, w1, b):"), np.round(big_batch, 3))

# %% [markdown]
# Now $k = 8$ micro-batches of 8 samples. The loss of the big batch is the mean over 64
# samples, which equals the average of the 8 micro-batch means:
#
# $$\frac{1}{64}\sum_{i=1}^{64} \ell_i \;=\; \frac{1}{8}\sum_{j=1}^{8}\Big(\frac{1}{8}\sum_{i \in
# \text{batch } j} \ell_i\Big).$$
#
# So each micro-batch loss is scaled by $1/k$ before its `backward()`. We record `.grad` after
# each micro-batch to watch the sum grow:

# %%
k = 8
w.grad, b.grad = None, None
running = [np.zeros(3, dtype=np.float32)]                 # nothing accumulated yet
for j in range(k):
    xb, yb = X[j * 8:(j + 1) * 8], Y[j * 8:(j + 1) * 8]
    (mse(w, b, xb, yb) / k).backward()                           # adds into w.grad and b.grad
    running.append(np.concatenate([w.grad.numpy(), b.grad.numpy().reshape(1)]))

accumulated = running[-1]
print(tr("accumulated over 8 micro-batches:"), np.round(accumulated, 3))
print(tr("equal to the big-batch gradient: "), np.allclose(accumulated, big_batch, atol=1e-5))
print(tr("largest difference below 1e-5:   "), bool(np.abs(accumulated - big_batch).max() < 1e-5))

# %% [markdown]
# The same gradient, up to float32 rounding (the sums are added in a different order, so the
# last bits can differ). The plot shows how `.grad` fills up, one micro-batch at a time,
# and ends on the big-batch value (dashed):

# %%
running = np.array(running)
fig, ax = plt.subplots(figsize=(6, 3.5))
for i, (label, color) in enumerate([("w.grad[0]", "tab:blue"), ("w.grad[1]", "tab:orange"),
                                    ("b.grad", "tab:green")]):
    ax.plot(range(k + 1), running[:, i], marker="o", color=color, label=tr(f"{label}, accumulated"))
    ax.axhline(big_batch[i], color=color, linestyle="--", linewidth=1)
ax.set_xlabel(tr("micro-batches accumulated"))
ax.set_ylabel(tr("gradient component"))
ax.set_title(tr("8 micro-batches of 8 vs one batch of 64 (dashed)"))
ax.legend(fontsize=8)
plt.show()

# %% [markdown]
# Each micro-batch moves the running sum by its own share; the partial sums wander, but the
# final one lands on the dashed line. Forgetting the $1/k$ gives $k$ times the gradient, which
# acts like a learning rate $k$ times too large:

# %%
w.grad, b.grad = None, None
for j in range(k):
    mse(w, b, X[j * 8:(j + 1) * 8], Y[j * 8:(j + 1) * 8]).backward()   # no "/ k"
unscaled = np.concatenate([w.grad.numpy(), b.grad.numpy().reshape(1)])
print(tr("without / k, the sum is k times the big-batch gradient:"), np.allclose(unscaled, k * big_batch, atol=1e-4))

# %% [markdown]
# Finally the whole recipe with an optimizer: one SGD step after accumulating, against one SGD
# step on the big batch, from the same starting point:

# %%
def one_step(accumulate):
    w = torch.tensor([0.0, 0.0], requires_grad=True)
    b = torch.tensor(0.0, requires_grad=True)
    optimizer = torch.optim.SGD([w, b], lr=0.1)
    optimizer.zero_grad()
    if accumulate:
        for j in range(k):
            (mse(w, b, X[j * 8:(j + 1) * 8], Y[j * 8:(j + 1) * 8]) / k).backward()
    else:
        mse(w, b, X, Y).backward()
    optimizer.step()
    return np.concatenate([w.detach().numpy(), b.detach().numpy().reshape(1)])


print(tr("parameters after one step, accumulated:"), np.round(one_step(accumulate=True), 4))
print(tr("parameters after one step, big batch:  "), np.round(one_step(accumulate=False), 4))
print(tr("the same step:"), np.allclose(one_step(True), one_step(False), atol=1e-6))

# %% [markdown]
# ## 6. Build it: accumulation and `zero_grad`
#
# ### Step 05.1: gradients add up
#
# Your `AccumulateGrad.apply` of step 03.2 stores a copy of the first gradient. Now give it the rule of this
# chapter, in [myautograd/function.py](myautograd/function.py#AccumulateGrad.apply): when the leaf already has a `.grad`, add the new
# gradient *into* it, in place, so that `.grad` stays the same tensor, as `mini_autograd`'s `AccumulateGrad.apply`
# does (section 2). Keep the copy for the first gradient: `a + b` hands one and the same gradient tensor to both
# leaves, and adding into it in place would then change both `.grad`s at once.
#
# <details><summary>Hint 1</summary>
#
# PyTorch's `AccumulateGrad` adds a new gradient *into* the leaf's existing `.grad`, in place, so the tensor you read
# as `x.grad` before a second backward shows the sum afterwards.
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# Two cases. No `.grad` yet: keep the copy of step 03.2. A `.grad` already: add into its numbers (`_data`), in place;
# `x._grad = x._grad + grad` gives the right numbers but a new tensor, and the check tests that `.grad` is the same
# object. Into the same *array*, too (`+=`, not `x._grad._data = x._grad._data + grad._data`): `x.grad.numpy()`
# taken before shares that array, and in PyTorch it sees the sum. The copy matters: `a + b` hands one gradient tensor to both leaves, so adding in place into a shared
# first gradient would change `a.grad` and `b.grad` together.
#
# </details>
#
# <details><summary>A sketch</summary>
#
# ```python
# variable = self.variable
# if variable._grad is None:
#     variable._grad = ___                 # a tensor of its own
# else:
#     ___                                  # grad's numbers added into variable._grad's, in place
# return ()
# ```
#
# </details>

# %%
import buildtrack

buildtrack.check("05.1")

# %% [markdown]
# ### Step 05.2: `zero_grad`
#
# Write `zero_grad(parameters, set_to_none=True)` in [myautograd/optim.py](myautograd/optim.py#zero_grad), with both
# behaviours of section 3: `None` by default, or zeros written into the existing tensors. Chapter 10's optimizer
# will call it. Compare with `Optimizer.zero_grad` in section 3.
#
# <details><summary>Hint 1</summary>
#
# PyTorch's `Optimizer.zero_grad` has two modes. By default it drops each gradient (`.grad` becomes None: the next
# backward starts afresh). With `set_to_none=False` it keeps each gradient tensor and writes zeros into it.
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# "The same tensor object" rules out `p.grad = zeros_like(p)`: that is a new object. Write zeros into the numbers
# the gradient already has. A parameter whose `.grad` is None stays None in both modes: skip it (it has no numbers
# to zero).
#
# </details>
#
# <details><summary>A sketch</summary>
#
# ```python
# for p in parameters:
#     if p.grad is None:
#         ___
#     if set_to_none:
#         ___
#     else:
#         ___                              # zeros written into p.grad's own numbers
# ```
#
# </details>

# %%
buildtrack.check("05.2")

# %% [markdown]
# Once both steps are done, section 1's 4-then-8 runs on your package too, and `zero_grad` clears it:

# %%
mine = buildtrack.mine("05.2")
if mine:
    x = mine.tensor(2.0, requires_grad=True)
    for call in (1, 2):
        (x * x).backward()
        print(tr(f"after backward() number {call}: x.grad = {x.grad}"))
    mine.optim.zero_grad([x])
    print(tr("after zero_grad:"), x.grad)

# %% [markdown]
# ## Exercises
#
# **Exercise 5.1.** Predict `x.grad` after this code runs (no `zero_grad` anywhere):
#
# ```python
# x = torch.tensor(3.0, requires_grad=True)
# for _ in range(3):
#     y = x ** 2
#     y.backward()
# ```
#
# <details><summary>Hint 1</summary>
#
# Each `backward()` computes the same gradient, $dy/dx = 2x$ at $x = 3$.
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# Nothing clears `x.grad` between the calls: each backward adds into it.
#
# </details>
#
# <details><summary>A sketch</summary>
#
# `answer_5_1` = (number of backward calls) × ___.
#
# </details>

# %%
# Exercise 5.1
answer_5_1 = ...  # your answer here: a number

# %% tags=["hide-input"]
check_exercise("5.1")

# %% [markdown]
# <details><summary>Show solution</summary>
#
# ```python
# # Exercise 5.1
# answer_5_1 = 18.0
# ```
#
# $dy/dx = 2x = 6$ at $x = 3$. Nothing clears `.grad`, so the three backward calls leave
# $6 + 6 + 6 = 18$.
#
# </details>

# %% [markdown]
# **Exercise 5.2.** This gradient-descent loop should bring `w` to 3 (the minimum of
# $(w-3)^2$), but it forgets something, and `w` swings around 3 instead of settling. Fix
# `train`, then set `answer_5_2 = train()`.
#
# <details><summary>Hint 1</summary>
#
# Look at `w.grad` in the loop: what does it hold at the second step?
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# Each backward adds to what the earlier steps left in `w.grad`. Clear it once per step, before the backward.
#
# </details>
#
# <details><summary>A sketch</summary>
#
# In the loop, before `loss.backward()`: `w.grad = ___`. Then `answer_5_2 = train()`.
#
# </details>

# %%
# Exercise 5.2
def train(steps=20, lr=0.25):
    w = torch.tensor(0.0, requires_grad=True)
    for _ in range(steps):
        loss = (w - 3.0) ** 2
        loss.backward()
        with torch.no_grad():
            w -= lr * w.grad
    return w


answer_5_2 = ...  # your answer here: train(), once the loop is fixed

# %% tags=["hide-input"]
check_exercise("5.2")

# %% [markdown]
# <details><summary>Show solution</summary>
#
# ```python
# # Exercise 5.2
# def train(steps=20, lr=0.25):
#     w = torch.tensor(0.0, requires_grad=True)
#     for _ in range(steps):
#         w.grad = None                 # clear last step's gradient
#         loss = (w - 3.0) ** 2
#         loss.backward()
#         with torch.no_grad():
#             w -= lr * w.grad
#     return w
#
#
# answer_5_2 = train()
# ```
#
# Without clearing, `w.grad` at step $t$ holds the sum of all gradients so far, so every update
# also repeats all the earlier ones: the loop overshoots 3 and keeps swinging. Clearing
# (`w.grad = None`, or `w.grad.zero_()` once it exists) makes each step use the current
# gradient only; with `lr = 0.25` the distance to 3 halves each step. In a loop with an
# optimizer, the same line is `optimizer.zero_grad()`.
#
# </details>

# %% [markdown]
# **Exercise 5.3.** Micro-batches do not have to be the same size. A batch of 40 samples is split
# into pieces of 10, 10 and 20, and the loss is the mean over the samples. By which factor must
# each piece's mean loss be multiplied, so that the accumulated gradient equals the gradient of
# the whole batch? Answer with a list of three numbers.
#
# <details><summary>Hint 1</summary>
#
# Write the mean over all 40 samples as a sum of the three pieces' sums.
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# A piece's sum is its size times its mean. Divide by 40.
#
# </details>
#
# <details><summary>A sketch</summary>
#
# $\frac{1}{40}\sum \ell_i = \frac{___}{40}\,\text{mean}_1 + \frac{___}{40}\,\text{mean}_2 + \frac{___}{40}\,\text{mean}_3$; the three factors are the answer.
#
# </details>

# %%
# Exercise 5.3
answer_5_3 = ...  # your answer here: [factor for piece 1, piece 2, piece 3]

# %% tags=["hide-input"]
check_exercise("5.3")

# %% [markdown]
# <details><summary>Show solution</summary>
#
# ```python
# # Exercise 5.3
# answer_5_3 = [10 / 40, 10 / 40, 20 / 40]
# ```
#
# $\frac{1}{40}\sum_{i=1}^{40}\ell_i = \frac{10}{40}\,\text{mean}_1 + \frac{10}{40}\,\text{mean}_2
# + \frac{20}{40}\,\text{mean}_3$. Dividing by the number of pieces ($1/3$ each) would give the
# small pieces too much weight. With equal pieces, $n_j/N$ is the $1/k$ of section 5.
#
# </details>

# %% [markdown]
# ## Recap
#
# - `backward()` **adds** into `.grad`; it never overwrites. Twice `y = x * x; y.backward()` at
#   $x = 2$ gives 4, then 8. This is design, not a bug.
# - The adding happens in `AccumulateGrad.apply`: the first gradient is stored as a copy, later
#   ones are added in place. PyTorch's `AccumulateGrad` adds in place too, but stores the first
#   gradient without a copy when nothing else holds it (`functions/accumulate_grad.h`:
#   `Case 1.1: Stealable dense new_grad`, section 2's box).
# - Clear gradients before each update: `x.grad = None` (no gradient; what
#   `optimizer.zero_grad()` does by default, `set_to_none=True`) or `x.grad.zero_()` (a zero
#   gradient, which optimizers with momentum or weight decay still act on).
# - Accumulation is the chain rule across `backward()` calls: gradients of several losses add
#   up to the gradient of their sum. Scaling each of $k$ equal micro-batch losses by $1/k$
#   (in general $n_j/N$) makes the accumulated gradient equal the big batch's, so
#   `zero_grad(); for micro-batch: backward(); step()` trains on big batches in small memory.
# - Your `myautograd`'s `AccumulateGrad` now adds into `.grad` in place, and its `zero_grad` clears gradients
#   either way (steps 05.1 and 05.2).
#
# [Next: 06 — no_grad, detach and friends](06_no_grad_detach.ipynb)
