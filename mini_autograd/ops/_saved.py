"""How PyTorch's nodes show the dims they keep (``grad_fn._saved_dim``, ``_saved_dims``).

A node keeps a dim as it was given, an int64, and PyTorch 2.13 reads it back as an unsigned 64-bit
integer: ``x.sum(-1).grad_fn._saved_dim`` is ``(18446744073709551615,)``, ``x.sort()`` (dim -1 by
default) shows ``18446744073709551615``. The nodes of issue 28's operations keep the dim they compute
with apart (``ctx.axis``) and show this one.
"""


def shown_dim(dim):
    """-1 -> 18446744073709551615; a dim of 0 or more as it is."""
    return int(dim) + 2**64 if dim < 0 else int(dim)


def shown_dims(dims):
    """A dim or several (a tuple is shown even for one int), or None for all."""
    if dims is None:
        return None
    return tuple(shown_dim(d) for d in (dims if isinstance(dims, (tuple, list)) else (dims,)))
