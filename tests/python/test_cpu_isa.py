"""THE CPU PLUGIN'S ISA VARIANTS: TORCH_CPU_ISA=2|3|4 forces one, and every variant this machine runs
passes the differential suites.

The CPU plugin is built once per x86-64 level (x86-64-v2, v3 with AVX2/FMA, v4 with AVX-512) and the
best one the CPU supports loads. A variant that rounds differently from the others would pass CI on
one machine and fail on the next, so the suites that compare with the reference's recorded results
run again here under each other variant the machine supports (the main run already covers the
default one). An unknown or unsupported value is reported on stderr and the best variant loads.
"""
import json
import os
import pathlib
import re
import subprocess
import sys

import pytest

HERE = pathlib.Path(__file__).resolve().parent

STATES = r'''
import json, torch
print(json.dumps([(p['version'], p['state']) for p in torch.backends.plugins() if p['name'] == 'cpu']))
'''


def _run(code, isa=None, timeout=120):
    env = dict(os.environ)
    env.pop('TORCH_CPU_ISA', None)
    if isa is not None:
        env['TORCH_CPU_ISA'] = isa
    return subprocess.run([sys.executable, '-c', code], env=env, capture_output=True, text=True, timeout=timeout)


def _variants(isa=None):
    """{level: state} of the CPU plugin's variants in a fresh process, and its stderr."""
    out = _run(STATES, isa)
    assert out.returncode == 0, out.stderr
    rows = json.loads(out.stdout)
    return {int(re.search(r'x86-64-v(\d)', v).group(1)): state for v, state in rows}, out.stderr


DEFAULT, _ = _variants()
RUNNABLE = sorted(level for level, state in DEFAULT.items() if state in ('loaded', 'shadowed'))
BEST = max(RUNNABLE)


def test_default_is_the_best_runnable_variant():
    assert DEFAULT[BEST] == 'loaded'
    assert all(state == 'shadowed' for level, state in DEFAULT.items() if level in RUNNABLE and level != BEST)


@pytest.mark.parametrize('level', [2, 3, 4])
def test_forced_variant_loads(level):
    if level not in RUNNABLE:
        pytest.skip('this CPU does not run x86-64-v%d' % level)
    states, err = _variants(str(level))
    assert states[level] == 'loaded'
    assert [lv for lv, s in states.items() if s == 'loaded'] == [level]
    assert 'TORCH_CPU_ISA' not in err


@pytest.mark.parametrize('value', ['7', '1', 'avx2', '33', 'v3'])
def test_unknown_value_is_reported_and_the_best_loads(value):
    states, err = _variants(value)
    assert states[BEST] == 'loaded'
    assert "TORCH_CPU_ISA: '%s' is not one of 2, 3, 4" % value in err
    assert 'the variants this CPU runs: ' + ', '.join('%d (x86-64-v%d' % (lv, lv) for lv in RUNNABLE[:1]) in err
    assert 'loading x86-64-v%d' % BEST in err


def test_unsupported_value_is_reported_and_the_best_loads():
    if BEST == 4:
        pytest.skip('this CPU runs every variant')
    states, err = _variants('4')
    assert states[BEST] == 'loaded'
    assert 'TORCH_CPU_ISA: this CPU does not support x86-64-v4 (AVX-512)' in err
    assert 'loading x86-64-v%d' % BEST in err


def test_plugins_command_reports_the_variant():
    env = dict(os.environ, TORCH_CPU_ISA=str(RUNNABLE[0]))
    out = subprocess.run([sys.executable, '-m', 'torch.plugins'], env=env, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    line = [ln for ln in out.stdout.splitlines() if ln.startswith('CPU variant:')]
    assert line == ['CPU variant: x86-64-v%d (runnable here: %s; TORCH_CPU_ISA=%d, one of 2|3|4 forces a variant)'
                    % (RUNNABLE[0], ', '.join('x86-64-v%d' % lv for lv in RUNNABLE), RUNNABLE[0])]


def test_linspace_and_gelu_bits_agree_across_variants():
    """The same bits in every variant (the suites below check them against the reference). SLEEF's
    functions (complex exp: exp, sin, cos, keys with ~) are 1-ulp ones in every variant, but SLEEF's
    builds for SSE4, AVX2 and AVX-512 may round differently: within 2 units in the last place of a
    product of two of them."""
    code = r'''
import json, torch
out = {}
for dt in (torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.complex64):
    out['linspace %s' % dt] = torch.linspace(-1.3, 2.9, 1000, dtype=dt).view(torch.uint8).tolist()
    if not dt.is_complex:
        out['arange %s' % dt] = torch.arange(-1.3, 2.9, 0.0137, dtype=dt).view(torch.uint8).tolist()
x = torch.linspace(-9, 9, 4099)
out['gelu'] = torch.nn.functional.gelu(x).view(torch.int32).tolist()
z = torch.complex(torch.linspace(-20, 20, 203), torch.linspace(-120, 120, 203))
out['exp input'] = z.view(torch.uint8).tolist()
out['~exp'] = torch.view_as_real(torch.exp(z)).view(torch.int32).flatten().tolist()
print(json.dumps(out))
'''
    results = {}
    for level in RUNNABLE:
        out = _run(code, str(level))
        assert out.returncode == 0, out.stderr
        results[level] = json.loads(out.stdout)
    for level in RUNNABLE[1:]:
        first = results[RUNNABLE[0]]
        differ = [k for k, v in results[level].items() if not k.startswith('~') and v != first[k]]
        differ += [k for k, v in results[level].items() if k.startswith('~') and
                   max(abs(a - b) for a, b in zip(v, first[k])) > 2]
        assert not differ, 'x86-64-v%d and x86-64-v%d differ in %s' % (RUNNABLE[0], level, differ)


# The suites that compare with the reference's recorded results (tests/data/reference/).
DIFFERENTIAL = sorted(p.name for p in HERE.glob('test_*_reference.py')) + ['test_reference_cases.py',
                                                                           'test_reference_diff.py']


@pytest.mark.parametrize('level', [2, 3, 4])
def test_differential_suites_pass_in_every_variant(level):
    if level not in RUNNABLE:
        pytest.skip('this CPU does not run x86-64-v%d' % level)
    if level == BEST:
        pytest.skip('x86-64-v%d is the default variant: the main run covers it' % level)
    env = dict(os.environ, TORCH_CPU_ISA=str(level))
    # from the repository root, as scons test runs pytest (PYTHONPATH may be relative to it)
    out = subprocess.run([sys.executable, '-m', 'pytest', '-q', '-p', 'no:cacheprovider',
                          *('tests/python/' + name for name in DIFFERENTIAL)],
                         cwd=HERE.parents[1], env=env, capture_output=True, text=True, timeout=1800)
    assert out.returncode == 0, 'x86-64-v%d:\n%s' % (level, out.stdout[-6000:] + out.stderr[-2000:])
