"""``RemovableHandle``: what registering a module hook returns; ``handle.remove()`` takes the hook out.

PyTorch counterpart: torch/utils/hooks.py.
"""
import weakref


class RemovableHandle:
    """A hook's key in ``hooks_dict`` (and in each ``extra_dict``, where the hook's options are kept);
    usable as a context manager that removes the hook on leaving."""

    next_id = 0

    def __init__(self, hooks_dict, *, extra_dict=None):
        self.hooks_dict_ref = weakref.ref(hooks_dict)
        self.id = RemovableHandle.next_id
        RemovableHandle.next_id += 1
        extras = [extra_dict] if isinstance(extra_dict, dict) else (extra_dict or [])
        self.extra_dict_ref = tuple(weakref.ref(d) for d in extras)

    def remove(self):
        for ref in (self.hooks_dict_ref, *self.extra_dict_ref):
            registry = ref()
            if registry is not None:
                registry.pop(self.id, None)

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.remove()
