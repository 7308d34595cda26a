"""torch.ao.quantization, as far as float models use it: QuantStub/DeQuantStub (identity in float),
fuse_modules/fuse_modules_qat, QConfig and the default configs, observers. prepare/convert/quantize need
quantized tensors and raise NotImplementedError."""
from torch.ao.quantization.stubs import DeQuantStub, QuantStub, QuantWrapper  # noqa: F401
from torch.ao.quantization.observer import *  # noqa: F401,F403
from torch.ao.quantization.qconfig import *  # noqa: F401,F403
from torch.ao.quantization.fuse_modules import *  # noqa: F401,F403
from torch.ao.quantization.quantize import *  # noqa: F401,F403
