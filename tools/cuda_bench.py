"""Second-cut CUDA rows, run the same way with this project's torch and with a reference PyTorch
(whichever `import torch` finds): unary, comparison, where, clamp, maximum on 256M float32, max and
mean reductions, pinned vs pageable host->device copies, and a 1-element add from Python. Prints
`LABEL: row: figures` lines; LABEL is argv[1] (default: the torch version)."""
import sys
import time

import torch

assert torch.cuda.is_available()
label = sys.argv[1] if len(sys.argv) > 1 else 'torch ' + torch.__version__


def timed(fn, reps):
    fn()
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(reps):
        fn()
    torch.cuda.synchronize()
    return (time.perf_counter() - t0) / reps


def row(name, seconds, nbytes=None):
    extra = ', %.0f GB/s' % (nbytes / seconds / 1e9) if nbytes else ''
    print('%s: %s: %.3f ms%s' % (label, name, seconds * 1e3, extra), flush=True)


n = 256 << 20
a = torch.ones(n, device='cuda') * 0.5
b = torch.ones(n, device='cuda') * 0.25
c = a > b
for name, fn, moved in [('exp', lambda: torch.exp(a), 8), ('relu', lambda: torch.relu(a), 8),
                        ('sigmoid', lambda: torch.sigmoid(a), 8), ('gt', lambda: a > b, 9),
                        ('maximum', lambda: torch.maximum(a, b), 12), ('where', lambda: torch.where(c, a, b), 13),
                        ('clamp', lambda: torch.clamp(a, -0.1, 0.1), 8), ('max (all)', lambda: a.max(), 4),
                        ('mean (all)', lambda: a.mean(), 4)]:
    row('%s of 256M float32' % name, timed(fn, 10), moved * n)
del c
m = 64 << 20
h = torch.ones(m)
row('host->device 256 MiB pageable', timed(lambda: h.to('cuda'), 5), 4 * m)
p = h.pin_memory()
row('host->device 256 MiB pinned, non_blocking', timed(lambda: p.to('cuda', non_blocking=True), 5), 4 * m)
s = torch.cuda.Stream()
start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
with torch.cuda.stream(s):
    start.record()
    for _ in range(10):
        torch.exp(a)
    end.record()
end.synchronize()
print('%s: exp of 256M float32 on a side stream, by events: %.3f ms' % (label, start.elapsed_time(end) / 10))
x, y = torch.ones(1, device='cuda'), torch.ones(1, device='cuda')
t = timed(lambda: torch.add(x, y), 2000)
print('%s: add of 1-element tensors from Python: %.2f us per op' % (label, t * 1e6))
