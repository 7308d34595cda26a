"""torch.nn.utils: gradient clipping, flat parameter vectors, packed sequences, weight and spectral
normalisation, parametrizations, pruning, BatchNorm fusion, functional calls.

The submodules a program may never touch load at first use (a module-level __getattr__), which keeps
`import torch` cheap and out of import cycles (torch.nn imports this package while torch loads)."""
import importlib

from torch.nn.utils import rnn  # noqa: F401
from torch.nn.utils.clip_grad import clip_grad_norm, clip_grad_norm_, clip_grad_value_  # noqa: F401
from torch.nn.utils.convert_parameters import parameters_to_vector, vector_to_parameters  # noqa: F401
# as in PyTorch, the functions shadow their submodules' names
from torch.nn.utils.weight_norm import weight_norm, remove_weight_norm  # noqa: F401
from torch.nn.utils.spectral_norm import spectral_norm, remove_spectral_norm  # noqa: F401
from torch.nn.utils.fusion import fuse_conv_bn_eval, fuse_conv_bn_weights, fuse_linear_bn_eval, \
    fuse_linear_bn_weights  # noqa: F401

_SUBMODULES = ('parametrize', 'parametrizations', 'prune', 'stateless')


def __getattr__(name):
    if name in _SUBMODULES:
        value = importlib.import_module('torch.nn.utils.' + name)
    else:
        raise AttributeError("module 'torch.nn.utils' has no attribute '%s'" % name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(list(globals()) + list(_SUBMODULES))
