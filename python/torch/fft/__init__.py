"""torch.fft: the ops of core/ops.table declared `module=fft` (fft_rfft is torch.fft.rfft, as in PyTorch),
computed by the current FFT provider plugin (torch.backends.fft)."""
from torch import _C


def _export():
    for name in dir(_C._fft):
        if not name.startswith('_'):
            globals()[name] = getattr(_C._fft, name)


_export()
del _export
