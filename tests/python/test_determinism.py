"""Same inputs, same bits: every op gives the same result from run to run at a fixed thread count
(docs/determinism.md), whatever the memory it is handed held before; and
torch.use_deterministic_algorithms answers as PyTorch 1.13's CPU build does."""
import os
import subprocess
import sys
import warnings

import pytest
import torch

# Each op of this program runs at 2 threads, on data large enough to be split over them; it prints one
# digest of every result's bytes. Run twice in fresh processes, once with the block cache filling
# memory with NaN bytes (TORCH_CPU_ALLOC_FILL=nan) and once without, the digests must agree: a kernel
# that combined its threads' partial results in the order they finished, or read memory before
# writing it, would make them differ.
OPS = r'''
import hashlib, sys
import torch
import torch.nn.functional as F
torch.set_num_threads(2)
g = torch.Generator().manual_seed(7)
def r(*s, dtype=torch.float32, grad=False):
    return torch.rand(*s, generator=g).to(dtype).requires_grad_(grad)
def idx(n, hi):
    return torch.randint(0, hi, (n,), generator=g)
def backward(out, *xs):
    return torch.autograd.grad(out, xs, torch.ones_like(out) if out.dim() else None)
results = {}
x = r(1 << 20)
results['sum'] = x.sum()
results['sum_dim'] = r(512, 1024).sum(0)
results['mean_var'] = torch.stack(torch.var_mean(r(4, 1 << 18), dim=1))
results['norm'] = torch.linalg.vector_norm(x)
results['cumsum'] = r(64, 4096).cumsum(1)
results['logsumexp'] = r(2048, 256).logsumexp(0)
results['softmax'] = r(256, 1024).softmax(1)
a, b = r(300, 200), r(200, 250)
results['matmul'] = a @ b
results['matmul_f64'] = a.double() @ b.double()
results['bmm'] = torch.bmm(r(8, 64, 96), r(8, 96, 32))
results['mv'] = r(2048, 512) @ r(512)
t = torch.zeros(1000)
results['index_add_'] = t.index_add_(0, idx(200000, 1000), r(200000))
results['scatter_add_'] = torch.zeros(1000).scatter_add_(0, idx(200000, 1000), r(200000))
results['scatter_reduce'] = torch.zeros(1000).scatter_reduce(0, idx(200000, 1000), r(200000), 'mean')
results['index_put_acc'] = torch.zeros(1000).index_put_((idx(200000, 1000),), r(200000), accumulate=True)
results['put_acc'] = torch.zeros(1000).put_(idx(200000, 1000), r(200000), accumulate=True)
w = r(1000, 64, grad=True)
results['embedding_bw'] = backward(F.embedding(idx(50000, 1000), w), w)[0]
w = r(1000, 64, grad=True)
results['embedding_bag_bw'] = backward(F.embedding_bag(idx(50000, 1000), w, torch.arange(0, 50000, 50)), w)[0]
inp, wc = r(8, 16, 32, 32, grad=True), r(32, 16, 3, 3, grad=True)
results['conv2d'] = F.conv2d(inp, wc, padding=1)
results['conv2d_bw'] = torch.cat([v.reshape(-1) for v in backward(F.conv2d(inp, wc, padding=1), inp, wc)])
inp = r(8, 16, 64, grad=True)
results['conv1d_bw'] = torch.cat([v.reshape(-1) for v in backward(F.conv1d(inp, r(8, 16, 5), stride=2), inp)])
inp = r(8, 16, 32, 32, grad=True)
results['max_pool_bw'] = backward(F.max_pool2d(inp, 3, 2), inp)[0]
results['avg_pool_bw'] = backward(F.adaptive_avg_pool2d(inp, 5), inp)[0]
results['interpolate_bw'] = backward(F.interpolate(inp, scale_factor=1.7, mode='bilinear'), inp)[0]
inp = r(8, 16, 32, 32, grad=True)
results['batch_norm_bw'] = backward(F.batch_norm(inp, None, None, training=True), inp)[0]
results['layer_norm_bw'] = backward(F.layer_norm(inp, (32, 32)), inp)[0]
logits = r(4096, 100, grad=True)
results['cross_entropy_bw'] = backward(F.cross_entropy(logits, idx(4096, 100)), logits)[0]
v = r(1 << 18, grad=True)
results['gather_bw'] = backward(v[idx(1 << 19, 1 << 18)], v)[0]
m = r(4, 24, 24, dtype=torch.float64, grad=True) * 0.1
results['matrix_exp_bw'] = backward(torch.matrix_exp(m), m)[0]
m = r(16, 32, 32, dtype=torch.float64) + 32 * torch.eye(32, dtype=torch.float64)
results['solve'] = torch.linalg.solve(m, r(16, 32, 4, dtype=torch.float64))
results['sort'] = r(1 << 18).sort().values
results['histc'] = torch.histc(r(1 << 20), 100)
results['bincount'] = torch.bincount(idx(1 << 20, 1000), weights=r(1 << 20, dtype=torch.float64))
for name, t in results.items():
    t = t.detach().reshape(-1).contiguous()
    print(name, hashlib.sha256(t.view(torch.uint8).numpy().tobytes()).hexdigest()[:16])
'''


def digests(**env_extra):
    env = dict(os.environ, **env_extra)
    out = subprocess.run([sys.executable, '-c', OPS], env=env, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    return dict(line.split() for line in out.stdout.splitlines())


def test_same_bits_at_two_threads_whatever_memory_held():
    plain = digests(TORCH_CPU_ALLOC_FILL='0')
    filled = digests(TORCH_CPU_ALLOC_FILL='nan')
    assert len(plain) >= 30
    differ = sorted(name for name in plain if plain[name] != filled.get(name))
    assert differ == [], 'results that change from run to run: %s' % differ


# ---- torch.use_deterministic_algorithms -----------------------------------------------------------

@pytest.fixture
def restore():
    yield
    torch.use_deterministic_algorithms(False)


def test_flags(restore):
    assert not torch.are_deterministic_algorithms_enabled()
    assert not torch.is_deterministic_algorithms_warn_only_enabled()
    assert torch.get_deterministic_debug_mode() == 0
    torch.use_deterministic_algorithms(True)
    assert torch.are_deterministic_algorithms_enabled() and not torch.is_deterministic_algorithms_warn_only_enabled()
    assert torch.get_deterministic_debug_mode() == 2
    torch.use_deterministic_algorithms(True, warn_only=True)
    assert torch.is_deterministic_algorithms_warn_only_enabled() and torch.get_deterministic_debug_mode() == 1
    torch.set_deterministic_debug_mode('default')
    assert not torch.are_deterministic_algorithms_enabled()
    torch.set_deterministic_debug_mode('error')
    assert torch.get_deterministic_debug_mode() == 2
    torch.set_deterministic_debug_mode(1)
    assert torch.is_deterministic_algorithms_warn_only_enabled()


def test_argument_errors(restore):
    with pytest.raises(TypeError, match="argument 'mode' \\(position 1\\) must be bool, not int"):
        torch.use_deterministic_algorithms(1)
    with pytest.raises(TypeError, match="argument 'warn_only' must be bool, not int"):
        torch.use_deterministic_algorithms(True, warn_only=1)
    with pytest.raises(RuntimeError, match='expected one of `default`, `warn`, `error`, but got bad'):
        torch.set_deterministic_debug_mode('bad')
    with pytest.raises(RuntimeError, match='expected 0, 1, or 2, but got 3'):
        torch.set_deterministic_debug_mode(3)
    with pytest.raises(TypeError, match="debug_mode must be str or int, but got <class 'float'>"):
        torch.set_deterministic_debug_mode(1.0)
    assert not torch.are_deterministic_algorithms_enabled()


MESSAGE = "put_ does not have a deterministic implementation, but you set 'torch.use_deterministic_algorithms(True)'"


def test_put_without_accumulate_raises_as_pytorch(restore):
    torch.use_deterministic_algorithms(True)
    for call in (lambda: torch.zeros(5).put_(torch.tensor([0, 1]), torch.ones(2)),
                 lambda: torch.zeros(5).put(torch.tensor([0, 0]), torch.ones(2)),
                 lambda: torch.zeros(5).put_(torch.tensor([0.5]), torch.ones(1))):  # before the argument checks
        with pytest.raises(RuntimeError, match=MESSAGE.replace('(', '\\(').replace(')', '\\)')):
            call()
    # what PyTorch's CPU build does not refuse: accumulating put_, and the ops it documents as
    # deterministic on CPU
    assert torch.zeros(3).put_(torch.tensor([0, 0]), torch.ones(2), accumulate=True).tolist() == [2, 0, 0]
    assert torch.zeros(3).index_add_(0, torch.tensor([0, 0]), torch.ones(2)).tolist() == [2, 0, 0]
    assert torch.zeros(3).scatter_add_(0, torch.tensor([1, 1]), torch.ones(2)).tolist() == [0, 2, 0]
    assert torch.zeros(3).index_put_((torch.tensor([2, 2]),), torch.ones(2), accumulate=True).tolist() == [0, 0, 2]
    assert torch.histc(torch.tensor([1., 2.]), 2).tolist() == [1, 1]
    w = torch.ones(3, 2, requires_grad=True)
    torch.nn.functional.embedding(torch.tensor([0, 0]), w).sum().backward()
    assert w.grad[0].tolist() == [2, 2]


def test_warn_only_warns_and_computes(restore):
    torch.use_deterministic_algorithms(True, warn_only=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        out = torch.zeros(3).put_(torch.tensor([0, 2]), torch.tensor([1., 2.]))
    assert out.tolist() == [1, 0, 2]
    assert [w.category for w in caught] == [UserWarning]
    assert str(caught[0].message).startswith(
        "put_ does not have a deterministic implementation, but you set "
        "'torch.use_deterministic_algorithms(True, warn_only=True)'")


def test_complex_linalg_bits_do_not_depend_on_a_threads_history():
    """A batched complex solve and matrix_exp's backward run LAPACK on the pool's threads. With BLIS's
    AVX-512 kernels, complex products inside LAPACK took BLIS's thread-local 1m method only on threads
    that had computed a complex product before, so the first call of a process and a later one gave
    different bits (gradcheck's 'Backward is not reentrant' on matrix_exp). Kernel sets with their own
    complex kernels never differed; on those this checks the same property."""
    code = r'''
import torch
torch.set_num_threads(2)
g = torch.Generator().manual_seed(5)
a = torch.randn(16, 24, 24, dtype=torch.complex128, generator=g) + 24 * torch.eye(24)
b = torch.randn(16, 24, 3, dtype=torch.complex128, generator=g)
x = (torch.randn(8, 12, 12, dtype=torch.complex128, generator=g) / 4).requires_grad_()
def run():
    grad, = torch.autograd.grad(torch.linalg.matrix_exp(x).abs().sum(), x)
    return torch.linalg.solve(a, b).view(torch.float64).tolist(), grad.view(torch.float64).tolist()
first = run()
for _ in range(3):
    torch.randn(256, 256, dtype=torch.complex64) @ torch.randn(256, 256, dtype=torch.complex64)  # every thread
assert run() == first, 'a complex solve or matrix_exp backward changed after the threads computed products'
print('ok')
'''
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, timeout=300,
                         env=dict(os.environ, TORCH_BLAS='blis'))
    assert out.returncode == 0 and out.stdout.strip() == 'ok', out.stderr[-3000:]
