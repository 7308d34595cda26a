import math

import torch
from torch.distributions import constraints
from torch.distributions.distribution import Distribution, _Located
from torch.distributions.utils import _standard_normal, lazy_property

__all__ = ['MultivariateNormal']


def _batch_mv(bmat, bvec):
    """Batched matrix-vector product, broadcasting the batch dimensions."""
    return torch.matmul(bmat, bvec.unsqueeze(-1)).squeeze(-1)


def _batch_mahalanobis(bL, bx):
    """The squared Mahalanobis distance x^T (L L^T)^-1 x = |L^-1 x|^2, broadcasting L's batch
    dimensions against x's."""
    batch_shape = torch.broadcast_shapes(bL.shape[:-2], bx.shape[:-1])
    n = bx.size(-1)
    L = bL.expand(batch_shape + (n, n))
    x = bx.expand(batch_shape + (n,)).unsqueeze(-1)
    M = torch.linalg.solve_triangular(L, x, upper=False).squeeze(-1).pow(2).sum(-1)
    return M.expand(bx.shape[:-1]) if M.shape != bx.shape[:-1] else M


def _precision_to_scale_tril(P):
    """The lower Cholesky factor of P^-1, from the Cholesky factor of P with its order reversed."""
    Lf = torch.linalg.cholesky(torch.flip(P, (-2, -1)))
    L_inv = torch.transpose(torch.flip(Lf, (-2, -1)), -2, -1)
    Id = torch.eye(P.shape[-1], dtype=P.dtype, device=P.device)
    return torch.linalg.solve_triangular(L_inv, Id, upper=False)


class _CholeskyMatrices:
    """scale_tril and covariance_matrix from the lower Cholesky factor _unbroadcasted_scale_tril,
    broadcast to the full shape of a matrix of the distribution (_full)."""

    @lazy_property
    def scale_tril(self):
        return self._full(self._unbroadcasted_scale_tril)

    @lazy_property
    def covariance_matrix(self):
        L = self._unbroadcasted_scale_tril
        return self._full(torch.matmul(L, L.mT))


def _one_matrix(covariance_matrix, precision_matrix, scale_tril):
    if (covariance_matrix is not None) + (scale_tril is not None) + (precision_matrix is not None) != 1:
        raise ValueError('Exactly one of covariance_matrix or precision_matrix or scale_tril may be specified.')


class MultivariateNormal(_CholeskyMatrices, _Located, Distribution):
    """The multivariate normal with mean vector loc and a covariance given by exactly one of
    covariance_matrix, precision_matrix (its inverse) or scale_tril (its lower Cholesky factor)."""
    arg_constraints = {'loc': constraints.real_vector,
                       'covariance_matrix': constraints.positive_definite,
                       'precision_matrix': constraints.positive_definite,
                       'scale_tril': constraints.lower_cholesky}
    support = constraints.real_vector
    has_rsample = True

    def __init__(self, loc, covariance_matrix=None, precision_matrix=None, scale_tril=None, validate_args=None):
        if loc.dim() < 1:
            raise ValueError('loc must be at least one-dimensional.')
        _one_matrix(covariance_matrix, precision_matrix, scale_tril)
        for name, matrix in (('scale_tril', scale_tril), ('covariance_matrix', covariance_matrix),
                             ('precision_matrix', precision_matrix)):
            if matrix is not None:
                if matrix.dim() < 2:
                    raise ValueError('%s matrix must be at least two-dimensional, '
                                     'with optional leading batch dimensions' % name
                                     if name == 'scale_tril' else
                                     '%s must be at least two-dimensional, '
                                     'with optional leading batch dimensions' % name)
                batch_shape = torch.broadcast_shapes(matrix.shape[:-2], loc.shape[:-1])
                setattr(self, name, matrix.expand(batch_shape + (-1, -1)))
        self.loc = loc.expand(batch_shape + (-1,))
        super().__init__(batch_shape, self.loc.shape[-1:], validate_args=validate_args)
        if scale_tril is not None:
            self._unbroadcasted_scale_tril = scale_tril
        elif covariance_matrix is not None:
            self._unbroadcasted_scale_tril = torch.linalg.cholesky(covariance_matrix)
        else:
            self._unbroadcasted_scale_tril = _precision_to_scale_tril(precision_matrix)

    def expand(self, batch_shape, _instance=None):
        new = self._expand_params(MultivariateNormal, batch_shape, _instance,
                                  ('loc', 'covariance_matrix', 'scale_tril', 'precision_matrix'))
        new._unbroadcasted_scale_tril = self._unbroadcasted_scale_tril
        return new

    def _full(self, matrix):
        return matrix.expand(self._batch_shape + self._event_shape + self._event_shape)

    @lazy_property
    def precision_matrix(self):
        return self._full(torch.cholesky_inverse(self._unbroadcasted_scale_tril))

    @property
    def variance(self):
        return self._unbroadcasted_scale_tril.pow(2).sum(-1).expand(self._batch_shape + self._event_shape)

    def rsample(self, sample_shape=torch.Size()):
        shape = self._extended_shape(sample_shape)
        eps = _standard_normal(shape, dtype=self.loc.dtype, device=self.loc.device)
        return self.loc + _batch_mv(self._unbroadcasted_scale_tril, eps)

    def _half_log_det(self):
        return self._unbroadcasted_scale_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        M = _batch_mahalanobis(self._unbroadcasted_scale_tril, value - self.loc)
        return -0.5 * (self._event_shape[0] * math.log(2 * math.pi) + M) - self._half_log_det()

    def entropy(self):
        H = 0.5 * self._event_shape[0] * (1.0 + math.log(2 * math.pi)) + self._half_log_det()
        return H if len(self._batch_shape) == 0 else H.expand(self._batch_shape)
