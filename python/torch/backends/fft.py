"""torch.backends.fft: choose the FFT provider plugin (TORCH_FFT=fftw|kissfft at start-up)."""
from torch import _C


def current():
    """The provider in use ('fftw', 'kissfft'), or None when no FFT plugin loaded."""
    return _C._fft_current()


def available():
    return _C._fft_names()


def describe():
    """The provider's own description, and where a precision it lacks goes (KissFFT: float only)."""
    return _C._fft_describe()


def use(name):
    """Switch every later transform to provider `name`; ValueError if it is not loaded."""
    if not isinstance(name, str):
        raise TypeError('provider name must be a str, got %s' % type(name).__name__)
    _C._fft_use(name)
