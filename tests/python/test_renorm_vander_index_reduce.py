"""renorm, linalg.vander and index_reduce (op-table composites): values against loops written here,
gradients, and PyTorch 1.13's errors."""
import warnings

import pytest
import torch


def test_renorm_scales_only_the_slices_over_maxnorm():
    x = torch.tensor([[1., 2, 3], [4, 5, 6], [-7, 8, 9]], dtype=torch.float64)
    for p, dim, maxnorm in [(2, 0, 5.), (1, 1, 6.), (float('inf'), 0, 5.), (3, -1, 4.)]:
        want = x.clone()
        for i in range(3):
            part = want.select(dim, i)
            norm = part.abs().max() if p == float('inf') else (part.abs() ** p).sum() ** (1. / p)
            if norm > maxnorm:
                part.mul_(maxnorm / (norm + 1e-7))
        assert torch.allclose(torch.renorm(x, p, dim, maxnorm), want, rtol=1e-12)
    y = x.clone()
    assert y.renorm_(2, 0, 5) is y and torch.allclose(y, torch.renorm(x, 2, 0, 5))
    out = torch.empty(3, 3, dtype=torch.float64)
    torch.renorm(x, 2, 0, 5, out=out)
    assert torch.equal(out, torch.renorm(x, 2, 0, 5))
    a = torch.randn(4, 3, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda a: torch.renorm(a, 2, 1, 0.5), (a,))


def test_renorm_errors():
    x = torch.ones(3, 3)
    for args, message in [((-1, 0, 5), 'renorm: non-positive-norm not supported'),
                          ((2, 0, -5), 'renorm: expected maxnorm to be >= 0 but got -5'),
                          ((2, 3, 1), r'Dimension out of range \(expected to be in range of \[-2, 1\], but got 3\)')]:
        with pytest.raises((RuntimeError, IndexError), match=message):
            torch.renorm(x, *args)
    with pytest.raises(RuntimeError, match='renorm: input needs at least 2 dimensions, got 0 dimensions'):
        torch.renorm(torch.tensor(3.), 2, 0, 1)


def test_vander_powers():
    x = torch.tensor([1., 2, 3, -0.5], dtype=torch.float64)
    v = torch.linalg.vander(x)
    assert v.tolist() == [[xi ** k for k in range(4)] for xi in x.tolist()]
    assert torch.linalg.vander(x, N=2).tolist() == [[1, xi] for xi in x.tolist()]
    vi = torch.linalg.vander(torch.tensor([1, 2, 3], dtype=torch.int32), N=4)
    assert vi.dtype == torch.int64 and vi.tolist() == [[1, 1, 1, 1], [1, 2, 4, 8], [1, 3, 9, 27]]
    batched = torch.linalg.vander(torch.tensor([[1., 2], [3, 4]]))
    assert batched.shape == (2, 2, 2) and batched[1].tolist() == [[1, 3], [1, 4]]
    a = torch.randn(5, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda a: torch.linalg.vander(a, N=4), (a,))
    for bad, message in [((torch.tensor([1., 2]),), {'N': 1}), ((torch.tensor(2.),), {})]:
        with pytest.raises(RuntimeError, match='N must be greater than 1.'):
            torch.linalg.vander(*bad, **message)
    with pytest.raises(RuntimeError, match='linalg.vander supports floating point, complex, and integer tensors, but '
                                           'got Bool'):
        torch.linalg.vander(torch.tensor([True, False]))


def _index_reduce_loop(self, dim, index, source, reduce, include_self):
    out = self.clone().movedim(dim, 0)
    src = source.movedim(dim, 0)
    groups = {}
    for j, i in enumerate(index.tolist()):
        groups.setdefault(i, []).append(src[j])
    for i, rows in groups.items():
        stack = torch.stack(([out[i].clone()] if include_self else []) + rows)
        out[i] = {'prod': lambda s: s.prod(0), 'mean': lambda s: s.mean(0), 'amax': lambda s: s.amax(0),
                  'amin': lambda s: s.amin(0)}[reduce](stack)
    return out.movedim(0, dim)


@pytest.mark.parametrize('reduce', ['prod', 'mean', 'amax', 'amin'])
@pytest.mark.parametrize('include_self', [True, False])
def test_index_reduce_against_a_loop(reduce, include_self):
    torch.manual_seed(0)
    self = torch.randn(4, 5, 3, dtype=torch.float64)
    source = torch.randn(4, 6, 3, dtype=torch.float64)
    index = torch.tensor([0, 4, 0, 2, 4, 4])
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        got = torch.index_reduce(self, 1, index, source, reduce, include_self=include_self)
        got32 = self.index_reduce(1, index.int(), source, reduce, include_self=include_self)
    want = _index_reduce_loop(self, 1, index, source, reduce, include_self)
    assert torch.allclose(got, want, rtol=1e-12) and torch.equal(got, got32)


def test_index_reduce_in_place_gradients_and_errors():
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')  # PyTorch's 'in beta' warning, once a process
        x = torch.ones(3)
        assert x.index_reduce_(0, torch.tensor([0, 0]), torch.tensor([5., -2]), 'amin') is x
    assert x.tolist() == [-2, 1, 1]
    a = torch.randn(4, 3, dtype=torch.float64, requires_grad=True)
    s = (torch.rand(2, 3, dtype=torch.float64) + 0.5).requires_grad_()
    assert torch.autograd.gradcheck(lambda a, s: a.index_reduce(0, torch.tensor([1, 3]), s, 'prod'), (a, s))
    y = torch.ones(3, 4)
    cases = [
        ((0, torch.tensor([0, 2]), torch.full((2, 4), 3.), 'sum'), RuntimeError,
         'index_reduce\\(\\): Expected reduce to be one of prod, mean, amax or amin but got sum.'),
        ((0, torch.tensor([[0, 2]]), torch.full((2, 4), 3.), 'prod'), IndexError,
         'index_reduce_\\(\\): Index is supposed to be a vector, but got dim: 2 with type: Long and size: \\[1, 2\\]'),
        ((0, torch.tensor([0., 2]), torch.full((2, 4), 3.), 'prod'), RuntimeError,
         'index_reduce_\\(\\): Expected dtype int32/int64 for index but got: Float'),
        ((0, torch.tensor([0, 2, 1]), torch.full((2, 4), 3.), 'prod'), RuntimeError,
         'index_reduce_\\(\\): Number of indices \\(3\\) should be equal to source.size\\(dim\\): \\(2\\), for dim: 0'),
        ((0, torch.tensor([0, 5]), torch.full((2, 4), 3.), 'prod'), IndexError, 'index out of range in self'),
        ((0, torch.tensor([-1, 0]), torch.full((2, 4), 3.), 'prod'), IndexError, 'index out of range in self'),
        ((0, torch.tensor([0, 2]), torch.full((2, 4), 3, dtype=torch.float64), 'prod'), RuntimeError,
         'index_reduce_\\(\\): self \\(Float\\) and source \\(Double\\) must have the same scalar type'),
    ]
    for args, error, message in cases:
        with pytest.raises(error, match=message):
            y.index_reduce_(*args)
    assert torch.equal(y, torch.ones(3, 4))  # nothing written by a refused call
