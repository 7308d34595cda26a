"""torch.torch_version.TorchVersion: torch.__version__, a str that also compares as a PEP 440 version
with strings, tuples and lists (torch.__version__ >= '1.10', >= (1, 12)). Only <, <=, ==, >= and > take
the version order, as in PyTorch; != stays str's. Text that is no version compares as a plain str."""
import re

from torch.version import __version__ as internal_version

__all__ = ['TorchVersion', 'InvalidVersion']


class InvalidVersion(ValueError):
    pass


_PEP440 = (r'v?(?:(\d+)!)?(\d+(?:\.\d+)*)'
                     r'(?:[-_.]?(a|b|c|rc|alpha|beta|pre|preview)[-_.]?(\d*))?'
                     r'(?:-(\d+)|[-_.]?(?:post|rev|r)[-_.]?(\d*))?'
                     r'(?:[-_.]?dev[-_.]?(\d*))?'
                     r'(?:\+([a-z0-9]+(?:[-_.][a-z0-9]+)*))?')  # compiled on the first comparison
_PRE = {'a': 'a', 'alpha': 'a', 'b': 'b', 'beta': 'b', 'c': 'rc', 'rc': 'rc', 'pre': 'rc', 'preview': 'rc'}
_INF, _NEG = (float('inf'),), (float('-inf'),)


def _key(text):
    """PEP 440's order as a tuple: epoch, release without trailing zeros, pre, post, dev, local."""
    m = re.fullmatch(_PEP440, text.strip(), re.IGNORECASE)
    if not m:
        raise InvalidVersion("Invalid version: '%s'" % text)
    epoch, release, pre_l, pre_n, post_implicit, post_n, dev_n, local = m.groups()
    rel = [int(x) for x in release.split('.')]
    while len(rel) > 1 and rel[-1] == 0:
        rel.pop()
    dev = _INF if dev_n is None else (int(dev_n or 0),)
    post_given = post_implicit is not None or post_n is not None
    post = (int(post_implicit or post_n or 0),) if post_given else _NEG
    if pre_l is not None:
        pre = (_PRE[pre_l.lower()], int(pre_n or 0))
    elif dev_n is not None and not post_given:
        pre = ('',)  # 1.0.dev0 sorts before 1.0a0
    else:
        pre = ('~',)  # a final release sorts after its pre-releases
    loc = () if local is None else tuple((0, int(p)) if p.isdigit() else (-1, p.lower())
                                          for p in re.split(r'[-_.]', local))
    return (int(epoch or 0), tuple(rel), pre, post, dev, loc)


def _other_key(other):
    if isinstance(other, str):
        return _key(other)
    if isinstance(other, (tuple, list)):
        return _key('.'.join(str(x) for x in other))
    raise InvalidVersion(other)


class TorchVersion(str):
    def _cmp(self, other, method):
        try:
            return getattr(_key(self), method)(_other_key(other))
        except InvalidVersion:
            return getattr(str, method)(self, other)

    def __lt__(self, other):
        return self._cmp(other, '__lt__')

    def __le__(self, other):
        return self._cmp(other, '__le__')

    def __eq__(self, other):
        return self._cmp(other, '__eq__')

    def __ge__(self, other):
        return self._cmp(other, '__ge__')

    def __gt__(self, other):
        return self._cmp(other, '__gt__')

    __hash__ = str.__hash__


__version__ = TorchVersion(internal_version)
