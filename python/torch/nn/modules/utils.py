"""Argument normalisation the layer modules share: a size given as one int or as a tuple, and the
padding tuples F.pad takes (last dim first)."""
import collections.abc
import itertools

__all__ = ['consume_prefix_in_state_dict_if_present']


def _ntuple(n, name='parse'):
    """A function turning an int into an n-tuple of it, and any iterable into a tuple."""
    def parse(x):
        if isinstance(x, collections.abc.Iterable):
            return tuple(x)
        return tuple(itertools.repeat(x, n))
    parse.__name__ = name
    return parse


_single = _ntuple(1, '_single')
_pair = _ntuple(2, '_pair')
_triple = _ntuple(3, '_triple')
_quadruple = _ntuple(4, '_quadruple')


def _reverse_repeat_tuple(t, n):
    """(a, b) -> (b, b, a, a) for n = 2: a module's per-dim padding in F.pad's order."""
    return tuple(x for x in reversed(t) for _ in range(n))


def _list_with_default(out_size, defaults):
    """An adaptive pool's output size with None entries taken from the input's sizes."""
    if isinstance(out_size, int):
        return out_size
    if len(defaults) <= len(out_size):
        raise ValueError("Input dimension should be at least {}".format(len(out_size) + 1))
    return [v if v is not None else d for v, d in zip(out_size, defaults[-len(out_size):])]


def consume_prefix_in_state_dict_if_present(state_dict, prefix):
    """Strips `prefix` from the keys of state_dict (and of its _metadata) in place, e.g. 'module.' of a
    model saved from DataParallel."""
    for key in sorted(state_dict.keys()):
        if key.startswith(prefix):
            state_dict[key[len(prefix):]] = state_dict.pop(key)
    if '_metadata' in state_dict:  # a key of that name, as PyTorch 1.13 looks for it
        metadata = state_dict['_metadata']
        for key in list(metadata.keys()):
            if len(key) == 0:
                continue
            metadata[key[len(prefix):]] = metadata.pop(key)
