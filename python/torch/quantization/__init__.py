"""torch.quantization: the older name of torch.ao.quantization."""
from torch.ao.quantization import *  # noqa: F401,F403
from torch.ao.quantization import DeQuantStub, QuantStub, QuantWrapper  # noqa: F401
