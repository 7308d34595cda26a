"""torch.jit.annotations: BroadcastingList1/2/3, the types of arguments that take one value or a list of
N (kernel_size=3 or (3, 3)). Subscripted they give None, as in PyTorch's eager mode: they only matter to
the TorchScript compiler."""
__all__ = ['BroadcastingList1', 'BroadcastingList2', 'BroadcastingList3']


class _BroadcastingList:
    def __init__(self, n):
        self.n = n

    def __getitem__(self, types):
        return None

    def __repr__(self):
        return 'BroadcastingList%d' % self.n


BroadcastingList1, BroadcastingList2, BroadcastingList3 = (_BroadcastingList(n) for n in (1, 2, 3))
