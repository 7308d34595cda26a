"""Gradient clipping: scale all gradients together so that their norm is at most max_norm, or clamp
each element."""
import math
import warnings

import torch

__all__ = ['clip_grad_norm_', 'clip_grad_norm', 'clip_grad_value_']


def _grad_norm(grad, norm_type):
    """torch.norm(grad, norm_type) of one gradient, as a 0-dim tensor of its dtype (float32 computed in
    double, as PyTorch's CPU norm accumulates)."""
    g = grad.detach()
    if norm_type == math.inf:
        return g.abs().max()
    if norm_type == -math.inf:
        return g.abs().min()
    if norm_type == 0:
        return (g != 0).sum().to(g.dtype)
    wide = g.double() if g.dtype in (torch.float32, torch.float16, torch.bfloat16) else g
    if norm_type == 1:
        total = wide.abs().sum()
    elif norm_type == 2:
        total = (wide * wide).sum().sqrt()
    else:
        total = (wide.abs() ** norm_type).sum() ** (1.0 / norm_type)
    return total.to(g.dtype)


def _combine(norms, norm_type):
    """The norm of the vector of per-gradient norms (torch.norm(torch.stack(norms), norm_type))."""
    if norm_type == math.inf:
        return norms[0] if len(norms) == 1 else max(norms, key=lambda n: n.item()).clone()
    if norm_type == -math.inf:
        return min(norms, key=lambda n: n.item()).clone()
    stacked = torch.empty(len(norms), dtype=norms[0].dtype)
    for i, n in enumerate(norms):
        stacked[i] = n
    return _grad_norm(stacked, norm_type)


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False):
    """Scales the gradients of `parameters` in place so that their total norm (of order norm_type, inf
    for the largest element) is at most max_norm; returns the total norm before clipping."""
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    parameters = [p for p in parameters if p.grad is not None]
    max_norm = float(max_norm)
    norm_type = float(norm_type)
    if len(parameters) == 0:
        return torch.tensor(0.)
    device = parameters[0].grad.device
    total_norm = _combine([_grad_norm(p.grad, norm_type).to(device) for p in parameters], norm_type)
    if error_if_nonfinite and not math.isfinite(total_norm.item()):
        raise RuntimeError(f'The total norm of order {norm_type} for gradients from `parameters` is non-finite, so it '
                           'cannot be clipped. To disable this error and scale the gradients by the non-finite norm '
                           'anyway, set `error_if_nonfinite=False`')
    # PyTorch's `number / tensor` is tensor.reciprocal() * number, rounded twice
    clip_coef = torch.ones((), dtype=total_norm.dtype) / (total_norm + 1e-6) * max_norm
    clip_coef_clamped = torch.minimum(clip_coef, torch.ones((), dtype=clip_coef.dtype))
    for p in parameters:
        p.grad.detach().mul_(clip_coef_clamped.to(p.grad.device))
    return total_norm


def clip_grad_norm(parameters, max_norm, norm_type=2., error_if_nonfinite=False):
    """Deprecated: clip_grad_norm_."""
    warnings.warn("torch.nn.utils.clip_grad_norm is now deprecated in favor of torch.nn.utils.clip_grad_norm_.",
                  stacklevel=2)
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite)


def clip_grad_value_(parameters, clip_value):
    """Clamps every gradient element of `parameters` to [-clip_value, clip_value] in place."""
    if isinstance(parameters, torch.Tensor):
        parameters = [parameters]
    clip_value = float(clip_value)
    for p in filter(lambda p: p.grad is not None, parameters):
        g = p.grad.data
        lo = torch.full((), -clip_value, dtype=g.dtype)
        hi = torch.full((), clip_value, dtype=g.dtype)
        # clamp_ comes with the pointwise family; maximum/minimum propagate NaN as clamp does
        g.copy_(torch.minimum(torch.maximum(g, lo), hi))
