"""torch.nn: modules, layers, losses, initialisation (see functional for the stateless forms)."""
from torch.nn import functional  # noqa: F401
