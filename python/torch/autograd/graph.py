"""The graph's nodes as Python objects, and hooks on what they save.

`y.grad_fn` is an instance of a class named after the node (AddBackward0), made on first use as a
subclass of Node; a custom Function's ctx is its node too.
"""
import threading

from torch import _C
from torch.utils.hooks import RemovableHandle


class Node(_C._Node):
    """A node of the autograd graph: name(), next_functions, hooks, metadata."""

    def __repr__(self):
        if isinstance(self, _C._FunctionBase):  # a custom Function's node: its class's own name
            return object.__repr__(self)
        return '<%s object at %#x>' % (type(self).__name__, id(self))

    @property
    def metadata(self):
        try:
            return self.__dict__['_metadata']
        except KeyError:
            self.__dict__['_metadata'] = {}
            return self.__dict__['_metadata']

    def register_hook(self, fn):
        """fn(grad_inputs, grad_outputs) runs after the node; it may return new grad_inputs."""
        hook_id = self._register_hook(fn)
        return RemovableHandle(self, lambda node: node._remove_hook(hook_id))

    def register_prehook(self, fn):
        """fn(grad_outputs) runs before the node; it may return new grad_outputs."""
        hook_id = self._register_prehook(fn)
        return RemovableHandle(self, lambda node: node._remove_hook(hook_id))


_C._set_node_base(Node)

_hooks = threading.local()


def _stack():
    if not hasattr(_hooks, 'stack'):
        _hooks.stack = []
    return _hooks.stack


class saved_tensors_hooks:
    """Within the block, every tensor a node saves goes through pack_hook(tensor) -> anything, and
    unpack_hook(that) -> tensor gives it back when backward needs it."""

    def __init__(self, pack_hook, unpack_hook):
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self):
        _stack().append((self.pack_hook, self.unpack_hook))
        _C._set_saved_tensors_hooks(self.pack_hook, self.unpack_hook)

    def __exit__(self, *exc):
        stack = _stack()
        stack.pop()
        if stack:
            _C._set_saved_tensors_hooks(*stack[-1])
        else:
            _C._set_saved_tensors_hooks(None, None)


class save_on_cpu(saved_tensors_hooks):
    """Saved tensors are kept on the CPU (copied back to their device when backward needs them)."""

    def __init__(self, pin_memory=False):
        def pack(tensor):
            return tensor.device, tensor.cpu()

        def unpack(packed):
            device, tensor = packed
            return tensor.to(device)

        super().__init__(pack, unpack)
