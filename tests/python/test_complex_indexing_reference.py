"""DIFFERENTIAL TEST OF COMPLEX DATA MOVEMENT AND TRUTH OPS AGAINST THE REFERENCE PYTORCH (1.13.1).

complex64 and complex128 tensors through the gathers (gather, advanced indexing, index_select, take,
take_along_dim, boolean masks, masked_select), the writes at indices (scatter_ and its reductions,
scatter_add_, index_put_, setitem, index_add_ with real and complex alpha, index_copy_, index_fill_,
put_), masked_fill, masked_scatter and where (broadcasting, Python numbers, mixed dtypes),
nonzero/argwhere, count_nonzero, any/all (which read the real part alone in PyTorch 1.13), cat and the
stacks, flip/roll/rot90, repeat_interleave, tril/triu, isnan/isinf/isfinite on NaN and infinite
parts, and cross products; on transposed and strided inputs, empty and 0-dim ones, with out= where
PyTorch has it, on the meta device, and the errors of bad indices and of what PyTorch refuses for
complex values (scatter_reduce's amax/amin, isposinf, a complex index_fill_ value for a real tensor).
Values, dtypes and shapes are compared (differential.py). Gradients of complex inputs through x[idx],
index_select, gather, a boolean mask, cat and where are compared with the reference's, and those of
x[idx] and gather also with a closed form (the last test).

Left out: complex32, which PyTorch 1.13 supports for only some of these ops; index_reduce, which
this project does not have. The reference's results are recorded in
tests/data/reference/complex_indexing.json by tools/record_reference. Nothing at module level may
import this project's torch.
"""

import pytest

from differential import Suite

CX = ['complex64', 'complex128']

# a 3 x 4 matrix with zeros in either part, and its transpose (non-contiguous)
A = ('torch.tensor([[1+2j, -3.5+0.25j, 0.5-4j, 0j], [3-4j, 1j, -0.25+2j, 2.5+0.5j], '
     '[-1+0j, 7-7j, 0.5j, -2-1j]], dtype=torch.{d})')
AT = A + '.t()'
AS = A + '[:, ::2]'  # strided columns
B = 'torch.tensor([[2-1j, 0.5+0.5j, -1j, 4+0j]], dtype=torch.{d})'  # 1 x 4, broadcasts over A's rows
V = 'torch.tensor([1-1j, 2+3j, -0.5j, 4+0j, -2.5+1.5j], dtype=torch.{d})'
Z = 'torch.tensor(1.5-2j, dtype=torch.{d})'  # 0-dim
E = 'torch.zeros(0, 4, dtype=torch.{d})'
SPECIAL = ("torch.tensor([complex(math.inf, math.nan), complex(math.nan, math.inf), complex(math.nan, math.nan), "
           "complex(math.inf, 0), complex(0, -math.inf), complex(math.nan, 0), complex(0, math.nan), 1+1j, "
           "complex(-math.inf, math.inf), 0j], dtype=torch.{d})")
MASK = 'torch.tensor([[True, False, True, False], [False, False, True, True], [True, True, False, False]])'
ROWMASK = 'torch.tensor([True, False, True, True])'  # broadcasts over A's rows
IDX = 'torch.tensor([2, 0, -1, 0])'
GIDX = 'torch.tensor([[0, 3], [2, 2], [1, 0]])'
SIDX = 'torch.tensor([[0, 1, 2, 0], [2, 2, 0, 1]])'  # scatter along dim 0 with repeats


def setitem(target, key, value):
    """An expression for `target[key] = value` that evaluates to the written tensor."""
    return '(lambda t: (t.__setitem__(%s, %s), t)[1])(%s)' % (key, value, target)


def _gathers(d):
    a, at, as_, v, z, e = (x.format(d=d) for x in (A, AT, AS, V, Z, E))
    return [
        'torch.gather(%s, 1, %s)' % (a, GIDX), 'torch.gather(%s, 0, %s)' % (at, GIDX),
        'torch.gather(%s, 1, %s[:, :1])' % (as_, GIDX), 'torch.gather(%s, 0, torch.tensor([], dtype=torch.long))' % v,
        'torch.gather(%s, 0, torch.tensor(0))' % z,
        'torch.gather(%s, 1, %s, out=torch.empty(3, 2, dtype=torch.%s))' % (a, GIDX, d),
        'torch.gather(%s, 1, torch.tensor([[4]]))' % a,
        '%s[%s]' % (a, IDX), '%s[%s]' % (at, IDX), '%s[:, %s]' % (a, IDX), '%s[%s, %s]' % (a, IDX, IDX),
        '%s[torch.tensor([[0, 1], [2, 0]]), 1:]' % a, '%s[torch.tensor([], dtype=torch.long)]' % a,
        '%s[%s]' % (v, IDX), '%s[torch.tensor([3])]' % a, '%s[torch.tensor([1, 5])]' % v,
        '%s[%s[:3]]' % (e.replace('0, 4', '0'), IDX),
        'torch.index_select(%s, 0, torch.tensor([2, 0, -1]))' % a,
        'torch.index_select(%s, 1, torch.tensor([3, 0, 3]))' % a,
        'torch.index_select(%s, 1, torch.tensor([2, 0]))' % at, 'torch.index_select(%s, 0, torch.tensor([0]))' % z,
        'torch.index_select(%s, 0, torch.tensor([0, 2]), out=torch.empty(0, dtype=torch.%s))' % (a, d),
        'torch.index_select(%s, 0, torch.tensor([3]))' % a, '%s.index_select(0, torch.tensor([1, 1]))' % e,
        'torch.take(%s, torch.tensor([[0, 5], [-1, 11]]))' % at, 'torch.take(%s, torch.tensor([0, -1]))' % z,
        'torch.take(%s, torch.tensor([1, 3]), out=torch.empty(2, dtype=torch.%s))' % (as_, d),
        'torch.take(%s, torch.tensor([12]))' % a,
        'torch.take_along_dim(%s, %s, 1)' % (a, GIDX),
        'torch.take_along_dim(%s, torch.tensor([[1], [0], [2], [0]]), 1)' % at,
        'torch.take_along_dim(%s, torch.tensor([7, 0, 2]))' % a,
        'torch.take_along_dim(%s, %s, 1, out=torch.empty(3, 2, dtype=torch.%s))' % (a, GIDX, d),
    ]


def _masks(d):
    a, at, as_, b, v, z, e = (x.format(d=d) for x in (A, AT, AS, B, V, Z, E))
    return [
        '%s[%s]' % (a, MASK), '%s[%s.t()]' % (at, MASK), '%s[%s.real > 0]' % (a, a),
        '%s[torch.tensor([True, False, True])]' % a,
        '%s[%s]' % (z, 'torch.tensor(True)'), '%s[torch.zeros(0, 4, dtype=torch.bool)]' % e,
        'torch.masked_select(%s, %s)' % (a, ROWMASK), 'torch.masked_select(%s, %s)' % (at, MASK + '.t()'),
        'torch.masked_select(%s, torch.tensor([True, False]))' % as_,
        'torch.masked_select(%s, %s, out=torch.empty(0, dtype=torch.%s))' % (a, MASK, d),
        'torch.masked_select(%s, torch.tensor(True))' % z,
        '%s.masked_fill(%s, 2-1j)' % (a, MASK), '%s.masked_fill(%s, 3)' % (a, ROWMASK),
        '%s.masked_fill(%s.t(), torch.tensor(0.5j, dtype=torch.%s))' % (at, MASK, d),
        '%s.masked_fill(%s, torch.tensor(2.5))' % (a, ROWMASK),
        '%s.clone().masked_fill_(torch.tensor([True, False]), -1j)' % as_,
        '%s.masked_fill(torch.tensor(True), 1j)' % z, '%s.masked_fill(torch.zeros(0, 4, dtype=torch.bool), 1j)' % e,
        '%s.masked_fill(%s, 1e300)' % (a, MASK),
        '%s.masked_scatter(%s, %s)' % (a, MASK, v), '%s.masked_scatter(%s, %s)' % (at, MASK + '.t()', a),
        '%s.clone().masked_scatter_(%s, %s)' % (a, ROWMASK, a + '.flip(0)'),
        '%s.masked_scatter(%s, %s[:2])' % (a, MASK, v),
        'torch.where(%s, %s, %s)' % (MASK, a, b),
        'torch.where(%s, %s, %s)' % (ROWMASK, at.replace('.t()', ''), a + '.flip(1)'),
        'torch.where(%s.t(), %s, 0.5)' % (MASK, at), 'torch.where(%s, 2j, %s)' % (MASK, a),
        'torch.where(%s, 2j, 1.5)' % MASK, 'torch.where(%s, %s, torch.ones(3, 4, dtype=torch.float64))' % (MASK, a),
        'torch.where(%s, torch.ones(4, dtype=torch.float32), %s)' % (ROWMASK, b),
        'torch.where(torch.tensor(True), %s, %s)' % (z, z + '* 2'),
        'torch.where(%s, %s, %s, out=torch.empty(3, 4, dtype=torch.%s))' % (MASK, a, b, d),
        'torch.where(%s, %s, %s)' % (a, a, b),
        'torch.where(%s)' % a, 'torch.where(%s)' % at,
    ]


def _writes(d):
    a, at, v, z, sp = (x.format(d=d) for x in (A, AT, V, Z, SPECIAL))
    src = '(%s.flip(0) * (1+1j))' % a
    return [
        '%s.clone().scatter_(0, torch.tensor([[0, 1, 2, 0]]), %s)' % (a, src),
        '%s.clone().scatter_(1, %s, %s)' % (a, GIDX, src), '%s.clone().scatter_(0, %s, 2-3j)' % (at, GIDX),
        '%s.clone().scatter_(0, %s, %s, reduce="add")' % (a, SIDX, src),
        '%s.clone().scatter_(0, %s, %s, reduce="multiply")' % (a, SIDX, src),
        '%s.clone().scatter_(0, %s, 1j, reduce="multiply")' % (a, SIDX),
        '%s.scatter(0, torch.tensor([[2, 0, 1, 1]]), %s)' % (a, src),
        '%s.clone().scatter_(0, torch.tensor([[3]]), %s)' % (a, src),
        '%s.clone().scatter_add_(0, %s, %s)' % (a, SIDX, src), '%s.scatter_add(0, %s, %s)' % (at, GIDX, at),
        '%s.clone().scatter_add_(0, torch.tensor([[-1]]), %s)' % (a, src),
        '%s.clone().scatter_reduce_(0, %s, %s, "sum")' % (a, SIDX, src),
        '%s.clone().scatter_reduce_(0, %s, %s, "sum", include_self=False)' % (a, SIDX, src),
        '%s.clone().scatter_reduce_(0, %s, %s, "prod")' % (a, SIDX, src),
        '%s.clone().scatter_reduce_(0, %s, %s, "prod", include_self=False)' % (a, SIDX, src),
        '%s.clone().scatter_reduce_(0, %s, %s, "mean")' % (a, SIDX, src),
        '%s.clone().scatter_reduce_(0, %s, %s, "mean", include_self=False)' % (a, SIDX, src),
        '%s.clone().scatter_reduce_(0, %s, %s, "amax")' % (a, SIDX, src),
        '%s.clone().scatter_reduce_(0, %s, %s, "amin", include_self=False)' % (a, SIDX, src),
        '%s.clone().index_put_((%s,), %s[:, :1] * 2j)' % (a, IDX, src),
        '%s.clone().index_put_((%s,), %s, accumulate=True)' % (a, 'torch.tensor([0, 2, 0])', src),
        '%s.clone().index_put_((%s, %s), torch.tensor(1-1j, dtype=torch.%s), accumulate=True)' % (a, IDX, IDX, d),
        '%s.clone().index_put_((%s,), %s[0])' % (at, 'torch.tensor([1, 3])', a),
        '%s.clone().index_put_((torch.tensor([4]),), %s[0, 0])' % (a, a),
        setitem(a + '.clone()', IDX, '5j'), setitem(at + '.clone()', 'torch.tensor([1, 2])', v + '[:3]'),
        setitem(a + '.clone()', MASK, '-2+1j'), setitem(a + '.clone()', ROWMASK, '1.5'),
        setitem(a + '.clone()', '(slice(None), %s)' % ROWMASK, '1.5'),
        setitem(a + '.clone()', '(torch.tensor([0, 2]), torch.tensor([3, 1]))',
                'torch.tensor([1j, 2j], dtype=torch.%s)' % d),
        setitem(a + '.clone()', MASK, 'torch.arange(6).to(torch.%s) * 1j' % d),
        setitem(v + '.clone()', 'torch.tensor([9])', '1j'),
        '%s.clone().index_add_(0, torch.tensor([2, 0, 2]), %s)' % (a, src),
        '%s.clone().index_add_(0, torch.tensor([1, 1]), %s[:2], alpha=2-0.5j)' % (a, src),
        '%s.clone().index_add_(1, torch.tensor([0, 2]), %s[:, :2], alpha=2.5)' % (at, at),
        '%s.clone().index_add_(0, torch.tensor([4, 0]), %s[:2], alpha=1j)' % (v, v),
        '%s.index_add(0, torch.tensor([0]), %s)' % (sp + '[:4].reshape(1, 4)', sp + '[4:8].reshape(1, 4)'),
        '%s.clone().index_add_(0, torch.tensor([3]), %s[:1])' % (a, a),
        '%s.clone().index_copy_(0, torch.tensor([2, 0]), %s[:2])' % (a, src),
        '%s.clone().index_copy_(1, torch.tensor([1]), %s[:, :1])' % (at, at),
        '%s.clone().index_copy_(0, torch.tensor([3]), %s[:1])' % (a, a),
        '%s.clone().index_fill_(1, torch.tensor([0, 3]), 2+2j)' % a,
        '%s.clone().index_fill_(0, torch.tensor([1]), torch.tensor(-1j, dtype=torch.%s))' % (at, d),
        '%s.index_fill(0, torch.tensor([0]), 7)' % v, '%s.clone().index_fill_(0, torch.tensor([-4]), 1j)' % a,
        'torch.zeros(3).index_fill_(0, torch.tensor([0]), 0j)',
        'torch.zeros(3).index_fill_(0, torch.tensor([0]), torch.tensor(1j, dtype=torch.%s))' % d,
        '%s.clone().put_(torch.tensor([0, 11, -2]), %s[:3])' % (a, v),
        '%s.clone().put_(torch.tensor([1, 1, 4]), %s[:3], accumulate=True)' % (at, v),
        '%s.put(torch.tensor([0]), torch.tensor([3j], dtype=torch.%s))' % (z, d),
        '%s.clone().put_(torch.tensor([12]), %s[:1])' % (a, v),
    ]


def _truth(d):
    a, at, as_, v, z, e, sp = (x.format(d=d) for x in (A, AT, AS, V, Z, E, SPECIAL))
    return [
        'torch.nonzero(%s)' % a, 'torch.nonzero(%s)' % at, 'torch.nonzero(%s)' % sp, 'torch.nonzero(%s)' % z,
        'torch.nonzero(%s, as_tuple=True)' % a, 'torch.argwhere(%s)' % as_, 'torch.nonzero(%s)' % e,
        'torch.nonzero(%s, out=torch.empty(0, dtype=torch.long))' % v,
        'torch.count_nonzero(%s)' % a, 'torch.count_nonzero(%s, 0)' % at, 'torch.count_nonzero(%s, (0, 1))' % as_,
        'torch.count_nonzero(%s)' % sp, 'torch.count_nonzero(%s)' % z, 'torch.count_nonzero(%s, 1)' % e,
        'torch.any(%s)' % a, 'torch.all(%s)' % a, 'torch.any(%s, 1)' % a, 'torch.all(%s, 0)' % at,
        'torch.any(%s, 0, keepdim=True)' % as_, 'torch.all(%s)' % sp, 'torch.any(%s)' % sp,
        'torch.any(torch.tensor([1j, 0j], dtype=torch.%s))' % d,
        'torch.all(torch.tensor([1j, 1+0j], dtype=torch.%s))' % d,
        'torch.any(torch.tensor([[1j, 0j], [0j, 1+0j]], dtype=torch.%s), 1)' % d,
        'torch.all(%s, 1)' % e, 'torch.any(%s)' % e, 'torch.all(%s)' % z, 'torch.any(%s)' % z,
        'torch.any(%s, 1, out=torch.empty(0, dtype=torch.bool))' % a, '%s.all(dim=0)' % a,
        'torch.isnan(%s)' % sp, 'torch.isinf(%s)' % sp, 'torch.isfinite(%s)' % sp,
        'torch.isnan(%s.reshape(2, 5).t())' % sp, 'torch.isinf(%s.reshape(5, 2)[::2])' % sp,
        'torch.isfinite(%s)' % at, 'torch.isnan(%s)' % z, 'torch.isinf(%s)' % e, 'torch.isfinite(%s)' % e,
        'torch.isposinf(%s)' % sp, 'torch.isneginf(%s)' % sp,
    ]


def _joining(d):
    a, at, as_, b, v, z, e = (x.format(d=d) for x in (A, AT, AS, B, V, Z, E))
    other = 'complex128' if d == 'complex64' else 'complex64'
    return [
        'torch.cat([%s, %s])' % (a, b), 'torch.cat([%s, %s], 1)' % (at, at), 'torch.cat([%s, %s, %s])' % (a, e, a),
        'torch.cat([%s, torch.ones(1, 4, dtype=torch.float64)])' % a,
        'torch.cat([%s, %s.to(torch.%s)])' % (b, b, other),
        'torch.cat([%s, torch.ones(1, 4, dtype=torch.int32)])' % b, 'torch.cat([%s, %s], -1)' % (as_, as_),
        'torch.cat([%s, %s], out=torch.empty(0, dtype=torch.%s))' % (v, v, d), 'torch.cat([%s, %s])' % (e, e),
        'torch.stack([%s, %s])' % (a, at.replace('.t()', '.flip(0)')), 'torch.stack([%s, %s], 2)' % (a, a),
        'torch.stack([%s, %s])' % (z, z), 'torch.stack([%s, %s], out=torch.empty(0, dtype=torch.%s))' % (v, v, d),
        'torch.hstack([%s, %s])' % (a, a), 'torch.hstack([%s, %s])' % (v, v), 'torch.hstack([%s, %s])' % (z, z),
        'torch.column_stack([%s, %s])' % (v, v), 'torch.column_stack([%s, %s])' % (at, at),
        'torch.column_stack([%s, %s])' % (z, z),
        'torch.vstack([%s, %s])' % (a, b), 'torch.dstack([%s, %s])' % (a, a),
        'torch.flip(%s, [0])' % a, 'torch.flip(%s, [0, 1])' % at, 'torch.flip(%s, [1])' % as_, 'torch.flip(%s, [])' % z,
        'torch.flip(%s, [0])' % e, 'torch.fliplr(%s)' % a, 'torch.flipud(%s)' % at,
        'torch.roll(%s, 1)' % a, 'torch.roll(%s, -1, 0)' % at, 'torch.roll(%s, (1, 2), (0, 1))' % a,
        'torch.roll(%s, 3)' % v, 'torch.roll(%s, 1)' % e,
        'torch.rot90(%s)' % a, 'torch.rot90(%s, 2)' % at, 'torch.rot90(%s, -1, [1, 0])' % as_,
        'torch.repeat_interleave(%s, 2)' % a, 'torch.repeat_interleave(%s, 2, 0)' % at,
        'torch.repeat_interleave(%s, torch.tensor([1, 0, 3]), 0)' % a,
        'torch.repeat_interleave(%s, torch.tensor([2, 1]), 1)' % as_, 'torch.repeat_interleave(%s, 3)' % z,
        'torch.repeat_interleave(%s, 2, 0)' % e,
        'torch.tril(%s)' % a, 'torch.triu(%s)' % a, 'torch.tril(%s, 1)' % at, 'torch.triu(%s, -1)' % at,
        'torch.tril(%s, -5)' % as_, 'torch.triu(%s.reshape(2, 3, 2))' % a, 'torch.tril(%s)' % e,
        '%s.clone().tril_(1)' % a, '%s.clone().triu_()' % at,
        'torch.tril(%s, out=torch.empty(0, dtype=torch.%s))' % (a, d), 'torch.triu(%s)' % z,
        'torch.linalg.cross(%s[:, :3], %s[:, 1:])' % (a, a), 'torch.linalg.cross(%s[:3], %s[1:], dim=0)' % (at, at),
        'torch.cross(%s[:, :3], %s[:1, 1:], dim=1)' % (a, a), 'torch.linalg.cross(%s[:3], %s[2:])' % (v, v),
        'torch.linalg.cross(%s[:, :3], %s[:, 1:], out=torch.empty(0, dtype=torch.%s))' % (a, a, d),
        'torch.linalg.cross(%s[:3], %s[:3])' % (SPECIAL.format(d=d), V.format(d=d)),
        'torch.linalg.cross(%s[:, :2], %s[:, :2])' % (a, a),
    ]


def _meta(d):
    m = 'torch.empty(3, 4, dtype=torch.%s, device="meta")' % d
    shape = '(lambda t: (t.shape, t.dtype, t.device.type))(%s)'
    return [shape % x for x in [
        'torch.gather(%s, 1, torch.zeros(3, 2, dtype=torch.long, device="meta"))' % m,
        '%s.index_select(0, torch.zeros(5, dtype=torch.long, device="meta"))' % m,
        'torch.cat([%s, %s], 1)' % (m, m), 'torch.stack([%s, %s])' % (m, m), '%s.flip(0)' % m,
        '%s.tril()' % m, 'torch.isnan(%s)' % m, 'torch.isfinite(%s)' % m, 'torch.any(%s, 1)' % m,
        'torch.where(torch.ones(4, dtype=torch.bool, device="meta"), %s, 1.5)' % m,
        '%s.masked_fill(torch.ones(4, dtype=torch.bool, device="meta"), 1j)' % m,
        '%s.scatter_add(0, torch.zeros(2, 4, dtype=torch.long, device="meta"), %s)' % (m, m),
        '%s.index_add(0, torch.zeros(2, dtype=torch.long, device="meta"), %s[:2], alpha=1j)' % (m, m),
        'torch.linalg.cross(%s[:, :3], %s[:, :3])' % (m, m),
    ]]


def _gradients(d):
    a = A.format(d=d)
    x = '%s.requires_grad_()' % a
    c = 'torch.tensor([1-2j, 0.5+1j, 3j, -1+0j], dtype=torch.%s)' % d
    c3 = 'torch.tensor([1-2j, 0.5+1j, 3j], dtype=torch.%s)' % d
    grad = 'torch.autograd.grad(((%s) * %s).real.sum(), [xx])[0]'
    return [
        '(lambda xx: %s)(%s)' % (grad % ('xx[%s]' % IDX, c), x),
        '(lambda xx: %s)(%s)' % (grad % ('xx.index_select(0, torch.tensor([2, 0, 2, 1]))', c), x),
        '(lambda xx: %s)(%s)' % (grad % ('torch.gather(xx, 1, %s).t()' % GIDX, c3), x),
        '(lambda xx: %s)(%s)' % (grad % ('xx[%s]' % MASK, 'torch.arange(6).to(torch.%s) * (1+1j)' % d), x),
        '(lambda xx: %s)(%s)' % (grad % ('torch.cat([xx, xx.flip(0)])', c), x),
        '(lambda xx: %s)(%s)' % (grad % ('torch.where(%s, xx, 0.5).tril()' % MASK, c), x),
    ]


def _cases():
    out = []
    for d in CX:
        for part in (_gathers, _masks, _writes, _truth, _joining, _meta, _gradients):
            out.extend(part(d))
    return out


SUITE = Suite('complex_indexing', _cases())
RECORDED, RUNNER, reference_request = SUITE.recorded, SUITE.runner, SUITE.reference_request
reports = SUITE.fixture()


@pytest.mark.parametrize('expr', SUITE.expressions)
def test_matches_reference(reports, expr):
    SUITE.check(reports, expr)


@pytest.mark.parametrize('dtype', CX)
def test_gradient_through_advanced_index_closed_form(dtype):
    """d/dx of sum(Re(c * x[idx])) is conj(c) summed at each index (Wirtinger convention): x[idx]'s
    backward accumulates complex gradients with index_put(accumulate=True)."""
    import torch
    dt = getattr(torch, dtype)
    x = torch.tensor([1 + 2j, -3 + 0.5j, 0.25j, 4 + 0j], dtype=dt, requires_grad=True)
    idx = torch.tensor([2, 0, 2, -1])
    c = torch.tensor([1 - 2j, 0.5 + 1j, 3j, -1 + 0j], dtype=dt)
    (g,) = torch.autograd.grad((c * x[idx]).real.sum(), [x])
    expected = torch.zeros(4, dtype=dt)
    for i, k in enumerate(idx.tolist()):
        expected[k] += c[i].conj()
    assert g.dtype == dt
    assert torch.equal(g, expected)
    (g,) = torch.autograd.grad((c[:3] * torch.gather(x, 0, idx[:3])).real.sum(), [x])
    assert torch.equal(g, torch.tensor([0.5 - 1j, 0, 1 - 1j, 0], dtype=dt))
