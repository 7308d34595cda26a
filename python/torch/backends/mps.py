"""torch.backends.mps: Apple's Metal backend, which this project does not have."""


def is_built():
    """Whether this build has MPS support: no."""
    return False


def is_available():
    """Whether MPS can be used here: no."""
    return False
