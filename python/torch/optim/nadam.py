"""NAdam: Adam with Nesterov momentum."""
import torch
from torch.optim import _fused
from torch.optim.adam import _check_adam_args
from torch.optim.optimizer import Optimizer, _check_nonnegative, _new_state, _tick

__all__ = ['NAdam']


class NAdam(Optimizer):
    """Adam's moments, with the momentum schedule mu_t = beta1 (1 - 0.5 * 0.96^(t psi)) and its running
    product kept as a float32 tensor, as in PyTorch."""

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, momentum_decay=4e-3,
                 foreach=None):
        _check_adam_args(lr, eps, betas, weight_decay)
        _check_nonnegative(('momentum_decay value', momentum_decay))
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, momentum_decay=momentum_decay,
                        foreach=foreach)
        super().__init__(params, defaults)

    _group_defaults = (('foreach', None),)
    _tensor_counters = ('step', 'mu_product')

    @torch.no_grad()
    def step(self, closure=None):
        loss = self._run_closure(closure)

        def init(state, p, group):
            state.update(step=torch.tensor(0.), mu_product=torch.tensor(1.))
            _new_state(state, p, state['step'], 'exp_avg', 'exp_avg_sq')
        for group, p, grad, state in self._updates('NAdam', init):
            beta1, beta2 = group['betas']
            lr, psi = group['lr'], group['momentum_decay']
            step = _tick(state)
            mu_product = state['mu_product']
            bias_correction2 = 1 - beta2 ** step
            mu = beta1 * (1. - 0.5 * (0.96 ** (step * psi)))
            mu_next = beta1 * (1. - 0.5 * (0.96 ** ((step + 1) * psi)))
            mu_product *= mu
            mu_product_next = mu_product * mu * mu_next
            _fused.nadam(p, grad, state['exp_avg'], state['exp_avg_sq'], beta1, beta2, group['weight_decay'],
                         group['eps'], bias_correction2, -lr * (1. - mu) / (1. - mu_product.item()),
                         -lr * mu_next / (1. - mu_product_next.item()))
        return loss
