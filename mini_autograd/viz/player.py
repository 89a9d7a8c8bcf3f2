"""What Jupyter and the website show of a ``BackwardTrace``: a player of its steps.

One ``text/html`` block (``player_html``) that works in three places:

- Where no script runs (a notebook JupyterLab did not run itself, which it does not trust: every
  freshly cloned one; GitHub's notebook viewer), it is an animated GIF of the steps, which plays by
  itself: each frame is the graph with its states and, under it, the step's table (the frame as
  ``trace.frame(i).save("frame.png")`` draws it), made by graphviz as PNG and put together by Pillow.
- Where scripts run (the website; a cell the learner ran, whose outputs JupyterLab trusts), the script
  in the block replaces the GIF by a player: play, pause, step back, step forward, a slider, the step's
  table beside the graph, and a click on a node shows what it holds at that step (its state, its input
  buffer, what it received and sent, the ``.grad`` it wrote, what it saved for backward). The left and
  right arrow keys step when the player has the focus. Plain JavaScript, no request to anything.
- The words (buttons, captions, tables) are in the edition's language (``i18n.py``).

The frames reach the script as JSON in a ``<script type="application/json">``, each picture a
``data:image/svg+xml;base64,...`` URI: the form the course's nbval sanitize file masks (graphviz's bytes
vary with its version and the fonts), so a stored notebook is checked on the words and numbers only. The
shown frame is an ``<img>`` of that SVG; over it lies the same SVG, transparent, which takes the clicks.
Element ids carry the trace's own id (a digest of its words and a count), so two players share a page.
"""
import base64
import hashlib
import html
import io
import itertools
import json
import re
from collections import Counter

from .picture import render
from .i18n import _, language
from .walk import one_line

GIF_DPI = 96          # the animation's resolution: a few hundred kilobytes at most for chapter 08's trace
GIF_COLORS = 64       # one palette for all frames: the pictures' flat colours and their anti-aliased text
FRAME_MS = 1500       # each step of the animation, and of the player's play button
LAST_FRAME_MS = 4000  # the end, before the animation starts again
_counter = itertools.count()


# ------------------------------------------------------------------ the animated image
def frame_pngs(trace, dpi=GIF_DPI):
    """Each shown step drawn by graphviz as PNG: the graph and, under it, the step's table."""
    pngs = []
    for index in trace._shown():
        digraph = trace.frame(index).file_digraph().copy()
        digraph.graph_attr["dpi"] = str(dpi)
        pngs.append(render(digraph, "png"))
    return pngs


def animated_gif(trace, dpi=GIF_DPI):
    """The steps as an animated GIF (bytes), or None without Pillow. The same trace gives the same bytes."""
    try:
        from PIL import Image
    except ImportError:
        return None
    images = [Image.open(io.BytesIO(data)).convert("RGB") for data in frame_pngs(trace, dpi)]
    width = max(image.width for image in images)
    height = max(image.height for image in images)
    canvas = []
    for image in images:             # every frame the same size, the picture at the top left
        frame = Image.new("RGB", (width, height), "white")
        frame.paste(image, (0, 0))
        canvas.append(frame)
    strip = Image.new("RGB", (width, height * len(canvas)), "white")
    for index, frame in enumerate(canvas):
        strip.paste(frame, (0, index * height))
    palette = strip.quantize(colors=GIF_COLORS, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    colors = palette.getpalette()
    for k in range(0, len(colors), 3):     # the background stays white (Pillow maps white to a near one)
        if min(colors[k:k + 3]) >= 248:
            colors[k:k + 3] = [255, 255, 255]
    palette.putpalette(colors)
    frames = [frame.quantize(palette=palette, dither=Image.Dither.NONE) for frame in canvas]
    durations = [FRAME_MS] * (len(frames) - 1) + [LAST_FRAME_MS]
    out = io.BytesIO()
    frames[0].save(out, "GIF", save_all=True, append_images=frames[1:], duration=durations, loop=0,
                   optimize=True, disposal=1)
    return out.getvalue()


# ------------------------------------------------------------------ what a node holds
def node_rows(trace, index):
    """``{id: [(heading, lines)]}``: what each node holds at step ``index``, for a click on it."""
    from .trace import overlay, sent_lines

    frame = trace.frames[index]
    states = overlay(trace.graph, frame, trace.tasks)["states"]
    ran_at = {}
    for earlier in trace.frames[1:index + 1]:
        ran_at[earlier.node_id] = earlier
    waiting = {node_id: grads for paused in frame.paused for node_id, _count, grads in paused.waiting}
    waiting.update({node_id: grads for node_id, _count, grads in frame.waiting or ()})
    ready_buffers = {}
    for paused in frame.paused:               # the outer graph tasks' nodes, as they wait
        ready_buffers.update(paused.ready_buffers)
    ready_buffers.update(frame.ready_buffers)
    rows = {}
    for node in trace.graph.nodes:
        node_id = node.id
        if states[node_id][0] == "hidden":     # a node of a nested graph task not started yet
            continue
        lines = [(_("state"), [states[node_id][1]])]
        if node_id in ran_at:
            step = ran_at[node_id]
            if step is not frame:
                lines.append((_("ran at"), [_("step {step}").format(step=step.step)]))
            lines.append((_("received"), step.received))
            lines.append((_("sent"), sent_lines(step)))
            if step.writes:
                lines.append((_("wrote"), step.writes))
        elif node_id in ready_buffers:
            lines.append((_("input buffer"), ready_buffers[node_id]))
        elif node_id in waiting:
            grads = waiting[node_id]
            held = grads if any(grad != "None" for grad in grads) else [_("empty: nothing has arrived yet")]
            lines.append((_("input buffer"), held))
        elif node.leaf is not None and frame.waiting is not None:
            lines.append((_("input buffer"), [_("empty: nothing has arrived yet")]))
        saved = trace.saved.get(node_id)
        if saved:
            freed = trace.frees_saved and node_id in frame.done and node_id != frame.node_id
            lines.append((_("saved for backward"), [_saved_line(box, freed) for box in saved]))
        rows[node_id] = lines
    return rows


def _saved_line(box, freed):
    if freed or box.freed:
        return _("{slot}: freed").format(slot=box.label)
    return f"{box.label} = {one_line(box.value)}" if box.value is not None else f"{box.label} {box.shape}"


# ------------------------------------------------------------------ the block
FONT_FAMILY = re.compile(r' font-family="([^"]*)"')


def compact_svg(svg):
    """The frame's SVG with its most common ``font-family`` said once, on the ``<svg>`` element, instead of on
    every ``<text>`` (which inherits it): about a third smaller, and drawn the same."""
    families = Counter(FONT_FAMILY.findall(svg))
    if not families:
        return svg
    common = families.most_common(1)[0][0]
    svg = svg.replace(f' font-family="{common}"', "")
    return re.sub(r"<svg\b", f'<svg font-family="{common}"', svg, count=1)


def _data_uri(kind, data):
    return f"data:{kind};base64,{base64.b64encode(data).decode('ascii')}"


def player_parts(trace):
    """``(data, still)``: the JSON the script reads, and the HTML shown where no script runs. Made once per
    language (graphviz is run for every frame: twice, for the SVG and the PNG)."""
    lang = language()
    if lang in trace._player_parts:
        return trace._player_parts[lang]
    from .trace import frame_rows, step_title

    names = trace._names
    frames = []
    last = trace.frames[-1].step
    for index in trace._shown():
        picture = trace.frame(index)
        frame = trace.frames[index]
        svg = compact_svg(picture.svg()).encode("utf-8")
        frames.append({"step": frame.step, "svg": _data_uri("image/svg+xml", svg),
                       "alt": picture.alt, "caption": step_title(frame, names),
                       "count": _("step {step} of {last}").format(step=frame.step, last=last),
                       "rows": frame_rows(frame, names), "nodes": node_rows(trace, index)})
    outputs = {f"out{index}": root for index, (_box, root) in enumerate(trace.graph.outputs) if root}
    data = {
        "frames": frames, "names": names, "outputs": outputs, "interval": FRAME_MS,
        "more": trace._more_note(),
        "words": {"play": _("play"), "pause": _("pause"), "back": _("step back"),
                  "forward": _("step forward"), "slider": _("step"),
                  "hint": _("Click a node of the graph to see what it holds at this step: its input buffer, "
                            "the gradients it received and sent, what it saved."),
                  "keys": _("left and right arrow keys: step back and forward")},
    }
    title = html.escape(trace.title)
    gif = animated_gif(trace)
    if gif is not None:
        picture = (f'<img src="{_data_uri("image/gif", gif)}" alt="{title}" '
                   f'style="max-width:100%;height:auto">')
    else:                            # no Pillow: the first step, as a still picture
        picture = f'<img src="{frames[0]["svg"]}" alt="{html.escape(frames[0]["alt"])}" ' \
                  f'style="max-width:100%;height:auto">'
    note = html.escape(_("An animation of the steps. Run the cell to step through them with buttons "
                         "and a slider, and to click a node to see what it holds."))
    still = (f'<div class="mat-trace-still">{picture}'
             f'<p style="font-size:12px;color:#555;margin:2px 0">{note}</p></div>')
    trace._player_parts[lang] = (data, still)
    return data, still


def player_html(trace):
    """The trace's ``text/html``: the animated image, and the script that turns it into a player."""
    data, still = player_parts(trace)
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    payload = payload.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    # The id: the same for the same trace in every run and on every machine (its words, not its pictures,
    # whose bytes vary with graphviz and the fonts), and a count for two players of one trace on a page.
    words = json.dumps([frame | {"svg": None} for frame in data["frames"]], ensure_ascii=False,
                       sort_keys=True)
    digest = hashlib.sha1((trace.title + words).encode("utf-8")).hexdigest()[:10]
    uid = f"mat-trace-{digest}-{next(_counter)}"
    title = html.escape(trace.title)
    return (f'<div class="mat-trace" id="{uid}">'
            f'<p class="mat-trace-title" style="font-weight:bold;margin:4px 0">{title}</p>{still}'
            f'<script type="application/json" class="mat-trace-data">{payload}</script>'
            f"<script>{PLAYER_JS}</script></div>")


# ------------------------------------------------------------------ the player's script
PLAYER_CSS = """
.mat-player{font-size:13px;line-height:1.4;border:1px solid #d0d0d0;border-radius:6px;padding:8px 10px;
  margin:4px 0;max-width:100%;box-sizing:border-box;background:#fff;color:#222;outline:none}
.mat-player:focus-visible,.mat-player:focus{box-shadow:0 0 0 2px #90caf9}
.mat-player .mat-bar{display:flex;flex-wrap:wrap;align-items:center;gap:6px;margin:0 0 8px 0}
.mat-player .mat-bar button{font:inherit;font-size:13px;padding:3px 10px;border:1px solid #b0b0b0;
  border-radius:4px;background:#f6f6f6;color:#222;cursor:pointer;line-height:1.4}
.mat-player .mat-bar button:hover{background:#e8e8e8}
.mat-player .mat-bar button:disabled{color:#aaa;cursor:default;background:#fafafa}
.mat-player .mat-bar input[type=range]{flex:1 1 140px;min-width:100px;max-width:360px;margin:0 4px}
.mat-player .mat-count{font-weight:bold;white-space:nowrap;font-variant-numeric:tabular-nums}
.mat-player .mat-keys{color:#777;font-size:11px;white-space:nowrap}
.mat-player .mat-body{display:flex;flex-wrap:wrap;gap:14px;align-items:flex-start}
.mat-player .mat-graph{position:relative;flex:0 1 auto;max-width:100%;line-height:0}
.mat-player .mat-graph img{display:block;max-width:100%;height:auto;margin:0}
.mat-player .mat-hit{position:absolute;left:0;top:0;overflow:visible}
.mat-player .mat-hit g.node{opacity:0;cursor:pointer}
.mat-player .mat-hit g.node *{pointer-events:all}
.mat-player .mat-hit g.edge,.mat-player .mat-hit g.graph>polygon,
.mat-player .mat-hit g.graph>text{display:none}
.mat-player .mat-hit g.node.mat-selected{opacity:1}
.mat-player .mat-hit g.node.mat-selected text{display:none}
.mat-player .mat-hit g.node.mat-selected polygon,.mat-player .mat-hit g.node.mat-selected path,
.mat-player .mat-hit g.node.mat-selected ellipse{fill:none;stroke:#8e24aa;stroke-width:4}
.mat-player .mat-side{flex:1 1 320px;min-width:280px;max-width:620px}
.mat-player table.mat-table{border-collapse:collapse;font-size:12px;margin:0 0 10px 0;border:none;
  table-layout:auto;width:auto}
.mat-player table.mat-table caption{caption-side:top;text-align:left;font-weight:bold;padding:2px 6px;
  color:#222}
.mat-player table.mat-table tr,.mat-player table.mat-table td{text-align:left;vertical-align:top;
  padding:2px 6px;border:none;background:none}
.mat-player table.mat-table td.mat-heading{font-weight:bold;white-space:nowrap}
.mat-player table.mat-table code{font-size:12px;white-space:pre-wrap;background:none;padding:0;color:#222}
.mat-player .mat-node{border-top:1px solid #e0e0e0;padding-top:6px}
.mat-player .mat-node table.mat-table caption{color:#6a1b9a}
.mat-player .mat-hint{color:#666;font-size:12px;margin:4px 6px}
.mat-player .mat-more{color:#666;font-size:12px;margin:6px 0 0 0}
"""

PLAYER_JS = """(function () {
  "use strict";
  var script = document.currentScript;
  var root = script && script.parentNode;
  if (!root || !root.classList || !root.classList.contains("mat-trace")) { return; }
  if (root.getAttribute("data-player") === "on") { return; }
  var source = root.querySelector("script.mat-trace-data");
  var still = root.querySelector(".mat-trace-still");
  if (!source || !still || typeof DOMParser === "undefined" || typeof TextDecoder === "undefined") { return; }
  var data = JSON.parse(source.textContent);
  var frames = data.frames, words = data.words, names = data.names, last = frames.length - 1;
  var uid = root.id, current = 0, selected = null, timer = null, parsed = [];
  root.setAttribute("data-player", "on");

  if (!document.getElementById("mat-trace-player-style")) {
    var style = document.createElement("style");
    style.id = "mat-trace-player-style";
    style.textContent = CSS_TEXT;
    document.head.appendChild(style);
  }

  function make(tag, className, text) {
    var element = document.createElement(tag);
    if (className) { element.className = className; }
    if (text !== undefined) { element.textContent = text; }
    return element;
  }
  function button(name, text) {
    var element = make("button", "mat-" + name, text);
    element.type = "button";
    element.id = uid + "-" + name;
    return element;
  }

  var player = make("div", "mat-player");
  player.tabIndex = 0;
  player.id = uid + "-player";
  var bar = make("div", "mat-bar");
  var back = button("back", "\\u25c0 " + words.back);
  var play = button("play", "\\u25b6 " + words.play);
  var forward = button("forward", words.forward + " \\u25b6");
  var slider = make("input");
  slider.type = "range"; slider.min = "0"; slider.max = String(last); slider.step = "1"; slider.value = "0";
  slider.id = uid + "-slider";
  slider.setAttribute("aria-label", words.slider);
  var count = make("span", "mat-count");
  count.id = uid + "-count";
  count.setAttribute("aria-live", "polite");
  bar.appendChild(back); bar.appendChild(play); bar.appendChild(forward); bar.appendChild(slider);
  bar.appendChild(count); bar.appendChild(make("span", "mat-keys", words.keys));
  var body = make("div", "mat-body");
  var graph = make("div", "mat-graph");
  var picture = document.createElement("img");
  picture.id = uid + "-picture";
  graph.appendChild(picture);
  var side = make("div", "mat-side");
  var table = make("div", "mat-step");
  table.id = uid + "-table";
  var node = make("div", "mat-node");
  node.id = uid + "-node";
  side.appendChild(table); side.appendChild(node);
  body.appendChild(graph); body.appendChild(side);
  player.appendChild(bar); player.appendChild(body);
  if (data.more) { player.appendChild(make("p", "mat-more", data.more)); }

  function svgText(uri) {
    var bytes = atob(uri.slice(uri.indexOf(",") + 1));
    var array = new Uint8Array(bytes.length);
    for (var k = 0; k < bytes.length; k++) { array[k] = bytes.charCodeAt(k); }
    return new TextDecoder("utf-8").decode(array);
  }
  function target(name) {
    if (Object.prototype.hasOwnProperty.call(data.outputs, name)) { return data.outputs[name]; }
    var match = /^(?:leaf_|saved_|retained_)?(n[0-9]+)(?:_[0-9]+)?$/.exec(name);
    return match && Object.prototype.hasOwnProperty.call(names, match[1]) ? match[1] : null;
  }
  function hitLayer(index) {
    if (!parsed[index]) {
      var doc = new DOMParser().parseFromString(svgText(frames[index].svg), "image/svg+xml");
      parsed[index] = doc.documentElement;
    }
    var svg = document.importNode(parsed[index], true);
    Array.prototype.forEach.call(svg.querySelectorAll("[id]"), function (e) { e.removeAttribute("id"); });
    Array.prototype.forEach.call(svg.querySelectorAll("g.node"), function (g) {
      var title = g.querySelector("title");
      var id = title ? target(title.textContent.trim()) : null;
      if (!id) { g.parentNode.removeChild(g); return; }
      g.setAttribute("data-node", id);
      title.textContent = names[id];
      if (id === selected) { g.classList.add("mat-selected"); }
    });
    svg.setAttribute("class", "mat-hit");
    svg.setAttribute("width", "100%");
    svg.setAttribute("height", "100%");
    svg.style.width = "100%";
    svg.style.height = "100%";
    svg.style.maxWidth = "none";
    return svg;
  }
  function fill(holder, caption, rows) {
    while (holder.firstChild) { holder.removeChild(holder.firstChild); }
    var t = make("table", "mat-table");
    t.appendChild(make("caption", null, caption));
    var tbody = make("tbody");
    rows.forEach(function (row) {
      var tr = make("tr");
      tr.appendChild(make("td", "mat-heading", row[0]));
      var cell = make("td");
      var code = make("code", null, row[1].join("\\n"));
      cell.appendChild(code);
      tr.appendChild(cell);
      tbody.appendChild(tr);
    });
    t.appendChild(tbody);
    holder.appendChild(t);
  }
  function showNode() {
    var frame = frames[current];
    if (selected === null || !frame.nodes[selected]) {
      while (node.firstChild) { node.removeChild(node.firstChild); }
      node.appendChild(make("p", "mat-hint", words.hint));
      return;
    }
    fill(node, names[selected], frame.nodes[selected]);
  }
  function show(index) {
    current = Math.max(0, Math.min(last, index));
    var frame = frames[current];
    picture.src = frame.svg;
    picture.alt = frame.alt;
    var old = graph.querySelector("svg.mat-hit");
    if (old) { graph.removeChild(old); }
    graph.appendChild(hitLayer(current));
    fill(table, frame.caption, frame.rows);
    slider.value = String(current);
    count.textContent = frame.count;
    back.disabled = current === 0;
    forward.disabled = current === last;
    showNode();
  }
  function stop() {
    if (timer !== null) { clearInterval(timer); timer = null; }
    play.textContent = "\\u25b6 " + words.play;
    play.setAttribute("aria-pressed", "false");
  }
  function start() {
    if (current === last) { show(0); }
    play.textContent = "\\u275a\\u275a " + words.pause;
    play.setAttribute("aria-pressed", "true");
    timer = setInterval(function () {
      if (!document.body.contains(player) || current >= last) { stop(); return; }
      show(current + 1);
      if (current >= last) { stop(); }
    }, data.interval);
  }
  play.addEventListener("click", function () { if (timer === null) { start(); } else { stop(); } });
  back.addEventListener("click", function () { stop(); show(current - 1); });
  forward.addEventListener("click", function () { stop(); show(current + 1); });
  slider.addEventListener("input", function () { stop(); show(parseInt(slider.value, 10)); });
  graph.addEventListener("click", function (event) {
    var g = event.target.closest ? event.target.closest("g.node") : null;
    var id = g ? g.getAttribute("data-node") : null;
    selected = id && id !== selected ? id : null;
    Array.prototype.forEach.call(graph.querySelectorAll("g.node"), function (other) {
      other.classList.toggle("mat-selected", other.getAttribute("data-node") === selected);
    });
    showNode();
  });
  player.addEventListener("keydown", function (event) {
    if (event.target === slider) { event.stopPropagation(); return; }
    var step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
    if (!step) { return; }
    event.preventDefault();
    event.stopPropagation();
    stop();
    show(current + step);
  });
  root.replaceChild(player, still);
  show(0);
})();""".replace("CSS_TEXT", json.dumps(" ".join(PLAYER_CSS.split())))
