"""The CUDA plugin from Python. Without a GPU (or without the plugin) only the "unavailable" checks run
and the rest are skipped; tools/gpu_tests runs this file on a GPU machine."""
import pytest

import torch
import torch.plugins

gpu = pytest.mark.skipif(not torch.cuda.is_available(), reason='needs a CUDA device: %s' % torch.cuda.unavailable_reason())


def test_unavailable_is_clean():
    if torch.cuda.is_available():
        pytest.skip('a CUDA device is present')
    assert torch.cuda.device_count() == 0
    assert torch.cuda.unavailable_reason()
    assert torch.cuda.memory_allocated() == 0
    torch.cuda.empty_cache()  # a no-op, as in PyTorch
    assert torch.device('cuda:0').type == 'cuda'
    with pytest.raises(RuntimeError):
        torch.zeros(2, device='cuda')
    with pytest.raises(RuntimeError):
        torch.ones(2).cuda()


def test_plugin_state_is_listed():
    rows = [p for p in torch.backends.plugins() if p['name'] == 'cuda']
    if not rows:
        pytest.skip('the cuda plugin was not built (no CUDA toolkit)')
    assert rows[0]['state'] in ('loaded', 'not supported'), rows[0]
    if rows[0]['state'] == 'not supported':
        assert rows[0]['reason']
        assert rows[0]['reason'] in torch.plugins.report()


@gpu
def test_round_trip_and_device_api():
    x = torch.arange(12, dtype=torch.float32).reshape(3, 4)
    d = x.to('cuda')
    assert d.device.type == 'cuda'
    assert torch.equal(d.cpu(), x)
    assert torch.equal(x.cuda().cpu(), x)
    assert torch.equal(torch.zeros(5, device='cuda').cpu(), torch.zeros(5))
    assert torch.cuda.device_count() >= 1 and torch.cuda.current_device() == 0
    torch.cuda.set_device(0)
    torch.cuda.synchronize()
    assert torch.cuda.get_device_name(0)


@gpu
def test_kernels_agree_with_cpu():
    a = torch.randn(3, 4, 5)
    b = torch.randn(4, 1)
    for op in (torch.add, torch.sub, torch.mul, torch.div):
        assert torch.allclose(op(a.cuda(), b.cuda()).cpu(), op(a, b), rtol=1e-6, atol=1e-6)
    assert torch.allclose(a.cuda().sum().cpu(), a.sum(), rtol=1e-5)
    m, n = torch.randn(8, 6), torch.randn(6, 7)
    assert torch.allclose(torch.mm(m.cuda(), n.cuda()).cpu(), torch.mm(m, n), rtol=1e-5, atol=1e-5)
    x, y = torch.randn(2, 8, 6, dtype=torch.float64), torch.randn(2, 6, 3, dtype=torch.float64)
    assert torch.allclose(torch.bmm(x.cuda(), y.cuda()).cpu(), torch.bmm(x, y))
    assert torch.equal(a.cuda().to(torch.int64).cpu(), a.to(torch.int64))


@gpu
def test_mixing_devices_raises():
    with pytest.raises(RuntimeError, match='Expected all tensors to be on the same device'):
        torch.ones(2).cuda() + torch.ones(2)


@gpu
def test_allocator_stats():
    torch.cuda.empty_cache()
    base = torch.cuda.memory_allocated()
    x = torch.zeros(1 << 20, device='cuda')
    assert torch.cuda.memory_allocated() >= base + 4 * (1 << 20)
    assert torch.cuda.max_memory_allocated() >= torch.cuda.memory_allocated()
    del x
    assert torch.cuda.memory_allocated() == base
    assert torch.cuda.memory_reserved() >= 4 * (1 << 20)
    torch.cuda.empty_cache()
    assert torch.cuda.memory_reserved() == torch.cuda.memory_allocated()
