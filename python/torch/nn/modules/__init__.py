"""The module classes of torch.nn."""
from torch.nn.modules.module import Module
from torch.nn.modules.container import Sequential, ModuleList, ModuleDict, ParameterList, ParameterDict
from torch.nn.modules.linear import Identity, Linear
from torch.nn.modules.flatten import Flatten, Unflatten
from torch.nn.modules.activation import ReLU, Tanh, Sigmoid
from torch.nn.modules.dropout import Dropout, Dropout1d, Dropout2d, Dropout3d, AlphaDropout, FeatureAlphaDropout

__all__ = ['Module', 'Sequential', 'ModuleList', 'ModuleDict', 'ParameterList', 'ParameterDict', 'Identity', 'Linear',
           'Flatten', 'Unflatten', 'ReLU', 'Tanh', 'Sigmoid', 'Dropout', 'Dropout1d', 'Dropout2d', 'Dropout3d',
           'AlphaDropout', 'FeatureAlphaDropout']
