"""torch.cuda's seeding functions. As in PyTorch, seeding is lazy: where CUDA cannot be used the calls
that set a seed do nothing (they would run when CUDA initialises, which never happens), and those that
need the generator raise as _lazy_init does.

Where the cuda plugin runs, each device's generator is PyTorch's Philox state, a seed and an offset. The
plugin has no random kernels yet (docs/cuda.md), so nothing draws from it and the offset stays 0; the
state still round-trips through get_rng_state/set_rng_state in PyTorch's 16-byte layout."""
import torch
from torch import cuda as _cuda

_DEFAULT_SEED = 67280421310721  # PyTorch's default_rng_seed_val
_states = {}  # device index -> [seed, offset]


def _random_seed():
    import random  # the standard library's, imported only when a random seed is asked for
    return random.SystemRandom().getrandbits(64)


def _state(index):
    return _states.setdefault(index, [_DEFAULT_SEED, 0])


def _indices(device):
    if not _cuda.is_available():
        return []
    return [_cuda._index(device)]


def manual_seed(seed):
    """Seeds the current device's generator (nothing to do where CUDA is not available)."""
    seed = int(seed) & 0xFFFFFFFFFFFFFFFF
    for i in _indices(None):
        _states[i] = [seed, 0]


def manual_seed_all(seed):
    seed = int(seed) & 0xFFFFFFFFFFFFFFFF
    for i in range(_cuda.device_count()):
        _states[i] = [seed, 0]


def seed():
    """Seeds the current device's generator from a random number."""
    if _cuda.is_available():
        manual_seed(_random_seed())


def seed_all():
    if _cuda.is_available():
        manual_seed_all(_random_seed())


def initial_seed():
    _cuda._lazy_init()
    return _state(_cuda.current_device())[0]


def get_rng_state(device='cuda'):
    """The generator's state as a torch.ByteTensor: seed and offset, 8 little-endian bytes each."""
    _cuda._lazy_init()
    s, off = _state(_cuda._index(device))
    return torch.tensor(list(s.to_bytes(8, 'little') + off.to_bytes(8, 'little')), dtype=torch.uint8)


def get_rng_state_all():
    return [get_rng_state(i) for i in range(_cuda.device_count())]


def set_rng_state(new_state, device='cuda'):
    if not _cuda.is_available():
        return
    if not isinstance(new_state, torch.Tensor) or new_state.dtype != torch.uint8:
        raise TypeError('expected a torch.ByteTensor, but got %s' % type(new_state).__name__)
    if new_state.numel() != 16:
        raise RuntimeError('RNG state is wrong size')
    raw = bytes(new_state.tolist())
    _states[_cuda._index(device)] = [int.from_bytes(raw[:8], 'little'), int.from_bytes(raw[8:], 'little')]


def set_rng_state_all(new_states):
    for i, state in enumerate(new_states):
        set_rng_state(state, i)
