"""Handles that remove a hook they stand for (torch.utils.hooks.RemovableHandle)."""
import weakref


class RemovableHandle:
    """Returned by register_hook and friends; `handle.remove()` (or leaving a `with handle:` block)
    unregisters the hook. It holds its owner weakly: removing after the owner is gone does nothing."""

    next_id = 0

    def __init__(self, owner=None, remove=None, hooks_dict=None):
        self.id = RemovableHandle.next_id
        RemovableHandle.next_id += 1
        self._owner = weakref.ref(owner) if owner is not None else None
        self._remove = remove
        self.hooks_dict_ref = weakref.ref(hooks_dict) if hooks_dict is not None else None

    def remove(self):
        if self._remove is not None:
            owner = self._owner() if self._owner is not None else None
            if self._owner is None or owner is not None:
                self._remove(owner)
            self._remove = None
        if self.hooks_dict_ref is not None:
            hooks = self.hooks_dict_ref()
            if hooks is not None and self.id in hooks:
                del hooks[self.id]

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()
