"""Padding layers over F.pad: constant (ZeroPad2d is constant 0), reflection and replication.
`padding` is one int for every side, or (left, right[, top, bottom[, front, back]])."""
from torch.nn import functional as F
from torch.nn.modules.module import Module
from torch.nn.modules.utils import _ntuple, _pair, _quadruple

__all__ = ['ConstantPad1d', 'ConstantPad2d', 'ConstantPad3d', 'ReflectionPad1d', 'ReflectionPad2d',
           'ReflectionPad3d', 'ReplicationPad1d', 'ReplicationPad2d', 'ReplicationPad3d', 'ZeroPad2d']

_sextuple = _ntuple(6, '_sextuple')


class _ConstantPadNd(Module):
    __constants__ = ['padding', 'value']

    def __init__(self, value):
        super().__init__()
        self.value = value

    def forward(self, input):
        return F.pad(input, self.padding, 'constant', self.value)

    def extra_repr(self):
        return 'padding={}, value={}'.format(self.padding, self.value)


class ConstantPad1d(_ConstantPadNd):
    """Pads the last dim with `value`."""

    def __init__(self, padding, value):
        super().__init__(value)
        self.padding = _pair(padding)


class ConstantPad2d(_ConstantPadNd):
    """Pads the last two dims with `value`."""

    def __init__(self, padding, value):
        super().__init__(value)
        self.padding = _quadruple(padding)


class ConstantPad3d(_ConstantPadNd):
    """Pads the last three dims with `value`."""

    def __init__(self, padding, value):
        super().__init__(value)
        self.padding = _sextuple(padding)


class ZeroPad2d(ConstantPad2d):
    """Pads the last two dims with zeros."""

    def __init__(self, padding):
        super().__init__(padding, 0.)

    def extra_repr(self):
        return '{}'.format(self.padding)


class _ModePadNd(Module):
    """A padding by F.pad's mode `_mode` (a class attribute)."""

    __constants__ = ['padding']
    _mode = None

    def forward(self, input):
        return F.pad(input, self.padding, self._mode)

    def extra_repr(self):
        return '{}'.format(self.padding)


class _ReflectionPadNd(_ModePadNd):
    _mode = 'reflect'


class ReflectionPad1d(_ReflectionPadNd):
    """Pads the last dim with its reflection at the border (the border element not repeated)."""

    def __init__(self, padding):
        super().__init__()
        self.padding = _pair(padding)


class ReflectionPad2d(_ReflectionPadNd):
    """Pads the last two dims with their reflections at the borders."""

    def __init__(self, padding):
        super().__init__()
        self.padding = _quadruple(padding)


class ReflectionPad3d(_ReflectionPadNd):
    """Pads the last three dims with their reflections at the borders."""

    def __init__(self, padding):
        super().__init__()
        self.padding = _sextuple(padding)


class _ReplicationPadNd(_ModePadNd):
    _mode = 'replicate'


class ReplicationPad1d(_ReplicationPadNd):
    """Pads the last dim with copies of its border elements."""

    def __init__(self, padding):
        super().__init__()
        self.padding = _pair(padding)


class ReplicationPad2d(_ReplicationPadNd):
    """Pads the last two dims with copies of their border elements."""

    def __init__(self, padding):
        super().__init__()
        self.padding = _quadruple(padding)


class ReplicationPad3d(_ReplicationPadNd):
    """Pads the last three dims with copies of their border elements."""

    def __init__(self, padding):
        super().__init__()
        self.padding = _sextuple(padding)
