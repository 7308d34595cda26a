"""PyTorch's legacy tensor types: torch.FloatTensor, torch.LongTensor, ... (each a class whose
instances are the CPU tensors of its dtype, isinstance(x, torch.FloatTensor) as PyTorch's metaclass
answers it) and the type names x.type() and x.type('torch.IntTensor') use."""
import torch


class tensortype(type):
    """The metaclass of the legacy types: calling one makes a tensor of its dtype (sizes, data, an
    alias of a tensor of that dtype, or a storage); isinstance asks a tensor's dtype and device."""

    def __instancecheck__(cls, obj):
        return isinstance(obj, torch.Tensor) and obj.dtype == cls.dtype and obj.device.type == 'cpu'

    def __call__(cls, *args, device=None, **kwargs):
        if kwargs:
            raise TypeError('new() received an invalid combination of arguments - got unexpected keyword arguments '
                            '%s' % ', '.join(sorted(kwargs)))
        if device is not None and torch.device(device).type != 'cpu':
            raise RuntimeError('legacy constructor expects device type: cpu but device type: %s was passed'
                               % torch.device(device).type)
        if not args:
            return torch.empty(0, dtype=cls.dtype)
        if len(args) == 1 and not isinstance(args[0], int):
            data = args[0]
            if isinstance(data, torch.Tensor):
                if data.dtype != cls.dtype:
                    raise TypeError('expected %s (got %s)' % (cls.__name__, data.type()))
                return data.view(data.shape)
            if isinstance(data, torch.storage.TypedStorage):
                if data.dtype != cls.dtype:
                    raise RuntimeError("Expected a Storage of type %s or an UntypedStorage, but got type %s for "
                                       "argument 1 'storage'" % (NAMES[cls.dtype][:-6], NAMES[data.dtype][:-6]))
                return data._t.view(data._t.shape)
            if isinstance(data, torch.Size):
                return torch.empty(data, dtype=cls.dtype)
            if isinstance(data, str) or not hasattr(data, '__len__'):
                raise TypeError("new(): data must be a sequence (got %s)" % type(data).__name__)
            return torch.tensor(data, dtype=cls.dtype)
        if not all(isinstance(a, int) for a in args):
            raise TypeError('new() received an invalid combination of arguments - got (%s)'
                            % ', '.join(type(a).__name__ for a in args))
        return torch.empty(args, dtype=cls.dtype)


tensortype.__module__ = 'torch'

NAMES = {
    torch.float32: 'FloatTensor', torch.float64: 'DoubleTensor', torch.float16: 'HalfTensor',
    torch.bfloat16: 'BFloat16Tensor', torch.int64: 'LongTensor', torch.int32: 'IntTensor',
    torch.int16: 'ShortTensor', torch.int8: 'CharTensor', torch.uint8: 'ByteTensor', torch.bool: 'BoolTensor',
}

TYPES = {}
for _dtype, _name in NAMES.items():
    TYPES[_dtype] = tensortype(_name, (), {'dtype': _dtype, 'is_cuda': False, 'is_sparse': False,
                                           '__module__': 'torch'})
del _dtype, _name

BY_NAME = {'torch.' + t.__name__: t for t in TYPES.values()}


# complex tensors have type names but no legacy type objects (torch.ComplexFloatTensor does not exist)
COMPLEX_NAMES = {torch.complex32: 'ComplexHalfTensor', torch.complex64: 'ComplexFloatTensor',
                 torch.complex128: 'ComplexDoubleTensor'}


def type_name(dtype):
    """'torch.FloatTensor' for float32, as x.type() answers."""
    return 'torch.' + (NAMES.get(dtype) or COMPLEX_NAMES[dtype])


def converted(tensor, dtype, non_blocking=False):
    """x.type(dtype): dtype a torch.dtype, a legacy type or its name ('torch.IntTensor',
    'torch.cuda.FloatTensor'); x itself when nothing changes."""
    if isinstance(dtype, str):
        cuda = dtype.startswith('torch.cuda.')
        legacy = BY_NAME.get(dtype.replace('torch.cuda.', 'torch.') if cuda else dtype)
        if legacy is None:
            raise ValueError('invalid type: %r' % dtype)
        return tensor.to(device='cuda' if cuda else 'cpu', dtype=legacy.dtype, non_blocking=non_blocking)
    if isinstance(dtype, tensortype):
        if tensor.device.type == 'cpu' and tensor.dtype == dtype.dtype:
            return tensor
        return tensor.to(device='cpu', dtype=dtype.dtype, non_blocking=non_blocking)
    if isinstance(dtype, torch.dtype):
        return tensor.to(dtype, non_blocking=non_blocking)
    raise TypeError("type() received an invalid combination of arguments - got (%s)" % type(dtype).__name__)
