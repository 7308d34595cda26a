"""PixelShuffle and PixelUnshuffle: (*, C r^2, H, W) <-> (*, C, H r, W r)."""
from torch.nn import functional as F
from torch.nn.modules.module import Module

__all__ = ['PixelShuffle', 'PixelUnshuffle']


class PixelShuffle(Module):
    """Moves channel groups of upscale_factor^2 into upscale_factor x upscale_factor spatial blocks."""

    __constants__ = ['upscale_factor']

    def __init__(self, upscale_factor):
        super().__init__()
        self.upscale_factor = upscale_factor

    def forward(self, input):
        return F.pixel_shuffle(input, self.upscale_factor)

    def extra_repr(self):
        return 'upscale_factor={}'.format(self.upscale_factor)


class PixelUnshuffle(Module):
    """The inverse of PixelShuffle: spatial blocks into channels."""

    __constants__ = ['downscale_factor']

    def __init__(self, downscale_factor):
        super().__init__()
        self.downscale_factor = downscale_factor

    def forward(self, input):
        return F.pixel_unshuffle(input, self.downscale_factor)

    def extra_repr(self):
        return 'downscale_factor={}'.format(self.downscale_factor)
