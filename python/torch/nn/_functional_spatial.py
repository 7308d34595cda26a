"""Convolution, pooling, normalisation, embedding, resampling and padding (torch.nn.functional).

The numerics are ops of the op table (torch.<op>); what is here is PyTorch's own Python layer over
them: argument defaults and normalisation (None sizes, mode strings, negative padding indices), the
checks PyTorch makes in Python (with its exception types and messages), and the functions PyTorch
writes in Python (local_response_norm, interpolate, embedding_bag's argument handling).
"""
import math
import warnings

import torch
from torch import _C

__all__ = [
    'conv1d', 'conv2d', 'conv3d', 'conv_transpose1d', 'conv_transpose2d', 'conv_transpose3d',
    'avg_pool1d', 'avg_pool2d', 'max_pool1d', 'max_pool2d', 'max_pool1d_with_indices', 'max_pool2d_with_indices',
    'adaptive_avg_pool1d', 'adaptive_avg_pool2d', 'adaptive_max_pool1d', 'adaptive_max_pool2d',
    'adaptive_max_pool1d_with_indices', 'adaptive_max_pool2d_with_indices',
    'batch_norm', 'instance_norm', 'layer_norm', 'group_norm', 'local_response_norm',
    'embedding', 'embedding_bag', 'one_hot',
    'pad', 'interpolate', 'upsample', 'upsample_nearest', 'upsample_bilinear', 'pixel_shuffle', 'pixel_unshuffle',
    'unfold', 'fold', 'linear', 'bilinear',
]

# ---- builtins: PyTorch's functional forms are the ops themselves (from torch._C: the nn package is
# imported before torch exports the ops as its own attributes) ---------------------------------------

conv1d = _C.conv1d
conv2d = _C.conv2d
conv3d = _C.conv3d
conv_transpose1d = _C.conv_transpose1d
conv_transpose2d = _C.conv_transpose2d
conv_transpose3d = _C.conv_transpose3d
avg_pool1d = _C.avg_pool1d
avg_pool2d = _C.avg_pool2d
adaptive_avg_pool1d = _C.adaptive_avg_pool1d
one_hot = _C.one_hot
pixel_shuffle = _C.pixel_shuffle
pixel_unshuffle = _C.pixel_unshuffle
pad = _C.pad
linear = _C.linear
bilinear = _C.bilinear


def _pair(x):
    return tuple(x) if isinstance(x, (list, tuple)) else (x, x)


def _list_with_default(out_size, defaults):
    """An output size with None entries taken from the input's sizes."""
    if isinstance(out_size, int):
        return out_size
    if len(defaults) <= len(out_size):
        raise ValueError('Input dimension should be at least {}'.format(len(out_size) + 1))
    return [v if v is not None else d for v, d in zip(out_size, defaults[-len(out_size):])]


# ---- pooling --------------------------------------------------------------------------------------

def max_pool1d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):
    return torch.max_pool1d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    if return_indices:
        return max_pool1d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)
    return torch.max_pool1d(input, kernel_size, stride, padding, dilation, ceil_mode)


def max_pool2d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):
    return torch.max_pool2d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    if return_indices:
        return max_pool2d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)
    return torch.max_pool2d(input, kernel_size, stride, padding, dilation, ceil_mode)


def adaptive_max_pool1d_with_indices(input, output_size, return_indices=False):
    return torch.adaptive_max_pool1d(input, output_size)


def adaptive_max_pool1d(input, output_size, return_indices=False):
    if return_indices:
        return adaptive_max_pool1d_with_indices(input, output_size)
    return torch.adaptive_max_pool1d(input, output_size)[0]


def adaptive_max_pool2d_with_indices(input, output_size, return_indices=False):
    return torch.adaptive_max_pool2d(input, _list_with_default(output_size, input.size()))


def adaptive_max_pool2d(input, output_size, return_indices=False):
    if return_indices:
        return adaptive_max_pool2d_with_indices(input, output_size)
    return adaptive_max_pool2d_with_indices(input, output_size)[0]


def adaptive_avg_pool2d(input, output_size):
    return torch.adaptive_avg_pool2d(input, _list_with_default(output_size, input.size()))


# ---- normalisation --------------------------------------------------------------------------------

def _verify_batch_size(size):
    size_prods = size[0]
    for i in range(len(size) - 2):
        size_prods *= size[i + 2]
    if size_prods == 1:
        raise ValueError('Expected more than 1 value per channel when training, got input size {}'.format(size))


def _verify_spatial_size(size):
    size_prods = 1
    for i in range(2, len(size)):
        size_prods *= size[i]
    if size_prods == 1:
        raise ValueError('Expected more than 1 spatial element when training, got input size {}'.format(size))


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1, eps=1e-5):
    if training:
        _verify_batch_size(input.size())
    return torch.batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, False)


def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True,
                  momentum=0.1, eps=1e-5):
    if use_input_stats:
        _verify_spatial_size(input.size())
    return torch.instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps, False)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    return torch.layer_norm(input, normalized_shape, weight, bias, eps, False)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    _verify_batch_size([input.size(0) * input.size(1) // num_groups, num_groups] + list(input.size()[2:]))
    return torch.group_norm(input, num_groups, weight, bias, eps, False)


def local_response_norm(input, size, alpha=1e-4, beta=0.75, k=1.0):
    """Each element divided by (k + alpha * the mean of the squares of `size` neighbouring channels)
    ** beta; the channel windows are an average pooling over a padded channel axis."""
    dim = input.dim()
    if dim < 3:
        raise ValueError('Expected 3D or higher dimensionality                          input (got {} dimensions)'
                         .format(dim))
    if input.numel() == 0:
        return input
    div = input.mul(input).unsqueeze(1)
    if dim == 3:
        div = pad(div, (0, 0, size // 2, (size - 1) // 2))
        div = avg_pool2d(div, (size, 1), stride=1).squeeze(1)
    else:
        sizes = input.size()
        div = div.view(sizes[0], 1, sizes[1], -1)
        div = pad(div, (0, 0, size // 2, (size - 1) // 2))
        div = avg_pool2d(div, (size, 1), stride=1).squeeze(1)
        div = div.view(sizes)
    div = div.mul(alpha).add(k).pow(beta)
    return input / div


# ---- embeddings -----------------------------------------------------------------------------------

def _no_grad_embedding_renorm_(weight, input, max_norm, norm_type):
    with torch.no_grad():
        torch.embedding_renorm_(weight, input, max_norm, norm_type)


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False, sparse=False):
    if padding_idx is not None:
        if padding_idx > 0:
            assert padding_idx < weight.size(0), 'Padding_idx must be within num_embeddings'
        elif padding_idx < 0:
            assert padding_idx >= -weight.size(0), 'Padding_idx must be within num_embeddings'
            padding_idx = weight.size(0) + padding_idx
    else:
        padding_idx = -1
    if max_norm is not None:
        # the renormalisation writes weight in place where the indices point
        input = input.contiguous()
        _no_grad_embedding_renorm_(weight, input, max_norm, norm_type)
    return torch.embedding(weight, input, padding_idx, scale_grad_by_freq, sparse)


def embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2, scale_grad_by_freq=False, mode='mean',
                  sparse=False, per_sample_weights=None, include_last_offset=False, padding_idx=None):
    if weight.dtype == torch.long and input.is_floating_point():
        warnings.warn('Argument order of nn.functional.embedding_bag was changed. Usage `embedding_bag(weight, input, '
                      '...)` is deprecated, and should now be `embedding_bag(input, weight, ...)`.')
        weight, input = input, weight
    if per_sample_weights is not None and input.size() != per_sample_weights.size():
        raise ValueError('embedding_bag: If per_sample_weights ({}) is not None, then it must have the same shape as '
                         'the input ({})'.format(per_sample_weights.shape, input.shape))
    if weight.dim() != 2:
        raise ValueError('weight has to be a 2D Tensor, but got Tensor of dimension {}'.format(weight.dim()))
    if input.dim() == 2:
        if offsets is not None:
            type_str = str(type(offsets))
            raise ValueError('if input is 2D, then offsets has to be None, as input is treated is a mini-batch of fixed '
                             'length sequences. However, found offsets of type {}'.format(type_str))
        offsets = torch.arange(0, input.numel(), input.size(1), dtype=input.dtype, device=input.device)
        input = input.reshape(-1)
        if per_sample_weights is not None:
            per_sample_weights = per_sample_weights.reshape(-1)
    elif input.dim() == 1:
        if offsets is None:
            raise ValueError('offsets has to be a 1D Tensor but got None')
        if offsets.dim() != 1:
            raise ValueError('offsets has to be a 1D Tensor')
    else:
        raise ValueError('input has to be 1D or 2D Tensor, but got Tensor of dimension {}'.format(input.dim()))
    if mode == 'sum':
        mode_enum = 0
    elif mode == 'mean':
        mode_enum = 1
    elif mode == 'max':
        mode_enum = 2
        if scale_grad_by_freq:
            raise ValueError("max mode does not support scaling the gradient by the frequency")
        if sparse:
            raise ValueError("max mode does not support sparse weights")
    else:
        raise ValueError('mode has to be one of sum, mean or max')
    if max_norm is not None:
        _no_grad_embedding_renorm_(weight, input, max_norm, norm_type)
    if per_sample_weights is not None and mode != 'sum':
        raise NotImplementedError("embedding_bag: per_sample_weights was not None. per_sample_weights is only "
                                  "supported for mode='sum' (got mode='{}'). Please open a feature request on "
                                  "GitHub.".format(mode))
    if padding_idx is not None:
        if padding_idx > 0:
            assert padding_idx < weight.size(0), 'padding_idx must be within num_embeddings'
        elif padding_idx < 0:
            assert padding_idx >= -weight.size(0), 'padding_idx must be within num_embeddings'
            padding_idx = weight.size(0) + padding_idx
    else:
        padding_idx = -1
    ret, _, _, _ = torch.embedding_bag(weight, input, offsets, scale_grad_by_freq, mode_enum, sparse,
                                       per_sample_weights, include_last_offset, padding_idx)
    return ret


# ---- resampling ------------------------------------------------------------------------------------

_INTERPOLATE_MODES = 'nearest | linear | bilinear | bicubic | trilinear | area | nearest-exact'


def interpolate(input, size=None, scale_factor=None, mode='nearest', align_corners=None,
                recompute_scale_factor=None, antialias=False):
    """Up- or down-samples input to `size` or by `scale_factor` (PyTorch 1.13's checks and size rules).
    Modes nearest, linear (3-D input), bilinear (4-D) and area; nearest-exact, bicubic and trilinear are
    not built yet."""
    if mode in ('nearest', 'area', 'nearest-exact'):
        if align_corners is not None:
            raise ValueError('align_corners option can only be set with the interpolating modes: '
                             'linear | bilinear | bicubic | trilinear')
    else:
        if align_corners is None:
            align_corners = False
    dim = input.dim() - 2
    if size is not None and scale_factor is not None:
        raise ValueError('only one of size or scale_factor should be defined')
    elif size is not None:
        assert scale_factor is None
        scale_factors = None
        if isinstance(size, (list, tuple)):
            if len(size) != dim:
                raise ValueError('Input and output must have the same number of spatial dimensions, but got input with '
                                 'spatial dimensions of {} and output size of {}. Please provide input tensor in (N, C, '
                                 'd1, d2, ...,dK) format and output size in (o1, o2, ...,oK) format.'
                                 .format(list(input.shape[2:]), size))
            output_size = size
        else:
            output_size = [size for _ in range(dim)]
    elif scale_factor is not None:
        assert size is None
        output_size = None
        if isinstance(scale_factor, (list, tuple)):
            if len(scale_factor) != dim:
                raise ValueError('Input and scale_factor must have the same number of spatial dimensions, but got '
                                 'input with spatial dimensions of {} and scale_factor of shape {}. Please provide '
                                 'input tensor in (N, C, d1, d2, ...,dK) format and scale_factor in (s1, s2, ...,sK) '
                                 'format.'.format(list(input.shape[2:]), scale_factor))
            scale_factors = scale_factor
        else:
            scale_factors = [scale_factor for _ in range(dim)]
    else:
        raise ValueError('either size or scale_factor should be defined')
    if recompute_scale_factor is not None and recompute_scale_factor and size is not None:
        raise ValueError('recompute_scale_factor is not meaningful with an explicit size.')
    if mode == 'area' and output_size is None:
        recompute_scale_factor = True
    if recompute_scale_factor is not None and recompute_scale_factor:
        assert scale_factors is not None
        output_size = [int(math.floor(float(input.size(i + 2)) * scale_factors[i])) for i in range(dim)]
        scale_factors = None
    if antialias and not (mode in ('bilinear', 'bicubic') and input.ndim == 4):
        raise ValueError('Anti-alias option is only supported for bilinear and bicubic modes')

    if input.dim() == 3 and mode == 'nearest':
        return torch.ops.aten.upsample_nearest1d.vec(input, output_size, scale_factors)
    if input.dim() == 4 and mode == 'nearest':
        return torch.ops.aten.upsample_nearest2d.vec(input, output_size, scale_factors)
    if input.dim() == 3 and mode == 'area':
        assert output_size is not None
        return adaptive_avg_pool1d(input, output_size)
    if input.dim() == 4 and mode == 'area':
        assert output_size is not None
        return adaptive_avg_pool2d(input, output_size)
    if input.dim() == 3 and mode == 'linear':
        assert align_corners is not None
        return torch.ops.aten.upsample_linear1d.vec(input, output_size, align_corners, scale_factors)
    if input.dim() == 4 and mode == 'bilinear':
        assert align_corners is not None
        if antialias:
            raise NotImplementedError('interpolate: antialias=True is not supported yet')
        return torch.ops.aten.upsample_bilinear2d.vec(input, output_size, align_corners, scale_factors)

    if input.dim() == 3 and mode == 'bilinear':
        raise NotImplementedError('Got 3D input, but bilinear mode needs 4D input')
    if input.dim() == 3 and mode == 'trilinear':
        raise NotImplementedError('Got 3D input, but trilinear mode needs 5D input')
    if input.dim() == 4 and mode == 'linear':
        raise NotImplementedError('Got 4D input, but linear mode needs 3D input')
    if input.dim() == 4 and mode == 'trilinear':
        raise NotImplementedError('Got 4D input, but trilinear mode needs 5D input')
    if input.dim() == 5 and mode == 'linear':
        raise NotImplementedError('Got 5D input, but linear mode needs 3D input')
    if input.dim() == 5 and mode == 'bilinear':
        raise NotImplementedError('Got 5D input, but bilinear mode needs 4D input')
    if mode in ('nearest-exact', 'bicubic', 'trilinear') or (input.dim() == 5 and mode in ('nearest', 'area')):
        raise NotImplementedError('interpolate: mode {!r} with {}D input is not supported yet'.format(mode, input.dim()))
    raise NotImplementedError('Input Error: Only 3D, 4D and 5D input Tensors supported (got {}D) for the modes: {} '
                              '(got {})'.format(input.dim(), _INTERPOLATE_MODES, mode))


def upsample(input, size=None, scale_factor=None, mode='nearest', align_corners=None):
    warnings.warn('nn.functional.upsample is deprecated. Use nn.functional.interpolate instead.')
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input, size=None, scale_factor=None):
    warnings.warn('nn.functional.upsample_nearest is deprecated. Use nn.functional.interpolate instead.')
    return interpolate(input, size, scale_factor, mode='nearest')


def upsample_bilinear(input, size=None, scale_factor=None):
    warnings.warn('nn.functional.upsample_bilinear is deprecated. Use nn.functional.interpolate instead.')
    return interpolate(input, size, scale_factor, mode='bilinear', align_corners=True)


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    return torch.im2col(input, _pair(kernel_size), _pair(dilation), _pair(padding), _pair(stride))


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    return torch.col2im(input, _pair(output_size), _pair(kernel_size), _pair(dilation), _pair(padding),
                        _pair(stride))
