"""torch.onnx.symbolic_helper: what symbolic functions are written with. A symbolic function receives the
export graph `g` and its inputs and emits ONNX nodes through g.op(...); parse_args declares which inputs
are graph values ('v') and which must be constants of a given kind."""
import functools

import torch
from torch.onnx.errors import OnnxExporterError, SymbolicValueError

__all__ = ['parse_args', 'quantized_args', 'args_have_same_dtype']

_VALID_DESCRIPTORS = ('v', 'i', 'is', 'f', 'fs', 'b', 's', 't', 'none')


def _is_value(x):
    """True for a value of the export graph (anything that is not a Python constant or tensor)."""
    return not isinstance(x, (torch.Tensor, int, float, bool, str, list, tuple, type(None)))


def _parse_arg(value, desc, arg_name=None, node_name=None):
    """The Python constant that descriptor desc asks for, from a constant value."""
    if desc == 'none' or desc == 'v' or _is_value(value):
        return value
    if isinstance(value, torch.Tensor):
        value = value.tolist()
    if desc == 'i':
        return int(value)
    if desc == 'f':
        return float(value)
    if desc == 'b':
        return bool(value)
    if desc == 's':
        return str(value)
    if desc == 'is':
        return [int(v) for v in (value if isinstance(value, (list, tuple)) else [value])]
    if desc == 'fs':
        return [float(v) for v in (value if isinstance(value, (list, tuple)) else [value])]
    if desc == 't':
        return torch.as_tensor(value)
    raise SymbolicValueError("ONNX symbolic does not understand argument type '%s' of %s in %s"
                             % (desc, arg_name, node_name))


def parse_args(*arg_descriptors):
    """Decorator: the symbolic function's inputs after g are converted as the descriptors say ('v' value,
    'i' int, 'is' int list, 'f' float, 'fs' float list, 'b' bool, 's' str, 't' tensor, 'none' as is)."""
    for d in arg_descriptors:
        if d not in _VALID_DESCRIPTORS:
            raise ValueError('parse_args: unknown argument descriptor %r' % (d,))

    def decorator(fn):
        @functools.wraps(fn)
        def wrapper(g, *args, **kwargs):
            if len(args) > len(arg_descriptors):
                raise OnnxExporterError('%s takes %d arguments, %d given' % (fn.__name__, len(arg_descriptors),
                                                                             len(args)))
            parsed = [_parse_arg(a, d, i, fn.__name__) for i, (a, d) in enumerate(zip(args, arg_descriptors))]
            return fn(g, *parsed, **kwargs)
        return wrapper
    return decorator


def quantized_args(*arg_q_descriptors, scale=None, zero_point=None):
    """Decorator for symbolic functions that accept quantized inputs; without a quantized export it
    leaves the function as it is."""
    def decorator(fn):
        return fn
    return decorator


def args_have_same_dtype(args):
    dtypes = {a.dtype for a in args if isinstance(a, torch.Tensor)}
    return len(dtypes) <= 1


def _unimplemented(op, msg):
    raise OnnxExporterError('Unsupported: ONNX export of %s: %s' % (op, msg))
