"""What the chapters call (``check``, ``progress``, ``mine``, ``compare_graphs``), and how a verdict is shown.

A verdict is shown twice over: as plain text (a terminal, ``make progress``, a test's ``print``) and as HTML
(JupyterLab, the website). The HTML wraps between words, shows code as code, and marks each verdict with a
badge that says "done", "not done yet" or "wrong" in words: ✅ ⏳ ❌ are emoji, empty boxes on a machine
without an emoji font (Debian's Chromium as installed). A kernel gets both (``_repr_html_`` beside
``__repr__``); anywhere else the text is printed.
"""
import html
import re

from .cache import every_verdict, verdict
from .i18n import N_, _, width
from .package import load, package_dir
from .steps import STEPS

MARKS = {"done": "✅", "todo": "⏳", "wrong": "❌"}
LABELS = {"done": N_("done"), "todo": N_("not done yet"), "wrong": N_("wrong")}
COLOURS = {"done": "#1a7f37", "todo": "#8a5a00", "wrong": "#c62828"}      # white text on each: contrast 4.5+
BADGE = ("display:inline-block;min-width:5.5em;padding:0.05em 0.5em;margin-right:0.5em;border-radius:0.8em;"
         "background:{colour};color:#fff;font-weight:600;font-size:85%;text-align:center;white-space:nowrap;"
         "font-family:var(--jp-ui-font-family, sans-serif)")
PROSE = ("white-space:normal;overflow-wrap:break-word;word-break:normal;line-height:1.45;"
         "font-family:var(--jp-content-font-family, sans-serif);font-size:var(--jp-content-font-size1, 14px)")
CODE_BLOCK = ("white-space:pre;overflow-x:auto;margin:0.3em 0 0.3em 1.5em;padding:0.3em 0.6em;"
              "background:var(--jp-layout-color2, #f5f5f5);border-radius:4px;"
              "font-family:var(--jp-code-font-family, monospace);font-size:var(--jp-code-font-size, 13px)")


class Shown:
    """A verdict, a note or a table as a chapter shows it: ``text`` (what ``print`` and a terminal show,
    ``repr``) and ``html`` (what JupyterLab and the website show)."""

    def __init__(self, text, html_text):
        self.text, self.html = text, html_text

    def __repr__(self):
        return self.text

    __str__ = __repr__

    def _repr_html_(self):
        return self.html


def show(shown):
    """Display ``shown`` in a kernel (text/plain and text/html), else print its text."""
    try:
        from IPython import get_ipython
        shell = get_ipython()
    except ImportError:
        shell = None
    if shell is None or not hasattr(shell, "kernel"):
        print(shown.text)
        return
    from IPython.display import display
    display(shown)


def badge(status):
    """The mark of a verdict as HTML: its emoji, kept as text for reading and copying out but hidden, and a
    coloured badge with the word (the emoji, hidden, stays at the start of a line: the website finds its check
    cells by it, book/course_site.py)."""
    label = _(LABELS[status])
    return (f'<span hidden>\n{MARKS[status]} </span><span class="buildtrack-badge buildtrack-{status}" '
            f'title="{html.escape(label)}" style="{BADGE.format(colour=COLOURS[status])}">'
            f'{html.escape(label)}</span> ')


def inline(text):
    """One line of a message as HTML: escaped, with ``code`` in backquotes shown as code."""
    parts = re.split(r"(``[^`]+``|`[^`]+`)", text)
    return "".join(f"<code>{html.escape(part.strip('`'))}</code>" if part.startswith("`") and len(part) > 1
                   else html.escape(part) for part in parts)


def message_html(message):
    """A verdict's message as HTML: prose that wraps between words, its lines kept apart; indented lines (a
    program, its results) as a code block, line for line."""
    blocks, code = [], []

    def flush_code():
        if code:
            blocks.append(("code", f'<pre style="{CODE_BLOCK}">{html.escape(chr(10).join(code))}</pre>'))
            code.clear()

    for line in message.split("\n"):
        if line.startswith((" ", "\t")):
            code.append(line)
            continue
        flush_code()
        if line.strip():
            blocks.append(("prose", inline(line)))
    flush_code()
    joined = ""
    for index, (kind, text) in enumerate(blocks):
        if index and kind == "prose" and blocks[index - 1][0] == "prose":
            joined += "<br>"
        joined += text
    return joined


def marked(text):
    """A verdict that starts with its mark (``❌ Not yet. ...``, an exercise's check, coursetools) as a
    ``Shown``: in HTML the mark is a worded badge, and the words wrap."""
    status = next((status for status, mark in MARKS.items() if text.startswith(mark)), None)
    if status is None:
        return Shown(text, f'<div style="{PROSE}">{message_html(text)}</div>')
    body = text[len(MARKS[status]):].lstrip()
    return Shown(text, f'<div class="buildtrack-verdict" style="{PROSE}">{badge(status)}'
                       f'{message_html(body)}</div>')


def verdict_shown(result, step_id):
    """One step's verdict: ``✅ Step 01.1 (title): message``, and as HTML."""
    template = _("{mark} Step {step} ({title}): {message}")
    fields = {"step": step_id, "title": _(STEPS[step_id].title)}
    text = template.format(mark=result.mark, message=result.message, **fields)
    head = template.format(mark="", message="\0", **fields).split("\0")[0].strip()
    body = message_html(result.message)
    return Shown(text, f'<div class="buildtrack-verdict" style="{PROSE}">{badge(result.status)}'
                       f'<strong>{html.escape(head)}</strong> {body}</div>')


def check(step_id, answers=False):
    """Check one step of your package and show the verdict."""
    show(verdict_shown(verdict(step_id, package_dir(answers)), step_id))


def _padded(text, columns):
    return text + " " * (columns - width(text))


def progress_shown(verdicts, chapters=None):
    """The progress table: a count and the next step to do, one row per step (a step that waits for an
    earlier one says nothing more: the next step is named once)."""
    rows = [(s, verdicts[s.id]) for s in STEPS.values() if chapters is None or s.chapter in chapters]
    titles = {s.id: _(s.title) for s, _result in rows}
    done = sum(result.status == "done" for _step, result in rows)
    following = next(((s, result) for s, result in rows if result.status != "done"), None)
    if following is None:
        summary = _("{done} of {total} steps done.").format(done=done, total=len(rows))
    else:
        summary = _("{done} of {total} steps done; next: step {step} ({title}).").format(
            done=done, total=len(rows), step=following[0].id, title=titles[following[0].id])

    def row_message(result):
        if result.status == "done":
            return ""
        if result.waits_for:                       # "finish step 01.1 first": said once, by the summary
            return "" if result.status == "todo" else _("step {step} fails its check: see its row.").format(
                step=result.waits_for)
        return result.message

    columns = max(width(title) for title in titles.values())
    lines = [f"{result.mark} {s.id}  {_padded(titles[s.id], columns)}  {row_message(result)}".rstrip()
             for s, result in rows]
    text = "\n".join(lines + ["", summary])

    cell = "padding:0.15em 0.5em;vertical-align:top;text-align:left;border:none"
    step_cell = f"{cell};white-space:nowrap;font-family:var(--jp-code-font-family, monospace)"
    html_rows = []
    for s, result in rows:
        strong = following is not None and s.id == following[0].id
        title = f"<strong>{html.escape(titles[s.id])}</strong>" if strong else html.escape(titles[s.id])
        html_rows.append(
            f'<tr class="buildtrack-row buildtrack-{result.status}">'
            f'<td style="{cell};white-space:nowrap">{badge(result.status)}</td>'
            f'<td style="{step_cell}">{s.id}</td><td style="{cell}">{title}</td>'
            f'<td style="{cell}">{message_html(row_message(result))}</td></tr>')
    table = (f'<table style="border-collapse:collapse;margin:0.4em 0;table-layout:auto">'
             f'{"".join(html_rows)}</table>')
    return Shown(text, f'<div class="buildtrack-progress" style="{PROSE}"><div><strong>{html.escape(summary)}'
                       f'</strong></div>{table}</div>')


def progress(answers=False, chapters=None):
    """Every step's verdict: a count, the next step to do, and one row per step."""
    show(progress_shown(every_verdict(package_dir(answers)), chapters))


def mine(step_id, answers=False):
    """Your freshly loaded ``myautograd`` once ``step_id`` (and every step before it) is done, else None.

    When it is not done, one line says which step to finish: the cell goes on without it.
    """
    result = verdict(step_id, package_dir(answers))
    if result.status != "done":
        now = result.message[0].upper() + result.message[1:]
        template = _("⏳ This part runs on your myautograd once step {step} ({title}) is done. {message}")
        fields = {"step": step_id, "title": _(STEPS[step_id].title)}
        text = template.format(message=now, **fields)
        words = template.format(message="\0", **fields).split("\0")[0].removeprefix("⏳").strip()
        show(Shown(text, f'<div class="buildtrack-note" style="{PROSE}">{badge("todo")}{html.escape(words)} '
                         f'{message_html(now)}</div>'))
        return None
    return load(package_dir(answers))


def compare_graphs(build, step_id, answers=False, **draw_options):
    """Draw the graph ``build(torch)`` makes, with mini_autograd and (once ``step_id`` is done) with yours.

    ``build`` takes a module (``mini_autograd`` or ``myautograd``) and returns the output tensor.
    """
    import mini_autograd
    from IPython.display import display
    from mini_autograd import viz

    print("mini_autograd:")
    display(viz.draw(build(mini_autograd), **draw_options))
    package = mine(step_id, answers)
    if package is not None:
        print(_("your myautograd:"))
        display(viz.draw(build(package), **draw_options))
