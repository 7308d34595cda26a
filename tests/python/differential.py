"""Differential testing against the reference PyTorch (1.13.1), from recorded results.

A suite is a list of Python expressions (or (ours, reference's) pairs). This project's torch
evaluates them in a subprocess (a crash is a failed test, not a dead pytest); the reference's
reports were recorded by tools/record_reference into tests/data/reference/<name>.json. Each side
reports, as JSON, a result's kind, dtype, shape, values and strides, or an exception's type; the two
must agree (floats within one unit in the last place of their dtype, NaN equal to NaN, -0.0 unequal
to 0.0, float16/bfloat16/float32 values exactly representable in their dtype).

A suite module defines, without importing this project's torch at module level (the recorder loads it
by path):

    from differential import Suite
    SUITE = Suite('pointwise', EXPRESSIONS)
    RECORDED, RUNNER, reference_request = SUITE.recorded, SUITE.runner, SUITE.reference_request
    reports = SUITE.fixture()

    @pytest.mark.parametrize('expr', SUITE.expressions)
    def test_matches_reference(reports, expr):
        SUITE.check(reports, expr)

tools/record_reference finds every tests/python module that assigns RECORDED.
"""
import json
import math
import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[1] / 'data' / 'reference'

# Evaluates every expression of the JSON list on stdin with whichever torch is importable; writes a
# JSON object mapping each expression to its report. Both our side and the recorder run it.
RUNNER = r'''
import json, math, sys
import torch

def plain(x):  # complex values as [real, imag] pairs (JSON has no complex numbers)
    if isinstance(x, list):
        return [plain(y) for y in x]
    return [x.real, x.imag] if isinstance(x, complex) else x

def encode(v):
    if isinstance(v, torch.Tensor):
        return {"kind": "tensor", "dtype": str(v.dtype), "shape": list(v.shape), "values": plain(v.tolist()),
                "stride": list(v.stride())}
    if isinstance(v, torch.dtype):
        return {"kind": "dtype", "value": str(v)}
    if isinstance(v, torch.Size):
        return {"kind": "size", "value": list(v)}
    if isinstance(v, torch.device):
        return {"kind": "device", "value": str(v)}
    if isinstance(v, (tuple, list)):
        return {"kind": "tuple", "items": [encode(x) for x in v]}
    if isinstance(v, complex):
        return {"kind": "complex", "value": [v.real, v.imag]}
    if isinstance(v, (bool, int, float, str)) or v is None:
        return {"kind": type(v).__name__, "value": v}
    return {"kind": "other", "value": type(v).__name__}

out = {}
for expr in json.load(sys.stdin):
    try:
        out[expr] = encode(eval(expr, {"torch": torch, "math": math}))
    except Exception as e:
        out[expr] = {"kind": "error", "type": type(e).__name__, "message": str(e)[:300]}
json.dump(out, sys.stdout)
'''

# (relative, absolute) tolerance per float dtype: one unit in the last place of the dtype, so that
# a different but correctly rounded libm result passes and an unrounded or wrong one does not.
TOLERANCE = {'torch.float16': (1e-3, 1e-7), 'torch.bfloat16': (8e-3, 1e-38), 'torch.float32': (3e-7, 1e-30),
             'torch.float64': (1e-13, 1e-300), 'torch.complex64': (3e-7, 1e-30), 'torch.complex128': (1e-13, 1e-300)}


def representable(v, dtype):
    """Whether float v is exactly a value of dtype (a float16 result must be rounded to float16)."""
    if math.isnan(v) or math.isinf(v):
        return True
    if dtype in ('torch.float32', 'torch.complex64'):
        return struct.unpack('f', struct.pack('f', v))[0] == v
    if dtype == 'torch.float16':
        try:
            return struct.unpack('e', struct.pack('e', v))[0] == v
        except OverflowError:
            return False
    if dtype == 'torch.bfloat16':
        bits = struct.unpack('I', struct.pack('f', v))[0]
        return struct.unpack('f', struct.pack('f', v))[0] == v and bits & 0xFFFF == 0
    return True


def flatten(v):
    if isinstance(v, list):
        for x in v:
            yield from flatten(x)
    else:
        yield v


def same_value(r, o, dtype, scale=0.0, tolerance=None):
    """r (reference) and o (ours) agree: same Python type, and floats within the dtype's tolerance of
    each other (or of `scale`, the largest magnitude in a computed range, whose rounding error it
    bounds). Complex values are [real, imag] pairs."""
    if isinstance(r, list) and isinstance(o, list) and len(r) == len(o) == 2:
        return all(same_value(a, b, dtype, scale, tolerance) for a, b in zip(r, o))
    if type(r) is not type(o):
        return False
    if isinstance(r, float):
        if math.isnan(r) or math.isnan(o):
            return math.isnan(r) and math.isnan(o)
        if not representable(o, dtype):
            return False
        if r == 0 and o == 0:  # -0.0 == 0.0 in Python; the sign must match too
            return math.copysign(1, r) == math.copysign(1, o)
        rel, ab = (tolerance or TOLERANCE).get(dtype, (1e-12, 1e-300))
        return r == o or (not math.isinf(r) and abs(r - o) <= max(rel * abs(r), rel * scale, ab))
    return r == o


def compare(ref, ours, path='result', strides=False, ranged=False, tolerance=None):
    """Asserts that our report matches the reference's."""
    assert ours['kind'] == ref['kind'], '%s: reference gives %s, ours %s' % (path, ref, ours)
    kind = ref['kind']
    if kind == 'error':
        assert ours['type'] == ref['type'], '%s: reference raises %s (%s), ours %s (%s)' % (
            path, ref['type'], ref['message'], ours['type'], ours['message'])
    elif kind == 'tuple':
        assert len(ours['items']) == len(ref['items'])
        for i, (r, o) in enumerate(zip(ref['items'], ours['items'])):
            compare(r, o, '%s[%d]' % (path, i), strides, ranged, tolerance)
    elif kind == 'tensor':
        assert ours['dtype'] == ref['dtype'], '%s: dtype %s, reference %s' % (path, ours['dtype'], ref['dtype'])
        assert ours['shape'] == ref['shape'], '%s: shape %s, reference %s' % (path, ours['shape'], ref['shape'])
        rv, ov = list(flatten(ref['values'])), list(flatten(ours['values']))
        scale = max([abs(r) for r in rv if isinstance(r, float) and math.isfinite(r)], default=0.0) if ranged else 0.0
        bad = [(i, r, o) for i, (r, o) in enumerate(zip(rv, ov))
               if not same_value(r, o, ref['dtype'], scale, tolerance)]
        assert len(rv) == len(ov) and not bad, (
            '%s: values differ (index, reference, ours): %s\nreference %s\nours %s'
            % (path, bad[:8], ref['values'], ours['values']))
        if strides:
            assert ours['stride'] == ref['stride'], '%s: stride %s, reference %s' % (
                path, ours['stride'], ref['stride'])
    elif kind in ('float', 'complex'):
        assert same_value(ref['value'], ours['value'], 'torch.float64', tolerance=tolerance), (
            '%s: %r != reference %r' % (path, ours['value'], ref['value']))
    else:
        assert ours == ref, '%s: ours %s, reference %s' % (path, ours, ref)


def run_ours(expressions, runner=RUNNER):
    """Our reports, from a subprocess importing the very package this run tests."""
    import torch
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(os.path.abspath(torch.__file__))))
    proc = subprocess.run([sys.executable, '-c', runner], input=json.dumps(expressions), capture_output=True,
                          text=True, env=env, cwd='/', timeout=300)
    assert proc.returncode == 0, 'our runner failed (rc %d):\n%s' % (proc.returncode, proc.stderr[-3000:])
    return json.loads(proc.stdout)


def load_recorded(path):
    """The recorded reports; empty when the file is missing, so that every test fails with the hint to
    record instead of erroring in a fixture."""
    if not path.exists():
        return {}
    with open(path) as f:
        return json.load(f)


class Suite:
    """Expressions (or (ours, reference's) pairs) compared with the recorded reference.

    strided: expressions whose strides are compared too (views: strides are part of what they
    mean); ranged: a predicate for expressions whose float error is bounded by the largest magnitude
    of the result (linspace, arange, cumulative sums); tolerance: overrides of TOLERANCE."""

    def __init__(self, name, cases, strided=(), ranged=None, tolerance=None):
        pairs = {}
        for c in cases:
            ours, ref = c if isinstance(c, tuple) else (c, c)
            pairs[ours] = ref
        self.name = name
        self.cases = sorted(pairs.items(), key=lambda c: (len(c[0]), c[0]))
        self.expressions = [ours for ours, _ in self.cases]
        self.recorded = DATA / (name + '.json')
        self.runner = RUNNER
        self.strided = set(strided)
        self.ranged = ranged or (lambda expr: False)
        self.tolerance = dict(TOLERANCE, **(tolerance or {}))

    def reference_request(self):
        """What the recorder feeds RUNNER under the reference: the reference-side expressions, in the
        order ours run in (an expression could in principle change global state)."""
        return [ref for _, ref in self.cases]

    def fixture(self):
        suite = self

        @pytest.fixture(scope='module')
        def reports():
            ours, recorded = run_ours(suite.expressions), load_recorded(suite.recorded)
            assert len(ours) == len(suite.expressions)
            return {expr: (recorded.get(ref), ours[expr]) for expr, ref in suite.cases}
        return reports

    def check(self, reports, expr):
        ref, ours = reports[expr]
        if ref is None:
            pytest.fail('no recorded reference result for %r in %s: run tools/record_reference'
                        % (dict(self.cases)[expr], self.recorded.relative_to(self.recorded.parents[3])))
        compare(ref, ours, strides=expr in self.strided, ranged=self.ranged(expr), tolerance=self.tolerance)
