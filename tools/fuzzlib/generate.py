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
Issue #32 added: arbitrary Python objects assigned into every dtype, out= tensors that overlap an
input or have another dtype or shape, non-contiguous and 0-dim inputs to kernels, in-place writes on
leaves and their views, higher-order gradients through ops with a formula, and NaN/inf inputs to
reductions and their backward.
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

    # ---- issue #32: the classes a differential fuzzer found ----------------------------------------

    def setitem_objects(self):
        """Arbitrary Python objects assigned into every dtype (complex included) through every key form:
        the value is converted before the key is looked at, and a non-number is a TypeError."""
        dtype = self.choice(DTYPES + ['complex64', 'complex128'])
        key = self.choice(['0', '0:1', 'torch.tensor([0])', 'torch.tensor([True, False])', '...', 'None', 'True',
                           'False', '-1', '[0, 1]'])
        value = self.choice(['None', '[1]', '[]', "'x'", '(1,)', 'object()', '[1, 2]', '1j', '1.5', '-3', 'True',
                             "b'ab'", '{}', 'IndexLike()', 'FloatLike()', "Decimal('1.5')", 'Fraction(1, 3)',
                             'torch.tensor(2)', 'torch.tensor([1.5, 2.5])', 'np.float32(2)', 'nan', '1e40'])
        return ('x = torch.zeros(2, dtype=%s)\nx[%s] = %s\n'
                'result = torch.view_as_real(x) if x.is_complex() else x' % (_dt(dtype), key, value))

    # out= ops: (call with {out}, whether PyTorch checks an out that overlaps the input)
    OUT_CALLS = [('torch.add(a, 1, out={out})', True), ('torch.exp(a, out={out})', True),
                 ('torch.neg(a, out={out})', True), ('torch.mul(a, a, out={out})', True),
                 ('torch.clamp(a, 1, 3, out={out})', True), ('torch.abs(a, out={out})', True),
                 ('torch.where(a > 2, a, a, out={out})', True), ('torch.cat([a, a], out={out})', True),
                 ('torch.index_select(a, 0, torch.tensor([0, 2]), out={out})', True),
                 ('torch.gather(a, 0, torch.tensor([[0, 1]]), out={out})', False),
                 ('torch.take(a, torch.tensor([0, 5]), out={out})', True),
                 ('torch.masked_select(a, a > 2, out={out})', True), ('torch.tril(a, out={out})', False),
                 ('torch.sum(a, 0, out={out})', False), ('torch.cumsum(a, 0, out={out})', False),
                 ('torch.mm(a, a.t(), out={out})', False), ('torch.nonzero(a, out={out})', False),
                 ('torch.sort(a, 0, out=({out}, torch.empty(0, dtype=torch.long)))', False),
                 ('torch.max(a, 0, out=({out}, torch.empty(0, dtype=torch.long)))', False)]

    def out_args(self):
        """out= tensors that overlap an input, have another dtype or another shape (views of other
        tensors among them, which a resize must grow in place)."""
        dtype = self.choice(['float32', 'float64', 'int64', 'int32'])
        call, checks_overlap = self.choice(self.OUT_CALLS)
        other = _dt(self.choice(['float32', 'float64', 'int64', 'int32', 'bool', 'float16', 'complex64']))
        outs = ['torch.empty(0, dtype=a.dtype)', 'torch.zeros(6, dtype=a.dtype)[:2]']
        if 'nonzero' not in call:  # the reference's nonzero writes a resized view column by column
            outs += ['b[4:]', 'b.view(2, 4)', 'b[:3]']
        if 'where' not in call and 'nonzero' not in call:  # the reference's where fails an internal assert
            outs += ['torch.empty(0, dtype=%s)' % other, 'torch.zeros(2, dtype=%s)' % other,
                     'torch.zeros(9, dtype=%s)[::2]' % other, 'torch.zeros(3, 2, dtype=%s).t()' % other]
        if checks_overlap:  # the reference leaves the rest unchecked and computes garbage
            outs += ['a[0]', 'a[1:]', 'a', 'a.view(-1)[:3]', 'a.t()']
        out = self.choice(outs)
        return ('a = torch.arange(6).to(%s).reshape(3, 2)\nb = torch.zeros(8, dtype=a.dtype)\n'
                'r = %s\nresult = (r, a, b)' % (_dt(dtype), call.format(out=out)))

    def strided_inputs(self):
        """Non-contiguous and 0-dim inputs to kernels (distinct values, so selections have one answer)."""
        dtype = self.choice(['float32', 'float64', 'int64'])
        layout = self.choice(['.view(4, 5).t()', '.view(4, 5)[:, ::2]', '.view(2, 10)[:, 1::3]',
                              '.view(4, 5).t()[1:]', '[7].view(())', '.view(5, 4)[::2, 1:]', '.view(4, 5)'])
        x = 'x = (torch.arange(20) * 7 %% 20).to(%s)%s' % (_dt(dtype), layout)
        op = self.choice(['x.sum(0)', 'x.cumsum(0)', 'x.cumprod(-1)', 'x.sort(0)', 'x.sort(-1, descending=True)',
                          'x.argsort(0)', 'x.topk(1, 0)', 'x.topk(0, -1)', 'x.max(0)', 'x.min(-1)', 'x.median(0)',
                          'x.kthvalue(1, 0)', 'x.mode(0)', 'x.cummax(0)', 'x.amax(0)', 'x.argmax(-1)',
                          'x.flip(0)', 'x.roll(1, 0)', 'x.tril()', 'x.triu(1)', 'x.clamp(3, 9)', 'x.float().exp()',
                          'x.float().softmax(0)', 'x.float().logsumexp(0)', 'x.unique()', 'x.index_select(0, '
                          'torch.tensor([0]))', 'x.clone().mul_(2)', 'x.float().norm()', 'x.diag()', 'x @ x.t()',
                          'x.float().std(0)', 'x.prod(0)', 'x.masked_fill(x > 5, 0)', 'x.msort()',
                          'torch.nn.functional.embedding(torch.tensor([0, 1]), w, max_norm=3.0) + w.sum()'])
        pre = 'w = x.float().clone()\n' if 'embedding' in op else ''
        return '%s\n%sresult = %s' % (x, pre, op)

    def leaf_views(self):
        """In-place writes into a leaf that requires grad, directly and through views made before and
        after requires_grad_(), in and out of no_grad."""
        view = self.choice(['x', 'x[:2]', 'x[0]', 'x.view(3)', 'x[...]', 'x[()]', 'x.expand(3)', 'x.unsqueeze(0)',
                            'x.t()', 'x.narrow(0, 1, 2)', 'x.detach()', 'x.data', 'x.reshape(3)', 'x.flatten()',
                            'x.unbind()[0]', 'x.split(2)[0]', 'x.diagonal()', 'x.as_strided((2,), (1,))'])
        write = self.choice(['v.add_(1)', 'v.zero_()', 'v.fill_(2)', 'v.copy_(torch.ones(v.shape))', 'v.mul_(2)',
                             'v[...] = 1', 'v.clamp_(0, 1)', 'v.exp_()',
                             'torch.add(torch.ones(v.shape), 1, out=v)', 'v.index_fill_(-1, torch.tensor([0]), 1.)'])
        when = self.choice(['before', 'after'])
        shape = '(3, 3)' if view in ('x.t()', 'x.diagonal()') else '3'
        code = 'x = torch.zeros(%s)\n' % shape
        view = {'x.view(3)': 'x.view(-1)', 'x.reshape(3)': 'x.reshape(-1)'}.get(view, view) if shape != '3' else view
        if when == 'after':
            code += 'x.requires_grad_()\n'
        code += 'v = %s\n' % view
        if when == 'before':
            code += 'x.requires_grad_()\n'
        if self.chance(0.2):
            code += 'with torch.no_grad():\n    %s\n' % write
        else:
            code += '%s\n' % write
        return code + 'result = (x.detach(), x.requires_grad, x.grad_fn is None)'

    # ops with a derivative formula, applied to x (values away from the kinks at 0 and 1)
    FORMULA_OPS = ['x.abs()', 'x.relu()', 'x.sigmoid()', 'x.tanh()', 'x.exp()', 'x.sin()', 'x.cos()', 'x.square()',
                   'x.sign()', 'x.sgn()', 'x.clamp(-0.5, 0.5)', 'x.clamp_min(0.1)', 'x.max()', 'x.min()', 'x.amax(0)',
                   'x.max(0)[0]', 'x.sort(0)[0]', 'x.topk(1, 0)[0]', 'x.cumsum(0)', 'x.cumprod(0)', 'x.cummax(0)[0]',
                   'x.logsumexp(0)', 'x.softmax(0)', 'x.log_softmax(0)', 'x.norm()', 'x.std()', 'x.var(0)',
                   'x.prod()', 'x.pow(3)', 'x.abs() ** 2.5', 'x.reciprocal()',
                   'x.atan()', 'x.erf()', 'torch.nn.functional.gelu(x)', 'torch.nn.functional.elu(x)',
                   'torch.nn.functional.leaky_relu(x)', 'torch.nn.functional.softplus(x)',
                   'torch.nn.functional.silu(x)', 'torch.nn.functional.hardtanh(x)', 'torch.nn.functional.mish(x)',
                   'torch.nn.functional.hardswish(x)', 'torch.nn.functional.logsigmoid(x)', 'x.flip(0)',
                   'torch.maximum(x, x.flip(0))', 'torch.where(x > 0, x, x * x)', 'x.masked_fill(x > 0.5, 0.)',
                   'x.mean()', 'torch.atan2(x, x.flip(0) + 3)', 'x.expm1()', '(x + 2).log()']

    def higher_order(self):
        """First derivatives taken with create_graph: whether they require grad, and the second
        derivatives through them."""
        op = self.choice(self.FORMULA_OPS)
        form = self.choice(['y = %s', 'y = x * (%s)'])
        vals = self.choice(['[1.5, -2.0, 0.25, -0.75]', '[0.3, 0.7, -0.4, 2.5]', '[-1.25, 0.5, 2.9, -0.1]'])
        return ('x = torch.tensor(%s, dtype=torch.float64, requires_grad=True)\n%s\n'
                'g, = torch.autograd.grad(y.sum(), x, create_graph=True)\n'
                'g2 = torch.autograd.grad(g.sum(), x, allow_unused=True)[0] if g.requires_grad else None\n'
                'result = (torch.zeros_like(x) + g.detach(), g.requires_grad, None if g2 is None else torch.zeros_like(x) + g2)'
                % (vals, form % op))  # + materialises the reference's unallocated zero gradients (ZeroTensor)

    def nan_reductions(self):
        """NaN and infinities into reductions and selections, forward and backward."""
        special = [self.choice(['nan', 'inf', '-inf', '1.0', '2.0', '2.0']) for _ in range(self.r.randint(1, 5))]
        vals = ', '.join(special + [self.choice(['0.5', '-3.0', '2.0'])])
        op = self.choice(['x.max()', 'x.min()', 'x.amax()', 'x.amin()', 'x.amax(0)', 'x.max(0)[0]', 'x.min(0)[0]',
                          'x.median()', 'x.nanmedian()', 'x.logsumexp(0)', 'x.norm(inf)', 'x.prod()', 'x.sum()',
                          'x.mean()', 'x.nansum()', 'x.cummax(0)[0]', 'x.sort(0)[0]', 'x.topk(1)[0]',
                          'x.kthvalue(1)[0]', 'x.softmax(0)', 'x.log_softmax(0)', 'x.argmax()', 'x.argmin()',
                          'x.aminmax()[1]', 'x.std()', 'x.max(0, keepdim=True)[0]', 'torch.maximum(x, x.flip(0))',
                          'x.clamp(0, 1)', 'x.nan_to_num()', 'x.cumsum(0)', 'x.unique()'])
        return ('x = torch.tensor([%s], requires_grad=True)\nout = %s\n'
                'if out.requires_grad:\n    out.sum().backward()\n'
                'result = (out.detach(), x.grad)' % (vals, op))

FAMILIES = [('creation', 12), ('tensor_lists', 4), ('mutated_list', 3), ('numpy_bridge', 3), ('conversion', 10),
            ('view_index', 14),
            ('setitem', 8), ('overlap', 6), ('inplace', 6), ('reduction', 10), ('binary', 8), ('misc', 5),
            ('threads', 3), ('setitem_objects', 5), ('out_args', 6), ('strided_inputs', 6), ('leaf_views', 5),
            ('higher_order', 5), ('nan_reductions', 5)]


# Where the reference itself misbehaves, what a case must give instead: the reference reads freed list
# items (undefined behaviour that happens to return a tensor) when an element's conversion empties the
# list; this project raises.
EXPECT = {'mutated_list': {'t': 'error', 'type': 'RuntimeError'}}


def _prod(xs):
    n = 1
    for x in xs:
        n *= x
    return n


def generate(seed, count, scenario_share=0.05, families=None):
    """`count` cases: {'family', 'code'[, 'expect']} programs and {'family': 'scenario', 'spec'}
    process scenarios (tools/fuzzlib/scenarios.py); only of the named families when `families` is given."""
    g = Gen(seed)
    names = [n for n, w in FAMILIES for _ in range(w) if not families or n in families]
    if families and 'scenario' not in families:
        scenario_share = 0
    if not names and scenario_share == 0:
        raise ValueError('no such family: %s (known: %s)' % (', '.join(families), ', '.join(n for n, _ in FAMILIES)))
    cases = []
    for _ in range(count):
        if not names or g.chance(scenario_share):
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
