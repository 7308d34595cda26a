"""The unpickler torch.load(..., weights_only=True) uses: it builds only tensors, storages, primitive
containers, OrderedDict, torch.Size, dtypes and torch's rebuild functions. Every global a pickle
names must be one of those; anything else stops the load with RuntimeError('Unsupported class
module.name'), which torch.load turns into the UnpicklingError PyTorch 1.13 raises.

Pickle reaches objects it did not build itself only through globals (GLOBAL, STACK_GLOBAL and the
copyreg extension codes all go through find_class), so restricting find_class restricts what
REDUCE, NEWOBJ and BUILD can call to the classes and functions listed here.
"""
import pickle
from collections import OrderedDict

import torch


def _get_allowed_globals():
    allowed = {
        'collections.OrderedDict': OrderedDict,
        'torch.serialization._get_layout': torch.serialization._get_layout,
        'torch.Size': torch.Size,
        'torch.Tensor': torch.Tensor,
    }
    parameter = getattr(getattr(torch, 'nn', None), 'Parameter', None)
    if parameter is not None:
        allowed['torch.nn.parameter.Parameter'] = parameter
        allowed['%s.%s' % (parameter.__module__, parameter.__name__)] = parameter
    # every dtype (PyTorch 1.13's list leaves out bool, uint8 and bfloat16, which later releases add)
    for value in vars(torch).values():
        if isinstance(value, torch.dtype):
            allowed[str(value)] = value
    for cls in torch._legacy.TYPES.values():  # torch.FloatTensor, ...
        allowed['torch.' + cls.__name__] = cls
    for cls in torch._storage_classes:
        allowed['%s.%s' % (cls.__module__, cls.__name__)] = cls
    for fn in (torch._utils._rebuild_parameter, torch._utils._rebuild_tensor, torch._utils._rebuild_tensor_v2,
               torch._utils._rebuild_meta_tensor_no_storage):
        allowed['torch._utils.' + fn.__name__] = fn
    return allowed


class Unpickler(pickle.Unpickler):
    def __init__(self, file, **kwargs):
        super().__init__(file, **kwargs)
        self._allowed = _get_allowed_globals()

    def find_class(self, module, name):
        full_path = '%s.%s' % (module, name)
        if full_path in self._allowed:
            return self._allowed[full_path]
        raise RuntimeError('Unsupported class %s' % full_path)


def load(file, *, encoding='ASCII', **kwargs):
    return Unpickler(file, encoding=encoding, **kwargs).load()
