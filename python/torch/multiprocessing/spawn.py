"""torch.multiprocessing.spawn / start_processes: run fn(i, *args) in nprocs processes and join them,
raising in the parent what went wrong in the first child that failed (its traceback, or the
signal or exit code that ended it) after ending the others."""
import multiprocessing
import multiprocessing.connection
import signal
import sys
import warnings


class ProcessException(Exception):
    __slots__ = ['error_index', 'error_pid']

    def __init__(self, msg, error_index, pid):
        super().__init__(msg)
        self.msg = msg
        self.error_index = error_index
        self.pid = pid

    def __reduce__(self):
        return type(self), (self.msg, self.error_index, self.pid)


class ProcessRaisedException(ProcessException):
    """A child raised: the message carries its traceback."""

    def __init__(self, msg, error_index, error_pid):
        super().__init__(msg, error_index, error_pid)


class ProcessExitedException(ProcessException):
    """A child died of a signal or exited with a non-zero code without raising."""
    __slots__ = ['exit_code']

    def __init__(self, msg, error_index, error_pid, exit_code, signal_name=None):
        super().__init__(msg, error_index, error_pid)
        self.exit_code = exit_code
        self.signal_name = signal_name

    def __reduce__(self):
        return type(self), (self.msg, self.error_index, self.pid, self.exit_code, self.signal_name)


def _set_parent_death_signal(sig):
    # Linux: the child gets sig when its parent dies, so non-daemonic children do not outlive it
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(sig), 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _wrap(fn, i, args, error_queue):
    _set_parent_death_signal(signal.SIGINT)
    try:
        fn(i, *args)
    except KeyboardInterrupt:
        pass  # the parent ended this one
    except Exception:
        import traceback
        error_queue.put(traceback.format_exc())
        sys.exit(1)


class ProcessContext:
    def __init__(self, processes, error_queues):
        self.error_queues = error_queues
        self.processes = processes
        self.sentinels = {p.sentinel: i for i, p in enumerate(processes)}

    def pids(self):
        return [int(p.pid) for p in self.processes]

    def join(self, timeout=None):
        """Waits up to `timeout` seconds for the processes. True when all have ended well, False when
        some still run; the first one to fail ends the others and raises its cause."""
        if not self.sentinels:
            return True
        failed = None
        for sentinel in multiprocessing.connection.wait(list(self.sentinels), timeout=timeout):
            index = self.sentinels.pop(sentinel)
            self.processes[index].join()
            if self.processes[index].exitcode != 0:
                failed = index
                break
        if failed is None:
            return not self.sentinels
        for p in self.processes:
            if p.is_alive():
                p.terminate()
            p.join()
        self.sentinels.clear()
        process = self.processes[failed]
        if self.error_queues[failed].empty():
            code = process.exitcode
            if code < 0:
                name = signal.Signals(-code).name
                raise ProcessExitedException('process %d terminated with signal %s' % (failed, name),
                                             error_index=failed, error_pid=process.pid, exit_code=code,
                                             signal_name=name)
            raise ProcessExitedException('process %d terminated with exit code %d' % (failed, code),
                                         error_index=failed, error_pid=process.pid, exit_code=code)
        trace = self.error_queues[failed].get()
        raise ProcessRaisedException('\n\n-- Process %d terminated with the following error:\n%s' % (failed, trace),
                                     failed, process.pid)


class SpawnContext(ProcessContext):
    def __init__(self, processes, error_queues):
        warnings.warn('SpawnContext is renamed to ProcessContext since 1.4 release.')
        super().__init__(processes, error_queues)


def start_processes(fn, args=(), nprocs=1, join=True, daemon=False, start_method='spawn'):
    """Starts nprocs processes running fn(i, *args) by `start_method`; joins them (join=True) or
    returns their ProcessContext."""
    ctx = multiprocessing.get_context(start_method)
    processes, error_queues = [], []
    for i in range(nprocs):
        error_queue = ctx.SimpleQueue()
        p = ctx.Process(target=_wrap, args=(fn, i, args, error_queue), daemon=daemon)
        p.start()
        processes.append(p)
        error_queues.append(error_queue)
    context = ProcessContext(processes, error_queues)
    if not join:
        return context
    while not context.join():
        pass


def spawn(fn, args=(), nprocs=1, join=True, daemon=False, start_method='spawn'):
    """start_processes with the 'spawn' method (others are accepted with PyTorch's warning)."""
    if start_method != 'spawn':
        warnings.warn('This method only supports start_method=spawn (got: %s).\n'
                      'To use a different start_method use:\n\t\t torch.multiprocessing.start_processes(...)'
                      % start_method)
    return start_processes(fn, args, nprocs, join, daemon, start_method='spawn')
