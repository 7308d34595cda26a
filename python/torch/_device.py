"""torch.device: a (type, index) pair, as PyTorch spells it."""
from torch import _C


class device:
    __slots__ = ('type', 'index')

    def __init__(self, type, index=None):
        if isinstance(type, device):
            self.type, self.index = type.type, type.index
            return
        if isinstance(type, int) and not isinstance(type, bool) and index is None:
            type, index = 'cuda', type  # torch.device(1) is cuda:1, as in PyTorch
        if not isinstance(type, str):
            raise TypeError('device() received an invalid combination of arguments - got (%s)'
                            % builtins_type_name(type))
        if ':' in type:
            if index is not None:
                raise ValueError("type (string) must not include an index because index was passed explicitly: "
                                 + type)
            type, _, text = type.partition(':')
            if not text.isdigit():
                raise RuntimeError('Invalid device string: %r' % (type + ':' + text))
            index = int(text)
        if index is not None and (not isinstance(index, int) or index < 0):
            raise RuntimeError('Device index must not be negative')
        if not _C._is_device_type(type):
            # cpu, cuda, or a type some plugin registers (or failed to, then using it says why)
            raise RuntimeError('Expected one of cpu, cuda device type at start of device string: ' + type)
        self.type, self.index = type, index

    def __repr__(self):
        if self.index is None:
            return "device(type=%r)" % self.type
        return "device(type=%r, index=%d)" % (self.type, self.index)

    def __str__(self):
        return self.type if self.index is None else '%s:%d' % (self.type, self.index)

    def __eq__(self, other):
        return isinstance(other, device) and self.type == other.type and self.index == other.index

    def __hash__(self):
        return hash((self.type, self.index))

    def __reduce__(self):
        # (torch.device, ('cpu',)) or (torch.device, ('cuda', 1)), as PyTorch pickles devices; the type
        # is a new string, as PyTorch's is, so that pickle memoizes it apart from other equal strings
        # (such as torch.save's location 'cpu') and the bytes come out the same
        type_name = ''.join(self.type)
        if self.index is None:
            return (device, (type_name,))
        return (device, (type_name, self.index))


device.__module__ = 'torch'  # <class 'torch.device'>; pickles name it torch.device


def builtins_type_name(obj):
    return type(obj).__name__
