"""The Optimizer base: parameter groups, per-parameter state, and PyTorch's packed state_dict format
({'state': {index: ...}, 'param_groups': [{..., 'params': [index, ...]}]}, parameters numbered in
order of appearance across groups), so that checkpoints move between this project and PyTorch."""
import warnings
from collections import abc, defaultdict
from copy import deepcopy
from itertools import chain

import torch
from torch.nn.modules.module import _typename, _zero_grads

__all__ = ['Optimizer', 'required']


class _RequiredParameter:
    """The default of an argument every group must give (SGD's lr)."""

    def __repr__(self):
        return "<required parameter>"


required = _RequiredParameter()


class Optimizer:
    """Base of every optimizer: subclasses define step() and pass their per-group defaults."""

    def __init__(self, params, defaults):
        self.defaults = defaults
        if isinstance(params, torch.Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of Tensors or dicts, but "
                            "got " + _typename(params))
        self.state = defaultdict(dict)
        self.param_groups = []
        groups = list(params)
        if len(groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{'params': groups}]
        for group in groups:
            self.add_param_group(group)

    def __getstate__(self):
        return {'defaults': self.defaults, 'state': self.state, 'param_groups': self.param_groups}

    # What __setstate__ fills in for checkpoints of older PyTorch versions: group settings added since,
    # and state counters that were numbers before they became float32 tensors.
    _group_defaults = ()
    _tensor_counters = ()

    def __setstate__(self, state):
        self.__dict__.update(state)
        self.defaults.setdefault('differentiable', False)
        for group in self.param_groups:
            for key, value in self._group_defaults:
                group.setdefault(key, value)
        for s in self.state.values():
            for key in self._tensor_counters:
                if key in s and not torch.is_tensor(s[key]):
                    s[key] = torch.tensor(float(s[key]))

    def __repr__(self):
        text = type(self).__name__ + ' ('
        for i, group in enumerate(self.param_groups):
            text += '\nParameter Group {0}\n'.format(i)
            for key in sorted(group.keys()):
                if key != 'params':
                    text += '    {0}: {1}\n'.format(key, group[key])
        return text + ')'

    def state_dict(self):
        """{'state': per-parameter state keyed by parameter index, 'param_groups': the groups' settings
        with 'params' as lists of indices}. Tensors in it are the optimizer's own (not copies)."""
        index = {}
        groups = []
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != 'params'}
            for p in group['params']:
                index.setdefault(id(p), len(index))
            packed['params'] = [index[id(p)] for p in group['params']]
            groups.append(packed)
        state = {index[id(k)] if isinstance(k, torch.Tensor) else k: v for k, v in self.state.items()}
        return {'state': state, 'param_groups': groups}

    def load_state_dict(self, state_dict):
        """Restores state_dict() output (deep-copied first); state tensors take each parameter's
        device, and its dtype when floating (the step counters keep theirs)."""
        state_dict = deepcopy(state_dict)
        groups, saved_groups = self.param_groups, state_dict['param_groups']
        if len(groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(g['params']) != len(s['params']) for g, s in zip(groups, saved_groups)):
            raise ValueError("loaded state dict contains a parameter group that doesn't match the size of optimizer's "
                             "group")
        id_map = dict(zip(chain.from_iterable(g['params'] for g in saved_groups),
                          chain.from_iterable(g['params'] for g in groups)))

        def cast(param, value, key=None):
            if isinstance(value, torch.Tensor):
                if key != 'step':  # step counters stay float32 on the CPU, as PyTorch keeps them
                    if param.is_floating_point():
                        value = value.to(param.dtype)
                    value = value.to(param.device)
                return value
            if isinstance(value, dict):
                return {k: cast(param, v, key=k) for k, v in value.items()}
            if isinstance(value, abc.Iterable) and not isinstance(value, str):
                return type(value)(cast(param, v) for v in value)
            return value

        state = defaultdict(dict)
        for k, v in state_dict['state'].items():
            if k in id_map:
                state[id_map[k]] = cast(id_map[k], v)
            else:
                state[k] = v
        for group, saved in zip(groups, saved_groups):
            saved['params'] = group['params']
        self.__setstate__({'state': state, 'param_groups': saved_groups})

    def zero_grad(self, set_to_none=False):
        """Zeroes (or, with set_to_none, drops) the gradients of every parameter."""
        _zero_grads((p for group in self.param_groups for p in group['params']), set_to_none)

    def step(self, closure):
        raise NotImplementedError

    def add_param_group(self, param_group):
        """Adds a group of parameters with its own settings (the defaults fill what it leaves out)."""
        assert isinstance(param_group, dict), "param group must be a dict"
        params = param_group['params']
        if isinstance(params, torch.Tensor):
            param_group['params'] = [params]
        elif isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, but the ordering of "
                            "tensors in sets will change between runs. Please use a list instead.")
        else:
            param_group['params'] = list(params)
        for param in param_group['params']:
            if not isinstance(param, torch.Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is " + _typename(param))
            if not self.defaults.get('differentiable', None) and not (param.is_leaf or param.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError("parameter group didn't specify a value of required optimization parameter " + name)
            param_group.setdefault(name, default)
        params = param_group['params']
        if len(params) != len(set(params)):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; in future, this will cause "
                          "an error; see github.com/pytorch/pytorch/issues/40967 for more information", stacklevel=3)
        existing = set()
        for group in self.param_groups:
            existing.update(group['params'])
        if not existing.isdisjoint(params):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    # ---- what the subclasses share ----

    def _run_closure(self, closure):
        if closure is None:
            return None
        with torch.enable_grad():
            return closure()

    def _updates(self, name, init):
        """(group, param, grad, state) for every parameter that has a gradient, group by group; init(state,
        param, group) fills the state of a parameter at its first step."""
        for group in self.param_groups:
            for p, grad in _params_with_grad(group, name):
                state = self.state[p]
                if len(state) == 0:
                    init(state, p, group)
                yield group, p, grad, state

    @staticmethod
    def _check_not_differentiable(differentiable):
        if differentiable:
            raise RuntimeError("differentiable=True is not supported: parameter updates run as fused kernels that "
                               "autograd does not record")


def _check_nonnegative(*checks):
    """Each (what, value) must be >= 0, else PyTorch's ValueError "Invalid <what>: <value>" (checked in
    order: the first bad one is named)."""
    for what, value in checks:
        if not 0.0 <= value:
            raise ValueError("Invalid {}: {}".format(what, value))


def _check_betas(betas):
    for i in (0, 1):
        if not 0.0 <= betas[i] < 1.0:
            raise ValueError("Invalid beta parameter at index {}: {}".format(i, betas[i]))


def _new_state(state, p, step, *buffers):
    """The state of a parameter at its first step: the counter and zero buffers like it."""
    state['step'] = step
    for name in buffers:
        state[name] = torch.zeros_like(p, memory_format=torch.preserve_format)


def _tick(state):
    """Counts a step (a float32 tensor counter, as PyTorch keeps it, or a number) and returns its value."""
    state['step'] += 1
    step = state['step']
    return step.item() if torch.is_tensor(step) else step


def _params_with_grad(group, name):
    """(param, grad) of the group's parameters that have a gradient; sparse ones are refused as
    PyTorch's optimizer `name` refuses them."""
    for p in group['params']:
        if p.grad is not None:
            if p.grad.is_sparse:
                raise RuntimeError('%s does not support sparse gradients' % name)
            yield p, p.grad
