"""Packed sequences: a batch of variable-length sequences stored time step by time step, without padding
(PackedSequence.data holds, for each step t, the step-t elements of the batch_sizes[t] sequences still
running, longest sequences first).

Packing and padding are written here with slice copies (differentiable through CopySlices); the
joining, sorting and index_select ops PyTorch builds them from come with other families.
"""
from collections import namedtuple
from collections.abc import Iterable

import torch

__all__ = ['PackedSequence', 'invert_permutation', 'pack_padded_sequence', 'pad_packed_sequence', 'pad_sequence',
           'unpad_sequence', 'pack_sequence', 'unpack_sequence']

_PackedSequenceBase = namedtuple('PackedSequence', ['data', 'batch_sizes', 'sorted_indices', 'unsorted_indices'])


class PackedSequence(_PackedSequenceBase):
    """(data, batch_sizes, sorted_indices, unsorted_indices): sorted_indices maps positions in the
    packed (length-sorted) batch to the original batch, unsorted_indices back."""

    def __new__(cls, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        if unsorted_indices is None:
            unsorted_indices = invert_permutation(sorted_indices)
        if batch_sizes is not None:
            if batch_sizes.device.type != 'cpu':
                raise ValueError("batch_sizes should always be on CPU. Instances of PackedSequence should never be "
                                 "created manually. They should be instantiated by functions like pack_sequence and "
                                 "pack_padded_sequences in nn.utils.rnn. "
                                 "https://pytorch.org/docs/stable/nn.html#torch.nn.utils.rnn.pack_sequence")
            return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)
        if not isinstance(data, (list, tuple)) or len(data) != 2:  # PackedSequence((data, batch_sizes))
            raise TypeError("PackedSequence expects data and batch_sizes, or a pair of them")
        return super().__new__(cls, data[0], data[1], sorted_indices, unsorted_indices)

    def _apply_to_data(self, fn):
        data = fn(self.data)
        if data is self.data:
            return self
        return type(self)(data, self.batch_sizes, self.sorted_indices, self.unsorted_indices)

    def to(self, *args, **kwargs):
        return self._apply_to_data(lambda d: d.to(*args, **kwargs))

    def cpu(self, *args, **kwargs):
        return self._apply_to_data(lambda d: d.cpu(*args, **kwargs))

    def cuda(self, *args, **kwargs):
        return self._apply_to_data(lambda d: d.cuda(*args, **kwargs))

    def double(self):
        return self.to(dtype=torch.double)

    def float(self):
        return self.to(dtype=torch.float)

    def half(self):
        return self.to(dtype=torch.half)

    def long(self):
        return self.to(dtype=torch.long)

    def int(self):
        return self.to(dtype=torch.int)

    def short(self):
        return self.to(dtype=torch.short)

    def char(self):
        return self.to(dtype=torch.int8)

    def byte(self):
        return self.to(dtype=torch.uint8)

    @property
    def is_cuda(self):
        return self.data.is_cuda

    def is_pinned(self):
        return False


def invert_permutation(permutation):
    """The inverse of an int64 permutation tensor (None for None)."""
    if permutation is None:
        return None
    order = permutation.tolist()
    inverse = [0] * len(order)
    for i, j in enumerate(order):
        inverse[j] = i
    return torch.tensor(inverse, dtype=torch.int64)


def _select(input, dim, indices):
    """input.index_select(dim, indices), by slice copies."""
    out = input.new_empty(input.shape)
    for i, j in enumerate(indices):
        out.select(dim, i).copy_(input.select(dim, j))
    return out


def pack_padded_sequence(input, lengths, batch_first=False, enforce_sorted=True):
    """Packs a padded batch (T x B x * or, batch_first, B x T x *) whose sequences have the given lengths;
    with enforce_sorted False the batch is sorted by decreasing length first (stably)."""
    lengths = torch.as_tensor(lengths, dtype=torch.int64)
    if lengths.dim() != 1 or lengths.device.type != 'cpu':
        raise RuntimeError("'lengths' argument should be a 1D CPU int64 tensor, but got %dD %s %s tensor"
                           % (lengths.dim(), lengths.device, 'Long'))
    lens = lengths.tolist()
    sorted_indices = None
    if not enforce_sorted:
        order = sorted(range(len(lens)), key=lambda i: -lens[i])
        sorted_indices = torch.tensor(order, dtype=torch.int64)
        lens = [lens[i] for i in order]
        input = _select(input, 0 if batch_first else 1, order)
    if input.numel() == 0:
        raise RuntimeError("Cannot pack empty tensors.")
    if batch_first:
        input = input.transpose(0, 1)
    steps, batch = input.shape[0], input.shape[1]
    if len(lens) != batch:
        raise RuntimeError("Expected `len(lengths)` to be equal to batch_size, but got %d (batch_size=%d)"
                           % (len(lens), batch))
    if any(a < b for a, b in zip(lens, lens[1:])):
        raise RuntimeError("`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. You can "
                           "pass `enforce_sorted=False` to pack_padded_sequence and/or pack_sequence to sidestep this "
                           "requirement if you do not need ONNX exportability.")
    if lens[-1] <= 0:
        raise RuntimeError("Length of all samples has to be greater than 0, but found an element in 'lengths' that "
                           "is <= 0")
    if lens[0] > steps:
        raise RuntimeError("a length of %d is longer than the input's %d time steps" % (lens[0], steps))
    batch_sizes = [sum(1 for n in lens if n > t) for t in range(lens[0])]
    data = input.new_empty((sum(lens),) + tuple(input.shape[2:]))
    offset = 0
    for t, bs in enumerate(batch_sizes):
        data[offset:offset + bs] = input[t, :bs]
        offset += bs
    return PackedSequence(data, torch.tensor(batch_sizes, dtype=torch.int64), sorted_indices, None)


def pad_packed_sequence(sequence, batch_first=False, padding_value=0.0, total_length=None):
    """The inverse of pack_padded_sequence: (padded batch, lengths), in the original batch order."""
    batch_sizes = sequence.batch_sizes.tolist()
    max_seq_length = len(batch_sizes)
    if total_length is not None:
        if total_length < max_seq_length:
            raise ValueError("Expected total_length to be at least the length of the longest sequence in input, but "
                             "got total_length={} and max sequence length being {}".format(total_length,
                                                                                          max_seq_length))
        max_seq_length = total_length
    data = sequence.data
    batch = batch_sizes[0] if batch_sizes else 0
    padded = torch.full((max_seq_length, batch) + tuple(data.shape[1:]), padding_value, dtype=data.dtype)
    offset = 0
    for t, bs in enumerate(batch_sizes):
        padded[t, :bs] = data[offset:offset + bs]
        offset += bs
    lengths = [sum(1 for bs in batch_sizes if bs > b) for b in range(batch)]
    if batch_first:
        padded = padded.transpose(0, 1)
    if sequence.unsorted_indices is not None:
        order = sequence.unsorted_indices.tolist()
        return _select(padded, 0 if batch_first else 1, order), torch.tensor([lengths[i] for i in order])
    return padded, torch.tensor(lengths, dtype=torch.int64)


def pad_sequence(sequences, batch_first=False, padding_value=0.0):
    """Stacks sequences of different lengths (L_i x *) into one T x B x * (or B x T x *) tensor, padding
    with padding_value."""
    if not isinstance(sequences, Iterable):
        raise RuntimeError('pad_sequence: Expected iterable for input sequences, but got arg of type: {}'.format(
            type(sequences)))
    sequences = tuple(sequences)
    if not sequences:
        raise RuntimeError("received an empty list of sequences")
    max_len = max(s.size(0) for s in sequences)
    trailing = tuple(sequences[0].shape[1:])
    out = torch.full((len(sequences), max_len) + trailing if batch_first else (max_len, len(sequences)) + trailing,
                     padding_value, dtype=sequences[0].dtype)
    for i, s in enumerate(sequences):
        if batch_first:
            out[i, :s.size(0)] = s
        else:
            out[:s.size(0), i] = s
    return out


def unpad_sequence(padded_sequences, lengths, batch_first=False):
    """The sequences of a padded batch, each cut to its length."""
    if not batch_first:
        padded_sequences = padded_sequences.transpose(0, 1)
    return [padded_sequences[i, :int(n)] for i, n in enumerate(lengths)]


def pack_sequence(sequences, enforce_sorted=True):
    """Packs a list of sequences (longest first unless enforce_sorted is False)."""
    lengths = torch.as_tensor([v.size(0) for v in sequences])
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


def unpack_sequence(packed_sequences):
    """The list of sequences a PackedSequence holds."""
    padded, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded, lengths, batch_first=True)
