"""Noticing dead workers at once: the main process installs a SIGCHLD handler that raises PyTorch's
RuntimeError when one of the DataLoader's workers was killed by a signal or exited with an error
(otherwise a waiting main process would only notice at its next status check). Workers' pids are
registered per iterator and removed before the iterator terminates them itself."""
import atexit
import os
import signal
import threading

_worker_pids = {}
_SIGCHLD_handler_set = False


def _set_worker_pids(key, pids):
    _worker_pids[key] = tuple(pids)


def _remove_worker_pids(key):
    _worker_pids.pop(key, None)


def _error_if_any_worker_fails():
    for key, pids in list(_worker_pids.items()):
        for pid in pids:
            try:  # WNOWAIT: look without reaping, so that multiprocessing still sees the exit code
                info = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            except ChildProcessError:
                continue
            if info is None:
                continue
            if info.si_code == os.CLD_EXITED and info.si_status != 0:
                # forgotten before raising, as PyTorch does: the dead worker stays unreaped (WNOWAIT), so any
                # later SIGCHLD (the loader's other workers stopping, an unrelated child) would raise again
                _worker_pids.pop(key, None)
                raise RuntimeError("DataLoader worker (pid {}) exited unexpectedly with exit_code {}. Details are lost "
                                   "due to multiprocessing. Rerunning with num_workers=0 may give better error trace."
                                   .format(pid, info.si_status))
            if info.si_code in (os.CLD_KILLED, os.CLD_DUMPED):
                _worker_pids.pop(key, None)
                raise RuntimeError("DataLoader worker (pid {}) is killed by signal: {}. ".format(
                    pid, signal.strsignal(info.si_status)))


def _set_SIGCHLD_handler():
    """Installs the handler once, in the main thread, chaining the one it replaces."""
    global _SIGCHLD_handler_set
    if _SIGCHLD_handler_set or threading.current_thread() is not threading.main_thread():
        return
    previous = signal.getsignal(signal.SIGCHLD)
    if not callable(previous):
        previous = None

    def handler(signum, frame):
        from torch.utils.data import _utils
        if not _utils.python_exit_status:  # at exit, daemonic workers are terminated on purpose
            _error_if_any_worker_fails()
        if previous is not None:
            previous(signum, frame)
    signal.signal(signal.SIGCHLD, handler)
    _SIGCHLD_handler_set = True
    # multiprocessing registers its exit function (which terminates daemonic workers) when a loader first
    # starts them: the exit flag registered now is set before it runs (atexit runs newest first)
    from torch.utils.data import _utils
    atexit.register(_utils._set_python_exit_flag)


def _set_worker_signal_handlers():
    """In a worker: the parent's SIGCHLD handler and its pid table are not the worker's business."""
    _worker_pids.clear()
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
