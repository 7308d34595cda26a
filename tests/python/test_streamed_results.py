"""Large elementwise results are written with streaming stores (plugins/cpu/iterate.c): results of
at least 32 MiB that overlap no input; so are cat's results of at least 16 MiB (plugins/cpu/cat.c). These compare such results with the same op computed in
pieces small enough to take the ordinary path, over misaligned outputs, partial last blocks,
broadcast and converted inputs, each dtype size, and one and two threads."""

import pytest
import torch

THRESHOLD = 32 << 20
CHUNK = 1 << 20  # elements per piece of the expected result: far below the threshold


def pieces(fn, *inputs):
    """fn applied to slices of the inputs, each copied into its slice of the result: the ordinary,
    cached path (a cat of them all would stream, below)."""
    n = inputs[0].shape[0]
    result = None
    for i in range(0, n, CHUNK):
        piece = fn(*(x[i:i + CHUNK] for x in inputs))
        if result is None:
            result = torch.empty((n,) + tuple(piece.shape[1:]), dtype=piece.dtype)
        result[i:i + CHUNK] = piece
    return result


def misaligned_empty(n, dtype):
    """An output that starts one element past a 64-byte boundary."""
    return torch.empty(n + 1, dtype=dtype)[1:]


@pytest.fixture(params=[1, 2])
def threads(request):
    before = torch.get_num_threads()
    torch.set_num_threads(request.param)
    yield request.param
    torch.set_num_threads(before)


def length(dtype, extra=37):
    """Just past the threshold for this dtype, with a partial last block."""
    return THRESHOLD // torch.empty(0, dtype=dtype).element_size() + extra


@pytest.mark.parametrize('dtype', [torch.float32, torch.float64, torch.int16, torch.uint8, torch.complex128])
def test_binary_out(threads, dtype):
    n = length(dtype)
    a = (torch.arange(n) % 251).to(dtype)
    b = (torch.arange(n) % 13).to(dtype)
    out = misaligned_empty(n, dtype)
    torch.add(a, b, alpha=3, out=out)
    assert torch.equal(out, pieces(lambda x, y: torch.add(x, y, alpha=3), a, b))


def test_broadcast_scalar_and_conversion(threads):
    n = length(torch.float32, extra=5)
    a = torch.arange(n, dtype=torch.int32) % 1000
    expected = pieces(lambda x: x * 0.25, a)
    assert torch.equal(a * 0.25, expected)  # int32 input converted while loading
    b = torch.linspace(-3, 3, n)
    out = misaligned_empty(n, torch.float32)
    torch.mul(b, torch.tensor(1.5), out=out)
    assert torch.equal(out, pieces(lambda x: x * 1.5, b))


def test_unary_copy_and_fill(threads):
    n = length(torch.float32, extra=123)
    x = torch.linspace(-20, 20, n)
    assert torch.equal(torch.exp(x), pieces(torch.exp, x))
    assert torch.equal(torch.nn.functional.hardswish(x), pieces(torch.nn.functional.hardswish, x))
    y = misaligned_empty(n, torch.float64)
    y.copy_(x)
    assert torch.equal(y, pieces(lambda v: v.double(), x))
    y.fill_(2.5)
    assert bool((y == 2.5).all())


def test_in_place_and_overlapping_results_are_not_streamed_wrongly(threads):
    n = length(torch.float32)
    a = torch.arange(n, dtype=torch.float32)
    b = torch.ones(n)
    expected = pieces(lambda x, y: x + y, a, b)
    a.add_(b)  # the result is an input: the ordinary path
    assert torch.equal(a, expected)
    c = torch.arange(2 * n, dtype=torch.float32)
    torch.neg(c[:n], out=c[n:])  # disjoint halves of one storage
    assert torch.equal(c[n:], -torch.arange(n, dtype=torch.float32))


def test_strided_and_reversed_inputs(threads):
    n = length(torch.float32)
    base = torch.arange(2 * n, dtype=torch.float32)
    strided, reversed_ = base[::2], base[:n].flip(0)
    expected = pieces(lambda x, y: x - y, strided.contiguous(), reversed_.contiguous())
    assert torch.equal(strided - reversed_, expected)


def misaligned(t):
    """t's values in a tensor whose data starts one element past a 64-byte boundary."""
    flat = torch.empty(t.numel() + 1, dtype=t.dtype)[1:]
    flat.copy_(t.reshape(-1))
    return flat.view(t.shape)


@pytest.mark.parametrize('dtype', [torch.float32, torch.uint8, torch.complex128])
def test_cat_along_rows(threads, dtype):
    """Rows of pieces whose ends fall anywhere in a 16-byte store, from misaligned inputs."""
    widths = (5, 1000, 3)
    rows = (THRESHOLD // 2) // (sum(widths) * torch.empty(0, dtype=dtype).element_size()) + 3
    inputs = [misaligned((torch.arange(rows * w) % (97 + w)).to(dtype).view(rows, w)) for w in widths]
    out = misaligned_empty(rows * sum(widths), dtype).view(rows, sum(widths))
    torch.cat(inputs, 1, out=out)
    expected = torch.empty(rows, sum(widths), dtype=dtype)
    at = 0
    for x, w in zip(inputs, widths):
        expected[:, at:at + w] = x
        at += w
    assert torch.equal(out, expected)
    assert torch.equal(torch.cat(inputs, 1), expected)  # a fresh result, aligned


def test_cat_along_dim0(threads):
    n = (THRESHOLD // 2) // 4
    inputs = [misaligned(torch.arange(k, k + m, dtype=torch.float32)) for k, m in ((0, n // 3 + 1), (7, 13), (5, n - n // 3))]
    result = torch.cat(inputs)
    assert torch.equal(result[:n // 3 + 1], inputs[0])
    assert torch.equal(result[n // 3 + 1:n // 3 + 14], inputs[1])
    assert torch.equal(result[n // 3 + 14:], inputs[2])
