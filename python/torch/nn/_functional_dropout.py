"""Dropout in torch.nn.functional: checks and shapes in Python, as PyTorch's; the masks and scaling
are the ops of the table's "nn: dropout" section (core/src/impl_dropout.c)."""
import warnings

import torch

__all__ = ['dropout', 'dropout1d', 'dropout2d', 'dropout3d', 'alpha_dropout', 'feature_alpha_dropout']


def _check_p(p):
    if p < 0.0 or p > 1.0:
        raise ValueError("dropout probability has to be between 0 and 1, but got {}".format(p))


def dropout(input, p=0.5, training=True, inplace=False):
    """Zeroes elements with probability p and scales the others by 1/(1-p), in training."""
    _check_p(p)
    return torch.dropout_(input, p, training) if inplace else torch.dropout(input, p, training)


def alpha_dropout(input, p=0.5, training=False, inplace=False):
    """Dropout for SELU networks (keeps zero mean and unit variance)."""
    _check_p(p)
    return torch.alpha_dropout_(input, p, training) if inplace else torch.alpha_dropout(input, p, training)


def feature_alpha_dropout(input, p=0.5, training=False, inplace=False):
    """alpha_dropout of whole channels."""
    _check_p(p)
    return (torch.feature_alpha_dropout_(input, p, training) if inplace
            else torch.feature_alpha_dropout(input, p, training))


def _channel_dropout(input, p, training, inplace, batched):
    """feature_dropout, on input given a batch dim of 1 when it has none."""
    if not batched:
        # a view: the in-place form writes input's data, as PyTorch's unsqueeze_ does
        input = input.unsqueeze(0)
    result = torch.feature_dropout_(input, p, training) if inplace else torch.feature_dropout(input, p, training)
    return result if batched else result.squeeze(0)


def _warn_unexpected_dim(name, ndim, spatial):
    """PyTorch's deprecation warning for an input of neither spatial + 1 nor spatial + 2 dims."""
    warnings.warn(f"{name}: Received a {ndim}-D input to {name}, which is deprecated and will result in an "
                  "error in a future release. To retain the behavior and silence this warning, please use dropout "
                  f"instead. Note that {name} exists to provide channel-wise dropout on inputs with {spatial} spatial "
                  "dimensions, a channel dimension, and an optional batch dimension "
                  f"(i.e. {spatial + 1}D or {spatial + 2}D inputs).")


def dropout1d(input, p=0.5, training=True, inplace=False):
    """Zeroes whole channels of (N, C, L) or (C, L) inputs."""
    _check_p(p)
    ndim = input.dim()
    if ndim not in (2, 3):
        raise RuntimeError(f"dropout1d: Expected 2D or 3D input, but received a {ndim}D input. Note that dropout1d "
                           "exists to provide channel-wise dropout on inputs with 1 spatial dimension, a channel "
                           "dimension, and an optional batch dimension (i.e. 2D or 3D inputs).")
    return _channel_dropout(input, p, training, inplace, ndim == 3)


def dropout2d(input, p=0.5, training=True, inplace=False):
    """Zeroes whole channels of (N, C, H, W) inputs (a 3-D input is taken as (N, C, L), as in PyTorch 1.13)."""
    _check_p(p)
    ndim = input.dim()
    if ndim not in (3, 4):
        _warn_unexpected_dim('dropout2d', ndim, 2)
    if ndim == 3:
        warnings.warn("dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D dropout behavior "
                      "is desired - input is interpreted as shape (N, C, L), where C is the channel dim. This behavior "
                      "will change in a future release to interpret the input as one without a batch dimension, i.e. "
                      "shape (C, H, W). To maintain the 1D channel-wise dropout behavior, please switch to using "
                      "dropout1d instead.")
    return torch.feature_dropout_(input, p, training) if inplace else torch.feature_dropout(input, p, training)


def dropout3d(input, p=0.5, training=True, inplace=False):
    """Zeroes whole channels of (N, C, D, H, W) or (C, D, H, W) inputs."""
    _check_p(p)
    ndim = input.dim()
    if ndim not in (4, 5):
        _warn_unexpected_dim('dropout3d', ndim, 3)
    return _channel_dropout(input, p, training, inplace, ndim == 5)
