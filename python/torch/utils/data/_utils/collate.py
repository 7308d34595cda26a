"""default_collate (samples -> a batch) and default_convert (numpy -> tensors, no batching), by the
type of the first sample: tensors are stacked, numbers become tensors (floats as float64), numpy
arrays become tensors, strings stay, mappings / namedtuples / sequences are collated field by field."""
import collections.abc
import contextlib
import re

import torch
from torch.utils.data._utils.worker import get_worker_info

__all__ = ['default_collate', 'default_convert', 'collate', 'default_collate_fn_map']

np_str_obj_array_pattern = re.compile(r'[SaUO]')

default_collate_err_msg_format = ("default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; "
                                  "found {}")


def _stack(tensors):
    """torch.stack(tensors, 0), with the pieces copied into one new tensor (torch.stack comes with the
    joining family). In a DataLoader worker the batch is made in shared memory, as PyTorch's
    default_collate does, so that sending it to the main process copies nothing."""
    first = tensors[0]
    for i, t in enumerate(tensors):
        if t.shape != first.shape:
            raise RuntimeError("stack expects each tensor to be equal size, but got {} at entry 0 and {} at entry {}"
                               .format(list(first.shape), list(t.shape), i))
    shape = (len(tensors),) + tuple(first.shape)
    if get_worker_info() is not None and first.device.type == 'cpu':
        numel = 1
        for n in shape:
            numel *= n
        storage = first.storage()._new_shared(numel)
        stride, step = [], 1
        for n in reversed(shape):
            stride.insert(0, step)
            step *= max(n, 1)
        out = torch._utils._rebuild_tensor(storage, 0, shape, stride)
    else:
        out = torch.empty(shape, dtype=first.dtype, device=first.device)
    for i, t in enumerate(tensors):
        out[i] = t
    return out


def default_convert(data):
    """numpy arrays and scalars (nested in mappings, namedtuples and sequences) as tensors."""
    elem_type = type(data)
    if isinstance(data, torch.Tensor):
        return data
    if elem_type.__module__ == 'numpy' and elem_type.__name__ not in ('str_', 'string_'):
        if elem_type.__name__ == 'ndarray' and np_str_obj_array_pattern.search(data.dtype.str) is not None:
            return data  # arrays of strings or objects stay
        return torch.as_tensor(data)
    if isinstance(data, collections.abc.Mapping):
        try:
            return elem_type({key: default_convert(data[key]) for key in data})
        except TypeError:  # the mapping type cannot be built from a dict
            return {key: default_convert(data[key]) for key in data}
    if isinstance(data, tuple) and hasattr(data, '_fields'):  # namedtuple
        return elem_type(*(default_convert(d) for d in data))
    if isinstance(data, tuple):
        return [default_convert(d) for d in data]
    if isinstance(data, collections.abc.Sequence) and not isinstance(data, (str, bytes)):
        try:
            return elem_type([default_convert(d) for d in data])
        except TypeError:
            return [default_convert(d) for d in data]
    return data


def collate(batch, *, collate_fn_map=None):
    """Collates a list of samples by the first one's type: collate_fn_map[type] first, then mappings,
    namedtuples and sequences recursively."""
    elem = batch[0]
    elem_type = type(elem)
    if collate_fn_map is not None:
        if elem_type in collate_fn_map:
            return collate_fn_map[elem_type](batch, collate_fn_map=collate_fn_map)
        for collate_type in collate_fn_map:
            if isinstance(elem, collate_type):
                return collate_fn_map[collate_type](batch, collate_fn_map=collate_fn_map)
    if isinstance(elem, collections.abc.Mapping):
        try:
            return elem_type({key: collate([d[key] for d in batch], collate_fn_map=collate_fn_map) for key in elem})
        except TypeError:
            return {key: collate([d[key] for d in batch], collate_fn_map=collate_fn_map) for key in elem}
    if isinstance(elem, tuple) and hasattr(elem, '_fields'):
        return elem_type(*(collate(samples, collate_fn_map=collate_fn_map) for samples in zip(*batch)))
    if isinstance(elem, collections.abc.Sequence):
        size = len(elem)
        if not all(len(e) == size for e in batch):
            raise RuntimeError('each element in list of batch should be of equal size')
        transposed = list(zip(*batch))
        if isinstance(elem, tuple):
            return [collate(samples, collate_fn_map=collate_fn_map) for samples in transposed]
        try:
            return elem_type([collate(samples, collate_fn_map=collate_fn_map) for samples in transposed])
        except TypeError:
            return [collate(samples, collate_fn_map=collate_fn_map) for samples in transposed]
    raise TypeError(default_collate_err_msg_format.format(elem_type))


def collate_tensor_fn(batch, *, collate_fn_map=None):
    return _stack(batch)


def collate_numpy_array_fn(batch, *, collate_fn_map=None):
    if np_str_obj_array_pattern.search(batch[0].dtype.str) is not None:
        raise TypeError(default_collate_err_msg_format.format(batch[0].dtype))
    return collate([torch.as_tensor(b) for b in batch], collate_fn_map=collate_fn_map)


def collate_numpy_scalar_fn(batch, *, collate_fn_map=None):
    return torch.as_tensor(batch)


def collate_float_fn(batch, *, collate_fn_map=None):
    return torch.tensor(batch, dtype=torch.float64)


def collate_int_fn(batch, *, collate_fn_map=None):
    return torch.tensor(batch)


def collate_str_fn(batch, *, collate_fn_map=None):
    return batch


default_collate_fn_map = {torch.Tensor: collate_tensor_fn}
with contextlib.suppress(ImportError):
    import numpy as np
    default_collate_fn_map[np.ndarray] = collate_numpy_array_fn
    # numpy scalars (np.ndarray is handled above, so this does not catch it)
    default_collate_fn_map[(np.bool_, np.number, np.object_)] = collate_numpy_scalar_fn
default_collate_fn_map[float] = collate_float_fn
default_collate_fn_map[int] = collate_int_fn
default_collate_fn_map[(str, bytes)] = collate_str_fn


def default_collate(batch):
    """The DataLoader's default collate_fn (see the module's docstring)."""
    return collate(batch, collate_fn_map=default_collate_fn_map)
