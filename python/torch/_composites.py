"""PyTorch functions composed here, in Python, of this project's ops: shape helpers (atleast_*d,
block_diag, cartesian_prod, combinations, hsplit/vsplit/dsplit, ravel), differences and integrals
(diff, gradient, trapezoid, cumulative_trapezoid), statistics (cov, corrcoef), elementwise compositions
(logaddexp, logaddexp2, sinc), products and distances (inner, dist, vander), membership (isin), the
spectral windows (hann, hamming, blackman, bartlett) and small predicates. Each follows PyTorch
1.13's formula, so that results round as its do; the autograd graph is that of the parts."""
import itertools
import math
import numbers

import torch

__all__ = ['atleast_1d', 'atleast_2d', 'atleast_3d', 'block_diag', 'cartesian_prod', 'combinations', 'hsplit',
           'vsplit', 'dsplit', 'ravel', 'diff', 'trapezoid', 'trapz', 'cumulative_trapezoid', 'cov', 'corrcoef',
           'logaddexp', 'logaddexp2', 'sinc', 'inner', 'dist', 'vander', 'isin', 'hann_window', 'hamming_window',
           'blackman_window', 'bartlett_window', 'kaiser_window', 'is_nonzero', 'is_same_size', 'is_signed',
           'scalar_tensor', 'ldexp', 'frexp', 'gradient']


# ---- shapes ----

def _tensors(tensors):
    return tensors[0] if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)) else tensors


def atleast_1d(*tensors):
    one = lambda t: t.reshape(1) if t.dim() == 0 else t
    return _single_or_tuple(one, tensors)


def atleast_2d(*tensors):
    two = lambda t: t.reshape(1, 1) if t.dim() == 0 else t.unsqueeze(0) if t.dim() == 1 else t
    return _single_or_tuple(two, tensors)


def atleast_3d(*tensors):
    def three(t):
        if t.dim() == 0:
            return t.reshape(1, 1, 1)
        if t.dim() == 1:
            return t.unsqueeze(0).unsqueeze(-1)
        return t.unsqueeze(-1) if t.dim() == 2 else t
    return _single_or_tuple(three, tensors)


def _single_or_tuple(fn, tensors):
    """PyTorch's atleast_*d: one tensor gives a tensor, several (or a list of them) a tuple."""
    if len(tensors) == 1 and isinstance(tensors[0], torch.Tensor):
        return fn(tensors[0])
    return tuple(fn(t) for t in _tensors(tensors))


def block_diag(*tensors):
    """The tensors (0-, 1- or 2-dim) along the diagonal of a zero matrix of their promoted dtype."""
    mats = []
    for i, t in enumerate(tensors):
        if t.dim() > 2:
            raise RuntimeError('torch.block_diag: Input tensors must have 2 or fewer dimensions. Input %d has %d '
                               'dimensions' % (i, t.dim()))
        mats.append(t.reshape(1, 1) if t.dim() == 0 else t.reshape(1, -1) if t.dim() == 1 else t)
    if not mats:  # PyTorch's empty block: one row, no columns
        return torch.empty(1, 0)
    dtype = mats[0].dtype
    for m in mats[1:]:
        dtype = torch.promote_types(dtype, m.dtype)
    out = torch.zeros(sum(m.shape[0] for m in mats), sum(m.shape[1] for m in mats), dtype=dtype,
                      device=mats[0].device)
    r = c = 0
    for m in mats:
        out[r:r + m.shape[0], c:c + m.shape[1]] = m
        r, c = r + m.shape[0], c + m.shape[1]
    return out


def cartesian_prod(*tensors):
    """Every tuple of one element of each 1-dim tensor, in order, as the rows of a matrix."""
    for t in tensors:
        if t.dim() != 1:
            raise RuntimeError('Expect a 1D vector, but got shape %s' % (list(t.shape),))
    if len(tensors) == 1:
        return tensors[0]
    grids = torch.meshgrid(*tensors, indexing='ij')
    return torch.stack([g.reshape(-1) for g in grids], dim=1)


def combinations(input, r=2, with_replacement=False):
    """The r-length combinations of a 1-dim tensor's elements, as itertools makes them, as rows."""
    if input.dim() != 1:
        raise RuntimeError('Expect a 1D vector, but got shape %s' % (list(input.shape),))
    if r < 0:
        raise RuntimeError('Expect a non-negative number, but got %d' % r)
    if r == 0:
        return input.new_empty(0)
    make = itertools.combinations_with_replacement if with_replacement else itertools.combinations
    rows = list(make(range(input.shape[0]), r))
    if not rows:
        return input.new_empty(0, r)
    return input[torch.tensor(rows, dtype=torch.int64, device=input.device)]


def _split(name, input, sections, dim, min_dims):
    if input.dim() < min_dims:
        raise RuntimeError('torch.%s requires a tensor with at least %d dimension, but got a tensor with %d '
                           'dimensions!' % (name, min_dims, input.dim()))
    if isinstance(sections, numbers.Integral) and not isinstance(sections, bool):
        size = input.shape[dim]
        if sections == 0 or size % sections != 0:
            raise RuntimeError('torch.%s attempted to split along dimension %d, but the size of the dimension %d is '
                               'not divisible by the split_size %d!' % (name, dim, size, sections))
    return torch.tensor_split(input, sections, dim)


def hsplit(input, indices_or_sections):
    return _split('hsplit', input, indices_or_sections, 1 if input.dim() > 1 else 0, 1)


def vsplit(input, indices_or_sections):
    return _split('vsplit', input, indices_or_sections, 0, 2)


def dsplit(input, indices_or_sections):
    return _split('dsplit', input, indices_or_sections, 2, 3)


def ravel(input):
    return input.reshape(-1)


# ---- differences and integrals ----

def diff(input, n=1, dim=-1, prepend=None, append=None):
    """The n-th forward difference along dim (exclusive or for bool), with prepend/append added first."""
    if input.dim() == 0:
        raise RuntimeError('diff expects input to be at least one-dimensional')
    parts = [t for t in (prepend, input, append) if t is not None]
    x = torch.cat(parts, dim) if len(parts) > 1 else input
    for _ in range(n):
        size = x.shape[dim]
        if size == 0:
            break
        later, earlier = x.narrow(dim, 1, size - 1), x.narrow(dim, 0, size - 1)
        x = torch.logical_xor(later, earlier) if x.dtype == torch.bool else later - earlier
    return x


def _gradient_along(f, dim, h, coords, edge_order):
    """The derivative of f along dim: central differences inside, one-sided ones (first or second
    order) at the ends, for a uniform step h or at coordinates (a 1-D tensor), as numpy.gradient."""
    n = f.shape[dim]
    part = lambda start, length: f.narrow(dim, start, length)
    if coords is None:
        inner = (part(2, n - 2) - part(0, n - 2)) / (2 * h)
        if edge_order == 1:
            first, last = (part(1, 1) - part(0, 1)) / h, (part(n - 1, 1) - part(n - 2, 1)) / h
        else:
            first = (-1.5 * part(0, 1) + 2 * part(1, 1) - 0.5 * part(2, 1)) / h
            last = (0.5 * part(n - 3, 1) - 2 * part(n - 2, 1) + 1.5 * part(n - 1, 1)) / h
        return torch.cat([first, inner, last], dim)
    shape = [1] * f.dim()
    shape[dim] = -1
    dx = (coords[1:] - coords[:-1]).to(f.dtype)
    along = lambda t: t.reshape(shape)
    d1, d2 = dx[:-1], dx[1:]
    a, b, c = -d2 / (d1 * (d1 + d2)), (d2 - d1) / (d1 * d2), d1 / (d2 * (d1 + d2))
    inner = along(a) * part(0, n - 2) + along(b) * part(1, n - 2) + along(c) * part(2, n - 2)
    if edge_order == 1:
        first = (part(1, 1) - part(0, 1)) / dx[0]
        last = (part(n - 1, 1) - part(n - 2, 1)) / dx[-1]
    else:
        h1, h2 = dx[0], dx[1]
        first = (-(2 * h1 + h2) / (h1 * (h1 + h2)) * part(0, 1) + (h1 + h2) / (h1 * h2) * part(1, 1)
                 - h1 / (h2 * (h1 + h2)) * part(2, 1))
        h1, h2 = dx[-2], dx[-1]
        last = (h2 / (h1 * (h1 + h2)) * part(n - 3, 1) - (h1 + h2) / (h1 * h2) * part(n - 2, 1)
                + (2 * h2 + h1) / (h2 * (h1 + h2)) * part(n - 1, 1))
    return torch.cat([first, inner, last], dim)


def gradient(input, *, spacing=1, dim=None, edge_order=1):
    """The derivatives of input along each of `dim` (every dim by default), estimated with second-order
    central differences inside and first- or second-order one-sided ones at the ends; spacing: one
    step for every dim, a step per dim, or the coordinates (1-D tensors) along each dim."""
    if edge_order not in (1, 2):
        raise RuntimeError('torch.gradient only supports edge_order=1 and edge_order=2.')
    dims = list(range(input.dim())) if dim is None else [dim] if isinstance(dim, int) else list(dim)
    dims = [d % input.dim() if input.dim() else d for d in dims]
    if isinstance(spacing, (int, float, torch.Tensor)) and not (isinstance(spacing, torch.Tensor) and spacing.dim()):
        spacing = [spacing] * len(dims)
    spacing = list(spacing)
    if len(spacing) != len(dims) and dim is None:
        raise RuntimeError('torch.gradient expected spacing to be unspecified, a scalar or a list of length %d but '
                           'got a list of length %d' % (len(dims), len(spacing)))
    if len(spacing) != len(dims):
        raise RuntimeError('torch.gradient expected spacing to be unspecified, a scalar or it\'s spacing and dim '
                           'arguments to have the same length, but got a spacing argument of length %d and a dim '
                           'argument of length %d.' % (len(spacing), len(dims)))
    for d in dims:
        if input.shape[d] < edge_order + 1:
            raise RuntimeError('torch.gradient expected each dimension size to be at least edge_order+1')
    f = input if input.is_floating_point() or input.is_complex() else input.to(torch.get_default_dtype())
    out = []
    for d, step in zip(dims, spacing):
        if isinstance(step, torch.Tensor) and step.dim() == 1:
            if step.shape[0] != input.shape[d]:
                raise RuntimeError('torch.gradient expected each tensor to be on the same device and to have the '
                                   'same size as the input along its dimension')
            out.append(_gradient_along(f, d, None, step, edge_order))
        else:
            out.append(_gradient_along(f, d, step.item() if isinstance(step, torch.Tensor) else step, None,
                                       edge_order))
    return tuple(out)


def trapezoid(y, x=None, *, dx=None, dim=-1):
    """The trapezoidal rule along dim, with sample points x or a constant spacing dx (1 by default)."""
    if x is not None and dx is not None:
        raise RuntimeError('trapezoid: received both x and dx; pass at most one')
    if x is not None and not isinstance(x, torch.Tensor):
        dx, x = x, None
    size = y.shape[dim] if y.dim() else 0
    if size == 0:
        return torch.zeros_like(y.sum(dim))
    if x is None:
        step = 1 if dx is None else dx
        return (y.sum(dim) - (y.select(dim, 0) + y.select(dim, -1)) * 0.5) * step
    spacing = x.diff() if x.dim() == 1 else x.diff(dim=dim)
    if x.dim() == 1:
        shape = [1] * y.dim()
        shape[dim] = spacing.shape[0]
        spacing = spacing.reshape(shape)
    left, right = y.narrow(dim, 0, size - 1), y.narrow(dim, 1, size - 1)
    return (spacing * (left + right)).sum(dim) / 2.


def trapz(y, x=None, *, dx=None, dim=-1):
    return trapezoid(y, x, dx=dx, dim=dim)


def cumulative_trapezoid(y, x=None, *, dx=None, dim=-1):
    """The running trapezoidal rule along dim (one element fewer than y there)."""
    if x is not None and not isinstance(x, torch.Tensor):
        dx, x = x, None
    size = y.shape[dim]
    left, right = y.narrow(dim, 0, max(size - 1, 0)), y.narrow(dim, 1 if size else 0, max(size - 1, 0))
    if x is None:
        return ((1 if dx is None else dx) / 2. * (left + right)).cumsum(dim)
    spacing = x.diff() if x.dim() == 1 else x.diff(dim=dim)
    if x.dim() == 1:
        shape = [1] * y.dim()
        shape[dim] = spacing.shape[0]
        spacing = spacing.reshape(shape)
    return (spacing / 2. * (left + right)).cumsum(dim)


# ---- statistics ----

def cov(input, *, correction=1, fweights=None, aweights=None):
    """The covariance matrix of the rows (variables) over the columns (observations)."""
    if input.dim() > 2:
        raise RuntimeError('cov(): expected input to have two or fewer dimensions but got an input with %d '
                           'dimensions' % input.dim())
    x = input.reshape(1, -1) if input.dim() < 2 else input
    n = x.shape[1]
    w = None
    if fweights is not None:
        w = fweights
    if aweights is not None:
        w = aweights if w is None else w * aweights
    if w is None:
        w_sum = torch.tensor(n, dtype=torch.int64)
        avg = x.sum(1) / w_sum
    else:
        w_sum = w.sum()
        avg = (x * w).sum(1) / w_sum
    if w is not None and correction != 0:
        norm = w_sum - correction * ((w * aweights).sum() / w_sum if aweights is not None else 1)
    else:
        norm = w_sum - correction
    if bool(norm <= 0):
        import warnings
        warnings.warn('cov(): degrees of freedom is <= 0')
        norm = torch.zeros_like(norm)
    xm = x - avg.unsqueeze(1)
    c = torch.mm(xm, (xm if w is None else xm * w).t().conj())
    return (c / norm).squeeze()


def corrcoef(input):
    """Pearson's correlation coefficients of the rows, clipped to [-1, 1] (their real parts)."""
    c = cov(input)
    if c.dim() == 0:
        return c / c
    d = torch.diagonal(c)
    std = torch.sqrt(d.real if d.is_complex() else d)
    c = c / std.unsqueeze(1)
    c = c / std.unsqueeze(0)
    if c.is_complex():
        return torch.complex(c.real.clamp(-1, 1), c.imag.clamp(-1, 1))
    return c.clamp(-1, 1)


# ---- elementwise compositions ----

def logaddexp(input, other):
    """log(exp(input) + exp(other)) without overflow: max + log1p(exp(-|input - other|)); an
    infinity added to itself stays it."""
    m = torch.maximum(input, other)
    both_inf = torch.isinf(input) & (input == other)
    return torch.where(both_inf, input, m + torch.log1p(torch.exp(-torch.abs(input - other))))


def logaddexp2(input, other):
    m = torch.maximum(input, other)
    both_inf = torch.isinf(input) & (input == other)
    return torch.where(both_inf, input, m + torch.log1p(torch.exp2(-torch.abs(input - other))) / math.log(2))


def sinc(input):
    """sin(pi x) / (pi x), 1 at 0 (integers in the default float dtype)."""
    x = input if input.is_floating_point() or input.is_complex() else input.to(torch.get_default_dtype())
    product = math.pi * x
    return torch.where(x == 0, torch.ones_like(x), torch.sin(product) / product)


# ---- products and distances ----

def inner(input, other, *, out=None):
    """The inner product over the last dims (a product when either is 0-dim)."""
    if input.dim() == 0 or other.dim() == 0:
        r = input * other
    else:
        if input.shape[-1] != other.shape[-1]:
            raise RuntimeError('inner() the last dimension must match on both input tensors but got shapes %s and %s'
                               % (list(input.shape), list(other.shape)))
        r = torch.tensordot(input, other, dims=([-1], [-1]))
    return _into(out, r)


def dist(input, other, p=2):
    return torch.norm(input - other, p)


def vander(x, N=None, increasing=False):
    """Columns of powers of a 1-dim tensor (decreasing from x ** (N - 1) unless increasing)."""
    if x.dim() != 1:
        raise RuntimeError('x must be a one-dimensional tensor.')
    n = x.shape[0] if N is None else N
    if n < 0:
        raise RuntimeError('N must be non-negative.')
    dtype = torch.promote_types(x.dtype, torch.int64)
    result = torch.ones(x.shape[0], n, dtype=dtype, device=x.device)
    if n > 1:
        result[:, 1:] = torch.cumprod(x.to(dtype).unsqueeze(1).expand(x.shape[0], n - 1), dim=1)
    return result if increasing else result.flip(1)


def isin(elements, test_elements, *, assume_unique=False, invert=False):
    """Whether each element of `elements` is among `test_elements` (either may be a Python number).
    assume_unique is PyTorch's speed hint, which cannot change the result; the comparison here does
    not need it."""
    if not isinstance(elements, torch.Tensor) and not isinstance(test_elements, torch.Tensor):
        raise TypeError('isin(): expected at least one Tensor argument')
    e = elements if isinstance(elements, torch.Tensor) else torch.tensor(elements)
    t = test_elements if isinstance(test_elements, torch.Tensor) else torch.tensor(test_elements)
    found = (e.unsqueeze(-1) == t.reshape(-1)).any(-1) if t.numel() else torch.zeros_like(e, dtype=torch.bool)
    return ~found if invert else found


# ---- windows ----

def _window(length, dtype, layout, device, pin_memory, requires_grad, periodic, make):
    dtype = torch.get_default_dtype() if dtype is None else dtype
    if layout not in (None, torch.strided):
        raise RuntimeError('window functions support only the strided layout, got %s' % (layout,))
    if not dtype.is_floating_point:
        raise RuntimeError('window function expects floating point dtypes, got: %s' % dtype)
    if length < 0:
        raise RuntimeError('window_length must be non-negative, got %d' % length)
    if length == 0:
        w = torch.empty(0, dtype=dtype, device=device)
    elif length == 1:
        w = torch.ones(1, dtype=dtype, device=device)
    else:
        n = length + 1 if periodic else length
        w = make(n, dtype, device)
        if periodic:
            w = w[:-1].clone()
    if pin_memory:
        w = w.pin_memory()
    return w.requires_grad_(requires_grad)


_UNSET = object()


def hamming_window(window_length, periodic=_UNSET, alpha=_UNSET, beta=_UNSET, *, dtype=None, layout=torch.strided,
                   device=None, pin_memory=False, requires_grad=False):
    if periodic is _UNSET and (alpha is not _UNSET or beta is not _UNSET):  # PyTorch's overloads name them after it
        raise TypeError('hamming_window() received an invalid combination of arguments: alpha and beta follow periodic')
    periodic = True if periodic is _UNSET else periodic
    alpha = 0.54 if alpha is _UNSET else alpha
    beta = 0.46 if beta is _UNSET else beta

    def make(n, dtype, device):
        w = torch.arange(n, dtype=dtype, device=device)
        return w.mul_(math.pi * 2. / (n - 1)).cos_().mul_(-beta).add_(alpha)
    return _window(window_length, dtype, layout, device, pin_memory, requires_grad, periodic, make)


def hann_window(window_length, periodic=True, *, dtype=None, layout=torch.strided, device=None, pin_memory=False,
                requires_grad=False):
    return hamming_window(window_length, periodic, 0.5, 0.5, dtype=dtype, layout=layout, device=device,
                          pin_memory=pin_memory, requires_grad=requires_grad)


def blackman_window(window_length, periodic=True, *, dtype=None, layout=torch.strided, device=None,
                    pin_memory=False, requires_grad=False):
    def make(n, dtype, device):
        w = torch.arange(n, dtype=dtype, device=device).mul_(math.pi / (n - 1))
        return w.mul(4).cos_().mul_(0.08) - w.mul(2).cos_().mul_(0.5) + 0.42
    return _window(window_length, dtype, layout, device, pin_memory, requires_grad, periodic, make)


def bartlett_window(window_length, periodic=True, *, dtype=None, layout=torch.strided, device=None,
                    pin_memory=False, requires_grad=False):
    def make(n, dtype, device):
        w = torch.arange(n, dtype=dtype, device=device).mul_(2. / (n - 1))
        half = ((n - 1) >> 1) + 1
        w.narrow(0, half, n - half).mul_(-1).add_(2)
        return w
    return _window(window_length, dtype, layout, device, pin_memory, requires_grad, periodic, make)


def kaiser_window(window_length, periodic=True, beta=12.0, *, dtype=None, layout=torch.strided, device=None,
                  pin_memory=False, requires_grad=False):
    """PyTorch's: i0(beta sqrt(1 - ((k - alpha) / alpha)^2)) / i0(beta), alpha = (n - 1) / 2."""
    def make(n, dtype, device):
        alpha = (n - 1) / 2.0
        k = torch.arange(n, dtype=dtype, device=device)
        return torch.i0(beta * torch.sqrt(1 - ((k - alpha) / alpha).pow(2))) / torch.i0(torch.tensor(beta, dtype=dtype))
    return _window(window_length, dtype, layout, device, pin_memory, requires_grad, periodic, make)


# ---- ldexp and the modified Bessel functions ----

def _into(out, result):
    """result, or result written into out (resized to it first, as PyTorch's out= of these ops)."""
    if out is None:
        return result
    if out.shape != result.shape:
        out.resize_(result.shape)
    return out.copy_(result)


def ldexp(input, other, *, out=None):
    """input * 2 ** other, as PyTorch composes it (integer inputs give the default float dtype)."""
    return _into(out, torch.mul(input, torch.pow(2.0, other)))


def _return_type(name, fields):
    """A torch.return_types class: a tuple whose items are also named, printed as PyTorch prints them."""
    def __repr__(self):
        return 'torch.return_types.%s(%s)' % (name, ','.join('\n%s=%r' % (f, v) for f, v in zip(fields, self)))
    members = {'__slots__': (), '_fields': fields, '__repr__': __repr__}
    members.update((f, property(lambda self, i=i: self[i])) for i, f in enumerate(fields))
    cls = type(name, (tuple,), members)
    cls.__module__ = 'torch.return_types'
    return cls


_FrexpResult = _return_type('frexp', ('mantissa', 'exponent'))
_FrexpOutResult = _return_type('frexp_out', ('mantissa', 'exponent'))  # PyTorch names out= results apart


# per floating dtype: the integer dtype of its bits, the mantissa's bit count, the exponent field's
# mask and the bias that puts a mantissa in [0.5, 1)
_FREXP_LAYOUT = {torch.float32: (torch.int32, 23, 0xff, 126), torch.float64: (torch.int64, 52, 0x7ff, 1022),
                 torch.float16: (torch.int16, 10, 0x1f, 14), torch.bfloat16: (torch.int16, 7, 0xff, 126)}


def _frexp_values(x):
    bits_dtype, shift, field, bias = _FREXP_LAYOUT[x.dtype]
    width = torch.iinfo(bits_dtype).bits
    keep = ~(field << shift) & ((1 << width) - 1)  # sign and mantissa bits, as a signed value
    keep = keep - (1 << width) if keep >= 1 << (width - 1) else keep
    subnormal = (((x.view(bits_dtype) >> shift) & field) == 0) & (x != 0)
    normalised = torch.where(subnormal, x * 2.0 ** (shift + 1), x)
    bits = normalised.view(bits_dtype)
    stored = (bits >> shift) & field
    special = (stored == 0) | (stored == field)
    mantissa = torch.where(special, x, ((bits & keep) | (bias << shift)).view(x.dtype))
    exponent = stored.to(torch.int32) - bias - torch.where(subnormal, shift + 1, 0).to(torch.int32)
    return mantissa, torch.where(special, torch.zeros_like(exponent), exponent)


_FREXP_FUNCTION = []  # built on first use: torch.autograd is not imported yet when this module is


def _frexp_function():
    """The autograd Function of frexp: the mantissa's gradient is grad / 2 ** exponent (PyTorch's
    FrexpBackward0); the exponent has none."""
    if not _FREXP_FUNCTION:
        class Frexp(torch.autograd.Function):  # its nodes print as FrexpBackward
            @staticmethod
            def forward(ctx, x):
                mantissa, exponent = _frexp_values(x)
                ctx.save_for_backward(exponent)
                return mantissa, exponent

            @staticmethod
            def backward(ctx, grad_mantissa, grad_exponent):
                exponent, = ctx.saved_tensors
                return grad_mantissa / torch.pow(2.0, exponent.to(grad_mantissa.dtype))
        _FREXP_FUNCTION.append(Frexp)
    return _FREXP_FUNCTION[0]


def frexp(input, *, out=None):
    """(mantissa, exponent) with input = mantissa * 2 ** exponent and |mantissa| in [0.5, 1), read from
    the bits (exact for every value; subnormals are normalised first); zero, inf and NaN give
    (input, 0), as C's frexp."""
    if not input.is_floating_point():
        raise RuntimeError('torch.frexp() only supports floating-point dtypes')
    if out is None and input.requires_grad and torch.is_grad_enabled():
        return _FrexpResult(_frexp_function().apply(input))
    mantissa, exponent = _frexp_values(input.detach())
    if out is not None:
        out[0].resize_(mantissa.shape).copy_(mantissa)
        out[1].resize_(exponent.shape).copy_(exponent)
        return _FrexpOutResult(out)
    return _FrexpResult((mantissa, exponent))


def is_nonzero(input):
    if input.numel() == 0:
        raise RuntimeError('Boolean value of Tensor with no values is ambiguous')
    if input.numel() > 1:
        raise RuntimeError('Boolean value of Tensor with more than one value is ambiguous')
    return bool(input.item() != 0)


def is_same_size(input, other):
    return input.shape == other.shape


def is_signed(input):
    return input.dtype.is_signed


def scalar_tensor(s, *, dtype=None, layout=None, device=None, pin_memory=None, requires_grad=False):
    return torch.full((), s, dtype=torch.get_default_dtype() if dtype is None else dtype, layout=layout,
                      device=device, pin_memory=pin_memory, requires_grad=requires_grad)
