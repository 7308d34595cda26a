"""Variable: since PyTorch 0.4 a tensor is its own Variable; Variable(t) returns t."""
import torch


class _VariableMeta(type):
    def __instancecheck__(cls, other):
        return isinstance(other, torch.Tensor)


class Variable(metaclass=_VariableMeta):
    def __new__(cls, data=None, requires_grad=False, volatile=False):
        if data is None:
            data = torch.tensor([])
        if not isinstance(data, torch.Tensor):
            raise TypeError('Variable data has to be a tensor, but got %s' % type(data).__name__)
        if volatile:
            import warnings
            warnings.warn('volatile was removed and now has no effect. Use `with torch.no_grad():` instead.')
        if requires_grad:
            data = data.detach().requires_grad_(True)
        return data
