"""DIFFERENTIAL TEST OF THE COMPLEX FACTORISATIONS AGAINST THE REFERENCE PYTORCH (1.13.1).

QR (linalg.qr in its three modes, torch.qr, geqrf, householder_product, orgqr), LU (lu_factor,
lu_factor_ex, linalg.lu, lu_unpack, linalg.lu_solve in its four left/adjoint forms, torch.lu_solve),
the triangular solves (linalg.solve_triangular, triangular_solve, whose transpose is the plain one for
complex matrices too) and least squares (linalg.lstsq with each driver) in complex64 and complex128:
batched, broadcast, non-contiguous, out=, empty, and the errors each raises, with the gradients of
everything PyTorch 1.13 differentiates (torch.autograd.grad of a real function of the results).

Q's columns are determined only up to a sign (LAPACK's complex R has a real diagonal, whose signs
are the LAPACK's own), so QR results appear through what they determine: |R|, Q R, Q^H Q, and
gradients of functions of |Q| and |R|. The reference's results are recorded in
tests/data/reference/linalg_complex_factor.json by tools/record_reference. Nothing at module level may
import this project's torch.
"""

import pytest

from differential import Suite

COMPLEX = {'complex64': 'float32', 'complex128': 'float64'}

# square, tall (4 x 3), right-hand sides and a rank-deficient matrix; {d} is the dtype of the parts
GEN = ('torch.complex(torch.tensor([[2., -1, 0.5], [1, 3, -2], [0.5, 1, 4]], dtype=torch.{d}), '
       'torch.tensor([[0.5, 1, -1], [0, -0.5, 2], [1, 0.25, 0]], dtype=torch.{d}))')
TALL = ('torch.complex(torch.tensor([[1., 2, 0], [-1, 0.5, 3], [2, 1, 1], [0, -2, 0.5]], dtype=torch.{d}), '
        'torch.tensor([[0.5, 0, 1], [1, -1, 0], [0, 0.5, -0.5], [2, 1, 0.25]], dtype=torch.{d}))')
RHS = ('torch.complex(torch.tensor([[1., 2], [0, -1], [3, 0.5]], dtype=torch.{d}), '
       'torch.tensor([[0.5, 0], [1, 1], [-2, 0.25]], dtype=torch.{d}))')
RHS4 = ('torch.complex(torch.tensor([[1., 0], [2, -1], [0.5, 1], [-1, 3]], dtype=torch.{d}), '
        'torch.tensor([[0., 1], [-0.5, 0.5], [1, 0], [0.25, -2]], dtype=torch.{d}))')
ZCOL = 'torch.tensor([[1, 2, 0], [2, 1j, 0], [0, 1, 0]], dtype=torch.complex128)'  # a zero column
SING = ('torch.complex(torch.tensor([[1., 2, 3], [2, 4, 6], [1, 0, 1]], dtype=torch.{d}), '
        'torch.tensor([[1., 2, 3], [2, 4, 6], [0, 1, 0]], dtype=torch.{d}))')  # rank 2: row 1 = 2 row 0


def _grads(cases):
    """torch.autograd.grad of a real function f(A, B) of the results with respect to `wrt`, for each
    (f, wrt, A, B): PyTorch's conjugate Wirtinger convention decides the complex gradient."""
    return ['(lambda A, B: torch.autograd.grad(%s, %s))(%s.requires_grad_(), %s.requires_grad_())' % (f, wrt, a, b)
            for f, wrt, a, b in cases]


def _qr(c):
    d = COMPLEX[c]
    g, t = GEN.format(d=d), TALL.format(d=d)
    w, bt = '%s.mT' % t, 'torch.stack([%s, %s * 1j, %s.conj()])' % (t, t, t)
    return [
        '(lambda r: r.R.abs())(torch.linalg.qr(%s))' % g, '(lambda r: r.Q @ r.R)(torch.linalg.qr(%s))' % t,
        '(lambda r: r.R.abs())(torch.linalg.qr(%s))' % t, '(lambda r: r.Q.mH @ r.Q)(torch.linalg.qr(%s))' % t,
        "(lambda r: (r.Q, r.R.abs()))(torch.linalg.qr(%s, mode='r'))" % t,
        "(lambda r: (r.Q @ r.R, r.Q.mH @ r.Q, r.R.abs()))(torch.linalg.qr(%s, mode='complete'))" % t,
        '(lambda r: (r.Q @ r.R, r.R.abs(), r.Q.dtype))(torch.linalg.qr(%s))' % w,
        "(lambda r: (r.Q @ r.R, r.Q.mH @ r.Q))(torch.linalg.qr(%s, mode='complete'))" % w,
        '(lambda r: (r.Q @ r.R, r.R.abs()))(torch.linalg.qr(%s))' % bt,
        '(lambda r: (r.Q.mH @ r.Q, r.R.abs()))(torch.linalg.qr(%s.mT))' % bt,  # non-contiguous
        '(lambda r: (r.Q @ r.R, r.R.abs()))(torch.qr(%s))' % t,
        '(lambda r: (r.Q @ r.R, r.Q.shape))(torch.qr(%s, some=False))' % t,
        '(lambda o: (torch.linalg.qr(%s, out=o), o[0] @ o[1], o[1].abs())[1:])((torch.empty(0, dtype=torch.%s), '
        'torch.empty(0, dtype=torch.%s)))' % (t, c, c),
        # geqrf: R above the diagonal and the reflectors below; householder_product rebuilds Q
        '(lambda a, tau: (a.triu().abs(), tau.dtype, tau.shape))(*torch.geqrf(%s))' % t,
        '(lambda a, tau: torch.linalg.householder_product(a, tau) @ a[:3].triu())(*torch.geqrf(%s))' % t,
        '(lambda a, tau: torch.linalg.householder_product(a, tau) @ a[..., :3, :].triu())(*torch.geqrf(%s))' % bt,
        # + 0: the sign of a zero part is the LAPACK's own
        'torch.linalg.householder_product(%s, %s[:3, 0] * 0.5) + 0' % (t, t),
        'torch.linalg.householder_product(%s, %s[:2, 1]) + 0' % (t, t),
        'torch.orgqr(%s, %s[0, :2] / 2) + 0' % (t, g),
        'torch.linalg.householder_product(%s.transpose(0, 1), %s.transpose(0, 1)[:, :2, 0] / 3) + 0' % (bt, bt),
        '(lambda o: (torch.linalg.householder_product(%s, %s[:, 2] / 4, out=o), o)[1])(torch.empty(0, dtype=torch.%s))'
        % (t, t, c),
    ] + _grads([
        ('(lambda r: r.Q.abs().sum() + (r.R * torch.arange(1., 4)).abs().sum())(torch.linalg.qr(A))', 'A', t, g),
        ('(lambda r: r.Q.abs().sum() + r.R.abs().sum())(torch.linalg.qr(A))', 'A', g, g),
        ('(lambda r: (r.Q.abs() ** 2 * torch.arange(9.).view(3, 3)).sum() + r.R.abs().sum())(torch.linalg.qr(A))',
         'A', w, g),
        ("(lambda r: r.Q.abs().sum() + (r.R.abs() * torch.arange(12.).view(3, 4)).sum())(torch.linalg.qr(A, mode='complete'))",
         'A', w, g),
        ('(lambda r: (r.Q[..., :1] @ r.R[..., :1, :]).imag.sum() + r.R.abs().sum())(torch.linalg.qr(A * B[0, 0]))',
         '(A, B)', bt, g),
        ('(lambda r: r.Q.abs().sum() + r.R.abs().sum())(torch.qr(A))', 'A', t, g),
    ])


def _lu(c):
    d = COMPLEX[c]
    g, t, rhs = GEN.format(d=d), TALL.format(d=d), RHS.format(d=d)
    b = 'torch.stack([%s, %s * 1j, %s.mT])' % (g, g, g)
    lu = 'torch.linalg.lu_factor(%s)' % g
    blu = 'torch.linalg.lu_factor(%s)' % b
    return [
        lu, blu, 'torch.linalg.lu_factor(%s.mT)' % g, 'torch.linalg.lu_factor(%s)' % t,
        'torch.linalg.lu_factor(%s.mT)' % t, 'torch.linalg.lu_factor_ex(%s)' % g,
        'torch.linalg.lu_factor_ex(%s)' % SING.format(d=d), 'torch.linalg.lu(%s)' % g, 'torch.linalg.lu(%s)' % t,
        'torch.linalg.lu(%s.mT)' % t, 'torch.linalg.lu(%s)' % b, 'torch.lu_unpack(*%s)' % lu, 'torch.lu_unpack(*%s)' % blu,
        'torch.lu_unpack(*torch.linalg.lu_factor(%s), unpack_pivots=False)' % t,
        'torch.lu_unpack(*torch.linalg.lu_factor(%s.mT), unpack_data=False)' % t,
        'torch.linalg.lu_solve(*%s, %s)' % (lu, rhs), 'torch.linalg.lu_solve(*%s, %s, adjoint=True)' % (lu, rhs),
        'torch.linalg.lu_solve(*%s, %s.mT, left=False)' % (lu, rhs),
        'torch.linalg.lu_solve(*%s, %s.mT, left=False, adjoint=True)' % (lu, rhs),
        'torch.linalg.lu_solve(*%s, %s)' % (blu, rhs),  # B broadcast over the batch
        'torch.linalg.lu_solve(*%s, %s.mH, left=False, adjoint=True)' % (blu, rhs),
        'torch.lu_solve(%s, *%s)' % (rhs, lu), 'torch.lu_solve(torch.stack([%s, %s.conj()]), *%s)' % (rhs, rhs, lu),
        '(lambda o: (torch.linalg.lu_factor(%s, out=o), o)[1])((torch.empty(0, dtype=torch.%s), '
        'torch.empty(0, dtype=torch.int32)))' % (g, c),
        '(lambda o: (torch.linalg.lu(%s, out=o), o)[1])(tuple(torch.empty(0, dtype=torch.%s) for _ in range(3)))'
        % (t, c),
        '(lambda o: (torch.linalg.lu_solve(*%s, %s, out=o), o)[1])(torch.empty(0, dtype=torch.%s))' % (lu, rhs, c),
        'torch.linalg.lu_factor(torch.ones(0, 0, dtype=torch.%s))' % c,
        'torch.linalg.lu(torch.ones(2, 0, 3, dtype=torch.%s))' % c,
        'torch.linalg.lu_solve(*%s, torch.ones(3, 0, dtype=torch.%s))' % (lu, c),
    ] + _grads([
        ('torch.linalg.lu_factor(A).LU.abs().sum()', 'A', g, rhs),
        ('torch.linalg.lu_factor_ex(A * B[0, 0]).LU.imag.sum()', '(A, B)', b, rhs),
        ('(lambda p, l, u: l.abs().sum() + (u * u).real.sum())(*torch.linalg.lu(A))', 'A', g, rhs),
        ('(lambda p, l, u: l.imag.sum() + u.abs().sum())(*torch.linalg.lu(A))', 'A', t, rhs),
        ('(lambda p, l, u: l.abs().sum() + u.real.sum())(*torch.linalg.lu(A))', 'A', '%s.mT' % t, rhs),
        ('(lambda p, l, u: l.abs().sum() + u.imag.sum())(*torch.lu_unpack(*torch.linalg.lu_factor(A)))', 'A', g, rhs),
        ('torch.linalg.lu_solve(*torch.linalg.lu_factor(A), B).abs().sum()', '(A, B)', g, rhs),
        ('torch.linalg.lu_solve(*torch.linalg.lu_factor(A), B, adjoint=True).real.sum()', '(A, B)', g, rhs),
        ('torch.linalg.lu_solve(*torch.linalg.lu_factor(A), B.mT, left=False).abs().sum()', '(A, B)', g, rhs),
        ('torch.linalg.lu_solve(*torch.linalg.lu_factor(A), B.mT, left=False, adjoint=True).imag.sum()', '(A, B)', b,
         rhs),
        ('torch.lu_solve(B, *torch.linalg.lu_factor(A)).abs().sum()', '(A, B)', g, rhs),
    ])


def _triangular(c):
    d = COMPLEX[c]
    g, rhs = GEN.format(d=d), RHS.format(d=d)
    u, l = '%s.triu()' % g, '%s.tril()' % g
    bu = 'torch.stack([%s, %s * 1j])' % (u, u)
    return [
        'torch.linalg.solve_triangular(%s, %s, upper=True)' % (u, rhs),
        'torch.linalg.solve_triangular(%s, %s, upper=False)' % (l, rhs),
        'torch.linalg.solve_triangular(%s, %s, upper=True, unitriangular=True)' % (u, rhs),
        'torch.linalg.solve_triangular(%s, %s.mT, upper=False, left=False)' % (l, rhs),
        'torch.linalg.solve_triangular(%s.mH, %s, upper=False)' % (u, rhs),  # non-contiguous A
        'torch.linalg.solve_triangular(%s, %s, upper=True)' % (bu, rhs),  # B broadcast over A's batch
        'torch.linalg.solve_triangular(%s, torch.stack([%s, %s * 2, %s]), upper=False)' % (l, rhs, rhs, rhs),
        'torch.linalg.solve_triangular(%s, %s.mT.conj(), upper=True, left=False, unitriangular=True)' % (bu, rhs),
        '(lambda o: (torch.linalg.solve_triangular(%s, %s, upper=True, out=o), o)[1])(torch.empty(0, dtype=torch.%s))'
        % (u, rhs, c),
        'torch.linalg.solve_triangular(%s, torch.ones(3, 0, dtype=torch.%s), upper=True)' % (u, c),
        'torch.triangular_solve(%s, %s)' % (rhs, u), 'torch.triangular_solve(%s, %s, upper=False)' % (rhs, l),
        'torch.triangular_solve(%s, %s, transpose=True)' % (rhs, u),
        'torch.triangular_solve(%s, %s, upper=False, transpose=True, unitriangular=True)' % (rhs, l),
        'torch.triangular_solve(%s, %s)' % (rhs, bu),
        '(lambda o: (torch.triangular_solve(%s, %s, out=o), o)[1])((torch.empty(0, dtype=torch.%s), '
        'torch.empty(0, dtype=torch.%s)))' % (rhs, u, c, c),
    ] + _grads([
        ('torch.linalg.solve_triangular(A, B, upper=True).abs().sum()', '(A, B)', u, rhs),
        ('torch.linalg.solve_triangular(A, B, upper=False, unitriangular=True).imag.sum()', '(A, B)', l, rhs),
        ('torch.linalg.solve_triangular(A, B.mT, upper=True, left=False).abs().sum()', '(A, B)', u, rhs),
        ('torch.linalg.solve_triangular(A, B, upper=True).real.sum()', '(A, B)', bu, rhs),
        ('torch.triangular_solve(B, A).solution.abs().sum()', '(A, B)', u, rhs),
        ('torch.triangular_solve(B, A, upper=False, transpose=True).solution.imag.sum()', '(A, B)', l, rhs),
        ('(lambda x, m: x.abs().sum() + m.real.sum())(*torch.triangular_solve(B, A, unitriangular=True))', '(A, B)',
         u, rhs),
    ])


def _lstsq(c):
    d = COMPLEX[c]
    g, t, rhs, rhs4, s = GEN.format(d=d), TALL.format(d=d), RHS.format(d=d), RHS4.format(d=d), SING.format(d=d)
    out = []
    for drv in ('gels', 'gelsy', 'gelsd', 'gelss'):
        out += ["torch.linalg.lstsq(%s, %s, driver='%s')" % (g, rhs, drv),
                "torch.linalg.lstsq(%s, %s, driver='%s')" % (t, rhs4, drv),
                "torch.linalg.lstsq(%s.mT, %s, driver='%s').solution" % (t, rhs, drv),  # wide: minimum norm
                "torch.linalg.lstsq(%s, %s[:, 1], driver='%s')" % (t, rhs4, drv),
                "torch.linalg.lstsq(torch.stack([%s, %s * 1j]), %s, driver='%s')" % (t, t, rhs4, drv)]
    for drv in ('gelsy', 'gelsd', 'gelss'):  # rank-deficient: the rank, no residuals
        out += ["torch.linalg.lstsq(%s, %s, driver='%s').rank" % (s, rhs, drv),
                "torch.linalg.lstsq(torch.cat([%s, %s[:1]]), %s, driver='%s')[1:]" % (s, s, rhs4, drv)]
    return out + [
        'torch.linalg.lstsq(%s, %s)' % (t, rhs4), 'torch.linalg.lstsq(%s.mT, %s)' % (t, rhs),
        "torch.linalg.lstsq(%s, %s, rcond=0.5, driver='gelsd')" % (t, rhs4),
        "torch.linalg.lstsq(%s, %s, driver='gelss').singular_values" % (s, rhs),
        "torch.linalg.lstsq(%s, torch.stack([%s, %s.conj()]), driver='gelsd')" % (t, rhs4, rhs4),
        "torch.linalg.lstsq(%s.mT.conj().mT, %s.mT.mT, driver='gelss')" % (t, rhs4),
        "torch.linalg.lstsq(torch.ones(3, 0, dtype=torch.%s), torch.ones(3, 2, dtype=torch.%s), driver='gelsd')" % (c, c),
        "torch.linalg.lstsq(torch.ones(0, 3, dtype=torch.%s), torch.ones(0, 2, dtype=torch.%s)).solution" % (c, c),
        '(lambda o: (torch.linalg.lstsq(%s, %s, driver="gelsd", out=o), o)[1])((torch.empty(0, dtype=torch.%s), '
        'torch.empty(0, dtype=torch.%s), torch.empty(0, dtype=torch.int64), torch.empty(0, dtype=torch.%s)))'
        % (t, rhs4, c, d, d),
    ]


def _lstsq_grads(c):
    """lstsq's gradients go through linalg.pinv (PyTorch's linalg_lstsq_backward), of complex matrices an
    SVD. (A vector B is left out: PyTorch 1.13's backward raises IndexError for it.)"""
    d = COMPLEX[c]
    g, t, rhs, rhs4 = GEN.format(d=d), TALL.format(d=d), RHS.format(d=d), RHS4.format(d=d)
    return _grads([
        ('torch.linalg.lstsq(A, B).solution.abs().sum()', '(A, B)', t, rhs4),
        ("torch.linalg.lstsq(A, B, driver='gelsd').solution.imag.sum()", '(A, B)', g, rhs),
        ('torch.linalg.lstsq(A.mT, B).solution.real.sum()', '(A, B)', t, rhs),  # wide
    ])


def _errors():
    g64, g128 = GEN.format(d='float32'), GEN.format(d='float64')
    rhs64, rhs128 = RHS.format(d='float32'), RHS.format(d='float64')
    h = 'torch.ones(3, 3, dtype=torch.complex32)'
    return [
        # complex32: LAPACK has no routine for it
        'torch.linalg.qr(%s)' % h, 'torch.geqrf(%s)' % h, 'torch.linalg.householder_product(%s, %s[0])' % (h, h),
        'torch.linalg.lu_factor(%s)' % h, 'torch.linalg.lu(%s)' % h,
        'torch.linalg.solve_triangular(%s, %s, upper=True)' % (h, h), 'torch.triangular_solve(%s, %s)' % (h, h),
        'torch.linalg.lstsq(%s, %s)' % (h, h),
        # mixed dtypes
        'torch.linalg.householder_product(%s, %s[0])' % (g128, g64),
        'torch.linalg.lu_solve(*torch.linalg.lu_factor(%s), %s)' % (g128, rhs64),
        'torch.linalg.lu_solve(*torch.linalg.lu_factor(%s), %s.real)' % (g128, rhs128),
        'torch.lu_solve(%s, *torch.linalg.lu_factor(%s))' % (rhs64, g128),
        'torch.triangular_solve(%s.real, %s)' % (rhs128, g128),
        'torch.linalg.lstsq(%s, %s.real)' % (g128, rhs128), 'torch.linalg.lstsq(%s, %s)' % (g64, rhs128),
        # out= of another dtype
        'torch.linalg.qr(%s, out=(torch.empty(0, dtype=torch.complex64), torch.empty(0, dtype=torch.complex64)))' % g128,
        'torch.linalg.lu_factor(%s, out=(torch.empty(0), torch.empty(0, dtype=torch.int32)))' % g64,
        'torch.linalg.lstsq(%s, %s, out=(torch.empty(0), torch.empty(0), torch.empty(0, dtype=torch.int64), '
        'torch.empty(0)))' % (g64, rhs64),
        # shapes and values
        'torch.linalg.qr(%s[0])' % g64, "torch.linalg.qr(%s, mode='full')" % g64,
        'torch.linalg.householder_product(%s.mT[:2], %s[0])' % (g64, g64),
        'torch.linalg.lu_factor(%s)' % SING.format(d='float64'),
        'torch.linalg.lu_factor(torch.stack([%s, %s]))' % (g128, SING.format(d='float64')),
        'torch.linalg.lu_solve(*torch.linalg.lu_factor(%s), %s[:2])' % (g64, rhs64),
        'torch.linalg.solve_triangular(%s, %s[:2], upper=True)' % (g64, rhs64),
        'torch.linalg.solve_triangular(%s[:2], %s, upper=True)' % (g64, rhs64),
        # gels needs full rank: an exact zero in R (a zero column) is a LinAlgError
        "torch.linalg.lstsq(%s, %s, driver='gels')" % (ZCOL, rhs128),
        "torch.linalg.lstsq(torch.stack([%s, %s]), %s, driver='gels')" % (g128, ZCOL, rhs128),
        "torch.linalg.lstsq(%s, %s, driver='bad')" % (g64, rhs64), 'torch.linalg.lstsq(%s, %s[:2])' % (g64, rhs64),
        # what PyTorch 1.13 does not differentiate, or not for this mode
        "(lambda A: torch.autograd.grad(torch.linalg.qr(A, mode='r').R.abs().sum(), A))(%s.requires_grad_())" % g64,
        "(lambda A: torch.autograd.grad(torch.linalg.qr(A, mode='complete').Q.abs().sum(), A))(%s.requires_grad_())"
        % TALL.format(d='float64'),
        '(lambda A: torch.autograd.grad(torch.geqrf(A)[0].abs().sum(), A))(%s.requires_grad_())' % g64,
    ]


CASES, LSTSQ_GRADIENTS = [], set()
for _c in COMPLEX:
    CASES += _qr(_c) + _lu(_c) + _triangular(_c) + _lstsq(_c)
    LSTSQ_GRADIENTS.update(_lstsq_grads(_c))
CASES += _errors() + sorted(LSTSQ_GRADIENTS)

SUITE = Suite('linalg_complex_factor', CASES,
              tolerance={'torch.float32': (5e-5, 2e-5), 'torch.float64': (1e-11, 1e-12),
                         'torch.complex64': (5e-5, 2e-5), 'torch.complex128': (1e-11, 1e-12)})
RECORDED, RUNNER, reference_request = SUITE.recorded, SUITE.runner, SUITE.reference_request
reports = SUITE.fixture()


@pytest.mark.parametrize('expr', SUITE.expressions)
def test_matches_reference(reports, expr):
    SUITE.check(reports, expr)
