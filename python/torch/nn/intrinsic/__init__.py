"""torch.nn.intrinsic: the older name of torch.ao.nn.intrinsic."""
from torch.ao.nn.intrinsic import *  # noqa: F401,F403
from torch.ao.nn.intrinsic import __all__, _FusedModule  # noqa: F401
