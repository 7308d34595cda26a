"""Parameters as one flat vector and back."""
import torch
from torch.nn.modules.module import _typename

__all__ = ['parameters_to_vector', 'vector_to_parameters']


def _check_param_device(param, old_param_device):
    """The device index of the first parameter (-1 for the CPU); later ones must be on it too."""
    if old_param_device is None:
        return param.get_device() if param.is_cuda else -1
    if (param.get_device() != old_param_device) if param.is_cuda else (old_param_device != -1):
        raise TypeError('Found two parameters on different devices, this is currently not supported.')
    return old_param_device


def parameters_to_vector(parameters):
    """The parameters flattened into one vector, in order (differentiable with respect to them)."""
    device = None
    params = list(parameters)
    total = 0
    for p in params:
        device = _check_param_device(p, device)
        total += p.numel()
    if not params:
        raise RuntimeError('torch.cat(): expected a non-empty list of Tensors')
    # torch.cat comes with the joining family; writing the pieces into a vector records CopySlices
    vec = params[0].new_empty((total,))
    offset = 0
    for p in params:
        vec[offset:offset + p.numel()] = p.reshape(-1)
        offset += p.numel()
    return vec


def vector_to_parameters(vec, parameters):
    """Points each parameter's data at its piece of vec (a view: no copy)."""
    if not isinstance(vec, torch.Tensor):
        raise TypeError('expected torch.Tensor, but got: {}'.format(_typename(vec)))
    device = None
    pointer = 0
    for param in parameters:
        device = _check_param_device(param, device)
        n = param.numel()
        param.data = vec[pointer:pointer + n].view_as(param).data
        pointer += n
