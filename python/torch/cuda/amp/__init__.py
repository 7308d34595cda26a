"""torch.cuda.amp: autocast for the cuda device and the gradient scaler (see torch.amp)."""
from torch.cuda.amp.autocast_mode import autocast, custom_fwd, custom_bwd  # noqa: F401
from torch.cuda.amp.grad_scaler import GradScaler  # noqa: F401
