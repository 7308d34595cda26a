"""DIFFERENTIAL TEST AGAINST THE REFERENCE PYTORCH (1.13.1).

Every expression in EXPRESSIONS below is evaluated by this project's torch (in a subprocess, so that
a crash shows up as a failed test instead of killing pytest) and compared with what the reference
PyTorch gave for it, recorded in tests/data/reference/reference_diff.json by
``tools/record_reference`` (which runs RUNNER below under ``/work/shared/tools/reftorch``). Each side
reports, as JSON, the result's kind, dtype, shape and ``tolist()`` values, or the exception's type
name; the two reports must agree (floats with a tolerance, NaN equal to NaN, float16/bfloat16/float32
values exactly representable in their dtype).

The reference itself is never needed here: an expression without a recorded result fails, telling
to run ``tools/record_reference``. The recorder imports this file by path, so nothing at module level
may import this project's torch.
"""

import pytest

from differential import Suite

DTYPES = ['bool', 'uint8', 'int8', 'int16', 'int32', 'int64', 'float16', 'bfloat16', 'float32', 'float64']
FLOATS = ['float16', 'bfloat16', 'float32', 'float64']
INTS = ['uint8', 'int8', 'int16', 'int32', 'int64']

# Operands per dtype: values every dtype can hold, with a zero so that division shows inf/nan.
A = 'torch.tensor([5, 0, 3, 1, 7, 2]).to(torch.{})'
B = 'torch.tensor([2, 1, 1, 0, 3, 1]).to(torch.{})'
# Non-contiguous operands: a transposed matrix and a strided slice.
AT = 'torch.tensor([[5, 0], [3, 1], [7, 2]]).to(torch.{}).t()'
BS = 'torch.tensor([2, 9, 1, 9, 1, 9]).to(torch.{})[::2]'
F = 'torch.tensor([-2.5, -1.0, -0.25, 0.0, 0.5, 1.0, 2.75, 9.0]).to(torch.{})'


def _via_float(expr, dtype, applies=True):
    """The reference's CPU build lacks many float16 kernels (exp, relu, mm, ...; eye for bfloat16)
    that this project has. For those, the reference computes the same expression in float32 and
    rounds the result to the low-precision dtype, which is what a correctly rounded kernel gives (the
    operands used here are exact in every dtype)."""
    if not applies or dtype not in ('float16', 'bfloat16'):
        return expr
    return (expr, '(%s).to(torch.%s)' % (expr.replace('torch.' + dtype, 'torch.float32'), dtype))


def _promotion():
    out = []
    for da in DTYPES:
        for db in DTYPES:
            a, b = A.format(da), B.format(db)
            out += ['%s + %s' % (a, b), '%s * %s' % (a, b), '%s / %s' % (a, b), '%s < %s' % (a, b),
                    '%s == %s' % (a, b)]
            out += ['%s - %s' % (AT.format(da), BS.format(db))]
    for da in DTYPES:
        for db in ['bool', 'uint8', 'int8', 'int64', 'float16', 'bfloat16', 'float32']:
            a, b = A.format(da), B.format(db)
            out += ['%s // %s' % (a, '(%s + 1)' % b), '%s %% %s' % (a, '(%s + 1)' % b),
                    'torch.maximum(%s, %s)' % (a, b), '%s >= %s' % (AT.format(da), BS.format(db))]
    return out


def _scalars():
    out = []
    for d in DTYPES:
        a = A.format(d)
        for s in ['2', '2.5', 'True', '-3', '300', '0.1']:
            out += ['%s + %s' % (a, s), '%s * %s' % (s, a), '%s / %s' % (a, s), '%s == %s' % (a, s),
                    '%s > %s' % (s, a)]
        out += ['2 - %s' % a, '%s - 2' % a, '2.5 - %s' % a, '%s // 2' % a, '7 // (%s + 1)' % a, '%s %% 3' % a,
                '%s %% -3' % a, '-7 %% (%s + 1)' % a, '%s ** 2' % a, '2 ** %s' % a, '%s ** 0.5' % a,
                '1.5 ** %s' % a, '%s / 0' % a, '%s // 2.5' % a, '%s %% 2.5' % a, '%s - True' % a]
    return out


def _zero_dim():
    out = []
    for d in DTYPES:
        for z in ['torch.tensor(1000)', 'torch.tensor(1.5)', 'torch.tensor(True)', 'torch.tensor(3, dtype=torch.int8)',
                  'torch.tensor(2.5, dtype=torch.float64)', 'torch.tensor(7, dtype=torch.uint8)']:
            out += ['%s + %s' % (A.format(d), z), '%s * %s' % (z, A.format(d)), '%s < %s' % (A.format(d), z)]
        out += ['torch.tensor(3).to(torch.{0}) + torch.tensor(4, dtype=torch.int16)'.format(d),
                'torch.tensor(3).to(torch.{0}) * 2.5'.format(d),
                'torch.tensor(3).to(torch.{0}) + torch.tensor([1], dtype=torch.uint8)'.format(d)]
    return out


def _unary():
    out = []
    for d in DTYPES:
        x = '(%s)' % F.format(d)
        for op in ['neg', 'abs', 'exp', 'log', 'sqrt', 'sin', 'cos', 'tanh', 'sigmoid', 'relu']:
            out.append(_via_float('%s.%s()' % (x, op), d, op not in ('neg', 'abs') and d == 'float16'))
        out += ['-%s' % x, 'abs(%s)' % x, _via_float('torch.exp(%s.view(2, 4).t())' % x, d, d == 'float16'),
                _via_float('torch.relu(%s[1::3])' % x, d, d == 'float16')]
    out += ['torch.tensor([1e30, -1e30, 88.0, 89.0]).exp()', 'torch.tensor([0.0, -1.0]).log()',
            'torch.tensor([-1.0, 4.0]).sqrt()', 'torch.tensor([-100.0, 100.0, 0.0]).sigmoid()',
            'torch.tensor([-128, 127], dtype=torch.int8).neg()', 'torch.tensor([-128], dtype=torch.int8).abs()',
            'torch.tensor([0, 255], dtype=torch.uint8).neg()', 'torch.tensor([float("nan"), -1.0]).relu()',
            'torch.tensor([float("inf"), float("-inf"), float("nan")]).tanh()',
            'torch.tensor([60000.0], dtype=torch.float16) * 2', 'torch.tensor([1e38], dtype=torch.bfloat16) * 10']
    return out


def _reductions():
    out = []
    for d in DTYPES:
        m = 'torch.tensor([[5, 0, 3], [1, 7, 2], [7, 1, 1], [0, 0, 6]]).to(torch.{})'.format(d)
        mt = '%s.t()' % m
        out += ['%s.sum()' % m, '%s.sum(0)' % m, '%s.sum(1, keepdim=True)' % m, '%s.sum((0, 1))' % m,
                '%s.sum(-1)' % mt, '%s.sum(dim=[1, 0], keepdim=True)' % mt, '%s.sum(dtype=torch.float64)' % m,
                '%s.mean()' % m, '%s.mean(0)' % m, '%s.mean(1, keepdim=True)' % mt,
                '%s.mean(dtype=torch.float32)' % m,
                '%s.max()' % m, '%s.min()' % mt, '%s.max(0)' % m, '%s.max(1, keepdim=True)' % m,
                '%s.min(dim=0)' % mt, '%s.min(-1, True)' % m,
                'torch.max(%s, 0)' % m,
                '%s[:, ::2].sum(1)' % m, '%s[1:3].max(1)' % mt, '%s.sum(1)' % ('torch.zeros(0, 3).to(torch.%s)' % d),
                'torch.tensor(4).to(torch.{}).sum()'.format(d), 'torch.tensor(4).to(torch.{}).max(0)'.format(d)]
        if d != 'bool':  # the reference has no bool argmax; tests/python/test_tensor_reductions.py covers ours
            out += ['%s.argmax()' % m, '%s.argmax(0)' % m, '%s.argmax(1, keepdim=True)' % mt, '%s.argmin()' % mt,
                    '%s.argmin(dim=1)' % m, 'torch.tensor(4).to(torch.{}).argmax()'.format(d)]
    out += ['torch.tensor([1.0, float("nan"), 3.0]).max()', 'torch.tensor([1.0, float("nan"), 3.0]).min(0)',
            'torch.tensor([1.0, float("nan"), 3.0]).argmax()', 'torch.tensor([[1.0, float("nan")], [2, 1]]).max(1)',
            'torch.tensor([3, 1, 3, 1]).argmax()', 'torch.tensor([3, 1, 3, 1]).argmin()',
            'torch.tensor([[2, 2], [2, 2]]).max(1)', 'torch.ones(1000, dtype=torch.float16).sum()',
            'torch.arange(100, dtype=torch.bfloat16).sum()', 'torch.arange(100, dtype=torch.bfloat16).mean()',
            'torch.full((3000,), 0.1, dtype=torch.float16).sum()',
            'torch.full((3000,), 0.1, dtype=torch.float16).mean()',
            'torch.full((2049,), 3.0, dtype=torch.float16).mean()',
            'torch.tensor([100, 100], dtype=torch.int8).sum()', 'torch.tensor([True, True, False]).sum()',
            'torch.zeros(0).sum()', 'torch.zeros(2, 0).sum(1)', 'torch.zeros(2, 0).mean(0)',
            'torch.zeros(0, 3).max(1)', 'torch.zeros(0, 3).argmax(1)', 'torch.arange(24.).view(2, 3, 4).sum((0, 2))',
            'torch.arange(24.).view(2, 3, 4).permute(2, 0, 1).mean((-1, 0), keepdim=True)',
            'torch.arange(24).view(2, 3, 4).max(1)', 'torch.arange(24).view(2, 3, 4).argmax(keepdim=True)',
            'torch.arange(24).view(2, 3, 4).argmax(2, True)', 'torch.arange(6.).sum(0, True)',
            'torch.arange(6).sum(())', 'torch.arange(6.).view(2, 3).sum([])', 'torch.arange(6.).mean(dim=())',
            'torch.tensor([2**62, 2**62]).sum()', 'torch.arange(6).view(2, 3).sum(dtype=torch.int8)']
    return out


def _views_indexing():
    x = 'torch.arange(24).view(2, 3, 4)'
    return [
        'torch.arange(12).view(3, 4)[:, 1::2].sum(0)', x + '[1]', x + '[-1, -2]', x + '[:, 1]', x + '[..., 2]',
        x + '[None]', x + '[:, None, 1]', x + '[..., None]', x + '[1, ..., 3]', x + '[::2]',
        x + '[:, ::2, 1::2]', x + '[:, -2:, :-1]', x + '[5:]', x + '[:, 10:20]', x + '[0, 0, 0]', x + '[()]',
        x + '[1][2][3]', x + '[:, 1:2].squeeze()', x + '[0].t()', x + '.transpose(0, 2)', x + '.transpose(-1, -3)[1]',
        x + '.permute(2, 0, 1)', x + '.permute(2, 0, 1).contiguous().view(4, 6)', x + '.view(-1)',
        x + '.view(6, -1)', x + '.reshape(4, 6)', x + '.transpose(1, 2).reshape(-1)', x + '.flatten()',
        x + '.flatten(1)', x + '.flatten(0, 1)', x + '.flatten(-2, -1)', x + '.unsqueeze(0).shape',
        x + '.unsqueeze(-1).shape', x + '.unsqueeze(3).stride()', x + '[:, :1].squeeze(1)', x + '.squeeze(0)',
        'torch.arange(3).view(3, 1).expand(3, 4)', 'torch.arange(3).view(3, 1).expand(2, -1, 5)',
        'torch.arange(3).expand(2, 3).stride()', 'torch.tensor(5).expand(3)', x + '.T',
        'torch.arange(6).view(2, 3).t().contiguous().stride()', 'torch.arange(6).view(2, 3).t().is_contiguous()',
        'torch.arange(6).view(2, 3).t().reshape(6)', 'torch.arange(6).view(2, 3)[:, 1].is_contiguous()',
        'torch.arange(6)[1:4].view(3, 1)', 'torch.arange(24).view(2, 3, 4)[:, :, ::2].reshape(12)',
        'torch.arange(24).view(2, 3, 4)[:, 1:, :].view(2, 8)', 'torch.arange(24).view(4, 6)[::2].view(2, 2, 3)',
        'torch.ones(2, 1, 3, 1).squeeze().shape', 'torch.ones(2, 1, 3, 1).squeeze(-1).shape',
        'torch.ones(2, 1, 3, 1).squeeze(2).shape', 'torch.tensor(7).view(1, 1)', 'torch.tensor(7).reshape(-1)',
        'torch.tensor(7).flatten()', 'torch.tensor(7).unsqueeze(0)', 'torch.tensor(7).squeeze()',
        'torch.tensor(7).t()', 'torch.zeros(0, 4).view(-1, 2, 2).shape', 'torch.zeros(3, 0).t().shape',
        'torch.arange(5).view(5)[torch.tensor(2)]', 'torch.arange(10)[2:8:3]', 'torch.arange(10)[-3:]',
        'torch.arange(10)[:-7]', 'torch.arange(10)[-100:100]', 'torch.arange(10)[7:3]', 'torch.arange(10)[::20]',
        x + '.view(3, 8)', x + '.view(2, 12).stride()', 'torch.arange(6).view(3, 2).t().view(6)',
        x + '.transpose(0, 1).view(3, 8)', x + '.view(2, 3, 2, 2)', x + '[0, 1:, 2:]', x + '.size(-1)',
        x + '.size()', x + '.stride(1)', x + '.storage_offset()', x + '[1, 1:].storage_offset()',
        x + '.dim()', x + '.numel()', x + '[:, 1].stride()', x + '.T.shape', 'len(%s)' % x,
        'torch.arange(4).view(2, 2).expand(3, 2, 2).contiguous()', 'torch.arange(6).view(2, 3).view(3, 2).t()',
        x + '[0][None, ..., None].shape', x + '[..., 1:3, :]', x + '[:, :, :, None].shape',
    ]


def _factories():
    out = []
    for d in DTYPES:
        out += ['torch.zeros(2, 3, dtype=torch.{})'.format(d), 'torch.ones((2,), dtype=torch.{})'.format(d),
                'torch.full((2, 2), 3, dtype=torch.{})'.format(d),
                _via_float('torch.eye(3, dtype=torch.{})'.format(d), d, d == 'bfloat16'),
                'torch.tensor([[1, 2], [3, 4]], dtype=torch.{})'.format(d),
                'torch.tensor(2.7, dtype=torch.{})'.format(d),
                'torch.tensor([0.1, 1.9, -2.5], dtype=torch.{})'.format(d),
                'torch.zeros_like(torch.ones(2, 3), dtype=torch.{})'.format(d),
                'torch.full_like(torch.ones(2, dtype=torch.{}), 7)'.format(d),
                'torch.ones_like(torch.ones(2, 2, dtype=torch.{}).t())'.format(d)]
        out += ['%s.to(torch.%s)' % (F.format('float64'), d), '%s.to(torch.%s)' % (A.format(d), 'float16'),
                'torch.tensor([300, -1, 128, 70000]).to(torch.%s)' % d]
    for d in ['uint8', 'int8', 'int16', 'int32', 'int64', 'float16', 'bfloat16', 'float32', 'float64']:
        out += ['torch.arange(5, dtype=torch.{})'.format(d), 'torch.arange(1, 10, 3, dtype=torch.{})'.format(d),
                'torch.linspace(0, 10, 5, dtype=torch.{})'.format(d),
                'torch.linspace(-1, 1, 7, dtype=torch.{})'.format(d),
                'torch.linspace(0, 100, 9, dtype=torch.{})'.format(d),
                'torch.arange(0, 5, 0.5, dtype=torch.{})'.format(d),
                'torch.range(1, 10, 3, dtype=torch.{})'.format(d), 'torch.range(0, 4, dtype=torch.{})'.format(d),
                'torch.logspace(0, 2, 3, dtype=torch.{})'.format(d),
                'torch.logspace(0.5, 1.75, 6, base=2, dtype=torch.{})'.format(d),
                'torch.logspace(-1, 2.25, 9, dtype=torch.{})'.format(d)]
    out += ['torch.range(1, 4)', 'torch.range(0, 1, 0.1)', 'torch.range(0, 1, 0.3)', 'torch.range(5, 1, -2)',
            'torch.range(0.5, 3.2, 0.7, dtype=torch.float64)', 'torch.range(-3, 3, 1.5, dtype=torch.int64)',
            'torch.range(1, 0)', 'torch.range(0, 1, 0)', 'torch.range(0, 1, 0.1, dtype=torch.int32)',
            "torch.range(0, float('inf'))", 'torch.range(1, 4, dtype=torch.bool)',
            'torch.range(1, 4, dtype=torch.float16)', 'torch.range(1, 4, requires_grad=True).requires_grad',
            'torch.range(0, 3, device="meta").shape', 'torch.range(0, 2 ** 40, 2 ** 38, dtype=torch.int64)',
            'torch.logspace(0, 2, 5)', 'torch.logspace(0, 2, 5, 2)', 'torch.logspace(start=0, end=2, steps=5, base=3.0)',
            'torch.logspace(-1, 1, 1)', 'torch.logspace(0.3, 1, 1)', 'torch.logspace(0, 1, 0)',
            'torch.logspace(10, -10, 21)', 'torch.logspace(0, 1, 100)', 'torch.logspace(0.1, 0.7, 7)',
            'torch.logspace(-0.3, 2.9, 8, base=7.5, dtype=torch.float64)', 'torch.logspace(0, 3, 4, dtype=torch.int8)',
            'torch.logspace(0, 1, 3, dtype=torch.bool)', 'torch.logspace(0, 1, -1)',
            'torch.logspace(0, 1, 3, dtype=torch.float16)', 'torch.logspace(0, 1, 3, device="meta").shape',
            'torch.logspace(0, 1, 3, requires_grad=True).requires_grad']
    out += [
        'torch.tensor([1, 2])', 'torch.tensor([1, 2.0])', 'torch.tensor([True, False])', 'torch.tensor([True, 2])',
        'torch.tensor(3)', 'torch.tensor(3.5)', 'torch.tensor(False)', 'torch.tensor([])', 'torch.tensor([[], []])',
        'torch.tensor(((1, 2), (3, 4)))', 'torch.tensor([[1, 2], [3, 4.5]])', 'torch.tensor([2**40, -3])',
        'torch.tensor([[True], [False]])', 'torch.tensor([1, 2], dtype=torch.float64)',
        'torch.tensor([-1.5, 2.5]).long()',
        'torch.arange(5)', 'torch.arange(2, 8)', 'torch.arange(0, 1, 0.1)', 'torch.arange(1, 2.5, 0.5)',
        'torch.arange(10, 0, -3)', 'torch.arange(-5, 5, 3)', 'torch.arange(0.0, 1.0, 0.3)', 'torch.arange(5.)',
        'torch.arange(0, -1, -0.25)', 'torch.arange(3, 3)', 'torch.arange(1, 4, 1.5)', 'torch.arange(0, 10, 3.3)',
        'torch.linspace(0, 1, 5)', 'torch.linspace(0, 1, 1)', 'torch.linspace(3, 3, 0)', 'torch.linspace(1, 0, 6)',
        'torch.linspace(-2.5, 7.25, 11)', 'torch.linspace(0, 1, 3, dtype=torch.float64)', 'torch.linspace(0, 1, 2)',
        'torch.linspace(0, 9, 4, dtype=torch.int64)', 'torch.linspace(0.5, 10.5, 6, dtype=torch.int32)',
        'torch.linspace(-5, 5, 4, dtype=torch.int8)', 'torch.linspace(0, 1, 100)', 'torch.linspace(10, -10, 21)',
        'torch.eye(2, 3)', 'torch.eye(3, 2)', 'torch.eye(0)', 'torch.eye(1)', 'torch.full((2,), True)',
        'torch.full((2,), 7)', 'torch.full((2,), 7.5)', 'torch.full((), 2)', 'torch.zeros(())', 'torch.ones(0, 2)',
        'torch.zeros(2, 3).shape', 'torch.empty(2, 3).shape', 'torch.empty(0).dtype', 'torch.ones([2, 3]).dtype',
        'torch.zeros(torch.Size([2, 1]))', 'torch.tensor([1.5, 2.5]).int()', 'torch.tensor([1.5, 0.0]).bool()',
        'torch.tensor([1, 0, 2]).bool()', 'torch.tensor([True, False]).float()', 'torch.tensor([3, 4]).double()',
        'torch.tensor([0.1, 0.2, 0.3]).half()', 'torch.tensor([0.1, 0.2, 0.3]).bfloat16()',
        'torch.tensor([0.1, 0.2], dtype=torch.float16).float()', 'torch.tensor([1e10, -1e10]).half()',
        'torch.tensor([65519.0, 65520.0]).half()', 'torch.tensor([1.0, 257.0, 3.5e38]).bfloat16()',
        'torch.tensor([float("nan"), float("inf")]).half()', 'torch.tensor([2.5, 3.5, -2.5]).to(torch.int32)',
        'torch.tensor([255, 256, -1]).to(torch.uint8)', 'torch.tensor([1, 2]).to(torch.float32).dtype',
        'torch.tensor([0.1], dtype=torch.bfloat16).item()', 'torch.tensor([0.1], dtype=torch.float16).item()',
        'torch.tensor(3.3, dtype=torch.float32).item()', 'torch.tensor([True]).item()', 'torch.tensor([[7]]).item()',
        'torch.tensor(5, dtype=torch.uint8).tolist()',
    ]
    return out


def _matmul():
    out = []
    for d in ['float32', 'float64', 'int64', 'int32', 'float16', 'bfloat16', 'uint8']:
        m = 'torch.arange(6).view(2, 3).to(torch.{})'.format(d)
        n = 'torch.arange(12).view(3, 4).to(torch.{})'.format(d)
        out += [_via_float(e, d, d == 'float16') for e in [
                '%s @ %s' % (m, n), 'torch.mm(%s, %s)' % (m, n), '%s.t() @ %s' % (n, m.replace('(2, 3)', '(3, 2)')),
                'torch.matmul(%s, %s[:, 1])' % (m, n), '%s[1] @ %s' % (m, n),
                '%s[0] @ %s[1]' % (m, m), 'torch.arange(24).view(2, 3, 4).to(torch.{}) @ {}.t()'.format(d, n),
                'torch.arange(12).view(3, 4).to(torch.{0}) @ torch.arange(24).view(2, 4, 3).to(torch.{0})'.format(d)]]
    out += ['torch.ones(2, 0) @ torch.ones(0, 3)', 'torch.ones(0, 2) @ torch.ones(2, 3)',
            'torch.ones(2, 3) @ torch.ones(4, 3)', 'torch.ones(3) @ torch.ones(4)',
            'torch.ones(2, 3) @ torch.ones(3, 2, dtype=torch.float64)', 'torch.ones(2, 2, 3) @ torch.ones(3, 4, 2)',
            'torch.ones(3, 1, 2, 3) @ torch.ones(4, 3, 5)', 'torch.tensor(2.) @ torch.ones(2)',
            'torch.mm(torch.ones(3), torch.ones(3, 2))', 'torch.ones(2, 3).t() @ torch.ones(2, 3)',
            'torch.arange(6.).view(2, 3)[:, ::2] @ torch.arange(4.).view(2, 2)']
    return out


def _misc():
    out = []
    for d in DTYPES:
        a = A.format(d)
        out += ['%s.add(%s, alpha=2)' % (a, B.format(d)), 'torch.add(%s, 3)' % a, 'torch.sub(%s, 1, alpha=2)' % a,
                'torch.mul(%s, %s)' % (a, BS.format(d)), 'torch.div(%s, 4)' % a, 'torch.eq(%s, 3)' % a,
                'torch.ne(%s, %s)' % (a, B.format(d)), 'torch.pow(%s, 2)' % a, 'torch.floor_divide(%s, -2)' % a,
                'torch.remainder(%s, -4)' % a, 'torch.maximum(%s, %s)' % (AT.format(d), BS.format(d))]
        # in-place forms: the result must keep self's dtype, or fail like PyTorch
        for op in ['+= 2', '-= 1', '*= 3', '/= 2', '//= 2', '%= 2', '**= 2', '+= 1.5', '*= True',
                   '+= torch.tensor([1, 2, 3, 4, 5, 6], dtype=torch.int16)', '+= torch.tensor(2.5)',
                   '-= torch.ones(6, dtype=torch.float64)']:
            out.append('(lambda t: (exec("t %s", {"t": t, "torch": torch}), t)[1])(%s)' % (op, a))
        for m in ['add_(2)', 'sub_(torch.ones(6, dtype=torch.int8))', 'mul_(2.5)', 'div_(2)', 'neg_()', 'abs_()',
                  'exp_()', 'sqrt_()', 'relu_()', 'pow_(2)', 'remainder_(4)', 'floor_divide_(2)']:
            out.append(_via_float('(lambda t: (t.%s, t)[1])(%s)' % (m, a), d,
                                  d == 'float16' and m in ('exp_()', 'sqrt_()', 'relu_()')))
        out.append('(lambda t: (t[::2].add_(10), t)[1])(%s)' % a)
        out.append('(lambda t: (t.t().mul_(2), t)[1])(%s)' % AT.format(d).replace('.t()', ''))
    g = 'torch.tensor([12, -18, 0, 7, 0, -9223372036854775808])'
    h = 'torch.tensor([8, 12, 5, 0, 0, 6])'
    out += ['torch.gcd(%s, %s)' % (g, h), 'torch.lcm(%s, %s)' % (g, h), 'torch.gcd(%s, torch.tensor(4))' % g,
            'torch.lcm(torch.tensor([2 ** 40]), torch.tensor([2 ** 40 + 1]))', 'torch.gcd(%s.float(), %s.float())' % (g, h),
            'torch.gcd(torch.tensor([True]), torch.tensor([True]))', '%s.gcd_(%s)' % (h, g), 'torch.lcm_(%s, %s)' % (h, h)]
    for d in INTS:
        out += ['torch.gcd(torch.tensor([-128, 100, 0, 35]).to(torch.%s), torch.tensor([6, 75, 9, -14]).to(torch.%s))' % (d, d),
                'torch.lcm(torch.tensor([-128, 100, 0, 35]).to(torch.%s), torch.tensor([3, 7, 9, -14]).to(torch.%s))' % (d, d)]
    m = 'torch.arange(6.).view(2, 3)'
    out += [m + '.mT', m + '.mH', m + '.H', m + '.adjoint()', 'torch.adjoint(%s)' % m, m + '[None].expand(2, 2, 3).mT',
            m + '.mT.stride()', m + '[0].mT', m + '[0].mH', m + '[0].adjoint()', m + '[0].H',
            m + '[None].H', 'torch.tensor(2.).H', m + '.new_tensor([1, 2])', m + '.new_tensor([1, 2], dtype=torch.int32)',
            m + '.long().new_tensor([1.5])', m + '.new_tensor(3, requires_grad=True).requires_grad',
            m + '.new_tensor([[1], [2]]).shape']
    out += [
        'torch.tensor([-7, 7, -7, 7]) // torch.tensor([2, 2, -2, -2])',
        'torch.tensor([-7, 7, -7, 7]) % torch.tensor([2, 2, -2, -2])',
        'torch.tensor([-7.5, 7.5, -7.5, 7.5]) // torch.tensor([2., 2., -2., -2.])',
        'torch.tensor([-7.5, 7.5, -7.5, 7.5]) % torch.tensor([2., 2., -2., -2.])',
        'torch.tensor([5.0, -5.0, 0.0]) // 0', 'torch.tensor([5.0, -5.0, 0.0]) % 0',
        'torch.tensor([1, 2, 3]) ** torch.tensor([3, 2, 0])', 'torch.tensor([2, 3]) ** 40',
        'torch.tensor([2, 3], dtype=torch.int8) ** 7', 'torch.tensor([0.0, -8.0]) ** (1/3)',
        'torch.tensor([1, 2]) ** -1', 'torch.tensor([1, 2]) ** -1.0', 'torch.tensor([1.0, 2.0]) ** -1',
        'torch.tensor([-128], dtype=torch.int8) * -1',
        'torch.tensor([1, 2]) / torch.tensor([0, 0])', 'torch.tensor([0.0]) / 0', 'torch.tensor([-1.0]) / 0',
        'torch.tensor([200], dtype=torch.uint8) + torch.tensor([100], dtype=torch.uint8)',
        'torch.tensor([1, 2]) + torch.tensor([[10], [20]])', 'torch.ones(2, 1, 3) + torch.ones(4, 1)',
        'torch.tensor([1, 2, 3]) == torch.tensor([1.0, 2.5, 3.0])', 'torch.tensor([1, 2]) != torch.tensor([[1], [2]])',
        'torch.tensor([float("nan")]) == torch.tensor([float("nan")])', 'torch.tensor([float("nan")]) != 1',
        'torch.tensor([True, False]) + torch.tensor([True, True])', 'torch.tensor([True, False]) * True',
        'torch.tensor([True]) + 1', 'torch.tensor([True]) + 1.5', 'torch.tensor([True, False]) / 2',
        'torch.tensor([True]) - torch.tensor([True])', '-torch.tensor([True])', 'torch.tensor([1, 2]).add(3, alpha=2)',
        'torch.tensor([1, 2]).add(3, alpha=2.5)', 'torch.tensor([1., 2]).add(3, alpha=2.5)',
        'torch.tensor([1, 2]).sub(torch.tensor([1, 1]), alpha=3)',
        'torch.max(torch.tensor([1, 5]), torch.tensor([3, 2]))',
        'torch.min(torch.tensor([1, 5]), torch.tensor([3.5, 2]))', 'torch.tensor(2.5).item()', 'torch.tensor(7).item()',
        'torch.tensor([1.5, 2]).tolist()', 'torch.arange(6).view(2, 3).tolist()', 'torch.tensor(True).tolist()',
        'int(torch.tensor(3.9))', 'float(torch.tensor(3))', 'bool(torch.tensor([0.0]))', 'bool(torch.tensor(2))',
        'len(torch.zeros(4, 2))', 'torch.get_default_dtype()', 'torch.float16.is_floating_point',
        'torch.int8.is_signed', 'torch.uint8.is_signed', 'torch.bool.is_signed', 'str(torch.device("cpu"))',
        'torch.ones(2).device', 'torch.zeros(1).is_floating_point()', 'torch.zeros(1).dtype.is_floating_point',
        'torch.zeros(3, dtype=torch.int16).element_size()',
        'torch.float32 == torch.float', 'torch.int64 is torch.long', 'torch.tensor([1, 2]).type()',
        'torch.tensor([1., 2]).abs().type()',
    ]
    return out


def _errors():
    return [
        'torch.ones(2, 3) + torch.ones(4)', 'torch.ones(2, 3).view(4)', 'torch.ones(2, 3).t().view(6)',
        'torch.ones(2, 3).sum(2)', 'torch.ones(2, 3).max(-3)', 'torch.ones(2, 3)[2]', 'torch.ones(2, 3)[0, 0, 0]',
        'torch.ones(2, 3)[:, 3]', 'torch.ones(2, 3) @ torch.ones(2, 3)', 'torch.ones(2).item()',
        'bool(torch.ones(2))', 'len(torch.tensor(1))', 'torch.tensor([1, 2]) ** -1', 'torch.tensor([1]) // 0',
        'torch.tensor([1]) % 0', 'torch.tensor([1, 2]).mean()', 'torch.zeros(0).max()', 'torch.zeros(0).argmax()',
        'torch.empty(-1)', 'torch.zeros(2, -3)', 'torch.ones(2, dtype="float")', 'torch.ones(2).to("float")',
        'torch.tensor([1, 2]).add_(1.5)', 'torch.tensor([1, 2]).mul_(torch.tensor([1.5]))',
        'torch.tensor([True]).add_(1)', 'torch.ones(2, 3).add_(torch.ones(3, 3))', 'torch.tensor([1, 2]).div_(2)',
        'torch.ones(3).view(-1, -1)', 'torch.ones(6).view(4, -1)', 'torch.ones(2, 3).permute(0, 0)',
        'torch.ones(2, 3).permute(0)', 'torch.ones(2, 3).transpose(0, 2)', 'torch.ones(2, 3, 4).t()',
        'torch.ones(2, 3).expand(3, 3)', 'torch.ones(2, 3).expand(3)', 'torch.ones(2, 3).flatten(1, 0)',
        'torch.ones(2, 3).unsqueeze(3)', 'torch.ones(2, 3).squeeze(2)', 'torch.arange(0, 10, 0)',
        'torch.arange(10, 0, 1)', 'torch.linspace(0, 1, -1)', 'torch.eye(-1)', 'torch.ones(3)[::0]',
        'torch.ones(3)[::-1]', 'torch.ones(2) + "a"', 
        'torch.add(torch.ones(2))', 'torch.add(torch.ones(2), torch.ones(2), torch.ones(2))', 'torch.mm(torch.ones(2))',
        'torch.ones(2, 3).view(2, 3, "x")', 'torch.tensor([1, [2]])', 'torch.tensor([[1, 2], [3]])',
        'torch.tensor("abc")', 'torch.tensor([1, 2]).sub(torch.tensor([True]), alpha=1.5)',
        'torch.tensor([True]) - torch.tensor([True])', '-torch.tensor([True, False])', 'torch.ones(3).item()',
        'torch.zeros(2, 3).max(1, 2)', 'torch.ones(2, 2).sum(dim=(0, 0))', 'torch.ones(2, 2) @ torch.ones(2, 2).long()',
        'torch.ones(2, 3, 4) @ torch.ones(2, 5, 6)', 'torch.tensor(1) @ torch.ones(1)',
        'torch.ones(2, 3).reshape(5)', 'torch.ones(2, 3).view(-1, 4)', 'torch.device("gpu")',
        'torch.set_num_threads(0)',
        'torch.empty(2**62)', 'torch.empty(2**40, 2**40)', 'torch.tensor(2**64)',
        'torch.zeros(2, 2).mean(dtype=torch.int64)',
        'torch.zeros(2, 2)[None, None, None, 0, 0, 0]', 'torch.zeros(2, 2).squeeze(5)',
        'iter(torch.tensor(5))', 'torch.tensor([1.5]).long().add_(0.5)', 'torch.ones(2).tolist(1)',
        'torch.set_default_dtype(torch.int64)', 'torch.zeros(2, 3, dtype=torch.float32)[1, 2, 3]',
    ]


def _low_precision():
    """float16 / bfloat16 results must be the correctly rounded values, not float32 ones."""
    out = []
    for d in ['float16', 'bfloat16']:
        x = 'torch.tensor([0.1, 0.2, 0.3, 2.5, -7.3, 1000.0]).to(torch.%s)' % d
        y = 'torch.tensor([0.7, 0.11, 1 / 3, 3.0, 0.9, 1e-3]).to(torch.%s)' % d
        out += ['(torch.arange(6.) / 7).to(torch.%s)' % d, '%s + %s' % (x, y), '%s - %s' % (x, y), '%s * %s' % (x, y),
                '%s / %s' % (x, y), '%s // %s' % (x, y), '%s %% %s' % (x, y), '%s ** 2' % x, '%s + 0.1' % x,
                '%s * (1 / 3)' % x, '%s / 3' % x, '1 / %s' % x, '%s - 1e-4' % x, '%s == 0.1' % x, '%s < 0.2' % x,
                '%s == %s.float()' % (x, x), '%s == torch.tensor(0.1)' % x,
                '%s + torch.tensor(0.1, dtype=torch.float64)' % x,
                '%s + torch.tensor([0.1]).double()' % x, '%s * 1000' % x, '%s.sum()' % x, '%s.mean()' % x,
                '%s.max()' % x, '%s.min(0)' % x, '%s.view(2, 3).sum(1)' % x, '%s.view(2, 3).mean(0)' % x,
                '%s.add(%s, alpha=3)' % (x, y), '%s.float()' % x, '%s.double()' % x, '%s.long()' % x,
                '%s.sum(dtype=torch.float32)' % x, 'torch.linspace(0, 1, 101, dtype=torch.%s).sum()' % d,
                'torch.tensor([1/3, 2/3, 1e-3, 12345.678, -0.1]).to(torch.%s)' % d,
                'torch.full((5,), 0.1, dtype=torch.%s)' % d, 'torch.tensor([0.1, 1/3], dtype=torch.%s)' % d,
                '(torch.arange(10, dtype=torch.%s) / 3).tolist()' % d, 'torch.tensor(0.1, dtype=torch.%s).item()' % d]
        out += [_via_float(e, d, d == 'float16') for e in [
            '%s.exp()' % y, '%s.abs().log()' % x, '%s.abs().sqrt()' % x, '%s.sin()' % x, '%s.cos()' % x,
            '%s.tanh()' % x, '%s.sigmoid()' % x, '(%s @ %s.view(6, 1))' % (x.replace('1000.0', '10.0'), y),
            '%s.relu()' % x]]
    out += ['torch.tensor([0.1, 0.2], dtype=torch.float16) + torch.tensor([0.1, 0.2], dtype=torch.bfloat16)',
            'torch.tensor([0.1, 0.2], dtype=torch.float16) * torch.tensor([3.0, 0.2], dtype=torch.float32)',
            'torch.tensor([0.1, 0.2], dtype=torch.bfloat16) < torch.tensor([0.1, 0.3], dtype=torch.float16)',
            'torch.tensor([2049.0, 65504.0, 65520.0, 1e-8, 6e-8]).half()',
            'torch.tensor([1.00048828125, 1.00146484375, -1.00048828125]).half()',
            'torch.tensor([1.00390625, 1.01171875, -1.00390625, 3.3e38, 3.4e38]).bfloat16()',
            'torch.tensor([1e-40, 1e-45]).bfloat16()', 'torch.tensor([1/3]).double().half().double()',
            'torch.tensor([300.7, -2.5, 1e4]).half().int()', 'torch.tensor([300.7, -2.5]).bfloat16().short()',
            'torch.tensor([1, 2049, 4097, 70000]).half()', 'torch.tensor([257, 258, 259, 1000001]).bfloat16()',
            'torch.tensor([65504], dtype=torch.float16) + 16', 'torch.tensor([65504], dtype=torch.float16) + 32']
    return out


def _edge_cases():
    """Empty and 0-dim operands, which take other paths through the shape and promotion code."""
    return [
        'torch.zeros(0) + torch.zeros(0)', 'torch.zeros(0, dtype=torch.int8) + 1.5',
        'torch.zeros(0) + torch.tensor(2.0)',
        'torch.zeros(0, dtype=torch.int32) + torch.tensor(2)', 'torch.zeros(0, 3) * torch.ones(3)',
        'torch.zeros(2, 0) < torch.zeros(2, 1)', 'torch.zeros(0).exp()', 'torch.zeros(0, dtype=torch.int64).sum()',
        'torch.zeros(0, 2).max(1)', 'torch.zeros(3, 0).max(1)', 'torch.zeros(3, 0).sum(0)', 'torch.zeros(3, 0).mean(1)',
        'torch.zeros(0, dtype=torch.uint8) == torch.tensor(1)', 'torch.tensor(2.5) + torch.tensor(1)',
        'torch.tensor(2, dtype=torch.uint8) - torch.tensor(3, dtype=torch.uint8)', 'torch.tensor(2) / torch.tensor(4)',
        'torch.tensor(7) // torch.tensor(-2)', 'torch.tensor(7.5) % -2', 'torch.tensor(True) + torch.tensor(True)',
        'torch.tensor(True) + 1', 'torch.tensor(True) * 2.5', '(lambda t: (t.add_(1), t)[1])(torch.tensor(2))',
        '(lambda t: (t.mul_(torch.ones(1)), t)[1])(torch.tensor(2.))', 'torch.tensor(3.).exp()',
        'torch.tensor(3).neg()', 'torch.tensor(-3).abs()', 'torch.tensor(3).relu()', 'torch.tensor(5).sum(0, True)',
        'torch.tensor(5.).mean(-1)', 'torch.tensor(5).argmax(0)', 'torch.tensor(5).argmin(-1, True)',
        'torch.tensor([5]) + torch.tensor(2.5, dtype=torch.float16)',
        'torch.tensor([5.]) * torch.tensor(2, dtype=torch.int8)',
        'torch.ones(2, 3, dtype=torch.int16) + torch.ones(1, dtype=torch.int32)',
        'torch.ones(2, 3, dtype=torch.int16) + torch.ones((), dtype=torch.int32)',
        'torch.ones(1, dtype=torch.int16) + torch.ones((), dtype=torch.float64)',
        'torch.ones(1, dtype=torch.bool) + torch.ones((), dtype=torch.float16)',
        'torch.ones(1, dtype=torch.bool) + torch.ones((), dtype=torch.uint8)', 'torch.ones(1, dtype=torch.bool) + 1.5',
        'torch.ones(1, dtype=torch.bool) + torch.tensor(-1)', 'torch.zeros(2, dtype=torch.bfloat16) + 1',
        'torch.zeros(2, dtype=torch.bfloat16) + torch.tensor(1.5, dtype=torch.float16)',
        'torch.zeros(2, dtype=torch.float16) + torch.tensor([1.5], dtype=torch.bfloat16)',
        'torch.arange(6).view(2, 3) + torch.arange(3).view(3, 1)[:2].t()', 'torch.arange(6).view(2, 3).t() ** 2',
        'torch.arange(6).view(2, 3)[:, None, :] - torch.arange(2).view(2, 1, 1)',
        'torch.ones(3)[None] @ torch.ones(3, 2)', 'torch.arange(4.).view(2, 2).t() @ torch.arange(4.).view(2, 2)',
        'torch.ones(1, 2, 3).expand(4, 2, 3) @ torch.ones(3, 1)',
        'torch.arange(6).view(2, 3).sum(1, dtype=torch.float16)',
        'torch.arange(6.).view(2, 3).max(1, keepdim=True)[0] - torch.arange(6.).view(2, 3)',
        'torch.full((2, 2), 1.5).sum()', 'torch.full((2,), 7, dtype=torch.uint8) * 40',
        'torch.tensor([1, 2, 3], dtype=torch.int32).float() / 3', 'torch.tensor([0.5, 1.5, 2.5, -0.5]).long()',
        'torch.tensor([1e-45, -1e-45, 1e-38])', 'torch.tensor([3e38, -3e38]) * 2', 'torch.tensor([1.0]) / -0.0',
        'torch.tensor([-0.0]).abs()', 'torch.tensor([-0.0]) == 0', 'torch.tensor([0.0]).neg()',
    ]


def _repr():
    return ['repr(%s)' % e for e in [
        'torch.arange(6).view(2, 3)', 'torch.tensor([0.1, 2.5], dtype=torch.float16)',
        'torch.zeros(2, dtype=torch.bfloat16)',
        'torch.tensor([True, False])', 'torch.tensor([])', 'torch.zeros(0, 3)', 'torch.arange(2000)',
        'torch.arange(6.).view(2, 3).t()',
        'torch.tensor(1e-10)', 'torch.ones(2, 3).max(0)', 'torch.tensor([1e10, 1.0])', 'torch.tensor(3)',
        'torch.tensor(2.5)',
        'torch.tensor([1, 2], dtype=torch.uint8)', 'torch.tensor([[1.5, float("nan")], [float("inf"), -2.0]])',
        'torch.arange(24).view(2, 3, 4)[:, ::2, 1:]', 'torch.ones(3, dtype=torch.float64)', 'torch.arange(4).max(0)',
        'torch.float32', 'torch.int64', 'torch.bool', 'torch.Size([2, 3])', 'torch.device("cpu")',
        'torch.ones(2).shape',
        'torch.arange(6).view(2, 3).size()', 'torch.arange(3.) / 3', 'torch.tensor([1., 2.], dtype=torch.float64)']]


def _cases():
    """(our expression, the reference's expression) pairs, in a stable order without duplicates."""
    cases = {}
    for e in (_promotion() + _scalars() + _zero_dim() + _unary() + _reductions() + _views_indexing()
              + _factories() + _matmul() + _misc() + _errors() + _low_precision() + _edge_cases() + _repr()):
        ours, ref = e if isinstance(e, tuple) else (e, e)
        cases[ours] = ref
    return sorted(cases.items(), key=lambda c: (len(c[0]), c[0]))


SUITE = Suite('reference_diff', [pair for pair in _cases()], strided=_views_indexing(),
              ranged=lambda expr: 'linspace' in expr or 'arange' in expr)
CASES = SUITE.cases
EXPRESSIONS = SUITE.expressions
RECORDED, RUNNER, reference_request = SUITE.recorded, SUITE.runner, SUITE.reference_request
reports = SUITE.fixture()


@pytest.mark.parametrize('expr', EXPRESSIONS)
def test_matches_reference(reports, expr):
    SUITE.check(reports, expr)


def test_expression_list_covers_every_dtype_pair():
    for da in DTYPES:
        for db in DTYPES:
            for op in ['+', '*', '/', '<', '==']:
                assert '%s %s %s' % (A.format(da), op, B.format(db)) in EXPRESSIONS
