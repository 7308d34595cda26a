"""Flatten and Unflatten: reshape a range of dims into one, and one dim into several."""
from torch.nn.modules.module import Module

__all__ = ['Flatten', 'Unflatten']


class Flatten(Module):
    """Flattens dims start_dim..end_dim into one (by default all but the batch dim)."""

    __constants__ = ['start_dim', 'end_dim']

    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input):
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self):
        return 'start_dim={}, end_dim={}'.format(self.start_dim, self.end_dim)


class Unflatten(Module):
    """Expands dim `dim` into the shape unflattened_size (which may hold one -1)."""

    __constants__ = ['dim', 'unflattened_size']

    def __init__(self, dim, unflattened_size):
        super().__init__()
        if isinstance(dim, int):
            self._require_tuple_int(unflattened_size)
        elif isinstance(dim, str):
            self._require_tuple_tuple(unflattened_size)
        else:
            raise TypeError("invalid argument type for dim parameter")
        self.dim = dim
        self.unflattened_size = unflattened_size

    @staticmethod
    def _require_tuple_tuple(value):
        if not isinstance(value, tuple):
            raise TypeError("unflattened_size must be a tuple of tuples, but found type {}".format(
                type(value).__name__))
        for i, elem in enumerate(value):
            if not isinstance(elem, tuple):
                raise TypeError("unflattened_size must be tuple of tuples, but found element of type {} at pos {}"
                                .format(type(elem).__name__, i))

    @staticmethod
    def _require_tuple_int(value):
        if not isinstance(value, (tuple, list)):
            raise TypeError("unflattened_size must be a tuple of ints, but found type {}".format(type(value).__name__))
        for i, elem in enumerate(value):
            if not isinstance(elem, int):
                raise TypeError("unflattened_size must be tuple of ints, but found element of type {} at pos {}"
                                .format(type(elem).__name__, i))

    def forward(self, input):
        if isinstance(self.dim, str):
            raise RuntimeError("Unflatten with a named dim needs named tensors, which are not supported")
        dim = self.dim + input.dim() if self.dim < 0 else self.dim
        if not 0 <= dim < input.dim():
            raise IndexError("Dimension out of range (expected to be in range of [%d, %d], but got %d)"
                             % (-input.dim(), input.dim() - 1, self.dim))
        sizes = list(self.unflattened_size)
        if -1 in sizes:  # one inferred size, as view would infer it from the dim's length
            known = 1
            for s in sizes:
                known *= s if s != -1 else 1
            if known and sizes.count(-1) == 1:
                sizes[sizes.index(-1)] = input.shape[dim] // known
        total = 1
        for s in sizes:
            total *= s
        if total != input.shape[dim]:
            raise RuntimeError("unflatten: Provided sizes {} don't multiply up to the size of dim {} ({}) in the "
                               "input tensor".format(list(self.unflattened_size), self.dim, input.shape[dim]))
        return input.view(list(input.shape[:dim]) + sizes + list(input.shape[dim + 1:]))

    def extra_repr(self):
        return 'dim={}, unflattened_size={}'.format(self.dim, self.unflattened_size)
