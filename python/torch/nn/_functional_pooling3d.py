"""Volumetric pooling and the unpooling/power-average forms of torch.nn.functional: max_pool3d,
avg_pool3d, adaptive_max_pool3d, adaptive_avg_pool3d, max_unpool1d/2d/3d, lp_pool1d/2d.

The 1-D and 2-D max/average pools are kernels of the CPU plugin; the 3-D ones are composed here of
ops (an index grid per dim gathers every window, then a max or a sum), with PyTorch 1.13's output
sizes, window order (the first largest value wins, a NaN wins), divisors and messages, so autograd
follows from the gather. The gathered windows take kernel-volume times the output's memory.
"""
import math

import torch

__all__ = ['max_pool3d', 'max_pool3d_with_indices', 'avg_pool3d', 'adaptive_max_pool3d',
           'adaptive_max_pool3d_with_indices', 'adaptive_avg_pool3d', 'max_unpool1d', 'max_unpool2d', 'max_unpool3d',
           'lp_pool1d', 'lp_pool2d']


def _triple(x, name):
    if isinstance(x, (list, tuple)):
        if len(x) == 1:
            return (int(x[0]),) * 3
        if len(x) != 3:
            raise RuntimeError('%s must either be a single int, or a tuple of three ints' % name)
        return tuple(int(v) for v in x)
    return (int(x),) * 3


def _batched(input, name):
    if input.dim() not in (4, 5) or input.numel() == 0 and any(s == 0 for s in input.shape[-4:]):
        raise RuntimeError('non-empty 4D or 5D (batch mode) tensor expected for input')
    return (input, False) if input.dim() == 5 else (input.unsqueeze(0), True)


def _out_size(size, k, s, p, d, ceil_mode):
    span = size + 2 * p - d * (k - 1) - 1
    out = (span + (s - 1 if ceil_mode else 0)) // s + 1
    if ceil_mode and (out - 1) * s >= size + p:
        out -= 1
    return out


def _pool_geometry(input, kernel_size, stride, padding, dilation, ceil_mode, check_input_size=False):
    k = _triple(kernel_size, 'max_pool3d: kernel_size')
    s = k if stride is None or (isinstance(stride, (list, tuple)) and len(stride) == 0) else _triple(stride, 'stride')
    p = _triple(padding, 'padding')
    d = _triple(dilation, 'dilation')
    if min(k) <= 0:
        raise RuntimeError('kernel size should be greater than zero, but got kT: %d kH: %d kW: %d' % k)
    if min(s) <= 0:
        raise RuntimeError('stride should not be zero')
    if min(d) <= 0:
        raise RuntimeError('dilation should be greater than zero, but got dilationT: %d dilationH: %d dilationW: %d' % d)
    for kk, pp in zip(k, p):
        if pp < 0 or pp > kk // 2:
            raise RuntimeError('pad should be at most half of kernel size, but got pad=%d and kernel_size=%d' % (pp, kk))
    sizes = list(input.shape[-3:])
    if check_input_size and any(n < kk for n, kk in zip(sizes, k)):  # average pooling's own check first
        raise RuntimeError('input image (T: %d H: %d W: %d) smaller than kernel size (kT: %d kH: %d kW: %d)'
                           % tuple(sizes + list(k)))
    out = [_out_size(n, kk, ss, pp, dd, ceil_mode) for n, kk, ss, pp, dd in zip(sizes, k, s, p, d)]
    if min(out) < 1:
        raise RuntimeError('Given input size: (%dx%dx%dx%d). Calculated output size: (%dx%dx%dx%d). Output size is '
                           'too small' % tuple([input.shape[-4]] + sizes + [input.shape[-4]] + out))
    return k, s, p, d, sizes, out


def _positions(out, k, s, p, d, device):
    """pos[o, j] = o * s - p + j * d: the input position of tap j of output o along one dim."""
    return (torch.arange(out, device=device) * s - p).unsqueeze(1) + torch.arange(k, device=device) * d


def _windows(x, positions, sizes):
    """x's windows as (N, C, oD, oH, oW, K), K taps in window order (depth, then height, then width);
    with the taps' flat input indices and whether each lies inside the input, as (oD, oH, oW, K).
    Taps in the padding read a clamped element, which the caller masks."""
    inside, index, clamped = None, None, []
    for axis, (pos, size) in enumerate(zip(positions, sizes)):
        shape = [1] * 6
        shape[2 * axis:2 * axis + 2] = pos.shape
        ok = ((pos >= 0) & (pos < size)).reshape(shape)
        c = pos.clamp(0, size - 1).reshape(shape)
        inside = ok if inside is None else inside & ok
        index = c if index is None else index * size + c
        clamped.append(c)
    full = [p.shape[n] for p in positions for n in (0, 1)]  # oD, kD, oH, kH, oW, kW
    out = [full[0], full[2], full[4]]
    g = x[:, :, clamped[0], clamped[1], clamped[2]]  # N, C, oD, kD, oH, kH, oW, kW
    g = g.permute(0, 1, 2, 4, 6, 3, 5, 7).reshape(*x.shape[:2], *out, -1)
    taps = lambda t: t.expand(full).permute(0, 2, 4, 1, 3, 5).reshape(*out, -1)
    return g, taps(index), taps(inside)


def max_pool3d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):
    x, unbatched = _batched(input, 'max_pool3d')
    k, s, p, d, sizes, out = _pool_geometry(x, kernel_size, stride, padding, dilation, ceil_mode)
    positions = [_positions(o, kk, ss, pp, dd, x.device) for o, kk, ss, pp, dd in zip(out, k, s, p, d)]
    g, index, inside = _windows(x, positions, sizes)
    g = g.masked_fill(~inside, float('-inf'))
    # NaN wins, then the first largest value in window order
    pick = torch.where(g.isnan(), torch.full_like(g, float('inf')), g).argmax(-1, keepdim=True)
    values = g.gather(-1, pick).squeeze(-1)
    indices = index.expand(g.shape).gather(-1, pick).squeeze(-1)
    if unbatched:
        values, indices = values.squeeze(0), indices.squeeze(0)
    return values, indices


def max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    values, indices = max_pool3d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)
    return (values, indices) if return_indices else values


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    x, unbatched = _batched(input, 'avg_pool3d')
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError('divisor must be not zero')
    k, s, p, d, sizes, out = _pool_geometry(x, kernel_size, stride, padding, 1, ceil_mode, check_input_size=True)
    positions = [_positions(o, kk, ss, pp, 1, x.device) for o, kk, ss, pp in zip(out, k, s, p)]
    g, _, inside = _windows(x, positions, sizes)
    total = (g * inside.to(g.dtype)).sum(-1)
    if divisor_override is not None:
        result = total / divisor_override
    elif count_include_pad:  # taps within the padded extent count, those beyond it (ceil_mode) do not
        counts = None
        for axis, (pos, size, pp) in enumerate(zip(positions, sizes, p)):
            shape = [1] * 3
            shape[axis] = -1
            n = ((pos >= -pp) & (pos < size + pp)).sum(1).reshape(shape)
            counts = n if counts is None else counts * n
        result = total / counts.to(g.dtype)
    else:
        result = total / inside.sum(-1).to(g.dtype)
    return result.squeeze(0) if unbatched else result


def _adaptive_positions(size, out, device):
    """Each output's window [floor(i in / out), ceil((i + 1) in / out)) as taps, the shorter windows
    padded by repeating their first tap (which changes no max and no first index)."""
    starts = [(i * size) // out for i in range(out)]
    ends = [-((-(i + 1) * size) // out) for i in range(out)]
    width = max(e - b for b, e in zip(starts, ends)) if out else 0
    rows = [[b + j if b + j < e else b for j in range(width)] for b, e in zip(starts, ends)]
    return torch.tensor(rows, dtype=torch.int64, device=device).reshape(out, width)


def _adaptive_sizes(input, output_size):
    sizes = list(input.shape[-3:])
    out = list(output_size) if isinstance(output_size, (list, tuple)) else [output_size] * 3
    if len(out) != 3:
        raise RuntimeError('adaptive_max_pool3d(): internal error: output_size.size() must be 3')
    return sizes, [sz if o is None else int(o) for o, sz in zip(out, sizes)]


def adaptive_max_pool3d_with_indices(input, output_size, return_indices=False):
    x, unbatched = _batched(input, 'adaptive_max_pool3d')
    sizes, out = _adaptive_sizes(x, output_size)
    if min(out) == 0:
        empty = x.new_empty(*x.shape[:2], *out)
        values, indices = empty, empty.long()
    else:
        positions = [_adaptive_positions(sz, o, x.device) for sz, o in zip(sizes, out)]
        g, index, _ = _windows(x, positions, sizes)
        pick = torch.where(g.isnan(), torch.full_like(g, float('inf')), g).argmax(-1, keepdim=True)
        values = g.gather(-1, pick).squeeze(-1)
        indices = index.expand(g.shape).gather(-1, pick).squeeze(-1)
    if unbatched:
        values, indices = values.squeeze(0), indices.squeeze(0)
    return values, indices


def adaptive_max_pool3d(input, output_size, return_indices=False):
    values, indices = adaptive_max_pool3d_with_indices(input, output_size)
    return (values, indices) if return_indices else values


def adaptive_avg_pool3d(input, output_size):
    """The mean of each window, one dim at a time (a box average is the product of three averages)."""
    x, unbatched = _batched(input, 'adaptive_avg_pool3d')
    sizes, out = _adaptive_sizes(x, output_size)
    for axis, (size, o) in enumerate(zip(sizes, out)):
        starts = [(i * size) // o for i in range(o)]
        ends = [-((-(i + 1) * size) // o) for i in range(o)]
        weights = torch.zeros(o, size, dtype=x.dtype, device=x.device)
        for i, (b, e) in enumerate(zip(starts, ends)):
            weights[i, b:e] = 1.0 / (e - b)
        x = torch.movedim(torch.movedim(x, 2 + axis, -1) @ weights.t(), -1, 2 + axis)
    return x.squeeze(0) if unbatched else x


def _unpool(name, dims, input, indices, kernel_size, stride, padding, output_size):
    k = [int(v) for v in (kernel_size if isinstance(kernel_size, (list, tuple)) else [kernel_size] * dims)]
    s = k if stride is None else [int(v) for v in (stride if isinstance(stride, (list, tuple)) else [stride] * dims)]
    p = [int(v) for v in (padding if isinstance(padding, (list, tuple)) else [padding] * dims)]
    spatial = list(input.shape[-dims:])
    default = [(n - 1) * ss - 2 * pp + kk for n, ss, pp, kk in zip(spatial, s, p, k)]
    if output_size is None:
        out = default
    else:
        out = [int(v) for v in output_size]
        if len(out) == dims + 2:
            out = out[2:]
        elif len(out) == dims + 1:
            out = out[1:]
        if len(out) != dims:
            raise ValueError('output_size should be a sequence containing %d or %d elements, but it has a length of '
                             "'%d'" % (dims, dims + 2, len(out)))
        for i, (o, dflt, ss) in enumerate(zip(out, default, s)):
            lo, hi = dflt - ss, dflt + ss
            if not lo < o < hi:
                raise ValueError('invalid output_size "%s" (dim %d must be between %d and %d)'
                                 % (tuple(out), i, lo, hi))
    if indices.shape != input.shape:
        raise RuntimeError('Expected shape of indices to be same as that of the input tensor (%s) but got indices '
                           'tensor with shape: %s' % (list(input.shape), list(indices.shape)))
    volume = math.prod(out)
    lead = list(input.shape[:-dims])
    flat_in, flat_idx = input.reshape(*lead, -1), indices.reshape(*lead, -1)
    if flat_idx.numel() and (flat_idx.min() < 0 or flat_idx.max() >= volume):
        bad = int(flat_idx.max() if flat_idx.max() >= volume else flat_idx.min())
        raise RuntimeError('Found an invalid max index: %d (output volumes are of size %s'
                           % (bad, 'x'.join(str(o) for o in out)))
    result = flat_in.new_zeros(*lead, volume).scatter(-1, flat_idx, flat_in)
    return result.reshape(*lead, *out)


def max_unpool1d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    return _unpool('max_unpool1d', 1, input, indices, kernel_size, stride, padding, output_size)


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    return _unpool('max_unpool2d', 2, input, indices, kernel_size, stride, padding, output_size)


def max_unpool3d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    return _unpool('max_unpool3d', 3, input, indices, kernel_size, stride, padding, output_size)


def lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """(sum of x^p over each window)^(1/p), through avg_pool1d times the window's size, as PyTorch's."""
    out = torch.nn.functional.avg_pool1d(input.pow(norm_type), kernel_size, stride if stride is not None else
                                         kernel_size, 0, ceil_mode)
    return (torch.sign(out) * torch.relu(torch.abs(out))).mul(kernel_size).pow(1.0 / norm_type)


def lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    kw, kh = (kernel_size, kernel_size) if isinstance(kernel_size, int) else kernel_size
    out = torch.nn.functional.avg_pool2d(input.pow(norm_type), kernel_size, stride if stride is not None else
                                         kernel_size, 0, ceil_mode)
    return (torch.sign(out) * torch.relu(torch.abs(out))).mul(kw * kh).pow(1.0 / norm_type)
