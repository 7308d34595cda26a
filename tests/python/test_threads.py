"""Threads and processes: torch.set_num_threads validates its argument and caps what it hands on, and a
process that ran parallel ops can fork children that run ops (DataLoader workers, multiprocessing.Pool),
which hung in OpenMP's pool before the core had its own."""
import os
import subprocess
import sys

import pytest
import torch


def run(code, timeout=120, **env):
    out = subprocess.run([sys.executable, '-c', code], env=dict(os.environ, **env), capture_output=True,
                         text=True, timeout=timeout)
    assert out.returncode == 0, (out.returncode, out.stderr[-3000:])
    return out.stdout


@pytest.fixture
def restore_threads():
    n = torch.get_num_threads()
    yield
    torch.set_num_threads(n)


@pytest.mark.parametrize('bad', [0, -1, -2 ** 40, 2 ** 31, 2 ** 40])
def test_set_num_threads_needs_a_positive_int(bad, restore_threads):
    with pytest.raises(RuntimeError, match='set_num_threads expects a positive integer'):
        torch.set_num_threads(bad)


@pytest.mark.parametrize('bad, name', [(1.5, 'float'), ('2', 'str'), (True, 'bool'), (None, 'NoneType')])
def test_set_num_threads_needs_an_int(bad, name, restore_threads):
    with pytest.raises(RuntimeError, match='set_num_threads expects an int, but got %s' % name):
        torch.set_num_threads(bad)


def test_huge_thread_count_is_accepted_and_capped():
    code = '''
import torch
torch.set_num_threads(65536)
assert torch.get_num_threads() == 65536
a = torch.ones(512, 512)
print((a @ a).sum().item(), torch.ones(3 * 2 ** 20).sum().item(), torch.backends.blas.num_threads())
threads = [int(l.split()[1]) for l in open('/proc/self/status') if l.startswith('Threads:')][0]
print(threads)
'''
    for blas in ('blis', 'openblas'):
        lines = run(code, TORCH_BLAS=blas).split('\n')
        product, total, blas_threads = lines[0].split()
        assert float(product) == 512.0 ** 3 and float(total) == 3 * 2 ** 20
        assert 1 <= int(blas_threads) <= 256
        assert int(lines[1]) <= 300, lines


def test_results_do_not_depend_on_the_thread_count(restore_threads):
    a = torch.arange(3 * 2 ** 18, dtype=torch.float64).view(768, 1024) / 1000
    ia = torch.arange(300 * 200, dtype=torch.int32).view(300, 200) % 7
    results = []
    for n in (1, 2, 3):
        torch.set_num_threads(n)
        results.append([(a + 1).sum().item(), a.sum(0).tolist()[:5], a.max(1)[1].tolist()[:5],
                        (ia @ ia.t()).sum().item(), (a[:200, :300] @ a[:300, :100]).sum().item()])
    assert results[0][3] == results[1][3] == results[2][3]
    for r in results[1:]:
        assert r[2] == results[0][2]
        assert r[0] == pytest.approx(results[0][0], rel=1e-12)
        assert r[1] == pytest.approx(results[0][1], rel=1e-12)
        assert r[4] == pytest.approx(results[0][4], rel=1e-12)


FORK = '''
import os, sys, torch
torch.set_num_threads(2)
torch.backends.blas.use(sys.argv[1])
def work():
    x = torch.ones(4 * 2 ** 20)
    a = torch.ones(256, 256)
    return [(x + 1).sum().item(), x.view(2048, 2048).sum(0)[0].item(), (a @ a)[0, 0].item()]
before = work()  # the pool's workers (and the BLAS library's, if it has any) exist now
pid = os.fork()
if pid == 0:
    ok = work() == before
    os._exit(0 if ok else 3)
_, status = os.waitpid(pid, 0)
assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, status
import multiprocessing
def task(i):
    return (torch.ones(2 ** 20) * i).sum().item() + (torch.ones(128, 128) @ torch.ones(128, 128))[0, 0].item()
with multiprocessing.get_context('fork').Pool(2) as pool:
    got = pool.map(task, range(4))
assert got == [i * 2 ** 20 + 128.0 for i in range(4)], got
print('ok', work() == before)
'''


@pytest.mark.parametrize('blas', ['blis', 'openblas'])
def test_fork_after_parallel_work(blas):
    out = subprocess.run([sys.executable, '-c', FORK, blas], capture_output=True, text=True, timeout=90)
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.strip() == 'ok True'
