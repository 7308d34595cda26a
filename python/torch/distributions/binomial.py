import torch
from torch.distributions import constraints
from torch.distributions.distribution import Distribution
from torch.distributions.utils import _BinaryParams, _batch_values

__all__ = ['Binomial']


def _clamp_by_zero(x):
    # clamp(x, min=0) whose gradient at 0 is 1/2
    return (x.clamp(min=0) + x - x.clamp(max=0)) / 2


def _homogeneous_count(total_count, what):
    count = int(total_count.max())
    if not total_count.min() == count:
        raise NotImplementedError('Inhomogeneous total count not supported by `%s`.' % what)
    return count


class Binomial(_BinaryParams, Distribution):
    """The number of successes in total_count independent trials of probability probs (or
    sigmoid(logits)). total_count broadcasts with the probabilities."""
    arg_constraints = {'total_count': constraints.nonnegative_integer,
                       'probs': constraints.unit_interval,
                       'logits': constraints.real}
    has_enumerate_support = True

    def __init__(self, total_count=1, probs=None, logits=None, validate_args=None):
        self.total_count, = self._init_params(probs, logits, total_count)
        super().__init__(self._param.size(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return self._expand_binary(Binomial, batch_shape, _instance, ('total_count',))

    @constraints.dependent_property(is_discrete=True, event_dim=0)
    def support(self):
        return constraints.integer_interval(0, self.total_count)

    @property
    def mean(self):
        return self.total_count * self.probs

    @property
    def mode(self):
        return ((self.total_count + 1) * self.probs).floor().clamp(max=self.total_count)

    @property
    def variance(self):
        return self.total_count * self.probs * (1 - self.probs)

    def sample(self, sample_shape=torch.Size()):
        shape = self._extended_shape(sample_shape)
        with torch.no_grad():
            return torch.binomial(self.total_count.expand(shape), self.probs.expand(shape))

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        log_factorial_n = torch.lgamma(self.total_count + 1)
        log_factorial_k = torch.lgamma(value + 1)
        log_factorial_nmk = torch.lgamma(self.total_count - value + 1)
        # n log(1 + exp(logits)), kept finite for large |logits|
        normalize_term = (self.total_count * _clamp_by_zero(self.logits)
                          + self.total_count * torch.log1p(torch.exp(-torch.abs(self.logits)))
                          - log_factorial_n)
        return value * self.logits - log_factorial_k - log_factorial_nmk - normalize_term

    def entropy(self):
        _homogeneous_count(self.total_count, 'entropy')
        log_prob = self.log_prob(self.enumerate_support(False))
        return -(torch.exp(log_prob) * log_prob).sum(0)

    def enumerate_support(self, expand=True):
        count = _homogeneous_count(self.total_count, 'enumerate_support')
        values = torch.arange(1 + count, dtype=self._param.dtype, device=self._param.device)
        return _batch_values(values, self._batch_shape, expand)
