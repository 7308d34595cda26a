"""Vector geometry and sampling grids (torch.nn.functional): normalize, cosine_similarity, pdist,
affine_grid, grid_sample, channel_shuffle.

PyTorch 1.13's arguments, defaults and errors. Everything numeric is a composition of the op table's
ops, so autograd (double backward included) follows from theirs.
"""
import torch

__all__ = ['normalize', 'cosine_similarity', 'pdist', 'affine_grid', 'grid_sample', 'channel_shuffle']


def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    """input / max(||input||_p along dim, eps)."""
    denom = input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)
    if out is None:
        return input / denom
    return torch.div(input, denom, out=out)


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    """sum(x1 * x2) / max(||x1|| * ||x2||, eps) along dim, the operands broadcast together."""
    if not isinstance(x1, torch.Tensor) or not isinstance(x2, torch.Tensor):
        raise TypeError('cosine_similarity(): argument \'x1\' (position 1) must be Tensor')
    shape = torch.broadcast_shapes(x1.shape, x2.shape)
    ndim = len(shape)
    if not -max(ndim, 1) <= dim < max(ndim, 1):
        raise IndexError('Dimension out of range (expected to be in range of [%d, %d], but got %d)'
                         % (-max(ndim, 1), max(ndim, 1) - 1, dim))
    # PyTorch 1.13: (x1 . x2) / sqrt(clamp_min(|x1|^2 |x2|^2, eps^2))
    a, b = x1.expand(shape) if x1.shape != shape else x1, x2.expand(shape) if x2.shape != shape else x2
    w12 = (a * b).sum(dim)
    w1 = (a * a).sum(dim)
    w2 = (b * b).sum(dim)
    n12 = (w1 * w2).clamp_min(eps * eps).sqrt()
    return w12 / n12


def pdist(input, p=2):
    """The p-norm distances between the rows of a 2-D input: the upper triangle of cdist, row by row."""
    if input.dim() != 2:
        raise RuntimeError('pdist only supports 2D tensors, got: %dD' % input.dim())
    if not input.is_floating_point():
        raise RuntimeError('pdist only supports floating-point dtypes')
    if p < 0:
        raise RuntimeError('pdist only supports non-negative p values')
    n = input.shape[0]
    if n <= 1:
        return input.new_empty(0)
    rows, cols = torch.triu_indices(n, n, 1, device=input.device)
    diff = (input[rows] - input[cols]).abs()
    if p == 0:  # the count of differing coordinates (sign: 0 or 1 here), with PyTorch's zero gradient
        return diff.sign().sum(-1)
    if p == float('inf'):
        return diff.amax(-1)
    if p == 1:
        return diff.sum(-1)
    if p == 2:
        return diff.pow(2).sum(-1).sqrt()
    return diff.pow(p).sum(-1).pow(1.0 / p)


def _base_coords(n, align_corners, like):
    """The n sample positions along one axis in [-1, 1]: pixel centres, or the corners' pixels."""
    if n <= 1:
        return torch.zeros(n, dtype=like.dtype, device=like.device)
    r = torch.linspace(-1.0, 1.0, n, dtype=like.dtype, device=like.device)
    return r if align_corners else r * (n - 1) / n


def affine_grid(theta, size, align_corners=None):
    """The sampling grid of an affine transform theta (N x 2 x 3 for 2-D, N x 3 x 4 for 3-D) over an
    output of `size` (N, C, H, W) or (N, C, D, H, W), for grid_sample."""
    if align_corners is None:
        import warnings
        warnings.warn('Default grid_sample and affine_grid behavior has changed to align_corners=False since 1.3.0. '
                      'Please specify align_corners=True if the old behavior is desired. See the documentation of '
                      'grid_sample for details.')
        align_corners = False
    if not theta.is_floating_point():
        raise ValueError('Expected theta to have floating point type, but got %s' % theta.dtype)
    size = list(size)
    if len(size) == 4:
        if theta.dim() != 3 or theta.shape[-2] != 2 or theta.shape[-1] != 3:
            raise ValueError('Expected a batch of 2D affine matrices of shape Nx2x3 for size %s. Got %s.'
                             % (torch.Size(size), theta.shape))
        spatial = size[-2:]
    elif len(size) == 5:
        if theta.dim() != 3 or theta.shape[-2] != 3 or theta.shape[-1] != 4:
            raise ValueError('Expected a batch of 3D affine matrices of shape Nx3x4 for size %s. Got %s.'
                             % (torch.Size(size), theta.shape))
        spatial = size[-3:]
    else:
        raise NotImplementedError('affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, '
                                  'respectively. Got size %s.' % (torch.Size(size),))
    if min(size) <= 0:
        raise ValueError('Expected non-zero, positive output size. Got %s' % (torch.Size(size),))
    if theta.shape[0] != size[0]:
        raise RuntimeError('Expected a batch of affine matrices of size %d, got %d' % (size[0], theta.shape[0]))
    # base grid (x, y[, z], 1) over the output, x varying fastest; then base @ theta^T per batch
    axes = [_base_coords(n, align_corners, theta) for n in reversed(spatial)]  # x, y[, z]
    mesh = torch.meshgrid(*reversed(axes), indexing='ij')  # [z,] y, x, each of the spatial shape
    coords = list(reversed(mesh)) + [torch.ones_like(mesh[0])]
    base = torch.stack(coords, -1).reshape(1, -1, len(coords))
    grid = base.expand(size[0], -1, -1).bmm(theta.transpose(1, 2))
    return grid.reshape([size[0]] + spatial + [len(spatial)])


_MODES = {'bilinear': 0, 'nearest': 1, 'bicubic': 2}
_PADDINGS = {'zeros': 0, 'border': 1, 'reflection': 2}


def _unnormalize(coord, size, align_corners):
    """Grid coordinates in [-1, 1] to pixel positions."""
    if align_corners:
        return (coord + 1) / 2 * (size - 1)
    return ((coord + 1) * size - 1) / 2


def _reflect(coord, low, high):
    """Reflects coord into [low / 2, high / 2] (twice the bounds, as PyTorch's reflect_coordinates)."""
    if low == high:
        return torch.zeros_like(coord)
    lo, span = low / 2, (high - low) / 2
    c = (coord - lo).abs()
    extra = torch.fmod(c, span)
    flips = torch.floor(c / span)
    return torch.where(torch.remainder(flips, 2) == 0, extra + lo, span - extra + lo)


def _source_index(coord, size, padding_mode, align_corners):
    """PyTorch's grid_sampler_compute_source_index: unnormalise, then apply the padding mode."""
    coord = _unnormalize(coord, size, align_corners)
    if padding_mode == 1:
        coord = coord.clamp(0, size - 1)
    elif padding_mode == 2:
        coord = _reflect(coord, 0, 2 * (size - 1)) if align_corners else _reflect(coord, -1, 2 * size - 1)
        coord = coord.clamp(0, size - 1)
    return coord


def _gather_taps(flat, idx, valid):
    """Values of input (N, C, L) at flat indices idx (N, P), zero where not valid, as (N, C, P)."""
    n, c = flat.shape[0], flat.shape[1]
    safe = torch.where(valid, idx, torch.zeros_like(idx))
    vals = flat.gather(2, safe.unsqueeze(1).expand(n, c, safe.shape[1]))
    return vals * valid.unsqueeze(1).to(flat.dtype)


def _cubic_weights(t):
    """The four cubic convolution weights (A = -0.75) of a fractional offset t, as PyTorch's."""
    a = -0.75
    x1 = t + 1
    w0 = ((a * x1 - 5 * a) * x1 + 8 * a) * x1 - 4 * a
    w1 = ((a + 2) * t - (a + 3)) * t * t + 1
    x2 = 1 - t
    w2 = ((a + 2) * x2 - (a + 3)) * x2 * x2 + 1
    x3 = 2 - t
    w3 = ((a * x3 - 5 * a) * x3 + 8 * a) * x3 - 4 * a
    return [w0, w1, w2, w3]


def grid_sample(input, grid, mode='bilinear', padding_mode='zeros', align_corners=None):
    """Samples input (N, C, H, W) or (N, C, D, H, W) at the grid's positions (N, H', W', 2) or
    (N, D', H', W', 3), normalised to [-1, 1]: bilinear (trilinear), nearest or bicubic (2-D) taps,
    zeros, border or reflection padding."""
    if mode not in _MODES:
        raise ValueError("nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or 'bicubic', "
                         "but got: '%s'" % mode)
    if padding_mode not in _PADDINGS:
        raise ValueError("nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or "
                         "'reflection', but got: '%s'" % padding_mode)
    if align_corners is None:
        import warnings
        warnings.warn('Default grid_sample and affine_grid behavior has changed to align_corners=False since 1.3.0. '
                      'Please specify align_corners=True if the old behavior is desired. See the documentation of '
                      'grid_sample for details.')
        align_corners = False
    if input.dim() not in (4, 5) or grid.dim() != input.dim():
        raise RuntimeError('grid_sampler(): expected 4D or 5D input and grid with same number of dimensions, but '
                           'got input with sizes %s and grid with sizes %s' % (list(input.shape), list(grid.shape)))
    if input.shape[0] != grid.shape[0]:
        raise RuntimeError('grid_sampler(): expected grid and input to have same batch size, but got input with '
                           'sizes %s and grid with sizes %s' % (list(input.shape), list(grid.shape)))
    dims = input.dim() - 2
    if grid.shape[-1] != dims:
        raise RuntimeError('grid_sampler(): expected grid to have size %d in last dimension, but got grid with '
                           'sizes %s' % (dims, list(grid.shape)))
    if dims == 3 and mode == 'bicubic':
        raise RuntimeError('grid_sampler(): bicubic interpolation only supports 4D input')
    if input.dtype != grid.dtype:
        raise RuntimeError('grid_sampler(): expected input and grid to have the same dtype, but input has %s and '
                           'grid has %s' % (input.dtype, grid.dtype))
    for d in range(2, input.dim()):
        if input.shape[d] <= 0:
            raise RuntimeError('grid_sampler(): expected input to have non-empty spatial dimensions, but input has '
                               'sizes %s with dimension %d being empty' % (list(input.shape), d))
    n, c = input.shape[0], input.shape[1]
    sizes = list(input.shape[2:])            # [D,] H, W
    out_spatial = list(grid.shape[1:-1])
    pad = _PADDINGS[padding_mode]
    flat = input.reshape(n, c, -1)
    g = grid.reshape(n, -1, dims)
    # grid's last dim is (x, y[, z]): x indexes W (the last input dim)
    coords = [_source_index(g[..., k], sizes[dims - 1 - k], pad, align_corners) for k in range(dims)]
    coords = list(reversed(coords))          # [z,] y, x, in the order of sizes

    def tap(positions):
        """Values at integer positions (one per spatial dim, as float tensors), zero outside."""
        valid = torch.ones_like(positions[0], dtype=torch.bool)
        idx = torch.zeros_like(positions[0], dtype=torch.int64)
        for pos, size in zip(positions, sizes):
            valid = valid & (pos >= 0) & (pos <= size - 1)
            idx = idx * size + pos.to(torch.int64).clamp(0, size - 1)
        return _gather_taps(flat, idx, valid)

    if mode == 'nearest':
        # the grid's gradient is zero, as PyTorch's (a weight of exactly 1 that depends on the grid)
        one = None
        for p in coords:
            w = torch.where(torch.isfinite(p), (p - torch.round(p)) * 0, torch.zeros_like(p)) + 1
            one = w if one is None else one * w
        out = tap([torch.round(p) for p in coords]) * one.unsqueeze(1)
    elif mode == 'bilinear':
        floors = [torch.floor(p) for p in coords]
        fracs = [p - f for p, f in zip(coords, floors)]
        out = None
        for corner in range(2 ** dims):
            positions, weight = [], None
            for k in range(dims):
                upper = (corner >> (dims - 1 - k)) & 1
                positions.append(floors[k] + upper)
                w = fracs[k] if upper else 1 - fracs[k]
                weight = w if weight is None else weight * w
            term = tap(positions) * weight.unsqueeze(1)
            out = term if out is None else out + term
    else:  # bicubic: the unclamped source position, 4 x 4 taps each clamped or reflected by the padding
        y = _unnormalize(g[..., 1], sizes[0], align_corners)
        x = _unnormalize(g[..., 0], sizes[1], align_corners)
        y0, x0 = torch.floor(y), torch.floor(x)
        wy, wx = _cubic_weights(y - y0), _cubic_weights(x - x0)

        def bound(pos, size):
            if pad == 1:
                return pos.clamp(0, size - 1)
            if pad == 2:
                r = _reflect(pos, 0, 2 * (size - 1)) if align_corners else _reflect(pos, -1, 2 * size - 1)
                return r.clamp(0, size - 1)
            return pos

        out = None
        for i in range(4):
            row = bound(y0 - 1 + i, sizes[0])
            for j in range(4):
                col = bound(x0 - 1 + j, sizes[1])
                term = tap([row, col]) * (wy[i] * wx[j]).unsqueeze(1)
                out = term if out is None else out + term
    return out.reshape([n, c] + out_spatial)


def channel_shuffle(input, groups):
    """Splits the channels (dim 1) into `groups` groups and interleaves them."""
    if groups <= 0:
        raise RuntimeError('Number of groups to divide channels in must be positive. Value of groups:%d' % groups)
    if input.dim() <= 2:
        raise RuntimeError('channel_shuffle expects input to have at least 3 dimensions, but got input with sizes %s'
                           % list(input.shape))
    c = input.shape[1]
    if c % groups != 0:
        raise RuntimeError('Number of channels must be divisible by groups. Got %d channels and %d groups.'
                           % (c, groups))
    n, rest = input.shape[0], list(input.shape[2:])
    return input.reshape([n, groups, c // groups] + rest).transpose(1, 2).reshape([n, c] + rest)
