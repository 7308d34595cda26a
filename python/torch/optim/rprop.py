"""Rprop: resilient backpropagation (only the gradient's sign is used)."""
import torch
from torch.optim import _fused
from torch.optim.optimizer import Optimizer, _check_nonnegative, _new_state, _tick

__all__ = ['Rprop']


class Rprop(Optimizer):
    """Each element's step size grows by etaplus while the gradient keeps its sign and shrinks by
    etaminus when it flips (that step then skips the element); p -= sign(g) * step size."""

    def __init__(self, params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), foreach=None, maximize=False):
        _check_nonnegative(('learning rate', lr))
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError("Invalid eta values: {}, {}".format(etas[0], etas[1]))
        defaults = dict(lr=lr, etas=etas, step_sizes=step_sizes, foreach=foreach, maximize=maximize)
        super().__init__(params, defaults)

    _group_defaults = (('foreach', None), ('maximize', False))

    @torch.no_grad()
    def step(self, closure=None):
        loss = self._run_closure(closure)

        def init(state, p, group):
            _new_state(state, p, 0, 'prev')
            state['step_size'] = torch.empty(p.grad.shape, dtype=p.grad.dtype).fill_(group['lr'])
        for group, p, grad, state in self._updates('Rprop', init):
            etaminus, etaplus = group['etas']
            step_size_min, step_size_max = group['step_sizes']
            _tick(state)
            _fused.rprop(p, grad, state['prev'], state['step_size'], etaminus, etaplus, step_size_min, step_size_max,
                         group['maximize'])
        return loss
