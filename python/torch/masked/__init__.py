"""torch.masked: reductions and normalizations that ignore the elements where `mask` is False
(PyTorch 1.13's functional masked ops). The MaskedTensor prototype class is not here."""
from torch.masked._ops import (  # noqa: F401
    amax, amin, argmax, argmin, cumprod, cumsum, log_softmax, logaddexp, logsumexp, mean, median, norm, normalize,
    prod, softmax, softmin, std, sum, var,
)

__all__ = ['amax', 'amin', 'argmax', 'argmin', 'cumprod', 'cumsum', 'log_softmax', 'logaddexp', 'logsumexp', 'mean',
           'median', 'norm', 'normalize', 'prod', 'softmax', 'softmin', 'std', 'sum', 'var']
