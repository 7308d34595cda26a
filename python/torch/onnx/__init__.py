"""torch.onnx: the registry of symbolic functions (how an op is written as ONNX nodes) that libraries
extend at import time (torchvision registers nms/roi_align/roi_pool). Exporting itself is not implemented
in this framework: export() raises OnnxExporterError saying so."""
import enum
import re

from torch.onnx import errors, symbolic_helper  # noqa: F401
from torch.onnx.errors import CheckerError, OnnxExporterError  # noqa: F401

__all__ = ['export', 'export_to_pretty_string', 'is_in_onnx_export', 'register_custom_op_symbolic',
           'unregister_custom_op_symbolic', 'select_model_mode_for_export', 'ExportTypes', 'OperatorExportTypes',
           'TrainingMode', 'CheckerError', 'producer_name', 'producer_version']

producer_name = 'pytorch'
producer_version = '1.13.0'


class ExportTypes:
    PROTOBUF_FILE = 'Saves model in the specified protobuf file.'
    ZIP_ARCHIVE = 'Saves model in the specified ZIP file (uncompressed).'
    COMPRESSED_ZIP_ARCHIVE = 'Saves model in the specified ZIP file (compressed).'
    DIRECTORY = 'Saves model in the specified folder.'


class OperatorExportTypes(enum.IntEnum):
    ONNX = 0
    ONNX_ATEN = 1
    ONNX_ATEN_FALLBACK = 2
    ONNX_FALLTHROUGH = 3


class TrainingMode(enum.IntEnum):
    EVAL = 0
    PRESERVE = 1
    TRAINING = 2


# (domain::name, opset) -> symbolic function, for ops that libraries teach the exporter
_custom_symbolics = {}
_SYMBOLIC_NAME = re.compile(r'^[a-zA-Z0-9-_]*::[a-zA-Z-_]+[a-zA-Z0-9-_]*$')


def register_custom_op_symbolic(symbolic_name, symbolic_fn, opset_version):
    """Registers symbolic_fn(g, *inputs) as the ONNX form of op `domain::name` from opset_version on."""
    if symbolic_name.startswith('::'):
        symbolic_name = 'aten' + symbolic_name
    if not _SYMBOLIC_NAME.match(symbolic_name):
        raise OnnxExporterError('Failed to register operator %s. The symbolic name must match the format '
                                'domain::name, and should start with a letter and contain only alphanumerical '
                                'characters' % symbolic_name)
    _custom_symbolics[(symbolic_name, opset_version)] = symbolic_fn


def unregister_custom_op_symbolic(symbolic_name, opset_version):
    """Forgets what register_custom_op_symbolic registered for that name and opset."""
    if symbolic_name.startswith('::'):
        symbolic_name = 'aten' + symbolic_name
    _custom_symbolics.pop((symbolic_name, opset_version), None)


def is_in_onnx_export():
    """True while export runs: never here, as export is not implemented."""
    return False


def _not_implemented(what):
    raise OnnxExporterError('torch.onnx.%s is not implemented in this framework (it runs models eagerly and '
                            'has no TorchScript graph to translate); export with the reference PyTorch instead'
                            % what)


def export(model, args, f, export_params=True, verbose=False, training=TrainingMode.EVAL, input_names=None,
           output_names=None, operator_export_type=OperatorExportTypes.ONNX, opset_version=None,
           do_constant_folding=True, dynamic_axes=None, keep_initializers_as_inputs=None, custom_opsets=None,
           export_modules_as_functions=False):
    """Not implemented: raises OnnxExporterError."""
    _not_implemented('export')


def export_to_pretty_string(*args, **kwargs):
    """Not implemented: raises OnnxExporterError."""
    _not_implemented('export_to_pretty_string')


def select_model_mode_for_export(model, mode):
    """Not implemented: raises OnnxExporterError."""
    _not_implemented('select_model_mode_for_export')
