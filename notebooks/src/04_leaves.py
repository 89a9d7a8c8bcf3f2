# %% [markdown]
# # 04 — Leaves: why some tensors get a `.grad` and others don't
#
# After `backward()`, some tensors have a gradient in `.grad` and others show `None`. This
# is not random: it depends on whether the tensor is a **leaf** of the graph.
#
# **What you will learn**
#
# - what a leaf tensor (叶子张量 / 叶子节点) is: a tensor that autograd did not make, so
#   `grad_fn is None` and `is_leaf` is `True`
# - which tensors are leaves: the ones you create (model parameters are the typical case),
#   results made under `no_grad`, results of `detach()` — and which are not: results of
#   recorded operations
# - why only leaves get `.grad`: autograd computes every intermediate gradient, but keeps
#   only the leaves' by default
# - the warning you get when you read a non-leaf's `.grad`, and `retain_grad()` to keep it
# - `requires_grad_()` works only on leaves, and an integer tensor cannot require grad
# - how each leaf is tied to its `AccumulateGrad` node, and how `retain_grad()` is built on
#   a hook
# - to give your `myautograd` one `AccumulateGrad` per leaf, `is_leaf` and `retain_grad`
#
# **Seed section:** article 000 §5, "叶子节点和非叶子节点" (leaf and non-leaf nodes); article
# 003's "计算图" section introduces leaves as the starting points of the graph.
#
# **mini_autograd pieces introduced:** `Tensor.is_leaf`, the `Tensor.grad` property (and its
# warning), `Tensor.requires_grad_`, `Tensor.retain_grad` with `RetainGradHook`, and
# `AccumulateGrad` (`mini_autograd/autograd/graph.py`).
#
# **Time:** about 40 minutes to read and run, and about 20 more for the two build steps.

# %%
import warnings


import mini_autograd as torch
from mini_autograd import viz
from coursetools import show_source, expect_error, tr
from exercises import check_exercise

# %% [markdown]
# ## 1. Who is a leaf?
#
# A small model-like computation: `w` is a parameter (we want its gradient), `x` is data
# (we don't). Then a few ways of making new tensors from them.

# %%
w = torch.tensor([0.5, -1.0], requires_grad=True)   # created by you, to be optimized
x = torch.tensor([1.0, 2.0])                         # created by you: data
h = w * x                                            # made by a recorded operation
with torch.no_grad():
    h_no_grad = w * x                                # made while recording was off
h_detached = h.detach()                              # cut off from the graph
c = x * 2                                            # an operation on tensors needing no grad

for name, t in [("w", w), ("x", x), ("h", h), ("h_no_grad", h_no_grad),
                ("h_detached", h_detached), ("c", c)]:
    grad_fn = None if t.grad_fn is None else t.grad_fn.name()
    print(f"{name:10}  is_leaf={t.is_leaf!s:5}  requires_grad={t.requires_grad!s:5}  grad_fn={grad_fn}")

# %% [markdown]
# Only `h` is not a leaf. The rule is one line: **a tensor is a leaf exactly when
# `grad_fn is None`**, that is, when no recorded operation made it. So:
#
# - tensors you create yourself are leaves, with or without `requires_grad`;
# - a result made under `no_grad()` is a leaf: nothing was recorded, so it has no `grad_fn`
#   (chapter 06);
# - `detach()` returns a leaf that shares the data but has no history;
# - `x * 2` is a leaf too: neither input requires grad, so there was nothing to record.
#
# Here is mini_autograd's definition. PyTorch's is the same one-liner, in C++:

# %%
show_source(torch.Tensor.is_leaf.fget)

# %% [markdown]
# <details><summary>In PyTorch: is_leaf</summary>
#
# `torch/csrc/autograd/python_variable.cpp: THPVariable_is_leaf` returns `!grad_fn()`.
#
# </details>

# %% [markdown]
# Among the leaves, the ones that matter for training are those with `requires_grad=True`:
# the parameters. Every parameter of a layer is one:

# %%
layer = torch.nn.Linear(2, 1)
output = layer(torch.ones(1, 2))
print(tr("weight is a leaf:"), layer.weight.is_leaf, "| requires_grad:", layer.weight.requires_grad)
print(tr("bias is a leaf:  "), layer.bias.is_leaf, "| requires_grad:", layer.bias.requires_grad)
print(tr("output is a leaf:"), output.is_leaf, "| grad_fn:", output.grad_fn.name())

# %% [markdown]
# ## 2. Who gets a `.grad`?
#
# Back to `w`, `x` and `h`. Build a loss on top of `h` and call `backward()`:

# %%
loss = (h ** 2).sum()
loss.backward()
print("w.grad:", w.grad)
print("x.grad:", x.grad)

# %% [markdown]
# `w` is a leaf that requires grad: it gets its gradient, $\partial\,\text{loss}/\partial w =
# 2h \cdot x = 2\cdot[0.5, -2]\cdot[1, 2] = [1, -8]$. `x` is a leaf too, but it does not require
# grad, so nothing is computed for it: `None`.
#
# And `h`? Its gradient was certainly computed — the chain rule passes through it on the way
# to `w` ($\partial\,\text{loss}/\partial h = 2h = [1, -4]$). But reading `h.grad` gives
# `None`, with a warning. We catch the warning here to print its opening sentences (shown
# raw, it also prints a file name and line number):

# %%
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    print("h.grad:", h.grad)

message = str(caught[0].message)
print(f"{caught[0].category.__name__}: {'. '.join(message.split('. ')[:2])}.")

# %% [markdown]
# This is the one line to remember from article 000 §5: **autograd computes the gradients of
# intermediate tensors, but by default it keeps only the leaves' gradients** in `.grad`. The
# intermediate ones are used once, to pass the gradient on, and then dropped. Keeping them all
# would cost memory for every intermediate result of every layer — and the optimizer only
# needs the parameters' gradients anyway.
#
# Here is the graph. Leaves appear at the bottom (light blue), each under its
# `AccumulateGrad` node; `x` does not appear at all, because no gradient flows to it (its edge
# from `MulBackward0` is `None`):

# %%
viz.draw(loss, params={"w": w, "x": x}, names={"loss": loss})

# %% [markdown]
# ## 3. Keeping an intermediate gradient: `retain_grad()`
#
# When you do want an intermediate gradient — to debug, or to look at what flows through a
# layer — call `retain_grad()` on that tensor **before** `backward()`:

# %%
w = torch.tensor([0.5, -1.0], requires_grad=True)
x = torch.tensor([1.0, 2.0])
h = w * x
h.retain_grad()
loss = (h ** 2).sum()
loss.backward()

print("h.retains_grad:", h.retains_grad, "| w.retains_grad:", w.retains_grad)
print("h.grad:", h.grad, "  (= 2h)")
print("w.grad:", w.grad, "  (= 2h * x)")

# %% [markdown]
# `h.grad` is $2h = [1, -4]$, with no warning this time, and `w.grad` is unchanged: keeping
# `h`'s gradient costs memory, not correctness. `retains_grad` tells whether a tensor will keep
# its gradient; it stays `False` for leaves, which keep theirs anyway.
#
# In the picture, a tensor that retains its gradient is drawn beside the node that made it
# (yellow): the gradient arriving at that node is the tensor's gradient.

# %%
viz.draw(loss, params={"w": w}, names={"h": h, "loss": loss})

# %% [markdown]
# ## 4. `requires_grad` can be switched only on leaves
#
# `requires_grad_()` turns gradient tracking on for a tensor you created:

# %%
a = torch.tensor([1.0, 2.0])
a.requires_grad_()
print(a, "| is_leaf:", a.is_leaf)

# %% [markdown]
# On a non-leaf it cannot be switched off: the tensor's `grad_fn` already ties it into the
# graph. PyTorch's error says what to do instead — `detach()`:
#
# The next cell fails on purpose, with a `RuntimeError`: `b` is not a leaf.

# %%
b = a * 2
with expect_error(RuntimeError):
    b.requires_grad_(False)

# %% [markdown]
# (Switching it *on* for a non-leaf, `b.requires_grad_(True)`, is allowed and changes nothing:
# `b` already requires grad.)
#
# And an integer tensor cannot require gradients: only floating-point ones can (and, in PyTorch,
# complex ones, as its message says; mini_autograd has no complex numbers). A gradient describes
# how the output changes when the input moves a tiny bit, and an integer cannot move a tiny bit:
#
# The next cell fails on purpose, with a `RuntimeError`: its tensor holds integers.

# %%
with expect_error(RuntimeError):
    torch.tensor([1, 2, 3], requires_grad=True)

# %% [markdown]
# ## 5. Open the hood: each leaf has an `AccumulateGrad` node
#
# The graph's last stop before a leaf is an `AccumulateGrad` node. It is found in the
# `next_functions` of the node that used the leaf, and its `variable` attribute is the leaf
# itself:

# %%
w = torch.tensor([0.5, -1.0], requires_grad=True)
x = torch.tensor([1.0, 2.0])
h = w * x
print(h.grad_fn.next_functions)
accumulate = h.grad_fn.next_functions[0][0]
print(accumulate.name())
print("accumulate.variable is w:", accumulate.variable is w)
print(tr("edge for x:"), h.grad_fn.next_functions[1])

# %% [markdown]
# The first edge of `MulBackward0` leads to `w`'s `AccumulateGrad`; the second is
# `(None, 0)`: `x` needs no gradient, so there is no node for it. A leaf has at most one
# `AccumulateGrad`, shared by every operation that uses it, so all its gradients meet in one
# place:

# %%
uses_1 = w * 2
uses_2 = w + 1
print(tr("same AccumulateGrad node:"),
      uses_1.grad_fn.next_functions[0][0] is uses_2.grad_fn.next_functions[0][0])

# %% [markdown]
# `AccumulateGrad` is the only node whose backward writes into a tensor. Its `apply` receives
# the gradient arriving at the leaf and adds it into `.grad`; chapter 05 lists that method and
# looks at the adding closely. Here is the start of the class, the part that ties node and leaf:

# %%
show_source(torch.autograd.graph.AccumulateGrad, stop_at="def tensor_pre_hooks")

# %% [markdown]
# The docstring mentions a detail of the link: the node holds its leaf strongly, while the
# leaf holds its node only weakly (mini_autograd's `Tensor._get_grad_accumulator`). Otherwise
# leaf and node would keep each other alive forever. The node's name,
# `torch::autograd::AccumulateGrad`, is PyTorch's too: it includes the C++ namespace, unlike
# `MulBackward0` and friends.
#
# <details><summary>In PyTorch: AccumulateGrad</summary>
#
# The node is `torch/csrc/autograd/functions/accumulate_grad.h` (and `accumulate_grad.cpp`). The tensor's
# `AutogradMeta`, in `torch/csrc/autograd/variable.h`, keeps the node as
# `c10::weak_intrusive_ptr<Node> grad_accumulator_`: the weak side of the link. A weak pointer
# does not keep the node alive. `impl::grad_accumulator` (declared in the same file) returns the
# node while it still exists and makes a new one once it is gone; Python's `weakref.ref` plays
# the same part in mini_autograd.
#
# </details>
#
# ## 6. Open the hood: `retain_grad()` is a hook
#
# How does `retain_grad()` make the engine keep a gradient it would otherwise drop? It
# registers a small hook on the node that made the tensor. The engine calls that hook with the
# gradient arriving at the node — which is the tensor's gradient — and the hook stores a copy in
# `.grad`. PyTorch does the same, in C++ (see the box after the listings).

# %%
show_source(torch.Tensor.retain_grad)

# %%
show_source(torch.autograd.graph.RetainGradHook)

# %% [markdown]
# And the error messages explain themselves now: `retain_grad()` on a tensor that does not
# require grad fails (`can't retain_grad on Tensor that has requires_grad=False`), and on a
# leaf it does nothing, since the leaf's `AccumulateGrad` fills `.grad` anyway. Finally, the
# warning of section 2 comes from the `.grad` property itself. It warns on a non-leaf that does
# not retain its gradient and has none: once you assign one yourself (`h.grad = ...`), reading it
# is silent, in PyTorch too.

# %%
show_source(torch.Tensor.grad.fget)

# %% [markdown]
# <details><summary>In PyTorch: retain_grad and the warning</summary>
#
# `torch/csrc/autograd/variable.cpp: VariableHooks::retain_grad` installs a hook that fills
# `.grad`. The non-leaf warning comes from `aten/src/ATen/core/TensorBody.h: Tensor::grad()`, as
# the tail of its message says.
#
# </details>

# %% [markdown]
# ## 7. Build it: one `AccumulateGrad` per leaf, `is_leaf`, `retain_grad`
#
# ### Step 04.1: one `AccumulateGrad` per leaf
#
# Your `gradient_edge` of chapter 02 makes a new `AccumulateGrad` every time a leaf is used. In `x * x` that
# gives two nodes for one leaf, each writing `x.grad` on its own: the engine cannot add the two gradients
# before they reach `.grad`, and your `AccumulateGrad.apply`, which for now *stores* what arrives, keeps only
# the last one. PyTorch gives a leaf one node (section 5), made the first time it is needed and reused after.
# Change `gradient_edge` in [myautograd/function.py](myautograd/function.py#gradient_edge) the same way: keep the node on the
# tensor as `tensor._grad_accumulator`, through `weakref.ref`, since the node already holds the tensor (if the
# tensor held the node too, neither could be freed by reference counting alone). While in
# [myautograd/tensor.py](myautograd/tensor.py#Tensor.is_leaf), write the `is_leaf` property of section 1.
#
# <details><summary>Hint 1</summary>
#
# PyTorch's `AutogradMeta` keeps a *weak* pointer to the leaf's `AccumulateGrad`. `gradient_edge` asks: is there a
# node for this leaf that is still alive? If so it reuses it; if not it makes one and remembers it, weakly. And
# `is_leaf` is about history, not about `requires_grad`.
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# `weakref.ref(node)` is a callable: calling it gives the node, or None once the node is gone (when no graph uses it
# any more). So "there is a `_grad_accumulator`" is not enough: call it and test the result. A tensor that never had
# one has no such attribute yet (`getattr` with a default helps). Storing the node itself would keep it alive as
# long as the leaf lives. For `is_leaf`: a constant is a leaf too; only a tensor made by a recorded operation is
# not.
#
# </details>
#
# <details><summary>A sketch</summary>
#
# ```python
# # in gradient_edge, for a leaf that requires grad:
# ref = getattr(tensor, "_grad_accumulator", None)
# node = ___                               # the live node, or None
# if node is None:
#     node = AccumulateGrad(tensor)
#     tensor._grad_accumulator = ___
# return (node, 0)
#
# # is_leaf
# return ___                               # one test, on the history
# ```
#
# </details>

# %%
import buildtrack

buildtrack.check("04.1")

# %% [markdown]
# `mini_autograd` keeps the node the same way, in `Tensor._get_grad_accumulator` (section 5).
#
# ### Step 04.2: `retain_grad`
#
# Section 6 showed that `retain_grad()` is a hook on the tensor's `grad_fn`: a function the engine calls with
# the gradient arriving there. Your engine already calls the functions in `node.pre_hooks` (step 03.2). Write
# `Tensor.retain_grad` in [myautograd/tensor.py](myautograd/tensor.py#Tensor.retain_grad), with PyTorch's behaviour for the
# corner cases: a tensor that does not require grad raises, a leaf needs nothing, a second call changes
# nothing, and a gradient that is None (your engine of step 08.2 calls the hooks of a node that only None
# reached with None) is nothing to keep.
#
# <details><summary>Hint 1</summary>
#
# In PyTorch `retain_grad()` installs a hook on the tensor's `grad_fn`. The engine calls the functions in
# `grad_fn.pre_hooks` with the gradient arriving at that node, which is exactly this tensor's gradient. The hook
# puts it in the tensor's `_grad`, but not quite the way `AccumulateGrad` keeps a leaf's: PyTorch's hook differs
# in two ways, and so does `mini_autograd`'s `RetainGradHook` of section 6. It reaches the tensor through a weak
# reference, since the graph holds the hook and must not keep the tensor alive. And it never changes a gradient
# already in `_grad`: it puts a new tensor in its place.
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# The corner cases: no `requires_grad` raises; a leaf needs nothing (no hook, and `retains_grad` stays False, as in
# PyTorch: its `AccumulateGrad` fills `.grad` already, and a hook there would count the gradient twice); a second
# call must not add a second hook (`retains_grad` is already True). Make `weakref.ref(self)` before the hook and
# let the hook use only that: a hook that names `self` keeps `y` alive as long as the graph lives, in
# `y = x * 3; y.retain_grad(); loss = (y + 1.0).sum(); del y` as long as `loss` does. Calling the reference gives the
# tensor, or None once it is gone, and then the hook does nothing. The first time, the hook stores a copy of the
# gradient (the engine may share that tensor, and it may be the very `v` of `y.backward(v)`); later it stores the
# sum `_grad + grad`, a new tensor, so that two backwards with `retain_graph=True` give twice the gradient while
# a `.grad` read after the first one keeps its numbers, as in PyTorch (a leaf's `.grad` is another matter:
# PyTorch's `AccumulateGrad` adds into it in place, chapter 05). And the hook returns None: anything else would
# replace the gradient that flows on.
#
# </details>
#
# <details><summary>A sketch</summary>
#
# ```python
# if not self.requires_grad:
#     raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
# if ___:                                  # nothing to do: which two cases?
#     return
# self.retains_grad = True
# tensor = weakref.ref(self)               # the hook holds self only weakly
#
# def keep(grad):
#     kept = ___                           # the tensor, or None once it is gone
#     if kept is None or grad is None:
#         return                           # gone, or no gradient: nothing to keep
#     if kept._grad is None:
#         kept._grad = ___                 # a copy
#     else:
#         kept._grad = ___                 # the sum, a new tensor: never add into kept._grad's numbers
#     # no return value (None): the gradient flows on unchanged
#
# self.grad_fn.pre_hooks.insert(0, keep)  # first: PyTorch runs it before the node's own pre-hooks
# ```
#
# </details>

# %%
buildtrack.check("04.2")

# %% [markdown]
# Once both steps are done, your package gives section 3's example the same numbers as `mini_autograd`:

# %%
def section_3(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    y.retain_grad()
    (y * y).sum().backward()
    return x.grad, y.grad, y.is_leaf


print("mini_autograd:", section_3(torch))
mine = buildtrack.mine("04.2")
if mine:
    print("myautograd:   ", section_3(mine))

# %% [markdown]
# ## Exercises
#
# **Exercise 4.1.** Which of these tensors are leaves? Answer with a set of names, e.g.
# `{"p", "q"}`.

# %%
p = torch.tensor([1.0, 2.0], requires_grad=True)
q = p * 3
r = q.detach()
s = torch.tensor([4.0, 5.0]) + 1
t = r * p

# %% [markdown]
# <details><summary>Hint 1</summary>
#
# A leaf is a tensor whose `grad_fn` is `None`: it was not made by a recorded operation.
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# An operation is recorded only when one of its inputs requires grad (and recording is on). `detach()` returns a tensor with no history.
#
# </details>
#
# <details><summary>A sketch</summary>
#
# Go through `p`, `q`, `r`, `s`, `t`: was it created directly, detached, or made by a recorded operation? `answer_4_1 = {"___", ...}` with the leaves.
#
# </details>

# %%
# Exercise 4.1
answer_4_1 = ...  # your answer here: a set of names

# %% tags=["hide-input"]
check_exercise("4.1")

# %% [markdown]
# <details><summary>Show solution</summary>
#
# ```python
# # Exercise 4.1
# answer_4_1 = {"p", "r", "s"}
# ```
#
# `p` is created by you. `q = p * 3` is recorded (`p` requires grad), so it has a `grad_fn`.
# `r = q.detach()` is cut from the graph: a leaf. `s` comes from tensors that need no grad,
# so nothing was recorded. `t = r * p` is recorded because `p` requires grad (even though `r`
# does not): not a leaf.
#
# </details>

# %% [markdown]
# **Exercise 4.2.** Get the gradient of `loss` with respect to the intermediate tensor `u`.
# Edit the cell: add one line before `backward()`, and set `answer_4_2`.
#
# <details><summary>Hint 1</summary>
#
# `u` is not a leaf: backward computes its gradient on the way to `w`, but does not keep it.
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# There is a method that asks autograd to keep a non-leaf's gradient in `.grad`. It must be called before `backward()`.
#
# </details>
#
# <details><summary>A sketch</summary>
#
# Add `u.___()` between `u = ...` and `loss.backward()`, then `answer_4_2 = u.___`.
#
# </details>

# %%
# Exercise 4.2
w = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
x = torch.tensor([2.0, 1.0, 0.5])
u = w * x + 1
loss = (u ** 2).mean()
loss.backward()
answer_4_2 = ...  # your answer here: the gradient of loss with respect to u

# %% tags=["hide-input"]
check_exercise("4.2")

# %% [markdown]
# <details><summary>Show solution</summary>
#
# ```python
# # Exercise 4.2
# w = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
# x = torch.tensor([2.0, 1.0, 0.5])
# u = w * x + 1
# u.retain_grad()
# loss = (u ** 2).mean()
# loss.backward()
# answer_4_2 = u.grad
# ```
#
# `u = [3, -1, 2.5]` and `loss = (u₀² + u₁² + u₂²)/3`, so `u.grad = 2u/3 = [2.0, -0.6667,
# 1.6667]`. Without `u.retain_grad()`, `u.grad` is `None` (with the warning): the engine
# computed that gradient on its way to `w` but did not keep it.
#
# </details>

# %% [markdown]
# **Exercise 4.3.** A classic bug: the line below is meant to create a small random parameter,
# but `w_buggy` is not a leaf, so after `backward()` its `.grad` is `None`. Write a `w`, as `answer_4_3`, that
# holds the same kind of numbers — three numbers from `torch.randn`, scaled by 0.1 — and *is* a
# leaf that requires grad. (The cell seeds the random generator, so the check knows which
# numbers to expect: the ones `w_buggy` got, or the next three.)
#
# <details><summary>Hint 1</summary>
#
# `torch.randn(3, requires_grad=True) * 0.1` is made by a recorded multiplication, so it has a `grad_fn`: not a leaf.
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# Do the scaling first, on a tensor that does not require grad; then switch `requires_grad` on for the result, in place.
#
# </details>
#
# <details><summary>A sketch</summary>
#
# `answer_4_3 = (torch.randn(3) * ___).___()`, after the cell's `torch.manual_seed(0)`.
#
# </details>

# %%
# Exercise 4.3
torch.manual_seed(0)
w_buggy = torch.randn(3, requires_grad=True) * 0.1   # the bug: this is the result of `* 0.1`
answer_4_3 = ...  # your answer here: w, a leaf tensor of small random numbers that requires grad

# %% tags=["hide-input"]
check_exercise("4.3")

# %% [markdown]
# <details><summary>Show solution</summary>
#
# ```python
# # Exercise 4.3
# torch.manual_seed(0)
# answer_4_3 = (torch.randn(3) * 0.1).requires_grad_()
# ```
#
# `torch.randn(3, requires_grad=True) * 0.1` is the result of a recorded multiplication, so
# its `grad_fn` is `MulBackward0`: the gradient would go to the unscaled tensor behind it,
# which you no longer hold. Scaling first and then calling `requires_grad_()` makes the scaled
# tensor itself the leaf. (`w_buggy.detach().requires_grad_()` also works: the same numbers,
# as a new leaf.)
#
# Layers take another route to the same end. A parameter is created first, as a leaf that
# requires grad (an `nn.Parameter`), and the `nn.init` functions, such as
# `nn.init.normal_(w, std=0.1)`, then fill it *in place* under `no_grad()`: nothing is
# recorded, so it stays a leaf. They do not call `requires_grad_()`.
#
# </details>

# %% [markdown]
# ## Recap
#
# - A tensor is a **leaf** when `grad_fn is None`: you created it, or it was made under
#   `no_grad()`, by `detach()`, or from tensors that need no grad. Results of recorded
#   operations are not leaves. Model parameters are the typical leaves.
# - After `backward()`, only leaves with `requires_grad=True` have `.grad`. Intermediate
#   gradients are computed and passed on, then dropped; reading a non-leaf's `.grad` gives
#   `None` and a `UserWarning`.
# - `t.retain_grad()` (before `backward()`) keeps an intermediate gradient; `t.retains_grad`
#   says whether it will. It is built on a hook the engine calls with the tensor's gradient
#   (PyTorch does the same in C++).
# - `requires_grad_()` changes only leaves (use `detach()` for a non-leaf), and integer tensors
#   cannot require grad (floating-point ones can, and in PyTorch complex ones too).
# - Each leaf that requires grad has one `AccumulateGrad` node (`node.variable is leaf`), the
#   end of every path to that leaf; it writes `.grad`. The node, and its name, are PyTorch's.
# - Your `myautograd` now gives a leaf one `AccumulateGrad`, held weakly, and keeps a non-leaf's gradient on
#   request, through a hook the engine calls (steps 04.1 and 04.2).
#
# [Next: 05 — Gradients accumulate](05_accumulation.ipynb)
