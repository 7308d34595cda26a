"""Ready-made parametrizations (torch.nn.utils.parametrize): orthogonal and spectral_norm."""
from enum import Enum, auto

import torch
import torch.nn.functional as F
from torch.nn.modules.module import Module
from torch.nn.utils import parametrize

__all__ = ['orthogonal', 'spectral_norm']


def _is_orthogonal(Q):
    n, k = Q.size(-2), Q.size(-1)
    eye = torch.eye(k, dtype=Q.dtype, device=Q.device)
    return torch.allclose(Q.mH @ Q, eye, atol=10. * n * torch.finfo(Q.dtype).eps)


def _make_orthogonal(A):
    """The Q of A = QR (A tall) with R's diagonal real and non-negative."""
    X, tau = torch.geqrf(A)
    Q = torch.linalg.householder_product(X, tau)
    return Q * X.diagonal(dim1=-2, dim2=-1).sgn().unsqueeze(-2)


def _householder_product(A, tau):
    """The first n columns of H_1 ... H_k, H_i = I - tau_i v_i v_i^H with v_i = (0, .., 0, 1, A[i+1:, i]):
    torch.linalg.householder_product's value, composed of differentiable ops (that op has no
    derivative here), the reflectors applied from the last to the identity's columns."""
    m, n = A.size(-2), A.size(-1)
    rows = torch.arange(m, device=A.device)
    Q = torch.eye(m, n, dtype=A.dtype, device=A.device).expand(*A.shape[:-2], m, n)
    for i in reversed(range(tau.size(-1))):
        v = A[..., :, i] * (rows > i).to(A.dtype) + (rows == i).to(A.dtype)
        Q = Q - tau[..., i, None, None] * v.unsqueeze(-1) * (v.conj().unsqueeze(-2) @ Q)
    return Q


class _OrthMaps(Enum):
    matrix_exp = auto()
    cayley = auto()
    householder = auto()


class _Orthogonal(Module):
    """Maps a matrix (or batch) to an orthogonal (unitary) one: the exponential or Cayley transform of
    the skew-symmetric part built from its lower triangle, or a product of Householder reflections;
    with use_trivialization, relative to a `base` that assignments reset."""

    def __init__(self, weight, orthogonal_map, *, use_trivialization=True):
        super().__init__()
        if weight.is_complex() and orthogonal_map == _OrthMaps.householder:
            raise ValueError('The householder parametrization does not support complex tensors.')
        self.shape = weight.shape
        self.orthogonal_map = orthogonal_map
        if use_trivialization:
            self.register_buffer('base', None)

    def forward(self, X):
        n, k = X.size(-2), X.size(-1)
        transposed = n < k
        if transposed:
            X = X.mT
            n, k = k, n
        if self.orthogonal_map in (_OrthMaps.matrix_exp, _OrthMaps.cayley):
            X = X.tril()
            if n != k:  # into a square matrix: k(k-1)/2 + (n-k)k parameters are used
                X = torch.cat([X, X.new_zeros(n, n - k).expand(*X.shape[:-2], -1, -1)], dim=-1)
            A = X - X.mH  # skew-symmetric (skew-Hermitian)
            if self.orthogonal_map == _OrthMaps.matrix_exp:
                Q = torch.matrix_exp(A)
            else:  # (I + A/2)(I - A/2)^{-1}
                eye = torch.eye(n, dtype=A.dtype, device=A.device)
                Q = torch.linalg.solve(torch.add(eye, A, alpha=-0.5), torch.add(eye, A, alpha=0.5))
            if n != k:
                Q = Q[..., :k]
        else:
            A = X.tril(diagonal=-1)
            tau = 2. / (1. + (A * A).sum(dim=-2))
            Q = _householder_product(A, tau)
            # the signs of X's diagonal choose the reflections' directions (not differentiated)
            Q = Q * X.diagonal(dim1=-2, dim2=-1).int().unsqueeze(-2)
        if hasattr(self, 'base'):
            Q = self.base @ Q
        if transposed:
            Q = Q.mT
        return Q

    @torch.no_grad()
    def right_inverse(self, Q):
        if Q.shape != self.shape:
            raise ValueError('Expected a matrix or batch of matrices of shape {}. Got a tensor of shape {}.'
                             .format(self.shape, Q.shape))
        Q_init = Q
        n, k = Q.size(-2), Q.size(-1)
        transpose = n < k
        if transpose:
            Q = Q.mT
            n, k = k, n
        if not hasattr(self, 'base'):
            if self.orthogonal_map in (_OrthMaps.cayley, _OrthMaps.matrix_exp):
                raise NotImplementedError('It is not possible to assign to the matrix exponential or the Cayley '
                                          'parametrizations when use_trivialization=False.')
            # Householder: the reflections of Q's QR decomposition, with R's diagonal made positive
            A, tau = torch.geqrf(Q)
            A.diagonal(dim1=-2, dim2=-1).sign_()
            A.diagonal(dim1=-2, dim2=-1)[tau == 0.] *= -1  # LAPACK's "no reflection"
            return A.mT if transpose else A
        if n == k:
            Q = _make_orthogonal(Q) if not _is_orthogonal(Q) else Q.clone()
        else:  # completed into an n x n orthogonal matrix
            N = torch.randn(*(Q.size()[:-2] + (n, n - k)), dtype=Q.dtype, device=Q.device)
            Q = _make_orthogonal(torch.cat([Q, N], dim=-1))
        self.base = Q
        # -I: the parametrization of it (zeros below the diagonal, -1 on it) gives the identity
        neg_eye = torch.zeros_like(Q_init)
        neg_eye.diagonal(dim1=-2, dim2=-1).fill_(-1.)
        return neg_eye


def orthogonal(module, name='weight', orthogonal_map=None, *, use_trivialization=True):
    """Keeps module's `name` orthogonal (unitary): "matrix_exp", "cayley" or "householder" (the default
    for real non-square matrices)."""
    weight = getattr(module, name, None)
    if not isinstance(weight, torch.Tensor):
        raise ValueError("Module '{}' has no parameter or buffer with name '{}'".format(module, name))
    if weight.ndim < 2:
        raise ValueError('Expected a matrix or batch of matrices. Got a tensor of {} dimensions.'.format(weight.ndim))
    if orthogonal_map is None:
        orthogonal_map = 'matrix_exp' if weight.size(-2) == weight.size(-1) or weight.is_complex() else 'householder'
    orth_enum = getattr(_OrthMaps, orthogonal_map, None)
    if orth_enum is None:
        raise ValueError('orthogonal_map has to be one of "matrix_exp", "cayley", "householder". Got: {}'
                         .format(orthogonal_map))
    parametrize.register_parametrization(module, name,
                                         _Orthogonal(weight, orth_enum, use_trivialization=use_trivialization),
                                         unsafe=True)
    return module


class _SpectralNorm(Module):
    """weight / sigma, sigma its largest singular value by power iteration on the buffers _u, _v
    (advanced in training mode); a vector is just normalised."""

    def __init__(self, weight, n_power_iterations=1, dim=0, eps=1e-12):
        super().__init__()
        ndim = weight.ndim
        if dim >= ndim or dim < -ndim:
            raise IndexError('Dimension out of range (expected to be in range of [-{}, {}] but got {})'
                             .format(ndim, ndim - 1, dim))
        if n_power_iterations <= 0:
            raise ValueError('Expected n_power_iterations to be positive, but got n_power_iterations={}'
                             .format(n_power_iterations))
        self.dim = dim if dim >= 0 else dim + ndim
        self.eps = eps
        if ndim > 1:
            self.n_power_iterations = n_power_iterations
            weight_mat = self._reshape_weight_to_matrix(weight)
            h, w = weight_mat.size()
            u = weight_mat.new_empty(h).normal_(0, 1)
            v = weight_mat.new_empty(w).normal_(0, 1)
            self.register_buffer('_u', F.normalize(u, dim=0, eps=self.eps))
            self.register_buffer('_v', F.normalize(v, dim=0, eps=self.eps))
            self._power_method(weight_mat, 15)  # a good start

    def _reshape_weight_to_matrix(self, weight):
        if self.dim != 0:
            weight = weight.permute(self.dim, *(d for d in range(weight.dim()) if d != self.dim))
        return weight.flatten(1)

    @torch.no_grad()
    def _power_method(self, weight_mat, n_power_iterations):
        for _ in range(n_power_iterations):
            self._u = F.normalize(torch.mv(weight_mat, self._v), dim=0, eps=self.eps, out=self._u)
            self._v = F.normalize(torch.mv(weight_mat.mH, self._u), dim=0, eps=self.eps, out=self._v)

    def forward(self, weight):
        if weight.ndim == 1:
            return F.normalize(weight, dim=0, eps=self.eps)
        weight_mat = self._reshape_weight_to_matrix(weight)
        if self.training:
            self._power_method(weight_mat, self.n_power_iterations)
        u = self._u.clone(memory_format=torch.contiguous_format)
        v = self._v.clone(memory_format=torch.contiguous_format)
        sigma = torch.vdot(u, torch.mv(weight_mat, v))
        return weight / sigma

    def right_inverse(self, value):
        return value


def spectral_norm(module, name='weight', n_power_iterations=1, eps=1e-12, dim=None):
    """Divides module's `name` by its spectral norm, as a parametrization."""
    weight = getattr(module, name, None)
    if not isinstance(weight, torch.Tensor):
        raise ValueError("Module '{}' has no parameter or buffer with name '{}'".format(module, name))
    if dim is None:
        transposed = (torch.nn.ConvTranspose1d, torch.nn.ConvTranspose2d, torch.nn.ConvTranspose3d)
        dim = 1 if isinstance(module, transposed) else 0
    parametrize.register_parametrization(module, name, _SpectralNorm(weight, n_power_iterations, dim, eps))
    return module
