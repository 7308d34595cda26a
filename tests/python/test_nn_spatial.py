"""Convolution, pooling, normalisation, embedding, resampling and padding (torch.nn.functional and
the ops under it): values derived by hand or from closed forms, shapes, every option, the meta
device, non-contiguous and empty inputs, out= forms, gradients, and the errors PyTorch raises.
(tests/python/test_nn_spatial_reference.py compares the same family with PyTorch itself.)"""
import math

import pytest
import torch
import torch.nn.functional as F


def seq(*shape, dtype=torch.float32, start=0.0):
    """start, start + 1, ... in row-major order."""
    n = 1
    for s in shape:
        n *= s
    return (torch.arange(n, dtype=torch.float64) + start).reshape(shape).to(dtype)


def naive_conv2d(x, w, b=None, stride=(1, 1), padding=(0, 0), dilation=(1, 1), groups=1):
    """The definition, element by element, in float64 Python."""
    N, C, H, W = x.shape
    O, Cg, KH, KW = w.shape
    OH = (H + 2 * padding[0] - dilation[0] * (KH - 1) - 1) // stride[0] + 1
    OW = (W + 2 * padding[1] - dilation[1] * (KW - 1) - 1) // stride[1] + 1
    xl, wl = x.tolist(), w.tolist()
    out = []
    for n in range(N):
        planes = []
        for o in range(O):
            g = o // (O // groups)
            rows = []
            for oh in range(OH):
                row = []
                for ow in range(OW):
                    s = b[o].item() if b is not None else 0.0
                    for c in range(Cg):
                        for kh in range(KH):
                            for kw in range(KW):
                                ih = oh * stride[0] - padding[0] + kh * dilation[0]
                                iw = ow * stride[1] - padding[1] + kw * dilation[1]
                                if 0 <= ih < H and 0 <= iw < W:
                                    s += xl[n][g * Cg + c][ih][iw] * wl[o][c][kh][kw]
                    row.append(s)
                rows.append(row)
            planes.append(rows)
        out.append(planes)
    return torch.tensor(out, dtype=torch.float64)


def close(a, b, tol=1e-5):
    return (a.double() - b.double()).abs().max().item() <= tol * max(1.0, b.double().abs().max().item())


# ---- convolution -----------------------------------------------------------------------------------

@pytest.mark.parametrize('stride, padding, dilation, groups', [
    ((1, 1), (0, 0), (1, 1), 1), ((2, 1), (1, 2), (1, 1), 1), ((1, 2), (2, 0), (2, 1), 1), ((2, 2), (1, 1), (1, 1), 2)])
def test_conv2d_matches_its_definition(stride, padding, dilation, groups):
    x = seq(2, 4, 6, 5).sin()
    w = seq(6, 4 // groups, 3, 2, start=1).cos()
    b = seq(6).div(10)
    y = F.conv2d(x, w, b, stride, padding, dilation, groups)
    assert close(y, naive_conv2d(x, w, b, stride, padding, dilation, groups))
    y64 = F.conv2d(x.double(), w.double(), b.double(), stride, padding, dilation, groups)
    assert close(y64, naive_conv2d(x, w, b, stride, padding, dilation, groups), 1e-13)


def test_conv2d_closed_forms():
    # a 3x3 box filter of ones over an image of ones counts the in-bounds taps
    y = F.conv2d(torch.ones(1, 1, 3, 3), torch.ones(1, 1, 3, 3), padding=1)
    assert y[0, 0].tolist() == [[4, 6, 4], [6, 9, 6], [4, 6, 4]]
    # a 1x1 convolution is a matrix product over channels
    x, w = seq(2, 3, 2, 2), seq(4, 3, 1, 1)
    y = F.conv2d(x, w)
    for n in range(2):
        for o in range(4):
            assert y[n, o].tolist() == sum(x[n, c] * w[o, c, 0, 0] for c in range(3)).tolist()
    # integer convolutions are exact; bias alone when the kernel sees only padding
    xi = seq(1, 1, 3, 3, dtype=torch.int64)
    assert F.conv2d(xi, torch.ones(1, 1, 2, 2, dtype=torch.int64))[0, 0].tolist() == [[8, 12], [20, 24]]
    assert F.conv2d(torch.zeros(1, 1, 2, 2), torch.ones(2, 1, 1, 1), torch.tensor([1.5, -2.0]))[0, :, 0, 0].tolist() \
        == [1.5, -2.0]


def test_conv_1d_3d_transposed_and_padding_modes():
    x = seq(1, 1, 5)
    assert F.conv1d(x, torch.ones(1, 1, 2)).tolist() == [[[1, 3, 5, 7]]]
    assert F.conv1d(x, torch.ones(1, 1, 3), padding='same').tolist() == [[[1, 3, 6, 9, 7]]]
    assert F.conv1d(x, torch.ones(1, 1, 2), padding='same').tolist() == [[[1, 3, 5, 7, 4]]]  # extra on the right
    assert F.conv1d(x, torch.ones(1, 1, 3), padding='valid').shape == (1, 1, 3)
    assert F.conv1d(x[0], torch.ones(1, 1, 2)).shape == (1, 4)  # unbatched
    assert F.conv3d(torch.ones(1, 1, 2, 3, 3), torch.ones(1, 1, 2, 2, 2)).tolist() == [[[[[8, 8], [8, 8]]]]]
    # the transposed convolution is the adjoint of the convolution: <conv(x), y> == <x, conv_t(y)>
    x, w, y = seq(1, 2, 5, 4).sin(), seq(3, 2, 3, 2).cos(), seq(1, 3, 3, 2).sin()
    lhs = (F.conv2d(x, w, stride=2, padding=(1, 0)) * y).sum()
    rhs = (x * F.conv_transpose2d(y, w, stride=2, padding=(1, 0))).sum()
    assert abs(lhs.item() - rhs.item()) < 1e-4
    assert F.conv_transpose2d(torch.ones(1, 1, 2, 2), torch.ones(1, 1, 2, 2))[0, 0].tolist() == \
        [[1, 2, 1], [2, 4, 2], [1, 2, 1]]
    assert F.conv_transpose1d(torch.ones(1, 2, 3), torch.ones(2, 3, 2), stride=2, output_padding=1).shape == (1, 3, 7)


def test_conv_noncontiguous_empty_and_meta():
    x, w = seq(2, 3, 5, 6).sin(), seq(4, 3, 2, 2).cos()
    assert close(F.conv2d(x.transpose(2, 3), w), F.conv2d(x.transpose(2, 3).contiguous(), w))
    assert close(F.conv2d(x, w.transpose(2, 3)), F.conv2d(x, w.transpose(2, 3).contiguous()))
    assert F.conv2d(torch.ones(0, 3, 5, 6), w).shape == (0, 4, 4, 5)
    m = F.conv2d(torch.empty(2, 3, 5, 6, device='meta'), torch.empty(4, 3, 2, 2, device='meta'), stride=2)
    assert m.device.type == 'meta' and m.shape == (2, 4, 2, 3)
    m = F.conv_transpose2d(torch.empty(2, 3, 5, 6, device='meta'), torch.empty(3, 4, 2, 2, device='meta'))
    assert m.shape == (2, 4, 6, 7)


def test_conv_dtypes():
    x, w = seq(1, 2, 4, 4), seq(3, 2, 2, 2)
    ref = F.conv2d(x, w)
    assert F.conv2d(x.double(), w.double()).dtype == torch.float64
    bf = F.conv2d(x.bfloat16(), w.bfloat16())
    assert bf.dtype == torch.bfloat16 and close(bf, ref, 1e-2)
    for dt in (torch.int64, torch.int32, torch.uint8):
        r = F.conv2d(x.to(dt), w.to(dt))
        assert r.dtype == dt
    assert F.conv2d(x.long(), w.long()).tolist() == ref.long().tolist()
    with pytest.raises(RuntimeError, match='not implemented for'):
        F.conv2d(x.half(), w.half())


@pytest.mark.parametrize('call, error, message', [
    (lambda: F.conv2d(torch.ones(2, 3, 6, 6), torch.ones(4, 5, 3, 3)), RuntimeError, 'expected input'),
    (lambda: F.conv2d(torch.ones(2, 3, 6, 6), torch.ones(4, 3, 3, 3).double()), RuntimeError, 'should be the same'),
    (lambda: F.conv2d(torch.ones(2, 3, 6, 6), torch.ones(4, 3, 3, 3), torch.ones(5)), RuntimeError, 'expected bias'),
    (lambda: F.conv2d(torch.ones(2, 3, 6, 6), torch.ones(4, 3, 3, 3), stride=0), RuntimeError, 'non-positive stride'),
    (lambda: F.conv2d(torch.ones(2, 3, 6, 6), torch.ones(4, 3, 3, 3), padding=-1), RuntimeError, 'negative padding'),
    (lambda: F.conv2d(torch.ones(2, 3, 6, 6), torch.ones(4, 3, 3, 3), groups=2), RuntimeError, 'to have 6 channels'),
    (lambda: F.conv2d(torch.ones(2, 3, 2, 2), torch.ones(4, 3, 3, 3)), RuntimeError, "Kernel size can't be greater"),
    (lambda: F.conv2d(torch.ones(6, 6), torch.ones(4, 3, 3, 3)), RuntimeError, 'Expected 3D \\(unbatched\\) or 4D'),
    (lambda: F.conv2d(torch.ones(2, 3, 6, 6), torch.ones(4, 3, 3, 3), stride=[1, 1, 1]), RuntimeError,
     'list of 2 values'),
    (lambda: F.conv2d(torch.ones(2, 3, 6, 6), torch.ones(4, 3, 3, 3), padding='same', stride=2), RuntimeError,
     'strided convolutions'),
    (lambda: F.conv2d(torch.ones(2, 3, 6, 6), torch.ones(4, 3, 3, 3), padding='full'), RuntimeError,
     'Invalid padding string'),
    (lambda: F.conv_transpose2d(torch.ones(2, 3, 6, 6), torch.ones(3, 4, 3, 3), output_padding=1), RuntimeError,
     'output padding must be smaller'),
    (lambda: F.conv_transpose2d(torch.ones(2, 3, 6, 6), torch.ones(3, 4, 3, 3), padding=5), RuntimeError,
     'Output size is too small'),
])
def test_conv_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_conv_gradients_and_backward_op():
    x = seq(1, 2, 4, 4, dtype=torch.float64).sin().requires_grad_()
    w = seq(3, 2, 2, 2, dtype=torch.float64).cos().requires_grad_()
    b = torch.zeros(3, dtype=torch.float64, requires_grad=True)
    y = F.conv2d(x, w, b)
    assert type(y.grad_fn).__name__ == 'ConvolutionBackward0'
    y.sum().backward()
    # d sum / d bias = the number of output positions; d sum / d w[o] = the window sums of x
    assert b.grad.tolist() == [9.0, 9.0, 9.0]
    for c in range(2):
        for i in range(2):
            for j in range(2):
                assert abs(w.grad[0, c, i, j].item() - x[0, c, i:i + 3, j:j + 3].sum().item()) < 1e-12
    gi, gw, gb = torch.ops.aten.convolution_backward(torch.ones(1, 3, 3, 3, dtype=torch.float64), x.detach(),
                                                     w.detach(), [3], [1, 1], [0, 0], [1, 1], False, [0, 0], 1,
                                                     [True, False, True])
    assert gw is None and gb.tolist() == [9.0, 9.0, 9.0] and close(gi, x.grad)
    g = torch.autograd.grad(F.conv2d(x, w).pow(2).sum(), x, create_graph=True)[0]
    assert type(g.grad_fn).__name__ == 'ConvolutionBackwardBackward0'


# ---- pooling ---------------------------------------------------------------------------------------

def test_max_pool2d_values_indices_and_options():
    x = seq(1, 1, 4, 4)
    y, i = F.max_pool2d(x, 2, return_indices=True)
    assert y.tolist() == [[[[5, 7], [13, 15]]]] and i.tolist() == [[[[5, 7], [13, 15]]]]
    assert F.max_pool2d(x, 3, 1).tolist() == [[[[10, 11], [14, 15]]]]
    assert F.max_pool2d(x, 2, 2, 1).tolist() == [[[[0, 2, 3], [8, 10, 11], [12, 14, 15]]]]
    assert F.max_pool2d(x, 2, 3, ceil_mode=True).shape == (1, 1, 2, 2)
    assert F.max_pool2d(seq(1, 1, 5, 5), 2, 1, dilation=2).tolist() == [[[[12, 13, 14], [17, 18, 19], [22, 23, 24]]]]
    assert F.max_pool2d(x[0], 2).shape == (1, 2, 2)  # unbatched
    assert F.max_pool2d(x.transpose(2, 3), 2).tolist() == [[[[5, 13], [7, 15]]]]  # non-contiguous
    nan = F.max_pool2d(torch.tensor([[[[1.0, float('nan')], [3.0, 2.0]]]]), 2, return_indices=True)
    assert math.isnan(nan[0].item()) and nan[1].item() == 1
    ties = F.max_pool2d(torch.ones(1, 1, 2, 2), 2, return_indices=True)[1]
    assert ties.item() == 0  # the first largest
    assert F.max_pool2d(torch.ones(0, 2, 4, 4), 2).shape == (0, 2, 2, 2)
    assert F.max_pool1d(seq(1, 6), 2).tolist() == [[1, 3, 5]]
    assert F.max_pool1d(seq(1, 1, 6), 3, 2, 1, return_indices=True)[1].tolist() == [[[1, 3, 5]]]
    assert F.max_pool2d(torch.empty(2, 3, 8, 8, device='meta'), 2).shape == (2, 3, 4, 4)


def test_avg_pool_options():
    x = seq(1, 1, 4, 4)
    assert F.avg_pool2d(x, 2).tolist() == [[[[2.5, 4.5], [10.5, 12.5]]]]
    # padding counted in the divisor, or not; a divisor of one's own
    assert F.avg_pool2d(x, 2, 2, 1)[0, 0, 0, 0].item() == 0.0 / 4
    assert F.avg_pool2d(x, 2, 2, 1, count_include_pad=False)[0, 0, 0].tolist() == [0.0, 1.5, 3.0]
    assert F.avg_pool2d(x, 2, divisor_override=1).tolist() == [[[[10, 18], [42, 50]]]]
    assert F.avg_pool2d(seq(1, 1, 4, 4, dtype=torch.int64), 2).tolist() == [[[[2, 4], [10, 12]]]]
    assert F.avg_pool2d(x, 3, 2, ceil_mode=True).shape == (1, 1, 2, 2)
    assert F.avg_pool1d(seq(1, 1, 6), 3).tolist() == [[[1.0, 4.0]]]
    assert F.avg_pool1d(seq(1, 1, 5), 2, 2, 1, count_include_pad=False).tolist() == [[[0.0, 1.5, 3.5]]]
    with pytest.raises(RuntimeError, match='divisor must be not zero'):
        F.avg_pool2d(x, 2, divisor_override=0)


def test_adaptive_pools():
    x = seq(1, 1, 5, 5)
    # windows [floor(i*5/3), ceil((i+1)*5/3)) = [0,2), [1,4), [3,5)
    assert F.adaptive_avg_pool2d(x, 3)[0, 0, 0].tolist() == [3.0, 4.5, 6.0]
    assert F.adaptive_max_pool2d(x, 3, return_indices=True)[1][0, 0].tolist() == [[6, 8, 9], [16, 18, 19],
                                                                                  [21, 23, 24]]
    assert F.adaptive_avg_pool2d(x, (None, 1)).shape == (1, 1, 5, 1)
    assert F.adaptive_avg_pool2d(x, 1).item() == 12.0
    assert type(F.adaptive_avg_pool2d(x.requires_grad_(), 1).grad_fn).__name__ == 'MeanBackward1'
    assert F.adaptive_avg_pool1d(seq(1, 1, 6), 4).tolist() == [[[0.5, 1.5, 3.5, 4.5]]]  # windows [0,2) [1,3) [3,5) [4,6)
    assert F.adaptive_max_pool1d(seq(1, 1, 6), 4).tolist() == [[[1.0, 2.0, 4.0, 5.0]]]
    assert F.adaptive_avg_pool2d(torch.ones(2, 3, 4, 4), 0).shape == (2, 3, 0, 0)
    with pytest.raises(RuntimeError, match='non-zero size for non-batch'):
        F.adaptive_avg_pool2d(torch.ones(2, 3, 0, 4), 2)


@pytest.mark.parametrize('call, message', [
    (lambda: F.max_pool2d(torch.ones(2, 3, 6, 6), 2, padding=2), 'pad should be at most half'),
    (lambda: F.max_pool2d(torch.ones(2, 3, 6, 6), 7), 'Output size is too small'),
    (lambda: F.max_pool2d(torch.ones(6, 6), 2), 'non-empty 3D or 4D'),
    (lambda: F.max_pool2d(torch.ones(2, 3, 6, 6), (2, 2, 2)), 'kernel_size must either be'),
    (lambda: F.max_pool2d(torch.ones(2, 3, 6, 6), 2, dilation=0), 'dilation should be greater than zero'),
    (lambda: F.max_pool1d(torch.ones(2, 6), 0), 'kernel_size must be greater than zero'),
    (lambda: F.avg_pool2d(torch.ones(2, 3, 6, 6), 2, stride=(1, 2, 3)), 'stride must either be omitted'),
    (lambda: F.avg_pool1d(torch.ones(2, 3, 6, 6), 2), 'Expected 2 to 3 dimensions'),
    (lambda: F.adaptive_avg_pool2d(torch.ones(2, 3, 6, 6), -1), 'greater than or equal to 0'),
    (lambda: F.max_pool2d(torch.ones(2, 3, 6, 6, dtype=torch.int64), 2), 'not implemented for'),
])
def test_pool_errors(call, message):
    with pytest.raises(RuntimeError, match=message):
        call()


def test_pool_gradients():
    x = seq(1, 1, 4, 4, dtype=torch.float64).requires_grad_()
    F.max_pool2d(x, 2).sum().backward()
    assert x.grad[0, 0].tolist() == [[0, 0, 0, 0], [0, 1, 0, 1], [0, 0, 0, 0], [0, 1, 0, 1]]
    x.grad = None
    F.avg_pool2d(x, 2).sum().backward()
    assert x.grad.min().item() == x.grad.max().item() == 0.25
    x.grad = None
    F.max_pool2d(x, 3, 1).sum().backward()  # overlapping windows add up at a shared maximum
    assert x.grad[0, 0, 3, 3].item() == 1 and x.grad.sum().item() == 4
    idx = torch.ops.aten.max_pool2d_with_indices(x.detach(), [2, 2])[1]
    with pytest.raises(RuntimeError, match='out of range'):
        torch.ops.aten.max_pool2d_with_indices_backward(torch.ones(1, 1, 2, 2, dtype=torch.float64), x.detach(),
                                                        [2, 2], [2, 2], [0, 0], [1, 1], False, idx + 100)


# ---- normalisation ---------------------------------------------------------------------------------

def test_batch_norm_training_updates_running_stats():
    x = torch.tensor([[1.0, 10.0], [3.0, 20.0], [5.0, 30.0], [7.0, 40.0]])
    rm, rv = torch.zeros(2), torch.ones(2)
    y = F.batch_norm(x, rm, rv, training=True, momentum=0.25, eps=0.0)
    mean, var_biased, var_unbiased = [4.0, 25.0], [5.0, 125.0], [20 / 3, 500 / 3]
    for c in range(2):
        for n in range(4):
            assert abs(y[n, c].item() - (x[n, c].item() - mean[c]) / math.sqrt(var_biased[c])) < 1e-6
        assert abs(rm[c].item() - 0.25 * mean[c]) < 1e-6
        assert abs(rv[c].item() - (0.75 + 0.25 * var_unbiased[c])) < 1e-4
    # evaluation uses the running statistics, and weight and bias
    y = F.batch_norm(x, torch.tensor([1.0, 2.0]), torch.tensor([4.0, 9.0]), torch.tensor([2.0, 3.0]),
                     torch.tensor([0.5, -1.0]), eps=0.0)
    assert y[0].tolist() == [0.5 + 2 * (1 - 1) / 2, -1 + 3 * (10 - 2) / 3]
    # non-contiguous running stats are written in place through their strides
    stats = torch.zeros(2, 2)
    F.batch_norm(x, stats[:, 0], torch.ones(2), training=True, momentum=1.0)
    assert stats[:, 0].tolist() == mean and stats[:, 1].tolist() == [0.0, 0.0]


def test_layer_group_instance_norm_closed_forms():
    x = torch.tensor([[1.0, 2.0, 3.0, 4.0], [2.0, 4.0, 2.0, 6.0]])
    y = F.layer_norm(x, (4,), eps=0.0)
    assert close(y[0], torch.tensor([-3, -1, 1, 3]) / math.sqrt(5.0))
    assert close(y[1], torch.tensor([-1.5, 0.5, -1.5, 2.5]) / math.sqrt(2.75))
    y = F.layer_norm(x, (4,), torch.tensor([1.0, 2.0, 3.0, 4.0]), torch.ones(4), eps=0.0)
    assert close(y[0], torch.tensor([-3, -2, 3, 12]) / math.sqrt(5.0) + 1)
    g = F.group_norm(x.view(2, 4, 1), 2, eps=0.0)  # groups of 2 channels: each pair normalised to -1, 1
    assert g.view(2, 4).tolist() == [[-1, 1, -1, 1], [-1, 1, -1, 1]]
    i = F.instance_norm(x.view(1, 2, 4), eps=0.0)
    assert close(i.view(2, 4), F.layer_norm(x, (4,), eps=0.0))
    assert F.layer_norm(torch.ones(0, 3), (3,)).shape == (0, 3)
    mean, rstd = torch.native_layer_norm(x, [4], None, None, 0.0)[1:]
    assert mean.shape == (2, 1) and mean.view(-1).tolist() == [2.5, 3.5]
    # the middle channel's window holds three ones: divided by 0 + 3 * mean(1, 1, 1)
    assert F.local_response_norm(torch.ones(1, 3, 2), 3, alpha=3.0, beta=1.0, k=0.0)[0, 1].tolist() == \
        pytest.approx([1 / 3, 1 / 3])


@pytest.mark.parametrize('call, error, message', [
    (lambda: F.batch_norm(torch.ones(2, 3), torch.zeros(4), torch.ones(4)), RuntimeError, 'should contain 3 elements'),
    (lambda: F.batch_norm(torch.ones(2, 3), None, None), RuntimeError, 'must be defined in evaluation mode'),
    (lambda: F.batch_norm(torch.ones(1, 3), None, None, training=True), ValueError, 'more than 1 value per channel'),
    (lambda: F.layer_norm(torch.ones(2, 3), (4,)), RuntimeError, 'expected input with shape'),
    (lambda: F.layer_norm(torch.ones(2, 3), (3,), torch.ones(4)), RuntimeError, 'weight to be of same shape'),
    (lambda: F.group_norm(torch.ones(2, 3, 4), 2), RuntimeError, 'divisible by num_groups'),
    (lambda: F.instance_norm(torch.ones(2, 3, 1)), ValueError, 'more than 1 spatial element'),
    (lambda: F.batch_norm(torch.ones(2, 3).half(), torch.zeros(3).half(), torch.ones(3).half()), RuntimeError,
     'not implemented for'),
])
def test_norm_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_norm_gradients():
    x = seq(4, 2, dtype=torch.float64).sin().requires_grad_()
    w = torch.tensor([1.5, -0.5], dtype=torch.float64, requires_grad=True)
    y = F.batch_norm(x, None, None, w, None, training=True)
    assert type(y.grad_fn).__name__ == 'NativeBatchNormBackward0'
    y.sum().backward()
    # the normalised values sum to 0 per channel: d sum / d x = 0, d sum / d weight = 0
    assert x.grad.abs().max().item() < 1e-9 and w.grad.abs().max().item() < 1e-9
    assert torch.autograd.gradcheck(lambda a, b: F.group_norm(a, 2, b), (seq(2, 4, 3, dtype=torch.float64).sin()
                                                                        .requires_grad_(), torch.tensor([1.5, -0.5, 1.5, -0.5], dtype=torch.float64)
                                                                        .requires_grad_()))


# ---- embeddings ------------------------------------------------------------------------------------

def test_embedding_lookup_padding_and_max_norm():
    w = seq(5, 3)
    assert F.embedding(torch.tensor([[4, 0], [2, 2]]), w).tolist() == [[[12, 13, 14], [0, 1, 2]],
                                                                       [[6, 7, 8], [6, 7, 8]]]
    assert F.embedding(torch.tensor(3), w).tolist() == [9, 10, 11]
    assert F.embedding(torch.tensor([], dtype=torch.long), w).shape == (0, 3)
    # padding rows are read as they are but get no gradient
    w.requires_grad_()
    F.embedding(torch.tensor([1, 2, 1]), w, padding_idx=1).sum().backward()
    assert w.grad.sum(1).tolist() == [0, 0, 3, 0, 0]
    # rows the indices name are renormalised in place to max_norm
    v = torch.tensor([[3.0, 4.0], [0.3, 0.4]])
    out = F.embedding(torch.tensor([0, 1]), v, max_norm=1.0)
    assert close(v[0], torch.tensor([0.6, 0.8]), 1e-6) and v[1].tolist() == pytest.approx([0.3, 0.4])
    assert close(out, v)
    with pytest.raises(IndexError, match='index out of range'):
        F.embedding(torch.tensor([5]), w)
    with pytest.raises(RuntimeError, match="'weight' must be 2-D"):
        F.embedding(torch.tensor([1]), torch.ones(4))


def test_embedding_bag_modes():
    w = seq(5, 2)
    idx, off = torch.tensor([0, 1, 4, 2]), torch.tensor([0, 1, 1])
    # bags [0], [], [1, 4, 2] of rows [2i, 2i + 1]
    assert F.embedding_bag(idx, w, off, mode='sum').tolist() == [[0, 1], [0, 0], [14, 17]]
    assert close(F.embedding_bag(idx, w, off, mode='mean'), torch.tensor([[0, 1], [0, 0], [14 / 3, 17 / 3]]))
    assert F.embedding_bag(idx, w, off, mode='max').tolist() == [[0, 1], [0, 0], [8, 9]]
    assert F.embedding_bag(idx, w, off, mode='sum', per_sample_weights=torch.tensor([1.0, 2.0, 0.5, -1.0])) \
        .tolist() == [[0, 1], [0, 0], [4 + 4 - 4, 6 + 4.5 - 5]]
    assert F.embedding_bag(torch.tensor([[0, 1], [4, 2]]), w).tolist() == [[1, 2], [6, 7]]
    assert close(F.embedding_bag(idx, w, torch.tensor([0, 1, 4]), include_last_offset=True),
                 torch.tensor([[0, 1], [14 / 3, 17 / 3]]))
    assert F.embedding_bag(idx, w, off, mode='mean', padding_idx=4).tolist() == [[0, 1], [0, 0], [3, 4]]
    w.requires_grad_()
    F.embedding_bag(idx, w, off, mode='max').sum().backward()
    assert w.grad.tolist() == [[1, 1], [0, 0], [0, 0], [0, 0], [1, 1]]
    with pytest.raises(ValueError, match='mode has to be one of'):
        F.embedding_bag(idx, w, off, mode='median')
    with pytest.raises(NotImplementedError, match="only supported for mode='sum'"):
        F.embedding_bag(idx, w, off, per_sample_weights=torch.ones(4))
    with pytest.raises(RuntimeError, match='offsets\\[0\\] has to be 0'):
        F.embedding_bag(idx, w.detach(), torch.tensor([1, 2]))


def test_one_hot():
    assert F.one_hot(torch.tensor([2, 0])).tolist() == [[0, 0, 1], [1, 0, 0]]
    assert F.one_hot(torch.tensor([[1]]), 3).tolist() == [[[0, 1, 0]]]
    assert F.one_hot(torch.tensor([], dtype=torch.long), 4).shape == (0, 4)
    for bad, message in [(torch.tensor([1, -1]), 'non-negative'), (torch.tensor([1.0]), 'index tensor')]:
        with pytest.raises(RuntimeError, match=message):
            F.one_hot(bad)
    with pytest.raises(RuntimeError, match='smaller than num_classes'):
        F.one_hot(torch.tensor([3]), 3)


# ---- resampling and padding ------------------------------------------------------------------------

def test_interpolate_nearest_and_linear():
    x = seq(1, 1, 2, 2)
    assert F.interpolate(x, scale_factor=2).tolist() == [[[[0, 0, 1, 1], [0, 0, 1, 1], [2, 2, 3, 3], [2, 2, 3, 3]]]]
    assert F.interpolate(x, size=(2, 3))[0, 0].tolist() == [[0, 0, 1], [2, 2, 3]]
    # align_corners: the corners map onto the corners, the rest in between
    assert F.interpolate(x, size=3, mode='bilinear', align_corners=True)[0, 0].tolist() == \
        [[0, 0.5, 1], [1, 1.5, 2], [2, 2.5, 3]]
    # half-pixel centres: out (i + .5) * in / out - .5, clamped at 0
    assert F.interpolate(x, size=4, mode='bilinear')[0, 0, 0].tolist() == [0, 0.25, 0.75, 1]
    assert F.interpolate(seq(1, 1, 3), size=5, mode='linear', align_corners=True).tolist() == \
        [[[0, 0.5, 1, 1.5, 2]]]
    assert F.interpolate(seq(1, 1, 4, 4), size=2, mode='area').tolist() == F.avg_pool2d(seq(1, 1, 4, 4), 2).tolist()
    assert F.interpolate(torch.empty(1, 2, 3, 3, device='meta'), scale_factor=2).shape == (1, 2, 6, 6)
    for call, error in [(lambda: F.interpolate(x, mode='bilinear'), ValueError),
                        (lambda: F.interpolate(x, size=2, align_corners=True), ValueError),
                        (lambda: F.interpolate(x, size=0), RuntimeError),
                        (lambda: F.interpolate(x[0], size=2, mode='bilinear'), NotImplementedError)]:
        with pytest.raises(error):
            call()
    g = seq(1, 1, 2, 2, dtype=torch.float64).requires_grad_()
    F.interpolate(g, scale_factor=3).sum().backward()
    assert g.grad.min().item() == g.grad.max().item() == 9


def test_pixel_shuffle_and_fold():
    x = seq(1, 4, 1, 2)
    y = F.pixel_shuffle(x, 2)
    assert y.tolist() == [[[[0, 2, 1, 3], [4, 6, 5, 7]]]]
    assert F.pixel_unshuffle(y, 2).tolist() == x.tolist()
    cols = F.unfold(seq(1, 1, 3, 3), 2)
    assert cols.tolist() == [[[0, 1, 3, 4], [1, 2, 4, 5], [3, 4, 6, 7], [4, 5, 7, 8]]]
    # folding the columns back adds every element once per window that saw it
    assert F.fold(cols, (3, 3), 2).tolist() == [[[[0, 2, 2], [6, 16, 10], [6, 14, 8]]]]
    with pytest.raises(RuntimeError, match='divisible by the square of upscale_factor'):
        F.pixel_shuffle(torch.ones(1, 3, 2, 2), 2)


def test_pad_modes():
    x = seq(1, 1, 1, 3)
    assert F.pad(x, (2, 1)).tolist() == [[[[0, 0, 0, 1, 2, 0]]]]
    assert F.pad(x, (2, 1), value=-1.0).tolist() == [[[[-1, -1, 0, 1, 2, -1]]]]
    assert F.pad(x, (2, 1, 0, 0), mode='reflect').tolist() == [[[[2, 1, 0, 1, 2, 1]]]]
    assert F.pad(x, (2, 1, 0, 0), mode='replicate').tolist() == [[[[0, 0, 0, 1, 2, 2]]]]
    assert F.pad(x, (2, 1, 0, 0), mode='circular').tolist() == [[[[1, 2, 0, 1, 2, 0]]]]
    assert F.pad(x, (-1, 1, 0, 0), mode='circular').tolist() == [[[[1, 2, 1]]]]  # cropped, then wrapped
    assert F.pad(x, (-1, 0)).tolist() == [[[[1, 2]]]]
    assert F.pad(seq(2, 3), (1, 1), mode='reflect').tolist() == [[1, 0, 1, 2, 1], [4, 3, 4, 5, 4]]
    assert F.pad(seq(1, 1, 2, 2, 2), (0, 0, 0, 0, 1, 1), mode='replicate').shape == (1, 1, 4, 2, 2)
    for call, error, message in [
            (lambda: F.pad(x, (3, 0, 0, 0), mode='reflect'), RuntimeError, 'less than the corresponding input'),
            (lambda: F.pad(x, (1, 1, 1, 1), mode='reflect', value=2), RuntimeError, "doesn't take in value"),
            (lambda: F.pad(x, (1, 1), mode='wrap'), NotImplementedError, 'Unrecognised padding mode'),
            (lambda: F.pad(x, (1, 1, 1)), RuntimeError, 'divisible by 2'),
            (lambda: F.pad(x, (4, 0, 0, 0), mode='circular'), RuntimeError, 'wrapping around more than once')]:
        with pytest.raises(error, match=message):
            call()
    g = seq(1, 1, 1, 3, dtype=torch.float64).requires_grad_()
    F.pad(g, (2, 1, 0, 0), mode='reflect').sum().backward()
    assert g.grad.tolist() == [[[[1, 3, 2]]]]  # read as [2, 1, 0, 1, 2, 1]


def test_linear_and_bilinear():
    x, w, b = seq(2, 3), seq(4, 3), torch.tensor([1.0, 0.0, -1.0, 0.5])
    y = F.linear(x, w, b)
    assert y.tolist() == [[(x[i] * w[o]).sum().item() + b[o].item() for o in range(4)] for i in range(2)]
    assert F.linear(seq(2, 5, 3), w).shape == (2, 5, 4)
    assert F.linear(seq(3), w, b).shape == (4,)
    out = torch.empty(0)
    assert torch.linear(x, w, b, out=out) is out and out.tolist() == y.tolist()
    bw = seq(2, 3, 2)
    x2 = torch.tensor([[1.0, -1.0], [0.5, 2.0]])
    z = F.bilinear(x, x2, bw, torch.tensor([1.0, 2.0]))
    for n in range(2):
        for o in range(2):
            expect = sum(x[n, i] * bw[o, i, j] * x2[n, j] for i in range(3) for j in range(2)).item() + [1, 2][o]
            assert abs(z[n, o].item() - expect) < 1e-4
    with pytest.raises(RuntimeError, match='mat1 and mat2 shapes cannot be multiplied'):
        F.linear(x, seq(4, 2))
    with pytest.raises(RuntimeError, match='input1 size does not match weight size'):
        F.bilinear(x, x2, seq(2, 2, 2))


def test_out_variants_and_in_place_renorm():
    x = seq(1, 1, 4, 4)
    out = torch.empty(0)
    assert torch.avg_pool2d(x, 2, out=out) is out and out.tolist() == [[[[2.5, 4.5], [10.5, 12.5]]]]
    out = torch.empty(2)
    with pytest.warns(UserWarning, match='was resized'):
        torch.reflection_pad2d(x, [1, 1, 1, 1], out=out)
    assert out.shape == (1, 1, 6, 6)
    a, b, c = torch.empty(0), torch.empty(0), torch.empty(0)
    torch.native_layer_norm(x, [4], None, None, 1e-5, out=(a, b, c))
    assert b.shape == (1, 1, 4, 1) and b.view(-1).tolist() == [1.5, 5.5, 9.5, 13.5]
    w = torch.tensor([[3.0, 4.0], [1.0, 0.0]])
    r = torch.embedding_renorm_(w, torch.tensor([0, 0]), 2.5, 2.0)
    assert r is w and close(w[0], torch.tensor([1.5, 2.0]), 1e-6) and w[1].tolist() == [1.0, 0.0]
    with pytest.raises(RuntimeError, match="don't support automatic differentiation"):
        torch.avg_pool2d(x.requires_grad_(), 2, out=torch.empty(0))
