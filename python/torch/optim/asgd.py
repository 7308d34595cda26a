"""ASGD: averaged stochastic gradient descent."""
import math

import torch
from torch.optim import _fused
from torch.optim.optimizer import Optimizer, _check_nonnegative, _tick

__all__ = ['ASGD']


class ASGD(Optimizer):
    """p = p (1 - lambd eta) - eta g; ax averages p from step t0 on; eta and mu follow PyTorch's
    schedules, kept as float32 tensors in the state as PyTorch keeps them."""

    def __init__(self, params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0, foreach=None,
                 maximize=False):
        _check_nonnegative(('learning rate', lr), ('weight_decay value', weight_decay))
        defaults = dict(lr=lr, lambd=lambd, alpha=alpha, t0=t0, weight_decay=weight_decay, foreach=foreach,
                        maximize=maximize)
        super().__init__(params, defaults)

    _group_defaults = (('foreach', None), ('maximize', False))
    _tensor_counters = ('step', 'eta', 'mu')

    @torch.no_grad()
    def step(self, closure=None):
        loss = self._run_closure(closure)

        def init(state, p, group):
            state.update(step=torch.tensor(0.), eta=torch.tensor(group['lr']), mu=torch.tensor(1.))
            state['ax'] = torch.zeros_like(p, memory_format=torch.preserve_format)
        for group, p, grad, state in self._updates('ASGD', init):
            lr, lambd = group['lr'], group['lambd']
            step = _tick(state)
            eta, mu = state['eta'], state['mu']
            _fused.asgd(p, grad, state['ax'], eta.item(), mu.item(), lambd, group['weight_decay'], group['maximize'])
            eta.copy_(torch.tensor(lr / math.pow((1 + lambd * lr * step), group['alpha'])))
            mu.copy_(torch.tensor(1 / max(1, step - group['t0'])))
        return loss
