"""Measurement: the times of one timed statement, with its description, summaries and printed form."""
import dataclasses
import math
import statistics
import textwrap

__all__ = ['TaskSpec', 'Measurement', 'select_unit', 'trim_sigfig']

_IQR_WARN_THRESHOLD = 0.1


@dataclasses.dataclass(frozen=True)
class TaskSpec:
    """What was timed: the statement, its setup and labels, and the thread count."""
    stmt: str
    setup: str
    global_setup: str = ''
    label: str = None
    sub_label: str = None
    description: str = None
    env: str = None
    num_threads: int = 1

    @property
    def title(self):
        if self.label is not None:
            return self.label + (': {}'.format(self.sub_label) if self.sub_label else '')
        if '\n' not in self.stmt:
            return self.stmt
        return 'stmt:\n{}'.format(textwrap.indent(self.stmt, '  '))

    def setup_str(self):
        if not self.setup or self.setup == 'pass':
            return ''
        if '\n' not in self.setup:
            return 'setup: {}'.format(self.setup)
        return 'setup:\n{}'.format(textwrap.indent(self.setup, '  '))

    def summarize(self):
        return '\n'.join(s for s in (self.title, self.description or '', self.setup_str()) if s)


def select_unit(t):
    """(unit, scale) for a time in seconds: ns, us, ms or s."""
    time_unit = {-3: 'ns', -2: 'us', -1: 'ms'}.get(int(math.log10(t) // 3), 's') if t > 0 else 'ns'
    scale = {'ns': 1e-9, 'us': 1e-6, 'ms': 1e-3, 's': 1}[time_unit]
    return time_unit, scale


def trim_sigfig(x, n):
    """x rounded to n significant figures."""
    if x == 0:
        return x
    magnitude = int(math.ceil(math.log10(abs(x))))
    scale = 10 ** (magnitude - n)
    return float(round(x / scale) * scale)


@dataclasses.dataclass(init=True, repr=False, eq=True, frozen=False)
class Measurement:
    """Blocks of runs of a statement: raw_times holds each block's total, number_per_run its runs."""
    number_per_run: int
    raw_times: list
    task_spec: TaskSpec
    metadata: dict = None

    def __post_init__(self):
        self._sorted_times = ()
        self._warnings = ()
        self._median = -1.0
        self._mean = -1.0
        self._p25 = -1.0
        self._p75 = -1.0

    def __getattr__(self, name):
        if name in {f.name for f in dataclasses.fields(TaskSpec)}:  # the task spec's fields, directly
            return getattr(self.task_spec, name)
        raise AttributeError(name)

    @property
    def times(self):
        return [t / self.number_per_run for t in self.raw_times]

    @property
    def median(self):
        self._lazy_init()
        return self._median

    @property
    def mean(self):
        self._lazy_init()
        return self._mean

    @property
    def iqr(self):
        self._lazy_init()
        return self._p75 - self._p25

    @property
    def significant_figures(self):
        """How many digits of the median the spread of the times supports (1 to 6)."""
        self._lazy_init()
        n = len(self._sorted_times)
        if n <= 1:
            return 2 if n == 1 else 1
        sd = statistics.stdev(self._sorted_times)
        if sd == 0 or self._median == 0:
            return 6
        ci = 1.645 * sd / math.sqrt(n) / self._median
        return max(1, min(6, int(-math.log10(ci)) + 1)) if ci > 0 else 6

    @property
    def has_warnings(self):
        self._lazy_init()
        return bool(self._warnings)

    def _lazy_init(self):
        if self.raw_times and not self._sorted_times:
            self._sorted_times = tuple(sorted(self.times))
            times = self._sorted_times
            self._median = statistics.median(times)
            self._mean = statistics.mean(times)
            self._p25 = _quantile(times, 0.25)
            self._p75 = _quantile(times, 0.75)
            warnings = []
            if not self.meets_confidence(_IQR_WARN_THRESHOLD):
                warnings.append('Interquartile range is {:.1f}% of the median measurement.\n'
                                'This suggests significant environmental influence.'.format(
                                    self.iqr / self.median * 100))
            self._warnings = tuple(warnings)

    def meets_confidence(self, threshold=_IQR_WARN_THRESHOLD):
        return self.iqr / self.median < threshold

    @property
    def title(self):
        return self.task_spec.title

    def as_row_name(self):
        return self.sub_label or self.stmt or '[Unknown]'

    def __repr__(self):
        self._lazy_init()
        unit, scale = select_unit(self._median)
        lines = ['{}'.format(super().__repr__()), self.task_spec.summarize()]
        n = len(self._sorted_times)
        if n > 1:
            lines.append('  Median: {:.2f} {}'.format(self._median / scale, unit))
            lines.append('  IQR:    {:.2f} {} ({:.2f} to {:.2f})'.format(self.iqr / scale, unit, self._p25 / scale,
                                                                           self._p75 / scale))
        else:
            lines.append('  {:.2f} {}'.format(self._median / scale, unit))
        lines.append('  {} measurement{}, {} runs {} {} thread{}'.format(
            n, 's' if n > 1 else '', self.number_per_run, 'per measurement,' if n > 1 else ',', self.num_threads,
            's' if self.num_threads > 1 else ''))
        for w in self._warnings:
            lines.append('  WARNING: ' + w.replace('\n', '\n           '))
        return '\n'.join(line for line in lines if line is not None)

    @staticmethod
    def merge(measurements):
        """Measurements of the same task combined into one (PyTorch's merge: one per task spec)."""
        grouped = {}
        for m in measurements:
            grouped.setdefault(m.task_spec, []).append(m)
        out = []
        for spec, group in grouped.items():
            times = [t for m in group for t in m.times]
            out.append(Measurement(number_per_run=1, raw_times=times, task_spec=spec, metadata=None))
        return out


def _quantile(sorted_values, q):
    """Linear-interpolation quantile of sorted values (numpy's default)."""
    pos = (len(sorted_values) - 1) * q
    low = int(math.floor(pos))
    high = min(low + 1, len(sorted_values) - 1)
    return sorted_values[low] + (sorted_values[high] - sorted_values[low]) * (pos - low)
