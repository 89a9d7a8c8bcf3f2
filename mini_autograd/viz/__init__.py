"""Pictures of the backward graph, and of the engine running it.

- ``draw(outputs, params=None, show_saved=False, ...)``: the graph behind one or
  more tensors, the way torchviz's ``make_dot`` draws it (same colours), with
  arrows pointing the way gradients flow. See ``dot.py``.
- ``trace_backward(output, ...)``: runs one real backward through
  ``autograd.engine.run_backward`` with a tracer and returns its frames: the node
  run at each step, the ready queue, the dependency counts, the gradients waiting
  in input buffers and each ``.grad`` written (engine.cpp: ``Engine::execute``,
  ``evaluate_function``). See ``trace.py``.
- ``draw_double_backward(y, x, ...)``: what ``create_graph=True`` records, the graph of ``y`` and, beside
  it, the graph of the gradient ``dy/dx``, its nodes named as PyTorch names them
  (``TanhBackwardBackward0``). See ``dot.py``.
- ``record_memory(forward, label, ...)`` and ``plot_memory(curves)``: the bytes held by saved tensors and
  by gradients in the engine's input buffers at every step of one forward and backward pass, read from
  the graph and from the engine's tracer, drawn with matplotlib. See ``memory.py``.

The graph pictures return objects that Jupyter shows as pictures and that print as text, with
no memory addresses, so a notebook's stored outputs can be checked by nbval.
The modules: ``walk.py`` (graph -> numbered description and words), ``dot.py``
(description -> DOT), ``picture.py`` (display, saving, no-``dot`` fallback),
``trace.py`` (the engine trace), ``memory.py`` (memory over time), ``i18n.py`` (their words in the edition's
language: English, or Chinese in the course's Chinese edition, through gettext and
the catalogue in ``locale/``; ``catalogue.py`` keeps it in step with the code).
"""
from .dot import DoubleBackwardPicture, draw, draw_double_backward
from .memory import MemoryCurve, plot_memory, record_memory
from .picture import DotNotFoundError, GraphPicture
from .trace import BackwardTrace, trace_backward

__all__ = ["draw", "draw_double_backward", "trace_backward", "record_memory", "plot_memory", "GraphPicture",
           "DoubleBackwardPicture", "BackwardTrace", "MemoryCurve", "DotNotFoundError"]
