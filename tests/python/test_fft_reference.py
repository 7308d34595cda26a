"""DIFFERENTIAL TEST OF torch.fft AGAINST THE REFERENCE PYTORCH (1.13.1).

Every function of torch.fft (fft, ifft, rfft, irfft, hfft, ihfft, their 2-D and N-D forms, fftfreq,
rfftfreq, fftshift, ifftshift) and the transforms _fft_c2c/_fft_r2c/_fft_c2r: real and complex
inputs in float32/float64 (integers promoted), n/s padding and trimming, dims, the three norms,
non-contiguous inputs, gradients (torch.autograd.grad of a real function of the result, float64), and
the errors. The reference runs pocketfft, this project FFTW or KissFFT, so values are compared
within a tolerance that different correct FFTs meet. Run it under each provider:
TORCH_FFT=fftw (the default) and TORCH_FFT=kissfft (float64 then goes to FFTW, see docs/fft.md).
Recorded in tests/data/reference/fft.json by tools/record_reference. Nothing at module level may
import this project's torch.
"""

import pytest

from differential import Suite

REAL = '(torch.arange(24., dtype=torch.{d}).view(2, 3, 4).sin() * 3 + 0.5)'
REAL_T = '(torch.arange(30., dtype=torch.{d}).view(5, 6).cos().t())'
CPLX = 'torch.complex(torch.arange(24., dtype=torch.{d}).view(2, 3, 4).sin(), torch.arange(24., dtype=torch.{d}).view(2, 3, 4).cos() * 2)'
NORMS = [None, 'backward', 'ortho', 'forward']

CASES = []
for d in ['float32', 'float64']:
    r, rt, c = REAL.format(d=d), REAL_T.format(d=d), CPLX.format(d=d)
    for norm in NORMS:
        q = ', norm=%r' % norm if norm else ''
        for f in ['fft', 'ifft']:
            CASES += ['torch.fft.%s(%s%s)' % (f, r, q), 'torch.fft.%s(%s%s)' % (f, c, q)]
        CASES += ['torch.fft.rfft(%s%s)' % (r, q), 'torch.fft.ihfft(%s%s).resolve_conj()' % (r, q),
                  'torch.fft.irfft(%s%s)' % (c, q), 'torch.fft.hfft(%s%s)' % (c, q),
                  'torch.fft.fftn(%s%s)' % (c, q), 'torch.fft.ifftn(%s%s)' % (r, q),
                  'torch.fft.rfftn(%s%s)' % (r, q), 'torch.fft.irfftn(%s%s)' % (c, q),
                  'torch.fft.hfftn(%s%s)' % (c, q), 'torch.fft.ihfftn(%s%s).resolve_conj()' % (r, q)]
    CASES += [
        'torch.fft.fft(%s, n=6, dim=1)' % r, 'torch.fft.fft(%s, n=2, dim=0)' % c, 'torch.fft.ifft(%s, n=7)' % c,
        'torch.fft.rfft(%s, n=7)' % r, 'torch.fft.rfft(%s, n=3, dim=-2)' % r, 'torch.fft.irfft(%s, n=5)' % c,
        'torch.fft.irfft(%s, n=9, dim=1)' % c, 'torch.fft.hfft(%s, n=4, dim=0)' % c,
        'torch.fft.ihfft(%s, n=5, dim=1).resolve_conj()' % r,
        'torch.fft.fft2(%s)' % c, 'torch.fft.fft2(%s, s=(5, 3))' % r, 'torch.fft.ifft2(%s, dim=(0, 2))' % c,
        'torch.fft.rfft2(%s)' % r, 'torch.fft.rfft2(%s, s=(2, 5))' % r, 'torch.fft.irfft2(%s)' % c,
        'torch.fft.irfft2(%s, s=(4, 7))' % c, 'torch.fft.hfft2(%s)' % c, 'torch.fft.ihfft2(%s)' % r,
        'torch.fft.fftn(%s, s=(3, -1), dim=(2, 0))' % c, 'torch.fft.fftn(%s, dim=[1])' % r,
        'torch.fft.rfftn(%s, s=(4, 4))' % r, 'torch.fft.irfftn(%s, s=(2, 3, 6))' % c,
        'torch.fft.irfftn(%s, dim=(0, 1))' % c, 'torch.fft.hfftn(%s, s=(3, 5))' % c,
        'torch.fft.ihfftn(%s, dim=(2, 0)).resolve_conj()' % r,
        'torch.fft.fft(%s)' % rt, 'torch.fft.rfftn(%s)' % rt, 'torch.fft.fft(%s.transpose(0, 2))' % c,
        'torch.fft.irfft(%s[..., ::2])' % c,
        'torch._fft_c2c(%s, [0, 2], 1, False)' % c, 'torch._fft_r2c(%s, [1], 2, False)' % r,
        'torch._fft_r2c(%s, [2, 0], 0, True)' % r, 'torch._fft_c2r(%s, [1, 2], 0, 6)' % c,
        'torch.fft.fftfreq(7, dtype=torch.%s)' % d, 'torch.fft.rfftfreq(8, 0.1, dtype=torch.%s)' % d,
    ]
    for f, x in [('fft', c), ('ifft', r), ('rfft', r), ('irfft', c), ('hfft', c), ('ihfft', r), ('fftn', r),
                 ('rfftn', r), ('irfftn', c), ('fft2', c), ('hfftn', c), ('ihfftn', r)]:
        if d != 'float64':
            continue
        CASES.append('(lambda x: torch.autograd.grad((torch.fft.%s(x, norm="ortho").abs() ** 2 * '
                     'torch.linspace(0.5, 1.5, torch.fft.%s(x).numel(), dtype=torch.float64).view(torch.fft.%s(x).shape)'
                     ').sum(), x)[0])(%s.requires_grad_())' % (f, f, f, x))
CASES += [
    'torch.fft.fft(torch.arange(6))', 'torch.fft.rfft(torch.tensor([1, 2, 3, 4]))', 'torch.fft.fftfreq(6)',
    'torch.fft.fftfreq(5, 0.5)', 'torch.fft.rfftfreq(7)', 'torch.fft.rfftfreq(1)',
    'torch.fft.fftshift(torch.arange(10).view(2, 5))', 'torch.fft.ifftshift(torch.arange(10).view(2, 5))',
    'torch.fft.fftshift(torch.arange(10).view(2, 5), dim=1)', 'torch.fft.ifftshift(torch.arange(7), dim=(0,))',
    'torch.fft.fftshift(torch.fft.fftfreq(6))',
    # errors
    'torch.fft.fft(torch.ones(4), n=0)', 'torch.fft.fft(torch.ones(4), norm="bad")',
    'torch.fft.rfft(torch.ones(4, dtype=torch.complex64))', 'torch.fft.ihfft(torch.ones(4, dtype=torch.complex64))',
    'torch.fft.fft(torch.ones(4), dim=1)', 'torch.fft.fftn(torch.ones(4, 4), dim=(0, 0))',
    'torch.fft.fftn(torch.ones(4, 4), s=(2,), dim=(0, 1))', 'torch.fft.fftn(torch.ones(4), s=(2, 2))',
    'torch.fft.irfft(torch.ones(1, dtype=torch.complex64))', 'torch.fft.rfftn(torch.ones(4, 4), s=(0, 2))',
    'torch.fft.fft(torch.ones(4, dtype=torch.float16))',
]

SUITE = Suite('fft', CASES, tolerance={'torch.float32': (2e-5, 2e-5), 'torch.float64': (1e-11, 1e-11),
                                       'torch.complex64': (2e-5, 2e-5), 'torch.complex128': (1e-11, 1e-11)})
RECORDED, RUNNER, reference_request = SUITE.recorded, SUITE.runner, SUITE.reference_request
reports = SUITE.fixture()


@pytest.mark.parametrize('expr', SUITE.expressions)
def test_matches_reference(reports, expr):
    SUITE.check(reports, expr)
