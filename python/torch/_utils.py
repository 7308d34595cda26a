"""The functions pickles call to rebuild tensors (their names are part of PyTorch's file format:
torch.save writes `torch._utils._rebuild_tensor_v2` into every data.pkl), and small helpers."""
import torch
from torch import _C


def _element_size(dtype):
    """The size of one element of dtype, in bytes."""
    if not isinstance(dtype, torch.dtype):
        raise RuntimeError('expected torch.dtype, but got %s' % type(dtype))
    return dtype.itemsize


def _rebuild_tensor(storage, storage_offset, size, stride):
    """A tensor over `storage` (a TypedStorage) with this geometry, sharing its memory (PyTorch's
    tensor.set_(storage, offset, size, stride))."""
    return _C._storage_view(storage._t, storage_offset, size, stride)


def _set_backward_hooks(tensor, backward_hooks):
    # PyTorch stopped serialising hooks; files carry an empty OrderedDict. A file that does carry
    # some keeps them on the tensor, as PyTorch's rebuild does, without running them.
    if backward_hooks:
        tensor._backward_hooks = backward_hooks


def _rebuild_tensor_v2(storage, storage_offset, size, stride, requires_grad, backward_hooks):
    tensor = _rebuild_tensor(storage, storage_offset, size, stride)
    tensor.requires_grad = requires_grad
    _set_backward_hooks(tensor, backward_hooks)
    return tensor


def _rebuild_meta_tensor_no_storage(dtype, size, stride, requires_grad):
    return torch.empty_strided(size, stride, dtype=dtype, device='meta').requires_grad_(requires_grad)


def _parameter_class():
    # torch.nn.Parameter, imported when first needed (torch.nn may define it after this module loads)
    import torch.nn
    cls = getattr(torch.nn, 'Parameter', None)
    if cls is None:
        raise RuntimeError('this build has no torch.nn.Parameter to rebuild a saved parameter as')
    return cls


def _rebuild_parameter(data, requires_grad, backward_hooks):
    param = _parameter_class()(data, requires_grad)
    _set_backward_hooks(param, backward_hooks)
    return param


def _as_subclass(tensor, cls):
    if type(tensor) is cls:
        return tensor
    if hasattr(tensor, 'as_subclass'):
        return tensor.as_subclass(cls)
    if hasattr(torch.Tensor, '_make_subclass'):
        return torch.Tensor._make_subclass(cls, tensor, tensor.requires_grad)
    raise RuntimeError('cannot rebuild a tensor of class %s: this build cannot make tensor subclasses from '
                       'tensors' % cls.__name__)


def _get_obj_state(obj):
    """What a tensor subclass pickles of itself beside its data: its __getstate__(), or its __dict__
    (and its slots)."""
    getstate = getattr(obj, '__getstate__', None)
    if getstate is not None:
        return getstate()
    import copyreg
    slots = copyreg._slotnames(obj.__class__)
    if slots:
        return obj.__dict__, {name: getattr(obj, name) for name in slots if hasattr(obj, name)}
    return obj.__dict__


def _set_obj_state(obj, state):
    if isinstance(state, tuple):
        if not len(state) == 2:
            raise RuntimeError('Invalid serialized state: %s' % (state,))
        dict_state, slots_state = state
    else:
        dict_state, slots_state = state, None
    if dict_state:
        for name, value in dict_state.items():
            setattr(obj, name, value)
    if slots_state:
        for name, value in slots_state.items():
            setattr(obj, name, value)
    return obj


def _rebuild_from_type_v2(func, new_type, args, state):
    """A tensor subclass's instance: the tensor func(*args) rebuilds, as new_type, with its state."""
    ret = _as_subclass(func(*args), new_type)
    setstate = getattr(ret.__class__, '__setstate__', None)
    if setstate is not None and setstate is not getattr(torch.Tensor, '__setstate__', None) and \
            setstate is not object.__dict__.get('__setstate__'):
        ret.__setstate__(state)
    elif state:
        _set_obj_state(ret, state)
    return ret


def _import_dotted_name(name):
    components = name.split('.')
    obj = __import__(components[0])
    for component in components[1:]:
        obj = getattr(obj, component)
    return obj
