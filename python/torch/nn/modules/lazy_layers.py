"""The lazy layers: Linear, the convolutions, batch and instance norms whose input size (in_features,
in_channels, num_features) comes from their first input (LazyModuleMixin, lazy.py); each becomes
its ordinary class once initialized."""
import torch
from torch.nn.modules.batchnorm import BatchNorm1d, BatchNorm2d, BatchNorm3d
from torch.nn.modules.conv import Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from torch.nn.modules.instancenorm import InstanceNorm1d, InstanceNorm2d, InstanceNorm3d
from torch.nn.modules.lazy import LazyModuleMixin
from torch.nn.modules.linear import Linear
from torch.nn.parameter import UninitializedBuffer, UninitializedParameter

__all__ = ['LazyLinear', 'LazyConv1d', 'LazyConv2d', 'LazyConv3d', 'LazyConvTranspose1d', 'LazyConvTranspose2d',
           'LazyConvTranspose3d', 'LazyBatchNorm1d', 'LazyBatchNorm2d', 'LazyBatchNorm3d', 'LazyInstanceNorm1d',
           'LazyInstanceNorm2d', 'LazyInstanceNorm3d']


class LazyLinear(LazyModuleMixin, Linear):
    """Linear whose in_features is the last dim of its first input."""

    cls_to_become = Linear

    def __init__(self, out_features, bias=True, device=None, dtype=None):
        factory = {'device': device, 'dtype': dtype}
        super().__init__(0, 0, False)
        self.weight = UninitializedParameter(**factory)
        self.out_features = out_features
        if bias:
            self.bias = UninitializedParameter(**factory)

    def reset_parameters(self):
        if not self.has_uninitialized_params() and self.in_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input):
        if self.has_uninitialized_params():
            with torch.no_grad():
                self.in_features = input.shape[-1]
                self.weight.materialize((self.out_features, self.in_features))
                if self.bias is not None:
                    self.bias.materialize((self.out_features,))
                self.reset_parameters()


class _LazyConvMixin(LazyModuleMixin):
    """The convolutions: in_channels from the first input's channel dim."""

    def _lazy_init(self, out_channels, bias, device, dtype):
        factory = {'device': device, 'dtype': dtype}
        self.weight = UninitializedParameter(**factory)
        self.out_channels = out_channels
        if bias:
            self.bias = UninitializedParameter(**factory)

    def reset_parameters(self):
        if not self.has_uninitialized_params() and self.in_channels != 0:
            super().reset_parameters()

    def initialize_parameters(self, input):
        if not self.has_uninitialized_params():
            return
        spatial = len(self.kernel_size)
        if input.dim() not in (spatial + 1, spatial + 2):
            raise RuntimeError('Expected {}D (unbatched) or {}D (batched) input to {}, but got input of size: {}'
                               .format(spatial + 1, spatial + 2, self.__class__.__name__, input.shape))
        self.in_channels = input.shape[1] if input.dim() == spatial + 2 else input.shape[0]
        if self.in_channels % self.groups != 0:
            raise ValueError('in_channels must be divisible by groups')
        if self.transposed:
            shape = (self.in_channels, self.out_channels // self.groups, *self.kernel_size)
        else:
            shape = (self.out_channels, self.in_channels // self.groups, *self.kernel_size)
        with torch.no_grad():
            self.weight.materialize(shape)
            if self.bias is not None:
                self.bias.materialize((self.out_channels,))
            self.reset_parameters()


def _lazy_conv(name, base):
    def __init__(self, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
                 padding_mode='zeros', device=None, dtype=None):
        # through LazyModuleMixin.__init__ (its hooks), which goes on to base's
        _LazyConvMixin.__init__(self, 0, 0, kernel_size, stride, padding, dilation, groups, False, padding_mode,
                                device=device, dtype=dtype)
        self._lazy_init(out_channels, bias, device, dtype)
    cls = type(name, (_LazyConvMixin, base), {'cls_to_become': base, '__init__': __init__,
                                              '__doc__': '%s whose in_channels comes from its first input.'
                                                         % base.__name__})
    cls.__module__ = __name__
    return cls


def _lazy_conv_transpose(name, base):
    def __init__(self, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1, bias=True,
                 dilation=1, padding_mode='zeros', device=None, dtype=None):
        _LazyConvMixin.__init__(self, 0, 0, kernel_size, stride, padding, output_padding, groups, False, dilation,
                                padding_mode, device=device, dtype=dtype)
        self._lazy_init(out_channels, bias, device, dtype)
    cls = type(name, (_LazyConvMixin, base), {'cls_to_become': base, '__init__': __init__,
                                              '__doc__': '%s whose in_channels comes from its first input.'
                                                         % base.__name__})
    cls.__module__ = __name__
    return cls


LazyConv1d = _lazy_conv('LazyConv1d', Conv1d)
LazyConv2d = _lazy_conv('LazyConv2d', Conv2d)
LazyConv3d = _lazy_conv('LazyConv3d', Conv3d)
LazyConvTranspose1d = _lazy_conv_transpose('LazyConvTranspose1d', ConvTranspose1d)
LazyConvTranspose2d = _lazy_conv_transpose('LazyConvTranspose2d', ConvTranspose2d)
LazyConvTranspose3d = _lazy_conv_transpose('LazyConvTranspose3d', ConvTranspose3d)


class _LazyNormMixin(LazyModuleMixin):
    """The norms: num_features from the first input's channel dim (dim 0 of an unbatched instance norm)."""

    def _lazy_init(self, affine, track_running_stats, device, dtype):
        factory = {'device': device, 'dtype': dtype}
        self.affine = affine
        self.track_running_stats = track_running_stats
        if affine:
            self.weight = UninitializedParameter(**factory)
            self.bias = UninitializedParameter(**factory)
        if track_running_stats:
            self.running_mean = UninitializedBuffer(**factory)
            self.running_var = UninitializedBuffer(**factory)
            self.num_batches_tracked = torch.tensor(0, dtype=torch.long, device=device)

    def reset_parameters(self):
        if not self.has_uninitialized_params() and self.num_features != 0:
            super().reset_parameters()

    def initialize_parameters(self, input):
        if not self.has_uninitialized_params():
            return
        unbatched = getattr(self, '_no_batch_dim', None)
        self.num_features = input.shape[0] if unbatched is not None and input.dim() == unbatched else input.shape[1]
        with torch.no_grad():
            for name in ('weight', 'bias', 'running_mean', 'running_var'):
                tensor = getattr(self, name)
                if tensor is not None:
                    tensor.materialize((self.num_features,))
            self.reset_parameters()


def _lazy_norm(name, base, default_affine, default_track):
    def __init__(self, eps=1e-5, momentum=0.1, affine=default_affine, track_running_stats=default_track,
                 device=None, dtype=None):
        _LazyNormMixin.__init__(self, 0, eps, momentum, False, False)
        self._lazy_init(affine, track_running_stats, device, dtype)
    cls = type(name, (_LazyNormMixin, base), {'cls_to_become': base, '__init__': __init__,
                                              '__doc__': '%s whose num_features comes from its first input.'
                                                         % base.__name__})
    cls.__module__ = __name__
    return cls


LazyBatchNorm1d = _lazy_norm('LazyBatchNorm1d', BatchNorm1d, True, True)
LazyBatchNorm2d = _lazy_norm('LazyBatchNorm2d', BatchNorm2d, True, True)
LazyBatchNorm3d = _lazy_norm('LazyBatchNorm3d', BatchNorm3d, True, True)
LazyInstanceNorm1d = _lazy_norm('LazyInstanceNorm1d', InstanceNorm1d, False, False)
LazyInstanceNorm2d = _lazy_norm('LazyInstanceNorm2d', InstanceNorm2d, False, False)
LazyInstanceNorm3d = _lazy_norm('LazyInstanceNorm3d', InstanceNorm3d, False, False)
