"""``torch.return_types``: the tuples with named items some ops return (``x.max(dim)``).

PyTorch's are C struct sequences, as ``os.stat_result`` is: a tuple whose items are also
read-only attributes, of a type named ``torch.return_types.max`` (its ``__name__`` is
``max``), counted by ``n_fields``, without a namedtuple's ``_fields``, ``_asdict`` or
``_replace``, printed one item a line (torch/csrc/utils/structseq.h: returned_structseq_repr).

PyTorch counterpart: torch/return_types.py.
"""
import operator

__all__ = ["max", "median", "min", "sort", "structseq", "topk"]


class _ReadOnly:
    """A struct sequence's named item: the tuple's item at ``index``, which cannot be set."""

    def __init__(self, index, field, type_name):
        self._get = operator.itemgetter(index)
        self._field, self._type_name = field, type_name

    def __get__(self, obj, owner=None):
        return self if obj is None else self._get(obj)

    def __set__(self, obj, value):
        raise AttributeError("readonly attribute")

    def __repr__(self):
        return f"<member '{self._field}' of '{self._type_name}' objects>"


def structseq(name, fields):
    """The type ``torch.return_types.<name>``: a tuple of ``len(fields)`` items named ``fields``."""

    def __new__(cls, sequence):
        try:
            items = tuple(sequence)
        except TypeError:
            raise TypeError("constructor requires a sequence") from None
        if len(items) != len(fields):
            raise TypeError(f"torch.return_types.{name}() takes a {len(fields)}-sequence "
                            f"({len(items)}-sequence given)")
        return tuple.__new__(cls, items)

    def __repr__(self):
        return f"torch.return_types.{name}(\n" + ",\n".join(
            f"{field}={value!r}" for field, value in zip(fields, self, strict=True)) + ")"

    def __reduce__(self):
        return _rebuild, (name, tuple(self))    # by name: "torch.return_types" is not a module here

    def __setattr__(self, attr, value):
        if attr in fields:
            raise AttributeError("readonly attribute")
        raise AttributeError(f"'torch.return_types.{name}' object has no attribute '{attr}'")

    namespace = {"__slots__": (), "__new__": __new__, "__repr__": __repr__, "__reduce__": __reduce__,
                 "__setattr__": __setattr__, "__module__": "torch.return_types", "n_fields": len(fields),
                 "n_sequence_fields": len(fields), "n_unnamed_fields": 0}
    type_name = f"torch.return_types.{name}"
    namespace.update({field: _ReadOnly(i, field, type_name) for i, field in enumerate(fields)})
    cls = type(name, (tuple,), namespace)
    _TYPES[name] = cls
    return cls


_TYPES = {}


def _rebuild(name, items):
    return _TYPES[name](items)


max = structseq("max", ("values", "indices"))     # noqa: A001  (PyTorch's names)
min = structseq("min", ("values", "indices"))     # noqa: A001
sort = structseq("sort", ("values", "indices"))
topk = structseq("topk", ("values", "indices"))
median = structseq("median", ("values", "indices"))
