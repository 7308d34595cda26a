"""torch.fx._symbolic_trace: Tracer runs a module's forward with Proxy inputs and records what happens
into a Graph. Submodules for which is_leaf_module answers True become call_module nodes; others are
traced through. This framework's torch functions are C functions without __torch_function__, so while
a trace runs the tracer swaps the functions of `torch` and `torch.nn.functional` (and their aliases in the
traced code's globals, plus whatever torch.fx.wrap named) for wrappers that record a call_function node
when a Proxy is among the arguments and call the original otherwise; everything is restored afterwards."""
import builtins
import functools
import inspect
import math
import sys
import types
import warnings

import torch
from torch.fx.graph import Graph
from torch.fx.graph_module import GraphModule
from torch.fx.node import map_aggregate
from torch.fx.proxy import ParameterProxy, Proxy, TraceError, TracerBase

__all__ = ['Tracer', 'symbolic_trace', 'wrap', 'PH', 'ProxyableClassMeta', 'is_fx_tracing', 'TraceError']

_is_fx_tracing_flag = False
_wrapped_fns_to_patch = []      # (globals dict, name) pairs named by torch.fx.wrap
_wrapped_methods_to_patch = []  # (class, method name) pairs
_proxyable_classes = {}


def is_fx_tracing():
    return _is_fx_tracing_flag


class _PH:
    """Marks a concrete_args entry that stays a traced input."""

    def __repr__(self):
        return 'PH'


PH = _PH()


class ProxyableClassMeta(type):
    """Metaclass for classes whose construction from proxies is recorded as one call_function node."""

    def __init__(cls, name, bases, attrs):
        _proxyable_classes.setdefault(cls)
        super().__init__(name, bases, attrs)

    def __call__(cls, *args, **kwargs):
        proxies = _find_proxies((args, kwargs))
        if proxies:
            return proxies[0].tracer.create_proxy('call_function', cls, args, kwargs)
        return super().__call__(*args, **kwargs)


def _find_proxies(a):
    found = []
    map_aggregate(a, lambda x: found.append(x) if isinstance(x, Proxy) else None)
    return found


def _assert_is_none(value, msg):
    assert value is None, msg


def wrap(fn_or_name):
    """Called at module scope (`torch.fx.wrap('name')`, or as a decorator), makes calls of that module-level
    function appear as one call_function node in traces instead of being traced through."""
    if callable(fn_or_name):
        fn_name = fn_or_name.__name__
    elif isinstance(fn_or_name, str):
        fn_name = fn_or_name
    else:
        raise AssertionError('Unsupported type for global function! Must be either a callable or string name')
    if callable(fn_or_name) and fn_or_name.__code__.co_name == '<lambda>':
        raise NotImplementedError('wrap must be called at the top level of a module')
    caller = sys._getframe(1)
    if caller.f_code.co_name != '<module>':
        raise NotImplementedError('wrap must be called at the top level of a module')
    _wrapped_fns_to_patch.append((caller.f_globals, fn_name))
    return fn_or_name


def _recording_wrapper(fn):
    """fn, but a call with a Proxy among its arguments is recorded as a call_function node of fn."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        proxies = _find_proxies((args, kwargs))
        if proxies:
            return proxies[0].tracer.create_proxy('call_function', fn, args, kwargs)
        return fn(*args, **kwargs)
    wrapper.__fx_original__ = fn
    return wrapper


class _Patcher:
    """Replaces attributes for the duration of a trace and puts every original back on exit."""

    def __init__(self):
        self._undo = []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        while self._undo:
            target, name, orig, was_dict = self._undo.pop()
            if was_dict == 'missing':
                target.pop(name, None)
            elif was_dict:
                target[name] = orig
            else:
                setattr(target, name, orig)

    def patch_missing(self, glbls, name, new):
        """Adds a name that the dict lacked (a wrapped builtin such as `len`); exit removes it."""
        self._undo.append((glbls, name, None, 'missing'))
        glbls[name] = new

    def patch(self, target, name, new):
        if isinstance(target, dict):
            self._undo.append((target, name, target[name], True))
            target[name] = new
        else:
            self._undo.append((target, name, target.__dict__[name] if isinstance(target, type) else
                               getattr(target, name), False))
            setattr(target, name, new)


# Type questions that must answer about the Proxy itself, not be recorded.
_NEVER_RECORDED = {'is_tensor', 'is_storage'}


def _is_plain_function(obj):
    return isinstance(obj, (types.FunctionType, types.BuiltinFunctionType)) and \
        not getattr(obj, '__fx_original__', None) and obj.__name__ not in _NEVER_RECORDED


def _function_namespaces():
    """The namespaces whose functions record themselves while tracing."""
    spaces = [torch, torch.nn.functional]
    linalg = sys.modules.get('torch.linalg')
    special = sys.modules.get('torch.special')
    return spaces + [m for m in (linalg, special) if m is not None]


class Tracer(TracerBase):
    """Symbolic tracer: trace(root) returns the Graph of root's forward (or of a plain function).

    autowrap_modules: modules whose functions, when found in the traced code's globals, record as a node
    (math by default, so `math.sqrt(x.size(1))` is recorded). autowrap_functions: single functions likewise.
    param_shapes_constant: parameters' shape reads answer concretely instead of being recorded."""

    def __init__(self, autowrap_modules=(math,), autowrap_functions=(), param_shapes_constant=False):
        super().__init__()
        self._autowrap_function_ids = {id(value) for module in autowrap_modules
                                       for name, value in module.__dict__.items()
                                       if not name.startswith('_') and callable(value)}
        self._autowrap_function_ids.update(id(f) for f in autowrap_functions)
        self._autowrap_search = list(autowrap_modules)
        self.param_shapes_constant = param_shapes_constant
        self.submodule_paths = None
        self.root = None
        self.tensor_attrs = {}

    # ---- what becomes a node ----

    def is_leaf_module(self, m, module_qualified_name):
        """torch.nn's own modules (not Sequential) are recorded as call_module nodes; others are traced
        through."""
        module = type(m).__module__ or ''
        return (module.startswith('torch.nn') or module.startswith('torch.ao.nn')) \
            and not isinstance(m, torch.nn.Sequential)

    def path_of_module(self, mod):
        """The qualified name of submodule mod in the traced root (NameError if it is not one)."""
        if self.submodule_paths:
            path = self.submodule_paths.get(mod)
            if path is None:
                raise NameError('module is not installed as a submodule')
            return path
        for name, m in self.root.named_modules():
            if m is mod:
                return name
        raise NameError('module is not installed as a submodule')

    def call_module(self, m, forward, args, kwargs):
        """A call of submodule m: a call_module node for a leaf, else its forward traced through."""
        module_qualified_name = self.path_of_module(m)
        if not self.is_leaf_module(m, module_qualified_name):
            return forward(*args, **kwargs)
        return self.create_proxy('call_module', module_qualified_name, args, kwargs)

    def getattr(self, attr, attr_val, parameter_proxy_cache):
        """A module attribute read while tracing: parameters become get_attr proxies (one per name)."""
        if isinstance(attr_val, torch.nn.Parameter):
            for n, p in self.root.named_parameters():
                if attr_val is p:
                    if n not in parameter_proxy_cache:
                        if self.param_shapes_constant:
                            node = self.create_proxy('get_attr', n, (), {}).node
                            parameter_proxy_cache[n] = ParameterProxy(self, node, n, attr_val)
                        else:
                            parameter_proxy_cache[n] = self.create_proxy('get_attr', n, (), {})
                    return parameter_proxy_cache[n]
        return attr_val

    def create_arg(self, a):
        """Besides TracerBase's cases: the root's parameters and buffers become get_attr nodes, other
        tensors become constants attached to the root (`_tensor_constant0`...), and submodules passed as
        values become get_attr nodes."""
        if isinstance(a, torch.nn.Parameter):
            for n, p in self.root.named_parameters():
                if a is p:
                    return self.create_node('get_attr', n, (), {})
            raise NameError('parameter is not a member of this module')
        if isinstance(a, torch.Tensor):
            for n, b in self.root.named_buffers():
                if a is b:
                    return self.create_node('get_attr', n, (), {})
            qualname = self.tensor_attrs.get(a)
            if qualname is None:
                i = 0
                while hasattr(self.root, '_tensor_constant%d' % i):
                    i += 1
                qualname = '_tensor_constant%d' % i
                setattr(self.root, qualname, a)
                self.tensor_attrs[a] = qualname
            return self.create_node('get_attr', qualname, (), {})
        if isinstance(a, torch.nn.Module):
            return self.create_node('get_attr', self.path_of_module(a), (), {})
        if type(a) in _proxyable_classes:
            i = 0
            while hasattr(self.root, '_%s_constant_%d' % (type(a).__name__, i)):
                i += 1
            name = '_%s_constant_%d' % (type(a).__name__, i)
            setattr(self.root, name, a)
            return self.create_node('get_attr', name, (), {})
        return super().create_arg(a)

    # ---- the trace ----

    def create_args_for_root(self, root_fn, is_module, concrete_args=None):
        """The placeholder proxies for root_fn's parameters (a concrete_args entry is passed as its value,
        and its placeholder keeps that value as default)."""
        fn = inspect.unwrap(root_fn)
        sig = inspect.signature(fn)
        names = list(sig.parameters)[1 if is_module else 0:]
        concrete_args = concrete_args or {}
        if isinstance(concrete_args, tuple):
            concrete_args = dict(zip(names, concrete_args))
        args = [self.root] if is_module else []
        kwargs = {}
        for name in names:
            param = sig.parameters[name]
            if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
                raise TraceError('symbolic tracing of %s with a *args or **kwargs parameter (%s) is not supported '
                                 'here' % (fn.__qualname__, name))
            if name in concrete_args and concrete_args[name] is not PH:
                value = self._specialize(name, param, concrete_args[name])
            else:
                default = () if param.default is inspect.Parameter.empty else (param.default,)
                value = self.create_proxy('placeholder', name, default, {}, type_expr=fn.__annotations__.get(name))
            if param.kind == param.KEYWORD_ONLY:
                kwargs[name] = value
            else:
                args.append(value)
        return root_fn, args, kwargs

    def _specialize(self, name, param, value):
        """A concrete_args entry: the traced code sees the value; the graph keeps an input `<name>_1` and
        asserts that callers pass that same value."""
        default = () if param.default is inspect.Parameter.empty else (param.default,)
        ph = self.create_proxy('placeholder', name + '_1', default, {})
        msg = '%s has been specialized to have value %s but got another value' % (name, value)
        if value is None:
            self.create_proxy('call_function', _assert_is_none, (ph, msg), {})
        elif isinstance(value, (bool, int, float, complex, str, torch.dtype, torch.device, torch.memory_format,
                                torch.layout)):
            self.create_proxy('call_function', torch._assert, (ph == value, msg), {})
        else:
            warnings.warn('Was not able to add assertion to guarantee correct input %s to specialized function. '
                          'It is up to the user to make sure that your inputs match the inputs you specialized the '
                          'function with.' % name)
        return value

    def trace(self, root, concrete_args=None):
        """Traces root (a Module's forward, or a function) and returns the Graph."""
        global _is_fx_tracing_flag
        old_flag, _is_fx_tracing_flag = _is_fx_tracing_flag, True
        try:
            if isinstance(root, torch.nn.Module):
                self.root = root
                fn = type(root).forward
                is_module = True
            else:
                self.root = torch.nn.Module()
                fn = root
                is_module = False
            self.graph = Graph(tracer_cls=getattr(self, '__class__', None))
            self.tensor_attrs = {}  # tensors held as plain module attributes keep their names

            def collect_tensor_attrs(m, prefix):
                for k, v in m.__dict__.items():
                    if isinstance(v, torch.Tensor):
                        self.tensor_attrs[v] = prefix + k
                for k, child in m.named_children():
                    collect_tensor_attrs(child, prefix + k + '.')
            collect_tensor_attrs(self.root, '')
            self.submodule_paths = {mod: name for name, mod in self.root.named_modules()}
            fn, args, kwargs = self.create_args_for_root(fn, is_module, concrete_args)
            parameter_proxy_cache = {}
            with _Patcher() as patcher:
                self._patch_all(patcher, fn, parameter_proxy_cache)
                result = fn(*args, **kwargs)
            self.create_node('output', 'output', (self.create_arg(result),), {},
                             type_expr=fn.__annotations__.get('return', None))
            self.submodule_paths = None
        finally:
            _is_fx_tracing_flag = old_flag
        return self.graph

    def _patch_all(self, patcher, fn, parameter_proxy_cache):
        tracer = self
        orig_call = torch.nn.Module.__call__
        orig_getattr = torch.nn.Module.__getattr__

        def module_call_wrapper(mod, *args, **kwargs):
            def forward(*args, **kwargs):
                return orig_call(mod, *args, **kwargs)
            return tracer.call_module(mod, forward, args, kwargs)

        def module_getattr_wrapper(mod, attr):
            attr_val = orig_getattr(mod, attr)
            return tracer.getattr(attr, attr_val, parameter_proxy_cache)

        patcher.patch(torch.nn.Module, '__call__', module_call_wrapper)
        patcher.patch(torch.nn.Module, '__getattr__', module_getattr_wrapper)

        replaced = {}

        def recording(obj):
            key = id(obj)
            if key not in replaced:
                replaced[key] = _recording_wrapper(obj)
            return replaced[key]

        for space in _function_namespaces():
            for name, value in list(vars(space).items()):
                if not name.startswith('__') and _is_plain_function(value):
                    patcher.patch(space, name, recording(value))
        for cls, name in _wrapped_methods_to_patch:
            patcher.patch(cls, name, recording(getattr(cls, name)))
        for glbls, name in _wrapped_fns_to_patch:
            if name in glbls and not getattr(glbls[name], '__fx_original__', None):
                patcher.patch(glbls, name, recording(glbls[name]))
            elif name not in glbls and name in builtins.__dict__:
                patcher.patch_missing(glbls, name, recording(builtins.__dict__[name]))
        # functions imported by name into the traced code's modules (`from torch import cat`, `math.sqrt`
        # under autowrap) are patched where that code looks them up
        ids_to_wrap = set(self._autowrap_function_ids) | set(replaced)
        for module in self._autowrap_search:  # `math.sqrt(...)` looks the function up in math itself
            for name, value in list(vars(module).items()):
                if id(value) in self._autowrap_function_ids and _is_plain_function(value):
                    patcher.patch(module, name, recording(value))
        module_globals = {id(fn.__globals__): fn.__globals__} if hasattr(fn, '__globals__') else {}
        for m in self.root.modules():
            forward = getattr(type(m), 'forward', None)
            if isinstance(forward, types.FunctionType):
                module_globals.setdefault(id(forward.__globals__), forward.__globals__)
        for glbls in module_globals.values():
            for name, value in list(glbls.items()):
                if not name.startswith('__') and id(value) in ids_to_wrap and _is_plain_function(value):
                    patcher.patch(glbls, name, recording(value))




def symbolic_trace(root, concrete_args=None):
    """Traces root (a Module or a function) with the default Tracer and returns a GraphModule whose forward
    runs the recorded graph."""
    tracer = Tracer()
    graph = tracer.trace(root, concrete_args)
    name = root.__class__.__name__ if isinstance(root, torch.nn.Module) else root.__name__
    return GraphModule(tracer.root, graph, name)


