"""AdamW: Adam with decoupled weight decay (the parameter shrinks by lr * weight_decay first)."""
import torch
from torch.optim.adam import _adam_step, _check_adam_args
from torch.optim.optimizer import Optimizer

__all__ = ['AdamW']


class AdamW(Optimizer):
    """AdamW: p *= 1 - lr * weight_decay, then Adam's update without weight decay in the gradient."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, *,
                 maximize=False, foreach=None, capturable=False):
        _check_adam_args(lr, eps, betas, weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, amsgrad=amsgrad, foreach=foreach,
                        maximize=maximize, capturable=capturable)
        super().__init__(params, defaults)

    _group_defaults = (('amsgrad', False), ('maximize', False), ('foreach', None), ('capturable', False))
    _tensor_counters = ('step',)

    @torch.no_grad()
    def step(self, closure=None):
        loss = self._run_closure(closure)
        _adam_step(self, 'AdamW', decoupled=True)
        return loss
