"""Differential test of the nn spatial family against PyTorch 1.13.1 (recorded results).

Convolution, pooling, normalisation, embedding, resampling and padding, through torch.nn.functional
and the ops themselves: every op with its options, dtypes, non-contiguous and unbatched inputs,
gradients (torch.autograd.grad), and the errors PyTorch raises. See tests/python/differential.py;
record with `tools/record_reference nn_spatial`.

Operands are small multiples of 1/4 or 1/8, so that products and sums (convolutions, pooling,
matrix products) are exact in every float dtype and independent of the order of summation; the
normalisations, interpolations and means, which divide or take roots, compare within a few units
in the last place of the result's largest magnitude.
"""
import pytest

from differential import Suite

FN = 'torch.nn.functional.'


def prod(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def T(shape, dtype='float32', mod=11, shift=5, div=4):
    """Values (i % mod - shift) / div in row-major order: repeating, exact in every dtype."""
    return '((torch.arange(%d) %% %d - %d) / %d.).reshape(%s).to(torch.%s)' % (
        prod(shape), mod, shift, div, tuple(shape), dtype)


def P(shape, dtype='float32'):
    """Distinct values in a scrambled order (no ties for max pooling): (37 i % 101 - 50) / 8."""
    return '((torch.arange(%d) * 37 %% 101 - 50) / 8.).reshape(%s).to(torch.%s)' % (prod(shape), tuple(shape), dtype)


def I(values):
    return 'torch.tensor(%r)' % (values,)


def grads(call, *args):
    """The gradients of sum(y * c) for y = call(leaf args), c a fixed pattern of small integers, w.r.t.
    every argument: an expression."""
    names = ['a%d' % i for i in range(len(args))]
    loss = '(lambda y: (y * (torch.arange(y.numel()) %% 5 - 2).reshape(y.shape).to(y.dtype)).sum())'
    return ('(lambda %s: torch.autograd.grad(' + loss + '(%s), (%s,)))(%s)') % (
        ', '.join(names), call.format(*names), ', '.join(names), ', '.join('(%s).requires_grad_()' % a for a in args))


def _conv():
    out = []
    x4, w4 = T((2, 3, 6, 5)), T((4, 3, 3, 2), mod=7, shift=3)
    for dt in ['float32', 'float64', 'bfloat16', 'int64', 'int32', 'float16', 'bool']:
        out.append(FN + 'conv2d(%s, %s)' % (T((2, 3, 5, 5), dt), T((2, 3, 3, 3), dt, mod=5, shift=2)))
    for opts in ['', ', bias=%s' % T((4,)), ', stride=2', ', stride=(2, 1), padding=(1, 2)', ', padding=1, dilation=2',
                 ', dilation=(1, 2)', ', padding="same"', ', padding="valid"', ', padding="same", dilation=2',
                 ', stride=2, padding="same"', ', padding="foo"', ', padding=(1,)', ', stride=[1, 1, 1]', ', stride=0',
                 ', padding=-1', ', dilation=0', ', groups=0', ', groups=2']:
        out.append(FN + 'conv2d(%s, %s%s)' % (x4, w4, opts))
    out += [FN + 'conv2d(%s, %s, groups=3)' % (T((2, 6, 4, 4)), T((3, 2, 2, 2), mod=5)),
            FN + 'conv2d(%s, %s, %s, groups=2, stride=2, padding=1)' % (T((1, 4, 5, 5)), T((6, 2, 3, 3), mod=5),
                                                                       T((6,))),
            FN + 'conv2d(%s, %s)' % (T((3, 6, 5)), w4),  # unbatched
            FN + 'conv2d(%s.transpose(2, 3), %s)' % (T((2, 3, 5, 6)), w4),
            FN + 'conv2d(%s, %s.transpose(2, 3))' % (x4, T((4, 3, 2, 3), mod=7)),
            FN + 'conv2d(%s[:, ::2], %s)' % (T((2, 6, 6, 5)), w4),
            FN + 'conv2d(%s, %s)' % (T((0, 3, 6, 5)), w4),
            FN + 'conv2d(%s, %s)' % (x4, T((4, 5, 3, 3))),
            FN + 'conv2d(%s, %s.double())' % (x4, w4),
            FN + 'conv2d(%s, %s, %s)' % (x4, w4, T((5,))),
            FN + 'conv2d(%s, %s, %s)' % (x4, w4, T((4,), 'float64')),
            FN + 'conv2d(%s, %s)' % (x4, T((4, 3, 7, 7))),
            FN + 'conv2d(%s, %s)' % (T((6, 5)), w4),
            FN + 'conv2d(%s, %s)' % (x4, T((4, 1, 3, 3))),
            FN + 'conv2d(%s, %s, groups=3)' % (x4, T((4, 1, 3, 3))),
            FN + 'conv2d(%s, %s)' % (T((1, 1, 28, 28)), T((2, 1, 3, 3), mod=5)),
            FN + 'conv2d(%s, %s, padding=1)' % (T((1, 8, 4, 4), mod=13), T((8, 8, 3, 3), mod=7)),
            FN + 'conv2d(%s, %s)' % (T((2, 5, 3, 3)), T((4, 5, 1, 1), mod=3))]
    x3, w3 = T((2, 3, 7)), T((4, 3, 3), mod=7, shift=3)
    for opts in ['', ', %s' % T((4,)), ', stride=2', ', padding=2, dilation=2', ', padding="same"', ', padding="same", '
                 'dilation=3', ', stride=[1, 1]']:
        out.append(FN + 'conv1d(%s, %s%s)' % (x3, w3, opts))
    out += [FN + 'conv1d(%s, %s)' % (T((3, 7)), w3), FN + 'conv1d(%s, %s)' % (x4, w3),
            FN + 'conv1d(%s, %s, groups=2)' % (T((1, 4, 6)), T((2, 2, 2))),
            FN + 'conv3d(%s, %s)' % (T((1, 2, 4, 3, 4)), T((3, 2, 2, 2, 3), mod=5)),
            FN + 'conv3d(%s, %s, %s, stride=(1, 2, 1), padding=(1, 0, 1))' % (T((2, 2, 3, 4, 3)), T((2, 2, 2, 2, 2)),
                                                                             T((2,))),
            FN + 'conv3d(%s, %s, padding="same")' % (T((1, 1, 3, 4, 3)), T((2, 1, 2, 3, 2))),
            FN + 'conv3d(%s, %s)' % (T((2, 4, 3, 3)), T((3, 2, 2, 2, 2))),
            FN + 'conv3d(%s, %s)' % (x4, T((3, 3, 2, 2, 2)))]
    wt = T((3, 4, 3, 2), mod=7, shift=3)
    for opts in ['', ', %s' % T((4,)), ', stride=2', ', stride=2, output_padding=1', ', stride=(2, 3), padding=1, '
                 'output_padding=(1, 2)', ', dilation=2', ', padding=1', ', output_padding=1', ', padding=5',
                 ', stride=2, dilation=2, output_padding=1']:
        out.append(FN + 'conv_transpose2d(%s, %s%s)' % (T((2, 3, 4, 3)), wt, opts))
    for dt in ['float64', 'int64', 'int32']:
        out.append(FN + 'conv_transpose2d(%s, %s)' % (T((1, 3, 3, 3), dt), T((3, 2, 2, 2), dt)))
    out += [FN + 'conv_transpose2d(%s, %s, groups=2)' % (T((1, 4, 3, 3)), T((4, 1, 2, 2))),
            FN + 'conv_transpose2d(%s, %s, groups=3)' % (T((1, 6, 3, 2)), T((6, 2, 2, 2))),
            FN + 'conv_transpose2d(%s, %s)' % (T((3, 4, 3)), wt),
            FN + 'conv_transpose2d(%s, %s)' % (T((2, 5, 4, 3)), wt),
            FN + 'conv_transpose2d(%s, %s, %s)' % (T((2, 3, 4, 3)), wt, T((3,))),
            FN + 'conv_transpose1d(%s, %s)' % (T((2, 3, 5)), T((3, 2, 3))),
            FN + 'conv_transpose1d(%s, %s, %s, stride=3, padding=1, output_padding=2)' % (
                T((2, 3, 5)), T((3, 2, 3)), T((2,))),
            FN + 'conv_transpose1d(%s, %s, groups=3, dilation=2)' % (T((1, 3, 4)), T((3, 2, 2))),
            FN + 'conv_transpose3d(%s, %s, stride=2)' % (T((1, 2, 2, 2, 3)), T((2, 1, 2, 2, 2))),
            'torch.convolution(%s, %s, None, [1], [0], [1], False, [0], 1)' % (x4, w4),
            'torch.convolution(%s, %s, None, [1, 1], [0, 0, 0], [1, 1], False, [0, 0], 1)' % (x4, w4),
            'torch.convolution(%s, %s, None, [1, 1], [0, 0], [1, 1], True, [0, 0, 0], 1)' % (T((2, 3, 3, 3)), wt),
            'torch.convolution(%s, %s, %s, [2, 1], [1, 0], [1, 1], False, [0, 0], 1)' % (x4, w4, T((4,)))]
    # gradients, through the op and its backward (and the backward's undefined outputs)
    out += [grads(FN + 'conv2d({}, {}, {}, stride=(2, 1), padding=1)', x4, w4, T((4,))),
            grads(FN + 'conv2d({}, {}, groups=2, dilation=2)', T((1, 4, 6, 6)), T((2, 2, 2, 2))),
            grads(FN + 'conv_transpose2d({}, {}, {}, stride=2, output_padding=1)', T((2, 3, 3, 3)), wt, T((4,))),
            grads(FN + 'conv1d({}, {}, padding="same")', x3, T((4, 3, 2))),
            grads(FN + 'conv3d({}, {}, stride=2)', T((1, 2, 3, 4, 3)), T((2, 2, 2, 2, 2))),
            grads(FN + 'conv2d({}, {})', T((3, 6, 5), 'float64'), T((4, 3, 3, 2), 'float64')),
            'torch.ops.aten.convolution_backward(%s, %s, %s, [4], [1, 1], [0, 0], [1, 1], False, [0, 0], 1, '
            '[True, True, True])' % (T((2, 4, 4, 4)), x4, w4),
            'torch.ops.aten.convolution_backward(%s, %s, %s, None, [1, 1], [0, 0], [1, 1], False, [0, 0], 1, '
            '[False, True, False])' % (T((2, 4, 4, 4)), x4, w4)]
    return out


def _pool():
    out = []
    x = P((2, 3, 7, 6))
    for opts in ['2', '3, 2', '(3, 2), (2, 1), 1', '2, padding=1, ceil_mode=True', '3, 2, 1, ceil_mode=True',
                 '3, dilation=2', '(2, 3), padding=(1, 0), dilation=(2, 1)', '0', '2, 0', '2, padding=2',
                 '2, padding=-1', '2, dilation=0', '8', '(2, 2, 2)', '2, stride=(1, 2, 3)', '2, padding=(1, 2, 3)',
                 '4, 3, ceil_mode=True', '2, stride=None']:
        out.append(FN + 'max_pool2d(%s, %s)' % (x, opts))
        out.append(FN + 'avg_pool2d(%s, %s)' % (x, opts.replace('dilation', 'count_include_pad=False, divisor_override')
                                                 .replace('divisor_override=0', 'divisor_override=None')
                                                 .replace('divisor_override=2', 'divisor_override=3')))
    for opts in ['2, return_indices=True', '(3, 2), 2, 1, return_indices=True', '3, 1, 1, 2, True, True']:
        out.append(FN + 'max_pool2d(%s, %s)' % (x, opts))
    out += [FN + 'max_pool2d(%s, 2)' % P((3, 7, 6)), FN + 'max_pool2d(%s, 2)' % P((7, 6)),
            FN + 'max_pool2d(%s, 2)' % P((1, 2, 3, 7, 6)), FN + 'max_pool2d(%s, 2)' % T((0, 3, 4, 4)),
            FN + 'max_pool2d(%s, 2)' % T((2, 0, 4, 4)), FN + 'max_pool2d(%s.transpose(2, 3), 2)' % x,
            FN + 'max_pool2d(torch.tensor([[[[1., float("nan")], [3., 2.]]]]), 2, return_indices=True)',
            FN + 'max_pool2d(torch.full((1, 1, 2, 2), float("-inf")), 2, return_indices=True)',
            FN + 'max_pool2d(torch.ones(1, 1, 3, 3), 2, 1, return_indices=True)',
            FN + 'avg_pool2d(%s, 3, 1, 1)' % T((1, 1, 4, 4), 'int64', mod=16, shift=0, div=1),
            FN + 'avg_pool2d(%s, 3, 2, 1, True, False)' % T((1, 2, 5, 5), 'float64'),
            FN + 'avg_pool2d(%s, 2, divisor_override=3)' % T((1, 1, 4, 4)),
            FN + 'avg_pool2d(%s, 2, divisor_override=0)' % T((1, 1, 4, 4)),
            FN + 'avg_pool2d(%s, 2)' % T((7, 6)), FN + 'avg_pool2d(%s, 2)' % T((3, 7, 6)),
            FN + 'avg_pool2d(%s[:, :, ::2], 2)' % T((2, 2, 8, 6))]
    for dt in ['float64', 'bfloat16', 'int64', 'float16', 'int32']:
        out += [FN + 'max_pool2d(%s, 2)' % P((1, 2, 4, 4), dt), FN + 'avg_pool2d(%s, 2)' % P((1, 2, 4, 4), dt),
                FN + 'adaptive_avg_pool2d(%s, 3)' % P((1, 2, 4, 5), dt),
                FN + 'adaptive_max_pool2d(%s, 3)' % P((1, 2, 4, 5), dt)]
    x1 = P((2, 3, 9))
    for opts in ['2', '3, 2', '3, 2, 1', '2, padding=1, ceil_mode=True', '3, dilation=2', '(2, 2)', '0', '2, padding=-1',
                 '2, padding=2', '2, stride=0', '10', '3, 2, 1, ceil_mode=True, return_indices=True']:
        out.append(FN + 'max_pool1d(%s, %s)' % (x1, opts))
    for opts in ['2', '3, 2', '3, 2, 1', '3, 2, 1, True, False', '(2, 2)', '0', '10']:
        out.append(FN + 'avg_pool1d(%s, %s)' % (x1, opts))
    out += [FN + 'max_pool1d(%s, 2)' % P((3, 9)), FN + 'max_pool1d(%s, 2)' % P((9,)), FN + 'max_pool1d(%s, 2)' % x,
            FN + 'avg_pool1d(%s, 2)' % P((3, 9)), FN + 'avg_pool1d(%s, 2)' % x,
            FN + 'max_pool1d(%s.requires_grad_(), 10)' % x1]
    for size in ['3', '(2, 4)', '(None, 2)', '1', '(1, 1)', '7', '(7, 6)', '0', '-1', '(2, 2, 2)']:
        out.append(FN + 'adaptive_avg_pool2d(%s, %s)' % (x, size))
        out.append(FN + 'adaptive_max_pool2d(%s, %s)' % (x, size))
    out += [FN + 'adaptive_max_pool2d(%s, 3, return_indices=True)' % x,
            FN + 'adaptive_avg_pool2d(%s, 3)' % P((3, 7, 6)), FN + 'adaptive_avg_pool2d(%s, 3)' % P((7, 6)),
            FN + 'adaptive_avg_pool2d(%s, 3)' % T((2, 3, 0, 4)), FN + 'adaptive_max_pool2d(%s, 3)' % T((2, 3, 0, 4)),
            FN + 'adaptive_avg_pool2d(%s.transpose(2, 3), 3)' % x]
    for size in ['4', '1', '9', '(2, 2)', '-1']:
        out.append(FN + 'adaptive_avg_pool1d(%s, %s)' % (x1, size))
        out.append(FN + 'adaptive_max_pool1d(%s, %s)' % (x1, size))
    out += [FN + 'adaptive_max_pool1d(%s, 4, return_indices=True)' % x1, FN + 'adaptive_avg_pool1d(%s, 2)' % x]
    out += [grads(FN + 'max_pool2d({}, 3, 2, 1)', x), grads(FN + 'max_pool2d({}, 2, ceil_mode=True)', P((3, 5, 5))),
            grads(FN + 'avg_pool2d({}, 3, 2, 1, count_include_pad=False)', x),
            grads(FN + 'avg_pool2d({}, 2, ceil_mode=True, divisor_override=3)', P((3, 5, 5))),
            grads(FN + 'adaptive_avg_pool2d({}, (3, 4))', x), grads(FN + 'adaptive_max_pool2d({}, (4, 3))', x),
            grads(FN + 'max_pool1d({}, 3, 1, 1)', x1), grads(FN + 'avg_pool1d({}, 3, 2, 1)', x1),
            grads(FN + 'adaptive_avg_pool1d({}, 4)', x1), grads(FN + 'adaptive_max_pool1d({}, 4)', x1),
            grads(FN + 'adaptive_avg_pool2d({}, 1)', x)]
    return out


def _norm():
    out = []
    x = T((4, 3, 5), mod=13, shift=6)
    w, b = T((3,), mod=5, shift=1), T((3,), mod=3, shift=1)
    for dt in ['float32', 'float64', 'bfloat16', 'float16', 'int64']:
        xd = T((4, 3, 5), dt, mod=13, shift=6)
        out += [FN + 'batch_norm(%s, None, None, training=True)' % xd,
                FN + 'batch_norm(%s, torch.zeros(3, dtype=torch.%s), torch.ones(3, dtype=torch.%s))' % (xd, dt, dt),
                FN + 'layer_norm(%s, (5,))' % xd, FN + 'group_norm(%s, 3)' % xd, FN + 'instance_norm(%s)' % xd]
    stats = '(lambda rm, rv: ({} , rm, rv))(torch.zeros(3) + 0.5, torch.ones(3) * 2)'
    for opts in ['training=True', 'training=True, momentum=0.3', 'training=False', 'weight=%s, bias=%s' % (w, b),
                 'weight=%s, bias=%s, training=True, eps=0.1' % (w, b), 'training=True, momentum=1.0']:
        out.append(stats.format(FN + 'batch_norm(%s, rm, rv, %s)' % (x, opts)))
    out += [stats.format(FN + 'batch_norm(%s, rm, rv, training=True)' % T((4, 3, 2, 3), mod=13)),
            stats.format(FN + 'batch_norm(%s, rm, rv, training=True)' % T((4, 3), mod=7)),
            stats.format(FN + 'instance_norm(%s, rm, rv, use_input_stats=True)' % x),
            stats.format(FN + 'instance_norm(%s, rm, rv, use_input_stats=False)' % x),
            stats.format(FN + 'batch_norm(%s.transpose(0, 2).transpose(1, 2), rm, rv, training=True)'
                         % T((5, 4, 3), mod=13)),
            FN + 'batch_norm(%s, torch.zeros(4), torch.ones(4))' % x,
            FN + 'batch_norm(%s, torch.zeros(3), torch.ones(3), torch.ones(4))' % x,
            FN + 'batch_norm(%s, torch.zeros(3), torch.ones(3), bias=torch.ones(4))' % x,
            FN + 'batch_norm(%s, None, None)' % x, FN + 'batch_norm(%s, None, None, training=True)' % T((1, 3)),
            FN + 'batch_norm(%s, None, None, training=True)' % T((5,)),
            FN + 'batch_norm(%s, torch.zeros(3), torch.ones(3), torch.ones(3).double())' % x,
            FN + 'batch_norm(%s, torch.zeros(3), torch.ones(3))' % T((4, 3, 5), 'float64'),
            FN + 'batch_norm(%s, torch.zeros(3), torch.ones(3), %s, %s)' % (T((4, 3, 5), 'bfloat16'), w, b),
            FN + 'batch_norm(%s, torch.zeros(3), torch.ones(3), training=True)' % T((0, 3, 2)),
            'torch.native_batch_norm(%s, %s, %s, None, None, True, 0.1, 1e-5)' % (x, w, b),
            'torch.native_batch_norm(%s, None, None, torch.zeros(3), torch.ones(3), False, 0.1, 1e-5)' % x]
    for shape, opts in [('(5,)', ''), ('(3, 5)', ''), ('[5]', ', %s, %s' % (T((5,), mod=3), T((5,), mod=4))),
                        ('(5,)', ', eps=0.5'), ('[]', ''), ('(4,)', ''), ('(5,)', ', %s' % T((4,))),
                        ('(5,)', ', None, %s' % T((4,))), ('(4, 3, 5)', '')]:
        out.append(FN + 'layer_norm(%s, %s%s)' % (x, shape, opts))
    out += [FN + 'layer_norm(%s, (2,))' % T((0, 2)), FN + 'layer_norm(%s.transpose(0, 2), (4,))' % x,
            'torch.native_layer_norm(%s, [5], None, None, 1e-5)' % x]
    for groups, opts in [(3, ''), (1, ''), (3, ', %s, %s' % (w, b)), (1, ', eps=0.5'), (2, ''), (3, ', %s' % T((4,))),
                         (3, ', None, %s' % T((4,))), (0, '')]:
        out.append(FN + 'group_norm(%s, %s%s)' % (x, groups, opts))
    out += [FN + 'group_norm(%s, 2, %s, %s)' % (T((2, 4, 2, 3), mod=13), T((4,), mod=3), T((4,), mod=5)),
            FN + 'group_norm(%s, 3)' % T((3, 5)), FN + 'group_norm(%s, 3)' % T((0, 3, 2)),
            FN + 'group_norm(%s, 3)' % T((5,)), 'torch.native_group_norm(%s, None, None, 4, 3, 5, 3, 1e-5)' % x,
            'torch.native_group_norm(%s, None, None, 4, 3, 4, 3, 1e-5)' % x]
    out += [FN + 'instance_norm(%s, weight=%s, bias=%s)' % (x, w, b), FN + 'instance_norm(%s)' % T((5, 5)),
            FN + 'instance_norm(%s)' % T((2, 3, 1)), FN + 'instance_norm(%s, use_input_stats=False)' % x,
            FN + 'local_response_norm(%s, 2)' % T((2, 5, 3, 2)), FN + 'local_response_norm(%s, 3, 1e-2, 0.5, 2.0)' % x,
            FN + 'local_response_norm(%s, 3)' % T((3, 4)), FN + 'local_response_norm(%s, 2)' % T((2, 4, 3, 2, 2))]
    out += [grads(FN + 'batch_norm({}, None, None, {}, {}, training=True)', x, w, b),
            grads(FN + 'batch_norm({}, torch.zeros(3) + 0.5, torch.ones(3) * 2, {}, {})', x, w, b),
            grads(FN + 'layer_norm({}, (5,), {}, {})', x, T((5,), mod=3), T((5,), mod=4)),
            grads(FN + 'group_norm({}, 3, {}, {})', x, w, b), grads(FN + 'instance_norm({})', x),
            grads(FN + 'local_response_norm({}, 2)', T((2, 5, 3)))]
    return out


def _embedding():
    out = []
    w = T((6, 3), mod=7, shift=3)
    for dt in ['float32', 'float64', 'bfloat16', 'float16', 'int64', 'bool']:
        out.append(FN + 'embedding(%s, %s)' % (I([[1, 5], [0, 1]]), T((6, 3), dt, mod=7, shift=3)))
    for idx, opts in [([1, 6], ''), ([1, -1], ''), ([], ''), ([1, 2], ', padding_idx=6'), ([1, 2], ', padding_idx=-7'),
                      ([1, 2], ', padding_idx=-1'), ([3, 3, 1], ', padding_idx=3')]:
        out.append(FN + 'embedding(%s, %s%s)' % (I(idx), w, opts))
    out += [FN + 'embedding(torch.tensor([1., 2.]), %s)' % w, FN + 'embedding(torch.tensor(2), %s)' % w,
            FN + 'embedding(%s, %s[0])' % (I([1]), w), FN + 'embedding(torch.tensor([1, 2]).int(), %s)' % w,
            FN + 'embedding(%s, %s.t())' % (I([0, 2]), T((3, 6))),
            '(lambda w: (%sembedding(%s, w, max_norm=1.0), w))(%s)' % (FN, I([1, 1, 4]), w),
            '(lambda w: (%sembedding(%s, w, max_norm=2.0, norm_type=1.0), w))(%s)' % (FN, I([0, 5, 4]), w),
            '(lambda w: (%sembedding(%s, w, max_norm=0.5, norm_type=float("inf")), w))(%s)' % (FN, I([2, 3]), w),
            'torch.embedding_renorm_(%s, %s, 1.0, 2.0)' % (w, I([1, 7])),
            'torch.embedding_renorm_(%s, %s, 1.0, 2.0)' % (T((6,)), I([1]))]
    bag = [(I([1, 2, 4, 0, 5]), I([0, 2])), (I([1, 2, 4, 0, 5]), I([0, 5])), (I([1, 2, 4, 0, 5]), I([0, 2, 2])),
           (I([[1, 2], [0, 4]]), 'None')]
    for idx, off in bag:
        for mode in ['sum', 'mean', 'max']:
            out.append(FN + 'embedding_bag(%s, %s, %s, mode="%s")' % (idx, w, off, mode))
    for opts in ['per_sample_weights=%s, mode="sum"' % T((5,), mod=3), 'per_sample_weights=%s' % T((5,)),
                 'padding_idx=2', 'padding_idx=2, mode="max"', 'padding_idx=-4, mode="sum"', 'mode="foo"',
                 'include_last_offset=True', 'include_last_offset=True, mode="max"', 'max_norm=1.0',
                 'per_sample_weights=%s, mode="sum"' % T((4,))]:
        out.append(FN + 'embedding_bag(%s, %s, %s, %s)' % (I([1, 2, 4, 0, 5]), w, I([0, 2, 5]), opts))
    out += [FN + 'embedding_bag(%s, %s, %s)' % (I([1, 2, 7]), w, I([0, 1])),
            FN + 'embedding_bag(%s, %s, %s)' % (I([1, 2, 3]), w, I([1, 2])),
            FN + 'embedding_bag(%s, %s)' % (I([1, 2, 3]), w),
            FN + 'embedding_bag(%s, %s, %s)' % (I([[1, 2], [0, 3]]), w, I([0, 1])),
            FN + 'embedding_bag(%s, %s, %s)' % (I([1, 2]), T((6, 3), 'bfloat16'), I([0])),
            FN + 'embedding_bag(%s, %s, %s)' % (I([1, 2]), T((6, 3), 'float64'), I([0])),
            FN + 'embedding_bag(%s, %s, %s, mode="sum")' % ('torch.tensor([], dtype=torch.long)', w, I([0, 0])),
            'torch.embedding_bag(%s, %s, %s, False, 1)[0]' % (w, I([1, 2, 3]), I([0, 1])),
            'torch.embedding_bag(%s, %s, %s, False, 2)[3]' % (w, I([1, 2, 3]), I([0, 1]))]
    for n, classes in [([1, 2, 0], ''), ([1, 2, 0], ', 5'), ([1, 2, 0], ', 2'), ([1, -2, 0], ''),
                       ([[1], [2]], ', 3'), ([1, 2], ', -2')]:
        out.append(FN + 'one_hot(%s%s)' % (I(n), classes))
    out += [FN + 'one_hot(torch.tensor([], dtype=torch.long))', FN + 'one_hot(torch.tensor([], dtype=torch.long), 3)',
            FN + 'one_hot(torch.tensor(2), 3)', FN + 'one_hot(torch.tensor([1., 2.]))']
    out += [grads(FN + 'embedding(%s, {})' % I([[1, 5], [0, 1]]), w),
            grads(FN + 'embedding(%s, {}, padding_idx=1)' % I([[1, 5], [0, 1]]), w),
            grads(FN + 'embedding(%s, {}, scale_grad_by_freq=True)' % I([1, 5, 1, 1]), w),
            grads(FN + 'embedding_bag(%s, {}, %s, mode="mean")' % (I([1, 2, 4, 1, 5]), I([0, 2])), w),
            grads(FN + 'embedding_bag(%s, {}, %s, mode="max")' % (I([1, 2, 4, 1, 5]), I([0, 2])), w),
            grads(FN + 'embedding_bag(%s, {}, %s, mode="sum", per_sample_weights={})' % (I([1, 2, 4, 1, 5]),
                                                                                         I([0, 2])), w, T((5,))),
            grads(FN + 'embedding_bag(%s, {}, %s, mode="mean", padding_idx=1)' % (I([1, 2, 4, 1, 5]), I([0, 2])), w)]
    return out


def _resample():
    out = []
    x = T((1, 2, 4, 4), mod=16, shift=0, div=1)
    for opts in ['scale_factor=2', 'scale_factor=1.5', 'size=(3, 5)', 'size=7', 'scale_factor=0.5', 'scale_factor=1.7',
                 'scale_factor=(2, 0.75)', 'scale_factor=1.7, recompute_scale_factor=True', 'size=0', 'size=(1, 2, 3)',
                 'scale_factor=(1, 2, 3)', 'size=3, scale_factor=2', '', 'size=2, align_corners=True']:
        for mode in ['nearest', 'bilinear', 'area']:
            if 'align' in opts and mode == 'bilinear':
                continue
            out.append(FN + 'interpolate(%s, %s%smode="%s")' % (x, opts, ', ' if opts else '', mode))
    for opts in ['scale_factor=2, mode="bilinear", align_corners=True', 'size=(3, 7), mode="bilinear", '
                 'align_corners=True', 'size=(5, 1), mode="bilinear", align_corners=True',
                 'scale_factor=0.7, mode="bilinear"', 'size=(6, 6), mode="bilinear"', 'scale_factor=2, mode="foo"',
                 'size=2, mode="linear"']:
        out.append(FN + 'interpolate(%s, %s)' % (x, opts))
    x1 = T((2, 3, 5), mod=16, shift=0, div=1)
    for opts in ['scale_factor=2', 'size=7', 'scale_factor=1.5, mode="linear"', 'size=8, mode="linear", '
                 'align_corners=True', 'size=3, mode="linear"', 'size=4, mode="area"', 'size=2, mode="bilinear"',
                 'scale_factor=0.6', 'size=9, mode="linear", align_corners=False']:
        out.append(FN + 'interpolate(%s, %s)' % (x1, opts))
    for dt in ['float64', 'bfloat16', 'uint8', 'int64', 'float16']:
        xd = T((1, 2, 3, 3), dt, mod=9, shift=0, div=1)
        out += [FN + 'interpolate(%s, scale_factor=2)' % xd, FN + 'interpolate(%s, size=(4, 5), mode="bilinear")' % xd]
    out += [FN + 'interpolate(%s.transpose(2, 3), size=(3, 5), mode="bilinear")' % T((1, 2, 4, 5)),
            FN + 'upsample(%s, scale_factor=2)' % x, FN + 'upsample_nearest(%s, size=5)' % x,
            FN + 'upsample_bilinear(%s, size=5)' % x,
            'torch.ops.aten.upsample_nearest2d(%s, [3, 5], 0.5, 0.5)' % x,
            'torch.ops.aten.upsample_nearest2d.vec(%s, [3, 5], [1.5, 1.5])' % x,
            'torch.ops.aten.upsample_nearest2d.vec(%s, None, None)' % x,
            'torch.ops.aten.upsample_bilinear2d(%s, [3, 5], False, 0.75, 1.25)' % x,
            'torch.ops.aten.upsample_nearest2d(%s, [3, 5])' % T((1, 4, 4)),
            'torch.ops.aten.upsample_nearest2d(%s, [3, 5])' % T((0, 1, 4, 4)),
            'torch.ops.aten.upsample_nearest2d(%s, [3, 5])' % T((1, 0, 4, 4)),
            'torch.ops.aten.upsample_nearest2d_backward(%s, [3, 5], [1, 1, 4, 4])' % T((1, 1, 3, 5)),
            'torch.ops.aten.upsample_nearest2d_backward(%s, [3, 5], [1, 1, 4, 4])' % T((1, 1, 3, 4)),
            'torch.ops.aten.upsample_bilinear2d_backward(%s, [3, 5], [1, 1, 4, 4], True)' % T((1, 1, 3, 5)),
            'torch.ops.aten.upsample_linear1d_backward(%s, [5], [1, 2, 3], False, 2.0)' % T((1, 2, 5))]
    out += [grads(FN + 'interpolate({}, scale_factor=1.5, mode="bilinear")', x),
            grads(FN + 'interpolate({}, size=(3, 7), mode="bilinear", align_corners=True)', x),
            grads(FN + 'interpolate({}, size=(3, 7))', x), grads(FN + 'interpolate({}, size=8, mode="linear")', x1)]
    for factor, shape in [(2, (1, 8, 2, 3)), (3, (1, 8, 1, 1)), (2, (8, 1, 2)), (2, (8, 1)), (0, (1, 8, 1, 1)),
                          (1, (2, 2, 2, 2)), (2, (2, 1, 12, 2, 1))]:
        out.append(FN + 'pixel_shuffle(%s, %d)' % (T(shape, mod=17), factor))
    for factor, shape in [(2, (1, 2, 4, 6)), (3, (1, 1, 4, 4)), (2, (1, 1, 4, 3)), (0, (1, 1, 4, 4)), (2, (4, 4)),
                          (2, (2, 2, 1, 2, 4))]:
        out.append(FN + 'pixel_unshuffle(%s, %d)' % (T(shape, mod=17), factor))
    out += [grads(FN + 'pixel_shuffle({}, 2)', T((1, 8, 2, 3))), grads(FN + 'pixel_unshuffle({}, 2)', T((1, 2, 4, 6)))]
    return out


def _padding():
    out = []
    x = T((1, 2, 4, 5), mod=16, shift=0, div=1)
    pads = ['(1, 2)', '(1, 1, 2, 0)', '(3, 1, 2, 3)', '(-1, 1, 1, 1)', '(5, 1, 1, 1)', '(1, 1, 1)',
            '(1, 1, 1, 1, 1, 1, 1, 1, 1, 1)', '(0, 0, 1, 1, 1, 1)']
    for mode in ['constant', 'reflect', 'replicate', 'circular']:
        for p in pads:
            out.append(FN + 'pad(%s, %s, mode="%s")' % (x, p, mode))
        for shape, p in [((2, 3, 5), '(2, 1)'), ((3, 5), '(1, 2)'), ((2, 4), '(1, 1, 1, 1)'), ((5,), '(1, 2)')]:
            out.append(FN + 'pad(%s, %s, mode="%s")' % (T(shape, mod=16, shift=0, div=1), p, mode))
    out += [FN + 'pad(%s, (1, 1), value=2.5)' % x, FN + 'pad(%s.long(), (1, 1), value=2.5)' % x,
            FN + 'pad(%s, (1, 1, 1, 1), mode="reflect", value=2)' % x, FN + 'pad(%s, (1, 1, 1, 1), mode="foo")' % x,
            FN + 'pad(%s.transpose(2, 3), (1, 2, 1, 0), mode="reflect")' % x,
            FN + 'pad(%s, (-2, -1))' % x, FN + 'pad(%s, (-3, -3))' % x, FN + 'pad(%s, (2, 2), value=-1)' % T((0, 3)),
            FN + 'pad(%s, (1, 2, 1, 1), mode="replicate")' % T((1, 2, 3, 3), 'float64'),
            FN + 'pad(%s, (1, 2), mode="reflect")' % T((1, 2, 3), 'bfloat16'),
            FN + 'pad(%s, (1, 2), mode="circular")' % T((1, 2, 3), 'int64'),
            FN + 'pad(%s, (1, 2), value=1)' % T((2, 3), 'bool')]
    for dt in ['float64', 'int64', 'bool', 'bfloat16', 'int8']:
        out.append('torch.constant_pad_nd(%s, [1, 0, -1, 2], 1)' % T((2, 3, 3), dt, mod=3))
    out += ['torch.constant_pad_nd(%s, [1, 1, 1])' % x, 'torch.constant_pad_nd(%s, [-2, 0])' % T((2, 2))]
    out += [grads(FN + 'pad({}, (1, 2, 2, 1), mode="%s")' % m, T((1, 2, 3, 4))) for m in
            ['constant', 'reflect', 'replicate', 'circular']]
    out += [grads(FN + 'pad({}, (2, 1), mode="%s")' % m, T((2, 3, 4))) for m in ['reflect', 'replicate']]
    return out


def _fold_linear():
    out = []
    x = T((1, 2, 4, 5), mod=16, shift=0, div=1)
    for opts in ['2', '(2, 3)', '2, stride=2', '2, padding=1', '(2, 2), dilation=2, padding=1, stride=(1, 2)', '5',
                 '0', '2, stride=0', '2, padding=-1', '2, dilation=0']:
        out.append(FN + 'unfold(%s, %s)' % (x, opts))
    out += [FN + 'unfold(%s, 2)' % T((2, 4, 5)), FN + 'unfold(%s, 2)' % T((4, 5)),
            FN + 'unfold(%s, 2)' % T((1, 2, 4, 5), 'float64'), FN + 'unfold(%s, 2)' % T((1, 2, 4, 5), 'int64')]
    for shape, args in [((1, 8, 4), '(3, 3), 2'), ((1, 8, 6), '(3, 4), 2'), ((1, 4, 3), '(2, 3), 2, stride=2'),
                        ((1, 4, 9), '(4, 4), 2, stride=1'), ((4, 9), '(4, 4), 2'), ((1, 3, 4), '(2, 3), 2'),
                        ((1, 8, 4), '(4, 4), 2, padding=1, stride=2'), ((2, 4, 6), '(3, 5), (2, 1), dilation=2')]:
        out.append(FN + 'fold(%s, %s)' % (T(shape), args))
    out += [grads(FN + 'unfold({}, (2, 3), padding=1, stride=2)', x), grads(FN + 'fold({}, (3, 3), 2)', T((1, 8, 4)))]
    a, w, b = T((3, 4)), T((5, 4), mod=7), T((5,), mod=3)
    out += [FN + 'linear(%s, %s, %s)' % (a, w, b), FN + 'linear(%s, %s)' % (a, w),
            FN + 'linear(%s, %s, %s)' % (T((2, 3, 4)), w, b), FN + 'linear(%s, %s)' % (T((4,)), w),
            FN + 'linear(%s, %s)' % (a, T((4,))), FN + 'linear(%s, %s, %s)' % (a, w, T((6,))),
            FN + 'linear(%s, %s)' % (a, T((5, 3))), FN + 'linear(%s, %s.double())' % (a, w),
            FN + 'linear(%s, %s, %s)' % (T((0, 4)), w, b), FN + 'linear(%s.t(), %s)' % (T((4, 3)), w),
            FN + 'linear(%s, %s, %s)' % (a, w, T((3, 5))), FN + 'linear(%s, %s, %s)' % (T((3, 4), 'int64'),
                                                                                    T((5, 4), 'int64'),
                                                                                    T((5,), 'int64')),
            FN + 'linear(%s, %s, %s)' % (T((3, 4), 'float64'), T((5, 4), 'float64'), T((5,), 'float64'))]
    x1, x2, wb = T((3, 4)), T((3, 2), mod=5), T((5, 4, 2), mod=7)
    out += [FN + 'bilinear(%s, %s, %s, %s)' % (x1, x2, wb, b), FN + 'bilinear(%s, %s, %s)' % (x1, x2, wb),
            FN + 'bilinear(%s, %s, %s)' % (T((2, 3, 4)), T((2, 3, 2)), wb),
            FN + 'bilinear(%s, %s, %s)' % (T((4,)), T((2,)), wb), FN + 'bilinear(%s, %s, %s)' % (x1, T((4, 2)), wb),
            FN + 'bilinear(%s, %s, %s)' % (x1, x2, T((5, 3, 2))), FN + 'bilinear(%s, %s, %s)' % (x1, x2, T((5, 4, 3))),
            FN + 'bilinear(%s, %s, %s, %s)' % (x1, x2, wb, T((6,))), FN + 'bilinear(%s, %s, %s)' % (x1, x2, T((4, 2)))]
    out += [grads(FN + 'linear({}, {}, {})', a, w, b), grads(FN + 'linear({}, {})', T((2, 3, 4)), w),
            grads(FN + 'bilinear({}, {}, {}, {})', x1, x2, wb, b)]
    return out


EXPRESSIONS = _conv() + _pool() + _norm() + _embedding() + _resample() + _padding() + _fold_linear()

# Results with divisions or roots (normalisations, means, interpolation weights) round differently
# from the reference's vectorised kernels: they compare within a few units in the last place of the
# result's largest magnitude.
SUITE = Suite('nn_spatial', EXPRESSIONS, ranged=lambda expr: True,
              tolerance={'torch.float32': (4e-6, 1e-30), 'torch.float64': (1e-12, 1e-300),
                         'torch.bfloat16': (1.6e-2, 1e-38), 'torch.float16': (2e-3, 1e-7)})
RECORDED, RUNNER, reference_request = SUITE.recorded, SUITE.runner, SUITE.reference_request
reports = SUITE.fixture()


@pytest.mark.parametrize('expr', SUITE.expressions)
def test_matches_reference(reports, expr):
    SUITE.check(reports, expr)
