"""Walk a backward graph into a plain description: numbered nodes, their edges, the tensors.

The picture (``dot.py``) and the words (``describe``) are both made from this
description, so they always agree. Nodes are numbered ``n0, n1, ...`` in
breadth-first order from the outputs along ``next_functions``: the same graph
gets the same numbers in every run and every process (``id()`` would not).

The walk is a loop over a queue, not a recursion, so a chain of thousands of
operations is walked like any other graph.

It asks little of the graph: a tensor has ``grad_fn``, ``requires_grad`` and
``_data``; a node has ``name()`` and ``next_functions``; a leaf's node has
``variable``. So it draws graphs of other engines built the same way too, such
as the ``myautograd`` a learner writes in the course.
"""
from collections import Counter, deque
from dataclasses import dataclass, field

import numpy as np

from .._printing import _tensor_str
from .i18n import N_, _, tidy

SMALL = 9  # tensors with at most this many elements show their values
# How a named tensor is introduced in the graph in words: "leaf x", "output loss".
HEADINGS = {"output": N_("output {name}"), "leaf": N_("leaf {name}"), "retained": N_("retains grad {name}"),
            "saved": N_("saved {name}")}


@dataclass
class TensorBox:
    """One tensor in the picture: an output, a leaf, a tensor that retains grad, or a saved one."""

    kind: str                 # "output", "leaf", "retained" or "saved"
    label: str                # "x" (a name given by the caller), or "leaf 0" when unnamed
    named: bool               # whether the label is a name given by the caller
    shape: str                # "[2, 2]" or "scalar"; "" once a saved tensor is freed
    value: str | None = None  # the values, printed as PyTorch prints them, when small
    grad: str | None = None   # its .grad, when it has one
    freed: bool = False       # a saved tensor released by a backward without retain_graph

    @property
    def heading(self):
        """``leaf x`` for a named leaf; ``leaf 0`` (its label) for an unnamed one."""
        return _(HEADINGS[self.kind]).format(name=self.label) if self.named else self.label

    def describe(self):
        """One line, e.g. ``leaf x [2, 2] = [[1., 1.], [1., 1.]], grad = [[4.5000, ...]]``."""
        if self.freed:
            return _("{heading} (freed)").format(heading=self.heading)
        text = f"{self.heading} {self.shape}"
        if self.value is not None:
            text += f" = {one_line(self.value)}"
        if self.grad is not None:
            text += f", grad = {one_line(self.grad)}"
        return text


@dataclass
class NodeBox:
    """One node of the backward graph (a ``grad_fn`` or an ``AccumulateGrad``)."""

    id: str                   # "n3": its place in the breadth-first walk
    name: str                 # "MulBackward0", as PyTorch names it
    edges: list               # the id at the end of each next_functions entry; None: no gradient
    saved: list = field(default_factory=list)     # TensorBox per saved slot (with show_saved)
    leaf: TensorBox | None = None                  # for AccumulateGrad: the leaf it writes
    retained: list = field(default_factory=list)   # tensors made here that retain_grad()
    count: int = 1            # more than 1: a chain of this many nodes, drawn as one box
    last_id: str | None = None  # for a chain: the id of its last node

    @property
    def title(self):
        """``MulBackward0``, or ``MulBackward0 ×4998`` for a collapsed chain."""
        return self.name if self.count == 1 else f"{self.name} \u00d7{self.count}"


@dataclass
class GraphDescription:
    """Everything a picture of the graph shows, in a fixed order."""

    title: str                # "out", or "out, loss" for several outputs
    outputs: list             # (TensorBox, id of its grad_fn node or None)
    nodes: list               # NodeBox, in id order
    total_nodes: int          # nodes in the whole graph (before collapsing or cutting)
    hidden: int = 0           # nodes left out of the picture (beyond max_nodes)
    collapsed: bool = False   # whether long chains were drawn as one box
    ids: dict = field(default_factory=dict, repr=False)  # engine Node -> id (for the trace)

    @property
    def leaf_count(self):
        return sum(node.leaf is not None for node in self.nodes)


# ---------------------------------------------------------------------- naming
def tensor_names(params=None, names=None):
    """Map each named tensor to its name, from ``params`` and ``names``.

    Both take a dict ``{name: tensor}``, an iterable of ``(name, tensor)`` pairs
    (such as ``model.named_parameters()``) or a module. The map is keyed by
    ``id(tensor)``, used only to look tensors up, never printed.
    """
    found = {}
    for source in (params, names):
        if source is None:
            continue
        if hasattr(source, "named_parameters"):
            source = source.named_parameters()
        pairs = source.items() if isinstance(source, dict) else source
        for name, tensor in pairs:
            if not is_tensor(tensor):
                raise TypeError(f"the tensor named {name!r} is a {type(tensor).__name__}, not a Tensor")
            found[id(tensor)] = str(name)
    return found


def is_tensor(value):
    """A tensor of mini_autograd, or of an engine built like it: it has a grad_fn and numbers."""
    return hasattr(value, "grad_fn") and hasattr(value, "_data")


# --------------------------------------------------------------------- values
def shape_text(shape):
    """``[2, 2]`` for a matrix, ``scalar`` for a 0-d tensor."""
    return _("scalar") if len(shape) == 0 else str(list(shape))


def values_text(array):
    """The values as PyTorch prints them (4 decimals), or None when there are too many."""
    if array is None or array.size > SMALL:
        return None
    return _tensor_str(array, 0, np.issubdtype(array.dtype, np.floating))


def one_line(text):
    """Printed values on one line: ``[[1., 1.], [1., 1.]]``."""
    return " ".join(line.strip() for line in text.splitlines())


def summary_text(array, show_values):
    """The values when small (and wanted), else ``tensor of shape [100, 3]``."""
    return (show_values and values_text(array)) or _("tensor of shape {shape}").format(
        shape=shape_text(array.shape))


def tensor_box(kind, tensor, labels, default, show_values):
    """The box for ``tensor``: named from ``labels`` if the caller named it, else ``default``."""
    named = id(tensor) in labels
    box = TensorBox(kind, labels[id(tensor)] if named else default, named,
                    shape_text(tensor._data.shape))
    if show_values:
        box.value = values_text(tensor._data)
    grad = getattr(tensor, "_grad", None)   # the slot itself: the .grad property warns for non-leaves
    if grad is not None:
        box.grad = summary_text(grad._data, show_values)
    return box


def saved_boxes(node, labels, show_values):
    """A TensorBox per tensor the node saved for backward, named as PyTorch names it (``self``...)."""
    names = getattr(getattr(node, "_forward_cls", None), "saved_names", ())
    boxes = []
    for index, saved in enumerate(getattr(node, "_saved", ())):
        if saved is None:
            continue
        slot = names[index] if index < len(names) else f"saved[{index}]"
        if saved.tensor is not None and id(saved.tensor) in labels:
            slot = f"{slot} = {labels[id(saved.tensor)]}"
        if saved.freed:
            boxes.append(TensorBox("saved", slot, True, "", freed=True))
        else:
            boxes.append(TensorBox("saved", slot, True, shape_text(saved.data.shape),
                                   values_text(saved.data) if show_values else None))
    return boxes


# ----------------------------------------------------------------------- walk
def number_nodes(roots):
    """Breadth-first walk along next_functions: ``{node: "n0", ...}`` in visiting order.

    The recursion it replaces, which would stop at Python's recursion limit (1000 deep)::

        def visit(node):
            for next_node, _input_nr in node.next_functions:
                if next_node is not None and next_node not in ids:
                    ids[next_node] = f"n{len(ids)}"
                    visit(next_node)

    The queue also numbers the nodes level by level from the output, which reads better in
    a picture than the depth-first order of the recursion.
    """
    ids = {}
    queue = deque()
    for root in roots:
        if root is not None and root not in ids:
            ids[root] = f"n{len(ids)}"
            queue.append(root)
    while queue:
        node = queue.popleft()
        for next_node, _input_nr in node.next_functions:
            if next_node is not None and next_node not in ids:
                ids[next_node] = f"n{len(ids)}"
                queue.append(next_node)
    return ids


def node_name(node):
    """``MulBackward0``; ``AccumulateGrad`` without its ``torch::autograd::`` prefix."""
    return node.name().rsplit("::", 1)[-1]


def root_node(tensor):
    """The node a gradient for ``tensor`` enters first; None if it needs no gradient."""
    if tensor.grad_fn is not None:
        return tensor.grad_fn
    if tensor.requires_grad and hasattr(tensor, "_get_grad_accumulator"):
        return tensor._get_grad_accumulator()
    return None


def walk(outputs, params=None, names=None, show_saved=False, show_values=True):
    """Describe the backward graph behind ``outputs`` (a tensor or a sequence of tensors)."""
    outputs = [outputs] if is_tensor(outputs) else list(outputs)
    for output in outputs:
        if not is_tensor(output):
            raise TypeError(f"draw() takes tensors, not {type(output).__name__}")
    labels = tensor_names(params, names)
    roots = [root_node(output) for output in outputs]
    ids = number_nodes(roots)

    output_boxes = []
    for index, (output, root) in enumerate(zip(outputs, roots, strict=True)):
        default = _("output") if len(outputs) == 1 else _("output {index}").format(index=index)
        output_boxes.append((tensor_box("output", output, labels, default, show_values), ids.get(root)))

    leaf_number = 0
    nodes = []
    for node, node_id in ids.items():
        box = NodeBox(node_id, node_name(node),
                      [None if next_node is None else ids[next_node]
                       for next_node, _input_nr in node.next_functions])
        if hasattr(node, "variable"):                       # an AccumulateGrad: its leaf
            default = _("leaf {number}").format(number=leaf_number)
            box.leaf = tensor_box("leaf", node.variable, labels, default, show_values)
            leaf_number += 1
        for _hook_id, hook in sorted((getattr(node, "_retains_grad_hooks", None) or {}).items()):
            tensor = hook.tensor_ref()
            if tensor is not None:
                box.retained.append(tensor_box("retained", tensor, labels, _("retains grad"), show_values))
        if show_saved:
            box.saved = saved_boxes(node, labels, show_values)
        nodes.append(box)

    title = ", ".join(box.label for box, _root in output_boxes)
    return GraphDescription(title, output_boxes, nodes, total_nodes=len(nodes), ids=ids)


# ------------------------------------------------------------ big graphs
def collapse_chains(graph, min_length=3):
    """Draw each long run of the same operation (``MulBackward0`` after ``MulBackward0``...) as one box.

    A run is a chain in which every node has a single gradient edge, to the next node, and
    every node after the first is reached by that edge only. Saved tensors inside a run are
    not drawn.
    """
    by_id = {node.id: node for node in graph.nodes}
    incoming = Counter(edge for node in graph.nodes for edge in node.edges if edge is not None)
    entered = {target for _box, target in graph.outputs}

    def next_in_run(node):
        real = [edge for edge in node.edges if edge is not None]
        if len(real) != 1:
            return None
        nxt = by_id[real[0]]
        if (nxt.name != node.name or incoming[nxt.id] != 1 or nxt.id in entered
                or nxt.retained or nxt.leaf is not None):
            return None
        return nxt

    kept, inside_run = [], set()
    for node in graph.nodes:
        if node.id in inside_run:
            continue
        run = [node]
        while (nxt := next_in_run(run[-1])) is not None:
            run.append(nxt)
        if len(run) < min_length:
            kept.append(node)
            continue
        inside_run.update(member.id for member in run[1:])
        kept.append(NodeBox(node.id, node.name, run[-1].edges, retained=node.retained,
                            count=len(run), last_id=run[-1].id))
        graph.collapsed = True
    graph.nodes = kept
    # An edge into a run's later node cannot exist (they have one incoming edge, from the run).
    return graph


def cut(graph, max_nodes):
    """Keep the first ``max_nodes`` nodes; edges to the rest go to one "more nodes" box."""
    if len(graph.nodes) <= max_nodes:
        return graph
    kept = graph.nodes[:max_nodes]
    kept_ids = {node.id for node in kept}
    hidden_count = sum(node.count for node in graph.nodes[max_nodes:])
    for node in kept:
        node.edges = [edge if edge is None or edge in kept_ids else "more" for edge in node.edges]
    graph.nodes = kept
    graph.hidden = hidden_count
    return graph


def fit(graph, max_nodes):
    """Make a big graph drawable: collapse long chains, then cut what is still too much."""
    if max_nodes is None or len(graph.nodes) <= max_nodes:
        return graph
    return cut(collapse_chains(graph), max_nodes)


# ------------------------------------------------------------------- words
def describe(graph):
    """The graph in words, one line per node in id order: what nbval checks in the notebooks."""
    leaves = graph.leaf_count
    count = graph.total_nodes
    nodes = (_("{count} node") if count == 1 else _("{count} nodes")).format(count=count)
    leaf_words = (_("{count} leaf") if leaves == 1 else _("{count} leaves")).format(count=leaves)
    header = tidy(_("backward graph of {title}: {nodes}, {leaves}").format(title=graph.title, nodes=nodes,
                                                                            leaves=leaf_words))
    lines = [header, "  " + _("(arrows point the way gradients flow in backward())")]
    for item_lines in described_items(graph).values():
        lines += ["  " + line for line in item_lines]
    if graph.collapsed:
        lines.append("  " + _("(chains of the same operation drawn as one box: NAME \u00d7count)"))
    if graph.hidden:
        lines.append("  " + _("... {count} more nodes not drawn (raise max_nodes to see them)").format(
            count=graph.hidden))
    return "\n".join(lines)


def described_items(graph):
    """``describe``'s lines, item by item: ``{("output", index): [line], node id: [lines], ...}``, outputs
    first, then the nodes in id order (a node's lines: tensors that retain grad, the node, what it saved)."""
    names = {node.id: f"{node.id} {node.name}" for node in graph.nodes}
    names["more"] = _("more nodes")

    def target(edge):
        return "None" if edge is None else names[edge]

    items = {}
    for index, (box, root) in enumerate(graph.outputs):
        arrow = f" -> {target(root)}" if root is not None else " " + _("(no grad_fn: nothing to backward)")
        items[("output", index)] = [f"{box.describe()}{arrow}"]
    for node in graph.nodes:
        lines = [f"{box.describe()} -> {names[node.id]}" for box in node.retained]
        name = node.title if node.count == 1 else f"{node.title} ({node.id}..{node.last_id})"
        if node.leaf is not None:
            lines.append(f"{node.id} {name} -> {node.leaf.describe()}")
        else:
            edges = ", ".join(target(edge) for edge in node.edges) or _("nothing")
            lines.append(f"{node.id} {name} -> {edges}")
        lines += [f"    {box.describe()}" for box in node.saved]
        items[node.id] = lines
    return items
