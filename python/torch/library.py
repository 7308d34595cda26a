"""torch.library: define ops and implement them in Python while the program runs.

    lib = torch.library.Library("myns", "DEF")
    lib.define("scale(Tensor x, float factor) -> Tensor")
    lib.impl("scale", lambda x, factor: x * factor, "CPU")
    torch.ops.myns.scale(torch.ones(2), 3.0)
"""
from torch import _C

_KINDS = ('DEF', 'IMPL', 'FRAGMENT')
_DISPATCH_KEYS = {'CPU': 'cpu', 'CUDA': 'cuda', 'Meta': 'meta'}


class Library:
    def __init__(self, ns, kind, dispatch_key=''):
        if kind not in _KINDS:
            raise ValueError('Unsupported kind: %s' % kind)
        if not isinstance(ns, str) or not ns.isidentifier():
            raise ValueError('invalid namespace %r' % (ns,))
        self.ns = ns
        self.kind = kind
        self.dispatch_key = dispatch_key
        self._defined = {}

    def define(self, schema):
        """Adds an op; RuntimeError if it exists already."""
        if self.kind == 'IMPL':
            raise RuntimeError('a Library of kind IMPL cannot define ops')
        if '::' in schema.split('(', 1)[0]:
            raise ValueError('define() takes a schema without a namespace: %s' % schema)
        op_id = _C._op_define('%s::%s' % (self.ns, schema))
        name = schema.split('(', 1)[0].strip()
        self._defined[name] = op_id
        return name

    def impl(self, op_name, fn, dispatch_key=''):
        """Implements op_name ("name" or "name.overload") on a device (CPU, CUDA, Meta)."""
        key = dispatch_key or self.dispatch_key or 'CPU'
        if key not in _DISPATCH_KEYS:
            raise ValueError('unsupported dispatch key %r (expected one of %s)' % (key, ', '.join(_DISPATCH_KEYS)))
        name = op_name if '::' in op_name else '%s::%s' % (self.ns, op_name)
        base, _, overload = name.partition('.')
        ids = [i for o, i in _C._op_overloads(base) if o == overload]
        if not ids:
            raise RuntimeError('impl: there is no op %s; define it first' % name)
        _C._op_impl(ids[0], _DISPATCH_KEYS[key], fn, 'torch.library(%s)' % self.ns)


def impl(lib, name, dispatch_key=''):
    """Decorator form: @torch.library.impl(lib, "name", "CPU")."""
    def register(fn):
        lib.impl(name, fn, dispatch_key)
        return fn
    return register
