"""Functions PyTorch writes in Python (torch/functional.py, torch/__init__.py) that are not ops:
broadcast_shapes and is_storage."""
import torch


def broadcast_shapes(*shapes):
    """The shape tensors of the given shapes broadcast to, without making them."""
    result = []
    for shape in shapes:
        if isinstance(shape, int):
            shape = (shape,)
        elif isinstance(shape, torch.Tensor):
            raise RuntimeError('Input shapes should be of type ints, a tuple of ints, or a list of ints, got %s'
                               % type(shape).__name__)
        shape = tuple(shape)
        for s in shape:
            if not isinstance(s, int) or isinstance(s, bool):
                raise RuntimeError('Input shapes should be of type ints, a tuple of ints, or a list of ints, got %r'
                                   % (shape,))
            if s < 0:
                raise RuntimeError('Trying to create tensor with negative dimension (%d): (%d)' % (s, s))
        if len(shape) > len(result):
            result = [1] * (len(shape) - len(result)) + result
        for i in range(-1, -len(shape) - 1, -1):
            if shape[i] == 1 or shape[i] == result[i]:
                continue
            if result[i] != 1:
                raise RuntimeError('Shape mismatch: objects cannot be broadcast to a single shape')
            result[i] = shape[i]
    return torch.Size(result)


def is_storage(obj):
    """Whether obj is a storage (x.storage(), or its bytes: x.storage().untyped())."""
    return isinstance(obj, (torch.storage.TypedStorage, torch.storage.UntypedStorage))
