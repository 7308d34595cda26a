"""functional_call: run a module with some of its parameters and buffers replaced for one call."""
import contextlib

import torch

__all__ = ['functional_call']


def _split(name):
    *path, leaf = name.split('.')
    return path, leaf


@contextlib.contextmanager
def _swapped(module, tensors):
    """Puts each tensor of `tensors` (by dotted name) in place of the module's, then restores them."""
    saved = []
    try:
        for name, value in tensors.items():
            path, leaf = _split(name)
            owner = module
            for p in path:
                owner = getattr(owner, p)
            for registry in ('_parameters', '_buffers'):
                store = owner.__dict__.get(registry)
                if store is not None and leaf in store:
                    saved.append((store, leaf, store[leaf]))
                    store[leaf] = value
                    break
            else:
                saved.append((owner.__dict__, leaf, owner.__dict__.get(leaf, _MISSING)))
                owner.__dict__[leaf] = value
        yield
    finally:
        for store, leaf, old in reversed(saved):
            if old is _MISSING:
                del store[leaf]
            else:
                store[leaf] = old


_MISSING = object()


def functional_call(module, parameters_and_buffers, args, kwargs=None):
    """module(*args, **kwargs) with the named parameters and buffers of `parameters_and_buffers`
    used instead of the module's own (which are left as they were)."""
    if kwargs is None:
        kwargs = {}
    if not isinstance(args, tuple):
        args = (args,)
    for name, value in parameters_and_buffers.items():
        if not isinstance(value, torch.Tensor):
            raise TypeError('functional_call expects tensors, got %s for %s' % (type(value).__name__, name))
    with _swapped(module, parameters_and_buffers):
        return module(*args, **kwargs)
