"""Transforms: invertible (or not) maps between constrained spaces, with the log of the absolute
determinant of their Jacobian; TransformedDistribution pushes a distribution through them.

A transform's domain and codomain are constraints whose event_dim says how many rightmost dimensions
one application couples. cache_size=1 remembers the last (x, y) pair, so that inverting a value the
transform just produced gives back the very tensor it came from.
"""
import math
import numbers
import weakref

import torch
import torch.nn.functional as F
from torch.distributions import constraints
from torch.distributions.utils import (_sum_rightmost, broadcast_all, lazy_property, tril_matrix_to_vec,
                                       vec_to_tril_matrix)
from torch.nn.functional import pad, softplus

__all__ = ['AbsTransform', 'AffineTransform', 'CatTransform', 'ComposeTransform', 'CorrCholeskyTransform',
           'CumulativeDistributionTransform', 'ExpTransform', 'IndependentTransform', 'LowerCholeskyTransform',
           'PowerTransform', 'ReshapeTransform', 'SigmoidTransform', 'SoftplusTransform', 'TanhTransform',
           'SoftmaxTransform', 'StackTransform', 'StickBreakingTransform', 'Transform', 'identity_transform']


class Transform(object):
    """y = t(x), x = t.inv(y), and log|dy/dx| = t.log_abs_det_jacobian(x, y). Subclasses define _call,
    and _inverse and log_abs_det_jacobian where they exist."""
    bijective = False

    def __init__(self, cache_size=0):
        self._cache_size = cache_size
        self._inv = None
        if cache_size == 1:
            self._cached_x_y = None, None
        elif cache_size != 0:
            raise ValueError('cache_size must be 0 or 1')
        super().__init__()

    def __getstate__(self):
        state = self.__dict__.copy()
        state['_inv'] = None
        return state

    @property
    def event_dim(self):
        if self.domain.event_dim == self.codomain.event_dim:
            return self.domain.event_dim
        raise ValueError('Please use either .domain.event_dim or .codomain.event_dim')

    @property
    def inv(self):
        inv = self._inv() if self._inv is not None else None
        if inv is None:
            inv = _InverseTransform(self)
            self._inv = weakref.ref(inv)
        return inv

    @property
    def sign(self):
        raise NotImplementedError

    def with_cache(self, cache_size=1):
        if self._cache_size == cache_size:
            return self
        if type(self).__init__ is Transform.__init__:
            return type(self)(cache_size=cache_size)
        raise NotImplementedError('{}.with_cache is not implemented'.format(type(self)))

    def __eq__(self, other):
        return self is other

    def __ne__(self, other):
        return not self.__eq__(other)

    def __call__(self, x):
        return self._through_cache(x, 0, self._call)

    def _inv_call(self, y):
        return self._through_cache(y, 1, self._inverse)

    def _through_cache(self, value, side, fn):
        """fn(value), or the other half of the cached pair when value is its side (0: x, 1: y)."""
        if self._cache_size == 0:
            return fn(value)
        if value is self._cached_x_y[side]:
            return self._cached_x_y[1 - side]
        result = fn(value)
        self._cached_x_y = (value, result) if side == 0 else (result, value)
        return result

    def _call(self, x):
        raise NotImplementedError

    def _inverse(self, y):
        raise NotImplementedError

    def log_abs_det_jacobian(self, x, y):
        raise NotImplementedError

    def __repr__(self):
        return self.__class__.__name__ + '()'

    def forward_shape(self, shape):
        return shape

    def inverse_shape(self, shape):
        return shape


class _InverseTransform(Transform):
    """t.inv: shares t's cache, swaps its domain and codomain."""

    def __init__(self, transform):
        super().__init__(cache_size=transform._cache_size)
        self._inv = transform

    @constraints.dependent_property(is_discrete=False)
    def domain(self):
        return self._inv.codomain

    @constraints.dependent_property(is_discrete=False)
    def codomain(self):
        return self._inv.domain

    @property
    def bijective(self):
        return self._inv.bijective

    @property
    def sign(self):
        return self._inv.sign

    @property
    def inv(self):
        return self._inv

    def with_cache(self, cache_size=1):
        return self.inv.with_cache(cache_size).inv

    def __eq__(self, other):
        return isinstance(other, _InverseTransform) and self._inv == other._inv

    def __repr__(self):
        return f'{self.__class__.__name__}({repr(self._inv)})'

    def __call__(self, x):
        return self._inv._inv_call(x)

    def log_abs_det_jacobian(self, x, y):
        return -self._inv.log_abs_det_jacobian(y, x)

    def forward_shape(self, shape):
        return self._inv.inverse_shape(shape)

    def inverse_shape(self, shape):
        return self._inv.forward_shape(shape)


def _composed_event_dim(parts, start, enter, leave):
    """The event_dim a chain of parts needs at its far end: walking from `start`, each part takes
    enter(part) dimensions and gives leave(part)."""
    event_dim = start
    for part in parts:
        event_dim += leave(part).event_dim - enter(part).event_dim
        event_dim = max(event_dim, leave(part).event_dim)
    return event_dim


def _widened(constraint, event_dim):
    if event_dim > constraint.event_dim:
        return constraints.independent(constraint, event_dim - constraint.event_dim)
    return constraint


class ComposeTransform(Transform):
    """parts applied left to right; ComposeTransform([]) is the identity."""

    def __init__(self, parts, cache_size=0):
        if cache_size:
            parts = [part.with_cache(cache_size) for part in parts]
        super().__init__(cache_size=cache_size)
        self.parts = parts

    def __eq__(self, other):
        return isinstance(other, ComposeTransform) and self.parts == other.parts

    @constraints.dependent_property(is_discrete=False)
    def domain(self):
        if not self.parts:
            return constraints.real
        domain = self.parts[0].domain
        event_dim = _composed_event_dim(reversed(self.parts), self.parts[-1].codomain.event_dim,
                                        lambda p: p.codomain, lambda p: p.domain)
        assert event_dim >= domain.event_dim
        return _widened(domain, event_dim)

    @constraints.dependent_property(is_discrete=False)
    def codomain(self):
        if not self.parts:
            return constraints.real
        codomain = self.parts[-1].codomain
        event_dim = _composed_event_dim(self.parts, self.parts[0].domain.event_dim,
                                        lambda p: p.domain, lambda p: p.codomain)
        assert event_dim >= codomain.event_dim
        return _widened(codomain, event_dim)

    @lazy_property
    def bijective(self):
        return all(p.bijective for p in self.parts)

    @lazy_property
    def sign(self):
        sign = 1
        for p in self.parts:
            sign = sign * p.sign
        return sign

    @property
    def inv(self):
        inv = self._inv() if self._inv is not None else None
        if inv is None:
            inv = ComposeTransform([p.inv for p in reversed(self.parts)])
            self._inv = weakref.ref(inv)
            inv._inv = weakref.ref(self)
        return inv

    def with_cache(self, cache_size=1):
        if self._cache_size == cache_size:
            return self
        return ComposeTransform(self.parts, cache_size=cache_size)

    def __call__(self, x):
        for part in self.parts:
            x = part(x)
        return x

    def log_abs_det_jacobian(self, x, y):
        if not self.parts:
            return torch.zeros_like(x)
        xs = [x]  # the intermediates: free when the parts cache
        for part in self.parts[:-1]:
            xs.append(part(xs[-1]))
        xs.append(y)
        result = None
        event_dim = self.domain.event_dim
        for part, x, y in zip(self.parts, xs[:-1], xs[1:]):
            term = _sum_rightmost(part.log_abs_det_jacobian(x, y), event_dim - part.domain.event_dim)
            result = term if result is None else result + term
            event_dim += part.codomain.event_dim - part.domain.event_dim
        return result

    def forward_shape(self, shape):
        for part in self.parts:
            shape = part.forward_shape(shape)
        return shape

    def inverse_shape(self, shape):
        for part in reversed(self.parts):
            shape = part.inverse_shape(shape)
        return shape

    def __repr__(self):
        return self.__class__.__name__ + '(\n    ' + ',\n    '.join(repr(p) for p in self.parts) + '\n)'


identity_transform = ComposeTransform([])


class IndependentTransform(Transform):
    """base_transform with reinterpreted_batch_ndims more rightmost dimensions taken as one event:
    its log-Jacobian summed over them."""

    def __init__(self, base_transform, reinterpreted_batch_ndims, cache_size=0):
        super().__init__(cache_size=cache_size)
        self.base_transform = base_transform.with_cache(cache_size)
        self.reinterpreted_batch_ndims = reinterpreted_batch_ndims

    def with_cache(self, cache_size=1):
        if self._cache_size == cache_size:
            return self
        return IndependentTransform(self.base_transform, self.reinterpreted_batch_ndims, cache_size=cache_size)

    @constraints.dependent_property(is_discrete=False)
    def domain(self):
        return constraints.independent(self.base_transform.domain, self.reinterpreted_batch_ndims)

    @constraints.dependent_property(is_discrete=False)
    def codomain(self):
        return constraints.independent(self.base_transform.codomain, self.reinterpreted_batch_ndims)

    @property
    def bijective(self):
        return self.base_transform.bijective

    @property
    def sign(self):
        return self.base_transform.sign

    def _call(self, x):
        if x.dim() < self.domain.event_dim:
            raise ValueError('Too few dimensions on input')
        return self.base_transform(x)

    def _inverse(self, y):
        if y.dim() < self.codomain.event_dim:
            raise ValueError('Too few dimensions on input')
        return self.base_transform.inv(y)

    def log_abs_det_jacobian(self, x, y):
        return _sum_rightmost(self.base_transform.log_abs_det_jacobian(x, y), self.reinterpreted_batch_ndims)

    def __repr__(self):
        return f'{self.__class__.__name__}({repr(self.base_transform)}, {self.reinterpreted_batch_ndims})'

    def forward_shape(self, shape):
        return self.base_transform.forward_shape(shape)

    def inverse_shape(self, shape):
        return self.base_transform.inverse_shape(shape)


class ReshapeTransform(Transform):
    """Reshapes the rightmost in_shape dimensions to out_shape (same number of elements)."""
    bijective = True

    def __init__(self, in_shape, out_shape, cache_size=0):
        self.in_shape = torch.Size(in_shape)
        self.out_shape = torch.Size(out_shape)
        if self.in_shape.numel() != self.out_shape.numel():
            raise ValueError('in_shape, out_shape have different numbers of elements')
        super().__init__(cache_size=cache_size)

    @constraints.dependent_property
    def domain(self):
        return constraints.independent(constraints.real, len(self.in_shape))

    @constraints.dependent_property
    def codomain(self):
        return constraints.independent(constraints.real, len(self.out_shape))

    def with_cache(self, cache_size=1):
        if self._cache_size == cache_size:
            return self
        return ReshapeTransform(self.in_shape, self.out_shape, cache_size=cache_size)

    def _call(self, x):
        batch_shape = x.shape[:x.dim() - len(self.in_shape)]
        return x.reshape(batch_shape + self.out_shape)

    def _inverse(self, y):
        batch_shape = y.shape[:y.dim() - len(self.out_shape)]
        return y.reshape(batch_shape + self.in_shape)

    def log_abs_det_jacobian(self, x, y):
        return x.new_zeros(x.shape[:x.dim() - len(self.in_shape)])

    @staticmethod
    def _reshaped(shape, old, new):
        if len(shape) < len(old):
            raise ValueError('Too few dimensions on input')
        cut = len(shape) - len(old)
        if shape[cut:] != old:
            raise ValueError('Shape mismatch: expected {} but got {}'.format(shape[cut:], old))
        return shape[:cut] + new

    def forward_shape(self, shape):
        return self._reshaped(shape, self.in_shape, self.out_shape)

    def inverse_shape(self, shape):
        return self._reshaped(shape, self.out_shape, self.in_shape)


class _StatelessTransform(Transform):
    """A transform without parameters: any two instances of one class are equal."""

    def __eq__(self, other):
        return isinstance(other, type(self))


class ExpTransform(_StatelessTransform):
    """y = exp(x)."""
    domain = constraints.real
    codomain = constraints.positive
    bijective = True
    sign = +1

    def _call(self, x):
        return x.exp()

    def _inverse(self, y):
        return y.log()

    def log_abs_det_jacobian(self, x, y):
        return x


class PowerTransform(Transform):
    """y = x ** exponent, on positive numbers."""
    domain = constraints.positive
    codomain = constraints.positive
    bijective = True

    def __init__(self, exponent, cache_size=0):
        super().__init__(cache_size=cache_size)
        self.exponent, = broadcast_all(exponent)

    def with_cache(self, cache_size=1):
        if self._cache_size == cache_size:
            return self
        return PowerTransform(self.exponent, cache_size=cache_size)

    sign = +1  # PyTorch 1.13's, whatever the exponent's sign

    def __eq__(self, other):
        return isinstance(other, PowerTransform) and self.exponent.eq(other.exponent).all().item()

    def _call(self, x):
        return x.pow(self.exponent)

    def _inverse(self, y):
        return y.pow(1 / self.exponent)

    def log_abs_det_jacobian(self, x, y):
        return (self.exponent * y / x).abs().log()

    def forward_shape(self, shape):
        return torch.broadcast_shapes(shape, getattr(self.exponent, 'shape', ()))

    def inverse_shape(self, shape):
        return torch.broadcast_shapes(shape, getattr(self.exponent, 'shape', ()))


def _clipped_sigmoid(x):
    finfo = torch.finfo(x.dtype)
    return torch.clamp(torch.sigmoid(x), min=finfo.tiny, max=1. - finfo.eps)


class SigmoidTransform(_StatelessTransform):
    """y = 1 / (1 + exp(-x)), kept inside (0, 1)."""
    domain = constraints.real
    codomain = constraints.unit_interval
    bijective = True
    sign = +1

    def _call(self, x):
        return _clipped_sigmoid(x)

    def _inverse(self, y):
        finfo = torch.finfo(y.dtype)
        y = y.clamp(min=finfo.tiny, max=1. - finfo.eps)
        return y.log() - (-y).log1p()

    def log_abs_det_jacobian(self, x, y):
        return -F.softplus(-x) - F.softplus(x)


class SoftplusTransform(_StatelessTransform):
    """y = log(1 + exp(x))."""
    domain = constraints.real
    codomain = constraints.positive
    bijective = True
    sign = +1

    def _call(self, x):
        return softplus(x)

    def _inverse(self, y):
        return (-y).expm1().neg().log() + y

    def log_abs_det_jacobian(self, x, y):
        return -softplus(-x)


class TanhTransform(_StatelessTransform):
    """y = tanh(x). Its inverse is atanh, unstable near +-1: use cache_size=1 where samples come back."""
    domain = constraints.real
    codomain = constraints.interval(-1.0, 1.0)
    bijective = True
    sign = +1

    def _call(self, x):
        return x.tanh()

    def _inverse(self, y):
        return torch.atanh(y)

    def log_abs_det_jacobian(self, x, y):
        # log(1 - tanh(x)^2) = 2 (log 2 - x - softplus(-2x)), stable for large |x|
        return 2. * (math.log(2.) - x - softplus(-2. * x))


class AbsTransform(_StatelessTransform):
    """y = |x| (not injective: its inverse gives the nonnegative root)."""
    domain = constraints.real
    codomain = constraints.positive

    def _call(self, x):
        return x.abs()

    def _inverse(self, y):
        return y


class AffineTransform(Transform):
    """y = loc + scale * x; with event_dim > 0 the log-Jacobian sums over that many dimensions."""
    bijective = True

    def __init__(self, loc, scale, event_dim=0, cache_size=0):
        super().__init__(cache_size=cache_size)
        self.loc = loc
        self.scale = scale
        self._event_dim = event_dim

    @property
    def event_dim(self):
        return self._event_dim

    @constraints.dependent_property(is_discrete=False)
    def domain(self):
        return constraints.real if self.event_dim == 0 else constraints.independent(constraints.real, self.event_dim)

    @constraints.dependent_property(is_discrete=False)
    def codomain(self):
        return constraints.real if self.event_dim == 0 else constraints.independent(constraints.real, self.event_dim)

    def with_cache(self, cache_size=1):
        if self._cache_size == cache_size:
            return self
        return AffineTransform(self.loc, self.scale, self.event_dim, cache_size=cache_size)

    def __eq__(self, other):
        if not isinstance(other, AffineTransform):
            return False
        for mine, theirs in ((self.loc, other.loc), (self.scale, other.scale)):
            if isinstance(mine, numbers.Number) and isinstance(theirs, numbers.Number):
                if mine != theirs:
                    return False
            elif not (mine == theirs).all().item():
                return False
        return True

    @property
    def sign(self):
        if isinstance(self.scale, numbers.Real):
            return 1 if float(self.scale) > 0 else -1 if float(self.scale) < 0 else 0
        return self.scale.sign()

    def _call(self, x):
        return self.loc + self.scale * x

    def _inverse(self, y):
        return (y - self.loc) / self.scale

    def log_abs_det_jacobian(self, x, y):
        shape = x.shape
        if isinstance(self.scale, numbers.Real):
            result = torch.full_like(x, math.log(abs(self.scale)))
        else:
            result = torch.abs(self.scale).log()
        if self.event_dim:
            result = result.view(result.size()[:-self.event_dim] + (-1,)).sum(-1)
            shape = shape[:-self.event_dim]
        return result.expand(shape)

    def forward_shape(self, shape):
        return torch.broadcast_shapes(shape, getattr(self.loc, 'shape', ()), getattr(self.scale, 'shape', ()))

    def inverse_shape(self, shape):
        return self.forward_shape(shape)


class CorrCholeskyTransform(Transform):
    """A vector of D(D-1)/2 reals to the Cholesky factor of a D x D correlation matrix: tanh to
    (-1, 1), laid below the diagonal, then each row stick-broken to unit length."""
    domain = constraints.real_vector
    codomain = constraints.corr_cholesky
    bijective = True

    def _call(self, x):
        x = torch.tanh(x)
        eps = torch.finfo(x.dtype).eps
        x = x.clamp(min=-1 + eps, max=1 - eps)
        r = vec_to_tril_matrix(x, diag=-1)
        z1m_cumprod_sqrt = (1 - r ** 2).sqrt().cumprod(-1)
        r = r + torch.eye(r.shape[-1], dtype=r.dtype, device=r.device)
        return r * pad(z1m_cumprod_sqrt[..., :-1], [1, 0], value=1)

    def _inverse(self, y):
        y_cumsum = 1 - torch.cumsum(y * y, dim=-1)
        y_cumsum_shifted = pad(y_cumsum[..., :-1], [1, 0], value=1)
        y_vec = tril_matrix_to_vec(y, diag=-1)
        y_cumsum_vec = tril_matrix_to_vec(y_cumsum_shifted, diag=-1)
        t = y_vec / y_cumsum_vec.sqrt()
        return (t.log1p() - t.neg().log1p()) / 2  # atanh

    def log_abs_det_jacobian(self, x, y, intermediates=None):
        y1m_cumsum = 1 - (y * y).cumsum(dim=-1)
        stick_breaking_logdet = 0.5 * tril_matrix_to_vec(y1m_cumsum, diag=-2).log().sum(-1)
        tanh_logdet = -2 * (x + softplus(-2 * x) - math.log(2.)).sum(dim=-1)
        return stick_breaking_logdet + tanh_logdet

    def forward_shape(self, shape):
        if len(shape) < 1:
            raise ValueError('Too few dimensions on input')
        n = shape[-1]
        d = round((0.25 + 2 * n) ** 0.5 + 0.5)
        if d * (d - 1) // 2 != n:
            raise ValueError('Input is not a flattend lower-diagonal number')
        return shape[:-1] + (d, d)

    def inverse_shape(self, shape):
        if len(shape) < 2:
            raise ValueError('Too few dimensions on input')
        if shape[-2] != shape[-1]:
            raise ValueError('Input is not square')
        d = shape[-1]
        return shape[:-2] + (d * (d - 1) // 2,)


class SoftmaxTransform(_StatelessTransform):
    """Softmax over the last dimension (not bijective: its inverse gives log-probabilities)."""
    domain = constraints.real_vector
    codomain = constraints.simplex

    def _call(self, x):
        probs = (x - x.max(-1, True)[0]).exp()
        return probs / probs.sum(-1, True)

    def _inverse(self, y):
        return y.log()

    def forward_shape(self, shape):
        if len(shape) < 1:
            raise ValueError('Too few dimensions on input')
        return shape

    def inverse_shape(self, shape):
        return self.forward_shape(shape)


class StickBreakingTransform(_StatelessTransform):
    """K-1 reals to a point of the K-simplex by stick breaking: each coordinate takes a sigmoid share
    of what is left (shifted so that zeros map to the simplex's centre)."""
    domain = constraints.real_vector
    codomain = constraints.simplex
    bijective = True

    def _call(self, x):
        offset = x.shape[-1] + 1 - x.new_ones(x.shape[-1]).cumsum(-1)
        z = _clipped_sigmoid(x - offset.log())
        z_cumprod = (1 - z).cumprod(-1)
        return pad(z, [0, 1], value=1) * pad(z_cumprod, [1, 0], value=1)

    def _inverse(self, y):
        y_crop = y[..., :-1]
        offset = y.shape[-1] - y.new_ones(y_crop.shape[-1]).cumsum(-1)
        sf = 1 - y_crop.cumsum(-1)
        sf = torch.clamp(sf, min=torch.finfo(y.dtype).tiny)  # when y[-1] ~ 0, rounding can leave sf <= 0
        return y_crop.log() - sf.log() + offset.log()

    def log_abs_det_jacobian(self, x, y):
        offset = x.shape[-1] + 1 - x.new_ones(x.shape[-1]).cumsum(-1)
        x = x - offset.log()
        # 1 - sigmoid(x) = exp(-x) sigmoid(x)
        return (-x + F.logsigmoid(x) + y[..., :-1].log()).sum(-1)

    def forward_shape(self, shape):
        if len(shape) < 1:
            raise ValueError('Too few dimensions on input')
        return shape[:-1] + (shape[-1] + 1,)

    def inverse_shape(self, shape):
        if len(shape) < 1:
            raise ValueError('Too few dimensions on input')
        return shape[:-1] + (shape[-1] - 1,)


class LowerCholeskyTransform(_StatelessTransform):
    """A square matrix to a lower-triangular one with a positive diagonal: its strict lower part,
    plus the exponential of its diagonal (not bijective)."""
    domain = constraints.independent(constraints.real, 2)
    codomain = constraints.lower_cholesky

    def _call(self, x):
        return x.tril(-1) + x.diagonal(dim1=-2, dim2=-1).exp().diag_embed()

    def _inverse(self, y):
        return y.tril(-1) + y.diagonal(dim1=-2, dim2=-1).log().diag_embed()


class _PiecewiseTransform(Transform):
    """What CatTransform and StackTransform share: one transform per piece of dimension `dim`."""

    def __init__(self, tseq, dim, cache_size):
        assert all(isinstance(t, Transform) for t in tseq)
        if cache_size:
            tseq = [t.with_cache(cache_size) for t in tseq]
        super().__init__(cache_size=cache_size)
        self.transforms = list(tseq)
        self.dim = dim

    @property
    def bijective(self):
        return all(t.bijective for t in self.transforms)

    def _check(self, x, size):
        assert -x.dim() <= self.dim < x.dim()
        assert x.size(self.dim) == size

    def _each(self, x, apply):
        return [apply(t, piece) for t, piece in zip(self.transforms, self._pieces(x))]


class CatTransform(_PiecewiseTransform):
    """Transforms applied to consecutive pieces (of the given lengths, default 1) of dimension dim,
    their results concatenated."""

    def __init__(self, tseq, dim=0, lengths=None, cache_size=0):
        super().__init__(tseq, dim, cache_size)
        self.lengths = [1] * len(self.transforms) if lengths is None else list(lengths)
        assert len(self.lengths) == len(self.transforms)

    @lazy_property
    def event_dim(self):
        return max(t.event_dim for t in self.transforms)

    @lazy_property
    def length(self):
        return sum(self.lengths)

    def with_cache(self, cache_size=1):
        if self._cache_size == cache_size:
            return self
        return CatTransform(self.transforms, self.dim, self.lengths, cache_size)

    def _pieces(self, x):
        starts = [0]
        for length in self.lengths:
            starts.append(starts[-1] + length)
        return [x.narrow(self.dim, s, n) for s, n in zip(starts, self.lengths)]

    def _call(self, x):
        self._check(x, self.length)
        return torch.cat(self._each(x, lambda t, p: t(p)), dim=self.dim)

    def _inverse(self, y):
        self._check(y, self.length)
        return torch.cat(self._each(y, lambda t, p: t.inv(p)), dim=self.dim)

    def log_abs_det_jacobian(self, x, y):
        self._check(x, self.length)
        self._check(y, self.length)
        terms = []
        for t, xs, ys in zip(self.transforms, self._pieces(x), self._pieces(y)):
            term = t.log_abs_det_jacobian(xs, ys)
            if t.event_dim < self.event_dim:
                term = _sum_rightmost(term, self.event_dim - t.event_dim)
            terms.append(term)
        # the pieces' terms are concatenated where dim is a batch dimension, summed where it is an event one
        dim = self.dim - x.dim() if self.dim >= 0 else self.dim
        dim = dim + self.event_dim
        return torch.cat(terms, dim=dim) if dim < 0 else sum(terms)

    @constraints.dependent_property
    def domain(self):
        return constraints.cat([t.domain for t in self.transforms], self.dim, self.lengths)

    @constraints.dependent_property
    def codomain(self):
        return constraints.cat([t.codomain for t in self.transforms], self.dim, self.lengths)


class StackTransform(_PiecewiseTransform):
    """Transforms applied to the slices of dimension dim, their results stacked."""

    def __init__(self, tseq, dim=0, cache_size=0):
        super().__init__(tseq, dim, cache_size)

    def with_cache(self, cache_size=1):
        if self._cache_size == cache_size:
            return self
        return StackTransform(self.transforms, self.dim, cache_size)

    def _pieces(self, z):
        return [z.select(self.dim, i) for i in range(z.size(self.dim))]

    def _call(self, x):
        self._check(x, len(self.transforms))
        return torch.stack(self._each(x, lambda t, p: t(p)), dim=self.dim)

    def _inverse(self, y):
        self._check(y, len(self.transforms))
        return torch.stack(self._each(y, lambda t, p: t.inv(p)), dim=self.dim)

    def log_abs_det_jacobian(self, x, y):
        self._check(x, len(self.transforms))
        self._check(y, len(self.transforms))
        terms = [t.log_abs_det_jacobian(xs, ys)
                 for t, xs, ys in zip(self.transforms, self._pieces(x), self._pieces(y))]
        return torch.stack(terms, dim=self.dim)

    @constraints.dependent_property
    def domain(self):
        return constraints.stack([t.domain for t in self.transforms], self.dim)

    @constraints.dependent_property
    def codomain(self):
        return constraints.stack([t.codomain for t in self.transforms], self.dim)


class CumulativeDistributionTransform(Transform):
    """A distribution's cdf, from its support to [0, 1]; its log-Jacobian is the log-density."""
    bijective = True
    codomain = constraints.unit_interval
    sign = +1

    def __init__(self, distribution, cache_size=0):
        super().__init__(cache_size=cache_size)
        self.distribution = distribution

    @property
    def domain(self):
        return self.distribution.support

    def _call(self, x):
        return self.distribution.cdf(x)

    def _inverse(self, y):
        return self.distribution.icdf(y)

    def log_abs_det_jacobian(self, x, y):
        return self.distribution.log_prob(x)

    def with_cache(self, cache_size=1):
        if self._cache_size == cache_size:
            return self
        return CumulativeDistributionTransform(self.distribution, cache_size=cache_size)
