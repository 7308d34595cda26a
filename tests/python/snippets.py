"""Differential testing of whole snippets against the reference PyTorch (1.13.1), from recorded results.

differential.py compares expressions and the types of the errors they raise. The suites of nn, optim and
utils.data need more: a few statements to build a model or run an optimizer, and PyTorch's error
messages word for word. A snippet suite is a dict {case name: code}: the code runs in a fresh namespace
holding torch, nn (torch.nn), F (torch.nn.functional), math and pickle, and reports what it left in
`out` (tensors, numbers, strings, lists, tuples and dicts of them), or the type and message of the
exception it raised, and the warnings it issued. Both sides must agree exactly: float values bit for
bit unless the case gives a relative tolerance (a case may be (code, tolerance)).

The reference's reports are recorded by tools/record_reference into tests/data/reference/<name>.json. A
suite module defines, without importing this project's torch at module level:

    SUITE = SnippetSuite('optim', CASES)
    RECORDED, RUNNER, reference_request = SUITE.recorded, SUITE.runner, SUITE.reference_request
    reports = SUITE.fixture()

    @pytest.mark.parametrize('case', SUITE.names)
    def test_matches_reference(reports, case):
        SUITE.check(reports, case)
"""
import json
import math
import os
import subprocess
import sys

import pytest

from differential import DATA, load_recorded

RUNNER = r'''
import json, math, pickle, sys, warnings
import torch

def encode(v):
    if isinstance(v, torch.Tensor):
        return {"kind": "tensor", "dtype": str(v.dtype), "shape": list(v.shape),
                "values": v.detach().tolist(), "requires_grad": v.requires_grad}
    if isinstance(v, (torch.dtype, torch.device)):
        return {"kind": type(v).__name__, "value": str(v)}
    if isinstance(v, torch.Size):
        return {"kind": "size", "value": list(v)}
    if isinstance(v, dict):
        return {"kind": "dict", "items": [[encode(k), encode(x)] for k, x in v.items()]}
    if isinstance(v, (tuple, list)):
        return {"kind": type(v).__name__ if type(v) in (tuple, list) else "sequence", "items": [encode(x) for x in v]}
    if isinstance(v, float):
        return {"kind": "float", "value": v if math.isfinite(v) else repr(v)}
    if isinstance(v, (bool, int, str)) or v is None:
        return {"kind": type(v).__name__, "value": v}
    return {"kind": "other", "value": type(v).__name__}

out = {}
for name, code in json.load(sys.stdin):
    namespace = {"torch": torch, "nn": torch.nn, "F": torch.nn.functional, "math": math, "pickle": pickle}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            exec(code, namespace)
            report = encode(namespace.get("out"))
        except Exception as e:
            report = {"kind": "error", "type": type(e).__name__, "message": str(e)}
    report["warnings"] = sorted({str(w.message) for w in caught if w.category is not DeprecationWarning})
    out[name] = report
json.dump(out, sys.stdout)
'''


def _same_float(r, o, rel):
    if isinstance(r, str) or isinstance(o, str):  # inf, nan
        return r == o
    if math.isnan(r) or math.isnan(o):
        return math.isnan(r) and math.isnan(o)
    if r == 0 and o == 0:
        return math.copysign(1, r) == math.copysign(1, o) or rel > 0
    # a tolerance is relative, with a floor for values near 0 (cancellation leaves them less precise)
    return r == o or abs(r - o) <= rel * max(abs(r), 1e-2)


def _flatten(v):
    if isinstance(v, list):
        for x in v:
            yield from _flatten(x)
    else:
        yield v


def compare(ref, ours, rel, path='out'):
    """Asserts that our report matches the reference's (floats within rel, relative)."""
    assert ours['kind'] == ref['kind'], '%s: reference gives %s, ours %s' % (path, ref, ours)
    kind = ref['kind']
    if kind == 'error':
        assert (ours['type'], ours['message']) == (ref['type'], ref['message']), \
            '%s: reference raises %s: %s\nours %s: %s' % (path, ref['type'], ref['message'], ours['type'],
                                                          ours['message'])
    elif kind in ('list', 'tuple', 'sequence'):
        assert len(ours['items']) == len(ref['items']), '%s: %d items, reference %d' % (
            path, len(ours['items']), len(ref['items']))
        for i, (r, o) in enumerate(zip(ref['items'], ours['items'])):
            compare(r, o, rel, '%s[%d]' % (path, i))
    elif kind == 'dict':
        assert [k for k, _ in ours['items']] == [k for k, _ in ref['items']], '%s: keys %s, reference %s' % (
            path, [k for k, _ in ours['items']], [k for k, _ in ref['items']])
        for (k, r), (_, o) in zip(ref['items'], ours['items']):
            compare(r, o, rel, '%s[%s]' % (path, k.get('value')))
    elif kind == 'tensor':
        for key in ('dtype', 'shape', 'requires_grad'):
            assert ours[key] == ref[key], '%s: %s %s, reference %s' % (path, key, ours[key], ref[key])
        rv, ov = list(_flatten(ref['values'])), list(_flatten(ours['values']))
        bad = [(i, r, o) for i, (r, o) in enumerate(zip(rv, ov))
               if not (_same_float(r, o, rel) if isinstance(r, float) else r == o)]
        assert not bad, '%s: values differ (index, reference, ours): %s' % (path, bad[:8])
    elif kind == 'float':
        assert _same_float(ref['value'], ours['value'], rel), '%s: %r, reference %r' % (path, ours['value'],
                                                                                       ref['value'])
    else:
        assert ours == ref, '%s: ours %s, reference %s' % (path, ours, ref)


class SnippetSuite:
    def __init__(self, name, cases):
        self.name = name
        self.cases = {}
        self.tolerance = {}
        for case, code in cases.items():
            if isinstance(code, tuple):
                code, self.tolerance[case] = code
            self.cases[case] = code
        self.names = sorted(self.cases)
        self.recorded = DATA / (name + '.json')
        self.runner = RUNNER

    def reference_request(self):
        return [[n, self.cases[n]] for n in self.names]

    def fixture(self):
        suite = self

        @pytest.fixture(scope='module')
        def reports():
            import torch
            env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(os.path.abspath(torch.__file__))))
            proc = subprocess.run([sys.executable, '-c', suite.runner], input=json.dumps(suite.reference_request()),
                                  capture_output=True, text=True, env=env, cwd='/', timeout=600)
            assert proc.returncode == 0, 'our runner failed (rc %d):\n%s' % (proc.returncode, proc.stderr[-3000:])
            ours, recorded = json.loads(proc.stdout), load_recorded(suite.recorded)
            return {n: (recorded.get(n), ours[n]) for n in suite.names}
        return reports

    def check(self, reports, case):
        ref, ours = reports[case]
        if ref is None:
            pytest.fail('no recorded reference result for %r in %s: run tools/record_reference' % (
                case, self.recorded.relative_to(self.recorded.parents[3])))
        assert ours['warnings'] == ref['warnings'], 'warnings: ours %s, reference %s' % (ours['warnings'],
                                                                                         ref['warnings'])
        compare(ref, ours, self.tolerance.get(case, 0.0))
