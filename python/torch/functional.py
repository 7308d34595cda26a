"""torch.functional: the functions PyTorch writes in Python over its ops, with their Python-level
argument handling: norm (orders given as numbers or 'fro'/'nuc'), unique and unique_consecutive
(which results to return depends on the flags), tensordot's `dims` (an int, two lists, or a tensor)
cdist's `compute_mode` (a string) and einsum's sublist form (operands each followed by a list of
ints naming its dims, turned into an equation as PyTorch does). The numerics are the ops of core/ops.table."""
from torch import _C

import torch

__all__ = ['norm', 'unique', 'unique_consecutive', 'tensordot', 'cdist', 'einsum', 'adjoint']


def norm(input, p='fro', dim=None, keepdim=False, out=None, dtype=None):
    """The p-norm of input over dim (every dim by default); p is a number, 'fro' or 'nuc'."""
    out_kw = {} if out is None else {'out': out}
    if dim is None and out is None and dtype is None and p is not None:
        if isinstance(p, str):
            if p == 'fro':
                return _C.frobenius_norm(input, (), keepdim=keepdim)
        else:
            return _C.norm(input, p, list(range(input.dim())), keepdim=keepdim)
    dims = [dim] if isinstance(dim, int) else dim
    if isinstance(p, str):
        if p == 'fro':
            if dtype is not None:
                raise ValueError('dtype argument is not supported in frobenius norm')
            if dims is None:
                dims = list(range(input.dim()))
            return _C.frobenius_norm(input, dims, keepdim=keepdim, **out_kw)
        if p == 'nuc':
            if dtype is not None:
                raise ValueError('dtype argument is not supported in nuclear norm')
            nuclear = getattr(_C, 'nuclear_norm', None)
            if nuclear is None:  # the sum of singular values: linear algebra provides it
                raise NotImplementedError("torch.norm(p='nuc') needs the nuclear norm (singular values), which "
                                          "this build's linear algebra does not provide yet")
            if dims is None:
                return nuclear(input, keepdim=keepdim, **out_kw)
            return nuclear(input, dims, keepdim=keepdim, **out_kw)
        raise RuntimeError("only valid string values are 'fro' and 'nuc', found %s" % p)
    if dims is None:
        dims = list(range(input.dim()))
    if dtype is None:
        return _C.norm(input, p, dims, keepdim=keepdim, **out_kw)
    return _C.norm(input, p, dims, keepdim=keepdim, dtype=dtype, **out_kw)


def _unique_impl(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    if dim is not None:
        return _C.unique_dim(input, dim, sorted=sorted, return_inverse=return_inverse,
                             return_counts=return_counts)
    return _C._unique2(input, sorted=sorted, return_inverse=return_inverse, return_counts=return_counts)


def _unique_results(output, inverse, counts, return_inverse, return_counts):
    """The output alone, or a tuple of it and the inverse and the counts asked for."""
    if not (return_inverse or return_counts):
        return output
    return (output,) + ((inverse,) if return_inverse else ()) + ((counts,) if return_counts else ())


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """The unique elements of input (or its unique slices along dim); with return_inverse, where each
    element went, with return_counts, how often each occurs."""
    output, inverse, counts = _unique_impl(input, sorted, return_inverse, return_counts, dim)
    return _unique_results(output, inverse, counts, return_inverse, return_counts)


def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    """input with each run of equal neighbours (elements, or slices along dim) kept once."""
    output, inverse, counts = _C.unique_consecutive(input, return_inverse, return_counts, dim)
    return _unique_results(output, inverse, counts, return_inverse, return_counts)



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


def _sublist_letter(n):
    # PyTorch's order: 0-25 are A-Z, 26-51 a-z; Ellipsis is '...'
    if n is Ellipsis:
        return '...'
    if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n < 52:
        raise ValueError('einsum(): subscript in subscript list is not within the valid range [0, 52)')
    return chr(ord('A') + n) if n < 26 else chr(ord('a') + n - 26)


def _sublist_equation(args):
    operands, terms = list(args[0:-1:2]), []
    for sublist in args[1::2]:
        terms.append(''.join(_sublist_letter(n) for n in sublist))
    equation = ','.join(terms)
    if len(args) % 2 == 1:   # an output sublist closes the list
        equation += '->' + ''.join(_sublist_letter(n) for n in args[-1])
        operands = list(args[0:-1:2])
    return equation, operands


def einsum(*args, **kwargs):
    """torch.einsum(equation, *operands) or (equation, [operands]), and the sublist form
    einsum(op1, sublist1, op2, sublist2, ..., [sublist_out])."""
    if len(args) < 2:
        raise ValueError('einsum(): must specify the equation string and at least one operand, or at least one '
                         'operand and its subscripts list')
    if isinstance(args[0], str):
        return _C.einsum(*args, **kwargs)
    equation, operands = _sublist_equation(args)
    return _C.einsum(equation, operands, **kwargs)


def adjoint(input):
    """The conjugate transpose of the last two dims (a view)."""
    return input.adjoint()
