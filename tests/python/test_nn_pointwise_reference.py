"""Differential suite of the nn family (activations, softmax family, losses, recurrent layers,
attention) against PyTorch 1.13.1, whose results are recorded in tests/data/reference/nn_pointwise.json
by `tools/record_reference nn_pointwise` (see tests/python/differential.py).

Every op runs over dtypes (the reference's refusals are compared as exception types), edge values
(signed zeros, infinities, NaN, large magnitudes), non-contiguous, 0-dim and empty inputs, its
reductions, weights and options, and its gradients (through torch.autograd.grad, so the backward
kernels are compared too). Recurrent layers and attention run in float64, where the two sides'
matrix products agree to rounding.
"""
import pytest

from differential import Suite

NNF = 'torch.nn.functional.'
FLOATS = ['float32', 'float64', 'bfloat16']
ALL = ['float16', 'bfloat16', 'float32', 'float64', 'int64', 'int32', 'uint8', 'bool']

EDGE = ('torch.tensor([-30.0, -4.5, -3.0, -1.0, -0.5, -0.0, 0.0, 0.25, 0.5, 1.0, 3.0, 4.5, 21.0, 80.0, '
        "float('inf'), float('-inf'), float('nan')], dtype=torch.{})")
# inputs built from exact float64 values (arange / 4), so both sides start from the same numbers
GRID = '(torch.arange(49, dtype=torch.float64) / 4 - 6).to(torch.{})'
STRIDED = '(torch.arange(24, dtype=torch.float64) / 4 - 3).to(torch.{}).reshape(4, 6).t()'
SCALAR = 'torch.tensor(-0.75, dtype=torch.{})'
EMPTY = 'torch.zeros(0, 3, dtype=torch.{})'
INT = 'torch.tensor([-3, 0, 2, 7]).to(torch.{})'

ACTIVATIONS = [
    'relu6({})', 'leaky_relu({})', 'leaky_relu({}, 0.2)', 'elu({})', 'elu({}, alpha=0.4)', 'selu({})', 'celu({})',
    'celu({}, 2.0)', 'gelu({})', "gelu({}, approximate='tanh')", 'silu({})', 'mish({})', 'hardtanh({})',
    'hardtanh({}, -2.0, 0.5)', 'hardswish({})', 'hardsigmoid({})', 'softplus({})', 'softplus({}, beta=2, threshold=3)',
    'softsign({})', 'tanhshrink({})', 'softshrink({})', 'softshrink({}, 1.5)', 'hardshrink({})', 'hardshrink({}, 2.0)',
    'logsigmoid({})', 'threshold({}, 0.3, -8.0)', 'rrelu({})', 'relu({})',
]


def _activations():
    out = []
    for act in ACTIVATIONS:
        call = NNF + act
        for dtype in FLOATS:
            for x in (EDGE, GRID, STRIDED, SCALAR, EMPTY):
                out.append(call.format(x.format(dtype)))
        for dtype in ['float16', 'int64', 'int32', 'uint8', 'bool']:
            if dtype == 'float16' and act.split('(')[0] in ('relu', 'tanhshrink', 'softsign'):
                continue  # other families' ops, which take float16 where the reference does not
            out.append(call.format(INT.format(dtype)))
        # the gradient, through the backward op's kernel
        grad = '(lambda x: torch.autograd.grad({}.sum(), x)[0])({})'
        for x in (GRID, STRIDED):
            out.append(grad.format(call.format('x'), x.format('float64') + '.requires_grad_()'))
            out.append(grad.format(call.format('x'), x.format('float32') + '.requires_grad_()'))
    for dtype in FLOATS:
        w = 'torch.tensor([0.25, -0.5, 2.0], dtype=torch.{})'.format(dtype)
        x3 = '(torch.arange(24, dtype=torch.float64) / 4 - 3).to(torch.{}).reshape(2, 3, 4)'.format(dtype)
        out += [NNF + 'prelu(%s, %s)' % (x3, w), NNF + 'prelu(%s, %s[:1])' % (EDGE.format(dtype), w),
                NNF + 'prelu(%s, %s)' % (x3, w.replace(dtype, 'float64' if dtype != 'float64' else 'float32')),
                NNF + 'prelu(%s, %s[:2])' % (x3, w),
                NNF + 'glu(%s)' % x3, NNF + 'glu(%s, 1)' % x3.replace('(2, 3, 4)', '(2, 4, 3)'),
                NNF + 'glu(%s, 1)' % x3, NNF + 'glu(%s)' % SCALAR.format(dtype)]
    x = '(torch.arange(24, dtype=torch.float64) / 4 - 3).reshape(2, 3, 4).requires_grad_()'
    w = 'torch.tensor([0.25, -0.5, 2.0], dtype=torch.float64).requires_grad_()'
    out += ['(lambda x, w: torch.autograd.grad((torch.nn.functional.prelu(x, w) ** 2).sum(), (x, w)))(%s, %s)' % (x, w),
            '(lambda x: torch.autograd.grad((torch.nn.functional.glu(x, 1) ** 2).sum(), x)[0])(%s)'
            % x.replace('(2, 3, 4)', '(2, 4, 3)'),
            "torch.nn.functional.gelu(torch.ones(2), approximate='sigmoid')",
            'torch.nn.functional.hardtanh(torch.tensor([1, 2], dtype=torch.uint8))',
            'torch.nn.functional.hardtanh(torch.tensor([1, 2], dtype=torch.uint8), 0.0, 1.0)',
            'torch.nn.functional.threshold(torch.tensor([1, 2, 3], dtype=torch.uint8), 1.5, 7)']
    # in-place forms return their argument, written
    for act in ['relu', 'relu6', 'elu', 'selu', 'celu', 'leaky_relu', 'hardtanh', 'silu', 'mish', 'hardswish',
                'hardsigmoid', 'rrelu']:
        out.append('(lambda x: (torch.nn.functional.{0}(x, inplace=True) is x, x))({1})'.format(
            act, GRID.format('float32')))
    return out


def _softmax():
    out = []
    x3 = '(torch.arange(60, dtype=torch.float64) / 5 - 5).to(torch.{}).reshape(3, 4, 5)'
    rows = ("torch.tensor([[1.0, 2.0, 3.0], [float('-inf'), 0.0, 1.0], [float('-inf'), float('-inf'), float('-inf')], "
            "[float('nan'), 1.0, 2.0], [1000.0, -1000.0, 999.0], [0.0, 0.0, 0.0]], dtype=torch.{})")
    for fn in ('softmax', 'log_softmax', 'softmin'):
        for dtype in FLOATS:
            for d in (0, 1, 2, -1):
                out.append(NNF + '%s(%s, %d)' % (fn, x3.format(dtype), d))
            out += [NNF + '%s(%s, 1)' % (fn, rows.format(dtype)), NNF + '%s(%s, 0)' % (fn, rows.format(dtype)),
                    NNF + '%s(%s.transpose(0, 2), 1)' % (fn, x3.format(dtype)),
                    NNF + '%s(%s, 0)' % (fn, SCALAR.format(dtype)), NNF + '%s(%s, 1)' % (fn, EMPTY.format(dtype)),
                    NNF + '%s((torch.arange(300, dtype=torch.float64) / 8 - 20).to(torch.%s), 0)' % (fn, dtype)]
        for dtype in ('float16', 'int64'):
            out += [NNF + '%s(%s, 0)' % (fn, INT.format(dtype)), NNF + '%s(%s, 1)' % (fn, x3.format(dtype))]
        out += [NNF + '%s(%s, 1, dtype=torch.float64)' % (fn, x3.format('float32')),
                NNF + '%s(%s, 3)' % (fn, x3.format('float32')),
                '(lambda x: torch.autograd.grad((torch.nn.functional.%s(x, 1) * (torch.arange(20, '
                'dtype=torch.float64) / 20).reshape(4, 5)).sum(), x)[0])(%s.requires_grad_())' % (fn, x3.format('float64')),
                '(lambda x: torch.autograd.grad((torch.nn.functional.%s(x, 2) ** 2).sum(), x)[0])(%s.requires_grad_())'
                % (fn, x3.format('float32'))]
    out += ['torch.softmax(%s, 1)' % x3.format('float32'), '%s.log_softmax(-1)' % x3.format('float32'),
            'torch.ops.aten._softmax(%s, 1, False)' % x3.format('float32'),
            'torch.ops.aten._log_softmax(%s, 0, False)' % x3.format('float64'),
            'torch.ops.aten._softmax(%s, 1, True)' % x3.format('float32'),
            'torch.ops.aten._softmax_backward_data(torch.ones(3, 4), torch.ones(4, 3), 1, torch.float32)']
    return out


X = 'torch.tensor([[0.2, -1.0, 3.0, 0.0], [0.5, 0.25, -2.0, 7.5], [-0.75, 1.5, 0.1, -3.0]], dtype=torch.{})'
Y = 'torch.tensor([[0.0, 1.0, 2.5, -0.5], [0.5, -0.75, 1.0, 7.0], [1.25, 1.5, -0.4, 0.0]], dtype=torch.{})'
P = 'torch.tensor([[0.1, 0.5, 0.9, 0.0], [0.3, 0.99, 0.01, 1.0], [0.7, 0.2, 0.5, 0.45]], dtype=torch.{})'
Q = 'torch.tensor([[0.0, 1.0, 0.5, 0.0], [1.0, 0.2, 0.0, 1.0], [0.3, 0.6, 1.0, 0.0]], dtype=torch.{})'


def _pointwise_losses():
    out = []
    reductions = ("'none'", "'mean'", "'sum'")
    for dtype in FLOATS + ['float16']:
        x, y, p, q = X.format(dtype), Y.format(dtype), P.format(dtype), Q.format(dtype)
        composite_ok = dtype != 'float16'  # kl_div, poisson, bce_with_logits: other families' float16 ops
        for r in reductions:
            out += [NNF + 'mse_loss(%s, %s, reduction=%s)' % (x, y, r), NNF + 'l1_loss(%s, %s, reduction=%s)' % (x, y, r),
                    NNF + 'smooth_l1_loss(%s, %s, reduction=%s)' % (x, y, r),
                    NNF + 'smooth_l1_loss(%s, %s, reduction=%s, beta=0.0)' % (x, y, r),
                    NNF + 'smooth_l1_loss(%s, %s, reduction=%s, beta=2.5)' % (x, y, r),
                    NNF + 'huber_loss(%s, %s, reduction=%s)' % (x, y, r),
                    NNF + 'huber_loss(%s, %s, reduction=%s, delta=0.3)' % (x, y, r),
                    NNF + 'binary_cross_entropy(%s, %s, reduction=%s)' % (p, q, r),
                    NNF + 'binary_cross_entropy(%s, %s, weight=torch.tensor([1.0, 2.0, 0.5, 3.0], dtype=torch.%s), '
                    'reduction=%s)' % (p, q, dtype, r),
                    ]
            if composite_ok:
                out += [NNF + 'binary_cross_entropy_with_logits(%s, %s, reduction=%s)' % (x, q, r),
                        NNF + 'binary_cross_entropy_with_logits(%s, %s, reduction=%s, pos_weight=torch.tensor([2.0, '
                        '0.5, 1.0, 3.0], dtype=torch.%s), weight=%s)' % (x, q, r, dtype, p),
                        NNF + 'kl_div(%s, %s, reduction=%s)' % (x, p, r),
                        NNF + 'kl_div(%s, %s, reduction=%s, log_target=True)' % (x, y, r),
                        NNF + 'poisson_nll_loss(%s, %s, reduction=%s)' % (x, p, r),
                        NNF + 'poisson_nll_loss(%s.abs(), %s.abs() * 3, log_input=False, full=True, reduction=%s)'
                        % (x, y, r)]
        out += [NNF + "kl_div(%s, %s, reduction='batchmean')" % (x, p) if composite_ok else EMPTY.format(dtype),
                NNF + 'mse_loss(%s.t(), %s.t())' % (x, y), NNF + 'l1_loss(%s, %s[0])' % (x, y),
                NNF + 'mse_loss(%s, %s)' % (EMPTY.format(dtype), EMPTY.format(dtype)),
                NNF + "mse_loss(%s, %s, reduction='sum')" % (EMPTY.format(dtype), EMPTY.format(dtype)),
                NNF + 'mse_loss(%s, %s)' % (SCALAR.format(dtype), SCALAR.format(dtype))]
    out += [NNF + 'mse_loss(%s, %s)' % (X.format('float32'), Y.format('float64')),
            NNF + 'mse_loss(%s, %s)' % (INT.format('int64'), INT.format('int64')),
            NNF + "mse_loss(%s, %s, reduction='avg')" % (X.format('float32'), Y.format('float32')),
            NNF + 'binary_cross_entropy(%s * 2, %s)' % (P.format('float32'), Q.format('float32')),
            NNF + 'binary_cross_entropy(%s, %s[0])' % (P.format('float32'), Q.format('float32')),
            NNF + 'binary_cross_entropy_with_logits(%s, %s[0])' % (X.format('float32'), Q.format('float32')),
            NNF + 'l1_loss(%s, %s)' % (INT.format('int64'), INT.format('int64')),
            NNF + "l1_loss(%s, %s, reduction='none')" % (INT.format('int64'), INT.format('int64')),
            NNF + "kl_div(%s, %s, reduction='sum')" % (INT.format('int64'), INT.format('int64')),
            NNF + "poisson_nll_loss(%s, %s, reduction='avg')" % (X.format('float32'), P.format('float32')),
            NNF + 'smooth_l1_loss(%s, %s, size_average=False)' % (X.format('float32'), Y.format('float32')),
            NNF + 'mse_loss(%s, %s, reduce=False)' % (X.format('float32'), Y.format('float32'))]
    grad = '(lambda x, y: torch.autograd.grad({}, (x, y)))({}, {})'
    for dtype in ('float64', 'float32'):
        x = X.format(dtype) + '.requires_grad_()'
        y = Y.format(dtype) + '.requires_grad_()'
        p = P.format(dtype).replace('0.0]', '0.05]').replace('1.0]', '0.95]').replace('0.01,', '0.02,') + \
            '.requires_grad_()'
        q = Q.format(dtype) + '.requires_grad_()'
        for r in ("'mean'", "'sum'"):
            for loss in ('mse_loss(x, y, reduction=%s)', 'l1_loss(x, y, reduction=%s)',
                         'smooth_l1_loss(x, y, reduction=%s, beta=0.8)', 'huber_loss(x, y, reduction=%s, delta=0.7)'):
                out.append(grad.format(NNF + loss % r, x, y))
            out += [grad.format(NNF + 'binary_cross_entropy(x, y, reduction=%s)' % r, p, q),
                    grad.format(NNF + 'binary_cross_entropy_with_logits(x, y, reduction=%s, pos_weight=torch.tensor('
                                '[2.0, 0.5, 1.0, 3.0], dtype=torch.%s))' % (r, dtype), x, q),
                    grad.format(NNF + 'kl_div(x, y, reduction=%s, log_target=True)' % r, x, y)]
        out.append(grad.format('(%smse_loss(x, y, reduction="none") * torch.linspace(-1, 1, 12, dtype=torch.%s)'
                               '.reshape(3, 4)).sum()' % (NNF, dtype), x, y))
    return out


LOGP = ('torch.tensor([[-0.5, -1.5, -2.5, -0.2], [-1.0, -0.25, -3.0, -0.4], [-2.0, -2.0, -0.1, -0.6], '
        '[-0.3, -0.9, -1.7, -2.2], [-1.1, -0.8, -0.7, -1.9]], dtype=torch.{})')
TGT = 'torch.tensor([0, 2, 1, 3, 2])'


def _nll_cross_entropy():
    out = []
    reductions = ("'none'", "'mean'", "'sum'")
    w = 'torch.tensor([1.0, 2.0, 0.5, 3.0], dtype=torch.{})'
    x4 = '(torch.arange(120, dtype=torch.float64) / 24 - 3).to(torch.{}).reshape(2, 4, 3, 5)'
    t4 = '(torch.arange(30).reshape(2, 3, 5) % 4)'
    x3 = '(torch.arange(48, dtype=torch.float64) / 10 - 3).to(torch.{}).reshape(2, 4, 6)'
    t3 = '(torch.arange(12).reshape(2, 6) % 4)'
    for dtype in FLOATS:
        x, wt = LOGP.format(dtype), w.format(dtype)
        for r in reductions:
            for fn in ('nll_loss', 'cross_entropy'):
                out += [NNF + '%s(%s, %s, reduction=%s)' % (fn, x, TGT, r),
                        NNF + '%s(%s, %s, weight=%s, reduction=%s)' % (fn, x, TGT, wt, r),
                        NNF + '%s(%s, %s, weight=%s, ignore_index=2, reduction=%s)' % (fn, x, TGT, wt, r),
                        NNF + '%s(%s, %s, reduction=%s)' % (fn, x4.format(dtype), t4, r),
                        NNF + '%s(%s, %s, weight=%s, ignore_index=1, reduction=%s)' % (fn, x4.format(dtype), t4, wt, r),
                        NNF + '%s(%s, %s, reduction=%s)' % (fn, x3.format(dtype), t3, r),
                        NNF + '%s(%s[0], torch.tensor(3), reduction=%s)' % (fn, x, r),
                        NNF + '%s(%s.t().t(), %s, reduction=%s)' % (fn, x, TGT, r)]
            out += [NNF + 'cross_entropy(%s, %s, reduction=%s, label_smoothing=0.2)' % (x, TGT, r),
                    NNF + 'cross_entropy(%s, %s, weight=%s, ignore_index=0, reduction=%s, label_smoothing=0.1)'
                    % (x, TGT, wt, r),
                    NNF + 'cross_entropy(%s, %s, reduction=%s, label_smoothing=0.3)' % (x4.format(dtype), t4, r),
                    NNF + 'cross_entropy(%s, %s.softmax(1), reduction=%s)' % (x, x, r),
                    NNF + 'cross_entropy(%s, %s.softmax(1), weight=%s, reduction=%s, label_smoothing=0.25)'
                    % (x, x, wt, r),
                    NNF + 'cross_entropy(%s, %s.softmax(1), reduction=%s)' % (x4.format(dtype), x4.format(dtype), r)]
        out += [NNF + 'nll_loss(%s, torch.full((5,), -100))' % x, NNF + "nll_loss(%s, torch.full((5,), -100), "
                                                                         "reduction='sum')" % x,
                NNF + 'nll_loss(%s, torch.zeros(0, dtype=torch.long))' % EMPTY.format(dtype),
                NNF + 'cross_entropy(%s, torch.zeros(0, dtype=torch.long))' % EMPTY.format(dtype),
                'torch.ops.aten.nll_loss_forward(%s, %s, None, 1, -100)' % (x, TGT),
                'torch.ops.aten.nll_loss_forward(%s, %s, %s, 0, 2)' % (x, TGT, wt),
                'torch.ops.aten.nll_loss2d_forward(%s, %s, None, 2, 0)' % (x4.format(dtype), t4)]
    out += [NNF + 'nll_loss(%s, torch.tensor([0, 2, 1, 4, 2]))' % LOGP.format('float32'),
            NNF + 'nll_loss(%s, torch.tensor([0, 2, -1, 3, 2]))' % LOGP.format('float32'),
            NNF + "nll_loss(%s, torch.tensor([0, 2, -1, 3, 2]), reduction='none')" % LOGP.format('float32'),
            NNF + 'nll_loss(%s, torch.tensor([0, 2, 1]))' % LOGP.format('float32'),
            NNF + 'nll_loss(%s, %s, weight=torch.ones(3))' % (LOGP.format('float32'), TGT),
            NNF + 'nll_loss(%s, %s, weight=torch.ones(4, dtype=torch.float64))' % (LOGP.format('float32'), TGT),
            NNF + 'nll_loss(%s, %s.int())' % (LOGP.format('float32'), TGT),
            NNF + 'nll_loss(%s, %s.to(torch.uint8))' % (LOGP.format('float32'), TGT),
            NNF + 'nll_loss(%s, %s)' % (LOGP.format('float16'), TGT),
            NNF + 'nll_loss(torch.tensor(1.0), torch.tensor(0))',
            NNF + 'nll_loss(%s, torch.zeros(2, 7, dtype=torch.long))' % x3.format('float32'),
            NNF + 'nll_loss(%s, torch.zeros(2, 3, 6, dtype=torch.long))' % x4.format('float32'),
            NNF + 'cross_entropy(%s, torch.zeros(5, 4, dtype=torch.long))' % LOGP.format('float32'),
            NNF + 'cross_entropy(%s, %s.softmax(1), ignore_index=1)' % (LOGP.format('float32'), LOGP.format('float32')),
            NNF + 'cross_entropy(%s, %s, label_smoothing=1.5)' % (LOGP.format('float32'), TGT),
            NNF + 'cross_entropy(%s, %s.softmax(1), weight=torch.ones(3))' % (LOGP.format('float32'),
                                                                             LOGP.format('float32'))]
    grad = '(lambda x: torch.autograd.grad({}, x)[0])({}.requires_grad_())'
    for dtype in ('float64', 'float32'):
        x, wt = LOGP.format(dtype), w.format(dtype)
        out += [grad.format(NNF + 'nll_loss(x, %s, weight=%s, ignore_index=2)' % (TGT, wt), x),
                grad.format('(%snll_loss(x, %s, reduction="none") * torch.arange(5)).sum()' % (NNF, TGT), x),
                grad.format(NNF + 'cross_entropy(x, %s, weight=%s)' % (TGT, wt), x),
                grad.format(NNF + 'cross_entropy(x, %s, label_smoothing=0.2, reduction="sum")' % TGT, x),
                grad.format(NNF + 'cross_entropy(x, (x.detach() * 3).softmax(1))', x),
                grad.format(NNF + 'cross_entropy(x, %s, ignore_index=1)' % t4, x4.format(dtype)),
                grad.format(NNF + 'nll_loss(x, %s, reduction="sum")' % t3, x3.format(dtype))]
    return out


def _other_losses():
    out = []
    a = 'torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.0, -0.5]], dtype=torch.{})'
    b = 'torch.tensor([[1.0, 0.0, 1.5], [0.0, 2.0, 2.5]], dtype=torch.{})'
    c = 'torch.tensor([[0.0, 0.5, 1.0], [-1.0, 1.0, 0.25]], dtype=torch.{})'
    y = 'torch.tensor([[1.0, -1.0, -1.0], [-1.0, 1.0, 1.0]], dtype=torch.{})'
    for dtype in FLOATS:
        A, B, C, Yd = a.format(dtype), b.format(dtype), c.format(dtype), y.format(dtype)
        for r in ("'none'", "'mean'", "'sum'"):
            out += [NNF + 'margin_ranking_loss(%s, %s, %s, margin=0.2, reduction=%s)' % (A, B, Yd, r),
                    NNF + 'hinge_embedding_loss(%s, %s, margin=1.5, reduction=%s)' % (A, Yd, r),
                    NNF + 'cosine_embedding_loss(%s, %s, torch.tensor([1, -1]), margin=-0.2, reduction=%s)'
                    % (A, B, r),
                    NNF + 'triplet_margin_loss(%s, %s, %s, reduction=%s)' % (A, B, C, r),
                    NNF + 'triplet_margin_loss(%s, %s, %s, p=1.0, swap=True, margin=2.0, reduction=%s)'
                    % (A, B, C, r)]
        out += [NNF + 'pairwise_distance(%s, %s)' % (A, B), NNF + 'pairwise_distance(%s, %s, p=1.0)' % (A, B),
                NNF + "pairwise_distance(%s, %s, p=float('inf'), keepdim=True)" % (A, B),
                NNF + 'pairwise_distance(%s, %s, p=0.0)' % (A, B),
                NNF + 'pairwise_distance(%s, %s[0], p=3.0)' % (A, B),
                NNF + 'cosine_embedding_loss(%s[0], %s[0], torch.tensor(-1))' % (A, B)]
    out += [NNF + 'margin_ranking_loss(%s, %s, %s[0])' % (a.format('float32'), b.format('float32'), y.format('float32')),
            NNF + 'cosine_embedding_loss(%s, %s, torch.tensor([1]))' % (a.format('float32'), b.format('float32')),
            NNF + 'cosine_embedding_loss(%s[0], %s[0], torch.tensor([1, 1]))' % (a.format('float32'),
                                                                                 b.format('float32')),
            NNF + 'triplet_margin_loss(%s, %s, %s[0])' % (a.format('float32'), b.format('float32'), c.format('float32'))]
    grad = '(lambda x, y: torch.autograd.grad({}, (x, y)))({}.requires_grad_(), {}.requires_grad_())'
    A, B = a.format('float64'), b.format('float64')
    out += [grad.format(NNF + 'margin_ranking_loss(x, y, %s)' % y.format('float64'), A, B),
            grad.format(NNF + 'cosine_embedding_loss(x, y, torch.tensor([1, -1]))', A, B),
            grad.format(NNF + 'triplet_margin_loss(x, y, %s)' % c.format('float64'), A, B),
            grad.format(NNF + 'hinge_embedding_loss(x, %s) + y.sum()' % y.format('float64'), A, B)]
    return out


CTC_LP = ('((torch.arange(60, dtype=torch.float64) * 7 % 11 - 5) / 3).to(torch.{}).reshape(5, 3, 4).log_softmax(2)')


def _ctc():
    out = []
    for dtype in ('float32', 'float64'):
        lp = CTC_LP.format(dtype)
        for r in ("'none'", "'mean'", "'sum'"):
            out += [NNF + 'ctc_loss(%s, torch.tensor([[1, 2, 2], [3, 1, 0], [2, 0, 0]]), [5, 4, 3], [3, 2, 1], '
                          'reduction=%s)' % (lp, r),
                    NNF + 'ctc_loss(%s, torch.tensor([1, 2, 2, 3, 1, 2]), torch.tensor([5, 4, 3]), torch.tensor([3, 2, '
                          '1]), reduction=%s)' % (lp, r),
                    NNF + 'ctc_loss(%s, torch.tensor([[3, 3, 3], [1, 1, 1], [2, 2, 0]]), [5, 5, 2], [3, 3, 2], '
                          'reduction=%s, zero_infinity=True)' % (lp, r),
                    NNF + 'ctc_loss(%s, torch.tensor([[1, 2], [2, 0], [0, 0]]), [5, 4, 3], [2, 1, 0], blank=3, '
                          'reduction=%s)' % (lp, r)]
        out += [NNF + "ctc_loss(%s[:, 0], torch.tensor([1, 2]), [5], [2], reduction='none')" % lp,
                '(lambda x: torch.autograd.grad(torch.nn.functional.ctc_loss(x.log_softmax(2), torch.tensor([[1, 2, '
                '2], [3, 1, 0], [2, 0, 0]]), [5, 4, 3], [3, 2, 1]), x)[0])(%s.requires_grad_())'
                % lp.replace('.log_softmax(2)', ''),
                '(lambda x: torch.autograd.grad(torch.nn.functional.ctc_loss(x.log_softmax(2), torch.tensor([[3, 3, '
                '3], [1, 1, 1], [2, 2, 0]]), [5, 5, 2], [3, 3, 2], reduction="sum", zero_infinity=True), x)[0])'
                '(%s.requires_grad_())' % lp.replace('.log_softmax(2)', ''),
                'torch.ops.aten._ctc_loss(%s, torch.tensor([[1, 2], [2, 0], [0, 0]]), [5, 4, 3], [2, 1, 0])[0]' % lp]
    lp = CTC_LP.format('float32')
    out += [NNF + 'ctc_loss(%s, torch.tensor([[1, 2]]), [5, 4, 3], [2, 1, 0])' % lp,
            NNF + 'ctc_loss(%s, torch.tensor([[1, 2], [2, 0], [0, 0]]), [6, 4, 3], [2, 1, 0])' % lp,
            NNF + 'ctc_loss(%s, torch.tensor([[1, 2], [2, 0], [0, 0]]), [5, 4], [2, 1, 0])' % lp,
            NNF + 'ctc_loss(%s, torch.tensor([[1, 2], [2, 0], [0, 0]]), [5, 4, 3], [2, 1, 0], blank=4)' % lp,
            NNF + 'ctc_loss(%s[0], torch.tensor([[1, 2], [2, 0], [0, 0]]), [5, 4, 3], [2, 1, 0])' % lp,
            NNF + 'ctc_loss(%s, torch.tensor([[1, 2], [2, 0], [0, 0]]), torch.tensor([5.0, 4.0, 3.0]), '
                  'torch.tensor([2, 1, 0]))' % lp]
    return out


def _param(shape, seed):
    n = 1
    for s in shape:
        n *= s
    return '((torch.arange(%d, dtype=torch.float64) * 7 + %d) %% 13 - 6).div(10).reshape(%s)' % (
        n, int(seed * 10), ', '.join(str(s) for s in shape))


def _rnn():
    out = []
    T, B, I, H = 4, 2, 3, 2
    for mode, gates in (('lstm', 4), ('gru', 3), ('rnn_tanh', 1), ('rnn_relu', 1)):
        for layers, bidir, bf in ((1, False, False), (2, True, False), (2, False, True), (1, True, True)):
            D = 2 if bidir else 1
            params = []
            for l in range(layers):
                for d in range(D):
                    ins = I if l == 0 else H * D
                    s = 3 + l * 5 + d * 7
                    params += [_param((gates * H, ins), s), _param((gates * H, H), s + 1), _param((gates * H,), s + 2),
                               _param((gates * H,), s + 3)]
            x = _param((B, T, I) if bf else (T, B, I), 1.7)
            h = _param((layers * D, B, H), 2.3)
            c = _param((layers * D, B, H), 2.9)
            hx = '[%s, %s]' % (h, c) if mode == 'lstm' else h
            args = '%s, [%s], True, %d, 0.0, True, %s, %s' % (hx, ', '.join(params), layers, bidir, bf)
            out.append('torch.%s(%s, %s)' % (mode, x, args))
            if layers == 1 or bidir:
                # gradients of input, initial state and the first weight
                out.append('(lambda x, h, w: torch.autograd.grad(sum((o * o).sum() for o in torch.%s(x, %s, [w] + [%s], '
                           'True, %d, 0.0, True, %s, %s)), (x, h, w)))(%s.requires_grad_(), %s.requires_grad_(), '
                           '%s.requires_grad_())' % (mode, '[h, %s]' % c if mode == 'lstm' else 'h',
                                                     ', '.join(params[1:]), layers, bidir, bf, x, h, params[0]))
    xc, hc = _param((B, I), 0.9), _param((B, H), 1.3)
    out += ['torch.lstm_cell(%s, [%s, %s], %s, %s, %s, %s)' % (xc, hc, hc, _param((8, I), 4), _param((8, H), 5),
                                                               _param((8,), 6), _param((8,), 7)),
            'torch.gru_cell(%s, %s, %s, %s, %s, %s)' % (xc, hc, _param((6, I), 4), _param((6, H), 5), _param((6,), 6),
                                                        _param((6,), 7)),
            'torch.rnn_tanh_cell(%s, %s, %s, %s)' % (xc, hc, _param((2, I), 4), _param((2, H), 5)),
            'torch.rnn_relu_cell(%s, %s, %s, %s, %s, %s)' % (xc, hc, _param((2, I), 4), _param((2, H), 5),
                                                             _param((2,), 6), _param((2,), 7)),
            'torch.lstm_cell(%s, [%s], %s, %s)' % (xc, hc, _param((8, I), 4), _param((8, H), 5)),
            'torch.rnn_tanh_cell(%s, %s, %s, %s)' % (xc, hc, _param((2, 4), 4), _param((2, H), 5)),
            'torch.lstm(%s, [%s, %s], [%s, %s], False, 1, 0.0, True, False, False)' % (
                _param((T, B, I), 1.1), _param((1, B, H), 2), _param((1, B, H), 3), _param((8, I), 4),
                _param((8, H), 5)),
            'torch.lstm(%s, [%s, %s], [%s, %s], False, 1, 0.0, True, False, False)[0].dtype' % (
                _param((T, B, I), 1.1) + '.bfloat16()', _param((1, B, H), 2) + '.bfloat16()',
                _param((1, B, H), 3) + '.bfloat16()', _param((8, I), 4) + '.bfloat16()',
                _param((8, H), 5) + '.bfloat16()')]
    return out


def _attention():
    out = []
    q, k, v = _param((2, 3, 4), 1.3), _param((2, 5, 4), 2.1), _param((2, 5, 3), 3.7)
    fmask = _param((3, 5), 4.9)
    bmask = 'torch.tensor([[True, False, True, True, False], [False, True, True, True, True], [True] * 5])'
    sdpa = 'torch.nn.functional._scaled_dot_product_attention'
    out += ['%s(%s, %s, %s)' % (sdpa, q, k, v), '%s(%s, %s, %s, attn_mask=%s)' % (sdpa, q, k, v, fmask),
            '%s(%s, %s, %s, attn_mask=%s)' % (sdpa, q, k, v, bmask),
            '%s(%s, %s, %s, is_causal=True)' % (sdpa, q, k, v),
            '%s(%s, %s, %s, need_attn_weights=True)' % (sdpa, q, k, v),
            '%s(%s, %s, %s, attn_mask=%s, is_causal=True)' % (sdpa, q, k, v, fmask),
            '%s(%s.float(), %s.float(), %s.float())[0].dtype' % (sdpa, q, k, v),
            '(lambda q, k, v: torch.autograd.grad(%s(q, k, v, attn_mask=%s)[0].sum(), (q, k, v)))(%s.requires_grad_(), '
            '%s.requires_grad_(), %s.requires_grad_())' % (sdpa, fmask, q, k, v)]
    L, S, N, E = 3, 4, 2, 4
    qm, km, vm = _param((L, N, E), 1.1), _param((S, N, E), 1.9), _param((S, N, E), 2.7)
    w, b, ow, ob = _param((3 * E, E), 3.1), _param((3 * E,), 3.3), _param((E, E), 3.5), _param((E,), 3.7)
    mha = 'torch.nn.functional.multi_head_attention_forward(%s, %s, %s, %d, 2, %s, %s, {bk}, {bv}, {zero}, 0.0, %s, ' \
          '%s, training=False{extra})' % (qm, km, vm, E, w, b, ow, ob)
    pad = 'torch.tensor([[False, False, False, True], [False, True, False, False]])'
    am = 'torch.tensor([[False, True, False, False], [False, False, True, False], [True, False, False, False]])'
    bk, bv = _param((1, 1, E), 4.1), _param((1, 1, E), 4.3)
    for bias, zero in (('None', 'False'), (bk, 'True')):
        for extra in ('', ', key_padding_mask=%s' % pad, ', attn_mask=%s' % am,
                      ', attn_mask=%s, key_padding_mask=%s, average_attn_weights=False' % (_param((L, S), 5.1), pad),
                      ', attn_mask=%s, key_padding_mask=%s, need_weights=False' % (am, pad)):
            out.append(mha.format(bk=bias, bv=bias if bias == 'None' else bv, zero=zero, extra=extra))
    return out


CASES = _activations() + _softmax() + _pointwise_losses() + _nll_cross_entropy() + _other_losses() + _ctc() + \
    _rnn() + _attention()

# float32/bfloat16 results pass through transcendental functions, sums and matrix products whose
# last bits depend on the vector width and the order of the sums; a few units in the last place.
# Errors are measured against the largest magnitude of each result (ranged): near a zero of an
# activation or a gradient, a rounding difference of one input-sized unit is not a relative one.
SUITE = Suite('nn_pointwise', CASES, tolerance={'torch.float32': (2e-6, 1e-30), 'torch.bfloat16': (1.6e-2, 1e-38),
                                                'torch.float16': (2e-3, 1e-7)},
              ranged=lambda expr: True)
RECORDED, RUNNER, reference_request = SUITE.recorded, SUITE.runner, SUITE.reference_request
reports = SUITE.fixture()


@pytest.mark.parametrize('expr', SUITE.expressions)
def test_matches_reference(reports, expr):
    SUITE.check(reports, expr)
