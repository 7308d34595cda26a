"""The GIL is released around long kernels (tc_set_long_kernel_hooks), so Python threads run ops in
parallel, and everything the core calls back into Python takes the GIL back.

Overlap is observed, not timed: with the switch interval at 100 s the interpreter never takes the GIL
from a running thread, so a second thread (which gives the GIL up after each step, in time.sleep(0))
can only run while the first one has released it. A counter that the second thread advances moves
during a call exactly when that call released the GIL."""
import os
import subprocess
import sys
import textwrap
import threading
import time
import warnings

import pytest
import torch

from conftest import TEST_PLUGIN_DIR


class Spinner:
    """A thread that counts while it holds the GIL, giving it up after each step."""

    def __init__(self):
        self.count = 0
        self.stop = False
        self.thread = threading.Thread(target=self.run)

    def run(self):
        while not self.stop:
            self.count += 1
            time.sleep(0)

    def __enter__(self):
        self.interval = sys.getswitchinterval()
        sys.setswitchinterval(100)
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop = True
        self.thread.join()
        sys.setswitchinterval(self.interval)


def calls_that_let_python_run(fn, calls):
    """How many of `calls` calls of fn let another Python thread run meanwhile."""
    fn()  # warm-up: caches, lazy plugin state
    with Spinner() as s:
        moved = 0
        for _ in range(calls):
            before = s.count
            fn()
            moved += s.count != before
    return moved


@pytest.fixture
def one_thread():
    n = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(n)


N = 1 << 23  # 8M float32: a few milliseconds per pass


def test_long_elementwise_ops_release_the_gil(one_thread):
    a, b, c = torch.ones(N), torch.ones(N), torch.empty(N)
    # each call takes milliseconds; the other thread only has to wake up once in 40 of them
    assert calls_that_let_python_run(lambda: torch.add(a, b, out=c), 40) > 0
    assert calls_that_let_python_run(lambda: a.sum(), 40) > 0         # a reduction: a 0-dim result
    assert calls_that_let_python_run(lambda: a * 2, 40) > 0           # a fresh result
    assert c.eq(2).all()


def test_matrix_products_release_the_gil(one_thread):
    m = torch.ones(384, 384)
    assert calls_that_let_python_run(lambda: m @ m, 40) > 0


def test_small_ops_keep_the_gil():
    a, b = torch.ones(1), torch.ones(1)
    m = torch.ones(8, 8)

    def many():
        for _ in range(200):
            a + b
            m @ m
            a.sum()
    # nothing releases the GIL here, so the other thread never runs: deterministic
    assert calls_that_let_python_run(many, 20) == 0


def test_two_threads_run_long_kernels_at_the_same_time(one_thread):
    """Each thread stamps its calls; with the GIL held through kernels (and no forced switches) the
    two threads' calls could never overlap in time."""
    n = 1 << 22
    data = [(torch.full((n,), float(i)), torch.ones(n), torch.empty(n)) for i in range(2)]
    spans = [[], []]
    start = threading.Barrier(2)

    def work(i):
        a, b, c = data[i]
        start.wait()
        for _ in range(30):
            t0 = time.perf_counter()
            torch.add(a, b, out=c)
            spans[i].append((t0, time.perf_counter()))

    interval = sys.getswitchinterval()
    sys.setswitchinterval(100)
    try:
        threads = [threading.Thread(target=work, args=(i,)) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    overlapping = sum(1 for s0, e0 in spans[0] for s1, e1 in spans[1] if s0 < e1 and s1 < e0)
    assert overlapping > 0
    assert data[0][2].eq(1).all() and data[1][2].eq(2).all()


def test_results_are_right_when_threads_share_inputs(one_thread):
    x = torch.arange(N, dtype=torch.float32)
    outs = [None] * 4

    def work(i):
        outs[i] = [(x * i + 1).sum().item() for _ in range(5)]

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for i in range(4):
        assert len(set(outs[i])) == 1 and outs[i][0] == (x * i + 1).sum().item()


def run_threads(target, n):
    """Runs target(i) on n threads, recording the warnings they raise (catch_warnings is not
    thread-safe: it is entered once, around all of them)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        threads = [threading.Thread(target=target, args=(i,)) for i in range(n)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    return [str(w.message) for w in caught]


def test_warnings_from_long_ops_arrive_in_every_thread():
    a, b = torch.ones(1 << 20), torch.ones(1 << 20)
    outs = [torch.empty(3) for _ in range(3)]

    def work(i):
        torch.add(a, b, out=outs[i])  # resized out=: PyTorch's UserWarning
    messages = run_threads(work, 3)
    assert sum('was resized' in m for m in messages) == 3, messages
    assert all(o.shape == (1 << 20,) and o.eq(2).all() for o in outs)


def test_python_impl_registered_with_torch_library_on_large_tensors():
    lib = torch.library.Library('giltest', 'DEF')
    lib.define('twice(Tensor x) -> Tensor')
    seen = []

    def twice(x):
        seen.append(threading.get_ident())
        warnings.warn('giltest.twice ran')
        return x * 2 + x.sum() * 0  # long kernels inside a Python impl

    lib.impl('twice', twice, 'CPU')
    x = torch.ones(1 << 21)
    results = [None] * 3

    def work(i):
        results[i] = torch.ops.giltest.twice(x * (i + 1))
    messages = run_threads(work, 3)
    for i, r in enumerate(results):
        assert r.eq(2 * (i + 1)).all()
    assert messages.count('giltest.twice ran') == 3
    assert len(seen) == 3


def test_python_impl_called_from_inside_a_long_kernel():
    """gilrelay::relay's C kernel calls gilrelay::py_side (Python) while the GIL is released around it:
    the Python implementation takes the GIL back, warns, raises, and runs long ops itself."""
    path = os.path.join(TEST_PLUGIN_DIR, 'gil_relay', 'libtest_gil_relay.so')
    if not os.path.exists(path):
        pytest.fail('test plugin %s was not built (run scons test)' % path)
    code = textwrap.dedent('''
        import json, threading, warnings, torch
        torch.ops.load_library(%r)
        lib = torch.library.Library('gilrelay', 'FRAGMENT')
        lib.define('py_side(Tensor x) -> Tensor')
        def py_side(x):
            warnings.warn('py_side on %%d elements' %% x.numel())
            if x.numel() == 3:
                raise ValueError('py_side refuses 3 elements')
            return x * 3 + x.sum() * 0
        lib.impl('py_side', py_side, 'CPU')
        big = torch.arange(1 << 20, dtype=torch.float32)
        out = {}
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter('always')
            out['big'] = torch.ops.gilrelay.relay(big).equal(big * 3)
            out['small'] = torch.ops.gilrelay.relay(torch.ones(2)).tolist()
            out['warnings'] = sorted(str(m.message) for m in w)
        try:
            torch.ops.gilrelay.relay(torch.ones(3))
        except ValueError as e:
            out['error'] = str(e)
        res = [None] * 2
        def work(i):
            res[i] = torch.ops.gilrelay.relay(big + i).equal((big + i) * 3)
        ts = [threading.Thread(target=work, args=(i,)) for i in range(2)]
        for t in ts: t.start()
        for t in ts: t.join()
        out['threads'] = res
        print(json.dumps(out))
    ''' % path)
    proc = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    out = __import__('json').loads(proc.stdout.strip().splitlines()[-1])
    assert out['big'] is True and out['small'] == [3.0, 3.0]
    assert out['warnings'] == ['py_side on 1048576 elements', 'py_side on 2 elements']
    assert out['error'] == 'py_side refuses 3 elements'
    assert out['threads'] == [True, True]


def test_autograd_hooks_and_custom_functions_on_large_tensors(one_thread):
    calls = []

    class Square(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):
            x, = ctx.saved_tensors
            calls.append('backward')
            return 2 * x * g

    def pack(t):
        calls.append('pack')
        return t

    def unpack(t):
        calls.append('unpack')
        return t

    x = torch.full((1 << 20,), 3.0, requires_grad=True)
    x.register_hook(lambda g: calls.append('hook') or g * 1)
    with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
        y = (Square.apply(x) * x.exp()).sum()
    y.backward()
    assert {'backward', 'hook', 'pack', 'unpack'} <= set(calls)
    expected = (2 * 3.0 + 9.0) * torch.tensor(3.0).exp()
    assert torch.allclose(x.grad, expected.expand(1 << 20))


def test_list_arguments_stay_alive_while_the_gil_is_released():
    """torch.cat(list): another thread replaces the list's tensors, dropping the last references to the
    old ones, while cat's kernel runs without the GIL; the call keeps references of its own. With the
    block cache off, a freed tensor's memory is unmapped at once: reading it would crash."""
    code = textwrap.dedent('''
        import threading, time, torch
        torch.set_num_threads(1)
        n = 1 << 20
        parts = [torch.full((n,), float(i)) for i in range(4)]
        expected = torch.cat(parts)
        stop = False
        def meddle():
            while not stop:
                for i in range(4):
                    parts[i] = torch.full((n,), float(i))
                time.sleep(0)
        t = threading.Thread(target=meddle)
        t.start()
        try:
            for _ in range(100):
                assert torch.cat(parts).equal(expected)
                assert torch.stack(parts).view(-1).equal(expected)
                assert torch.cat(parts, out=torch.empty(4 * n)).equal(expected)
        finally:
            stop = True
            t.join()
        print('ok')
    ''')
    env = dict(os.environ, TORCH_CPU_CACHE_LIMIT_MB='0')
    proc = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, timeout=120, env=env)
    assert proc.returncode == 0 and proc.stdout.strip() == 'ok', (proc.returncode, proc.stderr)


def test_fork_while_another_thread_runs_long_kernels():
    """os.fork() from one thread while another allocates and computes without the GIL: the child finds
    the allocator (and the thread pool) usable."""
    code = textwrap.dedent('''
        import os, threading, torch
        stop = False
        def churn():
            while not stop:
                x = torch.ones(1 << 21) + torch.ones(1 << 21)   # large blocks, long kernels
                del x
        t = threading.Thread(target=churn)
        t.start()
        try:
            for _ in range(30):
                pid = os.fork()
                if pid == 0:
                    y = (torch.ones(1 << 21) * 2).sum().item() + torch.ones(3).sum().item()
                    os._exit(0 if y == 2 * (1 << 21) + 3 else 1)
                _, status = os.waitpid(pid, 0)
                assert status == 0, status
        finally:
            stop = True
            t.join()
        print('ok')
    ''')
    proc = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0 and proc.stdout.strip() == 'ok', proc.stderr


def test_out_given_as_a_list():
    """out=[...] binds a tuple the call makes of the list (another thread may change the list meanwhile):
    the results are the list's tensors, and a mistake is still described as the list it is."""
    x = torch.arange(6.0).view(2, 3)
    outs = [torch.empty(0), torch.empty(0, dtype=torch.long)]
    values, indices = torch.max(x, 1, out=outs)
    assert values is outs[0] and indices is outs[1]
    assert values.tolist() == [2.0, 5.0] and indices.tolist() == [2, 2]
    with pytest.raises(TypeError, match='not list'):
        torch.max(x, 1, out=[torch.empty(0)])
