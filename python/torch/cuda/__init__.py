"""torch.cuda: the CUDA device, provided by the cuda plugin when one is built and a GPU is present.

Device counts, availability and the allocator's statistics come through the core (torch._C); the
few queries the plugin ABI has no slot for yet (device names and properties, the current device,
synchronize, peak reset) call the plugin's exported tc_cuda_* functions through ctypes.
"""
import ctypes

from torch import _C

_lib_handle = None


def is_available():
    """True when the cuda plugin loaded and sees at least one device."""
    return _C._device_count('cuda') > 0


def device_count():
    return _C._device_count('cuda')


def unavailable_reason():
    """Why CUDA cannot be used here (the plugin loader's reason), or None when it can."""
    if is_available():
        return None
    return _C._device_unavailable_reason('cuda') or 'no CUDA plugin was found'


def is_initialized():
    return is_available()


def _lazy_init():
    if not is_available():
        raise RuntimeError('Torch not compiled with CUDA enabled' if _C._device_unavailable_reason('cuda') is None
                           else 'CUDA is not available: ' + unavailable_reason())


def _lib():
    """The loaded cuda plugin, opened again by its path (the same handle the core holds)."""
    global _lib_handle
    _lazy_init()
    if _lib_handle is None:
        import torch
        path = [p['path'] for p in torch.backends.plugins() if p['name'] == 'cuda' and p['state'] == 'loaded'][0]
        lib = ctypes.CDLL(path)
        lib.tc_cuda_device_properties.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t]
        _lib_handle = lib
    return _lib_handle


def _index(device):
    if device is None:
        return current_device()
    if isinstance(device, int):
        return device
    import torch
    d = torch.device(device) if isinstance(device, str) else device
    if d.type != 'cuda':
        raise ValueError('Expected a cuda device, but got: %s' % d)
    return current_device() if d.index is None else d.index


def current_device():
    return _lib().tc_cuda_current_device()


def set_device(device):
    index = _index(device)
    if index < 0:
        return
    if _lib().tc_cuda_set_device(index) != 0:
        raise RuntimeError('CUDA error: invalid device ordinal %d' % index)


def synchronize(device=None):
    rc = _lib().tc_cuda_synchronize(_index(device))
    if rc != 0:
        raise RuntimeError('CUDA error %d in synchronize' % rc)


class _CudaDeviceProperties:
    def __init__(self, name, major, minor, total_memory, multi_processor_count):
        self.name, self.major, self.minor = name, major, minor
        self.total_memory, self.multi_processor_count = total_memory, multi_processor_count

    def __repr__(self):
        return ("_CudaDeviceProperties(name='%s', major=%d, minor=%d, total_memory=%dMB, multi_processor_count=%d)"
                % (self.name, self.major, self.minor, self.total_memory // (1 << 20), self.multi_processor_count))


def get_device_properties(device=None):
    buf = ctypes.create_string_buffer(512)
    index = _index(device)
    if _lib().tc_cuda_device_properties(index, buf, 512) != 0:
        raise AssertionError('Invalid device id')
    name, major, minor, total, sms = buf.value.decode().rsplit('|', 4)
    return _CudaDeviceProperties(name, int(major), int(minor), int(total), int(sms))


def get_device_name(device=None):
    return get_device_properties(device).name


def get_device_capability(device=None):
    p = get_device_properties(device)
    return (p.major, p.minor)


def _stats():
    return _C._allocator_stats('cuda') if is_available() else None


def memory_allocated(device=None):
    s = _stats()
    return s['allocated_bytes'] if s else 0


def max_memory_allocated(device=None):
    s = _stats()
    return s['peak_allocated_bytes'] if s else 0


def memory_reserved(device=None):
    s = _stats()
    return s['allocated_bytes'] + s['cached_bytes'] if s else 0


def reset_peak_memory_stats(device=None):
    if is_available():
        _lib().tc_cuda_reset_peak_memory_stats()


def empty_cache():
    if is_available():
        _C._empty_cache('cuda')


def memory_stats(device=None):
    s = _stats() or {'allocated_bytes': 0, 'cached_bytes': 0, 'peak_allocated_bytes': 0, 'n_allocs': 0,
                     'n_cache_hits': 0}
    return {'allocated_bytes.all.current': s['allocated_bytes'],
            'allocated_bytes.all.peak': s['peak_allocated_bytes'],
            'reserved_bytes.all.current': s['allocated_bytes'] + s['cached_bytes'],
            'num_alloc_retries': 0, 'num_allocs': s['n_allocs'], 'num_cache_hits': s['n_cache_hits']}


class device:
    """Context manager that changes the current device."""

    def __init__(self, device):
        self.idx = -1 if device is None else _index(device)
        self.prev = -1

    def __enter__(self):
        if self.idx >= 0:
            self.prev = current_device()
            if self.prev != self.idx:
                set_device(self.idx)

    def __exit__(self, *exc):
        if self.idx >= 0 and self.prev != self.idx:
            set_device(self.prev)
        return False
