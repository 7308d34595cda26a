"""Adadelta."""
import torch
from torch.optim import _fused
from torch.optim.optimizer import Optimizer, _check_nonnegative, _new_state, _tick

__all__ = ['Adadelta']


class Adadelta(Optimizer):
    """v = rho v + (1 - rho) g^2; d = sqrt(u + eps) / sqrt(v + eps) g; u = rho u + (1 - rho) d^2;
    p -= lr d."""

    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *, maximize=False):
        _check_nonnegative(('learning rate', lr))
        if not 0.0 <= rho <= 1.0:
            raise ValueError("Invalid rho value: {}".format(rho))
        _check_nonnegative(('epsilon value', eps), ('weight_decay value', weight_decay))
        defaults = dict(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay, maximize=maximize, foreach=foreach)
        super().__init__(params, defaults)

    _group_defaults = (('foreach', None), ('maximize', False))

    @torch.no_grad()
    def step(self, closure=None):
        loss = self._run_closure(closure)
        init = lambda state, p, group: _new_state(state, p, 0, 'square_avg', 'acc_delta')  # noqa: E731
        for group, p, grad, state in self._updates('Adadelta', init):
            _tick(state)
            _fused.adadelta(p, grad, state['square_avg'], state['acc_delta'], group['lr'], group['rho'], group['eps'],
                            group['weight_decay'], group['maximize'])
        return loss
