"""The list and dict that a Node keeps its arguments in: mutating them in place would bypass the
graph's user bookkeeping, so every mutator raises (build a new one and assign node.args instead)."""

__all__ = ['immutable_list', 'immutable_dict']


def _refuse(self, *args, **kwargs):
    raise NotImplementedError("'%s' object is immutable" % type(self).__name__)


def _frozen(base, mutators):
    cls = type('immutable_' + base.__name__, (base,), {name: _refuse for name in mutators})
    cls.__module__ = __name__
    cls.__hash__ = lambda self: hash(tuple(self.items() if isinstance(self, dict) else self))
    cls.__reduce__ = lambda self: (cls, (base(self),))
    return cls


immutable_list = _frozen(list, ('__delitem__', '__iadd__', '__imul__', '__setitem__', 'append', 'clear', 'extend',
                                'insert', 'pop', 'remove', 'reverse', 'sort'))
immutable_dict = _frozen(dict, ('__delitem__', '__setitem__', 'clear', 'pop', 'popitem', 'setdefault', 'update'))
