"""nn.Parameter: a Tensor subclass that a Module registers as a parameter when assigned to it."""
from collections import OrderedDict

import torch


class Parameter(torch.Tensor):
    """A tensor that is a module's parameter: assigning one to a Module attribute registers it, and
    it appears in parameters(). It requires grad by default.

    It shares the storage of the tensor it is made from (Tensor._make_subclass), without its history.
    """

    def __new__(cls, data=None, requires_grad=True):
        if data is None:
            data = torch.empty(0)
        if type(data) is torch.Tensor or type(data) is Parameter:
            return torch.Tensor._make_subclass(cls, data, requires_grad)
        # a tensor of another subclass keeps its class, marked as a parameter
        t = data.detach().requires_grad_(requires_grad)
        if type(t) is not type(data):
            raise RuntimeError(f"Creating a Parameter from an instance of type {type(data).__name__} requires that "
                               f"detach() returns an instance of the same type, but return type "
                               f"{type(t).__name__} was found instead. To use the type as a Parameter, please "
                               f"correct the detach() semantics defined by its __torch_dispatch__() "
                               f"implementation.")
        t._is_param = True
        return t

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        result = type(self)(self.data.clone(memory_format=torch.preserve_format), self.requires_grad)
        memo[id(self)] = result
        return result

    def __repr__(self):
        return 'Parameter containing:\n' + super().__repr__()

    __str__ = __repr__  # torch.Tensor binds __str__ to its own __repr__

    def __reduce_ex__(self, proto):
        # PyTorch's form: torch._utils._rebuild_parameter is the global its files name (torch.save)
        return (torch._utils._rebuild_parameter, (self.data, self.requires_grad, OrderedDict()))


def _rebuild_parameter(data, requires_grad, backward_hooks):
    """What pickles made by earlier builds of this project name; the same as torch._utils'."""
    return torch._utils._rebuild_parameter(data, requires_grad, backward_hooks)


class UninitializedTensorMixin:
    """A parameter or buffer whose shape is not known yet (the lazy modules'): its data is an empty
    tensor that keeps the dtype and device; materialize() gives it a shape and makes it an ordinary
    Parameter (or tensor) in place, so that references to it stay valid."""

    _uninitialized_message = ("Can't access the shape of an uninitialized parameter or buffer. This error usually "
                              "happens in `load_state_dict` when trying to load an uninitialized parameter into an "
                              "initialized one. Call `forward` to initialize the parameters before accessing their "
                              "attributes.")

    def materialize(self, shape, device=None, dtype=None):
        """Allocates the data (uninitialized values) of the given shape, by default on the same device
        and of the same dtype as now, and turns this object into its initialized class."""
        device = self.data.device if device is None else device
        dtype = self.data.dtype if dtype is None else dtype
        self.data = torch.empty(shape, device=device, dtype=dtype)
        self.__class__ = self.cls_to_become

    @property
    def shape(self):
        raise RuntimeError(self._uninitialized_message)

    def size(self, *args):
        raise RuntimeError(self._uninitialized_message)

    def numel(self):
        raise RuntimeError(self._uninitialized_message)

    def share_memory_(self):
        raise RuntimeError("Can't share memory on an uninitialized parameter or buffer. Call `forward` to initialize "
                           "the parameters before calling `module.share_memory()`.")

    def __repr__(self):
        return '<%s>' % self.__class__.__name__

    __str__ = __repr__

    def __reduce_ex__(self, proto):
        return (self.__class__, (self.requires_grad,))


class UninitializedParameter(UninitializedTensorMixin, Parameter):
    """A Parameter whose shape a lazy module infers from its first input."""

    cls_to_become = Parameter

    def __new__(cls, requires_grad=True, device=None, dtype=None):
        return torch.Tensor._make_subclass(cls, torch.empty(0, device=device, dtype=dtype), requires_grad)

    def __deepcopy__(self, memo):
        if id(self) not in memo:
            memo[id(self)] = type(self)(self.requires_grad, self.data.device, self.data.dtype)
        return memo[id(self)]


class UninitializedBuffer(UninitializedTensorMixin, torch.Tensor):
    """A buffer whose shape a lazy module infers from its first input."""

    cls_to_become = torch.Tensor

    def __new__(cls, requires_grad=False, device=None, dtype=None):
        return torch.Tensor._make_subclass(cls, torch.empty(0, device=device, dtype=dtype), requires_grad)


def is_lazy(param):
    """Whether param is an uninitialized (lazy) parameter or buffer."""
    return isinstance(param, UninitializedTensorMixin)
