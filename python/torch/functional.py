"""torch.functional: the functions PyTorch writes in Python over its ops, with their Python-level
argument handling: norm (orders given as numbers or 'fro'/'nuc'), unique and unique_consecutive
(which results to return depends on the flags). The numerics are the ops of core/ops.table
(norm, frobenius_norm, _unique2, unique_dim, unique_consecutive)."""
from torch import _C

__all__ = ['norm', 'unique', 'unique_consecutive']


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


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """The unique elements of input (or its unique slices along dim); with return_inverse, where each
    element went, with return_counts, how often each occurs."""
    output, inverse, counts = _unique_impl(input, sorted, return_inverse, return_counts, dim)
    if return_inverse and return_counts:
        return output, inverse, counts
    if return_inverse:
        return output, inverse
    if return_counts:
        return output, counts
    return output


def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    """input with each run of equal neighbours (elements, or slices along dim) kept once."""
    output, inverse, counts = _C.unique_consecutive(input, return_inverse, return_counts, dim)
    if return_inverse and return_counts:
        return output, inverse, counts
    if return_inverse:
        return output, inverse
    if return_counts:
        return output, counts
    return output
