"""torch.utils.benchmark: Timer runs the statement at the asked thread count, Measurement's summaries
and printed form, Compare's table."""
import pytest
import torch
from torch.utils.benchmark import Compare, Measurement, TaskSpec, Timer


def test_timer_runs_the_statement_after_its_setup_at_its_thread_count():
    calls = []
    g = {'calls': calls}
    m = Timer('calls.append(torch.get_num_threads())', setup='calls.clear()', globals=g, num_threads=1).timeit(50)
    assert m.number_per_run == 50 and len(m.raw_times) == 1 and m.times[0] == m.raw_times[0] / 50
    assert calls and set(calls) == {1}
    blocked = Timer('x + y', setup='x = torch.ones(8); y = torch.ones(8)').blocked_autorange(min_run_time=0.02)
    assert sum(blocked.raw_times) >= 0.02 and len(blocked.times) >= 1 and blocked.median > 0
    adaptive = Timer('x * 2', setup='x = torch.ones(8)').adaptive_autorange(min_run_time=0.01, max_run_time=0.5)
    assert adaptive.median > 0 and len(adaptive.times) >= 1


def test_measurement_statistics_and_printed_form():
    spec = TaskSpec(stmt='f(x)', setup='x = 1', label='lab', sub_label='sub', description='desc', num_threads=2)
    m = Measurement(number_per_run=10, raw_times=[1e-5, 2e-5, 3e-5, 4e-5, 1e-4], task_spec=spec)
    assert m.times == pytest.approx([1e-6, 2e-6, 3e-6, 4e-6, 1e-5])
    assert m.median == pytest.approx(3e-6) and m.mean == pytest.approx(4e-6)
    assert m.iqr == pytest.approx(2e-6)  # 4e-6 - 2e-6, numpy's linear quantiles
    assert m.title == 'lab: sub' and m.description == 'desc' and m.num_threads == 2
    text = repr(m).splitlines()
    assert text[1:4] == ['lab: sub', 'desc', 'setup: x = 1']
    assert text[4] == '  Median: 3.00 us' and text[5] == '  IQR:    2.00 us (2.00 to 4.00)'
    assert text[6] == '  5 measurements, 10 runs per measurement, 2 threads'
    assert 'WARNING: Interquartile range is 66.7% of the median measurement.' in repr(m)


def test_compare_table_and_refusals():
    a = Measurement(1, [2e-6, 2e-6, 2e-6], TaskSpec('f()', 'pass', label='t', sub_label='row', description='c1'))
    b = Measurement(1, [4e-6, 4e-6, 4e-6], TaskSpec('g()', 'pass', label='t', sub_label='row', description='c2'))
    table = str(Compare([a, b]))
    assert '[ t ]' in table and 'c1' in table and 'c2' in table and '2.0' in table and '4.0' in table
    assert 'Times are in microseconds (us).' in table
    with pytest.raises(ValueError, match='only a `str` stmt'):
        Timer(lambda: None)
    with pytest.raises(NotImplementedError):
        Timer('pass').repeat()
