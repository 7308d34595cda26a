"""Tensor factories: torch.tensor, zeros, ones, full, arange, linspace, eye, the *_like forms, and
the numpy bridge. Argument handling is here; the work is one call into torch._C."""
import builtins
import sys

import torch
from torch import _C


def _size(size, name, kwargs=None):
    # zeros(2, 3), zeros((2, 3)), zeros([2, 3]), zeros(torch.Size([2, 3])) and zeros(size=(2, 3)) all
    # mean the same.
    if kwargs and 'size' in kwargs:
        if size:
            raise TypeError("%s() got multiple values for argument 'size'" % name)
        size = (kwargs.pop('size'),)
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
    for s in size:
        if isinstance(s, builtins.bool) or not hasattr(s, '__index__'):
            raise TypeError('%s(): argument \'size\' must be tuple of ints, but found element of type %s'
                            % (name, type(s).__name__))
    return tuple(s.__index__() for s in size)


def _check_kwargs(name, kwargs):
    kwargs.pop('layout', None)
    kwargs.pop('pin_memory', None)
    if kwargs.pop('requires_grad', False):
        raise RuntimeError('%s(): requires_grad=True needs the autograd engine, which is not built yet' % name)
    if kwargs:
        raise TypeError('%s() got an unexpected keyword argument %r' % (name, next(iter(kwargs))))


def tensor(data, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """A new tensor holding a copy of `data` (nested lists/tuples of numbers, numpy arrays, tensors)."""
    _check_kwargs('tensor', {'requires_grad': requires_grad})
    if isinstance(data, torch.Tensor):
        t = data.clone()
    elif _is_ndarray(data):
        t = from_numpy(data).clone() if data.dtype.kind != 'O' else _C._tensor_from_data(data.tolist(), None)
    else:
        t = _C._tensor_from_data(data, None if dtype is None else dtype)
        dtype = None if t.dtype == dtype else dtype
    if dtype is not None and t.dtype != dtype:
        t = t.to(dtype)
    if device is not None:
        t = t.to(device)
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


def empty(*size, dtype=None, device=None, **kwargs):
    size = _size(size, 'empty', kwargs)
    _check_kwargs('empty', kwargs)
    return _C._empty(size, dtype, device)


def zeros(*size, dtype=None, device=None, **kwargs):
    size = _size(size, 'zeros', kwargs)
    _check_kwargs('zeros', kwargs)
    return _C._full(size, 0, dtype or _C.get_default_dtype(), device)


def ones(*size, dtype=None, device=None, **kwargs):
    size = _size(size, 'ones', kwargs)
    _check_kwargs('ones', kwargs)
    return _C._full(size, 1, dtype or _C.get_default_dtype(), device)


def full(size, fill_value, dtype=None, device=None, **kwargs):
    _check_kwargs('full', kwargs)
    return _C._full(_size((size,), 'full'), fill_value, dtype, device)


def arange(start, end=None, step=1, dtype=None, device=None, **kwargs):
    _check_kwargs('arange', kwargs)
    if end is None:
        start, end = 0, start
    return _C._make_arange(start, end, step, dtype, device)


def linspace(start, end, steps, dtype=None, device=None, **kwargs):
    _check_kwargs('linspace', kwargs)
    if not isinstance(steps, int) or isinstance(steps, builtins.bool):
        raise TypeError("linspace(): argument 'steps' must be int, not %s" % type(steps).__name__)
    return _C._make_linspace(start, end, steps, dtype, device)


def eye(n, m=None, dtype=None, device=None, **kwargs):
    _check_kwargs('eye', kwargs)
    for name, v in (('n', n), ('m', m)):
        if v is not None and (not isinstance(v, int) or isinstance(v, builtins.bool)):
            raise TypeError("eye(): argument '%s' must be int, not %s" % (name, type(v).__name__))
    return _C._eye(n, n if m is None else m, dtype, device)


def _like(t, dtype, device):
    if not isinstance(t, torch.Tensor):
        raise TypeError('expected a Tensor as the first argument, got %s' % type(t).__name__)
    return t.shape, dtype or t.dtype, device or t.device


def empty_like(input, dtype=None, device=None, **kwargs):
    _check_kwargs('empty_like', kwargs)
    return _C._empty(*_like(input, dtype, device))


def zeros_like(input, dtype=None, device=None, **kwargs):
    _check_kwargs('zeros_like', kwargs)
    size, dtype, device = _like(input, dtype, device)
    return _C._full(size, 0, dtype, device)


def ones_like(input, dtype=None, device=None, **kwargs):
    _check_kwargs('ones_like', kwargs)
    size, dtype, device = _like(input, dtype, device)
    return _C._full(size, 1, dtype, device)


def full_like(input, fill_value, dtype=None, device=None, **kwargs):
    _check_kwargs('full_like', kwargs)
    size, dtype, device = _like(input, dtype, device)
    return _C._full(size, fill_value, dtype, device)


# ---- numpy: zero-copy through __array_interface__ (numpy is not a build dependency) ----

_NUMPY_DTYPES = {
    'b1': torch.bool, 'u1': torch.uint8, 'i1': torch.int8, 'i2': torch.int16, 'i4': torch.int32,
    'i8': torch.int64, 'f2': torch.float16, 'f4': torch.float32, 'f8': torch.float64,
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
                        "float16, int64, int32, int16, int8, uint8, and bool." % np_dtype)
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
