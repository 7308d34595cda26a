"""Reductions: sum, mean, max, min, argmax, argmin, over everything or along dims, with keepdim, for
every dtype and on non-contiguous inputs. Expected values come from plain Python."""
import math
import struct

import pytest

import torch

ALL = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.float16, torch.bfloat16,
       torch.float32, torch.float64]
FLOATS = [torch.float16, torch.bfloat16, torch.float32, torch.float64]
M = [[5, 0, 3], [1, 7, 2], [7, 1, 1], [0, 0, 6]]  # 4 x 3, small values every dtype holds


def f16(x):
    return struct.unpack('e', struct.pack('e', x))[0]


def bf16(x):
    bits = struct.unpack('I', struct.pack('f', x))[0]
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    return struct.unpack('f', struct.pack('I', bits))[0]


def f32(x):
    return struct.unpack('f', struct.pack('f', x))[0]


ROUND = {torch.float16: f16, torch.bfloat16: bf16, torch.float32: f32, torch.float64: float}


def as_dtype(v, dtype):
    if dtype == torch.bool:
        return bool(v)
    return ROUND[dtype](float(v)) if dtype.is_floating_point else int(v)


def mat(dtype, transposed=False):
    t = torch.tensor(M).to(dtype)
    return t.t().contiguous().t() if transposed else t  # same values, column-major strides


def values(dtype):
    return [[as_dtype(v, dtype) for v in row] for row in M]


def col(rows, j):
    return [r[j] for r in rows]


def sum_dtype(dtype):
    return dtype if dtype.is_floating_point else torch.int64


# ---- sum ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize('dtype', ALL, ids=str)
@pytest.mark.parametrize('transposed', [False, True], ids=['contiguous', 'column-major'])
def test_sum(dtype, transposed):
    t = mat(dtype, transposed)
    v = values(dtype)
    out = sum_dtype(dtype)
    num = (lambda x: as_dtype(x, out))
    total = t.sum()
    assert total.dtype == out and total.shape == () and total.item() == num(sum(sum(r) for r in v))
    assert t.sum(0).tolist() == [num(sum(col(v, j))) for j in range(3)] and t.sum(0).shape == (3,)
    assert t.sum(1).tolist() == [num(sum(r)) for r in v]
    assert t.sum(-1, keepdim=True).tolist() == [[num(sum(r))] for r in v]
    assert t.sum(dim=0, keepdim=True).shape == (1, 3)
    assert t.sum((0, 1)).item() == total.item() and t.sum([1, 0], keepdim=True).shape == (1, 1)
    assert torch.sum(t, 1).tolist() == t.sum(1).tolist()
    assert t.sum(dtype=torch.float64).dtype == torch.float64
    assert t.sum(dtype=torch.float64).item() == float(sum(sum(r) for r in v))
    assert t.t().sum(0).tolist() == t.sum(1).tolist()
    assert t[:, ::2].sum(1).tolist() == [num(r[0] + r[2]) for r in v]


def test_sum_integer_accumulates_in_int64():
    assert torch.tensor([100, 100], dtype=torch.int8).sum().item() == 200
    assert torch.tensor([True, True, False]).sum().item() == 2
    assert torch.tensor([2 ** 62, 2 ** 62 - 1]).sum().item() == 2 ** 63 - 1
    assert torch.arange(6).view(2, 3).sum(dtype=torch.int8).dtype == torch.int8
    assert torch.ones(300, dtype=torch.int8).sum(dtype=torch.int8).item() == 44  # wraps in the asked dtype


def test_sum_of_empty_and_zero_dim():
    assert torch.zeros(0).sum().item() == 0.0
    assert torch.zeros(2, 0).sum(1).tolist() == [0.0, 0.0]
    assert torch.zeros(0, 3, dtype=torch.int32).sum(0).tolist() == [0, 0, 0]
    assert torch.tensor(4).sum().item() == 4 and torch.tensor(4).sum(0).shape == ()
    assert torch.arange(6.).sum(()).item() == 15.0  # an empty dim list means all dims
    assert torch.arange(6.).view(2, 3).sum([]).shape == ()


def test_sum_three_dims():
    x = torch.arange(24.).view(2, 3, 4)
    assert x.sum((0, 2)).tolist() == [sum(i * 12 + j * 4 + k for i in range(2) for k in range(4)) for j in range(3)]
    assert x.permute(2, 0, 1).sum(1).shape == (4, 3)
    assert x.sum(-1, keepdim=True).shape == (2, 3, 1)


def test_sum_float_accuracy():
    # a long float32 sum must not drift like a naive running sum does (100958 for this one)
    assert abs(torch.full((10 ** 6,), 0.1).sum().item() - 100000.0) < 1.0
    assert torch.ones(1000, dtype=torch.float16).sum().item() == 1000.0
    assert torch.arange(100, dtype=torch.bfloat16).sum().item() == 4960.0  # rounded to bfloat16


# ---- mean -------------------------------------------------------------------------------------------

@pytest.mark.parametrize('dtype', FLOATS, ids=str)
@pytest.mark.parametrize('transposed', [False, True], ids=['contiguous', 'column-major'])
def test_mean(dtype, transposed):
    t = mat(dtype, transposed)
    v = values(dtype)
    assert t.mean().dtype == dtype and t.mean().item() == as_dtype(sum(sum(r) for r in v) / 12, dtype)
    assert t.mean(0).tolist() == [as_dtype(sum(col(v, j)) / 4, dtype) for j in range(3)]
    assert t.mean(1, keepdim=True).tolist() == [[as_dtype(sum(r) / 3, dtype)] for r in v]
    assert torch.mean(t, dim=(0, 1)).item() == t.mean().item()
    assert t.mean(dtype=torch.float64).dtype == torch.float64


def test_mean_of_integers_needs_a_float_dtype():
    t = torch.tensor(M)
    assert t.mean(dtype=torch.float32).item() == f32(33 / 12)
    assert t.mean(0, dtype=torch.float64).tolist() == [13 / 4, 8 / 4, 12 / 4]
    with pytest.raises(RuntimeError, match='mean'):
        t.mean()


def test_mean_of_empty_is_nan():
    assert math.isnan(torch.zeros(0).mean().item())
    assert all(math.isnan(v) for v in torch.zeros(2, 0).mean(1).tolist())
    assert torch.zeros(0, 2).mean(1).shape == (0,)


# ---- max / min over everything -------------------------------------------------------------------------

@pytest.mark.parametrize('dtype', ALL, ids=str)
@pytest.mark.parametrize('transposed', [False, True], ids=['contiguous', 'column-major'])
def test_max_min_all(dtype, transposed):
    t = mat(dtype, transposed)
    v = [x for r in values(dtype) for x in r]
    assert t.max().dtype == dtype and t.max().shape == () and t.max().item() == max(v)
    assert t.min().item() == min(v) and torch.min(t).item() == min(v)


def test_max_min_propagate_nan():
    t = torch.tensor([1.0, float('nan'), 3.0])
    assert math.isnan(t.max().item()) and math.isnan(t.min().item())
    r = torch.tensor([[1.0, float('nan')], [2.0, 1.0]]).max(1)
    assert math.isnan(r.values[0].item()) and r.indices.tolist() == [1, 0]


# ---- max / min along a dim ------------------------------------------------------------------------------

@pytest.mark.parametrize('dtype', ALL, ids=str)
@pytest.mark.parametrize('transposed', [False, True], ids=['contiguous', 'column-major'])
def test_max_min_dim(dtype, transposed):
    t = mat(dtype, transposed)
    v = values(dtype)

    def first_index(seq, target):
        return seq.index(target)
    r = t.max(0)
    assert r.values.dtype == dtype and r.indices.dtype == torch.int64
    assert r.values.tolist() == [max(col(v, j)) for j in range(3)]
    assert r.indices.tolist() == [first_index(col(v, j), max(col(v, j))) for j in range(3)]
    vals, idx = t.min(1)  # unpacks like a tuple
    assert vals.tolist() == [min(row) for row in v] and idx.tolist() == [row.index(min(row)) for row in v]
    r = t.max(1, keepdim=True)
    assert r.values.shape == (4, 1) and r.indices.shape == (4, 1)
    assert r[0].tolist() == [[max(row)] for row in v]
    r = torch.max(t, dim=-1)
    assert r.indices.tolist() == [row.index(max(row)) for row in v]
    r = t.min(dim=0, keepdim=True)
    assert r.values.tolist() == [[min(col(v, j)) for j in range(3)]]


def test_max_dim_ties_give_the_first_index():
    assert torch.tensor([[2, 2], [2, 2]]).max(1).indices.tolist() == [0, 0]
    assert torch.tensor([3, 1, 3, 1]).min(0).indices.item() == 1


def test_max_dim_return_type():
    r = torch.arange(4).max(0)
    assert type(r).__name__ == 'max' and r.values.item() == 3 and r.indices.item() == 3
    assert r[0].item() == 3 and r[1].item() == 3 and len(r) == 2
    assert repr(r) == 'torch.return_types.max(\nvalues=tensor(3),\nindices=tensor(3))'


def test_max_dim_of_zero_dim_and_three_dims():
    r = torch.tensor(4).max(0)
    assert r.values.item() == 4 and r.indices.item() == 0 and r.values.shape == ()
    x = torch.arange(24).view(2, 3, 4)
    assert x.max(1).values.tolist() == [[8, 9, 10, 11], [20, 21, 22, 23]]
    assert x.max(1).indices.tolist() == [[2] * 4] * 2


# ---- argmax / argmin ------------------------------------------------------------------------------------

@pytest.mark.parametrize('dtype', ALL, ids=str)
def test_argmax_argmin(dtype):
    t = mat(dtype, transposed=True)
    v = values(dtype)
    flat = [x for r in v for x in r]
    assert t.argmax().dtype == torch.int64 and t.argmax().shape == ()
    assert t.argmax().item() == flat.index(max(flat)) and t.argmin().item() == flat.index(min(flat))
    assert t.argmax(0).tolist() == [col(v, j).index(max(col(v, j))) for j in range(3)]
    assert t.argmin(dim=1).tolist() == [r.index(min(r)) for r in v]
    assert t.argmax(1, keepdim=True).shape == (4, 1)
    assert torch.argmax(t, dim=0).tolist() == t.argmax(0).tolist()


def test_argmax_details():
    assert torch.tensor([3, 1, 3, 1]).argmax().item() == 0
    assert torch.tensor([3, 1, 3, 1]).argmin().item() == 1
    assert torch.tensor([1.0, float('nan'), 3.0]).argmax().item() == 1  # NaN counts as the maximum
    x = torch.arange(24).view(2, 3, 4)
    assert x.argmax(keepdim=True).shape == (1, 1, 1) and x.argmax(keepdim=True).item() == 23
    assert x.argmax(2, True).shape == (2, 3, 1)
    assert torch.tensor(4).argmax().item() == 0
    assert torch.zeros(0, 3).argmax(1).shape == (0,)


# ---- keyword spellings -------------------------------------------------------------------------------

def test_reduction_keywords():
    x = torch.arange(6.).view(2, 3)
    assert x.sum(dim=1).tolist() == [3.0, 12.0]
    assert x.sum(axis=0).tolist() == [3.0, 5.0, 7.0]  # numpy's name, accepted by PyTorch
    assert x.sum(0, keepdims=True).shape == (1, 3)
    assert x.sum(0, True).shape == (1, 3)  # positional keepdim
    assert torch.max(x, axis=1).values.tolist() == [2.0, 5.0]
    assert x.mean(dim=None).item() == 2.5 and x.sum(None).item() == 15.0
    assert torch.sum(input=x).item() == 15.0


def test_reduction_dims_checked_for_range_before_repeats():
    x = torch.zeros(4, 0, dtype=torch.int8)
    with pytest.raises(IndexError, match=r'Dimension out of range \(expected to be in range of \[-2, 1\], but got -3\)'):
        x.sum((0, 0, -3), keepdim=True)
    with pytest.raises(RuntimeError, match='dim 0 appears multiple times in the list of dims'):
        x.sum((0, 0, -2))
