"""torch.onnx.errors: the exporter's exception classes."""

__all__ = ['OnnxExporterError', 'CheckerError', 'UnsupportedOperatorError', 'SymbolicValueError',
           'OnnxExporterWarning', 'CallHintViolationWarning']


class OnnxExporterWarning(UserWarning):
    pass


class CallHintViolationWarning(OnnxExporterWarning):
    pass


class OnnxExporterError(RuntimeError):
    pass


class CheckerError(OnnxExporterError):
    pass


class UnsupportedOperatorError(OnnxExporterError):
    pass


class SymbolicValueError(OnnxExporterError):
    pass
