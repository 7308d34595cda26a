"""ExponentialFamily: distributions p(x) = h(x) exp(<t(x), theta> - F(theta)); their entropy and
the KL divergence between two of one family come from the log normalizer F by autograd (Bregman
divergence)."""
import torch
from torch.distributions.distribution import Distribution

__all__ = ['ExponentialFamily']


class ExponentialFamily(Distribution):
    @property
    def _natural_params(self):
        raise NotImplementedError

    def _log_normalizer(self, *natural_params):
        raise NotImplementedError

    @property
    def _mean_carrier_measure(self):
        raise NotImplementedError

    def entropy(self):
        """-E[log h(x)] + F(theta) - <theta, grad F(theta)>."""
        result = -self._mean_carrier_measure
        nparams = [p.detach().requires_grad_() for p in self._natural_params]
        lg_normal = self._log_normalizer(*nparams)
        gradients = torch.autograd.grad(lg_normal.sum(), nparams, create_graph=True)
        result = result + lg_normal
        for np, g in zip(nparams, gradients):
            result = result - (np * g).reshape(self._batch_shape + (-1,)).sum(-1)
        return result
