"""torch.nn: modules, layers, losses, initialisation (see functional for the stateless forms)."""
from torch.nn.parameter import Parameter, UninitializedParameter, UninitializedBuffer  # noqa: F401
from torch.nn.modules import *  # noqa: F401,F403
from torch.nn import functional, init, utils  # noqa: F401


def __getattr__(name):
    if name in ('parallel', 'DataParallel'):  # imported on first use
        import torch.nn.parallel
        return torch.nn.parallel if name == 'parallel' else torch.nn.parallel.DataParallel
    if name in ('quantized', 'intrinsic'):
        import importlib
        return importlib.import_module('torch.nn.' + name)
    raise AttributeError("module 'torch.nn' has no attribute '%s'" % name)
