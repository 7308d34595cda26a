"""The eager-mode quantization workflow (prepare, convert, quantize...). Converting swaps modules for ones
computing on quantized tensors, which this framework does not implement yet, so each entry raises
NotImplementedError saying so (fusing and QConfigs work without them)."""

__all__ = ['prepare', 'prepare_qat', 'convert', 'quantize', 'quantize_dynamic', 'quantize_qat',
           'propagate_qconfig_', 'add_quant_dequant', 'swap_module']


def _needs_quantized_tensors(name):
    def unsupported(*args, **kwargs):
        raise NotImplementedError('torch.ao.quantization.%s needs quantized tensors, which this framework does '
                                  'not implement yet' % name)
    unsupported.__name__ = unsupported.__qualname__ = name
    return unsupported


for _name in __all__:
    globals()[_name] = _needs_quantized_tensors(_name)
