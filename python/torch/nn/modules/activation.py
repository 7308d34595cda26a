"""Activation modules whose math is on main today: ReLU, Tanh, Sigmoid (the rest come with the
nn-pointwise family)."""
import torch
from torch.nn.modules.module import Module

__all__ = ['ReLU', 'Tanh', 'Sigmoid']


class ReLU(Module):
    """max(0, x) elementwise; inplace=True overwrites the input."""

    __constants__ = ['inplace']

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace

    def forward(self, input):
        # F.relu comes with the nn-pointwise family; it calls these very ops
        return torch.relu_(input) if self.inplace else torch.relu(input)

    def extra_repr(self):
        return 'inplace=True' if self.inplace else ''


class Sigmoid(Module):
    """1 / (1 + exp(-x)) elementwise."""

    def forward(self, input):
        return torch.sigmoid(input)


class Tanh(Module):
    """tanh(x) elementwise."""

    def forward(self, input):
        return torch.tanh(input)
