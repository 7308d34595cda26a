"""torch.storage.TypedStorage: a tensor's storage, element by element, as PyTorch's x.storage() gives it.

It shares the tensor's memory: writes through either are seen by the other. Elements are read and
written through a 1-D tensor over the whole storage (torch._C._storage_tensor), so every device and
dtype works the way tensors do.
"""
import torch
from torch import _C

_LEGACY_NAMES = {
    torch.float32: 'Float', torch.float64: 'Double', torch.float16: 'Half', torch.bfloat16: 'BFloat16',
    torch.int64: 'Long', torch.int32: 'Int', torch.int16: 'Short', torch.int8: 'Char', torch.uint8: 'Byte',
    torch.bool: 'Bool',
}


class TypedStorage:
    is_sparse = False

    def __init__(self, tensor):
        self._t = _C._storage_tensor(tensor)

    @property
    def dtype(self):
        return self._t.dtype

    @property
    def device(self):
        return self._t.device

    @property
    def is_cuda(self):
        return self._t.device.type == 'cuda'

    def __len__(self):
        return self._t.shape[0]

    def size(self):
        return len(self)

    def nbytes(self):
        return len(self) * self.element_size()

    def element_size(self):
        return self._t.element_size()

    def data_ptr(self):
        return self._t.data_ptr()

    def _index(self, idx):
        if isinstance(idx, slice):
            raise RuntimeError('slices are only supported in UntypedStorage.__getitem__')
        if not isinstance(idx, int):
            raise RuntimeError("can't index a %s with %s" % (type(self), type(idx)))
        n = len(self)
        if idx >= n or idx < -n:
            raise IndexError('index %d out of range for storage of size %d' % (idx, n))
        return idx + n if idx < 0 else idx

    def __getitem__(self, idx):
        return self._t[self._index(idx)].item()

    def __setitem__(self, idx, value):
        self._t[self._index(idx)] = value

    def __iter__(self):
        return iter(self.tolist())

    def tolist(self):
        return self._t.tolist()

    def type(self, dtype=None, non_blocking=False):
        if dtype is None:
            return 'torch.%sStorage' % _LEGACY_NAMES[self.dtype]
        return self._t.type(dtype, non_blocking).storage()

    def pickle_storage_type(self):
        return '%sStorage' % _LEGACY_NAMES[self.dtype]

    def is_shared(self):
        return False

    def is_pinned(self):
        return False

    def fill_(self, value):
        self._t.fill_(value)
        return self

    def copy_(self, source, non_blocking=False):
        self._t.copy_(source._t if isinstance(source, TypedStorage) else source)
        return self

    def clone(self):
        return TypedStorage(self._t.clone())

    def cpu(self):
        return self if self.device.type == 'cpu' else TypedStorage(self._t.cpu())

    def _to(self, dtype):
        return self if dtype == self.dtype else TypedStorage(self._t.to(dtype))

    def __str__(self):
        info = '[torch.storage.TypedStorage(dtype=%s, device=%s) of size %d]' % (self.dtype, self.device, len(self))
        if self.device.type == 'meta':
            return '...\n' + info
        return ' ' + '\n '.join(str(v) for v in self.tolist()) + '\n' + info

    __repr__ = __str__

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        return memo.setdefault(id(self), self.clone())


# s.float(), s.long(), ...: conversions named after their dtype, as on tensors.
for _name, _dtype in (('float', torch.float32), ('double', torch.float64), ('half', torch.float16),
                      ('bfloat16', torch.bfloat16), ('long', torch.int64), ('int', torch.int32),
                      ('short', torch.int16), ('char', torch.int8), ('byte', torch.uint8), ('bool', torch.bool)):
    setattr(TypedStorage, _name, (lambda dtype: lambda self: self._to(dtype))(_dtype))
del _name, _dtype

TypedStorage.__module__ = 'torch.storage'
