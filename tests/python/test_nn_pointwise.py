"""torch.nn.functional's activations, softmax family, losses, recurrent layers and attention, checked
against values derived independently (closed forms in Python's math, brute force where the op is a
dynamic programme), with their dtypes, shapes, variants, errors and autograd nodes."""
import itertools
import math
import warnings

import pytest
import torch
import torch.nn.functional as F

XS = [-3.5, -1.25, -0.5, -0.1, 0.0, 0.3, 0.75, 2.0, 4.5]


def t(values, dtype=torch.float64):
    return torch.tensor(values, dtype=dtype)


def close(got, want, tol=1e-12):
    got = got.tolist() if isinstance(got, torch.Tensor) else got
    if isinstance(want, (list, tuple)):
        assert len(got) == len(want), (got, want)
        for g, w in zip(got, want):
            close(g, w, tol)
        return
    if isinstance(want, float) and math.isnan(want):
        assert math.isnan(got), (got, want)
    else:
        assert abs(got - want) <= tol * max(1.0, abs(want)), (got, want)


def sigmoid(x):
    return 1 / (1 + math.exp(-x))


def softplus(x, beta=1.0, threshold=20.0):
    return x if x * beta > threshold else math.log1p(math.exp(x * beta)) / beta


# ---- activations: closed forms ---------------------------------------------------------------------

ACTIVATIONS = [
    (F.relu, lambda x: max(x, 0.0)),
    (F.relu6, lambda x: min(max(x, 0.0), 6.0)),
    (F.leaky_relu, lambda x: x if x > 0 else 0.01 * x),
    (lambda x: F.leaky_relu(x, 0.2), lambda x: x if x > 0 else 0.2 * x),
    (F.elu, lambda x: x if x > 0 else math.expm1(x)),
    (lambda x: F.elu(x, alpha=0.7), lambda x: x if x > 0 else 0.7 * math.expm1(x)),
    (F.selu, lambda x: 1.0507009873554804934193349852946 * (x if x > 0 else 1.6732632423543772848170429916717 *
                                                             math.expm1(x))),
    (lambda x: F.celu(x, 0.5), lambda x: x if x > 0 else 0.5 * math.expm1(x / 0.5)),
    (F.gelu, lambda x: 0.5 * x * (1 + math.erf(x / math.sqrt(2)))),
    (lambda x: F.gelu(x, approximate='tanh'),
     lambda x: 0.5 * x * (1 + math.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))),
    (F.silu, lambda x: x * sigmoid(x)),
    (F.mish, lambda x: x * math.tanh(softplus(x))),
    (F.hardtanh, lambda x: min(max(x, -1.0), 1.0)),
    (lambda x: F.hardtanh(x, -0.5, 2.0), lambda x: min(max(x, -0.5), 2.0)),
    (F.hardswish, lambda x: x * min(max(x + 3, 0.0), 6.0) / 6),
    (F.hardsigmoid, lambda x: min(max(x + 3, 0.0), 6.0) / 6),
    (F.softplus, softplus),
    (lambda x: F.softplus(x, beta=2, threshold=3), lambda x: softplus(x, 2.0, 3.0)),
    (F.softsign, lambda x: x / (1 + abs(x))),
    (F.tanhshrink, lambda x: x - math.tanh(x)),
    (F.softshrink, lambda x: x - 0.5 if x > 0.5 else (x + 0.5 if x < -0.5 else 0.0)),
    (F.hardshrink, lambda x: 0.0 if -0.5 <= x <= 0.5 else x),
    (F.logsigmoid, lambda x: -math.log1p(math.exp(-x)) if x > 0 else x - math.log1p(math.exp(x))),
    (lambda x: F.threshold(x, 0.2, -7.0), lambda x: -7.0 if x <= 0.2 else x),
    (lambda x: F.rrelu(x), lambda x: x if x > 0 else x * (1 / 8 + 1 / 3) / 2),
    (lambda x: F.prelu(x, torch.tensor([0.3], dtype=x.dtype)), lambda x: x if x > 0 else 0.3 * x),
]


@pytest.mark.parametrize('fn, ref', ACTIVATIONS)
def test_activation_closed_forms(fn, ref):
    close(fn(t(XS)), [ref(x) for x in XS])


@pytest.mark.parametrize('fn, ref', ACTIVATIONS)
def test_activation_float32_bfloat16_noncontiguous_empty(fn, ref):
    grid = t([XS, [x / 2 for x in XS]], torch.float32).t()  # non-contiguous
    want = [[ref(float(v)) for v in row] for row in grid.tolist()]
    close(fn(grid), want, 2e-6)
    if fn is F.mish:  # PyTorch's mish kernel has no bfloat16
        with pytest.raises(RuntimeError, match="not implemented for 'BFloat16'"):
            fn(grid.to(torch.bfloat16))
    else:
        close(fn(grid.to(torch.bfloat16)).float(), [[ref(float(torch.tensor(v).bfloat16())) for v in row]
                                                    for row in grid.tolist()], 2e-2)
    empty = fn(torch.zeros(0, 3))
    assert empty.shape == (0, 3) and empty.dtype == torch.float32
    assert fn(t(0.75)).shape == ()


@pytest.mark.parametrize('dtype', [torch.float32, torch.float64])
def test_long_contiguous_runs_match_the_blocked_path(dtype):
    # contiguous operands reach the streaming ops (no block temporaries) as one run per thread,
    # strided ones block by block: both must give the same elements, backward and losses too
    n = 70001
    a = ((torch.arange(n, dtype=torch.float64) * 7919 % 2003 - 1000) / 250).to(dtype)
    b = ((torch.arange(n, dtype=torch.float64) * 104729 % 997 - 500) / 200).to(dtype)
    sa, sb = torch.zeros(2 * n, dtype=dtype), torch.zeros(2 * n, dtype=dtype)
    sa[::2], sb[::2] = a, b
    sa, sb = sa[::2], sb[::2]  # the same values, strided
    w = torch.tensor([0.3], dtype=dtype)
    cases = [lambda u, v: F.leaky_relu(u, 0.2), lambda u, v: F.hardsigmoid(u), lambda u, v: F.softshrink(u, 0.7),
             lambda u, v: F.hardshrink(u, 0.7), lambda u, v: F.prelu(u, w),
             lambda u, v: F.mse_loss(u, v, reduction='none'), lambda u, v: F.smooth_l1_loss(u, v, reduction='none'),
             lambda u, v: F.huber_loss(u, v, reduction='none', delta=0.5),
             lambda u, v: torch.ops.aten.leaky_relu_backward(v, u, 0.2, False),
             lambda u, v: torch.ops.aten.hardsigmoid_backward(v, u), lambda u, v: torch.ops.aten.hardswish_backward(v, u)]
    for f in cases:
        assert f(a, b).tolist() == f(sa, sb).tolist()
    if dtype == torch.float64:
        assert F.leaky_relu(a, 0.2).tolist() == [v if v > 0 else v * 0.2 for v in a.tolist()]
        assert F.mse_loss(a, b, reduction='none').tolist() == [(u - v) * (u - v) for u, v in zip(a.tolist(), b.tolist())]


def test_activations_keep_nan():
    nan = t([float('nan')])
    for fn, _ in ACTIVATIONS:
        if fn is F.softshrink:  # PyTorch's softshrink maps NaN to 0
            assert fn(nan).item() == 0
        else:
            assert math.isnan(fn(nan).item())


def test_inplace_forms_write_their_argument():
    for name, kw in [('relu', {}), ('relu6', {}), ('elu', {}), ('selu', {}), ('celu', {}), ('leaky_relu', {}),
                     ('hardtanh', {}), ('rrelu', {}), ('silu', {}), ('mish', {}), ('hardswish', {}),
                     ('hardsigmoid', {}), ('threshold', {'threshold': 0.1, 'value': 5.0})]:
        x = t(XS)
        want = getattr(F, name)(x.clone(), **kw)
        r = getattr(F, name)(x, inplace=True, **kw)
        assert r is x, name
        close(x, want.tolist())
    x = t(XS)
    assert torch._C._nn.gelu_(x) is x
    assert F.elu_(x) is x and F.leaky_relu_(x) is x and F.hardtanh_(x) is x and F.relu_(x) is x


def test_out_variants():
    out = torch.empty(len(XS), dtype=torch.float64)
    assert torch._C._nn.leaky_relu(t(XS), 0.1, out=out) is out
    close(out, [x if x > 0 else 0.1 * x for x in XS])
    assert torch.hardshrink(t(XS), 1.0, out=out) is out
    close(out, [0.0 if -1 <= x <= 1 else x for x in XS])
    out = torch.empty(0)
    torch._C._nn.softplus(torch.ones(2, 3), out=out)
    assert out.shape == (2, 3)


def test_integer_activations_and_dtype_errors():
    x = torch.tensor([-3, 0, 2, 9])
    assert F.relu6(x).tolist() == [0, 0, 2, 6] and F.relu6(x).dtype == torch.int64
    assert F.hardtanh(x).tolist() == [-1, 0, 1, 1]
    assert F.threshold(x, 1, 100).tolist() == [100, 100, 2, 9]
    assert F.threshold(torch.tensor([1, 2], dtype=torch.uint8), 1.5, 7).tolist() == [7, 2]
    with pytest.raises(RuntimeError, match='Bool inputs not supported for hardtanh'):
        F.hardtanh(torch.tensor([True]))
    with pytest.raises(RuntimeError, match='unsigned type with negative lower bound'):
        F.hardtanh(torch.tensor([1], dtype=torch.uint8))
    for fn in (F.gelu, F.elu, F.silu, F.leaky_relu, F.softplus, F.logsigmoid, F.hardswish):
        with pytest.raises(RuntimeError, match="not implemented for 'Long'"):
            fn(x)
        with pytest.raises(RuntimeError, match="not implemented for 'Half'"):
            fn(x.half())
    with pytest.raises(RuntimeError, match='approximate argument must be either none or tanh'):
        F.gelu(torch.ones(2), approximate='exact')


def test_prelu_channels_and_errors():
    x = t([[[-1.0, 2.0], [-3.0, 4.0], [-5.0, -6.0]]])  # [1, 3, 2]: channels along dim 1
    w = t([0.1, 0.2, 0.3])
    close(F.prelu(x, w), [[[-0.1, 2.0], [-0.6, 4.0], [-1.5, -1.8]]])
    with pytest.raises(RuntimeError, match='Mismatch of parameter numbers and input channel size'):
        F.prelu(x, t([0.1, 0.2]))
    with pytest.raises(RuntimeError, match='Found dtype Float but expected Double'):
        F.prelu(x, w.float())
    x.requires_grad_()
    w.requires_grad_()
    F.prelu(x, w).sum().backward()
    close(w.grad, [-1.0, -3.0, -11.0])
    close(x.grad, [[[0.1, 1.0], [0.2, 1.0], [0.3, 0.3]]])


def test_glu():
    x = t([[1.0, -2.0, 0.5, 3.0], [0.0, 1.0, -1.0, 2.0]])
    close(F.glu(x), [[1.0 * sigmoid(0.5), -2.0 * sigmoid(3.0)], [0.0, 1.0 * sigmoid(2.0)]])
    close(F.glu(x, 0), [[1.0 * sigmoid(0.0), -2.0 * sigmoid(1.0), 0.5 * sigmoid(-1.0), 3.0 * sigmoid(2.0)]])
    with pytest.raises(RuntimeError, match='Halving dimension must be even, but dimension 1 is size 3'):
        F.glu(torch.ones(2, 3))
    with pytest.raises(RuntimeError, match='glu does not support scalars'):
        F.glu(torch.tensor(1.0))


def test_rrelu_training_needs_random_numbers():
    with pytest.raises(NotImplementedError, match='random'):
        F.rrelu(torch.ones(3), training=True)


def test_activation_gradients_and_nodes():
    x = t([-1.5, -0.2, 0.4, 2.5]).requires_grad_()
    for fn, node, deriv in [
            (F.relu6, 'HardtanhBackward0', lambda v: 1.0 if 0 < v < 6 else 0.0),
            (F.leaky_relu, 'LeakyReluBackward0', lambda v: 1.0 if v > 0 else 0.01),
            (F.elu, 'EluBackward0', lambda v: 1.0 if v > 0 else math.exp(v)),
            (F.celu, 'CeluBackward0', lambda v: 1.0 if v > 0 else math.exp(v)),
            (F.selu, 'EluBackward0', None),
            (F.gelu, 'GeluBackward0', lambda v: 0.5 * (1 + math.erf(v / math.sqrt(2))) +
             v * math.exp(-v * v / 2) / math.sqrt(2 * math.pi)),
            (F.silu, 'SiluBackward0', lambda v: sigmoid(v) * (1 + v * (1 - sigmoid(v)))),
            (F.mish, 'MishBackward0', None), (F.hardswish, 'HardswishBackward0', None),
            (F.hardsigmoid, 'HardsigmoidBackward0', lambda v: float(torch.tensor(1 / 6)) if -3 < v < 3 else 0.0),
            (F.softplus, 'SoftplusBackward0', sigmoid),
            (F.softshrink, 'SoftshrinkBackward0', lambda v: 0.0 if -0.5 <= v <= 0.5 else 1.0),
            (F.hardshrink, 'HardshrinkBackward0', lambda v: 0.0 if -0.5 <= v <= 0.5 else 1.0),
            (F.logsigmoid, 'LogSigmoidBackward0', lambda v: 1 - sigmoid(v)),
            (lambda v: F.threshold(v, 0.0, 2.0), 'ThresholdBackward0', lambda v: 1.0 if v > 0 else 0.0),
            (F.rrelu, 'RreluWithNoiseBackward0', None), (F.glu, 'GluBackward0', None)]:
        y = fn(x)
        assert type(y.grad_fn).__name__ == node
        if deriv:
            g, = torch.autograd.grad(y.sum(), x)
            close(g, [deriv(v) for v in x.tolist()])


def test_meta_device():
    m = torch.empty(2, 3, device='meta')
    for fn in (F.gelu, F.silu, F.elu, F.hardtanh, F.logsigmoid, lambda v: F.softmax(v, 1),
               lambda v: F.log_softmax(v, 0), lambda v: F.glu(torch.empty(2, 4, device='meta'))):
        r = fn(m)
        assert r.device.type == 'meta'
    assert F.mse_loss(m, m).shape == () and F.mse_loss(m, m, reduction='none').shape == (2, 3)
    assert F.softmax(m, 1).shape == (2, 3)


# ---- softmax family --------------------------------------------------------------------------------

def softmax_rows(rows):
    out = []
    for row in rows:
        m = max(row)
        e = [math.exp(v - m) for v in row]
        s = sum(e)
        out.append([v / s for v in e])
    return out


def test_softmax_values_along_every_dim():
    rows = [[1.0, 2.0, 3.0, -1.0], [0.5, -0.5, 10.0, 0.0], [-3.0, 100.0, 99.0, 1.0]]
    x = t(rows)
    close(F.softmax(x, 1), softmax_rows(rows))
    close(F.log_softmax(x, -1), [[math.log(v) for v in r] for r in softmax_rows(rows)])
    cols = [list(c) for c in zip(*rows)]
    close(F.softmax(x, 0).t(), softmax_rows(cols))
    close(F.softmin(x, 1), softmax_rows([[-v for v in r] for r in rows]))
    x3 = torch.arange(24, dtype=torch.float64).reshape(2, 3, 4) / 5
    for d in range(3):
        s = F.softmax(x3, d)
        close(s.sum(d), torch.ones_like(s.sum(d)).tolist())
        close(F.log_softmax(x3, d), s.log().tolist())
    long_row = torch.arange(1000, dtype=torch.float32) / 100
    close(F.softmax(long_row, 0).sum().item(), 1.0, 1e-5)


def test_softmax_extremes_dtypes_and_errors():
    x = t([[float('-inf'), 0.0], [float('-inf'), float('-inf')], [float('nan'), 1.0]])
    r = F.softmax(x, 1).tolist()
    assert r[0] == [0.0, 1.0] and all(math.isnan(v) for v in r[1] + r[2])
    assert F.softmax(t(3.0), 0).item() == 1.0 and F.log_softmax(t(3.0), 0).item() == 0.0
    assert F.softmax(torch.zeros(0, 3), 1).shape == (0, 3)
    assert F.softmax(torch.ones(2, 3), 1, dtype=torch.float64).dtype == torch.float64
    close(F.softmax(torch.ones(2, 4, dtype=torch.bfloat16), 1).float(), [[0.25] * 4] * 2)
    assert torch.softmax(torch.ones(2, 3), 1).shape == torch.ones(2, 3).softmax(-1).shape
    with pytest.raises(RuntimeError, match="softmax_lastdim_kernel_impl\" not implemented for 'Long'"):
        F.softmax(torch.tensor([1, 2]), 0)
    with pytest.raises(IndexError, match='Dimension out of range'):
        F.softmax(torch.ones(2, 3), 2)
    with pytest.raises(RuntimeError, match='half to float conversion is not supported on CPU'):
        torch._softmax(torch.ones(2), 0, True) if hasattr(torch, '_softmax') else \
            torch.ops.aten._softmax(torch.ones(2), 0, True)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        assert F.softmax(torch.ones(2, 3)).shape == (2, 3)
    assert 'Implicit dimension choice for softmax' in str(w[0].message)
    out = torch.empty(2, 3).t()  # a strided out= tensor
    torch.softmax(torch.ones(3, 2), 1, out=out)
    close(out, [[0.5, 0.5]] * 3)


def test_softmax_gradients_and_nodes():
    x = t([[0.3, -1.0, 2.0]]).requires_grad_()
    y = F.softmax(x, 1)
    assert type(y.grad_fn).__name__ == 'SoftmaxBackward0'
    assert type(F.log_softmax(x, 1).grad_fn).__name__ == 'LogSoftmaxBackward0'
    g, = torch.autograd.grad(y[0, 2], x)
    s = softmax_rows([[0.3, -1.0, 2.0]])[0]
    close(g, [[-s[0] * s[2], -s[1] * s[2], s[2] * (1 - s[2])]])
    g, = torch.autograd.grad(F.log_softmax(x, 1)[0, 0], x)
    close(g, [[1 - s[0], -s[1], -s[2]]])


# ---- losses ----------------------------------------------------------------------------------------

X = [[0.2, -1.0, 3.0], [0.5, 0.25, -2.0]]
Y = [[0.0, 1.0, 2.5], [0.5, -0.75, 1.0]]


def reduce_(values, reduction):
    flat = [v for row in values for v in row] if values and isinstance(values[0], list) else values
    if reduction == 'none':
        return values
    s = sum(flat)
    return s / len(flat) if reduction == 'mean' else s


@pytest.mark.parametrize('reduction', ['none', 'mean', 'sum'])
def test_pointwise_losses(reduction):
    x, y = t(X), t(Y)
    d = [[a - b for a, b in zip(r, s)] for r, s in zip(X, Y)]
    close(F.mse_loss(x, y, reduction=reduction), reduce_([[v * v for v in r] for r in d], reduction))
    close(F.l1_loss(x, y, reduction=reduction), reduce_([[abs(v) for v in r] for r in d], reduction))

    def smooth(v, beta):
        return 0.5 * v * v / beta if abs(v) < beta else abs(v) - 0.5 * beta

    def huber(v, delta):
        return 0.5 * v * v if abs(v) < delta else delta * (abs(v) - 0.5 * delta)
    close(F.smooth_l1_loss(x, y, reduction=reduction, beta=0.8),
          reduce_([[smooth(v, 0.8) for v in r] for r in d], reduction))
    close(F.smooth_l1_loss(x, y, reduction=reduction, beta=0.0), reduce_([[abs(v) for v in r] for r in d], reduction))
    close(F.huber_loss(x, y, reduction=reduction, delta=1.5), reduce_([[huber(v, 1.5) for v in r] for r in d],
                                                                      reduction))
    p, q = t([[0.1, 0.5, 0.9], [0.3, 0.99, 0.01]]), t([[0.0, 1.0, 0.5], [1.0, 0.2, 0.0]])
    w = t([1.0, 2.0, 0.5])
    bce = [[-(b * math.log(a) + (1 - b) * math.log(1 - a)) * wv for a, b, wv in zip(r, s, w.tolist())]
           for r, s in zip(p.tolist(), q.tolist())]
    close(F.binary_cross_entropy(p, q, weight=w, reduction=reduction), reduce_(bce, reduction))
    pw = t([2.0, 0.5, 1.0])
    logits = [[-(pv * b * math.log(sigmoid(a)) + (1 - b) * math.log(1 - sigmoid(a))) * wv
               for a, b, wv, pv in zip(r, s, w.tolist(), pw.tolist())] for r, s in zip(X, q.tolist())]
    close(F.binary_cross_entropy_with_logits(x, q, weight=w, reduction=reduction, pos_weight=pw),
          reduce_(logits, reduction))


def test_loss_shapes_dtypes_and_messages():
    assert math.isnan(F.mse_loss(torch.zeros(0), torch.zeros(0)).item())
    assert F.mse_loss(torch.zeros(0), torch.zeros(0), reduction='sum').item() == 0
    assert F.mse_loss(torch.ones(3), torch.ones(3, dtype=torch.float64)).dtype == torch.float64
    assert F.mse_loss(torch.ones(2, 3, dtype=torch.float16), torch.zeros(2, 3, dtype=torch.float16)).item() == 1.0
    with pytest.raises(RuntimeError, match="not implemented for 'BFloat16'"):
        F.mse_loss(torch.ones(2, dtype=torch.bfloat16), torch.ones(2, dtype=torch.bfloat16))
    with pytest.warns(UserWarning, match='Using a target size'):
        r = F.mse_loss(torch.ones(2, 3), torch.zeros(3), reduction='none')
    assert r.shape == (2, 3)
    with pytest.raises(RuntimeError, match='must match the size of tensor b'), pytest.warns(UserWarning):
        F.l1_loss(torch.ones(2, 3), torch.ones(2))
    with pytest.raises(ValueError, match='is not a valid value for reduction'):
        F.mse_loss(torch.ones(2), torch.ones(2), reduction='avg')
    with pytest.raises(RuntimeError, match='reduction'):
        torch._C._nn.mse_loss(torch.ones(2), torch.ones(2), 5)
    with pytest.raises(RuntimeError, match='all elements of input should be between 0 and 1'):
        F.binary_cross_entropy(t([0.5, 1.5]), t([0.0, 1.0]))
    with pytest.raises(ValueError, match='Using a target size'):
        F.binary_cross_entropy(t([0.5, 0.5]), t([0.0]))
    with pytest.raises(ValueError, match='Target size'):
        F.binary_cross_entropy_with_logits(t([0.5, 0.5]), t([0.0]))
    with pytest.raises(RuntimeError, match="not implemented for 'Long'"):
        torch._C._nn.mse_loss(torch.tensor([1, 2]), torch.tensor([1, 2]))
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        F.mse_loss(torch.ones(2), torch.ones(2), size_average=False)
    assert "reduction='sum'" in str(w[0].message)
    x = t(X).t()  # strided
    close(F.mse_loss(x, t(Y).t(), reduction='sum'), sum((a - b) ** 2 for r, s in zip(X, Y) for a, b in zip(r, s)))


def test_loss_nodes_and_gradients():
    x, y = t(X).requires_grad_(), t(Y).requires_grad_()
    for fn, node in [(F.mse_loss, 'MseLossBackward0'), (F.smooth_l1_loss, 'SmoothL1LossBackward0'),
                     (F.huber_loss, 'HuberLossBackward0'), (F.l1_loss, 'MeanBackward0')]:
        assert type(fn(x, y).grad_fn).__name__ == node
    gx, gy = torch.autograd.grad(F.mse_loss(x, y, reduction='sum'), (x, y))
    close(gx, [[2 * (a - b) for a, b in zip(r, s)] for r, s in zip(X, Y)])
    close(gy, [[-2 * (a - b) for a, b in zip(r, s)] for r, s in zip(X, Y)])
    gx, = torch.autograd.grad(F.smooth_l1_loss(x, y, beta=0.8), x)
    close(gx, [[(max(-0.8, min(0.8, a - b)) / 0.8) / 6 for a, b in zip(r, s)] for r, s in zip(X, Y)])
    p = t([0.2, 0.7]).requires_grad_()
    q = t([0.0, 1.0])
    assert type(F.binary_cross_entropy(p, q).grad_fn).__name__ == 'BinaryCrossEntropyBackward0'
    g, = torch.autograd.grad(F.binary_cross_entropy(p, q, reduction='sum'), p)
    close(g, [1 / 0.8, -1 / 0.7])
    z = t([0.3, -1.2]).requires_grad_()
    assert type(F.binary_cross_entropy_with_logits(z, q).grad_fn).__name__ == 'BinaryCrossEntropyWithLogitsBackward0'
    g, = torch.autograd.grad(F.binary_cross_entropy_with_logits(z, q, reduction='sum'), z)
    close(g, [sigmoid(0.3) - 0.0, sigmoid(-1.2) - 1.0])


LOGP = [[-0.5, -1.5, -2.5], [-1.0, -0.25, -3.0], [-2.0, -2.0, -0.1], [-0.3, -0.9, -1.7]]


@pytest.mark.parametrize('reduction', ['none', 'mean', 'sum'])
def test_nll_loss_weights_and_ignore_index(reduction):
    x, target, w = t(LOGP), torch.tensor([0, 2, 1, 2]), t([1.0, 2.0, 0.5])
    pick = [-LOGP[i][c] for i, c in enumerate([0, 2, 1, 2])]
    close(F.nll_loss(x, target, reduction=reduction), pick if reduction == 'none' else reduce_(pick, reduction))
    wv = [1.0, 0.5, 2.0, 0.5]
    weighted = [p * q for p, q in zip(pick, wv)]
    want = weighted if reduction == 'none' else sum(weighted) / (sum(wv) if reduction == 'mean' else 1)
    close(F.nll_loss(x, target, weight=w, reduction=reduction), want)
    # ignore_index drops a sample from the sum and from the weight total
    kept = [weighted[0], weighted[1], weighted[3]]
    want = [weighted[0], weighted[1], 0.0, weighted[3]] if reduction == 'none' else \
        sum(kept) / ((1.0 + 0.5 + 0.5) if reduction == 'mean' else 1)
    close(F.nll_loss(x, target, weight=w, ignore_index=1, reduction=reduction), want)


def test_nll_loss_shapes_and_errors():
    x = t(LOGP)
    assert F.nll_loss(x[0], torch.tensor(2)).item() == 2.5
    assert math.isnan(F.nll_loss(torch.ones(4, 3), torch.full((4,), -100)).item())  # everything ignored
    x4 = t([[[[v, v / 2], [v * 2, -v]] for v in row] for row in LOGP])  # [4, 3, 2, 2]
    tg = torch.tensor([[[0, 1], [2, 0]]] * 4)
    r = F.nll_loss(x4, tg, reduction='none')
    assert r.shape == (4, 2, 2) and type(F.nll_loss(x4.requires_grad_(), tg).grad_fn).__name__ == 'NllLoss2DBackward0'
    close(r[1], [[-x4[1, 0, 0, 0].item(), -x4[1, 1, 0, 1].item()], [-x4[1, 2, 1, 0].item(), -x4[1, 0, 1, 1].item()]])
    x3 = x4.detach().reshape(4, 3, 4)  # an N-d input (dim 3) goes through nll_loss2d
    close(F.nll_loss(x3, tg.reshape(4, 4), reduction='sum'), F.nll_loss(x4, tg, reduction='sum').item())
    assert F.nll_loss(torch.zeros(2, 3, 2, 2, 2), torch.zeros(2, 2, 2, 2, dtype=torch.long),
                      reduction='none').shape == (2, 2, 2, 2)
    with pytest.raises(IndexError, match='Target 3 is out of bounds.'):
        F.nll_loss(x, torch.tensor([0, 3, 1, 2]))
    with pytest.raises(IndexError, match='Target -1 is out of bounds.'):
        F.nll_loss(x, torch.tensor([0, -1, 1, 2]), reduction='none')
    with pytest.raises(ValueError, match=r'Expected input batch_size \(4\) to match target batch_size \(3\)'):
        F.nll_loss(x, torch.tensor([0, 1, 1]))
    with pytest.raises(RuntimeError, match='weight tensor should be defined either for all 3 classes'):
        F.nll_loss(x, torch.tensor([0, 1, 1, 0]), weight=t([1.0, 2.0]))
    with pytest.raises(RuntimeError, match='expected scalar type Long but found Int'):
        F.nll_loss(x, torch.tensor([0, 1, 1, 0], dtype=torch.int32))
    with pytest.raises(ValueError, match=r'Expected 1 or more dimensions \(got 0\)'):
        F.nll_loss(t(1.0), torch.tensor(0))
    with pytest.raises(RuntimeError, match=r'Expected target size \[2, 4\], got \[2, 5\]'):
        F.nll_loss(torch.zeros(2, 3, 4), torch.zeros(2, 5, dtype=torch.long))


def test_nll_loss_gradient():
    x = t(LOGP).requires_grad_()
    loss = F.nll_loss(x, torch.tensor([0, 2, 1, 2]), weight=t([1.0, 2.0, 0.5]), ignore_index=1)
    assert type(loss.grad_fn).__name__ == 'NllLossBackward0'
    g, = torch.autograd.grad(loss, x)
    close(g, [[-1 / 2, 0, 0], [0, 0, -0.5 / 2], [0, 0, 0], [0, 0, -0.5 / 2]])


def test_cross_entropy():
    x = t([[1.0, 2.0, 0.5], [-1.0, 0.0, 3.0]])
    lsm = [[math.log(v) for v in r] for r in softmax_rows(x.tolist())]
    target = torch.tensor([1, 2])
    close(F.cross_entropy(x, target), -(lsm[0][1] + lsm[1][2]) / 2)
    assert type(F.cross_entropy(x.requires_grad_(), target).grad_fn).__name__ == 'NllLossBackward0'
    # label smoothing: (1 - s) nll + s * mean over classes of -log p
    s = 0.3
    per = [(1 - s) * -lsm[i][c] + s * sum(-v for v in lsm[i]) / 3 for i, c in enumerate([1, 2])]
    close(F.cross_entropy(x, target, label_smoothing=s), sum(per) / 2)
    close(F.cross_entropy(x, target, label_smoothing=s, reduction='none'), per)
    # ignore_index with smoothing: the ignored sample drops out of the sum and the count
    close(F.cross_entropy(x, target, label_smoothing=s, ignore_index=2), per[0])
    w = t([1.0, 2.0, 3.0])
    wper = [(1 - s) * -lsm[i][c] * w[c].item() for i, c in enumerate([1, 2])]
    smooth = [s * sum(-v * wv for v, wv in zip(lsm[i], w.tolist())) / 3 for i in range(2)]
    close(F.cross_entropy(x, target, weight=w, label_smoothing=s), (sum(wper) + sum(smooth)) / 5)
    # class probabilities
    probs = t([[0.2, 0.5, 0.3], [1.0, 0.0, 0.0]])
    want = [-sum(p * l for p, l in zip(pr, lr)) for pr, lr in zip(probs.tolist(), lsm)]
    close(F.cross_entropy(x, probs, reduction='none'), want)
    close(F.cross_entropy(x, probs), sum(want) / 2)
    close(F.cross_entropy(x, probs, weight=w, reduction='sum'),
          -sum(p * l * wv for pr, lr in zip(probs.tolist(), lsm) for p, l, wv in zip(pr, lr, w.tolist())))
    # one sample without a batch dim, and a spatial batch
    close(F.cross_entropy(x[0].detach(), torch.tensor(1)), -lsm[0][1])
    assert F.cross_entropy(torch.zeros(2, 3, 4, 5), torch.zeros(2, 4, 5, dtype=torch.long)).item() == \
        pytest.approx(math.log(3))
    with pytest.raises(RuntimeError, match='Expected floating point type for target with class probabilities'):
        F.cross_entropy(x, torch.zeros(2, 3, dtype=torch.long))
    with pytest.raises(RuntimeError, match='ignore_index is not supported for floating point target'):
        F.cross_entropy(x, probs, ignore_index=1)
    with pytest.raises(RuntimeError, match='label_smoothing must be between 0.0 and 1.0'):
        F.cross_entropy(x, target, label_smoothing=1.5)


def test_kl_div_and_embedding_losses():
    inp, tg = t([[-1.0, -0.5], [-2.0, -0.1]]), t([[0.25, 0.75], [0.0, 1.0]])
    pointwise = [[(b * math.log(b) if b > 0 else 0.0) - b * a for a, b in zip(r, s)]
                 for r, s in zip(inp.tolist(), tg.tolist())]
    close(F.kl_div(inp, tg, reduction='sum'), sum(map(sum, pointwise)))
    close(F.kl_div(inp, tg, reduction='batchmean'), sum(map(sum, pointwise)) / 2)
    soft = [[0.25, 0.75], [0.5, 0.5]]
    close(F.kl_div(inp, t(soft).log(), reduction='none', log_target=True),
          [[q * (math.log(q) - p) for p, q in zip(r, s)] for r, s in zip(inp.tolist(), soft)])
    with pytest.raises(RuntimeError, match='kl_div: Integral inputs not supported.'):
        F.kl_div(torch.tensor([1]), torch.tensor([1]), reduction='sum')
    a, b = t([0.5, -1.0, 2.0]), t([1.0, 0.0, 1.5])
    y = t([1.0, -1.0, -1.0])
    close(F.margin_ranking_loss(a, b, y, margin=0.2, reduction='none'),
          [max(0.0, -yv * (p - q) + 0.2) for p, q, yv in zip(a.tolist(), b.tolist(), y.tolist())])
    close(F.hinge_embedding_loss(a, y, margin=1.5, reduction='none'),
          [p if yv == 1 else max(0.0, 1.5 - p) for p, yv in zip(a.tolist(), y.tolist())])
    with pytest.raises(RuntimeError, match='All input tensors should have same dimension'):
        F.margin_ranking_loss(a, b, y.reshape(3, 1))
    x1, x2 = t([[1.0, 2.0], [0.5, -1.0]]), t([[2.0, 1.0], [1.0, 1.0]])

    def cos(u, v):
        return sum(p * q for p, q in zip(u, v)) / math.sqrt((sum(p * p for p in u) + 1e-12) *
                                                            (sum(q * q for q in v) + 1e-12))
    c = [cos(u, v) for u, v in zip(x1.tolist(), x2.tolist())]
    close(F.cosine_embedding_loss(x1, x2, torch.tensor([1, -1]), margin=-0.5, reduction='none'),
          [1 - c[0], max(0.0, c[1] + 0.5)])
    with pytest.raises(RuntimeError, match='1D target tensor expects 2D input tensors'):
        F.cosine_embedding_loss(x1[0], x2[0], torch.tensor([1]))

    def dist(u, v, p=2.0, eps=1e-6):
        return sum(abs(p_ - q + eps) ** p for p_, q in zip(u, v)) ** (1 / p)
    close(F.pairwise_distance(x1, x2), [dist(u, v) for u, v in zip(x1.tolist(), x2.tolist())])
    close(F.pairwise_distance(x1, x2, p=1.0), [dist(u, v, 1.0) for u, v in zip(x1.tolist(), x2.tolist())])
    close(F.pairwise_distance(x1, x2, p=float('inf')),
          [max(abs(p - q + 1e-6) for p, q in zip(u, v)) for u, v in zip(x1.tolist(), x2.tolist())])
    n = t([[0.0, 0.0], [3.0, 3.0]])
    want = [max(0.0, dist(a_, p_) - dist(a_, n_) + 1.0) for a_, p_, n_ in zip(x1.tolist(), x2.tolist(), n.tolist())]
    close(F.triplet_margin_loss(x1, x2, n, reduction='none'), want)
    with pytest.raises(RuntimeError, match='All inputs should have same dimension'):
        F.triplet_margin_loss(x1, x2, n[0])


def test_poisson_nll_loss():
    x, y = t([0.5, -1.0, 2.0]), t([1.0, 0.0, 3.0])
    close(F.poisson_nll_loss(x, y, reduction='none'), [math.exp(a) - b * a for a, b in zip(x.tolist(), y.tolist())])
    close(F.poisson_nll_loss(x.exp(), y, log_input=False, reduction='none'),
          [math.exp(a) - b * math.log(math.exp(a) + 1e-8) for a, b in zip(x.tolist(), y.tolist())])
    stirling = [b * math.log(b) - b + 0.5 * math.log(2 * math.pi * b) if b > 1 else 0.0 for b in y.tolist()]
    close(F.poisson_nll_loss(x, y, full=True, reduction='sum'),
          sum(math.exp(a) - b * a + s for a, b, s in zip(x.tolist(), y.tolist(), stirling)))
    with pytest.raises(ValueError, match='avg is not a valid value for reduction'):
        F.poisson_nll_loss(x, y, reduction='avg')


def ctc_brute_force(log_probs, target, blank=0):
    """-log of the sum over every alignment of the input that collapses to target."""
    T_, C = len(log_probs), len(log_probs[0])
    total = 0.0
    for path in itertools.product(range(C), repeat=T_):
        collapsed, prev = [], None
        for c in path:
            if c != prev and c != blank:
                collapsed.append(c)
            prev = c
        if collapsed == list(target):
            total += math.exp(sum(log_probs[t_][c] for t_, c in enumerate(path)))
    return -math.log(total) if total > 0 else float('inf')


def test_ctc_loss_against_brute_force():
    logits = t([[[0.2, -0.3, 1.1], [0.0, 0.5, -0.5]], [[1.0, 0.1, -0.2], [0.3, 0.3, 0.3]],
                [[-0.4, 0.9, 0.0], [1.2, -1.0, 0.2]], [[0.0, 0.0, 0.7], [-0.6, 0.4, 0.8]]])
    lp = logits.log_softmax(2)
    targets, in_len, tg_len = torch.tensor([[1, 2], [1, 1]]), [4, 3], [2, 2]
    want = [ctc_brute_force([lp[t_, b].tolist() for t_ in range(in_len[b])], targets[b, :tg_len[b]].tolist())
            for b in range(2)]
    close(F.ctc_loss(lp, targets, in_len, tg_len, reduction='none'), want, 1e-12)
    close(F.ctc_loss(lp, targets, in_len, tg_len), sum(w / L for w, L in zip(want, tg_len)) / 2, 1e-12)
    close(F.ctc_loss(lp, torch.tensor([1, 2, 1, 1]), torch.tensor(in_len), torch.tensor(tg_len), reduction='sum'),
          sum(want), 1e-12)
    # an impossible alignment is infinite, or zero with zero_infinity
    assert F.ctc_loss(lp, targets, [1, 3], tg_len, reduction='none')[0].item() == float('inf')
    assert F.ctc_loss(lp, targets, [1, 3], tg_len, reduction='none', zero_infinity=True)[0].item() == 0.0
    # the gradient of the logits, by central differences of the brute force
    x = logits.clone().requires_grad_()
    loss = F.ctc_loss(x.log_softmax(2), targets, in_len, tg_len, reduction='sum')
    assert type(loss.grad_fn).__name__ == 'SumBackward0'
    g, = torch.autograd.grad(loss, x)
    eps = 1e-6
    for (t_, b, c) in [(0, 0, 1), (2, 1, 0), (3, 0, 2), (1, 1, 2)]:
        def f(delta):
            y = logits.clone()
            y[t_, b, c] += delta
            q = y.log_softmax(2)
            return ctc_brute_force([q[s, b].tolist() for s in range(in_len[b])], targets[b, :tg_len[b]].tolist())
        close(g[t_, b, c].item(), (f(eps) - f(-eps)) / (2 * eps), 1e-6)
    with pytest.raises(RuntimeError, match='blank must be in label range'):
        F.ctc_loss(lp, targets, in_len, tg_len, blank=3)
    with pytest.raises(RuntimeError, match='Expected input_lengths to have value at most 4'):
        F.ctc_loss(lp, targets, [5, 3], tg_len)
    with pytest.raises(RuntimeError, match='input_lengths must be of size batch_size'):
        F.ctc_loss(lp, targets, [4], tg_len)
    with pytest.raises(RuntimeError, match='target labels must be in the range'):
        F.ctc_loss(lp, torch.tensor([[1, 7], [1, 1]]), in_len, tg_len)


# ---- recurrent layers ------------------------------------------------------------------------------

def det(*shape, seed=1.0, dtype=torch.float64):
    n = 1
    for s in shape:
        n *= s
    return torch.tensor([math.sin(seed * (i + 1) * 0.7) * 0.5 for i in range(n)], dtype=dtype).reshape(shape)


def matvec(w, v):
    return [sum(a * b for a, b in zip(row, v)) for row in w]


def lstm_step(x, h, c, w_ih, w_hh, b_ih, b_hh):
    H = len(h)
    g = [a + b + p + q for a, b, p, q in zip(matvec(w_ih, x), matvec(w_hh, h), b_ih, b_hh)]
    i, f = [sigmoid(v) for v in g[:H]], [sigmoid(v) for v in g[H:2 * H]]
    cc, o = [math.tanh(v) for v in g[2 * H:3 * H]], [sigmoid(v) for v in g[3 * H:]]
    c2 = [fv * cv + iv * gv for fv, cv, iv, gv in zip(f, c, i, cc)]
    return [ov * math.tanh(v) for ov, v in zip(o, c2)], c2


def gru_step(x, h, w_ih, w_hh, b_ih, b_hh):
    H = len(h)
    gi = [a + b for a, b in zip(matvec(w_ih, x), b_ih)]
    gh = [a + b for a, b in zip(matvec(w_hh, h), b_hh)]
    r = [sigmoid(a + b) for a, b in zip(gi[:H], gh[:H])]
    z = [sigmoid(a + b) for a, b in zip(gi[H:2 * H], gh[H:2 * H])]
    n = [math.tanh(a + rv * b) for a, b, rv in zip(gi[2 * H:], gh[2 * H:], r)]
    return [(1 - zv) * nv + zv * hv for zv, nv, hv in zip(z, n, h)]


def test_cells_closed_forms():
    B, I, H = 2, 3, 2
    x, h, c = det(B, I, seed=0.3), det(B, H, seed=0.5), det(B, H, seed=0.7)
    w_ih, w_hh, b_ih, b_hh = det(4 * H, I, seed=1.1), det(4 * H, H, seed=1.3), det(4 * H, seed=1.7), det(4 * H, seed=1.9)
    hy, cy = torch.lstm_cell(x, [h, c], w_ih, w_hh, b_ih, b_hh)
    for b in range(B):
        wh, wc = lstm_step(x[b].tolist(), h[b].tolist(), c[b].tolist(), w_ih.tolist(), w_hh.tolist(), b_ih.tolist(),
                           b_hh.tolist())
        close(hy[b], wh)
        close(cy[b], wc)
    g = torch.gru_cell(x, h, w_ih[:3 * H], w_hh[:3 * H], b_ih[:3 * H], b_hh[:3 * H])
    close(g[0], gru_step(x[0].tolist(), h[0].tolist(), w_ih[:3 * H].tolist(), w_hh[:3 * H].tolist(),
                         b_ih[:3 * H].tolist(), b_hh[:3 * H].tolist()))
    r = torch.rnn_tanh_cell(x, h, w_ih[:H], w_hh[:H])
    close(r[1], [math.tanh(a + b) for a, b in zip(matvec(w_ih[:H].tolist(), x[1].tolist()),
                                                   matvec(w_hh[:H].tolist(), h[1].tolist()))])
    r = torch.rnn_relu_cell(x, h, w_ih[:H], w_hh[:H], b_ih[:H], b_hh[:H])
    assert min(r.reshape(-1).tolist()) >= 0
    with pytest.raises(RuntimeError, match='lstm_cell expects two hidden states'):
        torch.lstm_cell(x, [h], w_ih, w_hh)
    with pytest.raises(RuntimeError, match='input has inconsistent input_size: got 3 expected 4'):
        torch.rnn_tanh_cell(x, h, det(H, 4), w_hh[:H])
    with pytest.raises(RuntimeError, match="Input batch size 2 doesn't match hidden batch size 1"):
        torch.gru_cell(x, h[:1], w_ih[:3 * H], w_hh[:3 * H])


@pytest.mark.parametrize('dtype', [torch.float64, torch.float32])
def test_lstm_sequence_against_the_recurrence(dtype):
    T_, B, I, H = 4, 2, 3, 2
    x = det(T_, B, I, seed=0.9, dtype=dtype)
    w = [det(4 * H, I, seed=1.1, dtype=dtype), det(4 * H, H, seed=1.3, dtype=dtype), det(4 * H, seed=1.7, dtype=dtype),
         det(4 * H, seed=1.9, dtype=dtype)]
    h0, c0 = det(2, B, H, seed=0.5, dtype=dtype), det(2, B, H, seed=0.6, dtype=dtype)
    out, hn, cn = torch.lstm(x, [h0, c0], w + w, True, 1, 0.0, False, True, False)
    assert out.shape == (T_, B, 2 * H) and hn.shape == (2, B, H) and out.dtype == dtype
    tol = 1e-12 if dtype == torch.float64 else 2e-6
    for b in range(B):
        for d, steps in ((0, range(T_)), (1, reversed(range(T_)))):
            h, c = h0[d, b].tolist(), c0[d, b].tolist()
            for s in steps:
                h, c = lstm_step(x[s, b].tolist(), h, c, *[p.tolist() for p in w])
                close(out[s, b, d * H:(d + 1) * H], h, tol)
            close(hn[d, b], h, tol)
            close(cn[d, b], c, tol)
    # batch_first is a transpose of the input and the output
    out_bf, _, _ = torch.lstm(x.transpose(0, 1), [h0, c0], w + w, True, 1, 0.0, False, True, True)
    close(out_bf.transpose(0, 1), out.tolist(), tol)


def test_rnn_layers_and_errors():
    T_, B, I, H, L = 3, 2, 2, 2, 2
    x = det(T_, B, I, seed=0.9)
    params = []
    for layer in range(L):
        params += [det(3 * H, I if layer == 0 else H, seed=1.1 + layer), det(3 * H, H, seed=1.3 + layer)]
    h0 = det(L, B, H, seed=0.5)
    out, hn = torch.gru(x, h0, params, False, L, 0.0, False, False, False)
    h1 = [h0[0, 0].tolist()]
    seq = []
    for s in range(T_):
        h1[0] = gru_step(x[s, 0].tolist(), h1[0], params[0].tolist(), params[1].tolist(), [0.0] * 6, [0.0] * 6)
        seq.append(h1[0])
    h2 = h0[1, 0].tolist()
    for s in range(T_):
        h2 = gru_step(seq[s], h2, params[2].tolist(), params[3].tolist(), [0.0] * 6, [0.0] * 6)
        close(out[s, 0], h2)
    close(hn[:, 0], [seq[-1], h2])
    with pytest.raises(RuntimeError, match='incorrect number of RNN parameters'):
        torch.gru(x, h0, params[:3], False, L, 0.0, False, False, False)
    with pytest.raises(RuntimeError, match='lstm expects two hidden states'):
        torch.lstm(x, [h0], params, False, L, 0.0, False, False, False)
    torch.manual_seed(0)  # dropout between layers in training mode: the outputs of two draws differ
    a, b = (torch.gru(x, h0, params, False, L, 0.5, True, False, False)[0] for _ in range(2))
    assert a.shape == (T_, B, H) and not torch.equal(a, b)
    assert torch.gru(x, h0, params, False, L, 0.5, False, False, False)[0].shape == (T_, B, H)  # eval: no dropout


def test_lstm_gradients_and_double_backward():
    T_, B, I, H = 3, 2, 2, 2
    x = det(T_, B, I, seed=0.3).requires_grad_()
    w = [det(4 * H, I, seed=1.1).requires_grad_(), det(4 * H, H, seed=1.3).requires_grad_(),
         det(4 * H, seed=1.7).requires_grad_(), det(4 * H, seed=1.9).requires_grad_()]
    h0, c0 = det(1, B, H, seed=0.5).requires_grad_(), det(1, B, H, seed=0.7).requires_grad_()
    out, hn, cn = torch.lstm(x, [h0, c0], w, True, 1, 0.0, True, False, False)
    loss = (out * out).sum() + hn.sum() + (cn * 2).sum()
    grads = torch.autograd.grad(loss, [x, h0, c0] + w, create_graph=True)

    # the same through the cells, step by step: the reference for both orders
    def by_cells(x, h0, c0, *w):
        h, c, outs = h0[0], c0[0], []
        for s in range(T_):
            h, c = torch.lstm_cell(x[s], [h, c], *w)
            outs.append((h * h).sum())
        return sum(outs) + h.sum() + (c * 2).sum()
    ref = torch.autograd.grad(by_cells(x, h0, c0, *w), [x, h0, c0] + w, create_graph=True)
    for g, r in zip(grads, ref):
        close(g.reshape(-1).tolist(), r.reshape(-1).tolist(), 1e-12)
    second = torch.autograd.grad(sum((g * g).sum() for g in grads), x)
    second_ref = torch.autograd.grad(sum((g * g).sum() for g in ref), x)
    close(second[0].reshape(-1).tolist(), second_ref[0].reshape(-1).tolist(), 1e-10)


# ---- attention -------------------------------------------------------------------------------------

def attention_ref(q, k, v, mask=None):
    E = len(q[0])
    out, weights = [], []
    for i, qi in enumerate(q):
        scores = [sum(a * b for a, b in zip(qi, kj)) / math.sqrt(E) + (mask[i][j] if mask else 0.0)
                  for j, kj in enumerate(k)]
        w = softmax_rows([scores])[0]
        weights.append(w)
        out.append([sum(w[j] * v[j][d] for j in range(len(v))) for d in range(len(v[0]))])
    return out, weights


def test_scaled_dot_product_attention():
    q, k, v = det(2, 3, 4, seed=0.9), det(2, 5, 4, seed=1.9), det(2, 5, 3, seed=2.9)
    out, w = F._scaled_dot_product_attention(q, k, v)
    for b in range(2):
        ro, rw = attention_ref(q[b].tolist(), k[b].tolist(), v[b].tolist())
        close(out[b], ro)
        close(w[b], rw)
    causal = [[0.0 if j <= i else float('-inf') for j in range(5)] for i in range(3)]
    out, _ = F._scaled_dot_product_attention(q, k, v, is_causal=True)
    close(out[1], attention_ref(q[1].tolist(), k[1].tolist(), v[1].tolist(), causal)[0])
    keep = torch.tensor([[True, False, True, True, False]] * 3)
    additive = [[0.0 if m else float('-inf') for m in row] for row in keep.tolist()]
    close(F.scaled_dot_product_attention(q, k, v, attn_mask=keep)[0],
          attention_ref(q[0].tolist(), k[0].tolist(), v[0].tolist(), additive)[0])
    fmask = det(3, 5, seed=4.4)
    close(F._scaled_dot_product_attention(q, k, v, attn_mask=fmask)[0][1],
          attention_ref(q[1].tolist(), k[1].tolist(), v[1].tolist(), fmask.tolist())[0])
    with pytest.raises(RuntimeError, match='Explicit attn_mask should not be set when is_causal=True'):
        F._scaled_dot_product_attention(q, k, v, attn_mask=fmask, is_causal=True)
    torch.manual_seed(0)  # dropout on the attention weights: two draws differ, p=0 draws nothing
    a, b = (F._scaled_dot_product_attention(q, k, v, dropout_p=0.5)[0] for _ in range(2))
    assert not torch.equal(a, b)
    assert torch.equal(F._scaled_dot_product_attention(q, k, v, dropout_p=0.0)[0],
                       F._scaled_dot_product_attention(q, k, v)[0])


def test_multi_head_attention_forward():
    L_, S, N, E, heads = 3, 4, 2, 4, 2
    q, k, v = det(L_, N, E, seed=0.3), det(S, N, E, seed=0.5), det(S, N, E, seed=0.7)
    w, b, ow, ob = det(3 * E, E, seed=1.1), det(3 * E, seed=1.3), det(E, E, seed=1.5), det(E, seed=1.7)
    pad = torch.tensor([[False, False, False, True], [False, True, False, False]])
    out, weights = F.multi_head_attention_forward(q, k, v, E, heads, w, b, None, None, False, 0.0, ow, ob,
                                                  training=False, key_padding_mask=pad)
    assert out.shape == (L_, N, E) and weights.shape == (N, L_, S)
    hd = E // heads
    for n in range(N):
        qp = [matvec(w[:E].tolist(), q[i, n].tolist()) for i in range(L_)]
        kp = [matvec(w[E:2 * E].tolist(), k[j, n].tolist()) for j in range(S)]
        vp = [matvec(w[2 * E:].tolist(), v[j, n].tolist()) for j in range(S)]
        qp = [[a + c for a, c in zip(r, b[:E].tolist())] for r in qp]
        kp = [[a + c for a, c in zip(r, b[E:2 * E].tolist())] for r in kp]
        vp = [[a + c for a, c in zip(r, b[2 * E:].tolist())] for r in vp]
        mask = [[float('-inf') if pad[n, j] else 0.0 for j in range(S)] for _ in range(L_)]
        concat = [[] for _ in range(L_)]
        mean_w = [[0.0] * S for _ in range(L_)]
        for h in range(heads):
            o, wt = attention_ref([r[h * hd:(h + 1) * hd] for r in qp], [r[h * hd:(h + 1) * hd] for r in kp],
                                  [r[h * hd:(h + 1) * hd] for r in vp], mask)
            for i in range(L_):
                concat[i] += o[i]
                mean_w[i] = [a + c / heads for a, c in zip(mean_w[i], wt[i])]
        for i in range(L_):
            close(out[i, n], [a + c for a, c in zip(matvec(ow.tolist(), concat[i]), ob.tolist())])
        close(weights[n], mean_w)
    out2, w2 = F.multi_head_attention_forward(q[:, 0], k[:, 0], v[:, 0], E, heads, w, b, None, None, False, 0.0, ow,
                                              ob, training=False, need_weights=False)
    assert out2.shape == (L_, E) and w2 is None
    with pytest.raises(AssertionError, match='not divisible by num_heads'):
        F.multi_head_attention_forward(q, k, v, E, 3, w, b, None, None, False, 0.0, ow, ob)


def test_softmax_out_writes_into_out():
    x = torch.randn(37, 53)
    out = torch.empty(37, 53)
    assert torch.softmax(x, 1, out=out) is out and torch.equal(out, torch.softmax(x, 1))
    o64 = torch.empty(0, dtype=torch.float64)
    assert torch.log_softmax(x, 0, dtype=torch.float64, out=o64) is o64
    assert o64.shape == (37, 53) and torch.equal(o64, torch.log_softmax(x.double(), 0))
    with pytest.raises(RuntimeError, match='Expected out tensor to have dtype float, but got long int instead'):
        torch.softmax(x, 1, out=torch.empty(37, 53, dtype=torch.int64))
    # the row maximum propagates NaN from any lane, and a row of 16+ elements takes the vector path
    y = torch.zeros(3, 40)
    y[1, 17] = float('nan')
    r = torch.softmax(y, 1)
    assert r[1].isnan().all() and not r[0].isnan().any() and torch.allclose(r[0].sum(), torch.tensor(1.))
