"""DIFFERENTIAL TEST OF THE RANDOM NUMBERS AGAINST THE REFERENCE PYTORCH (1.13.1): bit for bit.

Every expression draws from a generator seeded inside the expression (torch.Generator().manual_seed(s),
or torch.manual_seed(s) first for the functions that only use the default generator), so each one is
reproducible on its own, and both sides must give exactly the same values: no tolerance, -0.0 unequal
to 0.0. The expressions cover every random function and in-place fill x dtype x size (under 16, 16,
17, 1003 for the paths that change at 16 elements, 0-dim, empty, transposed, strided, permuted), the
generator's state bytes, the Box-Muller cache shared by successive calls, and the errors.

The reference's results are recorded in tests/data/reference/random.json by tools/record_reference
(see tests/python/differential.py); large results are sliced in the expression so that the file stays
small. Nothing at module level may import this project's torch (the recorder loads this file by path).
"""

import pytest

from differential import Suite

FLOATS = ['float16', 'bfloat16', 'float32', 'float64']
INTS = ['uint8', 'int8', 'int16', 'int32', 'int64']
ALL = ['bool'] + INTS + FLOATS


def G(seed):
    return 'torch.Generator().manual_seed(%d)' % seed


# (a tensor to fill, what to apply to the result to keep the recording small)
SHAPES = [
    ('torch.empty(5, dtype=torch.{d})', ''),
    ('torch.empty(16, dtype=torch.{d})', ''),
    ('torch.empty(17, dtype=torch.{d})', ''),
    ('torch.empty(1003, dtype=torch.{d})', '[::41]'),
    ('torch.empty(40, 25, dtype=torch.{d}).t()', '.flatten()[::29]'),
    ('torch.empty(60, dtype=torch.{d})[::3]', ''),
    ('torch.empty(3, 4, 5, dtype=torch.{d}).permute(2, 0, 1)', '.flatten()[::3]'),
    ('torch.empty((), dtype=torch.{d})', ''),
    ('torch.empty(0, 3, dtype=torch.{d})', ''),
]

FLOAT_FILLS = ['uniform_({g})', 'uniform_(-2.5, 4, {g})', 'normal_({g})', 'normal_(1.5, 0.25, {g})',
               'exponential_(1.5, {g})', 'cauchy_(0.5, 2, {g})', 'log_normal_(0.1, 0.6, {g})', 'geometric_(0.3, {g})',
               'random_({g})', 'random_(10, {g})', 'random_(-7, 12, {g})', 'random_(3, None, {g})', 'bernoulli_(0.3, {g})']
INT_FILLS = ['random_({g})', 'random_(10, {g})', 'random_(1, None, {g})', 'geometric_(0.3, {g})', 'bernoulli_(0.3, {g})']


def _fills():
    out = []
    seed = 100
    for d in ALL:
        fills = FLOAT_FILLS if d in FLOATS else INT_FILLS if d != 'bool' else ['random_({g})', 'random_(2, {g})',
                                                                            'bernoulli_(0.3, {g})']
        for shape, keep in SHAPES:
            for f in fills:
                seed += 1
                call = f.format(g='generator=' + G(seed))
                out.append('%s.%s%s' % (shape.format(d=d), call, keep))
    return out


def _fills_with_p():
    # bernoulli_(p) with a tensor of probabilities: p's dtype picks the precision of the draws (the
    # probabilities are exact in every dtype, so that both sides start from the same values)
    out = []
    for d in ['bool', 'uint8', 'int32', 'int64', 'bfloat16', 'float32', 'float64']:
        for pd in ['bfloat16', 'float32', 'float64']:
            p = '(torch.arange(20, dtype=torch.%s) * 0.046875)' % pd
            out.append('torch.empty(20, dtype=torch.%s).bernoulli_(%s, generator=%s)' % (d, p, G(7)))
            out.append('torch.empty(3, 20, dtype=torch.%s).bernoulli_(%s, generator=%s)' % (d, p, G(8)))
            out.append('torch.empty(20, 3, dtype=torch.%s).t().bernoulli_(%s, generator=%s)' % (d, p, G(9)))
    return out


def _creation():
    out = []
    for d in FLOATS:
        for size in ['5', '16', '17', '1003']:
            keep = '[::41]' if size == '1003' else ''
            for fn in ['rand', 'randn']:
                out.append('torch.%s(%s, dtype=torch.%s, generator=%s)%s' % (fn, size, d, G(int(size)), keep))
            out.append('torch.normal(0.5, 2.0, (%s,), dtype=torch.%s, generator=%s)%s' % (size, d, G(3), keep))
        out += ['torch.rand(4, 5, dtype=torch.%s, generator=%s)' % (d, G(4)),
                'torch.randn(4, 5, dtype=torch.%s, generator=%s)' % (d, G(4)),
                'torch.randn(4, 5, out=torch.empty(5, 4, dtype=torch.%s).t(), generator=%s)' % (d, G(4)),
                'torch.normal(torch.arange(6, dtype=torch.%s).view(2, 3), 0.5, generator=%s)' % (d, G(5)),
                'torch.normal(torch.arange(20, dtype=torch.%s), 0.5, generator=%s)' % (d, G(5)),
                'torch.normal(1.5, torch.arange(6, dtype=torch.%s).view(2, 3), generator=%s)' % (d, G(6)),
                'torch.normal(1.5, torch.arange(20, dtype=torch.%s), generator=%s)' % (d, G(6)),
                'torch.normal(torch.arange(20, dtype=torch.%s), torch.arange(20, dtype=torch.%s), generator=%s)' % (d, d, G(7)),
                'torch.normal(torch.arange(3, dtype=torch.%s), torch.arange(6, dtype=torch.%s).view(2, 3), generator=%s)' % (d, d, G(7)),
                'torch.randint(3, 10, (20,), dtype=torch.%s, generator=%s)' % (d, G(8)),
                'torch.randperm(30, dtype=torch.%s, generator=%s)' % (d, G(9))]
    for d in ['bfloat16', 'float32', 'float64']:
        out += ['torch.bernoulli((torch.arange(30, dtype=torch.%s) * 0.03125), generator=%s)' % (d, G(10)),
                'torch.bernoulli((torch.arange(30, dtype=torch.%s) * 0.03125), 0.25, generator=%s)' % (d, G(11)),
                'torch.poisson((torch.arange(30, dtype=torch.%s) * 1.5), %s)' % (d, G(12)),
                'torch.poisson((torch.arange(30, dtype=torch.%s) * 1.5).view(5, 6).t(), %s)' % (d, G(12)),
                'torch.multinomial((torch.arange(30, dtype=torch.%s) * 0.03125), 10, generator=%s)' % (d, G(13)),
                'torch.multinomial((torch.arange(30, dtype=torch.%s) * 0.03125), 1, generator=%s)' % (d, G(13)),
                'torch.multinomial((torch.arange(30, dtype=torch.%s) * 0.03125), 50, True, generator=%s)' % (d, G(14)),
                'torch.multinomial((torch.arange(30, dtype=torch.%s) * 0.03125).view(5, 6), 4, generator=%s)' % (d, G(15)),
                'torch.multinomial((torch.arange(30, dtype=torch.%s) * 0.03125).view(6, 5).t(), 4, True, generator=%s)' % (d, G(15)),
                # ties among equal probabilities go where PyTorch's topk leaves them
                'torch.multinomial(torch.tensor([[0.5, 0, 0, 0, 0.5]] * 8, dtype=torch.%s), 5, generator=%s)' % (d, G(16)),
                'torch.multinomial(torch.ones(200, dtype=torch.%s), 3, generator=%s)' % (d, G(17))]
    for d in INTS + ['float16', 'bfloat16', 'float32', 'float64']:
        out += ['torch.randint(-5, 100, (30,), dtype=torch.%s, generator=%s)' % (d, G(18)),
                'torch.randperm(100, dtype=torch.%s, generator=%s)[::7]' % (d, G(19))]
    out += ['torch.randint(10, (4, 5), generator=%s)' % G(20),
            'torch.randint(0, 2**40, (20,), generator=%s)' % G(21),
            'torch.randint(-2**63, 2**63 - 1, (20,), generator=%s)' % G(22),
            'torch.randint(0, 2, (20,), dtype=torch.bool, generator=%s)' % G(23),
            'torch.randperm(1000, generator=%s)[::37]' % G(24),
            'torch.randperm(0, generator=%s)' % G(24),
            'torch.randperm(5, out=torch.empty(10, 2, dtype=torch.int64)[:, 0], generator=%s)' % G(24),
            'torch.multinomial(torch.ones(1000), 1000, generator=%s)[::37]' % G(25),
            'torch.multinomial(torch.rand(40, 100, generator=%s), 30)[::7]' % G(26),
            'torch.multinomial(torch.rand(40, 100, generator=%s), 300, True)[::7, ::11]' % G(27),
            'torch.poisson(torch.tensor([0., 1e-5, 9.99, 10., 1000., 1e6, 1e10]), %s)' % G(28),
            'torch.poisson(torch.tensor([float("inf")]), %s)' % G(28)]
    # the functions that draw from the default generator only
    for e in ['torch.rand(5)', 'torch.randn(20)[::3]', 'torch.randint(2, 9, (6,))', 'torch.randperm(8)',
              'torch.rand_like(torch.ones(3, 4).t())', 'torch.randn_like(torch.ones(20, dtype=torch.float16))',
              'torch.randn_like(torch.ones(3, 4, dtype=torch.float64))', 'torch.randint_like(torch.ones(6), 7)',
              'torch.randint_like(torch.ones(3, 4).t(), -3, 3)', 'torch.rand(3, dtype=torch.float64)']:
        out.append('[torch.manual_seed(31), %s][1]' % e)
    return out


def _streams():
    # several calls on one generator: the cached second Box-Muller sample (float64) carries over
    seq = ['torch.randn(3, dtype=torch.float64, generator=g)', 'torch.randn(2, generator=g)',
           'torch.empty(4).log_normal_(generator=g)', 'torch.randn(20, generator=g)[::5]', 'torch.rand(2, generator=g)',
           'torch.empty(5, 3).t().normal_(generator=g)', 'torch.randn(1, dtype=torch.float64, generator=g)']
    out = ['(lambda g: [%s])(%s)' % (', '.join(seq), G(41)),
           '(lambda g: [%s])(%s)' % (', '.join(reversed(seq)), G(42))]
    # state bytes: the whole state once, the bookkeeping and the cached samples often
    out += ['%s.get_state()' % G(123),
            '(lambda g: (torch.randn(5, dtype=torch.float64, generator=g), g.get_state())[1])(%s)' % G(9)]
    for pre in ['torch.rand(1, generator=g)', 'torch.rand(700, generator=g)', 'torch.randn(1, dtype=torch.float64, generator=g)',
                'torch.randn(2, dtype=torch.float64, generator=g)', 'torch.randn(40, generator=g)',
                'torch.empty(3).random_(generator=g)', 'torch.empty(3, dtype=torch.float64).random_(generator=g)']:
        out.append('(lambda g: (%s, g.get_state()[:24], g.get_state()[5016:])[1:])(%s)' % (pre, G(77)))
    # restoring states: the current layout, the legacy 5048-byte one (its pending sample is rho*sin(2 pi x))
    out += ['(lambda g, s: (g.set_state(s), torch.randn(3, dtype=torch.float64, generator=g))[1])(torch.Generator(), '
            '(lambda h: (torch.randn(1, dtype=torch.float64, generator=h), h.get_state())[1])(%s))' % G(5),
            '(lambda g, s: (g.set_state(s[:5048]), torch.randn(3, dtype=torch.float64, generator=g))[1])(torch.Generator(), '
            '(lambda h: (torch.randn(1, dtype=torch.float64, generator=h), h.get_state())[1])(%s))' % G(5),
            '(lambda g: (g.set_state(%s.get_state()), g.initial_seed(), torch.rand(3, generator=g))[1:])(torch.Generator())' % G(6),
            '[torch.manual_seed(2**64 - 1), torch.initial_seed(), torch.rand(2)][1:]',
            '[torch.manual_seed(-2**63), torch.initial_seed(), torch.rand(2)][1:]',
            '[torch.manual_seed(2**40 + 5), torch.initial_seed(), torch.rand(2)][1:]',
            '%s.initial_seed()' % G(-1),
            'torch.Generator().initial_seed()',
            'torch.Generator().get_state()[:24]']
    return out


def _errors():
    out = []
    for d in ['bool', 'uint8', 'int64']:
        for f in ['uniform_()', 'normal_()', 'exponential_()', 'cauchy_()', 'log_normal_()']:
            out.append('torch.empty(3, dtype=torch.%s).%s' % (d, f))
    out += ['torch.empty(3, dtype=torch.bool).geometric_(0.5)', 'torch.empty(3, dtype=torch.float16).bernoulli_(0.5)',
            'torch.empty(3, dtype=torch.float16).bernoulli_(torch.rand(3))',
            'torch.empty(3).bernoulli_(torch.tensor([1, 0, 1]))', 'torch.empty(3).bernoulli_(torch.rand(3).to(torch.float16))',
            'torch.empty(3).bernoulli_(torch.rand(2, 3))', 'torch.empty(3).bernoulli_(torch.rand(2))',
            'torch.empty(3).bernoulli_(torch.tensor([0.5, 1.5, 0.2]))', 'torch.empty(3).bernoulli_(1.5)',
            'torch.empty(3).bernoulli_(float("nan"))', 'torch.empty(3).uniform_(2, 1)',
            'torch.empty(3).uniform_(-1e39, 1)', 'torch.empty(3).uniform_(-3e38, 3e38)',
            'torch.empty(3, dtype=torch.float16).uniform_(-60000, 60000)', 'torch.empty(3).uniform_(float("nan"), 1)',
            'torch.empty(3).normal_(0, -1)', 'torch.empty(3).normal_(0, float("nan"))', 'torch.empty(3).random_(5, 5)',
            'torch.empty(3).random_(0)', 'torch.empty(3).random_(2**30, None)', 'torch.empty(3, dtype=torch.uint8).random_(-3, 5)',
            'torch.empty(3, dtype=torch.int8).random_(0, 2**40)', 'torch.empty(3, dtype=torch.bool).random_(5)',
            'torch.empty(3, dtype=torch.int8).random_(-2**63, None)', 'torch.empty(3, dtype=torch.float16).random_(-2**63, None)',
            'torch.empty(3, dtype=torch.float16).random_(-70000, 5)', 'torch.empty(3, dtype=torch.float16).random_(2049, None)',
            'torch.empty(3).exponential_(-1)', 'torch.empty(3).geometric_(0)', 'torch.empty(3).geometric_(1)',
            'torch.empty(3).log_normal_(0, 0)', 'torch.empty(1).expand(3).uniform_()', 'torch.empty(1).expand(3).bernoulli_(0.5)',
            'torch.empty(1).expand(3).random_(5, 2)', 'torch.empty(0).uniform_(2, 1)', 'torch.empty(0, dtype=torch.int32).normal_()',
            'torch.multinomial(torch.tensor([0.5, 0.5]), 0)', 'torch.multinomial(torch.tensor([0.5, 0.5]), 3)',
            'torch.multinomial(torch.tensor([0., 0.]), 1)', 'torch.multinomial(torch.tensor([-1., 2.]), 1)',
            'torch.multinomial(torch.tensor([float("nan"), 2.]), 2, True)', 'torch.multinomial(torch.tensor([float("inf"), 2.]), 2, True)',
            'torch.multinomial(torch.tensor([[1., 2.], [0., 0.]]), 2, True)', 'torch.multinomial(torch.tensor(0.5), 1)',
            'torch.multinomial(torch.ones(2, 2, 2), 1)', 'torch.multinomial(torch.ones(3, dtype=torch.int64), 1)',
            'torch.multinomial(torch.ones(3, dtype=torch.float16), 1)', 'torch.multinomial(torch.ones(3), 2, out=torch.empty(2))',
            'torch.multinomial(torch.ones(2**24 + 1), 1, True)', 'torch.poisson(torch.tensor([1., -1.]))',
            'torch.poisson(torch.tensor([float("nan")]))', 'torch.poisson(torch.ones(3, dtype=torch.float16))',
            'torch.poisson(torch.ones(3, dtype=torch.int64))', 'torch.randperm(-1)', 'torch.randperm(257, dtype=torch.uint8)',
            'torch.randperm(2**11 + 2, dtype=torch.float16)', 'torch.randperm(3, dtype=torch.bool)',
            'torch.randperm(5, out=torch.empty(5, dtype=torch.bool))', 'torch.randint(5, 5, (2,))', 'torch.randint(3, (2,), dtype=torch.bool)',
            'torch.randint(5, (-1,))', 'torch.rand(-1)', 'torch.rand(2, dtype=torch.int64)', 'torch.randn(2, dtype=torch.bool)',
            'torch.normal(torch.ones(2), -1.)', 'torch.normal(0., torch.tensor([1., -1.]))',
            'torch.normal(torch.ones(2), torch.ones(3))', 'torch.normal(torch.ones(2, dtype=torch.int64), torch.ones(2))',
            'torch.normal(0., -1., (2,))', 'torch.bernoulli(torch.ones(2), 2.)', 'torch.bernoulli(torch.ones(2, dtype=torch.int64))',
            'torch.rand(2, generator=1)', 'torch.manual_seed(2**64)', 'torch.manual_seed(None)',
            'torch.Generator().manual_seed(1.5)', 'torch.Generator().manual_seed(True)', 'torch.Generator().manual_seed("3")',
            'torch.Generator(device="cuda")', 'torch.Generator(device="meta")', 'torch.Generator(1)',
            'torch.set_rng_state(torch.zeros(10, dtype=torch.uint8))', 'torch.set_rng_state(torch.zeros(5056))',
            'torch.set_rng_state([1, 2])', 'torch.set_rng_state(torch.zeros(5056, dtype=torch.uint8))']
    return out


CASES = _fills() + _fills_with_p() + _creation() + _streams() + _errors()
EXACT = {d: (0.0, 0.0) for d in ['torch.float16', 'torch.bfloat16', 'torch.float32', 'torch.float64']}
STRIDED = {c for c in CASES if '_like(' in c or 'out=' in c}

SUITE = Suite('random', CASES, strided=STRIDED, tolerance=EXACT)
RECORDED, RUNNER, reference_request = SUITE.recorded, SUITE.runner, SUITE.reference_request
reports = SUITE.fixture()


@pytest.mark.parametrize('expr', SUITE.expressions)
def test_matches_reference(reports, expr):
    SUITE.check(reports, expr)
