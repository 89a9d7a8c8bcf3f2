# %% [markdown]
# # 11 — Extending autograd
#
# The seed articles stop at using autograd. This chapter goes one step further, to the places
# where you plug your own code into it: an operation with a backward you write yourself, a
# check that the backward is right, functions that see (and change) gradients while the engine
# runs, and gradients of gradients.
#
# **What you will learn**
#
# - how to write a custom operation as a `torch.autograd.Function`, with `forward`,
#   `backward` and `ctx.save_for_backward` — and that it is the same mechanism every built-in
#   operation uses
# - how `torch.autograd.gradcheck` compares your backward with finite differences, and how it
#   catches wrong backwards, including one that an ordinary test lets through
# - hooks: `Tensor.register_hook` to read or replace a gradient (gradient clipping in three
#   lines), and `grad_fn.register_prehook` / `register_hook` on the nodes themselves — and the
#   place in the engine where each one runs
# - higher-order gradients with `create_graph=True`: the first and second derivatives of
#   `tanh`, plotted
# - to write a `gradcheck` for your `myautograd` and run it on every operation you wrote, and a custom
#   `Function` of your own, the sigmoid
#
# **Seed sections:** beyond the seeds. It builds on article 000 §4 (each `grad_fn` is the
# disassembly instruction of one building block: here you write a block and its instruction
# yourself), §8 (saved tensors: `ctx.save_for_backward`) and §12 (the `Node` objects the engine
# runs).
#
# **mini_autograd pieces introduced:** `autograd.Function` and its `ctx`
# (`autograd/function.py`), `autograd.gradcheck` (`autograd/gradcheck.py`), `autograd.grad`,
# the hook lists of `Node` (`autograd/graph.py`) and where the engine calls them
# (`call_tensor_pre_hooks`, `call_function` in `autograd/engine.py`).
#
# **Time:** about 35 minutes to read and run, and about 40 more for the two build steps.

# %%
import numpy as np
import matplotlib.pyplot as plt

import mini_autograd as torch
from mini_autograd import viz
from coursetools import expect_error, show_source, tr
from exercises import check_exercise

# %% [markdown]
# ## 1. A custom operation: `MyExp`
#
# Suppose autograd did not know $e^x$. You would teach it with a subclass of
# `torch.autograd.Function` and two static methods: `forward` computes the result, `backward`
# turns the gradient of the result into the gradient of the input. Since $\frac{d}{dx}e^x = e^x$,
# the backward needs the *result* of the forward, so `forward` stores it with
# `ctx.save_for_backward` — `ctx` is the slip of paper the two methods share.

# %%
class MyExp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        result = x.exp()
        ctx.save_for_backward(result)      # keep what backward will need
        return result

    @staticmethod
    def backward(ctx, grad_output):
        (result,) = ctx.saved_tensors
        return grad_output * result        # chain rule: upstream gradient times d(e^x)/dx = e^x

# %% [markdown]
# A custom Function is called through `apply`, never by calling `forward` yourself: `apply`
# runs `forward` and records the node.

# %%
x = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
y = MyExp.apply(x)
print(y)
print(tr("node name:"), y.grad_fn.name())

# %% [markdown]
# The result carries `grad_fn=<MyExpBackward>`: PyTorch names a custom Function's node after
# the class, with `Backward` appended. Does its backward give the right gradient? Compare with
# the built-in `exp`, through a loss that weights the entries differently:

# %%
weights = torch.tensor([1.0, 2.0, 3.0])
(MyExp.apply(x) * weights).sum().backward()
print("MyExp:   ", x.grad)

x_builtin = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
(x_builtin.exp() * weights).sum().backward()
print(tr("built-in:"), x_builtin.grad)

# %% [markdown]
# The same: $w_i\,e^{x_i}$. The new node sits in the graph like any other. Here it is inside a
# small computation, `loss = mean(MyExp(w * x))` with a parameter `w`, drawn with the tensors
# each node saved for backward (`show_saved=True`):

# %%
w = torch.tensor(0.5, requires_grad=True)
y = MyExp.apply(w * x.detach())
loss = y.mean()
viz.draw(loss, params={"w": w}, names={"y": y, "loss": loss}, show_saved=True)

# %% [markdown]
# `MyExpBackward` sits between `MeanBackward0` and the `MulBackward0` of `w * x`, and what it
# saved is the result $e^{wx} = [1, 1.6487, 2.7183]$, exactly what `ctx.save_for_backward`
# received. During `backward()` the engine will call our `backward` with the gradient arriving
# from `MeanBackward0`, and send what it returns on to `MulBackward0`.

# %% [markdown]
# ## 2. Open the hood: one mechanism for all operations
#
# `apply` is a class method of `Function`:

# %%
show_source(torch.autograd.Function.apply)

# %% [markdown]
# It checks which inputs require grad, creates the node (an instance of the class
# `MyExpBackward`, made automatically for every `Function` subclass; the `ctx` that `forward`
# wrote to *is* that node), runs `forward` with grad mode off — so nothing inside `forward` is
# recorded — and wires the node into the graph (`_record`, chapter 02). Now look at mini_autograd's
# built-in `exp`:

# %%
from mini_autograd.ops.unary import Exp

show_source(Exp)

# %% [markdown]
# The same shape as `MyExp`: a `Function` with `forward` and `backward`, saving its result.
# The only differences are the node's name (`ExpBackward0`, PyTorch's name) and `saved_names`,
# which exposes the saved result as `grad_fn._saved_result`. **Every** operation in
# mini_autograd is built this way.
#
# In PyTorch the two live in different worlds — your `Function` in Python, the built-in
# operations in generated C++ — but follow the same contract, and the engine cannot tell them
# apart (see the box).
#
# <details><summary>In PyTorch: custom and built-in nodes</summary>
#
# - A custom Function's `apply` (`torch/autograd/function.py: Function.apply`) enters C++ at
#   `torch/csrc/autograd/python_function.cpp: THPFunction_apply`, which records a `PyNode` whose
#   `apply` calls your Python `backward`.
# - Built-in operations are C++ nodes generated from their formulas: `exp`'s is the one line
#   `self: grad * result.conj()` in `tools/autograd/derivatives.yaml`. For real numbers `conj()`
#   changes nothing. The generated code is
#   `ExpBackward0::apply` in `torch/csrc/autograd/generated/Functions.cpp`.
# - Both are subclasses of `Node` (`torch/csrc/autograd/node.h`).
#
# </details>

# %% [markdown]
# ## 3. Is the backward right? `gradcheck`
#
# A backward is a formula you typed in, and a wrong one fails silently: training just goes
# worse. `torch.autograd.gradcheck` checks it against **finite differences**: it nudges each
# input entry by a tiny $\varepsilon$ in both directions, measures how each output moves,
# $\frac{f(x+\varepsilon) - f(x-\varepsilon)}{2\varepsilon}$, and compares the resulting
# Jacobian matrix with the one your backward produces. The nudges are tiny ($10^{-6}$), so the
# inputs must be `float64`: in `float32` the rounding error of the difference is larger than the
# tolerance.

# %%
x64 = torch.tensor([0.5, 1.0, 2.0], dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(MyExp.apply, (x64,)))

# %% [markdown]
# `True`: the backward matches the numbers. Now a wrong one. Someone remembers "the derivative
# of $e^x$..." and writes $x$ instead of $e^x$, saving the input instead of the result.
# `gradcheck` on it fails on purpose, with a `RuntimeError` (the cell catches it and prints it):

# %%
class WrongExp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.exp()

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * x             # wrong: d(e^x)/dx is e^x, not x


try:
    torch.autograd.gradcheck(WrongExp.apply, (x64,))
except RuntimeError as error:
    print(type(error).__name__)
    print(error)

# %% [markdown]
# A `GradcheckError` (a subclass of `RuntimeError`), whose first line says which output and
# which input disagree, followed by the two Jacobians. Here both are diagonal (each output
# entry depends on one input entry): the numerical one holds $e^{0.5}, e^1, e^2$, the analytical
# one $0.5, 1, 2$ — the bug in plain sight.
#
# Some bugs are sneakier. This backward forgets to multiply by `grad_output`:

# %%
class ForgetfulExp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        result = x.exp()
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        (result,) = ctx.saved_tensors
        return result                      # wrong: ignores the gradient arriving from upstream


x = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
ForgetfulExp.apply(x).sum().backward()
print(tr("x.grad after .sum().backward():"), x.grad)
print(tr("equal to e^x, the right answer:"), np.allclose(x.grad.numpy(), np.exp([0.5, 1.0, 2.0])))

# %% [markdown]
# The usual quick test passes! `sum()` sends a gradient of all ones, and multiplying by one
# changes nothing, so forgetting the multiplication goes unnoticed. Any other loss would get
# wrong gradients. `gradcheck` does not fall for it, because it asks for the Jacobian one output
# entry at a time, sending a unit vector $(1, 0, 0)$, $(0, 1, 0)$, ... as `grad_output`. So here it
# fails on purpose, with a `RuntimeError` (the cell prints its first line):

# %%
try:
    torch.autograd.gradcheck(ForgetfulExp.apply, (x64,))
except RuntimeError as error:
    print(type(error).__name__)
    print(str(error).splitlines()[0])

# %% [markdown]
# Caught. (Its analytical Jacobian is full — the vector $e^x$ repeated for every output entry —
# where only the diagonal should be non-zero.)
#
# **Open the hood.** mini_autograd's `gradcheck` is the "slow mode" of PyTorch's: build both
# Jacobians in full and compare them with `np.allclose(analytical, numerical, rtol, atol)`.

# %%
show_source(torch.autograd.gradcheck)

# %% [markdown]
# The numerical Jacobian, one column per input entry, by central differences:

# %%
from mini_autograd.autograd.gradcheck import numerical_jacobian, analytical_jacobian

show_source(numerical_jacobian)

# %% [markdown]
# and the analytical one, one row per output entry, each from one backward pass with a unit
# vector as the starting gradient (through `autograd.grad`, which returns gradients instead of
# accumulating them into `.grad`):

# %%
show_source(analytical_jacobian)

# %% [markdown]
# PyTorch's `gradcheck` does the same by default; with `fast_mode=True` it compares random
# projections of the two Jacobians instead of the full matrices, which is much faster for big
# inputs.
#
# <details><summary>In PyTorch: gradcheck</summary>
#
# `torch/autograd/gradcheck.py: gradcheck` → `_gradcheck_helper` → `_slow_gradcheck` (with
# `_get_numerical_jacobian` and `_check_analytical_jacobian_attributes`, which also checks that
# two backward runs give the same result). PyTorch stores its Jacobians with one row per input
# entry and one column per output entry — the transpose of the textbook
# $\partial y_i / \partial x_j$ — and prints them that way in its error message; mini_autograd
# builds the textbook layout and transposes it when it prints, so the two messages read the
# same.
#
# </details>

# %% [markdown]
# ## 4. Hooks: functions the engine calls during backward
#
# A **hook** is a function you hand to autograd, which the engine calls while `backward()`
# runs. The simplest is on a tensor: `t.register_hook(fn)` calls `fn(grad)` when the gradient
# with respect to `t` has been computed. If `fn` returns a tensor, that tensor *replaces* the
# gradient from there on; if it returns `None`, the gradient is left alone. What a hook must not
# do is change `grad` itself in place (`grad.mul_(2)`, `grad *= 2`): PyTorch's documentation
# says a hook "should not modify its argument", because the engine may be using that same
# tensor elsewhere too (another hook, another part of the backward pass). Return a new tensor
# instead.
#
# **Gradient clipping** is a classic use: limit the size of a gradient before it reaches the
# parameter. Here the gradient of a parameter is scaled down whenever its length (norm) exceeds 1.
# First without the hook:

# %%
def loss_of(w):
    return (w ** 2).sum()            # gradient 2w


w = torch.tensor([3.0, -4.0], requires_grad=True)
loss_of(w).backward()
print(tr("without the hook: w.grad ="), w.grad, tr(" norm:"), round(float(np.linalg.norm(w.grad.numpy())), 4))

# %% [markdown]
# $2w = [6, -8]$, of length 10. Now with a hook on `w`:

# %%
def clip_to_norm_1(grad):
    norm = (grad ** 2).sum().sqrt().item()
    print(tr("  hook sees:"), grad, tr(f"(norm {norm:.1f})"))
    if norm > 1.0:
        return grad * (1.0 / norm)   # the returned tensor replaces the gradient
    return None                      # None: keep the gradient as it is


w = torch.tensor([3.0, -4.0], requires_grad=True)
handle = w.register_hook(clip_to_norm_1)
loss_of(w).backward()
print(tr("with the hook:    w.grad ="), w.grad)

# %% [markdown]
# The hook saw the true gradient `[6, -8]` and returned it scaled to length 1, `[0.6, -0.8]`,
# which is what `AccumulateGrad` wrote into `w.grad`. `register_hook` returns a handle;
# `handle.remove()` takes the hook out again:

# %%
handle.remove()
w.grad = None
loss_of(w).backward()
print(tr("hook removed:     w.grad ="), w.grad)

# %% [markdown]
# (A hook can also clip elementwise, `return grad.clamp(-c, c)`. For a whole model PyTorch's
# usual tool is `torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm)`, called between
# `backward()` and `step()` rather than as a hook; mini_autograd does not have it.)
#
# A hook works on intermediate tensors too, where `.grad` is not kept (chapter 04): it is the
# way to look at a gradient in the middle of the graph. Nodes have hooks of their own as well.
# `grad_fn.register_prehook(fn)` calls `fn(grad_outputs)` just before the node runs (the
# gradients arriving at it); `grad_fn.register_hook(fn)` calls `fn(grad_inputs, grad_outputs)`
# just after (the gradients it is sending on, and the ones it received). Either may return
# replacements. All three kinds on one small graph, $c = e^{3a}$ at $a = 2$:

# %%
a = torch.tensor(2.0, requires_grad=True)
b = a * 3
c = b.exp()

b.register_hook(lambda grad: print(tr("1. tensor hook on b:           "), grad))
b.grad_fn.register_prehook(lambda grad_outputs: print(tr(f"2. prehook of {b.grad_fn.name()}:  "), grad_outputs))
b.grad_fn.register_hook(lambda grad_inputs, grad_outputs:
                        print(tr(f"3. post hook of {b.grad_fn.name()}:"), grad_inputs, grad_outputs))
c.backward()
print("a.grad:", a.grad)

# %% [markdown]
# The gradient arriving at `b` is $dc/db = e^{6} \approx 403.43$. The tensor hook sees it
# first, then the prehook of `MulBackward0` (the node that made `b`) receives it as a tuple,
# one entry per output of the forward operation. After the node ran, the post hook sees what
# it sends on: $3 \cdot 403.43 = 1210.29$ for `a`, and `None` for the constant 3. A prehook can
# also change what the node receives — here it halves it, and `a.grad` halves with it:

# %%
a = torch.tensor(2.0, requires_grad=True)
b = a * 3
c = b.exp()
b.grad_fn.register_prehook(lambda grad_outputs: (grad_outputs[0] * 0.5,))
c.backward()
print(tr("a.grad with a halving prehook:"), a.grad)

# %% [markdown]
# **Where the engine calls them.** In chapter 08 you followed `evaluate_function`; the hooks
# are run by `call_function`, just around the node's own backward:

# %%
show_source(torch.autograd.engine.call_function)

# %% [markdown]
# First the tensor hooks (and, after them, the `retain_grad` hooks of chapter 04 — so a
# retained `.grad` shows the gradient *after* your hooks changed it):

# %%
show_source(torch.autograd.engine.call_tensor_pre_hooks)

# %% [markdown]
# then the node's prehooks, the node itself (`node.apply`), and its post hooks. A hook on a
# **leaf** such as `w` above is a tensor pre-hook of the leaf's `AccumulateGrad` node, which is
# why the clipped gradient is what got accumulated. PyTorch's engine runs the same sequence.
#
# <details><summary>In PyTorch: where the hooks run</summary>
#
# `torch/csrc/autograd/engine.cpp: call_function` runs `call_tensor_pre_hooks`,
# `call_pre_hooks`, the node, then `call_post_hooks`; the hooks are stored on the `Node`
# (`torch/csrc/autograd/node.h`: `tensor_pre_hooks_`, `pre_hooks_`, `post_hooks_`). What a
# Python hook returns is checked in `torch/csrc/autograd/python_hook.cpp` (`check_result`,
# `check_single_result`).
#
# </details>
#
# What a hook returns is checked before it takes the gradient's place (`check_result` and
# `check_single_result` in both listings): a node's hook returns a tuple with one entry per
# gradient, a tensor's hook one tensor, and each is None or a tensor of the gradient's dtype and
# shape. This cell fails on purpose, with a `RuntimeError`: its prehook hands on float64 where
# float32 arrived.

# %%
a = torch.tensor(2.0, requires_grad=True)
b = a * 3
b.grad_fn.register_prehook(lambda grad_outputs: (grad_outputs[0].double(),))
with expect_error(RuntimeError):
    b.exp().backward()

# %% [markdown]
# ## 5. Gradients of gradients: `create_graph=True`
#
# Normally the backward pass is not recorded: the engine runs it with grad mode off, and the
# gradients it returns have no `grad_fn`. With `create_graph=True` it runs with grad mode **on**,
# so every operation inside the backward formulas is recorded like a forward pass — and the
# gradient can be differentiated again. This works because the backward formulas are written
# with tensor operations (`grad_output * result` in `MyExp` is an ordinary `*`).
#
# `torch.autograd.grad(outputs, inputs)` returns the gradients instead of adding them into
# `.grad`, which is convenient here. Start with $y = x^3$ at $x = 1$: $y' = 3x^2 = 3$ and
# $y'' = 6x = 6$.

# %%
x = torch.tensor(1.0, requires_grad=True)
y = x ** 3
(dy_dx,) = torch.autograd.grad(y, x, create_graph=True)
print("dy/dx:  ", dy_dx)
(d2y_dx2,) = torch.autograd.grad(dy_dx, x)
print("d2y/dx2:", d2y_dx2)

# %% [markdown]
# The first derivative, 3, comes with `grad_fn=<MulBackward0>`: it is the output of the
# recorded backward formula $\text{grad} \cdot 3x^2$, so it has a graph of its own, and the
# second `grad` differentiates through it to get 6.
#
# Now a whole curve at once: $\tanh$ on 161 points. Each $y_i = \tanh(x_i)$ depends only on
# $x_i$, so the gradient of $\sum_i y_i$ with respect to $x$ is the vector of the derivatives
# $\tanh'(x_i)$ — the **sum trick**. Applied twice, it gives the second derivative:

# %%
x = torch.linspace(-4, 4, 161, requires_grad=True)
y = torch.tanh(x)
(first,) = torch.autograd.grad(y.sum(), x, create_graph=True)
(second,) = torch.autograd.grad(first.sum(), x)
print(tr("first derivative's node:"), first.grad_fn.name())
print(tr("second derivative's node:"), second.grad_fn)

# %% [markdown]
# `TanhBackwardBackward0`: the node of the recorded backward of `tanh` — PyTorch's name, too.
# The second call had no `create_graph`, so its result has no `grad_fn`. Here is the graph of
# the first derivative, on three points:

# %%
x3 = torch.tensor([-1.0, 0.0, 2.0], requires_grad=True)
(first3,) = torch.autograd.grad(torch.tanh(x3).sum(), x3, create_graph=True)
viz.draw(first3, params={"x": x3}, names={"tanh'(x)": first3})

# %% [markdown]
# The backward formula of `tanh` is $\text{grad}\cdot(1-\tanh^2 x)$, and it was recorded as one
# node, `TanhBackwardBackward0`, whose inputs are the incoming gradient (all ones, from `sum`:
# no gradient needed, `None`) and the saved result $\tanh x$, which itself came from
# `TanhBackward0` — the forward `tanh`. Differentiating this graph again is the second
# derivative. The formulas to compare with: $\tanh' = 1 - \tanh^2$ and
# $\tanh'' = -2\tanh\,(1-\tanh^2)$.

# %%
t = np.tanh(x.detach().numpy())
print(tr("first  = 1 - tanh²:            "), np.allclose(first.detach().numpy(), 1 - t ** 2, atol=1e-6))
print(tr("second = -2 tanh (1 - tanh²):  "), np.allclose(second.numpy(), -2 * t * (1 - t ** 2), atol=1e-6))

# %%
xs = x.detach().numpy()
fig, ax = plt.subplots(figsize=(6, 3.5))
ax.plot(xs, y.detach().numpy(), label="tanh(x)")
ax.plot(xs, first.detach().numpy(), label=tr("first derivative (autograd)"))
ax.plot(xs, second.numpy(), label=tr("second derivative (autograd)"))
ax.plot(xs[::10], (1 - t ** 2)[::10], "o", color="tab:orange", markersize=4, label="1 - tanh²")
ax.plot(xs[::10], (-2 * t * (1 - t ** 2))[::10], "s", color="tab:green", markersize=4,
        label="-2 tanh (1 - tanh²)")
ax.axhline(0, color="gray", linewidth=0.5)
ax.set_xlabel("x")
ax.set_title(tr("tanh and its first two derivatives, by create_graph=True"))
ax.legend(fontsize=7)
plt.show()

# %% [markdown]
# The curves from autograd go through the markers from the formulas. The first derivative is
# the bell that peaks at 1 where `tanh` is steepest; the second is positive left of zero
# (the slope increases) and negative right of it.
#
# **Where it happens.** The engine sets grad mode to the value of `create_graph` before running
# the nodes (`grad_mode._set_grad_enabled(create_graph)` in `execute`, chapter 08), and
# `AccumulateGrad` adds out of place when it is on (chapter 05). PyTorch does the same (see the
# box). Uses of second derivatives: gradient penalties (as in WGAN-GP), meta-learning (MAML),
# Hessian-vector products, physics-informed networks.
#
# <details><summary>In PyTorch: create_graph in the engine</summary>
#
# PyTorch stores the flag in the `GraphTask` (`torch/csrc/autograd/graph_task.h`: its
# thread-local state gets `grad_mode = create_graph`), and every generated backward formula is
# made of differentiable ATen operations, so running it with grad mode on records it.
#
# </details>

# %% [markdown]
# `viz.draw_double_backward(y, x)` shows both graphs at once: it calls
# `torch.autograd.grad(y, x, create_graph=True)` and draws the graph of `y` beside the graph the
# backward pass recorded, its nodes named as PyTorch names them. The orange arrow joins the two:
# `TanhBackwardBackward0` points into the forward graph's `TanhBackward0`, because the saved result
# $\tanh x$ that its formula uses was made by the forward `tanh`.

# %%
x3 = torch.tensor([-1.0, 0.0, 2.0], requires_grad=True)
viz.draw_double_backward(torch.tanh(x3).sum(), x3, params={"x": x3})

# %% [markdown]
# ## 6. Build it: `gradcheck` and a custom `Function`
#
# ### Step 11.1: `gradcheck`
#
# Section 3 read `mini_autograd`'s `gradcheck`: two Jacobians, one numerical by central differences, one
# analytical from one backward pass per output entry with a unit vector as the starting gradient, compared
# with `np.allclose`. Write yours in [myautograd/gradcheck.py](myautograd/gradcheck.py#gradcheck), for a function with
# one output and any number of inputs. Three things to mind, all in the docstring:
#
# - Your package has no `autograd.grad`, so the analytical Jacobian comes from `.backward(seed)` and the
#   inputs' `.grad`, one output entry per backward. Gradients accumulate (chapter 05): set every input's `.grad`
#   to `None` before each backward, or the second backward would hand you the first two added up.
# - Nudge the numbers themselves, `inputs[i]._data`, one entry at a time (`_data.reshape(-1)` is a view of
#   them, so writing into it changes the tensor; `flatten()` would write into a copy), and put each entry back:
#   the next difference, and the analytical Jacobian, are taken at the original point.
# - Give both matrices the same layout: PyTorch's, which the docstring uses, with one row per input entry and
#   one column per output entry (the box at the end of section 3). So one backward fills one column.
#   `mini_autograd` builds the transpose, the textbook layout, and turns it round only to print it. When the
#   matrices disagree, raise `GradcheckError` (given) with PyTorch's first line, `Jacobian mismatch for
#   output 0 with respect to input i`.
#
# The check runs your `gradcheck` on every operation you wrote in step 03.1 and on three given ones (`log`,
# `tanh`, a product with broadcasting), where it must return `True`, and on an `exp` whose backward is wrong,
# where it must raise. Then it checks the checker: on random `Function`s it makes (one to three inputs of one to
# four entries, a numpy forward, a backward from a known Jacobian), it compares your verdict with
# `mini_autograd`'s own `gradcheck`, with the same `eps`, `atol` and `rtol` (PyTorch's defaults, `1e-6`, `1e-5`,
# `1e-3`, and others passed by name). Right ones, with entries up to 1000 and inputs whose backward returns `None`,
# must give `True`; ones whose backward is off at a single entry, by a little more than the tolerance
# $\text{atol} + \text{rtol}\,|\text{numerical}|$, must raise, and ones off by a little less must not.
#
# <details><summary>Hint 1</summary>
#
# Two Jacobians of the same function at the same point, compared entry by entry. Numerical: nudge one input entry,
# watch the whole output, which fills one row. Analytical: start backward from a gradient that is 1 at one output
# entry, read the whole input's `.grad`, which fills one column. Then the same for every input.
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# The mistakes to avoid: checking `inputs[0]` only (loop over every input; the error names the one that fails);
# reading `.grad` without clearing every input's `.grad` before each backward (they accumulate); nudging a copy
# (`flatten()`) instead of the numbers (`_data.reshape(-1)`), or leaving an entry nudged; forgetting to divide by
# `2 * eps`. Run the function again before each backward: a backward frees the graph it ran. A `.grad` that stays
# None means that input does not reach the output: a column of zeros, not a crash. Nudge both ways, with the `eps`
# you are given: a one-sided $(f(x + \epsilon) - f(x))/\epsilon$ is off by about $f''\epsilon/2$, which for
# `1000 * a * a` at 0 is already $10^{-3}$, far above `atol`. Compare every entry, every column, with the `rtol` and
# `atol` you are given: `np.allclose(analytical, numerical, rtol=rtol, atol=atol)`; `atol` lets an entry of 0 pass,
# `rtol` grows with the entry. Print the matrices in PyTorch's layout, one row per input entry.
#
# </details>
#
# <details><summary>A sketch</summary>
#
# ```python
# for i, x in enumerate(inputs):
#     flat = x._data.reshape(-1)
#     numerical = np.zeros((x.numel(), ___))
#     for j in range(x.numel()):
#         ___                              # flat[j] + eps: run; flat[j] - eps: run; put flat[j] back
#         numerical[j] = ___
#     analytical = np.zeros_like(numerical)
#     for k in range(___):
#         ___                              # every input's .grad to None; a seed of zeros with 1 at entry k
#         function(*inputs).backward(seed)
#         analytical[:, k] = ___
#     if not np.allclose(___):
#         raise GradcheckError(f"Jacobian mismatch for output 0 with respect to input {i},\n...")
# return True
# ```
#
# </details>

# %%
import buildtrack

buildtrack.check("11.1")

# %% [markdown]
# Compare with `mini_autograd`'s `gradcheck`, `numerical_jacobian` and `analytical_jacobian` in section 3: the
# same two matrices and the same comparison. It gets the analytical Jacobian from `autograd.grad`, which
# returns the gradients instead of adding them into `.grad`, so it has nothing to clear; it takes functions
# with several outputs; and it builds the textbook layout (the transpose of yours and PyTorch's), transposed
# back only for printing.
#
# Once step 11.1 is done, your `gradcheck` checks your package, one operation a line, and then catches a
# planted mistake: an `exp` whose backward returns `grad` as it came, forgetting to multiply by the local
# derivative $e^a$ (section 3's `ForgetfulExp` made the opposite slip: it kept $e^a$ and forgot `grad`).

# %%
mine = buildtrack.mine("11.1")
if mine:
    rng = np.random.default_rng(0)

    def float64_inputs(*shapes):
        """Leaves for gradcheck: float64, requiring grad, between 0.5 and 1.5 (log and powers stay smooth)."""
        return tuple(mine.tensor(rng.uniform(0.5, 1.5, shape), dtype=mine.float64, requires_grad=True)
                     for shape in shapes)

    every_op = [                                      # (expression, function, shapes of its inputs)
        ("a + b", lambda a, b: a + b, [(2, 3), (2, 3)]),
        ("a * b", lambda a, b: a * b, [(2, 3), (2, 3)]),
        ("a ** 3", lambda a: a ** 3, [(3,)]),
        ("a.exp()", lambda a: a.exp(), [(2, 2)]),
        ("a.sum()", lambda a: a.sum(), [(2, 3)]),
        ("a.mean()", lambda a: a.mean(), [(4,)]),
        ("a @ b", lambda a, b: a @ b, [(2, 3), (3, 2)]),
        ("a.log()       (given)", lambda a: a.log(), [(3,)]),
        ("a.tanh()      (given)", lambda a: a.tanh(), [(3,)]),
        ("a.sum(dim=1)  (given)", lambda a: a.sum(dim=1), [(2, 3)]),
        ("a * b, b of shape [3]", lambda a, b: a * b, [(2, 3), (3,)]),
    ]
    for expression, function, shapes in every_op:
        inputs = float64_inputs(*shapes)
        node = function(*inputs).grad_fn.name()
        try:
            verdict = mine.gradcheck.gradcheck(function, inputs)
        except mine.gradcheck.GradcheckError as error:
            verdict = str(error).split(",")[0]          # its first words: which output, which input
        print(f"{expression:<22} {node:<14} gradcheck: {verdict}")

    class ExpWithoutLocal(mine.Function):
        """exp, whose backward forgets the local derivative e^a: it passes grad on unchanged."""

        @staticmethod
        def forward(ctx, a):
            return mine.Tensor(np.exp(a._data))

        @staticmethod
        def backward(ctx, grad):
            return grad                               # wrong: grad * e^a

    print()
    try:
        print("ExpWithoutLocal, gradcheck:", mine.gradcheck.gradcheck(ExpWithoutLocal.apply, float64_inputs((3,))))
    except mine.gradcheck.GradcheckError as error:
        print(f"ExpWithoutLocal: {type(error).__name__}: {str(error).split(',')[0]}")

# %% [markdown]
# Every formula you wrote agrees with finite differences, and so do the given ones, broadcasting included
# (there the gradient of `b` is summed back to shape `[3]` by your engine). The planted backward is caught:
# with `grad` passed on unchanged, the analytical Jacobian is the identity where finite differences find
# $e^a$ on the diagonal.
#
# ### Step 11.2: a custom `Function`
#
# Section 1 taught `mini_autograd` $e^x$ with `MyExp`. Teach your package the sigmoid, $\sigma(a) = 1/(1 +
# e^{-a})$, the same way: write `Sigmoid.forward` and `Sigmoid.backward` in
# [myautograd/custom.py](myautograd/custom.py#Sigmoid.forward). `forward` computes with numpy on `a._data` and returns a
# `Tensor`; your `Function.apply` (step 02.2) records the node, named `SigmoidBackward` after the class, as
# PyTorch names a custom Function's node. The derivative is $\sigma'(a) = \sigma(a)\,(1 - \sigma(a))$, a
# function of the result alone: save the result with `ctx.save_for_backward`, as `MyExp` saved $e^x$, and
# multiply by the `grad` arriving from upstream. (Saving the input and computing $\sigma(a)$ again in `backward` is
# right too, at the cost of one more `exp`.) The check compares yours with PyTorch's `sigmoid` on random inputs up
# to $|a| = 1000$, in float32 and float64, value and gradient.
#
# <details><summary>Hint 1</summary>
#
# A custom `Function` in PyTorch: `forward` computes the value and saves on `ctx` what `backward` will need;
# `backward` returns `grad` times the local derivative. The sigmoid's derivative is made from its own result.
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# The derivative is `s * (1 - s)` with `s` the result: `a * (1 - a)` is a different function. Save `s` (or save `a`
# and compute `s` from it again in `backward`: both are right). Write the sigmoid as `1 / (1 + exp(-a))`: at
# $a = 1000$, `exp(a) / (1 + exp(a))` is `inf / inf`, `nan`, while `1 / (1 + exp(-a))` gives `1 / inf = 0` at the
# other end, no `nan`. Return a `Tensor` of `a`'s dtype from `forward` (wrap the numpy result). In `backward`,
# multiply by `grad` into a new tensor: changing `grad` in place changes it for every other node the engine handed it
# to (in `Sigmoid.apply(a) + a`, the `+` passes one gradient to both sides).
#
# </details>
#
# <details><summary>A sketch</summary>
#
# ```python
# @staticmethod
# def forward(ctx, a):
#     s = Tensor(___)                      # numpy, on a._data
#     ctx.save_for_backward(___)
#     return s
#
# @staticmethod
# def backward(ctx, grad):
#     s, = ctx.saved_tensors
#     return ___
# ```
#
# </details>

# %%
buildtrack.check("11.2")

# %% [markdown]
# Your `Sigmoid` has the shape of `MyExp` in section 1: `forward` computes the result and saves it, `backward`
# multiplies the upstream gradient by a derivative made from it. One difference: `MyExp` computed with a tensor
# operation, `x.exp()` (not recorded: `apply` runs `forward` with grad mode off), yours with numpy, as every
# operation of your package does. Once both steps are done, your `gradcheck` checks your `Sigmoid`, and its
# gradient equals that of `mini_autograd`'s built-in `torch.sigmoid`:

# %%
mine = buildtrack.mine("11.2")
if mine:
    points, weighting = [-2.0, 0.0, 3.0], [1.0, 2.0, 3.0]
    a_mine = mine.tensor(points, dtype=mine.float64, requires_grad=True)
    s = mine.custom.Sigmoid.apply(a_mine)
    print(s)
    print(tr("your gradcheck on your Sigmoid:"), mine.gradcheck.gradcheck(mine.custom.Sigmoid.apply, (a_mine,)))
    a_mine.grad = None
    (mine.custom.Sigmoid.apply(a_mine) * mine.tensor(weighting, dtype=mine.float64)).sum().backward()
    a_mini = torch.tensor(points, dtype=torch.float64, requires_grad=True)
    (torch.sigmoid(a_mini) * torch.tensor(weighting, dtype=torch.float64)).sum().backward()
    print(tr("gradient through your Sigmoid:  "), a_mine.grad)
    print(tr("gradient through torch.sigmoid: "), a_mini.grad)

# %% [markdown]
# ## Exercises
#
# **Exercise 11.1.** `SmoothReLU` computes the *softplus* $f(x) = \ln(1 + e^x)$, a smooth
# version of ReLU. Its `forward` is written; write its `backward`. (Hint: differentiate
# $\ln(1+e^x)$; `torch.sigmoid` may help.) The check runs `gradcheck` on it.
#
# <details><summary>Hint 1</summary>
#
# Differentiate $\ln(1 + e^x)$ with the chain rule.
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# $\frac{e^x}{1 + e^x}$ is the sigmoid $\sigma(x)$. And a `backward` always multiplies by the gradient arriving from upstream, `grad_output`.
#
# </details>
#
# <details><summary>A sketch</summary>
#
# `(x,) = ctx.saved_tensors`; `return grad_output * ___(x)`.
#
# </details>

# %%
# Exercise 11.1
class SmoothReLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return (1 + x.exp()).log()

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return ...  # your code here: the gradient with respect to x

# %% tags=["hide-input"]
check_exercise("11.1")

# %% [markdown]
# <details><summary>Show solution</summary>
#
# ```python
# # Exercise 11.1
# class SmoothReLU(torch.autograd.Function):
#     @staticmethod
#     def forward(ctx, x):
#         ctx.save_for_backward(x)
#         return (1 + x.exp()).log()
#
#     @staticmethod
#     def backward(ctx, grad_output):
#         (x,) = ctx.saved_tensors
#         return grad_output * torch.sigmoid(x)
# ```
#
# $\frac{d}{dx}\ln(1+e^x) = \frac{e^x}{1+e^x} = \frac{1}{1+e^{-x}} = \sigma(x)$, the sigmoid.
# The chain rule multiplies it by the gradient arriving from upstream, `grad_output`; leaving
# that out is the `ForgetfulExp` bug of section 3, which `gradcheck` would catch.
#
# </details>

# %% [markdown]
# **Exercise 11.2.** Predict the second derivative of $y = x^4$ at $x = 1$, the number that
# `torch.autograd.grad` gives when applied twice (the first time with `create_graph=True`).
#
# <details><summary>Hint 1</summary>
#
# The first `grad` returns $y' = 4x^3$, with a graph of its own.
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# Differentiate $4x^3$ once more by the power rule.
#
# </details>
#
# <details><summary>A sketch</summary>
#
# $y'' = ___ \cdot x^2$; put in $x = 1$.
#
# </details>

# %%
# Exercise 11.2
answer_11_2 = ...  # your answer here: a number

# %% tags=["hide-input"]
check_exercise("11.2")

# %% [markdown]
# <details><summary>Show solution</summary>
#
# ```python
# # Exercise 11.2
# answer_11_2 = 12.0
# ```
#
# $y' = 4x^3$ (that is what the first `grad` returns, with its own graph), $y'' = 12x^2$,
# so 12 at $x = 1$.
#
# </details>

# %% [markdown]
# **Exercise 11.3.** Write a hook `double` that makes the gradient passing through a tensor
# twice as large. (A function of `grad` that returns the new gradient, without changing `grad`
# itself.)
#
# <details><summary>Hint 1</summary>
#
# A tensor hook receives the gradient and may return a new one, which the engine uses from then on.
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# Return a new tensor; do not change `grad` itself in place.
#
# </details>
#
# <details><summary>A sketch</summary>
#
# `def double(grad):` / `return ___`.
#
# </details>

# %%
# Exercise 11.3
double = ...  # your answer here: a function of grad

# %% tags=["hide-input"]
check_exercise("11.3")

# %% [markdown]
# <details><summary>Show solution</summary>
#
# ```python
# # Exercise 11.3
# def double(grad):
#     return grad * 2
# ```
#
# The engine calls the hook with the gradient with respect to `h`, $2h = 6x$, and uses the
# returned `grad * 2` $= 12x$ from then on: `MulBackward0` of `x * 3` multiplies it by 3, so
# `x.grad` $= 36x = [36, -72]$ instead of $18x$. `grad * 2` is a new tensor; the `grad` the hook
# received is left as it was. Returning `None` (or forgetting the `return`) would leave the
# gradient unchanged, and `grad.mul_(2)` would change the argument in place, which a hook must
# not do.
#
# </details>

# %% [markdown]
# ## Recap
#
# - A custom operation is a `torch.autograd.Function` subclass with static `forward(ctx, ...)`
#   and `backward(ctx, grad_output)`; `ctx.save_for_backward` keeps what backward needs, and
#   `.apply(...)` runs it and records a node named `<Class>Backward`.
# - It is the same mechanism as the built-in operations: in mini_autograd `Exp` is a `Function`
#   just like `MyExp`; in PyTorch both end up as `Node`s (a `PyNode` for yours, generated C++
#   from `derivatives.yaml` for built-ins) and the engine treats them alike.
# - `gradcheck` compares the Jacobian your backward gives with central finite differences, in
#   `float64`; it raises `GradcheckError` ("Jacobian mismatch for output 0 with respect to
#   input 0") and catches bugs that a `sum().backward()` test misses, such as ignoring
#   `grad_output`.
# - Hooks let you see and replace gradients during backward: `tensor.register_hook(fn)` (e.g.
#   gradient clipping), `grad_fn.register_prehook(fn)` before a node, `grad_fn.register_hook(fn)`
#   after it. The engine's `call_function` runs them in that order around the node
#   (PyTorch: `engine.cpp`: `call_tensor_pre_hooks`, `call_pre_hooks`, `call_post_hooks`).
# - With `create_graph=True` the backward pass is itself recorded, so gradients can be
#   differentiated again: $x^3 \to 3 \to 6$ at $x=1$, and $\tanh$'s first and second
#   derivatives on a whole curve by the sum trick.
# - Your `myautograd` now has its own `gradcheck`, which passes every operation you wrote and catches a
#   backward that forgets its local derivative, and a custom `Function`, `Sigmoid`, recorded as
#   `SigmoidBackward` and checked by it (steps 11.1 and 11.2).
#
# [Next: 12 — Summary](12_summary.ipynb)
