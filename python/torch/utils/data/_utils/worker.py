"""The worker processes of a DataLoader: each seeds its generators (base_seed + worker id, as PyTorch),
then loops: take (task id, indices) from its index queue, fetch and collate, put (task id, batch or the
exception) on the shared result queue. None on the index queue ends it; so does its parent's death."""
import os
import queue
import random
from dataclasses import dataclass

import torch
from torch.utils.data._utils import MP_STATUS_CHECK_INTERVAL, ExceptionWrapper, signal_handling

__all__ = ['WorkerInfo', 'get_worker_info']


class ManagerWatchdog:
    """Whether the process that started this worker is still alive (a dead parent re-parents us)."""

    def __init__(self):
        self.manager_pid = os.getppid()
        self.manager_dead = False

    def is_alive(self):
        if not self.manager_dead:
            self.manager_dead = os.getppid() != self.manager_pid
        return not self.manager_dead


_worker_info = None


class WorkerInfo:
    """What get_worker_info() returns in a worker: id, num_workers, seed, dataset (read-only)."""

    __initialized = False

    def __init__(self, **kwargs):
        for k, v in kwargs.items():
            setattr(self, k, v)
        self.__keys = tuple(kwargs.keys())
        self.__initialized = True

    def __setattr__(self, key, val):
        if self.__initialized:
            raise RuntimeError("Cannot assign attributes to {} objects".format(self.__class__.__name__))
        return super().__setattr__(key, val)

    def __repr__(self):
        return '{}({})'.format(type(self).__name__, ', '.join('{}={}'.format(k, getattr(self, k)) for k in self.__keys))


def get_worker_info():
    """In a DataLoader worker, its WorkerInfo; None in the main process."""
    return _worker_info


@dataclass(frozen=True)
class _IterableDatasetStopIteration:
    """A worker's iterable dataset is exhausted."""
    worker_id: int


@dataclass(frozen=True)
class _ResumeIteration:
    """Persistent workers: start the next epoch."""
    seed: object = None


def _generate_state(base_seed, worker_id):
    """numpy's seed for a worker: PyTorch's four 32-bit words mixed from (worker_id, base_seed), the
    hashing of numpy's SeedSequence, so that workers' numpy streams differ as PyTorch's do."""
    INIT_A, MULT_A = 0x43b0d7e5, 0x931e8875
    INIT_B, MULT_B = 0x8b51f9dd, 0x58f38ded
    MIX_MULT_L, MIX_MULT_R = 0xca01f9dd, 0x4973f715
    XSHIFT = 4 * 8 // 2
    MASK32 = 0xFFFFFFFF
    entropy = [worker_id, base_seed & MASK32, base_seed >> 32, 0]
    hash_const_a = INIT_A

    def hash_(value):
        nonlocal hash_const_a
        value = (value ^ hash_const_a) & MASK32
        hash_const_a = (hash_const_a * MULT_A) & MASK32
        value = (value * hash_const_a) & MASK32
        return (value ^ (value >> XSHIFT)) & MASK32

    def mix(x, y):
        result = ((MIX_MULT_L * x) & MASK32) - ((MIX_MULT_R * y) & MASK32) & MASK32
        return (result ^ (result >> XSHIFT)) & MASK32

    pool = [hash_(e) for e in entropy]
    for i_src in range(4):
        for i_dst in range(4):
            if i_src != i_dst:
                pool[i_dst] = mix(pool[i_dst], hash_(pool[i_src]))
    hash_const_b = INIT_B
    state = []
    for value in pool:
        value = (value ^ hash_const_b) & MASK32
        hash_const_b = (hash_const_b * MULT_B) & MASK32
        value = (value * hash_const_b) & MASK32
        state.append((value ^ (value >> XSHIFT)) & MASK32)
    return state


def _worker_loop(dataset_kind, dataset, index_queue, data_queue, done_event, auto_collation, collate_fn, drop_last,
                 base_seed, init_fn, worker_id, num_workers, persistent_workers, shared_seed):
    from torch.utils.data.dataloader import _DatasetKind
    try:
        signal_handling._set_worker_signal_handlers()
        torch.set_num_threads(1)
        seed = base_seed + worker_id
        random.seed(seed)
        torch.manual_seed(seed)
        try:
            import numpy as np
            np.random.seed(_generate_state(base_seed, worker_id))
        except ImportError:
            pass
        global _worker_info
        _worker_info = WorkerInfo(id=worker_id, num_workers=num_workers, seed=seed, dataset=dataset)

        init_exception = None
        try:
            if init_fn is not None:
                init_fn(worker_id)
            fetcher = _DatasetKind.create_fetcher(dataset_kind, dataset, auto_collation, collate_fn, drop_last)
        except Exception:
            init_exception = ExceptionWrapper(where="in DataLoader worker process {}".format(worker_id))

        # iteration_end: an iterable dataset ran out; the worker waits for None (or a resume)
        iteration_end = False
        watchdog = ManagerWatchdog()
        while watchdog.is_alive():
            try:
                r = index_queue.get(timeout=MP_STATUS_CHECK_INTERVAL)
            except queue.Empty:
                continue
            if isinstance(r, _ResumeIteration):
                data_queue.put((r, None))
                iteration_end = False
                fetcher = _DatasetKind.create_fetcher(dataset_kind, dataset, auto_collation, collate_fn, drop_last)
                continue
            if r is None:
                assert done_event.is_set() or iteration_end
                break
            if done_event.is_set() or iteration_end:
                continue  # draining: the main process no longer wants results
            idx, index = r
            if init_exception is not None:
                data = init_exception
                init_exception = None
            else:
                try:
                    data = fetcher.fetch(index)
                except Exception as e:
                    if isinstance(e, StopIteration) and dataset_kind == _DatasetKind.Iterable:
                        data = _IterableDatasetStopIteration(worker_id)
                        iteration_end = True
                    else:
                        data = ExceptionWrapper(where="in DataLoader worker process {}".format(worker_id))
            data_queue.put((idx, data))
            del data, idx, index, r  # the batch is freed now, not when the next one replaces it
    except KeyboardInterrupt:
        pass  # the main process gets the interrupt too and shuts the workers down
    if done_event.is_set():
        data_queue.cancel_join_thread()
        data_queue.close()
