"""torch.cuda.amp.autocast and the custom_fwd/custom_bwd decorators of autograd Functions."""
import functools

import torch
import torch.amp


class autocast(torch.amp.autocast):
    """torch.autocast('cuda', ...): without CUDA it warns and disables itself, as PyTorch's."""

    def __init__(self, enabled=True, dtype=torch.float16, cache_enabled=True):
        super().__init__('cuda', dtype=dtype, enabled=enabled, cache_enabled=cache_enabled)


def _cast(value, dtype):
    if isinstance(value, torch.Tensor):
        return value.to(dtype) if value.is_floating_point() and value.device.type == 'cuda' else value
    if isinstance(value, (list, tuple)):
        return type(value)(_cast(v, dtype) for v in value)
    if isinstance(value, dict):
        return {k: _cast(v, dtype) for k, v in value.items()}
    return value


def custom_fwd(fwd=None, *, cast_inputs=None):
    """Decorates an autograd Function's forward: inside an autocast region, with cast_inputs, its
    floating CUDA inputs are cast to that dtype and it runs with autocast off. Outside one it is called
    as it is (always here: no region turns autocast on, see torch.amp.autocast_mode)."""
    if fwd is None:
        return functools.partial(custom_fwd, cast_inputs=cast_inputs)

    @functools.wraps(fwd)
    def decorate_fwd(*args, **kwargs):
        if cast_inputs is not None and torch.is_autocast_enabled():
            with autocast(enabled=False):
                return fwd(*_cast(args, cast_inputs), **_cast(kwargs, cast_inputs))
        return fwd(*args, **kwargs)
    return decorate_fwd


def custom_bwd(bwd):
    """Decorates a backward to run in the autocast state of its forward (never autocast here)."""
    @functools.wraps(bwd)
    def decorate_bwd(*args, **kwargs):
        return bwd(*args, **kwargs)
    return decorate_bwd
