"""ChannelShuffle: interleaves the groups of channels (ShuffleNet's shuffle)."""
from torch.nn import functional as F
from torch.nn.modules.module import Module

__all__ = ['ChannelShuffle']


class ChannelShuffle(Module):
    """Splits the channels into `groups` groups and interleaves them."""

    __constants__ = ['groups']

    def __init__(self, groups):
        super().__init__()
        self.groups = groups

    def extra_repr(self):
        return 'groups={}'.format(self.groups)

    def forward(self, input):
        return F.channel_shuffle(input, self.groups)
