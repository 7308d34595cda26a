"""torch.distributions beyond what the recorded differential suite (test_distributions_reference.py)
covers: loading on first use, the registries (register_kl dispatch, biject_to/transform_to round
trips), validation switches, subclassing rules, and the samplers' statistics in regimes the recorded
draws do not reach."""
import math
import pickle
import subprocess
import sys

import pytest
import torch
from torch.distributions import constraints, transforms as T
import torch.distributions as D


def test_loaded_on_first_use():
    code = ('import sys, torch; before = "torch.distributions" in sys.modules; '
            'd = torch.distributions.Normal(0., 1.); print(before, "torch.distributions" in sys.modules)')
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ['False', 'True']


def test_from_import_without_attribute_access():
    code = 'from torch.distributions.normal import Normal; from torch.distributions import kl_divergence; print(1)'
    assert subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, check=True).stdout == '1\n'


def test_register_kl_most_specific_wins():
    class MyNormal(D.Normal):
        pass

    @D.register_kl(MyNormal, D.Normal)
    def _kl(p, q):
        return torch.tensor(42.)
    try:
        assert D.kl_divergence(MyNormal(0., 1.), D.Normal(0., 1.)).item() == 42.
        assert D.kl_divergence(D.Normal(0., 1.), MyNormal(0., 1.)).item() == 0.
    finally:
        del D.kl._KL_REGISTRY[MyNormal, D.Normal]
        D.kl._KL_MEMOIZE.clear()


def test_register_kl_ambiguous_warns():
    class A(D.Normal):
        pass

    class B(D.Normal):
        pass
    D.register_kl(A, D.Normal)(lambda p, q: torch.tensor(1.))
    D.register_kl(D.Normal, B)(lambda p, q: torch.tensor(2.))
    try:
        with pytest.warns(RuntimeWarning, match='Ambiguous kl_divergence'):
            D.kl_divergence(A(0., 1.), B(0., 1.))
    finally:
        del D.kl._KL_REGISTRY[A, D.Normal], D.kl._KL_REGISTRY[D.Normal, B]
        D.kl._KL_MEMOIZE.clear()


def test_kl_registry_is_the_reference_one():
    assert len(D.kl._KL_REGISTRY) == 87


ROUND_TRIP = [constraints.real, constraints.positive, constraints.nonnegative, constraints.unit_interval,
              constraints.interval(-2., 3.), constraints.half_open_interval(0., 5.), constraints.greater_than(1.5),
              constraints.greater_than_eq(-1.), constraints.less_than(2.), constraints.simplex,
              constraints.corr_cholesky, constraints.independent(constraints.positive, 1), constraints.real_vector,
              constraints.cat([constraints.positive, constraints.real], dim=-1, lengths=[3, 3]),
              constraints.stack([constraints.positive, constraints.unit_interval], dim=0)]


@pytest.mark.parametrize('c', ROUND_TRIP, ids=repr)
def test_biject_to_round_trip(c):
    torch.manual_seed(0)
    t = D.biject_to(c)
    x = torch.randn(2, 6, dtype=torch.float64)
    if isinstance(t, T.CorrCholeskyTransform):
        x = x[:, :3]
    y = t(x)
    assert c.check(y).all()
    assert torch.allclose(t.inv(y), x, atol=1e-8)
    assert t.bijective


def test_transform_to_lands_in_constraint():
    torch.manual_seed(0)
    for c in ROUND_TRIP + [constraints.lower_cholesky]:
        x = torch.randn(2 if isinstance(c, constraints._Stack) else 3, 6, dtype=torch.float64)
        y = D.transform_to(c)(x[:, :3] if c in (constraints.corr_cholesky, constraints.lower_cholesky) else x)
        assert c.check(y).all()
    assert constraints.lower_cholesky.check(D.transform_to(constraints.lower_cholesky)(torch.randn(3, 3))).all()
    with pytest.raises(NotImplementedError, match='Cannot transform _Multinomial constraints'):
        D.biject_to(constraints.multinomial(3))


def test_registry_register_checks_type():
    with pytest.raises(TypeError, match='Expected constraint to be either a Constraint subclass or instance'):
        D.biject_to.register(3, lambda c: T.ExpTransform())


def test_log_abs_det_jacobian_matches_autograd():
    x = torch.tensor([0.3, -1.2, 2.0], dtype=torch.float64)
    for t in [T.ExpTransform(), T.SigmoidTransform(), T.TanhTransform(), T.SoftplusTransform(),
              T.AffineTransform(0.5, -3.0), T.PowerTransform(torch.tensor(2.5, dtype=torch.float64)).inv]:
        xx = x.abs() + 0.1 if isinstance(t, T._InverseTransform) else x
        jac = torch.autograd.functional.jacobian(t, xx)
        assert torch.allclose(t.log_abs_det_jacobian(xx, t(xx)), jac.diagonal().abs().log())


def test_cache_returns_the_same_tensor_and_pickles():
    t = T.ExpTransform(cache_size=1)
    x = torch.randn(3)
    y = t(x)
    assert t.inv(y) is x and t(x) is y
    clone = pickle.loads(pickle.dumps(T.ComposeTransform([T.ExpTransform(), T.AffineTransform(1., 2.)])))
    assert clone.parts[1].scale == 2.


def test_default_validation_switch():
    try:
        D.Distribution.set_default_validate_args(False)
        assert D.Normal(0., -1.).scale.item() == -1.
    finally:
        D.Distribution.set_default_validate_args(True)
    with pytest.raises(ValueError, match='to satisfy the constraint GreaterThan'):
        D.Normal(0., -1.)
    assert D.Normal(0., -1., validate_args=False).scale.item() == -1.


def test_subclass_with_init_needs_expand():
    class Shifted(D.Normal):
        def __init__(self, loc):
            super().__init__(loc, torch.ones_like(loc))
    with pytest.raises(NotImplementedError, match='Subclass Shifted of Normal that defines a custom __init__'):
        Shifted(torch.zeros(2)).expand((3, 2))


def test_missing_arg_constraints_warns():
    class Bare(D.Distribution):
        def __init__(self):
            super().__init__(torch.Size(), validate_args=True)
    with pytest.warns(UserWarning, match='does not define `arg_constraints`'):
        Bare()


def test_lazy_property_computed_once_with_grad():
    p = torch.tensor([0.2, 0.8], requires_grad=True)
    with torch.no_grad():
        d = D.Bernoulli(probs=p)
        logits = d.logits
    assert logits.requires_grad and 'logits' in d.__dict__ and d.logits is logits
    assert isinstance(D.Bernoulli.logits, property)


# means of many draws against the analytic ones: the samplers' regimes the recorded draws do not reach
STATS = [
    lambda: D.Gamma(torch.tensor([0.05, 0.7, 3.0, 250.0]), torch.tensor([1.0, 2.0, 0.5, 4.0])),
    lambda: D.Beta(torch.tensor([0.1, 2.0, 50.0]), torch.tensor([0.3, 2.0, 20.0])),
    lambda: D.Dirichlet(torch.tensor([0.05, 1.0, 30.0], dtype=torch.float64)),
    lambda: D.Binomial(torch.tensor([3., 40., 10000.]), torch.tensor([0.5, 0.7, 0.01])),
    lambda: D.Poisson(torch.tensor([0.1, 9.0, 300.0])),
    lambda: D.NegativeBinomial(torch.tensor([2.0, 30.0]), torch.tensor([0.3, 0.6])),
    lambda: D.VonMises(torch.tensor([0.0, 1.0]), torch.tensor([0.5, 20.0])),
    lambda: D.Geometric(torch.tensor([0.05, 0.9])),
    lambda: D.StudentT(torch.tensor([5.0, 30.0])),
    lambda: D.Chi2(torch.tensor([0.5, 12.0])),
]


@pytest.mark.parametrize('make', STATS, ids=lambda m: type(m()).__name__)
def test_sample_mean(make):
    torch.manual_seed(1)
    d = make()
    x = d.sample((40000,)).double()
    mean, std = d.mean.double(), d.stddev.double()
    if isinstance(d, D.VonMises):  # the circular mean
        mean, std = d.loc.double(), torch.ones_like(d.loc).double()
        x = torch.atan2(x.sin().mean(0), x.cos().mean(0)).unsqueeze(0)
        assert torch.allclose(x[0], mean, atol=0.05)
        return
    assert (((x.mean(0) - mean) / (std / math.sqrt(40000))).abs() < 5).all(), (x.mean(0), mean)


def test_gamma_rsample_gradient_is_implicit():
    # d x / d alpha for x = F^-1(u; alpha) at fixed u, by finite differences of the gamma cdf
    alpha = torch.tensor([0.4, 3.0, 15.0], dtype=torch.float64, requires_grad=True)
    torch.manual_seed(0)
    x = D.Gamma(alpha, torch.ones(3, dtype=torch.float64)).rsample()
    (g,) = torch.autograd.grad(x.sum(), alpha)
    h = 1e-6
    a = alpha.detach()

    def cdf(a, x):  # the regularized lower incomplete gamma function by its series
        k = torch.arange(200, dtype=torch.float64).unsqueeze(-1)
        return (a * torch.log(x) - x - torch.lgamma(a + 1 + k) + k * torch.log(x)).exp().sum(0)
    dF_da = (cdf(a + h, x.detach()) - cdf(a - h, x.detach())) / (2 * h)
    pdf = (torch.xlogy(a - 1, x.detach()) - x.detach() - torch.lgamma(a)).exp()
    assert torch.allclose(g, -dF_da / pdf, rtol=2e-3)
