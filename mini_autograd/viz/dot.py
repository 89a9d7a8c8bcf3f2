"""Turn a graph description (``walk.py``) into graphviz DOT source.

Counterpart: torchviz's ``make_dot`` (torchviz/dot.py), whose colours are kept
so a reader who moves on to torchviz feels at home: leaf tensors light blue,
outputs green, saved tensors orange, backward nodes grey. Two differences:

- Arrows point the way gradients flow in ``backward()`` (output -> ... ->
  leaves); torchviz draws them the way the forward pass went. A legend says so.
- Tensors that ``retain_grad()`` are drawn too (yellow), beside the node whose
  incoming gradient is copied into their ``.grad``.

DOT node names are the stable ids of the walk (``n3``, ``leaf_n4``, ...), so the
same graph always gives byte-identical DOT source.

``draw_double_backward(y, x)`` draws what ``create_graph=True`` records: the graph of ``y`` and the graph
of its gradient, in two clusters (graphviz subgraphs) with a caption each.

The words (legend, states, "saved for backward", the clusters' captions) are in the edition's language
(``i18n.py``); in Chinese the fonts asked for add CJK families after the Latin ones.
"""
import html

import graphviz

from .i18n import N_, _, language, tidy
from .picture import GraphPicture
from .walk import (described_items, describe, fit, is_tensor, node_name, number_nodes, root_node,
                   tensor_names, walk)

FONT = "Helvetica,Arial,sans-serif"
# Chinese words: the Latin fonts first (names and numbers look the same in both editions), then fonts
# with Chinese characters on macOS, Windows and Linux; graphviz and the browser take the first with a glyph.
CJK_FONT = "Helvetica,Arial,PingFang SC,Microsoft YaHei,Noto Sans CJK SC,WenQuanYi Micro Hei,sans-serif"
MONO = "DejaVu Sans Mono,Menlo,Consolas,monospace"

COLORS = {
    "output": "darkolivegreen1",   # torchviz: outputs
    "leaf": "lightblue",           # torchviz: leaf tensors that require grad
    "saved": "orange",             # torchviz: saved tensors
    "retained": "#fff59d",         # tensors that retain_grad(): a soft yellow
    "function": "lightgrey",       # torchviz: backward nodes
    "accumulate": "#bdbdbd",       # AccumulateGrad: a darker grey
    "freed": "#ffe0b2",            # a saved tensor after backward freed it
}
LEGEND_NAMES = {
    "output": N_("output"), "function": N_("grad_fn node"), "accumulate": "AccumulateGrad",
    "leaf": N_("leaf tensor"), "retained": N_("retains grad"), "saved": N_("saved tensor"),
}
ARROW_NOTE = N_("\u2192 arrows: the direction gradients flow in backward()")

# How each state of a node looks in a frame of the engine trace.
FRAME_STYLES = {
    "running": dict(color="#c62828", penwidth="3", fillcolor="#ffcdd2"),
    "ready": dict(color="#1565c0", penwidth="2.5", style="rounded,filled,dashed"),
    "waiting": dict(),
    "done": dict(color="#bdbdbd", fontcolor="#9e9e9e", fillcolor="#f5f5f5"),
    # backward(inputs=...): a node the engine will not run (graph_task.exec_info)
    "pruned": dict(color="#9e9e9e", fontcolor="#9e9e9e", fillcolor="#ffffff", style="rounded,filled,dashed"),
    # a node whose backward runs a nested (reentrant) graph task, and waits for it to end
    "nested": dict(color="#c62828", penwidth="3", fillcolor="#fff3e0", style="rounded,filled,dashed"),
    # a node of a nested graph task not started yet: laid out, not drawn, so the layout stays put
    "hidden": dict(style="invis"),
}
STATE_KEYS = [(N_("runs now"), FRAME_STYLES["running"]), (N_("ready"), dict(color="#1565c0")),
              (N_("waiting"), {}), (N_("done"), FRAME_STYLES["done"])]
# Shown in a trace's legend only when some frame of it has them.
EXTRA_STATE_KEYS = {"nested": N_("waits for a nested graph task"), "pruned": N_("pruned")}
PRUNED_NOTE = N_("pruned (grey, dashed): not on a path to the inputs asked for")
# Not filled: the player lays the same picture, transparent but for its boxes' outlines, over the shown one
# (player.py), where a filled box would hide the nodes inside it.
CLUSTER_STYLE = dict(style="rounded,filled,dashed", fillcolor="transparent", color="#8e24aa", penwidth="1.5",
                     margin="10", labeljust="l", labelloc="t", fontsize="11")


def new_digraph():
    """An empty graph with the course's look: top to bottom, small sans-serif text."""
    font = CJK_FONT if language() == "zh" else FONT
    return graphviz.Digraph(
        "backward_graph",
        graph_attr=dict(rankdir="TB", fontname=font, fontsize="10", nodesep="0.3",
                        ranksep="0.35", bgcolor="white", pad="0.15"),
        node_attr=dict(shape="box", style="rounded,filled", fontname=font, fontsize="11",
                       height="0.3", margin="0.12,0.05", color="#555555", penwidth="1"),
        edge_attr=dict(color="#555555", arrowsize="0.7", penwidth="1.1"),
    )


def draw(outputs, params=None, show_saved=False, show_values=True, names=None, max_nodes=200):
    """A picture of the backward graph behind ``outputs`` (one tensor or several).

    params: names for leaf tensors, as a dict ``{name: tensor}``, ``(name, tensor)``
        pairs such as ``model.named_parameters()``, or a module (as in torchviz).
    show_saved: also draw what each node saved for backward (orange), marked once
        a backward has freed it.
    show_values: print the values (and ``.grad``) of tensors with at most 9 elements.
    names: names for any other tensor: outputs, tensors that retain grad, saved ones.
    max_nodes: above this many nodes, long chains of one operation become one box
        ("MulBackward0 \u00d74998") and what is still too much is left out, so that even
        a graph of thousands of nodes draws in a moment.

    Returns a ``GraphPicture``: Jupyter shows the picture, ``print`` the graph in words.
    """
    graph = fit(walk(outputs, params, names, show_saved, show_values), max_nodes)
    alt = tidy(_("backward graph of {title}").format(title=graph.title))
    return GraphPicture(to_dot(graph), describe(graph), alt)


# --------------------------------------------------------------- labels
def _text(value):
    """Escape for an HTML-like label; keep leading spaces (used to align rows of values)."""
    escaped = html.escape(value, quote=False)
    stripped = escaped.lstrip(" ")
    return "&#160;" * (len(escaped) - len(stripped)) + stripped


def _values_rows(values):
    """Rows of printed values in a monospace font, left aligned."""
    lines = "".join(f'{_text(line)}<BR ALIGN="LEFT"/>' for line in values.splitlines())
    return f'<FONT FACE="{MONO}" POINT-SIZE="9">{lines}</FONT>'


def _table(rows):
    cells = "".join(f'<TR><TD ALIGN="LEFT" BALIGN="LEFT">{row}</TD></TR>' for row in rows)
    return f'<<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="1">{cells}</TABLE>>'


def _small(text, color="#555555"):
    return f'<FONT POINT-SIZE="9" COLOR="{color}">{_text(text)}</FONT>'


def tensor_label(box, status=None):
    """Name and shape; then its values and its .grad, when known; then a trace status."""
    rows = [f"<B>{_text(box.label)}</B> {_small(box.shape)}"]
    if box.value is not None:
        rows.append(_values_rows(box.value))
    if box.grad is not None:
        rows.append(_small(_("grad")))
        rows.append(_values_rows(box.grad))
    if status is not None:
        rows.append(_small(status))
    return _table(rows)


def saved_label(boxes):
    """One box listing what a node saved for backward, one slot after the other."""
    rows = [_small(_("saved for backward"), "#5d4037")]
    for box in boxes:
        if box.freed:
            rows.append(f"<B>{_text(box.label)}</B> {_small(_('freed'))}")
            continue
        rows.append(f"<B>{_text(box.label)}</B> {_small(box.shape)}")
        if box.value is not None:
            rows.append(_values_rows(box.value))
    return _table(rows)


def node_label(node, status=None):
    """``MulBackward0`` and its id; a collapsed chain says which ids it spans."""
    ids = node.id if node.count == 1 else f"{node.id} \u2026 {node.last_id}"
    rows = [f"<B>{_text(node.title)}</B> {_small(ids, '#757575')}"]
    if status is not None:
        rows.append(_small(status))
    return _table(rows)


def _swatch(text, fill, border="#777777", text_color="#222222"):
    return f'<TD BGCOLOR="{fill}" BORDER="1" COLOR="{border}">{_small(text, text_color)}</TD>'


def legend_label(kinds, notes, with_states=False, extra_states=()):
    """A small key: which way arrows point, the colours used, and (in a trace) the node states."""
    rows = [[_swatch(_(LEGEND_NAMES[kind]), COLORS[kind]) for kind in kinds]]
    if with_states:
        keys = STATE_KEYS + [(EXTRA_STATE_KEYS[state], FRAME_STYLES[state]) for state in extra_states]
        rows.append([_swatch(_(text), style.get("fillcolor", COLORS["function"]),
                             style.get("color", "#555555"), style.get("fontcolor", "#222222"))
                     for text, style in keys])
    width = max(len(row) for row in rows)
    lines = [_(ARROW_NOTE), *notes]
    cells = [f'<TR><TD COLSPAN="{width}" ALIGN="LEFT">{_small(line, "#333333")}</TD></TR>' for line in lines]
    cells += [f"<TR>{''.join(row)}</TR>" for row in rows]
    return f'<<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="3" CELLPADDING="2">{"".join(cells)}</TABLE>>'


# ----------------------------------------------------------------- graph
def to_dot(graph, frame=None):
    """The DOT picture of ``graph``; with ``frame`` (a trace step), node states are drawn too.

    ``frame`` is a mapping ``{"states": {id: (state, text)}, "leaf_states": {id: text},
    "edges": {(id, index), ...}}`` as made by ``trace.py``.
    """
    dot = new_digraph()
    states = frame["states"] if frame else {}
    kinds_used = ["output"] if graph.outputs else []
    if frame:
        dot.node_attr.update(width="1.9")     # same sizes in every frame: the layout stays put

    for index, (box, root) in enumerate(graph.outputs):
        name = f"out{index}"
        _add_tensor(dot, name, tensor_label(box), COLORS["output"])
        if root is not None:
            dot.edge(name, root)

    clusters = frame.get("clusters", []) if frame else []
    in_cluster = {node_id for _task, _caption, ids, _shown in clusters for node_id in ids}
    for node in graph.nodes:
        if node.id not in in_cluster:
            _add_node(dot, node, states.get(node.id), frame, kinds_used)
    by_id = {node.id: node for node in graph.nodes}
    for task, caption, ids, shown in clusters:       # a nested graph task's own nodes, in a box of their own
        font = CJK_FONT if language() == "zh" else FONT
        with dot.subgraph(name=f"cluster_task{task}") as sub:
            sub.attr(label=f"<<B>{_text(caption)}</B>>", fontname=font, **CLUSTER_STYLE)
            if not shown:
                sub.attr(style="invis")
            for node_id in ids:
                _add_node(sub, by_id[node_id], states.get(node_id), frame, kinds_used, edges=dot)

    if graph.hidden:
        more = _small(_("\u2026 {count} more nodes not drawn").format(count=graph.hidden))
        dot.node("more", f"<{more}>", shape="plaintext", style="")
    notes = []
    if graph.collapsed:
        notes.append(_("NAME \u00d7N: a chain of N nodes of the same operation, drawn as one box"))
    used = {state for state, _text in states.values()}
    extra_states = [state for state in EXTRA_STATE_KEYS if state in used]
    if "pruned" in used:
        notes.append(_(PRUNED_NOTE))
    legend_kinds = [kind for kind in LEGEND_NAMES if kind in kinds_used]
    dot.node("legend", legend_label(legend_kinds, notes, with_states=bool(frame), extra_states=extra_states),
             shape="plaintext", style="", width="0")
    return dot


def _add_node(dot, node, state, frame, kinds_used, edges=None):
    """A backward node (rounded box), its edges, and the tensors drawn with it.

    ``edges``: where its edges to other nodes go, when ``dot`` is a cluster: the whole graph, so that an
    edge into a node outside does not pull that node into the cluster (graphviz puts a node in every
    subgraph that names it)."""
    edges = dot if edges is None else edges
    hidden = state is not None and state[0] == "hidden"
    kind = "accumulate" if node.leaf is not None else "function"
    if not hidden:
        _note_kind(kinds_used, kind)
    attrs = dict(fillcolor=COLORS[kind])
    if node.count > 1:
        attrs["peripheries"] = "2"            # a collapsed chain: a box with a double border
    if state is not None:
        attrs.update(FRAME_STYLES[state[0]])
    dot.node(node.id, node_label(node, state[1] if state else None), **attrs)

    sent = frame["edges"] if frame else set()
    invisible = dict(style="invis") if hidden else {}
    for index, edge in enumerate(node.edges):
        if edge is None:
            continue                          # an input that needs no gradient: nothing to draw
        if (node.id, index) in sent:
            edges.edge(node.id, edge, color="#c62828", penwidth="2.5")
        else:
            edges.edge(node.id, edge, **invisible)

    if node.leaf is not None:
        if not hidden:
            _note_kind(kinds_used, "leaf")
        status = frame["leaf_states"].get(node.id) if frame else None
        _add_tensor(dot, f"leaf_{node.id}", tensor_label(node.leaf, status), COLORS["leaf"], **invisible)
        dot.edge(node.id, f"leaf_{node.id}", **invisible)  # AccumulateGrad writes the leaf's .grad
    _add_beside(dot, node, kinds_used)


def _add_tensor(dot, name, label, fill, **attrs):
    """Tensors are square boxes; backward nodes are rounded."""
    dot.node(name, label, style=attrs.pop("style", "filled"), fillcolor=fill, **attrs)


def _add_beside(dot, node, kinds_used):
    """Tensors that retain grad (yellow) and what the node saved (orange), on the node's row."""
    beside = []
    for index, box in enumerate(node.retained):
        _note_kind(kinds_used, "retained")
        name = f"retained_{node.id}_{index}"
        _add_tensor(dot, name, tensor_label(box), COLORS["retained"])
        dot.edge(node.id, name, style="dashed")   # the node's incoming gradient is copied to .grad
        beside.append(name)

    if node.saved:
        _note_kind(kinds_used, "saved")
        name = f"saved_{node.id}"
        freed = all(box.freed for box in node.saved)
        _add_tensor(dot, name, saved_label(node.saved), COLORS["freed"] if freed else COLORS["saved"],
                    style="filled,dashed" if freed else "filled", fontsize="10")
        dot.edge(node.id, name, style="dashed", dir="none", color="#ef6c00")
        beside.append(name)

    if beside:
        with dot.subgraph() as row:
            row.attr(rank="same")
            for name in [node.id, *beside]:
                row.node(name)


def _note_kind(kinds_used, kind):
    if kind not in kinds_used:
        kinds_used.append(kind)


# ------------------------------------------------------- double backward
CLUSTERS = {
    "first": (N_("first-order graph: recorded by the forward pass"), "#78909c", "#f5f7f8"),
    "gradient": (N_("graph of the gradient: recorded by backward with create_graph=True"), "#ef6c00",
                 "#fff3e0"),
}
REUSE_COLOR = "#ef6c00"


class DoubleBackwardPicture(GraphPicture):
    """``draw_double_backward``'s picture, with what it shows as data.

    ``gradients``: the gradients ``autograd.grad(..., create_graph=True)`` returned (they have a graph);
    ``first_order``: the node names of ``y``'s graph, breadth first from ``y``;
    ``gradient_nodes``: the node names of the gradient's graph, breadth first from its ``grad_fn``, as
    PyTorch names them: the new nodes, then the nodes of ``y``'s graph it reaches;
    ``clusters``: ``{"first": [node ids], "gradient": [node ids]}``, where each drawn node is.
    """

    def __init__(self, digraph, text, alt, gradients, first_order, gradient_nodes, clusters):
        super().__init__(digraph, text, alt)
        self.gradients = gradients
        self.first_order = first_order
        self.gradient_nodes = gradient_nodes
        self.clusters = clusters


def draw_double_backward(y, x, params=None, names=None, show_values=True):
    """What ``create_graph=True`` records: the graph of ``y`` and, beside it, the graph of ``dy/dx``.

    Runs ``autograd.grad(y, x, create_graph=True)`` (with ``grad_outputs`` of ones when ``y`` is not a
    scalar) and draws two clusters: the first-order graph, recorded by the forward pass, and the nodes the
    backward pass recorded (``TanhBackwardBackward0``, ``MulBackward0``, ... as PyTorch names them). The
    gradient's graph reaches back into the first-order graph (a saved ``tanh`` result is the output of
    ``TanhBackward0``): those nodes are drawn once, in the first cluster, and the arrows into them are
    orange. ``x`` is a tensor or a sequence of tensors; ``params`` and ``names`` name tensors as in
    ``draw``. An unnamed gradient is called ``dy/dx`` when ``y`` and ``x`` are named.

    Returns a ``DoubleBackwardPicture``: Jupyter shows the picture, ``print`` the two graphs in words.
    """
    from .. import autograd
    from ..creation import ones_like
    if not is_tensor(y):
        raise TypeError(f"draw_double_backward() takes a tensor y, not {type(y).__name__}")
    inputs = [x] if is_tensor(x) else list(x)
    grad_outputs = None if y.dim() == 0 else ones_like(y)
    gradients = autograd.grad(y, inputs, grad_outputs=grad_outputs, create_graph=True, allow_unused=True)
    gradients = [g for g in gradients if g is not None]

    given = dict(names.items() if isinstance(names, dict) else (names or ()))
    labels = tensor_names(params, given)
    if id(y) not in labels:
        given["y"] = y
    y_label = labels.get(id(y), "y")
    for index, (inp, grad) in enumerate(zip(inputs, gradients, strict=False)):
        if id(grad) in labels:
            continue
        if id(inp) in labels:
            given[f"d{y_label}/d{labels[id(inp)]}"] = grad
        else:
            label = _("gradient") if len(gradients) == 1 else _("gradient {index}").format(index=index)
            given[label] = grad
    graph = walk([y, *gradients], params, given, show_saved=False, show_values=show_values)

    y_nodes = number_nodes([root_node(y)])
    first_ids = {graph.ids[node] for node in y_nodes}
    clusters = {"first": [n.id for n in graph.nodes if n.id in first_ids],
                "gradient": [n.id for n in graph.nodes if n.id not in first_ids]}
    first_order = [node_name(node) for node in y_nodes]
    gradient_nodes = [node_name(node) for g in gradients for node in number_nodes([root_node(g)])]

    gradient_titles = ", ".join(box.label for box, _root in graph.outputs[1:])
    alt = tidy(_("graph of {gradient}, recorded by create_graph=True, beside the graph of {output}").format(
        gradient=gradient_titles, output=graph.outputs[0][0].label))
    return DoubleBackwardPicture(double_dot(graph, clusters), double_text(graph, clusters, alt), alt,
                                 gradients, first_order, gradient_nodes, clusters)


def double_dot(graph, clusters):
    """The DOT picture: each cluster's outputs, nodes and leaves declared inside it, then every edge."""
    dot = new_digraph()
    dot.graph_attr.update(newrank="true", nodesep="0.4")
    kinds_used = ["output"]
    by_id = {node.id: node for node in graph.nodes}
    in_first = set(clusters["first"])
    font = CJK_FONT if language() == "zh" else FONT
    for key, ids in clusters.items():
        caption, border, fill = CLUSTERS[key]
        with dot.subgraph(name=f"cluster_{key}") as sub:
            sub.attr(label=f"<<B>{_text(_(caption))}</B>>", labeljust="l", labelloc="t", fontname=font,
                     fontsize="11", style="rounded,filled", color=border, fillcolor=fill, penwidth="1.5",
                     margin="12")
            outputs = [0] if key == "first" else range(1, len(graph.outputs))
            for index in outputs:
                _add_tensor(sub, f"out{index}", tensor_label(graph.outputs[index][0]), COLORS["output"])
            for node_id in ids:
                node = by_id[node_id]
                kind = "accumulate" if node.leaf is not None else "function"
                _note_kind(kinds_used, kind)
                sub.node(node.id, node_label(node), fillcolor=COLORS[kind])
                if node.leaf is not None:
                    _note_kind(kinds_used, "leaf")
                    _add_tensor(sub, f"leaf_{node.id}", tensor_label(node.leaf), COLORS["leaf"])
    for index, (_box, root) in enumerate(graph.outputs):
        if root is not None:
            dot.edge(f"out{index}", root)
    for node in graph.nodes:
        reaches_back = node.id not in in_first
        for edge in node.edges:
            if edge is None:
                continue
            if reaches_back and edge in in_first:
                dot.edge(node.id, edge, color=REUSE_COLOR, penwidth="1.6")
            else:
                dot.edge(node.id, edge)
        if node.leaf is not None:
            dot.edge(node.id, f"leaf_{node.id}")
    notes = [_("orange arrows: the graph of the gradient reaches back into the first-order graph")]
    legend_kinds = [kind for kind in LEGEND_NAMES if kind in kinds_used]
    dot.node("legend", legend_label(legend_kinds, notes), shape="plaintext", style="", width="0")
    return dot


def double_text(graph, clusters, title):
    """The two graphs in words: each cluster's caption, then its outputs and nodes."""
    items = described_items(graph)
    lines = [title, "  " + _("(arrows point the way gradients flow in backward())")]
    for key, ids in clusters.items():
        lines.append("  " + _(CLUSTERS[key][0]))
        outputs = [0] if key == "first" else range(1, len(graph.outputs))
        keys = [("output", index) for index in outputs] + list(ids)
        lines += ["    " + line for item in keys for line in items[item]]
    return "\n".join(lines)
