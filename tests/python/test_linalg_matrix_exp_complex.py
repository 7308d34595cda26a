"""DIFFERENTIAL TEST OF THE COMPLEX MATRIX EXPONENTIAL AGAINST THE REFERENCE PYTORCH (1.13.1).

torch.linalg.matrix_exp, torch.matrix_exp and Tensor.matrix_exp of complex64 and complex128 matrices:
empty, 1 x 1, 2 x 2, 3 x 3, 20 x 20 (the provider's zgemm; the smaller ones take the plugin's loop) and
matrices of large norm that need squaring, batches (empty, broadcast), non-contiguous and conjugate
views, NaN and infinity, out= (PyTorch 1.13's Python has none: torch.ops.aten.linalg_matrix_exp.out,
which copies into any dtype), gradients (torch.autograd.grad with complex upstream gradients, and of
real losses) and PyTorch's errors, whose messages must match too.

PyTorch computes complex64 in complex float with a Taylor polynomial of its own; this project computes
in complex double with the [13/13] Padé approximant and rounds once, so values agree within the
tolerances below, not to the bit. The reference's complex64 errors are normwise (up to 1.3e-5 of the
largest element for a matrix of 1-norm 110, where ours are within rounding of its complex128 results),
so complex64 and float32 results are compared relative to their largest element (`ranged`);
test_complex64_rounded_once checks that ours are the complex128 results rounded. The inputs are exact
in float32 (small integers over powers of two), so both sides see the same matrices. The reference's results are recorded in
tests/data/reference/linalg_matrix_exp_complex.json by tools/record_reference. Nothing at module level
may import this project's torch.
"""

import pytest

from differential import Suite

COMPLEX = {'complex64': 'float32', 'complex128': 'float64'}

# {c} is the complex dtype, {d} the dtype of its parts
GEN = ('(torch.complex(torch.tensor([[2., -1, 0.5], [1, 3, -2], [0.5, 1, 4]], dtype=torch.{d}), '
       'torch.tensor([[0.5, 1, -1], [0, -0.5, 2], [1, 0.25, 0]], dtype=torch.{d})) / 4)')
SMALL = 'torch.tensor([[1 + 1j, 2], [0.5j, -1]], dtype=torch.{c})'
ONE = 'torch.tensor([[0.5 + 2j]], dtype=torch.{c})'


def _grid(n, k=37):
    """An n x n matrix of sixteenths (real parts in [-11/16, 11/16], imaginary in [-1/2, 1/2]) in the pattern
    k; {d} as above."""
    return ('torch.complex(((torch.arange({nn}, dtype=torch.{{d}}) * {k}) % 23 - 11).view({n}, {n}) / 16, '
            '((torch.arange({nn}, dtype=torch.{{d}}) * 11) % 17 - 8).view({n}, {n}) / 16)').format(nn=n * n, n=n, k=k)


# 20 x 20, 1-norm 10.3: the provider's zgemm, and one squaring
BIG = _grid(20)
# i times a Hermitian matrix, scaled: 1-norm 111 (five squarings), a unitary exponential
HERM = ('torch.complex(torch.tensor([[4., 1, 2], [1, 5, 3], [2, 3, 6]], dtype=torch.{d}), '
        'torch.tensor([[0., 1, -0.5], [-1, 0, 0.5], [0.5, -0.5, 0]], dtype=torch.{d}))')
SKEW = '(%s * 10j)' % HERM
# a large norm with a growing exponential: 1-norm 32 (three squarings), an eigenvalue of real part 17,
# elements up to 2.5e7 (no overflow in complex64)
GROW = '(%s * 16)' % GEN
# an upstream gradient for the 3 x 3 matrices
UP = ('torch.complex(torch.tensor([[1., 0, -2], [0.5, 1, 0], [0, -1, 3]], dtype=torch.{d}), '
      'torch.tensor([[0., 2, 1], [-1, 0.5, 0], [1, 1, -0.5]], dtype=torch.{d}))')


def _values(c, d):
    f = dict(c=c, d=d)
    g, s, one, big, skew, grow = (x.format(**f) for x in (GEN, SMALL, ONE, BIG, SKEW, GROW))
    e = 'torch.linalg.matrix_exp(%s)'
    batch = 'torch.stack([%s, %s * 1j, %s.mT])' % (g, g, g)
    return [
        e % ('torch.ones(0, 0, dtype=torch.%s)' % c), e % ('torch.ones(0, 3, 3, dtype=torch.%s)' % c),
        e % ('torch.ones(2, 0, 0, dtype=torch.%s)' % c), e % ('torch.ones(2, 0, 4, 4, dtype=torch.%s)' % c),
        e % one, e % s, e % g, e % big, e % skew, e % grow, e % ('(%s / 16)' % big),
        e % ('torch.zeros(3, 3, dtype=torch.%s)' % c), e % ('torch.eye(4, dtype=torch.%s) * 1j' % c),
        e % batch, e % ('%s.view(3, 1, 3, 3)' % batch), e % ('%s.expand(2, 3, 3)' % g),
        e % ('torch.stack([%s, %s])' % (big, _grid(20, 41).format(d=d))),
        # non-contiguous and conjugate views
        e % ('%s.mT' % g), e % ('%s.mT' % big), e % ('%s.conj()' % g), e % ('%s.mH' % big),
        e % ('%s[::2, ::2]' % big), e % ('%s.transpose(0, 2)' % batch), e % ('%s[1:, :20]' % _grid(21).format(d=d)),
        # NaN when an element is infinite (the reference's NaN input gives garbage; test_nan below)
        e % ('torch.tensor([[1, float("inf")], [0, 1]], dtype=torch.%s)' % c),
        e % ('torch.tensor([[1, complex(0, float("-inf"))], [0, 1]], dtype=torch.%s)' % c),
        # the other spellings
        'torch.matrix_exp(%s)' % g, '%s.matrix_exp()' % g, '%s.matrix_exp()' % batch, '%s.mT.matrix_exp()' % big,
        # a real matrix, and the same matrix as complex
        'torch.linalg.matrix_exp(%s.real)' % g, 'torch.linalg.matrix_exp(%s.real.to(torch.%s))' % (g, c),
    ]


def _out(c, d):
    g, s = GEN.format(d=d), SMALL.format(c=c)
    o = 'torch.ops.aten.linalg_matrix_exp.out(%s, out=%s)'
    e = 'torch.empty(%s, dtype=torch.%s)'
    return [
        # PyTorch 1.13's Python has no out= (a TypeError for every dtype) ...
        'torch.linalg.matrix_exp(%s, out=%s)' % (g, e % (0, c)), 'torch.linalg.matrix_exp(%s, out=%s)' % (g, e % (0, d)),
        'torch.matrix_exp(%s, out=%s)' % (g, e % (0, c)),
        # ... its generated out= variant computes, then copies into out of any dtype, resized
        o % (g, e % (0, c)), o % (g, e % ('3, 3', c)), o % (g, e % ('2, 2', c)),
        # (complex64's result widened: compared as complex64, the dtype it was computed in)
        '(lambda r: (r.dtype, r.to(torch.%s)))(%s)' % (c, o % (s, e % (0, 'complex128'))),
        o % (s, e % (0, 'complex64')), o % (s, e % (0, d)), o % (s, e % (0, 'int32')),
        o % ('torch.stack([%s, %s.mT])' % (g, g), e % ('2, 3, 3', c)),
        '(lambda o: (torch.ops.aten.linalg_matrix_exp.out(%s, out=o).data_ptr() == o.data_ptr(), o))(%s)'
        % (g, e % ('3, 3', c)),
        o % ('torch.ones(2, 3, dtype=torch.%s)' % c, e % (0, c)),
    ]


def _grads(c, d):
    g, big, skew, up = GEN.format(d=d), BIG.format(d=d), SKEW.format(d=d), UP.format(d=d)
    grad = '(lambda A: torch.autograd.grad(%s, A, %s))(%s.requires_grad_())'
    real = '(lambda A: torch.autograd.grad(%s, A))(%s.requires_grad_())'
    return [
        # vector-Jacobian products with complex upstream gradients
        grad % ('torch.linalg.matrix_exp(A)', up, g), grad % ('torch.linalg.matrix_exp(A)', '%s * 1j' % up, g),
        grad % ('torch.linalg.matrix_exp(A)', up + '.mT', skew), grad % ('torch.matrix_exp(A)', up, '%s.mT' % g),
        grad % ('A.matrix_exp()', 'torch.stack([%s, %s.conj()])' % (up, up), 'torch.stack([%s, %s * 1j])' % (g, g)),
        grad % ('torch.linalg.matrix_exp(A)', 'torch.ones(20, 20, dtype=torch.%s) * (1 - 0.5j)' % c, '(%s / 4)' % big),
        grad % ('torch.linalg.matrix_exp(A)', 'torch.tensor([[0.5 - 1j]], dtype=torch.%s)' % c,
                'torch.tensor([[1 + 2j]], dtype=torch.%s)' % c),
        # gradients of real losses
        real % ('torch.linalg.matrix_exp(A).abs().sum()', g), real % ('torch.linalg.matrix_exp(A).imag.sum()', g),
        real % ('torch.linalg.matrix_exp(A)[0, 1].real', '%s.conj()' % g),
        real % ('torch.linalg.matrix_exp(A).diagonal().real.sum()', skew),
        real % ('(torch.linalg.matrix_exp(A) @ torch.linalg.matrix_exp(-A)).real.sum()', g),
        # a complex input to a real loss through a real matrix's exponential
        real % ('torch.linalg.matrix_exp(A.real).sum()', g),
    ]


def _errors():
    e = 'torch.linalg.matrix_exp(%s)'
    return [
        e % 'torch.ones(2, 3, dtype=torch.complex64)', e % 'torch.ones(4, 3, 2, dtype=torch.complex128)',
        e % 'torch.ones(3, dtype=torch.complex64)', e % 'torch.tensor(1j)',
        'torch.matrix_exp(torch.ones(2, 3, dtype=torch.complex128))', 'torch.ones(3, dtype=torch.complex64).matrix_exp()',
        e % 'torch.ones(2, 2, dtype=torch.complex32)', e % 'torch.ones(2, 2, dtype=torch.float16)',
        e % 'torch.ones(2, 2, dtype=torch.int64)', e % 'torch.ones(2, 2, dtype=torch.bool)',
        'torch.ops.aten.linalg_matrix_exp.out(torch.ones(3, dtype=torch.complex64), out=torch.empty(0, dtype=torch.complex64))',
        'torch.ops.aten.linalg_matrix_exp.out(torch.ones(2, 2, dtype=torch.complex32), out=torch.empty(0))',
    ]


CASES = []
for _c, _d in COMPLEX.items():
    CASES += _values(_c, _d) + _out(_c, _d) + _grads(_c, _d)
CASES += _errors()

SUITE = Suite('linalg_matrix_exp_complex', CASES,
              ranged=lambda expr: 'complex64' in expr or 'float32' in expr,
              tolerance={'torch.float32': (2e-5, 2e-6), 'torch.float64': (1e-12, 1e-13),
                         'torch.complex64': (2e-5, 2e-6), 'torch.complex128': (1e-12, 1e-13)})
RECORDED, RUNNER, reference_request = SUITE.recorded, SUITE.runner, SUITE.reference_request
reports = SUITE.fixture()


@pytest.mark.parametrize('expr', SUITE.expressions)
def test_matches_reference(reports, expr):
    SUITE.check(reports, expr)


def test_error_messages(reports):
    """PyTorch's messages word for word, wherever the reference raises (the suite compares only the
    exception types)."""
    errors = {expr: (ref, ours) for expr, (ref, ours) in reports.items() if ref and ref['kind'] == 'error'}
    assert set(_errors()) <= set(errors)
    bad = ['%s\n  reference %s: %s\n  ours      %s: %s' % (expr, ref['type'], ref['message'], ours.get('type'),
                                                          ours.get('message'))
           for expr, (ref, ours) in sorted(errors.items())
           if (ours.get('type'), ours.get('message')) != (ref['type'], ref['message'])]
    assert not bad, '\n'.join(bad)


def test_nan():
    """A NaN anywhere gives NaNs in both parts of every element of that matrix only (the reference reads
    uninitialised memory here, so there is nothing to record)."""
    import torch
    for dtype in (torch.complex64, torch.complex128):
        a = torch.stack([torch.eye(3, dtype=dtype) * 1j, torch.eye(3, dtype=dtype)])
        a[0, 1, 2] = complex(0, float('nan'))
        r = torch.linalg.matrix_exp(a)
        assert r.dtype == dtype and r[0].real.isnan().all() and r[0].imag.isnan().all()
        assert torch.allclose(r[1], torch.eye(3, dtype=dtype) * 2.718281828459045, rtol=1e-6, atol=0)


def test_complex64_rounded_once():
    """complex64 is computed in complex double and rounded once at the end: bit for bit the complex128
    result of the same (widened) matrix, rounded; real float32 likewise."""
    import torch
    cases = [(CASE.format(c='complex64', d='float32')) for CASE in (GEN, SMALL, ONE, BIG, SKEW, GROW)]
    cases += ['torch.stack([%s, %s.mT * 1j])' % (cases[0], cases[0]), '%s.mT' % cases[3]]
    for expr in cases:
        a = eval(expr, {'torch': torch})
        want = torch.linalg.matrix_exp(a.to(torch.complex128)).to(torch.complex64)
        assert torch.equal(torch.linalg.matrix_exp(a), want), expr
        assert torch.equal(torch.linalg.matrix_exp(a.real), torch.linalg.matrix_exp(a.real.double()).float()), expr
