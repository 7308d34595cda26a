"""QuantStub / DeQuantStub mark where a model's tensors would enter and leave the quantized domain; in float
(before convert) they pass their input through."""
import torch

__all__ = ['QuantStub', 'DeQuantStub', 'QuantWrapper']


class _Stub(torch.nn.Module):
    def __init__(self, qconfig=None):
        super().__init__()
        if qconfig:
            self.qconfig = qconfig

    def forward(self, x):
        return x


class QuantStub(_Stub):
    """Identity until convert() replaces it by a quantizer; qconfig is kept for that."""


class DeQuantStub(_Stub):
    """Identity until convert() replaces it by a dequantizer."""


class QuantWrapper(torch.nn.Module):
    """module between a QuantStub and a DeQuantStub."""

    def __init__(self, module):
        super().__init__()
        qconfig = getattr(module, 'qconfig', None)
        self.add_module('quant', QuantStub(qconfig))
        self.add_module('dequant', DeQuantStub(qconfig))
        self.add_module('module', module)
        self.train(module.training)

    def forward(self, x):
        return self.dequant(self.module(self.quant(x)))
