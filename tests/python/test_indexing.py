"""Indexing, gathering and scattering: advanced indexing for reading and writing, index_select,
gather, take, take_along_dim, index_put_ (accumulate), index_add_, index_copy_, index_fill_, put_,
scatter_ (src, value, reduce), scatter_add_, scatter_reduce_, masked_fill, masked_select,
masked_scatter, where, nonzero, argwhere.

Expected values come from numpy's advanced indexing (which PyTorch follows), or are written out by
hand; every op is also checked on empty, 0-dim, non-contiguous and broadcast operands, its in-place
and out= forms, the meta device, and the errors it raises.
"""
import warnings

import numpy as np
import pytest
import torch

DTYPES = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.float16, torch.bfloat16,
          torch.float32, torch.float64]


def cube(dtype=torch.int64):
    return torch.arange(24).view(2, 3, 4).to(dtype)


def np_cube():
    return np.arange(24).reshape(2, 3, 4)


def np_key(key):
    """The key with tensors as numpy arrays, for numpy's advanced indexing."""
    if isinstance(key, tuple):
        return tuple(np_key(k) for k in key)
    if isinstance(key, torch.Tensor):
        return key.numpy()
    return key


# ---- advanced indexing: reading -------------------------------------------------------------------------

@pytest.mark.parametrize('key', [
    [0, 1], (0, [2, 0, 1]), (slice(None), [2, 0]), (Ellipsis, [3, 0, 3]), ([1, 0], slice(None), [3, 0]),
    ([1, 0], 2, [3, 0]), ([[0], [1]], [[0, 1, 2]]), (torch.tensor([1, 0]), torch.tensor([2])),
    torch.tensor([[0, 1], [1, 0]]), torch.tensor([True, False]), (slice(None), torch.tensor([True, False, True])),
    (Ellipsis, torch.tensor([True, False, True, False])), (slice(1, None), [0, 0, 2]), [-1, -2],
    torch.tensor([[True, False, True], [False, True, True]]), (0, torch.tensor([True, False, True]), 1),
    (slice(None), [[0, 2]], slice(None, None, 2)), ([0, 1], [1, 2], [3, 0]),
], ids=repr)
def test_getitem_matches_numpy(key):
    r = cube()[key]
    expected = np_cube()[np_key(key)]
    assert r.shape == expected.shape and r.tolist() == expected.tolist()


def test_non_adjacent_indices_go_first():
    x = cube()
    # adjacent advanced indices stay where they are; separated ones move to the front
    assert x[:, [0, 1], [1, 2]].shape == (2, 2)
    assert x[[0, 1], :, [1, 2]].shape == (2, 3)
    assert x[[0, 1], :, [1, 2]].tolist() == [[1, 5, 9], [14, 18, 22]]
    assert x[:, [[0], [2]], [[1, 3]]].shape == (2, 2, 2)
    assert x[None, [0, 1]].shape == (1, 2, 3, 4)
    assert x[[0, 1], None, [1, 2]].shape == (2, 1, 4)  # None separates them


def test_getitem_with_indices_copies_and_is_contiguous():
    x = cube().float().transpose(0, 2)  # non-contiguous
    r = x[[0, 3]]
    assert r.is_contiguous() and r.data_ptr() != x.data_ptr()
    assert r.tolist() == [x[0].tolist(), x[3].tolist()]
    r[0, 0, 0] = 100
    assert x[0, 0, 0].item() == 0


def test_masks_select_in_row_major_order():
    x = torch.arange(12).view(3, 4)
    assert x[x % 5 == 0].tolist() == [0, 5, 10]
    assert x.t()[x.t() % 5 == 0].tolist() == [0, 5, 10]  # transposed: still x.t()'s row-major order
    assert x[torch.tensor([True, False, True])].tolist() == [[0, 1, 2, 3], [8, 9, 10, 11]]
    assert x[:, torch.tensor([False, True, False, True])].tolist() == [[1, 3], [5, 7], [9, 11]]
    assert x[x > 100].shape == (0,)
    assert x[torch.zeros(3, 4, dtype=torch.bool)].shape == (0,)


def test_bools_and_zero_dim_tensors_as_indices():
    x = cube()
    assert x[True].shape == (1, 2, 3, 4) and x[False].shape == (0, 2, 3, 4)
    assert x[0, True].shape == (1, 3, 4)
    assert x[torch.tensor(True)].shape == (1, 2, 3, 4)
    assert x[torch.tensor(1)].tolist() == x[1].tolist()  # a 0-dim integer tensor is an int: a view
    assert x[torch.tensor(1)].data_ptr() == x[1].data_ptr()
    s = torch.tensor(5.)
    assert s[torch.tensor(True)].tolist() == [5.] and s[torch.tensor(False)].shape == (0,)
    assert s[...].item() == 5. and s[None].shape == (1,)


def test_lists_become_index_tensors():
    x = cube()
    assert x[[0, 1]].shape == (2, 3, 4)            # a list of ints is one index
    assert x[[[0, 1], [1, 2]]].shape == (2, 4)     # a list holding lists is a tuple (numpy's old rule)
    assert x[[0, slice(None)]].shape == (3, 4)     # ... as is one holding a slice
    assert x[[True, False]].shape == (1, 3, 4)     # a list of bools is a mask
    assert x[[1.7]].tolist() == x[[1]].tolist()    # floats in a list are truncated to longs
    assert x[[]].shape == (0, 3, 4)


@pytest.mark.parametrize('dtype', DTYPES, ids=str)
def test_getitem_every_dtype(dtype):
    x = torch.arange(12).view(3, 4).to(dtype)
    ref = torch.arange(12).view(3, 4).tolist()
    cast = (lambda v: bool(v)) if dtype == torch.bool else (lambda v: v)
    assert x[[2, 0]].tolist() == [[cast(v) for v in ref[2]], [cast(v) for v in ref[0]]]
    assert x[:, [3]].tolist() == [[cast(r[3])] for r in ref]
    mask = torch.arange(12).view(3, 4) % 4 == 1
    assert x[mask].tolist() == [cast(1), cast(5), cast(9)]
    assert x[mask].dtype == dtype


@pytest.mark.parametrize('key, error, message', [
    ([5], IndexError, 'index 5 is out of bounds for dimension 0 with size 2'),
    ((slice(None), [4]), IndexError, 'index 4 is out of bounds for dimension 0 with size 3'),
    (([0], [5]), IndexError, 'index 5 is out of bounds for dimension 1 with size 3'),
    (torch.tensor([0.]), IndexError, 'tensors used as indices must be long, byte or bool tensors'),
    (torch.tensor([0], dtype=torch.int32), IndexError, 'must be long, byte or bool'),
    (([0, 1], [0, 1, 2]), IndexError, 'shape mismatch: indexing tensors could not be broadcast together with '
                                      'shapes \\[2\\], \\[3\\]'),
    ((0, 0, 0, [0]), IndexError, 'too many indices for tensor of dimension 3'),
    (torch.tensor([True, False, True]), IndexError, 'The shape of the mask \\[3\\] at index 0 does not match'),
    (1.5, IndexError, 'only integers, slices'),
    ('a', TypeError, 'invalid data type'),
], ids=repr)
def test_getitem_errors(key, error, message):
    with pytest.raises(error, match=message):
        cube()[key]


def test_index_into_empty_dims():
    assert torch.empty(2, 0)[:, torch.tensor([], dtype=torch.long)].shape == (2, 0)
    with pytest.raises(IndexError, match='index is out of bounds for dimension with size 0'):
        torch.empty(0)[torch.tensor([0])]
    with pytest.raises(IndexError, match='too many indices for tensor of dimension 0'):
        torch.tensor(5)[torch.tensor([0])]


def test_uint8_index_is_a_deprecated_mask():
    with pytest.warns(UserWarning, match='indexing with dtype torch.uint8 is now deprecated'):
        r = cube()[torch.tensor([0, 1], dtype=torch.uint8)]
    assert r.tolist() == cube()[1:].tolist()


def test_index_op_and_meta_device():
    x = cube()
    r = torch.ops.aten.index.Tensor(x, [None, torch.tensor([2, 0])])
    assert r.tolist() == x[:, [2, 0]].tolist()
    out = torch.empty(0, dtype=torch.long)
    assert torch.ops.aten.index.Tensor_out(x, [torch.tensor([1])], out=out) is out and out.shape == (1, 3, 4)
    m = torch.empty(3, 4, device='meta')
    assert m[torch.tensor([0, 2], device='meta')].shape == (2, 4)
    with pytest.raises(NotImplementedError):
        m[torch.empty(3, 4, dtype=torch.bool, device='meta')]


# ---- advanced indexing: writing -------------------------------------------------------------------------

def test_setitem_matches_numpy():
    for key, value in [([0, 2], 7), ((slice(None), [1, 3]), [9, 8]), (([0, 1], [1, 2]), [5, 6]),
                       ((Ellipsis, [0]), [[1], [2], [3]]), (([2, 0], slice(1, 3)), [[7, 8]])]:
        x, n = torch.arange(12).view(3, 4), np.arange(12).reshape(3, 4)
        x[key] = torch.tensor(value) if isinstance(value, list) else value
        n[np_key(key)] = value
        assert x.tolist() == n.tolist(), key


def test_setitem_through_masks_and_repeated_indices():
    x = torch.arange(12.).view(3, 4)
    x[x > 5] = 0
    assert x.tolist() == [[0, 1, 2, 3], [4, 5, 0, 0], [0, 0, 0, 0]]
    x = torch.arange(12.).view(3, 4)
    x[x > 7] = torch.tensor([1., 2., 3., 4.])
    assert x.view(-1)[8:].tolist() == [1, 2, 3, 4]
    x = torch.zeros(4)
    x[[1, 1, 1]] = torch.tensor([1., 2., 3.])  # without accumulation the last write wins
    assert x.tolist() == [0, 3, 0, 0]
    x = torch.arange(12.).view(3, 4)
    x[torch.tensor([True, False, True])] += 1  # read, add, write back
    assert x[0].tolist() == [1, 2, 3, 4] and x[1].tolist() == [4, 5, 6, 7]


def test_setitem_value_rules():
    x = torch.arange(12.).view(3, 4)
    x[x > 5] = torch.tensor(7)  # one value through a mask: converted, as masked_fill does
    assert x[2].tolist() == [7, 7, 7, 7]
    with pytest.raises(RuntimeError, match='Index put requires the source and destination dtypes match, got Float'):
        x[[0]] = torch.tensor([1, 2, 3, 4])
    with pytest.raises(RuntimeError, match='shape mismatch: value tensor of shape \\[2\\] cannot be broadcast to '
                                           'indexing result of shape \\[2, 4\\]'):
        x[[0, 2]] = torch.tensor([1., 2.])
    x[[0, 2]] = torch.tensor([[[1., 2., 3., 4.]]])  # leading size-1 dims of the value are dropped
    assert x[2].tolist() == [1, 2, 3, 4]
    with pytest.raises(RuntimeError, match='value cannot be converted to type float.* without overflow'):
        x[[0]] = 1e300
    with pytest.raises(TypeError, match="can't assign a str to a torch.FloatTensor"):
        x[[0]] = 'a'
    with pytest.raises(IndexError, match='index 5 is out of bounds'):
        x[[5]] = 1
    x[True] = torch.tensor([1, 2, 3, 4])  # basic indexing: copy_ converts
    assert x.tolist() == [[1, 2, 3, 4]] * 3
    x[False] = 99
    assert x.tolist() == [[1, 2, 3, 4]] * 3


@pytest.mark.parametrize('dtype', DTYPES, ids=str)
def test_setitem_every_dtype(dtype):
    x = torch.zeros(3, 4, dtype=dtype)
    one = True if dtype == torch.bool else 1
    x[[0, 2], [1, 3]] = one
    x[torch.tensor([True, False, True]), 0] = one
    x[torch.tensor([1]), 1:3] = torch.tensor([one, one]).to(dtype)
    assert x.tolist() == [[1, 1, 0, 0], [0, 1, 1, 0], [1, 0, 0, 1]]
    assert x.dtype == dtype


# ---- index_put_ ---------------------------------------------------------------------------------------------

def test_index_put_accumulates_in_order_and_precision():
    x = torch.zeros(3)
    assert x.index_put_((torch.tensor([0, 0, 2]),), torch.tensor([1., 2., 3.]), accumulate=True) is x
    assert x.tolist() == [3, 0, 3]
    h = torch.ones(3, dtype=torch.float16)  # each addition rounds to float16: 1 + 3 * 1000 = 3000 (not 3001)
    h.index_put_((torch.tensor([0, 0, 0]),), torch.tensor(1000., dtype=torch.float16), accumulate=True)
    assert h.tolist() == [3000, 1, 1]
    i8 = torch.tensor([127], dtype=torch.int8)  # integers wrap
    i8.index_put_((torch.tensor([0, 0]),), torch.tensor(1, dtype=torch.int8), accumulate=True)
    assert i8.tolist() == [-127]
    b = torch.zeros(3, dtype=torch.bool)
    b.index_put_((torch.tensor([1, 1]),), torch.tensor(True), accumulate=True)
    assert b.tolist() == [False, True, False]


def test_index_put_functional_and_several_indices():
    x = torch.arange(6).view(2, 3)
    r = torch.index_put(x, (torch.tensor([0, 1]), torch.tensor([2, 0])), torch.tensor([10, 20]))
    assert r.tolist() == [[0, 1, 10], [20, 4, 5]] and x.tolist() == [[0, 1, 2], [3, 4, 5]]
    r = x.index_put([torch.tensor([1]), None], torch.tensor([7, 8, 9]), True)
    assert r.tolist() == [[0, 1, 2], [10, 12, 14]]
    x = torch.arange(4.)
    with pytest.raises(RuntimeError, match='unsupported operation: some elements of the input tensor'):
        x.index_put_((torch.tensor([0]),), x[1:2])


# ---- gathering ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize('dtype', DTYPES, ids=str)
def test_index_select_gather_take(dtype):
    x = torch.arange(12).view(3, 4).to(dtype)
    n = np.arange(12).reshape(3, 4)
    conv = bool if dtype == torch.bool else (lambda v: v)
    same = lambda t, a: t.tolist() == [[conv(v) for v in row] for row in a.tolist()] if a.ndim == 2 else \
        t.tolist() == [conv(v) for v in a.tolist()]
    assert same(x.index_select(1, torch.tensor([3, 0, 3])), n[:, [3, 0, 3]])
    assert same(x.t().index_select(0, torch.tensor([2, 1], dtype=torch.int32)), n.T[[2, 1]])
    idx = torch.tensor([[0, 3], [2, 2], [1, 0]])
    assert same(torch.gather(x, 1, idx), np.take_along_axis(n, idx.numpy(), 1))
    assert same(x.take(torch.tensor([[11, 0], [-1, 5]])), n.flatten()[[[11, 0], [-1, 5]]])
    assert same(x.t().take(torch.tensor([1, 4])), n.T.flatten()[[1, 4]])  # take is row-major over x.t()
    picks = [[1], [0], [3]]
    assert same(torch.take_along_dim(x, torch.tensor(picks), 1), np.take_along_axis(n, np.array(picks), 1))
    assert same(torch.take_along_dim(x, torch.tensor([5, 0])), n.flatten()[[5, 0]])


@pytest.mark.parametrize('dtype', [torch.uint8, torch.int16, torch.float32, torch.float64], ids=str)
def test_gathers_check_and_wrap_an_index_at_every_place_in_a_row(dtype):
    # Rows are read four indices at a time with one check: a bad index anywhere, in a group or in
    # the tail, raises with its value; a negative one that x[idx] wraps lands where numpy puts it.
    for n in (1, 3, 4, 5, 8, 11):
        x = torch.arange(2 * 7).view(2, 7).to(dtype)
        base = (np.arange(n) * 3) % 7
        assert torch.gather(x, 1, torch.from_numpy(np.stack([base, base[::-1]]))).tolist() == \
            np.take_along_axis(x.numpy(), np.stack([base, base[::-1]]), 1).tolist()
        for at in range(n):
            for bad in (7, -1, -8, 2 ** 62):
                idx = base.copy()
                idx[at] = bad
                with pytest.raises(RuntimeError, match='index %d is out of bounds' % bad):
                    torch.gather(x, 1, torch.from_numpy(np.stack([base, idx])))
            idx = base.copy()
            idx[at] = -3
            assert x[:, torch.from_numpy(idx)].tolist() == x.numpy()[:, idx].tolist()


def test_gathering_zero_dim_empty_and_out():
    s = torch.tensor(5.)
    assert s.index_select(0, torch.tensor([0])).shape == () and s.gather(0, torch.tensor([0])).tolist() == [5.]
    assert torch.tensor([5.]).gather(0, torch.tensor(0)).shape == ()
    assert torch.empty(0, 4).index_select(0, torch.tensor([], dtype=torch.long)).shape == (0, 4)
    assert torch.arange(12.).view(3, 4).gather(1, torch.empty(4, 0, dtype=torch.long)).shape == (4, 0)
    out = torch.empty(0)
    assert torch.index_select(torch.arange(4.), 0, torch.tensor([3, 1]), out=out) is out and out.tolist() == [3, 1]
    assert torch.take(torch.arange(4.), torch.tensor([2]), out=out) is out and out.tolist() == [2]
    with pytest.raises(RuntimeError, match='unsupported operation'):
        x = torch.arange(4.)
        torch.index_select(x, 0, torch.tensor([1, 0]), out=x[2:])


@pytest.mark.parametrize('expr, error, message', [
    ('x.index_select(0, torch.tensor([0, 5]))', IndexError, 'index out of range in self'),
    ('x.index_select(0, torch.tensor([-1]))', IndexError, 'index out of range in self'),  # no wrapping here
    ('x.index_select(0, torch.tensor([[0]]))', IndexError, 'Index is supposed to be a vector'),
    ('x.index_select(0, torch.tensor([0.]))', RuntimeError, 'Expected dtype int32 or int64 for index'),
    ('x.gather(1, torch.tensor([[0, 4]]))', RuntimeError, 'index 4 is out of bounds for dimension 1 with size 4'),
    ('x.gather(1, torch.tensor([[0, -1]]))', RuntimeError, 'index -1 is out of bounds'),
    ('x.gather(1, torch.tensor([0, 1]))', RuntimeError, 'same number of dimensions as input tensor'),
    ('x.gather(0, torch.tensor([[0, 1, 2, 3, 0]]))', RuntimeError, 'Size does not match at dimension 1'),
    ('x.gather(1, torch.tensor([[0]]).int())', RuntimeError, 'Expected dtype int64 for index'),
    ('x.take(torch.tensor([12]))', IndexError, 'out of range: tried to access index 12 on a tensor of 12 elements'),
    ('x.take(torch.tensor([-13]))', IndexError, 'tried to access index -13'),
    ('torch.empty(0).take(torch.tensor([0]))', IndexError, 'tried to take from an empty tensor'),
    ('torch.take_along_dim(x, torch.tensor([0]), 1)', RuntimeError, 'should have the same number of dimensions'),
])
def test_gathering_errors(expr, error, message):
    x = torch.arange(12.).view(3, 4)
    with pytest.raises(error, match=message):
        eval(expr)


# ---- writing along a dim --------------------------------------------------------------------------------

def test_index_add_copy_fill_put():
    x = torch.zeros(3, 2)
    assert x.index_add_(0, torch.tensor([2, 0, 2]), torch.tensor([[1., 2.], [3., 4.], [5., 6.]]), alpha=2) is x
    assert x.tolist() == [[6, 8], [0, 0], [12, 16]]
    assert torch.zeros(2, 3).index_add(1, torch.tensor([1]), torch.ones(2, 1)).tolist() == [[0, 1, 0], [0, 1, 0]]
    assert torch.zeros(3).long().index_add(0, torch.tensor([0]), torch.tensor([2]), alpha=1.5).tolist() == [2, 0, 0]
    x = torch.zeros(3, 2)
    assert x.index_copy_(0, torch.tensor([2, 0]), torch.tensor([[1., 2.], [3., 4.]])) is x
    assert x.tolist() == [[3, 4], [0, 0], [1, 2]]
    assert torch.zeros(2, 3).index_fill(1, torch.tensor([0, -1]), 7).tolist() == [[7, 0, 7], [7, 0, 7]]
    assert torch.zeros(2, 3).index_fill(0, torch.tensor([1]), torch.tensor(-1.)).tolist() == [[0, 0, 0], [-1, -1, -1]]
    x = torch.zeros(2, 3).t()  # non-contiguous: put_ still counts row-major
    assert x.put_(torch.tensor([0, 1, -1]), torch.tensor([1., 2., 3.])) is x
    assert x.tolist() == [[1, 2], [0, 0], [0, 3]]
    assert torch.zeros(4).put(torch.tensor([1, 1]), torch.tensor([2., 3.]), accumulate=True).tolist() == [0, 5, 0, 0]
    s = torch.tensor(3.)
    assert s.index_fill(0, torch.tensor(0), 1).item() == 1
    assert s.index_add(0, torch.tensor([0]), torch.tensor([2.])).item() == 5


@pytest.mark.parametrize('expr, error, message', [
    ('x.index_add_(0, torch.tensor([0, 5]), torch.ones(2, 4))', IndexError, 'index out of range in self'),
    ('x.index_add_(0, torch.tensor([0, 0]), torch.ones(3, 4))', RuntimeError, 'Number of indices \\(2\\) should be '
                                                                              'equal to source.size\\(dim\\): \\(3\\)'),
    ('x.index_add_(0, torch.tensor([0]), torch.ones(1, 4).double())', RuntimeError, 'must have the same scalar type'),
    ('x.index_copy_(0, torch.tensor([0, 5]), torch.ones(2, 4))', IndexError,
     'index_copy_\\(\\): index 5 is out of bounds'),
    ('x.index_copy_(0, torch.tensor([0]), torch.ones(1, 3))', RuntimeError, 'must have same slice shapes'),
    ('x.index_copy_(0, torch.tensor([0]).int(), torch.ones(1, 4))', RuntimeError, 'Expected a long tensor for index'),
    ('x.index_fill_(0, torch.tensor([0, 5]), 1)', IndexError, 'index 5 is out of bounds for dimension 0 with size 3'),
    ('x.index_fill_(1, torch.tensor([0]), torch.tensor([7.]))', RuntimeError, 'only supports a 0-dimensional value'),
    ('x.index_fill_(1, torch.tensor([0]), 1e300)', RuntimeError, 'cannot be converted to type float without overflow'),
    ('x.put_(torch.tensor([12]), torch.tensor([1.]))', IndexError, 'tried to access index 12 on a tensor of 12'),
    ('x.put_(torch.tensor([1]), torch.tensor([1., 2.]))', IndexError, 'same number of elements'),
    ('x.put_(torch.tensor([1]), torch.tensor([1]))', RuntimeError, 'expected to have the same dtype'),
])
def test_writing_along_a_dim_errors(expr, error, message):
    x = torch.arange(12.).view(3, 4)
    with pytest.raises(error, match=message):
        eval(expr)


# ---- scatter ----------------------------------------------------------------------------------------------

def test_scatter_forms():
    idx = torch.tensor([[0, 1, 0], [2, 2, 1]])
    src = torch.tensor([[1., 2., 3.], [4., 5., 6.]])
    # out[i][index[i][j]] = src[i][j] along dim 1, later j winning
    assert torch.zeros(2, 3).scatter(1, idx, src).tolist() == [[3, 2, 0], [0, 6, 5]]
    assert torch.zeros(3, 3).scatter(0, idx, src).tolist() == [[1, 0, 3], [0, 2, 6], [4, 5, 0]]
    assert torch.zeros(2, 3).scatter(1, idx, 9.).tolist() == [[9, 9, 0], [0, 9, 9]]
    assert torch.ones(2, 3).scatter_add(1, idx, src).tolist() == [[5, 3, 1], [1, 7, 10]]
    assert torch.ones(2, 3).scatter(1, idx, src, reduce='multiply').tolist() == [[3, 2, 1], [1, 6, 20]]
    assert torch.ones(2, 3).scatter(1, idx, 2., reduce='add').tolist() == [[5, 3, 1], [1, 3, 5]]
    x = torch.zeros(2, 3)
    assert x.scatter_(1, idx, src) is x and x.scatter_add_(1, idx, src) is x


@pytest.mark.parametrize('reduce, include_self, expected', [
    ('sum', True, [[14, 12, 10], [10, 16, 29]]),
    ('sum', False, [[4, 2, 10], [10, 6, 9]]),
    ('prod', True, [[30, 20, 10], [10, 60, 400]]),
    ('prod', False, [[3, 2, 10], [10, 6, 20]]),
    ('mean', True, [[14 / 3, 6, 10], [10, 8, 29 / 3]]),
    ('mean', False, [[2, 2, 10], [10, 6, 4.5]]),
    ('amax', True, [[10, 10, 10], [10, 10, 20]]),
    ('amax', False, [[3, 2, 10], [10, 6, 5]]),
    ('amin', True, [[1, 2, 10], [10, 6, 4]]),
    ('amin', False, [[1, 2, 10], [10, 6, 4]]),
])
def test_scatter_reduce(reduce, include_self, expected):
    x = torch.tensor([[10., 10., 10.], [10., 10., 20.]])
    idx = torch.tensor([[0, 1, 0], [2, 1, 2]])
    src = torch.tensor([[1., 2., 3.], [4., 6., 5.]])
    with pytest.warns(UserWarning, match='scatter_reduce\\(\\) is in beta'):
        r = x.scatter_reduce(1, idx, src, reduce, include_self=include_self)
    assert r.view(-1).tolist() == pytest.approx([v for row in expected for v in row])


def test_scatter_reduce_integers_and_nan():
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        # integer means floor: (-1 - 7 + 2) / 3 = -2
        assert torch.tensor([-1, 2]).scatter_reduce(0, torch.tensor([0, 0]), torch.tensor([-7, 2]),
                                                    'mean').tolist() == [-2, 2]
        r = torch.tensor([1., 2.]).scatter_reduce(0, torch.tensor([0, 0]), torch.tensor([float('nan'), 5.]), 'amax')
        assert r[0].item() != r[0].item() and r[1].item() == 2  # NaN wins
        u8 = torch.tensor([5], dtype=torch.uint8)
        assert u8.scatter_reduce(0, torch.tensor([0]), u8 + 4, 'amin', include_self=False).tolist() == [9]


@pytest.mark.parametrize('expr, error, message', [
    ('x.scatter_(1, torch.tensor([[0, 4]]), 1.)', RuntimeError, 'index 4 is out of bounds for dimension 1 with size 4'),
    ('x.scatter_(1, torch.tensor([[0]]), torch.tensor([[1]]))', RuntimeError,
     'Expected self.dtype to be equal to src.dtype'),
    ('x.scatter_(1, torch.tensor([[0]]).int(), 1.)', RuntimeError, 'Expected dtype int64 for index'),
    ('x.scatter_(1, torch.tensor([0]), 1.)', RuntimeError, 'same number of dimensions as self tensor'),
    ('x.scatter_(1, torch.tensor([[0, 1]]), torch.ones(1, 1))', RuntimeError,
     'Expected index \\[1, 2\\] to be smaller'),
    ('x.scatter_(1, torch.tensor([[0]]), 1., reduce="max")', RuntimeError, 'must be either add or multiply'),
    ('x.scatter_reduce_(1, torch.tensor([[0]]), torch.ones(1, 1), "max")', RuntimeError,
     'sum, prod, mean, amax or amin'),
])
def test_scatter_errors(expr, error, message):
    x = torch.zeros(3, 4)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        with pytest.raises(error, match=message):
            eval(expr)


# ---- masked ops, where, nonzero ----------------------------------------------------------------------------

@pytest.mark.parametrize('dtype', DTYPES, ids=str)
def test_masked_ops_every_dtype(dtype):
    x = torch.arange(6).view(2, 3).to(dtype)
    mask = torch.tensor([[True, False, True], [False, False, True]])
    v = True if dtype == torch.bool else 9
    filled = x.masked_fill(mask, v)
    assert filled.dtype == dtype and filled[0, 0].item() == v and filled[0, 1].item() == x[0, 1].item()
    assert x.masked_select(mask).tolist() == [x[0, 0].item(), x[0, 2].item(), x[1, 2].item()]
    source = torch.arange(6).to(dtype).flip(0)  # 5, 4, 3, ...: taken in order
    scattered = x.masked_scatter(mask, source)
    assert [scattered[0, 0].item(), scattered[0, 2].item(), scattered[1, 2].item()] == source[:3].tolist()
    assert torch.where(mask, x, x.flip(1)).tolist()[0] == [x[0, 0].item(), x[0, 1].item(), x[0, 2].item()]


def test_masked_fill_broadcasts_and_in_place():
    assert torch.zeros(3).masked_fill(torch.tensor([[True], [False]]), 1).tolist() == [[1, 1, 1], [0, 0, 0]]
    with pytest.raises(RuntimeError, match="output with shape \\[3\\] doesn't match the broadcast shape \\[2, 3\\]"):
        torch.zeros(3).masked_fill_(torch.tensor([[True], [False]]), 1)
    x = torch.arange(4.)
    assert x.masked_fill_(x > 1, -1) is x and x.tolist() == [0, 1, -1, -1]
    assert torch.arange(4).masked_fill(torch.tensor([True, False, False, False]), 2.7).tolist() == [2, 1, 2, 3]
    with pytest.raises(RuntimeError, match='cannot be converted to type int8_t without overflow'):
        torch.zeros(2, dtype=torch.int8).masked_fill(torch.tensor([True, False]), 300)
    with pytest.warns(UserWarning, match='masked_fill_ received a mask with dtype torch.uint8'):
        torch.zeros(2).masked_fill(torch.tensor([1, 0], dtype=torch.uint8), 1)


def test_masked_select_and_scatter_shapes():
    x = torch.arange(12.).view(3, 4)
    assert x.masked_select(torch.tensor([True, False, True, False])).tolist() == [0, 2, 4, 6, 8, 10]  # broadcast
    assert torch.tensor(3.).masked_select(torch.tensor([True, False])).tolist() == [3.]
    assert torch.empty(0, 4).masked_select(torch.empty(0, 4, dtype=torch.bool)).shape == (0,)
    with pytest.raises(RuntimeError, match='Number of elements of source < number of ones in mask'):
        x.clone().masked_scatter_(x > 5, torch.arange(3.))
    with pytest.raises(RuntimeError, match='expected BoolTensor or ByteTensor for mask'):
        x.masked_select(torch.tensor([1, 0, 1, 0]))


def test_where_promotes_like_binary_ops():
    c = torch.tensor([True, False])
    assert torch.where(c, 1, 0).dtype == torch.int64
    assert torch.where(c, 1., 0).dtype == torch.float32
    assert torch.where(c, torch.tensor([1, 2]), 0.5).tolist() == [1., 0.5]
    assert torch.where(c, torch.tensor([1, 2], dtype=torch.int32), torch.tensor(3)).dtype == torch.int32
    assert torch.where(c, torch.ones(2, dtype=torch.float16), 2.5).dtype == torch.float16
    assert torch.where(c, torch.ones(2), torch.ones(2).double()).dtype == torch.float64
    assert torch.tensor([5., 6.]).where(c, torch.tensor(-1.)).tolist() == [5, -1]  # x.where(c, y) is where(c, x, y)
    assert torch.where(torch.tensor([[True], [False]]), torch.arange(3), torch.zeros(2, 1)).shape == (2, 3)
    with pytest.raises(RuntimeError, match='where expected condition to be a boolean tensor'):
        torch.where(torch.ones(2), torch.ones(2), torch.ones(2))


def test_nonzero_argwhere_where():
    x = torch.tensor([[0, 3, 0], [4, 0, 5]])
    assert x.nonzero().tolist() == [[0, 1], [1, 0], [1, 2]]
    assert torch.argwhere(x).tolist() == [[0, 1], [1, 0], [1, 2]]
    rows, cols = torch.nonzero(x, as_tuple=True)
    assert rows.tolist() == [0, 1, 1] and cols.tolist() == [1, 0, 2]
    assert [t.tolist() for t in torch.where(x > 0)] == [[0, 1, 1], [1, 0, 2]]
    assert [t.tolist() for t in x.nonzero(as_tuple=True)] == [[0, 1, 1], [1, 0, 2]]
    assert x.t().nonzero().tolist() == [[0, 1], [1, 0], [2, 1]]  # row-major over x.t()
    assert torch.tensor(5).nonzero().shape == (1, 0) and torch.tensor(0).nonzero().shape == (0, 0)
    assert [t.tolist() for t in torch.nonzero(torch.tensor(5), as_tuple=True)] == [[0]]
    assert torch.tensor([0., -0., float('nan'), 1e-45]).nonzero().view(-1).tolist() == [2, 3]
    assert torch.zeros(2, 0, 3).nonzero().shape == (0, 3)
    with pytest.raises(TypeError, match="argument 'as_tuple' must be bool"):
        torch.nonzero(x, as_tuple=1)
    with pytest.raises(NotImplementedError):
        torch.empty(3, device='meta').nonzero()


def test_large_inputs_use_every_thread_and_agree():
    n = 300000
    x = torch.arange(n, dtype=torch.float32)
    mask = (torch.arange(n) * 7919) % 100 < 37
    idx = (torch.arange(n) * 7919) % n
    expected_mask = [v for v, m in zip(range(n), ((np.arange(n) * 7919) % 100 < 37).tolist()) if m]
    expected_idx = ((np.arange(n) * 7919) % n).astype(np.float32)
    for threads in (1, 2):
        torch.set_num_threads(threads)
        assert x[mask].tolist() == expected_mask
        assert np.array_equal(x[idx].numpy(), expected_idx)
        assert np.array_equal(x.view(-1, 100)[idx[:3000] % 3000].numpy(),
                              np.arange(n, dtype=np.float32).reshape(-1, 100)[(expected_idx[:3000] % 3000).astype(int)])
        assert mask.nonzero().shape == (len(expected_mask), 1)
    torch.set_num_threads(1)


@pytest.mark.parametrize('write', [
    'x[torch.tensor(False)] = x[0]', 'x[torch.tensor(True)] = x[0]', 'x[torch.tensor([0, 2])] = x[1]',
    'x[torch.tensor([0, 2])] = x[1:3]', 'x[torch.tensor([], dtype=torch.long)] = x[0]', 'x[True, True] = x[0]',
    'x.index_put_((torch.tensor([1]),), x[0])'])
def test_index_put_refuses_values_sharing_memory_with_self(write):
    """PyTorch's index_put_ refuses a value that shares memory with the tensor written, even when the
    indices select nothing (0-dim bool tensors index as [0] or nothing, through index_put_)."""
    x = torch.arange(4.)
    with pytest.raises(RuntimeError, match='refer to a single memory location'):
        exec(write, {'torch': torch, 'x': x})
    assert x.tolist() == [0., 1., 2., 3.]


@pytest.mark.parametrize('write,after', [
    ('x[torch.tensor([True, False, True, False])] = x[0]', [0., 1., 0., 3.]),  # a mask: masked_fill_
    ('x[x > 10] = x[0]', [0., 1., 2., 3.]), ('x[True] = x[0]', [0., 0., 0., 0.]), ('x[False] = x[0]', [0., 1., 2., 3.]),
    ('x[0] = x[1]', [1., 1., 2., 3.]), ('x[...] = x[0]', [0., 0., 0., 0.]),
    ('x[torch.tensor([0, 2])] = x[[1, 3]]', [1., 1., 3., 3.])])  # a list index copies the value first
def test_writes_that_may_read_self(write, after):
    x = torch.arange(4.)
    exec(write, {'torch': torch, 'x': x})
    assert x.tolist() == after


# ---- assigning arbitrary Python objects (issue #32: complex dtypes crashed on a NULL type name) ----

_SETITEM_KEYS = [0, slice(0, 1), torch.tensor([0]), torch.tensor([True, False]), Ellipsis]


@pytest.mark.parametrize('dtype', [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64,
                                   torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.complex64,
                                   torch.complex128])
def test_setitem_of_non_numbers_raises_type_error_for_every_dtype_and_key(dtype):
    legacy = {torch.complex64: 'torch.ComplexFloatTensor', torch.complex128: 'torch.ComplexDoubleTensor',
              torch.float32: 'torch.FloatTensor', torch.bool: 'torch.BoolTensor'}
    for value in (None, [1], [], 'x', (1,), object()):
        for key in _SETITEM_KEYS:
            t = torch.zeros(2, dtype=dtype)
            with pytest.raises(TypeError, match="can't assign a %s to a torch\\." % type(value).__name__) as info:
                t[key] = value
            if dtype in legacy:
                assert str(info.value).endswith(legacy[dtype])
            assert t.tolist() == torch.zeros(2, dtype=dtype).tolist()


def test_getitem_of_ellipsis_or_empty_tuple_is_an_alias_view():
    x = torch.zeros(3)
    for key in (Ellipsis, ()):
        v = x[key]
        assert v is not x and v._is_view() and v._base is x
        v[0] = 1
    assert x[0] == 1


def test_setitem_takes_only_the_numbers_pytorch_takes():
    # PyTorch's valueToTensor: bool, int (numpy integers too), float and complex (numpy.float64 is a float)
    import fractions
    for value in (np.float32(2), np.bool_(True), np.float16(1), fractions.Fraction(1, 3)):
        t = torch.zeros(2)
        with pytest.raises(TypeError, match=r"can't assign a (numpy\.)?%s to a torch.FloatTensor" % type(value).__name__):
            t[0] = value
    t = torch.zeros(3)
    t[0], t[1], t[2] = np.int64(3), np.float64(2.5), True
    assert t.tolist() == [3., 2.5, 1.]
