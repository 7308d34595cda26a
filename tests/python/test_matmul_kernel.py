"""float32 and float64 products across the shapes and layouts that decide how they are computed: on
AVX-512 machines the CPU plugin's own kernel (tiles of 6 rows x 4 vectors, k in blocks of 256) takes
them up to 1024^3 multiply-adds (float64: 2^29), with edge tiles, a transposed b packed first,
alpha/beta (beta 0 never reads the bias), and rows split over the pool; elsewhere, and beyond, the
BLAS provider. numpy in float64 is the oracle."""
import itertools

import numpy as np
import pytest

import torch

SHAPES = [(1, 1, 17), (1, 64, 64), (64, 1, 64), (5, 7, 3), (16, 16, 16), (17, 33, 65), (32, 10, 128),
          (6, 64, 300), (7, 65, 257), (250, 3, 40), (64, 64, 1), (97, 130, 513), (13, 200, 31)]


@pytest.fixture(params=[1, 2], ids=['1thread', '2threads'])
def threads(request):
    before = torch.get_num_threads()
    torch.set_num_threads(request.param)
    yield request.param
    torch.set_num_threads(before)


def operand(rng, rows, cols, transposed, dtype=np.float32):
    x = rng.standard_normal((cols, rows) if transposed else (rows, cols)).astype(dtype)
    t = torch.from_numpy(x)
    return t.t() if transposed else t


def close(got, want):
    got = got.double().numpy()
    return np.abs(got - want).max() <= 1e-5 * max(1.0, np.abs(want).max())


@pytest.mark.parametrize('dtype', [np.float32, np.float64], ids=['float32', 'float64'])
@pytest.mark.parametrize('m,n,k', SHAPES)
def test_products_in_every_layout(threads, m, n, k, dtype):
    rng = np.random.default_rng(m * 1000 + n * 10 + k)
    tdtype = torch.from_numpy(np.zeros(1, dtype)).dtype
    for ta, tb in itertools.product([False, True], repeat=2):
        a, b = operand(rng, m, k, ta, dtype), operand(rng, k, n, tb, dtype)
        want = a.double().numpy() @ b.double().numpy()
        assert close(a @ b, want), (ta, tb)
        bias = torch.from_numpy(rng.standard_normal((m, n)).astype(dtype))
        assert close(torch.addmm(bias, a, b, beta=0.5, alpha=-2.0), 0.5 * bias.double().numpy() - 2.0 * want)
        nan_bias = torch.full((m, n), float('nan'), dtype=tdtype)
        assert not torch.addmm(nan_bias, a, b, beta=0.0).isnan().any()   # beta 0: the bias is not read
        out = torch.empty(n, m, dtype=tdtype).t()                        # c written down its columns
        torch.mm(a, b, out=out)
        assert close(out, want)
        wide = torch.zeros(m, n + 5, dtype=tdtype)[:, 2:n + 2]           # c rows further apart than n
        torch.mm(a, b, out=wide)
        assert close(wide, want)


def test_batches_and_large_products(threads):
    rng = np.random.default_rng(5)
    x = torch.from_numpy(rng.standard_normal((12, 100, 70)).astype(np.float32))
    y = torch.from_numpy(rng.standard_normal((12, 70, 90)).astype(np.float32))
    assert close(torch.bmm(x, y), x.double().numpy() @ y.double().numpy())
    assert close(torch.baddbmm(torch.ones(12, 100, 90), x, y, alpha=3.0, beta=-1.0),
                 3.0 * (x.double().numpy() @ y.double().numpy()) - 1.0)
    # past one block of k and several panels of columns, rows split unevenly between threads
    a = torch.from_numpy(rng.standard_normal((301, 700)).astype(np.float32))
    b = torch.from_numpy(rng.standard_normal((700, 333)).astype(np.float32))
    assert close(a @ b, a.double().numpy() @ b.double().numpy())
    # exact integer-valued products: every element must be the exact sum
    for dtype in (np.float32, np.float64):
        ai = torch.from_numpy(rng.integers(-8, 8, (130, 257)).astype(dtype))
        bi = torch.from_numpy(rng.integers(-8, 8, (257, 71)).astype(dtype))
        assert torch.equal((ai @ bi).long(), ai.long() @ bi.long())
        assert torch.equal((ai @ bi.t().contiguous().t()).long(), ai.long() @ bi.long())


def test_products_feed_autograd():
    rng = np.random.default_rng(9)
    a = torch.from_numpy(rng.standard_normal((40, 30)).astype(np.float32)).requires_grad_()
    b = torch.from_numpy(rng.standard_normal((30, 50)).astype(np.float32)).requires_grad_()
    (a @ b).sum().backward()
    assert close(a.grad, np.ones((40, 50)) @ b.detach().double().numpy().T)
    assert close(b.grad, a.detach().double().numpy().T @ np.ones((40, 50)))


@pytest.mark.parametrize('dtype', [np.float32, np.float64], ids=['float32', 'float64'])
def test_matrix_vector_products(threads, dtype):
    # mv.c: dot products along contiguous rows, or columns added into blocks of accumulators
    rng = np.random.default_rng(13)
    for m, k in [(1, 1), (5, 3), (64, 64), (300, 200), (3000, 700), (7, 1000)]:
        for ta in (False, True):
            a = operand(rng, m, k, ta, dtype)
            v = torch.from_numpy(rng.standard_normal(2 * k).astype(dtype))
            for x in (v[:k], v[::2]):                                  # contiguous and strided vectors
                want = a.double().numpy() @ x.double().numpy()
                assert close(torch.mv(a, x), want), (m, k, ta)
                assert close(a @ x, want)
                assert close(x @ a.t(), want)                          # a vector @ a matrix
                y = torch.from_numpy(rng.standard_normal(m).astype(dtype))
                assert close(torch.addmv(y, a, x, beta=0.25, alpha=3.0), 0.25 * y.double().numpy() + 3.0 * want)
                nan_y = torch.full((m,), float('nan'), dtype=a.dtype)
                assert not torch.addmv(nan_y, a, x, beta=0.0).isnan().any()
                out = torch.zeros(2 * m, dtype=a.dtype)[::2]             # a strided result
                torch.mv(a, x, out=out)
                assert close(out, want)
    empty = torch.mv(torch.ones(4, 0), torch.ones(0))
    assert torch.equal(empty, torch.zeros(4))
