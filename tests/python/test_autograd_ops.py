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

import autograd_samples_pointwise

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
    # random ops: their formulas are zeros (checked, not gradchecked: every call draws anew)
    'geometric_': lambda: [((T(2, 3), 0.5), {})],
    'random_.from': lambda: [((T(2, 3), 1, 5), {})],
    'random_.to': lambda: [((T(2, 3), 5), {})],
    'bernoulli_.Tensor': lambda: [((T(2, 3), T(2, 3, low=0.1, high=0.9)), {})],
    'bernoulli': lambda: [((T(2, 3, low=0.1, high=0.9),), {})],
    'bernoulli.p': lambda: [((T(2, 3), 0.5), {})],
    'normal.float_Tensor': lambda: [((0.5, T(2, 3)), {})],
}

# Differentiable in PyTorch's sense but declared without a derivative (PyTorch raises too).
NOT_IMPLEMENTED = {'floor_divide'}
SAMPLES.update(autograd_samples_pointwise.samples(T, mixed))
NOT_IMPLEMENTED |= autograd_samples_pointwise.NOT_IMPLEMENTED


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
GENERATOR = 14  # TC_VALUE_GENERATOR
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
        if any(a[1] == GENERATOR for a in info['args']):
            # a random op: every call draws anew, so no finite differences; its gradients are zeros
            grads = torch.autograd.grad([o.sum() for o in float_outs if o.requires_grad], requiring(args),
                                        allow_unused=True)
            assert all(g is None or g.abs().sum().item() == 0 for g in grads), name
            continue

        def call(*xs):
            r = fn(*xs, **kwargs)
            return tuple(o for o in (r if isinstance(r, tuple) else (r,))
                         if isinstance(o, torch.Tensor) and o.dtype.is_floating_point)

        assert gradcheck(call, args, check_forward_ad=True)
        assert gradgradcheck(call, args)


def test_no_op_lacks_a_formula():
    missing = [name for (i, name, info, kind, node, fa) in OPS if kind == 'missing']
    # ops that record a node raising "derivative ... not implemented" for float results must say so
    # in the table (`ARG: not_implemented`), as floor_divide does
    assert missing == [], 'ops without derivative formulas: %s' % missing
