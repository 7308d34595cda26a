"""gradcheck and gradgradcheck over every differentiable op of the op table.

The ops come from the table itself (torch._C._op_autograd): an op added with float outputs but
without a derivative formula, or with a formula but no way to sample its arguments here, fails this
suite. Ops whose arguments are all tensors (or have defaults) are sampled automatically; the others
have their arguments in SAMPLES (the linear algebra ones in autograd_samples_linalg.py).
"""
import random

import pytest
import torch
from torch.autograd import gradcheck, gradgradcheck

import autograd_samples_linalg
import autograd_samples_reductions
import autograd_samples_indexing
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


def C(*shape, low=0.5, high=1.5):
    """A complex128 tensor whose real and imaginary parts are distinct values in [low, high]."""
    return torch.complex(T(*shape, low=low, high=high, requires_grad=False),
                         T(*shape, low=low, high=high, requires_grad=False)).requires_grad_(True)


def mixed(*shape):
    return T(*shape, low=-1.5, high=1.5)


# qualified op name -> a function giving [(args, kwargs), ...]
SAMPLES = {
    'remainder.Tensor': lambda: [((T(2, 3, low=2.2, high=2.8), T(2, 3, low=0.95, high=1.05)), {})],
    'abs': lambda: [((mixed(2, 3),), {}), ((C(2, 3, low=-1.5),), {})],
    'relu': lambda: [((mixed(2, 3),), {})],
    'neg': lambda: [((mixed(2, 3),), {})],
    'sin': lambda: [((mixed(2, 3),), {}), ((C(2, 3, low=-1),), {})],
    'cos': lambda: [((mixed(2, 3),), {}), ((C(2, 3, low=-1),), {})],
    'tanh': lambda: [((mixed(2, 3),), {}), ((C(2, 3, low=-1),), {})],
    'sigmoid': lambda: [((mixed(2, 3),), {}), ((C(2, 3, low=-1),), {})],
    'exp': lambda: [((mixed(2, 3),), {}), ((C(2, 3, low=-1),), {})],
    'add.Tensor': lambda: [((T(2, 3), T(3)), {}), ((T(2, 3), T(2, 3)), {'alpha': 2.5}),
                           ((C(2, 3), C(3)), {'alpha': 0.5 - 2j}), ((T(2, 3), C(2, 3)), {})],
    'sub.Tensor': lambda: [((T(2, 3), T(1, 3)), {}), ((T(2, 3), T(2, 3)), {'alpha': -0.5}),
                           ((C(2, 3), C(2, 3)), {'alpha': 1j})],
    'mul.Tensor': lambda: [((T(2, 3), T(3)), {}), ((T(2, 3), T(2, 3)), {}), ((C(2, 3), C(3)), {}),
                           ((C(2, 3), T(2, 3)), {})],
    'div.Tensor': lambda: [((T(2, 3), T(2, 1)), {}), ((C(2, 3), C(2, 1)), {}), ((T(2, 3), C(3)), {})],
    # a rounding mode makes the derivative zero; without one it is div's
    'div.Tensor_mode': lambda: [((T(2, 3), T(2, 1)), {'rounding_mode': None}),
                                ((T(2, 3), T(2, 1)), {'rounding_mode': 'floor'}),
                                ((T(2, 3), T(3)), {'rounding_mode': 'trunc'})],
    'divide.Tensor_mode': lambda: [((T(2, 3), T(2, 1)), {'rounding_mode': None}),
                                   ((T(2, 3), T(2, 1)), {'rounding_mode': 'floor'})],
    # in place, a complex result cannot go into a real tensor
    'add_.Tensor': lambda: [((T(2, 3), T(3)), {}), ((C(2, 3), C(3)), {'alpha': 0.5 - 2j}), ((C(2, 3), T(3)), {})],
    'div_.Tensor': lambda: [((T(2, 3), T(2, 1)), {}), ((C(2, 3), C(2, 1)), {})],
    'abs_': lambda: [((mixed(2, 3),), {})],
    'log': lambda: [((T(2, 3),), {}), ((C(2, 3, low=-1),), {})],
    'sqrt': lambda: [((T(2, 3),), {}), ((C(2, 3),), {})],
    'pow.Tensor_Tensor': lambda: [((T(2, 3), T(2, 3)), {}), ((C(2, 3), C(2, 3)), {}), ((C(2, 3), T(3)), {})],
    'sum.dim_IntList': lambda: [((T(2, 3), [1]), {}), ((T(2, 3), [0, 1], True), {}), ((T(2, 3, 4), [-1, 0]), {})],
    'sum': lambda: [((T(2, 3),), {}), ((T(),), {}), ((C(2, 3),), {})],
    'mean': lambda: [((T(2, 3),), {}), ((C(2, 3),), {})],
    'mean.dim': lambda: [((T(2, 3), [1]), {}), ((T(2, 3, 2), [0, 2], True), {})],
    'max.dim': lambda: [((T(2, 3), 1), {}), ((T(2, 3), 0, True), {})],
    'min.dim': lambda: [((T(2, 3), 1), {}), ((T(2, 3), 0, True), {})],
    'mm': lambda: [((T(2, 3), T(3, 4)), {}), ((C(2, 3), C(3, 4)), {})],
    'bmm': lambda: [((T(2, 2, 3), T(2, 3, 4)), {}), ((C(2, 2, 3), C(2, 3, 4)), {})],
    'matmul': lambda: [((T(3), T(3)), {}), ((T(2, 3), T(3)), {}), ((T(3), T(3, 2)), {}), ((T(2, 3), T(3, 2)), {}),
                       ((T(2, 2, 3), T(3, 2)), {}), ((T(2, 2, 3), T(2, 3, 2)), {})],
    'copy_': lambda: [((T(2, 3), T(3)), {})],
    'fill_.Scalar': lambda: [((T(2, 3), 2.5), {})],
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
    'repeat_backward': lambda: [((T(4, 3), [2, 1], [2, 3]), {}), ((T(2, 4, 3), [2, 2, 1], [2, 3]), {})],
    '_sum_backward': lambda: [((T(3), [2, 3], [0], False), {}), ((T(1, 3), [2, 3], [0], True), {}),
                              ((T(), [2, 3], None, False), {})],
    'select_backward': lambda: [((T(4), [3, 4], 0, 1), {})],
    'slice_backward': lambda: [((T(2, 4), [5, 4], 0, 1, 4, 2), {})],
    'value_selecting_reduction_backward': lambda: [((T(2), 1, L([0, 2]), [2, 3], False), {}),
                                                   ((T(2, 1), 1, L([[1], [0]]), [2, 3], True), {})],
    '_as_strided_backward': lambda: [((T(2, 2), [3, 3], [3, 1], 0, [2, 2], [1, 2], 1), {}),
                                     ((T(2, 3), [4], [1], 0, [2, 3], [1, 0], 0), {})],
    # complex numbers
    'view_as_real': lambda: [((C(2, 3),), {})],
    'view_as_complex': lambda: [((T(3, 2),), {})],
    'real': lambda: [((C(2, 3),), {}), ((T(2, 3),), {})],
    'imag': lambda: [((C(2, 3),), {})],
    'conj': lambda: [((C(2, 3),), {}), ((T(2, 3),), {})],
    '_conj': lambda: [((C(2, 3),), {})],
    'resolve_conj': lambda: [((C(2, 3),), {})],
    'conj_physical': lambda: [((C(2, 3),), {}), ((T(2, 3),), {})],
    '_conj_physical': lambda: [((C(2, 3),), {})],
    'complex': lambda: [((T(2, 3), T(3)), {})],
    'polar': lambda: [((T(2, 3), mixed(2, 3)), {})],
    'angle': lambda: [((C(2, 3, low=-1.5),), {}), ((mixed(2, 3),), {})],
    'to.dtype': lambda: [((T(2, 3), torch.float64), {}), ((T(2, 3), torch.complex128), {}),
                         ((C(2, 3), torch.float64), {})],
    # random ops: their formulas are zeros (checked, not gradchecked: every call draws anew)
    'geometric_': lambda: [((T(2, 3), 0.5), {})],
    'random_.from': lambda: [((T(2, 3), 1, 5), {})],
    'random_.to': lambda: [((T(2, 3), 5), {})],
    'bernoulli_.Tensor': lambda: [((T(2, 3), T(2, 3, low=0.1, high=0.9)), {})],
    'bernoulli': lambda: [((T(2, 3, low=0.1, high=0.9),), {})],
    'bernoulli.p': lambda: [((T(2, 3), 0.5), {})],
    'normal.float_Tensor': lambda: [((0.5, T(2, 3)), {})],
    # dropout: only the deterministic cases (p = 0 or 1, or not training) can be gradchecked
    'dropout': lambda: [((T(2, 3), 0.0, True), {}), ((T(2, 3), 0.5, False), {}), ((T(2, 3), 1.0, True), {})],
    'feature_dropout': lambda: [((T(2, 3, 2), 0.5, False), {}), ((T(2, 3, 2), 1.0, True), {})],
    'alpha_dropout': lambda: [((T(2, 3), 0.5, False), {}), ((T(2, 3), 1.0, True), {})],
    'feature_alpha_dropout': lambda: [((T(2, 3, 2), 0.5, False), {}), ((T(2, 3, 2), 1.0, True), {})],
    'native_dropout': lambda: [((T(2, 3), 0.5, False), {}), ((T(2, 3), 1.0, True), {})],
    'native_dropout_backward': lambda: [((T(2, 3), torch.tensor([[True, False, True], [False, True, True]]), 2.0),
                                         {})],
}

SAMPLES.update(autograd_samples_linalg.samples(T, mixed))

# nn: convolution, pooling, normalisation, embedding, resampling, padding
def _pool_indices(x, *args):
    return torch.ops.aten.max_pool2d_with_indices(x.detach(), *args)[1]


def _stats(x, *norm_args):
    """save_mean, save_invstd (or mean, rstd) of a normalisation of x, not requiring grad."""
    return [t.detach() for t in norm_args[0](x.detach(), *norm_args[1:])[1:]]


SAMPLES.update({
    'convolution': lambda: [((T(2, 2, 4, 4), T(3, 2, 2, 3), T(3), [1, 1], [1, 0], [1, 1], False, [0, 0], 1), {}),
                            ((T(1, 4, 3, 3), T(4, 1, 2, 2), T(2), [2, 1], [0, 1], [1, 1], True, [1, 0], 2), {}),
                            ((T(2, 2, 5), T(2, 1, 2), None, [2], [1], [2], False, [0], 2), {})],
    '_convolution': lambda: [((T(1, 2, 4, 4), T(3, 2, 2, 2), T(3), [1, 1], [0, 0], [1, 1], False, [0, 0], 1, False,
                               False, True, True), {})],
    'convolution_backward': lambda: [((T(2, 3, 3, 2), T(2, 2, 4, 4), T(3, 2, 2, 3), [3], [1, 1], [0, 0], [1, 1], False,
                                       [0, 0], 1, [True, True, True]), {}),
                                      ((T(1, 2, 4, 4), T(1, 2, 3, 3), T(2, 1, 2, 2), None, [1, 1], [0, 0], [1, 1], True,
                                        [0, 0], 2, [True, True, False]), {})],
    '_convolution_double_backward': lambda: [
        ((T(1, 2, 4, 4), T(3, 2, 2, 3), T(3), T(1, 3, 3, 2), T(3, 2, 2, 3), T(1, 2, 4, 4), [1, 1], [0, 0], [1, 1],
          False, [0, 0], 1, [True, True, True]), {})],
    'conv1d': lambda: [((T(2, 2, 5), T(3, 2, 2), T(3)), {'stride': 2, 'padding': 1})],
    'conv1d.padding': lambda: [((T(2, 5), T(3, 2, 2)), {'padding': 'same'})],
    'conv2d': lambda: [((T(2, 2, 4, 4), T(2, 1, 3, 3)), {'groups': 2, 'dilation': (1, 2), 'padding': 2})],
    'conv2d.padding': lambda: [((T(1, 2, 3, 4), T(2, 2, 2, 3), T(2)), {'padding': 'same'}),
                               ((T(1, 2, 3, 4), T(2, 2, 2, 3)), {'padding': 'valid'})],
    'conv3d': lambda: [((T(1, 2, 3, 3, 3), T(2, 2, 2, 1, 2), T(2)), {'padding': (0, 1, 0)})],
    'conv3d.padding': lambda: [((T(1, 1, 2, 3, 3), T(1, 1, 1, 2, 2)), {'padding': 'same'})],
    'conv_transpose1d': lambda: [((T(2, 2, 4), T(2, 3, 2), T(3)), {'stride': 2, 'output_padding': 1})],
    'conv_transpose2d.input': lambda: [((T(1, 4, 2, 3), T(4, 1, 2, 2), T(2)), {'groups': 2, 'stride': (1, 2)})],
    'conv_transpose3d.input': lambda: [((T(1, 2, 2, 2, 2), T(2, 1, 2, 1, 2)), {'padding': (0, 0, 1)})],
    'max_pool2d_with_indices': lambda: [((T(2, 2, 5, 4), [2, 2], [2, 1], [1, 0], [1, 1], True), {}),
                                        ((T(2, 5, 5), [3, 2], [1, 2], [1, 1], [2, 1]), {})],
    'max_pool2d_with_indices_backward': lambda: [
        ((T(1, 2, 3, 2), T(1, 2, 5, 4, requires_grad=False), [2, 2], [2, 2], [1, 0], [1, 1], True,
          _pool_indices(T(1, 2, 5, 4), [2, 2], [2, 2], [1, 0], [1, 1], True)), {})],
    'max_pool_double_backward': lambda: [((T(2, 3, 4), L([[[0, 5], [11, 3]], [[2, 2], [7, 1]]]), 2), {})],
    'max_pool2d': lambda: [((T(1, 2, 4, 4), 2), {})],
    'max_pool1d_with_indices': lambda: [((T(2, 2, 5), 2, 1, 1), {})],
    'max_pool1d': lambda: [((T(2, 5), 3, 2), {})],
    'avg_pool2d': lambda: [((T(2, 2, 5, 4), [3, 2], [2, 1], [1, 1], True, False), {}),
                           ((T(2, 4, 4), [2, 2], [1, 2], [1, 0], False, True, 3), {})],
    'avg_pool2d_backward': lambda: [((T(1, 2, 3, 5), T(1, 2, 5, 4), [3, 2], [2, 1], [1, 1], True, False, None), {})],
    'avg_pool1d': lambda: [((T(2, 2, 5), 3, 2, 1), {})],
    'adaptive_avg_pool2d': lambda: [((T(2, 2, 5, 4), [3, 2]), {}), ((T(2, 3, 3), [1, 1]), {})],
    '_adaptive_avg_pool2d': lambda: [((T(2, 2, 5, 4), [3, 2]), {})],
    '_adaptive_avg_pool2d_backward': lambda: [((T(2, 2, 3, 2), T(2, 2, 5, 4)), {})],
    'adaptive_avg_pool1d': lambda: [((T(2, 2, 5), 3), {})],
    'adaptive_max_pool2d': lambda: [((T(2, 2, 5, 4), [3, 2]), {})],
    'adaptive_max_pool2d_backward': lambda: [
        ((T(1, 2, 3, 2), T(1, 2, 5, 4, requires_grad=False),
          torch.ops.aten.adaptive_max_pool2d(T(1, 2, 5, 4, requires_grad=False), [3, 2])[1]), {})],
    'adaptive_max_pool1d': lambda: [((T(2, 2, 5), 3), {})],
    'batch_norm': lambda: [((T(3, 2, 4, low=-2, high=2), T(2), T(2), None, None, True, 0.1, 1e-5, False), {}),
                           ((T(3, 2), T(2), T(2), T(2, requires_grad=False), T(2, requires_grad=False), False, 0.1,
                             1e-5, False), {})],
    'native_batch_norm': lambda: [
        ((T(3, 2, 4, requires_grad=False), T(2), T(2), None, None, True, 0.1, 1e-5), {}),
        ((T(3, 2, 4), T(2), T(2), T(2, requires_grad=False), T(2, requires_grad=False), False, 0.1, 1e-5), {})],
    'native_batch_norm_backward': lambda: [
        ((T(3, 2, 4), T(3, 2, 4, requires_grad=False), T(2), None, None,
          *_stats(T(3, 2, 4), torch.native_batch_norm, None, None, None, None, True, 0.1, 1e-5), True, 1e-5,
          [True, True, True]), {}),
        ((T(3, 2), T(3, 2), T(2), T(2, requires_grad=False), T(2, requires_grad=False), None, None, False, 1e-5,
          [True, True, False]), {})],
    'batchnorm_double_backward': lambda: [
        ((T(3, 2, 4, requires_grad=False), T(2), T(3, 2, 4), T(2), T(2), T(3, 2, 4), None, None, True, 1e-5,
          *_stats(T(3, 2, 4), torch.native_batch_norm, None, None, None, None, True, 0.1, 1e-5),
          [True, True, True]), {})],
    'instance_norm': lambda: [((T(2, 2, 3), T(2), T(2), None, None, True, 0.1, 1e-5, False), {})],
    'layer_norm': lambda: [((T(2, 2, 3), [3], T(3), T(3)), {}), ((T(2, 3), [2, 3]), {})],
    'native_layer_norm': lambda: [((T(2, 2, 3, requires_grad=False), [3], T(3), T(3), 1e-5), {})],
    'native_layer_norm_backward': lambda: [
        ((T(2, 3), T(2, 3, requires_grad=False), [3],
          *_stats(T(2, 3), torch.native_layer_norm, [3], None, None, 1e-5), T(3), T(3), [True, True, True]), {})],
    'layer_norm_double_backward': lambda: [
        ((T(2, 3, requires_grad=False), T(3), T(2, 3), T(3), T(3), T(2, 3),
          *_stats(T(2, 3), torch.native_layer_norm, [3], None, None, 1e-5), [3], [True, True, True]), {})],
    'group_norm': lambda: [((T(2, 4, 3), 2, T(4), T(4)), {})],
    'native_group_norm': lambda: [((T(2, 4, 3, requires_grad=False), T(4), T(4), 2, 4, 3, 2, 1e-5), {})],
    'native_group_norm_backward': lambda: [
        ((T(2, 4, 3), T(2, 4, 3, requires_grad=False),
          *_stats(T(2, 4, 3), torch.native_group_norm, None, None, 2, 4, 3, 2, 1e-5), T(4), 2, 4, 3, 2,
          [True, True, True]), {})],
    'group_norm_double_backward': lambda: [
        ((T(2, 4, 3, requires_grad=False), T(4), T(2, 4, 3), T(4), T(4), T(2, 4, 3),
          *_stats(T(2, 4, 3), torch.native_group_norm, None, None, 2, 4, 3, 2, 1e-5), 2, 4, 3, 2,
          [True, True, True]), {})],
    'embedding': lambda: [((T(4, 3), L([[1, 2], [0, 1]])), {}), ((T(4, 3), L([3, 0])), {'padding_idx': 1})],
    'embedding_backward': lambda: [((T(3, 2), L([1, 1, 3]), 4, -1, False, False), {})],
    'embedding_dense_backward': lambda: [((T(3, 2), L([1, 1, 3]), 4, 3, False), {}),
                                         ((T(3, 2), L([1, 1, 3]), 4, -1, True), {})],
    'embedding_dense_double_backward': lambda: [((T(4, 2), L([1, 1, 3]), 3, True), {})],
    'embedding_bag': lambda: [((T(4, 3), L([1, 2, 1, 0, 3]), L([0, 2])), {'mode': 1})],
    'embedding_bag.padding_idx': lambda: [((T(4, 3), L([1, 2, 1, 0, 3]), L([0, 2]), False, 0, False, None, False, 2),
                                           {})],
    '_embedding_bag': lambda: [((T(4, 3), L([1, 2, 1, 0, 3]), L([0, 2, 2])), {}),
                               ((T(4, 3), L([1, 2, 1, 0, 3]), L([0, 2])), {'mode': 2}),
                               ((T(4, 3), L([1, 2, 1, 0, 3]), L([0, 2]), False, 0, False,
                                 T(5, requires_grad=False)), {})],
    '_embedding_bag_backward': lambda: [
        ((T(2, 3), L([1, 2, 1, 0, 3]), L([0, 2]), L([0, 0, 1, 1, 1]), L([2, 3]), L([2, 3]), 4, False, 1, False, None),
         {})],
    '_embedding_bag_dense_backward': lambda: [
        ((T(2, 3), L([1, 2, 1, 0, 3]), L([0, 0, 1, 1, 1]), L([2, 3]), L([2, 3]), 4, False, 1, None), {}),
        ((T(2, 3), L([1, 2, 1, 0, 3]), L([0, 0, 1, 1, 1]), L([0, 0]), L([0, 0]), 4, False, 0,
          T(5, requires_grad=False)), {})],
    '_embedding_bag_dense_double_backward': lambda: [
        ((T(4, 3), L([1, 2, 1, 0, 3]), L([0, 0, 1, 1, 1]), L([2, 3]), L([[1, 2, 1], [0, 3, 3]]), False, 2, None, -1),
         {})],
    'one_hot': lambda: [((L([1, 2, 0]),), {})],
    'upsample_nearest1d.vec': lambda: [((T(1, 2, 3), None, [2.5]), {})],
    'upsample_nearest1d': lambda: [((T(1, 2, 3), [7]), {})],
    'upsample_nearest1d_backward.vec': lambda: [((T(1, 2, 7), [7], [1, 2, 3], None), {})],
    'upsample_nearest1d_backward': lambda: [((T(1, 2, 7), [7], [1, 2, 3]), {})],
    'upsample_nearest2d.vec': lambda: [((T(1, 2, 3, 3), None, [1.5, 2.0]), {})],
    'upsample_nearest2d': lambda: [((T(1, 2, 3, 3), [4, 5]), {})],
    'upsample_nearest2d_backward.vec': lambda: [((T(1, 2, 4, 6), None, [1, 2, 3, 3], [1.5, 2.0]), {})],
    'upsample_nearest2d_backward': lambda: [((T(1, 2, 4, 5), [4, 5], [1, 2, 3, 3]), {})],
    'upsample_linear1d.vec': lambda: [((T(2, 1, 3), None, False, [2.5]), {})],
    'upsample_linear1d': lambda: [((T(2, 1, 3), [5], True), {})],
    'upsample_linear1d_backward.vec': lambda: [((T(2, 1, 5), [5], [2, 1, 3], False, None), {})],
    'upsample_linear1d_backward': lambda: [((T(2, 1, 5), [5], [2, 1, 3], True), {})],
    'upsample_bilinear2d.vec': lambda: [((T(1, 2, 3, 3), [5, 4], False, None), {})],
    'upsample_bilinear2d': lambda: [((T(1, 2, 3, 3), [5, 4], True), {})],
    'upsample_bilinear2d_backward.vec': lambda: [((T(1, 2, 5, 4), [5, 4], [1, 2, 3, 3], False, None), {})],
    'upsample_bilinear2d_backward': lambda: [((T(1, 2, 5, 4), [5, 4], [1, 2, 3, 3], True), {})],
    'reflection_pad1d': lambda: [((T(2, 4), [2, 1]), {})],
    'reflection_pad1d_backward': lambda: [((T(2, 7), T(2, 4), [2, 1]), {})],
    'reflection_pad2d': lambda: [((T(1, 2, 3, 4), [1, 2, 2, 1]), {})],
    'reflection_pad2d_backward': lambda: [((T(1, 2, 6, 7), T(1, 2, 3, 4), [1, 2, 2, 1]), {})],
    'replication_pad1d': lambda: [((T(2, 3), [2, 1]), {})],
    'replication_pad1d_backward': lambda: [((T(2, 6), T(2, 3), [2, 1]), {})],
    'replication_pad2d': lambda: [((T(1, 2, 3, 4), [1, -1, 2, 1]), {})],
    'replication_pad2d_backward': lambda: [((T(1, 2, 6, 4), T(1, 2, 3, 4), [1, -1, 2, 1]), {})],
    'reflection_pad3d': lambda: [((T(1, 2, 3, 2, 3), [1, 2, 0, 1, 2, 1]), {})],
    'reflection_pad3d_backward': lambda: [((T(1, 2, 6, 3, 6), T(1, 2, 3, 2, 3), [1, 2, 0, 1, 2, 1]), {})],
    'replication_pad3d': lambda: [((T(2, 3, 2, 3), [1, 2, 0, 1, 2, 1]), {})],
    'replication_pad3d_backward': lambda: [((T(2, 6, 3, 6), T(2, 3, 2, 3), [1, 2, 0, 1, 2, 1]), {})],
    '_pad_circular': lambda: [((T(1, 2, 3, 4), [1, 2, 2, 1]), {})],
    '_pad_circular_backward': lambda: [((T(1, 2, 6, 7), T(1, 2, 3, 4), [1, 2, 2, 1]), {})],
    'pixel_shuffle': lambda: [((T(1, 8, 2, 1), 2), {})],
    'pixel_unshuffle': lambda: [((T(1, 1, 2, 4), 2), {})],
    'im2col': lambda: [((T(1, 2, 3, 4), [2, 2], [1, 1], [1, 0], [1, 2]), {})],
    'col2im': lambda: [((T(1, 8, 4), [3, 3], [2, 2], [1, 1], [0, 0], [1, 1]), {})],
    'linear': lambda: [((T(2, 3), T(4, 3), T(4)), {}), ((T(2, 2, 3), T(4, 3)), {}), ((T(3), T(4, 3), T(4)), {})],
    'bilinear': lambda: [((T(2, 3), T(2, 2), T(4, 3, 2), T(4)), {})],
    'constant_pad_nd': lambda: [((T(2, 3, 3), [1, -1, 2, 0], 1.5), {})],
    'constant_pad_nd_backward': lambda: [((T(2, 5, 3), [1, -1, 2, 0]), {})],
    'pad': lambda: [((T(2, 3, 3), [1, 1, 2, 0]), {'mode': 'reflect'}), ((T(2, 3), [1, 2]), {'value': 0.5})],
})



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
# the LSTM layer's backward (what its double backward runs) is checked to first order in reverse mode:
# forward mode through its recomputed graph gives zeros here (noted in docs/autograd.md)
FIRST_ORDER_ONLY = FIRST_ORDER_ONLY | {'_lstm_layer_backward'}
# the complex-to-real transforms (and the backward ops made of them): forward mode through the
# recomputed graph gives zeros where a complex intermediate turns real (noted in docs/fft.md); their
# reverse-mode first and second derivatives are checked (test_fft_reference.py, gradgradcheck there)
FIRST_ORDER_ONLY = FIRST_ORDER_ONLY | {'fft_r2c_backward', 'fft_c2r_backward', 'fft_irfft', 'fft_hfft', 'fft_irfft2',
                                       'fft_hfft2', 'fft_irfftn', 'fft_hfftn'}
# ops with a Generator that draw nothing in their samples (rrelu in eval mode: training=False)
DETERMINISTIC_SAMPLES = {'rrelu', 'rrelu_', 'rrelu_with_noise', 'rrelu_with_noise_'}
# random ops whose draws are differentiable in their parameters (implicit reparameterization: the
# derivative of a draw at a fixed value of its cdf); their gradient is another op, checked against it
REPARAMETERIZED = {'_standard_gamma': lambda args, out: torch._standard_gamma_grad(args[0], out)}

# Differentiable in PyTorch's sense but declared without a derivative (PyTorch raises too).
# composites whose floating results are constants for some samples (norm_backward's p = 0: zeros)
CONSTANT_RESULTS = {'norm_backward'}
NOT_IMPLEMENTED = {'floor_divide'} | autograd_samples_linalg.NOT_IMPLEMENTED
SAMPLES.update(autograd_samples_reductions.samples(T, mixed))
NOT_IMPLEMENTED |= autograd_samples_reductions.NOT_IMPLEMENTED
SAMPLES.update(autograd_samples_indexing.samples(T, mixed))
NOT_IMPLEMENTED |= autograd_samples_indexing.NOT_IMPLEMENTED
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
    if name in THROUGH_LOG_SOFTMAX:
        fn = (lambda f: lambda x, *rest, **kw: f(x.log_softmax(-1), *rest, **kw))(fn)
    for sample in samples_for(name, sample_name, info):
        args, kwargs = sample[:2]
        out = fn(*args, **kwargs)
        outs = out if isinstance(out, tuple) else (out,)
        float_outs = [o for o in outs if isinstance(o, torch.Tensor) and (o.dtype.is_floating_point or
                                                                          o.dtype.is_complex)]
        if not float_outs:
            continue  # integer or bool results: nothing to differentiate
        if not any(o.requires_grad for o in float_outs):
            assert kind == 'composite', '%s: a floating result that does not require grad' % name
            # a composite's parts must carry the graph (one writing into a fresh tensor had dropped it)
            assert not requiring(args) or name in CONSTANT_RESULTS, \
                '%s: its inputs require grad, its floating results do not' % name
            continue
        for o in float_outs:
            assert o.grad_fn is None or o.grad_fn.name() != 'NotImplemented', \
                '%s has no derivative formula (add one under it in core/ops.table)' % name
        if kind == 'formula':  # the first differentiable result carries the node (linalg_lu's P does not)
            first = next(o for o in float_outs if o.requires_grad)
            assert first.grad_fn is not None and (first.grad_fn.name() == node or info['name'].endswith('_'))
        if any(a[1] == GENERATOR for a in info['args']) and name not in DETERMINISTIC_SAMPLES:
            # a random op: every call draws anew, so no finite differences; its gradients are zeros, or
            # another op's for the reparameterized ones
            grads = torch.autograd.grad([o.sum() for o in float_outs if o.requires_grad], requiring(args),
                                        allow_unused=True)
            if name in REPARAMETERIZED:
                assert torch.allclose(grads[0], REPARAMETERIZED[name](args, float_outs[0]), equal_nan=True), name
            else:
                assert all(g is None or g.abs().sum().item() == 0 for g in grads), name
            continue

        # a sample's optional third item gives the function and inputs to check, for ops whose inputs
        # must keep a structure (symmetric, triangular) or whose outputs are unique only up to sign
        target, inputs = sample[2](fn, args, kwargs) if len(sample) > 2 else (lambda *xs: fn(*xs, **kwargs), args)

        # only differentiable results: a factorisation's LU beside its determinant is not one
        diff = [k for k, o in enumerate(outs) if isinstance(o, torch.Tensor)
                and (o.dtype.is_floating_point or o.dtype.is_complex) and o.requires_grad]

        def call(*xs):
            r = target(*xs)
            r = r if isinstance(r, tuple) else (r,)
            return tuple(r[k] for k in diff)

        # forward mode is checked for real tensors only (gradcheck's complex support is reverse mode)
        real = not any(isinstance(x, torch.Tensor) and x.dtype.is_complex for x in list(inputs) + float_outs)
        first_order_only = name in FIRST_ORDER_ONLY
        assert gradcheck(call, inputs, check_forward_ad=real and not first_order_only)
        if not first_order_only:
            assert gradgradcheck(call, inputs)


def test_no_op_lacks_a_formula():
    missing = [name for (i, name, info, kind, node, fa) in OPS if kind == 'missing']
    # ops that record a node raising "derivative ... not implemented" for float results must say so
    # in the table (`ARG: not_implemented`), as floor_divide does
    assert missing == [], 'ops without derivative formulas: %s' % missing
