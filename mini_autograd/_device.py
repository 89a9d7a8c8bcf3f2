"""``torch.device``, and the switches that tell a program there is no GPU here.

mini_autograd computes on the CPU only. Programs written for PyTorch pick a
device (``torch.device("cuda" if torch.cuda.is_available() else "cpu")``) and
pass ``device=`` to the functions that make tensors: those run unchanged, on the
CPU. Asking for another device raises what a CPU-only PyTorch raises.

PyTorch counterpart: c10/core/Device.h (``torch.device``), torch/cuda/__init__.py.
"""
import re

DEVICE_TYPES = ("cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve", "fpga",
                "maia", "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia", "privateuseone")


class device:
    """Where a tensor lives: ``device("cpu")``, ``device("cuda", 0)``, ``device("cuda:0")``."""

    __slots__ = ("type", "index")

    def __init__(self, type, index=None):
        if isinstance(type, device):
            if index is not None:
                raise TypeError("device(): argument 'type' must be str, not torch.device")
            type, index = type.type, type.index
        elif isinstance(type, int) and not isinstance(type, bool):
            type, index = "cuda", type
        elif not isinstance(type, str):
            raise TypeError(f"device() received an invalid combination of arguments - got "
                            f"({builtin_type(type).__name__})")
        else:
            match = re.fullmatch(r"([a-z_]+)(?::(\d+))?", type)
            name = match.group(1) if match else type
            if name not in DEVICE_TYPES:
                raise RuntimeError(f"Expected one of {', '.join(DEVICE_TYPES)} device type at start of "
                                   f"device string: {type}")
            if match.group(2) is not None:
                if index is not None:
                    raise RuntimeError(f"type (string) must not include an index because index was passed "
                                       f"explicitly: {type}")
                index = int(match.group(2))
            type = name
        if index is not None and index < 0:
            raise RuntimeError(f"Device index must not be negative, got {index}")
        object.__setattr__(self, "type", type)
        object.__setattr__(self, "index", index)

    def __setattr__(self, name, value):
        raise AttributeError(f"attribute '{name}' of 'torch.device' objects is not writable")

    def __repr__(self):
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __str__(self):
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other):
        return isinstance(other, device) and (self.type, self.index) == (other.type, other.index)

    def __hash__(self):
        return hash((self.type, self.index))

    def __reduce__(self):
        return (device, (self.type, self.index))


builtin_type = type
CPU = device("cpu")


def check_device(value):
    """The device to make a tensor on: only the CPU is here (``None`` means the default, the CPU)."""
    if value is None or value is CPU:
        return CPU
    dev = value if isinstance(value, device) else device(value)
    if dev.type == "cpu":
        return CPU
    if dev.type == "cuda":
        raise AssertionError("Torch not compiled with CUDA enabled")
    raise RuntimeError(f"mini_autograd computes on the CPU only; it cannot make tensors on {dev}")


def set_default_device(value):
    """Only the CPU can be the default device here (``torch.set_default_device("cpu")`` works)."""
    check_device(value)


def get_default_device():
    return CPU
