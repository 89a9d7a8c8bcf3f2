"""``torch.utils.backcompat``: the switches of the broadcasting notes' backward-compatibility warnings.

PyTorch counterpart: torch/utils/backcompat/__init__.py. Each switch keeps a bool; PyTorch 2.13 gives
no warning either way (the warnings were for code written before broadcasting and ``keepdim``
arrived, in PyTorch 0.2), and neither does mini_autograd.
"""

_flags = {"broadcast": False, "keepdim": False}


def _setter(name):
    def set_flag(value):
        if not isinstance(value, bool):
            raise RuntimeError(f"set_backcompat_{name}_warn expects a bool, but got {type(value).__name__}")
        _flags[name] = value
    return set_flag


def _getter(name):
    return lambda: _flags[name]


class Warning:  # noqa: A001  (PyTorch's name)
    """One switch: ``enabled`` reads and sets it."""

    def __init__(self, setter, getter):
        self.setter = setter
        self.getter = getter

    def set_enabled(self, value):
        self.setter(value)

    def get_enabled(self):
        return self.getter()

    enabled = property(get_enabled, set_enabled)


broadcast_warning = Warning(_setter("broadcast"), _getter("broadcast"))
keepdim_warning = Warning(_setter("keepdim"), _getter("keepdim"))
