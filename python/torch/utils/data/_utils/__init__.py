"""What the DataLoader's pieces share: the worker-status polling interval, the interpreter-exit flag,
and the wrapper that carries a worker's exception (with its traceback) to the main process."""
import atexit
import sys
import traceback

# How often (seconds) a process waiting on a queue checks that the other side is still alive.
MP_STATUS_CHECK_INTERVAL = 5.0

# Set at interpreter exit: workers are left to the daemonic-process cleanup then, since the queues may
# already be torn down.
python_exit_status = False


def _set_python_exit_flag():
    global python_exit_status
    python_exit_status = True


atexit.register(_set_python_exit_flag)


class KeyErrorMessage(str):
    """A str whose repr is itself: KeyError shows repr(message), which would escape the traceback."""

    def __repr__(self):
        return self


class ExceptionWrapper:
    """An exception and its formatted traceback, picklable, to raise again in another process."""

    def __init__(self, exc_info=None, where="in background"):
        if exc_info is None:
            exc_info = sys.exc_info()
        self.exc_type = exc_info[0]
        self.exc_msg = "".join(traceback.format_exception(*exc_info))  # the traceback itself does not pickle
        self.where = where

    def reraise(self):
        msg = "Caught {} {}.\nOriginal {}".format(self.exc_type.__name__, self.where, self.exc_msg)
        if self.exc_type == KeyError:
            msg = KeyErrorMessage(msg)
        elif getattr(self.exc_type, "message", None):
            raise self.exc_type(message=msg)
        try:
            exception = self.exc_type(msg)
        except TypeError:
            raise RuntimeError(msg) from None
        raise exception


from torch.utils.data._utils import collate, fetch, signal_handling, worker  # noqa: E402,F401
