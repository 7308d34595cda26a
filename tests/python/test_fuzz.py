"""A short seeded fuzz run (tools/fuzz) as part of `scons test`: a few hundred random programs over
creation, conversions, views, indexing, in-place ops, reductions, threads and plugin files, each checked
for signals, hangs, sanitizer reports (under MODE=asan the workers inherit the sanitizers) and
disagreement with the reference PyTorch's results recorded in tests/data/fuzz_reference.json. The long
run is `scons fuzz`."""
import os
import subprocess
import sys

import torch

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.path.dirname(os.path.dirname(os.path.abspath(torch.__file__)))


def test_seeded_fuzz_run():
    cmd = [sys.executable, os.path.join(ROOT, 'tools', 'fuzz'), '--seed', '1', '--cases', '300', '--build', BUILD,
           '--python', sys.executable]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stdout[-8000:] + out.stderr[-2000:]
    assert 'no failures' in out.stdout
