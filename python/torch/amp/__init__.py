"""torch.amp: automatic mixed precision (see autocast_mode)."""
from torch.amp.autocast_mode import autocast  # noqa: F401
