"""Observers watch the values flowing through a point of a float model and derive quantization parameters
(scale, zero_point) from what they saw. They compute in float; only applying the parameters needs
quantized tensors."""
import functools

import torch

__all__ = ['ObserverBase', 'MinMaxObserver', 'MovingAverageMinMaxObserver', 'PerChannelMinMaxObserver',
           'MovingAveragePerChannelMinMaxObserver', 'HistogramObserver', 'PlaceholderObserver', 'NoopObserver',
           'default_observer', 'default_weight_observer', 'default_per_channel_weight_observer',
           'default_histogram_observer', 'default_placeholder_observer', 'default_debug_observer',
           'default_dynamic_quant_observer', 'default_float_qparams_observer']


class _PartialWrapper:
    """What with_args returns: calling it builds the observer with the stored arguments."""

    def __init__(self, p):
        self.p = p

    def __call__(self, *args, **kwargs):
        return self.p(*args, **kwargs)

    def __repr__(self):
        return self.p.__repr__() + '{}'

    def with_args(self, **kwargs):
        return _PartialWrapper(functools.partial(self.p, **kwargs))


def _with_args(cls_or_self, **kwargs):
    return _PartialWrapper(functools.partial(cls_or_self, **kwargs))


_QRANGES = {torch.quint8: (0, 255), torch.qint8: (-128, 127), torch.qint32: (-2 ** 31, 2 ** 31 - 1)} \
    if hasattr(torch, 'quint8') else {}


class ObserverBase(torch.nn.Module):
    with_args = classmethod(_with_args)

    def __init__(self, dtype):
        super().__init__()
        self.dtype = dtype

    def calculate_qparams(self, **kwargs):
        raise NotImplementedError


class MinMaxObserver(ObserverBase):
    """Tracks the running min and max of every tensor seen; calculate_qparams maps [min, max] (widened to
    contain 0) onto [quant_min, quant_max]."""

    def __init__(self, dtype=None, qscheme=None, reduce_range=False, quant_min=None, quant_max=None,
                 factory_kwargs=None, eps=torch.finfo(torch.float32).eps):
        super().__init__(dtype if dtype is not None else getattr(torch, 'quint8', None))
        self.qscheme = qscheme if qscheme is not None else getattr(torch, 'per_tensor_affine', 'per_tensor_affine')
        self.reduce_range = reduce_range
        if quant_min is None or quant_max is None:
            signed = str(self.dtype) in ('torch.qint8', 'torch.qint32')
            quant_min, quant_max = (-128, 127) if signed else (0, 255)
            if reduce_range:
                quant_min, quant_max = quant_min // 2, quant_max // 2
        self.quant_min, self.quant_max = quant_min, quant_max
        self.eps = eps
        self.register_buffer('min_val', torch.tensor(float('inf')))
        self.register_buffer('max_val', torch.tensor(float('-inf')))

    def _reduce(self, x):
        return torch.aminmax(x.detach().float())

    def forward(self, x_orig):
        if x_orig.numel() == 0:
            return x_orig
        lo, hi = self._reduce(x_orig)
        self.min_val = torch.minimum(self.min_val, lo) if self.min_val.numel() == lo.numel() else lo
        self.max_val = torch.maximum(self.max_val, hi) if self.max_val.numel() == hi.numel() else hi
        return x_orig

    def _symmetric(self):
        return 'symmetric' in str(self.qscheme)

    def calculate_qparams(self):
        lo = torch.clamp(self.min_val, max=0.0)
        hi = torch.clamp(self.max_val, min=0.0)
        qmin, qmax = self.quant_min, self.quant_max
        if self._symmetric():
            bound = torch.maximum(-lo, hi)
            scale = torch.clamp(bound / ((qmax - qmin) / 2), min=self.eps)
            zero = torch.full_like(scale, 0 if qmin < 0 else (qmin + qmax + 1) // 2, dtype=torch.int64)
        else:
            scale = torch.clamp((hi - lo) / float(qmax - qmin), min=self.eps)
            zero = torch.clamp(qmin - torch.round(lo / scale), qmin, qmax).to(torch.int64)
        return scale, zero

    def extra_repr(self):
        return 'min_val={}, max_val={}'.format(self.min_val, self.max_val)

    def reset_min_max_vals(self):
        self.min_val = torch.tensor(float('inf'))
        self.max_val = torch.tensor(float('-inf'))


class MovingAverageMinMaxObserver(MinMaxObserver):
    """MinMaxObserver whose min and max are exponential moving averages (weight averaging_constant)."""

    def __init__(self, averaging_constant=0.01, **kwargs):
        super().__init__(**kwargs)
        self.averaging_constant = averaging_constant

    def forward(self, x_orig):
        if x_orig.numel() == 0:
            return x_orig
        lo, hi = self._reduce(x_orig)
        if torch.isinf(self.min_val).all():
            self.min_val, self.max_val = lo, hi
        else:
            c = self.averaging_constant
            self.min_val = self.min_val + c * (lo - self.min_val)
            self.max_val = self.max_val + c * (hi - self.max_val)
        return x_orig


class PerChannelMinMaxObserver(MinMaxObserver):
    """MinMaxObserver keeping one min and max per slice along ch_axis."""

    def __init__(self, ch_axis=0, **kwargs):
        kwargs.setdefault('qscheme', getattr(torch, 'per_channel_affine', 'per_channel_affine'))
        super().__init__(**kwargs)
        self.ch_axis = ch_axis

    def _reduce(self, x):
        y = x.detach().float().transpose(0, self.ch_axis).flatten(1)
        return torch.aminmax(y, dim=1)


class MovingAveragePerChannelMinMaxObserver(PerChannelMinMaxObserver):
    def __init__(self, averaging_constant=0.01, ch_axis=0, **kwargs):
        super().__init__(ch_axis=ch_axis, **kwargs)
        self.averaging_constant = averaging_constant

    forward = MovingAverageMinMaxObserver.forward


class HistogramObserver(MinMaxObserver):
    """PyTorch's builds a histogram of `bins` bins and chooses the range that minimises the quantization
    error. The histogram search is not built here: it observes the running min/max (so calibration passes
    run), and calculate_qparams refuses rather than return min/max parameters PyTorch's would not."""

    def __init__(self, bins=2048, upsample_rate=128, **kwargs):
        super().__init__(**kwargs)
        self.bins = bins
        self.upsample_rate = upsample_rate

    def calculate_qparams(self):
        raise NotImplementedError('HistogramObserver.calculate_qparams: the histogram search that chooses its range '
                                  'is not implemented in this framework; use MinMaxObserver or '
                                  'MovingAverageMinMaxObserver')


class PlaceholderObserver(ObserverBase):
    """Observes nothing; carries dtype (and compute_dtype) for conversion."""

    def __init__(self, dtype=torch.float32, custom_op_name='', compute_dtype=None, quant_min=None,
                 quant_max=None, is_dynamic=False):
        super().__init__(dtype)
        self.custom_op = custom_op_name
        self.compute_dtype = compute_dtype

    def forward(self, x):
        return x

    def calculate_qparams(self):
        raise Exception('calculate_qparams should not be called for PlaceholderObserver')


class NoopObserver(ObserverBase):
    def __init__(self, dtype=torch.float16, custom_op_name=''):
        super().__init__(dtype)
        self.custom_op = custom_op_name

    def forward(self, x):
        return x

    def calculate_qparams(self):
        raise Exception('calculate_qparams should not be called for NoopObserver')


_qint8 = getattr(torch, 'qint8', None)
default_observer = MinMaxObserver.with_args(quant_min=0, quant_max=127)
default_placeholder_observer = PlaceholderObserver
default_debug_observer = NoopObserver
default_weight_observer = MinMaxObserver.with_args(dtype=_qint8, qscheme=getattr(torch, 'per_tensor_symmetric',
                                                                                 'per_tensor_symmetric'))
default_histogram_observer = HistogramObserver.with_args(quant_min=0, quant_max=127)
default_per_channel_weight_observer = PerChannelMinMaxObserver.with_args(
    dtype=_qint8, qscheme=getattr(torch, 'per_channel_symmetric', 'per_channel_symmetric'))
default_dynamic_quant_observer = PlaceholderObserver.with_args(dtype=torch.float32, compute_dtype=getattr(
    torch, 'quint8', None))
default_float_qparams_observer = PerChannelMinMaxObserver.with_args(dtype=getattr(torch, 'quint8', None), ch_axis=0)
