"""torch.ao.nn.intrinsic: fused module patterns (conv+bn+relu, linear+relu, ...). In float they are
Sequentials of their parts, as PyTorch's are; quantization-aware and quantized versions would swap them."""
import torch.nn as nn

__all__ = ['ConvReLU1d', 'ConvReLU2d', 'ConvReLU3d', 'LinearReLU', 'BNReLU2d', 'BNReLU3d', 'ConvBn1d', 'ConvBn2d',
           'ConvBn3d', 'ConvBnReLU1d', 'ConvBnReLU2d', 'ConvBnReLU3d', 'LinearBn1d']


class _FusedModule(nn.Sequential):
    pass


def _fused(name, *part_types):
    """A _FusedModule class whose constructor checks that its parts have the given types."""
    def __init__(self, *modules):
        if len(modules) != len(part_types) or not all(type(m) is t for m, t in zip(modules, part_types)):
            raise AssertionError('Incorrect types for input modules' + ''.join(str(type(m)) for m in modules))
        _FusedModule.__init__(self, *modules)
    cls = type(name, (_FusedModule,), {'__init__': __init__, '__doc__': 'The fusion of %s, run in sequence.'
                                       % ', '.join(t.__name__ for t in part_types)})
    cls.__module__ = __name__
    return cls


ConvReLU1d = _fused('ConvReLU1d', nn.Conv1d, nn.ReLU)
ConvReLU2d = _fused('ConvReLU2d', nn.Conv2d, nn.ReLU)
ConvReLU3d = _fused('ConvReLU3d', nn.Conv3d, nn.ReLU)
LinearReLU = _fused('LinearReLU', nn.Linear, nn.ReLU)
BNReLU2d = _fused('BNReLU2d', nn.BatchNorm2d, nn.ReLU)
BNReLU3d = _fused('BNReLU3d', nn.BatchNorm3d, nn.ReLU)
ConvBn1d = _fused('ConvBn1d', nn.Conv1d, nn.BatchNorm1d)
ConvBn2d = _fused('ConvBn2d', nn.Conv2d, nn.BatchNorm2d)
ConvBn3d = _fused('ConvBn3d', nn.Conv3d, nn.BatchNorm3d)
ConvBnReLU1d = _fused('ConvBnReLU1d', nn.Conv1d, nn.BatchNorm1d, nn.ReLU)
ConvBnReLU2d = _fused('ConvBnReLU2d', nn.Conv2d, nn.BatchNorm2d, nn.ReLU)
ConvBnReLU3d = _fused('ConvBnReLU3d', nn.Conv3d, nn.BatchNorm3d, nn.ReLU)
LinearBn1d = _fused('LinearBn1d', nn.Linear, nn.BatchNorm1d)
