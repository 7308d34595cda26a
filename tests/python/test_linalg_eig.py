"""torch.linalg.eig and torch.linalg.eigvals: the eigendecomposition of general square matrices.

Properties (A V = V diag(L), unit eigenvectors, closed forms for diagonal and triangular matrices,
conjugate pairs of a real matrix), batches, layouts and dtypes, out=, the meta device, gradients
beside test_autograd_ops.py's gradchecks, and PyTorch's errors; then a differential suite against
PyTorch 1.13.1 (recorded in tests/data/reference/linalg_eig.json by tools/record_reference). LAPACK
implementations may order eigenvalues and choose eigenvector phases differently, so the suite compares
eigenvalues sorted, and eigenvectors through their absolute values in that order.
"""
import warnings

import pytest

from differential import Suite

REAL = ['float32', 'float64']
COMPLEX = ['complex64', 'complex128']
TOL = {'float32': 2e-5, 'complex64': 2e-5, 'float64': 1e-11, 'complex128': 1e-11}


def _torch():
    import torch
    return torch


def _complex_of(dtype):
    torch = _torch()
    return {torch.float32: torch.complex64, torch.float64: torch.complex128}.get(dtype, dtype)


def _random(shape, dtype, seed=0):
    torch = _torch()
    g = torch.Generator().manual_seed(seed)
    if dtype.is_complex:
        parts = torch.randn(*shape, 2, generator=g, dtype=torch.float64)
        return torch.complex(parts[..., 0], parts[..., 1]).to(dtype)
    return torch.randn(*shape, generator=g, dtype=torch.float64).to(dtype)


def _close(x, y, tol=1e-6):
    """Elementwise |x - y| <= tol (complex too: this project's allclose reads real parts only so far)."""
    torch = _torch()
    y = torch.as_tensor(y, dtype=x.dtype)
    return x.shape == y.shape and (x.numel() == 0 or (x - y).abs().max().item() <= tol)


def _check_decomposition(a, L, V, tol):
    torch = _torch()
    ac = a.to(L.dtype)
    scale = max(1.0, a.abs().max().item()) if a.numel() else 1.0
    assert (ac @ V - V * L.unsqueeze(-2)).abs().max().item() <= tol * scale * max(1, a.shape[-1])
    norms = (V.abs() ** 2).sum(-2).sqrt()
    assert (norms - 1).abs().max().item() <= tol * 10


@pytest.mark.parametrize('dtype', REAL + COMPLEX)
@pytest.mark.parametrize('n', [1, 2, 5, 17])
def test_decomposition(dtype, n):
    torch = _torch()
    dt = getattr(torch, dtype)
    a = _random((n, n), dt, seed=n)
    L, V = torch.linalg.eig(a)
    assert L.dtype == V.dtype == _complex_of(dt)
    assert L.shape == (n,) and V.shape == (n, n)
    _check_decomposition(a, L, V, TOL[dtype])
    w = torch.linalg.eigvals(a)
    assert w.dtype == L.dtype and w.shape == (n,)
    assert torch.equal(w, L)  # one routine, one order


@pytest.mark.parametrize('dtype', REAL + COMPLEX)
def test_batched_and_non_contiguous(dtype):
    torch = _torch()
    dt = getattr(torch, dtype)
    a = _random((2, 3, 4, 4), dt, seed=7)
    L, V = torch.linalg.eig(a)
    assert L.shape == (2, 3, 4) and V.shape == (2, 3, 4, 4)
    _check_decomposition(a, L, V, TOL[dtype])
    for i in range(2):
        for j in range(3):
            Li, Vi = torch.linalg.eig(a[i, j])
            assert torch.equal(Li, L[i, j]) and torch.equal(Vi, V[i, j])
    # transposed and strided views give the decomposition of what they show
    t = a.transpose(-2, -1)
    Lt, Vt = torch.linalg.eig(t)
    _check_decomposition(t.contiguous(), Lt, Vt, TOL[dtype])
    assert torch.equal(Lt, torch.linalg.eig(t.contiguous())[0])
    s = _random((4, 8, 8), dt, seed=8)[::2, ::2, 1::2]
    Ls, Vs = torch.linalg.eig(s)
    assert torch.equal(Ls, torch.linalg.eig(s.contiguous())[0])
    _check_decomposition(s.contiguous(), Ls, Vs, TOL[dtype])
    # a broadcast (expanded) batch
    e = a[0, 0].expand(3, 4, 4)
    Le = torch.linalg.eigvals(e)
    assert torch.equal(Le, torch.linalg.eigvals(a[0, 0]).expand(3, 4))


@pytest.mark.parametrize('dtype', REAL)
def test_real_matrix_gives_conjugate_pairs(dtype):
    torch = _torch()
    dt = getattr(torch, dtype)
    # a rotation by 90 degrees scaled by 2, beside an eigenvalue 3: 2i, -2i, 3
    a = torch.tensor([[0., -2, 0], [2, 0, 0], [0, 0, 3]], dtype=dt)
    L, V = torch.linalg.eig(a)
    got = sorted(L.tolist(), key=lambda z: (z.real, z.imag))
    want = [-2j, 2j, 3]
    assert all(abs(g - w) < 1e-6 for g, w in zip(got, want)), got
    _check_decomposition(a, L, V, TOL[dtype])
    # LAPACK puts the pair's member with the positive imaginary part first and its vector's
    # conjugate second, as PyTorch unpacks them
    k = [i for i in range(3) if abs(L[i].imag.item()) > 0.5]
    assert len(k) == 2 and k[1] == k[0] + 1 and L[k[0]].imag > 0
    assert torch.equal(V[:, k[1]], V[:, k[0]].conj())
    assert torch.equal(L[k[1]], L[k[0]].conj())
    # random real matrices: eigenvalues come in conjugate pairs
    b = _random((6, 6), dt, seed=3)
    w = torch.linalg.eigvals(b)
    assert (w.imag != 0).sum() >= 2
    assert _close(torch.sort(w.imag)[0], torch.sort(-w.imag)[0], 1e-5)


@pytest.mark.parametrize('dtype', REAL + COMPLEX)
def test_diagonal_and_triangular_in_closed_form(dtype):
    torch = _torch()
    dt = getattr(torch, dtype)
    d = torch.tensor([3., -1, 0.5, 2], dtype=dt)
    L, V = torch.linalg.eig(torch.diag(d))
    assert torch.equal(L, d.to(L.dtype))
    assert torch.equal(V, torch.eye(4, dtype=V.dtype))
    # an upper triangular matrix has its diagonal as eigenvalues, and e_1 as the first vector
    u = torch.tensor([[1., 2, 3], [0, 4, 5], [0, 0, 6]], dtype=dt)
    L, V = torch.linalg.eig(u)
    assert _close(L, torch.tensor([1, 4, 6], dtype=L.dtype), 1e-5)
    assert _close(V[:, 0].abs(), torch.tensor([1., 0, 0], dtype=V.real.dtype))
    # the second vector solves (U - 4) v = 0: v ~ (2, 3, 0) normalised
    assert _close(V[:, 1].abs(), torch.tensor([2., 3, 0], dtype=V.real.dtype) / 13 ** 0.5)
    _check_decomposition(u, L, V, TOL[dtype])


def test_empty_inputs():
    torch = _torch()
    L, V = torch.linalg.eig(torch.ones(0, 0))
    assert L.shape == (0,) and V.shape == (0, 0) and L.dtype == torch.complex64
    L, V = torch.linalg.eig(torch.ones(0, 3, 3, dtype=torch.float64))
    assert L.shape == (0, 3) and V.shape == (0, 3, 3) and V.dtype == torch.complex128
    w = torch.linalg.eigvals(torch.ones(2, 0, 0, dtype=torch.complex64))
    assert w.shape == (2, 0) and w.dtype == torch.complex64
    L, V = torch.linalg.eig(torch.full((1, 1), 2.5))
    assert L.tolist() == [2.5 + 0j] and V.tolist() == [[1 + 0j]]


def test_out():
    torch = _torch()
    a = torch.tensor([[1., 1], [1, 1]])
    L0, V0 = torch.linalg.eig(a)
    L, V = torch.empty(0, dtype=torch.complex64), torch.empty(0, dtype=torch.complex64)
    r = torch.linalg.eig(a, out=(L, V))
    assert r[0] is L and r[1] is V and torch.equal(L, L0) and torch.equal(V, V0)
    # results cast safely into a wider complex dtype, and are resized with PyTorch's warning
    L, V = torch.empty(5, dtype=torch.complex128), torch.empty(3, 3, dtype=torch.complex128)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        torch.linalg.eig(a, out=(L, V))
    assert any('resized' in str(x.message) for x in w)
    assert L.shape == (2,) and V.shape == (2, 2) and _close(L, L0.to(torch.complex128))
    out = torch.empty(0, dtype=torch.complex128)
    assert torch.linalg.eigvals(a.double(), out=out) is out and _close(out, L0.to(torch.complex128))
    with pytest.raises(RuntimeError, match=r'torch\.linalg\.eig: Expected eigenvalues to be safely castable from '
                                           r'ComplexFloat dtype, but got eigenvalues with dtype Float'):
        torch.linalg.eig(a, out=(torch.empty(0), torch.empty(0, dtype=torch.complex64)))
    with pytest.raises(RuntimeError, match=r'Expected eigenvectors to be safely castable from ComplexDouble dtype, '
                                           r'but got eigenvectors with dtype Double'):
        torch.linalg.eig(a.double(), out=(torch.empty(0, dtype=torch.complex64), torch.empty(0, dtype=torch.float64)))
    with pytest.raises(RuntimeError, match=r'torch\.linalg\.eigvals: Expected eigenvalues to be safely castable'):
        torch.linalg.eigvals(a, out=torch.empty(0))
    with pytest.raises(RuntimeError, match='should not contain infs or NaNs'):
        torch.linalg.eig(torch.tensor([[1., float('nan')], [0, 1]]), out=(L, V))


def test_errors():
    torch = _torch()
    nan, inf = float('nan'), float('inf')
    with pytest.raises(RuntimeError, match='linalg.eig: A must be batches of square matrices, but they are 2 by 3 '
                                           'matrices'):
        torch.linalg.eig(torch.ones(2, 3))
    with pytest.raises(RuntimeError, match='linalg.eigvals: A must be batches of square matrices'):
        torch.linalg.eigvals(torch.ones(4, 2, 3))
    with pytest.raises(RuntimeError, match='linalg.eig: The input tensor A must have at least 2 dimensions.'):
        torch.linalg.eig(torch.ones(3))
    for dt, name in ((torch.int64, 'Long'), (torch.int32, 'Int'), (torch.uint8, 'Byte'), (torch.bool, 'Bool')):
        with pytest.raises(RuntimeError, match='Unknown Complex ScalarType for %s' % name):
            torch.linalg.eig(torch.ones(3, 3, dtype=dt))
        with pytest.raises(RuntimeError, match='Unknown Complex ScalarType for %s' % name):
            torch.linalg.eigvals(torch.ones(3, 3, dtype=dt))
    for dt, name in ((torch.float16, 'Half'), (torch.bfloat16, 'BFloat16'), (torch.complex32, 'ComplexHalf')):
        with pytest.raises(RuntimeError, match='"linalg_eig_out_cpu" not implemented for \'%s\'' % name):
            torch.linalg.eig(torch.ones(2, 2, dtype=dt))
    msg = r'torch\.linalg\.eig: input tensor should not contain infs or NaNs\.'
    for bad in (nan, inf, -inf):
        with pytest.raises(RuntimeError, match=msg):
            torch.linalg.eig(torch.tensor([[1., bad], [0, 1]]))
        with pytest.raises(RuntimeError, match=msg):
            torch.linalg.eig(torch.tensor([[1., 0], [0, complex(0, bad)]], dtype=torch.complex128))
    with pytest.raises(RuntimeError, match=msg):  # checked before the shape, as PyTorch does
        torch.linalg.eig(torch.tensor([1., nan]))
    with pytest.raises(RuntimeError, match=msg):  # eigvals checks too when it must keep the vectors
        torch.linalg.eigvals(torch.tensor([[1., nan], [0, 1]], requires_grad=True))
    # eigvals alone does not check: PyTorch hands the matrix to LAPACK, which gives NaN (or rejects it
    # with an internal assert); a matrix with NaN or infinity gives NaN eigenvalues here
    w = torch.linalg.eigvals(torch.stack([torch.eye(2), torch.tensor([[1., 2], [inf, 1]])]))
    assert w[0].tolist() == [1, 1] and torch.view_as_real(w[1]).isnan().all()


def test_meta_device():
    torch = _torch()
    L, V = torch.linalg.eig(torch.empty(2, 5, 5, device='meta', dtype=torch.float64))
    assert L.device.type == 'meta' and L.shape == (2, 5) and V.shape == (2, 5, 5) and V.dtype == torch.complex128
    w = torch.linalg.eigvals(torch.empty(3, 3, device='meta', dtype=torch.complex64))
    assert w.shape == (3,) and w.dtype == torch.complex64
    with pytest.raises(RuntimeError, match='must be batches of square matrices'):
        torch.linalg.eig(torch.empty(2, 3, device='meta'))


def test_gradients():
    torch = _torch()
    # the derivative of the eigenvalues of a real matrix is real: d(lambda_k) = u_k^H dA v_k / (u_k^H v_k)
    a = torch.tensor([[2., 1], [0, 3]], dtype=torch.float64, requires_grad=True)
    L, V = torch.linalg.eig(a)
    assert L.grad_fn.name() == 'LinalgEigBackward0'
    (g,) = torch.autograd.grad(L.real.sum(), a)
    assert g.dtype == torch.float64 and _close(g, torch.eye(2, dtype=torch.float64), 1e-12)  # d trace / dA
    w = torch.linalg.eigvals(a)
    assert w.grad_fn is not None
    (g,) = torch.autograd.grad((w.real ** 2).sum(), a)
    assert _close(g, 2 * a.detach().t(), 1e-12)  # d tr(A^2) / dA = 2 A^T
    c = torch.tensor([[1 + 1j, 2], [0.5j, -1]], dtype=torch.complex128, requires_grad=True)
    assert torch.autograd.gradcheck(lambda x: torch.linalg.eigvals(x), c)
    # a loss that depends on the phases of complex eigenvectors is refused, as by PyTorch
    L, V = torch.linalg.eig(c)
    with pytest.raises(RuntimeError, match='linalg_eig_backward: The eigenvectors in the complex case are specified '
                                           'up to multiplication by e\\^{i phi}'):
        V.real.sum().backward()
    # without the eigenvectors there is no derivative to take
    _, v = torch.ops.aten._linalg_eig(c, False)
    assert v.shape == (0,)


def test_both_providers_agree():
    import os
    import subprocess
    import sys
    code = ('import torch; g = torch.Generator().manual_seed(1); a = torch.randn(6, 6, generator=g, dtype=torch.float64); '
            'c = torch.complex(a, a.t()); '
            'L, V = torch.linalg.eig(a); M, W = torch.linalg.eig(c); '
            'print(torch.backends.blas.current(), (a.to(L.dtype) @ V - V * L).abs().max().item() < 1e-12, '
            '(c @ W - W * M).abs().max().item() < 1e-12, sorted((round(z.real, 8), round(z.imag, 8)) for z in L.tolist()))')
    outs = []
    for provider in ('blis', 'openblas'):
        env = dict(os.environ, TORCH_BLAS=provider)
        r = subprocess.run([sys.executable, '-c', code], env=env, capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stderr
        name, ok1, ok2, values = r.stdout.split(' ', 3)
        assert name == provider and ok1 == 'True' and ok2 == 'True', r.stdout
        outs.append(values)
    assert outs[0] == outs[1]


# ---- against PyTorch 1.13.1 -----------------------------------------------------------------------

# Sorted eigenvalues of a batch (by real part, to 4 decimals, then imaginary part) as (real, imag)
# pairs (view_as_real: complex tensors cannot be indexed here yet); both sides sort alike.
_ORDER = 'sorted(range(r.shape[-1]), key=lambda i: (round(r[i].real.item(), 4), r[i].imag.item()))'
SORTED = ('(lambda L: torch.stack([torch.view_as_real(r)[%s] for r in L.reshape(-1, L.shape[-1])])'
          '.reshape(L.shape + (2,)))({})' % _ORDER)
# |V| with its columns in the order of the sorted eigenvalues (one matrix)
VECTORS = '(lambda LV: (lambda r: LV[1].abs()[:, %s])(LV[0]))({})' % _ORDER

M4 = ('torch.tensor([[0.5, -1.25, 2.0, 0.75], [1.5, 0.25, -0.5, 1.0], [-2.0, 1.0, 3.0, -0.25], '
      '[0.125, 0.5, -1.5, -1.0]], dtype=torch.{d})')
PAIRS = 'torch.tensor([[1.0, -2.0, 0.25], [2.0, 1.0, 0.5], [0.125, -0.25, 3.0]], dtype=torch.{d})'
C3 = 'torch.tensor([[1+1j, 2-0.5j, 0.25j], [0.5, -1+2j, 1-1j], [3j, 0.75, 2-0.25j]], dtype=torch.{d})'
SYM = 'torch.tensor([[4.0, 1.0, 0.5], [1.0, 3.0, 0.25], [0.5, 0.25, 1.0]], dtype=torch.{d})'
BATCH = ('torch.tensor([[[2.0, 1.0], [-1.0, 2.0]], [[0.5, 3.0], [1.0, -0.5]], [[1.0, 0.0], [0.0, 1.0]]], '
         'dtype=torch.{d})')


def _cases():
    out = []
    for d in REAL:
        for m in (M4, PAIRS, SYM, BATCH):
            a = m.format(d=d)
            out.append(SORTED.format('torch.linalg.eigvals(%s)' % a))
            out.append(SORTED.format('torch.linalg.eig(%s)[0]' % a))
        out.append(VECTORS.format('torch.linalg.eig(%s)' % SYM.format(d=d)))
        out.append('torch.linalg.eig(%s)[1].shape' % BATCH.format(d=d))
        out.append('torch.linalg.eig(torch.diag(torch.tensor([3.0, -1.0, 2.0], dtype=torch.%s)))' % d)
    for d in COMPLEX:
        a = C3.format(d=d)
        out.append(SORTED.format('torch.linalg.eigvals(%s)' % a))
        out.append(SORTED.format('torch.linalg.eig(%s)[0]' % a))
        out.append(SORTED.format('torch.linalg.eigvals(%s.transpose(0, 1))' % a))
    # errors (types; the messages are checked in test_errors)
    out += ['torch.linalg.eig(torch.ones(2, 3))', 'torch.linalg.eigvals(torch.ones(3))',
            'torch.linalg.eig(torch.ones(3, 3, dtype=torch.int64))', 'torch.linalg.eig(torch.ones(2, 2, dtype=torch.half))',
            "torch.linalg.eig(torch.tensor([[1.0, float('nan')], [0.0, 1.0]]))",
            "torch.linalg.eig(torch.tensor([[1.0, float('inf')], [0.0, 1.0]], dtype=torch.complex64))",
            'torch.linalg.eig(torch.ones(2, 2), out=(torch.empty(0), torch.empty(0)))',
            'torch.linalg.eigvals(torch.ones(2, 2), out=torch.empty(0, dtype=torch.complex128)).dtype',
            'torch.linalg.eig(torch.ones(0, 0))', 'torch.linalg.eigvals(torch.ones(2, 0, 0, dtype=torch.float64))']
    return out


# LAPACK builds differ in the last bits of what they compute: eigenvalues agree to a few units of the
# dtype's precision times the matrix's scale, not to one unit
SUITE = Suite('linalg_eig', _cases(), tolerance={'torch.complex64': (5e-6, 5e-6), 'torch.complex128': (1e-12, 1e-12),
                                                 'torch.float32': (5e-6, 5e-6), 'torch.float64': (1e-12, 1e-12)})
RECORDED, RUNNER, reference_request = SUITE.recorded, SUITE.runner, SUITE.reference_request
reports = SUITE.fixture()


@pytest.mark.parametrize('expr', SUITE.expressions)
def test_matches_reference(reports, expr):
    SUITE.check(reports, expr)
