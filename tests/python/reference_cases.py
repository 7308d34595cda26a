"""Programs whose results the reference PyTorch 1.13 recorded in tests/data/reference_cases.json
(regenerate with `tools/fuzz --record-cases` where the reference is installed), one list per class of bug
of the reliability issue. Each program leaves its outcome in `result`; the helpers of
tools/fuzzlib/worker.py (IndexLike, FloatLike, Clearer, ...) are in scope."""

VALUES = ['nan', 'inf', '-inf', '1e10', '-1e10', '300.5', '-129.7', '65535.9', '2.0**31', '-2.0**31-1', '2.0**63',
          '-2.0**63', '-0.9', '255.5', '256.0', '1e20', '60000.0', '-60000.0', '3e9', '2.0**31+300', '-1.5', '2.0**32+5']
FLOATS = ['float16', 'bfloat16', 'float32', 'float64']
TARGETS = ['uint8', 'int8', 'int16', 'int32', 'int64', 'bool']


def _conversions():
    data = '[%s]' % ', '.join(VALUES)
    out = []
    for src in FLOATS:
        for dst in TARGETS:
            for reps in (1, 9):  # 9 copies: long enough for the vectorised loops
                out.append('result = torch.tensor(%s * %d, dtype=torch.float64).to(torch.%s).to(torch.%s)'
                           % (data, reps, src, dst))
            out.append('result = torch.tensor(%s, dtype=torch.float64).to(torch.%s).view(2, 11).sum(1, dtype=torch.%s)'
                       % (data, src, dst))
    for v in VALUES:
        for dst in TARGETS:
            out.append('result = torch.tensor([%s], dtype=torch.%s)' % (v, dst))  # checked, from Python data
            out.append('result = torch.full((2,), %s, dtype=torch.%s)' % (v, dst))
            out.append('result = torch.tensor(%s).sum(dtype=torch.%s)' % (v, dst))
    return out


CASES = {
    'conversions': _conversions(),
    'bool_indexing': [
        'x = torch.arange(12.).view(3, 4)\nresult = x[%s]' % k for k in [
            'True', 'False', 'None, True', 'True, None', 'True, True', 'True, False', 'True, 1', '1, True',
            'True, :, True', 'True, 0:2', '..., True', 'True, ...', 'True, 0, True', 'None, True, None, False',
            'torch.tensor(True)', 'torch.tensor(False)', 'False, 0', 'False, None', 'True, ..., 0', '(True,)',
            'True, 1, 2, 3', 'torch.tensor(1, dtype=torch.uint8)']
    ] + [
        'x = torch.tensor(5.)\nresult = x[%s]' % k for k in ['True', 'False', 'True, True', 'None, False']
    ] + [
        'x = torch.arange(12.).view(3, 4)\nx[%s] = %s\nresult = x' % kv for kv in [
            ('True', '7'), ('False', '7'), ('True', 'torch.ones(4)'), ('True', 'torch.ones(3, 4) * 2'),
            ('True', 'torch.ones(2, 4)'), ('False', 'torch.ones(2, 4)'), ('None, True', '5'), ('True, 0', '9'),
            ('0, True', 'torch.tensor([1., 2, 3, 4])'), ('False, 0', '9'), ('False, 0', 'torch.ones(5)'),
            ('True, :, True', 'torch.arange(4.)'), ('torch.tensor(True)', '3'), ('torch.tensor(False)', '3'),
            ('True, False', '1'), ('..., True', 'torch.zeros(3, 4, 1)'), ('1, True', 'x[0]'), ('True', 'x'),
            ('False', "'abc'"), ('True', '1e40'), ('True, 1:', 'x[:-1]'), ('True, 0', 'x[0]'), ('(True,)', 'x'),
            ('-1, -1, False', 'torch.ones(1)'), ('True, 0', 'torch.ones(4, dtype=torch.float64)')]
    ],
    'overlap': [
        'x = torch.arange(16.).view(4, 4)\n%s\nresult = x' % s for s in [
            'x.add_(x)', 'x.add_(x[:])', 'x.add_(x.t())', 'x.add_(x[0])', 'x.add_(x[0, 0])', 'x[1:] = x[:-1]',
            'x[0] = x[1]', 'x[::2] = x[1::2]', 'x.copy_(x.t())', 'x.copy_(x)', 'x[1:].copy_(x[:-1])',
            'x[:, ::2] = x[:, 1::2]', 'x.mul_(x[0:1])', 'x.add_(x.expand(4, 4))', 'x[0].add_(x[1, 0])',
            'x[0].copy_(x[0, 0])', 'x[0] = x[0, 0]', 'x[0:3].add_(x[1:4])', 'x.view(2, 8).add_(x.view(2, 8))',
            'x.t().add_(x)', 'x.fill_(x[0, 0])', 'x.div_(x[:1, :1])', 'x[:] = x[0]', 'x[1:] = x[0]',
            'x[1:3] = x[None, 0:2]', 'x[0, :] = x[0, 0:1]', 'x.copy_(x[0])', 'x[1:] += x[:-1]']
    ],
    'silent_results': [
        'result = torch.ones(3).sum(dtype=torch.bool)', 'result = torch.zeros(3).sum(dtype=torch.bool)',
        'result = torch.ones(0).sum(dtype=torch.bool)', 'result = torch.ones(2, 3).sum(0, dtype=torch.bool)',
        'result = torch.tensor([-1, 1]).sum(dtype=torch.bool)', 'result = torch.ones(3).mean(dtype=torch.bool)',
        'result = torch.Tensor(torch.arange(3))', 'result = torch.Tensor(torch.tensor([True]))',
        'result = torch.Tensor(2.5)', 'result = torch.Tensor(torch.Size([2])).shape', 'result = torch.Tensor([1, 2])',
        'result = torch.tensor(3.).T', 'result = torch.ones(2, 3).T', 'result = torch.arange(3.).T',
        'result = torch.ones(2, 2).sum((0, 0))', 'result = torch.ones(2, 2).sum((0, -2))',
        'result = torch.tensor(1.).sum((0, 0))', 'result = torch.tensor(1.).sum((0, -1))',
        'result = torch.ones(2, 3).sum((0, 1, 0))', 'result = torch.ones(2, 2).mean((0, 0))',
        'result = torch.arange(3, dtype=torch.int8) ** 300', 'result = 300 ** torch.arange(3, dtype=torch.int8)',
    ],
    'creation': [
        'result = torch.tensor([torch.ones(2, 2), torch.ones(2)])', 'result = torch.tensor([torch.ones(1), torch.tensor(1.)])',
        'result = torch.tensor([torch.tensor(1.), torch.ones(1, 1)])', 'result = torch.tensor([[1, 2], torch.ones(2)])',
        'result = torch.tensor([[1, 2], torch.tensor(3.)])', 'result = torch.tensor([Decimal("1.5")])',
        'result = torch.tensor([Fraction(1, 3)])', 'result = torch.tensor([IndexLike()])',
        'result = torch.tensor([FloatLike()])', 'result = torch.tensor([IndexLike()], dtype=torch.int64)',
        'result = torch.tensor([FloatLike()], dtype=torch.float64)', 'result = torch.tensor([FloatLike()], dtype=torch.int64)',
        'result = torch.tensor([Decimal("1.5")], dtype=torch.float32)', 'result = torch.tensor([IndexAndFloat()], dtype=torch.float32)',
        'result = torch.tensor([np.float64(1.5), 1])', 'result = torch.tensor([np.int8(3)])', 'result = torch.tensor(range(3))',
        'result = torch.tensor([torch.tensor(1.5)], dtype=torch.int32)', 'result = torch.tensor([torch.tensor(300)], dtype=torch.int8)',
        'result = torch.tensor([torch.tensor(True)], dtype=torch.int32)', 'result = torch.tensor([[], [1]])',
        'result = torch.tensor([2.0**63], dtype=torch.int64)', 'result = torch.tensor([2**63])', 'result = torch.tensor([object()])',
        'result = torch.tensor(["a"])', 'result = torch.tensor([None], dtype=torch.float32)', "result = torch.tensor([b'ab'], dtype=torch.int64)",
        'result = torch.as_tensor([1, 2.5])', 'result = torch.as_tensor(np.arange(3.))',
        'result = torch.from_numpy(FakeArray())', 'result = torch.from_numpy(np.float32(3))', 'result = torch.from_numpy([1.0])',
    ],
}
