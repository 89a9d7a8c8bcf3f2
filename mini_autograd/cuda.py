"""``torch.cuda``: there is no GPU here, and programs that ask are told so."""


def is_available():
    return False


def device_count():
    return 0


def manual_seed(seed):
    """Seeding the (absent) GPU's generators does nothing, as in PyTorch without CUDA."""


def manual_seed_all(seed):
    """Seeding the (absent) GPUs' generators does nothing."""
