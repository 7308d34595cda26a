"""Each FFT provider plugin (FFTW, KissFFT) against numpy.fft, in a process of its own (TORCH_FFT),
and the provider switch: TORCH_FFT, torch.backends.fft, python3 -m torch.plugins."""
import json
import os
import subprocess
import sys

import pytest

CHECK = r'''
import json, numpy as np, torch
torch.manual_seed(0)
out = {'describe': torch.backends.fft.describe(), 'current': torch.backends.fft.current()}
worst = 0.0
for dtype, cdtype in ((torch.float32, torch.complex64), (torch.float64, torch.complex128)):
    x = torch.randn(3, 10, 12, dtype=dtype)
    z = torch.randn(3, 10, 12, dtype=cdtype)
    pairs = [(torch.fft.fft(z), np.fft.fft(z.numpy())), (torch.fft.ifft(z, n=7), np.fft.ifft(z.numpy(), n=7)),
             (torch.fft.rfft(x, norm='ortho'), np.fft.rfft(x.numpy(), norm='ortho')),
             (torch.fft.irfft(z[..., :7], n=12), np.fft.irfft(z[..., :7].numpy(), n=12)),
             (torch.fft.fftn(z, dim=(0, 2)), np.fft.fftn(z.numpy(), axes=(0, 2))),
             (torch.fft.rfft2(x.transpose(1, 2)), np.fft.rfft2(x.transpose(1, 2).numpy())),
             (torch.fft.hfft(z[..., :5], n=8), np.fft.hfft(z[..., :5].numpy(), n=8)),
             (torch.fft.ihfft(x), np.fft.ihfft(x.numpy()))]
    for got, want in pairs:
        scale = max(np.abs(want).max(), 1.0)
        worst = max(worst, float(np.abs(got.resolve_conj().numpy() - want).max() / scale) / (1e-6 if dtype == torch.float32 else 1e-13))
out['worst'] = worst
print(json.dumps(out))
'''


def _available():
    code = 'import torch, json; print(json.dumps(torch.backends.fft.available()))'
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


@pytest.mark.parametrize('provider', ['fftw', 'kissfft'])
def test_provider_agrees_with_numpy(provider):
    if provider not in _available():
        pytest.skip('the %s provider plugin is not built here' % provider)
    env = dict(os.environ, TORCH_FFT=provider)
    out = subprocess.run([sys.executable, '-c', CHECK], capture_output=True, text=True, env=env, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    result = json.loads(out.stdout)
    assert result['current'] == provider, result
    assert result['worst'] <= 1.0, result  # within 1e-6 (float32) or 1e-13 (float64) of numpy's, relative


def test_unknown_provider_is_reported_and_the_default_used():
    env = dict(os.environ, TORCH_FFT='nonesuch')
    code = 'import torch; print(torch.backends.fft.current()); torch.fft.fft(torch.ones(4))'
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    assert 'TORCH_FFT' in out.stderr and 'nonesuch' in out.stderr
    assert out.stdout.strip() in _available()
