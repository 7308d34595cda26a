"""Random numbers: values derived here, independently of the implementation, from the definition of
mt19937 (a few lines of Python below) and the conversions PyTorch documents in its source; the
generator objects and their state bytes; distributions checked statistically on fixed seeds; shapes,
dtypes, out= and in-place forms, empty, 0-dim and non-contiguous tensors, the meta device; and the
errors. The bit-for-bit comparison with PyTorch itself is tests/python/test_random_reference.py."""
import json
import math
import struct
import threading
from fractions import Fraction

import pytest

import torch
from differential import DATA

FLOATS = [torch.float16, torch.bfloat16, torch.float32, torch.float64]
INTS = [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64]


class MT19937:
    """Matsumoto and Nishimura's generator, seeded with the usual recurrence, as the reference for
    the draws (PyTorch seeds with the low 32 bits of its 64-bit seed)."""

    def __init__(self, seed):
        self.mt = [seed & 0xFFFFFFFF]
        for j in range(1, 624):
            self.mt.append((1812433253 * (self.mt[-1] ^ (self.mt[-1] >> 30)) + j) & 0xFFFFFFFF)
        self.index = 624

    def u32(self):
        if self.index == 624:
            for j in range(624):
                y = (self.mt[j] & 0x80000000) | (self.mt[(j + 1) % 624] & 0x7FFFFFFF)
                self.mt[j] = self.mt[(j + 397) % 624] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
            self.index = 0
        y = self.mt[self.index]
        self.index += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        return y ^ (y >> 18)

    def u64(self):
        return (self.u32() << 32) | self.u32()

    def uniform_f32(self):
        return (self.u32() & 0xFFFFFF) * 2.0 ** -24

    def uniform_f64(self):
        return (self.u64() & (2 ** 53 - 1)) * 2.0 ** -53


def f32(x):
    return struct.unpack('f', struct.pack('f', x))[0]


def gen(seed):
    return torch.Generator().manual_seed(seed)


# ---- the stream --------------------------------------------------------------------------------

def test_mt19937_known_answer():
    # C++ requires the 10000th output of mt19937 seeded with 5489 to be 4123659995; random_() on int32
    # keeps a draw modulo 2^31
    x = torch.empty(10000, dtype=torch.int32).random_(generator=gen(5489))
    assert x.tolist()[-1] == 4123659995 % 2 ** 31
    ref = MT19937(5489)
    assert x.tolist()[:5] == [ref.u32() % 2 ** 31 for _ in range(5)]


@pytest.mark.parametrize('seed', [0, 1, 12345, 2 ** 32 + 7, 2 ** 64 - 1])
def test_uniform_values(seed):
    ref = MT19937(seed)
    assert torch.rand(1300, generator=gen(seed)).tolist() == [ref.uniform_f32() for _ in range(1300)]
    ref = MT19937(seed)
    assert torch.rand(700, dtype=torch.float64, generator=gen(seed)).tolist() == [ref.uniform_f64() for _ in range(700)]


def test_uniform_range_is_fused():
    # x * (to - from) + from is one rounding (PyTorch's CPU kernels are compiled with FMA)
    ref = MT19937(3)
    want = []
    for _ in range(200):
        x = ref.uniform_f64()
        want.append(float(Fraction(x) * Fraction(11.25 - -3.5) + Fraction(-3.5)))  # rounded once
    assert torch.empty(200, dtype=torch.float64).uniform_(-3.5, 11.25, generator=gen(3)).tolist() == want


def test_randint_and_randperm_values():
    ref = MT19937(11)
    assert torch.randint(-5, 17, (50,), generator=gen(11)).tolist() == [ref.u32() % 22 - 5 for _ in range(50)]
    ref, n = MT19937(12), 40
    perm = list(range(n))
    for i in range(n - 1):
        z = ref.u32() % (n - i)
        perm[i], perm[i + z] = perm[i + z], perm[i]
    assert torch.randperm(n, generator=gen(12)).tolist() == perm
    # 64-bit draws for int64 ranges of 2^32 or more
    ref = MT19937(13)
    assert torch.randint(0, 2 ** 40, (20,), generator=gen(13)).tolist() == [ref.u64() % 2 ** 40 for _ in range(20)]


def test_normal_small_tensors_use_double_box_muller_and_cache():
    # fewer than 16 elements: one double sample at a time, the pair's second value kept for the next
    ref = MT19937(21)
    cached = []

    def sample():
        if cached:
            return cached.pop()
        u1, u2 = ref.uniform_f64(), ref.uniform_f64()
        r = math.sqrt(-2.0 * math.log(1.0 - u2))
        theta = 2.0 * math.pi * u1
        cached.append(r * math.sin(theta))
        return r * math.cos(theta)

    g = gen(21)
    got = torch.randn(3, dtype=torch.float64, generator=g).tolist() + torch.randn(4, dtype=torch.float64,
                                                                                 generator=g).tolist()
    assert got == [sample() for _ in range(7)]
    assert torch.randn(1, generator=g).tolist() == [f32(sample())]


def test_exponential_and_bernoulli_values():
    ref = MT19937(31)
    want = [-1.0 / 2.5 * math.log(1.0 - ref.uniform_f64()) for _ in range(100)]
    assert torch.empty(100, dtype=torch.float64).exponential_(2.5, generator=gen(31)).tolist() == want
    ref = MT19937(32)
    want = [float(ref.uniform_f64() < 0.3) for _ in range(100)]
    assert torch.empty(100).bernoulli_(0.3, generator=gen(32)).tolist() == want
    # a float32 p: 24-bit draws compared in float
    ref = MT19937(33)
    p = [k / 64 for k in range(64)]
    want = [float(ref.uniform_f32() < q) for q in p]
    assert torch.bernoulli(torch.tensor(p), generator=gen(33)).tolist() == want


def test_noncontiguous_outputs_fill_in_memory_order():
    a = torch.empty(6, 4).t().uniform_(generator=gen(5))
    b = torch.rand(24, generator=gen(5))
    assert a.t().reshape(-1).tolist() == b.tolist()
    a = torch.empty(30)[::3].random_(100, generator=gen(6))
    assert a.tolist() == torch.randint(0, 100, (10,), generator=gen(6), dtype=torch.float32).tolist()


def test_results_do_not_depend_on_threads():
    saved = torch.get_num_threads()
    try:
        torch.set_num_threads(1)
        one = [torch.rand(100000, generator=gen(3))[::997].tolist(), torch.randn(100003, generator=gen(3))[::997].tolist()]
        torch.set_num_threads(2)
        two = [torch.rand(100000, generator=gen(3))[::997].tolist(), torch.randn(100003, generator=gen(3))[::997].tolist()]
    finally:
        torch.set_num_threads(saved)
    assert one == two


# ---- generators and state ------------------------------------------------------------------------

def test_generator_objects():
    g = torch.Generator()
    assert type(g) is torch.Generator and type(torch.default_generator) is torch.Generator
    assert g.initial_seed() == 67280421310721  # PyTorch's default seed for a new generator
    assert g.device == torch.device('cpu') and torch.Generator('cpu').device == torch.device('cpu')
    assert g.manual_seed(5) is g and g.initial_seed() == 5
    assert g.manual_seed(-1).initial_seed() == 2 ** 64 - 1
    assert torch.manual_seed(7) is torch.default_generator and torch.initial_seed() == 7
    assert torch.manual_seed('8').initial_seed() == 8  # torch.manual_seed takes what int() takes
    s = g.seed()
    assert g.initial_seed() == s and 0 <= s < 2 ** 64
    with pytest.raises(AttributeError):
        g.device = torch.device('cpu')
    with pytest.raises(AttributeError):  # the op bindings trust _handle: nobody can change it
        g._handle = 12345
    with pytest.raises(TypeError):
        type('G', (torch.Generator,), {'_handle': 12345})


def test_generators_are_independent_streams():
    g, h = gen(4), gen(4)
    a = torch.rand(5, generator=g)
    torch.rand(100)  # the default generator
    assert torch.rand(5, generator=h).tolist() == a.tolist()
    assert torch.rand(5, generator=g).tolist() != a.tolist()


def test_state_layout_and_round_trip():
    g = gen(123)
    s = g.get_state()
    assert s.dtype == torch.uint8 and s.shape == (5056,)
    b = bytes(s.tolist())
    seed, left, seeded, nxt = struct.unpack('<QiiQ', b[:24])
    assert (seed, left, seeded, nxt) == (123, 1, 1, 0)
    ref = MT19937(123)
    assert list(struct.unpack('<624Q', b[24:5016])) == ref.mt
    torch.randn(1, dtype=torch.float64, generator=g)  # two 64-bit draws, one sample cached
    b = bytes(g.get_state().tolist())
    assert struct.unpack("<iiQ", b[8:24]) == (621, 1, 4)  # four words drawn since the twist
    assert struct.unpack('<i', b[5040:5044])[0] == 1  # normal_is_valid
    saved = g.get_state()
    a = [torch.randn(3, dtype=torch.float64, generator=g).tolist(), torch.rand(700, generator=g)[::50].tolist()]
    assert g.set_state(saved) is g
    assert [torch.randn(3, dtype=torch.float64, generator=g).tolist(), torch.rand(700, generator=g)[::50].tolist()] == a


def test_legacy_state_size_is_accepted():
    g = gen(9)
    torch.randn(1, dtype=torch.float64, generator=g)
    legacy = g.get_state()[:5048]
    h = torch.Generator().set_state(legacy)
    # the legacy layout kept its pending sample as rho * sin(2 pi x); get_state writes zeros there
    assert torch.randn(1, dtype=torch.float64, generator=h).tolist() == [0.0]
    assert torch.rand(3, generator=h).tolist() == torch.rand(3, generator=g).tolist()


def test_state_saved_by_pytorch_loads_here():
    """The reference's state bytes (recorded by the differential suite) restore PyTorch's stream."""
    with open(DATA / 'random.json') as f:
        recorded = json.load(f)
    key = '(lambda g: (torch.randn(5, dtype=torch.float64, generator=g), g.get_state())[1])(%s)' % (
        'torch.Generator().manual_seed(9)')
    state = torch.tensor(recorded[key]['values'], dtype=torch.uint8)
    mine = (lambda g: (torch.randn(5, dtype=torch.float64, generator=g), g.get_state())[1])(gen(9))
    assert mine.tolist() == state.tolist()
    g = torch.Generator().set_state(state)
    h = gen(9)
    torch.randn(5, dtype=torch.float64, generator=h)
    assert torch.randn(4, dtype=torch.float64, generator=g).tolist() == torch.randn(4, dtype=torch.float64,
                                                                                   generator=h).tolist()


def test_default_generator_functions_and_fork_rng():
    torch.manual_seed(3)
    saved = torch.get_rng_state()
    a = torch.rand(4).tolist()
    torch.set_rng_state(saved)
    assert torch.rand(4).tolist() == a
    with torch.random.fork_rng():
        inside = torch.rand(4).tolist()
    assert torch.rand(4).tolist() == inside


def test_threads_share_a_generator():
    g = gen(1)
    errors = []

    def work():
        try:
            for _ in range(50):
                torch.randn(1000, generator=g)
                torch.rand(7, generator=g)
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)
    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


@pytest.mark.parametrize('call, exc, message', [
    (lambda: torch.set_rng_state(torch.zeros(10, dtype=torch.uint8)), RuntimeError, 'of size 5048 or'),
    (lambda: torch.set_rng_state(torch.zeros(5056)), TypeError, 'RNG state must be a torch.ByteTensor'),
    (lambda: torch.set_rng_state([1, 2]), TypeError, 'expected a torch.ByteTensor, but got list'),
    (lambda: torch.Generator().set_state(torch.zeros(5056, dtype=torch.uint8)), RuntimeError, 'Invalid mt19937 state'),
    (lambda: torch.manual_seed(2 ** 64), RuntimeError, 'Overflow when unpacking long'),
    (lambda: torch.Generator().manual_seed(1.5), RuntimeError, 'manual_seed expected a long, but got float'),
    (lambda: torch.Generator().manual_seed(True), RuntimeError, 'but got bool'),
    (lambda: torch.Generator(device='cuda'), RuntimeError, 'Device type CUDA is not supported'),
    (lambda: torch.Generator(device='meta'), RuntimeError, 'Device type META is not supported'),
    (lambda: torch.Generator('cpu', 'cpu'), TypeError, 'at most 1 argument'),
    (lambda: torch.rand(2, generator=1), TypeError, 'generator'),
])
def test_generator_errors(call, exc, message):
    with pytest.raises(exc, match=message.replace('(', r'\(').replace('[', r'\[')):
        call()


# ---- distributions ---------------------------------------------------------------------------------

def mean(xs):
    return sum(xs) / len(xs)


def test_distribution_statistics():
    n = 200000
    u = torch.rand(n, generator=gen(1)).tolist()
    assert abs(mean(u) - 0.5) < 0.005 and min(u) >= 0 and max(u) < 1
    z = torch.randn(n, generator=gen(2)).tolist()
    m = mean(z)
    assert abs(m) < 0.01 and abs(mean([(x - m) ** 2 for x in z]) - 1) < 0.02
    e = torch.empty(n).exponential_(4.0, generator=gen(3)).tolist()
    assert abs(mean(e) - 0.25) < 0.005 and min(e) >= 0
    k = torch.empty(n).geometric_(0.2, generator=gen(4)).tolist()
    assert abs(mean(k) - 5) < 0.1 and min(k) >= 1 and all(x == int(x) for x in k[:1000])
    c = sorted(torch.empty(n).cauchy_(3.0, 0.5, generator=gen(5)).tolist())
    assert abs(c[n // 2] - 3.0) < 0.02 and abs((c[3 * n // 4] - c[n // 4]) - 1.0) < 0.05  # median, IQR = 2 sigma
    ln = sorted(torch.empty(n).log_normal_(1.0, 0.5, generator=gen(6)).tolist())
    assert abs(math.log(ln[n // 2]) - 1.0) < 0.01
    b = torch.empty(n).bernoulli_(0.3, generator=gen(7)).tolist()
    assert abs(mean(b) - 0.3) < 0.005 and set(b) == {0.0, 1.0}
    for lam in [0.5, 4.0, 37.5]:
        p = torch.poisson(torch.full((50000,), lam), gen(8)).tolist()
        assert abs(mean(p) - lam) < 0.05 * lam + 0.02 and abs(mean([(x - lam) ** 2 for x in p]) - lam) < 0.1 * lam
    r = torch.randint(-3, 4, (n,), generator=gen(9)).tolist()
    assert set(r) == set(range(-3, 4)) and all(abs(r.count(v) / n - 1 / 7) < 0.005 for v in range(-3, 4))


def test_multinomial():
    p = torch.tensor([0.1, 0.2, 0.3, 0.4])
    s = torch.multinomial(p, 100000, True, generator=gen(1)).tolist()
    assert all(abs(s.count(i) / 1e5 - p.tolist()[i]) < 0.01 for i in range(4))
    picks = torch.multinomial(torch.tensor([[0.0, 5.0, 0.0, 1.0], [1.0, 0.0, 0.0, 0.0]]), 2, generator=gen(2)).tolist()
    assert sorted(picks[0]) == [1, 3] and picks[1][0] == 0  # zero-probability categories come last
    for row in torch.multinomial(torch.rand(20, 30, generator=gen(3)), 30, generator=gen(4)).tolist():
        assert sorted(row) == list(range(30))  # without replacement: every category once
    assert torch.multinomial(torch.ones(5), 3, generator=gen(5)).dtype == torch.int64
    assert torch.multinomial(torch.ones(2, 5), 3, generator=gen(5)).shape == (2, 3)
    out = torch.empty(7, dtype=torch.int64)
    assert torch.multinomial(torch.ones(5), 3, out=out) is out and out.shape == (3,)


def test_randperm_is_a_permutation():
    for n, dtype in [(1000, torch.int64), (256, torch.uint8), (2049, torch.float16), (77, torch.float64)]:
        p = torch.randperm(n, dtype=dtype, generator=gen(n))
        assert p.dtype == dtype and sorted(p.tolist()) == list(range(n))
    assert torch.randperm(0).tolist() == [] and torch.randperm(1).tolist() == [0]


# ---- shapes, dtypes, variants ---------------------------------------------------------------------

@pytest.mark.parametrize('dtype', FLOATS)
def test_float_fills_keep_shape_dtype_and_range(dtype):
    for shape in [(), (0,), (5,), (16,), (17,), (3, 0, 2), (4, 5)]:
        x = torch.empty(shape, dtype=dtype)
        for fill, lo, hi in [(lambda t: t.uniform_(2, 3), 2, 3), (lambda t: t.normal_(0, 1), -10, 10),
                             (lambda t: t.exponential_(), 0, math.inf), (lambda t: t.random_(5), 0, 4),
                             (lambda t: t.geometric_(0.5), 1, math.inf), (lambda t: t.log_normal_(), 0, math.inf)]:
            y = fill(x)
            assert y is x and y.shape == shape and y.dtype == dtype
            vals = y.reshape(-1).tolist()
            assert all(lo <= v <= hi for v in vals), (fill, vals)


@pytest.mark.parametrize('dtype', [torch.bool] + INTS)
def test_integer_fills(dtype):
    info = {torch.bool: (0, 1), torch.uint8: (0, 255), torch.int8: (-128, 127), torch.int16: (-2 ** 15, 2 ** 15 - 1),
            torch.int32: (-2 ** 31, 2 ** 31 - 1), torch.int64: (-2 ** 63, 2 ** 63 - 1)}[dtype]
    x = torch.empty(300, dtype=dtype).random_(generator=gen(1))
    assert x.dtype == dtype and all(0 <= v <= info[1] for v in x.tolist())
    y = torch.empty(300, dtype=dtype).bernoulli_(0.5, generator=gen(2)).tolist()
    assert set(y) <= {0, 1}
    if dtype != torch.bool:
        z = torch.empty(300, dtype=dtype).random_(info[0] if dtype != torch.int64 else -50, 7, generator=gen(3)).tolist()
        assert all(v < 7 for v in z)


def test_creation_functions():
    assert torch.rand(2, 3).shape == (2, 3) and torch.rand((2, 3)).dtype == torch.float32
    assert torch.randn(2, 3, dtype=torch.float64).dtype == torch.float64
    assert torch.randint(5, (4,)).dtype == torch.int64 and torch.randint(2, 5, (4,), dtype=torch.int16).dtype == torch.int16
    assert torch.randperm(4).dtype == torch.int64
    assert torch.normal(2.0, 3.0, (2, 2)).shape == (2, 2)
    assert torch.normal(torch.zeros(2, 1), torch.ones(3)).shape == (2, 3)
    t = torch.ones(3, 4).t()
    like = torch.rand_like(t)
    assert like.shape == (4, 3) and like.stride() == t.stride()  # rand_like keeps the memory order
    assert torch.randint_like(t, 3, 9).dtype == torch.float32
    assert torch.bernoulli(torch.full((3,), 0.5, dtype=torch.float64)).dtype == torch.float64
    out = torch.empty(1)
    assert torch.rand(2, 3, out=out) is out and out.shape == (2, 3)
    out = torch.empty(3, dtype=torch.float64)  # out takes part in the broadcast, as in PyTorch
    assert torch.normal(torch.zeros(3), 1.0, out=out) is out and out.shape == (3,)


def test_normal_forms_agree_with_their_definition():
    mean = torch.arange(6.0).view(2, 3)
    # normal(mean, std) draws N(0, std) and adds mean
    assert torch.normal(mean, 0.5, generator=gen(4)).tolist() == (
        torch.empty(2, 3).normal_(0, 0.5, generator=gen(4)) + mean).tolist()
    std = torch.tensor([0.5, 1.0, 2.0])
    z = torch.empty(3).normal_(generator=gen(5))
    assert torch.normal(1.5, std, generator=gen(5)).tolist() == (z * std + 1.5).tolist()


def test_meta_device():
    assert torch.rand(2, 3, device='meta').device == torch.device('meta')
    assert torch.randn(20, device='meta').shape == (20,)
    assert torch.randint(3, (2,), device='meta').dtype == torch.int64
    assert torch.empty(3, device='meta').normal_().shape == (3,)
    assert torch.normal(torch.ones(2, device='meta'), torch.ones(2, device='meta')).device == torch.device('meta')
    assert torch.randperm(4, device='meta').shape == (4,)
    assert torch.bernoulli(torch.ones(2, device='meta')).shape == (2,)


@pytest.mark.parametrize('call, message', [
    (lambda: torch.empty(3, dtype=torch.int64).uniform_(), '"check_uniform_bounds" not implemented for \'Long\''),
    (lambda: torch.empty(3, dtype=torch.bool).normal_(), '"normal_kernel_cpu" not implemented for \'Bool\''),
    (lambda: torch.empty(3).uniform_(2, 1), 'uniform_ expects to return a [from, to) range, but found from=2 > to=1'),
    (lambda: torch.empty(3).normal_(0, -1), 'normal expects std >= 0.0, but found std -1'),
    (lambda: torch.empty(3).random_(5, 5), "random_ expects 'from' to be less than 'to', but got from=5 >= to=5"),
    (lambda: torch.empty(3, dtype=torch.uint8).random_(-3, 5), 'from is out of bounds for unsigned char'),
    (lambda: torch.empty(3).exponential_(-1), 'exponential_ expects lambda >= 0.0, but found lambda=-1'),
    (lambda: torch.empty(3).geometric_(1), 'geometric_ expects p to be in (0, 1), but got p=1'),
    (lambda: torch.empty(3).log_normal_(0, 0), 'log_normal_ expects std > 0.0, but found std=0'),
    (lambda: torch.empty(3).bernoulli_(1.5), 'bernoulli_ expects p to be in [0, 1], but got p=1.5'),
    (lambda: torch.empty(3).bernoulli_(torch.tensor([0.5, 2.0, 0.5])), 'Expected p_in >= 0 && p_in <= 1'),
    (lambda: torch.empty(1).expand(3).uniform_(), 'more than one element of the written-to tensor'),
    (lambda: torch.multinomial(torch.tensor([0.0, 0.0]), 1), 'sum of probabilities <= 0'),
    (lambda: torch.multinomial(torch.tensor([0.5, 0.5]), 3), 'cannot sample n_sample > prob_dist.size(-1)'),
    (lambda: torch.multinomial(torch.ones(3), 0), 'cannot sample n_sample <= 0 samples'),
    (lambda: torch.multinomial(torch.ones(3, dtype=torch.int64), 1), 'only supports floating-point dtypes'),
    (lambda: torch.poisson(torch.tensor([-1.0])), 'invalid Poisson rate'),
    (lambda: torch.randperm(300, dtype=torch.uint8), 'value cannot be converted to type uint8_t without overflow'),
    (lambda: torch.randperm(3000, dtype=torch.float16), 'n cannot be greater than 2049 for Half type.'),
    (lambda: torch.normal(0.0, torch.tensor([1.0, -1.0])), 'normal expects all elements of std >= 0.0'),
])
def test_errors(call, message):
    with pytest.raises(RuntimeError) as info:
        call()
    assert message in str(info.value)


def test_out_of_range_warnings():
    with pytest.warns(UserWarning, match=r'to - 1 is out of bounds \[-\(2\^24\), 2\^24\]'):
        torch.empty(3).random_(0, 2 ** 25)
