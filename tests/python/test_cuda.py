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


def close(d, ref, tol=1e-5):
    """A cuda result against the CPU's: same dtype and shape, values within tol (NaN where NaN)."""
    h = d.cpu()
    assert d.device.type == 'cuda'
    assert h.dtype == ref.dtype and h.shape == ref.shape, (h.dtype, ref.dtype, h.shape, ref.shape)
    if ref.dtype.is_floating_point:
        assert torch.allclose(h.double(), ref.double(), rtol=tol, atol=tol, equal_nan=True), (h, ref)
    else:
        assert torch.equal(h, ref), (h, ref)


@gpu
def test_creation_and_copies():
    for dtype in (torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.float16,
                  torch.bfloat16, torch.float32, torch.float64):
        close(torch.ones(2, 3, dtype=dtype, device='cuda'), torch.ones(2, 3, dtype=dtype))
        close(torch.full((4,), 3, dtype=dtype, device='cuda'), torch.full((4,), 3, dtype=dtype))
        close(torch.zeros(3, dtype=dtype, device='cuda:0'), torch.zeros(3, dtype=dtype))
        assert torch.empty(2, 2, dtype=dtype, device='cuda').shape == (2, 2)
    x = torch.randn(4, 5, 6)
    close(x.cuda().transpose(0, 2).contiguous(), x.transpose(0, 2).contiguous())
    close(x.cuda()[:, 1:4, ::2].clone(), x[:, 1:4, ::2].clone())
    close(x.cuda().to(torch.float16), x.to(torch.float16))
    close((x * 10).cuda().to(torch.int32), (x * 10).to(torch.int32))
    y = torch.empty(6, 5, device='cuda')
    y.copy_(x[0].t())
    close(y, x[0].t().contiguous())
    close(x.to('cuda').to('cuda').cpu().cuda(), x)
    assert x.cuda().cuda() is not None and x.cuda(0).device == torch.device('cuda:0')


@gpu
def test_arithmetic_broadcasting():
    a, b = torch.randn(3, 1, 5), torch.randn(4, 1)
    for op in (torch.add, torch.sub, torch.mul, torch.div, torch.maximum, torch.minimum):
        close(op(a.cuda(), b.cuda()), op(a, b))
    close(torch.add(a.cuda(), b.cuda(), alpha=2.5), torch.add(a, b, alpha=2.5))
    i, j = torch.arange(12).reshape(3, 4), torch.arange(4)
    for op in (torch.add, torch.sub, torch.mul, torch.maximum, torch.minimum):
        close(op(i.cuda(), j.cuda()), op(i, j))
    close(a.cuda() + 2, a + 2)
    close(i.cuda() * 3, i * 3)
    close(a.double().cuda() + b.cuda(), a.double() + b)  # promotion
    h = a.to(torch.bfloat16)
    close(h.cuda() * h.cuda(), h * h, tol=1e-2)


@gpu
def test_unary_math():
    x = torch.randn(7, 9)
    for f in (torch.neg, torch.abs, torch.exp, torch.sin, torch.cos, torch.tanh, torch.sigmoid, torch.relu):
        close(f(x.cuda()), f(x))
    p = x.abs() + 0.1
    close(torch.log(p.cuda()), torch.log(p))
    close(torch.sqrt(p.cuda()), torch.sqrt(p))
    i = torch.arange(-5, 5)
    close(torch.neg(i.cuda()), torch.neg(i))
    close(torch.abs(i.cuda()), torch.abs(i))
    close(torch.relu(i.cuda()), torch.relu(i))
    close(torch.exp(i.cuda()), torch.exp(i))  # an integer input computes in float
    close(x.t().cuda().exp(), x.t().exp())  # strided
    n = torch.tensor([float('nan'), -1.0, 2.0])
    close(torch.relu(n.cuda()), torch.relu(n))


@gpu
def test_compare_where_clamp():
    a, b = torch.randn(3, 4), torch.randn(4)
    for op in (torch.eq, torch.ne, torch.lt, torch.le, torch.gt, torch.ge):
        close(op(a.cuda(), b.cuda()), op(a, b))
        close(op(a.cuda(), 0.0), op(a, 0.0))
    close(a.cuda() > b.cuda(), a > b)
    c = a > 0
    close(torch.where(c.cuda(), a.cuda(), b.cuda()), torch.where(c, a, b))
    close(torch.where(c.cuda(), a.cuda(), 0.0), torch.where(c, a, 0.0))
    close(torch.clamp(a.cuda(), -0.5, 0.5), torch.clamp(a, -0.5, 0.5))
    close(torch.clamp(a.cuda(), min=0.1), torch.clamp(a, min=0.1))
    close(a.cuda().clamp(max=b.cuda()), a.clamp(max=b))
    i = torch.arange(10)
    close(i.cuda().clamp(2, 7), i.clamp(2, 7))


@gpu
def test_reductions():
    x = torch.randn(6, 7, 8)
    close(x.cuda().sum(), x.sum(), tol=1e-4)
    close(x.cuda().sum(dim=1), x.sum(dim=1), tol=1e-4)
    close(x.cuda().sum(dim=(0, 2), keepdim=True), x.sum(dim=(0, 2), keepdim=True), tol=1e-4)
    close(x.cuda().max(), x.max())
    close(x.cuda().min(), x.min())
    close(x.cuda().amax(dim=2), x.amax(dim=2))
    close(x.cuda().amin(dim=(0, 1)), x.amin(dim=(0, 1)))
    close(x.cuda().mean(), x.mean(), tol=1e-4)
    close(x.cuda().mean(dim=0), x.mean(dim=0), tol=1e-4)
    i = torch.arange(24, dtype=torch.int32).reshape(4, 6)
    close(i.cuda().sum(), i.sum())
    close(i.cuda().sum(dim=0), i.sum(dim=0))
    close(i.cuda().max(), i.max())
    n = torch.tensor([1.0, float('nan'), 3.0])
    close(n.cuda().max(), n.max())
    big = torch.rand(1 << 20)
    close(big.cuda().sum(), big.sum(), tol=1e-3)


@gpu
def test_matmul():
    for dtype, tol in ((torch.float32, 1e-4), (torch.float64, 1e-10)):
        m, n = torch.randn(33, 17, dtype=dtype), torch.randn(17, 9, dtype=dtype)
        close(m.cuda() @ n.cuda(), m @ n, tol=tol)
        close(torch.mm(m.t().contiguous().cuda().t(), n.cuda()), m @ n, tol=tol)
        x, y = torch.randn(3, 8, 6, dtype=dtype), torch.randn(3, 6, 5, dtype=dtype)
        close(torch.bmm(x.cuda(), y.cuda()), torch.bmm(x, y), tol=tol)


@gpu
def test_mixing_devices_in_every_kind_of_op():
    g, c = torch.ones(2, 2).cuda(), torch.ones(2, 2)
    for f in (lambda: g * c, lambda: torch.mm(g, c), lambda: torch.where(g > 0, g, c), lambda: torch.maximum(c, g)):
        with pytest.raises(RuntimeError, match='Expected all tensors to be on the same device'):
            f()


@gpu
def test_memory_stats_and_oom():
    torch.cuda.empty_cache()
    torch.cuda.reset_peak_memory_stats()
    base = torch.cuda.memory_allocated()
    xs = [torch.empty(1 << 18, device='cuda') for _ in range(4)]
    assert torch.cuda.max_memory_allocated() >= base + 4 * (1 << 20)
    del xs
    s = torch.cuda.memory_stats()
    assert s['allocated_bytes.all.current'] == base and s['num_allocs'] >= 4
    before = s['num_cache_hits']
    y = torch.empty(1 << 18, device='cuda')
    assert torch.cuda.memory_stats()['num_cache_hits'] == before + 1
    del y
    total = torch.cuda.get_device_properties(0).total_memory
    with pytest.raises(torch.cuda.OutOfMemoryError, match=r'CUDA out of memory\. Tried to allocate .* GPU 0 has a '
                       r'total capacity of'):
        torch.empty(total * 2, dtype=torch.uint8, device='cuda')
    assert issubclass(torch.cuda.OutOfMemoryError, RuntimeError)
    assert torch.cuda.memory_stats()['num_ooms'] >= 1
    z = torch.ones(3, device='cuda')  # the allocator still works after an OOM
    close(z, torch.ones(3))


@gpu
def test_allocator_splits_and_merges_large_blocks():
    torch.cuda.empty_cache()
    base_reserved = torch.cuda.memory_reserved()
    mib = 1 << 18  # float32 elements in 1 MiB
    x = torch.empty(8 * mib, device='cuda')
    reserved = torch.cuda.memory_reserved()
    assert 8 << 20 <= reserved - base_reserved < 9 << 20  # one 8 MiB segment (and small blocks, if any)
    del x
    s0 = torch.cuda.memory_stats()
    a = torch.empty(3 * mib, device='cuda')  # carved from the free 8 MiB segment: no new cudaMalloc
    b = torch.empty(4 * mib, device='cuda')
    s1 = torch.cuda.memory_stats()
    assert torch.cuda.memory_reserved() == reserved
    assert s1['num_splits'] == s0['num_splits'] + 2 and s1['num_cache_hits'] == s0['num_cache_hits'] + 2
    a.fill_(1.0)
    b.fill_(2.0)
    assert a.sum().item() == 3 * mib and b.sum().item() == 8 * mib
    del a, b
    s2 = torch.cuda.memory_stats()
    assert s2['num_merges'] >= s1['num_merges'] + 2  # the segment is one free block again
    c = torch.empty(8 * mib, device='cuda')  # the merged segment again (small temporaries of sum may add)
    assert torch.cuda.memory_reserved() - reserved < 1 << 20
    assert torch.cuda.memory_stats()['segment.large_pool.current'] == s0['segment.large_pool.current']
    del c
    torch.cuda.empty_cache()
    assert torch.cuda.memory_reserved() == torch.cuda.memory_allocated()


@gpu
def test_per_stream_pools():
    torch.cuda.empty_cache()
    s = torch.cuda.Stream()
    x = torch.empty(1000, device='cuda')
    ptr = x.data_ptr()
    del x
    with torch.cuda.stream(s):
        y = torch.empty(1000, device='cuda')  # another stream: not the block just freed on the default one
        assert y.data_ptr() != ptr
    z = torch.empty(1000, device='cuda')
    assert z.data_ptr() == ptr  # the default stream's pool hands it back
    s.synchronize()
    del y


@gpu
def test_streams_and_events():
    s = torch.cuda.Stream()
    assert torch.cuda.current_stream() == torch.cuda.default_stream()
    assert torch.cuda.default_stream().cuda_stream == 0
    x = torch.randn(1 << 20)
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    with torch.cuda.stream(s):
        assert torch.cuda.current_stream() == s
        start.record()
        d = x.cuda()
        for _ in range(10):
            d = d * 1.0001 + 0.5
        end.record()
    assert torch.cuda.current_stream() == torch.cuda.default_stream()
    end.synchronize()
    assert end.query() and s.query()
    assert start.elapsed_time(end) > 0
    torch.cuda.current_stream().wait_stream(s)
    ref = x.clone()
    for _ in range(10):
        ref = ref * 1.0001 + 0.5
    close(d, ref, tol=1e-4)
    e = torch.cuda.Event()
    e.record(s)
    e.wait()
    s.synchronize()
    with pytest.raises(RuntimeError, match='enable_timing'):
        e.elapsed_time(end)


@gpu
def test_pinned_and_non_blocking():
    x = torch.randn(1000, 10)
    assert not x.is_pinned()
    p = x.pin_memory()
    assert p.is_pinned() and torch.equal(p, x)
    d = p.to('cuda', non_blocking=True)
    torch.cuda.synchronize()
    close(d, x)
    s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        d2 = p.cuda(non_blocking=True) * 2
        back = d2.cpu()
    close(d2, x * 2)
    assert torch.equal(back, x * 2)
    t = torch.tensor([1.0, 2.0], pin_memory=True)
    assert t.is_pinned()
