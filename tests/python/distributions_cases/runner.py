# Cases of torch.distributions, evaluated with whichever torch is importable (this project's, or the
# reference PyTorch 1.13.1 under tools/record_reference). Writes {case: report} as JSON; a report is
# ["ok", value] or ["err", exception class, message]. Values are nested lists of floats, ints, bools
# and strings; tensors become ["T", dtype, shape, flat values].
import json
import math
import sys

import torch

D = torch.distributions
T = torch.distributions.transforms
C = torch.distributions.constraints
t = torch.tensor
f64 = torch.float64


def enc(v):
    if isinstance(v, torch.Tensor):
        v = v.detach()
        return ['T', str(v.dtype), list(v.shape), [x for x in v.flatten().tolist()]]
    if isinstance(v, torch.Size):
        return ['S', list(v)]
    if isinstance(v, (list, tuple)):
        return [enc(x) for x in v]
    if isinstance(v, float) and not math.isfinite(v):
        return repr(v)
    if isinstance(v, (bool, int, float, str)) or v is None:
        return v
    return repr(v)


def enc_float(v):
    if isinstance(v, list):
        return [enc_float(x) for x in v]
    if isinstance(v, float) and not math.isfinite(v):
        return repr(v)
    return v


OUT = {}


def case(name, fn):
    try:
        OUT[name] = ['ok', enc(fn())]
    except Exception as e:
        OUT[name] = ['err', type(e).__name__, str(e)[:400]]
    OUT[name] = json.loads(json.dumps(OUT[name], default=repr).replace('NaN', '"nan"').replace(
        'Infinity', '"inf"'))


def seeded(seed, fn):
    torch.manual_seed(seed)
    return fn()


def grads(make, params, fn):
    ps = [p.detach().clone().requires_grad_() if isinstance(p, torch.Tensor) and p.is_floating_point() else p
          for p in params]
    d = make(*ps)
    out = fn(d)
    out.sum().backward()
    return [out] + [p.grad if isinstance(p, torch.Tensor) and p.is_floating_point() else None for p in ps]


# (name, constructor, parameters, values for log_prob/cdf, probabilities for icdf)
P2 = t([0.2, 0.7], dtype=f64)
SPD = t([[2.0, 0.3, 0.1], [0.3, 1.5, -0.2], [0.1, -0.2, 1.0]], dtype=f64)
TRIL = torch.linalg.cholesky(SPD)
DISTS = [
    ('Normal', D.Normal, [t([0.5, -1.0], dtype=f64), t([1.0, 2.5], dtype=f64)], t([0.3, 2.0], dtype=f64), P2),
    ('Normal_f32', D.Normal, [t([0.5, -1.0, 3.0]), t([1.0, 2.5, 0.1])], t([0.3, 2.0, 3.0]), t([0.2, 0.7, 0.5])),
    ('Normal_scalar', D.Normal, [0.5, 2.0], t(1.5), t(0.3)),
    ('Bernoulli', lambda p: D.Bernoulli(probs=p), [t([0.3, 0.9], dtype=f64)], t([1., 0.], dtype=f64), None),
    ('Bernoulli_logits', lambda l: D.Bernoulli(logits=l), [t([-0.3, 2.0], dtype=f64)], t([1., 0.], dtype=f64), None),
    ('Beta', D.Beta, [t([0.5, 2.0], dtype=f64), t([1.5, 3.0], dtype=f64)], t([0.3, 0.8], dtype=f64), None),
    ('Binomial', lambda n, p: D.Binomial(n, p), [t([5., 10.], dtype=f64), t([0.3, 0.6], dtype=f64)],
     t([2., 7.], dtype=f64), None),
    ('Binomial_logits', lambda n, l: D.Binomial(n, logits=l), [t([4., 4.], dtype=f64), t([0.3, -1.0], dtype=f64)],
     t([2., 0.], dtype=f64), None),
    ('Categorical', lambda p: D.Categorical(probs=p), [t([[0.1, 0.2, 0.7], [0.5, 0.25, 0.25]], dtype=f64)],
     t([2, 0]), None),
    ('Categorical_logits', lambda l: D.Categorical(logits=l), [t([0.1, -1.2, 2.0, 0.3], dtype=f64)], t([3, 0, 2]),
     None),
    ('Cauchy', D.Cauchy, [t([0.5, -1.0], dtype=f64), t([1.0, 0.3], dtype=f64)], t([0.3, 2.0], dtype=f64), P2),
    ('Chi2', D.Chi2, [t([1.5, 4.0], dtype=f64)], t([0.3, 2.0], dtype=f64), None),
    ('ContinuousBernoulli', lambda p: D.ContinuousBernoulli(probs=p), [t([0.2, 0.5, 0.8], dtype=f64)],
     t([0.3, 0.6, 0.9], dtype=f64), t([0.1, 0.5, 0.95], dtype=f64)),
    ('Dirichlet', D.Dirichlet, [t([[0.5, 1.0, 2.0], [3.0, 0.7, 1.2]], dtype=f64)],
     t([0.2, 0.3, 0.5], dtype=f64), None),
    ('Exponential', D.Exponential, [t([0.5, 3.0], dtype=f64)], t([0.3, 2.0], dtype=f64), P2),
    ('FisherSnedecor', D.FisherSnedecor, [t([3.0, 6.0], dtype=f64), t([5.0, 10.0], dtype=f64)],
     t([0.3, 2.0], dtype=f64), None),
    ('Gamma', D.Gamma, [t([0.5, 3.0], dtype=f64), t([1.0, 2.0], dtype=f64)], t([0.3, 2.0], dtype=f64), None),
    ('Geometric', lambda p: D.Geometric(probs=p), [t([0.3, 0.8], dtype=f64)], t([2., 0.], dtype=f64), None),
    ('Gumbel', D.Gumbel, [t([0.5, -1.0], dtype=f64), t([1.0, 2.0], dtype=f64)], t([0.3, 2.0], dtype=f64), P2),
    ('HalfCauchy', D.HalfCauchy, [t([1.0, 2.0], dtype=f64)], t([0.3, 2.0], dtype=f64), P2),
    ('HalfNormal', D.HalfNormal, [t([1.0, 2.0], dtype=f64)], t([0.3, 2.0], dtype=f64), P2),
    ('Independent', lambda l, s: D.Independent(D.Normal(l, s), 1), [t([[0.5, -1.0], [0., 1.]], dtype=f64),
                                                                     t([1.0, 2.0], dtype=f64)],
     t([0.3, 2.0], dtype=f64), None),
    ('Kumaraswamy', D.Kumaraswamy, [t([1.5, 2.0], dtype=f64), t([2.5, 0.7], dtype=f64)],
     t([0.3, 0.8], dtype=f64), None),
    ('LKJCholesky', lambda c: D.LKJCholesky(3, c), [t([0.5, 2.0], dtype=f64)], None, None),
    ('Laplace', D.Laplace, [t([0.5, -1.0], dtype=f64), t([1.0, 2.0], dtype=f64)], t([0.3, 2.0], dtype=f64), P2),
    ('LogNormal', D.LogNormal, [t([0.5, -1.0], dtype=f64), t([1.0, 0.5], dtype=f64)], t([0.3, 2.0], dtype=f64), P2),
    ('LogisticNormal', D.LogisticNormal, [t([0.5, -1.0], dtype=f64), t([1.0, 0.5], dtype=f64)],
     t([0.3, 0.5, 0.2], dtype=f64), None),
    ('LowRankMultivariateNormal', D.LowRankMultivariateNormal,
     [t([0.5, -1.0, 0.2], dtype=f64), t([[1.0, 0.2], [0.3, -0.5], [0.0, 1.0]], dtype=f64),
      t([0.5, 1.0, 2.0], dtype=f64)], t([0.3, 2.0, -1.0], dtype=f64), None),
    ('MixtureSameFamily', lambda w, l, s: D.MixtureSameFamily(D.Categorical(probs=w), D.Normal(l, s)),
     [t([0.3, 0.7], dtype=f64), t([-1.0, 2.0], dtype=f64), t([0.5, 1.5], dtype=f64)], t([0.3, 2.0], dtype=f64), None),
    ('Multinomial', lambda p: D.Multinomial(5, probs=p), [t([0.2, 0.3, 0.5], dtype=f64)],
     t([1., 1., 3.], dtype=f64), None),
    ('MultivariateNormal', lambda l, c: D.MultivariateNormal(l, covariance_matrix=c),
     [t([0.5, -1.0, 0.2], dtype=f64), SPD], t([[0.3, 2.0, -1.0], [0., 0., 0.]], dtype=f64), None),
    ('MultivariateNormal_tril', lambda l, s: D.MultivariateNormal(l, scale_tril=s),
     [t([0.5, -1.0, 0.2], dtype=f64), TRIL], t([0.3, 2.0, -1.0], dtype=f64), None),
    ('MultivariateNormal_prec', lambda l, p: D.MultivariateNormal(l, precision_matrix=p),
     [t([0.5, -1.0, 0.2], dtype=f64), SPD], t([0.3, 2.0, -1.0], dtype=f64), None),
    ('NegativeBinomial', lambda n, p: D.NegativeBinomial(n, probs=p), [t([3., 5.5], dtype=f64),
                                                                       t([0.3, 0.6], dtype=f64)],
     t([2., 7.], dtype=f64), None),
    ('OneHotCategorical', lambda p: D.OneHotCategorical(probs=p), [t([0.1, 0.2, 0.7], dtype=f64)],
     t([0., 1., 0.], dtype=f64), None),
    ('OneHotCategoricalStraightThrough', lambda p: D.OneHotCategoricalStraightThrough(probs=p),
     [t([0.1, 0.2, 0.7], dtype=f64)], t([0., 1., 0.], dtype=f64), None),
    ('Pareto', D.Pareto, [t([1.0, 2.0], dtype=f64), t([3.0, 1.5], dtype=f64)], t([1.3, 4.0], dtype=f64), P2),
    ('Poisson', D.Poisson, [t([0.5, 12.0], dtype=f64)], t([2., 11.], dtype=f64), None),
    ('RelaxedBernoulli', lambda T_, p: D.RelaxedBernoulli(T_, probs=p), [t(0.5, dtype=f64),
                                                                        t([0.3, 0.8], dtype=f64)],
     t([0.2, 0.9], dtype=f64), None),
    ('LogitRelaxedBernoulli', lambda T_, p: D.relaxed_bernoulli.LogitRelaxedBernoulli(T_, probs=p),
     [t(0.5, dtype=f64), t([0.3, 0.8], dtype=f64)], t([0.2, -0.9], dtype=f64), None),
    ('RelaxedOneHotCategorical', lambda T_, p: D.RelaxedOneHotCategorical(T_, probs=p),
     [t(0.7, dtype=f64), t([0.1, 0.2, 0.7], dtype=f64)], t([0.2, 0.3, 0.5], dtype=f64), None),
    ('StudentT', D.StudentT, [t([1.5, 4.0, 0.8], dtype=f64), t([0.5, -1.0, 0.], dtype=f64),
                              t([1.0, 2.0, 1.0], dtype=f64)], t([0.3, 2.0, -0.4], dtype=f64), None),
    ('Uniform', D.Uniform, [t([0.5, -1.0], dtype=f64), t([1.0, 2.0], dtype=f64)], t([0.7, 0.0], dtype=f64), P2),
    ('VonMises', D.VonMises, [t([0.5, -1.0, 1.0], dtype=f64), t([1.0, 5.0, 0.01], dtype=f64)],
     t([0.3, 2.0, -3.0], dtype=f64), None),
    ('Weibull', D.Weibull, [t([1.0, 2.0], dtype=f64), t([1.5, 0.7], dtype=f64)], t([0.3, 2.0], dtype=f64), None),
    ('Wishart', lambda df, c: D.Wishart(df, covariance_matrix=c), [t([4.0, 6.5], dtype=f64), SPD], SPD, None),
    ('Wishart_tril', lambda df, s: D.Wishart(df, scale_tril=s), [t(5.0, dtype=f64), TRIL], SPD, None),
    ('Gamma_f32', D.Gamma, [t([0.3, 0.9, 1.0, 2.5, 40.0]), t([1.0, 2.0, 0.5, 1.0, 3.0])],
     t([0.3, 2.0, 1.0, 0.7, 12.0]), None),
    ('Beta_f32', D.Beta, [t([0.3, 5.0, 9.0]), t([0.8, 7.0, 0.2])], t([0.3, 0.5, 0.99]), None),
    ('Dirichlet_f32', D.Dirichlet, [t([[0.2, 0.5, 3.0, 10.0], [7.0, 8.0, 9.0, 0.1]])],
     t([0.1, 0.2, 0.3, 0.4]), None),
    ('Binomial_btrs', lambda n, p: D.Binomial(n, p), [t([100., 50., 1000.], dtype=f64),
                                                     t([0.3, 0.8, 0.05], dtype=f64)],
     t([30., 41., 48.], dtype=f64), None),
    ('Binomial_f32', lambda n, p: D.Binomial(n, p), [t([100., 7., 1000., 0.]), t([0.3, 0.8, 0.45, 0.5])],
     t([30., 5., 440., 0.]), None),
    ('StudentT_f32', D.StudentT, [t([0.7, 3.0, 30.0])], t([0.3, 2.0, -0.4]), None),
    ('NegativeBinomial_logits', lambda n, l: D.NegativeBinomial(n, logits=l), [t([3., 25.], dtype=f64),
                                                                               t([0.3, 2.0], dtype=f64)],
     t([2., 70.], dtype=f64), None),
]

for name, make, params, value, probs in DISTS:
    def d():
        return make(*params)
    case(name + ' shapes', lambda: [d().batch_shape, d().event_shape, d().has_rsample, d().has_enumerate_support])
    case(name + ' support', lambda: repr(d().support))
    case(name + ' arg_constraints', lambda: sorted((k, repr(v)) for k, v in d().arg_constraints.items()))
    case(name + ' repr', lambda: repr(d()))
    case(name + ' sample', lambda: seeded(0, lambda: d().sample((3,))))
    case(name + ' sample2', lambda: seeded(7, lambda: [d().sample(), d().sample((2, 1))]))
    for prop in ('mean', 'mode', 'variance', 'stddev'):
        case(name + ' ' + prop, lambda: getattr(d(), prop))
    case(name + ' entropy', lambda: d().entropy())
    case(name + ' expand', lambda: seeded(3, lambda: [d().expand((4,) + d().batch_shape).sample(),
                                                      d().expand((4,) + d().batch_shape).batch_shape]))
    if d().has_rsample:
        case(name + ' rsample grad', lambda: seeded(5, lambda: grads(make, params, lambda x: x.rsample((2,)))))
    if value is not None:
        case(name + ' log_prob', lambda: d().log_prob(value))
        case(name + ' log_prob grad', lambda: grads(make, params, lambda x: x.log_prob(value)))
        case(name + ' cdf', lambda: d().cdf(value))
        case(name + ' perplexity', lambda: d().perplexity())
    if probs is not None:
        case(name + ' icdf', lambda: d().icdf(probs))
    case(name + ' enumerate_support', lambda: [d().enumerate_support(), d().enumerate_support(expand=False)])

# the sampling ops and the reparameterized gradients behind them
A32 = t([0.05, 0.3, 0.999, 1.0, 1.7, 8.5, 120.0])
case('op _standard_gamma f32', lambda: seeded(11, lambda: torch._standard_gamma(A32.expand(3, 7))))
case('op _standard_gamma f64', lambda: seeded(11, lambda: torch._standard_gamma(A32.double().expand(3, 7).t())))
case('op _standard_gamma zero', lambda: seeded(2, lambda: torch._standard_gamma(t([0.0, 1e-30, 1.0]))))
case('op _standard_gamma int', lambda: torch._standard_gamma(t([1, 2])))
case('op _standard_gamma generator', lambda: torch._standard_gamma(A32, generator=torch.Generator().manual_seed(3)))
case('op _sample_dirichlet f32', lambda: seeded(4, lambda: torch._sample_dirichlet(t([[0.01, 0.02, 0.03],
                                                                                    [100., 200., 300.]]))))
case('op _sample_dirichlet f64', lambda: seeded(4, lambda: torch._sample_dirichlet(A32.double().view(1, 7))))
case('op binomial', lambda: seeded(5, lambda: torch.binomial(t([[0., 1., 5., 20., 200., 5000.]]).expand(2, 6),
                                                              t([0.5, 0.999, 0.001, 0.5, 0.97, 0.2]))))
case('op binomial f64', lambda: seeded(5, lambda: torch.binomial(t([10., 60., 3.], dtype=f64),
                                                                  t([1.0, 0.0, 0.3], dtype=f64))))
case('op binomial int', lambda: torch.binomial(t([3, 4]), t([0.5, 0.5])))
GX = t([0.01, 0.5, 0.79, 0.9, 3.0, 9.5, 10.0, 60.0])
GA = t([0.5, 2.0, 7.0, 0.3, 9.0, 10.0, 30.0, 55.0])
case('op _standard_gamma_grad f64', lambda: torch._standard_gamma_grad(GA.double(), GX.double()))
case('op _standard_gamma_grad f32', lambda: torch._standard_gamma_grad(GA, GX))
DX = t([0.01, 0.2, 0.5, 0.6, 0.97, 0.45, 0.3, 0.999], dtype=f64)
DA = t([0.5, 3.0, 8.0, 2.0, 5.0, 20.0, 1.5, 0.7], dtype=f64)
DT = t([1.0, 4.0, 20.0, 6.0, 5.5, 45.0, 9.0, 3.0], dtype=f64)
case('op _dirichlet_grad', lambda: torch._dirichlet_grad(DX, DA, DT))
case('op _dirichlet_grad f32', lambda: torch._dirichlet_grad(DX.float(), DA.float(), DT.float()))

# validate_args: invalid parameters and values, class and message
BAD = [
    ('Normal loc nan', lambda: D.Normal(t([0., math.nan]), t([1., 1.]))),
    ('Normal scale', lambda: D.Normal(t([0., 1.]), t([1., -1.]))),
    ('Normal scalar scale', lambda: D.Normal(0., -1.)),
    ('Bernoulli probs', lambda: D.Bernoulli(probs=t([0.5, 1.5]))),
    ('Bernoulli both', lambda: D.Bernoulli(probs=t([0.5]), logits=t([0.5]))),
    ('Bernoulli neither', lambda: D.Bernoulli()),
    ('Beta', lambda: D.Beta(t([1., -1.]), t([1., 1.]))),
    ('Binomial count', lambda: D.Binomial(t([2.5]), t([0.5]))),
    ('Categorical probs', lambda: D.Categorical(probs=t([0.5, -0.5]))),
    ('Categorical 0-d', lambda: D.Categorical(probs=t(0.5))),
    ('Cauchy', lambda: D.Cauchy(t([0.]), t([0.]))),
    ('Chi2', lambda: D.Chi2(t([-1.]))),
    ('ContinuousBernoulli', lambda: D.ContinuousBernoulli(probs=t([1.5]), validate_args=True)),
    ('Dirichlet', lambda: D.Dirichlet(t([1., 0.]))),
    ('Dirichlet 0-d', lambda: D.Dirichlet(t(1.))),
    ('Exponential', lambda: D.Exponential(t([-1.]))),
    ('FisherSnedecor', lambda: D.FisherSnedecor(t([1.]), t([-1.]))),
    ('Gamma', lambda: D.Gamma(t([1.]), t([-1.]))),
    ('Geometric zero', lambda: D.Geometric(probs=t([0., 0.5]))),
    ('Geometric', lambda: D.Geometric(probs=t([1.5]))),
    ('Gumbel', lambda: D.Gumbel(t([0.]), t([-1.]))),
    ('HalfCauchy', lambda: D.HalfCauchy(t([-1.]))),
    ('HalfNormal', lambda: D.HalfNormal(t([-1.]))),
    ('Independent', lambda: D.Independent(D.Normal(t([0.]), t([1.])), 2)),
    ('Kumaraswamy', lambda: D.Kumaraswamy(t([-1.]), t([1.]))),
    ('LKJCholesky dim', lambda: D.LKJCholesky(1, 1.)),
    ('LKJCholesky conc', lambda: D.LKJCholesky(3, t([-1.]))),
    ('Laplace', lambda: D.Laplace(t([0.]), t([-1.]))),
    ('LogNormal', lambda: D.LogNormal(t([0.]), t([-1.]))),
    ('LogisticNormal', lambda: D.LogisticNormal(t([0.]), t([-1.]))),
    ('LowRankMVN diag', lambda: D.LowRankMultivariateNormal(t([0., 0.]), t([[1.], [1.]]), t([1., -1.]))),
    ('LowRankMVN shape', lambda: D.LowRankMultivariateNormal(t([0., 0.]), t([[1.], [1.], [1.]]), t([1., 1.]))),
    ('MixtureSameFamily', lambda: D.MixtureSameFamily(D.Normal(0., 1.), D.Normal(t([0.]), t([1.])))),
    ('MixtureSameFamily count', lambda: D.MixtureSameFamily(D.Categorical(t([0.5, 0.5])),
                                                             D.Normal(t([0., 1., 2.]), t([1., 1., 1.])))),
    ('Multinomial count', lambda: D.Multinomial(t(3), probs=t([0.5, 0.5]))),
    ('MVN cov', lambda: D.MultivariateNormal(t([0., 0.]), covariance_matrix=t([[1., 2.], [2., 1.]]))),
    ('MVN none', lambda: D.MultivariateNormal(t([0., 0.]))),
    ('MVN tril', lambda: D.MultivariateNormal(t([0., 0.]), scale_tril=t([[1., 1.], [0., 1.]]))),
    ('NegativeBinomial', lambda: D.NegativeBinomial(t([1.]), probs=t([1.]))),
    ('OneHotCategorical', lambda: D.OneHotCategorical(probs=t([-0.1, 1.1]))),
    ('Pareto', lambda: D.Pareto(t([-1.]), t([1.]))),
    ('Poisson', lambda: D.Poisson(t([-1.]))),
    ('RelaxedBernoulli', lambda: D.RelaxedBernoulli(t(0.5), probs=t([1.5]))),
    ('StudentT', lambda: D.StudentT(t([-1.]))),
    ('Uniform', lambda: D.Uniform(t([1.]), t([0.]))),
    ('VonMises', lambda: D.VonMises(t([0.]), t([-1.]))),
    ('Weibull', lambda: D.Weibull(t([1.]), t([-1.]))),
    ('Wishart df', lambda: D.Wishart(t(1.), covariance_matrix=t([[1., 0.], [0., 1.]]))),
    ('Wishart cov', lambda: D.Wishart(t(3.), covariance_matrix=t([[1., 2.], [2., 1.]]))),
    ('Normal log_prob shape', lambda: D.Normal(t([0., 1.]), t([1., 1.])).log_prob(t([0., 1., 2.]))),
    ('Normal log_prob type', lambda: D.Normal(t([0., 1.]), t([1., 1.])).log_prob(1.0)),
    ('Exponential log_prob support', lambda: D.Exponential(t([1.])).log_prob(t([-1.]))),
    ('Bernoulli log_prob support', lambda: D.Bernoulli(t([0.5])).log_prob(t([0.5]))),
    ('Categorical log_prob support', lambda: D.Categorical(t([0.5, 0.5])).log_prob(t([2]))),
    ('Dirichlet log_prob event', lambda: D.Dirichlet(t([1., 1.])).log_prob(t([0.5, 0.3, 0.2]))),
    ('Uniform log_prob support', lambda: D.Uniform(t([0.]), t([1.])).log_prob(t([2.]))),
    ('Binomial log_prob support', lambda: D.Binomial(t([3.]), t([0.5])).log_prob(t([4.]))),
    ('Normal no validation', lambda: D.Normal(t([0.]), t([-1.]), validate_args=False).scale),
    ('Normal no validation log_prob', lambda: D.Normal(t([0.]), t([1.]), validate_args=False).log_prob(t([0., 1.]))),
    ('Binomial entropy inhomogeneous', lambda: D.Binomial(t([2., 3.]), t([0.5, 0.5])).entropy()),
    ('set_default_validate_args bad', lambda: D.Distribution.set_default_validate_args(2)),
    ('base log_prob', lambda: D.Distribution().log_prob(t(0.))),
    ('base mean', lambda: D.Distribution().mean),
    ('base mode', lambda: D.Distribution().mode),
    ('transforms not list', lambda: D.TransformedDistribution(D.Normal(0., 1.), 3)),
    ('kl missing', lambda: D.kl_divergence(D.Normal(0., 1.), D.Poisson(1.))),
    ('kl mvn shapes', lambda: D.kl_divergence(D.MultivariateNormal(t([0., 0.]), torch.eye(2)),
                                              D.MultivariateNormal(t([0., 0., 0.]), torch.eye(3)))),
    ('kl binomial counts', lambda: D.kl_divergence(D.Binomial(t([2.]), t([0.5])), D.Binomial(t([3.]), t([0.5])))),
    ('kl expfamily mixed', lambda: D.kl_divergence(D.Exponential(t([1.])), D.Poisson(t([1.])))),
    ('Wishart no validation', lambda: D.Wishart(t(1.5), covariance_matrix=torch.eye(2)).df),
]
for name, fn in BAD:
    case('bad ' + name, fn)
case('bad validate default off', lambda: (D.Distribution.set_default_validate_args(False),
                                          D.Normal(0., -1.).scale, D.Distribution.set_default_validate_args(True)))

# transforms: forward, inverse, log|det J|, shapes, constraints
X = t([[0.3, -1.2, 2.0], [0.0, 0.5, -0.7]], dtype=f64)
XP = X.abs() + 0.1
TRANSFORMS = [
    ('identity', T.identity_transform, X),
    ('Exp', T.ExpTransform(), X),
    ('Exp inv', T.ExpTransform().inv, XP),
    ('Power', T.PowerTransform(t(2.5, dtype=f64)), XP),
    ('Power vec', T.PowerTransform(t([0.5, 2.0, -1.0], dtype=f64)), XP),
    ('Sigmoid', T.SigmoidTransform(), X),
    ('Softplus', T.SoftplusTransform(), X),
    ('Tanh', T.TanhTransform(), X),
    ('Abs', T.AbsTransform(), X),
    ('Affine', T.AffineTransform(1.5, -2.0), X),
    ('Affine tensor', T.AffineTransform(t([1.0, 0.0, -1.0], dtype=f64), t([0.5, 2.0, -3.0], dtype=f64)), X),
    ('Affine event', T.AffineTransform(t([1.0, 0.0, -1.0], dtype=f64), t([0.5, 2.0, -3.0], dtype=f64),
                                       event_dim=1), X),
    ('Compose', T.ComposeTransform([T.ExpTransform(), T.AffineTransform(1.0, 3.0), T.PowerTransform(t(0.5))]), X),
    ('Compose stickbreaking', T.ComposeTransform([T.AffineTransform(0.5, 2.0), T.StickBreakingTransform()]), X),
    ('CorrCholesky', T.CorrCholeskyTransform(), X),
    ('CumulativeDistribution', T.CumulativeDistributionTransform(D.Normal(t(0.5, dtype=f64), t(2.0, dtype=f64))), X),
    ('Independent', T.IndependentTransform(T.ExpTransform(), 1), X),
    ('LowerCholesky', T.LowerCholeskyTransform(), t([[1.0, 2.0], [0.5, -1.0]], dtype=f64)),
    ('Reshape', T.ReshapeTransform((3,), (3, 1)), X),
    ('Softmax', T.SoftmaxTransform(), X),
    ('StickBreaking', T.StickBreakingTransform(), X),
    ('Cat', T.CatTransform([T.ExpTransform(), T.AffineTransform(1.0, 2.0)], dim=1, lengths=[2, 1]), X),
    ('Cat dim0', T.CatTransform([T.ExpTransform(), T.SigmoidTransform()], dim=0), X),
    ('Stack', T.StackTransform([T.ExpTransform(), T.TanhTransform(), T.AffineTransform(1.0, 2.0)], dim=1), X),
]
for name, tr, x in TRANSFORMS:
    def fwd():
        return tr(x)
    case('transform %s forward' % name, fwd)
    case('transform %s inverse' % name, lambda: tr.inv(fwd()))
    case('transform %s ladj' % name, lambda: tr.log_abs_det_jacobian(x, fwd()))
    case('transform %s inv ladj' % name, lambda: tr.inv.log_abs_det_jacobian(fwd(), x))
    case('transform %s shapes' % name, lambda: [tr.forward_shape(x.shape), tr.inverse_shape(fwd().shape)])
    case('transform %s info' % name, lambda: [repr(tr), repr(tr.domain), repr(tr.codomain), tr.bijective,
                                              repr(tr.inv)])
    case('transform %s sign' % name, lambda: tr.sign)
    case('transform %s event_dim' % name, lambda: tr.event_dim)
    case('transform %s cached' % name, lambda: (lambda c: (lambda y: c.inv(y) is x)(c(x)))(tr.with_cache(1)))

    def grad():  # of the sum of y and of log|det J|
        xr = x.clone().requires_grad_()
        y = tr(xr)
        return torch.autograd.grad(y.sum() + tr.log_abs_det_jacobian(xr, y).sum(), xr)
    case('transform %s grad' % name, grad)
case('transform eq', lambda: [T.ExpTransform() == T.ExpTransform(),
                              T.AffineTransform(1., 2.) == T.AffineTransform(1., 2.),
                              T.AffineTransform(1., 2.) == T.AffineTransform(1., 3.),
                              T.PowerTransform(t(2.)) == T.PowerTransform(t(2.)),
                              T.ExpTransform().inv == T.ExpTransform().inv, T.ExpTransform() != T.SigmoidTransform(),
                              T.ComposeTransform([T.ExpTransform()]) == T.ComposeTransform([T.ExpTransform()])])
case('transform cache bad', lambda: T.ExpTransform(cache_size=2))
case('transform reshape bad', lambda: T.ReshapeTransform((2,), (3,)))
case('transform reshape shape bad', lambda: T.ReshapeTransform((3,), (3, 1)).forward_shape((2, 2)))
case('transform corr shape bad', lambda: T.CorrCholeskyTransform().forward_shape((4,)))
case('transform independent too few', lambda: T.IndependentTransform(T.ExpTransform(), 2)(t([1.])))
case('transformed dist', lambda: seeded(0, lambda: (lambda d: [d.sample((2,)), d.log_prob(t([0.5, 2.0])), d.batch_shape,
                                                               d.event_shape, repr(d.support)])(
    D.TransformedDistribution(D.Normal(t([0., 1.]), t([1., 2.])), [T.ExpTransform(), T.AffineTransform(1., 2.)]))))
case('transformed dist cdf', lambda: (lambda d: [d.cdf(t([1.5, 4.0])), d.icdf(t([0.2, 0.9]))])(
    D.TransformedDistribution(D.Normal(t([0., 1.]), t([1., 2.])), [T.ExpTransform(), T.AffineTransform(1., -2.)])))
case('transformed dist reshape', lambda: seeded(1, lambda: (lambda d: [d.sample(), d.batch_shape, d.event_shape,
                                                                      d.log_prob(torch.ones(2, 3))])(
    D.TransformedDistribution(D.Normal(torch.zeros(6), torch.ones(6)), T.ReshapeTransform((6,), (2, 3))))))
case('transformed dist stickbreaking', lambda: (lambda d: [d.batch_shape, d.event_shape,
                                                           d.log_prob(t([0.2, 0.3, 0.5]))])(
    D.TransformedDistribution(D.Normal(torch.zeros(2), torch.ones(2)), T.StickBreakingTransform())))

# constraints: check, repr, event_dim, is_discrete, biject_to and transform_to
V = t([[-1.0, 0.0, 0.5], [1.0, 2.0, math.nan]])
CONSTRAINTS = [
    ('real', C.real), ('positive', C.positive), ('nonnegative', C.nonnegative), ('unit_interval', C.unit_interval),
    ('boolean', C.boolean), ('nonnegative_integer', C.nonnegative_integer), ('positive_integer', C.positive_integer),
    ('integer_interval', C.integer_interval(0, 1)), ('interval', C.interval(-1.0, 0.5)),
    ('half_open_interval', C.half_open_interval(-1.0, 0.5)), ('greater_than', C.greater_than(0.2)),
    ('greater_than_eq', C.greater_than_eq(0.5)), ('less_than', C.less_than(0.5)), ('real_vector', C.real_vector),
    ('simplex', C.simplex), ('one_hot', C.one_hot), ('multinomial', C.multinomial(2)),
    ('independent', C.independent(C.positive, 1)),
    ('cat', C.cat([C.positive, C.real], dim=1, lengths=[2, 1])), ('stack', C.stack([C.positive, C.real], dim=0)),
]
MATRICES = t([[[1.0, 0.0], [0.5, 2.0]], [[1.0, 0.2], [0.2, 1.0]], [[0.6, 0.0], [0.8, 0.6]], [[1.0, 0.0], [0.6, 0.8]],
              [[1.0, 2.0], [2.0, 1.0]], [[-1.0, 0.0], [0.0, 2.0]]])
MATRIX_CONSTRAINTS = [('lower_triangular', C.lower_triangular), ('lower_cholesky', C.lower_cholesky),
                      ('corr_cholesky', C.corr_cholesky), ('square', C.square), ('symmetric', C.symmetric),
                      ('positive_semidefinite', C.positive_semidefinite),
                      ('positive_definite', C.positive_definite)]
for name, c in CONSTRAINTS:
    case('constraint %s' % name, lambda: [c.check(V), repr(c), c.event_dim, c.is_discrete])
for name, c in MATRIX_CONSTRAINTS:
    case('constraint %s' % name, lambda: [c.check(MATRICES), repr(c), c.event_dim, c.is_discrete])
for name, c in CONSTRAINTS + MATRIX_CONSTRAINTS + [('corr_cholesky', C.corr_cholesky)]:
    for reg_name, reg in (('biject_to', D.biject_to), ('transform_to', D.transform_to)):
        case('%s %s' % (reg_name, name), lambda: (lambda tr: [repr(tr), tr(X[:, :3] if name != 'lower_cholesky'
                                                                           else MATRICES[:2])])(reg(c)))
case('constraint dependent', lambda: [repr(C.dependent), C.is_dependent(C.dependent), C.is_dependent(C.real),
                                      C.dependent.check(t(1.))])
case('constraint dependent event_dim', lambda: C.dependent.event_dim)
case('constraint dependent_property', lambda: [C.is_dependent(D.Uniform.support), D.Uniform.support.event_dim,
                                               D.Binomial.support.is_discrete])

# kl_divergence of every registered pair
KLD = {
    'Bernoulli': lambda: D.Bernoulli(probs=t([0.3, 0.9], dtype=f64)),
    'Beta': lambda: D.Beta(t([0.5, 2.0], dtype=f64), t([1.5, 3.0], dtype=f64)),
    'Binomial': lambda: D.Binomial(t([5., 10.], dtype=f64), t([0.3, 0.6], dtype=f64)),
    'Categorical': lambda: D.Categorical(probs=t([[0.1, 0.2, 0.7], [0.5, 0.25, 0.25]], dtype=f64)),
    'Cauchy': lambda: D.Cauchy(t([0.5, -1.0], dtype=f64), t([1.0, 0.3], dtype=f64)),
    'ContinuousBernoulli': lambda: D.ContinuousBernoulli(probs=t([0.2, 0.8], dtype=f64)),
    'Dirichlet': lambda: D.Dirichlet(t([[0.5, 1.0, 2.0], [3.0, 0.7, 1.2]], dtype=f64)),
    'Exponential': lambda: D.Exponential(t([0.5, 3.0], dtype=f64)),
    'Gamma': lambda: D.Gamma(t([0.5, 3.0], dtype=f64), t([1.0, 2.0], dtype=f64)),
    'Geometric': lambda: D.Geometric(probs=t([0.3, 0.8], dtype=f64)),
    'Gumbel': lambda: D.Gumbel(t([0.5, -1.0], dtype=f64), t([1.0, 2.0], dtype=f64)),
    'HalfNormal': lambda: D.HalfNormal(t([1.0, 2.0], dtype=f64)),
    'Independent': lambda: D.Independent(D.Normal(t([[0.5, -1.0]], dtype=f64), t([1.0, 2.0], dtype=f64)), 1),
    'Laplace': lambda: D.Laplace(t([0.5, -1.0], dtype=f64), t([1.0, 2.0], dtype=f64)),
    'LowRankMultivariateNormal': lambda: D.LowRankMultivariateNormal(
        t([0.5, -1.0, 0.2], dtype=f64), t([[1.0, 0.2], [0.3, -0.5], [0.0, 1.0]], dtype=f64),
        t([0.5, 1.0, 2.0], dtype=f64)),
    'MultivariateNormal': lambda: D.MultivariateNormal(t([0.5, -1.0, 0.2], dtype=f64), covariance_matrix=SPD),
    'Normal': lambda: D.Normal(t([0.5, -1.0], dtype=f64), t([1.0, 2.5], dtype=f64)),
    'OneHotCategorical': lambda: D.OneHotCategorical(probs=t([0.1, 0.2, 0.7], dtype=f64)),
    'Pareto': lambda: D.Pareto(t([1.0, 2.0], dtype=f64), t([3.0, 1.5], dtype=f64)),
    'Poisson': lambda: D.Poisson(t([0.5, 12.0], dtype=f64)),
    'TransformedDistribution': lambda: D.LogNormal(t([0.5, -1.0], dtype=f64), t([1.0, 0.5], dtype=f64)),
    'Uniform': lambda: D.Uniform(t([0.5, 0.1], dtype=f64), t([1.0, 0.7], dtype=f64)),
    'ExponentialFamily': lambda: D.Poisson(t([0.5, 12.0], dtype=f64)),
}
KLQ = dict(KLD, **{
    'Bernoulli': lambda: D.Bernoulli(probs=t([0.6, 0.2], dtype=f64)),
    'Beta': lambda: D.Beta(t([1.5, 0.7], dtype=f64), t([2.5, 1.0], dtype=f64)),
    'Binomial': lambda: D.Binomial(t([5., 8.], dtype=f64), t([0.5, 0.2], dtype=f64)),
    'Categorical': lambda: D.Categorical(probs=t([[0.3, 0.3, 0.4], [0.2, 0.0, 0.8]], dtype=f64)),
    'Cauchy': lambda: D.Cauchy(t([1.5, 0.0], dtype=f64), t([2.0, 0.5], dtype=f64)),
    'ContinuousBernoulli': lambda: D.ContinuousBernoulli(probs=t([0.6, 0.4999], dtype=f64)),
    'Dirichlet': lambda: D.Dirichlet(t([1.0, 2.0, 0.5], dtype=f64)),
    'Exponential': lambda: D.Exponential(t([2.0, 0.7], dtype=f64)),
    'Gamma': lambda: D.Gamma(t([2.0, 1.0], dtype=f64), t([0.5, 3.0], dtype=f64)),
    'Geometric': lambda: D.Geometric(probs=t([0.5, 0.1], dtype=f64)),
    'Gumbel': lambda: D.Gumbel(t([0.0, 1.0], dtype=f64), t([2.0, 0.5], dtype=f64)),
    'HalfNormal': lambda: D.HalfNormal(t([0.5, 3.0], dtype=f64)),
    'Independent': lambda: D.Independent(D.Normal(t([[0.0, 1.0]], dtype=f64), t([2.0, 0.5], dtype=f64)), 1),
    'Laplace': lambda: D.Laplace(t([0.0, 1.0], dtype=f64), t([2.0, 0.5], dtype=f64)),
    'LowRankMultivariateNormal': lambda: D.LowRankMultivariateNormal(
        t([0.0, 1.0, -0.5], dtype=f64), t([[0.5], [1.0], [-0.3]], dtype=f64), t([1.0, 0.5, 1.5], dtype=f64)),
    'MultivariateNormal': lambda: D.MultivariateNormal(t([0.0, 1.0, -0.5], dtype=f64), scale_tril=TRIL * 1.3),
    'Normal': lambda: D.Normal(t([0.0, 1.0], dtype=f64), t([2.0, 0.5], dtype=f64)),
    'OneHotCategorical': lambda: D.OneHotCategorical(probs=t([0.3, 0.3, 0.4], dtype=f64)),
    'Pareto': lambda: D.Pareto(t([0.5, 2.5], dtype=f64), t([2.0, 1.0], dtype=f64)),
    'Poisson': lambda: D.Poisson(t([2.0, 10.0], dtype=f64)),
    'TransformedDistribution': lambda: D.LogNormal(t([0.0, 1.0], dtype=f64), t([2.0, 0.5], dtype=f64)),
    'Uniform': lambda: D.Uniform(t([0.0, 0.0], dtype=f64), t([2.0, 0.5], dtype=f64)),
})
KL_PAIRS = sorted([(a, b) for a, b in [
    ('Bernoulli', 'Bernoulli'), ('Bernoulli', 'Poisson'), ('Beta', 'Beta'), ('Beta', 'ContinuousBernoulli'),
    ('Beta', 'Exponential'), ('Beta', 'Gamma'), ('Beta', 'Normal'), ('Beta', 'Pareto'), ('Beta', 'Uniform'),
    ('Binomial', 'Binomial'), ('Categorical', 'Categorical'), ('Cauchy', 'Cauchy'),
    ('ContinuousBernoulli', 'ContinuousBernoulli'), ('ContinuousBernoulli', 'Exponential'),
    ('ContinuousBernoulli', 'Normal'), ('ContinuousBernoulli', 'Pareto'), ('ContinuousBernoulli', 'Uniform'),
    ('Dirichlet', 'Dirichlet'), ('Exponential', 'Beta'), ('Exponential', 'ContinuousBernoulli'),
    ('Exponential', 'Exponential'), ('Exponential', 'Gamma'), ('Exponential', 'Gumbel'), ('Exponential', 'Normal'),
    ('Exponential', 'Pareto'), ('Exponential', 'Uniform'), ('ExponentialFamily', 'ExponentialFamily'),
    ('Gamma', 'Beta'), ('Gamma', 'ContinuousBernoulli'), ('Gamma', 'Exponential'), ('Gamma', 'Gamma'),
    ('Gamma', 'Gumbel'), ('Gamma', 'Normal'), ('Gamma', 'Pareto'), ('Gamma', 'Uniform'), ('Geometric', 'Geometric'),
    ('Gumbel', 'Beta'), ('Gumbel', 'ContinuousBernoulli'), ('Gumbel', 'Exponential'), ('Gumbel', 'Gamma'),
    ('Gumbel', 'Gumbel'), ('Gumbel', 'Normal'), ('Gumbel', 'Pareto'), ('Gumbel', 'Uniform'),
    ('HalfNormal', 'HalfNormal'), ('Independent', 'Independent'), ('Laplace', 'Beta'),
    ('Laplace', 'ContinuousBernoulli'), ('Laplace', 'Exponential'), ('Laplace', 'Gamma'), ('Laplace', 'Laplace'),
    ('Laplace', 'Normal'), ('Laplace', 'Pareto'), ('Laplace', 'Uniform'),
    ('LowRankMultivariateNormal', 'LowRankMultivariateNormal'), ('LowRankMultivariateNormal', 'MultivariateNormal'),
    ('MultivariateNormal', 'LowRankMultivariateNormal'), ('MultivariateNormal', 'MultivariateNormal'),
    ('Normal', 'Beta'), ('Normal', 'ContinuousBernoulli'), ('Normal', 'Exponential'), ('Normal', 'Gamma'),
    ('Normal', 'Gumbel'), ('Normal', 'Laplace'), ('Normal', 'Normal'), ('Normal', 'Pareto'), ('Normal', 'Uniform'),
    ('OneHotCategorical', 'OneHotCategorical'), ('Pareto', 'Beta'), ('Pareto', 'ContinuousBernoulli'),
    ('Pareto', 'Exponential'), ('Pareto', 'Gamma'), ('Pareto', 'Normal'), ('Pareto', 'Pareto'),
    ('Pareto', 'Uniform'), ('Poisson', 'Bernoulli'), ('Poisson', 'Binomial'), ('Poisson', 'Poisson'),
    ('TransformedDistribution', 'TransformedDistribution'), ('Uniform', 'Beta'), ('Uniform', 'ContinuousBernoulli'),
    ('Uniform', 'Exponential'), ('Uniform', 'Gamma'), ('Uniform', 'Gumbel'), ('Uniform', 'Normal'),
    ('Uniform', 'Pareto'), ('Uniform', 'Uniform')]])
for a, b in KL_PAIRS:
    case('kl %s %s' % (a, b), lambda: D.kl_divergence(KLD[a](), KLQ[b]()))
case('kl registry size', lambda: len(D.kl._KL_REGISTRY))
case('kl exp family entropy', lambda: [D.ExponentialFamily.entropy(KLD[n]()) for n in ('Normal', 'Exponential',
                                                                                        'Gamma', 'Dirichlet')])

# utils
U = D.utils
case('utils broadcast_all', lambda: U.broadcast_all(t([1.0, 2.0], dtype=f64), 3, t([[0.5], [1.5]], dtype=f64)))
case('utils broadcast_all numbers', lambda: U.broadcast_all(1.0, 2))
case('utils broadcast_all bad', lambda: U.broadcast_all(t([1.0]), 'x'))
case('utils probs_to_logits', lambda: [U.probs_to_logits(t([0.0, 0.3, 1.0], dtype=f64)),
                                       U.probs_to_logits(t([0.0, 0.3, 1.0], dtype=f64), is_binary=True)])
case('utils logits_to_probs', lambda: [U.logits_to_probs(t([0.0, -3.0, 2.0], dtype=f64)),
                                       U.logits_to_probs(t([0.0, -3.0, 2.0], dtype=f64), is_binary=True)])
case('utils clamp_probs', lambda: U.clamp_probs(t([0.0, 0.5, 1.0])))
case('utils tril', lambda: [U.tril_matrix_to_vec(torch.arange(9.).view(3, 3)),
                            U.tril_matrix_to_vec(torch.arange(9.).view(3, 3), diag=-1),
                            U.vec_to_tril_matrix(torch.arange(6.)), U.vec_to_tril_matrix(torch.arange(3.), diag=-1)])
case('utils tril bad', lambda: U.vec_to_tril_matrix(torch.arange(5.)))
case('utils tril diag bad', lambda: U.tril_matrix_to_vec(torch.eye(3), diag=3))
case('utils euler', lambda: U.euler_constant)
case('utils sum_rightmost', lambda: U._sum_rightmost(torch.arange(24.).view(2, 3, 4), 2))
case('all', lambda: sorted(D.__all__))
case('constraints all', lambda: sorted(C.__all__))
case('transforms all', lambda: sorted(T.__all__))

json.dump(OUT, sys.stdout, separators=(',', ':'))
