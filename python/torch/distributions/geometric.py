
import torch
from torch.distributions import constraints
from torch.distributions.distribution import Distribution
from torch.distributions.utils import _BinaryParams, broadcast_all
from torch.nn.functional import binary_cross_entropy_with_logits

__all__ = ['Geometric']


class Geometric(_BinaryParams, Distribution):
    """The number of failures before the first success in Bernoulli trials of probability probs."""
    arg_constraints = {'probs': constraints.unit_interval, 'logits': constraints.real}
    support = constraints.nonnegative_integer

    def __init__(self, probs=None, logits=None, validate_args=None):
        self._init_params(probs, logits)
        super().__init__(self._param.size(), validate_args=validate_args)
        if self._validate_args and probs is not None:
            # a probability of zero is in unit_interval but gives no distribution
            value = self.probs
            valid = value > 0
            if not valid.all():
                raise ValueError(
                    f'Expected parameter probs ({type(value).__name__} of shape {tuple(value.shape)}) '
                    f'of distribution {repr(self)} to be positive but found invalid values:\n{value.data[~valid]}')

    def expand(self, batch_shape, _instance=None):
        return self._expand_binary(Geometric, batch_shape, _instance)

    @property
    def mean(self):
        return 1. / self.probs - 1.

    @property
    def mode(self):
        return torch.zeros_like(self.probs)

    @property
    def variance(self):
        return (1. / self.probs - 1.) / self.probs

    def sample(self, sample_shape=torch.Size()):
        shape = self._extended_shape(sample_shape)
        tiny = torch.finfo(self.probs.dtype).tiny
        with torch.no_grad():
            u = self.probs.new(shape).uniform_(tiny, 1)
            return (u.log() / (-self.probs).log1p()).floor()

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        value, probs = broadcast_all(value, self.probs)
        probs = probs.clone(memory_format=torch.contiguous_format)
        probs[(probs == 1) & (value == 0)] = 0
        return value * (-probs).log1p() + self.probs.log()

    def entropy(self):
        return binary_cross_entropy_with_logits(self.logits, self.probs, reduction='none') / self.probs
