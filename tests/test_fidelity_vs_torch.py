"""Four differences from PyTorch 2.13 that issue 36 found, against PyTorch itself.

- ``saved_tensors_hooks`` are per thread: hooks a thread opens change nothing another thread saves,
  and a thread starts with none (and with no ``disable_saved_tensors_hooks`` of another thread).
- ``reshape`` records ``ViewBackward0`` for a tensor laid out row by row, ``ReshapeAliasBackward0``
  for one that is not but can be viewed, ``UnsafeViewBackward0`` over ``CloneBackward0`` when it must
  copy. Which one depends on how the reshaped tensor is laid out, so the ops before it lay their
  results out as PyTorch's do: elementwise ops as TensorIterator (the first operand that tells two
  dims apart decides), ``cat``/``stack``, softmax, reductions, ``masked_fill``, ``tril`` row by row,
  ``flip``, ``sort`` and the ``*_like`` functions like their input. Also in the graphs
  ``create_graph=True`` records (``chunk``'s backward is a ``cat``).
- ``load_state_dict`` of a dict without version metadata (a plain ``dict``, a comprehension over
  ``state_dict()``) is an old checkpoint: batch norm takes its own ``num_batches_tracked`` for a
  missing one; ``state_dict()`` has PyTorch's ``_metadata``.
- ``std`` with no degrees of freedom left: the gradient of a float64 tensor of one dim or more goes
  through a float32 ``where`` and comes back through ``ToCopyBackward0``.
"""
import textwrap

import pytest

try:
    from crosscheck import assert_same, full
except ImportError:  # tests/ made a package
    from tests.crosscheck import assert_same, full

pytest.importorskip("torch")

CASES = []


def case(id, code, error=None, message=full):
    CASES.append(pytest.param(textwrap.dedent(code), error, message, id=id))


# ------------------------------------------------------------------ saved tensors hooks, per thread
THREAD = """
    import threading
    opened, done = threading.Event(), threading.Event()

    def in_a_thread(block):
        def run():
            with block:
                opened.set()
                done.wait()
        thread = threading.Thread(target=run)
        thread.start()
        opened.wait()
        return thread
"""
case("hooks_of_another_thread_change_nothing_here", THREAD + """
    packed = []
    thread = in_a_thread(torch.autograd.graph.saved_tensors_hooks(lambda t: packed.append(t) or "packed",
                                                                  lambda p: p))
    try:
        x = torch.tensor([1., 2.], requires_grad=True)
        y = (x * x).sum()
        print(y.grad_fn.next_functions[0][0]._saved_self)
        y.backward()
        print(x.grad, len(packed))
    finally:
        done.set()
        thread.join()
""")
case("disabled_in_another_thread_opens_here", THREAD + """
    thread = in_a_thread(torch.autograd.graph.disable_saved_tensors_hooks("not in that thread"))
    try:
        with torch.autograd.graph.saved_tensors_hooks(lambda t: t * 1, lambda t: t):
            x = torch.tensor([3.], requires_grad=True)
            y = x.exp()
        y.backward()
        print("opened", x.grad)
    finally:
        done.set()
        thread.join()
""")
case("a_new_thread_starts_without_the_hooks_of_its_parent", """
    import threading
    x = torch.tensor([1., 2.], requires_grad=True)
    packed, results = [], []

    def work():
        y = (x * x).sum()
        y.backward()
        results.append(x.grad.clone())

    with torch.autograd.graph.saved_tensors_hooks(lambda t: packed.append(t) or t, lambda t: t):
        thread = threading.Thread(target=work)
        thread.start()
        thread.join()
        z = x.sin()
    print(results, len(packed), z.grad_fn._saved_self)
""")
case("hooks_opened_in_a_thread_apply_there", """
    import threading
    x = torch.tensor([1., 2.], requires_grad=True)
    seen = []

    def work():
        with torch.autograd.graph.saved_tensors_hooks(lambda t: (seen.append("pack"), t)[1],
                                                      lambda t: (seen.append("unpack"), t)[1]):
            y = (x * 3).exp().sum()
        y.backward()

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    print(seen, x.grad)
    (x * x).sum().backward()
    print(seen, x.grad)
""")

# ------------------------------------------------------------------ reshape's node, by layout
case("reshape_node_by_layout", """
    x = torch.arange(24., requires_grad=True)
    a = (x * 1).reshape(2, 3, 4)
    for name, y in [("contiguous", a.reshape(6, 4)), ("same shape", a.reshape(2, 3, 4)),
                    ("transposed, must copy", a.transpose(0, 1).reshape(-1)),
                    ("transposed, dims merged that stay apart", a.transpose(1, 2).reshape(2, 12)),
                    ("transposed, split only", a.transpose(0, 1).reshape(3, 2, 2, 2)),
                    ("sliced, viewable", a[:, 1:].reshape(2, 8)),
                    ("sliced, must copy", a[:, :, 1:].reshape(-1)),
                    ("stepped", a[:, :, ::2].reshape(2, 3, 2, 1)),
                    ("expanded, must copy", a[0, 0].expand(3, 4).reshape(12)),
                    ("expanded, viewable", a[0, 0].expand(3, 4).reshape(3, 2, 2)),
                    ("size-1 dims transposed", a[0, :1].t().reshape(4)), ("0-d", a[0, 0, 0].reshape(1)),
                    ("flatten", a.transpose(0, 1).flatten()),
                    ("flatten, viewable", a.permute(1, 2, 0).flatten(0, 1)),
                    ("reshape_as", a.transpose(1, 2).reshape_as(torch.ones(2, 2, 2, 3))),
                    ("view of a leaf", x.reshape(4, 6).t().reshape(3, 2, 4))]:
        print(name, node(y), y.is_contiguous())
""")
case("reshape_after_ops_laid_out_as_in_pytorch", """
    x = torch.arange(24., requires_grad=True)
    a = (x * 1).reshape(2, 3, 4)
    p, t, c = a.permute(2, 0, 1), a.transpose(1, 2), torch.ones(2, 4, 3)
    w = torch.arange(120.).reshape(2, 5, 3, 4).permute(0, 3, 1, 2)       # laid out channels-last
    w.requires_grad_()
    for name, y in [("t + c", t + c), ("c + t", c + t), ("t * 2", t * 2), ("t + bias", t + torch.ones(3)),
                    ("bias + t", torch.ones(3) + t), ("t - t", t - t), ("t / c", t / c), ("t ** c", t ** c),
                    ("maximum", torch.maximum(t, c)), ("where", torch.where(t > 3, t, c)),
                    ("cat of transposed", torch.cat([t, t])), ("cat along 1", torch.cat([p, p], 1)),
                    ("stack", torch.stack([t, t])), ("stack along 1", torch.stack([p, p], 1)),
                    ("stack at the end", torch.stack([t, t], 3)),
                    ("cat channels-last", torch.cat([w, w], 1)),
                    ("cat mixed", torch.cat([w, w.contiguous()])),
                    ("stack channels-last", torch.stack([w, w], 1)),
                    ("softmax", t.softmax(0)), ("log_softmax", p.log_softmax(-1)), ("cumsum", t.cumsum(1)),
                    ("masked_fill", t.masked_fill(t > 3, 0.)), ("tril", p.tril()), ("2 ** t", 2 ** t),
                    ("mean", p.mean(1)), ("mean keepdim", t.mean(0, keepdim=True)), ("var", t.var(0)),
                    ("std keepdim", p.std(1, keepdim=True)), ("logsumexp", p.logsumexp(2)),
                    ("prod", t.prod(0)),
                    ("amax", p.amax(1)), ("max", t.max(0).values), ("norm", p.norm(dim=2)),
                    ("flip", t.flip(0)), ("sort", p.sort(0).values), ("exp", t.exp()),
                    ("zeros_like", torch.zeros_like(t) + t), ("sum", t.sum(0))]:
        if name.startswith("cat chan") or name.startswith("stack chan") or name == "cat mixed":
            r = y.reshape(y.shape[0], -1) if name != "stack channels-last" else y.reshape(4, 5, 2, 2, 3)
        else:
            r = y.reshape(y.shape[0], -1, 1)
        print(name, y.is_contiguous(), node(r))
    print(torch.zeros_like(t).is_contiguous(), torch.ones_like(p).is_contiguous(),
          torch.full_like(t, 2.).is_contiguous(), torch.rand_like(t).is_contiguous(),
          torch.sort(t, 1).indices.is_contiguous(), t.topk(2, 1).values.is_contiguous())
""")
case("reshape_in_the_graphs_create_graph_records", """
    def walk_names(n, depth=0, out=None):
        out = [] if out is None else out
        if n is not None:
            out.append("  " * depth + n.name())
            for m, _ in n.next_functions:
                walk_names(m, depth + 1, out)
        return out

    for program in ["y.chunk(2, 0)[0] * 2", "y.t().chunk(2, 0)[0].permute(1, 0).reshape(2, 2, 2)",
                    "torch.stack(y.t().unbind(0), 1).reshape(-1)", "y.t().softmax(0).reshape(-1)",
                    "(y.t() + torch.ones(3, 4)).reshape(2, 6)", "torch.cat([y.t(), y.t()], 1).reshape(-1)"]:
        x = torch.arange(12., requires_grad=True)
        y = (x * 1).reshape(4, 3)
        out = eval(program)
        g, = torch.autograd.grad((out * out).sum(), x, create_graph=True)
        print(program)
        print("\\n".join(walk_names(g.grad_fn)))
        record(program, g)
""")

# ------------------------------------------------------------------ load_state_dict of an old checkpoint
case("load_state_dict_without_num_batches_tracked", """
    import copy
    import torch.nn as nn
    torch.manual_seed(0)
    m = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3))
    m(torch.randn(4, 2))
    m(torch.randn(4, 2))
    sd = m.state_dict()
    print(type(sd).__name__, sd._metadata)
    m2 = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3))
    m2[1].num_batches_tracked.fill_(7)
    plain = {k: v for k, v in sd.items() if "num_batches" not in k}
    print(m2.load_state_dict(plain), m2[1].num_batches_tracked, m2[1].running_mean, list(plain))
    print(m2.load_state_dict(plain, strict=False))
    copied = sd.copy()                  # OrderedDict.copy() does not keep _metadata: an old checkpoint too
    del copied["1.num_batches_tracked"]
    print(hasattr(copied, "_metadata"), hasattr(dict(sd), "_metadata"), m2.load_state_dict(copied))
    kept = copy.deepcopy(sd)            # with its _metadata: a checkpoint of today, the key is missing
    del kept["1.num_batches_tracked"]
    print(m2.load_state_dict(kept, strict=False))
    kept._metadata["1"]["version"] = 1
    print(m2.load_state_dict(kept))
    b = nn.BatchNorm1d(3, track_running_stats=False)
    print(list(b.state_dict()), b.state_dict()._metadata, b.load_state_dict({"weight": torch.ones(3),
                                                                            "bias": torch.zeros(3)}))
    one = nn.BatchNorm1d(3).state_dict()
    one["num_batches_tracked"] = torch.tensor([5])      # a one-element tensor for a 0-d one
    b = nn.BatchNorm1d(3)
    print(b.load_state_dict(one), b.num_batches_tracked)
""")
case("load_state_dict_missing_key_of_a_versioned_dict", """
    import torch.nn as nn
    m = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3))
    sd = m.state_dict()
    del sd["1.num_batches_tracked"]
    m.load_state_dict(sd)
""", "RuntimeError")
case("load_state_dict_unexpected_keys_by_module", """
    import torch.nn as nn
    m = nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3))
    sd = dict(m.state_dict())
    sd["2.weight"], sd["0.extra"], sd["0.sub.x"] = torch.ones(1), torch.ones(1), torch.ones(1)
    print(m.load_state_dict(sd, strict=False))
    m.load_state_dict(sd)
""", "RuntimeError")
case("state_dict_metadata_survives_save_and_load", """
    import io
    import torch.nn as nn
    m = nn.Sequential(nn.Linear(2, 3), nn.Sequential(nn.BatchNorm1d(3), nn.ReLU()))
    buffer = io.BytesIO()
    torch.save(m.state_dict(), buffer)
    buffer.seek(0)
    sd = torch.load(buffer)
    print(type(sd).__name__, sd._metadata)
    del sd["1.0.num_batches_tracked"]
    print(m.load_state_dict(sd, strict=False))
""")

# ------------------------------------------------------------------ std with no degrees of freedom
case("std_without_degrees_of_freedom_create_graph", """
    def walk_names(n, depth=0):
        if n is not None:
            print("  " * depth + n.name())
            for m, _ in n.next_functions:
                walk_names(m, depth + 1)

    for dtype in (torch.float64, torch.float32):
        for correction in (0, 1, 2, 3):
            for shape in ((1,), (), (2,), (3,)):
                x = torch.full(shape, 1.5, dtype=dtype, requires_grad=True)
                for name in ("std", "var"):
                    y = getattr(x, name)(correction=correction)
                    g, = torch.autograd.grad(y, x, create_graph=True)
                    print(dtype, correction, shape, name, y, g, g.dtype, node(g) if g.grad_fn else None)
    x = torch.tensor([1.5], dtype=torch.float64, requires_grad=True)
    g, = torch.autograd.grad(x.std(correction=2), x, create_graph=True)
    walk_names(g.grad_fn)
    gg, = torch.autograd.grad(g.sum(), x, allow_unused=True)
    print(gg)
    x = torch.tensor([1.5, 2.5, 4.], dtype=torch.float64, requires_grad=True)
    g, = torch.autograd.grad(x.std(correction=3), x, create_graph=True)
    walk_names(g.grad_fn)
    print(g, torch.autograd.grad(x.std(0, correction=4), x, create_graph=True)[0])
""")


@pytest.mark.parametrize("code, error, message", CASES)
def test_same_as_torch(code, error, message):
    assert_same(code, error=error, message=message)


def test_case_ids_unique():
    ids = [c.id for c in CASES]
    assert len(ids) == len(set(ids))
