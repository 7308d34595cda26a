"""SGD with momentum, dampening, Nesterov momentum, weight decay and maximize."""
import torch
from torch.optim import _fused
from torch.optim.optimizer import Optimizer, _check_nonnegative, required

__all__ = ['SGD']


class SGD(Optimizer):
    """Stochastic gradient descent; each parameter is updated by one fused kernel pass with PyTorch
    1.13's formula (momentum buffer b = momentum * b + (1 - dampening) * g, the first one b = g)."""

    def __init__(self, params, lr=required, momentum=0, dampening=0, weight_decay=0, nesterov=False, *,
                 maximize=False, foreach=None, differentiable=False):
        if lr is not required:
            _check_nonnegative(('learning rate', lr))
        _check_nonnegative(('momentum value', momentum), ('weight_decay value', weight_decay))
        self._check_not_differentiable(differentiable)
        defaults = dict(lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay, nesterov=nesterov,
                        maximize=maximize, foreach=foreach, differentiable=differentiable)
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, defaults)

    _group_defaults = (('nesterov', False), ('maximize', False), ('foreach', None), ('differentiable', False))

    @torch.no_grad()
    def step(self, closure=None):
        loss = self._run_closure(closure)
        for group, p, grad, state in self._updates('SGD', lambda state, p, group: None):
            momentum = group['momentum']
            buf = state.get('momentum_buffer')
            first = buf is None
            if momentum != 0 and first:
                buf = torch.empty_like(grad)  # the kernel fills it with the first direction
            _fused.sgd(p, grad, buf if momentum != 0 else None, group['lr'], group['weight_decay'], momentum,
                       group['dampening'], group['nesterov'], group['maximize'], first)
            state['momentum_buffer'] = buf if momentum != 0 else None
        return loss
