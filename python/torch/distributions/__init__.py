"""torch.distributions: parameterizable probability distributions and sampling functions, as in
PyTorch 1.13 (the score function and pathwise derivative estimators: log_prob and rsample).

Loaded on first use of torch.distributions (torch/__init__.py's lazy modules). docs/distributions.md
lists what is here and where it differs from the reference.
"""
from torch.distributions.bernoulli import Bernoulli
from torch.distributions.beta import Beta
from torch.distributions.binomial import Binomial
from torch.distributions.categorical import Categorical
from torch.distributions.cauchy import Cauchy
from torch.distributions.chi2 import Chi2
from torch.distributions.constraint_registry import biject_to, transform_to
from torch.distributions.continuous_bernoulli import ContinuousBernoulli
from torch.distributions.dirichlet import Dirichlet
from torch.distributions.distribution import Distribution
from torch.distributions.exp_family import ExponentialFamily
from torch.distributions.exponential import Exponential
from torch.distributions.fishersnedecor import FisherSnedecor
from torch.distributions.gamma import Gamma
from torch.distributions.geometric import Geometric
from torch.distributions.gumbel import Gumbel
from torch.distributions.half_cauchy import HalfCauchy
from torch.distributions.half_normal import HalfNormal
from torch.distributions.independent import Independent
from torch.distributions.kl import kl_divergence, register_kl
from torch.distributions.kumaraswamy import Kumaraswamy
from torch.distributions.laplace import Laplace
from torch.distributions.lkj_cholesky import LKJCholesky
from torch.distributions.log_normal import LogNormal
from torch.distributions.logistic_normal import LogisticNormal
from torch.distributions.lowrank_multivariate_normal import LowRankMultivariateNormal
from torch.distributions.mixture_same_family import MixtureSameFamily
from torch.distributions.multinomial import Multinomial
from torch.distributions.multivariate_normal import MultivariateNormal
from torch.distributions.negative_binomial import NegativeBinomial
from torch.distributions.normal import Normal
from torch.distributions.one_hot_categorical import OneHotCategorical, OneHotCategoricalStraightThrough
from torch.distributions.pareto import Pareto
from torch.distributions.poisson import Poisson
from torch.distributions.relaxed_bernoulli import RelaxedBernoulli
from torch.distributions.relaxed_categorical import RelaxedOneHotCategorical
from torch.distributions.studentT import StudentT
from torch.distributions.transformed_distribution import TransformedDistribution
from torch.distributions.transforms import *  # noqa: F401,F403
from torch.distributions.transforms import __all__ as _transforms_all
from torch.distributions.uniform import Uniform
from torch.distributions.von_mises import VonMises
from torch.distributions.weibull import Weibull
from torch.distributions.wishart import Wishart
from torch.distributions import constraints, transforms, utils  # noqa: F401

__all__ = [
    'Bernoulli', 'Beta', 'Binomial', 'Categorical', 'Cauchy', 'Chi2', 'ContinuousBernoulli', 'Dirichlet',
    'Distribution', 'Exponential', 'ExponentialFamily', 'FisherSnedecor', 'Gamma', 'Geometric', 'Gumbel',
    'HalfCauchy', 'HalfNormal', 'Independent', 'Kumaraswamy', 'LKJCholesky', 'Laplace', 'LogNormal',
    'LogisticNormal', 'LowRankMultivariateNormal', 'MixtureSameFamily', 'Multinomial', 'MultivariateNormal',
    'NegativeBinomial', 'Normal', 'OneHotCategorical', 'OneHotCategoricalStraightThrough', 'Pareto',
    'RelaxedBernoulli', 'RelaxedOneHotCategorical', 'StudentT', 'Poisson', 'Uniform', 'VonMises', 'Weibull',
    'Wishart', 'TransformedDistribution', 'biject_to', 'kl_divergence', 'register_kl', 'transform_to',
] + _transforms_all
