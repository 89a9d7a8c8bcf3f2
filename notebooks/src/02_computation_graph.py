# %% [markdown]
# # 02 — The computation graph
#
# **In this chapter you will**
#
# - see that every result of a recorded operation carries a `grad_fn`: the node that made it;
# - learn the node names PyTorch uses (`AddBackward0`, `MulBackward0`, `MeanBackward0`, `MmBackward0`, ...);
# - walk the graph by hand through `next_functions`, from the output down to the leaves, and read its
#   `(node, input_nr)` and `(None, 0)` entries;
# - draw the graph, and see why it is called *dynamic*: every forward pass records a fresh one;
# - write the recorder yourself, in your `myautograd`: `gradient_edge` and `Function.apply`, checked against
#   PyTorch's graph for the scratch-paper example; then read the real one in `mini_autograd`.
#
# **Seed sections:** article 003, "the computation graph: PyTorch's scratch paper" (计算图); article 000, §4
# (`grad_fn`: the entry to the backward graph).
#
# **`mini_autograd` pieces introduced:** `Node` and its `next_functions` (`autograd/graph.py`), a first look at
# `AccumulateGrad`, `Function.apply` and `_record` (`autograd/function.py`, where the graph is recorded), and the
# arithmetic ops in `ops/`, one `Function` per operation.
#
# **Time:** about 45 minutes to read and run, and about 20 more for the two build steps.

# %%
import mini_autograd as torch
from mini_autograd import viz
from coursetools import show_source
from exercises import check_exercise

# %% [markdown]
# ## PyTorch's scratch paper
#
# In chapter 01 you saw that autograd needs a record of the forward computation. Seed article 003
# pictures it as **scratch paper**: each time you do an operation, one line is jotted down. That
# record is the **computation graph** (计算图). Here is the article's example:

# %%
x = torch.ones(2, 2, requires_grad=True)
y = x + 2
z = y * y * 3
out = z.mean()
print(out)

# %% [markdown]
# `x` is a 2×2 block of ones, so every entry of `y` is 3, every entry of `z` is $3 \cdot 3 \cdot 3 = 27$, and their
# mean is 27. The printout adds `grad_fn=<MeanBackward0>`: `out` remembers that it was made by a mean.
# The other results remember what made them too:

# %%
print(y.grad_fn)
print(z.grad_fn)

# %% [markdown]
# `y` was made by an addition, `z` by a multiplication. The `0x...` part is where the node object happens to
# live in memory; it changes from run to run and means nothing more. (The automated test of this course masks it.)
#
# And `x`? You created it yourself, so no operation made it:

# %%
print(x.grad_fn)

# %% [markdown]
# `None`. Tensors you create are where the graph starts; they are called **leaf tensors** (叶子张量),
# and chapter 04 is about them. Here is the whole record as a picture:

# %%
viz.draw(out, params={"x": x}, names={"out": out})

# %% [markdown]
# Read it from the top. `out` (green) was made by `MeanBackward0`, which points to the `MulBackward0` of `* 3`,
# which points to the `MulBackward0` of `y * y`, which points (twice: `y` is both factors) to the `AddBackward0`
# of `x + 2`, which points to `AccumulateGrad`, the node that will deliver the gradient into the leaf `x` (blue).
# The numbers 2 and 3 do not appear: they are plain Python numbers and need no gradient. The rest of this chapter
# reads the same graph in code.

# %% [markdown]
# ## `grad_fn`: the entry to the backward graph
#
# Seed article 000 makes the same point with its running example:

# %%
x = torch.tensor(2.0, requires_grad=True)
y = x * x + 3 * x
print(y.grad_fn)

# %% [markdown]
# `grad_fn` is not decoration. It points to the **backward function** of the operation that created the tensor
# (here the final `+`), and it is where `backward()` enters the graph. The seed article's image: the forward pass
# is like stacking building blocks, and each block comes with its **disassembly instructions**, its
# `grad_fn`. To take the model apart in reverse, the backward pass follows the instructions from the last block to the first.
#
# Each kind of operation has its own kind of node, named after it. A few of them:

# %%
a = torch.tensor([1.0, 2.0], requires_grad=True)
examples = [("a + 1", a + 1), ("a - 1", a - 1), ("a * 2", a * 2), ("a / 2", a / 2),
            ("a ** 2", a ** 2), ("a.exp()", a.exp()), ("a.tanh()", a.tanh()),
            ("a.sum()", a.sum()), ("a.mean()", a.mean()), ("a @ a", a @ a)]
for code, result in examples:
    print(f"{code:10} -> {result.grad_fn.name()}")

# %% [markdown]
# `name()` gives the node's name without the memory address. Addition makes `AddBackward0`, multiplication
# `MulBackward0`. The `0` at the end numbers the variants of one operation: `a ** 2` (a tensor to the power of a number)
# gives `PowBackward0`, while `a ** a` (a tensor to the power of a tensor) gives `PowBackward1`, because its derivative
# formula is a different one. `a @ a` on two vectors is a dot product, `DotBackward0`. On two matrices, `@` is a
# matrix multiply and makes `MmBackward0`:

# %%
A = torch.ones(2, 3, requires_grad=True)
B = torch.ones(3, 2, requires_grad=True)
C = A @ B
print(C)
print(C.grad_fn)

# %% [markdown]
# Each entry of `C` sums three products $1 \cdot 1$, hence the threes; `grad_fn=<MmBackward0>` says a
# matrix multiply made it. The names are PyTorch's own: `mini_autograd` copies them so that what you learn here
# reads the same in PyTorch's printouts and error messages.

# %% [markdown]
# ## Walking the graph by hand: `next_functions`
#
# A node knows its own operation, and it also knows where to send gradients next: its **`next_functions`**, one
# entry per input of the forward operation. Following them from `out.grad_fn` leads through the whole graph.
# Back to the scratch-paper example:

# %%
x = torch.ones(2, 2, requires_grad=True)
y = x + 2
z = y * y * 3
out = z.mean()
print(out.grad_fn.next_functions)

# %% [markdown]
# A tuple with one pair: the node made by `* 3` (a `MulBackward0`), and the number `0`. To read deeper, a small
# helper prints a node's name and each of its `next_functions` by name:

# %%
def show(node):
    """Print a node's name, then each (next node, input_nr) pair it sends gradients along."""
    print(node.name())
    for next_node, input_nr in node.next_functions:
        target = None if next_node is None else next_node.name()
        print(f"    -> ({target}, {input_nr})")

# %% [markdown]
# Now one level at a time, always following the first entry:

# %%
level0 = out.grad_fn
show(level0)
level1 = level0.next_functions[0][0]
show(level1)
level2 = level1.next_functions[0][0]
show(level2)
level3 = level2.next_functions[0][0]
show(level3)
level4 = level3.next_functions[0][0]
show(level4)

# %% [markdown]
# Five nodes, read from the output down:
#
# - `MeanBackward0` (made by `z.mean()`): one input, `z`, so one entry.
# - `MulBackward0` (the `* 3` in `z = y * y * 3`, which Python reads as `(y * y) * 3`): two inputs. The first is
#   `y * y`; the second is the number `3`, and its entry is **`(None, 0)`**: `None` means *no gradient goes this way*,
#   because a Python number (or any tensor that does not require grad) needs none.
# - `MulBackward0` (the `y * y`): both entries lead to the same `AddBackward0`, since `y` is both the left
#   and the right factor. Note that `y * y` never got a Python name, yet its node is in the graph.
# - `AddBackward0` (`x + 2`): the first entry leads to `x`'s `AccumulateGrad`, the second is `(None, 0)` for the number `2`.
# - `AccumulateGrad` (PyTorch prints its C++ name, `torch::autograd::AccumulateGrad`): no `next_functions`, the walk ends.
#   It is the node that adds the incoming gradient into `x.grad` (chapter 04).
#
# The nodes are the very objects seen earlier, and `AccumulateGrad` holds the leaf it writes to:

# %%
print(level1 is z.grad_fn, level3 is y.grad_fn)
print(level2.next_functions[0][0] is level2.next_functions[1][0])
print(level4.variable is x)

# %% [markdown]
# **What is the number in `(node, input_nr)`?** An edge does not only say which node receives the gradient, but
# also *which input* of that node it is: `input_nr`. A node has one input per output of its forward operation. All
# the operations here have a single output, so `input_nr` is always `0`. It would be 1 or more after an operation
# with several outputs (such as PyTorch's `torch.split`), to tell which of the pieces a gradient belongs to.
#
# A plain tensor that does not require grad gets `(None, 0)` as well, exactly like a number:

# %%
plain = torch.ones(2, 2)
show((x * plain).grad_fn)

# %% [markdown]
# Walking only first entries missed nothing here, but in general a graph branches. A short recursive walk visits every
# branch. It prints a tree, so a node reached along two paths (the `AddBackward0`) shows up twice; the engine itself
# runs each node once (chapter 03):

# %%
def walk(node, depth=0):
    print("    " * depth + node.name())
    for next_node, _ in node.next_functions:
        if next_node is not None:
            walk(next_node, depth + 1)

walk(out.grad_fn)

# %% [markdown]
# This is all `backward()` needs: start at `out.grad_fn`, apply each node's derivative rule, and pass the results
# along `next_functions` until every `AccumulateGrad` has been reached. The graph points *backwards*, from
# results to inputs, because that is the direction `backward()` travels; nothing points forward from `x` to `y`.

# %% [markdown]
# ## Define-by-run: a new graph every time
#
# There is no separate step where the graph is declared. It is written down while your code runs: each operation adds
# its node at the moment it executes. PyTorch calls this **define-by-run** (边运行边建图), and the result a
# **dynamic graph** (动态图). Each forward pass draws a fresh graph, so ordinary Python `if` and `for` simply work:
# the graph records the path the code actually took.

# %%
def forward(x, n_squares):
    h = x * 2
    if h.sum() > 0:                  # a Python if, deciding on the data
        h = h * h
    else:
        h = -h
    for _ in range(n_squares):       # a Python for loop
        h = h * h
    return h.sum()

def first_path(tensor):
    """The node names met from tensor.grad_fn when always following the first edge."""
    names, node = [], tensor.grad_fn
    while node is not None:
        names.append(node.name())
        node = node.next_functions[0][0] if node.next_functions else None
    return names

print(first_path(forward(torch.tensor([1.0, 2.0], requires_grad=True), 0)))
print(first_path(forward(torch.tensor([-1.0, -2.0], requires_grad=True), 0)))
print(first_path(forward(torch.tensor([1.0, 2.0], requires_grad=True), 2)))

# %% [markdown]
# Same function, three graphs. With a positive input the `if` took the multiplication branch (`MulBackward0`); with a
# negative one it took the negation (`NegBackward0`). Asking for two more squarings added two more `MulBackward0` nodes.
# The engine does not care: it walks whatever graph the last forward pass left.
#
# Even the same call twice gives two separate graphs:

# %%
x = torch.tensor([1.0, 2.0], requires_grad=True)
first, second = forward(x, 0), forward(x, 0)
print(first.grad_fn is second.grad_fn)

# %% [markdown]
# The price of this flexibility is that the graph is rebuilt on every forward pass; chapter 09 measures that cost
# and looks at dynamic graphs in more depth.

# %% [markdown]
# ## Build it: recording the graph while operations run
#
# How does `y = x + 2` end up with a `grad_fn` whose `next_functions` point to `x`'s `AccumulateGrad`? Each operation,
# as it runs, makes a node and wires it to *where the gradient of each input must go*:
#
# - the input's own `grad_fn`, if an operation made it;
# - else, if it is a leaf that requires grad, its `AccumulateGrad` node;
# - else nowhere: `(None, 0)`.
#
# Your `myautograd` gets this in two steps. The node classes are given in
# [myautograd/function.py](myautograd/function.py): `Node` (with `name()`, `next_functions`), `AccumulateGrad`
# (which holds its leaf as `.variable`), and `BackwardFunction`, the node an operation records, named after the
# operation (`MulBackward0`). The operations are given in [myautograd/ops.py](myautograd/ops.py) as `Function`s
# with a `forward` in numpy; their backward formulas are chapter 03's.
#
# ### Step 02.1: `gradient_edge`
#
# Write `gradient_edge(tensor)` in [myautograd/function.py](myautograd/function.py#gradient_edge): the three-way choice above,
# returning a pair `(node, input_nr)`. The `input_nr` is 0 everywhere in this course (it matters for operations
# with several outputs). For now, make a new `AccumulateGrad(tensor)` each time one is asked for; chapter 04
# comes back to this line.
#
# <details><summary>Hint 1</summary>
#
# An edge says where the gradient for this tensor goes next. Ask two questions, in this order: did an operation make
# the tensor (it has a `grad_fn`)? If not, is it a leaf that requires grad? Every answer is a pair `(node, 0)`.
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# The order matters: a tensor made by an operation also requires grad, so asking about `requires_grad` first would
# give it an `AccumulateGrad`, and its gradient would stop there instead of flowing on. The `AccumulateGrad` node is
# made around the leaf itself, which it keeps as `.variable`. A tensor that needs no gradient gets the pair
# `(None, 0)`, not a bare `None`.
#
# </details>
#
# <details><summary>A sketch</summary>
#
# ```python
# if tensor.grad_fn is not None:
#     return (___, 0)
# if ___:
#     return (AccumulateGrad(___), 0)
# return ___
# ```
#
# </details>

# %%
import buildtrack

buildtrack.check("02.1")

# %% [markdown]
# ### Step 02.2: `Function.apply`
#
# `Mul.apply(x, c)` is what `x * c` calls. Write `Function.apply` in the same file. The docstring lists the
# steps: make the node, hand it to `forward` as its `ctx` (so whatever `forward` keeps on `ctx` is kept on the
# node, for backward), and, if the result requires grad by your rule of step 01.2, give the node one edge per
# Tensor input and make it the result's `grad_fn`. The check builds the scratch-paper example and compares your
# graph with PyTorch's node by node.
#
# <details><summary>Hint 1</summary>
#
# In PyTorch the node *is* the `ctx`: `apply` makes the node first (a `BackwardFunction(cls)`), runs `cls.forward`
# with it, and only then decides, with your rule of step 01.2, whether to wire that node into the graph as the
# result's `grad_fn`.
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# Recording changes the result, never the inputs: after `x * c`, `c.requires_grad` must still be False. Edges and
# shapes are for the Tensor inputs only, in input order: the exponent `2` of `x ** 2` gets no edge. Each edge comes
# from your `gradient_edge`. When the rule says no, the result keeps `grad_fn` None.
#
# </details>
#
# <details><summary>A sketch</summary>
#
# ```python
# ctx = BackwardFunction(cls)
# result = cls.forward(___, *inputs)
# if ___:                                  # your rule of step 01.2
#     tensors = [t for t in inputs if ___]
#     ctx.next_functions = tuple(___ for t in tensors)
#     ctx.input_shapes = tuple(___ for t in tensors)
#     ___                                  # the result's two autograd fields
# return result
# ```
#
# </details>

# %%
buildtrack.check("02.2")

# %% [markdown]
# Here is the scratch-paper example drawn from `mini_autograd` and, once step 02.2 is done, from your package.
# `viz.draw` only needs `name()` and `next_functions` on the nodes, so it draws any engine built this way:

# %%
def scratch_paper(torch):
    x = torch.ones(2, 2, requires_grad=True)
    y = x + 2
    z = y * y * 3
    return z.mean()


buildtrack.compare_graphs(scratch_paper, "02.2")

# %% [markdown]
# The pieces you wrote are the ones `mini_autograd` has, read next: `gradient_edge` appears at the end of the
# next section, and `Function.apply` with its helper `_record` just before it.

# %% [markdown]
# ## Open the hood: where `mini_autograd` records the graph
#
# In `mini_autograd` every operation is a `Function` with a `forward` and a `backward`. Addition, for example:

# %%
from mini_autograd.ops.binary import Add

show_source(Add)

# %% [markdown]
# `node_name = "AddBackward0"` is the name you saw printed. (`alpha` is for PyTorch's `a.add(b, alpha=2)`, which
# computes `a + 2 * b` in one node; `a + b` leaves it at 1, and the first `return` runs.) `x + 2` calls `Tensor.__add__`, which wraps the number 2
# into a tensor that does not require grad and calls `Add.apply(x, <that tensor>)`. `apply` is where the
# recording happens:

# %%
show_source(torch.autograd.Function.apply)

# %% [markdown]
# Line by line, against your `Function.apply`:
#
# - `record = grad_enabled and any(needs_input_grad) and ...`: record only if recording is on (not under `no_grad`) and
#   at least one input requires grad. That is the rule from chapter 01, your `compute_requires_grad`.
# - `ctx = cls._backward_cls()`: when recording, the `ctx` object that `forward` receives *is* the new node, of a class
#   named after the operation (`AddBackward0`). So what `forward` saves on `ctx` is saved on the node, ready for
#   backward. Yours makes the node in every case; `mini_autograd` hands forward a plain `FunctionCtx` when nothing
#   is recorded, which saves making a node that would be thrown away.
# - `forward` itself runs with recording switched off: the operations inside an operation are not recorded.
# - `_record` then wires the node into the graph:

# %%
from mini_autograd.autograd.function import _record
from mini_autograd.autograd.graph import gradient_edge

show_source(_record)

# %% [markdown]
# `node.next_functions = tuple([gradient_edge(a) for a in args if isinstance(a, Tensor)])` is your line that
# makes the edges, one per tensor argument, and
# `out._grad_fn = node` (read back as `out.grad_fn`) is your `result.grad_fn = ctx`. The rest serves later
# chapters: saved tensors (chapter 07),
# `_input_metadata` (the shape each incoming gradient must have, checked by the engine), and non-differentiable
# outputs (yours keeps the input shapes, `ctx.input_shapes`, for the same purpose). `gradient_edge` is the
# three-way choice of your step 02.1:

# %%
show_source(gradient_edge)

# %% [markdown]
# `_get_grad_accumulator` makes the leaf's `AccumulateGrad` the first time it is needed and then reuses it; that is why
# both factors of `y * y` above could lead to one and the same node.
#
# **In PyTorch** the same work is split between Python (`torch/autograd/function.py`: `class Function`, for custom
# operations) and C++ (every built-in operation). The box below says where, for those who want to read PyTorch's source.
#
# <details><summary>In PyTorch: where the graph is recorded</summary>
#
# - `torch/autograd/function.py`: `class Function`, whose `apply` enters C++ for custom functions
#   (`torch/csrc/autograd/python_function.cpp`: `THPFunction_apply`, which wraps the outputs and saves tensors in
#   `_wrap_outputs` and `_save_variables`).
# - Built-in operations do not go through Python at all. Their nodes are generated C++ classes, declared in
#   `torch/csrc/autograd/generated/Functions.h` (`struct AddBackward0`, `struct MulBackward0`, ...), generated from
#   the derivative formulas listed in `tools/autograd/derivatives.yaml`. The generated `VariableType` code creates
#   the node, and connects it with `collect_next_edges` as each operation runs.
# - `torch/csrc/autograd/node.h`: `struct Node`, which holds `next_edges_`; an edge is
#   `torch/csrc/autograd/edge.h`: `struct Edge` (`function`, `input_nr`). A leaf's edge comes from
#   `impl::gradient_edge` in `torch/csrc/autograd/variable.cpp`.
# - The Python attribute `grad_fn.next_functions` is `THPCppFunction_next_functions` in
#   `torch/csrc/autograd/python_cpp_function.cpp`.
#
# </details>

# %% [markdown]
# ## Exercises
#
# ### Exercise 2.1: name the `grad_fn`
#
# Without running it: what does `r.grad_fn.name()` return for
#
# ```python
# w = torch.tensor([1.0, 2.0], requires_grad=True)
# r = 2 * w.exp().sum()
# ```
#
# Answer with a string, such as `"ExpBackward0"`.
#
# <details><summary>Hint 1</summary>
#
# `grad_fn` is the node of the *last* operation that made the tensor.
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# Python evaluates `w.exp()`, then `.sum()`, then the multiplication by 2.
#
# </details>
#
# <details><summary>A sketch</summary>
#
# Find the last operation in `2 * w.exp().sum()`, and write the name of its node, `"___Backward0"`.
#
# </details>

# %%
# Exercise 2.1
answer_2_1 = ...  # your answer here: a node name as a string

# %% tags=["hide-input"]
check_exercise("2.1")

# %% [markdown]
# <details><summary>Show solution</summary>
#
# ```python
# # Exercise 2.1
# answer_2_1 = "MulBackward0"
# ```
#
# Python evaluates `w.exp()` first, then `.sum()`, and multiplies by 2 last. A tensor's `grad_fn` is the node of the
# operation that made it, the multiplication. `ExpBackward0` and `SumBackward0` are further down the graph:
# `r.grad_fn.next_functions[0][0]` is the `SumBackward0`.
# </details>

# %% [markdown]
# ### Exercise 2.2: count the nodes
#
# How many distinct nodes does the graph behind `s` have, counting `s.grad_fn` and every `AccumulateGrad`?
#
# ```python
# a = torch.tensor([1.0, 2.0], requires_grad=True)
# b = torch.tensor([3.0, 4.0], requires_grad=True)
# s = (a * b + a).sum()
# ```
#
# Draw it on paper first, then answer with a number. (You may check with `viz.draw(s)`.)
#
# <details><summary>Hint 1</summary>
#
# Draw one box per operation, and one `AccumulateGrad` box per leaf that requires grad.
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# A leaf used twice gets two edges to its `AccumulateGrad`, but it is still one node.
#
# </details>
#
# <details><summary>A sketch</summary>
#
# Count: operations in `(a * b + a).sum()` = ___; leaves that require grad = ___; `answer_2_2` = their sum.
#
# </details>

# %%
# Exercise 2.2
answer_2_2 = ...  # your answer here: a number of nodes

# %% tags=["hide-input"]
check_exercise("2.2")

# %% [markdown]
# <details><summary>Show solution</summary>
#
# ```python
# # Exercise 2.2
# answer_2_2 = 5
# ```
#
# Three operations give `SumBackward0`, `AddBackward0` and `MulBackward0`. The leaves add one `AccumulateGrad` each.
# `a` is used twice (in `a * b` and in `+ a`), so two edges lead to its `AccumulateGrad`, but it is one node: 3 + 2 = 5.
# </details>

# %% [markdown]
# ### Exercise 2.3: predict `next_functions`
#
# For the code below, predict the names that `u.grad_fn.next_functions` leads to, in order. Write `None` for an
# entry that leads nowhere.
#
# ```python
# a = torch.tensor([1.0, 2.0], requires_grad=True)
# b = torch.ones(2)
# u = a * 2 + b
# ```
#
# Answer with a tuple of two entries, such as `("AddBackward0", "MulBackward0")`.
#
# <details><summary>Hint 1</summary>
#
# `u.grad_fn` is the node of the last operation, the `+`. It has one entry per input of the `+`, in order.
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# For each input of the `+`: was it made by a recorded operation (then its node), or is it a tensor that needs no gradient (then `None`)?
#
# </details>
#
# <details><summary>A sketch</summary>
#
# `answer_2_3 = ("___Backward0", ___)`: first the node that made `a * 2`, then the entry for `b`.
#
# </details>

# %%
# Exercise 2.3
answer_2_3 = ...  # your answer here: (name or None, name or None)

# %% tags=["hide-input"]
check_exercise("2.3")

# %% [markdown]
# <details><summary>Show solution</summary>
#
# ```python
# # Exercise 2.3
# answer_2_3 = ("MulBackward0", None)
# ```
#
# `u.grad_fn` is the `AddBackward0` of `... + b`. Its first input, `a * 2`, was made by a multiplication, so the first
# entry is `(MulBackward0, 0)`. Its second input `b` is a tensor that does not require grad, so the second entry
# is `(None, 0)`.
# </details>

# %% [markdown]
# ## Recap
#
# - Every tensor made by a recorded operation has a `grad_fn`: the node of that operation, named after it
#   (`AddBackward0`, `MulBackward0`, `MeanBackward0`, `MmBackward0`, ...). Tensors you create have `grad_fn = None`:
#   they are the leaves where the graph starts.
# - A node's `next_functions` holds one `(node, input_nr)` edge per input: the node that receives that input's
#   gradient, and which of its inputs it is. `(None, 0)` means no gradient is needed (a number, or a tensor that does
#   not require grad). The walk ends at `AccumulateGrad` nodes, one per leaf that requires grad.
# - The graph points backwards, from the output to the leaves: the way `backward()` travels.
# - It is recorded as the code runs (define-by-run), anew on every forward pass, so `if` and `for` just work.
# - In `mini_autograd`, `Function.apply` makes the node and `_record` wires it with `gradient_edge`; in PyTorch the
#   nodes of built-in operations are C++ classes generated from `tools/autograd/derivatives.yaml`. Your
#   `myautograd` records graphs the same way (steps 02.1 and 02.2).
#
# [Next: 03 — backward(): reading the graph in reverse](03_backward.ipynb)
