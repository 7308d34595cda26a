"""This project against the reference PyTorch 1.13's recorded results (tests/data/reference_cases.json,
from `tools/fuzz --record-cases`) for the classes of the reliability issue: float-to-integer conversions,
bool indices, overlapping in-place writes, creation from odd Python data, and PyTorch's small
semantics (sum(dtype=bool), repeated dims, .T of a 0-dim tensor, Tensor(tensor))."""
import json
import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, 'tools'))

from fuzzlib import describe, worker  # noqa: E402
from reference_cases import CASES  # noqa: E402

DATA = json.load(open(os.path.join(ROOT, 'tests', 'data', 'reference_cases.json')))

def cases():
    for suite, codes in CASES.items():
        for i, code in enumerate(codes):
            yield pytest.param(code, id='%s-%d' % (suite, i))


@pytest.mark.parametrize('code', cases())
def test_matches_reference(code):
    ours = worker.run_case(code)
    why = describe.differ(ours, DATA[code])
    assert why is None, '%s\n%s' % (code, why)
