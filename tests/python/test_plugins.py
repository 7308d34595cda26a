"""Plugin discovery and failure reporting: broken plugins are reported with the right state and
reason, and `import torch` still works with everything else loaded."""
import json
import os
import shutil
import subprocess
import sys

import pytest
import torch

from conftest import TEST_PLUGIN_DIR

PROBE = ('import json, torch; '
         'print(json.dumps({"plugins": torch.backends.plugins(), '
         '"sum": torch.tensor([1, 2], dtype=torch.int8).add(torch.tensor([3, 4], dtype=torch.int8)).tolist(), '
         '"blas": torch.backends.blas.current()}))')


def run_with(plugin_path, extra_env=None):
    env = dict(os.environ)
    env['TORCH_PLUGIN_PATH'] = plugin_path
    env.update(extra_env or {})
    out = subprocess.run([sys.executable, '-c', PROBE], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def by_name(report, name):
    return [p for p in report['plugins'] if p['name'] == name]


def assert_rest_loaded(report):
    # one of the cpu plugin's ISA variants is loaded; the others are shadowed or not supported here
    states = [p['state'] for p in report['plugins'] if p['path'].find('test_plugins') < 0 and p['name'] == 'cpu']
    assert states.count('loaded') == 1
    assert report['sum'] == [4, 6]
    assert report['blas'] in ('blis', 'openblas')


def case_dir(name):
    path = os.path.join(TEST_PLUGIN_DIR, name)
    if not os.path.isdir(path):
        pytest.fail('test plugin %s was not built (run scons test)' % path)
    return path


def test_plugin_file_is_this_projects():
    assert 'build' in torch.__file__
    assert any(p['name'] == 'cpu' and p['state'] == 'loaded' for p in torch.backends.plugins())


def test_wrong_abi_version():
    report = run_with(case_dir('bad_abi'))
    [p] = by_name(report, 'test-bad-abi')
    assert p['state'] == 'failed'
    assert 'ABI 99.0' in p['reason'] and 'ABI 1.' in p['reason']
    assert_rest_loaded(report)


def test_missing_entry_point():
    report = run_with(case_dir('no_entry'))
    [p] = [p for p in report['plugins'] if 'libtest_no_entry' in p['path']]
    assert p['state'] == 'failed'
    assert 'tc_plugin_entry' in p['reason']
    assert_rest_loaded(report)


def test_missing_dependency():
    report = run_with(case_dir('missing_dep'))
    [p] = [p for p in report['plugins'] if 'libtest_missing_dep' in p['path']]
    assert p['state'] == 'failed'
    assert 'libtc_missing_dep.so' in p['reason'] and 'dlopen' in p['reason']
    assert_rest_loaded(report)


def test_init_failure_rolls_back_registrations():
    report = run_with(case_dir('init_fails'))
    [p] = by_name(report, 'test-init-fails')
    assert p['state'] == 'failed'
    assert 'the test plugin refuses to start' in p['reason']
    assert report['sum'] == [4, 6]  # the bogus int8 add kernel it registered was dropped
    assert_rest_loaded(report)


def test_probe_declines():
    report = run_with(case_dir('unsupported'))
    [p] = by_name(report, 'test-unsupported')
    assert p['state'] == 'not supported'
    assert p['reason'] == 'needs hardware this machine lacks'
    assert_rest_loaded(report)


def test_lower_score_same_name_is_shadowed():
    report = run_with(case_dir('cpu_low'))
    cpus = by_name(report, 'cpu')
    low = [p for p in cpus if p['version'] == 'test']
    assert low and low[0]['state'] == 'shadowed' and 'shadowed by' in low[0]['reason']
    assert_rest_loaded(report)


def test_duplicate_is_shadowed(tmp_path):
    src = os.path.join(case_dir('duplicate'), 'libtest_duplicate.so')
    shutil.copy(src, tmp_path / 'libtest_duplicate_a.so')
    shutil.copy(src, tmp_path / 'libtest_duplicate_b.so')
    report = run_with(str(tmp_path))
    dups = by_name(report, 'test-duplicate')
    assert sorted(p['state'] for p in dups) == ['loaded', 'shadowed']
    shadowed = [p for p in dups if p['state'] == 'shadowed'][0]
    assert shadowed['path'].endswith('libtest_duplicate_b.so')
    assert 'libtest_duplicate_a.so' in shadowed['reason']
    assert_rest_loaded(report)


def test_disabled_by_environment():
    report = run_with(case_dir('extension'), {'TORCH_PLUGINS_DISABLE': 'test-extension'})
    [p] = by_name(report, 'test-extension')
    assert p['state'] == 'disabled' and 'TORCH_PLUGINS_DISABLE' in p['reason']
    assert_rest_loaded(report)


def test_all_broken_at_once_and_a_good_extension():
    path = ':'.join(case_dir(c) for c in ('bad_abi', 'no_entry', 'missing_dep', 'init_fails', 'unsupported',
                                           'cpu_low', 'extension'))
    report = run_with(path)
    [ext] = by_name(report, 'test-extension')
    assert ext['state'] == 'loaded' and ext['version'] == '1.2.3' and ext['reason'] == ''
    assert_rest_loaded(report)


def test_plugins_command_lists_every_plugin():
    env = dict(os.environ, TORCH_PLUGIN_PATH=case_dir('bad_abi'))
    out = subprocess.run([sys.executable, '-m', 'torch.plugins'], env=env, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    for word in ('cpu', 'blas-blis', 'blas-openblas', 'test-bad-abi', 'failed', 'loaded', 'reason:'):
        assert word in out.stdout
    assert 'BLAS provider' in out.stdout


def test_failed_commit_leaves_nothing_behind():
    # the kernel it registered before its taken BLAS name must not survive the plugin's unloading
    report = run_with(case_dir('commit_fails'))
    [p] = by_name(report, 'test-commit-fails')
    assert p['state'] == 'failed'
    assert "BLAS provider 'blis' is already registered" in p['reason'], p['reason']
    assert report['sum'] == [4, 6]
    assert_rest_loaded(report)


def test_device_type_registered_twice_fails_cleanly():
    code = ('import json, torch; print(json.dumps({"state": [p["state"] for p in torch.backends.plugins() '
            'if p["name"] == "testdev"], "reason": [p["reason"] for p in torch.backends.plugins() '
            'if p["name"] == "testdev"], "count": torch._C._device_count("testdev"), '
            '"other": torch._C._device_count("no-such-device"), "sum": (torch.ones(3) + 1).tolist()}))')
    env = dict(os.environ, TORCH_PLUGIN_PATH=case_dir('device_twice'))
    out = subprocess.run([sys.executable, '-c', code], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    r = json.loads(out.stdout)
    assert r['state'] == ['failed'] and "device type 'testdev' is already registered" in r['reason'][0]
    assert r['count'] == 0 and r['other'] == 0 and r['sum'] == [2.0, 2.0, 2.0]


def test_unterminated_probe_reason_is_read_within_its_buffer():
    report = run_with(case_dir('unterminated_probe'))
    [p] = by_name(report, 'test-unterminated-probe')
    assert p['state'] == 'not supported'
    assert set(p['reason']) == {'R'} and 0 < len(p['reason']) < 1024
    assert_rest_loaded(report)


def test_unterminated_init_error_is_read_within_its_buffer():
    report = run_with(case_dir('unterminated_init'))
    [p] = by_name(report, 'test-unterminated-init')
    assert p['state'] == 'failed' and p['reason'].startswith('init failed: EEEE')
    assert set(p['reason'][len('init failed: '):]) == {'E'}
    assert_rest_loaded(report)

