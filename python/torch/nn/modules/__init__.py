"""The module classes of torch.nn, in PyTorch's module layout (torch.nn.modules.conv, ...)."""
from torch.nn.modules.module import Module
from torch.nn.modules.container import Sequential, ModuleList, ModuleDict, ParameterList, ParameterDict
from torch.nn.modules.linear import Identity, Linear, Bilinear
from torch.nn.modules.conv import Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from torch.nn.modules.activation import ReLU, Tanh, Sigmoid
from torch.nn.modules.loss import L1Loss, NLLLoss, NLLLoss2d, PoissonNLLLoss, KLDivLoss, MSELoss, BCELoss, \
    BCEWithLogitsLoss, HingeEmbeddingLoss, SmoothL1Loss, HuberLoss, CrossEntropyLoss, CosineEmbeddingLoss, \
    MarginRankingLoss, TripletMarginLoss, CTCLoss
from torch.nn.modules.pooling import MaxPool1d, MaxPool2d, AvgPool1d, AvgPool2d, AdaptiveMaxPool1d, \
    AdaptiveMaxPool2d, AdaptiveAvgPool1d, AdaptiveAvgPool2d
from torch.nn.modules.batchnorm import BatchNorm1d, BatchNorm2d, BatchNorm3d
from torch.nn.modules.instancenorm import InstanceNorm1d, InstanceNorm2d, InstanceNorm3d
from torch.nn.modules.dropout import Dropout, Dropout1d, Dropout2d, Dropout3d, AlphaDropout, FeatureAlphaDropout
from torch.nn.modules.distance import PairwiseDistance
from torch.nn.modules.flatten import Flatten, Unflatten

__all__ = [
    'Module', 'Sequential', 'ModuleList', 'ModuleDict', 'ParameterList', 'ParameterDict',
    'Identity', 'Linear', 'Bilinear',
    'Conv1d', 'Conv2d', 'Conv3d', 'ConvTranspose1d', 'ConvTranspose2d', 'ConvTranspose3d',
    'ReLU', 'Tanh', 'Sigmoid',
    'L1Loss', 'NLLLoss', 'NLLLoss2d', 'PoissonNLLLoss', 'KLDivLoss', 'MSELoss', 'BCELoss', 'BCEWithLogitsLoss',
    'HingeEmbeddingLoss', 'SmoothL1Loss', 'HuberLoss', 'CrossEntropyLoss', 'CosineEmbeddingLoss',
    'MarginRankingLoss', 'TripletMarginLoss', 'CTCLoss',
    'MaxPool1d', 'MaxPool2d', 'AvgPool1d', 'AvgPool2d', 'AdaptiveMaxPool1d', 'AdaptiveMaxPool2d',
    'AdaptiveAvgPool1d', 'AdaptiveAvgPool2d',
    'BatchNorm1d', 'BatchNorm2d', 'BatchNorm3d', 'InstanceNorm1d', 'InstanceNorm2d', 'InstanceNorm3d',
    'Dropout', 'Dropout1d', 'Dropout2d', 'Dropout3d', 'AlphaDropout', 'FeatureAlphaDropout',
    'PairwiseDistance', 'Flatten', 'Unflatten',
]
