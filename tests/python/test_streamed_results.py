"""Large elementwise results are written with streaming stores (plugins/cpu/iterate.c): results of
at least 32 MiB that overlap no input. These compare such results with the same op computed in
pieces small enough to take the ordinary path, over misaligned outputs, partial last blocks,
broadcast and converted inputs, each dtype size, and one and two threads."""

import pytest
import torch

THRESHOLD = 32 << 20
CHUNK = 1 << 20  # elements per piece of the expected result: far below the threshold


def pieces(fn, *inputs):
    """fn applied to slices of the inputs, concatenated: the ordinary, cached path."""
    n = inputs[0].shape[0]
    return torch.cat([fn(*(x[i:i + CHUNK] for x in inputs)) for i in range(0, n, CHUNK)])


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
