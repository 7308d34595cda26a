"""Handles that remove a hook they stand for (RemovableHandle), and the machinery of module full
backward hooks (BackwardHook)."""
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


class BackwardHook:
    """Module full backward hooks (nn.Module.register_full_backward_hook).

    The tensors going into and coming out of the module's forward pass through an identity autograd
    Function (torch.nn.modules._functions.BackwardHookFunction). The node made for the outputs sees the
    gradients with respect to the outputs first and keeps them; the node made for the inputs then
    receives the gradients with respect to the inputs and calls the user's hooks with both, and may
    replace what flows on with what the hooks return.
    """

    def __init__(self, module, user_hooks):
        self.user_hooks = user_hooks
        self.module = module
        self.grad_outputs = None
        self.n_outputs = -1
        self.output_tensors_index = None
        self.n_inputs = -1
        self.input_tensors_index = None

    @staticmethod
    def _pack_with_none(indices, values, size):
        packed = [None] * size
        for i, v in zip(indices, values):
            packed[i] = v
        return tuple(packed)

    @staticmethod
    def _unpack_none(indices, values):
        return tuple(values[i] for i in indices)

    def _set_user_hook(self, grad_fn):
        def hook(grad_input, _):
            if self.grad_outputs is None:
                return None  # this backward pass did not go through the outputs
            res = self._pack_with_none(self.input_tensors_index, grad_input, self.n_inputs)
            for user_hook in self.user_hooks:
                out = user_hook(self.module, res, self.grad_outputs)
                if out is None:
                    continue
                if len(out) != len(res):
                    raise RuntimeError("Backward hook returned an invalid number of grad_input, got {}, but expected "
                                       "{}".format(len(out), len(res)))
                res = out
            self.grad_outputs = None
            return self._unpack_none(self.input_tensors_index, res)
        grad_fn.register_hook(hook)

    def _apply_on_tensors(self, fn, args):
        """Passes the tensors among args through the identity Function; fn gets its node."""
        import torch
        from torch.nn.modules._functions import BackwardHookFunction
        index = [i for i, a in enumerate(args) if isinstance(a, torch.Tensor)]
        tensors = [args[i] for i in index]
        if not (any(t.requires_grad for t in tensors) and torch.is_grad_enabled()):
            return args, None
        new_tensors = BackwardHookFunction.apply(*tensors)
        if len(new_tensors) == 0:
            raise RuntimeError("Cannot set Module backward hook for a Module with no input Tensors.")
        grad_fns = [t.grad_fn for t in new_tensors
                    if t.grad_fn is not None and t.grad_fn.name() == 'BackwardHookFunctionBackward']
        if not grad_fns:
            raise RuntimeError("Error while setting up backward hooks. Please open an issue with a code sample to "
                               "reproduce this.")
        fn(grad_fns[0])
        out = list(args)
        for i, t in zip(index, new_tensors):
            out[i] = t
        return tuple(out), index

    def setup_input_hook(self, args):
        res, index = self._apply_on_tensors(self._set_user_hook, args)
        self.n_inputs = len(args)
        self.input_tensors_index = index
        return res

    def setup_output_hook(self, args):
        def fn(grad_fn):
            def hook(_, grad_output):
                self.grad_outputs = self._pack_with_none(self.output_tensors_index, grad_output, self.n_outputs)
                if self.input_tensors_index is None:  # no input requires grad: the hooks run now
                    grad_inputs = self._pack_with_none([], [], self.n_inputs)
                    for user_hook in self.user_hooks:
                        res = user_hook(self.module, grad_inputs, self.grad_outputs)
                        if res is not None and not (isinstance(res, tuple) and all(el is None for el in res)):
                            raise RuntimeError("Backward hook for Modules where no input requires gradient should "
                                               "always return None or None for all gradients.")
                    self.grad_outputs = None
            grad_fn.register_hook(hook)

        is_tuple = isinstance(args, tuple)
        if not is_tuple:
            args = (args,)
        res, index = self._apply_on_tensors(fn, args)
        self.n_outputs = len(args)
        self.output_tensors_index = index
        return res if is_tuple else res[0]
