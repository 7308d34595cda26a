"""Compare: Measurements in a table, rows by sub_label (or statement), columns by description, one
table per label."""
import collections

from torch.utils.benchmark.utils.common import select_unit

__all__ = ['Compare']


class Compare:
    def __init__(self, results):
        self._results = list(results)
        self._trim_significant_figures = False
        self._colorize = False
        self._highlight_warnings = False

    def trim_significant_figures(self):
        self._trim_significant_figures = True

    def colorize(self, rowwise=False):
        self._colorize = True

    def highlight_warnings(self):
        self._highlight_warnings = True

    def extend_results(self, results):
        self._results.extend(results)

    def __str__(self):
        return '\n'.join(self._render())

    def print(self):
        print(str(self))

    def _render(self):
        tables = collections.OrderedDict()
        for m in self._results:
            tables.setdefault(m.task_spec.label, []).append(m)
        out = []
        for label, group in tables.items():
            columns = list(collections.OrderedDict.fromkeys(m.task_spec.description for m in group))
            rows = list(collections.OrderedDict.fromkeys((m.as_row_name(), m.task_spec.num_threads) for m in group))
            unit, scale = select_unit(min(m.median for m in group))
            cells = {((m.as_row_name(), m.task_spec.num_threads), m.task_spec.description): m for m in group}
            header = [''] + [c if c is not None else '' for c in columns]
            body = []
            threads_seen = len({t for _, t in rows}) > 1
            for row in rows:
                name = row[0] + (' (%d threads)' % row[1] if threads_seen else '')
                line = [name]
                for c in columns:
                    m = cells.get((row, c))
                    if m is None:
                        line.append('')
                    else:
                        value = m.median / scale
                        text = ('%.*g' % (max(m.significant_figures, 1), value)) if self._trim_significant_figures \
                            else '%.1f' % value
                        line.append(text + (' (! %.0f%%)' % (m.iqr / m.median * 100)
                                            if self._highlight_warnings and m.has_warnings else ''))
                body.append(line)
            widths = [max(len(r[i]) for r in [header] + body) for i in range(len(header))]
            title = '[{}]'.format(' ' + label + ' ' if label else '')
            out.append('{:-^{}}'.format(title, sum(widths) + 3 * len(widths)))
            out.append(' | '.join(h.center(w) for h, w in zip(header, widths)))
            for line in body:
                out.append(' | '.join([line[0].ljust(widths[0])] + [v.rjust(w) for v, w in zip(line[1:], widths[1:])]))
            out.append('\nTimes are in {}s ({}).\n'.format({'ns': 'nanosecond', 'us': 'microsecond',
                                                            'ms': 'millisecond', 's': 'second'}[unit], unit))
        return out
