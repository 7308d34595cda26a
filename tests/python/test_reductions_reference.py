"""Differential suite of the reductions family against PyTorch 1.13.1 (tests/python/differential.py
explains the machinery; tools/record_reference reductions records the reference's side).

Every op of the family over the dtypes PyTorch supports for it, contiguous, transposed and strided
inputs, 0-dim and empty ones, NaN/inf/-0.0 and ties (whose indices must be PyTorch's), dims, keepdim,
dtype=, out=, in place, and the errors PyTorch raises. Expressions whose dtype the reference refuses
and this project computes (float16 sorts, median of bool, ...) are left out, not compared.
"""
import pytest

from differential import Suite

ALL = ['bool', 'uint8', 'int8', 'int16', 'int32', 'int64', 'float16', 'bfloat16', 'float32', 'float64']
NUMERIC = ALL[1:]
INTS = ['uint8', 'int8', 'int16', 'int32', 'int64']
FLOATS = ['float16', 'bfloat16', 'float32', 'float64']
F32_64 = ['float32', 'float64']

# Operands (format with the dtype): a 3x4 matrix with ties, its transpose, a strided vector, a 3-D
# block, an empty matrix and a 0-dim tensor.
M = 'torch.tensor([[3, 1, 4, 1], [5, 9, 2, 6], [5, 3, 5, 8]]).to(torch.{0})'
MT = M + '.t()'
V = 'torch.tensor([7, 2, 9, 2, 4, 8, 1, 2, 2]).to(torch.{0})[::2]'
B3 = '(torch.arange(60) % 7).view(3, 4, 5).to(torch.{0})'
E = 'torch.zeros(0, 3).to(torch.{0})'
Z = 'torch.tensor(5).to(torch.{0})'
# floats with the awkward values
NAN = ('torch.tensor([[1.5, float("nan"), -0.0, 2.0], [0.0, -3.25, float("inf"), 2.0], '
       '[-1.0, 0.5, -float("inf"), 4.0]]).to(torch.{0})')
W = 'torch.tensor([[0.5, -1.25, 2.0, 3.5, -0.75], [4.0, 0.25, -2.5, 1.0, 0.0]]).to(torch.{0})'


def _sum_prod_mean():
    out = []
    for d in ALL:
        m, mt = M.format(d), MT.format(d)
        mine = ['%s.sum()' % m, '%s.sum(0)' % mt, '%s.sum((0, 1), keepdim=True)' % m,
                '%s.sum(1, dtype=torch.float64)' % m, '%s.sum(-1)' % B3.format(d), '%s.sum((0, 2))' % B3.format(d),
                '%s.sum()' % V.format(d), '%s.sum(0)' % E.format(d), '%s.sum()' % Z.format(d),
                'torch.sum(%s, 1, True)' % m, '%s.prod()' % V.format(d), '%s.prod(1)' % m,
                '%s.prod(0, keepdim=True)' % mt, '%s.prod(1, dtype=torch.float64)' % m,
                '%s.prod()' % E.format(d), '%s.prod(0)' % Z.format(d), 'torch.nansum(%s)' % m,
                'torch.nansum(%s, (0, 1), True)' % mt, '%s.count_nonzero()' % m, '%s.count_nonzero(0)' % mt,
                'torch.count_nonzero(%s, (0, 2))' % B3.format(d), 'torch.count_nonzero(%s, 1)' % E.format(d),
                '%s.all()' % m, '%s.any()' % m, '%s.all(1)' % mt, '%s.any(0, keepdim=True)' % m,
                '%s.all(0)' % E.format(d), '%s.any(1)' % E.format(d), '%s.all()' % Z.format(d),
                'torch.zeros(3).to(torch.{0}).any()'.format(d), 'torch.zeros(3).to(torch.{0}).all()'.format(d)]
        if d in ('float16', 'bfloat16'):  # the reference has no low-precision prod
            mine = [e for e in mine if 'prod' not in e]
        out += mine
        if d != 'bool':
            out += ['%s.sum(dtype=torch.{0})'.format(d) % M.format('int64'),
                    'torch.sum(%s, 1, out=torch.empty(0, dtype=torch.float64))' % m]
        if d in FLOATS:
            out += ['%s.mean()' % m, '%s.mean((0, 1))' % mt, '%s.mean(-1, True)' % B3.format(d),
                    'torch.nanmean(%s)' % NAN.format(d), 'torch.nanmean(%s, 1)' % NAN.format(d),
                    'torch.nansum(%s, 0)' % NAN.format(d), '%s.sum(1)' % NAN.format(d),
                    'torch.nanmean(%s, 0)' % E.format(d), '%s.mean(0)' % E.format(d)]
            if d in F32_64:
                out.append('%s.prod(0)' % NAN.format(d))
    out += ['torch.tensor([True, False]).sum(dtype=torch.bool)', 'torch.tensor([True, True]).prod(dtype=torch.bool)',
            'torch.tensor([100, 100], dtype=torch.int8).sum(dtype=torch.int8)', 'torch.ones(300, dtype=torch.int8).sum()',
            'torch.arange(1, 30).prod()', 'torch.tensor([2**40, 2**40]).prod()', 'torch.full((10,), 1.5).prod()',
            'torch.nansum(torch.tensor([1, 2]))', 'torch.nansum(torch.tensor([1., 2.]), dtype=torch.int64)',
            'torch.nanmean(torch.tensor([1, 2]))', 'torch.nanmean(torch.tensor([float("nan")]))',
            'torch.mean(torch.tensor([1, 2]))', 'torch.mean(torch.tensor([1., 2.]), dtype=torch.int64)',
            'torch.sum(torch.ones(2, 2), (0, 0))', 'torch.sum(torch.ones(2, 2), 2)',
            'torch.prod(torch.ones(2, 2), 2)', 'torch.all(torch.ones(2), (0,))',
            'torch.count_nonzero(torch.tensor([1., 0, float("nan")]))', 'torch.ones(2, 3).prod(-1, True)',
            'torch.arange(12.).view(3, 4).t().contiguous().t().sum(0)']
    return out


def _moments():
    out = []
    for d in FLOATS:
        m, w = M.format(d), W.format(d)
        out += ['%s.var()' % m, '%s.std()' % m, '%s.var(0)' % w, '%s.std(1, keepdim=True)' % w,
                '%s.var(1, unbiased=False)' % m, 'torch.var(%s, (0, 1), correction=0)' % w,
                'torch.std(%s, 0, correction=2)' % m, 'torch.var_mean(%s)' % w, 'torch.std_mean(%s, 1)' % w,
                'torch.var_mean(%s, 0, correction=0, keepdim=True)' % m, 'torch.std(%s)' % Z.format(d),
                '%s.var(0)' % E.format(d), 'torch.var_mean(%s, 1)' % E.format(d), '%s.std(-1)' % B3.format(d),
                '%s.var((0, 2))' % B3.format(d), '%s.var(1)' % NAN.format(d), '%s.std()' % MT.format(d)]
    out += ['torch.var(torch.tensor([1, 2]))', 'torch.std(torch.tensor([1.]))', 'torch.var(torch.tensor([1., 2]), 0, correction=5)',
            'torch.var(torch.tensor([1., 2]), correction=5)', 'torch.std(torch.ones(2, 2), 2)',
            'torch.var(torch.arange(1000.) * 0.001 + 1000.)', 'torch.std_mean(torch.arange(10.).view(2, 5), 0, True, True)']
    return out


def _norms():
    out = []
    for d in FLOATS:
        w = W.format(d)
        for p in ['2', '1', '3', '0', '-1', 'float("inf")', '-float("inf")', '0.5']:
            out += ['torch.norm(%s, p=%s)' % (w, p), 'torch.norm(%s, %s, 1)' % (w, p),
                    'torch.norm(%s, %s, 0, keepdim=True)' % (w, p)]
        if d != 'float16':  # the reference's two-dim Frobenius norm has no float16 sqrt
            out += ['torch.norm(%s, "fro", (0, 1))' % w, 'torch.frobenius_norm(%s, (0, 1))' % w]
        out += ['torch.norm(%s)' % w, '%s.norm()' % w, '%s.norm(dim=1)' % w, 'torch.norm(%s, "fro", 1, True)' % w,
                'torch.norm(%s, 2, dtype=torch.float64)' % w, 'torch.norm(%s)' % Z.format(d),
                'torch.norm(%s, 2, 0)' % E.format(d), 'torch.norm(%s, 1, 1)' % NAN.format(d),
                'torch.norm(%s, 3, (0, 2))' % B3.format(d), 'torch.norm(%s, 2, dtype=torch.float32)' % w]
    out += ['torch.norm(torch.tensor([1, 2]))', 'torch.norm(torch.tensor([1, 2]), 3, 0, dtype=torch.float64)',
            'torch.norm(torch.ones(2, 2), 2, 0, dtype=torch.int64)', 'torch.norm(torch.ones(2, 2), dtype=torch.float64)',
            'torch.norm(torch.ones(2, 2), "fro", (0, 0))', 'torch.norm(torch.ones(1, 2, 2), "fro", (0, 1, 2))',
            'torch.norm(torch.ones(2, 2), "abc")', 'torch.norm(torch.tensor([3., 4.]), p=2, dim=0, out=torch.empty(0))']
    return out


def _logsumexp():
    out = []
    for d in F32_64 + ['bfloat16']:
        w = W.format(d)
        out += ['torch.logsumexp(%s, 0)' % w, 'torch.logsumexp(%s, 1, True)' % w, 'torch.logsumexp(%s, (0, 1))' % w,
                '%s.logsumexp(-1)' % B3.format(d), 'torch.logsumexp(%s, 1)' % NAN.format(d),
                'torch.logsumexp(%s, 0)' % E.format(d), 'torch.logsumexp(%s, 0)' % Z.format(d)]
    out += ['torch.logsumexp(torch.tensor([1, 2]), 0)', 'torch.logsumexp(torch.tensor([True, False]), 0)',
            'torch.logsumexp(torch.tensor([1., 2.]), ())', 'torch.logsumexp(torch.tensor(2.), ())',
            'torch.logsumexp(torch.tensor([[1., 2.]]), (), keepdim=True)',
            'torch.logsumexp(torch.tensor([float("inf"), float("-inf")]), 0)',
            'torch.logsumexp(torch.tensor([float("-inf"), float("-inf")]), 0)',
            'torch.logsumexp(torch.tensor([1000., 1000.]), 0)', 'torch.logsumexp(torch.tensor([-1000., -999.]), 0)']
    return out


def _extremes():
    out = []
    for d in ALL:
        m, mt, b3 = M.format(d), MT.format(d), B3.format(d)
        out += ['%s.amax()' % m, '%s.amin(0)' % mt, 'torch.amax(%s, (0, 2))' % b3, 'torch.amin(%s, -1, True)' % b3,
                'torch.amax(%s, 0)' % E.format(d), '%s.amax()' % Z.format(d), '%s.max(0)' % mt,
                '%s.min(1, keepdim=True)' % m, '%s.amax()' % V.format(d)]
        if d not in ('float16', 'bfloat16'):  # the reference has no low-precision aminmax
            out += ['torch.aminmax(%s)' % m, 'torch.aminmax(%s, dim=1)' % mt,
                    'torch.aminmax(%s, dim=0, keepdim=True)' % m, 'torch.aminmax(%s, dim=0)' % E.format(d),
                    'torch.aminmax(%s)' % Z.format(d)]
        if d != 'bool':
            out += ['%s.argmax()' % mt, '%s.argmin(1)' % m]
    for d in FLOATS:
        n = NAN.format(d)
        out += ['%s.amax()' % n, '%s.amin(1)' % n, '%s.max(1)' % n, '%s.argmin(0)' % n]
        if d in F32_64:
            out.append('torch.aminmax(%s, dim=0)' % n)
    out += ['torch.amax(torch.zeros(0))', 'torch.amax(torch.zeros(2, 0), 1)', 'torch.aminmax(torch.zeros(0))',
            'torch.aminmax(torch.zeros(2, 0), dim=1)', 'torch.amax(torch.ones(2, 2), (0, 0))',
            'torch.tensor([2, 7, 7, 1, 7]).max(0)', 'torch.tensor([2, 1, 1, 1]).min(0)']
    return out


def _selection():
    out = []
    ties = 'torch.tensor([3, 1, 2, 1, 3, 3, 0, 2, 1, 3, 2, 2, 1, 0, 3, 1, 2, 3, 3, 1, 0, 2]).to(torch.{0})'
    for d in NUMERIC:
        m, mt, t = M.format(d), MT.format(d), ties.format(d)
        out += ['torch.mode(%s)' % m, 'torch.mode(%s, 0)' % mt, 'torch.mode(%s, 0, keepdim=True)' % m,
                'torch.mode(%s)' % t, 'torch.mode(%s)' % Z.format(d), 'torch.mode(%s, 0)' % E.format(d)]
        if d in ('bfloat16', 'float16'):
            continue
        out += ['torch.median(%s)' % m, 'torch.median(%s, 1)' % m, 'torch.median(%s, 0, True)' % mt,
                'torch.nanmedian(%s, 1)' % m, 'torch.median(%s)' % t, 'torch.median(%s, 0)' % t,
                'torch.median(%s)' % Z.format(d), 'torch.median(%s, 0)' % E.format(d), 'torch.median(%s)' % E.format(d),
                'torch.kthvalue(%s, 2)' % m, 'torch.kthvalue(%s, 3, 0)' % mt, 'torch.kthvalue(%s, 1, 0, True)' % m,
                'torch.kthvalue(%s, 7)' % t, 'torch.kthvalue(%s, 20)' % t, 'torch.kthvalue(%s, 1)' % Z.format(d),
                'torch.topk(%s, 2)' % m, 'torch.topk(%s, 2, 0, largest=False)' % mt, 'torch.topk(%s, 5)' % t,
                'torch.topk(%s, 5, sorted=False)' % t, 'torch.topk(%s, 3, largest=False)' % t,
                'torch.topk(%s, 0)' % m, 'torch.topk(%s, 1)' % Z.format(d), 'torch.topk(%s, 2, 1)' % B3.format(d)]
    # topk's heap selection (k * 64 <= n) reads the line in place: long lines with many ties, NaNs,
    # strided lines and several lines, whose indices must come out in libstdc++'s order
    long_ties = '(torch.arange(6000) * 7919 % 211).to(torch.{0})'
    for d in ['uint8', 'int32', 'int64', 'float32', 'float64']:
        t = long_ties.format(d)
        out += ['torch.topk(%s, 40)' % t, 'torch.topk(%s, 90, largest=False)' % t,
                'torch.topk(%s, 30, sorted=False)' % t, 'torch.topk(%s.view(3, 2000).t(), 31, 0)' % t,
                'torch.topk(%s.view(4, 1500), 20, 1, largest=False)' % t, 'torch.topk(%s[::3], 25)' % t]
    for d in F32_64:
        nans = ('torch.where(torch.arange(5000) % 333 == 7, float("nan"), (torch.arange(5000) * 7919 % 1009) / 4.0)'
                '.to(torch.{0})'.format(d))
        out += ['torch.topk(%s, 50)' % nans, 'torch.topk(%s, 60, largest=False)' % nans,
                'torch.topk(%s.view(2, 2500), 10, 1)' % nans]
    for d in F32_64:
        n = NAN.format(d)
        out += ['torch.median(%s, 1)' % n, 'torch.nanmedian(%s, 1)' % n, 'torch.nanmedian(%s)' % n,
                'torch.median(%s)' % n, 'torch.kthvalue(%s, 2, 1)' % n, 'torch.topk(%s, 2)' % n,
                'torch.topk(%s, 2, largest=False)' % n, 'torch.mode(%s)' % n,
                'torch.nanmedian(torch.full((5,), float("nan"), dtype=torch.{0}), 0)'.format(d),
                'torch.median(torch.tensor([0.0, -0.0] * 20, dtype=torch.{0}))'.format(d)]
    out += ['torch.kthvalue(torch.tensor([3., 1, 2]), 0)', 'torch.kthvalue(torch.tensor([3., 1, 2]), 4)',
            'torch.kthvalue(torch.zeros(2, 0), 1, 1)', 'torch.topk(torch.tensor([3., 1]), 3)',
            'torch.topk(torch.tensor([3., 1]), -1)', 'torch.median(torch.zeros(2, 0), 1)',
            'torch.mode(torch.zeros(2, 0), 1)', 'torch.topk(torch.arange(200) % 5, 3)',
            'torch.topk(torch.arange(200.) % 5, 4, largest=False)', 'torch.median(torch.tensor(3.), 0)']
    return out


def _quantiles():
    out = []
    for d in F32_64:
        w, n = W.format(d), NAN.format(d)
        q = 'torch.tensor([0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0], dtype=torch.{0})'.format(d)
        for mode in ['linear', 'lower', 'higher', 'midpoint', 'nearest']:
            out += ['torch.quantile(%s, %s, interpolation="%s")' % (w, q, mode),
                    'torch.quantile(%s, 0.3, 1, interpolation="%s")' % (w, mode),
                    'torch.nanquantile(%s, %s, 1, interpolation="%s")' % (n, q, mode),
                    'torch.quantile(%s, %s, 0, True, interpolation="%s")' % (n, q, mode)]
        out += ['torch.quantile(%s, 0.5)' % w, 'torch.nanquantile(%s, 0.5)' % n, '%s.quantile(0.5, dim=0)' % w,
                'torch.quantile(%s, 0.5, keepdim=True)' % w, 'torch.quantile(%s, 0.25)' % Z.format(d),
                'torch.quantile(%s, torch.tensor(0.25, dtype=torch.{0}), 1)'.format(d) % w,
                'torch.nanquantile(torch.full((3,), float("nan"), dtype=torch.{0}), 0.3)'.format(d)]
    out += ['torch.quantile(torch.ones(3), 1.5)', 'torch.quantile(torch.ones(3), torch.tensor([1.5]))',
            'torch.quantile(torch.ones(3), torch.tensor([[0.5]]))', 'torch.quantile(torch.ones(3), torch.tensor([0.5], dtype=torch.float64))',
            'torch.quantile(torch.ones(3), 0.5, interpolation="abc")', 'torch.quantile(torch.tensor([]), 0.5)',
            'torch.quantile(torch.tensor([1, 2]), 0.5)', 'torch.quantile(torch.ones(3), 0.5, out=torch.empty(0, dtype=torch.float64))',
            'torch.quantile(torch.ones(2, 3), torch.tensor([]), 1)']
    return out


def _scans():
    out = []
    for d in ALL:
        m, mt = M.format(d), MT.format(d)
        if d in ('float16',):  # the reference has no float16 scans
            continue
        out += ['torch.cummax(%s, 1)' % m, 'torch.cummin(%s, 0)' % mt, 'torch.cummax(%s, 0)' % Z.format(d),
                'torch.cummin(%s, 1)' % E.format(d)]
        out += ['%s.cumsum(1)' % m, '%s.cumsum(0)' % mt, '%s.cumprod(1)' % m, '%s.cumprod(0)' % mt,
                'torch.cumsum(%s, -1)' % B3.format(d), 'torch.cumsum(%s, 1, dtype=torch.float64)' % m,
                '%s.cumsum(0)' % V.format(d), '%s.cumsum(0)' % Z.format(d), '%s.cumsum(1)' % E.format(d)]
        if d != 'bool':
            out += ['%s.clone().cumsum_(1)' % m, '%s.clone().cumprod_(0)' % m]
    for d in ['bfloat16', 'float32', 'float64']:
        w, n = W.format(d), NAN.format(d)
        out += ['torch.logcumsumexp(%s, 1)' % w, 'torch.logcumsumexp(%s, 0)' % w, 'torch.logcumsumexp(%s, 1)' % n,
                'torch.cummax(%s, 1)' % n, 'torch.cummin(%s, 0)' % n, '%s.cumsum(1)' % n]
    out += ['torch.cumsum(torch.tensor(3.), 1)', 'torch.tensor([1, 2]).cumsum_(0, dtype=torch.float32)',
            'torch.tensor([100, 100], dtype=torch.int8).cumsum_(0)', 'torch.cumsum(torch.tensor([1, 2]), 0, out=torch.empty(0))',
            'torch.cumsum(torch.tensor([1.5, 2.]), 0, out=torch.empty(0, dtype=torch.int64))',
            'torch.cummax(torch.tensor([1, 2]), 0, out=(torch.empty(0), torch.empty(0, dtype=torch.long)))',
            'torch.logcumsumexp(torch.tensor([1, 2]), 0)', 'torch.cumsum(torch.full((1000,), 0.1), 0)[-1]',
            'torch.cumprod(torch.tensor([True, False]), 0)', 'torch.cumsum(torch.arange(20.).view(4, 5), 0)']
    return out


def _sorting():
    out = []
    ties = 'torch.tensor([3, 1, 2, 1, 3, 3, 0, 2, 1, 3, 2, 2, 1, 0, 3, 1, 2, 3, 3, 1, 0, 2]).to(torch.{0})'
    for d in ALL:
        m, mt, t = M.format(d), MT.format(d), ties.format(d)
        out += ['torch.sort(%s)' % m, 'torch.sort(%s, 0)' % mt, 'torch.sort(%s, descending=True)' % t,
                'torch.sort(%s)' % t, 'torch.sort(%s, stable=True)' % t, 'torch.sort(%s, stable=True, descending=True)' % t,
                'torch.argsort(%s)' % t, 'torch.argsort(%s, 0, True)' % mt, 'torch.argsort(%s, stable=True)' % t,
                'torch.msort(%s)' % mt, 'torch.sort(%s)' % Z.format(d), 'torch.sort(%s, 1)' % E.format(d),
                'torch.sort(%s, 1)' % B3.format(d), 'torch.sort(%s)' % V.format(d)]
    for d in F32_64:
        n = NAN.format(d)
        out += ['torch.sort(%s)' % n, 'torch.sort(%s, 0, True)' % n, 'torch.argsort(%s.flatten())' % n,
                'torch.sort(torch.tensor([0.0, -0.0] * 20, dtype=torch.{0}))'.format(d),
                'torch.sort((torch.arange(300) % 7).to(torch.{0}))'.format(d),
                'torch.sort((torch.arange(300) % 7).to(torch.{0}), descending=True)'.format(d)]
    out += ['torch.sort(torch.tensor(3.), 1)', 'torch.sort(torch.ones(3), out=(torch.empty(0, dtype=torch.float64), torch.empty(0, dtype=torch.long)))',
            'torch.sort(torch.zeros(40))', 'torch.sort(torch.tensor([2, 1]), stable=False)', 'torch.sort(torch.tensor([2, 1]), stable=None)']
    return out


def _unique():
    out = []
    u = 'torch.tensor([3, 1, 2, 1, 5, 7, 3, 0, 2]).to(torch.{0})'
    u2 = 'torch.tensor([[1, 2], [1, 2], [0, 5], [1, 2], [0, 5]]).to(torch.{0})'
    for d in ALL:
        x = u.format(d)
        if d == 'float16':  # the reference has no float16 unique
            continue
        out += ['torch.unique(%s, return_inverse=True, return_counts=True)' % u2.format(d),
                'torch.unique(%s, dim=0, return_inverse=True, return_counts=True)' % u2.format(d),
                'torch.unique(%s, dim=1)' % u2.format(d), 'torch.unique_consecutive(%s, return_counts=True)' % x,
                'torch.unique_consecutive(%s, dim=0, return_inverse=True)' % u2.format(d),
                'torch.unique_consecutive(%s, return_inverse=True)' % u2.format(d),'torch.unique(%s)' % x, 'torch.unique(%s, sorted=False)' % x,
                'torch.unique(%s, return_inverse=True)' % x, 'torch.unique(%s, sorted=False, return_counts=True)' % x,
                '%s.unique()' % M.format(d), 'torch.unique(%s)' % Z.format(d), 'torch.unique(%s)' % E.format(d),
                'torch._unique2(%s, True, False, True)' % x, 'torch._unique(%s, False, True)' % x]
    for d in ['float32', 'float64', 'int64', 'int16', 'bfloat16']:
        out += ['torch.unique((torch.arange(100) * 37 % 101 - 50).to(torch.{0}) / 3, sorted=False)'.format(d),
                'torch.unique((torch.arange(100) * 37 % 101 - 50).to(torch.{0}), sorted=False, return_inverse=True)'.format(d)]
    out += ['torch.unique(torch.tensor([1.5, float("nan"), 1.5, float("nan"), float("inf"), 0.0, -0.0]), return_inverse=True, return_counts=True)',
            'torch.unique(torch.tensor([-0.0, 0.0, 1.0]))', 'torch.unique(torch.tensor([[2., float("nan")], [2, float("nan")]]), dim=0)',
            'torch.unique(torch.zeros(0, 3), dim=0, return_inverse=True, return_counts=True)', 'torch.unique(torch.zeros(0, 3), dim=1)',
            'torch.unique(torch.tensor(5), dim=0)', 'torch.unique(torch.ones(2, 2), dim=2)',
            'torch.unique_consecutive(torch.tensor([float("nan"), float("nan"), 1.]), return_counts=True)',
            'torch.unique_consecutive(torch.tensor(3), return_inverse=True)', 'torch.tensor([3, 1, 3]).unique_consecutive()',
            'torch.unique(torch.tensor([True, False, True]), sorted=False, return_inverse=True)']
    return out


def _search_bins():
    out = []
    seq = 'torch.tensor([1, 3, 3, 5, 7, 9]).to(torch.{0})'
    vals = 'torch.tensor([[0, 3, 4], [9, 10, 5]]).to(torch.{0})'
    for d in NUMERIC:
        s, v = seq.format(d), vals.format(d)
        out += ['torch.searchsorted(%s, %s)' % (s, v), 'torch.searchsorted(%s, %s, right=True)' % (s, v),
                'torch.searchsorted(%s, %s, side="right", out_int32=True)' % (s, v), 'torch.searchsorted(%s, 4)' % s,
                'torch.bucketize(%s, %s)' % (v, s), 'torch.bucketize(%s, %s, right=True, out_int32=True)' % (v, s),
                'torch.bucketize(3, %s)' % s, 'torch.searchsorted(%s, %s)' % (s, Z.format(d)),
                'torch.searchsorted(torch.tensor([[1, 3, 5], [2, 4, 6]]).to(torch.{0}), %s)'.format(d) % v]
    for d in INTS:
        out += ['torch.bincount(torch.tensor([1, 4, 1, 0]).to(torch.{0}))'.format(d),
                'torch.bincount(torch.tensor([1, 4, 1]).to(torch.{0}), minlength=7)'.format(d),
                'torch.bincount(torch.tensor([1, 2, 1]).to(torch.{0}), torch.tensor([0.5, 1.0, 2.0]))'.format(d),
                'torch.bincount(torch.tensor([1, 2, 1]).to(torch.{0}), torch.tensor([1, 2, 3]))'.format(d)]
    for d in F32_64:
        x = 'torch.tensor([0.1, 0.2, 0.3, 0.7, 0.9, 1.0, -0.5, 0.45, 0.55, float("nan")]).to(torch.{0})'.format(d)
        out += ['torch.histc(%s, bins=10, min=0, max=1)' % x, 'torch.histc(%s, bins=4, min=0.2, max=0.9)' % x,
                'torch.histc(%s[:9], bins=7)' % x, 'torch.histc(%s, bins=3)' % W.format(d),
                'torch.histc(torch.tensor([2., 2.]).to(torch.{0}), bins=4)'.format(d), 'torch.histc(%s, 5)' % E.format(d)]
    out += ['torch.searchsorted(torch.tensor([5, 1, 3]), torch.tensor([3, 4]), sorter=torch.tensor([1, 2, 0]))',
            'torch.searchsorted(torch.tensor([5, 1, 3]), torch.tensor([3, 4]), sorter=torch.tensor([1, 2]))',
            'torch.searchsorted(torch.tensor([1., 2.]), torch.tensor([3.]), side="left", right=True)',
            'torch.searchsorted(torch.tensor([1., 2.]), torch.tensor([3.]), side="middle")',
            'torch.searchsorted(torch.tensor([1., float("nan")]), torch.tensor([float("nan"), 2.]))',
            'torch.searchsorted(torch.tensor(1.), torch.tensor([1.]))', 'torch.searchsorted(torch.tensor([]), torch.tensor([1.]))',
            'torch.searchsorted(torch.ones(2, 3), torch.ones(3, 2))', 'torch.bucketize(torch.ones(2), torch.ones(1, 2))',
            'torch.histc(torch.tensor([1., 2]), bins=0)', 'torch.histc(torch.tensor([1., 2]), min=3, max=1)',
            'torch.histc(torch.tensor([1., float("inf")]), bins=2)', 'torch.histc(torch.tensor([1, 2]))',
            'torch.bincount(torch.tensor([-1, 2]))', 'torch.bincount(torch.tensor([1., 2]))',
            'torch.bincount(torch.tensor([[1, 2]]))', 'torch.bincount(torch.tensor([1, 2]), minlength=-1)',
            'torch.bincount(torch.tensor([1, 2]), weights=torch.tensor([1.]))', 'torch.bincount(torch.tensor([], dtype=torch.long), minlength=3)',
            'torch.bincount(torch.tensor([1, 1]), weights=torch.tensor([0.1, 0.2]))']
    return out


def _cases():
    return (_sum_prod_mean() + _moments() + _norms() + _logsumexp() + _extremes() + _selection() + _quantiles()
            + _scans() + _sorting() + _unique() + _search_bins())


# Results whose rounding legitimately differs in the last places: sums of exponentials and the
# Welford/two-pass moments are compared within the result's magnitude.
def _ranged(expr):
    return any(op in expr for op in ('logsumexp', 'logcumsumexp', '.var', '.std', 'torch.var', 'torch.std', 'norm'))


SUITE = Suite('reductions', _cases(), ranged=_ranged)
RECORDED, RUNNER, reference_request = SUITE.recorded, SUITE.runner, SUITE.reference_request
reports = SUITE.fixture()


@pytest.mark.parametrize('expr', SUITE.expressions)
def test_matches_reference(reports, expr):
    SUITE.check(reports, expr)
