"""assert_close: inputs are paired recursively (sequences by position, mappings by key), then each pair of
tensors (or numpy arrays, or Python numbers) is checked attribute by attribute and value by value,
|actual - expected| <= atol + rtol * |expected| where it is not equal."""
import collections.abc
import math

import torch

# (rtol, atol) by dtype; any other dtype compares exactly
_DTYPE_PRECISIONS = {
    torch.float16: (1e-3, 1e-5), torch.bfloat16: (1.6e-2, 1e-5), torch.float32: (1.3e-6, 1e-5),
    torch.float64: (1e-7, 1e-7), torch.complex32: (1e-3, 1e-5), torch.complex64: (1.3e-6, 1e-5),
    torch.complex128: (1e-7, 1e-7),
}
_NUMBER_DTYPES = {bool: torch.bool, int: torch.int64, float: torch.float64, complex: torch.complex128}


class _Mismatch(AssertionError):
    pass


def _tolerances(dtypes, rtol, atol):
    if (rtol is None) != (atol is None):
        raise ValueError("Both 'rtol' and 'atol' must be either specified or omitted, but got no %s."
                         % ('rtol' if rtol is None else 'atol'))
    if rtol is not None:
        return rtol, atol
    pairs = [_DTYPE_PRECISIONS.get(d, (0.0, 0.0)) for d in dtypes]
    return max(p[0] for p in pairs), max(p[1] for p in pairs)


def _is_tensor_like(x, allow_subclasses):
    if isinstance(x, torch.Tensor):
        return allow_subclasses or type(x) is torch.Tensor
    return type(x).__module__ == 'numpy' and type(x).__name__ == 'ndarray'


def _as_tensor(x):
    return torch.from_numpy(x) if not isinstance(x, torch.Tensor) else x


def _mismatch_counts(actual, expected, rtol, atol, equal_nan):
    """A bool tensor: True where the values differ beyond the tolerance."""
    if actual.dtype.is_floating_point or actual.dtype.is_complex:
        a, e = actual.to(torch.complex128 if actual.dtype.is_complex else torch.float64), \
            expected.to(torch.complex128 if actual.dtype.is_complex else torch.float64)
        close = a == e
        finite = torch.isfinite(a) & torch.isfinite(e)
        close = close | (finite & ((a - e).abs() <= atol + rtol * e.abs()))
        if equal_nan:
            close = close | (torch.isnan(a) & torch.isnan(e))
        return ~close
    if rtol == 0 and atol == 0:
        return actual != expected
    a, e = actual.to(torch.float64), expected.to(torch.float64)
    return ~((a - e).abs() <= atol + rtol * e.abs())


def _diff_tensors(actual, expected):
    if actual.dtype.is_floating_point or actual.dtype.is_complex:
        wide = torch.complex128 if actual.dtype.is_complex else torch.float64
        a, e = actual.to(wide), expected.to(wide)
        return (a - e).abs(), e.abs()
    a, e = actual.to(torch.int64), expected.to(torch.int64)
    return (a - e).abs(), e.abs()


def _fmt(x):
    return repr(x) if isinstance(x, float) else str(x)


def _values_message(actual, expected, mismatches, rtol, atol, scalar):
    exact = rtol == 0 and atol == 0
    title = '%s are not %s!' % ('Scalars' if scalar else 'Tensor-likes', 'equal' if exact else 'close')
    abs_diff, base = _diff_tensors(actual.reshape(-1), expected.reshape(-1))
    rel_diff = abs_diff.to(torch.float64) / base.to(torch.float64)
    mask = ~mismatches.reshape(-1)
    abs_diff = abs_diff.masked_fill(mask, 0)
    rel_diff = rel_diff.masked_fill(mask, 0)
    abs_max, abs_i = torch.max(abs_diff, 0)
    rel_max, rel_i = torch.max(rel_diff, 0)
    abs_max, rel_max = abs_max.item(), rel_max.item()
    up_abs = '' if exact else ' (up to %s allowed)' % _fmt(atol)
    up_rel = '' if exact else ' (up to %s allowed)' % _fmt(rtol)
    if scalar:
        return '%s\n\nAbsolute difference: %s%s\nRelative difference: %s%s' % (
            title, _fmt(abs_max), up_abs, _fmt(rel_max), up_rel)
    n, total = int(mismatches.sum().item()), mismatches.numel()

    def where(flat):
        index = []
        for size in reversed(mismatches.shape):
            flat, mod = divmod(flat, size)
            index.append(mod)
        return tuple(reversed(index))
    return ('%s\n\nMismatched elements: %d / %d (%.1f%%)\nGreatest absolute difference: %s at index %s%s\n'
            'Greatest relative difference: %s at index %s%s' % (
                title, n, total, 100.0 * n / total, _fmt(abs_max), where(int(abs_i)), up_abs, _fmt(rel_max),
                where(int(rel_i)), up_rel))


def _compare_tensors(actual, expected, rtol, atol, equal_nan, check_device, check_dtype, check_layout,
                     check_stride, scalar=False):
    checks = [('shape', lambda t: t.shape)]
    if check_device:
        checks.append(('device', lambda t: t.device))
    if check_dtype:
        checks.append(('dtype', lambda t: t.dtype))
    if check_layout:
        checks.append(('layout', lambda t: t.layout))
    if check_stride:
        checks.append(('stride()', lambda t: t.stride()))
    for name, get in checks:
        if get(actual) != get(expected):
            raise _Mismatch("The values for attribute '%s' do not match: %s != %s." % (name, get(actual),
                                                                                      get(expected)))
    rtol, atol = _tolerances([actual.dtype, expected.dtype], rtol, atol)
    if actual.device != expected.device:
        actual, expected = actual.cpu(), expected.cpu()
    if actual.dtype != expected.dtype:
        common = torch.promote_types(actual.dtype, expected.dtype)
        actual, expected = actual.to(common), expected.to(common)
    actual, expected = actual.detach(), expected.detach()
    if actual.numel() == 0:
        return
    mismatches = _mismatch_counts(actual, expected, rtol, atol, equal_nan)
    if bool(mismatches.any()):
        raise _Mismatch(_values_message(actual, expected, mismatches, rtol, atol, scalar or actual.dim() == 0))


def _compare(actual, expected, path, options):
    """Raises _Mismatch (with the path of the pair in the inputs) or TypeError for inputs it cannot pair."""
    if actual is None or expected is None:
        if actual is not expected:
            raise _Mismatch('None mismatch: %s is not %s' % (actual, expected))
        return
    seq = collections.abc.Sequence
    if isinstance(actual, seq) and isinstance(expected, seq) and not isinstance(actual, (str, bytes)) \
            and not isinstance(expected, (str, bytes)):
        if len(actual) != len(expected):
            raise _Mismatch('The length of the sequences mismatch: %d != %d' % (len(actual), len(expected)))
        for i, (a, e) in enumerate(zip(actual, expected)):
            _compare(a, e, path + [i], options)
        return
    if isinstance(actual, collections.abc.Mapping) and isinstance(expected, collections.abc.Mapping):
        if set(actual) != set(expected):
            missing = sorted(set(expected) - set(actual), key=repr)
            extra = sorted(set(actual) - set(expected), key=repr)
            raise _Mismatch('The keys of the mappings do not match:\nMissing keys in the actual mapping: %s\n'
                            'Additional keys in the actual mapping: %s' % (missing, extra))
        for k in actual:
            _compare(actual[k], expected[k], path + [k], options)
        return
    allow_subclasses = options.pop('allow_subclasses')
    try:
        if _is_tensor_like(actual, allow_subclasses) and _is_tensor_like(expected, allow_subclasses) \
                and isinstance(actual, torch.Tensor) == isinstance(expected, torch.Tensor):
            _path_wrap(lambda: _compare_tensors(_as_tensor(actual), _as_tensor(expected), **options), path)
            return
        if type(actual) in _NUMBER_DTYPES and type(expected) in _NUMBER_DTYPES:
            if (type(actual) is bool) != (type(expected) is bool):
                raise RuntimeError('A bool and a number cannot be compared: %r and %r' % (actual, expected))
            if options['check_dtype'] and type(actual) is not type(expected):
                raise _Mismatch('The (d)types do not match: %s != %s.' % (type(actual), type(expected)))
            t = [torch.tensor(x, dtype=_NUMBER_DTYPES[type(x)]) for x in (actual, expected)]
            _path_wrap(lambda: _compare_tensors(t[0], t[1], **dict(options, check_dtype=False), scalar=True), path)
            return
    finally:
        options['allow_subclasses'] = allow_subclasses
    raise TypeError('No comparison pair was able to handle inputs of type %s and %s.' % (type(actual),
                                                                                        type(expected)))


def _path_wrap(fn, path):
    try:
        fn()
    except _Mismatch as e:
        if path:
            raise _Mismatch('%s\n\nThe failure occurred for item %s' % (e, ''.join('[%r]' % p for p in path)))
        raise


def assert_close(actual, expected, *, allow_subclasses=True, rtol=None, atol=None, equal_nan=False,
                 check_device=True, check_dtype=True, check_layout=True, check_stride=False, msg=None):
    """Raises AssertionError unless actual and expected are close: tensors (or numpy arrays, Python
    numbers, None) compared pairwise through sequences and mappings. Default tolerances come from the
    dtypes (the loosest of the pair; exact for integers and bool); give both rtol and atol or neither.
    msg (a str, or a callable taking the generated message) replaces the message."""
    if (rtol is None) != (atol is None):
        _tolerances([], rtol, atol)
    options = dict(allow_subclasses=allow_subclasses, rtol=rtol, atol=atol, equal_nan=equal_nan,
                   check_device=check_device, check_dtype=check_dtype, check_layout=check_layout,
                   check_stride=check_stride)
    try:
        _compare(actual, expected, [], options)
    except _Mismatch as e:
        text = str(e)
        if msg is not None:
            text = msg(text) if callable(msg) else msg
        raise AssertionError(text) from None
