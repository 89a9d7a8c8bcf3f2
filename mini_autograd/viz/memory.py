"""Memory over time: the bytes the graph holds at every step of one forward and one backward pass.

``record_memory(forward, label)`` runs ``forward()`` (which returns the loss), then one real backward
through it, and samples two numbers after every step:

- **saved**: the bytes of the tensors the graph's nodes keep for backward (each node's ``_saved`` slots,
  ``autograd/graph.py: SavedTensor``), every memory buffer counted once, as chapter 07's ``saved_bytes``
  counts them: two nodes saving one array (a tanh's result, which the next layer saves as its input),
  and a view of an array (a transposed weight), count the array once. Tensors given in ``exclude`` (the
  parameters, the input batch: they exist whether or not a graph is recorded) are left out. A slot is
  counted until backward releases it (``SavedTensor.freed``), whatever still refers to the tensor.
- **buffered**: the bytes of the gradients waiting in the engine's input buffers (``InputBuffer``): those of
  the nodes still waiting for an edge (``graph_task.not_ready``), of the nodes in the ready queue, and of
  the node about to run. Zero in the forward pass.

Where the samples come from:

- **Backward** is the engine's own loop, observed through the tracer that ``viz.trace_backward`` uses
  (``engine.execute``'s ``tracer`` argument; see ``trace.py``). ``on_execute`` is called when a node has
  been popped from the ready queue, before it runs: the engine is then exactly as the previous node left
  it (its saved tensors released, its gradients added into the buffers), so each call is one sample,
  "after the previous node ran"; ``on_finish`` gives the last one. The first sample is the start of
  backward: everything saved, and the seed gradient in the root's buffer.
- **Forward** has no tracer in the engine. Every operation, built-in or custom, goes through
  ``Function.apply``, which records the node (``autograd/function.py``), so while ``record_memory`` runs
  it wraps ``Function.apply`` and takes one sample when each call returns, after the node is wired into
  the graph. The sample then reads the graph itself: the new node (and, walking ``next_functions``, any
  node not seen yet) joins a weak set of the nodes recorded so far, and the saved bytes are read from
  those still alive. An operation that records nothing (under ``no_grad``) is a step too, at the same
  bytes, so a run without a graph is a flat line as long as the others. During backward only operations
  that record a node are steps: a checkpoint's recomputation, run with recording on inside a backward
  node, shows as the saved bytes rising again in the middle of backward (its inner backward runs in a
  graph task of its own, whose steps the engine reports to the tracer too and the recorder leaves out,
  and frees them again).
  A ``saved_tensors_hooks`` pack hook would be the other way to see the saves, but it is called per saved
  tensor, not per operation (nothing for ``+`` or under ``no_grad``), and it changes how the graph keeps
  what it saves (``SavedTensor.packed``) while measuring it.

``record_memory`` returns a ``MemoryCurve``, a plain object (``steps``, ``saved``, ``buffered``, ``names``,
``phases``, ``backward_start``, peaks) that a chapter can print and quote from; ``plot_memory(curves)``
draws several of them on one matplotlib axes, in the edition's language (``i18n.py``).
"""
import contextlib
import weakref
from dataclasses import dataclass, field

import numpy as np

from .. import autograd
from .._tensor import Tensor
from ..autograd.engine import NoTracer, run_backward
from ..autograd.function import Function
from .i18n import _, language
from .walk import node_name

KB = 1024                     # the plot's unit: bytes per KB
CJK_FONTS = ("PingFang SC", "Microsoft YaHei", "Noto Sans CJK SC", "WenQuanYi Micro Hei", "SimHei")


def owner(array):
    """The numpy array that owns the memory ``array`` looks at (a transpose or a slice is a view)."""
    while isinstance(array.base, np.ndarray):
        array = array.base
    return array


def saved_arrays(node):
    """The arrays ``node`` still keeps for backward: its ``_saved`` slots not yet released."""
    arrays = []
    for saved in getattr(node, "_saved", ()) or ():
        if saved is None or saved.freed:
            continue
        data = saved.data
        if data is None and saved.packed is not None and isinstance(saved.packed.value, Tensor):
            data = saved.packed.value._data          # under saved_tensors_hooks: what pack_hook kept
        if data is not None:
            arrays.append(data)
    return arrays


def distinct_bytes(arrays, skip=frozenset()):
    """Bytes of the memory buffers behind ``arrays``, each counted once, leaving out ``skip`` (ids)."""
    buffers = {}
    for array in arrays:
        base = owner(array)
        if id(base) not in skip:
            buffers[id(base)] = base.nbytes
    return sum(buffers.values())


@dataclass
class MemoryCurve:
    """The bytes held at each step of one forward and backward pass (``record_memory``).

    ``saved[i]`` and ``buffered[i]`` are the bytes after step ``steps[i]``; ``names[i]`` says what the
    step was (the node an operation recorded, or the node the engine ran before it) and ``phases[i]``
    when: ``"forward"``, ``"backward"`` (a node of the engine) or ``"recorded in backward"`` (an operation
    recorded inside a backward node, as a checkpoint's recomputation). ``backward_start`` is the index of the
    first backward sample (None when the forward made no graph).
    """

    label: str
    steps: list = field(default_factory=list)
    saved: list = field(default_factory=list)
    buffered: list = field(default_factory=list)
    names: list = field(default_factory=list)
    phases: list = field(default_factory=list)
    backward_start: int | None = None

    @property
    def total(self):
        """Saved plus buffered bytes, step by step."""
        return [s + b for s, b in zip(self.saved, self.buffered, strict=True)]

    @property
    def peak(self):
        """The most bytes held at once, saved and buffered together."""
        return max(self.total)

    @property
    def peak_saved(self):
        return max(self.saved)

    @property
    def peak_buffered(self):
        return max(self.buffered)

    @property
    def forward_steps(self):
        """Operations of the forward pass (step 0, the start, not counted)."""
        return (len(self.steps) if self.backward_start is None else self.backward_start) - 1

    @property
    def backward_steps(self):
        """Nodes the engine ran (and operations recorded inside backward)."""
        return 0 if self.backward_start is None else len(self.steps) - self.backward_start - 1

    def at_backward_start(self):
        """(saved, buffered) when backward starts; None without a backward."""
        i = self.backward_start
        return None if i is None else (self.saved[i], self.buffered[i])

    def at_end(self):
        """(saved, buffered) after the last step."""
        return self.saved[-1], self.buffered[-1]

    def __repr__(self):
        return (f"MemoryCurve({self.label!r}: {self.forward_steps} forward steps, {self.backward_steps} "
                f"backward steps, peak {self.peak:,} bytes (saved {self.peak_saved:,}, "
                f"in buffers {self.peak_buffered:,}), at the end {self.saved[-1]:,} saved)")


class MemoryRecorder(NoTracer):
    """Samples the saved and buffered bytes: after each operation, and at each step of the engine."""

    def __init__(self, label, exclude=()):
        self.curve = MemoryCurve(label)
        self.skip = frozenset(id(owner(t._data)) for t in exclude)
        self.nodes = weakref.WeakSet()       # every node recorded (or found) so far, while it lives
        self.phase = "forward"
        self._last = None                    # the node the engine ran last
        self._buffered = 0                   # the bytes in the buffers at the engine's last step
        self._graph_task = None              # the backward sampled: a reentrant one inside it is not

    # ------------------------------------------------------------------ the graph
    def add_graph(self, node):
        """``node`` and the nodes behind it not seen yet (a walk that stops at known nodes)."""
        stack = [node]
        while stack:
            node = stack.pop()
            if node is None or node in self.nodes:
                continue
            self.nodes.add(node)
            stack.extend(next_node for next_node, _nr in node.next_functions)

    def saved_bytes(self):
        return distinct_bytes([array for node in list(self.nodes) for array in saved_arrays(node)], self.skip)

    def sample(self, name, buffered=0, phase=None):
        curve = self.curve
        curve.steps.append(len(curve.steps))
        curve.saved.append(self.saved_bytes())
        curve.buffered.append(buffered)
        curve.names.append(name)
        curve.phases.append(phase or self.phase)

    # ------------------------------------------------------------------ forward: after each operation
    def after_op(self, cls, outputs):
        recorded = [out.grad_fn for out in ((outputs,) if isinstance(outputs, Tensor) else outputs)
                    if isinstance(out, Tensor) and out.grad_fn is not None
                    and type(out.grad_fn) is cls._backward_cls]
        for node in recorded:
            self.add_graph(node)
        if self.phase == "forward":
            self.sample(cls._backward_cls.__name__)
        elif recorded:                               # inside a backward node: its buffers are still held
            self.sample(cls._backward_cls.__name__, self._buffered, "recorded in backward")

    @contextlib.contextmanager
    def every_op(self):
        """While inside: ``after_op`` when each ``Function.apply`` returns (restored afterwards)."""
        original = Function.__dict__["apply"]
        recorder = self

        def apply(cls, *args):
            outputs = original.__func__(cls, *args)
            recorder.after_op(cls, outputs)
            return outputs

        Function.apply = classmethod(apply)
        try:
            yield
        finally:
            Function.apply = original

    # ------------------------------------------------------------------ backward: the engine's tracer
    def on_execute(self, node, input_buffer, graph_task, ready_queue):
        if self._graph_task is None:
            self._graph_task = graph_task
        elif graph_task is not self._graph_task:     # a backward run inside a node (a checkpoint's)
            return
        if self.phase == "forward":                  # the root was just popped: backward starts
            self.phase = "backward"
            self.add_graph(node)                     # nodes recorded before record_memory, if any
            self.curve.backward_start = len(self.curve.steps)
            self._buffered = self.buffered_bytes(input_buffer, graph_task, ready_queue)
            self.sample("start", self._buffered)
        else:
            self._buffered = self.buffered_bytes(input_buffer, graph_task, ready_queue)
            self.sample(self._last, self._buffered)
        self._last = node_name(node)

    def on_finish(self, graph_task):
        if self.phase == "backward" and graph_task is self._graph_task:
            self.sample(self._last, 0)

    @staticmethod
    def buffered_bytes(input_buffer, graph_task, ready_queue):
        """The gradients in the buffers: the popped node's, the waiting nodes', the ready queue's."""
        buffers = [input_buffer, *graph_task.not_ready.values()]
        buffers += [entry[-1] for entry in ready_queue._heap]    # (priority, arrival, node, InputBuffer)
        return distinct_bytes([grad._data for buffer in buffers for grad in buffer.buffer
                               if grad is not None])


def record_memory(forward, label, exclude=(), retain_graph=False, gradient=None):
    """Run ``forward()`` and then one backward through what it returns, sampling the memory at every step.

    forward: a function of no arguments that returns the output to backward from (the loss). If the
        output has no graph (made under ``no_grad``), only the forward pass is recorded.
    label: the run's name in the plot's legend.
    exclude: tensors whose memory is not counted (parameters, the input batch: they exist anyway).
    retain_graph, gradient: as in ``output.backward(gradient, retain_graph=...)``. The backward is real:
        leaves' ``.grad`` are written, and saved tensors freed unless ``retain_graph``.

    Returns a ``MemoryCurve``.
    """
    recorder = MemoryRecorder(label, exclude)
    with recorder.every_op():
        recorder.sample("start")
        output = forward()
        if not isinstance(output, Tensor):
            raise TypeError(f"record_memory(): forward() returned a {type(output).__name__}, not a Tensor")
        if output.requires_grad:
            grads = autograd._make_grads((output,), (gradient,))
            run_backward((output,), grads, keep_graph=retain_graph, create_graph=False, tracer=recorder)
    return recorder.curve


# ---------------------------------------------------------------------- the plot
def _chinese_font_families():
    """matplotlib's font families, then the installed fonts with Chinese characters."""
    import matplotlib
    from matplotlib import font_manager
    installed = {font.name for font in font_manager.fontManager.ttflist}
    families = list(matplotlib.rcParams["font.family"])
    return families + [name for name in CJK_FONTS if name in installed and name not in families]


def plot_memory(curves, ax=None, title=None):
    """Draw ``MemoryCurve``s on one matplotlib axes: KB held against the step, forward then backward.

    Solid lines: saved tensors; dotted, in the same colour: gradients in the engine's input buffers. A
    dashed vertical line marks where each run's backward starts. Returns the axes.
    """
    import matplotlib
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D

    settings = {"font.family": _chinese_font_families()} if language() == "zh" else {}
    with matplotlib.rc_context(settings):
        if ax is None:
            _fig, ax = plt.subplots(figsize=(9, 4))
        colors = plt.rcParams["axes.prop_cycle"].by_key()["color"]
        handles, starts, top = [], [], 0
        for index, curve in enumerate(curves):
            color = colors[index % len(colors)]
            # The first runs drawn widest: a run that follows another one step for step (retain_graph in
            # the forward pass) shows as a thin line inside a wide one.
            width = max(3.6 - 0.7 * index, 1.2)
            ax.plot(curve.steps, [b / KB for b in curve.saved], color=color, linewidth=width,
                    drawstyle="steps-post", solid_capstyle="butt")
            if any(curve.buffered):
                ax.plot(curve.steps, [b / KB for b in curve.buffered], color=color, linewidth=1.2,
                        linestyle=":", drawstyle="steps-post")
            handles.append(Line2D([], [], color=color, linewidth=width, label=curve.label))
            if curve.backward_start is not None:
                starts.append(curve.steps[curve.backward_start] - 0.5)
            top = max(top, curve.peak_saved, curve.peak_buffered)
        for x in sorted(set(starts)):
            ax.axvline(x, color="#777777", linestyle="--", linewidth=1)
        if starts:
            ax.text(min(starts), 1.01, _("backward starts"), transform=ax.get_xaxis_transform(), ha="right",
                    va="bottom", fontsize=8, color="#555555")
        handles.append(Line2D([], [], color="#333333", linewidth=1.8, label=_("saved tensors")))
        handles.append(Line2D([], [], color="#333333", linewidth=1.2, linestyle=":",
                              label=_("gradients in input buffers")))
        ax.set_xlabel(_("step (forward: one operation; backward: one node run by the engine)"))
        ax.set_ylabel(_("memory held (KB)"))
        ax.set_ylim(-0.03 * top / KB, 1.08 * top / KB)     # a run flat at zero stays visible
        ax.set_xlim(left=0)
        ax.set_title(title if title is not None else _("Memory over one forward and backward pass"), pad=14)
        ax.legend(handles=handles, fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1), borderaxespad=0)
        ax.figure.tight_layout()
    return ax
