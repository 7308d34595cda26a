"""Pruning: masks that zero parts of a module's parameter, kept as name_orig (the Parameter) and
name_mask (a buffer) with name = name_orig * name_mask recomputed before every forward. Pruning the
same parameter again combines the masks (a PruningContainer); remove() makes the pruning permanent."""
import collections.abc
import numbers
from abc import ABC, abstractmethod

import torch

__all__ = ['BasePruningMethod', 'PruningContainer', 'Identity', 'RandomUnstructured', 'L1Unstructured',
           'RandomStructured', 'LnStructured', 'CustomFromMask', 'identity', 'random_unstructured',
           'l1_unstructured', 'random_structured', 'ln_structured', 'global_unstructured', 'custom_from_mask',
           'remove', 'is_pruned']


def _validate_amount(amount):
    if not isinstance(amount, numbers.Real):
        raise TypeError('Invalid type for amount: {}. Must be int or float.'.format(amount))
    if (isinstance(amount, numbers.Integral) and amount < 0) or \
            (not isinstance(amount, numbers.Integral) and (float(amount) > 1.0 or float(amount) < 0.0)):
        raise ValueError('amount={} should either be a float in the range [0, 1] or a non-negative integer'
                         .format(amount))


def _validate_amount_against_size(amount, tensor_size):
    if isinstance(amount, numbers.Integral) and amount > tensor_size:
        raise ValueError('amount={} should be smaller than the number of parameters to prune={}'
                         .format(amount, tensor_size))


def _compute_nparams_toprune(amount, tensor_size):
    if isinstance(amount, numbers.Integral):
        return amount
    return round(amount * tensor_size)


def _validate_structured_dim(t, dim):
    if t.dim() <= 1:
        raise ValueError('Structured pruning can only be applied to multidimensional tensors. Found tensor of shape '
                         '{} with {} dims'.format(t.shape, t.dim()))
    if dim >= t.dim():
        raise IndexError('Invalid index {} for tensor of size {}'.format(dim, t.shape))


def _norm_along(t, n, dim):
    dims = [d for d in range(t.dim()) if d != (dim % t.dim())]
    return torch.norm(t, p=n, dim=dims)


def _channel_mask(t, dim, channels, value_else):
    """A mask of t's shape: 1 on the given channels (indices along dim), value_else elsewhere."""
    mask = torch.full_like(t, value_else)
    index = [slice(None)] * t.dim()
    index[dim] = channels
    mask[tuple(index)] = 1
    return mask


class BasePruningMethod(ABC):
    """A way to compute a mask; apply() installs it on a module's parameter."""

    _tensor_name: str
    PRUNING_TYPE = None

    def __call__(self, module, inputs):
        setattr(module, self._tensor_name, self.apply_mask(module))

    @abstractmethod
    def compute_mask(self, t, default_mask):
        """The mask to apply to t, given the mask already applied (default_mask)."""

    def apply_mask(self, module):
        assert self._tensor_name is not None, 'Module {} has to be pruned'.format(module)
        orig = getattr(module, self._tensor_name + '_orig')
        mask = getattr(module, self._tensor_name + '_mask')
        return mask.to(dtype=orig.dtype) * orig

    @classmethod
    def apply(cls, module, name, *args, importance_scores=None, **kwargs):
        old_method = None
        found = 0
        hooks_to_remove = []
        for k, hook in module._forward_pre_hooks.items():
            if isinstance(hook, BasePruningMethod) and hook._tensor_name == name:
                old_method = hook
                hooks_to_remove.append(k)
                found += 1
        assert found <= 1, 'Avoid adding multiple pruning hooks to the same tensor {} of module {}. Use a ' \
                           'PruningContainer.'.format(name, module)
        for k in hooks_to_remove:
            del module._forward_pre_hooks[k]

        method = cls(*args, **kwargs)
        method._tensor_name = name
        if old_method is not None:
            if isinstance(old_method, PruningContainer):
                old_method.add_pruning_method(method)
                method = old_method
            else:
                container = PruningContainer(old_method)
                container.add_pruning_method(method)
                method = container

        orig = getattr(module, name)
        if importance_scores is not None:
            assert importance_scores.shape == orig.shape, \
                'importance_scores should have the same shape as parameter {} of {}'.format(name, module)
        else:
            importance_scores = orig
        if old_method is None:
            module.register_parameter(name + '_orig', orig)
            module._parameters.pop(name)
            default_mask = torch.ones_like(orig)
        else:
            default_mask = getattr(module, name + '_mask').detach().clone(memory_format=torch.contiguous_format)
        try:
            mask = method.compute_mask(importance_scores, default_mask=default_mask)
            module.register_buffer(name + '_mask', mask)
            setattr(module, name, method.apply_mask(module))
            module.register_forward_pre_hook(method)
        except Exception as e:
            if old_method is None:
                orig = getattr(module, name + '_orig')
                module.register_parameter(name, orig)
                del module._parameters[name + '_orig']
            raise e
        return method

    def prune(self, t, default_mask=None, importance_scores=None):
        """t with the mask applied (importance_scores, if given, decide the mask)."""
        if importance_scores is not None:
            assert importance_scores.shape == t.shape, 'importance_scores should have the same shape as tensor t'
        else:
            importance_scores = t
        default_mask = default_mask if default_mask is not None else torch.ones_like(t)
        return t * self.compute_mask(importance_scores, default_mask=default_mask)

    def remove(self, module):
        """Makes the pruning permanent: name becomes a Parameter holding the pruned values."""
        assert self._tensor_name is not None, 'Module {} has to be pruned before pruning can be removed'.format(module)
        weight = self.apply_mask(module)
        if hasattr(module, self._tensor_name):
            delattr(module, self._tensor_name)
        orig = module._parameters[self._tensor_name + '_orig']
        orig.data = weight.data
        del module._parameters[self._tensor_name + '_orig']
        del module._buffers[self._tensor_name + '_mask']
        setattr(module, self._tensor_name, orig)


class PruningContainer(BasePruningMethod):
    """A sequence of pruning methods applied one after another to the same parameter."""

    def __init__(self, *args):
        self._pruning_methods = tuple()
        if not isinstance(args, tuple):
            self._tensor_name = args._tensor_name
            self.add_pruning_method(args)
        elif len(args) == 1:
            self._tensor_name = args[0]._tensor_name
            self.add_pruning_method(args[0])
        else:
            for method in args:
                self.add_pruning_method(method)

    def add_pruning_method(self, method):
        if not isinstance(method, BasePruningMethod) and method is not None:
            raise TypeError('{} is not a BasePruningMethod subclass'.format(type(method)))
        elif method is not None and self._tensor_name != method._tensor_name:
            raise ValueError('Can only add pruning methods acting on the parameter named \'{}\' to PruningContainer '
                             '{}. Found \'{}\''.format(self._tensor_name, self, method._tensor_name))
        self._pruning_methods += (method,)

    def __len__(self):
        return len(self._pruning_methods)

    def __iter__(self):
        return iter(self._pruning_methods)

    def __getitem__(self, idx):
        return self._pruning_methods[idx]

    def compute_mask(self, t, default_mask):
        """The last method's mask computed on what the earlier masks left, combined with them."""
        method = self._pruning_methods[-1]
        new_mask = default_mask.clone(memory_format=torch.contiguous_format)
        if method.PRUNING_TYPE == 'unstructured':
            keep = default_mask == 1
            new_mask[keep] = method.compute_mask(t[keep], default_mask=default_mask[keep]).to(new_mask.dtype)
        elif method.PRUNING_TYPE == 'structured':
            if not hasattr(method, 'dim'):
                raise AttributeError('Pruning methods of PRUNING_TYPE "structured" need to have the attribute `dim` '
                                     'defined.')
            dim = method.dim if method.dim >= 0 else t.dim() + method.dim
            others = [d for d in range(t.dim()) if d != dim]
            alive = (default_mask != 0).sum(others) != 0 if others else default_mask != 0
            index = [slice(None)] * t.dim()
            index[dim] = alive
            index = tuple(index)
            new_mask[index] = method.compute_mask(t[index], default_mask=default_mask[index]).to(new_mask.dtype)
            new_mask = new_mask * default_mask
        elif method.PRUNING_TYPE == 'global':
            new_mask = method.compute_mask(t, default_mask=default_mask).to(new_mask.dtype) * default_mask
        else:
            raise ValueError('Unrecognized PRUNING_TYPE {}'.format(method.PRUNING_TYPE))
        return new_mask


class Identity(BasePruningMethod):
    """Prunes nothing (a mask of ones)."""

    PRUNING_TYPE = 'unstructured'

    def compute_mask(self, t, default_mask):
        return default_mask

    @classmethod
    def apply(cls, module, name):
        return super(Identity, cls).apply(module, name)


class _UnstructuredByRank(BasePruningMethod):
    """Prunes `amount` entries: those that _ranked(t) puts first (the k largest of its scores)."""

    PRUNING_TYPE = 'unstructured'

    def __init__(self, amount):
        _validate_amount(amount)
        self.amount = amount

    def compute_mask(self, t, default_mask):
        tensor_size = t.nelement()
        nparams_toprune = _compute_nparams_toprune(self.amount, tensor_size)
        _validate_amount_against_size(nparams_toprune, tensor_size)
        mask = default_mask.clone(memory_format=torch.contiguous_format)
        if nparams_toprune != 0:
            mask.view(-1)[self._ranked(t, nparams_toprune)] = 0
        return mask


class RandomUnstructured(_UnstructuredByRank):
    """Prunes `amount` entries chosen at random."""

    def _ranked(self, t, k):
        return torch.topk(torch.rand_like(t).view(-1), k=k).indices

    @classmethod
    def apply(cls, module, name, amount):
        return super(RandomUnstructured, cls).apply(module, name, amount=amount)


class L1Unstructured(_UnstructuredByRank):
    """Prunes the `amount` entries of smallest magnitude."""

    def _ranked(self, t, k):
        return torch.topk(torch.abs(t).view(-1), k=k, largest=False).indices

    @classmethod
    def apply(cls, module, name, amount, importance_scores=None):
        return super(L1Unstructured, cls).apply(module, name, amount=amount, importance_scores=importance_scores)


class RandomStructured(BasePruningMethod):
    """Prunes `amount` channels along dim chosen at random."""

    PRUNING_TYPE = 'structured'

    def __init__(self, amount, dim=-1):
        _validate_amount(amount)
        self.amount = amount
        self.dim = dim

    def compute_mask(self, t, default_mask):
        _validate_structured_dim(t, self.dim)
        tensor_size = t.shape[self.dim]
        nparams_toprune = _compute_nparams_toprune(self.amount, tensor_size)
        _validate_amount_against_size(nparams_toprune, tensor_size)
        if nparams_toprune == 0:
            return default_mask
        prob = torch.rand(tensor_size)
        threshold = torch.kthvalue(prob, k=nparams_toprune).values
        kept = (prob > threshold).nonzero().view(-1)
        return _channel_mask(t, self.dim, kept, 0) * default_mask

    @classmethod
    def apply(cls, module, name, amount, dim=-1):
        return super(RandomStructured, cls).apply(module, name, amount=amount, dim=dim)


class LnStructured(BasePruningMethod):
    """Prunes the `amount` channels along dim of smallest L`n` norm."""

    PRUNING_TYPE = 'structured'

    def __init__(self, amount, n, dim=-1):
        _validate_amount(amount)
        self.amount = amount
        self.n = n
        self.dim = dim

    def compute_mask(self, t, default_mask):
        _validate_structured_dim(t, self.dim)
        tensor_size = t.shape[self.dim]
        nparams_toprune = _compute_nparams_toprune(self.amount, tensor_size)
        nparams_tokeep = tensor_size - nparams_toprune
        _validate_amount_against_size(nparams_toprune, tensor_size)
        norm = _norm_along(t, self.n, self.dim)
        topk = torch.topk(norm, k=nparams_tokeep, largest=True)
        if nparams_toprune == 0:
            return default_mask
        return _channel_mask(t, self.dim, topk.indices, 0) * default_mask

    @classmethod
    def apply(cls, module, name, amount, n, dim, importance_scores=None):
        return super(LnStructured, cls).apply(module, name, amount=amount, n=n, dim=dim,
                                              importance_scores=importance_scores)


class CustomFromMask(BasePruningMethod):
    """Prunes where the given mask is 0."""

    PRUNING_TYPE = 'global'

    def __init__(self, mask):
        self.mask = mask

    def compute_mask(self, t, default_mask):
        assert default_mask.shape == self.mask.shape
        return default_mask * self.mask.to(dtype=default_mask.dtype)

    @classmethod
    def apply(cls, module, name, mask):
        return super(CustomFromMask, cls).apply(module, name, mask=mask)


def identity(module, name):
    Identity.apply(module, name)
    return module


def random_unstructured(module, name, amount):
    RandomUnstructured.apply(module, name, amount)
    return module


def l1_unstructured(module, name, amount, importance_scores=None):
    L1Unstructured.apply(module, name, amount=amount, importance_scores=importance_scores)
    return module


def random_structured(module, name, amount, dim):
    RandomStructured.apply(module, name, amount, dim)
    return module


def ln_structured(module, name, amount, n, dim, importance_scores=None):
    LnStructured.apply(module, name, amount, n, dim, importance_scores=importance_scores)
    return module


def global_unstructured(parameters, pruning_method, importance_scores=None, **kwargs):
    """Prunes the (module, name) pairs together, as if their entries were one vector."""
    if not isinstance(parameters, collections.abc.Iterable):
        raise TypeError('global_unstructured(): parameters is not an Iterable')
    parameters = list(parameters)
    importance_scores = importance_scores if importance_scores is not None else {}
    if not isinstance(importance_scores, dict):
        raise TypeError('global_unstructured(): importance_scores must be of type dict')
    relevant = torch.nn.utils.parameters_to_vector(
        [importance_scores.get((module, name), getattr(module, name)) for (module, name) in parameters])
    default_mask = torch.nn.utils.parameters_to_vector(
        [getattr(module, name + '_mask', torch.ones_like(getattr(module, name))) for (module, name) in parameters])
    container = PruningContainer()
    container._tensor_name = 'temp'
    method = pruning_method(**kwargs)
    method._tensor_name = 'temp'
    if method.PRUNING_TYPE != 'unstructured':
        raise TypeError('Only "unstructured" PRUNING_TYPE supported for the `pruning_method`. Found method {} of type '
                        '{}'.format(pruning_method, method.PRUNING_TYPE))
    container.add_pruning_method(method)
    final_mask = container.compute_mask(relevant, default_mask)
    pointer = 0
    for module, name in parameters:
        param = getattr(module, name)
        n = param.numel()
        custom_from_mask(module, name, mask=final_mask[pointer:pointer + n].view_as(param))
        pointer += n


def custom_from_mask(module, name, mask):
    CustomFromMask.apply(module, name, mask)
    return module


def remove(module, name):
    """Makes the pruning of module's `name` permanent."""
    for k, hook in module._forward_pre_hooks.items():
        if isinstance(hook, BasePruningMethod) and hook._tensor_name == name:
            hook.remove(module)
            del module._forward_pre_hooks[k]
            return module
    raise ValueError("Parameter '{}' of module {} has to be pruned before pruning can be removed".format(name, module))


def is_pruned(module):
    """Whether any submodule of module has a pruning hook."""
    for _, submodule in module.named_modules():
        for hook in submodule._forward_pre_hooks.values():
            if isinstance(hook, BasePruningMethod):
                return True
    return False
