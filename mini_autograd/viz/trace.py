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

``trace_backward(out, inputs=[b])`` runs ``backward(inputs=[b])``: the engine first marks the nodes on a
path to the inputs (``engine.init_to_execute`` fills ``graph_task.exec_info``; engine.cpp:
``GraphTask::init_to_execute``), and the others never run. The trace reads that mark when the first node
is popped: those nodes are drawn as pruned in every frame and listed at step 0.

A backward run inside a traced one (a reentrant backward: a custom Function's backward that calls
``autograd.backward`` or ``autograd.grad``, as a checkpoint does) is a graph task of its own, nested in the
node that started it (engine.cpp: ``Engine::execute_with_graph_task``; its depth is ``reentrant_depth_`` in
``graph_task.h``). The engine reports its steps to the same tracer (``engine.execute_reentrant_aware``
hands the tracer of the backward running in this thread to a backward started inside it), so they come
in the order they ran: the outer node's step, then the inner graph task's start and steps, then the outer
node returning and the outer graph task going on. The inner graph task's nodes are walked when its first
node is popped, numbered after the ones known, and drawn in a cluster of their own that appears at its
start. (An inner backward past ``MAX_DEPTH`` levels runs in another thread, which is not traced.)

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
from collections import deque
from dataclasses import dataclass, field

import numpy as np

from .. import autograd
from .._tensor import Tensor
from ..autograd.engine import run_backward
from .dot import to_dot
from .i18n import _, pad, tidy
from .picture import GraphPicture, drawn_or_none
from .walk import (NodeBox, is_tensor, node_name, one_line, saved_boxes, summary_text, tensor_box,
                   tensor_names, walk)

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
    task: int = 1               # the graph task of this step: 1 is the traced backward, 2... reentrant ones
    depth: int = 0              # its reentrant depth: the graph tasks it runs inside
    pruned: list = field(default_factory=list)    # at a graph task's start: ids of the nodes it will not run
    started: int | None = None  # the node's backward started graph task `started`, whose steps come next
    returned: bool = False      # the node's backward returns, after the graph task(s) it started
    captured: bool = False      # popped, but not run: autograd.grad captures the gradient it received
    paused: list = field(default_factory=list)    # Paused: the outer graph tasks, waiting in a node


@dataclass
class Paused:
    """An outer graph task while a reentrant one runs: the node it waits in, and its state, unchanged."""

    task: int
    node_id: str
    ready: list
    waiting: list
    ready_buffers: dict


@dataclass
class GraphTaskInfo:
    """One graph task of a trace: 1 is the traced backward; 2, 3, ... backwards run inside its nodes."""

    number: int
    depth: int               # reentrant depth (graph_task.h: reentrant_depth_): 0 for the traced backward
    parent: str | None       # the node whose backward started it
    start: int               # the step it starts at (its own step 0)
    nodes: list              # the ids of the nodes it brought into the trace, drawn in a cluster of its own
    pruned: list             # ids of nodes it does not run: not on a path to the inputs asked for
    captured: list           # ids of nodes whose gradient autograd.grad captures: popped, not run


class Recorder:
    """The tracer handed to the engine: turns its three reports into frames.

    The reports of a reentrant backward come to it too (see the module's docstring): a graph task it has
    not seen is a new one, nested in the node the running graph task is in.
    """

    def __init__(self, graph, labels=None, saved=None):
        self.graph = graph
        self.ids = graph.ids                                   # engine Node -> "n3"
        self.boxes = {node.id: node for node in graph.nodes}   # "n3" -> NodeBox
        self.labels = labels or {}                             # id(tensor) -> the name given to it
        self.saved = saved if saved is not None else {}        # "n3" -> what it saved (for the player)
        self.frames = []
        self.tasks = []              # GraphTaskInfo, in the order the graph tasks started
        self._info = {}              # engine GraphTask -> its GraphTaskInfo
        self._running = []           # the engine's graph tasks started and not over, innermost last
        self._after_pop = {}         # GraphTask -> its ready queue after its last pop: [(node, buffer)]
        self._opened = {}            # GraphTask -> the frame of the node it runs now
        self._current = None         # the frame being written
        self._done = []

    def name(self, node_id):
        return f"{node_id} {self.boxes[node_id].name}"

    def on_execute(self, node, input_buffer, graph_task, ready_queue):
        # The queue before this pop is the one the previous step left: this node, then the rest.
        entries = [(node, input_buffer), *((entry[2], entry[3]) for entry in sorted(ready_queue._heap))]
        if graph_task not in self._info:
            self._start(graph_task, node, input_buffer, entries)
        else:
            self._end_step(graph_task, entries)
        self._after_pop[graph_task] = entries[1:]
        info = self._info[graph_task]
        # Under autograd.grad, a node not needed was pushed only for its gradient to be captured.
        captured = bool(graph_task.exec_info) and not graph_task.exec_info.get(node, False)
        received = [gradient_text(grad) for grad in input_buffer.buffer]
        self._current = Frame(len(self.frames), self.ids[node], received, task=info.number, depth=info.depth,
                              captured=captured)
        self._opened[graph_task] = self._current

    def on_outputs(self, node, outputs, graph_task):
        frame = self._current
        if frame is None:        # its step ended when its backward started a graph task, now over: it returns
            opened = self._opened[graph_task]
            frame = self._current = Frame(len(self.frames), opened.node_id, opened.received, task=opened.task,
                                          depth=opened.depth, returned=True)
        pruned = self._info[graph_task].pruned
        for index, ((next_node, _nr), grad) in enumerate(zip(node.next_functions, outputs, strict=True)):
            target = "None" if next_node is None else self.name(self.ids[next_node])
            text = gradient_text(grad)
            if next_node is not None and self.ids[next_node] in pruned and grad is not None:
                # a custom Function's backward computed it; the engine drops it (engine.evaluate_function)
                text = _("{gradient} (dropped: the node is pruned)").format(gradient=text)
                frame.sent.append((target, text))
                continue
            frame.sent.append((target, text))
            if next_node is not None and grad is not None:
                frame.edges.append((frame.node_id, index))
        frame.writes = self._writes(node, self.boxes[frame.node_id])

    def on_finish(self, graph_task):
        self._end_step(graph_task, [])
        self._running.remove(graph_task)

    def _start(self, graph_task, root, input_buffer, entries):
        """A graph task's first pop: its step 0 (dependencies counted, the root in its ready queue)."""
        parent = None
        if self._running:                     # a reentrant backward, inside the node the running task is in
            outer = self._running[-1]
            parent = self._opened[outer].node_id
            if self._current is not None:     # that node's step ends here; it returns once this task is over
                self._current.started = len(self.tasks) + 1
                self._end_step(outer, self._after_pop[outer])
        new_ids = self._add_graph(root)
        exec_info = graph_task.exec_info
        pruned = [self.ids[node] for node, needed in exec_info.items()
                  if not needed and node not in graph_task.captures and node in self.ids]
        captured = [self.ids[node] for node in graph_task.captures if node in self.ids]
        info = GraphTaskInfo(len(self.tasks) + 1, len(self._running), parent, len(self.frames), new_ids,
                             sorted(pruned, key=_number), sorted(captured, key=_number))
        self.tasks.append(info)
        self._info[graph_task] = info
        self._running.append(graph_task)
        seed = [gradient_text(grad) for grad in input_buffer.buffer]
        self._current = Frame(len(self.frames), received=seed, task=info.number, depth=info.depth,
                              pruned=info.pruned)
        self._end_step(graph_task, entries)

    def _add_graph(self, root):
        """The nodes of a reentrant graph task not in the trace yet, walked as ``walk.walk`` does and numbered
        after the ones known; returns their ids. (The traced backward's own nodes are all known.)"""
        found = []
        queue = deque()
        if root not in self.ids:
            self.ids[root] = f"n{len(self.ids)}"
            found.append(root)
            queue.append(root)
        while queue:
            node = queue.popleft()
            for next_node, _input_nr in node.next_functions:
                if next_node is not None and next_node not in self.ids:
                    self.ids[next_node] = f"n{len(self.ids)}"
                    found.append(next_node)
                    queue.append(next_node)
        for node in found:
            box = NodeBox(self.ids[node], node_name(node),
                          [None if next_node is None else self.ids[next_node]
                           for next_node, _input_nr in node.next_functions])
            if hasattr(node, "variable"):                     # an AccumulateGrad: its leaf
                default = _("leaf {number}").format(number=self.graph.leaf_count)
                box.leaf = tensor_box("leaf", node.variable, self.labels, default, False)
                box.leaf.grad = None                          # the pictures show states, not values
            saved = saved_boxes(node, self.labels, True)
            if saved:
                self.saved[box.id] = saved
            self.graph.nodes.append(box)
            self.boxes[box.id] = box
        return [self.ids[node] for node in found]

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

    def _state(self, graph_task, ready_entries):
        """``(ready, ready_buffers, waiting)`` of ``graph_task`` now: ``ready_entries`` are its ready queue's
        ``(node, input buffer)``, next to run first. A pruned node is not waiting: it will never run."""
        ready = [self.ids[node] for node, _buffer in ready_entries]
        ready_buffers = {self.ids[node]: [gradient_text(grad) for grad in buffer.buffer]
                         for node, buffer in ready_entries}
        pruned = set(self._info[graph_task].pruned)
        waiting = []
        for node, count in graph_task.dependencies.items():
            if self.ids[node] in pruned:
                continue
            buffer = graph_task.not_ready.get(node)
            grads = [] if buffer is None else [gradient_text(grad) for grad in buffer.buffer]
            waiting.append((self.ids[node], count, grads))
        return ready, ready_buffers, sorted(waiting, key=lambda item: _number(item[0]))

    def _end_step(self, graph_task, ready_entries):
        """Close the current frame with the state the engine is in now: ``ready_entries`` are the ready
        queue's ``(node, input buffer)``, next to run first."""
        frame = self._current
        if frame is None:
            return
        if frame.node_id is not None and frame.started is None and frame.node_id not in self._done:
            self._done.append(frame.node_id)
        frame.done = list(self._done)
        frame.ready, frame.ready_buffers, frame.waiting = self._state(graph_task, ready_entries)
        for outer in self._running:           # the graph tasks this one runs inside, as they wait
            if outer is not graph_task:
                ready, ready_buffers, waiting = self._state(outer, self._after_pop[outer])
                frame.paused.append(Paused(self._info[outer].number, self._opened[outer].node_id, ready,
                                           waiting, ready_buffers))
        self.frames.append(frame)
        self._current = None


def _number(node_id):
    """``n12`` -> 12: nodes listed in the order of their ids."""
    return int(node_id[1:])


def _grad_write(box, grad):
    owner = f"{box.label}.grad" if box.named else _(".grad of {label}").format(label=box.label)
    return f"{owner} = {gradient_text(grad)}"


def trace_backward(output, gradient=None, retain_graph=False, params=None, names=None, engine=None,
                   inputs=None):
    """Run ``output.backward(gradient, inputs=inputs)`` and record every step the engine takes.

    The backward is real (leaves' ``.grad`` are written, saved tensors freed unless
    ``retain_graph``); ``params`` and ``names`` name tensors as in ``draw``.
    ``inputs``: a tensor or a sequence of tensors, as in ``backward(inputs=...)``: only the nodes on a path
    to them run; the others are drawn as pruned. A backward that a node's backward runs (a reentrant one,
    such as a checkpoint's) is recorded too, as a graph task nested in that node.
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
        if inputs is not None:
            raise TypeError("trace_backward(inputs=...) is for mini_autograd's engine, whose graph task says "
                            "which nodes it will run")
        return _trace_other_engine(output, gradient, retain_graph, params, names, engine)
    else:
        raise TypeError(f"trace_backward() takes a tensor, not {type(output).__name__}")
    if inputs is not None and len(autograd._as_tuple(inputs)) == 0:
        raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
    inputs = autograd._as_tuple(inputs)
    for tensor in inputs:       # backward(inputs=[h]) has a non-leaf h retain its grad: first, to draw it
        if tensor.grad_fn is not None:
            tensor.retain_grad()
    graph = _picture_graph(output, params, names)
    saved = _saved_tensors(output, params, names)
    recorder = Recorder(graph, tensor_names(params, names), saved)
    grads = autograd._make_grads((output,), (gradient,))
    run_backward((output,), grads, keep_graph=retain_graph, create_graph=False, inputs=inputs,
                 tracer=recorder)
    return BackwardTrace(graph, recorder.frames, saved=saved, frees_saved=not retain_graph,
                         tasks=recorder.tasks)


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

    def __init__(self, graph, frames, saved=None, frees_saved=True, engine=None, tasks=None):
        self.graph = graph
        self.frames = frames
        self.tasks = tasks or []          # GraphTaskInfo: the traced backward, and backwards run inside it
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
        """The nodes in the order the engine ran them, e.g. ``["n0 SumBackward0", ...]``: those of nested
        graph tasks included, pruned ones and those whose gradient autograd.grad captured left out."""
        return [self._names[frame.node_id] for frame in self.frames[1:]
                if frame.node_id is not None and not frame.returned and not frame.captured]

    def outline(self):
        """Each step's title on a line, indented by its reentrant depth: a nested graph task stands out."""
        return "\n".join("    " * frame.depth + step_title(frame, self._names) for frame in self.frames)

    def frame(self, index):
        """Step ``index`` (0 is the start) as a picture with its table."""
        frame = self.frames[index]
        return FramePicture(to_dot(self.graph, overlay(self.graph, frame, self.tasks)),
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
    if frame.node_id is None and frame.task > 1:
        return _("step {step}: graph task {task} starts (dependencies counted, its root in its ready queue)"
                 ).format(step=frame.step, task=frame.task)
    if frame.node_id is None:
        return _("step 0: start (dependencies counted, the root is in the ready queue)")
    node = names[frame.node_id]
    if frame.captured:
        return _("step {step}: {node} does not run: autograd.grad captures its gradient").format(
            step=frame.step, node=node)
    if frame.returned:
        return _("step {step}: {node} returns, and graph task {task} goes on").format(
            step=frame.step, node=node, task=frame.task)
    if frame.task > 1:
        return _("step {step}: {node} runs (graph task {task})").format(step=frame.step, node=node,
                                                                       task=frame.task)
    return _("step {step}: {node} runs").format(step=frame.step, node=node)


def frame_rows(frame, names):
    """What happened in the step, and the state it left, as (heading, lines) pairs."""
    rows = []
    if frame.task > 1 or frame.paused:
        rows.append((_("graph task"), _task_lines(frame, names)))
    if frame.node_id is None:
        rows.append((_("seed gradient"), frame.received))
    else:
        rows.append((_("received"), frame.received))
        rows.append((_("sent"), sent_lines(frame)))
    if frame.writes:
        rows.append((_("wrote"), frame.writes))
    if frame.pruned:
        rows.append((_("pruned"), [_("not on a path to the inputs asked for: they will not run"),
                                   *(names[node_id] for node_id in frame.pruned)]))
    if frame.ready is None:            # another engine's trace: its queue was not recorded
        return rows
    ready = [names[node_id] for node_id in frame.ready]
    if not ready and frame.started is not None:
        ready = [_("empty for now: {node} is still running").format(node=names[frame.node_id])]
    elif not ready and frame.task > 1:
        ready = [_("empty: graph task {task} is over").format(task=frame.task)]
    rows.append((_("ready queue"), ready or [_("empty: backward is over")]))
    waiting = [_waiting_line(names, *item) for item in frame.waiting[:MAX_WAITING_LINES]]
    if len(frame.waiting) > MAX_WAITING_LINES:
        waiting.append(_("... and {count} more nodes").format(count=len(frame.waiting) - MAX_WAITING_LINES))
    rows.append((_("waiting"), waiting or [_("nothing")]))
    return rows


def sent_lines(frame):
    """What the step's node sent on, in words."""
    if frame.started is not None:
        return [_("nothing yet: its backward runs graph task {task} first").format(task=frame.started)]
    if frame.captured:
        return [_("nothing: the gradient it received is what autograd.grad returns")]
    return [_sent_line(target, grad) for target, grad in frame.sent] or [_("nothing")]


def _task_lines(frame, names):
    """Which graph task the step is in, how deep, and the outer ones waiting for it."""
    lines = [_("graph task {task}, reentrant depth {depth}").format(task=frame.task, depth=frame.depth)]
    lines += [_("graph task {task} waits in {node}").format(task=paused.task, node=names[paused.node_id])
              for paused in reversed(frame.paused)]
    return lines


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
def overlay(graph, frame, tasks=()):
    """Each node's state in this frame, and the clusters of nested graph tasks, for ``dot.to_dot``."""
    states = {}
    not_run = _("not reached") if frame.waiting is not None else _("not run yet")
    for node in graph.nodes:
        states[node.id] = ("waiting", not_run)
    # The outer graph tasks first, as they wait; then the graph task of this step.
    for paused in frame.paused:
        _queue_states(states, paused.ready, paused.waiting)
    _queue_states(states, frame.ready, frame.waiting)
    captured = {node_id for task in tasks for node_id in task.captured}
    for node_id in frame.done:
        states[node_id] = ("done", _("captured, not run") if node_id in captured else _("done"))
    inner_tasks = [paused.task for paused in frame.paused[1:]] + [frame.task]
    for paused, inner in zip(frame.paused, inner_tasks, strict=False):   # the last inner one: this task
        states[paused.node_id] = ("nested", _("waits for graph task {task}").format(task=inner))
    if frame.node_id is not None:
        states[frame.node_id] = ("running", _("returns now") if frame.returned else _("runs now"))
    clusters = []
    names = {node.id: f"{node.id} {node.name}" for node in graph.nodes}
    for task in tasks:
        shown = frame.step >= task.start
        for node_id in task.pruned:
            states[node_id] = ("pruned", _("pruned"))
        if task.number > 1:
            caption = _("graph task {task}, inside {node} (reentrant depth {depth})").format(
                task=task.number, node=names[task.parent], depth=task.depth)
            clusters.append((task.number, tidy(caption), task.nodes, shown))
        if not shown:               # laid out with the words it will have, so the layout stays put
            for node_id in task.nodes:
                states[node_id] = ("hidden", not_run)
    leaf_states = {node.id: (_(".grad written") if node.id in frame.done else _(".grad not written yet"))
                   for node in graph.nodes if node.leaf is not None}
    return {"states": states, "leaf_states": leaf_states, "edges": set(frame.edges), "clusters": clusters}


def _queue_states(states, ready, waiting):
    for node_id, count, _grads in waiting or ():
        states[node_id] = ("waiting", _("waits for {count} more").format(count=count))
    for position, node_id in enumerate(ready or (), start=1):
        states[node_id] = ("ready", _("ready, {number}{ordinal_suffix} in queue").format(
            number=position, ordinal_suffix=ordinal_suffix(position)))
