"""torch.backends.mkldnn: PyTorch's oneDNN switch. This project links no oneDNN: is_available() is False;
`enabled` keeps its value (and PyTorch's type check) but no kernel reads it."""
import sys

from torch.backends import _Flag, _FlagModule, _flags_block


def is_available():
    return False


def set_flags(_enabled):
    return sys.modules[__name__]._set_flags(enabled=_enabled)


def flags(enabled=False):
    return _flags_block(set_flags, enabled)


class _MkldnnModule(_FlagModule):
    enabled = _Flag('set_enabled_mkldnn', True)


sys.modules[__name__].__class__ = _MkldnnModule
