"""RMSprop (centred, with momentum)."""
import torch
from torch.optim import _fused
from torch.optim.optimizer import Optimizer, _check_nonnegative, _new_state, _tick

__all__ = ['RMSprop']


class RMSprop(Optimizer):
    """v = alpha v + (1 - alpha) g^2; p -= lr g / (sqrt(v - mean(g)^2 when centred) + eps), through a
    momentum buffer when momentum > 0."""

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0, centered=False,
                 foreach=None, maximize=False, differentiable=False):
        _check_nonnegative(('learning rate', lr), ('epsilon value', eps), ('momentum value', momentum),
                           ('weight_decay value', weight_decay), ('alpha value', alpha))
        self._check_not_differentiable(differentiable)
        defaults = dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps, centered=centered, weight_decay=weight_decay,
                        foreach=foreach, maximize=maximize, differentiable=differentiable)
        super().__init__(params, defaults)

    _group_defaults = (('momentum', 0), ('centered', False), ('foreach', None), ('maximize', False),
                       ('differentiable', False))

    @torch.no_grad()
    def step(self, closure=None):
        loss = self._run_closure(closure)

        def init(state, p, group):
            _new_state(state, p, 0, 'square_avg', *(('momentum_buffer',) if group['momentum'] > 0 else ()),
                       *(('grad_avg',) if group['centered'] else ()))
        for group, p, grad, state in self._updates('RMSprop', init):
            momentum, centered = group['momentum'], group['centered']
            _tick(state)
            _fused.rmsprop(p, grad, state['square_avg'], state['momentum_buffer'] if momentum > 0 else None,
                           state['grad_avg'] if centered else None, group['lr'], group['alpha'], group['eps'],
                           group['weight_decay'], momentum, centered, group['maximize'])
        return loss
