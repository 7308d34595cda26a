"""The masked ops: each replaces the masked-out elements by its reduction's identity (0 for sums,
1 for products, -inf for maxima, ...) and runs the ordinary op, as PyTorch 1.13 defines them: a slice
with no unmasked element gives the identity (sum, prod, amax, amin, logsumexp, norm) or NaN (mean,
var, std, median, and softmax's rows)."""
import builtins
import math

import torch

__all__ = ['sum', 'prod', 'cumsum', 'cumprod', 'amax', 'amin', 'argmax', 'argmin', 'mean', 'median', 'logsumexp',
           'logaddexp', 'norm', 'var', 'std', 'softmax', 'log_softmax', 'softmin', 'normalize']


def _dims(input, dim):
    """The reduced dims as a tuple (all of them for None), checked."""
    if dim is None:
        return tuple(range(input.dim()))
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    nd = builtins.max(input.dim(), 1)
    out = []
    for d in dims:
        if not -nd <= d < nd:
            raise IndexError('Dimension out of range (expected to be in range of [%d, %d], but got %d)'
                             % (-nd, nd - 1, d))
        out.append(d % nd)
    return tuple(out)


def _mask_of(input, mask):
    """The mask as a bool tensor of input's shape (all True for None)."""
    if mask is None:
        return torch.ones(input.shape, dtype=torch.bool, device=input.device)
    if mask.dtype != torch.bool:
        mask = mask.to(torch.bool)
    return mask.expand(input.shape) if mask.shape != input.shape else mask


def _identity(op, dtype, ord=None):
    floating = dtype.is_floating_point or dtype.is_complex
    if op in ('sum', 'cumsum', 'norm'):
        return math.inf if op == 'norm' and ord == -math.inf else 0
    if op in ('prod', 'cumprod'):
        return 1
    if op in ('amax', 'argmax', 'logsumexp', 'softmax', 'log_softmax'):
        return -math.inf if floating else torch.iinfo(dtype).min
    if op in ('amin', 'argmin', 'softmin'):
        return math.inf if floating else torch.iinfo(dtype).max
    raise ValueError(op)


def _filled(op, input, mask, ord=None):
    m = _mask_of(input, mask)
    return torch.where(m, input, torch.full((), _identity(op, input.dtype, ord), dtype=input.dtype,
                                            device=input.device)), m


def sum(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    x, _ = _filled('sum', input, mask)
    return torch.sum(x, _dims(input, dim), bool(keepdim), dtype=dtype)


def prod(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    x, _ = _filled('prod', input, mask)
    out = x.to(dtype) if dtype is not None else x
    for d in sorted(_dims(input, dim), reverse=True):
        out = torch.prod(out, d, bool(keepdim))
    return out


def cumsum(input, dim, *, dtype=None, mask=None):
    x, _ = _filled('cumsum', input, mask)
    return torch.cumsum(x, dim, dtype=dtype)


def cumprod(input, dim, *, dtype=None, mask=None):
    x, _ = _filled('cumprod', input, mask)
    return torch.cumprod(x, dim, dtype=dtype)


def amax(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    x, _ = _filled('amax', input, mask)
    return torch.amax(x, _dims(input, dim), bool(keepdim)).to(dtype if dtype is not None else input.dtype)


def amin(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    x, _ = _filled('amin', input, mask)
    return torch.amin(x, _dims(input, dim), bool(keepdim)).to(dtype if dtype is not None else input.dtype)


def argmax(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    x, _ = _filled('argmax', input, mask)
    return torch.argmax(x, dim, bool(keepdim)).to(dtype if dtype is not None else input.dtype)


def argmin(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    x, _ = _filled('argmin', input, mask)
    return torch.argmin(x, dim, bool(keepdim)).to(dtype if dtype is not None else input.dtype)


def mean(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    dtype = input.dtype if dtype is None else dtype
    total = sum(input, dim, keepdim=keepdim, dtype=dtype, mask=mask)
    count = sum(_mask_of(input, mask).to(dtype), dim, keepdim=keepdim, dtype=dtype)
    return total / count


def median(input, dim=-1, *, keepdim=False, dtype=None, mask=None):
    dtype = input.dtype if dtype is None else dtype
    m = _mask_of(input, mask)
    x = torch.where(m, input.to(dtype), torch.full((), math.nan, dtype=dtype, device=input.device))
    return torch.nanmedian(x, _dims(input, dim)[0], bool(keepdim)).values


def logsumexp(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    x, _ = _filled('logsumexp', input, mask)
    return torch.logsumexp(x, _dims(input, dim), bool(keepdim)).to(dtype if dtype is not None else input.dtype)


def logaddexp(input, other, *, dtype=None, input_mask=None, other_mask=None):
    x, _ = _filled('logsumexp', input, input_mask)
    y, _ = _filled('logsumexp', other, other_mask)
    return torch.logaddexp(x, y).to(dtype if dtype is not None else input.dtype)


def norm(input, ord=2.0, dim=None, *, keepdim=False, dtype=None, mask=None):
    x, _ = _filled('norm', input, mask, ord)
    return torch.linalg.vector_norm(x, ord, _dims(input, dim), bool(keepdim), dtype=dtype)


def _var(input, dim, unbiased, keepdim, dtype, mask):
    dtype = input.dtype if dtype is None else dtype
    m = _mask_of(input, mask)
    count = sum(m.to(dtype), dim, keepdim=True, dtype=dtype)
    centre = sum(input, dim, keepdim=True, dtype=dtype, mask=m) / count
    deviation = torch.where(m, input.to(dtype) - centre, torch.zeros((), dtype=dtype, device=input.device))
    total = sum(deviation * deviation, dim, keepdim=keepdim, dtype=dtype)
    if not keepdim:
        for d in sorted(_dims(input, dim), reverse=True):
            count = count.squeeze(d)
    return total / (count - int(bool(unbiased))).clamp(min=0)


def var(input, dim=None, unbiased=False, *, keepdim=False, dtype=None, mask=None):
    return _var(input, dim, unbiased, keepdim, dtype, mask)


def std(input, dim=None, unbiased=False, *, keepdim=False, dtype=None, mask=None):
    return _var(input, dim, unbiased, keepdim, dtype, mask).sqrt()


def softmax(input, dim, *, dtype=None, mask=None):
    x, _ = _filled('softmax', input, mask)
    return torch.softmax(x, dim, dtype=dtype)


def log_softmax(input, dim, *, dtype=None, mask=None):
    x, _ = _filled('log_softmax', input, mask)
    return torch.log_softmax(x, dim, dtype=dtype)


def softmin(input, dim, *, dtype=None, mask=None):
    x, _ = _filled('softmin', input, mask)
    return torch.nn.functional.softmin(x, dim, dtype=dtype)


def normalize(input, ord, dim, *, eps=1e-12, dtype=None, mask=None):
    dtype = input.dtype if dtype is None else dtype
    x, _ = _filled('norm', input.to(dtype), mask, ord)
    n = torch.linalg.vector_norm(x, ord, dim, True)
    return x / n.clamp(min=eps)
