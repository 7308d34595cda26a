"""DataLoader: batches of a dataset, in the main process or from worker processes.

One pass over a loader is an iterator object. It draws a base seed from the loader's generator (or the
default one) when it is made, exactly as PyTorch does, before the sampler draws anything; each worker
seeds itself with base_seed + its id. With workers, the iterator keeps prefetch_factor batches per
worker in flight: it sends (task id, indices) to the workers round-robin and returns results in task
order, whatever order they arrive in. Batches come back pickled (tensors as raw bytes, see
torch/_tensor.py). A worker's exception is raised in the main process with the worker's traceback; a
worker that dies is noticed by SIGCHLD (or, failing that, at the next status check); workers are shut
down when the iterator is exhausted, deleted or garbage-collected, or at interpreter exit.
"""
import itertools
import multiprocessing as python_multiprocessing
import multiprocessing.connection
import os
import queue
import signal
import time
import warnings

import torch
import torch.multiprocessing as multiprocessing
from torch.utils.data import _utils
from torch.utils.data._utils import ExceptionWrapper
from torch.utils.data._utils.collate import default_collate, default_convert
from torch.utils.data._utils.fetch import _IterableDatasetFetcher, _MapDatasetFetcher
from torch.utils.data._utils.worker import get_worker_info
from torch.utils.data.dataset import IterableDataset
from torch.utils.data.sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler

__all__ = ['DataLoader', 'get_worker_info', 'default_collate', 'default_convert']


# How long the main process waits on the result queue before looking at its workers again.
_POLL_INTERVAL = 0.1


def _widen_pipe(q):
    """A batch of images is hundreds of kB: a pipe of 1 MiB (Linux allows it without privileges) takes it in
    one write instead of 16 of 64 kB, each waking the other side."""
    try:
        import fcntl
        fcntl.fcntl(q._reader.fileno(), getattr(fcntl, 'F_SETPIPE_SZ', 1031), 1 << 20)
    except (OSError, AttributeError, ImportError):
        pass  # another platform, or a tighter limit: the default pipe works, in smaller pieces


class _DatasetKind:
    Map = 0
    Iterable = 1

    @staticmethod
    def create_fetcher(kind, dataset, auto_collation, collate_fn, drop_last):
        fetcher = _MapDatasetFetcher if kind == _DatasetKind.Map else _IterableDatasetFetcher
        return fetcher(dataset, auto_collation, collate_fn, drop_last)


class _InfiniteConstantSampler(Sampler):
    """The 'indices' of an iterable dataset: None forever (its fetcher ignores them)."""

    def __init__(self):
        super().__init__(None)

    def __iter__(self):
        while True:
            yield None


class DataLoader:
    """Iterates over `dataset` in batches (see the module's docstring and PyTorch's documentation for the
    options; pin_memory is accepted and has no effect without CUDA)."""

    __initialized = False

    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None, num_workers=0,
                 collate_fn=None, pin_memory=False, drop_last=False, timeout=0, worker_init_fn=None,
                 multiprocessing_context=None, generator=None, *, prefetch_factor=2, persistent_workers=False,
                 pin_memory_device=""):
        if num_workers < 0:
            raise ValueError('num_workers option should be non-negative; use num_workers=0 to disable '
                             'multiprocessing.')
        if timeout < 0:
            raise ValueError('timeout option should be non-negative')
        if num_workers == 0 and prefetch_factor != 2:
            raise ValueError('prefetch_factor option could only be specified in multiprocessing.'
                             'let num_workers > 0 to enable multiprocessing.')
        assert prefetch_factor > 0
        if persistent_workers and num_workers == 0:
            raise ValueError('persistent_workers option needs num_workers > 0')
        self.dataset = dataset
        self.num_workers = num_workers
        self.prefetch_factor = prefetch_factor
        self.pin_memory = pin_memory
        self.pin_memory_device = pin_memory_device
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.multiprocessing_context = multiprocessing_context

        if isinstance(dataset, IterableDataset):
            self._dataset_kind = _DatasetKind.Iterable
            if shuffle not in {False, None}:
                raise ValueError("DataLoader with IterableDataset: expected unspecified shuffle option, but got "
                                 "shuffle={}".format(shuffle))
            if sampler is not None:
                raise ValueError("DataLoader with IterableDataset: expected unspecified sampler option, but got "
                                 "sampler={}".format(sampler))
            if batch_sampler is not None:
                raise ValueError("DataLoader with IterableDataset: expected unspecified batch_sampler option, but got "
                                 "batch_sampler={}".format(batch_sampler))
        else:
            shuffle = bool(shuffle)
            self._dataset_kind = _DatasetKind.Map
        if sampler is not None and shuffle:
            raise ValueError('sampler option is mutually exclusive with shuffle')
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError('batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, and '
                                 'drop_last')
            batch_size = None
            drop_last = False
        elif batch_size is None and drop_last:
            raise ValueError('batch_size=None option disables auto-batching and is mutually exclusive with drop_last')

        if sampler is None:
            if self._dataset_kind == _DatasetKind.Iterable:
                sampler = _InfiniteConstantSampler()
            elif shuffle:
                sampler = RandomSampler(dataset, generator=generator)
            else:
                sampler = SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.generator = generator
        if collate_fn is None:
            collate_fn = default_collate if self._auto_collation else default_convert
        self.collate_fn = collate_fn
        self.persistent_workers = persistent_workers
        self.__initialized = True
        self._IterableDataset_len_called = None
        self._iterator = None
        self.check_worker_number_rationality()

    def _get_iterator(self):
        if self.num_workers == 0:
            return _SingleProcessDataLoaderIter(self)
        self.check_worker_number_rationality()
        return _MultiProcessingDataLoaderIter(self)

    @property
    def multiprocessing_context(self):
        return self.__multiprocessing_context

    @multiprocessing_context.setter
    def multiprocessing_context(self, context):
        if context is not None:
            if self.num_workers <= 0:
                raise ValueError('multiprocessing_context can only be used with multi-process loading (num_workers > '
                                 '0), but got num_workers={}'.format(self.num_workers))
            if isinstance(context, str):
                methods = multiprocessing.get_all_start_methods()
                if context not in methods:
                    raise ValueError('multiprocessing_context option should specify a valid start method in {!r}, but '
                                     'got multiprocessing_context={!r}'.format(methods, context))
                context = multiprocessing.get_context(context)
            if not isinstance(context, python_multiprocessing.context.BaseContext):
                raise TypeError('multiprocessing_context option should be a valid context object or a string '
                                'specifying the start method, but got multiprocessing_context={}'.format(context))
        self.__multiprocessing_context = context

    def __setattr__(self, attr, val):
        if self.__initialized and attr in ('batch_size', 'batch_sampler', 'sampler', 'drop_last', 'dataset',
                                           'persistent_workers'):
            raise ValueError('{} attribute should not be set after {} is initialized'.format(attr,
                                                                                             type(self).__name__))
        super().__setattr__(attr, val)

    def __iter__(self):
        if self.persistent_workers and self.num_workers > 0:
            if self._iterator is None:
                self._iterator = self._get_iterator()
            else:
                self._iterator._reset(self)
            return self._iterator
        return self._get_iterator()

    @property
    def _auto_collation(self):
        return self.batch_sampler is not None

    @property
    def _index_sampler(self):
        return self.batch_sampler if self._auto_collation else self.sampler

    def __len__(self):
        if self._dataset_kind == _DatasetKind.Iterable:
            length = self._IterableDataset_len_called = len(self.dataset)
            if self.batch_size is not None:
                length = length // self.batch_size if self.drop_last else -(-length // self.batch_size)
            return length
        return len(self._index_sampler)

    def check_worker_number_rationality(self):
        """Warns (as PyTorch) when more workers are asked for than this process may use CPUs."""
        if not self.num_workers:
            return
        suggested, cpuset_checked = None, False
        if hasattr(os, 'sched_getaffinity'):
            try:
                suggested, cpuset_checked = len(os.sched_getaffinity(0)), True
            except Exception:
                pass
        if suggested is None:
            suggested = os.cpu_count()
        if suggested is not None and self.num_workers <= suggested:
            return
        if suggested is None:
            detail = "DataLoader is not able to compute a suggested max number of worker in current system."
        else:
            detail = ("Our suggested max number of worker in current system is {}{}, which is smaller than what this "
                      "DataLoader is going to create.".format(suggested,
                                                              "" if cpuset_checked else " (`cpuset` is not taken into "
                                                                                        "account)"))
        warnings.warn("This DataLoader will create {} worker processes in total. {} Please be aware that excessive "
                      "worker creation might get DataLoader running slow or even freeze, lower the worker number to "
                      "avoid potential slowness/freeze if necessary.".format(self.num_workers, detail))


class _BaseDataLoaderIter:
    def __init__(self, loader):
        self._dataset = loader.dataset
        self._shared_seed = None
        self._dataset_kind = loader._dataset_kind
        self._IterableDataset_len_called = loader._IterableDataset_len_called
        self._auto_collation = loader._auto_collation
        self._drop_last = loader.drop_last
        self._index_sampler = loader._index_sampler
        self._num_workers = loader.num_workers
        self._prefetch_factor = loader.prefetch_factor
        if loader.pin_memory_device and not loader.pin_memory:
            warnings.warn("pin memory device is set and pin_memory flag is not used then device pinned memory won't "
                          "be usedplease set pin_memory to true, if you need to use the device pin memory")
        self._timeout = loader.timeout
        self._collate_fn = loader.collate_fn
        self._sampler_iter = iter(self._index_sampler)
        # drawn before the sampler draws anything (its iterator is lazy), as in PyTorch
        self._base_seed = torch.empty((), dtype=torch.int64).random_(generator=loader.generator).item()
        self._persistent_workers = loader.persistent_workers
        self._num_yielded = 0

    def __iter__(self):
        return self

    def _reset(self, loader, first_iter=False):
        self._sampler_iter = iter(self._index_sampler)
        self._num_yielded = 0
        self._IterableDataset_len_called = loader._IterableDataset_len_called

    def _next_index(self):
        return next(self._sampler_iter)

    def _next_data(self):
        raise NotImplementedError

    def __next__(self):
        data = self._next_data()
        self._num_yielded += 1
        if self._dataset_kind == _DatasetKind.Iterable and self._IterableDataset_len_called is not None and \
                self._num_yielded > self._IterableDataset_len_called:
            msg = ("Length of IterableDataset {} was reported to be {} (when accessing len(dataloader)), but {} "
                   "samples have been fetched. ").format(self._dataset, self._IterableDataset_len_called,
                                                         self._num_yielded)
            if self._num_workers > 0:
                msg += ("For multiprocessing data-loading, this could be caused by not properly configuring the "
                        "IterableDataset replica at each worker. Please see "
                        "https://pytorch.org/docs/stable/data.html#torch.utils.data.IterableDataset for examples.")
            warnings.warn(msg)
        return data

    def __len__(self):
        return len(self._index_sampler)

    def __getstate__(self):
        raise NotImplementedError("{} cannot be pickled", type(self).__name__)


class _SingleProcessDataLoaderIter(_BaseDataLoaderIter):
    def __init__(self, loader):
        super().__init__(loader)
        assert self._timeout == 0
        assert self._num_workers == 0
        self._dataset_fetcher = _DatasetKind.create_fetcher(self._dataset_kind, self._dataset, self._auto_collation,
                                                            self._collate_fn, self._drop_last)

    def _next_data(self):
        return self._dataset_fetcher.fetch(self._next_index())


class _MultiProcessingDataLoaderIter(_BaseDataLoaderIter):
    """Bookkeeping: _send_idx counts tasks sent, _rcvd_idx the next task to return; _task_info[task] is
    (worker,) while outstanding and (worker, data) once it arrived early; _workers_status[w] is False
    once worker w has been told to stop (or its iterable dataset ran out)."""

    def __init__(self, loader):
        super().__init__(loader)
        assert self._num_workers > 0
        assert self._prefetch_factor > 0
        context = loader.multiprocessing_context or multiprocessing
        self._worker_init_fn = loader.worker_init_fn
        self._worker_result_queue = context.Queue()
        _widen_pipe(self._worker_result_queue)
        self._worker_pids_set = False
        self._shutdown = False
        self._workers_done_event = context.Event()
        self._index_queues = []
        self._workers = []
        for i in range(self._num_workers):
            index_queue = context.Queue()
            index_queue.cancel_join_thread()  # the worker may be gone; never block exit on it
            w = context.Process(
                target=_utils.worker._worker_loop,
                args=(self._dataset_kind, self._dataset, index_queue, self._worker_result_queue,
                      self._workers_done_event, self._auto_collation, self._collate_fn, self._drop_last,
                      self._base_seed, self._worker_init_fn, i, self._num_workers, self._persistent_workers,
                      self._shared_seed))
            w.daemon = True
            w.start()
            self._index_queues.append(index_queue)
            self._workers.append(w)
        self._data_queue = self._worker_result_queue
        _utils.signal_handling._set_worker_pids(id(self), [w.pid for w in self._workers])
        _utils.signal_handling._set_SIGCHLD_handler()
        self._worker_pids_set = True
        self._reset(loader, first_iter=True)

    def _reset(self, loader, first_iter=False):
        super()._reset(loader, first_iter)
        self._send_idx = 0
        self._rcvd_idx = 0
        self._task_info = {}
        self._tasks_outstanding = 0
        self._workers_status = [True] * self._num_workers
        self._worker_queue_idx_cycle = itertools.cycle(range(self._num_workers))
        if not first_iter:  # persistent workers: a new epoch, once every worker has acknowledged it
            for q in self._index_queues:
                q.put(_utils.worker._ResumeIteration(self._shared_seed))
            pending = self._num_workers
            while pending > 0:
                return_idx, return_data = self._get_data()
                if isinstance(return_idx, _utils.worker._ResumeIteration):
                    assert return_data is None
                    pending -= 1
        for _ in range(self._prefetch_factor * self._num_workers):
            self._try_put_index()

    def _try_get_data(self, timeout=_utils.MP_STATUS_CHECK_INTERVAL):
        """(True, result), or (False, None) when none came within timeout; raises when a worker died."""
        try:
            return True, self._data_queue.get(timeout=timeout)
        except Exception as e:
            if isinstance(e, RuntimeError) and str(e).startswith('DataLoader worker (pid '):
                raise  # the SIGCHLD handler's report, raised while waiting
            # a SIGCHLD may have gone to another thread, whose Python handler then only runs later: look now
            if self._worker_pids_set:
                _utils.signal_handling._error_if_any_worker_fails()
            running = [w for worker_id, w in enumerate(self._workers) if self._workers_status[worker_id]]
            if not isinstance(e, queue.Empty) and all(w.is_alive() for w in running):
                # a batch that a dying worker sent cannot be received (its tensors' descriptors went with
                # it) before the worker can be seen dead: give it a moment to be
                python_multiprocessing.connection.wait([w.sentinel for w in running], timeout=1.0)
            failed = []
            for worker_id, w in enumerate(self._workers):
                if self._workers_status[worker_id] and not w.is_alive():
                    failed.append(w)
                    self._mark_worker_as_unavailable(worker_id)
            if failed:
                # the handler's report may still be pending (is_alive() has reaped the worker since): a
                # worker killed by a signal is reported as the handler reports it, whichever path sees it first
                if self._worker_pids_set:
                    _utils.signal_handling._remove_worker_pids(id(self))
                killed = [w for w in failed if w.exitcode is not None and w.exitcode < 0]
                if killed:
                    raise RuntimeError('DataLoader worker (pid {}) is killed by signal: {}. '.format(
                        killed[0].pid, signal.strsignal(-killed[0].exitcode))) from e
                raise RuntimeError('DataLoader worker (pid(s) {}) exited unexpectedly'.format(
                    ', '.join(str(w.pid) for w in failed))) from e
            if isinstance(e, queue.Empty):
                return False, None
            raise

    def _get_data(self):
        """The next result; waits in short slices, checking the workers in between."""
        deadline = time.monotonic() + self._timeout if self._timeout > 0 else None
        while True:
            wait = _POLL_INTERVAL if deadline is None else min(_POLL_INTERVAL, max(deadline - time.monotonic(), 0))
            success, data = self._try_get_data(wait)
            if success:
                return data
            if deadline is not None and time.monotonic() >= deadline:
                raise RuntimeError('DataLoader timed out after {} seconds'.format(self._timeout))

    def _next_data(self):
        while True:
            # skip tasks of workers that have stopped (their iterable datasets ran out)
            while self._rcvd_idx < self._send_idx:
                info = self._task_info[self._rcvd_idx]
                if len(info) == 2 or self._workers_status[info[0]]:
                    break
                del self._task_info[self._rcvd_idx]
                self._rcvd_idx += 1
            else:
                if not self._persistent_workers:
                    self._shutdown_workers()
                raise StopIteration
            if len(self._task_info[self._rcvd_idx]) == 2:  # it arrived earlier
                return self._process_data(self._task_info.pop(self._rcvd_idx)[1])
            assert not self._shutdown and self._tasks_outstanding > 0
            idx, data = self._get_data()
            self._tasks_outstanding -= 1
            if self._dataset_kind == _DatasetKind.Iterable and \
                    isinstance(data, _utils.worker._IterableDatasetStopIteration):
                if self._persistent_workers:
                    self._workers_status[data.worker_id] = False
                else:
                    self._mark_worker_as_unavailable(data.worker_id)
                self._try_put_index()
                continue
            if idx != self._rcvd_idx:
                self._task_info[idx] += (data,)  # out of order: keep it until its turn
            else:
                del self._task_info[idx]
                return self._process_data(data)

    def _try_put_index(self):
        assert self._tasks_outstanding < self._prefetch_factor * self._num_workers
        try:
            index = self._next_index()
        except StopIteration:
            return
        for _ in range(self._num_workers):  # the next worker still running
            worker = next(self._worker_queue_idx_cycle)
            if self._workers_status[worker]:
                break
        else:
            return
        self._index_queues[worker].put((self._send_idx, index))
        self._task_info[self._send_idx] = (worker,)
        self._tasks_outstanding += 1
        self._send_idx += 1

    def _process_data(self, data):
        self._rcvd_idx += 1
        self._try_put_index()
        if isinstance(data, ExceptionWrapper):
            data.reraise()
        return data

    def _mark_worker_as_unavailable(self, worker_id, shutdown=False):
        assert self._workers_status[worker_id] or (self._persistent_workers and shutdown)
        self._index_queues[worker_id].put(None)
        self._workers_status[worker_id] = False
        assert self._workers_done_event.is_set() == shutdown

    def _shutdown_workers(self):
        # at interpreter exit the queues may be half torn down; daemonic workers are terminated anyway
        if _utils is None or _utils.python_exit_status is True or _utils.python_exit_status is None:
            return
        if self._shutdown:
            return
        self._shutdown = True
        try:
            self._workers_done_event.set()
            for worker_id in range(len(self._workers)):
                if self._persistent_workers or self._workers_status[worker_id]:
                    self._mark_worker_as_unavailable(worker_id, shutdown=True)
            for w in self._workers:
                w.join(timeout=_utils.MP_STATUS_CHECK_INTERVAL)
            for q in self._index_queues:
                q.cancel_join_thread()
                q.close()
        finally:
            # unregistered first: terminating them must not look like a failure to the SIGCHLD handler
            if self._worker_pids_set:
                _utils.signal_handling._remove_worker_pids(id(self))
                self._worker_pids_set = False
            for w in self._workers:
                if w.is_alive():
                    w.terminate()

    def __del__(self):
        if hasattr(self, '_workers'):  # not when __init__ failed before starting any
            self._shutdown_workers()
