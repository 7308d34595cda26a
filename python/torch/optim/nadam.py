"""NAdam: Adam with Nesterov momentum."""
import torch
from torch.optim import _fused
from torch.optim.adam import _steps_as_tensors
from torch.optim.optimizer import Optimizer, _params_with_grad

__all__ = ['NAdam']


class NAdam(Optimizer):
    """Adam's moments, with the momentum schedule mu_t = beta1 (1 - 0.5 * 0.96^(t psi)) and its running
    product kept as a float32 tensor, as in PyTorch."""

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, momentum_decay=4e-3,
                 foreach=None):
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
        if not 0.0 <= momentum_decay:
            raise ValueError("Invalid momentum_decay value: {}".format(momentum_decay))
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, momentum_decay=momentum_decay,
                        foreach=foreach)
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:
            group.setdefault('foreach', None)
        _steps_as_tensors(self, 'step', 'mu_product')

    @torch.no_grad()
    def step(self, closure=None):
        loss = self._run_closure(closure)
        for group in self.param_groups:
            beta1, beta2 = group['betas']
            lr, psi = group['lr'], group['momentum_decay']
            for p, grad in _params_with_grad(group, 'NAdam'):
                state = self.state[p]
                if len(state) == 0:
                    state['step'] = torch.tensor(0.)
                    state['mu_product'] = torch.tensor(1.)
                    state['exp_avg'] = torch.zeros_like(p, memory_format=torch.preserve_format)
                    state['exp_avg_sq'] = torch.zeros_like(p, memory_format=torch.preserve_format)
                step_t, mu_product = state['step'], state['mu_product']
                step_t += 1
                step = step_t.item()
                bias_correction2 = 1 - beta2 ** step
                mu = beta1 * (1. - 0.5 * (0.96 ** (step * psi)))
                mu_next = beta1 * (1. - 0.5 * (0.96 ** ((step + 1) * psi)))
                mu_product *= mu
                mu_product_next = mu_product * mu * mu_next
                _fused.nadam(p, grad, state['exp_avg'], state['exp_avg_sq'], beta1, beta2, group['weight_decay'],
                             group['eps'], bias_correction2, -lr * (1. - mu) / (1. - mu_product.item()),
                             -lr * mu_next / (1. - mu_product_next.item()))
        return loss
