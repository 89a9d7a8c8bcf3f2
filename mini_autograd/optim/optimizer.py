"""``Optimizer``: holds parameter groups and per-parameter state; subclasses define ``step``.

PyTorch counterpart: torch/optim/optimizer.py.
"""
import collections
import warnings

from .. import grad_mode
from .._tensor import Tensor, type_name


def forget_grad(param, set_to_none=True):
    """``param.grad = None``, or its gradient filled with zeros (for ``zero_grad``).

    Filling keeps the same tensor, so it is first cut from any graph that made it
    (``create_graph=True`` gives gradients a ``grad_fn``).
    """
    grad = param._grad
    if grad is None:
        return
    if set_to_none:
        param.grad = None
        return
    if grad.grad_fn is not None:
        grad.detach_()
    else:
        grad.requires_grad_(False)
    with grad_mode.no_grad():
        grad.zero_()


class Optimizer:
    """Base class: ``param_groups`` (a list of dicts: ``params`` plus settings such as ``lr``)
    and ``state`` (a dict from parameter to its running values, e.g. a momentum buffer).
    """

    def __init__(self, params, defaults):
        self.defaults = defaults
        if isinstance(params, Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of Tensors or "
                            "dicts, but got " + type_name(params))
        self.state = collections.defaultdict(dict)
        self.param_groups = []
        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for group in param_groups:
            self.add_param_group(group)

    def add_param_group(self, param_group):
        """Add a group of parameters with settings of its own (missing ones come from ``defaults``)."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")
        params = param_group["params"]
        if isinstance(params, Tensor):
            params = [params]
        elif isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, but the "
                            "ordering of tensors in sets will change between runs. "
                            "Please use a list instead.")
        param_group["params"] = list(params)
        for param in param_group["params"]:
            if not isinstance(param, Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is "
                                + type_name(param))
            if not (param.is_leaf or param.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            param_group.setdefault(name, default)
        if len(param_group["params"]) != len(set(param_group["params"])):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; in future, "
                          "this will cause an error; see github.com/pytorch/pytorch/issues/40967 for "
                          "more information", UserWarning, stacklevel=3)
        for group in self.param_groups:
            if not set(group["params"]).isdisjoint(param_group["params"]):
                raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    def zero_grad(self, set_to_none=True):
        """Forget the gradients: ``.grad = None`` (the default) or fill them with zeros."""
        for group in self.param_groups:
            for param in group["params"]:
                forget_grad(param, set_to_none)

    def _params_with_grad(self, group):
        """Each parameter of ``group`` that has a gradient, with that gradient (negated to ``maximize``)."""
        for param in group["params"]:
            if param.grad is not None:
                yield param, (-param.grad if group["maximize"] else param.grad)

    def step(self, closure=None):
        """Update every parameter that has a ``.grad``; the subclass says how."""
        raise NotImplementedError

    def _run_closure(self, closure):
        if closure is None:
            return None
        with grad_mode.enable_grad():
            return closure()

    # ----------------------------------------------------------------- state
    def state_dict(self):
        """The settings and state, with each parameter replaced by its index (0, 1, ...)."""
        index_of = {}
        packed_groups = []
        for group in self.param_groups:
            packed = {key: value for key, value in group.items() if key != "params"}
            for param in group["params"]:
                index_of.setdefault(id(param), len(index_of))
            packed["params"] = [index_of[id(param)] for param in group["params"]]
            packed_groups.append(packed)
        packed_state = {index_of[id(param)]: value for param, value in self.state.items()}
        return {"state": packed_state, "param_groups": packed_groups}

    def load_state_dict(self, state_dict):
        """Restore what ``state_dict()`` returned; its state tensors are used as they are, not copied (as
        PyTorch uses them: converted to the parameter's dtype only if it differs)."""
        groups, saved_groups = self.param_groups, state_dict["param_groups"]
        if len(groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(g["params"]) != len(s["params"]) for g, s in zip(groups, saved_groups, strict=True)):
            raise ValueError("loaded state dict contains a parameter group that doesn't match the size "
                             "of optimizer's group")
        param_of = {index: param for group, saved in zip(groups, saved_groups, strict=True)
                    for index, param in zip(saved["params"], group["params"], strict=True)}
        self.state = collections.defaultdict(dict)
        for index, values in state_dict["state"].items():
            if index in param_of:
                param = param_of[index]
                self.state[param] = {key: _cast(param, key, value) for key, value in values.items()}
        for group, saved in zip(groups, saved_groups, strict=True):
            group.update({key: value for key, value in saved.items() if key != "params"})

    def __repr__(self):
        text = type(self).__name__ + " ("
        for i, group in enumerate(self.param_groups):
            text += f"\nParameter Group {i}\n"
            for key in sorted(group):
                if key != "params":
                    text += f"    {key}: {group[key]}\n"
        return text + ")"

    def _check_unsupported(self, **flags):
        for name, value in flags.items():
            if value:
                raise NotImplementedError(f"mini_autograd's optimizers have no {name}=True mode")


def _cast(param, key, value):
    """A loaded state value as PyTorch keeps it (torch/optim/optimizer.py,
    Optimizer._process_value_according_to_param_policy): ``step`` as it is, other tensors converted to
    a floating-point parameter's dtype, which leaves them the same tensors when it matches (no copy)."""
    if not isinstance(value, Tensor) or key == "step" or not param.is_floating_point():
        return value
    return value.to(param.dtype)
