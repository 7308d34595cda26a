"""Views (view, reshape, transpose, t, permute, contiguous, squeeze, unsqueeze, expand, flatten) and
basic indexing (ints, slices with steps and negative bounds, None, Ellipsis) for reading and writing.
A view shares its base's storage: writing through it changes the base."""
import pytest

import torch

ALL = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.float16, torch.bfloat16,
       torch.float32, torch.float64]


def nested(shape, start=0):
    """The nested list arange(prod(shape)).view(shape).tolist() would give, built by hand."""
    if not shape:
        return start
    step = 1
    for s in shape[1:]:
        step *= s
    return [nested(shape[1:], start + i * step) for i in range(shape[0])]


def cube():
    return torch.arange(24).view(2, 3, 4)


def shares_storage(a, b):
    """a's elements lie in b's memory (same allocation)."""
    return a.data_ptr() >= b.data_ptr() and a.data_ptr() < b.data_ptr() + b.numel() * b.element_size()


# ---- view / reshape ---------------------------------------------------------------------------------

def test_view_shapes_and_strides():
    x = cube()
    assert x.shape == (2, 3, 4) and x.stride() == (12, 4, 1)
    assert x.view(6, 4).tolist() == nested((6, 4)) and x.view(6, 4).stride() == (4, 1)
    assert x.view(-1).shape == (24,)
    assert x.view(6, -1).shape == (6, 4)
    assert x.view((4, 6)).shape == (4, 6)
    assert x.view([2, 12]).stride() == (12, 1)
    assert x.view(torch.Size([3, 8])).shape == (3, 8)
    assert x.view(2, 3, 2, 2).tolist() == nested((2, 3, 2, 2))
    assert torch.tensor(7).view(1, 1).tolist() == [[7]]
    assert torch.tensor(7).view([]).shape == ()
    assert torch.zeros(2, 0, 3).view(0, 5).shape == (0, 5)


def test_view_of_non_contiguous_when_layout_allows():
    x = cube()
    # dims that stay contiguous among themselves can be merged or split
    assert x[:, 1:, :].view(2, 8).tolist() == [[4, 5, 6, 7, 8, 9, 10, 11], [16, 17, 18, 19, 20, 21, 22, 23]]
    assert torch.arange(24).view(4, 6)[::2].view(2, 2, 3).tolist() == [[[0, 1, 2], [3, 4, 5]],
                                                                       [[12, 13, 14], [15, 16, 17]]]
    t = torch.arange(6).view(2, 3).t()  # [3, 2], strides (1, 3)
    assert t.view(3, 2, 1).stride() == (1, 3, 3)  # PyTorch's strides for the new size-1 dim
    assert torch.arange(6)[1:4].view(3, 1).tolist() == [[1], [2], [3]]


def test_view_shares_storage():
    x = torch.arange(6).view(2, 3)
    v = x.view(6)
    v[0] = 42
    assert x[0, 0].item() == 42 and v.data_ptr() == x.data_ptr()


def test_view_incompatible_layout_fails():
    with pytest.raises(RuntimeError, match='view size is not compatible'):
        torch.arange(6).view(2, 3).t().view(6)


def test_reshape_views_when_possible_and_copies_otherwise():
    x = torch.arange(12).view(3, 4)
    r = x.reshape(4, 3)
    assert r.data_ptr() == x.data_ptr()
    r[0, 0] = 100
    assert x[0, 0].item() == 100
    t = x.t().reshape(12)  # needs a copy
    assert t.tolist() == [100, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11]
    t[0] = -1
    assert x[0, 0].item() == 100
    assert x.reshape(-1, 6).shape == (2, 6) and x.reshape((2, 2, 3)).shape == (2, 2, 3)
    assert torch.arange(24).view(2, 3, 4)[:, :, ::2].reshape(12).tolist() == [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20,
                                                                              22]
    assert torch.tensor(7).reshape(-1).tolist() == [7] and torch.tensor(7).reshape(()).shape == ()
    assert torch.zeros(2, 0, 3).reshape(3, -1).shape == (3, 0)


@pytest.mark.parametrize('dtype', ALL, ids=str)
def test_views_keep_dtype(dtype):
    x = torch.arange(6).to(dtype).view(2, 3)
    for v in (x.t(), x.view(3, 2), x.reshape(6), x[1], x[:, ::2], x.unsqueeze(0), x.expand(2, 2, 3), x.flatten(),
              x.permute(1, 0), x.transpose(0, 1), x.squeeze(), x[None, ..., None]):
        assert v.dtype == dtype
    expected = [[bool(v) if dtype == torch.bool else v for v in row] for row in [[0, 3], [1, 4], [2, 5]]]
    assert x.t().tolist() == expected


# ---- transpose / t / permute / contiguous -------------------------------------------------------------

def test_transpose_and_t():
    x = cube()
    tr = x.transpose(0, 2)
    assert tr.shape == (4, 3, 2) and tr.stride() == (1, 4, 12)
    assert tr[1, 2, 0].item() == x[0, 2, 1].item()
    assert x.transpose(-1, -3).shape == (4, 3, 2)
    assert torch.transpose(x, 0, 1).shape == (3, 2, 4)
    m = torch.arange(6).view(2, 3)
    assert m.t().tolist() == [[0, 3], [1, 4], [2, 5]] and torch.t(m).stride() == (1, 3)
    assert m.T.tolist() == m.t().tolist() and x.T.shape == (4, 3, 2)
    assert torch.arange(3).t().shape == (3,) and torch.tensor(5).t().shape == ()
    assert torch.arange(3).transpose(0, 0).shape == (3,)


def test_permute():
    x = cube()
    p = x.permute(2, 0, 1)
    assert p.shape == (4, 2, 3) and p.stride() == (1, 12, 4)
    assert p[3, 1, 2].item() == x[1, 2, 3].item()
    assert x.permute((1, 0, 2)).shape == (3, 2, 4)
    assert x.permute(-1, -2, -3).shape == (4, 3, 2)
    assert torch.permute(x, (0, 2, 1)).shape == (2, 4, 3)
    assert p.contiguous().view(4, 6).tolist() == [[x[i, j, k].item() for i in range(2) for j in range(3)]
                                                  for k in range(4)]


def test_contiguous():
    x = torch.arange(6).view(2, 3)
    assert x.is_contiguous() and not x.t().is_contiguous()
    c = x.t().contiguous()
    assert c.is_contiguous() and c.stride() == (2, 1) and c.tolist() == [[0, 3], [1, 4], [2, 5]]
    assert c.data_ptr() != x.data_ptr()
    assert x.contiguous().data_ptr() == x.data_ptr()
    assert x[:, :1].is_contiguous() is False and x[:1].is_contiguous() and not x[::2, ::2].is_contiguous()
    assert torch.ones(1, 3).t().is_contiguous()  # size-1 dims do not count
    assert torch.zeros(0, 3).t().is_contiguous()


# ---- squeeze / unsqueeze / expand / flatten ----------------------------------------------------------

def test_squeeze_unsqueeze():
    x = torch.ones(2, 1, 3, 1)
    assert x.squeeze().shape == (2, 3)
    assert x.squeeze(1).shape == (2, 3, 1) and x.squeeze(-1).shape == (2, 1, 3)
    assert x.squeeze(0).shape == (2, 1, 3, 1)  # not size 1: unchanged
    assert torch.squeeze(x).shape == (2, 3) and torch.ones(1).squeeze().shape == ()
    assert torch.tensor(7).squeeze().shape == () and torch.tensor(7).squeeze(0).shape == ()
    m = torch.arange(12).view(3, 4)
    assert m.unsqueeze(0).shape == (1, 3, 4) and m.unsqueeze(0).stride() == (12, 4, 1)
    assert m.unsqueeze(1).stride() == (4, 4, 1)
    assert m.unsqueeze(-1).shape == (3, 4, 1) and m.unsqueeze(-1).stride() == (4, 1, 1)
    assert m.unsqueeze(2).shape == (3, 4, 1)
    assert torch.unsqueeze(m, -3).shape == (1, 3, 4)
    assert m.t().unsqueeze(1).stride() == (1, 12, 4)
    assert torch.tensor(7).unsqueeze(0).tolist() == [7]
    u = m.unsqueeze(0)
    u[0, 0, 0] = 99
    assert m[0, 0].item() == 99


def test_expand():
    c = torch.arange(3).view(3, 1)
    e = c.expand(3, 4)
    assert e.tolist() == [[0] * 4, [1] * 4, [2] * 4] and e.stride() == (1, 0)
    assert c.expand(2, -1, 5).shape == (2, 3, 5) and c.expand(2, -1, 5).stride() == (0, 1, 0)
    assert torch.arange(3).expand(2, 3).stride() == (0, 1)
    assert torch.tensor(5).expand(3).tolist() == [5, 5, 5]
    assert c.expand((3, 2)).shape == (3, 2) and c.expand_as(torch.ones(3, 6)).shape == (3, 6)
    assert e.data_ptr() == c.data_ptr() and not e.is_contiguous()
    assert e.contiguous().stride() == (4, 1) and e.contiguous().tolist() == e.tolist()
    assert (e + 1).tolist() == [[1] * 4, [2] * 4, [3] * 4]
    c[1, 0] = 7
    assert e[1].tolist() == [7, 7, 7, 7]  # still a view


def test_flatten():
    x = cube()
    assert x.flatten().tolist() == list(range(24))
    assert x.flatten(1).shape == (2, 12) and x.flatten(0, 1).shape == (6, 4) and x.flatten(-2, -1).shape == (2, 12)
    assert x.flatten(start_dim=1, end_dim=1).shape == (2, 3, 4)
    assert torch.flatten(x).shape == (24,)
    assert torch.tensor(7).flatten().shape == (1,)
    assert x.flatten().data_ptr() == x.data_ptr()
    assert x.transpose(0, 1).flatten().tolist() == [x[i, j, k].item() for j in range(3) for i in range(2)
                                                    for k in range(4)]


# ---- indexing: reading ---------------------------------------------------------------------------------

@pytest.mark.parametrize('key, shape', [
    (1, (3, 4)), (-1, (3, 4)), ((0, 0, 0), ()), ((slice(None), 1), (2, 4)), ((Ellipsis, 2), (2, 3)),
    (None, (1, 2, 3, 4)), ((slice(None), None, 1), (2, 1, 4)), ((Ellipsis, None), (2, 3, 4, 1)),
    ((1, Ellipsis, 3), (3,)), (slice(None, None, 2), (1, 3, 4)),
    ((slice(None), slice(None, None, 2), slice(1, None, 2)), (2, 2, 2)),
    ((slice(None), slice(-2, None), slice(None, -1)), (2, 2, 3)), (slice(5, None), (0, 3, 4)),
    ((slice(None), slice(10, 20)), (2, 0, 4)), ((), (2, 3, 4)), (Ellipsis, (2, 3, 4)),
    ((0, slice(1, None), slice(2, None)), (2, 2)), ((None, Ellipsis, None), (1, 2, 3, 4, 1)),
    ((slice(None), slice(None), slice(None), None), (2, 3, 4, 1)),
], ids=repr)
def test_getitem_shapes_and_values(key, shape):
    x = cube()
    r = x[key]
    assert r.shape == shape
    full = nested((2, 3, 4))

    def pick(data, k):
        # reference indexing on nested lists, one index item at a time
        if not isinstance(k, tuple):
            k = (k,)
        n_specified = sum(1 for i in k if i is not None and i is not Ellipsis)
        expanded = []
        for i in k:
            if i is Ellipsis:
                expanded += [slice(None)] * (3 - n_specified)
            else:
                expanded.append(i)

        def go(d, items):
            if not items:
                return d
            head, rest = items[0], items[1:]
            if head is None:
                return [go(d, rest)]
            if isinstance(head, int):
                return go(d[head], rest)
            return [go(e, rest) for e in d[head]]
        return go(data, expanded)
    assert r.tolist() == pick(full, key)


def test_getitem_steps_and_negative_bounds():
    a = torch.arange(10)
    assert a[2:8:3].tolist() == [2, 5]
    assert a[-3:].tolist() == [7, 8, 9]
    assert a[:-7].tolist() == [0, 1, 2]
    assert a[-100:100].tolist() == list(range(10))
    assert a[7:3].tolist() == []
    assert a[::20].tolist() == [0]
    assert a[1::3].stride() == (3,) and a[1::3].storage_offset() == 1
    assert a[torch.tensor(2)].item() == 2
    import numpy as np
    assert a[np.int64(3)].item() == 3


def test_getitem_returns_views():
    x = cube()
    for v in (x[1], x[:, 1], x[..., 2], x[None], x[:, ::2, 1::2], x[0, 1:, 2:]):
        assert shares_storage(v, x)
    assert x[1, 1:].storage_offset() == 16
    assert x[1].data_ptr() - x.data_ptr() == 12 * 8
    assert x[0, 0, 0].shape == () and x[0, 0, 0].item() == 0


def test_integer_index_of_a_zero_dim_tensor_fails():
    with pytest.raises(IndexError, match='0-dim'):
        torch.tensor(5)[0]


# ---- indexing: writing -------------------------------------------------------------------------------

def test_setitem_scalars_and_broadcast_tensors():
    x = torch.arange(12).view(3, 4)
    x[1] = 100
    assert x.tolist() == [[0, 1, 2, 3], [100] * 4, [8, 9, 10, 11]]
    x = torch.arange(12).view(3, 4)
    x[:, 1::2] = torch.tensor([7, 8])
    assert x.tolist() == [[0, 7, 2, 8], [4, 7, 6, 8], [8, 7, 10, 8]]
    x = torch.arange(12).view(3, 4)
    x[..., 0] = -1
    assert [r[0] for r in x.tolist()] == [-1, -1, -1]
    x = torch.arange(12).view(3, 4)
    x[None, 1:, None] = 5
    assert x.tolist() == [[0, 1, 2, 3], [5] * 4, [5] * 4]
    x = torch.zeros(2, 3)
    x[0, 0] = torch.tensor([5.])  # leading size-1 dims of the value are dropped
    x[1] = torch.ones(1, 3)
    assert x.tolist() == [[5.0, 0.0, 0.0], [1.0, 1.0, 1.0]]
    x[:] = 2
    assert x.tolist() == [[2.0] * 3] * 2


def test_setitem_converts_values():
    x = torch.arange(6)
    x[0] = 2.7
    x[1] = True
    x[:2] = x[:2] + 0  # same dtype
    assert x.tolist() == [2, 1, 2, 3, 4, 5]
    x[2:5] = torch.tensor([1.5, 2.5, 3.5])
    assert x.tolist() == [2, 1, 1, 2, 3, 5]
    f = torch.zeros(3, dtype=torch.float16)
    f[0] = 0.1
    assert f[0].item() == 0.0999755859375
    b = torch.zeros(2, dtype=torch.bool)
    b[1] = 5
    assert b.tolist() == [False, True]
    u = torch.zeros(2, dtype=torch.uint8)
    u[0] = -1  # wraps, as in PyTorch
    assert u.tolist() == [255, 0]


def test_setitem_through_views_changes_the_base():
    x = torch.arange(6).view(2, 3)
    x.t()[1, 1] = 99
    assert x.tolist() == [[0, 1, 2], [3, 99, 5]]
    y = x.view(6)
    y[0] = 42
    assert x[0, 0].item() == 42
    z = x[:, 1:]
    z[0] = torch.tensor([-1, -2])
    assert x.tolist() == [[42, -1, -2], [3, 99, 5]]
    e = x.unsqueeze(0).squeeze(0).flatten()
    e[5] = 0
    assert x[1, 2].item() == 0
    p = x.permute(1, 0)
    p[2, 0] = 7
    assert x[0, 2].item() == 7


def test_setitem_with_overlapping_source_follows_pytorch():
    msg = 'refer to a single memory location'
    x = torch.arange(12).view(3, 4)
    with pytest.raises(RuntimeError, match=msg):
        x[1:] = x[:-1]
    with pytest.raises(RuntimeError, match=msg):
        x[0:2].copy_(x[1:3])
    m = torch.arange(4.).view(2, 2)
    with pytest.raises(RuntimeError, match=msg):
        m.copy_(m.t())
    y = torch.arange(4.)
    y[:2] = y[2:]  # disjoint
    assert y.tolist() == [2.0, 3.0, 2.0, 3.0]
    x[1:] = x[0]  # a broadcast source is too irregular to judge: allowed, and read first
    assert x.tolist() == [[0, 1, 2, 3]] * 3
    z = torch.arange(4.)
    z[1:] = z[0]  # a 0-dim source fills
    assert z.tolist() == [0.0] * 4


def test_setitem_bumps_the_version():
    x = torch.zeros(3)
    v = x._version
    x[0] = 1
    assert x._version > v


def test_fill_and_zero_and_copy():
    x = torch.zeros(2, 3)
    assert x.fill_(2.5) is x and x.tolist() == [[2.5] * 3] * 2
    x[:, 1].zero_()
    assert x.tolist() == [[2.5, 0.0, 2.5]] * 2
    assert x.copy_(torch.tensor([1, 2, 3])) is x and x.tolist() == [[1.0, 2.0, 3.0]] * 2
    x.t().copy_(torch.arange(6.).view(3, 2))
    assert x.tolist() == [[0.0, 2.0, 4.0], [1.0, 3.0, 5.0]]
    c = x.clone()
    c[0, 0] = 9
    assert x[0, 0].item() == 0.0 and c.is_contiguous()
    e = torch.zeros(3).expand(2, 3)
    e.fill_(1)  # writing one value through shared memory is fine
    assert e.tolist() == [[1.0] * 3] * 2


@pytest.mark.parametrize('dtype', ALL, ids=str)
def test_setitem_every_dtype(dtype):
    x = torch.zeros(2, 3, dtype=dtype)
    x[1, ::2] = 1
    x[0, 1] = torch.tensor(1, dtype=torch.int8)
    one, zero = (True, False) if dtype == torch.bool else (1, 0)
    assert x.tolist() == [[zero, one, zero], [one, zero, one]]


def test_in_place_view_ops_change_the_tensor_itself():
    # t_, transpose_, squeeze_, unsqueeze_: the same object, the view op's sizes and strides, the
    # same storage; gradients flow back through the changed geometry
    x = torch.arange(6.).view(2, 3)
    y = x.t_()
    assert y is x and x.shape == (3, 2) and x.stride() == (1, 3) and x[2, 1].item() == 5
    z = torch.ones(1, 3, 1)
    assert z.squeeze_() is z and z.shape == (3,)
    z = torch.ones(1, 3, 1)
    assert z.squeeze_(2).shape == (1, 3) and z.unsqueeze_(0).shape == (1, 1, 3)
    assert torch.ones(2, 3).transpose_(0, 1).shape == (3, 2)
    with pytest.raises(RuntimeError, match=r't_\(\) expects a tensor with <= 2 dimensions'):
        torch.ones(2, 2, 2).t_()
    a = torch.ones(2, 1, 3, requires_grad=True)
    b = a * torch.arange(6.).view(2, 1, 3)
    b.squeeze_()
    (b * torch.arange(6.).view(2, 3)).sum().backward()
    assert a.grad.shape == (2, 1, 3) and a.grad.view(-1).tolist() == [v * v for v in range(6)]
    a = torch.ones(2, 3, requires_grad=True)
    b = a * torch.arange(6.).view(2, 3)
    b.t_()
    (b * torch.arange(6.).view(3, 2)).sum().backward()
    assert a.grad.tolist() == [[0., 2., 8.], [3., 12., 25.]]


def test_view_as_another_dtype():
    """Tensor.view(dtype): the same bytes read as another dtype (PyTorch's rules and messages)."""
    import struct
    x = torch.tensor([1.0, -2.0, 0.5, 3.0])
    bits = list(struct.unpack('4i', struct.pack('4f', 1.0, -2.0, 0.5, 3.0)))
    v = x.view(torch.int32)
    assert v.tolist() == bits and v.data_ptr() == x.data_ptr() and v.dtype == torch.int32
    assert x.view(torch.int16).shape == (8,) and x.view(torch.float64).shape == (2,)
    assert x.view(torch.uint8)[:4].tolist() == list(struct.pack('f', 1.0))
    assert x.view(2, 2).view(torch.int64).shape == (2, 1)
    assert torch.ones(4, 4)[:, :2].view(torch.float64).stride() == (2, 1)
    same = x.view(torch.float32)
    assert same is not x and same.data_ptr() == x.data_ptr()
    v[0] = 0  # writes through: the storage is shared
    assert x[0].item() == 0.0
    y = torch.ones(3, requires_grad=True)
    assert not y.view(torch.int32).requires_grad  # not differentiable, as PyTorch's
    with pytest.raises(RuntimeError, match=r'self.dim\(\) cannot be 0 to view Float as Short'):
        torch.tensor(1.).view(torch.int16)
    with pytest.raises(RuntimeError, match=r'self.stride\(-1\) must be 1 to view Float as Short'):
        x.view(2, 2).t().view(torch.int16)
    with pytest.raises(RuntimeError, match=r'self.size\(-1\) must be divisible by 2 to view Float as Double'):
        x[:3].view(torch.float64)
    with pytest.raises(RuntimeError, match=r'self.storage_offset\(\) must be divisible by 2'):
        x[1:3].view(torch.float64)
    with pytest.raises(RuntimeError, match=r'self.stride\(0\) must be divisible by 2 to view Float as Double'):
        torch.ones(3, 5)[:, :2].view(torch.float64)
    with pytest.raises(RuntimeError, match='not supported for conjugate view tensors'):
        torch.tensor([1 + 2j]).conj().view(torch.float64)
