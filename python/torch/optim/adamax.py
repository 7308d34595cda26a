"""Adamax: Adam with the infinity norm."""
import torch
from torch.optim import _fused
from torch.optim.adam import _steps_as_tensors
from torch.optim.optimizer import Optimizer, _params_with_grad

__all__ = ['Adamax']


class Adamax(Optimizer):
    """m = beta1 m + (1 - beta1) g; u = max(beta2 u, |g| + eps); p -= lr / (1 - beta1^t) m / u."""

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, foreach=None, *,
                 maximize=False):
        if not 0.0 <= lr:
            raise ValueError("Invalid learning rate: {}".format(lr))
        if not 0.0 <= eps:
            raise ValueError("Invalid epsilon value: {}".format(eps))
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError("Invalid beta parameter at index 0: {}".format(betas[0]))
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError("Invalid beta parameter at index 1: {}".format(betas[1]))
        if not 0.0 <= weight_decay:
            raise ValueError("Invalid weight_decay value: {}".format(weight_decay))
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, foreach=foreach, maximize=maximize)
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault('foreach', None)
            group.setdefault('maximize', False)
        _steps_as_tensors(self, 'step')

    @torch.no_grad()
    def step(self, closure=None):
        loss = self._run_closure(closure)
        for group in self.param_groups:
            beta1, beta2 = group['betas']
            for p, grad in _params_with_grad(group, 'Adamax'):
                state = self.state[p]
                if len(state) == 0:
                    state['step'] = torch.tensor(0.)
                    state['exp_avg'] = torch.zeros_like(p, memory_format=torch.preserve_format)
                    state['exp_inf'] = torch.zeros_like(p, memory_format=torch.preserve_format)
                step_t = state['step']
                step_t += 1
                clr = group['lr'] / (1 - beta1 ** step_t.item())
                _fused.adamax(p, grad, state['exp_avg'], state['exp_inf'], beta1, beta2, group['eps'],
                              group['weight_decay'], clr, group['maximize'])
        return loss
