"""``torch.backends``: the GPU back ends, none of which is available here."""
from . import cuda, mps  # noqa: F401
