"""gradcheck and gradgradcheck over every differentiable op of the op table.

The ops come from the table itself (torch._C._op_autograd): an op added with float outputs but
without a derivative formula, or with a formula but no way to sample its arguments here, fails this
suite. Ops whose arguments are all tensors (or have defaults) are sampled automatically; the others
have their arguments in SAMPLES.
"""
import random

import pytest
import torch
from torch.autograd import gradcheck, gradgradcheck

_rng = random.Random(1234)


def T(*shape, low=0.5, high=1.5, requires_grad=True, dtype=torch.float64):
    """A float64 tensor of distinct pseudo-random values in [low, high] (away from 0 when the range
    spans it, so that kinks such as abs's are not sampled)."""
    n = 1
    for s in shape:
        n *= s
    values = []
    while len(values) < n:
        v = _rng.uniform(low, high)
        if low < 0 < high and abs(v) < 0.2:
            continue
        values.append(v)
    t = torch.tensor(values, dtype=dtype).reshape(shape)
    return t.requires_grad_(requires_grad)


def L(values):
    return torch.tensor(values, dtype=torch.int64)


def mixed(*shape):
    return T(*shape, low=-1.5, high=1.5)


# qualified op name -> a function giving [(args, kwargs), ...]
SAMPLES = {
    'remainder.Tensor': lambda: [((T(2, 3, low=2.2, high=2.8), T(2, 3, low=0.95, high=1.05)), {})],
    'abs': lambda: [((mixed(2, 3),), {})],
    'relu': lambda: [((mixed(2, 3),), {})],
    'neg': lambda: [((mixed(2, 3),), {})],
    'sin': lambda: [((mixed(2, 3),), {})],
    'cos': lambda: [((mixed(2, 3),), {})],
    'tanh': lambda: [((mixed(2, 3),), {})],
    'sigmoid': lambda: [((mixed(2, 3),), {})],
    'exp': lambda: [((mixed(2, 3),), {})],
    'add.Tensor': lambda: [((T(2, 3), T(3)), {}), ((T(2, 3), T(2, 3)), {'alpha': 2.5})],
    'sub.Tensor': lambda: [((T(2, 3), T(1, 3)), {}), ((T(2, 3), T(2, 3)), {'alpha': -0.5})],
    'mul.Tensor': lambda: [((T(2, 3), T(3)), {}), ((T(2, 3), T(2, 3)), {})],
    'div.Tensor': lambda: [((T(2, 3), T(2, 1)), {})],
    'sum.dim_IntList': lambda: [((T(2, 3), [1]), {}), ((T(2, 3), [0, 1], True), {}), ((T(2, 3, 4), [-1, 0]), {})],
    'sum': lambda: [((T(2, 3),), {}), ((T(),), {})],
    'mean': lambda: [((T(2, 3),), {})],
    'mean.dim': lambda: [((T(2, 3), [1]), {}), ((T(2, 3, 2), [0, 2], True), {})],
    'max.dim': lambda: [((T(2, 3), 1), {}), ((T(2, 3), 0, True), {})],
    'min.dim': lambda: [((T(2, 3), 1), {}), ((T(2, 3), 0, True), {})],
    'mm': lambda: [((T(2, 3), T(3, 4)), {})],
    'bmm': lambda: [((T(2, 2, 3), T(2, 3, 4)), {})],
    'matmul': lambda: [((T(3), T(3)), {}), ((T(2, 3), T(3)), {}), ((T(3), T(3, 2)), {}), ((T(2, 3), T(3, 2)), {}),
                       ((T(2, 2, 3), T(3, 2)), {}), ((T(2, 2, 3), T(2, 3, 2)), {})],
    'copy_': lambda: [((T(2, 3), T(3)), {})],
    'fill_.Scalar': lambda: [((T(2, 3), 2.5), {})],
    'to.dtype': lambda: [((T(2, 3), torch.float64), {})],
    'to.dtype_layout': lambda: [((T(2, 3),), {'dtype': torch.float64})],
    'to.device': lambda: [((T(2, 3), 'cpu'), {})],
    'to.other': lambda: [((T(2, 3), T(1, requires_grad=False)), {})],
    'view': lambda: [((T(2, 3), [3, 2]), {}), ((T(2, 3), [-1]), {})],
    'reshape': lambda: [((T(2, 3), [6]), {}), ((T(2, 3).t(), [6]), {})],
    'transpose.int': lambda: [((T(2, 3), 0, 1), {})],
    'permute': lambda: [((T(2, 3, 4), [2, 0, 1]), {})],
    'squeeze': lambda: [((T(2, 1, 3),), {})],
    'squeeze.dim': lambda: [((T(2, 1, 3), 1), {})],
    'unsqueeze': lambda: [((T(2, 3), 1), {})],
    'expand': lambda: [((T(3, 1), [2, 3, 4]), {})],
    'flatten.using_ints': lambda: [((T(2, 3, 4), 1, 2), {})],
    'select.int': lambda: [((T(3, 4), 1, 2), {}), ((T(3, 4), 0, -1), {})],
    'slice.Tensor': lambda: [((T(5, 4), 0, 1, 4, 2), {}), ((T(5, 4), 1), {'start': 1})],
    'as_strided': lambda: [((T(3, 3), [2, 2], [1, 2], 1), {}), ((T(4), [2, 3], [1, 0]), {})],
    'view_as': lambda: [((T(2, 3), T(3, 2, requires_grad=False)), {})],
    'expand_as': lambda: [((T(1, 3), T(2, 3, requires_grad=False)), {})],
    'reshape_as': lambda: [((T(2, 3), T(6, requires_grad=False)), {})],
    'sum_to_size': lambda: [((T(2, 3), [1, 3]), {}), ((T(2, 3), [3]), {})],
    '_sum_backward': lambda: [((T(3), [2, 3], [0], False), {}), ((T(1, 3), [2, 3], [0], True), {}),
                              ((T(), [2, 3], None, False), {})],
    'select_backward': lambda: [((T(4), [3, 4], 0, 1), {})],
    'slice_backward': lambda: [((T(2, 4), [5, 4], 0, 1, 4, 2), {})],
    'value_selecting_reduction_backward': lambda: [((T(2), 1, L([0, 2]), [2, 3], False), {}),
                                                   ((T(2, 1), 1, L([[1], [0]]), [2, 3], True), {})],
    '_as_strided_backward': lambda: [((T(2, 2), [3, 3], [3, 1], 0, [2, 2], [1, 2], 1), {}),
                                     ((T(2, 3), [4], [1], 0, [2, 3], [1, 0], 0), {})],
}

# ---- nn: activations, softmax family, losses, recurrent layers, attention ----


def F(*shape):  # a constant (no gradient) float64 tensor
    return T(*shape, requires_grad=False)


def P(*shape):  # probabilities away from 0 and 1
    return T(*shape, low=0.1, high=0.9)


def _rnn_params(mode, I, H, layers=1, dirs=1):
    g = {'lstm': 4, 'gru': 3}.get(mode, 1) * H
    params = []
    for l in range(layers):
        for _ in range(dirs):
            params += [mixed(g, I if l == 0 else H * dirs), mixed(g, H), mixed(g), mixed(g)]
    return params


def _lstm_layer_backward_sample():
    T_, B, I, H = 2, 1, 2, 2
    x, h, c, w_ih, w_hh, b_ih, b_hh = mixed(T_, B, I), mixed(B, H), mixed(B, H), mixed(4 * H, I), mixed(4 * H, H), \
        mixed(4 * H), mixed(4 * H)
    with torch.no_grad():
        out, _, _, ws = torch.ops.aten._lstm_layer(x, h, c, w_ih, w_hh, b_ih, b_hh, False)
    return [((T(T_, B, H), T(B, H), T(B, H), x, h, c, w_ih, w_hh, b_ih, b_hh, out, ws, False, [True] * 7), {})]


SAMPLES.update({
    'threshold': lambda: [((mixed(2, 3), 0.1, 2.0), {})],
    'threshold_backward': lambda: [((T(2, 3), mixed(2, 3), 0.1), {})],
    'hardtanh': lambda: [((mixed(2, 3),), {}), ((mixed(2, 3), -0.7, 0.9), {})],
    'hardtanh_backward': lambda: [((T(2, 3), mixed(2, 3), -0.7, 0.9), {})],
    'relu6': lambda: [((mixed(2, 3),), {})],
    'leaky_relu': lambda: [((mixed(2, 3), 0.2), {})],
    'leaky_relu_backward': lambda: [((T(2, 3), mixed(2, 3), 0.2, False), {})],
    'rrelu': lambda: [((mixed(2, 3),), {})],
    'rrelu_with_noise': lambda: [((mixed(2, 3), F(2, 3)), {})],
    'rrelu_with_noise_backward': lambda: [((T(2, 3), mixed(2, 3), F(2, 3), 0.1, 0.3, False, False), {})],
    'prelu': lambda: [((mixed(2, 3, 2), T(3)), {}), ((mixed(4), T(1)), {})],
    'prelu_backward': lambda: [((T(2, 3, 2), mixed(2, 3, 2), T(3)), {})],
    'elu': lambda: [((mixed(2, 3),), {}), ((mixed(2, 3), 0.5, 1.5, 2.0), {})],
    'elu_backward': lambda: [((T(2, 3), 0.5, 1.5, 2.0, False, mixed(2, 3)), {}),
                             ((T(2, 3), 0.5, 1.5, 2.0, True, mixed(2, 3)), {})],
    'selu': lambda: [((mixed(2, 3),), {})],
    'celu': lambda: [((mixed(2, 3), 0.8), {})],
    'gelu': lambda: [((mixed(2, 3),), {}), ((mixed(2, 3),), {'approximate': 'tanh'})],
    'gelu_backward': lambda: [((T(2, 3), mixed(2, 3)), {}), ((T(2, 3), mixed(2, 3)), {'approximate': 'tanh'})],
    '_gelu_second_derivative': lambda: [((mixed(2, 3),), {}), ((mixed(2, 3), 'tanh'), {})],
    'silu': lambda: [((mixed(2, 3),), {})],
    'silu_backward': lambda: [((T(2, 3), mixed(2, 3)), {})],
    'mish': lambda: [((mixed(2, 3),), {})],
    'mish_backward': lambda: [((T(2, 3), mixed(2, 3)), {})],
    'hardswish': lambda: [((mixed(2, 3),), {})],
    'hardswish_backward': lambda: [((T(2, 3), mixed(2, 3)), {})],
    'hardsigmoid': lambda: [((mixed(2, 3),), {})],
    'hardsigmoid_backward': lambda: [((T(2, 3), mixed(2, 3)), {})],
    'softplus': lambda: [((mixed(2, 3), 2.0), {})],
    'softplus_backward': lambda: [((T(2, 3), mixed(2, 3), 2.0, 20), {})],
    'softshrink': lambda: [((mixed(2, 3), 0.1), {})],
    'softshrink_backward': lambda: [((T(2, 3), mixed(2, 3), 0.1), {})],
    'hardshrink': lambda: [((mixed(2, 3), 0.1), {})],
    'hardshrink_backward': lambda: [((T(2, 3), mixed(2, 3), 0.1), {})],
    'log_sigmoid': lambda: [((mixed(2, 3),), {})],
    'log_sigmoid_forward': lambda: [((mixed(2, 3),), {})],
    'log_sigmoid_backward': lambda: [((T(2, 3), mixed(2, 3), F(2, 3)), {})],
    'glu': lambda: [((mixed(2, 4), 1), {}), ((mixed(4),), {})],
    'glu_backward': lambda: [((T(2, 2), mixed(2, 4), 1), {})],
    '_glu_double_backward': lambda: [((T(2, 4), T(2, 2), mixed(2, 4), -1), {})],
    '_softmax': lambda: [((mixed(2, 3), 1, False), {}), ((mixed(2, 3), 0, False), {})],
    '_log_softmax': lambda: [((mixed(2, 3), 1, False), {}), ((mixed(2, 3), 0, False), {})],
    '_softmax_backward_data': lambda: [((T(2, 3), P(2, 3), 1, torch.float64), {})],
    '_log_softmax_backward_data': lambda: [((T(2, 3), mixed(2, 3), 0, torch.float64), {})],
    'softmax.int': lambda: [((mixed(2, 3), 1), {})],
    'log_softmax.int': lambda: [((mixed(2, 3), -1), {})],
    'mse_loss': lambda: [((T(2, 3), T(2, 3)), {}), ((T(2, 3), T(2, 3), 0), {}), ((T(2, 3), T(2, 3), 2), {})],
    'mse_loss_backward': lambda: [((T(), T(2, 3), T(2, 3), 1), {}), ((T(2, 3), T(2, 3), T(2, 3), 0), {}),
                                  ((T(), T(2, 3), T(2, 3), 2), {})],
    'l1_loss': lambda: [((T(2, 3), T(2, 3)), {}), ((T(2, 3), T(2, 3), 0), {})],
    'smooth_l1_loss': lambda: [((T(2, 3), T(2, 3), 1, 0.3), {}), ((T(2, 3), T(2, 3), 0, 0.3), {})],
    'smooth_l1_loss_backward': lambda: [((T(), T(2, 3), T(2, 3), 1, 0.3), {}),
                                        ((T(2, 3), T(2, 3), T(2, 3), 0, 0.3), {})],
    'huber_loss': lambda: [((T(2, 3), T(2, 3), 1, 0.3), {}), ((T(2, 3), T(2, 3), 2, 0.3), {})],
    'huber_loss_backward': lambda: [((T(), T(2, 3), T(2, 3), 1, 0.3), {}), ((T(2, 3), T(2, 3), T(2, 3), 0, 0.3), {})],
    'binary_cross_entropy': lambda: [((P(2, 3), P(2, 3)), {}), ((P(2, 3), P(2, 3), F(3), 2), {})],
    'binary_cross_entropy_backward': lambda: [((T(), P(2, 3), P(2, 3), F(3), 1), {})],
    '_binary_cross_entropy_target_backward': lambda: [((T(), P(2, 3), P(2, 3), F(3), 1), {})],
    'binary_cross_entropy_with_logits': lambda: [((mixed(2, 3), P(2, 3)), {}),
                                                 ((mixed(2, 3), P(2, 3), F(3), F(3), 0), {})],
    'binary_cross_entropy_with_logits_backward': lambda: [((T(), mixed(2, 3), P(2, 3), F(3), F(3), 1), {})],
    '_binary_cross_entropy_with_logits_target_backward': lambda: [((T(), mixed(2, 3), P(2, 3), F(3), F(3), 1), {})],
    'nll_loss': lambda: [((mixed(2, 3), L([0, 2])), {}), ((mixed(2, 3), L([0, 2]), F(3), 0, 2), {})],
    'nll_loss_nd': lambda: [((mixed(2, 3, 2), L([[0, 2], [1, 1]])), {})],
    'nll_loss_forward': lambda: [((mixed(2, 3), L([0, 2]), None, 1, -100), {})],
    'nll_loss_backward': lambda: [((T(), mixed(2, 3), L([0, 2]), None, 1, -100,
                                    torch.tensor(2., dtype=torch.float64)), {})],
    'nll_loss2d': lambda: [((mixed(2, 3, 2, 1), L([[[0], [2]], [[1], [1]]])), {})],
    'nll_loss2d_forward': lambda: [((mixed(2, 3, 2, 1), L([[[0], [2]], [[1], [1]]]), None, 2, -100), {})],
    'nll_loss2d_backward': lambda: [((T(), mixed(2, 3, 2, 1), L([[[0], [2]], [[1], [1]]]), None, 2, -100, F()), {})],
    'cross_entropy_loss': lambda: [((mixed(2, 3), L([0, 2])), {}), ((mixed(2, 3), L([0, 2]), F(3), 1, 2, 0.2), {}),
                                   ((mixed(2, 3), P(2, 3)), {})],
    'kl_div': lambda: [((mixed(2, 3), P(2, 3)), {}), ((mixed(2, 3), mixed(2, 3), 2), {'log_target': True})],
    'margin_ranking_loss': lambda: [((T(3), T(3), torch.tensor([1., -1., 1.], dtype=torch.float64)), {})],
    'hinge_embedding_loss': lambda: [((T(2, 3), torch.tensor([[1., -1., 1.], [-1., 1., 1.]], dtype=torch.float64)),
                                      {})],
    'cosine_embedding_loss': lambda: [((mixed(2, 3), mixed(2, 3), L([1, -1])), {})],
    'pairwise_distance': lambda: [((T(2, 3), T(2, 3)), {}), ((T(2, 3), T(2, 3), 1.5), {})],
    'triplet_margin_loss': lambda: [((mixed(2, 3), mixed(2, 3), mixed(2, 3), 1.0, 2.0, 1e-6, True), {})],
    'poisson_nll_loss': lambda: [((T(2, 3), T(2, 3, low=1.5, high=3.0), True, True, 1e-8, 1), {}),
                                 ((T(2, 3), T(2, 3), False, False, 1e-8, 0), {})],
    'ctc_loss.IntList': lambda: [((mixed(4, 2, 3), L([[1, 2], [1, 1]]), [4, 3], [2, 1]), {})],
    'ctc_loss.Tensor': lambda: [((mixed(4, 2, 3), L([1, 2, 1]), L([4, 3]), L([2, 1])), {})],
    '_ctc_loss': lambda: [((mixed(4, 2, 3), L([[1, 2], [1, 1]]), [4, 3], [2, 1]), {})],
    '_ctc_loss.Tensor': lambda: [((mixed(4, 2, 3), L([1, 2, 1]), L([4, 3]), L([2, 1])), {})],
    'rnn_tanh_cell': lambda: [((mixed(2, 3), mixed(2, 4), mixed(4, 3), mixed(4, 4), mixed(4), mixed(4)), {})],
    'rnn_relu_cell': lambda: [((mixed(2, 3), mixed(2, 4), mixed(4, 3), mixed(4, 4)), {})],
    'lstm_cell': lambda: [((mixed(2, 3), [mixed(2, 2), mixed(2, 2)], mixed(8, 3), mixed(8, 2), mixed(8), mixed(8)),
                           {})],
    'gru_cell': lambda: [((mixed(2, 3), mixed(2, 2), mixed(6, 3), mixed(6, 2), mixed(6), mixed(6)), {})],
    'lstm.input': lambda: [((mixed(3, 2, 2), [mixed(2, 2, 2), mixed(2, 2, 2)], _rnn_params('lstm', 2, 2, dirs=2),
                             True, 1, 0.0, False, True, False), {})],
    'gru.input': lambda: [((mixed(2, 3, 2), mixed(1, 2, 2), _rnn_params('gru', 2, 2), True, 1, 0.0, False, False,
                            True), {})],
    'rnn_tanh.input': lambda: [((mixed(3, 2, 2), mixed(2, 2, 2), _rnn_params('tanh', 2, 2, layers=2), True, 2, 0.0,
                                 False, False, False), {})],
    'rnn_relu.input': lambda: [((mixed(3, 2, 2), mixed(1, 2, 2), _rnn_params('relu', 2, 2), True, 1, 0.0, False,
                                 False, False), {})],
    '_lstm_layer': lambda: [((mixed(3, 2, 2), mixed(2, 2), mixed(2, 2), mixed(8, 2), mixed(8, 2), mixed(8), mixed(8),
                              False), {}),
                            ((mixed(3, 2, 2), mixed(2, 2), mixed(2, 2), mixed(8, 2), mixed(8, 2), None, None, True),
                             {})],
    '_lstm_layer_backward': _lstm_layer_backward_sample,
    '_scaled_dot_product_attention': lambda: [((T(2, 3, 4), T(2, 5, 4), T(2, 5, 3)), {}),
                                              ((T(2, 3, 4), T(2, 5, 4), T(2, 5, 3), F(3, 5)), {}),
                                              ((T(2, 3, 4), T(2, 5, 4), T(2, 5, 3)), {'is_causal': True})],
})

# Ops whose second derivative PyTorch does not implement either (and so no forward-mode check,
# which runs on it): CTC's backward is a kernel of its own.
FIRST_ORDER_ONLY = {'ctc_loss.IntList', 'ctc_loss.Tensor', '_ctc_loss', '_ctc_loss.Tensor'}
# CTC's backward, as PyTorch's, is the gradient of the logits the log-probabilities came from (it
# folds log_softmax's backward in), so these are checked as op(log_softmax(x), ...).
THROUGH_LOG_SOFTMAX = FIRST_ORDER_ONLY

# Differentiable in PyTorch's sense but declared without a derivative (PyTorch raises too).
NOT_IMPLEMENTED = {'floor_divide'}


def op_table():
    ops = []
    for i in range(torch._C._op_count()):
        info = torch._C._schema_info(i)
        kind, node, formula_args = torch._C._op_autograd(i)
        name = info['name'] + ('.' + info['overload'] if info['overload'] else '')
        ops.append((i, name, info, kind, node, formula_args))
    return ops


OPS = op_table()
TENSOR, SCALAR = 1, 2  # tc_value tags (tc_abi.h)
FACTORY = 32  # TC_OPF_FACTORY


def is_out_variant(info):
    return any(a[2] & 2 and a[2] & 4 for a in info['args'])  # keyword-only and written


def auto_samples(info):
    args = []
    for (name, tag, flags, fixed, default) in info['args']:
        if flags & 16 or flags & 1:  # has a default, or optional
            break
        if tag != TENSOR:
            return None
        args.append(T(2, 3))
    return [(tuple(args), {})]


def overload_fn(name, info):
    base, _, overload = name.partition('.')
    packet = getattr(torch.ops.aten, base)
    fn = getattr(packet, overload or 'default')
    if info['name'].endswith('_') and info['args'] and info['args'][0][2] & 4:
        # an in-place op: write into a copy, so that the leaf itself is not written
        return lambda self, *rest, **kw: fn(self.clone(), *rest, **kw)
    return fn


def cases():
    for (i, name, info, kind, node, formula_args) in OPS:
        if is_out_variant(info) or kind == 'none':
            continue
        if name.split('.')[0].rstrip('_') in NOT_IMPLEMENTED:
            continue
        if info['flags'] & FACTORY or not any(a[1] == TENSOR for a in info['args']):
            continue  # creation ops: nothing flows back to their arguments
        if kind == 'formula' and not formula_args:
            continue  # declared without differentiable results (detach)
        functional = not info['name'].endswith('_') or name in SAMPLES
        if not functional:
            # an in-place variant: sampled like its functional op
            fname = info['name'][:-1] + ('.' + info['overload'] if info['overload'] else '')
            if fname not in SAMPLES and auto_samples(info) is None:
                continue
            yield pytest.param(name, fname, id=name)
        else:
            yield pytest.param(name, name, id=name)


def samples_for(name, sample_name, info):
    if sample_name in SAMPLES:
        return SAMPLES[sample_name]()
    s = auto_samples(info)
    if s is None:
        pytest.fail('%s has no gradcheck samples: add its arguments to SAMPLES in %s' % (name, __file__))
    return s


def requiring(args):
    return [a for a in args if isinstance(a, torch.Tensor) and a.requires_grad]


@pytest.mark.parametrize('name, sample_name', list(cases()))
def test_gradients(name, sample_name):
    i, _, info, kind, node, formula_args = next(o for o in OPS if o[1] == name)
    fn = overload_fn(name, info)
    if name in THROUGH_LOG_SOFTMAX:
        fn = (lambda f: lambda x, *rest, **kw: f(x.log_softmax(-1), *rest, **kw))(fn)
    for args, kwargs in samples_for(name, sample_name, info):
        out = fn(*args, **kwargs)
        outs = out if isinstance(out, tuple) else (out,)
        float_outs = [o for o in outs if isinstance(o, torch.Tensor) and o.dtype.is_floating_point]
        if not float_outs:
            continue  # integer or bool results: nothing to differentiate
        if not any(o.requires_grad for o in float_outs):
            assert kind == 'composite', '%s: a floating result that does not require grad' % name
            continue
        for o in float_outs:
            assert o.grad_fn is None or o.grad_fn.name() != 'NotImplemented', \
                '%s has no derivative formula (add one under it in core/ops.table)' % name
        if kind == 'formula':
            assert outs[0].grad_fn is not None and (outs[0].grad_fn.name() == node or info['name'].endswith('_'))

        def call(*xs):  # the results declared differentiable (output_differentiability)
            r = fn(*xs, **kwargs)
            return tuple(o for o in (r if isinstance(r, tuple) else (r,))
                         if isinstance(o, torch.Tensor) and o.dtype.is_floating_point and o.requires_grad)

        first_order_only = name in FIRST_ORDER_ONLY
        assert gradcheck(call, args, check_forward_ad=not first_order_only)
        if not first_order_only:
            assert gradgradcheck(call, args)


def test_no_op_lacks_a_formula():
    missing = [name for (i, name, info, kind, node, fa) in OPS if kind == 'missing']
    # ops that record a node raising "derivative ... not implemented" for float results must say so
    # in the table (`ARG: not_implemented`), as floor_divide does
    assert missing == [], 'ops without derivative formulas: %s' % missing
