"""VALUES PYTORCH ROUNDS ITS OWN WAY, BIT FOR BIT AGAINST THE REFERENCE PYTORCH (1.13.1): linspace,
logspace, arange, gelu of contiguous float32 tensors (oneDNN's erf approximation, gelu_erf.c), and
float32/float64 pow (its special exponents and SLEEF's pow, pow.c).

PyTorch's CPU linspace and arange round as their vectorised kernels do (plugins/cpu/linspace.h says how), and
that depends on the CPU capability it runs with (DEFAULT, AVX2 or AVX512: vector widths and fused
multiply-adds) and, above 32768 elements, on its thread count. The reference's values are recorded
with its capability in tests/data/reference/rounding.json by tools/record_reference. Every ISA variant
of our CPU plugin (x86-64-v2, v3, v4; TORCH_CPU_ISA forces one) rounds as PyTorch's AVX2 capability
does, the one the reference runs at on the project's machines, AVX-512 ones included: where the
recorded capability is AVX2, every value must be the reference's bit for bit in every variant; values
recorded with another capability must still lie within one unit in the last place (one for integers).
Complex logspace, whose kernel is not vectorised, is compared bit for bit everywhere.
Nothing at module level may import this project's torch.
"""
import json
import math
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

RECORDED = Path(__file__).resolve().parents[1] / 'data' / 'reference' / 'rounding.json'

# Reads [[threads, expression], ...] as JSON and writes {"threads expression": [hex or int, ...], ...,
# CAPABILITY: the CPU capability the values were computed with}.
RUNNER = r'''
import json, re, sys
import torch

def capability():
    config = getattr(torch, '__config__', None)
    if config is not None:
        found = re.search(r'CPU capability usage: (\w+)', config.show())
        if found:
            return found.group(1)
    for p in torch._C._plugins():
        if p['name'] == 'cpu' and p['state'] == 'loaded':
            level = re.search(r'x86-64-v(\d)', p['version'])
            return {'2': 'DEFAULT', '3': 'AVX2', '4': 'AVX512'}[level.group(1)] if level else 'unknown'
    return 'unknown'

def values(t):
    if t.is_complex():
        t = torch.view_as_real(t)
    return [float(v).hex() if t.is_floating_point() else int(v) for v in t.flatten().tolist()]

out = {}
for threads, expr in json.load(sys.stdin):
    torch.set_num_threads(threads)
    try:
        out['%d %s' % (threads, expr)] = values(eval(expr, {'torch': torch}))
    except Exception as e:
        out['%d %s' % (threads, expr)] = {'error': type(e).__name__}
out['capability'] = capability()
json.dump(out, sys.stdout)
'''

FLOATS = ['float32', 'float64', 'complex64', 'complex128']
INTEGERS = ['int64', 'int32', 'int16', 'int8', 'uint8']
BOUNDS = [(-2.194, 1.583, 7), (0.1, 0.7, 33), (-1.3, 2.9, 100), (1e-3, 5.5, 1000), (3, -7.25, 77), (0, 1, 11),
          (5, 5, 9), (-1e30, 1e30, 17)]
# the ends of a long range and the neighbourhood of its middle, where a second thread's piece starts
WINDOWS = '(lambda x: torch.cat([x[:40], x[19970:20040], x[-40:]]))(%s)'
INT_BOUNDS = [(0, 10, 20), (3, -7, 33), (1, 100, 7), (0, 255, 1000), (-5, 90, 77), (0, 1, 64)]


def _linspace_cases():
    cases = []
    for dt in FLOATS:
        for s, e, n in BOUNDS:
            if dt.startswith('complex'):
                s, e = complex(s, e / 3), complex(e, -s / 7)
            cases.append((1, 'torch.linspace(%r, %r, %d, dtype=torch.%s)' % (s, e, n, dt)))
    for dt in INTEGERS:
        for s, e, n in INT_BOUNDS:
            if dt in ('uint8', 'int8') and (s < 0 or e > 127):
                continue
            cases.append((1, 'torch.linspace(%d, %d, %d, dtype=torch.%s)' % (s, e, n, dt)))
    for threads in (1, 2):  # pieces of PyTorch's parallel_for above 32768 elements (two: 20002 each)
        for dt in ('float32', 'float64', 'int64', 'complex64'):
            cases.append((threads, WINDOWS % 'torch.linspace(-3.3, 17.9, 40003, dtype=torch.%s)' % dt))
    cases.append((1, 'torch.linspace(0, 1, 1000)[::3]'))
    return cases


def _logspace_cases():
    cases = []
    for dt in ('complex64', 'complex128'):
        for s, e, n, b in [(0, 1j, 5, 10.), (1 + 1j, 2 - 1j, 7, 2.), (1, 2, 4, 10.), (-1.5 + 2j, 3.25 - 0.5j, 9, 3.),
                           (0.3, 0.9j, 6, 10.), (-2.194 + 2.085j, 1.583 - 1.47j, 7, 0.5), (1 + 1j, 2, 1, 10.),
                           (-0.251 - 2.832j, -1.622 - 1.937j, 10, 2.), (1 + 1j, 2, 1, -2.), (0, 2j, 40, 0.)]:
            cases.append((1, 'torch.logspace(%r, %r, %d, base=%r, dtype=torch.%s)' % (s, e, n, b, dt)))
    cases.append((2, WINDOWS % 'torch.logspace(-1+2j, 3-1j, 40003, base=1.5, dtype=torch.complex64)'))
    return cases


def _arange_cases():
    cases = []
    for dt in ('float32', 'float64', 'float16', 'bfloat16'):
        for s, e, step in [(0, 10, 0.1), (-3.3, 17.9, 0.37), (1, 1000, 1.5), (0.1, 0.9, 0.013), (5, -5, -0.3)]:
            cases.append((1, 'torch.arange(%r, %r, %r, dtype=torch.%s)' % (s, e, step, dt)))
    for threads in (1, 2):
        for dt in ('float32', 'float64'):
            cases.append((threads, WINDOWS % 'torch.arange(-3.3, 4000.0, 0.1, dtype=torch.%s)' % dt))
    cases.append((1, 'torch.arange(0.5, 20, 0.25, dtype=torch.float64)[1::3]'))
    return cases


def _gelu_cases():
    """Contiguous float32 gelu is oneDNN's arithmetic in PyTorch on every CPU capability, so these are
    exact everywhere; their inputs are exact ranges (arange's float64 steps, rounded to float32)."""
    x = 'torch.arange(-12, 12, 0.0031, dtype=torch.float64).float()'
    cases = [(1, 'torch.nn.functional.gelu(%s)' % x), (2, 'torch.nn.functional.gelu(%s)' % x),
             (1, 'torch.nn.functional.gelu(%s.view(-1, 7)[:5])' % x.replace('12, 0', '12.0031, 0')),
             (1, "torch.nn.functional.gelu(torch.tensor([0., -0., 1e-30, -1e-30, 1e-45, 3.4e38, -3.4e38, "
                 "float('inf'), float('-inf'), float('nan'), 88.7, -88.7, 5e-8, -5e-8]))"),
             ]
    return cases


# pow cases whose values come from SLEEF's pow, a 1-ulp function whose builds for SSE4, AVX2 and AVX-512
# may differ in the last bit: exact where our variant calls the reference's (AVX2) build.
SLEEF_CASES = set()


def _pow_cases():
    """pow's special exponents (x ** 2 is x * x, ...), SLEEF's pow on the vector part of a contiguous
    run and libm's on its tail and on strided runs (plugins/cpu/pow.c), float32 and float64; inputs
    are exact ranges with negatives, so NaN signs count too. Not compared: runs longer than 32768
    elements on several threads, whose vector parts end where PyTorch's threads split them, and
    transposed inputs, whose results PyTorch lays out as the input (this project: row-major)."""
    cases = []
    for dt in ('float32', 'float64'):
        x = '((torch.arange(-500, 503, dtype=torch.float64) / 97).to(torch.%s))' % dt
        ax = '%s.abs()' % x
        y = '((torch.arange(1003, dtype=torch.float64) / 331 - 1).to(torch.%s))' % dt
        for e in ['2', '3', '-2', '0.5', '-0.5', '-1', '1.7', '2.5', '-3', '0.1', '7', '0', '1', '2.0']:
            cases += [(1, 'torch.pow(%s, %s)' % (x, e)), (1, '%s[::2] ** %s' % (x, e))]
            if float(e) not in (2, 3, -2, 0.5, -0.5, -1):
                SLEEF_CASES.add('torch.pow(%s, %s)' % (x, e))
        sleef = ['torch.pow(%s, %s)' % (ax, y), 'torch.pow(%s, torch.tensor(2.0, dtype=torch.%s))' % (ax, dt),
                 'torch.pow(2.5, %s)' % y, 'torch.float_power(%s, 1.3)' % ax]
        SLEEF_CASES.update(sleef)
        cases += [(1, c) for c in sleef] + [(1, 'torch.pow(%s[::2], %s[::2])' % (ax, y)),
                                            (1, 'torch.square(%s)' % x), (1, 'torch.float_power(%s, 2)' % x)]
    return cases


CASES = _linspace_cases() + _logspace_cases() + _arange_cases() + _gelu_cases() + _pow_cases()


def reference_request():
    return CASES


def _run_ours():
    import torch
    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(os.path.abspath(torch.__file__))))
    proc = subprocess.run([sys.executable, '-c', RUNNER], input=json.dumps(CASES), capture_output=True, text=True,
                          env=env, cwd='/', timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout)


@pytest.fixture(scope='module')
def both():
    assert RECORDED.exists(), 'record the reference first: tools/record_reference rounding'
    with open(RECORDED) as f:
        return json.load(f), _run_ours()


# The capability whose rounding every variant of our CPU plugin reproduces (plugins/cpu/linspace.h).
FOLLOWED_CAPABILITY = 'AVX2'


# Units in the last place of each dtype, in units of float64's (its 52 fraction bits less theirs).
ULP_SHIFT = {'float16': 42, 'bfloat16': 45, 'float32': 29, 'complex64': 29, 'float64': 0, 'complex128': 0}


def _dtype_of(expr):
    """The floating dtype an expression computes in: the last one it names, else the default."""
    named = re.findall(r'torch\.(float16|bfloat16|float32|float64|complex64|complex128)\b', expr)
    return named[-1] if named else 'float32'


def _close(r, o, dtype):
    if isinstance(r, int):
        return abs(r - o) <= 1
    r, o = float.fromhex(r), float.fromhex(o)
    if r == o or (math.isnan(r) and math.isnan(o)):
        return True
    return abs(r - o) <= math.ulp(r) * 2 ** ULP_SHIFT.get(dtype, 0)


@pytest.mark.parametrize('threads,expr', CASES, ids=['%d %s' % c for c in CASES])
def test_matches_reference(both, threads, expr):
    ref, ours = both
    key = '%d %s' % (threads, expr)
    r, o = ref[key], ours[key]
    assert len(r) == len(o), (len(r), len(o))
    exact = ref['capability'] == FOLLOWED_CAPABILITY or 'logspace' in expr or 'gelu' in expr
    if expr in SLEEF_CASES:
        exact = ref['capability'] == ours['capability']
    if exact:
        bad = [(i, a, b) for i, (a, b) in enumerate(zip(r, o)) if a != b]
    else:
        bad = [(i, a, b) for i, (a, b) in enumerate(zip(r, o)) if not _close(a, b, _dtype_of(expr))]
    assert not bad, '%d of %d values differ (index, reference, ours; capability %s, our variant %s): %s' % (
        len(bad), len(r), ref['capability'], ours['capability'], bad[:6])


def test_errors():
    import torch
    with pytest.raises(RuntimeError, match=r"inferred dtype c10::complex<float> can't be safely cast to passed dtype"):
        torch.logspace(2j, 3, 3, dtype=torch.float32)
    with pytest.raises(RuntimeError, match=r"inferred dtype c10::complex<float> can't be safely cast to passed dtype"):
        torch.linspace(2j, 3, 3, dtype=torch.int64)
    with pytest.raises(RuntimeError, match="\"logspace_cpu\" not implemented for 'ComplexHalf'"):
        torch.logspace(0, 1, 3, dtype=torch.complex32)
    assert torch.logspace(2j, 3, 3).dtype == torch.complex64


def test_gelu_vectors_match_the_scalar_steps():
    """Contiguous float32 gelu computes whole vectors (four at a time, then one) and the rest of a
    tensor element by element; both must give oneDNN's values bit for bit. A sweep of bit patterns
    (every sign, exponent and NaN) through one tensor, against the same values taken seven at a time,
    which a vector never covers."""
    import torch
    bits = torch.arange(-2 ** 31, 2 ** 31, 2 ** 32 // (7 * 3000) + 1, dtype=torch.int64).to(torch.int32)
    x = bits.view(torch.float32)
    whole = torch.nn.functional.gelu(x).view(torch.int32)
    pieces = torch.cat([torch.nn.functional.gelu(x[i:i + 7].clone()) for i in range(0, len(x), 7)]).view(torch.int32)
    differ = (whole != pieces).nonzero().flatten()
    assert len(differ) == 0, [(float(x[i]), int(whole[i]), int(pieces[i])) for i in differ[:6]]
