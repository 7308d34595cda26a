"""torch.multiprocessing: a drop-in for multiprocessing whose Queues, SimpleQueues, Pipes and Pools move
tensors through shared memory (both sharing strategies), in-place share_memory_, spawn/start_processes
and their exceptions, and what happens when a process dies mid-transfer or a limit is met. Children are
forked (spawn costs an `import torch` each) except where spawn itself is under test; every wait has a
timeout."""
import gc
import multiprocessing
import os
import pickle
import resource
import signal
import time

import pytest
import torch
import torch.multiprocessing as mp

STRATEGIES = ['file_descriptor', 'file_system']
T = 20  # seconds any one wait may take


@pytest.fixture(params=STRATEGIES)
def strategy(request):
    before = mp.get_sharing_strategy()
    mp.set_sharing_strategy(request.param)
    yield request.param
    mp.set_sharing_strategy(before)


def fork():
    return mp.get_context('fork')


def torch_segments(pid=None):
    prefix = 'torch_%d_' % pid if pid else 'torch_'
    return [n for n in os.listdir('/dev/shm') if n.startswith(prefix)]


def open_fds():
    return len(os.listdir('/proc/self/fd'))


def segment_fds():
    """The descriptors of shared-memory segments this process holds."""
    held = []
    for fd in os.listdir('/proc/self/fd'):
        try:
            target = os.readlink('/proc/self/fd/' + fd)
        except OSError:
            continue
        if 'torch_shm' in target or '/dev/shm/torch_' in target:
            held.append(target)
    return held


def test_drop_in_for_multiprocessing():
    for name in multiprocessing.__all__:
        assert hasattr(mp, name), name
    assert set(multiprocessing.__all__) <= set(mp.__all__)
    assert {'set_sharing_strategy', 'get_sharing_strategy', 'get_all_sharing_strategies'} <= set(mp.__all__)
    assert isinstance(mp.get_context('spawn'), multiprocessing.context.BaseContext)
    assert mp.get_all_sharing_strategies() == {'file_descriptor', 'file_system'}
    assert mp.get_sharing_strategy() == 'file_descriptor'
    with pytest.raises(AssertionError):
        mp.set_sharing_strategy('carrier_pigeon')
    assert mp.get_sharing_strategy() == 'file_descriptor'
    for name in ('spawn', 'start_processes', 'ProcessContext', 'ProcessRaisedException', 'ProcessExitedException'):
        assert hasattr(mp, name)


def test_share_memory_in_place(strategy):
    t = torch.arange(6.)
    view = t[2:]
    storage = t.storage()
    assert not t.is_shared() and not storage.is_shared()
    assert t.share_memory_() is t
    assert t.is_shared() and view.is_shared() and storage.is_shared()
    assert t.tolist() == [0., 1., 2., 3., 4., 5.]
    view[0] = 7  # the view follows its storage to the new memory
    assert t[2].item() == 7
    assert t.storage()._cdata == storage._cdata
    t.share_memory_()  # already shared: nothing moves
    s = torch.FloatStorage([1, 2, 3])
    assert s.share_memory_() is s and s.is_shared() and s.tolist() == [1., 2., 3.]
    empty = torch.empty(0).share_memory_()
    assert empty.is_shared() and empty.numel() == 0
    if strategy == 'file_system':
        assert len(torch_segments(os.getpid())) >= 2
        del t, view, storage, s, empty
        gc.collect()
        assert torch_segments(os.getpid()) == []  # the last reference unlinks the name


def test_module_share_memory():
    m = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.BatchNorm1d(2))
    params = list(m.parameters())
    values = [p.detach().clone() for p in params]
    assert m.share_memory() is m
    assert all(p is q for p, q in zip(params, m.parameters()))
    assert all(p.is_shared() for p in m.parameters()) and all(b.is_shared() for b in m.buffers())
    assert all(torch.equal(p, v) for p, v in zip(m.parameters(), values))
    assert all(p.requires_grad for p in m.parameters())


def _add_one_and_return(q, r, done):
    t = q.get(timeout=T)
    t.add_(1)
    r.put(t)
    mine = torch.full((3,), 5.)
    r.put(mine)
    done.wait(T)  # the parent writes into `mine` meanwhile
    r.put(mine.tolist())
    done.clear()
    done.wait(T)  # a sender lives until what it sent is received


def test_queue_shares_both_ways(strategy):
    ctx = fork()
    q, r, done = ctx.Queue(), ctx.Queue(), ctx.Event()
    p = ctx.Process(target=_add_one_and_return, args=(q, r, done))
    p.start()
    x = torch.zeros(4)
    q.put(x)
    back = r.get(timeout=T)
    assert x.tolist() == [1., 1., 1., 1.]  # written by the child, seen here
    assert back.storage()._cdata == x.storage()._cdata  # came back as the same storage
    theirs = r.get(timeout=T)
    theirs.mul_(2)
    done.set()
    assert r.get(timeout=T) == [10., 10., 10.]  # written here, seen by the child
    done.set()
    p.join(T)
    assert p.exitcode == 0


def _echo_kinds(conn):
    for _ in range(4):
        obj = conn.recv()
        conn.send((type(obj).__name__, getattr(obj, 'requires_grad', None)))
        if isinstance(obj, torch.Tensor):
            obj.detach().fill_(3)
    conn.close()


def test_pipe_keeps_types_and_requires_grad(strategy):
    ctx = fork()
    here, there = ctx.Pipe()
    p = ctx.Process(target=_echo_kinds, args=(there,))
    p.start()
    param = torch.nn.Parameter(torch.zeros(2))
    leaf = torch.zeros(2, requires_grad=True)
    storage = torch.UntypedStorage(8)
    here.send(param)
    assert here.recv() == ('Parameter', True)
    here.send(leaf)
    assert here.recv() == ('Tensor', True)
    here.send(storage)
    assert here.recv() == ('UntypedStorage', None)
    here.send(torch.DoubleStorage([1.5]))
    assert here.recv() == ('DoubleStorage', None)
    p.join(T)
    assert p.exitcode == 0
    assert param.tolist() == [3., 3.] and leaf.tolist() == [3., 3.]


def _sum_and_negate(t):
    total = t.sum().item()
    t.neg_()
    return total


def test_pool_and_simple_queue():
    ctx = fork()
    tensors = [torch.full((5,), float(i)) for i in range(4)]
    with ctx.Pool(2) as pool:
        sums = pool.map(_sum_and_negate, tensors, chunksize=1)
    assert sums == [0., 5., 10., 15.]
    assert [t[0].item() for t in tensors] == [0., -1., -2., -3.]  # the workers wrote the parent's tensors
    sq = ctx.SimpleQueue()
    t = torch.ones(2)
    sq.put(t)
    got = sq.get()
    got[0] = 9
    assert t[0].item() == 9 and t.is_shared()


def test_refusals_and_standard_errors():
    nonleaf = torch.ones(2, requires_grad=True) * 2
    with pytest.raises(RuntimeError, match='Cowardly refusing to serialize non-leaf tensor'):
        multiprocessing.reduction.ForkingPickler.dumps(nonleaf)
    nonleaf.detach()  # what the message advises travels
    multiprocessing.reduction.ForkingPickler.dumps(nonleaf.detach())

    # an unpicklable object fails as it does in the standard module
    def local():
        pass
    errors = []
    for module in (multiprocessing, mp):
        a, b = module.Pipe()
        with pytest.raises(Exception) as e:
            a.send(local)
        errors.append((type(e.value), str(e.value)))
        a.close()
        b.close()
    assert errors[0] == errors[1]
    assert issubclass(errors[0][0], (AttributeError, pickle.PicklingError))


def test_fd_exhaustion_names_the_limit():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    kept = []
    resource.setrlimit(resource.RLIMIT_NOFILE, (open_fds() + 4, hard))
    try:
        with pytest.raises(RuntimeError, match=r"RLIMIT_NOFILE.*set_sharing_strategy\('file_system'\)"):
            for _ in range(16):
                kept.append(torch.ones(4).share_memory_())
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    assert all(t.is_shared() for t in kept)


def test_shm_space_names_the_limit(strategy):
    other = 'file_descriptor' if strategy == 'file_system' else 'file_system'
    with pytest.raises(RuntimeError, match=r"no space.*set_sharing_strategy\('%s'\)" % other):
        mp._new_shared(1 << 52)
    assert torch_segments(os.getpid()) == []


def _send_forever(q):
    i = 0
    while True:
        q.put(torch.full((1 << 16,), float(i)))
        i += 1


def test_worker_killed_mid_transfer(strategy):
    ctx = fork()
    q = ctx.Queue(maxsize=8)
    p = ctx.Process(target=_send_forever, args=(q,))
    p.start()
    gc.collect()
    baseline = segment_fds()
    got = [q.get(timeout=T) for _ in range(3)]
    assert [t[0].item() for t in got] == [0., 1., 2.]
    os.kill(p.pid, signal.SIGKILL)
    p.join(T)
    assert p.exitcode == -signal.SIGKILL
    # what was in flight either arrives or fails cleanly; nothing hangs
    while True:
        try:
            got.append(q.get(timeout=0.5))
        except RuntimeError:
            continue
        except Exception:
            break
    del got
    gc.collect()
    assert segment_fds() == baseline
    deadline = time.time() + T
    while torch_segments(p.pid) and time.time() < deadline:
        time.sleep(0.05)  # the dead worker's reaper unlinks what it left
    assert torch_segments(p.pid) == []
    q.close()
    q.join_thread()


def _ok(i, path):
    with open(path + str(i), 'w') as f:
        f.write('ran %d' % i)


def _raise(i):
    if i == 1:
        raise ValueError('child %d says no' % i)
    time.sleep(T)


def _die(i):
    os.kill(os.getpid(), signal.SIGKILL)


def _exit_code(i):
    os._exit(3)


def test_start_processes_and_errors(tmp_path):
    mp.start_processes(_ok, args=(str(tmp_path / 'f'),), nprocs=2, start_method='fork')
    assert sorted(os.listdir(tmp_path)) == ['f0', 'f1']
    with pytest.raises(mp.ProcessRaisedException) as e:
        mp.start_processes(_raise, nprocs=2, start_method='fork')
    assert e.value.error_index == 1
    assert 'Process 1 terminated with the following error' in str(e.value)
    assert "ValueError: child 1 says no" in str(e.value) and 'Traceback' in str(e.value)
    with pytest.raises(mp.ProcessExitedException, match='process 0 terminated with signal SIGKILL') as e:
        mp.start_processes(_die, start_method='fork')
    assert e.value.signal_name == 'SIGKILL' and e.value.exit_code == -signal.SIGKILL
    with pytest.raises(mp.ProcessExitedException, match='process 0 terminated with exit code 3'):
        mp.start_processes(_exit_code, start_method='fork')
    ctx = mp.start_processes(_ok, args=(str(tmp_path / 'g'),), nprocs=1, join=False, start_method='fork')
    deadline = time.time() + T
    while not ctx.join(timeout=1) and time.time() < deadline:
        pass
    assert ctx.join() and len(ctx.pids()) == 1


def _fill_shared(i, t):
    t[i] = i + 1


def test_spawn_shares_with_spawned_children():
    t = torch.zeros(2).share_memory_()
    mp.spawn(_fill_shared, args=(t,), nprocs=2)
    assert t.tolist() == [1., 2.]


def _collate_and_report(batch):
    out = torch.utils.data.default_collate(batch)
    return out, out.is_shared()


def test_dataloader_batches_come_through_shared_memory():
    data = torch.arange(24.).view(12, 2)
    serial = list(torch.utils.data.DataLoader(data, batch_size=4))
    assert not any(b.is_shared() for b in serial)
    loader = torch.utils.data.DataLoader(data, batch_size=4, num_workers=2, pin_memory=True, timeout=T,
                                         multiprocessing_context='fork')
    batches = list(loader)
    assert all(torch.equal(a, b) for a, b in zip(batches, serial)) and len(batches) == 3
    assert all(b.is_shared() for b in batches)
    # the worker collates straight into shared memory (nothing is copied when the batch is sent)
    reports = list(torch.utils.data.DataLoader(data, batch_size=4, num_workers=1, collate_fn=_collate_and_report,
                                               timeout=T, multiprocessing_context='fork'))
    assert [shared for _, shared in reports] == [True, True, True]
