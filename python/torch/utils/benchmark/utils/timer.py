"""Timer: times a Python statement (after its setup) as timeit does, at a chosen thread count, in
blocks sized to be long enough to time (blocked_autorange) or until the times settle
(adaptive_autorange)."""
import enum
import timeit

import torch
from torch.utils.benchmark.utils.common import Measurement, TaskSpec

__all__ = ['Timer', 'Language']


class Language(enum.Enum):
    PYTHON = 0
    CPP = 1


class Timer:
    """Times `stmt` after `setup` in `globals` (torch is there), with torch.set_num_threads(num_threads)
    while timing; labels describe the result (Measurement) and group it in a Compare table."""

    def __init__(self, stmt='pass', setup='pass', global_setup='', timer=timeit.default_timer, globals=None,
                 label=None, sub_label=None, description=None, env=None, num_threads=1, language=Language.PYTHON):
        if not isinstance(stmt, str):
            raise ValueError('Currently only a `str` stmt is supported.')
        if language in (Language.CPP, 'cpp', 'c++'):
            raise ValueError('C++ timing needs a compiled torch extension; this build times Python statements only')
        if global_setup:
            raise ValueError('global_setup is only for C++ timers')
        self._globals = dict(globals or {})
        self._globals.setdefault('torch', torch)
        self._timer = timer
        self._task_spec = TaskSpec(stmt=stmt, setup=setup, global_setup=global_setup, label=label,
                                   sub_label=sub_label, description=description, env=env, num_threads=num_threads)
        self._timeit = timeit.Timer(stmt=stmt, setup=setup, timer=timer, globals=self._globals)

    def _run(self, number):
        previous = torch.get_num_threads()
        torch.set_num_threads(self._task_spec.num_threads)
        try:
            return self._timeit.timeit(number)
        finally:
            torch.set_num_threads(previous)

    def timeit(self, number=1000000):
        """One block of `number` runs (after one warm-up run)."""
        self._run(max(int(number // 100), 2))  # warm up
        return Measurement(number_per_run=number, raw_times=[self._run(number)], task_spec=self._task_spec)

    def repeat(self, repeat=-1, number=-1):
        raise NotImplementedError('See `Timer.blocked_autorange.`')

    def autorange(self, callback=None):
        raise NotImplementedError('See `Timer.blocked_autorange.`')

    def _block_size(self, min_run_time):
        """Runs per block: powers of ten until a block takes a thousandth of min_run_time and 0.1 ms at
        least, so that the timer's own cost is negligible and there are many blocks to take a median of."""
        number = 1
        while True:
            taken = self._run(number)
            if (taken >= min_run_time / 1000 and taken >= 1e-4) or taken > min_run_time or number >= 10 ** 9:
                return number
            number *= 10

    def _measure_blocks(self, number, stop, callback):
        times, total = [], 0.0
        while True:
            t = self._run(number)
            total += t
            times.append(t)
            if callback:
                callback(number, t)
            if stop(times, total):
                return Measurement(number_per_run=number, raw_times=times, task_spec=self._task_spec)

    def blocked_autorange(self, callback=None, min_run_time=0.2):
        """Blocks of a fixed size until at least min_run_time has been spent timing."""
        number = self._block_size(min_run_time)
        return self._measure_blocks(number, lambda times, total: total >= min_run_time, callback)

    def adaptive_autorange(self, threshold=0.1, *, min_run_time=0.01, max_run_time=10.0, callback=None):
        """Blocks until the interquartile range is within `threshold` of the median (after min_run_time),
        or max_run_time is spent."""
        number = self._block_size(min_run_time)

        def stop(times, total):
            if total < min_run_time or len(times) < 3:
                return total >= max_run_time
            m = Measurement(number_per_run=number, raw_times=list(times), task_spec=self._task_spec)
            return m.meets_confidence(threshold) or total >= max_run_time
        return self._measure_blocks(number, stop, callback)

    def collect_callgrind(self, number=100, *, repeats=None, collect_baseline=True, retain_out_file=False):
        raise RuntimeError('collect_callgrind needs valgrind and a C++ extension build of torch; it is not '
                           'available in this build')
