"""make_tensor: a tensor of random values of a dtype in [low, high), PyTorch's defaults per dtype."""
import math

import torch

_INTEGRAL = (torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64)
_FLOATING = (torch.float16, torch.bfloat16, torch.float32, torch.float64)
_COMPLEX = {torch.complex32: torch.float16, torch.complex64: torch.float32, torch.complex128: torch.float64}


def _bounds(low, high, lowest, highest, default_low, default_high, integral):
    low = default_low if low is None else low
    high = default_high if high is None else high
    if low != low or high != high:
        raise ValueError('make_tensor: one of low or high was NaN!')
    if low > high:
        raise ValueError('make_tensor: low must be weakly less than high!')
    low, high = min(max(low, lowest), highest), min(max(high, lowest), highest)
    return (math.floor(low), math.ceil(high)) if integral else (low, high)


def _uniform(shape, device, dtype, low, high):
    r = torch.rand(shape, device=device, dtype=dtype)
    return high * r + low * (1 - r)


def make_tensor(*shape, dtype, device, low=None, high=None, requires_grad=False, noncontiguous=False,
                exclude_zero=False):
    """Values drawn uniformly from [low, high) (defaults: bool 0..2, unsigned 0..10, signed -9..10,
    floating and complex -9..9; bounds clamped to the dtype's finite range). noncontiguous gives a
    strided view (with two elements or more); exclude_zero replaces zeros by 1 (integers, bool) or the
    dtype's tiny."""
    if len(shape) == 1 and isinstance(shape[0], (list, tuple, torch.Size)):
        shape = shape[0]
    shape = tuple(shape)
    if requires_grad and dtype not in _FLOATING and dtype not in _COMPLEX:
        raise ValueError('make_tensor: requires_grad must be False for integral dtype')
    if dtype is torch.bool:
        result = torch.randint(0, 2, shape, device=device, dtype=dtype)
    elif dtype in _INTEGRAL:
        info = torch.iinfo(dtype)
        lo, hi = _bounds(low, high, info.min, info.max, 0 if dtype is torch.uint8 else -9, 10, True)
        result = torch.randint(lo, hi, shape, device=device, dtype=dtype)
    elif dtype in _FLOATING:
        info = torch.finfo(dtype)
        lo, hi = _bounds(low, high, info.min, info.max, -9, 9, False)
        result = _uniform(shape, device, dtype, lo, hi)
    elif dtype in _COMPLEX:
        part = _COMPLEX[dtype]
        info = torch.finfo(part)
        lo, hi = _bounds(low, high, info.min, info.max, -9, 9, False)
        result = torch.complex(_uniform(shape, device, part, lo, hi), _uniform(shape, device, part, lo, hi))
    else:
        raise TypeError("The requested dtype '%s' is not supported by torch.testing.make_tensor(). To request "
                        'support, file an issue at: https://github.com/pytorch/pytorch/issues' % dtype)
    if noncontiguous and result.numel() > 1:
        result = torch.repeat_interleave(result, 2, dim=-1)[..., ::2]
    if exclude_zero:
        if dtype in _INTEGRAL or dtype is torch.bool:
            replace = 1
        elif dtype in _COMPLEX:
            tiny = torch.finfo(_COMPLEX[dtype]).tiny
            replace = complex(tiny, tiny)
        else:
            replace = torch.finfo(dtype).tiny
        result[result == 0] = replace
    if dtype in _FLOATING or dtype in _COMPLEX:
        result.requires_grad = requires_grad
    return result
