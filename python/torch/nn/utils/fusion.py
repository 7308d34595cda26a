"""Folding a BatchNorm that follows a convolution or a linear layer into its weights (for inference)."""
import copy

import torch

__all__ = ['fuse_conv_bn_eval', 'fuse_conv_bn_weights', 'fuse_linear_bn_eval', 'fuse_linear_bn_weights']


def fuse_conv_bn_eval(conv, bn, transpose=False):
    """A copy of conv (in eval mode) whose weights include bn's normalisation with its running stats."""
    assert not (conv.training or bn.training), "Fusion only for eval!"
    fused = copy.deepcopy(conv)
    fused.weight, fused.bias = fuse_conv_bn_weights(fused.weight, fused.bias, bn.running_mean, bn.running_var,
                                                    bn.eps, bn.weight, bn.bias, transpose)
    return fused


def fuse_conv_bn_weights(conv_w, conv_b, bn_rm, bn_rv, bn_eps, bn_w, bn_b, transpose=False):
    """(weight, bias) Parameters of a convolution followed by a batch normalisation."""
    if conv_b is None:
        conv_b = torch.zeros_like(bn_rm)
    if bn_w is None:
        bn_w = torch.ones_like(bn_rm)
    if bn_b is None:
        bn_b = torch.zeros_like(bn_rm)
    scale = bn_w * torch.rsqrt(bn_rv + bn_eps)
    # the output channel is dim 0 of a convolution's weight, dim 1 of a transposed one's
    shape = [1] * conv_w.dim()
    shape[1 if transpose else 0] = -1
    fused_w = (conv_w * scale.reshape(shape)).to(dtype=conv_w.dtype)
    fused_b = ((conv_b - bn_rm) * scale + bn_b).to(dtype=conv_w.dtype)
    return torch.nn.Parameter(fused_w, conv_w.requires_grad), torch.nn.Parameter(fused_b, conv_b.requires_grad)


def fuse_linear_bn_eval(linear, bn):
    """A copy of linear (in eval mode) whose weights include bn's normalisation with its running stats."""
    assert not (linear.training or bn.training), "Fusion only for eval!"
    fused = copy.deepcopy(linear)
    fused.weight, fused.bias = fuse_linear_bn_weights(fused.weight, fused.bias, bn.running_mean, bn.running_var,
                                                      bn.eps, bn.weight, bn.bias)
    return fused


def fuse_linear_bn_weights(linear_w, linear_b, bn_rm, bn_rv, bn_eps, bn_w, bn_b):
    """(weight, bias) Parameters of a linear layer followed by a batch normalisation."""
    if linear_b is None:
        linear_b = torch.zeros_like(bn_rm)
    scale = bn_w * torch.rsqrt(bn_rv + bn_eps)
    fused_w = linear_w * scale.unsqueeze(-1)
    fused_b = (linear_b - bn_rm) * scale + bn_b
    return torch.nn.Parameter(fused_w, linear_w.requires_grad), torch.nn.Parameter(fused_b, linear_b.requires_grad)
