"""The layer modules of torch.nn (convolution, pooling, normalisation, embedding, recurrent, attention
and transformer layers, resampling, padding, activations, losses) compared with the reference
PyTorch 1.13.1 through recorded snippets (tests/data/reference/nn_layers.json, written by
tools/record_reference): parameters drawn under a seed, reprs, state_dict keys, outputs and
gradients of a forward/backward, running statistics, and the errors; plus a few direct checks.

Each layer gives two cases: '<name>/init' (the parameters and buffers a seed gives, its repr and
state_dict keys: exact) and '<name>/fwd' (outputs, input and parameter gradients: within 1e-5
relative, where a product's summation order may differ from PyTorch's BLAS).

Nothing at module level imports this project's torch (the recorder loads this file by path)."""
import copy
import pickle

import pytest

from snippets import SnippetSuite

PRELUDE = '''
def _floats(v):
    if isinstance(v, torch.Tensor):
        return [v] if v.is_floating_point() and v.requires_grad else []
    if isinstance(v, (tuple, list)):
        return [t for x in v for t in _floats(x)]
    return []

def describe(m):
    return [repr(m), list(m.state_dict().keys()), dict(m.named_parameters()), dict(m.named_buffers())]

def fwd_bwd(m, *xs, grads=None):
    # the first `grads` float inputs (all by default) require grad
    xs = [x.detach().requires_grad_() if isinstance(x, torch.Tensor) and x.is_floating_point() and
          (grads is None or i < grads) else x for i, x in enumerate(xs)]
    y = m(*xs)
    outs = _floats(y)
    if outs:
        loss = sum((t * torch.arange(t.numel(), dtype=t.dtype).reshape(t.shape).cos()).sum() for t in outs)
        loss.backward()
    return [y, [x.grad for x in xs if isinstance(x, torch.Tensor) and x.requires_grad],
            {n: p.grad for n, p in m.named_parameters()}, dict(m.named_buffers())]
'''

FWD_TOLERANCE = 1e-5
CASES = {}


def layer(name, ctor, inputs, setup='', runs=1, tol=FWD_TOLERANCE, grads=None):
    """Adds name/init and name/fwd: the module `ctor` built under manual_seed(0), and `runs` forward and
    backward passes of the inputs (a Python expression list, drawn under manual_seed(1)); the first
    `grads` float inputs (all by default) require grad."""
    build = PRELUDE + 'torch.manual_seed(0)\nm = %s\n%s\n' % (ctor, setup)
    CASES[name + '/init'] = build + 'out = describe(m)'
    CASES[name + '/fwd'] = (build + 'torch.manual_seed(1)\nxs = [%s]\nout = [fwd_bwd(m, *xs, grads=%r) for _ in range(%d)]'
                            % (inputs, grads, runs), tol)


def case(name, code, tol=0.0):
    CASES[name] = (PRELUDE + code, tol) if tol else PRELUDE + code


# ---- linear ----
layer('Linear', 'nn.Linear(5, 3)', 'torch.randn(4, 5)')
layer('Linear_nobias', 'nn.Linear(5, 3, bias=False)', 'torch.randn(2, 4, 5)')
layer('Bilinear', 'nn.Bilinear(3, 4, 2)', 'torch.randn(5, 3), torch.randn(5, 4)')
layer('Bilinear_nobias', 'nn.Bilinear(3, 4, 2, bias=False)', 'torch.randn(5, 3), torch.randn(5, 4)')

# ---- convolution ----
layer('Conv1d', 'nn.Conv1d(4, 6, 3, stride=2, padding=1)', 'torch.randn(2, 4, 9)')
layer('Conv1d_unbatched', 'nn.Conv1d(4, 6, 3)', 'torch.randn(4, 9)')
layer('Conv2d', 'nn.Conv2d(3, 4, 3)', 'torch.randn(2, 3, 7, 6)')
layer('Conv2d_args', 'nn.Conv2d(4, 6, (3, 2), stride=(2, 1), padding=(1, 2), dilation=(1, 2), groups=2, bias=False)',
      'torch.randn(2, 4, 8, 7)')
layer('Conv2d_same', 'nn.Conv2d(2, 3, (5, 3), padding="same", dilation=(1, 2))', 'torch.randn(1, 2, 6, 7)')
# an even kernel with odd dilation pads unevenly (F warns, in words that name PyTorch's C++ source)
layer('Conv2d_same_even', 'nn.Conv2d(2, 3, (4, 3), padding="same", dilation=(1, 2))', 'torch.randn(1, 2, 6, 7)',
      setup='import warnings; warnings.simplefilter("ignore")')
layer('Conv2d_valid', 'nn.Conv2d(2, 3, 3, padding="valid")', 'torch.randn(1, 2, 6, 7)')
for _mode in ('reflect', 'replicate', 'circular'):
    layer('Conv2d_' + _mode, 'nn.Conv2d(2, 3, 3, padding=(1, 2), padding_mode=%r)' % _mode, 'torch.randn(2, 2, 5, 6)')
    layer('Conv1d_' + _mode, 'nn.Conv1d(2, 3, 3, padding=2, padding_mode=%r)' % _mode, 'torch.randn(2, 2, 7)')
layer('Conv2d_same_reflect', 'nn.Conv2d(2, 3, 4, padding="same", padding_mode="reflect")', 'torch.randn(1, 2, 6, 6)')
layer('Conv3d', 'nn.Conv3d(2, 4, (2, 3, 2), stride=(1, 2, 1), padding=1)', 'torch.randn(2, 2, 4, 5, 4)')
layer('Conv3d_replicate', 'nn.Conv3d(2, 2, 3, padding=1, padding_mode="replicate")', 'torch.randn(1, 2, 4, 4, 4)')
layer('ConvTranspose1d', 'nn.ConvTranspose1d(4, 2, 3, stride=2, padding=1, output_padding=1)', 'torch.randn(2, 4, 5)')
layer('ConvTranspose2d', 'nn.ConvTranspose2d(4, 6, (3, 2), stride=2, groups=2, dilation=(2, 1))',
      'torch.randn(2, 4, 4, 3)')
layer('ConvTranspose3d', 'nn.ConvTranspose3d(2, 3, 2, stride=(1, 2, 2), bias=False)', 'torch.randn(1, 2, 3, 2, 3)')
case('ConvTranspose2d_output_size', '''
torch.manual_seed(0)
m = nn.ConvTranspose2d(2, 3, 3, stride=2, padding=1)
x = torch.randn(1, 2, 4, 5)
out = [m(x, output_size=[8, 10]).shape, m(x, output_size=(1, 3, 7, 9)).shape, m(x).shape,
       m(x, output_size=torch.Size([8, 9])).shape]
''')
case('ConvTranspose2d_output_size_bad', '''
m = nn.ConvTranspose2d(2, 3, 3, stride=2, padding=1)
m(torch.randn(1, 2, 4, 5), output_size=[12, 10])
''')
case('ConvTranspose2d_output_size_len', '''
m = nn.ConvTranspose2d(2, 3, 3, stride=2, padding=1)
m(torch.randn(1, 2, 4, 5), output_size=[1, 7])
''')
case('ConvTranspose1d_output_size_unbatched', '''
torch.manual_seed(0)
m = nn.ConvTranspose1d(2, 3, 3, stride=3)
out = [m(torch.randn(2, 4), output_size=[12]).shape, m(torch.randn(2, 4), output_size=[3, 14]).shape]
''')
case('conv_err_groups', 'nn.Conv2d(4, 4, 3, groups=0)')
case('conv_err_in_groups', 'nn.Conv2d(3, 4, 3, groups=2)')
case('conv_err_out_groups', 'nn.Conv2d(4, 3, 3, groups=2)')
case('conv_err_same_strided', 'nn.Conv2d(4, 3, 3, stride=2, padding="same")')
case('conv_err_transpose_mode', 'nn.ConvTranspose2d(4, 3, 3, padding_mode="reflect")')
case('conv_reprs', '''
out = [repr(nn.Conv2d(3, 4, 3, padding="same")), repr(nn.Conv1d(3, 4, 3, padding_mode="circular", padding=1)),
       repr(nn.ConvTranspose2d(3, 4, 3, output_padding=1, stride=2, dilation=2)), repr(nn.Conv3d(2, 2, 1, bias=False)),
       nn.Conv2d.__constants__, nn.Conv2d(3, 4, 3)._reversed_padding_repeated_twice,
       nn.Conv2d(3, 4, (4, 5), padding="same", dilation=(1, 3))._reversed_padding_repeated_twice,
       nn.Conv1d(3, 4, 2).kernel_size, nn.Conv3d(3, 4, 2, padding=(1, 0, 2)).padding]
''')
case('conv_double', '''
torch.manual_seed(0)
m = nn.Conv2d(2, 3, 2, dtype=torch.float64)
out = [m.weight.dtype, m(torch.randn(1, 2, 3, 3, dtype=torch.float64))]
''', tol=1e-12)

# ---- pooling ----
layer('MaxPool2d', 'nn.MaxPool2d(2)', 'torch.randn(2, 3, 6, 7)')
layer('MaxPool2d_args', 'nn.MaxPool2d((3, 2), stride=(2, 1), padding=1, dilation=(1, 2), ceil_mode=True)',
      'torch.randn(2, 3, 7, 8)')
layer('MaxPool2d_indices', 'nn.MaxPool2d(3, stride=2, return_indices=True)', 'torch.randn(1, 2, 7, 7)')
layer('MaxPool1d', 'nn.MaxPool1d(3, stride=2, padding=1, return_indices=True)', 'torch.randn(2, 3, 9)')
layer('AvgPool1d', 'nn.AvgPool1d(3, stride=2, padding=1, count_include_pad=False)', 'torch.randn(2, 3, 9)')
layer('AvgPool2d', 'nn.AvgPool2d((3, 2), stride=2, padding=1, ceil_mode=True)', 'torch.randn(2, 3, 7, 8)')
layer('AvgPool2d_divisor', 'nn.AvgPool2d(2, divisor_override=3)', 'torch.randn(1, 2, 4, 6)')
layer('AdaptiveAvgPool1d', 'nn.AdaptiveAvgPool1d(4)', 'torch.randn(2, 3, 10)')
layer('AdaptiveAvgPool2d', 'nn.AdaptiveAvgPool2d((3, None))', 'torch.randn(2, 3, 7, 5)')
layer('AdaptiveMaxPool1d', 'nn.AdaptiveMaxPool1d(3, return_indices=True)', 'torch.randn(2, 3, 10)')
layer('AdaptiveMaxPool2d', 'nn.AdaptiveMaxPool2d(2)', 'torch.randn(2, 3, 7, 5)')
case('pool_reprs', '''
out = [repr(nn.MaxPool2d(3)), repr(nn.MaxPool1d(2, 1, 1, 2, True, True)), repr(nn.AvgPool1d(3)),
       repr(nn.AvgPool2d(3, 1)), repr(nn.AdaptiveAvgPool2d((None, 3))), repr(nn.AdaptiveMaxPool1d(4)),
       nn.AvgPool2d.__constants__, nn.MaxPool2d.__constants__, nn.AvgPool1d(2).stride, nn.AvgPool2d(2).stride]
''')

# ---- normalisation ----
layer('BatchNorm2d', 'nn.BatchNorm2d(3)', 'torch.randn(4, 3, 2, 3) * 2 + 1', runs=3)
layer('BatchNorm1d', 'nn.BatchNorm1d(3, eps=1e-3, momentum=0.3)', 'torch.randn(5, 3)', runs=2)
layer('BatchNorm1d_3d', 'nn.BatchNorm1d(3, affine=False)', 'torch.randn(5, 3, 4)')
layer('BatchNorm2d_cumulative', 'nn.BatchNorm2d(2, momentum=None)', 'torch.randn(3, 2, 2, 2) * 3', runs=3)
layer('BatchNorm2d_untracked', 'nn.BatchNorm2d(2, track_running_stats=False)', 'torch.randn(3, 2, 2, 2)', runs=2)
layer('BatchNorm2d_eval', 'nn.BatchNorm2d(2)',
      'torch.randn(3, 2, 2, 2)', setup='m.running_mean.fill_(0.5); m.running_var.fill_(2.0); m.eval()')
layer('BatchNorm2d_untracked_eval', 'nn.BatchNorm2d(2, track_running_stats=False).eval()', 'torch.randn(3, 2, 2, 2)')
layer('BatchNorm3d', 'nn.BatchNorm3d(2)', 'torch.randn(2, 2, 2, 3, 2)')
case('batchnorm_errors', '''
m = nn.BatchNorm2d(3)
errs = []
for mod, x in [(m, torch.randn(3, 3)), (nn.BatchNorm1d(3), torch.randn(2, 3, 4, 4)), (nn.BatchNorm3d(3), torch.randn(2, 3, 4))]:
    try:
        mod(x)
    except Exception as e:
        errs.append([type(e).__name__, str(e)])
out = errs
''')
case('batchnorm_state', '''
m = nn.BatchNorm2d(3)
sd = m.state_dict()
out = [list(sd.keys()), dict(sd._metadata), sd["num_batches_tracked"], repr(m), repr(nn.BatchNorm1d(4, momentum=None)),
       nn.BatchNorm2d.__constants__, nn.BatchNorm2d._version]
del sd["num_batches_tracked"]
sd._metadata[""]["version"] = 1
m.num_batches_tracked.fill_(7)
r = m.load_state_dict(sd)
out += [m.num_batches_tracked, repr(r)]
''')
case('batchnorm_reset', '''
m = nn.BatchNorm1d(2)
m(torch.randn(4, 2))
with torch.no_grad():
    m.weight.fill_(3)
m.reset_parameters()
out = dict(m.state_dict())
''')
layer('InstanceNorm1d', 'nn.InstanceNorm1d(3)', 'torch.randn(2, 3, 5)')
layer('InstanceNorm1d_unbatched', 'nn.InstanceNorm1d(3, affine=True)', 'torch.randn(3, 5)')
layer('InstanceNorm2d', 'nn.InstanceNorm2d(2, affine=True, track_running_stats=True)', 'torch.randn(2, 2, 3, 4)', runs=2,
      tol=1e-4)  # outputs near 0 after the mean's cancellation
layer('InstanceNorm2d_eval', 'nn.InstanceNorm2d(2, track_running_stats=True)', 'torch.randn(2, 2, 3, 4)',
      setup='m.running_mean.fill_(0.5); m.eval()')
layer('InstanceNorm3d', 'nn.InstanceNorm3d(2)', 'torch.randn(1, 2, 3, 2, 4)')
case('instancenorm_errors', '''
out = []
for m, x in [(nn.InstanceNorm1d(3), torch.randn(2, 3, 4, 4)), (nn.InstanceNorm2d(3), torch.randn(3, 4))]:
    try:
        m(x)
    except Exception as e:
        out.append([type(e).__name__, str(e)])
''')
case('instancenorm_legacy_state', '''
m = nn.InstanceNorm2d(2)
sd = {"running_mean": torch.zeros(2), "running_var": torch.ones(2)}
m.load_state_dict(sd)
''')

# ---- dropout (the modules exist; here with a seed inside a network) ----
layer('Dropout2d', 'nn.Dropout2d(0.4)', 'torch.randn(2, 4, 3, 3)')

# ---- losses ----
def loss(name, ctor, inputs, grads=None):
    layer('loss_' + name, ctor, inputs, grads=grads)


loss('MSELoss', 'nn.MSELoss()', 'torch.randn(3, 4), torch.randn(3, 4)')
loss('MSELoss_sum', 'nn.MSELoss(reduction="sum")', 'torch.randn(3, 4), torch.randn(3, 4)')
loss('L1Loss_none', 'nn.L1Loss(reduction="none")', 'torch.randn(3, 4), torch.randn(3, 4)')
loss('SmoothL1Loss', 'nn.SmoothL1Loss(beta=0.5)', 'torch.randn(3, 4), torch.randn(3, 4)')
loss('HuberLoss', 'nn.HuberLoss(delta=0.7, reduction="sum")', 'torch.randn(3, 4), torch.randn(3, 4)')
loss('CrossEntropyLoss', 'nn.CrossEntropyLoss()', 'torch.randn(5, 4), torch.tensor([0, 3, 1, 2, 3])')
loss('CrossEntropyLoss_opts', 'nn.CrossEntropyLoss(weight=torch.tensor([1., 2., 0.5, 1.5]), ignore_index=1, '
     'label_smoothing=0.2)', 'torch.randn(5, 4), torch.tensor([0, 3, 1, 2, 3])')
loss('CrossEntropyLoss_probs', 'nn.CrossEntropyLoss(reduction="none", label_smoothing=0.1)',
     'torch.randn(3, 4, 2), torch.randn(3, 4, 2).softmax(1)')
loss('CrossEntropyLoss_2d', 'nn.CrossEntropyLoss(reduction="sum")', 'torch.randn(2, 3, 2, 2), torch.randint(0, 3, (2, 2, 2))')
loss('NLLLoss', 'nn.NLLLoss(weight=torch.tensor([0.5, 1., 2.]))', 'torch.randn(4, 3).log_softmax(1), torch.tensor([2, 0, 1, 2])')
loss('NLLLoss_ignore', 'nn.NLLLoss(ignore_index=2, reduction="none")',
     'torch.randn(4, 3).log_softmax(1), torch.tensor([2, 0, 1, 2])')
loss('BCELoss', 'nn.BCELoss(weight=torch.tensor([1., 2., 3.]))', 'torch.rand(4, 3), torch.rand(4, 3)')
loss('BCEWithLogitsLoss', 'nn.BCEWithLogitsLoss(pos_weight=torch.tensor([1., 2., 3.]))', 'torch.randn(4, 3), torch.rand(4, 3)')
loss('BCEWithLogitsLoss_weight', 'nn.BCEWithLogitsLoss(weight=torch.tensor([1., 0.5, 3.]), reduction="sum")',
     'torch.randn(4, 3), torch.rand(4, 3)')
loss('KLDivLoss', 'nn.KLDivLoss(reduction="batchmean")', 'torch.randn(3, 4).log_softmax(1), torch.rand(3, 4)')
loss('KLDivLoss_log_target', 'nn.KLDivLoss(reduction="sum", log_target=True)',
     'torch.randn(3, 4).log_softmax(1), torch.randn(3, 4).log_softmax(1)')
loss('CosineEmbeddingLoss', 'nn.CosineEmbeddingLoss(margin=0.2)', 'torch.randn(4, 5), torch.randn(4, 5), '
     'torch.tensor([1, -1, 1, -1])')
loss('MarginRankingLoss', 'nn.MarginRankingLoss(margin=0.5)', 'torch.randn(6), torch.randn(6), '
     'torch.tensor([1., -1., 1., -1., 1., 1.])')
loss('TripletMarginLoss', 'nn.TripletMarginLoss(margin=0.5, p=1.5, swap=True)',
     'torch.randn(4, 5), torch.randn(4, 5), torch.randn(4, 5)')
loss('PoissonNLLLoss', 'nn.PoissonNLLLoss()', 'torch.randn(3, 4), torch.rand(3, 4) * 3')
loss('PoissonNLLLoss_full', 'nn.PoissonNLLLoss(log_input=False, full=True, reduction="sum")',
     'torch.rand(3, 4) + 0.1, torch.randint(0, 5, (3, 4)).float()', grads=1)
loss('HingeEmbeddingLoss', 'nn.HingeEmbeddingLoss(margin=0.5)', 'torch.randn(3, 4), torch.tensor([1., -1., 1., -1.])')
loss('CTCLoss', 'nn.CTCLoss(blank=0, zero_infinity=True)',
     'torch.randn(6, 2, 4).log_softmax(2), torch.tensor([[1, 2, 2], [3, 1, 0]]), torch.tensor([6, 5]), '
     'torch.tensor([3, 2])')
case('loss_legacy_args', '''
m = nn.MSELoss(size_average=False)
n = nn.NLLLoss(reduce=False)
out = [m.reduction, n.reduction, nn.CrossEntropyLoss(size_average=True, reduce=True).reduction]
''')
case('loss_state', '''
m = nn.CrossEntropyLoss(weight=torch.ones(3))
out = [repr(m), list(m.state_dict().keys()), list(nn.BCEWithLogitsLoss(pos_weight=torch.ones(2)).state_dict().keys()),
       list(nn.BCEWithLogitsLoss().state_dict().keys()), repr(nn.L1Loss()), nn.CrossEntropyLoss.__constants__,
       nn.HuberLoss().delta, nn.NLLLoss2d().reduction, nn.TripletMarginLoss.__constants__]
''')
layer('PairwiseDistance', 'nn.PairwiseDistance(p=3, keepdim=True)', 'torch.randn(4, 5), torch.randn(4, 5)')

SUITE = SnippetSuite('nn_layers', CASES)
RECORDED, RUNNER, reference_request = SUITE.recorded, SUITE.runner, SUITE.reference_request
reports = SUITE.fixture()


@pytest.mark.parametrize('case', SUITE.names)
def test_matches_reference(reports, case):
    SUITE.check(reports, case)


# ---- direct checks ----

def test_exported_names():
    import torch
    from torch import nn
    for name in nn.modules.__all__:
        assert getattr(nn, name) is getattr(nn.modules, name)
    assert nn.modules.conv.Conv2d is nn.Conv2d
    assert nn.modules.loss.CrossEntropyLoss is nn.CrossEntropyLoss
    assert isinstance(nn.Conv2d(1, 1, 1), nn.modules.conv._ConvNd)
    assert torch.nn.modules.batchnorm._BatchNorm in nn.BatchNorm2d.__mro__


def test_conv_pickle_and_deepcopy():
    import torch
    from torch import nn
    torch.manual_seed(0)
    m = nn.Sequential(nn.Conv2d(2, 3, 3, padding_mode='reflect', padding=1), nn.BatchNorm2d(3), nn.ReLU())
    x = torch.randn(2, 2, 5, 5)
    assert m(x).shape == (2, 3, 5, 5)
    m.eval()
    for clone in (pickle.loads(pickle.dumps(m)), copy.deepcopy(m)):
        assert clone[1].num_batches_tracked.item() == 1
        assert torch.equal(clone(x), m(x))


def test_batchnorm_to_double_keeps_counter_long():
    import torch
    from torch import nn
    m = nn.BatchNorm1d(3).double()
    assert m.running_mean.dtype == torch.float64
    assert m.num_batches_tracked.dtype == torch.int64
    m(torch.randn(4, 3, dtype=torch.float64))
    assert m.num_batches_tracked.item() == 1


def test_size_slices_are_sizes():
    # ConvTranspose's output_size error prints input.size()[2:]: PyTorch's Size slices, adds and
    # repeats into Sizes
    import torch
    s = torch.Size([1, 2, 3])
    assert type(s[1:]) is torch.Size and s[1:] == (2, 3)
    assert type(s + (4,)) is torch.Size and type(s * 2) is torch.Size and type(2 * s) is torch.Size
    assert type((0,) + s) is tuple and s[0] == 1 and type(s[-1]) is int
