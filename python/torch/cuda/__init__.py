"""torch.cuda: the CUDA device, provided by the cuda plugin when one is built and a GPU is present."""
from torch import _C


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
