"""torch.nn.init and the modules' default initialisation: the same draws as the reference PyTorch 1.13.1
for the same seed (recorded in tests/data/reference/nn_init.json by tools/record_reference), the gain
table and fan computation, and the errors. orthogonal_ takes its Q from Gram-Schmidt instead of
Householder QR: the same matrix up to rounding (compared within a tolerance).

Nothing at module level imports this project's torch (the recorder loads this file by path)."""
import math

import pytest

from snippets import SnippetSuite

CASES = {
    'linear_default': 'torch.manual_seed(0)\nl = nn.Linear(3, 4)\nout = [l.weight, l.bias]',
    'linear_default_big': 'torch.manual_seed(1)\nl = nn.Linear(70, 33)\nout = [l.weight[::7], l.bias]',
    'linear_sequence': 'torch.manual_seed(2)\n'
                       'm = nn.Sequential(nn.Linear(5, 3), nn.ReLU(), nn.Linear(3, 2, bias=False))\n'
                       'out = list(m.parameters())',
    'linear_double': 'torch.manual_seed(3)\nout = list(nn.Linear(4, 2, dtype=torch.float64).parameters())',
    'linear_zero_in': 'torch.manual_seed(3)\nl = nn.Linear(0, 2)\nout = [l.weight.shape, l.bias]',
    'uniform': 'torch.manual_seed(0)\nout = nn.init.uniform_(torch.empty(3, 5), -2, 3)',
    'normal': 'torch.manual_seed(0)\nout = nn.init.normal_(torch.empty(20), 1.5, 0.5)',
    'normal_small': 'torch.manual_seed(0)\nout = nn.init.normal_(torch.empty(2, 3))',
    'constant_ones_zeros': 'out = [nn.init.constant_(torch.empty(2), 0.3), nn.init.ones_(torch.empty(2)), '
                           'nn.init.zeros_(torch.empty(2, dtype=torch.int64))]',
    'eye': 'out = [nn.init.eye_(torch.empty(3, 5)), nn.init.eye_(torch.empty(4, 2, dtype=torch.float64))]',
    'eye_error': 'nn.init.eye_(torch.empty(3))',
    'dirac': 'out = [nn.init.dirac_(torch.empty(2, 3, 3)), nn.init.dirac_(torch.empty(4, 2, 3, 3), groups=2)[:, :, 1],'
             ' nn.init.dirac_(torch.empty(2, 2, 1, 3, 3))[1, 1]]',
    'dirac_errors': 'nn.init.dirac_(torch.empty(3, 3))',
    'dirac_groups_error': 'nn.init.dirac_(torch.empty(3, 2, 3), groups=2)',
    'xavier': 'torch.manual_seed(0)\nout = [nn.init.xavier_uniform_(torch.empty(3, 4, 2)), '
              'nn.init.xavier_normal_(torch.empty(5, 2), gain=2.0)]',
    'kaiming': 'torch.manual_seed(0)\nout = [nn.init.kaiming_uniform_(torch.empty(3, 4)), '
               'nn.init.kaiming_uniform_(torch.empty(4, 3, 2), a=0.2, mode="fan_out", nonlinearity="leaky_relu"), '
               'nn.init.kaiming_normal_(torch.empty(6, 2), nonlinearity="relu"), '
               'nn.init.kaiming_normal_(torch.empty(2, 6), mode="FAN_OUT", nonlinearity="tanh")]',
    'kaiming_empty': 'out = nn.init.kaiming_uniform_(torch.empty(0, 3)).shape',
    'kaiming_mode_error': 'nn.init.kaiming_normal_(torch.empty(2, 2), mode="fan")',
    'fan_error': 'nn.init.xavier_uniform_(torch.empty(5))',
    'gains': 'out = [nn.init.calculate_gain(n) for n in ["linear", "conv2d", "sigmoid", "tanh", "relu", "leaky_relu", '
             '"selu", "conv_transpose3d"]] + [nn.init.calculate_gain("leaky_relu", 0.3), '
             'nn.init.calculate_gain("leaky_relu", 2)]',
    'gain_errors': 'nn.init.calculate_gain("gelu")',
    'gain_slope_error': 'nn.init.calculate_gain("leaky_relu", True)',
    'fan_in_out': 'from torch.nn.init import _calculate_fan_in_and_fan_out as f\n'
                  'out = [f(torch.empty(3, 4)), f(torch.empty(8, 2, 3, 5)), f(torch.empty(1, 1, 0))]',
    'sparse': 'torch.manual_seed(0)\nout = nn.init.sparse_(torch.empty(6, 4), 0.5)',
    'sparse_error': 'nn.init.sparse_(torch.empty(6), 0.5)',
    'orthogonal': ('torch.manual_seed(0)\nout = [nn.init.orthogonal_(torch.empty(4, 4)), '
                   'nn.init.orthogonal_(torch.empty(3, 5), gain=2), nn.init.orthogonal_(torch.empty(5, 2, 2))]', 1e-4),
    'orthogonal_error': 'nn.init.orthogonal_(torch.empty(3))',
    'orthogonal_empty': 'out = nn.init.orthogonal_(torch.empty(0, 3)).shape',
    'no_grad_fill': 'p = nn.Parameter(torch.ones(2, 2))\nnn.init.uniform_(p)\nout = [p.grad_fn, p.requires_grad, '
                    'p.is_leaf]',
    'deprecated_alias': 'torch.manual_seed(0)\nout = nn.init.uniform(torch.empty(2))',
    'trunc_normal_warning': 'import warnings\ntry:\n    nn.init.trunc_normal_(torch.empty(2), mean=10)\n'
                            'except AttributeError:\n    pass\nout = None',
}

SUITE = SnippetSuite('nn_init', CASES)
RECORDED, RUNNER, reference_request = SUITE.recorded, SUITE.runner, SUITE.reference_request
reports = SUITE.fixture()


@pytest.mark.parametrize('case', SUITE.names)
def test_matches_reference(reports, case):
    SUITE.check(reports, case)


def test_kaiming_bounds_by_hand():
    import torch
    w = torch.nn.init.kaiming_uniform_(torch.empty(200, 50), a=math.sqrt(5))
    bound = math.sqrt(3.0) * math.sqrt(2.0 / (1 + 5)) / math.sqrt(50)  # = 1 / sqrt(fan_in)
    assert abs(bound - 1 / math.sqrt(50)) < 1e-12
    assert w.abs().max().item() <= bound and w.abs().max().item() > 0.9 * bound


def test_orthogonal_is_orthogonal():
    import torch
    torch.manual_seed(5)
    for shape in ((6, 6), (3, 8), (8, 3), (4, 2, 3)):
        q = torch.nn.init.orthogonal_(torch.empty(shape, dtype=torch.float64)).reshape(shape[0], -1)
        small = q if q.shape[0] <= q.shape[1] else q.t()
        gram = small.matmul(small.t())
        eye = torch.eye(gram.shape[0], dtype=torch.float64)
        assert (gram - eye).abs().max().item() < 1e-12


def test_trunc_normal():
    import torch
    torch.manual_seed(0)
    t = torch.nn.init.trunc_normal_(torch.empty(1000, dtype=torch.float64), std=2.0, a=-1, b=1)
    assert t.min().item() >= -1 and t.max().item() <= 1
    # the draws PyTorch 1.13.1 makes for the same seed (recorded from the reference)
    assert [round(v, 12) for v in t[:5].tolist()] == [0.93536968704, 0.401635229197, -0.077992362336,
                                                      0.83101493066, 0.279308184119]
    assert round(t.sum().item(), 9) == -1.043269256
