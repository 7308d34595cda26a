"""Autograd of the indexing and joining families beyond what test_autograd_ops.py checks: PyTorch
1.13's node names, the ops taking a Tensor[] (which that suite does not sample), and the ops PyTorch
refuses to differentiate."""
import pytest
import torch
from torch.autograd import gradcheck, gradgradcheck


def T(*shape, requires_grad=True):
    g = torch.Generator().manual_seed(sum(shape) + 7 * len(shape))
    return (torch.rand(shape, generator=g, dtype=torch.float64) + 0.5).requires_grad_(requires_grad)


def L(values):
    return torch.tensor(values, dtype=torch.int64)


x = T(3, 4)
v = T(2, 4)
i = L([0, 2])
m = torch.tensor([[True, False, True, False], [False, True, True, False], [True, True, False, True]])
idx2 = L([[0, 1, 2, 0], [1, 0, 2, 1]])
y = lambda: x.clone()

# (expression, PyTorch 1.13's grad_fn name)
NAMES = [
    (lambda: x[i], 'IndexBackward0'),
    (lambda: torch.ops.aten.index(x, [i]), 'IndexBackward0'),
    (lambda: x.index_select(0, i), 'IndexSelectBackward0'),
    (lambda: x.gather(0, idx2), 'GatherBackward0'),
    (lambda: x.take(i), 'TakeBackward0'),
    (lambda: torch.take_along_dim(x, idx2, 0), 'GatherBackward0'),
    (lambda: y().index_put_((i,), v), 'IndexPutBackward0'),
    (lambda: torch.index_put(x, (i,), v), 'IndexPutBackward0'),
    (lambda: y().index_add_(0, i, v), 'IndexAddBackward0'),
    (lambda: torch.index_add(x, 0, i, v), 'IndexAddBackward0'),
    (lambda: y().index_copy_(0, i, v), 'IndexCopyBackward0'),
    (lambda: torch.index_copy(x, 0, i, v), 'IndexCopyBackward0'),
    (lambda: y().index_fill_(0, i, 1.0), 'IndexFillBackward0'),
    (lambda: y().index_fill_(0, i, T()), 'IndexFillBackward1'),
    (lambda: torch.index_fill(x, 0, i, 1.0), 'IndexFillBackward0'),
    (lambda: torch.index_fill(x, 0, i, T()), 'IndexFillBackward1'),
    (lambda: y().put_(i, v[0, :2]), 'PutBackward0'),
    (lambda: torch.put(x, i, v[0, :2]), 'PutBackward0'),
    (lambda: y().scatter_(0, idx2, 1.0), 'ScatterBackward1'),
    (lambda: y().scatter_(0, idx2, v), 'ScatterBackward0'),
    (lambda: torch.scatter(x, 0, idx2, 1.0), 'ScatterBackward1'),
    (lambda: torch.scatter(x, 0, idx2, v), 'ScatterBackward0'),
    (lambda: y().scatter_(0, idx2, 1.0, reduce='add'), 'torch::autograd::NotImplemented'),
    (lambda: torch.scatter(x, 0, idx2, v, reduce='add'), 'torch::autograd::NotImplemented'),
    (lambda: y().scatter_add_(0, idx2, v), 'ScatterAddBackward0'),
    (lambda: torch.scatter_add(x, 0, idx2, v), 'ScatterAddBackward0'),
    (lambda: y().scatter_reduce_(0, idx2, v, 'sum'), 'ScatterReduceBackward0'),
    (lambda: torch.scatter_reduce(x, 0, idx2, v, 'amax'), 'ScatterReduceBackward0'),
    (lambda: x.masked_fill(m, 1.0), 'MaskedFillBackward0'),
    (lambda: x.masked_fill(m, T()), 'MaskedFillBackward1'),
    (lambda: y().masked_fill_(m, 1.0), 'MaskedFillBackward0'),
    (lambda: y().masked_fill_(m, T()), 'MaskedFillBackward1'),
    (lambda: y().masked_scatter_(m, T(12)), 'MaskedScatterBackward0'),
    (lambda: x.masked_scatter(m, T(12)), 'MaskedScatterBackward0'),
    (lambda: x.masked_select(m), 'MaskedSelectBackward0'),
    (lambda: torch.where(m, x, T(4)), 'WhereBackward0'),
    (lambda: torch.where(m, 1.0, x), 'WhereBackward0'),
    (lambda: torch.where(m, x, 1.0), 'WhereBackward0'),
    (lambda: torch.cat([x, v]), 'CatBackward0'),
    (lambda: torch.concat([x, v]), 'CatBackward0'),
    (lambda: torch.hstack([x, x]), 'CatBackward0'),
    (lambda: x.flip(0), 'FlipBackward0'),
    (lambda: x.fliplr(), 'FlipBackward0'),
    (lambda: x.tril(), 'TrilBackward0'),
    (lambda: y().tril_(), 'TrilBackward0'),
    (lambda: x.triu(1), 'TriuBackward0'),
    (lambda: y().triu_(), 'TriuBackward0'),
    (lambda: x.diagonal(), 'DiagonalBackward0'),
    (lambda: x.unfold(0, 2, 1), 'UnfoldBackward0'),
    (lambda: x.swapaxes(0, 1), 'TransposeBackward0'),
    (lambda: y().swapaxes_(0, 1), 'TransposeBackward1'),
    (lambda: y().swapdims_(0, 1), 'TransposeBackward1'),
    (lambda: x.broadcast_to((2, 3, 4)), 'ExpandBackward0'),
    (lambda: x.narrow(0, 1, 2), 'SliceBackward0'),
    (lambda: x.split([1, 2])[0], 'SliceBackward0'),
]


@pytest.mark.parametrize('k', range(len(NAMES)))
def test_node_names(k):
    f, name = NAMES[k]
    assert f().grad_fn.name() == name


def test_integer_results_record_nothing():
    assert x.nonzero().grad_fn is None and not x.nonzero().requires_grad
    r = torch.where(m, 1.0, 2.0)
    assert r.dtype == torch.float32 and not r.requires_grad


# ---- ops taking a Tensor[] ----

LIST_OPS = [
    (lambda a, b: torch.cat([a, b]), (T(2, 3), T(1, 3))),
    (lambda a, b: torch.cat([a, b], -1), (T(2, 3), T(2, 1))),
    (lambda a, b, c: torch.cat([a, b, c], 1), (T(2, 3), T(2, 0), T(2, 2))),
    (lambda a, b: torch.cat([a, b]), (T(2, 3), T(2, 3, requires_grad=False))),
    (lambda a, b: torch.concat([a, b], 1), (T(2, 3), T(2, 1))),
    (lambda a, b: torch.concatenate([a, b]), (T(2, 3), T(1, 3))),
    (lambda a, b: torch.stack([a, b], 1), (T(2, 3), T(2, 3))),
    (lambda a, b: torch.hstack([a, b]), (T(2, 3), T(2, 1))),
    (lambda a, b: torch.vstack([a, b]), (T(3), T(2, 3))),
    (lambda a, b: torch.row_stack([a, b]), (T(3), T(1, 3))),
    (lambda a, b: torch.dstack([a, b]), (T(2, 3), T(2, 3))),
    (lambda a, b: torch.column_stack([a, b]), (T(3), T(3, 2))),
    (lambda a, b: torch.broadcast_tensors(a, b), (T(3, 1), T(4))),
    (lambda a, b: torch.meshgrid(a, b, indexing='ij'), (T(3), T(2))),
    (lambda a, b: torch.meshgrid([a, b], indexing='xy'), (T(3), T(2))),
]


@pytest.mark.parametrize('k', range(len(LIST_OPS)))
def test_list_ops_gradients(k):
    f, args = LIST_OPS[k]
    assert gradcheck(f, args, check_forward_ad=True)
    assert gradgradcheck(f, args)


def test_cat_skips_legacy_empty_tensors():
    a, e = T(2, 3), torch.zeros(0, dtype=torch.float64, requires_grad=True)
    for dim in (0, 1, -1):
        r = torch.cat([a, e, a], dim)
        assert r.grad_fn.name() == 'CatBackward0'
        ga, ge = torch.autograd.grad(r.sum(), [a, e])
        assert ga.shape == (2, 3) and torch.equal(ga, torch.full((2, 3), 2.0, dtype=torch.float64))
        assert ge.shape == (0,)
    assert gradcheck(lambda a, e: torch.cat([e, a, e], 1), (T(2, 3), e), check_forward_ad=True)


def test_cat_mixed_dtypes():
    a, b = T(2, 3), T(1, 3).float().detach().requires_grad_()
    ga, gb = torch.autograd.grad(torch.cat([a, b]).sum(), [a, b])
    assert ga.dtype == torch.float64 and gb.dtype == torch.float32 and gb.shape == (1, 3)


# ---- what PyTorch refuses ----

def test_resize_refuses_tensors_that_require_grad():
    for f in (lambda t: t.resize_(2, 2), lambda t: t.resize_as_(torch.zeros(5))):
        for t in (T(3), T(3).clone()):
            with pytest.raises(RuntimeError, match='cannot resize variables that require grad'):
                f(t)
            with torch.no_grad(), pytest.raises(RuntimeError, match='cannot resize variables that require grad'):
                f(t)
    z = torch.zeros(3, dtype=torch.float64)
    assert z.resize_as_(T(5)).shape == (5,) and not z.requires_grad
    assert T(3).detach().resize_(4).shape == (4,)


def test_scatter_with_reduce_has_no_derivative():
    for r, op in ((torch.scatter(x, 0, idx2, v, reduce='add'), 'scatter'),
                  (torch.scatter(x, 0, idx2, 1.0, reduce='multiply'), 'scatter'),
                  (y().scatter_(0, idx2, v, reduce='multiply'), 'scatter_'),
                  (y().scatter_(0, idx2, 2.0, reduce='add'), 'scatter_')):
        with pytest.raises(RuntimeError, match='derivative for aten::%s is not implemented' % op):
            r.sum().backward()


def test_scatter_src_larger_than_index_is_refused_as_pytorch_does():
    s = T(3, 5)
    r = torch.scatter(x, 1, L([[3, 0], [1, 2]]), s)
    with pytest.raises(RuntimeError, match='invalid gradient at index 1 - got \\[2, 2\\] but expected shape '
                                           'compatible with \\[3, 5\\]'):
        r.sum().backward()


# ---- values ----

def test_writes_through_indexing():
    a, b = T(3, 4), T(2, 4)
    c = a.clone()
    c[L([2, 0])] = b
    ga, gb = torch.autograd.grad((c * c).sum(), [a, b])
    assert torch.equal(ga[1], 2 * a[1].detach()) and torch.equal(ga[0], torch.zeros(4, dtype=torch.float64))
    assert torch.equal(gb, 2 * b.detach())
    assert gradcheck(lambda a, b: a.clone().index_put_((L([2, 0]),), b), (a, b), check_forward_ad=True)


def test_unfold_overlapping_windows():
    a = T(6)
    g, = torch.autograd.grad(a.unfold(0, 3, 1).sum(), a)
    assert g.tolist() == [1.0, 2.0, 3.0, 3.0, 2.0, 1.0]
    g, = torch.autograd.grad(a.unfold(0, 2, 3).sum(), a)
    assert g.tolist() == [1.0, 1.0, 0.0, 1.0, 1.0, 0.0]


def test_scatter_reduce_prod_with_a_zero():
    src = T(3, 4)
    with torch.no_grad():
        src[1, 2] = 0.0
    index = L([[0, 1, 2, 0], [0, 0, 1, 1], [2, 0, 1, 0]])
    f = lambda s, t: torch.scatter_reduce(s, 0, index, t, 'prod')
    for include_self in (True, False):
        g = lambda s, t: torch.scatter_reduce(s, 0, index, t, 'prod', include_self=include_self)
        assert gradcheck(g, (T(3, 4), src), check_forward_ad=True)
    s = T(3, 4)
    gs, gt = torch.autograd.grad(f(s, src).sum(), [s, src])
    # the zero's gradient is the product of the others it was multiplied with
    assert gt[1, 2].item() == pytest.approx((s[1, 2] * src[2, 2]).item())
    assert gradgradcheck(f, (s, src))


def test_masked_scatter_broadcasts_self():
    a = torch.zeros(2, 1)
    r = a.masked_scatter(torch.tensor([True, False, True]), torch.arange(6.))
    assert r.tolist() == [[0.0, 0.0, 1.0], [2.0, 0.0, 3.0]]
