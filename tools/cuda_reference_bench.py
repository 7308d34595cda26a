"""The reference PyTorch's figures for the rows test_cuda.c measures (run on the GPU machine with the
PyTorch installed there): add and sum of 256M float32, mm 4096^3 in float32 and float64, and the add
of 1-element tensors (from Python, so it includes PyTorch's Python overhead: an upper bound)."""
import time

import torch

assert torch.cuda.is_available()
print('reference: torch %s, %s' % (torch.__version__, torch.cuda.get_device_name(0)))


def timed(fn, reps):
    fn()
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(reps):
        fn()
    torch.cuda.synchronize()
    return (time.perf_counter() - t0) / reps


n = 64 << 20
h = torch.ones(n)
print('reference: host->device (pageable) %.1f GB/s' % (n * 4 / timed(lambda: h.to('cuda'), 5) / 1e9))
d = h.to('cuda')
print('reference: device->host (pageable) %.1f GB/s' % (n * 4 / timed(lambda: d.to('cpu'), 5) / 1e9))
big = 256 << 20
a = torch.ones(big, device='cuda')
b = torch.ones(big, device='cuda')
t = timed(lambda: torch.add(a, b, alpha=1), 10)
print('reference: add of 256M float32: %.3f ms, %.0f GB/s' % (t * 1e3, big * 12 / t / 1e9))
t = timed(lambda: a.sum(), 10)
print('reference: sum of 256M float32: %.3f ms, %.0f GB/s' % (t * 1e3, big * 4 / t / 1e9))
del a, b
s = torch.ones(1, device='cuda')
t = timed(lambda: torch.add(s, s, alpha=1), 10000)
print('reference: add of 1-element tensors: %.2f us per op (from Python)' % (t * 1e6))
torch.backends.cuda.matmul.allow_tf32 = False
for dt in (torch.float32, torch.float64):
    m = torch.ones(4096, 4096, device='cuda', dtype=dt)
    t = timed(lambda: torch.mm(m, m), 10)
    print('reference: mm %s 4096^3: %.3f ms, %.1f TFLOP/s' % (str(dt).replace('torch.', ''), t * 1e3,
                                                               2 * 4096.0 ** 3 / t / 1e12))
