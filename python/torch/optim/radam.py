"""RAdam: Adam with the variance of the adaptive learning rate rectified."""
import math

import torch
from torch.optim import _fused
from torch.optim.adam import _check_adam_args
from torch.optim.optimizer import Optimizer, _new_state, _tick

__all__ = ['RAdam']


class RAdam(Optimizer):
    """Adam's moments; while the approximated SMA length rho_t is at most 5 the update is plain momentum,
    after that Adam's, scaled by the rectification term."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, foreach=None):
        _check_adam_args(lr, eps, betas, weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, foreach=foreach)
        super().__init__(params, defaults)

    _group_defaults = (('foreach', None),)
    _tensor_counters = ('step',)

    @torch.no_grad()
    def step(self, closure=None):
        loss = self._run_closure(closure)
        init = lambda state, p, group: _new_state(state, p, torch.tensor(0.), 'exp_avg', 'exp_avg_sq')  # noqa: E731
        for group, p, grad, state in self._updates('RAdam', init):
            beta1, beta2 = group['betas']
            step = _tick(state)
            bias_correction1 = 1 - beta1 ** step
            bias_correction2 = 1 - beta2 ** step
            rho_inf = 2 / (1 - beta2) - 1
            rho_t = rho_inf - 2 * step * (beta2 ** step) / bias_correction2
            rect = 0.0
            if rho_t > 5.:
                rect = math.sqrt((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t))
            _fused.radam(p, grad, state['exp_avg'], state['exp_avg_sq'], group['lr'], beta1, beta2,
                         group['weight_decay'], group['eps'], bias_correction1, math.sqrt(bias_correction2), rect,
                         rho_t > 5.)
        return loss
