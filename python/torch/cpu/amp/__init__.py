"""torch.cpu.amp.autocast: torch.autocast('cpu', ...)."""
import torch.amp


class autocast(torch.amp.autocast):
    def __init__(self, enabled=True, dtype=torch.bfloat16, cache_enabled=True):
        super().__init__('cpu', dtype=dtype, enabled=enabled, cache_enabled=cache_enabled)
