"""DIFFERENTIAL TEST OF THE LINEAR ALGEBRA FAMILY AGAINST THE REFERENCE PYTORCH (1.13.1).

Products (dot, vdot, mv, mm, bmm, matmul with batch broadcasting, addmm/addmv/addbmm/baddbmm/addr,
outer, einsum, tensordot, kron, cross, cdist, multi_dot) and torch.linalg (inv, det, slogdet, solve,
cholesky, qr, svd, svdvals, eigh, eigvalsh, lstsq, pinv, matrix_power, the norms, matrix_rank), in
float32 and float64, batched and non-contiguous, with the errors each raises; the LU family (inv, det,
slogdet, logdet, solve, matrix_power with negative exponents) and the Cholesky family (cholesky,
cholesky_ex, cholesky_solve, cholesky_inverse) in complex64 and complex128 too, with their gradients
(torch.autograd.grad of a real function of the result).

Results the LAPACK in use is free to choose are compared through what they determine: the signs of
Q's columns and of singular and eigen vectors differ between LAPACK implementations (the reference
runs MKL's or OpenBLAS's, this project Debian's), so those appear as |R|, Q @ R, U diag(S) Vh and
V diag(L) V^T. Values are compared within a tolerance that different but correct LAPACKs meet. The
reference's results are recorded in tests/data/reference/linalg.json by tools/record_reference.
Nothing at module level may import this project's torch.
"""

import pytest

from differential import Suite

DTYPES = ['float32', 'float64']

SPD = 'torch.tensor([[4., 1, 2], [1, 5, 3], [2, 3, 6]], dtype=torch.{d})'
GEN = 'torch.tensor([[2., -1, 0.5], [1, 3, -2], [0.5, 1, 4]], dtype=torch.{d})'
NEG = 'torch.tensor([[0., 1, 0], [1, 0, 0], [0, 0, 2]], dtype=torch.{d})'          # det -2
RECT = '(torch.arange(12., dtype=torch.{d}).view(4, 3) / 7 + torch.eye(4, 3, dtype=torch.{d}))'
SING = 'torch.tensor([[1., 2, 3], [2, 4, 6], [1, 0, 1]], dtype=torch.{d})'
VEC = 'torch.tensor([1., -2, 0.5], dtype=torch.{d})'
RHS = 'torch.tensor([[1., 2], [0, -1], [3, 0.5]], dtype=torch.{d})'


# complex matrices: GEN and NEG with imaginary parts ({d} is the real dtype of the parts)
CGEN = 'torch.complex(%s, torch.tensor([[0.5, 1, -1], [0, -0.5, 2], [1, 0.25, 0]], dtype=torch.{d}))' % GEN
CNEG = 'torch.complex(%s, torch.tensor([[0., 0, 1], [0, 1, 0], [-1, 0, 0.5]], dtype=torch.{d}))' % NEG
CSING = 'torch.complex(%s, %s * 0.5)' % (SING, SING)
CRHS = 'torch.complex(%s, torch.tensor([[0.5, 0], [1, 1], [-2, 0.25]], dtype=torch.{d}))' % RHS
CSPD = 'torch.complex(%s, torch.tensor([[0., 1, -0.5], [-1, 0, 0.5], [0.5, -0.5, 0]], dtype=torch.{d}))' % SPD
COMPLEX = {'complex64': 'float32', 'complex128': 'float64'}


def _batch(d):
    return 'torch.stack([%s, %s, %s])' % (SPD.format(d=d), GEN.format(d=d), NEG.format(d=d))


def _products(d):
    g, s, v, r, b = GEN.format(d=d), SPD.format(d=d), VEC.format(d=d), RECT.format(d=d), _batch(d)
    return [
        'torch.dot(%s, %s)' % (v, v), 'torch.vdot(%s, %s[::2].repeat(2)[:3])' % (v, v), 'torch.mv(%s, %s)' % (g, v),
        'torch.mm(%s, %s)' % (r, g), 'torch.mm(%s.t(), %s)' % (g, s), 'torch.bmm(%s, %s)' % (b, b),
        'torch.matmul(%s, %s)' % (b, g), 'torch.matmul(%s, %s)' % (v, b), 'torch.matmul(%s, %s)' % (b, v),
        'torch.matmul(%s[:, None], %s[None])' % (b, b), '%s @ %s' % (r, v), '%s @ %s' % (v, v),
        'torch.addmm(%s, %s, %s, beta=0.5, alpha=2)' % (s, g, s), 'torch.addmm(%s[0], %s, %s)' % (s, r, g),
        'torch.addmv(%s, %s, %s, beta=2, alpha=-1)' % (v, g, v), 'torch.addbmm(%s, %s, %s)' % (s, b, b),
        'torch.baddbmm(%s, %s, %s, alpha=0.5)' % (b, b, b), 'torch.addr(%s, %s, %s)' % (g, v, v),
        'torch.outer(%s, %s[:2])' % (v, v), "torch.einsum('ij,jk->ik', %s, %s)" % (r, g),
        "torch.einsum('bij,bjk->bik', %s, %s)" % (b, b), "torch.einsum('ii->i', %s)" % g,
        "torch.einsum('i,j->ij', %s, %s)" % (v, v), "torch.einsum('bii', %s)" % b,
        'torch.tensordot(%s, %s, dims=1)' % (g, s), 'torch.tensordot(%s, %s, dims=([0, 1], [1, 0]))' % (g, s),
        'torch.kron(%s, %s[:2, :2])' % (g, s), 'torch.cross(%s, %s, dim=1)' % (g, s),
        'torch.linalg.cross(%s, %s)' % (g, s), 'torch.cdist(%s, %s)' % (r, r), 'torch.cdist(%s, %s, p=1)' % (r, g),
        "torch.cdist(%s, %s, p=float('inf'))" % (r, g), 'torch.linalg.multi_dot([%s, %s, %s])' % (r, g, s),
        'torch.trace(%s)' % g, 'torch.chain_matmul(%s, %s)' % (g, s),
    ]


def _factorizations(d):
    g, s, n, r, b = GEN.format(d=d), SPD.format(d=d), NEG.format(d=d), RECT.format(d=d), _batch(d)
    rhs, v = RHS.format(d=d), VEC.format(d=d)
    return [
        'torch.linalg.inv(%s)' % g, 'torch.linalg.inv(%s) + 0' % b, 'torch.inverse(%s.t())' % g,  # + 0: no -0.0
        'torch.linalg.det(%s)' % g, 'torch.linalg.det(%s)' % b, 'torch.det(%s)' % n,
        'torch.linalg.slogdet(%s)' % g, 'torch.linalg.slogdet(%s)' % n, 'torch.linalg.slogdet(%s)' % b,
        'torch.logdet(%s)' % s, 'torch.logdet(%s)' % n,
        'torch.linalg.solve(%s, %s)' % (g, rhs), 'torch.linalg.solve(%s, %s)' % (g, v),
        'torch.linalg.solve(%s, %s)' % (b, rhs), 'torch.linalg.solve(%s.t(), %s)' % (g, rhs),
        'torch.linalg.cholesky(%s)' % s, 'torch.linalg.cholesky(%s, upper=True)' % s,
        'torch.linalg.cholesky(torch.stack([%s, %s * 2]))' % (s, s), 'torch.linalg.cholesky_ex(%s).L' % s,
        'torch.cholesky_solve(%s, torch.linalg.cholesky(%s))' % (rhs, s), 'torch.cholesky_inverse(torch.linalg.cholesky(%s))' % s,
        '(lambda r: r.R.abs())(torch.linalg.qr(%s))' % g, '(lambda r: r.Q @ r.R)(torch.linalg.qr(%s))' % r,
        "(lambda r: r.R.abs())(torch.linalg.qr(%s, mode='r'))" % r,
        "(lambda r: (r.Q.shape, r.R.shape))(torch.linalg.qr(%s, mode='complete'))" % r,
        '(lambda r: r.Q.mT @ r.Q)(torch.linalg.qr(%s))' % b,
        'torch.linalg.svd(%s).S' % g, 'torch.linalg.svdvals(%s)' % r, 'torch.linalg.svdvals(%s)' % b,
        '(lambda r: r.U @ torch.diag(r.S) @ r.Vh)(torch.linalg.svd(%s, full_matrices=False))' % r,
        '(lambda r: (r.U.shape, r.S.shape, r.Vh.shape))(torch.linalg.svd(%s))' % r,
        '(lambda r: (r[0].shape, r[1].shape, r[2].shape))(torch.svd(%s))' % r,
        'torch.linalg.eigh(%s).eigenvalues' % s, 'torch.linalg.eigvalsh(%s)' % s,
        "torch.linalg.eigvalsh(%s, UPLO='U')" % g, 'torch.linalg.eigvalsh(%s)' % b,
        '(lambda r: r.eigenvectors @ torch.diag(r.eigenvalues) @ r.eigenvectors.mT)(torch.linalg.eigh(%s))' % s,
        'torch.linalg.lstsq(%s, torch.arange(8., dtype=torch.%s).view(4, 2)).solution' % (r, d),
        'torch.linalg.lstsq(%s, %s).solution' % (g, rhs),
        'torch.linalg.pinv(%s)' % r, 'torch.linalg.pinv(%s, hermitian=True)' % s, 'torch.linalg.pinv(%s)' % b,
        'torch.linalg.matrix_power(%s, 3)' % g, 'torch.linalg.matrix_power(%s, 0)' % g,
        'torch.linalg.matrix_power(%s, -2)' % g, 'torch.linalg.matrix_power(%s, 2)' % b,
        'torch.linalg.matrix_rank(%s)' % r, 'torch.linalg.matrix_rank(%s)' % d.join(['torch.ones(3, 3, dtype=torch.', ')']),
        'torch.linalg.matrix_rank(%s)' % SING.format(d=d), 'torch.linalg.matrix_rank(%s, hermitian=True)' % s,
        'torch.linalg.matrix_rank(%s, atol=1.0, rtol=0.0)' % g, 'torch.linalg.matrix_rank(%s)' % b,
    ]


def _grads(rhs, *cases):
    """torch.autograd.grad of a real function of the results (PyTorch's conjugate Wirtinger convention
    decides the complex gradient), for each case (function of A and B, what to differentiate, A); B is rhs."""
    return ["(lambda A, B: torch.autograd.grad(%s, %s))(%s.requires_grad_(), %s.requires_grad_())" % (f, wrt, a, rhs)
            for f, wrt, a in cases]


def _complex_lu(c):
    d = COMPLEX[c]
    g, n, rhs, sing = CGEN.format(d=d), CNEG.format(d=d), CRHS.format(d=d), CSING.format(d=d)
    b = 'torch.stack([%s, %s, %s * 1j])' % (g, n, g)
    return [
        'torch.linalg.inv(%s)' % g, 'torch.linalg.inv(%s) + 0' % b, 'torch.inverse(%s.mT)' % g,
        'torch.linalg.inv(%s.mH)' % g, 'torch.linalg.inv_ex(%s)' % sing,
        'torch.linalg.det(%s)' % g, 'torch.linalg.det(%s)' % b, 'torch.det(%s)' % n, 'torch.linalg.det(%s)' % sing,
        'torch.linalg.slogdet(%s)' % g, 'torch.linalg.slogdet(%s)' % n, 'torch.linalg.slogdet(%s)' % b,
        'torch.linalg.slogdet(%s)' % sing, 'torch.logdet(%s)' % g, 'torch.logdet(%s)' % b,
        'torch.linalg.solve(%s, %s)' % (g, rhs), 'torch.linalg.solve(%s, %s[:, 0])' % (g, rhs),
        'torch.linalg.solve(%s, %s)' % (b, rhs), 'torch.linalg.solve(%s.mT, %s)' % (g, rhs),
        'torch.linalg.solve(%s, %s.mT, left=False)' % (b, rhs), 'torch.linalg.solve_ex(%s, %s)' % (sing, rhs),
        'torch.linalg.matrix_power(%s, -2)' % g, 'torch.linalg.matrix_power(%s, -1)' % b,
    ] + _grads(
        rhs,
        ('torch.linalg.inv(A).abs().sum()', 'A', g),
        ('torch.linalg.inv(A[None] * B[:1, :1]).real.sum()', '(A, B)', b),
        ('torch.linalg.det(A).abs().sum()', 'A', b),
        ('(lambda s, l: (l + 2 * s.real + s.imag).sum())(*torch.linalg.slogdet(A))', 'A', b),
        ('torch.logdet(A).abs()', 'A', g),
        ('torch.linalg.solve(A, B).abs().sum()', '(A, B)', g),
        ('torch.linalg.solve(A, B[:, 0]).imag.sum()', '(A, B)', b),
        ('torch.linalg.solve(A, B.mT, left=False).abs().sum()', '(A, B)', g),
    )


def _complex_cholesky(c):
    d = COMPLEX[c]
    s, rhs = CSPD.format(d=d), CRHS.format(d=d)
    L, U = 'torch.linalg.cholesky(%s)' % s, 'torch.linalg.cholesky(%s, upper=True)' % s
    return [
        L, U, 'torch.linalg.cholesky(torch.stack([%s, %s * 2]))' % (s, s), 'torch.linalg.cholesky_ex(%s.mT)' % s,
        'torch.linalg.cholesky_ex(-%s).info' % s,  # L after a failure is the LAPACK's own
        'torch.cholesky_solve(%s, %s)' % (rhs, L), 'torch.cholesky_solve(%s, %s, upper=True)' % (rhs, U),
        # + 0: the sign of a zero imaginary part on the diagonal is the LAPACK's own
        'torch.cholesky_inverse(%s) + 0' % L, 'torch.cholesky_inverse(%s, upper=True) + 0' % U,
    ] + _grads(
        rhs,
        ('torch.linalg.cholesky(A).abs().sum()', 'A', s),
        ('torch.linalg.cholesky(A, upper=True).imag.sum()', 'A', s),
        ('torch.cholesky_solve(B, A).abs().sum()', '(A, B)', L),
        ('torch.cholesky_solve(B, A, upper=True).real.sum()', '(A, B)', U),
        ('torch.cholesky_inverse(A).abs().sum()', 'A', L),
        ('torch.cholesky_inverse(A, upper=True).real.sum()', 'A', U),
    )


def _norms(d):
    g, v, b = GEN.format(d=d), VEC.format(d=d), _batch(d)
    out = ['torch.linalg.norm(%s)' % g, 'torch.linalg.norm(%s)' % v, 'torch.linalg.norm(%s, dim=(1, 2))' % b,
           "torch.linalg.norm(%s, 'nuc')" % g, 'torch.linalg.norm(%s, 3)' % v, 'torch.linalg.norm(%s, 1, dim=1)' % g,
           'torch.norm(%s, p=1, dim=0)' % g, 'torch.norm(%s)' % b, 'torch.linalg.vector_norm(%s, 0)' % g,
           "torch.linalg.vector_norm(%s, float('inf'), dim=1)" % g, "torch.linalg.vector_norm(%s, -float('inf'))" % g,
           'torch.linalg.vector_norm(%s, 0.5, dim=(0, 2), keepdim=True)' % b]
    for o in ("'fro'", "'nuc'", '2', '-2', '1', '-1', "float('inf')", "-float('inf')"):
        out += ['torch.linalg.matrix_norm(%s, ord=%s)' % (g, o), 'torch.linalg.matrix_norm(%s, ord=%s)' % (b, o)]
    return out


def _errors():
    return [
        'torch.linalg.inv(%s)' % SING.format(d='float64'), 'torch.linalg.inv(torch.ones(2, 3))',
        'torch.linalg.inv(torch.ones(2, 2, dtype=torch.int64))', 'torch.linalg.det(torch.ones(2, 3))',
        'torch.linalg.cholesky(%s)' % GEN.format(d='float64').replace('[2., -1, 0.5]', '[-2., -1, 0.5]'),
        'torch.linalg.solve(%s, torch.ones(4))' % GEN.format(d='float64'),
        'torch.linalg.solve(%s, %s)' % (SING.format(d='float64'), RHS.format(d='float64')),
        'torch.linalg.matrix_power(torch.ones(2, 3), 2)', 'torch.linalg.matrix_power(%s, -1)' % SING.format(d='float64'),
        'torch.linalg.eigh(torch.ones(2, 3))', 'torch.linalg.svd(torch.ones(3))', 'torch.mm(torch.ones(2, 3), torch.ones(2, 3))',
        'torch.bmm(torch.ones(2, 2, 3), torch.ones(3, 3, 2))', 'torch.dot(torch.ones(3), torch.ones(4))',
        'torch.dot(torch.ones(3), torch.ones(3, dtype=torch.float64))', 'torch.matmul(torch.ones(2, 3), torch.ones(2))',
        'torch.cross(torch.ones(2, 4), torch.ones(2, 4), dim=1)', "torch.linalg.norm(torch.ones(2, 2), 'nuc', dim=0)",
        'torch.linalg.matrix_norm(torch.ones(3), ord=2)', 'torch.linalg.lstsq(torch.ones(3, 2), torch.ones(4, 1))',
        'torch.linalg.qr(torch.ones(2, 2), mode="bad")', 'torch.kron(torch.ones(2), torch.ones(2, dtype=torch.int64))',
        'torch.linalg.inv(torch.ones(0, 0))', 'torch.linalg.det(torch.ones(2, 0, 0))', 'torch.linalg.svdvals(torch.ones(0, 3))',
        'torch.linalg.cholesky(torch.ones(0, 0))', 'torch.linalg.eigvalsh(torch.ones(2, 0, 0))',
        # empty matrices: a full SVD's U or Vh is the identity
        'torch.linalg.svd(torch.ones(0, 3))', 'torch.linalg.svd(torch.ones(3, 0))', 'torch.linalg.svd(torch.ones(2, 0, 2))',
        'torch.linalg.svd(torch.ones(3, 0), full_matrices=False)', 'torch.svd(torch.ones(0, 3))',
        'torch.linalg.qr(torch.ones(0, 3))', "torch.linalg.qr(torch.ones(3, 0), mode='complete')",
        'torch.linalg.eigh(torch.ones(0, 0))', 'torch.linalg.solve(torch.ones(0, 0), torch.ones(0, 2))',
        'torch.linalg.lstsq(torch.ones(3, 0), torch.ones(3, 2)).solution', 'torch.linalg.pinv(torch.ones(3, 0))',
        'torch.linalg.matrix_power(torch.ones(0, 0), -1)', 'torch.linalg.matrix_rank(torch.ones(0, 3))',
        'torch.linalg.slogdet(torch.ones(0, 0))', 'torch.cholesky_inverse(torch.ones(0, 0))',
        'torch.linalg.matrix_exp(torch.ones(0, 0))', 'torch.linalg.lu_factor(torch.ones(0, 0))',
        # complex: a singular matrix is a LinAlgError as for real ones
        'torch.linalg.inv(%s)' % CSING.format(d='float32'), 'torch.inverse(%s)' % CSING.format(d='float64'),
        'torch.linalg.solve(%s, %s)' % (CSING.format(d='float64'), CRHS.format(d='float64')),
        'torch.linalg.solve(%s, %s)' % (CGEN.format(d='float64'), RHS.format(d='float64')),
        'torch.linalg.matrix_power(%s, -1)' % CSING.format(d='float32'),
        'torch.linalg.inv(torch.ones(2, 2, dtype=torch.complex32))', 'torch.linalg.det(torch.ones(0, 0, dtype=torch.complex64))',
        'torch.linalg.slogdet(torch.ones(2, 0, 0, dtype=torch.complex128))',
        'torch.linalg.cholesky(-%s)' % CSPD.format(d='float32'), 'torch.cholesky(-%s)' % CSPD.format(d='float64'),
    ]


CASES = []
for _d in DTYPES:
    CASES += _products(_d) + _factorizations(_d) + _norms(_d)
for _c in COMPLEX:
    CASES += _complex_lu(_c) + _complex_cholesky(_c)
CASES += _errors()

SUITE = Suite('linalg', CASES, tolerance={'torch.float32': (2e-5, 1e-5), 'torch.float64': (1e-11, 1e-12),
                                          'torch.complex64': (2e-5, 1e-5), 'torch.complex128': (1e-11, 1e-12)})
RECORDED, RUNNER, reference_request = SUITE.recorded, SUITE.runner, SUITE.reference_request
reports = SUITE.fixture()


@pytest.mark.parametrize('expr', SUITE.expressions)
def test_matches_reference(reports, expr):
    SUITE.check(reports, expr)
