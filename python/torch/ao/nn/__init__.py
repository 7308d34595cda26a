"""torch.ao.nn: the module classes of quantization workflows (intrinsic fused modules, quantized)."""


def __getattr__(name):
    if name in ('intrinsic', 'quantized'):
        import importlib
        return importlib.import_module('torch.ao.nn.' + name)
    raise AttributeError("module 'torch.ao.nn' has no attribute '%s'" % name)
