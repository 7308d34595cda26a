"""torch.tensor, torch.as_tensor and the numpy bridge: the constructors that take Python data. The
creation ops (zeros, ones, full, arange, ...) are ops of the op table, bound by torch._C."""
import torch
from torch import _C


def tensor(data, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """A new tensor holding a copy of `data` (nested lists/tuples of numbers, numpy arrays, tensors)."""
    if pin_memory:
        raise RuntimeError('Pinned memory requires CUDA, and no CUDA device is available')
    if isinstance(data, torch.Tensor):
        t = data.clone()
    elif _is_numpy(data):
        t = from_numpy(data).clone() if data.dtype.kind != 'O' else _C._tensor_from_data(data.tolist(), None)
    else:
        t = _C._tensor_from_data(data, None if dtype is None else dtype)
        dtype = None if t.dtype == dtype else dtype
    if dtype is not None or device is not None:
        t = t.to(device=device, dtype=dtype)
    if requires_grad:
        if not hasattr(t, 'requires_grad_'):
            raise RuntimeError('requires_grad=True needs the autograd engine, which this build lacks')
        t.requires_grad_(True)
    return t


def as_tensor(data, dtype=None, device=None):
    """`data` as a tensor, sharing its memory when it already is one (or a numpy array) of the dtype
    and device asked for."""
    if isinstance(data, torch.Tensor):
        return data.to(device=device, dtype=dtype)
    if _is_numpy(data) and data.dtype.kind != 'O':
        return from_numpy(data).to(device=device, dtype=dtype)
    return tensor(data, dtype=dtype, device=device)


def is_tensor(obj):
    return isinstance(obj, torch.Tensor)


# ---- numpy: zero-copy through __array_interface__ (numpy is not a build dependency) ----

_NUMPY_DTYPES = {
    'b1': torch.bool, 'u1': torch.uint8, 'i1': torch.int8, 'i2': torch.int16, 'i4': torch.int32,
    'i8': torch.int64, 'f2': torch.float16, 'f4': torch.float32, 'f8': torch.float64,
}


def _is_numpy(obj):
    return type(obj).__module__ == 'numpy' and hasattr(obj, '__array_interface__')


def from_numpy(array):
    """A tensor sharing the memory of a numpy array (writes through both ways)."""
    if not _is_numpy(array):
        raise TypeError('expected np.ndarray (got %s)' % type(array).__name__)
    info = array.__array_interface__
    typestr = info['typestr']
    dtype = _NUMPY_DTYPES.get(typestr[1:])
    if typestr[0] == '>' and dtype is not None and array.dtype.itemsize > 1:
        raise ValueError('given numpy array has byte order different from the native byte order. Conversion '
                         'between byte orders is currently not supported.')
    if dtype is None:
        raise TypeError("can't convert np.ndarray of type %s. The only supported types are: float64, float32, "
                        "float16, int64, int32, int16, int8, uint8, and bool." % array.dtype)
    itemsize = array.dtype.itemsize
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
