"""The indexing family against the reference PyTorch (1.13.1), from recorded results.

Advanced and basic indexing (reading and writing), the gather/scatter ops, the masked ops, where and
nonzero, joining/splitting/rearranging and the legacy API, each over every dtype it takes, empty,
0-dim and non-contiguous operands, edge values, and the errors each raises. The expressions are
compared with tests/data/reference/indexing.json (tools/record_reference indexing records it);
differential.py explains the comparison. Nothing at module level imports this project's torch.
"""
import pytest

from differential import Suite

DTYPES = ['bool', 'uint8', 'int8', 'int16', 'int32', 'int64', 'float16', 'bfloat16', 'float32', 'float64']
NUMERIC = DTYPES[1:]
FLOATS = ['float16', 'bfloat16', 'float32', 'float64']

# A 2 x 3 x 4 tensor of each dtype (bool: every element but the first is True), its non-contiguous
# views, and float edge values.
X = 'torch.arange(24).view(2, 3, 4).to(torch.{})'
XT = 'torch.arange(24).view(2, 3, 4).to(torch.{}).transpose(0, 2)'
XS = 'torch.arange(24).view(2, 3, 4).to(torch.{})[:, ::2, 1:]'
M = 'torch.arange(12).view(3, 4).to(torch.{})'
E = ("torch.tensor([[0., -0., 1.5, -2.5], [float('nan'), float('inf'), -float('inf'), 7.], "
     "[3., 4., 5., 6.]]).to(torch.{})")
MASK = '(torch.arange(12).view(3, 4) % 3 == 1)'
IDX = 'torch.tensor([2, 0, -1])'


def _set(target, key, value):
    """x[key] = value, as an expression whose result is x."""
    return '(lambda x: (x.__setitem__(%s, %s), x)[1])(%s)' % (key, value, target)


def _read_indexing():
    out = []
    keys = ['[0, 2]', '[[0, 1], [1, 2]]', '[[True, False]]', '(0, [0, 2])', '(slice(None), [2, 0])',
            '(Ellipsis, [3, 0, 3])', '([1, 0], slice(None), [3, 0])', '([1, 0], 2, [3, 0])', '(None, [1])',
            '([[0], [1]], [[0, 1, 2]])', '(torch.tensor([1, 0]), torch.tensor([2]))', 'torch.tensor([[0, 1], [1, 0]])',
            'torch.tensor([True, False])', 'torch.tensor([[True, False, True], [False, True, True]])',
            '(slice(None), torch.tensor([True, False, True]))', '(..., torch.tensor([True, False, True, False]))',
            '(0, torch.tensor([True, False, True]), 1)', 'torch.tensor(True)', 'torch.tensor(False)',
            '(True, 0)', '(0, False)', 'torch.tensor(1)', '(torch.tensor(1), [0])', '[]',
            'torch.tensor([], dtype=torch.long)',
            '(slice(None), [])', 'torch.zeros(2, 3, 4, dtype=torch.bool)', '[-1, -2]', 'torch.tensor([1, 0]).byte()',
            '(slice(1, None), [0, 0, 2])', '(None, [1], None, [2, 0])']
    for k in keys:
        out += ['%s[%s]' % (X.format('float32'), k), '%s[%s]' % (XT.format('int64'), k)]
    for d in DTYPES:
        out += ['%s[[1, 0]]' % X.format(d), '%s[:, [2, 0, 2]]' % XS.format(d), '%s[%s]' % (M.format(d), MASK),
                '%s[%s]' % (XT.format(d), '[[0, 3], [1, 2]]'), '%s[%s]' % (M.format(d), '(%s[:, 0], 1)' % MASK)]
    for d in FLOATS:
        out += ['%s[[2, 1, 0]]' % E.format(d), '%s[%s]' % (E.format(d), MASK)]
    # 0-dim and empty tensors
    out += ['torch.tensor(5.)[torch.tensor(True)]', 'torch.tensor(5.)[None, torch.tensor([0, 0])]',
            'torch.tensor(5.)[torch.tensor([0])]', 'torch.tensor(5.)[True]', 'torch.tensor(5.)[False]',
            'torch.tensor(5.)[None]', 'torch.tensor(5.)[...]', 'torch.empty(0)[torch.tensor([], dtype=torch.long)]',
            'torch.empty(2, 0)[:, torch.tensor([], dtype=torch.long)]', 'torch.empty(0, 3)[[]]',
            'torch.arange(10.)[torch.arange(10) > 100]', 'torch.empty(0, 3)[torch.empty(0, dtype=torch.bool)]']
    # errors
    for k in ['[5]', '[-3]', 'torch.tensor([0.])', 'torch.tensor([0, 1], dtype=torch.int32)',
              'torch.tensor([0], dtype=torch.int16)', '([0, 1], [0, 1, 2])', '(0, 0, 0, [0])',
              'torch.tensor([True, False, True])', '(torch.tensor([[True, False, True], [False, True, True]]), 1)',
              '1.5', '[1.5]', "'a'", '(slice(None), [4])', '([0], 5)', '(..., ...)', 'object()']:
        out.append('%s[%s]' % (X.format('float32'), k))
    out += ['torch.empty(0)[torch.tensor([0])]', 'torch.empty(2, 0)[:, torch.tensor([1])]',
            'torch.tensor(5.)[0]', 'torch.tensor(5.)[[0]]']
    return out


def _write_indexing():
    out = []
    base = 'torch.arange(12.).view(3, 4)'
    cases = [('[0, 2]', '1'), ('[0, 2]', 'torch.tensor([1., 2, 3, 4])'), ('[0, 2]', 'torch.tensor([[1.], [2]])'),
             ('[0, 2]', 'torch.tensor([1., 2])'), (MASK, '0'), (MASK, 'torch.tensor(7.)'),
             (MASK, 'torch.tensor([1., 2, 3, 4])'), (MASK, 'torch.tensor([1., 2])'), (MASK, 'torch.tensor(7)'),
             ('[0, 0]', 'torch.tensor([[1., 1, 1, 1], [2, 2, 2, 2]])'), ('(slice(None), [1, 3])',
                                                                         'torch.tensor([9., 8.])'),
             ('([0, 1], [1, 2])', 'torch.tensor([[[5., 6.]]])'), ('[0, 2]', "'a'"), ('[5]', '1'),
             ('[0, 1]', 'torch.tensor([1, 2, 3, 4])'), ('[0, 1]', '1e300'), ('[0]',
                                                                             'torch.tensor(7, dtype=torch.float64)'),
             ('True', 'torch.tensor([1, 2, 3, 4])'), ('(torch.tensor([0, 2]), slice(1, None))',
                                                      'torch.tensor([1., 2, 3])'),
             ('torch.tensor([[0, 1], [1, 2]])', '3'), ('([0, 1], [0])', 'torch.tensor([1., 2])'),
             ('(slice(None), torch.tensor([True, False, True, False]))', 'torch.tensor([[1.], [2], [3]])'),
             ('torch.arange(12).view(3, 4) > 100', 'torch.tensor([1., 2])'), ('(slice(1, None), [0])',
                                                                              'torch.ones(2, 1, 1)'),
             ('False', "'a'"), ('False', '5'), ('None', 'torch.tensor([1., 2, 3, 4])'), ('Ellipsis', '3'),
             ('(0, True)', '5'), ('torch.tensor(False)', '5'), (MASK, '%s[0:1, 0:1]' % base),
             ('[1, 0]', '%s[1:3]' % base), ('torch.tensor([0, 1]).byte()', '7'), ('[0]', 'torch.ones(1, 1, 1, 4)'),
             ('(Ellipsis, [0])', 'torch.tensor([[1.], [2], [3]])'), ('[-1]', '-1'), ('[3]', '1'), ('[[]]', '1')]
    for key, value in cases:
        out.append(_set(base, key, value))
    for d in DTYPES:
        v = 'True' if d == 'bool' else '3'
        out += [_set(M.format(d), '[2, 0]', v), _set(M.format(d), MASK, v),
                _set(M.format(d), '(slice(None), [1, 3])', '%s[:, :2]' % M.format(d)),
                _set(XT.format(d), '([1, 0], 1)', v), _set(M.format(d), '%s' % MASK, '%s[%s] * 0' % (M.format(d), MASK))
                if d != 'bool' else _set(M.format(d), MASK, '%s[%s] == False' % (M.format(d), MASK))]
    # accumulate: repeated indices add up, in the tensor's own precision
    for d in NUMERIC:
        out.append('%s.index_put_((torch.tensor([0, 0, 2]),), torch.tensor([1, 2, 3]).to(torch.%s), accumulate=True)'
                   % ('torch.arange(4).to(torch.%s)' % d, d))
    out += ['torch.ones(3, dtype=torch.float16).index_put_((torch.tensor([0, 0, 0]),), torch.tensor(1000., '
            'dtype=torch.float16), accumulate=True)',
            'torch.zeros(3, dtype=torch.bool).index_put_((torch.tensor([0, 0]),), torch.tensor(True), accumulate=True)',
            'torch.tensor([127], dtype=torch.int8).index_put_((torch.tensor([0, 0]),), '
            'torch.tensor(1, dtype=torch.int8), '
            'accumulate=True)',
            'torch.arange(12.).view(3, 4).index_put((torch.tensor([0, 2]), torch.tensor([1, 3])), '
            'torch.tensor([5., 6.]))',
            'torch.arange(12.).view(3, 4).index_put([torch.tensor([0, 0]), torch.tensor([1, 1])], '
            'torch.tensor(1.), True)',
            'torch.index_put(torch.arange(6).view(2, 3), (torch.tensor([0]),), torch.tensor([1, 2, 3]), '
            'accumulate=True)',
            'torch.arange(12.).view(3, 4).index_put_((torch.tensor([0]),), torch.tensor(1., dtype=torch.float64))',
            'torch.arange(12.).view(3, 4).index_put_((%s,), torch.tensor(1))' % MASK,
            'torch.arange(12.).view(3, 4).index_put_((%s,), torch.tensor(1), accumulate=True)' % MASK,
            'torch.arange(12.).view(3, 4).index_put_((torch.tensor([0, 1]),), torch.tensor([[1., 2, 3, 4]] * 2), True)',
            'torch.arange(4.).index_put_((torch.tensor([0]),), torch.arange(4.)[1:2])',
            'torch.arange(12.).view(3, 4).index_put_((torch.tensor([0]), torch.tensor([0]), torch.tensor([0])), '
            'torch.tensor(1.))']
    return out


def _gather_family():
    out = []
    for d in DTYPES:
        out += ['%s.index_select(1, torch.tensor([2, 0, 2]))' % X.format(d),
                '%s.index_select(0, torch.tensor([3, 0], dtype=torch.int32))' % XT.format(d),
                '%s.gather(2, torch.tensor([[[0, 3], [1, 1], [2, 0]], [[3, 3], [0, 0], [1, 2]]]))' % X.format(d),
                '%s.gather(0, torch.tensor([[[1, 0]], [[0, 1]]]))' % XS.format(d),
                '%s.take(torch.tensor([[0, 23], [-1, 5]]))' % X.format(d),
                '%s.take(torch.tensor([0, 7, 11, -12]))' % XT.format(d),
                'torch.take_along_dim(%s, torch.tensor([[[0], [2], [1]]]), 2)' % X.format(d),
                'torch.take_along_dim(%s, torch.tensor([5, 0]))' % M.format(d)]
    out += ['torch.tensor(5.).index_select(0, torch.tensor([0]))', 'torch.tensor(5.).index_select(0, torch.tensor(0))',
            'torch.tensor(5.).gather(0, torch.tensor([0]))', 'torch.tensor([5.]).gather(0, torch.tensor(0))',
            'torch.tensor(3.).take(torch.tensor([0, 0]))',
            'torch.empty(0, 4).index_select(0, torch.tensor([], dtype=torch.long))',
            'torch.arange(12.).view(3, 4).gather(1, torch.empty(0, 2, dtype=torch.long))',
            'torch.arange(12.).view(3, 4).gather(1, torch.empty(4, 0, dtype=torch.long))',
            'torch.arange(12.).view(3, 4).gather(0, torch.tensor([[1]]))',
            'torch.arange(12.).view(3, 4).gather(1, torch.tensor([[0, 1, 2, 3, 0]]))',
            'torch.arange(12.).view(3, 4).t().take(torch.tensor([1, 4]))',
            'torch.index_select(torch.arange(4.), 0, torch.tensor([1]), out=torch.empty(0))',
            'torch.gather(torch.arange(4.), 0, torch.tensor([3, 1]), out=torch.empty(2))',
            'torch.take(torch.arange(4.), torch.tensor([3, 1]), out=torch.empty(5))',
            'torch.take_along_dim(torch.arange(6.).view(2, 3), torch.tensor([[0], [2]]), 1, out=torch.empty(0))',
            'torch.take_along_dim(torch.arange(6.).view(2, 3), torch.tensor([[0, 2]]), 0)',
            'torch.take_along_dim(torch.arange(6.).view(2, 3), torch.tensor([[1], [0]]), dim=-1)']
    # errors
    m = 'torch.arange(12.).view(3, 4)'
    for e in ['.index_select(0, torch.tensor([0, 5]))', '.index_select(0, torch.tensor([-1]))',
              '.index_select(0, torch.tensor([[0]]))', '.index_select(0, torch.tensor([0.]))',
              '.index_select(2, torch.tensor([0]))',
              '.gather(1, torch.tensor([[0, 5]]))', '.gather(1, torch.tensor([[0, -1]]))',
              '.gather(1, torch.tensor([[0]]).int())',
              '.gather(1, torch.tensor([0, 1]))', '.gather(0, torch.tensor([[0, 1, 2, 3, 0]]))',
              '.take(torch.tensor([0, 12]))',
              '.take(torch.tensor([-13]))', '.take(torch.tensor([1]).int())']:
        out.append(m + e)
    out += ['torch.empty(0).take(torch.tensor([0]))', 'torch.empty(0).index_select(0, torch.tensor([0]))',
            'torch.empty(3, 0).index_select(1, torch.tensor([0]))',
            'torch.take_along_dim(%s, torch.tensor([0, 2]), 1)' % m,
            'torch.take_along_dim(%s, torch.tensor([[0, 2]]).int(), 1)' % m,
            '(lambda x: torch.index_select(x, 0, torch.tensor([1, 0]), out=x))(torch.arange(2.))']
    return out


def _scatter_family():
    out = []
    idx = 'torch.tensor([[0, 1, 0], [2, 2, 1]])'
    for d in NUMERIC:
        src = 'torch.tensor([[1, 2, 3], [4, 5, 6]]).to(torch.{})'.format(d)
        t = M.format(d)
        out += ['%s.scatter(1, %s, %s)' % (t, idx, src), '%s.scatter(0, %s, %s)' % (t, idx, src),
                '%s.scatter(1, %s, 7)' % (t, idx), '%s.scatter_add(1, %s, %s)' % (t, idx, src),
                '%s.scatter(1, %s, %s, reduce="add")' % (t, idx, src),
                '%s.scatter(1, %s, %s, reduce="multiply")' % (t, idx, src),
                '%s.scatter(1, %s, 2, reduce="multiply")' % (t, idx)]
        for red in ['sum', 'prod', 'mean', 'amax', 'amin']:
            for inc in ['True', 'False']:
                out.append('%s.scatter_reduce(1, %s, %s, "%s", include_self=%s)' % (t, idx, src, red, inc))
        out += ['%s.index_add(0, torch.tensor([2, 0, 2]), %s)' % (t, M.format(d)),
                '%s.index_add(1, torch.tensor([3, 0]), torch.ones(3, 2).to(torch.%s), alpha=2)' % (t, d),
                '%s.index_copy(1, torch.tensor([3, 0]), torch.zeros(3, 2).to(torch.%s))' % (t, d),
                '%s.index_fill(1, torch.tensor([3, -4]), 5)' % t,
                '%s.index_fill(0, torch.tensor([1]), torch.tensor(9))' % t,
                '%s.put(torch.tensor([0, 11, -1]), torch.tensor([7, 8, 9]).to(torch.%s))' % (t, d),
                '%s.put(torch.tensor([1, 1]), torch.tensor([7, 8]).to(torch.%s), accumulate=True)' % (XT.format(d), d)]
    for d in ['bool']:
        t = M.format(d)
        out += ['%s.scatter(1, %s, False)' % (t, idx), '%s.index_fill(1, torch.tensor([0]), False)' % t,
                '%s.index_copy(0, torch.tensor([1]), torch.zeros(1, 4, dtype=torch.bool))' % t,
                '%s.put(torch.tensor([0, 1]), torch.tensor([False, False]))' % t,
                '%s.scatter_add(1, %s, torch.ones(2, 3, dtype=torch.bool))' % (t, idx)]
    for d in FLOATS:
        t = E.format(d)
        out += ['%s.scatter_reduce(1, torch.tensor([[0, 0], [1, 1], [2, 3]]), torch.tensor([[float("nan"), 1.], '
                '[2., 3.], [4., 5.]]).to(torch.%s), "amax")' % (t, d),
                '%s.scatter_reduce(1, torch.tensor([[0, 0], [1, 1], [2, 3]]), torch.tensor([[1., 1.], [2., 3.], '
                '[4., 5.]]).to(torch.%s), "amin", include_self=False)' % (t, d),
                '%s.scatter_reduce(0, torch.tensor([[0, 0, 0, 0]]), torch.tensor([[1., 2., 3., 4.]]).to(torch.%s), '
                '"mean")' % (t, d),
                '%s.index_add(0, torch.tensor([0, 0]), torch.full((2, 4), 0.5).to(torch.%s), alpha=-3)' % (t, d)]
    out += ['torch.tensor([1, 2, 3]).scatter_reduce(0, torch.tensor([0, 0, 2]), torch.tensor([-7, 2, 3]), "mean", '
            'include_self=False)',
            'torch.tensor([-1, 2, 3]).scatter_reduce(0, torch.tensor([0, 0, 2]), torch.tensor([-7, 2, 3]), "mean")',
            'torch.arange(4).to(torch.int8).scatter_reduce(0, torch.tensor([0, 0, 1]), torch.tensor([100, 100, 3], '
            'dtype=torch.int8), "sum")',
            'torch.tensor(3.).scatter(0, torch.tensor(0), 5.)', 'torch.tensor(3.).scatter_add(0, torch.tensor([0]), '
            'torch.tensor([2.]))', 'torch.tensor(3.).put(torch.tensor([0]), torch.tensor([2.]))',
            'torch.tensor(3.).index_fill(0, torch.tensor(0), 1)', 'torch.tensor(3.).index_add(0, torch.tensor([0]), '
            'torch.tensor([2.]))', 'torch.tensor(3.).index_copy(0, torch.tensor([0]), torch.tensor(2.))',
            'torch.arange(12.).view(3, 4).scatter(1, torch.tensor([[0, 1, 2, 3, 0]]), 2.)',
            'torch.arange(12.).view(3, 4).scatter(1, torch.empty(0, 1, dtype=torch.long), 2.)',
            'torch.arange(4).to(torch.uint8).index_fill(0, torch.tensor([0]), -1)',
            'torch.arange(4).to(torch.uint8).scatter(0, torch.tensor([0]), -1)',
            'torch.arange(12).view(3, 4).index_add(0, torch.tensor([0]), torch.ones(1, 4).long(), alpha=1.5)',
            'torch.arange(12.).view(3, 4).index_add(0, torch.tensor([0]), torch.ones(1, 1))',
            'torch.arange(12.).view(3, 4).index_add(0, torch.tensor([0], dtype=torch.int32), torch.ones(1, 4))',
            'torch.scatter(torch.zeros(2, 2), 1, torch.tensor([[1], [0]]), 1., out=torch.empty(0))',
            'torch.scatter_add(torch.zeros(3), 0, torch.tensor([1, 1]), torch.ones(2), out=torch.empty(3))',
            'torch.index_add(torch.zeros(3), 0, torch.tensor([1, 1]), torch.ones(2), out=torch.empty(3))',
            'torch.index_put(torch.zeros(3), (torch.tensor([1, 1]),), torch.ones(2), True, out=torch.empty(3))',
            'torch.scatter_reduce(torch.zeros(3), 0, torch.tensor([1, 1]), torch.ones(2), "prod")',
            'torch.arange(6.).view(2, 3).t().scatter(0, torch.tensor([[2, 1]]), torch.tensor([[9., 8.]]))',
            'torch.arange(6.).view(2, 3).t().clone().scatter_(0, torch.tensor([[2, 1]]), -1.)']
    m = 'torch.arange(12.).view(3, 4).clone()'
    for e in ['.scatter_(1, torch.tensor([[0, 5]]), 1.)', '.scatter_(1, torch.tensor([[0, 1]]), torch.tensor([[1]]))',
              '.scatter_(1, torch.tensor([[0, 1]]), torch.tensor([[1.]]))', '.scatter_add_(1, torch.tensor([[0, 5]]), '
              'torch.ones(1, 2))', '.scatter_(1, torch.tensor([[0, 1]]).int(), 1.)',
              '.scatter_(1, torch.tensor([[0, 1]]), '
              '1., reduce="max")', '.scatter_reduce_(1, torch.tensor([[0, 0]]), torch.full((1, 2), 2.), "foo")',
              '.scatter_(1, torch.tensor([0]), 2.)', '.scatter_(1, torch.tensor([[0]]), torch.ones(1))',
              '.scatter_(1, torch.tensor([[[0]]]), 2.)',
              '.scatter_add_(1, torch.tensor([[0]]), torch.ones(1, 1).double())',
              '.scatter_add_(1, torch.tensor([[0, 1]]), torch.ones(1, 1))', '.index_add_(0, torch.tensor([0, 5]), '
              'torch.ones(2, 4))', '.index_add_(0, torch.tensor([0, 0]), torch.ones(3, 4))', '.index_add_(0, '
              'torch.tensor([0, 0]), torch.ones(2, 4).double())',
              '.index_add_(0, torch.tensor([0.]), torch.ones(1, 4))',
              '.index_add_(0, torch.tensor([[0]]), torch.ones(1, 4))',
              '.index_add_(0, torch.tensor([0]), torch.ones(4))',
              '.index_copy_(0, torch.tensor([0, 5]), torch.ones(2, 4))', '.index_copy_(0, torch.tensor([0]), '
              'torch.ones(2, 4))', '.index_copy_(0, torch.tensor([0]), torch.ones(1, 4).double())',
              '.index_copy_(0, torch.tensor([0]).int(), torch.ones(1, 4))', '.index_copy_(0, torch.tensor([[0]]), '
              'torch.ones(1, 4))', '.index_copy_(0, torch.tensor([0]), torch.ones(1, 3))', '.index_copy_(0, '
              'torch.tensor([0]), torch.ones(1, 4, 1))', '.index_copy_(0, torch.tensor([0]), torch.tensor(1.))',
              '.index_copy_(0, torch.tensor([0, 1]), torch.tensor(1.))', '.index_fill_(0, torch.tensor([0, 5]), 1)',
              '.index_fill_(1, torch.tensor([0, 3]), torch.tensor([7.]))',
              '.index_fill_(1, torch.tensor([0, 3]), 1.5e300)',
              '.index_fill_(0, torch.tensor([0]).int(), 1)', '.index_fill_(0, torch.tensor([[0]]), 1)',
              '.put_(torch.tensor([12]), torch.tensor([1.]))', '.put_(torch.tensor([1]), torch.tensor([1, 2.]))',
              '.put_(torch.tensor([1]), torch.tensor([1]))', '.put_(torch.tensor([1]).int(), torch.ones(1))',
              '.scatter_(1, torch.tensor([[0]]), 1e300)']:
        out.append(m + e)
    out += ['torch.empty(0).put_(torch.tensor([0]), torch.ones(1))',
            'torch.arange(4.).index_put_((torch.tensor([0]),), torch.arange(4.)[1:2], accumulate=True)']
    return out


def _masked_family():
    out = []
    for d in DTYPES:
        t = M.format(d)
        v = 'True' if d == 'bool' else '-1'
        out += ['%s.masked_fill(%s, %s)' % (t, MASK, v), '%s.masked_fill(torch.tensor([True, False, True, False]), '
                'torch.tensor(%s))' % (t, v), '%s.masked_select(%s)' % (t, MASK),
                '%s.masked_select(torch.tensor([[True], [False], [True]]))' % XT.format(d),
                '%s.masked_scatter(%s, %s.flatten())' % (t, MASK, M.format(d) + '.flip(0)'),
                '%s.nonzero()' % XS.format(d), 'torch.nonzero(%s, as_tuple=True)' % t, '%s.argwhere()' % t,
                'torch.where(%s, %s, %s)' % (MASK, t, M.format(d) + '.flip(1)'),
                'torch.where(%s.bool())' % XS.format(d)]
    for d in FLOATS:
        out += ['%s.nonzero()' % E.format(d), '%s.masked_fill(%s, float("nan"))' % (E.format(d), MASK),
                '%s.masked_select(%s)' % (E.format(d), MASK)]
    for a, b in [('1', '0'), ('1.', '0'), ('torch.arange(12).view(3, 4)', '0.5'),
                 ('2.5', 'torch.arange(12).view(3, 4).half()'),
                 ('torch.arange(12).view(3, 4).int()', 'torch.tensor(3)'), ('torch.arange(12).view(3, 4).int()', '2'),
                 ('torch.arange(4.)', 'torch.arange(12).view(3, 4).double()'), ('True', 'False'),
                 ('torch.tensor(True)', '5')]:
        out.append('torch.where(%s, %s, %s)' % (MASK, a, b))
    out += ['torch.arange(12.).view(3, 4).where(%s, torch.tensor(-1.))' % MASK,
            'torch.ops.aten.where.ScalarSelf(torch.tensor([True, False]), 2, torch.tensor([1.5, 2.5]))',
            'torch.ops.aten.where.ScalarOther(torch.tensor([True, False]), torch.tensor([1, 2]), 2.5)',
            'torch.ops.aten.where.Scalar(torch.tensor([True, False]), 2, 3)',
            'torch.ops.aten.where.Scalar(torch.tensor('
            '[True, False]), 2.5, 3)',
            'torch.where(torch.tensor([[True], [False]]), torch.arange(3), torch.zeros(2, 1))',
            'torch.where(torch.tensor(True), 1., 2.)', 'torch.where(torch.tensor(5))', 'torch.where(torch.tensor(0))',
            'torch.tensor(5).nonzero()', 'torch.tensor(0).nonzero()', 'torch.nonzero(torch.tensor(5), as_tuple=True)',
            'torch.nonzero(torch.tensor(0.), as_tuple=True)', 'torch.empty(0, 4).nonzero()',
            'torch.zeros(2, 0, 3).nonzero()',
            'torch.nonzero(torch.empty(0, 2), as_tuple=True)',
            'torch.tensor([[0., -0.], [1e-45, float("nan")]]).nonzero()',
            'torch.zeros(3).masked_fill(torch.tensor([[True], [False]]), 1)',
            'torch.tensor(3.).masked_fill(torch.tensor(True), 1)', 'torch.tensor(3.).masked_select(torch.tensor(True))',
            'torch.tensor(3.).masked_select(torch.tensor([True, False]))',
            'torch.empty(0, 4).masked_select(torch.empty(0, 4, '
            'dtype=torch.bool))',
            'torch.arange(12.).view(3, 4).masked_fill(%s, torch.tensor(2.5, dtype=torch.float64))' % MASK,
            'torch.arange(12).view(3, 4).masked_fill(%s, torch.tensor(2.5))' % MASK,
            'torch.arange(12).view(3, 4).masked_fill(%s, 2.5)' % MASK,
            'torch.arange(12.).view(3, 4).masked_fill((%s).byte(), 1)' % MASK,
            'torch.arange(12.).view(3, 4).masked_select(torch.tensor([1, 0, 1, 0], dtype=torch.uint8))',
            'torch.arange(12.).view(3, 4).masked_scatter(torch.tensor([True, False, True, False]), torch.arange(10.))',
            'torch.arange(12.).view(3, 4).clone().masked_scatter_((%s).byte(), torch.ones(12))' % MASK,
            'torch.masked_select(torch.arange(4.), torch.tensor([True, False, True, True]), out=torch.empty(0))',
            'torch.where(torch.tensor([True, False]), torch.ones(2), torch.zeros(2), out=torch.empty(0))',
            'torch.masked_fill(torch.ones(2), torch.tensor([True, False]), 0., out=torch.empty(0))',
            'torch.nonzero(torch.tensor([1, 0, 2]), out=torch.empty(0, dtype=torch.long))',
            'torch.argwhere(torch.tensor([[1, 0], [0, 2]]).t())', 'torch.arange(12.).view(3, 4).t()[%s.t()]' % MASK,
            'torch.arange(24.).view(2, 3, 4)[torch.tensor([[True, False, True], [False, True, True]])]',
            'torch.arange(24.).view(2, 3, 4).transpose(0, 1)[torch.tensor([[True, False], [False, True], '
            '[True, True]])]']
    m = 'torch.arange(12.).view(3, 4)'
    for e in ['.masked_select(torch.tensor([1, 0, 1, 0]))', '.masked_fill(%s, torch.tensor([1.5]))' % MASK,
              '.clone().masked_fill_(%s, 1e300)' % MASK, '.long().masked_fill(%s, 1e300)' % MASK,
              '.clone().masked_scatter_(%s, torch.arange(3.))' % MASK,
              '.clone().masked_scatter_(%s, torch.arange(10))' % MASK,
              '.clone().masked_scatter_(torch.tensor([[True], [False], [True], [True]]), torch.ones(12))',
              '.masked_fill(torch.tensor([True, False]), 1)', '.masked_select(torch.tensor([True, False]))']:
        out.append(m + e)
    out += ['torch.zeros(3).masked_fill_(torch.tensor([[True], [False]]), 1)', 'torch.where(%s, %s, %s)' % (m, m, m),
            'torch.where(%s, %s, torch.ones(2))' % (MASK, m), 'torch.nonzero(%s, as_tuple=1)' % m,
            'torch.tensor([1, 2], dtype=torch.int8).masked_fill(torch.tensor([True, False]), 300)',
            'torch.where(%s, %s, %s, out=torch.empty(3, 4, dtype=torch.long))' % (MASK, m, m)]
    return out


def _joining():
    out = []
    for d in DTYPES:
        a, b = M.format(d), 'torch.ones(3, 2).to(torch.%s)' % d
        out += ['torch.cat([%s, %s], 1)' % (a, b), 'torch.cat([%s, %s.t().t()])' % (a, a),
                'torch.cat((%s, torch.empty(0).to(torch.%s)), dim=-1)' % (XT.format(d), d),
                'torch.stack([%s, %s], 1)' % (a, a), 'torch.hstack([%s, %s])' % (a, b),
                'torch.vstack([%s, %s[0]])' % (a, a), 'torch.dstack([%s, %s])' % (a, a),
                'torch.column_stack([%s[0], %s[1]])' % (a, a)]
    pairs = ['float32', 'int64', 'bool', 'float16', 'bfloat16', 'uint8', 'int8']
    for da in pairs:
        for db in pairs:
            out.append('torch.cat([%s, %s])' % ('torch.arange(3).to(torch.%s)' % da,
                                                'torch.arange(2).to(torch.%s)' % db))
    out += ['torch.cat([torch.arange(6.).view(2, 3), torch.empty(0)])',
            'torch.cat([torch.empty(0), torch.arange(6.).view(2, 3)], 1)',
            'torch.cat([torch.empty(0), torch.empty(0)])',
            'torch.cat([torch.empty(0, 3), torch.arange(6.).view(2, 3)])',
            'torch.cat([torch.empty(2, 0), torch.arange(6.).view(2, 3)], 1)',
            'torch.cat([torch.arange(6.).view(2, 3).t(), '
            'torch.arange(6.).view(3, 2)], 1)', 'torch.cat([torch.arange(3.)], 0)',
            'torch.concat([torch.ones(2), torch.zeros(1)])',
            'torch.concatenate([torch.ones(1, 2), torch.zeros(1, 1)], 1)', 'torch.cat([torch.ones(2)] * 5)',
            'torch.cat([torch.ones(2), torch.zeros(2)], out=torch.empty(4, dtype=torch.float64))',
            'torch.stack([torch.tensor(1), torch.tensor(2)])', 'torch.stack([torch.ones(2), torch.zeros(2)], -1)',
            'torch.stack([torch.ones(2, 3)], 2)', 'torch.stack([torch.empty(0, 2), torch.empty(0, 2)])',
            'torch.stack([torch.ones(2), torch.zeros(2)], out=torch.empty(0))',
            'torch.hstack([torch.tensor(1), torch.tensor(2)])',
            'torch.hstack([torch.tensor([1, 2]), torch.tensor([3])])',
            'torch.vstack([torch.tensor(1), torch.tensor(2)])', 'torch.row_stack([torch.ones(2), torch.zeros(2)])',
            'torch.dstack([torch.tensor([1, 2]), torch.tensor([3, 4])])',
            'torch.dstack([torch.tensor(1), torch.tensor(2.)])',
            'torch.column_stack([torch.tensor([1, 2]), torch.tensor([[3], [4]])])',
            'torch.column_stack([torch.tensor(1), torch.tensor(2)])',
            'torch.hstack([torch.ones(2)], out=torch.empty(0))',
            'torch.vstack((torch.ones(1, 2), torch.zeros(2)), out=torch.empty(0))']
    for e in ['torch.cat([])', 'torch.cat([torch.tensor(1.)])', 'torch.cat([torch.ones(2, 3), torch.ones(2, 2)])',
              'torch.cat([torch.ones(2, 3)], 2)', 'torch.cat([torch.ones(2, 3), torch.ones(2, 3, 1)])',
              'torch.cat([torch.empty(0, 5), torch.ones(2, 3)])', 'torch.cat(torch.ones(2))',
              'torch.cat([torch.ones(2), 1])',
              'torch.cat([torch.ones(2), torch.ones(2)], out=torch.empty(4, dtype=torch.long))',
              '(lambda x: torch.cat([x[:2], x[:2]], out=x))(torch.arange(4.))', 'torch.stack([])',
              'torch.stack([torch.ones(2), torch.ones(3)])', 'torch.stack([torch.ones(2)], 2)', 'torch.hstack([])',
              'torch.vstack([])', 'torch.dstack([])', 'torch.column_stack([])', 'torch.row_stack([])',
              'torch.hstack([torch.ones(2, 3), torch.ones(3, 3)])']:
        out.append(e)
    return out


def _splitting():
    out = []
    a = 'torch.arange(12).view(3, 4)'
    for e in ['.split(2, 1)', '.split([1, 3], 1)', '.split(5)', '.split(1)', '.split_with_sizes([1, 2])',
              '.tensor_split(3, 1)', '.tensor_split([1, 5], 1)', '.tensor_split(torch.tensor(2), 1)',
              '.tensor_split(torch.tensor([1, 2]), 1)', '.tensor_split([2, 1], 1)', '.tensor_split(5)', '.chunk(2, 1)',
              '.chunk(3, 1)', '.chunk(5)', '.unbind(1)', '.unbind()', '.t().split(3)', '.t().chunk(2, 1)',
              '.split(2, -1)', '.tensor_split((0, 0, 3))', '.split([0, 3, 0])']:
        out.append(a + e)
    out += ['torch.split(%s, 2)' % a, 'torch.split(%s, [2, 1])' % a, 'torch.tensor_split(%s, 2, dim=1)' % a,
            'torch.chunk(%s, 2)' % a, 'torch.unbind(%s, -1)' % a, 'torch.empty(0).split(0)', 'torch.empty(0).split(2)',
            'torch.empty(0).chunk(2)', 'torch.empty(0, 3).unbind()', 'torch.empty(3, 0).chunk(2)',
            'torch.arange(5).chunk(3)', 'torch.arange(6).chunk(4)', 'torch.arange(7).tensor_split(3)',
            'torch.ops.aten.split.default(torch.arange(5), [2, 3])',
            'torch.ops.aten.split.sizes(torch.arange(5), [4, 1])']
    for e in ['.split(0)', '.split(-1)', '.split([1, 1], 1)', '.split([2, 2])', '.split([-1, 4])', '.tensor_split(0)',
              '.tensor_split(-1, 1)', '.tensor_split(torch.tensor([[1]]))', '.tensor_split(torch.tensor([1.]))',
              '.chunk(0)', '.unbind(2)', '.split(1, 2)']:
        out.append(a + e)
    out += ['torch.tensor(1.).split(1)', 'torch.tensor(1.).tensor_split(2)', 'torch.tensor(1.).chunk(1)',
            'torch.tensor(1.).unbind()']
    return out


def _rearranging():
    out = []
    for d in DTYPES:
        a = M.format(d)
        out += ['%s.repeat(2, 1, 2)' % a, '%s.tile((2,))' % a, '%s.repeat_interleave(2, dim=1)' % a,
                '%s.flip(0)' % XT.format(d), '%s.flip([0, 2])' % X.format(d), '%s.fliplr()' % a, '%s.flipud()' % a,
                '%s.roll(1)' % a, '%s.roll((1, -1), (0, 1))' % a, '%s.rot90()' % a, '%s.rot90(-1, [1, 0])' % a,
                '%s.tril()' % a, '%s.triu(1)' % XS.format(d), '%s.diag()' % a, '%s.diagonal(1)' % a,
                '%s.diag_embed()' % a if d != 'bool' else '%s.diagonal()' % a, '%s.narrow(1, 1, 2)' % a,
                '%s.movedim(0, 1)' % a, '%s.unfold(1, 2, 1)' % a]
        if d not in ('bool', 'float16', 'bfloat16'):
            out.append('%s.trace()' % a)
    out += ['torch.arange(6).view(2, 3).repeat(2, 1, 2)', 'torch.tensor(3.).repeat(2)', 'torch.tensor(3.).repeat(())',
            'torch.arange(3).repeat(0)', 'torch.arange(3).repeat(2, 0)', 'torch.arange(6).view(2, 3).t().repeat(1, 2)',
            'torch.arange(3).tile((2,))', 'torch.arange(6).view(2, 3).tile((2,))',
            'torch.arange(6).view(2, 3).tile((2, 1, 1))',
            'torch.repeat_interleave(torch.tensor([2, 0, 1]))',
            'torch.repeat_interleave(torch.tensor([2, 0, 1]).int())',
            'torch.repeat_interleave(torch.tensor([], dtype=torch.long))',
            'torch.arange(6).view(2, 3).repeat_interleave(2)',
            'torch.arange(6).view(2, 3).repeat_interleave(torch.tensor([1, 2]), dim=0)',
            'torch.arange(6).view(2, 3).repeat_interleave(torch.tensor(2), dim=1)',
            'torch.tensor(3.).repeat_interleave(2)',
            'torch.arange(6).view(2, 3).repeat_interleave(torch.tensor([1, 2, 0]), dim=1, output_size=3)',
            'torch.repeat_interleave(torch.tensor([1, 2]), output_size=3)',
            'torch.arange(6).view(2, 3).flip([])', 'torch.tensor(1.).flip(0)', 'torch.empty(0, 4).flip(0)',
            'torch.arange(6).view(2, 3).flip(-1)', 'torch.arange(3).flipud()', 'torch.arange(6).view(2, 3).roll(-4, 1)',
            'torch.arange(6).view(2, 3).roll(7)', 'torch.empty(0).roll(1)', 'torch.tensor(1.).roll(1)',
            'torch.arange(6).view(2, 3).t().roll(1, 0)', 'torch.arange(6).view(2, 3).rot90(2)',
            'torch.arange(6).view(2, 3).rot90(5)',
            'torch.arange(6).view(2, 3).rot90(0)', 'torch.arange(24).view(2, 3, 4).rot90(1, [2, 0])',
            'torch.arange(12.).view(3, 4).tril(-1)', 'torch.arange(12.).view(3, 4).tril(10)',
            'torch.arange(12.).view(3, 4).triu(-10)',
            'torch.ones(2, 3, 3).tril(-1)', 'torch.arange(12.).view(3, 4).t().triu()',
            'torch.arange(12.).view(3, 4).clone().tril_(1)',
            'torch.arange(12.).view(3, 4).clone().t().triu_()', 'torch.tril(torch.ones(2, 2), out=torch.empty(0))',
            'torch.empty(0, 3).tril()', 'torch.empty(3, 0).triu()']
    for d in ['int64', 'int32', 'int16', 'int8']:
        out += ['torch.tril_indices(3, 4, 1, dtype=torch.%s)' % d, 'torch.triu_indices(4, 3, -1, dtype=torch.%s)' % d]
    out += ['torch.tril_indices(3, 3)', 'torch.triu_indices(3, 3)', 'torch.tril_indices(3, 3, -1)',
            'torch.tril_indices(0, 3)',
            'torch.triu_indices(3, 3, 10)', 'torch.tril_indices(3, 3, -10)', 'torch.triu_indices(1, 5, 2)',
            'torch.tril_indices(5, 1, -2)', 'torch.tril_indices(4, 6, 2)', 'torch.triu_indices(6, 4, -2)']
    out += ['torch.arange(3).diag(1)', 'torch.arange(3).diag(-2)', 'torch.arange(6).view(2, 3).diag(-1)',
            'torch.arange(6).view(2, 3).diag(3)', 'torch.arange(12.).view(3, 4).diagonal(-5)',
            'torch.ones(2, 3, 4).diagonal(0, 1, 2)', 'torch.arange(24).view(2, 3, 4).diagonal(1, 2, 0)',
            'torch.arange(6.).view(2, 3).diag_embed(-1, 1, 2)', 'torch.arange(6.).view(2, 3).diag_embed(1, 0, 2)',
            'torch.arange(3).diag_embed()', 'torch.arange(6.).view(2, 3).diagflat()',
            'torch.arange(6.).view(2, 3).diagflat(-1)',
            'torch.tensor(3).diagflat()', 'torch.arange(12).view(3, 4).trace()',
            'torch.arange(12).view(3, 4).int().trace()',
            'torch.arange(12.).view(3, 4).t().trace()', 'torch.empty(0, 3).trace()',
            'torch.diag(torch.arange(3.), out=torch.empty(0))', 'torch.trace(torch.ones(2, 2))']
    out += ['torch.arange(6).view(2, 3).narrow(1, -1, 1)', 'torch.arange(6).view(2, 3).narrow(0, torch.tensor(1), 1)',
            'torch.arange(6).view(2, 3).narrow(1, 3, 0)', 'torch.arange(6).view(2, 3).narrow_copy(1, 1, 2)',
            'torch.narrow_copy(torch.arange(4), 0, 1, 2, out=torch.empty(0, dtype=torch.long))',
            'torch.arange(7).unfold(0, 2, 3)', 'torch.arange(8).view(2, 4).unfold(1, 2, 1)',
            'torch.tensor(1).unfold(0, 1, 1)',
            'torch.arange(7).unfold(0, 0, 1)', 'torch.arange(6).view(2, 3).unflatten(1, (3, 1))',
            'torch.arange(6).view(2, 3).unflatten(1, (-1, 1))', 'torch.arange(6).view(2, 3).unflatten(-1, (1, 3))',
            'torch.arange(6).view(2, 3).unflatten(1, [3])', 'torch.ones(2, 3, 4).movedim((0, 1), (2, 0))',
            'torch.ones(2, 3, 4).moveaxis(-1, 0)', 'torch.ones(2, 3, 4).movedim([], [])',
            'torch.tensor(3.).movedim(0, 0)',
            'torch.arange(6).view(2, 3).swapaxes(0, 1)', 'torch.arange(6).view(2, 3).swapdims(1, 0)',
            'torch.arange(6).view(2, 3).clone().swapaxes_(0, 1)', 'torch.arange(6).view(2, 3).clone().swapdims_(0, -1)',
            'torch.arange(6).view(2, 3).broadcast_to((2, 2, 3))', 'torch.arange(6).view(2, 3).broadcast_to((-1, 3))',
            'torch.broadcast_tensors(torch.arange(6).view(2, 3), torch.ones(3))',
            'torch.broadcast_tensors(torch.ones(2, 1))',
            'torch.broadcast_tensors(torch.ones(2, 1), torch.ones(3), torch.tensor(5))',
            'torch.broadcast_shapes((2, 1), (3,))',
            'torch.broadcast_shapes()', 'torch.broadcast_shapes(2, (1, 2))',
            'torch.broadcast_shapes([3, 1], torch.Size([1, 4]))',
            "torch.meshgrid(torch.arange(2), torch.arange(3), indexing='xy')",
            "torch.meshgrid([torch.arange(2), torch.arange(3)], indexing='ij')",
            "torch.meshgrid(torch.arange(2), torch.tensor(3), indexing='ij')",
            "torch.meshgrid(torch.arange(2), indexing='xy')",
            "torch.meshgrid(torch.arange(2), torch.arange(3), torch.arange(2), indexing='xy')"]
    for e in ['torch.arange(6).view(2, 3).flip([0, 0])', 'torch.arange(6).view(2, 3).flip(2)',
              'torch.arange(3).fliplr()',
              'torch.tensor(1).flipud()', 'torch.arange(6).view(2, 3).roll((1,), (0, 1))',
              'torch.arange(6).view(2, 3).roll(1, 2)',
              'torch.tensor(1.).roll(1, 0)', 'torch.arange(6).view(2, 3).roll([])',
              'torch.arange(6).view(2, 3).rot90(1, [0])',
              'torch.arange(6).view(2, 3).rot90(1, [0, 0])', 'torch.arange(3).rot90()',
              'torch.arange(6).view(2, 3).rot90(1, [0, 2])',
              'torch.arange(6).view(2, 3).rot90(1, [0, 5])', 'torch.arange(3).tril()', 'torch.tril_indices(-1, 3)',
              'torch.tril_indices(3, 3, dtype=torch.float32)', 'torch.tril_indices(2, 2, dtype=torch.bool)',
              'torch.tril_indices(2, 2, dtype=torch.uint8)', 'torch.tensor(1).diag()', 'torch.ones(2, 2, 2).diag()',
              'torch.arange(6).view(2, 3).diagonal(0, 0, 0)', 'torch.arange(3).diagonal()',
              'torch.tensor(1).diag_embed()',
              'torch.arange(6).view(2, 3).diag_embed(0, 0, 0)', 'torch.arange(6).view(2, 3).bool().trace()',
              'torch.arange(3).trace()', 'torch.arange(6.).view(2, 3).half().trace()',
              'torch.arange(6).view(2, 3).narrow(1, 2, 2)',
              'torch.arange(6).view(2, 3).narrow(1, 4, 0)', 'torch.tensor(1).narrow(0, 0, 1)',
              'torch.arange(6).view(2, 3).narrow(1, 1, -1)',
              'torch.arange(6).view(2, 3).narrow(0, torch.tensor([1]), 1)',
              'torch.arange(6).view(2, 3).narrow(0, torch.tensor(1.), 1)',
              'torch.arange(7).unfold(0, 8, 1)', 'torch.arange(7).unfold(0, 2, 0)',
              'torch.arange(6).view(2, 3).unflatten(1, (2, 2))',
              'torch.arange(6).view(2, 3).unflatten(1, ())', 'torch.tensor(3.).unflatten(0, (1,))',
              'torch.ones(2, 3, 4).movedim((0, 0), (1, 2))', 'torch.ones(2, 3, 4).movedim((0,), (1, 2))',
              'torch.ones(2, 3, 4).movedim(3, 0)', 'torch.arange(6).view(2, 3).broadcast_to((3,))',
              'torch.arange(6).view(2, 3).broadcast_to((3, 3))',
              'torch.broadcast_tensors(torch.ones(2, 3), torch.ones(2))',
              'torch.broadcast_shapes((2, 1), (3, 2))', 'torch.broadcast_shapes((2, -1))',
              "torch.meshgrid(torch.arange(2), indexing='foo')",
              'torch.meshgrid()', "torch.meshgrid(torch.arange(2), torch.arange(3.), indexing='ij')",
              "torch.meshgrid(torch.ones(2, 2), indexing='ij')", 'torch.arange(6).view(2, 3).repeat(2)',
              'torch.arange(6).view(2, 3).repeat(-1, 2)', 'torch.repeat_interleave(torch.tensor([1, -1]))',
              'torch.repeat_interleave(torch.tensor([[1]]))', 'torch.repeat_interleave(torch.tensor([1.]))',
              'torch.arange(6).view(2, 3).repeat_interleave(torch.tensor([1, 2]), dim=1)',
              'torch.arange(6).view(2, 3).repeat_interleave(torch.ones(2, 2, dtype=torch.long), dim=1)']:
        out.append(e)
    return out


def _legacy():
    out = ['str(torch.FloatTensor)', 'str(type(torch.FloatTensor))', 'issubclass(torch.FloatTensor, torch.Tensor)',
           'torch.FloatTensor(2, 3).shape', 'torch.FloatTensor([1, 2])', 'torch.LongTensor([1.5, 2])',
           'torch.FloatTensor()',
           'torch.FloatTensor(torch.Size([2])).shape', 'torch.FloatTensor(torch.arange(6.).view(2, 3))',
           'torch.FloatTensor(torch.arange(6).view(2, 3))', 'torch.BoolTensor([1, 0])', 'torch.ByteTensor(3).dtype',
           'torch.HalfTensor([1])', 'torch.BFloat16Tensor([1])', 'torch.CharTensor([1])', 'torch.ShortTensor([1])',
           'torch.IntTensor([1])', 'torch.DoubleTensor([[1, 2], [3, 4]])',
           'isinstance(torch.ones(2), torch.FloatTensor)',
           'isinstance(torch.ones(2), torch.DoubleTensor)', 'isinstance(torch.ones(2).long(), torch.LongTensor)',
           'isinstance(1, torch.FloatTensor)', 'isinstance(torch.FloatTensor(2), torch.Tensor)',
           'torch.FloatTensor.dtype', 'torch.FloatTensor.is_cuda', 'torch.FloatTensor(2, dtype=torch.float64)',
           "torch.FloatTensor([1], device='cpu')", 'torch.FloatTensor(-1)',
           'torch.FloatTensor(torch.ones(2).storage())',
           'torch.LongTensor(torch.ones(2).storage())']
    for d in DTYPES:
        t = 'torch.arange(3).to(torch.%s)' % d
        out += ['%s.type()' % t, '%s.type(torch.IntTensor)' % t, "%s.type('torch.DoubleTensor')" % t,
                '%s.type(torch.%s)' % (t, 'float16'), '%s.storage().type()' % t, '%s.storage().tolist()' % t,
                '%s.storage().element_size()' % t, 'str(%s.storage())' % t]
    out += ["torch.ones(2).type('torch.int32')", "torch.ones(2).type('foo')", 'torch.ones(2).type(5)',
            'len(torch.arange(6.).view(2, 3).storage())', 'torch.arange(6.).view(2, 3)[1].storage().size()',
            'torch.arange(6.).view(2, 3).storage()[2]', 'torch.arange(6.).view(2, 3).storage()[-1]',
            'torch.arange(6.).view(2, 3).storage()[6]', 'torch.arange(6.).view(2, 3).storage()[1:3]',
            'torch.arange(6.).view(2, 3).storage().dtype', 'torch.arange(6.).view(2, 3).storage().nbytes()',
            'torch.arange(6.).view(2, 3).storage().device', "str(torch.tensor([], dtype=torch.int32).storage())",
            'torch.is_storage(torch.ones(2).storage())', 'torch.is_storage(torch.ones(2))',
            'torch.is_tensor(torch.ones(2))',
            'torch.is_tensor([1])', 'torch.is_floating_point(torch.ones(2))',
            'torch.is_floating_point(torch.ones(2).long())',
            'torch.is_complex(torch.ones(2))', 'torch.numel(torch.ones(2, 3))', 'torch.ones(2).is_complex()',
            'torch.ones(2).is_floating_point()', 'torch.is_floating_point(1.0)', 'torch.numel(3)',
            'torch.ones(2).storage().double().tolist()', 'torch.ones(2).storage().is_shared()',
            'torch.ones(2).storage().pickle_storage_type()', 'list(iter(torch.tensor([1, 2]).storage()))',
            '(lambda s: (s.__setitem__(0, 7), s.tolist())[1])(torch.ones(3).storage())',
            '(lambda x: (x.storage().fill_(2), x)[1])(torch.zeros(2, 2))',
            '(lambda x: x[1].storage().data_ptr() == x.data_ptr())(torch.ones(2, 2))',
            '(lambda x: x.storage().data_ptr() == x.data_ptr())(torch.ones(2, 2))',
            '(lambda x: (x.resize_(2, 3), x.shape)[1])(torch.ones(4))',
            '(lambda x: (x.resize_(0), x.shape)[1])(torch.ones(4))',
            '(lambda x: x.resize_(2)[0])(torch.arange(4.))',
            '(lambda x: (x.resize_as_(torch.ones(1, 2)), x)[1])(torch.arange(4.))',
            'torch.ones(2).resize_(-1)', '(lambda x: x.resize_(3, 2)[:2, 0])(torch.arange(4.).view(2, 2))',
            '(lambda x: (x.resize_(8), x[:4])[1])(torch.arange(4.))', 'torch.ones(2).storage().clone().tolist()']
    return out


def _strided():
    """Views whose strides are part of their meaning."""
    return ['torch.arange(24).view(2, 3, 4).diagonal(1, 2, 0)', 'torch.arange(12).view(3, 4).diagonal(-1)',
            'torch.arange(7).unfold(0, 2, 3)', 'torch.arange(8).view(2, 4).unfold(1, 2, 1)',
            'torch.arange(6).view(2, 3).narrow(1, 1, 2)', 'torch.arange(12).view(3, 4).split(2, 1)',
            'torch.arange(12).view(3, 4).t().chunk(2, 1)', 'torch.arange(12).view(3, 4).unbind(1)',
            'torch.ones(2, 3, 4).movedim((0, 1), (2, 0))', 'torch.arange(6).view(2, 3).swapaxes(0, 1)',
            'torch.arange(6).view(2, 3).broadcast_to((2, 2, 3))',
            'torch.broadcast_tensors(torch.arange(6).view(2, 3), torch.ones(3))',
            "torch.meshgrid(torch.arange(2), torch.arange(3), indexing='xy')", 'torch.arange(6).view(2, 3).rot90()',
            'torch.arange(6).view(2, 3).unflatten(1, (3, 1))', 'torch.arange(12).view(3, 4).tensor_split([1, 5], 1)',
            'torch.arange(6).view(2, 3).clone().swapaxes_(0, 1)', 'torch.arange(24).view(2, 3, 4)[:, [2, 0]]',
            'torch.arange(24).view(2, 3, 4).transpose(0, 2)[[0, 3], [1, 2]]']


def _cases():
    cases = []
    for e in (_read_indexing() + _write_indexing() + _gather_family() + _scatter_family() + _masked_family()
              + _joining()
              + _splitting() + _rearranging() + _legacy() + _strided()):
        if e not in cases:
            cases.append(e)
    return cases


SUITE = Suite('indexing', _cases(), strided=_strided())
RECORDED, RUNNER, reference_request = SUITE.recorded, SUITE.runner, SUITE.reference_request
reports = SUITE.fixture()


@pytest.mark.parametrize('expr', SUITE.expressions)
def test_matches_reference(reports, expr):
    SUITE.check(reports, expr)
