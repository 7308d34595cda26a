"""torch.autograd.profiler: which ops ran, for how long, on what shapes.

profile() records every op call (the dispatcher's observer, python/csrc/profiler.c) and every
record_function range on every thread; its function_events are FunctionEvents with their nesting
(children, parent), so self time is an event's time less its children's. key_averages() groups them
by name (and input shapes), table() prints PyTorch's table, export_chrome_trace() writes the Chrome
trace format (chrome://tracing, Perfetto). CPU only: there is no CUDA timing here.
"""
import collections
import json
from contextlib import ContextDecorator

from torch import _C

__all__ = ['profile', 'record_function', 'FunctionEvent', 'FunctionEventAvg', 'EventList', 'format_time']


def format_time(time_us):
    """A time in microseconds as PyTorch prints it: s, ms or us with three decimals."""
    if time_us >= 1e6:
        return '{:.3f}s'.format(time_us / 1e6)
    if time_us >= 1e3:
        return '{:.3f}ms'.format(time_us / 1e3)
    return '{:.3f}us'.format(time_us)


def _format_percent(part, total):
    return '{:.2f}%'.format(part * 100.0 / total) if total else '0.00%'


class FunctionEvent:
    """One op call or record_function range: times in microseconds from the profile's start."""

    def __init__(self, id, name, thread, start_us, end_us, input_shapes=None, depth=0):
        self.id = id
        self.name = name
        self.thread = thread
        self.time_range = (start_us, end_us)
        self.input_shapes = input_shapes if input_shapes is not None else []
        self.depth = depth
        self.cpu_children = []
        self.cpu_parent = None
        self.count = 1
        self.is_async = False
        self.device_type = 'cpu'

    @property
    def key(self):
        return self.name

    @property
    def cpu_time_total(self):
        return self.time_range[1] - self.time_range[0]

    @property
    def self_cpu_time_total(self):
        return self.cpu_time_total - sum(c.cpu_time_total for c in self.cpu_children)

    @property
    def cpu_time(self):
        return self.cpu_time_total

    @property
    def cuda_time_total(self):
        return 0

    def __repr__(self):
        return '<FunctionEvent id={} name={} cpu_time={} start_us={} end_us={} cpu_children={} thread={} ' \
               'input_shapes={}>'.format(self.id, self.name, format_time(self.cpu_time_total), self.time_range[0],
                                         self.time_range[1], [c.id for c in self.cpu_children], self.thread,
                                         self.input_shapes)


class FunctionEventAvg:
    """The events of one key (name, and input shapes when grouped by them) added together."""

    def __init__(self):
        self.key = None
        self.count = 0
        self.cpu_time_total = 0
        self.self_cpu_time_total = 0
        self.input_shapes = None
        self.cuda_time_total = 0

    def add(self, other):
        if self.key is None:
            self.key = other.key
            self.input_shapes = other.input_shapes
        self.count += other.count
        self.cpu_time_total += other.cpu_time_total
        self.self_cpu_time_total += other.self_cpu_time_total
        return self

    def __iadd__(self, other):
        return self.add(other)

    @property
    def cpu_time(self):
        return self.cpu_time_total / self.count if self.count else 0.0

    @property
    def self_cpu_time(self):
        return self.self_cpu_time_total / self.count if self.count else 0.0

    def __repr__(self):
        return '<FunctionEventAvg key={} self_cpu_time={} cpu_time={} input_shapes={}>'.format(
            self.key, format_time(self.self_cpu_time_total), format_time(self.cpu_time_total), self.input_shapes)


_SORT_KEYS = {'cpu_time_total', 'self_cpu_time_total', 'cpu_time', 'count', 'self_cpu_time', 'cuda_time_total'}


class EventList(list):
    """FunctionEvents (or their averages) with PyTorch's summaries."""

    def key_averages(self, group_by_input_shape=False, group_by_stack_n=0):
        groups = collections.OrderedDict()
        for e in self:
            key = (e.key, str(e.input_shapes)) if group_by_input_shape else e.key
            groups.setdefault(key, FunctionEventAvg()).add(e)
        if not group_by_input_shape:  # the shapes of a group's first event would describe none of it
            for avg in groups.values():
                avg.input_shapes = None
        return EventList(groups.values())

    def total_average(self):
        total = FunctionEventAvg()
        for e in self:
            total.add(e)
        total.key = 'Total'
        return total

    @property
    def self_cpu_time_total(self):
        return sum(e.self_cpu_time_total for e in self)

    def table(self, sort_by=None, row_limit=100, max_src_column_width=75, max_name_column_width=55,
              max_shapes_column_width=80, header=None, top_level_events_only=False):
        rows = list(self)
        if top_level_events_only:
            rows = [e for e in rows if getattr(e, 'cpu_parent', None) is None]
        if sort_by is not None:
            if sort_by not in _SORT_KEYS:
                raise AttributeError("'FunctionEventAvg' object has no attribute '%s'" % sort_by)
            rows.sort(key=lambda e: getattr(e, sort_by), reverse=True)
        if row_limit is not None and row_limit > 0:
            rows = rows[:row_limit]
        total_self = self.self_cpu_time_total
        shapes = any(e.input_shapes for e in rows)
        name_width = min(max(len('Name'), *(len(e.key) for e in rows)) if rows else 4, max_name_column_width)
        headers = ['Name', 'Self CPU %', 'Self CPU', 'CPU total %', 'CPU total', 'CPU time avg', '# of Calls']
        widths = [name_width] + [12] * 6
        if shapes:
            headers.append('Input Shapes')
            widths.append(min(max_shapes_column_width, max(len(str(e.input_shapes)) for e in rows) + 2))
        line = '  '.join('-' * w for w in widths) + '  '
        out = []
        if header is not None:
            out.append('=' * len(line))
            out.append(header)
        out.append(line)
        out.append('  '.join(h.rjust(w) if i else h.rjust(w) for i, (h, w) in enumerate(zip(headers, widths))) + '  ')
        out.append(line)
        for e in rows:
            name = e.key if len(e.key) <= name_width else e.key[:name_width - 3] + '...'
            cells = [name.rjust(name_width), _format_percent(e.self_cpu_time_total, total_self).rjust(12),
                     format_time(e.self_cpu_time_total).rjust(12),
                     _format_percent(e.cpu_time_total, total_self).rjust(12), format_time(e.cpu_time_total).rjust(12),
                     format_time(e.cpu_time).rjust(12), str(e.count).rjust(12)]
            if shapes:
                cells.append(str(e.input_shapes)[:widths[-1]].rjust(widths[-1]))
            out.append('  '.join(cells) + '  ')
        out.append(line)
        out.append('Self CPU time total: {}'.format(format_time(total_self)))
        return '\n'.join(out) + '\n'

    def export_chrome_trace(self, path):
        """Writes the events in Chrome's trace event format ("X" events, microseconds)."""
        trace = [{'name': e.name, 'ph': 'X', 'ts': e.time_range[0], 'dur': e.cpu_time_total, 'tid': e.thread,
                  'pid': 'CPU functions', 'args': {'Input dims': e.input_shapes} if e.input_shapes else {}}
                 for e in self if isinstance(e, FunctionEvent)]
        with open(path, 'w') as f:
            json.dump(trace, f)  # the JSON array form, as PyTorch 1.13 writes it


def _build_events(raw):
    """FunctionEvents from the recorder's tuples, with parents and children by nesting on each thread."""
    if not raw:
        return EventList()
    origin = min(r[1] for r in raw)
    events = EventList()
    for i, (name, start, end, thread, depth, shapes) in enumerate(raw):
        events.append(FunctionEvent(i, name, thread, (start - origin) / 1000.0, (end - origin) / 1000.0,
                                    json.loads(shapes) if shapes else [], depth))
    open_by_thread = {}
    for e in sorted(events, key=lambda e: (e.thread, e.time_range[0], e.depth)):
        stack = open_by_thread.setdefault(e.thread, [])
        while stack and stack[-1].depth >= e.depth:
            stack.pop()
        if stack:
            e.cpu_parent = stack[-1]
            stack[-1].cpu_children.append(e)
        stack.append(e)
    return events


class profile:
    """Records the ops that run inside it (every thread). use_cuda is refused: no CUDA events here."""

    def __init__(self, enabled=True, *, use_cuda=False, record_shapes=False, with_flops=False,
                 profile_memory=False, with_stack=False, with_modules=False, use_kineto=False, use_cpu=True,
                 experimental_config=None):
        if use_cuda:
            raise RuntimeError('use_cuda=True: this build records CPU time only (no CUDA events)')
        self.enabled = enabled
        self.record_shapes = record_shapes
        self.function_events = None
        self.entered = False

    def __enter__(self):
        if not self.enabled:
            return self
        if self.entered:
            raise RuntimeError('Profiler context manager is not reentrant')
        self.entered = True
        _C._profiler_enable(bool(self.record_shapes))
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        if not self.enabled:
            return
        self.function_events = _build_events(_C._profiler_disable())
        return False

    def _check_finish(self):
        if self.function_events is None:
            raise RuntimeError("Profiler didn't finish running")

    def table(self, sort_by=None, row_limit=100, max_src_column_width=75, header=None, top_level_events_only=False):
        self._check_finish()
        return self.function_events.table(sort_by=sort_by, row_limit=row_limit, header=header,
                                          top_level_events_only=top_level_events_only)

    def key_averages(self, group_by_input_shape=False, group_by_stack_n=0):
        self._check_finish()
        return self.function_events.key_averages(group_by_input_shape, group_by_stack_n)

    def total_average(self):
        self._check_finish()
        return self.function_events.total_average()

    def export_chrome_trace(self, path):
        self._check_finish()
        return self.function_events.export_chrome_trace(path)

    @property
    def self_cpu_time_total(self):
        self._check_finish()
        return self.function_events.self_cpu_time_total

    def __str__(self):
        self._check_finish()
        return self.table()


class record_function(ContextDecorator):
    """A labelled range in the profile (an event named `name` around what runs inside it)."""

    def __init__(self, name, args=None):
        self.name = name
        self.args = args
        self._token = 0

    def __enter__(self):
        self._token = _C._profiler_range_push(self.name)
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        _C._profiler_range_pop(self._token)
        return False

