"""Mutants of the answer key that no step's check rejects, because they change nothing a program can observe.

Each entry: (step, piece, the mutant as tools/mutants.py describes it: the line it changes and how, why it is
equivalent). tests/test_buildtrack_mutants.py fails on a survivor missing from this list, and on an entry that
some check rejects now.
"""

SURVIVORS = [
    ("03.2", "topological_order", "`continue`: statement deleted: continue",
     "the `continue` after `order.append(node)`: without it the loop goes on to `if node in visited: "
     "continue`, and the node is in visited already (it was marked when its children were pushed), so the "
     "same `continue` follows one line later."),
    ("03.2", "run_backward", "`zip(node.next_functions, next_grads, strict=True)):`: True -> False",
     "strict=False changes nothing when the two have the same length, and they always do here: "
     "BackwardFunction.apply raises PyTorch's 'returned an incorrect number of gradients' before the zip, "
     "AccumulateGrad has no edges and returns (), and a node that only None reached gets one None per edge."),
    ("11.1", "gradcheck", "`for t, grad in zip(inputs, grads_before, strict=True):`: True -> False",
     "grads_before is made from inputs, one entry each, so the two always have the same length: strict=False "
     "zips the same pairs."),
    ("03.1", "Sum.backward",
     "`return grad * Tensor(np.ones(ctx.shape, dtype=grad._data.dtype))`: Mult -> Div",
     "grad / 1 is grad * 1 bit for bit in IEEE arithmetic, inf, nan and -0.0 included, and the division by a "
     "tensor of ones broadcasts to the same shape and dtype."),
]
