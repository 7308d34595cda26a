"""torch.onnx.operators: shape helpers that an ONNX export would record as Shape/Reshape nodes; eagerly they
compute the same values."""
import torch

__all__ = ['shape_as_tensor', 'reshape_from_tensor_shape']


def shape_as_tensor(x):
    """x's shape as a 1-D int64 tensor."""
    return torch.tensor(x.shape, dtype=torch.int64)


def reshape_from_tensor_shape(x, shape):
    """x reshaped to the shape held in a 1-D integer tensor."""
    return x.reshape([int(s) for s in shape])
