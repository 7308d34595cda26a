"""torch.backends: what the core loaded (plugins), the BLAS provider in use, and PyTorch's backend
modules (cudnn, cuda, mps, mkl, mkldnn, openmp), each imported on first use. Their is_available()
answers for this project: none of cuDNN, MPS, MKL, oneDNN or OpenMP is linked (docs/module-surface.md)."""
import contextlib
import importlib
import types

from torch import _C
from torch.backends import blas  # noqa: F401
from torch.backends import fft  # noqa: F401

_SUBMODULES = ('cuda', 'cudnn', 'mkl', 'mkldnn', 'mps', 'openmp')


def plugins():
    """Every plugin found: dicts with name, kind, version, path, state and reason."""
    return _C._plugins()


def __getattr__(name):
    if name in _SUBMODULES:
        return importlib.import_module('torch.backends.' + name)
    raise AttributeError("module 'torch.backends' has no attribute '%s'" % name)


class _Flag:
    """A bool setting of a backend module: rejects other types as PyTorch's setters do."""

    def __init__(self, setter_name, default):
        self.setter_name, self.default = setter_name, default

    def __set_name__(self, owner, name):
        self.slot = '_flag_' + name

    def __get__(self, obj, owner=None):
        return self if obj is None else obj.__dict__.get(self.slot, self.default)

    def __set__(self, obj, value):
        if not isinstance(value, bool):
            raise RuntimeError('%s expects a bool, but got %s' % (self.setter_name, type(value).__name__))
        obj.__dict__[self.slot] = value


class _FlagModule(types.ModuleType):
    """Base of a backend module with _Flag settings (the module's class is switched to a subclass)."""

    def _set_flags(self, **flags):
        """Sets the flags given (None: leave it) and returns all of them as they were, in order."""
        old = tuple(getattr(self, n) for n in flags)
        for n, v in flags.items():
            if v is not None:
                setattr(self, n, v)
        return old


@contextlib.contextmanager
def _flags_block(set_flags, *flags):
    """The `flags(...)` context of a backend module: set_flags(*flags) inside, the old values after."""
    old = set_flags(*flags)
    try:
        yield
    finally:
        set_flags(*old)
