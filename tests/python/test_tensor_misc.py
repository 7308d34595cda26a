"""Tensor introspection and conversion to Python: .item(), .tolist(), len, iteration, .shape, .size(),
.stride(), .dtype, .device, .numel(), .dim(), .is_contiguous(), .data_ptr(), bool/int/float(), and
printing in PyTorch's format."""
import math

import pytest

import torch

ALL = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.float16, torch.bfloat16,
       torch.float32, torch.float64]
ITEMSIZE = {torch.bool: 1, torch.uint8: 1, torch.int8: 1, torch.int16: 2, torch.int32: 4, torch.int64: 8,
            torch.float16: 2, torch.bfloat16: 2, torch.float32: 4, torch.float64: 8}


@pytest.mark.parametrize('dtype', ALL, ids=str)
def test_item_and_tolist_types(dtype):
    t = torch.tensor([[0, 1, 2], [3, 4, 5]]).to(dtype)
    py = bool if dtype == torch.bool else (float if dtype.is_floating_point else int)
    assert type(t[1, 2].item()) is py and t[1, 2].item() == py(5)
    lst = t.tolist()
    assert [[type(v) for v in row] for row in lst] == [[py] * 3] * 2
    assert lst == [[py(v) for v in row] for row in [[0, 1, 2], [3, 4, 5]]]
    assert t.t().tolist() == [[py(0), py(3)], [py(1), py(4)], [py(2), py(5)]]
    assert t[:, ::2].tolist() == [[py(0), py(2)], [py(3), py(5)]]
    assert torch.tensor(7).to(dtype).tolist() == py(7)  # 0-dim: a number, not a list
    assert torch.tensor([[7]]).to(dtype).item() == py(7)


def test_item_values():
    assert torch.tensor(2.5).item() == 2.5
    assert torch.tensor(3.3).item() == 3.299999952316284  # float32
    assert torch.tensor(3.3, dtype=torch.float64).item() == 3.3
    assert torch.tensor(0.1, dtype=torch.float16).item() == 0.0999755859375
    assert torch.tensor(0.1, dtype=torch.bfloat16).item() == 0.10009765625
    assert torch.tensor(-2 ** 63).item() == -2 ** 63
    assert torch.tensor(255, dtype=torch.uint8).item() == 255
    assert torch.tensor([True]).item() is True
    assert math.isnan(torch.tensor(float('nan')).item())
    assert torch.tensor(float('-inf')).item() == -math.inf


def test_python_number_conversions():
    assert int(torch.tensor(2.9)) == 2 and int(torch.tensor(-2.9)) == -2
    assert float(torch.tensor(3)) == 3.0 and type(float(torch.tensor(3))) is float
    assert bool(torch.tensor(0.0)) is False and bool(torch.tensor([1])) is True and bool(torch.tensor([[0]])) is False
    assert complex(torch.tensor(2.0)) == 2 + 0j
    assert [10, 20, 30][torch.tensor(2)] == 30  # integer tensors are indices
    assert hex(torch.tensor(255)) == '0xff'
    assert f'{torch.tensor(2.5):.2f}' == '2.50'
    assert round(float(torch.tensor(1 / 3)), 3) == 0.333


def test_len_and_iteration():
    t = torch.arange(6).view(3, 2)
    assert len(t) == 3 and len(torch.zeros(0, 4)) == 0 and len(torch.zeros(4, 0)) == 4
    rows = list(t)
    assert len(rows) == 3 and all(isinstance(r, torch.Tensor) for r in rows)
    assert [r.tolist() for r in rows] == [[0, 1], [2, 3], [4, 5]]
    assert [v.item() for v in torch.arange(3)] == [0, 1, 2]
    assert [v.shape for v in torch.arange(2)] == [(), ()]
    rows[1][0] = 99  # iteration yields views
    assert t[1, 0].item() == 99
    assert [r.tolist() for r in reversed(t)] == [[4, 5], [99, 3], [0, 1]]
    assert list(torch.zeros(0)) == []
    a, b = torch.tensor([1, 2])
    assert (a.item(), b.item()) == (1, 2)


def test_shape_size_stride():
    t = torch.zeros(2, 3, 4)
    assert t.shape == (2, 3, 4) and isinstance(t.shape, torch.Size) and isinstance(t.shape, tuple)
    assert t.size() == torch.Size([2, 3, 4]) and t.size(0) == 2 and t.size(-1) == 4 and t.size(dim=1) == 3
    assert t.shape[1] == 3 and list(t.shape) == [2, 3, 4] and t.shape.numel() == 24
    assert repr(t.shape) == 'torch.Size([2, 3, 4])' and str(torch.Size([])) == 'torch.Size([])'
    assert t.stride() == (12, 4, 1) and t.stride(0) == 12 and t.stride(-1) == 1 and isinstance(t.stride(), tuple)
    assert t.transpose(0, 2).stride() == (1, 4, 12)
    assert torch.tensor(3).shape == () and torch.tensor(3).size() == () and torch.tensor(3).stride() == ()
    assert torch.Size([2, 3]) == (2, 3) and torch.Size((4,))[0] == 4


def test_numel_dim_ndim():
    t = torch.zeros(2, 3, 4)
    assert t.numel() == 24 and t.nelement() == 24 and t.dim() == 3 and t.ndim == 3 and t.ndimension() == 3
    assert torch.tensor(5).numel() == 1 and torch.tensor(5).dim() == 0
    assert torch.zeros(3, 0).numel() == 0 and torch.zeros(3, 0).dim() == 2


@pytest.mark.parametrize('dtype', ALL, ids=str)
def test_dtype_device_element_size(dtype):
    t = torch.zeros(2, dtype=dtype)
    assert t.dtype is dtype and t.element_size() == ITEMSIZE[dtype]
    assert t.device == torch.device('cpu') and str(t.device) == 'cpu'
    assert t.is_floating_point() == dtype.is_floating_point
    assert str(t.layout) == 'torch.strided'
    assert t.requires_grad is False and t.is_cuda is False


def test_is_contiguous():
    t = torch.zeros(3, 4)
    assert t.is_contiguous() and not t.t().is_contiguous() and t.t().contiguous().is_contiguous()
    assert t[1:].is_contiguous() and not t[:, 1:].is_contiguous() and not t[:, :1].t().is_contiguous()
    assert t[:1].t().is_contiguous() and t[:, 1:2].is_contiguous() is False and t[1:2, 1:].is_contiguous()
    assert not t[::2].is_contiguous() and torch.zeros(3, 1).t().is_contiguous()
    assert torch.tensor(1).is_contiguous() and torch.zeros(0, 5)[:, ::2].is_contiguous()
    assert not torch.zeros(3).expand(2, 3).is_contiguous()


def test_data_ptr():
    t = torch.arange(12, dtype=torch.int32).view(3, 4)
    p = t.data_ptr()
    assert isinstance(p, int) and p != 0 and p % 4 == 0
    assert t[1].data_ptr() == p + 4 * 4 and t[:, 2].data_ptr() == p + 2 * 4 and t[2, 3].data_ptr() == p + 11 * 4
    assert t.t().data_ptr() == p and t.view(12).data_ptr() == p
    assert t.clone().data_ptr() != p
    assert t[1:].storage_offset() == 4


def test_clone_is_independent_and_contiguous():
    t = torch.arange(6).view(2, 3).t()
    c = t.clone()
    assert c.tolist() == t.tolist() and c.dtype == t.dtype
    c[0, 0] = 100
    assert t[0, 0].item() == 0


# ---- printing ---------------------------------------------------------------------------------------

@pytest.mark.parametrize('make, text', [
    (lambda: torch.arange(6).view(2, 3), 'tensor([[0, 1, 2],\n        [3, 4, 5]])'),
    (lambda: torch.tensor([0.1, 2.5], dtype=torch.float16), 'tensor([0.1000, 2.5000], dtype=torch.float16)'),
    (lambda: torch.zeros(2, dtype=torch.bfloat16), 'tensor([0., 0.], dtype=torch.bfloat16)'),
    (lambda: torch.tensor([True, False]), 'tensor([ True, False])'),
    (lambda: torch.tensor([]), 'tensor([])'),
    (lambda: torch.zeros(0, 3), 'tensor([], size=(0, 3))'),
    (lambda: torch.tensor(3), 'tensor(3)'),
    (lambda: torch.tensor(2.5), 'tensor(2.5000)'),
    (lambda: torch.tensor([1, 2], dtype=torch.uint8), 'tensor([1, 2], dtype=torch.uint8)'),
    (lambda: torch.tensor([1., 2.], dtype=torch.float64), 'tensor([1., 2.], dtype=torch.float64)'),
    (lambda: torch.arange(6.).view(2, 3).t(), 'tensor([[0., 3.],\n        [1., 4.],\n        [2., 5.]])'),
    (lambda: torch.tensor([[1.5, float('nan')], [float('inf'), -2.0]]),
     'tensor([[ 1.5000,     nan],\n        [    inf, -2.0000]])'),
    (lambda: torch.tensor([1e10, 1.0]), 'tensor([1.0000e+10, 1.0000e+00])'),
    (lambda: torch.arange(2000), 'tensor([   0,    1,    2,  ..., 1997, 1998, 1999])'),
    (lambda: torch.ones(2, 3).max(0),
     'torch.return_types.max(\nvalues=tensor([1., 1., 1.]),\nindices=tensor([0, 0, 0]))'),
    (lambda: torch.float32, 'torch.float32'),
    (lambda: torch.device('cpu'), "device(type='cpu')"),
], ids=lambda v: v if isinstance(v, str) else '')
def test_repr(make, text):
    v = make()
    assert repr(v) == text
    if isinstance(v, torch.Tensor):
        assert str(v) == text


def test_repr_of_int8_and_negative():
    assert repr(torch.tensor([-128, 0, 127], dtype=torch.int8)) == 'tensor([-128,    0,  127], dtype=torch.int8)'
    assert repr(torch.arange(12).view(3, 4) - 5) == ('tensor([[-5, -4, -3, -2],\n        [-1,  0,  1,  2],\n'
                                                    '        [ 3,  4,  5,  6]])')


def test_repr_follows_the_default_dtype():
    saved = torch.get_default_dtype()
    try:
        torch.set_default_dtype(torch.float64)
        assert repr(torch.tensor([1.5])) == 'tensor([1.5000])'
        assert repr(torch.tensor([1.5], dtype=torch.float32)) == 'tensor([1.5000], dtype=torch.float32)'
    finally:
        torch.set_default_dtype(saved)
