"""What Jupyter shows for a graph: a picture in ``text/html``, the graph in words in ``text/plain``.

Why these two parts, and not ``image/svg+xml``:

- JupyterLab does not show a stored ``image/svg+xml`` output in an untrusted
  notebook (every freshly cloned one is untrusted). It does show an ``<img>``
  whose ``src`` is a ``data:image/svg+xml;base64,...`` URI inside ``text/html``.
- The picture's bytes change with the graphviz version and the fonts, so the
  course's nbval sanitize file masks the base64 payload; the structure of the
  graph is checked through the ``text/plain`` part, which is deterministic.

Without graphviz's ``dot`` program nothing raises: a warning says how to install
it (once per session) and the text description is shown instead. The warning, the
caption and the text are in the edition's language (``i18n.py``).
"""
import base64
import html
import re
import shutil
import warnings
from pathlib import Path

import graphviz

from .i18n import N_, _

INSTALL_HINT = N_("""\
The graphviz program 'dot' was not found on PATH, so graphs are shown as text.
Install graphviz to see the pictures:
  conda:          conda install -c conda-forge graphviz python-graphviz
  Debian/Ubuntu:  sudo apt-get install graphviz
  macOS:          brew install graphviz""")

_warned = False  # the install hint is given once per session


class DotNotFoundError(RuntimeError):
    """Raised by ``svg()`` and ``save()`` when the ``dot`` program is missing."""


def render(digraph, fmt):
    """Run ``dot`` on ``digraph`` and return the bytes of the picture in format ``fmt``."""
    if shutil.which("dot") is None:
        raise DotNotFoundError(_(INSTALL_HINT))
    try:
        return digraph.pipe(format=fmt)
    except graphviz.ExecutableNotFound as error:
        raise DotNotFoundError(_(INSTALL_HINT)) from error


def drawn_or_none(draw):
    """``draw()``, or None after a warning when graphviz is missing or fails (the caller shows text)."""
    try:
        return draw()
    except DotNotFoundError:
        warn_no_dot()
    except graphviz.CalledProcessError as error:
        warnings.warn(_("graphviz could not draw the graph: {error}").format(error=error), UserWarning,
                      stacklevel=3)
    return None


def warn_no_dot():
    """Warn (once) that there will be text instead of pictures, with the install commands."""
    global _warned
    if not _warned:
        _warned = True
        warnings.warn(_(INSTALL_HINT), UserWarning, stacklevel=2)


def clean_svg(svg):
    """Drop graphviz's comments (its version and the graph name): smaller, and not needed."""
    return re.sub(r"<!--.*?-->\s*", "", svg, flags=re.DOTALL)


def img_tag(svg, alt):
    """``<img src="data:image/svg+xml;base64,...">``: the form an untrusted notebook shows."""
    payload = base64.b64encode(svg.encode("utf-8")).decode("ascii")
    return (f'<img src="data:image/svg+xml;base64,{payload}" alt="{html.escape(alt)}" '
            f'style="max-width:100%;height:auto">')


class GraphPicture:
    """A picture of a backward graph, as returned by ``draw``.

    In Jupyter it shows as the picture (``text/html``) with the graph in words as
    its ``text/plain`` part; ``print(picture)`` prints the words. ``.source`` is the
    DOT source, ``.svg()`` the SVG text and ``.save(path)`` writes svg, png or pdf.
    """

    def __init__(self, digraph, text, alt):
        self.digraph = digraph    # a graphviz.Digraph
        self.text = text          # the graph in words (deterministic)
        self.alt = alt            # a short caption, e.g. "backward graph of out"
        self._svg = None

    @property
    def source(self):
        """The DOT source handed to graphviz."""
        return self.digraph.source

    def svg(self):
        """The picture as SVG text (made by ``dot`` on first use)."""
        if self._svg is None:
            self._svg = clean_svg(render(self.digraph, "svg").decode("utf-8"))
        return self._svg

    def file_digraph(self):
        """What ``save`` draws: the same picture (a trace frame adds its table)."""
        return self.digraph

    def save(self, path, dpi=144):
        """Write the picture to ``path``: ``.svg``, ``.png`` (at ``dpi``), ``.pdf``, or ``.dot``."""
        path = Path(path)
        fmt = path.suffix.lower().lstrip(".")
        digraph = self.file_digraph()
        if fmt in ("dot", "gv"):
            path.write_text(digraph.source, encoding="utf-8")
            return path
        if fmt not in ("svg", "png", "pdf"):
            raise ValueError(f"save() writes .svg, .png, .pdf or .dot files, not {path.name!r}")
        if fmt == "png":
            digraph = digraph.copy()
            digraph.graph_attr["dpi"] = str(dpi)
        data = render(digraph, fmt)
        if fmt == "svg":
            data = clean_svg(data.decode("utf-8")).encode("utf-8")
        path.write_bytes(data)
        return path

    def html_picture(self):
        """The ``<img>`` tag, or None (after a warning) when the picture cannot be made."""
        return drawn_or_none(lambda: img_tag(self.svg(), self.alt))

    def _repr_html_(self):
        picture = self.html_picture()
        if picture is None:
            return None          # Jupyter then shows text/plain: the graph in words
        return f'<div style="max-width:100%;overflow-x:auto">{picture}</div>'

    def _repr_pretty_(self, printer, cycle):
        printer.text(self.text)

    def __repr__(self):
        return self.text

    __str__ = __repr__
