# %% [markdown]
# # 12 — Summary: the whole picture
#
# Eleven chapters took `loss.backward()` apart. This last one puts it back together: the
# article's summary checked line by line, one table with every concept of the course, a map of
# the `mini_autograd` package, and the course's key examples run twice — under mini_autograd
# and under real PyTorch — with their outputs side by side.
#
# **What you will find here**
#
# - the summary of article 000, each statement backed by a line of running code
# - the one-line summary: forward builds the graph, backward executes it, gradients
#   accumulate, the optimizer updates
# - a cheat sheet: concept, API, what happens inside, where PyTorch does it
# - the map of every `mini_autograd` module, the chapters that opened it, and its PyTorch
#   counterpart
# - the course's key snippets under mini_autograd and PyTorch, side by side (when PyTorch is
#   installed)
# - what changes when you graduate to PyTorch, and where to read next
#
# **Seed section:** article 000 §13, "总结" (summary).
#
# **mini_autograd pieces introduced:** none; this chapter maps all of them.
#
# **Time:** about 20 minutes.

# %%
import contextlib
import html
import importlib
import io
import pkgutil
import re

from IPython.display import HTML, Markdown, display

import mini_autograd
import mini_autograd as torch

# %% [markdown]
# ## 1. Article 000's summary, checked
#
# Article 000 closes with a list of statements about autograd. Each one is something you have
# seen running; here they are once more, each with the line of code that shows it.
#
# **Autograd is the engine of PyTorch training**: it is what turns a forward computation into
# the gradients the optimizer needs (chapter 10). The rest of the list says how:

# %%
x = torch.tensor(2.0, requires_grad=True)
c = torch.tensor(2.0)                            # requires_grad=False: a plain number
print("requires_grad decides whether to record:", (c * 3).grad_fn, "vs", (x * 3).grad_fn.name())

h = x * x
loss = h + 3 * x
print("grad_fn is the entry of the backward graph:", loss.grad_fn.name(), "->",
      [node.name() for node, _ in loss.grad_fn.next_functions])
print("some operations save forward values for backward: x * x saved", h.grad_fn._saved_self,
      "and", h.grad_fn._saved_other)

loss.backward()
print("backward walked back from the loss, and the leaf's .grad is filled:", x.is_leaf, x.grad)
print("the intermediate h keeps no gradient by default:", "is_leaf", h.is_leaf,
      "| retains_grad", h.retains_grad)

# %% [markdown]
# Line by line:
#
# - **`requires_grad` decides whether a computation is recorded.** The same multiplication
#   leaves no node behind for a plain tensor and a `MulBackward0` for `x` (chapters 01, 02, 06).
# - **`grad_fn` points to the entry of the backward graph.** From `loss.grad_fn` the edges lead
#   to the two `MulBackward0` nodes (`x * x` and `3 * x`), and on to the leaf (chapter 02).
# - **Some operations save forward intermediates for backward.** `x * x` kept both factors,
#   since $\partial(ab)/\partial a = b$ (chapter 07).
# - **`backward()` walks back from the loss** and **the leaves' `.grad` get filled**: $x.grad =
#   2x + 3 = 7$ (chapters 03, 04, 08).
# - **Intermediate gradients are not kept by default**: `h` is not a leaf and does not retain its
#   gradient, unless you call `h.retain_grad()` (chapter 04).
# - **The Python API is the entry point; the C++ engine does the work.** `Tensor.backward` →
#   `torch.autograd.backward` → `_engine_run_backward` (`torch/autograd/graph.py`) → the C++
#   `run_backward` (`torch/csrc/autograd/python_engine.cpp`) → `Engine::execute`
#   (`engine.cpp`); in mini_autograd the same chain ends in `autograd/engine.py` (chapters 03,
#   08).
#
# And one more fact that article 000 §8 taught: the saved values are freed once backward has
# used them.

# %%
try:
    h.grad_fn._saved_self
except RuntimeError as error:
    print("RuntimeError:", str(error).split(". ")[0] + ".")

# %% [markdown]
# ## 2. The one-line summary
#
# Article 000 sums up the whole mechanism in one line of four clauses:
#
# > **Forward builds the graph, backward executes it, gradients accumulate, the optimizer
# > updates.** (前向建图，反向执行，梯度累加，优化器更新)
#
# Four lines of code, one per clause:

# %%
w = torch.tensor([1.0, -2.0], requires_grad=True)
optimizer = torch.optim.SGD([w], lr=0.1)

loss = (w ** 2).sum()      # forward builds the graph
loss.backward()            # backward executes it
print("w.grad:", w.grad)   # gradients accumulate (into .grad)
optimizer.step()           # the optimizer updates
print("w:", w)

# %% [markdown]
# The graph of `loss` is recorded by the forward line; `backward()` runs it and adds $2w =
# [2, -4]$ into `w.grad`; `step()` moves $w$ to $w - 0.1 \cdot 2w = [0.8, -1.6]$. In a loop,
# `optimizer.zero_grad()` comes first, because of the third clause.

# %% [markdown]
# ## 3. Cheat sheet
#
# | concept | API | what happens inside | PyTorch source |
# |---|---|---|---|
# | recording switch (01, 06) | `requires_grad=True`, `torch.no_grad()`, `torch.inference_mode()` | `Function.apply` records a node only if an input requires grad and grad mode is on | `torch/autograd/grad_mode.py`; `c10/core/GradMode.h`; `torch/csrc/autograd/python_function.cpp` |
# | computation graph (02, 09) | `t.grad_fn`, `grad_fn.next_functions`, `grad_fn.name()` | each operation's `apply` makes one `Node` with one edge `(node, input_nr)` per input; a new graph every forward (define-by-run) | `torch/csrc/autograd/function.h` (`Node`), `edge.h` |
# | backward formulas (02, 07, 11) | `AddBackward0`, `MulBackward0`, ... | each node's `apply` computes a vector-Jacobian product from the gradient of its output | `tools/autograd/derivatives.yaml` → `torch/csrc/autograd/generated/Functions.cpp` |
# | `backward()` (03) | `loss.backward()`, `torch.autograd.backward` | `_make_grads` (scalar rule, `gradient=`), then the engine | `torch/_tensor.py`; `torch/autograd/__init__.py` |
# | the engine (03, 08) | — | `GraphTask`, dependency counts, `ReadyQueue` (newest node first), `InputBuffer` sums, `evaluate_function` | `torch/csrc/autograd/engine.cpp`, `graph_task.h`, `input_buffer.cpp`, `python_engine.cpp` |
# | leaves (04) | `t.is_leaf`, `t.grad`, `requires_grad_()` | a leaf's gradient edge ends in its `AccumulateGrad` node | `torch/csrc/autograd/variable.cpp` (`grad_accumulator`) |
# | non-leaf gradients (04) | `t.retain_grad()`, `t.retains_grad` | a hook that copies the gradient into `.grad` | `torch/csrc/autograd/variable.cpp` (`VariableHooks::retain_grad`) |
# | accumulation (05, 10) | `x.grad`, `optimizer.zero_grad()`, `x.grad = None` | `AccumulateGrad.apply` stores the first gradient, then adds in place | `torch/csrc/autograd/functions/accumulate_grad.h`; `torch/optim/optimizer.py` |
# | cutting the graph (06) | `t.detach()`, `torch.no_grad()` | `detach` makes a new leaf sharing data; `no_grad` switches recording off for a block | `torch/csrc/autograd/VariableTypeManual.cpp` (`detach`); `torch/autograd/grad_mode.py` |
# | saved tensors (07) | `ctx.save_for_backward`, `grad_fn._saved_self`, `retain_graph=True` | saved with their version; freed after the node runs unless `retain_graph`; an in-place change is caught at unpack | `torch/csrc/autograd/saved_variable.cpp` |
# | training (10) | `nn.Module`, `nn.Linear`, `optim.SGD`, `step()` | `Module.__call__` → `forward`; `Linear` is one `addmm`; `step` is an in-place update under `no_grad` | `torch/nn/modules/module.py`, `linear.py`; `torch/optim/sgd.py` |
# | custom operations (11) | `torch.autograd.Function`, `gradcheck` | the same `apply` as built-ins; `gradcheck` compares Jacobians with finite differences | `torch/autograd/function.py`; `python_function.cpp`; `torch/autograd/gradcheck.py` |
# | hooks (04, 11) | `t.register_hook`, `grad_fn.register_prehook`, `grad_fn.register_hook` | run by `call_function` around each node | `engine.cpp`: `call_tensor_pre_hooks`, `call_pre_hooks`, `call_post_hooks` |
# | higher-order gradients (11) | `create_graph=True`, `torch.autograd.grad` | the engine runs the backward with grad mode on, so it is recorded | `torch/autograd/__init__.py` (`grad`); `graph_task.h` |

# %% [markdown]
# ## 4. The map of `mini_autograd`
#
# The package grew with the chapters. Each module, the chapters that opened it, and where
# PyTorch does the same (the table is built from the list below, and the cell checks that no
# module of the package is missing from it):

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
    (["mini_autograd.creation"], "`tensor`, `ones`, `zeros`, `linspace`, `randn`, `manual_seed`, ...", "01",
     "`torch/csrc/utils/tensor_new.cpp`; `aten/src/ATen/native/TensorFactories.cpp`"),
    (["mini_autograd.grad_mode"], "`no_grad`, `enable_grad`, `set_grad_enabled`, `inference_mode`", "06",
     "`torch/autograd/grad_mode.py`; `c10/core/GradMode.h`"),
    (["mini_autograd.autograd"], "`backward`, `grad`, `_make_grads`", "03, 11",
     "`torch/autograd/__init__.py`"),
    (["mini_autograd.autograd.function"], "`Function`, `ctx`, `apply`: where the graph is recorded",
     "02, 06, 09, 11", "`torch/autograd/function.py`; `torch/csrc/autograd/python_function.cpp`"),
    (["mini_autograd.autograd.graph"], "`Node`, `next_functions`, `AccumulateGrad`, `SavedTensor`, hooks",
     "02, 04, 05, 07, 08", "`torch/csrc/autograd/function.h`; `functions/accumulate_grad.h`; `saved_variable.h`"),
    (["mini_autograd.autograd.engine"], "`run_backward`, `GraphTask`, `ReadyQueue`, `InputBuffer`, `evaluate_function`",
     "03, 08, 11", "`torch/csrc/autograd/engine.cpp`; `graph_task.h`; `input_buffer.h`; `python_engine.cpp`"),
    (["mini_autograd.autograd.gradcheck"], "`gradcheck`: finite differences against backward", "11",
     "`torch/autograd/gradcheck.py`"),
    (["mini_autograd.ops", "mini_autograd.ops.pointwise", "mini_autograd.ops.reduction",
      "mini_autograd.ops.linalg", "mini_autograd.ops.shape", "mini_autograd.ops.indexing",
      "mini_autograd.ops.join", "mini_autograd.ops.nn_ops", "mini_autograd.ops._helpers"],
     "one `Function` per operation (`AddBackward0`, `MmBackward0`, ...), broadcasting and type promotion",
     "02, 07, 11", "`tools/autograd/derivatives.yaml`; `torch/csrc/autograd/generated/Functions.cpp`"),
    (["mini_autograd.nn", "mini_autograd.nn.module", "mini_autograd.nn.parameter", "mini_autograd.nn.linear",
      "mini_autograd.nn.container", "mini_autograd.nn.activation", "mini_autograd.nn.loss",
      "mini_autograd.nn.functional", "mini_autograd.nn.init"],
     "`Module`, `Parameter`, `Linear`, `Sequential`, activations, losses, `functional`, `init`", "10",
     "`torch/nn/modules/`; `torch/nn/parameter.py`; `torch/nn/functional.py`; `torch/nn/init.py`"),
    (["mini_autograd.optim", "mini_autograd.optim.optimizer", "mini_autograd.optim.sgd",
      "mini_autograd.optim.adam"], "`Optimizer` (`zero_grad`), `SGD`, `Adam`", "05, 10",
     "`torch/optim/optimizer.py`; `sgd.py`; `adam.py`"),
    (["mini_autograd.viz", "mini_autograd.viz.walk", "mini_autograd.viz.dot", "mini_autograd.viz.picture",
      "mini_autograd.viz.trace"], "graph pictures (`draw`) and the engine trace (`trace_backward`)",
     "all; the trace in 08", "none in PyTorch (the pictures follow the third-party `torchviz`)"),
]

def file_of(module_name):
    """mini_autograd.ops.pointwise -> ops/pointwise.py; a package -> its __init__.py."""
    path = module_name.replace("mini_autograd", "").lstrip(".").replace(".", "/")
    if hasattr(importlib.import_module(module_name), "__path__"):
        return (path + "/__init__.py").lstrip("/")
    return path + ".py"


rows = ["| file in `mini_autograd/` | what it holds | chapters | PyTorch counterpart |", "|---|---|---|---|"]
for modules, holds, chapters, counterpart in MODULE_MAP:
    shown = ", ".join(f"`{file_of(m)}`" for m in modules)
    rows.append(f"| {shown} | {holds} | {chapters} | {counterpart} |")
display(Markdown("\n".join(rows)))

in_package = {"mini_autograd"} | {m.name for m in pkgutil.walk_packages(mini_autograd.__path__, "mini_autograd.")}
in_map = {m for modules, *_ in MODULE_MAP for m in modules}
print("every module of mini_autograd is in the map:", in_package <= in_map,
      "| missing:", sorted(in_package - in_map))

# %% [markdown]
# The dependencies point one way: `_tensor` ← `autograd` ← `ops` ← `nn` / `optim`, and
# `viz` only reads the graph. PyTorch has the same layering, with C++ underneath: the Python
# `torch.autograd` is a thin layer over `torch/csrc/autograd/`, and the operations live in ATen
# (`aten/src/ATen/native/`), with their derivatives in `derivatives.yaml`.

# %% [markdown]
# ## 5. The same code under real PyTorch
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
SKIPPED = "skipped: PyTorch is not installed (pip install torch==2.13.0)"
print("PyTorch:", pytorch.__version__.split("+")[0] if pytorch is not None else "not installed")


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

SNIPPETS["the 30-second example (01; 003)"] = """
x = torch.tensor(2.0, requires_grad=True)
y = torch.tensor(3.0, requires_grad=True)
z = x ** 2 + y * 3
z.backward()
print(x.grad)
print(y.grad)
"""

SNIPPETS["grad_fn of y = x*x + 3x (02; 000 §3-4)"] = """
x = torch.tensor(2.0, requires_grad=True)
y = x * x + 3 * x
print(y.grad_fn)
y.backward()
print(x.grad)
"""

SNIPPETS["the classic example (02, 03; 003)"] = """
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

SNIPPETS["walking next_functions (02)"] = """
x = torch.ones(2, 2, requires_grad=True)
out = ((x + 2) * (x + 2) * 3).mean()

def walk(node, depth=0):
    print("  " * depth + (node.name() if node is not None else "None"))
    if node is not None:
        for next_node, input_nr in node.next_functions:
            walk(next_node, depth + 1)

walk(out.grad_fn)
"""

SNIPPETS["non-scalar outputs (03; 003)"] = """
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x ** 2
try:
    y.backward()
except RuntimeError as error:
    print("RuntimeError:", error)
y.backward(torch.ones_like(y))
print(x.grad)
"""

SNIPPETS["leaves and retain_grad (04; 000 §5)"] = """
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
y.retain_grad()
loss = (y * y).sum()
loss.backward()
print(x.is_leaf, y.is_leaf, loss.is_leaf)
print(y.grad)
print(x.grad)
"""

SNIPPETS["gradients accumulate (05; 000 §10)"] = """
x = torch.tensor(2.0, requires_grad=True)
y = x * x
y.backward()
print(x.grad)
y = x * x
y.backward()
print(x.grad)
"""

SNIPPETS["no_grad and detach (06; 000 §9)"] = """
x = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.no_grad():
    y = x * 2
print(y, y.requires_grad, y.grad_fn)
d = x.detach()
print(d, d.requires_grad, d.is_leaf)
d[0] = 10.0                     # detach shares the data
print(x)
"""

SNIPPETS["one training step (10; 000 §6)"] = """
model = torch.nn.Linear(2, 1)
with torch.no_grad():
    model.weight.copy_(torch.tensor([[0.5, -0.3]]))
    model.bias.fill_(0.1)
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

SNIPPETS["a custom Function and gradcheck (11)"] = """
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

SNIPPETS["a second derivative (11)"] = """
x = torch.tensor(1.0, requires_grad=True)
y = x ** 3
(dy_dx,) = torch.autograd.grad(y, x, create_graph=True)
(d2y_dx2,) = torch.autograd.grad(dy_dx, x)
print(dy_dx)
print(d2y_dx2)
"""

print(len(SNIPPETS), "snippets")

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
    verdict = f"identical: {mini_output == torch_output}" if pytorch is not None else SKIPPED
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

print("The verdicts in one list:")
for title, verdict in results.items():
    print(f"{title:42} {verdict}")

# %% [markdown]
# Every line the course taught prints the same in both: the gradients, the node names
# (`AddBackward0`, `MeanBackward0`, `torch::autograd::AccumulateGrad`), the error message of
# the scalar rule, the leaf flags, the accumulated 4 then 8, the training step, the custom
# node `MyExpBackward` and the second derivative. (If PyTorch is not installed, the right-hand
# column says so; `pip install torch==2.13.0` and run the cells again.)
#
# Where they do differ is outside these snippets: random numbers (mini_autograd has its own
# generator, so `torch.manual_seed(0)` gives other initial weights), speed, and the many
# operations, dtypes and devices PyTorch has and mini_autograd does not.

# %% [markdown]
# ## 6. Graduating to PyTorch
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
#   operations on views, which the engine rewrites (`CopySlices`).
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
#   `evaluate_function`, `call_function`), `function.h` (`Node`), `functions/accumulate_grad.h`,
#   `saved_variable.cpp`, `tools/autograd/derivatives.yaml`, `torch/autograd/function.py`,
#   `torch/autograd/gradcheck.py`.
#
# And the package you have been reading is still here: every `show_source` in the course points
# into `mini_autograd/`, small enough to read in an afternoon, and its tests (`tests/`) compare
# it with PyTorch.

# %% [markdown]
# ## Recap
#
# - Article 000's summary holds, line by line: `requires_grad` decides what is recorded,
#   `grad_fn` is the entry of the backward graph, `backward()` walks back from the loss, leaves
#   get `.grad`, intermediates do not (unless `retain_grad()`), some operations save forward
#   values (freed after backward), Python is the entry and the engine does the work.
# - In one line: forward builds the graph, backward executes it, gradients accumulate, the
#   optimizer updates (前向建图，反向执行，梯度累加，优化器更新).
# - Every module of `mini_autograd` maps to a part of PyTorch, from `torch/_tensor.py` to
#   `engine.cpp`; the cheat sheet and the map above say where.
# - The course's key snippets print the same under mini_autograd and PyTorch 2.13.
#
# Thank you for working through the course. [Back to 00 — Welcome](00_welcome.ipynb)
