"""Record one backward pass step by step, as the engine really runs it.

Counterpart: torch/csrc/autograd/engine.cpp (``Engine::execute``,
``evaluate_function``). ``trace_backward`` does not re-implement the engine: it
calls ``autograd.engine.run_backward`` with a tracer, and the engine reports to
it at three points (see ``engine.execute``):

- ``on_execute(node, input_buffer, graph_task, ready_queue)``: a node was popped
  from the ready queue and is about to run, with the gradients in its buffer;
- ``on_outputs(node, outputs, graph_task)``: it ran and returned these gradients,
  one per ``next_functions`` edge (an ``AccumulateGrad`` has just written ``.grad``);
- ``on_finish(graph_task)``: the ready queue is empty; backward is over.

Each frame of the trace is one step: the node that ran, what it received and
sent, the ``.grad`` it wrote, and then the state the engine is left in: the
ready queue (next to run first), the dependency count of every node still
waiting, and the gradients already waiting in their input buffers.

The frames' words (states, table headings, the steps in words) are in the edition's
language (``i18n.py``); a ``Frame`` itself holds only ids, names and values.

Another engine built like mini_autograd's (the ``myautograd`` a learner writes in the course) is
traced through its nodes instead: ``trace_backward(out)`` on one of its tensors, or with
``engine=myautograd.engine.run_backward``, puts a pre-hook on every node (it records the node and the
gradient arriving there, in the order the engine runs them) and watches each node's ``apply`` (the
gradients it sends on, the ``.grad`` it writes). That engine's ready queue and buffers are its own, so
its frames have no queue and no waiting nodes (``ready`` and ``waiting`` are None).

Jupyter shows a trace as a player (``player.py``): an animated image where no script runs, and buttons,
a slider and a click on each node where scripts run.
"""
import html
from dataclasses import dataclass, field

import numpy as np

from .. import autograd
from .._tensor import Tensor
from ..autograd.engine import run_backward
from .dot import to_dot
from .i18n import _, pad, tidy
from .picture import GraphPicture, drawn_or_none
from .walk import is_tensor, one_line, summary_text, walk

MAX_WAITING_LINES = 12   # waiting nodes listed per step; a Frame keeps them all


def ordinal_suffix(number):
    """The English ordinal's ending: 1st, 2nd, 3rd, 4th, ..., 11th, 12th, 13th, ..., 21st."""
    return "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")


def gradient_text(grad):
    """A gradient as printed values (or its shape when big); ``None`` when there is none."""
    return "None" if grad is None else one_line(summary_text(grad._data, True))


@dataclass
class Frame:
    """One step of a backward pass (step 0: the start, before any node ran)."""

    step: int
    node_id: str | None = None                  # the node that ran ("n2"); None at the start
    received: list = field(default_factory=list)  # the gradients in its input buffer
    sent: list = field(default_factory=list)      # (target "n3 AddBackward0" or "None", gradient)
    edges: list = field(default_factory=list)     # (node id, edge index) that carried a gradient
    writes: list = field(default_factory=list)    # "x.grad = ..." written by this step
    ready: list | None = field(default_factory=list)    # ids in the ready queue after the step, next first
    waiting: list | None = field(default_factory=list)  # (id, edges still to deliver, buffer texts)
    done: list = field(default_factory=list)      # ids of the nodes that have run, this one included
    ready_buffers: dict = field(default_factory=dict)   # id in the ready queue -> its buffer's texts
    # ready and waiting are None in a trace of another engine (its queue is its own: not recorded)


class Recorder:
    """The tracer handed to the engine: turns its three reports into frames."""

    def __init__(self, graph):
        self.ids = graph.ids                                   # engine Node -> "n3"
        self.boxes = {node.id: node for node in graph.nodes}   # "n3" -> NodeBox
        self.frames = []
        self._current = None
        self._done = []

    def name(self, node_id):
        return f"{node_id} {self.boxes[node_id].name}"

    def on_execute(self, node, input_buffer, graph_task, ready_queue):
        received = [gradient_text(grad) for grad in input_buffer.buffer]
        if self._current is None:             # the first pop: step 0 shows the seed gradient
            self._current = Frame(0, received=received)
        # The queue before this pop is the one the previous step left: this node, then the rest.
        entries = [(entry[2], entry[3]) for entry in sorted(ready_queue._heap)]
        self._end_step(graph_task, [(node, input_buffer), *entries])
        self._current = Frame(len(self.frames), self.ids[node], received)

    def on_outputs(self, node, outputs, graph_task):
        frame = self._current
        for index, ((next_node, _nr), grad) in enumerate(zip(node.next_functions, outputs, strict=True)):
            target = "None" if next_node is None else self.name(self.ids[next_node])
            frame.sent.append((target, gradient_text(grad)))
            if next_node is not None and grad is not None:
                frame.edges.append((frame.node_id, index))
        frame.writes = self._writes(node, self.boxes[frame.node_id])

    def on_finish(self, graph_task):
        self._end_step(graph_task, [])

    def _writes(self, node, box):
        """The ``.grad`` this step wrote: a leaf's (AccumulateGrad), or a retained tensor's."""
        writes = []
        if box.leaf is not None:
            writes.append(_grad_write(box.leaf, node.variable._grad))
        hooks = sorted((node._retains_grad_hooks or {}).items())
        # strict=False: box.retained has no box for a retained tensor already freed when the graph was walked
        for (_hook_id, hook), retained in zip(hooks, box.retained, strict=False):
            tensor = hook.tensor_ref()
            if tensor is not None:
                writes.append(_grad_write(retained, tensor._grad))
        return writes

    def _end_step(self, graph_task, ready_entries):
        """Close the current frame with the state the engine is in now: ``ready_entries`` are the ready
        queue's ``(node, input buffer)``, next to run first."""
        frame = self._current
        if frame.node_id is not None:
            self._done.append(frame.node_id)
        frame.done = list(self._done)
        frame.ready = [self.ids[node] for node, _buffer in ready_entries]
        frame.ready_buffers = {self.ids[node]: [gradient_text(grad) for grad in buffer.buffer]
                               for node, buffer in ready_entries}
        waiting = []
        for node, count in graph_task.dependencies.items():
            buffer = graph_task.not_ready.get(node)
            grads = [] if buffer is None else [gradient_text(grad) for grad in buffer.buffer]
            waiting.append((self.ids[node], count, grads))
        frame.waiting = sorted(waiting, key=lambda item: int(item[0][1:]))
        self.frames.append(frame)


def _grad_write(box, grad):
    owner = f"{box.label}.grad" if box.named else _(".grad of {label}").format(label=box.label)
    return f"{owner} = {gradient_text(grad)}"


def trace_backward(output, gradient=None, retain_graph=False, params=None, names=None, engine=None):
    """Run ``output.backward(gradient)`` and record every step the engine takes.

    The backward is real (leaves' ``.grad`` are written, saved tensors freed unless
    ``retain_graph``); ``params`` and ``names`` name tensors as in ``draw``.
    Returns a ``BackwardTrace``: Jupyter shows it as a player (``player.py``), ``print``
    gives the steps in words, ``trace[i]`` is a ``Frame`` and ``trace.frame(i)`` its picture.

    Your own engine: ``output`` may be a tensor of another engine built like mini_autograd's, such as
    your ``myautograd``. Its backward runs with a pre-hook on every node, which records the steps (see
    the module's docstring); ``engine`` is the function that runs it, called as
    ``engine(output, gradient)`` (with ones for a scalar output when ``gradient`` is None, and with
    ``retain_graph=True`` when asked), e.g. ``myautograd.engine.run_backward``; by default
    ``output.backward(...)``, your ``Tensor.backward``::

        trace = viz.trace_backward(out, params={"x": x}, engine=myautograd.engine.run_backward)
    """
    if isinstance(output, Tensor):
        if engine is not None:
            raise TypeError("trace_backward(engine=...) traces another engine's tensors (your myautograd's); "
                            "a mini_autograd tensor is traced through mini_autograd's own engine")
    elif is_tensor(output):
        return _trace_other_engine(output, gradient, retain_graph, params, names, engine)
    else:
        raise TypeError(f"trace_backward() takes a tensor, not {type(output).__name__}")
    graph = _picture_graph(output, params, names)
    saved = _saved_tensors(output, params, names)
    recorder = Recorder(graph)
    grads = autograd._make_grads((output,), (gradient,))
    run_backward((output,), grads, keep_graph=retain_graph, create_graph=False, tracer=recorder)
    return BackwardTrace(graph, recorder.frames, saved=saved, frees_saved=not retain_graph)


def _picture_graph(output, params, names):
    graph = walk(output, params, names, show_saved=False, show_values=False)
    for node in graph.nodes:          # the pictures show states; the tables show the numbers
        if node.leaf is not None:
            node.leaf.grad = None
    for box, _root in graph.outputs:
        box.grad = None
    return graph


def _saved_tensors(output, params, names):
    """``{id: [TensorBox]}``: what each node saved for backward, read before backward frees it."""
    graph = walk(output, params, names, show_saved=True, show_values=True)
    return {node.id: node.saved for node in graph.nodes if node.saved}


# ------------------------------------------------------------ another engine
class HookRecorder:
    """The steps of another engine (a learner's ``myautograd``), seen from its nodes.

    A pre-hook on each node (``node.pre_hooks``, the list such an engine calls with the gradient arriving
    at the node) starts a step; the node's ``apply``, watched, ends it with the gradients it returned.
    """

    def __init__(self, graph, seed):
        self.ids = graph.ids
        self.boxes = {node.id: node for node in graph.nodes}
        self.frames = [Frame(0, received=[seed], ready=None, waiting=None)]
        self._ran = set()            # steps whose node's apply has returned

    def name(self, node_id):
        return f"{node_id} {self.boxes[node_id].name}"

    def arrived(self, node, grad):
        """The pre-hook: ``node`` is about to run on ``grad``."""
        node_id = self.ids.get(node)
        if node_id is not None:
            done = [*self.frames[-1].done, node_id]
            self.frames.append(Frame(len(self.frames), node_id, [_any_gradient_text(grad)],
                                     ready=None, waiting=None, done=done))

    def applied(self, node, grad, outputs):
        """``node.apply(grad)`` returned ``outputs``, one gradient per ``next_functions`` edge."""
        node_id = self.ids.get(node)
        if node_id is None:
            return
        frame = self.frames[-1]
        if frame.node_id != node_id or frame.step in self._ran:   # an engine that did not call the hooks
            self.arrived(node, grad)
            frame = self.frames[-1]
        self._ran.add(frame.step)
        outputs = outputs if isinstance(outputs, (tuple, list)) else (outputs,)
        for index, ((next_node, _nr), sent) in enumerate(zip(node.next_functions, outputs, strict=False)):
            known = next_node is not None and next_node in self.ids
            target = self.name(self.ids[next_node]) if known else "None"
            frame.sent.append((target, _any_gradient_text(sent)))
            if target != "None" and sent is not None:
                frame.edges.append((node_id, index))
        leaf = self.boxes[node_id].leaf
        if leaf is not None and hasattr(node, "variable"):
            frame.writes = [_grad_write(leaf, getattr(node.variable, "_grad", None))]


def _any_gradient_text(grad):
    return "None" if grad is None else one_line(summary_text(np.asarray(grad._data), True))


def _seed_text(output, gradient):
    data = np.ones_like(output._data) if gradient is None else np.asarray(gradient._data)
    return one_line(summary_text(data, True))


def _trace_other_engine(output, gradient, retain_graph, params, names, engine):
    """``trace_backward`` of another engine's tensor: hooks on its nodes, then its backward."""
    graph = _picture_graph(output, params, names)
    recorder = HookRecorder(graph, _seed_text(output, gradient))
    undo = [_watch(node, recorder) for node in graph.ids]
    try:
        options = {"retain_graph": True} if retain_graph else {}
        if engine is None:
            output.backward(gradient, **options)
            engine_name = f"{type(output).__module__.split('.')[0]}.Tensor.backward"
        else:
            if gradient is None:
                gradient = type(output)(np.ones_like(output._data))
            engine(output, gradient, **options)
            engine_name = f"{getattr(engine, '__module__', '')}.{getattr(engine, '__qualname__', engine)}"
    finally:
        for restore in undo:
            restore()
    return BackwardTrace(graph, recorder.frames, engine=engine_name.lstrip("."))


def _watch(node, recorder):
    """Hook ``node`` (a pre-hook, and a wrapper around its ``apply``); returns what undoes it."""
    def hook(grad):
        recorder.arrived(node, grad)

    def apply(grad, *rest):
        outputs = original(grad, *rest)
        recorder.applied(node, grad, outputs)
        return outputs

    hooks = getattr(node, "pre_hooks", None)
    if isinstance(hooks, list):
        hooks.append(hook)
    original = node.apply
    own_apply = "apply" in getattr(node, "__dict__", {})
    try:
        node.apply = apply
    except AttributeError:          # a node that takes no attributes: its steps come from the hooks alone
        own_apply = None

    def undo():
        if isinstance(hooks, list) and hook in hooks:
            hooks.remove(hook)
        if own_apply is True:
            node.apply = original
        elif own_apply is False:
            del node.apply
    return undo


# ------------------------------------------------------------------ display
class BackwardTrace:
    """The frames of one backward pass; ``trace[i]`` is a ``Frame``, ``trace.frame(i)`` its picture.

    Jupyter shows a player (``player.py``): where no script runs (an untrusted notebook, a
    notebook viewer), an animated image of the steps that plays by itself; where scripts run
    (the website, a cell the learner ran), the steps with buttons, a slider, the step's table
    beside the graph, and what a node holds when it is clicked. ``print(trace)`` gives the
    steps in words; ``trace.order`` the nodes in the order they ran.
    """

    max_frames = 40   # steps shown in a notebook; the rest stay reachable through .frame(i)
    max_nodes = 100   # bigger graphs are shown in words only: a picture per step would be too much

    def __init__(self, graph, frames, saved=None, frees_saved=True, engine=None):
        self.graph = graph
        self.frames = frames
        self.saved = saved or {}          # {node id: [TensorBox]}: what each node saved for backward
        self.frees_saved = frees_saved    # a node's saved tensors are freed once it has run
        self.engine = engine              # None: mini_autograd's engine; else the other engine's name
        self._names = {node.id: f"{node.id} {node.name}" for node in graph.nodes}
        self._player_parts = {}           # language -> what the player shows (player.py)

    def __len__(self):
        return len(self.frames)

    def __getitem__(self, index):
        return self.frames[index]

    @property
    def order(self):
        """The nodes in the order the engine ran them, e.g. ``["n0 SumBackward0", ...]``."""
        return [self._names[frame.node_id] for frame in self.frames[1:]]

    def frame(self, index):
        """Step ``index`` (0 is the start) as a picture with its table."""
        frame = self.frames[index]
        return FramePicture(to_dot(self.graph, overlay(self.graph, frame)),
                            frame_text(frame, self._names), _("step {step}").format(step=frame.step), frame,
                            self._names)

    def _shown(self):
        return range(min(len(self.frames), self.max_frames))

    def _more_note(self):
        hidden = len(self.frames) - self.max_frames
        return _("... {count} more steps: see trace.frame(i)").format(count=hidden) if hidden > 0 else None

    @property
    def title(self):
        steps = len(self.frames) - 1
        count = (_("{count} step") if steps == 1 else _("{count} steps")).format(count=steps)
        if self.engine is not None:
            return tidy(_("backward trace of {title}: {steps}, in the order {engine} ran them").format(
                title=self.graph.title, steps=count, engine=self.engine))
        return tidy(_("backward trace of {title}: {steps}, in the engine's order").format(
            title=self.graph.title, steps=count))

    def __repr__(self):
        lines = [self.title]
        lines += [frame_text(self.frames[i], self._names) for i in self._shown()]
        if note := self._more_note():
            lines.append(note)
        return "\n".join(lines)

    __str__ = __repr__

    def _repr_pretty_(self, printer, cycle):
        printer.text(repr(self))

    def _repr_html_(self):
        """The player (``player.py``), or None: Jupyter then shows the text form."""
        if len(self.graph.nodes) > self.max_nodes:
            return None        # too big to draw at every step
        from .player import player_html
        return drawn_or_none(lambda: player_html(self))


class FramePicture(GraphPicture):
    """One step of a trace: the graph with the node states, and the step's table beside it."""

    def __init__(self, digraph, text, alt, frame, names):
        super().__init__(digraph, text, alt)
        self.frame = frame
        self.names = names

    def rows(self):
        """The table: (heading, lines) pairs."""
        return frame_rows(self.frame, self.names)

    def html_block(self):
        picture = self.html_picture()
        if picture is None:
            return None
        cell = "text-align:left;vertical-align:top;padding:2px 8px"
        body = "".join(
            f'<tr><td style="{cell};font-weight:bold;white-space:nowrap">{html.escape(heading)}</td>'
            f'<td style="{cell}"><code>{"<br>".join(html.escape(line) for line in lines)}</code></td></tr>'
            for heading, lines in self.rows())
        caption = html.escape(step_title(self.frame, self.names))
        table = (f'<table style="border-collapse:collapse;font-size:12px;margin:0">'
                 f'<caption style="text-align:left;font-weight:bold;padding:2px 8px">{caption}</caption>'
                 f"{body}</table>")
        return (f'<div style="display:flex;flex-wrap:wrap;gap:12px;align-items:flex-start;'
                f'border-top:1px solid #ddd;padding:6px 0">{picture}{table}</div>')

    def _repr_html_(self):
        return self.html_block()

    def file_digraph(self):
        """A saved frame carries its table under the picture (a file has no HTML beside it)."""
        digraph = self.digraph.copy()
        digraph.graph_attr.update(label=table_label(step_title(self.frame, self.names), self.rows()),
                                  labelloc="b", labeljust="l")
        return digraph


# --------------------------------------------------------------- frame words
def step_title(frame, names):
    if frame.node_id is None and frame.ready is None:
        return _("step 0: start, with the seed gradient")
    if frame.node_id is None:
        return _("step 0: start (dependencies counted, the root is in the ready queue)")
    return _("step {step}: {node} runs").format(step=frame.step, node=names[frame.node_id])


def frame_rows(frame, names):
    """What happened in the step, and the state it left, as (heading, lines) pairs."""
    rows = []
    if frame.node_id is None:
        rows.append((_("seed gradient"), frame.received))
    else:
        rows.append((_("received"), frame.received))
        rows.append((_("sent"), [_sent_line(target, grad) for target, grad in frame.sent] or [_("nothing")]))
    if frame.writes:
        rows.append((_("wrote"), frame.writes))
    if frame.ready is None:            # another engine's trace: its queue was not recorded
        return rows
    ready = [names[node_id] for node_id in frame.ready]
    rows.append((_("ready queue"), ready or [_("empty: backward is over")]))
    waiting = [_waiting_line(names, *item) for item in frame.waiting[:MAX_WAITING_LINES]]
    if len(frame.waiting) > MAX_WAITING_LINES:
        waiting.append(_("... and {count} more nodes").format(count=len(frame.waiting) - MAX_WAITING_LINES))
    rows.append((_("waiting"), waiting or [_("nothing")]))
    return rows


def _sent_line(target, grad):
    if target == "None":
        return _("-> None (this input needs no gradient)")
    return f"-> {target}: {grad}"


def _waiting_line(names, node_id, count, grads):
    arrived = [grad for grad in grads if grad != "None"]
    if arrived:
        return _("{node}: {count} more to come; buffer holds {gradients}").format(
            node=names[node_id], count=count, gradients=", ".join(grads))
    return _("{node}: {count} more to come").format(node=names[node_id], count=count)


def frame_text(frame, names):
    lines = [step_title(frame, names)]
    for heading, items in frame_rows(frame, names):
        lines.append(f"  {pad(_('{heading}:').format(heading=heading), 15)}{items[0]}")
        lines += [f"  {'':<15}{item}" for item in items[1:]]
    return "\n".join(lines)


def table_label(title, rows):
    """The step's table as a graphviz HTML-like label (for saved files)."""
    def cell(text, bold=False):
        text = html.escape(text, quote=False)
        return f"<B>{text}</B>" if bold else text
    body = "".join(
        f'<TR><TD ALIGN="LEFT" VALIGN="TOP">{cell(heading, True)}</TD>'
        f'<TD ALIGN="LEFT" BALIGN="LEFT">{"<BR/>".join(cell(line) for line in lines)}</TD></TR>'
        for heading, lines in rows)
    return (f'<<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="3">'
            f'<TR><TD COLSPAN="2" ALIGN="LEFT">{cell(title, True)}</TD></TR>{body}</TABLE>>')


# ------------------------------------------------------------ frame picture
def overlay(graph, frame):
    """Each node's state in this frame, for ``dot.to_dot``."""
    states = {}
    not_run = _("not reached") if frame.waiting is not None else _("not run yet")
    for node in graph.nodes:
        states[node.id] = ("waiting", not_run)
    for node_id, count, _grads in frame.waiting or ():
        states[node_id] = ("waiting", _("waits for {count} more").format(count=count))
    for position, node_id in enumerate(frame.ready or (), start=1):
        states[node_id] = ("ready", _("ready, {number}{ordinal_suffix} in queue").format(
            number=position, ordinal_suffix=ordinal_suffix(position)))
    for node_id in frame.done:
        states[node_id] = ("done", _("done"))
    if frame.node_id is not None:
        states[frame.node_id] = ("running", _("runs now"))
    leaf_states = {node.id: (_(".grad written") if node.id in frame.done else _(".grad not written yet"))
                   for node in graph.nodes if node.leaf is not None}
    return {"states": states, "leaf_states": leaf_states, "edges": set(frame.edges)}
