"""torch.finfo and torch.iinfo (the numerical limits of a dtype), and torch.promote_types,
torch.result_type and torch.can_cast (PyTorch's type promotion asked without computing: the dtypes
come from operations on the meta device, which has no data)."""
import numbers

import torch

# bits, eps, max, smallest normal (tiny), resolution (10 ** -decimal digits)
_FLOATS = {
    'float16': (16, 2.0 ** -10, 65504.0, 2.0 ** -14, 0.001),
    'bfloat16': (16, 2.0 ** -7, 3.3895313892515355e+38, 2.0 ** -126, 0.01),
    'float32': (32, 2.0 ** -23, 3.4028234663852886e+38, 2.0 ** -126, 1e-06),
    'float64': (64, 2.0 ** -52, 1.7976931348623157e+308, 2.0 ** -1022, 1e-15),
}
_COMPLEX_PARTS = {'complex32': 'float16', 'complex64': 'float32', 'complex128': 'float64'}
_INTS = {'uint8': (8, 0, 255), 'int8': (8, -128, 127), 'int16': (16, -2 ** 15, 2 ** 15 - 1),
         'int32': (32, -2 ** 31, 2 ** 31 - 1), 'int64': (64, -2 ** 63, 2 ** 63 - 1)}


def _name(dtype):
    return str(dtype).replace('torch.', '')


class _Info:
    """finfo and iinfo compare equal, and hash alike, when they describe the same dtype."""

    def __eq__(self, other):
        return type(other) is type(self) and other.dtype == self.dtype

    def __hash__(self):
        return hash((type(self).__name__, self.dtype))


class finfo(_Info):
    """The limits of a floating point dtype (of its parts for a complex one); the default dtype's
    without an argument."""

    def __init__(self, type=None):
        name = _name(torch.get_default_dtype() if type is None else type)
        name = _COMPLEX_PARTS.get(name, name)
        if name not in _FLOATS:
            raise TypeError("torch.finfo() requires a floating point input type. Use torch.iinfo to handle "
                            "'torch.finfo'")
        self.bits, self.eps, self.max, self.tiny, self.resolution = _FLOATS[name]
        self.min = -self.max
        self.smallest_normal = self.tiny
        self.dtype = name

    def __repr__(self):
        return ('finfo(resolution=%g, min=%g, max=%g, eps=%g, smallest_normal=%g, tiny=%g, dtype=%s)'
                % (self.resolution, self.min, self.max, self.eps, self.smallest_normal, self.tiny, self.dtype))


class iinfo(_Info):
    """The limits of an integer dtype."""

    def __init__(self, type):
        name = _name(type)
        if name == 'bool':
            raise TypeError('torch.bool is not supported by torch.iinfo')
        if name not in _INTS:
            raise TypeError("torch.iinfo() requires an integer input type. Use torch.finfo to handle 'torch.iinfo'")
        self.bits, self.min, self.max = _INTS[name]
        self.dtype = name

    def __repr__(self):
        return 'iinfo(min=%g, max=%g, dtype=%s)' % (self.min, self.max, self.dtype)


def _operand(x):
    """x as an operand of the same promotion category with no data: a meta tensor (0-dim when x is,
    which promotes below tensors with dims), or the Python number itself."""
    if isinstance(x, torch.Tensor):
        return torch.empty(() if x.dim() == 0 else (0,), dtype=x.dtype, device='meta')
    if isinstance(x, (bool, numbers.Number)):
        return x
    raise TypeError('result_type(): expected Tensor or Number arguments, got %s' % type(x).__name__)


def result_type(tensor, other):
    """The dtype an arithmetic operation of the two would compute in."""
    a, b = _operand(tensor), _operand(other)
    if not isinstance(a, torch.Tensor) and not isinstance(b, torch.Tensor):
        a = torch.empty((), dtype=torch.tensor(a).dtype, device='meta')
    return torch.mul(a, b).dtype if isinstance(a, torch.Tensor) else torch.mul(b, a).dtype


def promote_types(type1, type2):
    """The smallest dtype both dtypes convert to without losing their kind."""
    if not isinstance(type1, torch.dtype) or not isinstance(type2, torch.dtype):
        raise TypeError('promote_types(): expected two dtypes')
    return torch.mul(torch.empty(0, dtype=type1, device='meta'), torch.empty(0, dtype=type2, device='meta')).dtype


def can_cast(from_, to):
    """Whether PyTorch's casting rules let an operation write a `from_` result into `to` (no complex
    to real, floating to integer, or anything but bool to bool)."""
    if not isinstance(from_, torch.dtype) or not isinstance(to, torch.dtype):
        raise TypeError('can_cast(): expected two dtypes')
    if from_.is_complex and not to.is_complex:
        return False
    if from_.is_floating_point and not (to.is_floating_point or to.is_complex):
        return False
    return not (from_ != torch.bool and to == torch.bool)
