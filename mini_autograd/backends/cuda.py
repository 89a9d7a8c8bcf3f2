"""``torch.backends.cuda``: not built here."""


def is_built():
    return False
