"""QConfig: which observer factories a module's activations and weights get when it is prepared."""
from collections import namedtuple

from torch.ao.quantization.observer import (HistogramObserver, MovingAverageMinMaxObserver,
                                            PlaceholderObserver, default_debug_observer,
                                            default_observer, default_per_channel_weight_observer,
                                            default_weight_observer, default_dynamic_quant_observer,
                                            default_placeholder_observer)
from torch.ao.quantization import observer as _obs

__all__ = ['QConfig', 'QConfigDynamic', 'default_qconfig', 'default_debug_qconfig', 'default_per_channel_qconfig',
           'default_dynamic_qconfig', 'float16_dynamic_qconfig', 'default_qat_qconfig', 'get_default_qconfig',
           'get_default_qat_qconfig', 'default_weight_only_qconfig', 'default_activation_only_qconfig']


class QConfig(namedtuple('QConfig', ['activation', 'weight'])):
    """QConfig(activation=, weight=): observer classes or with_args factories (not instances)."""

    def __new__(cls, activation, weight):
        if isinstance(activation, _obs.ObserverBase) or isinstance(weight, _obs.ObserverBase):
            raise ValueError('QConfig received observer instance, please pass observer class instead. Use '
                             'MyObserver.with_args(x=1) to override arguments to constructor if needed')
        return super().__new__(cls, activation, weight)


class QConfigDynamic(QConfig):
    """The former name of a QConfig for dynamic quantization (activation defaults to a placeholder)."""

    def __new__(cls, activation=PlaceholderObserver, weight=PlaceholderObserver):
        return super().__new__(cls, activation, weight)


default_qconfig = QConfig(activation=default_observer, weight=default_weight_observer)
default_debug_qconfig = QConfig(weight=default_weight_observer, activation=default_debug_observer)
default_per_channel_qconfig = QConfig(activation=default_observer, weight=default_per_channel_weight_observer)
default_dynamic_qconfig = QConfig(activation=default_dynamic_quant_observer, weight=default_weight_observer)
float16_dynamic_qconfig = QConfig(activation=PlaceholderObserver.with_args(dtype=None),
                                  weight=PlaceholderObserver.with_args(dtype=None))
default_weight_only_qconfig = QConfig(activation=default_placeholder_observer, weight=default_weight_observer)
default_activation_only_qconfig = QConfig(activation=default_observer, weight=default_placeholder_observer)
# quantization-aware training observes with moving averages (fake quantization is applied by convert)
default_qat_qconfig = QConfig(activation=MovingAverageMinMaxObserver.with_args(quant_min=0, quant_max=255,
                                                                               reduce_range=True),
                              weight=default_weight_observer)


def get_default_qconfig(backend='fbgemm', version=0):
    """The post-training QConfig PyTorch recommends for backend ('fbgemm', 'x86', 'qnnpack', 'onednn')."""
    if backend in ('fbgemm', 'x86'):
        return QConfig(activation=HistogramObserver.with_args(reduce_range=True),
                       weight=default_per_channel_weight_observer)
    if backend == 'qnnpack':
        return QConfig(activation=HistogramObserver.with_args(reduce_range=False), weight=default_weight_observer)
    if backend == 'onednn':
        return QConfig(activation=HistogramObserver.with_args(reduce_range=False),
                       weight=default_per_channel_weight_observer)
    return default_qconfig


def get_default_qat_qconfig(backend='fbgemm', version=1):
    """The quantization-aware-training QConfig for backend."""
    reduce_range = backend in ('fbgemm', 'x86')
    return QConfig(activation=MovingAverageMinMaxObserver.with_args(quant_min=0, quant_max=255,
                                                                    reduce_range=reduce_range),
                   weight=default_per_channel_weight_observer if backend != 'qnnpack' else default_weight_observer)


