"""Helpers shared by the distributions: broadcasting parameters, probabilities <-> logits, lazily
computed attributes, and packing lower-triangular matrices into vectors."""
from functools import update_wrapper
from numbers import Number

import torch
import torch.nn.functional as F

euler_constant = 0.57721566490153286060  # Euler-Mascheroni


def is_tensor_like(inp):
    return type(inp) is torch.Tensor or hasattr(inp, '__torch_function__')


def broadcast_all(*values):
    """Broadcasts tensors and numbers together; numbers become tensors of the first tensor's dtype and
    device (the default dtype when there is none)."""
    if not all(is_tensor_like(v) or isinstance(v, Number) for v in values):
        raise ValueError('Input arguments must all be instances of numbers.Number, '
                         'torch.Tensor or objects implementing __torch_function__.')
    if not all(is_tensor_like(v) for v in values):
        options = dict(dtype=torch.get_default_dtype())
        first = next((v for v in values if isinstance(v, torch.Tensor)), None)
        if first is not None:
            options = dict(dtype=first.dtype, device=first.device)
        values = [v if is_tensor_like(v) else torch.tensor(v, **options) for v in values]
    return torch.broadcast_tensors(*values)


def _standard_normal(shape, dtype, device):
    return torch.empty(shape, dtype=dtype, device=device).normal_()


def _sum_rightmost(value, dim):
    """value summed over its dim rightmost dimensions."""
    if dim == 0:
        return value
    return value.reshape(value.shape[:-dim] + (-1,)).sum(-1)


def logits_to_probs(logits, is_binary=False):
    """Sigmoid of binary logits; softmax over the last dimension otherwise."""
    return torch.sigmoid(logits) if is_binary else F.softmax(logits, dim=-1)


def clamp_probs(probs):
    eps = torch.finfo(probs.dtype).eps
    return probs.clamp(min=eps, max=1 - eps)


def probs_to_logits(probs, is_binary=False):
    """log-odds of binary probabilities; log-probabilities otherwise (both clamped off 0 and 1)."""
    clamped = clamp_probs(probs)
    if is_binary:
        return torch.log(clamped) - torch.log1p(-clamped)
    return torch.log(clamped)


class lazy_property:
    """A method computed on first access (with grad enabled) and then stored on the instance."""

    def __init__(self, wrapped):
        self.wrapped = wrapped
        update_wrapper(self, wrapped)

    def __get__(self, instance, obj_type=None):
        if instance is None:
            return _lazy_property_and_property(self.wrapped)
        with torch.enable_grad():
            value = self.wrapped(instance)
        setattr(instance, self.wrapped.__name__, value)
        return value


class _lazy_property_and_property(lazy_property, property):
    """What a lazy_property is on the class: a property too, so that introspection sees one."""

    def __init__(self, wrapped):
        property.__init__(self, wrapped)


def _tril_mask(n, diag, device):
    arange = torch.arange(n, device=device)
    return arange < arange.view(-1, 1) + (diag + 1)


def tril_matrix_to_vec(mat, diag=0):
    """The entries on and below diagonal `diag` of the last two dimensions, row by row."""
    n = mat.shape[-1]
    if diag < -n or diag >= n:
        raise ValueError(f'diag ({diag}) provided is outside [{-n}, {n-1}].')
    return mat[..., _tril_mask(n, diag, mat.device)]


def vec_to_tril_matrix(vec, diag=0):
    """The inverse of tril_matrix_to_vec: a square matrix with zeros above diagonal `diag`."""
    b = 1 + 2 * diag
    n = (-b + (b ** 2 + 8 * vec.shape[-1] + 4 * abs(diag) * (diag + 1)) ** 0.5) / 2
    if round(n) - n > torch.finfo(vec.dtype).eps:
        raise ValueError(f'The size of last dimension is {vec.shape[-1]} which cannot be expressed as '
                         'the lower triangular part of a square D x D matrix.')
    n = round(n)
    mat = vec.new_zeros(vec.shape[:-1] + torch.Size((n, n)))
    mat[..., _tril_mask(n, diag, vec.device)] = vec
    return mat


def _require_one(probs, logits):
    """Distributions given by probabilities or log-odds take exactly one of them."""
    if (probs is None) == (logits is None):
        raise ValueError('Either `probs` or `logits` must be specified, but not both.')


def _batch_values(values, batch_shape, expand):
    """Support values (first dimension) laid along a new leftmost dimension before batch_shape."""
    values = values.view((values.shape[0],) + (1,) * len(batch_shape) + values.shape[1:])
    return values.expand((values.shape[0],) + batch_shape + values.shape[1 + len(batch_shape):]) if expand else values


class _BinaryParams:
    """What distributions given by the probability (or log-odds) of one event share: exactly one of
    probs and logits is given, the other is computed on first use, and `_param` is the given one."""

    def _init_params(self, probs, logits, *others):
        """Sets probs or logits broadcast with `others` (as broadcast_all would, in that order);
        returns the others broadcast, in the parameter's dtype."""
        _require_one(probs, logits)
        name, given = ('probs', probs) if probs is not None else ('logits', logits)
        values = broadcast_all(*others, given)
        self._param = values[-1]
        setattr(self, name, self._param)
        return [v.type_as(self._param) for v in values[:-1]]

    def _expand_binary(self, cls, batch_shape, _instance, names=()):
        new = self._expand_params(cls, batch_shape, _instance, tuple(names) + ('probs', 'logits'))
        new._param = new.__dict__['logits' if 'logits' in self.__dict__ else 'probs']
        return new

    def _new(self, *args, **kwargs):
        return self._param.new(*args, **kwargs)

    @property
    def param_shape(self):
        return self._param.size()

    @lazy_property
    def logits(self):
        return probs_to_logits(self.probs, is_binary=True)

    @lazy_property
    def probs(self):
        return logits_to_probs(self.logits, is_binary=True)


class _CategoricalView:
    """Distributions built on a Categorical (self._categorical) show its parameters as their own."""

    def _new(self, *args, **kwargs):
        return self._categorical._new(*args, **kwargs)

    @property
    def _param(self):
        return self._categorical._param

    @property
    def param_shape(self):
        return self._categorical.param_shape

    @property
    def logits(self):
        return self._categorical.logits

    @property
    def probs(self):
        return self._categorical.probs


class _RelaxedView:
    """The relaxed distributions (transforms of their base_dist) show its parameters as their own."""

    @property
    def temperature(self):
        return self.base_dist.temperature

    @property
    def logits(self):
        return self.base_dist.logits

    @property
    def probs(self):
        return self.base_dist.probs
