"""``torch.backends.mps``: Apple's GPU back end, not available here."""


def is_available():
    return False


def is_built():
    return False
