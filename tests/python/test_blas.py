"""BLAS provider plugins: both load, give the same products, can be switched at start-up
(TORCH_BLAS) and at run time, and follow torch.set_num_threads."""
import os
import subprocess
import sys

import pytest
import torch


@pytest.fixture
def restore_blas():
    before, threads = torch.backends.blas.current(), torch.get_num_threads()
    yield
    torch.backends.blas.use(before)
    torch.set_num_threads(threads)


def operands(dtype):
    a = ((torch.arange(257 * 129) % 17) - 8).view(257, 129).to(dtype) / 7
    b = ((torch.arange(129 * 65) % 13) - 6).view(129, 65).to(dtype) / 5
    return a, b


def test_both_providers_loaded():
    assert set(torch.backends.blas.available()) == {'blis', 'openblas'}
    assert torch.backends.blas.current() == 'blis'


@pytest.mark.parametrize('dtype', [torch.float32, torch.float64])
def test_same_products_under_both(restore_blas, dtype):
    a, b = operands(dtype)
    results = {}
    for name in ('blis', 'openblas'):
        torch.backends.blas.use(name)
        assert torch.backends.blas.current() == name
        results[name] = [a @ b, a.t().contiguous().t() @ b, (b.t() @ a.t()).t(), a[::2, 1:] @ b[1:, ::3]]
    tol = 1e-4 if dtype == torch.float32 else 1e-10
    for x, y in zip(results['blis'], results['openblas']):
        assert x.shape == y.shape
        assert ((x - y).abs().max().item()) <= tol * max(1.0, y.abs().max().item())
    # and both agree with an exact integer product
    ai = ((torch.arange(257 * 129) % 17) - 8).view(257, 129)
    bi = ((torch.arange(129 * 65) % 13) - 6).view(129, 65)
    ref = (ai @ bi).to(dtype) / 35
    assert (results['blis'][0] - ref).abs().max().item() <= tol * ref.abs().max().item()


@pytest.mark.parametrize('dtype', [torch.complex64, torch.complex128])
def test_complex_products_split_across_threads(restore_blas, dtype):
    # 320 x 256 x 192 is past the split threshold: on two threads each computes panels, and BLIS's
    # induced (1m) method has to be enabled on the pool's thread as on the calling one.
    re = ((torch.arange(320 * 256) % 17) - 8).view(320, 256)
    im = ((torch.arange(320 * 256) % 11) - 5).view(320, 256)
    bre = ((torch.arange(256 * 192) % 13) - 6).view(256, 192)
    bim = ((torch.arange(256 * 192) % 7) - 3).view(256, 192)
    exact_re, exact_im = re @ bre - im @ bim, re @ bim + im @ bre   # integer products: exact
    a, b = torch.complex(re.double(), im.double()).to(dtype), torch.complex(bre.double(), bim.double()).to(dtype)
    torch.set_num_threads(2)
    for name in ('blis', 'openblas'):
        torch.backends.blas.use(name)
        for c in (a @ b, (b.t() @ a.t()).t(), a.conj().t().conj().t() @ b):
            assert torch.equal(c.real.long(), exact_re) and torch.equal(c.imag.long(), exact_im), name
        c = a.conj() @ b   # the conjugate of a: a product the providers see as conjugated, or a copy
        assert torch.equal(c.real.long(), re @ bre + im @ bim) and torch.equal(c.imag.long(), re @ bim - im @ bre)


def test_describe_names_kernel_set():
    desc = torch.backends.blas.describe()
    assert desc.startswith('BLIS') and 'kernels:' in desc


def test_use_unknown_provider_raises_value_error():
    with pytest.raises(ValueError, match="unknown BLAS provider 'mkl'"):
        torch.backends.blas.use('mkl')
    with pytest.raises(TypeError):
        torch.backends.blas.use(3)


def test_set_num_threads_reaches_provider(restore_blas):
    for name in ('blis', 'openblas'):
        torch.backends.blas.use(name)
        torch.set_num_threads(1)
        assert torch.get_num_threads() == 1
        assert torch.backends.blas.num_threads() == 1
        torch.set_num_threads(2)
        assert torch.backends.blas.num_threads() == 2


def test_torch_blas_environment_selects_provider():
    env = dict(os.environ, TORCH_BLAS='openblas')
    code = 'import torch; print(torch.backends.blas.current(), torch.backends.blas.describe().split()[0])'
    out = subprocess.run([sys.executable, '-c', code], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ['openblas', 'OpenBLAS']
