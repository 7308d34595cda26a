"""Parametrizations: a module's parameter or buffer computed by modules from an `original` tensor
(or several), so that optimisers update the original and every access reads the parametrized value.

register_parametrization replaces module.<name> by a property of a per-instance subclass of the
module's class, reading module.parametrizations[name](); the originals live in that
ParametrizationList as `original` (or original0, original1, ... when right_inverse returns several).
"""
import collections
from contextlib import contextmanager

import torch
from torch.nn.modules.container import Module, ModuleDict, ModuleList
from torch.nn.parameter import Parameter

__all__ = ['cached', 'ParametrizationList', 'register_parametrization', 'is_parametrized',
           'remove_parametrizations', 'type_before_parametrizations']

_cache_enabled = 0
_cache = {}


@contextmanager
def cached():
    """Within it, each parametrized tensor is computed once, at its first use."""
    global _cache_enabled
    _cache_enabled += 1
    try:
        yield
    finally:
        _cache_enabled -= 1
        if not _cache_enabled:
            _cache.clear()


def _register_parameter_or_buffer(module, name, x):
    if isinstance(x, Parameter):
        module.register_parameter(name, x)
    else:
        module.register_buffer(name, x)


class ParametrizationList(ModuleList):
    """The parametrizations of one tensor, applied in order to the original(s)."""

    def __init__(self, modules, original, unsafe=False):
        if len(modules) == 0:
            raise ValueError('ParametrizationList requires one or more modules.')
        super().__init__(modules)
        self.unsafe = unsafe
        original_shape, original_dtype = original.shape, original.dtype
        with torch.no_grad():
            new = original
            for module in reversed(self):
                if hasattr(module, 'right_inverse'):
                    try:
                        new = module.right_inverse(new)
                    except NotImplementedError:
                        pass
        if not isinstance(new, torch.Tensor) and not isinstance(new, collections.abc.Sequence):
            raise ValueError("'right_inverse' must return a Tensor or a Sequence of tensors (list, tuple...). "
                             "Got {}".format(type(new).__name__))
        self.is_tensor = isinstance(new, torch.Tensor)
        self.ntensors = 1 if self.is_tensor else len(new)
        if self.is_tensor:
            if original.dtype != new.dtype:
                raise ValueError('When `right_inverse` outputs one tensor, it may not change the dtype.\n'
                                 'original.dtype: {}\nright_inverse(original).dtype: {}'
                                 .format(original.dtype, new.dtype))
            with torch.no_grad():
                original.data = new  # keeps the Parameter object (optimisers may hold it)
            _register_parameter_or_buffer(self, 'original', original)
        else:
            for i, originali in enumerate(new):
                if not isinstance(originali, torch.Tensor):
                    raise ValueError("'right_inverse' must return a Tensor or a Sequence of tensors (list, tuple...). "
                                     'Got element {} of the sequence with type {}.'.format(i, type(originali).__name__))
                if isinstance(original, Parameter):
                    originali = Parameter(originali, original.requires_grad)
                originali.requires_grad_(original.requires_grad)
                _register_parameter_or_buffer(self, 'original{}'.format(i), originali)
        if not self.unsafe:
            z = self()
            if not isinstance(z, torch.Tensor):
                raise ValueError('A parametrization must return a tensor. Got {}.'.format(type(z).__name__))
            if z.dtype != original_dtype:
                raise ValueError('Registering a parametrization may not change the dtype of the tensor, unless '
                                 '`unsafe` flag is enabled.\nunparametrized dtype: {}\nparametrized dtype: {}'
                                 .format(original_dtype, z.dtype))
            if z.shape != original_shape:
                raise ValueError('Registering a parametrization may not change the shape of the tensor, unless '
                                 '`unsafe` flag is enabled.\nunparametrized shape: {}\nparametrized shape: {}'
                                 .format(original_shape, z.shape))

    def right_inverse(self, value):
        """Sets the original(s) so that the parametrized tensor becomes `value`."""
        with torch.no_grad():
            for module in reversed(self):
                if hasattr(module, 'right_inverse'):
                    value = module.right_inverse(value)
                else:
                    raise RuntimeError('parametrization {} does not implement right_inverse.'
                                       .format(type(module).__name__))
            if self.is_tensor:
                if not isinstance(value, torch.Tensor):
                    raise ValueError('`right_inverse` should return a tensor. Got {}'.format(type(value).__name__))
                if value.dtype != self.original.dtype:
                    raise ValueError('The tensor returned by `right_inverse` has dtype {} while `original` has dtype {}'
                                     .format(value.dtype, self.original.dtype))
                self.original.data = value
            else:
                if not isinstance(value, collections.abc.Sequence) or len(value) != self.ntensors:
                    raise ValueError("'right_inverse' must return a sequence of tensors of length {}."
                                     .format(self.ntensors))
                for i, tensor in enumerate(value):
                    getattr(self, 'original{}'.format(i)).data = tensor

    def forward(self):
        if self.is_tensor:
            x = self[0](self.original)
        else:
            x = self[0](*(getattr(self, 'original{}'.format(i)) for i in range(self.ntensors)))
        for i in range(1, len(self)):  # (a slice would construct a ParametrizationList)
            x = self[i](x)
        return x


def _inject_new_class(module):
    cls = module.__class__

    def getstate(self):
        raise RuntimeError('Serialization of parametrized modules is only supported through state_dict(). See:\n'
                           'https://pytorch.org/tutorials/beginner/saving_loading_models.html'
                           '#saving-loading-a-general-checkpoint-for-inference-and-or-resuming-training')

    module.__class__ = type('Parametrized' + cls.__name__, (cls,), {'__getstate__': getstate})


def _inject_property(module, tensor_name):
    assert not hasattr(module, tensor_name)

    def get_parametrized(self):
        parametrization = self.parametrizations[tensor_name]
        if _cache_enabled:
            key = (id(self), tensor_name)
            tensor = _cache.get(key)
            if tensor is None:
                tensor = parametrization()
                _cache[key] = tensor
            return tensor
        return parametrization()

    def set_original(self, value):
        self.parametrizations[tensor_name].right_inverse(value)

    setattr(module.__class__, tensor_name, property(get_parametrized, set_original))


def register_parametrization(module, tensor_name, parametrization, *, unsafe=False):
    """Makes module.<tensor_name> the output of `parametrization` applied to the original tensor."""
    parametrization.train(module.training)
    if is_parametrized(module, tensor_name):
        if not unsafe:
            y = getattr(module, tensor_name)
            x = parametrization(y)
            if not isinstance(x, torch.Tensor):
                raise ValueError('A parametrization must return a tensor. Got {}.'.format(type(x).__name__))
            if x.dtype != y.dtype or x.shape != y.shape:
                raise ValueError('Registering a parametrization may not change the dtype or shape of the tensor, '
                                 'unless the `unsafe` flag is enabled.')
        module.parametrizations[tensor_name].append(parametrization)
        module.parametrizations[tensor_name].unsafe |= unsafe
    elif tensor_name in module._buffers or tensor_name in module._parameters:
        original = getattr(module, tensor_name)
        parametrizations = ParametrizationList([parametrization], original, unsafe=unsafe)
        delattr(module, tensor_name)
        if not is_parametrized(module):
            _inject_new_class(module)
            module.parametrizations = ModuleDict()
        _inject_property(module, tensor_name)
        module.parametrizations[tensor_name] = parametrizations
    else:
        raise ValueError("Module '{}' does not have a parameter, a buffer, or a parametrized element with name '{}'"
                         .format(module, tensor_name))
    return module


def is_parametrized(module, tensor_name=None):
    """Whether module has any parametrization (or one on tensor_name)."""
    parametrizations = getattr(module, 'parametrizations', None)
    if parametrizations is None or not isinstance(parametrizations, ModuleDict):
        return False
    if tensor_name is None:
        return len(parametrizations) > 0
    return tensor_name in parametrizations


def remove_parametrizations(module, tensor_name, leave_parametrized=True):
    """Removes the parametrizations of tensor_name: it becomes a plain parameter (or buffer) holding
    the parametrized value (leave_parametrized) or the original."""
    if not is_parametrized(module, tensor_name):
        raise ValueError('Module {} does not have a parametrization on {}'.format(module, tensor_name))
    parametrizations = module.parametrizations[tensor_name]
    if parametrizations.is_tensor:
        original = parametrizations.original
        if leave_parametrized:
            with torch.no_grad():
                t = getattr(module, tensor_name)
            with torch.no_grad():
                if type(original) is torch.Tensor:
                    original.data = t
                else:
                    try:
                        original.data = t
                    except RuntimeError as e:
                        raise RuntimeError('Calling remove_parametrizations() with leave_parametrized=True for a '
                                           'parameter that is an instance of a tensor subclass requires set_() to be '
                                           'implemented correctly for the tensor subclass.') from e
    else:
        if leave_parametrized:
            t = getattr(module, tensor_name)
            original = Parameter(t.detach(), t.requires_grad) if t.requires_grad else t.detach()
        else:
            raise ValueError('Cannot leave unparametrized (`leave_parametrized=False`) a tensor that is parametrized '
                             'in terms of a sequence of tensors.')
    delattr(module.__class__, tensor_name)
    del module.parametrizations[tensor_name]
    _register_parameter_or_buffer(module, tensor_name, original)
    if not is_parametrized(module):
        delattr(module, 'parametrizations')
        module.__class__ = module.__class__.__bases__[0]
    return module


def type_before_parametrizations(module):
    """The module's class as it was before parametrizations were registered on it."""
    if is_parametrized(module):
        return module.__class__.__bases__[0]
    return type(module)
