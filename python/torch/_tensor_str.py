"""Text form of tensors: ``repr(tensor)`` / ``str(tensor)`` and ``set_printoptions``.

Reproduces PyTorch 1.13's output for CPU strided tensors. Everything is computed
from the values that ``tensor.tolist()`` returns plus the tensor's metadata
(shape, dtype, device, autograd flags), so no tensor math and no numpy is needed.

Outline of the rules:
  * The tensor is summarised (``...`` in place of the middle of every dimension
    longer than ``2 * edgeitems``) when it has more than ``threshold`` elements.
  * One formatter is chosen for all printed elements (``_Formatter``): integer,
    fixed-point or scientific layout, and a common width every element is
    right-aligned to.
  * Rows are wrapped to ``linewidth``; nested brackets are indented under the
    ``tensor(`` prefix, with one blank line per extra dimension between blocks.
  * Suffixes (device, size, dtype, grad_fn / requires_grad) follow the data.
"""

import math


class _PrintOptions:
    precision = 4
    threshold = 1000
    edgeitems = 3
    linewidth = 80
    sci_mode = None


PRINT_OPTS = _PrintOptions()

_PROFILES = {
    "default": dict(precision=4, threshold=1000, edgeitems=3, linewidth=80),
    "short": dict(precision=2, threshold=1000, edgeitems=2, linewidth=80),
    "full": dict(precision=4, threshold=math.inf, edgeitems=3, linewidth=80),
}


def set_printoptions(
    precision=None,
    threshold=None,
    edgeitems=None,
    linewidth=None,
    profile=None,
    sci_mode=None,
):
    """Set options for printing tensors (same semantics as ``torch.set_printoptions``).

    Args:
        precision: digits after the decimal point for floating point output (default 4).
        threshold: number of elements above which the output is summarised (default 1000).
        edgeitems: items shown at the beginning and end of each summarised dimension (default 3).
        linewidth: characters per line before wrapping (default 80).
        profile: ``"default"``, ``"short"`` or ``"full"``; applied first, so the
            other arguments override it.
        sci_mode: ``True``/``False`` forces scientific notation on/off; ``None``
            (also what omitting it means) lets the formatter choose.
    """
    if profile is not None:
        for name, value in _PROFILES.get(profile, {}).items():
            setattr(PRINT_OPTS, name, value)
    if precision is not None:
        PRINT_OPTS.precision = precision
    if threshold is not None:
        PRINT_OPTS.threshold = threshold
    if edgeitems is not None:
        PRINT_OPTS.edgeitems = edgeitems
    if linewidth is not None:
        PRINT_OPTS.linewidth = linewidth
    PRINT_OPTS.sci_mode = sci_mode


class _Formatter:
    """Formats real or boolean/integer values in one layout and one common width."""

    def __init__(self, values, is_floating):
        self.is_floating = is_floating
        self.int_mode = True
        self.sci_mode = False
        self.width = 1

        if not is_floating:
            self.width = max([1] + [len(str(value)) for value in values])
            return

        nonzero_finite = [v for v in values if math.isfinite(v) and v != 0]
        if not nonzero_finite:
            # Nothing to measure. PyTorch returns here, before applying the
            # sci_mode print option, so all-zero/non-finite tensors ignore it.
            return

        magnitudes = [abs(v) for v in nonzero_finite]
        largest, smallest = max(magnitudes), min(magnitudes)
        wide_range = largest / smallest > 1000.0 or largest > 1.0e8
        self.int_mode = all(v == math.ceil(v) for v in nonzero_finite)
        self.sci_mode = wide_range or (not self.int_mode and smallest < 1.0e-4)

        # The width is measured in the automatically chosen layout, even when
        # the sci_mode print option then forces the other one.
        if self.sci_mode:
            widths = [len(self._scientific(v)) for v in nonzero_finite]
        elif self.int_mode:
            widths = [len(self._integral(v)) for v in nonzero_finite]
        else:
            widths = [len(self._fixed(v)) for v in nonzero_finite]
        self.width = max([self.width] + widths)

        if PRINT_OPTS.sci_mode is not None:
            self.sci_mode = PRINT_OPTS.sci_mode

    @staticmethod
    def _scientific(value):
        return "{:.{}e}".format(value, PRINT_OPTS.precision)

    @staticmethod
    def _fixed(value):
        return "{:.{}f}".format(value, PRINT_OPTS.precision)

    @staticmethod
    def _integral(value):
        # Integer-valued floats print as "3." so they still read as floats.
        text = "{:.0f}".format(value)
        return text + "." if math.isfinite(value) else text

    def format(self, value):
        if not self.is_floating:
            text = str(value)
        elif self.sci_mode:
            text = self._scientific(value)
        elif self.int_mode:
            text = self._integral(value)
        else:
            text = self._fixed(value)
        return text.rjust(self.width)


class _ComplexFormatter:
    """Formats complex values as ``real+imagj`` with separate real/imag formatters."""

    def __init__(self, values):
        self.real = _Formatter([v.real for v in values], is_floating=True)
        self.imag = _Formatter([v.imag for v in values], is_floating=True)
        self.width = self.real.width + self.imag.width + 1  # +1 for the "j"

    def format(self, value):
        real = self.real.format(value.real)
        imag = (self.imag.format(value.imag) + "j").lstrip()
        if imag[0] in "+-":
            return real + imag
        return real + "+" + imag


# Stands for the elided middle of a summarised dimension.
_ELLIPSIS = object()


def _printed_values(t, dim, summarize):
    """``t.tolist()``, keeping only the edge items of long dimensions when summarising.

    Elided runs are replaced by one ``_ELLIPSIS`` entry. Only the kept parts are
    converted, so summarising a huge tensor stays cheap.
    """
    if not summarize or dim == 0:
        return t.tolist()
    edge = PRINT_OPTS.edgeitems
    size = t.shape[0]
    if dim == 1:
        if size > 2 * edge:
            return t[:edge].tolist() + [_ELLIPSIS] + t[-edge:].tolist()
        return t.tolist()
    if size > 2 * edge:
        head = [_printed_values(t[i], dim - 1, True) for i in range(edge)]
        tail = [_printed_values(t[i], dim - 1, True) for i in range(size - edge, size)]
        return head + [_ELLIPSIS] + tail
    return [_printed_values(t[i], dim - 1, True) for i in range(size)]


def _leaves(values, dim):
    """All printed scalars of a nested value list (elided parts excluded)."""
    if dim == 0:
        yield values
        return
    for item in values:
        if item is _ELLIPSIS:
            continue
        if dim == 1:
            yield item
        else:
            yield from _leaves(item, dim - 1)


def _render(values, dim, indent, formatter):
    """Bracketed text of a nested value list whose first line starts at column ``indent``."""
    if dim == 0:
        return formatter.format(values)
    if dim == 1:
        return _render_row(values, indent, formatter)
    blocks = [
        "..." if item is _ELLIPSIS else _render(item, dim - 1, indent + 1, formatter)
        for item in values
    ]
    # Blocks of a d-dimensional tensor are separated by d - 2 blank lines.
    separator = "," + "\n" * (dim - 1) + " " * (indent + 1)
    return "[" + separator.join(blocks) + "]"


def _render_row(values, indent, formatter):
    cell_width = formatter.width + 2  # ", " between cells
    per_line = max(1, int(math.floor((PRINT_OPTS.linewidth - indent) / cell_width)))
    cells = [" ..." if v is _ELLIPSIS else formatter.format(v) for v in values]
    lines = [", ".join(cells[i : i + per_line]) for i in range(0, len(cells), per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _tensor_body(t, dtype_name, indent):
    """The bracketed element text of a non-empty tensor."""
    dim = t.dim()
    summarize = t.numel() > PRINT_OPTS.threshold
    values = _printed_values(t, dim, summarize)
    printed = list(_leaves(values, dim))
    if dtype_name.startswith("torch.complex"):
        formatter = _ComplexFormatter(printed)
    else:
        formatter = _Formatter(printed, t.dtype.is_floating_point)
    return _render(values, dim, indent, formatter)


def _shows_dtype(dtype_name, default_dtype_name):
    """Whether a non-empty tensor's repr names its dtype (it can't be inferred from the values)."""
    default_complex = (
        "torch.complex128" if default_dtype_name == "torch.float64" else "torch.complex64"
    )
    implied = (default_dtype_name, default_complex, "torch.int64", "torch.bool")
    return dtype_name not in implied


def _grad_fn_name(grad_fn):
    name = type(grad_fn).__name__
    if name == "CppFunction":
        name = grad_fn.name().rsplit("::", 1)[-1]
    return name


def _append_suffixes(text, suffixes, indent):
    """Append ``, suffix`` items, moving one to a new line when it would pass linewidth."""
    # PyTorch counts the last line as 2 characters longer than it is; kept for identical wrapping.
    last_line_len = len(text) - text.rfind("\n") + 1
    parts = [text]
    for suffix in suffixes:
        if last_line_len + len(suffix) + 2 > PRINT_OPTS.linewidth:
            parts.append(",\n" + " " * indent + suffix)
            last_line_len = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            last_line_len += len(suffix) + 2
    parts.append(")")
    return "".join(parts)


def tensor_repr(t, default_dtype_name="torch.float32"):
    """``repr(t)`` as PyTorch 1.13 writes it for a strided tensor.

    ``default_dtype_name`` is ``str(torch.get_default_dtype())``; it decides
    whether a floating point tensor's dtype is named.
    """
    prefix = "tensor("
    indent = len(prefix)
    dtype_name = str(t.dtype)
    suffixes = []

    if t.device.type != "cpu":
        suffixes.append("device='{}'".format(t.device))

    if t.device.type == "meta":
        # no values to print: the size, and the dtype unless it is the default floating one
        body = "..."
        suffixes.append("size={}".format(tuple(int(n) for n in t.shape)))
        if dtype_name != default_dtype_name:
            suffixes.append("dtype=" + dtype_name)
    elif t.numel() == 0:
        body = "[]"
        # Shape and dtype of an empty tensor can't be read from its values.
        if t.dim() != 1:
            suffixes.append("size={}".format(tuple(int(n) for n in t.shape)))
        if dtype_name != default_dtype_name:
            suffixes.append("dtype=" + dtype_name)
    else:
        if _shows_dtype(dtype_name, default_dtype_name):
            suffixes.append("dtype=" + dtype_name)
        body = _tensor_body(t, dtype_name, indent)

    grad_fn = getattr(t, "grad_fn", None)
    if grad_fn is not None:
        suffixes.append("grad_fn=<{}>".format(_grad_fn_name(grad_fn)))
    elif t.requires_grad:
        suffixes.append("requires_grad=True")

    return _append_suffixes(prefix + body, suffixes, indent)
