"""torch.autocast: PyTorch's mixed-precision regions, with its arguments, checks and warnings.

This project has no mixed-precision dispatch yet (the core does not cast an op's inputs by a per-op
policy), so a region never turns on: where PyTorch would autocast, autocast warns and disables itself,
as PyTorch does for a device it cannot autocast on, and ops run in their inputs' dtypes.
torch.is_autocast_enabled() tells the truth: False."""
import functools
import warnings

import torch

_FAST_DTYPES = {'cuda': torch.float16, 'cpu': torch.bfloat16}


def is_autocast_enabled():
    """Whether a CUDA autocast region is active: never here."""
    return False


def is_autocast_cpu_enabled():
    return False


def get_autocast_gpu_dtype():
    return torch.float16


def get_autocast_cpu_dtype():
    return torch.bfloat16


class autocast:
    """`with torch.autocast(device_type, dtype=None, enabled=True, cache_enabled=None):` (also a
    decorator). Arguments are checked as PyTorch checks them; an enabled region warns that it is
    disabled (see the module's docstring)."""

    def __init__(self, device_type, dtype=None, enabled=True, cache_enabled=None):
        if not isinstance(device_type, str):
            raise ValueError('Expected `device_type` of type `str`, got: `%s`' % type(device_type))
        if device_type not in _FAST_DTYPES:
            raise RuntimeError("User specified autocast device_type must be 'cuda' or 'cpu'")
        self.device = device_type
        self.fast_dtype = _FAST_DTYPES[device_type] if dtype is None else dtype
        self._cache_enabled = True if cache_enabled is None else cache_enabled
        if enabled and device_type == 'cuda' and not torch.cuda.is_available():
            warnings.warn("User provided device_type of 'cuda', but CUDA is not available. Disabling")
            enabled = False
        elif enabled and device_type == 'cpu' and self.fast_dtype != torch.bfloat16:
            warnings.warn('In CPU autocast, but the target dtype is not supported. Disabling autocast.\n'
                          'CPU Autocast only supports dtype of torch.bfloat16 currently.')
            enabled = False
        elif enabled and device_type == 'cuda' and self.fast_dtype == torch.bfloat16 \
                and not torch.cuda.is_bf16_supported():
            raise RuntimeError('Current CUDA Device does not support bfloat16. Please switch dtype to float16.')
        elif enabled:
            warnings.warn('torch.autocast(%r): this build has no mixed-precision dispatch; ops run in their '
                          "inputs' dtypes. Disabling" % device_type)
            enabled = False
        self._enabled = enabled

    def __enter__(self):
        return None

    def __exit__(self, exc_type, exc_val, exc_tb):
        return False

    def __call__(self, func):
        @functools.wraps(func)
        def decorate_autocast(*args, **kwargs):
            with self:
                return func(*args, **kwargs)
        return decorate_autocast
