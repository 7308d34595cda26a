"""torch.backends: what the core loaded (plugins) and the BLAS provider in use."""
from torch import _C
from torch.backends import blas  # noqa: F401


def plugins():
    """Every plugin found: dicts with name, kind, version, path, state and reason."""
    return _C._plugins()
