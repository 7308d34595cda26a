"""Elementwise ops: + - * / // % ** with tensors and Python numbers on either side, their in-place
forms, unary math, comparisons, and PyTorch's type promotion, for every dtype, with broadcasting and
non-contiguous operands. Expected values are computed here in plain Python."""
import math
import operator
import struct

import pytest

import torch

ALL = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.float16, torch.bfloat16,
       torch.float32, torch.float64]
FLOATS = [torch.float16, torch.bfloat16, torch.float32, torch.float64]
INTS = [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64]
BITS = {torch.uint8: 8, torch.int8: 8, torch.int16: 16, torch.int32: 32, torch.int64: 64}

# PyTorch's promotion table (c10/core/ScalarType.h), rows and columns in the order of ALL.
_CODES = {'b1': torch.bool, 'u1': torch.uint8, 'i1': torch.int8, 'i2': torch.int16, 'i4': torch.int32,
          'i8': torch.int64, 'f2': torch.float16, 'bf': torch.bfloat16, 'f4': torch.float32, 'f8': torch.float64}
_TABLE = '''
b1 u1 i1 i2 i4 i8 f2 bf f4 f8
u1 u1 i2 i2 i4 i8 f2 bf f4 f8
i1 i2 i1 i2 i4 i8 f2 bf f4 f8
i2 i2 i2 i2 i4 i8 f2 bf f4 f8
i4 i4 i4 i4 i4 i8 f2 bf f4 f8
i8 i8 i8 i8 i8 i8 f2 bf f4 f8
f2 f2 f2 f2 f2 f2 f2 f4 f4 f8
bf bf bf bf bf bf f4 bf f4 f8
f4 f4 f4 f4 f4 f4 f4 f4 f4 f8
f8 f8 f8 f8 f8 f8 f8 f8 f8 f8
'''
PROMOTE = {(ALL[i], ALL[j]): _CODES[code] for i, row in enumerate(_TABLE.split('\n')[1:-1])
           for j, code in enumerate(row.split())}


def f16(x):
    try:
        return struct.unpack('e', struct.pack('e', x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def f32(x):
    try:
        return struct.unpack('f', struct.pack('f', x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def bf16(x):
    if math.isnan(x) or math.isinf(x):
        return x
    bits = struct.unpack('I', struct.pack('f', f32(x)))[0]
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return struct.unpack('f', struct.pack('I', bits))[0]


def cast(v, dtype):
    """A Python value as it is once stored in dtype (ints wrap, floats round)."""
    if dtype == torch.bool:
        return bool(v)
    if dtype in BITS:
        v = int(v)
        bits = BITS[dtype]
        v &= (1 << bits) - 1
        if dtype != torch.uint8 and v >= 1 << (bits - 1):
            v -= 1 << bits
        return v
    v = float(v)
    if math.isnan(v):
        return v
    return {torch.float16: f16, torch.bfloat16: bf16, torch.float32: f32, torch.float64: float}[dtype](v)


def values_of(t):
    flat = []

    def walk(x):
        if isinstance(x, list):
            for y in x:
                walk(y)
        else:
            flat.append(x)
    walk(t.tolist())
    return flat


def same(a, b):
    return all((isinstance(x, float) and isinstance(y, float) and math.isnan(x) and math.isnan(y)) or
               (x == y and type(x) is type(y)) for x, y in zip(a, b)) and len(a) == len(b)


A = [5, 0, 3, 1, 7, 2]
B = [2, 1, 1, 4, 3, 1]


def operand(values, dtype):
    return torch.tensor(values).to(dtype)


# ---- promotion --------------------------------------------------------------------------------------

@pytest.mark.parametrize('da', ALL, ids=str)
@pytest.mark.parametrize('db', ALL, ids=str)
def test_tensor_tensor_promotion_and_values(da, db):
    a, b = operand(A, da), operand(B, db)
    out = PROMOTE[(da, db)]
    av, bv = [cast(x, da) for x in A], [cast(x, db) for x in B]
    r = a + b
    assert r.dtype == out
    assert r.tolist() == [cast(x + y, out) for x, y in zip(av, bv)]
    r = a * b
    assert r.dtype == out and r.tolist() == [cast(x * y, out) for x, y in zip(av, bv)]
    if da != torch.bool and db != torch.bool:
        r = a - b
        assert r.dtype == out and r.tolist() == [cast(x - y, out) for x, y in zip(av, bv)]
    r = a / b
    fout = out if out.is_floating_point else torch.float32
    assert r.dtype == fout
    assert r.tolist() == [cast(cast(x, fout) / cast(y, fout), fout) for x, y in zip(av, bv)]
    for op in (operator.lt, operator.le, operator.gt, operator.ge, operator.eq, operator.ne):
        r = op(a, b)
        assert r.dtype == torch.bool
        assert r.tolist() == [op(cast(x, out), cast(y, out)) for x, y in zip(av, bv)]


@pytest.mark.parametrize('da', ALL, ids=str)
@pytest.mark.parametrize('db', ALL, ids=str)
def test_promotion_with_non_contiguous_broadcast_operands(da, db):
    # a is a transposed [3, 2] view, b a strided [2] slice broadcast along the rows
    a = torch.tensor([[5, 0, 3], [1, 7, 2]]).to(da).t()
    b = torch.tensor([2, 9, 1, 9]).to(db)[::2]
    out = PROMOTE[(da, db)]
    r = a * b
    assert r.dtype == out and r.shape == (3, 2)
    at = [[cast(v, da) for v in row] for row in [[5, 1], [0, 7], [3, 2]]]
    bt = [cast(2, db), cast(1, db)]
    assert r.tolist() == [[cast(x * y, out) for x, y in zip(row, bt)] for row in at]
    assert (b + a).tolist() == [[cast(y + x, out) for x, y in zip(row, bt)] for row in at]


# Python numbers: a bool/int keeps the tensor's dtype (bool + int gives int64), a float keeps a
# floating tensor's dtype and makes an integer one the default float dtype.
def scalar_result(dtype, scalar):
    if isinstance(scalar, bool):
        return dtype
    if isinstance(scalar, int):
        return torch.int64 if dtype == torch.bool else dtype
    return dtype if dtype.is_floating_point else torch.float32


@pytest.mark.parametrize('dtype', ALL, ids=str)
@pytest.mark.parametrize('scalar', [2, -3, 300, 2.5, 0.1, True], ids=repr)
def test_scalar_promotion_both_sides(dtype, scalar):
    t = operand(A, dtype)
    tv = [cast(x, dtype) for x in A]
    out = scalar_result(dtype, scalar)
    sv = cast(scalar, out)
    for r, expected in ((t + scalar, [cast(x + sv, out) for x in tv]),
                        (scalar + t, [cast(sv + x, out) for x in tv]),
                        (t * scalar, [cast(x * sv, out) for x in tv]),
                        (scalar * t, [cast(sv * x, out) for x in tv])):
        assert r.dtype == out
        assert r.tolist() == expected
    if dtype != torch.bool and not isinstance(scalar, bool):
        assert (t - scalar).dtype == out and (t - scalar).tolist() == [cast(x - sv, out) for x in tv]
        assert (scalar - t).dtype == out and (scalar - t).tolist() == [cast(sv - x, out) for x in tv]
    fout = out if out.is_floating_point else torch.float32
    r = t / scalar
    assert r.dtype == fout
    assert r.tolist() == [cast(cast(x, fout) / cast(scalar, fout), fout) for x in tv]
    r = scalar / (t + 1)
    assert r.dtype == (fout if dtype != torch.bool else (
        torch.float32 if not isinstance(scalar, float) else torch.float32))
    assert (t == scalar).tolist() == [cast(x, out) == sv for x in tv]
    assert (scalar > t).tolist() == [sv > cast(x, out) for x in tv]


def test_int_tensor_true_division_gives_float():
    r = torch.tensor([1, 2, 3]) / 2
    assert r.dtype == torch.float32 and r.tolist() == [0.5, 1.0, 1.5]
    r = torch.tensor([1, 2]) / torch.tensor([0, 0])
    assert r.tolist() == [math.inf, math.inf]
    r = torch.tensor([0, -1]) / 0
    assert math.isnan(r.tolist()[0]) and r.tolist()[1] == -math.inf
    assert (torch.tensor([True, False]) / 2).tolist() == [0.5, 0.0]


@pytest.mark.parametrize('dtype', ALL, ids=str)
def test_zero_dim_tensors_promote_like_numbers_within_a_category(dtype):
    t = operand(A, dtype)
    # a 0-dim tensor of the same category does not change the dtype...
    assert (t + torch.tensor(3, dtype=torch.int8)).dtype == (torch.int8 if dtype == torch.bool else dtype)
    assert (t + torch.tensor(1000)).dtype == (torch.int64 if dtype == torch.bool else dtype)
    # ...one of a higher category does
    assert (t * torch.tensor(2.5, dtype=torch.float64)).dtype == (dtype if dtype.is_floating_point
                                                                  else torch.float64)
    assert (t + torch.tensor(True)).dtype == dtype
    # two 0-dim tensors promote normally
    z = torch.tensor(3).to(dtype)
    assert (z + torch.tensor(4, dtype=torch.int16)).dtype == PROMOTE[(dtype, torch.int16)]
    # a 0-dim tensor against a 1-element dimensioned one: the dimensioned one wins within a category
    assert (z + torch.tensor([1], dtype=torch.uint8)).dtype == (
        dtype if dtype.is_floating_point else torch.uint8 if dtype != torch.bool else torch.uint8)


def test_zero_dim_values():
    assert (torch.tensor([100, 100], dtype=torch.int8) + torch.tensor(100)).tolist() == [-56, -56]
    assert (torch.tensor([1, 2], dtype=torch.int8) + torch.tensor(1.5)).tolist() == [2.5, 3.5]
    r = torch.tensor([1.0, 2.0], dtype=torch.float16) + torch.tensor(0.1, dtype=torch.float64)
    assert r.dtype == torch.float16 and r.tolist() == [f16(1 + f16(0.1)), f16(2 + f16(0.1))]
    assert (torch.tensor(2) * torch.tensor(3)).item() == 6 and (torch.tensor(2) * torch.tensor(3)).shape == ()


def test_mixed_half_types_promote_to_float32():
    a = torch.tensor([0.1, 0.2], dtype=torch.float16)
    b = torch.tensor([0.1, 0.2], dtype=torch.bfloat16)
    r = a + b
    assert r.dtype == torch.float32
    assert r.tolist() == [f32(f16(0.1) + bf16(0.1)), f32(f16(0.2) + bf16(0.2))]


# ---- integer arithmetic ---------------------------------------------------------------------------

@pytest.mark.parametrize('dtype', INTS, ids=str)
def test_integer_wraparound(dtype):
    hi = (1 << BITS[dtype]) - 1 if dtype == torch.uint8 else (1 << (BITS[dtype] - 1)) - 1
    t = torch.tensor([hi], dtype=dtype)
    assert (t + torch.tensor([1], dtype=dtype)).tolist() == [cast(hi + 1, dtype)]
    assert (t * 2).tolist() == [cast(hi * 2, dtype)]
    assert (t + 300).dtype == dtype  # a Python int never widens the tensor


@pytest.mark.parametrize('dtype', [torch.int8, torch.int16, torch.int32, torch.int64], ids=str)
def test_floor_division_and_remainder_signs(dtype):
    a = torch.tensor([-7, 7, -7, 7, 0], dtype=dtype)
    b = torch.tensor([2, 2, -2, -2, 3], dtype=dtype)
    assert (a // b).tolist() == [-4, 3, 3, -4, 0]  # floor, like Python
    assert (a % b).tolist() == [1, 1, -1, -1, 0]  # sign of the divisor, like Python
    assert (a // 2).tolist() == [x // 2 for x in [-7, 7, -7, 7, 0]]
    assert (a % -3).tolist() == [x % -3 for x in [-7, 7, -7, 7, 0]]
    assert (-7 // b).tolist() == [-7 // y for y in [2, 2, -2, -2, 3]]
    assert (7 % b).tolist() == [7 % y for y in [2, 2, -2, -2, 3]]
    assert torch.floor_divide(a, -2).tolist() == [x // -2 for x in [-7, 7, -7, 7, 0]]
    assert torch.remainder(a, 4).tolist() == [x % 4 for x in [-7, 7, -7, 7, 0]]


def test_float_floor_division_and_remainder():
    a = torch.tensor([-7.5, 7.5, -7.5, 7.5])
    b = torch.tensor([2.0, 2.0, -2.0, -2.0])
    assert (a // b).tolist() == [-4.0, 3.0, 3.0, -4.0]
    assert (a % b).tolist() == [0.5, 1.5, -1.5, -0.5]
    r = (torch.tensor([5.0, -5.0, 0.0]) // 0).tolist()
    assert r[0] == math.inf and r[1] == -math.inf and math.isnan(r[2])
    assert all(math.isnan(v) for v in (torch.tensor([5.0, -5.0]) % 0).tolist())
    assert (torch.tensor([7, 8]) // 2.5).tolist() == [2.0, 3.0]
    assert (torch.tensor([7, 8]) % 2.5).tolist() == [2.0, 0.5]


@pytest.mark.parametrize('dtype', INTS, ids=str)
def test_integer_power(dtype):
    t = torch.tensor([0, 1, 2, 3], dtype=dtype)
    assert (t ** 2).tolist() == [0, 1, 4, 9] and (t ** 2).dtype == dtype
    assert (t ** 0).tolist() == [1, 1, 1, 1]
    assert (2 ** t).tolist() == [1, 2, 4, 8] and (2 ** t).dtype == dtype
    assert (t ** torch.tensor([3, 2, 1, 0], dtype=dtype)).tolist() == [0, 1, 2, 1]
    assert (t ** 7).tolist() == [cast(x ** 7, dtype) for x in range(4)]
    r = t ** 0.5
    assert r.dtype == torch.float32 and r.tolist() == [0.0, 1.0, f32(math.sqrt(2)), f32(math.sqrt(3))]
    assert torch.pow(t, 2).tolist() == [0, 1, 4, 9]
    assert torch.pow(2, t).tolist() == [1, 2, 4, 8]


def test_float_power():
    t = torch.tensor([0.0, 4.0, -8.0, 2.0])
    assert (t ** 2).tolist() == [0.0, 16.0, 64.0, 4.0]
    assert (t ** -1).tolist() == [math.inf, 0.25, -0.125, 0.5]
    r = (t ** 0.5).tolist()
    assert r[:2] == [0.0, 2.0] and math.isnan(r[2])
    assert (1.5 ** torch.tensor([2.0])).tolist() == [2.25]
    assert (torch.tensor([1, 2]) ** -1.0).tolist() == [1.0, 0.5]


# ---- add/sub with alpha, in-place forms ---------------------------------------------------------------

@pytest.mark.parametrize('dtype', [d for d in ALL if d != torch.bool], ids=str)
def test_add_sub_alpha(dtype):
    a, b = operand(A, dtype), operand(B, dtype)
    av, bv = [cast(x, dtype) for x in A], [cast(x, dtype) for x in B]
    assert a.add(b, alpha=2).tolist() == [cast(x + 2 * y, dtype) for x, y in zip(av, bv)]
    assert torch.sub(a, b, alpha=3).tolist() == [cast(x - 3 * y, dtype) for x, y in zip(av, bv)]
    assert torch.add(a, 3).tolist() == [cast(x + 3, dtype) for x in av]
    assert torch.add(input=a, other=1).tolist() == [cast(x + 1, dtype) for x in av]


def test_alpha_must_fit_the_dtype():
    with pytest.raises(RuntimeError, match='alpha'):
        torch.tensor([1, 2]).add(3, alpha=2.5)
    assert torch.tensor([1., 2]).add(3, alpha=2.5).tolist() == [8.5, 9.5]


INPLACE = [('add_', '+=', operator.add), ('sub_', '-=', operator.sub), ('mul_', '*=', operator.mul),
           ('floor_divide_', '//=', operator.floordiv), ('remainder_', '%=', operator.mod)]


@pytest.mark.parametrize('dtype', [d for d in ALL if d != torch.bool], ids=str)
@pytest.mark.parametrize('method, augmented, fn', INPLACE, ids=[m for m, _, _ in INPLACE])
def test_inplace_keeps_dtype_and_storage(dtype, method, augmented, fn):
    base = operand(A, dtype)
    other = operand([2, 1, 1, 4, 3, 1], dtype)
    expected = [cast(fn(cast(x, dtype), cast(y, dtype)), dtype) for x, y in zip(A, B)]
    t = base.clone()
    ptr = t.data_ptr()
    r = getattr(t, method)(other)
    assert r is t and t.data_ptr() == ptr and t.dtype == dtype
    assert t.tolist() == expected
    t = base.clone()
    ns = {'t': t, 'o': other}
    exec('t %s o' % augmented, ns)
    assert ns['t'] is t and t.tolist() == expected


@pytest.mark.parametrize('dtype', FLOATS, ids=str)
def test_inplace_true_division_and_power(dtype):
    t = operand(A, dtype)
    t /= 2
    assert t.dtype == dtype and t.tolist() == [cast(x / 2, dtype) for x in A]
    t = operand(A, dtype)
    t **= 2
    assert t.tolist() == [float(x * x) for x in A]
    t = operand(A, dtype)
    t.div_(torch.tensor(4.0, dtype=torch.float64))
    assert t.dtype == dtype and t.tolist() == [cast(x / 4, dtype) for x in A]


@pytest.mark.parametrize('dtype', INTS + [torch.bool], ids=str)
def test_inplace_cannot_widen(dtype):
    t = operand(A, dtype)
    with pytest.raises(RuntimeError, match="can't be cast"):
        t += 1.5
    with pytest.raises(RuntimeError, match="can't be cast"):
        t /= 2
    with pytest.raises(RuntimeError, match="can't be cast"):
        t.mul_(torch.tensor([1.5]))
    if dtype == torch.bool:
        with pytest.raises(RuntimeError, match="can't be cast"):
            t += 1
    assert t.tolist() == [cast(x, dtype) for x in A]  # untouched by the failed attempts


def test_inplace_narrower_operands_are_fine():
    t = torch.tensor([1, 2, 3], dtype=torch.int16)
    t += torch.tensor([1, 1, 1], dtype=torch.int8)
    t += torch.tensor(1000)  # a 0-dim int64 does not widen an int16 tensor
    assert t.dtype == torch.int16 and t.tolist() == [1002, 1003, 1004]
    f = torch.tensor([1.0], dtype=torch.float16)
    f += torch.tensor([1.0], dtype=torch.float64)
    assert f.dtype == torch.float16 and f.tolist() == [2.0]
    f -= torch.ones(1, dtype=torch.float64)
    assert f.tolist() == [1.0]


def test_inplace_with_broadcasting():
    t = torch.zeros(2, 3)
    t += torch.tensor([1.0, 2.0, 3.0])
    t.mul_(torch.tensor([[1.0], [10.0]]))
    assert t.tolist() == [[1.0, 2.0, 3.0], [10.0, 20.0, 30.0]]
    with pytest.raises(RuntimeError, match='broadcast shape'):
        torch.zeros(3).add_(torch.ones(2, 3))


def test_inplace_on_views_writes_the_base():
    base = torch.arange(6.)
    base[::2].add_(10)
    assert base.tolist() == [10.0, 1.0, 12.0, 3.0, 14.0, 5.0]
    m = torch.arange(6).view(2, 3)
    m.t().mul_(2)
    assert m.tolist() == [[0, 2, 4], [6, 8, 10]]
    m[1] -= 1
    assert m.tolist() == [[0, 2, 4], [5, 7, 9]]


def test_inplace_with_partially_overlapping_operand_is_refused():
    # PyTorch's rule (and message): an input sharing some, not all, of the written memory is an error
    msg = 'some elements of the input tensor and the written-to tensor refer to a single memory location'
    x = torch.arange(1., 5.)
    with pytest.raises(RuntimeError, match=msg):
        x[1:] += x[:-1]
    with pytest.raises(RuntimeError, match=msg):
        x.add_(x[0])
    m = torch.arange(4.).view(2, 2)
    with pytest.raises(RuntimeError, match=msg):
        m.add_(m.t())
    assert x.tolist() == [1.0, 2.0, 3.0, 4.0] and m.tolist() == [[0.0, 1.0], [2.0, 3.0]]
    y = torch.arange(4.)
    y.add_(y)  # the very same memory is fine
    assert y.tolist() == [0.0, 2.0, 4.0, 6.0]
    y[:2].add_(y[2:])  # disjoint views of one storage too
    assert y.tolist() == [4.0, 8.0, 4.0, 6.0]


def test_inplace_with_irregularly_overlapping_operand_reads_first():
    # too irregular for PyTorch's check (not dense): PyTorch computes in place, in its walking order;
    # this project reads the operand first, which gives what the expression means
    x = torch.arange(8.).view(2, 4)
    x.sub_(x[:, :1])
    assert x.tolist() == [[0.0, 1.0, 2.0, 3.0], [0.0, 1.0, 2.0, 3.0]]


def test_inplace_with_interleaved_operand_reads_before_writing():
    # overlaps PyTorch cannot rule out cheaply (strided views) are read from a copy first here, so the
    # result is what the expression means whatever order the kernel walks in
    z = torch.arange(10.)
    z[2::2].add_(z[::2][:4])
    assert z[2::2].tolist() == [2.0, 6.0, 10.0, 14.0]


def test_inplace_on_expanded_tensor_is_refused():
    x = torch.zeros(3).expand(2, 3)
    with pytest.raises(RuntimeError, match='single memory location'):
        x.add_(1)
    with pytest.raises(RuntimeError, match='single memory location'):
        x.exp_()
    assert torch.zeros(1).expand(1).add_(1).tolist() == [1.0]


@pytest.mark.parametrize('dtype', ALL, ids=str)
def test_inplace_returns_self_and_bumps_the_version(dtype):
    t = operand(A, dtype)
    v = t._version
    if dtype != torch.bool:
        assert t.add_(1) is t
        assert t._version > v


# ---- unary math -------------------------------------------------------------------------------------

X = [-2.5, -1.0, -0.25, 0.0, 0.5, 1.0, 2.75, 9.0]
UNARY = {'exp': math.exp, 'sin': math.sin, 'cos': math.cos, 'tanh': math.tanh,
         'sigmoid': lambda v: 1 / (1 + math.exp(-v)),
         'log': lambda v: math.log(v) if v > 0 else (-math.inf if v == 0 else math.nan),
         'sqrt': lambda v: math.sqrt(v) if v >= 0 else math.nan}
ULP = {torch.float16: 1e-3, torch.bfloat16: 8e-3, torch.float32: 2.5e-7, torch.float64: 1e-15}


def close(got, want, dtype):
    if math.isnan(want):
        return math.isnan(got)
    if math.isinf(want):
        return got == want
    return abs(got - want) <= ULP[dtype] * max(abs(want), 1e-30) and cast(got, dtype) == got


@pytest.mark.parametrize('dtype', ALL, ids=str)
@pytest.mark.parametrize('name', sorted(UNARY))
def test_float_unary_ops(dtype, name):
    t = torch.tensor(X).to(dtype)
    inputs = [cast(v, dtype) for v in X]
    out = dtype if dtype.is_floating_point else torch.float32
    for r in (getattr(t, name)(), getattr(torch, name)(t), getattr(torch, name)(t.view(2, 4).t()).t().reshape(8)):
        assert r.dtype == out and r.shape == (8,)
        want = [cast(UNARY[name](float(v)), out) for v in inputs]
        got = r.tolist()
        assert all(close(g, w, out) for g, w in zip(got, want)), (got, want)


@pytest.mark.parametrize('dtype', [d for d in ALL if d != torch.bool], ids=str)
def test_neg_abs_relu(dtype):
    t = torch.tensor(X).to(dtype)
    v = [cast(x, dtype) for x in X]
    assert (-t).tolist() == [cast(-x, dtype) for x in v] and (-t).dtype == dtype
    assert t.neg().tolist() == [cast(-x, dtype) for x in v]
    assert abs(t).tolist() == [cast(abs(x), dtype) for x in v] and t.abs().dtype == dtype
    assert t.relu().tolist() == [cast(max(x, 0), dtype) for x in v] and torch.relu(t).dtype == dtype
    assert torch.relu(t[1::3]).tolist() == [cast(max(x, 0), dtype) for x in v[1::3]]
    assert (+t).tolist() == v


def test_unary_edge_values():
    assert torch.tensor([-128, 127], dtype=torch.int8).neg().tolist() == [-128, -127]
    assert torch.tensor([-128], dtype=torch.int8).abs().tolist() == [-128]
    assert torch.tensor([0, 1, 255], dtype=torch.uint8).neg().tolist() == [0, 255, 1]
    r = torch.tensor([float('nan'), -1.0, -0.0]).relu().tolist()
    assert math.isnan(r[0]) and r[1:] == [0.0, 0.0]
    assert torch.tensor([1e30, -1e30, 88.0, 89.0]).exp().tolist() == [math.inf, 0.0, f32(math.exp(88)), math.inf]
    # PyTorch's sigmoid is 1 / (1 + exp(-x)) in float32: exp(100) overflows, so sigmoid(-100) is 0, not 3.8e-44
    assert torch.tensor([-100.0, 100.0, 0.0]).sigmoid().tolist() == [0.0, 1.0, 0.5]
    r = torch.tensor([float('inf'), float('-inf'), float('nan')]).tanh().tolist()
    assert r[:2] == [1.0, -1.0] and math.isnan(r[2])


@pytest.mark.parametrize('name', ['exp_', 'log_', 'sqrt_', 'sin_', 'cos_', 'tanh_', 'sigmoid_', 'neg_', 'abs_',
                                  'relu_'])
def test_unary_inplace(name):
    t = torch.tensor([0.5, 1.0, 4.0])
    expected = getattr(t, name[:-1])().tolist()
    ptr = t.data_ptr()
    assert getattr(t, name)() is t and t.data_ptr() == ptr and t.tolist() == expected
    i = torch.tensor([1, 2])
    if name in ('neg_', 'abs_', 'relu_'):
        assert getattr(i, name)().dtype == torch.int64
    else:
        with pytest.raises(RuntimeError, match="can't be cast"):
            getattr(i, name)()


# ---- comparisons ----------------------------------------------------------------------------------------

CMP = [('eq', operator.eq), ('ne', operator.ne), ('lt', operator.lt), ('le', operator.le), ('gt', operator.gt),
       ('ge', operator.ge)]


@pytest.mark.parametrize('dtype', ALL, ids=str)
@pytest.mark.parametrize('name, fn', CMP, ids=[n for n, _ in CMP])
def test_comparisons(dtype, name, fn):
    a, b = operand(A, dtype), operand([2, 0, 3, 4, 7, 1], dtype)
    av, bv = [cast(x, dtype) for x in A], [cast(x, dtype) for x in [2, 0, 3, 4, 7, 1]]
    want = [fn(x, y) for x, y in zip(av, bv)]
    for r in (fn(a, b), getattr(torch, name)(a, b), getattr(a, name)(b)):
        assert r.dtype == torch.bool and r.tolist() == want
    assert fn(a, 3).tolist() == [fn(x, 3) for x in av]
    assert fn(3, a).tolist() == [fn(3, x) for x in av]
    assert fn(a, 2.5).tolist() == [fn(x, 2.5) for x in av]


def test_comparison_promotes_before_comparing():
    assert (torch.tensor([1, 2, 3]) == torch.tensor([1.0, 2.5, 3.0])).tolist() == [True, False, True]
    h = torch.tensor([0.1], dtype=torch.float16)
    assert (h == 0.1).tolist() == [True]  # 0.1 becomes float16 first
    assert (h == torch.tensor([0.1])).tolist() == [False]  # compared in float32
    assert (torch.tensor([300], dtype=torch.int16) > torch.tensor([200], dtype=torch.uint8)).tolist() == [True]
    assert (torch.tensor([float('nan')]) == torch.tensor([float('nan')])).tolist() == [False]
    assert (torch.tensor([float('nan')]) != 1).tolist() == [True]
    assert (torch.tensor([1, 2]) != torch.tensor([[1], [2]])).tolist() == [[False, True], [True, False]]


def test_maximum_minimum():
    assert torch.maximum(torch.tensor([1, 5]), torch.tensor([3, 2])).tolist() == [3, 5]
    r = torch.minimum(torch.tensor([1, 5]), torch.tensor([3.5, 2]))
    assert r.dtype == torch.float32 and r.tolist() == [1.0, 2.0]
    assert torch.max(torch.tensor([1, 5]), torch.tensor([3, 2])).tolist() == [3, 5]
    assert torch.min(torch.tensor([[1], [5]]), torch.tensor([3, 2])).tolist() == [[1, 1], [3, 2]]
    r = torch.maximum(torch.tensor([float('nan'), 1.0]), torch.tensor([0.0, float('nan')])).tolist()
    assert math.isnan(r[0]) and math.isnan(r[1])  # NaN propagates


# ---- bool tensors -------------------------------------------------------------------------------------

def test_bool_arithmetic():
    a, b = torch.tensor([True, False]), torch.tensor([True, True])
    assert (a + b).dtype == torch.bool and (a + b).tolist() == [True, True]
    assert (a * b).tolist() == [True, False]
    assert (a * True).dtype == torch.bool
    assert (a + 1).dtype == torch.int64 and (a + 1).tolist() == [2, 1]
    assert (a + 1.5).tolist() == [2.5, 1.5]
    for bad in (lambda: a - b, lambda: -a, lambda: a - 1, lambda: 2 - a, lambda: torch.tensor([1, 2]) - True):
        with pytest.raises(RuntimeError, match='Subtraction|Negation'):
            bad()


# ---- broadcasting -----------------------------------------------------------------------------------------

@pytest.mark.parametrize('sa, sb, out', [
    ((3,), (2, 3), (2, 3)), ((2, 3), (3,), (2, 3)), ((2, 1, 3), (4, 1), (2, 4, 3)), ((1,), (5,), (5,)),
    ((), (2, 2), (2, 2)), ((2, 0), (1,), (2, 0)), ((4, 1, 1), (1, 3, 1), (4, 3, 1)), ((1, 1), (), (1, 1)),
])
def test_broadcast_shapes(sa, sb, out):
    a = torch.ones(*sa) if sa else torch.tensor(1.0)
    b = torch.full(sb, 2.0) if sb else torch.tensor(2.0)
    for r in (a + b, b + a, a * b, a < b):
        assert r.shape == out
    assert (a + b).tolist() == torch.full(out, 3.0).tolist()


def test_broadcast_values():
    r = torch.tensor([1, 2]) + torch.tensor([[10], [20]])
    assert r.tolist() == [[11, 12], [21, 22]]
    r = torch.arange(3.).view(3, 1) * torch.arange(4.)
    assert r.tolist() == [[i * j for j in range(4)] for i in range(3)]


def test_broadcast_mismatch_names_the_sizes():
    with pytest.raises(RuntimeError, match=r'size of tensor a \(3\) must match the size of tensor b \(4\)'):
        torch.ones(2, 3) + torch.ones(4)


def test_integer_power_with_negative_tensor_exponents():
    # only a negative Python-number exponent is an error in PyTorch (see test_errors.py)
    assert (torch.tensor([1, 2, -1, -1, 0]) ** torch.tensor([-1, -1, -3, -2, 2])).tolist() == [1, 0, -1, 1, 0]
    assert (2 ** torch.tensor([-1, 2])).tolist() == [0, 4]


def test_torch_level_in_place_functions_write_their_argument():
    # PyTorch's torch.exp_(x) etc.: the same result as the method, in x itself
    names = ['abs_', 'acos_', 'arccos_', 'asin_', 'atan_', 'ceil_', 'cos_', 'cosh_', 'deg2rad_', 'erf_', 'erfc_',
             'exp2_', 'exp_', 'expm1_', 'fix_', 'floor_', 'frac_', 'log10_', 'log1p_', 'log2_', 'log_', 'neg_',
             'negative_', 'rad2deg_', 'reciprocal_', 'round_', 'rsqrt_', 'sigmoid_', 'sin_', 'sinh_', 'sqrt_', 'tan_',
             'tanh_', 'trunc_', 'relu_']
    for name in names:
        x = torch.tensor([0.25, 0.5, 0.75])
        expected = getattr(x.clone(), name)()
        assert getattr(torch, name)(x) is x and torch.equal(x, expected), name
    x = torch.tensor([-2., 0.5, 3.])
    assert torch.clamp_(x, 0, 2) is x and x.tolist() == [0, 0.5, 2]
    assert torch.equal(torch.xlogy_(torch.tensor([2.]), torch.tensor([3.])), torch.tensor([2.]).xlogy(3.))


def test_composed_functions_honour_their_arguments():
    # fill_diagonal_ on a tensor in a graph is recorded (the diagonal gets no gradient)
    x = torch.zeros(3, 3, requires_grad=True)
    y = x * 2
    y.fill_diagonal_(5)
    y.sum().backward()
    assert x.grad.tolist() == [[0., 2., 2.], [2., 0., 2.], [2., 2., 0.]]
    # layout and pin_memory are checked or applied, not dropped
    with pytest.raises(RuntimeError, match='strided layout'):
        torch.hann_window(4, layout=torch.sparse_coo)
    assert torch.hann_window(4, pin_memory=False).tolist() == [0.0, 0.5, 1.0, 0.5]
    assert torch.scalar_tensor(2, dtype=torch.int32).dtype == torch.int32
    assert torch.ones(2).new_empty_strided((2, 2), (1, 2), dtype=torch.float64).stride() == (1, 2)
    # complex logspace (its values are compared bit for bit in test_rounding_reference.py)
    assert torch.logspace(0, 1j, 3).dtype == torch.complex64
