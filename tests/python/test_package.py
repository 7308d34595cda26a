"""The built package folder is self-contained: copied anywhere (which is what `scons install` does),
it imports from any working directory and finds its core library and plugins."""
import os
import shutil
import subprocess
import sys

import torch


def test_torch_is_this_projects_build():
    assert os.path.join('build', '') in torch.__file__
    assert torch._C.__file__.startswith(os.path.dirname(torch.__file__))


def test_copied_package_imports_from_anywhere(tmp_path):
    shutil.copytree(os.path.dirname(torch.__file__), tmp_path / 'torch', symlinks=True)
    code = ('import torch; assert torch.__file__.startswith(%r); '
            'loaded = {p["name"] for p in torch.backends.plugins() if p["state"] == "loaded"}; '
            'assert {"cpu", "blas-blis", "blas-openblas"} <= loaded, loaded; '
            'assert all(p["path"].startswith(%r) for p in torch.backends.plugins()); '
            'print((torch.ones(2, 3) @ torch.ones(3)).tolist())') % (str(tmp_path), str(tmp_path))
    env = {k: v for k, v in os.environ.items() if k not in ('TORCH_PLUGIN_PATH',)}
    env['PYTHONPATH'] = str(tmp_path)
    out = subprocess.run([sys.executable, '-c', code], cwd='/', env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == '[3.0, 3.0]'
