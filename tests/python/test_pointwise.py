"""The pointwise family: math functions, powers, rounding, signs, bitwise/logical ops and their operators,
clamp/lerp/addcmul/addcdiv, comparisons, value tests and closeness. Expected values are derived here
independently (closed forms, Python's math module, hand computation); the differential suite
(test_pointwise_reference.py) compares with PyTorch itself. Also: dtype rules and PyTorch's errors,
empty/0-dim/non-contiguous/broadcast operands, in-place and out= variants, the meta device, large
tensors (vectorised loops, blocks, threads) and mixed-dtype operands converted while loading, with
the kernel flag of ABI 1.2 seen from a device plugin."""
import json
import math
import os
import struct
import subprocess
import sys
import textwrap

import pytest
import torch

from conftest import TEST_PLUGIN_DIR


def f32(x):
    """x rounded to float32."""
    return struct.unpack('f', struct.pack('f', x))[0]


def ulps32(a, b):
    """Distance of two float32 values in units of the last place."""
    ia, ib = (struct.unpack('i', struct.pack('f', v))[0] for v in (a, b))
    ia, ib = (i if i >= 0 else -(i & 0x7fffffff) for i in (ia, ib))
    return abs(ia - ib)


def close32(values, expected, ulps=1):
    return len(values) == len(expected) and all(
        (math.isnan(e) and math.isnan(v)) or (v == e) or ulps32(v, f32(e)) <= ulps for v, e in zip(values, expected))


# ---- float functions: closed forms and math ------------------------------------------------------------------

POINTS = [-2.5, -1.0, -0.25, 0.0, 0.5, 1.0, 2.75, 9.0]
POSITIVE = [0.125, 0.5, 1.0, 2.0, 3.5, 10.0, 100.0, 1e6]
UNIT = [-0.9, -0.5, -0.1, 0.0, 0.3, 0.5, 0.75, 0.99]

MATH = {
    'sin': (math.sin, POINTS), 'cos': (math.cos, POINTS), 'tan': (math.tan, POINTS), 'asin': (math.asin, UNIT),
    'acos': (math.acos, UNIT), 'atan': (math.atan, POINTS), 'sinh': (math.sinh, POINTS), 'cosh': (math.cosh, POINTS),
    'tanh': (math.tanh, POINTS), 'asinh': (math.asinh, POINTS), 'acosh': (math.acosh, [1.0, 1.5, 2.0, 10.0]),
    'atanh': (math.atanh, UNIT), 'exp': (math.exp, POINTS), 'exp2': (lambda v: 2.0 ** v, POINTS),
    'expm1': (math.expm1, POINTS), 'log': (math.log, POSITIVE), 'log2': (math.log2, POSITIVE),
    'log10': (math.log10, POSITIVE), 'log1p': (math.log1p, POSITIVE), 'sqrt': (math.sqrt, POSITIVE),
    'rsqrt': (lambda v: 1 / math.sqrt(v), POSITIVE), 'reciprocal': (lambda v: 1 / v, POSITIVE),
    'erf': (math.erf, POINTS), 'erfc': (math.erfc, POINTS), 'lgamma': (math.lgamma, POSITIVE),
    'sigmoid': (lambda v: 1 / (1 + math.exp(-v)), POINTS), 'deg2rad': (math.radians, POINTS),
    'rad2deg': (math.degrees, POINTS), 'logit': (lambda v: math.log(v / (1 - v)), [0.1, 0.25, 0.5, 0.9]),
    'arcsin': (math.asin, UNIT), 'arccos': (math.acos, UNIT), 'arctan': (math.atan, POINTS),
    'arcsinh': (math.asinh, POINTS), 'arccosh': (math.acosh, [1.0, 2.0]), 'arctanh': (math.atanh, UNIT),
}


@pytest.mark.parametrize('name', sorted(MATH))
def test_float_functions_match_math(name):
    fn, points = MATH[name]
    x = torch.tensor(points, dtype=torch.float64)
    got = getattr(torch, name)(x).tolist()
    assert all(abs(g - fn(v)) <= 1e-15 * max(1.0, abs(fn(v))) for g, v in zip(got, points)), (got, points)
    got32 = getattr(torch, name)(x.float()).tolist()
    assert close32(got32, [fn(f32(v)) for v in points], ulps=2), (got32, points)
    # integers compute in the default float dtype; the method, in-place and out= forms agree
    assert getattr(torch, name)(torch.tensor([1])).dtype == torch.float32
    y = x.float().clone()
    assert getattr(y, name + '_')() is y and y.tolist() == got32
    out = torch.empty(len(points))
    assert getattr(torch, name)(x.float(), out=out) is out and out.tolist() == got32


def test_closed_forms():
    pi = math.pi
    assert torch.tensor([0.0, 1.0]).exp().tolist() == [1.0, f32(math.e)]
    assert torch.tensor([3.0, -1.0, 10.0]).exp2().tolist() == [8.0, 0.5, 1024.0]
    assert torch.tensor([8.0, 0.25]).log2().tolist() == [3.0, -2.0]
    assert torch.tensor([1000.0, 1.0]).log10().tolist() == [3.0, 0.0]
    assert torch.tensor([4.0, 0.25]).rsqrt().tolist() == [0.5, 2.0]
    assert torch.tensor([1.0, 2.0, 3.0]).lgamma().tolist() == [0.0, 0.0, f32(math.log(2))]
    assert torch.tensor([1.0], dtype=torch.float64).digamma().item() == pytest.approx(-0.5772156649015329, abs=1e-15)
    # PyTorch's trigamma (six recurrence steps, then a short asymptotic series) is good to about 1e-9
    assert torch.polygamma(1, torch.tensor([1.0], dtype=torch.float64)).item() == pytest.approx(pi ** 2 / 6, rel=1e-9)
    # psi''(1) = -2 zeta(3), psi'''(1) = 6 zeta(4) = pi^4 / 15
    assert torch.polygamma(2, torch.tensor([1.0], dtype=torch.float64)).item() == pytest.approx(-2.404113806319188,
                                                                                                rel=1e-13)
    assert torch.polygamma(3, torch.tensor([1.0], dtype=torch.float64)).item() == pytest.approx(pi ** 4 / 15, rel=1e-13)
    assert torch.tensor([0.0, 0.5]).erfinv().tolist() == [0.0, f32(0.4769362762044699)]
    assert torch.tensor([0.3], dtype=torch.float64).erfinv().erf().item() == pytest.approx(0.3, abs=1e-15)
    assert torch.tensor([180.0]).deg2rad().tolist() == [f32(pi)]
    assert torch.tensor([0.0]).sigmoid().tolist() == [0.5] and torch.tensor([0.5]).logit().tolist() == [0.0]
    # mvlgamma(x, p) = p(p-1)/4 log(pi) + sum_j lgamma(x - j/2)
    x = 2.5
    want = 3 * 2 / 4 * math.log(pi) + math.lgamma(x) + math.lgamma(x - 0.5) + math.lgamma(x - 1)
    assert torch.mvlgamma(torch.tensor([x], dtype=torch.float64), 3).item() == pytest.approx(want, rel=1e-14)
    assert torch.mvlgamma(torch.tensor([x]), 1).tolist() == [f32(math.lgamma(x))]


def test_float_function_special_values():
    inf, nan = math.inf, math.nan
    assert torch.tensor([inf, -inf, 1e30]).exp().tolist() == [inf, 0.0, inf]
    r = torch.tensor([0.0, -1.0, inf]).log().tolist()
    assert r[0] == -inf and math.isnan(r[1]) and r[2] == inf
    assert torch.tensor([1.0, -1.0, 2.0]).erfinv().tolist()[:2] == [inf, -inf]
    assert math.isnan(torch.tensor([2.0]).erfinv().item())
    assert torch.tensor([0.0, -0.0]).digamma().tolist() == [-inf, inf]
    assert math.isnan(torch.tensor([-2.0]).digamma().item())
    assert torch.tensor([-100.0, 100.0]).sigmoid().tolist() == [0.0, 1.0]  # 1 / (1 + inf), as PyTorch
    assert torch.tensor([0.0, 1.0]).logit().tolist() == [-inf, inf]
    assert torch.tensor([0.0, 1.0]).logit(eps=0.25).tolist() == [f32(math.log(1 / 3)), f32(math.log(3))]
    assert torch.tensor([0.0, -0.0]).rsqrt().tolist() == [inf, -inf]
    assert math.isnan(torch.tensor([nan]).tanh().item()) and torch.tensor([inf]).tanh().item() == 1.0


def test_float16_and_bfloat16_compute_in_float():
    for dtype in (torch.float16, torch.bfloat16):
        x = torch.tensor([0.5, 1.0, 2.0], dtype=dtype)
        for name in ('exp', 'log', 'sin', 'tanh', 'erf', 'sigmoid', 'erfinv', 'digamma'):
            r = getattr(torch, name)(x * 0.25)
            want = getattr(torch, name)((x * 0.25).float()).to(dtype)
            assert r.dtype == dtype and r.tolist() == want.tolist(), name


def test_default_dtype_decides_integer_results():
    torch.set_default_dtype(torch.float64)
    try:
        assert torch.sin(torch.tensor([1])).dtype == torch.float64
        assert torch.atan2(torch.tensor([1]), torch.tensor([1])).dtype == torch.float64
    finally:
        torch.set_default_dtype(torch.float32)
    assert torch.exp(torch.tensor([True])).tolist() == [f32(math.e)]


# ---- rounding and signs ------------------------------------------------------------------------------------

def test_rounding():
    x = torch.tensor([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 2.7, -2.7])
    assert x.floor().tolist() == [-3, -2, -1, 0, 1, 2, 2, -3]
    assert x.ceil().tolist() == [-2, -1, -0.0, 1, 2, 3, 3, -2]
    assert x.round().tolist() == [-2, -2, -0.0, 0, 2, 2, 3, -3]  # half to even
    assert x.trunc().tolist() == x.fix().tolist() == [-2, -1, -0.0, 0, 1, 2, 2, -2]
    assert torch.tensor([-1.5, 2.25, -0.0]).frac().tolist() == [-0.5, 0.25, 0.0]
    assert torch.tensor([1.2345, 5.678], dtype=torch.float64).round(decimals=2).tolist() == [1.23, 5.68]
    assert torch.tensor([1225.0, 1235.0]).round(decimals=-1).tolist() == [1220.0, 1240.0]
    ints = torch.tensor([-3, 7])
    for name in ('floor', 'ceil', 'round', 'trunc'):
        r = getattr(torch, name)(ints)
        assert r.dtype == torch.int64 and r.tolist() == [-3, 7]
    for name in ('floor', 'ceil', 'round', 'trunc', 'abs'):
        with pytest.raises(RuntimeError, match="not implemented for 'Bool'"):
            getattr(torch, name)(torch.tensor([True]))
    with pytest.raises(RuntimeError, match="not implemented for 'Long'"):
        torch.frac(ints)
    with pytest.raises(RuntimeError, match="not implemented for 'Long'"):
        torch.round(ints, decimals=1)


def test_signs():
    x = torch.tensor([-2.0, -0.0, 0.0, 3.0, math.nan, -math.inf])
    assert x.sign().tolist() == [-1.0, 0.0, 0.0, 1.0, 0.0, -1.0]
    assert x.sgn().tolist() == x.sign().tolist()
    assert x.signbit().tolist() == [True, True, False, False, False, True]
    assert torch.tensor([-3, 0, 2], dtype=torch.int8).sign().tolist() == [-1, 0, 1]
    assert torch.tensor([0, 200], dtype=torch.uint8).sign().tolist() == [0, 1]
    assert torch.tensor([True, False]).sign().tolist() == [True, False]
    assert torch.tensor([-3, 0]).signbit().tolist() == [True, False]
    assert torch.negative(torch.tensor([1, -2])).tolist() == [-1, 2]
    assert torch.absolute(torch.tensor([-1.5])).tolist() == [1.5]
    t = torch.tensor([1, 2])
    assert torch.positive(t) is t and +t is t
    with pytest.raises(RuntimeError, match='`\\+` operator, on a bool tensor'):
        +torch.tensor([True])
    with pytest.raises(RuntimeError, match='does not support non-boolean outputs'):
        torch.signbit(torch.tensor([1.0]), out=torch.empty(1))


def test_nan_to_num():
    x = torch.tensor([math.nan, math.inf, -math.inf, 1.5])
    assert x.nan_to_num().tolist() == [0.0, f32(3.4028234663852886e38), -f32(3.4028234663852886e38), 1.5]
    assert x.nan_to_num(1.0, 2.0, -3.0).tolist() == [1.0, 2.0, -3.0, 1.5]
    assert x.half().nan_to_num().tolist() == [0.0, 65504.0, -65504.0, 1.5]
    assert torch.tensor([1, 2]).nan_to_num(5.0).tolist() == [1, 2]
    with pytest.raises(RuntimeError, match='dtype of out: Double should be same as input: Float'):
        torch.nan_to_num(x, out=torch.empty(4, dtype=torch.float64))


def test_unary_ops_of_pytorchs_unary_kind_keep_the_out_dtype():
    with pytest.raises(RuntimeError, match='Found dtype Float but expected Long'):
        torch.abs(torch.tensor([1, -2]), out=torch.empty(2))
    with pytest.raises(RuntimeError, match='Found dtype Double but expected Float'):
        torch.floor(torch.tensor([1.5]), out=torch.empty(1, dtype=torch.float64))
    with pytest.raises(RuntimeError, match='Found dtype Int but expected Long'):
        torch.bitwise_not(torch.tensor([1]), out=torch.empty(1, dtype=torch.int32))
    # float functions cast into any floating out=
    out = torch.empty(2, dtype=torch.float64)
    assert torch.sin(torch.tensor([0.0, 1.0]), out=out).tolist() == [0.0, f32(math.sin(1.0))]


# ---- powers --------------------------------------------------------------------------------------------------

def test_pow_overloads():
    x = torch.tensor([1, 2, 3])
    assert torch.pow(x, 2).tolist() == [1, 4, 9] and torch.pow(x, 2).dtype == torch.int64
    assert torch.pow(2, x).tolist() == [2, 4, 8]
    assert torch.pow(x, 0.5).tolist() == [1.0, f32(math.sqrt(2)), f32(math.sqrt(3))]
    assert (x ** torch.tensor([[0], [2]])).tolist() == [[1, 1, 1], [1, 4, 9]]
    assert torch.ops.aten.pow.Scalar(2.5, torch.tensor([2])).tolist() == [6.25]
    assert torch.ops.aten.pow.Tensor_Scalar(torch.tensor([3.0]), 2).tolist() == [9.0]
    y = torch.tensor([2.0, 3.0])
    assert torch.ops.aten.pow_.Scalar(y, 2) is y and y.tolist() == [4.0, 9.0]
    assert torch.ops.aten.pow_.Tensor(y, torch.tensor(0.5)).tolist() == [2.0, 3.0]
    with pytest.raises(RuntimeError, match='Integers to negative integer powers are not allowed'):
        torch.pow(x, -1)
    assert torch.pow(x, torch.tensor([-1])).tolist() == [1, 0, 0]
    with pytest.raises(RuntimeError, match="not implemented for 'Bool'"):
        torch.pow(torch.tensor([True]), torch.tensor([True]))
    assert torch.pow(torch.tensor([True, False]), 2).tolist() == [1, 0]
    with pytest.raises(RuntimeError, match='Found dtype Double but expected Float'):
        torch.pow(torch.tensor([1.5]), 2, out=torch.empty(1, dtype=torch.float64))


def test_float_power_and_square():
    r = torch.float_power(torch.tensor([2, 3]), 2)
    assert r.dtype == torch.float64 and r.tolist() == [4.0, 9.0]
    assert torch.float_power(2, torch.tensor([-1])).tolist() == [0.5]
    assert torch.float_power(torch.tensor([2.0]), torch.tensor([0.5])).tolist() == [math.sqrt(2)]
    with pytest.raises(RuntimeError, match="base given to float_power_ has dtype Float but the operation's result"):
        torch.tensor([1.0]).float_power_(2)
    with pytest.raises(RuntimeError, match='output given to float_power has dtype Float'):
        torch.float_power(torch.tensor([1.0]), 2, out=torch.empty(1))
    d = torch.tensor([3.0], dtype=torch.float64)
    assert d.float_power_(2) is d and d.tolist() == [9.0]
    assert torch.square(torch.tensor([True, False])).tolist() == [1, 0]  # bool squares to int64, as in PyTorch
    assert torch.square(torch.tensor([-3.5])).tolist() == [12.25]
    assert torch.square(torch.tensor([50], dtype=torch.int8)).tolist() == [-60]  # 2500 wraps
    s = torch.tensor([3])
    assert s.square_() is s and s.tolist() == [9]


# ---- two operands ------------------------------------------------------------------------------------------

def test_binary_math():
    nan, inf = math.nan, math.inf
    assert torch.atan2(torch.tensor([1.0, 0.0, -0.0]), torch.tensor([1.0, -1.0, -1.0])).tolist() == [
        f32(math.pi / 4), f32(math.pi), -f32(math.pi)]
    assert torch.arctan2(torch.tensor([1]), torch.tensor([0])).tolist() == [f32(math.pi / 2)]
    assert torch.hypot(torch.tensor([3.0, inf]), torch.tensor([4.0, nan])).tolist() == [5.0, inf]
    assert torch.copysign(torch.tensor([1, 2]), torch.tensor([-0.0, 3.0])).tolist() == [-1.0, 2.0]
    assert torch.copysign(torch.tensor([1.5]), -1).tolist() == [-1.5]
    assert torch.nextafter(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0])).tolist() == [
        struct.unpack('f', struct.pack('I', 1))[0], 1.0 + 2 ** -23]
    one, two = torch.tensor([1.0], dtype=torch.bfloat16), torch.tensor([2.0], dtype=torch.bfloat16)
    assert torch.nextafter(one, two).item() == 1.0 + 2 ** -7
    assert torch.nextafter(one.half(), torch.zeros(1, dtype=torch.float16)).item() == 1.0 - 2 ** -11
    r = torch.xlogy(torch.tensor([0.0, 0.0, 2.0, 3.0]), torch.tensor([0.0, nan, 4.0, -1.0])).tolist()
    assert r[0] == 0.0 and math.isnan(r[1]) and r[2] == 2 * f32(math.log(4)) and math.isnan(r[3])
    assert torch.special.xlogy(2, torch.tensor([1.0])).tolist() == [0.0]
    y = torch.tensor([0.5, 2.0])
    for special, plain in [('expit', 'sigmoid'), ('psi', 'digamma'), ('gammaln', 'lgamma'), ('erfinv', 'erfinv'),
                           ('exp2', 'exp2'), ('round', 'round')]:
        assert getattr(torch.special, special)(y / 4).tolist() == getattr(torch, plain)(y / 4).tolist(), special
    assert torch.special.multigammaln(y + 2, 2).tolist() == torch.mvlgamma(y + 2, 2).tolist()
    assert torch.special.polygamma(1, y).tolist() == torch.polygamma(1, y).tolist()
    assert torch.heaviside(torch.tensor([-1.0, 0.0, 2.0, nan]), torch.tensor([0.5])).tolist() == [0.0, 0.5, 1.0, 0.0]
    with pytest.raises(RuntimeError, match='different dtypes'):
        torch.heaviside(torch.tensor([1.0]), torch.tensor([1.0], dtype=torch.float64))
    with pytest.raises(TypeError, match="argument 'values'"):
        torch.heaviside(torch.tensor([1.0]), 0.5)
    r = torch.fmax(torch.tensor([1.0, nan, nan]), torch.tensor([nan, 2.0, nan])).tolist()
    assert r[:2] == [1.0, 2.0] and math.isnan(r[2])
    assert torch.fmin(torch.tensor([1, 5]), torch.tensor([3, 2])).tolist() == [1, 2]
    with pytest.raises(RuntimeError, match="not implemented for 'Long'"):
        torch.hypot(torch.tensor([1]), torch.tensor([1]))
    with pytest.raises(RuntimeError, match="not implemented for 'Long'"):
        torch.nextafter(torch.tensor([1]), torch.tensor([1]))


def test_fmod_and_remainder():
    a, b = torch.tensor([5, -5, 5, -5]), torch.tensor([3, 3, -3, -3])
    assert torch.fmod(a, b).tolist() == [2, -2, 2, -2]  # sign of the dividend
    assert torch.remainder(a, b).tolist() == [2, 1, -1, -2]  # sign of the divisor
    assert torch.fmod(a.float(), -3).tolist() == [2.0, -2.0, 2.0, -2.0]
    assert torch.remainder(5, torch.tensor([3, -3])).tolist() == [2, -1]
    assert torch.ops.aten.remainder.Scalar_Tensor(5.5, torch.tensor([3])).tolist() == [2.5]
    assert torch.fmod(torch.tensor([-128], dtype=torch.int8), -1).tolist() == [0]
    with pytest.raises(RuntimeError, match='ZeroDivisionError'):
        torch.fmod(a, 0)
    r = torch.fmod(torch.tensor([5.0, 0.0]), 0.0).tolist()
    assert all(math.isnan(v) for v in r)
    with pytest.raises(RuntimeError, match="not implemented for 'Bool'"):
        torch.fmod(torch.tensor([True]), torch.tensor([True]))


# ---- bitwise and logical ops ---------------------------------------------------------------------------------

def test_bitwise_ops_and_operators():
    a, b = torch.tensor([12, 10, -1]), torch.tensor([10, 6, 5])
    assert torch.bitwise_and(a, b).tolist() == [8, 2, 5] and (a & b).tolist() == [8, 2, 5]
    assert torch.bitwise_or(a, b).tolist() == [14, 14, -1] and (a | b).tolist() == [14, 14, -1]
    assert torch.bitwise_xor(a, b).tolist() == [6, 12, -6] and (a ^ b).tolist() == [6, 12, -6]
    assert torch.bitwise_not(a).tolist() == [-13, -11, 0] and (~a).tolist() == [-13, -11, 0]
    assert (6 & a).tolist() == [4, 2, 6] and (1 | a).tolist() == [13, 11, -1] and (3 ^ a).tolist() == [15, 9, -4]
    assert (a << 2).tolist() == [48, 40, -4] and (a >> 1).tolist() == [6, 5, -1]
    assert (1 << torch.tensor([0, 3])).tolist() == [1, 8] and (256 >> torch.tensor([4])).tolist() == [16]
    assert torch.tensor([True, False]) & True is not None
    assert (torch.tensor([True, False]) ^ torch.tensor([True, True])).tolist() == [False, True]
    assert (~torch.tensor([True, False])).tolist() == [False, True]
    c = torch.tensor([12, 10])
    for op, want in [('__iand__', [4, 2]), ('__ior__', [6, 2]), ('__ixor__', [3, 7]), ('__ilshift__', [12, 28]),
                     ('__irshift__', [3, 7])]:
        arg = {'__iand__': 6, '__ior__': 2, '__ixor__': 5, '__ilshift__': 2, '__irshift__': 2}[op]
        assert getattr(c, op)(arg) is c and c.tolist() == want, op
    d = torch.tensor([5, 3], dtype=torch.uint8)
    d &= 1
    d |= torch.tensor([4], dtype=torch.uint8)
    d <<= 1
    assert d.tolist() == [10, 10]
    # shift counts are reduced modulo the computing width, as on x86
    assert (torch.tensor([1, 2, -8]) << torch.tensor([64, 65, -1])).tolist() == [1, 4, 0]
    assert (torch.tensor([1, -8], dtype=torch.int32) << 33).tolist() == [2, -16]
    assert (torch.tensor([1, 2], dtype=torch.int8) << torch.tensor([7, 8], dtype=torch.int8)).tolist() == [-128, 0]
    assert (torch.tensor([-8], dtype=torch.int8) >> 9).tolist() == [-1]


def test_bitwise_errors():
    with pytest.raises(RuntimeError, match="\"bitwise_and\" not implemented for 'Float'"):
        torch.tensor([1.0]) & torch.tensor([1.0])
    with pytest.raises(RuntimeError, match="not implemented for 'Float'"):
        torch.tensor([1, 2]) & 1.5
    with pytest.raises(RuntimeError, match="not implemented for 'Double'"):
        torch.bitwise_xor(torch.tensor([1.0], dtype=torch.float64), 1)
    assert (torch.tensor([True]) << 1).tolist() == [2]  # bool and an int number compute in int64
    with pytest.raises(RuntimeError, match="\"lshift\" not implemented for 'Bool'"):
        torch.tensor([True]) << torch.tensor([True])
    with pytest.raises(RuntimeError, match="not implemented for 'Float'"):
        torch.bitwise_left_shift(torch.tensor([1.5]), 1)
    with pytest.raises(TypeError, match='only implemented on integer and Boolean-type tensors'):
        ~torch.tensor([1.5])
    with pytest.raises(RuntimeError, match="can't be cast to the desired output type"):
        torch.tensor([1, 2]).bitwise_left_shift_(torch.tensor([1.0, 2.0]))


def test_logical_ops():
    a, b = torch.tensor([0.0, 1.0, math.nan, -2.0]), torch.tensor([0, 0, 3, 4])
    assert torch.logical_and(a, b).tolist() == [False, False, True, True]
    assert torch.logical_or(a, b).tolist() == [False, True, True, True]
    assert torch.logical_xor(a, b).tolist() == [False, True, False, False]
    assert torch.logical_not(a).tolist() == [True, False, False, False]
    out = torch.empty(4, dtype=torch.float16)
    assert torch.logical_and(a, b, out=out).tolist() == [0.0, 0.0, 1.0, 1.0]
    c = torch.tensor([1.5, 0.0])
    assert c.logical_not_() is c and c.tolist() == [0.0, 1.0]
    e = torch.tensor([3, 0])
    assert e.logical_or_(torch.tensor([0, 2])).tolist() == [1, 1]


# ---- comparisons and tests of values ---------------------------------------------------------------------------

def test_comparisons_with_numbers_and_aliases():
    x = torch.tensor([1, 2, 3])
    assert torch.eq(x, 2).tolist() == [False, True, False] and torch.ops.aten.eq.Scalar(x, 2).tolist() == [
        False, True, False]
    assert torch.greater(x, 1).tolist() == [False, True, True] and torch.greater_equal(x, 2).tolist() == [
        False, True, True]
    assert torch.less(x, 2.5).tolist() == [True, True, False] and torch.less_equal(x, 2).tolist() == [True, True, False]
    assert torch.not_equal(x, torch.tensor([1, 0, 3])).tolist() == [False, True, False]
    assert x.clone().greater_(1).tolist() == [0, 1, 1]
    assert torch.ops.aten.eq.Tensor_out(x, x, out=torch.empty(3)).tolist() == [1.0, 1.0, 1.0]
    assert torch.ops.aten.lt_.Scalar(torch.tensor([1.0, 3.0]), 2).tolist() == [1.0, 0.0]


def test_value_tests():
    x = torch.tensor([1.0, math.inf, -math.inf, math.nan, -0.0])
    assert x.isnan().tolist() == [False, False, False, True, False]
    assert x.isinf().tolist() == [False, True, True, False, False]
    assert x.isfinite().tolist() == [True, False, False, False, True]
    assert x.isposinf().tolist() == [False, True, False, False, False]
    assert x.isneginf().tolist() == [False, False, True, False, False]
    assert x.isreal().tolist() == [True] * 5
    i = torch.tensor([1, 2])
    assert i.isnan().tolist() == [False, False] and i.isfinite().tolist() == [True, True]
    with pytest.raises(RuntimeError, match='isposinf does not support non-boolean outputs'):
        torch.isposinf(x, out=torch.empty(5))


def test_closeness():
    a = torch.tensor([1.0, 2.0, math.nan, math.inf])
    b = torch.tensor([1.000001, 2.1, math.nan, math.inf])
    assert torch.isclose(a, b).tolist() == [True, False, False, True]
    assert torch.isclose(a, b, equal_nan=True).tolist() == [True, False, True, True]
    assert torch.isclose(a, b, rtol=0.1).tolist() == [True, True, False, True]
    # |1 - 2| in uint8 would wrap to 255; PyTorch computes in the default float dtype
    assert torch.isclose(torch.tensor([1], dtype=torch.uint8), torch.tensor([2], dtype=torch.uint8), atol=1).tolist() \
        == [True]
    assert not torch.allclose(a, b) and torch.allclose(a[:1], b[:1])
    assert torch.allclose(torch.tensor([1.0, 2.0]), torch.tensor([[1.0, 2.0]]))  # broadcasts
    assert torch.allclose(torch.zeros(0), torch.zeros(0))
    with pytest.raises(RuntimeError, match='Float did not match Double'):
        torch.isclose(torch.tensor([1.0]), torch.tensor([1.0], dtype=torch.float64))
    with pytest.raises(RuntimeError, match='rtol must be greater than or equal to zero'):
        torch.allclose(a, b, rtol=-1)
    assert torch.equal(torch.tensor([1, 2]), torch.tensor([1.0, 2.0]))
    assert not torch.equal(torch.tensor([1, 2]), torch.tensor([[1, 2]]))
    assert not torch.equal(torch.tensor([math.nan]), torch.tensor([math.nan]))
    assert torch.equal(torch.zeros(2, 0), torch.zeros(2, 0))
    assert torch.tensor([[1, 2], [3, 4]]).t().equal(torch.tensor([[1, 3], [2, 4]]))


# ---- three operands ---------------------------------------------------------------------------------------------

def test_clamp():
    x = torch.tensor([-3.0, 0.5, 4.0, math.nan])
    assert torch.clamp(x, -1, 2).tolist()[:3] == [-1.0, 0.5, 2.0] and math.isnan(torch.clamp(x, -1, 2)[3])
    assert torch.clip(x, min=0).tolist()[:3] == [0.0, 0.5, 4.0]
    assert torch.clamp_max(x, 1).tolist()[:3] == [-3.0, 0.5, 1.0]
    assert torch.clamp(x, 2, 1).tolist()[:3] == [1.0, 1.0, 1.0]  # min > max: max wins
    assert torch.clamp(x, torch.tensor([0.0, 1.0, 5.0, 0.0])).tolist()[:3] == [0.0, 1.0, 5.0]
    assert torch.clamp(torch.tensor([1, 5, 9]), 2, 7).tolist() == [2, 5, 7]
    r = torch.clamp(torch.tensor([1, 2, 3]), 0.5, 2.5)
    assert r.dtype == torch.float32 and r.tolist() == [1.0, 2.0, 2.5]
    # NaN bounds: one NaN Scalar bound of clamp is ignored, clamp_min/clamp_max and two bounds give NaN
    assert torch.clamp(torch.tensor([1.0, 3.0]), math.nan).tolist() == [1.0, 3.0]
    assert all(math.isnan(v) for v in torch.clamp_min(torch.tensor([1.0, 3.0]), math.nan).tolist())
    assert all(math.isnan(v) for v in torch.clamp(torch.tensor([1.0, 3.0]), math.nan, 2).tolist())
    assert math.isnan(torch.clamp(torch.tensor([1.0]), torch.tensor([math.nan])).item())
    with pytest.raises(RuntimeError, match="At least one of 'min' or 'max' must not be None"):
        torch.clamp(x)
    with pytest.raises(RuntimeError, match='without overflow'):
        torch.clamp(torch.tensor([1], dtype=torch.int8), 1000)
    assert torch.clamp(torch.tensor([1, 2], dtype=torch.uint8), -1).tolist() == [255, 255]  # wraps, as in PyTorch
    with pytest.raises(RuntimeError, match="not implemented for 'Bool'"):
        torch.clamp(torch.tensor([True]), True)
    assert torch.clamp(torch.tensor([True, False]), torch.tensor(True)).tolist() == [True, True]
    with pytest.raises(RuntimeError, match="can't be cast to the desired output type"):
        torch.tensor([1, 2]).clamp_(0.5)
    with pytest.raises(RuntimeError, match='Found dtype Float but expected Long'):
        torch.clamp(torch.tensor([1, -2]), 0, out=torch.empty(2))
    y = torch.tensor([-2.0, 2.0])
    assert y.clamp_(-1, 1) is y and y.tolist() == [-1.0, 1.0]


def test_lerp_addcmul_addcdiv():
    s, e = torch.tensor([1.0, 2.0]), torch.tensor([3.0, 6.0])
    assert torch.lerp(s, e, 0.5).tolist() == [2.0, 4.0]
    assert torch.lerp(s, e, 1.0).tolist() == [3.0, 6.0]  # exact at the end (the weight >= 0.5 form)
    assert torch.lerp(s, e, torch.tensor([0.25, 0.75])).tolist() == [1.5, 5.0]
    assert torch.lerp(s, e, torch.tensor([[0.0], [1.0]])).tolist() == [[1.0, 2.0], [3.0, 6.0]]
    with pytest.raises(RuntimeError, match='expected dtype float for `end` but got dtype long int'):
        torch.lerp(s, torch.tensor([3, 4]), 0.5)
    with pytest.raises(RuntimeError, match='expected dtype float for `weight` but got dtype double'):
        torch.lerp(s, e, torch.tensor(0.5, dtype=torch.float64))
    with pytest.raises(RuntimeError, match="not implemented for 'Long'"):
        torch.lerp(torch.tensor([1]), torch.tensor([2]), 0.5)
    with pytest.raises(RuntimeError, match="doesn't match the broadcast shape"):
        s.lerp_(e, torch.tensor([[0.5], [0.25]]))
    assert torch.addcmul(s, e, torch.tensor([2.0, 0.5]), value=3).tolist() == [19.0, 11.0]
    assert torch.addcmul(torch.tensor([1, 2]), torch.tensor([1, 2]), torch.tensor([1, 2]), value=0.5).tolist() == [1, 2]
    assert torch.addcdiv(s, e, torch.tensor([2.0, 4.0]), value=2).tolist() == [4.0, 5.0]
    with pytest.raises(RuntimeError, match='Integer division with addcdiv is no longer supported'):
        torch.addcdiv(s, torch.tensor([1]), torch.tensor([2]))
    with pytest.raises(RuntimeError, match="not implemented for 'Bool'"):
        torch.addcmul(torch.tensor([True]), torch.tensor([True]), torch.tensor([True]))
    t = s.clone()
    assert t.addcmul_(e, e, value=-1) is t and t.tolist() == [-8.0, -34.0]


def test_polygamma_and_mvlgamma_arguments():
    x = torch.tensor([1.5, 3.0])
    assert x.polygamma(1).tolist() == torch.polygamma(1, x).tolist()
    y = x.clone()
    assert y.polygamma_(2) is y and y.tolist() == torch.polygamma(2, x).tolist()
    with pytest.raises(RuntimeError, match='does not support negative n'):
        torch.polygamma(-1, x)
    with pytest.raises(RuntimeError, match='p has to be greater than or equal to 1'):
        torch.mvlgamma(x, 0)
    with pytest.raises(RuntimeError, match='may not be a boolean tensor'):
        torch.mvlgamma(torch.tensor([True]), 1)


# ---- shapes, strides, variants and devices --------------------------------------------------------------------

@pytest.mark.parametrize('expr', [
    'torch.sin(x)', 'torch.floor(x)', 'torch.sign(x)', 'torch.isnan(x)', 'torch.atan2(x, x)', 'torch.clamp(x, 0, 1)',
    'torch.lerp(x, x, 0.5)', 'torch.addcmul(x, x, x)', 'torch.logical_and(x, x)', 'torch.erfinv(x)',
    'torch.polygamma(1, x)', 'torch.nan_to_num(x)', 'torch.isclose(x, x)', 'torch.copysign(x, -1)',
])
def test_empty_zero_dim_and_meta(expr):
    for x in (torch.zeros(0), torch.zeros(3, 0), torch.tensor(0.25), torch.empty(2, 3, device='meta')):
        r = eval(expr, {'torch': torch, 'x': x})
        assert r.shape == x.shape and r.device == x.device, (expr, x.shape)


def test_non_contiguous_and_broadcast_operands():
    base = torch.arange(24.0).view(4, 6) / 10
    t = base.t()
    assert torch.exp(t).tolist() == torch.exp(t.contiguous()).tolist()
    s = base[:, ::2]
    assert torch.erfinv(s / 3).tolist() == torch.erfinv((s / 3).contiguous()).tolist()
    col = torch.tensor([[1.0], [2.0], [3.0], [4.0]])
    assert torch.atan2(base, col).tolist() == torch.atan2(base, col.expand(4, 6).contiguous()).tolist()
    assert torch.clamp(base, torch.tensor([0.5, 1.0, 0.0, 2.0, 0.1, 0.2])).shape == (4, 6)
    with pytest.raises(RuntimeError, match="doesn't match the broadcast shape"):
        torch.tensor([1.0, 2.0]).atan2_(torch.tensor([[1.0], [2.0]]))
    out = torch.empty(3)
    with pytest.warns(UserWarning, match='was resized'):
        torch.sin(torch.tensor([1.0, 2.0]), out=out)
    assert out.shape == (2,)


def test_in_place_of_an_integer_tensor_with_a_float_result_is_refused():
    for name in ('sin_', 'sqrt_', 'reciprocal_', 'deg2rad_', 'erfinv_', 'sigmoid_'):
        with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
            getattr(torch.tensor([1, 2]), name)()


def test_operator_overload_names():
    aten = torch.ops.aten
    for name in ['pow_.Tensor', 'pow_.Scalar', 'pow.Scalar_out', 'eq.Tensor_out', 'remainder.Tensor_out',
                 'xlogy.OutTensor', 'xlogy.OutScalar_Self', 'xlogy_.Scalar_Other', 'float_power_.Tensor',
                 'bitwise_and.Tensor_out', 'bitwise_and.Scalar_Tensor_out', '__and__.Tensor', '__ilshift__.Scalar',
                 'clamp.Tensor_out', 'lerp.Tensor_out', 'polygamma_.default', 'round.decimals_out',
                 'special_xlogy.other_scalar_out', 'isnan.out', 'square.out', 'arcsin_.default']:
        op, overload = name.split('.')
        assert getattr(getattr(aten, op), overload) is not None, name
    assert str(aten.polygamma_.default._schema).endswith('polygamma_(Tensor(a!) self, int n) -> Tensor(a!)')
    assert str(aten.isclose.default._schema).endswith(
        'float rtol=1.0000000000000001e-05, float atol=1e-08, bool equal_nan=False) -> Tensor')
    assert not hasattr(torch, '__and__')


# ---- large tensors: vectorised loops, blocks, threads, mixed dtypes ----------------------------------------------

@pytest.mark.parametrize('threads', [1, 2])
def test_large_tensors_agree_with_small_ones(threads):
    old = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        x = (torch.arange(100003) % 997) / 100 - 4.5  # crosses blocks, vector tails and thread pieces
        for name in ('exp', 'tanh', 'sigmoid', 'erf', 'sin', 'log1p', 'lgamma', 'erfinv'):
            arg = x / 5 if name == 'erfinv' else x
            big = getattr(torch, name)(arg)
            idx = [0, 1, 511, 512, 513, 4095, 65536, 100002]
            got, want = [big[i].item() for i in idx], [getattr(torch, name)(arg[i:i + 1]).item() for i in idx]
            assert all(g == w or (math.isnan(g) and math.isnan(w)) for g, w in zip(got, want)), name
        strided = x[::3]
        assert torch.exp(strided).tolist() == torch.exp(strided.contiguous()).tolist()
        half = x.half()
        assert torch.sin(half).tolist() == torch.sin(half.float()).half().tolist()
    finally:
        torch.set_num_threads(old)


def test_mixed_dtype_operands_are_converted_while_loading():
    n = 70001
    f = (torch.arange(n) % 251) / 7
    i = torch.arange(n) % 1000 - 500
    assert (f + i).tolist() == (f + i.float()).tolist()
    assert torch.add(i[::2], f[::2]).tolist() == (i[::2].float() + f[::2]).tolist()
    z = torch.tensor(0.1, dtype=torch.float64)
    r = f * z
    assert r.dtype == torch.float32 and r.tolist() == (f * f32(0.1)).tolist()
    h = torch.arange(n, dtype=torch.int16) % 300
    assert torch.atan2(h, f + 1).tolist() == torch.atan2(h.float(), f + 1).tolist()
    assert torch.clamp(h, torch.tensor([3.5])).tolist() == torch.clamp(h.float(), 3.5).tolist()
    b = torch.arange(n) % 3 == 0
    assert (b < f).tolist() == (b.float() < f).tolist()
    assert torch.lerp(f, f * 2, f32(0.25)).tolist() == torch.lerp(f, f * 2, torch.full((n,), 0.25)).tolist()
    # in place with an operand of another dtype: the written tensor is read directly, the other converted
    g = f.clone()
    g += i
    assert g.tolist() == (f + i.float()).tolist()
    u = torch.arange(300, dtype=torch.uint8).view(20, 15).t()
    assert (u.float() * torch.tensor(2, dtype=torch.int64)).tolist() == (u.float() * 2).tolist()


# ---- the kernel flag of ABI 1.2, from a device plugin ------------------------------------------------------

def run_with_plugins(case, code):
    path = os.path.join(TEST_PLUGIN_DIR, case)
    if not os.path.isdir(path):
        pytest.fail('test plugin %s was not built (run scons test)' % path)
    env = dict(os.environ, TORCH_PLUGIN_PATH=path)
    out = subprocess.run([sys.executable, '-c', textwrap.dedent(code)], env=env, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_converting_kernels_receive_inputs_as_made_others_converted():
    report = run_with_plugins('kernel_flags', '''
        import json, torch
        f32 = torch.tensor([1.0, 2.0]).to('tflags')
        i64 = torch.tensor([1, 2]).to('tflags')
        f64 = torch.tensor([1.0, 2.0], dtype=torch.float64).to('tflags')
        i32 = torch.tensor([1, 2], dtype=torch.int32).to('tflags')
        print(json.dumps({
            "converting": (f32 + i64).cpu().tolist(),               # float32 kernel, flagged: sees float32, int64
            "converting_number": (f32 + 3).cpu().tolist(),          # a Python number (int64, 0-dim, on the CPU)
            "plain": (f64 + i32).cpu().tolist(),                    # float64 kernel, no flags: both float64
            "same": (f32 + f32).cpu().tolist()}))
    ''')
    assert report['converting'] == [805.0, 805.0]  # 100 * float32 (8) + int64 (5)
    assert report['converting_number'] == [805.0, 805.0]
    assert report['plain'] == [909.0, 909.0]  # 100 * float64 (9) + float64 (9)
    assert report['same'] == [808.0, 808.0]


def test_unknown_kernel_flags_fail_the_plugin_and_leave_nothing():
    report = run_with_plugins('bad_kernel_flags', '''
        import json, torch
        one = torch.tensor([1], dtype=torch.int16)
        print(json.dumps({"plugins": torch.backends.plugins(), "sum": (one + one).tolist()}))
    ''')
    [p] = [p for p in report['plugins'] if p['name'] == 'test-bad-kernel-flags']
    assert p['state'] == 'failed' and 'unknown flags 0x80' in p['reason']
    assert report['sum'] == [2]  # the cpu plugin's int16 add is untouched
