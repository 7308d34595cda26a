"""torch.backends.cudnn: PyTorch's cuDNN switches. This project links no cuDNN (the cuda plugin runs its
own kernels), so is_available() is False and version() None everywhere; the flags keep their values
and PyTorch's type checks, and mean nothing to any kernel here (the CPU kernels are deterministic)."""
import sys

from torch.backends import _Flag, _FlagModule, _flags_block


def is_available():
    """Whether cuDNN can be used: never here (no plugin links it)."""
    return False


def version():
    """cuDNN's version, or None when it is not available (always here)."""
    return None


def is_acceptable(tensor):
    """Whether cuDNN would take this tensor: a CUDA tensor of a float type with cuDNN available."""
    return bool(sys.modules[__name__].enabled and tensor.device.type == 'cuda' and
                tensor.dtype.is_floating_point and is_available())


def set_flags(_enabled=None, _benchmark=None, _benchmark_limit=None, _deterministic=None, _allow_tf32=None):
    m = sys.modules[__name__]
    old = m._set_flags(enabled=_enabled, benchmark=_benchmark)
    limit, m.benchmark_limit = m.benchmark_limit, (_benchmark_limit if _benchmark_limit is not None
                                                   else m.benchmark_limit)
    return old + (limit,) + m._set_flags(deterministic=_deterministic, allow_tf32=_allow_tf32)


def flags(enabled=False, benchmark=False, benchmark_limit=10, deterministic=False, allow_tf32=True):
    """The flags set inside the block, restored after it (PyTorch's defaults: everything off but tf32)."""
    return _flags_block(set_flags, enabled, benchmark, benchmark_limit, deterministic, allow_tf32)


class _CudnnModule(_FlagModule):
    enabled = _Flag('set_enabled_cudnn', True)
    benchmark = _Flag('set_benchmark_cudnn', False)
    deterministic = _Flag('set_deterministic_cudnn', False)
    allow_tf32 = _Flag('set_allow_tf32_cudnn', True)


benchmark_limit = 10
sys.modules[__name__].__class__ = _CudnnModule
