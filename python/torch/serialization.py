"""torch.save and torch.load in PyTorch's own file formats, so that files move both ways between this
project and PyTorch (see docs/serialization.md).

The zip format (the default since PyTorch 1.6) is an uncompressed zip archive whose records lie in a
folder named after the file (`model` for model.pt, `archive` for a buffer):
  data.pkl   the object, pickled (protocol 2); each storage is a persistent id
             ('storage', storage class, key, location, numel), and each tensor a call of
             torch._utils._rebuild_tensor_v2(storage, offset, size, stride, requires_grad, hooks)
  data/KEY   the bytes of storage KEY ("0", "1", ... in the order the pickle meets them), little-endian
  version    "3\\n"
Every record's data starts on a 64-byte boundary (a padding extra field "FB" of 'Z's, as PyTorch's
writer pads), records carry data descriptors, and the archive ends with zip64 end records: this writer
lays bytes out the way PyTorch's (miniz) does, so the same object gives the same file.

The legacy format (_use_new_zipfile_serialization=False, and what a pickled storage carries) is a
stream of pickles: the magic number, the protocol version, system information, the object (storage
ids with a sixth, view, field), the sorted storage keys, then per storage its element count (int64)
and its bytes.
"""
import copyreg
import inspect
import io
import os
import pickle
import struct
import sys
import warnings
import zlib

import torch
from torch import _C
from torch.storage import TypedStorage, UntypedStorage

DEFAULT_PROTOCOL = 2

LONG_SIZE = struct.Struct('=l').size
INT_SIZE = struct.Struct('=i').size
SHORT_SIZE = struct.Struct('=h').size

MAGIC_NUMBER = 0x1950a86a20f9469cfc6c
PROTOCOL_VERSION = 1001
STORAGE_KEY_SEPARATOR = ','

_ZIP_FORMAT_VERSION = 3  # what PyTorch 1.13 writes into the version record

__all__ = ['SourceChangeWarning', 'register_package', 'check_module_version_greater_or_equal',
           'validate_cuda_device', 'location_tag', 'default_restore_location', 'normalize_storage_type',
           'storage_to_tensor_type', 'save', 'load', 'StorageType']


class SourceChangeWarning(Warning):
    pass


# ---- where storages live: location tags and how to restore them --------------------------------

_package_registry = []


def register_package(priority, tagger, deserializer):
    """tagger(storage) names a storage's location ('cpu', 'cuda:1'); deserializer(storage, location)
    moves a loaded CPU storage there. Each returns None for storages and locations it does not know."""
    _package_registry.append((priority, tagger, deserializer))
    _package_registry.sort(key=lambda entry: entry[0])


def check_module_version_greater_or_equal(module, req_version_tuple, error_if_malformed=True):
    try:
        version_strs = module.__version__.split('.')
        module_version = tuple(type(req)(version_strs[i]) for i, req in enumerate(req_version_tuple))
        return module_version >= req_version_tuple
    except Exception as e:
        message = "'%s' module version string is malformed '%s' and cannot be compared with tuple %s" % (
            module.__name__, module.__version__, str(req_version_tuple))
        if error_if_malformed:
            raise RuntimeError(message) from e
        warnings.warn(message + ', but continuing assuming that requirement is met')
        return True


def _cpu_tag(obj):
    if obj.device.type == 'cpu':
        return 'cpu'


def _cuda_tag(obj):
    if obj.device.type == 'cuda':
        return 'cuda:' + str(obj.device.index if obj.device.index is not None else 0)


def _meta_tag(obj):
    if obj.device.type == 'meta':
        return 'meta'


def _cpu_deserialize(obj, location):
    if location == 'cpu':
        return obj


def validate_cuda_device(location):
    device = torch.device(location)
    index = device.index if device.index is not None else 0
    if not torch.cuda.is_available():
        raise RuntimeError('Attempting to deserialize object on a CUDA '
                           'device but torch.cuda.is_available() is False. '
                           'If you are running on a CPU-only machine, '
                           'please use torch.load with map_location=torch.device(\'cpu\') '
                           'to map your storages to the CPU.')
    device_count = torch.cuda.device_count()
    if index >= device_count:
        raise RuntimeError('Attempting to deserialize object on CUDA device '
                           '%d but torch.cuda.device_count() is %d. Please use '
                           'torch.load with map_location to map your storages '
                           'to an existing device.' % (index, device_count))
    return index


def _cuda_deserialize(obj, location):
    if location.startswith('cuda'):
        index = validate_cuda_device(location)
        return obj.cuda(index)


def _meta_deserialize(obj, location):
    if location == 'meta':
        return UntypedStorage(obj.nbytes(), device='meta')


register_package(10, _cpu_tag, _cpu_deserialize)
register_package(20, _cuda_tag, _cuda_deserialize)
register_package(22, _meta_tag, _meta_deserialize)


def _typename(obj):
    cls = obj if isinstance(obj, type) else type(obj)
    return '%s.%s' % (cls.__module__, cls.__qualname__)


def location_tag(storage):
    for _, tagger, _ in _package_registry:
        location = tagger(storage)
        if location:
            return location
    raise RuntimeError("don't know how to determine data location of " + _typename(storage))


def default_restore_location(storage, location):
    for _, _, fn in _package_registry:
        result = fn(storage, location)
        if result is not None:
            return result
    raise RuntimeError("don't know how to restore data location of " + _typename(storage) +
                       " (tagged with " + location + ")")


def normalize_storage_type(storage_type):
    return getattr(torch, storage_type.__name__)


def storage_to_tensor_type(storage):
    return getattr(torch, type(storage).__name__.replace('Storage', 'Tensor'))


def _get_restore_location(map_location):
    if map_location is None:
        return default_restore_location
    if isinstance(map_location, dict):
        return lambda storage, location: default_restore_location(storage, map_location.get(location, location))
    if isinstance(map_location, str):
        return lambda storage, location: default_restore_location(storage, map_location)
    if isinstance(map_location, torch.device):
        return lambda storage, location: default_restore_location(storage, str(map_location))

    def restore_location(storage, location):
        result = map_location(storage, location)
        if result is None:
            result = default_restore_location(storage, location)
        return result
    return restore_location


# ---- opening files and buffers ------------------------------------------------------------------

def _is_path(name_or_buffer):
    return isinstance(name_or_buffer, (str, os.PathLike))


class _opener:
    def __init__(self, file_like):
        self.file_like = file_like

    def __enter__(self):
        return self.file_like

    def __exit__(self, *args):
        pass


class _open_file(_opener):
    def __init__(self, name, mode):
        super().__init__(open(name, mode))

    def __exit__(self, *args):
        self.file_like.close()


class _open_buffer_reader(_opener):
    def __init__(self, buffer):
        super().__init__(buffer)
        _check_seekable(buffer)


class _open_buffer_writer(_opener):
    def __exit__(self, *args):
        self.file_like.flush()


def _open_file_like(name_or_buffer, mode):
    if _is_path(name_or_buffer):
        return _open_file(name_or_buffer, mode)
    if 'w' in mode:
        return _open_buffer_writer(name_or_buffer)
    if 'r' in mode:
        return _open_buffer_reader(name_or_buffer)
    raise RuntimeError("Expected 'r' or 'w' in mode but got %s" % mode)


def _check_seekable(f):
    try:
        f.seek(f.tell())
        return True
    except (io.UnsupportedOperation, AttributeError) as e:
        for pattern in ('seek', 'tell'):
            if pattern in str(e):
                raise type(e)(str(e) + '. You can only torch.load from a file that is seekable. Please pre-load '
                              'the data into a buffer like io.BytesIO and try to load from it instead.') from None
        raise


def _is_compressed_file(f):
    try:
        return f.__module__ in ('gzip',)
    except AttributeError:
        return False


def _should_read_directly(f):
    if _is_compressed_file(f):
        return False
    try:
        return f.fileno() >= 0
    except (io.UnsupportedOperation, AttributeError, ValueError):
        return False


def _is_zipfile(f):
    # the first four bytes of a zip's first local header (stricter than zipfile.is_zipfile)
    start = f.tell()
    head = b''
    while len(head) < 4:
        more = f.read(4 - len(head))
        if not more:
            break
        head += more
    f.seek(start)
    return head == b'PK\x03\x04'


def _check_dill_version(pickle_module):
    if pickle_module is not None and pickle_module.__name__ == 'dill':
        required = (0, 3, 1)
        if not check_module_version_greater_or_equal(pickle_module, required, False):
            raise ValueError("'torch' supports dill >= %s, but you have dill %s. Please upgrade dill or switch to "
                             "'pickle'" % ('.'.join(str(n) for n in required), pickle_module.__version__))


def _read_exactly_into(f, view):
    """Fills the writable memoryview `view` from f, or raises at the end of the data."""
    view = view.cast('B') if view.format != 'B' else view
    done, total = 0, view.nbytes
    readinto = getattr(f, 'readinto', None)
    while done < total:
        if readinto is not None:
            n = readinto(view[done:])
        else:
            chunk = f.read(min(total - done, 1 << 24))
            n = len(chunk)
            view[done:done + n] = chunk
        if not n:
            raise RuntimeError('unexpected EOF, expected %d more bytes. The file might be corrupted.' % (total - done))
        done += n


def _write_storage_bytes(f, storage_tensor):
    """Writes every byte of the storage under storage_tensor (copied to the CPU first if elsewhere)."""
    if storage_tensor.device.type != 'cpu':
        storage_tensor = storage_tensor.cpu()
    data = _C._storage_bytes(storage_tensor)
    if data.nbytes:
        f.write(data)


# ---- the zip container ---------------------------------------------------------------------------

_ALIGNMENT = 64
_U32 = 0xFFFFFFFF
_LOCAL_HEADER = struct.Struct('<IHHHHHIIIHH')
_CENTRAL_HEADER = struct.Struct('<IHHHHHHIIIHHHHHII')
_END = struct.Struct('<IHHHHIIH')
_ZIP64_END = struct.Struct('<IQHHIIQQQQ')
_ZIP64_LOCATOR = struct.Struct('<IIQI')
_FLAG_UTF8 = 0x0800  # names are UTF-8
_FLAGS = 0x0808  # and the sizes and CRC follow the data, in a data descriptor


def _zip64_extra(values):
    if not values:
        return b''
    return struct.pack('<HH%dQ' % len(values), 1, 8 * len(values), *values)


class _ZipWriter:
    """Writes records into a zip archive as PyTorch's PyTorchStreamWriter lays them out. Offsets are
    counted from where the archive starts in `f`."""

    def __init__(self, f, archive_name):
        self._f = f
        self._pos = 0
        self._prefix = archive_name + '/'
        self._central = []

    def _write(self, data):
        self._f.write(data)
        self._pos += len(data) if isinstance(data, bytes) else data.nbytes

    def write_record(self, name, data):
        """data: bytes or a memoryview of bytes."""
        name_bytes = (self._prefix + name).encode('utf-8')
        size = len(data) if isinstance(data, bytes) else data.nbytes
        offset = self._pos
        big_size, big_offset = size >= _U32, offset >= _U32
        # zip64 fields where a size or the offset needs 64 bits: uncompressed and compressed size (the
        # local header's compressed size is 0, as miniz writes it before the data), header offset
        local_zip64 = _zip64_extra(([size, 0] if big_size else []) + ([offset] if big_offset else []))
        zip64 = _zip64_extra(([size, size] if big_size else []) + ([offset] if big_offset else []))
        start = offset + _LOCAL_HEADER.size + len(name_bytes) + len(zip64) + 4
        padding = -start % _ALIGNMENT
        extra = local_zip64 + b'FB' + struct.pack('<H', padding) + b'Z' * padding
        # an empty record has no data descriptor (its sizes and CRC, all 0, are already in the header)
        flags = _FLAGS if size else _FLAG_UTF8
        self._write(_LOCAL_HEADER.pack(0x04034b50, 0, flags, 0, 0, 0, 0, 0, 0, len(name_bytes), len(extra)) +
                    name_bytes + extra)
        crc = 0
        if size:
            self._write(data)
            crc = zlib.crc32(data)
            if zip64:
                self._write(struct.pack('<IIQQ', 0x08074b50, crc, size, size))
            else:
                self._write(struct.pack('<IIII', 0x08074b50, crc, size, size))
        self._central.append(_CENTRAL_HEADER.pack(
            0x02014b50, 0, 0, flags, 0, 0, 0, crc, min(size, _U32), min(size, _U32), len(name_bytes), len(zip64),
            0, 0, 0, 0, min(offset, _U32)) + name_bytes + zip64)

    def write_end_of_file(self):
        self.write_record('version', b'%d\n' % _ZIP_FORMAT_VERSION)
        central_offset = self._pos
        for entry in self._central:
            self._write(entry)
        central_size = self._pos - central_offset
        n = len(self._central)
        zip64_end = self._pos
        self._write(_ZIP64_END.pack(0x06064b50, _ZIP64_END.size - 12, 0x031e, 0x002d, 0, 0, n, n, central_size,
                                    central_offset))
        self._write(_ZIP64_LOCATOR.pack(0x07064b50, 0, zip64_end, 1))
        self._write(_END.pack(0x06054b50, 0, 0, min(n, 0xFFFF), min(n, 0xFFFF), min(central_size, _U32),
                              min(central_offset, _U32), 0))


def _archive_name(path):
    """The archive's top folder: the file's name without its extension (`model` for dir/model.pt)."""
    path = os.fsdecode(os.fspath(path))
    name = os.path.basename(path)
    stem = name[:name.rfind('.')] if '.' in name else name
    if not stem:
        raise RuntimeError('[enforce fail at inline_container.cc:354] . invalid file name: %s' % path)
    return stem


class _open_zipfile_writer:
    """The archive writer for a path (the file is created) or a writable file-like object."""

    def __init__(self, name_or_buffer):
        if _is_path(name_or_buffer):
            archive = _archive_name(name_or_buffer)
            parent = os.path.dirname(os.fspath(name_or_buffer))
            if parent and not os.path.isdir(parent):
                raise RuntimeError('Parent directory %s does not exist.' % parent)
            self.file = open(name_or_buffer, 'wb')
            self.owns_file = True
        else:
            archive = 'archive'
            self.file = name_or_buffer
            self.owns_file = False
        self.writer = _ZipWriter(self.file, archive)

    def __enter__(self):
        return self.writer

    def __exit__(self, exc_type, *args):
        try:
            if exc_type is None:
                self.writer.write_end_of_file()
                self.file.flush()
        finally:
            if self.owns_file:
                self.file.close()


class _ZipReader:
    """Reads the records of a zip archive that starts at f's current position, as PyTorch's
    PyTorchStreamReader does: records are named relative to the archive's top folder."""

    def __init__(self, f):
        self._f = f
        self._start = f.tell()
        self._size = f.seek(0, io.SEEK_END) - self._start
        self._records = self._read_central_directory()
        if not self._records:
            self._fail('failed reading zip archive', 'archive has no records')
        first = next(iter(self._records))
        if '/' not in first:
            raise RuntimeError('file in archive is not in a subdirectory: ' + first)
        self._prefix = first[:first.index('/') + 1]
        if not self.has_record('version') and not self.has_record('.data/version'):
            raise RuntimeError('Expected hasRecord("version") to be true, but got false.  (Could this error message '
                               'be improved?  If so, please report an enhancement request to PyTorch.)')
        text = self.get_record('version' if self.has_record('version') else '.data/version').decode('latin-1')
        try:
            self.version = int(text.strip())
        except ValueError:
            raise RuntimeError("[enforce fail at inline_container.cc:148] . Couldn't parse the version %s as "
                               "Long Long." % text) from None

    @staticmethod
    def _fail(what, why):
        raise RuntimeError('PytorchStreamReader %s: %s' % (what, why))

    def _read_at(self, offset, n):
        self._f.seek(self._start + offset)
        data = self._f.read(n)
        if len(data) != n:
            self._fail('failed reading zip archive', 'invalid header or archive is corrupted')
        return data

    def _read_central_directory(self):
        not_found = ('failed reading zip archive', 'failed finding central directory')
        if self._size < _END.size:
            self._fail(*not_found)
        tail_size = min(self._size, _END.size + 0xFFFF)
        tail = self._read_at(self._size - tail_size, tail_size)
        at = tail.rfind(b'PK\x05\x06')
        while at >= 0 and at + _END.size > len(tail):
            at = tail.rfind(b'PK\x05\x06', 0, at)
        if at < 0:
            self._fail(*not_found)
        end_offset = self._size - tail_size + at
        _, disk, cd_disk, _, count, cd_size, cd_offset, _ = _END.unpack_from(tail, at)
        locator_offset = end_offset - _ZIP64_LOCATOR.size
        if locator_offset >= 0:
            locator = self._read_at(locator_offset, _ZIP64_LOCATOR.size)
            if locator[:4] == b'PK\x06\x07':
                zip64_offset = _ZIP64_LOCATOR.unpack(locator)[2]
                if zip64_offset + _ZIP64_END.size > self._size:
                    self._fail(*not_found)
                record = _ZIP64_END.unpack(self._read_at(zip64_offset, _ZIP64_END.size))
                if record[0] != 0x06064b50:
                    self._fail(*not_found)
                count, cd_size, cd_offset = record[7], record[8], record[9]
        if disk != 0 or cd_disk != 0:
            self._fail('failed reading zip archive', 'unsupported multidisk archive')
        if cd_offset + cd_size > self._size:
            self._fail(*not_found)
        directory = self._read_at(cd_offset, cd_size)
        records, at = {}, 0
        for _ in range(count):
            if at + _CENTRAL_HEADER.size > len(directory) or directory[at:at + 4] != b'PK\x01\x02':
                self._fail('failed reading zip archive', 'invalid header or archive is corrupted')
            (_, _, _, flags, method, _, _, _, csize, usize, name_len, extra_len, comment_len, _, _, _,
             offset) = _CENTRAL_HEADER.unpack_from(directory, at)
            at += _CENTRAL_HEADER.size
            name = directory[at:at + name_len].decode('utf-8' if flags & 0x800 else 'cp437')
            extra = directory[at + name_len:at + name_len + extra_len]
            at += name_len + extra_len + comment_len
            usize, csize, offset = self._apply_zip64(extra, usize, csize, offset)
            if flags & 1:
                self._fail('failed reading zip archive', 'encrypted records are not supported')
            records[name] = (method, csize, usize, offset)
        return records

    @staticmethod
    def _apply_zip64(extra, usize, csize, offset):
        at = 0
        while at + 4 <= len(extra):
            tag, size = struct.unpack_from('<HH', extra, at)
            if tag == 1:
                values = list(struct.unpack_from('<%dQ' % (size // 8), extra, at + 4))
                if usize == _U32 and values:
                    usize = values.pop(0)
                if csize == _U32 and values:
                    csize = values.pop(0)
                if offset == _U32 and values:
                    offset = values.pop(0)
            at += 4 + size
        return usize, csize, offset

    def get_all_records(self):
        n = len(self._prefix)
        return [name[n:] for name in self._records if name.startswith(self._prefix)]

    def has_record(self, name):
        return self._prefix + name in self._records

    def _locate(self, name):
        entry = self._records.get(self._prefix + name)
        if entry is None:
            self._fail('failed locating file ' + name, 'file not found')
        method, csize, usize, offset = entry
        header = self._read_at(offset, _LOCAL_HEADER.size)
        if header[:4] != b'PK\x03\x04':
            self._fail('failed reading file ' + name, 'invalid header or archive is corrupted')
        name_len, extra_len = struct.unpack_from('<HH', header, 26)
        data_offset = offset + _LOCAL_HEADER.size + name_len + extra_len
        if method not in (0, 8):
            self._fail('failed reading file ' + name, 'unsupported method')
        if data_offset + csize > self._size:
            self._fail('failed reading file ' + name, 'invalid header or archive is corrupted')
        return method, csize, usize, data_offset

    def record_size(self, name):
        return self._locate(name)[2]

    def get_record(self, name):
        method, csize, usize, data_offset = self._locate(name)
        data = self._read_at(data_offset, csize)
        return zlib.decompress(data, -15) if method == 8 else data

    def stored_at(self, name, nbytes):
        """Where the bytes of record `name`, stored uncompressed and `nbytes` long, start in the file;
        None for a compressed record (a wrong size fails as read_record_into does)."""
        method, csize, usize, data_offset = self._locate(name)
        if usize != nbytes:
            self._fail('failed reading file ' + name, 'record holds %d bytes, expected %d' % (usize, nbytes))
        return None if method == 8 else self._start + data_offset

    def read_record_into(self, name, view):
        """Reads record `name` into the writable memoryview `view`, which must be its size."""
        method, csize, usize, data_offset = self._locate(name)
        if usize != view.nbytes:
            self._fail('failed reading file ' + name, 'record holds %d bytes, expected %d' % (usize, view.nbytes))
        if method == 8:
            view[:] = self.get_record(name)
            return
        self._f.seek(self._start + data_offset)
        _read_exactly_into(self._f, view)


# ---- saving --------------------------------------------------------------------------------------

def save(obj, f, pickle_module=pickle, pickle_protocol=DEFAULT_PROTOCOL, _use_new_zipfile_serialization=True):
    """save(obj, f, pickle_module=pickle, pickle_protocol=DEFAULT_PROTOCOL, _use_new_zipfile_serialization=True)

    Saves an object to a file (a path or a writable file-like object) in PyTorch's format; storages
    shared by several tensors are written once and shared again by torch.load."""
    _check_dill_version(pickle_module)
    if _use_new_zipfile_serialization:
        with _open_zipfile_writer(f) as zip_file:
            _save(obj, zip_file, pickle_module, pickle_protocol)
    else:
        with _open_file_like(f, 'wb') as opened_file:
            _legacy_save(obj, opened_file, pickle_module, pickle_protocol)


def _storage_info(obj):
    """(storage class to pickle, dtype, element count) of a storage object."""
    if isinstance(obj, TypedStorage):
        return getattr(torch, obj.pickle_storage_type()), obj.dtype, obj.size()
    return UntypedStorage, torch.uint8, obj.nbytes()


def _check_dtype(storage_dtypes, obj, dtype):
    # storages viewed as different dtypes cannot be loaded back as one, so PyTorch refuses to save them
    ptr = obj.data_ptr()
    if ptr != 0:
        if storage_dtypes.setdefault(ptr, dtype) != dtype:
            raise RuntimeError('Cannot save multiple tensors or storages that view the same data as different types')


def _save(obj, zip_file, pickle_module, pickle_protocol):
    serialized_storages = {}
    id_map = {}
    storage_dtypes = {}

    def persistent_id(obj):
        if isinstance(obj, (TypedStorage, UntypedStorage)):
            storage_type, dtype, numel = _storage_info(obj)
            _check_dtype(storage_dtypes, obj, dtype)
            storage_key = id_map.setdefault(obj._cdata, str(len(id_map)))
            location = location_tag(obj)
            serialized_storages[storage_key] = obj
            return ('storage', storage_type, storage_key, location, numel)
        return None

    data_buf = io.BytesIO()
    pickler = pickle_module.Pickler(data_buf, protocol=pickle_protocol)
    pickler.persistent_id = persistent_id
    pickler.dump(obj)
    zip_file.write_record('data.pkl', data_buf.getvalue())

    for key in sorted(serialized_storages.keys()):
        storage_tensor = serialized_storages[key]._t
        if storage_tensor.device.type != 'cpu':
            storage_tensor = storage_tensor.cpu()  # written from a CPU copy, as PyTorch does
        zip_file.write_record('data/' + key, _C._storage_bytes(storage_tensor))


def _source_of(cls):
    try:
        lines, _ = inspect.getsourcelines(cls)
        return inspect.getsourcefile(cls), ''.join(lines)
    except Exception:  # the source is optional
        warnings.warn("Couldn't retrieve source code for container of type " + cls.__name__ +
                      ". It won't be checked for correctness upon loading.")
        return None, None


def _legacy_save(obj, f, pickle_module, pickle_protocol):
    serialized_container_types = {}
    serialized_storages = {}
    storage_dtypes = {}
    module_class = getattr(getattr(torch, 'nn', None), 'Module', None)

    def persistent_id(obj):
        if module_class is not None and isinstance(obj, type) and issubclass(obj, module_class):
            if obj in serialized_container_types:
                return None
            serialized_container_types[obj] = True
            source_file, source = _source_of(obj)
            return ('module', obj, source_file, source)
        if isinstance(obj, (TypedStorage, UntypedStorage)):
            storage_type, dtype, numel = _storage_info(obj)
            _check_dtype(storage_dtypes, obj, dtype)
            storage_key = str(obj._cdata)
            if storage_key not in serialized_storages:
                serialized_storages[storage_key] = (obj, dtype)
            return ('storage', storage_type, storage_key, location_tag(obj), numel, None)
        return None

    sys_info = dict(protocol_version=PROTOCOL_VERSION, little_endian=sys.byteorder == 'little',
                    type_sizes=dict(short=SHORT_SIZE, int=INT_SIZE, long=LONG_SIZE))
    pickle_module.dump(MAGIC_NUMBER, f, protocol=pickle_protocol)
    pickle_module.dump(PROTOCOL_VERSION, f, protocol=pickle_protocol)
    pickle_module.dump(sys_info, f, protocol=pickle_protocol)
    pickler = pickle_module.Pickler(f, protocol=pickle_protocol)
    pickler.persistent_id = persistent_id
    pickler.dump(obj)

    keys = sorted(serialized_storages.keys())
    pickle_module.dump(keys, f, protocol=pickle_protocol)
    f.flush()
    for key in keys:
        storage, dtype = serialized_storages[key]
        f.write(struct.pack('<q', storage.nbytes() // dtype.itemsize))
        _write_storage_bytes(f, storage._t)


# ---- loading -------------------------------------------------------------------------------------

def load(f, map_location=None, pickle_module=None, *, weights_only=False, mmap=None, **pickle_load_args):
    """load(f, map_location=None, pickle_module=pickle, *, weights_only=False, mmap=None, **pickle_load_args)

    Loads an object saved with torch.save (either format) from a path or a seekable file-like
    object. map_location remaps storage locations: a device or its name, a {saved: wanted} dict of
    location names, or a function(storage, location) returning a storage or None. weights_only=True
    builds only tensors, storages, primitive containers, OrderedDict and torch's rebuild functions.
    mmap=True (PyTorch 2.1's option; f must be a path to a zip-format file) maps the file privately
    and puts every uncompressed CPU storage over its bytes in the mapping instead of reading them: pages
    are read when touched, and writes to the tensors stay in this process (copy-on-write)."""
    unsafe_message = ('Weights only load failed. Re-running `torch.load` with `weights_only` set to `False`'
                      ' will likely succeed, but it can result in arbitrary code execution.'
                      'Do it only if you get the file from a trusted source. WeightsUnpickler error: ')
    if os.getenv('TORCH_FORCE_WEIGHTS_ONLY_LOAD', '0').lower() in ('1', 'y', 'yes', 'true'):
        weights_only = True
    if weights_only:
        if pickle_module is not None:
            raise RuntimeError('Can not safely load weights when expiclit picke_module is specified')
    elif pickle_module is None:
        pickle_module = pickle
    _check_dill_version(pickle_module)
    if 'encoding' not in pickle_load_args:
        pickle_load_args['encoding'] = 'utf-8'

    if mmap and not isinstance(f, (str, os.PathLike)):
        raise ValueError('f must be a file path in order to use the mmap argument')
    with _open_file_like(f, 'rb') as opened_file:
        if _is_zipfile(opened_file):
            zip_file = _ZipReader(opened_file)
            if 'constants.pkl' in zip_file.get_all_records():
                raise RuntimeError("'torch.load' received a zip file that looks like a TorchScript archive, which "
                                   "this build cannot load (it has no torch.jit)")
            mapping = _map_file(opened_file) if mmap else None
            loader = lambda module: _load(zip_file, map_location, module, mapping=mapping,  # noqa: E731
                                          **pickle_load_args)
        elif mmap:
            raise RuntimeError('mmap can only be used with files saved with `torch.save(_use_new_zipfile_serialization='
                               'True)`, please torch.save your checkpoint with this option in order to use mmap.')
        else:
            loader = lambda module: _legacy_load(opened_file, map_location, module, **pickle_load_args)  # noqa: E731
        if weights_only:
            try:
                return loader(torch._weights_only_unpickler)
            except RuntimeError as e:
                raise pickle.UnpicklingError(unsafe_message + str(e)) from None
        return loader(pickle_module)


def _get_layout(name):
    """The layout named name ('torch.strided'): how layouts unpickle."""
    cache = _get_layout.cache
    if not cache:
        for value in torch.__dict__.values():
            if isinstance(value, torch.layout):
                cache[str(value)] = value
    return cache[name]


_get_layout.cache = {}
copyreg.pickle(torch.layout, lambda obj: (_get_layout, (str(obj),)))


def _maybe_decode_ascii(bytes_str):
    # keys written by Python 2 load as bytes with encoding='bytes'
    if isinstance(bytes_str, bytes):
        return bytes_str.decode('ascii')
    return bytes_str


class StorageType:
    """What a pickled storage class (torch.FloatStorage, torch.cuda.FloatStorage) loads as: its dtype."""

    def __init__(self, name):
        self.dtype = torch.storage._get_dtype_from_pickle_storage_type(name)

    def __str__(self):
        return 'StorageType(dtype=%s)' % self.dtype


def _storage_dtype(storage_type):
    if storage_type is UntypedStorage:
        return torch.uint8
    dtype = getattr(storage_type, 'dtype', None)
    if not isinstance(dtype, torch.dtype):
        raise RuntimeError('unknown storage type in the pickle: %r' % (storage_type,))
    return dtype


def _unpickler_class(pickle_module, module_mapping=None):
    class UnpicklerWrapper(pickle_module.Unpickler):
        # storage classes load as their dtype (the class may not exist here, e.g. torch.cuda.FloatStorage)
        def find_class(self, mod_name, name):
            if type(name) is str and 'Storage' in name:
                try:
                    return StorageType(name)
                except KeyError:
                    pass
            if module_mapping:
                mod_name = module_mapping.get(mod_name, mod_name)
            return super().find_class(mod_name, name)
    return UnpicklerWrapper


def _map_file(f):
    """The whole of an open file mapped privately (copy-on-write), with its address: (mmap, address)."""
    import ctypes
    import mmap
    mapped = mmap.mmap(f.fileno(), 0, flags=mmap.MAP_PRIVATE, prot=mmap.PROT_READ | mmap.PROT_WRITE)
    anchor = ctypes.c_char.from_buffer(mapped)  # only to learn the address
    address = ctypes.addressof(anchor)
    del anchor
    return mapped, address


def _load(zip_file, map_location, pickle_module, pickle_file='data.pkl', mapping=None, **pickle_load_args):
    restore_location = _get_restore_location(map_location)
    loaded_storages = {}

    def load_storage(dtype, numel, key, location):
        name = 'data/' + key
        nbytes = numel * dtype.itemsize
        at = zip_file.stored_at(name, nbytes) if mapping is not None else None
        if at is not None:
            # the storage is the record's bytes in the mapping, which the storage keeps alive
            data = _C._from_buffer(mapping[0], mapping[1] + at, nbytes, (nbytes,), (1,), 0, torch.uint8)
        else:
            data = torch.empty(nbytes, dtype=torch.uint8)
            zip_file.read_record_into(name, _C._storage_bytes(data))
        storage = restore_location(UntypedStorage(data), location)
        if isinstance(storage, TypedStorage):
            storage = storage.untyped()
        loaded_storages[key] = TypedStorage(wrap_storage=storage, dtype=dtype)

    def persistent_load(saved_id):
        assert isinstance(saved_id, tuple)
        typename = _maybe_decode_ascii(saved_id[0])
        data = saved_id[1:]
        assert typename == 'storage', "Unknown typename for persistent_load, expected 'storage' but got '%s'" % typename
        storage_type, key, location, numel = data
        if key not in loaded_storages:
            load_storage(_storage_dtype(storage_type), numel, key, _maybe_decode_ascii(location))
        return loaded_storages[key]

    unpickler = _unpickler_class(pickle_module, {'torch.tensor': 'torch._tensor'})(
        io.BytesIO(zip_file.get_record(pickle_file)), **pickle_load_args)
    unpickler.persistent_load = persistent_load
    return unpickler.load()


def _fill_storage(f, storage, key):
    """Reads one storage of a legacy file: its element count, then its bytes."""
    head = f.read(8)
    if len(head) != 8:
        raise RuntimeError('unexpected EOF, expected %d more bytes. The file might be corrupted.' % (8 - len(head)))
    numel, = struct.unpack('<q', head)
    if numel != storage.size():
        raise RuntimeError('storage has wrong size: expected %d got %d' % (storage.size(), numel))
    t = storage._t
    if t.device.type == 'cpu':
        _read_exactly_into(f, _C._storage_bytes(t))
    elif t.device.type == 'meta':
        f.seek(storage.nbytes(), io.SEEK_CUR)
    else:
        staging = torch.empty(storage.nbytes(), dtype=torch.uint8)
        _read_exactly_into(f, _C._storage_bytes(staging))
        t.copy_(_C._storage_tensor(staging, t.dtype))


def _legacy_load(f, map_location, pickle_module, **pickle_load_args):
    restore_location = _get_restore_location(map_location)
    deserialized_objects = {}

    def persistent_load(saved_id):
        assert isinstance(saved_id, tuple)
        typename = _maybe_decode_ascii(saved_id[0])
        data = saved_id[1:]
        if typename == 'module':
            return data[0]  # a module class saved with its source (the source is not compared here)
        if typename != 'storage':
            raise RuntimeError('Unknown saved id type: %s' % saved_id[0])
        storage_type, root_key, location, numel, view_metadata = data
        location = _maybe_decode_ascii(location)
        dtype = _storage_dtype(storage_type)
        if root_key not in deserialized_objects:
            storage = restore_location(UntypedStorage(numel * dtype.itemsize), location)
            if isinstance(storage, TypedStorage):
                storage = storage.untyped()
            deserialized_objects[root_key] = TypedStorage(wrap_storage=storage, dtype=dtype)
        typed_storage = deserialized_objects[root_key]
        if view_metadata is None:
            return typed_storage
        # a view of part of a storage (files from PyTorch before 1.0)
        view_key, offset, view_size = view_metadata
        if view_key not in deserialized_objects:
            root = typed_storage._t
            if root.device.type != 'cpu':
                raise RuntimeError('storage views in legacy files can only be loaded to the CPU')
            part = _C._from_buffer(root, root.data_ptr() + offset * dtype.itemsize, view_size * dtype.itemsize,
                                   (view_size,), (1,), 0, dtype)
            deserialized_objects[view_key] = TypedStorage(part)
        return deserialized_objects[view_key]

    _check_seekable(f)
    magic_number = pickle_module.load(f, **pickle_load_args)
    if magic_number != MAGIC_NUMBER:
        raise RuntimeError('Invalid magic number; corrupt file?')
    protocol_version = pickle_module.load(f, **pickle_load_args)
    if protocol_version != PROTOCOL_VERSION:
        raise RuntimeError('Invalid protocol version: %s' % protocol_version)
    pickle_module.load(f, **pickle_load_args)  # system information
    unpickler = _unpickler_class(pickle_module)(f, **pickle_load_args)
    unpickler.persistent_load = persistent_load
    result = unpickler.load()

    keys = pickle_module.load(f, **pickle_load_args)
    for key in keys:
        assert key in deserialized_objects
        _fill_storage(f, deserialized_objects[key], key)
    return result
