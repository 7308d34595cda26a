import math

import torch
from torch.distributions import constraints
from torch.distributions.cauchy import Cauchy
from torch.distributions.half_normal import _Folded
from torch.distributions.transforms import AbsTransform

__all__ = ['HalfCauchy']


class HalfCauchy(_Folded):
    """|X| for X ~ Cauchy(0, scale)."""
    arg_constraints = {'scale': constraints.positive}
    support = constraints.nonnegative
    has_rsample = True

    def __init__(self, scale, validate_args=None):
        super().__init__(Cauchy(0, scale, validate_args=False), AbsTransform(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        return super().expand(batch_shape, _instance=self._get_checked_instance(HalfCauchy, _instance))

    @property
    def mean(self):
        return torch.full(self._extended_shape(), math.inf, dtype=self.scale.dtype, device=self.scale.device)

    @property
    def variance(self):
        return self.base_dist.variance

    def log_prob(self, value):
        value = torch.as_tensor(value, dtype=self.base_dist.scale.dtype, device=self.base_dist.scale.device)
        return super().log_prob(value)
