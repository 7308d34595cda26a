"""torch.profiler and torch.autograd.profiler: real op events (names, nesting, self and total CPU time,
input shapes), record_function ranges, tables, Chrome traces, schedules; python3 -m
torch.utils.bottleneck."""
import json
import os
import subprocess
import sys

import pytest
import torch
from torch.autograd import profiler as legacy
from torch.profiler import ProfilerAction, ProfilerActivity, profile, record_function, schedule


def test_ops_are_recorded_with_nesting_shapes_and_times(tmp_path):
    x = torch.randn(16, 16, requires_grad=True)
    with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as prof:
        with record_function('model_inference'):
            y = (x @ x).relu().sum()
        y.backward()
    events = prof.events()
    by_name = {}
    for e in events:
        by_name.setdefault(e.name, []).append(e)
    assert {'aten::matmul', 'aten::mm', 'aten::relu', 'aten::sum', 'model_inference'} <= set(by_name)
    block = by_name['model_inference'][0]
    inside = {c.name for c in block.cpu_children}
    assert 'aten::matmul' in inside and 'aten::relu' in inside
    matmul = by_name['aten::matmul'][0]
    assert any(c.name == 'aten::mm' for c in matmul.cpu_children)  # matmul's parts nest inside it
    assert matmul.input_shapes[:2] == [[16, 16], [16, 16]]
    for e in events:
        assert e.cpu_time_total >= e.self_cpu_time_total >= -1e-9
    averages = prof.key_averages()
    mm = [a for a in averages if a.key == 'aten::mm'][0]
    assert mm.count == sum(1 for e in events if e.name == 'aten::mm') and mm.cpu_time_total > 0
    table = averages.table(sort_by='cpu_time_total', row_limit=5)
    lines = table.splitlines()
    assert 'Self CPU %' in lines[1] and '# of Calls' in lines[1] and 'Input Shapes' not in lines[1]
    assert lines[-1].startswith('Self CPU time total: ')
    assert 'Input Shapes' in prof.key_averages(group_by_input_shape=True).table().splitlines()[1]
    path = tmp_path / 'trace.json'
    prof.export_chrome_trace(str(path))
    trace = json.loads(path.read_text())
    assert any(ev['name'] == 'aten::mm' and ev['ph'] == 'X' and ev['dur'] >= 0 for ev in trace)


def test_legacy_profiler_and_its_errors():
    with legacy.profile() as prof:
        torch.ones(3) + 1
    assert 'aten::add' in {e.key for e in prof.key_averages()}
    p = legacy.profile()
    with pytest.raises(RuntimeError, match="Profiler didn't finish running"):
        p.key_averages()
    with pytest.raises(RuntimeError, match='CPU time only'):
        legacy.profile(use_cuda=True)
    with legacy.profile(enabled=False) as off:
        torch.ones(2)
    assert off.function_events is None
    with record_function('outside a profile'):  # nothing to record, nothing to fail
        torch.ones(2)


def test_schedule_and_trace_handler(tmp_path):
    s = schedule(wait=1, warmup=1, active=2, repeat=1)
    assert [s(i) for i in range(6)] == [ProfilerAction.NONE, ProfilerAction.WARMUP, ProfilerAction.RECORD,
                                        ProfilerAction.RECORD_AND_SAVE, ProfilerAction.NONE, ProfilerAction.NONE]
    saved = []
    with profile(schedule=s, on_trace_ready=lambda p: saved.append({e.name for e in p.events()})) as prof:
        for step in range(5):
            torch.full((2,), float(step)).exp()
            prof.step()
    assert len(saved) == 1 and 'aten::exp' in saved[0]
    handler = torch.profiler.tensorboard_trace_handler(str(tmp_path), worker_name='w')
    with profile(on_trace_ready=handler):
        torch.ones(4).sum()
    files = os.listdir(tmp_path)
    assert len(files) == 1 and files[0].startswith('w.') and files[0].endswith('.pt.trace.json')


def test_bottleneck_runs_a_script(tmp_path):
    script = tmp_path / 's.py'
    script.write_text("import torch\nx = torch.randn(8, 8)\nprint('result', (x @ x).shape)\n")
    out = subprocess.run([sys.executable, '-m', 'torch.utils.bottleneck', str(script)], capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.count('result torch.Size([8, 8])') == 2 and 'aten::mm' in out.stdout
    assert 'cProfile output' in out.stdout and 'autograd profiler output' in out.stdout
