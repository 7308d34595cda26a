"""DIFFERENTIAL TEST OF COMPLEX TENSORS AGAINST THE REFERENCE PYTORCH (1.13.1).

Dtype facts and promotion, creation and conversion, arithmetic (PyTorch's formulas: a + alpha * b
with a complex product, schoolbook quotients), pow's scalar shortcuts, the unary functions, abs and
angle, views (real, imag, view_as_real/complex, the lazy conj and its bits), sum/mean, matrix
products, complex()/polar(), random draws, gradients, and the errors, as values, dtypes, shapes and
(for views) strides. Complex values travel as [real, imag] pairs and are compared within one unit in
the last place of their part's dtype (differential.py).

Left out on purpose: 1-D @ 1-D products of complex tensors, which PyTorch 1.13's CPU build computes
as 0 (its BLAS dot returns the result in a way its build does not read); tests/python/test_complex.py
checks them in closed form. The reference's results are recorded in tests/data/reference/complex.json
by tools/record_reference. Nothing at module level may import this project's torch.
"""

import pytest

from differential import Suite

CX = ['complex64', 'complex128']
REALS = ['bool', 'uint8', 'int8', 'int16', 'int32', 'int64', 'float16', 'bfloat16', 'float32', 'float64']

A = 'torch.tensor([1+2j, -3.5+0.25j, 0.5-4j, -2-1j], dtype=torch.{d})'
B = 'torch.tensor([3-4j, 1+1j, -0.25+2j, 2.5+0.5j], dtype=torch.{d})'
M = 'torch.tensor([[1+1j, 2, -0.5j], [3, 4j, 1-1j]], dtype=torch.{d})'


def _facts():
    out = ['torch.complex64', 'torch.cfloat', 'torch.cdouble', 'torch.chalf', 'torch.complex32.is_complex',
           'torch.complex64.is_floating_point', 'torch.complex128.is_signed', 'torch.float32.is_complex',
           'torch.get_default_dtype()', 'torch.set_default_dtype(torch.complex64)',
           'torch.tensor([1+2j]).is_complex()', 'torch.tensor([1+2j]).is_floating_point()',
           'torch.tensor([1+2j]).type()', 'torch.tensor([1+2j], dtype=torch.complex128).type()',
           'torch.tensor([1+2j]).element_size()', 'torch.is_complex(torch.tensor([1j]))']
    for a in CX + ['complex32']:
        for b in REALS + CX + ['complex32']:
            out.append('(torch.zeros(2, dtype=torch.%s) + torch.zeros(2, dtype=torch.%s)).dtype' % (a, b))
    for d in REALS + CX:
        out.append('(torch.ones(2, dtype=torch.%s) * 1j).dtype' % d)
        out.append('(torch.tensor(1j) * torch.ones(2, dtype=torch.%s)).dtype' % d)
        out.append('(torch.tensor(1, dtype=torch.%s) * (1+1j)).dtype' % d)
    return out


def _creation():
    return ['torch.tensor([1+2j, 3, -1.5j])', 'torch.tensor(2-1j)', 'torch.tensor([[1+1j]], dtype=torch.complex32)',
            'torch.tensor([1+2j], dtype=torch.complex128)', 'torch.tensor([1.5, 1j])', 'torch.tensor([True, 1j])',
            'torch.tensor([1j], dtype=torch.bool)', 'torch.tensor([0j, 1+0j], dtype=torch.bool)',
            'torch.tensor([1j], dtype=torch.int64)', 'torch.tensor([1j], dtype=torch.float32)',
            'torch.tensor([1e39j])', 'torch.tensor([1e5j], dtype=torch.complex32)',
            'torch.tensor([torch.tensor(1j)])', 'torch.zeros(2, 3, dtype=torch.complex64)',
            'torch.ones(2, dtype=torch.complex128)', 'torch.full((2,), 1+2j)',
            'torch.full((2,), 3, dtype=torch.cfloat)',
            'torch.full((2,), 1j, dtype=torch.chalf)', 'torch.full((2,), 1j, dtype=torch.float32)',
            'torch.empty(2, dtype=torch.complex64).shape', 'torch.eye(3, dtype=torch.complex64)',
            'torch.linspace(0, 1j, 3)', 'torch.linspace(0j, 1+1j, 5)',
            'torch.linspace(1+1j, 2, 4, dtype=torch.complex64)',
            'torch.linspace(0, 10, 5, dtype=torch.complex64)', 'torch.linspace(-1-2j, 3+1j, 7, dtype=torch.complex128)',
            'torch.linspace(0, 1j, 3, dtype=torch.float32)', 'torch.arange(3, dtype=torch.complex64)',
            'torch.arange(0, 2j)', 'torch.zeros_like(torch.tensor([1+2j]))', 'torch.ones_like(torch.tensor([1+2j]))',
            'torch.full_like(torch.tensor([1+2j]), 2j)', 'torch.full_like(torch.tensor([1.]), 2j)',
            'torch.tensor([1+2j]).new_full((2,), 1j)', 'torch.tensor([1+2j]).new_zeros(2)',
            'torch.zeros(2).fill_(1+2j)', 'torch.zeros(2).fill_(1+0j)', 'torch.zeros(2, dtype=torch.int64).fill_(1+2j)',
            'torch.zeros(2, dtype=torch.bool).fill_(1j)', 'torch.zeros(2, dtype=torch.complex64).fill_(1+2j)',
            'torch.zeros(2, dtype=torch.complex64).fill_(True)', 'torch.zeros(2, dtype=torch.complex32).fill_(1e5j)',
            'torch.zeros(2, dtype=torch.complex64).fill_(3e38 + 1e39j)',
            'torch.tensor(1+2j).item()', 'torch.tensor(1.5).__complex__()', 'torch.tensor([1+2j]).tolist()',
            'complex(torch.tensor(1-2j))', 'float(torch.tensor(1+0j))', 'int(torch.tensor(2+0j))',
            'float(torch.tensor(1+2j))', 'int(torch.tensor(1+2j))', 'bool(torch.tensor(1j))', 'bool(torch.tensor(0j))',
            'torch.tensor([1+2j], dtype=torch.complex32)[0].item()',
            'torch.tensor([1.+1j, 2]).new_ones(2).dtype', 'torch.empty(0, dtype=torch.complex64)']


def _conversions():
    out = []
    x = 'torch.tensor([1.5+2j, -3.25-4j, 0j, 200.75+1j])'
    for d in REALS + CX + ['complex32']:
        out.append('%s.to(torch.%s)' % (x, d))
        out.append('torch.tensor([0, 1, 2, 5], dtype=torch.%s).to(torch.complex64)' % d)
        out.append('torch.tensor([0, 1, 2, 5], dtype=torch.%s).to(torch.complex128)' % d)
    out += ['torch.tensor([1e5+1j]).to(torch.complex32)', 'torch.tensor([1+1j], dtype=torch.complex32).double()',
            'torch.ones(2).cfloat()', 'torch.ones(2).cdouble()', 'torch.ones(2).chalf()',
            'torch.tensor([1, 2]).type(torch.complex64)', '%s.sum(dtype=torch.float32)' % x,
            '%s.sum(dtype=torch.int64)' % x, 'torch.tensor([1, 2]).sum(dtype=torch.complex64)',
            'torch.tensor([1, 2]).sum(dtype=torch.complex32)', 'torch.tensor([1, 2]).mean(dtype=torch.complex64)',
            '%s.conj().to(torch.complex128)' % x, '%s.conj().to(torch.float64)' % x,
            'torch.zeros(4).copy_(%s)' % x, 'torch.zeros(4, dtype=torch.complex64).copy_(torch.tensor([1., 2, 3, 4]))',
            'torch.zeros(4, dtype=torch.complex64).copy_(%s.conj())' % x]
    return out


def _arithmetic():
    out = []
    for d in CX:
        a, b = A.format(d=d), B.format(d=d)
        for op in ['+', '-', '*', '/', '==', '!=']:
            out.append('%s %s %s' % (a, op, b))
            out.append('%s %s %s[0]' % (a, op, b))
        out += ['torch.add(%s, %s, alpha=2-1j)' % (a, b), 'torch.sub(%s, %s, alpha=0.5j)' % (a, b),
                'torch.add(%s, %s, alpha=2)' % (a, b), 'torch.mul(%s, 2.5)' % a, '%s / 3' % a, '1j / %s' % a,
                '-%s' % a, '%s.neg()' % a, '%s + torch.tensor([1, 2, 3, 4])' % a,
                '%s * torch.tensor([1., 0.5, -2, 4])' % a, '%s.view(2, 2) * %s.view(2, 1, 2)' % (a, b),
                '%s.view(2, 2).t() / %s.view(2, 2)' % (a, b), '%s[::2] * %s[1::2]' % (a, b),
                '%s == (1+2j)' % a, '%s.eq(%s.conj())' % (a, a), '%s.conj() * %s' % (a, b),
                '%s.mul_(%s)' % (a, b), '%s.div_(%s)' % (a, b), '%s.add_(1j)' % a, '%s.sub_(%s, alpha=1j)' % (a, b)]
        for e in ['2', '3', '-2', '0.5', '-0.5', '-1', '0', '1', '1.5', '(1+1j)', '-1j', 'torch.tensor(2.)',
                  'torch.tensor([2, 0.5, -1, 3])']:
            out.append('%s ** %s' % (a, e))
        out += ['%s ** %s' % (a, b), 'torch.pow(2, %s)' % a, 'torch.pow(%s, %s)' % (b, a),
                'torch.tensor(2) ** (1j)', 'torch.tensor([1., 2.]) ** (0.5+1j)']
    inf, nan = "float('inf')", "float('nan')"
    out += ['torch.tensor([1+0j, 1+0j]) + torch.tensor([complex(0, %s), complex(%s, 0)])' % (inf, inf),
            'torch.tensor([1+0j, 1+0j]) - torch.tensor([complex(0, %s), complex(%s, 0)])' % (inf, inf),
            'torch.tensor([1+2j, 0j]) / 0', 'torch.tensor([1+2j]) / torch.tensor([0j])',
            'torch.tensor([3e38+1j]) / torch.tensor([3e38+1j])', 'torch.tensor([complex(%s, 1)]) * 2' % nan,
            'torch.tensor([0j]) ** 0', 'torch.tensor([0j]) ** 0.5', 'torch.tensor([0j]) ** torch.tensor([0j])',
            'torch.ones(2, dtype=torch.complex32) + 1', 'torch.ones(2, dtype=torch.complex32) * (1+1e5j)',
            'torch.ones(2, dtype=torch.complex32) - torch.ones(2, dtype=torch.complex32)',
            'torch.ones(2, dtype=torch.complex32).add(torch.ones(2, dtype=torch.complex32), alpha=2)',
            'torch.ones(2, dtype=torch.complex32) == torch.ones(2)', '-torch.ones(2, dtype=torch.complex32)',
            'torch.ones(2, dtype=torch.complex32) + torch.ones(2, dtype=torch.float16)']
    return out


UNARY = ['exp', 'log', 'sqrt', 'sin', 'cos', 'tanh', 'sigmoid', 'abs', 'angle', 'neg', 'conj_physical', 'tan', 'sinh',
         'cosh', 'asin', 'acos', 'atan', 'asinh', 'acosh', 'atanh', 'log2', 'log10', 'rsqrt', 'reciprocal', 'sgn']
# values away from the axes and from 0, near the branch points and far out (contiguous: PyTorch's strided
# path computes sgn and rsqrt by other formulas, an ulp away)
WIDE = ('torch.tensor([1+2j, -0.5+0.25j, 3-4j, 1e-3j, 0j, 2+0j, -1e10+1j, 0.5-0.5j, -3+0.001j, 1e-8+1e-8j, '
        '0.9999+0j, -1.5-2.5j, 1e5j, 7+7j, -0.2-0j, 1+0j, 1j, -1j], dtype=torch.{d})')


def _unary():
    out = []
    for d in CX:
        a = A.format(d=d)
        for f in UNARY:
            out.append('torch.%s(%s)' % (f, a))
        for f in ['exp', 'log', 'sqrt', 'sin', 'cos', 'tanh', 'sigmoid', 'tan', 'asin', 'acos', 'atan', 'log2',
                  'reciprocal', 'sgn']:
            out.append('%s.%s_()' % (a, f))
            out.append('torch.%s(%s.view(2, 2).t())' % (f, a))
        for f in UNARY[11:]:
            out.append('torch.%s(%s)' % (f, WIDE.format(d=d)))
        out.append('torch.abs(%s.conj())' % a)
    out += ['torch.angle(torch.tensor([-2., 0., 3., float("nan")]))', 'torch.angle(torch.tensor([1, -1]))',
            'torch.angle(torch.tensor([True]))', 'torch.angle(torch.tensor([-1.5], dtype=torch.float64))',
            'torch.angle(torch.tensor([-1.5], dtype=torch.float16))',
            'torch.angle(torch.tensor([-1.5], dtype=torch.bfloat16))',
            'torch.angle(torch.tensor([1+1j]), out=torch.empty(1, dtype=torch.complex64))',
            'torch.angle(torch.tensor([1.]), out=torch.empty(1, dtype=torch.complex64))',
            'torch.abs(torch.tensor([3+4j]), out=torch.empty(1, dtype=torch.complex64))',
            'torch.abs(torch.tensor([3+4j]), out=torch.empty(1, dtype=torch.float64))',
            'torch.abs(torch.tensor([3+4j]), out=torch.empty(1, dtype=torch.int64))',
            'torch.tensor([3+4j]).abs_()', 'torch.tensor([1e30+1e30j]).abs()',
            'torch.tensor([1+1j], dtype=torch.complex32).abs()',
            'torch.ones(2, dtype=torch.complex32).conj_physical()', 'torch.ones(2, dtype=torch.complex32).angle()',
            'torch.exp(torch.tensor([math.pi * 1j], dtype=torch.complex128))',
            'torch.exp(torch.complex(torch.linspace(-20, 20, 203), torch.linspace(-120, 120, 203)))',
            'torch.exp(torch.complex(torch.linspace(-700, 700, 203, dtype=torch.float64), '
            'torch.linspace(-1e3, 1e3, 203, dtype=torch.float64)))',
            'torch.exp(torch.tensor([float("inf"), -float("inf"), float("nan"), complex(0, float("inf")), -0.0, '
            '88.7, complex(1, 1e30)] * 3))',
            'torch.log(torch.tensor([-1+0j, 0j, 1e-30j]))', 'torch.sqrt(torch.tensor([-4+0j, 0j, -1e-3j]))',
            'torch.sigmoid(torch.tensor([100+1j, -100+0j]))', 'torch.tanh(torch.tensor([50+1j, 0.5j]))']
    return out


def _views():
    x = 'torch.tensor([[1+2j, 3-4j, 0.5j], [-1, 2+2j, -3j]])'
    return [x + '.real', x + '.imag', x + '.t().real', x + '.t().imag', x + '[:, 1:].imag', x + '.conj().real',
            x + '.conj().imag', x + '.conj().imag.is_neg()', x + '.conj().is_conj()', x + '.is_conj()',
            x + '.conj()', x + '.conj().t()', x + '.conj()[1]', x + '.conj().clone().is_conj()',
            x + '.conj().resolve_conj()', x + '.conj().resolve_conj().is_conj()', x + '.conj().conj().is_conj()',
            x + '.conj().contiguous().is_conj()', x + '.conj().reshape(3, 2).is_conj()',
            '(%s.conj() + 0).is_conj()' % x,
            x + '.conj().imag.resolve_neg()', x + '.conj_physical()', x + '.conj_physical().is_conj()',
            x + '.mT', x + '.mH', x + '.mH.is_conj()', x + '.H', x + '.adjoint()', 'torch.adjoint(%s)' % x,
            x + '[None].expand(2, 2, 3).mH', x + '[0].mH', x + '[0].H', x + '.new_tensor([1, 2])',
            'torch.view_as_real(%s)' % x, 'torch.view_as_real(%s.t())' % x, 'torch.view_as_real(%s[:, ::2])' % x,
            'torch.view_as_real(torch.tensor(1+2j))', 'torch.view_as_real(torch.ones(0, dtype=torch.complex64))',
            'torch.view_as_real(%s.conj())' % x, 'torch.view_as_real(torch.ones(2))',
            'torch.view_as_complex(torch.arange(8.).view(2, 2, 2))', 'torch.view_as_complex(torch.ones(2))',
            'torch.view_as_complex(torch.ones(2, 2, dtype=torch.float64))',
            'torch.view_as_complex(torch.ones(2, dtype=torch.float16))', 'torch.view_as_complex(torch.ones(2, 3))',
            'torch.view_as_complex(torch.ones(2, 2).t())', 'torch.view_as_complex(torch.ones(4)[::2])',
            'torch.view_as_complex(torch.ones(5)[1:].view(2, 2))',
            'torch.view_as_complex(torch.ones(6)[2:].view(2, 2))',
            'torch.view_as_complex(torch.ones(2, 2, dtype=torch.int64))', 'torch.view_as_complex(torch.tensor(1.))',
            'torch.view_as_complex(torch.ones(0, 2))', 'torch.view_as_complex(torch.ones(2, 0))',
            'torch.view_as_complex(torch.ones(1, 2).expand(3, 2))',
            'torch.view_as_complex(torch.ones(3, 4).view(3, 2, 2).transpose(0, 1))',
            'torch.tensor([1., 2.]).real', 'torch.tensor([1., 2.]).imag', 'torch.tensor([1, 2]).real',
            'torch.tensor([1., 2.]).conj()', 'torch.tensor([1., 2.]).is_conj()',
            'torch.tensor([1., 2.]).conj_physical()',
            'torch.real(%s)' % x, 'torch.imag(%s)' % x, 'torch.conj(%s)' % x, 'torch.resolve_conj(%s.conj())' % x,
            'torch.ones(2, dtype=torch.complex32).real', 'torch.ones(2, dtype=torch.complex32).conj()',
            'torch.view_as_real(torch.ones(2, dtype=torch.complex32))']


STRIDED = {c for c in _views() if not c.endswith(('is_conj()', 'is_neg()'))}


def _reductions_and_products():
    out = []
    for d in CX:
        m = M.format(d=d)
        out += [m + '.sum()', m + '.sum(0)', m + '.sum(1, keepdim=True)', m + '.sum((0, 1))', m + '.t().sum(1)',
                m + '.mean()', m + '.mean(0)', m + '.mean(1, keepdim=True)', m + '.conj().sum(0)',
                m + '.sum(dtype=torch.complex128)', 'torch.sum(%s, 1)' % m, m + '[:, ::2].sum(1)',
                m + ' @ %s.t()' % m, m + '.t() @ %s' % m, 'torch.mm(%s, %s.t().conj())' % (m, m),
                'torch.mm(%s.conj(), %s.t())' % (m, m), m + ' @ torch.tensor([1+1j, 2, -1j], dtype=torch.%s)' % d,
                'torch.matmul(%s.unsqueeze(0).expand(2, 2, 3), %s.t())' % (m, m),
                'torch.bmm(%s.unsqueeze(0), %s.t().unsqueeze(0))' % (m, m),
                'torch.complex(torch.arange(600.).view(20, 30), torch.ones(20, 30)).to(torch.%s)'
                ' @ torch.complex(torch.ones(30, 7), torch.arange(210.).view(30, 7) / 10).to(torch.%s)' % (d, d)]
    out += ['torch.zeros(0, dtype=torch.complex64).sum()', 'torch.zeros(0, 2, dtype=torch.complex64).sum(0)',
            'torch.full((5000,), 0.5+0.25j).sum()', 'torch.ones(2, dtype=torch.complex32).sum()',
            'torch.ones(2, dtype=torch.complex32).mean()',
            'torch.ones(2, 2, dtype=torch.complex32) @ torch.ones(2, 2, dtype=torch.complex32)',
            'torch.ones(2, 3, dtype=torch.complex64) @ torch.ones(3, dtype=torch.float32)',
            'torch.ones(2, 3, dtype=torch.complex64).mm(torch.ones(3, 2, dtype=torch.complex128))',
            'torch.ones(2, 2, dtype=torch.complex64).bmm(torch.ones(2, 2, dtype=torch.complex64))',
            'torch.tensor([1+2j]).max()', 'torch.tensor([1+2j]).max(0)', 'torch.tensor([1+2j]).argmax()',
            'torch.tensor([1+2j]).min()', 'torch.maximum(torch.tensor([1j]), torch.tensor([1j]))']
    return out


def _constructors():
    r, i = 'torch.tensor([1., -2.5, 0.])', 'torch.tensor([3., 0.5, -1.])'
    return ['torch.complex(%s, %s)' % (r, i), 'torch.complex(%s.double(), %s.double())' % (r, i),
            'torch.complex(%s.half(), %s.half())' % (r, i), 'torch.complex(torch.ones(2, 1), torch.zeros(3))',
            'torch.complex(torch.tensor(1.), torch.tensor(2.))', 'torch.complex(%s, %s.double())' % (r, i),
            'torch.complex(torch.tensor([1]), torch.tensor([2]))',
            'torch.complex(%s.bfloat16(), %s.bfloat16())' % (r, i),
            'torch.complex(torch.ones(2, dtype=torch.complex64), torch.ones(2, dtype=torch.complex64))',
            'torch.complex(%s, %s, out=torch.empty(3))' % (r, i),
            'torch.complex(%s, %s, out=torch.empty(3, dtype=torch.complex128))' % (r, i),
            'torch.complex(%s, %s, out=torch.empty(3, dtype=torch.complex64))' % (r, i),
            'torch.polar(%s.abs(), %s)' % (r, i), 'torch.polar(%s.abs().double(), %s.double())' % (r, i),
            'torch.polar(torch.ones(2, 1), torch.tensor([0., math.pi / 2, math.pi]))',
            'torch.polar(torch.tensor([1, 2]), torch.tensor([1, 2]))',
            'torch.polar(torch.ones(1), torch.ones(1, dtype=torch.float64))',
            'torch.polar(torch.ones(2), torch.ones(3))',
            'torch.polar(torch.ones(1, dtype=torch.float16), torch.ones(1, dtype=torch.float16))']


def _random():
    out = []
    for d in ['complex64', 'complex128', 'complex32']:
        out += ['torch.randn(5, dtype=torch.%s, generator=torch.Generator().manual_seed(3))' % d,
                'torch.randn(40, dtype=torch.%s, generator=torch.Generator().manual_seed(4))[::7]' % d,
                'torch.rand(5, dtype=torch.%s, generator=torch.Generator().manual_seed(5))' % d,
                'torch.empty(3, dtype=torch.%s).normal_(1, 2, generator=torch.Generator().manual_seed(6))' % d,
                'torch.empty(3, dtype=torch.%s).uniform_(-1, 2, generator=torch.Generator().manual_seed(7))' % d,
                'torch.empty(4, 3, dtype=torch.%s).t().normal_(generator=torch.Generator().manual_seed(8))' % d]
    out += ['torch.empty(3, dtype=torch.complex64).exponential_()', 'torch.empty(3, dtype=torch.complex64).random_()',
            'torch.randint(3, (2,), dtype=torch.complex64)', 'torch.empty(3, dtype=torch.complex64).bernoulli_()',
            'torch.randperm(3, dtype=torch.complex64)']
    return out


def _autograd():
    # complex128: single precision would amplify one-ulp differences of libm through cancellations
    x = 'torch.tensor([1+2j, 3-1j, -0.5+0.25j], dtype=torch.complex128, requires_grad=True)'

    def grad(body):
        return '(lambda x: torch.autograd.grad(%s, x)[0])(%s)' % (body, x)

    def real_grad(body, values='1., -2.'):
        return '(lambda r: torch.autograd.grad(%s, r)[0])(torch.tensor([%s], requires_grad=True))' % (body, values)
    c = 'torch.tensor([1+2j, 0.5j], dtype=torch.complex128, requires_grad=True)'
    return [grad('(x * x.conj()).real.sum()'), grad('x.imag.sum()'), grad('x.real.sum()'), grad('x.abs().sum()'),
            grad('x.angle().sum()'), grad('(x * x).abs().sum()'), grad('(x / (x + 2)).imag.sum()'),
            grad('x.exp().real.sum()'), grad('x.log().imag.sum()'), grad('x.sqrt().abs().sum()'),
            grad('x.sin().real.sum()'), grad('x.cos().imag.sum()'), grad('x.tanh().abs().sum()'),
            grad('x.sigmoid().real.sum()'), grad('(x ** 2).imag.sum()'), grad('(x ** x).real.sum()'),
            grad('x.conj().imag.sum()'), grad('torch.view_as_real(x).sum()'), grad('(x * (2-1j)).real.sum()'),
            grad('torch.add(x, x, alpha=1j).real.sum()'), grad('x.conj_physical().imag.sum()'),
            grad('x.sum().abs()'), grad('x.mean().imag'), grad('(x.view(3, 1) @ x.view(1, 3)).real.sum()'),
            grad('x.to(torch.complex128).imag.sum()'),
            real_grad('(r * (1+2j)).abs().sum()'), real_grad('torch.complex(r, 2 * r).imag.sum()'),
            real_grad('torch.polar(r, r).real.sum()', '1., 2.'),
            real_grad('r.to(torch.complex64).imag.sum() + r.sum()', '1., 2.'),
            '(lambda x: (x * 2).sum().backward())(%s)' % x,  # PyTorch 1.13 lets a complex scalar seed backward
            '(lambda x: x.abs().sum().backward())(%s)' % x,
            'torch.zeros(2, dtype=torch.complex64, requires_grad=True)',
            'torch.zeros(2, dtype=torch.int64, requires_grad=True)',
            '(lambda x: x.real.mul_(2))(%s)' % x,
            'torch.autograd.gradcheck(lambda a: (a * a.conj()).abs(), (%s,))' % c,
            'torch.autograd.gradgradcheck(lambda a: a.exp() * a, (%s,))' % c]


def _misc():
    return ['torch.tensor([1+2j]) < 0', 'torch.tensor([1+2j]).relu()', 'torch.tensor([1+2j]) // 1',
            'torch.tensor([1+2j]) % 2', 'torch.ones(2).add_(1j)', 'torch.ones(2).add(1, alpha=1j)',
            'torch.ones(2, dtype=torch.long).add(1, alpha=1j)', 'torch.ones(2, dtype=torch.cfloat).add(1, alpha=1j)',
            'torch.ones(2, dtype=torch.cfloat).add_(torch.ones(2, dtype=torch.cdouble))',
            'torch.ones(2, dtype=torch.complex32) / torch.ones(2, dtype=torch.complex32)',
            'torch.ones(2, dtype=torch.complex32).exp()', 'torch.ones(2, dtype=torch.complex32) ** 2',
            'torch.tensor([1+2j]).conj().numpy()', 'torch.zeros(1, dtype=torch.complex32).numpy()',
            'torch.empty(2, 3, dtype=torch.complex64, device="meta").abs().dtype',
            'torch.view_as_real(torch.empty(2, 3, dtype=torch.complex64, device="meta")).shape',
            'torch.zeros(0, 3, dtype=torch.complex64) * 1j', 'torch.zeros(0, 3, dtype=torch.complex64).abs()',
            'torch.tensor(1+1j) * torch.tensor(1+1j)', 'torch.tensor([[1j], [2]]) * torch.tensor([1, 1j, -1])',
            'torch.complex(torch.arange(12.), -torch.arange(12.)).view(3, 4)[:, ::2].exp()',
            'torch.complex(torch.arange(12.), -torch.arange(12.)).view(3, 4).t() * 2']


def _ternary_and_sign():
    out = []
    for d in CX:
        a, b = A.format(d=d), B.format(d=d)
        c = 'torch.tensor([0.5+0.5j, 2j, -1, 0.25-3j], dtype=torch.{d})'.format(d=d)
        out += ['torch.addcmul(%s, %s, %s)' % (a, b, c), 'torch.addcmul(%s, %s, %s, value=2-1j)' % (a, b, c),
                'torch.addcdiv(%s, %s, %s, value=0.5)' % (a, b, c), 'torch.addcdiv(%s, %s, %s, value=1j)' % (a, b, c),
                'torch.addcmul(%s, torch.tensor([1., 2, 3, 4]), %s)' % (a, c), '%s.addcmul_(%s, %s)' % (a, b, c),
                'torch.addcmul(%s.view(2, 2).t(), %s.view(2, 2), %s.view(2, 2))' % (a, b, c),
                'torch.lerp(%s, %s, 0.3)' % (a, b), 'torch.lerp(%s, %s, 0.7)' % (a, b),
                'torch.lerp(%s, %s, 0.7+0.1j)' % (a, b), 'torch.lerp(%s, %s, 0.2j)' % (a, b),
                'torch.lerp(%s, %s, %s)' % (a, b, c), '%s.lerp_(%s, 0.5)' % (a, b),
                'torch.sign(%s)' % a, '%s.sgn()' % a, 'torch.sgn(%s.view(2, 2).t())' % a,
                '(lambda t: torch.autograd.grad((torch.sgn(t) * (2-1j)).real.sum(), [t])[0])(%s.requires_grad_())' % a,
                '(lambda t: torch.autograd.grad(torch.atan(t).abs().sum(), [t])[0])(%s.requires_grad_())' % a]
    out += ['torch.lerp(torch.ones(2), torch.zeros(2), 0.5j)', 'torch.addcdiv(torch.ones(2, dtype=torch.complex64), '
            'torch.ones(2, dtype=torch.int64), torch.ones(2, dtype=torch.int64))']
    return out


def _moments_and_norms():
    out = []
    for d in CX:
        m = 'torch.tensor([[1+2j, 3-1j, 0.5j, -2+0.25j], [0.1-0.3j, 2+2j, -1-1j, 4+0j]], dtype=torch.{d})'.format(d=d)
        out += [m + '.var()', m + '.std()', m + '.var(1)', m + '.std(0, keepdim=True)', 'torch.var_mean(%s, 1)' % m,
                'torch.std_mean(%s)' % m, m + '.var(1, correction=0)', 'torch.var(%s.t(), 0, unbiased=False)' % m,
                m + '.var(dim=(0, 1))', 'torch.var(%s, 1, out=torch.empty(2))' % m, m + '.conj().std(1)',
                'torch.linalg.vector_norm(%s)' % m, 'torch.linalg.vector_norm(%s, 1, dim=1)' % m,
                "torch.linalg.vector_norm(%s, float('inf'))" % m, "torch.linalg.vector_norm(%s, -float('inf'), dim=0)" % m,
                'torch.linalg.vector_norm(%s, 0)' % m, 'torch.linalg.vector_norm(%s, 3.5, dim=(0, 1))' % m,
                'torch.linalg.vector_norm(%s, dtype=torch.complex128)' % m, 'torch.linalg.norm(%s)' % m,
                'torch.linalg.norm(%s, dim=1)' % m, 'torch.linalg.matrix_norm(%s)' % m, 'torch.linalg.matrix_norm(%s, 1)' % m,
                "torch.linalg.matrix_norm(%s, float('inf'))" % m, m + '.norm()', m + '.norm(1)', m + '.norm(dim=1)',
                "torch.norm(%s, p='fro')" % m, "%s.norm(p=float('inf'), dim=0)" % m, m + '.t().norm()',
                '(lambda t: torch.autograd.grad(t.var(1).sum(), [t])[0])(%s.requires_grad_())' % m,
                '(lambda t: torch.autograd.grad(torch.linalg.vector_norm(t), [t])[0])(%s.requires_grad_())' % m,
                '(lambda t: torch.autograd.grad(t.norm(3), [t])[0])(%s.requires_grad_())' % m]
    out += ['torch.tensor(1+1j).var()', 'torch.ones(0, dtype=torch.complex64).var()',
            'torch.ones(2, 3, dtype=torch.complex32).var()', 'torch.tensor([1+1j, 2]).var_mean()',
            "torch.linalg.vector_norm(torch.ones(0, dtype=torch.complex64), float('inf'))",
            'torch.linalg.vector_norm(torch.tensor([1j]), dtype=torch.float64)', 'torch.tensor([3+4j]).norm(dtype=torch.float32)']
    return out


def _products_scans_and_checks():
    out = []
    for d in CX:
        m = 'torch.tensor([[1+1j, 2, -0.5j], [3, 4j, 1-1j]], dtype=torch.{d})'.format(d=d)
        k = 'torch.tensor([[1j, 2], [0.5, -1+1j], [2-1j, 3j]], dtype=torch.{d})'.format(d=d)
        sq = 'torch.tensor([[1+0j, 2j], [3, -1j]], dtype=torch.{d})'.format(d=d)
        v = 'torch.tensor([1+2j, -1j, 0.5], dtype=torch.{d})'.format(d=d)
        w = 'torch.tensor([2-1j, 1j], dtype=torch.{d})'.format(d=d)
        out += ['torch.addmm(%s, %s, %s)' % (sq, m, k), 'torch.addmm(%s, %s, %s, beta=0.5, alpha=1j)' % (sq, m, k),
                'torch.addmm(%s[0], %s, %s, beta=2)' % (sq, m, k), '%s.addmm_(%s, %s, alpha=-1) + 0' % (sq, m, k),  # + 0: the sign of a zero is BLAS's
                "torch.addmm(torch.full((2, 2), complex(float('nan'), 0), dtype=torch.%s), %s, %s, beta=0)" % (d, m, k),
                'torch.addmv(%s, %s, %s, alpha=2-1j)' % (w, m, v), 'torch.addr(%s, %s, %s, beta=1j)' % (sq, w, w),
                'torch.addr(%s, %s, torch.tensor([1., 2.]))' % (sq, w), 'torch.addbmm(%s, %s[None], %s[None])' % (sq, m, k),
                'torch.baddbmm(%s[None], %s[None], %s[None], alpha=0.5j)' % (sq, m, k),
                'torch.addmm(%s, %s.t(), %s.t())' % (sq, k, m),
                '(lambda t: torch.autograd.grad(torch.addmm(%s, t, %s, alpha=1j).abs().sum(), [t])[0])(%s.requires_grad_())' % (sq, k, m),
                '(lambda t: torch.autograd.grad(torch.addmv(%s, %s, t, alpha=2-1j, beta=1j).abs().sum(), [t])[0])(%s.requires_grad_())' % (w, m, v),
                '(lambda t: torch.autograd.grad(torch.addr(%s, t, %s, alpha=1j).real.sum(), [t])[0])(%s.requires_grad_())' % (sq, w, w),
                '(lambda t: torch.autograd.grad(torch.baddbmm(%s[None], %s[None], t, beta=1j).abs().sum(), [t])[0])(%s[None].requires_grad_())' % (sq, m, k),
                '(lambda t: torch.autograd.grad(torch.addbmm(t, %s[None], %s[None], beta=1j).abs().sum(), [t])[0])(%s.requires_grad_())' % (m, k, sq),
                sq + '.trace()', m + '.cumsum(1)', m + '.cumsum(0)', m + '.t().cumsum(1)', m + '.cumprod(1)',
                m + '.cumprod(0)', v + '.cumprod(0)', 'torch.cumsum(%s, 0, dtype=torch.complex128)' % v,
                v + '.prod()', m + '.prod(1)', m + '.prod(0, keepdim=True)', m + '.prod()', m + '.t().prod(0)',
                'torch.prod(%s, 1, dtype=torch.complex128)' % m, 'torch.ones(0, 3, dtype=torch.%s).prod(0)' % d,
                '(lambda t: torch.autograd.grad(t.prod(1).real.sum(), [t])[0])(%s.requires_grad_())' % m,
                '(lambda t: torch.autograd.grad(t.cumprod(1).imag.sum(), [t])[0])(%s.requires_grad_())' % m,
                v + '.isreal()', 'torch.isreal(torch.tensor([1+0j, 1j, -0j], dtype=torch.%s))' % d,
                'torch.isclose(%s, %s + 1e-9j)' % (v, v), 'torch.isclose(%s, %s + 1j)' % (v, v),
                'torch.allclose(%s, %s * (1 + 1e-9j))' % (v, v), 'torch.allclose(%s, %s.conj())' % (v, v),
                "torch.isclose(torch.tensor([complex(float('nan'), 1), 1j], dtype=torch.%s), "
                "torch.tensor([complex(1, float('nan')), 1j], dtype=torch.%s), equal_nan=True)" % (d, d),
                v + '.nansum()', 'torch.logsumexp(%s, 0)' % v, 'torch.logical_not(%s)' % v,
                'torch.logical_and(%s, %s.conj() * 0)' % (v, v), 'torch.logical_or(%s, torch.zeros(3))' % v,
                "torch.logical_xor(%s, torch.tensor([0j, 1j, 0], dtype=torch.%s))" % (v, d),
                '%s.logical_not_()' % v]
    out += ['torch.prod(torch.tensor([1+1j], dtype=torch.complex32))']
    return out


CASES = _facts() + _creation() + _conversions() + _arithmetic() + _unary() + _views() + _reductions_and_products() + \
    _constructors() + _random() + _autograd() + _misc() + _ternary_and_sign() + _moments_and_norms() + \
    _products_scans_and_checks()

# Results whose error grows with their magnitude (large sums and products; pow and the transcendental
# functions of several libm calls): compared within their dtype's ulp of the largest value.
RANGED = ('@', '.sum(', '.mean(', 'sum()', '**', 'torch.pow', '.exp', '.log', '.sqrt', '.sin', '.cos', '.tanh',
          'sigmoid', 'polar', 'linspace', 'autograd.grad', 'norm', '.var', '.std', 'var_mean', 'std_mean', 'addmm',
          'addmv', 'addbmm', 'baddbmm', '.prod(', 'cumprod', 'cumsum')

SUITE = Suite('complex', CASES, strided=STRIDED, ranged=lambda expr: any(r in expr for r in RANGED))
RECORDED, RUNNER, reference_request = SUITE.recorded, SUITE.runner, SUITE.reference_request
reports = SUITE.fixture()


@pytest.mark.parametrize('expr', SUITE.expressions)
def test_matches_reference(reports, expr):
    SUITE.check(reports, expr)
