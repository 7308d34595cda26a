"""The reductions family: reductions (sum, prod, nansum, mean, nanmean, std/var, norm, logsumexp,
all/any, amax/amin, aminmax, count_nonzero), scans (cumsum, cumprod, cummax/cummin, logcumsumexp),
sorting and selection (sort, argsort, msort, topk, kthvalue, median, mode, quantile), unique,
searchsorted/bucketize, histc and bincount. Expected values are derived by hand or in closed form;
tests/python/test_reductions_reference.py compares with PyTorch itself."""
import math

import numpy as np
import pytest

import torch

ALL = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.float16, torch.bfloat16,
       torch.float32, torch.float64]
FLOATS = [torch.float16, torch.bfloat16, torch.float32, torch.float64]
NAN, INF = float('nan'), float('inf')


def same(a, b):
    """Lists of numbers equal, NaN equal to NaN."""
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, float) and math.isnan(a):
        return isinstance(b, float) and math.isnan(b)
    return a == b


# ---- sums, products, means ---------------------------------------------------------------------

@pytest.mark.parametrize('dtype', [d for d in ALL if d != torch.bool], ids=str)
def test_sum_prod_closed_forms(dtype):
    x = torch.arange(1, 7).to(dtype).view(2, 3)  # [[1, 2, 3], [4, 5, 6]]
    out = dtype if dtype.is_floating_point else torch.int64
    assert x.sum().item() == 21 and x.sum().dtype == out
    assert x.sum(0).tolist() == [5, 7, 9] and x.sum(1, keepdim=True).tolist() == [[6], [15]]
    assert x.prod().item() == 720 and x.prod(1).tolist() == [6, 120] and x.prod(0, keepdim=True).shape == (1, 3)
    assert x.t().prod(0).tolist() == [6, 120]  # non-contiguous
    assert torch.nansum(x).item() == 21 and torch.nansum(x, 1).tolist() == [6, 15]
    assert x.sum(dtype=torch.float64).dtype == torch.float64 and x.prod(dtype=torch.float64).item() == 720.0


def test_sum_of_bool_and_narrow_integers_counts_without_overflow():
    mask = torch.arange(100000) % 3 == 0
    assert mask.sum().item() == 33334 and mask.sum().dtype == torch.int64
    assert torch.full((1000,), 100, dtype=torch.int8).sum().item() == 100000
    assert torch.full((1000,), 200, dtype=torch.uint8).sum(0).item() == 200000
    assert torch.tensor([True, False]).sum(dtype=torch.bool).item() is True
    assert torch.tensor([True, False]).prod(dtype=torch.bool).item() is False
    assert torch.tensor([100, 100], dtype=torch.int8).sum(dtype=torch.int8).item() == -56  # wraps in int8


def test_empty_reductions_are_identities():
    e = torch.zeros(2, 0)
    assert e.sum(1).tolist() == [0.0, 0.0] and e.prod(1).tolist() == [1.0, 1.0]
    assert torch.nansum(e, 1).tolist() == [0.0, 0.0] and e.all(1).tolist() == [True, True]
    assert e.any(1).tolist() == [False, False] and torch.count_nonzero(e, 1).tolist() == [0, 0]
    assert same(e.mean(1).tolist(), [NAN, NAN]) and same(e.var(1).tolist(), [NAN, NAN])
    assert torch.logsumexp(e, 1).tolist() == [-INF, -INF] and torch.norm(e, 2, 1).tolist() == [0.0, 0.0]


def test_zero_dim_inputs():
    z = torch.tensor(3.5)
    assert z.sum().item() == 3.5 and z.prod(0).item() == 3.5 and z.amax().item() == 3.5
    assert z.cumsum(0).item() == 3.5 and z.sort().indices.item() == 0 and z.median().item() == 3.5
    assert torch.logsumexp(z, 0).item() == 3.5 and same(z.var().item(), NAN) and z.std(unbiased=False).item() == 0
    assert torch.topk(z, 1).values.item() == 3.5 and torch.kthvalue(z, 1).indices.item() == 0


def test_nan_sums_and_means():
    x = torch.tensor([[1.0, NAN, 3.0], [NAN, NAN, NAN]])
    assert same(x.sum(1).tolist(), [NAN, NAN])
    assert torch.nansum(x, 1).tolist() == [4.0, 0.0]
    assert same(torch.nanmean(x, 1).tolist(), [2.0, NAN])
    assert torch.nanmean(x).item() == 2.0
    with pytest.raises(RuntimeError, match='floating point'):
        torch.nanmean(torch.tensor([1, 2]))


def test_long_float32_sum_is_accurate_and_thread_independent():
    x = torch.full((2_000_003,), 0.1)
    torch.set_num_threads(1)
    one = x.sum().item()
    torch.set_num_threads(2)
    two = x.sum().item()
    assert abs(one - 200000.3) < 0.05 and abs(two - 200000.3) < 0.05
    m = torch.arange(4096 * 33, dtype=torch.float32).view(33, 4096)  # the outer plan: sum over rows
    assert m.sum(0)[:3].tolist() == [sum(4096 * r + c for r in range(33)) for c in range(3)]


def test_float32_sums_and_products_stay_accurate_with_float_lanes():
    # float lanes within blocks of 2048, double above: the error stays within a few float32 ulps
    rng = np.random.default_rng(3)
    for values in (rng.random(1_000_003, dtype=np.float32), rng.standard_normal(777_777).astype(np.float32) + 100):
        exact = math.fsum(values.astype(np.float64).tolist())
        got = torch.from_numpy(values).sum().item()
        assert abs(got - exact) <= 4 * np.spacing(np.float32(exact))
        assert torch.from_numpy(values).view(-1, 1)[::1].sum().item() == got  # the same order either way
    # products stay in double: float lanes drifted by 3e-6 per block of factors near 1 (PyTorch: 2e-6)
    near_one = (1 + rng.standard_normal(300_001) * 1e-3).astype(np.float32)
    exact = np.prod(near_one.astype(np.float64))
    assert abs(torch.from_numpy(near_one).prod().item() - exact) <= 1e-6 * exact


def test_float32_products_keep_float32_subnormals_and_agree_across_layouts_and_threads():
    # Double lanes flush results below double's normal range (a block's tree of uniform [0, 1)
    # factors lands there), but float32 subnormal inputs and results are kept.
    tiny = np.float32(1e-40)   # a float32 subnormal
    assert torch.tensor([tiny, 1e10]).prod().item() == pytest.approx(float(tiny) * 1e10, rel=1e-6, abs=0)
    got = torch.tensor([1e-20, 1e-20, 3e-5] + [1.0] * 200).prod().item()
    assert got == float(np.float32(np.float64(1e-20 * 1e-20) * np.float64(np.float32(3e-5))))
    assert 0 < got < np.finfo(np.float32).tiny
    # the flush is a property of each multiply, so the layouts still give the same bits
    rng = np.random.default_rng(5)
    x = torch.from_numpy(np.exp(rng.standard_normal(300_001) * 0.01).astype(np.float32))
    one = x.prod()
    assert 0.1 < one.item() < 10
    assert torch.equal(x.view(-1, 1)[::1].prod(), one)
    assert torch.equal(x.view(-1, 1).t().prod(1)[0], one)
    rows = x[:299_000].view(1000, 299)
    assert torch.equal(rows.prod(1), torch.stack([r.clone().prod() for r in rows]))
    before = torch.get_num_threads()
    torch.set_num_threads(2)
    try:   # two threads combine their halves in another order
        assert x.prod().item() == pytest.approx(one.item(), rel=1e-6)
        assert torch.equal(rows.prod(1), torch.stack([r.clone().prod() for r in rows]))
    finally:
        torch.set_num_threads(before)
    uniform = torch.from_numpy(rng.random(65_536, dtype=np.float32))
    assert uniform.prod().item() == 0.0 and uniform[:10].prod().item() == pytest.approx(
        float(np.prod(uniform[:10].numpy().astype(np.float64))), rel=1e-6)


@pytest.mark.parametrize('dtype', [torch.float32, torch.float64, torch.int64], ids=str)
def test_sums_of_rows_that_start_anywhere_match_an_aligned_copy(dtype):
    # Lanes are fixed by an element's place in its row, not in memory, so a row that does not start
    # on a cache line (numpy's arrays, slices) sums bit-for-bit as an aligned copy does. Lengths
    # straddle a period's end and a block.
    rng = np.random.default_rng(11)
    base = torch.from_numpy(rng.standard_normal(9000) * 1000).to(dtype).clone()
    assert base.data_ptr() % 64 == 0   # so the offsets below misalign by every multiple of 4 bytes
    for off in (1, 3, 4, 7, 8, 15, 16, 17):
        for n in (63, 64, 127, 128, 129, 144, 145, 200, 2048, 2049, 4096 + 77, 8191):
            x = base[off:off + n]
            y = x.clone()
            assert torch.equal(x.sum(), y.sum()), (off, n)
            if dtype != torch.int64:
                assert torch.equal(x.nansum(), y.nansum()), (off, n)
                assert torch.equal(x.mean(), y.mean()), (off, n)
    rows = base[5:5 + 40 * 211].view(40, 211)   # every row starts at a different place in its line
    assert torch.equal(rows.sum(1), rows.clone().sum(1))
    exact = [math.fsum(r) for r in rows.double().tolist()]
    tol = 1e-9 if dtype != torch.float32 else 1e-3
    assert all(abs(a - b) <= tol * max(1.0, abs(b)) for a, b in zip(rows.sum(1).double().tolist(), exact))


@pytest.mark.parametrize('dtype', [torch.float32, torch.float64, torch.int64], ids=str)
def test_sums_of_every_length_count_each_element_once(dtype):
    # Small integers sum exactly in any order, so a tail element dropped, added twice or read past
    # the row's end changes the result. Lengths cover every tail of a period (128 lanes at most)
    # and rows of a sum along a dim, at every start within a cache line.
    # Rows of 32K elements and more are read as two streams of blocks, whose results are handed
    # out in order (every block exactly once, the last partial one too), and rows of two blocks or
    # more along a dim two rows at once.
    long_lengths = [32767, 32768, 32769, 40000, 65536 + 1024, 100003, 2 ** 18 + 3]
    base = torch.from_numpy((np.arange(2 ** 18 + 40) % 13 + 1).astype(np.float64)).to(dtype).clone()
    for off in (0, 1, 5):
        for n in list(range(1, 300)) + [511, 512, 513, 1000, 2047, 2049, 4095] + long_lengths:
            x = base[off:off + n]
            expected = float(((np.arange(off, off + n) % 13) + 1).sum())
            assert x.sum().item() == expected, (off, n)
    for n in (3, 8, 9, 31, 64, 100, 129, 256, 2048, 3001, 8192, 16385):
        rows = base[1:1 + 16 * n].view(16, n)
        expected = [float(v) for v in ((np.arange(1, 1 + 16 * n) % 13) + 1).reshape(16, n).sum(1)]
        assert rows.sum(1).tolist() == expected, n
        if dtype != torch.int64:
            assert rows.mean(1).tolist() == pytest.approx([e / n for e in expected], rel=1e-6)
    if dtype == torch.int64:
        return
    # products of powers of two are exact too: 1/2, 1, 2, ... (a dropped factor moves the exponent)
    exps = np.arange(2 ** 18 + 40) % 3 - 1
    powers = torch.from_numpy(np.ldexp(1.0, exps)).to(dtype)
    for off in (0, 1, 5):
        for n in list(range(1, 140)) + [255, 257, 2047, 2049, 4095] + long_lengths:
            assert powers[off:off + n].prod().item() == 2.0 ** int(exps[off:off + n].sum()), (off, n)
    for n in (100, 3001):
        rows = powers[1:1 + 16 * n].view(16, n)
        assert rows.prod(1).tolist() == [2.0 ** int(e) for e in exps[1:1 + 16 * n].reshape(16, n).sum(1)]
    # nansum counts a NaN as 0 wherever it falls: in whole vectors, in the tail, in its last part
    holes = base.clone()
    holes[::7] = float('nan')
    for n in list(range(1, 140)) + [257, 2049] + long_lengths:
        kept = [v for v in holes[2:2 + n].tolist() if v == v]
        assert holes[2:2 + n].nansum().item() == sum(kept), n


@pytest.mark.parametrize('dtype', [torch.float32, torch.float64], ids=str)
def test_max_min_of_every_length_see_every_element_and_nan(dtype):
    # Rows of every length take the vector blocks: the extreme can sit anywhere, in the
    # tail's last partial vector too, and a NaN anywhere wins.
    rng = np.random.default_rng(5)
    for n in list(range(1, 140)) + [255, 511, 512, 513, 2049, 4096, 40000, 100003]:
        for at in sorted({0, n // 2, n - 1}):
            x = torch.from_numpy(rng.standard_normal(n + 3)).to(dtype)[3:]
            x[at] = 100.0
            assert x.amax().item() == 100.0 and x.max().item() == 100.0, (n, at)
            x[at] = -100.0
            assert x.amin().item() == -100.0 and x.min().item() == -100.0, (n, at)
            x[at] = float('nan')
            assert math.isnan(x.amax().item()) and math.isnan(x.amin().item()), (n, at)
        rows = torch.from_numpy(rng.standard_normal((8, n))).to(dtype)
        assert rows.amax(1).tolist() == rows.numpy().max(1).tolist(), n
        assert rows.amin(1).tolist() == rows.numpy().min(1).tolist(), n



@pytest.mark.parametrize('dtype', [torch.float32, torch.float64, torch.int64], ids=str)
def test_rows_reduced_in_batches_match_each_row_alone(dtype):
    # Short rows along a dim are reduced a batch of 4 or 8 at once (the last steps of the lanes'
    # tree run on lanes shuffled out of several rows): each row must come out bit for bit as it does
    # alone, the rows after the last whole batch too, here slices of wider rows. NaNs, in some rows
    # only, must stay in theirs.
    rng = np.random.default_rng(23)
    ops = ['sum', 'prod', 'amax', 'amin'] + (['nansum', 'mean'] if dtype != torch.int64 else [])
    for n in list(range(1, 300)) + [511, 512, 513, 2048, 2049, 3000, 4096, 9000]:
        wide = torch.from_numpy(rng.standard_normal((19, n + 5)) * 100).to(dtype)
        if dtype != torch.int64:
            wide[3, 2 + rng.integers(n)] = float('nan')
            wide[12, 2 + n - 1] = float('nan')
        x = wide[:, 2:2 + n]
        for op in ops:
            together = getattr(x, op)(1).numpy()
            alone = np.array([getattr(x[r], op)().item() for r in range(19)], dtype=together.dtype)
            numbers = ~np.isnan(together)
            assert np.array_equal(np.isnan(together), np.isnan(alone)), (op, n)
            assert together[numbers].tobytes() == alone[numbers].tobytes(), (op, n)
            if op in ('amax', 'amin') and dtype != torch.int64:
                assert np.isnan(together[3]) and np.isnan(together[12]) and not np.isnan(together[4]), (op, n)


# ---- moments -----------------------------------------------------------------------------------

@pytest.mark.parametrize('dtype', FLOATS, ids=str)
def test_var_std_closed_forms(dtype):
    n = 10
    x = torch.arange(n).to(dtype)  # variance of 0..n-1: n(n+1)/12 unbiased, (n^2-1)/12 biased
    assert x.var().item() == pytest.approx(n * (n + 1) / 12, rel=1e-2)
    assert x.var(unbiased=False).item() == pytest.approx((n * n - 1) / 12, rel=1e-2)
    assert x.std(0).item() == pytest.approx(math.sqrt(n * (n + 1) / 12), rel=1e-2)
    assert torch.var(x, 0, correction=3).item() == pytest.approx(82.5 / (n - 3), rel=1e-2)
    v, m = torch.var_mean(x.view(2, 5), 1, keepdim=True)
    assert v.shape == m.shape == (2, 1) and m.view(-1).tolist() == [2.0, 7.0] and v.view(-1).tolist() == [2.5, 2.5]
    s, m = torch.std_mean(x)
    assert m.item() == 4.5 and s.item() == pytest.approx(math.sqrt(55 / 6), rel=1e-2)


def test_var_is_stable_far_from_zero():
    x = torch.arange(1000, dtype=torch.float32) * 0.001 + 1e4  # a naive sum of squares loses it all
    assert x.var().item() == pytest.approx(1000 * 1001 / 12 * 1e-6, rel=1e-3)


def test_var_errors():
    with pytest.raises(RuntimeError, match='floating point'):
        torch.var(torch.tensor([1, 2]))
    with pytest.raises(TypeError):
        torch.std(torch.ones(3), correction=0)  # PyTorch needs dim with correction
    assert torch.var(torch.tensor([1.0, 2.0]), 0, correction=5).item() == INF


# ---- norms, logsumexp -----------------------------------------------------------------------------

def test_norms():
    x = torch.tensor([[3.0, -4.0], [0.0, 12.0]])
    assert torch.norm(x).item() == 13.0 and x.norm().item() == 13.0
    assert torch.norm(x, dim=1).tolist() == [5.0, 12.0] and torch.norm(x, 1).item() == 19.0
    assert torch.norm(x, INF).item() == 12.0 and torch.norm(x, -INF, 1).tolist() == [3.0, 0.0]
    assert torch.norm(x, 0).item() == 3.0 and torch.norm(x, 'fro', (0, 1)).item() == 13.0
    assert torch.norm(x, 3, 0).tolist() == pytest.approx([3.0, (64 + 1728) ** (1 / 3)])
    assert torch.norm(x, 2, 1, keepdim=True, dtype=torch.float64).dtype == torch.float64
    with pytest.raises(RuntimeError, match='floating point'):
        torch.norm(torch.tensor([1, 2]))
    with pytest.raises(ValueError):
        torch.norm(x, dtype=torch.float64)  # 'fro' takes no dtype
    with pytest.raises(RuntimeError, match="'fro' and 'nuc'"):
        torch.norm(x, 'abc')
    with pytest.raises(RuntimeError, match='at most 2'):
        torch.norm(torch.ones(1, 2, 2), 'fro', (0, 1, 2))


def test_logsumexp():
    assert torch.logsumexp(torch.zeros(4), 0).item() == pytest.approx(math.log(4))
    big = torch.tensor([1000.0, 1000.0])  # no overflow
    assert torch.logsumexp(big, 0).item() == pytest.approx(1000 + math.log(2))
    assert torch.logsumexp(torch.tensor([INF, -INF]), 0).item() == INF
    assert torch.logsumexp(torch.tensor([-INF, -INF]), 0).item() == -INF
    assert torch.logsumexp(torch.tensor([1, 2]), 0).dtype == torch.float32
    m = torch.log(torch.tensor([[1.0, 3.0], [2.0, 2.0]]))
    assert torch.logsumexp(m, 1, keepdim=True).view(-1).tolist() == pytest.approx([math.log(4)] * 2)


# ---- extremes, all/any, counting -------------------------------------------------------------------

@pytest.mark.parametrize('dtype', ALL, ids=str)
def test_amax_amin_aminmax_all_any(dtype):
    x = torch.tensor([[3, 0, 2], [1, 4, 0]]).to(dtype)
    hi = 1 if dtype == torch.bool else 4
    assert x.amax().item() == hi and x.amin().item() == 0
    assert torch.amax(x, 0).tolist() == torch.tensor([3, 4, 2]).to(dtype).tolist()
    assert torch.amin(x.t(), 1, keepdim=True).shape == (3, 1)
    lo_hi = torch.aminmax(x, dim=1)
    assert lo_hi.min.tolist() == torch.tensor([0, 0]).to(dtype).tolist() and lo_hi.max.dtype == dtype
    assert not x.all().item() and x.any().item() and x.all(0).tolist() == [1, 0, 0]  # uint8 stays uint8
    assert torch.count_nonzero(x).item() == 4 and torch.count_nonzero(x, 0).tolist() == [2, 1, 1]
    assert torch.count_nonzero(x, (0, 1)).item() == 4


def test_extreme_nan_and_errors():
    x = torch.tensor([1.0, NAN, 3.0])
    assert math.isnan(x.amax().item()) and math.isnan(torch.aminmax(x).min.item())
    assert torch.tensor([1, 2], dtype=torch.uint8).all().dtype == torch.uint8  # PyTorch keeps uint8
    with pytest.raises(RuntimeError, match='Expected reduction dim'):
        torch.amax(torch.zeros(0))
    with pytest.raises(IndexError, match='non-zero size'):
        torch.amax(torch.zeros(2, 0), 1)
    with pytest.raises(RuntimeError, match='no identity'):
        torch.aminmax(torch.zeros(0))
    with pytest.raises(RuntimeError, match='multiple times'):
        torch.sum(torch.ones(2, 2), (0, 0))
    with pytest.raises(IndexError):
        torch.prod(torch.ones(2), 1)


# ---- scans ----------------------------------------------------------------------------------------

def test_cumulative_closed_forms():
    x = torch.arange(1, 7)
    assert x.cumsum(0).tolist() == [k * (k + 1) // 2 for k in range(1, 7)]
    assert x.cumprod(0).tolist() == [math.factorial(k) for k in range(1, 7)]
    assert torch.arange(1, 7.).view(2, 3).cumsum(0).tolist() == [[1, 2, 3], [5, 7, 9]]
    assert torch.arange(1, 7.).view(2, 3).t().cumsum(1).tolist() == [[1, 5], [2, 7], [3, 9]]
    lce = torch.logcumsumexp(torch.zeros(5), 0).tolist()
    assert lce == pytest.approx([math.log(k) for k in range(1, 6)])
    assert torch.cumsum(torch.tensor([1, 2], dtype=torch.int8), 0).dtype == torch.int64
    assert torch.cumsum(torch.tensor([True, True]), 0).tolist() == [1, 2]
    assert torch.cumsum(torch.tensor([1, 2]), 0, dtype=torch.float64).dtype == torch.float64
    wide = torch.ones(3, 100)  # the column-tile plan
    assert wide.cumsum(0)[:, 50].tolist() == [1.0, 2.0, 3.0]


def test_cummax_cummin_take_the_last_tie_and_propagate_nan():
    v, i = torch.cummax(torch.tensor([1.0, 3.0, 3.0, 2.0, NAN, 5.0]), 0)
    assert same(v.tolist(), [1.0, 3.0, 3.0, 3.0, NAN, NAN]) and i.tolist() == [0, 1, 2, 2, 4, 4]
    v, i = torch.cummin(torch.tensor([[2, 1, 1, 3]]), 1)
    assert v.tolist() == [[2, 1, 1, 1]] and i.tolist() == [[0, 1, 2, 2]]


def test_cumsum_in_place_and_out():
    x = torch.tensor([100, 100], dtype=torch.int8)
    assert x.cumsum_(0) is x and x.tolist() == [100, -56]  # in place keeps int8
    out = torch.empty(0)
    assert torch.cumsum(torch.tensor([1, 2]), 0, out=out) is out and out.tolist() == [1.0, 3.0]
    with pytest.raises(RuntimeError, match='Bad in-place call'):
        torch.tensor([1, 2]).cumsum_(0, dtype=torch.float32)
    with pytest.raises(RuntimeError):
        torch.cummax(torch.tensor([1, 2]), 0, out=(torch.empty(0), torch.empty(0, dtype=torch.long)))


# ---- sorting and selection --------------------------------------------------------------------------

@pytest.mark.parametrize('dtype', ALL, ids=str)
def test_sort_permutation(dtype):
    x = torch.tensor([4, 0, 3, 1, 2]).to(dtype) if dtype != torch.bool else torch.tensor([True, False, True])
    v, i = torch.sort(x)
    assert v.tolist() == sorted(x.tolist()) and [x.tolist()[k] for k in i.tolist()] == v.tolist()
    v, i = torch.sort(x, descending=True, stable=True)
    assert v.tolist() == sorted(x.tolist(), reverse=True)
    if dtype != torch.bool:  # distinct values: ascending is descending reversed
        assert torch.argsort(x).tolist() == i.tolist()[::-1]


def test_sort_ties_nan_and_dims():
    x = torch.tensor([2, 1, 2, 1, 2, 1, 2, 1] * 40)
    v, i = torch.sort(x, stable=True)
    assert i[:160].tolist() == list(range(1, 320, 2)) and v[160:].eq(2).all().item()
    v, i = torch.sort(torch.tensor([1.0, NAN, 0.0, -1.0]))
    assert same(v.tolist(), [-1.0, 0.0, 1.0, NAN]) and i.tolist() == [3, 2, 0, 1]
    v, _ = torch.sort(torch.tensor([1.0, NAN, 0.0]), descending=True)
    assert same(v.tolist(), [NAN, 1.0, 0.0])
    m = torch.tensor([[3, 1], [2, 5], [1, 4]])
    assert torch.sort(m, 0).values.tolist() == [[1, 1], [2, 4], [3, 5]]
    assert torch.msort(m).tolist() == [[1, 1], [2, 4], [3, 5]]
    assert torch.sort(m.t(), 1, descending=True).indices.tolist() == [[0, 1, 2], [1, 2, 0]]
    big = torch.arange(5000) * 7919 % 5000  # a permutation: no ties, the merge sort path
    assert torch.sort(big).values.tolist() == list(range(5000))


def test_unstable_sort_of_long_tied_lines_orders_ties_as_the_reference():
    # Long lines whose sampled keys tie skip the radix pass and go straight to the std::sort replica.
    # The fingerprints (first indices and two checksums of the index order) are PyTorch 1.13.1's.
    want = {(70_000, False): ([1472, 35778, 47423, 24038, 46414, 38894], 35003184362, 104220337540),
            (70_000, True): ([41861, 62225, 58646, 42045, 63602, 53696], 35041452881, 104457854540),
            (100_000, False): ([70012, 30026, 30027, 30028, 30029, 30030], 50038880327, 149126923156),
            (100_000, True): ([29983, 69989, 69988, 69987, 69986, 69985], 49927747392, 149409623356)}
    for (n, desc), (first, c1, c2) in want.items():
        x = (torch.arange(n) * 7919 % 1009 % (100 if n == 70_000 else 3)).float()
        v, i = torch.sort(x, descending=desc)
        assert i[:6].tolist() == first, (n, desc)
        assert int((i * torch.arange(n)).remainder(1_000_003).sum()) == c1, (n, desc)
        assert int((i * i).remainder(999_983).mul(torch.arange(n) % 7).sum()) == c2, (n, desc)
        assert torch.equal(x[i], v) and torch.equal(v, x.sort(stable=True, descending=desc).values)


@pytest.mark.parametrize('dtype', [np.uint8, np.int8, np.int16, np.int32, np.int64], ids=lambda d: d.__name__)
def test_sorted_unique_of_integers_counted_over_their_span_matches_numpy(dtype):
    # spans up to max(n, 64K) values are counted in an array; wider ones go through the hash set
    rng = np.random.default_rng(11)
    info = np.iinfo(dtype)
    cases = [rng.integers(0, 100, 10_000), rng.integers(info.min, info.max, 3_000, endpoint=True),
             np.array([info.max, info.min, info.max, 0]), np.array([7])]
    if dtype == np.int64:
        cases += [rng.integers(-70_000, 70_000, 500), np.array([-2 ** 63, 2 ** 63 - 1, 5, -2 ** 63])]
    for a in cases:
        a = a.astype(dtype)
        values, inverse, counts = np.unique(a, return_inverse=True, return_counts=True)
        t = torch.from_numpy(a)
        assert np.array_equal(torch.unique(t).numpy(), values)
        v, i, c = torch.unique(t, return_inverse=True, return_counts=True)
        assert np.array_equal(v.numpy(), values) and v.dtype == t.dtype
        assert np.array_equal(i.numpy(), inverse) and np.array_equal(c.numpy(), counts)
        v, i = torch.unique(t.view(1, -1), return_inverse=True)
        assert np.array_equal(i.numpy(), inverse.reshape(1, -1))
        v, c = torch.unique(t, return_counts=True)
        assert np.array_equal(c.numpy(), counts)
    assert torch.unique(torch.tensor([], dtype=torch.int64)).shape == (0,)


def test_topk_kthvalue_median_mode():
    x = torch.tensor([5.0, 1.0, 4.0, 2.0, 3.0])
    v, i = torch.topk(x, 2)
    assert v.tolist() == [5.0, 4.0] and i.tolist() == [0, 2]
    assert torch.topk(x, 2, largest=False).indices.tolist() == [1, 3]
    assert torch.kthvalue(x, 2).values.item() == 2.0 and torch.kthvalue(x, 2).indices.item() == 3
    assert torch.median(x).item() == 3.0 and torch.median(x, 0).indices.item() == 4
    assert torch.median(torch.tensor([4.0, 1.0, 3.0, 2.0])).item() == 2.0  # the lower of the two middles
    assert torch.nanmedian(torch.tensor([NAN, 1.0, 3.0])).item() == 1.0
    assert math.isnan(torch.median(torch.tensor([NAN, 1.0, 3.0])).item())
    assert torch.median(torch.tensor([NAN, 1.0, NAN]), 0).indices.item() == 0  # the first NaN
    v, i = torch.mode(torch.tensor([[1, 2, 2, 3, 3, 3], [7, 7, 1, 1, 0, 0]]))
    assert v.tolist() == [3, 0] and i.tolist() == [5, 5]
    assert torch.median(torch.tensor([], dtype=torch.float32)).item() != torch.median(torch.tensor([0.0])).item()
    with pytest.raises(RuntimeError, match='selected index k out of range'):
        torch.topk(x, 6)
    with pytest.raises(RuntimeError, match='out of range'):
        torch.kthvalue(x, 0)
    with pytest.raises(IndexError):
        torch.median(torch.zeros(2, 0), 1)


def test_quantile():
    x = torch.tensor([1.0, 2.0, 3.0, 4.0])
    assert torch.quantile(x, 0.5).item() == 2.5
    q = torch.tensor([0.25, 0.5])
    assert torch.quantile(x, q, interpolation='lower').tolist() == [1.0, 2.0]
    assert torch.quantile(x, q, interpolation='higher').tolist() == [2.0, 3.0]
    assert torch.quantile(x, q, interpolation='nearest').tolist() == [2.0, 3.0]  # ranks 0.75 -> 1, 1.5 -> 2 (even)
    assert torch.quantile(x, q, interpolation='midpoint').tolist() == [1.5, 2.5]
    m = torch.tensor([[1.0, NAN, 3.0], [4.0, 5.0, 6.0]])
    assert same(torch.quantile(m, 0.5, 1).tolist(), [NAN, 5.0])
    assert torch.nanquantile(m, 0.5, 1).tolist() == [2.0, 5.0]
    assert torch.quantile(m, q, 1, keepdim=True).shape == (2, 2, 1)
    with pytest.raises(RuntimeError, match='range'):
        torch.quantile(x, 1.5)
    with pytest.raises(RuntimeError, match='float or double'):
        torch.quantile(torch.tensor([1, 2]), 0.5)


# ---- unique, searching, binning ----------------------------------------------------------------

def test_unique():
    x = torch.tensor([3, 1, 2, 1, 3, 3])
    assert torch.unique(x).tolist() == [1, 2, 3]
    out, inv, cnt = torch.unique(x, return_inverse=True, return_counts=True)
    assert inv.tolist() == [2, 0, 1, 0, 2, 2] and cnt.tolist() == [2, 1, 3]
    assert [out.tolist()[k] for k in inv.tolist()] == x.tolist()
    assert sorted(torch.unique(x, sorted=False).tolist()) == [1, 2, 3]
    assert x.unique(return_counts=True)[1].tolist() == [2, 1, 3]
    rows = torch.tensor([[1, 2], [0, 5], [1, 2]])
    u, inv, cnt = torch.unique(rows, dim=0, return_inverse=True, return_counts=True)
    assert u.tolist() == [[0, 5], [1, 2]] and inv.tolist() == [1, 0, 1] and cnt.tolist() == [1, 2]
    assert torch.unique_consecutive(torch.tensor([1, 1, 2, 1])).tolist() == [1, 2, 1]
    assert torch.unique_consecutive(torch.tensor([1, 1, 2]), return_inverse=True)[1].tolist() == [0, 0, 1]
    assert torch.unique(torch.tensor([True, False, True])).tolist() == [False, True]
    u = torch.unique(torch.tensor([1.0, NAN, NAN]))
    assert len(u) == 3  # NaN never equals NaN
    with pytest.raises(RuntimeError, match='0 sized'):
        torch.unique(torch.zeros(0, 3), dim=1)


def test_searchsorted_bucketize():
    b = torch.tensor([1, 3, 5, 7])
    assert torch.searchsorted(b, torch.tensor([0, 3, 6, 8])).tolist() == [0, 1, 3, 4]
    assert torch.searchsorted(b, torch.tensor([3]), right=True).tolist() == [2]
    assert torch.searchsorted(b, torch.tensor([3]), side='right', out_int32=True).dtype == torch.int32
    assert torch.searchsorted(b, 4).item() == 2 and torch.bucketize(4, b).item() == 2
    assert torch.bucketize(torch.tensor([[1, 8]]), b, right=True).tolist() == [[1, 4]]
    rows = torch.tensor([[1, 3, 5], [2, 4, 6]])
    assert torch.searchsorted(rows, torch.tensor([[3, 4], [1, 7]])).tolist() == [[1, 2], [0, 3]]
    unsorted = torch.tensor([5, 1, 3])
    assert torch.searchsorted(unsorted, torch.tensor([3, 4]), sorter=torch.argsort(unsorted)).tolist() == [1, 2]
    with pytest.raises(RuntimeError, match='opposites'):
        torch.searchsorted(b, torch.tensor([1]), side='left', right=True)
    with pytest.raises(RuntimeError, match='1 dimension'):
        torch.bucketize(torch.tensor([1]), rows)
    with pytest.raises(RuntimeError, match='out of range'):
        torch.searchsorted(unsorted, torch.tensor([3]), sorter=torch.tensor([0, 1, 7]))


def test_histc_bincount():
    assert torch.histc(torch.tensor([1.0, 2.0, 1.0]), bins=4, min=0, max=3).tolist() == [0.0, 2.0, 1.0, 0.0]
    assert torch.histc(torch.tensor([1.0, 2.0, 1.0, 5.0, -1.0]), bins=3, min=0, max=3).tolist() == [0.0, 2.0, 1.0]
    assert torch.histc(torch.tensor([2.0, 2.0]), bins=4).tolist() == [0.0, 0.0, 2.0, 0.0]  # range [1, 3]
    assert torch.histc(torch.tensor([0.0, 1.0]), bins=2).tolist() == [1.0, 1.0]  # the last bin holds its edge
    assert torch.bincount(torch.tensor([1, 4, 1])).tolist() == [0, 2, 0, 0, 1]
    assert torch.bincount(torch.tensor([1]), minlength=3).tolist() == [0, 1, 0]
    w = torch.bincount(torch.tensor([0, 0, 2]), torch.tensor([0.5, 0.25, 2.0]))
    assert w.tolist() == [0.75, 0.0, 2.0] and w.dtype == torch.float32
    assert torch.bincount(torch.tensor([0]), torch.tensor([1])).dtype == torch.float64
    assert torch.bincount(torch.tensor([], dtype=torch.long)).tolist() == []
    with pytest.raises(RuntimeError, match='non-negative'):
        torch.bincount(torch.tensor([-1]))
    with pytest.raises(RuntimeError, match='bins must be > 0'):
        torch.histc(torch.ones(2), bins=0)


@pytest.mark.parametrize('threads', [1, 2])
def test_searchsorted_and_bincount_split_across_threads_match_numpy(threads):
    rng = np.random.default_rng(7)
    torch.set_num_threads(threads)
    seq = np.sort(rng.random(5000)).astype(np.float32)
    vals = rng.random((3, 70_000)).astype(np.float32)
    vals[0, :100] = seq[:100]  # ties: the left and right bounds differ
    got = torch.searchsorted(torch.from_numpy(seq), torch.from_numpy(vals).t().contiguous().t())  # strided
    assert np.array_equal(got.numpy(), np.searchsorted(seq, vals))
    rows = np.sort(rng.integers(0, 1000, (3, 4000)), axis=1)
    q = rng.integers(-5, 1005, (3, 50_000))
    got = torch.searchsorted(torch.from_numpy(rows), torch.from_numpy(q), right=True, out_int32=True)
    assert got.dtype == torch.int32
    assert np.array_equal(got.numpy(), np.stack([np.searchsorted(rows[r], q[r], side='right') for r in range(3)]))
    unsorted = torch.from_numpy(rng.permutation(1000).astype(np.float32))  # undefined, but as PyTorch probes it:
    many = torch.from_numpy(rng.integers(0, 1000, 37).astype(np.float32))  # searched together or one at a time
    assert torch.searchsorted(unsorted, many).tolist() == [torch.searchsorted(unsorted, v).item() for v in many]
    labels = rng.integers(0, 10, 300_001)  # a few classes: long runs into the same bin
    assert np.array_equal(torch.bincount(torch.from_numpy(labels)).numpy(), np.bincount(labels))
    assert np.array_equal(torch.bincount(torch.from_numpy(labels), minlength=20).numpy(),
                          np.bincount(labels, minlength=20))
    labels[123_456] = 5000  # one value beyond the first guess at the width: counted again, exactly
    assert np.array_equal(torch.bincount(torch.from_numpy(labels)).numpy(), np.bincount(labels))
    wide = rng.integers(0, 200_000, 100_003).astype(np.int32)
    assert np.array_equal(torch.bincount(torch.from_numpy(wide)[::1], minlength=300_000).numpy(),
                          np.bincount(wide, minlength=300_000))
    strided = torch.from_numpy(labels)[::3]
    assert np.array_equal(strided.bincount().numpy(), np.bincount(labels[::3]))
    bad = torch.from_numpy(labels.copy())
    bad[200_000] = -1
    with pytest.raises(RuntimeError, match='non-negative'):
        torch.bincount(bad)


@pytest.mark.parametrize('dtype', [torch.float32, torch.float64, torch.float16, torch.int32, torch.uint8, torch.bool], ids=str)
def test_aminmax_of_long_rows_agrees_with_amin_and_amax(dtype):
    x = (torch.arange(10_007, dtype=torch.float64) * 7919 % 1013 - 500).to(dtype)
    rows = x[:10_000].view(4, 2500)
    for t, kw in ((x, {}), (rows, {'dim': 1}), (rows, {'dim': -1, 'keepdim': True})):
        lo, hi = torch.aminmax(t, **kw)
        want_lo = t.amin(**kw) if kw else t.amin()
        want_hi = t.amax(**kw) if kw else t.amax()
        assert torch.equal(lo, want_lo) and torch.equal(hi, want_hi)
    if dtype.is_floating_point:
        for at in (0, 37, 5000, 10_006):  # NaN wins wherever it is: in the lanes or in the tail
            y = x.clone()
            y[at] = float('nan')
            lo, hi = torch.aminmax(y)
            assert math.isnan(lo.item()) and math.isnan(hi.item())


@pytest.mark.parametrize('dtype', [torch.float32, torch.float64, torch.int64], ids=str)
def test_aminmax_of_rows_read_as_two_streams_finds_the_extremes_anywhere(dtype):
    # spans of 32K elements and more are read as pairs of chunks in lockstep, then a tail
    for n in (32_768, 100_003):
        base = (torch.arange(n, dtype=torch.float64) * 7919 % 1013 - 500).to(dtype)
        for at in (0, 16_383, 16_384, 32_767 if n == 32_768 else 40_000, n - 1):
            x = base.clone()
            x[at], x[(at + 1) % n] = -10_000, 10_000
            lo, hi = torch.aminmax(x)
            assert (lo.item(), hi.item()) == (-10_000, 10_000), (n, at)
            if dtype.is_floating_point:
                x[at] = float('nan')
                assert all(math.isnan(t.item()) for t in torch.aminmax(x)), (n, at)


@pytest.mark.parametrize('dtype', [torch.float32, torch.float64], ids=str)
def test_logsumexp_of_contiguous_rows_in_vectors(dtype):
    # contiguous rows exponentiate in vectors, chunk by chunk, a tail padded with -inf
    rng = np.random.default_rng(5)
    for n in (1, 7, 8, 255, 256, 257, 4099):
        a = rng.standard_normal((3, n)) * 20
        a[2, ::3] = -np.inf
        got = torch.from_numpy(a.astype(np.float64)).to(dtype).logsumexp(1).double().numpy()
        a32 = a.astype(np.float32).astype(np.float64) if dtype == torch.float32 else a
        m = a32.max(1, keepdims=True)
        m[~np.isfinite(m)] = 0  # an all -inf row: -inf
        with np.errstate(divide='ignore'):
                want = (np.log(np.exp(a32 - m).sum(1, keepdims=True)) + m)[:, 0]
        assert np.allclose(got, want, rtol=1e-6 if dtype == torch.float32 else 1e-13), n
    x = torch.zeros(2, 300, dtype=dtype)
    x[0, 299] = INF
    x[1, 0] = float('nan')
    got = x.logsumexp(1)
    assert got[0].item() == INF and math.isnan(got[1].item())
    assert torch.full((2, 300), -INF, dtype=dtype).logsumexp(1).tolist() == [-INF, -INF]


@pytest.mark.parametrize('dtype', [torch.float32, torch.float64], ids=str)
def test_logsumexp_over_leading_dims_in_vectors(dtype):
    # rows added into a kept contiguous dim's columns, chunks of 256 columns, tails padded
    rng = np.random.default_rng(6)
    for shape, dim in (((5, 300), 0), ((17, 7), 0), ((9, 3, 260), 1), ((4, 5, 6), (0, 1)), ((1, 513), 0)):
        a = rng.standard_normal(shape) * 20
        a.reshape(-1)[::11] = -np.inf
        got = torch.from_numpy(a).to(dtype).logsumexp(dim).double().numpy()
        a = torch.from_numpy(a).to(dtype).double().numpy()
        m = np.max(a, axis=dim, keepdims=True)
        m[~np.isfinite(m)] = 0
        with np.errstate(divide='ignore'):
            want = np.squeeze(np.log(np.exp(a - m).sum(axis=dim, keepdims=True)) + m, axis=dim)
        tol = {'rtol': 1e-6, 'atol': 1e-5} if dtype == torch.float32 else {'rtol': 1e-13, 'atol': 1e-12}
        assert np.allclose(got, want, **tol), shape
    x = torch.zeros(3, 300, dtype=dtype)
    x[1, 299], x[0, 7], x[:, 8] = INF, float('nan'), -INF
    got = x.logsumexp(0)
    assert got[299].item() == INF and math.isnan(got[7].item()) and got[8].item() == -INF
    assert got[0].item() == pytest.approx(math.log(3))


@pytest.mark.parametrize('dtype', [torch.float32, torch.float64], ids=str)
def test_two_norm_of_long_rows_in_double_vectors(dtype):
    # float32 squares in double: sums of squares of small integers are exact, tails included
    for n in (1, 63, 1000, 40_000, 100_003):
        x = (torch.arange(n, dtype=torch.float64) % 7 - 3).to(dtype)
        want = math.sqrt(float(((np.arange(n) % 7 - 3) ** 2).sum()))
        assert x.norm().item() == pytest.approx(want, rel=1e-7), n
        assert x.view(1, n).norm(dim=1).item() == pytest.approx(want, rel=1e-7), n
    x = torch.ones(50_000, dtype=dtype)
    x[49_999] = float('nan')
    assert math.isnan(x.norm().item())
    assert torch.tensor([3e30, 4e30]).norm().item() == pytest.approx(5e30)  # no float32 overflow in squares


# ---- devices, variants, threads --------------------------------------------------------------------

def test_meta_device_shapes_and_data_dependent_ops():
    m = torch.empty(3, 4, device='meta')
    assert m.sum(0).shape == (4,) and m.var(1, keepdim=True).shape == (3, 1)
    assert torch.sort(m, 0).indices.shape == (3, 4) and m.cumsum(1).shape == (3, 4)
    assert torch.topk(m, 2).values.shape == (3, 2) and torch.quantile(m, 0.5, 1).shape == (3,)
    assert m.sum(0).device.type == 'meta' and torch.logsumexp(m, 1).shape == (3,)
    with pytest.raises(NotImplementedError, match="depend on the data"):
        torch.unique(m)
    with pytest.raises(NotImplementedError):
        torch.bincount(torch.empty(3, dtype=torch.long, device='meta'))


def test_out_variants_write_the_given_tensor():
    x = torch.arange(6.0).view(2, 3)
    out = torch.empty(0)
    assert torch.sum(x, 1, out=out) is out and out.tolist() == [3.0, 12.0]
    assert torch.prod(x, 0, out=out) is out and out.tolist() == [0.0, 4.0, 10.0]
    vals, idx = torch.empty(0), torch.empty(0, dtype=torch.long)
    r = torch.sort(x, 1, True, out=(vals, idx))
    assert r.values is vals and idx.tolist() == [[2, 1, 0], [2, 1, 0]]
    lo, hi = torch.empty(0), torch.empty(0)
    torch.aminmax(x, dim=0, out=(lo, hi))
    assert lo.tolist() == [0.0, 1.0, 2.0] and hi.tolist() == [3.0, 4.0, 5.0]
    assert torch.std(x, 1, out=out) is out


def test_parallel_paths_agree_with_one_thread():
    x = torch.arange(300_000, dtype=torch.float64).view(3, 100_000) % 17
    results = []
    for n in (1, 2):
        torch.set_num_threads(n)
        results.append([x.sum(1).tolist(), x.var(1).tolist(), torch.sort(x, 1).values[:, ::9999].tolist(),
                        x.amax(0)[:50].tolist(), x.sum().item(), x.cumsum(1)[:, -1].tolist()])
    assert results[0][:4] == results[1][:4] and results[0][5] == results[1][5]
    assert results[0][4] == pytest.approx(results[1][4], rel=1e-12)


def test_selections_of_a_0_dim_tensor_return_it():
    # issue #32: topk(0-dim, 0) returned uninitialised memory; PyTorch returns the element for k 0 and 1
    s = torch.tensor(1.8)
    for k in (0, 1):
        for dim in (0, -1):
            v, i = torch.topk(s, k, dim)
            assert v.shape == () and i.shape == () and v.item() == s.item() and i.item() == 0
    for v, i in (torch.kthvalue(s, 1, 0), torch.sort(s, 0), torch.median(s, 0), torch.mode(s, 0), torch.max(s, 0),
                 torch.cummax(s, 0)):
        assert v.item() == s.item() and i.item() == 0
    assert torch.topk(torch.tensor([3., 1.]), 0)[0].shape == (0,)
