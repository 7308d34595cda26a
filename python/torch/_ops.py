"""torch.ops: every op by its qualified name. torch.ops.aten.add is the packet of add's overloads
(callable, trying them in order as torch.add does) and torch.ops.aten.add.Tensor one overload;
ops added with torch.library or by a loaded library live under their own namespace
(torch.ops.myns.foo)."""
import types

from torch import _C


class OpOverload:
    def __init__(self, qualname, overload, op_id):
        self._qualname = qualname
        self._overloadname = overload or 'default'
        self._id = op_id
        self._schema = _C._op_schema(op_id)

    def __call__(self, *args, **kwargs):
        return _C._call_ops((self._id,), self._qualname.split('::')[-1], args, kwargs or None)

    def __repr__(self):
        return "<OpOverload(op='%s', overload='%s')>" % (self._qualname.replace('::', '.'), self._overloadname)

    def __str__(self):
        return '%s.%s' % (self._qualname.replace('::', '.'), self._overloadname)


class OpOverloadPacket:
    def __init__(self, qualname, core_name, overloads):
        self._qualname = qualname
        self._core_name = core_name
        self._overloads = overloads  # [(overload name, id)] in declaration order
        self._ids = tuple(i for _, i in overloads)

    def __getattr__(self, name):
        for overload, op_id in self._overloads:
            if overload == name or (name == 'default' and overload == ''):
                op = OpOverload(self._qualname, overload, op_id)
                setattr(self, name, op)
                return op
        raise AttributeError("'%s' has no overload '%s'" % (self._qualname, name))

    def overloads(self):
        return [o or 'default' for o, _ in self._overloads]

    def __call__(self, *args, **kwargs):
        return _C._call_ops(self._ids, self._qualname.split('::')[-1], args, kwargs or None)

    def __repr__(self):
        return "<OpOverloadPacket(op='%s')>" % self._qualname.replace('::', '.')

    def __str__(self):
        return self._qualname.replace('::', '.')


class _Namespace(types.ModuleType):
    def __init__(self, name):
        super().__init__('torch.ops.' + name)
        self._ns = name

    def __getattr__(self, name):
        core_name = name if self._ns == 'aten' else '%s::%s' % (self._ns, name)
        overloads = _C._op_overloads(core_name)
        if not overloads:  # dunder names are ops too (aten::__and__); other ones are Python's protocol lookups
            raise AttributeError(name if name.startswith('__') else "No such operator %s::%s" % (self._ns, name))
        packet = OpOverloadPacket('%s::%s' % (self._ns, name), core_name, overloads)
        setattr(self, name, packet)
        return packet


class _Ops(types.ModuleType):
    def __init__(self):
        super().__init__('torch.ops')
        self.loaded_libraries = set()

    def __getattr__(self, name):
        if name.startswith('__'):
            raise AttributeError(name)
        ns = _Namespace(name)
        setattr(self, name, ns)
        return ns

    def load_library(self, path):
        """Loads a plugin built against the SDK: its ops and kernels join the core's. OSError (as
        PyTorch's ctypes.CDLL raises) with the loader's reason when the file cannot be loaded or is not
        a plugin of this project."""
        import os
        path = os.path.realpath(path)
        try:
            _C._load_library(path)
        except RuntimeError as e:
            raise OSError(str(e)) from None
        self.loaded_libraries.add(path)


ops = _Ops()
