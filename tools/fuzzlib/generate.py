"""Seeded generation of fuzz cases.

A case is a small program over `torch` (and the worker's helpers) that leaves its outcome in `result`,
or a plugin-file scenario. The same seed always gives the same cases, so a seeded run can be compared
with the reference's recorded results (tests/data/fuzz_reference.json), keyed by the program's text.

Families, each aimed at a class of bug: creation from nested Python data (ragged, deep, odd objects,
tensors inside lists, lists changed by their own conversion), the numpy bridge, float-to-integer
conversions (NaN, infinities, out of range; copies, reductions, data), views and indexing (ints,
slices, None, Ellipsis, bools, 0-dim tensors) for reading and assignment, in-place ops on overlapping
views, reductions (dims repeated or out of range, dtype=), binary ops across dtypes, threads (huge
counts, fork after parallel work), and process scenarios (plugin files, cache and BLAS settings).
"""
import random

from fuzzlib import scenarios

DTYPES = ['bool', 'uint8', 'int8', 'int16', 'int32', 'int64', 'float16', 'bfloat16', 'float32', 'float64']
FLOATS = ['float16', 'bfloat16', 'float32', 'float64']
INTS = ['uint8', 'int8', 'int16', 'int32', 'int64']
SPECIAL = ['nan', 'inf', '-inf', '1e10', '-1e10', '300.5', '-129.7', '65535.9', '2.0**31', '-2.0**31-1', '2.0**63',
           '-0.9', '255.5', '1e20', '0.5', '-2.5', '3.0']


def _dt(name):
    return 'torch.' + name


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)

    def choice(self, xs):
        return self.r.choice(xs)

    def chance(self, p):
        return self.r.random() < p

    # ---- creation from Python data -------------------------------------------------------------

    def leaf(self):
        """An element of nested data: numbers, number-like objects, tensors (one a number, others
        refused as PyTorch refuses them inside lists)."""
        kind = self.r.random()
        if kind < 0.35:
            code = str(self.r.randint(-5, 300))
        elif kind < 0.6:
            code = self.choice(['0.5', '-1.5', '2.0', 'nan', 'inf', '-inf', '1e10', '300.5', '-129.7', '1e40'])
        elif kind < 0.7:
            code = self.choice(['True', 'False'])
        elif kind < 0.8:
            code = self.choice(["Decimal('1.5')", 'Fraction(1, 3)', 'IndexLike()', 'FloatLike()', 'IndexAndFloat()',
                                '2**63', '-2**63', '2**64', 'None', "'a'", "b'ab'", 'object()', '1+2j'])
        elif kind < 0.9:
            code = 'torch.tensor(%s, dtype=%s)' % (self.choice(['1', '2.5', 'True', '300', 'nan']), _dt(self.choice(DTYPES)))
        else:
            code = self.choice(['torch.ones(1)', 'torch.ones(2)', 'torch.ones(1, 1)', 'torch.ones(2, 2)', 'torch.zeros(0)',
                                'torch.arange(3)', 'torch.ones(3, 3)[:, 0]', 'torch.ones(2, 1)', 'torch.ones(2, 2, 2)'])
        return code

    def nested(self, depth):
        if depth == 0:
            return self.leaf()
        n = self.r.randint(0, 3)
        if self.chance(0.15):  # tensors where a level of lists is expected
            return self.choice(['torch.ones(%d)' % n, 'torch.ones(%d, 2)' % n, 'torch.tensor(1.)', 'torch.ones(2, 2)'])
        items = [self.nested(depth - 1 if not self.chance(0.1) else max(depth - 2, 0)) for _ in range(n)]
        open_, close = ('(', ',)') if self.chance(0.2) else ('[', ']')
        close = close if items or close == ']' else ')'
        return open_ + ', '.join(items) + close

    def creation(self):
        data = self.nested(self.r.randint(0, 3))
        dtype = 'None' if self.chance(0.5) else _dt(self.choice(DTYPES))
        fn = self.choice(['torch.tensor', 'torch.tensor', 'torch.as_tensor'])
        return 'result = %s(%s, dtype=%s)' % (fn, data, dtype)

    def tensor_lists(self):
        """Lists of tensors of unequal or equal shapes, nested at unequal depths: the shape still expected
        must be checked against each tensor's."""
        shapes = [(), (1,), (2,), (3,), (1, 2), (2, 1), (2, 2), (2, 3), (2, 2, 2), (0,), (1, 1)]
        first = self.choice(shapes)

        def one():
            # the same shape as the first, one that matches the dims it has but has fewer (what the
            # shape still expected must catch), or any
            k = self.r.random()
            shape = first if k < 0.4 else first[:self.r.randint(0, max(len(first) - 1, 0))] if k < 0.7 \
                else self.choice(shapes)
            return 'torch.arange(%d.).view(%s)' % (_prod(shape), ', '.join(map(str, shape)) if shape else '()')

        def level(depth):
            items = [one() if depth == 0 or self.chance(0.4) else level(depth - 1) for _ in range(self.r.randint(1, 3))]
            return '[' + ', '.join(items) + ']'

        data = level(self.r.randint(0, 2))
        dtype = 'None' if self.chance(0.7) else _dt(self.choice(DTYPES))
        return 'result = torch.tensor(%s, dtype=%s)' % (data, dtype)

    def mutated_list(self):
        dtype = _dt(self.choice(['float32', 'float64', 'int64', 'int32', 'bool']))
        pre, post = self.r.randint(0, 4), self.r.randint(0, 200)
        nest = self.chance(0.3)
        body = ('l = [%s]\nl.append(Clearer(l))\nl.extend([4.0] * %d)\n' % (', '.join(['1.0'] * pre), post))
        if nest:
            return body + 'result = torch.tensor([[1.0] * len(l), l], dtype=%s)' % dtype
        return body + 'result = torch.tensor(l, dtype=%s)' % dtype

    def numpy_bridge(self):
        return 'result = ' + self.choice([
            'torch.from_numpy(FakeArray())',
            'torch.from_numpy(np.float32(%s))' % self.choice(['3', '1.5', 'nan']),
            'torch.from_numpy(np.int64(7))',
            'torch.from_numpy(np.arange(%d, dtype=np.%s))' % (self.r.randint(0, 6),
                                                                self.choice(['float32', 'int64', 'int8', 'bool_'])),
            'torch.from_numpy(np.arange(12.).reshape(3, 4)[:, ::2])',
            'torch.from_numpy(np.arange(6, dtype=np.uint16))',
            'torch.from_numpy([1, 2])',
            'torch.tensor(np.float64(%s))' % self.choice(['2.5', 'nan', '1e300']),
            'torch.tensor([np.int8(3), np.float32(1.5)])',
            'torch.as_tensor(np.arange(4.))',
        ])

    # ---- conversions ---------------------------------------------------------------------------

    def conversion(self):
        vals = [self.choice(SPECIAL) for _ in range(self.r.randint(1, 6))]
        reps = self.choice([1, 1, 17])  # 17 copies: long enough for vectorised loops
        src, dst = self.choice(FLOATS), self.choice(INTS + ['bool'])
        x = 'torch.tensor([%s] * %d, dtype=torch.float64).to(%s)' % (', '.join(vals), reps, _dt(src))
        form = self.r.random()
        if form < 0.5:
            return 'result = %s.to(%s)' % (x, _dt(dst))
        if form < 0.75:
            return 'result = %s.sum(dtype=%s)' % (x, _dt(dst))
        if form < 0.85:
            return 'result = %s.sum(0, keepdim=True, dtype=%s)' % (x, _dt(dst))
        # Python data: checked conversion, which refuses what does not fit
        return 'result = torch.tensor([%s], dtype=%s)' % (', '.join(vals), _dt(dst))

    # ---- tensors, views, indexing --------------------------------------------------------------

    def base(self):
        ndim = self.choice([0, 1, 1, 2, 2, 3])
        shape = [self.choice([0, 1, 2, 3, 4]) if self.chance(0.1) else self.r.randint(1, 4) for _ in range(ndim)]
        n = 1
        for s in shape:
            n *= s
        dtype = self.choice(DTYPES)
        x = 'torch.arange(%d).to(%s)' % (n, _dt(dtype))
        if ndim != 1:
            x += '.view(%s)' % ', '.join(map(str, shape)) if ndim else '.view(())'
        return x, list(shape)

    def view_op(self, shape):
        nd = len(shape)
        ops = []
        if nd >= 2:
            ops += [('.t()', shape[::-1] if nd == 2 else None),
                    ('.transpose(0, -1)', [shape[-1]] + shape[1:-1] + [shape[0]])]
            perm = list(range(nd))
            self.r.shuffle(perm)
            ops.append(('.permute(%s)' % ', '.join(map(str, perm)), [shape[p] for p in perm]))
        d = self.r.randint(0, nd)
        ops.append(('.unsqueeze(%d)' % d, shape[:d] + [1] + shape[d:]))
        if nd:
            ops.append(('.reshape(-1)', [_prod(shape)]))
        ops.append(('.T', shape[::-1]))
        op, new = self.choice(ops)
        return op, new if new is not None else shape

    def index_item(self, size):
        k = self.r.random()
        if k < 0.3 and size is not None:
            return str(self.r.randint(-size - 1, size))
        if k < 0.55:
            a, b = self.r.randint(-4, 4), self.r.randint(-4, 5)
            step = self.choice(['', ':2', ':3', ':1'])
            return '%s:%s%s' % (self.choice([str(a), '']), self.choice([str(b), '']), step)
        if k < 0.65:
            return 'None'
        if k < 0.72:
            return '...'  # one per key: PyTorch 1.13 accepts several, this project (and later PyTorch) do not
        if k < 0.88:
            return self.choice(['True', 'False'])
        return self.choice(['torch.tensor(%d)' % self.r.randint(-1, 2), 'torch.tensor(True)', 'torch.tensor(False)'])

    def key(self, shape):
        n = self.r.randint(1, 4)
        items, dim = [], 0
        for _ in range(n):
            item = self.index_item(shape[dim] if dim < len(shape) else None)
            while item == '...' and '...' in items:
                item = self.index_item(shape[dim] if dim < len(shape) else None)
            items.append(item)
            if items[-1] not in ('None', 'True', 'False', '...') and not items[-1].startswith(('torch.tensor(T',
                                                                                              'torch.tensor(F')):
                dim += 1  # the item used up a dim
        if n == 1 and self.chance(0.5):
            return items[0]
        return ', '.join(items) + (',' if n == 1 else '')

    def view_index(self):
        x, shape = self.base()
        code = 'x = %s\n' % x
        for _ in range(self.r.randint(0, 2)):
            op, shape = self.view_op(shape)
            code += 'x = x%s\n' % op
        return code + 'result = x[%s]' % self.key(shape)

    def setitem(self):
        x, shape = self.base()
        key = self.key(shape)
        value = self.choice(['7', '-1', '2.5', 'True', '300', 'nan', '1e40', 'torch.tensor(5)', 'torch.tensor(300.)',
                             'torch.ones(%d)' % self.r.randint(0, 4), 'torch.arange(4.)', 'x[0]' if shape else 'x',
                             'torch.ones(1, 1)', "'a'"])
        return 'x = %s\nx[%s] = %s\nresult = x' % (x, key, value)

    def overlap(self):
        dtype = self.choice(['float32', 'int64', 'float64', 'int16'])
        x = 'x = torch.arange(16).to(%s).view(4, 4)\n' % _dt(dtype)
        stmt = self.choice([
            'x[1:] = x[:-1]', 'x[:-1] = x[1:]', 'x.add_(x.t())', 'x.add_(x)', 'x.add_(x[:])', 'x[0:2].add_(x[2:4])',
            'x[0:3].add_(x[1:4])', 'x.copy_(x.t())', 'x.copy_(x)', 'x[1:].copy_(x[0])', 'x.mul_(x[0:1])',
            'x.view(16)[1:].add_(x.view(16)[:-1])', 'x[0] = x[1]', 'x[:, 0] = x[:, 1]', 'x[::2] = x[1::2]',
            'x[0] = x[0, 0]', 'x[1:3] = x[None, 0:2]', 'x[1:] += x[:-1]', 'x.sub_(x, alpha=2)', 'x[0].copy_(x[0, 0])',
            'x[True, 1:] = x[:-1]', 'x[True] = x', 'x.t().add_(x)', 'x[:2, :2].add_(x[2:, 2:])',
        ])
        return x + stmt + '\nresult = x'

    def inplace(self):
        x, shape = self.base()
        op = self.choice(['add_', 'sub_', 'mul_', 'div_', 'floor_divide_', 'remainder_', 'pow_', 'neg_', 'abs_', 'relu_'])
        other = self.choice(['2', '2.5', 'True', 'torch.tensor(3)', 'torch.ones(%d)' % (shape[-1] if shape else 1),
                             'torch.tensor(1.5, dtype=torch.float64)'])
        call = 'x.%s()' % op if op in ('neg_', 'abs_', 'relu_') else 'x.%s(%s)' % (op, other)
        return 'x = %s\n%s\nresult = x' % (x, call)

    # ---- reductions and binary ops -------------------------------------------------------------

    def reduction(self):
        x, shape = self.base()
        nd = len(shape)
        op = self.choice(['sum', 'sum', 'mean', 'max', 'min', 'argmax', 'argmin'])
        args = []
        if op in ('sum', 'mean'):
            if self.chance(0.6):
                dims = [self.r.randint(-nd - 1, nd) for _ in range(self.r.randint(0, 3))]
                args.append('(%s)' % ''.join('%d, ' % d for d in dims) if self.chance(0.7) else str(dims[0] if dims else 0))
                if self.chance(0.3):
                    args.append('keepdim=True')
            if self.chance(0.5):
                args.append('dtype=%s' % _dt(self.choice(DTYPES)))
        elif op in ('max', 'min') and self.chance(0.5) or op in ('argmax', 'argmin') and self.chance(0.7):
            args.append(str(self.r.randint(-nd - 1, nd)))
            if self.chance(0.3):
                args.append('keepdim=True')
        return 'x = %s\nresult = x.%s(%s)' % (x, op, ', '.join(args))

    def binary(self):
        a, sa = self.base()
        b, sb = self.base()
        if self.chance(0.3):
            b = self.choice(['2', '-3', '2.5', 'True', 'nan', '300', '0'])
        op = self.choice(['+', '-', '*', '/', '//', '%', '**', '==', '<', '>='])
        if self.chance(0.2) and b.startswith('torch.'):  # tensors only, as PyTorch takes them
            return 'result = torch.%s(%s, %s)' % (self.choice(['maximum', 'minimum']), a, b)
        return 'result = (%s) %s (%s)' % (a, op, b)

    def misc(self):
        x, shape = self.base()
        return 'result = ' + self.choice([
            'torch.Tensor(%s)' % x, '(%s).T' % x, 'torch.tensor(3.).T', 'torch.Tensor(torch.Size([2])).shape',
            'torch.Tensor(%s)' % self.choice(['2.5', '[1, 2]', '(True,)', '[]']),
            'torch.ones(3).sum(dtype=torch.bool)', 'torch.ones(2, 2).sum((0, 0))', 'torch.tensor(1.).sum((0, -1))',
            'torch.ones(%d, %d) @ torch.ones(%d, %d)' % tuple(self.r.randint(1, 4) for _ in range(4)),
            'torch.arange(6.).view(2, 3) @ torch.arange(3.)',
        ])

    def threads(self):
        return self.choice([
            'torch.set_num_threads(65536)\na = torch.ones(512, 512)\nresult = (a @ a).sum()',
            'torch.set_num_threads(%d)\nresult = torch.get_num_threads()' % self.choice([0, -1, 2 ** 31, 3]),
            'torch.set_num_threads(%s)' % self.choice(['1.5', "'2'", 'True', 'None']),
            'result = fork_check()', 'result = fork_check()',
        ])

FAMILIES = [('creation', 12), ('tensor_lists', 4), ('mutated_list', 3), ('numpy_bridge', 3), ('conversion', 10),
            ('view_index', 14),
            ('setitem', 8), ('overlap', 6), ('inplace', 6), ('reduction', 10), ('binary', 8), ('misc', 5),
            ('threads', 3)]


# Where the reference itself misbehaves, what a case must give instead: the reference reads freed list
# items (undefined behaviour that happens to return a tensor) when an element's conversion empties the
# list; this project raises.
EXPECT = {'mutated_list': {'t': 'error', 'type': 'RuntimeError'}}


def _prod(xs):
    n = 1
    for x in xs:
        n *= x
    return n


def generate(seed, count, scenario_share=0.05):
    """`count` cases: {'family', 'code'[, 'expect']} programs and {'family': 'scenario', 'spec'}
    process scenarios (tools/fuzzlib/scenarios.py)."""
    g = Gen(seed)
    names = [n for n, w in FAMILIES for _ in range(w)]
    cases = []
    for _ in range(count):
        if g.chance(scenario_share):
            cases.append({'family': 'scenario', 'spec': scenarios.pick(g.r)})
            continue
        family = g.choice(names)
        code = getattr(g, family)()
        case = {'family': family, 'code': code}
        if family in EXPECT:
            case['expect'] = EXPECT[family]
        if code == 'result = fork_check()':
            case['expect'] = {'t': 'py', 'type': 'str', 'value': 'ok'}
        if code.startswith('torch.set_num_threads(65536)'):  # the reference tries to start 65536 threads
            case['expect'] = {'t': 'tensor', 'dtype': 'float32', 'shape': [], 'values': 512.0 ** 3}
        cases.append(case)
    return cases
