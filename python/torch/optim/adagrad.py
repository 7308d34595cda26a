"""Adagrad."""
import torch
from torch.optim import _fused
from torch.optim.optimizer import Optimizer, _check_nonnegative, _tick

__all__ = ['Adagrad']


class Adagrad(Optimizer):
    """s += g^2; p -= lr / (1 + (t - 1) lr_decay) * g / (sqrt(s) + eps). The state exists from the
    start (s = initial_accumulator_value), as in PyTorch."""

    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0, eps=1e-10,
                 foreach=None, *, maximize=False):
        _check_nonnegative(('learning rate', lr), ('lr_decay value', lr_decay), ('weight_decay value', weight_decay),
                           ('initial_accumulator_value value', initial_accumulator_value), ('epsilon value', eps))
        defaults = dict(lr=lr, lr_decay=lr_decay, eps=eps, weight_decay=weight_decay,
                        initial_accumulator_value=initial_accumulator_value, foreach=foreach, maximize=maximize)
        super().__init__(params, defaults)
        for group in self.param_groups:
            for p in group['params']:
                state = self.state[p]
                state['step'] = torch.tensor(0.0)
                state['sum'] = torch.full_like(p, initial_accumulator_value, memory_format=torch.preserve_format)

    _group_defaults = (('foreach', None), ('maximize', False))
    _tensor_counters = ('step',)

    @torch.no_grad()
    def step(self, closure=None):
        loss = self._run_closure(closure)
        for group, p, grad, state in self._updates('Adagrad', lambda state, p, group: None):
            clr = group['lr'] / (1 + (_tick(state) - 1) * group['lr_decay'])
            _fused.adagrad(p, grad, state['sum'], clr, group['weight_decay'], group['eps'], group['maximize'])
        return loss
