"""Files on TORCH_PLUGIN_PATH that are not plugins at all: `import torch` reports each as failed with the
reason and carries on, never faulting (a truncated library would raise SIGBUS inside dlopen), never
hanging (a FIFO), and never losing the package's own plugins however many files there are."""
import json
import os
import random
import subprocess
import sys

import torch

PLUGIN_DIR = os.path.join(os.path.dirname(torch.__file__), 'plugins')
PROBE = ('import json, torch; '
         'print(json.dumps({"plugins": torch.backends.plugins(), '
         '"mm": (torch.ones(64, 64) @ torch.ones(64, 64)).sum().item(), '
         '"sum": (torch.arange(5) + 1).tolist()}))')


def import_with(path, timeout=120):
    env = dict(os.environ, TORCH_PLUGIN_PATH=str(path))
    out = subprocess.run([sys.executable, '-c', PROBE], env=env, capture_output=True, text=True, timeout=timeout)
    assert out.returncode == 0, (out.returncode, out.stderr[-2000:])
    report = json.loads(out.stdout)
    assert report['mm'] == 64.0 ** 3 and report['sum'] == [1, 2, 3, 4, 5]
    loaded = {p['name'] for p in report['plugins'] if p['state'] == 'loaded'}
    assert {'cpu', 'blas-blis', 'blas-openblas'} <= loaded, loaded
    return {os.path.basename(p['path']): p for p in report['plugins'] if not p['path'].startswith(PLUGIN_DIR)}


def test_truncated_copies_of_a_real_plugin_are_reported_not_fatal(tmp_path):
    real = open(os.path.join(PLUGIN_DIR, 'libtorch_cpu_avx2.so'), 'rb').read()
    sizes = [64, 4096, 16384, 65536, 102400, len(real) - 1]
    for n in sizes:
        (tmp_path / ('cut_%d.so' % n)).write_bytes(real[:n])
    found = import_with(tmp_path)
    for n in sizes:
        p = found['cut_%d.so' % n]
        assert p['state'] == 'failed', p
        assert p['reason'].startswith('truncated or malformed ELF file'), p['reason']


def test_junk_files_are_reported_not_fatal(tmp_path):
    rng = random.Random(5)
    (tmp_path / 'empty.so').write_bytes(b'')
    (tmp_path / 'random.so').write_bytes(bytes(rng.randrange(256) for _ in range(5000)))
    (tmp_path / 'elf_magic_only.so').write_bytes(b'\x7fELF' + bytes(60))
    (tmp_path / 'text.so').write_text('not a library\n')
    (tmp_path / 'folder.so').mkdir()
    os.mkfifo(tmp_path / 'fifo.so')
    os.symlink('/dev/zero', tmp_path / 'device.so')
    found = import_with(tmp_path, timeout=60)
    for name in ('empty.so', 'random.so', 'elf_magic_only.so', 'text.so', 'fifo.so', 'folder.so', 'zero'):
        assert found[name]['state'] == 'failed', found[name]
        assert 'ELF' in found[name]['reason'] or 'regular file' in found[name]['reason'], found[name]


def test_any_number_of_files_keeps_the_package_plugins(tmp_path):
    for i in range(300):  # more than any fixed table the loader once had (128)
        (tmp_path / ('junk_%03d.so' % i)).write_bytes(b'junk %d' % i)
    found = import_with(tmp_path)
    assert len(found) == 300 and all(p['state'] == 'failed' for p in found.values())
