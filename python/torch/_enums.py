"""torch.layout and torch.memory_format: small named values the op bindings understand (each carries
the core's integer id as `_value`)."""


class _Enum:
    __slots__ = ('name', '_value')

    def __init__(self, name, value):
        self.name = name
        self._value = value

    def __repr__(self):
        return 'torch.' + self.name

    def __reduce__(self):
        return self.name  # pickled by reference to torch.<name>


class layout(_Enum):
    """How a tensor's elements are stored: torch.strided, or a layout a plugin provides."""


class memory_format(_Enum):
    """The order of a tensor's elements in memory for creation and conversion functions."""


strided = layout('strided', 0)
sparse_coo = layout('sparse_coo', 1)
preserve_format = memory_format('preserve_format', 0)
contiguous_format = memory_format('contiguous_format', 1)
channels_last = memory_format('channels_last', 2)
channels_last_3d = memory_format('channels_last_3d', 3)
legacy_contiguous_format = contiguous_format  # PyTorch's alias (torch.legacy_contiguous_format)

_layouts = {0: strided, 1: sparse_coo}
_memory_formats = {f._value: f for f in (preserve_format, contiguous_format, channels_last, channels_last_3d)}


def layout_of(value):
    return _layouts.get(value) or layout('layout%d' % value, value)


def memory_format_of(value):
    return _memory_formats[value]
