"""torch.backends.blas: choose the BLAS provider plugin (TORCH_BLAS=blis|openblas at start-up)."""
from torch import _C


def current():
    """The provider in use ('blis', 'openblas'), or None when no BLAS plugin loaded."""
    return _C._blas_current()


def available():
    return _C._blas_names()


def describe():
    """The provider's own description: version and the kernel set it runs."""
    return _C._blas_describe()


def num_threads():
    """The thread count the provider reports using (follows torch.set_num_threads)."""
    return _C._blas_num_threads()


def use(name):
    """Switch every later matrix product to provider `name`; ValueError if it is not loaded."""
    if not isinstance(name, str):
        raise TypeError('provider name must be a str, got %s' % type(name).__name__)
    _C._blas_use(name)
