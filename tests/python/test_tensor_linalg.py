"""Matrix products: mm, matmul and @ for every dtype and operand layout, and the BLAS providers behind
float32/float64 (torch.backends.blas.use('blis' / 'openblas') must give the same products) and thread
counts. Operands hold small integers, so every product is exact in every dtype and provider."""
import pytest

import torch

DTYPES = [torch.float32, torch.float64, torch.bfloat16, torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8]


def py_mm(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(len(b))) for j in range(len(b[0]))] for i in range(len(a))]


def rows(n, m, mod=7, shift=3, start=0):
    return [[((start + i * m + j) % mod) - shift for j in range(m)] for i in range(n)]


@pytest.fixture
def provider_and_threads():
    """Restores the BLAS provider and thread count a test changes."""
    provider, threads = torch.backends.blas.current(), torch.get_num_threads()
    yield
    if provider is not None:
        torch.backends.blas.use(provider)
    torch.set_num_threads(threads)


@pytest.mark.parametrize('dtype', DTYPES, ids=str)
def test_mm_every_dtype(dtype):
    shift = 0 if dtype == torch.uint8 else 3
    a, b = rows(3, 4, shift=shift), rows(4, 5, shift=shift, start=2)
    ta, tb = torch.tensor(a).to(dtype), torch.tensor(b).to(dtype)
    want = py_mm(a, b)
    if dtype == torch.uint8:
        want = [[v % 256 for v in r] for r in want]
    for r in (ta @ tb, torch.mm(ta, tb), torch.matmul(ta, tb), ta.mm(tb), ta.matmul(tb)):
        assert r.dtype == dtype and r.shape == (3, 5)
        assert r.tolist() == [[float(v) if dtype.is_floating_point else v for v in row] for row in want]


def test_mm_refuses_bool_as_pytorch_cpu_does():
    a = torch.ones(2, 2, dtype=torch.bool)
    with pytest.raises(RuntimeError, match='"addmm_impl_cpu_" not implemented for \'Bool\''):
        a @ a
    with pytest.raises(RuntimeError, match='"bmm" not implemented'):
        torch.bmm(a[None], a[None])


def test_mm_computes_float16():
    # PyTorch 1.13's CPU build refuses float16 products; here they are computed in float32 and rounded
    a = torch.arange(6).view(2, 3).to(torch.float16)
    b = torch.arange(12).view(3, 4).to(torch.float16)
    assert (a @ b).dtype == torch.float16
    assert (a @ b).tolist() == [[20.0, 23.0, 26.0, 29.0], [56.0, 68.0, 80.0, 92.0]]
    assert torch.bmm(a[None], b[None])[0].tolist() == (a @ b).tolist()


@pytest.mark.parametrize('dtype', [torch.float32, torch.float64, torch.int64], ids=str)
def test_mm_operand_layouts(dtype):
    a, b = rows(6, 5), rows(5, 4, start=1)
    want = py_mm(a, b)
    ta, tb = torch.tensor(a).to(dtype), torch.tensor(b).to(dtype)
    for x in (ta, ta.t().contiguous().t()):
        for y in (tb, tb.t().contiguous().t()):
            assert (x @ y).tolist() == [[float(v) if dtype.is_floating_point else v for v in r] for r in want]
    # strided slices: every other row and column of a bigger matrix
    big_a = torch.zeros(12, 10, dtype=dtype)
    big_a[::2, ::2] = ta
    big_b = torch.zeros(10, 8, dtype=dtype)
    big_b[1::2, ::2] = tb
    r = big_a[::2, ::2] @ big_b[1::2, ::2]
    assert r.tolist() == [[float(v) if dtype.is_floating_point else v for v in row] for row in want]


def test_matmul_shapes():
    a = torch.arange(6.).view(2, 3)
    v = torch.arange(3.)
    assert (a @ v).tolist() == [5.0, 14.0] and (a @ v).shape == (2,)
    assert (torch.arange(2.) @ a).tolist() == [3.0, 4.0, 5.0]
    assert (v @ v).shape == () and (v @ v).item() == 5.0
    b = torch.arange(24.).view(2, 3, 4)
    m = torch.arange(8.).view(4, 2)
    r = b @ m
    assert r.shape == (2, 3, 2)
    assert r.tolist() == [py_mm(b[i].tolist(), m.tolist()) for i in range(2)]
    assert (b @ torch.arange(4.)).shape == (2, 3)
    assert (torch.arange(3.) @ b).shape == (2, 4)
    assert (torch.ones(3, 1, 2, 3) @ torch.ones(4, 3, 5)).shape == (3, 4, 2, 5)
    r = torch.arange(12.).view(3, 4) @ torch.arange(24.).view(2, 4, 3)
    assert r.tolist() == [py_mm(torch.arange(12.).view(3, 4).tolist(), torch.arange(24.).view(2, 4, 3)[i].tolist())
                          for i in range(2)]
    x = torch.ones(2, 2)
    x @= torch.full((2, 2), 2.0)
    assert x.tolist() == [[4.0, 4.0], [4.0, 4.0]]


def test_matmul_empty_dims():
    assert (torch.ones(2, 0) @ torch.ones(0, 3)).tolist() == [[0.0] * 3] * 2
    assert (torch.ones(0, 2) @ torch.ones(2, 3)).shape == (0, 3)
    assert (torch.ones(2, 3) @ torch.ones(3, 0)).shape == (2, 0)
    assert (torch.ones(0) @ torch.ones(0)).item() == 0.0


@pytest.mark.parametrize('dtype', [torch.float32, torch.float64], ids=str)
def test_blas_providers_agree(dtype, provider_and_threads):
    available = torch.backends.blas.available()
    assert 'blis' in available and 'openblas' in available
    a = torch.tensor(rows(67, 45, mod=11, shift=5)).to(dtype)
    b = torch.tensor(rows(45, 33, mod=13, shift=6, start=4)).to(dtype)
    want = [[float(v) for v in r] for r in py_mm(a.tolist(), b.tolist())]
    results = {}
    for name in ('blis', 'openblas'):
        torch.backends.blas.use(name)
        assert torch.backends.blas.current() == name
        assert isinstance(torch.backends.blas.describe(), str) and torch.backends.blas.describe()
        for threads in (1, 2):
            torch.set_num_threads(threads)
            assert torch.get_num_threads() == threads
            got = [(a @ b).tolist(), (a.t().contiguous().t() @ b).tolist(), (a @ b.t().contiguous().t()).tolist(),
                   (a[::2, 1::2] @ b[1::2, ::3]).tolist(), (a.view(1, 67, 45).expand(2, 67, 45) @ b)[1].tolist()]
            results[(name, threads)] = got
            assert got[0] == got[1] == got[2] == got[4] == want
            assert got[3] == [[float(v) for v in r] for r in py_mm(a[::2, 1::2].tolist(), b[1::2, ::3].tolist())]
    assert results[('blis', 1)] == results[('openblas', 1)] == results[('blis', 2)] == results[('openblas', 2)]


@pytest.mark.parametrize('batch', [2, 3, 8])
def test_bmm_of_large_products_side_by_side_or_split(batch, provider_and_threads):
    # 130^3 products are big enough for the provider to split: a batch that shares out evenly runs
    # whole products per thread, one that does not splits each product; integer-valued floats are exact
    a = torch.tensor(rows(batch * 130, 130, mod=11, shift=5)).view(batch, 130, 130)
    b = torch.tensor(rows(batch * 130, 130, mod=13, shift=6, start=4)).view(batch, 130, 130)
    results = []
    for threads in (1, 2):
        torch.set_num_threads(threads)
        results.append(torch.bmm(a, b))
        assert torch.equal(torch.baddbmm(a, a, b, beta=2, alpha=3), 2 * a + 3 * results[-1])
    assert torch.equal(results[0], results[1])
    for i in (0, batch - 1):
        assert results[1][i].tolist() == [[float(v) for v in r] for r in py_mm(a[i].tolist(), b[i].tolist())]


def test_blas_non_integer_products_agree_closely(provider_and_threads):
    a = torch.linspace(-1, 1, 40 * 30).view(40, 30)
    b = torch.linspace(0, 2, 30 * 20).view(30, 20).t().contiguous().t()
    torch.backends.blas.use('blis')
    r1 = (a @ b).tolist()
    torch.backends.blas.use('openblas')
    r2 = (a @ b).tolist()
    want = py_mm(a.tolist(), b.tolist())
    for x, y, w in zip(sum(r1, []), sum(r2, []), sum(want, [])):
        assert abs(x - w) <= 1e-5 * max(1.0, abs(w)) and abs(y - w) <= 1e-5 * max(1.0, abs(w))


def test_set_num_threads_round_trip(provider_and_threads):
    for n in (1, 2, 3):
        torch.set_num_threads(n)
        assert torch.get_num_threads() == n
        assert (torch.ones(8, 8) @ torch.ones(8, 8)).tolist() == [[8.0] * 8] * 8


def test_einsum_takes_operands_spread_listed_or_as_sublists():
    x = torch.arange(12.).view(3, 4)
    y = torch.arange(20.).view(4, 5)
    product = x @ y
    assert torch.equal(torch.einsum('ij,jk->ik', x, y), product)       # PyTorch's usual form
    assert torch.equal(torch.einsum('ij,jk->ik', [x, y]), product)
    assert torch.equal(torch.einsum('ij,jk->ik', (x, y)), product)
    assert torch.equal(torch.einsum('ij->ji', x), x.t())
    assert torch.einsum('ii', torch.eye(3) * 2).item() == 6
    assert torch.equal(torch.einsum(x, [0, 1], y, [1, 2], [0, 2]), product)   # sublists, with output
    assert torch.equal(torch.einsum(x, [0, 1], y, [1, 2]), product)
    assert torch.equal(torch.einsum(x, [Ellipsis, 0], [Ellipsis]), x.sum(1))
    with pytest.raises(ValueError, match=r'not within the valid range \[0, 52\)'):
        torch.einsum(x, [52])
    with pytest.raises(RuntimeError, match='fewer operands were provided'):
        torch.einsum('ij,jk->ik', x)
