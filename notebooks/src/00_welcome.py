# %% [markdown]
# # 00 — Welcome: how PyTorch's autograd works
#
# Every PyTorch training loop contains the line `loss.backward()`. This course opens that line up:
# what is recorded while your model runs forward, what `backward()` does with the record, where the
# gradients end up, and why they sometimes do not. Each chapter runs a small example, draws its
# graph, explains it, then opens the source code that did the work.
#
# **In this chapter you will**
#
# - learn the few notebook moves the course needs (run a cell, run all, restart)
# - check that your set-up can run the course (Python, numpy, Graphviz, ...)
# - run your first gradient with `import mini_autograd as torch`, and see how `mini_autograd` relates to PyTorch;
# - get the map of the chapters and a short English/Chinese glossary.
#
# **Seed articles.** The course follows two Chinese articles on autograd: `003` (a gentle
# introduction) and `000` (a deep dive in 13 sections). This chapter follows no section of
# them; it gets you ready. From chapter 01 on, every chapter names the sections it covers and runs
# their examples with the same numbers.
#
# **`mini_autograd` pieces introduced:** the package itself, used as `import mini_autograd as torch`.
#
# **Time:** about 15 minutes.

# %% [markdown]
# ## Notebooks in two minutes
#
# A notebook is a list of **cells**. Text cells like this one explain; **code cells** (the grey
# boxes with `[ ]:` on their left) hold Python that you run. All cells of a notebook share one
# running Python process, the **kernel**.
#
# - **Shift+Enter** runs the selected cell and moves to the next one. Try it on the cell below.
# - The number in `[1]:` says in which order cells ran. An empty `[ ]` has not run yet; `[*]` is running.
# - The value of a cell's **last line** is displayed under it (no `print` needed), labelled `Out`.

# %%
from coursetools import tr      # tr: the course's words, in the edition's language (English or Chinese)
print(tr("Hello from the kernel."))
meaning = 6 * 7

# %% [markdown]
# The cell printed a line and created a variable. The kernel remembers it, so the next cell can use it;
# because `meaning` is the last line, its value is displayed:

# %%
meaning

# %% [markdown]
# Three menu commands are worth knowing:
#
# - **Run → Run All Cells** runs the whole notebook from top to bottom. Do this when you open a chapter
#   and just want to read it with fresh results.
# - **Kernel → Restart Kernel and Run All Cells...** forgets every variable and runs everything again in
#   order. Use it whenever things look odd: cells run out of order can leave stale variables behind
#   (for example an `x` from a later cell). Every chapter is written to run cleanly from top to bottom.
# - **Kernel → Interrupt Kernel** (or press `I` twice in command mode) stops a cell that runs too long.
#
# Editing is encouraged: change a number, run the cell again, see what changes. To get help on
# a function, put the cursor on it and press **Shift+Tab**, or run a cell with `torch.tensor?`.
#
# **Exercises.** Each chapter ends with two or three. An exercise cell starts with `# Exercise N.k` and
# holds a placeholder under the exercise's own name, such as `answer_1_1 = ...` (the three dots are Python's
# `Ellipsis`, meaning "not filled in yet"; an exercise that asks for a function has `return ...` instead);
# replace the dots with your answer and run it. The cell right after it checks your answer and says why not
# if it is wrong; as shipped it says the exercise is not answered yet. Its code is folded away, all but its
# first line, `check_exercise("N.k")`, and a row of dots: the check it calls knows the answer. Run it as it
# is. Above the exercise cell, closed boxes help if you want help: **Hint 1** (a nudge), **Hint 2** (more), and **A sketch**
# (the shape of the answer, with blanks). A **Show solution** box follows the check, closed, for when
# you are stuck.

# %% [markdown]
# ## Set-up check
#
# The course needs Python 3.10 or newer, numpy (it does the arithmetic), matplotlib (plots),
# the `graphviz` Python package and Graphviz's **`dot` program** (together they draw the graphs), and
# `mini_autograd`, the package embedded in this repository. Real PyTorch is optional: if it is
# installed, chapter 12 runs the same code under both and shows the outputs side by side.
#
# The helpers come from `coursetools.py`, a small file beside the notebooks.

# %%
import mini_autograd as torch
from mini_autograd import viz
from coursetools import print_versions, setup_check
from exercises import check_exercise

# %% [markdown]
# First, what is installed. These versions come from your machine, so yours may differ from the ones stored in
# this notebook; that is fine as long as the check after it passes.

# %%
# NBVAL_IGNORE_OUTPUT
# (the line above tells the course's automated test to skip this output: versions differ between machines)
print_versions()

# %% [markdown]
# Now the verdict, one line per requirement:

# %%
setup_check()

# %% [markdown]
# If a line shows ❌, follow the instructions printed under it. The usual one is the `dot` program:
# the `graphviz` Python package only *describes* a graph; the separate `dot` program lays it out
# and draws it, and `pip` cannot install it. Install it with one of
#
# - conda: `conda install -c conda-forge graphviz python-graphviz` (the repository's `environment.yml` already has both)
# - Debian/Ubuntu: `sudo apt-get install graphviz`;
# - macOS with Homebrew: `brew install graphviz`;
#
# then run the check again. If it still says ❌, start JupyterLab again from a terminal in which
# `dot -V` works: the kernel looks for `dot` on the `PATH` it was started with. Without `dot` the course still
# runs, but graphs are shown as text instead of pictures.

# %% [markdown]
# ## A first taste: the 30-second example
#
# Here is the first example of seed article 003. The code is the article's; only the import line differs. Run it:

# %%
x = torch.tensor(2.0, requires_grad=True)
y = torch.tensor(3.0, requires_grad=True)

z = x ** 2 + y * 3   # z = x² + 3y
z.backward()

print(x.grad)  # dz/dx = 2x = 4
print(y.grad)  # dz/dy = 3

# %% [markdown]
# Three steps: create the inputs with `requires_grad=True`, compute with them as usual, call
# `backward()` on the result. The derivatives are then waiting in `.grad`: $\partial z/\partial x = 2x = 4$
# and $\partial z/\partial y = 3$, the same as by hand. Chapter 01 takes this apart.
#
# While `z` was computed, `mini_autograd` recorded how it was made: that record is the
# **computation graph**, and `backward()` walks it from `z` back to `x` and `y`. Here it is. If the
# `dot` program works you see a picture; otherwise a text description of the same graph.

# %%
viz.draw(z, params={"x": x, "y": y}, names={"z": z})

# %% [markdown]
# Read it from the top. The green box is the result `z`. Each grey box is one recorded step, named as
# PyTorch names it (`PowBackward0` for `**`, `MulBackward0` for `*`, `AddBackward0` for `+`). The darker
# `AccumulateGrad` boxes deliver the gradients into the blue boxes, the inputs `x` and `y`, which show
# their values and the gradients just computed. The arrows show the way gradients travel, from `z` down to
# the inputs. Chapter 02 explains every part of this picture.

# %% [markdown]
# ## `mini_autograd` and PyTorch
#
# `mini_autograd` is a small autograd engine written in Python on top of numpy, embedded in this
# repository so that you can read every line of it. It copies PyTorch's interface for a subset of
# PyTorch: tensors and their autograd attributes (`requires_grad`, `grad`, `grad_fn`, `is_leaf`),
# the usual arithmetic, `backward()`, `no_grad()`, `detach()`, `autograd.Function`, `nn`, `optim`.
# That is why every chapter starts with
#
# ```python
# import mini_autograd as torch
# ```
#
# and the PyTorch code of the seed articles then runs unchanged and prints exactly what PyTorch
# prints: the same `tensor(4.)`, the same node names such as `AddBackward0`, the same error messages.
# The tests of this repository check that against real PyTorch.
#
# It is also built the way PyTorch is built inside, only smaller: a graph of backward nodes recorded during
# the forward pass, and an engine that runs them with a ready queue and dependency counts, as
# PyTorch's C++ engine does. What it leaves out: GPUs, most of PyTorch's operations, speed.
# When the course opens `mini_autograd`'s source, it also names the PyTorch file that does the same job:
#
# | `mini_autograd` module | what it holds | PyTorch counterpart |
# |---|---|---|
# | `_tensor.py` | `Tensor`: data plus `requires_grad`, `grad`, `grad_fn` | `torch/_tensor.py`, `torch/csrc/autograd/variable.h` |
# | `autograd/function.py` | `Function.apply`: where each operation is recorded | `torch/autograd/function.py`, `torch/csrc/autograd/python_function.cpp` |
# | `autograd/graph.py` | `Node`, `AccumulateGrad`, saved tensors | `torch/csrc/autograd/node.h`, `functions/accumulate_grad.h`, `saved_variable.h` |
# | `autograd/engine.py` | the backward engine: `GraphTask`, `ReadyQueue` | `torch/csrc/autograd/engine.cpp` |
# | `ops/` | the operations and their derivatives | `tools/autograd/derivatives.yaml` |
# | `grad_mode.py` | `no_grad`, `inference_mode` | `torch/autograd/grad_mode.py` |
# | `nn/`, `optim/` | layers, losses, optimizers | `torch/nn/`, `torch/optim/` |
# | `viz/` | the graph pictures | (none: a course tool) |
#
# Once you are done with the course, replace the import line with `import torch` and the same code runs on
# PyTorch.

# %% [markdown]
# ## Exercise: try the exercise mechanics
#
# A warm-up to see how exercises work. In the 30-second example, change `x` from 2 to 5 (keep `y` at 3).
# What does `x.grad` become? Work it out by hand or run the example with the new value, then write the number in
# the cell below and run it, and then run the check cell.
#
# <details><summary>Hint 1</summary>
#
# Only the term $x^2$ of $z = x^2 + 3y$ depends on `x`.
#
# </details>
#
# <details><summary>Hint 2</summary>
#
# The derivative of $x^2$ is $2x$. Evaluate it at the new `x`.
#
# </details>
#
# <details><summary>A sketch</summary>
#
# Either run the example again with `x = torch.tensor(5.0, requires_grad=True)` and read `x.grad`, or compute $2 \cdot 5$ by hand; then `answer_0_1 = ...` that number.
#
# </details>

# %%
# Exercise 0.1
answer_0_1 = ...  # your answer here: x.grad when x = 5

# %% tags=["hide-input"]
check_exercise("0.1")

# %% [markdown]
# <details><summary>Show solution</summary>
#
# ```python
# x = torch.tensor(5.0, requires_grad=True)
# y = torch.tensor(3.0, requires_grad=True)
# z = x ** 2 + y * 3
# z.backward()
# answer_0_1 = x.grad          # tensor(10.); typing answer_0_1 = 10 works too
# ```
#
# The derivative of $x^2$ is $2x$, which is $10$ at $x = 5$. The term $3y$ does not depend on `x`, so it adds nothing.
# </details>

# %% [markdown]
# ## The chapters
#
# Read them in order: each builds on the one before. The last column names the sections of the seed articles each chapter follows.
#
# | # | chapter | what it shows | seed sections |
# |---|---|---|---|
# | 00 | [Welcome](00_welcome.ipynb) | this page: notebooks, set-up, the map | — |
# | 01 | [Your first gradient](01_first_gradient.ipynb) | `requires_grad`, `backward()`, `.grad`; derivative by hand vs autograd | 003 "30-second example"; 000 §1–3 |
# | 02 | [The computation graph](02_computation_graph.ipynb) | `grad_fn`, `next_functions`, define-by-run | 003 "computation graph"; 000 §4 |
# | 03 | [backward()](03_backward.ipynb) | the chain rule, vector-Jacobian products, why backward needs a scalar | 003 "backward()", "non-scalars"; 000 §6 |
# | 04 | [Leaves](04_leaves.ipynb) | leaf and non-leaf tensors, `retain_grad()` | 000 §5 |
# | 05 | [Accumulation](05_accumulation.ipynb) | gradients add up; `zero_grad()`; gradient accumulation | 000 §10; 003 |
# | 06 | [no_grad and detach](06_no_grad_detach.ipynb) | `no_grad`, `inference_mode`, `detach`, `retain_graph`, `zero_grad` compared | 000 §3, §9; 003 "two memory savers" |
# | 07 | [Saved tensors](07_saved_tensors.ipynb) | what backward keeps, and what that costs in memory | 000 §8 |
# | 08 | [The engine](08_engine.ipynb) | from `backward()` to the engine: `GraphTask`, `ReadyQueue`, `AccumulateGrad` | 000 §7, §12 |
# | 09 | [Dynamic graphs](09_dynamic_graphs.ipynb) | a new graph every forward: `if`, `for`, recursion | 000 §11; 003 "dynamic" |
# | 10 | [The training loop](10_training_loop.ipynb) | zero_grad, forward, loss, backward, step: a classifier trained | 000 §6, §10; 003 |
# | 11 | [Extending autograd](11_extending.ipynb) | custom `Function`, `gradcheck`, hooks, higher-order gradients | beyond the seeds |
# | 12 | [Summary](12_summary.ipynb) | the whole picture, a cheat sheet, moving on to PyTorch | 000 §13 |

# %% [markdown]
# ## Build your own: `myautograd`
#
# Reading an engine and writing one are different skills, so the chapters also have **build steps**: you write
# `myautograd`, a small autograd package of your own, in the folder [`myautograd/`](myautograd) beside these
# notebooks. Each piece ships as a stub (a docstring saying what to do, and `raise NotImplementedError`); the
# chapter explains it, you fill it in with JupyterLab's editor, and a check cell in the chapter says ✅ done,
# ⏳ not done yet, or ❌ with the mistake it sees. What you write, chapter by chapter:
#
# | chapter | you write | the check proves |
# |---|---|---|
# | 01 | a tensor's autograd fields; the rule deciding what is recorded | flags of results of mixed inputs; integers cannot require grad |
# | 02 | `gradient_edge`; `Function.apply`, which records one node per operation | the scratch-paper graph has PyTorch's node names and edges |
# | 03 | seven backward formulas; a first engine; `Tensor.backward` | 4.5 and `[2., 4., 6.]`; finite differences; a 10,000-op chain |
# | 04 | one `AccumulateGrad` per leaf; `is_leaf`; `retain_grad` | a leaf used twice gets one node; non-leaves get no `.grad` |
# | 05 | accumulation into `.grad`; `zero_grad` | 4 then 8; two micro-batches equal one batch |
# | 06 | `no_grad`; `detach`; `requires_grad_` | nothing recorded inside, even nested or in two threads; `detach` shares the numbers and the version counter |
# | 07 | saved tensors with versions; in-place writes; freeing unless `retain_graph` | PyTorch's errors for a changed saved tensor and a second backward |
# | 08 | PyTorch's engine: dependency counts, a ready queue, input buffers | the same run order as PyTorch on a diamond; a backward that returns None; a 10,000-op chain |
# | 09 | nothing new: your engine runs forwards with `if`, `for` and recursion | two inputs, two graphs |
# | 10 | `Linear`, `cross_entropy`, `SGD` | the spiral classifier trains on your engine to over 95% |
# | 11 | a finite-difference `gradcheck`; a custom `Function` | on random Functions your gradcheck raises exactly where PyTorch's does |
# | 12 | nothing new: the capstone | 9 of the capstone's 11 snippets print what PyTorch prints (the 2 of chapter 11 use `torch.autograd`, which your package does not have) |
#
# The build steps are practice, not a gate: every chapter reads and runs in full without them. Here is the table
# of all steps with where your package stands (`make progress` in a terminal prints the same):

# %%
import buildtrack

buildtrack.progress()

# %% [markdown]
# ## Glossary (English / 中文)
#
# The seed articles are in Chinese; this table maps their terms to the English ones used here. The Chinese
# edition uses exactly these Chinese terms (CONTRIBUTING.md, "Terms in Chinese").
#
# | English | 中文 | meaning | chapter |
# |---|---|---|---|
# | tensor | 张量 | an n-dimensional array of numbers | 01 |
# | gradient | 梯度 | the derivatives of a result with respect to each input: which way, and how fast, it changes | 01 |
# | automatic differentiation (autograd) | 自动微分 / 自动求导 | computing derivatives from a record of the operations, not from formulas you write | 01 |
# | forward pass | 前向传播 | running the model on the data to get predictions and the loss | 01 |
# | loss | 损失 | one number saying how wrong the model is | 01 |
# | backward pass | 反向传播 | walking the record backwards to get gradients | 01, 03 |
# | `requires_grad` | 需要梯度 (the switch, 开关) | the flag that makes autograd record a tensor's operations | 01 |
# | build step | 动手步骤 | a piece of your own `myautograd` that a chapter asks you to write (step NN.N) | 01 |
# | computation graph | 计算图 | the record: which operation made which tensor from which inputs | 02 |
# | node | 节点 | an entry of the graph: an operation's `grad_fn`, or a leaf's `AccumulateGrad` | 02 |
# | edge | 边 | a pair `(node, input_nr)` in `next_functions`: where a gradient goes next | 02 |
# | grad_fn (backward function) | 反向函数 | the node that made a tensor, and knows how to pass its gradient back | 02 |
# | define-by-run | 边运行边建图 | the graph is recorded while the code runs, anew each forward | 02, 09 |
# | dynamic graph | 动态图 | a graph built by define-by-run | 02, 09 |
# | chain rule | 链式法则 | the derivative of a composition is the product of the derivatives of its steps | 03 |
# | scalar | 标量 | a tensor holding a single number | 03 |
# | root | 根节点 | the node `backward()` starts from: the loss's `grad_fn` | 03, 08 |
# | backward formula | 反向公式 | a node's rule that turns the gradient of its output into gradients for its inputs | 03 |
# | vector-Jacobian product | 向量-雅可比积 | what a backward formula computes: the incoming gradient times the operation's Jacobian | 03 |
# | leaf tensor | 叶子张量 (叶子 for short) | a tensor autograd did not make (an input or a parameter); it has no `grad_fn`. Article 000 §5 ("叶子节点和非叶子节点") calls it a leaf node | 04 |
# | non-leaf tensor | 非叶子张量 | a tensor made by a recorded operation; it has a `grad_fn` | 04 |
# | hook | 钩子 | a function you give autograd, which the engine calls with a gradient as it passes (`register_hook`) | 04, 11 |
# | gradient accumulation | 梯度累加 | new gradients are added to `.grad`, not written over it | 05 |
# | micro-batch | 微批次 | one of the small batches whose gradients add up to a large batch's | 05 |
# | detach | 分离 (`detach`) | a tensor with the same data, cut off from the graph | 06 |
# | inference | 推理 | using a trained model, without gradients | 06 |
# | grad mode | 梯度模式 | the switch that `no_grad()` turns off: whether operations are recorded at all | 06 |
# | inference tensor | 推理张量 | a result made under `inference_mode()`; it can never be saved for backward | 06 |
# | in-place operation | 原地操作 | an operation that writes into its input's memory (its name ends in `_`, such as `add_`) | 06, 07 |
# | version counter | 版本计数器 | a tensor's `_version`: how many in-place writes it has had; a saved tensor checks it | 06, 07 |
# | saved tensors | 保存的张量 | values that the forward pass keeps because backward needs them | 07 |
# | GPU memory | 显存 | what saved tensors cost on a GPU | 07 |
# | gradient checkpointing | 梯度检查点 | saving less and recomputing during backward | 07 |
# | engine | 引擎 | the code that runs the backward graph | 08 |
# | dependency count | 依赖计数 | how many gradients a node still waits for before it can run | 08 |
# | ready queue | 就绪队列 | the nodes whose gradients have all arrived, the newest first | 08 |
# | input buffer | 输入缓冲区 | where the gradients sent to one node are summed before it runs | 08 |
# | sequence number | 序号 | a node's place in the order of creation (`_sequence_nr()`); the ready queue runs the highest first | 08 |
# | pre-hook | 前置钩子 | a hook that runs just before its node (`register_prehook`) | 08, 11 |
# | parameter | 参数 | a tensor the optimizer changes during training | 10 |
# | optimizer | 优化器 | updates the parameters from their gradients (`optimizer.step()`) | 10 |
# | learning rate | 学习率 | the step size `lr` by which the optimizer moves each parameter | 10 |
# | module | 模块 | an `nn.Module`: parameters and a `forward` | 10 |
# | spiral | 螺旋线 | the two interleaved spirals of points that chapter 10's classifier learns to tell apart | 10 |
# | custom `Function` | 自定义 `Function` | an operation whose forward and backward you write yourself | 11 |
# | finite differences | 有限差分 | a derivative estimated by nudging an input a little; what `gradcheck` compares a backward formula with | 11 |
# | higher-order gradient | 高阶梯度 | the gradient of a gradient (`create_graph=True`) | 11 |
#
# The articles also use three pictures, kept in this course: the **ledger** (账本) that the forward pass writes and
# `backward()` reads in reverse (chapter 01); the **scratch paper** (草稿纸) on which every operation jots down
# a line (chapter 02); and **building blocks** (积木), each with its **disassembly instructions** (拆解说明), the
# `grad_fn` (chapter 02).

# %% [markdown]
# ## Recap
#
# - Run a cell with **Shift+Enter**; **Run → Run All Cells** runs a chapter; when variables get mixed up,
#   **Kernel → Restart Kernel and Run All Cells...**
# - The set-up check above tells you whether your machine is ready; the one outside requirement is
#   Graphviz's `dot` program.
# - `import mini_autograd as torch` gives a small, readable engine with PyTorch's interface: PyTorch code runs
#   unchanged and prints what PyTorch prints.
# - Three steps give a gradient: `requires_grad=True`, compute, `backward()`; the result is in `.grad`.
#
# [Next: 01 — Your first gradient](01_first_gradient.ipynb)
