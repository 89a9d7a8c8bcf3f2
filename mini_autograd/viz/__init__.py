"""Pictures of the backward graph, and of the engine running it.

- ``draw(outputs, params=None, show_saved=False, ...)``: the graph behind one or
  more tensors, the way torchviz's ``make_dot`` draws it (same colours), with
  arrows pointing the way gradients flow. See ``dot.py``.
- ``trace_backward(output, ...)``: runs one real backward through
  ``autograd.engine.run_backward`` with a tracer and returns its frames: the node
  run at each step, the ready queue, the dependency counts, the gradients waiting
  in input buffers and each ``.grad`` written (engine.cpp: ``Engine::execute``,
  ``evaluate_function``). See ``trace.py``.

Both return objects that Jupyter shows as pictures and that print as text, with
no memory addresses, so a notebook's stored outputs can be checked by nbval.
The modules: ``walk.py`` (graph -> numbered description and words), ``dot.py``
(description -> DOT), ``picture.py`` (display, saving, no-``dot`` fallback),
``trace.py`` (the engine trace), ``i18n.py`` (their words in the edition's
language: English, or Chinese in the course's Chinese edition, through gettext and
the catalogue in ``locale/``; ``catalogue.py`` keeps it in step with the code).
"""
from .dot import draw
from .picture import DotNotFoundError, GraphPicture
from .trace import BackwardTrace, trace_backward

__all__ = ["draw", "trace_backward", "GraphPicture", "BackwardTrace", "DotNotFoundError"]
