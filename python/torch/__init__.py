"""A PyTorch-compatible tensor library whose numerics live in a small C core and its plugins.

`import torch` loads libtorch_core (through torch._C), which discovers and loads the plugins in
torch/plugins and $TORCH_PLUGIN_PATH; see `python3 -m torch.plugins`.
"""
from torch import _C
from torch._C import (  # noqa: F401  (the dtype objects)
    bool, uint8, int8, int16, int32, int64, float16, bfloat16, float32, float64, complex32, complex64, complex128,
    dtype, Size,
    get_default_dtype, set_default_dtype, get_num_threads, set_num_threads,
)
from torch._device import device
from torch._enums import (  # noqa: F401
    layout, memory_format, strided, sparse_coo, preserve_format, contiguous_format, channels_last, channels_last_3d,
    legacy_contiguous_format,
)
from torch._tensor import Tensor
from torch import _legacy
from torch._factories import tensor, as_tensor, from_numpy, frombuffer, is_tensor  # noqa: F401
from torch._ops import ops  # noqa: F401
from torch._C import Generator, default_generator  # noqa: F401
from torch._C import OutOfMemoryError  # noqa: F401
from torch.random import manual_seed, seed, initial_seed, get_rng_state, set_rng_state  # noqa: F401
from torch import backends, cuda, library, special  # noqa: F401
from torch import autograd, nn  # noqa: F401
from torch import linalg  # noqa: F401
from torch import fft  # noqa: F401
from torch.autograd import no_grad, enable_grad, set_grad_enabled, inference_mode  # noqa: F401
from torch._C import is_grad_enabled, is_inference_mode_enabled  # noqa: F401
from torch import functional  # noqa: F401
from torch.functional import norm, unique, unique_consecutive  # noqa: F401
from torch._C import _unique, _unique2  # noqa: F401
from torch._C import _standard_gamma, _standard_gamma_grad, _sample_dirichlet, _dirichlet_grad  # noqa: F401
from torch._C import _fft_c2c, _fft_r2c, _fft_c2r  # noqa: F401  (PyTorch's torch._fft_*)
from torch import storage  # noqa: F401
from torch.storage import TypedStorage, UntypedStorage  # noqa: F401
from torch._legacy import tensortype  # noqa: F401
from torch._functional import broadcast_shapes, is_storage  # noqa: F401
from torch import optim  # noqa: F401
from torch._deterministic import (  # noqa: F401
    use_deterministic_algorithms, are_deterministic_algorithms_enabled, is_deterministic_algorithms_warn_only_enabled,
    set_deterministic_debug_mode, get_deterministic_debug_mode,
)
import torch.utils.data  # noqa: F401

from torch.torch_version import __version__  # noqa: E402  (1.13.1+tc.<this project's version>)

half, float, double = float16, float32, float64
short, int, long = int16, int32, int64
chalf, cfloat, cdouble = complex32, complex64, complex128


def is_complex(input):
    return input.dtype.is_complex


def _assert(condition, message):
    """`assert condition, message` as a function (PyTorch's; symbolic tracing keeps calls to it)."""
    if not condition:
        raise AssertionError(message)

# the legacy tensor types: torch.FloatTensor, torch.LongTensor, ...
globals().update({t.__name__: t for t in _legacy.TYPES.values()})
# and the legacy storage types: torch.FloatStorage, ... (pickles name them)
globals().update({s.__name__: s for s in storage._LEGACY_CLASSES.values()})
_storage_classes = {UntypedStorage, TypedStorage, *storage._LEGACY_CLASSES.values()}
_tensor_classes = set(_legacy.TYPES.values())

from torch import _utils, serialization, _weights_only_unpickler  # noqa: E402,F401
from torch.serialization import save, load  # noqa: E402,F401
from torch import multiprocessing  # noqa: E402,F401  (registers the shared-memory reducers, as in PyTorch)

_C._set_tensor_class(Tensor)
_C._set_device_class(device)
_C._set_enum_classes(layout, memory_format, Generator)


def _export_ops():
    # Every op of the op table that has a function form becomes torch.<name> (see core/ops.table).
    for name in dir(_C):
        if not name.startswith('_') and callable(getattr(_C, name)) and name not in globals():
            globals()[name] = getattr(_C, name)


_export_ops()
del _export_ops

from torch.functional import tensordot, cdist, einsum, adjoint  # noqa: E402,F401  (PyTorch's Python signatures of these ops)
from torch._composites import *  # noqa: E402,F401,F403  (diff, trapezoid, cov, the windows, ...)
from torch._dtype_info import finfo, iinfo, promote_types, result_type, can_cast  # noqa: E402,F401
from torch._tensor_str import set_printoptions  # noqa: E402,F401

# Modules and names that a program may never touch are imported on first use (PyTorch imports them with
# torch; attribute access behaves the same).
_LAZY_MODULES = {'jit', 'hub', 'testing', 'amp', 'cpu', '_six', 'profiler', 'distributions', 'fx', 'onnx', 'masked',
                 'quantization', 'ao'}
_LAZY_NAMES = {'autocast': 'torch.amp', 'is_autocast_enabled': 'torch.amp.autocast_mode',
               'is_autocast_cpu_enabled': 'torch.amp.autocast_mode',
               'get_autocast_gpu_dtype': 'torch.amp.autocast_mode', 'get_autocast_cpu_dtype': 'torch.amp.autocast_mode'}


def __getattr__(name):
    import importlib
    if name in _LAZY_MODULES:
        return importlib.import_module('torch.' + name)
    if name in _LAZY_NAMES:
        return getattr(importlib.import_module(_LAZY_NAMES[name]), name)
    raise AttributeError("module 'torch' has no attribute '%s'" % name)


def from_dlpack(ext_tensor):
    """A tensor sharing the memory of a DLPack producer (numpy arrays, other frameworks' tensors)."""
    from torch.utils.dlpack import from_dlpack as convert
    return convert(ext_tensor)
