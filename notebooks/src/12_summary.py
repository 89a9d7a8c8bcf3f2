# %% [markdown]
# # 12 — Summary: the whole picture
#
# Eleven chapters took `loss.backward()` apart. This last one puts it back together: the
# article's summary checked line by line, one small backward drawn once more with everything
# you learned on it, one table with every concept of the course, a map of the `mini_autograd`
# package, and the course's key examples run twice — under mini_autograd and under real
# PyTorch — with their outputs side by side, and a third time on the `myautograd` you wrote. Four
# exercises use it all at once.
#
# **What you will find here**
#
# - the summary of article 000, each statement backed by a line of running code
# - the course in one line, in four clauses, each run by a line of code
# - one picture before and one after `backward()`, with each part labelled by the chapter
#   that explained it, and one of a head of self-attention, the heart of a GPT
# - a cheat sheet: concept, API, what happens inside, where PyTorch does it
# - the map of every `mini_autograd` module, the chapters that opened it, and its PyTorch
#   counterpart
# - the course's key snippets under mini_autograd and PyTorch, side by side (when PyTorch is
#   installed)
# - the same snippets on your own `myautograd`, once the build steps are done, and the table of every
#   build step
# - what changes when you graduate to PyTorch, and where to read next
# - exercises: a gradient by hand and by autograd, the engine's order computed from
#   `next_functions`, a broken training loop to repair, and an optimizer step that changes nothing
#
# **Seed section:** article 000 §13, "总结" (summary).
#
# **mini_autograd pieces introduced:** none; this chapter maps all of them.
#
# **Time:** about 50 minutes (20 without the exercises).

# %%
import contextlib
import html
import importlib
import io
import math                         # noqa: F401  (exercise 12.1's by_hand uses it)
import pkgutil
import re

from IPython.display import HTML, Markdown, display

import buildtrack
import mini_autograd
import mini_autograd as torch
from mini_autograd import viz
from coursetools import is_module, module_table, tr
from exercises import check_exercise

# %% [markdown]
# ## 1. Article 000's summary, checked
#
# Article 000's last section (§13, "总结") sums autograd up in a short list of statements. You
# have seen each of them at work; here they are once more, in this course's words, each next to
# the line of code that shows it.
#
# The list starts from autograd's place in training: **without it there is no training step**,
# since the optimizer needs gradients, and autograd is what derives them from the forward
# computation (chapter 10). The rest says how:

# %%
x = torch.tensor(2.0, requires_grad=True)
c = torch.tensor(2.0)                            # requires_grad=False: a plain number
print(tr("requires_grad decides whether to record:"), (c * 3).grad_fn, "vs", (x * 3).grad_fn.name())

h = x * x
loss = h + 3 * x
print(tr("grad_fn is the entry of the backward graph:"), loss.grad_fn.name(), "->",
      [node.name() for node, _ in loss.grad_fn.next_functions])
print(tr("some operations save forward values for backward: x * x saved"), h.grad_fn._saved_self,
      tr("and"), h.grad_fn._saved_other)

loss.backward()
print(tr("backward walked back from the loss, and the leaf's .grad is filled:"), x.is_leaf, x.grad)
print(tr("the intermediate h keeps no gradient by default:"), "is_leaf", h.is_leaf,
      "| retains_grad", h.retains_grad)

# %% [markdown]
# Line by line:
#
# - **A tensor's `requires_grad` flag decides whether its operations leave nodes.** The same
#   multiplication leaves nothing behind for a plain tensor and a `MulBackward0` for `x`
#   (chapters 01, 02, 06).
# - **Backward enters the graph at `loss.grad_fn`.** From there the edges lead to the two
#   `MulBackward0` nodes (`x * x` and `3 * x`), and on to the leaf (chapter 02).
# - **Some nodes hold on to values of the forward pass, because their formulas need them.**
#   `x * x` kept both factors, since $\partial(ab)/\partial a = b$ (chapter 07).
# - **`backward()` sets out from the loss and works its way back to the leaves**, and **what it
#   finds for them lands in their `.grad`**: $x.grad = 2x + 3 = 7$ (chapters 03, 04, 08).
# - **A tensor in the middle of the graph passes its gradient on and keeps none**: `h` is not a
#   leaf and does not retain its gradient, unless you call `h.retain_grad()` (chapter 04).
# - **The Python side only hands the work over; the engine does it.** `loss.backward()` is a
#   thin Python layer that passes the graph on: in PyTorch to an engine written in C++ (see the
#   box), in mini_autograd to `autograd/engine.py` (chapters 03, 08).
#
# <details><summary>In PyTorch: from Tensor.backward to the C++ engine</summary>
#
# `Tensor.backward` (`torch/_tensor.py`) → `torch.autograd.backward`
# (`torch/autograd/__init__.py`) → `_engine_run_backward` (`torch/autograd/graph.py`) → the C++
# `run_backward` (`torch/csrc/autograd/python_engine.cpp`) → `Engine::execute`
# (`torch/csrc/autograd/engine.cpp`).
#
# </details>
#
# And one more fact that article 000 §8 taught: the saved values are freed once backward has
# used them. Asking for one after the backward fails on purpose, with a `RuntimeError` (the cell
# prints its first sentence).

# %%
try:
    h.grad_fn._saved_self
except RuntimeError as error:
    print("RuntimeError:", str(error).split(". ")[0] + ".")

# %% [markdown]
# ## 2. The one-line summary
#
# Article 000 ends (§13, "总结") with a one-line summary of its own. Said in this course's words, the
# whole mechanism is four clauses:
#
# > **The graph is recorded as you compute; `backward()` runs it from the loss down; the gradients
# > add up in `.grad`; only the optimizer's step changes the parameters.**
#
# Four lines of code, one per clause:

# %%
w = torch.tensor([1.0, -2.0], requires_grad=True)
optimizer = torch.optim.SGD([w], lr=0.1)

loss = (w ** 2).sum()      # the graph is recorded as you compute
loss.backward()            # backward() runs it from the loss down
print("w.grad:", w.grad)   # the gradients add up in .grad
optimizer.step()           # only the step changes the parameters
print("w:", w)

# %% [markdown]
# The graph of `loss` is recorded by the forward line; `backward()` runs it and adds $2w =
# [2, -4]$ into `w.grad`; `step()` moves $w$ to $w - 0.1 \cdot 2w = [0.8, -1.6]$. In a loop,
# `optimizer.zero_grad()` comes first, because of the third clause.

# %% [markdown]
# ## 3. The whole backward, drawn once more
#
# One small example carries almost every idea of the course: $\text{loss} = h + 3x$ with
# $h = x \cdot x$, at $x = 2$. This time `h` keeps its gradient (`retain_grad()`), and the
# picture shows what each node saved. First the graph as the forward pass booked it, before
# `backward()`:

# %%
x = torch.tensor(2.0, requires_grad=True)
h = x * x
h.retain_grad()                  # chapter 04: keep the gradient of this intermediate tensor
loss = h + 3 * x
viz.draw(loss, params={"x": x}, names={"h": h, "loss": loss}, show_saved=True)

# %% [markdown]
# Everything in it, with the chapter that explained it:
#
# - **`loss`** (green, value 10) is the root: `backward()` starts here, and since it is a
#   scalar no `gradient=` argument is needed (chapter 03).
# - **`AddBackward0`, `MulBackward0`** (grey) are the `grad_fn` nodes, one per operation, named
#   as PyTorch names them; the arrows are their `next_functions`, drawn the way gradients flow
#   (chapter 02). `MulBackward0 n2` is `3 * x`: its second input, the constant 3, needs no
#   gradient, so its entry in `next_functions` is `None`, and no arrow is drawn for it.
# - **Two arrows from `MulBackward0 n1` to the same `AccumulateGrad`**: `x * x` uses `x`
#   twice, so two gradients go to one place, where they are summed (chapters 04 and 08).
# - **`AccumulateGrad`** (dark grey) is the one node of the leaf `x` (blue): it writes
#   `x.grad` (chapter 04).
# - **`h`** (yellow) retains its gradient; the dashed arrow shows where its `.grad` comes from
#   (chapter 04).
# - **Saved for backward** (orange): `x * x` saved both factors, $2$ and $2$, because
#   $\partial(ab)/\partial a = b$; `3 * x` saved only the 3: the gradient for `x` needs it, and
#   `x` would only be needed for a gradient with respect to the constant, which nobody asks for
#   (chapter 07).
#
# Now `backward()`, and the same picture again:

# %%
loss.backward()
viz.draw(loss, params={"x": x}, names={"h": h, "loss": loss}, show_saved=True)

# %% [markdown]
# What changed is what `backward()` did:
#
# - `x.grad` is $7 = 2x + 3$: the $2 + 2$ from the two edges of `x * x` and the 3 from
#   `3 * x`, added up (chapters 01, 03, 05).
# - `h.grad` is 1, $\partial\,\text{loss}/\partial h$, kept only because of `retain_grad()`
#   (chapter 04).
# - Every saved tensor is marked **freed**: each node let go of what it saved as soon as it ran,
#   so a second `backward()` through this graph would raise (chapter 07; `retain_graph=True`
#   keeps them).
# - The graph itself is unchanged: the engine only read it, in the order of chapter 08 —
#   `AddBackward0`, then the newer `MulBackward0` (`3 * x`), then the older one, then
#   `AccumulateGrad` once both of its gradients had arrived. Exercise 12.2 asks you to compute
#   that order yourself.

# %% [markdown]
# ### The same drawing for a transformer
#
# The programs that come after this course build bigger graphs from the same pieces. Here is one
# head of causal self-attention as nanoGPT writes it (`tests/tutorial_programs/nanogpt.py` runs the
# whole model beside PyTorch), on three tokens of four channels, followed by a residual
# connection, a layer norm and the next-token loss. Every box is a node you have met; only their
# number has grown.

# %%
torch.manual_seed(0)
T, C, V = 3, 4, 5                        # three tokens of four channels; a vocabulary of five


class Head(torch.nn.Module):
    """One head of causal self-attention, as nanoGPT writes it."""

    def __init__(self):
        super().__init__()
        self.key = torch.nn.Linear(C, C, bias=False)
        self.query = torch.nn.Linear(C, C, bias=False)
        self.value = torch.nn.Linear(C, C, bias=False)
        self.register_buffer("tril", torch.tril(torch.ones(T, T)))    # a buffer: no gradient

    def forward(self, x):
        k, q = self.key(x), self.query(x)
        scores = q @ k.transpose(-2, -1) * C ** -0.5
        scores = scores.masked_fill(self.tril == 0, float("-inf"))     # token t sees tokens 0..t
        weights = torch.softmax(scores, dim=-1)
        return weights @ self.value(x)


gpt = torch.nn.ModuleDict({"head": Head(), "lm_head": torch.nn.Linear(C, V)})
tokens = torch.randn(T, C)               # the three tokens' embeddings
targets = torch.tensor([1, 4, 2])        # the token that follows each
normed = torch.nn.functional.layer_norm(tokens + gpt["head"](tokens), (C,))   # residual, layer norm
lm_loss = torch.nn.functional.cross_entropy(gpt["lm_head"](normed), targets)
viz.draw(lm_loss, params=gpt, names={"tokens": tokens, "normed": normed, "lm_loss": lm_loss},
         show_saved=True)

# %% [markdown]
# Read from the top, with the chapters again:
#
# - **`NllLossBackward0` over `LogSoftmaxBackward0`**: `cross_entropy` is these two nodes
#   (chapter 10).
# - **`AddmmBackward0`** is `lm_head`, a `Linear` with a bias: one node for the whole layer, with
#   an edge to the bias's `AccumulateGrad` and one through `TBackward0` to the weight's
#   (chapter 10).
# - **`NativeLayerNormBackward0`** saved the mean (`result1`) and one over the standard deviation
#   (`result2`) of each token's channels: what its backward needs besides the input (chapter 07).
# - **`AddBackward0`** is the residual `tokens + head(tokens)`: `tokens` needs no gradient, so the
#   entry for it in `next_functions` is `None` and only one arrow leaves the node (chapter 02).
# - **The attention**: `MmBackward0` for `weights @ v`; `SoftmaxBackward0`, which saved its result,
#   the attention weights, zero above the diagonal, since a token sees only itself and the tokens
#   before it; `MaskedFillBackward0` for the `-inf` written above the diagonal; `MulBackward0` for
#   the scale $1/\sqrt{C}$; and `MmBackward0` for `q @ k^T`, whose `TransposeBackward0` leads
#   to the key.
# - **`tokens` go into three `Linear`s** (key, query, value): each `MmBackward0` saved them, and
#   each weight has its own `AccumulateGrad` (chapter 04). The `tril` buffer is nowhere: it does not
#   require grad, so no node records it (chapter 01).
#
# PyTorch's `MaskedFillBackward0` also keeps the mask, and its `NllLossBackward0` the targets;
# mini_autograd keeps those outside its saved tensors, so they are not drawn (`docs/limits.md`).
# The node names, the values and the gradients are PyTorch's:
# `tests/test_transformer_layers_vs_torch.py` and `tests/tutorial_programs/gpt_dev.py` check them.

# %% [markdown]
# ## 4. Cheat sheet
#
# | concept | API | what happens inside | PyTorch source |
# |---|---|---|---|
# | recording switch (01, 06) | `requires_grad=True`, `torch.no_grad()`, `torch.inference_mode()` | `Function.apply` records a node only if an input requires grad and grad mode is on | `torch/autograd/grad_mode.py`; `c10/core/GradMode.h`; `torch/csrc/autograd/python_function.cpp` |
# | computation graph (02, 09) | `t.grad_fn`, `grad_fn.next_functions`, `grad_fn.name()` | each operation's `apply` makes one `Node` with one edge `(node, input_nr)` per input; a new graph every forward (define-by-run) | `torch/csrc/autograd/node.h` (`Node`), `edge.h` |
# | backward formulas (02, 07, 11) | `AddBackward0`, `MulBackward0`, ... | each node's `apply` computes a vector-Jacobian product from the gradient of its output | `tools/autograd/derivatives.yaml` → `torch/csrc/autograd/generated/Functions.cpp` |
# | `backward()` (03) | `loss.backward()`, `torch.autograd.backward` | `_make_grads` (scalar rule, `gradient=`), then the engine | `torch/_tensor.py`; `torch/autograd/__init__.py` |
# | the engine (03, 08) | — | `GraphTask`, dependency counts, `ReadyQueue` (newest node first), `InputBuffer` sums, `evaluate_function` | `torch/csrc/autograd/engine.cpp`, `graph_task.h`, `input_buffer.cpp`, `python_engine.cpp` |
# | leaves (04) | `t.is_leaf`, `t.grad`, `requires_grad_()` | a leaf's gradient edge ends in its `AccumulateGrad` node | `torch/csrc/autograd/variable.cpp` (`grad_accumulator`) |
# | non-leaf gradients (04) | `t.retain_grad()`, `t.retains_grad` | a hook that copies the gradient into `.grad` | `torch/csrc/autograd/variable.cpp` (`VariableHooks::retain_grad`) |
# | accumulation (05, 10) | `x.grad`, `optimizer.zero_grad()`, `x.grad = None` | `AccumulateGrad.apply` stores the first gradient, then adds in place | `torch/csrc/autograd/functions/accumulate_grad.h`; `torch/optim/optimizer.py` |
# | cutting the graph (06) | `t.detach()`, `torch.no_grad()` | `detach` makes a new leaf sharing data; `no_grad` switches recording off for a block | `torch/csrc/autograd/VariableTypeManual.cpp` (`detach`); `torch/autograd/grad_mode.py` |
# | saved tensors (07) | `ctx.save_for_backward`, `grad_fn._saved_self`, `retain_graph=True` | saved with their version; freed after the node runs unless `retain_graph`; an in-place change is caught at unpack | `torch/csrc/autograd/saved_variable.cpp` |
# | training (10) | `nn.Module`, `nn.Linear`, `optim.SGD`, `step()` | `Module.__call__` → `forward`; `Linear` is one `addmm`; `step` is an in-place update under `no_grad` | `torch/nn/modules/module.py`, `torch/nn/modules/linear.py`; `torch/optim/sgd.py` |
# | custom operations (11) | `torch.autograd.Function`, `gradcheck` | the same `apply` as built-ins; `gradcheck` compares Jacobians with finite differences | `torch/autograd/function.py`; `python_function.cpp`; `torch/autograd/gradcheck.py` |
# | hooks (04, 11) | `t.register_hook`, `grad_fn.register_prehook`, `grad_fn.register_hook` | run by `call_function` around each node | `engine.cpp`: `call_tensor_pre_hooks`, `call_pre_hooks`, `call_post_hooks` |
# | higher-order gradients (11) | `create_graph=True`, `torch.autograd.grad` | the engine runs the backward with grad mode on, so it is recorded | `torch/autograd/__init__.py` (`grad`); `graph_task.h` |

# %% [markdown]
# ## 5. The map of `mini_autograd`
#
# The package grew with the chapters. Each module, the chapters that opened it, and where
# PyTorch does the same. The table is built from the list below, and the cell checks it against
# the package itself: every file the table names exists, and every module of the package is in
# the table — named in a row, or inside a sub-package that a row describes as a whole (so a new
# file in `ops/` belongs to the `ops` row until it gets a row of its own).

# %%
MODULE_MAP = [
    # (modules, what it holds, chapters, PyTorch counterpart)
    (["mini_autograd"], "the public `torch.*` names (re-exports only)", "all",
     "`torch/__init__.py`"),
    (["mini_autograd._tensor"], "`Tensor`: data, `requires_grad`, `grad`, `grad_fn`, `is_leaf`, version counter",
     "01, 04, 05, 06, 07", "`torch/_tensor.py`; `torch/csrc/autograd/variable.h` (`AutogradMeta`)"),
    (["mini_autograd._printing"], "`tensor(7.)`, `grad_fn=<...>`: PyTorch's printing", "01",
     "`torch/_tensor_str.py`"),
    (["mini_autograd._dtype"], "`float32`, `float64`, `int64`, ...", "01", "`c10/core/ScalarType.h`"),
    (["mini_autograd._layout"], "strides in elements; \"non-overlapping and dense\", the layout a `.grad`, a "
     "`clone` and an elementwise result follow", "13", "`c10/core/TensorImpl.h` (`is_non_overlapping_and_dense`)"),
    (["mini_autograd.creation"], "`tensor`, `ones`, `zeros`, `linspace`, `randn`, `manual_seed`, ...", "01",
     "`torch/csrc/utils/tensor_new.cpp`; `aten/src/ATen/native/TensorFactories.cpp`"),
    (["mini_autograd.grad_mode"], "`no_grad`, `enable_grad`, `set_grad_enabled`, `inference_mode`", "06",
     "`torch/autograd/grad_mode.py`; `c10/core/GradMode.h`"),
    (["mini_autograd._device", "mini_autograd.cuda", "mini_autograd.accelerator", "mini_autograd.backends",
      "mini_autograd.backends.cuda", "mini_autograd.backends.mps"],
     "`torch.device` and `device=`; `torch.cuda`, `torch.accelerator`, `torch.backends` answer "
     "\"no GPU here\", so programs written for PyTorch run unchanged on the CPU", "none (for PyTorch programs)",
     "`c10/core/Device.h`; `torch/cuda/`; `torch/accelerator/`; `torch/backends/`"),
    (["mini_autograd.autograd"], "`backward`, `grad`, `_make_grads`", "03, 11",
     "`torch/autograd/__init__.py`"),
    (["mini_autograd.autograd.function"], "`Function`, `ctx`, `apply`: where the graph is recorded",
     "02, 06, 09, 11", "`torch/autograd/function.py`; `torch/csrc/autograd/python_function.cpp`"),
    (["mini_autograd.autograd.graph"], "`Node`, `next_functions`, `AccumulateGrad`, `SavedTensor`, hooks",
     "02, 04, 05, 07, 08", "`torch/csrc/autograd/node.h`; `functions/accumulate_grad.h`; `saved_variable.h`"),
    (["mini_autograd.autograd.engine"], "`run_backward`, `GraphTask`, `ReadyQueue`, `InputBuffer`, `evaluate_function`",
     "03, 08, 11", "`torch/csrc/autograd/engine.cpp`; `graph_task.h`; `input_buffer.h`; `python_engine.cpp`"),
    (["mini_autograd.autograd.gradcheck"], "`gradcheck`: finite differences against backward", "11",
     "`torch/autograd/gradcheck.py`"),
    (["mini_autograd.autograd.functional"], "`jacobian`, `hessian`, `vjp`, `jvp`, `vhp`, `hvp`, made of "
     "`autograd.grad` calls", "none (built on 11's `create_graph`)", "`torch/autograd/functional.py`"),
    (["mini_autograd.ops", "mini_autograd.ops.binary", "mini_autograd.ops.unary", "mini_autograd.ops.reductions",
      "mini_autograd.ops.linalg", "mini_autograd.ops.shape", "mini_autograd.ops.indexing",
      "mini_autograd.ops.joining", "mini_autograd.ops.activations", "mini_autograd.ops.losses",
      "mini_autograd.ops.normalization", "mini_autograd.ops.random", "mini_autograd.ops._helpers"],
     "one `Function` per operation (`AddBackward0`, `MmBackward0`, ...), broadcasting and type promotion; "
     "random draws (`normal`, `multinomial`, `bernoulli_`)",
     "02, 07, 11", "`tools/autograd/derivatives.yaml`; `torch/csrc/autograd/generated/Functions.cpp`"),
    (["mini_autograd.ops.inplace", "mini_autograd.ops.views"],
     "in-place operations (`add_`, `x[i] = v`, ...): the version counter and the rewritten history; views "
     "that follow their base (`AsStridedBackward0`, `CopySlices`)", "07",
     "`torch/csrc/autograd/VariableTypeUtils.h` (`rebase_history`); `variable.cpp`; `functions/tensor.h` (`CopySlices`)"),
    (["mini_autograd.ops.statistics", "mini_autograd.ops.sorting", "mini_autograd.ops._stl",
      "mini_autograd.ops.rearranging", "mini_autograd.ops.einsum", "mini_autograd.ops._saved"],
     "what the programs after the course reach for: `var`, `std`, `logsumexp`, `prod`, `cumsum`, `cumprod`, "
     "`histogram`; "
     "`sort`, `topk` (in libstdc++'s order for ties); `gather`, `index_select`, `tril`, `triu`; `chunk`, "
     "`split`, `unbind`; `flip`, `repeat`, `outer`; `floor`, `round`, `log10`, `isnan`; `gelu`, `layer_norm`",
     "none (for the programs after the course)",
     "`tools/autograd/derivatives.yaml`; `torch/csrc/autograd/FunctionsManual.cpp`"),
    (["mini_autograd.nn", "mini_autograd.nn.module", "mini_autograd.nn.parameter", "mini_autograd.nn.linear",
      "mini_autograd.nn.container", "mini_autograd.nn.activation", "mini_autograd.nn.flatten",
      "mini_autograd.nn.loss", "mini_autograd.nn.functional", "mini_autograd.nn.init",
      "mini_autograd.nn.dropout", "mini_autograd.nn.batchnorm", "mini_autograd.nn.sparse"],
     "`Module`, `Parameter`, `Linear`, `Sequential`, activations, `Flatten`, losses, `functional`, `init`; "
     "`Dropout`, `BatchNorm1d`, `Embedding`", "10",
     "`torch/nn/modules/`; `torch/nn/parameter.py`; `torch/nn/functional.py`; `torch/nn/init.py`"),
    (["mini_autograd.nn.normalization", "mini_autograd.nn.attention", "mini_autograd.utils.hooks"],
     "`LayerNorm`; `F.scaled_dot_product_attention` (its documented reference math); module hooks' "
     "`RemovableHandle`", "none (for the programs after the course)",
     "`torch/nn/modules/normalization.py`; `torch/nn/functional.py`; `torch/utils/hooks.py`"),
    (["mini_autograd.random", "mini_autograd._distributions", "mini_autograd._avx_mathfun"],
     "`Generator` and `manual_seed`: PyTorch's random numbers, its generator (mt19937, the state's bytes) "
     "and its CPU kernels (`rand`, `randn`, `randint`, `randperm`, `bernoulli_`, `multinomial`)",
     "none (for the programs after the course)",
     "`torch/random.py`; `aten/src/ATen/CPUGeneratorImpl.cpp`; `aten/src/ATen/native/cpu/DistributionTemplates.h`"),
    (["mini_autograd.return_types"], "`torch.return_types`: the named results of `max(dim)` and `min(dim)`",
     "none (for the programs after the course)", "`torch/return_types.py`"),
    (["mini_autograd.utils", "mini_autograd.utils.data", "mini_autograd.serialization"],
     "`utils.data`: `Dataset`, `TensorDataset`, `DataLoader`, `random_split`; `save` and `load`",
     "none (for the programs after the course)", "`torch/utils/data/`; `torch/serialization.py`"),
    (["mini_autograd.optim", "mini_autograd.optim.optimizer", "mini_autograd.optim.sgd",
      "mini_autograd.optim.adam", "mini_autograd.optim.rmsprop"], "`Optimizer` (`zero_grad`), `SGD`, `Adam`, "
     "`RMSprop`", "05, 10", "`torch/optim/optimizer.py`; `torch/optim/sgd.py`; `torch/optim/adam.py`; `torch/optim/rmsprop.py`"),
    (["mini_autograd.optim.adamw", "mini_autograd.optim.adagrad", "mini_autograd.optim.adadelta",
      "mini_autograd.optim.lr_scheduler"], "`AdamW`, `Adagrad`, `Adadelta`; `lr_scheduler` (`StepLR`, "
     "`MultiStepLR`, `ExponentialLR`, `LambdaLR`, `CosineAnnealingLR`, ...)", "none (for the programs after the course)",
     "`torch/optim/adamw.py`; `torch/optim/adagrad.py`; `torch/optim/adadelta.py`; `torch/optim/lr_scheduler.py`"),
    (["mini_autograd.utils.backcompat"], "`torch.utils.backcompat`: the broadcasting note's warning switches",
     "none (for the programs after the course)", "`torch/utils/backcompat/__init__.py`"),
    (["mini_autograd.viz", "mini_autograd.viz.walk", "mini_autograd.viz.dot", "mini_autograd.viz.picture",
      "mini_autograd.viz.trace"], "graph pictures (`draw`) and the engine trace (`trace_backward`)",
     "all; the trace in 08", "none in PyTorch (the pictures follow the third-party `torchviz`)"),
]


display(Markdown(module_table(MODULE_MAP, mark_missing=True)))

in_map = {m for modules, *_ in MODULE_MAP for m in modules}
in_package = {"mini_autograd"} | {m.name for m in pkgutil.walk_packages(mini_autograd.__path__, "mini_autograd.")}


def covered(name):
    """Named in the map, or inside a sub-package (not the top package) that the map names."""
    parts = name.split(".")
    return name in in_map or any(".".join(parts[:n]) in in_map for n in range(2, len(parts)))


print(tr("every file the map names exists:"), all(is_module(m) for m in in_map),
      tr("| missing:"), sorted(m for m in in_map if not is_module(m)))
print(tr("every module of mini_autograd is in the map:"), all(covered(m) for m in in_package),
      tr("| not in it:"), sorted(m for m in in_package if not covered(m)))

# %% [markdown]
# The dependencies point one way: `_tensor` ← `autograd` ← `ops` ← `nn` / `optim`, and
# `viz` only reads the graph. PyTorch has the same layering, with C++ underneath.
#
# <details><summary>In PyTorch: the layers in C++</summary>
#
# The Python `torch.autograd` is a thin layer over `torch/csrc/autograd/` (nodes, engine, saved
# variables); the operations live in ATen (`aten/src/ATen/native/`), with their derivatives in
# `tools/autograd/derivatives.yaml`, from which the C++ backward nodes are generated.
#
# </details>

# %% [markdown]
# ## 6. The same code under real PyTorch
#
# `mini_autograd` promised to behave like PyTorch. Here is the test: the course's key examples,
# each run twice — once with the name `torch` bound to mini_autograd, once bound to the real
# PyTorch — with what they print captured and compared. Memory addresses (`0x7f...`) differ
# from run to run in both, so they are masked before comparing.

# %%
try:
    pytorch = importlib.import_module("torch")         # the real one, if it is installed
except ImportError:
    pytorch = None
SKIPPED = tr("skipped: PyTorch is not installed (pip install torch==2.13.0)")
print("PyTorch:", pytorch.__version__.split("+")[0] if pytorch is not None else tr("not installed"))


def run_under(code, module):
    """Run `code` with the name `torch` bound to `module`; return what it printed (addresses masked)."""
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        try:
            exec(code, {"torch": module})
        except Exception as error:                     # an error is an output too
            print(f"{type(error).__name__}: {error}")
    return re.sub(r"0x[0-9a-fA-F]+", "0x...", printed.getvalue())

# %% [markdown]
# The snippets, with the chapter (and the seed section) each comes from:

# %%
SNIPPETS = {}

SNIPPETS[tr("the 30-second example (01; 003)")] = """
x = torch.tensor(2.0, requires_grad=True)
y = torch.tensor(3.0, requires_grad=True)
z = x ** 2 + y * 3
z.backward()
print(x.grad)
print(y.grad)
"""

SNIPPETS[tr("grad_fn of y = x*x + 3x (02; 000 §3-4)")] = """
x = torch.tensor(2.0, requires_grad=True)
y = x * x + 3 * x
print(y.grad_fn)
y.backward()
print(x.grad)
"""

SNIPPETS[tr("the classic example (02, 03; 003)")] = """
x = torch.ones(2, 2, requires_grad=True)
y = x + 2
z = y * y * 3
out = z.mean()
print(out)
print(y.grad_fn)
print(z.grad_fn)
print(x.grad_fn)
out.backward()
print(x.grad)
"""

SNIPPETS[tr("walking next_functions (02)")] = """
x = torch.ones(2, 2, requires_grad=True)
out = ((x + 2) * (x + 2) * 3).mean()

def walk(node, depth=0):
    print("  " * depth + (node.name() if node is not None else "None"))
    if node is not None:
        for next_node, input_nr in node.next_functions:
            walk(next_node, depth + 1)

walk(out.grad_fn)
"""

SNIPPETS[tr("non-scalar outputs (03; 003)")] = """
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x ** 2
try:
    y.backward()
except RuntimeError as error:
    print("RuntimeError:", error)
y.backward(torch.ones_like(y))
print(x.grad)
"""

SNIPPETS[tr("leaves and retain_grad (04; 000 §5)")] = """
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
y.retain_grad()
loss = (y * y).sum()
loss.backward()
print(x.is_leaf, y.is_leaf, loss.is_leaf)
print(y.grad)
print(x.grad)
"""

SNIPPETS[tr("gradients accumulate (05; 000 §10)")] = """
x = torch.tensor(2.0, requires_grad=True)
y = x * x
y.backward()
print(x.grad)
y = x * x
y.backward()
print(x.grad)
"""

SNIPPETS[tr("no_grad and detach (06; 000 §9)")] = """
x = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.no_grad():
    y = x * 2
print(y, y.requires_grad, y.grad_fn)
d = x.detach()
print(d, d.requires_grad, d.is_leaf)
d.mul_(10.0)                    # detach shares the data
print(x)
"""

SNIPPETS[tr("one training step (10; 000 §6)")] = """
model = torch.nn.Linear(2, 1)
model.weight = torch.nn.Parameter(torch.tensor([[0.5, -0.3]]))
model.bias = torch.nn.Parameter(torch.tensor([0.1]))
loss_fn = torch.nn.MSELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.tensor([[1.0, 1.0], [2.0, -1.0], [0.0, 2.0], [-1.0, 0.5]])
y = torch.tensor([[1.0], [2.0], [-1.0], [0.0]])

optimizer.zero_grad()
pred = model(x)
loss = loss_fn(pred, y)
loss.backward()
optimizer.step()
print(loss)
print(model.weight.grad)
print(model.weight)
"""

SNIPPETS[tr("a custom Function and gradcheck (11)")] = """
class MyExp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        result = x.exp()
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad_output):
        (result,) = ctx.saved_tensors
        return grad_output * result

x = torch.tensor([0.5, 1.0, 2.0], dtype=torch.float64, requires_grad=True)
y = MyExp.apply(x)
print(y)
print(y.grad_fn.name())
print(torch.autograd.gradcheck(MyExp.apply, (x,)))
"""

SNIPPETS[tr("a second derivative (11)")] = """
x = torch.tensor(1.0, requires_grad=True)
y = x ** 3
(dy_dx,) = torch.autograd.grad(y, x, create_graph=True)
(d2y_dx2,) = torch.autograd.grad(dy_dx, x)
print(dy_dx)
print(d2y_dx2)
"""

print(tr(f"{len(SNIPPETS)} snippets"))

# %% [markdown]
# Run them all, and show the two outputs next to each other:

# %%
def pre(text):
    return f'<pre style="margin:0;font-size:12px">{html.escape(text.strip())}</pre>'


results, blocks = {}, []
torch_title = "PyTorch " + pytorch.__version__.split("+")[0] if pytorch is not None else "PyTorch"
for title, code in SNIPPETS.items():
    mini_output = run_under(code, mini_autograd)
    torch_output = run_under(code, pytorch) if pytorch is not None else SKIPPED
    verdict = tr(f"identical: {mini_output == torch_output}") if pytorch is not None else SKIPPED
    results[title] = verdict
    blocks.append(
        f'<tr><th colspan="2" style="text-align:left;border-top:2px solid #bbb;padding-top:8px">'
        f'{html.escape(title)} — {verdict}</th></tr>'
        f'<tr><td colspan="2" style="text-align:left;background:#f7f7f7">{pre(code)}</td></tr>'
        f'<tr><td style="text-align:left"><i>mini_autograd</i></td>'
        f'<td style="text-align:left"><i>{torch_title}</i></td></tr>'
        f'<tr><td style="text-align:left;vertical-align:top;width:50%">{pre(mini_output)}</td>'
        f'<td style="text-align:left;vertical-align:top;width:50%">{pre(torch_output)}</td></tr>')
display(HTML("<table>" + "".join(blocks) + "</table>"))

print(tr("The verdicts in one list:"))
for title, verdict in results.items():
    print(f"{title:42} {verdict}")

# %% [markdown]
# Every line the course taught prints the same in both: the gradients, the node names
# (`AddBackward0`, `MeanBackward0`, `torch::autograd::AccumulateGrad`), the error message of
# the scalar rule, the leaf flags, the accumulated 4 then 8, the training step, the custom
# node `MyExpBackward` and the second derivative. (If PyTorch is not installed, the right-hand
# column says so; `pip install torch==2.13.0` and run the cells again.)
#
# Where they do differ is outside these snippets: speed, and the many operations, dtypes and
# devices PyTorch has and mini_autograd does not. Random numbers are not among the differences:
# mini_autograd's generator is PyTorch's, so `torch.manual_seed(0)` gives the same initial
# weights in both.

# %% [markdown]
# ## 7. Your autograd speaks PyTorch
#
# If you did the build steps, there is a third engine besides `mini_autograd` and PyTorch: your `myautograd`,
# about two hundred lines of your own, one piece per chapter, inside the parts that came given. Here are
# section 6's snippets once more, this time with `import myautograd as torch`, next to what `mini_autograd` and
# PyTorch print (addresses masked, as before). The two snippets of chapter 11 stay out: they use
# `torch.autograd`, a namespace your package does not have (its `Function` sits at the top level, its
# `gradcheck` in `myautograd.gradcheck`, and it has no `autograd.grad` for gradients of gradients).

# %%
mine = buildtrack.mine("11.2")
if mine:
    rows, mine_verdicts = [], {}
    for title, code in SNIPPETS.items():
        mini_output = run_under(code, mini_autograd)
        torch_output = run_under(code, pytorch) if pytorch is not None else SKIPPED
        if "torch.autograd" in code:
            mine_output = tr("not run: it uses torch.autograd, which myautograd does not have")
            verdict = tr("not run on myautograd (torch.autograd)")
        else:
            mine_output = run_under(code, mine)
            verdict = tr(f"same as mini_autograd: {mine_output == mini_output} | same as PyTorch: "
                         f"{mine_output == torch_output if pytorch is not None else tr('skipped, not installed')}")
        mine_verdicts[title] = verdict
        rows.append(
            f'<tr><th colspan="3" style="text-align:left;border-top:2px solid #bbb;padding-top:8px">'
            f'{html.escape(title)} — {html.escape(verdict)}</th></tr>'
            f'<tr><td style="text-align:left"><i>{tr("your myautograd")}</i></td><td style="text-align:left">'
            f'<i>mini_autograd</i></td><td style="text-align:left"><i>{torch_title}</i></td></tr>'
            + "<tr>" + "".join(f'<td style="text-align:left;vertical-align:top;width:33%">{pre(text)}</td>'
                              for text in (mine_output, mini_output, torch_output)) + "</tr>")
    display(HTML("<table>" + "".join(rows) + "</table>"))
    print(tr("Your myautograd, snippet by snippet:"))
    for title, verdict in mine_verdicts.items():
        print(f"{title:42} {verdict}")

# %% [markdown]
# Once every step is done, each snippet your package can run prints what `mini_autograd` prints, and what
# PyTorch prints: the seed's gradients, PyTorch's node names and its error for a non-scalar `backward()`, the
# leaf flags, the accumulated 4 then 8, and a whole training step through your `Linear` and your `SGD`. The
# numbers come from your formulas, the order of the work from your engine's ready queue, each `.grad` from your
# `AccumulateGrad`; what came given is mostly the printing (borrowed from `mini_autograd`) and the numpy
# forwards. (Until then, the line above says which step to finish.)
#
# Your progress over the whole build track, one line a step (`make progress` in a terminal prints the same):

# %%
buildtrack.progress()

# %% [markdown]
# ## 8. Graduating to PyTorch
#
# Everything you learned carries over; what changes is scale.
#
# - **Devices.** Tensors live on a CPU or a GPU (`x.to("cuda")`). The engine keeps a worker
#   thread per GPU and runs each node on the thread of the device its gradients are on (CPU
#   nodes run on the thread that called `backward()`); GPU work is queued on CUDA streams.
# - **Dtypes.** Besides `float32` and `float64`: `float16` and `bfloat16`, with mixed precision
#   (`torch.autocast`, and a gradient scaler so small `float16` gradients do not round to zero),
#   complex numbers, and sparse tensors — each with its own rules in the backward formulas.
# - **Many more operations.** About two thousand ATen operations, each with a derivative in
#   `tools/autograd/derivatives.yaml`; views that share storage (`as_strided`), and in-place
#   operations on views: when one runs, in the forward pass, PyTorch rewires the base's history,
#   whose `grad_fn` becomes a `CopySlices` node (`rebase_history` in
#   `torch/csrc/autograd/VariableTypeUtils.h`).
# - **The C++ engine.** The same loop you read in `autograd/engine.py`, in
#   `torch/csrc/autograd/engine.cpp`, with threads, reentrant backward (for checkpointing), and
#   anomaly detection (`torch.autograd.set_detect_anomaly(True)`) to find the operation that
#   produced a NaN.
# - **`torch.compile`.** Article 000 §11 noted that rebuilding the graph every step costs time,
#   and that PyTorch 2.x captures it. `torch.compile` traces the forward with TorchDynamo,
#   AOTAutograd derives the backward graph ahead of time, and the compiled pair runs as one
#   node in the ordinary autograd engine.
# - **More tools built on the same pieces.** `torch.utils.checkpoint` (gradient checkpointing,
#   chapter 07), `torch.autograd.graph.saved_tensors_hooks` (pack and unpack saved tensors,
#   e.g. to move them to the CPU), `torch.func` (`grad`, `vmap`, `jacrev`, `hessian` as function
#   transforms), and the gradient hooks that distributed training uses to start communicating
#   while the backward pass is still running.
#
# **Where to read next**
#
# - PyTorch's documentation: "Autograd mechanics" (`docs/source/notes/autograd.rst`) and
#   "Extending PyTorch" (`notes/extending.rst`), and the `torch.autograd` API reference.
# - The PyTorch blog series "Overview of PyTorch Autograd Engine", "How Computational Graphs are
#   Constructed in PyTorch" and "How Computational Graphs are Executed in PyTorch".
# - The source, in the order this course opened it: `torch/autograd/__init__.py` (`backward`,
#   `grad`), `torch/csrc/autograd/python_engine.cpp`, `engine.cpp` (`Engine::execute`,
#   `evaluate_function`, `call_function`), `node.h` (`Node`), `functions/accumulate_grad.h`,
#   `saved_variable.cpp`, `tools/autograd/derivatives.yaml`, `torch/autograd/function.py`,
#   `torch/autograd/gradcheck.py`.
#
# And the package you have been reading is still here: every `show_source` in the course points
# into `mini_autograd/`, small enough to read in an afternoon, and its tests (`tests/`) compare
# it with PyTorch.

# %% [markdown]
# ## Exercises
#
# **Exercise 12.1.** A single neuron with a squared error: $p = wx + b$, $a = \tanh p$,
# $L = (a - y)^2$. Write `by_hand(w, b, x, y)`, which returns the pair
# $(\partial L/\partial w,\ \partial L/\partial b)$ for plain Python numbers, using the chain
# rule and `math.tanh` — no tensors. Autograd gets the same two numbers from the forward pass
# alone:
#
# ```python
# def by_autograd(w, b, x, y):
#     w = torch.tensor(w, dtype=torch.float64, requires_grad=True)
#     b = torch.tensor(b, dtype=torch.float64, requires_grad=True)
#     loss = (torch.tanh(w * x + b) - y) ** 2
#     loss.backward()
#     return w.grad.item(), b.grad.item()
# ```
#
# The check compares your function with this one on three sets of numbers.
#
# <details><summary>Hint 1</summary>
#
# Write the forward pass as a chain: $p = wx + b$, then $a = \tanh p$, then $L = (a - y)^2$.
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# Go backwards one link at a time: $\partial L/\partial a$, then $\partial a/\partial p$ (the derivative of $\tanh$ can be written with $a$ itself), then $\partial p/\partial w$ and $\partial p/\partial b$. Multiply along the path.
#
# </details>
#
# <details><summary>A sketch</summary>
#
# `a = math.tanh(___)`; `dL_da = ___`; `dL_dp = dL_da * ___`; `return dL_dp * ___, dL_dp * ___`.
#
# </details>

# %%
# Exercise 12.1
def by_hand(w, b, x, y):
    return ...  # your code here: the pair (dL_dw, dL_db)

# %% tags=["hide-input"]
check_exercise("12.1")

# %% [markdown]
# <details><summary>Show solution</summary>
#
# ```python
# # Exercise 12.1
# def by_hand(w, b, x, y):
#     a = math.tanh(w * x + b)
#     dL_da = 2 * (a - y)
#     dL_dp = dL_da * (1 - a * a)       # tanh'(p) = 1 - tanh²(p)
#     return dL_dp * x, dL_dp * 1       # dp/dw = x, dp/db = 1
# ```
#
# The backward pass in three lines: start from $\partial L/\partial L = 1$, multiply by the
# local derivative of each operation on the way back to $w$ and $b$, exactly the
# vector-Jacobian products `PowBackward0`, `SubBackward0`, `TanhBackward0`, `AddBackward0` and
# `MulBackward0` compute (chapter 03). `TanhBackward0` uses the saved *result* $a$, as
# $1 - a^2$, like the `ExpBackward0` of chapter 11.
#
# </details>

# %% [markdown]
# **Exercise 12.2.** Write `engine_order(root)`: given the `grad_fn` of a loss, return the list
# of nodes (the node objects themselves) in the order the engine runs them, computed from
# `next_functions` alone, without running `backward()`. Chapter 08's rules:
#
# 1. Walk the graph once from `root` and count, for each node, how many edges point to it (its
#    dependencies). Skip the `None` entries of `next_functions`.
# 2. A node is ready when all its dependencies have delivered. Start with `root` ready.
# 3. Repeatedly take the ready node with the highest `node._sequence_nr()` (the newest;
#    `AccumulateGrad` nodes have the largest number of all; on a tie, the one that became
#    ready first), append it to the order, and count one delivery along each of its edges.
#
# The tie rule of step 3 is mini_autograd's, and the check runs on mini_autograd. PyTorch's
# ready queue, a C++ `std::priority_queue`, keeps no order among ties: after `torch.cat` of four
# leaves, PyTorch 2.13 runs their four `AccumulateGrad` nodes in edge order 0, 2, 1, 3
# (chapter 08, section 7).
#
# Python's `heapq` is a ready-made priority queue (it pops the smallest item, so push
# `(-sequence number, arrival count, node)`). The check compares your order with the one
# `viz.trace_backward` records from the real engine, on four graphs (the one of section 3,
# the classic `ones(2, 2)` example, and two where the order is less obvious).
#
# <details><summary>Hint 1</summary>
#
# Two phases, as in chapter 08: first count, for every node, the edges that point at it; then run a ready queue.
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# Count with a loop and a stack, following each node's edges once (a `seen` set). Then push `root`; each time a node is popped, take one from the count of each node it points at, and push those that reach 0.
#
# </details>
#
# <details><summary>A sketch</summary>
#
# `counts = {}` (walk from `root`); `ready = [(-root._sequence_nr(), next(arrival), root)]`; `while ready:` pop with `heapq.heappop`, append the node to `order`, then for each `next_node`: `counts[next_node] -= 1`, and at 0 `heapq.heappush(ready, (___, ___, next_node))`. Return `order`.
#
# </details>

# %%
# Exercise 12.2
def engine_order(root):
    return ...  # your code here: the nodes in the order the engine runs them

# %% tags=["hide-input"]
check_exercise("12.2")

# %% [markdown]
# <details><summary>Show solution</summary>
#
# ```python
# # Exercise 12.2
# import heapq
# import itertools
#
#
# def engine_order(root):
#     dependencies, seen, stack = {}, {root}, [root]          # 1. count the edges into each node
#     while stack:
#         node = stack.pop()
#         for next_node, _ in node.next_functions:
#             if next_node is not None:
#                 dependencies[next_node] = dependencies.get(next_node, 0) + 1
#                 if next_node not in seen:
#                     seen.add(next_node)
#                     stack.append(next_node)
#     arrival = itertools.count()                              # 2. the ready queue
#     ready = [(-root._sequence_nr(), next(arrival), root)]
#     order = []
#     while ready:                                             # 3. newest ready node first
#         _, _, node = heapq.heappop(ready)
#         order.append(node)
#         for next_node, _ in node.next_functions:
#             if next_node is not None:
#                 dependencies[next_node] -= 1
#                 if dependencies[next_node] == 0:
#                     heapq.heappush(ready, (-next_node._sequence_nr(), next(arrival), next_node))
#     return order
# ```
#
# This is `run_backward` of chapter 08 with the arithmetic taken out: the same dependency
# count (`compute_dependencies`), the same ready queue ordered by sequence number. Two simpler
# orders fail on one of the graphs each: a first-in-first-out queue runs the older
# `MulBackward0` of section 3 first, and a depth-first topological sort follows the order of
# `next_functions` instead of the sequence numbers (the `q * p` graph). Both would compute the
# same gradients; they are just not the engine's order.
#
# </details>

# %% [markdown]
# **Exercise 12.3.** This training loop, for the linear model of chapter 10, has three bugs.
# The first announces itself: running the loop, as the cell below does, fails on purpose with a
# `RuntimeError` (caught and printed). The other two are silent.

# %%
x_data = torch.tensor([[1.0, 1.0], [2.0, -1.0], [0.0, 2.0], [-1.0, 0.5]])
y_data = torch.tensor([[1.0], [2.0], [-1.0], [0.0]])
mse = torch.nn.MSELoss()


def make_model():
    """Chapter 10's linear model, from the same start every time, and its optimizer."""
    torch.manual_seed(0)
    model = torch.nn.Linear(2, 1)
    with torch.no_grad():
        model.weight.copy_(torch.tensor([[0.5, -0.3]]))
        model.bias.fill_(0.1)
    return model, torch.optim.SGD(model.parameters(), lr=0.1)


def broken_train(steps=30):
    model, optimizer = make_model()
    losses = []
    for _ in range(steps):
        pred = model(x_data).detach()
        loss = mse(pred, y_data)
        loss.backward()
        optimizer.zero_grad()
        optimizer.step()
        losses.append(loss)
    return losses


try:
    broken_train()
except RuntimeError as error:
    print("RuntimeError:", error)

# %% [markdown]
# Write `train(steps=30)`: the same loop with its three bugs fixed, returning the list of the
# `steps` losses as Python numbers. (Copy the body of `broken_train` and repair it; use
# `make_model()`, so that every run starts from the same weights.)
#
# <details><summary>Hint 1</summary>
#
# Run `broken_train` and read the error: it names the first bug.
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# The three lessons involved: the loss must reach the parameters through the graph, `.grad` must be cleared before `backward()` (not between it and `step()`), and a loss kept for later should be a plain number.
#
# </details>
#
# <details><summary>A sketch</summary>
#
# Copy the loop; move `optimizer.zero_grad()` to ___; remove ___ from the prediction; append `loss.___()` to `losses`.
#
# </details>

# %%
# Exercise 12.3
def train(steps=30):
    return ...  # your code here: broken_train's loop, repaired

# %% tags=["hide-input"]
check_exercise("12.3")

# %% [markdown]
# <details><summary>Show solution</summary>
#
# ```python
# # Exercise 12.3
# def train(steps=30):
#     model, optimizer = make_model()
#     losses = []
#     for _ in range(steps):
#         optimizer.zero_grad()               # 2. clear before backward, not between backward and step
#         pred = model(x_data)                # 1. no .detach(): the loss must reach the parameters
#         loss = mse(pred, y_data)
#         loss.backward()
#         optimizer.step()
#         losses.append(loss.item())          # 3. a number, not the tensor and its graph
#     return losses
# ```
#
# 1. `.detach()` makes a new leaf with no history (chapter 06): the loss has no `grad_fn`, and
#    `backward()` refuses with "element 0 of tensors does not require grad".
# 2. `zero_grad()` between `backward()` and `step()` sets every `.grad` to `None` just before
#    `step()` reads them, and `step()` skips parameters without a gradient: the loss stays at
#    its first value, silently (chapter 10, exercise 10.1).
# 3. `losses.append(loss)` keeps each step's loss tensor, and through its `grad_fn` the whole
#    graph of that step, alive as long as the list; `loss.item()` keeps one number (chapter 10
#    does the same).
#
# </details>

# %% [markdown]
# **Exercise 12.4.** Your `SGD.step` of step 10.3 changes each parameter in place, under `no_grad`. A classmate
# writes this optimizer instead. Its `step` looks like the same formula, $p \leftarrow p - \text{lr} \cdot
# \nabla_p L$, and raises no error:

# %%
class RebindingSGD:
    """An optimizer whose step looks like SGD's."""

    def __init__(self, parameters, lr):
        self.parameters, self.lr = list(parameters), lr

    def zero_grad(self):
        for p in self.parameters:
            p.grad = None

    def step(self):
        for p in self.parameters:
            if p.grad is not None:
                p = p - self.lr * p.grad

# %% [markdown]
# Chapter 10's linear model (`make_model()` of exercise 12.3, whose first loss is 0.3506) is trained for 30
# steps with it, in the five lines of chapter 10: `zero_grad()`, forward, loss, `backward()`, `step()`. Without
# running it: what is the 30th loss divided by the first? (With `torch.optim.SGD` the loss falls to about a
# third.)
#
# <details><summary>Hint 1</summary>
#
# Does `p = p - self.lr * p.grad` change the tensor that the model holds?
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# It gives the loop's name `p` a new tensor; the model's parameter keeps its old numbers. What does the loss do if the parameters never change?
#
# </details>
#
# <details><summary>A sketch</summary>
#
# If the parameters never move, every step computes the same loss: `answer_12_4` = 30th loss / first loss = ___.
#
# </details>

# %%
# Exercise 12.4
answer_12_4 = ...  # your answer here: a number

# %% tags=["hide-input"]
check_exercise("12.4")

# %% [markdown]
# <details><summary>Show solution</summary>
#
# ```python
# # Exercise 12.4
# answer_12_4 = 1.0
# ```
#
# `p = p - self.lr * p.grad` computes the new values in a **new** tensor and binds the loop's name `p` to it;
# at the next turn of the loop `p` is rebound again, and the new tensor is dropped. The model's `weight` and
# `bias` are the tensors in `self.parameters`, and nothing changed them: every step computes the same loss
# from the same weights, so the ratio is exactly 1. (Grad mode is on inside this `step`, so the new tensor is
# even recorded, with a `grad_fn`: a non-leaf, which would never get a `.grad` if the model did use it.)
#
# An optimizer must change the tensors it was given, not make new ones: in place (`p.sub_(...)`, chapter 07's
# version counter notices), and under `no_grad`, since an in-place change of a leaf that requires grad is
# refused while recording (chapters 06 and 10). That is step 10.3, and `mini_autograd`'s `SGD.step`
# (chapter 10, section 3), and PyTorch's.
#
# </details>

# %% [markdown]
# ## Recap
#
# - Each statement of article 000's summary was seen at work: the `requires_grad` flag decides
#   which operations leave nodes; backward enters at `loss.grad_fn` and goes from the loss
#   towards the leaves; the leaves' `.grad` is filled and an intermediate's is not (unless
#   `retain_grad()`); some nodes keep values of the forward pass, freed once backward has used
#   them; and the Python layer only hands the graph to the engine.
# - In one line: the graph is recorded as you compute, `backward()` runs it from the loss down,
#   the gradients add up in `.grad`, and only the optimizer's step changes the parameters.
# - One picture holds most of the course: the root, the `grad_fn` nodes and their
#   `next_functions`, `AccumulateGrad` and its leaf, a retained gradient, the saved tensors —
#   and after `backward()`, `x.grad = 7`, `h.grad = 1` and every saved tensor freed.
# - Every module of `mini_autograd` maps to a part of PyTorch, from `torch/_tensor.py` to
#   `engine.cpp`; the cheat sheet and the map above say where.
# - The course's key snippets print the same under mini_autograd and PyTorch 2.13.
# - Your `myautograd`, once every build step is done, prints the same too, on every snippet that stays within
#   its operations: `import myautograd as torch` runs the seed articles' code on the engine you wrote.
# - The exercises put it together: the chain rule by hand equals autograd; the engine's order
#   follows from dependency counts and sequence numbers alone; and a training loop is right
#   only when the graph reaches the parameters, `.grad` is cleared before `backward()`, and the
#   losses are kept as numbers; an optimizer changes the parameters in place, or not at all.
#
# Thank you for working through the course. [Back to 00 — Welcome](00_welcome.ipynb)
#
# An appendix goes further into PyTorch's engine: [13 — Deeper into the engine](13_deeper_engine.ipynb).
