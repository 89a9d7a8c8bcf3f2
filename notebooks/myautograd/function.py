"""Nodes, edges and Function.apply: where the graph is recorded.

PyTorch counterparts: torch/csrc/autograd/node.h (Node),
torch/csrc/autograd/functions/utils.h (compute_requires_grad),
torch/csrc/autograd/functions/accumulate_grad.h (AccumulateGrad),
torch/csrc/autograd/variable.h (gradient_edge) and torch/autograd/function.py (Function).
"""
import itertools
import re
import threading
import weakref

from .grad_mode import is_grad_enabled, set_grad_enabled
from .tensor import Tensor


def compute_requires_grad(*inputs):
    """Step 01.2: does the result of an operation on ``inputs`` require grad?

    PyTorch: compute_requires_grad (torch/csrc/autograd/functions/utils.h).
    True when recording is on (``is_grad_enabled()``) and at least one input is a
    Tensor that requires grad. Inputs may also be plain numbers: they never do.
    """
    raise NotImplementedError("Step 01.2: compute_requires_grad")


class _SequenceNumbers(threading.local):
    """(given) One counter per thread, as PyTorch's at::sequence_number (ATen/SequenceNumber.h)."""

    def __init__(self):
        self.counter = itertools.count()


_sequence_numbers = _SequenceNumbers()


SECOND_BACKWARD_ERROR = (
    "Trying to backward through the graph a second time (or directly access saved tensors after they "
    "have already been freed). Saved intermediate values of the graph are freed when you call .backward() "
    "or autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second "
    "time or if you need to access saved tensors after calling backward.")


def modified_error(tensor, saved_version):
    """(given) PyTorch's words for a saved tensor changed in place since it was saved."""
    # (PyTorch names the operation: Exp for ExpBackward0, Sigmoid for a custom Function's SigmoidBackward)
    made_by = ("" if tensor.grad_fn is None
               else f", which is output 0 of {re.sub(r'Backward[0-9]*$', '', tensor.grad_fn.name())},")
    return ("one of the variables needed for gradient computation has been modified by an inplace operation: "
            f"[{tensor.dtype.legacy_name} {list(tensor.shape)}]{made_by} is at version {tensor._version}; "
            f"expected version {saved_version} instead. Hint: enable anomaly detection to find the "
            "operation that failed to compute its gradient, with "
            "torch.autograd.set_detect_anomaly(True, check_nan=False).")


class Node:
    """(given) One step of the backward graph. PyTorch: struct Node (node.h).

    ``next_functions``: one ``(node, input_nr)`` edge per input of the forward
    operation, ``(None, 0)`` for an input that needs no gradient.
    ``pre_hooks``: functions the engine calls with the gradient arriving here.
    ``sequence_nr``: the order nodes were made in (chapter 08's engine uses it).
    """

    def __init__(self):
        self.next_functions = ()
        self.pre_hooks = []
        self.sequence_nr = next(_sequence_numbers.counter)

    def name(self):
        return type(self).__name__

    def __repr__(self):
        # PyTorch prints the name without its C++ namespace: <AccumulateGrad object at 0x...>
        return f"<{self.name().rsplit('::', 1)[-1]} object at {id(self):#x}>"

    def apply(self, grad):
        """The gradients of the forward inputs, given the gradient of the output."""
        raise NotImplementedError

    def release_saved(self):
        """Free what was saved for backward; most nodes save nothing."""

    def unpack_saved(self):
        """Read back what was saved for backward, checking it: PyTorch's nodes do so first thing when they
        run, even when no gradient reached them (SavedVariable::unpack). Most nodes save nothing.
        """


class AccumulateGrad(Node):
    """The node at a leaf: what arrives here is added into ``leaf.grad``.

    PyTorch: torch/csrc/autograd/functions/accumulate_grad.h.
    """

    def __init__(self, variable):
        super().__init__()
        self.variable = variable           # the leaf tensor
        self.sequence_nr = 2**64 - 1       # runs as soon as it is ready (PyTorch: UINT64_MAX)

    def name(self):
        return "torch::autograd::AccumulateGrad"

    def apply(self, grad):
        """Step 03.2, then 05.1: put ``grad`` into the leaf's ``.grad``.

        PyTorch: AccumulateGrad::apply (functions/accumulate_grad.h). Takes the
        gradient arriving at the leaf (``self.variable``); returns ``()``, since a
        leaf passes nothing on. Afterwards:
        - Step 03.2: a leaf without a gradient holds one equal to ``grad``, in a
          tensor of its own: the engine may hand the very same gradient tensor to
          another input too, so the leaf must not share it.
        - Step 05.1 (chapter 05): a leaf that already had a gradient holds the sum
          of the old one and ``grad``, and its ``.grad`` is still the same tensor
          object as before (changed in place, not replaced). Adding in place is a
          change of the gradient tensor: its ``_version`` goes up by one, as
          PyTorch's ``variable_grad += new_grad`` bumps it.
        - Step 05.1 too: the gradient is kept in the leaf's dtype (PyTorch's engine
          casts each gradient to its input's dtype: a float32 leaf times a float64
          tensor gets a float32 ``.grad``), and a leaf whose ``requires_grad`` was
          switched off after the graph was recorded (``x.requires_grad_(False)``)
          gets nothing at all, as in PyTorch, whose AccumulateGrad returns at once.
        """
        raise NotImplementedError("Step 03.2: AccumulateGrad.apply")


def gradient_edge(tensor):
    """Step 02.1, then 04.1: the edge a gradient for ``tensor`` travels along.

    PyTorch: impl::gradient_edge (torch/csrc/autograd/variable.h).
    - a tensor made by an operation: ``(tensor.grad_fn, 0)``;
    - a leaf that requires grad: ``(its AccumulateGrad node, 0)``;
    - anything else: ``(None, 0)``: no gradient goes there.
    Step 04.1 (chapter 04): a leaf has *one* AccumulateGrad, however often it is
    used. Keep it on the tensor as ``tensor._grad_accumulator``, held only
    weakly (a ``weakref.ref``): the node holds the leaf, so the leaf must not
    keep the node alive. PyTorch's AutogradMeta does the same with a
    ``c10::weak_intrusive_ptr<Node> grad_accumulator_`` (variable.h). Make a new
    node only when there is none alive.
    """
    raise NotImplementedError("Step 02.1: gradient_edge")


class BackwardFunction(Node):
    """(given) The node ``Function.apply`` records; it is also the ``ctx`` of forward and backward.

    PyTorch: BackwardCFunction (torch/autograd/function.py). Its name is the
    Function's ``node_name`` (``MulBackward0``), as in PyTorch.
    """

    def __init__(self, function):
        super().__init__()
        self.function = function            # the Function class: Mul, Exp, ...
        self.saved = ()

    def save_for_backward(self, *tensors):
        """Step 07.1: keep tensors for backward, each with the version it has now.

        PyTorch: ctx.save_for_backward, stored as SavedVariable (saved_variable.h),
        which remembers the tensor's version. Keep pairs ``(tensor, tensor._version)``
        in ``self.saved``. PyTorch also takes None in the place of a tensor (a
        Function may save an optional input) and gives None back: keep ``(None, None)``.
        """
        self.saved = tensors

    @property
    def saved_tensors(self):
        """Step 07.1: what forward saved, in the same order, each checked first.

        PyTorch: SavedVariable::unpack. After backward freed them (step 07.2 sets
        ``self.saved = None``), raise ``RuntimeError(SECOND_BACKWARD_ERROR)``. A
        tensor whose ``_version`` moved on since it was saved was changed in place:
        raise ``RuntimeError(modified_error(tensor, saved_version))``.
        """
        return self.saved

    def release_saved(self):
        """(given) Free what forward saved: the engine calls this after the node ran (step 07.2)."""
        if self.saved:                      # (a node that saved nothing has nothing to free, nor to miss)
            self.saved = None

    def unpack_saved(self):
        """(given) What forward saved, checked (``saved_tensors``): the engine reads it from a node that
        only None reached, as PyTorch's nodes unpack their saved tensors before anything else (step 08.2).
        """
        return self.saved_tensors

    def name(self):
        return self.function.node_name or f"{self.function.__name__}Backward"

    def apply(self, grad):
        grads = self.function.backward(self, grad)
        grads = grads if isinstance(grads, tuple) else (grads,)
        expected = len(self.next_functions)
        if len(grads) > expected and all(g is None for g in grads[expected:]):
            grads = grads[:expected]            # extra Nones are allowed, as in PyTorch (python_function.cpp)
        if len(grads) != expected:
            raise RuntimeError(f"function {self.name()} returned an incorrect number of gradients "
                               f"(expected {expected}, got {len(grads)})")
        return grads


class Function:
    """Base class of every differentiable operation. PyTorch: torch.autograd.Function.

    A subclass defines ``forward(ctx, *inputs)`` (numpy does the work) and
    ``backward(ctx, grad)``, and is called as ``Mul.apply(a, b)``. ``backward``
    returns one gradient per Tensor input, in order (a tuple when there are
    several). PyTorch's own Function also wants a None for each non-Tensor input.
    """

    node_name = None                          # e.g. "MulBackward0", as PyTorch names the node

    @staticmethod
    def forward(ctx, *inputs):
        raise NotImplementedError

    @staticmethod
    def backward(ctx, grad):
        raise NotImplementedError

    @classmethod
    def apply(cls, *inputs):
        """Step 02.2: run forward, and record a node when the result requires grad.

        PyTorch: Function.apply (torch/autograd/function.py; python_function.cpp).
        Takes the operation's inputs, Tensors and plain values (an exponent, say).
        Returns what ``cls.forward`` returns, with the graph recorded on it:
        - ``forward`` receives, as its ``ctx``, the node of this operation (a
          ``BackwardFunction`` of ``cls``), so what forward keeps on ctx is there
          for backward;
        - when the result requires grad by your rule of step 01.2, that node is the
          result's ``grad_fn``, the result's ``requires_grad`` is True, and the node
          has one edge per Tensor input, in input order (step 02.1), and knows the
          shape of each Tensor input (``input_shapes``: the engine undoes
          broadcasting with them, step 03.2);
        - otherwise the result has no ``grad_fn`` and does not require grad (even
          if forward made it with ``requires_grad=True``: PyTorch detaches it). Plain
          values never get an edge.
        Two more things PyTorch does, for Functions whose forward uses Tensor
        operations (step 11.2):
        - forward runs with recording off (``set_grad_enabled(False)``, given, and
          the old mode put back in a ``finally``): what forward computes is not
          recorded, only the node of ``cls`` is;
        - a forward that returns one of its inputs unchanged returns a new Tensor
          sharing that input's numbers (``Tensor(result._data)``) and its version
          counter (``_version_counter``: PyTorch makes a view), which gets the node:
          the input itself stays as it was (a leaf stays a leaf).
        """
        raise NotImplementedError("Step 02.2: Function.apply")
