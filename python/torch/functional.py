"""torch.functional: PyTorch's Python-level signatures of two ops whose arguments PyTorch's Python
layer takes in other forms than their schemas (torch/functional.py in PyTorch does the same): tensordot's
`dims` (an int, two lists, or a tensor) and cdist's `compute_mode` (a string). They translate the
arguments and call the table's ops (torch._C.tensordot, torch._C.cdist); nothing else is done here."""
from torch import _C
import torch


def tensordot(a, b, dims=2, out=None):
    if not isinstance(dims, (tuple, list, torch.Tensor, int)):
        raise RuntimeError('tensordot expects dims to be int or Tuple[List[int], List[int]] or List[List[int]] '
                           'containing two lists, but got dims=%s' % (dims,))
    dims_a, dims_b = [], []
    if isinstance(dims, (tuple, list)):
        dims_a, dims_b = dims
    if isinstance(dims, torch.Tensor):
        if dims.numel() > 1:
            dims_a, dims_b = dims[0].tolist(), dims[1].tolist()
        else:
            dims = int(dims.item())
    if isinstance(dims, int):
        if dims < 0:
            raise RuntimeError('tensordot expects dims >= 0, but got dims=%d' % dims)
        dims_a, dims_b = list(range(-dims, 0)), list(range(dims))
    if out is None:
        return _C.tensordot(a, b, dims_a, dims_b)
    return _C.tensordot(a, b, dims_a, dims_b, out=out)


_CDIST_MODES = {'use_mm_for_euclid_dist_if_necessary': None, 'use_mm_for_euclid_dist': 1,
                'donot_use_mm_for_euclid_dist': 2}


def cdist(x1, x2, p=2., compute_mode='use_mm_for_euclid_dist_if_necessary'):
    if compute_mode not in _CDIST_MODES:
        raise ValueError('%s is not a valid value for compute_mode' % (compute_mode,))
    return _C.cdist(x1, x2, p, _CDIST_MODES[compute_mode])
