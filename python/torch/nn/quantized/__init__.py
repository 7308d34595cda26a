"""torch.nn.quantized: the older name of torch.ao.nn.quantized."""
from torch.ao.nn.quantized import *  # noqa: F401,F403
from torch.ao.nn.quantized import __all__  # noqa: F401
