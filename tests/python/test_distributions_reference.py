"""Differential suite of torch.distributions against the reference PyTorch (1.13.1): for every
distribution its shapes, support, constraints, repr, seeded samples (the reference's draws, value for
value), mean/mode/variance/stddev, entropy, expand, rsample with its gradients, log_prob with its
gradients, cdf/icdf, enumerate_support; validate_args errors by class and message; every transform
(forward, inverse, log|det J|, shapes, constraints, caching, gradients); constraints with biject_to and
transform_to; kl_divergence for every pair 1.13 registers; torch.distributions.utils.

The cases are distributions_cases/runner.py; their reference results are recorded in
tests/data/reference/distributions.json by `tools/record_reference distributions`. Floats agree within
1e-9 relative in float64 (1e-5 in float32); errors agree by class and message (CLASS_ONLY: by class).
Nothing here imports this project's torch at module level.
"""
import json
from pathlib import Path

import pytest
from differential import run_ours

HERE = Path(__file__).resolve().parent
RECORDED = HERE.parent / 'data' / 'reference' / 'distributions.json'
RUNNER = (HERE / 'distributions_cases' / 'runner.py').read_text()

# cases where both raise the same exception class but the message is not this package's to match:
# PyTorch 1.13 cannot differentiate Wishart.rsample (its redraw writes into a tensor saved for
# backward); its autograd engine names the tensor CPUBoolType there, the engine here torch.BoolTensor
# (core/src/autograd/saved.c)
CLASS_ONLY = {'Wishart rsample grad', 'Wishart_tril rsample grad'}


def reference_request():
    return []


@pytest.fixture(scope='module')
def both():
    assert RECORDED.exists(), 'record the reference first: tools/record_reference distributions'
    with open(RECORDED) as f:
        return json.load(f), run_ours([], RUNNER)


def _close(r, o, rtol):
    if r == o:
        return True
    if isinstance(r, str) or isinstance(o, str) or isinstance(r, bool) or isinstance(o, bool):
        return False
    if isinstance(r, (int, float)) and isinstance(o, (int, float)):
        return abs(r - o) <= rtol * (1 + abs(r))
    return False


def _compare(r, o, rtol, path='value'):
    """Reports are nested lists; tensors are ['T', dtype, shape, values], whose dtype and shape must be
    equal and whose values agree within rtol."""
    if isinstance(r, list) and r and r[0] == 'T' and len(r) == 4:
        assert isinstance(o, list) and o[:3] == r[:3], '%s: tensor %s, reference %s' % (path, o[:3], r[:3])
        tol = 1e-5 if r[1] in ('torch.float32', 'torch.complex64') else rtol
        bad = [(i, a, b) for i, (a, b) in enumerate(zip(r[3], o[3])) if not _close(a, b, tol)]
        assert not bad, '%s: %d of %d values differ (index, reference, ours): %s' % (path, len(bad), len(r[3]),
                                                                                    bad[:5])
    elif isinstance(r, list):
        assert isinstance(o, list) and len(o) == len(r), '%s: %r, reference %r' % (path, o, r)
        for i, (a, b) in enumerate(zip(r, o)):
            _compare(a, b, rtol, '%s[%d]' % (path, i))
    else:
        assert _close(r, o, rtol), '%s: %r, reference %r' % (path, o, r)


CASES = sorted(json.loads(RECORDED.read_text())) if RECORDED.exists() else []


@pytest.mark.parametrize('case', CASES)
def test_matches_reference(both, case):
    ref, ours = both
    r, o = ref[case], ours.get(case)
    assert o is not None, 'no such case in our run'
    assert r[0] == o[0], 'reference %s, ours %s' % (r, o)
    if r[0] == 'err':
        assert o[1:] == r[1:] or (case in CLASS_ONLY and o[1] == r[1]), 'reference %s, ours %s' % (r, o)
        return
    _compare(r[1], o[1], 1e-9)
