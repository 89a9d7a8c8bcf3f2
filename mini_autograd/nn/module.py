"""``Module``: the base class of layers and models.

A module keeps three ordered registries, filled by plain attribute assignment
(``self.fc = Linear(2, 3)``, ``self.weight = Parameter(...)``), exactly as in
PyTorch: ``_parameters``, ``_buffers`` and ``_modules``. Everything else
(``parameters()``, ``state_dict()``, ``zero_grad()``, the repr) walks them.

PyTorch counterpart: torch/nn/modules/module.py.
"""
import collections
import collections.abc
import itertools

from .. import _dtype, grad_mode
from .._device import check_device
from .._tensor import Tensor, type_name
from .parameter import Parameter


class _IncompatibleKeys(collections.namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """What ``load_state_dict`` returns: the keys that did not match."""

    __slots__ = ()

    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


def _addindent(text, spaces):
    """Indent every line but the first (how a child module's repr nests in its parent's)."""
    lines = text.split("\n")
    if len(lines) == 1:
        return text
    return lines[0] + "\n" + "\n".join((" " * spaces + line) if line.strip() else "" for line in lines[1:])


# The registries of forward hooks each module keeps (torch/nn/modules/module.py: Module.__init__).
_HOOK_DICTS = ("_forward_hooks", "_forward_hooks_with_kwargs", "_forward_hooks_always_called",
               "_forward_pre_hooks", "_forward_pre_hooks_with_kwargs")


class Module:
    """Base class for all layers and models: subclass it, assign parts in ``__init__``, write ``forward``.

    ::

        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(4, 2)      # registered as a submodule

            def forward(self, x):
                return self.fc(x).relu()
    """

    def __init__(self):
        # object.__setattr__: our own __setattr__ needs these dicts to exist first.
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_parameters", {})
        object.__setattr__(self, "_buffers", {})
        object.__setattr__(self, "_non_persistent_buffers_set", set())
        object.__setattr__(self, "_modules", {})
        for hooks in _HOOK_DICTS:
            object.__setattr__(self, hooks, collections.OrderedDict())

    def forward(self, *args, **kwargs):
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required '
                                  '"forward" function')

    def __call__(self, *args, **kwargs):
        if not (self.__dict__.get("_forward_hooks") or self.__dict__.get("_forward_pre_hooks")):
            return self.forward(*args, **kwargs)
        return self._call_with_hooks(args, kwargs)

    def _call_with_hooks(self, args, kwargs):
        """``forward`` between the forward pre-hooks and the forward hooks, as Module._call_impl runs them
        (torch/nn/modules/module.py): a pre-hook may replace the arguments, a hook the result."""
        for hook_id, hook in list(self._forward_pre_hooks.items()):
            if hook_id in self._forward_pre_hooks_with_kwargs:
                new = hook(self, args, kwargs)
                if new is not None:
                    if not (isinstance(new, tuple) and len(new) == 2):
                        raise RuntimeError("forward pre-hook must return None or a tuple of (new_args, "
                                           f"new_kwargs), but got {new}.")
                    args, kwargs = new
            else:
                new = hook(self, args)
                if new is not None:
                    args = new if isinstance(new, tuple) else (new,)
        result = self.forward(*args, **kwargs)
        for hook_id, hook in list(self._forward_hooks.items()):
            if hook_id in self._forward_hooks_with_kwargs:
                new = hook(self, args, kwargs, result)
            else:
                new = hook(self, args, result)
            if new is not None:
                result = new
        return result

    # ------------------------------------------------------------------ hooks
    def register_forward_pre_hook(self, hook, *, prepend=False, with_kwargs=False):
        """Call ``hook(module, args)`` before each ``forward`` (``hook(module, args, kwargs)`` with
        ``with_kwargs``); what it returns, if not None, replaces the arguments."""
        return self._add_hook(self._forward_pre_hooks, hook, prepend,
                              [(self._forward_pre_hooks_with_kwargs, with_kwargs)])

    def register_forward_hook(self, hook, *, prepend=False, with_kwargs=False, always_call=False):
        """Call ``hook(module, args, output)`` after each ``forward`` (``hook(module, args, kwargs,
        output)`` with ``with_kwargs``); what it returns, if not None, replaces the output."""
        return self._add_hook(self._forward_hooks, hook, prepend,
                              [(self._forward_hooks_with_kwargs, with_kwargs),
                               (self._forward_hooks_always_called, always_call)])

    @staticmethod
    def _add_hook(hooks, hook, prepend, options):
        """Add ``hook`` to ``hooks``, and mark it in each registry of ``options`` (pairs: registry, flag)
        whose flag is set."""
        from ..utils.hooks import RemovableHandle
        handle = RemovableHandle(hooks, extra_dict=[registry for registry, _ in options])
        hooks[handle.id] = hook
        for registry, flag in options:
            if flag:
                registry[handle.id] = True
        if prepend:
            hooks.move_to_end(handle.id, last=False)
        return handle

    # ------------------------------------------------------------ registration
    def __setattr__(self, name, value):
        params = self.__dict__.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            self._forget(name, keep=params)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{type_name(value)}' as parameter '{name}' "
                                "(torch.nn.Parameter or None expected)")
            params[name] = None
        elif isinstance(value, Module):
            modules = self.__dict__.get("_modules")
            if modules is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            self._forget(name, keep=modules)
            modules[name] = value
        elif name in self.__dict__.get("_modules", {}):
            if value is not None:
                raise TypeError(f"cannot assign '{type_name(value)}' as child module '{name}' "
                                "(torch.nn.Module or None expected)")
            self._modules[name] = None
        elif name in self.__dict__.get("_buffers", {}):
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(f"cannot assign '{type_name(value)}' as buffer '{name}' "
                                "(torch.nn.Buffer, torch.Tensor or None expected)")
            self._buffers[name] = value
        else:
            object.__setattr__(self, name, value)

    def _forget(self, name, keep):
        """Drop ``name`` from the other registries (in ``keep`` it is replaced, keeping its place)."""
        for registry in (self.__dict__, self._parameters, self._buffers, self._modules):
            if registry is not keep:
                registry.pop(name, None)

    def __getattr__(self, name):
        # Called only when normal lookup fails: look in the registries.
        for registry in ("_parameters", "_buffers", "_modules"):
            entries = self.__dict__.get(registry)
            if entries is not None and name in entries:
                return entries[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name):
        for registry in (self._parameters, self._buffers, self._modules):
            if name in registry:
                del registry[name]
                self._non_persistent_buffers_set.discard(name)
                return
        object.__delattr__(self, name)

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self._parameters) | set(self._buffers)
                      | set(self._modules))

    def register_parameter(self, name, param):
        """Add a parameter (or None, a placeholder) under ``name``."""
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        self._check_name(name, "parameter", self._parameters)
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{type_name(param)}' object to parameter '{name}' "
                            "(torch.nn.Parameter or None required)")
        if param is not None and param.grad_fn is not None:
            raise ValueError(f"Cannot assign non-leaf Tensor to parameter '{name}'. Model parameters must "
                             f"be created explicitly. To express '{name}' as a function of another Tensor, "
                             "compute the value in the forward() method.")
        self._parameters[name] = param

    def register_buffer(self, name, tensor, persistent=True):
        """A tensor that is part of the module's state but is not trained; in ``state_dict`` unless
        ``persistent=False``."""
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        self._check_name(name, "buffer", self._buffers)
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"cannot assign '{type_name(tensor)}' object to buffer '{name}' "
                            "(torch Tensor or None required)")
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def add_module(self, name, module):
        """Add a child module under ``name`` (what ``self.name = module`` does)."""
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{type_name(module)} is not a Module subclass")
        self._check_name(name, "module", self._modules)
        self._modules[name] = module

    register_module = add_module

    def _check_name(self, name, kind, registry):
        if not isinstance(name, str):
            raise TypeError(f"{kind} name should be a string. Got {type_name(name)}")
        if "." in name:
            raise KeyError(f'{kind} name can\'t contain "."')
        if name == "":
            raise KeyError(f'{kind} name can\'t be empty string ""')
        if hasattr(self, name) and name not in registry:
            raise KeyError(f"attribute '{name}' already exists")

    # --------------------------------------------------------------- walking
    def named_modules(self, memo=None, prefix="", remove_duplicate=True):
        """This module and all below it, each once, as (dotted name, module), depth first."""
        memo = set() if memo is None else memo
        if self in memo:
            return
        if remove_duplicate:
            memo.add(self)
        yield prefix, self
        for name, module in self._modules.items():
            if module is not None:
                yield from module.named_modules(memo, prefix + ("." if prefix else "") + name,
                                                remove_duplicate)

    def modules(self):
        for _, module in self.named_modules():
            yield module

    def named_children(self):
        """The direct submodules, as (name, module)."""
        seen = set()
        for name, module in self._modules.items():
            if module is not None and module not in seen:
                seen.add(module)
                yield name, module

    def children(self):
        for _, module in self.named_children():
            yield module

    def named_parameters(self, prefix="", recurse=True, remove_duplicate=True):
        """Every parameter as (dotted name, parameter), e.g. ``('0.weight', Parameter ...)``.

        A parameter shared by two layers is listed once (unless ``remove_duplicate=False``).
        """
        modules = (self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) if recurse
                   else [(prefix, self)])
        seen = set()
        for module_prefix, module in modules:
            for name, param in module._parameters.items():
                if param is None or (remove_duplicate and param in seen):
                    continue
                seen.add(param)
                yield module_prefix + ("." if module_prefix else "") + name, param

    def parameters(self, recurse=True):
        """Every parameter: what you hand to an optimizer."""
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_buffers(self, prefix="", recurse=True):
        modules = self.named_modules(prefix=prefix) if recurse else [(prefix, self)]
        for module_prefix, module in modules:
            for name, buffer in module._buffers.items():
                if buffer is not None:
                    yield module_prefix + ("." if module_prefix else "") + name, buffer

    def buffers(self, recurse=True):
        for _, buffer in self.named_buffers(recurse=recurse):
            yield buffer

    def apply(self, fn):
        """Call ``fn`` on every submodule (children first) and on this module; returns self."""
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    # ------------------------------------------------------------- training
    def train(self, mode=True):
        """Set training mode (``self.training``) here and in every submodule; returns self."""
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        for module in self.modules():
            object.__setattr__(module, "training", mode)
        return self

    def eval(self):
        """Evaluation mode: ``train(False)``. It does not turn off autograd (``no_grad`` does)."""
        return self.train(False)

    # ------------------------------------------------------ dtype and device
    def _apply(self, fn):
        """Convert every parameter, gradient and buffer with ``fn``, here and in every submodule.

        A parameter stays the same object (its ``.data`` is replaced), so an optimizer made
        before still holds it, as in PyTorch (torch/nn/modules/module.py: Module._apply).
        """
        for module in self.children():
            module._apply(fn)
        for param in self._parameters.values():
            if param is None:
                continue
            with grad_mode.no_grad():
                param.data = fn(param)
            if param._grad is not None:
                with grad_mode.no_grad():
                    param._grad.data = fn(param._grad)
        for key, buffer in self._buffers.items():
            if buffer is not None:
                self._buffers[key] = fn(buffer)
        return self

    def to(self, *args, **kwargs):
        """``model.to(torch.float64)``, ``model.to("cpu")``, ``model.to(device, dtype)``: converts the
        floating-point parameters and buffers in place and returns the module."""
        dtype = kwargs.pop("dtype", None)
        device = kwargs.pop("device", None)
        kwargs.pop("non_blocking", None)
        if kwargs:
            raise TypeError(f"to() received an invalid combination of arguments - got an unexpected "
                            f"keyword argument '{next(iter(kwargs))}'")
        for arg in args:
            if isinstance(arg, _dtype.dtype):
                dtype = arg
            elif isinstance(arg, Tensor):
                dtype = arg.dtype
            elif not isinstance(arg, bool):
                device = arg
        check_device(device)
        if dtype is not None and not dtype.is_floating_point:
            raise TypeError(f"nn.Module.to only accepts floating point or complex dtypes, but got desired "
                            f"dtype={dtype}")
        if dtype is None:
            return self
        return self._apply(lambda t: t.to(dtype) if t.is_floating_point() else t)

    def float(self):
        return self._apply(lambda t: t.float() if t.is_floating_point() else t)

    def double(self):
        return self._apply(lambda t: t.double() if t.is_floating_point() else t)

    def cpu(self):
        return self

    def cuda(self, device=None):
        check_device("cuda")

    def requires_grad_(self, requires_grad=True):
        for param in self.parameters():
            param.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none=True):
        """Forget every parameter's gradient: ``.grad = None`` (default), or fill it with zeros."""
        from ..optim.optimizer import forget_grad
        for param in self.parameters():
            forget_grad(param, set_to_none)

    # ----------------------------------------------------------------- state
    # The version of this class's state dict (torch/nn/modules/module.py: Module._version). state_dict()
    # keeps it per module in ``state_dict._metadata``; a class that changed its state raises it, and
    # ``_load_from_state_dict`` brings older ones up to date (batch norm's ``num_batches_tracked``).
    _version = 1

    def state_dict(self, destination=None, prefix="", keep_vars=False):
        """Every parameter and buffer by dotted name, detached (they share the module's data); its
        ``_metadata`` has each module's ``{"version": ...}``, by dotted name, as PyTorch's has."""
        if destination is None:
            destination = collections.OrderedDict()
            destination._metadata = collections.OrderedDict()
        if hasattr(destination, "_metadata"):
            destination._metadata[prefix[:-1]] = {"version": self._version}
        for name, value in self._local_state().items():
            destination[prefix + name] = value if keep_vars else value.detach()
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(destination, prefix + name + ".", keep_vars)
        return destination

    def _local_state(self):
        """This module's own parameters and persistent buffers (not None), by name."""
        non_persistent = self.__dict__.get("_non_persistent_buffers_set", ())
        buffers = [(name, value) for name, value in self._buffers.items() if name not in non_persistent]
        return {name: value for name, value in itertools.chain(self._parameters.items(), buffers)
                if value is not None}

    def load_state_dict(self, state_dict, strict=True):
        """Copy values from ``state_dict`` into the parameters and buffers, in place, under no_grad.

        With ``strict`` a missing or unexpected key is an error; shapes must match. Each module
        loads its own part (``_load_from_state_dict``), given its version from ``state_dict._metadata``:
        a plain ``dict`` has none, and is taken as a checkpoint of before the versions, as in PyTorch.
        """
        if not isinstance(state_dict, collections.abc.Mapping):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        missing, unexpected, errors = [], [], []
        metadata = getattr(state_dict, "_metadata", None)
        state_dict = collections.OrderedDict(state_dict)       # a copy: modules may add keys to it

        def load(module, local_state_dict, prefix=""):
            local_metadata = {} if metadata is None else metadata.get(prefix[:-1], {})
            module._load_from_state_dict(local_state_dict, prefix, local_metadata, True, missing, unexpected,
                                         errors)
            for name, child in module._modules.items():
                if child is not None:
                    child_prefix = prefix + name + "."
                    load(child, {k: v for k, v in local_state_dict.items() if k.startswith(child_prefix)},
                         child_prefix)

        load(self, state_dict)
        if strict:
            if unexpected:
                errors.insert(0, "Unexpected key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in unexpected)))
            if missing:
                errors.insert(0, "Missing key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in missing)))
        if errors:
            raise RuntimeError("Error(s) in loading state_dict for {}:\n\t{}".format(
                type(self).__name__, "\n\t".join(errors)))
        return _IncompatibleKeys(missing, unexpected)

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                              error_msgs):
        """Copy this module's own parameters and buffers (not its children's) from ``state_dict``, noting
        what is missing, unexpected or wrong; a subclass may first bring an older state dict up to date
        (``local_metadata.get("version")``). PyTorch counterpart: Module._load_from_state_dict."""
        local_state = self._local_state()
        for name, param in local_state.items():
            key = prefix + name
            if key not in state_dict:
                if strict:
                    missing_keys.append(key)
                continue
            value = state_dict[key]
            if not isinstance(value, Tensor):
                error_msgs.append(f'While copying the parameter named "{key}", expected torch.Tensor or '
                                  f"Tensor-like object from checkpoint but received {type(value)}")
                continue
            if param.ndim == 0 and value.shape == (1,):
                value = value[0]                        # a one-element checkpoint for a 0-d tensor
            if value.shape != param.shape:
                error_msgs.append(f"size mismatch for {key}: copying a param with shape {value.shape} from "
                                  f"checkpoint, the shape in current model is {param.shape}.")
                continue
            try:
                with grad_mode.no_grad():
                    param.copy_(value)
            except Exception as ex:
                error_msgs.append(f'While copying the parameter named "{key}", whose dimensions in the model '
                                  f"are {param.size()} and whose dimensions in the checkpoint are "
                                  f"{value.size()}, an exception occurred : {ex.args}.")
        if strict:
            for key in state_dict:
                if key.startswith(prefix):
                    name = key[len(prefix):].split(".", 1)
                    if (name[0] not in self._modules) if len(name) > 1 else (name[0] not in local_state):
                        unexpected_keys.append(key)

    # ----------------------------------------------------------------- repr
    def extra_repr(self):
        """The module's own settings, shown inside its parentheses (e.g. ``in_features=2``)."""
        return ""

    def _get_name(self):
        return type(self).__name__

    def __repr__(self):
        extra_lines = self.extra_repr().split("\n") if self.extra_repr() else []
        child_lines = [f"({name}): {_addindent(repr(module), 2)}" for name, module in self._modules.items()]
        lines = extra_lines + child_lines
        text = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                text += extra_lines[0]
            else:
                text += "\n  " + "\n  ".join(lines) + "\n"
        return text + ")"
