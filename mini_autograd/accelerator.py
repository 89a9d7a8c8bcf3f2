"""``torch.accelerator``: no accelerator here (PyTorch 2.6+ programs ask this instead of ``cuda``)."""


def is_available():
    return False


def current_accelerator(check_available=False):
    return None


def device_count():
    return 0
