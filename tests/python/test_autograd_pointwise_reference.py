"""Differential suite of the pointwise family's derivatives against the reference PyTorch (1.13.1).

Each case runs an op of the pointwise family (math, powers, rounding, two- and three-operand ops,
their in-place forms, aliases and torch.special names, Python operators) on float64 leaves that
include the values where PyTorch's formulas choose (a zero base or exponent of pow, a zero of xlogy,
a NaN of fmax, bounds crossing in clamp, ends of logit's domain), and reports the autograd node's
name, the first derivatives for a fixed vector, and the derivatives of those (double backward).
tests/python/test_autograd_ops.py gradchecks the same formulas; this suite pins what gradcheck
cannot see: PyTorch's node names, its choices at kinks and outside a domain, and result dtypes.
The reference's side is recorded in tests/data/reference/autograd_pointwise.json by
`tools/record_reference autograd_pointwise` (differential.py explains the comparison).
"""
import pytest

from differential import Suite

M = [-1.5, -0.7, -0.2, 0.0, 0.3, 0.9, 1.4, 2.0]      # mixed signs, a zero
P = [0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.5, 3.0]       # positive
U = [-0.9, -0.5, -0.1, 0.0, 0.2, 0.6, 0.8, 0.95]     # inside (-1, 1)
Q = [0.0, 0.05, 0.2, 0.5, 0.8, 0.95, 1.0, 1.2]       # logit's domain, its ends and beyond
B = [-1.0, -0.3, 0.0, 0.3, 0.9, 1.4, 0.9, -2.0]      # a second operand (ties with M at 0.3 and 0.9)
E = [0.0, 1.0, -1.0, 2.0, 0.5, -0.5, 0.0, 3.0]       # exponents, zeros among them
Z = [0.0, 0.0, 1.0, 2.0, 0.0, -1.0, 0.5, 0.0]        # zeros
N = [float('nan'), 1.0, float('inf'), -float('inf'), 0.0, -0.0, 2.0, -3.0]
M1 = [v + 1.5 for v in P]                            # above 1 (acosh)


def leaf(values, dtype='float64'):
    return 'torch.tensor(%r, dtype=torch.%s, requires_grad=True)' % (values, dtype)


def _leaves(inputs, dtype='float64'):
    return '[%s]' % ', '.join(leaf(v, dtype) for v in inputs)


def _result(call):
    """`call` (an expression over x, y, w) on the leaves xs."""
    return '(lambda x, y=None, w=None: %s)(*xs)' % call


def case(call, *inputs, second=True, dtype='float64'):
    """An expression giving (node name, first derivatives, second derivatives or None) of `call`, an
    expression over the leaves x, y, w made from `inputs`: the result's gradient for the vector
    linspace(0.5, 1.5), then, with the graph of that, the gradient of its dot product with
    linspace(-1, 1) (only of the derivatives that depend on the leaves)."""
    gs = ('torch.autograd.grad(out, xs, torch.linspace(0.5, 1.5, out.numel(), dtype=out.dtype).reshape(out.shape), '
          'create_graph=%s, allow_unused=True)' % second)
    twice = ('torch.autograd.grad([g for g in gs if g is not None and g.requires_grad], xs, '
             '[torch.linspace(-1, 1, g.numel(), dtype=g.dtype).reshape(g.shape) '
             'for g in gs if g is not None and g.requires_grad], allow_unused=True)') if second else 'None'
    return ('(lambda xs: (lambda out: (lambda gs: (out.grad_fn.name(), gs, %s))(%s))(%s))(%s)'
            % (twice, gs, _result(call), _leaves(inputs, dtype)))


def name(call, *inputs):
    """An expression giving the name of the node of `call`'s result (None without one)."""
    return '(lambda xs: (lambda out: out.grad_fn.name() if out.grad_fn is not None else None)(%s))(%s)' % (
        _result(call), _leaves(inputs))


def raises(call, *inputs):
    """An expression whose backward raises (PyTorch declares no derivative)."""
    return ('(lambda xs: (lambda out: torch.autograd.grad(out.sum(), xs, allow_unused=True))(%s))(%s)'
            % (_result(call), _leaves(inputs)))


UNARY = [  # (call over x, its input)
    ('x.tan()', M), ('x.asin()', U), ('x.acos()', U), ('x.atan()', M), ('x.sinh()', M), ('x.cosh()', M),
    ('x.asinh()', M), ('x.acosh()', M1), ('x.atanh()', U), ('torch.arcsin(x)', U), ('torch.arccos(x)', U),
    ('torch.arctan(x)', M), ('torch.arcsinh(x)', M), ('torch.arccosh(x)', M1), ('torch.arctanh(x)', U),
    ('x.exp2()', M), ('x.expm1()', M), ('x.log2()', P), ('x.log10()', P), ('x.log1p()', P), ('x.rsqrt()', P),
    ('x.reciprocal()', M), ('x.erf()', M), ('x.erfc()', M), ('x.erfinv()', U), ('x.lgamma()', P), ('x.digamma()', P),
    ('x.deg2rad()', M), ('x.rad2deg()', M), ('x.logit()', Q), ('x.logit(0.1)', Q), ('x.logit()', M),
    ('torch.polygamma(2, x)', P), ('x.polygamma(1)', P), ('torch.mvlgamma(x, 3)', M1), ('torch.mvlgamma(x, 1)', M1),
    ('x.frac()', M), ('x.negative()', M), ('x.nan_to_num()', N), ('x.nan_to_num(1.0, 2.0, -2.0)', N),
    ('torch.special.expit(x)', P), ('torch.special.erf(x)', M), ('torch.special.erfc(x)', M),
    ('torch.special.erfinv(x)', U), ('torch.special.exp2(x)', M), ('torch.special.expm1(x)', M),
    ('torch.special.log1p(x)', P), ('torch.special.digamma(x)', P), ('torch.special.psi(x)', P),
    ('torch.special.gammaln(x)', P), ('torch.special.logit(x)', Q), ('torch.special.logit(x, eps=0.1)', Q),
    ('torch.special.polygamma(1, x)', P), ('torch.special.multigammaln(x, 2)', M1),
    ('x ** 2', M), ('x ** 0', M), ('x ** -1.5', P), ('x.pow(3)', M), ('x.pow(0.5)', P), ('2.5 ** x', M),
    ('torch.pow(2.5, x)', M), ('torch.pow(0.0, x)', E), ('torch.pow(-2, x)', E), ('torch.float_power(x, 2)', M),
    ('torch.float_power(2, x)', M), ('torch.float_power(x, 0)', M),
]
INPLACE = [  # in place on a copy of the leaf
    ('x.clone().tan_()', M), ('x.clone().asin_()', U), ('x.clone().arctanh_()', U), ('x.clone().erfinv_()', U),
    ('x.clone().polygamma_(2)', P), ('x.clone().mvlgamma_(2)', M1), ('x.clone().logit_(0.1)', Q),
    ('x.clone().pow_(2)', M), ('x.clone().float_power_(1.5)', P), ('x.clone().nan_to_num_()', N),
    ('x.clone().negative_()', M), ('x.clone().frac_()', M), ('x.clone().rsqrt_()', P),
]
ZERO = [  # piecewise constant: zero gradients, and PyTorch's node names
    ('x.floor()', M), ('x.ceil()', M), ('x.round()', M), ('x.trunc()', M), ('x.round(decimals=1)', M),
    ('x.fix()', M), ('x.sign()', M), ('torch.special.round(x)', M), ('x.clone().round_(decimals=1)', M),
    ('x.clone().fix_()', M), ('x.clone().eq_(0.3)', M), ('x.clone().ne_(0.3)', M), ('x.clone().lt_(0.3)', M),
    ('x.clone().not_equal_(0.3)', M), ('x.clone().greater_equal_(0.3)', M), ('x.clone().less_(0.3)', M),
]
BINARY = [  # (call over x and y, their inputs, second derivatives)
    ('torch.atan2(x, y)', M, B, True), ('torch.arctan2(x, y)', M, B, True), ('x.clone().atan2_(y)', M, B, True),
    ('torch.hypot(x, y)', M, B, True), ('torch.copysign(x, y)', M, B, False), ('torch.copysign(x, -1.0)', M, B, False),
    ('torch.copysign(x, y)', Z, B, False), ('x.clone().copysign_(2)', M, B, False),
    ('torch.xlogy(x, y)', Z, P, True), ('torch.xlogy(x, y)', M, P, True),
    ('torch.xlogy(x, y)', [0.0, 0.0, 1.0, 2.0], [0.0, -1.0, 0.0, -1.0], False),
    ('torch.xlogy(2.0, y)', M, P, True), ('torch.xlogy(x, 3.0)', Z, P, True), ('torch.xlogy(x, 0.0)', Z, P, False),
    ('torch.xlogy(x, -1.0)', Z, P, False), ('x.clone().xlogy_(y)', M, P, True),
    ('torch.special.xlogy(x, y)', Z, P, True), ('torch.special.xlogy(2.0, y)', M, P, True),
    ('torch.special.xlogy(x, 3.0)', Z, P, True),
    ('torch.fmax(x, y)', N, B, False), ('torch.fmin(x, y)', N, B, False), ('torch.fmax(x, y)', M, B, False),
    ('torch.fmin(y, x)', M, B, False),
    ('torch.fmod(x, y)', M, P, False), ('torch.fmod(x, 0.7)', M, P, False), ('x.clone().fmod_(y)', M, P, False),
    ('torch.remainder(x, 0.7)', M, P, False), ('x % 0.7', M, P, False), ('x.clone().remainder_(0.7)', M, P, False),
    ('torch.pow(x, y)', M, E, False), ('torch.pow(x, y)', Z, E, False), ('x ** y', B, E, False),
    ('x.clone().pow_(y)', P, E, True), ('torch.pow(x, y)', P, M, True),
    ('torch.float_power(x, y)', Z, E, False), ('torch.float_power(x, y)', P, M, True),
    ('x.clamp(y)', M, U, False), ('x.clamp(None, y)', M, U, False), ('x.clamp(max=y)', M, U, False),
    ('x.clamp(-0.5, 0.9)', M, U, False), ('x.clamp(0.3)', M, U, False), ('x.clamp(max=0.3)', M, U, False),
    ('x.clamp(0.9, -0.5)', M, U, False), ('x.clip(-0.5, 0.9)', M, U, False), ('x.clip(y)', M, U, False),
    ('x.clamp_min(y)', M, U, False), ('x.clamp_min(0.3)', M, U, False), ('x.clamp_max(y)', M, U, False),
    ('x.clamp_max(0.3)', M, U, False), ('x.clone().clamp_(y)', M, U, False), ('x.clone().clip_(0.3)', M, U, False),
    ('x.clone().clamp_min_(y)', M, U, False), ('x.clone().clamp_max_(0.3)', M, U, False),
    ('x.lerp(y, 0.3)', M, B, False), ('x.clone().lerp_(y, 2)', M, B, False),
]
TERNARY = [  # (call over x, y and w, their inputs, second derivatives)
    ('x.clamp(y, w)', M, U, P, False), ('x.clamp(w, y)', M, U, P, False), ('x.clip(y, w)', M, U, P, False),
    ('x.clone().clamp_(y, w)', M, U, P, False), ('x.lerp(y, w)', M, B, U, True),
    ('x.clone().lerp_(y, w)', M, B, U, True),
    ('x.addcmul(y, w, value=0.5)', M, B, U, True), ('x.clone().addcmul_(y, w)', M, B, U, True),
    ('x.addcdiv(y, w, value=-2)', M, B, P, True), ('x.clone().addcdiv_(y, w)', M, B, P, True),
    ('torch.where(x > 0, y, w)', M, B, U, False),
]


def _cases():
    out = []
    for call, x in UNARY + INPLACE:
        out.append(case(call, x))
    for call, x in ZERO:
        out.append(case(call, x, second=False))
    for call, x, y, second in BINARY:
        out.append(case(call, x, y, second=second))
    for call, x, y, w, second in TERNARY:
        out.append(case(call, x, y, w, second=second))
    # float_power computes in float64: float32 leaves get float32 gradients
    out.append(case('torch.float_power(x, y)', P, M, dtype='float32', second=False))
    out.append(case('torch.float_power(x, 2)', M, dtype='float32', second=False))
    # node names only: sgn and abs's gradients are PyTorch's zero tensors without storage; results
    # that are not differentiable (bool tests, logical ops in place keep the history before them)
    out += [name('x.sgn()', M), name('x.absolute()', M), name('x.clone().sgn_()', M),
            name('x.clone().absolute_()', M), name('torch.signbit(x)', M), name('x.isnan()', M),
            name('x.eq(0.3)', M), name('x.clone().logical_and_(y)', M, B),
            name('x.clone().logical_not_()', M), name('torch.where(x > 0, x, 0.)', M),
            name('torch.where(x > 0, 0., x)', M)]
    # PyTorch declares these without derivatives: backward raises
    out += [name('x.heaviside(y)', M, B), raises('x.heaviside(y)', M, B),
            raises('x.clone().heaviside_(y)', M, B), name('x.nextafter(y)', M, B),
            raises('x.nextafter(y)', M, B), name('torch.remainder(2.0, x)', P),
            raises('torch.remainder(2.0, x)', P), name('2.0 % x', P), raises('2.0 % x', P),
            name('torch.floor_divide(x, y)', M, P)]
    return out


SUITE = Suite('autograd_pointwise', _cases())
RECORDED, RUNNER, reference_request = SUITE.recorded, SUITE.runner, SUITE.reference_request
reports = SUITE.fixture()


@pytest.mark.parametrize('expr', SUITE.expressions)
def test_matches_reference(reports, expr):
    SUITE.check(reports, expr)
