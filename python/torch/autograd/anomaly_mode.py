"""Anomaly detection: nodes remember the traceback of the forward op that made them; backward
raises when a node returns NaN, and any error in backward is reported with that traceback."""
import warnings

from torch import _C
from torch.autograd.grad_mode import _DecoratorContextManager


class detect_anomaly(_DecoratorContextManager):
    def __init__(self, check_nan=True):
        self.prev = _C.is_anomaly_enabled()
        self.check_nan = check_nan
        self.prev_check_nan = _C.is_anomaly_check_nan_enabled()
        warnings.warn('Anomaly Detection has been enabled. This mode will increase the runtime and should only be '
                      'enabled for debugging.', stacklevel=2)

    def __enter__(self):
        _C._set_anomaly_enabled(True, self.check_nan)

    def __exit__(self, *exc):
        _C._set_anomaly_enabled(self.prev, self.prev_check_nan)

    def clone(self):
        return self.__class__(self.check_nan)


class set_detect_anomaly:
    """Sets anomaly detection on or off now, or for a block."""

    def __init__(self, mode, check_nan=True):
        self.prev = _C.is_anomaly_enabled()
        self.prev_check_nan = _C.is_anomaly_check_nan_enabled()
        _C._set_anomaly_enabled(mode, check_nan)

    def __enter__(self):
        pass

    def __exit__(self, *exc):
        _C._set_anomaly_enabled(self.prev, self.prev_check_nan)
