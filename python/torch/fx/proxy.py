"""torch.fx.proxy: a Proxy stands for a value during symbolic tracing. Whatever the traced code does to
it (operators, method calls, attribute reads, indexing, torch functions) is recorded as a new Node of the
tracer's graph and answered with a new Proxy."""
import dis
import inspect
import operator

import torch
from torch.fx.node import Node, map_aggregate

__all__ = ['TracerBase', 'GraphAppendingTracer', 'TraceError', 'Proxy', 'Attribute', 'ParameterProxy']


class TraceError(ValueError):
    pass


class TracerBase:
    """Turns calls on proxies into graph nodes; Tracer (symbolic tracing) builds on it."""
    graph = None
    record_stack_traces = False
    check_mutable_operations = False
    trace_asserts = False
    proxy_buffer_attributes = False
    traced_func_name = 'forward'

    def create_node(self, kind, target, args, kwargs, name=None, type_expr=None):
        return self.graph.create_node(kind, target, args, kwargs, name, type_expr)

    def proxy(self, node):
        return Proxy(node, self)

    def create_proxy(self, kind, target, args, kwargs, name=None, type_expr=None, proxy_factory_fn=None):
        """Records one operation: its arguments go through create_arg (proxies become their nodes), the node
        is created and a Proxy for it returned."""
        args_ = self.create_arg(args)
        kwargs_ = self.create_arg(kwargs)
        if not isinstance(args_, tuple) or not isinstance(kwargs_, dict):
            raise AssertionError('create_proxy: args must be a tuple and kwargs a dict')
        node = self.create_node(kind, target, args_, kwargs_, name, type_expr)
        return self.proxy(node) if proxy_factory_fn is None else proxy_factory_fn(node)

    def create_arg(self, a):
        """Converts a traced value into a node argument: proxies to their nodes, containers element-wise;
        primitives, dtypes, devices and the like stay as they are."""
        if isinstance(a, Proxy):
            return a.node
        if isinstance(a, Node):
            return a
        if isinstance(a, tuple) and hasattr(a, '_fields'):
            return type(a)(*(self.create_arg(x) for x in a))
        if isinstance(a, (tuple, list)):
            return type(a)(self.create_arg(x) for x in a)
        if isinstance(a, dict):
            out = {}
            for k, v in a.items():
                k = self.create_arg(k)
                if isinstance(k, Node):
                    raise RuntimeError('Keys for dictionaries used as an argument cannot contain a Node. Got key: %s'
                                       % (k,))
                out[k] = self.create_arg(v)
            return out
        if isinstance(a, slice):
            return slice(self.create_arg(a.start), self.create_arg(a.stop), self.create_arg(a.step))
        if isinstance(a, range):
            return range(self.create_arg(a.start), self.create_arg(a.stop), self.create_arg(a.step))
        if a is None or a is Ellipsis or isinstance(a, (str, int, float, bool, complex, torch.dtype, torch.device,
                                                         torch.memory_format, torch.layout)):
            return a
        raise NotImplementedError('argument of type: %s' % type(a))

    def to_bool(self, obj):
        raise TraceError('symbolically traced variables cannot be used as inputs to control flow')

    def iter(self, obj):
        raise TraceError('Proxy object cannot be iterated. This can be attempted when the Proxy is used in a loop '
                         'or as a *args or **kwargs function argument. See the torch.fx docs on pytorch.org for a '
                         'more detailed explanation of what types of control flow can be traced, and check out the '
                         'Proxy docstring for help troubleshooting Proxy iteration errors')

    def keys(self, obj):
        return Attribute(obj, 'keys')()


class GraphAppendingTracer(TracerBase):
    """A tracer that appends to an existing graph (for building nodes through Proxy by hand)."""

    def __init__(self, graph):
        super().__init__()
        self.graph = graph


class Proxy:
    """Stands for the value of `node` while tracing; operations on it are recorded by `tracer`."""

    def __init__(self, node, tracer=None):
        if tracer is None:
            tracer = GraphAppendingTracer(node.graph)
        self.tracer = tracer
        self.node = node

    def __repr__(self):
        return 'Proxy(%s)' % self.node.name

    def __getattr__(self, k):
        if k.startswith('__') and k.endswith('__'):
            raise AttributeError(k)
        return Attribute(self, k)

    def __call__(self, *args, **kwargs):
        return self.tracer.create_proxy('call_method', '__call__', (self,) + args, kwargs)

    def __iter__(self):
        # `a, b = proxy` unpacks into getitem proxies when the calling bytecode says how many it wants
        frame = inspect.currentframe().f_back
        insts = list(dis.get_instructions(frame.f_code))
        cur = next((i for i, inst in enumerate(insts) if inst.offset == frame.f_lasti), None)
        if cur is not None:
            inst = insts[cur]
            if inst.opname == 'UNPACK_SEQUENCE':
                return (self[i] for i in range(inst.argval))
        return self.tracer.iter(self)

    def __bool__(self):
        return self.tracer.to_bool(self)

    def __len__(self):
        raise RuntimeError("'len' is not supported in symbolic tracing by default. If you want this call to be "
                           "recorded, please call torch.fx.wrap('len') at module scope")

    def keys(self):
        return self.tracer.keys(self)

    def __deepcopy__(self, memo):
        raise TraceError('a Proxy cannot be deep-copied while tracing')

    @classmethod
    def __torch_function__(cls, orig_method, types, args=None, kwargs=None):
        args = args if args else ()
        kwargs = kwargs if kwargs else {}
        tracer = None
        for p in _proxies_in((args, kwargs)):
            tracer = p.tracer
        return tracer.create_proxy('call_function', orig_method, args, kwargs)


def _proxies_in(a):
    found = []
    map_aggregate(a, lambda x: found.append(x) if isinstance(x, Proxy) else None)
    return found


class Attribute(Proxy):
    """`proxy.name`: becomes a getattr node when used as a value, a call_method node when called."""

    def __init__(self, root, attr):
        self.root = root
        self.attr = attr
        self.tracer = root.tracer
        self._node = None

    @property
    def node(self):
        if self._node is None:
            self._node = self.tracer.create_proxy('call_function', getattr, (self.root, self.attr), {}).node
        return self._node

    def __call__(self, *args, **kwargs):
        return self.tracer.create_proxy('call_method', self.attr, (self.root,) + args, kwargs)


class ParameterProxy(Proxy):
    """The proxy of a parameter read during tracing; its shape, size() and dim() answer concretely."""

    def __init__(self, tracer, node, name, param):
        super().__init__(node, tracer)
        self.param = param
        self.name = name

    def __repr__(self):
        return 'ParameterProxy(%s)' % self.name

    @property
    def shape(self):
        return self.param.shape

    def size(self, dim=None):
        return self.param.size() if dim is None else self.param.size(dim)

    def dim(self):
        return self.param.dim()

    @property
    def ndim(self):
        return self.param.ndim

    def numel(self):
        return self.param.numel()

    def nelement(self):
        return self.param.nelement()


def _define_magic(name, reflected=False):
    fn = getattr(operator, name)

    def impl(self, *args):
        operands = (args[0], self) if reflected else (self,) + args
        return self.tracer.create_proxy('call_function', fn, operands, {})

    impl.__name__ = '__r%s__' % name.rstrip('_') if reflected else '__%s__' % name.rstrip('_')
    setattr(Proxy, impl.__name__, impl)


_REFLECTABLE = ('add', 'sub', 'mul', 'floordiv', 'truediv', 'mod', 'pow', 'lshift', 'rshift', 'and_', 'or_', 'xor',
                'matmul')
for _name in _REFLECTABLE + ('eq', 'ne', 'lt', 'gt', 'le', 'ge', 'neg', 'pos', 'invert', 'abs', 'getitem'):
    _define_magic(_name)
for _name in _REFLECTABLE:
    _define_magic(_name, reflected=True)
Proxy.__hash__ = object.__hash__
