"""torch.Tensor: the Python class over the C type torch._C._TensorBase."""
import copy

import torch
from torch import _C
from torch import _legacy, _tensor_str


def _part_property(view):
    return property(view, lambda self, value: view(self).copy_(value))


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

    # PyTorch's real and imag are attributes (views), and assigning to them writes through
    real = _part_property(_C.real)
    imag = _part_property(_C.imag)

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

    def is_floating_point(self):
        return self.dtype.is_floating_point

    def is_complex(self):
        return self.dtype.is_complex

    def __complex__(self):
        return complex(self.item())

    def __reduce_ex__(self, protocol):
        # raw bytes, not Python numbers: tensors cross processes (DataLoader workers) at memcpy speed
        t = self.detach()
        if t.device.type != 'cpu':
            t = t.cpu()
        strides = self.stride() if _is_dense(self) else None
        return (_rebuild_from_bytes, (_C._tensor_to_bytes(t.contiguous()), self.dtype, tuple(self.shape), strides,
                                      self.requires_grad))

    def __deepcopy__(self, memo):
        if not self.is_leaf:
            raise RuntimeError("Only Tensors created explicitly by the user (graph leaves) support the deepcopy "
                               "protocol at the moment")
        if id(self) in memo:
            return memo[id(self)]
        with torch.no_grad():
            new = self.clone()
            if type(self) is not Tensor:  # the copy keeps the subclass
                new = Tensor._make_subclass(type(self), new)
            new.requires_grad_(self.requires_grad)
            if self.grad is not None:
                new.grad = self.grad.__deepcopy__(memo)
            new.__dict__.update({k: copy.deepcopy(v, memo) for k, v in self.__dict__.items()})
        memo[id(self)] = new
        return new

    # PyTorch's Python-level methods over torch.functional
    def norm(self, p='fro', dim=None, keepdim=False, dtype=None):
        return torch.functional.norm(self, p, dim, keepdim, dtype=dtype)

    def unique(self, sorted=True, return_inverse=False, return_counts=False, dim=None):
        return torch.functional.unique(self, sorted=sorted, return_inverse=return_inverse,
                                       return_counts=return_counts, dim=dim)

    def unique_consecutive(self, return_inverse=False, return_counts=False, dim=None):
        return torch.functional.unique_consecutive(self, return_inverse=return_inverse,
                                                   return_counts=return_counts, dim=dim)


# t.float(), t.long(), ...: conversions named after their dtype.
for _name, _dtype in (('float', torch.float32), ('double', torch.float64), ('half', torch.float16),
                      ('bfloat16', torch.bfloat16), ('long', torch.int64), ('int', torch.int32),
                      ('short', torch.int16), ('char', torch.int8), ('byte', torch.uint8), ('bool', torch.bool),
                      ('chalf', torch.complex32), ('cfloat', torch.complex64), ('cdouble', torch.complex128)):
    setattr(Tensor, _name, (lambda dtype: lambda self: self.to(dtype))(_dtype))
    getattr(Tensor, _name).__name__ = _name
del _name, _dtype


def _is_dense(t):
    """Whether t's elements fill a block of memory without gaps (a permutation of contiguous strides)."""
    expected = 1
    for size, stride in sorted(zip(t.shape, t.stride()), key=lambda d: d[1]):
        if size != 1 and stride != expected:
            return False
        expected *= size
    return True


def _rebuild_from_bytes(data, dtype, shape, strides, requires_grad):
    """The other half of Tensor.__reduce_ex__: a tensor with the pickled values (and strides)."""
    t = _C._tensor_from_bytes(data, dtype, shape)
    if strides is not None and tuple(strides) != t.stride():
        t = torch.empty_strided(shape, strides, dtype=dtype).copy_(t)
    if requires_grad:
        t.requires_grad_(True)
    return t



def _backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
    """Computes the gradient of this tensor with respect to the graph's leaves (see
    torch.autograd.backward)."""
    torch.autograd.backward(self, gradient, retain_graph, create_graph, inputs=inputs)


def _register_hook(self, hook):
    """hook(grad) runs when the gradient of this tensor is computed; it may return a replacement."""
    if not self.requires_grad:
        raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
    from torch.utils.hooks import RemovableHandle
    hook_id = self._register_hook_c(hook)
    return RemovableHandle(self, lambda t: t._remove_hook(hook_id))


Tensor.backward = _backward
Tensor._register_hook_c = _C._TensorBase._register_hook
Tensor.register_hook = _register_hook
Tensor.__module__ = 'torch'
del _backward, _register_hook
