"""How tensors and storages pickle inside torch.multiprocessing: by a handle to shared memory.

A storage moves into shared memory in place (the sender keeps using the same bytes) and pickles as
the way to reach that memory: a DupFd of its memfd ('file_descriptor') or the name of its /dev/shm
segment ('file_system'). A tensor pickles as its storage plus its geometry and requires_grad;
nn.Parameters come back as Parameters. Each storage in a message maps its segment anew: two tensors
over one storage reach the same memory in the receiver (writes through one are seen through the
other), through two mappings.
"""
import os
from multiprocessing.reduction import DupFd, ForkingPickler

import torch
from torch import _C

def _as_storage(cls, dtype, t):
    """A storage object of class cls over the uint8 tensor t."""
    untyped = torch.UntypedStorage(t)
    if cls is torch.UntypedStorage:
        return untyped
    if cls is torch.TypedStorage:
        return torch.TypedStorage(wrap_storage=untyped, dtype=dtype)
    return cls(wrap_storage=untyped)


def rebuild_storage_empty(cls, dtype):
    return _as_storage(cls, dtype, torch.empty(0, dtype=torch.uint8))


def rebuild_storage_fd(cls, dtype, df, nbytes):
    try:
        fd = df.detach()
    except (EOFError, OSError) as e:
        raise RuntimeError('could not receive the file descriptor of a shared tensor (%s: %s): the process that '
                           'sent it ended before it was received; with the file_descriptor sharing strategy a sender '
                           'must live until its tensors are received' % (type(e).__name__, e)) from e
    try:
        t = _C._storage_from_shm_fd(fd, nbytes)
    finally:
        os.close(fd)
    return _as_storage(cls, dtype, t)


def rebuild_storage_filename(cls, dtype, name, nbytes):
    t = _C._storage_from_shm_name(name, nbytes)
    _C._shm_ref(t, -1)  # the reference the pickle held
    return _as_storage(cls, dtype, t)


def reduce_storage(storage):
    if storage.device.type != 'cpu':
        raise RuntimeError('Cannot pickle CUDA storage; try pickling a CUDA tensor instead')
    cls, dtype = type(storage), storage.dtype
    nbytes = storage.nbytes()
    if nbytes == 0:  # nothing to share
        return (rebuild_storage_empty, (cls, dtype))
    t = _C._storage_tensor(storage._t, torch.uint8)
    kind, fd, name = torch.multiprocessing._share(t)
    if name is not None:
        _C._shm_ref(t, 1)  # held by the pickle until the receiver maps the segment
        return (rebuild_storage_filename, (cls, dtype, name, nbytes))
    return (rebuild_storage_fd, (cls, dtype, DupFd(fd), nbytes))


def rebuild_tensor(cls, storage, metadata):
    offset, size, stride, requires_grad = metadata
    t = torch._utils._rebuild_tensor(storage, offset, size, stride)
    if cls is torch.nn.Parameter:
        return torch.nn.Parameter(t, requires_grad=requires_grad)
    t.requires_grad = requires_grad
    return torch._utils._as_subclass(t, cls)


def reduce_tensor(tensor):
    if tensor.requires_grad and not tensor.is_leaf:
        raise RuntimeError('Cowardly refusing to serialize non-leaf tensor which requires_grad, since autograd does '
                           'not support crossing process boundaries.  If you just want to transfer the data, call '
                           'detach() on the tensor before serializing (e.g., putting it on the queue).')
    if tensor.device.type != 'cpu':
        return tensor.__reduce_ex__(2)  # other devices travel by value
    metadata = (tensor.storage_offset(), tuple(tensor.size()), tensor.stride(), tensor.requires_grad)
    return (rebuild_tensor, (type(tensor), tensor.storage(), metadata))


def init_reductions():
    ForkingPickler.register(torch.Tensor, reduce_tensor)
    ForkingPickler.register(torch.nn.Parameter, reduce_tensor)
    for cls in [torch.UntypedStorage, torch.TypedStorage] + list(torch.storage._LEGACY_CLASSES.values()):
        ForkingPickler.register(cls, reduce_storage)
