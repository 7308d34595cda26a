"""Pooling layers over F's max, average and adaptive pools (1-d and 2-d: the 3-d forms, the unpooling,
fractional and power-average pools wait for their functional forms).

The modules keep their arguments as given (an int stays an int), except AvgPool1d, which makes them
1-tuples, as PyTorch does; a stride of None means the kernel size.
"""
from torch.nn import functional as F
from torch.nn.modules.module import Module
from torch.nn.modules.utils import _single, _pair, _triple

__all__ = ['MaxPool1d', 'MaxPool2d', 'AvgPool1d', 'AvgPool2d', 'AdaptiveMaxPool1d', 'AdaptiveMaxPool2d',
           'AdaptiveAvgPool1d', 'AdaptiveAvgPool2d',
           'MaxPool3d', 'AvgPool3d', 'AdaptiveMaxPool3d', 'AdaptiveAvgPool3d', 'MaxUnpool1d', 'MaxUnpool2d',
           'MaxUnpool3d', 'LPPool1d', 'LPPool2d']


class _MaxPoolNd(Module):
    __constants__ = ['kernel_size', 'stride', 'padding', 'dilation', 'return_indices', 'ceil_mode']

    def __init__(self, kernel_size, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding
        self.dilation = dilation
        self.return_indices = return_indices
        self.ceil_mode = ceil_mode

    def extra_repr(self):
        return 'kernel_size={kernel_size}, stride={stride}, padding={padding}, dilation={dilation}, ' \
               'ceil_mode={ceil_mode}'.format(**self.__dict__)


class MaxPool1d(_MaxPoolNd):
    """The largest element of each window of (N, C, L) or (C, L) inputs (and its index, with return_indices)."""

    def forward(self, input):
        return F.max_pool1d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                            ceil_mode=self.ceil_mode, return_indices=self.return_indices)


class MaxPool2d(_MaxPoolNd):
    """The largest element of each window of (N, C, H, W) or (C, H, W) inputs (and its flat index in
    the plane, with return_indices)."""

    def forward(self, input):
        return F.max_pool2d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                            ceil_mode=self.ceil_mode, return_indices=self.return_indices)


class _AvgPoolNd(Module):
    __constants__ = ['kernel_size', 'stride', 'padding', 'ceil_mode', 'count_include_pad']

    def extra_repr(self):
        return 'kernel_size={}, stride={}, padding={}'.format(self.kernel_size, self.stride, self.padding)


class AvgPool1d(_AvgPoolNd):
    """The mean of each window of (N, C, L) or (C, L) inputs."""

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
        super().__init__()
        self.kernel_size = _single(kernel_size)
        self.stride = _single(stride if stride is not None else kernel_size)
        self.padding = _single(padding)
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad

    def forward(self, input):
        return F.avg_pool1d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad)


class _AvgPoolWithDivisor(_AvgPoolNd):
    """The 2-d and 3-d average pools: a divisor_override beside the 1-d pool's arguments."""

    __constants__ = ['kernel_size', 'stride', 'padding', 'ceil_mode', 'count_include_pad', 'divisor_override']

    def __init__(self, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
                 divisor_override=None):
        super().__init__()
        self.kernel_size = kernel_size
        self.stride = stride if stride is not None else kernel_size
        self.padding = padding
        self.ceil_mode = ceil_mode
        self.count_include_pad = count_include_pad
        self.divisor_override = divisor_override

    def forward(self, input):
        return self._pool(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                          self.count_include_pad, self.divisor_override)


class AvgPool2d(_AvgPoolWithDivisor):
    """The mean of each window of (N, C, H, W) or (C, H, W) inputs (or its sum over divisor_override)."""

    _pool = staticmethod(F.avg_pool2d)


class _AdaptiveMaxPoolNd(Module):
    __constants__ = ['output_size', 'return_indices']

    def __init__(self, output_size, return_indices=False):
        super().__init__()
        self.output_size = output_size
        self.return_indices = return_indices

    def extra_repr(self):
        return 'output_size={}'.format(self.output_size)


class AdaptiveMaxPool1d(_AdaptiveMaxPoolNd):
    """Max pooling whose windows divide the length into output_size parts."""

    def forward(self, input):
        return F.adaptive_max_pool1d(input, self.output_size, self.return_indices)


class AdaptiveMaxPool2d(_AdaptiveMaxPoolNd):
    """Max pooling whose windows divide the plane into output_size parts (None keeps a dim's size)."""

    def forward(self, input):
        return F.adaptive_max_pool2d(input, self.output_size, self.return_indices)


class _AdaptiveAvgPoolNd(Module):
    __constants__ = ['output_size']

    def __init__(self, output_size):
        super().__init__()
        self.output_size = output_size

    def extra_repr(self):
        return 'output_size={}'.format(self.output_size)


class AdaptiveAvgPool1d(_AdaptiveAvgPoolNd):
    """Average pooling whose windows divide the length into output_size parts."""

    def forward(self, input):
        return F.adaptive_avg_pool1d(input, self.output_size)


class AdaptiveAvgPool2d(_AdaptiveAvgPoolNd):
    """Average pooling whose windows divide the plane into output_size parts (None keeps a dim's size)."""

    def forward(self, input):
        return F.adaptive_avg_pool2d(input, self.output_size)


class MaxPool3d(_MaxPoolNd):
    """The largest element of each window of (N, C, D, H, W) or (C, D, H, W) inputs (and its flat index
    in the volume, with return_indices)."""

    def forward(self, input):
        return F.max_pool3d(input, self.kernel_size, self.stride, self.padding, self.dilation,
                            ceil_mode=self.ceil_mode, return_indices=self.return_indices)


class AvgPool3d(_AvgPoolWithDivisor):
    """The mean of each window of (N, C, D, H, W) or (C, D, H, W) inputs (or its sum over divisor_override)."""

    _pool = staticmethod(F.avg_pool3d)


class AdaptiveMaxPool3d(_AdaptiveMaxPoolNd):
    """Max pooling whose windows divide the volume into output_size parts (None keeps a dim's size)."""

    def forward(self, input):
        return F.adaptive_max_pool3d(input, self.output_size, self.return_indices)


class AdaptiveAvgPool3d(_AdaptiveAvgPoolNd):
    """Average pooling whose windows divide the volume into output_size parts (None keeps a dim's size)."""

    def forward(self, input):
        return F.adaptive_avg_pool3d(input, self.output_size)


class _MaxUnpoolNd(Module):
    def extra_repr(self):
        return 'kernel_size={}, stride={}, padding={}'.format(self.kernel_size, self.stride, self.padding)


def _max_unpool_class(dims, ntuple, function):
    class MaxUnpool(_MaxUnpoolNd):
        """Places each value at its max pooling index in a zero output (the partial inverse of MaxPool)."""

        def __init__(self, kernel_size, stride=None, padding=0):
            super().__init__()
            self.kernel_size = ntuple(kernel_size)
            self.stride = ntuple(stride if stride is not None else kernel_size)
            self.padding = ntuple(padding)

        def forward(self, input, indices, output_size=None):
            return function(input, indices, self.kernel_size, self.stride, self.padding, output_size)
    MaxUnpool.__name__ = MaxUnpool.__qualname__ = 'MaxUnpool%dd' % dims
    return MaxUnpool


MaxUnpool1d = _max_unpool_class(1, _single, F.max_unpool1d)
MaxUnpool2d = _max_unpool_class(2, _pair, F.max_unpool2d)
MaxUnpool3d = _max_unpool_class(3, _triple, F.max_unpool3d)


class _LPPoolNd(Module):
    __constants__ = ['norm_type', 'kernel_size', 'stride', 'ceil_mode']

    def __init__(self, norm_type, kernel_size, stride=None, ceil_mode=False):
        super().__init__()
        self.norm_type = norm_type
        self.kernel_size = kernel_size
        self.stride = stride
        self.ceil_mode = ceil_mode

    def extra_repr(self):
        return 'norm_type={norm_type}, kernel_size={kernel_size}, stride={stride}, ceil_mode={ceil_mode}'.format(
            **self.__dict__)


class LPPool1d(_LPPoolNd):
    """The p-norm of each window: (sum of x^p)^(1/p)."""

    def forward(self, input):
        return F.lp_pool1d(input, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode)


class LPPool2d(_LPPoolNd):
    """The p-norm of each window of a plane: (sum of x^p)^(1/p)."""

    def forward(self, input):
        return F.lp_pool2d(input, float(self.norm_type), self.kernel_size, self.stride, self.ceil_mode)
