"""torch.multiprocessing: the standard multiprocessing module, with tensors that travel between
processes through shared memory instead of being pickled by value.

Every name of `multiprocessing` is here (get_context, Process, Queue, Pool, ...). Importing this
module registers reducers with multiprocessing.reduction.ForkingPickler (see reductions.py), so the
Queues, SimpleQueues, Pipes and Pools of every context move a tensor's storage into shared memory
and send a handle to it: the receiver maps the same bytes, and writes on either side are seen by the
other. Two sharing strategies, as in PyTorch on Linux:

- 'file_descriptor' (the default): the storage moves into an anonymous memfd whose descriptor
  travels over the connection's Unix socket (multiprocessing.reduction.DupFd). The kernel frees it
  when its last descriptor and mapping go, however the processes end. Each shared storage holds a
  descriptor, so many of them can meet the open-files limit.
- 'file_system': the storage moves into a named POSIX segment under /dev/shm and its name travels.
  The segment counts its references (mappings and messages in flight) and the last one unlinks it;
  a small helper process per creating process unlinks whatever that process made and left behind
  when it dies (killed or not).
"""
import multiprocessing
import os
import subprocess
import sys
import threading
from multiprocessing import *  # noqa: F401,F403  (a drop-in for the standard module)

from torch import _C

__all__ = ['set_sharing_strategy', 'get_sharing_strategy', 'get_all_sharing_strategies']
__all__ += multiprocessing.__all__

_KINDS = {'file_descriptor': 0, 'file_system': 1}  # the core's TC_SHM_FD, TC_SHM_NAMED
_all_sharing_strategies = set(_KINDS)
_sharing_strategy = 'file_descriptor'


def set_sharing_strategy(new_strategy):
    """Sets how CPU tensors are shared: 'file_descriptor' or 'file_system'."""
    global _sharing_strategy
    assert new_strategy in _all_sharing_strategies, \
        'unknown sharing strategy %r: expected one of %s' % (new_strategy, sorted(_all_sharing_strategies))
    _sharing_strategy = new_strategy


def get_sharing_strategy():
    return _sharing_strategy


def get_all_sharing_strategies():
    return set(_all_sharing_strategies)


def _shm_kind():
    return _KINDS[_sharing_strategy]


# ---- who unlinks the segments this process names under /dev/shm if it dies ----

# Waits for end of input (every process holding the pipe's other end is gone), then unlinks the
# segments the process argv[1] named and left: /dev/shm/torch_<pid>_*.
_REAPER = r'''
import os, signal, sys
signal.signal(signal.SIGINT, signal.SIG_IGN)
import _posixshmem
while sys.stdin.buffer.read(4096):
    pass
prefix = 'torch_%s_' % sys.argv[1]
for n in os.listdir('/dev/shm'):
    if n.startswith(prefix):
        try:
            _posixshmem.shm_unlink('/' + n)
        except OSError:
            pass
'''
_reaper = None  # (the reaper's Popen, the write end of its pipe) in the process that started it
_reaper_lock = threading.Lock()


def _forget_reaper():
    # A forked child names its segments after its own pid and starts a reaper of its own; it lets go
    # of the parent's pipe (or the parent's reaper would wait for the child too) and of a lock that
    # another thread of the parent may have held at the fork.
    global _reaper, _reaper_lock
    if _reaper is not None:
        os.close(_reaper[1])
    _reaper, _reaper_lock = None, threading.Lock()


os.register_at_fork(after_in_child=_forget_reaper)


def _ensure_reaper():
    """Starts this process's reaper before it names its first segment, so that no segment it names
    can outlive it unseen (the core names them /torch_<pid>_<n>_<random>)."""
    global _reaper
    with _reaper_lock:
        if _reaper is None:
            r, w = os.pipe()  # neither end is inherited by other children
            try:
                proc = subprocess.Popen([sys.executable, '-c', _REAPER, str(os.getpid())], stdin=r,
                                        stdout=subprocess.DEVNULL, start_new_session=True, close_fds=True)
            except BaseException:
                os.close(w)
                raise
            finally:
                os.close(r)
            _reaper = (proc, w)


def _share(t, kind=None):
    """Moves the storage under tensor t into shared memory of `kind` (default: the strategy's), in
    place; returns its (kind, fd, name)."""
    kind = _shm_kind() if kind is None else kind
    info = _C._shm_info(t)
    if info is None or info[0] != kind:
        if kind == _KINDS['file_system']:
            _ensure_reaper()
        _C._share_memory(t, kind)
        info = _C._shm_info(t)
    return info


def _new_shared(nbytes):
    """A uint8 tensor over nbytes of new shared memory of the current strategy."""
    kind = _shm_kind()
    if kind == _KINDS['file_system']:
        _ensure_reaper()
    return _C._new_shared(nbytes, kind)


from . import reductions  # noqa: E402  (registers the reducers)
from .spawn import (ProcessContext, ProcessException, ProcessExitedException, ProcessRaisedException,  # noqa: E402
                    SpawnContext, spawn, start_processes)

reductions.init_reductions()
