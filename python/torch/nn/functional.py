"""torch.nn.functional: the stateless forms of layers, activations and losses.

They are kept in two private modules, one per family, so that the families grow without touching each
other: _functional_spatial (convolution, pooling, normalisation, dropout, embedding, resampling,
padding) and _functional_pointwise (activations, softmax family, losses, recurrent cells, attention),
with _functional_geometry (normalize, cosine_similarity, pdist, affine_grid, grid_sample,
channel_shuffle), _functional_margin_losses (the margin and likelihood losses the op table lacks) and
_functional_pooling3d beside them.
"""
from torch.nn._functional_spatial import *  # noqa: F401,F403
from torch.nn._functional_pointwise import *  # noqa: F401,F403
from torch.nn._functional_dropout import *  # noqa: F401,F403
from torch.nn._functional_geometry import *  # noqa: F401,F403
from torch.nn._functional_margin_losses import *  # noqa: F401,F403
from torch.nn._functional_pooling3d import *  # noqa: F401,F403
