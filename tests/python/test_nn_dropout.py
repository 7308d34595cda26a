"""Dropout: the ops (dropout, feature/alpha forms, native_dropout and its backward), F.dropout* and the
modules against the reference PyTorch 1.13.1 for the same seed (masks bit for bit; recorded in
tests/data/reference/nn_dropout.json by tools/record_reference), gradients and errors.

Nothing at module level imports this project's torch (the recorder loads this file by path)."""
import pytest

from snippets import SnippetSuite

X = 'x = torch.arange(1., 25.).reshape(2, 3, 4)\n'

CASES = {
    'dropout_op': 'torch.manual_seed(0)\nout = torch.dropout(torch.ones(40), 0.3, True)',
    'dropout_op_double': 'torch.manual_seed(1)\nout = torch.dropout(torch.ones(5, 7, dtype=torch.float64), 0.75, True)',
    'dropout_op_half': 'torch.manual_seed(1)\nout = torch.dropout(torch.ones(17, dtype=torch.float16), 0.5, True)',
    'dropout_op_eval': X + 'y = torch.dropout(x, 0.3, False)\nout = [y is x, torch.dropout(x, 0.0, True) is x]',
    'dropout_op_p1': X + 'out = torch.dropout(x, 1.0, True)',
    'dropout_op_int': 'out = torch.dropout(torch.ones(3, dtype=torch.long), 1.0, True)',
    'dropout_op_empty': 'out = torch.dropout(torch.ones(0, 3), 0.5, True).shape',
    'dropout_op_bad_p': 'torch.dropout(torch.ones(3), 1.5, True)',
    'dropout_op_bad_p_neg': 'torch.dropout(torch.ones(3), -0.1234567, True)',
    'dropout_inplace_op': 'torch.manual_seed(2)\n' + X + 'y = torch.dropout_(x, 0.5, True)\nout = [y is x, x]',
    'feature_dropout_op': 'torch.manual_seed(3)\n' + X + 'out = torch.feature_dropout(x, 0.5, True)',
    'feature_dropout_op_inplace': 'torch.manual_seed(3)\n' + X + 'torch.feature_dropout_(x, 0.5, True)\nout = x',
    'feature_dropout_1d_error': 'torch.feature_dropout(torch.ones(3), 0.5, True)',
    'alpha_dropout_op': 'torch.manual_seed(4)\nout = torch.alpha_dropout(torch.ones(2, 9), 0.3, True)',
    'alpha_dropout_op_inplace': 'torch.manual_seed(4)\nx = torch.ones(2, 9)\n'
                                'torch.alpha_dropout_(x, 0.3, True)\nout = x',
    'feature_alpha_dropout_op': 'torch.manual_seed(5)\n' + X + 'out = torch.feature_alpha_dropout(x, 0.3, True)',
    'feature_alpha_dropout_op_inplace': 'torch.manual_seed(5)\n' + X + 'torch.feature_alpha_dropout_(x, 0.2, True)\n'
                                        'out = x',
    'native_dropout': 'torch.manual_seed(6)\nout = list(torch.native_dropout(torch.arange(10.), 0.4, True))',
    'native_dropout_eval': 'out = list(torch.native_dropout(torch.arange(4.), 0.4, False))',
    'native_dropout_none': 'torch.manual_seed(6)\nout = list(torch.native_dropout(torch.arange(4.), 0.4, None))',
    'native_dropout_p1': 'out = list(torch.native_dropout(torch.arange(4.), 1.0, True))',
    'native_dropout_grad': '''
torch.manual_seed(7)
x = torch.arange(1., 9.).requires_grad_()
y, mask = torch.native_dropout(x, 0.5, True)
(y * torch.arange(8.)).sum().backward()
out = [y, mask, x.grad, y.grad_fn.name()]
''',
    'native_dropout_backward_op': 'out = torch.ops.aten.native_dropout_backward(torch.ones(3), '
                                  'torch.tensor([True, False, True]), 2.0)',
    'dropout_grad': '''
torch.manual_seed(8)
x = torch.ones(10, requires_grad=True)
y = torch.dropout(x, 0.2, True)
y.sum().backward()
out = [y, x.grad, y.grad_fn.name()]
''',
    'F_dropout': 'torch.manual_seed(9)\n' + X + 'out = [F.dropout(x), F.dropout(x, 0.2, training=False)]',
    'F_dropout_inplace': 'torch.manual_seed(9)\n' + X + 'y = F.dropout(x, 0.5, inplace=True)\nout = [y is x, x]',
    'F_dropout_bad_p': 'F.dropout(torch.ones(2), p=2)',
    'F_dropout1d': 'torch.manual_seed(10)\n' + X + 'out = [F.dropout1d(x), F.dropout1d(x[0])]',
    'F_dropout1d_error': 'F.dropout1d(torch.ones(2, 2, 2, 2))',
    'F_dropout1d_inplace_unbatched': 'torch.manual_seed(10)\nx = torch.ones(3, 4)\n'
                                     'F.dropout1d(x, inplace=True)\nout = x',
    'F_dropout2d': 'torch.manual_seed(11)\nout = F.dropout2d(torch.ones(2, 3, 2, 2))',
    'F_dropout2d_3d_input': 'torch.manual_seed(11)\n' + X + 'out = F.dropout2d(x)',
    'F_dropout2d_2d_input': 'torch.manual_seed(11)\nout = F.dropout2d(torch.ones(3, 4))',
    'F_dropout3d': 'torch.manual_seed(12)\nout = [F.dropout3d(torch.ones(2, 3, 1, 2, 2)), '
                   'F.dropout3d(torch.ones(3, 1, 2, 2))]',
    'F_dropout3d_warn': 'torch.manual_seed(12)\nout = F.dropout3d(torch.ones(2, 3, 2))',
    'F_alpha_dropout': 'torch.manual_seed(13)\nout = [F.alpha_dropout(torch.ones(8), 0.5), '
                       'F.alpha_dropout(torch.ones(8), 0.5, training=True)]',
    'F_feature_alpha_dropout': 'torch.manual_seed(14)\nout = [F.feature_alpha_dropout(torch.ones(2, 4, 2), 0.5, True), '
                               'F.feature_alpha_dropout(torch.ones(2, 4, 2))]',
    'modules': '''
torch.manual_seed(15)
x = torch.ones(2, 4, 3, 3)
ms = [nn.Dropout(0.3), nn.Dropout1d(0.3), nn.Dropout2d(0.3), nn.Dropout3d(0.3), nn.AlphaDropout(0.3),
      nn.FeatureAlphaDropout(0.3)]
r = [ms[0](x), ms[1](x[0]), ms[2](x), ms[3](x), ms[4](x), ms[5](x)]
for m in ms:
    m.eval()
r += [m(x) is x for m in ms[:4]]
out = r
''',
}

SUITE = SnippetSuite('nn_dropout', CASES)
RECORDED, RUNNER, reference_request = SUITE.recorded, SUITE.runner, SUITE.reference_request
reports = SUITE.fixture()


@pytest.mark.parametrize('case', SUITE.names)
def test_matches_reference(reports, case):
    SUITE.check(reports, case)


def test_dropout_statistics():
    import torch
    torch.manual_seed(0)
    y = torch.dropout(torch.ones(100000), 0.3, True)
    kept = (y != 0).sum().item()
    assert abs(kept / 100000 - 0.7) < 0.01
    assert abs(y.sum().item() / 100000 - 1.0) < 0.02  # the expectation is kept
    torch.manual_seed(0)
    z = torch.alpha_dropout(torch.randn(200000), 0.2, True)
    assert abs(z.mean().item()) < 0.02 and abs((z * z).mean().item() - 1) < 0.03


def test_dropout_meta_device():
    import torch
    x = torch.empty(3, 4, device='meta')
    assert torch.dropout(x, 0.5, True).shape == (3, 4)
    out, mask = torch.native_dropout(x, 0.5, True)
    assert out.device.type == 'meta' and mask.dtype == torch.bool


def test_native_dropout_out():
    import torch
    torch.manual_seed(6)
    a, b = torch.empty(3), torch.empty(3, dtype=torch.bool)
    # (the binding takes the written arguments as out=(...), not by their names out0=, out1=)
    r = torch.ops.aten.native_dropout.out(torch.ones(3), 0.5, True, out=(a, b))
    assert r[0] is a and r[1] is b
    torch.manual_seed(6)
    y, mask = torch.native_dropout(torch.ones(3), 0.5, True)
    assert a.tolist() == y.tolist() and b.tolist() == mask.tolist()
