"""tools/flaky: runs a selection of tests several times in shuffled orders with the NaN fill on, and
names the tests whose outcome changes and those that fail every time."""
import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]

# test_a and test_b depend on their order; test_fill fails whenever the block cache fills memory.
TESTS = '''
import torch
seen = []
def test_a():
    seen.append('a')
def test_b():
    assert seen == ['a']
def test_fill():
    assert not torch.empty(4).isnan().any()
def test_fine():
    assert (torch.ones(3) + 1).tolist() == [2, 2, 2]
'''


def test_flaky_names_order_and_fill_dependent_tests(tmp_path):
    path = tmp_path / 'test_sample.py'
    path.write_text(TESTS)
    env = dict(os.environ, PYTHONPATH=str(pathlib.Path(sys.modules['torch'].__file__).parents[1]))
    # seeds 1..6 put test_b both before and after test_a (checked: the orders are fixed by the seeds)
    out = subprocess.run([sys.executable, str(ROOT / 'tools' / 'flaky'), '--runs', '6', '--seed', '1', '--select',
                          str(path), '--build', env['PYTHONPATH']],
                         capture_output=True, text=True, timeout=600, cwd=str(tmp_path), env=env)
    assert out.returncode == 1, out.stdout + out.stderr
    text = out.stdout
    assert 'seeds 1 2 3 4 5 6' in text
    changed = text.split('changed (outcome per run')[1].split('failed in every run:')[0]
    always = text.split('failed in every run:')[1]
    assert 'test_sample::test_b: ' in changed and 'test_fill' not in changed, text
    assert 'test_sample::test_fill' in always and 'test_fine' not in text, text
