"""torch.profiler: the profiler with activities, a schedule of steps and a handler for finished
traces, over torch.autograd.profiler's recording (CPU activity only)."""
import enum
import os
import socket
import time

from torch.autograd.profiler import EventList, record_function  # noqa: F401
from torch.autograd import profiler as _legacy

__all__ = ['profile', 'record_function', 'ProfilerActivity', 'ProfilerAction', 'schedule',
           'tensorboard_trace_handler', 'supported_activities']


class ProfilerActivity(enum.Enum):
    CPU = 0
    CUDA = 1


class ProfilerAction(enum.Enum):
    NONE = 0
    WARMUP = 1
    RECORD = 2
    RECORD_AND_SAVE = 3


def supported_activities():
    return {ProfilerActivity.CPU}


def schedule(*, wait, warmup, active, repeat=0, skip_first=0):
    """The action of each step: skip_first steps, then cycles of wait, warmup and active steps (the
    last active one saves), repeat cycles (0: forever)."""
    def schedule_fn(step):
        if step < 0:
            raise ValueError('Step should be non-negative, got {}'.format(step))
        if step < skip_first:
            return ProfilerAction.NONE
        step -= skip_first
        cycle = wait + warmup + active
        if repeat > 0 and step / cycle >= repeat:
            return ProfilerAction.NONE
        in_cycle = step % cycle
        if in_cycle < wait:
            return ProfilerAction.NONE
        if in_cycle < wait + warmup:
            return ProfilerAction.WARMUP
        return ProfilerAction.RECORD if in_cycle < cycle - 1 else ProfilerAction.RECORD_AND_SAVE
    if not (wait >= 0 and warmup >= 0 and active > 0 and repeat >= 0 and skip_first >= 0):
        raise ValueError('Invalid profiler schedule arguments')
    if warmup == 0:
        import warnings
        warnings.warn('Profiler won\'t be using warmup, this can skew profiler results')
    return schedule_fn


def _default_schedule(_):
    return ProfilerAction.RECORD


def tensorboard_trace_handler(dir_name, worker_name=None, use_gzip=False):
    """An on_trace_ready handler writing each trace as <worker>.<time>.pt.trace.json in dir_name."""
    def handler_fn(prof):
        os.makedirs(dir_name, exist_ok=True)
        name = worker_name or '{}_{}'.format(socket.gethostname(), os.getpid())
        path = os.path.join(dir_name, '{}.{}.pt.trace.json'.format(name, int(time.time() * 1000)))
        prof.export_chrome_trace(path)
        if use_gzip:
            import gzip
            import shutil
            with open(path, 'rb') as src, gzip.open(path + '.gz', 'wb') as dst:
                shutil.copyfileobj(src, dst)
            os.remove(path)
    return handler_fn


class profile:
    """Records the ops of the steps its schedule marks (all of them without one); on_trace_ready(prof)
    runs after each saving step, and at stop() when the last steps were recorded."""

    def __init__(self, *, activities=None, schedule=None, on_trace_ready=None, record_shapes=False,
                 profile_memory=False, with_stack=False, with_flops=False, with_modules=False,
                 experimental_config=None, use_cuda=None):
        activities = set(activities) if activities is not None else supported_activities()
        if ProfilerActivity.CUDA in activities or use_cuda:
            raise RuntimeError('CUDA activity: this build records CPU time only (no CUDA events)')
        self.activities = activities
        self.schedule = schedule or _default_schedule
        self.on_trace_ready = on_trace_ready
        self.record_shapes = record_shapes
        self.step_num = 0
        self.current_action = self.schedule(self.step_num)
        self._recorder = None
        self._events = None

    def _start_recording(self):
        if self._recorder is None:
            self._recorder = _legacy.profile(record_shapes=self.record_shapes)
            self._recorder.__enter__()

    def _stop_recording(self):
        if self._recorder is not None:
            self._recorder.__exit__(None, None, None)
            self._events = self._recorder.function_events
            self._recorder = None

    def _recording(self, action):
        return action in (ProfilerAction.RECORD, ProfilerAction.RECORD_AND_SAVE)

    def start(self):
        if self._recording(self.current_action):
            self._start_recording()

    def stop(self):
        was_recording = self._recorder is not None
        self._stop_recording()
        if was_recording and self.on_trace_ready:
            self.on_trace_ready(self)

    def step(self):
        """Ends a step: saves when the schedule says so, and starts or stops recording for the next."""
        previous = self.current_action
        self.step_num += 1
        self.current_action = self.schedule(self.step_num)
        if previous == ProfilerAction.RECORD_AND_SAVE:
            self._stop_recording()
            if self.on_trace_ready:
                self.on_trace_ready(self)
        elif self._recording(previous) and not self._recording(self.current_action):
            self._stop_recording()
        if self._recording(self.current_action):
            self._start_recording()

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        self.stop()
        return False

    def events(self):
        return self._events if self._events is not None else EventList()

    def key_averages(self, group_by_input_shape=False, group_by_stack_n=0):
        return self.events().key_averages(group_by_input_shape, group_by_stack_n)

    def export_chrome_trace(self, path):
        return self.events().export_chrome_trace(path)
