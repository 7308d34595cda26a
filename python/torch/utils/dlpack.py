"""torch.utils.dlpack: tensors to and from other array libraries through DLPack, without copies."""
import enum

from torch import _C

__all__ = ['DLDeviceType', 'to_dlpack', 'from_dlpack']


class DLDeviceType(enum.IntEnum):
    """DLPack's device types (dlpack.h)."""
    kDLCPU = 1
    kDLGPU = 2
    kDLCPUPinned = 3
    kDLOpenCL = 4
    kDLVulkan = 7
    kDLMetal = 8
    kDLVPI = 9
    kDLROCM = 10
    kDLExtDev = 12


def to_dlpack(tensor):
    """A DLPack capsule sharing the tensor's memory (it keeps the tensor alive until consumed)."""
    return _C._to_dlpack(tensor)


def from_dlpack(ext_tensor):
    """A tensor sharing the memory of an object with __dlpack__ (numpy arrays, other tensors) or of a
    DLPack capsule, which can be consumed once."""
    if hasattr(ext_tensor, '__dlpack__'):
        device = ext_tensor.__dlpack_device__()
        if device[0] in (DLDeviceType.kDLGPU, DLDeviceType.kDLROCM):
            import torch
            capsule = ext_tensor.__dlpack__(stream=torch.cuda.current_stream(device[1]).cuda_stream)
        else:
            capsule = ext_tensor.__dlpack__()
        return _C._from_dlpack(capsule)
    return _C._from_dlpack(ext_tensor)
