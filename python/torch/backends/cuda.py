"""torch.backends.cuda: whether the cuda plugin was built, and cuBLAS's TF32 switches. The cuda plugin's
matrix products are full fp32 whatever allow_tf32 says (a result TF32 is allowed but not required to
change); the setting keeps its value and PyTorch's type check."""
import torch
from torch.backends import _Flag, _FlagModule


def is_built():
    """Whether the cuda plugin is present in this build, even where no GPU lets it run
    (torch.cuda.is_available() says whether one does)."""
    return any(p['name'] == 'cuda' for p in torch.backends.plugins())


class _Matmul(_FlagModule):
    allow_tf32 = _Flag('set_allow_tf32_cublas', False)
    allow_fp16_reduced_precision_reduction = _Flag('set_allow_fp16_reduction_cublas', True)

    def __getattr__(self, name):
        raise AssertionError('Unknown attribute ' + name)

    def __setattr__(self, name, value):
        if not isinstance(getattr(type(self), name, None), _Flag):
            raise AssertionError('Unknown attribute ' + name)
        super().__setattr__(name, value)


matmul = _Matmul('torch.backends.cuda.matmul')
