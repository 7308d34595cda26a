"""torch.nn.parallel.DataParallel and data_parallel where there is no GPU: the module runs on the CPU."""
import pytest

import torch
import torch.nn as nn
from torch.nn.parallel import DataParallel, data_parallel

pytestmark = pytest.mark.skipif(torch.cuda.is_available(), reason='CPU-only behaviour')


def test_data_parallel_runs_the_module_on_the_cpu():
    torch.manual_seed(0)
    lin = nn.Linear(3, 2)
    dp = nn.DataParallel(lin)
    assert dp.module is lin and dp.device_ids == [] and dp.output_device is None and dp.dim == 0
    x = torch.randn(4, 3)
    assert torch.equal(dp(x), lin(x))
    assert list(dp.state_dict()) == ['module.weight', 'module.bias']
    assert [n for n, _ in dp.named_parameters()] == ['module.weight', 'module.bias']
    dp.load_state_dict({'module.weight': torch.zeros(2, 3), 'module.bias': torch.ones(2)})
    assert dp(x).tolist() == [[1.0, 1.0]] * 4
    loss = dp(x).sum()
    loss.backward()
    assert lin.weight.grad.shape == (2, 3)


def test_keyword_inputs_and_the_function_form():
    class Add(nn.Module):
        def forward(self, a, b=0):
            return a + b
    m = Add()
    assert DataParallel(m, device_ids=None, output_device=None, dim=0)(torch.ones(2), b=2).tolist() == [3.0, 3.0]
    assert data_parallel(m, torch.ones(2)).tolist() == [1.0, 1.0]
    assert data_parallel(m, (torch.ones(2), torch.ones(2))).tolist() == [2.0, 2.0]
    assert data_parallel(m, (torch.ones(2),), module_kwargs={'b': 1}).tolist() == [2.0, 2.0]


def test_importable_as_attribute():
    import subprocess
    import sys
    code = 'import torch; print(torch.nn.parallel.DataParallel is torch.nn.DataParallel)'
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == 'True'
