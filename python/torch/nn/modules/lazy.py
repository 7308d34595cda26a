"""LazyModuleMixin: modules whose parameter shapes come from their first input (LazyLinear's
in_features, LazyConv's in_channels, LazyBatchNorm's num_features). Until then the parameters and
buffers are UninitializedParameter/UninitializedBuffer; the first forward (or a load_state_dict that
brings shapes) materializes them, runs reset_parameters, and the module becomes its ordinary class
(cls_to_become)."""
import itertools
import warnings

import torch
from torch.nn.parameter import UninitializedBuffer, is_lazy

__all__ = ['LazyModuleMixin']


class LazyModuleMixin:
    cls_to_become = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._load_hook = self._register_load_state_dict_pre_hook(self._lazy_load_hook)
        self._initialize_hook = self.register_forward_pre_hook(self._infer_parameters)
        warnings.warn('Lazy modules are a new feature under heavy development so changes to the API or '
                      'functionality can happen at any moment.')

    def _lazy_load_hook(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                        error_msgs):
        """A state dict with shapes materializes the parameters and buffers it names."""
        for name, tensor in itertools.chain(self._parameters.items(), self._buffers.items()):
            key = prefix + name
            if key in state_dict and tensor is not None and is_lazy(tensor) and not is_lazy(state_dict[key]):
                with torch.no_grad():
                    tensor.materialize(state_dict[key].shape)

    def initialize_parameters(self, *args, **kwargs):
        """Materializes the parameters from the first input's shape (each lazy module's own)."""
        raise NotImplementedError('initialize_parameters is not implemented for {}'.format(self.__class__.__name__))

    def has_uninitialized_params(self):
        """Whether a parameter or buffer of this module is still uninitialized."""
        return any(is_lazy(t) for t in itertools.chain(self._parameters.values(), self._buffers.values()))

    def _infer_parameters(self, module, input):
        module.initialize_parameters(*input)
        if module.has_uninitialized_params():
            raise RuntimeError('module {} has not been fully initialized'.format(self._get_name()))
        module._initialize_hook.remove()
        module._load_hook.remove()
        delattr(module, '_initialize_hook')
        delattr(module, '_load_hook')
        if module.cls_to_become is not None:
            module.__class__ = module.cls_to_become

    def _apply(self, fn):
        # buffers are replaced by fn's result, which would drop their uninitialized class
        lazy = {k for k, b in self._buffers.items() if is_lazy(b)}
        result = super()._apply(fn)
        for key in lazy:
            converted = self._buffers[key]
            self._buffers[key] = UninitializedBuffer(converted.requires_grad, converted.device, converted.dtype)
        return result

    def _replicate_for_data_parallel(self):
        raise RuntimeError('Modules with uninitialized parameters can\'t be used with `DataParallel`. Run a dummy '
                           'forward pass to correctly initialize the modules')
