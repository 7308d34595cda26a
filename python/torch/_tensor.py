"""torch.Tensor: the Python class over the C type torch._C._TensorBase."""
import torch
from torch import _C
from torch import _legacy, _tensor_str


class Tensor(_C._TensorBase):
    # numpy defers binary operators to us (np.float64(2) * t is a tensor, not an array), as in PyTorch
    __array_priority__ = 1000
    __module__ = 'torch'  # <class 'torch.Tensor'>, as PyTorch shows it

    def __new__(cls, *args, **kwargs):
        # PyTorch's legacy constructor: Tensor(*sizes), Tensor(Size), Tensor(other) (an alias of
        # other, dtype kept), Tensor(sequence) (data in the default dtype)
        if len(args) == 1 and not kwargs and not isinstance(args[0], int):
            data = args[0]
            if isinstance(data, Tensor):
                return data.view(data.shape)
            if isinstance(data, torch.Size):
                return super().__new__(cls, *data)
            try:
                len(data)
            except TypeError:
                raise TypeError('new(): data must be a sequence (got %s)' % type(data).__name__) from None
            return torch.tensor(data, dtype=torch.get_default_dtype())
        if kwargs or not all(isinstance(a, int) for a in args):
            raise TypeError('new(): invalid arguments; expected sizes (ints) or data')
        return super().__new__(cls, *args)

    def __repr__(self):
        return _tensor_str.tensor_repr(self, str(torch.get_default_dtype()))

    __str__ = __repr__

    def __format__(self, spec):
        if self.dim() == 0:
            return self.item().__format__(spec)
        return object.__format__(self, spec)

    def __iter__(self):
        if self.dim() == 0:
            raise TypeError('iteration over a 0-d tensor')
        return (self[i] for i in range(self.shape[0]))

    def __reversed__(self):
        if self.dim() == 0:
            return self
        return (self[i] for i in range(self.shape[0] - 1, -1, -1))

    def __array__(self, dtype=None):
        a = self.numpy()
        return a if dtype is None else a.astype(dtype, copy=False)

    @property
    def __array_interface__(self):
        address, shape, strides, typestr = self._array_parts()
        return {'data': (address, False), 'shape': tuple(shape), 'strides': tuple(strides),
                'typestr': typestr, 'version': 3}

    def numpy(self):
        """A numpy array sharing this tensor's memory."""
        import numpy
        return numpy.asarray(self)

    @property
    def T(self):
        if self.dim() != 2 and self.dim() != 0:
            import warnings
            warnings.warn('The use of `x.T` on tensors of dimension other than 2 to reverse their shape is '
                          'deprecated and it will throw an error in a future release. Consider `x.mT` to transpose '
                          'batches of matrices or `x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the '
                          'dimensions of a tensor.')
        return self.permute(tuple(range(self.dim() - 1, -1, -1)))  # a tuple: a 0-dim tensor has no dims

    @property
    def layout(self):
        return torch.strided

    def type(self, dtype=None, non_blocking=False, **kwargs):
        # the legacy type name, or a conversion to a dtype, a legacy type or its name
        if dtype is None:
            return _legacy.type_name(self.dtype)
        return _legacy.converted(self, dtype, non_blocking)

    def storage(self):
        return torch.storage.TypedStorage(self)

    def cpu(self):
        return self.to('cpu')

    def cuda(self, device=None):
        return self.to(torch.device('cuda', device) if isinstance(device, int) else (device or 'cuda'))

    def __reduce_ex__(self, protocol):
        return (torch.tensor, (self.tolist(), self.dtype))


# t.float(), t.long(), ...: conversions named after their dtype.
for _name, _dtype in (('float', torch.float32), ('double', torch.float64), ('half', torch.float16),
                      ('bfloat16', torch.bfloat16), ('long', torch.int64), ('int', torch.int32),
                      ('short', torch.int16), ('char', torch.int8), ('byte', torch.uint8), ('bool', torch.bool)):
    setattr(Tensor, _name, (lambda dtype: lambda self: self.to(dtype))(_dtype))
    getattr(Tensor, _name).__name__ = _name
del _name, _dtype

