"""Checks of chapter 11: gradcheck (itself a check, judged on random Functions) and a custom Function.

Each check runs named scenarios first (the mistakes people make, each with its own message), then random
cases drawn by hypothesis (derandomized, no database: the same code always gets the same verdict), each
compared with mini_autograd, which the course's tests keep equal to PyTorch 2.13. On a difference the
message shows the smallest case hypothesis found, in words: the inputs, what PyTorch gives, what yours
gives.
"""
import re

import numpy as np

from ._testing import expect, expect_close, grad_of, numeric_vjp, reference, show, values
from .cases import close, dtype_name, quarters, raised, smallest_failure
from .package import Wrong
from .steps import step
from .i18n import _


# ------------------------------------------------------------------------ 11.1
def _wrong_exp(m):
    class WrongExp(m.Function):
        @staticmethod
        def forward(ctx, a):
            result = m.Tensor(np.exp(a._data))
            ctx.save_for_backward(result)
            return result

        @staticmethod
        def backward(ctx, grad):
            return grad                                # forgets the local derivative
    return WrongExp


def _wrong_second_input(m):
    class WrongMul(m.Function):
        @staticmethod
        def forward(ctx, a, b):
            ctx.save_for_backward(a, b)
            return m.Tensor(a._data * b._data)

        @staticmethod
        def backward(ctx, grad):
            a, b = ctx.saved_tensors
            return grad * b, grad * b                 # right for a, wrong for b
    return WrongMul


def _inputs(m, *shapes):
    rng = np.random.default_rng(11)
    return tuple(m.tensor(rng.uniform(0.5, 1.5, shape), dtype=m.float64, requires_grad=True)
                 for shape in shapes)


def polynomial_function(package, shapes, out_shape, coefficients, jacobians, no_gradient=()):
    """A Function class of ``package`` (myautograd or mini_autograd) with one input per shape in ``shapes``.

    forward (numpy): out = Σ_i A_i x_i + B_i x_i² + C_i x_i³, each x_i flattened, powers entry by entry,
    ``coefficients[i] = (A_i, B_i, C_i)``, matrices of (output entries, entries of x_i). backward multiplies
    the gradient by ``jacobians[i]`` (output entries × entries of x_i: the true one, or one with a mistake
    planted), and returns None for the inputs in ``no_gradient``.
    """
    mini = package is reference()
    base, tensor_class = (package.autograd.Function if mini else package.Function), package.Tensor
    size = int(np.prod(out_shape))

    def forward(ctx, *xs):
        total = np.zeros(size)
        for x, (a, b, c) in zip(xs, coefficients, strict=True):
            flat = np.asarray(x._data, dtype=np.float64).reshape(-1)
            total = total + a @ flat + b @ flat ** 2 + c @ flat ** 3
        return tensor_class(total.reshape(out_shape))

    def backward(ctx, grad):
        g = np.asarray(grad._data, dtype=np.float64).reshape(-1)
        grads = tuple(None if i in no_gradient else tensor_class((g @ jacobian).reshape(shape))
                      for i, (jacobian, shape) in enumerate(zip(jacobians, shapes, strict=True)))
        return grads if len(grads) > 1 else grads[0]

    return type("Polynomial", (base,), {"forward": staticmethod(forward), "backward": staticmethod(backward)})


def _one_input(m, coefficient, planted, power=1, x=(0.5,), out=None):
    """``f``: one input of len(x) entries, out = coefficient * x**power entry by entry (a diagonal Jacobian),
    whose backward says ``planted`` (the Jacobian's diagonal) instead; and the float64 input."""
    x = np.asarray(x, dtype=float)
    n = len(x)
    terms = [np.zeros((n, n)) for _ in range(3)]
    terms[power - 1] = np.eye(n) * coefficient
    cls = polynomial_function(m, [(n,)], (n,), [tuple(terms)], [np.diag(np.broadcast_to(planted, (n,)))])
    return (lambda a: cls.apply(a)), (m.tensor(x, dtype=m.float64, requires_grad=True),)


def _run_gradcheck(m, function, inputs, **tolerances):
    """``("returned", value)``, ``("raised", first line, message)`` (a GradcheckError), or
    ``("crashed", words)``."""
    try:
        return "returned", m.gradcheck.gradcheck(function, inputs, **tolerances)
    except m.gradcheck.GradcheckError as error:
        return "raised", (str(error).splitlines() or [""])[0], str(error)
    except (NotImplementedError, RecursionError):
        raise
    except Exception as error:
        return "crashed", raised(m, error)


def _said(outcome):
    kind, what = outcome[:2]
    if kind == "returned":
        return _("returned {what!r}").format(what=what)
    if kind == "raised":
        return _("raised GradcheckError({what!r})").format(what=what)
    return what


def nudge_diagnosis(m, eps=1e-4):
    """What the learner's gradcheck does with eps, watched on f(a) = 2a at a = [0.5, -0.25]: a sentence
    naming a one-sided difference or a step other than eps, or None."""
    start, seen = np.array([0.5, -0.25]), []

    class Watched(m.Function):
        @staticmethod
        def forward(ctx, a):
            seen.append(np.array(a._data, dtype=float).reshape(-1))
            return m.Tensor(a._data * 2.0)

        @staticmethod
        def backward(ctx, grad):
            return grad * 2.0

    try:
        a = m.tensor(start, dtype=m.float64, requires_grad=True)
        m.gradcheck.gradcheck(lambda a: Watched.apply(a), (a,), eps=eps)
    except (NotImplementedError, RecursionError):
        raise
    except Exception:
        pass
    nudges = {}
    for point in seen:
        moved = np.flatnonzero(point != start)
        if len(moved) > 1:
            return None                                   # an entry not put back: other checks say so
        if len(moved) == 1:
            nudges.setdefault(int(moved[0]), set()).add(float(point[moved[0]] - start[moved[0]]))
    if not nudges:
        return None
    steps = {abs(delta) for deltas in nudges.values() for delta in deltas}
    if not all(np.isclose(s, eps, rtol=1e-3) for s in steps):
        step_size = max(steps)
        return (_("Watched on gradcheck(f, inputs, eps={eps:g}), yours nudges the entries by "
                  "{step_size:.3g}, not by the eps it was given: use the eps argument (1e-6 unless the "
                  "caller says otherwise). The difference's error grows with eps: (f(x + eps) - f(x - eps)) "
                  "/ (2 eps) is off by about f'''(x) eps² / 6, 1000 · eps² for 1000 · x³, which is 0.1 with "
                  "eps = 0.01.").format(eps=eps, step_size=step_size))
    if any(len({np.sign(delta) for delta in deltas}) < 2 for deltas in nudges.values()):
        return (_("Yours takes a one-sided difference, (f(x + eps) - f(x)) / eps, which is off by about "
                  "f''(x) eps / 2 (1000 · eps = 0.001 for 1000 · x² at 0, far above atol = 1e-5). PyTorch's "
                  "is central, (f(x + eps) - f(x - eps)) / (2 eps), exact for a quadratic: nudge each entry "
                  "both ways."))
    return None


def _printed_shape(text, label):
    """(rows, columns) of the matrix printed after ``label:`` in a GradcheckError's message, or None."""
    start = text.find(label + ":")
    if start < 0:
        return None
    end = text.find("analytical:", start + 1) if label == "numerical" else len(text)
    segment = text[start + len(label) + 1:end if end >= 0 else len(text)]
    rows = re.findall(r"\[([^\[\]]*)\]", segment)
    counts = {len(re.findall(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|nan|inf", row)) for row in rows}
    return (len(rows), counts.pop()) if rows and len(counts) == 1 else None


NONE_REQUIRES_GRAD = ("gradcheck expects at least one input tensor to require gradient, but none of them "
                      "have requires_grad=True.")


def _check_named_gradcheck_cases(m):
    """The mistakes people make in gradcheck, each shown on the smallest function that reveals it."""
    a, b = _inputs(m, (3,), (2,))
    outcome = _run_gradcheck(m, lambda a, b: a * 2, (a, b))
    if outcome != ("returned", True):
        raise Wrong(_("gradcheck(lambda a, b: a * 2, (a, b)) {outcome}; PyTorch's returns True. b "
                      "takes no part in the output, so backward leaves b.grad None (it stays None): b's "
                      "analytical Jacobian is a matrix of zeros, and so is its numerical one (nudging b "
                      "moves nothing). Read a .grad that stays None as zeros.")
                      .format(outcome=_said(outcome)))
    a, b = _inputs(m, (3,), (3,))
    b.requires_grad = False
    outcome = _run_gradcheck(m, lambda a, b: a * b, (a, b))
    if outcome != ("returned", True):
        raise Wrong(_("gradcheck(lambda a, b: a * b, (a, b)), where b does not require grad, {outcome}; "
                      "PyTorch's returns True: it checks only the inputs that require grad (b gets no "
                      "gradient, so its analytical Jacobian would be zeros where its numerical one is not).")
                      .format(outcome=_said(outcome)))
    wrong = _wrong_exp(m)
    b, a = _inputs(m, (2,), (3,))
    b.requires_grad = False
    outcome = _run_gradcheck(m, lambda b, a: wrong.apply(a) + b.sum() * 0, (b, a))
    if outcome[0] != "raised" or not outcome[1].startswith("Jacobian mismatch for output 0 with respect to "
                                                           "input 0,"):
        raise Wrong(_("gradcheck(f, (b, a)), where b does not require grad and f's backward is wrong for a, "
                      "{outcome}; PyTorch's raises GradcheckError('Jacobian mismatch for output 0 with "
                      "respect to input 0,'): it numbers only the inputs that require grad, so a is input 0.")
                      .format(outcome=_said(outcome)))
    c, = _inputs(m, (2,))
    c.requires_grad = False
    try:
        m.gradcheck.gradcheck(lambda c: c * 2, (c,))
    except ValueError as error:
        expect(str(error) == NONE_REQUIRES_GRAD, _("gradcheck(f, (c,)), where c does not require grad, "
               "raised ValueError({error!r}); PyTorch's words are {words!r}.").format(error=str(error),
                                                                             words=NONE_REQUIRES_GRAD))
    except (NotImplementedError, RecursionError):
        raise
    except Exception as error:
        raise Wrong(_("gradcheck(f, (c,)), where no input requires grad, {error}; PyTorch's raises "
                      "ValueError({words!r}) before it computes anything.")
                    .format(error=raised(m, error), words=NONE_REQUIRES_GRAD)) from None
    else:
        raise Wrong(_("gradcheck(f, (c,)), where no input requires grad, raised nothing; PyTorch's raises "
                      "ValueError({words!r}).").format(words=NONE_REQUIRES_GRAD))
    a, = _inputs(m, (3,))
    outcome = _run_gradcheck(m, lambda a: m.ones(3, dtype=m.float64), (a,))
    if outcome != ("returned", True):
        raise Wrong(_("gradcheck(lambda a: ones(3, dtype=float64), (a,)) {outcome}; PyTorch's returns True. "
                      "The output does not require grad (no input reaches it), so no backward can run: its "
                      "analytical Jacobian is zeros, and so is its numerical one. Run backward only when the "
                      "output requires grad.").format(outcome=_said(outcome)))
    a = m.tensor([1.0, 2.0], dtype=m.float64, requires_grad=True)
    outcome = _run_gradcheck(m, lambda a: a.detach() * 2, (a,))
    if outcome[0] != "raised":
        raise Wrong(_("gradcheck(lambda a: a.detach() * 2, (a,)) {outcome}; PyTorch's raises GradcheckError: "
                      "the output does not require grad, so backward gives zeros, but nudging a moves it "
                      "(numerically 2 per entry). An output that needs no gradient has zero analytical "
                      "Jacobians; compare them with the numerical ones all the same.")
                      .format(outcome=_said(outcome)))
    _check_grads_put_back(m)
    _check_grads_put_back_after_an_error(m)
    _check_unchecked_input_keeps_its_grad(m)
    diagnosis = None
    for name, power in (("1000 * a * a", 2), ("1000 * a * a * a", 3)):
        f, inputs = _one_input(m, 1000.0, 0.0, power=power, x=(0.0, 0.0, 0.0))
        outcome = _run_gradcheck(m, f, inputs)
        if outcome != ("returned", True):
            diagnosis = diagnosis or nudge_diagnosis(m)
            fallback = (_("Take a central difference, (f(x + eps) - f(x - eps)) / (2 eps), with the eps "
                          "gradcheck was given (1e-6 here): it is exact for a quadratic, where a one-sided "
                          "one, (f(x + eps) - f(x)) / eps or (f(x) - f(x - eps)) / eps, is off by 1000 · eps "
                          "= 0.001.") if power == 2 else
                        _("Take a central difference, (f(x + eps) - f(x - eps)) / (2 eps), with the eps "
                          "gradcheck was given (1e-6 here): for a cubic it is off by 1000 · eps², 1e-9 with "
                          "eps = 1e-6, but 0.1 with eps = 0.01."))
            raise Wrong(_("gradcheck on {name} at a = [0., 0., 0.], whose backward is right (its derivative "
                          "is 0 there), {outcome}; PyTorch's returns True. So your numerical Jacobian "
                          "is off. {advice}").format(name=name, outcome=_said(outcome),
                                                     advice=diagnosis or fallback))
    f, inputs = _one_input(m, 1000.0, 0.0, power=3, x=(0.0, 0.0, 0.0))
    outcome = _run_gradcheck(m, f, inputs, eps=1e-2)
    if outcome[0] != "raised":
        raise Wrong(_("gradcheck(f, (a,), eps=0.01), with f = 1000 * a * a * a at a = [0., 0., 0.], "
                      "{outcome}; PyTorch's raises GradcheckError: with eps = 0.01 the central "
                      "difference gives 1000 · eps² = 0.1 where backward says 0. {advice}")
                    .format(outcome=_said(outcome),
                            advice=nudge_diagnosis(m) or _("Use the eps gradcheck was given.")))
    numerical_side = _(
        "PyTorch's tolerance is atol + rtol · |numerical| = 1e-5 + 1e-3 · 1000 = 1.00001: rtol is measured "
        "against the numerical entry (1000), not the analytical one. np.allclose(x, y) measures it against "
        "|y|, its second argument: np.allclose(analytical, numerical, rtol=rtol, atol=atol), in that order.")
    tolerance_cases = [
        # (what, coefficient, backward says, tolerances, PyTorch's verdict, what to change)
        (_("off by 0.3 on an entry of 1000 (a relative error of 3e-4)"), 1000.0, 1000.3, {}, True,
         _("PyTorch's tolerance is atol + rtol · |numerical| = 1e-5 + 1e-3 · 1000 ≈ 1: rtol, the relative "
           "part, grows with the entry. Compare with np.allclose(analytical, numerical, rtol=rtol, "
           "atol=atol).")),
        (_("off by 4e-6 on an entry of 0"), 0.0, 4e-6, {}, True,
         _("PyTorch's tolerance is atol + rtol · |numerical| = 1e-5 at an entry of 0: atol, the absolute "
           "part, is what lets an entry of 0 pass. Compare with np.allclose(analytical, numerical, "
           "rtol=rtol, atol=atol).")),
        (_("off by 2 on an entry of 1000"), 1000.0, 1002.0, {}, False,
         _("PyTorch's tolerance is atol + rtol · |numerical| = 1e-5 + 1e-3 · 1000 ≈ 1, and 2 is more: "
           "compare with np.allclose(analytical, numerical, rtol=rtol, atol=atol).")),
        (_("off by 3e-3 on an entry of 0, called with atol=0.01"), 0.0, 3e-3, {"atol": 1e-2}, True,
         _("Use the atol gradcheck was given (1e-5 only by default): np.allclose(analytical, numerical, "
           "rtol=rtol, atol=atol).")),
        (_("off by 30 on an entry of 1000, called with rtol=0.1"), 1000.0, 1030.0, {"rtol": 0.1}, True,
         _("Use the rtol gradcheck was given (1e-3 only by default): np.allclose(analytical, numerical, "
           "rtol=rtol, atol=atol).")),
        (_("off by 5e-6 on an entry of 0, called with atol=1e-6"), 0.0, 5e-6, {"atol": 1e-6}, False,
         _("Use the atol gradcheck was given: np.allclose(analytical, numerical, rtol=rtol, atol=atol).")),
        (_("1001.0005 where the entry is 1000 (off by 1.0005)"), 1000.0, 1001.0005, {}, False,
         numerical_side),
        (_("999 where the entry is 1000 (off by 1)"), 1000.0, 999.0, {}, True, numerical_side),
    ]
    for what, coefficient, planted, tolerances, accepted, change in tolerance_cases:
        f, inputs = _one_input(m, coefficient, planted)
        outcome = _run_gradcheck(m, f, inputs, **tolerances)
        if accepted and outcome != ("returned", True):
            raise Wrong(_("for a one-entry Function whose backward is {what}, your gradcheck "
                          "{outcome}; PyTorch's returns True. {change}")
                          .format(what=what, outcome=_said(outcome), change=change))
        if not accepted and outcome[0] != "raised":
            raise Wrong(_("for a one-entry Function whose backward is {what}, your gradcheck "
                          "{outcome}; PyTorch's raises GradcheckError. {change}")
                          .format(what=what, outcome=_said(outcome), change=change))
    # The layout of the message: 3 input entries, 2 output entries, one entry of backward 10% off.
    coefficients = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    planted = coefficients.copy()
    planted[1, 2] *= 1.1
    zero = np.zeros_like(coefficients)
    cls = polynomial_function(m, [(3,)], (2,), [(coefficients, zero, zero)], [planted])
    outcome = _run_gradcheck(m, lambda a: cls.apply(a),
                             (m.tensor([0.5, 1.0, 1.5], dtype=m.float64, requires_grad=True),))
    if outcome[0] != "raised":
        raise Wrong(_("for a function of an input a of 3 entries with an output of 2, whose backward is 10% "
                      "off at one entry (d out[1] / d a[2]), your gradcheck {outcome}: it must raise "
                      "GradcheckError. Compare every entry of both Jacobians, for every output entry (every "
                      "column) and every input: np.allclose(analytical, numerical, rtol=rtol, atol=atol).")
                      .format(outcome=_said(outcome)))
    text = outcome[2]
    if "numerical:" not in text or "analytical:" not in text:
        raise Wrong(_("for a function whose backward is 10% off at one entry, your GradcheckError says "
                      "{text!r}; PyTorch's goes on after its first line with both Jacobians, numerical:... "
                      "then analytical:..., so that the entry that differs can be found.").format(text=text))
    for label in ("numerical", "analytical"):
        if _printed_shape(text, label) == (2, 3):
            raise Wrong(_("for a function of an input of 3 entries with an output of 2, your GradcheckError "
                          "prints the {label} Jacobian with 2 rows of 3: one row per output entry, the "
                          "textbook layout dy/dx. PyTorch prints one row per input entry (3 rows of 2, the "
                          "transpose), the layout of the docstring: build both matrices that way, or print "
                          "their transposes.").format(label=label))
    # The output is the input, or transposed; a Jacobian of nan; a large eps at a large input.
    a = m.tensor([10.0], dtype=m.float64, requires_grad=True)
    outcome = _run_gradcheck(m, lambda a: a.exp(), (a,), eps=0.05)
    if outcome != ("returned", True):
        raise Wrong(_("gradcheck(lambda a: a.exp(), (a,), eps=0.05) for a = [10.] {outcome}; PyTorch's "
                      "returns True: it nudges each entry by eps itself, not by eps times the entry's size, "
                      "and divides by 2 eps.").format(outcome=_said(outcome)))
    for shown, function, shape in (("lambda a: a", lambda a: a, (3,)),
                                   ("lambda a: transpose(a)", lambda a: m.ops.transpose(a), (2, 3))):
        a, = _inputs(m, shape)
        outcome = _run_gradcheck(m, function, (a,))
        if outcome != ("returned", True):
            raise Wrong(_("gradcheck({shown}, (a,)) for a of shape {shape} {outcome}; PyTorch's returns "
                          "True. The output may be the input itself, or share its numbers: copy each "
                          "output's numbers before you nudge again (out(x + eps)._data.copy()), and make the "
                          "gradient you start backward with in the output's layout (write its 1 with "
                          ".flat[k]: reshape(-1) of a transposed array is a copy).")
                        .format(shown=shown, shape=list(shape), outcome=_said(outcome)))
    a = m.tensor([-1.0], dtype=m.float64, requires_grad=True)
    outcome = _run_gradcheck(m, lambda a: a ** 0.5, (a,))
    if outcome[0] != "raised":
        raise Wrong(_("gradcheck(lambda a: a ** 0.5, (a,)) for a = [-1.] {outcome}; PyTorch's raises "
                      "GradcheckError: at -1 both Jacobians hold nan, and nan is close to nothing, not even "
                      "to nan. Compare with np.allclose as PyTorch's formula does, without equal_nan.")
                    .format(outcome=_said(outcome)))
    a = m.tensor([0.1], dtype=m.float64, requires_grad=True)
    outcome = _run_gradcheck(m, lambda a: a * 3.0, (a,), atol=0.0, rtol=1e-13)
    if outcome[0] != "raised":
        raise Wrong(_("gradcheck(lambda a: a * 3.0, (a,), atol=0.0, rtol=1e-13) at a = [0.1] {outcome}; "
                      "PyTorch's raises GradcheckError: in float64 the central difference is off from 3 by "
                      "about 3e-12, beyond rtol = 1e-13. Keep both Jacobians in float64 (np.zeros makes "
                      "float64 by default): in float32 the difference rounds away.")
                      .format(outcome=_said(outcome)))


def _check_grads_put_back(m):
    """A gradcheck that raises leaves .grad as it found it, as every gradcheck of PyTorch does."""
    wrong_mul = _wrong_second_input(m)
    a, b = _inputs(m, (2,), (2,))
    before = b.grad = m.tensor([7.0, 7.0], dtype=m.float64)
    outcome = _run_gradcheck(m, lambda a, b: wrong_mul.apply(a, b), (a, b))
    if outcome[0] != "raised":
        return                                      # (what it should say is another check's)
    left = [grad_of(a), grad_of(b)]
    if left[0] is None and left[1] is before and not np.array_equal(values(before), [7.0, 7.0]):
        raise Wrong(_("b.grad is [7., 7.]; gradcheck(f, (a, b)), with f = a * b whose backward is wrong for "
                      "b, raises GradcheckError, and b.grad is the same tensor as before, but it now holds "
                      "{b_grad}: backward added into it while another input was checked. Clear every input's "
                      ".grad before each backward (t.grad = None for all of them), so the tensors you put "
                      "back stay as they were.").format(b_grad=show(values(before))))
    if left[0] is not None or left[1] is not before or not np.array_equal(values(before), [7.0, 7.0]):
        raise Wrong(_("a.grad is None and b.grad is [7., 7.]; gradcheck(f, (a, b)), with f = a * b whose "
                      "backward is wrong for b, raises GradcheckError, and then a.grad is {a_grad} and "
                      "b.grad is {b_grad}. PyTorch's gradcheck leaves every .grad as it found it, also when "
                      "it raises: put them back before raising too.").format(
                          a_grad="None" if left[0] is None else show(values(left[0])),
                          b_grad="None" if left[1] is None else str(show(values(left[1]))) + (
                              "" if left[1] is before else _(" (another tensor)"))))


def _failing_backward(m):
    class FailingBackward(m.Function):
        @staticmethod
        def forward(ctx, a, b):
            return m.Tensor(a._data * b._data)

        @staticmethod
        def backward(ctx, grad):
            raise ZeroDivisionError("this backward always fails")
    return FailingBackward


def _check_grads_put_back_after_an_error(m):
    """An error inside gradcheck (here, in the function's backward) reaches the caller, and every .grad is
    as it was: PyTorch's gradcheck never writes .grad (it asks torch.autograd.grad for the gradients)."""
    failing = _failing_backward(m)
    a, b = _inputs(m, (2,), (2,))
    b.grad = m.tensor([7.0, 7.0], dtype=m.float64)
    before = (a.grad, b.grad)
    try:
        outcome = _said(("returned", m.gradcheck.gradcheck(lambda a, b: failing.apply(a, b), (a, b))))
    except ZeroDivisionError:
        outcome = None
    except m.gradcheck.GradcheckError as error:
        outcome = _said(("raised", (str(error).splitlines() or [""])[0]))
    if outcome is not None:
        raise Wrong(_("gradcheck(f, (a, b)), with f's backward raising ZeroDivisionError, {outcome}. "
                      "PyTorch's gradcheck lets the error of the function's backward reach the caller as it "
                      "is: do not catch it.").format(outcome=outcome))
    if a.grad is not before[0] or b.grad is not before[1] or not np.array_equal(values(b.grad), [7.0, 7.0]):
        raise Wrong(_("a.grad is None and b.grad is [7., 7.]; gradcheck(f, (a, b)), with f's backward "
                      "raising ZeroDivisionError, lets the error through (right), but then a.grad is "
                      "{a_grad} and b.grad is {b_grad}. PyTorch's gradcheck leaves every .grad as it found "
                      "it on every path, an error in the function included: put them back in a "
                      "finally.").format(
                          a_grad="None" if a.grad is None else show(values(a.grad)),
                          b_grad="None" if b.grad is None else show(values(b.grad))))


def _check_unchecked_input_keeps_its_grad(m):
    """An input that does not require grad is not checked, and its .grad (a tensor may have one all the
    same) is as it was after the call: PyTorch's gradcheck touches no input's .grad."""
    c = m.tensor([2.0], dtype=m.float64)
    c.grad = m.tensor([5.0], dtype=m.float64)
    before = c.grad
    x = m.tensor([1.0], dtype=m.float64, requires_grad=True)
    outcome = _run_gradcheck(m, lambda c, x: c * x, (c, x))
    expect(outcome == ("returned", True), _("gradcheck(lambda c, x: c * x, (c, x)), with c not requiring "
           "grad, {outcome}; PyTorch's returns True.").format(outcome=_said(outcome)))
    expect(c.grad is before, _("c.grad is [5.] and c does not require grad; after gradcheck(lambda c, x: c * "
           "x, (c, x)) it is {now}. PyTorch's gradcheck leaves the .grad of every input as it found it, also "
           "of an input it does not check: put back all of them.")
           .format(now="None" if c.grad is None else _("another tensor")))


GRADCHECK_EXAMPLES = 25                # for each kind of Function
# (eps, atol, rtol): PyTorch's defaults most of the time, and some others, passed by name
TOLERANCES = [(1e-6, 1e-5, 1e-3), (1e-6, 1e-5, 1e-3), (1e-6, 1e-3, 1e-2), (1e-3, 1e-5, 1e-3),
              (1e-6, 1e-4, 1e-4)]
KINDS = ["exact", "none", "relative", "absolute", "within"]
INPUT_SHAPES = [(1,), (2,), (3,), (2, 2), (4,), (1, 3)]
OUTPUT_SHAPES = [(2,), (), (1,), (3,), (2, 2)]
AMBIGUOUS = (0.5, 2.0)      # an entry this close to PyTorch's tolerance (as a ratio): too close to call


def _gradcheck_cases(kind):
    """Random Functions whose backward has a mistake of ``kind`` planted (``"exact"``: none)."""
    from hypothesis import strategies as st

    @st.composite
    def case(draw):
        count = draw(st.integers(1, 3))
        shapes = [draw(st.sampled_from(INPUT_SHAPES)) for _ in range(count)]
        out_shape = draw(st.sampled_from(OUTPUT_SHAPES))
        xs = [np.array([draw(st.integers(-4, 4)) / 4 for _ in range(int(np.prod(shape)))]).reshape(shape)
              for shape in shapes]
        scales = [[draw(st.sampled_from([0.0, 1.0, 1000.0])) for _ in range(3)] for _ in range(count)]
        unused = [draw(st.booleans()) if count > 1 else False for _ in range(count)]
        where = draw(st.integers(0, count - 1))
        out_entry = draw(st.integers(0, int(np.prod(out_shape)) - 1))
        in_entry = draw(st.integers(0, int(np.prod(shapes[where])) - 1))
        size = draw(st.sampled_from({"relative": [0.02, -0.05, 0.1], "absolute": [3.0, -4.0, 2.5],
                                     "within": [0.3, -0.25, 0.1]}.get(kind, [0.0])))
        return {"shapes": shapes, "out_shape": out_shape, "xs": xs, "scales": scales, "unused": unused,
                "kind": kind, "where": where, "out_entry": out_entry, "in_entry": in_entry, "size": size,
                "tolerances": draw(st.sampled_from(TOLERANCES)), "seed": draw(st.integers(0, 2 ** 16))}
    return case()


def _build_case(case):
    """coefficients, true Jacobians, the Jacobians backward uses, the inputs backward gives None."""
    rng = np.random.default_rng(case["seed"])
    size = int(np.prod(case["out_shape"]))
    eps, atol, rtol = case["tolerances"]
    unused = list(case["unused"])
    kind, where = case["kind"], case["where"]
    if kind != "exact":
        unused[where] = False
    coefficients, true, planted = [], [], []
    for i, (x, scales) in enumerate(zip(case["xs"], case["scales"], strict=True)):
        n = x.size
        terms = [np.zeros((size, n)) if unused[i] else quarters(rng.uniform(-1, 1, (size, n))) * scale
                 for scale in scales]
        flat = x.reshape(-1)
        coefficients.append(tuple(terms))
        jacobian = terms[0] + 2 * terms[1] * flat + 3 * terms[2] * flat ** 2
        true.append(jacobian)
        planted.append(jacobian.copy())
    entry = (case["out_entry"], case["in_entry"])
    value = true[where][entry]
    if kind == "relative":
        planted[where][entry] = value * (1 + case["size"])
    elif kind in ("absolute", "within"):
        planted[where][entry] = value + case["size"] * (atol + rtol * abs(value))
    no_gradient = {i for i in range(len(unused)) if unused[i]} | ({where} if kind == "none" else set())
    for i in no_gradient:
        planted[i] = np.zeros_like(planted[i])
    return coefficients, true, planted, no_gradient


def _entry(name, shape, flat_index):
    if shape == ():
        return name
    return f"{name}[{', '.join(str(int(k)) for k in np.unravel_index(flat_index, shape))}]"


def _gradcheck_trial(m, case):
    """None if the learner's gradcheck says what mini_autograd's says on this random Function, else why
    not (a function that writes the message)."""
    from mini_autograd.autograd.gradcheck import GradcheckError, gradcheck, numerical_jacobian
    ref = reference()
    shapes, out_shape, xs = case["shapes"], case["out_shape"], case["xs"]
    eps, atol, rtol = case["tolerances"]
    coefficients, true, planted, no_gradient = _build_case(case)
    ref_class = polynomial_function(ref, shapes, out_shape, coefficients, planted, no_gradient)
    ref_inputs = tuple(ref.tensor(x, dtype=ref.float64, requires_grad=True) for x in xs)

    def ref_function(*inputs):
        return ref_class.apply(*inputs)

    numerical = [numerical_jacobian(ref_function, ref_inputs, i, 0, eps) for i in range(len(xs))]
    ratios = [np.abs(p - n) / (atol + rtol * np.abs(n)) for p, n in zip(planted, numerical, strict=True)]
    if any(np.any((r > AMBIGUOUS[0]) & (r < AMBIGUOUS[1])) for r in ratios):
        return None                                          # too close to PyTorch's tolerance to call
    failing = [i for i, r in enumerate(ratios) if np.any(r > 1)]
    tolerances = {} if case["tolerances"] == TOLERANCES[0] else {"eps": eps, "atol": atol, "rtol": rtol}
    try:
        reference_says = ("returned", gradcheck(ref_function, ref_inputs, **tolerances))
    except GradcheckError as error:
        reference_says = ("raised", str(error).splitlines()[0])
    if (reference_says[0] == "raised") != bool(failing):
        return None                                          # (cannot happen: the same comparison)
    learner_class = polynomial_function(m, shapes, out_shape, coefficients, planted, no_gradient)
    inputs = tuple(m.tensor(x, dtype=m.float64, requires_grad=True) for x in xs)
    grads = [m.tensor(np.full(np.shape(x), 7.0), dtype=m.float64) if case["seed"] % 2 else None for x in xs]
    for t, grad in zip(inputs, grads, strict=True):     # a gradient from before, on half the cases
        t.grad = grad
    outcome = _run_gradcheck(m, lambda *t: learner_class.apply(*t), inputs, **tolerances)
    moved = [i for i, (t, grad) in enumerate(zip(inputs, grads, strict=True))
             if grad_of(t) is not grad or (grad is not None and not np.all(values(grad) == 7.0))]
    if moved and outcome[0] != "crashed":
        now = grad_of(inputs[moved[0]])
        return (_("{show_case}\n    {name}.grad was {before} before the call; your gradcheck {outcome}, and "
                  "left {name}.grad = {now}. PyTorch's gradcheck leaves every .grad as it found it, whether "
                  "it returns or raises.").format(
                      show_case=_show_case(case, no_gradient), name="abc"[moved[0]], outcome=_said(outcome),
                      before="None" if grads[moved[0]] is None else _("a tensor of 7s"),
                      now="None" if now is None else show(values(now))))
    named = re.search(r"with respect to input (\d+)", outcome[1]) if outcome[0] == "raised" else None
    if failing and named and int(named.group(1)) in failing:
        agree = True
    elif failing:
        agree = False
    else:
        agree = outcome == ("returned", True)
    if agree:
        changed = [i for i, (t, x) in enumerate(zip(inputs, xs, strict=True))
                   if not np.array_equal(values(t), x)]
        if changed:
            return (_("{show_case}\nyour gradcheck left input {changed} changed: put each nudged entry back.")
                      .format(show_case=_show_case(case, no_gradient), changed=changed[0]))
        return None
    shown = failing[0] if failing else (int(named.group(1)) if named and int(named.group(1)) < len(xs)
                                        else case["where"])
    return lambda: _gradcheck_message(m, case, true, planted, numerical, no_gradient, shown, reference_says,
                                      outcome, failing, tolerances)


def _show_case(case, no_gradient):
    names = "abc"[:len(case["xs"])]
    lines = [_("    {name} = {x} (float64, requires grad)").format(name=name, x=show(x))
             for name, x in zip(names, case["xs"], strict=True)]
    out = list(case["out_shape"])
    lines.append(_("    f = Polynomial.apply: a Function whose numpy forward gives an output of shape {out}, "
                   "a polynomial of degree 3 in the entries of {join}")
                   .format(out=out, join=', '.join(names)))
    for i in sorted(no_gradient):
        lines.append(_("    its backward returns None for {names}").format(names=names[i]))
    return "\n".join(lines)


def _gradcheck_message(m, case, true, planted, numerical, no_gradient, shown, reference_says, outcome,
                       failing, tolerances):
    names = "abc"[:len(case["xs"])]
    name = names[shown]
    eps, atol, rtol = case["tolerances"]
    arguments = ", ".join(f"{k}={v:g}" for k, v in tolerances.items())
    given = ", ".join(names) + ("," if len(names) == 1 else "")
    call = f"gradcheck(f, ({given}){', ' + arguments if arguments else ''})"
    lines = [_show_case(case, no_gradient),
             _("    backward's Jacobian for {name} (PyTorch's layout: one row per entry of {name}, one "
               "column per output entry): {T}").format(name=name, T=show(planted[shown].T)),
             _("    finite differences give: {T}").format(T=show(numerical[shown].T))]
    where, kind = case["where"], case["kind"]
    entry = (case["out_entry"], case["in_entry"])
    if kind in ("relative", "absolute", "within") and planted[where][entry] != true[where][entry]:
        off = abs(planted[where][entry] - true[where][entry])
        allowed = atol + rtol * abs(numerical[where][entry])
        line = (_("    backward is right but at one entry: d {output} / d {input} is {planted:.6g}, the true "
                  "value {true:.6g}: off by {off:.3g}, within PyTorch's tolerance atol + rtol · |numerical| "
                  "= {allowed:.3g}") if off <= allowed else
                _("    backward is right but at one entry: d {output} / d {input} is {planted:.6g}, the true "
                  "value {true:.6g}: off by {off:.3g}, beyond PyTorch's tolerance atol + rtol · |numerical| "
                  "= {allowed:.3g}"))
        lines.append(line.format(output=_entry("out", case["out_shape"], entry[0]),
                                 input=_entry(names[where], case["shapes"][where], entry[1]),
                                 planted=planted[where][entry], true=true[where][entry], off=off,
                                 allowed=allowed))
    elif kind == "none" and np.any(true[where] != 0):
        lines.append(_("    backward returns None for {names}, whose entries do move the output: wrong")
                     .format(names=names[where]))
    reference_words = (_("returns True") if reference_says[0] == "returned"
                       else _("raises GradcheckError: {rstrip}").format(rstrip=reference_says[1].rstrip(',')))
    lines.append(_("    {call}: PyTorch's (mini_autograd's) {reference_words}; yours {outcome}.")
                 .format(call=call, reference_words=reference_words, outcome=_said(outcome)))
    planted_off = ((kind in ("relative", "absolute", "within")
                    and planted[where][entry] != true[where][entry])
                   or (kind == "none" and np.any(true[where] != 0)))
    compare = (_("compare every entry of both matrices, for every input and every output entry, with "
                 "np.allclose(analytical, numerical, rtol=rtol, atol=atol), the tolerances gradcheck was "
                 "given."))
    if outcome[0] == "crashed":
        advice = (_("An input whose backward returns None keeps .grad None: read it as zeros (its analytical "
                    "Jacobian is a matrix of zeros).") if no_gradient else "")
    elif failing and outcome[0] == "raised":
        advice = (_("The first line must name the input whose Jacobians disagree: input {failing} (or "
                    "{others}).").format(failing=failing[0], others=", ".join(map(str, failing[1:])))
                  if failing[1:] else
                  _("The first line must name the input whose Jacobians disagree: input {failing}.")
                  .format(failing=failing[0]))
    elif failing and planted_off:
        advice = _("One entry of one input's Jacobian is off: {compare}").format(compare=compare)
    elif failing:
        advice = (_("Backward is exact here, but with eps = {eps:g} the central difference itself is off by "
                    "about f'''(x) · eps² / 6 (the cubic terms), beyond the tolerance, so PyTorch's "
                    "gradcheck raises: use the eps gradcheck was given, and {compare}")
                  .format(eps=eps, compare=compare))
    elif kind == "within" and planted_off:
        advice = (_("Backward is off here by less than PyTorch's tolerance, which it accepts: the test is "
                    "|analytical - numerical| <= atol + rtol · |numerical| entry by entry "
                    "(np.allclose(analytical, numerical, rtol=rtol, atol=atol)), with the atol and rtol "
                    "gradcheck was given."))
    else:
        advice = (_("Backward is exact here (within PyTorch's tolerance), so your numerical Jacobian is off, "
                    "or your comparison is stricter than PyTorch's: {compare}").format(compare=compare))
    diagnosis = nudge_diagnosis(m) if not (failing and outcome[0] == "raised") else None
    return "\n".join(["", *lines, " ".join(filter(None, [advice, diagnosis]))])


@step("11.1", "gradcheck", "gradcheck in gradcheck.py", after="06.2")
def check_gradcheck(m):
    gradcheck = m.gradcheck.gradcheck
    cases = [("a + b", lambda a, b: a + b, ((2, 3), (2, 3))), ("a * b", lambda a, b: a * b, ((2, 3), (2, 3))),
             ("a ** 3", lambda a: a ** 3, ((3,),)), ("a.exp()", lambda a: a.exp(), ((2, 2),)),
             ("a.sum()", lambda a: a.sum(), ((2, 3),)), ("a.mean()", lambda a: a.mean(), ((4,),)),
             ("a @ b", lambda a, b: a @ b, ((2, 3), (3, 2))), ("a.tanh()", lambda a: a.tanh(), ((3,),)),
             ("a.log()", lambda a: a.log(), ((3,),)),
             (_("a * b with b broadcast"), lambda a, b: a * b, ((2, 3), (3,)))]
    for number, (name, function, shapes) in enumerate(cases):
        inputs = _inputs(m, *shapes)
        if number % 2:                         # a gradient from before, which gradcheck must leave alone
            inputs[0].grad = m.tensor(np.full(shapes[0], 5.0))
        grads_before = [t.grad for t in inputs]
        before = [values(t).copy() for t in inputs]
        arrays, versions = [t._data for t in inputs], [t._version for t in inputs]
        try:
            result = gradcheck(function, inputs)
        except m.gradcheck.GradcheckError as error:
            raise Wrong(_("your gradcheck rejects {name}, whose backward is right ({first_line}). Things to "
                          "check: clear the inputs' .grad before each backward; put each nudged entry back; "
                          "nudge the input's own numbers (reshape(-1) is a view, flatten() a copy); divide "
                          "by 2 eps; seed each backward with 1 at one output entry. {advice}")
                        .format(name=name, first_line=str(error).splitlines()[0],
                                advice=nudge_diagnosis(m) or "")) from None
        expect(result is True,
               _("gradcheck returned {result!r} for {name}; return True when the Jacobians agree.")
               .format(result=result, name=name))
        for t, old, grad, array, version in zip(inputs, before, grads_before, arrays, versions, strict=True):
            expect(np.array_equal(values(t), old), _("gradcheck on {name} left an input changed: put each "
                   "nudged entry back.").format(name=name))
            expect(t._data is array, _("after gradcheck on {name}, an input holds another numpy array than "
                   "before (its _data was replaced): a tensor that shares its numbers, such as its detach(), "
                   "no longer sees them. PyTorch's gradcheck nudges the input's own numbers and puts them "
                   "back in place.").format(name=name))
            expect(t._version == version, _("after gradcheck on {name}, an input's _version went from "
                   "{before} to {after}; PyTorch's gradcheck leaves it as it was: write the nudges into the "
                   "numbers directly (the reshape(-1) view of _data), not with in-place tensor operations, "
                   "which count as changes.").format(name=name, before=version, after=t._version))
            left = grad_of(t)
            expect(left is grad and (grad is None or np.all(values(grad) == 5.0)),
                   _("after gradcheck on {name}, an input's .grad is {now}, where before the call it was "
                     "{before}: PyTorch's gradcheck leaves .grad as it found it (keep each input's .grad "
                     "before you start, and put it back at the end).")
                   .format(name=name, now="None" if left is None else show(values(left)),
                           before="None" if grad is None else _("a tensor of 5s")))
    wrong = _wrong_exp(m)
    try:
        result = gradcheck(lambda a: wrong.apply(a), _inputs(m, (3,)))
    except m.gradcheck.GradcheckError as error:
        expect(str(error).startswith("Jacobian mismatch for output 0 with respect to input 0"),
               _("the GradcheckError must start with PyTorch's words 'Jacobian mismatch for output 0 with "
                 "respect to input 0', not {error!r}.").format(error=str(error)[:60]))
    except RuntimeError as error:
        raise Wrong(_("your gradcheck raised a plain RuntimeError ({first_line}): raise GradcheckError "
                      "(given in gradcheck.py), PyTorch's own kind of RuntimeError.")
                      .format(first_line=str(error).splitlines()[0])) from None
    else:
        raise Wrong(_("your gradcheck returned {result!r} for an exp whose backward forgets the local "
                      "derivative (it returns grad): it must raise GradcheckError.").format(result=result))
    wrong_mul = _wrong_second_input(m)
    try:
        result = gradcheck(lambda a, b: wrong_mul.apply(a, b), _inputs(m, (2,), (2,)))
    except m.gradcheck.GradcheckError as error:
        expect("input 1" in str(error).split("\n")[0], _("for a product whose backward is wrong for its "
               "second "
               "input only, your gradcheck's error says {first_line!r}: it should name "
               "input 1.").format(first_line=str(error).splitlines()[0]))
    else:
        raise Wrong(_("your gradcheck returned {result!r} for a product a * b whose backward is right for a "
                      "but wrong for b (the second input): check every input, not only the first.")
                      .format(result=result))
    _check_named_gradcheck_cases(m)
    for kind in KINDS:
        failure = smallest_failure(_gradcheck_cases(kind), lambda case: _gradcheck_trial(m, case),
                                   GRADCHECK_EXAMPLES)
        if failure:
            break
    if failure:
        raise Wrong(_("on random Functions, your gradcheck and PyTorch's disagree; the smallest case found:"
                      "{failure}").format(failure=failure))
    return (_("Your gradcheck passes every op you wrote, and on random Functions (right ones, ones with one "
              "Jacobian entry just beyond or within the tolerance, inputs with no gradient, other eps, atol "
              "and rtol) it raises exactly where PyTorch's gradcheck raises."))


# ------------------------------------------------------------------------ 11.2
SIGMOID_EXAMPLES = 50
UPSTREAM = [1.0, -0.5, 2.0, 0.25, -1.5]
LARGE = [1000.0, -1000.0, 100.0, -100.0, 88.75, -88.75, 710.0, -745.0, 20.0, -20.0, 8.67, -8.67]


@step("11.2", "a custom Function", "Sigmoid.forward and Sigmoid.backward in custom.py", after="06.2")
def check_custom_function(m):
    a, = _inputs(m, (2, 3))
    forward_result = m.custom.Sigmoid.forward(m.function.BackwardFunction(m.custom.Sigmoid), a)
    expect(isinstance(forward_result, m.Tensor), _("Sigmoid.forward returned a "
           "{type_name}: wrap the numpy result in a Tensor (Tensor(array)).")
           .format(type_name=type(forward_result).__name__))
    out = m.custom.Sigmoid.apply(a)
    expect(isinstance(out, m.Tensor), _("Sigmoid.apply returned a {type_name}, expected a Tensor.")
           .format(type_name=type(out).__name__))
    expect(np.allclose(values(out), 1 / (1 + np.exp(-values(a)))), _("Sigmoid.apply(a) gives the wrong "
           "values: 1 / (1 + exp(-a))."))
    expect(out.grad_fn is not None and out.grad_fn.name() == "SigmoidBackward",
           _("Sigmoid.apply(a) records no node named SigmoidBackward."))
    upstream = np.random.default_rng(5).uniform(-1, 1, (2, 3))
    seed = m.tensor(upstream, dtype=m.float64)
    out.backward(seed)
    expect(np.array_equal(values(seed), upstream), _("Sigmoid.backward changed the gradient it was given, in "
           "place: the same gradient tensor may go to several nodes, so compute a new tensor (grad * ...)."))
    want = numeric_vjp(lambda x: x.sigmoid(), [values(a)], upstream, 0)
    got = grad_of(a)
    if got is not None and np.allclose(values(got), want / upstream):
        raise Wrong(_("Sigmoid.backward ignores grad, the gradient arriving from upstream: multiply by it."))
    if got is not None and np.allclose(values(got), upstream * values(a) * (1 - values(a))):
        raise Wrong(_("Sigmoid.backward uses a * (1 - a), with a the input: the derivative is s * (1 - s) "
                      "with s the result. Save the result in forward (or save the input and compute s from "
                      "it again in backward)."))
    expect_close(got, want, _("Sigmoid's gradient is {got}; finite differences give {want}."))
    for case in SIGMOID_SCENARIOS:
        problem = _sigmoid_trial(m, dict(SIGMOID_PLAIN, **case))
        if problem:
            raise Wrong(problem)
    failure = smallest_failure(_sigmoid_cases(), lambda case: _sigmoid_trial(m, case), SIGMOID_EXAMPLES)
    if failure:
        raise Wrong(_("on random inputs, your Sigmoid and PyTorch's sigmoid differ; the smallest case found: "
                      "{failure}").format(failure=failure))
    return (_("Your Sigmoid runs forward and backward like a built-in op, named SigmoidBackward, and equals "
              "PyTorch's sigmoid, value and gradient, in float32 and float64, up to |a| = 1000; its result "
              "requires grad only when PyTorch's does, and an in-place change of what backward needs is "
              "refused or harmless, never a wrong gradient."))


SIGMOID_PLAIN = {"upstream": np.array([1.0, -0.5]), "dtype": "float64", "requires_grad": True,
                 "no_grad": False, "inplace": None}
# Named cases: sigmoid is exactly 0 where exp(-a) overflows; no input requires grad; the result, which
# backward needs, changed in place before backward; s near 1 in float32, where s - s * s cancels.
SIGMOID_SCENARIOS = [{"a": np.array([-1000.0, -800.0])}, {"a": np.array([-20.0, -100.0])},
                     {"a": np.array([8.67, -8.67]), "dtype": "float32"},
                     {"a": np.array([0.5, -1.0]), "requires_grad": False},
                     {"a": np.array([0.5, -1.0]), "no_grad": True},
                     {"a": np.array([0.5, -1.0]), "dtype": "float32", "inplace": "s"},
                     {"a": np.array([0.5, -1.0]), "inplace": "a"}]


def _sigmoid_cases():
    from hypothesis import strategies as st
    number = st.one_of(st.integers(-16, 16).map(lambda v: v / 4), st.sampled_from(LARGE))

    @st.composite
    def case(draw):
        shape = draw(st.sampled_from([(1,), (3,), (2, 2), (4,)]))
        size = int(np.prod(shape))
        return {"a": np.array([draw(number) for _ in range(size)]).reshape(shape),
                "upstream": np.array([draw(st.sampled_from(UPSTREAM)) for _ in range(size)]).reshape(shape),
                "dtype": draw(st.sampled_from(["float32", "float64"])),
                "requires_grad": draw(st.integers(0, 5)) > 0, "no_grad": draw(st.integers(0, 5)) == 0,
                "inplace": draw(st.sampled_from([None, None, None, "s", "a"]))}
    return case()


def _sigmoid_forward(package, function, case):
    """``(a, s)``: ``s = function(a)`` on the case's ``a``, made by ``package`` (under no_grad if asked)."""
    a = package.tensor(case["a"], dtype=getattr(package, case["dtype"]), requires_grad=case["requires_grad"])
    if case["no_grad"]:
        with package.no_grad():
            return a, function(a)
    return a, function(a)


def _sigmoid_shown(case):
    """``a = [0.5, -1.0] (float64, requires grad), s = Sigmoid.apply(a), ...``: the case, for a message."""
    flags = case["dtype"] + (_(", requires grad") if case["requires_grad"] else "")
    shown = _("a = {a_values} ({flags}), s = Sigmoid.apply(a)").format(a_values=show(case["a"]), flags=flags)
    if case["no_grad"]:
        shown = _("{shown} inside `with no_grad():`").format(shown=shown)
    if case["inplace"]:
        shown = (_("{shown}, then `with no_grad(): {name}.mul_(2)`")
                 .format(shown=shown, name=case["inplace"]))
    if case["requires_grad"] and not case["no_grad"]:
        shown = (_("{shown}, s.backward(g) with g = {upstream}")
                 .format(shown=shown, upstream=show(case["upstream"])))
    return shown


def _sigmoid_trial(m, case):
    """None if Sigmoid.apply gives PyTorch's sigmoid (value, flags, gradient) on this case, else why not."""
    ref = reference()
    upstream, dtype = case["upstream"], case["dtype"]
    shown = _sigmoid_shown(case)
    theirs, want = _sigmoid_forward(ref, ref.sigmoid, case)
    try:
        a, s = _sigmoid_forward(m, m.custom.Sigmoid.apply, case)
    except Exception as error:
        return f"{shown}: Sigmoid.apply(a) {raised(m, error)}."
    got_values, want_values = values(s), values(want)
    if not close(got_values, want_values, atol=1e-6):
        why = (_(" exp overflows to inf beyond |a| ≈ 88 (float32) or 709 (float64), and inf / inf is nan: "
                 "write the sigmoid as 1 / (1 + exp(-a)), which at the other end is 1 / inf = 0, no nan.")
               if not np.all(np.isfinite(got_values)) else "")
        return (_("{shown}: s is {s}; PyTorch's sigmoid gives {want}.{why}")
                .format(shown=shown, s=show(got_values), want=show(want_values), why=why))
    exact = (want_values == 0) | (want_values == 1)      # where exp(-a) overflowed, or rounded away
    if not np.array_equal(got_values[exact], want_values[exact]):
        return (_("{shown}: s is {s}; PyTorch's sigmoid gives exactly {want} there: exp(-a) overflows to inf "
                  "and 1 / (1 + inf) is 0 (or exp(-a) is too small to move 1 + exp(-a) off 1). Compute 1 "
                  "/ (1 + "
                  "exp(-a)) in a's dtype, as it is: no clipping of the exponent, no detour through float64.")
                .format(shown=shown, s="[" + ", ".join(f"{v:.3g}" for v in got_values[exact]) + "]",
                        want=want_values[exact].tolist()))
    # Tiny values to a few digits too, not only to 1e-6: a formula that cancels (1 + tanh(a / 2) near -1)
    # gives 0 where PyTorch gives 2e-09 (a = -20).
    tiny = np.finfo(dtype).tiny
    if not np.all(np.abs(got_values - want_values) <= 1e-4 * np.abs(want_values) + tiny):
        return (_("{shown}: s is {s}; PyTorch's sigmoid gives {want}: far from 0 they agree, but not to 4 "
                  "digits near 0. A formula that subtracts numbers close to each other loses the digits "
                  "(1 + tanh(a / 2) near a = -20): write it as 1 / (1 + exp(-a)), whose digits stay.")
                .format(shown=shown, s="[" + ", ".join(f"{v:.3g}" for v in got_values.ravel()) + "]",
                        want="[" + ", ".join(f"{v:.3g}" for v in want_values.ravel()) + "]"))
    if dtype_name(s) != dtype_name(want):
        return (_("{shown}: s is {s}; PyTorch's is {want}, a's dtype (numpy keeps "
                  "it when the formula mixes a's array with Python numbers only).")
                  .format(shown=shown, s=dtype_name(s), want=dtype_name(want)))
    if s.requires_grad != want.requires_grad:
        return (_("{shown}: s.requires_grad is {got}; PyTorch's is {want}: whether the result requires grad "
                  "is apply's decision (an input requires grad and recording is on), not forward's. Return "
                  "Tensor(array) from forward, without requires_grad=True.")
                .format(shown=shown, got=s.requires_grad, want=want.requires_grad))
    if not want.requires_grad:
        return None
    want.backward(ref.tensor(upstream, dtype=getattr(ref, dtype)))
    if case["inplace"]:
        with m.no_grad():
            (s if case["inplace"] == "s" else a).mul_(2.0)
    try:
        s.backward(m.tensor(upstream, dtype=getattr(m, dtype)))
    except RuntimeError as error:
        if case["inplace"] == "s" and "inplace" in str(error):
            if ", which is output 0 of Sigmoid," in str(error):
                return None                         # refused, as PyTorch refuses what it saved
            return (_("{shown}: s.backward(g) raised RuntimeError: {error}; PyTorch's says that the "
                      "changed tensor is \", which is output 0 of Sigmoid,\": save the result itself, whose "
                      "grad_fn is this node, not a copy or a detached twin of it.")
                    .format(shown=shown, error=str(error)[:120]))
        if case["inplace"] == "a" and "inplace" in str(error):
            return (_("{shown}: s.backward(g) raised RuntimeError: {error}. PyTorch's sigmoid saves its "
                      "result, not a: a changed after forward does not concern its backward, which gives "
                      "{theirs_grad}. Save the result, s, and take the derivative from it, s * (1 - s).")
                    .format(shown=shown, error=str(error)[:80], theirs_grad=show(values(theirs.grad))))
        return f"{shown}: s.backward(g) {raised(m, error)}."
    except Exception as error:
        return f"{shown}: s.backward(g) {raised(m, error)}."
    got = grad_of(a)
    if case["inplace"] and (got is None or not close(values(got), values(theirs.grad), atol=1e-6)):
        return (_("{shown}: a.grad is {value}, computed from the changed {name}; the gradient at the values "
                  "forward saw is {theirs_grad}, and PyTorch's sigmoid, which saves its result, refuses: "
                  "RuntimeError: one of the variables needed for gradient computation has been modified by "
                  "an inplace operation. Keep what backward needs with ctx.save_for_backward, whose version "
                  "is checked, not as an attribute of ctx (ctx.s = ...).")
                .format(shown=shown, value="None" if got is None else show(values(got)), name=case["inplace"],
                        theirs_grad=show(values(theirs.grad))))
    if got is None or not close(values(got), values(theirs.grad), atol=1e-6):
        why = ""
        if got is not None and not np.all(np.isfinite(values(got))):
            why = (_(" At large |a| exp overflows: compute the derivative from s, s * (1 - s), which is 0 "
                     "there with no inf on the way."))
        return (_("{shown}: a.grad is {value}; PyTorch's is {theirs_grad} (g * s * (1 - s)).{why}")
                  .format(shown=shown, value='None' if got is None else show(values(got)),
                          theirs_grad=show(values(theirs.grad)), why=why))
    tiny = np.finfo(dtype).tiny
    if not np.all(np.abs(values(got) - values(theirs.grad)) <= 1e-5 * np.abs(values(theirs.grad)) + tiny):
        own_s = got_values.astype(dtype)                  # the learner's s, in its dtype
        from_own_s = upstream * own_s * (1 - own_s)
        why = (_("Your backward is right for your s, but s itself is a few units of the last digit off "
                 "PyTorch's near 1, and 1 - s makes that large: compute s as 1 / (1 + exp(-a)).")
               if np.allclose(values(got), from_own_s, rtol=1e-5, atol=0) else
               _("s - s * s subtracts two numbers close to each other and loses the digits; s * (1 - s) "
                 "keeps them."))
        return (_("{shown}: a.grad is {value}; PyTorch's is {theirs_grad}: they agree to 1e-6, but not to 5 "
                  "digits where s is near 1. {why}")
                .format(shown=shown, value="[" + ", ".join(f"{v:.6g}" for v in values(got).ravel()) + "]",
                        theirs_grad="[" + ", ".join(f"{v:.6g}" for v in values(theirs.grad).ravel()) + "]",
                        why=why))
    if dtype_name(got) != dtype_name(theirs.grad):
        return (_("{shown}: a.grad is {got}; PyTorch's is {theirs_grad}, a's dtype.")
                .format(shown=shown, got=dtype_name(got), theirs_grad=dtype_name(theirs.grad)))
    return None
