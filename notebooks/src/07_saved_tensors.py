# %% [markdown]
# # 07 — Saved tensors: what backward keeps from the forward pass
#
# A backward formula is rarely a constant. The derivative of $x^2$ is $2x$: to use it, backward
# needs the $x$ of the forward pass. So while the forward pass runs, autograd keeps some tensors
# aside for later. These **saved tensors** (保存的张量) are why training needs more memory than
# inference, why a graph can be walked only once, and why some in-place operations are refused.
#
# **What you will learn**
#
# - which tensors each operation saves, read from its node's `_saved_*` attributes and drawn
#   with `viz.draw(..., show_saved=True)`: `x ** 2` keeps `x`, `exp` keeps its result, `x * 3`
#   keeps only the 3 — each operation keeps just what its formula needs
# - how a node saves its own output without creating a reference cycle, and how
#   `saved_tensors_hooks` lets you watch (or move) every tensor the graph saves
# - how many bytes a small network's graph holds in training, compared with `no_grad` and
#   `inference_mode`, measured by walking the graph (and, optionally, with Python's memory
#   allocator)
# - that `backward()` frees the saved tensors as it goes, hence the error of a second
#   backward, and what `retain_graph=True` changes
# - how the version counter catches an in-place change of a saved tensor, and how to fix it
# - gradient checkpointing, written here in a dozen lines: save less, recompute in backward, and
#   measure what that trades
# - to write saved tensors with a version counter, and their freeing after backward unless
#   `retain_graph`, in your own `myautograd`
#
# **Seed section:** article 000 §8 on saved tensors, "为什么反向要占显存" (why backward takes up
# GPU memory).
#
# **mini_autograd pieces introduced:** `SavedTensor` (`autograd/graph.py`),
# `FunctionCtx.save_for_backward` and `BackwardFunction.saved_tensors` /
# `release_variables` (`autograd/function.py`), the `_saved_*` attributes, the version counter
# (`Tensor._version`), and the line of the engine that frees saved tensors (in `evaluate_function`,
# right after `call_function` has run the node).
#
# **Time:** about 45 minutes to read and run, and about 20 more for the two build steps.

# %%
import time
import tracemalloc

import numpy as np
import matplotlib.pyplot as plt

import mini_autograd as torch
from mini_autograd import nn, viz
from coursetools import show_source, expect_error, tr
from exercises import check_exercise

# %% [markdown]
# ## 1. Backward needs numbers from the forward pass
#
# Article 000 §8 starts from the simplest case, $y = x^2$, whose derivative is $2x$. Without the
# value of $x$ from the forward pass, backward could not compute it. So the node that `x ** 2`
# records keeps `x`, and PyTorch lets you look at it as `grad_fn._saved_self`:

# %%
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x ** 2
print(y.grad_fn)
print("_saved_self is x:", y.grad_fn._saved_self is x)
print("_saved_exponent: ", y.grad_fn._saved_exponent)

# %% [markdown]
# The node keeps a reference to `x` itself (no copy), and the exponent as a plain number. With
# `show_saved=True`, `viz.draw` adds what each node saved, in orange:

# %%
viz.draw(y, params={"x": x}, show_saved=True)

# %% [markdown]
# Think of chapter 02's scratch paper: the forward pass writes down each step, and some steps
# also pin to their line the numbers they will need when the ledger is read backwards. For
# `y = x ** 2` the pinned number is `x`. Backward is then one multiplication: the gradient
# arriving, times $2x$.

# %%
y.backward(torch.ones_like(y))
print("x.grad:", x.grad, "= 2x")

# %% [markdown]
# ## 2. Each operation keeps only what its formula needs
#
# What a node saves follows from its derivative:
#
# | operation | derivative | what backward needs | saved as |
# |---|---|---|---|
# | `a + b` | 1 and 1 | nothing | — |
# | `a * b` | $b$ and $a$ | each input, **if the other needs a gradient** | `_saved_self`, `_saved_other` |
# | `x ** 2` | $2x$ | the input | `_saved_self` |
# | `x.exp()` | $e^x$ — the output itself | the **result** | `_saved_result` |
# | `x.tanh()` | $1 - \tanh^2 x$ | the result | `_saved_result` |
# | `x.log()` | $1/x$ | the input | `_saved_self` |
#
# Check the multiplication rule. With both inputs requiring grad, `x * w` keeps both:

# %%
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
w = torch.tensor([4.0, 5.0, 6.0], requires_grad=True)
m = x * w
print("x * w:  _saved_self is x:", m.grad_fn._saved_self is x, "| _saved_other is w:", m.grad_fn._saved_other is w)

# %% [markdown]
# With a constant, only one factor is kept. The gradient of `x * 3` with respect to `x` is 3, so
# the node keeps the 3 (as a 0-d tensor: PyTorch wraps the Python number) and does **not** keep
# `x`, which would only be needed for a gradient with respect to the 3 — and nobody asks for
# that one:

# %%
z = x * 3
print("x * 3:  _saved_other:", z.grad_fn._saved_other, "| _saved_self:", z.grad_fn._saved_self)
c = torch.tensor([4.0, 5.0, 6.0])
z = x * c
print("x * c:  _saved_other is c:", z.grad_fn._saved_other is c, "| _saved_self:", z.grad_fn._saved_self)

# %% [markdown]
# `exp` is the interesting one: its derivative *is* its output, so it saves the result rather
# than the input — backward then needs no new `exp` computation at all. `tanh` reasons the same
# way, and `log` keeps its input:

# %%
e = x.exp()
print("exp:   _saved_result:", e.grad_fn._saved_result)
t = x.tanh()
print("tanh:  _saved_result:", t.grad_fn._saved_result)
lg = x.log()
print("log:   _saved_self is x:", lg.grad_fn._saved_self is x)

# %% [markdown]
# All of them in one graph, with what each node saved:

# %%
out = (x ** 2 + x * 3 + x.exp()).sum()
viz.draw(out, params={"x": x}, show_saved=True)

# %% [markdown]
# `AddBackward0` and `SumBackward0` save no tensor (the sum keeps only the input's shape, to
# spread the gradient back over it). Everything saved is held until backward uses it — that is
# the memory cost of training, measured in section 4.
#
# ## 3. Saving an output without a reference cycle
#
# Look closely at `exp`'s saved result. It has the same numbers as `e`, and even the same
# `grad_fn` — but it is **not** the object `e`:

# %%
r = e.grad_fn._saved_result
print("r is e:", r is e, "| r.grad_fn is e.grad_fn:", r.grad_fn is e.grad_fn)

# %% [markdown]
# The reason is memory management. `e` points to its node (`e.grad_fn`). If the node also held
# `e`, the two would point at each other: a reference cycle, which Python's reference counting
# cannot free — the whole graph would have to wait for the cycle collector. So when a node saves
# **its own output**, it keeps only the data (and the version counter, section 6), and rebuilds
# a tensor pointing back to itself whenever the saved value is asked for. Inputs are not a
# problem (their `grad_fn` is an older node), so they are kept as they are — that is why
# `_saved_self is x` was `True`.
#
# Here is mini_autograd's `SavedTensor`, one per saved slot of a node. Read `__init__` (the
# inference-tensor check of chapter 06, then `is_output` deciding between keeping the tensor and
# keeping only its data), `unpack` (the checks made when backward asks for the value: freed,
# then the version) and `release`:

# %%
from mini_autograd.autograd.graph import SavedTensor

show_source(SavedTensor)

# %% [markdown]
# Who creates them? An operation's `forward` calls `ctx.save_for_backward(...)`, which only
# remembers the tensors; `Function.apply` then wraps each one in a `SavedTensor`, telling it
# whether the tensor is one of the node's outputs. In backward, `ctx.saved_tensors` unpacks them:

# %%
from mini_autograd.autograd.function import BackwardFunction, FunctionCtx

show_source(FunctionCtx.save_for_backward)
show_source(BackwardFunction.saved_tensors.fget)

# %% [markdown]
# And here is `exp`, the operation that saves its result, written as a `Function` — the same
# mechanism chapter 11 uses for custom operations:

# %%
show_source(torch.ops.unary.Exp)

# %% [markdown]
# <details><summary>In PyTorch: SavedVariable and derivatives.yaml</summary>
#
# `torch/csrc/autograd/saved_variable.h: class SavedVariable` and `saved_variable.cpp`. Its
# constructor saves the original tensor when it is a leaf or not an output ("without running the
# risk of reference cycles", says the comment there), and otherwise stores only the tensor's data
# without its `grad_fn`, plus the metadata to rebuild it; `SavedVariable::unpack` rebuilds the
# tensor and raises the errors of sections 5 and 6. Which tensors each operation saves comes from
# its formula: `exp(Tensor self)` has `self: grad * result.conj()` in
# `tools/autograd/derivatives.yaml`. For real numbers `conj()` changes nothing; what matters is
# that the formula uses the result, so the generated `ExpBackward0` (in
# `torch/csrc/autograd/generated/Functions.h`) has a `SavedVariable result_` member. Custom functions go through `ctx.save_for_backward` in
# `torch/autograd/function.py`, as here.
#
# </details>

# %% [markdown]
# ### Watching the saves: `saved_tensors_hooks`
#
# A node keeps what it saved until backward asks for it, and PyTorch lets you decide *how* it is
# kept. Inside a `torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook)` block, every
# tensor an operation saves is handed to `pack_hook`, and the graph stores whatever that returns:
# the tensor itself, a copy on the CPU, a file name. When backward needs the tensor, `unpack_hook`
# gets that object back and must return a tensor with the same values. Two hooks that only print
# show the saving rules of this section at work:

# %%
def pack_hook(t):
    print("pack:  ", t)
    return t            # whatever is returned is kept: a copy on the CPU, a file name, ...


def unpack_hook(packed):
    print("unpack:", packed)
    return packed       # must give back a tensor with the same values


x = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
    y = (x * x).exp().sum()     # MulBackward0 saves x twice, ExpBackward0 its result
print(tr("forward done"))
y.backward()
print(x.grad)

# %% [markdown]
# `x * x` saves `x` twice (as `other`, then as `self`: PyTorch saves a formula's inputs in
# alphabetical order of their names), `exp` saves its own result, and `sum` saves nothing (its
# formula needs only the input's shape). Backward unpacks each saved tensor when its node runs,
# newest node first: the exponential's result, then the two `x`. PyTorch 2.13 prints the same
# eight lines. `torch.autograd.graph.save_on_cpu()` is this mechanism with hooks that move each
# saved tensor to the CPU and back, to free GPU memory during the forward pass.

# %% [markdown]
# ## 4. What training costs: saved bytes, measured
#
# Article 000 §8 draws the conclusion: this is a main reason why training needs more memory
# (on a GPU, 显存) than inference. Inference needs only the result of the forward pass; training
# must also keep every saved tensor until backward has used it. Let us measure it on a small
# network: 64 inputs, three hidden layers of 256 with tanh, 10 classes, a batch of 128.

# %%
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(64, 256), nn.Tanh(), nn.Linear(256, 256), nn.Tanh(),
                      nn.Linear(256, 256), nn.Tanh(), nn.Linear(256, 10))
loss_fn = nn.CrossEntropyLoss()
inputs = torch.randn(128, 64)
targets = torch.randint(0, 10, (128,))
activation = 128 * 256 * 4                       # bytes of one hidden activation: 128 x 256 float32
print(tr(f"one hidden activation: 128 x 256 float32 = {activation:,} bytes"))

# %% [markdown]
# To measure, walk the graph: start at `loss.grad_fn`, follow `next_functions` (chapter 02) and
# add up the bytes of every tensor a node saved. The helpers in the next cell do that.
# `saved_bytes` counts an array once even when two nodes saved it, and leaves out the tensors
# named in `exclude`: the parameters and the input batch, which exist whether or not a graph is
# recorded. Run the cell; reading it is optional.
#
# <details><summary>Optional: how the helpers find and count the saved arrays</summary>
#
# In mini_autograd a node keeps its saved slots in `node._saved`, a tuple holding a
# `SavedTensor` (or `None`) per slot; a slot's `.data` is the numpy array (`None` once freed).
# Two details matter when adding up bytes. The same array can be saved by two nodes: the output
# of one tanh is also the input (`mat1`) that the next layer saves. And a transposed weight is a
# numpy *view*, an array that looks at another array's memory. So `owner` follows `array.base`
# back to the array that owns the memory, and `saved_bytes` counts each owner once.
#
# </details>
#
# <details><summary>In PyTorch: seeing what a node saved</summary>
#
# PyTorch's built-in nodes have no `_saved` tuple to walk; each saved tensor is a named
# attribute (`_saved_self`, `_saved_result`, ...). The official way to see every tensor as it is
# saved is `torch.autograd.graph.saved_tensors_hooks`, whose pack hook is called for each tensor
# a node saves.
#
# </details>

# %%
def owner(array):
    """The numpy array that owns the memory `array` looks at (a transpose is a view)."""
    while array.base is not None:
        array = array.base
    return array


def saved_tensors(output):
    """(node name, numpy array) for every tensor saved in the graph behind `output`."""
    found, seen, stack = [], set(), [output.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        for saved in getattr(node, "_saved", ()):                # AccumulateGrad has no _saved
            if saved is not None and saved.data is not None:     # None: not saved, or freed
                found.append((node.name(), saved.data))
        stack.extend(next_node for next_node, _ in node.next_functions)
    return found


def saved_bytes(output, exclude=()):
    """Bytes held by the saved tensors, each buffer counted once, leaving out the `exclude` tensors."""
    skip = {id(owner(t.detach().numpy())) for t in exclude}
    buffers = {id(owner(array)): owner(array) for _, array in saved_tensors(output)}
    return sum(array.nbytes for key, array in buffers.items() if key not in skip)

# %% [markdown]
# What the training graph saved, node by node (parameters and the input batch named):

# %%
loss = loss_fn(model(inputs), targets)
names = {id(owner(p.detach().numpy())): name for name, p in model.named_parameters()}
names[id(owner(inputs.numpy()))] = tr("the input batch")
for node_name, array in saved_tensors(loss):
    what = names.get(id(owner(array)), tr("activation (made by the forward)"))
    print(tr(f"{node_name:20} {str(list(array.shape)):11} {array.nbytes:>9,} bytes  {what}"))

# %% [markdown]
# Every `TanhBackward0` keeps its result (a 128 × 256 activation), and the `AddmmBackward0` of
# the next layer keeps the same array as its input `mat1`, to compute the weight's gradient.
# The weights saved as `mat2` (for the gradient flowing to the layer's input) are the
# parameters themselves, which exist anyway; so is the input batch. The extra memory of
# training is the rest — the activations — and they are gone under `no_grad` and
# `inference_mode`, where no graph is recorded at all:

# %%
modes = {tr("training"): torch.enable_grad, "no_grad": torch.no_grad,
         "inference_mode": torch.inference_mode}
graph_bytes = {}
for name, mode in modes.items():
    with mode():
        loss = loss_fn(model(inputs), targets)
    graph_bytes[name] = saved_bytes(loss, exclude=[*model.parameters(), inputs])
    print(tr(f"{name:15} loss.grad_fn: {loss.grad_fn is not None!s:5}  "
             f"activations saved for backward: {graph_bytes[name]:>9,} bytes"))

# %% [markdown]
# In training, 398,336 bytes = three hidden activations of 131,072 bytes, plus 5,120 bytes: the
# 128 × 10 log-probabilities, saved by both `LogSoftmaxBackward0` and `NllLossBackward0` and
# counted once. Under `no_grad` and `inference_mode` the loss has no `grad_fn`: there is no
# graph, so nothing is kept for backward.
#
# That count reads only the `_saved` slots, and `NllLossBackward0` keeps two more tensors. In
# PyTorch they are saved like the others, as `loss.grad_fn._saved_target` and
# `loss.grad_fn._saved_total_weight`: the targets, 128 class indices in int64 (1,024 bytes),
# and the total weight that `mean` divides by, a 0-d float32 tensor (4 bytes). mini_autograd's
# node keeps them under the same names, outside `_saved`. The targets exist whether or not a
# graph is recorded, like the input batch; the total weight is made by the forward. So the
# complete bill is 398,340 bytes, or 399,364 bytes counting the targets. In PyTorch 2.13, the
# tensors that `saved_tensors_hooks` (box above) receives for this network, each buffer counted
# once and the parameters and the input batch left out, add up to the same 399,364 bytes.
#
# The same walk on networks of 1 to 6 hidden layers shows how the bill grows:

# %%
def network(depth):
    """The network above with `depth` hidden layers of 256."""
    torch.manual_seed(0)
    layers = [nn.Linear(64, 256), nn.Tanh()]
    for _ in range(depth - 1):
        layers += [nn.Linear(256, 256), nn.Tanh()]
    return nn.Sequential(*layers, nn.Linear(256, 10))


for depth in range(1, 7):
    net = network(depth)
    saved = saved_bytes(loss_fn(net(inputs), targets), exclude=[*net.parameters(), inputs])
    print(tr(f"hidden layers: {depth}   saved: {saved:>7,} bytes = {saved // activation} x {activation:,} "
             f"+ {saved % activation:,}"))

# %% [markdown]
# One more activation, 131,072 bytes, for every hidden layer; and an activation itself grows
# with the batch size. For a real model on a GPU the same count, in gigabytes, decides the
# largest batch you can train with. Article 000 notes that this accounting comes back again and
# again: mixed precision keeps saved tensors in 16-bit numbers (half the bytes), gradient
# checkpointing keeps fewer of them (section 7), and FSDP splits parameters, gradients and
# optimizer state across GPUs to make room.

# %% [markdown]
# ### Optional: what the memory allocator sees
#
# The graph walk counts what the graph keeps. Python's `tracemalloc` sees every allocation,
# numpy's arrays included, so it also sees what is made and freed *during* the forward pass.
# The next cell measures two numbers over one forward pass, for each mode: the memory still
# **held** when it ends (with the loss alive, as it is when backward starts), and the **peak**.
# The allocator also counts small Python objects (nodes, tensors), so the numbers are printed
# rounded, in units of one hidden activation (131,072 bytes).

# %%
def forward_memory(net, mode):
    """(held after the forward, peak during it), in activations above what existed before."""
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    with mode():
        loss = loss_fn(net(inputs), targets)
    held, peak = tracemalloc.get_traced_memory()      # measured while the loss is alive
    del loss
    tracemalloc.stop()
    return (held - base) / activation, (peak - base) / activation


forward_memory(model, torch.enable_grad)          # a first run, so one-time allocations don't count
print(tr("                   held after forward   peak during forward"))
for name, mode in modes.items():
    held, peak = forward_memory(model, mode)
    print(tr(f"{name:15}       ≈ {held:.0f} activations       ≈ {peak:.0f} activations"))

# %% [markdown]
# **Held:** about 3 activations in training — the three the graph walk found, plus a few
# kilobytes of nodes — and about 0 under `no_grad` and `inference_mode`, where only the loss is
# left.
#
# **Peak:** about 6 activations in training and about 4 in the other two modes, more than is
# held in every mode: a layer needs working space while it computes. Here most of it is inside
# `tanh`. mini_autograd computes tanh in float64 and rounds the result to float32 (so that it
# prints PyTorch's digits), so for a moment it holds the float32 input, the float64 result (the
# size of two activations) and the float32 result it is rounded to: about 4 activations, the
# peak of `no_grad`. In training the last tanh runs while the graph already keeps the two
# earlier layers' activations: the peak is 2 more, about 6. (`inference_mode` saves no further
# memory here; in PyTorch its gain is speed, chapter 06.)
#
# The same two measurements on the networks of 1 to 6 hidden layers:

# %%
peaks = {name: [forward_memory(network(depth), modes[name])[1] for depth in range(1, 7)]
         for name in (tr("training"), "no_grad")}
print(tr("hidden layers    ") + "".join(f"{depth:5}" for depth in range(1, 7)))
for name, values in peaks.items():
    print(tr(f"peak of {name:9}") + "".join(f"{value:5.0f}" for value in values), tr("  activations"))
fig, ax = plt.subplots(figsize=(6, 3.2))
for name, marker in [(tr("training"), "o"), ("no_grad", "s")]:
    ax.plot(range(1, 7), peaks[name], marker=marker, label=name)
ax.set_xlabel(tr("hidden layers"))
ax.set_ylabel(tr("peak of one forward (activations)"))
ax.set_ylim(bottom=0)
ax.set_title(tr("Training keeps every layer's activation; no_grad does not"))
ax.legend()
plt.show()

# %% [markdown]
# In training the peak grows by one activation per hidden layer, from about 4 with one layer to
# about 9 with six: the graph keeps each layer's activation until backward. Under `no_grad` it
# stays at about 4 however deep the network, since each activation is freed as soon as the next
# layer has used it: only one layer's working space is ever needed.

# %% [markdown]
# ## 5. Backward frees what it has used
#
# The memory of section 4 is held until backward — and no longer. As the engine finishes each
# node, it releases that node's saved tensors, unless `retain_graph=True`:

# %%
loss = loss_fn(model(inputs), targets)
print(tr(f"before backward: {saved_bytes(loss, exclude=[*model.parameters(), inputs]):>9,} bytes of activations saved"))
loss.backward()
print(tr(f"after backward:  {saved_bytes(loss, exclude=[*model.parameters(), inputs]):>9,} bytes"))
model.zero_grad()

# %% [markdown]
# The same on the small example, where the picture marks each saved slot as freed:

# %%
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
out = (x ** 2 + x * 3 + x.exp()).sum()
pow_node = out.grad_fn.next_functions[0][0].next_functions[0][0].next_functions[0][0]
print(pow_node.name(), tr("saved before backward:"), pow_node._saved_self)
out.backward()
viz.draw(out, params={"x": x}, show_saved=True)

# %% [markdown]
# Each `SavedTensor` slot of the node is now marked freed and holds no data; asking for the
# saved value fails on purpose, with the `RuntimeError` you met in chapter 06 (caught and printed):

# %%
slot = pow_node._saved[0]                    # mini_autograd's SavedTensor behind _saved_self
print("freed:", slot.freed, "| data:", slot.data)
try:
    pow_node._saved_self
except RuntimeError as error:
    print("RuntimeError:", error)

# %% [markdown]
# The release happens in the engine's `evaluate_function`, as soon as `call_function` has run the
# node (its hooks, its backward formula, the checks of `validate_outputs` and its post-hooks):
# `if not graph_task.keep_graph: node.release_variables()`. `keep_graph` is the
# `retain_graph` argument. `release_variables` calls `SavedTensor.release` on every slot, which
# drops the data and marks the slot freed:

# %%
show_source(torch.autograd.engine.evaluate_function,
            only=["outputs = call_function", "graph_task.keep_graph", "release_variables"])
show_source(BackwardFunction.release_variables)

# %% [markdown]
# <details><summary>In PyTorch: the same line in engine.cpp</summary>
#
# `torch/csrc/autograd/engine.cpp: Engine::evaluate_function` has the same
# `if (!graph_task->keep_graph_) fn.release_variables();`, right after `call_function` returns.
# `call_function` itself only warns the node, before running it, with `fn.will_release_variables()`.
# Each generated node's `release_variables()` calls `reset_data()` on its `SavedVariable` members
# (for `ExpBackward0`: `result_.reset_data()`). Because the release comes after the post-hooks, a
# hook registered with `y.grad_fn.register_hook(...)` can still read `y.grad_fn._saved_self`.
#
# </details>
#
# So a second backward through the same graph finds the slots empty:
#
# The cell below fails on purpose at its last line, with a `RuntimeError`: the second `backward()` needs
# `x`, which the first one freed.

# %%
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = (x ** 2).sum()
y.backward()
with expect_error(RuntimeError):
    y.backward()

# %% [markdown]
# With `retain_graph=True` the first backward keeps the saved tensors; they are freed by the
# first backward called without it:

# %%
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = (x ** 2).sum()
pow_node = y.grad_fn.next_functions[0][0]
y.backward(retain_graph=True)
print(tr("after backward(retain_graph=True): _saved_self is x:"), pow_node._saved_self is x, "| x.grad:", x.grad)
y.backward()
print(tr("after a second backward():         x.grad:"), x.grad)

# %% [markdown]
# One consequence shows that the error is really about saved tensors, not about the graph as
# such: a graph whose nodes saved nothing can be walked twice. `x + 1` and `sum` keep no tensor:

# %%
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = (x + 1).sum()
y.backward()
y.backward()                       # no error: there was nothing to free
print("x.grad:", x.grad)

# %% [markdown]
# Do not rely on it — it is an accident of which operations you used. When you need a second
# backward, pass `retain_graph=True`.
#
# ## 6. In-place changes and the version counter
#
# A saved tensor is a reference, not a copy. If the tensor is changed in place after it was
# saved, backward would compute with the wrong numbers. To catch that, every tensor carries a
# **version counter**, `_version`, which every in-place operation raises by one:

# %%
v = torch.tensor([1.0, 2.0])
print(tr("new tensor:     "), v._version)
v.add_(1)
print(tr("after add_(1):  "), v._version)
v.mul_(2)
print(tr("after mul_(2):  "), v._version)
v[0] = 5.0
print(tr("after v[0] = 5: "), v._version)
u = v + 1
print(tr(f"v + 1 makes a new tensor; v is still at {v._version} and the new one at {u._version}"))

# %% [markdown]
# Each `SavedTensor` remembers the version at which it was saved (`saved_version`). When
# backward unpacks it, `unpack` compares that with the tensor's current version. Here `exp`
# saved its result at version 0, and `add_(1)` then changed it:
#
# The next cell fails on purpose, with a `RuntimeError`: backward finds `y` at version 1, not 0.

# %%
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x.exp()
y.add_(1)
with expect_error(RuntimeError):
    y.sum().backward()

# %% [markdown]
# Every part of the message is useful: `[torch.FloatTensor [3]]` is the type and shape of the
# modified tensor, "output 0 of Exp" says which operation made it (so which node saved it), and
# "is at version 1; expected version 0" says one in-place change happened in between. The hint
# names PyTorch's anomaly mode, which records a traceback of the forward pass for each node so
# that the error can point at the line that made it.
#
# Note that the in-place operation itself was allowed, and recorded (`y.grad_fn` is now an
# `AddBackward0`); the error comes only when backward needs the old value. The fixes: make a new
# tensor instead of changing the saved one — out of place, or on a copy:

# %%
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x.exp()
y = y + 1                     # out of place: a new tensor; exp's saved result is untouched
y.sum().backward()
print(tr("out of place:"), x.grad)

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x.exp()
y_shifted = y.clone()
y_shifted.add_(1)             # in place, but on a copy
(y + y_shifted).sum().backward()
print(tr("on a clone:  "), x.grad, tr(" (d/dx of e^x + (e^x + 1) = 2e^x)"))

# %% [markdown]
# And an in-place change of a tensor that **no node saved** is fine — the check is precise,
# not a blanket ban. Here `h` feeds only an addition, which saves nothing:

# %%
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
h = x * 2
s = h + 1
h.mul_(10)
s.sum().backward()
print("x.grad:", x.grad)

# %% [markdown]
# <details><summary>In PyTorch: the version counter in C++</summary>
#
# The counter is `c10/core/TensorImpl.h: struct VariableVersion`, shared by a
# tensor and its views (and by `detach()`, chapter 06); in-place kernels call `bump()`. The
# comparison and the message are in `torch/csrc/autograd/saved_variable.cpp:
# SavedVariable::unpack`. Inference tensors (chapter 06) have no counter — which is exactly why
# they can never be saved.
#
# </details>

# %% [markdown]
# ## 7. Gradient checkpointing: memory for compute
#
# Section 4 showed that training keeps one activation per layer until backward. **Gradient
# checkpointing** (梯度检查点) trades compute for that memory: run a segment of the network
# without saving anything, keep only the segment's **input**, and during backward run the
# segment's forward again — this time recording — to get the saved tensors back just when they
# are needed.
#
# It fits in one custom `autograd.Function` (chapter 11 covers these in depth; the mechanism is
# the one `Exp` used above). `forward` runs with recording off — `Function.apply` sees to that
# — and saves only the inputs. `backward` re-runs the segment with recording on, from detached
# copies of the inputs, and calls `torch.autograd.backward` on the recomputed output: that
# inner backward fills the gradients of the segment's parameters, and of the detached inputs,
# which `backward` returns.

# %%
class Checkpoint(torch.autograd.Function):
    """Run fn(*inputs) without saving its activations; recompute them in backward."""

    @staticmethod
    def forward(ctx, fn, *inputs):
        ctx.fn = fn
        ctx.save_for_backward(*inputs)              # only the inputs are kept
        return fn(*inputs)                          # runs with recording off: nothing saved inside

    @staticmethod
    def backward(ctx, grad_output):
        inputs = [x.detach().requires_grad_(x.requires_grad) for x in ctx.saved_tensors]
        with torch.enable_grad():                   # backward runs with recording off: switch it on
            output = ctx.fn(*inputs)                # the forward again, recorded this time
        torch.autograd.backward(output, grad_output)   # fills the parameters' .grad, and inputs' .grad
        return (None,) + tuple(x.grad for x in inputs)  # no gradient for fn itself


def checkpoint(fn, *inputs):
    return Checkpoint.apply(fn, *inputs)

# %% [markdown]
# On a small example first: a layer `l0`, then a segment of two layers run through
# `checkpoint`. The graph has a single `CheckpointBackward` node for the whole segment, saving
# one tensor, `h`; the segment's parameters do not even appear — backward reaches them by
# running the segment again. (The `result` saved by `TanhBackward0` is the same array as `h`:
# stored once, drawn twice.)

# %%
torch.manual_seed(0)
l0 = nn.Linear(2, 3)
segment = nn.Sequential(nn.Linear(3, 3), nn.Tanh(), nn.Linear(3, 1), nn.Tanh())
x = torch.randn(4, 2)
h = l0(x).tanh()
out = checkpoint(segment, h).sum()
viz.draw(out, params={"l0.weight": l0.weight, "l0.bias": l0.bias}, names={"h": h},
         show_saved=True, show_values=False)

# %% [markdown]
# Now a deeper network: a first layer, then 16 hidden layers of 128 (Linear + tanh) in 4
# segments of 4, then a 10-class head; a batch of 128. Every `Linear` counts its forward calls,
# so that the extra compute can be counted exactly, not only timed.

# %%
class CountingLinear(nn.Linear):
    """nn.Linear that counts how often its forward runs."""
    calls = 0

    def forward(self, input):
        CountingLinear.calls += 1
        return super().forward(input)


torch.manual_seed(0)
stem = nn.Sequential(CountingLinear(64, 128), nn.Tanh())
segments = [nn.Sequential(*[m for _ in range(4) for m in (CountingLinear(128, 128), nn.Tanh())])
            for _ in range(4)]
head = CountingLinear(128, 10)
parameters = [*stem.parameters(), *[p for s in segments for p in s.parameters()], *head.parameters()]
x = torch.randn(128, 64)
targets = torch.randint(0, 10, (128,))


def deep_loss(use_checkpoint):
    h = stem(x)                                     # outside: its output requires grad
    for segment in segments:
        h = checkpoint(segment, h) if use_checkpoint else segment(h)
    return loss_fn(head(h), targets)


def gradients(use_checkpoint):
    for p in parameters:
        p.grad = None
    CountingLinear.calls = 0
    loss = deep_loss(use_checkpoint)
    loss.backward()
    return loss.item(), CountingLinear.calls, [p.grad.numpy().copy() for p in parameters]


loss_plain, calls_plain, grads_plain = gradients(use_checkpoint=False)
loss_ckpt, calls_ckpt, grads_ckpt = gradients(use_checkpoint=True)
print(tr(f"loss: {loss_plain:.4f} plain, {loss_ckpt:.4f} checkpointed"))
print(tr(f"gradients of all {len(parameters)} parameters identical:"),
      all(np.array_equal(a, b) for a, b in zip(grads_plain, grads_ckpt, strict=True)))
print(tr(f"Linear forward calls in one training step: {calls_plain} plain, {calls_ckpt} checkpointed"))

# %% [markdown]
# The gradients are identical, bit for bit: the recomputation repeats exactly the same
# arithmetic. The price is visible in the count: the 16 layers inside the segments run their
# forward twice, 34 calls instead of 18. (The first layer stays outside: a checkpointed segment
# needs an input that requires grad, or its node would not be recorded at all — PyTorch's
# reentrant checkpoint warns about the same thing.)
#
# Now the memory, measured both ways (the graph walk of section 4, and `tracemalloc` as in its
# optional part), and the time of one forward + backward. For the peak during backward, the
# parameters' `.grad` tensors are made beforehand (filled with zeros), so that both runs
# measure activations and temporary buffers, not the gradients they both need.

# %%
def step_memory(use_checkpoint):
    """(bytes of activations saved, bytes held after forward, peak bytes during backward)."""
    for p in parameters:
        p.grad.zero_()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    loss = deep_loss(use_checkpoint)
    held = tracemalloc.get_traced_memory()[0] - base
    saved = saved_bytes(loss, exclude=[*parameters, x])
    tracemalloc.reset_peak()
    loss.backward()
    peak = tracemalloc.get_traced_memory()[1] - base
    tracemalloc.stop()
    return saved, held, peak


results = {tr("plain"): step_memory(False), tr("checkpointed"): step_memory(True)}
for name, (saved, _, _) in results.items():
    print(tr(f"{name:13} activations saved by the graph: {saved:>9,} bytes"))

# %% [markdown]
# The graph walk is exact. The allocator's figures include a few kilobytes of Python objects
# that vary slightly between Python versions, so this notebook's automatic checks do not compare
# the next cell's output:

# %%
# NBVAL_IGNORE_OUTPUT
print(tr("                held after forward  peak in backward"))
for name, (_, held, peak) in results.items():
    print(f"{name:14}{f'{held / 1e6:.2f} MB':>20}{f'{peak / 1e6:.2f} MB':>18}")

# %%
step_times = {tr("plain"): [], tr("checkpointed"): []}
for _ in range(6):                                  # take turns; keep the fastest of each
    for name in step_times:
        for p in parameters:
            p.grad = None
        start = time.perf_counter()
        deep_loss(name == tr("checkpointed")).backward()
        step_times[name].append(time.perf_counter() - start)
step_time = {name: min(t) for name, t in step_times.items()}
for name, seconds in step_time.items():
    print(tr(f"{name:13} forward + backward: {seconds * 1e3:.1f} ms"))

# %%
fig, (ax_memory, ax_time) = plt.subplots(1, 2, figsize=(9, 3.5))
names = list(results)
positions = np.arange(len(names))
ax_memory.bar(positions - 0.2, [results[n][1] / 1e6 for n in names], width=0.4, label=tr("held after forward"))
ax_memory.bar(positions + 0.2, [results[n][2] / 1e6 for n in names], width=0.4, label=tr("peak in backward"))
ax_memory.set_xticks(positions, names)
ax_memory.set_ylabel(tr("memory (MB)"))
ax_memory.set_title(tr("Memory of one training step"))
ax_memory.legend(fontsize=8)
ax_time.bar(names, [step_time[n] * 1e3 for n in names], color=["tab:blue", "tab:orange"])
ax_time.set_ylabel(tr("forward + backward (ms)"))
ax_time.set_title(tr("Time of one training step"))
plt.tight_layout()
plt.show()

# %% [markdown]
# The trade-off, in numbers:
#
# - **Memory.** Without checkpointing the graph keeps all 17 hidden activations (and the
#   log-probabilities) until backward. With it, it keeps the 4 segment inputs and the output of
#   the last segment — under a third of the bytes. The peak during backward falls less, because
#   backward rebuilds one segment's activations at a time (4 layers' worth) on top of what is
#   held. In general, with $n$ layers in $k$ segments the activations held drop from about $n$
#   to about $k + n/k$ — smallest near $k = \sqrt{n}$.
# - **Compute.** Every checkpointed layer runs its forward twice: 34 layer forwards per step
#   instead of 18. How much time that adds depends on how the step's time splits between forward
#   and backward; with a backward costing about two forwards, as is typical for large matrices,
#   recomputing everything adds about a third. The timings above come from a shared machine and
#   are noisy; the count is the exact measure of the extra work.
#
# Memory that stays free can hold a larger batch or a larger model, which is why checkpointing
# is standard for training large transformers.
#
# <details><summary>In PyTorch: torch.utils.checkpoint</summary>
#
# `torch/utils/checkpoint.py`. `CheckpointFunction` (used with
# `checkpoint(fn, *args, use_reentrant=True)`, and in PyTorch 2.13 also when `use_reentrant` is
# not given, after a warning) is the class above plus care for details: it saves
# and restores the random-number state, so that dropout draws the same mask when the forward is
# repeated, and the autocast state. Its `backward` re-runs the function under `enable_grad()` on
# detached inputs and calls `torch.autograd.backward`, as ours does. The recommended
# `use_reentrant=False` variant works differently: it lets the forward run normally but installs
# `torch.autograd.graph.saved_tensors_hooks` whose pack hook drops each saved tensor and whose
# unpack hook recomputes it — so it also works when no input requires grad.
#
# </details>

# %% [markdown]
# ### Memory over time: one training step, step by step
#
# The numbers so far were taken at one moment: when the forward pass ends, or at the peak.
# `viz.record_memory` follows the memory through a whole step. It runs a forward pass, then a real
# backward, and after every step it reads two numbers: the bytes of the saved tensors still held,
# read from the graph's nodes (each array counted once, the parameters and the input batch left
# out, as in section 4), and the bytes of the gradients waiting in the engine's input buffers
# (chapter 08), read from the engine through the tracer that `viz.trace_backward` uses. A forward
# step is one operation; a backward step is one node run by the engine. Four runs of the deep
# network above: a plain training step, the same forward pass under `no_grad`, a backward with
# `retain_graph=True`, and the checkpointed step. Each run is a `MemoryCurve`, plain lists of numbers
# (`steps`, `saved`, `buffered`, `names`) with a few summaries, printed under the plot in bytes.

# %%
def no_grad_loss():
    with torch.no_grad():
        return deep_loss(False)


kept = [*parameters, x]                 # they exist anyway: not counted
runs = [viz.record_memory(lambda: deep_loss(False), tr("training"), exclude=kept),
        viz.record_memory(no_grad_loss, "no_grad", exclude=kept),
        viz.record_memory(lambda: deep_loss(False), "retain_graph=True", exclude=kept, retain_graph=True),
        viz.record_memory(lambda: deep_loss(True), tr("checkpointed"), exclude=kept)]
viz.plot_memory(runs)
plt.show()
for run in runs:
    start = run.at_backward_start() or (0, 0)
    print(f"{run.label:18} peak_saved: {run.peak_saved:>9,}   at_backward_start: {start[0]:>9,}   "
          f"at_end: {run.at_end()[0]:>9,}   peak_buffered: {run.peak_buffered:>7,}")

# %% [markdown]
# In training the saved bytes climb by one activation at each `tanh`, up to 1,119,232 bytes when
# backward starts: the 17 hidden activations and the log-probabilities, section 7's count.
# Backward then gives them back node by node, each node releasing what it saved as soon as it has
# run, down to 0. The dotted lines are the gradients waiting in input buffers, at most 131,584 bytes
# here: one or two 128 × 128 gradients at a time, small next to what the graph saves. Under
# `no_grad` the line stays flat at zero: nothing is saved. With `retain_graph=True` nothing is
# released, and 1,119,232 bytes are still held after the last node, until the graph itself is
# dropped. With checkpointing the forward pass keeps only the segments' inputs and the last
# segment's output, 332,800 bytes when backward starts; each `CheckpointBackward` then runs its
# segment again, so the saved bytes rise inside the backward pass, one segment at a time. Its peak,
# 524,288 bytes, is under half of training's.

# %% [markdown]
# ## 8. Build it: saved tensors, versions, freeing
#
# ### Step 07.1: saved tensors and the version counter
#
# Your operations in [myautograd/ops.py](myautograd/ops.py) already save what their formulas need: `forward`
# calls `ctx.save_for_backward(...)`, and the `backward` you wrote in step 03.1 reads `ctx.saved_tensors`.
# Both shipped working in their simplest form: `save_for_backward` keeps the tensors as they are, and
# `saved_tensors` hands them back without a look. So your package does not yet notice the mistake of
# section 6: a saved tensor changed in place before backward. Rewrite both in
# [myautograd/function.py](myautograd/function.py#BackwardFunction.save_for_backward), the way `SavedTensor` does it (section 3):
#
# - `save_for_backward` keeps each tensor together with its `_version` at that moment;
# - `saved_tensors` makes `unpack`'s two checks, in its order: saved tensors already freed (step 07.2 sets
#   `self.saved = None`) raise the second-backward error of section 5, and a tensor whose version has moved
#   on raises the error of section 6. The words are given, as `SECOND_BACKWARD_ERROR` and `modified_error`.
#
# A counter is only useful if something moves it. Every in-place operation of your `Tensor` (`add_`, `sub_`,
# `mul_`, `zero_`, given) ends in one method, `Tensor._write`, which you write in
# [myautograd/tensor.py](myautograd/tensor.py#Tensor._write): write the new numbers *into* the tensor's array
# (`self._data[...] = data`: a `detach()`ed tensor shares that array, chapter 06, and must see the change),
# add one to `_version`, and refuse what its docstring lists: a leaf that requires grad while recording is on,
# as PyTorch does, and a non-leaf that requires grad while recording, which PyTorch would record and your
# package does not.
#
# <details><summary>Hint 1</summary>
#
# PyTorch's `SavedVariable` keeps, beside the tensor, the version the tensor had when it was saved; `unpack` compares
# it with the version the tensor has now. Every in-place operation moves the version on. So: save pairs, check them
# on the way out, and bump the version in `_write`.
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# Save the version the tensor has *at that moment*, not 0: a tensor changed before it was saved is fine. In
# `saved_tensors`, freed comes first (`self.saved is None`), then every pair, not only the first (in
# `(x * w).sum()`, `w` is the second); return the tensors only, not the pairs. In `_write`, refuse only while
# recording is on and the tensor requires grad: a leaf gets PyTorch's error, a non-leaf myautograd's (letting it
# through gives silently wrong gradients). Under `no_grad` the change is allowed, and it still bumps the version.
# Every write bumps it, also one that leaves the values as they were (`w.mul_(1.0)`): PyTorch does not look at
# the numbers.
#
# </details>
#
# <details><summary>A sketch</summary>
#
# ```python
# def save_for_backward(self, *tensors):
#     self.saved = tuple(___ for t in tensors)
#
# @property
# def saved_tensors(self):
#     if ___:
#         raise RuntimeError(SECOND_BACKWARD_ERROR)
#     for tensor, version in self.saved:
#         if ___:
#             raise RuntimeError(modified_error(tensor, version))
#     return ___
#
# def _write(self, data):
#     if ___:                              # requires grad, and recording is on
#         ___                              # one error for a leaf, another for a non-leaf
#     self._data[...] = data
#     ___
#     return self
# ```
#
# </details>

# %%
import buildtrack

buildtrack.check("07.1")

# %% [markdown]
# Compare with `mini_autograd`'s pieces listed in section 3. There the work is shared out:
# `FunctionCtx.save_for_backward` only remembers the tensors, `Function.apply` wraps each in a `SavedTensor`,
# and `saved_tensors` calls each slot's `unpack`, which makes the same two checks as yours, freed first. Two
# simplifications of yours are worth knowing:
#
# - `SavedTensor` keeps only the *data* of a node's own output, to avoid section 3's reference cycle. Your
#   `Exp` saves its result tensor itself, so the result holds its node and the node holds the result: a
#   cycle, which Python frees later, with its cycle collector, instead of at once.
# - `mini_autograd`'s version counter is an object shared by a tensor, its views and its detached copies
#   (`_version_counter`, as PyTorch's `VariableVersion`), bumped by `_bump_version`. Yours is an object too
#   (the given `VersionCounter`), shared with `detach()`ed tensors since step 06.2, but your package has no
#   views to share it with.
#
# ### Step 07.2: freeing saved tensors; `retain_graph`
#
# Section 5 showed the line of the engine that frees: in `evaluate_function`, right after the node has run,
# `if not graph_task.keep_graph: node.release_variables()`. Your nodes have the same method under a
# shorter name, `release_saved()` (given: it sets `self.saved = None`, which your `saved_tensors` now
# reports). Call it in your `run_backward` in [myautograd/engine.py](myautograd/engine.py#run_backward), after each node has
# run, unless `retain_graph`; and let `Tensor.backward` in [myautograd/tensor.py](myautograd/tensor.py#Tensor.backward) pass its
# `retain_graph` argument on to `run_backward`. Free *after* the node ran, not before: its formula still needs
# what it saved.
#
# <details><summary>Hint 1</summary>
#
# PyTorch frees a node's saved tensors right after the node ran, in `evaluate_function`, unless the graph is kept
# (`retain_graph=True`). The check judges what your engine does, not how it is written (the given
# `release_saved()` or a line of your own are both fine): after a backward without `retain_graph`, the nodes hold
# nothing saved and a second backward raises the second-backward error; with `retain_graph=True` a second backward
# runs and the gradients add up.
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# Two places to change. `Tensor.backward` must pass `retain_graph` on: if it does not, `retain_graph=True` is quietly
# ignored and the second backward fails. In `run_backward`, free *after* `node.apply(grad)`: freed before, the
# formula cannot read what it saved, and even the first backward fails. Free every node that ran, not only the
# root, and each one as soon as it has run, not all of them at the end: the check looks from inside a backward.
#
# </details>
#
# <details><summary>A sketch</summary>
#
# ```python
# # in run_backward, for each node:
# next_grads = node.apply(grad)
# if ___:
#     ___                                  # free what this node saved
# # ... then deliver next_grads as before
#
# # in Tensor.backward:
# engine.run_backward(self, gradient, ___)
# ```
#
# </details>

# %%
buildtrack.check("07.2")

# %% [markdown]
# The lines of `evaluate_function` and `release_variables` in section 5 are `mini_autograd`'s version: the same
# line, in the same place.
#
# With both steps done, your package stops the two mistakes of this chapter with PyTorch's words. The first is
# the classic one of training loops: an update of the weights (`w.sub_(...)` under `no_grad`, as an optimizer
# does, chapter 10) between the forward pass and `backward()`, so the `w` that `w * w` saved is no longer the
# `w` of the forward pass. The second is a second backward without `retain_graph`. Each function returns the
# error message, for either package:

# %%
def update_before_backward(torch):
    """The weights change between forward and backward: the w that w * w saved has moved on."""
    w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    loss = (w * w).sum()
    with torch.no_grad():
        w.sub_(0.1)                   # an optimizer step, one line too early
    try:
        loss.backward()
    except RuntimeError as error:
        return f"RuntimeError: {error}"
    return tr("no error")


def backward_twice(torch):
    """A second backward through a graph whose saved tensors the first one freed."""
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = (x * x).sum()
    y.backward()
    try:
        y.backward()
    except RuntimeError as error:
        return f"RuntimeError: {error}"
    return tr("no error")


for mistake in (update_before_backward, backward_twice):
    print(f"{mistake.__name__}, mini_autograd:\n  {mistake(torch)}")
mine = buildtrack.mine("07.2")
if mine:
    for mistake in (update_before_backward, backward_twice):
        message = mistake(mine)
        print(tr(f"{mistake.__name__}, your myautograd:\n  {message}"))
        print(tr("  the same words as mini_autograd's:"), message == mistake(torch))

# %% [markdown]
# ## Exercises
#
# **Exercise 7.1.** The derivative of $\sigma(x) = 1/(1 + e^{-x})$ is $\sigma(x)\,(1 - \sigma(x))$.
# Which tensor does `x.sigmoid()` save for backward: its input or its result? Answer `"self"` or
# `"result"`.
#
# <details><summary>Hint 1</summary>
#
# Look at what the formula $\sigma(x)\,(1 - \sigma(x))$ needs.
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# The forward pass has just computed $\sigma(x)$. Keeping $x$ instead would mean computing $\sigma(x)$ again in backward.
#
# </details>
#
# <details><summary>A sketch</summary>
#
# `answer_7_1 = "___"`: `"self"` for the input, `"result"` for the output.
#
# </details>

# %%
# Exercise 7.1
answer_7_1 = ...  # your answer here: "self" or "result"

# %% tags=["hide-input"]
check_exercise("7.1")

# %% [markdown]
# <details><summary>Show solution</summary>
#
# ```python
# # Exercise 7.1
# answer_7_1 = "result"
# ```
#
# $\sigma'(x) = \sigma(x)(1 - \sigma(x))$ needs only the output, which the forward pass has just
# computed: `SigmoidBackward0` keeps it as `_saved_result` (PyTorch's `derivatives.yaml`:
# `sigmoid_backward(grad, result)`). Saving the input would force backward to compute
# $\sigma(x)$ again.
#
# </details>

# %% [markdown]
# **Exercise 7.2.** How many bytes do the saved tensors of this graph hold, counting each tensor
# once? (float32 takes 4 bytes per number.)
#
# ```python
# a = torch.randn(1000, requires_grad=True)
# w = torch.randn(1000, requires_grad=True)
# b = a * w
# c = b.exp()
# d = c.sum()
# ```
#
# <details><summary>Hint 1</summary>
#
# Go node by node: what does each backward formula need from the forward pass?
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# `MulBackward0`, with both inputs requiring grad, keeps both inputs. `ExpBackward0` keeps its result. `SumBackward0` keeps only a shape.
#
# </details>
#
# <details><summary>A sketch</summary>
#
# Count the saved tensors of 1000 float32 numbers each, once each: `answer_7_2 = ___ * 1000 * 4`.
#
# </details>

# %%
# Exercise 7.2
answer_7_2 = ...  # your answer here: a number of bytes

# %% tags=["hide-input"]
check_exercise("7.2")

# %% [markdown]
# <details><summary>Show solution</summary>
#
# ```python
# # Exercise 7.2
# answer_7_2 = 12_000
# ```
#
# `MulBackward0` keeps `a` and `w` (4,000 bytes each), `ExpBackward0` keeps its result `c`
# (4,000 bytes), `SumBackward0` keeps only the input's shape. Total 12,000 bytes. Note what is
# *not* there: `b`, the product, is not needed by any backward formula, so it can be freed as
# soon as `exp` has used it. (`a` and `w` are leaves that exist anyway; the extra memory of
# training here is `c` alone.)
#
# </details>

# %% [markdown]
# **Exercise 7.3.** `f` below fails at backward with "one of the variables needed for gradient
# computation has been modified by an inplace operation". Fix `f` so that it computes the same
# value, $\sum_i (e^{x_i} + 1)^2$, without the error; then run the backward and set
# `answer_7_3 = x.grad`.
#
# <details><summary>Hint 1</summary>
#
# `exp` saved its result `y` for backward. What does `add_` do to `y`?
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# `add_` changes `y` in place, so its version moves on and backward refuses it. Make the shifted value a new tensor instead.
#
# </details>
#
# <details><summary>A sketch</summary>
#
# In `f`, replace `y.add_(1)` by `y = ___` (out of place). Then `f(x).backward()` and `answer_7_3 = x.grad`.
#
# </details>

# %%
# Exercise 7.3
x = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)


def f(x):
    y = x.exp()
    y.add_(1)                  # shift by one, in place
    return (y ** 2).sum()


answer_7_3 = ...  # your answer here: x.grad, once f(x).backward() works

# %% tags=["hide-input"]
check_exercise("7.3")

# %% [markdown]
# <details><summary>Show solution</summary>
#
# ```python
# # Exercise 7.3
# x = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
#
#
# def f(x):
#     y = x.exp()
#     y = y + 1                  # out of place: exp's saved result is left alone
#     return (y ** 2).sum()
#
#
# f(x).backward()
# answer_7_3 = x.grad
# ```
#
# `ExpBackward0` saved its result `y` at version 0; `add_(1)` raised it to version 1, so backward
# refused to use it. `y = y + 1` (or `y = y.clone(); y.add_(1)`) leaves the saved tensor as it
# was. The gradient is $2(e^x + 1)\,e^x$ = `[4.0000, 20.2147, 123.9744]` (for $x = 1$: $2(e + 1)e \approx 20.2147$).
#
# </details>

# %% [markdown]
# ## Recap
#
# - Backward formulas need values from the forward pass ($y = x^2$ needs $x$), so operations
#   **save tensors** on their nodes: `x ** 2` keeps `x` (`_saved_self`), `exp`, `tanh` and
#   `sigmoid` keep their result (`_saved_result`), `x * 3` keeps only the 3, `+` and `sum`
#   keep no tensor. Each operation saves just what its derivative needs
#   (`tools/autograd/derivatives.yaml`).
# - A node saving its own output keeps the data, not the tensor, to avoid a reference cycle
#   (`SavedTensor`; PyTorch's `SavedVariable`).
# - That is why training needs more memory than inference: the graph holds every saved
#   activation until backward. Measured here: three hidden activations (398,336 bytes with the
#   loss's) for a 3-layer network on a batch of 128 in training, one more for every further
#   layer; none under `no_grad` or `inference_mode`, where activations are freed as soon as
#   they are used.
# - `backward()` releases each node's saved tensors once used: `evaluate_function` calls
#   `release_variables` right after `call_function` has run the node. A second backward raises
#   "Trying to backward through the graph a second time" unless the first passed
#   `retain_graph=True`.
# - Every tensor has a version counter; a saved tensor remembers its version, and backward
#   refuses one changed in place since ("... is at version 1; expected version 0 instead").
#   Fix: compute out of place, or change a `clone()`.
# - Gradient checkpointing saves only segment inputs and recomputes the rest in backward: the
#   same gradients, a fraction of the activation memory, about one extra forward of compute
#   (`torch/utils/checkpoint.py`).
# - Your `myautograd` now saves tensors with their versions, bumps the version in every in-place
#   operation, and frees what a node saved once it has run unless `retain_graph=True` (steps 07.1 and
#   07.2): the two mistakes of this chapter stop it with PyTorch's words.
#
# [Next: 08 — The engine](08_engine.ipynb)
