"""The chapters say what their outputs show, and what PyTorch 2.13 does.

Two kinds of checks, so that a claim once found wrong (issue 36) cannot come back unnoticed:

1. **Numbers quoted from an output.** Each row of ``QUOTED`` names a chapter, the prose that quotes a
   number (a regex for the English cell and one for the Chinese cell, each with one group: the
   number), the code cell whose stored output it describes (a piece of its source), and a regex
   for the number in that output. Both stored editions' prose is read (notebooks/NN_slug.ipynb and
   notebooks/zh/NN_slug.ipynb), and the prose's number must be the output's, rounded to as many
   decimals as the prose gives. The output is read in the English edition: the Chinese one prints
   the chapter's words in Chinese (``tr``), and tests/test_zh.py checks that it shows the same
   numbers. A rebuild that changes an output fails here until the prose
   follows, in both editions. A prose regex that no longer matches fails too: rewrite the row
   with the sentence.
2. **Claims about PyTorch.** ``WRONG`` lists sentences that were wrong and must not come back
   (in either edition); the ``*_vs_torch`` tests below run what the corrected sentences say, on
   PyTorch 2.13 (skipped without it) and on mini_autograd. The quoted lines of PyTorch's sources
   that the corrected sentences cite are held by tests/test_citations.py
   (tests/pytorch_citations.toml).
"""
import gc
import importlib.util
import json
import re
import threading
import warnings
import weakref
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
EDITIONS = {"en": ROOT / "notebooks", "zh": ROOT / "notebooks" / "zh"}
HAS_TORCH = importlib.util.find_spec("torch") is not None
needs_torch = pytest.mark.skipif(not HAS_TORCH, reason="PyTorch is not installed")

NUMBER = r"(\d+(?:[.,]\d+)*)"

# (chapter, English prose, Chinese prose, a piece of the source of the code cell the prose
#  describes, the number in that cell's output). Each regex has one group, the number.
QUOTED = [
    # Chapter 07, "what the memory allocator sees": held and peak, in activations.
    ("07_saved_tensors", r"\*\*Held:\*\* about (\d+) activations in training",
     r"\*\*占用：\*\* 训练时约 (\d+) 个激活值", "forward_memory(model, torch.enable_grad)",
     r"^training\s+≈ (\d+) activations"),
    ("07_saved_tensors", r"and about (\d+) under `no_grad` and `inference_mode`",
     r"在 `no_grad` 和 `inference_mode` 下约为 (\d+)", "forward_memory(model, torch.enable_grad)",
     r"^no_grad\s+≈ (\d+) activations"),
    ("07_saved_tensors", r"and about (\d+) under `no_grad` and `inference_mode`",
     r"在 `no_grad` 和 `inference_mode` 下约为 (\d+)", "forward_memory(model, torch.enable_grad)",
     r"^inference_mode\s+≈ (\d+) activations"),
    ("07_saved_tensors", r"\*\*Peak:\*\* about (\d+) activations in training",
     r"\*\*峰值：\*\* 训练时约 (\d+) 个激活值", "forward_memory(model, torch.enable_grad)",
     r"^training\s+≈ \d+ activations\s+≈ (\d+) activations"),
    ("07_saved_tensors", r"in training and about (\d+) in the other two modes",
     r"另外两种模式下约 (\d+) 个", "forward_memory(model, torch.enable_grad)",
     r"^no_grad\s+≈ \d+ activations\s+≈ (\d+) activations"),
    ("07_saved_tensors", r"in training and about (\d+) in the other two modes",
     r"另外两种模式下约 (\d+) 个", "forward_memory(model, torch.enable_grad)",
     r"^inference_mode\s+≈ \d+ activations\s+≈ (\d+) activations"),
    ("07_saved_tensors", r"about (\d+) activations, the\s+peak of `no_grad`",
     r"大约 (\d+) 个激活值，也就是 `no_grad` 的峰值", "forward_memory(model, torch.enable_grad)",
     r"^no_grad\s+≈ \d+ activations\s+≈ (\d+) activations"),
    ("07_saved_tensors", r"the peak is 2 more, about (\d+)", r"峰值多出 2 个，约为 (\d+)",
     "forward_memory(model, torch.enable_grad)", r"^training\s+≈ \d+ activations\s+≈ (\d+) activations"),
    # ... and on networks of 1 to 6 hidden layers.
    ("07_saved_tensors", r"from about (\d+) with one layer", r"从一层时的约 (\d+) 个",
     "peaks = {name:", r"^peak of training\s+(\d+)"),
    ("07_saved_tensors", r"to\s+about (\d+) with six", r"增长到六层时的约 (\d+) 个",
     "peaks = {name:", r"^peak of training(?:\s+\d+){5}\s+(\d+)"),
    ("07_saved_tensors", r"stays at about (\d+) however deep", r"峰值都保持在约 (\d+) 个",
     "peaks = {name:", r"^peak of no_grad\s+(\d+)"),
    ("07_saved_tensors", r"stays at about (\d+) however deep", r"峰值都保持在约 (\d+) 个",
     "peaks = {name:", r"^peak of no_grad(?:\s+\d+){5}\s+(\d+)"),
    # Chapter 07: the bytes the training graph saves.
    ("07_saved_tensors", r"In training, ([\d,]+) bytes = three hidden", r"训练时，([\d,]+) 字节 = 三个",
     "graph_bytes = {}", r"^training .*?activations saved for backward:\s+([\d,]+) bytes"),
    # Chapter 07, "memory over time": viz.record_memory's curves of one step of the deep network (issue 40).
    ("07_saved_tensors", r"up to ([\d,]+) bytes when\s+backward starts",
     r"到反向传播开始时达到 ([\d,]+) 字节",
     "for run in runs:", r"^training\s+peak_saved:\s+([\d,]+)"),
    ("07_saved_tensors", r"up to ([\d,]+) bytes when\s+backward starts",
     r"到反向传播开始时达到 ([\d,]+) 字节",
     "for run in runs:", r"^training.*at_backward_start:\s+([\d,]+)"),
    ("07_saved_tensors", r"as soon as it has\s+run, down to (\d+)\.", r"一直降到 (\d+)",
     "for run in runs:", r"^training.*at_end:\s+([\d,]+)"),
    ("07_saved_tensors", r"at most ([\d,]+) bytes\s+here", r"这里最多 ([\d,]+) 字节",
     "for run in runs:", r"^training.*peak_buffered:\s+([\d,]+)"),
    ("07_saved_tensors", r"released, and ([\d,]+) bytes are still held",
     r"最后一个节点运行完之后仍占着 ([\d,]+) 字节",
     "for run in runs:", r"^retain_graph=True.*at_end:\s+([\d,]+)"),
    ("07_saved_tensors", r"segment's output, ([\d,]+) bytes when backward starts",
     r"反向传播开始时是 ([\d,]+) 字节",
     "for run in runs:", r"^checkpointed.*at_backward_start:\s+([\d,]+)"),
    ("07_saved_tensors", r"Its peak,\s+([\d,]+) bytes", r"它的峰值是 ([\d,]+) 字节",
     "for run in runs:", r"^checkpointed\s+peak_saved:\s+([\d,]+)"),
    # Chapter 10, section 5: Adam on the spirals.
    ("10_training_loop", r"The loss went from (0\.\d+) to below", r"损失从 (0\.\d+) 降到了",
     "optimizer = torch.optim.Adam(net.parameters(), lr=0.02)", r"loss at step 0: (0\.\d+)"),
    ("10_training_loop", r"The loss went from 0\.\d+ to below (0\.\d+)",
     r"损失从 0\.\d+ 降到了 (0\.\d+) 以下",
     "optimizer = torch.optim.Adam(net.parameters(), lr=0.02)", r"below (0\.\d+): True"),
    ("10_training_loop", r"\((\d+)% training\s+accuracy\)", r"训练准确率 (\d+)%",
     "training accuracy:", r"training accuracy: (\d+)\.0%"),
    # Chapter 10, plain SGD: only what every run prints.
    ("10_training_loop", r"the loss starts at (0\.\d+)", r"损失从 (0\.\d+) 开始",
     "train_spiral(torch, SPIRAL_STEPS", r"mini_autograd:\s+loss (0\.\d+) at step 1,"),
    ("10_training_loop", r"is down to (0\.\d+) at step 150", r"到第 150 步降到 (0\.\d+)",
     "train_spiral(torch, SPIRAL_STEPS", r"(0\.\d+) at step 150"),
    ("10_training_loop", r"ends below\s+(0\.1) after 1000 steps", r"1000 步之后低于 (0\.1)",
     "train_spiral(torch, SPIRAL_STEPS", r"after 1000 steps below (0\.1): True"),
    ("10_training_loop", r"at least (95)% of the points", r"至少 (95)% 的点",
     "train_spiral(torch, SPIRAL_STEPS", r"training accuracy at least (95)%: True"),
    # Chapter 13, a backward nested 70 levels deep: the levels each thread runs.
    ("13_deeper_engine", r"Levels 0 to (\d+) ran on the thread that called",
     r"第 0 层到第 (\d+) 层运行在调用",
     "mini_nested = nested_backwards(torch, 70)", r"^thread 0: levels 0 to (\d+)"),
    ("13_deeper_engine", r"Level (\d+) was the first past", r"第 (\d+) 层是第一个超过",
     "mini_nested = nested_backwards(torch, 70)", r"^thread 1: levels (\d+) to"),
    # Chapter 13, the trace of a checkpoint: the steps of the nested graph task (issue 40).
    ("13_deeper_engine", r"At step (\d+) `CheckpointBackward` runs", r"第 (\d+) 步 `CheckpointBackward` 运行",
     "print(nested_trace.outline())", r"^step (\d+): n1 CheckpointBackward runs"),
    ("13_deeper_engine", r"Step (\d+)\s+is graph task 2's own step 0", r"第 (\d+) 步是图任务 2 自己的第 0 步",
     "print(nested_trace.outline())", r"^\s+step (\d+): graph task 2 starts"),
    ("13_deeper_engine", r"Steps (\d+)\s+to \d+ run them", r"第 (\d+) 步到第 \d+ 步运行这些节点",
     "print(nested_trace.outline())", r"^\s+step (\d+): n\d+ \w+ runs \(graph task 2\)"),
    ("13_deeper_engine", r"Steps \d+\s+to (\d+) run them", r"第 \d+ 步到第 (\d+) 步运行这些节点",
     "print(nested_trace.outline())", r"^\s+step (\d+): .*\(graph task 2\)\nstep"),
    ("13_deeper_engine", r"At step (\d+) `CheckpointBackward` returns",
     r"第 (\d+) 步 `CheckpointBackward` 返回",
     "print(nested_trace.outline())", r"^step (\d+): n1 CheckpointBackward returns"),
]

# Sentences found wrong (issue 36), with the chapter that had them: neither edition may say them again
# (None: that edition was right).
WRONG = [
    ("08_engine", r"gradient\s+checkpointing used to", r"梯度检查点以前"),
    ("08_engine", r"called by worker threads", r"由工作线程调用"),
    ("08_engine", r"run in PyTorch by a worker thread", r"在 PyTorch 中由工作线程运行"),
    ("08_engine", r"one ready queue per device", r"为每个设备维护一个就绪队列"),
    ("08_engine", r"mini_autograd does not need it", r"mini_autograd 用不着这个"),
    ("07_saved_tensors", r"`call_function` →\s+`release_variables`",
     r"`call_function` → `release_variables`"),
    ("07_saved_tensors", r"frees saved tensors \(`call_function`\)",
     r"释放保存的张量的那一行（`call_function`）"),
    ("07_saved_tensors", r"grad \* result`", r"grad \* result`"),
    ("11_extending", r"grad \* result`", r"grad \* result`"),
    ("09_dynamic_graphs", r"a `weakref.ref` to an intermediate result\s+stays alive",
     r"对中间结果的 `weakref.ref` 会一直有效"),
    ("05_accumulation", r"the first gradient is copied in", r"第一个梯度复制进来"),
    ("12_summary", r"which the engine rewrites", r"引擎会对它们进行改写"),
    ("04_leaves", r"only floating-point tensors can require", r"只有浮点张量才能需要梯度"),
    ("10_training_loop", r"trains too, a little slower", r"只是稍慢一些"),
    ("10_training_loop", r"jumps once more around step 570", r"第 570 步左右"),
    ("11_extending", None, r"会原地修改参数"),        # the English was right: "the argument"
]


def cells(chapter, edition):
    return json.loads((EDITIONS[edition] / f"{chapter}.ipynb").read_text(encoding="utf-8"))["cells"]


def source(cell):
    return "".join(cell["source"])


def output_text(cell):
    return "".join("".join(out.get("text", "")) for out in cell.get("outputs", [])
                   if out.get("output_type") == "stream")


def decimals(number):
    return len(number.split(".")[1]) if "." in number else 0


def same_number(quoted, shown):
    """The prose's number is the output's, rounded as the prose writes it (0.68 for 0.6804)."""
    quoted, shown = quoted.replace(",", ""), shown.replace(",", "")
    return round(float(shown), decimals(quoted)) == float(quoted)


@pytest.mark.parametrize("edition", ["en", "zh"])
@pytest.mark.parametrize("row", QUOTED, ids=lambda row: f"{row[0]}:{row[1][:40]}")
def test_prose_quotes_its_output(row, edition):
    chapter, english, chinese, cell_marker, shown_regex = row
    prose_regex = english if edition == "en" else chinese
    notebook = cells(chapter, edition)
    markdown = "\n\n".join(source(c) for c in notebook if c["cell_type"] == "markdown")
    quoted = re.search(prose_regex, markdown)
    assert quoted, f"{edition}/{chapter}: the prose no longer says {prose_regex!r}; update this row"
    code = [c for c in cells(chapter, "en") if c["cell_type"] == "code" and cell_marker in source(c)]
    assert len(code) == 1, f"en/{chapter}: {len(code)} code cells hold {cell_marker!r}"
    shown = re.search(shown_regex, output_text(code[0]), re.M)
    assert shown, f"en/{chapter}: the output of the cell with {cell_marker!r} has no {shown_regex!r}"
    assert same_number(quoted.group(1), shown.group(1)), (
        f"{edition}/{chapter}: the prose says {quoted.group(0)!r}, but the output it describes shows "
        f"{shown.group(0)!r}: make the prose say what the output shows")


@pytest.mark.parametrize("edition", ["en", "zh"])
@pytest.mark.parametrize("row", WRONG, ids=lambda row: f"{row[0]}:{(row[1] or row[2])[:30]}")
def test_a_wrong_sentence_does_not_come_back(row, edition):
    chapter, english, chinese = row
    wrong = english if edition == "en" else chinese
    if wrong is None:
        pytest.skip("this edition was right")
    markdown = "\n\n".join(source(c) for c in cells(chapter, edition) if c["cell_type"] == "markdown")
    found = re.search(wrong, markdown)
    assert not found, f"{edition}/{chapter} says {found.group(0)!r} again (issue 36): see the row's test"


def test_the_number_comparison():
    assert same_number("0.68", "0.6804") and same_number("6", "6") and same_number("398,336", "398,336")
    assert not same_number("7", "6") and not same_number("0.045", "0.0743")


# ---------------------------------------------------------------------------------------------
# What the corrected sentences say, run.

def libraries():
    import mini_autograd
    found = [mini_autograd]
    if HAS_TORCH:
        import torch
        found.append(torch)
    return found


@needs_torch
def test_checkpoint_without_use_reentrant_is_reentrant_vs_torch():
    """Ch 08 §13: in 2.13, checkpoint() without use_reentrant warns, then runs CheckpointFunction, whose
    backward calls torch.autograd.backward: a second backward runs inside the first."""
    import torch
    from torch.utils.checkpoint import checkpoint
    depth, deepest = [0], [0]
    original = torch.autograd.backward

    def counting_backward(*args, **kwargs):
        depth[0] += 1
        deepest[0] = max(deepest[0], depth[0])
        try:
            return original(*args, **kwargs)
        finally:
            depth[0] -= 1

    x = torch.randn(3, requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        y = checkpoint(lambda t: t.sin().exp(), x)
    assert any("use_reentrant" in str(w.message) for w in caught)
    assert type(y.grad_fn).__name__ == "CheckpointFunctionBackward"
    torch.autograd.backward = counting_backward
    try:
        y.sum().backward()
    finally:
        torch.autograd.backward = original
    assert deepest[0] == 2, "a backward ran inside the backward (CheckpointFunction.backward's call)"
    assert torch.allclose(x.grad, x.cos() * x.sin().exp())


def test_reentrant_backward_runs_in_mini_autograd():
    """Ch 08 §13: mini_autograd's engine runs an inner backward to its end inside the node."""
    import mini_autograd as torch

    class Inner(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * 1.0

        @staticmethod
        def backward(ctx, grad):
            (x,) = ctx.saved_tensors
            leaf = x.detach().requires_grad_(True)
            with torch.enable_grad():
                torch.autograd.backward((leaf * leaf).sum())
            return grad * leaf.grad

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    Inner.apply(x).sum().backward()
    assert np.allclose(x.grad.numpy(), [2.0, 4.0])


@needs_torch
def test_cpu_backward_runs_on_the_calling_thread_vs_torch():
    """Ch 08 table step 5, §9, §13: for a CPU graph the thread that called backward() runs thread_main."""
    import torch
    seen = []
    a = torch.randn(3, requires_grad=True)
    b = (a * 2).exp()
    b.grad_fn.register_prehook(lambda grad: seen.append(threading.get_ident()))
    b.sum().backward()
    assert seen == [threading.get_ident()]


@pytest.mark.parametrize("lib", libraries(), ids=lambda lib: lib.__name__)
def test_weakref_to_a_saved_output_dies_vs_torch(lib):
    """Ch 09 §4: a tensor saved only as its node's output is kept as data, so a weak reference to it
    dies with the last name; a tensor saved as another node's input lives while the graph does."""
    w = lib.randn(3, requires_grad=True)
    e = w.exp()
    kept = weakref.ref(e)
    loss = e.sum()
    del e
    gc.collect()
    assert kept() is None
    h = w * 2
    kept = weakref.ref(h)
    loss = (h * h).sum()
    del h
    gc.collect()
    assert kept() is not None
    del loss
    gc.collect()
    assert kept() is None


@needs_torch
def test_accumulate_grad_takes_the_first_gradient_over_vs_torch():
    """Ch 05 recap: PyTorch stores the first gradient without a copy when nothing else holds it."""
    import torch
    pointers = []
    x = torch.ones(3, requires_grad=True)
    x.register_hook(lambda grad: pointers.append(grad.data_ptr()))
    (x * 2).sum().backward()
    assert x.grad.data_ptr() == pointers[0]


@pytest.mark.parametrize("lib", libraries(), ids=lambda lib: lib.__name__)
def test_inplace_on_a_view_rewires_at_once_vs_torch(lib):
    """Ch 12 §8: the base's grad_fn is CopySlices as soon as the in-place op on its view has run."""
    a = lib.randn(3, requires_grad=True)
    b = a.clone()
    b[0:1].mul_(2)
    assert type(b.grad_fn).__name__ == "CopySlices" or b.grad_fn.name() == "CopySlices"


@needs_torch
def test_complex_tensors_can_require_grad_vs_torch():
    """Ch 04 §4: integers cannot require grad; floating-point and, in PyTorch, complex tensors can."""
    import torch
    assert torch.zeros(2, dtype=torch.complex64, requires_grad=True).requires_grad
    with pytest.raises(RuntimeError, match="floating point and complex dtype"):
        torch.tensor([1, 2], requires_grad=True)


@needs_torch
def test_derivatives_yaml_exp_formula_vs_torch():
    """Ch 07 and ch 11 boxes: exp's entry is `self: grad * result.conj()`."""
    spec = importlib.util.find_spec("torchgen")
    yaml = Path(list(spec.submodule_search_locations)[0]) / "packaged" / "autograd" / "derivatives.yaml"
    text = yaml.read_text(encoding="utf-8")
    assert re.search(r"^- name: exp\(Tensor self\) -> Tensor\n  self: grad \* result\.conj\(\)$", text, re.M)


def spiral_runs(lib):
    """Ch 10 §5's network on the spirals, 300 full-batch steps with Adam and with SGD + momentum:
    (Adam's last loss, SGD's last loss, SGD's training accuracy)."""
    rng = np.random.default_rng(0)                 # chapter 10's two_spirals()
    points, labels = [], []
    for label, sign in [(0, 1.0), (1, -1.0)]:
        angle = np.sqrt(rng.uniform(0, 1, 150)) * 1.5 * 2 * np.pi
        xy = sign * np.stack([angle * np.cos(angle), angle * np.sin(angle)], axis=1)
        points.append(xy + rng.normal(0, 0.3, (150, 2)))
        labels.append(np.full(150, label))
    X = lib.tensor((np.concatenate(points) / (1.5 * np.pi)).astype(np.float32))
    y = lib.tensor(np.concatenate(labels).astype(np.int64))
    results = []
    for make in (lambda p: lib.optim.Adam(p, lr=0.02), lambda p: lib.optim.SGD(p, lr=0.1, momentum=0.9)):
        lib.manual_seed(0)
        net = lib.nn.Sequential(lib.nn.Linear(2, 32), lib.nn.Tanh(), lib.nn.Linear(32, 32), lib.nn.Tanh(),
                                lib.nn.Linear(32, 2))
        loss_fn, optimizer = lib.nn.CrossEntropyLoss(), make(net.parameters())
        for _ in range(300):
            optimizer.zero_grad()
            loss = loss_fn(net(X), y)
            loss.backward()
            optimizer.step()
        with lib.no_grad():
            accuracy = float((net(X).argmax(1) == y).float().mean())
        results.append((loss.item(), accuracy))
    return results[0][0], results[1][0], results[1][1]


@pytest.mark.parametrize("lib", libraries(), ids=lambda lib: lib.__name__)
def test_sgd_with_momentum_is_much_slower_than_adam_vs_torch(lib):
    """Ch 10 §5: after 300 steps, SGD(lr=0.1, momentum=0.9) is at about 0.07 (97.7%), Adam at 0.001."""
    adam, sgd, sgd_accuracy = spiral_runs(lib)
    assert round(adam, 3) == 0.001
    assert round(sgd, 2) == 0.07
    assert round(sgd_accuracy * 100, 1) == 97.7
    for edition, phrase in (("en", r"its loss is about 0\.07 \(97\.7% of the points right\), "
                                   r"against Adam's\s+0\.001"),
                            ("zh", r"损失约为 0\.07（97\.7% 的点分对），而 Adam 是 0\.001")):
        markdown = "\n".join(source(c) for c in cells("10_training_loop", edition)
                              if c["cell_type"] == "markdown")
        assert re.search(phrase, markdown), f"{edition}/10_training_loop no longer quotes this run"
