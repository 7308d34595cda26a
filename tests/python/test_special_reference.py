"""Differential suite of torch.special's Bessel, Airy, error-function, zeta and orthogonal-polynomial
functions against the reference PyTorch (1.13.1).

airy_ai, bessel_j0/j1/y0/y1, modified_bessel_i0/i1/k0/k1, scaled_modified_bessel_k0/k1,
spherical_bessel_j0, i0, i0e, i1, i1e, erfcx, ndtri, log_ndtr, zeta, gammainc/gammaincc (igamma,
igammac) and the twelve orthogonal polynomials: edge values (0, -0.0, negatives, large, inf, NaN) in float32 and float64, integer and bool
inputs (float32 results), the 16-bit and complex dtypes PyTorch refuses, out= (cast and refused),
broadcasting and the Tensor/Scalar overloads of the binary ones, gradients where 1.13 has formulas
(i0, i0e, i1, i1e, erfcx, ndtri, log_ndtr, zeta's q, gammainc's x) and its errors where it has none
(zeta's x, gammainc's a) or
no gradient at all (the others). Recorded by `tools/record_reference special`; see differential.py.

float32 tolerance: PyTorch's AVX2 build contracts multiply-adds, which these kernels mirror with
fma() where it matters (the recurrences and series), but not in every expression: up to 7 units in
the last place were seen, so float32 values are compared within 1e-6 relative.
"""
import pytest

from differential import Suite

FLOATS = ['float32', 'float64']
# Edge values and values in each branch of the algorithms (J/Y switch at 5, I at 8, K at 2, Ai at
# -2.09 and 2.09, the asymptotic forms far out); no value sits near a zero of a function, where a
# different rounding of a cancelling sum changes many bits.
X = ('torch.tensor([0.0, -0.0, 1e-30, 1e-6, 0.1, 0.5, 1.0, 1.5, 2.0, 2.09, 2.5, 3.0, 4.5, 5.0, 6.2, 7.5, 8.0, '
     '8.5, 10.0, 20.0, 31.0, 60.0, 120.0, 700.0, 1e10, -0.1, -0.5, -1.0, -2.0, -2.5, -3.1, -6.0, -9.0, -20.0, '
     '-30.0, float("inf"), float("-inf"), float("nan")], dtype=torch.{})')
UNIT = ('torch.tensor([0.0, 1.0, 0.5, 1e-300, 1e-30, 1e-10, 0.01, 0.1, 0.135, 0.2, 0.3, 0.7, 0.8, 0.9, 0.99, '
        '0.999999, -0.1, 1.1, float("nan")], dtype=torch.{})')
UNARY = ['airy_ai', 'bessel_j0', 'bessel_j1', 'bessel_y0', 'bessel_y1', 'modified_bessel_i0', 'modified_bessel_i1',
         'modified_bessel_k0', 'modified_bessel_k1', 'scaled_modified_bessel_k0', 'scaled_modified_bessel_k1',
         'spherical_bessel_j0', 'i0', 'i0e', 'i1', 'i1e', 'erfcx', 'log_ndtr']
WITH_GRAD = ['i0', 'i0e', 'i1', 'i1e', 'erfcx', 'ndtri', 'log_ndtr']
POLYS = ['chebyshev_polynomial_t', 'chebyshev_polynomial_u', 'chebyshev_polynomial_v', 'chebyshev_polynomial_w',
         'shifted_chebyshev_polynomial_t', 'shifted_chebyshev_polynomial_u', 'shifted_chebyshev_polynomial_v',
         'shifted_chebyshev_polynomial_w', 'hermite_polynomial_h', 'hermite_polynomial_he', 'laguerre_polynomial_l',
         'legendre_polynomial_p']
PX = ('torch.tensor([-1.0, -0.9, -0.5, -0.3, 0.0, 0.2, 0.5, 0.7, 0.99, 1.0, 1.5, -2.0, 3.0, float("nan"), '
      'float("inf")], dtype=torch.{})[:, None]')
PN = 'torch.tensor([-1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 20, 33], dtype=torch.{})[None, :]'
GRAD = ('(lambda x: torch.autograd.grad(torch.special.{f}(x).sum(), x)[0])'
        '(torch.tensor({v}, dtype=torch.float64, requires_grad=True))')


def _unary():
    out = []
    for f in UNARY + ['ndtri']:
        for d in FLOATS:
            out.append('torch.special.%s(%s)' % (f, (UNIT if f == 'ndtri' else X).format(d)))
        out += ['torch.special.%s(torch.tensor([0, 1, 3, -2]))' % f,
                'torch.special.%s(torch.tensor([True, False]))' % f,
                'torch.special.%s(torch.tensor([0.5], dtype=torch.float16))' % f,
                'torch.special.%s(torch.tensor([0.5], dtype=torch.bfloat16))' % f,
                'torch.special.%s(torch.tensor([0.5j]))' % f,
                # computed in float32 and cast: compared as float32 values
                'torch.special.%s(torch.tensor([0.25, 0.5]), out=torch.empty(2, dtype=torch.float64)).float()' % f,
                'torch.special.%s(torch.tensor([0.25]), out=torch.empty(1, dtype=torch.float64)).dtype' % f,
                'torch.special.%s(torch.tensor([0.25]), out=torch.empty(0))' % f,
                'torch.special.%s(torch.tensor([0.25]), out=torch.empty(1, dtype=torch.int64))' % f,
                'torch.special.%s(torch.tensor([[0.25, 0.75], [0.5, 0.125]]).t())' % f,
                'torch.special.%s(torch.tensor(0.3))' % f,
                'torch.special.%s(torch.empty(0, 3))' % f,
                'torch.special.%s((torch.arange(40) / 41.0).double())' % f,
                'torch.special.%s(torch.arange(40) / 41.0)' % f]
        if f in WITH_GRAD:
            out.append(GRAD.format(f=f, v='[0.0, 0.25, -0.5, 0.75, 2.0, -3.0, 9.5]' if f != 'ndtri'
                                   else '[0.1, 0.25, 0.5, 0.75, 0.9]'))
            out.append('torch.special.%s(torch.tensor([0.5], requires_grad=True)).grad_fn.name()' % f)
        else:
            out.append('torch.special.%s(torch.tensor([0.5], requires_grad=True)).requires_grad' % f)
    out += ['torch.i0(%s)' % X.format('float32'), 'torch.i0(torch.tensor([1, 2]))',
            'torch.tensor([0.5, 3.0]).i0()', 'torch.tensor([0.5, 3.0]).i0_()',
            'torch.i0(torch.tensor([1.5]), out=torch.empty(1, dtype=torch.float64))',
            'torch.i0(torch.tensor([1.5], dtype=torch.float16))',
            'torch.kaiser_window(7)', 'torch.kaiser_window(12, periodic=False, beta=5.0, dtype=torch.float64)']
    return out


def _zeta():
    zx = 'torch.tensor([1.0, 1.5, 2.0, 3.0, 4.5, 10.0, 0.5, -1.0, -2.0, float("inf"), float("nan")], dtype=torch.{})'
    zq = 'torch.tensor([1.0, 0.5, 2.0, -1.0, -1.5, 0.0, 10.0, 1e-3, 100.0], dtype=torch.{})'
    out = []
    for d in FLOATS:
        out.append('torch.special.zeta(%s[:, None], %s[None, :])' % (zx.format(d), zq.format(d)))
    out += ['torch.special.zeta(torch.tensor([2, 3]), torch.tensor([1, 2]))',
            'torch.special.zeta(2.0, torch.tensor([1.0, 2.0, 0.5]))', 'torch.special.zeta(2, torch.tensor([1, 2]))',
            'torch.special.zeta(torch.tensor([2.0, 3.0]), 1.5)', 'torch.special.zeta(torch.tensor([2.0, 3.0]), 2)',
            'torch.special.zeta(torch.tensor([2.0]), torch.tensor([1.0], dtype=torch.float64))',
            'torch.special.zeta(torch.tensor([2.0], dtype=torch.float16), torch.tensor([1.0], dtype=torch.float16))',
            'torch.special.zeta(torch.tensor([2.0, 3.0]), torch.tensor([1.0, 2.0]), out=torch.empty(2, dtype=torch.float64))',
            'torch.special.zeta(2.0, torch.tensor([1.0]), out=torch.empty(1))',
            'torch.special.zeta(torch.tensor([2.0]), 3.0, out=torch.empty(1))',
            'torch.special.zeta(torch.tensor([2.0, 3.0]), torch.tensor([1.0, 2.0, 3.0]))',
            '(lambda q: torch.autograd.grad(torch.special.zeta(torch.tensor([2.0, 3.5], dtype=torch.float64), q).sum(), q)[0])'
            '(torch.tensor([1.5, 0.75], dtype=torch.float64, requires_grad=True))',
            '(lambda q: torch.autograd.grad(torch.special.zeta(2.5, q).sum(), q)[0])'
            '(torch.tensor([1.5, 0.75], dtype=torch.float64, requires_grad=True))',
            'torch.special.zeta(torch.tensor([2.0], requires_grad=True), 1.5).sum().backward()',
            'torch.special.zeta(torch.tensor([2.0], requires_grad=True), torch.tensor([1.5])).sum().backward()']
    return out


def _polynomials():
    out = []
    for f in POLYS:
        for d in FLOATS:
            out.append('torch.special.%s(%s, %s)' % (f, PX.format(d), PN.format(d)))
        out += ['torch.special.%s(%s, %s)' % (f, PX.format('float32'), PN.format('int64')),
                'torch.special.%s(torch.tensor([0.3, -0.6]), 3)' % f,
                'torch.special.%s(torch.tensor([0.3, -0.6]), 3.7)' % f,
                'torch.special.%s(0.4, torch.tensor([0, 1, 2, 5, 11]))' % f,
                'torch.special.%s(2, torch.tensor([0, 1, 2, 5]))' % f,
                'torch.special.%s(torch.tensor([0.3, -0.6]), torch.tensor([2.9, float("nan")]))' % f,
                'torch.special.%s(torch.tensor([2, -1]), torch.tensor([3, 4]))' % f,
                'torch.special.%s(torch.tensor([0.3]), torch.tensor([3], dtype=torch.float64))' % f,
                'torch.special.%s(torch.tensor([0.3], dtype=torch.float16), 2)' % f,
                'torch.special.%s(torch.tensor([0.3, 0.5]), torch.tensor([2, 3]), out=torch.empty(2, dtype=torch.float64))' % f,
                'torch.special.%s(torch.tensor([0.3]), 4, out=torch.empty(1))' % f,
                'torch.special.%s(0.3, torch.tensor([4]), out=torch.empty(1))' % f,
                'torch.special.%s(torch.tensor([0.5], requires_grad=True), 3).requires_grad' % f]
    return out


def _gammainc():
    # a and x in every branch (series, continued fraction, Temme's expansion near a = x, the
    # boundaries); the far tails, where float32 results below 1e-8 agree only to a few 1e-6, are left out
    ga = 'torch.tensor([0.0, 1e-3, 0.1, 0.5, 1.0, 1.5, 2.0, 5.0, 10.0, 21.0, 150.0, float("inf"), -1.0, float("nan")], dtype=torch.{})[:, None]'
    gx = 'torch.tensor([0.0, 1e-4, 0.05, 0.3, 0.5, 0.8, 1.0, 1.05, 2.0, 9.0, 20.0, 24.0, 160.0, float("inf"), -1.0], dtype=torch.{})[None, :]'
    out = []
    for f in ['special.gammainc', 'special.gammaincc', 'igamma', 'igammac']:
        for d in FLOATS + ['float16', 'bfloat16']:
            out.append('torch.%s(%s, %s)' % (f, ga.format(d), gx.format(d)))
        out += ['torch.%s(torch.tensor([2.0, 3.0]), torch.tensor([1, 4]))' % f,
                'torch.%s(torch.tensor([2, 3]), torch.tensor([1, 4]))' % f,
                'torch.%s(torch.tensor([2.0]), torch.tensor([1.5], dtype=torch.float64))' % f,
                'torch.%s(torch.tensor([2.0, 3.0]), torch.tensor([1.0, 4.0]), out=torch.empty(2, dtype=torch.float64)).float()' % f,
                'torch.%s(torch.tensor([2.0, 3.0]), torch.tensor([1.0, 2.0, 4.0]))' % f,
                '(lambda x: torch.autograd.grad(torch.%s(torch.tensor([2.0, 0.5, 30.0], dtype=torch.float64), x).sum(), x)[0])'
                '(torch.tensor([1.5, 0.75, 28.0], dtype=torch.float64, requires_grad=True))' % f,
                'torch.%s(torch.tensor([2.0], requires_grad=True), torch.tensor([1.5])).sum().backward()' % f]
    out += ['torch.tensor([2.0, 3.0]).igamma(torch.tensor([1.0, 4.0]))', 'torch.tensor([2.0, 3.0]).igammac_(torch.tensor([1.0, 4.0]))',
            'torch.tensor([2.0, 3.0]).igamma_(torch.tensor([1.0, 4.0], dtype=torch.float64))',
            'torch.igamma(torch.tensor([2.0]), torch.tensor([1.0]), out=torch.empty(1, dtype=torch.int64))']
    return out


CASES = _unary() + _zeta() + _polynomials() + _gammainc()
SUITE = Suite('special', CASES, tolerance={'torch.float32': (1e-6, 1e-30)})
RECORDED, RUNNER, reference_request = SUITE.recorded, SUITE.runner, SUITE.reference_request
reports = SUITE.fixture()


@pytest.mark.parametrize('expr', SUITE.expressions)
def test_matches_reference(reports, expr):
    SUITE.check(reports, expr)
