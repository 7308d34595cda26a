"""Adamax: Adam with the infinity norm."""
import torch
from torch.optim import _fused
from torch.optim.adam import _check_adam_args
from torch.optim.optimizer import Optimizer, _new_state, _tick

__all__ = ['Adamax']


class Adamax(Optimizer):
    """m = beta1 m + (1 - beta1) g; u = max(beta2 u, |g| + eps); p -= lr / (1 - beta1^t) m / u."""

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, foreach=None, *,
                 maximize=False):
        _check_adam_args(lr, eps, betas, weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, foreach=foreach, maximize=maximize)
        super().__init__(params, defaults)

    _group_defaults = (('foreach', None), ('maximize', False))
    _tensor_counters = ('step',)

    @torch.no_grad()
    def step(self, closure=None):
        loss = self._run_closure(closure)
        init = lambda state, p, group: _new_state(state, p, torch.tensor(0.), 'exp_avg', 'exp_inf')  # noqa: E731
        for group, p, grad, state in self._updates('Adamax', init):
            beta1, beta2 = group['betas']
            clr = group['lr'] / (1 - beta1 ** _tick(state))
            _fused.adamax(p, grad, state['exp_avg'], state['exp_inf'], beta1, beta2, group['eps'],
                          group['weight_decay'], clr, group['maximize'])
        return loss
