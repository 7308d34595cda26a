"""torch.ao: architecture optimization (quantization); subpackages load on first use."""


def __getattr__(name):
    if name in ('nn', 'quantization'):
        import importlib
        return importlib.import_module('torch.ao.' + name)
    raise AttributeError("module 'torch.ao' has no attribute '%s'" % name)
