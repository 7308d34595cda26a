"""A result as plain JSON, and the comparison of two such descriptions.

The worker describes whatever a case produced (a tensor, a Python value, a tuple of them, or the
exception it raised) the same way under this project's torch and under the reference PyTorch, so that
the reference's behaviour can be recorded once and compared with later. Only torch, math and json are
used here: this module runs inside both implementations.
"""
import math


def _encode(v):
    if isinstance(v, float):
        if math.isnan(v):
            return 'nan'
        if math.isinf(v):
            return 'inf' if v > 0 else '-inf'
        return v
    if isinstance(v, complex):  # JSON has no complex numbers: the parts, as a complex tensor's view_as_real
        return [_encode(v.real), _encode(v.imag)]
    if isinstance(v, (list, tuple)):
        return [_encode(x) for x in v]
    return v


def describe(value, torch):
    if isinstance(value, BaseException):  # the message is kept for reading, never compared
        return {'t': 'error', 'type': type(value).__name__, 'msg': str(value)[:200]}
    if isinstance(value, torch.Tensor):
        return {'t': 'tensor', 'dtype': str(value.dtype).replace('torch.', ''), 'shape': list(value.shape),
                'values': _encode(value.tolist())}
    if isinstance(value, torch.Size):
        return {'t': 'size', 'value': list(value)}
    if isinstance(value, tuple):
        return {'t': 'tuple', 'items': [describe(v, torch) for v in value]}
    if value is None or isinstance(value, (bool, int, float, complex, str)):
        return {'t': 'py', 'type': type(value).__name__, 'value': _encode(value)}
    return {'t': 'other', 'type': type(value).__name__}


# Relative tolerance per floating dtype: results are compared as values, and two correct
# implementations may round a float reduction differently in its last bits.
_TOLERANCE = {'float16': 2e-3, 'bfloat16': 1.6e-2, 'float32': 2e-6, 'float64': 1e-12}


def _close(a, b, tol):
    if isinstance(a, list) or isinstance(b, list):
        return isinstance(a, list) and isinstance(b, list) and len(a) == len(b) and \
            all(_close(x, y, tol) for x, y in zip(a, b))
    if isinstance(a, str) or isinstance(b, str):  # nan, inf, -inf
        return a == b
    if tol == 0 or isinstance(a, bool) or isinstance(b, bool):
        return a == b and type(a) is type(b)
    return abs(a - b) <= tol * max(abs(a), abs(b)) + tol * 1e-3


def differ(ours, ref):
    """None when the two descriptions agree, else a short reason."""
    if ours['t'] != ref['t']:
        return 'ours %s, reference %s' % (_short(ours), _short(ref))
    t = ours['t']
    if t == 'error':
        return None if ours['type'] == ref['type'] else 'ours raised %s (%s), reference %s (%s)' % (
            ours['type'], ours.get('msg', ''), ref['type'], ref.get('msg', ''))
    if t == 'tensor':
        if ours['dtype'] != ref['dtype'] or ours['shape'] != ref['shape']:
            return 'ours %s %s, reference %s %s' % (ours['dtype'], ours['shape'], ref['dtype'], ref['shape'])
        if not _close(ours['values'], ref['values'], _TOLERANCE.get(ours['dtype'], 0)):
            return 'values differ: ours %s, reference %s' % (_clip(ours['values']), _clip(ref['values']))
        return None
    if t == 'tuple':
        if len(ours['items']) != len(ref['items']):
            return 'tuples of %d and %d' % (len(ours['items']), len(ref['items']))
        for a, b in zip(ours['items'], ref['items']):
            why = differ(a, b)
            if why:
                return why
        return None
    if t == 'py':
        same = ours['type'] == ref['type'] and _close(ours['value'], ref['value'], 1e-12 if ours['type'] == 'float' else 0)
        return None if same else 'ours %r, reference %r' % (ours['value'], ref['value'])
    return None if ours == ref else 'ours %s, reference %s' % (_short(ours), _short(ref))


def _short(d):
    if d['t'] == 'error':
        return 'raised %s (%s)' % (d['type'], d.get('msg', ''))
    if d['t'] == 'tensor':
        return 'a %s tensor of shape %s' % (d['dtype'], d['shape'])
    return d['t'] + ' ' + str(d.get('type', ''))


def _clip(v, n=120):
    s = str(v)
    return s if len(s) <= n else s[:n] + '...'
