"""torch.ao.nn.quantized: FloatFunctional (the float stand-in that quantizable models route their adds and
concatenations through, so a quantized version can replace it). Quantized tensors are not implemented in
this framework, so the modules that compute on them (QFunctional, Quantize, DeQuantize) raise when built."""
import torch

__all__ = ['FloatFunctional', 'FXFloatFunctional', 'QFunctional', 'Quantize', 'DeQuantize']


class FloatFunctional(torch.nn.Module):
    """add, cat, mul, add_relu, add_scalar, mul_scalar, matmul in float; each result passes through
    activation_post_process (an Identity until an observer is attached)."""

    def __init__(self):
        super().__init__()
        self.activation_post_process = torch.nn.Identity()

    def forward(self, x):
        raise RuntimeError("FloatFunctional is not intended to use the 'forward'. Please use the underlying "
                           "operation")

    def add(self, x, y):
        return self.activation_post_process(torch.add(x, y))

    def add_scalar(self, x, y):
        return torch.add(x, y)

    def mul(self, x, y):
        return self.activation_post_process(torch.mul(x, y))

    def mul_scalar(self, x, y):
        return torch.mul(x, y)

    def cat(self, x, dim=0):
        return self.activation_post_process(torch.cat(x, dim=dim))

    def add_relu(self, x, y):
        return self.activation_post_process(torch.nn.functional.relu(torch.add(x, y)))

    def matmul(self, x, y):
        return self.activation_post_process(torch.matmul(x, y))


class FXFloatFunctional(FloatFunctional):
    """FloatFunctional for FX graph mode quantization (which observes around it)."""


def _needs_quantized_tensors(name):
    class Unsupported(torch.nn.Module):
        def __init__(self, *args, **kwargs):
            raise NotImplementedError('torch.ao.nn.quantized.%s computes on quantized tensors, which this framework '
                                      'does not implement yet' % name)
    Unsupported.__name__ = Unsupported.__qualname__ = name
    return Unsupported


QFunctional = _needs_quantized_tensors('QFunctional')
Quantize = _needs_quantized_tensors('Quantize')
DeQuantize = _needs_quantized_tensors('DeQuantize')
