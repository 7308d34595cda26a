"""torch.masked's functional ops (sum, prod, amax, amin, argmax, argmin, mean, median, logsumexp, norm,
var, std, softmax, log_softmax, softmin, cumsum, cumprod, normalize, logaddexp) against the reference
PyTorch (1.13.1): fully and partly masked slices, broadcast masks, dtypes, errors. The cases are
masked_cases.py; their results are recorded in tests/data/reference/masked.json by
`tools/record_reference masked`. Nothing here imports this project's torch at module level."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
RECORDED = HERE.parent / 'data' / 'reference' / 'masked.json'
RUNNER = (HERE / 'masked_cases.py').read_text()
CASES = sorted(json.loads(RECORDED.read_text())) if RECORDED.exists() else []


def reference_request():
    return []


@pytest.fixture(scope='module')
def both():
    import torch
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(os.path.abspath(torch.__file__))))
    proc = subprocess.run([sys.executable, '-W', 'ignore', '-c', RUNNER], capture_output=True, text=True, env=env,
                          cwd='/', timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(RECORDED.read_text()), json.loads(proc.stdout)


@pytest.mark.parametrize('case', CASES)
def test_matches_reference(both, case):
    ref, ours = both
    r, o = ref[case], ours[case]
    assert r[:2] == o[:2], (r, o)
    if r[0] == 'err':
        assert r[2] == o[2]
        return
    assert len(r[2]) == len(o[2])
    bad = [(a, b) for a, b in zip(r[2], o[2])
           if not (a == b or (a is not None and b is not None and abs(a - b) <= 1e-5 * (1 + abs(a))))]
    assert not bad, bad[:5]
