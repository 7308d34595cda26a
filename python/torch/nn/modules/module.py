"""nn.Module: the base of every layer and model.

A module keeps its state in three ordered dicts that attribute access reads and writes through:
_parameters (nn.Parameter or None), _buffers (tensors or None; some not persistent, i.e. left out of
state_dict) and _modules (submodules or None). Everything that walks a model (named_parameters,
state_dict, to(), train(), repr) walks these dicts in insertion order, depth first, as PyTorch does,
so names, orders and error messages are PyTorch's.
"""
import functools
import itertools
import warnings
import weakref
from collections import OrderedDict, namedtuple
from collections.abc import Mapping

import torch
from torch.nn.parameter import Parameter, is_lazy
from torch.utils.hooks import RemovableHandle

__all__ = ['register_module_forward_pre_hook', 'register_module_forward_hook', 'register_module_backward_hook',
           'register_module_full_backward_hook', 'Module']

_EXTRA_STATE_KEY_SUFFIX = '_extra_state'


def _typename(o):
    """torch.typename: 'torch.FloatTensor' for a tensor, else the qualified class name."""
    if isinstance(o, torch.Tensor):
        return o.type()
    module = getattr(o, '__module__', None)
    prefix = module + '.' if module not in (None, 'builtins', '__builtin__') else ''
    name = getattr(o, '__qualname__', None) or getattr(o, '__name__', None) or type(o).__name__
    return prefix + name


class _IncompatibleKeys(namedtuple('IncompatibleKeys', ['missing_keys', 'unexpected_keys'])):
    def __repr__(self):
        if not self.missing_keys and not self.unexpected_keys:
            return '<All keys matched successfully>'
        return super().__repr__()

    __str__ = __repr__


def _addindent(text, spaces):
    """Indents every line but the first (a child's repr inside its parent's)."""
    first, *rest = text.split('\n')
    if not rest:
        return text
    return first + '\n' + '\n'.join(' ' * spaces + line for line in rest)


class _WrappedHook:
    """A hook that is also handed the module, which it holds weakly (load_state_dict pre-hooks)."""

    def __init__(self, hook, module=None):
        self.hook = hook
        functools.update_wrapper(self, hook)
        self.with_module = module is not None
        if self.with_module:
            self.module = weakref.ref(module)

    def __call__(self, *args, **kwargs):
        if self.with_module:
            module = self.module()
            if module is None:
                raise RuntimeError("You are trying to call the hook of a dead Module!")
            return self.hook(module, *args, **kwargs)
        return self.hook(*args, **kwargs)

    def __getstate__(self):
        state = {'hook': self.hook, 'with_module': self.with_module}
        if self.with_module:
            state['module'] = self.module()
        return state

    def __setstate__(self, state):
        self.hook = state['hook']
        self.with_module = state['with_module']
        if self.with_module:
            if state['module'] is None:
                raise RuntimeError("You are trying to revive the hook of a dead Module!")
            self.module = weakref.ref(state['module'])


# Hooks every module runs (debugging and profiling tools install these).
_global_backward_hooks = OrderedDict()
_global_is_full_backward_hook = None
_global_forward_pre_hooks = OrderedDict()
_global_forward_hooks = OrderedDict()


def _add_hook(hooks, hook):
    handle = RemovableHandle(hooks_dict=hooks)
    hooks[handle.id] = hook
    return handle


def register_module_forward_pre_hook(hook):
    """hook(module, input) runs before every module's forward; it may return a replacement input."""
    return _add_hook(_global_forward_pre_hooks, hook)


def register_module_forward_hook(hook):
    """hook(module, input, output) runs after every module's forward; it may replace the output."""
    return _add_hook(_global_forward_hooks, hook)


def _set_global_backward_kind(full):
    global _global_is_full_backward_hook
    if _global_is_full_backward_hook is (not full):
        raise RuntimeError("Cannot use both regular backward hooks and full backward hooks as a global Module hook. "
                           "Please use only one of them.")
    _global_is_full_backward_hook = full


def register_module_backward_hook(hook):
    """The deprecated, non-full backward hook, for every module."""
    _set_global_backward_kind(False)
    return _add_hook(_global_backward_hooks, hook)


def register_module_full_backward_hook(hook):
    """hook(module, grad_input, grad_output) for every module (see Module.register_full_backward_hook)."""
    _set_global_backward_kind(True)
    return _add_hook(_global_backward_hooks, hook)


def _zero_grads(params, set_to_none):
    """Module.zero_grad and Optimizer.zero_grad: a gradient is detached (and stops requiring grad)
    before it is zeroed in place, or dropped."""
    for p in params:
        if p.grad is None:
            continue
        if set_to_none:
            p.grad = None
            continue
        if p.grad.grad_fn is not None:
            p.grad.detach_()
        else:
            p.grad.requires_grad_(False)
        p.grad.zero_()


def _forward_unimplemented(self, *input):
    raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required "forward" function')


def _parse_to(*args, **kwargs):
    """Module.to's arguments, as Tensor.to takes them: (device, dtype, non_blocking, memory_format)."""
    allowed = {'device', 'dtype', 'non_blocking', 'memory_format', 'copy'}
    for k in kwargs:
        if k not in allowed:
            raise TypeError("to() received an invalid combination of arguments - got an unexpected keyword "
                            "argument '%s'" % k)
    device, dtype = kwargs.get('device'), kwargs.get('dtype')
    non_blocking = kwargs.get('non_blocking', False)
    rest = list(args)
    if rest and isinstance(rest[0], torch.Tensor):
        other = rest.pop(0)
        device, dtype = other.device, other.dtype
    elif rest and isinstance(rest[0], torch.dtype):
        dtype = rest.pop(0)
    elif rest and (rest[0] is None or isinstance(rest[0], (str, int, torch.device))) and not isinstance(rest[0], bool):
        device = rest.pop(0)
        if rest and (rest[0] is None or isinstance(rest[0], torch.dtype)):
            dtype = rest.pop(0)
    if rest and isinstance(rest[0], bool):
        non_blocking = rest.pop(0)
    if rest:
        raise TypeError('to() received an invalid combination of arguments - got (%s)'
                        % ', '.join(type(a).__name__ for a in args))
    if device is not None:
        device = torch.device(device)
    return device, dtype, non_blocking, kwargs.get('memory_format')


class Module:
    """Base class for all neural network modules; subclasses define forward(), and assign parameters,
    buffers and submodules as attributes in __init__ after calling super().__init__()."""

    dump_patches = False
    # Saved in state_dict's _metadata; _load_from_state_dict may read it to convert old checkpoints.
    _version = 1

    def __init__(self):
        # object.__setattr__: Module.__setattr__ needs these dicts to exist
        object.__setattr__(self, 'training', True)
        object.__setattr__(self, '_parameters', OrderedDict())
        object.__setattr__(self, '_buffers', OrderedDict())
        object.__setattr__(self, '_non_persistent_buffers_set', set())
        object.__setattr__(self, '_backward_hooks', OrderedDict())
        object.__setattr__(self, '_is_full_backward_hook', None)
        object.__setattr__(self, '_forward_hooks', OrderedDict())
        object.__setattr__(self, '_forward_pre_hooks', OrderedDict())
        object.__setattr__(self, '_state_dict_hooks', OrderedDict())
        object.__setattr__(self, '_load_state_dict_pre_hooks', OrderedDict())
        object.__setattr__(self, '_load_state_dict_post_hooks', OrderedDict())
        object.__setattr__(self, '_modules', OrderedDict())

    forward = _forward_unimplemented

    # ---- registration ----

    def _check_member_name(self, kind, name, registry):
        if not isinstance(name, str):
            raise TypeError("%s name should be a string. Got %s" % (kind, _typename(name)))
        if '.' in name:
            raise KeyError("%s name can't contain \".\"" % kind)
        if name == '':
            raise KeyError("%s name can't be empty string \"\"" % kind)
        if hasattr(self, name) and name not in registry:
            raise KeyError("attribute '%s' already exists" % name)

    def register_buffer(self, name, tensor, persistent=True):
        """Adds a tensor (or None) that is state but not a parameter; persistent buffers are part of
        state_dict."""
        if '_buffers' not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        self._check_member_name('buffer', name, self._buffers)
        if tensor is not None and not isinstance(tensor, torch.Tensor):
            raise TypeError("cannot assign '%s' object to buffer '%s' (torch Tensor or None required)"
                            % (_typename(tensor), name))
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def register_parameter(self, name, param):
        """Adds a parameter (an nn.Parameter, or None) under name."""
        if '_parameters' not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        self._check_member_name('parameter', name, self._parameters)
        if param is not None:
            if not isinstance(param, Parameter):
                raise TypeError("cannot assign '%s' object to parameter '%s' (torch.nn.Parameter or None required)"
                                % (_typename(param), name))
            if param.grad_fn:
                raise ValueError("Cannot assign non-leaf Tensor to parameter '{0}'. Model parameters must be created "
                                 "explicitly. To express '{0}' as a function of another Tensor, compute the value in "
                                 "the forward() method.".format(name))
        self._parameters[name] = param

    def add_module(self, name, module):
        """Adds a submodule (or None) under name; it is then an attribute of this module."""
        if module is not None and not isinstance(module, Module):
            raise TypeError("%s is not a Module subclass" % _typename(module))
        if not isinstance(name, str):
            raise TypeError("module name should be a string. Got %s" % _typename(name))
        if hasattr(self, name) and name not in self._modules:
            raise KeyError("attribute '%s' already exists" % name)
        if '.' in name:
            raise KeyError("module name can't contain \".\", got: %s" % name)
        if name == '':
            raise KeyError("module name can't be empty string \"\"")
        self._modules[name] = module

    def register_module(self, name, module):
        """The same as add_module."""
        self.add_module(name, module)

    # ---- lookup by dotted path ----

    def get_submodule(self, target):
        """The submodule at a dotted path ('encoder.layers.0'); '' is this module."""
        if target == '':
            return self
        mod = self
        for item in target.split('.'):
            if not hasattr(mod, item):
                raise AttributeError(mod._get_name() + " has no attribute `" + item + "`")
            mod = getattr(mod, item)
            if not isinstance(mod, Module):
                raise AttributeError("`" + item + "` is not an nn.Module")
        return mod

    def _get_attribute(self, target):
        """(module, name, value) of the attribute at a dotted path."""
        path, _, name = target.rpartition('.')
        mod = self.get_submodule(path)
        if not hasattr(mod, name):
            raise AttributeError(mod._get_name() + " has no attribute `" + name + "`")
        return mod, name, getattr(mod, name)

    def get_parameter(self, target):
        """The parameter at a dotted path ('encoder.weight')."""
        _, name, param = self._get_attribute(target)
        if not isinstance(param, Parameter):
            raise AttributeError("`" + name + "` is not an nn.Parameter")
        return param

    def get_buffer(self, target):
        """The buffer at a dotted path ('bn.running_mean')."""
        mod, name, buffer = self._get_attribute(target)
        if name not in mod._buffers:
            raise AttributeError("`" + name + "` is not a buffer")
        return buffer

    def get_extra_state(self):
        """Override (with set_extra_state) to keep extra, non-tensor state in state_dict."""
        raise RuntimeError("Reached a code path in Module.get_extra_state() that should never be called. Please file "
                           "an issue at https://github.com/pytorch/pytorch/issues/new?template=bug-report.yml to "
                           "report this bug.")

    def set_extra_state(self, state):
        raise RuntimeError("Reached a code path in Module.set_extra_state() that should never be called. Please file "
                           "an issue at https://github.com/pytorch/pytorch/issues/new?template=bug-report.yml to "
                           "report this bug.")

    # ---- conversions: parameters keep their identity, their data changes ----

    def _apply(self, fn):
        for module in self.children():
            module._apply(fn)
        for key, param in self._parameters.items():
            if param is None:
                continue
            with torch.no_grad():
                applied = fn(param)
            param.data = applied
            if param.grad is not None:
                with torch.no_grad():
                    grad_applied = fn(param.grad)
                param.grad.data = grad_applied
        for key, buf in self._buffers.items():
            if buf is not None:
                self._buffers[key] = fn(buf)
        return self

    def apply(self, fn):
        """Calls fn on every submodule (children first, depth first), then on this module."""
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    def share_memory(self):
        """Moves every parameter, gradient and buffer into shared memory in place (hogwild training
        with torch.multiprocessing)."""
        return self._apply(lambda t: t.share_memory_())

    def cuda(self, device=None):
        return self._apply(lambda t: t.cuda(device))

    def cpu(self):
        return self._apply(lambda t: t.cpu())

    def type(self, dst_type):
        return self._apply(lambda t: t.type(dst_type))

    def _floating_to(self, dtype):
        return self._apply(lambda t: t.to(dtype) if t.is_floating_point() else t)

    def float(self):
        return self._floating_to(torch.float32)

    def double(self):
        return self._floating_to(torch.float64)

    def half(self):
        return self._floating_to(torch.float16)

    def bfloat16(self):
        return self._floating_to(torch.bfloat16)

    def to_empty(self, *, device):
        return self._apply(lambda t: torch.empty_like(t, device=device))

    def to(self, *args, **kwargs):
        """Moves and/or casts parameters and buffers: to(device), to(dtype), to(device, dtype), to(tensor);
        only floating point tensors change dtype."""
        device, dtype, non_blocking, memory_format = _parse_to(*args, **kwargs)
        if dtype is not None and not (dtype.is_floating_point or getattr(dtype, 'is_complex', False)):
            raise TypeError('nn.Module.to only accepts floating point or complex dtypes, but got desired dtype=%s'
                            % dtype)

        def convert(t):
            kwargs = {'device': device, 'dtype': dtype if t.is_floating_point() else None,
                      'non_blocking': non_blocking}
            if memory_format is not None and t.dim() in (4, 5):
                kwargs['memory_format'] = memory_format
            return t.to(**kwargs)
        return self._apply(convert)

    # ---- hooks ----

    def register_forward_pre_hook(self, hook):
        """hook(module, input) runs before forward; it may return a replacement input."""
        return _add_hook(self._forward_pre_hooks, hook)

    def register_forward_hook(self, hook):
        """hook(module, input, output) runs after forward; it may return a replacement output."""
        return _add_hook(self._forward_hooks, hook)

    def _set_backward_kind(self, full):
        if self._is_full_backward_hook is (not full):
            raise RuntimeError("Cannot use both regular backward hooks and full backward hooks on a single Module. "
                               "Please use only one of them.")
        self._is_full_backward_hook = full

    def register_backward_hook(self, hook):
        """Deprecated: a hook on the grad_fn of forward's output (see register_full_backward_hook)."""
        self._set_backward_kind(False)
        return _add_hook(self._backward_hooks, hook)

    def register_full_backward_hook(self, hook):
        """hook(module, grad_input, grad_output) runs when the gradients with respect to the module's
        inputs are computed; it may return replacement grad_input. Inputs and outputs pass through an
        identity autograd Function (torch.utils.hooks.BackwardHook) whose nodes see both ends."""
        self._set_backward_kind(True)
        return _add_hook(self._backward_hooks, hook)

    def _get_backward_hooks(self):
        full, non_full = [], []
        if _global_is_full_backward_hook is True:
            full += _global_backward_hooks.values()
        if self._is_full_backward_hook is True:
            full += self._backward_hooks.values()
        if _global_is_full_backward_hook is False:
            non_full += _global_backward_hooks.values()
        if self._is_full_backward_hook is False:
            non_full += self._backward_hooks.values()
        return full, non_full

    def _maybe_warn_non_full_backward_hook(self, inputs, result, grad_fn):
        if not isinstance(result, torch.Tensor):
            if not (isinstance(result, tuple) and all(isinstance(r, torch.Tensor) for r in result)):
                warnings.warn("Using non-full backward hooks on a Module that does not return a single Tensor or a "
                              "tuple of Tensors is deprecated and will be removed in future versions. This hook will "
                              "be missing some of the grad_output. Please use register_full_backward_hook to get the "
                              "documented behavior.")
                return
        else:
            result = (result,)
        if not isinstance(inputs, torch.Tensor):
            if not (isinstance(inputs, tuple) and all(isinstance(i, torch.Tensor) for i in inputs)):
                warnings.warn("Using non-full backward hooks on a Module that does not take as input a single Tensor "
                              "or a tuple of Tensors is deprecated and will be removed in future versions. This hook "
                              "will be missing some of the grad_input. Please use register_full_backward_hook to get "
                              "the documented behavior.")
                return
        else:
            inputs = (inputs,)
        out_grad_fn = {r.grad_fn for r in result if r.grad_fn is not None}
        if len(out_grad_fn) == 0 or (len(out_grad_fn) == 1 and grad_fn not in out_grad_fn):
            warnings.warn("Using a non-full backward hook when outputs are nested in python data structure is "
                          "deprecated and will be removed in future versions. This hook will be missing some "
                          "grad_output.")
        elif len(out_grad_fn) > 1:
            warnings.warn("Using a non-full backward hook when outputs are generated by different autograd Nodes is "
                          "deprecated and will be removed in future versions. This hook will be missing some "
                          "grad_output. Please use register_full_backward_hook to get the documented behavior.")
        else:
            inputs_grad_fn = {i.grad_fn for i in inputs if i.grad_fn is not None}
            next_functions = {n[0] for n in grad_fn.next_functions}
            if inputs_grad_fn != next_functions:
                warnings.warn("Using a non-full backward hook when the forward contains multiple autograd Nodes is "
                              "deprecated and will be removed in future versions. This hook will be missing some "
                              "grad_input. Please use register_full_backward_hook to get the documented behavior.")

    # ---- calling ----

    def _call_impl(self, *input, **kwargs):
        if not (self._backward_hooks or self._forward_hooks or self._forward_pre_hooks or _global_backward_hooks
                or _global_forward_hooks or _global_forward_pre_hooks):
            return self.forward(*input, **kwargs)
        full_hooks, non_full_hooks = [], []
        if self._backward_hooks or _global_backward_hooks:
            full_hooks, non_full_hooks = self._get_backward_hooks()
        for hook in (*_global_forward_pre_hooks.values(), *self._forward_pre_hooks.values()):
            replaced = hook(self, input)
            if replaced is not None:
                input = replaced if isinstance(replaced, tuple) else (replaced,)
        bw_hook = None
        if full_hooks:
            bw_hook = torch.utils.hooks.BackwardHook(self, full_hooks)
            input = bw_hook.setup_input_hook(input)
        result = self.forward(*input, **kwargs)
        for hook in (*_global_forward_hooks.values(), *self._forward_hooks.values()):
            replaced = hook(self, input, result)
            if replaced is not None:
                result = replaced
        if bw_hook:
            result = bw_hook.setup_output_hook(result)
        if non_full_hooks:
            var = result
            while not isinstance(var, torch.Tensor):
                var = next(v for v in var.values() if isinstance(v, torch.Tensor)) if isinstance(var, dict) else var[0]
            grad_fn = var.grad_fn
            if grad_fn is not None:
                for hook in non_full_hooks:
                    grad_fn.register_hook(_WrappedHook(hook, self))
                self._maybe_warn_non_full_backward_hook(input, result, grad_fn)
        return result

    __call__ = _call_impl

    # ---- attributes: parameters, buffers and submodules live in their dicts ----

    def __setstate__(self, state):
        self.__dict__.update(state)
        for name in ('_forward_pre_hooks', '_state_dict_hooks', '_load_state_dict_pre_hooks',
                     '_load_state_dict_post_hooks'):
            self.__dict__.setdefault(name, OrderedDict())
        self.__dict__.setdefault('_non_persistent_buffers_set', set())
        self.__dict__.setdefault('_is_full_backward_hook', None)

    def __getattr__(self, name):
        d = self.__dict__
        for registry in ('_parameters', '_buffers', '_modules'):
            if registry in d and name in d[registry]:
                return d[registry][name]
        raise AttributeError("'%s' object has no attribute '%s'" % (type(self).__name__, name))

    def __setattr__(self, name, value):
        def remove_from(*containers):
            for c in containers:
                if name in c:
                    if isinstance(c, dict):
                        del c[name]
                    else:
                        c.discard(name)

        params = self.__dict__.get('_parameters')
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            remove_from(self.__dict__, self._buffers, self._modules, self._non_persistent_buffers_set)
            self.register_parameter(name, value)
            return
        if params is not None and name in params:
            if value is not None:
                raise TypeError("cannot assign '%s' as parameter '%s' (torch.nn.Parameter or None expected)"
                                % (_typename(value), name))
            self.register_parameter(name, value)
            return
        modules = self.__dict__.get('_modules')
        if isinstance(value, Module):
            if modules is None:
                raise AttributeError("cannot assign module before Module.__init__() call")
            remove_from(self.__dict__, self._parameters, self._buffers, self._non_persistent_buffers_set)
            modules[name] = value
            return
        if modules is not None and name in modules:
            if value is not None:
                raise TypeError("cannot assign '%s' as child module '%s' (torch.nn.Module or None expected)"
                                % (_typename(value), name))
            modules[name] = value
            return
        buffers = self.__dict__.get('_buffers')
        if buffers is not None and name in buffers:
            if value is not None and not isinstance(value, torch.Tensor):
                raise TypeError("cannot assign '%s' as buffer '%s' (torch.Tensor or None expected)"
                                % (_typename(value), name))
            buffers[name] = value
            return
        object.__setattr__(self, name, value)

    def __delattr__(self, name):
        if name in self._parameters:
            del self._parameters[name]
        elif name in self._buffers:
            del self._buffers[name]
            self._non_persistent_buffers_set.discard(name)
        elif name in self._modules:
            del self._modules[name]
        else:
            object.__delattr__(self, name)

    # ---- state_dict ----

    def _register_state_dict_hook(self, hook):
        """hook(module, state_dict, prefix, local_metadata) runs after state_dict; it may return a
        replacement."""
        return _add_hook(self._state_dict_hooks, hook)

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        """This module's own parameters and persistent buffers (and extra state) into destination."""
        for name, param in self._parameters.items():
            if param is not None:
                destination[prefix + name] = param if keep_vars else param.detach()
        for name, buf in self._buffers.items():
            if buf is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = buf if keep_vars else buf.detach()
        if type(self).get_extra_state is not Module.get_extra_state:
            destination[prefix + _EXTRA_STATE_KEY_SUFFIX] = self.get_extra_state()

    def state_dict(self, *args, destination=None, prefix='', keep_vars=False):
        """An ordered dict of every parameter and persistent buffer by dotted name (detached unless
        keep_vars), with each module's version in its _metadata."""
        if args:
            if destination is None:
                destination = args[0]
            if len(args) > 1 and prefix == '':
                prefix = args[1]
            if len(args) > 2 and keep_vars is False:
                keep_vars = args[2]
            warnings.warn("Positional args are being deprecated, use kwargs instead. Refer to "
                          "https://pytorch.org/docs/master/generated/torch.nn.Module.html#torch.nn.Module.state_dict"
                          " for details.")
        if destination is None:
            destination = OrderedDict()
            destination._metadata = OrderedDict()
        local_metadata = dict(version=self._version)
        if hasattr(destination, '_metadata'):
            destination._metadata[prefix[:-1]] = local_metadata
        self._save_to_state_dict(destination, prefix, keep_vars)
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(destination=destination, prefix=prefix + name + '.', keep_vars=keep_vars)
        for hook in self._state_dict_hooks.values():
            replaced = hook(self, destination, prefix, local_metadata)
            if replaced is not None:
                destination = replaced
        return destination

    def _register_load_state_dict_pre_hook(self, hook, with_module=False):
        """hook(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs)
        (after the module itself when with_module) runs before this module loads its state."""
        return _add_hook(self._load_state_dict_pre_hooks, _WrappedHook(hook, self if with_module else None))

    def register_load_state_dict_post_hook(self, hook):
        """hook(module, incompatible_keys) runs after load_state_dict; it may edit the key lists."""
        return _add_hook(self._load_state_dict_post_hooks, hook)

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                              error_msgs):
        """Copies this module's own state (not its children's) from state_dict; problems are appended to
        the lists. Override to convert old checkpoints (local_metadata has their version)."""
        for hook in self._load_state_dict_pre_hooks.values():
            hook(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs)
        persistent = {k: v for k, v in self._buffers.items() if k not in self._non_persistent_buffers_set}
        local_state = {k: v for k, v in itertools.chain(self._parameters.items(), persistent.items())
                       if v is not None}
        for name, param in local_state.items():
            key = prefix + name
            if key not in state_dict:
                if strict:
                    missing_keys.append(key)
                continue
            value = state_dict[key]
            if not (isinstance(value, torch.Tensor) or hasattr(type(value), '__torch_function__')):
                error_msgs.append('While copying the parameter named "{}", expected torch.Tensor or Tensor-like '
                                  'object from checkpoint but received {}'.format(key, type(value)))
                continue
            lazy = is_lazy(param)
            if not lazy and len(param.shape) == 0 and len(value.shape) == 1:
                value = value[0]  # old checkpoints stored 0-dim tensors as 1-element ones
            if not lazy and value.shape != param.shape:
                error_msgs.append('size mismatch for {}: copying a param with shape {} from checkpoint, the shape in '
                                  'current model is {}.'.format(key, value.shape, param.shape))
                continue
            try:
                with torch.no_grad():
                    param.copy_(value)
            except Exception as ex:
                error_msgs.append('While copying the parameter named "{}", whose dimensions in the model are {} and '
                                  'whose dimensions in the checkpoint are {}, an exception occurred : {}.'
                                  .format(key, param.size(), value.size(), ex.args))
        extra_key = prefix + _EXTRA_STATE_KEY_SUFFIX
        if type(self).set_extra_state is not Module.set_extra_state:
            if extra_key in state_dict:
                self.set_extra_state(state_dict[extra_key])
            elif strict:
                missing_keys.append(extra_key)
        elif strict and extra_key in state_dict:
            unexpected_keys.append(extra_key)
        if strict:
            for key in state_dict.keys():
                if key.startswith(prefix) and key != extra_key:
                    name = key[len(prefix):].split('.', 1)[0]
                    if name not in self._modules and name not in local_state:
                        unexpected_keys.append(key)

    def load_state_dict(self, state_dict, strict=True):
        """Copies parameters and buffers from state_dict; with strict, its keys must be exactly
        state_dict()'s. Returns (missing_keys, unexpected_keys)."""
        if not isinstance(state_dict, Mapping):
            raise TypeError("Expected state_dict to be dict-like, got {}.".format(type(state_dict)))
        missing_keys, unexpected_keys, error_msgs = [], [], []
        metadata = getattr(state_dict, '_metadata', None)
        state_dict = OrderedDict(state_dict)
        if metadata is not None:
            state_dict._metadata = metadata

        def load(module, local_state_dict, prefix=''):
            local_metadata = {} if metadata is None else metadata.get(prefix[:-1], {})
            module._load_from_state_dict(local_state_dict, prefix, local_metadata, True, missing_keys,
                                         unexpected_keys, error_msgs)
            for name, child in module._modules.items():
                if child is not None:
                    child_prefix = prefix + name + '.'
                    load(child, {k: v for k, v in local_state_dict.items() if k.startswith(child_prefix)},
                         child_prefix)
            incompatible = _IncompatibleKeys(missing_keys, unexpected_keys)
            for hook in module._load_state_dict_post_hooks.values():
                out = hook(module, incompatible)
                assert out is None, ("Hooks registered with ``register_load_state_dict_post_hook`` are not"
                                     "expected to return new values, if incompatible_keys need to be modified,"
                                     "it should be done inplace.")

        load(self, state_dict)
        if strict:
            if unexpected_keys:
                error_msgs.insert(0, 'Unexpected key(s) in state_dict: {}. '.format(
                    ', '.join('"{}"'.format(k) for k in unexpected_keys)))
            if missing_keys:
                error_msgs.insert(0, 'Missing key(s) in state_dict: {}. '.format(
                    ', '.join('"{}"'.format(k) for k in missing_keys)))
        if error_msgs:
            raise RuntimeError('Error(s) in loading state_dict for {}:\n\t{}'.format(
                type(self).__name__, "\n\t".join(error_msgs)))
        return _IncompatibleKeys(missing_keys, unexpected_keys)

    # ---- iteration ----

    def _named_members(self, get_members, prefix='', recurse=True):
        """(dotted name, member) over this module (and its submodules), each member once."""
        seen = set()
        modules = self.named_modules(prefix=prefix) if recurse else [(prefix, self)]
        for module_prefix, module in modules:
            for k, v in get_members(module):
                if v is None or v in seen:
                    continue
                seen.add(v)
                yield module_prefix + ('.' if module_prefix else '') + k, v

    def parameters(self, recurse=True):
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_parameters(self, prefix='', recurse=True):
        yield from self._named_members(lambda m: m._parameters.items(), prefix=prefix, recurse=recurse)

    def buffers(self, recurse=True):
        for _, buf in self.named_buffers(recurse=recurse):
            yield buf

    def named_buffers(self, prefix='', recurse=True):
        yield from self._named_members(lambda m: m._buffers.items(), prefix=prefix, recurse=recurse)

    def children(self):
        for _, module in self.named_children():
            yield module

    def named_children(self):
        seen = set()
        for name, module in self._modules.items():
            if module is not None and module not in seen:
                seen.add(module)
                yield name, module

    def modules(self):
        for _, module in self.named_modules():
            yield module

    def named_modules(self, memo=None, prefix='', remove_duplicate=True):
        """(dotted name, module) for this module and every submodule, depth first; a module reachable
        twice is given once unless remove_duplicate is False."""
        if memo is None:
            memo = set()
        if self in memo:
            return
        if remove_duplicate:
            memo.add(self)
        yield prefix, self
        for name, module in self._modules.items():
            if module is not None:
                yield from module.named_modules(memo, prefix + ('.' if prefix else '') + name, remove_duplicate)

    # ---- modes and gradients ----

    def train(self, mode=True):
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self):
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none=False):
        """Zeroes (or, with set_to_none, drops) every parameter's gradient."""
        _zero_grads(self.parameters(), set_to_none)

    # ---- printing ----

    def _get_name(self):
        return type(self).__name__

    def extra_repr(self):
        """What a module shows between its parentheses, one line per line; override it."""
        return ''

    def __repr__(self):
        extra = self.extra_repr()
        extra_lines = extra.split('\n') if extra else []
        child_lines = ['(' + key + '): ' + _addindent(repr(module), 2) for key, module in self._modules.items()]
        lines = extra_lines + child_lines
        text = self._get_name() + '('
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                text += extra_lines[0]
            else:
                text += '\n  ' + '\n  '.join(lines) + '\n'
        return text + ')'

    def __dir__(self):
        keys = (dir(type(self)) + list(self.__dict__) + list(self._parameters) + list(self._modules)
                + list(self._buffers))
        return sorted(k for k in keys if not k[0].isdigit())
