import math

import torch
from torch.distributions import constraints
from torch.distributions.distribution import Distribution, _Located
from torch.distributions.utils import broadcast_all, lazy_property

__all__ = ['VonMises']

# Polynomial approximations of the modified Bessel functions I0 and I1 (Abramowitz and Stegun 9.8.1-9.8.4):
# for x < 3.75 in powers of (x / 3.75)^2 (I1 divided by x), above in powers of 3.75 / x (scaled by sqrt(x) e^-x).
_COEF_SMALL = [
    [1.0, 3.5156229, 3.0899424, 1.2067492, 0.2659732, 0.360768e-1, 0.45813e-2],
    [0.5, 0.87890594, 0.51498869, 0.15084934, 0.2658733e-1, 0.301532e-2, 0.32411e-3],
]
_COEF_LARGE = [
    [0.39894228, 0.1328592e-1, 0.225319e-2, -0.157565e-2, 0.916281e-2,
     -0.2057706e-1, 0.2635537e-1, -0.1647633e-1, 0.392377e-2],
    [0.39894228, -0.3988024e-1, -0.362018e-2, 0.163801e-2, -0.1031555e-1,
     0.2282967e-1, -0.2895312e-1, 0.1787654e-1, -0.420059e-2],
]


def _eval_poly(y, coef):
    """Horner's rule: coef[0] + y coef[1] + y^2 coef[2] + ..."""
    result = coef[-1]
    for c in reversed(coef[:-1]):
        result = c + y * result
    return result


def _log_modified_bessel_fn(x, order=0):
    """log I_order(x) for x > 0, order 0 or 1."""
    assert order == 0 or order == 1
    y = x / 3.75
    small = _eval_poly(y * y, _COEF_SMALL[order])
    if order == 1:
        small = x.abs() * small
    small = small.log()
    large = x - 0.5 * x.log() + _eval_poly(3.75 / x, _COEF_LARGE[order]).log()
    return torch.where(x < 3.75, small, large)


def _rejection_sample(loc, concentration, proposal_r, x):
    """Best and Fisher's (1979) rejection sampler: every round draws three uniforms per element and
    keeps the first accepted value of each."""
    done = torch.zeros(x.shape, dtype=torch.bool, device=loc.device)
    while not done.all():
        u1, u2, u3 = torch.rand((3,) + x.shape, dtype=loc.dtype, device=loc.device).unbind()
        z = torch.cos(math.pi * u1)
        f = (1 + proposal_r * z) / (proposal_r + z)
        c = concentration * (proposal_r - f)
        accept = ((c * (2 - c) - u2) > 0) | ((c / u2).log() + 1 - c >= 0)
        if accept.any():
            x = torch.where(accept, (u3 - 0.5).sign() * f.acos(), x)
            done = done | accept
    return (x + math.pi + loc) % (2 * math.pi) - math.pi


class VonMises(_Located, Distribution):
    """The von Mises (circular normal) distribution on angles, with mean direction loc and
    concentration; samples lie in [-pi, pi)."""
    arg_constraints = {'loc': constraints.real, 'concentration': constraints.positive}
    support = constraints.real
    has_rsample = False

    def __init__(self, loc, concentration, validate_args=None):
        self.loc, self.concentration = broadcast_all(loc, concentration)
        batch_shape = self.loc.shape
        # the envelope of the rejection sampler
        tau = 1 + (1 + 4 * self.concentration ** 2).sqrt()
        rho = (tau - (2 * tau).sqrt()) / (2 * self.concentration)
        self._proposal_r = (1 + rho ** 2) / (2 * rho)
        super().__init__(batch_shape, torch.Size(), validate_args)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        log_prob = self.concentration * torch.cos(value - self.loc)
        return log_prob - math.log(2 * math.pi) - _log_modified_bessel_fn(self.concentration, order=0)

    @torch.no_grad()
    def sample(self, sample_shape=torch.Size()):
        shape = self._extended_shape(sample_shape)
        x = torch.empty(shape, dtype=self.loc.dtype, device=self.loc.device)
        return _rejection_sample(self.loc, self.concentration, self._proposal_r, x)

    def expand(self, batch_shape):
        try:
            return super().expand(batch_shape)
        except NotImplementedError:
            validate_args = self.__dict__.get('_validate_args')
            loc = self.loc.expand(batch_shape)
            concentration = self.concentration.expand(batch_shape)
            return type(self)(loc, concentration, validate_args=validate_args)

    @lazy_property
    def variance(self):
        return 1 - (_log_modified_bessel_fn(self.concentration, order=1)
                    - _log_modified_bessel_fn(self.concentration, order=0)).exp()
