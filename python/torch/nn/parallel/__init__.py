"""torch.nn.parallel: DataParallel and data_parallel. Without CUDA the module runs on the CPU as
PyTorch's does (forward calls it); with one CUDA device the inputs move to it first. Replicating over
several GPUs (scatter, replicate, parallel_apply, gather) is not implemented: more than one device in
device_ids raises NotImplementedError. DistributedDataParallel is not here (torch.distributed)."""
import torch
from torch.nn.modules import Module

__all__ = ['DataParallel', 'data_parallel']


def _device_ids(device_ids):
    if not torch.cuda.is_available():
        return []
    ids = list(range(torch.cuda.device_count())) if device_ids is None else [
        d if isinstance(d, int) else torch.cuda._index(d) for d in device_ids]
    if len(ids) > 1:
        raise NotImplementedError('DataParallel over %d devices: replicating a module across GPUs is not '
                                  'implemented in this build; pass device_ids=[one device]' % len(ids))
    return ids


def _to(obj, device):
    if isinstance(obj, torch.Tensor):
        return obj.to(device)
    if isinstance(obj, (list, tuple)):
        return type(obj)(_to(o, device) for o in obj)
    if isinstance(obj, dict):
        return {k: _to(v, device) for k, v in obj.items()}
    return obj


class DataParallel(Module):
    """Wraps `module` (its parameters' names gain the prefix `module.`); forward runs it on the one
    device in device_ids, or as it is where there is no CUDA."""

    def __init__(self, module, device_ids=None, output_device=None, dim=0):
        super().__init__()
        self.module = module
        self.dim = dim
        self.device_ids = _device_ids(device_ids)
        if not self.device_ids:
            self.output_device = None
            return
        self.output_device = self.device_ids[0] if output_device is None else (
            output_device if isinstance(output_device, int) else torch.cuda._index(output_device))
        self.src_device_obj = torch.device('cuda', self.device_ids[0])
        for t in list(module.parameters()) + list(module.buffers()):
            if t.device != self.src_device_obj:
                raise RuntimeError('module must have its parameters and buffers on device %s (device_ids[0]) '
                                   'but found one of them on device: %s' % (self.src_device_obj, t.device))

    def forward(self, *inputs, **kwargs):
        if not self.device_ids:
            return self.module(*inputs, **kwargs)
        device = self.src_device_obj
        return _to(self.module(*_to(inputs, device), **_to(kwargs, device)), torch.device('cuda', self.output_device))


def data_parallel(module, inputs, device_ids=None, output_device=None, dim=0, module_kwargs=None):
    """module(*inputs, **module_kwargs) as DataParallel would run it, without keeping a wrapper."""
    if not isinstance(inputs, tuple):
        inputs = (inputs,) if inputs is not None else ()
    return DataParallel(module, device_ids, output_device, dim)(*inputs, **(module_kwargs or {}))
