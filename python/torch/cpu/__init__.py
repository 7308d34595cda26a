"""torch.cpu: the CPU's autocast (torch.cpu.amp)."""
from torch.cpu import amp  # noqa: F401
