"""torch._six: the Python 2/3 shims PyTorch 1.13 still ships, for code that imports them."""
import math

inf = math.inf
nan = math.nan
string_classes = (str, bytes)


def with_metaclass(meta, *bases):
    """A base class whose subclasses are made by `meta` (six's idiom for `class C(Base, metaclass=meta)`)."""
    class _Bridge(meta):
        def __new__(mcs, name, this_bases, d):
            return meta(name, bases, d)
    return type.__new__(_Bridge, 'temporary_class', (), {})
