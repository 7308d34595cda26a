"""torch.tensor, torch.as_tensor and the numpy bridge: the constructors that take Python data. The
creation ops (zeros, ones, full, arange, ...) are ops of the op table, bound by torch._C."""
import sys
import warnings

import torch
from torch import _C


def tensor(data, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """A new tensor holding a copy of `data` (nested lists/tuples of numbers, numpy arrays, tensors)."""
    if pin_memory:
        return tensor(data, dtype=dtype, device=device, requires_grad=requires_grad).pin_memory()
    if isinstance(data, torch.Tensor):
        t = data.clone()
    elif _is_ndarray(data):
        t = from_numpy(data).clone() if data.dtype.kind != 'O' else _C._tensor_from_data(data.tolist(), None)
    else:
        t = _C._tensor_from_data(data, None if dtype is None else dtype)
        dtype = None if t.dtype == dtype else dtype
    if dtype is not None or device is not None:
        t = t.to(device=device, dtype=dtype)
    if requires_grad:
        t.requires_grad_(True)
    return t


def as_tensor(data, dtype=None, device=None):
    """`data` as a tensor, sharing its memory when it already is one (a tensor, or a numpy array) of
    the dtype and device asked for; a copy otherwise."""
    if isinstance(data, torch.Tensor):
        t = data
    elif _is_ndarray(data) and data.dtype.kind != 'O':
        t = from_numpy(data)
    else:
        return tensor(data, dtype=dtype, device=device)
    if dtype is not None and t.dtype != dtype:
        t = t.to(dtype)
    if device is not None:
        t = t.to(device)
    return t


def is_tensor(obj):
    return isinstance(obj, torch.Tensor)


# ---- numpy: zero-copy through __array_interface__ (numpy is not a build dependency) ----

_NUMPY_DTYPES = {
    'b1': torch.bool, 'u1': torch.uint8, 'i1': torch.int8, 'i2': torch.int16, 'i4': torch.int32,
    'i8': torch.int64, 'f2': torch.float16, 'f4': torch.float32, 'f8': torch.float64, 'c8': torch.complex64,
    'c16': torch.complex128,
}


def _numpy():
    # numpy objects exist only once numpy has been imported, so never import it here
    return sys.modules.get('numpy')


def _is_ndarray(obj):
    np = _numpy()
    return np is not None and isinstance(obj, np.ndarray)


def _type_name(obj):
    # the name CPython's tp_name gives, as PyTorch's messages show it ('numpy.float32', 'A')
    t = type(obj)
    if t.__flags__ & (1 << 9) or t.__module__ == 'builtins':  # Py_TPFLAGS_HEAPTYPE: a class statement
        return t.__name__
    return '%s.%s' % (t.__module__, t.__name__)


def from_numpy(array):
    """A tensor sharing the memory of a numpy array (writes through both ways)."""
    if not _is_ndarray(array):
        # only numpy's own arrays: anything else offering an __array_interface__ could point anywhere
        raise TypeError('expected np.ndarray (got %s)' % _type_name(array))
    np = _numpy()
    # read through ndarray's own descriptors: a subclass may override the attributes, not the memory
    info = np.ndarray.__array_interface__.__get__(array)
    np_dtype = np.ndarray.dtype.__get__(array)
    typestr = info['typestr']
    dtype = _NUMPY_DTYPES.get(typestr[1:])
    if typestr[0] == '>' and dtype is not None and np_dtype.itemsize > 1:
        raise ValueError('given numpy array has byte order different from the native byte order. Conversion '
                         'between byte orders is currently not supported.')
    if dtype is None:
        raise TypeError("can't convert np.ndarray of type %s. The only supported types are: float64, float32, "
                        "float16, complex64, complex128, int64, int32, int16, int8, uint8, and bool." % np_dtype)
    itemsize = np_dtype.itemsize
    shape = tuple(info['shape'])
    strides = info.get('strides')
    if strides is None:
        elem_strides, acc = [], 1
        for s in reversed(shape):
            elem_strides.append(acc)
            acc *= max(s, 1)
        elem_strides = tuple(reversed(elem_strides))
    else:
        if any(s < 0 for s in strides):
            raise ValueError('At least one stride in the given numpy array is negative, and tensors with negative '
                             'strides are not currently supported. (You can probably work around this by making '
                             'a copy of your array  with array.copy().) ')
        if any(s % itemsize for s in strides):
            raise ValueError('given numpy array strides not a multiple of the element byte size. Copy the numpy '
                             'array to reallocate the memory.')
        elem_strides = tuple(s // itemsize for s in strides)
    address = info['data'][0] or 0
    extent = 1
    for s, st in zip(shape, elem_strides):
        extent = 0 if s == 0 or extent == 0 else extent + (s - 1) * st
    return _C._from_buffer(array, address, extent * itemsize, shape, elem_strides, 0, dtype)


# ---- frombuffer: a tensor over any object exporting the buffer protocol ----

_BUFFER_API = []


def _buffer_api():
    """(Py_buffer's struct, PyObject_GetBuffer, PyBuffer_Release, byref), made once: private function
    objects (pythonapi[name], not the shared attributes), so that no one else's argtypes can clash."""
    if not _BUFFER_API:
        import ctypes

        class PyBuffer(ctypes.Structure):
            _fields_ = [('buf', ctypes.c_void_p), ('obj', ctypes.py_object), ('len', ctypes.c_ssize_t),
                        ('itemsize', ctypes.c_ssize_t), ('readonly', ctypes.c_int), ('ndim', ctypes.c_int),
                        ('format', ctypes.c_char_p), ('shape', ctypes.c_void_p), ('strides', ctypes.c_void_p),
                        ('suboffsets', ctypes.c_void_p), ('internal', ctypes.c_void_p)]
        get = ctypes.pythonapi['PyObject_GetBuffer']
        get.argtypes = [ctypes.py_object, ctypes.POINTER(PyBuffer), ctypes.c_int]
        release = ctypes.pythonapi['PyBuffer_Release']
        release.argtypes = [ctypes.POINTER(PyBuffer)]
        _BUFFER_API.extend([PyBuffer, get, release, ctypes.byref])
    return _BUFFER_API


class _ExportedBuffer:
    """Holds a buffer export (PyObject_GetBuffer) open for as long as a tensor uses its memory."""

    def __init__(self, obj):
        buffer_type, get, self._release, self._byref = _buffer_api()  # kept: __del__ may run at shutdown
        self._view, self._held = buffer_type(), False
        if get(obj, self._byref(self._view), 0) != 0:  # PyBUF_SIMPLE: contiguous bytes
            raise ValueError('object does not implement Python buffer protocol.')
        self._held = True
        self.address, self.nbytes, self.readonly = self._view.buf or 0, self._view.len, bool(self._view.readonly)

    def __del__(self):
        if getattr(self, '_held', False):
            self._release(self._byref(self._view))


_warned_readonly = []


def frombuffer(buffer, *, dtype, count=-1, offset=0, requires_grad=False):
    """A 1-D tensor of dtype over buffer's memory from byte offset on (count elements, or all that fit);
    writes go through to the buffer."""
    try:
        memoryview(buffer)
    except TypeError:
        raise ValueError('object does not implement Python buffer protocol.') from None
    exported = _ExportedBuffer(buffer)
    length, itemsize = exported.nbytes, torch.empty((), dtype=dtype).element_size()
    if length <= 0 or count == 0:
        raise ValueError('both buffer length (%d) and count (%d) must not be 0' % (length, count))
    if offset < 0 or offset >= length:
        raise ValueError('offset (%d bytes) must be non-negative and no greater than buffer length (%d bytes) '
                         'minus 1' % (offset, length))
    if count < 0:
        if (length - offset) % itemsize:
            raise ValueError('buffer length (%d bytes) after offset (%d bytes) must be a multiple of element size '
                             '(%d)' % (length - offset, offset, itemsize))
        count = (length - offset) // itemsize
    elif offset + count * itemsize > length:
        raise ValueError('requested buffer length (%d * %d bytes) after offset (%d bytes) must not be greater than '
                         'actual buffer length (%d bytes)' % (count, itemsize, offset, length))
    if exported.readonly and not _warned_readonly:
        _warned_readonly.append(True)
        warnings.warn('The given buffer is not writable, and PyTorch does not support non-writable tensors. This '
                      'means you can write to the underlying (supposedly non-writable) buffer using the tensor. You '
                      'may want to copy the buffer to protect its data or make it writable before converting it to '
                      'a tensor. This type of warning will be suppressed for the rest of this program.')
    t = _C._from_buffer(exported, exported.address + offset, count * itemsize, (count,), (1,), 0, dtype)
    return t.requires_grad_() if requires_grad else t
