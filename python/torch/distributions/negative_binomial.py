import torch
import torch.nn.functional as F
from torch.distributions import constraints
from torch.distributions.distribution import Distribution
from torch.distributions.utils import _BinaryParams, lazy_property

__all__ = ['NegativeBinomial']


class NegativeBinomial(_BinaryParams, Distribution):
    """The number of successes (probability probs each) before total_count failures; a Poisson whose
    rate is Gamma(total_count, exp(-logits)) distributed."""
    arg_constraints = {'total_count': constraints.greater_than_eq(0),
                       'probs': constraints.half_open_interval(0., 1.),
                       'logits': constraints.real}
    support = constraints.nonnegative_integer

    def __init__(self, total_count, probs=None, logits=None, validate_args=None):
        self.total_count, = self._init_params(probs, logits, total_count)
        super().__init__(self._param.size(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return self._expand_binary(NegativeBinomial, batch_shape, _instance, ('total_count',))

    @property
    def mean(self):
        return self.total_count * torch.exp(self.logits)

    @property
    def mode(self):
        return ((self.total_count - 1) * self.logits.exp()).floor().clamp(min=0.)

    @property
    def variance(self):
        return self.mean / torch.sigmoid(-self.logits)

    @lazy_property
    def _gamma(self):
        from torch.distributions.gamma import Gamma
        return Gamma(concentration=self.total_count, rate=torch.exp(-self.logits), validate_args=False)

    def sample(self, sample_shape=torch.Size()):
        with torch.no_grad():
            return torch.poisson(self._gamma.sample(sample_shape=sample_shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        log_unnormalized = self.total_count * F.logsigmoid(-self.logits) + value * F.logsigmoid(self.logits)
        log_normalization = (-torch.lgamma(self.total_count + value) + torch.lgamma(1. + value)
                             + torch.lgamma(self.total_count))
        # an empty count (total_count + value == 0) has probability one
        log_normalization = log_normalization.masked_fill(self.total_count + value == 0., 0.)
        return log_unnormalized - log_normalization
