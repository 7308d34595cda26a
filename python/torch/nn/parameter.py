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


def is_lazy(param):
    """Whether param is an uninitialized (lazy) parameter; there are none here."""
    return False
