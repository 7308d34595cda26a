"""RMSprop (centred, with momentum)."""
import torch
from torch.optim import _fused
from torch.optim.optimizer import Optimizer, _params_with_grad

__all__ = ['RMSprop']


class RMSprop(Optimizer):
    """v = alpha v + (1 - alpha) g^2; p -= lr g / (sqrt(v - mean(g)^2 when centred) + eps), through a
    momentum buffer when momentum > 0."""

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0, centered=False,
                 foreach=None, maximize=False, differentiable=False):
        if not 0.0 <= lr:
            raise ValueError("Invalid learning rate: {}".format(lr))
        if not 0.0 <= eps:
            raise ValueError("Invalid epsilon value: {}".format(eps))
        if not 0.0 <= momentum:
            raise ValueError("Invalid momentum value: {}".format(momentum))
        if not 0.0 <= weight_decay:
            raise ValueError("Invalid weight_decay value: {}".format(weight_decay))
        if not 0.0 <= alpha:
            raise ValueError("Invalid alpha value: {}".format(alpha))
        self._check_not_differentiable(differentiable)
        defaults = dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps, centered=centered, weight_decay=weight_decay,
                        foreach=foreach, maximize=maximize, differentiable=differentiable)
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            for key, value in (('momentum', 0), ('centered', False), ('foreach', None), ('maximize', False),
                               ('differentiable', False)):
                group.setdefault(key, value)

    @torch.no_grad()
    def step(self, closure=None):
        loss = self._run_closure(closure)
        for group in self.param_groups:
            momentum, centered = group['momentum'], group['centered']
            for p, grad in _params_with_grad(group, 'RMSprop'):
                state = self.state[p]
                if len(state) == 0:
                    state['step'] = 0
                    state['square_avg'] = torch.zeros_like(p, memory_format=torch.preserve_format)
                    if momentum > 0:
                        state['momentum_buffer'] = torch.zeros_like(p, memory_format=torch.preserve_format)
                    if centered:
                        state['grad_avg'] = torch.zeros_like(p, memory_format=torch.preserve_format)
                state['step'] += 1
                _fused.rmsprop(p, grad, state['square_avg'], state['momentum_buffer'] if momentum > 0 else None,
                               state['grad_avg'] if centered else None, group['lr'], group['alpha'], group['eps'],
                               group['weight_decay'], momentum, centered, group['maximize'])
        return loss
