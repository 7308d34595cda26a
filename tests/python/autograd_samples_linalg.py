"""gradcheck samples of the linear algebra ops (test_autograd_ops.py's SAMPLES takes them in).

Factorisations get well-conditioned inputs: symmetric positive-definite matrices for Cholesky and
eigh, diagonally dominant ones for LU and the solves, random ones (distinct singular values) for svd
and QR, ones with well-separated (real or complex) eigenvalues for eig. A sample's optional third item says what gradcheck checks, as PyTorch's OpInfos do with
their gradcheck wrappers: ops that read one triangle of an argument see that triangle of the input
(or its symmetric part), ops whose results are unique only up to sign are checked through their
absolute values, and ops taking lists of tensors are checked over the tensors themselves."""
import torch


def _lower(a):
    n = a.shape[-1]
    return a * (torch.arange(n)[:, None] >= torch.arange(n)).to(a.dtype)


def _upper(a):
    n = a.shape[-1]
    return a * (torch.arange(n)[:, None] <= torch.arange(n)).to(a.dtype)


def _sym(a):
    return (a + a.transpose(-2, -1)) / 2


def structured(idx, make):
    """Check fn with argument idx replaced by make(argument)."""
    def check(fn, args, kwargs):
        def target(*xs):
            xs = list(xs)
            xs[idx] = make(xs[idx])
            return fn(*xs, **kwargs)
        return target, args
    return check


def outputs(post):
    """Check post(fn(...)): results unique up to sign (columns of U and V, eigenvectors)."""
    def check(fn, args, kwargs):
        return (lambda *xs: post(fn(*xs, **kwargs))), args
    return check


def both(idx, make, post):
    def check(fn, args, kwargs):
        def target(*xs):
            xs = list(xs)
            xs[idx] = make(xs[idx])
            return post(fn(*xs, **kwargs))
        return target, args
    return check


def listed(rest=()):
    """Check fn(*rest, [tensors...]): the tensors of the list argument are the inputs."""
    def check(fn, args, kwargs):
        lst_at = next(i for i, a in enumerate(args) if isinstance(a, list))
        n = len(args[lst_at])

        def target(*xs):
            a = list(args)
            a[lst_at] = list(xs[:n])
            return fn(*a, **kwargs)
        return target, tuple(args[lst_at])
    return check


def _abs_uv(k=None):
    def post(r):
        u, s, v = r
        if k is not None:
            u, v = u[..., :k], v[..., :k, :] if v.shape[-1] >= k else v
        return u.abs(), s, v.abs()
    return post


def samples(T, mixed):
    f64 = torch.float64

    def det(t):
        return t.detach().requires_grad_()

    def spd(n, *batch):
        a = T(*batch, n, n, low=-1, high=1, requires_grad=False)
        return (a @ a.transpose(-2, -1) + n * torch.eye(n, dtype=f64)).requires_grad_()

    def dom(n, *batch):
        a = T(*batch, n, n, low=-1, high=1, requires_grad=False)
        return (a + 3 * torch.eye(n, dtype=f64)).requires_grad_()

    def rnd(*shape):
        return T(*shape, low=-1, high=1)

    def small_cplx(*shape):
        """A complex tensor with parts in [-0.5, 0.5] (matrix_exp's samples)."""
        parts = (T(*shape, low=-0.5, high=0.5, requires_grad=False) for _ in range(2))
        return torch.complex(*parts).requires_grad_()

    def lu_parts(n=3):
        lu, piv = torch.linalg.lu_factor(dom(n).detach())
        return lu.requires_grad_(), piv

    def chol(n=3):
        return det(torch.linalg.cholesky(spd(n).detach()))

    def tri(n=3):
        return det(_upper(rnd(n, n).detach() + 3 * torch.eye(n, dtype=f64)))

    def gen(*batch, pairs=False, cplx=False):
        """A general 3x3 matrix with well-separated eigenvalues: real ones near 0, 2 and 4, or (pairs) a
        complex conjugate pair near 1 +- 2i beside one near 3; cplx adds an imaginary part."""
        base = torch.tensor([[1., -2, 0], [2, 1, 0], [0, 0, 3]] if pairs else [[0., 0, 0], [0, 2, 0], [0, 0, 4]],
                            dtype=f64)
        a = T(*batch, 3, 3, low=-0.3, high=0.3, requires_grad=False) + base
        if cplx:
            a = torch.complex(a, T(*batch, 3, 3, low=-0.3, high=0.3, requires_grad=False))
        return a.requires_grad_()

    def eig_grads():
        """linalg_eig_backward's arguments: gradients of L and V (diag(V^H gV) real, the loss not depending
        on the vectors' phases) and an eigendecomposition."""
        L, V = torch.linalg.eig(gen(pairs=True).detach())
        G = torch.complex(rnd(3, 3).detach(), rnd(3, 3).detach())
        d = (V.conj().transpose(-2, -1) @ G).diagonal(0, -2, -1)
        gV = G - V * (1j * d.imag).unsqueeze(-2)
        gL = torch.complex(rnd(3).detach(), rnd(3).detach())
        return tuple(det(t) for t in (gL, gV, L, V))

    eig_abs = outputs(lambda r: (r[0], r[1].abs()))

    lower, upper, sym = structured(1, _lower), structured(0, _upper), structured(0, _sym)

    def lu_solve():
        lu, piv = lu_parts()
        return [((lu, piv, rnd(3, 2)), {}), ((lu, piv, rnd(2, 3)), {'left': False}),
                ((lu, piv, rnd(3, 2)), {'adjoint': True}), ((lu, piv, rnd(2, 3)), {'left': False, 'adjoint': True})]

    s = {
        # products
        'dot': lambda: [((T(3), T(3)), {})],
        'vdot': lambda: [((T(3), T(3)), {})],
        'mv': lambda: [((T(2, 3), T(3)), {})],
        'addmm': lambda: [((T(2, 4), T(2, 3), T(3, 4)), {}), ((T(4), T(2, 3), T(3, 4)), {'beta': 0.5, 'alpha': 2})],
        'addmv': lambda: [((T(2), T(2, 3), T(3)), {}), ((T(1), T(2, 3), T(3)), {'beta': 0.5, 'alpha': 2})],
        'addr': lambda: [((T(2, 3), T(2), T(3)), {}), ((T(3), T(2), T(3)), {'beta': 0.5, 'alpha': 2})],
        'baddbmm': lambda: [((T(2, 2, 4), T(2, 2, 3), T(2, 3, 4)), {}),
                            ((T(4), T(2, 2, 3), T(2, 3, 4)), {'beta': 0.5, 'alpha': 2})],
        'addbmm': lambda: [((T(2, 4), T(3, 2, 3), T(3, 3, 4)), {}),
                           ((T(4), T(3, 2, 3), T(3, 3, 4)), {'beta': 0.5, 'alpha': 2})],
        # in place: the bias is the result, so it has the result's sizes
        'addmm_': lambda: [((T(2, 4), T(2, 3), T(3, 4)), {'beta': 0.5, 'alpha': 2})],
        'addmv_': lambda: [((T(2), T(2, 3), T(3)), {'beta': 0.5, 'alpha': 2})],
        'addr_': lambda: [((T(2, 3), T(2), T(3)), {'beta': 0.5, 'alpha': 2})],
        'baddbmm_': lambda: [((T(2, 2, 4), T(2, 2, 3), T(2, 3, 4)), {'beta': 0.5, 'alpha': 2})],
        'addbmm_': lambda: [((T(2, 4), T(3, 2, 3), T(3, 3, 4)), {'beta': 0.5, 'alpha': 2})],
        'outer': lambda: [((T(2), T(3)), {})],
        'ger': lambda: [((T(2), T(3)), {})],
        '_unsafe_view': lambda: [((T(2, 3), [3, 2]), {})],
        'einsum': lambda: [(('ij,jk->ik', [T(2, 3), T(3, 4)]), {}, listed()),
                           (('bii,bi->b', [T(2, 3, 3), T(2, 3)]), {}, listed()),
                           (('...i,j', [T(2, 3), T(2)]), {}, listed())],
        'tensordot': lambda: [((T(2, 3, 4), T(3, 4, 2), [1, 2], [0, 1]), {})],
        'kron': lambda: [((T(2, 2), T(2, 3)), {})],
        'linalg_multi_dot': lambda: [(([T(2, 3), T(3, 4), T(4, 2)],), {}, listed()),
                                     (([T(3), T(3, 4), T(4)],), {}, listed())],
        'chain_matmul': lambda: [(([T(2, 3), T(3, 4)],), {}, listed())],
        'linalg_cross': lambda: [((T(2, 3), T(2, 3)), {}), ((T(3, 2), T(3, 1)), {'dim': 0})],
        'cross': lambda: [((T(2, 3), T(2, 3)), {'dim': 1})],
        '_cdist_forward': lambda: [((rnd(3, 2), rnd(4, 2), 2.0, None), {}), ((rnd(3, 2), rnd(4, 2), 1.0, None), {}),
                                   ((rnd(3, 2), rnd(4, 2), 3.0, None), {})],
        'cdist': lambda: [((rnd(3, 2), rnd(2, 4, 2)), {}), ((rnd(3, 2), rnd(4, 2)), {'p': float('inf')})],
        '_cdist_backward': lambda: [((T(3, 4), rnd(3, 2), rnd(4, 2), 2.0, T(3, 4)), {})],
        # LU and what is built on it
        'linalg_lu_factor_ex': lambda: [((dom(3),), {}), ((rnd(2, 4),), {}), ((rnd(4, 2),), {})],
        'linalg_lu_factor': lambda: [((dom(3),), {})],
        'linalg_lu': lambda: [((dom(3),), {}), ((rnd(2, 4),), {}), ((rnd(4, 2),), {})],
        'lu_unpack': lambda: [(lu_parts(), {})],
        'linalg_lu_solve': lu_solve,
        'lu_solve': lambda: [((rnd(3, 2),) + lu_parts(), {})],
        '_linalg_det': lambda: [((dom(3),), {}), ((dom(3, 2),), {})],
        'linalg_det': lambda: [((dom(3),), {})],
        'det': lambda: [((dom(3),), {})],
        '_linalg_slogdet': lambda: [((dom(3),), {})],
        'linalg_slogdet': lambda: [((dom(3),), {})],
        'slogdet': lambda: [((dom(3),), {})],
        'logdet': lambda: [((spd(3),), {})],
        'linalg_inv_ex': lambda: [((dom(3),), {}), ((dom(3, 2),), {})],
        'linalg_inv': lambda: [((dom(3),), {})],
        'inverse': lambda: [((dom(3),), {})],
        '_linalg_solve_ex': lambda: [((dom(3), rnd(3, 2)), {}), ((dom(3), rnd(3)), {}),
                                     ((dom(3), rnd(2, 3)), {'left': False}), ((dom(3, 2), rnd(3, 1)), {})],
        'linalg_solve_ex': lambda: [((dom(3), rnd(3, 2)), {})],
        'linalg_solve': lambda: [((dom(3), rnd(3, 2)), {}), ((dom(3), rnd(3)), {})],
        # Cholesky
        'linalg_cholesky_ex': lambda: [((spd(3),), {}, sym), ((spd(3),), {'upper': True}, sym)],
        'linalg_cholesky': lambda: [((spd(3),), {}, sym)],
        'cholesky': lambda: [((spd(3),), {}, sym)],
        'cholesky_solve': lambda: [((rnd(3, 2), chol()), {}, lower),
                                   ((rnd(3, 2), det(chol().detach().transpose(-2, -1))), {'upper': True}, structured(1, _upper))],
        'cholesky_inverse': lambda: [((chol(),), {}, structured(0, _lower)),
                                     ((det(chol().detach().transpose(-2, -1)),), {'upper': True}, upper)],
        # QR
        'linalg_qr': lambda: [((rnd(4, 3),), {}), ((rnd(3, 5),), {}), ((rnd(3, 3),), {'mode': 'complete'})],
        'qr': lambda: [((rnd(4, 3),), {})],
        # SVD and eigh: U and V up to the signs of their columns
        '_linalg_svd': lambda: [((rnd(4, 3),), {}, outputs(_abs_uv())), ((rnd(3, 4),), {}, outputs(_abs_uv())),
                                ((rnd(4, 3), True), {}, outputs(_abs_uv(3)))],
        'linalg_svd': lambda: [((rnd(3, 4),), {'full_matrices': False}, outputs(_abs_uv()))],
        'svd': lambda: [((rnd(4, 3),), {}, outputs(_abs_uv()))],
        'linalg_svdvals': lambda: [((rnd(4, 3),), {})],
        '_linalg_eigh': lambda: [((rnd(3, 3),), {}, both(0, _sym, lambda r: (r[0], r[1].abs())))],
        'linalg_eigh': lambda: [((rnd(3, 3),), {'UPLO': 'U'}, both(0, _sym, lambda r: (r[0], r[1].abs())))],
        'linalg_eigvalsh': lambda: [((rnd(3, 3),), {}, sym)],
        # eig: eigenvectors up to their phases, checked through their absolute values
        '_linalg_eig': lambda: [((gen(),), {}, eig_abs), ((gen(pairs=True),), {}, eig_abs),
                                ((gen(cplx=True),), {}, eig_abs)],
        'linalg_eig': lambda: [((gen(2, pairs=True),), {}, eig_abs), ((gen(pairs=True, cplx=True),), {}, eig_abs)],
        'linalg_eigvals': lambda: [((gen(),), {}), ((gen(pairs=True),), {}), ((gen(2, cplx=True),), {})],
        # least squares, triangular solves, exp
        'linalg_lstsq': lambda: [((rnd(4, 3), rnd(4, 2)), {}), ((rnd(4, 3), rnd(4)), {'driver': 'gelsd'})],
        'triangular_solve': lambda: [((rnd(3, 2), tri()), {}, structured(1, _upper)),
                                     ((rnd(3, 2), tri()), {'transpose': True}, structured(1, _upper))],
        'linalg_solve_triangular': lambda: [((tri(), rnd(3, 2)), {'upper': True}, upper),
                                            ((tri(), rnd(2, 3)), {'upper': True, 'left': False}, upper),
                                            ((tri(), rnd(3, 2)), {'upper': True, 'unitriangular': True}, upper)],
        'linalg_matrix_exp': lambda: [((T(3, 3, low=-0.5, high=0.5),), {}), ((small_cplx(3, 3),), {})],
        'matrix_exp': lambda: [((T(2, 3, 3, low=-0.5, high=0.5),), {}), ((small_cplx(2, 3, 3),), {})],
        # norms
        'linalg_vector_norm': lambda: [((rnd(2, 3),), {}), ((rnd(2, 3), 1), {}), ((rnd(2, 3), float('inf'), [1]), {}),
                                       ((rnd(2, 3), 3, [0], True), {}), ((rnd(2, 3), 0.5), {})],
        'linalg_matrix_norm': lambda: [((rnd(3, 3), 2), {}), ((rnd(3, 3), -1), {}),
                                       ((rnd(2, 3, 3), float('inf')), {'keepdim': True})],
        'linalg_matrix_norm.str_ord': lambda: [((rnd(3, 3),), {}), ((rnd(3, 3), 'nuc'), {})],
        'linalg_norm': lambda: [((rnd(3, 3),), {}), ((rnd(3, 3), 1), {}), ((rnd(2, 3), None, [1]), {})],
        'linalg_norm.ord_str': lambda: [((rnd(3, 3), 'nuc'), {})],
        'nuclear_norm': lambda: [((rnd(3, 3),), {})],
        'nuclear_norm.dim': lambda: [((rnd(2, 3, 3), [1, 2]), {})],
        'linalg_vecdot': lambda: [((T(2, 3), T(2, 3)), {})],
        'linalg_cond': lambda: [((dom(3),), {}), ((dom(3), 1), {})],
        'linalg_cond.p_str': lambda: [((dom(3), 'fro'), {}), ((dom(3), 'nuc'), {})],
        'linalg_matrix_rank': lambda: [((T(3, 3), 0.1), {})],
        'linalg_matrix_rank.tol_tensor': lambda: [((T(3, 3), T(1, requires_grad=False)), {})],
        'linalg_matrix_rank.atol_rtol_tensor': lambda: [((T(3, 3),), {})],
        'linalg_matrix_rank.atol_rtol_float': lambda: [((T(3, 3),), {'atol': 0.1})],
        'linalg_pinv': lambda: [((rnd(3, 2), 1e-15), {})],
        'linalg_pinv.atol_rtol_float': lambda: [((rnd(2, 3),), {}), ((spd(3),), {'hermitian': True}, sym)],
        'linalg_pinv.atol_rtol_tensor': lambda: [((rnd(3, 2),), {})],
        'linalg_pinv.rcond_tensor': lambda: [((rnd(3, 2), T(1, requires_grad=False).squeeze() * 1e-10), {})],
        'pinverse': lambda: [((rnd(3, 2),), {})],
        'linalg_matrix_power': lambda: [((T(3, 3), 3), {}), ((T(3, 3), 5), {}), ((dom(3), -2), {}), ((T(3, 3), 0), {})],
        'matrix_power': lambda: [((T(2, 2), 4), {})],
        # the ops the formulas call (their own derivatives are those of their parts)
        'linalg_det_backward': lambda: [((T(), T(), dom(3)) + tuple(torch.linalg.lu_factor(dom(3).detach())), {})],
        'slogdet_backward': lambda: [((T(), T(), dom(3), T()) + tuple(torch.linalg.lu_factor(dom(3).detach())), {})],
        'linalg_solve_backward_A': lambda: [((rnd(3, 2), rnd(3, 2), dom(3)) + tuple(torch.linalg.lu_factor(dom(3).detach()))
                                             + (True,), {})],
        'linalg_solve_backward_B': lambda: [((rnd(3, 2), rnd(3, 2), dom(3)) + tuple(torch.linalg.lu_factor(dom(3).detach()))
                                             + (True,), {})],
        'linalg_lu_backward': lambda: [((rnd(3, 3), rnd(3, 3)) + tuple(det(t) for t in torch.linalg.lu(dom(3).detach()))
                                        + (True,), {})],
        'lu_factor_ex_backward': lambda: [((rnd(3, 3),) + lu_parts() + (True,), {})],
        'lu_unpack_backward': lambda: [((rnd(3, 3), rnd(3, 4), 3, 4), {})],
        'linalg_lu_solve_LU': lambda: [((rnd(3, 2),) + lu_parts() + (rnd(3, 2), True, False), {})],
        'cholesky_backward': lambda: [((rnd(3, 3), False, chol()), {})],
        'cholesky_solve_backward_L': lambda: [((rnd(3, 2), rnd(3, 2), chol(), rnd(3, 2), False), {}, structured(2, _lower))],
        'linalg_qr_backward': lambda: [((rnd(4, 3), rnd(3, 3)) + tuple(det(t) for t in torch.linalg.qr(rnd(4, 3).detach()))
                                        + ('reduced',), {})],
        'svd_backward': lambda: [((rnd(4, 3), rnd(3), rnd(3, 3))
                                  + tuple(det(t) for t in torch.linalg.svd(rnd(4, 3).detach(), full_matrices=False))
                                  + (False,), {})],
        'linalg_eigh_backward': lambda: [((rnd(3), rnd(3, 3)) + tuple(det(t) for t in torch.linalg.eigh(spd(3).detach())),
                                          {})],
        'linalg_eig_backward': lambda: [(eig_grads(), {})],
        'triangular_solve_backward_self': lambda: [((rnd(3, 2), rnd(3, 3), tri(), rnd(3, 2), True, False, False), {})],
        'triangular_solve_backward_A': lambda: [((rnd(3, 2), rnd(3, 3), tri(), rnd(3, 2), True, False, False), {})],
        'solve_triangular_backward_A': lambda: [((rnd(3, 2), tri(), rnd(3, 2), True, True, False), {})],
        'linalg_lstsq_backward_A': lambda: [((rnd(3, 2), rnd(4, 3), rnd(4, 2)), {})],
        'linalg_lstsq_backward_B': lambda: [((rnd(3, 2), rnd(4, 3), rnd(4, 2)), {})],
        'linalg_matrix_exp_differential': lambda: [((T(3, 3, low=-0.5, high=0.5), T(3, 3), True), {}),
                                                   ((small_cplx(3, 3), small_cplx(3, 3), True), {})],
        'linalg_vector_norm_backward': lambda: [((T(2), rnd(2, 3), 2, T(2), [1], False), {})],
    }
    return s


# Declared without derivatives, as in PyTorch 1.13 (geqrf) or not yet written here
# (householder_product, and orgqr over it).
NOT_IMPLEMENTED = {'geqrf', 'linalg_householder_product', 'orgqr'}
