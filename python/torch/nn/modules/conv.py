"""Convolution layers: Conv1d/2d/3d and their transposes, over F.conv*d / F.conv_transpose*d.

The weight is (out_channels, in_channels / groups, *kernel_size), or (in_channels, out_channels /
groups, *kernel_size) when transposed; both it and the bias start from PyTorch's default draws
(kaiming_uniform_ with a = sqrt(5), then U(-1/sqrt(fan_in), 1/sqrt(fan_in)) for the bias), in that
order. A padding mode other than 'zeros' pads the input with F.pad first and convolves unpadded.
"""
import math

import torch
from torch.nn import functional as F
from torch.nn import init
from torch.nn.modules.module import Module
from torch.nn.modules.utils import _single, _pair, _triple, _reverse_repeat_tuple
from torch.nn.parameter import Parameter

__all__ = ['Conv1d', 'Conv2d', 'Conv3d', 'ConvTranspose1d', 'ConvTranspose2d', 'ConvTranspose3d']

_PADDING_STRINGS = {'same', 'valid'}
_PADDING_MODES = {'zeros', 'reflect', 'replicate', 'circular'}


class _ConvNd(Module):
    __constants__ = ['stride', 'padding', 'dilation', 'groups', 'padding_mode', 'output_padding', 'in_channels',
                     'out_channels', 'kernel_size']

    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, dilation, transposed,
                 output_padding, groups, bias, padding_mode, device=None, dtype=None):
        factory_kwargs = {'device': device, 'dtype': dtype}
        super().__init__()
        if groups <= 0:
            raise ValueError('groups must be a positive integer')
        if in_channels % groups != 0:
            raise ValueError('in_channels must be divisible by groups')
        if out_channels % groups != 0:
            raise ValueError('out_channels must be divisible by groups')
        if isinstance(padding, str):
            if padding not in _PADDING_STRINGS:
                raise ValueError("Invalid padding string {!r}, should be one of {}".format(padding, _PADDING_STRINGS))
            if padding == 'same' and any(s != 1 for s in stride):
                raise ValueError("padding='same' is not supported for strided convolutions")
        if padding_mode not in _PADDING_MODES:
            raise ValueError("padding_mode must be one of {}, but got padding_mode='{}'".format(
                _PADDING_MODES, padding_mode))
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding
        self.dilation = dilation
        self.transposed = transposed
        self.output_padding = output_padding
        self.groups = groups
        self.padding_mode = padding_mode
        self._reversed_padding_repeated_twice = self._explicit_padding(padding, kernel_size, dilation)
        if transposed:
            shape = (in_channels, out_channels // groups, *kernel_size)
        else:
            shape = (out_channels, in_channels // groups, *kernel_size)
        self.weight = Parameter(torch.empty(shape, **factory_kwargs))
        if bias:
            self.bias = Parameter(torch.empty(out_channels, **factory_kwargs))
        else:
            self.register_parameter('bias', None)
        self.reset_parameters()

    @staticmethod
    def _explicit_padding(padding, kernel_size, dilation):
        """The padding as F.pad takes it (last dim first, before and after); 'same' puts the odd
        element of a dim's total padding after."""
        if not isinstance(padding, str):
            return _reverse_repeat_tuple(padding, 2)
        pads = [0, 0] * len(kernel_size)
        if padding == 'same':
            n = len(kernel_size)
            for i, (d, k) in enumerate(zip(dilation, kernel_size)):
                total = d * (k - 1)
                pads[2 * (n - 1 - i)] = total // 2
                pads[2 * (n - 1 - i) + 1] = total - total // 2
        return pads

    def reset_parameters(self):
        # a = sqrt(5) makes kaiming_uniform_ U(-1/sqrt(fan_in), 1/sqrt(fan_in))
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            if fan_in != 0:
                bound = 1 / math.sqrt(fan_in)
                init.uniform_(self.bias, -bound, bound)

    def extra_repr(self):
        s = '{in_channels}, {out_channels}, kernel_size={kernel_size}, stride={stride}'
        if self.padding != (0,) * len(self.padding):
            s += ', padding={padding}'
        if self.dilation != (1,) * len(self.dilation):
            s += ', dilation={dilation}'
        if self.output_padding != (0,) * len(self.output_padding):
            s += ', output_padding={output_padding}'
        if self.groups != 1:
            s += ', groups={groups}'
        if self.bias is None:
            s += ', bias=False'
        if self.padding_mode != 'zeros':
            s += ', padding_mode={padding_mode}'
        return s.format(**self.__dict__)

    def __setstate__(self, state):
        super().__setstate__(state)
        if not hasattr(self, 'padding_mode'):
            self.padding_mode = 'zeros'

    # the functional form and the tuple maker of the dimension, set by each subclass
    _conv = None
    _ntuple = None

    def _conv_forward(self, input, weight, bias):
        conv = type(self)._conv
        if self.padding_mode != 'zeros':
            padded = F.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode)
            return conv(padded, weight, bias, self.stride, type(self)._ntuple(0), self.dilation, self.groups)
        return conv(input, weight, bias, self.stride, self.padding, self.dilation, self.groups)

    def forward(self, input):
        return self._conv_forward(input, self.weight, self.bias)


def _conv_init(module, ntuple, in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
               padding_mode, device, dtype):
    padding = padding if isinstance(padding, str) else ntuple(padding)
    _ConvNd.__init__(module, in_channels, out_channels, ntuple(kernel_size), ntuple(stride), padding,
                     ntuple(dilation), False, ntuple(0), groups, bias, padding_mode, device=device, dtype=dtype)


class Conv1d(_ConvNd):
    """1-d convolution over (N, C_in, L) or (C_in, L) inputs."""

    _conv = staticmethod(F.conv1d)
    _ntuple = staticmethod(_single)

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 bias=True, padding_mode='zeros', device=None, dtype=None):
        _conv_init(self, _single, in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                   padding_mode, device, dtype)


class Conv2d(_ConvNd):
    """2-d convolution over (N, C_in, H, W) or (C_in, H, W) inputs."""

    _conv = staticmethod(F.conv2d)
    _ntuple = staticmethod(_pair)

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 bias=True, padding_mode='zeros', device=None, dtype=None):
        _conv_init(self, _pair, in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                   padding_mode, device, dtype)


class Conv3d(_ConvNd):
    """3-d convolution over (N, C_in, D, H, W) or (C_in, D, H, W) inputs."""

    _conv = staticmethod(F.conv3d)
    _ntuple = staticmethod(_triple)

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 bias=True, padding_mode='zeros', device=None, dtype=None):
        _conv_init(self, _triple, in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                   padding_mode, device, dtype)


class _ConvTransposeNd(_ConvNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride, padding, dilation, transposed,
                 output_padding, groups, bias, padding_mode, device=None, dtype=None):
        if padding_mode != 'zeros':
            raise ValueError('Only "zeros" padding mode is supported for {}'.format(self.__class__.__name__))
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, transposed,
                         output_padding, groups, bias, padding_mode, device=device, dtype=dtype)

    def _output_padding(self, input, output_size, stride, padding, kernel_size, num_spatial_dims, dilation=None):
        """The output_padding that makes the result output_size (None: the module's own)."""
        if output_size is None:
            return _single(self.output_padding)
        non_spatial = 2 if input.dim() == num_spatial_dims + 2 else 1
        if len(output_size) == non_spatial + num_spatial_dims:
            output_size = output_size[non_spatial:]
        if len(output_size) != num_spatial_dims:
            raise ValueError("ConvTranspose{}D: for {}D input, output_size must have {} or {} elements (got {})"
                             .format(num_spatial_dims, input.dim(), num_spatial_dims, non_spatial + num_spatial_dims,
                                     len(output_size)))
        min_sizes, max_sizes = [], []
        for d in range(num_spatial_dims):
            dil = dilation[d] if dilation is not None else 1
            smallest = (input.size(d + non_spatial) - 1) * stride[d] - 2 * padding[d] + dil * (kernel_size[d] - 1) + 1
            min_sizes.append(smallest)
            max_sizes.append(smallest + stride[d] - 1)
        for size, lo, hi in zip(output_size, min_sizes, max_sizes):
            if size < lo or size > hi:
                raise ValueError("requested an output size of {}, but valid sizes range from {} to {} (for an input "
                                 "of {})".format(output_size, min_sizes, max_sizes, input.size()[2:]))
        return [output_size[d] - min_sizes[d] for d in range(num_spatial_dims)]

    _conv_transpose = None

    def forward(self, input, output_size=None):
        n = len(self.kernel_size)
        if self.padding_mode != 'zeros':
            raise ValueError('Only `zeros` padding mode is supported for ConvTranspose{}d'.format(n))
        output_padding = self._output_padding(input, output_size, self.stride, self.padding, self.kernel_size, n,
                                              self.dilation)
        return type(self)._conv_transpose(input, self.weight, self.bias, self.stride, self.padding, output_padding,
                                          self.groups, self.dilation)


def _conv_transpose_init(module, ntuple, in_channels, out_channels, kernel_size, stride, padding, output_padding,
                         groups, bias, dilation, padding_mode, device, dtype):
    _ConvTransposeNd.__init__(module, in_channels, out_channels, ntuple(kernel_size), ntuple(stride), ntuple(padding),
                              ntuple(dilation), True, ntuple(output_padding), groups, bias, padding_mode,
                              device=device, dtype=dtype)


class ConvTranspose1d(_ConvTransposeNd):
    """The gradient of Conv1d with respect to its input, as a layer."""

    _conv_transpose = staticmethod(F.conv_transpose1d)

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                 bias=True, dilation=1, padding_mode='zeros', device=None, dtype=None):
        _conv_transpose_init(self, _single, in_channels, out_channels, kernel_size, stride, padding, output_padding,
                             groups, bias, dilation, padding_mode, device, dtype)


class ConvTranspose2d(_ConvTransposeNd):
    """The gradient of Conv2d with respect to its input, as a layer."""

    _conv_transpose = staticmethod(F.conv_transpose2d)

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                 bias=True, dilation=1, padding_mode='zeros', device=None, dtype=None):
        _conv_transpose_init(self, _pair, in_channels, out_channels, kernel_size, stride, padding, output_padding,
                             groups, bias, dilation, padding_mode, device, dtype)


class ConvTranspose3d(_ConvTransposeNd):
    """The gradient of Conv3d with respect to its input, as a layer."""

    _conv_transpose = staticmethod(F.conv_transpose3d)

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                 bias=True, dilation=1, padding_mode='zeros', device=None, dtype=None):
        _conv_transpose_init(self, _triple, in_channels, out_channels, kernel_size, stride, padding, output_padding,
                             groups, bias, dilation, padding_mode, device, dtype)
