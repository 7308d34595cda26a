"""torch.backends.mkldnn: PyTorch's oneDNN switch. This project links no oneDNN: is_available() is False;
`enabled` keeps its value (and PyTorch's type check) but no kernel reads it."""
import contextlib
import sys

from torch.backends import _Flag, _FlagModule


def is_available():
    return False


def set_flags(_enabled):
    return sys.modules[__name__]._set_flags(enabled=_enabled)


@contextlib.contextmanager
def flags(enabled=False):
    old = set_flags(enabled)
    try:
        yield
    finally:
        set_flags(*old)


class _MkldnnModule(_FlagModule):
    enabled = _Flag('set_enabled_mkldnn', True)


sys.modules[__name__].__class__ = _MkldnnModule
