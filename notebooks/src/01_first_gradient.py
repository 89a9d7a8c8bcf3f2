# %% [markdown]
# # 01 — Your first gradient
#
# **In this chapter you will**
#
# - see what autograd is for: of the three jobs in a training step, it does exactly one;
# - switch gradient tracking on with `requires_grad=True`, call `backward()`, and read `.grad`;
# - check autograd against derivatives worked out by hand, at single points and over a whole range (with a plot)
# - learn when an operation's result is recorded, and when it is not;
# - start writing your own autograd package, `myautograd`: a tensor's autograd fields and the rule that decides
#   what is recorded, each checked by a cell that names your mistakes; then compare with `mini_autograd`'s `Tensor`.
#
# **Seed sections:** article 003, "the 30-second example" (30 秒的例子); article 000, §1 (autograd in plain words: a ledger),
# §2 (what autograd solves), §3 (`requires_grad`, the switch).
#
# **`mini_autograd` pieces introduced:** `Tensor` and its autograd fields (`requires_grad`, `grad`, `grad_fn`),
# the creation functions `tensor` and `linspace`, and `Tensor.backward()` used from the outside (chapter 03 opens it).
#
# **Time:** about 40 minutes to read and run, and about 15 more for the two build steps.

# %%
import numpy as np
import matplotlib.pyplot as plt

import mini_autograd as torch
from mini_autograd import viz
from coursetools import show_source, answer_fold, tr
from exercises import check_exercise

# %% [markdown]
# ## The 30-second example
#
# Seed article 003 opens with this example. Run it:

# %%
x = torch.tensor(2.0, requires_grad=True)
y = torch.tensor(3.0, requires_grad=True)

z = x ** 2 + y * 3   # z = x² + 3y
z.backward()

print(x.grad)
print(y.grad)

# %% [markdown]
# By hand: $z = x^2 + 3y$, so $\partial z/\partial x = 2x = 4$ at $x = 2$, and $\partial z/\partial y = 3$.
# Autograd gives the same numbers, and you wrote no derivative at all. It took three steps:
#
# 1. create the inputs with `requires_grad=True`;
# 2. compute with them as with any numbers;
# 3. call `backward()` on the result. The gradients then sit in each input's `.grad`.
#
# The printed form `tensor(4.)` is how PyTorch prints a tensor holding the single number 4.0 (a 0-dimensional tensor,
# or *scalar*). `mini_autograd` prints the same.

# %% [markdown]
# ## Why gradients, and why a ledger
#
# Every training step has to know, for each parameter, *which way to nudge it to make the loss
# smaller, and how strongly the loss reacts*. The **gradient** (梯度) holds exactly that. Working it
# out on paper stops being practical long before a model has millions of parameters; with PyTorch you
# write only how the loss is computed, and the gradient is derived from that code.
#
# The seed article's image for how this works is a **ledger** (an account book). During the forward computation, every step
# writes an entry: which values took part, what came out, and how to pass a gradient back through
# this step. When you call `backward()`, autograd starts at the last entry (the loss) and reads the
# ledger in reverse, entry by entry, turning each one into a step of the chain rule.
#
# Here is the ledger written while computing seed article 000's example $y = x \cdot x + 3x$ at $x = 2$:

# %%
x = torch.tensor(2.0, requires_grad=True)
y = x * x + 3 * x
viz.draw(y, params={"x": x}, names={"y": y})

# %% [markdown]
# Each grey box is one entry, named after the operation it undoes: `MulBackward0` for the two
# multiplications, `AddBackward0` for the final sum. The arrows point the way `backward()` reads:
# from `y` at the top down to `x`. The first `MulBackward0` (for `x * x`) has two arrows to `x`, one
# per factor; the second (for `3 * x`) has only one, because the number 3 needs no gradient. The darker
# `AccumulateGrad` box at the bottom is where `x`'s gradient is collected into `x.grad`. Chapter 02 reads
# such pictures in detail. (Below the picture, or instead of it when `dot` is missing, the same graph is
# written out in words.)

# %% [markdown]
# ## What autograd does, and what it does not
#
# A training step has three jobs:
#
# 1. **forward**: run the model on the data to get a prediction;
# 2. **loss**: measure how wrong the prediction is, as one number;
# 3. **backward**: work out how each parameter should change to lower the loss.
#
# Autograd does the third job and only that one. It does not design the model, and it does not change
# the parameters: that is the optimizer's job (`optimizer.step()`, chapter 10). A one-parameter model
# shows the split: the prediction is $w \cdot \text{input}$, the loss is the squared error.

# %%
w = torch.tensor(0.5, requires_grad=True)     # the parameter
inp, target = 2.0, 3.0                        # one data point

pred = w * inp                                # 1. forward
loss = (pred - target) ** 2                   # 2. loss
loss.backward()                               # 3. backward

print(pred, loss)
print(w.grad)
print(w)

# %% [markdown]
# The loss is $(0.5 \cdot 2 - 3)^2 = 4$, and its derivative is
# $\partial\,\text{loss}/\partial w = 2(w \cdot \text{input} - \text{target}) \cdot \text{input} = 2 \cdot (-2) \cdot 2 = -8$.
# The negative sign says: increase `w` to lower the loss. But `w` is still `0.5`: `backward()` only
# computed the direction. Moving `w` (say to `w - 0.1 * w.grad`) is a separate step.
#
# (The `grad_fn=<...>` parts of the first line are the ledger entries that made `pred` and `loss`; chapter 02.)

# %% [markdown]
# ## `requires_grad`: the switch
#
# A tensor made the ordinary way carries its numbers and nothing more: autograd keeps no record of what is
# done with it, and it has no gradient:

# %%
a = torch.tensor(2.0)
print(a, a.requires_grad, a.grad)

# %% [markdown]
# Switch `requires_grad` on, and from then on autograd records every operation the tensor is used in. Here
# it is on seed article 000's example, $y = x \cdot x + 3x$ at $x = 2$:

# %%
x = torch.tensor(2.0, requires_grad=True)
y = x * x + 3 * x
y.backward()
print(x.grad)

# %% [markdown]
# By hand, $dy/dx = 2x + 3$, which is $7$ at $x = 2$. Again, no derivative was written.
#
# Which results get recorded? The rule: **if at least one input of an operation requires grad, the
# result requires grad too**, and the operation is written into the graph. Plain tensors and Python numbers do
# not count.

# %%
x = torch.tensor(2.0, requires_grad=True)
a = torch.tensor(2.0)

print((a * 3).requires_grad)    # no input requires grad
print((x * 3).requires_grad)    # x does
print((a + x).requires_grad)    # one of the two is enough
print(a + x)

# %% [markdown]
# The seed article says "usually" recorded, for good reason: a result that cannot have a gradient is never
# recorded, even when its input requires grad. A comparison gives `True` or `False`, and a boolean has no derivative:

# %%
print(x > 1, (x > 1).requires_grad)

# %% [markdown]
# There is a second switch, for a whole block of code: inside `with torch.no_grad():` (or
# `torch.inference_mode()`) nothing is recorded, whatever the inputs. That is what you want when you only
# use a model, not train it. Chapter 06 covers both in depth; for now just note the effect:

# %%
with torch.no_grad():
    b = x * 3
with torch.inference_mode():
    c = x * 3
print(b, b.requires_grad)
print(c, c.requires_grad)

# %% [markdown]
# Same inputs and the same numbers as `x * 3` above, but no ledger entry: `b` and `c` do not require grad, and
# nothing could flow back from them to `x`.

# %% [markdown]
# ## By hand vs autograd, point by point
#
# A gradient at one point is one number. To compare autograd with the hand derivative of
# $f(x) = x^2 + 3x$, namely $f'(x) = 2x + 3$, make a fresh `x` at each point and run one `backward()` each:

# %%
def f(x):
    return x * x + 3 * x

def f_prime_by_hand(x):
    return 2 * x + 3

for x0 in [-3.0, -1.5, 0.0, 1.0, 2.0]:
    x = torch.tensor(x0, requires_grad=True)
    f(x).backward()
    print(tr(f"x = {x0:5.1f}   by hand: {f_prime_by_hand(x0):5.1f}   autograd: {x.grad.item():5.1f}"))

# %% [markdown]
# The two columns agree at every point, including $x = 2$ with $7$. A fresh `x` each time matters:
# gradients *add up* in `.grad` when you call `backward()` again on the same tensor (chapter 05).

# %% [markdown]
# ## A whole curve with one `backward()`
#
# Point by point works, but a curve of 121 points would take 121 backward passes. There is a shortcut: put all
# the points in one tensor, compute $f$ elementwise, **sum** the results, and call `backward()` once on the sum.
#
# Why does summing work? Let $s = \sum_j f(x_j)$. Each term $f(x_j)$ depends on its own $x_j$ only, so
# $\partial s/\partial x_i = f'(x_i)$: all the other terms have derivative zero with respect to $x_i$.
# So `x.grad[i]` ends up holding $f'(x_i)$, for every $i$ at once. (`backward()` needs a single number to start
# from; chapter 03 explains why, and what happens without the sum.)
#
# Let's try it on two functions: the seed's $f(x) = x^2 + 3x$, and $g(x) = x \tanh(x)$, whose derivative takes both the product rule and the
# chain rule: $g'(x) = \tanh(x) + x\,(1 - \tanh^2 x)$.

# %%
def g(x):
    return x * torch.tanh(x)

def g_prime_by_hand(x):                       # x: a numpy array
    return np.tanh(x) + x * (1 - np.tanh(x) ** 2)

xf = torch.linspace(-3, 3, 121, requires_grad=True)
f(xf).sum().backward()

xg = torch.linspace(-3, 3, 121, requires_grad=True)
g(xg).sum().backward()

print(xf.shape, xf.grad.shape)
print(xf.grad[80])    # the point x = 1: f'(1) = 5

# %% [markdown]
# One backward pass gave 121 derivatives. Point 80 of the grid is $x = -3 + 80 \cdot 0.05 = 1$, where $f'(1) = 5$.
# Now compare the whole curves with the hand derivatives:

# %%
grid = xf.detach().numpy()                    # detach(): the numbers without the graph (chapter 06)
print(np.allclose(xf.grad.numpy(), f_prime_by_hand(grid), atol=1e-5))
print(np.allclose(xg.grad.numpy(), g_prime_by_hand(grid), atol=1e-5))

# %% [markdown]
# Autograd matches both hand derivatives at every point. The plot shows each function (solid), its autograd derivative (solid, lighter) and
# the hand derivative (dots on top):

# %%
fig, axes = plt.subplots(1, 2, figsize=(10, 3.5))
for ax, fn, xs, by_hand, title in [(axes[0], f, xf, f_prime_by_hand, "f(x) = x² + 3x"),
                                   (axes[1], g, xg, g_prime_by_hand, "g(x) = x·tanh(x)")]:
    with torch.no_grad():
        values = fn(xs).numpy()
    ax.plot(grid, values, label=tr("function"), color="C0")
    ax.plot(grid, xs.grad.numpy(), label=tr("derivative by autograd"), color="C1", linewidth=3, alpha=0.5)
    ax.plot(grid[::8], by_hand(grid[::8]), "k.", label=tr("derivative by hand"))
    ax.axhline(0, color="grey", linewidth=0.5)
    ax.set_xlabel("x")
    ax.set_title(title)
tangent_x = np.array([0.6, 3.0])                      # the tangent to f at x = 2: f(2) = 10, slope f'(2) = 7
axes[0].plot(tangent_x, 10 + 7 * (tangent_x - 2), "r--", linewidth=1.2, label=tr("tangent at x = 2"))
axes[0].plot([2], [10], "ro")
axes[0].annotate(tr("x = 2: f = 10, slope 7"), (2, 10), textcoords="offset points", xytext=(-125, 8))
axes[0].legend(loc="upper left", fontsize=8)
plt.tight_layout()
plt.show()

# %% [markdown]
# On the left, the derivative of $x^2 + 3x$ is the straight line $2x + 3$. The red dot is the seed example's point
# on $f$: $x = 2$, $f(2) = 10$. The dashed red line through it is the tangent to $f$ there; its slope is the
# gradient autograd computed, $7$, which is also the height of the derivative line at $x = 2$. The derivative
# crosses zero at $x = -1.5$, exactly where $f$ has its minimum. On the right, the
# derivative of $x\tanh(x)$ rises from about $-1$ to about $1$ (overshooting a little on the way) and crosses zero at
# $x = 0$, where $g$ has its minimum. Where a function falls its derivative is negative; where it rises, positive.
# That sign is what tells a training loop which way to move.

# %% [markdown]
# ## Build it: your own autograd, piece by piece
#
# Reading an engine lets you explain autograd; writing one lets you build it. So from this chapter on, beside
# reading `mini_autograd`, you write your own: **`myautograd`**, a small package in the folder
# [`myautograd/`](myautograd) next to these notebooks. Each chapter adds the pieces its idea needs, in the order
# the articles teach them. By chapter 06 your package records graphs, runs backward through them, accumulates
# gradients and switches recording off; later chapters make it train a classifier.
#
# How a step works:
#
# 1. The chapter explains the piece (as this chapter explained `requires_grad`).
# 2. You open the file in JupyterLab's editor (the links open it at the line to write; or use the file browser) and fill in
#    the function that ends in `raise NotImplementedError("Step 01.1: ...")`. Its docstring says what to do, what
#    PyTorch calls it, and gives a hint. Printing, dtypes and the operators are given; you write the ideas.
# 3. You save the file and run the step's **check cell**. It reloads your package, so your latest edit counts,
#    and says ✅ done, ⏳ not done yet, or ❌ with the mistake it sees.
# 4. The chapter then shows `mini_autograd`'s version of the same piece, to compare.
#
# The steps are practice, not a gate: the chapters' own examples run on `mini_autograd`, so you can read on
# without writing anything. `make progress` (in a terminal, in the repository) prints all steps at once. If you
# get stuck, the answer key is in `answers/myautograd/`, outside the notebooks folder; to start a file over, see
# the README.
#
# ### Step 01.1: a tensor's autograd fields
#
# Open [myautograd/tensor.py](myautograd/tensor.py#Tensor.__init__) and find `Tensor.__init__`. The numbers (`self._data`, a
# numpy array) are given. Add what this chapter introduced:
#
# - `self.requires_grad`, the switch, with PyTorch's error when it is switched on for a tensor that is not
#   floating point (integers have no derivative);
# - `self._grad`, where backward will leave the gradient: `None` until then (you read it as `.grad`);
# - `self.grad_fn`, the node that made the tensor: `None` for a tensor you create.
#
# <details><summary>Hint 1</summary>
#
# A tensor you create is a leaf with no history. PyTorch's `AutogradMeta` starts with the `requires_grad` you asked
# for, no gradient yet and no node that made it. So: three fields to set, and one request to refuse.
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# The refusal is for an integer tensor that *asks* to require grad: `tensor(2, requires_grad=True)` raises, but
# plain `tensor(2)` must still work. So the test needs two conditions, not only the dtype. And "no gradient yet" is
# `None`, not `0`: nothing has been computed.
#
# </details>
#
# <details><summary>A sketch</summary>
#
# ```python
# if ___:                                  # two conditions: what is asked, and the dtype
#     raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
# self.requires_grad = ___
# self._grad = ___
# self.grad_fn = ___
# ```
#
# </details>
#
# Then run the check:

# %%
import buildtrack

buildtrack.check("01.1")

# %% [markdown]
# ## Open the hood: `Tensor`
#
# Compare your constructor with `mini_autograd`'s, which keeps the same bookkeeping beside its numpy array. Its
# fields start as class attributes, so that a new tensor sets only what differs; then come the lines of its
# constructor that this chapter is about. The listing is folded: it is the answer of step 01.1, so open it once
# your check says done (or when you are stuck).

# %%
with answer_fold("01.1"):
    show_source(torch.Tensor, stop_at="def __init__")
    show_source(torch.Tensor.__init__, only=["self._data = data", "self._requires_grad", "if requires_grad:",
                                             "is_floating_point", "Only Tensors"])

# %% [markdown]
# The numbers live in `_data` (a numpy array). Next to them: the `requires_grad` switch, `_grad`
# (filled by backward, read as `.grad`), and `_grad_fn`, read as `.grad_fn`: the node that made this
# tensor (`None` for tensors you create yourself). The other fields wait for later chapters, which introduce
# them when they need them. Note the check that only floating-point tensors may require
# grad: integers have no derivative. The public `requires_grad` is a property, and it is true for a tensor that
# either had the switch turned on or was made by a recorded operation (the last two lines are about *views*,
# tensors that share the numbers of another one, such as `x[0]`: a view of a tensor that requires grad does too):

# %%
show_source(torch.Tensor.requires_grad.fget)

# %% [markdown]
# The Python class `torch.Tensor` lives in `torch/_tensor.py`; its autograd fields are kept in C++.
#
# <details><summary>In PyTorch: where the fields live</summary>
#
# `torch/csrc/autograd/variable.h` defines `struct AutogradMeta` (with `requires_grad_`, `grad_`, `grad_fn_`,
# `output_nr_`), attached to every tensor that takes part in autograd. The Python attributes you use are getters
# in `torch/csrc/autograd/python_variable.cpp` (`THPVariable_get_requires_grad`, `THPVariable_get_grad_fn`, ...).
#
# </details>

# %% [markdown]
# ## Step 01.2: the rule that decides what is recorded
#
# The rule from this chapter, as a function: a result requires grad when recording is on and at least one input
# requires grad. Write `compute_requires_grad(*inputs)` in [myautograd/function.py](myautograd/function.py#compute_requires_grad).
# Inputs can be plain numbers (`x * 3`), which never require grad; `is_grad_enabled()` tells whether recording is
# on (chapter 06 writes the `no_grad` switch that turns it off). PyTorch has a C++ function of the same name in
# `torch/csrc/autograd/functions/utils.h`.
#
# <details><summary>Hint 1</summary>
#
# PyTorch's rule has two parts: recording must be on (`is_grad_enabled()`), and *at least one* input must require
# grad. One such input is enough.
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# Inputs can be plain numbers (`x * 3`), which have no `.requires_grad`: ask whether an input is a `Tensor` before
# reading its flag. And return `True` or `False` itself: an expression like `enabled and [list of inputs]` returns
# the list, which would end up in the result's `requires_grad`.
#
# </details>
#
# <details><summary>A sketch</summary>
#
# ```python
# if not ___:                              # recording off: nothing is recorded
#     return False
# for t in inputs:
#     if ___:                              # a Tensor that requires grad
#         return True
# return ___
# ```
#
# </details>

# %%
buildtrack.check("01.2")

# %% [markdown]
# `mini_autograd` makes the same decision inside `Function.apply` (the whole method is chapter 02's subject), folded
# below as the answer of step 01.2:

# %%
with answer_fold("01.2"):
    show_source(torch.autograd.Function.apply, only=["needs_input_grad = ", "grad_enabled = grad_mode", "record = "])

# %% [markdown]
# Once both steps are done, your tensors print as PyTorch's do (the printing is given), and follow the rule:

# %%
mine = buildtrack.mine("01.2")
if mine:
    x = mine.tensor(2.0, requires_grad=True)
    print(x, x.grad, x.grad_fn)
    print(mine.compute_requires_grad(x, 3.0), mine.compute_requires_grad(mine.tensor(1.0), 3.0))
# %% [markdown]
# ## Exercises
#
# ### Exercise 1.1: a gradient at a point
#
# Use `mini_autograd` to compute both partial derivatives of $z = x^3 - 2xy$ at $x = 1.5$, $y = -0.5$.
# Set `answer_1_1` to the pair `(x.grad, y.grad)`. Before running it, work out the derivatives by hand: do they agree?
#
# <details><summary>Hint 1</summary>
#
# Make `x` and `y` tensors that require grad, build `z` from them, and call `z.backward()` once.
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# Both gradients come from the same backward: afterwards `x.grad` holds $\partial z/\partial x$ and `y.grad` holds $\partial z/\partial y$. By hand: $3x^2 - 2y$ and $-2x$.
#
# </details>
#
# <details><summary>A sketch</summary>
#
# `x = torch.tensor(1.5, requires_grad=True)`; the same for `y` with `-0.5`; `z = ___`; `z.backward()`; `answer_1_1 = (___, ___)`.
#
# </details>

# %%
# Exercise 1.1
answer_1_1 = ...  # your answer here: (x.grad, y.grad)

# %% tags=["hide-input"]
check_exercise("1.1")

# %% [markdown]
# <details><summary>Show solution</summary>
#
# ```python
# # Exercise 1.1
# x = torch.tensor(1.5, requires_grad=True)
# y = torch.tensor(-0.5, requires_grad=True)
# z = x**3 - 2 * x * y
# z.backward()
# answer_1_1 = (x.grad, y.grad)      # (tensor(7.7500), tensor(-3.))
# ```
#
# By hand: $\partial z/\partial x = 3x^2 - 2y = 6.75 + 1 = 7.75$ and $\partial z/\partial y = -2x = -3$.
# </details>

# %% [markdown]
# ### Exercise 1.2: which results are recorded?
#
# Predict, without running it, which of `c`, `d`, `e`, `n` require grad after this code:
#
# ```python
# p = torch.tensor(1.0, requires_grad=True)
# q = torch.tensor(2.0)
# c = p * q
# d = q * 3
# e = d + c
# with torch.no_grad():
#     n = p * 2
# ```
#
# Answer with four booleans, `(c.requires_grad, d.requires_grad, e.requires_grad, n.requires_grad)`.
# The check cell runs the code and compares.
#
# <details><summary>Hint 1</summary>
#
# A result requires grad when recording is on and at least one input requires grad.
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# Go line by line: which inputs of each line require grad? `q` does not, `p` does; and what does `no_grad()` switch off?
#
# </details>
#
# <details><summary>A sketch</summary>
#
# For each of `c`, `d`, `e`, `n`: list its inputs, mark the ones that require grad, then check whether the line ran inside `no_grad()`. Answer `(___, ___, ___, ___)`.
#
# </details>

# %%
# Exercise 1.2
answer_1_2 = ...  # your answer here, e.g. (True, True, False, False)

# %% tags=["hide-input"]
check_exercise("1.2")

# %% [markdown]
# <details><summary>Show solution</summary>
#
# ```python
# # Exercise 1.2
# answer_1_2 = (True, False, True, False)
# ```
#
# `c` has the input `p`, which requires grad. `d` is made from `q` and a number: neither requires grad.
# `e` has `c` as an input, which requires grad, so it does too. `n` is computed inside `no_grad()`, where nothing is recorded.
# </details>

# %% [markdown]
# ### Exercise 1.3: many derivatives, one backward
#
# Write `derivatives(points)`: given a list of numbers, it returns a tensor holding the derivative
# of $h(x) = x^3 - x$ at each of them, computed with a **single** call to `backward()`. The check
# calls it on the four points $x = 0, 1, 2, 3$ and on points of its own, and counts the backward calls.
#
# <details><summary>Hint 1</summary>
#
# Put the points into one tensor that requires grad.
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# `backward()` needs a single number to start from. Each $h(x_i)$ depends only on its own $x_i$, so the derivative of the sum with respect to $x_i$ is $h'(x_i)$.
#
# </details>
#
# <details><summary>A sketch</summary>
#
# `x = torch.tensor(points, requires_grad=True)`; `h = ___`; `h.___().backward()`; `return x.grad`.
#
# </details>

# %%
# Exercise 1.3
def derivatives(points):
    """h'(x) for h(x) = x³ - x at each of the points, with one call to backward()."""
    return ...  # your answer here: a tensor with one derivative per point

# %% tags=["hide-input"]
check_exercise("1.3")

# %% [markdown]
# <details><summary>Show solution</summary>
#
# ```python
# # Exercise 1.3
# def derivatives(points):
#     """h'(x) for h(x) = x³ - x at each of the points, with one call to backward()."""
#     x = torch.tensor(points, requires_grad=True)
#     h = x**3 - x
#     h.sum().backward()
#     return x.grad
#
#
# derivatives([0.0, 1.0, 2.0, 3.0])  # tensor([-1.,  2., 11., 26.])
# ```
#
# Each $h(x_i)$ depends only on its own $x_i$, so the derivative of the sum with respect to $x_i$ is $h'(x_i) = 3x_i^2 - 1$.
# </details>

# %% [markdown]
# ## Recap
#
# - Autograd does one job of the three in a training step: given the forward computation, it computes the
#   gradient. It does not update parameters.
# - `requires_grad=True` is the switch: operations on such tensors are written into a ledger (the graph), and
#   `backward()` reads it in reverse, leaving the gradients in `.grad`.
# - A result is recorded when at least one input requires grad, unless it cannot have a gradient (booleans)
#   or recording is off (`no_grad`, `inference_mode`: chapter 06).
# - Autograd's derivatives match the ones by hand: at single points, and over a whole range with one
#   `backward()` on a sum of independent terms.
# - `mini_autograd`'s `Tensor` keeps `requires_grad`, `grad` and `grad_fn` beside a numpy array, as PyTorch's
#   tensors do (in C++). Your `myautograd.Tensor` now does too, and your `compute_requires_grad` decides what is
#   recorded (steps 01.1 and 01.2).
#
# [Next: 02 — The computation graph](02_computation_graph.ipynb)
