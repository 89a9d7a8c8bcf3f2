"""``einsum``, computed the way PyTorch computes it, so that it records PyTorch's graph.

PyTorch has no einsum node: aten/src/ATen/native/Linear.cpp's einsum takes a diagonal for a label
repeated in one operand, unsqueezes and permutes every operand to one order of labels (the output's
first, then the summed ones), sums a label only one operand still has, and contracts the operands
left to right with sumproduct_pair (a multiplication, or permutes, reshapes and a ``bmm``). So
``einsum("ij,jk->ik", a, b)`` records ``UnsqueezeBackward0``, ``PermuteBackward0``, ``ViewBackward0``,
``BmmBackward0`` and ``ViewBackward0`` and ``PermuteBackward0`` again, and ``grad_fn`` is a
``ViewBackward0``. (PyTorch asks opt_einsum for a contraction order for three operands or more when
that package is installed; without it, as here, the order is left to right.)
"""
import numbers

from .._tensor import Tensor

_LETTERS = 26
_ELLIPSIS = 2 * _LETTERS


def _subscript(label):
    """A label in [A-Za-z] as its number: A-Z are 0-25, a-z 26-51 (PyTorch's label_to_subscript)."""
    return ord(label) - ord("A") if label.isupper() else ord(label) - ord("a") + _LETTERS


def _label(subscript):
    return chr(subscript + ord("A")) if subscript < _LETTERS else chr(subscript - _LETTERS + ord("a"))


def einsum(*args):
    """``torch.einsum(equation, *operands)``: the sum of products the equation names (``"ij,jk->ik"`` is
    a matrix product, ``"ii->i"`` a diagonal, ``"bhqd,bhkd->bhqk"`` attention scores). The operands may
    come as a list, and the equation as sublists (``einsum(a, [0, 1], b, [1, 2], [0, 2])``)."""
    if len(args) < 2:
        raise ValueError("einsum(): must specify the equation string and at least one operand, or at least "
                         "one operand and its subscripts list")
    if isinstance(args[0], str):
        equation, operands = args[0], args[1:]
        if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
            operands = operands[0]
    else:
        equation, operands = _sublist_equation(args)
    for i, operand in enumerate(operands):
        if not isinstance(operand, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 1, but got {type(operand).__name__}")
    return _einsum(equation, list(operands))


def _sublist_equation(args):
    """torch/functional.py, einsum: ``(op, sublist, op, sublist, ..., [output sublist])`` as an equation."""
    def parse(sublist):
        labels = []
        for s in sublist:
            if s is Ellipsis:
                labels.append("...")
            elif isinstance(s, numbers.Integral) and 0 <= s < 2 * _LETTERS:
                labels.append(chr(ord("A") + s) if s < _LETTERS else chr(ord("a") + s - _LETTERS))
            else:
                raise ValueError("einsum(): subscript in subscript list is not within the valid range "
                                 "[0, 52)")
        return "".join(labels)
    operands, sublists = list(args[0::2]), [parse(s) for s in args[1::2]]
    output = None
    if len(args) % 2 == 1:
        output = parse(args[-1])
        operands = operands[:-1]
    equation = ",".join(sublists[:len(operands)])
    return (equation if output is None else equation + "->" + output), operands


def _parse_operands(lhs, num_ops):
    """Each operand's labels (numbers, _ELLIPSIS for ``...``), with PyTorch's checks."""
    op_labels = [[] for _ in range(num_ops)]
    current, ell_in_input, i = 0, False, 0
    while i < len(lhs):
        label = lhs[i]
        if label == " ":
            pass
        elif label == ".":
            if ell_in_input:
                raise RuntimeError(f"einsum(): found '.' for operand {current} for which an ellipsis was "
                                   "already found")
            if not (i + 2 < len(lhs) + 0 and lhs[i + 1] == "." and lhs[i + 2] == "."):
                raise RuntimeError(f"einsum(): found '.' for operand {current} that is not part of any "
                                   "ellipsis")
            i += 2
            op_labels[current].append(_ELLIPSIS)
            ell_in_input = True
        elif label == ",":
            current += 1
            if current >= num_ops:
                raise RuntimeError("einsum(): fewer operands were provided than specified in the equation")
            ell_in_input = False
        else:
            if not label.isascii() or not label.isalpha():
                raise RuntimeError(f"einsum(): invalid subscript given at index {i} in the equation string, "
                                   "subscripts must be in [a-zA-Z]")
            op_labels[current].append(_subscript(label))
        i += 1
    if current != num_ops - 1:
        raise RuntimeError("einsum(): more operands were provided than specified in the equation")
    return op_labels


def _einsum(equation, operands):
    """aten/src/ATen/native/Linear.cpp, einsum, line by line (without a contraction path)."""
    if not operands:
        raise RuntimeError("einsum(): must provide at least one operand")
    num_ops = len(operands)
    arrow = equation.find("->")
    lhs = equation if arrow == -1 else equation[:arrow]
    op_labels = _parse_operands(lhs, num_ops)

    label_count = [0] * _ELLIPSIS
    ell_num_dim = 0
    for i, (operand, labels) in enumerate(zip(operands, op_labels, strict=True)):
        ndims, nlabels, has_ellipsis = operand.ndim, len(labels), False
        for label in labels:
            if label == _ELLIPSIS:
                nlabels -= 1
                has_ellipsis = True
                ell_num_dim = max(ell_num_dim, ndims - nlabels)
            else:
                label_count[label] += 1
        if not (nlabels <= ndims if has_ellipsis else nlabels == ndims):
            raise RuntimeError(
                f"einsum(): the number of subscripts in the equation ({nlabels}) "
                + ("is more than the number of dimensions (" if has_ellipsis
                   else "does not match the number of dimensions (")
                + f"{ndims}) for operand {i}" + ("" if has_ellipsis else " and no ellipsis was given"))

    # each label's place in the aligned order: the output's labels first, then the summed ones
    label_perm_index = [-1] * _ELLIPSIS
    perm_index, ell_index, ell_in_output = 0, 0, False
    if arrow == -1:                     # implicit output: the ellipsis, then the labels seen once, sorted
        perm_index, ell_in_output = ell_num_dim, True
        for label in range(_ELLIPSIS):
            if label_count[label] == 1:
                label_perm_index[label] = perm_index
                perm_index += 1
    else:
        rhs, i = equation[arrow + 2:], 0
        while i < len(rhs):
            label = rhs[i]
            if label == " ":
                pass
            elif label == ".":
                if ell_in_output:
                    raise RuntimeError("einsum(): found '.' for output but an ellipsis (...) was already "
                                       "found")
                if not (i + 2 < len(rhs) and rhs[i + 1] == "." and rhs[i + 2] == "."):
                    raise RuntimeError("einsum(): found '.' for output that is not part of any ellipsis "
                                       "(...)")
                i += 2
                ell_index, perm_index, ell_in_output = perm_index, perm_index + ell_num_dim, True
            else:
                if not label.isascii() or not label.isalpha():
                    raise RuntimeError(f"einsum(): invalid subscript given at index {len(lhs) + 2 + i} in "
                                       "the equation string, subscripts must be in [a-zA-Z]")
                index = _subscript(label)
                if not (label_count[index] > 0 and label_perm_index[index] == -1):
                    raise RuntimeError(f"einsum(): output subscript {label}" + (
                        " appears more than once in the output" if label_perm_index[index] > -1
                        else " does not appear in the equation for any input operand"))
                label_perm_index[index] = perm_index
                perm_index += 1
            i += 1
    out_num_dim = perm_index
    if not ell_in_output:
        ell_index, perm_index = perm_index, perm_index + ell_num_dim
    for label in range(_ELLIPSIS):
        if label_count[label] > 0 and label_perm_index[label] == -1:
            label_perm_index[label] = perm_index
            perm_index += 1

    # diagonals of repeated labels, missing dims unsqueezed, every operand permuted to the aligned order
    label_size, ell_sizes = [1] * _ELLIPSIS, [1] * ell_num_dim
    dim_counts = [0] * perm_index
    ops = []
    for i, operand in enumerate(operands):
        op, permutation, dim = operand, [-1] * perm_index, 0
        for s in op_labels[i]:
            if s == _ELLIPSIS:
                ndim = operand.ndim - (len(op_labels[i]) - 1)
                for j in range(ell_num_dim - ndim, ell_num_dim):
                    if op.shape[dim] != 1:
                        if not (ell_sizes[j] == 1 or ell_sizes[j] == op.shape[dim]):
                            raise RuntimeError(
                                f"einsum(): dimension {dim} covered by ellipsis in operand {i}has size "
                                f"{op.shape[dim]} which does not broadcast with previously seen ellipsis "
                                f"with size {ell_sizes[j]} for the respective dimension")
                        ell_sizes[j] = op.shape[dim]
                        dim_counts[ell_index + j] += 1
                    permutation[ell_index + j] = dim
                    dim += 1
            elif permutation[label_perm_index[s]] == -1:
                if op.shape[dim] != 1:
                    if not (label_size[s] == 1 or label_size[s] == op.shape[dim]):
                        raise RuntimeError(
                            f"einsum(): subscript {_label(s)} has size {op.shape[dim]} for operand {i} which "
                            f"does not broadcast with previously seen size {label_size[s]}")
                    label_size[s] = op.shape[dim]
                    dim_counts[label_perm_index[s]] += 1
                permutation[label_perm_index[s]] = dim
                dim += 1
            else:                                       # a repeated label: its diagonal
                previous = permutation[label_perm_index[s]]
                if op.shape[dim] != op.shape[previous]:
                    raise RuntimeError(f"einsum(): subscript {_label(s)} is repeated for operand {i} but the "
                                       f"sizes don't match, {op.shape[dim]} != {op.shape[previous]}")
                op = op.diagonal(0, previous, dim).movedim(-1, previous)
        for k, value in enumerate(permutation):
            if value == -1:
                op = op.unsqueeze(dim)
                permutation[k] = dim
                dim += 1
        ops.append(op.permute(*permutation))

    # contract left to right, summing each label as soon as no other operand has it
    while len(ops) > 1:
        a, b = ops[0], ops[1]
        del ops[:2]
        sum_dims, a_dims_to_sum, b_dims_to_sum = [], [], []
        for dim in range(out_num_dim, perm_index):
            sa, sb = a.shape[dim] != 1, b.shape[dim] != 1
            if sa and sb:
                if a.shape[dim] != b.shape[dim]:
                    raise RuntimeError("non-broadcast dimensions must match")
                dim_counts[dim] -= 1
                if dim_counts[dim] == 1:
                    sum_dims.append(dim)
                    dim_counts[dim] = 0
            elif dim_counts[dim] == 1:
                if sa:
                    a_dims_to_sum.append(dim)
                    dim_counts[dim] = 0
                elif sb:
                    b_dims_to_sum.append(dim)
                    dim_counts[dim] = 0
        if a_dims_to_sum:
            a = a.sum(a_dims_to_sum, keepdim=True)
        if b_dims_to_sum:
            b = b.sum(b_dims_to_sum, keepdim=True)
        ops.insert(0, _sumproduct_pair(a, b, sum_dims, True))

    result = ops[0]
    if perm_index - out_num_dim > 0:                 # the summed labels: size 1 now, or summed here
        if num_ops > 1:
            return result.view(tuple(result.shape[:out_num_dim]))
        return result.sum(tuple(range(out_num_dim, perm_index)))
    return result


def _sumproduct_pair(left, right, sum_dims, keepdim):
    """aten/src/ATen/native/Linear.cpp, sumproduct_pair: ``(left * right).sum(sum_dims)`` by permutes,
    reshapes and a batched matrix product."""
    from .linalg import bmm
    if left.ndim != right.ndim:
        raise RuntimeError("number of dimensions must match")
    if not sum_dims:
        return left * right
    dim = left.ndim
    summed = set(sum_dims)
    lro, lo, ro = [], [], []
    lro_size = lo_size = ro_size = sum_size = 1
    for i in range(dim):
        sl, sr = left.shape[i] != 1, right.shape[i] != 1
        if i in summed:
            if sl and sr:
                if left.shape[i] != right.shape[i]:
                    raise RuntimeError("non-broadcast dimensions must match")
                sum_size *= left.shape[i]
            elif sl:
                left = left.sum(i, keepdim=True)
            elif sr:
                right = right.sum(i, keepdim=True)
        elif sl and sr:
            if left.shape[i] != right.shape[i]:
                raise RuntimeError("non-broadcast dimensions must match")
            lro.append(i)
            lro_size *= left.shape[i]
        elif sl:
            lo.append(i)
            lo_size *= left.shape[i]
        else:
            ro.append(i)
            ro_size *= right.shape[i]
    if lo and ro and ro[-1] < lo[0]:       # the right operand's dims come first: bmm in the output's order
        left, right, lo, ro, lo_size, ro_size = right, left, ro, lo, ro_size, lo_size
    out_size = ([left.shape[d] for d in lro] + [left.shape[d] for d in lo] + [1] * len(sum_dims)
                + [right.shape[d] for d in ro])
    lpermutation = lro + lo + list(sum_dims) + ro
    rpermutation = lro + list(sum_dims) + ro + lo
    opermutation = [-1] * len(out_size)
    for i, d in enumerate(lro + lo + list(sum_dims) + ro):
        opermutation[d] = i
    left = left.permute(*lpermutation).reshape(lro_size, lo_size, sum_size)
    right = right.permute(*rpermutation).reshape(lro_size, sum_size, ro_size)
    result = bmm(left, right).view(*out_size).permute(*opermutation)
    if not keepdim:
        sizes = [s for i, s in enumerate(result.shape) if i not in summed]
        result = result.view(*sizes)
    return result
