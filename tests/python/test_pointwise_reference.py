"""Differential suite of the pointwise family against the reference PyTorch (1.13.1).

Every pointwise op of the family (math, rounding, powers, bitwise and logical ops, comparisons, value
tests, closeness) over every dtype, broadcast, non-contiguous, empty and 0-dim operands, edge values
(inf, NaN, -0.0, values at the ends of a domain), the in-place and out= variants, Python operators,
and the errors PyTorch raises. The reference's results are recorded in
tests/data/reference/pointwise.json by `tools/record_reference pointwise` (differential.py explains
how the comparison works); nothing here imports this project's torch at module level.
"""
import pytest

from differential import Suite

DTYPES = ['bool', 'uint8', 'int8', 'int16', 'int32', 'int64', 'float16', 'bfloat16', 'float32', 'float64']
INTS = ['uint8', 'int8', 'int16', 'int32', 'int64']
FLOATS = ['float16', 'bfloat16', 'float32', 'float64']

# Values every dtype holds (negatives wrap in uint8, fractions truncate in integers), with a zero.
X = 'torch.tensor([-2.5, -1.0, -0.25, 0.0, 0.5, 1.0, 2.75, 9.0]).to(torch.{})'
Y = 'torch.tensor([1.5, -3.0, 0.5, 2.0, -0.75, 4.0, 1.0, -2.0]).to(torch.{})'
# In [-1, 1] for the inverse functions of bounded ones.
UNIT = 'torch.tensor([-1.0, -0.75, -0.3, 0.0, 0.2, 0.5, 0.9, 1.0]).to(torch.{})'
# Edge values of the floating dtypes.
EDGE = 'torch.tensor([float("inf"), float("-inf"), float("nan"), -0.0, 0.0, 1e-30, -1e30, 3.0]).to(torch.{})'
# Non-contiguous operands: a transposed matrix and a strided slice.
XT = 'torch.tensor([[-2.5, 0.5], [-1.0, 1.0], [-0.25, 2.75]]).to(torch.{}).t()'
XS = 'torch.tensor([-2.5, 9, -1.0, 9, 0.5, 9, 2.75, 9]).to(torch.{})[::2]'
# Many elements, so that the vectorised loops (and their tails) run.
WIDE = '(torch.arange(-18, 19) / 3).to(torch.{})'
WIDE_POS = '(torch.arange(1, 38) / 3.1).to(torch.{})'
WIDE_UNIT = '(torch.arange(-18, 19) / 18.5).to(torch.{})'
INT_X = 'torch.tensor([-7, -2, -1, 0, 1, 3, 6, 100]).to(torch.{})'
INT_Y = 'torch.tensor([3, 2, -1, 5, 7, -4, 1, 3]).to(torch.{})'

# The float functions and the input that stays in their domain
FLOAT_UNARY = {
    'sin': X, 'cos': X, 'tan': X, 'asin': UNIT, 'acos': UNIT, 'atan': X, 'sinh': X, 'cosh': X, 'tanh': X,
    'asinh': X, 'acosh': WIDE_POS, 'atanh': UNIT, 'arcsin': UNIT, 'arccos': UNIT, 'arctan': X, 'arcsinh': X,
    'arccosh': WIDE_POS, 'arctanh': UNIT, 'exp': X, 'exp2': X, 'expm1': X, 'log': WIDE_POS, 'log2': WIDE_POS,
    'log10': WIDE_POS, 'log1p': WIDE_POS, 'sqrt': WIDE_POS, 'rsqrt': WIDE_POS, 'reciprocal': X, 'erf': X, 'erfc': X,
    'erfinv': UNIT, 'lgamma': WIDE_POS, 'digamma': WIDE_POS, 'sigmoid': X, 'logit': UNIT, 'deg2rad': X,
    'rad2deg': X,
}
# ops the reference has a float16 kernel for (the others it computes in float32, rounded)
REF_HALF = {'exp2', 'reciprocal', 'deg2rad', 'rad2deg', 'square', 'sign', 'sgn', 'frac', 'copysign', 'xlogy',
            'nan_to_num', 'fmax', 'fmin', 'heaviside', 'fmod', 'remainder', 'pow', 'maximum', 'minimum', 'neg',
            'negative', 'abs', 'absolute', 'positive'}
# ops whose result is not of the operands' dtype
OWN_DTYPE = {'signbit', 'float_power'}


def _via_float(expr, dtype, op=None, cast=True):
    """The reference's CPU build lacks many float16 kernels that this project has: for those it computes
    the expression on the float16 operands widened to float32, and rounds the result to float16 (cast)
    unless the op's result has a dtype of its own; a correctly rounded kernel gives the same."""
    if dtype != 'float16' or (op is not None and op in REF_HALF):
        return expr
    ref = expr.replace('.to(torch.float16)', '.to(torch.float16).float()')
    return (expr, '(%s).to(torch.float16)' % ref if cast and op not in OWN_DTYPE else ref)


def _float_unary():
    out = []
    for op, data in FLOAT_UNARY.items():
        for d in DTYPES:
            x = '(%s)' % data.format(d)
            out.append(_via_float('torch.%s(%s)' % (op, x), d, op))
        for d in FLOATS:
            out.append(_via_float('torch.%s(%s)' % (op, EDGE.format(d)), d, op))
        for d in ['float32', 'float64']:
            wide = {X: WIDE, UNIT: WIDE_UNIT}.get(data, data)
            out += ['torch.%s(%s)' % (op, wide.format(d)), '(%s).%s()' % (XT.format(d), op),
                    'torch.%s(%s)' % (op, XS.format(d)), '(%s).expand(3, 8).%s()' % (wide.format(d) + '[:8]', op)]
        out += ['torch.%s(torch.tensor(0.5))' % op, 'torch.%s(torch.zeros(0, 3))' % op,
                'torch.%s(torch.tensor(7))' % op]
    out += [
        'torch.logit(%s, eps=0.1)' % X.format('float32'), 'torch.logit(%s, 0.25)' % UNIT.format('float64'),
        'torch.logit(%s, eps=-0.5)' % UNIT.format('float32'), 'torch.logit(%s, 0.1)' % UNIT.format('bfloat16'),
        'torch.tensor([1e30, -1e30, 88.0, 89.0, 710.0]).exp()', 'torch.tensor([-100.0, 100.0, 0.0]).sigmoid()',
        'torch.tensor([1e-10, -1e-10, 1e-40]).expm1()', 'torch.tensor([1e-10, -0.9999999, -1.0]).log1p()',
        'torch.tensor([0.0, -0.0, -1.0, -2.5, 1.0, 2.0, 1e10, -1e10]).lgamma()',
        'torch.tensor([0.0, -0.0, -1.0, -2.5, -3.6353297, 1.0, 10.0, 1e10]).digamma()',
        'torch.tensor([0.0, -0.0, -1.0, -2.5, -3.6353297, 1.0, 10.0, 1e10], dtype=torch.float64).digamma()',
        'torch.tensor([0.9999, -0.9999, 0.7, 0.70001, 1e-8]).erfinv()',
        'torch.tensor([0.9999, -0.9999, 0.7, 0.70001, 1e-8], dtype=torch.float64).erfinv()',
        'torch.tensor([1e-20, 1e20, 0.0, -0.0]).rsqrt()', 'torch.tensor([0.0, -0.0]).reciprocal()',
        'torch.tensor([180, 90], dtype=torch.int16).deg2rad()', 'torch.tensor([1e-45, 5.0, 15.0]).erfc()',
        'torch.tensor([-1.0, 1.0, 1.5]).acosh()', 'torch.tensor([1e4, -1e4, 1e-8]).tan()',
        '(torch.arange(-16, 17) * 6.25).tanh()', '(torch.arange(-16, 17) * 1.25).sigmoid()',
        '(torch.arange(-16, 17) / 4).erf()', '(torch.arange(-16, 17) * 625.3).sin()',
        '(torch.arange(-16, 17) * 625.3).cos()',
        '(torch.arange(-16, 17) * 5.4).exp()', '(torch.arange(-16, 17, dtype=torch.float64) * 43.7).exp()',
        '(torch.arange(1, 34) * 3e28).log()', '(torch.arange(1, 34, dtype=torch.float64) * 3e298).log()',
    ]
    return out


def _polygamma():
    out = []
    for d in DTYPES:
        x = WIDE_POS.format(d) + '[:8]'
        for n in [0, 1, 2, 3]:
            out.append(_via_float('torch.polygamma(%d, %s)' % (n, x), d))
        for p in [1, 2, 3]:
            out.append(_via_float('torch.mvlgamma(%s, %d)' % (WIDE_POS.replace('/ 3.1)',
                       '/ 3.1 + 2)').format(d) + '[:8]', p), d))
    out += ['torch.polygamma(1, torch.tensor([-1.5, 0.0, 0.5, 2.0, -2.0, 1e-4]))',
            'torch.polygamma(3, torch.tensor([-1.5, 0.0, 0.5, 2.0]))',
            'torch.polygamma(2, torch.tensor([-1.5, 0.5, 2.0, 30.0], dtype=torch.float64))',
            'torch.polygamma(5, torch.tensor([0.25, 7.0]))', 'torch.tensor([1.5, 3.0]).polygamma(2)',
            'torch.tensor([1.5, 3.0]).polygamma_(1)', 'torch.polygamma(-1, torch.tensor([1.0]))',
            'torch.polygamma(1, torch.tensor([1.5]), out=torch.empty(1, dtype=torch.float64))',
            'torch.mvlgamma(torch.tensor([2.5, 3.0], dtype=torch.float64), 4)',
            'torch.mvlgamma(torch.tensor([3, 4]), 3)',
            'torch.mvlgamma(torch.tensor([1.0, 2.0]), 0)', 'torch.tensor([2.5, 4.0]).mvlgamma_(2)',
            'torch.mvlgamma(torch.zeros(0), 2)', 'torch.tensor([2, 3]).mvlgamma_(2)']
    return out


def _rounding():
    out = []
    for d in DTYPES:
        x = '(%s)' % X.format(d)
        for op in ['floor', 'ceil', 'round', 'trunc', 'fix', 'frac', 'sign', 'sgn', 'signbit', 'neg', 'negative',
                   'abs', 'absolute', 'positive', 'square', 'nan_to_num']:
            out.append(_via_float('torch.%s(%s)' % (op, x), d, op))
        out.append(_via_float('torch.round(%s, decimals=1)' % x, d))
    for d in FLOATS:
        e = EDGE.format(d)
        for op in ['floor', 'ceil', 'round', 'trunc', 'frac', 'sign', 'signbit', 'nan_to_num', 'abs', 'neg']:
            if op != 'signbit' or d != 'bfloat16':  # the reference's float->bfloat16 copy makes NaN negative
                out.append(_via_float('torch.%s(%s)' % (op, e), d, op))
        out += ['torch.nan_to_num(%s, nan=1.5, posinf=2.0, neginf=-3.0)' % e,
                'torch.nan_to_num(%s, posinf=1e30)' % e,
                _via_float('torch.round(torch.tensor([2.5, 3.5, -0.5]).to(torch.%s))' % d, d)]
    out += [
        'torch.tensor([0.5, 1.5, 2.5, -0.5, -2.5]).round()', 'torch.tensor([1.2345, 5.678]).round(decimals=2)',
        'torch.tensor([1225.0, 1235.0]).round(decimals=-1)', 'torch.tensor([0.125, 0.135]).round(decimals=2)',
        'torch.tensor([1.2345, 5.678], dtype=torch.bfloat16).round(decimals=2)',
        'torch.tensor([1.2345, 5.678], dtype=torch.float64).round(decimals=3)',
        'torch.tensor([1e30, 1e-30]).round(decimals=10)', 'torch.tensor([1e30, 1e-30]).round(decimals=50)',
        'torch.tensor([12345.678], dtype=torch.float64).round(decimals=-400)',
        'torch.tensor([1234, 5678]).round(decimals=0)', 'torch.tensor([1234, 5678]).round(decimals=2)',
        'torch.tensor([2.5, 3.5], dtype=torch.bfloat16).round(decimals=0)',
        'torch.tensor([1.26, -1.26]).round_(decimals=1)',
        'torch.round(torch.tensor([1.26, -1.26]), decimals=1, out=torch.empty(2))',
        'torch.tensor([-3, 0, 2], dtype=torch.uint8).sign()', 'torch.tensor([True, False]).sign()',
        'torch.tensor([-2, 0, 3]).signbit()', 'torch.tensor([1, 2]).nan_to_num(1.0)',
        'torch.tensor([float("nan")]).nan_to_num(nan=float("inf"))',
        'torch.nan_to_num(torch.tensor([float("nan"), float("inf")], dtype=torch.float16), nan=1e6, posinf=1e6)',
        'torch.tensor([1.5, float("nan")]).nan_to_num_(0.0)', 'torch.square(torch.tensor([3], dtype=torch.int8) * 20)',
        'torch.tensor([1.5, -2.5]).square_()', 'torch.tensor(-2.5).frac()', 'torch.zeros(2, 0).floor()',
        'torch.tensor([-1.5, 2.5]).t().ceil_()', 'torch.tensor([[1.7, -1.7]]).t().trunc()',
        'torch.tensor([-1.5, 2.5]).floor_()', 'torch.tensor([-1.5, 2.5]).frac_()', 'torch.tensor([-1.5, 2.5]).sign_()',
        'torch.tensor([-1, 2]).abs_()', 'torch.tensor([-1, 2]).negative_()',
    ]
    return out


def _bitwise_logical():
    out = []
    ints = ['bool'] + INTS
    for d in DTYPES:
        a, b = '(%s)' % INT_X.format(d), '(%s)' % INT_Y.format(d)
        for op in ['bitwise_and', 'bitwise_or', 'bitwise_xor', 'logical_and', 'logical_or', 'logical_xor']:
            out.append('torch.%s(%s, %s)' % (op, a, b))
        out += ['torch.bitwise_not(%s)' % a, 'torch.logical_not(%s)' % a, '%s & %s' % (a, b), '%s | %s' % (a, b),
                '%s ^ %s' % (a, b), '~%s' % a, 'torch.bitwise_left_shift(%s, %s)' % (a, INT_Y.format('int64').replace(
                    '-1', '1').replace('-4', '4')), '%s << 2' % a, '%s >> 1' % a,
                'torch.bitwise_right_shift(%s, torch.tensor([1, 2, 3, 0, 4, 1, 2, 7]).to(torch.%s))' % (a, d)]
    for da in ints:
        for db in ints:
            out += ['torch.bitwise_and(%s, %s)' % (INT_X.format(da), INT_Y.format(db)),
                    '%s << %s' % (INT_X.format(da), 'torch.tensor([1, 2, 3, 0, 4, 1, 2, 5]).to(torch.%s)' % db)]
    for d in ['bool', 'uint8', 'int64', 'float32', 'float16']:
        out += ['torch.logical_xor(%s, %s)' % (X.format(d), Y.format('int16')),
                'torch.logical_and(%s, %s)' % (XT.format(d), XS.format('float64')),
                'torch.logical_or(%s, torch.tensor(2.5))' % X.format(d)]
    out += [
        'torch.tensor([1, 2, -8], dtype=torch.int64) << torch.tensor([64, 65, -1])',
        'torch.tensor([1, 2, -8], dtype=torch.int64) >> torch.tensor([64, 65, -1])',
        'torch.tensor([1, 2, -8] * 20, dtype=torch.int64) << torch.tensor([63, 1, 3] * 20)',
        'torch.tensor([1, 2, -8], dtype=torch.int8) << torch.tensor([7, 8, 9], dtype=torch.int8)',
        'torch.tensor([1, 2, -8], dtype=torch.int8) >> torch.tensor([7, 8, 9], dtype=torch.int8)',
        'torch.tensor([1, 2, -8], dtype=torch.int32) << 33', 'torch.tensor([1, 2, 200], dtype=torch.uint8) << 3',
        '2 << torch.tensor([1, 2])', '1024 >> torch.tensor([1, 2])', 'torch.tensor([True, False]) & True',
        '5 & torch.tensor([1, 3])', '5 | torch.tensor([1, 3])', '5 ^ torch.tensor([1, 3])',
        'torch.tensor([1, 2]) & 1.5', 'torch.tensor([1.5]) << 1', 'torch.tensor([1.5]) & torch.tensor([1.5])',
        '~torch.tensor([1.5])', 'torch.bitwise_not(torch.tensor([1.5]))', 'torch.tensor([True]) << 1',
        'torch.bitwise_and(torch.tensor([12, 10]), 6)', 'torch.bitwise_or(6, torch.tensor([12, 10]))',
        'torch.bitwise_xor(torch.tensor([12, 10]), torch.tensor(6, dtype=torch.uint8))',
        'torch.bitwise_left_shift(3, torch.tensor([1, 2]))', 'torch.bitwise_right_shift(torch.tensor([96, 7]), 2)',
        'torch.tensor([12, 10]).bitwise_and_(torch.tensor([6]))', 'torch.tensor([12, 10]).bitwise_or_(3)',
        'torch.tensor([12, 10]).bitwise_left_shift_(torch.tensor([1, 2]))',
        'torch.tensor([12, 10]).bitwise_right_shift_(1)', 'torch.tensor([12, 10]).bitwise_not_()',
        'torch.tensor([12, 10]).__and__(6)', 'torch.tensor([12, 10]).__or__(torch.tensor([1, 1]))',
        'torch.tensor([12, 10]).__lshift__(1)', 'torch.tensor([12, 10]).__rshift__(torch.tensor([1, 2]))',
        'torch.tensor([12, 10]).__rand__(6)', 'torch.tensor([1, 2]).__rlshift__(3)',
        'torch.tensor([12, 10]).__iand__(6)', 'torch.tensor([12, 10]).__ixor__(torch.tensor([1, 1]))',
        'torch.tensor([12, 10]).__ilshift__(1)', 'torch.tensor([12, 10]).__irshift__(1)',
        'torch.tensor([1., 2]).bitwise_and_(torch.tensor([1, 2]))',
        'torch.tensor([1, 2]).bitwise_left_shift_(torch.tensor([1., 2]))',
        'torch.tensor([1, 2]).bitwise_or_(torch.tensor([[1], [2]]))',
        'torch.bitwise_and(torch.tensor([1, -2]), torch.tensor([1, -2]), out=torch.empty(2))',
        'torch.bitwise_not(torch.tensor([1, -2]), out=torch.empty(2, dtype=torch.int32))',
        'torch.bitwise_not(torch.tensor([1, -2]), out=torch.empty(2, dtype=torch.int64))',
        'torch.logical_and(torch.tensor([1, 0]), torch.tensor([2, 2]), out=torch.empty(2))',
        'torch.logical_not(torch.tensor([float("nan"), 0.0, -0.0]))', 'torch.tensor([1., 2]).logical_not_()',
        'torch.tensor([1., 0]).logical_and_(torch.tensor([2, 0]))',
        'torch.tensor([1, 0]).logical_or_(torch.tensor(0.5))',
        'torch.tensor([1., 0]).logical_xor_(torch.tensor([1, 1]))', 'torch.logical_xor(torch.zeros(0), torch.zeros(0))',
        'torch.logical_and(torch.tensor(True), torch.tensor([True, False]))', 'torch.bitwise_xor(torch.tensor(5), 3)',
        'torch.tensor([[1, 2], [3, 4]]).t() & torch.tensor([[3], [1]])',
    ]
    return out


def _binary_math():
    out = []
    ops = ['atan2', 'arctan2', 'hypot', 'copysign', 'nextafter', 'xlogy', 'fmax', 'fmin', 'fmod', 'remainder',
           'float_power', 'heaviside', 'maximum', 'minimum', 'pow']
    for d in DTYPES:
        a, b = '(%s)' % X.format(d), '(%s)' % Y.format(d)
        for op in ops:
            out.append(_via_float('torch.%s(%s, %s)' % (op, a, b), d, op))
    for d in FLOATS:
        e = '(%s)' % EDGE.format(d)
        for op in ['atan2', 'hypot', 'copysign', 'nextafter', 'xlogy', 'fmax', 'fmin', 'fmod', 'remainder']:
            # float16 nextafter steps in float16 (the reference has none); the reference's float->bfloat16
            # copy makes NaN negative
            if (op == 'nextafter' and d == 'float16') or (d == 'bfloat16' and op == 'copysign'):
                continue
            out += [_via_float('torch.%s(%s, %s)' % (op, e, Y.format(d)), d, op),
                    _via_float('torch.%s(%s, %s)' % (op, X.format(d), e), d, op)]
    mixed = [('int64', 'float32'), ('float32', 'float64'), ('int32', 'int64'), ('bool', 'int64'), ('uint8', 'int8'),
             ('float16', 'float32'), ('bfloat16', 'float16'), ('int16', 'bfloat16')]
    for da, db in mixed:
        for op in ['atan2', 'hypot', 'copysign', 'nextafter', 'xlogy', 'fmax', 'fmod', 'remainder', 'float_power',
                   'heaviside']:
            out.append('torch.%s(%s, %s)' % (op, X.format(da), Y.format(db)))
        out += ['torch.fmin(%s, %s)' % (XT.format(da), XS.format(db)),
                'torch.atan2(%s, %s)' % (XS.format(da), XT.format(db))]
    for s in ['2', '-1.5', 'True', '0']:
        for d in ['int64', 'float32', 'bfloat16', 'uint8']:
            x = X.format(d)
            out += ['torch.copysign(%s, %s)' % (x, s), 'torch.xlogy(%s, %s)' % (x, s), 'torch.xlogy(%s, %s)' % (s, x),
                    'torch.fmod(%s, %s)' % (x, s), 'torch.remainder(%s, %s)' % (x, s),
                    'torch.remainder(%s, %s)' % (s, x), 'torch.float_power(%s, %s)' % (x, s),
                    'torch.float_power(%s, %s)' % (s, x), 'torch.pow(%s, %s)' % (x, s), 'torch.pow(%s, %s)' % (s, x)]
    out += [
        'torch.atan2(torch.tensor([0., -0., 0., -0.]), torch.tensor([-0., -0., 0., 0.]))',
        'torch.atan2(torch.tensor([1, -1]), torch.tensor([0, 0]))',
        'torch.hypot(torch.tensor([3.]), torch.tensor([4]))',
        'torch.hypot(torch.tensor([float("inf")]), torch.tensor([float("nan")]))',
        'torch.hypot(torch.tensor([3, 4]), torch.tensor([4, 3]))',
        'torch.nextafter(torch.tensor([1, 2]), torch.tensor([0, 3]))',
        'torch.nextafter(torch.tensor([0., 1.]), torch.tensor([1., 0.]))',
        'torch.nextafter(torch.tensor([0., 1., -0.], dtype=torch.float64), torch.tensor([1., 0., -1.], dtype=torch.float64))',
        'torch.nextafter(torch.tensor([0., 1., 65504., -1.], dtype=torch.bfloat16), torch.tensor([1., 0., 1e30, -2.], dtype=torch.bfloat16))',
        'torch.xlogy(torch.tensor([0., 0., 1., 2.]), torch.tensor([0., float("nan"), 0., -1.]))',
        'torch.xlogy(torch.tensor([0.]), torch.tensor([float("inf")]))', 'torch.xlogy(2, torch.tensor([3, 4]))',
        'torch.xlogy(torch.tensor([3, 4]), torch.tensor([True, False]))',
        'torch.special.xlogy(torch.tensor([3, 4]), 2)',
        'torch.special.xlogy(2.5, torch.tensor([3, 4]))',
        'torch.special.xlogy(torch.tensor([0., 1.]), torch.tensor([0., 3.]))',
        'torch.tensor([1., 2]).xlogy_(torch.tensor([3., 4]))', 'torch.tensor([1., 2]).xlogy_(3)',
        'torch.xlogy(torch.tensor([1., 2]), 3, out=torch.empty(2, dtype=torch.float64))',
        'torch.copysign(torch.tensor([1, 2, 0]), -0.0)',
        'torch.copysign(torch.tensor([1, 2, 0]), torch.tensor([-1, 0, -2]))',
        'torch.tensor([1., 2]).copysign_(-1)', 'torch.tensor([1., 2]).copysign_(torch.tensor([-1., 1]))',
        'torch.fmod(torch.tensor([5, -5]), torch.tensor([0, 0]))', 'torch.fmod(torch.tensor([5, -5]), 0)',
        'torch.fmod(torch.tensor([5., -5, 5, -5, 0]), torch.tensor([0., 0, 3, 3, 0]))',
        'torch.fmod(torch.tensor([5, -5, 5, -5]), -3)', 'torch.fmod(torch.tensor([-128], dtype=torch.int8), -1)',
        'torch.remainder(torch.tensor([5., -5, 5, -5]), torch.tensor([-0., -0., -3, -3]))',
        'torch.remainder(5, torch.tensor([3, -3]))', 'torch.remainder(5.5, torch.tensor([3, -3]))',
        'torch.tensor([5, 7]).fmod_(3)', 'torch.tensor([5., 7]).fmod_(torch.tensor([3., -2]))',
        'torch.tensor([5, 7]).remainder_(-3)', 'torch.fmod(torch.tensor([True]), torch.tensor([True]))',
        'torch.fmax(torch.tensor([1., float("nan"), float("nan")]), torch.tensor([float("nan"), 2., float("nan")]))',
        'torch.fmin(torch.tensor([1., float("nan"), float("nan")]), torch.tensor([float("nan"), 2., float("nan")]))',
        'torch.fmax(torch.tensor([True, False]), torch.tensor([False, False]))',
        'torch.fmax(torch.tensor([1.5, -2.5]), torch.tensor([1.5, -2.5]), out=torch.empty(2, dtype=torch.float64))',
        'torch.heaviside(torch.tensor([-1., 0, 2]), torch.tensor(0.5))',
        'torch.heaviside(torch.tensor([-1., 0, 2]), 0.5)',
        'torch.heaviside(torch.tensor([-1., 0, 2]), torch.tensor(0.5, dtype=torch.float64))',
        'torch.heaviside(torch.tensor([-1., 0, float("nan")]), torch.tensor([7.]))',
        'torch.heaviside(torch.tensor([-1, 0, 2]), torch.tensor([5]))',
        'torch.heaviside(torch.tensor([True, False]), torch.tensor([True]))',
        'torch.heaviside(torch.tensor([1.5, -2.5]), torch.tensor([1.5, -2.5]), out=torch.empty(2, dtype=torch.float64))',
        'torch.tensor([-1., 0, 2]).heaviside_(torch.tensor([3.]))', 'torch.hypot(torch.tensor([3]), torch.tensor([4]))',
        'torch.tensor([3., 5]).hypot_(torch.tensor([4., 12]))', 'torch.tensor([1., -1]).atan2_(torch.tensor([0., 0]))',
        'torch.tensor([1., -1]).arctan2_(torch.tensor([-1., 1]))',
        'torch.tensor([1., 2]).nextafter_(torch.tensor([3., 0]))',
        'torch.tensor([1, 2]).atan2_(torch.tensor([1, 1]))',
    ]
    return out


def _powers():
    out = []
    for d in DTYPES:
        x = '(%s)' % X.format(d)
        for e in ['2', '3', '0', '-1', '0.5', '-0.5', '2.5', 'True']:
            out.append(_via_float('torch.pow(%s, %s)' % (x, e), d, 'pow'))
        out += [_via_float('%s ** 2' % x, d, 'pow'), _via_float('2 ** %s' % x, d, 'pow'),
                _via_float('torch.pow(%s, %s)' % (x, Y.format(d)), d, 'pow'),
                'torch.float_power(%s, 2)' % x, 'torch.float_power(%s, %s)' % (x, Y.format('int64')),
                'torch.float_power(2.5, %s)' % x, 'torch.square(%s)' % x]
    out += [
        'torch.pow(torch.tensor([2]), torch.tensor([-2]))', 'torch.pow(torch.tensor([2]), -2)',
        'torch.pow(2, torch.tensor([-2]))', 'torch.pow(torch.tensor([2, 3]), 0)',
        'torch.pow(torch.tensor([0., 2]), -0.5)',
        'torch.pow(-2, torch.tensor([0.5]))', 'torch.pow(torch.tensor([True, False]), 2)',
        'torch.pow(True, torch.tensor([1, 2]))',
        'torch.pow(torch.tensor([1, 2], dtype=torch.uint8), -1)', 'torch.tensor([1, 2]).pow_(0.5)',
        'torch.tensor([4., 9]).pow_(torch.tensor(0.5))', 'torch.tensor([4., 9]) ** torch.tensor([[0.5], [2]])',
        'torch.pow(torch.tensor([1.5, -2.5]), 2, out=torch.empty(2, dtype=torch.float64))',
        'torch.pow(torch.tensor([float("nan"), 0.0]), 0)', 'torch.pow(1, torch.tensor([float("nan"), 2.0]))',
        'torch.tensor([2, 3]).pow_(2)', 'torch.tensor([2., 3]).pow_(-1)', 'torch.pow(torch.tensor([-8., 8]), 1 / 3)',
        'torch.float_power(torch.tensor([-8.]), 1 / 3)', 'torch.float_power(torch.tensor([2]), torch.tensor([-2]))',
        'torch.tensor([1., 2]).float_power_(2)',
        'torch.tensor([1., 2], dtype=torch.float64).float_power_(torch.tensor(2))',
        'torch.tensor([1., 2], dtype=torch.float64).float_power_(0.5)',
        'torch.float_power(torch.tensor([1.5, -2.5]), 2, out=torch.empty(2, dtype=torch.float32))',
        'torch.float_power(torch.tensor([1.5, -2.5]), 2, out=torch.empty(2, dtype=torch.float64))',
        'torch.square(torch.tensor([1, -2]), out=torch.empty(2, dtype=torch.float64))',
        'torch.square(torch.tensor([1, -2]), out=torch.empty(2, dtype=torch.int64))',
        'torch.pow(torch.zeros(0), 2)', 'torch.pow(torch.tensor(3), torch.tensor([1, 2]))',
    ]
    return out


def _clamp_lerp_addc():
    out = []
    for d in DTYPES:
        x = '(%s)' % X.format(d)
        out += [_via_float(e, d) for e in [
            'torch.clamp(%s, -1, 2)' % x, 'torch.clamp(%s, min=0.5)' % x, 'torch.clamp(%s, max=1)' % x,
            'torch.clip(%s, -1.5, 2.5)' % x, 'torch.clamp_min(%s, 0)' % x, 'torch.clamp_max(%s, 1)' % x,
            'torch.clamp(%s, %s)' % (x, Y.format(d)), 'torch.clamp(%s, max=%s)' % (x, Y.format(d)),
            'torch.clamp(%s, %s, %s + 1)' % (x, Y.format(d), Y.format(d)), 'torch.clamp_min(%s, %s)' % (x, Y.format(d)),
            'torch.clamp_max(%s, %s)' % (x, Y.format(d)), 'torch.addcmul(%s, %s, %s)' % (x, Y.format(d), X.format(d)),
            'torch.addcmul(%s, %s, %s, value=2)' % (x, Y.format(d), X.format(d)),
            'torch.lerp(%s, %s, 0.25)' % (x, Y.format(d)), 'torch.lerp(%s, %s, 0.75)' % (x, Y.format(d)),
            'torch.lerp(%s, %s, %s)' % (x, Y.format(d), UNIT.format(d))]]
        out.append('torch.addcdiv(%s, %s, %s)' % (x, Y.format(d), Y.format('float32')))
    for d in FLOATS:
        e = '(%s)' % EDGE.format(d)
        out += [_via_float(x, d) for x in [
            'torch.clamp(%s, -1, 2)' % e, 'torch.clamp(%s, %s)' % (e, Y.format(d)), 'torch.clamp_min(%s, 0.5)' % e,
            'torch.lerp(%s, %s, 0.5)' % (e, X.format(d)), 'torch.addcmul(%s, %s, %s)' % (e, X.format(d), X.format(d))]]
    out += [
        'torch.clamp(torch.tensor([1., 2]))', 'torch.clamp(torch.tensor([1., 2]), None, None)',
        'torch.clamp(torch.tensor([1., float("nan"), 3]), float("nan"), 2)',
        'torch.clamp(torch.tensor([1., float("nan"), 3]), float("nan"))',
        'torch.clamp(torch.tensor([1., float("nan"), 3]), max=float("nan"))',
        'torch.clamp(torch.tensor([1., float("nan"), 3]), 2, 1)',
        'torch.clamp(torch.tensor([1., float("nan"), 3]), torch.tensor([float("nan"), 0, 0]))',
        'torch.clamp(torch.tensor([1., float("nan"), 3]), torch.tensor([float("nan"), 0, 0]), torch.tensor([5., 5, 5]))',
        'torch.clamp_min(torch.tensor([1., float("nan"), 3]), float("nan"))',
        'torch.clamp_max(torch.tensor([1., 5, 9]), float("nan"))', 'torch.clamp(torch.tensor([1, 2, 3]), 0.5)',
        'torch.clamp(torch.tensor([1, 2, 3]), 0.5, 2.5)', 'torch.clamp(torch.tensor([1, 2, 3]), max=torch.tensor(2.5))',
        'torch.tensor([1, 2, 3]).clamp_(0.5)', 'torch.tensor([1, 5, 9]).clamp_(2, 7)',
        'torch.tensor([1., 5, 9]).clamp_(torch.tensor([2.], dtype=torch.float64))',
        'torch.clamp(torch.tensor([1, 5, 9]), torch.tensor(2.5))', 'torch.tensor([1, 5, 9]).clamp_(torch.tensor(2.5))',
        'torch.clamp(torch.tensor([1, 5, 9]), min=torch.tensor([[0], [6]]))', 'torch.clamp(torch.tensor(3.), 1, 2)',
        'torch.clamp(torch.tensor([1, 2, 3], dtype=torch.uint8), -1, 300)',
        'torch.clamp(torch.tensor([1, 2], dtype=torch.int8), 100, 3000)',
        'torch.clamp(torch.tensor([1, 2], dtype=torch.int32), 2**40)',
        'torch.clamp_min(torch.tensor([1, 2], dtype=torch.uint8), -1)',
        'torch.clamp(torch.tensor([True, False]), 0, 1)',
        'torch.clamp(torch.tensor([True, False]), True)',
        'torch.clamp(torch.tensor([True, False]), torch.tensor(True))',
        'torch.clamp(torch.tensor([True, False]), torch.tensor(True), torch.tensor(False))',
        'torch.clamp_max(torch.tensor([True, False]), torch.tensor([True, False]))',
        'torch.clamp(torch.tensor([1, 5, 9], dtype=torch.uint8), torch.tensor([2]), torch.tensor([7]))',
        'torch.clamp(torch.tensor([1, -2]), 0, out=torch.empty(2))',
        'torch.clamp(torch.tensor([1, -2]), 0, out=torch.empty(2, dtype=torch.int64))',
        'torch.clamp(torch.tensor([1., -2]), torch.tensor([0.]), out=torch.empty(2, dtype=torch.float64))',
        'torch.clamp(torch.zeros(0, 2), -1, 1)', 'torch.tensor([1.5, -3]).clip_(-1, 1)',
        'torch.tensor([1.5, -3]).clamp_min_(0)', 'torch.tensor([1.5, -3]).clamp_max_(torch.tensor([0.]))',
        '(torch.arange(-18, 19) / 6).clamp(-1, 1)', '(torch.arange(-18, 18) / 6).view(6, 6).t().clamp(max=0.5)',
        'torch.lerp(torch.tensor([1., 2]), torch.tensor([3., 4]), torch.tensor([0.5, 1.0], dtype=torch.float64))',
        'torch.lerp(torch.tensor([1., 2]), torch.tensor([3., 4]), torch.tensor(0.5, dtype=torch.float64))',
        'torch.lerp(torch.tensor([1., 2]), torch.tensor([3., 4]), 2)',
        'torch.lerp(torch.tensor([1., 2]), torch.tensor([3, 4]), 0.5)',
        'torch.lerp(torch.tensor([1, 2]), torch.tensor([3, 4]), 0.5)',
        'torch.lerp(torch.tensor([1., 2], dtype=torch.bfloat16), torch.tensor([3., 4], dtype=torch.bfloat16), 0.3)',
        'torch.lerp(torch.tensor([1., 2]), torch.tensor([3., 4]), torch.tensor([[0.5], [0.25]]))',
        'torch.tensor([1., 2]).lerp_(torch.tensor([3., 4]), torch.tensor([[0.5], [0.25]]))',
        'torch.tensor([1., 2]).lerp_(torch.tensor([3., 4]), 0.5)',
        'torch.lerp(torch.tensor([1.5, -2.5]), torch.tensor([1.5, -2.5]), 0.5, out=torch.empty(2, dtype=torch.float64))',
        'torch.lerp(torch.tensor(1.), torch.tensor([3., 4]), torch.tensor(0.5))',
        'torch.addcdiv(torch.tensor([1, 2]), torch.tensor([1, 2]), torch.tensor([1, 2]))',
        'torch.addcmul(torch.tensor([True]), torch.tensor([True]), torch.tensor([True]))',
        'torch.addcmul(torch.tensor([1, 2]), torch.tensor([1, 2]), torch.tensor([1, 2]), value=0.5)',
        'torch.addcmul(torch.tensor([1, 2]), torch.tensor([1, 2]), torch.tensor([1., 2]), value=0.5)',
        'torch.addcdiv(torch.tensor([1., 2]), torch.tensor([1, 2]), torch.tensor([1, 2]))',
        'torch.addcdiv(torch.tensor([1., 2]), torch.tensor([1., 2]), torch.tensor([1, 2]), value=True)',
        'torch.addcdiv(torch.tensor([1., 2]), torch.tensor([1., 2]), torch.tensor([0., 2]), value=2)',
        'torch.addcdiv(torch.tensor([1, 2]), torch.tensor([1., 2]), torch.tensor([3, 2]))',
        'torch.tensor([1, 2]).addcdiv_(torch.tensor([1., 2]), torch.tensor([3, 2]))',
        'torch.addcmul(torch.tensor([1., 2]), torch.tensor([1., 2]), torch.tensor([[1.], [2]]))',
        'torch.addcmul(torch.tensor(1.), torch.tensor([1., 2]), torch.tensor(3))',
        'torch.tensor([1., 2]).addcmul_(torch.tensor([3., 4]), torch.tensor([0.5, 2]), value=-1)',
        'torch.tensor([1., 2]).addcdiv_(torch.tensor([3., 4]), torch.tensor([0.5, 2]), value=3)',
        'torch.addcmul(torch.tensor([100], dtype=torch.int8), torch.tensor([100], dtype=torch.int8), torch.tensor([3], dtype=torch.int8))',
    ]
    return out


def _comparisons_tests():
    out = []
    for da in DTYPES:
        for db in ['bool', 'uint8', 'int64', 'float16', 'bfloat16', 'float32', 'float64']:
            a, b = X.format(da), Y.format(db)
            out += ['torch.greater(%s, %s)' % (a, b), 'torch.less_equal(%s, %s)' % (XT.format(da), XS.format(db))]
        a = X.format(da)
        for op in ['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'greater', 'greater_equal', 'less', 'less_equal', 'not_equal']:
            out.append('torch.%s(%s, 1)' % (op, a))
        for op in ['isnan', 'isinf', 'isfinite', 'isposinf', 'isneginf', 'isreal']:
            out.append('torch.%s(%s)' % (op, a))
    for d in FLOATS:
        e = EDGE.format(d)
        for op in ['isnan', 'isinf', 'isfinite', 'isposinf', 'isneginf', 'isreal']:
            out.append('torch.%s(%s)' % (op, e))
        out += ['torch.eq(%s, %s)' % (e, e), 'torch.ne(%s, float("nan"))' % e, 'torch.lt(%s, 0)' % e]
    out += [
        'torch.tensor([1, 2]).eq_(torch.tensor([1., 3.]))', 'torch.tensor([1.5, 2]).eq_(torch.tensor([[1., 3.]]))',
        'torch.tensor([1, 2]).greater_(1)', 'torch.tensor([1., 2]).less_equal_(torch.tensor([2., 1]))',
        'torch.tensor([1, 2]).not_equal_(2)', 'torch.tensor([1, 2]).lt_(1.5)',
        'torch.eq(torch.tensor([1, 2]), 1, out=torch.empty(2, dtype=torch.int32))',
        'torch.greater(torch.tensor([1, 2]), torch.tensor([2, 1]), out=torch.empty(2))',
        'torch.isnan(torch.tensor([1, 2]))', 'torch.isposinf(torch.tensor([1., 2]), out=torch.empty(2))',
        'torch.isneginf(torch.tensor([-float("inf"), 2]), out=torch.empty(2, dtype=torch.bool))',
        'torch.signbit(torch.tensor([1.5, -2.5]), out=torch.empty(2))', 'torch.isfinite(torch.zeros(0))',
        'torch.isinf(torch.tensor(float("-inf")))', 'torch.isnan(torch.tensor([[float("nan"), 1.0]]).t())',
        'torch.isclose(torch.tensor([1., float("nan")]), torch.tensor([1.00001, float("nan")]), equal_nan=True)',
        'torch.isclose(torch.tensor([1., float("nan")]), torch.tensor([1.000001, float("nan")]))',
        'torch.isclose(torch.tensor([1, 2]), torch.tensor([1, 3]), rtol=0.4)',
        'torch.isclose(torch.tensor([1., 2]), torch.tensor([1., 3]), rtol=-0.4)',
        'torch.isclose(torch.tensor([1., 2]), torch.tensor([1., 3]), atol=-0.4)',
        'torch.isclose(torch.tensor([float("inf"), 2, -float("inf")]), torch.tensor([float("inf"), 3, float("inf")]))',
        'torch.isclose(torch.tensor([1., 2]), torch.tensor(1.))',
        'torch.isclose(torch.tensor([1, 2], dtype=torch.uint8), torch.tensor([2, 1], dtype=torch.uint8), atol=1)',
        'torch.isclose(torch.tensor([True, False]), torch.tensor([True, True]))',
        'torch.isclose(torch.tensor([1e10, 2]), torch.tensor([1.00001e10, 2]))',
        'torch.isclose(torch.tensor([1., 2]), torch.tensor([1., 2], dtype=torch.float64))',
        'torch.isclose(torch.tensor([1., 2], dtype=torch.float16), torch.tensor([1.001, 2.01], dtype=torch.float16), rtol=1e-3)',
        'torch.isclose(torch.tensor([0.1, 0.2]), torch.tensor([0.1, 0.25]), rtol=0, atol=0)',
        'torch.isclose(torch.zeros(2, 0), torch.zeros(2, 0))',
        'torch.allclose(torch.tensor([1., 2]), torch.tensor([1., 2.00001]))',
        'torch.allclose(torch.tensor([1., 2]), torch.tensor([[1., 2.00001]]))',
        'torch.allclose(torch.tensor([1., 2]), torch.tensor([1., 2.1]))',
        'torch.allclose(torch.tensor([]), torch.tensor([]))',
        'torch.allclose(torch.tensor([1, 2]), torch.tensor([1., 2]))',
        'torch.allclose(torch.tensor([float("nan")]), torch.tensor([float("nan")]), equal_nan=True)',
        'torch.allclose(torch.tensor([1., 2]), torch.tensor([1.1, 2.2]), rtol=0.1, atol=0.01)',
        'torch.equal(torch.tensor([1, 2]), torch.tensor([1., 2.]))',
        'torch.equal(torch.tensor([1, 2]), torch.tensor([1, 2, 3]))',
        'torch.equal(torch.tensor([1, 2]), torch.tensor([[1, 2]]))',
        'torch.equal(torch.tensor([float("nan")]), torch.tensor([float("nan")]))',
        'torch.equal(torch.tensor([]), torch.tensor([]))',
        'torch.equal(torch.tensor([1, 2]), torch.tensor([True, True]))',
        'torch.equal(torch.tensor(1), torch.tensor([1]))',
        'torch.tensor([[1, 2], [3, 4]]).t().equal(torch.tensor([[1, 3], [2, 4]]))',
        'torch.tensor([1, 2]).allclose(torch.tensor([1, 2]))', 'torch.tensor([1., 2]).isclose(torch.tensor([1., 2]))',
    ]
    return out


def _meta_and_misc():
    m = 'torch.empty(2, 3, device="meta")'
    out = ['torch.%s(%s).shape' % (op, m) for op in ['sin', 'exp', 'floor', 'sign', 'isnan', 'erfinv', 'logical_not']]
    out += ['torch.atan2(%s, torch.empty(3, device="meta")).shape' % m, 'torch.clamp(%s, 0, 1).dtype' % m,
            'torch.lerp(%s, %s, 0.5).shape' % (m, m),
            'torch.bitwise_and(torch.empty(2, dtype=torch.int64, device="meta"), 3).dtype',
            'torch.polygamma(2, %s).shape' % m, 'torch.isclose(%s, %s).dtype' % (m, m),
            'torch.sin(torch.tensor([1], dtype=torch.int32)).dtype', 'torch.exp(torch.tensor(True))',
            'torch.positive(torch.tensor([True]))', '+torch.tensor([1, 2])', '+torch.tensor([True])',
            'torch.abs(torch.tensor([True]))', 'torch.floor(torch.tensor([True]))', 'torch.frac(torch.tensor([1, 2]))',
            'torch.hypot(torch.tensor([1, 2]), torch.tensor([1, 2]))',
            'torch.nextafter(torch.tensor([1]), torch.tensor([2]))',
            'torch.exp(torch.tensor([1.5, -2.5]), out=torch.empty(2, dtype=torch.float16))',
            'torch.sin(torch.tensor([1.5, -2.5]), out=torch.empty(2, dtype=torch.float64))',
            'torch.sqrt(torch.tensor([1, 4]), out=torch.empty(2, dtype=torch.float64))',
            'torch.abs(torch.tensor([1, -2]), out=torch.empty(2))',
            'torch.neg(torch.tensor([1, -2]), out=torch.empty(2))',
            'torch.floor(torch.tensor([1.5, -2.5]), out=torch.empty(2, dtype=torch.float64))',
            'torch.sign(torch.tensor([1.5, -2.5]), out=torch.empty(2, dtype=torch.float64))',
            'torch.nan_to_num(torch.tensor([1.5, -2.5]), out=torch.empty(2, dtype=torch.float64))',
            'torch.frac(torch.tensor([1.5, -2.5]), out=torch.empty(2, dtype=torch.float64))',
            'torch.reciprocal(torch.tensor([1, -2]), out=torch.empty(2, dtype=torch.int64))',
            'torch.tensor([0, 2]).reciprocal_()', 'torch.tensor([180, 90]).deg2rad_()', 'torch.tensor([4, 9]).sqrt_()',
            'torch.tensor([4., 9]).sqrt_()', 'torch.tensor([0.5, 1.0]).exp_()', 'torch.tensor([0.5, 1.0]).t().sin_()',
            'torch.tensor([[0.5, 1.0], [2., 3.]]).t().erfinv_()', 'torch.tensor([[0.5, 1.0], [2., 3.]])[:, 1].logit_()',
            'torch.sin(torch.tensor([1., 2.]), out=torch.empty(5))',
            'torch.sin(torch.tensor([1., 2.]), out=torch.empty(0))',
            'torch.exp(torch.tensor([[1., 2.]]).expand(3, 2))', 'torch.tanh(torch.arange(12.).view(3, 4)[:, ::2])',
            'torch.arange(6).view(2, 3).t().sigmoid()', 'torch.tensor([1, 2, 3], dtype=torch.int16).exp2()']
    return out


def _special():
    out = []
    for d in ['int64', 'bfloat16', 'float32', 'float64']:
        x, p = X.format(d), WIDE_POS.format(d) + '[:8]'
        out += ['torch.special.expit(%s)' % x, 'torch.special.erf(%s)' % x, 'torch.special.erfc(%s)' % x,
                'torch.special.exp2(%s)' % x, 'torch.special.expm1(%s)' % x, 'torch.special.log1p(%s)' % p,
                'torch.special.digamma(%s)' % p, 'torch.special.psi(%s)' % p, 'torch.special.gammaln(%s)' % p,
                'torch.special.polygamma(2, %s)' % p, 'torch.special.multigammaln(%s + 2, 2)' % p,
                'torch.special.erfinv(%s)' % UNIT.format(d), 'torch.special.logit(%s, eps=0.2)' % UNIT.format(d),
                'torch.special.round(%s)' % x, 'torch.special.round(%s, decimals=1)' % x]
    out += ['torch.special.expit(torch.tensor([0.5]), out=torch.empty(1, dtype=torch.float64))',
            'torch.special.multigammaln(torch.tensor([2.5]), 0)', 'torch.special.polygamma(-1, torch.tensor([1.0]))']
    return out


CASES = (_float_unary() + _special() + _polygamma() + _rounding() + _bitwise_logical() + _binary_math() + _powers() +
         _clamp_lerp_addc() + _comparisons_tests() + _meta_and_misc())
SUITE = Suite('pointwise', CASES)
RECORDED, RUNNER, reference_request = SUITE.recorded, SUITE.runner, SUITE.reference_request
reports = SUITE.fixture()


@pytest.mark.parametrize('expr', SUITE.expressions)
def test_matches_reference(reports, expr):
    SUITE.check(reports, expr)
