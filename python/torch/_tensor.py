"""torch.Tensor: the Python class over the C type torch._C._TensorBase."""
import copy
import copyreg
from collections import OrderedDict

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

    def numpy(self, *, force=False):
        """A numpy array sharing this tensor's memory; force=True first detaches, moves to the CPU and
        resolves the conjugate and negative bits (copying where needed), as PyTorch's does."""
        import numpy
        if force:
            self = self.detach().cpu().resolve_conj().resolve_neg()
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

    # transposes of the last two dims: mT, mH (conjugated) and adjoint() on matrices and batches of
    # them, H on matrices only
    @property
    def mT(self):
        _check_matrices(self, 'tensor.mT')
        return self.transpose(-2, -1)

    @property
    def mH(self):
        _check_matrices(self, 'tensor.mH')
        return self.transpose(-2, -1).conj()

    def adjoint(self):
        _check_matrices(self, 'tensor.adjoint()')
        return self.transpose(-2, -1).conj()

    @property
    def H(self):
        if self.dim() not in (0, 2):
            hint = ' For batches of matrices, consider using tensor.mH' if self.dim() > 2 else ''
            raise RuntimeError('tensor.H is only supported on matrices (2-D tensors). Got %d-D tensor.%s'
                               % (self.dim(), hint))
        return self.t().conj()

    def new_tensor(self, data, dtype=None, device=None, requires_grad=False):
        """A new tensor holding a copy of data, with self's dtype and device unless given."""
        return torch.tensor(data, dtype=self.dtype if dtype is None else dtype,
                            device=self.device if device is None else device, requires_grad=requires_grad)

    def __dlpack__(self, stream=None):
        """A DLPack capsule sharing this tensor's memory (the DLPack protocol's producer side)."""
        if self.device.type == 'cuda' and stream is not None and stream != -1:
            torch.cuda.current_stream(self.device).synchronize()  # the consumer's stream sees our writes
        return torch._C._to_dlpack(self)

    def __dlpack_device__(self):
        from torch.utils.dlpack import DLDeviceType
        if self.device.type == 'cuda':
            return (DLDeviceType.kDLGPU, self.device.index)
        return (DLDeviceType.kDLCPU, 0)

    def __rdiv__(self, other):  # PyTorch keeps Python 2's name beside __rtruediv__
        return self.__rtruediv__(other)

    # methods of the functions composed in torch._composites
    def diff(self, n=1, dim=-1, prepend=None, append=None):
        return torch.diff(self, n, dim, prepend, append)

    def ravel(self):
        return self.reshape(-1)

    def inner(self, other):
        return torch.inner(self, other)

    def logaddexp(self, other):
        return torch.logaddexp(self, other)

    def logaddexp2(self, other):
        return torch.logaddexp2(self, other)

    def sinc(self):
        return torch.sinc(self)

    def dist(self, other, p=2):
        return torch.dist(self, other, p)

    def cov(self, *, correction=1, fweights=None, aweights=None):
        return torch.cov(self, correction=correction, fweights=fweights, aweights=aweights)

    def corrcoef(self):
        return torch.corrcoef(self)

    def hsplit(self, indices_or_sections):
        return torch.hsplit(self, indices_or_sections)

    def vsplit(self, indices_or_sections):
        return torch.vsplit(self, indices_or_sections)

    def dsplit(self, indices_or_sections):
        return torch.dsplit(self, indices_or_sections)

    def is_nonzero(self):
        return torch.is_nonzero(self)

    def is_same_size(self, other):
        return self.shape == other.shape

    def is_signed(self):
        return self.dtype.is_signed

    def type_as(self, other):
        return self.to(other.dtype)

    def ldexp(self, other):
        return torch.ldexp(self, other)

    def ldexp_(self, other):
        return self.mul_(torch.pow(2.0, other))

    def frexp(self):
        return torch.frexp(self)

    def new(self, *args, **kwargs):
        """The legacy constructor: new() is empty, new(sizes...) uninitialised, new(sequence) its
        data, all in this tensor's dtype and on its device; new(tensor) that tensor (an alias) when
        its dtype and device are these."""
        device = kwargs.pop('device', None)
        if kwargs:
            raise TypeError('new() got an unexpected keyword argument %r' % next(iter(kwargs)))
        device = self.device if device is None else torch.device(device)
        if len(args) == 1 and isinstance(args[0], Tensor):
            other = args[0]
            if other.dtype != self.dtype or other.device != device:
                raise TypeError('expected %s on %s (got %s on %s)' % (self.dtype, device, other.dtype, other.device))
            return other.view_as(other)
        if len(args) == 1 and not isinstance(args[0], (int, torch.Size)) and hasattr(args[0], '__len__'):
            return torch.tensor(args[0], dtype=self.dtype, device=device)
        sizes = args[0] if len(args) == 1 and isinstance(args[0], torch.Size) else args
        if not all(isinstance(n, int) for n in sizes):
            raise TypeError('new(): expected sizes (ints), a sequence of data or a tensor, got %r' % (args,))
        return torch.empty(tuple(sizes) if sizes else (0,), dtype=self.dtype, device=device)

    def _map_elements(self, name, callable, *others):
        """Every element replaced by callable(element, the others' elements broadcast to self), in
        Python (CPU tensors only, as PyTorch's apply_/map_/map2_)."""
        if self.device.type != 'cpu':
            raise TypeError('%s is only implemented on CPU tensors' % name)
        columns = [self.reshape(-1).tolist()] + [o.expand_as(self).reshape(-1).tolist() for o in others]
        values = [callable(*row) for row in zip(*columns)]
        return self.copy_(torch.tensor(values, dtype=self.dtype).reshape(self.shape))

    def apply_(self, callable):
        return self._map_elements('apply_', callable)

    def map_(self, tensor, callable):
        return self._map_elements('map_', callable, tensor)

    def map2_(self, x, y, callable):
        return self._map_elements('map2_', callable, x, y)

    def new_empty_strided(self, size, stride, *, dtype=None, layout=None, device=None, pin_memory=False,
                          requires_grad=False):
        return torch.empty_strided(size, stride, dtype=self.dtype if dtype is None else dtype, layout=layout,
                                   device=self.device if device is None else device, pin_memory=pin_memory,
                                   requires_grad=requires_grad)

    def fill_diagonal_(self, fill_value, wrap=False):
        """The main diagonal (of a matrix, or of a tensor whose dims are all equal) set to fill_value;
        with wrap, a tall matrix's diagonal starts again below each square block."""
        if self.dim() < 2:
            raise RuntimeError('dimensions must larger than 1')
        if self.dim() > 2 and len(set(self.shape)) != 1:
            raise RuntimeError('all dimensions of input must be of equal length')
        size = min(self.shape)
        step = sum(self.stride())
        # fills of views of self: autograd records them as PyTorch does (CopySlices)
        self.as_strided((size,), (step,), self.storage_offset()).fill_(fill_value)
        height, width = self.shape[0], self.shape[1]
        if wrap and self.dim() == 2 and height > width + 1:
            rest = (self.numel() + width) // (width + 1) - size
            if rest > 0:
                self.as_strided((rest,), (step,), self.storage_offset() + self.stride(0) * (width + 1)).fill_(fill_value)
        return self

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

    def share_memory_(self):
        """Moves this tensor's storage into shared memory in place (see torch.multiprocessing)."""
        self.storage().share_memory_()
        return self

    def is_shared(self):
        return self.storage().is_shared()

    def cpu(self, memory_format=torch.preserve_format):
        return self.to('cpu', memory_format=memory_format)

    def cuda(self, device=None, non_blocking=False):
        return self.to(torch.device('cuda', device) if isinstance(device, int) else (device or 'cuda'))

    def pin_memory(self, device=None):
        """A copy of this CPU tensor in page-locked host memory (cudaHostAlloc): copies from it to a
        cuda device are asynchronous on the current stream."""
        return torch.cuda._pin(self)

    def is_pinned(self, device=None):
        return self.device.type == 'cpu' and torch.cuda._is_pinned(self)

    def is_floating_point(self):
        return self.dtype.is_floating_point

    def is_complex(self):
        return self.dtype.is_complex

    def __complex__(self):
        return complex(self.item())

    def __reduce_ex__(self, protocol):
        # PyTorch's pickle of a tensor: its storage (a persistent id in torch.save's files, a legacy
        # torch.save file of its own in a plain pickle), offset, sizes, strides and requires_grad
        func, args = self._reduce_ex_internal(protocol)
        if type(self) is Tensor:
            return func, args
        parameter = _parameter_class()
        if parameter is not None and type(self) is parameter and \
                getattr(parameter, '__reduce_ex__', None) is Tensor.__reduce_ex__:
            # what nn.Parameter.__reduce_ex__ gives in PyTorch, for a Parameter class without its own
            return (torch._utils._rebuild_parameter, (self.data, self.requires_grad, OrderedDict()))
        return (torch._utils._rebuild_from_type_v2, (func, type(self), args, torch._utils._get_obj_state(self)))

    def _reduce_ex_internal(self, protocol):
        if self.device.type == 'meta':
            return (torch._utils._rebuild_meta_tensor_no_storage,
                    (self.dtype, tuple(self.size()), self.stride(), self.requires_grad))
        return (torch._utils._rebuild_tensor_v2,
                (self.storage(), self.storage_offset(), tuple(self.size()), self.stride(), self.requires_grad,
                 OrderedDict()))

    def __deepcopy__(self, memo):
        if not self.is_leaf:
            raise RuntimeError('Only Tensors created explicitly by the user (graph leaves) support the deepcopy '
                               'protocol at the moment')
        if id(self) in memo:
            return memo[id(self)]
        with torch.no_grad():
            if self.device.type == 'meta':
                new_tensor = self.clone()
            else:
                # the storage is copied once per deepcopy (memo), so views copied together stay views
                new_storage = self.storage().__deepcopy__(memo)
                new_tensor = torch._utils._rebuild_tensor(new_storage, self.storage_offset(), self.size(),
                                                          self.stride())
            if type(self) is not Tensor:
                new_tensor = torch._utils._as_subclass(new_tensor, type(self))
            if self.requires_grad:
                new_tensor.requires_grad_()
            if self.grad is not None:
                new_tensor.grad = self.grad.__deepcopy__(memo)
            if type(self) is not Tensor:
                for slot in copyreg._slotnames(self.__class__):
                    if hasattr(self, slot):
                        setattr(new_tensor, slot, copy.deepcopy(getattr(self, slot), memo))
            if self.__dict__:
                new_tensor.__dict__ = copy.deepcopy(self.__dict__, memo)
            memo[id(self)] = new_tensor
            return new_tensor

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
    def _convert(dtype, name):
        def conversion(self, memory_format=torch.preserve_format):
            return self.to(dtype, memory_format=memory_format)
        conversion.__name__ = conversion.__qualname__ = name
        return conversion
    setattr(Tensor, _name, _convert(_dtype, _name))
del _name, _dtype


def _check_matrices(t, what):
    if t.dim() < 2:
        raise RuntimeError('%s is only supported on matrices or batches of matrices. Got %d-D tensor.' % (what, t.dim()))


def _rebuild_from_bytes(data, dtype, shape, strides, requires_grad):
    """A tensor from the pickles earlier builds of this project made (raw bytes, shape and strides);
    tensors pickle as PyTorch's now (Tensor.__reduce_ex__), and this keeps the old pickles loading."""
    t = _C._tensor_from_bytes(data, dtype, shape)
    if strides is not None and tuple(strides) != t.stride():
        t = torch.empty_strided(shape, strides, dtype=dtype).copy_(t)
    if requires_grad:
        t.requires_grad_(True)
    return t



def _parameter_class():
    nn = getattr(torch, 'nn', None)
    return getattr(nn, 'Parameter', None)


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
