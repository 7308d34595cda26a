"""Joining, splitting and rearranging: cat/concat, stack and its h/v/d/column forms, split, tensor_split,
chunk, unbind, repeat, repeat_interleave, tile, the flips, roll, rot90, tril/triu and their index
forms, diag/diagonal/diag_embed/diagflat, trace, narrow, unfold, unflatten, movedim, swapaxes,
broadcast_to/broadcast_tensors/broadcast_shapes, meshgrid.

Values are written out by hand or built from Python lists; views are checked to share memory and
copies not to; every op also meets empty, 0-dim and non-contiguous inputs and its errors.
"""
import warnings

import pytest
import torch

DTYPES = [torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.float16, torch.bfloat16,
          torch.float32, torch.float64]


def grid(rows=2, cols=3, dtype=torch.int64):
    return torch.arange(rows * cols).view(rows, cols).to(dtype)


def shares(a, b):
    return a.storage().data_ptr() == b.storage().data_ptr()


# ---- joining ------------------------------------------------------------------------------------------

@pytest.mark.parametrize('dtype', DTYPES, ids=str)
def test_cat_every_dtype_and_dim(dtype):
    a, b = grid(dtype=dtype), torch.ones(2, 2).to(dtype)
    rows = a.tolist()
    assert torch.cat([a, b], 1).tolist() == [rows[0] + b.tolist()[0], rows[1] + b.tolist()[1]]
    assert torch.cat([a, a.t().t()]).tolist() == rows + rows
    assert torch.cat((a.t(), a.t()), dim=-1).tolist() == [r + r for r in a.t().tolist()]
    assert torch.cat([a, b], 1).dtype == dtype


def test_cat_promotes_and_skips_legacy_empty_vectors():
    assert torch.cat([torch.ones(2, dtype=torch.int32), torch.tensor([True])]).dtype == torch.int32
    assert torch.cat([torch.ones(1, dtype=torch.float16), torch.ones(1, dtype=torch.bfloat16)]).dtype == torch.float32
    assert torch.cat([torch.tensor([1]), torch.tensor([2.5])]).tolist() == [1., 2.5]
    assert torch.cat([grid(), torch.empty(0)]).shape == (2, 3)  # a 1-D empty tensor joins anything
    assert torch.cat([torch.empty(0), torch.empty(0)]).shape == (0,)
    assert torch.cat([torch.empty(0, 3), grid()]).shape == (2, 3)
    assert torch.cat([torch.ones(2)] * 50).shape == (100,)


def test_cat_out_and_errors():
    out = torch.empty(0)
    assert torch.cat([torch.ones(2), torch.zeros(1)], out=out) is out and out.tolist() == [1, 1, 0]
    for tensors, dim, message in [([], 0, 'expected a non-empty list of Tensors'),
                                  ([torch.tensor(1.)], 0, 'zero-dimensional tensor \\(at position 0\\)'),
                                  ([grid(), torch.ones(2, 2)], 0, 'Sizes of tensors must match except in dimension 0. '
                                                                  'Expected size 3 but got size 2 for tensor number 1'),
                                  ([grid(), torch.ones(2, 3, 1)], 0, 'Tensors must have same number of dimensions')]:
        with pytest.raises(RuntimeError, match=message):
            torch.cat(tensors, dim)
    with pytest.raises(IndexError, match='Dimension out of range'):
        torch.cat([grid()], 2)
    with pytest.raises(TypeError):
        torch.cat(grid())
    x = torch.arange(4.)
    with pytest.raises(RuntimeError, match='unsupported operation'):
        torch.cat([x[:2], x[:2]], out=x)


def test_stack_family():
    a, b = torch.tensor([1, 2]), torch.tensor([3, 4])
    assert torch.stack([a, b]).tolist() == [[1, 2], [3, 4]]
    assert torch.stack([a, b], 1).tolist() == [[1, 3], [2, 4]]
    assert torch.stack([a, b], -1).tolist() == [[1, 3], [2, 4]]
    assert torch.stack([torch.tensor(1), torch.tensor(2)]).tolist() == [1, 2]
    assert torch.hstack([a, torch.tensor([5])]).tolist() == [1, 2, 5]
    assert torch.hstack([a.view(2, 1), b.view(2, 1)]).tolist() == [[1, 3], [2, 4]]
    assert torch.vstack([a, b]).tolist() == [[1, 2], [3, 4]] and torch.row_stack([a, b]).shape == (2, 2)
    assert torch.vstack([torch.tensor(1), torch.tensor(2)]).tolist() == [[1], [2]]
    assert torch.dstack([a, b]).tolist() == [[[1, 3], [2, 4]]]
    assert torch.column_stack([a, b.view(2, 1)]).tolist() == [[1, 3], [2, 4]]
    assert torch.column_stack([torch.tensor(1), torch.tensor(2)]).tolist() == [[1, 2]]
    out = torch.empty(0, dtype=torch.long)
    assert torch.stack([a, b], out=out) is out and out.shape == (2, 2)
    with pytest.raises(RuntimeError, match='stack expects each tensor to be equal size, but got \\[2\\] at entry 0 and '
                                           '\\[3\\] at entry 1'):
        torch.stack([a, torch.ones(3)])
    for f in (torch.stack, torch.hstack, torch.vstack, torch.dstack, torch.column_stack):
        with pytest.raises(RuntimeError, match='expects a non-empty TensorList'):
            f([])


# ---- splitting ----------------------------------------------------------------------------------------

def test_split_chunk_unbind_are_views():
    x = torch.arange(12).view(3, 4)
    parts = x.split(3, 1)
    assert [p.shape for p in parts] == [(3, 3), (3, 1)] and all(shares(p, x) for p in parts)
    assert parts[1].storage_offset() == 3 and parts[1].stride() == (4, 1)
    assert [p.shape for p in torch.split(x, [1, 2])] == [(1, 4), (2, 4)]
    assert [p.tolist() for p in x.split_with_sizes([2, 1])] == [x[:2].tolist(), x[2:].tolist()]
    assert [p.shape for p in x.tensor_split(3, 1)] == [(3, 2), (3, 1), (3, 1)]
    assert [p.shape for p in x.tensor_split([1, 5], 1)] == [(3, 1), (3, 3), (3, 0)]
    assert [p.shape for p in x.tensor_split(torch.tensor([1, 2]), 1)] == [(3, 1), (3, 1), (3, 2)]
    assert [p.shape for p in x.tensor_split(torch.tensor(2), 1)] == [(3, 2), (3, 2)]
    assert [p.shape for p in torch.arange(5).chunk(3)] == [(2,), (2,), (1,)]
    assert [p.shape for p in torch.arange(6).chunk(4)] == [(2,), (2,), (2,)]  # ceil(6/4) = 2: only 3 chunks
    assert [p.shape for p in torch.empty(0).chunk(3)] == [(0,), (0,), (0,)]
    rows = x.unbind()
    assert len(rows) == 3 and rows[2].tolist() == [8, 9, 10, 11] and shares(rows[2], x)
    assert [c.tolist() for c in x.unbind(1)][3] == [3, 7, 11]
    assert torch.empty(0, 3).unbind() == ()


@pytest.mark.parametrize('expr, error, message', [
    ('x.split(0)', RuntimeError, 'split_size can only be 0 if dimension size is 0'),
    ('x.split(-1)', RuntimeError, 'split expects split_size be non-negative'),
    ('x.split([1, 1], 1)', RuntimeError, 'split_with_sizes expects split_sizes to sum exactly to 4'),
    ('x.tensor_split(0)', RuntimeError, 'number of sections must be larger than 0, got 0'),
    ('x.tensor_split(torch.tensor([1.]))', RuntimeError, 'to have dtype of long'),
    ('x.chunk(0)', RuntimeError, 'chunk expects `chunks` to be greater than 0'),
    ('x.unbind(2)', IndexError, 'Dimension out of range'),
    ('torch.tensor(1.).split(1)', RuntimeError, 'split expects at least a 1-dimensional tensor'),
    ('torch.tensor(1.).unbind()', IndexError, 'Dimension specified as 0 but tensor has no dimensions'),
])
def test_splitting_errors(expr, error, message):
    x = torch.arange(12).view(3, 4)
    with pytest.raises(error, match=message):
        eval(expr)


# ---- repeating ----------------------------------------------------------------------------------------

def test_repeat_tile_repeat_interleave():
    x = torch.tensor([[1, 2], [3, 4]])
    assert x.repeat(1, 2).tolist() == [[1, 2, 1, 2], [3, 4, 3, 4]]
    assert x.repeat(2, 1, 1).shape == (2, 2, 2)
    assert x.t().repeat(2, 1).tolist() == [[1, 3], [2, 4], [1, 3], [2, 4]]
    assert torch.tensor(3.).repeat(2).tolist() == [3., 3.] and torch.arange(3).repeat(0).shape == (0,)
    assert x.tile((2,)).tolist() == [[1, 2, 1, 2], [3, 4, 3, 4]]  # dims padded with leading ones
    assert torch.repeat_interleave(torch.tensor([2, 0, 1])).tolist() == [0, 0, 2]
    assert x.repeat_interleave(2).tolist() == [1, 1, 2, 2, 3, 3, 4, 4]
    assert x.repeat_interleave(torch.tensor([1, 2]), dim=0).tolist() == [[1, 2], [3, 4], [3, 4]]
    assert x.repeat_interleave(3, dim=1, output_size=6).tolist() == [[1, 1, 1, 2, 2, 2], [3, 3, 3, 4, 4, 4]]
    with pytest.raises(RuntimeError, match='Number of dimensions of repeat dims can not be smaller'):
        x.repeat(2)
    with pytest.raises(RuntimeError, match='repeats can not be negative'):
        torch.repeat_interleave(torch.tensor([1, -1]))
    with pytest.raises(RuntimeError, match='repeats must have the same size as input along dim'):
        x.repeat_interleave(torch.tensor([1, 2, 3]), dim=0)


# ---- flips and rotations ----------------------------------------------------------------------------------

@pytest.mark.parametrize('dtype', DTYPES, ids=str)
def test_flip_roll_rot90_every_dtype(dtype):
    x = grid(dtype=dtype)
    rows = x.tolist()
    assert x.flip(0).tolist() == rows[::-1]
    assert x.flip([0, 1]).tolist() == [r[::-1] for r in rows[::-1]]
    assert x.t().flip(1).tolist() == [r[::-1] for r in x.t().tolist()]
    assert x.fliplr().tolist() == [r[::-1] for r in rows] and x.flipud().tolist() == rows[::-1]
    flat = sum(rows, [])
    assert x.roll(1).view(-1).tolist() == flat[-1:] + flat[:-1]
    assert x.roll(-1, 1).tolist() == [r[1:] + r[:1] for r in rows]
    assert x.rot90().tolist() == [[r[c] for r in rows] for c in reversed(range(3))]
    assert x.rot90(2).tolist() == x.flip([0, 1]).tolist() and x.rot90(4).tolist() == rows


def test_flips_of_odd_shapes():
    assert torch.tensor(1.).flip(0).item() == 1 and torch.empty(0, 4).flip(0).shape == (0, 4)
    assert torch.arange(24).view(2, 3, 4)[:, ::2, 1:].flip(2).tolist() == [[[3, 2, 1], [11, 10, 9]], [[15, 14, 13],
                                                                                                      [23, 22, 21]]]
    with pytest.raises(RuntimeError, match='dim 0 appears multiple times in the list of dims'):
        grid().flip([0, 0])
    with pytest.raises(RuntimeError, match='Input must be >= 2-d'):
        torch.arange(3).fliplr()
    with pytest.raises(RuntimeError, match='shifts and dimensions must align'):
        grid().roll((1,), (0, 1))
    with pytest.raises(RuntimeError, match='expected rotation dims to be different'):
        grid().rot90(1, [0, 0])


# ---- triangles and diagonals ------------------------------------------------------------------------------

def test_tril_triu():
    x = torch.arange(1, 13.).view(3, 4)
    assert x.tril().tolist() == [[1, 0, 0, 0], [5, 6, 0, 0], [9, 10, 11, 0]]
    assert x.triu(1).tolist() == [[0, 2, 3, 4], [0, 0, 7, 8], [0, 0, 0, 12]]
    assert x.tril(-1).tolist() == [[0, 0, 0, 0], [5, 0, 0, 0], [9, 10, 0, 0]]
    assert x.t().triu().tolist() == [[1, 5, 9], [0, 6, 10], [0, 0, 11], [0, 0, 0]]
    y = x.clone()
    assert y.tril_(1) is y and y.tolist() == [[1, 2, 0, 0], [5, 6, 7, 0], [9, 10, 11, 12]]
    assert torch.ones(2, 2, 2, dtype=torch.bool).triu(1).tolist() == [[[False, True], [False, False]]] * 2
    with pytest.raises(IndexError, match='Dimension out of range'):
        torch.arange(3).tril()


def test_tril_triu_indices():
    assert torch.tril_indices(3, 3).tolist() == [[0, 1, 1, 2, 2, 2], [0, 0, 1, 0, 1, 2]]
    assert torch.triu_indices(3, 4, 1).tolist() == [[0, 0, 0, 1, 1, 2], [1, 2, 3, 2, 3, 3]]
    assert torch.tril_indices(3, 3, -1).tolist() == [[1, 2, 2], [0, 0, 1]]
    assert torch.tril_indices(0, 3).shape == (2, 0) and torch.triu_indices(3, 3, 10).shape == (2, 0)
    for rows, cols, offset in [(4, 6, 2), (6, 4, -2), (5, 5, 0), (1, 5, 3), (5, 1, -3)]:
        lower = [(r, c) for r in range(rows) for c in range(cols) if c - r <= offset]
        upper = [(r, c) for r in range(rows) for c in range(cols) if c - r >= offset]
        assert [tuple(p) for p in torch.tril_indices(rows, cols, offset).t().tolist()] == lower
        assert [tuple(p) for p in torch.triu_indices(rows, cols, offset).t().tolist()] == upper
    assert torch.tril_indices(3, 3, dtype=torch.int32).dtype == torch.int32
    with pytest.raises(RuntimeError, match='"tril_indices" not implemented for \'Float\''):
        torch.tril_indices(3, 3, dtype=torch.float32)
    with pytest.raises(RuntimeError, match='row must be non-negative'):
        torch.tril_indices(-1, 3)


def test_diagonals():
    x = torch.arange(12.).view(3, 4)
    d = x.diagonal(1)
    assert d.tolist() == [1, 6, 11] and shares(d, x) and d.stride() == (5,)
    assert x.diagonal(-1).tolist() == [4, 9] and x.diagonal(5).shape == (0,)
    assert torch.ones(2, 3, 4).diagonal(0, 1, 2).shape == (2, 3)
    assert x.diag().tolist() == [0, 5, 10] and not shares(x.diag(), x)
    assert torch.tensor([1, 2]).diag(1).tolist() == [[0, 1, 0], [0, 0, 2], [0, 0, 0]]
    assert torch.tensor([1, 2]).diag_embed().tolist() == [[1, 0], [0, 2]]
    assert torch.tensor([[1, 2], [3, 4]]).diag_embed(0, 0, 2).shape == (2, 2, 2)
    assert torch.tensor([[1, 2], [3, 4]]).diagflat().tolist() == [[1, 0, 0, 0], [0, 2, 0, 0], [0, 0, 3, 0], [0, 0, 0,
                                                                                                             4]]
    assert x.trace().item() == 15 and grid().trace().dtype == torch.int64
    assert grid(dtype=torch.int32).trace().dtype == torch.int64
    with pytest.raises(RuntimeError, match='diagonal dimensions cannot be identical'):
        x.diagonal(0, 1, 1)
    with pytest.raises(RuntimeError, match='trace: expected a matrix'):
        torch.arange(3).trace()
    with pytest.raises(RuntimeError, match='matrix or a vector expected'):
        torch.ones(2, 2, 2).diag()


# ---- views of other shapes --------------------------------------------------------------------------------

def test_narrow_unfold_unflatten_movedim_swapaxes():
    x = torch.arange(12).view(3, 4)
    n = x.narrow(1, 1, 2)
    assert n.tolist() == [[1, 2], [5, 6], [9, 10]] and shares(n, x)
    assert x.narrow(1, -1, 1).tolist() == [[3], [7], [11]] and x.narrow(0, torch.tensor(2), 1).tolist() == [[8, 9, 10,
                                                                                                             11]]
    assert x.narrow(1, 4, 0).shape == (3, 0)
    assert not shares(x.narrow_copy(1, 1, 2), x)
    u = torch.arange(7).unfold(0, 3, 2)
    assert u.tolist() == [[0, 1, 2], [2, 3, 4], [4, 5, 6]] and u.stride() == (2, 1)
    assert x.unflatten(1, (2, 2)).shape == (3, 2, 2) and x.unflatten(1, (-1, 1)).shape == (3, 4, 1)
    m = torch.ones(2, 3, 4).movedim((0, 1), (2, 0))
    assert m.shape == (3, 4, 2) and torch.ones(2, 3, 4).moveaxis(-1, 0).shape == (4, 2, 3)
    assert x.swapaxes(0, 1).tolist() == x.t().tolist() and x.swapdims(0, 1).stride() == (1, 4)
    y = x.clone()
    assert y.swapaxes_(0, 1) is y and y.shape == (4, 3) and y.stride() == (1, 4)
    with pytest.raises(RuntimeError, match='start \\(2\\) \\+ length \\(3\\) exceeds dimension size \\(4\\)'):
        x.narrow(1, 2, 3)
    with pytest.raises(RuntimeError, match="unflatten: Provided sizes \\[3, 2\\] don't multiply up"):
        x.unflatten(1, (3, 2))
    with pytest.raises(RuntimeError, match='movedim: repeated dim in `source`'):
        torch.ones(2, 3).movedim((0, 0), (0, 1))


def test_broadcasting_helpers_and_meshgrid():
    x = torch.arange(3)
    b = x.broadcast_to((2, 3))
    assert b.tolist() == [[0, 1, 2]] * 2 and b.stride() == (0, 1) and shares(b, x)
    p, q = torch.broadcast_tensors(torch.ones(2, 1), x)
    assert p.shape == q.shape == (2, 3) and q.stride() == (0, 1)
    assert torch.broadcast_shapes((2, 1), (3,)) == (2, 3) and torch.broadcast_shapes() == ()
    with pytest.raises(RuntimeError, match='Shape mismatch: objects cannot be broadcast to a single shape'):
        torch.broadcast_shapes((2,), (3,))
    with pytest.warns(UserWarning, match='it will be required to pass the indexing argument'):
        i, j = torch.meshgrid(torch.arange(2), torch.arange(3))
    assert i.tolist() == [[0, 0, 0], [1, 1, 1]] and j.tolist() == [[0, 1, 2], [0, 1, 2]]
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        xs, ys = torch.meshgrid(torch.arange(2), torch.arange(3), indexing='xy')
        assert xs.shape == (3, 2) and xs.tolist() == [[0, 1]] * 3 and ys.tolist() == [[0, 0], [1, 1], [2, 2]]
        assert [g.shape for g in torch.meshgrid([torch.arange(2), torch.tensor(5)], indexing='ij')] == [(2, 1), (2, 1)]
    with pytest.raises(RuntimeError, match='indexing must be one of "xy" or "ij"'):
        torch.meshgrid(x, indexing='yx')


def test_meta_device_and_empty():
    m = torch.empty(3, 4, device='meta')
    assert torch.cat([m, m]).shape == (6, 4) and torch.stack([m, m]).shape == (2, 3, 4)
    assert m.flip(0).shape == (3, 4) and m.tril().shape == (3, 4) and m.roll(1, 0).shape == (3, 4)
    assert m.repeat(2, 1).shape == (6, 4) and m.diag().shape == (3,) and m.rot90().shape == (4, 3)
    assert torch.tril_indices(3, 3, device='meta').shape == (2, 6)
    e = torch.empty(0, 4)
    assert e.repeat(2, 3).shape == (0, 12) and e.roll(1, 1).shape == (0, 4) and e.tril().shape == (0, 4)
    assert e.chunk(3, 1)[0].shape == (0, 2) and e.unbind(1)[0].shape == (0,)
