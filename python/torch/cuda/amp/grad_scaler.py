"""torch.cuda.amp.GradScaler: dynamic loss scaling. Without CUDA it warns and disables itself as PyTorch's
does (scale() returns its input, step() is optimizer.step(), get_scale() 1.0, state_dict() {})."""
import warnings
from collections import defaultdict

import torch

_READY, _UNSCALED, _STEPPED = 0, 1, 2


class GradScaler:
    def __init__(self, init_scale=2.0 ** 16, growth_factor=2.0, backoff_factor=0.5, growth_interval=2000,
                 enabled=True):
        if enabled and not torch.cuda.is_available():
            warnings.warn('torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling.')
            enabled = False
        self._enabled = enabled
        if enabled:
            if growth_factor <= 1.0:
                raise AssertionError('The growth factor must be > 1.0.')
            if backoff_factor >= 1.0:
                raise AssertionError('The backoff factor must be < 1.0.')
            self._init_scale, self._growth_factor = init_scale, growth_factor
            self._backoff_factor, self._growth_interval = backoff_factor, growth_interval
            self._scale = None  # a 1-element float32 tensor on the device of the first scaled output
            self._growth_tracker = 0
            self._per_optimizer_states = defaultdict(self._fresh_state)

    @staticmethod
    def _fresh_state():
        return {'stage': _READY, 'found_inf': None}

    def is_enabled(self):
        return self._enabled

    def scale(self, outputs):
        """outputs (a tensor, or tensors in lists and tuples) multiplied by the scale factor."""
        if not self._enabled:
            return outputs
        if isinstance(outputs, torch.Tensor):
            if self._scale is None:
                self._scale = torch.full((1,), float(self._init_scale), dtype=torch.float32, device=outputs.device)
            return outputs * self._scale.to(outputs.device)
        if isinstance(outputs, (list, tuple)):
            return type(outputs)(self.scale(o) for o in outputs)
        raise ValueError('outputs must be a Tensor or an iterable of Tensors')

    def _check_scale(self, funcname):
        if self._scale is None:
            raise AssertionError('Attempted %s but _scale is None.  This may indicate your script did not use '
                                 'scaler.scale(loss or outputs) earlier in the iteration.' % funcname)

    def unscale_(self, optimizer):
        """Divides the optimizer's gradients by the scale in place and records whether any is inf or NaN."""
        if not self._enabled:
            return
        self._check_scale('unscale_')
        state = self._per_optimizer_states[id(optimizer)]
        if state['stage'] == _UNSCALED:
            raise RuntimeError('unscale_() has already been called on this optimizer since the last update().')
        if state['stage'] == _STEPPED:
            raise RuntimeError('unscale_() is being called after step().')
        inv_scale = 1.0 / self._scale.double().item()
        found = False
        with torch.no_grad():
            for group in optimizer.param_groups:
                for p in group['params']:
                    if p.grad is None:
                        continue
                    if p.grad.dtype == torch.float16:
                        raise ValueError('Attempting to unscale FP16 gradients.')
                    p.grad.mul_(inv_scale)
                    found = found or not bool(torch.isfinite(p.grad).all())
        state['found_inf'], state['stage'] = found, _UNSCALED

    def step(self, optimizer, *args, **kwargs):
        """optimizer.step(*args, **kwargs) after unscaling, skipped when a gradient is inf or NaN."""
        if not self._enabled:
            return optimizer.step(*args, **kwargs)
        if 'closure' in kwargs:
            raise RuntimeError('Closure use is not currently supported if GradScaler is enabled.')
        self._check_scale('step')
        state = self._per_optimizer_states[id(optimizer)]
        if state['stage'] == _STEPPED:
            raise RuntimeError('step() has already been called since the last update().')
        if state['stage'] == _READY:
            self.unscale_(optimizer)
        if state['found_inf']:
            result = None
        else:
            result = optimizer.step(*args, **kwargs)
        state['stage'] = _STEPPED
        return result

    def update(self, new_scale=None):
        """Backs the scale off after a step with inf/NaN gradients, grows it after growth_interval
        clean ones; or sets it to new_scale."""
        if not self._enabled:
            return
        self._check_scale('update')
        if new_scale is not None:
            if isinstance(new_scale, float):
                self._scale.fill_(new_scale)
            elif isinstance(new_scale, torch.Tensor) and new_scale.numel() == 1 and not new_scale.requires_grad:
                self._scale.copy_(new_scale.reshape(1))
            else:
                raise AssertionError('new_scale should be a float or a 1-element torch.cuda.FloatTensor with '
                                     'requires_grad=False.')
        else:
            found = [s['found_inf'] for s in self._per_optimizer_states.values() if s['found_inf'] is not None]
            if not found:
                raise AssertionError('No inf checks were recorded prior to update.')
            if any(found):
                self._scale.mul_(self._backoff_factor)
                self._growth_tracker = 0
            else:
                self._growth_tracker += 1
                if self._growth_tracker == self._growth_interval:
                    self._scale.mul_(self._growth_factor)
                    self._growth_tracker = 0
        self._per_optimizer_states = defaultdict(self._fresh_state)

    def get_scale(self):
        if not self._enabled:
            return 1.0
        return self._init_scale if self._scale is None else self._scale.item()

    def get_growth_factor(self):
        return self._growth_factor

    def set_growth_factor(self, new_factor):
        self._growth_factor = new_factor

    def get_backoff_factor(self):
        return self._backoff_factor

    def set_backoff_factor(self, new_factor):
        self._backoff_factor = new_factor

    def get_growth_interval(self):
        return self._growth_interval

    def set_growth_interval(self, new_interval):
        self._growth_interval = new_interval

    def state_dict(self):
        if not self._enabled:
            return {}
        return {'scale': self.get_scale(), 'growth_factor': self._growth_factor,
                'backoff_factor': self._backoff_factor, 'growth_interval': self._growth_interval,
                '_growth_tracker': self._growth_tracker}

    def load_state_dict(self, state_dict):
        if not self._enabled:
            return
        if len(state_dict) == 0:
            raise RuntimeError('The source state dict is empty, possibly because it was saved from a disabled '
                               'instance of GradScaler.')
        self._init_scale = state_dict['scale']
        if self._scale is not None:
            self._scale.fill_(state_dict['scale'])
        self._growth_factor, self._backoff_factor = state_dict['growth_factor'], state_dict['backoff_factor']
        self._growth_interval, self._growth_tracker = state_dict['growth_interval'], state_dict['_growth_tracker']
