"""Storages: the memory under tensors, as PyTorch 1.13's Python sees it.

torch.storage.TypedStorage is a tensor's storage element by element (x.storage()); UntypedStorage is
the same memory as bytes (s.untyped()); torch.FloatStorage, torch.LongStorage, ... are the legacy
per-dtype classes, which pickles name (torch.save writes `torch.FloatStorage` into its data.pkl).
All of them share the tensor's memory: writes through either are seen by the other. Elements are
read and written through a 1-D tensor over the whole storage (torch._C._storage_tensor), so every
device and dtype works the way tensors do; _cdata names the storage itself (torch._C._storage_id),
the same for every tensor and storage object over it.
"""
import collections.abc
import io

import torch
from torch import _C

_LEGACY_NAMES = {
    torch.float32: 'Float', torch.float64: 'Double', torch.float16: 'Half', torch.bfloat16: 'BFloat16',
    torch.int64: 'Long', torch.int32: 'Int', torch.int16: 'Short', torch.int8: 'Char', torch.uint8: 'Byte',
    torch.bool: 'Bool',
}

# complex storages, where the build has complex dtypes (complex32 has no legacy class in PyTorch either)
for _dtype_name, _name in (('complex64', 'ComplexFloat'), ('complex128', 'ComplexDouble')):
    if isinstance(getattr(torch, _dtype_name, None), torch.dtype):
        _LEGACY_NAMES[getattr(torch, _dtype_name)] = _name
del _dtype_name, _name

# The storage types PyTorch 1.13 pickles whose dtypes this build lacks (loading them says so).
_UNSUPPORTED_STORAGE_TYPES = {
    name + 'Storage': dtype_name for name, dtype_name in (
        ('ComplexDouble', 'complex128'), ('ComplexFloat', 'complex64'), ('QInt8', 'qint8'), ('QInt32', 'qint32'),
        ('QUInt8', 'quint8'), ('QUInt4x2', 'quint4x2'), ('QUInt2x4', 'quint2x4'))
    if name not in _LEGACY_NAMES.values()}


def _dtype_to_storage_type_map():
    """{torch.float32: 'FloatStorage', ...}: the legacy class name each dtype pickles as."""
    return {dtype: name + 'Storage' for dtype, name in _LEGACY_NAMES.items()}


def _storage_type_to_dtype_map():
    return {name + 'Storage': dtype for dtype, name in _LEGACY_NAMES.items()}


def _get_dtype_from_pickle_storage_type(pickle_storage_type):
    try:
        return _storage_type_to_dtype_map()[pickle_storage_type]
    except KeyError:
        if pickle_storage_type in _UNSUPPORTED_STORAGE_TYPES:
            raise RuntimeError('pickle storage type "%s" holds %s elements, which this build does not support'
                               % (pickle_storage_type, _UNSUPPORTED_STORAGE_TYPES[pickle_storage_type])) from None
        raise KeyError('pickle storage type "%s" is not recognized' % pickle_storage_type) from None


def _load_from_bytes(b):
    """What a pickled storage unpickles through: torch.load of the legacy file it carries."""
    return torch.load(io.BytesIO(b))


def _new_storage_tensor(size, dtype, device):
    return _C._storage_tensor(torch.empty(size, dtype=dtype, device=device))


def _is_int(x):
    return isinstance(x, int) and not isinstance(x, bool)


class _StorageMixin:
    """What typed and untyped storages share; self._t is a 1-D tensor over the whole storage."""
    is_sparse = False

    @property
    def device(self):
        return self._t.device

    @property
    def is_cuda(self):
        return self._t.device.type == 'cuda'

    @property
    def _cdata(self):
        return _C._storage_id(self._t)

    def __len__(self):
        return self._t.shape[0]

    def size(self):
        return len(self)

    def element_size(self):
        return self._t.element_size()

    def nbytes(self):
        return len(self) * self.element_size()

    def data_ptr(self):
        return self._t.data_ptr()

    def is_shared(self):
        """Whether the bytes live in a shared-memory segment (share_memory_, torch.multiprocessing)."""
        return _C._shm_info(self._t) is not None

    def share_memory_(self):
        """Moves the bytes into shared memory in place, by the current sharing strategy of
        torch.multiprocessing (a memfd, or a named /dev/shm segment); a no-op when already there and
        for CUDA storages."""
        if self.device.type == 'cpu':
            from torch.multiprocessing import _share
            _share(self._t)
        return self

    def is_pinned(self):
        return False

    def _new_shared(self, size):
        """A new storage like this one (class and dtype) of `size` elements in shared memory: what a
        DataLoader worker collates a batch into."""
        from torch.multiprocessing import _new_shared
        untyped = UntypedStorage(_new_shared(size * self.element_size()))
        return untyped if isinstance(self, UntypedStorage) else self._new_wrapped_storage(untyped)

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

    def fill_(self, value):
        self._t.fill_(value)
        return self

    def copy_(self, source, non_blocking=False):
        self._t.copy_(source._t if isinstance(source, _StorageMixin) else source)
        return self

    def __reduce__(self):
        # a pickled storage carries a legacy torch.save file of itself, as in PyTorch
        b = io.BytesIO()
        torch.save(self, b, _use_new_zipfile_serialization=False)
        return (_load_from_bytes, (b.getvalue(),))

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        # one copy per storage within one deepcopy, whichever storage objects and tensors lead to it
        copies = memo.setdefault('torch', {})
        key = self._cdata
        if key not in copies:
            copies[key] = self.untyped().clone()
        return self._wrap_copy(copies[key])


class UntypedStorage(_StorageMixin):
    """A storage's bytes. UntypedStorage(nbytes), UntypedStorage(sequence of byte values), or the
    bytes under a typed storage (s.untyped())."""

    def __init__(self, *args, device=None):
        if len(args) == 1 and isinstance(args[0], torch.Tensor):
            self._t = _C._storage_tensor(args[0], torch.uint8)  # the storage under a tensor (internal)
            return
        if len(args) > 1:
            raise TypeError('UntypedStorage(): expected at most one argument (size or data), got %d' % len(args))
        device = torch.device('cpu' if device is None else device)
        if not args:
            self._t = _new_storage_tensor(0, torch.uint8, device)
        elif _is_int(args[0]):
            self._t = _new_storage_tensor(args[0], torch.uint8, device)
        elif isinstance(args[0], collections.abc.Sequence):
            self._t = _C._storage_tensor(torch.tensor(list(args[0]), dtype=torch.uint8).to(device))
        else:
            raise TypeError('UntypedStorage(): expected a size or a sequence, got %s' % type(args[0]).__name__)

    @property
    def dtype(self):
        return torch.uint8

    def untyped(self):
        return self

    def _wrap_copy(self, untyped):
        return untyped

    def clone(self):
        return UntypedStorage(self._t.clone())

    def cpu(self):
        return self if self.device.type == 'cpu' else UntypedStorage(self._t.cpu())

    def cuda(self, device=None, non_blocking=False):
        target = torch.device('cuda', device) if _is_int(device) else torch.device(device or 'cuda')
        if self._t.device == target:
            return self
        return UntypedStorage(self._t.to(target, non_blocking=non_blocking))

    def type(self, dtype=None, non_blocking=False):
        if dtype is None:
            return 'torch.storage.UntypedStorage'
        raise RuntimeError('UntypedStorage.type(dtype) is not supported')

    def __str__(self):
        info = '[torch.storage.UntypedStorage(device=%s) of size %d]' % (self.device, len(self))
        if self.device.type == 'meta':
            return '...\n' + info
        return ' ' + '\n '.join(str(v) for v in self.tolist()) + '\n' + info

    __repr__ = __str__


class TypedStorage(_StorageMixin):
    """A storage seen as elements of one dtype. TypedStorage(size, dtype=, device=),
    TypedStorage(sequence, dtype=, device=), TypedStorage(wrap_storage=untyped, dtype=)."""

    def __init__(self, *args, device=None, dtype=None, wrap_storage=None):
        if len(args) == 1 and isinstance(args[0], torch.Tensor) and wrap_storage is None:
            self._t = _C._storage_tensor(args[0], dtype)  # the storage under a tensor (x.storage())
            return
        dtype = self._class_dtype(dtype)
        if wrap_storage is not None:
            if args:
                raise RuntimeError("TypedStorage.__init__: no positional arguments should be given when using "
                                   "'wrap_storage'")
            if not isinstance(wrap_storage, UntypedStorage):
                raise TypeError("TypedStorage.__init__: argument 'wrap_storage' must be UntypedStorage, but got %s"
                                % type(wrap_storage))
            if device is not None:
                raise RuntimeError("TypedStorage.__init__: argument 'device' should not be specified when "
                                   "'wrap_storage' is given")
            self._t = _C._storage_tensor(wrap_storage._t, dtype)
            return
        device = torch.device(self._class_device() if device is None else device)
        if len(args) > 1:
            raise RuntimeError('TypedStorage.__init__: too many positional arguments')
        if not args:
            self._t = _new_storage_tensor(0, dtype, device)
        elif _is_int(args[0]):
            self._t = _new_storage_tensor(args[0], dtype, device)
        elif isinstance(args[0], collections.abc.Sequence):
            self._t = _C._storage_tensor(torch.tensor(list(args[0]), dtype=dtype).to(device))
        else:
            raise TypeError('TypedStorage.__init__: argument type not recognized: %s' % type(args[0]))

    def _class_dtype(self, dtype):
        if dtype is None:
            return torch.get_default_dtype()
        if not isinstance(dtype, torch.dtype):
            raise TypeError("TypedStorage.__init__: argument 'dtype' must be torch.dtype, not %s" % type(dtype))
        return dtype

    def _class_device(self):
        return 'cpu'

    @property
    def dtype(self):
        return self._t.dtype

    @property
    def _storage(self):
        return UntypedStorage(self._t)

    def untyped(self):
        """The same memory as bytes."""
        return UntypedStorage(self._t)

    def _wrap_copy(self, untyped):
        return self._new_wrapped_storage(untyped)

    def _new_wrapped_storage(self, untyped_storage):
        if type(self) is TypedStorage:
            return TypedStorage(wrap_storage=untyped_storage, dtype=self.dtype)
        return type(self)(wrap_storage=untyped_storage)

    def type(self, dtype=None, non_blocking=False):
        if dtype is None:
            return 'torch.%sStorage' % _LEGACY_NAMES[self.dtype]
        return self._t.type(dtype, non_blocking).storage()

    def pickle_storage_type(self):
        try:
            return _dtype_to_storage_type_map()[self.dtype]
        except KeyError:
            raise KeyError('dtype %s is not recognized' % self.dtype) from None

    def clone(self):
        return TypedStorage(self._t.clone())

    def cpu(self):
        return self if self.device.type == 'cpu' else TypedStorage(self._t.cpu())

    def cuda(self, device=None, non_blocking=False):
        return TypedStorage(wrap_storage=self.untyped().cuda(device, non_blocking), dtype=self.dtype)

    def _to(self, dtype):
        return self if dtype == self.dtype else TypedStorage(self._t.to(dtype))

    def __str__(self):
        info = '[torch.storage.TypedStorage(dtype=%s, device=%s) of size %d]' % (self.dtype, self.device, len(self))
        if self.device.type == 'meta':
            return '...\n' + info
        return ' ' + '\n '.join(str(v) for v in self.tolist()) + '\n' + info

    __repr__ = __str__


# s.float(), s.long(), ...: conversions named after their dtype, as on tensors.
for _name, _dtype in (('float', torch.float32), ('double', torch.float64), ('half', torch.float16),
                      ('bfloat16', torch.bfloat16), ('long', torch.int64), ('int', torch.int32),
                      ('short', torch.int16), ('char', torch.int8), ('byte', torch.uint8), ('bool', torch.bool)):
    setattr(TypedStorage, _name, (lambda dtype: lambda self: self._to(dtype))(_dtype))
del _name, _dtype


class _LegacyStorageMeta(type):
    """isinstance(x.storage(), torch.FloatStorage) asks the storage's dtype and device, as in PyTorch."""

    def __instancecheck__(cls, instance):
        if type(instance) is TypedStorage:
            return instance.device.type == 'cpu' and instance.dtype == cls.dtype
        return type.__instancecheck__(cls, instance)


class _LegacyStorage(TypedStorage, metaclass=_LegacyStorageMeta):
    """torch.FloatStorage and its siblings: a TypedStorage of a fixed dtype on the CPU.
    FloatStorage(size), FloatStorage(sequence), FloatStorage(wrap_storage=untyped)."""
    dtype = None  # the class's dtype; instances read it through the class

    def __init__(self, *args, wrap_storage=None, device=None, dtype=None):
        if type(self) is _LegacyStorage:
            raise RuntimeError('Only child classes of _LegacyStorage can be instantiated')
        if device is not None:
            raise RuntimeError("%s: keyword argument 'device' cannot be specified" % type(self).__name__)
        if dtype is not None:
            raise RuntimeError("%s: keyword argument 'dtype' cannot be specified" % type(self).__name__)
        if len(args) == 1 and isinstance(args[0], torch.Tensor):
            raise TypeError('%s: argument type not recognized: %s' % (type(self).__name__, type(args[0])))
        super().__init__(*args, wrap_storage=wrap_storage, dtype=type(self).dtype)

    def clone(self):
        return type(self)(wrap_storage=UntypedStorage(self._t.clone()))


_LEGACY_CLASSES = {}
for _dtype, _name in _LEGACY_NAMES.items():
    _LEGACY_CLASSES[_dtype] = _LegacyStorageMeta(_name + 'Storage', (_LegacyStorage,),
                                                  {'dtype': _dtype, '__module__': 'torch'})
del _dtype, _name

for _cls in (TypedStorage, UntypedStorage, _LegacyStorage):
    _cls.__module__ = 'torch.storage'
del _cls
