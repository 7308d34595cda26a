"""torch.cuda: the CUDA device, provided by the cuda plugin when one is built and a GPU is present.

Device counts, availability and the allocator's statistics come through the core (torch._C); the
few queries the plugin ABI has no slot for yet (device names and properties, the current device,
synchronize, peak reset), streams, events and pinned host memory call the plugin's exported
tc_cuda_* functions through ctypes.
"""
import ctypes

from torch import _C

OutOfMemoryError = _C.OutOfMemoryError

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
    """Raises where CUDA cannot be used, as PyTorch's: AssertionError when there is no cuda plugin (PyTorch's
    CPU-only build), RuntimeError with the loader's reason when the plugin cannot run (no driver, no GPU)."""
    if not is_available():
        if _C._device_unavailable_reason('cuda') is None:
            raise AssertionError('Torch not compiled with CUDA enabled')
        raise RuntimeError('CUDA is not available: ' + unavailable_reason())


def _lib():
    """The loaded cuda plugin, opened again by its path (the same handle the core holds)."""
    global _lib_handle
    _lazy_init()
    if _lib_handle is None:
        import torch
        path = [p['path'] for p in torch.backends.plugins() if p['name'] == 'cuda' and p['state'] == 'loaded'][0]
        lib = ctypes.CDLL(path)
        lib.tc_cuda_device_properties.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t]
        vp, i = ctypes.c_void_p, ctypes.c_int
        for name, res, args in [('stream_create', vp, [i, i]), ('stream_destroy', i, [vp]),
                                ('stream_synchronize', i, [vp]), ('stream_query', i, [vp]),
                                ('current_stream', vp, [i]), ('set_stream', i, [i, vp]), ('event_create', vp, [i]),
                                ('event_destroy', i, [vp]), ('event_record', i, [vp, vp]),
                                ('event_synchronize', i, [vp]), ('stream_wait_event', i, [vp, vp]),
                                ('event_query', i, [vp]),
                                ('event_elapsed_time', i, [vp, vp, ctypes.POINTER(ctypes.c_float)]),
                                ('host_alloc', vp, [ctypes.c_size_t]), ('host_free', None, [vp]),
                                ('is_pinned', i, [vp]), ('error_string', ctypes.c_char_p, [i]),
                                ('allocator_counters', None, [ctypes.POINTER(ctypes.c_uint64)])]:
            f = getattr(lib, 'tc_cuda_' + name)
            f.restype, f.argtypes = res, args
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


def is_bf16_supported():
    """Whether the current device computes in bfloat16 (compute capability 8.0 and later)."""
    return get_device_capability()[0] >= 8


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
    c = (ctypes.c_uint64 * 5)()
    if is_available():
        _lib().tc_cuda_allocator_counters(c)
    return {'allocated_bytes.all.current': s['allocated_bytes'],
            'allocated_bytes.all.peak': s['peak_allocated_bytes'],
            'reserved_bytes.all.current': s['allocated_bytes'] + s['cached_bytes'],
            'inactive_split.all.current': 0, 'num_alloc_retries': c[1], 'num_ooms': c[0], 'num_splits': c[2],
            'num_merges': c[3], 'segment.large_pool.current': c[4], 'num_allocs': s['n_allocs'],
            'num_cache_hits': s['n_cache_hits']}


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


def _check(rc, what):
    if rc != 0:
        raise RuntimeError('CUDA error: %s in %s' % (_lib().tc_cuda_error_string(rc).decode(), what))


class Stream:
    """A CUDA stream (cudaStreamNonBlocking, as PyTorch's pool streams). Kernels, copies and
    allocations of the cuda plugin run on the thread's current stream: torch.cuda.stream(s) or
    set_stream(s) selects one; default_stream() is the legacy default stream (cuda_stream 0)."""

    def __init__(self, device=None, priority=0, _handle=None, _owned=True):
        self.device = _C_device(_index(device))
        if _handle is not None or not _owned:
            self._handle, self._owned = _handle, False
        else:
            self._handle = _lib().tc_cuda_stream_create(self.device.index, priority)
            if not self._handle:
                raise RuntimeError('CUDA error: could not create a stream')
            self._owned = True

    @property
    def cuda_stream(self):
        return self._handle or 0

    def query(self):
        r = _lib().tc_cuda_stream_query(self._handle)
        if r < 0:
            raise RuntimeError('CUDA error in Stream.query')
        return r == 1

    def synchronize(self):
        _check(_lib().tc_cuda_stream_synchronize(self._handle), 'Stream.synchronize')

    def record_event(self, event=None):
        event = event or Event()
        event.record(self)
        return event

    def wait_event(self, event):
        _check(_lib().tc_cuda_stream_wait_event(self._handle, event._handle), 'Stream.wait_event')

    def wait_stream(self, stream):
        self.wait_event(stream.record_event())

    def __eq__(self, other):
        return isinstance(other, Stream) and self.cuda_stream == other.cuda_stream and self.device == other.device

    def __hash__(self):
        return hash((self.cuda_stream, self.device))

    def __repr__(self):
        return '<torch.cuda.Stream device=%s cuda_stream=0x%x>' % (self.device, self.cuda_stream)

    def __del__(self):
        if getattr(self, '_owned', False) and self._handle and _lib_handle is not None:
            _lib_handle.tc_cuda_stream_destroy(self._handle)
            self._handle = None


def _C_device(index):
    import torch
    return torch.device('cuda', index)


def current_stream(device=None):
    index = _index(device)
    return Stream(index, _handle=_lib().tc_cuda_current_stream(index), _owned=False)


def default_stream(device=None):
    return Stream(_index(device), _handle=None, _owned=False)


def set_stream(stream):
    if stream is None:
        return
    _check(_lib().tc_cuda_set_stream(stream.device.index, stream._handle), 'set_stream')


class StreamContext:
    """torch.cuda.stream(s): s is the current stream (on its device) inside the block."""

    def __init__(self, stream):
        self.stream = stream
        self.prev = None

    def __enter__(self):
        if self.stream is None:
            return None
        self.prev = current_stream(self.stream.device)
        set_stream(self.stream)
        return self.stream

    def __exit__(self, *exc):
        if self.stream is not None:
            set_stream(self.prev)
        return False


def stream(stream):
    return StreamContext(stream)


class Event:
    """A CUDA event: record on a stream, wait, query, and (enable_timing=True) elapsed_time."""

    def __init__(self, enable_timing=False, blocking=False, interprocess=False):
        if interprocess:
            raise NotImplementedError('interprocess CUDA events are not supported')
        self.enable_timing = enable_timing
        self._handle = _lib().tc_cuda_event_create((1 if enable_timing else 0) | (2 if blocking else 0))
        if not self._handle:
            raise RuntimeError('CUDA error: could not create an event')
        self._recorded = False

    def record(self, stream=None):
        stream = stream or current_stream()
        _check(_lib().tc_cuda_event_record(self._handle, stream._handle), 'Event.record')
        self._recorded = True

    def wait(self, stream=None):
        (stream or current_stream()).wait_event(self)

    def query(self):
        r = _lib().tc_cuda_event_query(self._handle)
        if r < 0:
            raise RuntimeError('CUDA error in Event.query')
        return r == 1

    def synchronize(self):
        _check(_lib().tc_cuda_event_synchronize(self._handle), 'Event.synchronize')

    def elapsed_time(self, end_event):
        if not (self.enable_timing and end_event.enable_timing):
            raise RuntimeError('Both events must be created with argument \'enable_timing=True\'.')
        if not (self._recorded and end_event._recorded):
            raise RuntimeError('Both events must be recorded before calculating elapsed time.')
        ms = ctypes.c_float(0)
        _check(_lib().tc_cuda_event_elapsed_time(self._handle, end_event._handle, ctypes.byref(ms)),
               'Event.elapsed_time')
        return ms.value

    def __del__(self):
        if getattr(self, '_handle', None) and _lib_handle is not None:
            _lib_handle.tc_cuda_event_destroy(self._handle)
            self._handle = None

    def __repr__(self):
        return '<torch.cuda.Event 0x%x>' % (self._handle or 0)


class _PinnedBlock:
    """Page-locked host memory owned by the tensors that view it; freed with the last of them."""

    def __init__(self, nbytes):
        self.lib = _lib()
        self.ptr = self.lib.tc_cuda_host_alloc(nbytes)
        if not self.ptr:
            raise OutOfMemoryError('CUDA out of memory. Tried to allocate %d bytes of pinned host memory' % nbytes)

    def __del__(self):
        if getattr(self, 'ptr', None):
            self.lib.tc_cuda_host_free(self.ptr)
            self.ptr = None


def _pin(t):
    if t.device.type != 'cpu':
        raise RuntimeError('cannot pin \'%s\' only dense CPU tensors can be pinned' % t.type())
    if not is_available():
        raise RuntimeError('Pinned memory requires CUDA, and no CUDA device is available: ' + unavailable_reason())
    n = t.numel() * t.element_size()
    block = _PinnedBlock(n)
    shape = list(t.shape)
    strides, acc = [], 1
    for size in reversed(shape):
        strides.insert(0, acc)
        acc *= size
    out = _C._from_buffer(block, block.ptr, n, shape, strides, 0, t.dtype)
    out.copy_(t)
    return out


def _is_pinned(t):
    if not is_available():
        return False
    return bool(_lib().tc_cuda_is_pinned(t.data_ptr()))


from torch.cuda.random import (  # noqa: E402,F401
    manual_seed, manual_seed_all, seed, seed_all, initial_seed, get_rng_state, get_rng_state_all, set_rng_state,
    set_rng_state_all,
)


def __getattr__(name):
    if name == 'amp':  # imported on first use: most programs never touch it
        import torch.cuda.amp
        return torch.cuda.amp
    raise AttributeError("module 'torch.cuda' has no attribute '%s'" % name)
