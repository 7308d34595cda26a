"""The module classes of torch.nn, in PyTorch's module layout (torch.nn.modules.conv, ...).

Left out: FractionalMaxPool2d/3d (no kernel yet), SyncBatchNorm (distributed), CrossMapLRN2d.
"""
from torch.nn.modules.module import Module
from torch.nn.modules.linear import Identity, Linear, Bilinear
from torch.nn.modules.conv import Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from torch.nn.modules.activation import Threshold, ReLU, Hardtanh, ReLU6, Sigmoid, Tanh, Softmax, Softmax2d, \
    LogSoftmax, ELU, SELU, CELU, GLU, GELU, Hardshrink, LeakyReLU, LogSigmoid, Softplus, Softshrink, \
    MultiheadAttention, PReLU, Softsign, Softmin, Tanhshrink, RReLU, Hardsigmoid, Hardswish, SiLU, Mish
from torch.nn.modules.loss import L1Loss, NLLLoss, KLDivLoss, MSELoss, BCELoss, BCEWithLogitsLoss, NLLLoss2d, \
    PoissonNLLLoss, CosineEmbeddingLoss, CTCLoss, HingeEmbeddingLoss, MarginRankingLoss, SmoothL1Loss, HuberLoss, \
    CrossEntropyLoss, TripletMarginLoss, SoftMarginLoss, MultiLabelSoftMarginLoss, MultiMarginLoss, \
    MultiLabelMarginLoss, GaussianNLLLoss, TripletMarginWithDistanceLoss
from torch.nn.modules.container import Sequential, ModuleList, ModuleDict, ParameterList, ParameterDict
from torch.nn.modules.pooling import AvgPool1d, AvgPool2d, MaxPool1d, MaxPool2d, AdaptiveMaxPool1d, \
    AdaptiveMaxPool2d, AdaptiveAvgPool1d, AdaptiveAvgPool2d, MaxPool3d, AvgPool3d, AdaptiveMaxPool3d, \
    AdaptiveAvgPool3d, MaxUnpool1d, MaxUnpool2d, MaxUnpool3d, LPPool1d, LPPool2d
from torch.nn.modules.batchnorm import BatchNorm1d, BatchNorm2d, BatchNorm3d
from torch.nn.modules.instancenorm import InstanceNorm1d, InstanceNorm2d, InstanceNorm3d
from torch.nn.modules.normalization import LocalResponseNorm, LayerNorm, GroupNorm
from torch.nn.modules.dropout import Dropout, Dropout1d, Dropout2d, Dropout3d, AlphaDropout, FeatureAlphaDropout
from torch.nn.modules.padding import ReflectionPad1d, ReflectionPad2d, ReflectionPad3d, ReplicationPad1d, \
    ReplicationPad2d, ReplicationPad3d, ZeroPad2d, ConstantPad1d, ConstantPad2d, ConstantPad3d
from torch.nn.modules.sparse import Embedding, EmbeddingBag
from torch.nn.modules.rnn import RNNBase, RNN, LSTM, GRU, RNNCellBase, RNNCell, LSTMCell, GRUCell
from torch.nn.modules.pixelshuffle import PixelShuffle, PixelUnshuffle
from torch.nn.modules.upsampling import Upsample, UpsamplingNearest2d, UpsamplingBilinear2d
from torch.nn.modules.distance import PairwiseDistance, CosineSimilarity
from torch.nn.modules.channelshuffle import ChannelShuffle
from torch.nn.modules.adaptive import AdaptiveLogSoftmaxWithLoss
from torch.nn.modules.lazy_layers import LazyLinear, LazyConv1d, LazyConv2d, LazyConv3d, LazyConvTranspose1d, \
    LazyConvTranspose2d, LazyConvTranspose3d, LazyBatchNorm1d, LazyBatchNorm2d, LazyBatchNorm3d, LazyInstanceNorm1d, \
    LazyInstanceNorm2d, LazyInstanceNorm3d
from torch.nn.modules.fold import Fold, Unfold
from torch.nn.modules.transformer import TransformerEncoder, TransformerDecoder, TransformerEncoderLayer, \
    TransformerDecoderLayer, Transformer
from torch.nn.modules.flatten import Flatten, Unflatten

__all__ = [
    'Module', 'Identity', 'Linear', 'Conv1d', 'Conv2d', 'Conv3d', 'ConvTranspose1d', 'ConvTranspose2d',
    'ConvTranspose3d', 'Threshold', 'ReLU', 'Hardtanh', 'ReLU6', 'Sigmoid', 'Tanh', 'Softmax', 'Softmax2d',
    'LogSoftmax', 'ELU', 'SELU', 'CELU', 'GLU', 'GELU', 'Hardshrink', 'LeakyReLU', 'LogSigmoid', 'Softplus',
    'Softshrink', 'MultiheadAttention', 'PReLU', 'Softsign', 'Softmin', 'Tanhshrink', 'RReLU', 'L1Loss', 'NLLLoss',
    'KLDivLoss', 'MSELoss', 'BCELoss', 'BCEWithLogitsLoss', 'NLLLoss2d', 'PoissonNLLLoss', 'CosineEmbeddingLoss',
    'CTCLoss', 'HingeEmbeddingLoss', 'MarginRankingLoss', 'SmoothL1Loss', 'HuberLoss', 'CrossEntropyLoss',
    'Sequential', 'ModuleList', 'ModuleDict', 'ParameterList', 'ParameterDict', 'AvgPool1d', 'AvgPool2d',
    'MaxPool1d', 'MaxPool2d', 'LocalResponseNorm', 'BatchNorm1d', 'BatchNorm2d', 'BatchNorm3d', 'InstanceNorm1d',
    'InstanceNorm2d', 'InstanceNorm3d', 'LayerNorm', 'GroupNorm', 'Dropout', 'Dropout1d', 'Dropout2d',
    'Dropout3d', 'AlphaDropout', 'FeatureAlphaDropout', 'ReflectionPad1d', 'ReflectionPad2d', 'ReflectionPad3d',
    'ReplicationPad2d', 'ReplicationPad1d', 'ReplicationPad3d', 'Embedding', 'EmbeddingBag', 'RNNBase', 'RNN',
    'LSTM', 'GRU', 'RNNCellBase', 'RNNCell', 'LSTMCell', 'GRUCell', 'PixelShuffle', 'PixelUnshuffle', 'Upsample',
    'UpsamplingNearest2d', 'UpsamplingBilinear2d', 'PairwiseDistance', 'AdaptiveMaxPool1d', 'AdaptiveMaxPool2d',
    'AdaptiveAvgPool1d', 'AdaptiveAvgPool2d', 'TripletMarginLoss', 'ZeroPad2d', 'ConstantPad1d', 'ConstantPad2d',
    'ConstantPad3d', 'Bilinear', 'Unfold', 'Fold', 'TransformerEncoder', 'TransformerDecoder',
    'TransformerEncoderLayer', 'TransformerDecoderLayer', 'Transformer', 'Flatten', 'Unflatten', 'Hardsigmoid',
    'Hardswish', 'SiLU', 'Mish', 'SoftMarginLoss', 'MultiLabelSoftMarginLoss', 'MultiMarginLoss',
    'MultiLabelMarginLoss', 'GaussianNLLLoss', 'TripletMarginWithDistanceLoss', 'CosineSimilarity', 'ChannelShuffle',
    'MaxPool3d', 'AvgPool3d', 'AdaptiveMaxPool3d', 'AdaptiveAvgPool3d', 'MaxUnpool1d', 'MaxUnpool2d', 'MaxUnpool3d',
    'LPPool1d', 'LPPool2d', 'AdaptiveLogSoftmaxWithLoss', 'LazyLinear', 'LazyConv1d', 'LazyConv2d', 'LazyConv3d',
    'LazyConvTranspose1d', 'LazyConvTranspose2d', 'LazyConvTranspose3d', 'LazyBatchNorm1d', 'LazyBatchNorm2d',
    'LazyBatchNorm3d', 'LazyInstanceNorm1d', 'LazyInstanceNorm2d', 'LazyInstanceNorm3d',
]
