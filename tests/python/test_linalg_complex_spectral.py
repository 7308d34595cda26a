"""DIFFERENTIAL TEST OF THE COMPLEX SPECTRAL DECOMPOSITIONS AGAINST THE REFERENCE PYTORCH (1.13.1).

torch.linalg.svd, svdvals, eigh, eigvalsh and the legacy torch.svd in complex64 and complex128, and
what is built on them: pinv (hermitian too), matrix_rank (hermitian, atol/rtol, tol), matrix_norm and
norm with ord 'nuc', 2 and -2, nuclear_norm and cond; batched, non-contiguous and conjugate-view
inputs, empty matrices, out= (the results' own dtypes only: S and the eigenvalues are real), PyTorch's
errors, and gradients (torch.autograd.grad of real functions of the results), including PyTorch's
refusal of a loss that depends on the phases of complex singular or eigen vectors.

LAPACK implementations choose the phases of singular and eigen vectors differently (the reference runs
MKL or OpenBLAS, this project Debian's LAPACK), so vectors are compared through what they determine:
U diag(S) Vh, V diag(L) V^H, projections onto a vector (v v^H), U^H U, and the gradients of losses
that do not depend on the phases. The reference's results are recorded in
tests/data/reference/linalg_complex_spectral.json by tools/record_reference. Nothing at module level
may import this project's torch.
"""

import pytest

from differential import Suite

COMPLEX = {'complex64': 'float32', 'complex128': 'float64'}

# {d} is the real dtype of the parts
GEN = ('torch.complex(torch.tensor([[2., -1, 0.5], [1, 3, -2], [0.5, 1, 4]], dtype=torch.{d}), '
       'torch.tensor([[0.5, 1, -1], [0, -0.5, 2], [1, 0.25, 0]], dtype=torch.{d}))')
RECT = ('torch.complex(torch.arange(12., dtype=torch.{d}).view(4, 3) / 7 + torch.eye(4, 3, dtype=torch.{d}), '
        'torch.tensor([[0.5, -1, 0], [1, 0.25, -0.5], [0, 1, 1], [-0.75, 0.5, 0.25]], dtype=torch.{d}))')
# Hermitian positive definite, and indefinite (eigenvalues of both signs)
HERM = ('torch.complex(torch.tensor([[4., 1, 2], [1, 5, 3], [2, 3, 6]], dtype=torch.{d}), '
        'torch.tensor([[0., 1, -0.5], [-1, 0, 0.5], [0.5, -0.5, 0]], dtype=torch.{d}))')
INDEF = '(%s - 4 * torch.eye(3, dtype=torch.{d}))' % HERM
# rank 2: a complex multiple of a real rank-2 matrix, and a Hermitian X X^H of a 3 x 2 X
SING = '(torch.tensor([[1., 2, 3], [2, 4, 6], [1, 0, 1]], dtype=torch.{d}) * (1 + 0.5j))'
HSING = '(lambda x: x @ x.mH)(%s[:3, :2])' % RECT


def _grad(loss, a):
    """torch.autograd.grad of the real `loss` (an expression in A) with respect to A."""
    return '(lambda A: torch.autograd.grad(%s, A))(%s.requires_grad_())' % (loss, a)


def _svd(g, r, b):
    usv = '(lambda r: r.U @ torch.diag_embed(r.S.to(r.U.dtype)) @ r.Vh)'
    return [
        'torch.linalg.svd(%s).S' % g, 'torch.linalg.svdvals(%s)' % r, 'torch.linalg.svdvals(%s.mT)' % r,
        'torch.linalg.svdvals(%s)' % b, 'torch.linalg.svdvals(%s.conj())' % g, 'torch.linalg.svdvals(%s[::2])' % r,
        usv + '(torch.linalg.svd(%s, full_matrices=False))' % r, usv + '(torch.linalg.svd(%s.mT, full_matrices=False))' % r,
        usv + '(torch.linalg.svd(%s))' % g, usv + '(torch.linalg.svd(%s))' % b, usv + '(torch.linalg.svd(%s.mH))' % g,
        usv + '(torch.linalg.svd(%s.conj()))' % b,
        # the full U and Vh: unitary, of A's dtype, shaped as PyTorch's
        '(lambda r: (r.U.dtype, r.S.dtype, r.Vh.dtype, r.U.shape, r.Vh.shape))(torch.linalg.svd(%s))' % r,
        '(lambda r: (r.U.mH @ r.U - torch.eye(4)).abs().max() < 1e-5)(torch.linalg.svd(%s))' % r,
        '(lambda r: (r.Vh @ r.Vh.mH - torch.eye(4)).abs().max() < 1e-5)(torch.linalg.svd(%s.mT))' % r,
        # projections onto the first singular vectors, which the phases do not change
        '(lambda r: r.U[:, :1] @ r.U[:, :1].mH)(torch.linalg.svd(%s))' % r,
        '(lambda r: r.Vh[:1].mH @ r.Vh[:1])(torch.linalg.svd(%s))' % g,
        # legacy svd: V (a conjugate view), U S V^H
        '(lambda r: (r.V.is_conj(), r.U @ torch.diag(r.S.to(r.U.dtype)) @ r.V.mH))(torch.svd(%s))' % r,
        '(lambda r: (r.U.shape, r.S, r.V.shape))(torch.svd(%s, some=False))' % r,
        'torch.svd(%s, compute_uv=False)' % g, '(lambda r: (r.V.is_conj(), r.V.stride()))(torch.svd(%s, compute_uv=False))' % r,
    ]


def _eigh(h, i, g):
    vlv = '(lambda r: r.eigenvectors @ torch.diag_embed(r.eigenvalues.to(r.eigenvectors.dtype)) @ r.eigenvectors.mH)'
    return [
        'torch.linalg.eigh(%s).eigenvalues' % h, 'torch.linalg.eigvalsh(%s)' % i, "torch.linalg.eigvalsh(%s, UPLO='U')" % i,
        'torch.linalg.eigvalsh(%s)' % g, "torch.linalg.eigvalsh(%s, 'U')" % g,  # one triangle read, as Hermitian
        'torch.linalg.eigvalsh(torch.stack([%s, %s, %s.conj()]))' % (h, i, h), 'torch.linalg.eigvalsh(%s.mT)' % i,
        vlv + '(torch.linalg.eigh(%s))' % h, vlv + "(torch.linalg.eigh(%s, UPLO='U'))" % i,
        vlv + '(torch.linalg.eigh(torch.stack([%s, %s])))' % (h, i), vlv + '(torch.linalg.eigh(%s.conj()))' % i,
        vlv + "(torch.linalg.eigh(%s, 'U'))" % g,
        '(lambda r: (r.eigenvalues.dtype, r.eigenvectors.dtype))(torch.linalg.eigh(%s))' % h,
        '(lambda v: v[:, :1] @ v[:, :1].mH)(torch.linalg.eigh(%s).eigenvectors)' % i,
        '(lambda v: (v.mH @ v - torch.eye(3)).abs().max() < 1e-5)(torch.linalg.eigh(%s).eigenvectors)' % h,
    ]


def _built_on(g, r, h, i, s, hs):
    b = 'torch.stack([%s, %s * 1j])' % (g, g)
    out = [
        'torch.linalg.pinv(%s)' % g, 'torch.linalg.pinv(%s)' % r, 'torch.linalg.pinv(%s.mT)' % r, 'torch.linalg.pinv(%s)' % s,
        'torch.linalg.pinv(%s)' % b, 'torch.linalg.pinv(%s, hermitian=True)' % i, 'torch.linalg.pinv(%s, hermitian=True)' % hs,
        'torch.linalg.pinv(%s, rtol=0.3)' % r, 'torch.linalg.pinv(%s, atol=torch.tensor([0.5, 3.0]))' % b,
        'torch.linalg.pinv(%s, 0.2, hermitian=True)' % i, 'torch.pinverse(%s)' % r,
        'torch.linalg.matrix_rank(%s)' % g, 'torch.linalg.matrix_rank(%s)' % s, 'torch.linalg.matrix_rank(%s)' % r,
        'torch.linalg.matrix_rank(%s, hermitian=True)' % hs, 'torch.linalg.matrix_rank(%s, hermitian=True)' % i,
        'torch.linalg.matrix_rank(%s, atol=1.5)' % r, 'torch.linalg.matrix_rank(%s, rtol=0.2)' % r,
        'torch.linalg.matrix_rank(%s, atol=torch.tensor(0.5), rtol=0.1)' % b, 'torch.linalg.matrix_rank(%s, 1.0)' % i,
        'torch.linalg.matrix_rank(%s, tol=torch.tensor(1.0), hermitian=True)' % i,
        "torch.linalg.matrix_norm(%s, 'nuc')" % g, "torch.linalg.matrix_norm(%s, 'nuc')" % b,
        'torch.linalg.matrix_norm(%s, 2)' % r, 'torch.linalg.matrix_norm(%s, -2)' % r,
        'torch.linalg.matrix_norm(%s, 2, dim=(0, 2), keepdim=True)' % b,
        "torch.linalg.matrix_norm(%s, 'nuc', dtype=torch.complex128)" % g,
        "torch.linalg.norm(%s, 'nuc')" % r, 'torch.linalg.norm(%s, 2)' % g, 'torch.linalg.norm(%s, -2)' % g,
        'torch.nuclear_norm(%s)' % r, 'torch.norm(%s, p="nuc")' % g,
        'torch.linalg.cond(%s)' % g, 'torch.linalg.cond(%s, -2)' % r, 'torch.linalg.cond(%s)' % b,
        "torch.linalg.cond(%s, 'nuc')" % h, "torch.linalg.cond(%s, 'fro')" % g, 'torch.linalg.cond(%s, 1)' % i,
        "torch.linalg.cond(%s, float('inf'))" % g,
    ]
    return out


def _grads(g, r, h, i):
    return [
        _grad('(lambda r: (r.U @ r.Vh).abs().sum() + r.S.sum())(torch.linalg.svd(A, full_matrices=False))', g),
        _grad('(lambda r: (r.U @ torch.diag(r.S.to(A.dtype)) @ r.Vh).imag.sum())(torch.linalg.svd(A, False))', r),
        _grad('(lambda r: (r.U[:, :1] @ r.Vh[:1]).real.sum())(torch.linalg.svd(A, False))', '%s.mT' % r),
        _grad('(lambda r: (r.U[:, :3] @ r.Vh).abs().sum())(torch.linalg.svd(A))', r),
        _grad('(lambda r: (r.U[:, :1] @ r.U[:, :1].mH).abs().sum())(torch.linalg.svd(A, False))', r),
        _grad('(lambda r: (r.Vh[:2].mH @ r.Vh[:2]).real.sum())(torch.linalg.svd(A, False))', '%s.mT' % r),
        _grad('torch.linalg.svd(A).S.pow(2).sum()', r), _grad('torch.linalg.svdvals(A).sum()', '%s.mT' % r),
        _grad('torch.linalg.svdvals(A).prod()', 'torch.stack([%s, %s.conj()])' % (g, g)),
        _grad('(lambda r: (r.U @ r.V.mH).abs().sum())(torch.svd(A))', r),
        _grad('(lambda r: (r.eigenvectors[:, :1] @ r.eigenvectors[:, :1].mH).abs().sum() + r.eigenvalues.sum())'
              '(torch.linalg.eigh(A))', i),
        _grad("(lambda r: (r.eigenvectors[:, 1:] @ r.eigenvectors[:, 1:].mH).real.sum())(torch.linalg.eigh(A, 'U'))", h),
        _grad('(lambda r: r.eigenvectors.abs().sum())(torch.linalg.eigh(A))', i),
        _grad('torch.linalg.eigh(A).eigenvalues[0] * 2', h), _grad('torch.linalg.eigvalsh(A).pow(2).sum()', i),
        _grad("torch.linalg.eigvalsh(A, UPLO='U').pow(3).sum()", 'torch.stack([%s, %s])' % (h, i)),
        _grad('torch.linalg.pinv(A).abs().sum()', r), _grad('torch.linalg.pinv(A, hermitian=True).real.sum()', i),
        _grad("torch.linalg.matrix_norm(A, 'nuc')", g), _grad('torch.linalg.norm(A, 2)', r),
        _grad('torch.linalg.norm(A, -2)', g), _grad('torch.linalg.cond(A)', g),
        # losses that depend on the vectors' phases: PyTorch refuses them
        _grad('torch.linalg.svd(A).U[1, 0].real', g), _grad('torch.linalg.svd(A, False).Vh[0, 1].imag', r),
        _grad('torch.linalg.eigh(A).eigenvectors[1, 0].real', h),
    ]


def _out(c, g, h):
    d = COMPLEX[c]
    e = 'torch.empty(0, dtype=torch.%s)'
    u, s = e % c, e % d
    return [
        '(lambda o: (torch.linalg.svd(%s, out=o).S, [t.dtype for t in o]))((%s, %s, %s))' % (g, u, s, u),
        '(lambda o: (torch.linalg.svdvals(%s, out=o), o.shape))(%s)' % (g, s),
        '(lambda o: (torch.linalg.eigh(%s, out=o).eigenvalues, [t.dtype for t in o]))((%s, %s))' % (h, s, u),
        '(lambda o: torch.linalg.eigvalsh(%s, out=o))(%s)' % (h, s),
        '(lambda o: (torch.svd(%s, out=o).S, [t.dtype for t in o]))((%s, %s, %s))' % (g, u, s, u),
        # out= takes only the results' own dtypes: a complex S, a real U, a wider S are refused
        'torch.linalg.svd(%s, out=(%s, %s, %s))' % (g, u, u, u), 'torch.linalg.svd(%s, out=(%s, %s, %s))' % (g, s, s, s),
        'torch.linalg.svdvals(%s, out=%s)' % (g, u), 'torch.linalg.svdvals(%s, out=torch.empty(0, dtype=torch.float16))' % g,
        'torch.linalg.eigh(%s, out=(%s, %s))' % (h, u, u), 'torch.linalg.eigh(%s, out=(%s, %s))' % (h, s, s),
        'torch.linalg.eigvalsh(%s, out=%s)' % (h, u), 'torch.svd(%s, out=(%s, %s, %s))' % (g, u, u, u),
    ]


def _empty(c):
    z = 'torch.ones(%s, dtype=torch.' + c + ')'
    return [
        'torch.linalg.svd(%s)' % (z % '0, 3'), 'torch.linalg.svd(%s)' % (z % '3, 0'),
        'torch.linalg.svd(%s, full_matrices=False)' % (z % '3, 0'), 'torch.linalg.svd(%s)' % (z % '2, 0, 2'),
        'torch.linalg.svdvals(%s)' % (z % '2, 0, 3'), 'torch.svd(%s)' % (z % '0, 3'),
        'torch.linalg.eigh(%s)' % (z % '0, 0'), 'torch.linalg.eigvalsh(%s)' % (z % '2, 0, 0'),
        'torch.linalg.pinv(%s)' % (z % '3, 0'), 'torch.linalg.pinv(%s, hermitian=True)' % (z % '0, 0'),
        'torch.linalg.matrix_rank(%s)' % (z % '0, 3'), 'torch.linalg.matrix_rank(%s, hermitian=True)' % (z % '2, 0, 0'),
        "torch.linalg.matrix_norm(%s, 'nuc')" % (z % '0, 3'), 'torch.linalg.cond(%s)' % (z % '0, 0'),
        "torch.linalg.cond(%s, 'nuc')" % (z % '2, 0, 0'),
    ]


def _errors():
    g, h = GEN.format(d='float32'), HERM.format(d='float64')
    return [
        'torch.linalg.svd(torch.ones(2, 2, dtype=torch.complex32))', 'torch.linalg.svdvals(torch.ones(2, 2, dtype=torch.complex32))',
        'torch.linalg.eigh(torch.ones(2, 2, dtype=torch.complex32))', 'torch.linalg.eigh(torch.ones(2, 3, dtype=torch.complex64))',
        "torch.linalg.eigh(%s, UPLO='X')" % h, 'torch.linalg.svd(torch.ones(3, dtype=torch.complex64))',
        "torch.linalg.svd(%s, driver='gesvd')" % g,
        'torch.linalg.svd(torch.full((2, 2), float("nan"), dtype=torch.complex64))',
        'torch.linalg.svdvals(torch.stack([%s, torch.full((3, 3), float("nan"), dtype=torch.complex64)]))' % g,
        'torch.linalg.svdvals(torch.full((2, 3), float("inf"), dtype=torch.complex128))',
        'torch.linalg.pinv(torch.ones(2, 2, dtype=torch.complex32))', 'torch.linalg.pinv(torch.ones(3, dtype=torch.complex64))',
        'torch.linalg.pinv(%s, atol=torch.tensor(0.1 + 0j))' % g, 'torch.linalg.pinv(%s, rtol=torch.tensor(0.1 + 0j))' % g,
        'torch.linalg.matrix_rank(%s, atol=torch.tensor(0.1 + 0j))' % g,
        'torch.linalg.matrix_rank(%s, tol=torch.tensor(0.1 + 0j))' % g,
        'torch.linalg.matrix_rank(torch.ones(2, 2, dtype=torch.complex32))',
        'torch.linalg.matrix_rank(torch.ones(3, dtype=torch.complex64))',
        "torch.linalg.matrix_norm(torch.ones(2, 2, dtype=torch.complex32), 'nuc')",
        "torch.linalg.matrix_norm(%s, 'nuc', dtype=torch.float64)" % g, 'torch.linalg.matrix_norm(%s, 2, dtype=torch.float32)' % g,
        "torch.linalg.matrix_norm(%s.to(torch.complex128), 'nuc', dtype=torch.complex64)" % g,
        "torch.linalg.matrix_norm(%s.real, 'nuc', dtype=torch.complex64)" % g,
        'torch.linalg.cond(torch.ones(2, 2, dtype=torch.complex32))', "torch.linalg.cond(torch.ones(2, 3, dtype=torch.complex64), 'nuc')",
        # real matrices' out= takes their own dtypes only, too
        'torch.linalg.svd(torch.eye(2), out=(torch.empty(0), torch.empty(0, dtype=torch.float64), torch.empty(0)))',
        'torch.linalg.eigvalsh(torch.eye(2), out=torch.empty(0, dtype=torch.float64))',
        '(lambda o: (torch.linalg.eigvalsh(torch.eye(2), out=o), o))(torch.empty(0))',
    ]


CASES = []
for _c, _d in COMPLEX.items():
    _g, _r, _h, _i = GEN.format(d=_d), RECT.format(d=_d), HERM.format(d=_d), INDEF.format(d=_d)
    _s, _hs = SING.format(d=_d), HSING.format(d=_d)
    _b = 'torch.stack([%s, %s * 1j, %s.mT])' % (_g, _g, _g)
    CASES += _svd(_g, _r, _b) + _eigh(_h, _i, _g) + _built_on(_g, _r, _h, _i, _s, _hs) + _grads(_g, _r, _h, _i)
    CASES += _out(_c, _g, _h) + _empty(_c)
CASES += _errors()

SUITE = Suite('linalg_complex_spectral', CASES,
              tolerance={'torch.float32': (5e-5, 2e-5), 'torch.float64': (1e-11, 1e-12),
                         'torch.complex64': (5e-5, 2e-5), 'torch.complex128': (1e-11, 1e-12)})
RECORDED, RUNNER, reference_request = SUITE.recorded, SUITE.runner, SUITE.reference_request
reports = SUITE.fixture()


@pytest.mark.parametrize('expr', SUITE.expressions)
def test_matches_reference(reports, expr):
    SUITE.check(reports, expr)
