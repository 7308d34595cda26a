"""Adam (with amsgrad and maximize)."""
import math

import torch
from torch.optim import _fused
from torch.optim.optimizer import Optimizer, _check_betas, _check_nonnegative, _new_state, _tick

__all__ = ['Adam']


def _check_adam_args(lr, eps, betas, weight_decay):
    """The checks of the Adam family, in PyTorch's order."""
    _check_nonnegative(('learning rate', lr), ('epsilon value', eps))
    _check_betas(betas)
    _check_nonnegative(('weight_decay value', weight_decay))


def _adam_step(optimizer, name, decoupled):
    """One step of Adam or AdamW over every group: the step counter and the bias corrections as
    PyTorch computes them (Python floats from the float32 counter), the arithmetic in the kernel."""
    def init(state, p, group):
        capturable = optimizer.defaults['capturable'] or optimizer.defaults.get('fused', False)
        _new_state(state, p, torch.zeros((1,), dtype=torch.float) if capturable else torch.tensor(0.), 'exp_avg',
                   'exp_avg_sq', *(('max_exp_avg_sq',) if group['amsgrad'] else ()))
    for group, p, grad, state in optimizer._updates(name, init):
        if group['capturable']:
            assert p.is_cuda and state['step'].is_cuda, \
                "If capturable=True, params and state_steps must be CUDA tensors."
        beta1, beta2 = group['betas']
        lr, wd = group['lr'], group['weight_decay']
        step = _tick(state)
        bias_correction1 = 1 - beta1 ** step
        bias_correction2 = 1 - beta2 ** step
        vmax = state['max_exp_avg_sq'] if group['amsgrad'] else None
        _fused.adam(p, grad, state['exp_avg'], state['exp_avg_sq'], vmax, beta1, beta2, 0.0 if decoupled else wd,
                    1 - lr * wd if decoupled else 1.0, group['eps'], lr / bias_correction1,
                    math.sqrt(bias_correction2), group['maximize'])


class Adam(Optimizer):
    """Adam: m = beta1 m + (1 - beta1) g, v = beta2 v + (1 - beta2) g^2, p -= lr / (1 - beta1^t) *
    m / (sqrt(v) / sqrt(1 - beta2^t) + eps) (v replaced by its running maximum with amsgrad); one
    fused kernel pass per parameter, with PyTorch 1.13's roundings."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False, *, foreach=None,
                 maximize=False, capturable=False, differentiable=False, fused=False):
        _check_adam_args(lr, eps, betas, weight_decay)
        self._check_not_differentiable(differentiable)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, amsgrad=amsgrad, maximize=maximize,
                        foreach=foreach, capturable=capturable, differentiable=differentiable, fused=fused)
        super().__init__(params, defaults)
        if fused:
            if differentiable:
                raise RuntimeError("`fused` cannot be `differentiable`")
            if not all(p.is_cuda and torch.is_floating_point(p) for g in self.param_groups for p in g['params']):
                raise RuntimeError("FusedAdam requires all the params to be CUDA, floating point")

    _group_defaults = (('amsgrad', False), ('maximize', False), ('foreach', None), ('capturable', False),
                       ('differentiable', False), ('fused', False))
    _tensor_counters = ('step',)

    @torch.no_grad()
    def step(self, closure=None):
        loss = self._run_closure(closure)
        _adam_step(self, 'Adam', decoupled=False)
        return loss
