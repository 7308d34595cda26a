"""Margin and likelihood losses of torch.nn.functional that the op table does not hold:
soft_margin_loss, multilabel_soft_margin_loss, multi_margin_loss, multilabel_margin_loss,
gaussian_nll_loss, triplet_margin_with_distance_loss.

PyTorch 1.13's arguments, checks and messages; the arithmetic is a composition of ops, so autograd
follows from theirs.
"""
import math

import torch
from torch.nn import _reduction as _Reduction

__all__ = ['soft_margin_loss', 'multilabel_soft_margin_loss', 'multi_margin_loss', 'multilabel_margin_loss',
           'gaussian_nll_loss', 'triplet_margin_with_distance_loss']


def _reduction_name(size_average, reduce, reduction):
    if size_average is not None or reduce is not None:
        return _Reduction.legacy_get_string(size_average, reduce)
    return reduction


def _reduce(loss, reduction):
    if reduction == 'none':
        return loss
    if reduction == 'mean':
        return loss.mean()
    if reduction == 'sum':
        return loss.sum()
    raise ValueError('%s is not a valid value for reduction' % reduction)


def soft_margin_loss(input, target, size_average=None, reduce=None, reduction='mean'):
    """log(1 + exp(-target * input)), averaged or summed."""
    reduction = _reduction_name(size_average, reduce, reduction)
    if reduction not in ('none', 'mean', 'sum'):
        raise ValueError('%s is not a valid value for reduction' % reduction)
    return _reduce(torch.log1p(torch.exp(-target * input)), reduction)


def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None, reduction='mean'):
    """The per-class binary log-likelihood of target in {0, 1}, averaged over the classes."""
    reduction = _reduction_name(size_average, reduce, reduction)
    loss = -(target * torch.nn.functional.logsigmoid(input) + (1 - target) * torch.nn.functional.logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.dim() - 1
    loss = loss.sum(dim=class_dim) / input.size(class_dim)
    if reduction == 'none':
        return loss
    if reduction == 'mean':
        return loss.mean()
    if reduction == 'sum':
        return loss.sum()
    raise ValueError(reduction + ' is not a valid value for reduction')


def _check_margin_shapes(input, target, name):
    ndim = input.dim()
    if not (ndim == 2 and input.size(1) != 0 or ndim <= 1 and input.numel() != 0):
        raise RuntimeError('Expected non-empty vector or matrix with optional 0-dim batch size, but got: %s'
                           % (list(input.shape),))
    nframe = 1 if ndim <= 1 else input.size(0)
    dim = 1 if ndim == 0 else input.size(ndim - 1)
    return nframe, dim


def multi_margin_loss(input, target, p=1, margin=1.0, weight=None, size_average=None, reduce=None,
                      reduction='mean'):
    """sum over classes i != y of max(0, margin - x[y] + x[i])^p (times weight[y]), over the classes."""
    reduction = _reduction_name(size_average, reduce, reduction)
    if p != 1 and p != 2:
        raise ValueError('only p == 1 and p == 2 supported')
    if weight is not None and weight.dim() != 1:
        raise ValueError('weight must be one-dimensional')
    nframe, dim = _check_margin_shapes(input, target, 'multi_margin_loss')
    if not (target.dim() <= 1 and target.numel() == nframe):
        raise RuntimeError('inconsistent target size, expected %d but got %s' % (nframe, list(target.shape)))
    if target.numel() and (target.min() < 0 or target.max() >= dim):
        raise RuntimeError('target out of range')
    if weight is not None and weight.numel() != dim:
        raise RuntimeError('inconsistent weight size, expected %d but got %s' % (dim, list(weight.shape)))
    x = input.reshape(nframe, dim)
    y = target.reshape(nframe, 1).to(torch.int64)
    picked = x.gather(1, y)
    z = (margin - picked + x).clamp_min(0)
    if p == 2:
        z = z * z
    if weight is not None:
        z = z * weight[y]
    not_target = torch.ones_like(x, dtype=torch.bool).scatter(1, y, False)
    loss = (z * not_target).sum(1) / dim
    if reduction == 'none':
        return loss.reshape(target.shape) if input.dim() > 1 else loss.reshape(())
    return _reduce(loss, reduction)


def multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction='mean'):
    """For each sample, the targets are the leading non-negative entries of target (up to the first
    -1): the sum over targets j and non-targets i of max(0, 1 - (x[j] - x[i])), over the classes."""
    reduction = _reduction_name(size_average, reduce, reduction)
    nframe, dim = _check_margin_shapes(input, target, 'multilabel_margin_loss')
    if target.shape != input.shape and not (input.dim() <= 1 and target.dim() <= 1 and target.numel() == dim):
        raise RuntimeError('inconsistent target size: %s for input of size: %s'
                           % (list(target.shape), list(input.shape)))
    x = input.reshape(nframe, dim)
    t = target.reshape(nframe, dim).to(torch.int64)
    if t.numel() and (t.max() >= dim or t.min() < -1):
        raise RuntimeError('target out of range')
    # the targets are the entries before the first -1 of each row
    stopped = (t < 0).to(torch.int64).cumsum(1) > 0
    is_label = ~stopped
    labels = torch.where(is_label, t, torch.zeros_like(t))
    # classes that are targets (the slots after the labels mark a spare column, dropped)
    spare = torch.where(is_label, t, torch.full_like(t, dim))
    member = torch.zeros(nframe, dim + 1, dtype=torch.bool, device=x.device).scatter(1, spare, True)[:, :dim]
    picked = x.gather(1, labels)  # x[j] for each target slot (masked below where there is none)
    # hinge[n, s, i] = max(0, 1 - (x[j_s] - x[i])) for target slot s and class i not a target
    hinge = (1 - (picked.unsqueeze(2) - x.unsqueeze(1))).clamp_min(0)
    mask = is_label.unsqueeze(2) & ~member.unsqueeze(1)
    loss = (hinge * mask).sum((1, 2)) / dim
    if reduction == 'none':
        return loss.reshape(input.shape[:-1]) if input.dim() > 1 else loss.reshape(())
    return _reduce(loss, reduction)


def gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction='mean'):
    """0.5 (log(max(var, eps)) + (input - target)^2 / max(var, eps)) [+ 0.5 log(2 pi) when full]."""
    if var.size() != input.size():
        if input.size()[:-1] == var.size():
            var = torch.unsqueeze(var, -1)
        elif input.size()[:-1] == var.size()[:-1] and var.size(-1) == 1:
            pass
        else:
            raise ValueError('var is of incorrect size')
    if reduction != 'none' and reduction != 'mean' and reduction != 'sum':
        raise ValueError(reduction + ' is not valid')
    if torch.any(var < 0):
        raise ValueError('var has negative entry/entries')
    var = var.clone()
    with torch.no_grad():
        var.clamp_(min=eps)
    loss = 0.5 * (torch.log(var) + (input - target) ** 2 / var)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return _reduce(loss, reduction)


def triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None, margin=1.0,
                                      swap=False, reduction='mean'):
    """max(d(a, p) - d(a, n) + margin, 0) with any distance function (pairwise_distance by default)."""
    if margin <= 0:
        raise ValueError('triplet_margin_with_distance_loss: expected margin to be greater than 0, got %s' % margin)
    a_dim, p_dim, n_dim = anchor.ndim, positive.ndim, negative.ndim
    if not (a_dim == p_dim and p_dim == n_dim):
        raise RuntimeError('The anchor, positive, and negative tensors are expected to have the same number of '
                           'dimensions, but got: anchor %dD, positive %dD, and negative %dD inputs'
                           % (a_dim, p_dim, n_dim))
    distance = distance_function if distance_function is not None else torch.nn.functional.pairwise_distance
    dist_pos = distance(anchor, positive)
    dist_neg = distance(anchor, negative)
    if swap:
        dist_neg = torch.minimum(dist_neg, distance(positive, negative))
    loss = torch.clamp_min(margin + dist_pos - dist_neg, 0)
    return _reduce(loss, reduction)
