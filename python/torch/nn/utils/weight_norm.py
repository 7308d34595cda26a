"""weight_norm: a weight reparametrised as a direction and a magnitude, w = g * v / ||v||
(Salimans and Kingma, 2016), recomputed before every forward."""
import torch
from torch.nn.parameter import Parameter

__all__ = ['WeightNorm', 'weight_norm', 'remove_weight_norm']


def norm_except_dim(v, pow=2, dim=0):
    """The pow-norm of v over every dim but `dim` (kept, the others of size 1); of all of v for -1."""
    if dim == -1:
        return v.norm(pow)
    dims = [d for d in range(v.dim()) if d != dim]
    return v.norm(pow, dims, keepdim=True) if dims else v.abs()


class WeightNorm:
    """The forward pre-hook that recomputes name from name_g and name_v."""

    def __init__(self, name, dim):
        self.name = name
        self.dim = -1 if dim is None else dim

    def compute_weight(self, module):
        g = getattr(module, self.name + '_g')
        v = getattr(module, self.name + '_v')
        return v * (g / norm_except_dim(v, 2, self.dim))

    @staticmethod
    def apply(module, name, dim):
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, WeightNorm) and hook.name == name:
                raise RuntimeError('Cannot register two weight_norm hooks on the same parameter {}'.format(name))
        if dim is None:
            dim = -1
        fn = WeightNorm(name, dim)
        weight = getattr(module, name)
        uninitialized = getattr(torch.nn.parameter, 'UninitializedParameter', ())
        if isinstance(weight, uninitialized):
            raise ValueError('The module passed to `WeightNorm` can\'t have uninitialized parameters. Make sure to '
                             'run the dummy forward before applying weight normalization')
        del module._parameters[name]
        module.register_parameter(name + '_g', Parameter(norm_except_dim(weight, 2, dim).data))
        module.register_parameter(name + '_v', Parameter(weight.data))
        setattr(module, name, fn.compute_weight(module))
        module.register_forward_pre_hook(fn)
        return fn

    def remove(self, module):
        weight = self.compute_weight(module)
        delattr(module, self.name)
        del module._parameters[self.name + '_g']
        del module._parameters[self.name + '_v']
        setattr(module, self.name, Parameter(weight.data))

    def __call__(self, module, inputs):
        setattr(module, self.name, self.compute_weight(module))


def weight_norm(module, name='weight', dim=0):
    """Reparametrises module's `name` as name_g * name_v / ||name_v|| (norm over every dim but `dim`)."""
    WeightNorm.apply(module, name, dim)
    return module


def remove_weight_norm(module, name='weight'):
    """Folds the reparametrisation back into one Parameter `name`."""
    for k, hook in list(module._forward_pre_hooks.items()):
        if isinstance(hook, WeightNorm) and hook.name == name:
            hook.remove(module)
            del module._forward_pre_hooks[k]
            return module
    raise ValueError("weight_norm of '{}' not found in {}".format(name, module))
